/*
 * Rematerialization of cheap definitions next to their uses.
 *
 * from_nir interpolates every input (pln) and materializes constants at
 * the top of the program; in the large ubershaders those results then
 * live across the whole shader (32 pln results are 64 GRFs at SIMD16).
 * A definition that only reads immediates and registers that hold their
 * value for the whole program (push constants, attributes, unwritten
 * payload registers) can be recomputed anywhere, so each block that uses
 * it gets its own copy, placed before its first use there, and the
 * original goes away when nothing else reads it.  The price is the
 * sources living longer (they are mostly live anyway) and one
 * instruction per using block, so only the pressure-first mode does it.
 *
 * A definition that also reads SSA values is recomputed the same way in
 * the blocks where those values are live anyway (live-in, or live-out of
 * a predecessor for a phi's edge): the ubershaders keep a TEV input both
 * as it was selected, for the next stage, and masked to 8 bits, and the
 * masked copy need not cross the blocks between.  The SSA value read
 * there is the one the original read: its definition dominates the
 * original, which dominates every use, so no path from the original to a
 * use defines it again.  A full-width copy runs under the channel mask of
 * its block, not of the original's, so it goes only where every reader
 * reads its own channel (ALU and math, with the mask, no region) and the
 * channels disabled there are never read.
 */
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>
#include <unordered_map>

#include "sched/sched_private.h"

namespace ibis {

/* A source that reads the same bits anywhere in the program. */
bool
is_program_invariant(const operand &o)
{
   if (o.is_imm() || o.is_null())
      return true;
   const value *v = o.val;
   if (v->file == reg_file::uniform || v->file == reg_file::attr)
      return true;
   return v->file == reg_file::hw_reg && v->defs().empty();
}

void
redirect_use(const use &u, value *nv)
{
   if (u.slot == use::preserve) {
      operand o = u.in->preserve();
      o.val = nv;
      u.in->set_preserve(o);
   } else if (u.slot >= 0) {
      operand o = u.in->src(u.slot);
      o.val = nv;
      u.in->set_src(u.slot, o);
   }
}

namespace {

/* A source remat_cheap_defs may read elsewhere when it is live there. */
bool
is_ssa_source(const operand &o)
{
   return o.val && o.val->file == reg_file::ssa && o.val->defs().size() == 1;
}

/* Does in read each channel of its sources from that channel alone, under
 * the execution mask?
 */
bool
reads_own_channels(const instr *in, const value *v)
{
   const opcode_kind k = in->info().kind;
   if ((k != opcode_kind::alu && k != opcode_kind::math) || in->we_all() ||
       in->exec_size != v->width || in->group != v->group)
      return false;
   for (const operand &o : in->srcs()) {
      if (o.val == v && (o.has_region || o.offset))
         return false;
   }
   return in->preserve().val != v;
}

/* A cheap definition; ssa says whether it reads SSA values (else it reads
 * only program-invariant ones).
 */
bool
is_cheap(const instr *in, bool &ssa)
{
   if (in->info().kind != opcode_kind::alu || in->num_dsts() != 1)
      return false;
   if (in->predicate() || in->flag_def() || in->preserve().val ||
       in->has_side_effects() || in->info().writes_accum ||
       in->info().reads_accum || in->cmod != cond_mod::none)
      return false;
   const operand &d = in->dst(0);
   const value *v = d.val;
   if (!v || v->file != reg_file::ssa || v->defs().size() != 1 || d.offset ||
       in->exec_size != v->width || in->group != v->group)
      return false;
   ssa = false;
   for (const operand &o : in->srcs()) {
      if (is_ssa_source(o) && o.val != v)
         ssa = true;
      else if (!is_program_invariant(o))
         return false;
   }
   return true;
}

/* Can def, which reads SSA values, be recomputed in b (before its first
 * reader there when readers, else at its end for a phi's edge)?
 */
bool
site_ok(const liveness &lv, const instr *def, const block *b, bool readers,
        bool masked)
{
   const value_set &live = readers ? lv.live_in(b) : lv.live_out(b);
   for (const operand &o : def->srcs()) {
      if (is_ssa_source(o) && !live.has(o.val))
         return false;
   }
   if (!masked)
      return true;
   const value *v = def->dst(0).val;
   for (const use &u : v->uses()) {
      if (!u.in->is_phi() && u.in->parent() == b && !reads_own_channels(u.in, v))
         return false;
   }
   return true;
}

} /* anonymous namespace */

bool
remat_cheap_defs(shader &s)
{
   s.renumber();
   std::vector<instr *> candidates;
   bool any_ssa = false;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         bool ssa;
         if (is_cheap(in, ssa)) {
            candidates.push_back(in);
            any_ssa |= ssa;
         }
      }
   }
   /* Liveness before any change: a copy only reads a value where it was
    * live, and copies only shorten other live ranges.
    */
   std::unique_ptr<liveness> lv;
   if (any_ssa)
      lv = std::make_unique<liveness>(s, false, live_detail::sets);

   bool progress = false;
   for (instr *def : candidates) {
      value *v = def->dst(0).val;
      block *home = def->parent();
      bool ssa;
      is_cheap(def, ssa);
      const bool masked = !(v->width == 1 && def->we_all());
      /* Where each other block needs its copy: before its first reader,
       * or at its end for phis that read v on the edge leaving it.
       */
      struct site {
         instr *first = nullptr;
         bool edge = false;
         bool preserved = false;
      };
      std::unordered_map<block *, site> sites;
      for (const use &u : v->uses()) {
         if (u.in->is_phi()) {
            block *pred = u.in->parent()->preds[u.slot];
            if (pred != home)
               sites[pred].edge = true;
            continue;
         }
         block *ub = u.in->parent();
         if (ub == home)
            continue;
         site &st = sites[ub];
         if (!st.first || u.in->ip < st.first->ip)
            st.first = u.in;
         st.preserved |= u.slot == use::preserve;
      }
      /* A partial write keeps v in its other channels for readers after
       * it.  With no channel enabled (every one halted), the block is
       * skipped, the copy with it, and those readers would find garbage
       * where the original had been written before any jump: the live
       * mask's NoMask zero of a shader that terminates every channel
       * (dolphin/ubershaders/147 at SIMD8 in pressure mode).
       */
      for (auto it = sites.begin(); it != sites.end();)
         it = it->second.preserved ? sites.erase(it) : std::next(it);
      if (ssa) {
         for (auto it = sites.begin(); it != sites.end();) {
            if (site_ok(*lv, def, it->first, it->second.first != nullptr, masked))
               ++it;
            else
               it = sites.erase(it);
         }
      }
      if (sites.empty())
         continue;

      /* Copies in block order: the map's order follows the blocks'
       * addresses, which would make value ids differ between runs.
       */
      std::vector<std::pair<block *, site>> ordered(sites.begin(), sites.end());
      std::sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
         return a.first->index < b.first->index;
      });
      for (auto &entry : ordered) {
         block *ub = entry.first;
         instr *copy = s.create_instr(def->op, def->exec_size);
         copy->group = def->group;
         copy->saturate = def->saturate;
         copy->flags = def->flags;
         for (const operand &o : def->srcs())
            copy->add_src(o);
         value *nv = s.create_value(reg_file::ssa, v->type, v->width, v->length,
                                    v->group);
         operand d = def->dst(0);
         d.val = nv;
         copy->add_dst(d);
         if (entry.second.first) {
            ub->insert_before(entry.second.first, copy);
            copy->ip = entry.second.first->ip;
         } else {
            ub->insert(ub->before_jump(), copy);
            copy->ip = ~0u;
         }

         /* Every reader of v in this block, and every phi reading it on
          * an edge from this block, now reads the copy.
          */
         std::vector<use> uses = v->uses();
         for (const use &u : uses) {
            if (u.in == copy)
               continue;
            const bool here = u.in->is_phi()
                                 ? u.in->parent()->preds[u.slot] == ub
                                 : u.in->parent() == ub;
            if (!here)
               continue;
            redirect_use(u, nv);
         }
      }
      if (v->uses().empty())
         def->remove();
      progress = true;
   }
   return progress;
}

} /* namespace ibis */
