/*
 * Deterministic inputs for any shader, for smoke tests and for ibis-run
 * without an inputs file.
 */
#include <functional>
#include <set>

#include "nir/interp/nir_interp_private.h"

namespace ibis::nir::interp {

namespace {

void
for_each_instr(const cf_list &list, const std::function<void(const instr &)> &fn)
{
   for (const auto &node : list) {
      switch (node->type) {
      case cf_type::block:
         for (const auto &i : static_cast<const block &>(*node).instrs)
            fn(*i);
         break;
      case cf_type::if_:
         for_each_instr(static_cast<const if_ &>(*node).then_list, fn);
         for_each_instr(static_cast<const if_ &>(*node).else_list, fn);
         break;
      case cf_type::loop:
         for_each_instr(static_cast<const loop &>(*node).body, fn);
         for_each_instr(static_cast<const loop &>(*node).continue_list, fn);
         break;
      }
   }
}

/* Which words of a buffer (by index, -1 for push constants) the shader
 * reads as integers.
 */
using int_words = std::map<int, std::set<uint32_t>>;

/* Small positive floats, except where the shader reads integers: there
 * small integers, so that loop bounds and bit flags stay small.
 */
std::vector<uint8_t>
pattern(size_t bytes, unsigned seed, const std::set<uint32_t> &ints)
{
   std::vector<uint8_t> b(bytes);
   for (size_t i = 0; i + 4 <= bytes; i += 4) {
      const uint32_t n = uint32_t(i / 4);
      const uint32_t w = ints.count(n) ? (n + seed) % 4 + 1
                                       : as_word(0.25f * float((n + seed) % 8 + 1));
      for (unsigned k = 0; k < 4; k++)
         b[i + k] = uint8_t(w >> (8 * k));
   }
   return b;
}

const load_const_instr *
constant(const def *d)
{
   return d && d->parent && d->parent->type == instr_type::load_const
             ? static_cast<const load_const_instr *>(d->parent)
             : nullptr;
}

/* Finds loads from constant buffer locations whose values feed integer
 * ALU operands.
 */
void
find_int_words(const cf_list &body, int_words &ints)
{
   struct location {
      int buffer;
      uint32_t word;
   };
   std::map<const def *, location> loads;
   for_each_instr(body, [&](const instr &i) {
      if (i.type != instr_type::intrinsic)
         return;
      const auto &in = static_cast<const intrinsic_instr &>(i);
      if (in.dest.bit_size != 32)
         return;
      if (in.op == intrinsic_op::load_ubo ||
          in.op == intrinsic_op::load_ubo_uniform_block_intel) {
         const load_const_instr *b = constant(in.srcs[0].ssa);
         const load_const_instr *o = constant(in.srcs[1].ssa);
         if (b && o)
            loads[&in.dest] = {int(b->values[0].u32), o->values[0].u32 / 4};
      } else if (in.op == intrinsic_op::load_uniform ||
                 in.op == intrinsic_op::load_push_constant) {
         if (const load_const_instr *o = constant(in.srcs[0].ssa))
            loads[&in.dest] = {-1, (uint32_t(in.index(intrinsic_index::base)) +
                                    o->values[0].u32) / 4};
      }
   });
   for_each_instr(body, [&](const instr &i) {
      if (i.type != instr_type::alu)
         return;
      const auto &alu = static_cast<const alu_instr &>(i);
      const alu_op_info &info = op_info(alu.op);
      for (unsigned j = 0; j < info.num_inputs; j++) {
         const alu_type t = base_type(info.input_types[j]);
         auto it = loads.find(alu.srcs[j].ssa);
         if (it == loads.end() || (t != type_int && t != type_uint))
            continue;
         for (unsigned k = 0; k < alu.src_components(j); k++)
            ints[it->second.buffer].insert(it->second.word + alu.srcs[j].swizzle[k]);
      }
   });
}

/* What a texture index is used as, from the sampler variables and the
 * instructions that use it.
 */
struct tex_use {
   bool seen = false;
   tex_dim dim = tex_dim::d2;
   bool array = false;
   bool integer = false;
   bool from_var = false;
};

/* The dimension of a GLSL sampler type, false if it is not one. */
bool
sampler_type(const std::string &type, tex_use &u)
{
   std::string t = type.substr(0, type.find('['));
   if (!t.empty() && (t[0] == 'i' || t[0] == 'u')) {
      u.integer = true;
      t = t.substr(1);
   }
   if (t.compare(0, 7, "sampler") != 0)
      return false;
   t = t.substr(7);
   const size_t shadow = t.find("Shadow");
   if (shadow != std::string::npos)
      t.resize(shadow);
   u.array = t.size() > 5 && t.compare(t.size() - 5, 5, "Array") == 0;
   if (u.array)
      t.resize(t.size() - 5);
   if (t == "1D") u.dim = tex_dim::d1;
   else if (t == "2D" || t == "External" || t == "2DMS") u.dim = tex_dim::d2;
   else if (t == "3D") u.dim = tex_dim::d3;
   else if (t == "Cube") u.dim = tex_dim::cube;
   else if (t == "2DRect") u.dim = tex_dim::rect;
   else return false;
   return true;
}

unsigned
array_length(const std::string &type)
{
   const size_t b = type.find('[');
   return b == std::string::npos ? 1 : unsigned(std::max(1, std::atoi(type.c_str() + b + 1)));
}

texture
make_texture(const tex_use &u)
{
   texture t;
   t.dim = u.dim;
   t.array = u.array;
   t.format = u.integer ? tex_format::rgba32ui : tex_format::rgba32f;
   t.width = t.height = 4;
   if (u.dim == tex_dim::d1)
      t.height = 1;
   t.depth = u.dim == tex_dim::cube ? 6 * (u.array ? 2 : 1)
                                    : (u.dim == tex_dim::d3 || u.array ? 4 : 1);
   t.levels = u.dim == tex_dim::rect ? 1 : 2;
   /* Texel (x, y, z) of level l: its normalized centre, the slice and
    * level, so a lookup shows where it sampled.
    */
   for (unsigned l = 0; l < t.levels; l++) {
      const unsigned w = t.level_width(l), h = t.level_height(l),
                     d = t.level_depth(l);
      for (unsigned z = 0; z < d; z++) {
         for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
               if (u.integer)
                  t.texels.push_back({x, y, z, l});
               else
                  t.texels.push_back({as_word((x + 0.5f) / float(w)),
                                      as_word((y + 0.5f) / float(h)),
                                      as_word(float(z) * 0.25f),
                                      as_word(1.f - 0.5f * float(l))});
            }
         }
      }
   }
   return t;
}

/* The constants a value can be: a load_const, or either side of a
 * bcsel/b32csel of such (a non-uniform image index), depth levels deep.
 */
void
constant_choices(const def *d, unsigned depth, std::set<unsigned> &out)
{
   if (d->parent->type == instr_type::load_const) {
      out.insert(static_cast<const load_const_instr &>(*d->parent).values[0].u32);
      return;
   }
   if (depth == 0 || d->parent->type != instr_type::alu)
      return;
   const auto &a = static_cast<const alu_instr &>(*d->parent);
   if (a.op != alu_op::bcsel && a.op != alu_op::b32csel)
      return;
   constant_choices(a.srcs[1].ssa, depth - 1, out);
   constant_choices(a.srcs[2].ssa, depth - 1, out);
}

/* An image as an access describes it: dimension, arrayness and a format
 * from the access' format (r32 / rgba32 ones), else from its value type.
 */
image
image_for(const intrinsic_instr &in)
{
   image im;
   const unsigned dim = unsigned(in.index(intrinsic_index::image_dim));
   im.dim = dim == 0 ? image_dim::d1 : dim == 2 ? image_dim::d3
          : dim == 5 ? image_dim::buf : image_dim::d2;
   im.array = im.dim == image_dim::d2 && in.index(intrinsic_index::image_array) != 0;
   const char *fmt = name_of(image_format_names, unsigned(in.index(intrinsic_index::format)));
   const std::string f = fmt ? fmt : "";
   static const std::pair<const char *, image_format> formats[] = {
      {"r32_uint", image_format::r32ui}, {"r32_sint", image_format::r32i},
      {"r32_float", image_format::r32f}, {"r32g32b32a32_uint", image_format::rgba32ui},
      {"r32g32b32a32_sint", image_format::rgba32i}, {"r32g32b32a32_float", image_format::rgba32f},
   };
   bool known = false;
   for (const auto &[name, format] : formats) {
      if (f == name) {
         im.format = format;
         known = true;
      }
   }
   if (!known && (in.op == intrinsic_op::image_load || in.op == intrinsic_op::image_store)) {
      const alu_type t = alu_type(in.index(in.op == intrinsic_op::image_load
                                              ? intrinsic_index::dest_type
                                              : intrinsic_index::src_type));
      im.format = base_type(t) == type_float ? image_format::r32f
                : base_type(t) == type_int ? image_format::r32i : image_format::r32ui;
   }
   /* 8x8 texels (64 for 1D and buffers, 4 deep for 3D, 2 layers). */
   im.width = im.coords() == 1 ? 64 : im.dim == image_dim::d3 ? 4 : 8;
   im.height = im.coords() == 1 ? 1 : im.dim == image_dim::d3 ? 4 : 8;
   im.depth = im.dim == image_dim::d3 ? 4 : im.array ? 2 : 1;
   return im;
}

/* Contents: word k of texel t is 4t + k + 1 (as a float for r32f and
 * rgba32f: a quarter of it).
 */
void
fill_image(image &im)
{
   im.words.resize(im.texel_count() * im.components());
   const bool fl = im.format == image_format::r32f || im.format == image_format::rgba32f;
   for (size_t i = 0; i < im.words.size(); i++) {
      const size_t t = i / im.components(), k = i % im.components();
      const uint32_t v = uint32_t(4 * t + k + 1);
      im.words[i] = fl ? as_word(float(v) * 0.25f) : v;
   }
}

} /* anonymous namespace */

inputs
default_inputs(const shader &s, unsigned simd)
{
   inputs in;
   in.simd = simd;

   /* Every buffer index an instruction names (directly or, when indirect,
    * up to the shader's count).
    */
   unsigned num_ubos = s.info.num_ubos + 1, num_ssbos = s.info.num_ssbos;
   std::map<unsigned, tex_use> textures;
   std::map<unsigned, tex_use> by_sampler;
   std::map<unsigned, image> images;
   std::set<unsigned> typed_images;
   for (const variable &v : s.variables) {
      tex_use u;
      if (v.mode == var_uniform && sampler_type(v.type, u)) {
         u.from_var = true;
         for (unsigned i = 0; i < array_length(v.type); i++)
            by_sampler[v.binding + i] = u;
      }
   }

   const function_impl *impl = nullptr;
   for (const auto &f : s.functions) {
      if (f->impl && (!impl || f->name == "main"))
         impl = f->impl.get();
   }
   if (impl) {
      for_each_instr(impl->body, [&](const instr &i) {
         if (i.type == instr_type::intrinsic) {
            const auto &in = static_cast<const intrinsic_instr &>(i);
            const intrinsic_info &info = op_info(in.op);
            const std::string name = info.name;
            /* The buffer index is the first source, except for stores,
             * whose first source is the value stored.
             */
            const unsigned buf_src = in.op == intrinsic_op::store_ssbo ? 1 : 0;
            if (info.num_srcs > buf_src && in.srcs[buf_src].ssa &&
                in.srcs[buf_src].ssa->parent->type == instr_type::load_const) {
               const auto &lc =
                  static_cast<const load_const_instr &>(*in.srcs[buf_src].ssa->parent);
               /* A binding table has far fewer entries; a larger constant is
                * not a buffer index worth allocating for.
                */
               const unsigned idx = std::min(unsigned(lc.values[0].u32), 255u);
               if (name.find("ubo") != std::string::npos)
                  num_ubos = std::max(num_ubos, idx + 1);
               else if (name.find("ssbo") != std::string::npos)
                  num_ssbos = std::max(num_ssbos, idx + 1);
            }
            if (in.op == intrinsic_op::store_ssbo)
               num_ssbos = std::max(num_ssbos, 1u);
            /* Images at constant indices; the first access describes it,
             * a load or store (which know the value type) over an atomic
             * or a size query.
             */
            const bool image_op = in.op == intrinsic_op::image_load ||
                                  in.op == intrinsic_op::image_store ||
                                  in.op == intrinsic_op::image_atomic ||
                                  in.op == intrinsic_op::image_atomic_swap ||
                                  in.op == intrinsic_op::image_size;
            std::set<unsigned> indices;
            if (image_op)
               constant_choices(in.srcs[0].ssa, 4, indices);
            for (const unsigned idx : indices) {
               const bool typed = in.op == intrinsic_op::image_load ||
                                  in.op == intrinsic_op::image_store;
               if (idx < 256 && (!images.count(idx) || (typed && !typed_images.count(idx))))
                  images[idx] = image_for(in);
               if (typed)
                  typed_images.insert(idx);
            }
         }
         if (i.type != instr_type::tex)
            return;
         const auto &tex = static_cast<const tex_instr &>(i);
         const int coord = tex.src_index(tex_src_type::coord);
         const bool indirect = tex.src_index(tex_src_type::texture_offset) >= 0;
         /* Indirect indices reach the rest of the sampler array. */
         const unsigned count = indirect ? 8 : 1;
         for (unsigned k = 0; k < count; k++) {
            tex_use &u = textures[tex.texture_index + k];
            /* A query (txs, query_levels, ...) returns no texels: its
             * destination type says nothing of the texture's format, so
             * it leaves the choice to the lookups.
             */
            if (u.seen || op_info(tex.op).is_query)
               continue;
            u.seen = true;
            auto var = by_sampler.find(tex.sampler_index + k);
            if (op_info(tex.op).needs_sampler && var != by_sampler.end()) {
               u = var->second;
               u.seen = true;
               continue;
            }
            const unsigned n = coord >= 0 ? tex.srcs[unsigned(coord)].ssa->num_components : 2;
            u.dim = n == 1 ? tex_dim::d1 : n == 2 ? tex_dim::d2 : tex_dim::d3;
            u.integer = base_type(tex.dest_type) != type_float;
         }
      });
   }

   int_words ints;
   if (impl)
      find_int_words(impl->body, ints);
   in.push = pattern(std::max(4096u, s.num_uniforms * 4), 0, ints[-1]);
   for (unsigned i = 0; i < num_ubos; i++)
      in.ubos[i] = pattern(16384, i, ints[int(i)]);
   /* Compute: at least 64 bytes for each invocation of two workgroups. */
   size_t ssbo_size = 4096;
   if (s.info.stage == shader_stage::compute)
      ssbo_size = std::max<size_t>(ssbo_size, size_t(128) * std::max(1u, unsigned(s.info.workgroup_size[0])) *
                                                 std::max(1u, unsigned(s.info.workgroup_size[1])) *
                                                 std::max(1u, unsigned(s.info.workgroup_size[2])));
   for (unsigned i = 0; i < num_ssbos; i++)
      in.ssbos[i] = std::vector<uint8_t>(ssbo_size);

   for (auto &[index, im] : images) {
      fill_image(im);
      in.images[index] = im;
   }
   for (const auto &[index, u] : textures) {
      in.textures[index] = make_texture(u);
      sampler &smp = in.samplers[index];
      smp.filt = filter::linear;
      smp.mip = mip_filter::linear;
      smp.wrap.fill(wrap_mode::repeat);
   }
   /* Samplers go by their own index; give each used one the same state. */
   for (const auto &[index, u] : by_sampler) {
      sampler &smp = in.samplers[index];
      smp.filt = filter::linear;
      smp.mip = mip_filter::linear;
      smp.wrap.fill(wrap_mode::repeat);
   }

   /* Ramps: attribute/varying component k of channel or vertex v. */
   if (s.info.stage == shader_stage::vertex) {
      for (unsigned loc = 0; loc < 64; loc++) {
         if (!(s.info.inputs_read >> loc & 1))
            continue;
         auto &v = in.attribs[loc];
         for (unsigned c = 0; c < simd; c++)
            v.push_back({as_word(0.5f * float(c)), as_word(0.25f * float(c) + 1),
                         as_word(float(loc) * 0.125f), as_word(1.f)});
      }
   } else if (s.info.stage == shader_stage::fragment) {
      for (unsigned loc = 0; loc < 64; loc++) {
         if (!(s.info.inputs_read >> loc & 1))
            continue;
         auto &v = in.varyings[loc];
         for (unsigned vert = 0; vert < 3; vert++)
            v[vert] = {as_word(float(vert)), as_word(0.5f * float(vert) + 0.25f),
                       as_word(float(loc) * 0.125f), as_word(1.f)};
      }
      in.triangle = {{{0, 0, 0.25f, 1}, {64, 0, 0.5f, 2}, {0, 64, 0.75f, 4}}};
   }
   return in;
}

} /* namespace ibis::nir::interp */
