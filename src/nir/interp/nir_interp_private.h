/*
 * Pieces of the interpreter shared between its files (not public).
 */
#pragma once

#include <cstring>

#include "nir/interp/nir_interp.h"

namespace ibis::nir::interp {

using lane_mask = uint32_t;

static inline float
as_float(uint32_t w)
{
   float f;
   std::memcpy(&f, &w, 4);
   return f;
}

static inline uint32_t
as_word(float f)
{
   uint32_t w;
   std::memcpy(&w, &f, 4);
   return w;
}

static inline lane_mask
simd_mask(unsigned simd)
{
   return simd >= 32 ? ~0u : (1u << simd) - 1;
}

/* Sampling (nir_interp_tex.cpp).  Coordinates are floats as the shader
 * gives them: spatial ones first (normalized unless the texture is a
 * rectangle), then the array layer.
 */

/* Spatial coordinate count: 1, 2 or 3 (a cube takes a direction). */
unsigned tex_spatial_dims(const texture &t);
/* Coordinate components a sampling instruction passes. */
unsigned tex_coord_components(const texture &t);

/* Checks the texture description (sizes, texel count); bad input throws. */
void check_texture(const texture &t, unsigned index);

/* log2 of the texel-space footprint of derivatives dx, dy at coord. */
float tex_lod(const texture &t, const float *coord, const float *dx,
              const float *dy);

struct sample_args {
   const float *coord = nullptr;
   std::array<int32_t, 3> offset = {0, 0, 0};
   float lod = 0;
   bool shadow = false;
   float ref = 0;
};

/* Filtered lookup (tex/txb/txl/txd); shadow lookups give (r, 0, 0, 1). */
words4 tex_sample(const texture &t, const sampler &s, const sample_args &a);

/* textureGather of component comp at the base level.  offsets, if not
 * null, are the four per-texel offsets of textureGatherOffsets.
 */
words4 tex_gather(const texture &t, const sampler &s, const sample_args &a,
                  unsigned comp,
                  const std::array<std::array<int8_t, 2>, 4> *offsets);

/* texelFetch: integer coordinates (and layer); 0 outside the level. */
words4 tex_fetch(const texture &t, const int32_t *coord, int32_t lod,
                 const std::array<int32_t, 3> &offset);

/* textureSize of a level: width, height, depth or layers as they apply. */
words4 tex_size(const texture &t, int32_t lod);

/* Images (nir_interp_image.cpp). */

/* The texel index at integer coordinates (coords() of them), -1 outside. */
int64_t image_texel(const image &im, const int32_t *xyz);
/* The texel as four words: single-component formats give (r, 0, 0, 1);
 * outside the image all zeros, as Gen's typed reads return.
 */
words4 image_read(const image &im, const int32_t *xyz);

/* Perturbation (nir_interp_perturb.cpp, nir_interp.h's perturbation). */

/* +1, -1 or 0: where result (instruction id, lane, comp) moves. */
int perturb_sign(const perturbation &p, unsigned id, unsigned lane, unsigned comp);
/* The float bits of bit_size moved by sign * bound, at least one ULP
 * unless v is zero, infinite or NaN.
 */
uint64_t perturb_float(uint64_t bits, unsigned bit_size, double bound, int sign);
/* Moves the nc results dst of ALU op (sources srcs) of instruction id in
 * lane, if op is one Gen does not round correctly.
 */
void perturb_alu(const perturbation &p, alu_op op, unsigned id, unsigned lane,
                 unsigned bit_size, const_value *dst, unsigned nc,
                 const const_value *const *srcs);

} /* namespace ibis::nir::interp */
