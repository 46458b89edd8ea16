/*
 * Scratch messages: register spills and fills, and NIR scratch arrays.
 *
 * Spills and fills (and scratch accesses at a constant address) use the
 * Gen7+ data-cache scratch block messages, as brw's gfx7_block_read_scratch
 * and brw_scratch_write do: the header is a NoMask copy of g0 (whose
 * dword 5 holds the thread's scratch base), the offset is in the
 * descriptor in HWords (32 bytes), and a message moves 1, 2, 4 or 8 GRFs.
 * They run NoMask: every channel of the register is saved and restored,
 * which is right for any value the allocator keeps in a register.
 *
 * NIR scratch arrays live per channel, swizzled as brw lays them out
 * (dword i of a channel at (i × dispatch width + channel) × 4); a constant
 * address is then a whole-register block, a varying one a DWord scattered
 * message through the stateless surface.
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

namespace {

/* Scratch block descriptor fields (DC0, Gen8+): category 18 (scratch),
 * write 17, DWord type 16 (0: HWords), block size 13:12 (log2 of the
 * registers), offset 11:0 in HWords.
 */
uint32_t
scratch_block_desc(bool write, unsigned regs, unsigned offset_bytes)
{
   unsigned log2 = regs == 8 ? 3 : regs == 4 ? 2 : regs == 2 ? 1 : 0;
   return 1u << 18 | (write ? 1u << 17 : 0) | log2 << 12 |
          (offset_bytes / REG & 0xfff);
}

constexpr unsigned SCRATCH_MAX_BYTES = (1u << 12) * REG;
constexpr unsigned BTI_STATELESS_NON_COHERENT = 253;
constexpr unsigned DC_DWORD_SCATTERED_READ = 3;
constexpr unsigned DC_DWORD_SCATTERED_WRITE = 11;

/* Largest block (1, 2, 4 or 8 GRFs) not above n. */
unsigned
block_regs(unsigned n)
{
   return n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
}

/* The value moved through scratch: v itself when it is whole GRFs, else
 * a staging value of the fewest whole GRFs holding v's bytes in order
 * (width-1 values and narrow vectors; the allocator reserves their size
 * rounded up to a GRF).  A write stages through a WLR value, one NoMask
 * move per component; a fill reads the staging value back with a
 * load_payload.
 */
value *
scratch_data(shader &s, value *v, bool write, const instr *in)
{
   if (v->width > 1 && v->size_bytes() % REG == 0)
      return v;
   if (v->bit_size() < 8 || v->component_bytes() > REG ||
       REG % v->component_bytes())
      throw error("lower: cannot move " + value_spec(v) +
                  " through scratch in '" + in->str() + "'");
   const unsigned regs = (v->size_bytes() + REG - 1) / REG;
   return s.create_value(write ? reg_file::wlr : reg_file::ssa, v->type,
                         REG * 8 / v->bit_size(), regs);
}

/* Components first..first+n of v as sources of a load_payload. */
std::vector<operand>
components(value *v, unsigned first, unsigned n)
{
   std::vector<operand> srcs;
   for (unsigned c = first; c < first + n; c++)
      srcs.push_back(operand(v).component(c));
   return srcs;
}

void
emit_block_messages(shader &s, instr *in, value *v, unsigned offset, bool write)
{
   value *data = scratch_data(s, v, write, in);
   const unsigned regs = data->size_bytes() / REG;
   if (offset % REG || offset + regs * REG > SCRATCH_MAX_BYTES)
      throw error("lower: scratch offset " + std::to_string(offset) +
                  " is not a GRF multiple below 128 KiB in '" + in->str() + "'");
   builder b(&s);
   b.before(in);
   const builder nb = b.exec(8).nomask();
   const builder vb = b.exec(data->width, data->group).nomask();
   const uint32_t keep = in->flags & (INSTR_SPILL | INSTR_FILL);
   const unsigned cb = data->component_bytes();

   if (data != v && write) {
      for (unsigned c = 0; c < v->length; c++) {
         operand d(data);
         d.offset = c * v->component_bytes();
         b.exec(v->width, v->group).nomask()
            .emit(opcode::mov, {d}, {operand(v).component(c)});
      }
   }

   std::vector<operand> read_parts;
   for (unsigned done = 0; done < regs;) {
      const unsigned n = block_regs(regs - done);
      if ((n * REG) % cb || (done * REG) % cb)
         throw error("lower: cannot split " + value_spec(data) +
                     " into scratch blocks in '" + in->str() + "'");
      operand chunk(data);
      if (n != regs) {
         /* A part of the value is its own payload or destination value. */
         value *part = s.create_value(reg_file::ssa, data->type, data->width,
                                      n * REG / cb, data->group);
         if (write)
            vb.emit(opcode::load_payload, {operand(part)},
                    components(data, done * REG / cb, n * REG / cb));
         else
            for (const operand &o : components(part, 0, part->length))
               read_parts.push_back(o);
         chunk = operand(part);
      }
      payloads p;
      p.p0 = operand(g0_copy(b));
      p.mlen = 1;
      if (write) {
         p.p1 = chunk;
         p.ex_mlen = n;
      }
      const uint32_t desc = scratch_block_desc(write, n, offset + done * REG);
      instr *send = emit_send(nb, SFID_DC0, desc, p,
                              write ? operand() : chunk, write ? 0 : n, true);
      send->flags |= keep;
      done += n;
   }

   if (!write && !read_parts.empty())
      vb.emit(opcode::load_payload, {operand(data)}, read_parts);
   if (!write && data != v) {
      std::vector<operand> srcs;
      for (unsigned c = 0; c < v->length; c++) {
         operand o(data);
         o.offset = c * v->component_bytes();
         srcs.push_back(o);
      }
      b.exec(v->width, v->group).nomask().emit(opcode::load_payload,
                                              {operand(v)}, srcs);
   }
}

/* brw's swizzled scratch address of a per-channel NIR address, in
 * dwords: (addr / 4) × dispatch width + channel.
 */
operand
swizzled_dword_address(const builder &b, shader &s, const operand &addr)
{
   value *chan = b.ssa(data_type::u32);
   b.emit(opcode::load_subgroup_invocation, {operand(chan)}, {});
   /* (addr >> 2) << log2(width) == (addr / 4) * width: addr is dword
    * aligned and the width a power of two.
    */
   unsigned log2w = s.dispatch_width == 32 ? 5 : s.dispatch_width == 16 ? 4 : 3;
   value *dw = b.shr(data_type::u32, addr, operand::imm_u32(2));
   dw = b.shl(data_type::u32, operand(dw), operand::imm_u32(log2w));
   return operand(b.add(data_type::u32, operand(dw), operand(chan)));
}

void
emit_scattered(shader &s, instr *in, bool write)
{
   builder b(&s);
   b.before(in);
   const unsigned width = in->exec_size;
   /* Messages are SIMD8 or SIMD16: SIMD32 is two halves per component. */
   const unsigned piece = std::min(width, 16u);
   const builder cb = b.exec(width, in->group);
   operand addr = swizzled_dword_address(cb, s, in->src(0));
   const unsigned comps = write ? in->src(1).val ? in->src(1).val->length : 1
                                : in->dst().val->length;
   const unsigned regs = piece / 8;
   std::vector<value *> results;
   for (unsigned c = 0; c < comps; c++) {
      /* Component c is dword c of the channel: dispatch width dwords on. */
      operand a = c ? operand(cb.add(data_type::u32, addr,
                                     operand::imm_u32(c * s.dispatch_width)))
                    : addr;
      std::vector<param> ps = {param{a, nullptr}};
      if (write)
         ps.push_back(param{in->src(1).is_imm() ? in->src(1)
                                                : in->src(1).component(c),
                            nullptr});
      for (unsigned first = 0; first < width; first += piece) {
         const unsigned group = in->group + first;
         const builder pb = b.exec(piece, group);
         value *header = g0_copy(b);
         payloads p = build_payloads(pb, piece, group, header, 1, ps);
         const uint32_t desc = dp_desc(BTI_STATELESS_NON_COHERENT,
                                       write ? DC_DWORD_SCATTERED_WRITE
                                             : DC_DWORD_SCATTERED_READ,
                                       2 | (piece == 16 ? 1 : 0));
         value *r = write ? nullptr : pb.ssa(data_type::u32);
         emit_send(pb, SFID_DC0, desc, p, r ? operand(r) : operand(),
                   write ? 0 : regs, true);
         if (r)
            results.push_back(r);
      }
   }
   if (!write) {
      std::vector<operand> srcs(results.begin(), results.end());
      cb.emit(opcode::load_payload, {in->dst()}, srcs);
   }
}

} /* anonymous namespace */

void
lower_scratch(shader &s, instr *in, const device_info &dev)
{
   (void)dev;
   const bool write = in->op == opcode::scratch_write_logical;
   const operand &off = in->src(0);
   const bool spill = in->flags & (INSTR_SPILL | INSTR_FILL);
   if (off.is_imm()) {
      value *v = write ? in->src(1).val : in->dst().val;
      if (!v)
         throw error("lower: scratch data must be a value: '" + in->str() + "'");
      /* NIR addresses are per channel: scaled by the dispatch width. */
      const unsigned bytes = spill ? unsigned(off.imm)
                                   : unsigned(off.imm) * s.dispatch_width;
      emit_block_messages(s, in, v, bytes, write);
   } else {
      emit_scattered(s, in, write);
   }
   in->remove();
}

} /* namespace ibis::lowering */
