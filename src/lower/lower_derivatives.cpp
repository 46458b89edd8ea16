/*
 * Screen-space derivatives as brw's generator emits them (generate_ddx,
 * generate_ddy for Gen9 align1): a subtraction of two regioned reads of
 * the value within each 2x2 subspan (channels 4q..4q+3 are the pixels
 * (0,0) (1,0) (0,1) (1,1) of quad q).
 *   ddx_coarse  src.1<4,4,0> - src<4,4,0>   (top-right minus top-left)
 *   ddy_coarse  src.2<4,4,0> - src<4,4,0>   (bottom-left minus top-left)
 *   ddx_fine    src.1<2,2,0> - src<2,2,0>   (per row)
 * ddy_fine needs an align16 swizzle in brw; it is not lowered.
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

void
lower_derivative(shader &s, instr *in)
{
   builder b(&s);
   b.before(in);
   const builder eb = b.exec(in->exec_size, in->group);
   operand src = in->src(0);
   const data_type t = in->dst().type;
   if (in->op == opcode::ddy_fine)
      throw error("lower: ddy_fine is not supported: '" + in->str() + "'");
   if (type_bits(t) != 32 || src.type != t)
      throw error("lower: derivatives of 32-bit floats only: '" + in->str() + "'");

   instr *res;
   if (src.is_imm() || src.val->width == 1 ||
       (src.has_region && src.rgn.vstride == 0 && src.rgn.hstride == 0)) {
      /* A value equal in every channel changes nowhere. */
      res = eb.mov(in->dst(), operand::imm_f32(0.0f));
   } else {
      src = plain(eb, src);
      const unsigned eb_bytes = 4;
      unsigned w = 4, step = 1;
      if (in->op == opcode::ddy_coarse)
         step = 2;
      if (in->op == opcode::ddx_fine)
         w = 2;
      operand base = src.with_region(w, w, 0);
      operand next = base;
      next.offset += step * eb_bytes;
      res = eb.add(in->dst(), next, base.negate());
   }
   res->saturate = in->saturate;
   in->remove();
}

} /* namespace ibis::lowering */
