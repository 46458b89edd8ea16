/*
 * interpolateAtSample / interpolateAtOffset: pixel interpolator messages
 * (brw's lower_interpolator_logical_send and emit_pixel_interpolater_send).
 *
 * Descriptor (SFID 11, brw_pixel_interp_desc): slot group 11 (channels
 * 16-31), message type 13:12 (1 at sample, 3 per-slot offset), no
 * perspective 14, SIMD16 16; for a sample, the sample index in 7:4 (ORed
 * in from a value: brw's dynamic descriptor).  The sample message has
 * nothing to say per channel, but a message needs a payload: a copy of g0
 * (mlen 1).  The per-slot offset message takes the x and y offsets as
 * signed integers in 1/16 pixel, min(int(16 × offset), 7), as brw clamps
 * them.  The response is the I/J pair in the PLN layout of the payload's
 * barycentrics, 2 GRFs per 8 channels.
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

namespace {

constexpr unsigned PI_LOC_SAMPLE = 1;
constexpr unsigned PI_LOC_PER_SLOT_OFFSET = 3;
constexpr unsigned INTERP_MODE_NOPERSPECTIVE = 3;

uint32_t
pi_desc(unsigned type, bool noperspective, unsigned exec, unsigned group)
{
   return (group >= 16 ? 1u << 11 : 0) | type << 12 |
          (noperspective ? 1u << 14 : 0) | (exec == 16 ? 1u << 16 : 0);
}

} /* anonymous namespace */

void
lower_interp(shader &s, instr *in)
{
   namespace src = interp_logical_src;
   const operand &mode = in->src(src::mode);
   const operand &arg = in->src(src::src);
   const operand &imode = in->src(src::interp_mode);
   if (!mode.is_imm() || !imode.is_imm())
      throw error("lower: interpolator mode must be immediate: '" + in->str() + "'");
   value *result = in->dst().val;
   if (!result || result->bit_size() != 32 || result->length != 2 ||
       result->width != in->exec_size)
      throw error("lower: interpolator results are I/J pairs: '" + in->str() + "'");
   const bool at_offset = mode.imm == 1;
   const bool noperspective = imode.imm == INTERP_MODE_NOPERSPECTIVE;

   builder b(&s);
   b.before(in);
   const builder one = b.exec(1).nomask();
   value *desc_val = nullptr;
   std::vector<value *> offsets;
   if (!at_offset) {
      /* The sample index of the first live channel (brw's
       * emit_uniformize), at bits 7:4.
       */
      operand sample = arg;
      if (arg.val && arg.val->width > 1) {
         value *ch = one.find_live_channel(data_type::u32);
         sample = operand(one.broadcast(data_type::u32, arg.as_type(data_type::u32),
                                        operand(ch)));
      }
      if (sample.is_imm())
         sample = operand(one.mov(data_type::u32, sample));
      desc_val = one.shl(data_type::u32, sample.as_type(data_type::u32),
                         operand::imm_u32(4));
   } else {
      if (!arg.val || arg.val->length != 2)
         throw error("lower: interpolateAtOffset takes an x, y pair: '" +
                     in->str() + "'");
      const builder eb = b.exec(in->exec_size, in->group);
      for (unsigned i = 0; i < 2; i++) {
         value *scaled = eb.mul(data_type::f32, arg.component(i).as_type(data_type::f32),
                                operand::imm_f32(16.0f));
         value *fixed = eb.mov(data_type::s32, operand(scaled));
         value *clamped = eb.ssa(data_type::s32);
         instr *sel = eb.sel(operand(clamped), operand(fixed), operand::imm_s32(7));
         sel->cmod = cond_mod::l;
         offsets.push_back(clamped);
      }
   }

   const unsigned width = in->exec_size;
   const unsigned piece = std::min(width, 16u);
   std::vector<value *> parts;
   for (unsigned first = 0; first < width; first += piece) {
      const unsigned group = in->group + first;
      const builder pb = b.exec(piece, group);
      payloads p;
      if (at_offset) {
         /* One payload: brw's offsets are one ivec2 register. */
         p = build_payloads(pb, piece, group, nullptr, 0,
                            {param{operand(offsets[0]), offsets.data()},
                             param{operand(offsets[1]), offsets.data()}});
      } else {
         p.p0 = operand(g0_copy(b));
         p.mlen = 1;
      }
      value *dst = piece == width ? result
                                  : s.create_value(reg_file::ssa, result->type,
                                                   piece, 2, group);
      emit_send(pb, SFID_PIXEL_INTERP,
                pi_desc(at_offset ? PI_LOC_PER_SLOT_OFFSET : PI_LOC_SAMPLE,
                        noperspective, piece, group),
                p, operand(dst), 2 * piece / 8, false, desc_val);
      if (dst != result)
         parts.push_back(dst);
   }
   if (!parts.empty()) {
      /* The halves' bytes in order: the result is in the payload layout. */
      std::vector<operand> srcs;
      for (value *pc : parts)
         for (unsigned c = 0; c < 2; c++)
            srcs.push_back(operand(pc).component(c));
      b.exec(width, in->group).emit(opcode::load_payload, {operand(result)}, srcs);
   }
   in->remove();
}

} /* namespace ibis::lowering */
