/*
 * Vector splitting before allocation (brw's split_virtual_grfs, for the
 * vectors a load_payload builds): a vector value whose uses each read
 * within one component needs no contiguous block, so each component
 * becomes a value of its own, built by a load_payload of its sources.
 * Sends, copies and phis read whole vectors; those stay whole.  SIMD32
 * texture results zipped from two SIMD16 halves (12 or 16 registers) are
 * the typical beneficiaries.
 */
#include "ra/ra_internal.h"

#include <array>
#include <cassert>
#include <unordered_map>

#include <algorithm>

#include "ir/ibis_validate.h"

namespace ibis {

bool
ra_per_channel_alu(const instr *in)
{
   const opcode_info &info = in->info();
   if (info.kind != opcode_kind::alu && info.kind != opcode_kind::math)
      return false;
   if (info.writes_accum || info.reads_accum)
      return false;
   switch (in->op) {
   case opcode::pln:
   case opcode::line:
   case opcode::dp2:
   case opcode::dp3:
   case opcode::dp4:
   case opcode::dph:
   case opcode::sad2:
      return false;
   default:
      return true;
   }
}

unsigned
ra_read_bytes(const instr *in, const operand &o)
{
   unsigned elem = std::max(1u, type_bits(o.type) / 8);
   if (o.has_region) {
      if (o.rgn.width == 0)
         return in->exec_size * elem;
      unsigned rows = (in->exec_size + o.rgn.width - 1) / o.rgn.width;
      return ((rows - 1) * o.rgn.vstride +
              (o.rgn.width - 1) * o.rgn.hstride + 1) * elem;
   }
   if (o.val && o.val->width == 1)
      return elem;
   return in->exec_size * elem;
}

namespace {

/* Bytes a use reads of its value from the operand's offset, or 0 when
 * the use reads the whole value (or cannot be tracked by bytes).
 */
unsigned
use_bytes(const value *v, const use &u)
{
   if (u.slot < 0)
      return 0;
   const instr *in = u.in;
   switch (in->op) {
   case opcode::send:
   case opcode::phi:
   case opcode::parallel_copy:
   case opcode::copy:
   case opcode::mov_indirect:
   case opcode::shuffle:
      return 0;
   default:
      break;
   }
   const operand &o = in->src(u.slot);
   /* A broadcast reads any channel of its component (the index is a
    * channel number, not counted in the operand's offset).
    */
   if (in->op == opcode::broadcast)
      return u.slot == 0 && o.offset % v->component_bytes() == 0 ?
             v->component_bytes() : 0;
   if (in->op == opcode::load_payload) {
      const value *d = in->dst().val;
      unsigned w = v->width > 1 ? std::min<unsigned>(v->width, d->width)
                                : d->width;
      return w * d->bit_size() / 8;
   }
   return ra_read_bytes(in, o);
}

/* Does every use of v read within one `unit`-byte piece of it? */
bool
reads_within(const value *v, unsigned unit)
{
   for (const use &u : v->uses()) {
      unsigned n = use_bytes(v, u);
      unsigned off = u.in->src(u.slot).offset;
      if (n == 0 || off / unit != (off + n - 1) / unit)
         return false;
   }
   return true;
}

/* Does use u (a phi or copy) read one whole component of v as all of
 * its destination?  It reads that component only, as a value of its own.
 */
bool
reads_one_component(const value *v, const use &u)
{
   if (u.slot < 0 || (u.in->op != opcode::phi && u.in->op != opcode::copy) ||
       u.in->num_dsts() != 1 || v->length < 2)
      return false;
   const operand &o = u.in->src(u.slot);
   const value *d = u.in->dst().val;
   const unsigned c = v->component_bytes();
   return d && o.val == v && !o.has_region && !o.neg && !o.abs &&
          o.offset % c == 0 && type_bits(o.type) == v->bit_size() &&
          !u.in->dst().offset && d->length == 1 && d->size_bytes() == c &&
          d->width == v->width && d->group == v->group;
}

/* Does every use of v read within one component (a phi or copy of one
 * whole component counting)?
 */
bool
reads_within_components(const value *v)
{
   const unsigned c = v->component_bytes();
   for (const use &u : v->uses()) {
      if (reads_one_component(v, u))
         continue;
      const unsigned n = use_bytes(v, u);
      if (n == 0)
         return false;
      const unsigned off = u.in->src(u.slot).offset;
      if (off / c != (off + n - 1) / c)
         return false;
   }
   return true;
}

/* Points every use of v (each within one half of a component, see
 * reads_within) at the same bytes of the half value that holds them.
 */
void
rewrite_to_halves(value *v, value *const half[2])
{
   const unsigned c = v->component_bytes(), hb = c / 2;
   const std::vector<use> uses = v->uses();
   for (const use &u : uses) {
      operand o = u.in->src(u.slot);
      const unsigned k = o.offset / c, within = o.offset % c;
      o.val = half[within / hb];
      o.offset = k * hb + within % hb;
      u.in->set_src(u.slot, o);
   }
}

/* A WLR value of SIMD32 written as SIMD16 halves (pln(16) and
 * pln(16+16)), each half by one unpredicated instruction: the halves
 * become SSA values of their own, zipped into an SSA value for the
 * readers.  The zip is split again below where the readers read halves,
 * so each half can be written straight into the payload that needs it.
 */
unsigned
split_wlr_halves(shader &s)
{
   s.renumber();
   dominance dom(s);
   unsigned split = 0;
   for (value *v : s.values()) {
      if (v->file != reg_file::wlr || v->width != 32 || v->group != 0 ||
          v->defs().empty() || v->bit_size() < 8 || v->bit_size() > 32)
         continue;
      const unsigned c = v->component_bytes(), hb = c / 2;
      std::vector<instr *> writer(2 * v->length, nullptr);
      bool ok = true;
      instr *last = nullptr;
      for (instr *d : v->defs()) {
         const operand &o = d->num_dsts() == 1 ? d->dst() : operand();
         if (o.val != v || d->exec_size != 16 || d->predicate() ||
             d->preserve().val || d->we_all() || o.has_region ||
             type_bits(o.type) != v->bit_size() || o.offset % hb ||
             d->reads(v) || d->parent() != v->defs()[0]->parent()) {
            ok = false;
            break;
         }
         const unsigned idx = o.offset / hb;
         if (idx >= writer.size() || writer[idx] || d->group != 16 * (idx % 2)) {
            ok = false;
            break;
         }
         writer[idx] = d;
         if (!last || d->ip > last->ip)
            last = d;
      }
      for (const instr *w : writer)
         ok &= w != nullptr;
      for (const use &u : v->uses())
         ok &= u.slot >= 0 && ok && dom.dominates(last, u.in) && u.in != last;
      if (!ok)
         continue;
      instr *zip = s.create_instr(opcode::load_payload, 32);
      value *z = s.create_value(reg_file::ssa, v->type, 32, v->length, 0);
      zip->add_dst(operand(z));
      for (unsigned idx = 0; idx < writer.size(); idx++) {
         instr *w = writer[idx];
         value *h = s.create_value(reg_file::ssa, v->type, 16, 1, 16 * (idx % 2));
         operand d = operand(h).as_type(w->dst().type);
         w->set_dst(0, d);
         zip->add_src(operand(h));
      }
      const std::vector<use> uses = v->uses();
      for (const use &u : uses) {
         operand o = u.in->src(u.slot);
         o.val = z;
         u.in->set_src(u.slot, o);
      }
      last->parent()->insert_after(last, zip);
      split++;
   }
   return split;
}


/* Source o of instruction in as read by its piece of `width` channels
 * from channel `first` (of the instruction's own), as code generation
 * reads it for that piece.
 */
bool
piece_source(const instr *in, const operand &o, unsigned first,
             unsigned width, operand &out)
{
   out = o;
   if (o.is_null() || o.is_imm())
      return true;
   const value *v = o.val;
   if (v->file == reg_file::flag || v->file == reg_file::accum)
      return false;
   const unsigned sz = type_bits(o.type) / 8;
   if (o.has_region) {
      region r = o.rgn;
      const unsigned p = std::min(lowered_piece_width(in), width);
      if (r.width > p && r.vstride == r.width * r.hstride) {
         r.width = p;
         r.vstride = p * r.hstride;
      }
      if (r.width && width % r.width)
         return false;
      const unsigned c = first;
      out.offset += r.width == 0 ? c * r.hstride * sz
                                 : ((c / r.width) * r.vstride +
                                    (c % r.width) * r.hstride) * sz;
      return true;
   }
   if (v->width == 1 || v->file == reg_file::uniform)
      return true;
   if (v->width != in->exec_size)
      return false;
   out.offset += first * sz;
   return true;
}

/* Source o of a SIMD32 instruction as read by its half h (channels
 * 16h..16h+15).
 */
bool
half_source(const instr *in, const operand &o, unsigned h, operand &out)
{
   return piece_source(in, o, 16 * h, 16, out);
}

/* The n pieces of an instruction writing an SSA value (each of exec_size
 * / n channels, in channel order), or false when it does not split: the
 * two SIMD16 halves of a SIMD32 instruction, or the SIMD8 pieces of a
 * reader of SIMD8 message results (ALU instructions only).
 */
bool
build_pieces(shader &s, instr *in, unsigned n, instr **half)
{
   const value *dv = in->num_dsts() ? in->dst().val : nullptr;
   const unsigned pw = in->exec_size / n;
   small_vector<operand, 4> srcs[4];   /* no allocation for most */
   assert(n <= 4);
   if (in->op == opcode::load_payload) {
      if (n != 2 || in->exec_size != 32)
         return false;
      unsigned pos = 0;
      for (const operand &o : in->srcs()) {
         const bool bcast = o.is_null() || o.is_imm() || o.val->width == 1;
         const unsigned n = bcast ? 32 : std::min<unsigned>(o.val->width, 32);
         const unsigned ch = pos % 32;
         if (!bcast && (o.has_region || type_bits(o.type) != dv->bit_size()))
            return false;
         if (n == 32) {
            if (ch)
               return false;
            for (unsigned h = 0; h < 2; h++) {
               operand x = o;
               if (!bcast)
                  x.offset += 16 * h * dv->bit_size() / 8;
               srcs[h].push_back(x);
            }
         } else {
            const unsigned h = ch / 16;
            if (ch % 16 + n > 16 || o.val->group / 16 != h ||
                (n == 16 && o.val->group != 16 * h))
               return false;
            srcs[h].push_back(o);
         }
         pos += n;
      }
      if (pos != 32u * dv->length)
         return false;
   } else {
      for (const operand &o : in->srcs()) {
         for (unsigned h = 0; h < n; h++) {
            operand x;
            if (!piece_source(in, o, h * pw, pw, x))
               return false;
            srcs[h].push_back(x);
         }
      }
   }
   for (unsigned h = 0; h < n; h++) {
      const unsigned g = in->group + h * pw;
      instr *x = s.create_instr(in->op, pw);
      x->group = g;
      x->saturate = in->saturate;
      x->cmod = in->cmod;
      x->flags = in->flags;
      if (dv) {
         value *v = s.create_value(reg_file::ssa, dv->type, pw, dv->length, g);
         x->add_dst(operand(v).as_type(in->dst().type));
      }
      if (const value *f = in->flag_def())
         x->set_flag_def(s.create_value(reg_file::flag, f->type, pw, 1, g));
      for (const operand &o : srcs[h])
         x->add_src(o);
      if (in->predicate())
         x->set_predicate(in->predicate(), in->pred_inv);
      half[h] = x;
   }
   return true;
}

bool
build_halves(shader &s, instr *in, instr *half[2])
{
   return build_pieces(s, in, 2, half);
}

/* Is in a SIMD32 instruction that splits into halves once every reader
 * of its result reads by halves?  64-bit results stay whole: splitting a
 * u16 -> u64 conversion made random fs seed 227 mismatch at SIMD32, for a
 * reason not found yet.  An undef splits too: a whole one in both RT
 * write halves (an undefined alpha) was copied into the second.
 */
bool predicate_splits(const value *f, const instr *reader);

/* A flag write without a destination (or with a null or unread one). */
bool
flag_only(const instr *in)
{
   return in->flag_def() &&
          (in->num_dsts() == 0 || in->dst().is_null() ||
           (in->dst().val && in->dst().val->uses().empty()));
}

/* (Or, given a width and group, an instruction of that width and group.) */
bool
may_split(const instr *in, unsigned width = 32, unsigned group = 0)
{
   if (in->exec_size != width || in->group != group || in->num_dsts() > 1 ||
       in->preserve().val || in->we_all() || (in->flags & ~INSTR_WE_ALL) ||
       (in->op != opcode::load_payload && in->op != opcode::undef &&
        !ra_per_channel_alu(in)) ||
       (in->predicate() && in->op != opcode::sel &&
        !(flag_only(in) && predicate_splits(in->predicate(), in))))
      return false;
   /* A flag splits when only predicates of halves read it. */
   if (const value *f = in->flag_def()) {
      const unsigned hw = width / 2;
      if (f->width != width || f->group != group)
         return false;
      for (const use &u : f->uses()) {
         if (u.slot != use::predicate || u.in->exec_size > hw ||
             u.in->group % hw + u.in->exec_size > hw)
            return false;
      }
   }
   /* A flag write without a destination (or with a null one). */
   if (in->num_dsts() == 0 || in->dst().is_null())
      return in->flag_def() != nullptr;
   const operand &d = in->dst();
   const value *dv = d.val;
   return dv && dv->file == reg_file::ssa && dv->width == width &&
          dv->bit_size() <= 32 && dv->group == group && !d.offset && !d.has_region &&
          type_bits(d.type) == dv->bit_size() &&
          (in->op == opcode::load_payload || in->op == opcode::undef ||
           dv->length == 1);
}

/* Does flag f, the predicate of a flag write `reader` alone reads (a link
 * of lower_flag_chains), split when reader does?  Its compare comes
 * earlier in the walk and splits once its flag's readers are halves; a
 * half compare predicated on a whole flag would take the flag's register
 * while the other half still reads it, and spill it.
 */
bool
predicate_splits(const value *f, const instr *reader)
{
   const instr *d = f->def();
   if (!d || f->width != 32 || f->group != 0 || d->flag_def() != f ||
       d->exec_size != 32 || d->group != 0 || d->num_dsts() > 1 ||
       d->preserve().val || d->we_all() || d->flags || !ra_per_channel_alu(d) ||
       !flag_only(d))
      return false;
   for (const use &u : f->uses()) {
      if (u.in != reader || u.slot != use::predicate)
         return false;
   }
   if (d->predicate() && !predicate_splits(d->predicate(), d))
      return false;
   for (const operand &o : d->srcs()) {
      for (unsigned h = 0; h < 2; h++) {
         operand x;
         if (!half_source(d, o, h, x))
            return false;
      }
   }
   return true;
}

/* The half h of o when o is all of a zip of two SIMD16 halves (what the
 * walk leaves for a loop phi reading a split value, see zip_for_loop_phis),
 * or null.
 */
value *
zipped_half(const operand &o, unsigned h)
{
   const value *z = o.val;
   if (!z || z->file != reg_file::ssa || z->width != 32 || z->group ||
       z->length != 1 || o.offset || o.has_region || o.neg || o.abs ||
       z->defs().size() != 1)
      return nullptr;
   const instr *d = z->def();
   if (!d || d->op != opcode::load_payload || d->exec_size != 32 ||
       d->group || d->num_srcs() != 2 || d->predicate() || d->flags ||
       d->preserve().val || d->dst().offset || d->dst().has_region)
      return nullptr;
   const operand &x = d->src(h);
   value *v = x.val;
   if (!v || x.is_imm() || v->file != reg_file::ssa || v->width != 16 ||
       v->group != 16 * h || v->length != 1 || x.offset || x.has_region ||
       x.neg || x.abs || v->bit_size() != z->bit_size() ||
       type_bits(x.type) != z->bit_size())
      return nullptr;
   return v;
}

/* A phi of SIMD32 values read only by halves: a phi per half, each
 * source's half gathered at the end of its predecessor by a load_payload
 * that the backward walk splits or propagates away.  A loop phi's
 * back-edge sources come later in the walk, and copies there would run
 * every iteration: it splits only when each is a zip of halves (the
 * walk split its definition, see zip_for_loop_phis), whose halves it
 * reads directly.
 */
bool
split_phi(shader &s, instr *in)
{
   value *dv = in->dst().val;
   block *b = in->parent();
   if (in->num_srcs() != b->preds.size() || dv->bit_size() > 32)
      return false;
   for (unsigned i = 0; i < in->num_srcs(); i++) {
      const operand &o = in->src(i);
      if (b->preds[i]->index >= b->index &&
          (!zipped_half(o, 0) || !zipped_half(o, 1) || dv->length != 1))
         return false;
      /* A source may be a run of components of a longer vector (a
       * texture result's component picked on one side of an if).
       */
      if (!o.val || o.val->width != 32 || o.val->group != 0 ||
          o.has_region || o.neg || o.abs ||
          o.val->bit_size() != dv->bit_size() ||
          o.offset % dv->component_bytes() ||
          o.offset + dv->size_bytes() > o.val->size_bytes())
         return false;
   }
   std::vector<value *> zips;
   const unsigned c = dv->component_bytes(), hb = c / 2;
   value *hv[2];
   for (unsigned h = 0; h < 2; h++) {
      hv[h] = s.create_value(reg_file::ssa, dv->type, 16, dv->length, 16 * h);
      instr *phi = s.create_instr(opcode::phi, 16);
      phi->group = 16 * h;
      phi->add_dst(operand(hv[h]).as_type(in->dst().type));
      for (unsigned i = 0; i < in->num_srcs(); i++) {
         const operand &o = in->src(i);
         if (value *zh = dv->length == 1 ? zipped_half(o, h) : nullptr) {
            phi->add_src(operand(zh).as_type(o.type));
            zips.push_back(o.val);
            continue;
         }
         value *sh = s.create_value(reg_file::ssa, dv->type, 16, dv->length,
                                    16 * h);
         instr *lp = s.create_instr(opcode::load_payload, 16);
         lp->group = 16 * h;
         lp->add_dst(operand(sh));
         for (unsigned k = 0; k < dv->length; k++) {
            operand x = o;
            x.offset = o.offset + k * c + h * hb;
            lp->add_src(x);
         }
         block *p = b->preds[i];
         p->insert(p->before_jump(), lp);
         phi->add_src(operand(sh).as_type(o.type));
      }
      b->insert_before(in, phi);
   }
   rewrite_to_halves(dv, hv);
   in->remove();
   for (value *z : zips)
      if (z->uses().empty() && z->def())
         z->def()->remove();
   return true;
}

/* A loop phi of SIMD32 values that may split into halves (its sources
 * whole values of its layout, its readers reading halves or splitting
 * themselves): the walk splits a back-edge source's definition for it as
 * if the phi read halves (zip_for_loop_phis).
 */
bool
loop_phi_candidate(const instr *in)
{
   if (in->op != opcode::phi || in->exec_size != 32 || in->num_dsts() != 1)
      return false;
   const value *dv = in->dst().val;
   const block *b = in->parent();
   if (!dv || dv->file != reg_file::ssa || dv->width != 32 || dv->group ||
       dv->length != 1 || dv->bit_size() > 32 || dv->uses().empty() ||
       in->num_srcs() != b->preds.size())
      return false;
   bool back = false;
   for (unsigned i = 0; i < in->num_srcs(); i++) {
      const operand &o = in->src(i);
      if (!o.val || o.is_imm() || o.val->file != reg_file::ssa ||
          o.val->width != 32 || o.val->group || o.val->length != 1 ||
          o.val->bit_size() != dv->bit_size() || o.offset || o.has_region ||
          o.neg || o.abs)
         return false;
      back |= b->preds[i]->index >= b->index;
   }
   if (!back)
      return false;
   const unsigned hb = dv->component_bytes() / 2;
   for (const use &u : dv->uses()) {
      if (u.slot < 0)
         return false;
      const unsigned n = use_bytes(dv, u);
      const unsigned off = u.in->src(u.slot).offset;
      if (!(n && off / hb == (off + n - 1) / hb) && !may_split(u.in))
         return false;
   }
   return true;
}

/* Does every use of v read within one half of a component, a loop phi
 * candidate's counting as halves?
 */
bool
reads_halves_or_loop_phi(const value *v, const std::vector<instr *> &loop_phis)
{
   const unsigned hb = v->component_bytes() / 2;
   for (const use &u : v->uses()) {
      if (u.slot >= 0 && v->length == 1 &&
          std::find(loop_phis.begin(), loop_phis.end(), u.in) != loop_phis.end())
         continue;
      const unsigned n = use_bytes(v, u);
      const unsigned off = u.slot >= 0 ? u.in->src(u.slot).offset : 0;
      if (n == 0 || off / hb != (off + n - 1) / hb)
         return false;
   }
   return true;
}

/* The loop phi candidates reading v (split into halves hv) read a zip of
 * the halves instead, placed after them: the phi then splits and reads
 * the halves directly, or stays whole and the halves coalesce into the
 * zip in place.
 */
void
zip_for_loop_phis(shader &s, instr *at, value *v, value *const hv[2],
                  const std::vector<instr *> &loop_phis)
{
   value *z = nullptr;
   const std::vector<use> uses = v->uses();
   for (const use &u : uses) {
      if (u.slot < 0 ||
          std::find(loop_phis.begin(), loop_phis.end(), u.in) == loop_phis.end())
         continue;
      if (!z) {
         z = s.create_value(reg_file::ssa, v->type, 32, 1, 0);
         instr *zip = s.create_instr(opcode::load_payload, 32);
         zip->add_dst(operand(z));
         zip->add_src(operand(hv[0]));
         zip->add_src(operand(hv[1]));
         at->parent()->insert_before(at, zip);
      }
      operand o = u.in->src(u.slot);
      o.val = z;
      u.in->set_src(u.slot, o);
   }
}

/* SIMD32 instructions whose result is read only by halves (SIMD16 send
 * payloads, or halves split here) become two SIMD16 instructions writing
 * a value each, as brw's SIMD32 code is: each half can then be computed
 * in the payload that reads it instead of being copied there.  Walking
 * backwards splits a whole chain from its payload up.
 */
unsigned
split_instr_halves(shader &s, bool phis)
{
   std::vector<instr *> order, loop_phis;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs()) {
         order.push_back(in);
         if (phis && loop_phi_candidate(in))
            loop_phis.push_back(in);
      }
   unsigned split = 0;
   for (auto it = order.rbegin(); it != order.rend(); ++it) {
      instr *in = *it;
      if (phis && in->op == opcode::phi && in->exec_size == 32 &&
          in->num_dsts() == 1 &&
          in->dst().val && in->dst().val->file == reg_file::ssa &&
          in->dst().val->width == 32 && in->dst().val->group == 0 &&
          !in->dst().val->uses().empty() &&
          reads_within(in->dst().val, in->dst().val->component_bytes() / 2)) {
         loop_phis.erase(std::remove(loop_phis.begin(), loop_phis.end(), in),
                         loop_phis.end());
         split += split_phi(s, in);
         continue;
      }
      if (!may_split(in))
         continue;
      value *dv = in->num_dsts() ? in->dst().val : nullptr;
      value *f = in->flag_def();
      if ((dv && !reads_halves_or_loop_phi(dv, loop_phis)) ||
          ((!dv || dv->uses().empty()) && (!f || f->uses().empty())))
         continue;
      instr *half[2];
      if (!build_halves(s, in, half))
         continue;
      for (instr *h : half)
         in->parent()->insert_before(in, h);
      if (dv) {
         value *hv[2] = {half[0]->dst().val, half[1]->dst().val};
         zip_for_loop_phis(s, in, dv, hv, loop_phis);
         rewrite_to_halves(dv, hv);
      }
      if (f) {
         const std::vector<use> uses = f->uses();
         for (const use &u : uses)
            u.in->set_predicate(half[u.in->group / 16]->flag_def(), u.in->pred_inv);
      }
      in->remove();
      split++;
   }
   return split;
}

/* A SIMD16 instruction (of any program width) whose result only
 * payloads of its SIMD8 halves read (messages that cannot run at SIMD16,
 * such as sample_d) becomes its two SIMD8 halves: each can then be
 * computed in the payload that reads it instead of being copied there.
 * That costs an instruction and saves up to one mov per half, so only
 * values that nothing else reads split (no chain of splits as at SIMD32,
 * where the halves come for free).
 */
unsigned
split_payload_halves(shader &s)
{
   std::vector<instr *> order;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (in->exec_size == 16 && in->group % 16 == 0 && in->num_dsts() == 1 &&
             in->op != opcode::load_payload && in->op != opcode::undef &&
             !in->flag_def() && may_split(in, 16, in->group))
            order.push_back(in);
   unsigned split = 0;
   for (instr *in : order) {
      value *dv = in->dst().val;
      const unsigned hb = dv->component_bytes() / 2;
      bool read[2] = {false, false}, slot = false;
      bool ok = !dv->uses().empty();
      for (const use &u : dv->uses()) {
         if (u.slot < 0 || u.in->op != opcode::load_payload ||
             u.in->exec_size != 8) {
            ok = false;
            break;
         }
         const unsigned off = u.in->src(u.slot).offset;
         const unsigned n = use_bytes(dv, u);
         if (n == 0 || off / hb != (off + n - 1) / hb) {
            ok = false;
            break;
         }
         read[off / hb] = true;
         slot |= u.in->num_srcs() > 1;
      }
      /* Payloads of one half each alone may hold the halves in place
       * unsplit (the pieces of a coordinate, one register each).
       */
      if (!ok || !read[0] || !read[1] || !slot)
         continue;
      instr *half[2];
      if (!build_pieces(s, in, 2, half))
         continue;
      for (instr *h : half)
         in->parent()->insert_before(in, h);
      value *hv[2] = {half[0]->dst().val, half[1]->dst().val};
      rewrite_to_halves(dv, hv);
      in->remove();
      split++;
   }
   return split;
}

/* A SIMD16 loop phi (of any program width) read by SIMD8 payloads and by
 * the instruction that computes its back-edge value alone (a coordinate
 * advanced each iteration and sampled by messages that cannot run at
 * SIMD16): the web splits into SIMD8 halves, each written in the payloads
 * that read it.  Per iteration the copies into the loop's payloads go
 * and the back-edge instruction costs one more; before the loop the
 * initial value's halves are copied (two movs).  Only when that nets
 * fewer instructions both per iteration and in all.
 */
unsigned
split_loop_phi_halves(shader &s)
{
   std::vector<instr *> phis;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (in->op == opcode::phi && in->exec_size == 16 && in->group % 16 == 0)
            phis.push_back(in);
   unsigned split = 0;
   for (instr *in : phis) {
      value *pv = in->num_dsts() == 1 ? in->dst().val : nullptr;
      block *b = in->parent();
      if (!pv || pv->file != reg_file::ssa || pv->width != 16 ||
          pv->group != in->group || pv->length != 1 || pv->bit_size() != 32 ||
          in->dst().offset || in->num_srcs() != 2 || b->preds.size() != 2)
         continue;
      /* One entry source, one back-edge source computed in the loop. */
      int back = -1;
      bool ok = true;
      for (unsigned i = 0; i < 2; i++) {
         const operand &o = in->src(i);
         ok &= o.val && !o.is_imm() && o.val->file == reg_file::ssa &&
               o.val->width == 16 && o.val->group == pv->group &&
               o.val->length == 1 && o.val->bit_size() == 32 && !o.offset &&
               !o.has_region && !o.neg && !o.abs;
         if (b->preds[i]->index >= b->index)
            back = back < 0 ? int(i) : 2;
      }
      if (!ok || back < 0 || back > 1)
         continue;
      const block *latch = b->preds[back];
      value *bv = in->src(back).val;
      instr *d = bv->def();
      if (!d || bv->defs().size() != 1 || bv->uses().size() != 1 ||
          d->parent()->index < b->index || d->parent()->index > latch->index ||
          d->num_dsts() != 1 || d->flag_def() || d->op == opcode::load_payload ||
          d->op == opcode::undef || !may_split(d, 16, in->group))
         continue;
      /* The readers: SIMD8 payloads within a half, and d. */
      const unsigned hb = pv->component_bytes() / 2;
      unsigned in_loop = 0, all = 0;
      for (const use &u : pv->uses()) {
         if (u.in == d && u.slot >= 0)
            continue;
         const unsigned n = use_bytes(pv, u);
         const unsigned off = u.slot >= 0 ? u.in->src(u.slot).offset : 0;
         if (u.slot < 0 || u.in->op != opcode::load_payload ||
             u.in->exec_size != 8 || n == 0 || off / hb != (off + n - 1) / hb) {
            ok = false;
            break;
         }
         /* A payload of that half alone may hold it in place unsplit. */
         if (u.in->num_srcs() < 2)
            continue;
         const unsigned bi = u.in->parent()->index;
         in_loop += bi >= b->index && bi <= latch->index;
         all++;
      }
      if (!ok || in_loop < 2 || all < 4)
         continue;
      instr *half[2];
      if (!build_pieces(s, d, 2, half))
         continue;
      for (instr *h : half)
         d->parent()->insert_before(d, h);
      d->remove();
      value *hv[2];
      for (unsigned h = 0; h < 2; h++) {
         const unsigned g = in->group + 8 * h;
         hv[h] = s.create_value(reg_file::ssa, pv->type, 8, 1, g);
         instr *phi = s.create_instr(opcode::phi, 8);
         phi->group = g;
         phi->add_dst(operand(hv[h]).as_type(in->dst().type));
         for (unsigned i = 0; i < 2; i++) {
            const operand &o = in->src(i);
            if (int(i) == back) {
               phi->add_src(operand(half[h]->dst().val).as_type(o.type));
               continue;
            }
            value *sh = s.create_value(reg_file::ssa, pv->type, 8, 1, g);
            instr *lp = s.create_instr(opcode::load_payload, 8);
            lp->group = g;
            lp->add_dst(operand(sh));
            operand x = o;
            x.offset += h * hb;
            lp->add_src(x);
            block *p = b->preds[i];
            p->insert(p->before_jump(), lp);
            phi->add_src(operand(sh).as_type(o.type));
         }
         b->insert_before(in, phi);
      }
      rewrite_to_halves(pv, hv);
      in->remove();
      split++;
   }
   return split;
}

/* Is z a zip of message results: a component of each of two or four
 * narrower results (SIMD16 halves of a SIMD32 value, SIMD8 pieces of a
 * SIMD16 or SIMD32 one, for messages that cannot run wider), in channel
 * order.  The pieces cannot lie side by side (each result's components
 * are), so the zip is one mov per piece.
 */
bool
is_result_zip(const instr *z)
{
   const unsigned n = z->num_srcs();
   if (z->op != opcode::load_payload || (n != 2 && n != 4) ||
       (z->exec_size != 16 && z->exec_size != 32) ||
       z->exec_size / n < 8 || z->num_dsts() != 1 || z->predicate() ||
       z->flags || z->preserve().val)
      return false;
   const unsigned pw = z->exec_size / n;
   const operand &d = z->dst();
   const value *dv = d.val;
   if (!dv || dv->file != reg_file::ssa || dv->width != z->exec_size ||
       dv->group != z->group || dv->length != 1 || dv->bit_size() != 32 ||
       d.offset || d.has_region)
      return false;
   for (unsigned h = 0; h < n; h++) {
      const operand &o = z->src(h);
      const value *v = o.val;
      if (!v || o.is_imm() || o.has_region || o.neg || o.abs ||
          v->file != reg_file::ssa || v->width != pw ||
          v->group != z->group + h * pw ||
          v->length < 2 || v->bit_size() != 32 || type_bits(o.type) != 32 ||
          o.offset % v->component_bytes())
         return false;
   }
   return true;
}

/* May the reader in of zip z split into z's pieces, each reading its
 * result in place?
 */
bool
zip_reader_splits(const instr *z, const use &u)
{
   if (u.slot < 0)
      return false;
   const instr *in = u.in;
   const operand &o = in->src(u.slot);
   const unsigned n = z->num_srcs();
   if (!may_split(in, z->exec_size, z->group) || in->op == opcode::load_payload ||
       in->parent() != z->parent() || in->num_dsts() != 1 || in->flag_def() ||
       o.offset || o.has_region)
      return false;
   const unsigned pw = in->exec_size / n;
   for (const operand &x : in->srcs()) {
      for (unsigned h = 0; h < n; h++) {
         operand p;
         if (!piece_source(in, x, h * pw, pw, p))
            return false;
      }
   }
   return true;
}

/* Instructions a reader costs more split into n pieces than whole (code
 * generation already splits a SIMD32 one into SIMD16 halves).
 */
unsigned
split_cost(const instr *in, unsigned n)
{
   const unsigned native = in->exec_size /
                           std::min<unsigned>(in->exec_size, lowered_piece_width(in));
   return n > native ? n - native : 0;
}

/* An instruction reading such a zip, whose result is read whole (so the
 * backward walk kept it), splits forwards: each piece reads its send's
 * result in place and the pieces' results are zipped, fresh values that
 * coalesce side by side (tesseract/365.fs SIMD32: the three components of
 * a sample were zipped for their lrps).  Only when every reader of the
 * zip splits does the zip go.  A SIMD32 reader splits into SIMD16 halves
 * for free; a SIMD16 one into SIMD8 pieces costs an instruction, so the
 * zips whose readers split are chosen to save the most (a zip saves one
 * mov per piece, a reader may read several zips).
 */
unsigned
split_zip_readers(shader &s)
{
   /* A reader further on keeps all of both results live until it (the
    * zip frees them at once).  That once cost allocations (a reach of 8
    * instructions kept tesseract/363, 367 and 371.fs at SIMD32); since
    * the allocator's later work any distance in the block does better
    * (SIMD32 -107 instructions, none hurt or lost; forced SIMD32 -269,
    * spills unchanged), and a program that does not fit still falls back
    * to whole values.
    */
   std::vector<instr *> zips;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (is_result_zip(in))
            zips.push_back(in);
   /* The candidates (every reader may split) and their readers. */
   std::vector<instr *> cand;
   std::vector<std::vector<instr *>> zip_readers;
   for (instr *z : zips) {
      value *zv = z->dst().val;
      bool ok = !zv->uses().empty();
      for (const use &u : zv->uses()) {
         ok &= zip_reader_splits(z, u);
         if (!ok)
            break;
      }
      if (!ok)
         continue;
      std::vector<instr *> readers;
      for (const use &u : zv->uses())
         if (std::find(readers.begin(), readers.end(), u.in) == readers.end())
            readers.push_back(u.in);
      cand.push_back(z);
      zip_readers.push_back(std::move(readers));
   }
   /* Drop the zip whose readers cost at least what it saves (counting a
    * reader only when no other chosen zip splits it), until none does.
    */
   std::vector<bool> chosen(cand.size(), true);
   std::unordered_map<const instr *, unsigned> count;   /* chosen zips read */
   auto slot = [&](const instr *r) -> unsigned & { return count[r]; };
   for (size_t i = 0; i < cand.size(); i++)
      for (instr *r : zip_readers[i])
         slot(r)++;
   for (;;) {
      int worst = -1, worst_net = -1;
      for (size_t i = 0; i < cand.size(); i++) {
         if (!chosen[i])
            continue;
         const unsigned n = cand[i]->num_srcs();
         int net = -int(n);
         for (instr *r : zip_readers[i])
            if (slot(r) == 1)
               net += int(split_cost(r, n));
         if (net >= 0 && net > worst_net) {
            worst = int(i);
            worst_net = net;
         }
      }
      if (worst < 0)
         break;
      chosen[worst] = false;
      for (instr *r : zip_readers[worst])
         slot(r)--;
   }
   unsigned split = 0;
   for (size_t i = 0; i < cand.size(); i++) {
      if (!chosen[i])
         continue;
      instr *z = cand[i];
      const unsigned n = z->num_srcs();
      /* Readers an earlier zip split are gone. */
      std::vector<instr *> readers;
      for (const use &u : z->dst().val->uses())
         if (std::find(readers.begin(), readers.end(), u.in) == readers.end())
            readers.push_back(u.in);
      std::vector<std::array<instr *, 4>> pieces;
      bool ok = true;
      for (instr *in : readers) {
         std::array<instr *, 4> p{};
         if (!build_pieces(s, in, n, p.data())) {
            ok = false;
            break;
         }
         pieces.push_back(p);
      }
      if (!ok)
         continue;
      for (size_t j = 0; j < readers.size(); j++) {
         instr *in = readers[j];
         for (unsigned h = 0; h < n; h++) {
            instr *x = pieces[j][h];
            for (unsigned k = 0; k < x->num_srcs(); k++) {
               /* This zip and any other one of the block (read whole). */
               const operand &w = in->src(k);
               const instr *zk = w.val && w.val->file == reg_file::ssa ?
                                 w.val->def() : nullptr;
               if (!zk || (zk != z && (!is_result_zip(zk) ||
                                       zk->num_srcs() != n ||
                                       zk->parent() != in->parent())) ||
                   w.offset || w.has_region)
                  continue;
               const operand &o = x->src(k);
               operand r = zk->src(h);
               r.type = o.type;
               r.neg = o.neg;
               r.abs = o.abs;
               x->set_src(k, r);
            }
            in->parent()->insert_before(in, x);
         }
         instr *zip = s.create_instr(opcode::load_payload, in->exec_size);
         zip->group = in->group;
         in->parent()->insert_before(in, zip);
         const operand d = in->dst();
         in->remove();
         zip->add_dst(d);
         for (unsigned h = 0; h < n; h++)
            zip->add_src(operand(pieces[j][h]->dst().val));
      }
      split++;
   }
   for (instr *z : zips) {
      if (z->dst().val->uses().empty())
         z->remove();
   }
   return split;
}

/* May a use read a value at another offset than its own (an ALU source,
 * a payload gather), rather than a whole value (sends, phis, copies)?
 */
bool
reads_at_offset(const use &u)
{
   if (u.slot < 0)
      return false;
   const opcode_kind k = u.in->info().kind;
   return k == opcode_kind::alu || k == opcode_kind::math ||
          u.in->op == opcode::load_payload;
}

/* A load_payload that copies consecutive components of one SSA value of
 * its own layout is that value: its readers read the value instead (a
 * whole copy for sends and phis, any run for the others).  Splitting
 * leaves such copies behind (a SIMD16 payload half of a zip of two
 * send results).
 */
unsigned
propagate_payload_copies(shader &s)
{
   std::vector<instr *> lps;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (in->op == opcode::load_payload)
            lps.push_back(in);
   unsigned n = 0;
   for (instr *in : lps) {
      if (in->num_dsts() != 1 || !in->dst().val || in->predicate() ||
          in->preserve().val || in->we_all() || in->num_srcs() == 0)
         continue;
      value *d = in->dst().val;
      const operand &first = in->src(0);
      value *v = first.val;
      if (d->file != reg_file::ssa || !v || v->file != reg_file::ssa ||
          in->dst().offset || v->width != d->width || v->group != d->group ||
          v->bit_size() != d->bit_size() || in->num_srcs() != d->length ||
          first.offset % v->component_bytes())
         continue;
      const unsigned c = v->component_bytes();
      bool ok = true;
      for (unsigned i = 0; i < in->num_srcs(); i++) {
         const operand &o = in->src(i);
         ok &= o.val == v && !o.neg && !o.abs && !o.has_region &&
               o.offset == first.offset + i * c &&
               type_bits(o.type) == v->bit_size();
      }
      const bool whole = first.offset == 0 && d->length == v->length;
      /* A payload gathering the same bytes twice could place them only
       * once: there the copies stay, and one of them coalesces.
       */
      auto gathers_again = [&](const instr *lp) {
         if (lp->op != opcode::load_payload)
            return false;
         for (const operand &x : lp->srcs())
            if (x.val == v && x.offset < first.offset + d->size_bytes() &&
                first.offset < x.offset + c)
               return true;
         return false;
      };
      for (const use &u : d->uses())
         ok &= u.slot >= 0 && (whole || reads_at_offset(u)) &&
               !gathers_again(u.in);
      if (!ok)
         continue;
      const std::vector<use> uses = d->uses();
      for (const use &u : uses) {
         operand o = u.in->src(u.slot);
         o.val = v;
         o.offset += first.offset;
         u.in->set_src(u.slot, o);
      }
      in->remove();
      n++;
   }
   return n;
}

} /* anonymous namespace */

namespace {

/* A push constant block of several registers whose every read stays
 * within one register becomes one value per register read, each at its
 * own register: a register whose last read is early is free from then on
 * (brw frees its payload registers one by one, at their last use), where
 * the block as one value lives to its last read of any register.
 */
unsigned
split_push_constants(shader &s)
{
   unsigned n = 0;
   for (value *v : s.values()) {
      if (v->file != reg_file::uniform || !v->defs().empty() ||
          v->uses().empty() || v->width != 1 || v->phys.kind != phys_reg::grf ||
          v->phys.subreg != 0 || v->size_bytes() <= 32 || !reads_within(v, 32))
         continue;
      const unsigned cb = v->component_bytes(), per = 32 / cb;
      std::vector<value *> piece((v->size_bytes() + 31) / 32, nullptr);
      const std::vector<use> uses = v->uses();
      for (const use &u : uses) {
         operand o = u.in->src(u.slot);
         const unsigned r = o.offset / 32;
         if (!piece[r]) {
            const unsigned len = std::min(per, v->length - r * per);
            piece[r] = s.create_value(reg_file::uniform, v->type, 1, len);
            piece[r]->phys = v->phys;
            piece[r]->phys.nr = v->phys.nr + r;
         }
         o.val = piece[r];
         o.offset %= 32;
         u.in->set_src(u.slot, o);
      }
      n++;
   }
   return n;
}

} /* anonymous namespace */


namespace {
unsigned split_components(shader &s);
} /* anonymous namespace */

unsigned
ra_split_vectors(shader &s, bool halves, bool phis)
{
   split_push_constants(s);
   /* Below SIMD32 only what SIMD8 messages leave splits: payload halves
    * and the readers of result zips.
    */
   if (!halves || s.dispatch_width != 32) {
      unsigned split = split_components(s);
      if (halves) {
         split += split_payload_halves(s);
         split += split_zip_readers(s);
         if (phis)
            split += split_loop_phi_halves(s);
      }
      return split;
   }
   /* Components first: a texture result zipped from its halves, of which
    * one component is read whole (by a SIMD32 cmp), still has the others
    * read by halves.  Then again for the zips the halves leave.
    */
   unsigned split = split_components(s);
   split += split_wlr_halves(s);
   split += split_instr_halves(s, phis);
   split += split_components(s);
   split += split_payload_halves(s);
   split += split_zip_readers(s);
   if (phis)
      split += split_loop_phi_halves(s);
   propagate_payload_copies(s);
   return split;
}

namespace {

/* Is o all of an SSA value with v's per-component layout? */
bool
whole_value(const operand &o, const value *v)
{
   const value *x = o.val;
   return x && x->file == reg_file::ssa && !o.offset && !o.has_region &&
          !o.neg && !o.abs && x->length == 1 && x->width == v->width &&
          x->group == v->group && x->bit_size() == v->bit_size();
}

unsigned
split_components(shader &s)
{
   unsigned split = 0;
   std::vector<instr *> payloads;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->op == opcode::load_payload && in->num_dsts() == 1 &&
             in->dst().val && !in->predicate() && !in->preserve().val)
            payloads.push_back(in);
      }
   }
   for (instr *in : payloads) {
      value *v = in->dst().val;
      if (v->file != reg_file::ssa || v->length < 2 || v->width < 2 ||
          v->defs().size() != 1 || in->dst().offset)
         continue;
      unsigned c = v->component_bytes();
      /* Which sources build which component. */
      std::vector<std::vector<operand>> parts(v->length);
      unsigned pos = 0;
      bool ok = true;
      for (const operand &o : in->srcs()) {
         unsigned w = o.val && o.val->width > 1 ?
                      std::min<unsigned>(o.val->width, v->width) : v->width;
         unsigned n = w * v->bit_size() / 8;
         if (pos / c != (pos + n - 1) / c || pos / c >= v->length) {
            ok = false;
            break;
         }
         parts[pos / c].push_back(o);
         pos += n;
      }
      if (!ok || pos != c * v->length || !reads_within_components(v))
         continue;
      /* Components nobody reads are not built at all. */
      std::vector<bool> read(v->length, false);
      for (const use &u : v->uses())
         read[u.in->src(u.slot).offset / c] = true;
      std::vector<value *> comp(v->length);
      for (unsigned k = 0; k < v->length; k++) {
         if (!read[k])
            continue;
         /* A component that is a whole SSA value of its layout is that
          * value: a copy of it would interfere with the value wherever
          * both live (a loop's payload of values read after the loop,
          * nexuiz/94.fs: five copies per iteration).
          */
         if (parts[k].size() == 1 && whole_value(parts[k][0], v) &&
             (!(in->flags & INSTR_WE_ALL) || parts[k][0].val->is_simd_global())) {
            comp[k] = parts[k][0].val;
            continue;
         }
         comp[k] = s.create_value(reg_file::ssa, v->type, v->width, 1, v->group);
         instr *lp = s.create_instr(opcode::load_payload, in->exec_size);
         lp->group = in->group;
         lp->flags = in->flags;
         lp->add_dst(operand(comp[k]));
         for (const operand &o : parts[k])
            lp->add_src(o);
         in->parent()->insert_before(in, lp);
      }
      std::vector<use> uses = v->uses();
      for (const use &u : uses) {
         operand o = u.in->src(u.slot);
         unsigned k = o.offset / c;
         o.val = comp[k];
         o.offset -= k * c;
         u.in->set_src(u.slot, o);
      }
      in->remove();
      split++;
   }
   return split;
}

} /* anonymous namespace */

} /* namespace ibis */
