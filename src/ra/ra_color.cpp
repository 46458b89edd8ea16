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
 *
 * Select checks each member against the registers of its own neighbors
 * (not whole neighbor classes) and prefers a place where a copy partner
 * already colored makes the copy vanish (biased coloring).  A merged class that finds no place is split
 * into the classes it was built from (phi classes and preserve ties stay
 * whole), which are colored one by one with the same bias (Park and Moon's
 * optimistic coalescing): coalescing never costs a spill.
 */
#include "ra/ra_internal.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <numeric>

#include "util/ibis_error.h"

namespace ibis {

namespace {

/* A copy relation: the partner node, where this node sits relative to it
 * (INT32_MIN: nowhere, they must not overlap) and what the copy costs.
 */
struct ra_soft {
   unsigned node;
   int delta;
   float weight;
};

/* A class's scalars; its members are a list through the colorer's
 * next_member array, starting at the root, each at off[] of the frame.
 * No vector per class: the colorer copies every class twice per coloring.
 */
struct ra_class {
   unsigned bytes = 0, align = 4;
   int fixed = -1;                  /* byte position, if precolored */
   bool eot = false;
   bool hw = false;                 /* has a hw_reg member: never merges */
   float cost = 0;
   /* Adjacency entries of the members: what merge() walks. */
   unsigned work = 0;
   unsigned size = 1;               /* members */
};

/* Bit k of a byte to bit 8k of a word: eight registers to their starts
 * among the 64 dword starts they hold (place()'s register windows).
 */
constexpr std::array<uint64_t, 256>
make_reg_starts()
{
   std::array<uint64_t, 256> t{};
   for (unsigned x = 0; x < 256; x++) {
      for (unsigned k = 0; k < 8; k++) {
         if (x >> k & 1)
            t[x] |= uint64_t(1) << (8 * k);
      }
   }
   return t;
}
constexpr std::array<uint64_t, 256> reg_starts = make_reg_starts();

/* counts[k] = the bits row (words words) shares with mask k, the masks
 * interleaved (word w of mask k at masks[w * groups + k]).  A clone uses
 * the processor's popcnt where it has one (the build has no -march).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
void
count_masked(const uint64_t *row, const uint64_t *masks, unsigned groups,
             unsigned words, unsigned *counts)
{
   for (unsigned k = 0; k < groups; k++)
      counts[k] = 0;
   for (unsigned w = 0; w < words; w++) {
      const uint64_t x = row[w];
      if (!x)
         continue;
      const uint64_t *mk = masks + size_t(w) * groups;
      for (unsigned k = 0; k < groups; k++)
         counts[k] += unsigned(__builtin_popcountll(x & mk[k]));
   }
}

class colorer {
public:
   colorer(shader &s, const ra_graph &g) : s(s), g(g)
   {
      unsigned n = g.nodes.size();
      root.resize(n);
      off.assign(n, 0);
      next_member.assign(n, NO_MEMBER);
      last_member.resize(n);
      cls.resize(n);
      node_bytes.assign(n, 0);
      node_comp.assign(n, 0);
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
      /* (node, relation) in program order, then grouped by node. */
      std::vector<std::pair<unsigned, ra_soft>> pairs;
      /* Blocks inside an if run for part of the time: a copy at the join
       * (a phi's result into a payload) runs on both sides, an edge copy
       * on one only.
       */
      unsigned if_depth = 0;
      for (const auto &b : s.blocks()) {
         float weight = b->index < g.block_weight.size() ?
                        g.block_weight[b->index] : 1.0f;
         const instr *head = b->first(), *tail = b->last();
         if (head && head->op == opcode::endif && if_depth)
            if_depth--;
         float freq = std::ldexp(weight, -int(std::min(if_depth, 60u)));
         if (tail && tail->op == opcode::if_)
            if_depth++;
         for (const instr *in : b->instrs()) {
            /* An ALU destination on its dying source: exactly or not at
             * all, and there by preference when free (a weak bias, below
             * any copy's: fewer registers, same code).
             */
            if (in->num_dsts() == 1 && in->op != opcode::copy &&
                in->op != opcode::load_payload) {
               for (const operand &o : in->srcs()) {
                  int a = node(in->dst().val), c = node(o.val);
                  if (a >= 0 && c >= 0 && a != c &&
                      ra_dst_may_reuse_src(in, in->dst(), o)) {
                     pairs.push_back({unsigned(a), {unsigned(c), 0, 0.001f * weight}});
                     pairs.push_back({unsigned(c), {unsigned(a), 0, 0.001f * weight}});
                  }
               }
            }
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
               int delta = copy_delta(in, k, at, bytes);
               if (delta != INT32_MIN)
                  cands.push_back({unsigned(a), unsigned(c), delta, freq});
               /* soft[x] = (y, delta): x belongs at y's place + delta. */
               pairs.push_back({unsigned(a), {unsigned(c),
                                              delta == INT32_MIN ? delta : -delta,
                                              weight}});
               pairs.push_back({unsigned(c), {unsigned(a), delta, weight}});
            }
         }
      }
      /* The copies that run most often first: a merge taken blocks
       * the ones it collides with.
       */
      std::stable_sort(cands.begin(), cands.end(),
                       [](const candidate &x, const candidate &y) {
                          return x.freq > y.freq;
                       });
      soft = ra_flat_lists<ra_soft>(n, pairs);
      for (unsigned i = 0; i < n; i++) {
         const value *v = g.nodes[i];
         root[i] = i;
         last_member[i] = i;
         ra_class &c = cls[i];
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
         c.hw = v->file == reg_file::hw_reg;
         c.cost = g.cost[i];
         c.work = g.degree(i) + g.channel_adj[i].size() + soft[i].size();
         node_bytes[i] = c.bytes;
         node_comp[i] = v->component_bytes();
      }
      node_pos.assign(n, -1);
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

   /* Where the source k of copy-like in (at byte at of the destination,
    * bytes long) sits relative to the destination when the instruction
    * needs no code, or INT32_MIN if it never does.  The same rules as
    * the validator's: a copy of one layout; a payload source that
    * contributes all of itself at its position; a vector of which the
    * payload reads every component, each at its own offset.
    */
   int copy_delta(const instr *in, unsigned k, unsigned at, unsigned bytes)
   {
      const operand &src = in->src(k);
      const value *v = src.val;
      if (in->op == opcode::copy || in->op == opcode::parallel_copy) {
         const value *d = in->dst(in->op == opcode::parallel_copy ? k : 0).val;
         /* Registers hold bits: u32 and f32 copies coalesce. */
         if (src.offset || src.has_region || v->bit_size() != d->bit_size() ||
             v->width != d->width || v->group != d->group || v->length != d->length)
            return INT32_MIN;
         /* An edge copy in place renames its source to the phi's variable
          * (ra_lower_copies): only an SSA source can take that name (a
          * WLR value's piecewise writes would become partial writes of an
          * SSA value, a fixed value is never written).
          */
         if (in->op == opcode::parallel_copy && v->file != reg_file::ssa)
            return INT32_MIN;
         return 0;
      }
      if (in->op != opcode::load_payload)
         return INT32_MIN;
      const value *d = in->dst().val;
      /* A source lands in place when it contributes all of itself there:
       * one component of the destination, or a SIMD16 half of a SIMD32
       * one.
       */
      if (!src.offset && !src.has_region && v->width > 1 &&
          v->width <= d->width && v->length == 1 && v->size_bytes() == bytes &&
          v->bit_size() == d->bit_size() && v->file == reg_file::ssa &&
          at % 32 == 0)
         return int(at);
      /* A run of a wider value (a SIMD16 half of a SIMD32 value that is
       * also read whole) lands in place when the value's other bytes fall
       * outside the destination, where no other source is written.
       */
      if (ra_in_place_run(in, src, d, at, bytes))
         return int(at) - int(src.offset);
      /* A vector read component by component lands whole when the
       * payload reads every component at its own offset (a texture
       * result straight into the RT write payload).
       */
      if (!vector_component(src, d, bytes) || at < src.offset ||
          (at - src.offset) % 32 != 0 ||
          at - src.offset + v->size_bytes() > d->size_bytes() || v->length > 64)
         return INT32_MIN;
      unsigned base = at - src.offset, pos = 0;
      uint64_t seen = 0;
      for (const operand &o : in->srcs()) {
         unsigned w = o.val && o.val->width > 1 ?
                      std::min<unsigned>(o.val->width, d->width) : d->width;
         unsigned n = w * d->bit_size() / 8;
         if (o.val == v) {
            if (!vector_component(o, d, n) || pos != base + o.offset)
               return INT32_MIN;
            seen |= uint64_t(1) << (o.offset / n);
         }
         pos += n;
      }
      if (seen + 1 != uint64_t(1) << v->length && v->length < 64)
         return INT32_MIN;
      return int(base);
   }

   void mark(std::vector<bool> &w, const value *v)
   {
      if (v && g.node_of[v->id] >= 0)
         w[g.node_of[v->id]] = true;
   }

   /* One step: merge points every member of a class at its root. */
   unsigned find(unsigned x) const
   {
      return root[x];
   }

   /* May channel-constrained nodes m and x sit at byte offsets mo and xo
    * of one frame: apart, or channel on channel.
    */
   bool channels_align(unsigned m, int mo, unsigned x, int xo) const
   {
      int me = mo + int(node_bytes[m]), xe = xo + int(node_bytes[x]);
      if (mo >= xe || xo >= me)
         return true;
      return (mo - xo) % int(node_comp[m]) == 0;
   }

   /* Would class x, its members moved by x_shift, collide with class y,
    * moved by y_shift?  Interfering members may share a class only at
    * disjoint bytes, channel-constrained ones channel on channel, and
    * copy-related ones overlap only where the copy puts them (a source a
    * load_payload reads at several positions may sit at any one of them:
    * the others copy from it there).  Every relation comes both ways, so
    * either class may be walked.
    */
   bool collide(unsigned x, int x_shift, unsigned y, int y_shift) const
   {
      /* Interference of small classes (most merges pair single values)
       * by the matrix, a bit per pair of members, rather than by x's
       * neighbor lists, hundreds long in the largest programs (then
       * the member loop below skips them).
       */
      const bool by_matrix = !g.matrix.empty() &&
                             (g.by_matrix() ||
                              size_t(cls[x].size) * cls[y].size <= cls[x].work);
      if (by_matrix) {
         for (unsigned m = x; m != NO_MEMBER; m = next_member[m]) {
            const int mo = int(off[m]) + x_shift;
            const int me = mo + int(node_bytes[m]);
            const uint64_t *row = &g.matrix[size_t(m) * g.matrix_words];
            for (unsigned q = y; q != NO_MEMBER; q = next_member[q]) {
               if (!(row[q / 64] >> (q % 64) & 1))
                  continue;
               const int qo = int(off[q]) + y_shift;
               const int qe = qo + int(node_bytes[q]);
               if (mo < qe && qo < me)
                  return true;
            }
         }
      }
      for (unsigned m = x; m != NO_MEMBER; m = next_member[m]) {
         int mo = int(off[m]) + x_shift;
         int me = mo + int(node_bytes[m]);
         if (!by_matrix) {
            bool hit = false;
            g.for_each_neighbor(m, [&](unsigned nb) {
               if (hit || find(nb) != y)
                  return;
               int no = int(off[nb]) + y_shift;
               int ne = no + int(node_bytes[nb]);
               hit = mo < ne && no < me;
            });
            if (hit)
               return true;
         }
         for (unsigned q : g.channel_adj[m]) {
            if (find(q) == y &&
                !channels_align(m, mo, q, int(off[q]) + y_shift))
               return true;
         }
         for (const ra_soft &sp : soft[m]) {
            if (find(sp.node) != y)
               continue;
            int qo = int(off[sp.node]) + y_shift;
            int qe = qo + int(node_bytes[sp.node]);
            if (!(mo < qe && qo < me))
               continue;
            bool placed = false;
            for (const ra_soft &sq : soft[m]) {
               placed |= sq.node == sp.node && sq.delta != INT32_MIN &&
                         mo == qo + sq.delta;
            }
            if (!placed)
               return true;
         }
      }
      return false;
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
      /* Checked first: cheap, and failing either way. */
      if (!force && (ca.hw || cb.hw))
         return false;
      /* The test is symmetric: walk the class with the shorter lists. */
      if (!force && (cb.work <= ca.work ? collide(rb, shift, ra, 0)
                                        : collide(ra, 0, rb, shift)))
         return false;
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
         for (unsigned m = ra; m != NO_MEMBER; m = next_member[m])
            off[m] -= lo;
         if (fixed >= 0)
            fixed += lo;
      }
      for (unsigned m = rb; m != NO_MEMBER; m = next_member[m]) {
         off[m] = unsigned(int(off[m]) + shift - lo);
         root[m] = ra;
      }
      /* b's members after a's, in their order. */
      next_member[last_member[ra]] = rb;
      last_member[ra] = last_member[rb];
      ca.bytes = unsigned(hi - lo);
      ca.align = std::max(ca.align, cb.align);
      if (ca.bytes > 32)
         ca.align = 32;
      ca.fixed = fixed;
      ca.eot |= cb.eot;
      ca.hw |= cb.hw;
      ca.cost += cb.cost;
      ca.work += cb.work;
      ca.size += cb.size;
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
      /* What select splits a merged class back into. */
      base_root = root;
      base_off = off;
      base_next = next_member;
      base_last = last_member;
      base_cls = cls;
      if (!copies)
         return;
      for (const candidate &c : cands)
         merge(c.a, c.c, c.delta, false);
   }

   /* Back to the classes of the forced merges (phi classes, preserve
    * ties): the state coalesce() leaves without copies.
    */
   void uncoalesce()
   {
      root = base_root;
      off = base_off;
      next_member = base_next;
      last_member = base_last;
      cls = base_cls;
   }

   /* The dwords that chosen (nodes without a fixed place, and fixed
    * ones) and the fixed dwords held need at least, in registers: a node
    * of a register or more takes whole registers of its own (its class
    * is register-aligned and every member offset a multiple of 32), so
    * the others share only the remaining registers, among them those
    * the fixed dwords touch.  As dwords (times 8 per register): more than
    * the file when they cannot fit.
    */
   int bound_dwords(const std::vector<unsigned> &chosen, const uint64_t *held) const
   {
      int big = 0, small = 0;
      for (unsigned m : chosen) {
         if (cls[find(m)].fixed >= 0)
            continue;
         if (node_bytes[m] >= 32)
            big += int(node_bytes[m] / 32);
         else
            small += int(node_bytes[m] / 4);
      }
      int fixed_dw = 0, fixed_regs = 0;
      for (unsigned w = 0; w < RA_GRF_BYTES / 4 / 64; w++) {
         fixed_dw += __builtin_popcountll(held[w]);
         for (unsigned k = 0; k < 64; k += 8)
            fixed_regs += (held[w] >> k & 0xff) != 0;
      }
      const int spare = fixed_regs * 8 - fixed_dw;
      const int rest = std::max(0, small - spare);
      return 8 * (big + fixed_regs + (rest + 7) / 8);
   }

   /* cannot_fit() tries the busiest points only. */
   static constexpr size_t MAX_PROOF_POINTS = 32;

   /* Does no select succeed, whatever its strategy, with the copies
    * coalesced (the state coalesce() left) or not?  A proof, not a
    * guess: a set P of nodes that pairwise interfere, none in a class
    * with a fixed member, no two in one class of the forced merges.
    * Every pair of P then lies at disjoint dwords after any successful
    * select (the later one placed avoids the earlier one's, or collide()
    * kept them apart when their classes merged), and every node of P
    * avoids the dwords of each fixed node next to all of P: when those
    * need more than the file (bound_dwords()), every coloring fails.  P
    * is taken greedily, largest first, at the instructions with the most
    * live dwords where those and the fixed ones could overflow the file.
    * Costs about two walks of the program; the colorings it spares cost
    * many.
    */
   bool cannot_fit(const liveness &live) const
   {
      const unsigned n = g.nodes.size();
      const unsigned words = g.matrix_words;
      if (g.matrix.empty() || words != (n + 63) / 64)
         return false;
      const int K = int(RA_GRF_BYTES / 4);
      /* Fixed nodes of the forced merges' classes: where they sit is
       * known in both colorings.  The others may enter P when no merge
       * can give their class a fixed place.
       */
      struct fixed_node {
         unsigned node;
         int first, last;   /* dwords, clipped to the file */
      };
      std::vector<fixed_node> fixed;
      std::vector<uint8_t> eligible(n, 0);
      for (unsigned m = 0; m < n; m++) {
         const int sz = int(node_bytes[m] / 4);
         const ra_class &bc = base_cls[base_root[m]];
         if (bc.fixed >= 0) {
            const int first = (bc.fixed + int(base_off[m])) / 4;
            const int lo = std::max(first, 0), hi = std::min(first + sz - 1, K - 1);
            if (lo <= hi)
               fixed.push_back({m, lo, hi});
         }
         eligible[m] = cls[find(m)].fixed < 0 && sz > 0;
      }
      /* The dwords fixed nodes hold at all: a point whose live nodes
       * and these fit in the file proves nothing.
       */
      uint64_t held[RA_GRF_BYTES / 4 / 64] = {};
      for (const fixed_node &f : fixed) {
         for (int d = f.first; d <= f.last; d++)
            held[d / 64] |= uint64_t(1) << (d % 64);
      }
      int fixed_dwords = 0;
      for (uint64_t w : held)
         fixed_dwords += __builtin_popcountll(w);

      /* The candidates at an instruction: the eligible nodes live after
       * it and its own operands (a destination never overlaps a source
       * but where the copies or ra_dst_may_reuse_src() let it, which
       * have no edge; a source dying here meets the values live on).
       */
      std::vector<unsigned> cands, chosen;
      std::vector<unsigned> stamp(n, 0);
      unsigned point = 0;
      auto gather = [&](const instr *in, const value_set &after) {
         point++;
         cands.clear();
         int sum = 0;
         auto add = [&](unsigned id) {
            if (id >= g.node_of.size() || g.node_of[id] < 0)
               return;
            const unsigned m = unsigned(g.node_of[id]);
            if (!eligible[m] || stamp[m] == point)
               return;
            stamp[m] = point;
            cands.push_back(m);
            sum += int(node_bytes[m] / 4);
         };
         after.for_each_id(add);
         for (const operand &d : in->dsts()) {
            if (d.val)
               add(d.val->id);
         }
         if (!in->is_phi()) {
            for (const operand &o : in->srcs()) {
               if (o.val)
                  add(o.val->id);
            }
         }
         return sum;
      };
      /* The instructions with the most live dwords first: (dwords,
       * block, instruction counted from the block's end).
       */
      struct busy {
         int sum;
         unsigned b, k;
      };
      std::vector<busy> points;
      /* The live dwords as a running sum: only the values an instruction
       * names enter or leave the live set there.
       */
      auto dwords_of = [&](const value *v) {
         if (!v || v->id >= g.node_of.size() || g.node_of[v->id] < 0)
            return 0;
         const unsigned m = unsigned(g.node_of[v->id]);
         return eligible[m] ? int(node_bytes[m] / 4) : 0;
      };
      std::vector<const value *> named;
      std::vector<uint8_t> was;
      for (const auto &b : s.blocks()) {
         unsigned k = 0;
         int live_sum = 0;
         live.live_out(b.get()).for_each_id([&](unsigned id) {
            if (id < g.node_of.size() && g.node_of[id] >= 0 &&
                eligible[unsigned(g.node_of[id])])
               live_sum += int(node_bytes[unsigned(g.node_of[id])] / 4);
         });
         named.clear();
         live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
            /* The step over the instruction after this one. */
            for (size_t i = 0; i < named.size(); i++) {
               if (bool(after.has(named[i])) != bool(was[i]))
                  live_sum += after.has(named[i]) ? dwords_of(named[i])
                                                  : -dwords_of(named[i]);
            }
            named.clear();
            auto name = [&](const value *v) {
               if (v && std::find(named.begin(), named.end(), v) == named.end())
                  named.push_back(v);
            };
            for (const operand &d : in->dsts())
               name(d.val);
            int sum = live_sum;
            if (!in->is_phi()) {
               for (const operand &o : in->srcs())
                  name(o.val);
            }
            for (const value *v : named) {
               if (!after.has(v))
                  sum += dwords_of(v);
            }
            if (in->is_phi()) {
               for (const operand &o : in->srcs())
                  name(o.val);
            }
            name(in->flag_def());
            name(in->predicate());
            name(in->preserve().val);
            was.resize(named.size());
            for (size_t i = 0; i < named.size(); i++)
               was[i] = after.has(named[i]);
            if (sum + fixed_dwords > K)
               points.push_back({sum, b->index, k});
            k++;
         });
      }
      std::sort(points.begin(), points.end(), [](const busy &x, const busy &y) {
         return x.sum != y.sum ? x.sum > y.sum : x.b != y.b ? x.b < y.b : x.k < y.k;
      });
      if (points.size() > MAX_PROOF_POINTS)
         points.resize(MAX_PROOF_POINTS);
      std::sort(points.begin(), points.end(), [](const busy &x, const busy &y) {
         return x.b != y.b ? x.b < y.b : x.k < y.k;
      });

      auto adjacent = [&](unsigned x, unsigned y) {
         return g.matrix[size_t(x) * words + y / 64] >> (y % 64) & 1;
      };
      auto next_to_all = [&](unsigned m) {
         for (unsigned p : chosen) {
            if (!adjacent(m, p))
               return false;
         }
         return true;
      };
      /* Greedy, largest first, the fixed nodes after the others, then
       * before them.
       */
      std::vector<unsigned> used_class(n, ~0u);
      unsigned round = 0;
      auto proves = [&]() {
         std::sort(cands.begin(), cands.end(), [&](unsigned x, unsigned y) {
            return node_bytes[x] != node_bytes[y] ? node_bytes[x] > node_bytes[y]
                                                  : x < y;
         });
         for (unsigned fixed_first = 0; fixed_first < 2; fixed_first++) {
            round++;
            chosen.clear();
            std::fill(std::begin(held), std::end(held), 0);
            auto take_fixed = [&]() {
               for (const fixed_node &f : fixed) {
                  if (!next_to_all(f.node))
                     continue;
                  for (int d = f.first; d <= f.last; d++)
                     held[d / 64] |= uint64_t(1) << (d % 64);
                  if (fixed_first)
                     chosen.push_back(f.node);
               }
            };
            if (fixed_first)
               take_fixed();
            for (unsigned m : cands) {
               const unsigned bc = base_root[m];
               if (used_class[bc] == round || !next_to_all(m))
                  continue;
               chosen.push_back(m);
               used_class[bc] = round;
            }
            if (!fixed_first)
               take_fixed();
            if (bound_dwords(chosen, held) > K)
               return true;
         }
         return false;
      };
      size_t next = 0;
      for (const auto &b : s.blocks()) {
         if (next == points.size() || points[next].b != b->index)
            continue;
         unsigned k = 0;
         bool proved = false;
         live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
            if (!proved && next < points.size() && points[next].b == b->index &&
                points[next].k == k) {
               gather(in, after);
               /* Nodes whose interval covers the instruction without
                * being live there (a uniform of the other branch): the
                * interval edges may make them neighbors of all.
                */
               for (unsigned m = 0; m < n; m++) {
                  if (eligible[m] && stamp[m] != point && g.start[m] <= in->ip &&
                      in->ip < g.end[m]) {
                     stamp[m] = point;
                     cands.push_back(m);
                  }
               }
               proved = proves();
               next++;
            }
            k++;
         });
         if (proved)
            return true;
      }
      return false;
   }

   /* Edges between classes, with the copy pairs not coalesced made hard. */
   void class_graph()
   {
      unsigned n = g.nodes.size();
      const size_t row_words = (n + 63) / 64;
      if (!g.matrix.empty() && g.matrix_words == row_words) {
         /* From the interference matrix: a class's members' rows or-ed
          * a word at a time, the neighbors that are class roots kept as
          * they are and the others moved to their roots; the copy
          * partners added.  Each neighbor once however many members see
          * it.  The rows stay bits (crow; simplify() walks them): read
          * out into lists they cost as much again.
          */
         std::vector<uint64_t> is_root(row_words, 0), acc(row_words);
         for (unsigned j = 0; j < n; j++) {
            if (find(j) == j)
               is_root[j / 64] |= uint64_t(1) << (j % 64);
         }
         class_rows = true;
         crow.assign(size_t(n) * row_words, 0);
         for (unsigned r = 0; r < n; r++) {
            if (find(r) != r)
               continue;
            uint64_t *row = &crow[size_t(r) * row_words];
            /* A class of one node (most of them) reads its matrix row
             * as it is, without the copy.
             */
            const uint64_t *first = &g.matrix[size_t(r) * row_words];
            const uint64_t *members = first;
            if (next_member[r] != NO_MEMBER) {
               std::copy(first, first + row_words, acc.begin());
               for (unsigned k = next_member[r]; k != NO_MEMBER; k = next_member[k]) {
                  const uint64_t *mr = &g.matrix[size_t(k) * row_words];
                  for (unsigned w = 0; w < row_words; w++)
                     acc[w] |= mr[w];
               }
               members = acc.data();
            }
            for (unsigned w = 0; w < row_words; w++) {
               row[w] |= members[w] & is_root[w];
               for (uint64_t b = members[w] & ~is_root[w]; b; b &= b - 1) {
                  const unsigned q = find(unsigned(w * 64 + __builtin_ctzll(b)));
                  row[q / 64] |= uint64_t(1) << (q % 64);
               }
            }
            for (unsigned i = r; i != NO_MEMBER; i = next_member[i]) {
               for (const ra_soft &sp : soft[i]) {
                  const unsigned q = find(sp.node);
                  row[q / 64] |= uint64_t(1) << (q % 64);
               }
            }
            row[r / 64] &= ~(uint64_t(1) << (r % 64));
         }
         return;
      }
      class_rows = false;
      /* Class by class in ascending order, each neighbor once
       * (seen[q] == r), into one flat array; then r goes to each of its
       * neighbors' ranges, which come out sorted and whole because the
       * relation is symmetric (the edges and the copy pairs both come
       * both ways).  Flat ranges instead of a list per class: pushing
       * onto those reallocated them over and over.
       */
      std::vector<unsigned> seen(n, ~0u), found, found_first(n + 1, 0);
      /* At most every edge both ways: no reallocation on the way. */
      found.reserve(2 * size_t(g.edges) + n);
      for (unsigned r = 0; r < n; r++) {
         if (find(r) == r) {
            auto add = [&](unsigned q) {
               if (q != r && seen[q] != r) {
                  seen[q] = r;
                  found.push_back(q);
               }
            };
            for (unsigned i = r; i != NO_MEMBER; i = next_member[i]) {
               for (unsigned j : g.adj[i])
                  add(find(j));
               /* Copy-related pairs in different classes must not
                * overlap unless select puts them exactly where the copy
                * does: count them as neighbors.
                */
               for (const ra_soft &sp : soft[i])
                  add(find(sp.node));
            }
         }
         found_first[r + 1] = found.size();
      }
      cadj_first.assign(n + 1, 0);
      for (unsigned q : found)
         cadj_first[q + 1]++;
      for (unsigned q = 0; q < n; q++)
         cadj_first[q + 1] += cadj_first[q];
      cadj.resize(found.size());
      std::vector<unsigned> fill(cadj_first.begin(), cadj_first.end() - 1);
      for (unsigned r = 0; r < n; r++) {
         for (unsigned k = found_first[r]; k < found_first[r + 1]; k++)
            cadj[fill[found[k]]++] = r;
      }
   }

   /* The classes next to class r (class_graph()), in ascending order. */
   struct range {
      const unsigned *b, *e;
      const unsigned *begin() const { return b; }
      const unsigned *end() const { return e; }
   };
   range class_neighbors(unsigned r) const
   {
      return {cadj.data() + cadj_first[r], cadj.data() + cadj_first[r + 1]};
   }
   /* Calls fn(q) for each class q next to class r, in increasing order
    * (from crow's bits, or the lists), among those of mask when given.
    */
   template <typename F>
   void for_each_class_neighbor(unsigned r, F &&fn, const uint64_t *mask = nullptr) const
   {
      if (!class_rows) {
         for (unsigned q : class_neighbors(r)) {
            if (!mask || (mask[q / 64] >> (q % 64) & 1))
               fn(q);
         }
         return;
      }
      const unsigned words = g.matrix_words;
      const uint64_t *row = &crow[size_t(r) * words];
      for (unsigned w = 0; w < words; w++) {
         for (uint64_t b = mask ? row[w] & mask[w] : row[w]; b; b &= b - 1)
            fn(w * 64 + unsigned(__builtin_ctzll(b)));
      }
   }

   /* Simplify: the order select colors the classes in (the same for
    * every select strategy).
    */
   void simplify()
   {
      unsigned n = g.nodes.size();
      roots.clear();
      for (unsigned i = 0; i < n; i++) {
         if (find(i) == i)
            roots.push_back(i);
      }
      /* Class sizes side by side: the neighbor walks below read them. */
      std::vector<unsigned> bytes(n, 0);
      for (unsigned r : roots)
         bytes[r] = cls[r].bytes;
      /* Worst case registers (in dwords) a neighbor blocks for a class. */
      auto block_of = [&](unsigned c, unsigned nb) {
         return (bytes[nb] + bytes[c] - 4) / 4;
      };
      const unsigned K = RA_GRF_BYTES / 4;
      std::vector<unsigned> load(n, 0);
      /* A class of whole dwords blocks each neighbor's dwords plus its
       * own less one: the sum of the neighbors' dwords and a product.
       */
      std::vector<unsigned> dwords(n, 0);
      for (unsigned r : roots)
         dwords[r] = bytes[r] / 4;
      /* With class rows and few class sizes (five or six in the largest
       * programs), each row's neighbors counted per size, a word at a
       * time: the same sums without visiting each neighbor.
       */
      std::vector<unsigned> sizes;
      for (unsigned r : roots) {
         if (sizes.size() > MAX_SIZE_GROUPS)
            break;
         if (std::find(sizes.begin(), sizes.end(), bytes[r]) == sizes.end())
            sizes.push_back(bytes[r]);
      }
      if (class_rows && sizes.size() <= MAX_SIZE_GROUPS) {
         const unsigned words = g.matrix_words, groups = unsigned(sizes.size());
         std::vector<uint64_t> masks(size_t(words) * groups, 0);
         for (unsigned r : roots) {
            const unsigned k = unsigned(std::find(sizes.begin(), sizes.end(), bytes[r]) -
                                        sizes.begin());
            masks[size_t(r / 64) * groups + k] |= uint64_t(1) << (r % 64);
         }
         unsigned counts[MAX_SIZE_GROUPS];
         for (unsigned r : roots) {
            count_masked(&crow[size_t(r) * words], masks.data(), groups, words, counts);
            const bool whole = bytes[r] >= 4 && bytes[r] % 4 == 0;
            unsigned sum = 0, degree = 0;
            for (unsigned k = 0; k < groups; k++) {
               /* The terms of the walk below, grouped. */
               sum += counts[k] * (whole ? sizes[k] / 4 : (sizes[k] + bytes[r] - 4) / 4);
               degree += counts[k];
            }
            load[r] = whole ? sum + degree * (dwords[r] - 1) : sum;
         }
      } else {
         for (unsigned r : roots) {
            if (bytes[r] >= 4 && bytes[r] % 4 == 0) {
               unsigned sum = 0, degree = 0;
               for_each_class_neighbor(r, [&](unsigned nb) {
                  sum += dwords[nb];
                  degree++;
               });
               load[r] = sum + degree * (dwords[r] - 1);
            } else {
               for_each_class_neighbor(r, [&](unsigned nb) {
                  load[r] += block_of(r, nb);
               });
            }
         }
      }
      order.clear();
      std::vector<unsigned> &stack = order;
      std::vector<unsigned> pending;
      for (unsigned r : roots) {
         if (cls[r].fixed < 0)
            pending.push_back(r);
      }
      /* Simplify: trivially colorable classes first (a worklist, refilled
       * as removals lower their neighbors' load), then the cheapest.
       */
      /* Trivial: load + dwords <= K, not in the EOT window. */
      std::vector<int64_t> limit(n, -1);
      for (unsigned r : pending) {
         if (!cls[r].eot)
            limit[r] = int64_t(K) - int64_t(cls[r].bytes / 4);
      }
      auto trivial = [&](unsigned r) {
         return int64_t(load[r]) <= limit[r];
      };
      /* Per class: pending and not yet on the worklist (OPEN), on it
       * (QUEUED), or neither (removed, or fixed).  A queued class's load
       * no longer matters: the worklist removes it before any stuck
       * choice, so removals pass it over.
       */
      enum : uint8_t { OUT, OPEN, QUEUED };
      std::vector<uint8_t> state(n, OUT);
      /* The OPEN classes as bits too: a removal visits only those of its
       * neighbors (later in simplify most are out or queued).
       */
      std::vector<uint64_t> open((n + 63) / 64, 0);
      auto set_state = [&](unsigned q, uint8_t st) {
         state[q] = st;
         if (st == OPEN)
            open[q / 64] |= uint64_t(1) << (q % 64);
         else
            open[q / 64] &= ~(uint64_t(1) << (q % 64));
      };
      std::vector<unsigned> work;
      for (unsigned r : pending) {
         if (trivial(r)) {
            work.push_back(r);
            set_state(r, QUEUED);
         } else {
            set_state(r, OPEN);
         }
      }
      size_t left = pending.size();
      /* The stuck choice: the least (big, weight, class) of the classes
       * left.  A heap whose entries may be stale: a class's load only
       * drops, so its weight only grows, and an entry whose load is no
       * longer the class's goes back in with the weight of now.  Each
       * class left has an entry at or below its weight of now, so the
       * first entry popped that is current is the least of them,
       * whatever else the heap holds.
       */
      auto weight = [&](unsigned q) {
         return cls[q].cost / float(cls[q].bytes) / float(1 + load[q]);
      };
      struct stuck_entry {
         bool big;
         float w;
         unsigned q, load;
      };
      auto later = [](const stuck_entry &x, const stuck_entry &y) {
         if (x.big != y.big)
            return x.big;
         if (x.w != y.w)
            return x.w > y.w;
         return x.q > y.q;
      };
      /* Made from the classes left at the first stuck choice, and made
       * again when most of its entries are of classes the worklist has
       * removed since (they stay until popped): most classes never get
       * stuck.
       */
      std::vector<stuck_entry> heap;
      bool heap_made = false;
      auto make_stuck_heap = [&]() {
         heap.clear();
         for (unsigned q : pending) {
            if (state[q] == OPEN)
               heap.push_back({cls[q].bytes > 64, weight(q), q, load[q]});
         }
         std::make_heap(heap.begin(), heap.end(), later);
         heap_made = true;
      };
      while (left) {
         unsigned r = 0;
         if (!work.empty()) {
            r = work.back();
            work.pop_back();
         } else {
            /* Stuck: push the cheapest per byte and degree optimistically,
             * classes of more than two registers only when no smaller one
             * is left: pushed last, select places them first, before
             * smaller ones cut the file into pieces (dolphin/ubershaders/
             * 30.fs at SIMD16: a texture result of eight registers found
             * fourteen free registers, no eight in a row).
             */
            if (!heap_made || heap.size() > 2 * left)
               make_stuck_heap();
            for (;;) {
               std::pop_heap(heap.begin(), heap.end(), later);
               stuck_entry e = heap.back();
               heap.pop_back();
               if (state[e.q] == OUT)
                  continue;
               if (e.load != load[e.q]) {
                  heap.push_back({e.big, weight(e.q), e.q, load[e.q]});
                  std::push_heap(heap.begin(), heap.end(), later);
                  continue;
               }
               r = e.q;
               break;
            }
         }
         if (state[r] == OUT)
            continue;
         set_state(r, OUT);
         left--;
         stack.push_back(r);
         for_each_class_neighbor(r, [&](unsigned nb) {
            load[nb] -= std::min(load[nb], block_of(nb, r));
            if (trivial(nb)) {
               set_state(nb, QUEUED);
               work.push_back(nb);
            }
         }, open.data());
      }
   }

   /* Select with strategy: on success every node's phys is set.  With
    * stop_early, a failure returns at its first class without a place
    * (for callers that only need to know whether the strategy works).
    */
   ra_color_result select(unsigned strategy, bool stop_early = false)
   {
      unsigned n = g.nodes.size();
      std::vector<unsigned> stack = order;
      node_pos.assign(n, -1);
      node_span.assign(n, {-1, -1});
      node_held.assign(n, {NOT_COLORED, 0, 0});
      node_regs.assign(n, 0);
      node_reg_start.assign(n, UNPLACED);
      colored.assign(g.by_matrix() ? g.matrix_words : 0, 0);
      odd_colored = 0;
      for (unsigned r : roots) {
         if (cls[r].fixed < 0)
            continue;
         for (unsigned m = r; m != NO_MEMBER; m = next_member[m])
            set_pos(m, cls[r].fixed + int(off[m]));
      }
      ra_color_result res;
      while (!stack.empty()) {
         unsigned r = stack.back();
         stack.pop_back();
         const ra_class &c = cls[r];
         int at = place(r, c, next_member, off, strategy);
         if (at >= 0) {
            for (unsigned m = r; m != NO_MEMBER; m = next_member[m])
               set_pos(m, at + int(off[m]));
            continue;
         }

         /* No place for the merged class: color the classes it was built
          * from one by one, the costliest first, each biased towards
          * where its copy partners went.
          */
         std::vector<unsigned> parts;
         for (unsigned m = r; m != NO_MEMBER; m = next_member[m]) {
            unsigned b = base_root[m];
            if (std::find(parts.begin(), parts.end(), b) == parts.end())
               parts.push_back(b);
         }
         if (parts.size() == 1) {
            for (unsigned m = r; m != NO_MEMBER; m = next_member[m])
               res.spill.push_back(g.nodes[m]);
            if (stop_early)
               return res;
            continue;
         }
         std::stable_sort(parts.begin(), parts.end(), [&](unsigned x, unsigned y) {
            return base_cls[x].cost / float(base_cls[x].bytes) >
                   base_cls[y].cost / float(base_cls[y].bytes);
         });
         for (unsigned b : parts) {
            const ra_class &bc = base_cls[b];
            int p = place(b, bc, base_next, base_off, strategy);
            if (p < 0) {
               for (unsigned m = b; m != NO_MEMBER; m = base_next[m])
                  res.spill.push_back(g.nodes[m]);
               if (stop_early)
                  return res;
               continue;
            }
            for (unsigned m = b; m != NO_MEMBER; m = base_next[m])
               set_pos(m, p + int(base_off[m]));
         }
      }
      if (!res.spill.empty())
         return res;
      for (unsigned i = 0; i < n; i++) {
         value *v = g.nodes[i];
         if (v->file == reg_file::hw_reg ||
             (v->is_preloaded() && v->phys.valid()))
            continue;
         unsigned at = unsigned(node_pos[i]);
         v->phys.kind = phys_reg::grf;
         v->phys.nr = at / 32;
         v->phys.subreg = at % 32;
      }
      res.success = true;
      return res;
   }

   /* The byte position for class c: every member avoids the registers of
    * its colored neighbors and overlaps a colored copy partner only where
    * the copy puts it.  A place that makes copies vanish wins (the
    * costliest copies first); otherwise the strategy's choice.  -1 if
    * there is none.
    */
   int place(unsigned r, const ra_class &c, const std::vector<unsigned> &next,
             const std::vector<unsigned> &offs, unsigned strategy)
   {
      const int K = int(RA_GRF_BYTES / 4);
      /* Starts (in dwords) ruled out, one bit each: a constraint rules
       * out a range of starts but for its own exceptions (a copy's place,
       * channel-on-channel starts), so each sets the pieces between them.
       * A bit set per start instead of a count per start and a running
       * sum: most calls rule out a few ranges of the 1024 starts.
       */
      std::fill(std::begin(blocked), std::end(blocked), 0);
      bias.clear();
      /* Rules out starts a to b but for the bits of keep (each word's). */
      auto rule_out = [&](int a, int b, uint64_t keep = 0) {
         a = std::max(a, 0);
         b = std::min(b, K - 1);
         if (a > b)
            return;
         /* Unsigned from here: no rounding towards zero to fix up. */
         const unsigned ua = unsigned(a), ub = unsigned(b);
         const unsigned wa = ua / 64, wb = ub / 64;
         const uint64_t lo = ~uint64_t(0) << (ua % 64) & ~keep;
         const uint64_t hi = ~uint64_t(0) >> (63 - ub % 64) & ~keep;
         if (wa == wb) {
            blocked[wa] |= lo & hi;
            return;
         }
         blocked[wa] |= lo;
         for (unsigned w = wa + 1; w < wb; w++)
            blocked[w] |= ~keep;
         blocked[wb] |= hi;
      };
      /* GRF-aligned classes only look at register starts. */
      const bool by_regs = c.align == 32;
      for (unsigned m = r; m != NO_MEMBER; m = next[m]) {
         const unsigned o = offs[m];
         int od = int(o / 4), sz = int(node_bytes[m] / 4);
         if (by_regs && od % 8 == 0 && sz % 8 == 0 && sz > 0) {
            /* Whole registers at register starts: the registers m's
             * colored neighbors touch decide (an uncolored node has
             * none).  Nodes without registers are ruled out as ranges.
             */
            unsigned __int128 held = 0;
            if (!odd_colored) {
               for_colored_neighbors(m, [&](unsigned nb) { held |= node_regs[nb]; });
            } else {
               for_colored_neighbors(m, [&](unsigned nb) {
                  held |= node_regs[nb];
                  if (node_held[nb].word == AS_RANGE &&
                      node_span[nb].last < node_span[nb].first) {
                     const dword_span sp = node_span[nb];
                     rule_out(sp.first - od - sz + 1, sp.last - od);
                  }
               });
            }
            if (held)
               block_reg_windows(held, od / 8, sz / 8);
         } else if (sz <= 0) {
            /* No dwords of its own: each colored neighbor as a range. */
            for_colored_neighbors(m, [&](unsigned nb) {
               const dword_span sp = node_span[nb];
               if (sp.first >= 0)
                  rule_out(sp.first - od - sz + 1, sp.last - od);
            });
         } else {
            /* The dwords m's colored neighbors hold, gathered from
             * masks set_pos() made, then turned into starts at once.
             */
            uint64_t held[HELD_WORDS] = {};
            bool any = false;
            for_colored_neighbors(m, [&](unsigned nb) {
               const held_mask &hm = node_held[nb];
               if (hm.word >= 0) {
                  held[hm.word] |= hm.lo;
                  held[hm.word + 1] |= hm.hi;
                  any = true;
               } else if (hm.word == AS_RANGE) {
                  const dword_span sp = node_span[nb];
                  rule_out(sp.first - od - sz + 1, sp.last - od);
               }
            });
            if (any)
               block_windows(held, od, sz);
         }
         /* Channel-constrained neighbors: every overlapping start but
          * those a whole number of components away.
          */
         const int comp = int(node_comp[m] / 4);
         /* A component of a power of two dwords up to 64: the starts
          * channel on channel are one pattern in every word.
          */
         const bool comp_pattern = comp > 0 && comp <= 64 && (comp & (comp - 1)) == 0;
         const uint64_t comp_bits = comp == 64 ? 1 :
                                    comp_pattern ? ~uint64_t(0) / ((uint64_t(1) << comp) - 1) : 0;
         /* By registers as above (a component of whole registers): the
          * neighbors at a register start gathered by that register modulo
          * the component, each group ruled out but for the register
          * starts channel on channel with it.  Worth it for long lists.
          */
         const unsigned creg = unsigned(comp) / 8;
         const bool comp_regs = by_regs && od % 8 == 0 && sz % 8 == 0 && sz > 0 &&
                                comp_pattern && comp % 8 == 0 &&
                                g.channel_adj[m].size() > 16;
         /* A colored neighbor ruled out on its own. */
         auto rule_out_channel = [&](unsigned x) {
            if (node_pos[x] < 0)
               return;
            int p = node_pos[x] / 4, b = int(node_bytes[x] / 4);
            int lo = p - od - sz + 1, hi = p + b - od - 1;
            if (comp_pattern) {
               rule_out(lo, hi, comp_bits << (unsigned(p - od) & unsigned(comp - 1)));
               return;
            }
            int a = std::max(lo, 0), e = std::min(hi, K - 1);
            int q = p - od;
            q = q >= a ? q - (q - a) / comp * comp : q + (a - q + comp - 1) / comp * comp;
            /* The pieces between the starts channel on channel with x. */
            for (; q <= e; q += comp) {
               rule_out(a, q - 1);
               a = q + 1;
            }
            rule_out(a, e);
         };
         /* Not colored yet (an UNPLACED register start, about half of
          * them): no constraint.
          */
         if (comp_regs) {
            unsigned __int128 chan[8] = {};
            for (unsigned x : g.channel_adj[m]) {
               const int rs = node_reg_start[x];
               if (rs >= 0)
                  chan[unsigned(rs) & (creg - 1)] |= node_regs[x];
               else if (rs != UNPLACED)
                  rule_out_channel(x);
            }
            /* A group without registers rules out nothing. */
            for (unsigned grp = 0; grp < creg; grp++) {
               if (!chan[grp])
                  continue;
               const uint64_t every = ~uint64_t(0) / ((uint64_t(1) << creg) - 1);
               const unsigned t = (grp - unsigned(od / 8)) & (creg - 1);
               const unsigned __int128 keep =
                  ((unsigned __int128)every << 64 | every) << t;
               block_reg_windows(chan[grp], od / 8, sz / 8, keep);
            }
         } else {
            for (unsigned x : g.channel_adj[m]) {
               if (node_reg_start[x] != UNPLACED)
                  rule_out_channel(x);
            }
         }
         for (const ra_soft &sp : soft[m]) {
            if (node_pos[sp.node] < 0)
               continue;
            int p = node_pos[sp.node] / 4, b = int(node_bytes[sp.node] / 4);
            int lo = p - od - sz + 1, hi = p + b - od - 1;
            if (sp.delta == INT32_MIN) {
               rule_out(lo, hi);
               continue;
            }
            int want = node_pos[sp.node] + sp.delta - int(o);
            if (want % 4) {
               rule_out(lo, hi);
               continue;
            }
            want /= 4;
            if (want >= std::max(lo, 0) && want <= std::min(hi, K - 1)) {
               /* The copy's own place stays open. */
               rule_out(lo, want - 1);
               rule_out(want + 1, hi);
               bias.push_back({want, sp.weight});
            } else {
               rule_out(lo, hi);
            }
         }
      }
      int first = c.eot ? int(RA_EOT_FIRST / 4) : 0;
      int size = int((c.bytes + 3) / 4), step = int(c.align / 4);
      auto fits = [&](int p) {
         if (p < first || p + size > K)
            return false;
         /* Small values stay within one register. */
         return size > 8 || p / 8 == (p + size - 1) / 8;
      };
      auto ok = [&](int p) {
         return p >= 0 && p % step == 0 && !(blocked[p / 64] >> (p % 64) & 1) &&
                fits(p);
      };
      /* Biased: the place where the most expensive copies vanish. */
      if (!bias.empty()) {
         std::sort(bias.begin(), bias.end());
         int best = -1;
         float best_w = 0;
         for (size_t i = 0; i < bias.size();) {
            size_t j = i;
            float w = 0;
            while (j < bias.size() && bias[j].first == bias[i].first)
               w += bias[j++].second;
            if (ok(bias[i].first) && w > best_w) {
               best = bias[i].first;
               best_w = w;
            }
            i = j;
         }
         if (best >= 0)
            return best * 4;
      }
      /* The aligned starts that nothing rules out, a word at a time. */
      uint64_t aligned = ~uint64_t(0);
      if (step > 1) {
         aligned = 0;
         for (int q = 0; q < 64; q += step)
            aligned |= uint64_t(1) << q;
      }
      const int words = K / 64;
      /* Lowest first; with best fit, the first place of the shortest run
       * of free places; with split ends, classes of a register or less
       * from the top.
       */
      bool from_top = strategy == 2 && size <= 8 && !c.eot;
      if (from_top) {
         for (int w = words; w-- > 0;) {
            for (uint64_t f = ~blocked[w] & aligned; f;) {
               int bit = 63 - __builtin_clzll(f);
               f &= ~(uint64_t(1) << bit);
               if (fits(w * 64 + bit))
                  return (w * 64 + bit) * 4;
            }
         }
         return -1;
      }
      if (strategy != 1) {
         for (int w = first / 64; w < words; w++) {
            for (uint64_t f = ~blocked[w] & aligned; f; f &= f - 1) {
               int p = w * 64 + __builtin_ctzll(f);
               if (fits(p))
                  return p * 4;
            }
         }
         return -1;
      }
      /* Runs of free places a step apart. */
      int found = -1, best_run = INT_MAX, run_start = -1, prev = -1;
      for (int w = first / 64; w < words; w++) {
         for (uint64_t f = ~blocked[w] & aligned; f; f &= f - 1) {
            int p = w * 64 + __builtin_ctzll(f);
            if (!fits(p))
               continue;
            if (run_start >= 0 && p != prev + step) {
               if (prev - run_start < best_run) {
                  best_run = prev - run_start;
                  found = run_start;
               }
               run_start = -1;
            }
            if (run_start < 0)
               run_start = p;
            prev = p;
         }
      }
      if (run_start >= 0 && prev - run_start < best_run)
         found = run_start;
      return found < 0 ? -1 : found * 4;
   }

   shader &s;
   const ra_graph &g;
   std::vector<unsigned> root, off;
   /* Class members: the next member after m, the last of root r's. */
   static constexpr unsigned NO_MEMBER = ~0u;
   std::vector<unsigned> next_member, last_member;
   std::vector<ra_class> cls;
   /* Class neighbors: those of class r at cadj[cadj_first[r]] up to
    * cadj[cadj_first[r + 1]].
    */
   std::vector<unsigned> cadj, cadj_first;
   /* Class sizes simplify() counts neighbors by, at most. */
   static constexpr size_t MAX_SIZE_GROUPS = 16;
   /* With the matrix, class r's neighbors as bits instead, a row of
    * g.matrix_words words at crow[r * g.matrix_words] (only roots' rows
    * are set).
    */
   bool class_rows = false;
   std::vector<uint64_t> crow;
   /* Per node: copy-related nodes and where this one sits relative to
    * them (INT32_MIN: nowhere, they must not overlap), in one flat array:
    * a list per node cost an allocation per copy-related node.
    */
   ra_flat_lists<ra_soft> soft;
   /* Class roots, and the simplify stack (select pops from the back). */
   std::vector<unsigned> roots, order;
   /* Copy pairs that may coalesce, the most frequent first (then in
    * program order): destination node, source node, the source's offset
    * in the destination, how often the copy runs.
    */
   struct candidate {
      unsigned a, c;
      int delta;
      float freq;
   };
   std::vector<candidate> cands;
   /* Bytes per node, and where select put it (-1: not yet). */
   std::vector<unsigned> node_bytes, node_comp;
   std::vector<int> node_pos;
   /* The same in dwords, first and last, for place()'s hottest loop
    * (first -1: not yet).
    */
   struct dword_span {
      int first, last;
   };
   std::vector<dword_span> node_span;

   /* A colored node's dwords as bits of place()'s held array: word and
    * the next one (a span of up to 64 dwords within the file); other
    * spans (larger, empty, past the file) are ruled out as ranges.
    */
   static constexpr int NOT_COLORED = -1, AS_RANGE = -2;
   static constexpr unsigned HELD_WORDS = RA_GRF_BYTES / 4 / 64 + 1;
   struct held_mask {
      int word;
      uint64_t lo, hi;
   };
   std::vector<held_mask> node_held;

   /* Per colored node, the registers its dwords touch (within the
    * file); none for an uncolored node or one without dwords.
    */
   std::vector<unsigned __int128> node_regs;
   /* Per colored node starting on a register (with dwords), that
    * register; -1 for other colored nodes, UNPLACED for the others.
    */
   static constexpr int UNPLACED = -2;
   std::vector<int> node_reg_start;
   /* Colored nodes without dwords: place() looks for them. */
   unsigned odd_colored = 0;
   /* With the matrix, the nodes set_pos() has placed, a bit each. */
   std::vector<uint64_t> colored;

   /* Calls fn(nb) for the neighbors of node m that select has colored,
    * and with adjacency lists for the uncolored ones too (they hold
    * nothing): with the matrix, its row and the colored nodes' bits a
    * word at a time.
    */
   template <typename F> void for_colored_neighbors(unsigned m, F &&fn) const
   {
      if (colored.empty()) {
         for (unsigned nb : g.adj[m])
            fn(nb);
         return;
      }
      const uint64_t *row = &g.matrix[size_t(m) * g.matrix_words];
      for (unsigned w = 0; w < g.matrix_words; w++) {
         for (uint64_t b = row[w] & colored[w]; b; b &= b - 1)
            fn(w * 64 + unsigned(__builtin_ctzll(b)));
      }
   }

   void set_pos(unsigned m, int at)
   {
      if (!colored.empty())
         colored[m / 64] |= uint64_t(1) << (m % 64);
      node_pos[m] = at;
      const int first = at / 4, last = at / 4 + int(node_bytes[m] / 4) - 1;
      node_span[m] = {first, last};
      const int K = int(RA_GRF_BYTES / 4);
      unsigned __int128 regs = 0;
      for (int r = std::max(first, 0) / 8; r <= std::min(last, K - 1) / 8 && last >= first; r++)
         regs |= (unsigned __int128)1 << r;
      node_regs[m] = regs;
      node_reg_start[m] = first % 8 == 0 && last >= first ? first / 8 : -1;
      if (last < first)
         odd_colored++;
      if (first < 0 || last < first || last >= K || last - first >= 64) {
         node_held[m] = {AS_RANGE, 0, 0};
         return;
      }
      const unsigned len = unsigned(last - first + 1), bit = unsigned(first % 64);
      const uint64_t bits = len == 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
      node_held[m] = {first / 64, bits << bit, bit ? bits >> (64 - bit) : 0};
   }

   /* held >> k as 1024 bits (bit d + k to d), word w. */
   static uint64_t held_shifted(const uint64_t *held, unsigned w, unsigned k)
   {
      const unsigned q = w + k / 64, r = k % 64;
      const unsigned last = HELD_WORDS - 1;
      uint64_t x = q < last ? held[q] >> r : 0;
      if (r && q + 1 < last)
         x |= held[q + 1] << (64 - r);
      return x;
   }

   /* Rules out the starts p whose dwords [p + od, p + od + sz) meet a
    * held one: held first becomes "some held dword in [d, d + sz)"
    * (doubling the window each step), then moves down by od.
    */
   void block_windows(uint64_t *held, int od, int sz)
   {
      const unsigned words = HELD_WORDS - 1;
      for (int len = 1; len < sz;) {
         const int k = std::min(len, sz - len);
         /* In place, ascending: word w reads words w and up, not yet
          * widened.
          */
         for (unsigned w = 0; w < words; w++)
            held[w] |= held_shifted(held, w, unsigned(k));
         len += k;
      }
      for (unsigned w = 0; w < words; w++)
         blocked[w] |= held_shifted(held, w, unsigned(od));
   }

   /* The same by registers, for register starts: the start of register
    * r is out when one of registers [r + off, r + off + n) is held,
    * unless r is in keep.
    */
   void block_reg_windows(unsigned __int128 held, unsigned off, unsigned n,
                          unsigned __int128 keep = 0)
   {
      held >>= off;
      for (unsigned len = 1; len < n;) {
         const unsigned k = std::min(len, n - len);
         held |= held >> k;
         len += k;
      }
      held &= ~keep;
      if (!held)
         return;
      /* Register r's start is dword 8r: bit 8(r % 8) of word r / 8.  Each
       * half of the registers a byte at a time, from its lowest held
       * register to its highest.
       */
      for (unsigned h = 0; h < 2; h++) {
         uint64_t x = uint64_t(held >> (64 * h));
         if (!x)
            continue;
         const unsigned skip = unsigned(__builtin_ctzll(x)) / 8;
         x >>= 8 * skip;
         for (unsigned w = 8 * h + skip; x; w++, x >>= 8)
            blocked[w] |= reg_starts[x & 0xff];
      }
   }
   /* The classes after the forced merges (phi classes, preserve ties),
    * into which select splits a merged class that finds no place.
    */
   std::vector<unsigned> base_root, base_off, base_next, base_last;
   std::vector<ra_class> base_cls;
   /* place()'s scratch: ruled-out starts, copy-biased places. */
   uint64_t blocked[RA_GRF_BYTES / 4 / 64];
   std::vector<std::pair<int, float>> bias;
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
   c.simplify();
   return c.select(strategy);
}

/* Simplify and each select strategy in turn on c as coalesced. */
static ra_color_result
color_strategies(colorer &c, bool want_spills)
{
   c.class_graph();
   c.simplify();
   ra_color_result first;
   for (unsigned k = 0; k < RA_NUM_STRATEGIES; k++) {
      /* Only the lowest-first failure is returned. */
      ra_color_result r = c.select(k, k > 0 || !want_spills);
      if (r.success)
         return r;
      if (k == 0)
         first = r;
   }
   return first;
}

ra_color_result
ra_color_strategies(shader &s, const ra_graph &g,
                    const std::vector<std::vector<value *>> &phi_classes,
                    bool coalesce, bool want_spills)
{
   colorer c(s, g);
   c.coalesce(phi_classes, coalesce);
   return color_strategies(c, want_spills);
}

ra_color_result
ra_color_with_fallback(shader &s, const ra_graph &g,
                       const std::vector<std::vector<value *>> &phi_classes,
                       bool want_spills, const liveness *live)
{
   colorer c(s, g);
   c.coalesce(phi_classes, true);
   /* Six colorings that cannot work cost a third of the largest
    * ubershaders' compile; a caller that needs no spill list learns it
    * from the proof at the cost of about one walk.
    */
   if (live && !want_spills && c.cannot_fit(*live))
      return {};
   ra_color_result r = color_strategies(c, want_spills);
   if (r.success)
      return r;
   /* The classes before copy coalescing, as coalesce(..., false) leaves
    * them: the copy pairs and the forced merges are the same.
    */
   c.uncoalesce();
   ra_color_result r2 = color_strategies(c, false);
   return r2.success ? r2 : r;
}

bool
ra_cannot_fit(shader &s, const ra_graph &g,
              const std::vector<std::vector<value *>> &phi_classes,
              const liveness &live)
{
   colorer c(s, g);
   c.coalesce(phi_classes, true);
   return c.cannot_fit(live);
}

} /* namespace ibis */
