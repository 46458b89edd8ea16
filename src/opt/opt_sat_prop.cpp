/*
 * Saturate propagation: "y = op …; x = mov.sat y" becomes "x = op.sat …"
 * when the mov is y's only reader (NIR's fsat of an expression).  Gen9
 * clamps a float result to [0, 1] in any of the opcodes below, the same
 * clamp the mov would apply (brw's can_do_saturate()).  y keeps its number,
 * so the readers of x read y.
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
       s.val->file != reg_file::ssa || s.neg || s.abs || s.offset ||
       s.has_region || d.offset || d.has_region || !type_is_float(d.type) ||
       s.type != d.type || d.val->length != 1 || s.val->length != 1 ||
       d.val->width != s.val->width || d.val->group != s.val->group ||
       m->exec_size != d.val->width || s.val->uses().size() != 1 ||
       s.val->defs().size() != 1)
      return nullptr;
   return s.val;
}

bool
propagate(instr *m)
{
   value *y = sat_source(m);
   if (!y)
      return false;
   instr *def = y->defs()[0];
   /* sel.ge/sel.l select by their modifier; any other one writes a flag
    * that would see the clamped result.
    */
   bool sel_minmax = def->op == opcode::sel &&
                     (def->cmod == cond_mod::ge || def->cmod == cond_mod::l);
   if (!can_saturate(def->op) || def->num_dsts() != 1 || def->predicate() ||
       (def->cmod != cond_mod::none && !sel_minmax) || def->flag_def() ||
       !def->preserve().is_null() || def->dst(0).type != m->dst(0).type ||
       def->dst(0).offset || def->dst(0).has_region ||
       def->exec_size != m->exec_size || def->group != m->group ||
       def->we_all() != m->we_all())
      return false;
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
