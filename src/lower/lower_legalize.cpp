/*
 * Legalization: rewrites what a Gen9 hardware piece could not encode
 * (the rules of ir/ibis_validate_lowered.cpp) with new SSA values.
 *
 * - Immediates: a three-source instruction takes none, a two-source one
 *   only in src1 (commutative operations and comparisons swap their
 *   sources instead), math none in src0, and 64-bit ones exist only for
 *   mov.  Anything else is loaded into a width-1 value by a NoMask mov(1)
 *   and read as a scalar.  A vector immediate (:v, :uv: 8 elements)
 *   stays in any piece: Gen repeats it every 8 channels (brw's pixel
 *   centers are an add(16) or add(32) of one).
 * - mul of a DW by a narrower integer has the DW in src0 (a DW immediate
 *   becomes a word when it fits, else a register); integer csel
 *   (Gen9's csel is F only) is a comparison and a predicated sel.
 * - Conversions between integers and HF (dword-strided destinations on
 *   Gen9) go through f32.
 * - Destinations narrower than the execution type (a u16 result of a
 *   dword operation) are computed into a value of the execution type's
 *   size and moved down with a strided read.
 */
#include "lower/lower_private.h"

#include <utility>

#include "ir/ibis_validate.h"

namespace ibis::lowering {

namespace {

bool
is_3src(const instr *in)
{
   return in->info().kind == opcode_kind::alu && in->info().num_srcs == 3;
}

/* The immediate as a scalar value, loaded just before `in`. */
operand
materialize(shader &s, instr *in, const operand &imm)
{
   builder b(&s);
   b.before(in);
   value *v = b.exec(1).nomask().mov(imm.type == data_type::v ? data_type::s16
                                     : imm.type == data_type::uv ? data_type::u16
                                     : imm.type == data_type::vf ? data_type::f32
                                     : imm.type, imm);
   return operand(v);
}

bool
legal_imm_slot(const instr *in, unsigned i)
{
   const unsigned n = in->num_srcs();
   const operand &o = in->src(i);
   if (is_3src(in))
      return false;
   if (type_bits(o.type) == 64 && in->op != opcode::mov)
      return false;
   if (in->info().kind == opcode_kind::math && i == 0)
      return false;
   return i + 1 == n;
}

void
legalize_immediates(shader &s, instr *in, const device_info &dev)
{
   const unsigned n = in->num_srcs();
   /* Two sources with the immediate first: swap when that keeps the
    * meaning.
    */
   if (n == 2 && in->src(0).is_imm() && !in->src(1).is_imm() &&
       in->info().kind == opcode_kind::alu) {
      const bool cmp = in->op == opcode::cmp || in->op == opcode::cmpn;
      const bool sel_pred = in->op == opcode::sel && in->predicate();
      if (in->info().commutative || cmp) {
         operand a = in->src(0), b = in->src(1);
         in->set_src(0, b);
         in->set_src(1, a);
         if (cmp)
            in->cmod = cond_mod_swapped(in->cmod);
         if (sel_pred)
            in->set_predicate(in->predicate(), !in->pred_inv);
      }
   }
   for (unsigned i = 0; i < n; i++) {
      const operand &o = in->src(i);
      if (o.is_imm() && !legal_imm_slot(in, i))
         in->set_src(i, materialize(s, in, o));
   }
}

/* mul of a DW by a narrower integer takes the DW in src0; integer csel
 * (Gen9's is F only) becomes a comparison and a predicated sel.
 */
void legalize_immediates(shader &s, instr *in, const device_info &dev);
void legalize_dst(shader &s, instr *in);

/* Returns the instruction that replaces `in`, or `in`. */
instr *
legalize_operations(shader &s, instr *in)
{
   if (in->op == opcode::mul && in->num_srcs() == 2) {
      /* A DW immediate times a narrower integer: the immediate cannot be
       * src0, so it becomes a word when the value fits one (as brw does),
       * else a scalar register, which may.
       */
      for (unsigned i = 0; i < 2; i++) {
         const operand k = in->src(i), x = in->src(1 - i);
         if (!k.is_imm() || x.is_imm() || type_is_float(k.type) || type_bits(k.type) != 32 ||
             type_is_float(x.type) || type_bits(x.type) >= 32)
            continue;
         const bool sx = type_is_signed_int(x.type);
         const int64_t v = type_is_signed_int(k.type) ? int64_t(int32_t(k.imm))
                                                      : int64_t(uint32_t(k.imm));
         const bool fits = sx ? v >= -32768 && v <= 32767 : v >= 0 && v <= 65535;
         in->set_src(i, fits ? operand::imm_of(sx ? data_type::s16 : data_type::u16,
                                               uint64_t(v))
                             : materialize(s, in, k));
      }
      const data_type t0 = in->src(0).type, t1 = in->src(1).type;
      if (!type_is_float(t1) && type_bits(t1) == 32 && type_bits(t0) < 32 &&
          !in->src(0).is_imm()) {
         operand a = in->src(0), b = in->src(1);
         in->set_src(0, b);
         in->set_src(1, a);
      }
   }
   if (in->op == opcode::mov && in->num_srcs() == 1 && !in->dsts().empty() &&
       in->src(0).val) {
      /* No direct conversion between 64-bit types and bytes (BDW+ PRM,
       * MOV; Mesa's EU validator): through a dword of the byte's sign.
       */
      const data_type dt = in->dst().type, st = in->src(0).type;
      /* (A byte from a qword goes through a dword in legalize_dst.) */
      if (type_bits(dt) == 64 && type_bits(st) == 8) {
         const data_type byte = st;
         builder b(&s);
         b.before(in);
         builder eb = b.exec(in->exec_size, in->group);
         if (in->we_all())
            eb = eb.nomask();
         value *dw = eb.mov(type_is_signed_int(byte) ? data_type::s32 : data_type::u32,
                            in->src(0));
         in->set_src(0, operand(dw));
      }
   }
   if (in->op == opcode::csel) {
      bool all_f = in->dst().type == data_type::f32;
      for (const operand &o : in->srcs())
         all_f &= o.type == data_type::f32;
      if (all_f)
         return in;
      builder b(&s);
      b.before(in);
      const builder eb = b.exec(in->exec_size, in->group);
      const builder fb = in->we_all() ? eb.nomask() : eb;
      const operand c = in->src(2);
      value *f = fb.cmp(in->cmod, c, operand::imm_of(c.type, 0));
      instr *sel = fb.predicated(f).sel(in->dst(), in->src(0), in->src(1));
      sel->saturate = in->saturate;
      in->remove();
      return sel;
   }
   return in;
}

/* 64-bit align16 sources cannot be replicated (RepCtrl, BDW PRM; Mesa's
 * EU validator): a scalar one (immediates are scalars by now) is spread
 * over the channels.  Code generation reads a SIMD1 one unreplicated.
 */
void
legalize_3src_64bit(shader &s, instr *in)
{
   if (!is_3src(in) || in->dsts().empty() || type_bits(in->dst().type) != 64 ||
       in->exec_size == 1)
      return;
   for (unsigned i = 0; i < in->num_srcs(); i++) {
      const operand o = in->src(i);
      const bool scalar = o.val && !o.is_imm() &&
                          (o.val->width == 1 || o.val->file == reg_file::uniform ||
                           (o.has_region && o.rgn.vstride == 0 && o.rgn.hstride == 0));
      if (!scalar)
         continue;
      builder b(&s);
      b.before(in);
      builder eb = b.exec(in->exec_size, in->group);
      if (in->we_all())
         eb = eb.nomask();
      in->set_src(i, operand(eb.mov(o.type, o)));
   }
}

/* A conversion between integers and HF must write dword-strided; it goes
 * through f32 instead (exact for every 16-bit value; wider integers that
 * round in f32 overflow HF anyway).
 */
void
legalize_int_hf(shader &s, instr *in)
{
   if (in->op != opcode::mov || in->dsts().empty() || !in->dst().val ||
       in->dst().has_region)
      return;
   const data_type dt = in->dst().type, st = in->src(0).type;
   const bool to_hf = dt == data_type::f16 && !type_is_float(st) &&
                      !type_is_vector_imm(st);
   const bool from_hf = st == data_type::f16 && !type_is_float(dt) &&
                        type_bits(dt) < 32;
   if (!to_hf && !from_hf)
      return;
   builder b(&s);
   b.before(in);
   builder eb = b.exec(in->exec_size, in->group);
   if (in->we_all())
      eb = eb.nomask();
   value *wide = eb.mov(data_type::f32, in->src(0));
   operand src(wide);
   in->set_src(0, src);
}

/* Bytes of the execution type, as the validator computes it. */
unsigned
exec_bytes(const instr *in)
{
   unsigned fb = 0, ib = 0;
   bool f16 = false, f32 = false;
   for (const operand &o : in->srcs()) {
      if (o.is_null())
         continue;
      if (o.type == data_type::v || o.type == data_type::uv)
         ib = std::max(ib, 2u);
      else if (o.type == data_type::vf || o.type == data_type::f32)
         fb = std::max(fb, 4u), f32 = true;
      else if (type_is_float(o.type))
         fb = std::max(fb, type_bits(o.type) / 8), f16 |= o.type == data_type::f16;
      else
         ib = std::max(ib, std::max(2u, type_bits(o.type) / 8));
   }
   if (!in->dsts().empty()) {
      f16 |= in->dst().type == data_type::f16;
      f32 |= in->dst().type == data_type::f32;
   }
   if (f16 && f32)
      return 0;   /* mixed float mode has its own rules */
   if (in->num_srcs() == 1 && fb == 2)
      return type_bits(in->dst().type) / 8;
   return fb ? fb : ib;
}

/* A destination narrower than the execution type: compute at the
 * execution type's size, then move the low part down.
 */
void
legalize_dst(shader &s, instr *in)
{
   if (in->dsts().empty() || in->dst().is_null() || !in->dst().val)
      return;
   const operand d = in->dst();
   const unsigned db = std::max(1u, type_bits(d.type) / 8);
   const unsigned eb = exec_bytes(in);
   if (!eb || eb <= db || d.has_region)
      return;
   const bool raw_byte_move = db == 1 && in->op == opcode::mov &&
                              !in->src(0).neg && !in->src(0).abs &&
                              !in->saturate && in->src(0).type == d.type;
   if (raw_byte_move) {
      /* Gen has no byte immediate: code generation writes a word one,
       * which makes the move a conversion, and only a raw move may write
       * packed bytes (Mesa's EU validator).  A scalar register holds the
       * byte instead, as brw copies through a register.
       */
      if (in->src(0).is_imm() && in->exec_size > 1)
         in->set_src(0, materialize(s, in, in->src(0)));
      return;
   }
   if (d.val->file != reg_file::ssa || d.offset || in->predicate() ||
       !in->preserve().is_null())
      throw error("lower: cannot legalize the narrow destination of '" +
                  in->str() + "'");
   /* An integer truncation is a read of the source's low parts: one mov
    * through a strided region instead of a copy at the wide type and a
    * strided mov of it (dolphin/efb2ram.fs SIMD16).
    */
   const operand &x = in->src(0);
   if (in->op == opcode::mov && !in->saturate && in->cmod == cond_mod::none &&
       !in->flag_def() && !type_is_float(d.type) && x.val && !x.is_imm() &&
       !x.neg && !x.abs && !x.has_region && !type_is_float(x.type) &&
       type_bits(x.type) / 8 == eb && x.val->bit_size() == type_bits(x.type) &&
       x.val->width == in->exec_size && x.val->group == in->group &&
       eb / db <= 4) {
      const unsigned n = std::min(8u, unsigned(in->exec_size));
      operand r = n == 1 ? x.with_region(0, 1, 0)
                         : x.with_region(n * (eb / db), n, eb / db);
      r.type = d.type;
      in->set_src(0, r);
      return;
   }
   /* Integer execution is at least a word: a byte result of a two-source
    * byte operation is computed as a word.
    */
   const data_type wide = type_is_float(d.type)
      ? (eb == 4 ? data_type::f32 : data_type::f64)
      : type_is_signed_int(d.type)
         ? (eb == 2 ? data_type::s16 : eb == 4 ? data_type::s32 : data_type::s64)
         : (eb == 2 ? data_type::u16 : eb == 4 ? data_type::u32 : data_type::u64);
   /* A float result is written strided, a partial write: a WLR value. */
   value *tmp = type_is_float(d.type)
      ? s.create_value(reg_file::wlr, d.type, in->exec_size, eb / db, in->group)
      : s.create_value(reg_file::ssa, wide, in->exec_size, 1, in->group);
   value *final_dst = d.val;
   const unsigned ratio = eb / db;
   const unsigned w = std::min(8u, unsigned(in->exec_size));
   /* An integer result is the low part of the wide one.  A float one is
    * not (f64 -> f32 converts): the instruction writes the narrow type
    * into every ratio-th element of the wide register, as the hardware
    * wants a destination stride for a wider execution type.
    */
   if (type_is_float(d.type))
      in->set_dst(0, operand(tmp).as_type(d.type).with_region(w * ratio, w, ratio));
   else
      in->set_dst(0, operand(tmp));
   builder b(&s);
   b.after(in);
   /* A byte from a qword would need a stride of 8 elements, more than a
    * region has (<64,8,8> is illegal): take the low dword first.
    */
   value *from = tmp;
   unsigned step = ratio;
   if (!type_is_float(d.type) && ratio > 4) {
      const data_type dw = type_is_signed_int(d.type) ? data_type::s32 : data_type::u32;
      operand lo = operand(tmp).as_type(dw);
      lo = w == 1 ? lo.with_region(0, 1, 0) : lo.with_region(w * 2, w, 2);
      instr *mv = b.exec(in->exec_size, in->group).mov(
         operand(from = s.create_value(reg_file::ssa, dw, in->exec_size, 1, in->group)), lo);
      if (in->we_all())
         mv->flags |= INSTR_WE_ALL;
      b.after(mv);
      step = ratio / 2;
   }
   operand low = operand(from).as_type(d.type);
   low = w == 1 ? low.with_region(0, 1, 0) : low.with_region(w * step, w, step);
   instr *mv = b.exec(in->exec_size, in->group).mov(operand(final_dst), low);
   if (in->we_all())
      mv->flags |= INSTR_WE_ALL;
}

/* A mov of src in place of in, with in's channels, flags and predicate. */
instr *
replace_by_mov(shader &s, instr *in, const operand &src)
{
   instr *mov = s.create_instr(opcode::mov, in->exec_size);
   mov->group = in->group;
   mov->flags = in->flags;
   in->parent()->insert_before(in, mov);
   const operand d = in->dst(0);
   value *pred = in->predicate();
   const bool inv = in->pred_inv;
   in->remove();
   mov->add_dst(d);
   mov->add_src(src);
   mov->set_predicate(pred, inv);
   return mov;
}

} /* anonymous namespace */

/* Whether v is read after in, in in's block or in another block. */
bool
read_later(const value *v, const instr *in, const instr *skip)
{
   for (const use &u : v->uses()) {
      if (u.in == skip || u.in == in)
         continue;
      if (u.in->parent() != in->parent())
         return true;
      bool after = false;
      for (const instr *i : in->parent()->instrs()) {
         if (i == in)
            after = true;
         else if (i == u.in && after)
            return true;
      }
   }
   return false;
}

/* Whether d, an SSA value's definition, is among the `reach`
 * instructions before in in its block.
 */
bool
defined_close_before(const instr *d, const instr *in, unsigned reach)
{
   if (!d || d->parent() != in->parent())
      return false;
   auto it = in->position();
   for (unsigned n = 0; n < reach && it != in->parent()->begin(); n++) {
      if (*--it == d)
         return true;
   }
   return false;
}

/* A word source of a mul that only truncates a 32-bit integer (mov
 * %w:s16 = %d:s32, imul_32x16's second source; not a conversion to
 * half float, whose bits the mul may read too) is %d's low words read
 * through <16,8,2>, as brw reads it: the truncating mov, two once its
 * packed word destination is legalized, goes.  From SIMD16 on, only
 * where %d stays live after the mul anyway: otherwise the word copy
 * holds one GRF where %d holds two, which the pressure scheduler uses
 * (the dolphin ubershaders' MaxLive rose by 4 GRFs at SIMD16 without it),
 * or where %d is an SSA value defined at most 4 instructions before the
 * mul, so it lives only those a little wider (dolphin/efb2ram.fs SIMD16
 * 76 -> 71, brw 71: five sign selects for imul_32x16; at any distance,
 * ubershaders/138.fs SIMD16 took 117 more instructions).
 */
void
read_low_words(instr *in)
{
   if (in->op != opcode::mul || in->num_srcs() != 2 || type_is_float(in->dst().type))
      return;
   for (unsigned i = 0; i < 2; i++) {
      const operand &o = in->src(i);
      const value *w = o.val;
      if (!w || w->file != reg_file::ssa || o.neg || o.abs || o.has_region ||
          o.offset || (o.type != data_type::s16 && o.type != data_type::u16) ||
          w->bit_size() != 16 || w->length != 1 || w->width != in->exec_size ||
          w->group != in->group)
         continue;
      const instr *d = w->def();
      if (!d || d->op != opcode::mov || d->saturate || d->predicate() ||
          d->flag_def() || !d->preserve().is_null() || d->cmod != cond_mod::none ||
          d->exec_size != in->exec_size || d->group != in->group || d->dst().offset ||
          type_is_float(d->dst().type) || type_is_float(w->type))
         continue;
      const operand &x = d->src(0);
      /* Values nothing redefines between the mov and the mul. */
      if (!x.val || (x.val->file != reg_file::ssa && x.val->file != reg_file::attr &&
                     x.val->file != reg_file::uniform && x.val->file != reg_file::hw_reg) ||
          x.neg || x.abs ||
          x.has_region || type_is_float(x.type) || type_bits(x.type) != 32 ||
          x.val->bit_size() != 32 || x.val->width != in->exec_size ||
          x.val->group != in->group || x.offset % x.val->component_bytes() ||
          (in->exec_size > 8 && !read_later(x.val, in, d) &&
           !(x.val->file == reg_file::ssa &&
             defined_close_before(x.val->def(), in, 4))))
         continue;
      const unsigned n = std::min(8u, unsigned(in->exec_size));
      operand r = n == 1 ? x.with_region(0, 1, 0) : x.with_region(2 * n, n, 2);
      r.type = o.type;
      in->set_src(i, r);
      if (d->dst().val->uses().empty())
         const_cast<instr *>(d)->remove();
   }
}

void
legalize(shader &s, const device_info &dev)
{
   for (const auto &b : s.blocks())
      for (auto it = b->begin(); it != b->end();)
         read_low_words(*it++);
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         /* Every channel of an immediate holds the same value: reading
          * it from another channel is the immediate itself.
          */
         if ((in->op == opcode::broadcast || in->op == opcode::shuffle) &&
             in->src(0).is_imm()) {
            in = replace_by_mov(s, in, in->src(0));
         }
         const opcode_kind k = in->info().kind;
         if (k != opcode_kind::alu && k != opcode_kind::math)
            continue;
         in = legalize_operations(s, in);
         legalize_int_hf(s, in);
         legalize_immediates(s, in, dev);
         legalize_3src_64bit(s, in);
         legalize_dst(s, in);
      }
   }
}

} /* namespace ibis::lowering */
