/*
 * The static performance model: the one latency table that the pre-RA and
 * post-RA schedulers and the stats line's cycle estimate share.  Its figures
 * are those of brw's brw_ir_performance.cpp for the same hardware, in the
 * same units, so that ibis's cycle counts compare with brw-stats.csv.
 *
 * It works on lowered IR (docs/backend.md): an instruction that code
 * generation splits into several hardware instructions costs all of them.
 */
#pragma once

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"

#include <vector>

namespace ibis {

struct instr_perf {
   /* Cycles the EU spends issuing the instruction (all its pieces). */
   unsigned issue = 0;
   /* Cycles from issue until its destination can be read. */
   unsigned latency = 0;
};

/* The cost of one lowered instruction on dev. */
instr_perf perf_of(const instr *in, const device_info &dev);

/* One hardware instruction as the simulator executed it (src/check's
 * dynamic scoreboard): op is the IR opcode whose figures it takes,
 * exec_size its channels, tx_bytes its execution type's size and
 * dst_bytes the bytes its destination spans; a send's shared function
 * and descriptor (with ex_mlen, a SENDS's second payload) give its unit
 * and payload sizes.  slow_int_mul: a
 * 32x32-bit integer multiply, costed as 64-bit as brw does.
 */
struct hw_instr {
   opcode op = opcode::mov;
   unsigned exec_size = 8;
   unsigned tx_bytes = 4;
   unsigned dst_bytes = 0;
   bool slow_int_mul = false;
   unsigned sfid = 0;
   uint32_t desc = 0;
   unsigned ex_mlen = 0;
};

/* Its cost on an idle machine, from the same table as perf_of(). */
instr_perf perf_of(const hw_instr &h);

/* brw's static estimate of the cycles the whole program takes (the
 * "cycles" of the stats line), on lowered, allocated or unallocated IR.
 */
unsigned estimate_cycles(const shader &s, const device_info &dev);

/* The estimate with brw's per-block figures (its "START Bn (N cycles)"),
 * indexed by block::index.
 */
struct perf_estimate {
   unsigned cycles = 0;
   std::vector<unsigned> block_cycles;
};

perf_estimate estimate_performance(const shader &s, const device_info &dev);

} /* namespace ibis */
