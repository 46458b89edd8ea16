/*
 * Register allocator internals shared by its passes.  The stages are kept
 * apart so that coloring alone can later be replaced by an SSA-based
 * allocator:
 *
 *   ra_out_of_ssa.cpp     phis -> parallel copies on edges (before), and
 *                         sequentialized copies on registers (after)
 *   ra_flags.cpp          FLAG values to f0.0..f1.1, flag spilling
 *   ra_interference.cpp   the hybrid interference graph over values
 *   ra_color.cpp          coalescing and coloring of contiguous GRF blocks
 *   ra_spill.cpp          spill choice and scratch spill/fill insertion
 *   ra_validate.cpp       the independent checker of the result
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dev/ibis_device.h"
#include "ir/ibis_analysis.h"
#include "ir/ibis_ir.h"
#include "ra/ra.h"

namespace ibis {

/* Bytes in the GRF file, and the EOT window of docs/backend.md. */
constexpr unsigned RA_GRF_BYTES = 128 * 32;
constexpr unsigned RA_EOT_FIRST = 112 * 32;

/* Does the allocator give v bytes of the GRF file?  (Inline, as the
 * next: asked per operand.)
 */
inline bool
ra_needs_grf(const value *v)
{
   return uses_grfs(v) || v->file == reg_file::hw_reg;
}

/* Bytes v takes in the GRF file and the alignment it needs. */
inline unsigned
ra_value_bytes(const value *v)
{
   if (v->width == 1)
      return uniform_bytes(v);
   unsigned n = v->size_bytes();
   if (n <= 16)
      return 16;
   return (n + 31) / 32 * 32;
}

/* Bytes an ALU operand reads from its value, counted from its offset
 * (by execution size, type and region).
 */
unsigned ra_read_bytes(const instr *in, const operand &o);

/* --- vector splitting --------------------------------------------------- */

/* Splits load_payload-built vectors whose every use reads within one
 * component into one value per component and, with halves in a SIMD32
 * program, values read only by SIMD16 halves into a value per half
 * (phis too with phis) (ra_split.cpp).  Returns the number of values split.
 */
unsigned ra_split_vectors(shader &s, bool halves = true, bool phis = true);

/* --- out of SSA -------------------------------------------------------- */

/* Splits critical edges (an empty else for an if without one) and puts a
 * parallel copy at the end of each phi predecessor, so that each phi and
 * its copies' destinations form one congruence class with no interference
 * inside.  With constants, a constant that only phis read is written
 * again on each edge instead of copied (not where the allocation may
 * spill: ra_spill_phi_class() spills edge copies only); *constant_movs
 * gets the movs this adds less the constants it removes.  Returns the
 * classes: phi destination first.
 */
std::vector<std::vector<value *>>
ra_insert_phi_copies(shader &s, int *constant_movs = nullptr,
                     bool constants = true);

/* Does phi (after ra_insert_phi_copies) hold a SIMD-global value: a
 * scalar, or one whose every edge brings a SIMD-global value?  Its copies
 * then run with all channels; otherwise with the mask.
 */
bool ra_phi_is_simd_global(const instr *phi);

/* After coloring: removes phis, turns parallel copies into copies on
 * physical registers (cycles broken with xor swaps), drops copies whose
 * source already is in place, and ties preserve writes.  Returns the
 * instructions out of SSA left: copies and swap xors.
 */
unsigned ra_lower_copies(shader &s);

/* Replaces every write and read of from by to. */
void ra_rename(value *from, value *to);

/* A copy instruction for dst = src with the NoMask property of dst. */
instr *ra_make_copy(shader &s, const operand &dst, const operand &src);

/* --- flags ------------------------------------------------------------- */

/* Gives every FLAG value a flag register; a flag that does not fit lives
 * in a GRF and is moved back into a flag before each use.  Models the
 * unconditional flag write of cmp.  Returns the number of flags spilled.
 * With live, its liveness is the whole one (not of the flags only) and
 * *live keeps it: that of the program as it is left, which the
 * interference graph then needs not compute again.
 */
unsigned ra_assign_flags(shader &s, std::optional<liveness> *live = nullptr);

/* --- interference ------------------------------------------------------ */

/* One list per node in one flat array: those of x at items[first[x]]
 * up to items[first[x + 1]].  A vector per node cost an allocation per
 * node in every graph the allocator builds.
 */
template <typename T>
struct ra_flat_lists {
   struct range {
      const T *b, *e;
      const T *begin() const { return b; }
      const T *end() const { return e; }
      size_t size() const { return size_t(e - b); }
   };

   std::vector<unsigned> first = {0};
   std::vector<T> items;

   ra_flat_lists() = default;
   /* n empty lists. */
   explicit ra_flat_lists(unsigned n) : first(n + 1, 0) {}
   /* The lists of lists, in their order. */
   explicit ra_flat_lists(const std::vector<std::vector<T>> &lists)
   {
      first.assign(lists.size() + 1, 0);
      for (size_t x = 0; x < lists.size(); x++) {
         first[x] = unsigned(items.size());
         items.insert(items.end(), lists[x].begin(), lists[x].end());
      }
      first[lists.size()] = unsigned(items.size());
   }
   /* n lists from (list, item) pairs, each list in the pairs' order.
    * both_ways (node lists only): (x, y) also puts x in y's list.
    */
   ra_flat_lists(unsigned n, const std::vector<std::pair<unsigned, T>> &pairs,
                 bool both_ways = false)
      : first(n + 1, 0)
   {
      auto each = [&](auto &&put) {
         for (const auto &p : pairs) {
            put(p.first, p.second);
            if constexpr (std::is_same<T, unsigned>::value) {
               if (both_ways)
                  put(p.second, p.first);
            }
         }
      };
      each([&](unsigned x, const T &) { first[x + 1]++; });
      for (unsigned x = 0; x < n; x++)
         first[x + 1] += first[x];
      items.resize(first[n]);
      std::vector<unsigned> fill(first.begin(), first.end() - 1);
      each([&](unsigned x, const T &item) { items[fill[x]++] = item; });
   }

   /* Number of lists. */
   size_t size() const { return first.size() - 1; }
   range operator[](unsigned x) const
   {
      return {items.data() + first[x], items.data() + first[x + 1]};
   }
};

/* Node indices per node: adjacency. */
using ra_lists = ra_flat_lists<unsigned>;

struct ra_graph {
   /* Values that take GRFs, indexed by value id; -1 if not a node. */
   std::vector<int> node_of;
   std::vector<value *> nodes;
   /* Adjacency by node index, sorted, without duplicates, when the graph
    * has no matrix (empty lists otherwise: for_each_neighbor() and
    * degree() read either, ra_adjacency() makes the lists).
    */
   ra_lists adj;
   /* The edges as a bit matrix, matrix_words words per node, when the
    * graph was built as one (up to 8192 nodes); empty otherwise.
    */
   std::vector<uint64_t> matrix;
   unsigned matrix_words = 0;
   /* Neighbors per node, with the matrix. */
   std::vector<unsigned> degrees;
   /* SIMD-local pairs of one layout whose components span several
    * registers and whose intervals overlap: no edge (the then/else
    * sharing), but they may overlap only channel on channel, their
    * starts a whole number of components apart.
    */
   ra_lists channel_adj;
   /* Edge counts of this graph and of a purely interval-based one. */
   unsigned edges = 0, interval_edges = 0;
   /* Program-order interval per node (liveness, extended over loops). */
   std::vector<unsigned> start, end;
   /* Weighted use count (10^loop depth) per node: spill cost. */
   std::vector<float> cost;
   /* Node must lie in the EOT window. */
   std::vector<bool> eot;
   /* 10^loop depth per block index: what a copy there costs. */
   std::vector<float> block_weight;

   /* Does the graph keep its edges as the matrix (and not as adj)? */
   bool by_matrix() const { return !matrix.empty() && adj.size() != nodes.size(); }
   /* Calls fn(y) for each neighbor y of x, in increasing order. */
   template <typename F> void for_each_neighbor(unsigned x, F &&fn) const
   {
      if (!by_matrix()) {
         for (unsigned y : adj[x])
            fn(y);
         return;
      }
      const uint64_t *row = &matrix[size_t(x) * matrix_words];
      for (unsigned w = 0; w < matrix_words; w++) {
         for (uint64_t b = row[w]; b; b &= b - 1)
            fn(w * 64 + unsigned(__builtin_ctzll(b)));
      }
   }
   unsigned degree(unsigned x) const
   {
      return by_matrix() ? degrees[x] : unsigned(adj[x].size());
   }
};

/* g's adjacency as lists (for tests; the allocator reads the matrix). */
ra_lists ra_adjacency(const ra_graph &g);

/* live: the liveness of s as it is, if the caller has it. */
ra_graph ra_build_interference(shader &s, const liveness *live = nullptr);

/* May destination d of in share its register with source o, at the same
 * start (docs/backend.md §2: same start, same per-channel layout)?  Then
 * the pair has no interference edge, only the rule that they overlap
 * exactly or not at all: "x = x + 1" of a loop can stay in one register.
 */
bool ra_dst_may_reuse_src(const instr *in, const operand &d, const operand &o);

/* Is source o of a load_payload with destination d, contributing the
 * bytes bytes at byte at of d and read nowhere else in the instruction,
 * a run of a wider SSA value (a SIMD16 half
 * of a SIMD32 value also read whole) that can sit in place: the value's
 * bytes before and after the run fall outside d, so no other source of d
 * is written over them.  The value then starts at byte at - o.offset.
 */
inline bool
ra_in_place_run(const instr *in, const operand &o, const value *d, unsigned at,
                unsigned bytes)
{
   const value *v = o.val;
   /* Read once: a value read at several positions sits at one of them. */
   unsigned reads = 0;
   for (const operand &x : in->srcs())
      reads += x.val == v;
   if (reads != 1)
      return false;
   if (!v || o.has_region || v->file != reg_file::ssa ||
       d->file != reg_file::ssa || v->width <= 1 ||
       v->width < d->width || v->bit_size() != d->bit_size() ||
       o.offset % 32 != 0 || at % 32 != 0 ||
       o.offset + bytes > v->size_bytes() || bytes == v->size_bytes())
      return false;
   bool before_ok = o.offset == 0 || at == 0;
   bool after_ok = o.offset + bytes == v->size_bytes() ||
                   at + bytes == d->size_bytes();
   return before_ok && after_ok;
}

/* A plain per-channel ALU or math instruction: each channel reads and
 * writes only its own bytes (no plane, dot product, byte-pair sum or
 * accumulator), so it may be split by halves or write over a source of
 * its own layout.
 */
bool ra_per_channel_alu(const instr *in);

/* Drops repeated entries of every list of a symmetric relation (y in
 * lists[x] exactly when x in lists[y]) and sorts them, without sorting:
 * walking the lists in node order hands each node its neighbors in
 * increasing order.
 */
void ra_sorted_unique(std::vector<std::vector<unsigned>> &lists);

/* --- coloring ---------------------------------------------------------- */

struct ra_color_result {
   bool success = false;
   /* Nodes chosen to spill when coloring failed. */
   std::vector<value *> spill;
};

/* Select strategies: lowest free place first, best fit (smallest free
 * run), or small classes from the top and large ones from the bottom.
 */
constexpr unsigned RA_NUM_STRATEGIES = 3;

/* Coalesces (phi classes always, copies and load_payload sources when
 * coalesce is set) and colors; on success sets phys of every node.
 */
ra_color_result ra_color(shader &s, const ra_graph &g,
                         const std::vector<std::vector<value *>> &phi_classes,
                         bool coalesce, unsigned strategy = 0);

/* ra_color() with each select strategy in turn, coalescing and simplifying
 * once: the first success, or the lowest-first failure.  Without
 * want_spills, a failure's spill list is left incomplete (each strategy
 * stops at its first class without a place).
 */
ra_color_result ra_color_strategies(shader &s, const ra_graph &g,
                                    const std::vector<std::vector<value *>> &phi_classes,
                                    bool coalesce, bool want_spills = true);

/* ra_color_strategies() with copy coalescing and, when that fails,
 * without (setting up the coloring once): the first success, or the
 * coalesced failure.  With live (the liveness of s as it is) and without
 * want_spills, a failure that ra_cannot_fit() proves comes back at once
 * with an empty spill list.
 */
ra_color_result ra_color_with_fallback(shader &s, const ra_graph &g,
                                       const std::vector<std::vector<value *>> &phi_classes,
                                       bool want_spills,
                                       const liveness *live = nullptr);

/* A proof that no coloring of ra_color_with_fallback() succeeds, with
 * or without copy coalescing, whatever the select strategy: at some
 * instruction, nodes that pairwise interfere and the fixed registers
 * next to all of them need more than the file (ra_color.cpp).  false
 * means no proof was found, not that a coloring exists.
 */
bool ra_cannot_fit(shader &s, const ra_graph &g,
                   const std::vector<std::vector<value *>> &phi_classes,
                   const liveness &live);

/* --- spilling ---------------------------------------------------------- */

/* Spills each value of vals to scratch: a spill after each write, a fill
 * before each use.  Returns spills and fills added.
 */
void ra_spill_values(shader &s, const device_info &dev,
                     const std::vector<value *> &vals, ra_result &res);

/* Moves a phi class (ra_insert_phi_copies(): phi destination first) to
 * scratch: each edge copy stores to its slot, the phi's copy becomes a
 * fill.
 */
void ra_spill_phi_class(shader &s, const device_info &dev,
                        const std::vector<value *> &cls);

} /* namespace ibis */
