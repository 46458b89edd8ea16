/*
 * Compute shaders (Gen9): workgroup ids from the thread header, the
 * subgroup id from the per-thread push constant, local invocation ids
 * derived from them, and the thread end.
 */
#include "from_nir/from_nir_private.h"

namespace ibis {

using nir::intrinsic_op;

bool
nir_translator::emit_cs_intrinsic(const nir::intrinsic_instr &in)
{
   builder u = uniform_builder();
   auto subgroup_id = [&]() {
      return operand(u.mov(data_type::u32, push_constant(payload.cs_subgroup_id_dword * 4,
                                                         data_type::u32)));
   };
   const auto &wg = nir.info.workgroup_size;

   switch (in.op) {
   case intrinsic_op::load_workgroup_id:
   case intrinsic_op::load_workgroup_id_zero_base: {
      /* g0.1, g0.6 and g0.7 of the thread header. */
      static const unsigned dw[3] = {1, 6, 7};
      comps c;
      for (unsigned i = 0; i < 3; i++) {
         operand g = operand(hw(0, data_type::u32));
         g.offset = dw[i] * 4;
         c.push_back(operand(u.mov(data_type::u32, g.with_region(0, 1, 0))));
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_subgroup_id:
      set_def(in.dest, {subgroup_id()});
      return true;
   case intrinsic_op::load_workgroup_size:
      if (nir.info.workgroup_size_variable)
         unsupported("variable workgroup sizes are not supported");
      set_def(in.dest, {operand::imm_u32(wg[0]), operand::imm_u32(wg[1]),
                        operand::imm_u32(wg[2])});
      return true;
   case intrinsic_op::load_local_invocation_index:
   case intrinsic_op::load_local_invocation_id: {
      /* index = subgroup id * width + channel; ids by division with the
       * (fixed) workgroup size, as brw_nir_lower_cs_intrinsics does.
       */
      if (nir.info.workgroup_size_variable)
         unsupported("variable workgroup sizes are not supported");
      builder b = bld.exec(width);
      value *base = u.mul(data_type::u32, subgroup_id(), operand::imm_u32(width));
      value *index = b.add(data_type::u32, operand(get_subgroup_invocation()), operand(base));
      if (in.op == intrinsic_op::load_local_invocation_index) {
         set_def(in.dest, {operand(index)});
         return true;
      }
      value *x = b.math_irem(data_type::u32, operand(index), operand::imm_u32(wg[0]));
      value *yz = b.math_idiv(data_type::u32, operand(index), operand::imm_u32(wg[0]));
      value *y = b.math_irem(data_type::u32, operand(yz), operand::imm_u32(wg[1]));
      value *z = b.math_idiv(data_type::u32, operand(yz), operand::imm_u32(wg[1]));
      set_def(in.dest, {operand(x), operand(y), operand(z)});
      return true;
   }
   default:
      return false;
   }
}

void
nir_translator::cs_finish()
{
   instr *end = bld.exec(width).nomask().emit(opcode::thread_end_logical, {},
                                              {operand(hw(0, data_type::u32))});
   end->flags |= INSTR_EOT;
}

} /* namespace ibis */
