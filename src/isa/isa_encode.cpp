/*
 * Encoding of Gen8/Gen9 native instructions.
 */
#include <algorithm>

#include "isa/isa_bits.h"
#include "util/ibis_error.h"

namespace ibis::isa {

namespace {

[[noreturn]] void
bad(const char *what, unsigned value)
{
   throw ibis::error(strfmt("cannot encode %s %u", what, value));
}

unsigned
checked(unsigned enc, const char *what, unsigned value)
{
   if (enc == 0xff)
      bad(what, value);
   return enc;
}

unsigned reg_type_hw(const reg &r, gen g, bool is_dst = false);

/* The type encoding of the src1 that sits below a src0 immediate: brw
 * gives an absent src1 the immediate's type number.
 */
unsigned
src1_under_imm_hw(const inst &in, gen g)
{
   if (in.src[1].file != reg_file::imm && in.src[1].type == in.src[0].type) {
      int hw = type_hw(in.src[0].type, true, g);
      if (hw >= 0)
         return hw;
   }
   return reg_type_hw(in.src[1], g);
}

/* A source's type encoding; a destination is never an immediate. */
unsigned
reg_type_hw(const reg &r, gen g, bool is_dst)
{
   bool immediate = r.file == reg_file::imm && !is_dst;
   int hw = type_hw(r.type, immediate, g);
   if (hw < 0)
      throw ibis::error(strfmt("type %s is not valid for %s", type_name(r.type),
                               immediate ? "an immediate" : "a register"));
   return hw;
}

/* Fields common to every form: opcode and instruction controls. */
void
encode_header(native &n, const inst &in)
{
   set(n, fld::hw_opcode, unsigned(in.op));
   set(n, fld::access_mode, unsigned(in.access));
   set(n, fld::no_dd_clear, in.no_dd_clear);
   set(n, fld::no_dd_check, in.no_dd_check);
   if (in.group % 4 || in.group >= 32)
      bad("channel group", in.group);
   set(n, fld::nib_control, (in.group / 4) & 1);
   set(n, fld::qtr_control, in.group / 8);
   set(n, fld::thread_control, unsigned(in.thread));
   set(n, fld::pred_control, unsigned(in.pred));
   set(n, fld::pred_inv, in.pred_inv);
   set(n, fld::exec_size, checked(log2_enc(in.exec_size), "exec size", in.exec_size));
   set(n, fld::acc_wr_control, in.acc_wr);
   set(n, fld::debug_control, in.debug);
   set(n, fld::saturate, in.saturate);
   set(n, fld::flag_reg_nr, in.flag_nr);
   set(n, fld::flag_subreg_nr, in.flag_subnr);
   set(n, fld::mask_control, in.mask_disable);

   if (in.op == opcode::math)
      set(n, fld::math_function, unsigned(in.math));
   else if (is_send(in.op))
      set(n, fld::sfid, unsigned(in.sfid));
   else
      set(n, fld::cond_modifier, unsigned(in.cmod));
}

void
encode_dst(native &n, const inst &in, gen g)
{
   const reg &d = in.dst;
   set(n, fld::dst_reg_file, unsigned(d.file));
   set(n, fld::dst_reg_hw_type, reg_type_hw(d, g, true));
   set(n, fld::dst_address_mode, d.indirect);
   set(n, fld::dst_hstride, checked(hstride_enc(d.hstride), "dst stride", d.hstride));
   if (d.indirect) {
      set(n, fld::dst_ia_subreg_nr, d.ia_subnr);
      if (in.access == access_mode::align1)
         set(n, fld::dst_ia1_addr_imm, d.ia_imm & 0x1ff);
      else
         set(n, fld::dst_ia16_addr_imm, (d.ia_imm >> 4) & 0x1f);
      set(n, fld::dst_ia_addr_imm_9, (d.ia_imm >> 9) & 1);
   } else {
      set(n, fld::dst_da_reg_nr, d.nr);
      if (in.access == access_mode::align1) {
         set(n, fld::dst_da1_subreg_nr, d.subnr);
      } else {
         set(n, fld::da16_writemask, d.writemask);
         set(n, fld::dst_da16_subreg_nr, d.subnr / 16);
      }
   }
}

/* Encodes the register part of source i (everything but an immediate's
 * value, which encode_imm() writes last because it overlaps src1).
 */
void
encode_src(native &n, const inst &in, unsigned i, gen g)
{
   const reg &s = in.src[i];
   const src_fields &f = src_f[i];
   set(n, f.reg_file, unsigned(s.file));
   set(n, f.reg_hw_type, reg_type_hw(s, g));
   if (s.file == reg_file::imm)
      return;

   set(n, f.address_mode, s.indirect);
   set(n, f.negate, s.negate);
   set(n, f.abs, s.abs);
   set(n, f.vstride, checked(vstride_enc(s.vstride), "vertical stride", s.vstride));
   if (in.access == access_mode::align1) {
      set(n, f.width, checked(log2_enc(s.width), "width", s.width));
      set(n, f.hstride, checked(hstride_enc(s.hstride), "horizontal stride", s.hstride));
   } else {
      set(n, f.swiz_x, s.swizzle & 3);
      set(n, f.swiz_y, (s.swizzle >> 2) & 3);
      set(n, f.swiz_z, (s.swizzle >> 4) & 3);
      set(n, f.swiz_w, (s.swizzle >> 6) & 3);
   }
   if (s.indirect) {
      set(n, f.ia_subreg_nr, s.ia_subnr);
      set(n, f.ia1_addr_imm, s.ia_imm & 0x1ff);
      set(n, f.ia_addr_imm_9, (s.ia_imm >> 9) & 1);
   } else {
      set(n, f.da_reg_nr, s.nr);
      if (in.access == access_mode::align1)
         set(n, f.da1_subreg_nr, s.subnr);
      else
         set(n, f.da16_subreg_nr, s.subnr / 16);
   }
}

void
encode_imm(native &n, const reg &s)
{
   if (is_64bit_imm(s.type))
      set(n, fld::imm64, s.imm);
   else
      set(n, fld::imm32, s.imm & 0xffffffffu);
}

void
encode_tri(native &n, const inst &in, gen g)
{
   if (g >= gen::gen11)
      throw ibis::error("align1 three-source encoding (Gen10+) is not implemented");
   if (in.access != access_mode::align16)
      throw ibis::error("three-source instructions are align16 on Gen8/Gen9");

   /* One source type serves all three sources.  Float sources may mix F
    * and HF (flagged per source below); integer ones (bfe, bfi2, with D
    * and UD mixed) take the destination's type, as brw_alu3 does: a
    * per-source flag there would read that source as HF.
    */
   const bool fp = in.dst.type == type::F || in.dst.type == type::HF ||
                   in.dst.type == type::DF;
   const type src_type = fp ? in.src[0].type : in.dst.type;
   int dst_hw = tables::types[unsigned(in.dst.type) % num_types].tri_hw;
   int src_hw = tables::types[unsigned(src_type) % num_types].tri_hw;
   if (dst_hw < 0 || src_hw < 0 || unsigned(in.dst.type) >= num_types ||
       unsigned(in.src[0].type) >= num_types)
      throw ibis::error("type not valid in a three-source instruction");
   if (in.dst.file != reg_file::grf)
      throw ibis::error("three-source destination must be a GRF");

   set(n, fld::tri_dst_hw_type, dst_hw);
   set(n, fld::tri_src_hw_type, src_hw);
   /* Mixed float/half-float sources are flagged per source. */
   for (unsigned i = 0; i < 3; i++) {
      const bool src_fp = in.src[i].type == type::F || in.src[i].type == type::HF ||
                          in.src[i].type == type::DF;
      if (src_fp != fp)
         throw ibis::error(strfmt("three-source src%u type does not match the destination's", i));
   }
   set(n, fld::tri_src1_type, fp && in.src[1].type != in.src[0].type);
   set(n, fld::tri_src2_type, fp && in.src[2].type != in.src[0].type);
   set(n, fld::tri_dst_reg_nr, in.dst.nr);
   set(n, fld::tri_dst_subreg_nr, in.dst.subnr / 4);
   set(n, fld::tri_dst_writemask, in.dst.writemask);

   for (unsigned i = 0; i < 3; i++) {
      const reg &s = in.src[i];
      if (s.file != reg_file::grf || s.indirect)
         throw ibis::error(strfmt("three-source src%u must be a direct GRF", i));
      bool replicate = s.vstride == 0 && s.width == 1 && s.hstride == 0;
      const tri_src_fields &f = tri_src_f[i];
      set(n, f.reg_nr, s.nr);
      set(n, f.subreg_nr, s.subnr / 4);
      set(n, f.swizzle, s.swizzle);
      set(n, f.rep_ctrl, replicate);
      set(n, f.negate, s.negate);
      set(n, f.abs, s.abs);
   }
}

void
encode_sends(native &n, const inst &in, gen g)
{
   if (g < gen::gen9)
      throw ibis::error("split sends need Gen9");
   const reg &d = in.dst, &s0 = in.src[0], &s1 = in.src[1];
   if (d.indirect || s0.indirect || s1.indirect)
      throw ibis::error("indirect split-send operands are not supported");
   set(n, fld::send_dst_reg_file, d.file == reg_file::grf);
   set(n, fld::dst_da_reg_nr, d.nr);
   set(n, fld::dst_da16_subreg_nr, d.subnr / 16);
   set(n, fld::src0_da_reg_nr, s0.nr);
   set(n, fld::src0_da16_subreg_nr, s0.subnr / 16);
   set(n, fld::send_src1_reg_file, s1.file == reg_file::grf);
   set(n, fld::send_src1_reg_nr, s1.nr);

   set(n, fld::send_sel_reg32_ex_desc, in.ex_desc_indirect);
   if (in.ex_desc_indirect) {
      set(n, fld::send_ex_desc_ia_subreg_nr, in.ex_desc_subnr);
   } else {
      if (in.ex_desc & 0xfc3f)
         throw ibis::error(strfmt("extended descriptor 0x%08x has bits SENDS cannot hold",
                                  in.ex_desc));
      set(n, fld::sends_ex_desc_31_16, in.ex_desc >> 16);
      set(n, fld::sends_ex_desc_9_6, (in.ex_desc >> 6) & 0xf);
   }
   set(n, fld::send_sel_reg32_desc, in.desc_indirect);
   if (!in.desc_indirect)
      set(n, fld::send_desc, in.desc & 0x7fffffff);
   set(n, fld::eot, in.eot);
}

} /* namespace */

native
encode(const inst &in, gen g)
{
   if (g != gen::gen8 && g != gen::gen9 && g != gen::gen11)
      throw ibis::error(strfmt("encoding for Gen%u is not implemented", unsigned(g)));
   const opcode_info &oi = info(in.op);
   if (!oi.name)
      throw ibis::error(strfmt("opcode %u does not exist on Gen%u", unsigned(in.op), unsigned(g)));

   native n = { 0, 0 };
   encode_header(n, in);

   switch (oi.form) {
   case op_form::nop:
      break;
   case op_form::tri:
      encode_tri(n, in, g);
      break;
   case op_form::sends:
      encode_sends(n, in, g);
      break;
   case op_form::branch:
   case op_form::branch2:
      encode_dst(n, in, g);
      encode_src(n, in, 0, g);
      /* The offsets replace the immediate; a JIP-only branch keeps the
       * src1 file and type below them.
       */
      if (oi.form == op_form::branch) {
         set(n, fld::src1_reg_file, unsigned(in.src[1].file));
         set(n, fld::src1_reg_hw_type, src1_under_imm_hw(in, g));
      } else {
         set(n, fld::uip, uint32_t(in.uip));
      }
      set(n, fld::jip, uint32_t(in.jip));
      break;
   case op_form::jmpi:
      encode_dst(n, in, g);
      encode_src(n, in, 0, g);
      if (in.src[1].file == reg_file::imm) {
         /* An immediate jump is kept as a JIP from the JMPI itself, which
          * never compacts; before Gen12 the hardware adds it to the IP of
          * the next instruction (IGA's "post-increment" JMPI).
          */
         inst j = in;
         j.src[1] = imm_d(in.jip - (g < gen::gen12 ? 16 : 0));
         encode_src(n, j, 1, g);
         encode_imm(n, j.src[1]);
      } else {
         encode_src(n, in, 1, g);
      }
      break;
   case op_form::send:
      encode_dst(n, in, g);
      encode_src(n, in, 0, g);
      if (in.desc_indirect) {
         encode_src(n, in, 1, g);
      } else {
         set(n, fld::src1_reg_file, unsigned(reg_file::imm));
         set(n, fld::src1_reg_hw_type, 0);
         set(n, fld::send_desc, in.desc & 0x7fffffff);
      }
      set(n, fld::eot, in.eot);
      break;
   default:
      encode_dst(n, in, g);
      encode_src(n, in, 0, g);
      if (in.src[0].file == reg_file::imm) {
         if (in.src[1].file == reg_file::imm)
            throw ibis::error("two immediate sources");
         if (!is_64bit_imm(in.src[0].type)) {
            /* Only src1's file and type survive below a 32-bit src0
             * immediate.
             */
            set(n, fld::src1_reg_file, unsigned(in.src[1].file));
            set(n, fld::src1_reg_hw_type, src1_under_imm_hw(in, g));
         }
         encode_imm(n, in.src[0]);
      } else {
         encode_src(n, in, 1, g);
         if (in.src[1].file == reg_file::imm) {
            if (is_64bit_imm(in.src[1].type))
               throw ibis::error("a 64-bit immediate must be src0");
            encode_imm(n, in.src[1]);
         }
      }
      break;
   }
   return n;
}

namespace {

uint64_t
gather(const native &n, const tables::compact_index &idx)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < idx.num_ranges; i++) {
      const field &f = idx.ranges[i];
      v = (v << (f.hi - f.lo + 1)) | get(n, f);
   }
   return v;
}

void
scatter(native &n, const tables::compact_index &idx, uint64_t v)
{
   for (int i = idx.num_ranges - 1; i >= 0; i--) {
      const field &f = idx.ranges[i];
      unsigned width = f.hi - f.lo + 1;
      set(n, f, v & ((1ull << width) - 1));
      v >>= width;
   }
}

int
lookup(const tables::compact_index &idx, uint64_t v)
{
   for (unsigned i = 0; i < idx.count; i++) {
      if (idx.values[i] == v)
         return i;
   }
   return -1;
}

const tables::compact_index &
datatype_table(gen g)
{
   return g >= gen::gen11 ? tables::datatype_index_gen11 : tables::datatype_index;
}

/* The 13-bit compacted immediate: 12 bits plus one replicated upwards. */
bool
compact_imm(uint32_t imm, unsigned *out)
{
   int32_t s = int32_t(imm);
   if ((s >> 12) != 0 && (s >> 12) != -1)
      return false;
   *out = imm & 0x1fff;
   return true;
}

bool
compact_tri(const native &n, gen g, uint64_t *out)
{
   const auto &ctrl = g >= gen::gen9 ? tables::tri_control_index : tables::tri_control_index_gen8;
   const auto &srcs = g >= gen::gen9 ? tables::tri_source_index : tables::tri_source_index_gen8;

   /* Bits the compacted form cannot carry. */
   if (get_bits(n, 127, 127) || get_bits(n, 7, 7))
      return false;
   if (g == gen::gen8 &&
       (get_bits(n, 126, 126) || get_bits(n, 105, 105) || get_bits(n, 84, 84) ||
        get_bits(n, 36, 35)))
      return false;
   int ci = lookup(ctrl, gather(n, ctrl));
   int si = lookup(srcs, gather(n, srcs));
   if (ci < 0 || si < 0)
      return false;

   uint64_t dst_nr = get(n, fld::tri_dst_reg_nr);
   uint64_t nr[3] = { get(n, fld::tri_src0_reg_nr), get(n, fld::tri_src1_reg_nr),
                      get(n, fld::tri_src2_reg_nr) };
   /* Register numbers shrink to 7 bits. */
   if (dst_nr >= 128 || nr[0] >= 128 || nr[1] >= 128 || nr[2] >= 128)
      return false;

   uint64_t c = 0;
   cset(c, cfld::hw_opcode, get(n, fld::hw_opcode));
   cset(c, cfld::tri_control_index, ci);
   cset(c, cfld::tri_source_index, si);
   cset(c, cfld::tri_dst_reg_nr, dst_nr);
   cset(c, cfld::tri_src0_rep_ctrl, get(n, fld::tri_src0_rep_ctrl));
   cset(c, cfld::debug_control, get(n, fld::debug_control));
   cset(c, cfld::tri_saturate, get(n, fld::saturate));
   cset(c, cfld::tri_src1_rep_ctrl, get(n, fld::tri_src1_rep_ctrl));
   cset(c, cfld::tri_src2_rep_ctrl, get(n, fld::tri_src2_rep_ctrl));
   cset(c, cfld::tri_src0_reg_nr, nr[0]);
   cset(c, cfld::tri_src1_reg_nr, nr[1]);
   cset(c, cfld::tri_src2_reg_nr, nr[2]);
   cset(c, cfld::tri_src0_subreg_nr, get(n, fld::tri_src0_subreg_nr));
   cset(c, cfld::tri_src1_subreg_nr, get(n, fld::tri_src1_subreg_nr));
   cset(c, cfld::tri_src2_subreg_nr, get(n, fld::tri_src2_subreg_nr));
   cset(c, cfld::cmpt_control, 1);
   *out = c;
   return true;
}

} /* namespace */

bool
compact(const native &n, gen g, uint64_t *out)
{
   if (g != gen::gen8 && g != gen::gen9 && g != gen::gen11)
      return false;
   if (get(n, fld::cmpt_control))
      return false;

   opcode op = opcode(get(n, fld::hw_opcode));
   if (!info(op).name)
      return false;
   if (is_3src(op))
      return g < gen::gen11 && compact_tri(n, g, out);

   /* EOT has no place in a compacted SEND. */
   if ((op == opcode::send || op == opcode::sendc) && get(n, fld::eot))
      return false;
   /* Nor do these: NibCtrl, Dst.AddrImm[9], Src0.AddrImm[9] / Imm[31]. */
   if (get_bits(n, 95, 95) || get_bits(n, 47, 47) || get_bits(n, 11, 11) ||
       get_bits(n, 7, 7))
      return false;

   bool imm0 = get(n, fld::src0_reg_file) == unsigned(reg_file::imm);
   bool imm1 = get(n, fld::src1_reg_file) == unsigned(reg_file::imm);
   bool is_imm = imm0 || imm1;
   unsigned cimm = 0;
   if (is_imm) {
      isa::type t = type_from_hw(imm0 ? get(n, fld::src0_reg_hw_type)
                                      : get(n, fld::src1_reg_hw_type), true, g);
      if (t == type::invalid || is_64bit_imm(t))
         return false;
      if (!compact_imm(get(n, fld::imm32), &cimm))
         return false;
   }

   /* Each table in turn: most instructions that do not compact miss
    * the first ones.
    */
   const int ctrl = lookup(tables::control_index, gather(n, tables::control_index));
   if (ctrl < 0)
      return false;
   const auto &datatypes = datatype_table(g);
   const int dt = lookup(datatypes, gather(n, datatypes));
   if (dt < 0)
      return false;
   uint64_t sub = gather(n, tables::subreg_index);
   if (is_imm)
      sub &= 0x3ff;   /* src1's sub-register bits hold the immediate */
   const int sr = lookup(tables::subreg_index, sub);
   if (sr < 0)
      return false;
   const int s0 = lookup(tables::src0_index, gather(n, tables::src0_index));
   if (s0 < 0)
      return false;
   const int s1 = is_imm ? int(cimm >> 8)
                         : lookup(tables::src1_index, gather(n, tables::src1_index));
   if (s1 < 0)
      return false;

   uint64_t c = 0;
   cset(c, cfld::hw_opcode, unsigned(op));
   cset(c, cfld::debug_control, get(n, fld::debug_control));
   cset(c, cfld::control_index, ctrl);
   cset(c, cfld::datatype_index, dt);
   cset(c, cfld::subreg_index, sr);
   cset(c, cfld::acc_wr_control, get(n, fld::acc_wr_control));
   cset(c, cfld::cond_modifier, get(n, fld::cond_modifier));
   cset(c, cfld::cmpt_control, 1);
   cset(c, cfld::src0_index, s0);
   cset(c, cfld::src1_index, s1);
   cset(c, cfld::dst_reg_nr, get(n, fld::dst_da_reg_nr));
   cset(c, cfld::src0_reg_nr, get(n, fld::src0_da_reg_nr));
   cset(c, cfld::src1_reg_nr, is_imm ? (cimm & 0xff) : get(n, fld::src1_da_reg_nr));

   /* The tables may not reproduce every bit (e.g. a subreg number that
    * lands in the immediate); only claim success when expansion gives the
    * original back.
    */
   if (uncompact(c, g) != n)
      return false;
   *out = c;
   return true;
}

native
uncompact(uint64_t c, gen g)
{
   native n = { 0, 0 };
   opcode op = opcode(cget(c, cfld::hw_opcode));
   set(n, fld::hw_opcode, unsigned(op));

   if (is_3src(op)) {
      const auto &ctrl = g >= gen::gen9 ? tables::tri_control_index : tables::tri_control_index_gen8;
      const auto &srcs = g >= gen::gen9 ? tables::tri_source_index : tables::tri_source_index_gen8;
      scatter(n, ctrl, ctrl.values[cget(c, cfld::tri_control_index)]);
      scatter(n, srcs, srcs.values[cget(c, cfld::tri_source_index)]);
      set(n, fld::tri_dst_reg_nr, cget(c, cfld::tri_dst_reg_nr));
      set(n, fld::tri_src0_rep_ctrl, cget(c, cfld::tri_src0_rep_ctrl));
      set(n, fld::debug_control, cget(c, cfld::debug_control));
      set(n, fld::saturate, cget(c, cfld::tri_saturate));
      set(n, fld::tri_src1_rep_ctrl, cget(c, cfld::tri_src1_rep_ctrl));
      set(n, fld::tri_src2_rep_ctrl, cget(c, cfld::tri_src2_rep_ctrl));
      set(n, fld::tri_src0_reg_nr, cget(c, cfld::tri_src0_reg_nr));
      set(n, fld::tri_src1_reg_nr, cget(c, cfld::tri_src1_reg_nr));
      set(n, fld::tri_src2_reg_nr, cget(c, cfld::tri_src2_reg_nr));
      set(n, fld::tri_src0_subreg_nr, cget(c, cfld::tri_src0_subreg_nr));
      set(n, fld::tri_src1_subreg_nr, cget(c, cfld::tri_src1_subreg_nr));
      set(n, fld::tri_src2_subreg_nr, cget(c, cfld::tri_src2_subreg_nr));
      return n;
   }

   set(n, fld::debug_control, cget(c, cfld::debug_control));
   scatter(n, tables::control_index, tables::control_index.values[cget(c, cfld::control_index)]);
   const auto &datatypes = datatype_table(g);
   scatter(n, datatypes, datatypes.values[cget(c, cfld::datatype_index)]);
   scatter(n, tables::subreg_index, tables::subreg_index.values[cget(c, cfld::subreg_index)]);
   scatter(n, tables::src0_index, tables::src0_index.values[cget(c, cfld::src0_index)]);

   bool is_imm = get(n, fld::src0_reg_file) == unsigned(reg_file::imm) ||
                 get(n, fld::src1_reg_file) == unsigned(reg_file::imm);
   if (is_imm) {
      uint32_t cimm = cget(c, cfld::src1_index) << 8 | cget(c, cfld::src1_reg_nr);
      set(n, fld::imm32, uint32_t(int32_t(cimm << 19) >> 19));
   } else {
      scatter(n, tables::src1_index, tables::src1_index.values[cget(c, cfld::src1_index)]);
      set(n, fld::src1_da_reg_nr, cget(c, cfld::src1_reg_nr));
   }
   set(n, fld::acc_wr_control, cget(c, cfld::acc_wr_control));
   set(n, fld::cond_modifier, cget(c, cfld::cond_modifier));
   set(n, fld::dst_da_reg_nr, cget(c, cfld::dst_reg_nr));
   set(n, fld::src0_da_reg_nr, cget(c, cfld::src0_reg_nr));
   return n;
}

native
precompact(const native &in, gen g)
{
   native n = in;
   opcode op = opcode(get(n, fld::hw_opcode));
   if (g > gen::gen11 || is_3src(op) || is_send(op) || has_jip(op) ||
       get(n, fld::src0_reg_file) != unsigned(reg_file::imm))
      return n;
   isa::type src0 = type_from_hw(get(n, fld::src0_reg_hw_type), true, g);
   isa::type dst = type_from_hw(get(n, fld::dst_reg_hw_type), false, g);
   if (src0 == type::invalid || is_64bit_imm(src0))
      return n;

   /* src1 is absent: its type is free, and the tables only map 0. */
   set(n, fld::src1_reg_hw_type, 0);

   /* The tables have no imm:F mapping in src0, but 0.0 is also 0.0VF,
    * where a vector immediate may go: an oword-aligned destination
    * (Mesa's EU validator; brw_eu_compact.c does not check it).
    */
   uint32_t imm = get(n, fld::imm32);
   const bool oword = get(n, fld::access_mode) ||
                      get(n, fld::dst_address_mode) ||
                      get(n, fld::dst_da1_subreg_nr) % 16 == 0;
   if (imm == 0 && src0 == type::F && dst == type::F && get(n, fld::dst_hstride) == 1 &&
       oword)
      set(n, fld::src0_reg_hw_type, type_hw(type::VF, true, g));

   /* Nor dst:D with imm:D; for an immediate that compacts, UD computes
    * the same bits (without a conditional modifier to read the sign),
    * except fbh, which on D looks for the first bit unlike the sign.
    */
   unsigned cimm;
   if (compact_imm(imm, &cimm) && get(n, fld::cond_modifier) == 0 &&
       src0 == type::D && dst == type::D && op != opcode::fbh) {
      set(n, fld::src0_reg_hw_type, type_hw(type::UD, true, g));
      set(n, fld::dst_reg_hw_type, type_hw(type::UD, false, g));
   }
   return n;
}

bool
compact_for_emit(const native &n, gen g, uint64_t *out)
{
   return compact(precompact(n, g), g, out);
}

void
emit(std::vector<uint8_t> &out, const inst &in, gen g, bool compaction)
{
   native n = encode(in, g);
   uint64_t c;
   if (compaction && compact_for_emit(n, g, &c)) {
      for (unsigned i = 0; i < 8; i++)
         out.push_back(uint8_t(c >> (8 * i)));
      return;
   }
   for (unsigned w = 0; w < 2; w++) {
      for (unsigned i = 0; i < 8; i++)
         out.push_back(uint8_t(n[w] >> (8 * i)));
   }
}

std::vector<uint8_t>
encode_program(std::vector<inst> prog, gen g, bool compaction)
{
   std::vector<native> encoded(prog.size());
   for (size_t i = 0; i < prog.size(); i++) {
      if (!has_jip(prog[i].op))
         encoded[i] = encode(prog[i], g);
   }
   return encode_program(std::move(prog), encoded, g, compaction);
}

std::vector<uint8_t>
encode_program(std::vector<inst> prog, const std::vector<native> &encoded,
               gen g, bool compaction)
{
   if (encoded.size() != prog.size())
      throw ibis::error("encode_program: one encoding per instruction needed");
   /* Branches stay native, so every size is known before the layout;
    * the compacted form of the others is kept for the output.
    */
   std::vector<native> enc(prog.size());
   std::vector<uint64_t> compacted(prog.size());
   std::vector<bool> small(prog.size(), false);
   std::vector<size_t> off(prog.size() + 1, 0);
   for (size_t i = 0; i < prog.size(); i++) {
      enc[i] = has_jip(prog[i].op) ? encode(prog[i], g) : encoded[i];
      small[i] = compaction && !has_jip(prog[i].op) &&
                 compact_for_emit(enc[i], g, &compacted[i]);
      off[i + 1] = off[i] + (small[i] ? 8 : 16);
   }

   auto retarget = [&](size_t i, int32_t jump) {
      int64_t target = int64_t(i) + jump / 16;
      if (jump % 16 || target < 0 || target > int64_t(prog.size()))
         throw ibis::error(strfmt("instruction %zu jumps to %d, not to an instruction", i, jump));
      return int32_t(int64_t(off[target]) - int64_t(off[i]));
   };

   /* A distance in the final layout must still land on an instruction. */
   auto check_final = [&](size_t i) {
      const int64_t target = int64_t(off[i]) + prog[i].jip;
      if (target < 0 || !std::binary_search(off.begin(), off.end(), size_t(target)))
         throw ibis::error(strfmt("instruction %zu jumps to byte %lld, not to an instruction",
                                  i, (long long)target));
   };

   std::vector<uint8_t> out;
   out.reserve(off.back());
   for (size_t i = 0; i < prog.size(); i++) {
      if (prog[i].jip_final) {
         check_final(i);
      } else if (has_jip(prog[i].op) && compaction) {
         prog[i].jip = retarget(i, prog[i].jip);
         if (has_uip(prog[i].op))
            prog[i].uip = retarget(i, prog[i].uip);
         enc[i] = encode(prog[i], g);
      }
      if (small[i]) {
         for (unsigned b = 0; b < 8; b++)
            out.push_back(uint8_t(compacted[i] >> (8 * b)));
      } else {
         for (unsigned w = 0; w < 2; w++)
            for (unsigned b = 0; b < 8; b++)
               out.push_back(uint8_t(enc[i][w] >> (8 * b)));
      }
   }
   return out;
}

} /* namespace ibis::isa */
