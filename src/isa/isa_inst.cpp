/*
 * Opcode and type properties, and helpers that build instructions.
 */
#include <cstring>

#include "isa/isa_bits.h"
#include "util/ibis_error.h"

namespace ibis::isa {

const opcode_info &
info(isa::opcode op)
{
   /* Built once from the generated table, indexed by hardware opcode. */
   static const auto table = [] {
      std::array<opcode_info, 128> t{};
      for (unsigned i = 0; i < 128; i++) {
         const tables::opcode_desc &d = tables::opcodes[i];
         t[i] = { d.name, d.nsrc, d.ndst, d.form };
      }
      return t;
   }();
   return table[unsigned(op) & 127];
}

bool
is_send(isa::opcode op)
{
   op_form f = info(op).form;
   return f == op_form::send || f == op_form::sends;
}

bool
is_3src(isa::opcode op)
{
   return info(op).form == op_form::tri;
}

bool
has_uip(isa::opcode op)
{
   return info(op).form == op_form::branch2;
}

bool
has_jip(isa::opcode op)
{
   op_form f = info(op).form;
   return f == op_form::branch || f == op_form::branch2 || f == op_form::jmpi;
}

unsigned
type_size(isa::type t)
{
   return unsigned(t) < num_types ? tables::types[unsigned(t)].size : 0;
}

const char *
type_name(isa::type t)
{
   return unsigned(t) < num_types ? tables::types[unsigned(t)].name : "?";
}

reg
grf(unsigned nr, isa::type t, unsigned subnr_elems)
{
   IBIS_CHECK(nr < 128, "GRF %u out of range", nr);
   reg r;
   r.file = reg_file::grf;
   r.nr = nr;
   r.type = t;
   r.subnr = subnr_elems * type_size(t);
   r.vstride = 8;
   r.width = 8;
   r.hstride = 1;
   return r;
}

reg
arf_reg(isa::arf kind, unsigned index, isa::type t, unsigned subnr_elems)
{
   reg r;
   r.file = reg_file::arf;
   r.nr = unsigned(kind) | (index & 0xf);
   r.type = t;
   r.subnr = subnr_elems * type_size(t);
   r.vstride = 8;
   r.width = 8;
   r.hstride = 1;
   return r;
}

reg
null_reg(isa::type t)
{
   return arf_reg(arf::null, 0, t);
}

static reg
imm(isa::type t, uint64_t bits)
{
   reg r;
   r.file = reg_file::imm;
   r.type = t;
   r.imm = bits;
   return r;
}

reg imm_ud(uint32_t v) { return imm(type::UD, v); }
reg imm_d(int32_t v) { return imm(type::D, uint32_t(v)); }
reg imm_v(uint32_t v) { return imm(type::V, v); }
reg imm_uv(uint32_t v) { return imm(type::UV, v); }
reg imm_vf(uint32_t v) { return imm(type::VF, v); }
reg imm_uq(uint64_t v) { return imm(type::UQ, v); }
reg imm_q(int64_t v) { return imm(type::Q, uint64_t(v)); }

/* 16-bit immediates are replicated into both halves of the dword, as the
 * hardware reads either half depending on the region.
 */
reg imm_uw(uint16_t v) { return imm(type::UW, uint32_t(v) | uint32_t(v) << 16); }
reg imm_w(int16_t v) { return imm(type::W, uint32_t(uint16_t(v)) * 0x10001u); }

reg
imm_f(float v)
{
   uint32_t bits;
   memcpy(&bits, &v, 4);
   return imm(type::F, bits);
}

reg
imm_df(double v)
{
   uint64_t bits;
   memcpy(&bits, &v, 8);
   return imm(type::DF, bits);
}

reg
region(reg r, unsigned vstride, unsigned width, unsigned hstride)
{
   r.vstride = vstride;
   r.width = width;
   r.hstride = hstride;
   return r;
}

reg
stride(reg r, unsigned hstride)
{
   r.hstride = hstride;
   return r;
}

reg
scalar(reg r)
{
   return region(r, 0, 1, 0);
}

reg
neg(reg r)
{
   r.negate = !r.negate;
   return r;
}

reg
abs(reg r)
{
   r.abs = true;
   r.negate = false;
   return r;
}

reg
unused_src1(const reg &src0)
{
   reg r;
   if (src0.file == reg_file::imm && !is_64bit_imm(src0.type))
      r.type = src0.type;
   return r;
}

inst
make(isa::opcode op, unsigned exec_size, const reg &dst, const reg &src0,
     const reg &src1, const reg &src2)
{
   inst in;
   in.op = op;
   in.exec_size = exec_size;
   in.dst = dst;
   in.src = { src0, src1, src2 };
   if (is_3src(op))
      in.access = access_mode::align16;
   if (info(op).nsrc < 2 && src0.file == reg_file::imm)
      in.src[1] = unused_src1(src0);
   return in;
}

inst
make_math(isa::math_fn fn, unsigned exec_size, const reg &dst,
          const reg &src0, const reg &src1)
{
   inst in = make(opcode::math, exec_size, dst, src0, src1);
   in.math = fn;
   return in;
}

inst
make_send(isa::opcode op, unsigned exec_size, const reg &dst,
          const reg &payload, isa::sfid sfid, uint32_t desc,
          const reg &payload2, uint32_t ex_desc)
{
   inst in = make(op, exec_size, dst, payload, payload2);
   in.sfid = sfid;
   in.desc = desc;
   in.ex_desc = ex_desc;
   return in;
}

inst
make_branch(isa::opcode op, unsigned exec_size, int32_t jip, int32_t uip)
{
   inst in;
   in.op = op;
   in.exec_size = exec_size;
   in.jip = jip;
   in.uip = uip;
   /* The operands brw gives flow control: a null:D destination (zero for
    * ENDIF, ip for CONTINUE), and a D immediate src0 whose value JIP/UIP
    * replace.
    */
   if (op == opcode::endif) {
      in.dst = reg();
   } else {
      in.dst = op == opcode::cont ? arf_reg(arf::ip, 0, type::UD) : null_reg(type::D);
      in.dst.vstride = 0;
      in.dst.width = 1;
   }
   in.src[0] = imm_d(0);
   in.src[1].type = type::D;
   return in;
}

inst
make_jmpi(int32_t jip)
{
   inst in;
   in.op = opcode::jmpi;
   in.exec_size = 1;
   in.mask_disable = true;
   in.jip = jip;
   in.dst = stride(arf_reg(arf::ip, 0, type::UD), 1);
   in.src[0] = arf_reg(arf::ip, 0, type::UD);
   in.src[1] = imm_d(0);
   return in;
}

bool
parse_gen(const std::string &s, gen *g)
{
   static const struct { const char *name; gen g; } names[] = {
      { "8", gen::gen8 }, { "bdw", gen::gen8 }, { "chv", gen::gen8 },
      { "9", gen::gen9 }, { "skl", gen::gen9 }, { "kbl", gen::gen9 },
      { "bxt", gen::gen9 }, { "glk", gen::gen9 }, { "cfl", gen::gen9 },
      { "11", gen::gen11 }, { "icl", gen::gen11 },
      { "12", gen::gen12 }, { "tgl", gen::gen12 },
   };
   for (const auto &n : names) {
      if (s == n.name) {
         *g = n.g;
         return true;
      }
   }
   return false;
}

} /* namespace ibis::isa */
