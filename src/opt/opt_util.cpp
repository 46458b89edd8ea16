#include "opt/opt_util.h"

#include <algorithm>

namespace ibis {

operand
use_operand(const use &u)
{
   if (u.slot == use::predicate)
      return operand(u.in->predicate());
   if (u.slot == use::preserve)
      return u.in->preserve();
   return u.in->src(u.slot);
}

void
set_use(const use &u, const operand &o)
{
   if (u.slot == use::predicate)
      u.in->set_predicate(o.val, u.in->pred_inv);
   else if (u.slot == use::preserve)
      u.in->set_preserve(o);
   else
      u.in->set_src(u.slot, o);
}

void
replace_uses(value *from, value *to)
{
   /* set_use() edits from's use list: work on a copy. */
   std::vector<use> uses = from->uses();
   for (const use &u : uses) {
      operand o = use_operand(u);
      o.val = to;
      set_use(u, o);
   }
}

std::vector<instr *>
wlr_writes(const value *v)
{
   std::vector<instr *> w = v->defs();
   std::sort(w.begin(), w.end(),
             [](const instr *a, const instr *b) { return a->ip < b->ip; });
   return w;
}

bool
is_identity_region(const operand &o, unsigned exec_size)
{
   if (!o.has_region)
      return true;
   const region &r = o.rgn;
   return r.hstride == 1 && (r.vstride == r.width || r.width == exec_size);
}

bool
is_scalar_region(const operand &o)
{
   return o.has_region && o.rgn.vstride == 0 && o.rgn.width == 1 &&
          o.rgn.hstride == 0;
}

bool
is_logic_op(opcode op)
{
   return op == opcode::and_ || op == opcode::or_ || op == opcode::xor_ ||
          op == opcode::not_;
}

} /* namespace ibis */
