/*
 * Empty arms of an if/else: an else-arm with nothing but a few ALU
 * instructions for the phis at the endif goes with its else, those
 * instructions moving before the if; a then-arm like that goes the same
 * way once the if's predicate is inverted ("if (c) {} else {X}" is
 * "if (!c) {X}").  Each saves the else and the NOP code generation puts
 * before the endif.
 *
 * The phis at the endif keep their sources: the edge from the removed arm
 * now comes straight from the if-block (the one edge of structured flow
 * that skips the then-arm), and every value that reached the end of the
 * removed arm is defined in a block dominating the if.  Out of SSA copies
 * such an edge's value before the if for every channel, and the arm that
 * remains overwrites its own channels (docs/ra.md, Out of SSA).
 *
 * The moved work (the phi copies too) is at most max_hoisted
 * instructions, and none under a uniform if (a jump): all channels take
 * one side there, and the work saves one jump when its side is taken and
 * runs for nothing when the other is.
 */
#include "opt/opt.h"

#include <algorithm>
#include <map>

#include "ir/ibis_analysis.h"

namespace ibis {

namespace {

/* Instructions an arm may hold and still go: computed for every channel
 * before the if, they cost no more than the else and the NOP they save.
 */
const unsigned max_hoisted = 8;

struct arm {
   instr *if_instr;
   instr *else_instr;
   block *if_block;
   block *removed;    /* the removed arm's one block */
   block *kept;       /* the block ending the other arm, its edge to the join */
   block *join;
   bool invert;
   instr *at = nullptr;   /* where the removed arm's instructions go */
};

/* Whether b holds only ALU instructions (but skip) whose results only the
 * phis at join and each other read: at most a few, moved before the if.
 * A flag they write is only read among them.
 */
bool
hoistable(const block *b, const block *join, const instr *skip)
{
   unsigned n = 0;
   for (const instr *in : b->instrs()) {
      if (in == skip)
         continue;
      const opcode_info &info = in->info();
      if (info.kind != opcode_kind::alu || info.writes_accum ||
          info.reads_accum || in->has_side_effects() || in->preserve().val ||
          in->num_dsts() > 1 || (in->num_dsts() == 0 && !in->flag_def()) ||
          ++n > max_hoisted)
         return false;
      if (in->predicate() && in->predicate()->def()->parent() != b)
         return false;
      if (const value *f = in->flag_def()) {
         if (f->defs().size() != 1)
            return false;
         for (const use &u : f->uses()) {
            if (u.in->parent() != b)
               return false;
         }
      }
      if (in->num_dsts() == 0)
         continue;
      const value *d = in->dst().val;
      if (!d || d->file != reg_file::ssa)
         return false;
      for (const use &u : d->uses()) {
         if (u.in->parent() != b && !(u.in->is_phi() && u.in->parent() == join))
            return false;
      }
   }
   return true;
}

/* The work removing arm b (but skip) moves before the if, where it runs
 * for both sides: its instructions and a copy for each phi at join.
 * Under an if whose channels all go one way (a jump,
 * codegen_uniform_branches.cpp) that saves one jump on b's side and runs
 * for nothing on the other, so there only an arm without any goes.
 * Otherwise it saves the else and the NOP where the channels diverge and
 * costs the work where they all take the other side: at most
 * max_hoisted (glamor/7, 85: ten phis at each endif of a chain of ifs).
 */
unsigned
moved_work(const block *b, const block *join, const instr *skip)
{
   unsigned n = 0;
   for (const instr *in : b->instrs())
      n += in != skip;
   for (const instr *in : join->instrs())
      n += in->is_phi();
   return n;
}

/* Moves in, unchanged, in front of pos. */
void
move_before(shader &s, instr *in, instr *pos)
{
   instr *m = s.create_instr(in->op, in->exec_size);
   m->group = in->group;
   m->saturate = in->saturate;
   m->cmod = in->cmod;
   m->flags = in->flags;
   std::vector<operand> dsts = in->dsts(), srcs = in->srcs();
   value *pred = in->predicate(), *flag = in->flag_def();
   bool inv = in->pred_inv;
   in->remove();
   for (const operand &d : dsts)
      m->add_dst(d);
   for (const operand &o : srcs)
      m->add_src(o);
   if (flag)
      m->set_flag_def(flag);
   if (pred)
      m->set_predicate(pred, inv);
   pos->parent()->insert_before(pos, m);
}

/* Where an arm's instructions go in the if-block: before the if, or, when
 * they write a flag, before the definition of the if's own flag, so that
 * the two are not live together (when every value they read is defined
 * there already).
 */
instr *
hoist_point(const block *removed, instr *in_if)
{
   bool flags = false;
   for (const instr *in : removed->instrs())
      flags |= in->flag_def() != nullptr;
   const value *c = in_if->predicate();
   instr *def = c && c->defs().size() == 1 ? c->defs()[0] : nullptr;
   if (!flags || !def || def->parent() != in_if->parent())
      return in_if;
   for (const instr *in : removed->instrs()) {
      for (const operand &o : in->srcs()) {
         if (!o.val)
            continue;
         for (const instr *d : o.val->defs()) {
            if (d->parent() == def->parent() && d->ip >= def->ip)
               return in_if;
         }
      }
   }
   return def;
}

/* The block starting with the endif of the if/else whose else ends b. */
block *
join_of(const shader &s, const block *b)
{
   unsigned depth = 0;
   for (size_t i = b->index + 1; i < s.blocks().size(); i++) {
      block *c = s.blocks()[i].get();
      const instr *first = c->first();
      if (first && first->op == opcode::endif) {
         if (depth == 0)
            return c;
         depth--;
      }
      const instr *last = c->last();
      if (last && last->op == opcode::if_)
         depth++;
   }
   return nullptr;
}

/* The arms whose removal keeps the estimated pressure within the register
 * file.  The removed arm's copy now runs before the if, so its register
 * is taken over the whole arm that stays: free when the source dies at the
 * if (the copy coalesces), one more value there when the source lives on
 * or is no SSA value.  Without this the SIMD16 dolphin ubershaders no
 * longer allocate (MaxLive 124 -> 26 values without a register).
 */
std::vector<arm>
within_registers(shader &s, const std::vector<arm> &arms)
{
   const unsigned grfs = 128;
   s.renumber();
   liveness live(s, false, live_detail::sets);
   /* The registers each arm adds first: only the blocks of the arms that
    * add some need their pressure.
    */
   std::vector<unsigned> extras;
   std::vector<uint8_t> weigh(s.blocks().size(), 0);
   for (const arm &a : arms) {
      const block *first =
         s.blocks()[(a.invert ? a.removed->index : a.if_block->index) + 1].get();
      unsigned extra = 0;
      for (const instr *in : a.join->instrs()) {
         if (!in->is_phi())
            continue;
         for (unsigned j = 0; j < in->num_srcs(); j++) {
            if (a.join->preds[j] != a.removed)
               continue;
            const value *v = in->src(j).val;
            if (!v || v->file != reg_file::ssa || live.live_in(first).has(v) ||
                (v->def() && v->def()->parent() == a.removed))
               extra += value_grfs(in->dst().val);
         }
      }
      extras.push_back(extra);
      /* From the if to the instruction before the endif. */
      if (extra)
         std::fill(weigh.begin() + a.if_block->index, weigh.begin() + a.join->index, 1);
   }
   register_pressure rp = compute_pressure(live, &weigh);
   /* What the arms taken so far add at each instruction. */
   std::vector<unsigned> added(rp.at.size(), 0);
   std::vector<arm> keep;
   for (size_t i = 0; i < arms.size(); i++) {
      const arm &a = arms[i];
      const unsigned extra = extras[i];
      if (extra) {
         const unsigned from = a.if_instr->ip;
         const unsigned to = std::min<size_t>(a.join->first()->ip, rp.at.size());
         unsigned peak = 0;
         for (unsigned ip = from; ip < to; ip++)
            peak = std::max(peak, rp.at[ip] + added[ip]);
         if (peak + extra > grfs)
            continue;
         for (unsigned ip = from; ip < to; ip++)
            added[ip] += extra;
      }
      keep.push_back(a);
   }
   return keep;
}

} /* namespace */

bool
opt_empty_else(shader &s)
{
   std::vector<arm> arms;
   const auto &blocks = s.blocks();
   for (size_t i = 1; i + 2 < blocks.size(); i++) {
      block *b = blocks[i].get();
      instr *e = b->last();
      if (!e || e->op != opcode::else_)
         continue;
      block *if_block = nullptr;
      for (block *p : blocks[i + 1]->preds) {
         if (p->last() && p->last()->op == opcode::if_)
            if_block = p;
      }
      block *join = join_of(s, b);
      if (!if_block || !join || join->preds.size() != 2)
         continue;
      instr *in_if = if_block->last();
      block *after_else = blocks[i + 1].get();
      const unsigned limit =
         uniform_flag_def(in_if->predicate()) ? 0 : max_hoisted;
      if (blocks[i + 2].get() == join && hoistable(after_else, join, nullptr) &&
          moved_work(after_else, join, nullptr) <= limit) {
         /* Nothing to keep between else and endif. */
         arms.push_back({in_if, e, if_block, after_else, b, join, false});
      } else if (if_block->index + 1 == b->index && in_if->predicate() &&
                 hoistable(b, join, e) && moved_work(b, join, e) <= limit) {
         /* Nothing to keep between if and else: the else-arm becomes the
          * then-arm.
          */
         block *else_end = join->preds[0] == b ? join->preds[1] : join->preds[0];
         arms.push_back({in_if, e, if_block, b, else_end, join, true});
      }
   }
   if (arms.empty())
      return false;

   arms = within_registers(s, arms);
   if (arms.empty())
      return false;
   /* Before anything moves: instruction numbers are still in order. */
   for (arm &a : arms)
      a.at = hoist_point(a.removed, a.if_instr);

   /* Each phi's source by the block its edge leaves. */
   std::map<instr *, std::map<block *, operand>> by_pred;
   for (const arm &a : arms) {
      for (instr *in : a.join->instrs()) {
         if (!in->is_phi())
            continue;
         for (unsigned j = 0; j < in->num_srcs() && j < a.join->preds.size(); j++)
            by_pred[in][a.join->preds[j]] = in->src(j);
      }
   }
   for (const arm &a : arms) {
      if (a.invert)
         a.if_instr->set_predicate(a.if_instr->predicate(),
                                   !a.if_instr->pred_inv);
      a.else_instr->remove();
      std::vector<instr *> moving(a.removed->instrs().begin(),
                                  a.removed->instrs().end());
      for (instr *in : moving)
         move_before(s, in, a.at);
   }
   s.rebuild_cfg();
   for (const arm &a : arms) {
      for (instr *in : a.join->instrs()) {
         if (!in->is_phi())
            continue;
         std::map<block *, operand> &old = by_pred[in];
         for (unsigned j = 0; j < in->num_srcs() && j < a.join->preds.size(); j++) {
            block *p = a.join->preds[j];
            /* The skipping edge brings the removed arm's value; the kept
             * arm's edge now leaves from the removed arm's block when that
             * block follows it (an empty else-arm).
             */
            block *was = p == a.if_block ? a.removed
                       : p == a.removed ? a.kept : p;
            in->set_src(j, old.at(was));
         }
      }
   }
   return true;
}

} /* namespace ibis */
