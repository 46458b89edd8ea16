/*
 * The interference graph of i965-scalar-ssa.txt's hybrid rule, built in
 * near-linear passes instead of testing every pair with regs_interfere():
 *
 *  - SSA edges: a definition against every value live after it (one
 *    backward walk per block).  A copy's or load_payload's destination
 *    does not interfere with its own source: they hold the same bits.
 *  - Interval edges: a sweep over program-order intervals adds an edge
 *    for overlapping values that differ in width, bit size or group, or
 *    of which one is SIMD-global (NoMask writes, uniforms, WLR, preserve
 *    writes), or fixed (HW_REG, push constants, attributes).  Values
 *    of one layout whose components span several registers get no edge
 *    but a channel constraint (ra_graph::channel_adj).
 *  - Instruction edges: a destination never overlaps a source of its own
 *    instruction (docs/backend.md §2), except the coalescable pairs of
 *    copies and load_payloads, which ra_color() makes edges only when it
 *    does not coalesce them.
 *
 * Undefined values interfere with nothing.  The same sweep counts the
 * edges an interval-only allocator would have.
 */
#include "ra/ra_internal.h"

#include <algorithm>
#include <cmath>

namespace ibis {

void
ra_sorted_unique(std::vector<std::vector<unsigned>> &lists)
{
   const unsigned n = lists.size();
   std::vector<unsigned> seen(n, ~0u);
   std::vector<std::vector<unsigned>> out(n);
   for (unsigned x = 0; x < n; x++) {
      auto &l = lists[x];
      size_t k = 0;
      for (unsigned y : l) {
         if (seen[y] != x) {
            seen[y] = x;
            l[k++] = y;
         }
      }
      l.resize(k);
      out[x].reserve(k);
   }
   for (unsigned y = 0; y < n; y++) {
      for (unsigned x : lists[y])
         out[x].push_back(y);
   }
   lists.swap(out);
}

/* The bits set in each of the n rows of row_words words at m, into out.
 * The build has no -march: where the processor counts bits in one
 * instruction, a clone of the loop uses it (the portable count was most
 * of the rows' cost).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
static void
count_row_bits(const uint64_t *m, unsigned n, unsigned row_words, unsigned *out)
{
   for (unsigned x = 0; x < n; x++) {
      const uint64_t *row = m + size_t(x) * row_words;
      unsigned d = 0;
      for (unsigned w = 0; w < row_words; w++)
         d += unsigned(__builtin_popcountll(row[w]));
      out[x] = d;
   }
}

namespace {

/* The edges of the graph while it is built: a bit matrix where it fits
 * in a few megabytes (each pair once, in order, however often the walks
 * meet it), lists sorted and deduplicated at the end otherwise.
 */
class edge_set {
public:
   explicit edge_set(unsigned n)
      : n(n), row_words((n + 63) / 64)
   {
      if (size_t(n) * row_words <= MAX_WORDS) {
         bits.assign(size_t(n) * row_words, 0);
         m = bits.data();
      } else {
         lists.resize(n);
      }
   }

   void add(unsigned x, unsigned y)
   {
      if (m) {
         m[size_t(x) * row_words + y / 64] |= uint64_t(1) << (y % 64);
         m[size_t(y) * row_words + x / 64] |= uint64_t(1) << (x % 64);
      } else {
         add_to_lists(x, y);
      }
   }

   /* Is there an edge x-y yet?  Only the matrix knows (add_row() wrote
    * one of its rows); without one, false.
    */
   bool has(unsigned x, unsigned y) const
   {
      return m && ((m[size_t(x) * row_words + y / 64] >> (y % 64) & 1) ||
                   (m[size_t(y) * row_words + x / 64] >> (x % 64) & 1));
   }

   /* Row x of the matrix as written so far (x's own add_row()s and
    * adds), or null without a matrix.
    */
   const uint64_t *row(unsigned x) const
   {
      return m ? m + size_t(x) * row_words : nullptr;
   }

   /* x against every node of the bit set live (n bits) but itself.  In
    * the matrix only x's row is written: take() adds the other half.
    */
   void add_row(unsigned x, const uint64_t *live)
   {
      if (m) {
         uint64_t *rx = m + size_t(x) * row_words;
         for (unsigned w = 0; w < row_words; w++)
            rx[w] |= live[w];
         rx[x / 64] &= ~(uint64_t(1) << (x % 64));
         return;
      }
      for (unsigned w = 0; w < row_words; w++) {
         for (uint64_t b = live[w]; b; b &= b - 1) {
            const unsigned y = w * 64 + unsigned(__builtin_ctzll(b));
            if (y != x)
               add_to_lists(x, y);
         }
      }
   }

   /* Every node's neighbors in increasing order, each once.  hint: the
    * entries expected in all (the flat array's first size).
    */
   ra_lists take(size_t hint)
   {
      if (bits.empty()) {
         ra_sorted_unique(lists);
         return ra_lists(lists);
      }
      symmetrize();
      ra_lists out;
      out.first.resize(n + 1);
      out.items.reserve(hint);
      /* One row, then appended to the flat array at its size. */
      std::vector<unsigned> row_nodes(n);
      for (unsigned x = 0; x < n; x++) {
         out.first[x] = unsigned(out.items.size());
         const uint64_t *row = m + size_t(x) * row_words;
         unsigned k = 0;
         for (unsigned w = 0; w < row_words; w++) {
            for (uint64_t b = row[w]; b; b &= b - 1)
               row_nodes[k++] = w * 64 + unsigned(__builtin_ctzll(b));
         }
         out.items.insert(out.items.end(), row_nodes.begin(), row_nodes.begin() + k);
      }
      out.first[n] = unsigned(out.items.size());
      return out;
   }

   /* The symmetric bit matrix, if there is one (then take() is not
    * needed: the allocator reads the rows), and each row's bit count.
    */
   std::vector<uint64_t> take_bits(std::vector<unsigned> &degrees)
   {
      if (m) {
         symmetrize();
         degrees.resize(n);
         count_row_bits(m, n, row_words, degrees.data());
      }
      m = nullptr;
      return std::move(bits);
   }

   bool has_matrix() const { return m != nullptr; }

private:
   /* Transposes a 64 x 64 bit block: bit c of word r swaps with bit r
    * of word c (quadrants, then their quadrants, down to single bits).
    */
   static void transpose64(uint64_t *a)
   {
      swap_blocks<32, 0x00000000ffffffffull>(a);
      swap_blocks<16, 0x0000ffff0000ffffull>(a);
      swap_blocks<8, 0x00ff00ff00ff00ffull>(a);
      swap_blocks<4, 0x0f0f0f0f0f0f0f0full>(a);
      swap_blocks<2, 0x3333333333333333ull>(a);
      swap_blocks<1, 0x5555555555555555ull>(a);
   }

   /* One step of transpose64(): J x J blocks, the low ones of mask,
    * swap across the diagonal.  Constants, so each step unrolls.
    */
   template <unsigned J, uint64_t MASK>
   static void swap_blocks(uint64_t *a)
   {
      for (unsigned k = 0; k < 64; k = (k + J + 1) & ~J) {
         const uint64_t t = (a[k] >> J ^ a[k + J]) & MASK;
         a[k] ^= t << J;
         a[k + J] ^= t;
      }
   }

   /* The matrix or its transpose, block by 64 x 64 block: add_row()
    * wrote one row per edge, a column write per edge cost more.  Blocks
    * empty both ways (most, far from the diagonal) are skipped.
    */
   void symmetrize()
   {
      const unsigned blocks = row_words;
      uint64_t a[64], b[64];
      for (unsigned i = 0; i < blocks; i++) {
         const unsigned rows_i = std::min(64u, n - i * 64);
         for (unsigned j = i; j < blocks; j++) {
            const unsigned rows_j = std::min(64u, n - j * 64);
            /* Word j of rows i * 64 on, word i of rows j * 64 on: one
             * stride apart, rows past the last read as empty.
             */
            uint64_t any_a = 0, any_b = 0;
            uint64_t *const ij = m + size_t(i) * 64 * row_words + j;
            uint64_t *const ji = m + size_t(j) * 64 * row_words + i;
            const uint64_t *pa = ij, *pb = ji;
            for (unsigned k = 0; k < rows_i; k++, pa += row_words) {
               a[k] = *pa;
               any_a |= a[k];
            }
            for (unsigned k = 0; k < rows_j; k++, pb += row_words) {
               b[k] = *pb;
               any_b |= b[k];
            }
            std::fill(a + rows_i, a + 64, 0);
            std::fill(b + rows_j, b + 64, 0);
            /* Block (i, j) takes the transpose of block (j, i) and the
             * other way round; on the diagonal both are one block.
             */
            if (any_b) {
               transpose64(b);
               uint64_t *p = ij;
               for (unsigned k = 0; k < rows_i; k++, p += row_words)
                  *p |= b[k];
            }
            if (any_a && i != j) {
               transpose64(a);
               uint64_t *p = ji;
               for (unsigned k = 0; k < rows_j; k++, p += row_words)
                  *p |= a[k];
            }
         }
      }
   }

   /* Out of line: add() stays small enough to inline in the sweeps. */
   __attribute__((noinline)) void add_to_lists(unsigned x, unsigned y)
   {
      lists[x].push_back(y);
      lists[y].push_back(x);
   }

   /* 8 MB: up to 8192 nodes. */
   static constexpr size_t MAX_WORDS = size_t(1) << 20;
   unsigned n, row_words;
   std::vector<uint64_t> bits;
   uint64_t *m = nullptr;
   std::vector<std::vector<unsigned>> lists;
};

} /* anonymous namespace */

ra_lists
ra_adjacency(const ra_graph &g)
{
   if (!g.by_matrix())
      return g.adj;
   std::vector<std::pair<unsigned, unsigned>> pairs;
   for (unsigned x = 0; x < g.nodes.size(); x++)
      g.for_each_neighbor(x, [&](unsigned y) { pairs.push_back({x, y}); });
   return ra_lists(unsigned(g.nodes.size()), pairs);
}

bool
ra_dst_may_reuse_src(const instr *in, const operand &d, const operand &o)
{
   const value *dv = d.val, *sv = o.val;
   if (!dv || !sv || dv == sv || in->num_dsts() != 1 ||
       dv->file != reg_file::ssa || sv->file != reg_file::ssa)
      return false;
   /* Plain per-channel ALU and math: each channel (and each piece code
    * generation splits off) reads its own bytes of the source before it
    * writes the same bytes of the destination.  Channel-crossing and
    * accumulator instructions stay apart.
    */
   if (!ra_per_channel_alu(in))
      return false;
   if (in->preserve().val || (in->predicate() && in->op != opcode::sel))
      return false;
   /* One layout: whole values of one width, group, size and length, read
    * and written without offset or region at their own bit size.
    */
   if (d.offset || d.has_region || o.offset || o.has_region ||
       in->exec_size != dv->width || in->group != dv->group ||
       dv->width != sv->width || dv->group != sv->group ||
       dv->bit_size() != sv->bit_size() || dv->length != 1 || sv->length != 1 ||
       type_bits(d.type) != dv->bit_size() || type_bits(o.type) != sv->bit_size())
      return false;
   /* Every read of the source in this instruction has that layout. */
   for (const operand &x : in->srcs()) {
      if (x.val == sv && (x.offset || x.has_region ||
                          type_bits(x.type) != sv->bit_size()))
         return false;
   }
   return true;
}

static bool
only_undef(const value *v)
{
   if (v->defs().empty())
      return false;
   for (const instr *d : v->defs()) {
      if (d->op != opcode::undef)
         return false;
   }
   return true;
}

/* Loop nesting depth of each block, from the structured do/while. */
static std::vector<unsigned>
loop_depths(const shader &s)
{
   std::vector<unsigned> depth(s.blocks().size(), 0);
   unsigned d = 0;
   for (const auto &b : s.blocks()) {
      const instr *first = b->first(), *last = b->last();
      if (first && first->op == opcode::do_)
         d++;
      depth[b->index] = d;
      if (last && last->op == opcode::while_ && d)
         d--;
   }
   return depth;
}

/* For each block, the ip just past the outermost loop that contains it
 * (0 outside loops): a fixed value read in a loop is read again on the
 * next iteration, so it lives to the loop's end.
 */
static std::vector<unsigned>
outer_loop_ends(const shader &s)
{
   std::vector<unsigned> end(s.blocks().size(), 0);
   unsigned d = 0, first = 0;
   for (const auto &b : s.blocks()) {
      const instr *head = b->first(), *tail = b->last();
      if (head && head->op == opcode::do_ && d++ == 0)
         first = b->index;
      if (tail && tail->op == opcode::while_ && d && --d == 0) {
         for (unsigned k = first; k <= b->index; k++)
            end[k] = tail->ip + 1;
      }
   }
   return end;
}

ra_graph
ra_build_interference(shader &s, const liveness *shared)
{
   std::optional<liveness> own;
   if (!shared)
      own.emplace(s);
   const liveness &live = shared ? *shared : *own;
   ra_graph g;
   unsigned bound = s.value_id_bound();
   g.node_of.assign(bound, -1);

   /* Nodes: every GRF value something reads or writes. */
   for (value *v : s.values()) {
      if (!ra_needs_grf(v) || (v->defs().empty() && v->uses().empty()))
         continue;
      g.node_of[v->id] = g.nodes.size();
      g.nodes.push_back(v);
   }
   unsigned n = g.nodes.size();
   edge_set adj(n);
   /* The interval-only graph is only counted, for comparison: every
    * overlapping pair (the sweep below meets each once) plus the
    * instruction edges between values whose intervals do not overlap.
    * Storing it would be quadratic in the largest shaders; the
    * instruction pairs whose intervals do not overlap (few) are kept as
    * (lower node, higher node) and counted once each at the end.
    */
   std::vector<uint64_t> apart;
   /* A load_payload destination and a wider source it holds a run of in
    * place (ra_in_place_run): no interval edge, ra_color keeps them
    * exactly there or makes the pair an edge.
    */
   std::vector<std::vector<unsigned>> run_pair(n);
   std::vector<uint8_t> undef(n);
   for (unsigned i = 0; i < n; i++)
      undef[i] = only_undef(g.nodes[i]);
   auto add_edge = [&](const value *a, const value *b) {
      int x = g.node_of[a->id], y = g.node_of[b->id];
      if (x < 0 || y < 0 || x == y || undef[x] || undef[y])
         return;
      adj.add(unsigned(x), unsigned(y));
   };

   /* Intervals: liveness for tracked values; a HW_REG value is fixed and
    * counts as live from the program start to its last read or write, or
    * to the end of the outermost loop around it.
    */
   g.start.assign(n, 0);
   g.end.assign(n, 0);
   g.cost.assign(n, 0);
   g.eot.assign(n, false);
   std::vector<unsigned> depth = loop_depths(s);
   std::vector<unsigned> loop_end = outer_loop_ends(s);
   g.block_weight.assign(depth.size(), 1);
   for (unsigned i = 0; i < n; i++) {
      value *v = g.nodes[i];
      if (liveness::tracked(v)) {
         g.start[i] = live.start(v);
         g.end[i] = live.end(v);
      }
   }
   for (const auto &b : s.blocks()) {
      float w = std::pow(10.0f, float(std::min(depth[b->index], 6u)));
      g.block_weight[b->index] = w;
      for (const instr *in : b->instrs()) {
         auto touch = [&](const value *v) {
            if (!v || g.node_of[v->id] < 0)
               return;
            unsigned i = g.node_of[v->id];
            g.cost[i] += w;
            if (v->file == reg_file::hw_reg) {
               g.start[i] = 0;
               g.end[i] = std::max({g.end[i], in->ip + 1, loop_end[b->index]});
            }
         };
         for (const operand &d : in->dsts())
            touch(d.val);
         for (const operand &o : in->srcs())
            touch(o.val);
         touch(in->preserve().val);
         if (in->op == opcode::load_payload && in->dst().val &&
             g.node_of[in->dst().val->id] >= 0) {
            const value *d = in->dst().val;
            unsigned pos = 0;
            for (const operand &o : in->srcs()) {
               unsigned w = o.val && o.val->width > 1 ?
                            std::min<unsigned>(o.val->width, d->width) : d->width;
               unsigned bytes = w * d->bit_size() / 8;
               if (ra_in_place_run(in, o, d, pos, bytes) &&
                   g.node_of[o.val->id] >= 0) {
                  unsigned x = g.node_of[d->id], y = g.node_of[o.val->id];
                  run_pair[x].push_back(y);
                  run_pair[y].push_back(x);
               }
               pos += bytes;
            }
         }
         if (in->op == opcode::send && (in->flags & INSTR_EOT)) {
            for (unsigned k = 3; k < in->num_srcs() && k <= 4; k++) {
               const value *p = in->src(k).val;
               if (p && g.node_of[p->id] >= 0)
                  g.eot[g.node_of[p->id]] = true;
            }
         }
      }
   }

   /* SSA edges: each block walked backwards over the live nodes as bits
    * (the steps of liveness::transfer() on the values with a node), a
    * definition taking the live set as a row of the matrix at once.
    */
   const size_t live_words = (n + 63) / 64;
   std::vector<uint64_t> live_nodes(live_words), row(live_words);
   auto live_node = [&](const value *v) {
      if (!v || v->id >= bound || !liveness::tracked(v))
         return -1;
      const int x = g.node_of[v->id];
      return x >= 0 && !undef[x] ? x : -1;
   };
   auto set_bit = [](std::vector<uint64_t> &w, int x, bool on) {
      const uint64_t bit = uint64_t(1) << (unsigned(x) % 64);
      if (on)
         w[unsigned(x) / 64] |= bit;
      else
         w[unsigned(x) / 64] &= ~bit;
   };
   for (const auto &b : s.blocks()) {
      std::fill(live_nodes.begin(), live_nodes.end(), 0);
      live.live_out(b.get()).for_each_id([&](unsigned id) {
         if (id < bound && g.node_of[id] >= 0 && !undef[g.node_of[id]])
            set_bit(live_nodes, g.node_of[id], true);
      });
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         const instr *in = *it;
         const bool same_bits = in->op == opcode::copy ||
                                in->op == opcode::parallel_copy ||
                                in->op == opcode::load_payload;
         for (unsigned di = 0; !in->is_phi() && di < in->num_dsts(); di++) {
            const value *d = in->dst(di).val;
            if (!d || g.node_of[d->id] < 0)
               continue;
            const unsigned x = unsigned(g.node_of[d->id]);
            if (undef[x]) {
               /* add_edge() adds nothing for an undefined value. */
            } else if (!same_bits) {
               adj.add_row(x, live_nodes.data());
            } else {
               /* Not against its own source: they hold the same bits. */
               row = live_nodes;
               for (unsigned k = 0; k < in->num_srcs(); k++) {
                  const value *v = in->src(k).val;
                  if ((in->op != opcode::parallel_copy || k == di) && v &&
                      v->id < bound && g.node_of[v->id] >= 0)
                     set_bit(row, g.node_of[v->id], false);
               }
               adj.add_row(x, row.data());
            }
            /* Destinations of one instruction never share. */
            for (unsigned dj = 0; dj < di; dj++) {
               if (in->dst(dj).val)
                  add_edge(d, in->dst(dj).val);
            }
         }
         /* Step the live set to before in. */
         auto visit_def = [&](const value *v) {
            const int x = live_node(v);
            if (x >= 0)
               set_bit(live_nodes, x, v->file == reg_file::wlr &&
                                      live.first_def(v) != in);
         };
         for (const operand &o : in->dsts())
            visit_def(o.val);
         visit_def(in->flag_def());
         if (in->is_phi())
            continue;
         for (const operand &o : in->srcs()) {
            const int x = live_node(o.val);
            if (x >= 0)
               set_bit(live_nodes, x, true);
         }
         for (const value *v : {in->predicate(), in->preserve().val}) {
            const int x = live_node(v);
            if (x >= 0)
               set_bit(live_nodes, x, true);
         }
      }
   }
   /* Values defined at program start that are live together. */
   {
      std::vector<value *> pre;
      for (value *v : g.nodes) {
         if (v->is_preloaded())
            pre.push_back(v);
      }
      for (size_t i = 0; i < pre.size(); i++)
         for (size_t j = i + 1; j < pre.size(); j++)
            add_edge(pre[i], pre[j]);
   }

   /* The edge values of SIMD-global phis (their copies run NoMask). */
   value_set edge_global(bound);
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         if (!in->is_phi() || !ra_phi_is_simd_global(in))
            continue;
         for (const operand &o : in->srcs()) {
            if (o.val)
               edge_global.add(o.val);
         }
      }
   }

   auto overlap = [&](unsigned x, unsigned y) {
      return std::max(g.start[x], g.start[y]) < std::min(g.end[x], g.end[y]);
   };
   /* Instruction edges: destinations against sources. */
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         /* A parallel copy's cycles are broken by swapping registers of one
          * size; a destination never overlaps another entry's source of a
          * different size.
          */
         if (in->op == opcode::parallel_copy) {
            /* The xors of a swap run with one entry's channels: a cycle
             * keeps to entries whose phis share width, group and NoMask
             * (random fs seed 7768 SIMD32 swapped a lower half with an
             * upper half in channels 0-15).
             */
            std::vector<unsigned> mask(in->num_dsts());
            for (unsigned i = 0; i < in->num_dsts(); i++) {
               const value *d = in->dst(i).val;
               mask[i] = d->width | d->group << 8 |
                         unsigned(edge_global.has(d)) << 16;
            }
            for (unsigned i = 0; i < in->num_dsts(); i++) {
               for (unsigned j = 0; j < in->num_dsts(); j++) {
                  const operand &src = in->src(j);
                  if (!src.val)
                     continue;
                  /* Part of a value (a component): no destination of the
                   * copy lands on any of it, so the value stays whole
                   * until the copy has read what it needs.
                   */
                  bool partial = src.offset || src.has_region ||
                                 ra_value_bytes(src.val) !=
                                 ra_value_bytes(in->dst(j).val);
                  /* Packed bytes cannot be swapped with xors (a byte
                   * destination of an ALU op needs stride 2), and values
                   * of several registers may land half over each other
                   * (registers are not aligned to their size), which no
                   * swap undoes: no cycle may pass through such entries.
                   */
                  bool bytes = in->dst(i).val->bit_size() == 8 ||
                               src.val->bit_size() == 8 ||
                               ra_value_bytes(in->dst(i).val) > 32 ||
                               ra_value_bytes(src.val) > 32;
                  if (partial || (i != j && (bytes || mask[i] != mask[j] ||
                                             ra_value_bytes(in->dst(i).val) !=
                                             ra_value_bytes(in->dst(j).val))))
                     add_edge(in->dst(i).val, src.val);
               }
            }
         }
         if (in->is_phi() || in->op == opcode::copy ||
             in->op == opcode::parallel_copy || in->op == opcode::load_payload)
            continue;
         for (const operand &d : in->dsts()) {
            if (!d.val)
               continue;
            for (const operand &o : in->srcs()) {
               if (o.val && o.val != d.val) {
                  /* A source of the destination's layout may be
                   * overwritten in place (ra_color keeps the two apart
                   * or exactly on each other).
                   */
                  if (!ra_dst_may_reuse_src(in, d, o))
                     add_edge(d.val, o.val);
                  int x = g.node_of[d.val->id], y = g.node_of[o.val->id];
                  if (x >= 0 && y >= 0 && !undef[x] && !undef[y] &&
                      !overlap(unsigned(x), unsigned(y)))
                     apart.push_back(uint64_t(std::min(x, y)) << 32 | unsigned(std::max(x, y)));
               }
            }
         }
      }
   }

   /* Interval edges by a sweep in start order. */
   std::vector<unsigned> order(n);
   for (unsigned i = 0; i < n; i++)
      order[i] = i;
   std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return g.start[a] < g.start[b];
   });
   std::vector<uint8_t> global(n);
   for (unsigned i = 0; i < n; i++)
      global[i] = g.nodes[i]->is_simd_global() ||
                  g.nodes[i]->file == reg_file::hw_reg;
   /* NoMask is a property of the value: a phi class whose every edge
    * brings a SIMD-global value is SIMD-global, copies included (they
    * will run NoMask); one that mixes in a SIMD-local value is SIMD-local
    * and its copies run with the mask (ra_phi_is_simd_global()).
    */
   auto set_global = [&](const value *v) {
      if (v && g.node_of[v->id] >= 0)
         global[g.node_of[v->id]] = true;
   };
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         if (!in->is_phi() || !ra_phi_is_simd_global(in))
            continue;
         set_global(in->dst().val);
         for (const operand &o : in->srcs())
            set_global(o.val);
      }
   }
   /* A pair of overlapping values gets an edge when their layout keys
    * differ: width, bit size and group, or the node itself for a global
    * one (unlike every other key).  The sweep keeps the nodes live at
    * each start as bits and, per layout, the nodes of that layout, so a
    * start meets every overlapping node a word at a time: each pair once,
    * whichever order ties in start come in.
    */
   std::vector<uint32_t> key(n);
   std::vector<uint32_t> keys;
   std::vector<uint8_t> wide(n);
   for (unsigned i = 0; i < n; i++) {
      const value *v = g.nodes[i];
      key[i] = v->width | v->bit_size() << 8 | unsigned(v->group) << 16;
      wide[i] = v->component_bytes() > 32;
      if (!global[i] && std::find(keys.begin(), keys.end(), key[i]) == keys.end())
         keys.push_back(key[i]);
   }
   /* Per layout, its SIMD-local nodes. */
   std::vector<uint64_t> layout(keys.size() * live_words, 0);
   std::vector<unsigned> layout_of(n, ~0u);
   for (unsigned i = 0; i < n; i++) {
      if (global[i])
         continue;
      layout_of[i] = unsigned(std::find(keys.begin(), keys.end(), key[i]) - keys.begin());
      layout[layout_of[i] * live_words + i / 64] |= uint64_t(1) << (i % 64);
   }
   std::vector<unsigned> by_end(order);
   std::sort(by_end.begin(), by_end.end(), [&](unsigned a, unsigned b) {
      return g.end[a] < g.end[b];
   });
   std::vector<uint64_t> active(live_words, 0), same(live_words);
   /* Channel-constrained pairs as the sweep meets them: the lists (each
    * pair both ways) are made once at the end (SIMD16 and SIMD32 programs
    * have many).
    */
   std::vector<std::pair<unsigned, unsigned>> channel_pairs;
   std::vector<uint8_t> in_sweep(n, 0);
   size_t expired = 0;
   unsigned live_count = 0;
   for (unsigned a : order) {
      /* Nodes ending at or before this start are out; one not swept yet
       * has an empty interval and never comes in.
       */
      for (; expired < n && g.end[by_end[expired]] <= g.start[a]; expired++) {
         const unsigned e = by_end[expired];
         if (in_sweep[e]) {
            in_sweep[e] = false;
            live_count--;
            set_bit(active, int(e), false);
         }
      }
      /* Undefined values meet nothing: they stay out of the sweep. */
      if (g.end[a] <= g.start[a] || undef[a])
         continue;
      /* The live nodes of a's layout get no edge. */
      const bool local = !global[a];
      const uint64_t *lay = local ? &layout[layout_of[a] * live_words] : nullptr;
      g.interval_edges += live_count;
      for (size_t w = 0; w < live_words; w++) {
         same[w] = local ? active[w] & lay[w] : 0;
         row[w] = active[w] & ~same[w];
      }
      /* Nor the SIMD-local runs a load_payload holds in place. */
      if (local) {
         for (unsigned b : run_pair[a]) {
            if (!global[b]) {
               set_bit(row, int(b), false);
               set_bit(same, int(b), false);
            }
         }
      }
      adj.add_row(a, row.data());
      /* A pair with an edge (they interfere in SSA terms) never
       * overlaps at all: the channel rule would add nothing.
       */
      if (wide[a]) {
         /* The pairs in a's own row have an edge already: skipped a
          * word at a time.
          */
         const uint64_t *own = adj.row(a);
         for (size_t w = 0; w < live_words; w++) {
            for (uint64_t bits = same[w] & ~(own ? own[w] : 0); bits; bits &= bits - 1) {
               const unsigned b = unsigned(w * 64 + __builtin_ctzll(bits));
               if (!adj.has(a, b))
                  channel_pairs.push_back({a, b});
            }
         }
      }
      set_bit(active, int(a), true);
      in_sweep[a] = true;
      live_count++;
   }

   g.channel_adj = ra_lists(n, channel_pairs, true);

   if (adj.has_matrix()) {
      /* The allocator reads the matrix rows: no lists (reading every
       * row out into them was a tenth of the allocation, and their
       * pages more).
       */
      g.matrix = adj.take_bits(g.degrees);
      g.matrix_words = unsigned(live_words);
      size_t ends = 0;
      for (unsigned d : g.degrees)
         ends += d;
      g.edges = unsigned(ends / 2);
   } else {
      /* Nearly every edge joins overlapping intervals: those pairs both
       * ways size the lists at once (up to an average degree of 512).
       */
      g.adj = adj.take(std::min(2 * size_t(g.interval_edges), size_t(n) * 512) + n);
      g.edges = unsigned(g.adj.items.size() / 2);
   }
   std::sort(apart.begin(), apart.end());
   g.interval_edges += unsigned(std::unique(apart.begin(), apart.end()) - apart.begin());
   return g;
}

} /* namespace ibis */
