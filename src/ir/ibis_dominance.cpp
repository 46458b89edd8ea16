/*
 * Dominator tree by the iterative algorithm of Cooper, Harvey and Kennedy
 * ("A Simple, Fast Dominance Algorithm"), near linear on structured CFGs.
 */
#include "ir/ibis_analysis.h"

namespace ibis {

dominance::dominance(shader &s)
{
   s.renumber();
   unsigned n = s.blocks().size();
   idom_.assign(n, nullptr);
   children_.assign(n, {});
   pre_.assign(n, UINT32_MAX);
   post_.assign(n, UINT32_MAX);
   if (!n)
      return;

   /* Post-order by an explicit-stack DFS from the entry. */
   std::vector<unsigned> rpo_num(n, UINT32_MAX);
   std::vector<block *> post;
   std::vector<std::pair<block *, unsigned>> stack{{s.entry(), 0}};
   std::vector<bool> seen(n);
   seen[0] = true;
   while (!stack.empty()) {
      auto &[b, next] = stack.back();
      if (next < b->succs.size()) {
         block *succ = b->succs[next++];
         if (!seen[succ->index]) {
            seen[succ->index] = true;
            stack.push_back({succ, 0});
         }
         continue;
      }
      post.push_back(b);
      stack.pop_back();
   }
   rpo_.assign(post.rbegin(), post.rend());
   for (unsigned i = 0; i < rpo_.size(); i++)
      rpo_num[rpo_[i]->index] = i;

   auto intersect = [&](block *a, block *b) {
      while (a != b) {
         while (rpo_num[a->index] > rpo_num[b->index])
            a = idom_[a->index];
         while (rpo_num[b->index] > rpo_num[a->index])
            b = idom_[b->index];
      }
      return a;
   };

   block *entry = s.entry();
   idom_[0] = entry;
   for (bool changed = true; changed;) {
      changed = false;
      for (block *b : rpo_) {
         if (b == entry)
            continue;
         block *new_idom = nullptr;
         for (block *p : b->preds) {
            if (rpo_num[p->index] == UINT32_MAX || !idom_[p->index])
               continue;
            new_idom = new_idom ? intersect(p, new_idom) : p;
         }
         if (idom_[b->index] != new_idom) {
            idom_[b->index] = new_idom;
            changed = true;
         }
      }
   }
   idom_[0] = nullptr;

   for (block *b : rpo_) {
      if (idom_[b->index])
         children_[idom_[b->index]->index].push_back(b);
   }

   /* Pre/post numbers on the tree make dominates() constant time. */
   uint32_t counter = 0;
   std::vector<std::pair<block *, unsigned>> walk{{entry, 0}};
   pre_[0] = counter++;
   while (!walk.empty()) {
      auto &[b, next] = walk.back();
      if (next < children_[b->index].size()) {
         block *c = children_[b->index][next++];
         pre_[c->index] = counter++;
         walk.push_back({c, 0});
         continue;
      }
      post_[b->index] = counter++;
      walk.pop_back();
   }
}

bool
dominance::dominates(const block *a, const block *b) const
{
   if (!reachable(a) || !reachable(b))
      return false;
   return pre_[a->index] <= pre_[b->index] && post_[b->index] <= post_[a->index];
}

bool
dominance::dominates(const instr *a, const instr *b) const
{
   if (a->parent() == b->parent())
      return a->ip <= b->ip;
   return dominates(a->parent(), b->parent());
}

} /* namespace ibis */
