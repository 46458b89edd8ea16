/*
 * EU validation: the restrictions Mesa's brw_eu_validate.c checks on
 * Gen8/Gen9 code (from the PRMs' "Register Region Restrictions",
 * "Special Restrictions for Handling Mixed Mode Float Operations",
 * "Special Requirements for Handling Double Precision Data Types", the
 * instruction pages and the message descriptors), applied to decoded
 * instructions so that generated code, assembler input and binaries are
 * checked alike.  Messages are Mesa's, prefixed by the group they belong
 * to; docs/isa.md lists them.
 */
#include <cstdio>

#include "isa/isa_bits.h"

namespace ibis::isa {

namespace {

struct checker {
   const inst &in;
   gen g;
   bool lp;
   std::vector<std::string> &out;

   /* CHV (a low-power Gen8) and Gen9+ have mixed-float mode and its
    * rules; Broadwell has neither.
    */
   bool mixed_float_mode() const { return g >= gen::gen9 || (g == gen::gen8 && lp); }

   void
   error_if(bool cond, const char *group, const char *msg)
   {
      if (!cond)
         return;
      std::string s = std::string(group) + ": " + msg;
      for (const std::string &e : out) {
         if (e == s)
            return;
      }
      out.push_back(s);
   }
};

bool
is_int(type t)
{
   switch (t) {
   case type::UD: case type::D: case type::UW: case type::W:
   case type::UB: case type::B: case type::UQ: case type::Q:
      return true;
   default:
      return false;
   }
}

bool
is_vector_imm(type t)
{
   return t == type::V || t == type::UV || t == type::VF;
}

bool
is_byte(type t)
{
   return t == type::B || t == type::UB;
}

/* Sources the hardware reads, as Mesa counts them: branches and JMPI
 * have none, math one or two by function.
 */
unsigned
num_sources(const inst &in)
{
   if (in.op == opcode::math) {
      switch (in.math) {
      case math_fn::fdiv: case math_fn::pow: case math_fn::intdivmod:
      case math_fn::intdiv: case math_fn::intmod:
         return 2;
      default:
         return 1;
      }
   }
   const opcode_info &oi = info(in.op);
   switch (oi.form) {
   case op_form::branch: case op_form::branch2: case op_form::jmpi:
   case op_form::nop:
      return 0;
   default:
      return oi.nsrc;
   }
}

bool
has_dst(const inst &in)
{
   const op_form f = info(in.op).form;
   return info(in.op).ndst == 1 && f != op_form::branch &&
          f != op_form::branch2 && f != op_form::jmpi;
}

bool
is_split_send(const inst &in)
{
   return in.op == opcode::sends || in.op == opcode::sendsc;
}

bool
is_null(const reg &r)
{
   return r.file == reg_file::arf && !r.indirect && r.nr == 0;
}

bool
is_acc(const reg &r)
{
   return r.file == reg_file::arf && !r.indirect && r.arf_kind() == arf::acc;
}

bool
is_scalar(const reg &r)
{
   return r.vstride == 0 && r.width == 1 && r.hstride == 0;
}

type
signed_type(type t)
{
   switch (t) {
   case type::UD: return type::D;
   case type::UW: return type::W;
   case type::UB: return type::B;
   case type::UQ: return type::Q;
   default: return t;
   }
}

bool
is_raw_move(const inst &in)
{
   const reg &s = in.src[0];
   if (s.file == reg_file::imm) {
      if (is_vector_imm(s.type))
         return false;
   } else if (s.negate || s.abs) {
      return false;
   }
   return in.op == opcode::mov && !in.saturate &&
          signed_type(in.dst.type) == signed_type(s.type);
}

bool
mixed_float_pair(type a, type b)
{
   return (a == type::F && b == type::HF) || (a == type::HF && b == type::F);
}

type
exec_type_of(type t)
{
   switch (t) {
   case type::DF: case type::F: case type::HF: return t;
   case type::VF: return type::F;
   case type::Q: case type::UQ: return type::Q;
   case type::D: case type::UD: return type::D;
   default: return type::W;
   }
}

/* The execution data type (the PRM's, as Mesa computes it). */
type
execution_type(const inst &in, unsigned nsrc)
{
   const type s0 = exec_type_of(in.src[0].type);
   if (nsrc == 1)
      return s0 == type::HF ? in.dst.type : s0;
   const type s1 = exec_type_of(in.src[1].type);
   if (mixed_float_pair(s0, s1) || mixed_float_pair(s0, in.dst.type) ||
       mixed_float_pair(s1, in.dst.type))
      return type::F;
   if (s0 == s1)
      return s0;
   for (type t : { type::Q, type::D, type::W, type::DF }) {
      if (s0 == t || s1 == t)
         return t;
   }
   return s0;
}

bool
is_mixed_float(const inst &in, unsigned nsrc)
{
   if (is_send(in.op) || !has_dst(in) || nsrc == 0 || nsrc > 2)
      return false;
   const type d = in.dst.type, s0 = in.src[0].type;
   if (nsrc == 1)
      return mixed_float_pair(s0, d);
   const type s1 = in.src[1].type;
   return mixed_float_pair(s0, s1) || mixed_float_pair(s0, d) ||
          mixed_float_pair(s1, d);
}

bool
is_packed(unsigned vstride, unsigned width, unsigned hstride)
{
   if (vstride != width)
      return false;
   return vstride == 1 ? hstride == 0 : hstride == 1;
}

/* dst or a source differs from another in type with one side of `pred`. */
template <typename P>
bool
is_conversion(const inst &in, unsigned nsrc, P pred)
{
   const type d = in.dst.type;
   if (d != in.src[0].type && (pred(d) || pred(in.src[0].type)))
      return true;
   return nsrc > 1 && d != in.src[1].type && (pred(d) || pred(in.src[1].type));
}

void
check_values(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   const bool three_src = is_3src(in.op);
   c.error_if(three_src && in.access == access_mode::align1 && c.g == gen::gen9,
              "values", "Align1 mode not allowed on Gfx9 for 3-src instructions");
   c.error_if(in.access == access_mode::align16 && c.g >= gen::gen11,
              "values", "Align16 mode doesn't exist on Gfx11+");
   if (has_dst(in) && !is_split_send(in))
      c.error_if(in.dst.type == type::invalid, "values",
                 "Invalid destination register type encoding.");
   for (unsigned i = 0; i < nsrc && !is_split_send(in); i++)
      c.error_if(in.src[i].type == type::invalid, "values",
                 "Invalid source register type encoding.");
}

void
check_sources_not_null(checker &c, unsigned nsrc)
{
   if (nsrc == 3 || is_split_send(c.in))
      return;
   if (nsrc >= 1)
      c.error_if(is_null(c.in.src[0]), "values", "src0 is null");
   if (nsrc == 2)
      c.error_if(is_null(c.in.src[1]), "values", "src1 is null");
}

void
check_send(checker &c)
{
   const inst &in = c.in;
   if (is_split_send(in)) {
      const reg &p0 = in.src[0], &p1 = in.src[1];
      c.error_if(p1.file == reg_file::arf && p1.nr != 0, "send",
                 "src1 of split send must be a GRF or NULL");
      c.error_if(in.eot && p0.nr < 112, "send", "send with EOT must use g112-g127");
      c.error_if(in.eot && p1.file == reg_file::grf && p1.nr < 112, "send",
                 "send with EOT must use g112-g127");
      if (p0.file == reg_file::grf && p1.file == reg_file::grf) {
         /* Unknown lengths (descriptors in a0) count as one register. */
         const unsigned mlen = in.desc_indirect ? 1 : in.mlen();
         const unsigned ex_mlen = in.ex_desc_indirect ? 1 : in.ex_mlen();
         c.error_if((p0.nr <= p1.nr && p1.nr < p0.nr + mlen) ||
                    (p1.nr <= p0.nr && p0.nr < p1.nr + ex_mlen),
                    "send", "split send payloads must not overlap");
      }
   } else if (is_send(in.op)) {
      c.error_if(in.src[0].indirect, "send", "send must use direct addressing");
      c.error_if(in.src[0].file != reg_file::grf, "send", "send from non-GRF");
      c.error_if(in.eot && in.src[0].nr < 112, "send",
                 "send with EOT must use g112-g127");
      /* Only known lengths can be checked. */
      if (!in.desc_indirect)
         c.error_if(!is_null(in.dst) && in.dst.nr + in.rlen() > 127 &&
                    in.src[0].nr + in.mlen() > in.dst.nr,
                    "send", "r127 must not be used for return address when "
                    "there is a src and dest overlap");
   }
}

void
check_operand_types(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (is_send(in.op))
      return;
   const bool has_64bit = c.g < gen::gen11;
   const type dt = in.dst.type;

   if (c.g >= gen::gen11) {
      if (nsrc == 3)
         c.error_if(type_size(in.src[1].type) == 1 || type_size(in.src[2].type) == 1,
                    "types", "Byte data type is not supported for src1/2 register "
                    "regioning. This includes byte broadcast as well.");
      if (nsrc == 2)
         c.error_if(type_size(in.src[1].type) == 1, "types",
                    "Byte data type is not supported for src1 register "
                    "regioning. This includes byte broadcast as well.");
   }
   if (has_dst(in)) {
      c.error_if(dt == type::DF && !has_64bit, "types",
                 "64-bit float destination, but platform does not support it");
      c.error_if((dt == type::Q || dt == type::UQ) && !has_64bit, "types",
                 "64-bit int destination, but platform does not support it");
   }
   for (unsigned s = 0; s < nsrc; s++) {
      const type st = in.src[s].type;
      c.error_if(st == type::DF && !has_64bit, "types",
                 "64-bit float source, but platform does not support it");
      c.error_if((st == type::Q || st == type::UQ) && !has_64bit, "types",
                 "64-bit int source, but platform does not support it");
      /* Replicated 64-bit three-source operands (PRM: "64b datatypes
       * cannot use the replicate control").
       */
      if (in.access == access_mode::align16 && nsrc == 3 && type_size(st) > 4)
         c.error_if(is_scalar(in.src[s]), "types",
                    s == 0 ? "RepCtrl must be zero for 64-bit source 0"
                    : s == 1 ? "RepCtrl must be zero for 64-bit source 1"
                             : "RepCtrl must be zero for 64-bit source 2");
   }

   if (nsrc == 3 || in.exec_size == 1 || !has_dst(in))
      return;

   const unsigned dst_stride = in.dst.hstride;
   const bool dst_byte = is_byte(dt);
   if (dst_byte && is_packed(in.exec_size * dst_stride, in.exec_size, dst_stride)) {
      c.error_if(!is_raw_move(in), "types",
                 "Only raw MOV supports a packed-byte destination");
      return;
   }

   const type s0 = in.src[0].type;
   const type s1 = nsrc > 1 ? in.src[1].type : type::invalid;
   auto src_is = [&](auto pred) { return pred(s0) || (nsrc > 1 && pred(s1)); };
   const unsigned dsize = type_size(dt);

   if (is_conversion(in, nsrc, [](type t) { return type_size(t) == 1; })) {
      c.error_if(dsize == 1 && src_is([](type t) { return type_size(t) == 8; }),
                 "types", "There are no direct conversions between 64-bit types and B/UB");
      c.error_if(dsize == 8 && src_is([](type t) { return type_size(t) == 1; }),
                 "types", "There are no direct conversions between 64-bit types and B/UB");
   }

   if (is_conversion(in, nsrc, [](type t) { return t == type::HF; })) {
      c.error_if(dt == type::HF && src_is([](type t) { return type_size(t) == 8; }),
                 "types", "There are no direct conversions between 64-bit types and HF");
      c.error_if(dsize == 8 && src_is([](type t) { return t == type::HF; }),
                 "types", "There are no direct conversions between 64-bit types and HF");
      /* Align16 destinations are always packed. */
      if (in.access == access_mode::align1) {
         if ((dt == type::HF && src_is(is_int)) ||
             (is_int(dt) && src_is([](type t) { return t == type::HF; }))) {
            c.error_if(dst_stride * dsize != 4, "types",
                       "Conversions between integer and half-float must be "
                       "strided by a DWord on the destination");
            c.error_if(in.dst.subnr % 4 != 0, "types",
                       "Conversions between integer and half-float must be "
                       "aligned to a DWord on the destination");
         } else if (dt == type::HF && c.mixed_float_mode()) {
            c.error_if(dst_stride != 2 &&
                       !(is_mixed_float(in, nsrc) && dst_stride == 1 &&
                         in.dst.subnr % 16 == 0),
                       "types", "Conversions to HF must have either all words in "
                       "even word locations or all words in odd word locations "
                       "or be mixed-float with Oword-aligned packed destination");
         }
      }
   }

   /* Mixed float mode has its own rules (check_mixed_float). */
   const type et = execution_type(in, nsrc);
   const unsigned esize = type_size(et);
   if (!(is_mixed_float(in, nsrc) && c.mixed_float_mode()) && esize > dsize) {
      if (!(dst_byte && is_raw_move(in)))
         c.error_if(dst_stride * dsize != esize, "types",
                    "Destination stride must be equal to the ratio of the sizes "
                    "of the execution data type to the destination type");
      if (in.access == access_mode::align1 && !in.dst.indirect) {
         const unsigned sub = in.dst.subnr;
         if (dst_byte)
            c.error_if(sub % esize != 0 && sub % esize != 1, "types",
                       "Destination subreg must be aligned to the size of the "
                       "execution data type (or to the next lowest byte for byte "
                       "destinations)");
         else
            c.error_if(sub % esize != 0, "types",
                       "Destination subreg must be aligned to the size of the "
                       "execution data type");
      }
   }
}

void
check_region_parameters(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (nsrc == 3 || is_split_send(in))
      return;
   const bool dst_written = has_dst(in) && !is_null(in.dst);

   if (in.access == access_mode::align16) {
      if (dst_written)
         c.error_if(in.dst.hstride != 1, "region", "Destination Horizontal Stride must be 1");
      for (unsigned i = 0; i < nsrc && i < 2; i++) {
         const reg &s = in.src[i];
         c.error_if(s.file != reg_file::imm && s.vstride != 0 && s.vstride != 2 &&
                    s.vstride != 4, "region",
                    "In Align16 mode, only VertStride of 0, 2, or 4 is allowed");
      }
      return;
   }

   for (unsigned i = 0; i < nsrc; i++) {
      const reg &s = in.src[i];
      if (s.file == reg_file::imm)
         continue;
      const unsigned size = type_size(s.type);
      const unsigned v = s.vstride, w = s.width, h = s.hstride;

      c.error_if(in.exec_size < w, "region",
                 "ExecSize must be greater than or equal to Width");
      if (w == 1)
         c.error_if(h != 0, "region", "If Width = 1, HorzStride must be 0 "
                    "regardless of the values of ExecSize and VertStride");
      /* VxH: one address per row, no vertical stride. */
      if (v == vstride_vxh)
         continue;
      if (in.exec_size == w && h != 0)
         c.error_if(v != w * h, "region", "If ExecSize = Width and HorzStride ≠ 0, "
                    "VertStride must be set to Width * HorzStride");
      if (in.exec_size == 1 && w == 1)
         c.error_if(v != 0 || h != 0, "region", "If ExecSize = Width = 1, both "
                    "VertStride and HorzStride must be 0");
      if (v == 0 && h == 0)
         c.error_if(w != 1, "region", "If VertStride = HorzStride = 0, Width must "
                    "be 1 regardless of the value of ExecSize");

      /* Rows may not cross a register; only direct GRF addresses are
       * known here.
       */
      if (s.file != reg_file::grf || s.indirect || w == 0 || size == 0)
         continue;
      unsigned row = s.subnr;
      for (unsigned y = 0; y < in.exec_size / w; y++) {
         unsigned off = row;
         const unsigned first = off / 32;
         bool spans = false;
         for (unsigned x = 0; x < w && !spans; x++) {
            spans = (off + size - 1) / 32 != first;
            off += h * size;
         }
         row += v * size;
         if (spans) {
            c.error_if(true, "region",
                       "VertStride must be used to cross GRF register boundaries");
            break;
         }
      }
   }

   if (dst_written)
      c.error_if(in.dst.hstride == 0, "region",
                 "Destination Horizontal Stride must not be 0");
}

bool
uses_src_acc(const inst &in, unsigned nsrc)
{
   if (in.op == opcode::mac || in.op == opcode::mach || in.op == opcode::sada2)
      return true;
   return is_acc(in.src[0]) || (nsrc > 1 && is_acc(in.src[1]));
}

void
check_mixed_float(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (nsrc >= 3 || !is_mixed_float(in, nsrc) || !c.mixed_float_mode())
      return;
   const type s0 = in.src[0].type;
   const type s1 = nsrc > 1 ? in.src[1].type : type::invalid;
   const type dt = in.dst.type;
   const unsigned dst_stride = in.dst.hstride;
   const bool dst_packed = is_packed(in.exec_size * dst_stride, in.exec_size, dst_stride);

   c.error_if(in.src[0].indirect || (nsrc > 1 && in.src[1].indirect), "mixed-float",
              "Indirect addressing on source is not supported when source and "
              "destination data types are mixed float");
   c.error_if(in.exec_size > 8 && dt == type::F && in.op != opcode::mov, "mixed-float",
              "Mixed float mode with 32-bit float destination is limited to SIMD8");

   if (in.access == access_mode::align16) {
      c.error_if(in.src[0].vstride != 4 || (nsrc >= 2 && in.src[1].vstride != 4),
                 "mixed-float",
                 "Align16 mixed float mode assumes packed data (vstride must be 4");
      c.error_if(in.exec_size > 8, "mixed-float",
                 "Align16 mixed float mode is limited to SIMD8");
      c.error_if(uses_src_acc(in, nsrc), "mixed-float",
                 "No accumulator read access for Align16 mixed float");
      return;
   }

   c.error_if(in.exec_size > 8 && dst_packed && dt == type::HF && in.op != opcode::mov,
              "mixed-float", "Align1 mixed float mode is limited to SIMD8 when "
              "destination is packed half-float");
   if (in.op == opcode::math) {
      c.error_if((s0 == type::HF && in.src[0].hstride <= 1) ||
                 (nsrc >= 2 && s1 == type::HF && in.src[1].hstride <= 1),
                 "mixed-float", "Align1 mixed mode math needs strided half-float inputs");
   }
   if (dt == type::HF && dst_stride == 1) {
      c.error_if(in.dst.subnr % 16 != 0, "mixed-float",
                 "Align1 mixed mode packed half-float output must be oword aligned");
      c.error_if(in.exec_size > 8, "mixed-float",
                 "Align1 mixed mode packed half-float output must not cross "
                 "oword boundaries (max exec size is 8)");
      for (unsigned i = 0; i < nsrc; i++) {
         const reg &s = in.src[i];
         c.error_if(is_acc(s) && (s.type == type::F || s.type == type::HF) &&
                    s.subnr != 0, "mixed-float",
                    "Mixed float mode requires register-aligned accumulator "
                    "source reads when destination is packed half-float");
      }
   }
   if (dt == type::HF && uses_src_acc(in, nsrc))
      c.error_if(dst_stride != 2, "mixed-float",
                 "Mixed float mode with implicit/explicit accumulator source and "
                 "half-float destination requires a stride of 2 on the destination");
}

/* Which of the (at most two) registers from the operand's first each
 * channel touches, as a bit mask per channel.
 */
void
grfs_touched(uint8_t mask[32], unsigned exec_size, unsigned size, unsigned subnr,
             unsigned v, unsigned w, unsigned h)
{
   unsigned row = subnr, e = 0;
   for (unsigned y = 0; y < exec_size / w && e < 32; y++) {
      unsigned off = row;
      for (unsigned x = 0; x < w && e < 32; x++) {
         const unsigned first = (off / 32) % 8, last = ((off + size - 1) / 32) % 8;
         mask[e++] = uint8_t(1u << first | 1u << last);
         off += h * size;
      }
      row += v * size;
   }
}

void
check_region_alignment(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (nsrc == 3 || in.access == access_mode::align16 || is_send(in.op))
      return;
   for (unsigned i = 0; i < nsrc; i++) {
      const reg &s = in.src[i];
      if (s.file != reg_file::grf || s.indirect || s.width == 0)
         continue;
      const unsigned size = type_size(s.type);
      const unsigned rows = in.exec_size / s.width;
      const unsigned last = ((rows ? rows - 1 : 0) * s.vstride +
                             (s.width - 1) * s.hstride) * size + s.subnr;
      c.error_if(last >= 64, "alignment",
                 "A source cannot span more than 2 adjacent GRF registers");
   }
   if (!has_dst(in) || is_null(in.dst))
      return;
   const unsigned size = type_size(in.dst.type);
   const unsigned h = in.dst.hstride;
   const unsigned last = (in.exec_size - 1) * h * size + in.dst.subnr;
   c.error_if(last >= 64, "alignment",
              "A destination cannot span more than 2 adjacent GRF registers");
   /* Gen9: math only (SKL PRM); Gen8: every instruction (BDW PRM). */
   if (last >= 64 || (in.op != opcode::math && c.g != gen::gen8))
      return;

   uint8_t mask[32] = {};
   if (in.exec_size == 1)
      grfs_touched(mask, 1, size, in.dst.subnr, 0, 1, 0);
   else
      grfs_touched(mask, in.exec_size, size, in.dst.subnr, in.exec_size * h,
                   in.exec_size, h);
   uint8_t all = 0;
   for (uint8_t m : mask)
      all |= m;
   if (__builtin_popcount(all) != 2)
      return;
   unsigned upper = 0, lower = 0;
   for (unsigned i = 0; i < in.exec_size && i < 32; i++)
      (mask[i] == 2 ? upper : lower)++;
   c.error_if(upper != lower, "alignment",
              "Writes must be evenly split between the two destination registers");
}

void
check_vector_immediates(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (nsrc == 3 || nsrc == 0)
      return;
   const reg &s = in.src[nsrc == 1 ? 0 : 1];
   if (s.file != reg_file::imm || !is_vector_imm(s.type))
      return;
   const unsigned dsize = type_size(in.dst.type);
   c.error_if(in.dst.subnr % 16 != 0, "vector-imm",
              "Destination must be 128-bit aligned in order to use immediate "
              "vector types");
   if (s.type == type::VF)
      c.error_if(dsize * in.dst.hstride != 4, "vector-imm",
                 "Destination must have stride equivalent to dword in order to "
                 "use the VF type");
   else
      c.error_if(dsize * in.dst.hstride != 2, "vector-imm",
                 "Destination must have stride equivalent to word in order to "
                 "use the V or UV type");
}

void
check_double_precision(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   if (nsrc == 3 || nsrc == 0 || is_split_send(in))
      return;
   const unsigned esize = type_size(execution_type(in, nsrc));
   const unsigned dsize = type_size(in.dst.type);
   const auto dword = [](type t) { return t == type::D || t == type::UD; };
   const bool int_dword_mul = in.op == opcode::mul && dword(in.src[0].type) &&
                              dword(in.src[1].type);
   const bool dp = dsize == 8 || esize == 8 || int_dword_mul;
   if (!dp)
      return;

   /* CHV, BXT and GLK (the low-power parts) have the regioning rules. */
   for (unsigned i = 0; i < nsrc && c.lp; i++) {
      const reg &s = in.src[i];
      if (s.file == reg_file::imm)
         continue;
      const unsigned size = type_size(s.type);
      const unsigned src_stride = (s.hstride ? s.hstride : s.vstride) * size;
      const unsigned dst_stride = in.dst.hstride * dsize;
      if (in.access == access_mode::align1) {
         c.error_if(!is_scalar(s) && (src_stride % 8 != 0 || dst_stride % 8 != 0 ||
                                      src_stride != dst_stride), "64-bit",
                    "Source and destination horizontal stride must equal and a "
                    "multiple of a qword when the execution type is 64-bit");
         c.error_if(s.vstride != s.width * s.hstride, "64-bit",
                    "Vstride must be Width * Hstride when the execution type is 64-bit");
         c.error_if(!is_scalar(s) && in.dst.subnr != s.subnr, "64-bit",
                    "Source and destination offset must be the same when the "
                    "execution type is 64-bit");
      }
      c.error_if((s.indirect && s.vstride == vstride_vxh) ||
                 (in.dst.indirect && in.dst.vstride == vstride_vxh), "64-bit",
                 "Indirect addressing is not allowed when the execution type is 64-bit");
      c.error_if(in.op == opcode::mac || in.acc_wr ||
                 (s.file == reg_file::arf && s.nr != 0) ||
                 (in.dst.file == reg_file::arf && in.dst.nr != 0), "64-bit",
                 "Architecture registers cannot be used when the execution type is 64-bit");
   }

   const unsigned s0 = type_size(in.src[0].type);
   const unsigned s1 = nsrc > 1 ? type_size(in.src[1].type) : s0;
   c.error_if(in.access == access_mode::align16 && dsize == 8 && (s0 != 8 || s1 != 8) &&
              in.exec_size > 2, "64-bit",
              "In Align16 exec size cannot exceed 2 with a QWord destination and "
              "a non-QWord source");
   if (c.lp)
      c.error_if(in.no_dd_check || in.no_dd_clear, "64-bit",
                 "DepCtrl is not allowed when the execution type is 64-bit");
}

void
check_instruction(checker &c, unsigned nsrc)
{
   const inst &in = c.in;
   const reg &s0 = in.src[0], &s1 = in.src[1];

   if (in.op == opcode::cmp || in.op == opcode::cmpn)
      c.error_if(in.cmod == cond_mod::none, "inst", "CMP (or CMPN) must have a condition.");

   if (in.op == opcode::sel)
      c.error_if((in.cmod != cond_mod::none) == (in.pred != pred_ctrl::none), "inst",
                 "SEL must either be predicated or have a condition modifiers");

   if (in.op == opcode::mul) {
      c.error_if(is_int(s1.type) && type_size(s0.type) < 4 && type_size(s1.type) == 4,
                 "inst", "When multiplying a DW and any lower precision integer, the "
                 "DW operand must be src0.");
      c.error_if((is_acc(s0) && is_int(s0.type)) || (is_acc(s1) && is_int(s1.type)),
                 "inst", "Integer source operands cannot be accumulators.");
      const auto dw = [](type t) { return t == type::D || t == type::UD; };
      const bool int_dst = dw(in.dst.type) || in.dst.type == type::W ||
                           in.dst.type == type::UW;
      c.error_if((dw(s0.type) || dw(s1.type)) && int_dst &&
                 (in.saturate || in.cmod != cond_mod::none), "inst",
                 "Neither Saturate nor conditional modifier allowed with DW "
                 "integer multiply.");
   }

   if (in.op == opcode::math &&
       (in.math == math_fn::intdivmod || in.math == math_fn::intdiv ||
        in.math == math_fn::intmod))
      c.error_if(s0.negate || s0.abs || s1.negate || s1.abs, "inst",
                 "INT DIV function does not support source modifiers.");

   if (in.op == opcode::or_ || in.op == opcode::and_ || in.op == opcode::xor_ ||
       in.op == opcode::not_) {
      c.error_if(s0.abs, "inst", "Behavior of abs source modifier in logic ops is undefined.");
      c.error_if(in.op != opcode::not_ && s1.file != reg_file::imm && s1.abs, "inst",
                 "Behavior of abs source modifier in logic ops is undefined.");
      c.error_if(((s0.abs || s0.negate) && is_acc(s0)) ||
                 (nsrc > 1 && (s1.abs || s1.negate) && is_acc(s1)), "inst",
                 "Source modifier is not allowed if source is an accumulator.");
      c.error_if(in.cmod == cond_mod::o || in.cmod == cond_mod::r ||
                 in.cmod == cond_mod::u, "inst",
                 "O, R, and U conditional modifiers should not be used.");
   }

   if (in.op == opcode::bfi2) {
      c.error_if(in.cmod != cond_mod::none, "inst", "BFI2 cannot have conditional modifier");
      c.error_if(in.saturate, "inst", "BFI2 cannot have saturate modifier");
      c.error_if(in.dst.type != type::D && in.dst.type != type::UD, "inst",
                 "BFI2 destination type must be D or UD");
      for (unsigned s = 0; s < 3; s++)
         c.error_if(in.src[s].type != in.dst.type, "inst",
                    "BFI2 source type must match destination type");
   }

   if (in.op == opcode::csel) {
      c.error_if(in.pred != pred_ctrl::none, "inst", "CSEL cannot be predicated");
      c.error_if(in.cmod == cond_mod::none, "inst", "CSEL must have a condition.");
      if (c.g == gen::gen9) {
         c.error_if(in.dst.type != type::F, "inst", "CSEL destination type must be F");
         for (unsigned s = 0; s < 3; s++)
            c.error_if(in.src[s].type != type::F, "inst", "CSEL source type must be F");
      }
   }
}

void
check_send_descriptor(checker &c)
{
   const inst &in = c.in;
   if (!is_send(in.op) || in.desc_indirect || in.sfid != sfid::urb)
      return;
   c.error_if(!in.header_present(), "send-desc", "Header must be present for all URB messages.");
   /* Mesa 23.3's list for Gen8/9: the HWord/OWord messages are valid
    * from Gen7 (25.0 dropped them with the older generations).
    */
   const unsigned op = desc_field(in.desc, msg::urb_opcode);
   if (op == unsigned(urb_op::simd8_read))
      c.error_if(in.rlen() == 0, "send-desc", "URB SIMD8 read message must read some data.");
   else if (op == 9)
      c.error_if(true, "send-desc", "URB fence message only valid on gfx >= 12.5");
   else if (op > unsigned(urb_op::simd8_read))
      c.error_if(true, "send-desc", "Invalid URB message");
}

} /* namespace */

std::vector<std::string>
validate(const inst &in, gen g, bool low_power)
{
   std::vector<std::string> out;
   checker c{ in, g, low_power, out };
   if (in.op == opcode::illegal || !info(in.op).name) {
      c.error_if(true, "values", "Instruction not supported on this Gen");
      return out;
   }
   const unsigned es = in.exec_size;
   if (es != 1 && es != 2 && es != 4 && es != 8 && es != 16 && es != 32) {
      c.error_if(true, "values", "invalid execution size");
      return out;
   }
   const unsigned nsrc = num_sources(in);
   check_values(c, nsrc);
   if (!out.empty())
      return out;
   check_sources_not_null(c, nsrc);
   check_send(c);
   check_operand_types(c, nsrc);
   check_region_parameters(c, nsrc);
   check_mixed_float(c, nsrc);
   check_region_alignment(c, nsrc);
   check_vector_immediates(c, nsrc);
   check_double_precision(c, nsrc);
   check_instruction(c, nsrc);
   check_send_descriptor(c);
   return out;
}

std::vector<std::string>
validate_program(const uint8_t *data, size_t size, gen g, bool low_power)
{
   std::vector<std::string> out;
   for (const decoded &d : decode_program(data, size, g)) {
      for (const std::string &e : validate(d.in, g, low_power)) {
         char at[32];
         snprintf(at, sizeof(at), "%zu: ", d.offset);
         std::string text = disassemble(d.in, g, d.offset);
         while (!text.empty() && text.back() == '\n')
            text.pop_back();
         for (char &ch : text) {
            if (ch == '\n')
               ch = ' ';
         }
         out.push_back(at + e + ": " + text);
      }
   }
   return out;
}

} /* namespace ibis::isa */
