/*
 * Entry points, the IBIS_DEBUG=sched report and the pass registry
 * entries of both schedulers.
 */
#include "sched/sched.h"

#include <chrono>
#include <cstdio>

#include "ir/ibis_analysis.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_perf.h"
#include "sched/sched_private.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

const char *
sched_mode_name(sched_mode m)
{
   switch (m) {
   case sched_mode::latency:
      return "latency";
   case sched_mode::pressure:
      return "pressure";
   case sched_mode::narrow:
      return "narrow";
   case sched_mode::none:
      return "none";
   }
   return "?";
}

unsigned
max_live(shader &s)
{
   liveness lv(s);
   return compute_pressure(lv).max;
}

void
schedule_pre_ra(shader &s, const device_info &dev, sched_mode mode)
{
   if (s.allocated)
      throw error("pre-RA scheduling needs unallocated IR");
   if (!debug_enabled(DEBUG_SCHED)) {
      schedule_pre_ra_blocks(s, dev, mode);
      return;
   }
   const unsigned live0 = max_live(s);
   const unsigned cycles0 = estimate_cycles(s, dev);
   const auto t0 = std::chrono::steady_clock::now();
   schedule_pre_ra_blocks(s, dev, mode);
   const auto t1 = std::chrono::steady_clock::now();
   std::fprintf(stderr,
                "sched: pre-RA %s simd%u mode %s: MaxLive %u -> %u, "
                "cycles %u -> %u (%.2f ms)\n",
                stage_name(s.stage), s.dispatch_width, sched_mode_name(mode),
                live0, max_live(s), cycles0, estimate_cycles(s, dev),
                std::chrono::duration<double, std::milli>(t1 - t0).count());
}

unsigned
schedule_post_ra(shader &s, const device_info &dev)
{
   if (!s.allocated)
      throw error("post-RA scheduling needs allocated IR");
   const bool debug = debug_enabled(DEBUG_SCHED);
   const perf_estimate before = estimate_performance(s, dev);
   /* The order of each block the list scheduler changed (empty for the
    * others: putting those back would change nothing).
    */
   std::vector<std::vector<instr *>> original(s.blocks().size());
   /* Kept by the thread from program to program with their room: the
    * graph's per-register lists grew anew for every program.  Each
    * graph leaves the scratch as it found it.
    */
   static thread_local sched_dag_scratch dag_scratch;
   static thread_local sched_dag dag;
   bool changed = false;
   for (const auto &b : s.blocks()) {
      if (!sched_region_reorderable(b.get()))
         continue;
      build_sched_dag(b.get(), true, dev, dag_scratch, dag);
      if (dag.nodes.size() < 2)
         continue;
      const std::vector<unsigned> order = schedule_latency(dag);
      bool moved = false;
      for (unsigned i = 0; i < order.size() && !moved; i++)
         moved = order[i] != i;
      if (!moved)
         continue;
      changed = true;
      original[b->index].assign(b->instrs().begin(), b->instrs().end());
      apply_schedule(dag, order);
   }
   /* The list scheduler sees latencies but not the units' occupancy the
    * model also charges: a block it made slower goes back to its order.
    * A program left in its order estimates as before.
    */
   const perf_estimate after = changed ? estimate_performance(s, dev) : before;
   unsigned reverted = 0;
   for (const auto &b : s.blocks()) {
      if (!original[b->index].empty() &&
          after.block_cycles[b->index] > before.block_cycles[b->index]) {
         b->reorder(original[b->index]);
         reverted++;
      }
   }
   /* Blocks back in their order change the estimate of what follows. */
   const unsigned cycles = reverted ? estimate_cycles(s, dev) : after.cycles;
   if (debug)
      std::fprintf(stderr, "sched: post-RA %s simd%u: cycles %u -> %u "
                   "(%u of %zu blocks put back in their order)\n",
                   stage_name(s.stage), s.dispatch_width, before.cycles,
                   cycles, reverted, s.blocks().size());
   return cycles;
}

/* ibis-opt's print-peak: the values live at the first instruction of
 * highest pressure, each with its GRFs and where it is defined and last
 * read, so that one sees what holds the registers there.
 */
static bool
print_peak(shader &s)
{
   s.renumber();
   liveness lv(s);
   const register_pressure p = compute_pressure(lv);
   const instr *peak = nullptr;
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         if (!peak && p.at[in->ip] == p.max)
            peak = in;
      }
   }
   if (!peak)
      return false;
   value_set here = lv.live_after(peak);
   for (const operand &o : peak->srcs()) {
      if (o.val && liveness::tracked(o.val))
         here.add(o.val);
   }
   for (const operand &d : peak->dsts()) {
      if (d.val && liveness::tracked(d.val))
         here.add(d.val);
   }
   std::fprintf(stderr, "peak %u GRFs at block%u ip %u: %s\n", p.max,
                peak->parent()->index, peak->ip, peak->str().c_str());
   for (const value *v : here.values(s)) {
      if (!uses_grfs(v))
         continue;
      const instr *def = lv.first_def(v);
      std::fprintf(stderr, "  %%%-6u %2u%s  [%u, %u)  %s%s\n", v->id,
                   v->width == 1 ? uniform_bytes(v) : value_grfs(v),
                   v->width == 1 ? "B" : " ", lv.start(v), lv.end(v),
                   def ? strfmt("block%u: ", def->parent()->index).c_str() : "",
                   def ? def->str().c_str() : "(program start)");
   }
   return false;
}

void
register_sched_passes()
{
   /* A function-local static runs its initializer once, also when
    * several threads get here first together.
    */
   static const bool once = [] {
      register_pass("sched-pre-latency",
                    "pre-RA scheduling, critical path first under the pressure "
                    "budget (skl)", [](shader &s) {
                       schedule_pre_ra(s, device_by_name("skl"), sched_mode::latency);
                       return true;
                    });
      register_pass("sched-pre-pressure",
                    "pre-RA scheduling, lowest register pressure first (skl)",
                    [](shader &s) {
                       schedule_pre_ra(s, device_by_name("skl"), sched_mode::pressure);
                       return true;
                    });
      register_pass("sched-pre-narrow",
                    "pre-RA scheduling for pressure, loaded constant blocks "
                    "copied by the dwords read (skl)",
                    [](shader &s) {
                       schedule_pre_ra(s, device_by_name("skl"), sched_mode::narrow);
                       return true;
                    });
      register_pass("print-peak", "print the values live at the highest "
                    "pressure to stderr", print_peak);
      register_pass("sched-post", "post-RA latency scheduling (skl)",
                    [](shader &s) {
                       schedule_post_ra(s, device_by_name("skl"));
                       return true;
                    });
      return true;
   }();
   (void)once;
}

} /* namespace ibis */
