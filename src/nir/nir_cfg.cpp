/*
 * Control-flow edges of the structured cf tree, as nir_control_flow.c
 * links them: a block flows into the if or loop after it, the end of a
 * then/else list into the block after the if, the end of a loop body into
 * the loop's continue target, and jumps where they say.
 */
#include <algorithm>
#include <array>
#include <unordered_map>

#include "nir/nir.h"
#include "util/ibis_error.h"

namespace ibis::nir {

block *
first_block(const cf_list &list)
{
   if (list.empty() || list.front()->type != cf_type::block)
      return nullptr;
   return static_cast<block *>(list.front().get());
}

block *
last_block(const cf_list &list)
{
   if (list.empty() || list.back()->type != cf_type::block)
      return nullptr;
   return static_cast<block *>(list.back().get());
}

namespace {

struct cfg_builder {
   /* Where a node sits: its list, its position there, its parent. */
   struct place {
      const cf_list *list;
      size_t pos;
      cf_node *parent;
   };

   const function_impl &impl;
   std::vector<block *> order;
   std::unordered_map<const cf_node *, place> where;

   /* Walks the tree; the nodes' own parent pointers are only written when
    * set_parents is true, and never read.
    */
   cfg_builder(const function_impl &i, bool set_parents) : impl(i)
   {
      number(const_cast<cf_list &>(impl.body), nullptr, set_parents);
   }

   void number(cf_list &list, cf_node *parent, bool set_parents)
   {
      for (size_t i = 0; i < list.size(); i++) {
         cf_node *node = list[i].get();
         if (set_parents)
            node->parent = parent;
         where[node] = {&list, i, parent};
         switch (node->type) {
         case cf_type::block:
            order.push_back(static_cast<block *>(node));
            break;
         case cf_type::if_: {
            auto &nif = static_cast<if_ &>(*node);
            number(nif.then_list, &nif, set_parents);
            number(nif.else_list, &nif, set_parents);
            break;
         }
         case cf_type::loop: {
            auto &l = static_cast<loop &>(*node);
            number(l.body, &l, set_parents);
            number(l.continue_list, &l, set_parents);
            break;
         }
         }
      }
   }

   static block *continue_target(const loop &l)
   {
      return l.continue_list.empty() ? first_block(l.body)
                                     : first_block(l.continue_list);
   }

   /* The node after `node` in its list, or nullptr. */
   cf_node *next_of(const cf_node *node) const
   {
      const place &p = where.at(node);
      return p.pos + 1 < p.list->size() ? (*p.list)[p.pos + 1].get() : nullptr;
   }

   static block *as_block(cf_node *n)
   {
      return n && n->type == cf_type::block ? static_cast<block *>(n) : nullptr;
   }

   static void link(block *from, block *a, block *b = nullptr)
   {
      from->succs = {a, b};
      if (a)
         a->preds.push_back(from);
      if (b && b != a)
         b->preds.push_back(from);
   }

   /* The innermost loop around node, or nullptr. */
   loop *enclosing_loop(const cf_node *node) const
   {
      for (cf_node *p = where.at(node).parent; p; p = where.at(p).parent) {
         if (p->type == cf_type::loop)
            return static_cast<loop *>(p);
      }
      return nullptr;
   }

   /* Where control goes after b, as nir_control_flow.c links it. */
   std::array<block *, 2> successors(const block *b) const
   {
      const instr *last = b->instrs.empty() ? nullptr : b->instrs.back().get();
      if (last && last->type == instr_type::jump) {
         const jump_type kind = static_cast<const jump_instr *>(last)->kind;
         loop *l = enclosing_loop(b);
         switch (kind) {
         case jump_type::return_:
         case jump_type::halt:
            return {impl.end_block.get(), nullptr};
         case jump_type::break_:
            return {l ? as_block(next_of(l)) : nullptr, nullptr};
         case jump_type::continue_:
            return {l ? continue_target(*l) : nullptr, nullptr};
         }
      }

      if (cf_node *next = next_of(b)) {
         if (next->type == cf_type::if_) {
            auto &nif = static_cast<if_ &>(*next);
            return {first_block(nif.then_list), first_block(nif.else_list)};
         }
         if (next->type == cf_type::loop)
            return {first_block(static_cast<loop &>(*next).body), nullptr};
         return {nullptr, nullptr};
      }

      cf_node *parent = where.at(b).parent;
      if (!parent)
         return {impl.end_block.get(), nullptr};
      if (parent->type == cf_type::if_)
         return {as_block(next_of(parent)), nullptr};
      auto &l = static_cast<loop &>(*parent);
      const bool in_body = where.at(b).list == &l.body;
      return {in_body ? continue_target(l) : first_block(l.body), nullptr};
   }
};

} /* anonymous namespace */

void
build_cfg(function_impl &impl)
{
   cfg_builder cb(impl, true);
   impl.end_block->parent = nullptr;
   cb.order.push_back(impl.end_block.get());
   for (unsigned i = 0; i < cb.order.size(); i++) {
      cb.order[i]->index = i;
      cb.order[i]->preds.clear();
      cb.order[i]->succs = {nullptr, nullptr};
      for (auto &in : cb.order[i]->instrs)
         in->block = cb.order[i];
   }
   for (block *b : cb.order) {
      if (b == impl.end_block.get())
         continue;
      const std::array<block *, 2> succs = cb.successors(b);
      cb.link(b, succs[0], succs[1]);
   }
   for (block *b : cb.order) {
      std::sort(b->preds.begin(), b->preds.end(),
                [](const block *x, const block *y) { return x->index < y->index; });
   }
}

static void
collect_blocks(const cf_list &list, std::vector<block *> &out)
{
   for (const auto &node : list) {
      switch (node->type) {
      case cf_type::block:
         out.push_back(static_cast<block *>(node.get()));
         break;
      case cf_type::if_: {
         const auto &nif = static_cast<const if_ &>(*node);
         collect_blocks(nif.then_list, out);
         collect_blocks(nif.else_list, out);
         break;
      }
      case cf_type::loop: {
         const auto &l = static_cast<const loop &>(*node);
         collect_blocks(l.body, out);
         collect_blocks(l.continue_list, out);
         break;
      }
      }
   }
}

std::vector<block *>
blocks_in_order(const function_impl &impl)
{
   std::vector<block *> out;
   collect_blocks(impl.body, out);
   out.push_back(impl.end_block.get());
   return out;
}

std::unordered_map<const block *, std::array<block *, 2>>
structured_successors(const function_impl &impl)
{
   cfg_builder cb(impl, false);
   std::unordered_map<const block *, std::array<block *, 2>> succs;
   for (const block *b : cb.order)
      succs[b] = cb.successors(b);
   return succs;
}

function_impl *
entrypoint(const shader &s)
{
   for (const auto &f : s.functions) {
      if (f->impl && f->name == "main")
         return f->impl.get();
   }
   for (const auto &f : s.functions) {
      if (f->impl)
         return f->impl.get();
   }
   return nullptr;
}

} /* namespace ibis::nir */
