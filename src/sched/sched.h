/*
 * Instruction scheduling on the latency table of ir/ibis_perf.h: before
 * register allocation for pressure (and latency where pressure allows),
 * after it for latency on physical registers.
 */
#pragma once

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"

namespace ibis {

/* Pre-RA modes, in the order the compiler tries them until one allocates
 * without spilling.
 */
enum class sched_mode : uint8_t {
   latency,    /* critical path first while pressure stays under the limit */
   pressure,   /* lowest pressure first */
   none,       /* the original order */
   narrow,     /* pressure, each loaded constant block copied by the dwords
                * read (the copies wait for the load)
                */
};

const char *sched_mode_name(sched_mode m);

/* Reorders each block of lowered, unallocated s. */
void schedule_pre_ra(shader &s, const device_info &dev, sched_mode mode);

/* Reorders each block of allocated s to hide latency.  Returns the
 * program's estimate_cycles() as it leaves it, which it knows (code
 * generation's stats line needs it; estimating a whole program again
 * costs as much as scheduling it).
 */
unsigned schedule_post_ra(shader &s, const device_info &dev);

/* The largest register pressure of s in GRFs (compute_pressure()): what
 * pre-RA scheduling lowers.
 */
unsigned max_live(shader &s);

/* Registers sched-pre-latency, sched-pre-pressure and sched-post (on
 * device "skl") with the pass registry; idempotent.
 */
void register_sched_passes();

} /* namespace ibis */
