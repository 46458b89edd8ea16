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
   /* Before RA: the node of a predicated halt after which this node,
    * earlier in the original order, goes (-1: none).  It feeds nothing
    * up to the halt and only readers between the halt and the next one,
    * which read it channel by channel, so it needs no edge to the halt;
    * left before it, it would run in threads whose channels all halt
    * too (docs/sched.md).
    */
   int follows = -1;
   /* Its edges in sched_dag::pred_edges / succ_edges. */
   unsigned first_pred = 0, num_preds = 0;
   unsigned first_succ = 0, num_succs = 0;
};

/* A node's edges: predecessors by increasing node, successors likewise. */
struct sched_edges {
   const sched_edge *first, *last;
   const sched_edge *begin() const { return first; }
   const sched_edge *end() const { return last; }
   unsigned size() const { return unsigned(last - first); }
};

/* The schedulable region of a block: everything between the leading
 * endif/do and phis and the ending jump, which stay where they are.
 */
struct sched_dag {
   block *blk = nullptr;
   std::vector<instr *> head, tail;
   std::vector<sched_node> nodes;     /* in the original order */
   /* Every node's edges, one flat array per direction. */
   std::vector<sched_edge> pred_edges, succ_edges;

   sched_edges preds(unsigned n) const
   {
      const sched_edge *e = pred_edges.data() + nodes[n].first_pred;
      return { e, e + nodes[n].num_preds };
   }
   sched_edges succs(unsigned n) const
   {
      const sched_edge *e = succ_edges.data() + nodes[n].first_succ;
      return { e, e + nodes[n].num_succs };
   }
};

/* Working memory of build_sched_dag() that one shader's blocks share, so
 * that each block allocates only its own graph.
 */
struct sched_dag_scratch {
   /* A resource: its last writer and the head of its reads since. */
   struct resource {
      int last_write = -1;
      int reads = -1;
   };
   struct read_link {
      unsigned node;
      int next;
   };
   /* Nodes of the register bytes of one GRF: writers cover disjoint
    * bytes, readers the bytes they read since those bytes' last write.
    */
   struct grf_access {
      unsigned node;
      uint32_t bytes;
   };

   std::vector<int> resource_of_value;       /* by value id, -1: none */
   std::vector<unsigned> values_seen;
   std::vector<resource> resources;
   std::vector<read_link> links;
   std::vector<std::vector<grf_access>> grf_writers, grf_readers;
   std::vector<unsigned> grfs_seen;
   std::vector<uint8_t> grf_seen;
   std::vector<std::pair<const instr *, unsigned>> index_of;
   std::vector<unsigned> stamp, edge_of, since_barrier, carried, halts;
   std::vector<sched_edge> node_preds;
};

/* Builds the graph of b.  physical: dependencies through the physical
 * registers of allocated IR (true, anti and output dependencies where the
 * bytes overlap); otherwise through values (def-use, WLR write
 * sequences).  Both add flags, the accumulator, HW_REG order, memory
 * effects and barriers.
 */
sched_dag build_sched_dag(block *b, bool physical, const device_info &dev);
sched_dag build_sched_dag(block *b, bool physical, const device_info &dev,
                          sched_dag_scratch &scratch);
/* The same into dag, whose lists keep their room from the last block
 * (a scheduler builds one graph per block).
 */
void build_sched_dag(block *b, bool physical, const device_info &dev,
                     sched_dag_scratch &scratch, sched_dag &dag);

/* Whether b's region (build_sched_dag()) holds two instructions or more:
 * otherwise there is nothing to reorder, and most blocks of a large
 * shader's control flow are such (two in three of 228.fs's) and need no
 * graph built.
 */
bool sched_region_reorderable(block *b);

/* Byte range [*start, *start + *len) of o's value that in reads or writes
 * (all channels), from the start of the value.
 */
void operand_byte_range(const instr *in, const operand &o, bool is_dst,
                        unsigned *start, unsigned *len);

/* Writes the nodes back in `order` (indices into dag.nodes). */
void apply_schedule(sched_dag &dag, const std::vector<unsigned> &order);

} /* namespace ibis */
