/*
 * Sinking into the arm that reads a value.
 *
 * NIR leaves an expression where its source put it, often before an if
 * whose one arm alone reads it; brw keeps it there too.  A thread then
 * computes it also when no channel takes that arm, and the if jumps over
 * the arm.  Moving the expression into the arm costs nothing statically
 * and saves its execution whenever the arm is skipped (the executed
 * instructions of docs/check.md's dynamic scoreboard).
 *
 * An instruction sinks from its block D to X, the nearest common dominator
 * of its readers' blocks (a phi reads in its predecessor) when X lies in
 * an if-arm that D is not in: on the dominator-tree path from D to X some
 * block begins an arm.  X must not be in a loop D is not in (it would run
 * once per iteration); such an X is taken up the dominator tree to the
 * loop's depth.  The instruction goes before its first reader in X, or
 * before X's closing jump.
 *
 * What may move: ALU and math instructions writing one SSA value, with
 * no predicate, flag, accumulator, preserve or side effect, reading only
 * SSA values (their one definition dominates X), push constants,
 * attributes and immediates.  A value some reader takes through a region
 * (another channel's data) stays: in the arm only the channels enabled
 * there are computed.  Derivatives and other channel-crossing pseudo
 * instructions are not ALU instructions here.
 *
 * Instructions are visited last first and blocks in reverse dominator
 * order, so a chain sinks whole in one run: the reader first, then its
 * operands.  Cost: a dominator walk per moved candidate.
 */
#include "opt/opt.h"

#include <algorithm>

#include "ir/ibis_analysis.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

bool
movable(const instr *in)
{
   if (!is_movable_expression(in))
      return false;
   /* A width-1 value is computed for every channel only under NoMask. */
   if (in->exec_size == 1 && !in->we_all())
      return false;
   for (const use &u : in->dst().val->uses()) {
      if (u.slot < 0)
         return false;
      const operand &o = u.in->src(u.slot);
      if (o.has_region && !is_identity_region(o, u.in->exec_size))
         return false;
   }
   return true;
}

/* The block where use u reads: a phi's source is read at the end of the
 * corresponding predecessor.
 */
block *
use_block(const use &u)
{
   if (!u.in->is_phi())
      return u.in->parent();
   block *b = u.in->parent();
   return b->preds[u.slot];
}

block *
common_dominator(const dominance &dom, block *a, block *b)
{
   while (!dom.dominates(a, b))
      a = dom.idom(a);
   return a;
}

} /* anonymous namespace */

bool
opt_sink(shader &s)
{
   dominance dom(s);
   const unsigned n = s.blocks().size();

   /* Loop depth of each block, and whether it begins an if-arm (its one
    * predecessor ends with the if; an endif block is a join, not an arm).
    */
   std::vector<unsigned> depth(n, 0);
   std::vector<uint8_t> arm_start(n, 0);
   unsigned d = 0;
   for (const auto &bp : s.blocks()) {
      const block *b = bp.get();
      const instr *first = b->first();
      if (first && first->op == opcode::do_)
         d++;
      depth[b->index] = d;
      if (b->preds.size() == 1 && b->preds[0]->last() &&
          b->preds[0]->last()->op == opcode::if_ &&
          !(first && first->op == opcode::endif))
         arm_start[b->index] = 1;
      if (b->last() && b->last()->op == opcode::while_)
         d--;
   }

   bool progress = false;
   const std::vector<block *> &rpo = dom.rpo();
   for (auto bit = rpo.rbegin(); bit != rpo.rend(); ++bit) {
      block *from = *bit;
      std::vector<instr *> order(from->instrs().rbegin(), from->instrs().rend());
      for (instr *in : order) {
         if (!movable(in))
            continue;
         const value *v = in->dst().val;
         block *target = nullptr;
         for (const use &u : v->uses()) {
            block *b = use_block(u);
            target = target ? common_dominator(dom, target, b) : b;
         }
         if (target == from)
            continue;
         /* Up to the loop depth of the definition. */
         while (target != from && depth[target->index] > depth[from->index])
            target = dom.idom(target);
         /* Moving must enter an arm the definition is not in. */
         bool enters_arm = false;
         for (block *b = target; b != from; b = dom.idom(b))
            enters_arm |= arm_start[b->index] != 0;
         if (!enters_arm)
            continue;

         /* Before the first reader in target, else before its jump. */
         block::iterator pos = target->before_jump();
         for (auto it = target->after_phis(); it != target->end(); ++it) {
            if ((*it)->reads(v)) {
               pos = it;
               break;
            }
         }
         target->move_here(pos, in);
         progress = true;
      }
   }
   return progress;
}

} /* namespace ibis */
