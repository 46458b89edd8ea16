/*
 * Internals shared by the schedulers' files.
 */
#pragma once

#include <vector>

#include "ir/ibis_analysis.h"
#include "sched/sched.h"
#include "sched/sched_dag.h"

namespace ibis {

/* Top-down list scheduling of dag on latencies.  With lv (pre-RA) it
 * tracks pressure and, once placing the critical-path choice would take
 * it over budget GRFs, places the ready instruction adding the least
 * pressure instead.  Returns the order as indices into dag.nodes.
 */
std::vector<unsigned> schedule_latency(const sched_dag &dag, const liveness *lv,
                                       unsigned bound, unsigned budget);

/* The GRFs pre-RA latency scheduling keeps pressure under. */
unsigned sched_pressure_budget(const shader &s, const device_info &dev);

/* Gives every block that reads a cheap, program-invariant definition
 * (pln, constant and push-constant moves) its own copy before its first
 * use (sched_remat.cpp).  Returns whether anything changed.
 */
bool remat_cheap_defs(shader &s);

/* Recomputes small trees of cheap, program-invariant definitions that
 * live through a top-level loop without being read in it at the top of
 * the loop's exit block, for their readers after the loop
 * (sched_loop_remat.cpp).  Returns whether anything changed.
 */
bool remat_through_loops(shader &s);

/* schedule_pre_ra without the debug report. */
void schedule_pre_ra_blocks(shader &s, const device_info &dev, sched_mode mode);

} /* namespace ibis */
