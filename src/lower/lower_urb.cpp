/*
 * VS outputs: Gen8+ SIMD8 URB writes (brw_urb_desc, brw's emit_urb_writes).
 * The header is the URB handles (g1) copied NoMask; the data, one GRF per
 * dword of the slots written, goes in payload1.  The descriptor holds the
 * global offset in 128-bit slots (14:4), the per-slot-offset (17) and
 * channel-mask (15) presence bits and the SIMD8 write opcode (3:0 = 7).
 *
 * per_slot_offsets is the global offset when it is an immediate; a value
 * holds each channel's offset in slots, added to a global offset of 0.
 * channel_mask, as brw's, is each channel's dword write mask in bits 23:16
 * (one bit per dword of the two slots a masked write may cover).  Present,
 * they follow the handles in the header (brw_lower_logical_sends.cpp:
 * handles, offsets, mask, then the data).
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

namespace {
constexpr unsigned URB_SIMD8_WRITE = 7;
}

void
lower_urb_write(shader &s, instr *in)
{
   builder b(&s);
   b.before(in);
   const operand &handle = in->src(urb_write_logical_src::handle);
   const operand &slot = in->src(urb_write_logical_src::per_slot_offsets);
   const operand &mask = in->src(urb_write_logical_src::channel_mask);
   const operand &data = in->src(urb_write_logical_src::data);
   if (in->exec_size != 8)
      throw error("lower: URB writes are SIMD8: '" + in->str() + "'");
   if (!data.val || data.val->width != 8)
      throw error("lower: URB data must be a SIMD8 value: '" + in->str() + "'");
   const bool per_slot = !slot.is_null() && !slot.is_imm();
   const bool masked = !mask.is_null();
   if (masked && data.val->size_bytes() / REG > 8)
      throw error("lower: a masked URB write covers at most two slots: '" +
                  in->str() + "'");
   for (const operand *o : {&slot, &mask}) {
      if (!o->is_null() && !o->is_imm() &&
          (o->val->bit_size() != 32 || (o->val->width != 8 && o->val->width != 1)))
         throw error("lower: URB offsets and masks are 32-bit SIMD8 values: '" +
                     in->str() + "'");
   }
   const unsigned regs = data.val->size_bytes() / REG;
   if (data.val->bit_size() != 32 || regs == 0 || regs > 8 || data.offset)
      throw error("lower: URB data must be 1-8 whole GRFs: '" + in->str() + "'");

   /* The handles, one dword per channel: read where they are (g1), except
    * by the EOT write, whose payload must be in g112-g127: there a NoMask
    * copy, like brw's mov of g1.
    */
   payloads p;
   if (per_slot || masked) {
      /* One NoMask header of the handles, the offsets and the mask. */
      const builder nb = b.exec(8).nomask();
      std::vector<operand> parts = {handle.as_type(data_type::u32)};
      if (per_slot)
         parts.push_back(slot.as_type(data_type::u32));
      if (masked)
         parts.push_back(mask.is_imm() ? operand::imm_u32(mask.imm)
                                       : mask.as_type(data_type::u32));
      value *h = nb.wlr(data_type::u32, unsigned(parts.size()));
      nb.emit(opcode::load_payload, {operand(h)}, parts);
      p.p0 = operand(h);
      p.mlen = unsigned(parts.size());
   } else if (in->flags & INSTR_EOT) {
      p.p0 = operand(b.exec(8).nomask().mov(data_type::u32,
                                            handle.as_type(data_type::u32)));
   } else {
      p.p0 = handle.as_type(data_type::u32);
   }
   if (!p.mlen)
      p.mlen = 1;
   p.p1 = operand(data.val);
   p.ex_mlen = regs;
   const uint32_t global = slot.is_imm() ? uint32_t(slot.imm) : 0;
   if (global > 0x7ff)
      throw error("lower: URB global offset " + std::to_string(global) +
                  " does not fit 11 bits");
   const uint32_t desc = (per_slot ? 1u << 17 : 0) | (masked ? 1u << 15 : 0) |
                         global << 4 | URB_SIMD8_WRITE;
   instr *send = emit_send(b.exec(8), SFID_URB, desc, p, operand(), 0, true);
   send->flags |= in->flags & INSTR_EOT;
   in->remove();
}

} /* namespace ibis::lowering */
