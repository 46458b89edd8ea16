/*
 * Out of SSA in two halves around coloring.
 *
 * Before: each phi gets a fresh destination d0 followed by "d = copy d0",
 * and each predecessor gets a parallel copy "t_i = s_i" at its end.  The
 * phi class {d0, t_i...} has no interference inside (each member lives on
 * its own edge), so the allocator colors it as one node and the phi itself
 * needs no code.  Structured control flow has one critical edge kind with
 * phis behind it, if -> endif without an else; its copy goes before the
 * if: every channel writes the class register there, and the then-side
 * copy overwrites the channels that take the then-branch.  Liveness keeps
 * the class value live over the skipped blocks (ibis_liveness.cpp), so no
 * NoMask write lands on it there.
 *
 * After: phis go away, parallel copies become copies on physical
 * registers, ordered so that no copy overwrites a source still to be read;
 * a cycle is broken with three xors per register (no free register is
 * needed).  Copies whose source already is in place vanish.
 */
#include "ra/ra_internal.h"

#include <algorithm>

#include "util/ibis_error.h"

namespace ibis {

/* Whether a copy's source makes it NoMask.  Attribute payload registers
 * are per-channel data: a phi reading one directly copies it with the
 * branch's channels, or a NoMask copy in one side of a divergent if
 * overwrites the other side's channels (random vs seed 40).
 */
static bool
source_is_simd_global(const value *v)
{
   return v && v->file != reg_file::attr && v->is_simd_global();
}

instr *
ra_make_copy(shader &s, const operand &dst, const operand &src)
{
   const value *d = dst.val;
   bool same = src.val && src.val->type == d->type &&
               src.val->width == d->width && src.val->group == d->group &&
               src.val->length == d->length && src.offset == 0 &&
               !src.has_region;
   instr *in = s.create_instr(same || !src.val ? opcode::copy : opcode::mov,
                              d->width);
   in->group = d->group;
   /* NoMask is a property of the value: a SIMD-global value is copied in
    * every channel (predicated-copy-wwm.txt), whichever side carries it.
    */
   if (d->is_simd_global() || source_is_simd_global(src.val))
      in->flags |= INSTR_WE_ALL;
   in->add_dst(dst);
   /* A scalar read into a wider value is a broadcast. */
   if (src.val && src.val->width == 1 && d->width > 1 && !src.has_region)
      in->add_src(src.with_region(0, 1, 0));
   else
      in->add_src(src);
   return in;
}

/* A phi whose every edge brings a SIMD-global value (a NoMask loop
 * counter of several channels) is SIMD-global: its copies run with all
 * channels, since a NoMask reader may need the disabled ones.  A phi that
 * mixes in a SIMD-local value is SIMD-local: each channel takes the value
 * of the edge it came by, the disabled ones are garbage on that edge
 * anyway, so its copies run with the mask and a NoMask constant flowing
 * in does not make the whole phi web NoMask.  Scalars are SIMD-global.
 */
bool
ra_phi_is_simd_global(const instr *phi)
{
   if (phi->dst().val->width == 1)
      return true;
   bool any = false;
   for (const operand &o : phi->srcs()) {
      const instr *def = o.val ? o.val->def() : nullptr;
      if (!def || def->op == opcode::undef)
         continue;
      const value *src = nullptr;
      if (def->op == opcode::parallel_copy) {
         for (unsigned k = 0; k < def->num_dsts(); k++) {
            if (def->dst(k).val == o.val)
               src = def->src(k).val;
         }
      } else {
         src = o.val;
      }
      if (!source_is_simd_global(src))
         return false;
      any = true;
   }
   return any;
}

/* The mov of an immediate that defines phi source o, when the edge may
 * write the immediate itself: a SIMD-local value of the phi's layout
 * holding the immediate's bits.
 */
static const instr *
constant_def(const operand &o, const value *d)
{
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || v->defs().size() != 1 ||
       o.offset || o.has_region || o.neg || o.abs)
      return nullptr;
   const instr *k = v->defs()[0];
   if (k->op != opcode::mov || k->predicate() || k->we_all() ||
       k->preserve().val || k->saturate || k->num_srcs() != 1 ||
       !k->src(0).is_imm() || k->dst().offset || k->dst().has_region ||
       k->dst().type != k->src(0).type || k->exec_size != d->width ||
       k->group != d->group || v->width != d->width || v->group != d->group ||
       v->bit_size() != d->bit_size() || v->length != 1 || d->length != 1 ||
       d->width < 2)
      return nullptr;
   /* Only when phis alone read it, so that it goes: another reader keeps
    * it, and then one phi may as well coalesce with it.
    */
   for (const use &u : v->uses()) {
      if (!u.in->is_phi())
         return nullptr;
   }
   return k;
}

std::vector<std::vector<value *>>
ra_insert_phi_copies(shader &s, int *constant_movs, bool constants)
{
   std::vector<std::vector<value *>> classes;
   std::vector<instr *> dead_constants;
   int movs = 0;
   for (const auto &bp : s.blocks()) {
      block *b = bp.get();
      std::vector<instr *> phis;
      for (instr *in : b->instrs()) {
         if (in->is_phi())
            phis.push_back(in);
      }
      if (phis.empty())
         continue;
      /* One parallel copy per incoming edge. */
      std::vector<instr *> pcopies(b->preds.size(), nullptr);
      for (unsigned j = 0; j < b->preds.size(); j++) {
         block *p = b->preds[j];
         /* A second edge from the same predecessor shares its copy. */
         for (unsigned k = 0; k < j; k++) {
            if (b->preds[k] == p)
               pcopies[j] = pcopies[k];
         }
         if (pcopies[j])
            continue;
         instr *pc = s.create_instr(opcode::parallel_copy, s.dispatch_width);
         p->insert(p->before_jump(), pc);
         pcopies[j] = pc;
      }
      for (instr *phi : phis) {
         value *d = phi->dst().val;
         value *d0 = s.create_value(d->file, d->type, d->width, d->length,
                                    d->group);
         std::vector<value *> cls = {d0};
         for (unsigned j = 0; j < phi->num_srcs() && j < pcopies.size(); j++) {
            operand src = phi->src(j);
            value *t = s.create_value(d->file, d->type, d->width, d->length,
                                      d->group);
            bool is_undef = src.val && src.val->def() &&
                            src.val->def()->op == opcode::undef;
            const instr *k = constants ? constant_def(src, d) : nullptr;
            if (k) {
               /* A constant is written again on the edge: the copy would
                * keep the constant's register alive up to every edge.
                */
               instr *m = s.create_instr(opcode::mov, d->width);
               m->group = d->group;
               operand od(t);
               od.type = k->src(0).type;
               m->add_dst(od);
               m->add_src(k->src(0));
               pcopies[j]->parent()->insert_before(pcopies[j], m);
               movs++;
               instr *kd = src.val->defs()[0];
               if (std::find(dead_constants.begin(), dead_constants.end(),
                             kd) == dead_constants.end())
                  dead_constants.push_back(kd);
            } else if (is_undef) {
               /* Garbage on this edge: no code, but a definition. */
               instr *u = s.create_instr(opcode::undef, d->width);
               u->group = d->group;
               u->add_dst(operand(t));
               pcopies[j]->parent()->insert_before(pcopies[j], u);
            } else {
               pcopies[j]->add_dst(operand(t));
               pcopies[j]->add_src(src);
            }
            phi->set_src(j, operand(t));
            cls.push_back(t);
         }
         phi->set_dst(0, operand(d0));
         instr *cp = ra_make_copy(s, operand(d), operand(d0));
         if (ra_phi_is_simd_global(phi))
            cp->flags |= INSTR_WE_ALL;
         b->insert(b->after_phis(), cp);
         classes.push_back(cls);
      }
   }
   /* Constants only phis read, now written on their edges. */
   for (instr *k : dead_constants) {
      if (k->dst().val->uses().empty()) {
         k->remove();
         movs--;
      }
   }
   if (constant_movs)
      *constant_movs = movs;
   /* Parallel copies that got no entry (all undef or constants) go again. */
   for (const auto &bp : s.blocks()) {
      for (auto it = bp->begin(); it != bp->end();) {
         instr *in = *it++;
         if (in->op == opcode::parallel_copy && in->num_dsts() == 0)
            in->remove();
      }
   }
   return classes;
}

void
ra_rename(value *from, value *to)
{
   if (from == to)
      return;
   std::vector<instr *> defs = from->defs();
   for (instr *in : defs) {
      for (unsigned i = 0; i < in->num_dsts(); i++) {
         if (in->dst(i).val == from) {
            operand o = in->dst(i);
            o.val = to;
            in->set_dst(i, o);
         }
      }
   }
   std::vector<use> uses = from->uses();
   for (const use &u : uses) {
      if (u.slot == use::predicate) {
         u.in->set_predicate(to, u.in->pred_inv);
      } else if (u.slot == use::preserve) {
         operand o = u.in->preserve();
         o.val = to;
         u.in->set_preserve(o);
      } else {
         operand o = u.in->src(u.slot);
         o.val = to;
         u.in->set_src(u.slot, o);
      }
   }
}

namespace {

bool
only_undef(const value *v)
{
   if (v->defs().empty())
      return false;
   for (const instr *d : v->defs()) {
      if (d->op != opcode::undef)
         return false;
   }
   return true;
}

instr *
make_undef(shader &s, value *d)
{
   instr *u = s.create_instr(opcode::undef, d->width);
   u->group = d->group;
   u->add_dst(operand(d));
   return u;
}

struct copy_entry {
   operand dst, src;
   unsigned dst_start, src_start, bytes;   /* src_start: ~0u for no GRF */
   bool done = false;
};

unsigned
grf_start(const operand &o)
{
   if (!o.val || o.val->phys.kind != phys_reg::grf)
      return ~0u;
   return o.val->phys.nr * 32 + o.val->phys.subreg + o.offset;
}

bool
overlaps(unsigned a, unsigned an, unsigned b, unsigned bn)
{
   return a != ~0u && b != ~0u && a < b + bn && b < a + an;
}

/* dst = x ^ y over bytes of the operands: one instruction of up to 32
 * elements and at most one component (code generation splits it), so that each register pair is
 * swapped before anything else is read.  The elements have the values'
 * own bit size: an 8-, 16- or 64-bit value written as dwords would be a
 * partial write of the wrong type.
 */
void
emit_xor(shader &s, block *b, block::iterator pos, const operand &dst,
         const operand &x, const operand &y, unsigned bytes, bool we_all)
{
   data_type t;
   switch (dst.val->bit_size()) {
   case 8: t = data_type::u8; break;
   case 16: t = data_type::u16; break;
   case 64: t = data_type::u64; break;
   default: t = data_type::u32; break;
   }
   /* The value's own bytes: its register range may be rounded up (a
    * SIMD8 byte value takes half a register).
    */
   bytes = std::min(bytes, std::max(1u, dst.val->size_bytes()));
   unsigned elem = type_bits(t) / 8;
   unsigned count = (bytes + elem - 1) / elem;
   const unsigned width = dst.val->width;
   for (unsigned k = 0; k < count;) {
      unsigned n = 32;
      while (n > count - k || (width > 1 && n > width))
         n /= 2;
      instr *in = s.create_instr(opcode::xor_, n);
      /* Channel for channel on the value's own (the upper SIMD16 half
       * of a SIMD32 program is group 16: random fs seed 4627).
       */
      if (width > 1)
         in->group = dst.val->group + k % width;
      if (we_all)
         in->flags |= INSTR_WE_ALL;
      operand d = dst, a = x, c = y;
      for (operand *o : {&d, &a, &c}) {
         o->type = t;
         o->offset += k * elem;
         o->has_region = false;
         o->neg = o->abs = false;
      }
      if (n == 1) {
         a = a.with_region(0, 1, 0);
         c = c.with_region(0, 1, 0);
      }
      in->add_dst(d);
      in->add_src(a);
      in->add_src(c);
      b->insert(pos, in);
      k += n;
   }
}

/* Returns the instructions emitted: copies and swap xors. */
unsigned
sequentialize(shader &s, instr *pc, const value_set &global)
{
   unsigned emitted = 0;
   block *b = pc->parent();
   /* Entries already in place need no code; their source register now
    * holds the destination too, so the source takes its name.
    */
   std::vector<bool> skip(pc->num_dsts(), false);
   for (unsigned i = 0; i < pc->num_dsts(); i++) {
      const operand &d = pc->dst(i), &src = pc->src(i);
      if (grf_start(src) == grf_start(d) && src.val &&
          ra_value_bytes(src.val) == ra_value_bytes(d.val) && !src.has_region) {
         skip[i] = true;
         if (only_undef(src.val))
            b->insert(pc->position(), make_undef(s, d.val));
         else if (src.val->file == reg_file::ssa || src.val->file == reg_file::wlr)
            ra_rename(src.val, d.val);
      }
   }
   std::vector<copy_entry> entries;
   for (unsigned i = 0; i < pc->num_dsts(); i++) {
      if (skip[i])
         continue;
      copy_entry e;
      e.dst = pc->dst(i);
      e.src = pc->src(i);
      e.dst_start = grf_start(e.dst);
      e.src_start = grf_start(e.src);
      e.bytes = ra_value_bytes(e.dst.val);
      entries.push_back(e);
   }
   auto pos = pc->position();
   size_t left = entries.size();
   while (left) {
      bool progress = false;
      for (copy_entry &e : entries) {
         if (e.done)
            continue;
         bool blocked = false;
         for (const copy_entry &o : entries) {
            if (&o != &e && !o.done &&
                overlaps(e.dst_start, e.bytes, o.src_start, o.bytes))
               blocked = true;
         }
         if (blocked)
            continue;
         instr *cp = ra_make_copy(s, e.dst, e.src);
         /* An edge copy into a SIMD-local phi runs with the mask, even
          * where a NoMask source now shares the phi's register: the
          * channels that come by other edges keep theirs.
          */
         if (e.dst.val->width > 1 && !global.has(e.dst.val))
            cp->flags &= ~uint32_t(INSTR_WE_ALL);
         b->insert(pos, cp);
         emitted++;
         e.done = true;
         left--;
         progress = true;
      }
      if (progress)
         continue;
      /* Only cycles are left: swap one entry's source and destination. */
      copy_entry *e = nullptr;
      for (copy_entry &c : entries) {
         if (!c.done) {
            e = &c;
            break;
         }
      }
      if (!e->src.val || e->src.has_region || e->dst.offset)
         throw error(strfmt("register allocation: a parallel copy cycle "
                            "through regioned sources in '%s'",
                            pc->str().c_str()));
      for (const copy_entry &o : entries) {
         if (!o.done && &o != e &&
             overlaps(e->dst_start, e->bytes, o.src_start, o.bytes) &&
             (o.src_start != e->dst_start || o.bytes != e->bytes))
            throw error(strfmt("register allocation: a parallel copy cycle "
                               "with partly overlapping registers in '%s'",
                               pc->str().c_str()));
      }
      /* Swap the registers X (e's destination) and Y (e's source):
       *    x = a ^ y;  t = y ^ x;  x = x ^ t
       * where a is what X holds now (the source of the entry reading X);
       * afterwards X holds y as e wants, and Y holds a under the new name
       * t, which the entries that read X read instead.
       */
      copy_entry *o = nullptr;
      for (copy_entry &c : entries) {
         if (!c.done && &c != e && c.src_start == e->dst_start)
            o = &c;
      }
      value *x = e->dst.val;
      /* Sources of a cycle die in it: only SIMD-global phis swap every
       * channel.
       */
      bool we_all = x->width == 1 || global.has(x);
      /* The xors run with X's channels, for o's value too (interference
       * keeps other layouts out of a cycle).
       */
      const value *ov = o ? o->dst.val : nullptr;
      if (!o || ov->width != x->width || ov->group != x->group ||
          (ov->width > 1 && global.has(ov) != global.has(x)))
         throw error(strfmt("register allocation: a parallel copy cycle "
                            "through values of other channels in '%s'",
                            pc->str().c_str()));
      value *tv = s.create_value(reg_file::ssa, x->type, x->width, x->length,
                                 x->group);
      tv->phys.kind = phys_reg::grf;
      tv->phys.nr = e->src_start / 32;
      tv->phys.subreg = e->src_start % 32;
      emit_xor(s, b, pos, operand(x), o->src, e->src, e->bytes, we_all);
      emit_xor(s, b, pos, operand(tv), e->src, operand(x), e->bytes, we_all);
      emit_xor(s, b, pos, operand(x), operand(x), operand(tv), e->bytes, we_all);
      emitted += 3;
      e->done = true;
      left--;
      for (copy_entry &c : entries) {
         if (c.done || c.src_start != e->dst_start)
            continue;
         c.src = operand(tv);
         c.src_start = e->src_start;
         /* Now in place: the destination is another name for t.  A
          * scalar of another size (a u16 swapped as a dword with an s32:
          * random cs seed 183 SIMD16 with 104 GRFs reserved) is read from
          * t in place at its own type, not written as t's.
          */
         if (c.src_start == c.dst_start) {
            if (c.dst.val->bit_size() == tv->bit_size()) {
               ra_rename(tv, c.dst.val);
            } else {
               if (c.dst.val->width != 1 || tv->width != 1)
                  throw error(strfmt("register allocation: a parallel copy "
                                     "cycle through values of other sizes in '%s'",
                                     pc->str().c_str()));
               operand src(tv);
               src.type = c.dst.val->type;
               instr *cp = s.create_instr(opcode::mov, 1);
               cp->flags |= INSTR_WE_ALL;
               cp->add_dst(c.dst);
               cp->add_src(src.with_region(0, 1, 0));
               b->insert(pos, cp);
               emitted++;
            }
            c.done = true;
            left--;
         }
      }
   }
   pc->remove();
   return emitted;
}

} /* anonymous namespace */

static bool
in_place(const instr *in)
{
   return in->op == opcode::copy && in->src(0).val &&
          grf_start(in->src(0)) == grf_start(in->dst()) &&
          !in->src(0).has_region && !in->predicate() &&
          ra_value_bytes(in->src(0).val) == ra_value_bytes(in->dst().val);
}

unsigned
ra_lower_copies(shader &s)
{
   unsigned emitted = 0;
   /* A phi class becomes one variable, named by the phi's destination:
    * the edge copies write it, so liveness on the allocated program sees
    * it defined on every path.
    */
   std::vector<instr *> phis, pcs;
   for (const auto &bp : s.blocks()) {
      for (instr *in : bp->instrs()) {
         if (in->is_phi())
            phis.push_back(in);
         else if (in->op == opcode::parallel_copy)
            pcs.push_back(in);
      }
   }
   value_set global(s.value_id_bound());
   for (instr *phi : phis) {
      if (ra_phi_is_simd_global(phi))
         global.add(phi->dst().val);
      /* The phi's own copy after the phis (ra_insert_phi_copies()) costs
       * an instruction unless it is in place.
       */
      for (const use &u : phi->dst().val->uses()) {
         if (u.in->parent() == phi->parent() && !u.in->is_phi() &&
             (u.in->op == opcode::copy || u.in->op == opcode::mov) &&
             !in_place(u.in))
            emitted++;
      }
   }
   for (instr *phi : phis) {
      value *d0 = phi->dst().val;
      std::vector<value *> srcs;
      for (const operand &o : phi->srcs())
         srcs.push_back(o.val);
      phi->remove();
      for (value *t : srcs) {
         if (t && t != d0)
            ra_rename(t, d0);
      }
   }
   for (instr *pc : pcs)
      emitted += sequentialize(s, pc, global);
   /* Copies whose source is in place: the destination is another name
    * for the source's register.
    */
   std::vector<instr *> dead;
   for (const auto &bp : s.blocks()) {
      for (instr *in : bp->instrs()) {
         /* A masked copy of a NoMask value (a spilled phi source's fill,
          * ra_spill_values()) stays: renamed away, the fill would become
          * a write of the SIMD-local phi web, which code generation then
          * takes for SIMD-global, emitting the web's masked load_payload
          * NoMask (random fs seed 1035 SIMD32 with 36-104 GRFs reserved:
          * channels that skipped the if got the then-side's value).
          */
         if (in_place(in) && !in->we_all() && in->dst().val->width > 1 &&
             in->src(0).val && in->src(0).val->is_simd_global() &&
             !in->dst().val->is_simd_global())
            continue;
         if (in_place(in))
            dead.push_back(in);
      }
   }
   for (instr *in : dead) {
      value *d = in->dst().val, *src = in->src(0).val;
      /* A copy of garbage is garbage: an undef keeps d defined. */
      if (only_undef(src))
         in->parent()->insert_before(in, make_undef(s, d));
      in->remove();
      if ((d->file == reg_file::ssa || d->file == reg_file::wlr) &&
          !only_undef(src))
         ra_rename(d, src);
   }
   return emitted;
}

} /* namespace ibis */
