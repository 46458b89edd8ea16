/*
 * Expansions of the pseudo-ops that survive to code generation
 * (docs/backend.md §1): copy, load_payload, find_live_channel, broadcast,
 * shuffle, mov_indirect and load_subgroup_invocation.  The hardware
 * sequences follow brw_fs_generator.cpp / brw_eu_emit.c (Gen8-9 paths).
 */
#include <algorithm>

#include "codegen/codegen_private.h"
#include "util/ibis_error.h"

namespace ibis::codegen_internal {

namespace {

isa::type
uint_type(unsigned bytes)
{
   switch (bytes) {
   case 1: return isa::type::UB;
   case 2: return isa::type::UW;
   case 4: return isa::type::UD;
   default: return isa::type::UQ;
   }
}

data_type
uint_data_type(unsigned bytes)
{
   switch (bytes) {
   case 1: return data_type::u8;
   case 2: return data_type::u16;
   case 4: return data_type::u32;
   default: return data_type::u64;
   }
}

unsigned
log2u(unsigned x)
{
   unsigned l = 0;
   while ((1u << l) < x)
      l++;
   return l;
}

isa::reg
at_byte(unsigned byte, isa::type t)
{
   isa::reg r = isa::grf(byte / 32, t);
   r.subnr = byte % 32;
   return r;
}

isa::reg
a0(isa::type t)
{
   return isa::stride(isa::arf_reg(isa::arf::address, 0, t), 1);
}

/* g[a0.0 + imm] with one address per row (VxH, one element a row), or a
 * single address for a scalar read.
 */
isa::reg
indirect(isa::type t, int imm, bool per_channel)
{
   isa::reg r;
   r.file = isa::reg_file::grf;
   r.type = t;
   r.indirect = true;
   r.ia_subnr = 0;
   r.ia_imm = imm;
   if (per_channel)
      return isa::region(r, isa::vstride_vxh, 1, 0);
   return isa::scalar(r);
}

/* Channels of one move of n elements of sz bytes: no operand may span
 * more than two GRFs, and no more than 16 channels.
 */
unsigned
move_width(unsigned n, unsigned sz)
{
   return std::min({n, 16u, 64u / sz});
}

} /* anonymous namespace */

void
generator::emit_copy(const instr *in)
{
   const operand &d = in->dst(0), &src = in->src(0);
   value *dv = d.val;

   if (dv->file == reg_file::flag) {
      /* A FLAG value moves as one UW (UD for SIMD32) of flag bits. */
      if (!src.val || src.val->file != reg_file::flag)
         fail("a flag copy reads a flag");
      const phys_reg &dp = dv->phys, &sp = src.val->phys;
      if (dp.kind != phys_reg::flag || sp.kind != phys_reg::flag)
         fail("flag without a flag register");
      if (dp == sp)
         return;
      isa::type t = dv->width > 16 ? isa::type::UD : isa::type::UW;
      isa::reg dr = isa::stride(isa::arf_reg(isa::arf::flag, dp.nr, t), 1);
      dr.subnr = dp.subreg * 2;
      isa::reg sr = isa::scalar(isa::arf_reg(isa::arf::flag, sp.nr, t));
      sr.subnr = sp.subreg * 2;
      isa::inst mov = isa::make(isa::opcode::mov, 1, dr, sr);
      mov.mask_disable = true;
      push(mov);
      return;
   }

   /* The whole value from the operand's offset on, component by
    * component, each in hardware pieces.
    */
   unsigned cb = dv->component_bytes();
   unsigned ncomp = dv->length - d.offset / std::max(cb, 1u);
   bool src_scalar = src.is_imm() || src.val->width == 1;
   unsigned src_cb = src.is_imm() ? 0 : src.val->width == 1
                                           ? type_bits(src.type) / 8
                                           : src.val->component_bytes();
   /* No further than the source reaches (an immediate fills them all). */
   if (!src.is_imm())
      ncomp = std::min(ncomp, (src.val->size_bytes() - src.offset) / std::max(src_cb, 1u));
   for (unsigned c = 0; c < ncomp; c++) {
      operand dc = d, sc = src;
      dc.offset += c * cb;
      if (!src.is_imm())
         sc.offset += c * src_cb;
      /* Already there: the allocator coalesced the copy. */
      if (!sc.is_imm() && !sc.neg && !sc.abs && !sc.has_region && !dc.has_region &&
          !src_scalar && sc.val->phys.kind == phys_reg::grf &&
          dv->phys.kind == phys_reg::grf && sc.val->width == dv->width &&
          type_bits(sc.type) == type_bits(dc.type) &&
          grf_byte(sc, 0) == grf_byte(dc, 0))
         continue;
      for (const piece &pc : pieces(in)) {
         isa::reg dr = dst_reg(dc, pc.first);
         bool compressed = pc.size * isa::type_size(dr.type) * dr.hstride > 32;
         isa::inst mov = isa::make(isa::opcode::mov, pc.size, dr,
                                   src_reg(sc, pc.first, pc.size, compressed));
         set_flags(mov, in, in->group + pc.first);
         push(mov);
      }
   }
}

void
generator::emit_load_payload(const instr *in)
{
   const operand &d = in->dst(0);
   const value *dv = d.val;
   unsigned w = dv->width;
   unsigned bsz = dv->bit_size() / 8;
   bool nomask = in->we_all() || dv->is_simd_global();
   unsigned pos = 0;   /* channels of the destination filled so far */

   /* A NoMask GRF copy waiting for its neighbor: two whole registers
    * that are contiguous in source and payload go as one mov(16), as brw
    * copies r0-r1 into a message header.
    */
   operand pend_src, pend_dst;
   bool pending = false;
   auto nomask_mov = [&](unsigned width) {
      isa::inst mov = isa::make(isa::opcode::mov, width, dst_reg(pend_dst, 0),
                                src_reg(pend_src, 0, width, width > 8));
      mov.mask_disable = true;
      mov.group = 0;
      push(mov);
      pending = false;
   };
   auto flush = [&]() {
      if (pending)
         nomask_mov(8);
   };

   for (const operand &o : in->srcs()) {
      unsigned n = o.is_null() || o.is_imm() || o.val->width == 1
                      ? w : std::min<unsigned>(o.val->width, w);
      if (o.is_null()) {
         pos += n;
         continue;
      }
      if (type_bits(o.type) / 8 != bsz)
         fail("load_payload source of %u bits into %u-bit channels",
              type_bits(o.type), bsz * 8);
      operand dpos = d.as_type(o.type);
      dpos.offset += pos * bsz;
      dpos.has_region = false;
      pos += n;

      bool in_place = o.val && o.val->width > 1 && !o.has_region && !o.neg &&
                      !o.abs && o.val->phys.kind == phys_reg::grf &&
                      grf_byte(o, 0) == grf_byte(dpos, 0);
      if (in_place) {
         flush();
         continue;
      }

      bool whole_grf = nomask && bsz == 4 && n == 8 && o.val && o.val->width > 1 &&
                       !o.has_region && !o.neg && !o.abs &&
                       o.val->phys.kind == phys_reg::grf &&
                       grf_byte(o, 0) % 32 == 0 && grf_byte(dpos, 0) % 32 == 0;
      if (whole_grf) {
         if (pending && grf_byte(o, 0) == grf_byte(pend_src, 0) + 32 &&
             grf_byte(dpos, 0) == grf_byte(pend_dst, 0) + 32 &&
             o.type == pend_src.type) {
            nomask_mov(16);
            continue;
         }
         flush();
         pend_src = o;
         pend_dst = dpos;
         pending = true;
         continue;
      }
      flush();

      /* The source's own channels when it is narrower than the payload. */
      unsigned group = o.val && o.val->width > 1 && o.val->width < w
                          ? o.val->group : in->group;
      unsigned step = move_width(n, bsz);
      for (unsigned first = 0; first < n; first += step) {
         isa::reg dr = dst_reg(dpos, first);
         bool compressed = step * bsz > 32;
         isa::inst mov = isa::make(isa::opcode::mov, step, dr,
                                   src_reg(o, first, step, compressed));
         mov.mask_disable = nomask;
         mov.group = nomask && step < 8 ? 0 : group + first;
         push(mov);
      }
   }
   flush();
   if (pos * bsz != dv->size_bytes() - d.offset)
      fail("sources fill %u of %u bytes", pos * bsz, dv->size_bytes() - d.offset);
}

void
generator::emit_find_live_channel(const instr *in)
{
   isa::reg dst = dst_reg(in->dst(0).as_type(data_type::u32), 0);
   isa::reg d = isa::scalar(dst);
   isa::reg ce = isa::scalar(isa::arf_reg(isa::arf::mask, 0, isa::type::UD));
   auto nomask1 = [&](isa::inst i) {
      i.mask_disable = true;
      push(i);
   };
   /* ce0 ignores the dispatch mask: fragment threads (not packed)
    * combine it with sr0.2 first (brw lower_find_live_channel).
    */
   if (s.stage == shader_stage::fs || in->group) {
      isa::reg mask = s.stage == shader_stage::fs
                         ? isa::scalar(isa::arf_reg(isa::arf::state, 0, isa::type::UD, 2))
                         : ce;
      nomask1(isa::make(isa::opcode::mov, 1, dst, mask));
      if (in->group)
         nomask1(isa::make(isa::opcode::shr, 1, dst, d, isa::imm_ud(in->group)));
      if (s.stage == shader_stage::fs)
         nomask1(isa::make(isa::opcode::and_, 1, dst, ce, d));
      nomask1(isa::make(isa::opcode::fbl, 1, dst, d));
   } else {
      nomask1(isa::make(isa::opcode::fbl, 1, dst, ce));
   }
}

void
generator::emit_broadcast(const instr *in)
{
   const operand &d = in->dst(0), &v = in->src(0), &idx = in->src(1);
   if (!v.val)
      fail("broadcast of an immediate");
   unsigned bsz = type_bits(v.type) / 8;
   isa::type t = uint_type(bsz);
   data_type dt = uint_data_type(bsz);
   operand d0 = d.as_type(dt);
   isa::reg first = dst_reg(d0, 0);
   bool wide = d.val->width > 1;

   if (idx.is_imm() || v.val->width == 1) {
      unsigned i = idx.is_imm() && v.val->width > 1 ? unsigned(idx.imm) : 0;
      isa::reg s = isa::scalar(at_byte(grf_byte(v, i * bsz), t));
      for (const piece &pc : pieces(in)) {
         isa::inst mov = isa::make(isa::opcode::mov, pc.size, dst_reg(d0, pc.first), s);
         set_flags(mov, in, in->group + pc.first);
         /* A scalar result is SIMD-global (brw: BROADCAST is NoMask). */
         mov.mask_disable |= !wide;
         push(mov);
      }
      return;
   }

   /* a0.0 = index × size; read g[a0.0 + base] (brw_broadcast). */
   auto nomask1 = [&](isa::inst i) {
      i.mask_disable = true;
      push(i);
   };
   isa::reg addr = a0(isa::type::UD);
   nomask1(isa::make(isa::opcode::shl, 1, addr,
                     src_reg(idx.as_type(data_type::u32), 0, 1, false),
                     isa::imm_ud(log2u(bsz))));
   unsigned base = grf_byte(v, 0);
   /* The indirect immediate reaches 512 bytes. */
   if (base >= 512) {
      nomask1(isa::make(isa::opcode::add, 1, addr, isa::scalar(addr),
                        isa::imm_ud(base - base % 512)));
      base %= 512;
   }
   if (bsz == 8) {
      /* No 64-bit indirect reads: two dwords (brw's CHV/BXT path). */
      for (unsigned h = 0; h < 2; h++) {
         isa::reg dh = at_byte(grf_byte(d0, 4 * h), isa::type::UD);
         nomask1(isa::make(isa::opcode::mov, 1, isa::stride(dh, 1),
                           indirect(isa::type::UD, base + 4 * h, false)));
      }
   } else {
      nomask1(isa::make(isa::opcode::mov, 1, first, indirect(t, base, false)));
   }
   if (!wide)
      return;
   /* Every channel of a wider destination takes channel 0. */
   isa::reg s = isa::scalar(at_byte(grf_byte(d0, 0), t));
   for (const piece &pc : pieces(in)) {
      if (pc.first == 0 && pc.size == 1)
         continue;
      isa::inst mov = isa::make(isa::opcode::mov, pc.size, dst_reg(d0, pc.first), s);
      set_flags(mov, in, in->group + pc.first);
      push(mov);
   }
}

void
generator::emit_shuffle(const instr *in)
{
   const operand &d = in->dst(0), &v = in->src(0), &idx = in->src(1);
   if (!v.val)
      fail("shuffle of an immediate");
   unsigned bsz = type_bits(v.type) / 8;
   isa::type t = uint_type(bsz);
   operand dd = d.as_type(uint_data_type(bsz));

   if (idx.is_imm() || v.val->width == 1) {
      unsigned i = idx.is_imm() && v.val->width > 1 ? unsigned(idx.imm) : 0;
      isa::reg s = isa::scalar(at_byte(grf_byte(v, i * bsz), t));
      for (const piece &pc : pieces(in)) {
         isa::inst mov = isa::make(isa::opcode::mov, pc.size, dst_reg(dd, pc.first), s);
         set_flags(mov, in, in->group + pc.first);
         push(mov);
      }
      return;
   }
   if (type_bits(idx.type) != 32)
      fail("shuffle index must be 32-bit");

   /* a0.0-15 take one byte address per channel (brw generate_shuffle):
    * 16 channels at a time, 8 for 64-bit data.
    */
   unsigned lw = std::min<unsigned>(bsz > 4 ? 8 : 16, in->exec_size);
   unsigned start = grf_byte(v, 0);
   for (unsigned g = 0; g < in->exec_size; g += lw) {
      isa::reg addr = a0(isa::type::UW);
      isa::inst init = isa::make(isa::opcode::mov, lw, addr, isa::imm_uw(start));
      init.mask_disable = true;
      init.group = in->group + g;
      push(init);

      isa::reg ix;
      if (idx.val->width == 1) {
         ix = isa::scalar(at_byte(grf_byte(idx, 0), isa::type::UW));
      } else {
         ix = isa::region(at_byte(grf_byte(idx, g * 4), isa::type::UW), 16, 8, 2);
      }
      isa::inst shl = isa::make(isa::opcode::shl, lw, addr, ix, isa::imm_uw(log2u(bsz)));
      set_flags(shl, in, in->group + g);
      push(shl);
      isa::inst add = isa::make(isa::opcode::add, lw, addr,
                                isa::region(a0(isa::type::UW), lw, lw, 1),
                                isa::imm_uw(start));
      set_flags(add, in, in->group + g);
      push(add);

      if (bsz == 8) {
         for (unsigned h = 0; h < 2; h++) {
            isa::reg dh = isa::stride(at_byte(grf_byte(dd, g * 8 + 4 * h), isa::type::UD), 2);
            isa::inst mov = isa::make(isa::opcode::mov, lw, dh,
                                      indirect(isa::type::UD, 4 * h, true));
            set_flags(mov, in, in->group + g);
            push(mov);
         }
      } else {
         isa::inst mov = isa::make(isa::opcode::mov, lw, dst_reg(dd, g),
                                   indirect(t, 0, true));
         set_flags(mov, in, in->group + g);
         push(mov);
      }
   }
}

void
generator::emit_mov_indirect(const instr *in)
{
   const operand &d = in->dst(0), &base = in->src(0), &off = in->src(1);
   if (!base.val)
      fail("indirect move from an immediate");
   unsigned bsz = type_bits(d.type) / 8;
   isa::type t = uint_type(bsz);
   const value *bv = base.val;
   /* Component c of the destination reads component c of the base. */
   unsigned base_cb = bv->width == 1 ? bsz : bv->component_bytes();
   unsigned cb = d.val->component_bytes();
   unsigned ncomp = d.val->length - d.offset / std::max(cb, 1u);
   /* A scalar result is SIMD-global: every step runs NoMask. */
   bool scalar_dst = d.val->width == 1;

   for (unsigned c = 0; c < ncomp; c++) {
      operand dc = d.as_type(uint_data_type(bsz));
      dc.offset += c * cb;
      unsigned start = grf_byte(base, c * base_cb);

      if (off.is_imm()) {
         operand sc = base.as_type(uint_data_type(bsz));
         sc.offset += c * base_cb + unsigned(off.imm);
         for (const piece &pc : pieces(in)) {
            isa::reg dr = dst_reg(dc, pc.first);
            bool compressed = pc.size * bsz > 32;
            isa::inst mov = isa::make(isa::opcode::mov, pc.size, dr,
                                      src_reg(sc, pc.first, pc.size, compressed));
            set_flags(mov, in, in->group + pc.first);
            mov.mask_disable |= scalar_dst;
            push(mov);
         }
         continue;
      }

      /* a0 = offset + start per channel, then one VxH read (brw
       * generate_mov_indirect); the NoMask mov first makes every address
       * valid.
       */
      unsigned lw = std::min<unsigned>(bsz > 4 ? 8 : 16, in->exec_size);
      for (unsigned g = 0; g < in->exec_size; g += lw) {
         isa::reg addr = a0(isa::type::UW);
         isa::inst init = isa::make(isa::opcode::mov, lw, addr, isa::imm_uw(start));
         init.mask_disable = true;
         init.group = lw < 4 ? 0 : in->group + g;
         push(init);
         isa::reg o = off.val->width == 1
                         ? isa::scalar(at_byte(grf_byte(off, 0), isa::type::UW))
                         : isa::region(at_byte(grf_byte(off, g * 4), isa::type::UW), 16, 8, 2);
         if (lw == 1)
            o = isa::scalar(o);
         isa::inst add = isa::make(isa::opcode::add, lw, addr, o, isa::imm_uw(start));
         set_flags(add, in, in->group + g);
         add.mask_disable |= scalar_dst;
         push(add);
         if (bsz == 8) {
            for (unsigned h = 0; h < 2; h++) {
               isa::reg dh = isa::stride(at_byte(grf_byte(dc, g * 8 + 4 * h), isa::type::UD), 2);
               isa::inst mov = isa::make(isa::opcode::mov, lw, dh,
                                         indirect(isa::type::UD, 4 * h, lw > 1));
               set_flags(mov, in, in->group + g);
               mov.mask_disable |= scalar_dst;
               push(mov);
            }
         } else {
            isa::inst mov = isa::make(isa::opcode::mov, lw, dst_reg(dc, g),
                                      indirect(t, 0, lw > 1));
            set_flags(mov, in, in->group + g);
            mov.mask_disable |= scalar_dst;
            push(mov);
         }
      }
   }
}

void
generator::emit_subgroup_invocation(const instr *in)
{
   const operand &d = in->dst(0);
   unsigned w = d.val->width;
   unsigned bsz = type_bits(d.type) / 8;
   if ((bsz != 2 && bsz != 4) || w < 8)
      fail("subgroup invocation needs 16 or 32 bits and 8 or more channels");
   operand du = d.as_type(uint_data_type(bsz));
   auto imm = [&](unsigned v) { return bsz == 2 ? isa::imm_uw(v) : isa::imm_ud(v); };

   /* 0-7 from a packed vector, then +8 and +16 (brw's sequence).  A
    * vector immediate needs a packed word destination (Mesa's EU
    * validator): 32-bit results take the words first and widen them in
    * place (one register read whole before it is written).
    */
   isa::inst mov = isa::make(isa::opcode::mov, 8,
                             dst_reg(d.as_type(data_type::u16), 0), isa::imm_v(0x76543210));
   mov.mask_disable = true;
   push(mov);
   if (bsz == 4) {
      isa::inst widen = isa::make(isa::opcode::mov, 8, dst_reg(du, 0),
                                  src_reg(d.as_type(data_type::u16), 0, 8, false));
      widen.mask_disable = true;
      push(widen);
   }
   if (w >= 16) {
      isa::inst add = isa::make(isa::opcode::add, 8, dst_reg(du, 8),
                                src_reg(du, 0, 8, false), imm(8));
      add.mask_disable = true;
      push(add);
   }
   if (w == 32) {
      isa::inst add = isa::make(isa::opcode::add, 16, dst_reg(du, 16),
                                src_reg(du, 0, 16, bsz == 4), imm(16));
      add.mask_disable = true;
      push(add);
   }
}

} /* namespace ibis::codegen_internal */
