/*
 * The NIR reference interpreter.
 *
 * Runs one SIMD group (8, 16 or 32 channels) of a shader on concrete inputs
 * and reports what it wrote: outputs per channel, SSBO and shared memory.
 * All channels run together under per-channel execution masks, so subgroup
 * operations and derivatives have their real meaning.  ALU instructions are
 * evaluated with nir::eval_alu, the constant folder's semantics.
 *
 * It is the oracle that compiled code is compared against (ibis-run
 * --check), so it favours being obviously right over being fast.  See
 * docs/interp.md for the model, the inputs text format and the limits.
 *
 * Unsupported instructions, out-of-range texture or buffer indices that
 * have no defined result, and runaway loops throw ibis::error.
 */
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nir/nir.h"

namespace ibis::nir::interp {

constexpr unsigned max_simd = 32;

/* Four 32-bit words: a vertex attribute, a varying, a texel. */
using words4 = std::array<uint32_t, 4>;

/* ------------------------------------------------------------------ */
/* Textures and samplers */

enum class tex_dim : uint8_t { d1, d2, d3, cube, rect };

/* Texels are always four 32-bit words; the format says how to read them.
 * Integer formats are never filtered.
 */
enum class tex_format : uint8_t { rgba32f, rgba32ui, rgba32i };

enum class filter : uint8_t { nearest, linear };
enum class mip_filter : uint8_t { none, nearest, linear };
/* clamp is clamp-to-edge. */
enum class wrap_mode : uint8_t { clamp, repeat };
enum class compare_func : uint8_t {
   never, less, equal, lequal, greater, notequal, gequal, always,
};

struct texture {
   tex_dim dim = tex_dim::d2;
   bool array = false;
   tex_format format = tex_format::rgba32f;
   unsigned width = 1;
   unsigned height = 1;
   /* 3D: depth of level 0; arrays: layers; cube: 6 faces (+X -X +Y -Y +Z
    * -Z) times the layers.  Only 3D textures shrink it with the level.
    */
   unsigned depth = 1;
   unsigned levels = 1;
   /* Level 0 first, then each smaller level (halved, at least 1); inside a
    * level by slice/layer, then row, then column.
    */
   std::vector<words4> texels;

   unsigned level_width(unsigned level) const;
   unsigned level_height(unsigned level) const;
   unsigned level_depth(unsigned level) const;
   /* Texels the description calls for (texels.size() must equal it). */
   size_t texel_count() const;
};

struct sampler {
   filter filt = filter::nearest;  /* both minification and magnification */
   mip_filter mip = mip_filter::none;
   std::array<wrap_mode, 3> wrap = {wrap_mode::clamp, wrap_mode::clamp,
                                    wrap_mode::clamp};
   compare_func compare = compare_func::lequal;  /* shadow samplers */
};

/* ------------------------------------------------------------------ */
/* Storage images */

/* What image_load/store/atomic/size address: one level, bound at the
 * image index the instructions carry (the binding table index the
 * compiler passes to the typed messages).
 */
enum class image_dim : uint8_t { d1, d2, d3, buf };
/* Single-component formats hold one word per texel, rgba ones four. */
enum class image_format : uint8_t { r32ui, r32i, r32f, rgba32ui, rgba32i, rgba32f };

struct image {
   image_dim dim = image_dim::d2;
   bool array = false;   /* 2D only: depth is the layer count */
   image_format format = image_format::r32ui;
   unsigned width = 1;
   unsigned height = 1;  /* 1 for 1D and buffer images */
   unsigned depth = 1;   /* 3D: slices; 2D arrays: layers; else 1 */
   /* Texel after texel (slice, row, column), components() words each. */
   std::vector<uint32_t> words;

   unsigned components() const;
   /* Coordinates an access takes: 1, 2 or 3 (the layer included). */
   unsigned coords() const;
   size_t texel_count() const { return size_t(width) * height * depth; }
};

/* Checks an image description (sizes, word count); bad input throws. */
void check_image(const image &im, unsigned index);

/* Perturbation */

/* Moves the result of every operation Gen does not round correctly to
 * the edge of an error bound, so that a caller running the shader several
 * ways can tell which outputs those errors can reach (the differential
 * check, docs/check.md): frcp, frsq, fsqrt, fexp2, flog2, fsin, fcos,
 * fpow and flrp results, the frag coord's w (1/W), filtered texels
 * (tex, txb, txl, txd of float textures) and the LOD of tex, txb and txd.
 * up adds the bound, down subtracts it, mixed picks the sign per
 * instruction, channel and component from seed, quad_x and quad_y move
 * the left (top) pixels of each 2x2 quad down and the right (bottom) ones
 * up, so that a derivative moves by twice the bound.  A moved float moves by
 * at least one unit in the last place of its type; zero, infinities and
 * NaN stay.  See docs/interp.md for the bounds.
 */
enum class perturb_mode : uint8_t { none, up, down, mixed, quad_x, quad_y };

struct perturbation {
   perturb_mode mode = perturb_mode::none;
   uint64_t seed = 0;
   /* ALU results: rel * |r| (flrp: rel * (|a (1 - c)| + |b c|)), plus
    * abs for fsin, fcos and flog2, whose error Gen bounds absolutely.
    */
   double rel = 0x1p-20;
   double abs = 0x1p-20;
   /* Filtered texels: texel * max(|v|, 1).  LODs: lod levels. */
   double texel = 1.0 / 4096;
   double lod = 1;
};

/* ------------------------------------------------------------------ */
/* Inputs */

/* A triangle vertex as the rasterizer sees it: window x, y, depth z and
 * the clip-space w used for perspective-correct interpolation.
 */
struct raster_vertex {
   float x = 0, y = 0, z = 0, w = 1;
};

struct inputs {
   unsigned simd = 8;
   /* Channels that run (bit per channel), cut to the SIMD width. */
   uint32_t channels = ~0u;
   /* FLOAT_CONTROLS_* bits added to the shader's own: what the target does
    * where the shader leaves it open (Gen9 flushes every precision's
    * denormals unless told to keep them).
    */
   uint32_t float_controls = 0;

   /* Memory, as little-endian bytes; reads past the end give 0, writes past
    * the end are dropped (like bounds-checked hardware access).
    */
   std::vector<uint8_t> push;               /* load_uniform, push constants */
   std::map<unsigned, std::vector<uint8_t>> ubos;
   std::map<unsigned, std::vector<uint8_t>> ssbos;
   std::vector<uint8_t> shared;             /* zero-extended to shared_size */

   std::map<unsigned, texture> textures;
   std::map<unsigned, sampler> samplers;    /* missing: default sampler */
   std::map<unsigned, image> images;        /* reported after the run */

   /* Vertex shaders: attributes by VERT_ATTRIB_* location, one vec4 per
    * channel (a single entry applies to every channel).  Missing: 0.
    */
   std::map<unsigned, std::vector<words4>> attribs;
   std::vector<uint32_t> vertex_id;  /* per channel; empty: first_vertex + c */
   uint32_t first_vertex = 0;
   uint32_t base_vertex = 0;
   uint32_t instance_id = 0;
   uint32_t base_instance = 0;
   uint32_t draw_id = 0;

   /* Fragment shaders.
    *
    * pixel: window position of each channel's pixel (its top-left corner;
    * the centre is +0.5).  Empty: quad q covers (2q, 0)..(2q+1, 1) with
    * channel 4q+i at (2q + (i & 1), i >> 1).  Derivatives treat channels
    * 4q..4q+3 as a 2x2 quad in that order, whatever their positions.
    */
   std::vector<std::array<float, 2>> pixel;
   uint32_t helpers = 0;  /* channels that run as helper invocations */
   std::array<raster_vertex, 3> triangle = {
      {{0, 0, 0, 1}, {64, 0, 0, 1}, {0, 64, 0, 1}}};
   /* Varyings by VARYING_SLOT_* location, the value at each vertex.  Flat
    * inputs take vertex 0's (the provoking vertex).  Missing: 0.
    */
   std::map<unsigned, std::array<words4, 3>> varyings;
   bool front_face = true;
   /* Sample positions inside the pixel, by sample id (one sample at the
    * centre by default).
    */
   std::vector<std::array<float, 2>> sample_pos = {{0.5f, 0.5f}};
   std::vector<uint32_t> sample_id;       /* per channel; empty: 0 */
   std::vector<uint32_t> sample_mask_in;  /* per channel; empty: 1 */

   /* Compute shaders: channel c is local invocation index
    * subgroup_id * simd + c, split into x, y, z by the workgroup size.
    */
   std::array<unsigned, 3> workgroup_size = {0, 0, 0};  /* 0: the shader's */
   std::array<unsigned, 3> workgroup_id = {0, 0, 0};
   std::array<unsigned, 3> num_workgroups = {1, 1, 1};
   unsigned subgroup_id = 0;
   /* Run every subgroup of the workgroup (ceil(invocations / simd) of
    * them, subgroup_id ignored) on one set of SSBOs, images and shared
    * memory, with barrier() of workgroup execution scope a real barrier:
    * each subgroup runs in order up to its next barrier, all pass it
    * together, and a subgroup that ends while another waits is a
    * diagnosed deadlock.  Outputs: memory only.  Off: subgroup_id alone,
    * barriers are no-ops.
    */
   bool whole_workgroup = false;

   /* Approximate results moved to an edge of their error bound (not part
    * of the text format).
    */
   perturbation perturb;

   /* Loop iterations (all loops together) before run() gives up. */
   unsigned max_loop_iterations = 1u << 16;

   /* The running channels: channels cut to the SIMD width. */
   uint32_t channel_mask() const;
};

/* ------------------------------------------------------------------ */
/* Outputs */

/* One output slot (location): four 32-bit components per channel.  A
 * 64-bit component takes two words, a 16-bit one the low half (high half
 * for high_16bits).
 */
struct output_slot {
   std::array<std::array<uint32_t, max_simd>, 4> value = {};
   std::array<uint32_t, 4> written = {};  /* channels that stored it */
};

struct output_key {
   unsigned location = 0;  /* VARYING_SLOT_* / FRAG_RESULT_* */
   unsigned index = 0;     /* dual-source blend index */

   bool operator<(const output_key &o) const
   {
      return location != o.location ? location < o.location : index < o.index;
   }
};

struct outputs {
   unsigned simd = 8;
   uint32_t channels = 0;  /* the channels that ran */
   /* Stores of helper channels and of channels killed before the end are
    * still recorded here; killed/helpers say which ones the hardware
    * would drop.
    */
   std::map<output_key, output_slot> slots;
   uint32_t killed = 0;   /* discard / terminate / demote, per channel */
   uint32_t helpers = 0;  /* helper invocations (incl. demoted channels) */
   std::map<unsigned, std::vector<uint8_t>> ssbos;
   std::vector<uint8_t> shared;
   std::map<unsigned, image> images;   /* the images after the run */

   /* The slot at (location, index), or nullptr if nothing stored to it. */
   const output_slot *find(unsigned location, unsigned index = 0) const;
   /* Component comp of channel c at location, 0 if never written. */
   uint32_t word(unsigned location, unsigned comp, unsigned c,
                 unsigned index = 0) const;
   float f32(unsigned location, unsigned comp, unsigned c,
             unsigned index = 0) const;
};

/* ------------------------------------------------------------------ */
/* Running */

/* Runs shader s (vertex, fragment or compute) on in.  Throws ibis::error
 * for unsupported instructions and bad inputs.
 */
outputs run(const shader &s, const inputs &in);

/* Deterministic inputs for any shader: ramps for attributes and varyings,
 * a patterned push/UBO/SSBO block for every binding the shader can
 * reach, and a 4x4 (x4) two-level texture with a linear sampler for every
 * texture it samples (dimension guessed from its coordinates and sampler
 * variables).
 */
inputs default_inputs(const shader &s, unsigned simd);

/* ------------------------------------------------------------------ */
/* Text forms (docs/interp.md) */

/* Parses the inputs text format.  Errors: ibis::error "file:line:col: msg". */
inputs parse_inputs(const std::string &text,
                    const std::string &filename = "<inputs>");
/* Writes in so that parse_inputs() reads it back equal. */
std::string print_inputs(const inputs &in);

/* One line per written output component ("FRAG_RESULT_DATA0.x: w0 w1 ...",
 * unwritten channels as "-"), then killed/helper masks and memory.
 */
std::string print_outputs(const outputs &out, shader_stage stage);

} /* namespace ibis::nir::interp */
