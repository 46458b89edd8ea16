/*
 * Spilling to scratch: a scratch write after the value's (last) write and
 * a fill into a fresh value before each instruction that reads it, both
 * logical scratch messages that the lowering pass turns into sends
 * (lower_instr()).  The messages of a SIMD-global value run with NoMask:
 * its bits in disabled channels are part of the value.
 */
#include "ra/ra_internal.h"

#include <algorithm>

#include "lower/lower.h"
#include "util/ibis_error.h"

namespace ibis {

/* For each block, the index of the last block of the innermost loop
 * around it, or -1 (structured loops: a do opens, a while closes).
 */
static std::vector<int>
loop_ends(const shader &s)
{
   std::vector<int> end(s.blocks().size(), -1);
   std::vector<unsigned> open;
   for (const auto &b : s.blocks()) {
      if (b->first() && b->first()->op == opcode::do_)
         open.push_back(b->index);
      if (b->last() && b->last()->op == opcode::while_ && !open.empty()) {
         /* Inner loops close first and keep their blocks. */
         for (unsigned i = open.back(); i <= b->index; i++)
            if (end[i] < 0)
               end[i] = int(b->index);
         open.pop_back();
      }
   }
   return end;
}

/* The component of v that all of in's reads of v lie in, or -1 (then
 * the fill brings the whole value).  Only components of whole registers,
 * as block messages move registers: a reader of one component of a
 * large vector fills that component, not the vector (a SIMD32 load_payload
 * of four vectors' fourth components needed 64 GRFs of fills).
 */
static int
read_component(const instr *in, const value *v)
{
   const unsigned cb = v->component_bytes();
   if (v->length < 2 || cb % 32 || in->preserve().val == v)
      return -1;
   const opcode_kind k = in->info().kind;
   if (in->op != opcode::load_payload &&
       (k != opcode_kind::alu && k != opcode_kind::math))
      return -1;
   if (in->op == opcode::broadcast || in->op == opcode::shuffle ||
       in->op == opcode::mov_indirect || in->is_phi())
      return -1;
   int comp = -1;
   for (unsigned i = 0; i < in->num_srcs(); i++) {
      const operand &o = in->src(i);
      if (o.val != v)
         continue;
      unsigned n;
      if (in->op == opcode::load_payload) {
         const value *d = in->dst().val;
         n = (v->width > 1 ? std::min<unsigned>(v->width, d->width) : d->width) *
             d->bit_size() / 8;
      } else {
         n = ra_read_bytes(in, o);
      }
      const int c = int(o.offset / cb);
      if ((o.offset + std::max(n, 1u) - 1) / cb != unsigned(c) ||
          (comp >= 0 && comp != c))
         return -1;
      comp = c;
   }
   return comp;
}

void
ra_spill_values(shader &s, const device_info &dev,
                const std::vector<value *> &vals, ra_result &res)
{
   (void)res;
   std::vector<instr *> added;
   const std::vector<int> loop_end = loop_ends(s);
   for (value *v : vals) {
      if (v->defs().empty())
         throw error(strfmt("register allocation: cannot spill %%%u, it has no "
                     "definition", v->id));
      bool global = v->is_simd_global();
      unsigned slot = s.scratch_bytes;
      s.scratch_bytes += (v->size_bytes() + 31) / 32 * 32;

      /* After the last write (WLR writes are all in one block). */
      instr *last = v->defs()[0];
      if (v->defs().size() > 1) {
         /* By block order: spills earlier in the round left the ips
          * stale.
          */
         for (instr *x : last->parent()->instrs())
            if (x->writes(v))
               last = x;
      }
      /* A SIMD-local value written in a loop and read after it: channels
       * that left in an earlier iteration keep their value in the slot
       * only if the store, which writes every channel, stores what the
       * slot held for them.  The register no longer holds it there (it
       * lives from the write to the store only), so the store is a
       * read-modify-write: a NoMask fill of the slot, the masked copy
       * over it, the store of that.
       */
      const int lend = loop_end[last->parent()->index];
      bool rmw = false;
      if (!global && lend >= 0) {
         for (const use &u : v->uses())
            rmw |= int(u.in->parent()->index) > lend;
      }
      instr *w = s.create_instr(opcode::scratch_write_logical, v->width);
      w->group = v->group;
      w->flags |= INSTR_SPILL | (global ? uint32_t(INSTR_WE_ALL) : 0u);
      w->add_src(operand::imm_u32(slot));
      instr *merge = nullptr;
      std::vector<instr *> store = {w};
      if (rmw) {
         value *f = s.create_value(reg_file::ssa, v->type, v->width,
                                   v->length, v->group);
         instr *r = s.create_instr(opcode::scratch_read_logical, v->width);
         r->group = v->group;
         r->flags |= INSTR_FILL | INSTR_WE_ALL;
         r->add_dst(operand(f));
         r->add_src(operand::imm_u32(slot));
         value *m = s.create_value(reg_file::ssa, v->type, v->width,
                                   v->length, v->group);
         merge = ra_make_copy(s, operand(m), operand(v));
         merge->flags &= ~uint32_t(INSTR_WE_ALL);
         merge->set_preserve(operand(f));
         w->flags |= INSTR_WE_ALL;
         w->add_src(operand(m));
         store = {r, merge, w};
         added.push_back(r);
      } else {
         w->add_src(operand(v));
      }
      instr *at = last;
      for (instr *x : store) {
         if (at->is_phi())
            at->parent()->insert(at->parent()->after_phis(), x);
         else
            at->parent()->insert_after(at, x);
         at = x;
      }
      added.push_back(w);

      /* A fill before each reader after the store.  A WLR value read
       * between or by its writes (a scan reading its own earlier pieces)
       * is read there in its register: the slot is not written yet.
       */
      std::vector<instr *> before_store;
      if (v->defs().size() > 1) {
         for (instr *x : last->parent()->instrs()) {
            before_store.push_back(x);
            if (x == last)
               break;
         }
      }
      std::vector<instr *> readers;
      for (const use &u : v->uses()) {
         if (u.in != w && u.in != merge &&
             std::find(readers.begin(), readers.end(), u.in) ==
                          readers.end() &&
             std::find(before_store.begin(), before_store.end(), u.in) ==
                          before_store.end())
            readers.push_back(u.in);
      }
      for (instr *in : readers) {
         if (in->is_phi())
            throw error(strfmt("register allocation: cannot spill phi source %%%u",
                        v->id));
         const int comp = read_component(in, v);
         const unsigned skip = comp > 0 ? unsigned(comp) * v->component_bytes() : 0;
         value *f = s.create_value(reg_file::ssa, v->type, v->width,
                                   comp >= 0 ? 1 : v->length, v->group);
         instr *r = s.create_instr(opcode::scratch_read_logical, v->width);
         r->group = v->group;
         r->flags |= INSTR_FILL | (global ? uint32_t(INSTR_WE_ALL) : 0u);
         r->add_dst(operand(f));
         r->add_src(operand::imm_u32(slot + skip));
         in->parent()->insert_before(in, r);
         added.push_back(r);
         /* A phi edge takes the fill through a masked copy: a fill runs
          * NoMask, and a phi whose edges all bring NoMask values would
          * be taken for SIMD-global, its copies writing every channel
          * (then-side garbage over the else-side's channels).
          */
         if (in->op == opcode::parallel_copy && !global) {
            value *m = s.create_value(reg_file::ssa, v->type, v->width,
                                      v->length, v->group);
            instr *cp = ra_make_copy(s, operand(m), operand(f));
            cp->flags &= ~uint32_t(INSTR_WE_ALL);
            in->parent()->insert_before(in, cp);
            f = m;
         }
         for (unsigned i = 0; i < in->num_srcs(); i++) {
            if (in->src(i).val == v) {
               operand o = in->src(i);
               o.val = f;
               o.offset -= skip;
               in->set_src(i, o);
            }
         }
         if (in->preserve().val == v) {
            operand o = in->preserve();
            o.val = f;
            in->set_preserve(o);
         }
      }
   }
   for (instr *in : added)
      lower_instr(s, in, dev);
}

/* May d move down its block to just before the one reader of its
 * result?  Fills (and their header and masked copies) only: nothing with
 * side effects, and every result read once, in the block.
 */
static bool
sinkable(const instr *d, const block *b)
{
   if (!d || d->parent() != b || d->is_phi() || d->is_block_end() ||
       d->num_dsts() != 1 || d->predicate() || d->flag_def() ||
       d->preserve().val)
      return false;
   if (!(d->flags & INSTR_FILL) && d->op != opcode::copy && d->op != opcode::mov)
      return false;
   const value *v = d->dst().val;
   return v && v->file == reg_file::ssa && v->defs().size() == 1 &&
          v->uses().size() == 1 && v->uses()[0].in->parent() == b;
}

/* Moves the single-use fill chain feeding in's sources (a fill, its
 * header copy, the masked copy of a phi edge) to just before in.
 */
static void
sink_fill_chain(instr *in)
{
   block *b = in->parent();
   std::vector<instr *> chain;
   std::vector<instr *> todo = {in};
   while (!todo.empty()) {
      instr *x = todo.back();
      todo.pop_back();
      for (const operand &o : x->srcs()) {
         instr *d = o.val ? o.val->def() : nullptr;
         if (d && (d->flags & INSTR_SPILL) == 0 && sinkable(d, b) &&
             std::find(chain.begin(), chain.end(), d) == chain.end()) {
            chain.push_back(d);
            todo.push_back(d);
         }
      }
   }
   if (chain.empty())
      return;
   /* Only a chain that ends in a fill: other copies stay where they are. */
   bool fill = false;
   for (const instr *d : chain)
      fill |= (d->flags & INSTR_FILL) != 0;
   if (!fill)
      return;
   std::vector<instr *> order;
   for (instr *x : b->instrs()) {
      if (x == in) {
         /* The chain in its original order. */
         for (instr *y : b->instrs())
            if (std::find(chain.begin(), chain.end(), y) != chain.end())
               order.push_back(y);
      }
      if (std::find(chain.begin(), chain.end(), x) == chain.end())
         order.push_back(x);
   }
   b->reorder(order);
}

/* A phi class {d0, t_1..t_n} (ra_insert_phi_copies()) in scratch: the
 * slot plays the class register.  Each edge copy t_i = s_i becomes a
 * store of s_i to the slot; the phi goes, and "d = copy d0" becomes a
 * fill of d.  The copies of a SIMD-local phi run with the mask: each
 * channel keeps the value of the edge it came by, so a store there is a
 * read-modify-write (NoMask fill, masked copy over it, NoMask store), as
 * the class register would have been written.
 */
void
ra_spill_phi_class(shader &s, const device_info &dev,
                   const std::vector<value *> &cls)
{
   value *d0 = cls[0];
   instr *phi = d0->def();
   if (!phi || !phi->is_phi())
      throw error(strfmt("register allocation: %%%u heads no phi class", d0->id));
   const bool global = ra_phi_is_simd_global(phi);
   const unsigned slot = s.scratch_bytes;
   s.scratch_bytes += (d0->size_bytes() + 31) / 32 * 32;
   std::vector<instr *> added;
   auto scratch = [&](opcode op, uint32_t flag) {
      instr *in = s.create_instr(op, d0->width);
      in->group = d0->group;
      in->flags |= flag | INSTR_WE_ALL;
      added.push_back(in);
      return in;
   };

   std::vector<instr *> pcs, copies;
   for (size_t i = 1; i < cls.size(); i++) {
      value *t = cls[i];
      instr *def = t->def();
      if (!def)
         continue;
      if (def->op == opcode::undef) {
         def->remove();
         continue;
      }
      if (def->op != opcode::parallel_copy)
         throw error(strfmt("register allocation: phi class member %%%u is "
                            "not an edge copy", t->id));
      for (unsigned k = 0; k < def->num_dsts(); k++) {
         if (def->dst(k).val != t)
            continue;
         const operand src = def->src(k);
         value *m = s.create_value(reg_file::ssa, t->type, t->width,
                                   t->length, t->group);
         instr *cp = ra_make_copy(s, operand(m), src);
         if (global) {
            cp->flags |= INSTR_WE_ALL;
         } else if (t->width > 1) {
            /* The masked copy over what the slot held. */
            cp->flags &= ~uint32_t(INSTR_WE_ALL);
            value *f = s.create_value(reg_file::ssa, t->type, t->width,
                                      t->length, t->group);
            instr *r = scratch(opcode::scratch_read_logical, INSTR_FILL);
            r->add_dst(operand(f));
            r->add_src(operand::imm_u32(slot));
            def->parent()->insert_before(def, r);
            cp->set_preserve(operand(f));
         }
         def->parent()->insert_before(def, cp);
         copies.push_back(cp);
         instr *w = scratch(opcode::scratch_write_logical, INSTR_SPILL);
         w->add_src(operand::imm_u32(slot));
         w->add_src(operand(m));
         def->parent()->insert_before(def, w);
      }
      if (std::find(pcs.begin(), pcs.end(), def) == pcs.end())
         pcs.push_back(def);
   }
   /* The parallel copies without the class's entries. */
   value_set members(s.value_id_bound());
   for (value *v : cls)
      members.add(v);
   for (instr *pc : pcs) {
      instr *n = s.create_instr(opcode::parallel_copy, pc->exec_size);
      n->group = pc->group;
      n->flags = pc->flags;
      for (unsigned k = 0; k < pc->num_dsts(); k++) {
         if (members.has(pc->dst(k).val))
            continue;
         n->add_dst(pc->dst(k));
         n->add_src(pc->src(k));
      }
      if (n->num_dsts())
         pc->parent()->insert_before(pc, n);
      pc->remove();
   }

   /* A source the spiller filled for the parallel copy was filled before
    * it, so it would live across every other entry's store: its fill
    * moves down to its copy.
    */
   for (instr *cp : copies)
      sink_fill_chain(cp);

   /* The phi's reader, "d = copy d0", fills d instead. */
   std::vector<instr *> readers;
   for (const use &u : d0->uses())
      if (std::find(readers.begin(), readers.end(), u.in) == readers.end())
         readers.push_back(u.in);
   phi->remove();
   for (instr *in : readers) {
      if ((in->op != opcode::copy && in->op != opcode::mov) ||
          in->num_dsts() != 1 || in->src(0).val != d0 || in->src(0).offset ||
          in->src(0).has_region || in->predicate() || in->preserve().val)
         throw error(strfmt("register allocation: cannot spill phi class of "
                            "%%%u: read by '%s'", d0->id, in->str().c_str()));
      value *d = in->dst().val;
      if (d->size_bytes() != d0->size_bytes())
         throw error(strfmt("register allocation: cannot spill phi class of "
                            "%%%u: %%%u differs in size", d0->id, d->id));
      instr *r = scratch(opcode::scratch_read_logical, INSTR_FILL);
      r->add_dst(in->dst());
      r->add_src(operand::imm_u32(slot));
      in->parent()->insert_before(in, r);
      in->remove();
   }
   for (instr *in : added)
      lower_instr(s, in, dev);
}

} /* namespace ibis */
