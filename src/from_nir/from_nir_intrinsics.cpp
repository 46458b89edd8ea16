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
   case intrinsic_op::ddx:
   case intrinsic_op::ddx_coarse:
   case intrinsic_op::ddx_fine:
   case intrinsic_op::ddy:
   case intrinsic_op::ddy_coarse:
   case intrinsic_op::ddy_fine:
      emit_derivative_intrinsic(in);
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
      const unsigned n = in.num_components;
      /* A varying pull gives a vec4 (the sampler's ld): 25.0's block
       * loads of up to 16 components are one per four.
       */
      auto varying_pull = [&](const builder &pb, operand sb) {
         value *addr = materialize(pb, off, data_type::u32);
         comps c;
         for (unsigned first = 0; first < n; first += 4) {
            const unsigned count = std::min(4u, n - first);
            operand a(addr);
            if (first)
               a = operand(pb.add(data_type::u32, a, operand::imm_u32(first * bytes)));
            value *v = pb.ssa(t, count);
            pb.emit(opcode::varying_pull_constant_logical, {operand(v)},
                    {sb, a, operand::imm_u32(first ? std::min(align, 16u) : align)});
            for (const operand &o : split(v))
               c.push_back(o);
         }
         return c;
      };
      if (non_uniform(blk)) {
         /* Once per distinct block index (from_nir_distinct.h). */
         set_def(in.dest, for_each_distinct(*this, {&blk}, t, n, [&]() {
            operand sb = surface_index(uniform_builder(), blk, opts.ubo_surface_base);
            return varying_pull(bld.exec(width), sb);
         }));
         return;
      }
      if (is_uniform(in.dest) && blk.is_imm() && off.is_imm() && bytes == 4) {
         /* A constant pull reads its whole 64-byte line, as brw's
          * uniform pulls do, and the loads of one NIR block share it
          * (tesseract's VS pulled five vec3s of one line with five
          * sends under iris's push ranges, brw with one).  Components
          * the driver pushed come from the push constants: 25.0's
          * 16-component block loads cover more than the few components
          * used, and brw pushes only those (a line read nobody uses
          * goes with dce).
          */
         comps c;
         for (unsigned i = 0; i < n; i++) {
            const unsigned at = unsigned(off.imm) + i * 4;
            if (pushed_ubo(blk.imm, at, 4, &push_byte)) {
               c.push_back(push_constant(push_byte, t));
               continue;
            }
            const std::pair<unsigned, unsigned> key{blk.imm, at & ~63u};
            auto it = ubo_lines.find(key);
            if (it == ubo_lines.end() || it->second.first != cur->block) {
               builder b = uniform_builder();
               operand sb = surface_index(b, blk, opts.ubo_surface_base);
               value *line = b.ssa(data_type::u32, 16);
               b.emit(opcode::uniform_block_read_logical, {operand(line)},
                      {sb, operand::imm_u32(key.second), operand::imm_u32(64)});
               it = ubo_lines.insert_or_assign(key, std::make_pair(cur->block, split(line))).first;
            }
            c.push_back(it->second.second[(at & 63u) / 4]);
         }
         set_def(in.dest, c);
         return;
      }
      builder b = def_builder(in.dest);
      blk = surface_index(b, blk, opts.ubo_surface_base);
      if (!is_uniform(in.dest)) {
         set_def(in.dest, varying_pull(b, blk));
         return;
      }
      /* One block read for all channels (brw's uniform pull).  A constant
       * offset reads a 64-byte line of the constant cache, a variable one
       * at most 64 bytes: a longer read (25.0's 16-component block loads
       * off a line) is one per line.
       */
      comps c;
      for (unsigned first = 0; first < n;) {
         unsigned count = n - first;
         operand o = off;
         if (off.is_imm()) {
            const unsigned at = unsigned(off.imm) + first * bytes;
            count = std::max(1u, std::min(count, (64 - at % 64) / bytes));
            o = operand::imm_u32(at);
         } else {
            count = std::min(count, 64 / bytes);
            if (first)
               o = operand(b.add(data_type::u32, off, operand::imm_u32(first * bytes)));
         }
         value *v = b.ssa(t, count);
         b.emit(opcode::uniform_block_read_logical, {operand(v)},
                {blk, o, operand::imm_u32(count * bytes)});
         for (const operand &x : split(v))
            c.push_back(x);
         first += count;
      }
      set_def(in.dest, c);
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
      for (unsigned i = 0; i < n; i++)
         c.push_back(operand(ssa.read(first + i, bld.cur_block())));
      set_def(in.dest, reg_load_modifiers(in, c));
      return true;
   }
   case intrinsic_op::store_reg: {
      const nir::def *reg = in.srcs[1].ssa;
      auto it = reg_vars.find(reg);
      IBIS_CHECK(it != reg_vars.end(), "store_reg to an undeclared register");
      unsigned n = in.srcs[0].ssa->num_components;
      unsigned first = it->second + in.index(intrinsic_index::base) * n;
      for (unsigned i = 0; i < n; i++) {
         if (value *v = reg_store_value(in, i, first + i))
            ssa.write(first + i, bld.cur_block(), v);
      }
      return true;
   }
   case intrinsic_op::load_reg_indirect:
   case intrinsic_op::store_reg_indirect:
      emit_reg_indirect(in);
      return true;
   default:
      return false;
   }
}

/* load_reg_indirect / store_reg_indirect: element base + offset of a
 * register array, whose elements are SSA variables like any register's,
 * done as nir_lower_indirect_derefs would: a read selects among the
 * elements (one cmp per element, one sel per component), a store replaces
 * each element where the offset picks it.  Linear in the array size.  An
 * offset that leaves the array is undefined in NIR: a read then gives
 * element 0, a store changes nothing.
 */
void
nir_translator::emit_reg_indirect(const nir::intrinsic_instr &in)
{
   const bool load = in.op == intrinsic_op::load_reg_indirect;
   const nir::def *reg = in.srcs[load ? 0 : 1].ssa;
   const nir::def *offset = in.srcs[load ? 1 : 2].ssa;
   auto it = reg_vars.find(reg);
   IBIS_CHECK(it != reg_vars.end(), "indirect access to an undeclared register");
   auto &decl = static_cast<const nir::intrinsic_instr &>(*reg->parent);
   const unsigned n = decl.index(intrinsic_index::num_components);
   const unsigned elems = std::max(1, decl.index(intrinsic_index::num_array_elems));
   const int base = in.index(intrinsic_index::base);
   auto var = [&](unsigned elem, unsigned c) { return it->second + elem * n + c; };
   const data_type t = ssa.var_type(var(0, 0));
   builder b = ssa.var_width(var(0, 0)) == 1 ? uniform_builder() : bld.exec(width);
   block *blk = bld.cur_block();

   /* The element offset as the interpreter reads it: the low 32 bits,
    * zero-extended from 8 or 16.
    */
   operand off = src(offset, 0);
   if (off.is_imm()) {
      int64_t e = int64_t(base) + int32_t(uint32_t(off.imm));
      if (e < 0 || e >= int64_t(elems)) {
         if (load)
            set_def(in.dest, comps(n, operand::imm_of(t, 0)));
         return;
      }
      const unsigned elem = unsigned(e);
      if (load) {
         comps c;
         for (unsigned k = 0; k < n; k++)
            c.push_back(operand(ssa.read(var(elem, k), blk)));
         set_def(in.dest, reg_load_modifiers(in, c));
      } else {
         for (unsigned k = 0; k < n; k++) {
            if (value *v = reg_store_value(in, k, var(elem, k)))
               ssa.write(var(elem, k), blk, v);
         }
      }
      return;
   }
   if (offset->bit_size != 32)
      off = operand(materialize(is_uniform(*offset) ? uniform_builder() : b,
                                src(offset, 0, type_of('u', offset->bit_size)),
                                data_type::u32));
   else
      off = off.as_type(data_type::u32);
   auto picked = [&](unsigned elem) {
      return b.cmp(cond_mod::z, off, operand::imm_u32(uint32_t(int64_t(elem) - base)));
   };
   /* A predicated sel cannot write bytes (the legalizer widens a byte
    * result through a temporary, which a predicate would leave partly
    * unwritten): 8-bit registers select in 16 bits.
    */
   const data_type st = type_bits(t) == 8 ? data_type::u16 : t;
   auto select = [&](value *f, const operand &x, const operand &y) {
      value *v = b.ssa(st);
      b.predicated(f).emit(opcode::sel, {operand(v)}, {x, y});
      return v;
   };

   if (load) {
      comps c;
      for (unsigned k = 0; k < n; k++)
         c.push_back(operand(ssa.read(var(0, k), blk)).as_type(t));
      for (unsigned e = 1; e < elems; e++) {
         value *f = picked(e);
         for (unsigned k = 0; k < n; k++)
            c[k] = operand(select(f, operand(ssa.read(var(e, k), blk)).as_type(t), c[k]));
      }
      if (st != t && elems > 1) {
         for (operand &o : c)
            o = operand(b.mov(t, o));
      }
      set_def(in.dest, reg_load_modifiers(in, c));
      return;
   }

   std::vector<value *> vals(n, nullptr);
   for (unsigned k = 0; k < n; k++)
      vals[k] = reg_store_value(in, k, var(0, k));
   for (unsigned e = 0; e < elems; e++) {
      /* A lone element is the only one a defined offset can pick. */
      value *f = elems > 1 ? picked(e) : nullptr;
      for (unsigned k = 0; k < n; k++) {
         if (!vals[k])
            continue;
         value *v = vals[k];
         if (f) {
            v = select(f, operand(vals[k]).as_type(t),
                       operand(ssa.read(var(e, k), blk)).as_type(t));
            if (st != t)
               v = b.mov(t, operand(v));
         }
         ssa.write(var(e, k), blk, v);
      }
   }
}

/* Component k of a store_reg(_indirect)'s value as variable var holds it
 * (legacy_fsat applied); null when the write mask leaves k out.
 */
value *
nir_translator::reg_store_value(const nir::intrinsic_instr &in, unsigned k,
                                unsigned var)
{
   if (!(in.index(intrinsic_index::write_mask) & (1u << k)))
      return nullptr;
   const nir::def *val = in.srcs[0].ssa;
   builder b = ssa.var_width(var) == 1 ? uniform_builder() : bld.exec(width);
   operand o = src(val, k);
   if (in.index(intrinsic_index::legacy_fsat)) {
      data_type ft = type_of('f', val->bit_size);
      value *v = b.mov(ft, o.as_type(ft));
      v->def()->saturate = true;
      return v;
   }
   return materialize(b, o, ssa.var_type(var));
}

/* legacy_fabs, then legacy_fneg, on the components a load_reg(_indirect)
 * read.
 */
comps
nir_translator::reg_load_modifiers(const nir::intrinsic_instr &in, comps c)
{
   for (operand &o : c) {
      if (in.index(intrinsic_index::legacy_fabs))
         o = o.as_type(type_of('f', in.dest.bit_size)).absolute();
      if (in.index(intrinsic_index::legacy_fneg))
         o = o.as_type(type_of('f', in.dest.bit_size)).negate();
   }
   return c;
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
   slot = io_slot(slot, off);
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
