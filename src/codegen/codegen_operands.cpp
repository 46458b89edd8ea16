/*
 * Operands: physical registers, sub-registers and regions of allocated IR
 * operands, per hardware piece of an instruction; instruction controls
 * (quarter, NoMask, predicate, conditional modifier and their flag).
 */
#include <algorithm>
#include <cstdarg>

#include "codegen/codegen_private.h"
#include "lower/lower.h"
#include "util/ibis_error.h"

namespace ibis::codegen_internal {

isa::type
isa_type(data_type t)
{
   switch (t) {
   case data_type::u8: return isa::type::UB;
   case data_type::s8: return isa::type::B;
   case data_type::u16: return isa::type::UW;
   case data_type::s16: return isa::type::W;
   case data_type::f16: return isa::type::HF;
   case data_type::u32: return isa::type::UD;
   case data_type::s32: return isa::type::D;
   case data_type::f32: return isa::type::F;
   case data_type::u64: return isa::type::UQ;
   case data_type::s64: return isa::type::Q;
   case data_type::f64: return isa::type::DF;
   case data_type::v: return isa::type::V;
   case data_type::uv: return isa::type::UV;
   case data_type::vf: return isa::type::VF;
   case data_type::none:
   case data_type::flag:
      break;
   }
   throw error(strfmt("type %s has no register type", type_name(t)));
}

void
generator::fail(const char *fmt, ...) const
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   if (cur)
      throw error(strfmt("codegen: '%s': %s", cur->str().c_str(), msg.c_str()));
   throw error("codegen: " + msg);
}

/* Byte offset of channel c in region r of elements of sz bytes. */
static unsigned
channel_offset(const region &r, unsigned c, unsigned sz)
{
   if (r.width == 0)
      return c * r.hstride * sz;
   return ((c / r.width) * r.vstride + (c % r.width) * r.hstride) * sz;
}

unsigned
generator::grf_byte(const operand &o, unsigned extra) const
{
   const value *v = o.val;
   if (!v->phys.valid())
      fail("%%%u has no register", v->id);
   if (v->phys.kind != phys_reg::grf)
      fail("%%%u is not in a GRF", v->id);
   unsigned byte = v->phys.nr * 32u + v->phys.subreg + o.offset + extra;
   if (byte + 1 > device_info::grf_count * device_info::grf_bytes)
      fail("%%%u is outside the register file", v->id);
   return byte;
}

static isa::reg
imm_reg(const operand &o)
{
   isa::reg r;
   r.file = isa::reg_file::imm;
   r.type = isa_type(o.type);
   r.imm = o.imm;
   /* Gen has no byte immediates: a B/UB one is a W/UW of the same value
    * (brw's fs_builder does the same); the destination converts.
    */
   if (o.type == data_type::u8 || o.type == data_type::s8) {
      const bool s = o.type == data_type::s8;
      r.type = s ? isa::type::W : isa::type::UW;
      r.imm = s ? uint64_t(uint16_t(int16_t(int8_t(o.imm)))) : (o.imm & 0xff);
   }
   /* 16-bit immediates fill both halves of the dword (brw does). */
   if (type_bits(o.type) <= 16)
      r.imm = (r.imm & 0xffff) | (r.imm & 0xffff) << 16;
   return r;
}

static isa::reg
at_byte(unsigned byte, isa::type t)
{
   isa::reg r = isa::grf(byte / 32, t);
   r.subnr = byte % 32;
   return r;
}

isa::reg
generator::src_reg(const operand &o, unsigned first, unsigned channels,
                   bool compressed) const
{
   if (o.is_null())
      return isa::null_reg();
   if (o.is_imm())
      return imm_reg(o);

   const value *v = o.val;
   if (v->file == reg_file::flag)
      fail("FLAG value %%%u read as a source", v->id);
   unsigned sz = type_bits(o.type) / 8;
   if (!sz)
      fail("operand of %%%u has no size", v->id);

   region r;
   if (o.has_region) {
      r = o.rgn;
      /* A contiguous region wider than the piece narrows to it. */
      if (r.width > channels && r.vstride == r.width * r.hstride) {
         r.width = channels;
         r.vstride = channels * r.hstride;
      }
   } else if (v->width == 1) {
      r = region{0, 1, 0};
   } else if (channels == 1) {
      r = region{0, 1, 0};
   } else {
      /* brw's natural region: no row crosses a GRF and a compressed
       * instruction's halves split between rows.
       */
      unsigned w = std::min({32u / sz, compressed ? channels / 2 : channels, 16u});
      r = region{uint8_t(w), uint8_t(w), 1};
   }
   unsigned extra = 0;
   if (o.has_region)
      extra = channel_offset(r, first, sz);
   else if (v->width > 1)
      extra = first * sz;

   isa::reg out;
   if (v->file == reg_file::accum || v->phys.kind == phys_reg::acc) {
      if (v->phys.kind != phys_reg::acc)
         fail("accumulator %%%u has no acc register", v->id);
      out = isa::arf_reg(isa::arf::acc, v->phys.nr, isa_type(o.type));
      out.subnr = v->phys.subreg + o.offset + extra;
   } else {
      out = at_byte(grf_byte(o, extra), isa_type(o.type));
   }
   out = isa::region(out, r.vstride, r.width, r.hstride);
   out.negate = o.neg;
   out.abs = o.abs;
   return out;
}

isa::reg
generator::dst_reg(const operand &o, unsigned first) const
{
   if (o.is_null())
      return isa::null_reg();
   const value *v = o.val;
   if (v->file == reg_file::flag)
      fail("FLAG value %%%u written as a destination", v->id);
   unsigned sz = type_bits(o.type) / 8;
   unsigned h = o.has_region ? std::max<unsigned>(o.rgn.hstride, 1) : 1;
   unsigned extra = first * h * sz;
   isa::reg out;
   if (v->file == reg_file::accum || v->phys.kind == phys_reg::acc) {
      if (v->phys.kind != phys_reg::acc)
         fail("accumulator %%%u has no acc register", v->id);
      out = isa::arf_reg(isa::arf::acc, v->phys.nr, isa_type(o.type));
      out.subnr = v->phys.subreg + o.offset + extra;
   } else {
      out = at_byte(grf_byte(o, extra), isa_type(o.type));
   }
   return isa::stride(out, h);
}

static isa::cond_mod
isa_cmod(cond_mod c)
{
   switch (c) {
   case cond_mod::none: return isa::cond_mod::none;
   case cond_mod::z: return isa::cond_mod::z;
   case cond_mod::nz: return isa::cond_mod::nz;
   case cond_mod::g: return isa::cond_mod::g;
   case cond_mod::ge: return isa::cond_mod::ge;
   case cond_mod::l: return isa::cond_mod::l;
   case cond_mod::le: return isa::cond_mod::le;
   case cond_mod::o: return isa::cond_mod::o;
   case cond_mod::u: return isa::cond_mod::u;
   }
   return isa::cond_mod::none;
}

/* The flag register an instruction encodes for a FLAG value: phys names
 * the subregister exactly as the instruction encodes it (channel c of an
 * instruction of group g uses bit 16 × subreg + g + c of f<nr>).
 */
static bool
flag_of(const value *f, unsigned *nr, unsigned *subnr)
{
   if (f->phys.kind != phys_reg::flag || f->phys.nr > 1 || f->phys.subreg > 1)
      return false;
   *nr = f->phys.nr;
   *subnr = f->phys.subreg;
   return true;
}

void
generator::set_flags(isa::inst &hw, const instr *in, unsigned group) const
{
   hw.mask_disable = in->we_all();
   /* Groups below a nibble only matter for masks and flags. */
   if (group % 4) {
      if (!in->we_all() || in->predicate() || in->flag_def())
         fail("channel group %u cannot be encoded", group);
      group &= ~3u;
   }
   hw.group = group;
   hw.saturate = in->saturate;

   bool have_flag = false;
   unsigned nr = 0, subnr = 0;
   if (const value *p = in->predicate()) {
      if (!flag_of(p, &nr, &subnr))
         fail("predicate %%%u has no flag register", p->id);
      hw.pred = in->flags & INSTR_QUAD_ALL ? isa::pred_ctrl::all4h : isa::pred_ctrl::normal;
      hw.pred_inv = in->pred_inv;
      have_flag = true;
   }
   if (in->cmod != cond_mod::none && hw.op == isa::opcode::math)
      fail("math takes no conditional modifier");
   if (in->cmod != cond_mod::none) {
      hw.cmod = isa_cmod(in->cmod);
      if (const value *f = in->flag_def()) {
         unsigned fnr, fsub;
         if (!flag_of(f, &fnr, &fsub))
            fail("flag %%%u has no flag register", f->id);
         if (have_flag && (fnr != nr || fsub != subnr))
            fail("predicate and conditional modifier need one flag register");
         nr = fnr, subnr = fsub;
      } else if (in->op != opcode::sel && in->op != opcode::csel) {
         /* It would clobber whatever lives in f0.0. */
         fail("conditional modifier without a flag definition");
      }
   }
   hw.flag_nr = nr;
   hw.flag_subnr = subnr;
}

piece_list
generator::pieces(const instr *in) const
{
   unsigned n = in->exec_size;
   unsigned p = hw_exec_size(in, dev);
   if (p == 0 || p > n || n % p)
      fail("hw_exec_size %u does not divide exec size %u", p, n);
   if (n / p > 32)
      fail("exec size %u in %u pieces", n, n / p);
   piece_list out;
   for (unsigned first = 0; first < n; first += p)
      out.items[out.count++] = piece{first, p};
   return out;
}

isa::gen
isa_gen(const device_info &dev)
{
   switch (dev.ver) {
   case 8: return isa::gen::gen8;
   case 9: return isa::gen::gen9;
   case 11: return isa::gen::gen11;
   default:
      throw error(strfmt("codegen: no encoding for Gen%u (%s)", dev.ver, dev.name));
   }
}

/* Does i write more than one GRF (destination span over 32 bytes)? */
static bool
writes_two_grfs(const isa::inst &i)
{
   isa::op_form form = isa::info(i.op).form;
   if (form == isa::op_form::branch || form == isa::op_form::branch2 ||
       form == isa::op_form::nop || form == isa::op_form::wait ||
       form == isa::op_form::jmpi)
      return false;
   unsigned h = std::max<unsigned>(i.dst.hstride, 1);
   return i.exec_size * isa::type_size(i.dst.type) * h > 32;
}

namespace {

/* Does a row of the source region cross a register (which Mesa's EU
 * validator rejects: "VertStride must be used to cross GRF register
 * boundaries")?
 */
bool
row_crosses(const isa::reg &r, unsigned exec_size)
{
   const unsigned size = isa::type_size(r.type);
   unsigned row = r.subnr;
   for (unsigned y = 0; y < exec_size / r.width; y++) {
      const unsigned first = row / 32, last = (row + ((r.width - 1) * r.hstride + 1) * size - 1) / 32;
      if (first != last)
         return true;
      row += r.vstride * size;
   }
   return false;
}

/* The same elements in a form Mesa's EU validator accepts: a linear
 * source region whose rows cross a register (the dword halves of 64-bit
 * values, <16,8,2>:UD at SIMD8) reads narrower rows (<8,4,2>:UD, as
 * brw's); a one-channel f16 result of a mixed-float instruction takes a
 * dword stride, which leaves it out of the packed-f16 rules.
 */
void
legalize_regions(isa::inst &in)
{
   const isa::op_form form = isa::info(in.op).form;
   if (in.access != isa::access_mode::align1 || form == isa::op_form::tri ||
       isa::is_send(in.op))
      return;
   for (unsigned k = 0; k < 2; k++) {
      isa::reg &r = in.src[k];
      if (r.file != isa::reg_file::grf || r.indirect || r.hstride == 0 ||
          r.vstride == isa::vstride_vxh || r.vstride != r.width * r.hstride)
         continue;
      while (r.width > 1 && row_crosses(r, in.exec_size)) {
         r.width /= 2;
         r.vstride = r.width * r.hstride;
      }
   }
   if (in.exec_size == 1 && in.dst.type == isa::type::HF && in.dst.hstride == 1 &&
       (in.src[0].type == isa::type::F || in.src[1].type == isa::type::F))
      in.dst.hstride = 2;
}

} /* namespace */

isa::inst &
generator::push(const isa::inst &i_in, bool errata_nop)
{
   isa::inst i = i_in;
   legalize_regions(i);
   /* BDW/SKL: "A POW/FDIV operation must not be followed by an instruction
    * that requires two destination registers" (brw inserts a NOP and
    * leaves it out of the instruction count).
    */
   if (!errata_nop && (dev.ver == 8 || dev.ver == 9) && !insts.empty() &&
       insts.back().op == isa::opcode::math &&
       insts.back().math == isa::math_fn::pow && writes_two_grfs(i)) {
      isa::inst nop;
      nop.op = isa::opcode::nop;
      nop.exec_size = 1;
      push(nop, true);
   }
   try {
      encoded.push_back(isa::encode(i, isa_gen(dev)));
   } catch (const error &e) {
      fail("cannot be encoded: %s", e.what());
   }
   insts.push_back(i);
   info.push_back(emitted{cur, errata_nop});
   return insts.back();
}

} /* namespace ibis::codegen_internal */
