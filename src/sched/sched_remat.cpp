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
 */
#include <algorithm>
#include <unordered_map>

#include "sched/sched_private.h"

namespace ibis {

namespace {

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

bool
is_cheap(const instr *in)
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
   for (const operand &o : in->srcs()) {
      if (!is_program_invariant(o))
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
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (is_cheap(in))
            candidates.push_back(in);
      }
   }

   bool progress = false;
   for (instr *def : candidates) {
      value *v = def->dst(0).val;
      block *home = def->parent();
      /* Where each other block needs its copy: before its first reader,
       * or at its end for phis that read v on the edge leaving it.
       */
      struct site {
         instr *first = nullptr;
         bool edge = false;
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
      }
      if (sites.empty())
         continue;

      for (auto &entry : sites) {
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
      }
      if (v->uses().empty())
         def->remove();
      progress = true;
   }
   return progress;
}

} /* namespace ibis */
