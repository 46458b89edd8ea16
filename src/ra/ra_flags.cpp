/*
 * FLAG values in f0.0, f0.1, f1.0 and f1.1 (16 bits each).
 *
 * A flag value of channels [group, group + width) occupies the 16-bit
 * halves that hold those channel bits counted from the subregister its
 * instruction names: a SIMD32 flag names f0.0 or f1.0 and takes both
 * halves, a flag of channels 16-31 names f0.0 or f1.0 and takes the upper
 * half.  Flags interfere by program-order intervals: a flag write by a
 * masked instruction still changes the bits of its channels whatever the
 * SSA view says, and cmp writes its flag even when nothing reads it, so
 * every conditional modifier without a flag value gets a dead one here.
 *
 * Linear scan over the intervals; when more flags are live than fit, the
 * flag with the farthest end moves to a GRF (a sel of ~0/0 under it, right
 * after its definition, ~0 in a register) and each use gets a fresh flag
 * from a cmp.nz of that GRF right before it.
 */
#include "ra/ra_internal.h"

#include <algorithm>
#include <cassert>

#include "util/ibis_error.h"

namespace ibis {

namespace {

/* First and last occupied half for a flag named at half h. */
void
halves(const value *v, unsigned h, unsigned *first, unsigned *last)
{
   *first = h + v->group / 16;
   *last = h + (v->group + std::max<unsigned>(v->width, 1) - 1) / 16;
}

/* Moves flag v to a GRF: a sel after its definition, a cmp.nz before each
 * use.
 */
void
spill_flag(shader &s, value *v)
{
   instr *def = v->def();
   if (!def)
      throw error(strfmt("register allocation: flag %%%u has no single definition",
                  v->id));
   unsigned w = v->width;
   /* Only the last source of a sel may be an immediate: ~0 comes from a
    * register (random fs seed 5111 SIMD32 spilled a flag and was rejected).
    */
   value *ones = s.create_value(reg_file::ssa, data_type::u32, w, 1, v->group);
   instr *mov = s.create_instr(opcode::mov, w);
   mov->group = v->group;
   mov->add_dst(operand(ones));
   mov->add_src(operand::imm_u32(0xffffffffu));
   value *g = s.create_value(reg_file::ssa, data_type::u32, w, 1, v->group);
   instr *sel = s.create_instr(opcode::sel, w);
   sel->group = v->group;
   sel->add_dst(operand(g));
   sel->add_src(operand(ones));
   sel->add_src(operand::imm_u32(0));
   sel->set_predicate(v);
   def->parent()->insert_after(def, sel);
   def->parent()->insert_before(sel, mov);

   std::vector<use> uses = v->uses();
   for (const use &u : uses) {
      if (u.in == sel)
         continue;
      value *f = s.create_value(reg_file::flag, data_type::flag, w, 1, v->group);
      instr *c = s.create_instr(opcode::cmp, w);
      c->group = v->group;
      c->cmod = cond_mod::nz;
      c->add_src(operand(g));
      c->add_src(operand::imm_u32(0));
      c->set_flag_def(f);
      u.in->parent()->insert_before(u.in, c);
      if (u.slot == use::predicate)
         u.in->set_predicate(f, u.in->pred_inv);
      else
         throw error(strfmt("register allocation: flag %%%u read other than as a "
                     "predicate", v->id));
   }
}

/* Program-order intervals of the flags, as liveness::start() and end()
 * give them, without a liveness where every flag lives inside one block:
 * written there before anything reads it and by no phi, it is in no live
 * set, and its interval is its writes [ip, ip + 1) and reads [ip, ip]
 * together.  False (nothing set) when some flag is not like that.
 */
bool
local_flag_intervals(shader &s, const std::vector<value *> &flags,
                     std::vector<unsigned> &start, std::vector<unsigned> &end)
{
   s.renumber();
   start.assign(s.value_id_bound(), UINT32_MAX);
   end.assign(s.value_id_bound(), 0);
   for (const value *v : flags) {
      const block *b = nullptr;
      unsigned first_def = UINT32_MAX, first_use = UINT32_MAX;
      unsigned from = UINT32_MAX, to = 0;
      for (const instr *d : v->defs()) {
         if (!d->parent() || d->is_phi() || (b && d->parent() != b))
            return false;
         b = d->parent();
         first_def = std::min(first_def, d->ip);
         from = std::min(from, d->ip);
         to = std::max(to, d->ip + 1);
      }
      for (const use &u : v->uses()) {
         const instr *in = u.in;
         if (!in->parent() || in->is_phi() || (b && in->parent() != b))
            return false;
         b = in->parent();
         first_use = std::min(first_use, in->ip);
         to = std::max(to, in->ip);
      }
      /* A read at or before the first write: live into the block. */
      if (first_def == UINT32_MAX || first_use <= first_def)
         return false;
      start[v->id] = from;
      end[v->id] = to;
   }
   return true;
}

} /* anonymous namespace */

unsigned
ra_assign_flags(shader &s, std::optional<liveness> *keep)
{
   /* cmp and every other conditional modifier write a flag. */
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->cmod != cond_mod::none && in->op != opcode::sel &&
             !in->flag_def()) {
            value *f = s.create_value(reg_file::flag, data_type::flag,
                                      in->exec_size, 1, in->group);
            in->set_flag_def(f);
         }
      }
   }

   unsigned spilled = 0;
   std::optional<liveness> own;
   std::optional<liveness> &lv = keep ? *keep : own;
   /* The flags' intervals without a liveness (local_flag_intervals()). */
   std::vector<unsigned> local_start, local_end;
   for (unsigned round = 0;; round++) {
      if (round > 1000)
         throw error("register allocation: flag spilling does not converge");
      std::vector<value *> flags;
      for (value *v : s.values()) {
         if (v->file == reg_file::flag &&
             (!v->defs().empty() || !v->uses().empty()))
            flags.push_back(v);
      }
      /* A flag's liveness is its own data flow problem: the whole
       * liveness gives the flags-only intervals.  Flags that each live
       * in one block need none: the caller's whole liveness is then
       * made once, after the last round (the dolphin ubershaders spill a
       * flag in every width, and the round before the spill made one for
       * nothing).
       */
      const bool local = local_flag_intervals(s, flags, local_start, local_end);
      lv.reset();
      if (!local)
         lv.emplace(s, keep == nullptr);
#ifndef NDEBUG
      if (local) {
         const liveness check(s, true);
         for (const value *v : flags)
            assert(check.start(v) == local_start[v->id] &&
                   check.end(v) == local_end[v->id]);
      }
#endif
      auto start = [&](const value *v) {
         return local ? local_start[v->id] : lv->start(v);
      };
      auto end = [&](const value *v) {
         return local ? local_end[v->id] : lv->end(v);
      };
      std::sort(flags.begin(), flags.end(), [&](value *a, value *b) {
         return start(a) < start(b) || (start(a) == start(b) && a->id < b->id);
      });
      std::vector<value *> active;
      value *victim = nullptr;
      for (value *v : flags) {
         unsigned st = start(v);
         active.erase(std::remove_if(active.begin(), active.end(),
                                     [&](value *a) { return end(a) <= st; }),
                      active.end());
         bool used[4] = {};
         for (value *a : active) {
            unsigned f, l;
            halves(a, a->phys.nr * 2 + a->phys.subreg, &f, &l);
            for (unsigned k = f; k <= l && k < 4; k++)
               used[k] = true;
         }
         int pick = -1;
         /* A predicated flag write keeps the predicate's bits in the
          * other channels (lower_flag_chains): same register.
          */
         const instr *def = v->def();
         const value *tie = def ? def->predicate() : nullptr;
         if (tie && tie->phys.kind == phys_reg::flag) {
            unsigned h = tie->phys.nr * 2 + tie->phys.subreg;
            unsigned f, l;
            halves(v, h, &f, &l);
            for (value *a : active) {
               unsigned af, al;
               halves(a, a->phys.nr * 2 + a->phys.subreg, &af, &al);
               if (af <= l && f <= al) {
                  victim = a;
                  break;
               }
            }
            if (victim)
               break;
            pick = int(h);
         }
         for (unsigned h = 0; h < 4 && pick < 0; h++) {
            unsigned f, l;
            halves(v, h, &f, &l);
            /* A span of two halves, or one past the first, names f0.0/f1.0. */
            if ((l > f || v->group >= 16) && h % 2)
               continue;
            if (l > 3 || (l > f && f % 2))
               continue;
            bool free = true;
            for (unsigned k = f; k <= l; k++)
               free &= !used[k];
            if (free)
               pick = int(h);
         }
         if (pick < 0) {
            /* The flag that stays longest makes room. */
            victim = v;
            for (value *a : active) {
               if (end(a) > end(victim))
                  victim = a;
            }
            break;
         }
         v->phys.kind = phys_reg::flag;
         v->phys.nr = pick / 2;
         v->phys.subreg = pick % 2;
         active.push_back(v);
      }
      if (!victim) {
         if (keep && local)
            keep->emplace(s);
         return spilled;
      }
      for (value *v : flags)
         v->phys = phys_reg();
      spill_flag(s, victim);
      spilled++;
   }
}

} /* namespace ibis */
