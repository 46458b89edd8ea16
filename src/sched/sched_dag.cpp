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

#include "ir/ibis_perf.h"
#include "util/ibis_error.h"

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

/* Fixed resources, numbered before the values' (sched_dag_scratch). */
enum : unsigned {
   RES_FLAGS,
   RES_ACC,
   RES_MEM,
   RES_FLAG_PHYS,                     /* eight 16-bit flag halves */
   NUM_FIXED_RES = RES_FLAG_PHYS + 8,
};

/* Bytes [lo, hi) of a 32-byte register, 0 <= lo < hi <= 32. */
uint32_t
byte_mask(unsigned lo, unsigned hi)
{
   const uint32_t below_hi = hi >= 32 ? ~0u : (1u << hi) - 1;
   return below_hi & ~((1u << lo) - 1);
}

class dag_builder {
public:
   dag_builder(sched_dag &dag, sched_dag_scratch &sc, unsigned value_bound)
      : dag(dag), sc(sc)
   {
      sc.stamp.assign(dag.nodes.size(), ~0u);
      sc.edge_of.resize(dag.nodes.size());
      sc.resources.assign(NUM_FIXED_RES, {});
      sc.links.clear();
      sc.node_preds.clear();
      if (sc.resource_of_value.size() < value_bound)
         sc.resource_of_value.resize(value_bound, -1);
      if (sc.grf_writers.empty()) {
         sc.grf_writers.resize(device_info::grf_count);
         sc.grf_readers.resize(device_info::grf_count);
         sc.grf_seen.assign(device_info::grf_count, 0);
      }
   }

   /* Leaves the shared arrays as it found them. */
   ~dag_builder()
   {
      for (unsigned id : sc.values_seen)
         sc.resource_of_value[id] = -1;
      sc.values_seen.clear();
      for (unsigned g : sc.grfs_seen) {
         sc.grf_writers[g].clear();
         sc.grf_readers[g].clear();
         sc.grf_seen[g] = 0;
      }
      sc.grfs_seen.clear();
   }

   /* Edges to node `to` gather in node_preds while it is built (each
    * earlier node once, with its largest latency), then move to the
    * graph in node order.
    */
   void edge(unsigned from, unsigned to, unsigned latency)
   {
      if (from == to)
         return;
      if (sc.stamp[from] == to) {
         sched_edge &e = sc.node_preds[sc.edge_of[from]];
         e.latency = std::max(e.latency, latency);
         return;
      }
      sc.stamp[from] = to;
      sc.edge_of[from] = sc.node_preds.size();
      sc.node_preds.push_back({from, latency});
   }

   /* Node n is complete: its predecessors go to the graph. */
   void finish_node(unsigned n)
   {
      std::sort(sc.node_preds.begin(), sc.node_preds.end(),
                [](const sched_edge &a, const sched_edge &b) {
                   return a.node < b.node;
                });
      dag.nodes[n].first_pred = dag.pred_edges.size();
      dag.nodes[n].num_preds = sc.node_preds.size();
      dag.pred_edges.insert(dag.pred_edges.end(), sc.node_preds.begin(),
                            sc.node_preds.end());
      sc.node_preds.clear();
   }

   sched_dag_scratch::resource &res(unsigned i) { return sc.resources[i]; }

   /* The resource of a WLR (or unplaced HW_REG) value. */
   sched_dag_scratch::resource &value_res(const value *v)
   {
      int &r = sc.resource_of_value[v->id];
      if (r < 0) {
         r = int(sc.resources.size());
         sc.resources.push_back({});
         sc.values_seen.push_back(v->id);
      }
      return sc.resources[r];
   }

   void add_read(sched_dag_scratch::resource &r, unsigned n)
   {
      sc.links.push_back({n, r.reads});
      r.reads = int(sc.links.size() - 1);
   }

   void read(sched_dag_scratch::resource &r, unsigned n)
   {
      if (r.last_write >= 0)
         edge(r.last_write, n, dag.nodes[r.last_write].latency);
      add_read(r, n);
   }

   void write(sched_dag_scratch::resource &r, unsigned n)
   {
      if (r.last_write >= 0)
         edge(r.last_write, n, 0);
      for (int i = r.reads; i >= 0; i = sc.links[i].next)
         edge(sc.links[i].node, n, 0);
      r.reads = -1;
      r.last_write = n;
   }

   void touch_grf(unsigned g)
   {
      if (!sc.grf_seen[g]) {
         sc.grf_seen[g] = 1;
         sc.grfs_seen.push_back(g);
      }
   }

   /* Register file bytes, one 32-byte register at a time: the same edges
    * as a last writer and reads per byte, at a register's cost.
    */
   void read_grf(unsigned g, uint32_t bytes, unsigned n)
   {
      touch_grf(g);
      for (const sched_dag_scratch::grf_access &w : sc.grf_writers[g]) {
         if (w.bytes & bytes)
            edge(w.node, n, dag.nodes[w.node].latency);
      }
      std::vector<sched_dag_scratch::grf_access> &rd = sc.grf_readers[g];
      if (!rd.empty() && rd.back().node == n)
         rd.back().bytes |= bytes;
      else
         rd.push_back({n, bytes});
   }

   /* Drops `bytes` from the accesses of list, each that had any of them
    * getting an edge to n.
    */
   void overwrite(std::vector<sched_dag_scratch::grf_access> &list,
                  uint32_t bytes, unsigned n)
   {
      unsigned k = 0;
      for (unsigned i = 0; i < list.size(); i++) {
         sched_dag_scratch::grf_access a = list[i];
         if (a.bytes & bytes) {
            edge(a.node, n, 0);
            a.bytes &= ~bytes;
         }
         if (a.bytes)
            list[k++] = a;
      }
      list.resize(k);
   }

   void write_grf(unsigned g, uint32_t bytes, unsigned n)
   {
      touch_grf(g);
      overwrite(sc.grf_writers[g], bytes, n);
      overwrite(sc.grf_readers[g], bytes, n);
      sc.grf_writers[g].push_back({n, bytes});
   }

   sched_dag &dag;
   sched_dag_scratch &sc;
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

bool
sched_region_reorderable(block *b)
{
   auto it = b->begin();
   if (it != b->end() && (*it)->is_block_start())
      ++it;
   while (it != b->end() && (*it)->is_phi())
      ++it;
   const auto end = b->before_jump();
   unsigned n = 0;
   for (; it != end && n < 2; ++it)
      n++;
   return n >= 2;
}

sched_dag
build_sched_dag(block *b, bool physical, const device_info &dev)
{
   sched_dag_scratch scratch;
   return build_sched_dag(b, physical, dev, scratch);
}

sched_dag
build_sched_dag(block *b, bool physical, const device_info &dev,
                sched_dag_scratch &sc)
{
   sched_dag dag;
   build_sched_dag(b, physical, dev, sc, dag);
   return dag;
}

void
build_sched_dag(block *b, bool physical, const device_info &dev,
                sched_dag_scratch &sc, sched_dag &dag)
{
   dag.blk = b;
   dag.head.clear();
   dag.tail.clear();
   dag.nodes.clear();
   dag.pred_edges.clear();
   dag.succ_edges.clear();
   auto it = b->begin();
   if (it != b->end() && (*it)->is_block_start())
      dag.head.push_back(*it++);
   while (it != b->end() && (*it)->is_phi())
      dag.head.push_back(*it++);
   auto end = b->before_jump();
   dag.nodes.reserve(b->instrs().size());
   for (; it != end; ++it) {
      sched_node n;
      n.in = *it;
      instr_perf p = perf_of(n.in, dev);
      n.issue = p.issue;
      n.latency = p.latency;
      dag.nodes.push_back(n);
   }
   for (; it != b->end(); ++it)
      dag.tail.push_back(*it);

   dag_builder db(dag, sc, b->parent()->value_id_bound());

   /* Node of each instruction of the region: a sorted array (a hash map
    * allocated a node per instruction).
    */
   std::vector<std::pair<const instr *, unsigned>> &index_of = sc.index_of;
   index_of.clear();
   for (unsigned i = 0; i < dag.nodes.size(); i++)
      index_of.push_back({dag.nodes[i].in, i});
   std::sort(index_of.begin(), index_of.end());
   auto node_of = [&](const instr *in) -> int {
      auto it = std::lower_bound(index_of.begin(), index_of.end(),
                                 std::make_pair(in, 0u));
      return it != index_of.end() && it->first == in ? int(it->second) : -1;
   };

   int last_barrier = -1;
   std::vector<unsigned> &since_barrier = sc.since_barrier;
   since_barrier.clear();

   /* The halts of the region, for the range a node's readers must lie in
    * to follow one.
    */
   std::vector<unsigned> &halts = sc.halts;
   halts.clear();
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      if (dag.nodes[n].in->op == opcode::halt)
         halts.push_back(n);
   }

   /* Does operand o of in give (or take) each channel of in the same
    * channel of v: no region, v's element size, and the offset's element
    * within a component that of in's first channel?  Pieces of a SIMD32
    * value (a group of 16 at 64 bytes) do.
    */
   auto channel_wise = [](const instr *in, const operand &o, const value *v) {
      const unsigned bits = type_bits(o.type);
      if (o.has_region || bits < 8 || bits != v->bit_size() ||
          o.offset % (bits / 8) || in->group < v->group)
         return false;
      const unsigned elem = o.offset % v->component_bytes() / (bits / 8);
      return elem == unsigned(in->group - v->group) &&
             elem + in->exec_size <= v->width;
   };

   /* A payload that only masked instructions read (a send's sources)
    * after a halt of whole quads (all4h): they leave the halted channels'
    * data alone, as an ALU reader does.  After a halt of single pixels a
    * sampler still reads the halted ones, for the derivatives of their
    * quad.
    */
   auto masked_payload = [&](const instr *in, unsigned h) {
      if (!(dag.nodes[h].in->flags & INSTR_QUAD_ALL) ||
          in->op != opcode::load_payload || in->num_dsts() != 1 ||
          !in->dst(0).val)
         return false;
      for (const use &u : in->dst(0).val->uses()) {
         if (u.in->we_all())
            return false;
      }
      return true;
   };

   /* Can node x, before the predicated halt h, go after it?  Only a
    * register-to-register computation of SSA or WLR values (all of whose
    * writes are in the region) each read only between h and the next
    * halt (next): a thread whose channels all halt then skips it and its
    * readers alike, and where some channels halt, it leaves theirs
    * unwritten, which only readers of their own channels under the mask,
    * which do not write them either, read (a NoMask definition writes
    * them all anyway).  The halt target (the last halt) comes no earlier
    * than next, where the halted channels come back.  No reader keeps it
    * as the old value of the channels it leaves (a preserve): where every
    * channel halts, the thread goes to the target with neither run, and
    * the target reads those channels (the live mask's NoMask zero).
    * Where a WLR value's other writes stay before the halt, their order
    * keeps this one there too (the ancestors below).
    */
   auto may_follow = [&](unsigned x, unsigned h, unsigned next) {
      const instr *in = dag.nodes[x].in;
      const opcode_kind k = in->info().kind;
      if ((k != opcode_kind::alu && k != opcode_kind::math) || !in->num_dsts() ||
          in->predicate() || in->flag_def() || in->preserve().val ||
          in->has_side_effects() || in->info().reads_accum ||
          in->info().writes_accum)
         return false;
      const bool masked = !in->we_all();
      for (const operand &d : in->dsts()) {
         const value *v = d.val;
         if (!v || (v->file != reg_file::ssa && v->file != reg_file::wlr) ||
             v->uses().empty() || (masked && !channel_wise(in, d, v)))
            return false;
         for (const instr *def : v->defs()) {
            if (node_of(def) < 0)
               return false;
         }
         for (const use &u : v->uses()) {
            const int r = node_of(u.in);
            if (r <= int(h) || unsigned(r) >= next || u.slot < 0)
               return false;
            if (!masked)
               continue;
            const opcode_kind rk = u.in->info().kind;
            if ((rk != opcode_kind::alu && rk != opcode_kind::math &&
                 !masked_payload(u.in, h)) ||
                u.in->we_all() || !channel_wise(u.in, u.in->src(u.slot), v))
               return false;
         }
      }
      return true;
   };
   std::vector<unsigned> &carried = sc.carried;
   unsigned halts_seen = 0;

   auto grf_access = [&](const instr *in, const operand &o, bool is_dst,
                         unsigned n) {
      const value *v = o.val;
      unsigned start, len;
      operand_byte_range(in, o, is_dst, &start, &len);
      const unsigned nbytes = device_info::grf_count * device_info::grf_bytes;
      const unsigned base = v->phys.nr * device_info::grf_bytes + v->phys.subreg;
      const unsigned lo = base + start;
      const unsigned hi = std::min<unsigned>(lo + len, nbytes);
      for (unsigned g = lo / 32; lo < hi && g <= (hi - 1) / 32; g++) {
         const uint32_t bytes = byte_mask(std::max(lo, g * 32) - g * 32,
                                          std::min(hi, g * 32 + 32) - g * 32);
         /* A predicated write keeps the old bytes of its disabled
          * channels: it reads them too (for the latency; order holds
          * without it).
          */
         if (is_dst && in->predicate() && in->op != opcode::send)
            db.read_grf(g, bytes, n);
         if (is_dst)
            db.write_grf(g, bytes, n);
         else
            db.read_grf(g, bytes, n);
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
      for (unsigned g = vlo / 32; vlo < vhi && g <= (vhi - 1) / 32; g++) {
         uint32_t rest = byte_mask(std::max(vlo, g * 32) - g * 32,
                                   std::min(vhi, g * 32 + 32) - g * 32);
         if (lo < hi && g * 32 < hi && g * 32 + 32 > lo)
            rest &= ~byte_mask(std::max(lo, g * 32) - g * 32,
                               std::min(hi, g * 32 + 32) - g * 32);
         if (!rest)
            continue;
         db.touch_grf(g);
         for (const sched_dag_scratch::grf_access &w : sc.grf_writers[g]) {
            if (w.bytes & rest)
               db.edge(w.node, n, 0);
         }
         for (const sched_dag_scratch::grf_access &r : sc.grf_readers[g]) {
            if ((r.bytes & rest) && !accesses(dag.nodes[r.node].in, v))
               db.edge(r.node, n, 0);
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
         IBIS_CHECK(last < NUM_FIXED_RES - RES_FLAG_PHYS,
                    "flag f%u.%u out of range", f->phys.nr, f->phys.subreg);
         for (unsigned i = first; i <= last; i++) {
            sched_dag_scratch::resource &r = db.res(RES_FLAG_PHYS + i);
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
      sched_dag_scratch::resource &r = db.res(RES_FLAGS);
      if (is_dst) {
         db.write(r, n);
      } else {
         const instr *def = f->def();
         const int d = def && def->parent() == dag.blk ? node_of(def) : -1;
         if (d >= 0)
            db.edge(d, n, dag.nodes[d].latency);
         db.add_read(r, n);
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
         sched_dag_scratch::resource &r = db.res(RES_ACC);
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
         sched_dag_scratch::resource &r = db.value_res(v);
         if (is_dst)
            db.write(r, n);
         else
            db.read(r, n);
         return;
      }
      if (!is_dst && v->file == reg_file::ssa) {
         for (const instr *def : v->defs()) {
            /* Only this block's instructions are nodes: most values
             * read come from other blocks, no search needed for them.
             */
            const int d = def->parent() == dag.blk ? node_of(def) : -1;
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
         /* Before RA, what a predicated halt does not need may go after
          * it (and the schedulers put it there); after RA the order of
          * the pre-RA schedule stays.
          */
         const bool early_exit = !physical && in->op == opcode::halt &&
                                 in->predicate();
         unsigned next = dag.nodes.size();
         if (in->op == opcode::halt && ++halts_seen < halts.size())
            next = halts[halts_seen];
         carried.clear();
         for (unsigned p : since_barrier) {
            if (early_exit && may_follow(p, n, next)) {
               dag.nodes[p].follows = int(n);
               carried.push_back(p);
            } else {
               db.edge(p, n, 0);
            }
         }
         /* Those still precede the next barrier. */
         since_barrier.swap(carried);
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
         sched_dag_scratch::resource &mem = db.res(RES_MEM);
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
      db.finish_node(n);
   }

   /* Successor lists (edges point forward, so each list comes out in
    * node order) and critical paths.
    */
   std::vector<unsigned> &count = sc.stamp;
   count.assign(dag.nodes.size() + 1, 0);
   for (const sched_edge &e : dag.pred_edges)
      count[e.node + 1]++;
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      count[n + 1] += count[n];
      dag.nodes[n].first_succ = count[n];
   }
   dag.succ_edges.resize(dag.pred_edges.size());
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      for (const sched_edge &e : dag.preds(n)) {
         sched_node &from = dag.nodes[e.node];
         dag.succ_edges[from.first_succ + from.num_succs++] = {n, e.latency};
      }
   }
   /* A node that another path (a register it reads that a node before
    * the halt overwrites) orders before the halt stays before it.
    */
   if (!physical && !halts.empty()) {
      std::vector<unsigned> &seen = sc.edge_of, &stack = carried;
      for (unsigned h : halts) {
         bool any = false;
         for (unsigned n = 0; n < h && !any; n++)
            any = dag.nodes[n].follows == int(h);
         if (!any)
            continue;
         seen.assign(dag.nodes.size(), 0);
         stack.assign(1, h);
         while (!stack.empty()) {
            const unsigned m = stack.back();
            stack.pop_back();
            for (const sched_edge &e : dag.preds(m)) {
               if (!seen[e.node]) {
                  seen[e.node] = 1;
                  stack.push_back(e.node);
               }
            }
         }
         for (unsigned n = 0; n < h; n++) {
            if (dag.nodes[n].follows == int(h) && seen[n])
               dag.nodes[n].follows = -1;
         }
      }
   }

   for (unsigned n = dag.nodes.size(); n-- > 0;) {
      unsigned path = std::max(dag.nodes[n].issue, dag.nodes[n].latency);
      for (const sched_edge &e : dag.succs(n))
         path = std::max(path, e.latency + dag.nodes[e.node].path);
      dag.nodes[n].path = path;
   }
}

void
apply_schedule(sched_dag &dag, const std::vector<unsigned> &order)
{
   /* Many blocks keep their order; rebuilding the block would only
    * reallocate its list.
    */
   bool same = true;
   for (unsigned i = 0; i < order.size() && same; i++)
      same = order[i] == i;
   if (same && order.size() == dag.nodes.size())
      return;
   std::vector<instr *> all;
   all.reserve(dag.head.size() + order.size() + dag.tail.size());
   all.insert(all.end(), dag.head.begin(), dag.head.end());
   for (unsigned n : order)
      all.push_back(dag.nodes[n].in);
   all.insert(all.end(), dag.tail.begin(), dag.tail.end());
   dag.blk->reorder(all);
}

} /* namespace ibis */
