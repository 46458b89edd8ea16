/*
 * And/or chains of compares into one flag.  brw computes
 * "if (a < b && c > d)" as two compares into registers and an and.nz into
 * the flag; a compare predicated on the flag of the one before it writes
 * only the channels where that one held and leaves the others false, so
 *
 *    %1:u32x8 = cmp.l a, b              %4:flagx8 = cmp.l a, b
 *    %2:u32x8 = cmp.g c, d       ->     (+%4) %3:flagx8 = cmp.g c, d
 *    _, %3:flagx8 = and.nz %1, %2
 *
 * is the same flag in one instruction fewer per link, and no registers
 * (brw's alpha test does "f &= cmp" the same way).  An or chain predicates
 * on the inverted flag.  The predicated write keeps its predicate's bits
 * in the other channels: the flag allocator gives it the predicate's
 * register, which dies there.
 *
 * A chain is a tree of and (or or) instructions of one block whose leaves
 * are compares, every bool in it read only by its parent and every leaf
 * reading values that cannot change (the compares move down to the root).
 * Scalar bools (SIMD1 NoMask, the same in every channel) may take part:
 * their compares run at the root's width.
 * Runs last in lower().  A SIMD32 chain stays whole through allocation
 * (ra_split keeps predicated flag writes whole) and code generation
 * writes each link as two SIMD16 halves of the flag pair.
 */
#include "lower/lower.h"

namespace ibis {

namespace {

/* A bool of the root's channels, or a scalar one (the same in every
 * channel), read only by in.
 */
bool
plain_bool(const operand &o, const instr *in)
{
   const value *v = o.val;
   if (!v || o.neg || o.abs || o.has_region || o.offset || type_bits(o.type) != 32 ||
       v->file != reg_file::ssa || v->uses().size() != 1 || !v->def() ||
       v->def()->parent() != in->parent())
      return false;
   const instr *d = v->def();
   if (v->width == 1)
      return d->exec_size == 1 && d->we_all();
   return v->width == in->exec_size && v->group == in->group &&
          d->exec_size == in->exec_size && d->group == in->group &&
          d->we_all() == in->we_all();
}

bool
fixed_source(const operand &o)
{
   if (o.is_imm())
      return true;
   const value *v = o.val;
   if (!v)
      return false;
   if (v->file == reg_file::uniform || v->file == reg_file::attr)
      return true;
   return v->file == reg_file::ssa && v->defs().size() == 1;
}

/* The leaves of the tree of op instructions under bool o, or false. */
bool
collect(const operand &o, const instr *parent, opcode op,
        std::vector<instr *> &leaves, std::vector<instr *> &inner)
{
   if (!plain_bool(o, parent))
      return false;
   instr *d = o.val->def();
   if (d->predicate() || d->flags & ~INSTR_WE_ALL ||
       d->num_dsts() != 1 || !d->preserve().is_null() || d->saturate ||
       (d->flag_def() && !d->flag_def()->uses().empty()))
      return false;
   if (d->op == opcode::cmp) {
      for (const operand &s : d->srcs()) {
         if (!fixed_source(s))
            return false;
         /* At the root's width a scalar compare must read scalars. */
         if (d->exec_size == 1 && !is_scalar_read(s))
            return false;
      }
      leaves.push_back(d);
      return true;
   }
   if (d->op != op || d->cmod != cond_mod::none)
      return false;
   inner.push_back(d);
   return collect(d->src(0), d, op, leaves, inner) &&
          collect(d->src(1), d, op, leaves, inner);
}

bool
rewrite(shader &s, instr *root)
{
   const opcode op = root->op;
   value *f = root->flag_def();
   if ((op != opcode::and_ && op != opcode::or_) || root->cmod != cond_mod::nz ||
       !f || root->predicate() || root->saturate ||
       (root->flags & ~INSTR_WE_ALL) || !root->preserve().is_null())
      return false;
   if (root->num_dsts() && !root->dst(0).is_null() &&
       (!root->dst(0).val || !root->dst(0).val->uses().empty()))
      return false;
   std::vector<instr *> leaves, inner;
   if (!collect(root->src(0), root, op, leaves, inner) ||
       !collect(root->src(1), root, op, leaves, inner))
      return false;

   value *prev = nullptr;
   for (size_t i = 0; i < leaves.size(); i++) {
      const instr *l = leaves[i];
      instr *c = s.create_instr(opcode::cmp, root->exec_size);
      c->group = root->group;
      c->flags = root->flags;
      c->cmod = l->cmod;
      for (const operand &o : l->srcs())
         c->add_src(o);
      value *out = i + 1 == leaves.size() ? f : s.create_value(reg_file::flag, data_type::flag,
                                                                f->width, 1, f->group);
      if (out == f)
         root->set_flag_def(nullptr);
      c->set_flag_def(out);
      if (prev)
         c->set_predicate(prev, op == opcode::or_);
      root->parent()->insert_before(root, c);
      prev = out;
   }
   root->remove();
   for (instr *in : inner)
      in->remove();
   for (instr *in : leaves)
      in->remove();
   return true;
}

} /* anonymous namespace */

bool
lower_flag_chains(shader &s)
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         progress |= rewrite(s, in);
      }
   }
   return progress;
}

} /* namespace ibis */
