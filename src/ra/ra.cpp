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
#include <cstdlib>

#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "ra/ra_internal.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

/* Is SSA value v live right after in?  liveness::is_live_after() for one
 * value: the blocks v is live into and out of, found backwards from its
 * reads up to its definition, instead of the liveness of every value (a
 * program with preserve writes computed that for these questions alone).
 * Reads by the instructions of skip (copies added since the program was
 * numbered) do not count, as a liveness computed before them would not
 * have seen them.  mark: scratch, a byte per block.
 */
static bool
ssa_live_after(const value *v, const instr *in,
               const std::vector<const instr *> &skip, std::vector<uint8_t> &mark)
{
   enum : uint8_t { LIVE_IN = 1, LIVE_OUT = 2 };
   const instr *def = nullptr;
   for (const instr *d : v->defs()) {
      if (d->parent() && (!def || d->ip < def->ip))
         def = d;
   }
   const block *db = def ? def->parent() : nullptr;
   std::fill(mark.begin(), mark.end(), 0);
   std::vector<const block *> work;
   auto enter = [&](const block *x) {
      if (!(mark[x->index] & LIVE_IN)) {
         mark[x->index] |= LIVE_IN;
         work.push_back(x);
      }
   };
   auto leave = [&](const block *p) {
      if (!(mark[p->index] & LIVE_OUT)) {
         mark[p->index] |= LIVE_OUT;
         if (p != db)
            enter(p);
      }
   };
   for (const use &u : v->uses()) {
      const block *x = u.in->parent();
      if (!x || std::find(skip.begin(), skip.end(), u.in) != skip.end())
         continue;
      if (u.in->is_phi()) {
         /* Read on the edge, by a phi among the block's leading ones. */
         bool leading = true;
         for (const instr *i : x->instrs()) {
            if (i == u.in)
               break;
            leading &= i->is_block_start() || i->is_phi();
         }
         if (leading && u.slot >= 0 && unsigned(u.slot) < x->preds.size())
            leave(x->preds[u.slot]);
      } else if (x != db || u.in->ip < def->ip) {
         enter(x);
      }
   }
   while (!work.empty()) {
      const block *x = work.back();
      work.pop_back();
      for (const block *p : x->preds)
         leave(p);
   }
   const block *b = in->parent();
   const bool defined_here = db == b;
   if (defined_here ? def->ip > in->ip : !(mark[b->index] & LIVE_IN))
      return false;
   if (mark[b->index] & LIVE_OUT)
      return true;
   /* A later read in the block. */
   for (const use &u : v->uses()) {
      if (u.in->parent() == b && !u.in->is_phi() && u.in->ip > in->ip)
         return true;
   }
   return false;
}

/* Is in the NoMask load_payload of a block of fixed registers (the
 * thread payload: an RT header, g0 and g1 or g2) into a WLR value that
 * only sends read, whose other writes are NoMask dwords in its block
 * that do not read it (the src0-alpha bits, the target index)?  Their
 * offsets go to *dwords.
 */
static bool
is_fixed_copy_header(const instr *in, std::vector<unsigned> *dwords)
{
   if (in->op != opcode::load_payload || !in->we_all() || in->predicate() ||
       in->num_dsts() != 1 || in->dst().offset || in->num_srcs() == 0)
      return false;
   const value *h = in->dst().val;
   if (!h || h->file != reg_file::wlr)
      return false;
   for (const operand &o : in->srcs()) {
      if (!o.val || o.val->file != reg_file::hw_reg || o.offset || o.has_region)
         return false;
   }
   dwords->clear();
   for (const instr *d : h->defs()) {
      if (d == in)
         continue;
      if (d->parent() != in->parent() || d->exec_size != 1 || !d->we_all() ||
          d->predicate() || d->preserve().val || d->num_dsts() != 1 ||
          d->reads(h) || d->dst().has_region || d->dst().offset % 4 ||
          type_bits(d->dst().type) != 32)
         return false;
      dwords->push_back(d->dst().offset);
   }
   for (const use &u : h->uses()) {
      if (u.in->op != opcode::send || u.slot < 0 || u.in->parent() != in->parent())
         return false;
   }
   return true;
}

/* A header copied again from the same fixed registers after every read
 * of an earlier copy, setting at least the dwords the earlier one set, is
 * the earlier copy with its dwords written over, as brw's second SIMD16
 * half of a second render target: one copy of g0 and g2 for both
 * writes (tesseract/283.fs SIMD32: "mov(1) g125.2" into the header the
 * first write read).  The dword writes become a chain of SSA writes
 * preserving the earlier copy (a WLR value is not written after it is
 * read), moved down to the first send of the new header so the earlier
 * copy dies there and the tie needs no copy.
 */
static unsigned
reuse_fixed_copies(shader &s)
{
   s.renumber();
   unsigned n = 0;
   for (const auto &b : s.blocks()) {
      /* Each copy, and what holds it now: the copy, or the last write of
       * the chain reusing it, with the dwords that write set.
       */
      struct header {
         instr *lp;
         value *cur;
         std::vector<unsigned> dwords;
         bool gone;
      };
      std::vector<header> hs;
      for (instr *in : b->instrs()) {
         std::vector<unsigned> dw;
         if (is_fixed_copy_header(in, &dw))
            hs.push_back({in, in->dst().val, dw, false});
      }
      for (size_t j = 1; j < hs.size(); j++) {
         instr *lp2 = hs[j].lp;
         value *h2 = lp2->dst().val;
         const std::vector<unsigned> &dw2 = hs[j].dwords;
         if (h2->uses().empty())
            continue;
         const instr *first = nullptr;
         for (const use &u : h2->uses())
            if (!first || u.in->ip < first->ip)
               first = u.in;
         std::vector<instr *> extras;
         bool ok2 = true;
         for (instr *d : h2->defs()) {
            if (d != lp2)
               extras.push_back(d);
            ok2 &= d->ip < first->ip;
         }
         if (!ok2)
            continue;
         std::sort(extras.begin(), extras.end(),
                   [](const instr *a, const instr *c) { return a->ip < c->ip; });
         for (size_t i = j; i-- > 0;) {
            header &e = hs[i];
            const instr *lp1 = e.lp;
            const value *h1 = lp1->dst().val;
            if (e.gone || lp1->num_srcs() != lp2->num_srcs() ||
                h1->type != h2->type || h1->width != h2->width ||
                h1->length != h2->length || h1->group != h2->group)
               continue;
            bool ok = true;
            for (unsigned k = 0; k < lp1->num_srcs(); k++) {
               const value *a = lp1->src(k).val, *c = lp2->src(k).val;
               ok &= a == c || (a->phys.kind == c->phys.kind &&
                                a->phys.nr == c->phys.nr &&
                                a->phys.subreg == c->phys.subreg &&
                                a->size_bytes() == c->size_bytes());
            }
            for (const instr *d : e.cur->defs())
               ok &= d->ip < first->ip;
            /* The same copy again is the earlier one, read by both. */
            const bool same = dw2.empty() && e.dwords.empty();
            for (const use &u : e.cur->uses())
               ok &= same || u.in->ip < first->ip;
            for (unsigned o : e.dwords)
               ok &= std::find(dw2.begin(), dw2.end(), o) != dw2.end();
            if (!ok)
               continue;
            value *prev = e.cur;
            for (instr *d : extras) {
               value *v = s.create_value(reg_file::ssa, h2->type, h2->width,
                                         h2->length, h2->group);
               operand o = d->dst();
               o.val = v;
               d->set_dst(0, o);
               d->set_preserve(operand(prev));
               prev = v;
            }
            std::vector<instr *> order;
            for (instr *in : b->instrs()) {
               if (in == first)
                  order.insert(order.end(), extras.begin(), extras.end());
               if (std::find(extras.begin(), extras.end(), in) == extras.end())
                  order.push_back(in);
            }
            b->reorder(order);
            const std::vector<use> uses = h2->uses();
            for (const use &u : uses) {
               operand o = u.in->src(u.slot);
               o.val = prev;
               u.in->set_src(u.slot, o);
            }
            lp2->remove();
            e.cur = prev;
            e.dwords = dw2;
            hs[j].gone = true;
            s.renumber();
            n++;
            break;
         }
      }
   }
   return n;
}

/* Is WLR value p written and read only before in, in in's block (a
 * header reuse_fixed_copies() hands over)?  Then nothing needs it after
 * in, nor writes it again.
 */
static bool
wlr_dead_after(const value *p, const instr *in)
{
   if (p->file != reg_file::wlr)
      return false;
   for (const instr *d : p->defs()) {
      if (d->parent() != in->parent() || d->ip >= in->ip)
         return false;
   }
   for (const use &u : p->uses()) {
      if (u.in != in && (u.in->parent() != in->parent() || u.in->ip >= in->ip))
         return false;
   }
   return true;
}

static void
tie_preserve_writes(shader &s)
{
   std::vector<instr *> todo;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->preserve().val && in->num_dsts())
            todo.push_back(in);
      }
   }
   if (todo.empty())
      return;
   s.renumber();
   std::vector<uint8_t> mark(s.blocks().size());
   std::vector<const instr *> copies;
   value_set tied(s.value_id_bound());
   for (instr *in : todo) {
      value *p = in->preserve().val;
      bool other = false;
      for (const operand &o : in->srcs())
         other |= o.val == p;
      if (!tied.has(p) && !other &&
          ((p->file == reg_file::ssa && !ssa_live_after(p, in, copies, mark)) ||
           wlr_dead_after(p, in))) {
         tied.add(p);
         continue;
      }
      value *t = s.create_value(reg_file::ssa, p->type, p->width, p->length,
                                p->group);
      instr *cp = ra_make_copy(s, operand(t), operand(p));
      if (p->is_simd_global())
         cp->flags |= INSTR_WE_ALL;
      in->parent()->insert_before(in, cp);
      copies.push_back(cp);
      operand o = in->preserve();
      o.val = t;
      in->set_preserve(o);
   }
}

/* GRFs in use at each instruction (by ip): compute_pressure() plus the
 * registers of HW_REG values (the thread payload), which it leaves out
 * but which are live from the program start to their last read here.
 */
static std::vector<unsigned>
pressure_with_fixed(shader &s, const liveness &live)
{
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
      return p.at;
   /* Registers still fixed at each ip: the count drops as last uses pass. */
   std::vector<unsigned> ends(p.at.size() + 1, 0);
   for (unsigned r = 0; r < 128; r++)
      if (last_grf_use[r])
         ends[std::min<size_t>(last_grf_use[r], p.at.size())]++;
   unsigned fixed = 0;
   for (unsigned r = 0; r < 128; r++)
      fixed += last_grf_use[r] > 0;
   for (unsigned ip = 0; ip < p.at.size(); ip++) {
      fixed -= ends[ip];
      p.at[ip] += fixed;
   }
   return p.at;
}

static unsigned
max_live_with_fixed(shader &s)
{
   liveness live(s, false, live_detail::sets);
   std::vector<unsigned> at = pressure_with_fixed(s, live);
   unsigned peak = 0;
   for (unsigned x : at)
      peak = std::max(peak, x);
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

/* What one round spills: values, and phi classes (by index) as a whole. */
struct spill_plan {
   const ra_graph &g;
   const value_set &unspillable;
   /* Phi class index per value id, -1 for other values. */
   const std::vector<int> &class_of;
   const std::vector<std::vector<value *>> &classes;
   std::vector<value *> values;
   std::vector<unsigned> class_list;
   value_set chosen;
   std::vector<bool> class_chosen;
   std::vector<bool> useful;

   spill_plan(const ra_graph &g, const value_set &u, const std::vector<int> &co,
              const std::vector<std::vector<value *>> &cl, unsigned bound)
      : g(g), unspillable(u), class_of(co), classes(cl), chosen(bound),
        class_chosen(cl.size(), false), useful(g.nodes.size(), false)
   {
      /* A spill helps only a value live across an instruction that does
       * not touch it: one whose interval holds more instructions than
       * those that read or write it (a spilled value's own def and
       * store, a fill and its reader do not).
       */
      std::vector<const instr *> seen;
      for (unsigned k = 0; k < g.nodes.size(); k++) {
         const value *v = g.nodes[k];
         seen.clear();
         for (const instr *d : v->defs())
            seen.push_back(d);
         for (const use &x : v->uses())
            seen.push_back(x.in);
         std::sort(seen.begin(), seen.end());
         size_t n = std::unique(seen.begin(), seen.end()) - seen.begin();
         useful[k] = g.end[k] > g.start[k] + n;
      }
   }

   int class_index(const value *v) const
   {
      return v->id < class_of.size() ? class_of[v->id] : -1;
   }

   /* May node k (or its phi class) be spilled, and is it not yet? */
   bool open(unsigned k) const
   {
      const value *v = g.nodes[k];
      int c = class_index(v);
      if (c >= 0)
         return !class_chosen[c];
      return (v->file == reg_file::ssa || v->file == reg_file::wlr) &&
             useful[k] &&
             !unspillable.has(v) && !chosen.has(v) && !v->defs().empty() &&
             v->defs()[0]->op != opcode::undef;
   }

   /* Spills node k (or its class); the nodes that leave the registers. */
   std::vector<unsigned> take(unsigned k)
   {
      value *v = g.nodes[k];
      int c = class_index(v);
      if (c < 0) {
         chosen.add(v);
         values.push_back(v);
         return {k};
      }
      class_chosen[c] = true;
      class_list.push_back(unsigned(c));
      std::vector<unsigned> out;
      for (value *m : classes[c])
         if (m->id < g.node_of.size() && g.node_of[m->id] >= 0)
            out.push_back(unsigned(g.node_of[m->id]));
      return out;
   }

   bool empty() const { return values.empty() && class_list.empty(); }
};

/* What spilling node i is worth: cheap (few weighted uses), large and
 * long-lived values first.
 */
static float
spill_weight(const ra_graph &g, unsigned i)
{
   return g.cost[i] / float(ra_value_bytes(g.nodes[i])) /
          float(1 + g.end[i] - g.start[i]);
}

/* For each class that found no registers, the cheapest value per byte
 * among its failed values and their neighbors, one per failed value:
 * a round spills several values, not one per full coloring (a forced
 * SIMD32 ubershader needs hundreds).
 */
static void
choose_spills(spill_plan &plan, const std::vector<value *> &failed)
{
   const ra_graph &g = plan.g;
   for (value *v : failed) {
      int i = g.node_of[v->id];
      if (i < 0)
         continue;
      int best = -1;
      float best_w = 0;
      auto consider = [&](unsigned k) {
         if (!plan.open(k))
            return;
         float w = spill_weight(g, k);
         if (best < 0 || w < best_w) {
            best = int(k);
            best_w = w;
         }
      };
      consider(unsigned(i));
      g.for_each_neighbor(unsigned(i), consider);
      if (best >= 0)
         plan.take(unsigned(best));
   }
}

/* GRFs node k frees where it is live. */
static float
node_grfs(const ra_graph &g, unsigned k)
{
   const value *v = g.nodes[k];
   return v->width == 1 ? uniform_bytes(v) / 32.0f : float(value_grfs(v));
}

/* Spills chosen by pressure, all in one go: walking the program in
 * order, wherever more than limit GRFs are live, the values live across
 * the instruction (neither read nor written by it, so a spill frees the
 * point) with the lowest weight are spilled until the point fits.  A
 * spilled value counts as gone over the rest of its interval.
 */
static void
choose_pressure_spills(shader &s, spill_plan &plan, unsigned limit)
{
   const ra_graph &g = plan.g;
   liveness live(s, false, live_detail::sets);
   std::vector<unsigned> at = pressure_with_fixed(s, live);
   struct point {
      unsigned ip;
      std::vector<unsigned> cands;   /* nodes */
   };
   std::vector<point> points;
   for (const auto &b : s.blocks()) {
      live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
         if (at[in->ip] <= limit)
            return;
         point pt;
         pt.ip = in->ip;
         after.for_each_id([&](unsigned id) {
            if (id >= g.node_of.size() || g.node_of[id] < 0)
               return;
            unsigned k = unsigned(g.node_of[id]);
            value *v = g.nodes[k];
            if (!plan.open(k) || in->writes(v) || in->reads(v))
               return;
            /* A WLR value is in its register between its writes. */
            if (v->defs().size() > 1) {
               for (const instr *d : v->defs())
                  if (d->parent() == in->parent() && d->ip > in->ip)
                     return;
            }
            pt.cands.push_back(k);
         });
         points.push_back(std::move(pt));
      });
   }
   std::sort(points.begin(), points.end(),
             [](const point &a, const point &b) { return a.ip < b.ip; });
   /* freed: GRFs spilled values free at the current ip; drop[ip] what
    * changes there.
    */
   std::vector<float> drop(at.size() + 1, 0);
   float freed = 0;
   unsigned next = 0;
   for (point &pt : points) {
      for (; next <= pt.ip; next++)
         freed += drop[next];
      float need = float(at[pt.ip]) - freed - float(limit);
      if (need <= 0)
         continue;
      std::sort(pt.cands.begin(), pt.cands.end(), [&](unsigned x, unsigned y) {
         return spill_weight(g, x) < spill_weight(g, y);
      });
      for (unsigned k : pt.cands) {
         if (need <= 0)
            break;
         if (!plan.open(k))
            continue;
         for (unsigned m : plan.take(k)) {
            float grfs = node_grfs(g, m);
            unsigned st = g.start[m], en = std::min<size_t>(g.end[m], at.size());
            if (en <= pt.ip)
               continue;
            if (st <= pt.ip) {
               freed += grfs;
               need -= grfs;
            } else {
               drop[st] += grfs;
            }
            drop[en] -= grfs;
         }
      }
   }
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

/* Takes up to n GRFs just below the EOT window, above every fixed
 * register, for the whole program: a HW_REG value read by a nop before
 * the last instruction (removed again after allocation).
 */
static instr *
reserve_grfs(shader &s, unsigned n)
{
   unsigned fixed_end = 0;
   for (const value *v : s.values()) {
      if (v->phys.kind == phys_reg::grf && v->phys.nr < RA_EOT_FIRST / 32 &&
          (!v->defs().empty() || !v->uses().empty()))
         fixed_end = std::max(fixed_end, v->phys.nr +
                              (v->phys.subreg + v->size_bytes() + 31) / 32);
   }
   unsigned first = std::max(fixed_end, RA_EOT_FIRST / 32 > n ? RA_EOT_FIRST / 32 - n : 0);
   if (first >= RA_EOT_FIRST / 32 || s.blocks().empty() ||
       s.blocks().back()->instrs().empty())
      return nullptr;
   value *v = s.create_value(reg_file::hw_reg, data_type::u32, 8,
                             RA_EOT_FIRST / 32 - first, 0);
   v->phys.kind = phys_reg::grf;
   v->phys.nr = first;
   instr *keep = s.create_instr(opcode::nop, 8);
   keep->flags |= INSTR_WE_ALL;
   keep->add_src(operand(v));
   block *b = s.blocks().back().get();
   b->insert_before(b->last(), keep);
   return keep;
}

ra_result
allocate_registers(shader &s, const device_info &dev, const ra_options &opts)
{
   ra_result res;
   try {
      unsigned reserve = opts.reserve_grfs;
      if (const char *env = std::getenv("IBIS_RA_RESERVE"))
         reserve = unsigned(std::strtoul(env, nullptr, 10));
      instr *reserved = reserve ? reserve_grfs(s, reserve) : nullptr;
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
      reuse_fixed_copies(s);
      ra_split_vectors(s, opts.split_halves, opts.split_phi_halves);
      tie_preserve_writes(s);
      int constant_movs = 0;
      std::vector<std::vector<value *>> classes =
         ra_insert_phi_copies(s, &constant_movs, !opts.allow_spilling);
      /* The flag allocator's liveness of the program as it leaves it:
       * the first interference graph's.
       */
      std::optional<liveness> flag_live;
      res.flag_spills = ra_assign_flags(s, &flag_live);

      const unsigned first_new = s.value_id_bound();
      value_set unspillable = unspillable_values(s, classes, first_new);
      std::vector<value *> spilled;
      /* Far over the file, the first coloring cannot work: spill by
       * pressure before trying it.
       */
      bool far_over = res.max_live > RA_GRF_BYTES / 32 + 16;
      for (unsigned round = 0;; round++) {
         ra_graph g = ra_build_interference(s, flag_live ? &*flag_live : nullptr);
         res.edges = g.edges;
         res.interval_edges = g.interval_edges;
         /* Lowest-first with coalescing packs tightest; when that fails,
          * the other select orders with coalescing (a coloring without
          * it keeps every copy), then without, get a try before anything
          * is spilled.
          */
         ra_color_result r;
         if (!(far_over && round == 0 && opts.allow_spilling)) {
            /* A width that may not spill only needs to know that a
             * coloring fails, not every value that would not fit: over
             * the file, a proof that none can fit (on the liveness the
             * graph was built from) spares the colorings.
             */
            r = ra_color_with_fallback(s, g, classes, opts.allow_spilling,
                                       flag_live && res.max_live > RA_GRF_BYTES / 32 ?
                                       &*flag_live : nullptr);
         }
         flag_live.reset();
         if (r.success)
            break;
         if (debug_enabled(DEBUG_RA)) {
            for (const value *v : r.spill)
               fprintf(stderr, "ra: no registers for %%%u:%s (round %u)%s%s\n",
                       v->id, value_spec(v).c_str(), round,
                       v->defs().empty() ? "" : ": ",
                       v->defs().empty() ? "" : v->defs()[0]->str().c_str());
         }
         if (!opts.allow_spilling)
            throw error(strfmt("register allocation: SIMD%u needs spilling "
                               "(values do not fit; MaxLive %u GRFs)",
                               s.dispatch_width, res.max_live));
         /* Each class that failed spills the cheapest of itself and its
          * neighbors; phi classes spill whole.
          */
         std::vector<int> class_of(s.value_id_bound(), -1);
         for (size_t c = 0; c < classes.size(); c++)
            for (value *v : classes[c])
               class_of[v->id] = int(c);
         spill_plan plan(g, unspillable, class_of, classes, s.value_id_bound());
         /* Far over the file, or after a few rounds of spilling for the
          * classes that failed, spill by pressure to a limit that drops
          * every round.
          */
         unsigned limit = 0;
         /* Pressure counts the fixed registers (and reserved ones). */
         const unsigned file = RA_GRF_BYTES / 32;
         if (round == 0 && far_over) {
            limit = file - 8;
         } else if (round >= 3) {
            unsigned margin = 8 * (round - 2);
            limit = file > margin + 16 ? file - margin : 16;
         }
         if (limit)
            choose_pressure_spills(s, plan, limit);
         choose_spills(plan, r.spill);
         if (plan.empty() && debug_enabled(DEBUG_RA))
            fprintf(stderr, "ra: nothing left to spill in\n%s", s.str().c_str());
         if (plan.empty())
            throw error("register allocation: out of registers and nothing "
                        "left to spill");
         if (round > 64)
            throw error("register allocation: still out of registers after "
                        "64 rounds of spilling");

         if (debug_enabled(DEBUG_RA))
            fprintf(stderr, "ra: round %u spills %u values and %u phi "
                    "classes (pressure limit %u GRFs)\n", round,
                    unsigned(plan.values.size()), unsigned(plan.class_list.size()),
                    limit);
         res.spill_rounds++;
         ra_spill_values(s, dev, plan.values, res);
         /* Classes last: their copies' sources may just have been
          * spilled; later indices first, so earlier ones stay put.
          */
         std::sort(plan.class_list.rbegin(), plan.class_list.rend());
         for (unsigned c : plan.class_list) {
            ra_spill_phi_class(s, dev, classes[c]);
            classes.erase(classes.begin() + c);
         }
         /* Fills, stores' staging values and copies the spills added
          * live as short as they can: never spilled.
          */
         unspillable = unspillable_values(s, classes, first_new);
         /* A spilled value lives from its write to its store: spilling
          * it again only stores it again.
          */
         spilled.insert(spilled.end(), plan.values.begin(), plan.values.end());
         for (value *v : spilled)
            unspillable.add(v);
      }
      res.copies = unsigned(int(ra_lower_copies(s)) + constant_movs);
      if (reserved)
         reserved->remove();
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
              "%u fills, %u copies\n", s.dispatch_width,
              res.success ? "ok" : "failed", res.success ? "" : ": ",
              res.failure.c_str(), res.grfs_used, res.max_live, res.spills,
              res.fills, res.copies);
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
