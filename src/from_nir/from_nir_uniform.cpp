/*
 * Which NIR defs become width-1 (uniform, SIMD-global) ibis values, and
 * which comparisons feed flags.
 *
 * NIR's divergence annotations ("con"/"div") are the starting point, but
 * they are not enough on their own once registers are rebuilt into SSA:
 * a "con" load_reg after a loop with a divergent break sees the value of
 * the iteration each channel left in, and a register stored under a
 * divergent if merges per-channel values.  So a def is uniform only when
 *   - NIR says con,
 *   - its kind can produce a SIMD-global value (ALU, constants, pushed or
 *     block-loaded constants, subgroup results that are uniform by nature),
 *   - all its sources are uniform (except the subgroup operations whose
 *     result is uniform by definition),
 *   - for load_reg: the register is uniform, i.e. NIR declares it so, every
 *     store writes a uniform value, and no SSA phi of it merges channels
 *     that took different paths (below),
 *   - it is not used outside a loop with a divergent exit that contains it.
 * These depend on each other (a divergent register makes an if divergent,
 * which makes other registers divergent), so they iterate to a fixpoint.
 *
 * Rebuilt into SSA, a register has phis only where paths join: after an
 * if, at a loop header and after a loop.  A phi that joins channels from
 * different paths holds per-channel values, so the register is divergent
 * when it is stored inside
 *   - an if with a divergent condition and live where the if ends,
 *   - a loop with a divergent break or continue and live after the loop
 *     (channels left in different iterations) or at its header (a
 *     continue skipped the stores after it),
 * whatever the stored values are.  A register stored and read only within
 * the region a divergent branch controls joins no such paths: every
 * channel that reads it saw the same stores.  Liveness is per register
 * (any store that does not write every component of an unarrayed register
 * keeps it live), which can only widen more.
 */
#include "from_nir/from_nir_private.h"
#include "from_nir/from_nir_alu.h"

namespace ibis {

namespace {

using nir::intrinsic_op;

/* Intrinsics whose result may be SIMD-global when NIR says "con" and the
 * sources are uniform.
 */
bool
intrinsic_may_be_uniform(intrinsic_op op)
{
   switch (op) {
   case intrinsic_op::load_ubo:
   case intrinsic_op::load_ubo_uniform_block_intel:
   case intrinsic_op::load_ssbo_uniform_block_intel:
   case intrinsic_op::load_shared_uniform_block_intel:
   case intrinsic_op::load_uniform:
   case intrinsic_op::load_push_constant:
   case intrinsic_op::load_reg:
   case intrinsic_op::load_workgroup_id:
   case intrinsic_op::load_workgroup_id_zero_base:
   case intrinsic_op::load_num_workgroups:
   case intrinsic_op::load_workgroup_size:
   case intrinsic_op::load_subgroup_id:
   case intrinsic_op::load_subgroup_size:
   case intrinsic_op::load_base_vertex:
   case intrinsic_op::load_base_instance:
   case intrinsic_op::load_first_vertex:
   case intrinsic_op::load_draw_id:
   case intrinsic_op::load_is_indexed_draw:
   case intrinsic_op::resource_intel:
   /* 25.0's derivatives, ALU opcodes in 23.3. */
   case intrinsic_op::ddx:
   case intrinsic_op::ddx_coarse:
   case intrinsic_op::ddx_fine:
   case intrinsic_op::ddy:
   case intrinsic_op::ddy_coarse:
   case intrinsic_op::ddy_fine:
      return true;
   default:
      return false;
   }
}

/* Subgroup operations whose result is the same in every channel whatever
 * the sources are.
 */
bool
intrinsic_uniform_by_nature(const nir::intrinsic_instr &in)
{
   switch (in.op) {
   case intrinsic_op::ballot:
   case intrinsic_op::vote_all:
   case intrinsic_op::vote_any:
   case intrinsic_op::vote_feq:
   case intrinsic_op::vote_ieq:
   case intrinsic_op::read_first_invocation:
   case intrinsic_op::first_invocation:
   case intrinsic_op::last_invocation:
      return true;
   case intrinsic_op::reduce:
      return in.index(nir::intrinsic_index::cluster_size) == 0;
   default:
      return false;
   }
}

class analysis {
public:
   explicit analysis(const nir::function_impl &impl) : impl(impl) {}

   nir_facts run();

private:
   const nir::function_impl &impl;
   nir_facts f;
   ptr_set<nir::def> divergent_regs;
   /* Loops with a divergent break or continue, and with a divergent
    * continue.
    */
   ptr_set<nir::loop> divergent_loops, divergent_continues;
   ptr_set<nir::def> forced;
   bool demotes = false, asks_helper = false;
   /* (def, block using it) for every source, including if conditions. */
   std::vector<std::pair<const nir::def *, const nir::block *>> uses;
   std::unordered_map<const nir::if_ *, const nir::block *> if_block;

   /* Register liveness over NIR blocks, one bit per decl_reg. */
   using bits = std::vector<bool>;
   std::unordered_map<const nir::def *, unsigned> reg_index;
   std::unordered_map<const nir::block *, bits> live_in;
   /* The registers stored inside each if and loop. */
   std::unordered_map<const nir::cf_node *, bits> stored_in;
   /* The blocks where an if's or loop's paths join: the block after it;
    * and a loop's header.
    */
   std::unordered_map<const nir::cf_node *, const nir::block *> after, header;

   void collect(const nir::cf_list &list, const nir::block *&prev);
   void register_liveness();
   void widen_joined(const nir::cf_node *n, const nir::block *join);
   bool pass();
   bool def_uniform(const nir::instr &in) const;
   void flags();
};

template <typename F>
void
for_each_src(const nir::instr &in, F fn)
{
   switch (in.type) {
   case nir::instr_type::alu:
      for (const nir::alu_src &s : static_cast<const nir::alu_instr &>(in).srcs)
         fn(s.ssa);
      break;
   case nir::instr_type::intrinsic:
      for (const nir::src &s : static_cast<const nir::intrinsic_instr &>(in).srcs)
         fn(s.ssa);
      break;
   case nir::instr_type::tex:
      for (const nir::tex_src &s : static_cast<const nir::tex_instr &>(in).srcs)
         fn(s.ssa);
      break;
   case nir::instr_type::phi:
      for (const nir::phi_src &s : static_cast<const nir::phi_instr &>(in).srcs)
         fn(s.ssa);
      break;
   default:
      break;
   }
}

void
analysis::collect(const nir::cf_list &list, const nir::block *&prev)
{
   for (const auto &node : list) {
      switch (node->type) {
      case nir::cf_type::block: {
         auto *b = static_cast<const nir::block *>(node.get());
         for (const auto &in : b->instrs) {
            for_each_src(*in, [&](const nir::def *d) { uses.push_back({d, b}); });
            if (in->type == nir::instr_type::intrinsic) {
               const auto op = static_cast<const nir::intrinsic_instr &>(*in).op;
               demotes |= op == nir::intrinsic_op::demote ||
                          op == nir::intrinsic_op::demote_if;
               asks_helper |= op == nir::intrinsic_op::is_helper_invocation;
            }
         }
         prev = b;
         break;
      }
      case nir::cf_type::if_: {
         auto *nif = static_cast<const nir::if_ *>(node.get());
         uses.push_back({nif->condition.ssa, prev});
         if_block[nif] = prev;
         collect(nif->then_list, prev);
         collect(nif->else_list, prev);
         break;
      }
      case nir::cf_type::loop: {
         auto *l = static_cast<const nir::loop *>(node.get());
         header[l] = nir::first_block(l->body);
         collect(l->body, prev);
         collect(l->continue_list, prev);
         break;
      }
      }
      /* Structured NIR follows every if and loop with a block. */
      if (node->type != nir::cf_type::block) {
         IBIS_CHECK(&node != &list.back() &&
                    (&node)[1]->type == nir::cf_type::block,
                    "an if or loop not followed by a block");
         after[node.get()] = static_cast<const nir::block *>((&node)[1].get());
      }
   }
}

void
analysis::register_liveness()
{
   std::vector<const nir::intrinsic_instr *> decls;
   std::vector<nir::block *> order = nir::blocks_in_order(impl);
   for (const nir::block *b : order) {
      for (const auto &in : b->instrs) {
         if (in->type == nir::instr_type::intrinsic &&
             static_cast<const nir::intrinsic_instr &>(*in).op == intrinsic_op::decl_reg) {
            reg_index[in->get_def()] = decls.size();
            decls.push_back(static_cast<const nir::intrinsic_instr *>(in.get()));
         }
      }
   }
   const size_t n = decls.size();

   /* Per block, by position in order, 64 registers a word: registers
    * read before any full store (gen), fully stored (kill), live in.
    */
   const size_t words = (n + 63) / 64;
   std::unordered_map<const nir::block *, unsigned> pos;
   for (unsigned i = 0; i < order.size(); i++)
      pos[order[i]] = i;
   std::vector<uint64_t> gen(order.size() * words, 0), kill(order.size() * words, 0);
   std::vector<uint64_t> live(order.size() * words, 0);
   auto has = [&](const std::vector<uint64_t> &set, unsigned i, unsigned r) {
      return (set[i * words + r / 64] >> (r % 64)) & 1;
   };
   auto put = [&](std::vector<uint64_t> &set, unsigned i, unsigned r) {
      set[i * words + r / 64] |= uint64_t(1) << (r % 64);
   };
   for (unsigned i = 0; i < order.size(); i++) {
      const nir::block *b = order[i];
      for (const auto &in : b->instrs) {
         if (in->type != nir::instr_type::intrinsic)
            continue;
         auto &ii = static_cast<const nir::intrinsic_instr &>(*in);
         bool load = ii.op == intrinsic_op::load_reg ||
                     ii.op == intrinsic_op::load_reg_indirect;
         bool store = ii.op == intrinsic_op::store_reg ||
                      ii.op == intrinsic_op::store_reg_indirect;
         if (!load && !store)
            continue;
         auto it = reg_index.find(ii.srcs[load ? 0 : 1].ssa);
         if (it == reg_index.end())
            continue;
         unsigned r = it->second;
         if (load) {
            if (!has(kill, i, r))
               put(gen, i, r);
            continue;
         }
         for (const nir::cf_node *p = b->parent; p; p = p->parent) {
            bits &st = stored_in[p];
            st.resize(n, false);
            st[r] = true;
         }
         const nir::intrinsic_instr &d = *decls[r];
         unsigned all = (1u << d.index(nir::intrinsic_index::num_components)) - 1;
         if (ii.op == intrinsic_op::store_reg &&
             d.index(nir::intrinsic_index::num_array_elems) == 0 &&
             (ii.index(nir::intrinsic_index::write_mask) & all) == all)
            put(kill, i, r);
      }
   }

   std::vector<std::array<int, 2>> succ(order.size(), {-1, -1});
   for (unsigned i = 0; i < order.size(); i++) {
      for (unsigned j = 0; j < 2; j++) {
         const nir::block *s = order[i]->succs[j];
         if (s)
            succ[i][j] = pos.at(s);
      }
   }
   std::vector<uint64_t> out(words);
   for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = order.size(); i-- > 0;) {
         std::fill(out.begin(), out.end(), 0);
         for (int s : succ[i]) {
            if (s < 0)
               continue;
            for (size_t w = 0; w < words; w++)
               out[w] |= live[s * words + w];
         }
         for (size_t w = 0; w < words; w++) {
            const size_t at = i * words + w;
            const uint64_t v = gen[at] | (out[w] & ~kill[at]);
            if (v & ~live[at]) {
               live[at] |= v;
               changed = true;
            }
         }
      }
   }
   for (unsigned i = 0; i < order.size(); i++) {
      bits &li = live_in[order[i]];
      li.assign(n, false);
      for (unsigned r = 0; r < n; r++)
         li[r] = has(live, i, r);
   }
}

/* Channels that took different paths through n meet at join: the
 * registers stored in n and live there are divergent.
 */
void
analysis::widen_joined(const nir::cf_node *n, const nir::block *join)
{
   auto st = stored_in.find(n);
   if (st == stored_in.end())
      return;
   const bits &li = live_in.at(join);
   for (auto &[reg, r] : reg_index) {
      if (st->second[r] && li[r])
         divergent_regs.insert(reg);
   }
}

bool
analysis::def_uniform(const nir::instr &in) const
{
   const nir::def *d = in.get_def();
   if (!d || d->divergent || forced.count(d))
      return false;
   bool srcs_uniform = true;
   for_each_src(in, [&](const nir::def *s) {
      if (!f.uniform.count(s))
         srcs_uniform = false;
   });

   switch (in.type) {
   case nir::instr_type::load_const:
   case nir::instr_type::undef:
      return true;
   case nir::instr_type::alu:
      return srcs_uniform;
   case nir::instr_type::intrinsic: {
      auto &ii = static_cast<const nir::intrinsic_instr &>(in);
      if (intrinsic_uniform_by_nature(ii))
         return true;
      if (ii.op == intrinsic_op::read_invocation)
         return f.uniform.count(ii.srcs[1].ssa);
      if (ii.op == intrinsic_op::load_reg)
         return !divergent_regs.count(ii.srcs[0].ssa);
      return intrinsic_may_be_uniform(ii.op) && srcs_uniform;
   }
   default:
      /* Texture results and phis (absent from the final form) are per
       * channel: the sampler runs at the dispatch width.
       */
      return false;
   }
}

bool
analysis::pass()
{
   /* Only these sets grow; uniform is recomputed from them each pass, so
    * a pass in which none grows leaves everything consistent.
    */
   size_t before = divergent_regs.size() + divergent_loops.size() +
                   divergent_continues.size() +
                   f.divergent_ifs.size() + forced.size();

   f.uniform.clear();
   for (const nir::block *b : nir::blocks_in_order(impl)) {
      for (const auto &in : b->instrs) {
         if (def_uniform(*in))
            f.uniform.insert(in->get_def());
         if (in->type != nir::instr_type::intrinsic)
            continue;
         auto &ii = static_cast<const nir::intrinsic_instr &>(*in);
         if (ii.op == intrinsic_op::decl_reg &&
             ii.index(nir::intrinsic_index::divergent))
            divergent_regs.insert(&ii.dest);
         if ((ii.op == intrinsic_op::store_reg ||
              ii.op == intrinsic_op::store_reg_indirect) &&
             !f.uniform.count(ii.srcs[0].ssa))
            divergent_regs.insert(ii.srcs[1].ssa);
         if (ii.op == intrinsic_op::load_reg_indirect ||
             ii.op == intrinsic_op::store_reg_indirect)
            divergent_regs.insert(ii.srcs[ii.op == intrinsic_op::load_reg_indirect ? 0 : 1].ssa);
      }
   }

   for (auto &[nif, b] : if_block) {
      if (!f.uniform.count(nif->condition.ssa))
         f.divergent_ifs.insert(nif);
   }

   /* A break or continue under a divergent if (inside its loop) makes the
    * loop's exit divergent.
    */
   for (const nir::block *b : nir::blocks_in_order(impl)) {
      if (b->instrs.empty() || b->instrs.back()->type != nir::instr_type::jump)
         continue;
      bool divergent = false;
      for (const nir::cf_node *n = b->parent; n; n = n->parent) {
         if (n->type == nir::cf_type::if_ &&
             f.divergent_ifs.count(static_cast<const nir::if_ *>(n)))
            divergent = true;
         if (n->type == nir::cf_type::loop) {
            auto *l = static_cast<const nir::loop *>(n);
            if (divergent) {
               divergent_loops.insert(l);
               if (static_cast<const nir::jump_instr &>(*b->instrs.back()).kind ==
                   nir::jump_type::continue_)
                  divergent_continues.insert(l);
            }
            break;
         }
      }
   }

   for (const nir::if_ *nif : f.divergent_ifs)
      widen_joined(nif, after.at(nif));
   /* Channels that broke out in different iterations meet after the loop.
    * A divergent break leaves the channels still in the loop on one path,
    * but channels that continued skipped the stores after the continue.
    */
   for (const nir::loop *l : divergent_loops)
      widen_joined(l, after.at(l));
   for (const nir::loop *l : divergent_continues)
      widen_joined(l, header.at(l));

   for (auto &[d, ub] : uses) {
      if (!d->parent || !d->parent->block)
         continue;
      for (const nir::cf_node *n = d->parent->block->parent; n; n = n->parent) {
         if (n->type != nir::cf_type::loop ||
             !divergent_loops.count(static_cast<const nir::loop *>(n)))
            continue;
         bool inside = false;
         for (const nir::cf_node *m = ub ? ub->parent : nullptr; m; m = m->parent)
            inside |= m == n;
         if (!inside)
            forced.insert(d);
      }
   }

   size_t grown = divergent_regs.size() + divergent_loops.size() +
                  divergent_continues.size() +
                  f.divergent_ifs.size() + forced.size();
   return grown != before;
}

/* Comparisons whose result feeds a predicate in the same block at the same
 * width define a flag as well; the 0/~0 value is kept only if something
 * else reads it.
 */
void
analysis::flags()
{
   ptr_set<nir::def> flag_use, value_use;
   auto use = [&](const nir::def *d, bool as_flag) {
      (as_flag ? flag_use : value_use).insert(d);
   };
   for (const nir::block *b : nir::blocks_in_order(impl)) {
      for (const auto &in : b->instrs) {
         if (in->type == nir::instr_type::alu) {
            auto &alu = static_cast<const nir::alu_instr &>(*in);
            bool csel = alu_is_bool_select(alu.op);
            for (unsigned i = 0; i < alu.srcs.size(); i++) {
               const nir::def *d = alu.srcs[i].ssa;
               bool same = d->parent && d->parent->block == b &&
                           f.uniform.count(d) == f.uniform.count(&alu.dest);
               use(d, csel && i == 0 && same);
            }
            continue;
         }
         if (in->type == nir::instr_type::intrinsic) {
            auto &ii = static_cast<const nir::intrinsic_instr &>(*in);
            bool pred = ii.op == intrinsic_op::discard_if ||
                        ii.op == intrinsic_op::demote_if ||
                        ii.op == intrinsic_op::terminate_if;
            for (const nir::src &s : ii.srcs) {
               bool same = s.ssa->parent && s.ssa->parent->block == b &&
                           !f.uniform.count(s.ssa);
               use(s.ssa, pred && same);
            }
            continue;
         }
         for_each_src(*in, [&](const nir::def *d) { use(d, false); });
      }
   }
   for (auto &[nif, b] : if_block) {
      const nir::def *d = nif->condition.ssa;
      use(d, d->parent && d->parent->block == b && !f.uniform.count(d));
   }
   for (const nir::def *d : flag_use) {
      if (!d->parent || d->parent->type != nir::instr_type::alu ||
          !alu_ends_in_cmp(static_cast<const nir::alu_instr *>(d->parent)->op))
         continue;
      f.want_flag.insert(d);
   }
   for (const nir::def *d : value_use)
      f.want_value.insert(d);
   /* A comparison without a flag use still needs its value. */
   for (const nir::def *d : flag_use) {
      if (!f.want_flag.count(d))
         f.want_value.insert(d);
   }
}

nir_facts
analysis::run()
{
   const nir::block *prev = nullptr;
   collect(impl.body, prev);
   f.helpers_see_demotes = demotes && asks_helper;
   register_liveness();
   for (unsigned i = 0; i < 32 && pass(); i++)
      ;
   for (const nir::block *b : nir::blocks_in_order(impl)) {
      for (const auto &in : b->instrs) {
         if (in->type == nir::instr_type::intrinsic &&
             static_cast<const nir::intrinsic_instr &>(*in).op == intrinsic_op::decl_reg &&
             !divergent_regs.count(in->get_def()))
            f.uniform_regs.insert(in->get_def());
      }
   }
   flags();
   return f;
}

} /* anonymous namespace */

nir_facts
analyze_nir(const nir::function_impl &impl)
{
   return analysis(impl).run();
}

} /* namespace ibis */
