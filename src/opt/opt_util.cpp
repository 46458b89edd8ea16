#include "opt/opt_util.h"

#include <algorithm>

namespace ibis {

operand
use_operand(const use &u)
{
   if (u.slot == use::predicate)
      return operand(u.in->predicate());
   if (u.slot == use::preserve)
      return u.in->preserve();
   return u.in->src(u.slot);
}

void
set_use(const use &u, const operand &o)
{
   if (u.slot == use::predicate)
      u.in->set_predicate(o.val, u.in->pred_inv);
   else if (u.slot == use::preserve)
      u.in->set_preserve(o);
   else
      u.in->set_src(u.slot, o);
}

void
replace_uses(value *from, value *to)
{
   /* set_use() edits from's use list: work on a copy. */
   std::vector<use> uses = from->uses();
   for (const use &u : uses) {
      operand o = use_operand(u);
      o.val = to;
      set_use(u, o);
   }
}

std::vector<instr *>
wlr_writes(const value *v)
{
   std::vector<instr *> w = v->defs();
   std::sort(w.begin(), w.end(),
             [](const instr *a, const instr *b) { return a->ip < b->ip; });
   return w;
}

bool
is_identity_region(const operand &o, unsigned exec_size)
{
   if (!o.has_region)
      return true;
   const region &r = o.rgn;
   return r.hstride == 1 && (r.vstride == r.width || r.width == exec_size);
}

bool
is_logic_op(opcode op)
{
   return op == opcode::and_ || op == opcode::or_ || op == opcode::xor_ ||
          op == opcode::not_;
}

bool
fold_imm_mods(data_type t, uint64_t *imm, bool neg, bool abs, bool logic)
{
   unsigned bits = type_bits(t);
   if (type_is_vector_imm(t) || bits == 0)
      return false;
   uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
   if (logic) {
      if (abs)
         return false;
      if (neg)
         *imm = ~*imm & mask;
      return true;
   }
   uint64_t sign = 1ull << (bits - 1);
   if (type_is_float(t)) {
      if (abs)
         *imm &= ~sign;
      if (neg)
         *imm ^= sign;
      return true;
   }
   if (abs && type_is_signed_int(t) && (*imm & sign))
      *imm = (0 - *imm) & mask;
   if (neg)
      *imm = (0 - *imm) & mask;
   return true;
}

bool
const_operand(const operand &o, uint64_t *bits, bool logic)
{
   if (o.is_imm()) {
      *bits = o.imm;
      return !type_is_vector_imm(o.type);
   }
   if (!o.val || o.val->file != reg_file::ssa || o.offset)
      return false;
   const instr *d = o.val->def();
   if (!d || d->op != opcode::mov || d->num_dsts() != 1 || d->saturate ||
       d->predicate() || d->flag_def() || !d->preserve().is_null() ||
       !d->src(0).is_imm() || d->src(0).type != d->dst(0).type ||
       d->dst(0).offset || type_bits(d->src(0).type) != type_bits(o.type) ||
       type_is_vector_imm(d->src(0).type))
      return false;
   *bits = d->src(0).imm;
   return fold_imm_mods(o.type, bits, o.neg, o.abs, logic);
}

bool
for_each_instr(shader &s, bool (*fn)(instr *))
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      for (auto it = b->instrs().begin(); it != b->instrs().end();) {
         instr *in = *it++;
         progress |= fn(in);
      }
   }
   return progress;
}

instr *
replace_with_mov(instr *in, const operand &src, bool drop_cmod)
{
   shader *sh = in->parent()->parent();
   instr *mov = sh->create_instr(opcode::mov, in->exec_size);
   mov->group = in->group;
   mov->flags = in->flags & INSTR_WE_ALL;
   mov->saturate = in->saturate;
   value *flag = drop_cmod ? nullptr : in->flag_def();
   mov->cmod = drop_cmod ? cond_mod::none : in->cmod;
   operand dst = in->dst(0);
   in->parent()->insert_before(in, mov);
   in->remove();
   mov->add_dst(dst);
   mov->add_src(src);
   mov->set_flag_def(flag);
   return mov;
}

bool
is_movable_expression(const instr *in, bool scalar_loads)
{
   const opcode_info &info = in->info();
   const bool load = scalar_loads && in->op == opcode::uniform_block_read_logical &&
                     in->exec_size == 1 && in->we_all();
   if (!load && info.kind != opcode_kind::alu && info.kind != opcode_kind::math)
      return false;
   if (info.writes_accum || info.reads_accum || info.writes_flag ||
       in->has_side_effects() || in->predicate() || in->flag_def() ||
       in->preserve().val || in->num_dsts() != 1 || in->is_phi())
      return false;
   const value *d = in->dst().val;
   if (!d || d->file != reg_file::ssa || d->def() != in || d->uses().empty())
      return false;
   for (const operand &o : in->srcs()) {
      if (o.val && o.val->file != reg_file::ssa && !o.val->is_preloaded())
         return false;
      if (o.val && o.val->file == reg_file::ssa && !o.val->def())
         return false;
   }
   return true;
}

} /* namespace ibis */
