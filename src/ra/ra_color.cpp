/*
 * Coalescing and coloring of contiguous GRF blocks (Chaitin–Briggs with
 * optimistic coloring, after Smith, Ramsey and Holloway's generalization
 * to register classes of different sizes).
 *
 * A class is a set of values at byte offsets within one block of
 * registers: a phi class (always merged), a copy's destination and source,
 * or a load_payload's destination with the sources that can be built in
 * place.  Two classes merge only when no member of one interferes with a
 * member of the other.  Classes are then colored by size: a class is
 * simplified when the registers its neighbors can block leave it a place,
 * else the cheapest one (uses weighted by loop depth, per byte) is pushed
 * optimistically; select gives each the lowest free block with the right
 * alignment (GRF-aligned for everything of a register or more and for
 * message payloads and results; width-1 values pack by dwords, 16-byte
 * values by halves), EOT payloads in g112-g127, fixed values where
 * translation put them.
 */
#include "ra/ra_internal.h"

#include <algorithm>
#include <climits>
#include <numeric>

#include "util/ibis_error.h"

namespace ibis {

namespace {

struct ra_class {
   std::vector<std::pair<unsigned, unsigned>> members;  /* node, offset */
   unsigned bytes = 0, align = 4;
   int fixed = -1;                  /* byte position, if precolored */
   bool eot = false;
   float cost = 0;
};

class colorer {
public:
   colorer(shader &s, const ra_graph &g) : s(s), g(g)
   {
      unsigned n = g.nodes.size();
      root.resize(n);
      off.assign(n, 0);
      cls.resize(n);
      std::vector<bool> whole_grf(n, false);
      /* Message payloads, results and load_payload destinations start
       * on a register.
       */
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            bool msg = in->op == opcode::send;
            if (msg || in->op == opcode::load_payload) {
               for (const operand &d : in->dsts())
                  mark(whole_grf, d.val);
            }
            if (msg) {
               for (unsigned k = 3; k < in->num_srcs(); k++)
                  mark(whole_grf, in->src(k).val);
            }
         }
      }
      /* Copy-related pairs: a destination and its source hold the same
       * bits, so they have no edge; in one class they must either sit
       * where the copy puts them (then it is free) or not overlap.
       */
      soft.resize(n);
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            if (in->op != opcode::copy && in->op != opcode::parallel_copy &&
                in->op != opcode::load_payload)
               continue;
            unsigned pos = 0;
            for (unsigned k = 0; k < in->num_srcs(); k++) {
               unsigned di = in->op == opcode::parallel_copy ? k : 0;
               const operand &o = in->src(k);
               const value *d = di < in->num_dsts() ? in->dst(di).val : nullptr;
               if (!d)
                  continue;
               unsigned w = o.val && o.val->width > 1 ?
                            std::min<unsigned>(o.val->width, d->width) : d->width;
               unsigned bytes = w * d->bit_size() / 8;
               unsigned at = in->op == opcode::load_payload ? pos : 0;
               pos += bytes;
               int a = node(d), c = node(o.val);
               if (a < 0 || c < 0 || a == c)
                  continue;
               bool whole = !o.offset && !o.has_region &&
                            o.val->size_bytes() == (in->op == opcode::load_payload ?
                                                    bytes : d->size_bytes());
               int delta = whole ? int(at) : INT32_MIN;
               /* A payload component read from a vector (a send's
                * result) vanishes where the vector sits at at - offset.
                */
               if (in->op == opcode::load_payload && vector_component(o, d, bytes) &&
                   vector_in_place(in, o, int(at) - int(o.offset)))
                  delta = int(at) - int(o.offset);
               /* soft[x] = (y, delta): x belongs at y's place + delta. */
               soft[a].push_back({unsigned(c), delta == INT32_MIN ? delta : -delta});
               soft[c].push_back({unsigned(a), delta});
            }
         }
      }
      for (unsigned i = 0; i < n; i++) {
         const value *v = g.nodes[i];
         root[i] = i;
         ra_class &c = cls[i];
         c.members = {{i, 0}};
         c.bytes = ra_value_bytes(v);
         if (v->file == reg_file::hw_reg)
            c.bytes = std::max(4u, v->size_bytes());
         c.align = c.bytes >= 32 ? 32 : c.bytes <= 4 ? 4 : c.bytes <= 8 ? 8 :
                   c.bytes <= 16 ? 16 : 32;
         if (whole_grf[i]) {
            c.align = 32;
            c.bytes = (c.bytes + 31) / 32 * 32;
         }
         if ((v->file == reg_file::hw_reg || v->is_preloaded()) &&
             v->phys.kind == phys_reg::grf)
            c.fixed = v->phys.nr * 32 + v->phys.subreg;
         c.eot = g.eot[i];
         c.cost = g.cost[i];
      }
   }

   /* Does o read one whole component of a vector of the payload's
    * layout?
    */
   static bool vector_component(const operand &o, const value *d, unsigned bytes)
   {
      const value *v = o.val;
      return v && v->file == reg_file::ssa && v->length > 1 && !o.has_region &&
             v->width == d->width && v->bit_size() == d->bit_size() &&
             v->component_bytes() == bytes && o.offset % bytes == 0;
   }

   /* Does the payload built by in read every component of o's vector
    * that falls inside it at the component's own place, when the vector
    * starts at byte base?  Otherwise another source would be gathered
    * over a component.
    */
   static bool vector_in_place(const instr *in, const operand &o, int base)
   {
      const value *d = in->dst().val, *v = o.val;
      const unsigned c = v->component_bytes();
      if (base < 0)
         return false;
      unsigned pos = 0;
      for (const operand &x : in->srcs()) {
         unsigned w = x.val && x.val->width > 1 ?
                      std::min<unsigned>(x.val->width, d->width) : d->width;
         unsigned bytes = w * d->bit_size() / 8;
         if (pos >= unsigned(base) && pos < unsigned(base) + v->size_bytes() &&
             (x.val != v || x.has_region || x.offset != pos - unsigned(base) ||
              bytes != c))
            return false;
         pos += bytes;
      }
      return true;
   }

   void mark(std::vector<bool> &w, const value *v)
   {
      if (v && g.node_of[v->id] >= 0)
         w[g.node_of[v->id]] = true;
   }

   unsigned find(unsigned x)
   {
      while (root[x] != x)
         x = root[x];
      return x;
   }

   /* Merges the class of b into a's, b's member at offset delta of a's
    * frame.  force skips the interference test (phi classes are free of
    * interference by construction).
    */
   bool merge(unsigned a, unsigned b, int delta, bool force)
   {
      unsigned ra = find(a), rb = find(b);
      if (ra == rb)
         return off[a] == off[b] + delta;   /* already where it belongs */
      /* Frame offsets: b's class root sits at off_a + delta - off_b. */
      int shift = int(off[a]) + delta - int(off[b]);
      ra_class &ca = cls[ra], &cb = cls[rb];
      if (!force) {
         /* Interfering members may share a class only at disjoint bytes. */
         for (auto [m, o] : cb.members) {
            int mo = int(o) + shift;
            int me = mo + int(ra_value_bytes(g.nodes[m]));
            for (unsigned nb : g.adj[m]) {
               if (find(nb) != ra)
                  continue;
               int no = int(off[nb]);
               int ne = no + int(ra_value_bytes(g.nodes[nb]));
               if (mo < ne && no < me)
                  return false;
            }
            /* Copy-related members overlap only where the copy puts them. */
            for (auto [q, delta] : soft[m]) {
               if (find(q) != ra)
                  continue;
               int qo = int(off[q]);
               int qe = qo + int(ra_value_bytes(g.nodes[q]));
               if (mo < qe && qo < me &&
                   (delta == INT32_MIN || mo != qo + delta))
                  return false;
            }
         }
         for (const ra_class *c : {&ca, &cb}) {
            for (auto [m, o] : c->members) {
               (void)o;
               if (g.nodes[m]->file == reg_file::hw_reg)
                  return false;
            }
         }
      }
      int lo = std::min(0, shift);
      int hi = std::max(int(ca.bytes), shift + int(cb.bytes));
      if (hi - lo > int(RA_GRF_BYTES))
         return false;
      if (shift % int(std::min(cb.align, 32u)) != 0 && shift >= 0)
         return false;
      int fixed = ca.fixed;
      if (cb.fixed >= 0) {
         int f = cb.fixed - shift;
         if (fixed >= 0 && fixed != f)
            return false;
         fixed = f;
      }
      /* Rebase on a frame that starts at the lowest member. */
      if (lo < 0) {
         for (auto &m : ca.members)
            m.second -= lo;
         for (auto [m, o] : ca.members)
            off[m] = o;
         if (fixed >= 0)
            fixed += lo;
      }
      for (auto [m, o] : cb.members) {
         unsigned no = unsigned(int(o) + shift - lo);
         ca.members.push_back({m, no});
         off[m] = no;
         root[m] = ra;
      }
      root[rb] = ra;
      ca.bytes = unsigned(hi - lo);
      ca.align = std::max(ca.align, cb.align);
      if (ca.bytes > 32)
         ca.align = 32;
      ca.fixed = fixed;
      ca.eot |= cb.eot;
      ca.cost += cb.cost;
      cb.members.clear();
      return true;
   }

   int node(const value *v) const
   {
      return v ? g.node_of[v->id] : -1;
   }

   void coalesce(const std::vector<std::vector<value *>> &phi_classes,
                 bool copies)
   {
      for (const auto &pc : phi_classes) {
         for (size_t i = 1; i < pc.size(); i++) {
            int a = node(pc[0]), b = node(pc[i]);
            if (a >= 0 && b >= 0)
               merge(a, b, 0, true);
         }
      }
      /* Preserve writes are tied: the destination is the preserve
       * register (ra.cpp inserted a copy where that could not work).
       */
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            if (in->preserve().val && in->num_dsts()) {
               int d = node(in->dst().val), p = node(in->preserve().val);
               if (d >= 0 && p >= 0 && !merge(p, d, 0, false))
                  throw error(strfmt("register allocation: cannot tie the preserve "
                              "write of %%%u", in->dst().val->id));
            }
         }
      }
      if (!copies)
         return;
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            if (in->op == opcode::copy || in->op == opcode::parallel_copy) {
               for (unsigned i = 0; i < in->num_dsts(); i++) {
                  const operand &src = in->src(i);
                  const value *d = in->dst(i).val;
                  /* Registers hold bits: u32 and f32 copies coalesce. */
                  if (!src.val || src.offset || src.has_region ||
                      src.val->bit_size() != d->bit_size() || src.val->width != d->width ||
                      src.val->group != d->group || src.val->length != d->length)
                     continue;
                  int a = node(d), c = node(src.val);
                  if (a >= 0 && c >= 0)
                     merge(a, c, 0, false);
               }
            } else if (in->op == opcode::load_payload) {
               const value *d = in->dst().val;
               int a = node(d);
               if (a < 0)
                  continue;
               unsigned pos = 0;
               for (const operand &src : in->srcs()) {
                  unsigned w = src.val && src.val->width > 1 ?
                               std::min<unsigned>(src.val->width, d->width) : d->width;
                  unsigned bytes = w * d->bit_size() / 8;
                  int c = node(src.val);
                  /* A source lands in place when it contributes all of
                   * itself there: one component of the destination, or a
                   * SIMD16 half of a SIMD32 one.
                   */
                  if (c >= 0 && !src.offset && !src.has_region &&
                      src.val->width > 1 && src.val->width <= d->width &&
                      src.val->length == 1 &&
                      src.val->size_bytes() == bytes &&
                      src.val->bit_size() == d->bit_size() &&
                      (src.val->file == reg_file::ssa) && pos % 32 == 0)
                     merge(a, c, int(pos), false);
                  /* A vector read component by component lands whole
                   * when its components sit at their own offsets (a
                   * texture result straight into the RT write payload).
                   */
                  else if (c >= 0 && vector_component(src, d, bytes) &&
                           vector_in_place(in, src, int(pos) - int(src.offset)) &&
                           (pos - src.offset) % 32 == 0 &&
                           pos - src.offset + src.val->size_bytes() <= d->size_bytes())
                     merge(a, c, int(pos - src.offset), false);
                  pos += bytes;
               }
            }
         }
      }
   }

   /* Edges between classes, with the copy pairs not coalesced made hard. */
   void class_graph()
   {
      unsigned n = g.nodes.size();
      cadj.assign(n, {});
      for (unsigned i = 0; i < n; i++) {
         unsigned r = find(i);
         for (unsigned j : g.adj[i]) {
            unsigned q = find(j);
            if (q != r)
               cadj[r].push_back(q);
         }
      }
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            if (in->op != opcode::copy && in->op != opcode::parallel_copy &&
                in->op != opcode::load_payload)
               continue;
            for (unsigned i = 0; i < in->num_dsts(); i++) {
               int d = node(in->dst(i).val);
               if (d < 0)
                  continue;
               for (unsigned k = 0; k < in->num_srcs(); k++) {
                  if (in->op == opcode::parallel_copy && k != i)
                     continue;
                  int c = node(in->src(k).val);
                  if (c < 0)
                     continue;
                  unsigned rd = find(d), rc = find(c);
                  if (rd != rc) {
                     cadj[rd].push_back(rc);
                     cadj[rc].push_back(rd);
                  }
               }
            }
         }
      }
      std::vector<unsigned> seen(n, ~0u);
      for (unsigned r = 0; r < n; r++)
         ra_dedup(cadj[r], r, seen);
   }

   ra_color_result color(unsigned strategy)
   {
      unsigned n = g.nodes.size();
      std::vector<unsigned> roots;
      for (unsigned i = 0; i < n; i++) {
         if (find(i) == i)
            roots.push_back(i);
      }
      /* Worst case registers (in dwords) a neighbor blocks for a class. */
      auto block_of = [&](unsigned c, unsigned nb) {
         return (cls[nb].bytes + cls[c].bytes - 4) / 4;
      };
      const unsigned K = RA_GRF_BYTES / 4;
      std::vector<unsigned> load(n, 0);
      std::vector<bool> removed(n, false);
      for (unsigned r : roots) {
         for (unsigned nb : cadj[r])
            load[r] += block_of(r, nb);
      }
      std::vector<unsigned> stack;
      std::vector<unsigned> pending;
      for (unsigned r : roots) {
         if (cls[r].fixed < 0)
            pending.push_back(r);
      }
      /* Simplify: trivially colorable classes first (a worklist, refilled
       * as removals lower their neighbors' load), then the cheapest.
       */
      auto trivial = [&](unsigned r) {
         return load[r] + cls[r].bytes / 4 <= K && !cls[r].eot;
      };
      std::vector<unsigned> work;
      std::vector<bool> queued(n, false);
      for (unsigned r : pending) {
         if (trivial(r)) {
            work.push_back(r);
            queued[r] = true;
         }
      }
      size_t left = pending.size();
      std::vector<bool> is_pending(n, false);
      for (unsigned r : pending)
         is_pending[r] = true;
      while (left) {
         unsigned r = 0;
         if (!work.empty()) {
            r = work.back();
            work.pop_back();
         } else {
            /* Stuck: push the cheapest per byte and degree optimistically. */
            size_t k = 0;
            float best = 0;
            bool have = false;
            for (size_t i = 0; i < pending.size(); i++) {
               unsigned q = pending[i];
               if (removed[q])
                  continue;
               pending[k++] = q;
               float w = cls[q].cost / float(cls[q].bytes) / float(1 + load[q]);
               if (!have || w < best) {
                  r = q;
                  best = w;
                  have = true;
               }
            }
            pending.resize(k);
         }
         if (removed[r])
            continue;
         removed[r] = true;
         left--;
         stack.push_back(r);
         for (unsigned nb : cadj[r]) {
            if (removed[nb] || !is_pending[nb])
               continue;
            load[nb] -= std::min(load[nb], block_of(nb, r));
            if (!queued[nb] && trivial(nb)) {
               queued[nb] = true;
               work.push_back(nb);
            }
         }
      }
      /* Select. */
      std::vector<int> pos(n, -1);
      for (unsigned r : roots) {
         if (cls[r].fixed >= 0)
            pos[r] = cls[r].fixed;
      }
      ra_color_result res;
      std::vector<uint8_t> busy(K);
      std::vector<unsigned> failed;
      while (!stack.empty()) {
         unsigned r = stack.back();
         stack.pop_back();
         std::fill(busy.begin(), busy.end(), 0);
         for (unsigned nb : cadj[r]) {
            if (pos[nb] < 0)
               continue;
            unsigned from = unsigned(pos[nb]) / 4;
            unsigned to = std::min(K, (unsigned(pos[nb]) + cls[nb].bytes + 3) / 4);
            for (unsigned k = from; k < to; k++)
               busy[k] = 1;
         }
         const ra_class &c = cls[r];
         unsigned first = c.eot ? RA_EOT_FIRST : 0;
         unsigned size = (c.bytes + 3) / 4, step = c.align / 4;
         int found = -1;
         /* Candidates in order: lowest first; with best fit, the first
          * place in the smallest free run that holds the class; with
          * split ends, classes of a register or less from the top.
          */
         unsigned best_run = ~0u;
         bool from_top = strategy == 2 && size <= 8 && !c.eot;
         for (unsigned q = first / 4; q + size <= K; q += step) {
            unsigned p = from_top ? (K - size - (q - first / 4)) / step * step : q;
            if (from_top && p < first / 4)
               break;
            /* Small values stay within one register. */
            if (size <= 8 && p / 8 != (p + size - 1) / 8)
               continue;
            unsigned k = 0;
            while (k < size && !busy[p + k])
               k++;
            if (k != size)
               continue;
            if (strategy != 1) {
               found = int(p * 4);
               break;
            }
            unsigned lo = p, hi = p + size;
            while (lo > first / 4 && !busy[lo - 1])
               lo--;
            while (hi < K && !busy[hi])
               hi++;
            if (hi - lo < best_run) {
               best_run = hi - lo;
               found = int(p * 4);
            }
            /* Skip to the end of this run. */
            q = std::max(q, (hi - size) / step * step);
         }
         if (found < 0)
            failed.push_back(r);
         pos[r] = found;
      }
      if (!failed.empty()) {
         for (unsigned r : failed)
            for (auto [m, o] : cls[r].members) {
               (void)o;
               res.spill.push_back(g.nodes[m]);
            }
         return res;
      }
      for (unsigned i = 0; i < n; i++) {
         value *v = g.nodes[i];
         if (v->file == reg_file::hw_reg ||
             (v->is_preloaded() && v->phys.valid()))
            continue;
         unsigned at = unsigned(pos[find(i)]) + off[i];
         v->phys.kind = phys_reg::grf;
         v->phys.nr = at / 32;
         v->phys.subreg = at % 32;
      }
      res.success = true;
      return res;
   }

   shader &s;
   const ra_graph &g;
   std::vector<unsigned> root, off;
   std::vector<ra_class> cls;
   std::vector<std::vector<unsigned>> cadj;
   /* Per node: copy-related nodes and where this one sits relative to
    * them (INT32_MIN: nowhere, they must not overlap).
    */
   std::vector<std::vector<std::pair<unsigned, int>>> soft;
};

} /* anonymous namespace */

ra_color_result
ra_color(shader &s, const ra_graph &g,
         const std::vector<std::vector<value *>> &phi_classes, bool coalesce,
         unsigned strategy)
{
   colorer c(s, g);
   c.coalesce(phi_classes, coalesce);
   c.class_graph();
   return c.color(strategy);
}

} /* namespace ibis */
