/*
 * Execution of Gen9 instructions: operand regions, types and conversions,
 * the ALU, flags and predication, and structured control flow.
 *
 * Control flow follows the hardware's per-channel instruction pointers:
 * every dispatched channel has a PcIP, and an instruction executes on the
 * channels whose PcIP equals the thread's IP.  Branches move the PcIP of
 * the channels that branch; when no channel is left to run the next
 * instruction the thread jumps to JIP, which brw points at the next place
 * where channels can join again (else+1, endif, while).  This is the model
 * the JIP/UIP fields of IF/ELSE/ENDIF/WHILE/BREAK/CONT/HALT are defined
 * against, so nested divergent control flow needs no mask stack.
 */
#include <cmath>
#include <cstdarg>
#include <memory>

#include "sim/sim_internal.h"

namespace ibis::sim {

using isa::opcode;
using isa::reg;
using isa::reg_file;
using isa::type;
using i128 = __int128;

void
exec_ctx::fail(const char *fmt, ...) const
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   std::string dis = isa::disassemble(in, t.gen, offset);
   while (!dis.empty() && (dis.back() == '\n' || dis.back() == ' '))
      dis.pop_back();
   for (char &ch : dis) {
      if (ch == '\n')
         ch = ' ';
   }
   throw error(strfmt("sim: offset 0x%zx: %s: %s", offset, dis.c_str(), msg.c_str()));
}

namespace {

constexpr unsigned arf_file_size = 64;

/* ---- Operand storage ---- */

struct location {
   enum kind { grf, flag, addr, cr0, sr0, acc, null, ce, ip, tm } k = null;
   size_t byte = 0;   /* offset inside the file */
};

struct thread_state {
   thread &t;
   int64_t ip = 0;
   std::array<int64_t, max_channels> pcip{};
   /* BREAK sends channels to the WHILE (its UIP on Gen7+), like CONT, but
    * they must leave the loop there instead of testing its condition.
    */
   std::array<bool, max_channels> broken{};
   uint64_t count = 0;

   uint32_t active() const
   {
      uint32_t m = 0;
      for (unsigned c = 0; c < t.simd; c++) {
         if (pcip[c] == ip)
            m |= 1u << c;
      }
      return m & t.dispatch_mask;
   }
};

class executor {
public:
   executor(exec_ctx &c, thread_state &s)
      : c(c), t(c.t), s(s), in(c.in),
        raw_move(in.op == isa::opcode::mov && !in.saturate &&
                 in.src[0].type == in.dst.type)
   {}
   void alu();

private:
   exec_ctx &c;
   thread &t;
   thread_state &s;
   const isa::inst &in;
   /* A mov of one float type to itself (sign modifiers allowed) moves the
    * bits: it keeps denormals whatever cr0 says.
    */
   const bool raw_move;

   rnd_mode mode() const { return rnd_mode((t.cr0 >> cr0_rnd_mode_shift) & 3); }

   location locate(const reg &r, unsigned i, bool is_dst);
   uint64_t load(const location &l, type ty);
   void store(const location &l, type ty, uint64_t bits);
   acc_value &acc_at(const location &l, type ty);

   struct val {
      bool fl = false;   /* float value in f, integer in i */
      double f = 0;
      i128 i = 0;
   };
   val read_src(unsigned n, unsigned i, bool exec_float, bool logic);
   val to_float(val v) const;
   double flush(double v, type ty) const;
   double round_exec(double v, type exec) const;
   uint64_t convert(val v, type dst, bool sat, val *stored);
   bool test_cmod(isa::cond_mod m, const val &v);
   bool compare(isa::cond_mod m, const val &a, const val &b);
   type exec_type(unsigned nsrc, bool *fl);
   val math(unsigned i, bool *ok);
};

/* Sub-register element size for region arithmetic. */
unsigned
elem_size(type ty)
{
   switch (ty) {
   case type::V: case type::UV: return 2;
   case type::VF: return 4;
   default: return isa::type_size(ty);
   }
}

location
executor::locate(const reg &r, unsigned i, bool is_dst)
{
   unsigned size = elem_size(r.type);
   location l;
   size_t elem;
   if (is_dst) {
      if (in.access == isa::access_mode::align16) {
         elem = i;
      } else {
         if (r.hstride == 0 && in.exec_size > 1)
            c.fail("destination horizontal stride 0");
         elem = size_t(i) * r.hstride;
      }
   } else if (in.access == isa::access_mode::align16) {
      /* Channels in groups of four, each picking a component by swizzle. */
      unsigned swz = (r.swizzle >> (2 * (i % 4))) & 3;
      if (r.vstride == 0 && r.width == 1 && r.hstride == 0)
         elem = 0;   /* three-source replicate */
      else if (r.vstride == 0)
         elem = swz;
      else
         elem = (i / 4) * 4 + swz;
   } else if (r.vstride == isa::vstride_vxh) {
      elem = 0;      /* per-row address below */
   } else {
      unsigned w = std::max<unsigned>(r.width, 1);
      elem = size_t(i / w) * r.vstride + size_t(i % w) * r.hstride;
   }

   size_t base;
   if (r.indirect) {
      unsigned sub = r.ia_subnr;
      if (!is_dst && r.vstride == isa::vstride_vxh) {
         unsigned w = std::max<unsigned>(r.width, 1);
         sub += i / w;
         elem = size_t(i % w) * r.hstride;
      }
      if (sub >= 16)
         c.fail("indirect address register a0.%u out of range", sub);
      base = size_t(t.a0[sub]) + r.ia_imm;
      if (r.file != reg_file::grf)
         c.fail("indirect addressing of an ARF");
   } else {
      base = size_t(r.nr) * grf_size + r.subnr;
   }
   l.byte = base + elem * size;

   if (r.file == reg_file::grf) {
      l.k = location::grf;
      if (l.byte + size > num_grfs * grf_size)
         c.fail("GRF access at byte %zu out of range", l.byte);
      return l;
   }
   /* ARF: byte offset inside the named register. */
   l.byte = size_t(r.subnr) + elem * size;
   unsigned idx = r.nr & 0xf;
   switch (r.arf_kind()) {
   case isa::arf::null: l.k = location::null; break;
   case isa::arf::address:
      l.k = location::addr;
      if (idx != 0 || l.byte + size > 32)
         c.fail("address register access out of range");
      break;
   case isa::arf::acc:
      l.k = location::acc;
      if (idx > 1)
         c.fail("accumulator acc%u not modeled", idx);
      l.byte += idx * grf_size;
      break;
   case isa::arf::flag:
      l.k = location::flag;
      l.byte += idx * 4;
      if (idx > 1 || l.byte + size > 8)
         c.fail("flag register access out of range");
      break;
   case isa::arf::control:
      l.k = location::cr0;
      if (idx != 0 || l.byte + size > 4)
         c.fail("only cr0.0 is modeled");
      break;
   case isa::arf::state:
      l.k = location::sr0;
      if (idx != 0 || l.byte + size > 16)
         c.fail("state register access out of range");
      break;
   case isa::arf::mask:
      l.k = location::ce;
      if (is_dst)
         c.fail("writing the channel enable register");
      break;
   case isa::arf::ip: l.k = location::ip; break;
   case isa::arf::timestamp: l.k = location::tm; break;
   default:
      c.fail("architecture register 0x%x not modeled", r.nr);
   }
   return l;
}

acc_value &
executor::acc_at(const location &l, type ty)
{
   /* Element n of a linear region is channel n's accumulator. */
   size_t e = l.byte / elem_size(ty);
   IBIS_CHECK(e < t.acc.size(), "accumulator element %zu", e);
   return t.acc[e];
}

uint64_t
executor::load(const location &l, type ty)
{
   unsigned size = elem_size(ty);
   uint64_t v = 0;
   switch (l.k) {
   case location::grf:
      std::memcpy(&v, &t.grf[l.byte], size);
      return v;
   case location::flag:
      std::memcpy(&v, reinterpret_cast<const uint8_t *>(t.flag.data()) + l.byte, size);
      return v;
   case location::addr:
      std::memcpy(&v, reinterpret_cast<const uint8_t *>(t.a0.data()) + l.byte, size);
      return v;
   case location::cr0:
      std::memcpy(&v, reinterpret_cast<const uint8_t *>(&t.cr0) + l.byte, size);
      return v;
   case location::sr0:
      std::memcpy(&v, reinterpret_cast<const uint8_t *>(t.sr0.data()) + l.byte, size);
      return v;
   case location::ce: {
      uint64_t ce = s.active();
      return (ce >> (8 * l.byte)) & (size >= 8 ? ~0ull : (1ull << (8 * size)) - 1);
   }
   case location::ip:
      return uint64_t(s.ip);
   case location::tm:
      return s.count;
   case location::null:
      return 0;
   case location::acc: {
      const acc_value &a = acc_at(l, ty);
      switch (ty) {
      case type::F: return float_to_bits(float(a.f));
      case type::DF: return double_to_bits(a.f);
      case type::HF: return double_to_half(a.f, rnd_mode::rtne);
      default: return uint64_t(a.i);
      }
   }
   }
   return 0;
}

void
executor::store(const location &l, type ty, uint64_t bits)
{
   unsigned size = elem_size(ty);
   switch (l.k) {
   case location::grf:
      std::memcpy(&t.grf[l.byte], &bits, size);
      return;
   case location::flag:
      std::memcpy(reinterpret_cast<uint8_t *>(t.flag.data()) + l.byte, &bits, size);
      return;
   case location::addr:
      std::memcpy(reinterpret_cast<uint8_t *>(t.a0.data()) + l.byte, &bits, size);
      return;
   case location::cr0:
      std::memcpy(reinterpret_cast<uint8_t *>(&t.cr0) + l.byte, &bits, size);
      return;
   case location::sr0:
      std::memcpy(reinterpret_cast<uint8_t *>(t.sr0.data()) + l.byte, &bits, size);
      return;
   case location::acc: {
      acc_value &a = acc_at(l, ty);
      switch (ty) {
      case type::F: a.f = bits_to_float(uint32_t(bits)); a.i = int64_t(a.f); break;
      case type::DF: a.f = bits_to_double(bits); a.i = int64_t(a.f); break;
      case type::HF: a.f = half_to_float(uint16_t(bits)); a.i = int64_t(a.f); break;
      default: {
         /* Sign- or zero-extend from the written type. */
         unsigned b = 8 * size;
         uint64_t m = b >= 64 ? ~0ull : (1ull << b) - 1;
         bits &= m;
         if (is_signed_type(ty) && b < 64 && (bits >> (b - 1)) & 1)
            bits |= ~m;
         a.i = int64_t(bits);
         a.f = double(a.i);
      }
      }
      return;
   }
   case location::null:
      return;
   default:
      c.fail("destination register not writable");
   }
}

double
executor::flush(double v, type ty) const
{
   if (v == 0 || !std::isfinite(v))
      return v;
   double min;
   uint32_t keep;
   switch (ty) {
   case type::HF: min = 6.103515625e-05; keep = cr0_fp16_denorm_preserve; break;
   case type::DF: min = 2.2250738585072014e-308; keep = cr0_fp64_denorm_preserve; break;
   default: min = 1.1754943508222875e-38; keep = cr0_fp32_denorm_preserve; break;
   }
   if ((t.cr0 & keep) || std::fabs(v) >= min || raw_move)
      return v;
   return std::copysign(0.0, v);
}

/* Source element i of source n, with modifiers applied. */
executor::val
executor::read_src(unsigned n, unsigned i, bool exec_float, bool logic)
{
   const reg &r = in.src[n];
   uint64_t bits;
   type ty = r.type;
   if (r.file == reg_file::imm) {
      switch (ty) {
      case type::V: {
         int64_t e = (r.imm >> (4 * (i % 8))) & 0xf;
         bits = uint64_t(e >= 8 ? e - 16 : e);
         ty = type::W;
         break;
      }
      case type::UV:
         bits = (r.imm >> (4 * (i % 8))) & 0xf;
         ty = type::UW;
         break;
      case type::VF:
         bits = double_to_bits(vf_to_double(uint8_t(r.imm >> (8 * (i % 4)))));
         ty = type::DF;
         break;
      default:
         bits = r.imm;
      }
   } else {
      bits = load(locate(r, i, false), ty);
   }

   val v;
   unsigned size = isa::type_size(ty);
   /* Integer execution reads float-typed sources as bits (bit operations). */
   if (is_float_type(ty) && exec_float) {
      v.fl = true;
      switch (ty) {
      case type::F: v.f = bits_to_float(uint32_t(bits)); break;
      case type::HF: v.f = half_to_float(uint16_t(bits)); break;
      default: v.f = bits_to_double(bits); break;
      }
      /* VF immediates are never denormal; others flush per precision. */
      if (r.file != reg_file::imm || ty != type::DF)
         v.f = flush(v.f, ty);
      if (r.abs)
         v.f = std::fabs(v.f);
      if (r.negate)
         v.f = -v.f;
   } else {
      unsigned b = 8 * size;
      uint64_t m = b >= 64 ? ~0ull : (1ull << b) - 1;
      bits &= m;
      if (logic && r.negate)
         bits = ~bits & m;
      if (is_signed_type(ty) && b < 64 && (bits >> (b - 1)) & 1)
         v.i = i128(int64_t(bits | ~m));
      else if (is_signed_type(ty))
         v.i = i128(int64_t(bits));
      else
         v.i = i128(bits);
      if (!logic && (r.abs || r.negate)) {
         if (r.abs && v.i < 0)
            v.i = -v.i;
         if (r.negate)
            v.i = -v.i;
         /* The hardware negates at the source's width (brw's lower_sub_sat):
          * -(-2^(b-1)) is -2^(b-1) again.  Only the accumulator is wider.
          */
         const bool acc = r.file == reg_file::arf && (r.nr & 0xf0) == uint8_t(isa::arf::acc);
         if (!acc) {
            const uint64_t w = uint64_t(v.i) & m;
            if (is_signed_type(ty) && (w >> (b - 1)) & 1)
               v.i = i128(int64_t(w | ~m));
            else if (is_signed_type(ty))
               v.i = i128(int64_t(w));
            else
               v.i = i128(w);
         }
      }
   }
   if (exec_float)
      v = to_float(v);
   return v;
}

executor::val
executor::to_float(val v) const
{
   if (!v.fl) {
      v.fl = true;
      v.f = double(v.i);
   }
   return v;
}

/* Rounds a float result to the execution precision. */
double
executor::round_exec(double v, type exec) const
{
   switch (exec) {
   case type::DF: return flush(v, type::DF);
   case type::HF: return flush(round_to_half(v, mode()), type::HF);
   default: return flush(round_to_float(v, mode()), type::F);
   }
}

/* Converts a result to the destination type; *stored is what the
 * destination now holds, for conditional modifiers.
 */
uint64_t
executor::convert(val v, type dst, bool sat, val *stored)
{
   val out;
   uint64_t bits = 0;
   if (is_float_type(dst)) {
      double f = v.fl ? v.f : double(v.i);
      if (sat)
         f = std::isnan(f) ? 0.0 : std::min(1.0, std::max(0.0, f));
      switch (dst) {
      case type::F:
         f = flush(round_to_float(f, mode()), type::F);
         bits = float_to_bits(float(f));
         break;
      case type::HF:
         f = flush(round_to_half(f, mode()), type::HF);
         bits = double_to_half(f, mode());
         break;
      default:
         f = flush(f, type::DF);
         bits = double_to_bits(f);
      }
      out.fl = true;
      out.f = f;
   } else {
      unsigned b = 8 * isa::type_size(dst);
      bool sgn = is_signed_type(dst);
      i128 lo = sgn ? -(i128(1) << (b - 1)) : 0;
      i128 hi = sgn ? (i128(1) << (b - 1)) - 1 : (i128(1) << b) - 1;
      i128 x;
      if (v.fl) {
         /* Float to integer: round toward zero, saturate, NaN gives 0. */
         double f = std::trunc(v.f);
         if (std::isnan(f))
            x = 0;
         else if (f <= double(lo))
            x = lo;
         else if (f >= double(hi))
            x = hi;
         else
            x = i128(f);
      } else {
         x = v.i;
         if (sat)
            x = std::min(hi, std::max(lo, x));
      }
      uint64_t m = b >= 64 ? ~0ull : (1ull << b) - 1;
      bits = uint64_t(x) & m;
      out.i = (sgn && b < 64 && (bits >> (b - 1)) & 1) ? i128(int64_t(bits | ~m))
              : sgn ? i128(int64_t(bits)) : i128(bits);
   }
   if (stored)
      *stored = out;
   return bits;
}

bool
executor::test_cmod(isa::cond_mod m, const val &v)
{
   using isa::cond_mod;
   if (v.fl && std::isnan(v.f))
      return m == cond_mod::nz || m == cond_mod::u;
   int sign = v.fl ? (v.f > 0) - (v.f < 0) : (v.i > 0) - (v.i < 0);
   switch (m) {
   case cond_mod::z: return sign == 0;
   case cond_mod::nz: return sign != 0;
   case cond_mod::g: return sign > 0;
   case cond_mod::ge: return sign >= 0;
   case cond_mod::l: return sign < 0;
   case cond_mod::le: return sign <= 0;
   case cond_mod::u: return false;
   default: c.fail("conditional modifier %u not modeled", unsigned(m));
   }
}

bool
executor::compare(isa::cond_mod m, const val &a, const val &b)
{
   using isa::cond_mod;
   if (a.fl || b.fl) {
      double x = a.fl ? a.f : double(a.i), y = b.fl ? b.f : double(b.i);
      if (std::isnan(x) || std::isnan(y))
         return m == cond_mod::nz || m == cond_mod::u;
      switch (m) {
      case cond_mod::z: return x == y;
      case cond_mod::nz: return x != y;
      case cond_mod::g: return x > y;
      case cond_mod::ge: return x >= y;
      case cond_mod::l: return x < y;
      case cond_mod::le: return x <= y;
      case cond_mod::u: return false;
      default: c.fail("comparison %u not modeled", unsigned(m));
      }
   }
   switch (m) {
   case cond_mod::z: return a.i == b.i;
   case cond_mod::nz: return a.i != b.i;
   case cond_mod::g: return a.i > b.i;
   case cond_mod::ge: return a.i >= b.i;
   case cond_mod::l: return a.i < b.i;
   case cond_mod::le: return a.i <= b.i;
   default: c.fail("comparison %u not modeled", unsigned(m));
   }
}

/* The execution type: float if any source is, at the widest precision of
 * the float sources; integer otherwise.
 */
type
executor::exec_type(unsigned nsrc, bool *fl)
{
   bool any_df = false, any_f = false, any_hf = false, any_q = false;
   for (unsigned n = 0; n < nsrc; n++) {
      type ty = in.src[n].type;
      any_df |= ty == type::DF;
      any_f |= ty == type::F || ty == type::VF;
      any_hf |= ty == type::HF;
      any_q |= ty == type::Q || ty == type::UQ;
   }
   *fl = any_df || any_f || any_hf;
   if (any_df)
      return type::DF;
   if (any_f)
      return type::F;
   if (any_hf)
      return type::HF;
   return any_q ? type::Q : type::D;
}

unsigned
clz32(uint32_t x)
{
   return x ? __builtin_clz(x) : 32;
}

/* Math functions: precision is that of the host libm in double, rounded
 * once to the execution type; hardware inv/log/exp/sin/cos/pow/rsq are
 * approximations within a few ULP (docs/sim.md).
 */
executor::val
executor::math(unsigned i, bool *ok)
{
   using isa::math_fn;
   *ok = true;
   val r;
   switch (in.math) {
   case math_fn::intdiv:
   case math_fn::intmod: {
      val a = read_src(0, i, false, false), b = read_src(1, i, false, false);
      bool sgn = is_signed_type(in.src[0].type) || is_signed_type(in.src[1].type);
      if (b.i == 0) {
         /* Division by zero: quotient saturates, remainder is the dividend. */
         r.i = in.math == math_fn::intmod ? a.i
             : !sgn ? i128(0xffffffffu) : a.i < 0 ? i128(INT32_MIN) : i128(INT32_MAX);
      } else if (sgn) {
         int64_t x = int64_t(a.i), y = int64_t(b.i);
         r.i = in.math == math_fn::intdiv ? x / y : x % y;
      } else {
         uint64_t x = uint64_t(a.i), y = uint64_t(b.i);
         r.i = in.math == math_fn::intdiv ? x / y : x % y;
      }
      return r;
   }
   default:
      break;
   }
   val a = read_src(0, i, true, false);
   double x = a.f, y = 0;
   bool two = in.math == math_fn::pow || in.math == math_fn::fdiv;
   if (two)
      y = read_src(1, i, true, false).f;
   r.fl = true;
   switch (in.math) {
   case math_fn::inv: r.f = 1.0 / x; break;
   case math_fn::log: r.f = std::log2(x); break;
   case math_fn::exp: r.f = std::exp2(x); break;
   case math_fn::sqrt: r.f = std::sqrt(x); break;
   case math_fn::rsq: r.f = 1.0 / std::sqrt(x); break;
   case math_fn::sin: r.f = std::sin(x); break;
   case math_fn::cos: r.f = std::cos(x); break;
   case math_fn::pow: r.f = std::pow(x, y); break;
   case math_fn::fdiv: r.f = x / y; break;
   default: *ok = false;
   }
   return r;
}

void
executor::alu()
{
   const opcode op = in.op;
   unsigned nsrc = isa::info(op).nsrc;
   bool fl;
   type exec = exec_type(op == opcode::math && (in.math == isa::math_fn::intdiv ||
                                                in.math == isa::math_fn::intmod) ? 0 : nsrc, &fl);
   bool logic = op == opcode::and_ || op == opcode::or_ || op == opcode::xor_ ||
                op == opcode::not_;
   /* Bit operations ignore the float-ness of their types. */
   bool bitop = logic || op == opcode::shl || op == opcode::shr ||
                op == opcode::asr || op == opcode::bfrev || op == opcode::bfe ||
                op == opcode::bfi1 || op == opcode::bfi2 || op == opcode::cbit ||
                op == opcode::fbh || op == opcode::fbl || op == opcode::lzd ||
                op == opcode::addc || op == opcode::subb;
   if (bitop)
      fl = false;

   const reg &dst = in.dst;
   bool raw_move = (op == opcode::mov || op == opcode::sel) && !in.saturate &&
                   dst.type == in.src[0].type && in.src[0].file != reg_file::imm &&
                   !in.src[0].abs && !in.src[0].negate && in.cmod == isa::cond_mod::none &&
                   (op == opcode::mov || (in.src[1].type == dst.type &&
                                          in.src[1].file != reg_file::imm &&
                                          !in.src[1].abs && !in.src[1].negate));

   struct out {
      bool write = false;
      uint64_t bits = 0;
      bool flag_write = false, flag = false;
      bool acc_write = false;
      acc_value acc;
   };
   std::array<out, max_channels> res;

   for (unsigned i = 0; i < in.exec_size; i++) {
      /* SEL uses the predicate to choose, not to mask. */
      bool pick0 = (c.enabled >> i) & 1;
      bool en = op == opcode::sel ? (c.exec_mask >> i) & 1 : pick0;
      if (!en)
         continue;
      out &o = res[i];
      o.write = true;

      if (raw_move) {
         unsigned n = op == opcode::sel && !pick0 ? 1 : 0;
         o.bits = load(locate(in.src[n], i, false), in.src[n].type);
         continue;
      }

      val r;
      switch (op) {
      case opcode::mov:
         r = read_src(0, i, fl, false);
         break;
      case opcode::sel: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false);
         if (in.cmod == isa::cond_mod::none) {
            r = pick0 ? a : b;
         } else {
            /* min/max: a NaN source loses to a number (IEEE minNum). */
            if (a.fl && std::isnan(a.f))
               r = b;
            else if (b.fl && std::isnan(b.f))
               r = a;
            else if (a.fl && b.fl && a.f == 0 && b.f == 0 &&
                     (in.cmod == isa::cond_mod::l || in.cmod == isa::cond_mod::ge))
               /* min/max order -0.0 below +0.0 whatever the operand
                * order (IEEE 754-2019): brw maps NIR's fmin/fmax, which
                * now order zeros, to a bare sel.l/sel.ge.
                */
               r = (std::signbit(a.f) == (in.cmod == isa::cond_mod::l)) ? a : b;
            else
               r = compare(in.cmod, a, b) ? a : b;
         }
         break;
      }
      case opcode::not_:
         r = read_src(0, i, false, true);
         r.i = ~r.i;
         break;
      case opcode::and_:
      case opcode::or_:
      case opcode::xor_: {
         val a = read_src(0, i, false, true), b = read_src(1, i, false, true);
         r.i = op == opcode::and_ ? (a.i & b.i) : op == opcode::or_ ? (a.i | b.i) : (a.i ^ b.i);
         break;
      }
      case opcode::shl:
      case opcode::shr:
      case opcode::asr: {
         val a = read_src(0, i, false, false), b = read_src(1, i, false, false);
         type t0 = in.src[0].type;
         bool wide = isa::type_size(t0) == 8 || isa::type_size(dst.type) == 8;
         unsigned width = wide ? 64 : 32;
         unsigned sh = unsigned(uint64_t(b.i) & (width - 1));
         uint64_t m = wide ? ~0ull : 0xffffffffull;
         if (op == opcode::shl) {
            r.i = i128(uint64_t(a.i) << sh & m);
         } else if (op == opcode::shr) {
            r.i = i128((uint64_t(a.i) & m) >> sh);
         } else {
            int64_t sv = wide ? int64_t(a.i) : int64_t(int32_t(uint32_t(a.i)));
            r.i = i128(sv >> sh);
         }
         break;
      }
      case opcode::cmp: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false);
         bool f = compare(in.cmod, a, b);
         o.flag_write = true;
         o.flag = f;
         unsigned b_ = 8 * isa::type_size(dst.type);
         o.bits = f ? (b_ >= 64 ? ~0ull : (1ull << b_) - 1) : 0;
         continue;
      }
      case opcode::add:
      case opcode::mul:
      case opcode::avg: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false);
         if (fl) {
            r.fl = true;
            r.f = op == opcode::add ? a.f + b.f : a.f * b.f;
            if (op == opcode::avg)
               c.fail("float avg");
         } else {
            r.i = op == opcode::add ? a.i + b.i : op == opcode::mul ? a.i * b.i
                                                : (a.i + b.i + 1) >> 1;
         }
         break;
      }
      case opcode::mac: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false);
         const acc_value &acc = t.acc[i];
         if (fl) {
            r.fl = true;
            r.f = acc.f + a.f * b.f;
         } else {
            r.i = acc.i + a.i * b.i;
         }
         break;
      }
      case opcode::mach: {
         val a = read_src(0, i, false, false), b = read_src(1, i, false, false);
         /* acc += src0 * src1[31:16] << 16; dst = acc[63:32]. */
         i128 hi16 = b.i >> 16;
         i128 full = i128(t.acc[i].i) + a.i * hi16 * 65536;
         r.i = full >> 32;
         o.acc_write = in.acc_wr;
         o.acc.i = int64_t(full);
         o.acc.f = double(full);
         break;
      }
      case opcode::addc:
      case opcode::subb: {
         val a = read_src(0, i, false, false), b = read_src(1, i, false, false);
         uint64_t x = uint64_t(a.i) & 0xffffffff, y = uint64_t(b.i) & 0xffffffff;
         uint64_t sum = op == opcode::addc ? x + y : x - y;
         r.i = i128(sum & 0xffffffff);
         o.acc_write = true;
         o.acc.i = op == opcode::addc ? int64_t(sum >> 32) : int64_t(x < y);
         o.acc.f = double(o.acc.i);
         break;
      }
      case opcode::frc:
      case opcode::rndd:
      case opcode::rndu:
      case opcode::rnde:
      case opcode::rndz: {
         val a = read_src(0, i, true, false);
         r.fl = true;
         switch (op) {
         case opcode::frc: r.f = a.f - std::floor(a.f); break;
         case opcode::rndd: r.f = std::floor(a.f); break;
         case opcode::rndu: r.f = std::ceil(a.f); break;
         case opcode::rnde: r.f = std::nearbyint(a.f); break;
         default: r.f = std::trunc(a.f); break;
         }
         if (!fl)
            c.fail("rounding of an integer type");
         break;
      }
      case opcode::lzd:
      case opcode::fbh:
      case opcode::fbl:
      case opcode::cbit:
      case opcode::bfrev: {
         val a = read_src(0, i, false, false);
         uint32_t x = uint32_t(uint64_t(a.i));
         switch (op) {
         case opcode::lzd: r.i = clz32(x); break;
         case opcode::fbl: r.i = x ? __builtin_ctz(x) : 0xffffffffu; break;
         case opcode::cbit: r.i = __builtin_popcount(x); break;
         case opcode::bfrev: {
            uint32_t y = 0;
            for (unsigned b = 0; b < 32; b++)
               y |= ((x >> b) & 1) << (31 - b);
            r.i = y;
            break;
         }
         default: {
            /* Counted from the MSB; a negative D looks for the first 0. */
            if (is_signed_type(in.src[0].type) && int32_t(x) < 0)
               x = ~x;
            r.i = x ? clz32(x) : 0xffffffffu;
         }
         }
         break;
      }
      case opcode::bfe: {
         uint32_t w = uint32_t(uint64_t(read_src(0, i, false, false).i)) & 31;
         uint32_t off = uint32_t(uint64_t(read_src(1, i, false, false).i)) & 31;
         uint32_t v = uint32_t(uint64_t(read_src(2, i, false, false).i));
         bool sgn = is_signed_type(in.src[2].type);
         if (w == 0) {
            r.i = 0;
         } else if (w + off < 32) {
            uint32_t f = (v << (32 - w - off));
            r.i = sgn ? i128(int32_t(f) >> (32 - w)) : i128(f >> (32 - w));
         } else {
            r.i = sgn ? i128(int32_t(v) >> off) : i128(v >> off);
         }
         break;
      }
      case opcode::bfi1: {
         uint32_t w = uint32_t(uint64_t(read_src(0, i, false, false).i)) & 31;
         uint32_t off = uint32_t(uint64_t(read_src(1, i, false, false).i)) & 31;
         r.i = i128(uint32_t(((1ull << w) - 1) << off));
         break;
      }
      case opcode::bfi2: {
         uint32_t m = uint32_t(uint64_t(read_src(0, i, false, false).i));
         uint32_t ins = uint32_t(uint64_t(read_src(1, i, false, false).i));
         uint32_t base = uint32_t(uint64_t(read_src(2, i, false, false).i));
         r.i = m == 0 ? base : (base & ~m) | ((ins << __builtin_ctz(m)) & m);
         break;
      }
      case opcode::mad:
      case opcode::lrp: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false),
             d = read_src(2, i, fl, false);
         if (fl) {
            r.fl = true;
            /* A fused f32 mad rounds once, to f32: an fma in double
             * rounded again at the write can land on the other side of a
             * tie (random cs 2536).  Half and double fmas are exact here.
             */
            if (op == opcode::mad && exec == type::F)
               r.f = std::fma(float(b.f), float(d.f), float(a.f));
            else if (op == opcode::mad)
               r.f = std::fma(b.f, d.f, a.f);
            else
               r.f = a.f * b.f + (1.0 - a.f) * d.f;
         } else {
            if (op == opcode::lrp)
               c.fail("integer lrp");
            r.i = a.i + b.i * d.i;
         }
         break;
      }
      case opcode::csel: {
         val a = read_src(0, i, fl, false), b = read_src(1, i, fl, false),
             d = read_src(2, i, fl, false);
         r = test_cmod(in.cmod, d) ? a : b;
         break;
      }
      case opcode::pln:
      case opcode::line: {
         /* src0: a scalar plane [a, b, -, c]; src1: per-channel u (and v). */
         const reg &p = in.src[0];
         if (p.file != reg_file::grf || p.indirect)
            c.fail("PLN/LINE plane must be a direct GRF");
         size_t pb = size_t(p.nr) * grf_size + p.subnr;
         auto plane = [&](unsigned k) {
            float f;
            std::memcpy(&f, &t.grf[pb + 4 * k], 4);
            return double(flush(f, type::F));
         };
         const reg &uv = in.src[1];
         r.fl = true;
         if (op == opcode::line) {
            double u = read_src(1, i, true, false).f;
            r.f = plane(0) * u + plane(3);
         } else {
            if (uv.file != reg_file::grf || uv.indirect || in.exec_size > 16)
               c.fail("PLN barycentrics must be direct GRFs");
            unsigned reg0 = uv.nr + (i / 8) * 2;
            if (reg0 + 1 >= num_grfs)
               c.fail("PLN source out of range");
            double u = flush(t.read<float>(reg0, i % 8), type::F);
            double v = flush(t.read<float>(reg0 + 1, i % 8), type::F);
            r.f = plane(0) * u + plane(1) * v + plane(3);
         }
         fl = true;
         exec = type::F;
         break;
      }
      case opcode::math: {
         bool ok;
         r = math(i, &ok);
         if (!ok)
            c.fail("math function not modeled");
         if (!r.fl)
            fl = false;
         break;
      }
      default:
         c.fail("opcode not modeled");
      }

      if (r.fl)
         r.f = round_exec(r.f, exec);
      if (in.acc_wr && !o.acc_write) {
         o.acc_write = true;
         o.acc.f = r.fl ? r.f : double(r.i);
         o.acc.i = r.fl ? int64_t(r.f) : int64_t(r.i);
      }
      val stored;
      o.bits = convert(r, dst.type, in.saturate, &stored);
      if (in.cmod != isa::cond_mod::none && op != opcode::sel && op != opcode::csel) {
         o.flag_write = true;
         o.flag = test_cmod(in.cmod, stored);
      }
   }

   /* Write back after every source was read (sources may overlap dst). */
   unsigned fbase = in.flag_nr * 32 + in.flag_subnr * 16;
   for (unsigned i = 0; i < in.exec_size; i++) {
      const out &o = res[i];
      if (!o.write)
         continue;
      bool wm = in.access != isa::access_mode::align16 ||
                (dst.writemask >> (i % 4)) & 1;
      if (wm && !dst.is_null()) {
         location l = locate(dst, i, true);
         if (l.k == location::acc && op == opcode::mul && !fl) {
            /* An integer product keeps all its bits in the accumulator. */
            val a = read_src(0, i, false, false), b = read_src(1, i, false, false);
            acc_value &acc = acc_at(l, dst.type);
            acc.i = int64_t(a.i * b.i);
            acc.f = double(acc.i);
         } else {
            store(l, dst.type, o.bits);
         }
      }
      if (o.acc_write)
         t.acc[i] = o.acc;
      if (o.flag_write) {
         unsigned bit = (fbase + in.group + i) % 64;
         uint32_t &f = t.flag[bit / 32];
         f = (f & ~(1u << (bit % 32))) | (uint32_t(o.flag) << (bit % 32));
      }
   }
}

/* ---- Predication ---- */

bool
pred_bit(const thread &t, const isa::inst &in, unsigned i)
{
   unsigned base = in.flag_nr * 32 + in.flag_subnr * 16;
   auto bit = [&](unsigned ch) {
      unsigned b = (base + ch) % 64;
      return (t.flag[b / 32] >> (b % 32)) & 1;
   };
   unsigned ch = in.group + i;
   using isa::pred_ctrl;
   unsigned n = 0;
   bool all = false;
   switch (in.pred) {
   case pred_ctrl::none: return true;
   case pred_ctrl::normal: return bit(ch) ^ in.pred_inv;
   case pred_ctrl::anyv: n = in.exec_size; break;
   case pred_ctrl::allv: n = in.exec_size; all = true; break;
   case pred_ctrl::any2h: n = 2; break;
   case pred_ctrl::all2h: n = 2; all = true; break;
   case pred_ctrl::any4h: n = 4; break;
   case pred_ctrl::all4h: n = 4; all = true; break;
   case pred_ctrl::any8h: n = 8; break;
   case pred_ctrl::all8h: n = 8; all = true; break;
   case pred_ctrl::any16h: n = 16; break;
   case pred_ctrl::all16h: n = 16; all = true; break;
   case pred_ctrl::any32h: n = 32; break;
   case pred_ctrl::all32h: n = 32; all = true; break;
   default: return false;
   }
   unsigned first = ch / n * n;
   bool acc = all;
   for (unsigned k = first; k < first + n; k++)
      acc = all ? (acc && bit(k)) : (acc || bit(k));
   return acc ^ in.pred_inv;
}

/* One thread on its way through the program, which may stop at a
 * `wait` (run_group) and go on later.
 */
struct thread_run {
   std::vector<isa::decoded> prog;
   std::map<int64_t, size_t> at;
   int64_t end = 0;
   thread_state s;
   result res;

   thread_run(const std::vector<uint8_t> &program, thread &t)
      : prog(isa::decode_program(program.data(), program.size(), t.gen)), s{t}
   {
      for (size_t k = 0; k < prog.size(); k++)
         at[int64_t(prog[k].offset)] = k;
      res.issued_at.assign(prog.size(), 0);
      end = prog.empty() ? 0 : int64_t(program.size());
      if (t.simd != 8 && t.simd != 16 && t.simd != 32)
         throw error(strfmt("sim: dispatch width %u", t.simd));
      for (unsigned ch = 0; ch < max_channels; ch++)
         s.pcip[ch] = ((t.dispatch_mask >> ch) & 1) && ch < t.simd ? 0 : -1;
   }
   /* True when the thread ended, false when it waits on n0. */
   bool go(memory &mem, const limits &lim);
};

bool
thread_run::go(memory &mem, const limits &lim)
{
   thread &t = s.t;
   while (true) {
      auto it = at.find(s.ip);
      if (it == at.end()) {
         if (s.ip >= end && s.ip >= 0)
            return true;   /* fell off the end without EOT */
         throw error(strfmt("sim: jump to offset 0x%llx, which is not an instruction",
                            (long long)s.ip));
      }
      const isa::decoded &d = prog[it->second];
      const isa::inst &in = d.in;
      int64_t size = in.compacted ? 8 : 16;
      exec_ctx c{t, mem, in, d.offset};
      if (++s.count > lim.max_instructions)
         c.fail("instruction limit of %llu reached (infinite loop?)",
                (unsigned long long)lim.max_instructions);
      res.instructions = s.count;
      res.issued_at[it->second]++;

      if (in.op == opcode::illegal || !isa::info(in.op).name)
         c.fail("illegal instruction");
      if (in.exec_size > 32 || in.group + in.exec_size > 32)
         c.fail("bad execution size");

      uint32_t active = s.active();
      if (in.op != opcode::while_) {
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if ((active >> ch) & 1)
               s.broken[ch] = false;
         }
      }
      for (unsigned i = 0; i < in.exec_size; i++) {
         if (in.mask_disable || ((active >> (in.group + i)) & 1)) {
            c.exec_mask |= 1u << i;
            if (pred_bit(t, in, i))
               c.enabled |= 1u << i;
         }
      }
      res.channel_instructions += unsigned(__builtin_popcount(c.enabled));
      if (isa::is_send(in.op))
         res.sends++;

      int64_t next = s.ip + size;
      auto join = [&](int64_t jump) {
         /* Channels still here go on; with none left, follow JIP. */
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if (s.pcip[ch] == s.ip)
               s.pcip[ch] = next;
         }
         bool any = false;
         for (unsigned ch = 0; ch < max_channels; ch++)
            any |= s.pcip[ch] == next;
         s.ip = any ? next : s.ip + jump;
      };
      /* Moves active channels whose predicate holds to target. */
      auto branch = [&](int64_t target, bool on_pred) {
         for (unsigned i = 0; i < in.exec_size; i++) {
            unsigned ch = in.group + i;
            if (!((active >> ch) & 1))
               continue;
            if (pred_bit(t, in, i) == on_pred)
               s.pcip[ch] = target;
         }
      };

      switch (in.op) {
      case opcode::if_:
         branch(s.ip + in.jip, false);
         join(in.jip);
         continue;
      case opcode::else_:
         /* BranchCtrl (Gen8-10, brw_ENDIF): the channels wait at the UIP,
          * the ENDIF; the JIP is only where the thread goes, the NOP before
          * it, so an inner ENDIF's jump to the ENDIF still finds them.
          */
         branch(s.ip + (in.acc_wr ? in.uip : in.jip), true);
         join(in.jip);
         continue;
      case opcode::endif:
         join(in.jip);
         continue;
      case opcode::break_:
         for (unsigned i = 0; i < in.exec_size; i++) {
            unsigned ch = in.group + i;
            if (((active >> ch) & 1) && pred_bit(t, in, i))
               s.broken[ch] = true;
         }
         /* fallthrough */
      case opcode::cont:
      case opcode::halt:
         branch(s.ip + in.uip, true);
         join(in.jip);
         continue;
      case opcode::while_: {
         int64_t head = s.ip + in.jip;
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if (s.pcip[ch] == s.ip && s.broken[ch]) {
               s.pcip[ch] = next;
               s.broken[ch] = false;
               active &= ~(1u << ch);
            }
         }
         /* Active channels whose predicate holds go around again. */
         uint32_t again = 0;
         for (unsigned i = 0; i < in.exec_size; i++) {
            unsigned ch = in.group + i;
            if (((active >> ch) & 1) && pred_bit(t, in, i))
               again |= 1u << ch;
         }
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if ((again >> ch) & 1)
               s.pcip[ch] = head;
            else if (s.pcip[ch] == s.ip)
               s.pcip[ch] = next;
         }
         s.ip = again ? head : next;
         continue;
      }
      case opcode::nop:
         break;
      case opcode::wait:
         /* n0: raised by the gateway's answer to a barrier. */
         if (!t.n0) {
            if (!mem.barrier_waits)
               c.fail("wait on n0, which nothing will raise: the thread would hang");
            s.count--;
            return false;
         }
         t.n0--;
         break;
      case opcode::send:
      case opcode::sendc:
      case opcode::sends:
      case opcode::sendsc:
         if (execute_send(c)) {
            res.eot = true;
            return true;
         }
         break;
      case opcode::jmpi: {
         /* A jump of the whole thread (the uniform branches of
          * docs/codegen.md): the mask stays as it is.
          */
         if (in.exec_size != 1 || !in.mask_disable)
            c.fail("jmpi must be SIMD1 NoMask");
         if (in.src[1].file != isa::reg_file::imm)
            c.fail("jmpi through a register is not modeled");
         if (!pred_bit(t, in, 0))
            break;
         const int64_t target = s.ip + in.jip;
         /* Channels waiting ahead (at an else, endif or while) would
          * never be picked up again if the jump passed them.
          */
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if (s.pcip[ch] > s.ip && s.pcip[ch] < target)
               c.fail("jmpi passes channel %u, which waits at offset 0x%llx", ch,
                      (unsigned long long)s.pcip[ch]);
         }
         for (unsigned ch = 0; ch < max_channels; ch++) {
            if (s.pcip[ch] == s.ip)
               s.pcip[ch] = target;
         }
         s.ip = target;
         continue;
      }
      case opcode::brd:
      case opcode::brc:
      case opcode::call:
      case opcode::calla:
      case opcode::ret:
      case opcode::goto_:
         c.fail("unstructured control flow is not modeled");
      default: {
         executor x(c, s);
         x.alu();
      }
      }
      for (unsigned ch = 0; ch < max_channels; ch++) {
         if (s.pcip[ch] == s.ip)
            s.pcip[ch] = next;
      }
      s.ip = next;
   }
}

} /* namespace */

result
run(const std::vector<uint8_t> &program, thread &t, memory &mem, const limits &lim)
{
   thread_run r(program, t);
   if (!r.go(mem, lim))
      throw internal_error("sim: a lone thread stopped at a wait");
   return r.res;
}

std::vector<result>
run_group(const std::vector<uint8_t> &program, std::vector<thread> &threads, memory &mem,
          const limits &lim)
{
   const size_t n = threads.size();
   if (!n)
      throw error("sim: a workgroup of no threads");
   std::vector<std::unique_ptr<thread_run>> runs;
   for (thread &t : threads) {
      t.barrier_sent = false;
      t.n0 = 0;
      runs.push_back(std::make_unique<thread_run>(program, t));
   }
   std::vector<std::vector<uint8_t>> scratch(n, mem.scratch);
   std::vector<bool> ended(n, false), waiting(n, false);
   const bool waits = mem.barrier_waits;
   mem.barrier_waits = true;
   struct restore {
      memory &mem;
      bool waits;
      ~restore() { mem.barrier_waits = waits; }
   } restore_waits{mem, waits};

   while (true) {
      bool progress = false;
      for (size_t k = 0; k < n; k++) {
         if (ended[k] || (waiting[k] && !threads[k].n0))
            continue;
         progress = true;
         std::swap(mem.scratch, scratch[k]);
         try {
            ended[k] = runs[k]->go(mem, lim);
         } catch (const error &e) {
            std::swap(mem.scratch, scratch[k]);
            throw error(strfmt("sim: thread %zu of the workgroup: %s", k, e.what()));
         }
         std::swap(mem.scratch, scratch[k]);
         waiting[k] = !ended[k];
         /* Every thread's message is in: the gateway answers them all. */
         if (std::all_of(threads.begin(), threads.end(),
                         [](const thread &t) { return t.barrier_sent; })) {
            for (thread &t : threads) {
               t.barrier_sent = false;
               t.n0++;
            }
         }
      }
      if (std::all_of(ended.begin(), ended.end(), [](bool e) { return e; }))
         break;
      if (!progress) {
         std::string who;
         for (size_t k = 0; k < n; k++) {
            if (!who.empty())
               who += ", ";
            if (ended[k])
               who += strfmt("thread %zu ended%s", k,
                             threads[k].barrier_sent ? " after its barrier"
                                                     : " without the barrier");
            else
               who += strfmt("thread %zu waits at offset 0x%llx%s", k,
                             (long long)runs[k]->s.ip,
                             threads[k].barrier_sent ? " after its barrier"
                                                     : " without a barrier sent");
         }
         throw error("sim: workgroup deadlock: " + who);
      }
   }
   std::vector<result> res;
   for (const auto &r : runs)
      res.push_back(r->res);
   return res;
}

} /* namespace ibis::sim */
