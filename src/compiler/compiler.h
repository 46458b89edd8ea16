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
};

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
   std::string disasm;
   shader_stats stats;
   /* Byte offset of this width's kernel in compile_result::binary. */
   unsigned offset = 0;
   /* GRF where the thread payload's push constants start (dispatch GRF
    * start for the driver).
    */
   unsigned dispatch_grf_start = 0;
   unsigned scratch_bytes = 0;
};

struct compile_result {
   std::vector<compiled_variant> variants;
   /* The kept variants' kernels, concatenated at their offsets. */
   std::vector<uint8_t> binary;
};

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
