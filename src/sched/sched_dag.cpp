/*
 * Dependencies of a block's instructions.
 *
 * Every ordering constraint is an edge from an earlier to a later
 * instruction of the original order, so the original order is always a
 * valid schedule.  Constraints come from "resources": each has a last
 * writer and the readers since it; a read depends on the last write
 * (true), a write on the last write (output) and on the reads since
 * (anti).  Resources are WLR values, the flags as a whole, the
 * accumulator, memory, each byte of the register file that HW_REG values
 * (and, on allocated IR, all values) occupy, and on allocated IR each
 * flag sub-register.  SSA values need no resource: their single definition is
 * the only write.
 */
#include "sched/sched_dag.h"

#include <algorithm>
#include <unordered_map>

#include "ir/ibis_perf.h"

namespace ibis {

namespace {

bool
is_scalar(const operand &o)
{
   if (o.val && o.val->width == 1)
      return true;
   return o.has_region && o.rgn.vstride == 0 && o.rgn.width == 1 &&
          o.rgn.hstride == 0;
}

unsigned
bytes_of(data_type t)
{
   return std::max(1u, type_bits(t) / 8);
}

/* Does in read or write v? */
bool
accesses(const instr *in, const value *v)
{
   for (const operand &d : in->dsts()) {
      if (d.val == v)
         return true;
   }
   for (const operand &o : in->srcs()) {
      if (o.val == v)
         return true;
   }
   return in->preserve().val == v;
}

/* A full barrier: nothing moves across it. */
bool
is_barrier(const instr *in)
{
   return (in->flags & INSTR_EOT) || in->op == opcode::halt ||
          in->info().kind == opcode_kind::cf;
}

bool
touches_memory(const instr *in)
{
   const opcode_kind k = in->info().kind;
   return k == opcode_kind::send || k == opcode_kind::logical ||
          in->has_side_effects();
}

struct resource {
   int last_write = -1;
   std::vector<unsigned> reads;
};

/* Resource keys. */
enum : uint64_t {
   RES_WLR = 1ull << 60,
   RES_FLAGS = 2ull << 60,
   RES_ACC = 3ull << 60,
   RES_MEM = 5ull << 60,
   RES_FLAG_PHYS = 6ull << 60,
};

class dag_builder {
public:
   dag_builder(sched_dag &dag) : dag(dag), stamp(dag.nodes.size(), ~0u),
                                 edge_of(dag.nodes.size(), 0) {}

   void edge(unsigned from, unsigned to, unsigned latency)
   {
      if (from == to)
         return;
      if (stamp[from] == to) {
         sched_edge &e = dag.nodes[from].succs[edge_of[from]];
         e.latency = std::max(e.latency, latency);
         return;
      }
      stamp[from] = to;
      edge_of[from] = dag.nodes[from].succs.size();
      dag.nodes[from].succs.push_back({to, latency});
   }

   void read(resource &r, unsigned n)
   {
      if (r.last_write >= 0)
         edge(r.last_write, n, dag.nodes[r.last_write].latency);
      r.reads.push_back(n);
   }

   void write(resource &r, unsigned n, unsigned raw_latency_of_self = 0)
   {
      (void)raw_latency_of_self;
      if (r.last_write >= 0)
         edge(r.last_write, n, 0);
      for (unsigned rd : r.reads)
         edge(rd, n, 0);
      r.reads.clear();
      r.last_write = n;
   }

   resource &res(uint64_t key) { return map[key]; }

   /* The register file bytes: a resource each, their reads since the
    * last write kept as lists in one pool (a vector per byte was most of
    * the allocations of post-RA scheduling).  The order of the reads
    * does not matter: a node's edges to the current node merge into one.
    */
   void size_bytes()
   {
      if (byte_write.empty()) {
         const unsigned n = device_info::grf_count * device_info::grf_bytes;
         byte_write.assign(n, -1);
         byte_reads.assign(n, -1);
      }
   }
   void read_byte(unsigned byte, unsigned n)
   {
      const int w = byte_write[byte];
      if (w >= 0)
         edge(w, n, dag.nodes[w].latency);
      pool.push_back({n, byte_reads[byte]});
      byte_reads[byte] = int(pool.size() - 1);
   }
   void write_byte(unsigned byte, unsigned n)
   {
      if (byte_write[byte] >= 0)
         edge(byte_write[byte], n, 0);
      for (int i = byte_reads[byte]; i >= 0; i = pool[i].next)
         edge(pool[i].node, n, 0);
      byte_reads[byte] = -1;
      byte_write[byte] = int(n);
   }

   sched_dag &dag;
   std::vector<unsigned> stamp, edge_of;
   std::unordered_map<uint64_t, resource> map;
   /* Allocated IR and fixed registers: per register file byte, the last
    * writer and the head of its reads in pool.
    */
   struct byte_read {
      unsigned node;
      int next;
   };
   std::vector<int> byte_write, byte_reads;
   std::vector<byte_read> pool;
};

} /* anonymous namespace */

void
operand_byte_range(const instr *in, const operand &o, bool is_dst,
                   unsigned *start, unsigned *len)
{
   const value *v = o.val;
   const unsigned tb = bytes_of(o.type);
   const unsigned exec = std::max<unsigned>(1, in->exec_size);
   *start = o.offset;
   if (is_dst && in->op == opcode::send) {
      /* The message writes rlen GRFs, whatever the value's size says. */
      const unsigned whole = v->size_bytes() > o.offset ? v->size_bytes() - o.offset : tb;
      const unsigned rlen = in->num_srcs() > 1 && in->src(1).is_imm()
                               ? (uint32_t(in->src(1).imm) >> 20 & 0x1f) * 32 : 0;
      *len = std::max(whole, rlen);
      return;
   }
   if (!is_dst && (in->op == opcode::broadcast || in->op == opcode::shuffle ||
                   in->op == opcode::mov_indirect) && &o == &in->src(0)) {
      /* A dynamic index reads anywhere in the value. */
      *len = v->size_bytes() > o.offset ? v->size_bytes() - o.offset : tb;
      return;
   }
   if (!is_dst && in->op == opcode::pln) {
      /* src0 is a plane [a, b, -, c]; src1 holds u and v per channel. */
      *len = &o == &in->src(0) ? 4 * tb : 2 * exec * tb;
      return;
   }
   /* Pseudo-ops expand after allocation into code that writes all of its
    * destination (mov_indirect: one element per channel and component).
    */
   if (in->op == opcode::send || in->op == opcode::copy ||
       (is_dst && in->info().kind == opcode_kind::pseudo) ||
       in->info().kind == opcode_kind::logical || in->is_phi() ||
       in->op == opcode::parallel_copy) {
      *len = v->size_bytes() > o.offset ? v->size_bytes() - o.offset : tb;
      return;
   }
   if (!is_dst && in->op == opcode::load_payload) {
      const value *d = in->dst(0).val;
      const unsigned w = v->width > 1 && d ? std::min<unsigned>(v->width, d->width) : 1;
      *len = w * tb;
      return;
   }
   if (is_dst) {
      const unsigned stride = o.has_region ? std::max<unsigned>(1, o.rgn.hstride) : 1;
      *len = v->width == 1 && exec == 1 ? tb : ((exec - 1) * stride + 1) * tb;
      return;
   }
   if (is_scalar(o)) {
      *len = tb;
      return;
   }
   if (o.has_region && o.rgn.width) {
      const unsigned rows = (exec + o.rgn.width - 1) / o.rgn.width;
      *len = ((rows - 1) * o.rgn.vstride + (o.rgn.width - 1) * o.rgn.hstride + 1) * tb;
      return;
   }
   *len = exec * tb;
}

sched_dag
build_sched_dag(block *b, bool physical, const device_info &dev)
{
   sched_dag dag;
   dag.blk = b;
   auto it = b->begin();
   if (it != b->end() && (*it)->is_block_start())
      dag.head.push_back(*it++);
   while (it != b->end() && (*it)->is_phi())
      dag.head.push_back(*it++);
   auto end = b->before_jump();
   for (; it != end; ++it) {
      sched_node n;
      n.in = *it;
      instr_perf p = perf_of(n.in, dev);
      n.issue = p.issue;
      n.latency = p.latency;
      dag.nodes.push_back(std::move(n));
   }
   for (; it != b->end(); ++it)
      dag.tail.push_back(*it);

   dag_builder db(dag);

   /* Node of each instruction of the region: a sorted array (a hash map
    * allocated a node per instruction).
    */
   std::vector<std::pair<const instr *, unsigned>> index_of;
   index_of.reserve(dag.nodes.size());
   for (unsigned i = 0; i < dag.nodes.size(); i++)
      index_of.push_back({dag.nodes[i].in, i});
   std::sort(index_of.begin(), index_of.end());
   auto node_of = [&](const instr *in) -> int {
      auto it = std::lower_bound(index_of.begin(), index_of.end(),
                                 std::make_pair(in, 0u));
      return it != index_of.end() && it->first == in ? int(it->second) : -1;
   };

   int last_barrier = -1;
   std::vector<unsigned> since_barrier;

   auto grf_access = [&](const instr *in, const operand &o, bool is_dst,
                         unsigned n) {
      const value *v = o.val;
      unsigned start, len;
      operand_byte_range(in, o, is_dst, &start, &len);
      /* Sized on first use: most blocks before allocation have no
       * fixed-register access at all.
       */
      db.size_bytes();
      const unsigned nbytes = db.byte_write.size();
      const unsigned base = v->phys.nr * device_info::grf_bytes + v->phys.subreg;
      const unsigned lo = base + start;
      const unsigned hi = std::min<unsigned>(lo + len, nbytes);
      /* A predicated write keeps the old bytes of its disabled channels:
       * it reads them too (for the latency; order holds without it).
       */
      if (is_dst && in->predicate() && in->op != opcode::send) {
         for (unsigned byte = lo; byte < hi; byte++)
            db.read_byte(byte, n);
      }
      for (unsigned byte = lo; byte < hi; byte++) {
         if (is_dst)
            db.write_byte(byte, n);
         else
            db.read_byte(byte, n);
      }
      if (!is_dst || !physical || v->file == reg_file::hw_reg)
         return;
      /* Allocated IR is checked value by value (docs/ra.md): a value
       * owns its whole range from its first write, and a WLR value is
       * written piece by piece.  So a partial write also stays after the
       * earlier accesses, by other values, of the rest of its range; it
       * does not become those bytes' writer.  An earlier piece there
       * stands for what came before it, so the pieces keep their order.
       */
      const unsigned vlo = base;
      const unsigned vhi = std::min<unsigned>(base + v->size_bytes(), nbytes);
      for (unsigned byte = vlo; byte < vhi; byte++) {
         if (byte >= lo && byte < hi)
            continue;
         if (db.byte_write[byte] >= 0)
            db.edge(db.byte_write[byte], n, 0);
         for (int i = db.byte_reads[byte]; i >= 0; i = db.pool[i].next) {
            const unsigned rd = db.pool[i].node;
            if (!accesses(dag.nodes[rd].in, v))
               db.edge(rd, n, 0);
         }
      }
   };

   auto flag_access = [&](const value *f, const instr *in, bool is_dst,
                          unsigned n) {
      if (physical && f->phys.valid() && f->phys.kind == phys_reg::flag) {
         /* The 16-bit halves holding its channels' bits counted from the
          * sub-register named (as ra_flags places them): a SIMD32 flag
          * takes two, one of channels 16-31 named f0.0 the upper one.
          */
         const unsigned h = f->phys.nr * 2 + f->phys.subreg;
         const unsigned first = h + f->group / 16;
         const unsigned last =
            h + (f->group + std::max<unsigned>(f->width, 1) - 1) / 16;
         for (unsigned i = first; i <= last; i++) {
            resource &r = db.res(RES_FLAG_PHYS | i);
            if (is_dst)
               db.write(r, n);
            else
               db.read(r, n);
         }
         return;
      }
      /* Unallocated: true dependencies through the value; the flags as
       * one resource keep flag lifetimes from overlapping more than they
       * did, since only four flag registers exist.
       */
      resource &r = db.res(RES_FLAGS);
      if (is_dst) {
         db.write(r, n);
      } else {
         const instr *def = f->def();
         const int d = def && def->parent() == dag.blk ? node_of(def) : -1;
         if (d >= 0)
            db.edge(d, n, dag.nodes[d].latency);
         r.reads.push_back(n);
      }
   };

   auto value_access = [&](const instr *in, const operand &o, bool is_dst,
                           unsigned n) {
      const value *v = o.val;
      if (!v)
         return;
      if (v->file == reg_file::flag) {
         flag_access(v, in, is_dst, n);
         return;
      }
      if (v->file == reg_file::hw_reg && v->phys.valid() &&
          v->phys.kind == phys_reg::grf) {
         /* Fixed registers, before allocation too: no write moves across
          * a read or write of the same bytes (reads may pass each other).
          */
         grf_access(in, o, is_dst, n);
         return;
      }
      if (v->file == reg_file::accum) {
         resource &r = db.res(RES_ACC);
         if (is_dst)
            db.write(r, n);
         else
            db.read(r, n);
         return;
      }
      if (physical && v->phys.valid() && v->phys.kind == phys_reg::grf) {
         grf_access(in, o, is_dst, n);
         return;
      }
      if (v->file == reg_file::wlr || v->file == reg_file::hw_reg) {
         resource &r = db.res(RES_WLR | v->id);
         if (is_dst)
            db.write(r, n);
         else
            db.read(r, n);
         return;
      }
      if (!is_dst && v->file == reg_file::ssa) {
         for (const instr *def : v->defs()) {
            const int d = node_of(def);
            if (d >= 0 && unsigned(d) < n)
               db.edge(d, n, dag.nodes[d].latency);
         }
      }
   };

   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      const instr *in = dag.nodes[n].in;

      if (last_barrier >= 0)
         db.edge(last_barrier, n, dag.nodes[last_barrier].issue);
      if (is_barrier(in)) {
         for (unsigned p : since_barrier)
            db.edge(p, n, 0);
         since_barrier.clear();
         last_barrier = n;
      } else {
         since_barrier.push_back(n);
      }

      /* Reads first, then writes: a read-modify-write of one resource
       * depends on the earlier write, and later readers on this one.
       */
      for (const operand &o : in->srcs())
         value_access(in, o, false, n);
      if (in->predicate())
         flag_access(in->predicate(), in, false, n);
      if (in->preserve().val)
         value_access(in, in->preserve(), false, n);
      if (in->info().reads_accum)
         db.read(db.res(RES_ACC), n);

      if (touches_memory(in)) {
         resource &mem = db.res(RES_MEM);
         if (in->has_side_effects())
            db.write(mem, n);
         else
            db.read(mem, n);
      }

      for (const operand &d : in->dsts())
         value_access(in, d, true, n);
      if (in->flag_def())
         flag_access(in->flag_def(), in, true, n);
      if (in->info().writes_accum)
         db.write(db.res(RES_ACC), n);
   }

   /* Predecessor lists and critical paths (edges point forward). */
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      for (const sched_edge &e : dag.nodes[n].succs)
         dag.nodes[e.node].preds.push_back({n, e.latency});
   }
   for (unsigned n = dag.nodes.size(); n-- > 0;) {
      sched_node &node = dag.nodes[n];
      unsigned path = std::max(node.issue, node.latency);
      for (const sched_edge &e : node.succs)
         path = std::max(path, e.latency + dag.nodes[e.node].path);
      node.path = path;
   }
   return dag;
}

void
apply_schedule(sched_dag &dag, const std::vector<unsigned> &order)
{
   std::vector<instr *> all;
   all.reserve(dag.head.size() + order.size() + dag.tail.size());
   all.insert(all.end(), dag.head.begin(), dag.head.end());
   for (unsigned n : order)
      all.push_back(dag.nodes[n].in);
   all.insert(all.end(), dag.tail.begin(), dag.tail.end());
   dag.blk->reorder(all);
}

} /* namespace ibis */
