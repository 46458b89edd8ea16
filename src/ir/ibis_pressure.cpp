/*
 * Register pressure in physical 32-byte GRFs at each instruction.
 */
#include "ir/ibis_analysis.h"

namespace ibis {

bool
uses_grfs(const value *v)
{
   return v->file == reg_file::ssa || v->file == reg_file::wlr ||
          v->file == reg_file::uniform || v->file == reg_file::attr;
}

unsigned
uniform_bytes(const value *v)
{
   return (v->bit_size() / 8 * v->length + 3) / 4 * 4;
}

unsigned
value_grfs(const value *v)
{
   if (v->width == 1)
      return (uniform_bytes(v) + 31) / 32;
   return (v->size_bytes() + 31) / 32;
}

register_pressure
compute_pressure(const liveness &live)
{
   const shader &s = live.program();
   register_pressure p;
   unsigned num = 0;
   for (const auto &b : s.blocks())
      num += b->instrs().size();
   p.at.assign(num, 0);

   for (const auto &b : s.blocks()) {
      live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
         value_set present = after;
         for (const operand &d : in->dsts()) {
            if (d.val && uses_grfs(d.val))
               present.add(d.val);
         }
         /* Phi sources are read on the incoming edges, not here. */
         if (!in->is_phi()) {
            for (const operand &o : in->srcs()) {
               if (o.val && uses_grfs(o.val))
                  present.add(o.val);
            }
            if (in->preserve().val && uses_grfs(in->preserve().val))
               present.add(in->preserve().val);
         }
         unsigned grfs = 0, uniform = 0;
         for (const value *v : present.values(s)) {
            if (!uses_grfs(v))
               continue;
            if (v->width == 1)
               uniform += uniform_bytes(v);
            else
               grfs += value_grfs(v);
         }
         grfs += (uniform + 31) / 32;
         p.at[in->ip] = grfs;
         p.max = std::max(p.max, grfs);
      });
   }
   return p;
}

} /* namespace ibis */
