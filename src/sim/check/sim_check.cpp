/*
 * Inputs to payload mapping, outputs collection and comparison for the
 * differential check (sim_check.h).
 */
#include <cmath>
#include <cstring>

#include "sim/check/sim_check.h"
#include "util/ibis_error.h"

namespace ibis::sim::check {

namespace interp = ibis::nir::interp;

namespace {

/* Binding-table layout of the mapping (docs/sim.md): textures and their
 * samplers at their index, UBOs at 64 + binding, SSBOs at 128 + binding.
 */
constexpr unsigned bti_ubo = 64;
constexpr unsigned bti_ssbo = 128;

/* Mesa shader_enums.h locations the mapping names. */
constexpr unsigned varying_slot_pos = 0;
constexpr unsigned frag_result_depth = 0;
constexpr unsigned frag_result_color = 2;
constexpr unsigned frag_result_data0 = 4;

/* Push constants: brw pushes at most 64 registers; a shader that reads
 * more pulls them, which the hand-written programs this tool runs do not.
 */
constexpr size_t max_push_bytes = 64 * 32;

std::vector<uint32_t>
push_dwords(const std::vector<uint8_t> &bytes, const nir::shader *s)
{
   size_t n = std::min(bytes.size(), max_push_bytes);
   if (s)
      n = std::min(n, size_t(s->num_uniforms) * 4);
   std::vector<uint32_t> out((n + 3) / 4, 0);
   if (n)
      std::memcpy(out.data(), bytes.data(), n);
   return out;
}

std::vector<uint32_t>
dwords(const std::vector<uint8_t> &bytes)
{
   std::vector<uint32_t> out((bytes.size() + 3) / 4, 0);
   if (!bytes.empty())
      std::memcpy(out.data(), bytes.data(), bytes.size());
   return out;
}

} /* namespace */

sim::surface
texture_surface(const interp::texture &tx)
{
   /* Rectangles are 2D surfaces read through a non-normalized sampler. */
   const bool cube = tx.dim == interp::tex_dim::cube;
   const bool d2 = tx.dim == interp::tex_dim::d2 || tx.dim == interp::tex_dim::rect;
   if ((tx.array && !d2 && !cube) ||
       (tx.dim != interp::tex_dim::d1 && !d2 && tx.dim != interp::tex_dim::d3 && !cube))
      throw error("only 1D, 2D, 3D, rectangle, cube and 2D array textures map onto the "
                  "simulator");
   sim::surface s;
   s.texture = true;
   s.fmt = tx.format == interp::tex_format::rgba32f ? sim::format::rgba32_float
         : tx.format == interp::tex_format::rgba32ui ? sim::format::rgba32_uint
                                                     : sim::format::rgba32_sint;
   s.width = tx.width;
   s.height = tx.height;
   /* Both store levels in turn, slices (or layers) within a level. */
   s.array = tx.array && !cube;
   s.cube = cube;
   s.depth = tx.dim == interp::tex_dim::d3 || tx.array || cube ? tx.depth : 1;
   s.levels = tx.levels;
   s.data.resize(tx.texels.size() * 16);
   if (!s.data.empty())
      std::memcpy(s.data.data(), tx.texels.data(), s.data.size());
   return s;
}

sim::sampler_state
sampler_state(const interp::sampler &sm)
{
   sim::sampler_state ss;
   ss.mag = ss.min = sm.filt == interp::filter::linear ? sim::filter::linear
                                                       : sim::filter::nearest;
   auto w = [](interp::wrap_mode m) {
      return m == interp::wrap_mode::repeat ? sim::wrap::repeat : sim::wrap::clamp;
   };
   ss.wrap_s = w(sm.wrap[0]);
   ss.wrap_t = w(sm.wrap[1]);
   ss.wrap_r = w(sm.wrap[2]);
   ss.cmp = sim::compare(unsigned(sm.compare));
   if (sm.mip == interp::mip_filter::none)
      ss.max_lod = 0;
   ss.mip = sm.mip == interp::mip_filter::linear ? sim::mip_filter::linear
            : sm.mip == interp::mip_filter::nearest ? sim::mip_filter::nearest
                                                    : sim::mip_filter::none;
   return ss;
}

void
map_textures(const nir::shader *s, const interp::inputs &in, sim::memory &mem)
{
   for (const auto &[t, tx] : in.textures)
      mem.surfaces[t] = texture_surface(tx);
   std::map<unsigned, interp::sampler> samplers = in.samplers;
   for (const auto &[t, tx] : in.textures)
      samplers.emplace(t, interp::sampler());
   for (const auto &[t, sm] : samplers)
      mem.samplers[t] = sampler_state(sm);

   auto rect = [&](unsigned texture) {
      auto t = in.textures.find(texture);
      return t != in.textures.end() && t->second.dim == interp::tex_dim::rect;
   };
   const nir::function_impl *impl = s ? nir::entrypoint(*s) : nullptr;
   if (!impl) {
      for (const auto &[t, tx] : in.textures)
         mem.samplers[t].unnormalized = rect(t);
      return;
   }
   /* Texture and sampler indices pair up by instruction, not by number. */
   for (const nir::block *b : nir::blocks_in_order(*impl)) {
      for (const auto &i : b->instrs) {
         if (i->type != nir::instr_type::tex)
            continue;
         const auto &tex = static_cast<const nir::tex_instr &>(*i);
         if (rect(tex.texture_index))
            mem.samplers[tex.sampler_index].unnormalized = true;
      }
   }
}

sim::surface
image_surface(const interp::image &im)
{
   sim::surface s;
   s.texture = true;
   static const sim::format formats[] = {
      sim::format::r32_uint, sim::format::r32_sint, sim::format::r32_float,
      sim::format::rgba32_uint, sim::format::rgba32_sint, sim::format::rgba32_float,
   };
   s.fmt = formats[unsigned(im.format)];
   s.width = im.width;
   s.height = im.height;
   s.depth = im.depth;
   s.array = im.array;
   s.dims = im.dim == interp::image_dim::d3 ? 3 : im.dim == interp::image_dim::d2 ? 2 : 1;
   s.data.resize(im.words.size() * 4);
   if (!s.data.empty())
      std::memcpy(s.data.data(), im.words.data(), s.data.size());
   return s;
}

void
map_images(const interp::inputs &in, sim::memory &mem)
{
   for (const auto &[i, im] : in.images) {
      if (i >= bti_ubo || in.textures.count(i))
         throw error(strfmt("image %u shares its binding table index with a %s", i,
                            i >= bti_ubo ? "UBO or SSBO" : "texture"));
      mem.surfaces[i] = image_surface(im);
   }
}

std::array<float, 2>
barycentric(const interp::inputs &in, double x, double y, bool perspective)
{
   const auto &v = in.triangle;
   double d = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
   if (d == 0)
      throw error("degenerate input triangle");
   double b1 = ((x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (y - v[0].y)) / d;
   double b2 = ((v[1].x - v[0].x) * (y - v[0].y) - (x - v[0].x) * (v[1].y - v[0].y)) / d;
   double b0 = 1 - b1 - b2;
   if (perspective) {
      double p0 = b0 / v[0].w, p1 = b1 / v[1].w, p2 = b2 / v[2].w;
      double sum = p0 + p1 + p2;
      b1 = p1 / sum;
      b2 = p2 / sum;
   }
   return { float(b1), float(b2) };
}

sim::fs_payload
fs_dispatch(const interp::inputs &in, unsigned bary_modes)
{
   sim::fs_payload p;
   p.simd = in.simd;
   p.dispatch_mask = in.channel_mask();
   p.helpers = in.helpers;
   for (unsigned q = 0; q < in.simd / 4; q++) {
      std::array<float, 2> tl = { float(2 * q), 0 };
      if (!in.pixel.empty()) {
         if (in.pixel.size() < in.simd)
            throw error("fewer FS pixels than channels");
         tl = in.pixel[4 * q];
         for (unsigned i = 0; i < 4; i++) {
            const auto &px = in.pixel[4 * q + i];
            if (px[0] != tl[0] + (i & 1) || px[1] != tl[1] + (i >> 1))
               throw error("FS pixels must form 2x2 quads");
         }
      }
      p.subspans.push_back({ uint16_t(tl[0]), uint16_t(tl[1]) });
   }
   p.front_facing = in.front_face;
   p.bary_modes = bary_modes;
   for (unsigned m = 0; m < sim::bary_mode_count; m++) {
      if (!((bary_modes >> m) & 1))
         continue;
      /* Centroid and sample modes: one sample at the pixel centre. */
      const bool persp = m < sim::bary_nonpersp_pixel;
      for (unsigned c = 0; c < in.simd; c++) {
         double x = p.subspans[c / 4][0] + (c & 1) + 0.5;
         double y = p.subspans[c / 4][1] + ((c >> 1) & 1) + 0.5;
         p.bary[m][c] = barycentric(in, x, y, persp);
      }
   }
   return p;
}

void
map_memory(const nir::shader *s, const interp::inputs &in, const thread_layout &l,
           sim::memory &mem)
{
   for (const auto &[b, data] : in.ubos)
      mem.surfaces[l.ubo_bti_base + b].data = data;
   for (const auto &[b, data] : in.ssbos)
      mem.surfaces[l.ssbo_bti_base + b].data = data;
   map_textures(s, in, mem);
   map_images(in, mem);
   mem.scratch.assign(256 * 1024, 0);
}

std::vector<uint32_t>
push_data(const interp::inputs &in, const thread_layout &l)
{
   std::vector<uint32_t> d((size_t(l.uniform_bytes) + 31) / 32 * 8, 0);
   if (!d.empty() && !in.push.empty())
      std::memcpy(d.data(), in.push.data(), std::min<size_t>(in.push.size(), l.uniform_bytes));
   for (const thread_layout::ubo_push &pr : l.ubo_pushes) {
      if (pr.reg < l.push_reg)
         throw error("a pushed UBO range before the push registers");
      const size_t at = size_t(pr.reg - l.push_reg) * 8;
      d.resize(std::max(d.size(), at + pr.length * 8), 0);
      auto it = in.ubos.find(pr.block);
      if (it == in.ubos.end())
         continue;
      const size_t from = size_t(pr.start) * 32, n = size_t(pr.length) * 32;
      if (from < it->second.size())
         std::memcpy(&d[at], it->second.data() + from, std::min(n, it->second.size() - from));
   }
   return d;
}

namespace {

void
put_dwords(sim::thread &t, unsigned reg, const std::vector<uint32_t> &d)
{
   if (reg * 8 + d.size() > sim::num_grfs * 8)
      throw error("push constants do not fit in the GRF file");
   for (size_t i = 0; i < d.size(); i++)
      t.write<uint32_t>(reg + unsigned(i / 8), unsigned(i % 8), d[i]);
}

void
check_reg(unsigned reg, unsigned n, const char *what)
{
   if (reg + n > sim::num_grfs)
      throw error(strfmt("%s do not fit in the GRF file", what));
}

} /* anonymous namespace */

thread_setup
map_inputs(const std::string &stage, const nir::shader *s, const interp::inputs &in,
           const thread_layout &l)
{
   thread_setup r;
   map_memory(s, in, l, r.mem);
   const std::vector<uint32_t> push = push_data(in, l);
   if (stage == "vs") {
      if (in.simd != 8)
         throw error("vertex shaders run SIMD8");
      const uint32_t mask = in.channel_mask();
      sim::vs_payload p;
      p.num_vertices = 0;
      while (p.num_vertices < 8 && ((mask >> p.num_vertices) & 1))
         p.num_vertices++;
      if (p.num_vertices == 0 || mask != (1u << p.num_vertices) - 1)
         throw error("VS channels must be 0..n-1");
      r.t = sim::make_vs_thread(p);
      put_dwords(r.t, l.push_reg, push);
      check_reg(l.attr_reg, 4 * unsigned(l.attr_slots.size()), "VS attributes");
      /* 4 GRFs per attribute slot, component k in g(attr + 4s + k). */
      for (size_t slot = 0; slot < l.attr_slots.size(); slot++) {
         const int loc = l.attr_slots[slot];
         for (unsigned c = 0; c < 8; c++) {
            interp::words4 w{};
            if (loc >= 0) {
               auto it = in.attribs.find(unsigned(loc));
               if (it != in.attribs.end() && !it->second.empty())
                  w = it->second.size() == 1 ? it->second[0]
                    : c < it->second.size() ? it->second[c] : interp::words4{};
            } else if (loc == -1) {
               uint32_t vid = c < in.vertex_id.size() ? in.vertex_id[c] : in.first_vertex + c;
               w = {in.first_vertex, in.base_instance, vid - in.first_vertex, in.instance_id};
            } else {
               w = {in.draw_id, 0, 0, 0};
            }
            for (unsigned k = 0; k < 4; k++)
               r.t.write<uint32_t>(l.attr_reg + 4 * unsigned(slot) + k, c, w[k]);
         }
      }
      return r;
   }
   if (stage != "fs")
      throw error(strfmt("map_inputs: stage '%s' (vs or fs)", stage.c_str()));

   /* g0/g1 from the dispatch; everything else where l puts it. */
   r.t = sim::make_fs_thread(fs_dispatch(in, 0));
   const unsigned simd = in.simd;
   const unsigned halves = simd == 32 ? 2 : 1, hw = std::min(16u, simd);
   for (unsigned h = 0; h < halves; h++) {
      for (unsigned m = 0; m < 6; m++) {
         if (l.bary_reg[m][h] < 0)
            continue;
         check_reg(unsigned(l.bary_reg[m][h]), hw / 4, "barycentrics");
         /* Centroid and sample modes: one sample at the pixel centre. */
         const bool persp = m < 3;
         for (unsigned i = 0; i < hw; i++) {
            const unsigned ch = h * 16 + i;
            const double x = r.t.pixel_x[ch] + 0.5, y = r.t.pixel_y[ch] + 0.5;
            const auto b = barycentric(in, x, y, persp);
            const unsigned base = unsigned(l.bary_reg[m][h]) + (i / 8) * 2;
            r.t.write<float>(base, i % 8, b[0]);
            r.t.write<float>(base + 1, i % 8, b[1]);
         }
      }
      for (unsigned i = 0; i < hw; i++) {
         const unsigned ch = h * 16 + i;
         const double x = r.t.pixel_x[ch] + 0.5, y = r.t.pixel_y[ch] + 0.5;
         const auto b = barycentric(in, x, y, false);
         const double l0 = 1 - b[0] - b[1];
         const auto &v = in.triangle;
         if (l.source_depth_reg[h] >= 0) {
            const double z = l0 * v[0].z + b[0] * v[1].z + b[1] * v[2].z;
            r.t.write<float>(unsigned(l.source_depth_reg[h]) + i / 8, i % 8, float(z));
         }
         if (l.source_w_reg[h] >= 0) {
            const double inv_w = l0 / v[0].w + b[0] / v[1].w + b[1] / v[2].w;
            r.t.write<float>(unsigned(l.source_w_reg[h]) + i / 8, i % 8, float(1 / inv_w));
         }
         if (l.sample_pos_reg[h] >= 0) {
            r.t.write<uint8_t>(unsigned(l.sample_pos_reg[h]), 2 * i, 8);
            r.t.write<uint8_t>(unsigned(l.sample_pos_reg[h]), 2 * i + 1, 8);
         }
         if (l.sample_mask_in_reg[h] >= 0)
            r.t.write<uint32_t>(unsigned(l.sample_mask_in_reg[h]) + i / 8, i % 8, 1);
      }
   }
   put_dwords(r.t, l.push_reg, push);
   check_reg(l.attr_reg, 2 * unsigned(l.attr_slots.size()), "FS setup data");
   /* 2 GRFs per varying slot: component k at dwords 16s + 4k: a, b, -, c. */
   for (size_t slot = 0; slot < l.attr_slots.size(); slot++) {
      auto it = l.attr_slots[slot] < 0 ? in.varyings.end()
                                       : in.varyings.find(unsigned(l.attr_slots[slot]));
      for (unsigned k = 0; k < 4; k++) {
         float v0 = 0, v1 = 0, v2 = 0;
         if (it != in.varyings.end()) {
            std::memcpy(&v0, &it->second[0][k], 4);
            std::memcpy(&v1, &it->second[1][k], 4);
            std::memcpy(&v2, &it->second[2][k], 4);
         }
         const unsigned reg = l.attr_reg + 2 * unsigned(slot) + k / 2, e = (k % 2) * 4;
         r.t.write<float>(reg, e + 0, v1 - v0);
         r.t.write<float>(reg, e + 1, v2 - v0);
         /* c: the provoking vertex's bits as they are (flat inputs). */
         r.t.write<uint32_t>(reg, e + 3, it != in.varyings.end() ? it->second[0][k] : 0);
      }
   }
   r.mem.fs.depth = l.rt_depth;
   r.mem.fs.omask = l.rt_omask;
   r.mem.fs.stencil = l.rt_stencil;
   /* The pixel interpolator evaluates the same triangle. */
   r.mem.pi.valid = true;
   for (unsigned k = 0; k < 3; k++)
      r.mem.pi.vertex[k] = {in.triangle[k].x, in.triangle[k].y, in.triangle[k].w};
   return r;
}

thread_layout
default_layout(const std::string &stage, const nir::shader *s, const interp::inputs &in)
{
   thread_layout l;
   l.ubo_bti_base = bti_ubo;
   l.ssbo_bti_base = bti_ssbo;
   size_t push = std::min(in.push.size(), max_push_bytes);
   if (s)
      push = std::min(push, size_t(s->num_uniforms) * 4);
   l.uniform_bytes = unsigned(push);
   unsigned r = 1;
   if (stage == "vs") {
      r = 2;   /* g0 header, g1 URB handles */
      for (const auto &[loc, vals] : in.attribs)
         l.attr_slots.push_back(int(loc));
   } else {
      const unsigned halves = in.simd == 32 ? 2 : 1, hw = std::min(16u, in.simd);
      r += halves;
      for (unsigned h = 0; h < halves; h++) {
         l.bary_reg[bary_persp_pixel][h] = int(r);
         r += hw / 4;
      }
      for (const auto &[loc, v] : in.varyings)
         l.attr_slots.push_back(int(loc));
   }
   l.push_reg = r;
   l.attr_reg = r + (l.uniform_bytes + 31) / 32;
   return l;
}

namespace {

struct run_setup {
   sim::thread t;
   sim::memory mem;
};

run_setup
setup(const std::string &stage, const interp::inputs &in, const nir::shader *s,
      const interp::outputs *want)
{
   run_setup r;
   if (stage == "vs" || stage == "fs") {
      thread_layout l = default_layout(stage, s, in);
      /* Facts of the FS thread state the payload does not carry. */
      l.rt_depth = want && want->find(frag_result_depth) != nullptr;
      thread_setup ts = map_inputs(stage, s, in, l);
      r.t = std::move(ts.t);
      r.mem = std::move(ts.mem);
      return r;
   }
   if (stage != "cs")
      throw error(strfmt("ibis-run: unknown stage '%s'", stage.c_str()));
   map_memory(s, in, default_layout(stage, s, in), r.mem);
   sim::cs_payload p;
   p.simd = in.simd;
   p.workgroup_id = { in.workgroup_id[0], in.workgroup_id[1], in.workgroup_id[2] };
   std::array<unsigned, 3> size = in.workgroup_size;
   if (size[0] == 0 && s) {
      for (unsigned k = 0; k < 3; k++)
         size[k] = s->info.workgroup_size[k];
   }
   if (size[0] == 0)
      size = { in.simd, 1, 1 };
   p.local_size = { size[0], size[1], size[2] };
   p.subgroup_id = in.subgroup_id;
   p.push = push_dwords(in.push, s);
   r.t = sim::make_cs_thread(p);
   return r;
}

sim_outputs
collect(const std::string &stage, const run_setup &r, unsigned simd,
        const std::vector<unsigned> &vue_locations, const interp::inputs &in)
{
   sim_outputs out;
   if (stage == "vs") {
      const unsigned vue_size = sim::vs_payload().vue_size;
      for (unsigned s = 0; s < vue_size; s++) {
         sim_outputs::slot sl;
         bool any = false, mapped = s < vue_locations.size() && vue_locations[s] != ~0u;
         for (unsigned c = 0; c < 8; c++) {
            if (!((r.t.dispatch_mask >> c) & 1))
               continue;
            size_t base = (size_t(c) * vue_size + s) * 16;
            if (base + 16 > r.mem.urb.size())
               continue;
            for (unsigned k = 0; k < 4; k++) {
               std::memcpy(&sl.v[k][c], &r.mem.urb[base + 4 * k], 4);
               any |= sl.v[k][c] != 0;
            }
            sl.written |= 1u << c;
         }
         /* Unmapped slots are shown only when something was stored. */
         if (!sl.written || (!mapped && !any))
            continue;
         out.slots.emplace_back(mapped ? strfmt("location %u", vue_locations[s])
                                       : strfmt("urb slot %u", s), sl);
      }
   } else if (stage == "fs") {
      for (const auto &[bti, pixels] : r.mem.rt) {
         sim_outputs::slot color, depth;
         for (unsigned c = 0; c < simd; c++) {
            if (!pixels[c].written)
               continue;
            for (unsigned k = 0; k < 4; k++)
               color.v[k][c] = pixels[c].color[k];
            color.written |= 1u << c;
            if (pixels[c].has_depth) {
               std::memcpy(&depth.v[0][c], &pixels[c].depth, 4);
               depth.written |= 1u << c;
            }
         }
         out.slots.emplace_back(strfmt("rt%u", bti), color);
         if (depth.written)
            out.slots.emplace_back("depth", depth);
      }
   }
   for (const auto &[bti, s] : r.mem.surfaces) {
      if (bti >= bti_ssbo && !s.texture)
         out.ssbos[bti - bti_ssbo] = s.data;
      else if (in.images.count(bti))
         out.images[bti] = s.data;
   }
   return out;
}

} /* namespace */

std::string
print(const sim_outputs &o, unsigned simd)
{
   static const char comp[] = "xyzw";
   std::string out;
   for (const auto &[name, sl] : o.slots) {
      for (unsigned k = 0; k < 4; k++) {
         out += strfmt("%s.%c:", name.c_str(), comp[k]);
         for (unsigned c = 0; c < simd; c++)
            out += (sl.written >> c) & 1 ? strfmt(" %08x", sl.v[k][c]) : std::string(" -");
         out += "\n";
      }
   }
   for (const auto &[b, data] : o.ssbos) {
      out += strfmt("ssbo %u:", b);
      for (uint32_t w : dwords(data))
         out += strfmt(" %08x", w);
      out += "\n";
   }
   for (const auto &[i, data] : o.images) {
      out += strfmt("image %u:", i);
      for (uint32_t w : dwords(data))
         out += strfmt(" %08x", w);
      out += "\n";
   }
   return out;
}

namespace {

bool
same(uint32_t a, uint32_t b, unsigned ulps)
{
   if (a == b)
      return true;
   float fa, fb;
   std::memcpy(&fa, &a, 4);
   std::memcpy(&fb, &b, 4);
   if (std::isnan(fa) && std::isnan(fb))
      return true;
   if (ulps == 0 || std::isnan(fa) || std::isnan(fb) || (fa < 0) != (fb < 0))
      return false;
   uint32_t ma = a & 0x7fffffff, mb = b & 0x7fffffff;
   return (ma > mb ? ma - mb : mb - ma) <= ulps;
}

/* Compares one interpreter slot with a simulator slot; prints mismatches. */
unsigned
compare_slot(const char *what, const interp::output_slot &want, uint32_t live,
             const sim_outputs::slot *got, unsigned simd, unsigned ulps, std::string *log)
{
   static const char comp[] = "xyzw";
   unsigned bad = 0;
   for (unsigned k = 0; k < 4; k++) {
      for (unsigned c = 0; c < simd; c++) {
         if (!((want.written[k] >> c) & 1) || !((live >> c) & 1))
            continue;
         if (!got || !((got->written >> c) & 1)) {
            *log += strfmt("mismatch %s.%c channel %u: expected %08x, not written\n", what,
                           comp[k], c, want.value[k][c]);
            bad++;
         } else if (!same(want.value[k][c], got->v[k][c], ulps)) {
            *log += strfmt("mismatch %s.%c channel %u: expected %08x, got %08x\n", what,
                           comp[k], c, want.value[k][c], got->v[k][c]);
            bad++;
         }
      }
   }
   return bad;
}

} /* namespace */

unsigned
compare(const std::string &stage, const interp::outputs &want, const sim_outputs &got,
        unsigned simd, unsigned ulps, std::string *log)
{
   unsigned bad = 0;
   uint32_t live = want.channels & ~want.killed & ~want.helpers;
   if (stage == "fs") {
      for (const auto &[key, sl] : want.slots) {
         std::string name;
         if (key.location == frag_result_depth)
            name = "depth";
         else if (key.location == frag_result_color)
            name = "rt0";
         else if (key.location >= frag_result_data0)
            name = strfmt("rt%u", key.location - frag_result_data0);
         else
            continue;
         bad += compare_slot(name.c_str(), sl, live, got.find(name), simd, ulps, log);
      }
      /* Killed channels must not reach the render target. */
      for (const auto &[name, sl] : got.slots) {
         for (unsigned c = 0; c < simd; c++) {
            if ((sl.written >> c) & 1 && (want.killed >> c) & 1) {
               *log += strfmt("mismatch %s channel %u: written, but the channel was killed\n",
                              name.c_str(), c);
               bad++;
            }
         }
      }
   } else if (stage == "vs") {
      for (const auto &[key, sl] : want.slots) {
         std::string name = strfmt("location %u", key.location);
         bad += compare_slot(name.c_str(), sl, live, got.find(name), simd, ulps, log);
      }
   }
   for (const auto &[b, data] : want.ssbos) {
      auto it = got.ssbos.find(b);
      std::vector<uint32_t> w = dwords(data), g;
      if (it != got.ssbos.end())
         g = dwords(it->second);
      for (size_t i = 0; i < w.size(); i++) {
         uint32_t gv = i < g.size() ? g[i] : 0;
         if (!same(w[i], gv, ulps)) {
            /* SSBO words are written by channels the shader chose; name the
             * word, and the channel when the layout is one word per channel.
             */
            *log += strfmt("mismatch ssbo %u dword %zu (channel %zu if one dword per channel): "
                           "expected %08x, got %08x\n", b, i, i % simd, w[i], gv);
            bad++;
         }
      }
   }
   for (const auto &[i, im] : want.images) {
      auto it = got.images.find(i);
      std::vector<uint32_t> g;
      if (it != got.images.end())
         g = dwords(it->second);
      for (size_t k = 0; k < im.words.size(); k++) {
         uint32_t gv = k < g.size() ? g[k] : 0;
         if (!same(im.words[k], gv, ulps)) {
            *log += strfmt("mismatch image %u dword %zu: expected %08x, got %08x\n", i, k,
                           im.words[k], gv);
            bad++;
         }
      }
   }
   return bad;
}

run_result
run(const std::vector<uint8_t> &program, const std::string &stage,
    const interp::inputs &in, const nir::shader *s, const interp::outputs *want)
{
   run_setup r = setup(stage, in, s, want);
   run_result out;
   out.result = sim::run(program, r.t, r.mem);

   /* VUE map: header, position, then the other outputs by location. */
   std::vector<unsigned> vue = { ~0u, varying_slot_pos };
   if (want) {
      for (const auto &[key, sl] : want->slots) {
         if (key.location != varying_slot_pos)
            vue.push_back(key.location);
      }
   }
   out.outputs = collect(stage, r, in.simd, vue, in);
   return out;
}

} /* namespace ibis::sim::check */
