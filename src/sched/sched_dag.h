/*
 * The per-block dependency graph both schedulers work on.
 */
#pragma once

#include <vector>

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"

namespace ibis {

struct sched_edge {
   unsigned node;       /* the other end, an index into sched_dag::nodes */
   unsigned latency;    /* cycles from the earlier node's issue */
};

struct sched_node {
   instr *in;
   unsigned issue = 0;      /* ir/ibis_perf.h */
   unsigned latency = 0;
   /* Longest latency-weighted path from this node to the region's end. */
   unsigned path = 0;
   std::vector<sched_edge> preds, succs;
};

/* The schedulable region of a block: everything between the leading
 * endif/do and phis and the ending jump, which stay where they are.
 */
struct sched_dag {
   block *blk = nullptr;
   std::vector<instr *> head, tail;
   std::vector<sched_node> nodes;     /* in the original order */
};

/* Builds the graph of b.  physical: dependencies through the physical
 * registers of allocated IR (true, anti and output dependencies where the
 * bytes overlap); otherwise through values (def-use, WLR write
 * sequences).  Both add flags, the accumulator, HW_REG order, memory
 * effects and barriers.
 */
sched_dag build_sched_dag(block *b, bool physical, const device_info &dev);

/* Byte range [*start, *start + *len) of o's value that in reads or writes
 * (all channels), from the start of the value.
 */
void operand_byte_range(const instr *in, const operand &o, bool is_dst,
                        unsigned *start, unsigned *len);

/* Writes the nodes back in `order` (indices into dag.nodes). */
void apply_schedule(sched_dag &dag, const std::vector<unsigned> &order);

} /* namespace ibis */
