/*
 * Screen-space derivatives as brw's generator emits them (generate_ddx,
 * generate_ddy for Gen9 align1): a subtraction of two regioned reads of
 * the value within each 2x2 subspan (channels 4q..4q+3 are the pixels
 * (0,0) (1,0) (0,1) (1,1) of quad q).
 *   ddx_coarse  src.1<4,4,0> - src<4,4,0>   (top-right minus top-left)
 *   ddy_coarse  src.2<4,4,0> - src<4,4,0>   (bottom-left minus top-left)
 *   ddx_fine    src.1<2,2,0> - src<2,2,0>   (per row)
 *   ddy_fine    src.2<0,2,1> - src<0,2,1>   (per column, one add(4) per
 *               subspan)
 * brw's Gen9 ddy_fine is one align16 add with the swizzles xyxy and zwzw;
 * ibis has no align16, so it takes brw's Gen11 align1 form: an add(4)
 * per subspan whose <0;2,1> regions read the subspan's top row (and, 8
 * bytes on, its bottom row) twice.  Each add writes a 4-channel value and
 * one load_payload gathers them, so the result stays SSA.
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
   if (type_bits(t) != 32 || src.type != t)
      throw error("lower: derivatives of 32-bit floats only: '" + in->str() + "'");

   instr *res;
   if (src.is_imm() || src.val->width == 1 ||
       (src.has_region && src.rgn.vstride == 0 && src.rgn.hstride == 0)) {
      /* A value equal in every channel changes nowhere. */
      res = eb.mov(in->dst(), operand::imm_f32(0.0f));
   } else if (in->op == opcode::ddy_fine) {
      src = plain(eb, src);
      value *dst = in->dst().val;
      if (!dst || dst->file != reg_file::ssa || in->dst().offset ||
          dst->width != in->exec_size || dst->group != in->group)
         throw error("lower: ddy_fine writes a whole SSA value: '" +
                     in->str() + "'");
      std::vector<operand> quads;
      for (unsigned g = in->group; g < in->group + in->exec_size; g += 4) {
         const builder qb = b.exec(4, g);
         operand top = channels_of(src, g).with_region(0, 2, 1);
         operand bottom = top;
         bottom.offset += 2 * 4;
         value *q = s.create_value(reg_file::ssa, t, 4, 1, g);
         instr *add = qb.add(operand(q), bottom, top.negate());
         add->saturate = in->saturate;
         quads.push_back(operand(q));
      }
      eb.emit(opcode::load_payload, {in->dst()}, quads);
      in->remove();
      return;
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
