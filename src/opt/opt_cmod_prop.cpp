/*
 * Conditional-modifier propagation: "f = cmp.nz x, 0" turns a boolean in a
 * GRF into a flag for a predicate.  Where x's definition can produce the
 * flag itself, the cmp goes:
 *
 *  - x = not y, the flag read only by predicates: the cmp tests y and the
 *    predicates are inverted, and then y's definition is looked at;
 *  - x written by a logic op (and, or, xor, not) of the same layout in the
 *    same block: the op takes the cmp's .nz/.z and defines f
 *    ("x, f = or.nz a, b"), as brw's cmod propagation does; a second such
 *    cmp reads the flag the first one moved there;
 *  - x written by a cmp of the same layout: its own flag is f (for .nz).
 *    A cmp that already has a flag value stands in for f; one whose flag
 *    nobody read defines f;
 *  - "f = cmp.<c> x, 0.0" of a float x, the cmp's value unread: x's
 *    definition, a float add/mul/mad/pln of the same layout
 *    and type in the same block, takes the test ("x, f = mad.l a, b, c"),
 *    as brw does: a conditional modifier compares the result with zero, so
 *    NaN and -0.0 test as the cmp would.  A negated x mirrors the test;
 *  - x a width-1 (uniform) cmp or and/or/xor of uniform sources read by a
 *    wider predicate: the same operation at the predicate's width makes
 *    the flag ("f = cmp.l a, b", "f = and.nz a, b" with no destination),
 *    and the scalar one dies when nothing else reads it.  This is what brw
 *    computes anyway, since it has no width-1 booleans.  A scalar bool of
 *    a scalar bit test ("b = cmp.nz (a & k), 0") goes on into the and when
 *    only such tests read it ("f = and.nz a, k").
 *
 * A definition takes over the flag only within its block and with no
 * other flag written in between, so no flag lives longer than the one the
 * cmp defined.  Runs before "dce", which removes the definitions left
 * unread.
 */
#include "opt/opt.h"

#include "opt/opt_util.h"

namespace ibis {

namespace {

/* Is in "f = cmp.nz x, 0" or "f = cmp.z x, 0" of a whole 32-bit integer x,
 * with no other effect?  Returns x.
 */
value *
flag_of_bool(const instr *in)
{
   if (in->op != opcode::cmp || !in->flag_def() || in->predicate() ||
       (in->cmod != cond_mod::nz && in->cmod != cond_mod::z) ||
       in->num_srcs() != 2 || in->saturate || in->has_side_effects())
      return nullptr;
   for (const operand &d : in->dsts()) {
      if (d.val && !d.val->uses().empty())
         return nullptr;
   }
   const operand &x = in->src(0), &zero = in->src(1);
   if (!zero.is_imm() || zero.imm != 0 || !x.val || x.neg || x.abs ||
       x.offset || x.val->file != reg_file::ssa || x.val->length != 1 ||
       x.val->defs().size() != 1 || type_is_float(x.type) ||
       type_bits(x.type) != 32 || x.val->bit_size() != 32)
      return nullptr;
   return x.val;
}

/* Does any instruction strictly between from and to write a flag? */
bool
flag_written_between(const instr *from, const instr *to)
{
   auto it = std::next(from->position());
   for (; it != to->position(); ++it) {
      const instr *in = *it;
      if (in->flag_def() || in->cmod != cond_mod::none || in->is_phi())
         return true;
   }
   return false;
}

/* Same block, same channels, from before to. */
bool
same_layout_before(const instr *def, const instr *in)
{
   return def->parent() == in->parent() && def->ip < in->ip &&
          def->exec_size == in->exec_size && def->group == in->group &&
          def->we_all() == in->we_all() && !def->predicate() &&
          def->preserve().is_null() && !def->saturate &&
          def->num_dsts() == 1 && !def->has_side_effects() &&
          !flag_written_between(def, in);
}

/* A source a wider instruction may read as it is: an immediate or a
 * scalar that no one writes again.
 */
bool
uniform_source(const operand &o)
{
   if (o.is_imm())
      return !type_is_vector_imm(o.type);
   if (!o.val || o.has_region)
      return false;
   switch (o.val->file) {
   case reg_file::uniform:
      return true;
   case reg_file::ssa:
      return o.val->width == 1;
   default:
      return false;
   }
}

bool propagate_to_def(instr *c, value *x);

/* Is every reader of x a test "cmp.nz/z x, 0"?  Then each can take the
 * operation defining x, and x dies.
 */
bool
only_tested(const value *x)
{
   for (const use &u : x->uses()) {
      const instr *in = u.in;
      if (u.slot != 0 || in->op != opcode::cmp || in->predicate() ||
          (in->cmod != cond_mod::nz && in->cmod != cond_mod::z) ||
          in->num_srcs() != 2 || !in->src(1).is_imm() || in->src(1).imm != 0 ||
          in->src(0).neg || in->src(0).abs || in->src(0).has_region ||
          in->src(0).offset)
         return false;
   }
   return true;
}

/* "f = cmp.nz (not y), 0" read only by predicates: "f = cmp.nz y, 0" read
 * by inverted predicates, so y's definition can then make the flag.
 */
bool
strip_not(instr *c, value *x)
{
   const instr *d = x->defs()[0];
   if (d->op != opcode::not_ || d->num_srcs() != 1 || d->predicate() ||
       d->saturate || d->cmod != cond_mod::none || d->flag_def() ||
       d->exec_size != x->width || d->group != x->group ||
       d->dst(0).offset || d->dst(0).has_region)
      return false;
   const operand &y = d->src(0);
   if (!y.val || y.val->file != reg_file::ssa || y.neg || y.abs || y.offset ||
       y.has_region || y.val->length != 1 || y.val->bit_size() != 32 ||
       y.val->width != x->width || y.val->group != x->group ||
       y.val->defs().size() != 1)
      return false;
   for (const use &u : c->flag_def()->uses()) {
      if (u.slot != use::predicate)
         return false;
   }
   operand o = y;
   o.type = c->src(0).type;
   c->set_src(0, o);
   std::vector<use> uses = c->flag_def()->uses();
   for (const use &u : uses)
      u.in->set_predicate(c->flag_def(), !u.in->pred_inv);
   return true;
}

/* "f = cmp.<c> x, 0.0" of a whole f32 x, the cmp's own value unread, or
 * null.
 */
value *
float_zero_test(const instr *in)
{
   if (in->op != opcode::cmp || !in->flag_def() || in->predicate() ||
       in->cmod == cond_mod::none || in->cmod == cond_mod::o ||
       in->cmod == cond_mod::u || in->num_srcs() != 2 || in->saturate ||
       in->has_side_effects())
      return nullptr;
   for (const operand &d : in->dsts()) {
      if (d.val && !d.val->uses().empty())
         return nullptr;
   }
   const operand &x = in->src(0), &zero = in->src(1);
   if (!zero.is_imm() || zero.imm != 0 || zero.type != data_type::f32 || !x.val ||
       x.abs || x.offset || x.has_region || x.type != data_type::f32 ||
       x.val->file != reg_file::ssa || x.val->length != 1 ||
       x.val->defs().size() != 1)
      return nullptr;
   return x.val;
}

/* "f = cmp.l x, 0.0" with x = mad a, b, c: "x, f = mad.l a, b, c". */
bool
propagate_float_test(instr *c, value *x)
{
   instr *d = x->defs()[0];
   switch (d->op) {
   /* The ones brw is seen to give a modifier; the rnd* ones' flag is not
    * a plain test of the result on every generation, so they stay out.
    */
   case opcode::add: case opcode::mul: case opcode::mad: case opcode::pln:
      break;
   default:
      return false;
   }
   if (!same_layout_before(d, c) || d->dst(0).val != x || d->dst(0).offset ||
       d->dst(0).has_region || d->dst(0).type != data_type::f32 ||
       d->cmod != cond_mod::none || d->flag_def())
      return false;
   value *f = c->flag_def();
   d->cmod = c->src(0).neg ? cond_mod_swapped(c->cmod) : c->cmod;
   c->set_flag_def(nullptr);
   c->remove();
   d->set_flag_def(f);
   return true;
}

bool
propagate(instr *c)
{
   if (value *fx = float_zero_test(c))
      return propagate_float_test(c, fx);
   value *x = flag_of_bool(c);
   if (!x)
      return false;
   bool progress = false;
   if (c->cmod == cond_mod::nz && strip_not(c, x)) {
      progress = true;
      x = flag_of_bool(c);
   }
   return propagate_to_def(c, x) || progress;
}

bool
propagate_to_def(instr *c, value *x)
{
   instr *d = x->defs()[0];
   value *f = c->flag_def();

   /* A scalar logic op of uniform sources read by a wider predicate: the
    * op itself at the predicate's width sets the flag ("and.nz f, a, b"
    * with no destination), as brw computes it.
    */
   if (x->width == 1 && c->exec_size > 1 && is_logic_op(d->op) &&
       d->op != opcode::not_ && d->exec_size == 1 && !d->predicate() &&
       !d->saturate && d->cmod == cond_mod::none && !d->flag_def() &&
       d->num_srcs() == 2 && !c->src(0).has_region &&
       uniform_source(d->src(0)) && uniform_source(d->src(1))) {
      instr *op = c->parent()->parent()->create_instr(d->op, c->exec_size);
      op->group = c->group;
      op->flags = c->flags & INSTR_WE_ALL;
      op->cmod = c->cmod;
      c->parent()->insert_before(c, op);
      op->add_src(d->src(0));
      op->add_src(d->src(1));
      c->set_flag_def(nullptr);
      c->remove();
      op->set_flag_def(f);
      return true;
   }

   /* A scalar comparison read by a wider predicate: compare here. */
   if (x->width == 1 && c->exec_size > 1 && d->op == opcode::cmp &&
       c->cmod == cond_mod::nz && d->exec_size == 1 && !d->predicate() &&
       !d->saturate && d->num_srcs() == 2 && d->cmod != cond_mod::none &&
       !c->src(0).has_region && uniform_source(d->src(0)) &&
       uniform_source(d->src(1))) {
      c->cmod = d->cmod;
      c->set_src(0, d->src(0));
      c->set_src(1, d->src(1));
      /* A test of a scalar logic op read by nothing else ("b = cmp.nz
       * (a & k), 0") goes on into the op: one "and.nz f, a, k", as brw's.
       * A shared one stays, its sources need not live on.
       */
      value *y = flag_of_bool(c);
      if (y && only_tested(y))
         propagate_to_def(c, y);
      return true;
   }

   if (!same_layout_before(d, c) || d->dst(0).val != x || d->dst(0).offset ||
       d->dst(0).has_region)
      return false;

   if (d->op == opcode::cmp && c->cmod == cond_mod::nz) {
      if (value *own = d->flag_def()) {
         c->set_flag_def(nullptr);
         c->remove();
         replace_uses(f, own);
      } else {
         c->set_flag_def(nullptr);
         c->remove();
         d->set_flag_def(f);
      }
      return true;
   }
   if (!is_logic_op(d->op) || type_is_float(d->dst(0).type))
      return false;
   if (d->cmod == c->cmod && d->flag_def()) {
      /* An earlier cmp.nz of x already moved its flag here. */
      c->set_flag_def(nullptr);
      c->remove();
      replace_uses(f, d->flag_def());
      return true;
   }
   if (d->cmod == cond_mod::none && !d->flag_def()) {
      d->cmod = c->cmod;
      c->set_flag_def(nullptr);
      c->remove();
      d->set_flag_def(f);
      return true;
   }
   return false;
}

} /* namespace */

bool
opt_cmod_prop(shader &s)
{
   s.renumber();
   return for_each_instr(s, propagate);
}

} /* namespace ibis */
