/*
 * The lowered validator (docs/backend.md §1, docs/lower.md): what must
 * hold for code generation to emit an instruction, checked per hardware
 * piece.  Rules follow Gen9's encoding restrictions as Mesa's
 * brw_eu_validate.c checks them; the piece width is the one code
 * generation splits by (lowered_piece_width(), lower.h's hw_exec_size()).
 *
 * Rules, each reported as "[rule]":
 *   lowered-op  no logical opcode, discard, terminate or derivative
 *   send        descriptor, payload and response sizes agree; payloads are
 *               whole values; SIMD8/16 only
 *   hw-imm      immediates only where the encoding has one: the last
 *               source of a one- or two-source instruction; none in
 *               three-source ones; 64-bit ones only in mov; vector ones
 *               at most 8 channels wide
 *   hw-3src     align16 three-source: F/HF/DF/D/UD operands, sources
 *               packed or scalar, packed destination
 *   hw-region   Gen9 region restrictions for explicit regions
 *   hw-dst      destination stride times size equals the execution
 *               type's size when the destination is narrower; integer/HF
 *               conversions write dword-strided
 *   hw-math     the math unit's operand types and regions
 *   hw-type     no integer multiply of 64-bit operands; a DW multiplied
 *               by a narrower integer is src0; Gen9 csel is F only and
 *               unpredicated; sel has a predicate or a condition
 * They hold for allocated IR too.
 */
#include "ir/ibis_validate.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace ibis {

namespace {

constexpr unsigned GRF = 32;

/* Bytes from the start of the operand's first register to the end of the
 * last element n channels read or write; 0 for scalars and flags.
 */
unsigned
operand_span(const operand &o, unsigned n, bool is_dst)
{
   if (!o.val || o.val->file == reg_file::flag || o.val->file == reg_file::accum)
      return 0;
   const unsigned tb = std::max(1u, type_bits(o.type) / 8);
   unsigned last;
   if (o.has_region) {
      const region r = o.rgn;
      if (!is_dst && r.vstride == 0 && r.hstride == 0 && r.width <= 1)
         return 0;
      if (is_dst) {
         last = (n - 1) * std::max<unsigned>(1, r.hstride);
      } else {
         const unsigned w = std::max<unsigned>(1, r.width);
         last = ((n - 1) / w) * r.vstride + ((n - 1) % w) * r.hstride;
      }
   } else {
      if (!is_dst && (o.val->width == 1 || o.val->file == reg_file::uniform))
         return 0;
      last = n - 1;
   }
   return o.offset % GRF + (last + 1) * tb;
}

bool
is_mixed_float(const instr *in)
{
   bool f16 = false, f32 = false;
   auto see = [&](const operand &o) {
      if (o.type == data_type::f16)
         f16 = true;
      else if (o.type == data_type::f32 || o.type == data_type::vf)
         f32 = true;
   };
   for (const operand &d : in->dsts())
      see(d);
   for (const operand &s : in->srcs())
      see(s);
   return f16 && f32;
}

bool
is_int_div(opcode op)
{
   return op == opcode::math_idiv || op == opcode::math_irem ||
          op == opcode::math_idivrem;
}

bool
is_3src(const instr *in)
{
   return in->info().kind == opcode_kind::alu && in->info().num_srcs == 3;
}

bool
is_scalar(const operand &o)
{
   if (o.is_imm())
      return true;
   if (!o.val)
      return false;
   if (o.has_region)
      return o.rgn.vstride == 0 && o.rgn.hstride == 0 && o.rgn.width <= 1;
   return o.val->width == 1 || o.val->file == reg_file::uniform;
}

/* Packed: consecutive elements (no region, or <W*1;W,1>-like). */
bool
is_packed(const operand &o)
{
   if (!o.has_region)
      return true;
   const region r = o.rgn;
   return r.hstride == 1 && r.vstride == r.width;
}

/* Bytes of the execution type (brw_eu_validate.c execution_type()). */
unsigned
exec_type_bytes(const instr *in)
{
   bool any_float = false;
   unsigned float_bytes = 0, int_bytes = 0;
   for (const operand &s : in->srcs()) {
      if (s.is_null() || s.type == data_type::flag)
         continue;
      data_type t = s.type;
      if (t == data_type::v || t == data_type::uv) {
         int_bytes = std::max(int_bytes, 2u);
      } else if (t == data_type::vf) {
         any_float = true;
         float_bytes = std::max(float_bytes, 4u);
      } else if (type_is_float(t)) {
         any_float = true;
         float_bytes = std::max(float_bytes, type_bits(t) / 8);
      } else {
         /* Bytes and vector immediates execute as words. */
         int_bytes = std::max(int_bytes, std::max(2u, type_bits(t) / 8));
      }
   }
   if (is_mixed_float(in))
      return 4;
   if (in->num_srcs() == 1 && float_bytes == 2 && !in->dsts().empty())
      return type_bits(in->dst().type) / 8;
   return any_float ? float_bytes : int_bytes;
}

/* A plain ALU instruction (not three-source) of 16-bit integers only. */
bool
word_alu(const instr *in)
{
   if (in->info().kind != opcode_kind::alu || is_3src(in) || in->predicate() ||
       in->flag_def() || in->dsts().size() != 1 || !in->dst().val)
      return false;
   auto word = [](data_type t) {
      return t == data_type::u16 || t == data_type::s16 ||
             t == data_type::v || t == data_type::uv;
   };
   if (!word(in->dst().type))
      return false;
   for (const operand &o : in->srcs())
      if (o.is_null() || !word(o.type))
         return false;
   return true;
}

} /* anonymous namespace */

unsigned
lowered_piece_width(const instr *in)
{
   const unsigned exec = in->exec_size;
   const opcode_info &info = in->info();

   /* Lowering already gave every message its final width. */
   if (info.kind == opcode_kind::send || info.kind == opcode_kind::logical ||
       info.kind == opcode_kind::cf || in->op == opcode::wait ||
       in->op == opcode::nop)
      return exec;

   /* Gen9 instruction controls address at most 16 channels; a NoMask
    * one needs none, so one of words (two GRFs at 32) runs at 32, as
    * brw's add(32) of the pixel centers.
    */
   unsigned max = std::min(exec, 16u);
   if (exec == 32 && in->we_all() && word_alu(in))
      max = 32;
   if (info.kind == opcode_kind::math) {
      const bool half = !in->dsts().empty() && in->dst().type == data_type::f16;
      if (is_int_div(in->op) || half)
         max = std::min(max, 8u);
   }
   /* Mixed float mode with an f32 destination: no SIMD16.  Nor with a
    * packed f16 one, conversion moves included (brw's
    * get_fpu_lowered_simd_width; Mesa's EU validator: "Align1 mixed mode
    * packed half-float output must not cross oword boundaries").
    */
   if (is_mixed_float(in) && !in->dsts().empty()) {
      const operand &d = in->dst();
      const bool packed_f16 = d.type == data_type::f16 &&
                              (!d.has_region || d.rgn.hstride <= 1);
      if (d.type == data_type::f32 || packed_f16)
         max = std::min(max, 8u);
   }

   /* No operand may span more than two registers. */
   auto fits = [&](unsigned n) {
      for (const operand &d : in->dsts())
         if (operand_span(d, n, true) > 2 * GRF)
            return false;
      for (const operand &s : in->srcs())
         if (operand_span(s, n, false) > 2 * GRF)
            return false;
      return true;
   };
   while (max > 1 && !fits(max))
      max /= 2;
   return max;
}

namespace {

class lowered_validator {
public:
   explicit lowered_validator(const shader &s) : sh(s) {}

   std::vector<std::string> run()
   {
      for (const auto &b : sh.blocks())
         for (const instr *in : b->instrs())
            check(in);
      return errors;
   }

private:
   const shader &sh;
   std::vector<std::string> errors;

   void report(const instr *in, const char *rule, const char *fmt, ...)
      __attribute__((format(printf, 4, 5)))
   {
      char buf[512];
      va_list ap;
      va_start(ap, fmt);
      std::vsnprintf(buf, sizeof(buf), fmt, ap);
      va_end(ap);
      std::string where = in->parent() ? "block" +
         std::to_string(in->parent()->index) : std::string("?");
      errors.push_back(where + ": '" + in->str() + "': " + buf + " [" + rule + "]");
   }

   void check(const instr *in)
   {
      const opcode_kind k = in->info().kind;
      switch (in->op) {
      case opcode::discard:
      case opcode::terminate:
      case opcode::ddx_coarse:
      case opcode::ddx_fine:
      case opcode::ddy_coarse:
      case opcode::ddy_fine:
         report(in, "lowered-op", "%s does not survive lowering", in->info().name);
         return;
      default:
         break;
      }
      if (k == opcode_kind::logical) {
         report(in, "lowered-op", "logical opcode %s in lowered IR",
                in->info().name);
         return;
      }
      if (in->op == opcode::send) {
         check_send(in);
         return;
      }
      if (k != opcode_kind::alu && k != opcode_kind::math &&
          in->op != opcode::copy)
         return;
      if (in->op == opcode::nop || in->op == opcode::wait)
         return;
      const unsigned piece = lowered_piece_width(in);
      check_immediates(in, piece);
      if (is_3src(in))
         check_3src(in);
      for (unsigned i = 0; i < in->num_srcs(); i++)
         check_region(in, in->src(i), piece);
      check_dst(in);
      if (k == opcode_kind::math)
         check_math(in);
      check_types(in);
   }

   /* --- sends ----------------------------------------------------------- */
   void check_send(const instr *in)
   {
      if (in->num_srcs() != 5) {
         report(in, "send", "send takes sfid, desc, ex_desc, payload0, payload1");
         return;
      }
      if (in->exec_size != 1 && in->exec_size != 8 && in->exec_size != 16)
         report(in, "send", "messages are SIMD1, SIMD8 or SIMD16, not SIMD%u",
                in->exec_size);
      const operand &sfid = in->src(0), &desc = in->src(1), &ex = in->src(2);
      const operand &p0 = in->src(3), &p1 = in->src(4);
      if (!sfid.is_imm() || sfid.imm > 15)
         report(in, "send", "the shared function id must be an immediate 0-15");
      if (!ex.is_imm())
         report(in, "send", "the extended descriptor must be an immediate");
      bool desc_imm = desc.is_imm();
      if (!desc_imm && !(desc.val && desc.val->width == 1 &&
                         type_bits(desc.type) == 32))
         report(in, "send", "the descriptor must be an immediate or a "
                "width-1 32-bit value");
      if (!p0.val) {
         report(in, "send", "payload0 must be a value");
         return;
      }
      auto whole_regs = [&](const operand &o, const char *what) -> int {
         if (o.offset % GRF || (o.val->size_bytes() - o.offset) % GRF) {
            report(in, "send", "%s is not whole GRFs (%u bytes from %u)", what,
                   o.val->size_bytes(), o.offset);
            return -1;
         }
         return (o.val->size_bytes() - o.offset) / GRF;
      };
      const int p0_regs = whole_regs(p0, "payload0");
      int p1_regs = 0;
      if (!p1.is_null()) {
         if (!p1.val)
            report(in, "send", "payload1 must be a value");
         else
            p1_regs = whole_regs(p1, "payload1");
      }
      int dst_regs = 0;
      if (in->num_dsts() && !in->dst().is_null())
         dst_regs = whole_regs(in->dst(), "the destination");
      if (ex.is_imm()) {
         const unsigned ex_mlen = (ex.imm >> 6) & 0xf;
         if (p1.is_null() && ex_mlen)
            report(in, "send", "ex_mlen %u without payload1", ex_mlen);
         else if (!p1.is_null() && p1_regs >= 0 && unsigned(p1_regs) != ex_mlen)
            report(in, "send", "payload1 is %d GRFs, ex_mlen says %u", p1_regs,
                   ex_mlen);
      }
      if (desc_imm) {
         const unsigned mlen = (desc.imm >> 25) & 0xf;
         const unsigned rlen = (desc.imm >> 20) & 0x1f;
         if (p0_regs >= 0 && unsigned(p0_regs) != mlen)
            report(in, "send", "payload0 is %d GRFs, mlen says %u", p0_regs, mlen);
         if (dst_regs >= 0 && unsigned(dst_regs) != rlen)
            report(in, "send", "the destination is %d GRFs, rlen says %u",
                   dst_regs, rlen);
      }
      if (in->flags & INSTR_EOT) {
         for (const operand *p : {&p0, &p1}) {
            if (p->val && p->val->phys.kind == phys_reg::grf &&
                p->val->phys.nr + p->offset / GRF < 112)
               report(in, "send", "an EOT payload must be in g112-g127");
         }
      }
   }

   /* --- immediates ------------------------------------------------------- */
   void check_immediates(const instr *in, unsigned piece)
   {
      const unsigned n = in->num_srcs();
      for (unsigned i = 0; i < n; i++) {
         const operand &o = in->src(i);
         if (!o.is_imm())
            continue;
         if (is_3src(in)) {
            report(in, "hw-imm", "three-source instructions take no immediates");
            return;
         }
         if (i + 1 != n)
            report(in, "hw-imm", "only the last source may be an immediate "
                   "(source %u is one)", i);
         if (type_bits(o.type) == 64 && in->op != opcode::mov &&
             in->op != opcode::copy)
            report(in, "hw-imm", "64-bit immediates exist only for mov");
         if (in->info().kind == opcode_kind::math && n == 1)
            report(in, "hw-imm", "math takes no immediate source 0");
      }
   }

   /* --- three-source ----------------------------------------------------- */
   void check_3src(const instr *in)
   {
      auto type_ok = [](data_type t) {
         return t == data_type::f32 || t == data_type::f16 ||
                t == data_type::f64 || t == data_type::s32 ||
                t == data_type::u32;
      };
      for (unsigned i = 0; i < in->num_srcs(); i++) {
         const operand &o = in->src(i);
         if (o.is_null() || o.is_imm())
            continue;
         if (!type_ok(o.type))
            report(in, "hw-3src", "source %u type %s is not F, HF, DF, D or UD",
                   i, type_name(o.type));
         if (!is_scalar(o) && !is_packed(o))
            report(in, "hw-3src", "source %u must be packed or scalar", i);
      }
      if (in->num_dsts() && !in->dst().is_null()) {
         const operand &d = in->dst();
         if (!type_ok(d.type))
            report(in, "hw-3src", "destination type %s is not F, HF, DF, D or UD",
                   type_name(d.type));
         if (d.has_region && d.rgn.hstride != 1)
            report(in, "hw-3src", "the destination must be packed");
      }
   }

   /* --- regions (brw_eu_validate.c general restrictions) ------------------ */
   void check_region(const instr *in, const operand &o, unsigned piece)
   {
      if (!o.val || !o.has_region)
         return;
      const region r = o.rgn;
      /* A contiguous region (rows back to back) narrows to the piece in
       * code generation; any other wider region cannot.
       */
      if (piece < r.width && r.vstride != r.width * r.hstride)
         report(in, "hw-region", "region width %u exceeds the piece's %u "
                "channels", r.width, piece);
      if (piece == r.width && r.hstride && r.vstride != r.width * r.hstride)
         report(in, "hw-region", "with ExecSize == Width, VertStride must be "
                "Width * HorzStride in <%u,%u,%u>", r.vstride, r.width, r.hstride);
      if (r.width == 1 && r.hstride != 0)
         report(in, "hw-region", "Width 1 needs HorzStride 0 in <%u,%u,%u>",
                r.vstride, r.width, r.hstride);
      if (r.vstride == 0 && r.hstride == 0 && r.width != 1)
         report(in, "hw-region", "<0,%u,0> must have Width 1", r.width);
      const unsigned tb = std::max(1u, type_bits(o.type) / 8);
      if (o.offset % tb)
         report(in, "hw-region", "offset %u is not aligned to the %u-byte type",
                o.offset, tb);
   }

   /* --- destination ------------------------------------------------------ */
   void check_dst(const instr *in)
   {
      if (!in->num_dsts() || in->dst().is_null())
         return;
      const operand &d = in->dst();
      const unsigned stride = d.has_region ? d.rgn.hstride : 1;
      if (stride == 0)
         report(in, "hw-dst", "destination stride 0");
      const unsigned dst_bytes = std::max(1u, type_bits(d.type) / 8);
      /* Conversions between integers and HF write dword-strided. */
      bool int_src = false, hf_src = false;
      for (const operand &o : in->srcs()) {
         if (o.is_null())
            continue;
         int_src |= !type_is_float(o.type) && o.type != data_type::vf;
         hf_src |= o.type == data_type::f16;
      }
      if (((d.type == data_type::f16 && int_src) ||
           (!type_is_float(d.type) && hf_src)) && stride * dst_bytes != 4)
         report(in, "hw-dst", "a conversion between integer and HF needs a "
                "dword-strided destination");
      const unsigned exec_bytes = exec_type_bytes(in);
      if (!exec_bytes || is_mixed_float(in) || exec_bytes <= dst_bytes)
         return;
      const bool raw_byte_move =
         dst_bytes == 1 && (in->op == opcode::mov || in->op == opcode::copy) &&
         !in->src(0).neg && !in->src(0).abs && !in->saturate &&
         (in->src(0).type == d.type);
      if (!raw_byte_move && stride * dst_bytes != exec_bytes)
         report(in, "hw-dst", "a %u-byte destination of a %u-byte execution "
                "type needs stride %u, not %u", dst_bytes, exec_bytes,
                exec_bytes / dst_bytes, stride);
   }

   /* --- math ------------------------------------------------------------- */
   void check_math(const instr *in)
   {
      const bool idiv = is_int_div(in->op);
      for (unsigned i = 0; i < in->num_srcs(); i++) {
         const operand &o = in->src(i);
         if (o.is_null())
            continue;
         const bool ok = idiv ? (o.type == data_type::s32 || o.type == data_type::u32)
                              : (o.type == data_type::f32 || o.type == data_type::f16 ||
                                 (o.type == data_type::f64 &&
                                  (in->op == opcode::math_invm ||
                                   in->op == opcode::math_rsqrtm)));
         if (!ok)
            report(in, "hw-math", "math %s source %u of type %s",
                   in->info().math_function, i, type_name(o.type));
         if (!o.is_imm() && !is_scalar(o) && !is_packed(o))
            report(in, "hw-math", "math source %u must be packed or scalar", i);
      }
      if (is_mixed_float(in))
         report(in, "hw-math", "math does not mix F and HF");
   }

   /* --- types ------------------------------------------------------------ */
   void check_types(const instr *in)
   {
      if (in->op == opcode::mul || in->op == opcode::mach || in->op == opcode::mac) {
         for (const operand &o : in->srcs()) {
            if (!o.is_null() && !type_is_float(o.type) && type_bits(o.type) == 64) {
               report(in, "hw-type", "no %s of 64-bit integers", in->info().name);
               break;
            }
         }
      }
      if (in->op == opcode::mul && in->num_srcs() == 2) {
         const data_type t0 = in->src(0).type, t1 = in->src(1).type;
         if (!type_is_float(t1) && type_bits(t1) == 32 && type_bits(t0) < 32)
            report(in, "hw-type", "multiplying a DW by a narrower integer, "
                   "the DW operand must be src0");
      }
      if (in->op == opcode::csel) {
         bool all_f = in->num_dsts() && in->dst().type == data_type::f32;
         for (const operand &o : in->srcs())
            all_f &= o.type == data_type::f32;
         if (!all_f)
            report(in, "hw-type", "Gen9 csel is F only");
         if (in->predicate())
            report(in, "hw-type", "csel cannot be predicated");
      }
      if (in->op == opcode::sel &&
          (in->cmod != cond_mod::none) == (in->predicate() != nullptr))
         report(in, "hw-type", "sel needs a predicate or a condition, not both");
      if (in->saturate && in->num_dsts() && !in->dst().is_null() &&
          !type_is_float(in->dst().type) && in->info().kind == opcode_kind::math)
         report(in, "hw-type", "integer math cannot saturate");
   }
};

} /* anonymous namespace */

std::vector<std::string>
validate_lowered_errors(const shader &s)
{
   lowered_validator v(s);
   return v.run();
}

} /* namespace ibis */
