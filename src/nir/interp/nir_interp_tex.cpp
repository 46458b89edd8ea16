/*
 * Texture sampling over in-memory texel arrays: the OpenGL rules for
 * nearest/linear filtering, mip selection, wrapping, cube faces, depth
 * comparison and gathers, computed in float.
 */
#include <algorithm>
#include <cmath>

#include "nir/interp/nir_interp_private.h"
#include "util/ibis_error.h"

namespace ibis::nir::interp {

unsigned
texture::level_width(unsigned level) const
{
   return std::max(1u, width >> std::min(level, 31u));
}

unsigned
texture::level_height(unsigned level) const
{
   if (dim == tex_dim::d1)
      return 1;
   return std::max(1u, height >> std::min(level, 31u));
}

unsigned
texture::level_depth(unsigned level) const
{
   if (dim == tex_dim::d3)
      return std::max(1u, depth >> std::min(level, 31u));
   return depth;
}

size_t
texture::texel_count() const
{
   size_t n = 0;
   for (unsigned l = 0; l < levels; l++)
      n += size_t(level_width(l)) * level_height(l) * level_depth(l);
   return n;
}

unsigned
tex_spatial_dims(const texture &t)
{
   switch (t.dim) {
   case tex_dim::d1: return 1;
   case tex_dim::d2:
   case tex_dim::rect: return 2;
   case tex_dim::d3:
   case tex_dim::cube: return 3;
   }
   return 2;
}

unsigned
tex_coord_components(const texture &t)
{
   return tex_spatial_dims(t) + (t.array ? 1 : 0);
}

void
check_texture(const texture &t, unsigned index)
{
   if (!t.width || !t.height || !t.depth || !t.levels || t.levels > 16)
      throw error(strfmt("texture %u: empty size or bad level count", index));
   if (t.dim == tex_dim::cube && (t.width != t.height || t.depth % 6))
      throw error(strfmt("texture %u: a cube needs square faces and 6 "
                         "slices per layer", index));
   if ((t.array && (t.dim == tex_dim::rect || t.dim == tex_dim::d3)) ||
       (t.dim == tex_dim::rect && t.levels != 1))
      throw error(strfmt("texture %u: rect and 3D textures cannot be arrays, "
                         "rect textures have one level", index));
   if (t.texels.size() != t.texel_count())
      throw error(strfmt("texture %u: %zu texels given, %zu needed", index,
                         t.texels.size(), t.texel_count()));
}

namespace {

/* Layers of an array (cube arrays count cubes), 1 otherwise. */
unsigned
num_layers(const texture &t)
{
   if (!t.array)
      return 1;
   return t.dim == tex_dim::cube ? t.depth / 6 : t.depth;
}

const words4 &
texel_at(const texture &t, unsigned level, unsigned x, unsigned y, unsigned z)
{
   size_t base = 0;
   for (unsigned l = 0; l < level; l++)
      base += size_t(t.level_width(l)) * t.level_height(l) * t.level_depth(l);
   const size_t w = t.level_width(level), h = t.level_height(level);
   return t.texels[base + (size_t(z) * h + y) * w + x];
}

int
wrap(int i, int n, wrap_mode m)
{
   if (m == wrap_mode::repeat)
      return ((i % n) + n) % n;
   return std::clamp(i, 0, n - 1);
}

bool
compare(compare_func f, float ref, float v)
{
   switch (f) {
   case compare_func::never: return false;
   case compare_func::less: return ref < v;
   case compare_func::equal: return ref == v;
   case compare_func::lequal: return ref <= v;
   case compare_func::greater: return ref > v;
   case compare_func::notequal: return ref != v;
   case compare_func::gequal: return ref >= v;
   case compare_func::always: return true;
   }
   return false;
}

/* A cube direction on one face: (s, t) in [0, 1] (GL's table 8.19). */
struct face_coord {
   unsigned face;
   float s, t;
};

unsigned
cube_face(const float *c)
{
   const float ax = std::fabs(c[0]), ay = std::fabs(c[1]), az = std::fabs(c[2]);
   if (ax >= ay && ax >= az)
      return c[0] >= 0 ? 0 : 1;
   if (ay >= az)
      return c[1] >= 0 ? 2 : 3;
   return c[2] >= 0 ? 4 : 5;
}

face_coord
project_cube(const float *c, unsigned face)
{
   float sc, tc, ma;
   switch (face) {
   case 0: sc = -c[2]; tc = -c[1]; ma = c[0]; break;
   case 1: sc = c[2]; tc = -c[1]; ma = c[0]; break;
   case 2: sc = c[0]; tc = c[2]; ma = c[1]; break;
   case 3: sc = c[0]; tc = -c[2]; ma = c[1]; break;
   case 4: sc = c[0]; tc = -c[1]; ma = c[2]; break;
   default: sc = -c[0]; tc = -c[1]; ma = c[2]; break;
   }
   ma = std::fabs(ma);
   if (ma == 0)
      return {face, 0.5f, 0.5f};
   return {face, (sc / ma + 1) * 0.5f, (tc / ma + 1) * 0.5f};
}

/* A lookup position on one level: texel-space u, v, w (before the -0.5 of
 * linear filtering), the array slice, and how many axes are filtered.
 */
struct level_pos {
   float u[3] = {0, 0, 0};
   unsigned axes = 1;
   unsigned slice = 0;   /* layer (and cube face) for non-3D textures */
   bool wrap_clamp_all = false;  /* cube faces clamp to their edges */
};

unsigned
array_layer(const texture &t, float c)
{
   const float l = std::floor(c + 0.5f);
   const float max = float(num_layers(t) - 1);
   return unsigned(std::clamp(std::isnan(l) ? 0.f : l, 0.f, max));
}

level_pos
position(const texture &t, unsigned level, const float *coord)
{
   level_pos p;
   const unsigned sizes[3] = {t.level_width(level), t.level_height(level),
                              t.level_depth(level)};
   if (t.dim == tex_dim::cube) {
      const face_coord f = project_cube(coord, cube_face(coord));
      p.u[0] = f.s * float(sizes[0]);
      p.u[1] = f.t * float(sizes[1]);
      p.axes = 2;
      p.slice = f.face + (t.array ? 6 * array_layer(t, coord[3]) : 0);
      p.wrap_clamp_all = true;
      return p;
   }
   p.axes = tex_spatial_dims(t);
   for (unsigned i = 0; i < p.axes; i++)
      p.u[i] = t.dim == tex_dim::rect ? coord[i] : coord[i] * float(sizes[i]);
   if (t.array)
      p.slice = array_layer(t, coord[p.axes]);
   return p;
}

/* A float texel coordinate to an integer one, without overflow. */
int
to_int(float f)
{
   if (std::isnan(f))
      return 0;
   return int(std::clamp(std::floor(f), -1073741824.f, 1073741824.f));
}

const words4 &
fetch_wrapped(const texture &t, const sampler &s, unsigned level,
              const level_pos &p, const int *i)
{
   const int sizes[3] = {int(t.level_width(level)), int(t.level_height(level)),
                         int(t.level_depth(level))};
   unsigned xyz[3] = {0, 0, p.slice};
   for (unsigned ax = 0; ax < p.axes; ax++) {
      const wrap_mode m = p.wrap_clamp_all ? wrap_mode::clamp : s.wrap[ax];
      xyz[ax] = unsigned(wrap(i[ax], sizes[ax], m));
   }
   return texel_at(t, level, xyz[0], xyz[1], xyz[2]);
}

/* What a texel contributes: its value, or for a shadow lookup the result
 * of the comparison in the first component.
 */
words4
texel_value(const sampler &s, const sample_args &a, const words4 &w)
{
   if (!a.shadow)
      return w;
   return {as_word(compare(s.compare, a.ref, as_float(w[0])) ? 1.f : 0.f), 0,
           0, as_word(1.f)};
}

bool
filterable(const texture &t)
{
   return t.format == tex_format::rgba32f;
}

words4
lookup_level(const texture &t, const sampler &s, const sample_args &a,
             unsigned level)
{
   const level_pos p = position(t, level, a.coord);
   const bool cube = t.dim == tex_dim::cube;

   if (s.filt == filter::nearest || !filterable(t)) {
      int i[3];
      for (unsigned ax = 0; ax < p.axes; ax++)
         i[ax] = to_int(p.u[ax]) + (cube ? 0 : a.offset[ax]);
      return texel_value(s, a, fetch_wrapped(t, s, level, p, i));
   }

   /* Linear: weight the 2, 4 or 8 texels around the sample point. */
   int base[3];
   float frac[3];
   for (unsigned ax = 0; ax < p.axes; ax++) {
      const float u = p.u[ax] - 0.5f;
      base[ax] = to_int(u) + (cube ? 0 : a.offset[ax]);
      frac[ax] = std::isfinite(u) ? u - std::floor(u) : 0.f;
   }
   float sum[4] = {0, 0, 0, 0};
   for (unsigned corner = 0; corner < (1u << p.axes); corner++) {
      int i[3];
      float weight = 1;
      for (unsigned ax = 0; ax < p.axes; ax++) {
         const bool hi = (corner >> ax) & 1;
         i[ax] = base[ax] + hi;
         weight *= hi ? frac[ax] : 1 - frac[ax];
      }
      const words4 v = texel_value(s, a, fetch_wrapped(t, s, level, p, i));
      for (unsigned c = 0; c < 4; c++)
         sum[c] += weight * as_float(v[c]);
   }
   return {as_word(sum[0]), as_word(sum[1]), as_word(sum[2]), as_word(sum[3])};
}

} /* anonymous namespace */

float
tex_lod(const texture &t, const float *coord, const float *dx, const float *dy)
{
   float du[3] = {0, 0, 0}, dv[3] = {0, 0, 0};
   unsigned axes = tex_spatial_dims(t);
   if (t.dim == tex_dim::cube) {
      /* Derivatives of the face coordinates, on the face coord falls on. */
      const unsigned face = cube_face(coord);
      const face_coord c = project_cube(coord, face);
      float cx[3], cy[3];
      for (unsigned i = 0; i < 3; i++) {
         cx[i] = coord[i] + dx[i];
         cy[i] = coord[i] + dy[i];
      }
      const face_coord fx = project_cube(cx, face), fy = project_cube(cy, face);
      du[0] = (fx.s - c.s) * float(t.width);
      du[1] = (fx.t - c.t) * float(t.height);
      dv[0] = (fy.s - c.s) * float(t.width);
      dv[1] = (fy.t - c.t) * float(t.height);
      axes = 2;
   } else {
      const unsigned sizes[3] = {t.width, t.level_height(0), t.level_depth(0)};
      for (unsigned i = 0; i < axes; i++) {
         const float scale = t.dim == tex_dim::rect ? 1.f : float(sizes[i]);
         du[i] = dx[i] * scale;
         dv[i] = dy[i] * scale;
      }
   }
   float lx = 0, ly = 0;
   for (unsigned i = 0; i < axes; i++) {
      lx += du[i] * du[i];
      ly += dv[i] * dv[i];
   }
   return std::log2(std::sqrt(std::max(lx, ly)));
}

words4
tex_sample(const texture &t, const sampler &s, const sample_args &a)
{
   const unsigned last = t.levels - 1;
   float lod = std::isnan(a.lod) ? 0.f : a.lod;
   mip_filter mip = t.levels == 1 ? mip_filter::none : s.mip;
   if (mip == mip_filter::linear && !filterable(t))
      mip = mip_filter::nearest;

   switch (mip) {
   case mip_filter::none:
      return lookup_level(t, s, a, 0);
   case mip_filter::nearest: {
      /* GL 4.6 (8.14): level ceil(lod + 0.5) - 1, level 0 up to 0.5. */
      const float l = lod <= 0.5f ? 0.f : std::ceil(lod + 0.5f) - 1.f;
      return lookup_level(t, s, a, unsigned(std::min(l, float(last))));
   }
   case mip_filter::linear: {
      if (lod <= 0)
         return lookup_level(t, s, a, 0);
      if (lod >= float(last))
         return lookup_level(t, s, a, last);
      const unsigned l0 = unsigned(std::floor(lod));
      const float f = lod - float(l0);
      const words4 v0 = lookup_level(t, s, a, l0);
      const words4 v1 = lookup_level(t, s, a, l0 + 1);
      words4 r;
      for (unsigned c = 0; c < 4; c++)
         r[c] = as_word((1 - f) * as_float(v0[c]) + f * as_float(v1[c]));
      return r;
   }
   }
   return {};
}

words4
tex_gather(const texture &t, const sampler &s, const sample_args &a,
           unsigned comp, const std::array<std::array<int8_t, 2>, 4> *offsets)
{
   IBIS_CHECK(comp < 4, "gather component %u", comp);
   const level_pos p = position(t, 0, a.coord);
   const bool cube = t.dim == tex_dim::cube;
   /* The 2x2 footprint in GL's order: (i0,j1) (i1,j1) (i1,j0) (i0,j0). */
   static const int corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
   words4 r;
   for (unsigned k = 0; k < 4; k++) {
      int off[2] = {a.offset[0], a.offset[1]};
      if (offsets)
         off[0] = (*offsets)[k][0], off[1] = (*offsets)[k][1];
      if (cube)
         off[0] = off[1] = 0;
      int i[3] = {0, 0, 0};
      for (unsigned ax = 0; ax < 2; ax++) {
         /* textureGatherOffsets takes texel i0j0 of each offset footprint. */
         const int hi = offsets ? 0 : corner[k][ax];
         i[ax] = to_int(p.u[ax] - 0.5f) + off[ax] + hi;
      }
      const words4 v = texel_value(s, a, fetch_wrapped(t, s, 0, p, i));
      r[k] = a.shadow ? v[0] : v[comp];
   }
   return r;
}

words4
tex_fetch(const texture &t, const int32_t *coord, int32_t lod,
          const std::array<int32_t, 3> &offset)
{
   if (lod < 0 || unsigned(lod) >= t.levels)
      return {};
   const unsigned level = unsigned(lod);
   const unsigned axes = t.dim == tex_dim::cube ? 2 : tex_spatial_dims(t);
   const int64_t sizes[3] = {t.level_width(level), t.level_height(level),
                             t.level_depth(level)};
   int64_t xyz[3] = {0, 0, 0};
   for (unsigned ax = 0; ax < axes; ax++) {
      xyz[ax] = int64_t(coord[ax]) + offset[ax];
      if (xyz[ax] < 0 || xyz[ax] >= sizes[ax])
         return {};
   }
   if (t.array || t.dim == tex_dim::cube) {
      /* Cubes are fetched as 2D arrays of faces. */
      xyz[2] = coord[axes];
      if (xyz[2] < 0 || xyz[2] >= int64_t(t.depth))
         return {};
   }
   return texel_at(t, level, unsigned(xyz[0]), unsigned(xyz[1]),
                   unsigned(xyz[2]));
}

words4
tex_size(const texture &t, int32_t lod)
{
   if (lod < 0 || unsigned(lod) >= t.levels)
      return {};
   const unsigned l = unsigned(lod);
   const unsigned layers = num_layers(t);
   switch (t.dim) {
   case tex_dim::d1:
      return {t.level_width(l), t.array ? layers : 0, 0, 0};
   case tex_dim::d2:
   case tex_dim::rect:
   case tex_dim::cube:
      return {t.level_width(l), t.level_height(l), t.array ? layers : 0, 0};
   case tex_dim::d3:
      return {t.level_width(l), t.level_height(l), t.level_depth(l), 0};
   }
   return {};
}

} /* namespace ibis::nir::interp */
