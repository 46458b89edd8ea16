/*
 * Loop-invariant code motion.
 *
 * NIR for brw runs no such pass and brw's backend has none: an expression
 * of values defined before a loop is computed again on every iteration.
 * Computed once before the loop's do, it costs one execution instead of
 * one per iteration (the executed instructions of docs/check.md's
 * dynamic scoreboard) and no static instruction.
 *
 * What moves: ALU and math instructions writing one SSA value, with no
 * predicate, flag, accumulator, preserve or side effect, and scalar
 * (NoMask, width 1) constant-buffer loads, which have no effect and read
 * bounds-checked memory; every operand is an immediate, a preloaded value
 * (push constant, attribute, payload register never written) or an SSA
 * value defined outside the loop or by an instruction already moved.
 *
 * Where from: only blocks that dominate every back edge of the loop, so
 * the instruction ran on each iteration but perhaps the last one (a break
 * before it); moved, it runs once more at most, when every channel leaves
 * in the first iteration before reaching it.  A do loop's body runs at
 * least once, so nothing runs that never ran before.  Blocks in if-arms of
 * the loop stay: a thread may skip them in every iteration.
 *
 * Channels: before the do the enabled channels are a superset of those of
 * any iteration (channels leave by break, halt or continue, none come in),
 * so the moved instruction computes every channel it computed in the loop
 * and more; its operands, defined before the loop, hold those channels.
 * Readers through regions (another channel's data) read what they read.
 *
 * Where to: the end of the block before the do, when it falls through
 * into the do alone.  Loops are taken innermost first, so a value moved
 * out of an inner loop may move on out of the outer one.
 *
 * It runs twice: in the optimization pipeline, after cmod-prop (which
 * wants a boolean's definition next to its compare), and after lowering
 * and combine-constants, whose immediates loaded once where they dominate
 * their readers may sit in a loop.
 *
 * Register pressure: the moved value lives over the whole loop, while
 * its operands may die earlier.  No limit is applied: on the corpus no
 * program loses a width or spills (docs/passes.md).
 */
#include "opt/opt.h"

#include <unordered_set>

#include "ir/ibis_analysis.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

struct loop {
   unsigned header, latch;   /* block indices of the do and the while */
};

/* Loops in the order their while appears: inner loops first. */
std::vector<loop>
find_loops(const shader &s)
{
   std::vector<loop> loops;
   std::vector<unsigned> open;
   for (const auto &b : s.blocks()) {
      const instr *first = b->first(), *last = b->last();
      if (first && first->op == opcode::do_)
         open.push_back(b->index);
      if (last && last->op == opcode::while_ && !open.empty()) {
         loops.push_back({open.back(), b->index});
         open.pop_back();
      }
   }
   return loops;
}

} /* anonymous namespace */

bool
opt_licm(shader &s)
{
   const std::vector<loop> loops = find_loops(s);
   if (loops.empty())
      return false;

   dominance dom(s);
   std::vector<block *> blocks;
   for (const auto &b : s.blocks())
      blocks.push_back(b.get());

   bool progress = false;
   for (const loop &l : loops) {
      block *header = blocks[l.header];
      if (!dom.reachable(header))
         continue;
      /* The block falling into the do, and the back edges. */
      block *pre = nullptr;
      unsigned entries = 0;
      std::vector<block *> back;
      for (block *p : header->preds) {
         if (p->index >= l.header && p->index <= l.latch)
            back.push_back(p);
         else
            pre = p, entries++;
      }
      if (entries != 1 || back.empty() || pre->succs.size() != 1 ||
          pre->index + 1 != l.header)
         continue;

      std::unordered_set<const instr *> moved;
      auto invariant = [&](const value *v) {
         if (!v || v->is_preloaded() || v->file != reg_file::ssa)
            return v == nullptr || v->is_preloaded();
         const instr *d = v->def();
         const unsigned bi = d->parent()->index;
         return bi < l.header || bi > l.latch || moved.count(d) != 0;
      };

      for (unsigned bi = l.header; bi <= l.latch; bi++) {
         block *b = blocks[bi];
         if (!dom.reachable(b))
            continue;
         bool every_iteration = true;
         for (block *e : back)
            every_iteration &= dom.dominates(b, e);
         if (!every_iteration)
            continue;
         std::vector<instr *> order(b->instrs().begin(), b->instrs().end());
         for (instr *in : order) {
            if (!is_movable_expression(in, true))
               continue;
            bool ok = true;
            for (const operand &o : in->srcs())
               ok &= invariant(o.val);
            if (!ok)
               continue;
            pre->move_here(pre->before_jump(), in);
            moved.insert(in);
            progress = true;
         }
      }
   }
   return progress;
}

} /* namespace ibis */
