/*
 * The hybrid interference test of i965-scalar-ssa.txt: SSA interference
 * catches values live at each other's definition; program-order interval
 * overlap catches what SSA reasoning cannot see on a SIMD machine, unless
 * both values are SIMD-local with the same width, bit size and group (then
 * their channels are disjoint whenever their SSA ranges are).
 */
#include "ir/ibis_analysis.h"

namespace ibis {

bool
regs_ssa_interfere(const value *a, const value *b, const liveness &live,
                   const dominance &dom)
{
   if (a == b)
      return false;
   const instr *da = live.first_def(a);
   const instr *db = live.first_def(b);
   /* Values defined at program start: both live there? */
   if (!da && !db) {
      const value_set &entry = live.live_in(live.program().entry());
      return entry.has(a) && entry.has(b);
   }
   auto dominates = [&](const instr *x, const instr *y) {
      return !x || (y && dom.dominates(x, y));
   };
   if (dominates(da, db))
      return live.is_live_after(a, db);
   if (dominates(db, da))
      return live.is_live_after(b, da);
   return false;
}

bool
regs_interval_interfere(const value *a, const value *b, const liveness &live)
{
   return live.start(a) < live.end(b) && live.start(b) < live.end(a);
}

bool
regs_interfere(const value *a, const value *b, const liveness &live,
               const dominance &dom)
{
   if (a == b)
      return false;
   if (regs_ssa_interfere(a, b, live, dom))
      return true;
   if (!regs_interval_interfere(a, b, live))
      return false;
   return a->width != b->width || a->bit_size() != b->bit_size() ||
          a->group != b->group || a->is_simd_global() || b->is_simd_global();
}

} /* namespace ibis */
