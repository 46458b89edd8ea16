/*
 * NIR registers (decl_reg/load_reg/store_reg) back to SSA.
 *
 * The final form is out of SSA: values that cross blocks live in registers.
 * The translator emits blocks in program order and tells this class about
 * each edge as it creates it; a block is sealed once all its predecessors
 * are known (loop headers only after the loop's last block).  Reads in an
 * unsealed block get an operandless phi that is completed on sealing, and a
 * phi whose operands are all one value (or itself) is replaced by it, which
 * may make phis that use it trivial in turn.  The result is minimal and
 * pruned for reducible CFGs, which structured NIR always gives.
 */
#include <algorithm>

#include "from_nir/from_nir_private.h"

namespace ibis {

unsigned
ssa_rebuilder::add_var(data_type type, unsigned width)
{
   vars.push_back(var_info{type, width});
   return vars.size() - 1;
}

value *
ssa_rebuilder::resolve(value *v) const
{
   while (v && v->id < replaced.size() && replaced[v->id])
      v = replaced[v->id];
   return v;
}

value *
ssa_rebuilder::read(unsigned var, block *b)
{
   if (value *v = current.get(key(var, b)))
      return resolve(v);
   return read_recursive(var, b);
}

value *
ssa_rebuilder::new_phi(unsigned var, block *b)
{
   builder pb(sh);
   pb.at_start(b);
   value *v = pb.exec(vars[var].width).ssa(vars[var].type);
   instr *phi = pb.exec(vars[var].width).phi(v, {});
   if (vars[var].width == 1)
      phi->flags |= INSTR_WE_ALL;
   return v;
}

value *
ssa_rebuilder::undef(data_type type, unsigned width, block *b)
{
   builder ub(sh);
   ub.at_start(b);
   builder eb = ub.exec(width);
   if (width == 1)
      eb = eb.nomask();
   return eb.def(opcode::undef, type, {});
}

value *
ssa_rebuilder::read_recursive(unsigned var, block *b)
{
   value *v;
   const std::vector<block *> &p = at(preds, b);
   if (!at(sealed, b)) {
      v = new_phi(var, b);
      at(incomplete, b).push_back({var, v});
   } else if (p.empty()) {
      /* Entry or unreachable block: the variable is undefined here. */
      v = undef(vars[var].type, vars[var].width, b);
      if (b != sh->entry()) {
         if (v->id >= unreachable_undef.size())
            unreachable_undef.resize(v->id + 1);
         unreachable_undef[v->id] = 1;
      }
   } else if (p.size() == 1) {
      v = read(var, p[0]);
   } else {
      /* Break cycles through loops with an operandless phi first. */
      v = new_phi(var, b);
      write(var, b, v);
      v = add_phi_operands(var, v);
   }
   write(var, b, v);
   return v;
}

value *
ssa_rebuilder::add_phi_operands(unsigned var, value *phi)
{
   instr *in = phi->def();
   for (block *p : at(preds, in->parent()))
      in->add_src(operand(read(var, p)).as_type(vars[var].type));
   return try_remove_trivial(phi);
}

value *
ssa_rebuilder::try_remove_trivial(value *phi)
{
   instr *in = phi->def();
   value *same = nullptr;
   for (const operand &o : in->srcs()) {
      value *v = resolve(o.val);
      /* What arrives from an unreachable block never matters. */
      if (v == same || v == phi || has(unreachable_undef, v))
         continue;
      if (same)
         return phi;
      same = v;
   }
   if (!same) {
      /* Only reachable through itself: undefined. */
      same = undef(phi->type, phi->width, in->parent());
   }

   /* Reroute every use, remembering which phis might become trivial
    * (copies with room for the usual few: this runs for every phi).
    */
   small_vector<value *, 4> phi_users;
   const use_list uses = phi->uses();
   for (const use &u : uses) {
      if (u.in == in)
         continue;
      IBIS_CHECK(u.slot >= 0, "phi %%%u used as a predicate or preserve", phi->id);
      operand o = u.in->src(u.slot);
      o.val = same;
      u.in->set_src(u.slot, o);
      if (u.in->is_phi() && u.in->dst(0).val)
         phi_users.push_back(u.in->dst(0).val);
   }
   in->remove();
   if (phi->id >= replaced.size())
      replaced.resize(phi->id + 1);
   replaced[phi->id] = same;

   for (value *user : phi_users) {
      value *r = resolve(user);
      if (r == user && user->def() && user->def()->parent())
         try_remove_trivial(user);
   }
   return resolve(same);
}

void
ssa_rebuilder::seal(block *b)
{
   if (at(sealed, b))
      return;
   at(sealed, b) = 1;
   auto pending = std::move(at(incomplete, b));
   at(incomplete, b).clear();
   for (auto &[var, phi] : pending) {
      if (resolve(phi) == phi)
         add_phi_operands(var, phi);
   }
}

void
ssa_rebuilder::finish()
{
   /* Scratch lists reused from block to block. */
   std::vector<block *> a, c;
   std::vector<instr *> list;
   std::vector<operand> srcs;
   for (const auto &bp : sh->blocks()) {
      block *b = bp.get();
      const std::vector<block *> &mine = at(preds, b);
      a.assign(mine.begin(), mine.end());
      c.assign(b->preds.begin(), b->preds.end());
      std::sort(a.begin(), a.end());
      std::sort(c.begin(), c.end());
      IBIS_CHECK(a == c, "block%u: translator and CFG disagree on predecessors",
                 b->index);
      list.assign(b->instrs().begin(), b->instrs().end());
      for (instr *in : list) {
         /* Reads that phis turned out not to need. */
         if (in->op == opcode::undef && in->dst(0).val->uses().empty()) {
            in->remove();
            continue;
         }
         if (!in->is_phi())
            continue;
         srcs.clear();
         for (block *p : b->preds) {
            size_t i = std::find(mine.begin(), mine.end(), p) - mine.begin();
            srcs.push_back(in->src(i));
         }
         for (unsigned i = 0; i < srcs.size(); i++)
            in->set_src(i, srcs[i]);
      }
   }
}

} /* namespace ibis */
