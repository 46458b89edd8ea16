/*
 * Register pressure in physical 32-byte GRFs at each instruction.
 */
#include "ir/ibis_analysis.h"

#include <algorithm>

namespace ibis {

pressure_weights::pressure_weights(const shader &s)
   : grfs(s.value_id_bound(), 0), uniform(s.value_id_bound(), 0)
{
   for (const value *v : s.values()) {
      if (!uses_grfs(v))
         continue;
      if (v->width == 1)
         uniform[v->id] = uniform_bytes(v);
      else
         grfs[v->id] = value_grfs(v);
   }
}

/* The walk of liveness::walk_backwards(), keeping the registers of the
 * live set as running sums: only the values an instruction names can
 * enter or leave the set there, so each step costs its operands, not the
 * live set.  Blocks go last first, so each block's live-out set is
 * reached from the live-in set of the block after it: the sums move by
 * the few values that differ instead of being summed over the whole set
 * at every block (most of the cost in programs of many small blocks).
 */
register_pressure
compute_pressure(const liveness &live, const std::vector<uint8_t> *blocks)
{
   const shader &s = live.program();
   register_pressure p;
   unsigned num = 0;
   for (const auto &b : s.blocks())
      num += b->instrs().size();
   p.at.assign(num, 0);

   const unsigned bound = s.value_id_bound();
   const pressure_weights w(s);
   /* The weights of a value, 0 for ids past the bound. */
   auto grfs_of = [&](unsigned id) { return id < bound ? long(w.grfs[id]) : 0; };
   auto uniform_of = [&](unsigned id) {
      return id < bound ? long(w.uniform[id]) : 0;
   };
   std::vector<const value *> named, extra;
   /* cur and its sums: empty before the first block; the sums always
    * weigh exactly the members of cur.
    */
   value_set cur;
   long grfs = 0, uniform = 0;
   auto add_once = [](std::vector<const value *> &list, const value *v) {
      if (v && std::find(list.begin(), list.end(), v) == list.end())
         list.push_back(v);
   };
   for (auto bit = s.blocks().rbegin(); bit != s.blocks().rend(); ++bit) {
      const block *b = bit->get();
      if (blocks && !(*blocks)[b->index])
         continue;
      /* Each block starts from its own live-out set. */
      cur.assign_reporting(live.live_out(b), [&](unsigned id, bool in_out) {
         const long sign = in_out ? 1 : -1;
         grfs += sign * grfs_of(id);
         uniform += sign * uniform_of(id);
      });
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         const instr *in = *it;
         /* Present: live after, plus what it writes and (but phis, whose
          * sources are read on the incoming edges) what it reads.
          */
         extra.clear();
         for (const operand &d : in->dsts())
            add_once(extra, d.val);
         if (!in->is_phi()) {
            for (const operand &o : in->srcs())
               add_once(extra, o.val);
            add_once(extra, in->preserve().val);
         }
         long g = grfs, u = uniform;
         for (const value *v : extra) {
            if (!cur.has(v)) {
               g += grfs_of(v->id);
               u += uniform_of(v->id);
            }
         }
         unsigned at = unsigned(g + (u + 31) / 32);
         p.at[in->ip] = at;
         p.max = std::max(p.max, at);

         /* transfer() changes only the values the instruction names:
          * take theirs out of the sums and put back those still live.
          */
         named = extra;
         add_once(named, in->flag_def());
         add_once(named, in->predicate());
         if (in->is_phi()) {
            for (const operand &o : in->srcs())
               add_once(named, o.val);
            add_once(named, in->preserve().val);
         }
         for (const value *v : named) {
            if (cur.has(v)) {
               grfs -= grfs_of(v->id);
               uniform -= uniform_of(v->id);
            }
         }
         live.transfer(in, cur);
         for (const value *v : named) {
            if (cur.has(v)) {
               grfs += grfs_of(v->id);
               uniform += uniform_of(v->id);
            }
         }
      }
   }
   return p;
}

} /* namespace ibis */
