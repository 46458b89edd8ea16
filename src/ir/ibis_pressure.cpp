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
 * live set.
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

   /* The block starts sum the weights over live-out sets. */
   const unsigned bound = s.value_id_bound();
   const pressure_weights w(s);
   std::vector<const value *> named, extra;
   std::vector<bool> was;
   value_set cur;
   for (const auto &b : s.blocks()) {
      /* Each block starts from its own live-out set. */
      if (blocks && !(*blocks)[b->index])
         continue;
      /* Assigned: the set's words are reused from block to block. */
      cur = live.live_out(b.get());
      long grfs = 0, uniform = 0;
      auto weigh = [&](const value *v, long sign, long &g, long &u) {
         if (v->id >= bound)
            return;
         g += sign * long(w.grfs[v->id]);
         u += sign * long(w.uniform[v->id]);
      };
      cur.for_each_id([&](unsigned id) {
         if (id < bound) {
            grfs += w.grfs[id];
            uniform += w.uniform[id];
         }
      });
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         const instr *in = *it;
         auto add_once = [](std::vector<const value *> &list, const value *v) {
            if (v && std::find(list.begin(), list.end(), v) == list.end())
               list.push_back(v);
         };
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
            if (!cur.has(v))
               weigh(v, 1, g, u);
         }
         unsigned at = unsigned(g + (u + 31) / 32);
         p.at[in->ip] = at;
         p.max = std::max(p.max, at);

         named = extra;
         add_once(named, in->flag_def());
         add_once(named, in->predicate());
         if (in->is_phi()) {
            for (const operand &o : in->srcs())
               add_once(named, o.val);
            add_once(named, in->preserve().val);
         }
         was.resize(named.size());
         for (size_t i = 0; i < named.size(); i++)
            was[i] = cur.has(named[i]);
         live.transfer(in, cur);
         for (size_t i = 0; i < named.size(); i++) {
            bool is = cur.has(named[i]);
            if (is != was[i])
               weigh(named[i], is ? 1 : -1, grfs, uniform);
         }
      }
   }
   return p;
}

} /* namespace ibis */
