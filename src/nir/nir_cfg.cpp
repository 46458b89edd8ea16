/*
 * Control-flow edges of the structured cf tree, as nir_control_flow.c
 * links them: a block flows into the if or loop after it, the end of a
 * then/else list into the block after the if, the end of a loop body into
 * the loop's continue target, and jumps where they say.
 */
#include <algorithm>
#include <array>

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
   function_impl &impl;
   std::vector<block *> order;

   void number(cf_list &list, cf_node *parent)
   {
      for (auto &node : list) {
         node->parent = parent;
         switch (node->type) {
         case cf_type::block:
            order.push_back(static_cast<block *>(node.get()));
            break;
         case cf_type::if_: {
            auto &nif = static_cast<if_ &>(*node);
            number(nif.then_list, &nif);
            number(nif.else_list, &nif);
            break;
         }
         case cf_type::loop: {
            auto &l = static_cast<loop &>(*node);
            number(l.body, &l);
            number(l.continue_list, &l);
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
   static cf_node *next_in(const cf_list &list, const cf_node *node)
   {
      for (size_t i = 0; i + 1 < list.size(); i++) {
         if (list[i].get() == node)
            return list[i + 1].get();
      }
      return nullptr;
   }

   cf_list &list_of(cf_node *node)
   {
      cf_node *p = node->parent;
      if (!p)
         return impl.body;
      if (p->type == cf_type::if_) {
         auto &nif = static_cast<if_ &>(*p);
         for (auto &n : nif.then_list) {
            if (n.get() == node)
               return nif.then_list;
         }
         return nif.else_list;
      }
      auto &l = static_cast<loop &>(*p);
      for (auto &n : l.body) {
         if (n.get() == node)
            return l.body;
      }
      return l.continue_list;
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
   static loop *enclosing_loop(cf_node *node)
   {
      for (cf_node *p = node->parent; p; p = p->parent) {
         if (p->type == cf_type::loop)
            return static_cast<loop *>(p);
      }
      return nullptr;
   }

   /* Where control goes after b, as nir_control_flow.c links it. */
   std::array<block *, 2> successors(const block *b)
   {
      const instr *last = b->instrs.empty() ? nullptr : b->instrs.back().get();
      cf_node *node = const_cast<block *>(b);
      if (last && last->type == instr_type::jump) {
         const jump_type kind = static_cast<const jump_instr *>(last)->kind;
         loop *l = enclosing_loop(node);
         switch (kind) {
         case jump_type::return_:
         case jump_type::halt:
            return {impl.end_block.get(), nullptr};
         case jump_type::break_:
            return {l ? as_block(next_in(list_of(l), l)) : nullptr, nullptr};
         case jump_type::continue_:
            return {l ? continue_target(*l) : nullptr, nullptr};
         }
      }

      cf_list &list = list_of(node);
      if (cf_node *next = next_in(list, node)) {
         if (next->type == cf_type::if_) {
            auto &nif = static_cast<if_ &>(*next);
            return {first_block(nif.then_list), first_block(nif.else_list)};
         }
         if (next->type == cf_type::loop)
            return {first_block(static_cast<loop &>(*next).body), nullptr};
         return {nullptr, nullptr};
      }

      cf_node *parent = b->parent;
      if (!parent)
         return {impl.end_block.get(), nullptr};
      if (parent->type == cf_type::if_)
         return {as_block(next_in(list_of(parent), parent)), nullptr};
      auto &l = static_cast<loop &>(*parent);
      return {&list == &l.body ? continue_target(l) : first_block(l.body), nullptr};
   }
};

} /* anonymous namespace */

void
build_cfg(function_impl &impl)
{
   cfg_builder cb{impl, {}};
   cb.number(impl.body, nullptr);
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

std::array<block *, 2>
structured_successors(const function_impl &impl, const block &b)
{
   cfg_builder cb{const_cast<function_impl &>(impl), {}};
   return cb.successors(&b);
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
