/*
 * Fragment shaders: values computed from the thread payload (pixel
 * position, interpolation, sample id/position/mask, front facing, helper
 * invocations), discards, and the render target writes that end the
 * thread.  Payload values are computed where they are used: the payload
 * registers live from the start, and CSE merges repeats.  GRF numbers come
 * from from_nir_payload.cpp.
 */
#include <algorithm>
#include <functional>

#include "from_nir/from_nir_private.h"

namespace ibis {

using nir::intrinsic_index;
using nir::intrinsic_op;

namespace {

operand
at(value *v, unsigned byte_offset, data_type t)
{
   operand o(v);
   o.offset = byte_offset;
   return o.as_type(t);
}

} /* anonymous namespace */

/* A value of the dispatch width written in `parts` pieces of equal size
 * (e.g. one per SIMD16 half of the payload): SSA when one write covers it,
 * otherwise a WLR value whose writes all sit here, in one block.
 */
static value *
write_parts(const builder &bld, unsigned width, data_type t, unsigned parts,
            const std::function<instr *(const builder &, const operand &, unsigned)> &emit)
{
   if (parts == 1) {
      value *v = bld.exec(width).ssa(t);
      emit(bld.exec(width), operand(v), 0);
      return v;
   }
   unsigned n = width / parts;
   value *v = bld.exec(width).wlr(t);
   for (unsigned p = 0; p < parts; p++) {
      operand d(v);
      d.offset = p * n * type_bits(t) / 8;
      emit(bld.exec(n, p * n), d, p);
   }
   return v;
}

/* Channel's bit of the pixel mask (1 lit, 0 a helper): the low word of
 * g1.7, and of g2.7 for channels 16-31, one bit per channel.
 */
value *
nir_translator::pixel_bit()
{
   builder u = uniform_builder();
   value *mask = u.mov(data_type::u32, at(hw(1, data_type::u16), 28, data_type::u16)
                                          .with_region(0, 1, 0));
   if (width == 32) {
      value *hi = u.mov(data_type::u32, at(hw(2, data_type::u16), 28, data_type::u16)
                                            .with_region(0, 1, 0));
      value *sh = u.shl(data_type::u32, operand(hi), operand::imm_u32(16));
      mask = u.or_(data_type::u32, operand(mask), operand(sh));
   }
   builder b = bld.exec(width);
   value *bit = b.shr(data_type::u32, operand(mask), operand(get_subgroup_invocation()));
   return b.and_(data_type::u32, operand(bit), operand::imm_u32(1));
}

unsigned
nir_translator::demoted()
{
   if (demoted_var < 0) {
      /* 0 from the start: nothing that runs before the first demote or
       * is_helper_invocation in program order demotes.
       */
      demoted_var = int(ssa.add_var(data_type::u32, width));
      builder b = bld.exec(width);
      b.at_start(sh->entry());
      ssa.write(unsigned(demoted_var), sh->entry(), b.mov(data_type::u32, operand::imm_u32(0)));
   }
   return unsigned(demoted_var);
}

bool
nir_translator::emit_fs_intrinsic(const nir::intrinsic_instr &in)
{
   unsigned halves = width == 32 ? 2 : 1;
   unsigned half_width = std::min(16u, width);
   auto payload_reg = [&](const int regs[2], data_type t, unsigned nregs) {
      return write_parts(bld, width, t, halves,
                         [&](const builder &b, const operand &d, unsigned h) {
                            return b.mov(d, operand(hw(regs[h], t, nregs)));
                         });
   };
   auto need = [&](int reg, const char *what) {
      IBIS_CHECK(reg >= 0, "payload has no %s", what);
   };

   switch (in.op) {
   case intrinsic_op::load_barycentric_pixel:
   case intrinsic_op::load_barycentric_centroid:
   case intrinsic_op::load_barycentric_sample: {
      int mode = barycentric_mode(in);
      need(payload.bary_reg[mode][0], "barycentrics");
      comps halves_ops;
      for (unsigned h = 0; h < halves; h++)
         halves_ops.push_back(operand(hw(payload.bary_reg[mode][h], data_type::f32,
                                         half_width / 4)));
      bary_vals[&in.dest] = halves_ops;
      return true;
   }
   case intrinsic_op::load_barycentric_at_sample:
   case intrinsic_op::load_barycentric_at_offset: {
      bool at_offset = in.op == intrinsic_op::load_barycentric_at_offset;
      comps s;
      for (unsigned i = 0; i < (at_offset ? 2u : 1u); i++)
         s.push_back(src(in.srcs[0].ssa, i));
      operand arg = gather(bld.exec(width), s, at_offset ? data_type::f32 : data_type::u32);
      value *v = bld.exec(width).ssa(data_type::f32, 2);
      bld.exec(width).emit(opcode::interp_logical, {operand(v)},
                           {operand::imm_u32(at_offset), arg,
                            operand::imm_u32(in.index(intrinsic_index::interp_mode))});
      comps halves_ops;
      for (unsigned h = 0; h < halves; h++)
         halves_ops.push_back(at(v, h * 16 * 8, data_type::f32));
      bary_vals[&in.dest] = halves_ops;
      return true;
   }
   case intrinsic_op::load_interpolated_input: {
      const comps &bary = bary_halves(in.srcs[0].ssa);
      operand off = src(in.srcs[1].ssa, 0);
      if (!off.is_imm())
         unsupported("indirectly indexed inputs are not supported");
      if (in.dest.bit_size != 32)
         unsupported("%u-bit interpolated inputs are not supported", in.dest.bit_size);
      int slot = io_slot(in.get_io_semantics().location, off);
      int a = payload.attr_index(slot);
      if (a < 0)
         unsupported("varying slot %d has no setup data in the payload", slot);
      comps c;
      for (unsigned i = 0; i < in.num_components; i++) {
         unsigned comp = in.index(intrinsic_index::component) + i;
         operand plane = at(fs_setup_data(), (a * 16 + comp * 4) * 4, data_type::f32);
         value *v = write_parts(bld, width, data_type::f32, halves,
                                [&](const builder &b, const operand &d, unsigned h) {
                                   return b.pln(d, plane, bary[h]);
                                });
         c.push_back(operand(v));
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_input: {
      /* Flat inputs: the constant term of the plane, where the hardware
       * puts the provoking vertex's value.
       */
      operand off = src(in.srcs[0].ssa, 0);
      if (!off.is_imm())
         unsupported("indirectly indexed inputs are not supported");
      int slot = io_slot(in.get_io_semantics().location, off);
      int a = payload.attr_index(slot);
      if (a < 0)
         unsupported("varying slot %d has no setup data in the payload", slot);
      if (in.dest.bit_size != 32)
         unsupported("%u-bit flat inputs are not supported", in.dest.bit_size);
      comps c;
      for (unsigned i = 0; i < in.num_components; i++) {
         unsigned comp = in.index(intrinsic_index::component) + i;
         c.push_back(operand(bld.exec(width).mov(
            data_type::u32, at(fs_setup_data(), (a * 16 + comp * 4 + 3) * 4, data_type::u32))));
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_frag_coord: {
      need(payload.source_depth_reg[0], "source depth");
      comps c = pixel_position();
      c.push_back(operand(payload_reg(payload.source_depth_reg, data_type::f32, half_width / 8)));
      value *w = payload_reg(payload.source_w_reg, data_type::f32, half_width / 8);
      c.push_back(operand(bld.exec(width).math_inv(data_type::f32, operand(w))));
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_front_face: {
      /* Bit 15 of g0.0 is set for back faces: negating the word and
       * shifting the sign down gives ~0 for front faces (brw, Gen6-11).
       */
      operand g0 = operand(hw(0, data_type::s16)).with_region(0, 1, 0).negate();
      set_def(in.dest, {operand(bld.exec(width).asr(data_type::s32, g0, operand::imm_u32(15)))});
      return true;
   }
   case intrinsic_op::load_sample_id: {
      /* Gen8+: each byte of g1.0 (per SIMD16 half) holds two 4-bit sample
       * ids per pair of subspans (brw emit_sampleid_setup).
       */
      value *t = write_parts(bld, width, data_type::u16, halves,
                             [&](const builder &b, const operand &d, unsigned h) {
                                operand g = operand(hw(1 + h, data_type::u8)).with_region(1, 8, 0);
                                return b.shr(d, g, operand::imm_of(data_type::v, 0x44440000));
                             });
      set_def(in.dest, {operand(bld.exec(width).and_(data_type::u32, operand(t),
                                                     operand::imm_of(data_type::u16, 0xf)))});
      return true;
   }
   case intrinsic_op::load_sample_pos:
   case intrinsic_op::load_sample_pos_or_center: {
      need(payload.sample_pos_reg[0], "sample positions");
      comps c;
      for (unsigned i = 0; i < 2; i++) {
         /* Signed bytes, x then y per channel, in 1/16 pixel. */
         value *d = write_parts(bld, width, data_type::s32, halves,
                                [&](const builder &b, const operand &dst, unsigned h) {
                                   operand p = at(hw(payload.sample_pos_reg[h], data_type::s8),
                                                  i, data_type::s8).with_region(16, 8, 2);
                                   return b.mov(dst, p);
                                });
         value *f = bld.exec(width).mov(data_type::f32, operand(d));
         c.push_back(operand(bld.exec(width).mul(data_type::f32, operand(f),
                                                 operand::imm_f32(1.0f / 16.0f))));
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_sample_mask_in:
      need(payload.sample_mask_in_reg[0], "the coverage mask");
      set_def(in.dest, {operand(payload_reg(payload.sample_mask_in_reg, data_type::s32,
                                            half_width / 8))});
      return true;
   case intrinsic_op::load_helper_invocation:
   case intrinsic_op::is_helper_invocation: {
      value *one = pixel_bit();
      builder b = bld.exec(width);
      value *r = b.ssa(data_type::u32);
      instr *cmp = b.emit(opcode::cmp, {operand(r)}, {operand(one), operand::imm_u32(0)});
      cmp->cmod = cond_mod::z;
      /* Demoted channels are helpers too (is_helper_invocation only). */
      if (in.op == intrinsic_op::is_helper_invocation && facts->helpers_see_demotes)
         r = b.or_(data_type::u32, operand(r),
                   operand(ssa.read(demoted(), bld.cur_block())));
      set_def(in.dest, {operand(r)});
      return true;
   }
   case intrinsic_op::discard: {
      /* As discard_if of true (below): a flag set in every channel. */
      const builder b = bld.exec(width);
      value *f = b.cmp(cond_mod::z, operand(b.mov(data_type::u32, operand::imm_u32(0))),
                       operand::imm_u32(0));
      b.predicated(f).discard();
      b.predicated(f).terminate()->flags |= INSTR_QUAD_ALL;
      return true;
   }
   case intrinsic_op::terminate:
      bld.exec(width).terminate();
      return true;
   case intrinsic_op::demote:
      bld.exec(width).discard();
      if (facts->helpers_see_demotes)
         ssa.write(demoted(), bld.cur_block(),
                   bld.exec(width).mov(data_type::u32, operand::imm_u32(~0u)));
      return true;
   case intrinsic_op::discard_if:
   case intrinsic_op::terminate_if:
   case intrinsic_op::demote_if: {
      value *f = flag_for(in.srcs[0].ssa, width);
      if (!f)
         f = bld.exec(width).cmp(cond_mod::nz, src(in.srcs[0].ssa, 0, data_type::u32),
                                 operand::imm_u32(0));
      builder p = bld.exec(width).predicated(f);
      if (in.op == intrinsic_op::demote_if) {
         p.discard();
      } else if (in.op == intrinsic_op::discard_if) {
         /* GLSL's discard as brw runs it (Mesa 23.3, "for historical
          * reasons" like demote): the channels stop counting as alive
          * but run on while a channel of their quad lives, so the quad's
          * derivatives after it stay those of the pixels; only a quad
          * all of whose channels discard halts (brw's
          * (-f1.0.any4h) halt).  docs/from_nir.md.
          */
         p.discard();
         p.terminate()->flags |= INSTR_QUAD_ALL;
      } else {
         p.terminate();
      }
      if (in.op == intrinsic_op::demote_if && facts->helpers_see_demotes) {
         const builder b = bld.exec(width);
         value *ones = b.mov(data_type::u32, operand::imm_u32(~0u));
         value *cur = ssa.read(demoted(), bld.cur_block());
         value *next = b.ssa(data_type::u32);
         b.predicated(f).sel(operand(next), operand(ones), operand(cur));
         ssa.write(demoted(), bld.cur_block(), next);
      }
      return true;
   }
   case intrinsic_op::store_output: {
      nir::io_semantics io = in.get_io_semantics();
      store_output(in, io.location + (io.dual_source_blend_index ? FRAG_RESULT_DUAL_OFFSET : 0));
      return true;
   }
   default:
      return false;
   }
}

comps
nir_translator::pixel_position()
{
   /* brw's Gen8+ pixel centers: one NoMask add of twice the width (per
    * SIMD16 half) over the subspans' upper-left X, Y words (g1.4 on,
    * each read four times: <1,4,0>) and 0x11001010:v (Gen replicates a
    * :v immediate every 8 channels) gives each subspan's four X then
    * four Y words; X and Y are every other four of them (<8,4,1>).
    */
   const unsigned halves = width == 32 ? 2 : 1;
   const unsigned half = std::min(width, 16u);
   std::vector<value *> xy;
   for (unsigned h = 0; h < halves; h++) {
      const builder nb = bld.exec(2 * half).nomask();
      value *t = nb.wlr(data_type::u16);
      operand g = at(hw(payload.subspan_coord_reg[h], data_type::u16), 8,
                     data_type::u16).with_region(1, 4, 0);
      nb.add(operand(t), g, operand::imm_of(data_type::v, 0x11001010));
      xy.push_back(t);
   }
   comps c;
   for (unsigned y = 0; y < 2; y++) {
      value *w = write_parts(bld, width, data_type::f32, halves,
                             [&](const builder &b, const operand &d, unsigned h) {
                                return b.mov(d, at(xy[h], 8 * y, data_type::u16)
                                                   .with_region(8, 4, 1));
                             });
      c.push_back(operand(w));
   }
   return c;
}

value *
nir_translator::fs_setup_data()
{
   if (!setup_data) {
      unsigned slots = std::max<size_t>(1, payload.attr_slots.size());
      setup_data = uniform_regs(payload.attr_start, slots * 16);
   }
   return setup_data;
}

const comps &
nir_translator::bary_halves(const nir::def *d)
{
   auto it = bary_vals.find(d);
   if (it == bary_vals.end())
      unsupported("interpolation needs a load_barycentric_* source");
   return it->second;
}

void
nir_translator::fs_finish()
{
   builder b = bld.exec(width);
   auto comp_or_null = [&](int slot, unsigned c) {
      value *v = read_output(slot, c);
      return v ? operand(v) : operand();
   };

   std::vector<std::pair<unsigned, int>> targets;   /* render target, slot */
   for (int slot : output_slots) {
      if (slot == FRAG_RESULT_COLOR)
         targets.push_back({0, slot});
      else if (slot >= FRAG_RESULT_DATA0 && slot < FRAG_RESULT_DATA0 + 8)
         targets.push_back({slot - FRAG_RESULT_DATA0, slot});
   }
   std::sort(targets.begin(), targets.end());
   if (targets.empty())
      targets.push_back({0, -1});   /* a null render target write ends the thread */

   operand depth = comp_or_null(FRAG_RESULT_DEPTH, 0);
   operand stencil = comp_or_null(FRAG_RESULT_STENCIL, 0);
   operand omask = comp_or_null(FRAG_RESULT_SAMPLE_MASK, 0);

   for (size_t i = 0; i < targets.size(); i++) {
      auto [rt, slot] = targets[i];
      operand colors[2];
      for (unsigned k = 0; k < 2 && slot >= 0; k++) {
         int s = slot + (k ? FRAG_RESULT_DUAL_OFFSET : 0);
         if (k && std::find(output_slots.begin(), output_slots.end(), s) == output_slots.end())
            continue;
         comps c;
         for (unsigned j = 0; j < 4; j++) {
            operand o = comp_or_null(s, j);
            c.push_back(o.is_null() ? operand(b.def(opcode::undef, data_type::u32, {})) : o);
         }
         colors[k] = gather(b, c, data_type::u32);
      }
      instr *w = b.emit(opcode::fb_write_logical, {},
                        {colors[0], colors[1], operand(), depth, operand(), stencil,
                         omask, operand(), operand::imm_u32(rt),
                         operand::imm_u32(slot >= 0 ? 4 : 0)});
      if (i + 1 == targets.size())
         w->flags |= INSTR_EOT;
   }
}

} /* namespace ibis */
