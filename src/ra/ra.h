/*
 * Register allocation: lowered IR in, allocated IR out (docs/backend.md §2).
 * Out of SSA, hybrid SSA + interval interference, coloring of contiguous
 * GRF blocks, spilling to scratch, flag allocation, tied preserve writes
 * and NoMask copies for SIMD-global values.
 */
#pragma once

#include <string>

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"

namespace ibis {

struct ra_options {
   /* When false, allocation fails instead of spilling (SIMD16/SIMD32
    * attempts: brw drops a wider program that would spill).
    */
   bool allow_spilling = true;
   /* SIMD32: split values read only by SIMD16 halves into a value per
    * half (ra_split.cpp).  The halves usually land in their payloads, but
    * a program at the edge of the register file may fit only whole.
    */
   bool split_halves = true;
   /* With split_halves: phis at if joins split too (a program may fit
    * only with them whole: tesseract/367.fs).
    */
   bool split_phi_halves = true;
   /* Testing: this many GRFs below the EOT window (or fewer, above the
    * fixed payload) are taken for the whole program, so that programs
    * spill that otherwise would not (the spiller's differential test:
    * IBIS_RA_RESERVE=N sets it for every allocation, docs/ra.md).
    */
   unsigned reserve_grfs = 0;
};

struct ra_result {
   bool success = false;
   /* Why allocation failed, when it did. */
   std::string failure;
   unsigned spills = 0, fills = 0;
   /* Colorings that failed and were followed by spilling (each round
    * spills several values).
    */
   unsigned spill_rounds = 0;
   /* GRFs used: one more than the highest register written or read. */
   unsigned grfs_used = 0;
   /* Exact pressure peak in GRFs before allocation (compute_pressure()
    * plus the HW_REG payload registers live at each point).
    */
   unsigned max_live = 0;
   /* Failed on MaxLive alone, before splitting or coloring anything. */
   bool gave_up_early = false;
   /* Interference edges of the last graph colored, and the edges a purely
    * interval-based graph of the same values would have had.
    */
   unsigned edges = 0, interval_edges = 0;
   /* Flag values moved through a GRF because more flags were live than
    * fit.
    */
   unsigned flag_spills = 0;
   /* Instructions out of SSA left: phi copies that did not coalesce, the
    * xors of swaps, and constants written on edges (less the constants
    * that went).
    */
   unsigned copies = 0;
};

/* Allocates s in place.  On success s.allocated is set and every value has
 * its phys_reg; on failure s is left in an unspecified state (the caller
 * retries from a fresh copy).
 */
ra_result allocate_registers(shader &s, const device_info &dev,
                             const ra_options &opts = {});

/* The independent RA validator: re-derives liveness on the allocated
 * program and throws ibis::error on any overlap of live values or any
 * clobber (ir3's ir3_ra_validate.c is the model).
 */
void validate_allocation(const shader &s);

/* Registers the passes "ra" and "ra-nospill" (Skylake; they throw
 * ibis::error when allocation fails) and "validate-ra" in the pass
 * registry; safe to call more than once.
 */
void register_ra_passes();

} /* namespace ibis */
