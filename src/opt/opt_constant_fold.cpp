/*
 * Constant folding: an ALU instruction whose sources are all constants
 * (immediates, or values written by a mov of an immediate) becomes a mov of
 * the result, for copy-prop to spread and dce to clean up.
 *
 * Only what the host computes exactly as Gen9 does is folded:
 *  - integers of 16 and 32 bits, all operands of the destination's type:
 *    add and mul wrap, and/or/xor/not, 32-bit shifts (count taken modulo
 *    32), sel.ge/sel.l as max/min;
 *  - f32 and f64 add, mul, sel.ge/sel.l and saturate, when no input or
 *    result is a NaN or a denormal (Gen9 flushes single-precision
 *    denormals by default and returns its own NaN), rounding to nearest
 *    even like the EU;
 *  - mov converting s32/u32 to f32 (rounded to nearest even), f32 to
 *    s32/u32 when the truncated value is in range, and s32/u32 to
 *    s16/u16 (the low word).
 * Predicated, preserving and flag-defining instructions are left alone.
 * One walk: O(instructions).
 */
#include "opt/opt.h"

#include <cmath>
#include <cstring>

#include "opt/opt_util.h"

namespace ibis {

namespace {

bool
is_int(data_type t)
{
   return t == data_type::u32 || t == data_type::s32 ||
          t == data_type::u16 || t == data_type::s16;
}

int64_t
sext(uint64_t v, unsigned bits)
{
   return int64_t(v << (64 - bits)) >> (64 - bits);
}

/* A float whose bits are ordinary: not NaN, not denormal. */
bool
get_float(data_type t, uint64_t bits, double *d)
{
   if (t == data_type::f32) {
      float f;
      uint32_t u = bits;
      memcpy(&f, &u, 4);
      *d = f;
      return !std::isnan(f) && std::fpclassify(f) != FP_SUBNORMAL;
   }
   memcpy(d, &bits, 8);
   return !std::isnan(*d) && std::fpclassify(*d) != FP_SUBNORMAL;
}

bool
put_float(data_type t, double d, uint64_t *bits)
{
   if (t == data_type::f32) {
      float f = d;   /* d is the exact sum/product of two floats: one rounding */
      uint32_t u;
      memcpy(&u, &f, 4);
      *bits = u;
      return !std::isnan(f) && std::fpclassify(f) != FP_SUBNORMAL;
   }
   memcpy(bits, &d, 8);
   return !std::isnan(d) && std::fpclassify(d) != FP_SUBNORMAL;
}

bool
fold_int(const instr *in, data_type t, const uint64_t *s, uint64_t *r)
{
   unsigned bits = type_bits(t);
   bool sgn = type_is_signed_int(t);
   uint64_t mask = (1ull << bits) - 1;
   auto less = [&](uint64_t a, uint64_t b) {
      return sgn ? sext(a, bits) < sext(b, bits) : (a & mask) < (b & mask);
   };
   switch (in->op) {
   case opcode::add: *r = s[0] + s[1]; break;
   case opcode::mul: *r = s[0] * s[1]; break;
   case opcode::and_: *r = s[0] & s[1]; break;
   case opcode::or_: *r = s[0] | s[1]; break;
   case opcode::xor_: *r = s[0] ^ s[1]; break;
   case opcode::not_: *r = ~s[0]; break;
   case opcode::shl:
   case opcode::shr:
   case opcode::asr: {
      if (bits != 32)
         return false;
      unsigned n = s[1] & 31;
      if (in->op == opcode::shl)
         *r = s[0] << n;
      else if (in->op == opcode::shr)
         *r = (s[0] & mask) >> n;
      else
         *r = uint64_t(sext(s[0], 32) >> n);
      break;
   }
   case opcode::sel:
      if (in->cmod == cond_mod::ge)
         *r = less(s[0], s[1]) ? s[1] : s[0];
      else if (in->cmod == cond_mod::l)
         *r = less(s[0], s[1]) ? s[0] : s[1];
      else
         return false;
      break;
   default:
      return false;
   }
   *r &= mask;
   return !in->saturate;
}

bool
fold_float(const instr *in, data_type t, const uint64_t *s, uint64_t *r)
{
   double a, b = 0, d;
   if (!get_float(t, s[0], &a) || (in->num_srcs() > 1 && !get_float(t, s[1], &b)))
      return false;
   switch (in->op) {
   case opcode::add: d = t == data_type::f32 ? double(float(a) + float(b)) : a + b; break;
   case opcode::mul: d = t == data_type::f32 ? double(float(a) * float(b)) : a * b; break;
   case opcode::sel:
      if (in->cmod == cond_mod::ge)
         d = a >= b ? a : b;
      else if (in->cmod == cond_mod::l)
         d = a < b ? a : b;
      else
         return false;
      break;
   default:
      return false;
   }
   /* Which zero max/min and saturate give is not ours to guess. */
   if (in->op == opcode::sel && a == b && std::signbit(a) != std::signbit(b))
      return false;
   if (in->saturate) {
      if (d == 0 && std::signbit(d))
         return false;
      d = d < 0 ? 0.0 : d > 1 ? 1.0 : d;
   }
   return put_float(t, d, r);
}

/* mov with a conversion. */
bool
fold_convert(data_type to, data_type from, uint64_t s, uint64_t *r)
{
   if (to == data_type::f32 && (from == data_type::s32 || from == data_type::u32)) {
      float f = from == data_type::s32 ? float(int32_t(s)) : float(uint32_t(s));
      uint32_t u;
      memcpy(&u, &f, 4);
      *r = u;
      return true;
   }
   if (from == data_type::f32 && (to == data_type::s32 || to == data_type::u32)) {
      double d;
      if (!get_float(from, s, &d))
         return false;
      d = std::trunc(d);
      if (to == data_type::s32 ? (d < -2147483648.0 || d > 2147483647.0)
                               : (d < 0 || d > 4294967295.0))
         return false;
      *r = to == data_type::s32 ? uint32_t(int32_t(d)) : uint32_t(d);
      return true;
   }
   /* A 32-bit integer truncated to 16 bits keeps its low word (NIR's
    * imul_32x16 narrows its second source so): as an immediate the mul
    * then reads it directly, as brw's "mul D, 80W".
    */
   if ((to == data_type::s16 || to == data_type::u16) &&
       (from == data_type::s32 || from == data_type::u32)) {
      *r = s & 0xffff;
      return true;
   }
   return false;
}

bool
fold(instr *in)
{
   const opcode_info &info = in->info();
   if (info.kind != opcode_kind::alu || info.writes_accum || info.reads_accum ||
       in->num_dsts() != 1 || !in->dst(0).val || in->predicate() ||
       in->flag_def() || !in->preserve().is_null() || in->num_srcs() == 0 ||
       in->num_srcs() > 2 || in->has_side_effects())
      return false;
   data_type t = in->dst(0).type;
   uint64_t s[2];
   for (unsigned i = 0; i < in->num_srcs(); i++) {
      if (!const_operand(in->src(i), &s[i], is_logic_op(in->op)))
         return false;
   }

   uint64_t r;
   if (in->op == opcode::mov) {
      data_type from = in->src(0).type;
      if (from == t || in->saturate || !fold_convert(t, from, s[0], &r))
         return false;
   } else {
      for (const operand &o : in->srcs()) {
         if (o.type != t)
            return false;
      }
      if (is_int(t)) {
         if (!fold_int(in, t, s, &r))
            return false;
      } else if (t == data_type::f32 || t == data_type::f64) {
         if (!fold_float(in, t, s, &r))
            return false;
      } else {
         return false;
      }
   }
   instr *mov = replace_with_mov(in, operand::imm_of(t, r), true);
   mov->saturate = false;
   return true;
}

} /* anonymous namespace */

bool
opt_constant_fold(shader &s)
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         progress |= fold(in);
      }
   }
   return progress;
}

} /* namespace ibis */
