/*
 * Rematerialization of values that pass through a loop.
 *
 * A value defined before a loop and read only after it holds its
 * registers during the whole loop, where the large ubershaders reach
 * their highest pressure: the pixel position + 0.5 (4 GRFs at SIMD16),
 * read only by the fog and the depth code after the TEV loop, and the
 * live mask's NoMask zero (2 GRFs), read after the last halt.  When such
 * a value is a small tree of cheap ALU instructions over program-
 * invariant operands (immediates, push constants, attributes, payload
 * registers never written), the tree is recomputed at the top of the
 * loop's exit block and every reader after the loop reads the copy; the
 * original then dies before the loop, or goes away.
 *
 * Only loops at the top level of the program (in no if, in no loop) are
 * considered, and only while no halt has appeared up to the loop's exit
 * block: the exit block then runs with the channels the program started
 * with, those of every top-level block the tree came from, so the copy
 * computes the same bits in every channel and is never skipped (the live
 * mask's zero is read through a preserve after the halts, where a copy
 * skipped with an all-halted block would leave garbage).  Nested trees
 * may have been computed under a narrower mask; the copy then defines
 * channels that were undefined, which no reader may rely on.
 */
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "sched/sched_private.h"

namespace ibis {

namespace {

/* Instructions a tree may hold at most: each reader block gets them all. */
constexpr unsigned max_tree = 8;

/* An instruction whose result depends only on its sources. */
bool
is_cheap_node(const instr *in)
{
   return in->info().kind == opcode_kind::alu && in->num_dsts() == 1 &&
          !in->predicate() && !in->flag_def() && !in->preserve().val &&
          !in->has_side_effects() && !in->info().writes_accum &&
          !in->info().reads_accum && in->cmod == cond_mod::none;
}

struct tree {
   std::vector<instr *> nodes;
   std::unordered_set<const value *> values;
};

/* Adds v's definitions (and theirs) to t; false when v is not such a
 * tree or t would grow too large.
 */
bool
collect(value *v, tree &t)
{
   if (t.values.count(v))
      return true;
   if (v->file != reg_file::ssa && v->file != reg_file::wlr)
      return false;
   const auto &defs = v->defs();
   if (defs.empty() || t.nodes.size() + defs.size() > max_tree)
      return false;
   const block *home = defs[0]->parent();
   for (instr *d : defs) {
      if (!is_cheap_node(d) || d->parent() != home || d->dst(0).val != v)
         return false;
   }
   t.values.insert(v);
   for (instr *d : defs) {
      t.nodes.push_back(d);
      for (const operand &o : d->srcs()) {
         if (is_program_invariant(o))
            continue;
         if (o.val == v || !collect(o.val, t))
            return false;
      }
   }
   return true;
}

} /* anonymous namespace */

std::vector<loop_range>
top_level_loops(const shader &s)
{
   std::vector<loop_range> loops;
   unsigned depth = 0, start = 0;
   for (const auto &b : s.blocks()) {
      const instr *first = b->first(), *last = b->last();
      if (first && first->op == opcode::endif && depth)
         depth--;
      if (first && first->op == opcode::do_) {
         if (depth == 0)
            start = b->index;
         depth++;
      }
      if (last && last->op == opcode::if_)
         depth++;
      if (last && last->op == opcode::while_ && depth) {
         depth--;
         if (depth == 0)
            loops.push_back({start, b->index});
      }
   }
   return loops;
}

unsigned
first_halt_block(const shader &s)
{
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         if (in->op == opcode::halt)
            return b->index;
      }
   }
   return s.blocks().size();
}

const block *
use_block(const use &u)
{
   return u.in->is_phi() ? u.in->parent()->preds[u.slot] : u.in->parent();
}

bool
remat_through_loops(shader &s)
{
   const std::vector<loop_range> loops = top_level_loops(s);
   if (loops.empty())
      return false;
   /* Loops must exit before the first halt. */
   const unsigned halt_block = first_halt_block(s);

   s.renumber();
   bool progress = false;
   for (const loop_range &l : loops) {
      if (l.last + 1 >= s.blocks().size() || l.last + 1 >= halt_block)
         break;
      block *exit = s.blocks()[l.last + 1].get();
      /* A value defined before a top-level loop and read after it is
       * live through it: every path between passes the loop.
       */
      std::vector<value *> through;
      for (unsigned bi = 0; bi < l.first; bi++) {
         for (const instr *in : s.blocks()[bi]->instrs()) {
            for (const operand &d : in->dsts()) {
               value *v = d.val;
               if (!v || !uses_grfs(v) || v->defs()[0] != in ||
                   (v->file != reg_file::ssa && v->file != reg_file::wlr))
                  continue;
               bool inside = false, after = false;
               for (const use &u : v->uses()) {
                  const unsigned ub = use_block(u)->index;
                  inside |= ub >= l.first && ub <= l.last;
                  after |= ub > l.last;
               }
               if (after && !inside)
                  through.push_back(v);
            }
         }
      }
      for (value *v : through) {
         /* Gone with the tree of a value processed before it. */
         if (v->defs().empty())
            continue;
         tree t;
         if (!collect(v, t))
            continue;
         /* Every node comes before the loop (they dominate v's
          * definitions); copy them in program order.
          */
         std::sort(t.nodes.begin(), t.nodes.end(),
                   [](const instr *a, const instr *b) { return a->ip < b->ip; });
         std::unordered_map<const value *, value *> copy_of;
         auto pos = exit->after_phis();
         for (const instr *n : t.nodes) {
            const value *old = n->dst(0).val;
            value *&nv = copy_of[old];
            if (!nv)
               nv = s.create_value(old->file, old->type, old->width,
                                   old->length, old->group);
            instr *c = s.create_instr(n->op, n->exec_size);
            c->group = n->group;
            c->saturate = n->saturate;
            c->flags = n->flags;
            for (operand o : n->srcs()) {
               if (o.val && copy_of.count(o.val))
                  o.val = copy_of[o.val];
               c->add_src(o);
            }
            operand d = n->dst(0);
            d.val = nv;
            c->add_dst(d);
            exit->insert(pos, c);
         }
         value *nv = copy_of[v];
         const std::vector<use> uses = v->uses();
         for (const use &u : uses) {
            if (use_block(u)->index <= l.last)
               continue;
            redirect_use(u, nv);
         }
         /* The originals nothing reads any more, last first. */
         for (auto it = t.nodes.rbegin(); it != t.nodes.rend(); ++it) {
            if ((*it)->dst(0).val->uses().empty())
               (*it)->remove();
         }
         progress = true;
      }
   }
   if (progress)
      s.renumber();
   return progress;
}

} /* namespace ibis */
