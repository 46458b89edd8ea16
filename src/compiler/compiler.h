/*
 * The pipeline driver (design.md §1): NIR in, one Gen program per dispatch
 * width out, with SIMD selection as brw does it on Gen9.  This is the C++
 * interface the tools and tests use; include/ibis/ibis.h wraps it in C.
 *
 *    translate (from_nir) → optimize (src/opt) → lower (src/lower)
 *    → schedule pre-RA (src/sched) → allocate (src/ra)
 *    → schedule post-RA → generate code (src/codegen)
 *
 * No global mutable state: compiles on different threads never share
 * anything but read-only tables.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "dev/ibis_device.h"
#include "from_nir/from_nir.h"
#include "nir/nir.h"

namespace ibis {

struct compile_options {
   /* null: Skylake GT2. */
   const device_info *device = nullptr;
   /* Widths to attempt; empty: the stage's (VS 8; FS and CS 8, 16, 32). */
   std::vector<unsigned> widths;
   /* Keep SIMD32 even when the cycle estimate says it is not faster
    * (brw's INTEL_DEBUG=do32).
    */
   bool force_simd32 = false;
   /* The driver's ABI inputs: push ranges, FS input slots, VUE map. */
   from_nir_options abi;

   /* IBIS_DEBUG flags (util/ibis_debug.h) for this compile, on top of the
    * environment's; dumps go to `dump` (null: stderr).
    */
   uint64_t debug = 0;
   std::function<void(const std::string &)> dump;
   /* Fill compiled_variant::disasm (asm dumps fill it anyway); otherwise
    * disassemble(v.binary, dev) makes it when needed.
    */
   bool disasm = false;
};

/* Where the time of one compile went, per pipeline stage: CPU seconds of
 * the compiling thread.
 */
enum compile_stage : unsigned {
   STAGE_TRANSLATE, STAGE_OPT, STAGE_LOWER, STAGE_SCHED_PRE, STAGE_RA,
   STAGE_SCHED_POST, STAGE_CODEGEN, STAGE_VALIDATE, NUM_COMPILE_STAGES,
};
const char *compile_stage_name(compile_stage st);

/* One dispatch width's outcome. */
struct compiled_variant {
   unsigned simd = 0;
   /* Compiled: code exists for this width (it may still be dropped). */
   bool compiled = false;
   /* Kept in the final binary. */
   bool kept = false;
   /* Why it failed or was dropped ("spills", "not faster than SIMD16"). */
   std::string reason;
   std::vector<uint8_t> binary;
   /* Empty unless compile_options::disasm or an asm dump asked for it. */
   std::string disasm;
   shader_stats stats;
   /* Byte offset of this width's kernel in compile_result::binary. */
   unsigned offset = 0;
   /* GRF where the thread payload's push constants start (dispatch GRF
    * start for the driver).
    */
   unsigned dispatch_grf_start = 0;
   unsigned scratch_bytes = 0;
   /* GRFs the program touches (brw's grf_used). */
   unsigned grfs_used = 0;
   /* The allocated program's MaxLive in GRFs (ra_result::max_live). */
   unsigned max_live = 0;
   /* Pre-RA scheduling modes tried, in order, with what happened
    * ("latency: spills", "pressure: ok").
    */
   std::vector<std::string> attempts;
   /* What allocated it when the other scheduling modes did not: "the
    * narrow schedule" or "16-bit phis" (SIMD16's retry); else empty.
    */
   std::string last_resort;
   /* MaxLive in GRFs of the first (latency) schedule when it alone ruled
    * that schedule out (ra_result::gave_up_early); else 0.
    */
   unsigned first_schedule_over = 0;
   /* brw's throughput figure: channels per cycle of the estimate. */
   double throughput = 0;
   double stage_seconds[NUM_COMPILE_STAGES] = {};
   /* The shader-db line of stats_line() ("FS SIMD16 shader: ..."). */
   std::string stats_text;
};

/* What a driver programs its state from (brw's brw_*_prog_data), common
 * to every width.
 */
struct prog_data {
   nir::shader_stage stage = nir::shader_stage::none;

   /* Push constants, from the dispatch GRF start: the NIR uniforms
    * (nr_params dwords), then each pushed UBO range.
    */
   unsigned push_uniform_regs = 0;
   std::vector<push_range> push_ranges;
   /* Push registers in all (CS: with the per-thread subgroup-id register). */
   unsigned push_regs = 0;

   /* VS: the VUE map (slot -> VARYING_SLOT_*), the vertex attributes read
    * (VERT_ATTRIB_* in payload order, the vertex-id and draw-id slots
    * included), the URB read length (pairs of 16-byte slots, as brw) and
    * the URB entry size (64-byte units: max(attributes, VUE slots) / 4).
    */
   std::vector<int> vue_slots;
   std::vector<int> vs_attr_slots;
   unsigned urb_read_length = 0;
   unsigned urb_entry_size = 0;   /* 64-byte units, as brw */
   bool uses_vertexid = false, uses_instanceid = false, uses_drawid = false;

   /* FS: urb_setup (VARYING_SLOT_* in setup-data order), flat inputs (bit
    * i: setup slot i is constant-interpolated), barycentric modes (bit per
    * brw_barycentric_mode), and the flags of 3DSTATE_PS/PS_EXTRA.
    */
   std::vector<int> urb_setup;
   uint64_t flat_inputs = 0;
   unsigned barycentric_modes = 0;
   bool uses_kill = false;
   bool writes_omask = false;
   bool uses_src_depth = false;
   bool uses_src_w = false;
   bool computes_depth = false;
   bool writes_stencil = false;
   bool uses_sample_mask_in = false;
   bool uses_sample_pos = false;

   /* CS: the workgroup size and the push dword of the subgroup id. */
   unsigned local_size[3] = {};
   int cs_subgroup_id_dword = -1;

   /* The largest scratch any kept width needs, per thread. */
   unsigned scratch_bytes = 0;
   /* Kernel offsets per width in compile_result::binary, -1 if absent. */
   int offset_simd8 = -1, offset_simd16 = -1, offset_simd32 = -1;
   unsigned dispatch_grf_start_simd8 = 0, dispatch_grf_start_simd16 = 0,
            dispatch_grf_start_simd32 = 0;
};

struct compile_result {
   std::vector<compiled_variant> variants;
   /* The kept variants' kernels, concatenated at their offsets. */
   std::vector<uint8_t> binary;
   prog_data prog;
};

/* Translation and the optimization passes alone, at one width, with the
 * compile's dumps and validation: what `ibis-compile --dump ir` shows
 * without running the back end.
 */
std::unique_ptr<shader> compile_front_end(const nir::shader &s, unsigned simd,
                                          const compile_options &o);

/* The prog data that follows from the NIR and the ABI inputs alone, before
 * any code exists: push layout, URB/VUE layout, FS flags, and the dispatch
 * GRF start of every width the stage has (kernel offsets stay -1).
 */
prog_data shader_layout(const nir::shader &s, const from_nir_options &abi);

/* Reads a driver-ABI file (docs/compiler.md, "ABI file") into o, replacing
 * what it names: push ranges, FS input slots, the VS VUE map.  A text
 * whose first non-blank character is '{' is a brw-abi JSON file
 * (apply_brw_abi).  Errors
 * throw ibis::error as "file:line: message".
 */
void apply_abi_text(const std::string &text, const std::string &filename,
                    from_nir_options &o);
void apply_abi_file(const std::string &path, from_nir_options &o);

/* What iris gave brw for one shader (the corpus' brw-abi/<game>/<name>.
 * <stage>.json, its README): the parts a compile and a run need.  NIR
 * indices of UBOs, SSBOs, images and textures already are binding-table
 * indices in that corpus.
 */
struct brw_abi {
   std::string stage;                     /* "vs" or "fs" */
   /* First GRF after the payload, per width (index 0, 1, 2: SIMD8, 16,
    * 32; 0 = not compiled): the push data starts there.
    */
   unsigned dispatch_grf_start[3] = {};
   unsigned nr_params = 0;                /* dwords of "uniform" push data */
   unsigned curb_read_length = 0;         /* GRFs of push data */
   std::vector<push_range> ubo_ranges;    /* the used ones, in push order */
   unsigned total_scratch = 0;
   unsigned const_data_size = 0;
   unsigned num_relocs = 0;

   /* VS */
   uint64_t inputs_read = 0;              /* VERT_ATTRIB_* */
   bool uses_vertex_ids = false;          /* vertex/instance id, first vertex, base instance */
   bool uses_draw_id = false;             /* draw id, is indexed draw */
   unsigned nr_attribute_slots = 0;
   std::vector<int> vue_slots;            /* VUE slot -> VARYING_SLOT_* */

   /* FS */
   std::vector<int> urb_setup_attribs;    /* setup slot -> VARYING_SLOT_* */
   unsigned barycentric_interp_modes = 0; /* brw_barycentric_mode bits */
   bool uses_src_depth = false, uses_src_w = false, uses_pos_offset = false;
   bool uses_sample_mask = false, uses_depth_w_coefficients = false;
   unsigned computed_depth_mode = 0;
   bool computed_stencil = false, uses_omask = false, dual_src_blend = false;
   bool dispatch[3] = {};                 /* SIMD8, 16, 32 kernels in the program */
};

/* Reads a brw-abi JSON text; errors are "file:line:col: message". */
brw_abi parse_brw_abi(const std::string &text, const std::string &filename);
brw_abi read_brw_abi_file(const std::string &path);
/* The ABI inputs of a compile under brw's ABI: its push ranges (none
 * when it pushes none), FS input slots and VUE map.
 */
void apply_brw_abi(const brw_abi &a, from_nir_options &o);

/* "0ad/12.fs.nir - FS SIMD16 shader: 180 inst, ..." lines, one per kept
 * variant, as brw's shader-db log has them (brw logs only the programs it
 * keeps).
 */
std::string shaderdb_lines(const std::string &name, const compile_result &r);

/* Compiles s.  Throws ibis::error (file:line: what) for input it cannot
 * compile at any width; a width that fails on its own is reported in its
 * variant instead.
 */
compile_result compile_shader(const nir::shader &s, const compile_options &o);

/* Compiles one width only, with the pipeline's usual retries (scheduling
 * modes), for tests and for ibis-run; no SIMD selection.
 */
compiled_variant compile_variant(const nir::shader &s, unsigned simd,
                                 const compile_options &o);

} /* namespace ibis */
