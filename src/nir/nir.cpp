/*
 * Small pieces of the NIR model: names, packed indices, constants.
 */
#include "nir/nir.h"

#include <cstring>

namespace ibis::nir {

const char *
stage_name(shader_stage s)
{
   switch (s) {
   case shader_stage::vertex: return "MESA_SHADER_VERTEX";
   case shader_stage::tess_ctrl: return "MESA_SHADER_TESS_CTRL";
   case shader_stage::tess_eval: return "MESA_SHADER_TESS_EVAL";
   case shader_stage::geometry: return "MESA_SHADER_GEOMETRY";
   case shader_stage::fragment: return "MESA_SHADER_FRAGMENT";
   case shader_stage::compute: return "MESA_SHADER_COMPUTE";
   case shader_stage::task: return "MESA_SHADER_TASK";
   case shader_stage::mesh: return "MESA_SHADER_MESH";
   case shader_stage::raygen: return "MESA_SHADER_RAYGEN";
   case shader_stage::any_hit: return "MESA_SHADER_ANY_HIT";
   case shader_stage::closest_hit: return "MESA_SHADER_CLOSEST_HIT";
   case shader_stage::miss: return "MESA_SHADER_MISS";
   case shader_stage::intersection: return "MESA_SHADER_INTERSECTION";
   case shader_stage::callable: return "MESA_SHADER_CALLABLE";
   case shader_stage::kernel: return "MESA_SHADER_KERNEL";
   default: return nullptr;
   }
}

/* Component count of a scalar/vector/matrix type name. */
static unsigned
base_type_components(const std::string &t)
{
   static const char *const scalars[] = {
      "float", "int", "uint", "bool", "double", "float16_t", "int16_t",
      "uint16_t", "int8_t", "uint8_t", "int64_t", "uint64_t",
   };
   for (const char *s : scalars) {
      if (t == s)
         return 1;
   }

   /* [prefix]vecN and [prefix]matC[xR] */
   static const char *const prefixes[] = {
      "", "i", "u", "b", "d", "f16", "i16", "u16", "i8", "u8", "i64", "u64",
   };
   for (const char *p : prefixes) {
      const size_t plen = std::strlen(p);
      if (t.compare(0, plen, p) != 0)
         continue;
      const std::string rest = t.substr(plen);
      if (rest.compare(0, 3, "vec") == 0) {
         const std::string n = rest.substr(3);
         if (n == "2" || n == "3" || n == "4" || n == "5" || n == "8" ||
             n == "16")
            return unsigned(std::stoi(n));
      }
      if (rest.compare(0, 3, "mat") == 0 && (!*p || !std::strcmp(p, "d") ||
                                              !std::strcmp(p, "f16"))) {
         const std::string n = rest.substr(3);
         if (n.size() == 1 && n[0] >= '2' && n[0] <= '4')
            return unsigned(n[0] - '0') * unsigned(n[0] - '0');
         if (n.size() == 3 && n[1] == 'x' && n[0] >= '2' && n[0] <= '4' &&
             n[2] >= '2' && n[2] <= '4')
            return unsigned(n[0] - '0') * unsigned(n[2] - '0');
      }
   }
   return 0;
}

unsigned
type_components(const std::string &glsl_type)
{
   std::string t = glsl_type;
   const size_t bracket = t.find('[');
   if (bracket != std::string::npos)
      t.resize(bracket);
   return base_type_components(t);
}

unsigned
alu_instr::src_components(unsigned i) const
{
   const unsigned size = op_info(op).input_sizes[i];
   return size ? size : dest.num_components;
}

bool
intrinsic_instr::has_index(intrinsic_index i) const
{
   const intrinsic_info &info = op_info(op);
   for (unsigned k = 0; k < info.num_indices; k++) {
      if (info.indices[k] == i)
         return true;
   }
   return false;
}

alu_type
intrinsic_src_type(const intrinsic_instr &in, unsigned src)
{
   const intrinsic_info &info = op_info(in.op);
   if (src == 0 && info.typed_src0)
      return alu_type(in.index(intrinsic_index::src_type));
   if (int(src) == info.offset_src)
      return type_int;
   return type_invalid;
}

alu_type
intrinsic_dest_type(const intrinsic_instr &in)
{
   if (op_info(in.op).typed_dest)
      return alu_type(in.index(intrinsic_index::dest_type));
   return type_invalid;
}

const intrinsic_instr *
reg_decl(const intrinsic_instr &in)
{
   unsigned handle;
   switch (in.op) {
   case intrinsic_op::load_reg:
   case intrinsic_op::load_reg_indirect:
      handle = 0;
      break;
   case intrinsic_op::store_reg:
   case intrinsic_op::store_reg_indirect:
      handle = 1;
      break;
   default:
      return nullptr;
   }
   const def *d = in.srcs.size() > handle ? in.srcs[handle].ssa : nullptr;
   if (!d || !d->parent || d->parent->type != instr_type::intrinsic)
      return nullptr;
   const auto *decl = static_cast<const intrinsic_instr *>(d->parent);
   return decl->op == intrinsic_op::decl_reg ? decl : nullptr;
}

/* nir_io_semantics bit layout, low bits first. */
uint32_t
io_semantics::pack() const
{
   return (location & 0x7f) | (num_slots & 0x3f) << 7 |
          uint32_t(dual_source_blend_index) << 13 |
          uint32_t(fb_fetch_output) << 14 | (gs_streams & 0xff) << 15 |
          uint32_t(medium_precision) << 23 | uint32_t(per_view) << 24 |
          uint32_t(high_16bits) << 25 | uint32_t(invariant) << 26 |
          uint32_t(high_dvec2) << 27 | uint32_t(no_varying) << 28 |
          uint32_t(no_sysval_output) << 29 |
          uint32_t(interp_explicit_strict) << 30 |
          uint32_t(fb_fetch_output_coherent) << 31;
}

io_semantics
io_semantics::unpack(uint32_t b)
{
   io_semantics s;
   s.location = b & 0x7f;
   s.num_slots = (b >> 7) & 0x3f;
   s.dual_source_blend_index = (b >> 13) & 1;
   s.fb_fetch_output = (b >> 14) & 1;
   s.gs_streams = (b >> 15) & 0xff;
   s.medium_precision = (b >> 23) & 1;
   s.per_view = (b >> 24) & 1;
   s.high_16bits = (b >> 25) & 1;
   s.invariant = (b >> 26) & 1;
   s.high_dvec2 = (b >> 27) & 1;
   s.no_varying = (b >> 28) & 1;
   s.no_sysval_output = (b >> 29) & 1;
   s.interp_explicit_strict = (b >> 30) & 1;
   s.fb_fetch_output_coherent = (b >> 31) & 1;
   return s;
}

/* nir_io_xfb: per output a byte of num_components:4 buffer:4, then the
 * offset byte.
 */
uint32_t
io_xfb::pack() const
{
   uint32_t b = 0;
   for (unsigned i = 0; i < 2; i++) {
      b |= uint32_t((out[i].num_components & 0xf) | (out[i].buffer & 0xf) << 4)
              << (16 * i);
      b |= uint32_t(out[i].offset) << (16 * i + 8);
   }
   return b;
}

io_xfb
io_xfb::unpack(uint32_t b)
{
   io_xfb x;
   for (unsigned i = 0; i < 2; i++) {
      x.out[i].num_components = (b >> (16 * i)) & 0xf;
      x.out[i].buffer = (b >> (16 * i + 4)) & 0xf;
      x.out[i].offset = (b >> (16 * i + 8)) & 0xff;
   }
   return x;
}

int
tex_instr::src_index(tex_src_type t) const
{
   for (unsigned i = 0; i < srcs.size(); i++) {
      if (srcs[i].type == t)
         return int(i);
   }
   return -1;
}

bool
tex_instr::has_explicit_tg4_offsets() const
{
   return op == tex_op::tg4 && tg4_offsets != default_tg4_offsets;
}

const_value
const_value_from_bits(uint64_t v, unsigned bit_size)
{
   const_value c;
   c.u64 = 0;
   switch (bit_size) {
   case 1: c.b = v & 1; break;
   case 8: c.u8 = uint8_t(v); break;
   case 16: c.u16 = uint16_t(v); break;
   case 32: c.u32 = uint32_t(v); break;
   default: c.u64 = v; break;
   }
   return c;
}

uint64_t
const_value_bits(const_value v, unsigned bit_size)
{
   switch (bit_size) {
   case 1: return v.b ? 1 : 0;
   case 8: return v.u8;
   case 16: return v.u16;
   case 32: return v.u32;
   default: return v.u64;
   }
}

} /* namespace ibis::nir */
