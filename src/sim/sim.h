/*
 * A functional model of one Gen9 EU thread: the oracle for everything the
 * compiler emits.  Nothing here has an Intel GPU, so every binary ibis
 * produces is run here and compared against the NIR interpreter.
 *
 * The model is functional, not timing: an instruction runs to completion
 * before the next one starts, sends complete immediately, and dependency
 * controls (NoDDClr, NoDDChk, SWSB-like waits) are ignored.  Everything the
 * model does not know (an opcode, a message type, a region it cannot
 * address) throws ibis::error naming the instruction and its offset, so a
 * test never passes by accident on an unmodeled path.
 *
 * docs/sim.md documents the semantics, the message subset and the thread
 * payloads the compiler generates code against.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "util/ibis_error.h"

namespace ibis::sim {

constexpr unsigned num_grfs = 128;
constexpr unsigned grf_size = 32;
constexpr unsigned max_channels = 32;

/* cr0.0 bits (brw_eu_defines.h: BRW_CR0_*).  All zero at dispatch: round
 * to nearest even, denormals of every precision flushed to zero.
 */
constexpr uint32_t cr0_fp64_denorm_preserve = 1u << 6;
constexpr uint32_t cr0_fp32_denorm_preserve = 1u << 7;
constexpr uint32_t cr0_fp16_denorm_preserve = 1u << 10;
constexpr uint32_t cr0_rnd_mode_shift = 4;

enum class rnd_mode : uint8_t { rtne = 0, ru = 1, rd = 2, rtz = 3 };

/* One channel of an accumulator: the hardware keeps more precision than the
 * destination types (33+ integer bits for MACH/ADDC/SUBB chains), which the
 * model keeps as an exact 64-bit integer or a double.
 */
struct acc_value {
   int64_t i = 0;
   double f = 0;
};

/* The architectural state of one thread. */
struct thread {
   std::array<uint8_t, num_grfs * grf_size> grf{};
   std::array<uint16_t, 16> a0{};         /* a0.0 .. a0.15 */
   std::array<uint32_t, 2> flag{};        /* f0 (f0.1 in bits 31:16), f1 */
   /* acc0 and acc1, by element number of the accessing type (a linear
    * region gives channel n element n; implicit uses take channel n).
    */
   std::array<acc_value, 64> acc{};
   uint32_t cr0 = 0;
   std::array<uint32_t, 4> sr0{};         /* sr0.2/sr0.3: dispatch mask */
   uint32_t dispatch_mask = 0xff;         /* channels the thread started with */
   /* Fragment threads: the lit pixels (g1.7), without the helpers. */
   uint32_t pixel_mask = 0xff;
   unsigned simd = 8;                     /* dispatch width */
   isa::gen gen = isa::gen::gen9;
   /* A fragment thread: 2x2 quads give the sampler its derivatives. */
   bool fragment = false;

   /* Fragment threads: the pixel of each channel, as the hardware knows it
    * from dispatch (render target writes use it, not the GRF copy).
    */
   std::array<int32_t, max_channels> pixel_x{}, pixel_y{};

   /* Compute threads: the barrier id the group was dispatched with (g0.2
    * bits 27:24), whether the thread's barrier message still waits for
    * the rest of the group, and the notification count n0 that the
    * gateway's answer raises and `wait n0` consumes.
    */
   uint32_t barrier_id = 0;
   bool barrier_sent = false;
   unsigned n0 = 0;

   /* Typed access to the GRF file (byte offset = reg * 32 + sub). */
   template <typename T> T read(unsigned reg, unsigned elem) const;
   template <typename T> void write(unsigned reg, unsigned elem, T v);
   uint8_t *bytes(unsigned reg) { return &grf[reg * grf_size]; }
   const uint8_t *bytes(unsigned reg) const { return &grf[reg * grf_size]; }
};

/* ---- Memory: what the shared functions read and write ---- */

enum class format : uint8_t {
   r32_uint, r32_sint, r32_float,
   rgba32_uint, rgba32_sint, rgba32_float,
   rgba8_unorm,
};
unsigned format_size(format f);

/* A surface by binding-table index: a buffer (SSBO, UBO, pull constants)
 * is plain bytes; a texture has a format, a size and a mip chain stored
 * level after level, each level row-major, slices after rows.
 */
struct surface {
   std::vector<uint8_t> data;
   bool texture = false;
   format fmt = format::r32_uint;
   unsigned width = 0, height = 1, depth = 1, levels = 1;
   /* A 2D array: depth is the layer count (the same at every level) and
    * the coordinate's third component (r) is the layer.
    */
   bool array = false;
   /* A cube (array): depth is 6 faces per cube (+X -X +Y -Y +Z -Z); the
    * sampler takes a direction u v r and, for arrays, the cube in ai.
    */
   bool cube = false;
   /* SURFACE_STATE's Surface Type as resinfo reports it: 1 (1D or
    * buffer: no height), 2 or 3; 0 guesses it from the sizes (height 1
    * is 1D).
    */
   unsigned dims = 0;
   /* A buffer's SURFACE_STATE as the sampler's ld sees it: element x is
    * buffer_format at byte x * buffer_stride.  The default is what iris
    * and anv give UBOs (R32G32B32A32_FLOAT, 1-byte pitch), so ld takes a
    * byte offset and returns the 16 bytes there (varying pull constants).
    */
   format buffer_format = format::rgba32_float;
   unsigned buffer_stride = 1;
   /* Byte offset of level l, and its size. */
   size_t level_offset(unsigned l) const;
   unsigned level_width(unsigned l) const { return std::max(1u, width >> l); }
   unsigned level_height(unsigned l) const { return std::max(1u, height >> l); }
   unsigned level_depth(unsigned l) const
   {
      return array || cube ? depth : std::max(1u, depth >> l);
   }
};

enum class filter : uint8_t { nearest, linear };
/* SAMPLER_STATE "Mip Mode Filter": none samples level 0 (the base). */
enum class mip_filter : uint8_t { none, nearest, linear };
enum class wrap : uint8_t { repeat, clamp };
/* Shadow comparison of sample_c: passes when ref <op> texel. */
enum class compare : uint8_t { never, less, equal, lequal, greater, notequal, gequal, always };

struct sampler_state {
   filter mag = filter::nearest, min = filter::nearest;
   mip_filter mip = mip_filter::nearest;
   wrap wrap_s = wrap::repeat, wrap_t = wrap::repeat, wrap_r = wrap::repeat;
   compare cmp = compare::lequal;
   float min_lod = 0, max_lod = 1000, lod_bias = 0;
   /* SAMPLER_STATE "Non-normalized Coordinate Enable" (iris sets it for
    * rectangle textures): u, v are in texels of level 0.
    */
   bool unnormalized = false;
};

/* What one render-target write left for one channel. */
struct rt_pixel {
   bool written = false;
   int32_t x = 0, y = 0;
   std::array<uint32_t, 4> color{};   /* raw bits of the payload */
   bool dual = false;                 /* dual-source write: color1 valid */
   std::array<uint32_t, 4> color1{};  /* the second source of a dual write */
   bool has_depth = false;
   float depth = 0;
   bool has_omask = false;
   uint16_t omask = 0;
};

/* 3DSTATE_PS_EXTRA facts a render-target write payload depends on: the
 * message does not say whether oMask or depth are present.
 */
struct fs_output_state {
   bool omask = false;
   bool depth = false;
   bool stencil = false;
};

/* What the pixel interpolator knows of the primitive being shaded: its
 * vertices in screen space (x, y in pixels, w for perspective) and the
 * sample positions within a pixel (single-sampled: all at the centre).
 */
struct pixel_interp_state {
   bool valid = false;
   std::array<std::array<double, 3>, 3> vertex{};   /* x, y, w */
   std::array<std::array<float, 2>, 16> sample_pos = [] {
      std::array<std::array<float, 2>, 16> p;
      p.fill({ 0.5f, 0.5f });
      return p;
   }();
};

struct memory {
   std::map<unsigned, surface> surfaces;      /* by binding-table index */
   std::map<unsigned, sampler_state> samplers;
   std::vector<uint8_t> scratch;              /* this thread's scratch space */
   std::vector<uint8_t> urb;                  /* addressed in OWords */
   fs_output_state fs;
   pixel_interp_state pi;
   /* Render-target writes by binding-table index, per thread channel. */
   std::map<unsigned, std::array<rt_pixel, max_channels>> rt;
   unsigned barriers = 0;                     /* gateway barrier messages */
   /* run_group() sets it: a barrier message is answered when every thread
    * of the group has sent one.  Alone, a thread's barrier is answered at
    * once.
    */
   bool barrier_waits = false;
};

/* ---- Running ---- */

struct limits {
   uint64_t max_instructions = 1u << 22;   /* an infinite loop is an error */
};

struct result {
   uint64_t instructions = 0;   /* dynamic count: instructions issued */
   /* Of those, the channels each ran on (its execution mask, predicate and
    * NoMask applied), summed: what a wider SIMD or less divergence saves.
    */
   uint64_t channel_instructions = 0;
   uint64_t sends = 0;          /* messages sent (send, sendc, sends, sendsc) */
   /* How often each instruction issued, in isa::decode_program()'s
    * order: a profile to weigh by a cost table (src/check's cycles).
    */
   std::vector<uint64_t> issued_at;
   bool eot = false;            /* ended by a send with EOT */
};

/* Runs program (native and compacted instructions) on t from offset 0 until
 * a send with EOT or the end of the program.  Throws ibis::error on an
 * unmodeled instruction or message, a memory access out of bounds, or when
 * the instruction limit is reached.
 */
result run(const std::vector<uint8_t> &program, thread &t, memory &mem,
           const limits &lim = limits());

/* Runs the threads of one compute workgroup on one memory (one SLM, the
 * scratch space each thread's own copy of mem.scratch), round robin: each
 * runs until it ends or waits (`wait n0`) on a barrier the group has not
 * completed; when every thread has sent its barrier message, all are
 * answered.  A group where every thread left waits and one ended without
 * the barrier (or none can go on) is a deadlock: ibis::error, as is any
 * thread's error (named by its index) or a thread over the limit.
 */
std::vector<result> run_group(const std::vector<uint8_t> &program, std::vector<thread> &threads,
                              memory &mem, const limits &lim = limits());

/* ---- Thread payloads (docs/sim.md, "Thread payloads") ---- */

/* Every thread's g0 is zero (g0.5, the scratch base, included: the model's
 * scratch space is the thread's own) except for the fields set below.
 */

struct vs_payload {
   unsigned num_vertices = 8;             /* SIMD8: 1..8 live channels */
   /* URB handle of each channel (OWord address of its VUE in memory.urb);
    * default: channel * vue_size.
    */
   unsigned vue_size = 32;                /* OWords per VUE */
   std::vector<uint32_t> push;            /* push constants, dwords */
   /* attributes[slot][component][channel], float bits or integers. */
   std::vector<std::array<std::array<uint32_t, 8>, 4>> attributes;
};

/* Barycentric interpolation modes in brw_barycentric_mode order. */
enum bary_mode : unsigned {
   bary_persp_pixel, bary_persp_centroid, bary_persp_sample,
   bary_nonpersp_pixel, bary_nonpersp_centroid, bary_nonpersp_sample,
   bary_mode_count,
};

struct fs_payload {
   unsigned simd = 8;                     /* 8, 16 or 32 */
   uint32_t dispatch_mask = ~0u;          /* live pixels (low simd bits) */
   /* Of those, the helpers: they run (for derivatives) but are not lit,
    * so the pixel mask in g1.7 leaves them out and no RT write reaches
    * them.
    */
   uint32_t helpers = 0;
   /* Upper-left pixel of each subspan (2x2 quad), simd / 4 of them. */
   std::vector<std::array<uint16_t, 2>> subspans;
   bool front_facing = true;
   unsigned bary_modes = 1u << bary_persp_pixel;   /* bitmask */
   /* bary[mode][channel] = (u, v): weights of vertices 1 and 2. */
   std::array<std::array<std::array<float, 2>, max_channels>, bary_mode_count> bary{};
   bool src_depth = false;                /* source depth delivered */
   std::array<float, max_channels> depth{};
   std::vector<uint32_t> push;            /* push constants, dwords */
   /* Per attribute component: plane (a, b, c) with value = a*u + b*v + c,
    * stored as [a, b, unused, c] the way PLN reads it.
    */
   std::vector<std::array<std::array<float, 3>, 4>> attributes;
};

struct cs_payload {
   unsigned simd = 8;                     /* 8, 16 or 32 */
   std::array<uint32_t, 3> workgroup_id{};
   std::array<uint32_t, 3> local_size{8, 1, 1};
   unsigned subgroup_id = 0;              /* which thread of the group */
   uint32_t barrier_id = 0;               /* g0.2 bits 27:24 (0..15) */
   std::vector<uint32_t> push;            /* cross-thread push constants */
   /* Push the subgroup id as per-thread data: dword 0 of the register
    * after the cross-thread constants, as anv lays it out on Gen9.
    */
   bool push_subgroup_id = true;
   /* Deliver gl_LocalInvocationID in three registers after g0 (the layout
    * of the Gen12.5 / older-brw "local IDs in payload" variant); off by
    * default, matching Gen9 brw which derives them from the subgroup id.
    */
   bool local_ids_in_payload = false;
};

/* Layout facts a compiler needs, returned by the payload builders. */
struct payload_layout {
   unsigned num_regs = 0;                 /* payload registers before push */
   unsigned push_reg = 0;                 /* first push-constant register */
   unsigned push_regs = 0;
   unsigned attr_reg = 0;                 /* first attribute register */
   /* FS: first register of each enabled barycentric mode, per 16-wide half. */
   std::array<std::array<int, 2>, bary_mode_count> bary_reg{};
   std::array<int, 2> depth_reg{{-1, -1}};
   unsigned local_id_reg = 0;             /* CS with local_ids_in_payload */
   unsigned subgroup_id_dword = 0;        /* CS: dword index in the GRF file */
};

thread make_vs_thread(const vs_payload &p, payload_layout *layout = nullptr);
thread make_fs_thread(const fs_payload &p, payload_layout *layout = nullptr);
thread make_cs_thread(const cs_payload &p, payload_layout *layout = nullptr);

/* Float <-> half with round to nearest even (exposed for tests/tools). */
uint16_t float_to_half(float f, rnd_mode mode = rnd_mode::rtne);
float half_to_float(uint16_t h);

/* ---- inline template definitions ---- */

template <typename T>
T
thread::read(unsigned reg, unsigned elem) const
{
   T v;
   size_t off = size_t(reg) * grf_size + size_t(elem) * sizeof(T);
   IBIS_CHECK(off + sizeof(T) <= grf.size(), "GRF read out of range");
   __builtin_memcpy(&v, &grf[off], sizeof(T));
   return v;
}

template <typename T>
void
thread::write(unsigned reg, unsigned elem, T v)
{
   size_t off = size_t(reg) * grf_size + size_t(elem) * sizeof(T);
   IBIS_CHECK(off + sizeof(T) <= grf.size(), "GRF write out of range");
   __builtin_memcpy(&grf[off], &v, sizeof(T));
}

} /* namespace ibis::sim */
