/*
 * VS outputs: Gen8+ SIMD8 URB writes (brw_urb_desc, brw's emit_urb_writes).
 * The header is the URB handles (g1) copied NoMask; the data, one GRF per
 * dword of the slots written, goes in payload1.  The descriptor holds the
 * global offset in 128-bit slots (14:4), the per-slot-offset (17) and
 * channel-mask (15) presence bits and the SIMD8 write opcode (3:0 = 7).
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
   if (!slot.is_imm() || !mask.is_null() || !data.val || data.val->width != 8)
      throw error("lower: URB write with per-slot offsets, a channel mask or "
                  "non-vector data is not supported: '" + in->str() + "'");
   const unsigned regs = data.val->size_bytes() / REG;
   if (data.val->bit_size() != 32 || regs == 0 || regs > 8 || data.offset)
      throw error("lower: URB data must be 1-8 whole GRFs: '" + in->str() + "'");

   /* The handles, one dword per channel: read where they are (g1), except
    * by the EOT write, whose payload must be in g112-g127: there a NoMask
    * copy, like brw's mov of g1.
    */
   payloads p;
   if (in->flags & INSTR_EOT) {
      p.p0 = operand(b.exec(8).nomask().mov(data_type::u32,
                                            handle.as_type(data_type::u32)));
   } else {
      p.p0 = handle.as_type(data_type::u32);
   }
   p.mlen = 1;
   p.p1 = operand(data.val);
   p.ex_mlen = regs;
   const uint32_t desc = (uint32_t(slot.imm) & 0x7ff) << 4 | URB_SIMD8_WRITE;
   instr *send = emit_send(b.exec(8), SFID_URB, desc, p, operand(), 0, true);
   send->flags |= in->flags & INSTR_EOT;
   in->remove();
}

} /* namespace ibis::lowering */
