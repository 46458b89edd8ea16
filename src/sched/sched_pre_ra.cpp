/*
 * Pre-RA scheduling with exact register pressure.
 *
 * Pressure is that of compute_pressure() (ir/ibis_analysis.h): at an
 * instruction, the GRFs of every value it reads, writes or keeps live;
 * values wider than one channel take whole GRFs, width-1 values share
 * GRFs by their bytes.  Each block is scheduled with the block's live-in
 * and live-out sets fixed, so tracking it inside one block is exact.
 *
 *  - latency: top-down list scheduling on the ir/ibis_perf.h latencies,
 *    critical path first; whenever the next choice would take pressure
 *    over the budget, the ready instruction that adds the least pressure
 *    goes instead.
 *  - pressure: bottom-up list scheduling that always places the ready
 *    instruction that lowers pressure most (ends the most live ranges,
 *    starts the fewest).  Bottom-up, a definition is placed as soon as its
 *    last reader is, so interpolation, constant loads and other cheap
 *    definitions land right before their first use, and whole expression
 *    trees are evaluated one at a time.
 *  - none: the original order.
 */
#include "sched/sched.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "ir/ibis_analysis.h"
#include "sched/sched_dag.h"
#include "sched/sched_private.h"
#include "util/ibis_error.h"

namespace ibis {

namespace {

/* Registers of a set of values, with width-1 values packed. */
struct pressure_count {
   unsigned grfs = 0;
   unsigned uniform = 0;    /* bytes of width-1 values */

   void add(const value *v, int sign)
   {
      if (v->width == 1)
         uniform += sign * int(uniform_bytes(v));
      else
         grfs += sign * int(value_grfs(v));
   }
   unsigned total() const { return grfs + (uniform + 31) / 32; }
};

/* Per-block view of the values the region touches. */
struct region_values {
   std::vector<value *> reads;   /* per node: GRF values read (distinct) */
   std::vector<value *> writes;
   std::vector<unsigned> read_begin, write_begin;   /* CSR offsets */
};

void
collect(const sched_dag &dag, region_values &rv)
{
   rv.read_begin.push_back(0);
   rv.write_begin.push_back(0);
   for (const sched_node &n : dag.nodes) {
      const instr *in = n.in;
      const unsigned r0 = rv.reads.size(), w0 = rv.writes.size();
      auto add_read = [&](value *v) {
         if (!v || !uses_grfs(v))
            return;
         for (unsigned i = r0; i < rv.reads.size(); i++)
            if (rv.reads[i] == v)
               return;
         rv.reads.push_back(v);
      };
      for (const operand &o : in->srcs())
         add_read(o.val);
      add_read(in->preserve().val);
      for (const operand &d : in->dsts()) {
         value *v = d.val;
         if (!v || !uses_grfs(v))
            continue;
         bool dup = false;
         for (unsigned i = w0; i < rv.writes.size(); i++)
            dup |= rv.writes[i] == v;
         if (!dup)
            rv.writes.push_back(v);
      }
      rv.read_begin.push_back(rv.reads.size());
      rv.write_begin.push_back(rv.writes.size());
   }
}

/* Per-value arrays by value id, allocated once per shader and shared by
 * its blocks: each tracker clears the entries it touched, so a block
 * costs its own values, not the shader's (zeroing arrays of every value
 * per block was a few percent of the largest compiles).
 */
struct tracker_scratch {
   std::vector<uint8_t> live, live_end, written;
   std::vector<unsigned> readers, writers;
   /* What each value adds to pressure_count, as add() counts it: each
    * block's live-out values mostly only add to the pressure.
    */
   pressure_weights weights;
   /* The tracker's lists, kept between blocks with their room (growing
    * them anew for every block was almost half of the tracker's time on
    * 228.fs).
    */
   region_values rv;
   std::vector<value *> live_end_values;

   explicit tracker_scratch(const shader &s)
      : live(s.value_id_bound(), 0), live_end(s.value_id_bound(), 0),
        written(s.value_id_bound(), 0), readers(s.value_id_bound(), 0),
        writers(s.value_id_bound(), 0), weights(s)
   {
   }
};

/* The shared bookkeeping of both directions. */
struct tracker {
   const sched_dag &dag;
   region_values &rv;
   tracker_scratch &sc;
   std::vector<uint8_t> &live;        /* by value id */
   pressure_count cur;
   unsigned max_seen = 0;
   /* Values live after the region (live-out or read by the jump). */
   std::vector<uint8_t> &live_end;
   std::vector<value *> &live_end_values;
   /* Unplaced readers / writers of each value within the region. */
   std::vector<unsigned> &readers, &writers;

   tracker(const sched_dag &dag, const liveness &lv, tracker_scratch &sc)
      : dag(dag), rv(sc.rv), sc(sc), live(sc.live), live_end(sc.live_end),
        live_end_values(sc.live_end_values), readers(sc.readers),
        writers(sc.writers)
   {
      rv.reads.clear();
      rv.writes.clear();
      rv.read_begin.clear();
      rv.write_begin.clear();
      live_end_values.clear();
      collect(dag, rv);
      for (unsigned n = 0; n < dag.nodes.size(); n++) {
         for (unsigned i = rv.read_begin[n]; i < rv.read_begin[n + 1]; i++)
            readers[rv.reads[i]->id]++;
         for (unsigned i = rv.write_begin[n]; i < rv.write_begin[n + 1]; i++)
            writers[rv.writes[i]->id]++;
      }
      /* A value live after the region that the region neither reads nor
       * writes is live all through it: it only adds to the pressure, and
       * needs no entry (most of a large shader's live values pass through
       * most of its blocks).
       */
      const shader &s = *dag.blk->parent();
      const value_set &out = lv.live_out(dag.blk);
      auto mark_end = [&](value *v) {
         if (!readers[v->id] && !writers[v->id]) {
            cur.add(v, 1);
         } else if (!live_end[v->id]) {
            live_end[v->id] = 1;
            live_end_values.push_back(v);
         }
      };
      out.for_each_id([&](unsigned id) {
         if (id < sc.weights.grfs.size() && !readers[id] && !writers[id]) {
            /* Live all through the block (or no GRFs: adds nothing). */
            cur.grfs += sc.weights.grfs[id];
            cur.uniform += sc.weights.uniform[id];
            return;
         }
         value *v = s.find_value(id);
         if (v && uses_grfs(v))
            mark_end(v);
      });
      std::vector<const value *> tail_through;
      for (const instr *t : dag.tail) {
         for (const operand &o : t->srcs()) {
            value *v = o.val;
            if (!v || !uses_grfs(v))
               continue;
            /* Each passing value once, and those live out were counted. */
            if (!readers[v->id] && !writers[v->id]) {
               if (out.has(v) || std::find(tail_through.begin(), tail_through.end(),
                                           v) != tail_through.end())
                  continue;
               tail_through.push_back(v);
            }
            mark_end(v);
         }
      }
   }

   /* Every entry this block set is one of its values. */
   ~tracker()
   {
      auto clear = [&](const value *v) {
         live[v->id] = live_end[v->id] = sc.written[v->id] = 0;
         readers[v->id] = writers[v->id] = 0;
      };
      for (const value *v : rv.reads)
         clear(v);
      for (const value *v : rv.writes)
         clear(v);
      for (const value *v : live_end_values)
         clear(v);
   }

   void set_live(value *v, bool on)
   {
      if (live[v->id] == on)
         return;
      live[v->id] = on;
      cur.add(v, on ? 1 : -1);
   }
};

/* Cost in bytes of making v live (for comparisons). */
int
bytes_of(const value *v)
{
   return v->width == 1 ? int(uniform_bytes(v)) : int(value_grfs(v)) * 32;
}

/* Bottom-up, pressure first. */
std::vector<unsigned>
schedule_pressure(const sched_dag &dag, const liveness &lv, tracker_scratch &sc)
{
   tracker t(dag, lv, sc);
   const unsigned num = dag.nodes.size();
   /* Start from what is live after the region. */
   for (value *v : t.live_end_values)
      t.set_live(v, true);

   std::vector<unsigned> succs_left(num);
   std::vector<unsigned> ready;
   for (unsigned n = 0; n < num; n++) {
      succs_left[n] = dag.succs(n).size();
      if (!succs_left[n])
         ready.push_back(n);
   }

   /* Nodes to place after each halt (sched_node::follows) still
    * unplaced: bottom-up, the halt waits for them.  They are ready by
    * then: all they precede comes after the halt.
    */
   std::vector<unsigned> to_follow(num, 0);
   for (unsigned n = 0; n < num; n++) {
      if (dag.nodes[n].follows >= 0)
         to_follow[dag.nodes[n].follows]++;
   }
   auto waits = [&](unsigned n) { return to_follow[n] != 0; };
   bool any_waits = false;
   for (unsigned n = 0; n < num && !any_waits; n++)
      any_waits = to_follow[n] != 0;

   std::vector<unsigned> order;
   order.reserve(num);
   while (!ready.empty()) {
      bool all_wait = any_waits;
      for (unsigned i = 0; i < ready.size() && all_wait; i++)
         all_wait = waits(ready[i]);
      int best_i = -1;
      int best_score = 0;
      for (unsigned i = 0; i < ready.size(); i++) {
         const unsigned n = ready[i];
         if (any_waits && !all_wait && waits(n))
            continue;
         int score = 0;
         for (unsigned k = t.rv.write_begin[n]; k < t.rv.write_begin[n + 1]; k++) {
            value *v = t.rv.writes[k];
            /* Placing the last unplaced write starts the live range here. */
            if (t.live[v->id] && t.writers[v->id] == 1)
               score += bytes_of(v);
         }
         /* A source not yet live becomes live here; its cost is shared
          * by the readers still to place, which will find it live (one
          * barycentric pair read by many pln's is worth sinking them all).
          */
         for (unsigned k = t.rv.read_begin[n]; k < t.rv.read_begin[n + 1]; k++) {
            value *v = t.rv.reads[k];
            if (!t.live[v->id])
               score -= bytes_of(v) / int(std::max(1u, t.readers[v->id]));
         }
         /* Ties: the latest instruction of the original order, which
          * keeps the original order where nothing is gained.
          */
         if (best_i < 0 || score > best_score ||
             (score == best_score && n > ready[best_i])) {
            best_i = int(i);
            best_score = score;
         }
      }
      const unsigned n = ready[best_i];
      ready[best_i] = ready.back();
      ready.pop_back();
      order.push_back(n);
      if (dag.nodes[n].follows >= 0)
         to_follow[dag.nodes[n].follows]--;

      for (unsigned k = t.rv.write_begin[n]; k < t.rv.write_begin[n + 1]; k++)
         t.writers[t.rv.writes[k]->id]--;
      for (unsigned k = t.rv.read_begin[n]; k < t.rv.read_begin[n + 1]; k++)
         t.readers[t.rv.reads[k]->id]--;
      for (unsigned k = t.rv.read_begin[n]; k < t.rv.read_begin[n + 1]; k++)
         t.set_live(t.rv.reads[k], true);
      for (unsigned k = t.rv.write_begin[n]; k < t.rv.write_begin[n + 1]; k++) {
         value *v = t.rv.writes[k];
         /* Still read by itself (a WLR read-modify-write) stays live. */
         bool self_read = false;
         for (unsigned r = t.rv.read_begin[n]; r < t.rv.read_begin[n + 1]; r++)
            self_read |= t.rv.reads[r] == v;
         if (!t.writers[v->id] && !self_read)
            t.set_live(v, false);
      }

      for (const sched_edge &e : dag.preds(n)) {
         if (--succs_left[e.node] == 0)
            ready.push_back(e.node);
      }
   }
   IBIS_CHECK(order.size() == num, "pre-RA scheduling: dependency cycle");
   std::reverse(order.begin(), order.end());
   return order;
}

} /* anonymous namespace */

/* Top-down list scheduling on latencies; with a tracker's scratch (pre-RA)
 * and a pressure budget (0: none) it turns to the least pressure-adding
 * choice when the budget would be exceeded.
 */
static std::vector<unsigned>
schedule_latency_in(const sched_dag &dag, const liveness *lv,
                    tracker_scratch *sc, unsigned budget)
{
   const unsigned num = dag.nodes.size();
   std::unique_ptr<tracker> t;
   if (lv) {
      t.reset(new tracker(dag, *lv, *sc));
      /* Live at the start: read in the region or live after it, and not
       * written in it before.
       */
      std::vector<uint8_t> &written = sc->written;
      for (unsigned n = 0; n < num; n++) {
         for (unsigned k = t->rv.read_begin[n]; k < t->rv.read_begin[n + 1]; k++) {
            value *v = t->rv.reads[k];
            if (!written[v->id])
               t->set_live(v, true);
         }
         for (unsigned k = t->rv.write_begin[n]; k < t->rv.write_begin[n + 1]; k++)
            written[t->rv.writes[k]->id] = 1;
      }
      for (value *v : t->live_end_values) {
         if (!written[v->id])
            t->set_live(v, true);
      }
   }

   std::vector<unsigned> preds_left(num), earliest(num, 0);
   std::vector<unsigned> ready;
   for (unsigned n = 0; n < num; n++) {
      preds_left[n] = dag.preds(n).size();
      if (!preds_left[n])
         ready.push_back(n);
   }

   /* Pressure added by placing n next (bytes). */
   auto added = [&](unsigned n) {
      int d = 0;
      for (unsigned k = t->rv.write_begin[n]; k < t->rv.write_begin[n + 1]; k++) {
         value *v = t->rv.writes[k];
         if (!t->live[v->id])
            d += bytes_of(v);
      }
      for (unsigned k = t->rv.read_begin[n]; k < t->rv.read_begin[n + 1]; k++) {
         value *v = t->rv.reads[k];
         if (t->readers[v->id] == 1 && !t->live_end[v->id] &&
             !(t->writers[v->id] && v->file == reg_file::wlr))
            d -= bytes_of(v);
      }
      return d;
   };

   /* A node that goes after a halt (sched_node::follows) waits for it,
    * as long as anything else is ready: the halt and what it needs come
    * first, even when the halt then waits for its flag, because a thread
    * whose channels all halt would run the node for nothing, and the
    * node then fills the waits after the halt (brw prefers the path to
    * an early exit likewise).
    */
   std::vector<uint8_t> placed(num, 0);
   bool any_follows = false;
   for (unsigned n = 0; n < num && !any_follows; n++)
      any_follows = dag.nodes[n].follows >= 0;
   auto deferred = [&](unsigned n) {
      return dag.nodes[n].follows >= 0 && !placed[dag.nodes[n].follows];
   };

   std::vector<unsigned> order;
   order.reserve(num);
   unsigned cycle = 0;
   while (!ready.empty()) {
      bool all_deferred = any_follows;
      for (unsigned i = 0; i < ready.size() && all_deferred; i++)
         all_deferred = deferred(ready[i]);
      const bool defer = any_follows && !all_deferred;
      /* Critical path first among the instructions that can issue now;
       * if none can, the one that can issue soonest; the lower node among
       * equals.  One pass keeps the best of each kind.
       */
      int now_i = -1, wait_i = -1;
      for (unsigned i = 0; i < ready.size(); i++) {
         const unsigned n = ready[i];
         if (defer && deferred(n))
            continue;
         if (earliest[n] <= cycle) {
            if (now_i >= 0) {
               const unsigned b = ready[now_i];
               const unsigned pn = dag.nodes[n].path, pb = dag.nodes[b].path;
               if (pn < pb || (pn == pb && n > b))
                  continue;
            }
            now_i = int(i);
         } else if (now_i < 0) {
            if (wait_i >= 0) {
               const unsigned b = ready[wait_i];
               if (earliest[n] > earliest[b] || (earliest[n] == earliest[b] && n > b))
                  continue;
            }
            wait_i = int(i);
         }
      }
      unsigned best_i = unsigned(now_i >= 0 ? now_i : wait_i);
      if (t && budget) {
         const unsigned n = ready[best_i];
         const int d = added(n);
         if (d > 0 && t->cur.total() + (d + 31) / 32 > budget) {
            int best_d = d;
            for (unsigned i = 0; i < ready.size(); i++) {
               if (defer && deferred(ready[i]))
                  continue;
               const int di = added(ready[i]);
               if (di < best_d ||
                   (di == best_d && dag.nodes[ready[i]].path >
                                    dag.nodes[ready[best_i]].path)) {
                  best_d = di;
                  best_i = i;
               }
            }
         }
      }

      const unsigned n = ready[best_i];
      ready[best_i] = ready.back();
      ready.pop_back();
      order.push_back(n);
      placed[n] = 1;
      const sched_node &node = dag.nodes[n];
      const unsigned start = std::max(cycle, earliest[n]);
      cycle = start + std::max(1u, node.issue);

      if (t) {
         for (unsigned k = t->rv.write_begin[n]; k < t->rv.write_begin[n + 1]; k++)
            t->set_live(t->rv.writes[k], true);
         t->max_seen = std::max(t->max_seen, t->cur.total());
         for (unsigned k = t->rv.write_begin[n]; k < t->rv.write_begin[n + 1]; k++)
            t->writers[t->rv.writes[k]->id]--;
         for (unsigned k = t->rv.read_begin[n]; k < t->rv.read_begin[n + 1]; k++) {
            value *v = t->rv.reads[k];
            if (--t->readers[v->id] == 0 && !t->live_end[v->id] &&
                !t->writers[v->id])
               t->set_live(v, false);
         }
         /* Dead definitions end here too. */
         for (unsigned k = t->rv.write_begin[n]; k < t->rv.write_begin[n + 1]; k++) {
            value *v = t->rv.writes[k];
            if (!t->readers[v->id] && !t->live_end[v->id] && !t->writers[v->id])
               t->set_live(v, false);
         }
      }

      for (const sched_edge &e : dag.succs(n)) {
         earliest[e.node] = std::max(earliest[e.node], start + e.latency);
         if (--preds_left[e.node] == 0)
            ready.push_back(e.node);
      }
   }
   IBIS_CHECK(order.size() == num, "scheduling: dependency cycle");
   return order;
}

/* The post-RA scheduler's: no liveness, no pressure. */
std::vector<unsigned>
schedule_latency(const sched_dag &dag)
{
   return schedule_latency_in(dag, nullptr, nullptr, 0);
}

unsigned
sched_pressure_budget(const shader &s, const device_info &dev)
{
   (void)dev;
   /* Pressure counts allocatable values only; the fixed registers of
    * HW_REG values (the thread payload) are not available to them.
    */
   std::vector<uint8_t> fixed(device_info::grf_count, 0);
   for (const value *v : s.values()) {
      if (v->file != reg_file::hw_reg || v->phys.kind != phys_reg::grf)
         continue;
      const unsigned first = v->phys.nr;
      const unsigned last = v->phys.nr + (v->phys.subreg + v->size_bytes() +
                                          device_info::grf_bytes - 1) /
                                            device_info::grf_bytes;
      for (unsigned r = first; r < last && r < device_info::grf_count; r++)
         fixed[r] = 1;
   }
   unsigned n = 0;
   for (uint8_t f : fixed)
      n += f;
   return device_info::grf_count - n;
}

namespace {

void
schedule_blocks(shader &s, const device_info &dev, sched_mode mode)
{
   /* Each block is scheduled between its live-in and live-out sets. */
   liveness lv(s, false, live_detail::sets);
   tracker_scratch sc(s);
   const unsigned budget = sched_pressure_budget(s, dev);
   /* Kept by the thread from program to program with their room: the
    * graph's per-register lists grew anew for every program.  Each
    * graph leaves the scratch as it found it.
    */
   static thread_local sched_dag_scratch dag_scratch;
   static thread_local sched_dag dag;
   for (const auto &b : s.blocks()) {
      if (!sched_region_reorderable(b.get()))
         continue;
      build_sched_dag(b.get(), false, dev, dag_scratch, dag);
      if (dag.nodes.size() < 2)
         continue;
      std::vector<unsigned> order =
         mode != sched_mode::latency ? schedule_pressure(dag, lv, sc)
                                      : schedule_latency_in(dag, &lv, &sc, budget);
      apply_schedule(dag, order);
   }
}

} /* anonymous namespace */

void
schedule_pre_ra_blocks(shader &s, const device_info &dev, sched_mode mode)
{
   if (mode == sched_mode::none)
      return;
   /* Pressure first also recomputes cheap definitions where they are
    * used (sched_remat.cpp) and after the loops they live through
    * (sched_loop_remat.cpp); it costs instructions, so the latency mode
    * does not.
    */
   if (mode == sched_mode::pressure || mode == sched_mode::narrow) {
      remat_through_loops(s);
      remat_cheap_defs(s);
      copy_uniforms_before_loops(s);
      if (mode == sched_mode::narrow)
         copy_block_dwords(s);
   }
   schedule_blocks(s, dev, mode);
}

} /* namespace ibis */
