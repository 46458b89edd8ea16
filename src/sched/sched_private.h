/*
 * Internals shared by the schedulers' files.
 */
#pragma once

#include <vector>

#include "ir/ibis_analysis.h"
#include "sched/sched.h"
#include "sched/sched_dag.h"

namespace ibis {

/* Top-down list scheduling of dag on latencies (post-RA; the pre-RA
 * form in sched_pre_ra.cpp also tracks pressure and, once placing the
 * critical-path choice would take it over its budget, places the ready
 * instruction adding the least pressure instead).  Returns the order as
 * indices into dag.nodes.
 */
std::vector<unsigned> schedule_latency(const sched_dag &dag);

/* The GRFs pre-RA latency scheduling keeps pressure under. */
unsigned sched_pressure_budget(const shader &s, const device_info &dev);

/* Gives every block that reads a cheap, program-invariant definition
 * (pln, constant and push-constant moves) its own copy before its first
 * use (sched_remat.cpp).  Returns whether anything changed.
 */
bool remat_cheap_defs(shader &s);

/* A source that reads the same bits anywhere in the program: an
 * immediate, a push constant, an attribute, a payload register nothing
 * writes (sched_remat.cpp).
 */
bool is_program_invariant(const operand &o);

/* Points use u (a source or the preserve source) at nv instead. */
void redirect_use(const use &u, value *nv);

/* The first and last block of a loop. */
struct loop_range {
   unsigned first, last;
};

/* The loops in no if and no loop, in program order (sched_loop_remat.cpp). */
std::vector<loop_range> top_level_loops(const shader &s);

/* The index of the first block with a halt, or the number of blocks. */
unsigned first_halt_block(const shader &s);

/* The block a use reads in: a phi's source is read on its edge. */
const block *use_block(const use &u);

/* Recomputes small trees of cheap, program-invariant definitions that
 * live through a top-level loop without being read in it at the top of
 * the loop's exit block, for their readers after the loop
 * (sched_loop_remat.cpp).  Returns whether anything changed.
 */
bool remat_through_loops(shader &s);

/* Copies the dwords of width-1 values (push constants) that a top-level
 * loop does not read and code after it does into width-1 values of their
 * own before the loop, for the readers after it (sched_uniform_copy.cpp).
 * Returns whether anything changed.
 */
bool copy_uniforms_before_loops(shader &s);

/* The dword of its value that o (read by in) lies in, or -1 when o
 * crosses a dword (sched_uniform_copy.cpp).
 */
int dword_read(const instr *in, const operand &o);

/* A NoMask width-1 copy of dword dw of v, which readers (all reading
 * within that dword) then read instead; the caller inserts it.
 */
instr *copy_dword_for(shader &s, value *v, unsigned dw,
                      const std::vector<use> &readers);

/* Copies the dwords read of each width-1 send result (a loaded constant
 * block) into width-1 values of their own right after the send, for its
 * readers, when they take fewer bytes (sched_block_copy.cpp).  Returns
 * whether anything changed.
 */
bool copy_block_dwords(shader &s);

/* schedule_pre_ra without the debug report. */
void schedule_pre_ra_blocks(shader &s, const device_info &dev, sched_mode mode);

} /* namespace ibis */
