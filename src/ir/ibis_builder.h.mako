/* Generated from ibis_builder.h.mako and ibis_opcodes.py by
 * ibis_opcodes_gen.py: do not edit.
 *
 * ibis::builder emits instructions at a cursor, in the spirit of
 * nir_builder and ACO's Builder.  Copies are cheap and carry the execution
 * state (size, group, NoMask, predicate) for the instructions they emit:
 *
 *    builder b(sh, blk);
 *    value *x = b.add(data_type::f32, a, operand::imm_f32(1.0f));
 *    value *f = b.cmp(cond_mod::l, x, c);
 *    b.predicated(f).if_();
 *    b.exec(8).nomask().mov(hi_half, x);    // writes an existing value
 *
 * For every opcode with one destination the builder has two forms:
 * NAME(type, srcs...) returns a new SSA value written by the instruction,
 * and NAME(dst, srcs...) writes the given destination operand and returns
 * the instruction.
 */
#pragma once

#include <initializer_list>
#include <vector>

#include "ir/ibis_ir.h"
#include "util/ibis_error.h"

namespace ibis {

class builder {
public:
   builder(shader *sh, block *blk = nullptr) : sh(sh)
   {
      if (blk)
         at_end(blk);
   }

   shader *sh;

   /* Cursor. */
   void at_end(block *b) { blk = b; pos = b->end(); }
   void at_start(block *b) { blk = b; pos = b->after_phis(); }
   void before(instr *in) { blk = in->parent(); pos = in->position(); }
   void after(instr *in) { blk = in->parent(); pos = std::next(in->position()); }
   block *cur_block() const { return blk; }

   /* Execution state of the emitted instructions. */
   builder exec(unsigned size, unsigned first_channel = 0) const
   {
      builder b = *this;
      b.exec_size = size;
      b.group = first_channel;
      return b;
   }
   builder nomask() const { builder b = *this; b.we_all = true; return b; }
   builder predicated(value *flag, bool inverted = false) const
   {
      builder b = *this;
      b.pred = flag;
      b.pred_inv = inverted;
      return b;
   }
   unsigned width() const { return exec_size ? exec_size : sh->dispatch_width; }

   /* New values.  ssa() and flag() take the builder's width and group. */
   value *ssa(data_type t, unsigned length = 1) const
   {
      return sh->create_value(t == data_type::flag ? reg_file::flag : reg_file::ssa,
                              t, width(), length, group);
   }
   value *flag() const { return ssa(data_type::flag); }
   value *wlr(data_type t, unsigned length = 1) const
   {
      return sh->create_value(reg_file::wlr, t, width(), length, group);
   }
   /* A fixed hardware register, gNR, as `length` registers of type t. */
   value *hw_reg(unsigned nr, data_type t = data_type::u32, unsigned length = 1) const
   {
      value *v = sh->create_value(reg_file::hw_reg, t, 256 / type_bits(t), length);
      v->phys = phys_reg{phys_reg::grf, uint16_t(nr), 0};
      return v;
   }
   value *uniform(data_type t, unsigned length = 1) const
   {
      return sh->create_value(reg_file::uniform, t, 1, length);
   }
   value *attr(data_type t, unsigned length = 1) const
   {
      return sh->create_value(reg_file::attr, t, sh->dispatch_width, length);
   }

   /* Emits op with the given destinations and sources. */
   instr *emit(opcode op, std::initializer_list<operand> dsts,
               std::initializer_list<operand> srcs) const
   {
      return emit(op, dsts.begin(), dsts.size(), srcs.begin(), srcs.size());
   }
   instr *emit(opcode op, const std::vector<operand> &dsts,
               const std::vector<operand> &srcs) const
   {
      return emit(op, dsts.data(), dsts.size(), srcs.data(), srcs.size());
   }
   /* The same from arrays: the lists above need no copy of their own. */
   instr *emit(opcode op, const operand *dsts, size_t num_dsts,
               const operand *srcs, size_t num_srcs) const
   {
      IBIS_CHECK(blk, "builder without a cursor");
      instr *in = sh->create_instr(op, width());
      in->group = group;
      if (we_all)
         in->flags |= INSTR_WE_ALL;
      for (size_t i = 0; i < num_dsts; i++)
         in->add_dst(dsts[i]);
      in->reserve_srcs(num_srcs);
      for (size_t i = 0; i < num_srcs; i++)
         in->add_src(srcs[i]);
      if (pred)
         in->set_predicate(pred, pred_inv);
      blk->insert(pos, in);
      return in;
   }
   /* Emits op writing a new SSA value of type t. */
   value *def(opcode op, data_type t, std::initializer_list<operand> srcs) const
   {
      value *v = ssa(t);
      emit(op, {operand(v)}, srcs);
      return v;
   }

   /* A comparison whose only result is a new FLAG value. */
   value *cmp(cond_mod c, const operand &a, const operand &b) const
   {
      value *f = flag();
      instr *in = emit(opcode::cmp, {}, {a, b});
      in->cmod = c;
      in->set_flag_def(f);
      return f;
   }
   instr *phi(value *dst, const std::vector<operand> &srcs) const
   {
      const operand d(dst);
      return emit(opcode::phi, &d, 1, srcs.data(), srcs.size());
   }
   value *phi(data_type t, const std::vector<operand> &srcs) const
   {
      value *v = ssa(t);
      phi(v, srcs);
      return v;
   }
   /* Gathers srcs into the components of a new value of length srcs.size(). */
   value *load_payload(data_type t, const std::vector<operand> &srcs) const
   {
      value *v = ssa(t, srcs.size());
      const operand d(v);
      emit(opcode::load_payload, &d, 1, srcs.data(), srcs.size());
      return v;
   }
   instr *parallel_copy(const std::vector<operand> &dsts,
                        const std::vector<operand> &srcs) const
   {
      return emit(opcode::parallel_copy, dsts, srcs);
   }

   /* Per-opcode helpers. */
<%
   helpers = [o for o in opcodes if o.num_srcs >= 0 and o.num_dsts in (0, 1)
              and o.kind not in ('send', 'logical') and o.name != 'cmp']
%>\
% for o in helpers:
<%
   params = ', '.join('const operand &s%d' % i for i in range(o.num_srcs))
   args = ', '.join('s%d' % i for i in range(o.num_srcs))
%>\
% if o.num_dsts == 1:
   value *${o.cname}(data_type t${', ' + params if params else ''}) const
   {
      return def(opcode::${o.cname}, t, {${args}});
   }
   instr *${o.cname}(const operand &dst${', ' + params if params else ''}) const
   {
      return emit(opcode::${o.cname}, {dst}, {${args}});
   }
% else:
   instr *${o.cname}(${params}) const
   {
      return emit(opcode::${o.cname}, {}, {${args}});
   }
% endif
% endfor

private:
   block *blk = nullptr;
   block::iterator pos;
   unsigned exec_size = 0;      /* 0: the dispatch width */
   unsigned group = 0;
   bool we_all = false;
   value *pred = nullptr;
   bool pred_inv = false;
};

} /* namespace ibis */
