/*
 * Saturate propagation: "y = op …; x = mov.sat y" becomes "x = op.sat …"
 * when the mov is y's only reader (NIR's fsat of an expression).  Gen9
 * clamps a float result to [0, 1] in any of the opcodes below, the same
 * clamp the mov would apply (brw's can_do_saturate()).  y keeps its number,
 * so the readers of x read y.  y may be a WLR value written in parts (a
 * SIMD32 pln per SIMD16 half): every part then saturates.
 */
#include "opt/opt.h"

#include "opt/opt_util.h"

namespace ibis {

namespace {

bool
can_saturate(opcode op)
{
   switch (op) {
   case opcode::mov: case opcode::add: case opcode::mul: case opcode::mad:
   case opcode::lrp: case opcode::pln: case opcode::frc: case opcode::avg:
   case opcode::rndd: case opcode::rnde: case opcode::rndu: case opcode::rndz:
   case opcode::sel:
      return true;
   default:
      return op_info(op).kind == opcode_kind::math &&
             op != opcode::math_idiv && op != opcode::math_irem &&
             op != opcode::math_idivrem;
   }
}

/* A whole-value float mov.sat with no other effect; returns its source. */
value *
sat_source(const instr *m)
{
   if (m->op != opcode::mov || !m->saturate || m->num_dsts() != 1 ||
       m->predicate() || m->cmod != cond_mod::none || m->flag_def() ||
       !m->preserve().is_null() || m->has_side_effects())
      return nullptr;
   const operand &d = m->dst(0), &s = m->src(0);
   if (!d.val || d.val->file != reg_file::ssa || !s.val ||
       (s.val->file != reg_file::ssa && s.val->file != reg_file::wlr) ||
       s.neg || s.abs || s.offset || s.has_region || d.offset ||
       d.has_region || !type_is_float(d.type) || s.type != d.type ||
       d.val->length != 1 || s.val->length != 1 ||
       d.val->width != s.val->width || d.val->group != s.val->group ||
       m->exec_size != d.val->width || s.val->uses().size() != 1 ||
       s.val->defs().empty())
      return nullptr;
   return s.val;
}

/* Can def, one of y's writers, saturate for the mov m?  It must write
 * y's channels [group, group + exec_size) whole, as m's type, and nothing
 * else.
 */
bool
can_saturate_def(const instr *def, const value *y, const instr *m)
{
   /* sel.ge/sel.l select by their modifier; any other one writes a flag
    * that would see the clamped result.
    */
   bool sel_minmax = def->op == opcode::sel &&
                     (def->cmod == cond_mod::ge || def->cmod == cond_mod::l);
   if (!can_saturate(def->op) || def->num_dsts() != 1 || def->predicate() ||
       (def->cmod != cond_mod::none && !sel_minmax) || def->flag_def() ||
       !def->preserve().is_null() || def->reads(y))
      return false;
   const operand &d = def->dst(0);
   return d.val == y && d.type == m->dst(0).type && !d.has_region &&
          def->group >= y->group &&
          def->group + def->exec_size <= y->group + y->width &&
          d.offset == (def->group - y->group) * type_bits(d.type) / 8 &&
          def->we_all() == m->we_all();
}

bool
propagate(instr *m)
{
   value *y = sat_source(m);
   if (!y)
      return false;
   /* The writers must cover y's channels once each: a clamp of any part
    * written twice, or a part never written, is not the mov's clamp.
    */
   unsigned channels = 0;
   uint64_t seen = 0;
   for (const instr *def : y->defs()) {
      if (!can_saturate_def(def, y, m))
         return false;
      uint64_t bits = (def->exec_size >= 64 ? ~0ull
                                            : (1ull << def->exec_size) - 1)
                      << (def->group - y->group);
      if (seen & bits)
         return false;
      seen |= bits;
      channels += def->exec_size;
   }
   if (channels != y->width)
      return false;
   for (instr *def : y->defs())
      def->saturate = true;
   value *x = m->dst(0).val;
   m->remove();
   replace_uses(x, y);
   return true;
}

} /* namespace */

bool
opt_sat_prop(shader &s)
{
   return for_each_instr(s, propagate);
}

} /* namespace ibis */
