/*
 * Texture instructions as tex_logical sends.  The op slot holds NIR's
 * tex_op number, with the tg4 gather component in bits 8-9; constant
 * texel offsets are packed into the tg4_offset slot as brw packs them
 * for the message header (4 bits each of u, v, r), a non-constant
 * offset (tg4 only) is a value there.  Surfaces and samplers are NIR's
 * indices plus any dynamic offset.  A txf_ms without an MCS source reads
 * the MCS first (a txf_ms_mcs_intel of the same coordinates, sampler 0),
 * as brw's emit_mcs_fetch does on Gen7+.
 *
 * A texture or sampler index that differs between channels cannot go in
 * a message descriptor (one register for all channels): the lookup runs
 * in brw's nir_lower_non_uniform_access loop, once per distinct index.
 */
#include "from_nir/from_nir_distinct.h"

namespace ibis {

using nir::tex_src_type;

void
nir_translator::emit_tex(const nir::tex_instr &tex)
{
   builder b = bld.exec(width);
   if (tex.is_sparse)
      unsupported("sparse texture fetches are not supported");

   auto comps_of = [&](int i, data_type t, unsigned n) {
      comps c;
      for (unsigned k = 0; k < n; k++)
         c.push_back(src(tex.srcs[i].ssa, k, t));
      return gather(b, c, t);
   };
   auto index_plus = [&](unsigned base, tex_src_type offset_type) {
      int i = tex.src_index(offset_type);
      if (i < 0)
         return operand::imm_u32(base);
      operand off = src(tex.srcs[i].ssa, 0, data_type::u32);
      if (off.is_imm())
         return operand::imm_u32(base + uint32_t(off.imm));
      /* Keep the index uniform when the offset is (a non-uniform one
       * takes the loop below).
       */
      builder ib = off.val && off.val->width == 1 ? uniform_builder() : b;
      return operand(ib.add(data_type::u32, off, operand::imm_u32(base)));
   };

   std::vector<operand> s(13);
   bool int_coords = tex.op == nir::tex_op::txf || tex.op == nir::tex_op::txf_ms ||
                     tex.op == nir::tex_op::txf_ms_mcs_intel ||
                     tex.op == nir::tex_op::samples_identical;
   unsigned coord_n = 0, grad_n = 0;
   uint32_t packed_offset = 0;
   for (unsigned i = 0; i < tex.srcs.size(); i++) {
      const nir::def *d = tex.srcs[i].ssa;
      switch (tex.srcs[i].type) {
      case tex_src_type::coord:
         coord_n = d->num_components;
         s[tex_logical_src::coordinate] =
            comps_of(i, int_coords ? data_type::s32 : data_type::f32, coord_n);
         break;
      case tex_src_type::comparator:
         s[tex_logical_src::shadow_c] = comps_of(i, data_type::f32, 1);
         break;
      case tex_src_type::bias:
         s[tex_logical_src::lod] = comps_of(i, data_type::f32, 1);
         break;
      case tex_src_type::lod:
         s[tex_logical_src::lod] = comps_of(i, tex.op == nir::tex_op::txl ||
                                                tex.op == nir::tex_op::lod
                                                  ? data_type::f32 : data_type::s32, 1);
         break;
      case tex_src_type::min_lod:
         s[tex_logical_src::min_lod] = comps_of(i, data_type::f32, 1);
         break;
      case tex_src_type::ddx:
         grad_n = d->num_components;
         s[tex_logical_src::lod] = comps_of(i, data_type::f32, grad_n);
         break;
      case tex_src_type::ddy:
         s[tex_logical_src::lod2] = comps_of(i, data_type::f32, d->num_components);
         break;
      case tex_src_type::ms_index:
         s[tex_logical_src::sample_index] = comps_of(i, data_type::u32, 1);
         break;
      case tex_src_type::ms_mcs_intel:
         s[tex_logical_src::mcs] = comps_of(i, data_type::u32, d->num_components);
         break;
      case tex_src_type::offset: {
         bool constant = true;
         for (unsigned k = 0; k < d->num_components; k++) {
            operand o = src(d, k);
            if (!o.is_imm()) {
               constant = false;
               break;
            }
            packed_offset |= (uint32_t(o.imm) & 0xf) << (8 - 4 * k);
         }
         if (!constant) {
            if (tex.op != nir::tex_op::tg4)
               unsupported("non-constant texel offsets exist for gathers only");
            s[tex_logical_src::tg4_offset] = comps_of(i, data_type::s32, d->num_components);
         }
         break;
      }
      case tex_src_type::texture_offset:
      case tex_src_type::sampler_offset:
         break;
      default:
         unsupported("texture source %s is not supported",
                     nir::tex_src_name(tex.srcs[i].type));
      }
   }
   if (s[tex_logical_src::tg4_offset].is_null())
      s[tex_logical_src::tg4_offset] = operand::imm_u32(packed_offset);
   s[tex_logical_src::op] = operand::imm_u32(unsigned(tex.op) | tex.component << 8);
   s[tex_logical_src::surface] = index_plus(tex.texture_index, tex_src_type::texture_offset);
   if (nir::op_info(tex.op).needs_sampler)
      s[tex_logical_src::sampler] = index_plus(tex.sampler_index, tex_src_type::sampler_offset);
   s[tex_logical_src::coord_components] = operand::imm_u32(coord_n);
   s[tex_logical_src::grad_components] = operand::imm_u32(grad_n);
   std::vector<operand> m;
   value *mcs = nullptr;
   if (tex.op == nir::tex_op::txf_ms && s[tex_logical_src::mcs].is_null()) {
      /* Its two dwords are what ld2dms_w takes. */
      m.resize(13);
      m[tex_logical_src::op] = operand::imm_u32(unsigned(nir::tex_op::txf_ms_mcs_intel));
      m[tex_logical_src::coordinate] = s[tex_logical_src::coordinate];
      m[tex_logical_src::surface] = s[tex_logical_src::surface];
      m[tex_logical_src::sampler] = operand::imm_u32(0);
      m[tex_logical_src::tg4_offset] = operand::imm_u32(0);
      m[tex_logical_src::coord_components] = operand::imm_u32(coord_n);
      m[tex_logical_src::grad_components] = operand::imm_u32(0);
      mcs = b.ssa(data_type::u32, 2);
      s[tex_logical_src::mcs] = operand(mcs);
   }
   auto emit = [&](const builder &eb, value *v) {
      if (mcs) {
         m[tex_logical_src::surface] = s[tex_logical_src::surface];
         eb.emit(opcode::tex_logical, {operand(mcs)}, m);
      }
      eb.emit(opcode::tex_logical, {operand(v)}, s);
   };

   char base = nir::base_type(tex.dest_type) == nir::type_float ? 'f'
             : nir::base_type(tex.dest_type) == nir::type_int ? 's' : 'u';
   data_type t = type_of(base, tex.dest.bit_size);
   value *v = b.ssa(t, tex.dest.num_components);
   operand &surf = s[tex_logical_src::surface], &samp = s[tex_logical_src::sampler];
   if (!non_uniform(surf) && !non_uniform(samp)) {
      emit(b, v);
   } else {
      /* The payload values are all built above, for every channel: inside
       * the loop a message reads them whole, so an implicit LOD still sees
       * the quad's coordinates.  SIMD32 messages are halves that copy their
       * parameters under the loop's mask; a quad's other channels may not
       * have them yet.
       */
      const bool implicit = tex.op == nir::tex_op::tex || tex.op == nir::tex_op::txb ||
                            tex.op == nir::tex_op::lod;
      if (implicit && width == 32 && nir.info.stage == nir::shader_stage::fragment)
         unsupported("implicit-LOD lookups with non-uniform indices are not supported "
                     "at SIMD32");
      set_def(tex.dest, for_each_distinct(*this, {&surf, &samp}, t,
                                          tex.dest.num_components, [&]() {
         emit(bld.exec(width), v);
         return split(v);
      }));
      return;
   }
   set_def(tex.dest, split(v));
}

} /* namespace ibis */
