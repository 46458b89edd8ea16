/*
 * Memory intrinsics as logical sends: SSBOs and shared memory (untyped
 * and byte-scattered messages), scratch, images (typed messages) and their
 * atomics.  Surfaces are NIR's indices (the driver's binding table layout);
 * shared memory is brw's SLM surface 254.  Atomic operations carry NIR's
 * nir_atomic_op number, for lowering to pick the message.  A surface
 * index that differs between channels runs the access once per distinct
 * index (from_nir_distinct.h).
 */
#include <algorithm>

#include "from_nir/from_nir_distinct.h"

namespace ibis {

using nir::intrinsic_index;
using nir::intrinsic_op;

namespace {

const unsigned SLM_SURFACE = 254;   /* GEN7_BTI_SLM */

/* Coordinate components of an image of each glsl_sampler_dim. */
unsigned
image_coords(const nir::intrinsic_instr &in)
{
   static const unsigned coords[] = {1, 2, 3, 3, 2, 1, 2, 2, 2, 2};
   unsigned dim = in.index(intrinsic_index::image_dim);
   return (dim < 10 ? coords[dim] : 2) + (in.index(intrinsic_index::image_array) ? 1 : 0);
}

/* Stores and atomics to SSBOs and images (scratch is the channel's own). */
bool
writes_memory(intrinsic_op op)
{
   switch (op) {
   case intrinsic_op::store_ssbo: case intrinsic_op::ssbo_atomic:
   case intrinsic_op::ssbo_atomic_swap: case intrinsic_op::image_store:
   case intrinsic_op::image_atomic: case intrinsic_op::image_atomic_swap:
      return true;
   default:
      return false;
   }
}

/* The source holding the surface index of an SSBO or image access. */
int
surface_src(intrinsic_op op)
{
   switch (op) {
   case intrinsic_op::load_ssbo: case intrinsic_op::ssbo_atomic:
   case intrinsic_op::ssbo_atomic_swap: case intrinsic_op::get_ssbo_size:
   case intrinsic_op::image_load: case intrinsic_op::image_store:
   case intrinsic_op::image_atomic: case intrinsic_op::image_atomic_swap:
   case intrinsic_op::image_size:
      return 0;
   case intrinsic_op::store_ssbo:
      return 1;
   default:
      return -1;
   }
}

/* The uniform index of the pass being emitted of a non-uniform access. */
const operand *pass_index = nullptr;

} /* anonymous namespace */

bool
nir_translator::emit_memory_intrinsic(const nir::intrinsic_instr &in)
{
   if (const int si = surface_src(in.op); si >= 0 && !pass_index) {
      operand idx = src(in.srcs[si].ssa, 0, data_type::u32);
      if (non_uniform(idx)) {
         const bool dest = nir::op_info(in.op).has_dest;
         const unsigned n = dest ? in.dest.num_components : 0;
         const data_type t = dest ? type_of('u', in.dest.bit_size) : data_type::u32;
         comps out = for_each_distinct(*this, {&idx}, t, n, [&]() {
            pass_index = &idx;
            emit_memory_intrinsic(in);
            pass_index = nullptr;
            comps r;
            for (unsigned c = 0; c < n; c++)
               r.push_back(src(&in.dest, c));
            return r;
         });
         if (dest)
            set_def(in.dest, out);
         return true;
      }
   }
   builder b = bld.exec(width);
   /* A fragment shader's helper invocations must not write memory: brw
    * predicates such sends on the sample mask, as here on the pixel mask
    * (demoted channels are taken out of the predicate in lower_demotes).
    */
   value *lit = nir.info.stage == nir::shader_stage::fragment && writes_memory(in.op)
                   ? b.cmp(cond_mod::nz, operand(pixel_bit()), operand::imm_u32(0))
                   : nullptr;
   /* A helper's atomic result is undefined: an undef preserve. */
   auto guard = [&](instr *w, value *preserve = nullptr) {
      if (!lit)
         return;
      w->set_predicate(lit);
      if (preserve)
         w->set_preserve(operand(preserve));
   };
   /* Byte address: the offset source plus a constant base. */
   auto address = [&](const nir::src &s, unsigned base) {
      operand off = src(s.ssa, 0, data_type::u32);
      if (base)
         off = operand(b.add(data_type::u32, off, operand::imm_u32(base)));
      return operand(materialize(b, off, data_type::u32));
   };
   auto index_of = [&](const nir::src &s) {
      return pass_index ? *pass_index : src(s.ssa, 0, data_type::u32);
   };
   auto surface = [&](const nir::src &s) {
      return surface_index(b, index_of(s), opts.ssbo_surface_base);
   };
   auto image_surface = [&](const nir::src &s) { return index_of(s); };
   auto data_of = [&](const nir::def *d, unsigned first, unsigned n) {
      comps c;
      for (unsigned i = 0; i < n; i++)
         c.push_back(src(d, first + i));
      return gather(b, c, type_of('u', d->bit_size));
   };

   auto load = [&](operand surf, operand addr) {
      unsigned bits = in.dest.bit_size, n = in.dest.num_components;
      if (bits == 32) {
         value *v = b.ssa(data_type::u32, n);
         b.emit(opcode::untyped_read_logical, {operand(v)},
                {surf, addr, operand::imm_u32(n)});
         set_def(in.dest, split(v));
      } else if (bits < 32 && n == 1) {
         value *v = b.ssa(data_type::u32);
         b.emit(opcode::byte_scattered_read_logical, {operand(v)},
                {surf, addr, operand::imm_u32(bits)});
         set_def(in.dest, {operand(b.mov(type_of('u', bits), operand(v)))});
      } else if (bits == 64) {
         /* Two dwords per component, low first, as brw reads them on Gen9;
          * at most four dwords per message.
          */
         comps c;
         for (unsigned i = 0; i < n; i += 2) {
            unsigned k = std::min(2u, n - i);
            operand a = addr;
            if (i)
               a = operand(b.add(data_type::u32, addr, operand::imm_u32(i * 8)));
            value *v = b.ssa(data_type::u32, 2 * k);
            b.emit(opcode::untyped_read_logical, {operand(v)},
                   {surf, a, operand::imm_u32(2 * k)});
            for (unsigned j = 0; j < k; j++) {
               value *lo = b.mov(data_type::u64, operand(v).component(2 * j));
               value *hi = b.mov(data_type::u64, operand(v).component(2 * j + 1));
               value *up = b.shl(data_type::u64, operand(hi), operand::imm_u32(32));
               c.push_back(operand(b.or_(data_type::u64, operand(lo), operand(up))));
            }
         }
         set_def(in.dest, c);
      } else {
         unsupported("%u x %u-bit memory loads are not supported", n, bits);
      }
   };
   auto store = [&](const nir::def *val, operand surf, const nir::src &off, unsigned base) {
      unsigned bits = val->bit_size;
      unsigned mask = in.index(intrinsic_index::write_mask);
      unsigned bytes = bits / 8;
      for (unsigned i = 0; i < val->num_components;) {
         if (!(mask & (1u << i))) {
            i++;
            continue;
         }
         unsigned n = 1;
         unsigned most = bits == 32 ? 4 : bits == 64 ? 2 : 1;
         while (n < most && i + n < val->num_components && (mask & (1u << (i + n))))
            n++;
         operand addr = address(off, base + i * bytes);
         if (bits == 32) {
            guard(b.emit(opcode::untyped_write_logical, {},
                         {surf, addr, data_of(val, i, n), operand::imm_u32(n)}));
         } else if (bits < 32) {
            operand d = operand(b.mov(data_type::u32, src(val, i, type_of('u', bits))));
            guard(b.emit(opcode::byte_scattered_write_logical, {},
                         {surf, addr, d, operand::imm_u32(bits)}));
         } else {
            /* Each 64-bit component as its low and high dwords. */
            comps c;
            for (unsigned j = 0; j < n; j++) {
               operand x = src(val, i + j, data_type::u64);
               c.push_back(operand(b.mov(data_type::u32, x)));
               value *hi = b.shr(data_type::u64, x, operand::imm_u32(32));
               c.push_back(operand(b.mov(data_type::u32, operand(hi))));
            }
            guard(b.emit(opcode::untyped_write_logical, {},
                         {surf, addr, gather(b, c, data_type::u32), operand::imm_u32(2 * n)}));
         }
         i += n;
      }
   };
   auto atomic = [&](opcode op, operand surf, operand addr, unsigned data_src) {
      bool swap = in.op == intrinsic_op::ssbo_atomic_swap ||
                  in.op == intrinsic_op::shared_atomic_swap ||
                  in.op == intrinsic_op::image_atomic_swap;
      if (in.dest.bit_size != 32)
         unsupported("%u-bit atomics are not supported", in.dest.bit_size);
      operand d = data_of(in.srcs[data_src].ssa, 0, 1);
      operand d2 = swap ? data_of(in.srcs[data_src + 1].ssa, 0, 1) : operand();
      value *v = b.ssa(data_type::u32);
      value *u = lit ? b.undef(data_type::u32) : nullptr;
      guard(b.emit(op, {operand(v)},
                   {surf, addr, d, d2, operand::imm_u32(in.index(intrinsic_index::atomic_op))}),
            u);
      set_def(in.dest, {operand(v)});
   };
   auto image_addr = [&]() {
      comps c;
      for (unsigned i = 0; i < image_coords(in); i++)
         c.push_back(src(in.srcs[1].ssa, i));
      return gather(b, c, data_type::u32);
   };

   switch (in.op) {
   case intrinsic_op::load_ssbo:
      load(surface(in.srcs[0]), address(in.srcs[1], 0));
      return true;
   case intrinsic_op::store_ssbo:
      store(in.srcs[0].ssa, surface(in.srcs[1]), in.srcs[2], 0);
      return true;
   case intrinsic_op::ssbo_atomic:
   case intrinsic_op::ssbo_atomic_swap:
      atomic(opcode::untyped_atomic_logical, surface(in.srcs[0]), address(in.srcs[1], 0), 2);
      return true;
   case intrinsic_op::load_ssbo_uniform_block_intel:
   case intrinsic_op::load_shared_uniform_block_intel: {
      /* One block read for all channels, like a uniform UBO pull. */
      bool shared = in.op == intrinsic_op::load_shared_uniform_block_intel;
      unsigned bytes = std::max(1u, unsigned(in.dest.bit_size) / 8);
      operand off = src(in.srcs[shared ? 0 : 1].ssa, 0, data_type::u32);
      operand surf = shared ? operand::imm_u32(SLM_SURFACE)
                            : surface_index(uniform_builder(),
                                            src(in.srcs[0].ssa, 0, data_type::u32),
                                            opts.ssbo_surface_base);
      if (shared && in.index(intrinsic_index::base)) {
         off = operand(uniform_builder().add(data_type::u32, off,
                                             operand::imm_u32(in.index(intrinsic_index::base))));
      }
      builder ub = def_builder(in.dest);
      value *v = ub.ssa(type_of('u', in.dest.bit_size), in.dest.num_components);
      ub.emit(opcode::uniform_block_read_logical, {operand(v)},
              {surf, off, operand::imm_u32(in.dest.num_components * bytes)});
      set_def(in.dest, split(v));
      return true;
   }
   case intrinsic_op::load_shared:
      load(operand::imm_u32(SLM_SURFACE),
           address(in.srcs[0], in.index(intrinsic_index::base)));
      return true;
   case intrinsic_op::store_shared:
      store(in.srcs[0].ssa, operand::imm_u32(SLM_SURFACE), in.srcs[1],
            in.index(intrinsic_index::base));
      return true;
   case intrinsic_op::shared_atomic:
   case intrinsic_op::shared_atomic_swap:
      atomic(opcode::untyped_atomic_logical, operand::imm_u32(SLM_SURFACE),
             address(in.srcs[0], in.index(intrinsic_index::base)), 1);
      return true;
   case intrinsic_op::get_ssbo_size: {
      /* A resinfo query on the buffer surface (brw's GET_BUFFER_SIZE). */
      value *v = b.ssa(data_type::u32, 4);
      std::vector<operand> srcs(13);
      srcs[tex_logical_src::op] = operand::imm_u32(unsigned(nir::tex_op::txs));
      srcs[tex_logical_src::lod] = operand::imm_u32(0);
      srcs[tex_logical_src::surface] = surface(in.srcs[0]);
      srcs[tex_logical_src::coord_components] = operand::imm_u32(0);
      srcs[tex_logical_src::grad_components] = operand::imm_u32(0);
      b.emit(opcode::tex_logical, {operand(v)}, srcs);
      set_def(in.dest, {operand(v).component(0)});
      return true;
   }
   case intrinsic_op::load_scratch: {
      if (in.dest.bit_size != 32)
         unsupported("%u-bit scratch access is not supported", in.dest.bit_size);
      value *v = b.ssa(data_type::u32, in.dest.num_components);
      b.emit(opcode::scratch_read_logical, {operand(v)}, {address(in.srcs[0], 0)});
      set_def(in.dest, split(v));
      return true;
   }
   case intrinsic_op::store_scratch: {
      const nir::def *val = in.srcs[0].ssa;
      if (val->bit_size != 32)
         unsupported("%u-bit scratch access is not supported", val->bit_size);
      b.emit(opcode::scratch_write_logical, {},
             {address(in.srcs[1], 0), data_of(val, 0, val->num_components)});
      return true;
   }
   case intrinsic_op::image_load: {
      if (in.dest.bit_size != 32)
         unsupported("%u-bit image loads are not supported", in.dest.bit_size);
      value *v = b.ssa(data_type::u32, in.dest.num_components);
      b.emit(opcode::typed_read_logical, {operand(v)},
             {image_surface(in.srcs[0]), image_addr(), operand::imm_u32(in.dest.num_components)});
      set_def(in.dest, split(v));
      return true;
   }
   case intrinsic_op::image_store: {
      const nir::def *val = in.srcs[3].ssa;
      if (val->bit_size != 32)
         unsupported("%u-bit image stores are not supported", val->bit_size);
      guard(b.emit(opcode::typed_write_logical, {},
                   {image_surface(in.srcs[0]), image_addr(), data_of(val, 0, val->num_components),
                    operand::imm_u32(val->num_components)}));
      return true;
   }
   case intrinsic_op::image_atomic:
   case intrinsic_op::image_atomic_swap:
      atomic(opcode::typed_atomic_logical, image_surface(in.srcs[0]), image_addr(), 3);
      return true;
   case intrinsic_op::image_size: {
      value *v = b.ssa(data_type::u32, 4);
      std::vector<operand> srcs(13);
      srcs[tex_logical_src::op] = operand::imm_u32(unsigned(nir::tex_op::txs));
      srcs[tex_logical_src::lod] = src(in.srcs[1].ssa, 0, data_type::u32);
      srcs[tex_logical_src::surface] = image_surface(in.srcs[0]);
      srcs[tex_logical_src::coord_components] = operand::imm_u32(0);
      srcs[tex_logical_src::grad_components] = operand::imm_u32(0);
      b.emit(opcode::tex_logical, {operand(v)}, srcs);
      comps c;
      for (unsigned i = 0; i < in.dest.num_components; i++)
         c.push_back(operand(v).component(i));
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_global:
   case intrinsic_op::load_global_constant:
   case intrinsic_op::store_global:
   case intrinsic_op::global_atomic:
   case intrinsic_op::global_atomic_swap:
      unsupported("64-bit (A64) addressing has no logical send in ibis yet");
   default:
      return false;
   }
}

} /* namespace ibis */
