/*
 * Decoding of Gen8/Gen9 instructions.  Decoding never fails: fields that
 * hold reserved values decode to values disassemble() flags, so any byte
 * string can be inspected.
 */
#include "isa/isa_bits.h"

namespace ibis::isa {

namespace {

void
decode_dst(const native &n, inst &in, gen g)
{
   reg &d = in.dst;
   d.file = reg_file(get(n, fld::dst_reg_file));
   d.type = type_from_hw(get(n, fld::dst_reg_hw_type), false, g);
   d.indirect = get(n, fld::dst_address_mode);
   d.hstride = hstride_dec(get(n, fld::dst_hstride));
   d.vstride = 0;
   d.width = 1;
   if (d.indirect) {
      d.ia_subnr = get(n, fld::dst_ia_subreg_nr);
      unsigned imm = in.access == access_mode::align1
                        ? get(n, fld::dst_ia1_addr_imm)
                        : get(n, fld::dst_ia16_addr_imm) << 4;
      imm |= get(n, fld::dst_ia_addr_imm_9) << 9;
      d.ia_imm = int16_t(imm << 6) >> 6;
   } else {
      d.nr = get(n, fld::dst_da_reg_nr);
      if (in.access == access_mode::align1) {
         d.subnr = get(n, fld::dst_da1_subreg_nr);
      } else {
         d.subnr = get(n, fld::dst_da16_subreg_nr) * 16;
         d.writemask = get(n, fld::da16_writemask);
      }
   }
}

/* src1's file and type below a src0 immediate; a type number equal to
 * the immediate's means "the immediate's type" (see unused_src1()).
 */
void
decode_src1_under_imm(const native &n, inst &in, gen g)
{
   reg &s = in.src[1];
   s.file = reg_file(get(n, fld::src1_reg_file));
   unsigned hw = get(n, fld::src1_reg_hw_type);
   if (s.file != reg_file::imm && int(hw) == type_hw(in.src[0].type, true, g))
      s.type = in.src[0].type;
   else
      s.type = type_from_hw(hw, s.file == reg_file::imm, g);
}

/* File and type only (what survives below a src0 immediate). */
void
decode_src_file_type(const native &n, unsigned i, reg &s, gen g)
{
   const src_fields &f = src_f[i];
   s.file = reg_file(get(n, f.reg_file));
   s.type = type_from_hw(get(n, f.reg_hw_type), s.file == reg_file::imm, g);
}

void
decode_src(const native &n, const inst &in, unsigned i, reg &s, gen g)
{
   const src_fields &f = src_f[i];
   decode_src_file_type(n, i, s, g);
   if (s.file == reg_file::imm) {
      s.imm = is_64bit_imm(s.type) ? get(n, fld::imm64) : get(n, fld::imm32);
      s.vstride = 0;
      s.width = 1;
      s.hstride = 0;
      return;
   }
   s.indirect = get(n, f.address_mode);
   s.negate = get(n, f.negate);
   s.abs = get(n, f.abs);
   s.vstride = vstride_dec(get(n, f.vstride));
   if (in.access == access_mode::align1) {
      s.width = 1u << std::min<unsigned>(get(n, f.width), 7);
      s.hstride = hstride_dec(get(n, f.hstride));
   } else {
      s.width = 4;
      s.hstride = 1;
      s.swizzle = make_swizzle(get(n, f.swiz_x), get(n, f.swiz_y),
                               get(n, f.swiz_z), get(n, f.swiz_w));
   }
   if (s.indirect) {
      s.ia_subnr = get(n, f.ia_subreg_nr);
      unsigned imm = get(n, f.ia1_addr_imm) | get(n, f.ia_addr_imm_9) << 9;
      s.ia_imm = int16_t(imm << 6) >> 6;
   } else {
      s.nr = get(n, f.da_reg_nr);
      s.subnr = in.access == access_mode::align1 ? get(n, f.da1_subreg_nr)
                                                 : get(n, f.da16_subreg_nr) * 16;
   }
}

void
decode_tri(const native &n, inst &in)
{
   isa::type src_type = tri_type_from_hw(get(n, fld::tri_src_hw_type));
   /* The per-source flags switch between float and half float. */
   isa::type other = src_type == type::HF ? type::F : type::HF;

   in.dst = reg();
   in.dst.file = reg_file::grf;
   in.dst.type = tri_type_from_hw(get(n, fld::tri_dst_hw_type));
   in.dst.nr = get(n, fld::tri_dst_reg_nr);
   in.dst.subnr = get(n, fld::tri_dst_subreg_nr) * 4;
   in.dst.writemask = get(n, fld::tri_dst_writemask);
   in.dst.hstride = 1;

   for (unsigned i = 0; i < 3; i++) {
      reg &s = in.src[i];
      s = reg();
      s.file = reg_file::grf;
      s.type = src_type;
      if ((i == 1 && get(n, fld::tri_src1_type)) || (i == 2 && get(n, fld::tri_src2_type)))
         s.type = other;
      const tri_src_fields &f = tri_src_f[i];
      s.nr = get(n, f.reg_nr);
      s.subnr = get(n, f.subreg_nr) * 4;
      s.swizzle = get(n, f.swizzle);
      s.negate = get(n, f.negate);
      s.abs = get(n, f.abs);
      if (get(n, f.rep_ctrl)) {
         s.vstride = 0;
         s.width = 1;
         s.hstride = 0;
      } else {
         s.vstride = 4;
         s.width = 4;
         s.hstride = 1;
      }
   }
}

void
decode_sends(const native &n, inst &in)
{
   in.dst = reg();
   in.dst.file = get(n, fld::send_dst_reg_file) ? reg_file::grf : reg_file::arf;
   in.dst.nr = get(n, fld::dst_da_reg_nr);
   in.dst.subnr = get(n, fld::dst_da16_subreg_nr) * 16;
   in.dst.hstride = 1;
   in.src[0] = reg();
   in.src[0].file = reg_file::grf;
   in.src[0].nr = get(n, fld::src0_da_reg_nr);
   in.src[0].subnr = get(n, fld::src0_da16_subreg_nr) * 16;
   in.src[1] = reg();
   in.src[1].file = get(n, fld::send_src1_reg_file) ? reg_file::grf : reg_file::arf;
   in.src[1].nr = get(n, fld::send_src1_reg_nr);

   in.ex_desc_indirect = get(n, fld::send_sel_reg32_ex_desc);
   if (in.ex_desc_indirect)
      in.ex_desc_subnr = get(n, fld::send_ex_desc_ia_subreg_nr);
   else
      in.ex_desc = uint32_t(get(n, fld::sends_ex_desc_31_16)) << 16 |
                   uint32_t(get(n, fld::sends_ex_desc_9_6)) << 6;
   in.desc_indirect = get(n, fld::send_sel_reg32_desc);
   if (!in.desc_indirect)
      in.desc = get(n, fld::send_desc) & 0x7fffffff;
}

} /* namespace */

inst
decode(const native &n, gen g)
{
   inst in;
   in.op = opcode(get(n, fld::hw_opcode));
   const opcode_info &oi = info(in.op);
   if (!oi.name)
      in.op = opcode::illegal;

   in.access = access_mode(get(n, fld::access_mode));
   in.no_dd_clear = get(n, fld::no_dd_clear);
   in.no_dd_check = get(n, fld::no_dd_check);
   in.group = get(n, fld::qtr_control) * 8 + get(n, fld::nib_control) * 4;
   in.thread = thread_ctrl(get(n, fld::thread_control));
   in.pred = pred_ctrl(get(n, fld::pred_control));
   in.pred_inv = get(n, fld::pred_inv);
   in.exec_size = 1u << get(n, fld::exec_size);
   in.acc_wr = get(n, fld::acc_wr_control);
   in.debug = get(n, fld::debug_control);
   in.saturate = get(n, fld::saturate);
   in.flag_nr = get(n, fld::flag_reg_nr);
   in.flag_subnr = get(n, fld::flag_subreg_nr);
   in.mask_disable = get(n, fld::mask_control);
   in.compacted = false;

   if (in.op == opcode::math)
      in.math = math_fn(get(n, fld::math_function));
   else if (is_send(in.op))
      in.sfid = sfid(get(n, fld::sfid));
   else
      in.cmod = cond_mod(get(n, fld::cond_modifier));

   switch (oi.name ? oi.form : op_form::nop) {
   case op_form::nop:
      break;
   case op_form::tri:
      /* Gen10+ three-source instructions are align1, a layout not decoded
       * here: their operands stay empty.
       */
      if (g < gen::gen11)
         decode_tri(n, in);
      break;
   case op_form::sends:
      decode_sends(n, in);
      in.eot = get(n, fld::eot);
      break;
   case op_form::branch:
   case op_form::branch2:
      decode_dst(n, in, g);
      decode_src_file_type(n, 0, in.src[0], g);
      if (oi.form == op_form::branch) {
         decode_src1_under_imm(n, in, g);
         in.src[1].width = 1;
      } else {
         in.uip = int32_t(get(n, fld::uip));
      }
      in.jip = int32_t(get(n, fld::jip));
      break;
   case op_form::jmpi:
      decode_dst(n, in, g);
      decode_src(n, in, 0, in.src[0], g);
      decode_src(n, in, 1, in.src[1], g);
      /* The JIP is from the JMPI itself (see encode). */
      if (in.src[1].file == reg_file::imm)
         in.jip = int32_t(in.src[1].imm) + (g < gen::gen12 ? 16 : 0);
      break;
   case op_form::send:
      decode_dst(n, in, g);
      decode_src(n, in, 0, in.src[0], g);
      decode_src_file_type(n, 1, in.src[1], g);
      if (in.src[1].file == reg_file::imm) {
         in.desc = get(n, fld::send_desc) & 0x7fffffff;
      } else {
         in.desc_indirect = true;
         decode_src(n, in, 1, in.src[1], g);
      }
      in.eot = get(n, fld::eot);
      break;
   default:
      decode_dst(n, in, g);
      decode_src(n, in, 0, in.src[0], g);
      if (in.src[0].file != reg_file::imm)
         decode_src(n, in, 1, in.src[1], g);
      else if (!is_64bit_imm(in.src[0].type))
         decode_src1_under_imm(n, in, g);
      break;
   }
   return in;
}

std::vector<decoded>
decode_program(const uint8_t *data, size_t size, gen g)
{
   std::vector<decoded> out;
   size_t offset = 0;
   while (offset + 8 <= size) {
      uint64_t lo = 0;
      for (unsigned i = 0; i < 8; i++)
         lo |= uint64_t(data[offset + i]) << (8 * i);
      bool compacted = (lo >> fld::cmpt_control.lo) & 1;
      native n;
      size_t len;
      if (compacted) {
         n = uncompact(lo, g);
         len = 8;
      } else {
         if (offset + 16 > size)
            break;
         uint64_t hi = 0;
         for (unsigned i = 0; i < 8; i++)
            hi |= uint64_t(data[offset + 8 + i]) << (8 * i);
         n = { lo, hi };
         len = 16;
      }
      inst in = decode(n, g);
      in.compacted = compacted;
      out.push_back({ offset, in });
      offset += len;
   }
   return out;
}

} /* namespace ibis::isa */
