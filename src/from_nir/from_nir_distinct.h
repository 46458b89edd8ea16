/*
 * Accesses whose surface, texture or sampler index differs between
 * channels: a message descriptor holds one index for all channels, so the
 * access runs once per distinct index, as in brw's
 * nir_lower_non_uniform_access loop.
 */
#pragma once

#include "from_nir/from_nir_private.h"

namespace ibis {

inline bool
non_uniform(const operand &o)
{
   return o.val && o.val->width > 1;
}

/* do { i = the first live channel's indices; if (this channel's are i)
 * r = body(i); if (this channel's are i) break; } while: each pass serves
 * the channels that share the first live channel's indices, which then
 * leave the loop.  The indices in idx are replaced by the uniform ones for
 * body, which returns its result's components as length-1 values.  They
 * are carried through the loop in SSA variables (phis at the header and
 * after the first if), so the result is live in the whole loop and no
 * value of a later pass takes the registers of channels that have left.
 * Returns the components after the loop.
 */
template <typename F>
comps
for_each_distinct(nir_translator &t, std::vector<operand *> idx, data_type type,
                  unsigned ncomps, F body)
{
   builder &bld = t.bld;
   /* Builders at the current cursor (start_block moves it). */
   auto wb = [&]() { return bld.exec(t.width); };
   std::vector<unsigned> vars;
   for (unsigned c = 0; c < ncomps; c++)
      vars.push_back(t.ssa.add_var(type, t.width));

   block *pre = bld.cur_block();
   block *header = t.start_block();
   t.ssa.add_pred(header, pre);
   wb().do_();

   const builder one = t.uniform_builder();
   value *ch = one.find_live_channel(data_type::u32);
   operand diff;
   for (operand *o : idx) {
      if (!non_uniform(*o))
         continue;
      const operand full = o->as_type(data_type::u32);
      value *u = one.broadcast(data_type::u32, full, operand(ch));
      operand x(wb().xor_(data_type::u32, full, operand(u)));
      diff = diff.is_null() ? x : operand(wb().or_(data_type::u32, diff, x));
      *o = operand(u);
   }
   wb().predicated(wb().cmp(cond_mod::z, diff, operand::imm_u32(0))).if_();
   block *head = bld.cur_block();
   block *then = t.start_block();
   t.ssa.add_pred(then, head);
   t.ssa.seal(then);
   comps r = body();
   for (unsigned c = 0; c < ncomps; c++)
      t.ssa.write(vars[c], bld.cur_block(), t.materialize(wb(), r[c], type));
   block *then_end = bld.cur_block();
   block *merge = t.start_block();
   t.ssa.add_pred(merge, head);
   t.ssa.add_pred(merge, then_end);
   wb().endif();
   t.ssa.seal(merge);

   /* Flags live in one block: compare again to leave. */
   wb().predicated(wb().cmp(cond_mod::z, diff, operand::imm_u32(0))).if_();
   block *head2 = bld.cur_block();
   block *leave = t.start_block();
   t.ssa.add_pred(leave, head2);
   t.ssa.seal(leave);
   wb().break_();
   block *merge2 = t.start_block();
   t.ssa.add_pred(merge2, head2);
   wb().endif();
   t.ssa.seal(merge2);
   wb().while_();
   t.ssa.add_pred(header, merge2);
   t.ssa.seal(header);

   block *exit = t.start_block();
   t.ssa.add_pred(exit, leave);
   t.ssa.seal(exit);
   comps out;
   for (unsigned c = 0; c < ncomps; c++)
      out.push_back(operand(t.ssa.read(vars[c], exit)));
   return out;
}


} /* namespace ibis */
