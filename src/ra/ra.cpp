/*
 * The register allocator's driver (docs/ra.md): ties preserve writes,
 * leaves SSA through phi classes, assigns flags, then builds the hybrid
 * interference graph and colors it, spilling and retrying until it fits;
 * last, copies are sequentialized on the physical registers.
 */
#include "ra/ra.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "ra/ra_internal.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

/* A preserve write keeps the rest of its preserve value in place, so the
 * destination must be that value's register.  Where the preserve value is
 * still needed afterwards (or is fixed, or is read by another operand of
 * the instruction, or already tied elsewhere), a copy becomes the tied
 * value instead.
 */
static void
tie_preserve_writes(shader &s)
{
   liveness live(s);
   std::vector<instr *> todo;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->preserve().val && in->num_dsts())
            todo.push_back(in);
      }
   }
   value_set tied(s.value_id_bound());
   for (instr *in : todo) {
      value *p = in->preserve().val;
      bool other = false;
      for (const operand &o : in->srcs())
         other |= o.val == p;
      if (p->file == reg_file::ssa && !tied.has(p) && !other &&
          !live.is_live_after(p, in)) {
         tied.add(p);
         continue;
      }
      value *t = s.create_value(reg_file::ssa, p->type, p->width, p->length,
                                p->group);
      instr *cp = ra_make_copy(s, operand(t), operand(p));
      if (p->is_simd_global())
         cp->flags |= INSTR_WE_ALL;
      in->parent()->insert_before(in, cp);
      operand o = in->preserve();
      o.val = t;
      in->set_preserve(o);
   }
}

/* The pressure peak of compute_pressure() plus the registers of HW_REG
 * values (the thread payload), which it leaves out but which are live from
 * the program start to their last read here.
 */
static unsigned
max_live_with_fixed(shader &s)
{
   liveness live(s);
   register_pressure p = compute_pressure(live);
   std::vector<unsigned> last_grf_use(128, 0);
   bool any = false;
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         auto touch = [&](const value *v) {
            if (!v || v->file != reg_file::hw_reg || v->phys.kind != phys_reg::grf)
               return;
            unsigned first = v->phys.nr;
            unsigned last = (v->phys.nr * 32 + v->phys.subreg +
                             std::max(1u, v->size_bytes()) - 1) / 32;
            for (unsigned r = first; r <= last && r < 128; r++)
               last_grf_use[r] = std::max(last_grf_use[r], in->ip + 1);
            any = true;
         };
         for (const operand &d : in->dsts())
            touch(d.val);
         for (const operand &o : in->srcs())
            touch(o.val);
      }
   }
   if (!any)
      return p.max;
   unsigned peak = 0;
   for (unsigned ip = 0; ip < p.at.size(); ip++) {
      unsigned fixed = 0;
      for (unsigned r = 0; r < 128; r++)
         fixed += last_grf_use[r] > ip;
      peak = std::max(peak, p.at[ip] + fixed);
   }
   return peak;
}

static unsigned
grfs_used(const shader &s)
{
   unsigned used = 0;
   for (const value *v : s.values()) {
      if (v->phys.kind != phys_reg::grf ||
          (v->defs().empty() && v->uses().empty()))
         continue;
      unsigned bytes = v->file == reg_file::hw_reg ? v->size_bytes()
                                                   : ra_value_bytes(v);
      used = std::max(used, v->phys.nr + (v->phys.subreg + bytes + 31) / 32);
   }
   return used;
}

/* The value to spill for a class that found no registers: among the
 * failed values and their neighbors, the cheapest per byte.
 */
static std::vector<value *>
choose_spills(const ra_graph &g, const std::vector<value *> &failed,
              const value_set &unspillable)
{
   auto spillable = [&](const value *v) {
      return (v->file == reg_file::ssa || v->file == reg_file::wlr) &&
             !unspillable.has(v) && !v->defs().empty() &&
             v->defs()[0]->op != opcode::undef;
   };
   std::vector<value *> out;
   const value *best = nullptr;
   float best_w = 0;
   auto consider = [&](unsigned i) {
      const value *v = g.nodes[i];
      if (!spillable(v))
         return;
      float w = g.cost[i] / float(ra_value_bytes(v)) /
                float(1 + g.end[i] - g.start[i]);
      if (!best || w < best_w) {
         best = v;
         best_w = w;
      }
   };
   for (value *v : failed) {
      int i = g.node_of[v->id];
      if (i < 0)
         continue;
      consider(i);
      for (unsigned nb : g.adj[i])
         consider(nb);
   }
   if (best)
      out.push_back(const_cast<value *>(best));
   return out;
}

/* Values that are never spilled: phi class members, the values from id
 * first_new on (fills and the lowering's temporaries), and preserve
 * sources.  A preserve source stays in its register up to its tied
 * write: a fill before the write would sit where a thread whose channels
 * all halted never runs (the halt target's live mask, lower_demote.cpp),
 * leaving garbage where the killed channels' zeros belong.
 */
static value_set
unspillable_values(shader &s, const std::vector<std::vector<value *>> &classes,
                   unsigned first_new)
{
   value_set u(s.value_id_bound());
   for (const auto &c : classes)
      for (value *v : c)
         u.add(v);
   for (const auto &b : s.blocks())
      for (const instr *in : b->instrs())
         if (in->preserve().val)
            u.add(in->preserve().val);
   for (value *v : s.values()) {
      if (v->id >= first_new)
         u.add(v);
   }
   return u;
}

ra_result
allocate_registers(shader &s, const device_info &dev, const ra_options &opts)
{
   ra_result res;
   try {
      res.max_live = max_live_with_fixed(s);
      /* Far more live than registers at one point: no coloring can work,
       * so a width that may not spill gives up before trying the six
       * colorings (most of the compile time of the largest ubershaders).
       * MaxLive counts both sides of copies that coalesce, of ALU writes
       * in place and of SIMD32 values split into halves, so programs well
       * over the file may still fit (nexuiz/16.fs allocates SIMD32 at
       * MaxLive 140); a margin of 16 keeps every corpus width.
       */
      res.gave_up_early = !opts.allow_spilling &&
                          res.max_live > RA_GRF_BYTES / 32 + 16;
      if (res.gave_up_early)
         throw error(strfmt("register allocation: SIMD%u needs spilling "
                            "(MaxLive %u GRFs)", s.dispatch_width, res.max_live));
      ra_split_vectors(s, opts.split_halves, opts.split_phi_halves);
      tie_preserve_writes(s);
      std::vector<std::vector<value *>> classes = ra_insert_phi_copies(s);
      res.flag_spills = ra_assign_flags(s);

      value_set unspillable = unspillable_values(s, classes, s.value_id_bound());
      for (unsigned round = 0;; round++) {
         ra_graph g = ra_build_interference(s);
         res.edges = g.edges;
         res.interval_edges = g.interval_edges;
         /* Lowest-first with coalescing packs tightest; when that fails,
          * the other select orders with coalescing (a coloring without
          * it keeps every copy), then without, get a try before anything
          * is spilled.
          */
         ra_color_result r = ra_color_strategies(s, g, classes, true);
         if (!r.success) {
            ra_color_result r2 = ra_color_strategies(s, g, classes, false,
                                                      false);
            if (r2.success)
               r = r2;
         }
         if (r.success)
            break;
         if (debug_enabled(DEBUG_RA)) {
            for (const value *v : r.spill)
               fprintf(stderr, "ra: no registers for %%%u:%s (round %u)\n",
                       v->id, value_spec(v).c_str(), round);
         }
         if (!opts.allow_spilling)
            throw error(strfmt("register allocation: SIMD%u needs spilling "
                               "(%u values do not fit; MaxLive %u GRFs)",
                               s.dispatch_width, unsigned(r.spill.size()),
                               res.max_live));
         std::vector<value *> victims = choose_spills(g, r.spill, unspillable);
         if (victims.empty() || round > 400)
            throw error("register allocation: out of registers and nothing "
                        "left to spill");
         unsigned before = s.value_id_bound();
         ra_spill_values(s, dev, victims, res);
         unspillable = unspillable_values(s, classes, before);
      }
      ra_lower_copies(s);
      s.allocated = true;
      res.grfs_used = grfs_used(s);
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            res.spills += (in->flags & INSTR_SPILL) != 0;
            res.fills += (in->flags & INSTR_FILL) != 0;
         }
      }
      res.success = true;
#ifdef NDEBUG
      if (debug_enabled(DEBUG_VALIDATE))
#endif
         validate_allocation(s);
   } catch (const error &e) {
      res.success = false;
      res.failure = e.what();
   }
   if (debug_enabled(DEBUG_RA))
      fprintf(stderr, "ra: SIMD%u %s%s%s: %u GRFs, MaxLive %u, %u spills, "
              "%u fills\n", s.dispatch_width, res.success ? "ok" : "failed",
              res.success ? "" : ": ", res.failure.c_str(), res.grfs_used,
              res.max_live, res.spills, res.fills);
   return res;
}

/* Registers "ra" (Skylake) for ibis-opt and the pass tests. */
void
register_ra_passes()
{
   static bool done = false;
   if (done)
      return;
   done = true;
   register_pass("ra", "allocate registers for Skylake (throws on failure)",
                 [](shader &s) {
      ra_result r = allocate_registers(s, device_by_name("skl"));
      if (!r.success)
         throw error(r.failure);
      return true;
   });
   register_pass("ra-nospill", "allocate registers for Skylake without "
                 "spilling (throws on failure)", [](shader &s) {
      ra_options o;
      o.allow_spilling = false;
      ra_result r = allocate_registers(s, device_by_name("skl"), o);
      if (!r.success)
         throw error(r.failure);
      return true;
   });
   register_pass("validate-ra", "check an allocation (ra_validate.cpp)",
                 [](shader &s) {
      validate_allocation(s);
      return false;
   });
}

} /* namespace ibis */
