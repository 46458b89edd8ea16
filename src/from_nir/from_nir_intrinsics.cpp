/*
 * Intrinsics common to every stage: registers (rebuilt into SSA), outputs,
 * push constants and UBOs, barriers.  Stage-specific ones live in
 * from_nir_{fs,vs,cs}.cpp, memory in from_nir_memory.cpp, subgroups in
 * from_nir_subgroup.cpp.
 */
#include <algorithm>

#include "from_nir/from_nir_distinct.h"

namespace ibis {

using nir::intrinsic_index;
using nir::intrinsic_op;

void
nir_translator::emit_intrinsic(const nir::intrinsic_instr &in)
{
   if (emit_reg_intrinsic(in) || emit_memory_intrinsic(in) ||
       emit_subgroup_intrinsic(in))
      return;
   switch (sh->stage) {
   case shader_stage::fs:
      if (emit_fs_intrinsic(in))
         return;
      break;
   case shader_stage::vs:
      if (emit_vs_intrinsic(in))
         return;
      break;
   case shader_stage::cs:
      if (emit_cs_intrinsic(in))
         return;
      break;
   default:
      break;
   }

   switch (in.op) {
   case intrinsic_op::nop:
      return;
   case intrinsic_op::resource_intel:
      /* The binding table index the driver computed (brw takes src 1). */
      set_def(in.dest, {src(in.srcs[1].ssa, 0, data_type::u32)});
      return;
   case intrinsic_op::load_uniform:
   case intrinsic_op::load_push_constant: {
      /* Bytes into the push constants: base plus a (usually constant)
       * offset.
       */
      unsigned bytes = std::max(1u, unsigned(in.dest.bit_size) / 8);
      data_type t = type_of('u', in.dest.bit_size);
      operand off = src(in.srcs[0].ssa, 0);
      unsigned base = in.index(intrinsic_index::base);
      comps c;
      if (off.is_imm()) {
         for (unsigned i = 0; i < in.num_components; i++)
            c.push_back(push_constant(base + unsigned(off.imm) + i * bytes, t));
      } else {
         /* An indirect read of the push constants. */
         builder b = def_builder(in.dest);
         value *addr = b.add(data_type::u32, off.as_type(data_type::u32),
                             operand::imm_u32(base));
         value *v = b.ssa(t, in.num_components);
         b.emit(opcode::mov_indirect, {operand(v)},
                {push_constant(0, t), operand(addr),
                 operand::imm_u32(in.num_components * bytes)});
         c = split(v);
      }
      set_def(in.dest, c);
      return;
   }
   case intrinsic_op::load_ubo:
   case intrinsic_op::load_ubo_uniform_block_intel: {
      operand blk = src(in.srcs[0].ssa, 0, data_type::u32);
      operand off = src(in.srcs[1].ssa, 0, data_type::u32);
      unsigned bytes = std::max(1u, unsigned(in.dest.bit_size) / 8);
      data_type t = type_of('u', in.dest.bit_size);
      unsigned push_byte;
      if (blk.is_imm() && off.is_imm() &&
          pushed_ubo(blk.imm, off.imm, in.num_components * bytes, &push_byte)) {
         comps c;
         for (unsigned i = 0; i < in.num_components; i++)
            c.push_back(push_constant(push_byte + i * bytes, t));
         set_def(in.dest, c);
         return;
      }
      const unsigned align = std::max(4u, unsigned(in.index(intrinsic_index::align_mul)));
      if (non_uniform(blk)) {
         /* Once per distinct block index (from_nir_distinct.h). */
         set_def(in.dest, for_each_distinct(*this, {&blk}, t, in.num_components, [&]() {
            builder pb = bld.exec(width);
            operand sb = surface_index(uniform_builder(), blk, opts.ubo_surface_base);
            value *v = pb.ssa(t, in.num_components);
            pb.emit(opcode::varying_pull_constant_logical, {operand(v)},
                    {sb, operand(materialize(pb, off, data_type::u32)),
                     operand::imm_u32(align)});
            return split(v);
         }));
         return;
      }
      builder b = def_builder(in.dest);
      blk = surface_index(b, blk, opts.ubo_surface_base);
      value *v = b.ssa(t, in.num_components);
      if (is_uniform(in.dest)) {
         /* One block read for all channels (brw's uniform pull). */
         b.emit(opcode::uniform_block_read_logical, {operand(v)},
                {blk, off, operand::imm_u32(in.num_components * bytes)});
      } else {
         value *addr = materialize(b, off, data_type::u32);
         b.emit(opcode::varying_pull_constant_logical, {operand(v)},
                {blk, operand(addr), operand::imm_u32(align)});
      }
      set_def(in.dest, split(v));
      return;
   }
   case intrinsic_op::barrier: {
      unsigned exec_scope = in.index(intrinsic_index::execution_scope);
      unsigned mem_scope = in.index(intrinsic_index::memory_scope);
      /* mesa_scope: NONE 0, INVOCATION 1, SUBGROUP 2, ..., WORKGROUP 4.
       * A fence of shared memory alone goes to the SLM surface, any other
       * to the data port (surface 0), as brw picks the fence's SFID.
       */
      if (mem_scope > 2) {
         const unsigned shared_mode = nir::var_mem_shared;
         unsigned modes = in.index(intrinsic_index::memory_modes);
         value *done = bld.exec(1).nomask().ssa(data_type::u32);
         bld.exec(1).nomask().emit(opcode::memory_fence, {operand(done)},
                                   {operand::imm_u32(modes == shared_mode ? 254 : 0)});
      }
      if (exec_scope >= 4 && sh->stage == shader_stage::cs)
         bld.exec(1).nomask().emit(opcode::barrier, {}, {operand(hw(0, data_type::u32))});
      return;
   }
   default:
      break;
   }
   unsupported("intrinsic %s is not supported in %s shaders",
               nir::op_info(in.op).name, stage_name(sh->stage));
}

/* decl_reg / load_reg / store_reg: each element and component of a
 * register is an SSA variable of the register's width (from the uniformity
 * analysis) and bit size.
 */
bool
nir_translator::emit_reg_intrinsic(const nir::intrinsic_instr &in)
{
   switch (in.op) {
   case intrinsic_op::decl_reg: {
      unsigned n = in.index(intrinsic_index::num_components);
      unsigned elems = std::max(1, in.index(intrinsic_index::num_array_elems));
      data_type t = type_of('u', in.index(intrinsic_index::bit_size));
      unsigned w = facts->uniform_regs.count(&in.dest) ? 1 : width;
      unsigned first = 0;
      for (unsigned i = 0; i < n * elems; i++) {
         unsigned v = ssa.add_var(t, w);
         if (i == 0)
            first = v;
      }
      reg_vars[&in.dest] = first;
      return true;
   }
   case intrinsic_op::load_reg: {
      const nir::def *reg = in.srcs[0].ssa;
      auto it = reg_vars.find(reg);
      IBIS_CHECK(it != reg_vars.end(), "load_reg of an undeclared register");
      unsigned n = in.dest.num_components;
      unsigned first = it->second + in.index(intrinsic_index::base) * n;
      comps c;
      for (unsigned i = 0; i < n; i++) {
         operand o(ssa.read(first + i, bld.cur_block()));
         if (in.index(intrinsic_index::legacy_fabs))
            o = o.as_type(type_of('f', in.dest.bit_size)).absolute();
         if (in.index(intrinsic_index::legacy_fneg))
            o = o.as_type(type_of('f', in.dest.bit_size)).negate();
         c.push_back(o);
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::store_reg: {
      const nir::def *reg = in.srcs[1].ssa;
      auto it = reg_vars.find(reg);
      IBIS_CHECK(it != reg_vars.end(), "store_reg to an undeclared register");
      const nir::def *val = in.srcs[0].ssa;
      unsigned n = val->num_components;
      unsigned first = it->second + in.index(intrinsic_index::base) * n;
      unsigned mask = in.index(intrinsic_index::write_mask);
      for (unsigned i = 0; i < n; i++) {
         if (!(mask & (1u << i)))
            continue;
         unsigned var = first + i;
         builder b = ssa.var_width(var) == 1 ? uniform_builder() : bld.exec(width);
         operand o = src(val, i);
         value *v;
         if (in.index(intrinsic_index::legacy_fsat)) {
            data_type ft = type_of('f', val->bit_size);
            v = b.mov(ft, o.as_type(ft));
            v->def()->saturate = true;
         } else {
            v = materialize(b, o, ssa.var_type(var));
         }
         ssa.write(var, bld.cur_block(), v);
      }
      return true;
   }
   case intrinsic_op::load_reg_indirect:
   case intrinsic_op::store_reg_indirect:
      unsupported("indirectly indexed register arrays are not supported "
                  "(brw's final form has none in the corpus)");
   default:
      return false;
   }
}

unsigned
nir_translator::output_var(int slot, unsigned comp, data_type t)
{
   unsigned key = unsigned(slot) * 4 + comp;
   auto it = output_vars.find(key);
   if (it != output_vars.end())
      return it->second;
   if (std::find(output_slots.begin(), output_slots.end(), slot) == output_slots.end())
      output_slots.push_back(slot);
   unsigned v = ssa.add_var(t, width);
   output_vars[key] = v;
   return v;
}

void
nir_translator::store_output(const nir::intrinsic_instr &in, int slot)
{
   operand off = src(in.srcs[1].ssa, 0);
   if (!off.is_imm())
      unsupported("indirectly indexed outputs are not supported");
   slot += int(off.imm);
   const nir::def *val = in.srcs[0].ssa;
   unsigned first = in.index(intrinsic_index::component);
   unsigned mask = in.index(intrinsic_index::write_mask);
   if (val->bit_size == 64)
      unsupported("64-bit outputs are not supported");
   /* Outputs are 32-bit in the URB and render target messages: narrower
    * values are converted by their NIR type.
    */
   nir::alu_type st = nir::alu_type(in.index(intrinsic_index::src_type));
   char base = nir::base_type(st) == nir::type_float ? 'f'
             : nir::base_type(st) == nir::type_int ? 's' : 'u';
   data_type from = type_of(base, val->bit_size), t = type_of(base, 32);
   for (unsigned i = 0; i < val->num_components; i++) {
      if (!(mask & (1u << i)))
         continue;
      unsigned var = output_var(slot, first + i, type_of('u', 32));
      ssa.write(var, bld.cur_block(),
                materialize(bld.exec(width), src(val, i, from).as_type(from), t));
   }
}

value *
nir_translator::read_output(int slot, unsigned comp)
{
   auto it = output_vars.find(unsigned(slot) * 4 + comp);
   if (it == output_vars.end())
      return nullptr;
   return ssa.read(it->second, bld.cur_block());
}

operand
nir_translator::push_constant(unsigned byte_offset, data_type t)
{
   if (!uniforms) {
      IBIS_CHECK(payload.push_regs, "push constant read without push constants");
      uniforms = uniform_regs(payload.push_start, payload.push_regs * 8);
   }
   operand o(uniforms);
   o.offset = byte_offset;
   return o.as_type(t);
}

bool
nir_translator::pushed_ubo(unsigned block, unsigned offset, unsigned bytes,
                           unsigned *push_byte) const
{
   for (size_t i = 0; i < payload.ubo_ranges.size(); i++) {
      const push_range &r = payload.ubo_ranges[i];
      if (r.block != block || offset < r.start * 32 ||
          offset + bytes > (r.start + r.length) * 32)
         continue;
      *push_byte = (payload.ubo_range_start[i] - payload.push_start) * 32 +
                   offset - r.start * 32;
      return true;
   }
   return false;
}

} /* namespace ibis */
