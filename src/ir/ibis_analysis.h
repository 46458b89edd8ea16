/*
 * Analyses over the IR: dominance, liveness, register pressure and the
 * hybrid SSA + interval interference of i965-scalar-ssa.txt.
 *
 * Each analysis is a snapshot: it numbers the instructions (shader::
 * renumber()) and must be recomputed after the shader changes.
 */
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include "ir/ibis_ir.h"

namespace ibis {

/* A set of values by id. */
class value_set {
public:
   explicit value_set(unsigned bound = 0) : words((bound + 63) / 64) {}

   bool has(const value *v) const { return has(v->id); }
   bool has(unsigned id) const
   {
      return id / 64 < words.size() && (words[id / 64] >> (id % 64)) & 1;
   }
   void add(const value *v)
   {
      if (v->id / 64 >= words.size())
         words.resize(v->id / 64 + 1);
      words[v->id / 64] |= 1ull << (v->id % 64);
   }
   void remove(const value *v)
   {
      if (v->id / 64 < words.size())
         words[v->id / 64] &= ~(1ull << (v->id % 64));
   }
   /* Adds every member of o; true if this set grew. */
   bool add_all(const value_set &o);
   bool operator==(const value_set &o) const;
   /* The members, in id order. */
   std::vector<value *> values(const shader &s) const;
   /* Calls fn(id) for every member, in id order, without building a
    * vector (the hot loops of liveness and pressure).
    */
   template <typename F> void for_each_id(F fn) const
   {
      for (size_t i = 0; i < words.size(); i++) {
         for (uint64_t w = words[i]; w; w &= w - 1)
            fn(unsigned(i * 64 + __builtin_ctzll(w)));
      }
   }
   /* Becomes a copy of o, calling fn(id, o.has(id)) first for every id
    * in exactly one of the two sets: a word xor each, so two similar sets
    * cost their words and their few differences, not their members.
    */
   template <typename F> void assign_reporting(const value_set &o, F fn)
   {
      const size_t n = o.words.size();
      for (size_t i = n; i < words.size(); i++) {
         for (uint64_t d = words[i]; d; d &= d - 1)
            fn(unsigned(i * 64 + __builtin_ctzll(d)), false);
      }
      words.resize(n);
      for (size_t i = 0; i < n; i++) {
         const uint64_t b = o.words[i];
         for (uint64_t d = words[i] ^ b; d; d &= d - 1) {
            const unsigned bit = unsigned(__builtin_ctzll(d));
            fn(unsigned(i * 64 + bit), bool((b >> bit) & 1));
         }
         words[i] = b;
      }
   }

private:
   friend class liveness;
   std::vector<uint64_t> words;
};

class dominance {
public:
   explicit dominance(shader &s);

   /* Immediate dominator; null for the entry and unreachable blocks. */
   block *idom(const block *b) const { return idom_[b->index]; }
   const std::vector<block *> &children(const block *b) const
   {
      return children_[b->index];
   }
   bool reachable(const block *b) const { return pre_[b->index] != UINT32_MAX; }
   /* Reflexive: a block dominates itself. */
   bool dominates(const block *a, const block *b) const;
   /* Instruction a comes before or is b and its block dominates b's. */
   bool dominates(const instr *a, const instr *b) const;
   /* Reverse post-order of the reachable blocks. */
   const std::vector<block *> &rpo() const { return rpo_; }

private:
   std::vector<block *> idom_;
   std::vector<std::vector<block *>> children_;
   std::vector<uint32_t> pre_, post_;   /* dominator tree DFS numbers */
   std::vector<block *> rpo_;
};

struct register_pressure;

/* How much a liveness computes.  The sets (live-in/out per block, and
 * what the block walks need) are all that the schedulers, remat and the
 * pressure estimates read; only the allocator and the flag allocator read
 * the program-order intervals, whose loop and jump extensions cost about
 * as much again.
 */
enum class live_detail {
   sets,        /* live_in/out, walks, first_def; no start()/end() */
   intervals,   /* and start()/end() */
};

class liveness {
public:
   /* flags_only: only FLAG values are tracked (the flag allocator's
    * intervals, at a fraction of the cost); each value's liveness is its
    * own data flow problem, so theirs are the same as in the full one.
    */
   explicit liveness(shader &s, bool flags_only = false,
                     live_detail detail = live_detail::intervals);

   /* Values the allocator cares about: SSA, WLR, UNIFORM, ATTR, FLAG.
    * Inline: every liveness walk asks it for every operand.
    */
   static bool tracked(const value *v)
   {
      return v->file == reg_file::ssa || v->file == reg_file::wlr ||
             v->file == reg_file::uniform || v->file == reg_file::attr ||
             v->file == reg_file::flag;
   }

   const value_set &live_in(const block *b) const { return in_[b->index]; }
   const value_set &live_out(const block *b) const { return out_[b->index]; }
   /* Values live right after in (read by a later instruction). */
   value_set live_after(const instr *in) const;
   bool is_live_after(const value *v, const instr *in) const;

   /* Calls fn(in, live_after(in)) for every instruction of b, last first.
    * A template: the allocator's walks call it for every instruction, and
    * a std::function call there cost more than the visit.
    */
   template <typename F> void walk_backwards(const block *b, F &&fn) const
   {
      value_set live = out_[b->index];
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         fn(static_cast<const instr *>(*it), static_cast<const value_set &>(live));
         transfer(*it, live);
      }
   }

   /* The instruction that starts v's live range (its first write), or
    * null for values defined at program start.
    */
   const instr *first_def(const value *v) const;

   /* v's live range as a program-order interval [start, end) of
    * instruction numbers; a dead definition still covers its instruction.
    */
   unsigned start(const value *v) const
   {
      assert(v->id < start_.size());   /* live_detail::intervals */
      return start_[v->id];
   }
   unsigned end(const value *v) const
   {
      assert(v->id < end_.size());
      return end_[v->id];
   }

   const shader &program() const { return sh; }

private:
   friend register_pressure compute_pressure(const liveness &live,
                                             const std::vector<uint8_t> *blocks);
   bool kills(const instr *in, const value *v) const;
   bool want(const value *v) const
   {
      return tracked(v) && (!flags_only_ || v->file == reg_file::flag);
   }
   void transfer(const instr *in, value_set &live) const;
   void solve(unsigned bound);
   void compute_intervals(unsigned num_ips);

   const shader &sh;
   bool flags_only_ = false;
   std::vector<value_set> in_, out_;
   std::vector<const instr *> first_def_;
   std::vector<unsigned> start_, end_;
};

/* These three are inline: the allocator and the schedulers ask them per
 * operand.
 */

/* Bytes a width-1 value takes in the shared uniform registers. */
inline unsigned
uniform_bytes(const value *v)
{
   return (v->bit_size() / 8 * v->length + 3) / 4 * 4;
}

/* Physical 32-byte GRFs that v occupies on its own.  A value of width > 1
 * takes ceil(width * bit_size / 8 * length / 32) registers, components
 * packed one after another; a uniform (width 1) value takes its bytes
 * rounded up to a dword, and uniform values pack together: see pressure.
 */
inline unsigned
value_grfs(const value *v)
{
   if (v->width == 1)
      return (uniform_bytes(v) + 31) / 32;
   return (v->size_bytes() + 31) / 32;
}

/* Does v occupy general registers (counts for pressure)? */
inline bool
uses_grfs(const value *v)
{
   return v->file == reg_file::ssa || v->file == reg_file::wlr ||
          v->file == reg_file::uniform || v->file == reg_file::attr;
}

/* What each value adds to register pressure, by value id: the GRFs of a
 * value of several channels, the bytes of a width-1 one (those pack),
 * nothing for a value without GRFs.  For walks that sum whole live sets,
 * where looking each value up costs more than the walk.
 */
struct pressure_weights {
   std::vector<unsigned> grfs, uniform;
   explicit pressure_weights(const shader &s);
};

struct register_pressure {
   /* GRFs in use at each instruction (by ip): the values it reads, the
    * values it defines and the values live across it.  Phi sources count
    * on the incoming edge instead.  Non-uniform values count value_grfs();
    * all width-1 values present together share registers:
    * ceil(sum of uniform_bytes() / 32).
    */
   std::vector<unsigned> at;
   unsigned max = 0;
};

/* blocks: if given, only the instructions of the blocks whose entry (by
 * index) is nonzero are weighed, the others' stay 0 and max is theirs:
 * for a pass that asks about a few places of a large program.
 */
register_pressure compute_pressure(const liveness &live,
                                   const std::vector<uint8_t> *blocks = nullptr);

/* Interference (i965-scalar-ssa.txt, "In the mean time..."). */

/* Classic SSA interference: one value is live at the other's definition. */
bool regs_ssa_interfere(const value *a, const value *b, const liveness &live,
                        const dominance &dom);
/* The program-order live intervals overlap. */
bool regs_interval_interfere(const value *a, const value *b,
                             const liveness &live);
/* SSA interference, or overlapping intervals where the values differ in
 * width, bit size or group, or either one is SIMD-global.
 */
bool regs_interfere(const value *a, const value *b, const liveness &live,
                    const dominance &dom);

} /* namespace ibis */
