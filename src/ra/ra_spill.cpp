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

void
ra_spill_values(shader &s, const device_info &dev,
                const std::vector<value *> &vals, ra_result &res)
{
   (void)res;
   std::vector<instr *> added;
   for (value *v : vals) {
      if (v->defs().empty())
         throw error(strfmt("register allocation: cannot spill %%%u, it has no "
                     "definition", v->id));
      bool global = v->is_simd_global();
      unsigned slot = s.scratch_bytes;
      s.scratch_bytes += (v->size_bytes() + 31) / 32 * 32;

      /* After the last write (WLR writes are all in one block). */
      instr *last = v->defs()[0];
      for (instr *d : v->defs()) {
         if (d->parent() == last->parent() && d->ip > last->ip)
            last = d;
      }
      instr *w = s.create_instr(opcode::scratch_write_logical, v->width);
      w->group = v->group;
      w->flags |= INSTR_SPILL | (global ? uint32_t(INSTR_WE_ALL) : 0u);
      w->add_src(operand::imm_u32(slot));
      w->add_src(operand(v));
      if (last->is_phi())
         last->parent()->insert(last->parent()->after_phis(), w);
      else
         last->parent()->insert_after(last, w);
      added.push_back(w);

      /* A fill before each reader. */
      std::vector<instr *> readers;
      for (const use &u : v->uses()) {
         if (u.in != w && std::find(readers.begin(), readers.end(), u.in) ==
                          readers.end())
            readers.push_back(u.in);
      }
      for (instr *in : readers) {
         if (in->is_phi())
            throw error(strfmt("register allocation: cannot spill phi source %%%u",
                        v->id));
         value *f = s.create_value(reg_file::ssa, v->type, v->width,
                                   v->length, v->group);
         instr *r = s.create_instr(opcode::scratch_read_logical, v->width);
         r->group = v->group;
         r->flags |= INSTR_FILL | (global ? uint32_t(INSTR_WE_ALL) : 0u);
         r->add_dst(operand(f));
         r->add_src(operand::imm_u32(slot));
         in->parent()->insert_before(in, r);
         added.push_back(r);
         for (unsigned i = 0; i < in->num_srcs(); i++) {
            if (in->src(i).val == v) {
               operand o = in->src(i);
               o.val = f;
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

} /* namespace ibis */
