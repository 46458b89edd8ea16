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

#include <algorithm>

namespace ibis {

namespace {

} /* anonymous namespace */

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

bool
reads_within_components(const value *v)
{
   unsigned c = v->component_bytes();
   for (const use &u : v->uses()) {
      if (u.slot < 0)
         return false;
      const instr *in = u.in;
      switch (in->op) {
      case opcode::send:
      case opcode::phi:
      case opcode::parallel_copy:
      case opcode::copy:
      case opcode::mov_indirect:
      case opcode::shuffle:
         return false;
      default:
         break;
      }
      const operand &o = in->src(u.slot);
      unsigned n;
      if (in->op == opcode::load_payload) {
         const value *d = in->dst().val;
         unsigned w = v->width > 1 ? std::min<unsigned>(v->width, d->width)
                                   : d->width;
         n = w * d->bit_size() / 8;
      } else {
         n = ra_read_bytes(in, o);
      }
      if (n == 0 || o.offset / c != (o.offset + n - 1) / c)
         return false;
   }
   return true;
}

} /* anonymous namespace */

unsigned
ra_split_vectors(shader &s)
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
      std::vector<value *> comp(v->length);
      for (unsigned k = 0; k < v->length; k++) {
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

} /* namespace ibis */
