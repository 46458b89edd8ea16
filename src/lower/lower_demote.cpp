/*
 * discard (demote): the channel keeps running (its quad still computes
 * derivatives) but writes no pixel.  brw keeps the sample mask in f1.0 and
 * predicates the RT writes on it; ibis keeps it as an SSA variable
 * `alive` (~0 or 0 per channel): ~0 at entry, and each discard makes
 * `(-%f) sel alive, 0` (0 where the discard's predicate holds).  Phis are
 * placed at the iterated dominance frontier of the blocks that change it
 * and the uses renamed along the dominator tree (Cytron et al.), so the
 * variable follows divergent control flow like any other value.  brw also
 * halts a quad once all four of its channels are demoted; ibis lets them
 * run, which changes no result.
 */
#include "lower/lower_private.h"

#include <algorithm>
#include <set>

#include "ir/ibis_analysis.h"

namespace ibis::lowering {

namespace {

struct renamer {
   shader &s;
   const dominance &dom;
   std::vector<instr *> phis;     /* per block index, or null */
   value *undef_val = nullptr;
   instr *first_write;
   value *at_write = nullptr;

   void walk(block *b, value *cur)
   {
      if (instr *phi = phis[b->index])
         cur = phi->dst().val;
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         if (in == first_write)
            at_write = cur;
         if (writes_memory(in->op) && in->predicate()) {
            /* A store on the pixel mask: demoted channels are out too. */
            builder bb(&s);
            bb.before(in);
            const builder eb = bb.exec(in->exec_size, in->group);
            value *m = eb.ssa(data_type::u32);
            eb.predicated(in->predicate(), in->pred_inv)
               .sel(operand(m), operand(cur), operand::imm_u32(0));
            in->set_predicate(eb.cmp(cond_mod::nz, operand(m), operand::imm_u32(0)));
            continue;
         }
         if (in->op != opcode::discard)
            continue;
         builder bb(&s);
         bb.before(in);
         const builder eb = bb.exec(in->exec_size, in->group);
         value *next;
         if (in->predicate()) {
            next = eb.ssa(data_type::u32);
            eb.predicated(in->predicate(), !in->pred_inv)
               .sel(operand(next), operand(cur), operand::imm_u32(0));
         } else {
            next = eb.mov(data_type::u32, operand::imm_u32(0));
         }
         cur = next;
         in->remove();
      }
      for (block *succ : b->succs) {
         instr *phi = phis[succ->index];
         if (!phi)
            continue;
         for (unsigned i = 0; i < succ->preds.size(); i++)
            if (succ->preds[i] == b)
               phi->set_src(i, operand(cur));
      }
      for (block *c : dom.children(b))
         walk(c, cur);
   }
};

} /* anonymous namespace */

value *
lower_demotes(shader &s, instr *first_write)
{
   std::set<block *> defs;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (in->op == opcode::discard)
            defs.insert(b.get());
   if (defs.empty())
      return nullptr;
   if (!first_write)
      throw error("lower: discard in a shader without a render-target write");

   s.rebuild_cfg();
   dominance dom(s);
   block *entry = s.entry();
   defs.insert(entry);

   /* Dominance frontiers (Cooper, Harvey, Kennedy). */
   const size_t nb = s.blocks().size();
   std::vector<std::set<block *>> df(nb);
   for (const auto &bp : s.blocks()) {
      block *b = bp.get();
      if (b->preds.size() < 2 || !dom.reachable(b))
         continue;
      for (block *p : b->preds) {
         if (!dom.reachable(p))
            continue;
         for (block *r = p; r && r != dom.idom(b); r = dom.idom(r))
            df[r->index].insert(b);
      }
   }

   renamer rn{s, dom, std::vector<instr *>(nb, nullptr), nullptr, first_write};
   builder eb(&s);
   eb.at_start(entry);
   const builder full = eb.exec(s.dispatch_width);
   rn.undef_val = full.undef(data_type::u32);
   value *start = full.mov(data_type::u32, operand::imm_u32(~0u));

   /* Phis at the iterated dominance frontier. */
   std::vector<block *> work(defs.begin(), defs.end());
   while (!work.empty()) {
      block *b = work.back();
      work.pop_back();
      for (block *f : df[b->index]) {
         if (rn.phis[f->index])
            continue;
         builder pb(&s);
         pb.at_start(f);
         /* Phis go first, after the endif/do marker. */
         std::vector<operand> srcs(f->preds.size(), operand(rn.undef_val));
         value *v = s.create_value(reg_file::ssa, data_type::u32,
                                   s.dispatch_width);
         block::iterator pos = f->begin();
         if (pos != f->end() && (*pos)->is_block_start())
            ++pos;
         instr *phi = s.create_instr(opcode::phi, s.dispatch_width);
         phi->add_dst(operand(v));
         for (const operand &o : srcs)
            phi->add_src(o);
         f->insert(pos, phi);
         rn.phis[f->index] = phi;
         work.push_back(f);
      }
   }
   rn.walk(entry, start);
   if (rn.undef_val->uses().empty())
      rn.undef_val->def()->remove();
   return rn.at_write;
}

} /* namespace ibis::lowering */
