/*
 * Copy propagation.  A copy is a mov (or copy) of a whole SSA or FLAG value
 * without saturate, conditional modifier, predicate, preserve source or type
 * change.  Its source may be:
 *
 *  - a value of the same layout (width, group, bit size): SSA, ATTR, FLAG,
 *    or a WLR value.  A WLR value is read by a copy only after its final
 *    write (the validator's rule), and nothing writes it afterwards, so the
 *    whole value stands in for the copy wherever the copy is read.  The
 *    writes of a WLR sequence are never copies themselves: they are partial
 *    and the value is not complete between them.
 *  - a scalar (a width-1 value, or a <0,1,0> region): the copy broadcasts
 *    it, and only ALU and math sources may read a scalar region instead.
 *    Sends, payloads and phis need the full-width value.
 *  - an immediate: only where Gen9 encodes one (src0 of mov, src1 of the
 *    two-source ALU opcodes below, never three-source align16 or sends),
 *    commuting or swapping the comparison to move it to src1.
 *
 * neg/abs of the copy fold into ALU consumers that read the same type and
 * support source modifiers.  HW_REG and accumulator sources are never
 * propagated: they may be written again before the use.
 *
 * Blocks are visited in reverse post-order, so a chain of copies resolves
 * in one walk; each operand is looked at a bounded number of times.
 *
 * Then the other way round: a broadcast that sources cannot take (a payload
 * reads it) of a width-1 ALU result read by nothing else is computed at the
 * broadcast's width instead ("x:f32x1 = mov.sat u; y:f32x8 = mov x" becomes
 * "y = mov.sat u", as brw writes it): one instruction for two.
 */
#include "opt/opt.h"

#include "ir/ibis_analysis.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

struct copy_src {
   operand src;
   bool broadcast;    /* one element for every channel */
};

bool
same_layout(const value *a, const value *b)
{
   return a->width == b->width && a->group == b->group &&
          a->bit_size() == b->bit_size();
}

/* A phi whose every source is the same operand copies it, whichever edge
 * the join comes in by: translation's copies into both arms of an if that
 * copy-prop resolved ("%p = phi %6[3], %6[3]").  Its source's definition
 * dominates every predecessor, so it dominates the phi's readers too.  A
 * phi that reads itself is no copy.
 */
bool
is_trivial_phi(const instr *in)
{
   if (in->op != opcode::phi || in->num_dsts() != 1 || in->num_srcs() == 0)
      return false;
   const operand &s = in->src(0);
   for (unsigned i = 1; i < in->num_srcs(); i++) {
      if (in->src(i) != s)
         return false;
   }
   return s.val && s.val != in->dst(0).val;
}

bool
get_copy(const instr *in, copy_src *c)
{
   if ((in->op != opcode::mov && in->op != opcode::copy && !is_trivial_phi(in)) ||
       in->num_dsts() != 1 || (in->op != opcode::phi && in->num_srcs() != 1))
      return false;
   if (in->saturate || in->cmod != cond_mod::none || in->flag_def() ||
       in->predicate() || !in->preserve().is_null() ||
       (in->flags & INSTR_SIDE_EFFECTS))
      return false;
   const operand &d = in->dst(0);
   const operand &s = in->src(0);
   if (!d.val || (d.val->file != reg_file::ssa && d.val->file != reg_file::flag))
      return false;
   if (d.offset || d.has_region || d.type != s.type || d.val->length != 1 ||
       in->exec_size != d.val->width || in->group != d.val->group ||
       s.is_null())
      return false;

   c->src = s;
   if (s.is_imm()) {
      c->broadcast = true;
      return !type_is_vector_imm(s.type);
   }

   const value *v = s.val;
   if (v->file != reg_file::ssa && v->file != reg_file::wlr &&
       v->file != reg_file::uniform && v->file != reg_file::attr &&
       v->file != reg_file::flag)
      return false;
   if (type_bits(s.type) != v->bit_size() ||
       (v->file == reg_file::flag && (s.neg || s.abs)))
      return false;

   bool scalar = (v->width == 1 && !s.has_region) || is_scalar_region(s);
   if (scalar && !(d.val->width == 1 && v->width == 1)) {
      c->broadcast = true;
      return true;
   }
   c->broadcast = false;
   return same_layout(v, d.val) && s.offset % v->component_bytes() == 0 &&
          (!s.has_region || (in->group == 0 && is_identity_region(s, in->exec_size)));
}

/* After backend_instruction::can_do_source_mods(), plus the logic ops,
 * whose negate is a bitwise not on Gen8+.
 */
bool
can_do_source_mods(const instr *in)
{
   if (in->info().kind != opcode_kind::alu && in->info().kind != opcode_kind::math)
      return false;
   switch (in->op) {
   case opcode::addc: case opcode::subb:
   case opcode::bfe: case opcode::bfi1: case opcode::bfi2: case opcode::bfrev:
   case opcode::cbit: case opcode::fbh: case opcode::fbl:
   case opcode::math_idiv: case opcode::math_irem: case opcode::math_idivrem:
      return false;
   default:
      return !is_logic_op(in->op);
   }
}

/* Two-source opcodes whose src1 may be an immediate on Gen9. */
bool
takes_imm_src1(const instr *in)
{
   switch (in->op) {
   case opcode::sel: case opcode::and_: case opcode::or_: case opcode::xor_:
   case opcode::shr: case opcode::shl: case opcode::asr:
   case opcode::cmp: case opcode::cmpn:
   case opcode::add: case opcode::mul: case opcode::avg:
   case opcode::bfi1: case opcode::addc: case opcode::subb:
   case opcode::math_pow: case opcode::math_idiv: case opcode::math_irem:
   case opcode::math_idivrem:
      return true;
   default:
      return false;
   }
}

cond_mod
swapped_cmod(cond_mod c)
{
   switch (c) {
   case cond_mod::z: case cond_mod::nz: return c;
   case cond_mod::g: return cond_mod::l;
   case cond_mod::ge: return cond_mod::le;
   case cond_mod::l: return cond_mod::g;
   case cond_mod::le: return cond_mod::ge;
   default: return cond_mod::none;
   }
}

/* Swaps src0 and src1 keeping the result, or returns false. */
bool
swap_sources(instr *in, data_type imm_type)
{
   const operand a = in->src(0), b = in->src(1);
   switch (in->op) {
   case opcode::mul:
      /* A DW times a narrower integer needs the DW in src0 (SKL PRM). */
      if (!type_is_float(imm_type) && type_bits(imm_type) == 32 &&
          type_bits(b.type) < 32)
         return false;
      break;
   case opcode::add: case opcode::avg: case opcode::addc:
   case opcode::and_: case opcode::or_: case opcode::xor_:
      break;
   case opcode::sel:
      /* A predicated sel picks src0 where the flag is set; sel.ge and
       * sel.l are max and min, commutative even with NaNs.
       */
      if (in->cmod == cond_mod::none && in->predicate())
         in->pred_inv = !in->pred_inv;
      else if (in->cmod != cond_mod::ge && in->cmod != cond_mod::l)
         return false;
      break;
   case opcode::cmp:
      if (swapped_cmod(in->cmod) == cond_mod::none)
         return false;
      in->cmod = swapped_cmod(in->cmod);
      break;
   default:
      return false;
   }
   in->set_src(0, b);
   in->set_src(1, a);
   return true;
}

bool
propagate_imm(instr *in, unsigned slot, const operand &u, const operand &s)
{
   unsigned bits = type_bits(u.type);
   if (bits != type_bits(s.type) || u.offset || bits == 8 ||
       (u.has_region && !is_scalar_region(u)))
      return false;
   /* Gen9 takes 64-bit immediates in mov only. */
   if (bits == 64 && in->op != opcode::mov)
      return false;
   uint64_t imm = s.imm;
   if ((u.neg || u.abs) &&
       (is_logic_op(in->op) || !fold_imm_mods(u.type, &imm, u.neg, u.abs)))
      return false;
   operand o = operand::imm_of(u.type, imm);

   if (in->op == opcode::mov) {
      in->set_src(slot, o);
      return true;
   }
   if (!takes_imm_src1(in) || in->num_srcs() != 2 || in->src(1 - slot).is_imm())
      return false;
   if (slot == 0 && !swap_sources(in, u.type))
      return false;
   in->set_src(1, o);
   return true;
}

/* A predicated sel without a modifier only picks one source's bits, so
 * its type is free: an integer one (NIR's b32csel) reading a negated or
 * absolute float copy becomes a float one that takes the modifier
 * ("(+f) sel -x, x", as brw writes it).  Only where the other source and
 * the destination carry no modifiers of their own.
 */
/* Whether the float sel would read o as the same bits: a float sel with
 * a modifier is no raw copy, Gen flushes a denormal source.  Integer bits
 * (every small integer is a float denormal) are not float data; the
 * negated value itself (brw's b32csel(x, -x)), a float value and a
 * normal float immediate are.
 */
bool
float_data(const operand &o, const operand &copied, unsigned depth = 0)
{
   if (o.is_imm()) {
      const uint32_t bits = uint32_t(o.imm);
      return (bits & 0x7f800000) || !(bits & 0x7fffffff);
   }
   if (!o.val)
      return false;
   if (o.val == copied.val || type_is_float(o.val->type))
      return true;
   const instr *d = o.val->def();
   if (!d || d->num_dsts() != 1)
      return false;
   if (type_is_float(d->dst(0).type))
      return true;
   /* An integer select between float data (b32csel of floats). */
   if (d->op != opcode::sel || d->cmod != cond_mod::none || d->num_srcs() != 2 ||
       depth >= 4)
      return false;
   return float_data(d->src(0), copied, depth + 1) &&
          float_data(d->src(1), copied, depth + 1);
}

bool
retype_select(instr *in, unsigned slot, const operand &copied)
{
   const data_type t = copied.type;
   if (in->op != opcode::sel || in->cmod != cond_mod::none || !in->predicate() ||
       in->flag_def() || in->saturate || in->num_srcs() != 2 || in->num_dsts() != 1 ||
       t != data_type::f32 || slot > 1 || !float_data(in->src(1 - slot), copied))
      return false;
   const operand &d = in->dst(0);
   if (type_bits(d.type) != 32 || type_is_float(d.type))
      return false;
   for (unsigned i = 0; i < 2; i++) {
      const operand &o = in->src(i);
      if (type_bits(o.type) != 32 || type_is_float(o.type) || o.neg || o.abs)
         return false;
      if (o.is_imm() && type_is_vector_imm(o.type))
         return false;
   }
   for (unsigned i = 0; i < 2; i++) {
      operand o = in->src(i);
      o.type = t;
      in->set_src(i, o);
   }
   operand nd = d;
   nd.type = t;
   in->set_dst(0, nd);
   return true;
}

bool
propagate_value(instr *in, unsigned slot, operand u, const copy_src &c)
{
   const operand &s = c.src;
   bool alu = in->info().kind == opcode_kind::alu ||
              in->info().kind == opcode_kind::math;
   if ((s.neg || s.abs) && u.type != s.type && retype_select(in, slot, s))
      u.type = s.type;
   if ((s.neg || s.abs) && (!can_do_source_mods(in) || u.type != s.type))
      return false;
   if (type_bits(u.type) != type_bits(s.type))
      return false;

   operand o = s;
   o.type = u.type;
   if (c.broadcast) {
      /* Every channel holds the same element: keep the scalar region. */
      if (!alu || u.offset % (type_bits(u.type) / 8))
         return false;
   } else {
      o.offset = s.offset + u.offset;
      o.rgn = u.rgn;
      o.has_region = u.has_region;
   }
   if (u.abs) {
      o.abs = true;
      o.neg = u.neg;
   } else {
      o.abs = s.abs;
      o.neg = s.neg != u.neg;
   }
   in->set_src(slot, o);
   return true;
}

/* "%f:f32 = mov %i:u16" (or s16) of a whole SSA value: every 16-bit
 * integer is a float exactly, and a Gen ALU instruction converts a source
 * to its execution type as it reads it (brw's get_exec_type()), so a
 * two-source float instruction may read the integer instead ("add %f,
 * 0.5" becomes "add %i:u16, 0.5:f32": the pixel centre from the thread
 * payload's coordinates).
 */
bool
get_conversion(const instr *in, operand *src)
{
   if (in->op != opcode::mov || in->num_dsts() != 1 || in->num_srcs() != 1 ||
       in->saturate || in->cmod != cond_mod::none || in->flag_def() ||
       in->predicate() || !in->preserve().is_null() || in->has_side_effects())
      return false;
   const operand &d = in->dst(0), &s = in->src(0);
   if (!d.val || d.val->file != reg_file::ssa || d.type != data_type::f32 ||
       d.offset || d.has_region || d.val->length != 1 ||
       in->exec_size != d.val->width || in->group != d.val->group)
      return false;
   if (!s.val || s.neg || s.abs ||
       (s.type != data_type::u16 && s.type != data_type::s16) ||
       type_bits(s.type) != s.val->bit_size())
      return false;
   const reg_file f = s.val->file;
   if (f != reg_file::ssa && f != reg_file::wlr && f != reg_file::uniform &&
       f != reg_file::attr)
      return false;
   *src = s;
   return true;
}

/* The float opcodes that convert an integer source on read and keep a
 * float execution type while their other source is float.  Not the
 * three-source ones (one source type in align16), nor math.
 */
bool
takes_converted_src(const instr *in)
{
   switch (in->op) {
   case opcode::add: case opcode::mul: case opcode::cmp:
      return true;
   case opcode::sel:
      return in->cmod == cond_mod::ge || in->cmod == cond_mod::l;
   default:
      return false;
   }
}

bool
propagate_conversion(instr *in, int slot, const operand &u, const instr *def,
                     const operand &s)
{
   if (slot < 0 || !takes_converted_src(in) || in->num_srcs() != 2 ||
       u.type != data_type::f32 || u.offset || u.has_region ||
       u.neg || u.abs || in->exec_size != def->exec_size || in->group != def->group)
      return false;
   /* The other source keeps the execution type float. */
   const operand &other = in->src(1 - slot);
   if (other.type != data_type::f32 || (other.is_imm() && slot == 1))
      return false;
   in->set_src(slot, s);
   return true;
}

bool
try_propagate(instr *in, int slot)
{
   operand u = use_operand(use{in, slot});
   if (!u.val || (u.val->file != reg_file::ssa && u.val->file != reg_file::flag))
      return false;
   const instr *def = u.val->def();
   operand conv;
   if (def && def != in && get_conversion(def, &conv))
      return propagate_conversion(in, slot, u, def, conv);
   copy_src c;
   if (!def || def == in || !get_copy(def, &c))
      return false;
   const operand &s = c.src;

   if (slot == use::predicate || slot == use::preserve) {
      /* Plain values only: no immediates, scalars or modifiers. */
      if (!s.val || c.broadcast || s.offset || s.neg || s.abs ||
          s.has_region || s.val->length != 1 ||
          s.val->file != u.val->file)
         return false;
      operand o = u;
      o.val = s.val;
      set_use(use{in, slot}, o);
      return true;
   }
   if (s.is_imm())
      return propagate_imm(in, slot, u, s);
   return propagate_value(in, slot, u, c);
}

/* A source a wider instruction reads as it is: an immediate, a push
 * constant, or a width-1 SSA value.
 */
bool
scalar_source(const operand &o)
{
   if (o.is_imm())
      return !type_is_vector_imm(o.type) && type_bits(o.type) <= 32;
   if (!o.val || o.has_region || type_bits(o.type) > 32)
      return false;
   return o.val->file == reg_file::uniform ||
          (o.val->file == reg_file::ssa && o.val->width == 1);
}

/* "x = op a, b {WE_all}" (width 1) and "y = mov x" its only reader, in
 * the same block: "y = op a, b" at the mov's width.  Not a mach, whose
 * accumulator a width-1 mul wrote for channel 0 only.
 */
bool
widen_broadcast_def(instr *mov)
{
   copy_src c;
   if (!get_copy(mov, &c) || !c.broadcast || c.src.is_imm() || !c.src.val ||
       c.src.val->file != reg_file::ssa || c.src.val->width != 1 ||
       c.src.val->length != 1 || c.src.offset || c.src.has_region ||
       c.src.neg || c.src.abs || c.src.val->uses().size() != 1 ||
       c.src.val->defs().size() != 1)
      return false;
   const operand &y = mov->dst(0);
   if (y.val->file != reg_file::ssa || mov->exec_size != y.val->width)
      return false;
   instr *d = c.src.val->defs()[0];
   if (d->parent() != mov->parent() || d->info().kind != opcode_kind::alu ||
       d->exec_size != 1 || d->num_dsts() != 1 || d->predicate() ||
       d->cmod != cond_mod::none || d->flag_def() || !d->preserve().is_null() ||
       d->has_side_effects() || d->info().reads_accum || d->info().writes_accum ||
       d->dst(0).val != c.src.val || d->dst(0).offset ||
       d->dst(0).has_region || type_bits(d->dst(0).type) != 32 ||
       type_bits(c.src.type) != 32)
      return false;
   for (unsigned i = 0; i < d->num_srcs(); i++) {
      if (!scalar_source(d->src(i)))
         return false;
   }
   instr *n = mov->parent()->parent()->create_instr(d->op, mov->exec_size);
   n->group = mov->group;
   n->flags = mov->flags & INSTR_WE_ALL;
   n->saturate = d->saturate;
   mov->parent()->insert_before(mov, n);
   for (unsigned i = 0; i < d->num_srcs(); i++)
      n->add_src(d->src(i));
   operand nd = y;
   nd.type = d->dst(0).type;
   mov->remove();
   d->remove();
   n->add_dst(nd);
   return true;
}

/* SIMD32 builds a converted value in SIMD16 halves: "%w = mov(16) %a;
 * %w.64 = mov(16+16) %b" (WLR f32x32 of u16 sources, the pixel
 * coordinates).  A full-width float instruction that is its only reader,
 * with an immediate or scalar other source, is done in the same halves
 * reading the integers (see get_conversion): "%d = add(16) %a, 0.5;
 * %d.64 = add(16+16) %b, 0.5", two instructions for the four the movs
 * and the split instruction take.  The movs go with dce.
 */
bool
fold_half_conversions(instr *in)
{
   shader &s = *in->parent()->parent();
   if (!takes_converted_src(in) || in->op == opcode::cmp || in->num_srcs() != 2 ||
       in->num_dsts() != 1 || in->predicate() || in->flag_def() ||
       !in->preserve().is_null() || in->exec_size != 32 || in->group != 0 ||
       (in->flags & INSTR_WE_ALL))
      return false;
   const operand &d = in->dst(0);
   if (!d.val || d.val->file != reg_file::ssa || d.type != data_type::f32 ||
       d.val->type != data_type::f32 || d.val->width != 32 || d.val->group != 0 ||
       d.val->length != 1 || d.offset || d.has_region)
      return false;
   for (unsigned i = 0; i < 2; i++) {
      const operand &w = in->src(i), &other = in->src(1 - i);
      if (!w.val || w.val->file != reg_file::wlr || w.type != data_type::f32 ||
          w.val->type != data_type::f32 || w.val->width != 32 || w.val->length != 1 ||
          w.offset || w.has_region || w.neg || w.abs || w.val->uses().size() != 1 ||
          w.val->defs().size() != 2)
         continue;
      if (other.type != data_type::f32 || !is_scalar_read(other) ||
          (other.is_imm() && i == 1))
         continue;
      operand half_src[2];
      bool ok = true;
      for (instr *h : w.val->defs()) {
         operand c;
         const operand &hd = h->dst(0);
         if (h->op != opcode::mov || h->num_dsts() != 1 || h->num_srcs() != 1 ||
             h->parent() != in->parent() || h->exec_size != 16 ||
             (h->group != 0 && h->group != 16) || h->saturate ||
             h->cmod != cond_mod::none || h->flag_def() || h->predicate() ||
             !h->preserve().is_null() || (h->flags & INSTR_WE_ALL) ||
             hd.has_region || hd.type != data_type::f32 ||
             hd.offset != h->group * 4)
            ok = false;
         const operand &c0 = h->src(0);
         if (!ok || !c0.val || c0.neg || c0.abs ||
             (c0.type != data_type::u16 && c0.type != data_type::s16) ||
             type_bits(c0.type) != c0.val->bit_size() ||
             (c0.val->file != reg_file::ssa && c0.val->file != reg_file::wlr &&
              c0.val->file != reg_file::uniform && c0.val->file != reg_file::attr)) {
            ok = false;
            break;
         }
         half_src[h->group / 16] = c0;
      }
      if (!ok || half_src[0].is_null() || half_src[1].is_null())
         continue;
      value *nd = s.create_value(reg_file::wlr, data_type::f32, 32);
      for (unsigned g = 0; g < 2; g++) {
         instr *n = s.create_instr(in->op, 16);
         n->group = 16 * g;
         n->cmod = in->cmod;
         n->saturate = in->saturate;
         in->parent()->insert_before(in, n);
         operand od(nd);
         od.offset = 64 * g;
         n->add_dst(od);
         n->add_src(i == 0 ? half_src[g] : other);
         n->add_src(i == 0 ? other : half_src[g]);
      }
      value *old = d.val;
      in->remove();
      replace_uses(old, nd);
      return true;
   }
   return false;
}

} /* anonymous namespace */

bool
opt_copy_prop(shader &s)
{
   dominance dom(s);
   bool progress = false;
   for (block *b : dom.rpo()) {
      for (instr *in : b->instrs()) {
         /* The sources as the instruction has them now, then the
          * predicate and the preserved source.
          */
         const int num_srcs = in->num_srcs();
         for (int i = 0; i < num_srcs + 2; i++) {
            const int slot = i < num_srcs ? i
                           : i == num_srcs ? int(use::predicate) : int(use::preserve);
            /* Copies of copies the walk has not reached (loop phis). */
            for (unsigned n = 0; n < 4 && try_propagate(in, slot); n++)
               progress = true;
         }
      }
   }
   for (block *b : dom.rpo()) {
      for (auto it = b->instrs().begin(); it != b->instrs().end();) {
         instr *in = *it++;
         progress |= widen_broadcast_def(in);
      }
   }
   if (s.dispatch_width == 32) {
      for (block *b : dom.rpo()) {
         for (auto it = b->instrs().begin(); it != b->instrs().end();) {
            instr *in = *it++;
            progress |= fold_half_conversions(in);
         }
      }
   }
   return progress;
}

} /* namespace ibis */
