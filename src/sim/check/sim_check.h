/*
 * The differential check behind ibis-run: maps the NIR interpreter's
 * inputs onto a simulated thread (payload and memory, docs/sim.md
 * "ibis-run"), runs a binary, and compares what it left with what the
 * interpreter computed, channel by channel.
 *
 * This sits beside the simulator, not inside it: libibis_sim never sees
 * the interpreter, the two share no code, and only this glue knows both.
 */
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "nir/interp/nir_interp.h"
#include "sim/sim.h"

namespace ibis::sim::check {

/* Outputs of a simulated thread by name ("rt0", "depth", "location 0"). */

struct sim_outputs {
   /* Per output slot name: four components of per-channel words, and which
    * channels hold a value.
    */
   struct slot {
      std::array<std::array<uint32_t, 32>, 4> v{};
      uint32_t written = 0;
   };
   std::vector<std::pair<std::string, slot>> slots;   /* in slot order */
   std::map<unsigned, std::vector<uint8_t>> ssbos;
   std::map<unsigned, std::vector<uint8_t>> images;   /* by image index */

   const slot *find(const std::string &name) const
   {
      for (const auto &[n, s] : slots) {
         if (n == name)
            return &s;
      }
      return nullptr;
   }
};


struct run_result {
   sim::result result;
   sim_outputs outputs;
};

/* The simulator surface of an interpreter texture: arrays and cubes keep
 * their layers (or faces) in depth; a rectangle is a 2D surface, to be read
 * through a sampler with unnormalized set.
 */
sim::surface texture_surface(const nir::interp::texture &tx);

/* The simulator sampler state of an interpreter sampler. */
sim::sampler_state sampler_state(const nir::interp::sampler &sm);

/* The textures of in as surfaces at their index, and the samplers at their
 * own index (a texture without a sampler of its number gets the default).
 * Rectangles take texel coordinates: every sampler that s (if given; else
 * the one of the same index) uses with a rectangle texture is
 * non-normalized, as iris sets that bit from the texture's target.
 */
void map_textures(const nir::shader *s, const nir::interp::inputs &in,
                  sim::memory &mem);

/* The simulator surface of an interpreter image: a typed surface of its
 * format (1D and buffer images as 1D surfaces, 2D arrays with the layers
 * in depth), its words as the texel data.
 */
sim::surface image_surface(const nir::interp::image &im);

/* The images of in as surfaces at their index (the binding table index
 * the compiler gives typed messages); an index a texture or the UBO/SSBO
 * ranges (64 and up) also take is an error.
 */
void map_images(const nir::interp::inputs &in, sim::memory &mem);

/* Barycentric weights (of vertices 1 and 2) at window position x, y of
 * in's triangle, perspective-correct or linear (computed in double).
 */
std::array<float, 2> barycentric(const nir::interp::inputs &in, double x, double y,
                                 bool perspective);

/* The fragment thread the interpreter's inputs describe: dispatch mask,
 * helpers, facing, and one subspan per 2x2 quad (in.pixel, which must
 * form quads, or quad q at (2q, 0)); the barycentrics of bary_modes at
 * each pixel's centre.  Push constants and attributes are the caller's
 * (their layout is the compiler's).  ibis-run and the differential check
 * both build their FS threads from it.
 */
sim::fs_payload fs_dispatch(const nir::interp::inputs &in, unsigned bary_modes);

/* Where a compiler expects the inputs of a VS or FS thread: ibis's layout
 * (from_nir's compute_payload, src/check), brw's (a brw-abi file, src/check)
 * and ibis-run's plain one (default_layout) are all described by it, and
 * map_inputs() is the one place an input set becomes a thread.
 */
struct thread_layout {
   /* Push data from GRF push_reg: uniform_bytes of the inputs' push
    * constants (zero-padded to whole GRFs), then each pushed UBO range at
    * its GRF.
    */
   unsigned push_reg = 0;
   unsigned uniform_bytes = 0;
   struct ubo_push {
      unsigned block, start, length;   /* 32-byte units of UBO block */
      unsigned reg;
   };
   std::vector<ubo_push> ubo_pushes;
   /* VS: 4 GRFs per attribute slot: VERT_ATTRIB_*, -1 the vertex ids
    * (first vertex, base instance, vertex id, instance id), -2 the draw id.
    * FS: 2 GRFs per setup slot: VARYING_SLOT_* (-1: none).
    */
   unsigned attr_reg = 0;
   std::vector<int> attr_slots;
   /* FS, per 16-wide half (-1: not delivered). */
   int bary_reg[6][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
   int source_depth_reg[2] = {-1, -1};
   int source_w_reg[2] = {-1, -1};
   int sample_pos_reg[2] = {-1, -1};
   int sample_mask_in_reg[2] = {-1, -1};
   /* FS render-target payload parts (3DSTATE_PS_EXTRA's bits). */
   bool rt_depth = false, rt_omask = false, rt_stencil = false;
   /* Binding-table index of UBO 0 and SSBO 0 (textures, samplers and
    * images at their own index).
    */
   unsigned ubo_bti_base = 64, ssbo_bti_base = 128;
};

struct thread_setup {
   sim::thread t;
   sim::memory mem;
};

/* The UBOs, SSBOs, textures, samplers and images of in as l places them,
 * and a zeroed scratch space.
 */
void map_memory(const nir::shader *s, const nir::interp::inputs &in, const thread_layout &l,
                sim::memory &mem);

/* The push data l describes, in dwords from l.push_reg. */
std::vector<uint32_t> push_data(const nir::interp::inputs &in, const thread_layout &l);

/* A VS (SIMD8, channels 0..n-1) or FS thread of stage ("vs", "fs") for
 * in, its payload and memory filled as l says.
 */
thread_setup map_inputs(const std::string &stage, const nir::shader *s,
                        const nir::interp::inputs &in, const thread_layout &l);

/* ibis-run's plain layout: push constants right after the payload (at
 * most the shader's num_uniforms bytes when s is given), VS attributes and
 * FS varyings in increasing location order of the inputs, perspective
 * pixel barycentrics only.
 */
thread_layout default_layout(const std::string &stage, const nir::shader *s,
                             const nir::interp::inputs &in);

/* Runs program as stage on in; s (optional) gives the workgroup size and
 * the push constant size, want (optional) the FS depth output and the
 * VUE map.
 */
run_result run(const std::vector<uint8_t> &program, const std::string &stage,
               const nir::interp::inputs &in, const nir::shader *s,
               const nir::interp::outputs *want);

/* One line per output component: "rt0.x: w0 w1 ... " ("-": not written). */
std::string print(const sim_outputs &o, unsigned simd);

/* Appends one line per mismatching channel to *log; returns how many.
 * Floats may differ by ulps units in the last place; NaNs match NaNs.
 */
unsigned compare(const std::string &stage, const nir::interp::outputs &want,
                 const sim_outputs &got, unsigned simd, unsigned ulps,
                 std::string *log);

} /* namespace ibis::sim::check */
