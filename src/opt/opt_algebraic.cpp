/*
 * Algebraic simplification: an ALU instruction with an identity or
 * absorbing constant becomes a mov, keeping saturate and a conditional
 * modifier (the mov's result is the same, so is its flag):
 *
 *    add x, 0 (integers), add x, -0.0 (floats: x + +0.0 is +0.0 for -0.0)
 *    mul x, 1 -> x        mul x, -1 -> -x       mul x, 0 -> 0 (integers)
 *    and x, ~0 -> x       and x, 0 -> 0         or x, 0 -> x
 *    or x, ~0 -> ~0       xor x, 0 -> x         shl/shr/asr x, 0 -> x
 *    sel.ge/sel.l x, x -> x
 *
 * The constant may be either source of a commutative opcode.  All operands
 * must have the destination's type (no conversion hides in the mov), and a
 * source modifier on x survives into the mov except on logic ops, where a
 * negate means not.  Predicated and preserving instructions are left
 * alone.  One walk: O(instructions).
 *
 * A "not" feeding and/or/xor becomes that source's negate modifier (on
 * Gen8+ a logic op's negate is a bitwise not, as brw folds inot):
 *    y = not x; z = and y, c   ->   z = and -x, c
 * and the not dies in dce when nothing else reads it.
 */
#include "opt/opt.h"

#include "opt/opt_util.h"

namespace ibis {

namespace {

/* z = op (not x), … -> z = op -x, … for the two-source logic ops. */
bool
fold_not(instr *in)
{
   if ((in->op != opcode::and_ && in->op != opcode::or_ &&
        in->op != opcode::xor_) || in->num_srcs() != 2)
      return false;
   bool progress = false;
   for (unsigned i = 0; i < 2; i++) {
      const operand &o = in->src(i);
      if (!o.val || o.val->file != reg_file::ssa || o.offset || o.has_region ||
          o.abs || o.val->defs().size() != 1 || o.val->length != 1)
         continue;
      const instr *d = o.val->defs()[0];
      if (d->op != opcode::not_ || d->num_dsts() != 1 || d->predicate() ||
          d->saturate || d->cmod != cond_mod::none || d->flag_def() ||
          !d->preserve().is_null() || d->dst(0).offset || d->dst(0).has_region ||
          d->exec_size != o.val->width || d->group != o.val->group)
         continue;
      const operand &x = d->src(0);
      if (!x.val || x.abs || x.type != d->dst(0).type ||
          type_bits(o.type) != type_bits(x.type) ||
          (x.val->file != reg_file::ssa && x.val->file != reg_file::uniform &&
           x.val->file != reg_file::attr) ||
          (x.val->width != o.val->width && x.val->width != 1) ||
          (x.val->width == o.val->width && x.val->group != o.val->group))
         continue;
      operand n = x;
      n.type = o.type;
      n.neg = !(o.neg ^ x.neg);
      in->set_src(i, n);
      progress = true;
   }
   return progress;
}

bool
simplify(instr *in)
{
   const opcode_info &info = in->info();
   if (info.kind != opcode_kind::alu || in->num_srcs() != 2 ||
       in->num_dsts() != 1 || !in->dst(0).val || in->predicate() ||
       !in->preserve().is_null() || info.writes_accum || info.reads_accum ||
       in->has_side_effects())
      return false;
   data_type t = in->dst(0).type;
   if (in->src(0).type != t || in->src(1).type != t)
      return false;

   if (in->op == opcode::sel) {
      if ((in->cmod == cond_mod::ge || in->cmod == cond_mod::l) &&
          in->src(0) == in->src(1) && !in->src(0).is_imm()) {
         replace_with_mov(in, in->src(0), true);
         return true;
      }
      return false;
   }

   unsigned bits = type_bits(t);
   uint64_t ones = bits >= 64 ? ~0ull : (1ull << bits) - 1;
   uint64_t sign = 1ull << (bits - 1);
   bool fl = type_is_float(t);
   uint64_t one_bits = t == data_type::f32 ? 0x3f800000ull :
                       t == data_type::f64 ? 0x3ff0000000000000ull :
                       t == data_type::f16 ? 0x3c00ull : 1;

   for (unsigned c = 0; c < 2; c++) {
      if (c == 0 && !info.commutative)
         continue;
      uint64_t k;
      if (!const_operand(in->src(c), &k, is_logic_op(in->op)))
         continue;
      operand x = in->src(1 - c);
      bool x_is_result = false, zero_result = false, neg_x = false;
      switch (in->op) {
      case opcode::add:
         x_is_result = fl ? k == sign : k == 0;
         break;
      case opcode::mul:
         x_is_result = k == one_bits;
         neg_x = fl ? k == (one_bits | sign) : k == ones;
         zero_result = !fl && k == 0;
         break;
      case opcode::and_:
         x_is_result = k == ones;
         zero_result = k == 0;
         break;
      case opcode::or_:
         x_is_result = k == 0;
         if (k == ones) {
            replace_with_mov(in, operand::imm_of(t, ones));
            return true;
         }
         break;
      case opcode::xor_:
      case opcode::shl:
      case opcode::shr:
      case opcode::asr:
         x_is_result = k == 0;
         break;
      default:
         break;
      }
      if (zero_result) {
         replace_with_mov(in, operand::imm_of(t, 0));
         return true;
      }
      if (!x_is_result && !neg_x)
         continue;
      if (is_logic_op(in->op) && (x.neg || x.abs))
         continue;
      if (x.is_imm())
         continue;   /* two constants: constant folding's job */
      if (neg_x)
         x = x.negate();
      replace_with_mov(in, x);
      return true;
   }
   return false;
}

} /* anonymous namespace */

bool
opt_algebraic(shader &s)
{
   return for_each_instr(s, [](instr *in) {
      bool folded = fold_not(in);
      return simplify(in) || folded;
   });
}

} /* namespace ibis */
