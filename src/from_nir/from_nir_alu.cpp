/*
 * NIR ALU instructions: runs the generated recipe of each opcode
 * (from_nir_alu_table.py) once per destination component.
 */
#include <cstring>

#include "from_nir/from_nir_alu.h"
#include "from_nir/from_nir_private.h"

namespace ibis {

namespace {

/* Folds source modifiers into an immediate: the printer and the hardware
 * take modifiers on registers only.
 */
operand
with_mods(operand o, bool neg, bool abs)
{
   if (!o.is_imm()) {
      if (abs)
         o = o.absolute();
      if (neg)
         o = o.negate();
      return o;
   }
   unsigned bits = type_bits(o.type);
   uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
   uint64_t sign = 1ull << (bits - 1);
   if (type_is_float(o.type)) {
      if (abs)
         o.imm &= ~sign;
      if (neg)
         o.imm ^= sign;
   } else {
      if (abs && type_is_signed_int(o.type) && (o.imm & sign))
         o.imm = (0 - o.imm) & mask;
      if (neg)
         o.imm = (0 - o.imm) & mask;
   }
   return o;
}

/* The size of the opcode's unsized operands. */
unsigned
operation_size(const nir::alu_instr &alu)
{
   const nir::alu_op_info &info = nir::op_info(alu.op);
   if (!nir::type_size(info.output_type))
      return alu.dest.bit_size;
   for (unsigned i = 0; i < info.num_inputs; i++) {
      if (!nir::type_size(info.input_types[i]))
         return alu.srcs[i].ssa->bit_size;
   }
   return alu.dest.bit_size;
}

/* Channels [first, first + n) of a source read by an instruction of n
 * channels: scalars and immediates are read whole.
 */
operand
piece(const operand &o, unsigned first)
{
   if (!o.val || o.val->width == 1)
      return o;
   operand p = o;
   p.offset += first * type_bits(o.type) / 8;
   return p;
}

/* The high 32 bits of x * y (t: s32 or u32; b starts at channel 0) as brw emits them on Gen9: mul
 * writes x * y[15:0] to the accumulator, mach adds x * y[31:16] << 16 and
 * returns bits 63:32.  The accumulator holds eight dwords, so the pair is
 * emitted per group of eight channels, each mul writing an ACCUM value that
 * its mach reads implicitly; nothing else touching the accumulator may be
 * scheduled between them.
 */
operand
emit_mul_high(const builder &b, operand x, operand y, data_type t)
{
   shader *sh = b.sh;
   const unsigned w = b.width();
   operand ylo = y.is_imm() ? operand::imm_of(data_type::u16, y.imm & 0xffff)
                            : operand(b.mov(data_type::u16, y.as_type(data_type::u32)));
   auto pair = [&](const builder &pb, unsigned first, operand dst) {
      value *acc = sh->create_value(reg_file::accum, t, pb.width(), 1, first);
      acc->phys = phys_reg{phys_reg::acc, 0, 0};
      pb.emit(opcode::mul, {operand(acc)}, {piece(x, first), piece(ylo, first)});
      pb.emit(opcode::mach, {dst}, {piece(x, first), piece(y, first)});
   };
   if (w <= 8) {
      value *r = b.ssa(t);
      pair(b, 0, operand(r));
      return operand(r);
   }
   value *r = b.wlr(t);
   for (unsigned g = 0; g < w; g += 8) {
      operand d(r);
      d.offset = g * type_bits(t) / 8;
      pair(b.exec(8, g), g, d);
   }
   return operand(r);
}

/* x (f32 or f64) to f16 rounded toward zero, as u16 bits: the default
 * round-to-nearest-even result, stepped one unit towards zero where it
 * came out larger in magnitude than x.  A double goes through float first;
 * the candidate still brackets x, so the correction holds.
 */
operand
emit_f2f16_rtz(const builder &b, operand x)
{
   const bool dbl = x.type == data_type::f64;
   operand nearest = dbl ? operand(b.mov(data_type::f32, x)) : x;
   value *h = b.mov(data_type::f16, nearest);
   operand back(b.mov(data_type::f32, operand(h)));
   if (dbl)
      back = operand(b.mov(data_type::f64, back));
   value *away = b.cmp(cond_mod::g, back.absolute(), with_mods(x, false, true));
   value *less = b.add(data_type::u16, operand(h).as_type(data_type::u16),
                       operand::imm_of(data_type::u16, 0xffff));
   value *v = b.ssa(data_type::u16);
   b.predicated(away).emit(opcode::sel, {operand(v)},
                           {operand(less), operand(h).as_type(data_type::u16)});
   return operand(v);
}

bool
is_derivative(nir::alu_op op)
{
   switch (op) {
   case nir::alu_op::fddx: case nir::alu_op::fddy: case nir::alu_op::fddx_fine:
   case nir::alu_op::fddy_fine: case nir::alu_op::fddx_coarse: case nir::alu_op::fddy_coarse:
      return true;
   default:
      return false;
   }
}

} /* anonymous namespace */

void
nir_translator::emit_derivative_intrinsic(const nir::intrinsic_instr &in)
{
   opcode op;
   switch (in.op) {
   case nir::intrinsic_op::ddx_fine: op = opcode::ddx_fine; break;
   case nir::intrinsic_op::ddy_fine: op = opcode::ddy_fine; break;
   case nir::intrinsic_op::ddy:
   case nir::intrinsic_op::ddy_coarse: op = opcode::ddy_coarse; break;
   /* Coarse unless asked, as brw without high-quality derivatives. */
   default: op = opcode::ddx_coarse; break;
   }
   builder b = def_builder(in.dest);
   const data_type t = type_of('f', in.dest.bit_size);
   const unsigned n = in.dest.num_components;
   /* Of a value the same in every channel: x - x, as for the opcodes. */
   bool all_uniform = true;
   for (unsigned c = 0; c < n; c++) {
      operand x = src(in.srcs[0].ssa, c);
      all_uniform &= x.is_imm() || (x.val && x.val->width == 1);
   }
   small_vector<operand, 4> out;
   for (unsigned c = 0; c < n; c++) {
      operand x = src(in.srcs[0].ssa, c).as_type(t);
      if (all_uniform) {
         out.push_back(operand(b.add(t, x, with_mods(x, true, false))));
      } else {
         value *v = b.ssa(t);
         b.emit(op, {operand(v)}, {x});
         out.push_back(operand(v));
      }
   }
   set_def(in.dest, out.data(), out.size());
}

data_type
type_of(char base, unsigned bits)
{
   if (bits == 1)
      bits = 32;
   switch (base) {
   case 'f':
      return bits == 16 ? data_type::f16 : bits == 64 ? data_type::f64 : data_type::f32;
   case 's':
      return bits == 8 ? data_type::s8 : bits == 16 ? data_type::s16 :
             bits == 64 ? data_type::s64 : data_type::s32;
   default:
      return bits == 8 ? data_type::u8 : bits == 16 ? data_type::u16 :
             bits == 64 ? data_type::u64 : data_type::u32;
   }
}

void
nir_translator::emit_alu(const nir::alu_instr &alu)
{
   const alu_recipe &r = alu_recipe_for(alu.op);
   const nir::alu_op_info &info = nir::op_info(alu.op);
   unsigned n = alu.dest.num_components;
   unsigned opsize = operation_size(alu);
   builder b = def_builder(alu.dest);
   /* The result's components: room for a vec4 without the heap. */
   small_vector<operand, 4> out;

   /* Source i, component for destination component c. */
   auto nir_src = [&](unsigned i, unsigned c, int k) {
      unsigned comp = info.input_sizes[i] ? alu.srcs[i].swizzle[k < 0 ? 0 : k]
                                          : alu.srcs[i].swizzle[c];
      return src(alu.srcs[i].ssa, comp);
   };

   /* A derivative of a value that is the same in every channel is
    * x - x (0, or NaN for an infinity): no pseudo-op for lowering to
    * expand on a scalar.
    */
   if (is_derivative(alu.op)) {
      bool all_uniform = true;
      for (unsigned c = 0; c < n; c++) {
         operand x = nir_src(0, c, -1);
         all_uniform &= x.is_imm() || (x.val && x.val->width == 1);
      }
      if (all_uniform) {
         data_type t = type_of('f', opsize);
         for (unsigned c = 0; c < n; c++) {
            operand x = nir_src(0, c, -1).as_type(t);
            out.push_back(operand(b.add(t, x, with_mods(x, true, false))));
         }
         set_def(alu.dest, out.data(), out.size());
         return;
      }
   }

   switch (r.handler) {
   case alu_handler::unsupported:
      unsupported("%s cannot be translated: %s", r.name, r.why);
   case alu_handler::forward:
      for (unsigned c = 0; c < n; c++)
         out.push_back(info.input_sizes[0] ? nir_src(c, c, 0) : nir_src(0, c, -1));
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::bool_select:
      for (unsigned c = 0; c < n; c++) {
         unsigned comp = alu.srcs[0].swizzle[c];
         value *f = comp == 0 ? flag_for(alu.srcs[0].ssa, b.width()) : nullptr;
         if (!f) {
            f = b.flag();
            instr *cmp = b.emit(opcode::cmp, {}, {src(alu.srcs[0].ssa, comp, data_type::u32),
                                                  operand::imm_u32(0)});
            cmp->cmod = cond_mod::nz;
            cmp->set_flag_def(f);
         }
         data_type t = type_of('u', alu.dest.bit_size);
         value *v = b.ssa(t);
         b.predicated(f).emit(opcode::sel, {operand(v)},
                              {nir_src(1, c, -1).as_type(t), nir_src(2, c, -1).as_type(t)});
         out.push_back(operand(v));
      }
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::fsign:
      for (unsigned c = 0; c < n; c++) {
         data_type ft = type_of('f', opsize), ut = type_of('u', opsize);
         uint64_t sign = 1ull << (opsize - 1);
         uint64_t one = opsize == 16 ? 0x3c00 : opsize == 64 ? 0x3ff0000000000000ull
                                                               : 0x3f800000;
         operand x = nir_src(0, c, -1);
         value *s = b.and_(ut, x.as_type(ut), operand::imm_of(ut, sign));
         value *o = b.or_(ut, operand(s), operand::imm_of(ut, one));
         value *f = b.cmp(cond_mod::nz, x.as_type(ft), operand::imm_of(ft, 0));
         value *v = b.ssa(ut);
         b.predicated(f).emit(opcode::sel, {operand(v)}, {operand(o), operand(s)});
         out.push_back(operand(v));
      }
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::extract:
   case alu_handler::insert:
      for (unsigned c = 0; c < n; c++) {
         operand idx = nir_src(1, c, -1);
         if (!idx.is_imm())
            unsupported("%s needs a constant byte/word index", r.name);
         unsigned bits = r.arg & 0x7f;
         bool is_signed = r.arg & 0x80;
         unsigned shift = unsigned(idx.imm) * bits;
         data_type ut = type_of('u', opsize), st = type_of('s', opsize);
         operand x = nir_src(0, c, -1).as_type(ut);
         uint64_t mask = (1ull << bits) - 1;
         value *v;
         if (r.handler == alu_handler::insert) {
            value *m = b.and_(ut, x, operand::imm_of(ut, mask));
            v = shift ? b.shl(ut, operand(m), operand::imm_u32(shift)) : m;
         } else if (is_signed) {
            unsigned up = opsize - bits - shift;
            operand hi = up ? operand(b.shl(ut, x, operand::imm_u32(up))) : x;
            v = b.asr(st, hi.as_type(st), operand::imm_u32(opsize - bits));
         } else {
            value *lo = shift ? b.shr(ut, x, operand::imm_u32(shift)) : nullptr;
            v = b.and_(ut, lo ? operand(lo) : x, operand::imm_of(ut, mask));
         }
         out.push_back(operand(v));
      }
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::mul_high:
      for (unsigned c = 0; c < n; c++) {
         data_type t = alu.op == nir::alu_op::imul_high ? data_type::s32 : data_type::u32;
         if (opsize != 32)
            unsupported("%u-bit %s is not supported", opsize, r.name);
         out.push_back(emit_mul_high(b, nir_src(0, c, -1).as_type(t),
                                     nir_src(1, c, -1).as_type(t), t));
      }
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::f2f16_rtz:
      for (unsigned c = 0; c < n; c++) {
         unsigned bits = alu.srcs[0].ssa->bit_size;
         if (bits != 32 && bits != 64)
            unsupported("%s of a %u-bit float", r.name, bits);
         data_type ft = bits == 64 ? data_type::f64 : data_type::f32;
         operand h = emit_f2f16_rtz(b, nir_src(0, c, -1).as_type(ft));
         if (alu.op == nir::alu_op::f2f16_rtz) {
            out.push_back(h);
            continue;
         }
         /* pack_half_2x16_rtz_split: x in the low half, y in the high. */
         operand hy = emit_f2f16_rtz(b, nir_src(1, c, -1).as_type(data_type::f32));
         value *lo = b.mov(data_type::u32, h);
         value *hi = b.shl(data_type::u32, operand(b.mov(data_type::u32, hy)),
                           operand::imm_u32(16));
         out.push_back(operand(b.or_(data_type::u32, operand(lo), operand(hi))));
      }
      set_def(alu.dest, out.data(), out.size());
      return;
   case alu_handler::none:
      break;
   }

   bool flag_out = facts->want_flag.count(&alu.dest) && r.ends_in_cmp && n == 1;
   bool value_out = !flag_out || facts->want_value.count(&alu.dest);

   auto resolve_type = [&](char base, unsigned bits) {
      if (base == 'b')
         return type_of('u', alu.dest.bit_size);
      return type_of(base, bits ? bits : opsize);
   };

   /* Operands in arrays: a recipe step has at most three sources and a
    * destination, and this loop runs for every component of every ALU
    * instruction.
    */
   small_vector<operand, 4> temps;
   for (unsigned c = 0; c < n; c++) {
      temps.clear();
      operand result;
      for (unsigned s = 0; s < r.num_steps; s++) {
         const alu_step &st = alu_steps[r.first_step + s];
         bool last = s + 1 == r.num_steps;
         operand srcs[3];
         for (unsigned i = 0; i < st.num_srcs; i++) {
            const alu_operand_spec &sp = st.srcs[i];
            operand o;
            switch (sp.kind) {
            case alu_operand_spec::nir_src: {
               o = nir_src(sp.index, c, sp.comp);
               unsigned bits = sp.bits ? sp.bits : alu.srcs[sp.index].ssa->bit_size;
               o = o.as_type(type_of(sp.base, bits));
               break;
            }
            case alu_operand_spec::temp_src:
               IBIS_CHECK(sp.index < temps.size(), "recipe of %s reads temp %u unset",
                          r.name, unsigned(sp.index));
               o = temps[sp.index];
               if (sp.base != '0')
                  o = o.as_type(resolve_type(sp.base, sp.bits));
               break;
            case alu_operand_spec::imm_src: {
               data_type t = resolve_type(sp.base, sp.bits);
               uint64_t v = sp.special == 1 ? opsize - 1 : sp.special == 2 ? opsize : sp.imm;
               o = operand::imm_of(t, v);
               break;
            }
            case alu_operand_spec::no_src:
               break;
            }
            srcs[i] = with_mods(o, sp.neg, sp.abs);
         }

         data_type dt = resolve_type(st.dst_base, st.dst_bits);
         value *dst = nullptr;
         if (!last || value_out)
            dst = b.ssa(dt);
         const operand d(dst);
         instr *in = b.emit(st.op, &d, dst ? 1 : 0, srcs, st.num_srcs);
         in->cmod = st.cmod;
         in->saturate = st.saturate;
         if (last && flag_out) {
            value *f = b.flag();
            in->set_flag_def(f);
            record_flag(alu.dest, f);
         }
         if (!last) {
            if (temps.size() <= unsigned(st.dst_temp))
               temps.resize(st.dst_temp + 1);
            temps[st.dst_temp] = operand(dst);
         } else {
            result = dst ? operand(dst) : operand();
         }
      }
      out.push_back(result);
   }
   set_def(alu.dest, out.data(), out.size());
}

} /* namespace ibis */
