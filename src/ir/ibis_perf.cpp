/*
 * The static performance model (ibis_perf.h).
 *
 * The model is brw's (brw_ir_performance.cpp): the EU front end issues one
 * hardware instruction after another; each instruction also occupies a
 * back-end unit (FPU, extended math, or one of the shared functions) for a
 * while, and its results become readable some cycles after issue.  An
 * instruction stalls the front end until the registers it reads (and the
 * ones it overwrites) are ready and until its unit is free.  The program's
 * cycles are the front end's elapsed time, instructions in loops weighing
 * ten times as much, as brw weighs them.
 *
 * The figures in unit_cost() are brw's Gen8-10 ones; each is a linear
 * function of the destination size (sd, GRFs), the execution size in GRFs
 * (sx) and, for sends, the payload size (ss).
 *
 * Dependencies follow physical registers where a value has one, and the
 * value's own 32-byte registers otherwise, so the same code serves
 * unallocated and allocated IR.
 */
#include "ir/ibis_perf.h"

#include <algorithm>

namespace ibis {

namespace {

enum eu_unit : uint8_t {
   UNIT_FE,
   UNIT_FPU,
   UNIT_EM,
   UNIT_SAMPLER,
   UNIT_PI,
   UNIT_URB,
   UNIT_DP_DC,
   UNIT_DP_RC,
   UNIT_DP_CC,
   UNIT_GATEWAY,
   UNIT_SPAWNER,
   NUM_UNITS,
   UNIT_NULL = NUM_UNITS,
};

/* One hardware instruction's timing, as brw's perf_desc: front-end and
 * back-end occupancy, and the latencies until the sources are read and the
 * destination, accumulator and flag are written.
 */
struct cost {
   eu_unit unit = UNIT_NULL;
   int df = 0, db = 0, ls = 0, ld = 0, la = 0, lf = 0;
};

/* The sizes the figures depend on. */
struct piece_info {
   unsigned sd = 0;   /* destination GRFs */
   unsigned sx = 0;   /* execution size in GRFs */
   unsigned ss = 0;   /* payload GRFs (sends) */
   unsigned sc = 0;   /* bank conflict penalty (GRFs) */
   unsigned tx = 4;   /* execution type bytes */
};

/* brw's linear form: X = X_1 + X_sd * sd + ... */
cost
linear(const piece_info &p, eu_unit u, int df_1, int df_sd, int df_sc,
       int db_1, int db_sx, int ls_1, int ld_1, int la_1, int lf_1,
       int l_ss, int l_sd)
{
   cost c;
   c.unit = u;
   c.df = df_1 + df_sd * int(p.sd) + df_sc * int(p.sc);
   c.db = db_1 + db_sx * int(p.sx);
   c.ls = ls_1 + l_ss * int(p.ss);
   c.ld = ld_1 + l_ss * int(p.ss) + l_sd * int(p.sd);
   c.la = la_1;
   c.lf = lf_1;
   return c;
}

/* Gen9 shared function ids (isa_tables.py). */
enum : unsigned {
   SFID_SAMPLER = 2,
   SFID_GATEWAY = 3,
   SFID_RENDER_CACHE = 5,
   SFID_URB = 6,
   SFID_THREAD_SPAWNER = 7,
   SFID_CONST_CACHE = 9,
   SFID_DATA_CACHE = 10,
   SFID_PIXEL_INTERP = 11,
   SFID_DATA_CACHE1 = 12,
};

/* A send's figures from its shared function and descriptor; spill_fill:
 * a spill or fill (INSTR_SPILL, INSTR_FILL).
 */
cost
send_cost(unsigned sfid, uint32_t desc, bool spill_fill, const piece_info &p)
{
   /* Data port message type, descriptor bits 18:14. */
   const unsigned msg_type = (desc >> 14) & 0x1f;

   switch (sfid) {
   case SFID_SAMPLER:
      return linear(p, UNIT_SAMPLER, 2, 0, 0, 0, 16, 8, 750, 0, 0, 2, 0);
   case SFID_URB:
      return linear(p, UNIT_URB, 2, 0, 0, 0, 6, 32, 200, 0, 0, 0, 0);
   case SFID_CONST_CACHE:
      return linear(p, UNIT_DP_CC, 2, 0, 0, 0, 16, 10, 100, 0, 0, 0, 0);
   case SFID_RENDER_CACHE:
      if (msg_type == 6) /* typed atomic */
         return linear(p, UNIT_DP_RC, 2, 0, 0, 30, 450, 10, 100, 0, 0, 0, 400);
      if (msg_type == 7) /* memory fence: brw's MEMORY_FENCE */
         return linear(p, UNIT_DP_RC, 2, 0, 0, 30, 0, 10, 300, 0, 0, 0, 0);
      return linear(p, UNIT_DP_RC, 2, 0, 0, 0, 450, 10, 300, 0, 0, 0, 0);
   case SFID_DATA_CACHE:
   case SFID_DATA_CACHE1:
      /* brw models spills, fills and scratch arrays as its scratch
       * opcodes, fences as MEMORY_FENCE; neither is a SEND when it
       * estimates, so they get their own figures.
       */
      if (spill_fill ||
          (sfid == SFID_DATA_CACHE && (desc & (1u << 18))))
         return linear(p, UNIT_DP_DC, 2, 0, 0, 0, 8, 10, 100, 0, 0, 0, 0);
      if (sfid == SFID_DATA_CACHE && msg_type == 7)
         return linear(p, UNIT_DP_DC, 2, 0, 0, 30, 0, 10, 100, 0, 0, 0, 0);
      /* brw tests the Haswell port-1 message types on both ports. */
      if (msg_type == 2 || msg_type == 3 || msg_type == 6 || msg_type == 7)
         return linear(p, UNIT_DP_DC, 2, 0, 0, 30, 400, 10, 100, 0, 0, 0, 400);
      return linear(p, UNIT_DP_DC, 2, 0, 0, 0, 20, 10, 100, 0, 0, 0, 0);
   case SFID_PIXEL_INTERP:
      return linear(p, UNIT_PI, 2, 0, 0, 14, 0, 0, 90, 0, 0, 0, 0);
   case SFID_GATEWAY:
      /* brw's BARRIER (the send and its wait, one instruction to brw). */
      return linear(p, UNIT_GATEWAY, 90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
   case SFID_THREAD_SPAWNER:
      return linear(p, UNIT_SPAWNER, 2, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0);
   default:
      /* Unknown shared function: the data cache's ordinary figures. */
      return linear(p, UNIT_DP_DC, 2, 0, 0, 0, 20, 10, 100, 0, 0, 0, 0);
   }
}

/* Simple FPU operations at Gen8-10: 64-bit execution halves throughput. */
cost
fpu_simple(const piece_info &p, int df_sc = 0)
{
   if (p.tx > 4)
      return linear(p, UNIT_FPU, 0, 4, df_sc, 0, 4, 0, 12, 8, 16, 0, 0);
   return linear(p, UNIT_FPU, 0, 2, df_sc, 0, 2, 0, 8, 4, 12, 0, 0);
}

/* The figures of op; a send's come from sfid, desc and spill_fill. */
cost
unit_cost(opcode op, unsigned sfid, uint32_t desc, bool spill_fill, const piece_info &p)
{
   switch (op) {
   case opcode::bfe:
   case opcode::bfi2:
   case opcode::csel:
      return linear(p, UNIT_FPU, 0, 2, 1, 0, 2, 0, 8, 4, 12, 0, 0);
   case opcode::mad:
   case opcode::madm:
      return fpu_simple(p, 1);
   case opcode::dp4:
   case opcode::dph:
   case opcode::dp3:
   case opcode::dp2:
      return linear(p, UNIT_FPU, 0, 2, 0, 0, 2, 0, 12, 8, 16, 0, 0);
   case opcode::pln:
      return linear(p, UNIT_FPU, 0, 4, 0, 0, 4, 0, 12, 8, 16, 0, 0);
   case opcode::lrp:
      return linear(p, UNIT_FPU, 0, 4, 1, 0, 4, 0, 12, 8, 16, 0, 0);
   case opcode::math_inv:
   case opcode::math_rsq:
   case opcode::math_sqrt:
   case opcode::math_exp:
   case opcode::math_log:
   case opcode::math_sin:
   case opcode::math_cos:
   case opcode::math_invm:
   case opcode::math_rsqrtm:
      return linear(p, UNIT_EM, -2, 4, 0, 0, 4, 0, 16, 0, 0, 0, 0);
   case opcode::math_pow:
      return linear(p, UNIT_EM, -2, 4, 0, 0, 8, 0, 24, 0, 0, 0, 0);
   case opcode::math_idiv:
   case opcode::math_irem:
   case opcode::math_idivrem:
      return linear(p, UNIT_EM, 2, 0, 0, 26, 0, 0, 28, 0, 0, 0, 0);
   case opcode::do_:
   case opcode::undef:
   case opcode::phi:
   case opcode::parallel_copy:
      return cost();
   case opcode::if_:
   case opcode::else_:
   case opcode::endif:
   case opcode::while_:
   case opcode::break_:
   case opcode::cont:
   case opcode::halt:
      return linear(p, UNIT_NULL, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
   case opcode::mov_indirect:
      return linear(p, UNIT_FPU, 34, 0, 0, 34, 0, 0, 8, 4, 12, 0, 0);
   case opcode::broadcast:
      return linear(p, UNIT_FPU, 18, 0, 0, 4, 0, 0, 8, 4, 12, 0, 0);
   case opcode::find_live_channel:
      return linear(p, UNIT_FPU, 2, 0, 0, 2, 0, 0, 8, 4, 12, 0, 0);
   case opcode::shuffle:
      return linear(p, UNIT_FPU, 42, 0, 0, 42, 0, 0, 8, 4, 12, 0, 0);
   case opcode::wait:
      /* Part of brw's BARRIER, which the gateway send accounts for. */
      return cost();
   case opcode::send:
      return send_cost(sfid, desc, spill_fill, p);
   default:
      break;
   }

   /* Logical sends only appear before lowering; cost them by latency
    * class as the send they become would.
    */
   switch (op_info(op).latency) {
   case latency_class::sampler:
      return linear(p, UNIT_SAMPLER, 2, 0, 0, 0, 16, 8, 750, 0, 0, 2, 0);
   case latency_class::urb:
      return linear(p, UNIT_URB, 2, 0, 0, 0, 6, 32, 200, 0, 0, 0, 0);
   case latency_class::rt:
      return linear(p, UNIT_DP_RC, 2, 0, 0, 0, 450, 10, 300, 0, 0, 0, 0);
   case latency_class::dataport:
      if (op == opcode::uniform_block_read_logical)
         return linear(p, UNIT_DP_CC, 2, 0, 0, 0, 16, 10, 100, 0, 0, 0, 0);
      if (op == opcode::varying_pull_constant_logical)
         return linear(p, UNIT_SAMPLER, 2, 0, 0, 0, 16, 8, 750, 0, 0, 2, 0);
      return linear(p, UNIT_DP_DC, 2, 0, 0, 0, 20, 10, 100, 0, 0, 0, 0);
   case latency_class::barrier:
      if (op == opcode::barrier)
         return linear(p, UNIT_GATEWAY, 90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      if (op == opcode::thread_end_logical)
         return linear(p, UNIT_SPAWNER, 2, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0);
      return linear(p, UNIT_DP_DC, 2, 0, 0, 30, 0, 10, 100, 0, 0, 0, 0);
   case latency_class::none:
      return cost();
   default:
      /* Every other ALU operation, moves, copies and the pseudo-ops that
       * become moves: brw's simple FPU figures.
       */
      return fpu_simple(p);
   }
}

cost
unit_cost(const instr *in, const piece_info &p)
{
   if (in->op != opcode::send)
      return unit_cost(in->op, 0, 0, false, p);
   return unit_cost(in->op, in->src(0).is_imm() ? unsigned(in->src(0).imm) : 0,
                    in->src(1).is_imm() ? uint32_t(in->src(1).imm) : 0,
                    (in->flags & (INSTR_SPILL | INSTR_FILL)) != 0, p);
}

bool
is_scalar_operand(const operand &o)
{
   if (!o.val)
      return true;
   if (o.val->width == 1)
      return true;
   return o.has_region && o.rgn.vstride == 0 && o.rgn.width == 1 &&
          o.rgn.hstride == 0;
}

unsigned
type_bytes(data_type t)
{
   return std::max(1u, type_bits(t) / 8);
}

/* Bytes per channel of a non-scalar operand (its stride included). */
unsigned
channel_bytes(const operand &o, bool is_dst)
{
   unsigned stride = 1;
   if (o.has_region)
      stride = is_dst ? std::max<unsigned>(1, o.rgn.hstride)
                      : std::max<unsigned>(1, o.rgn.hstride);
   return type_bytes(o.type) * stride;
}

/* 32x32-bit integer multiplies run at half rate: brw costs them as 64-bit. */
bool
is_slow_int_mul(const instr *in)
{
   if (in->op != opcode::mul && in->op != opcode::mad)
      return false;
   if (in->num_srcs() < 2)
      return false;
   const data_type t0 = in->src(0).type, t1 = in->src(1).type;
   return !type_is_float(t0) && type_bits(t0) == 32 &&
          type_bits(t0) == type_bits(t1);
}

/* brw's execution type (the largest source type, else the destination's)
 * and the channels per hardware piece, as docs/backend.md §1 describes
 * code generation's split: no operand of a piece spans more than two
 * GRFs, integer division runs at SIMD8; sends and control flow are single
 * instructions.  One pass over the operands gives both: every estimate
 * and every perf_of() needs them for each instruction.
 */
struct instr_shape {
   unsigned tx_bytes;
   unsigned piece_width;
};

instr_shape
shape_of(const instr *in)
{
   unsigned t = 0, bytes = 0;
   for (const operand &o : in->srcs()) {
      if (!o.is_null() && o.type != data_type::v && o.type != data_type::uv &&
          o.type != data_type::vf && o.type != data_type::flag)
         t = std::max(t, type_bytes(o.type));
      if (o.val && !is_scalar_operand(o))
         bytes = std::max(bytes, channel_bytes(o, false));
   }
   for (const operand &d : in->dsts()) {
      if (d.val)
         bytes = std::max(bytes, channel_bytes(d, true));
   }
   if (!t && in->num_dsts() && !in->dst(0).is_null())
      t = type_bytes(in->dst(0).type);

   instr_shape sh;
   sh.tx_bytes = t ? t : 4;
   unsigned w = std::max<unsigned>(1, in->exec_size);
   const opcode_kind kind = in->info().kind;
   if (kind != opcode_kind::send && kind != opcode_kind::logical &&
       kind != opcode_kind::cf && in->op != opcode::load_payload) {
      if (in->op == opcode::math_idiv || in->op == opcode::math_irem ||
          in->op == opcode::math_idivrem)
         w = std::min(w, 8u);
      while (w > 1 && w * bytes > 2 * device_info::grf_bytes)
         w /= 2;
   }
   sh.piece_width = w;
   return sh;
}

/* A dependency: a 32-byte register of a value or of the register file, a
 * flag or the accumulator.
 */
enum dep_kind : uint64_t { DEP_GRF, DEP_VALUE, DEP_FLAG, DEP_FLAG_VALUE, DEP_ACC };

uint64_t
dep_key(dep_kind k, uint64_t a, uint64_t b = 0)
{
   return (uint64_t(k) << 60) | (a << 24) | b;
}

/* The dependency of register `reg` (in 32-byte units from the value's
 * start) of v.
 */
uint64_t
grf_dep(const value *v, unsigned byte)
{
   if (v->phys.valid() && v->phys.kind == phys_reg::grf)
      return dep_key(DEP_GRF, v->phys.nr + (v->phys.subreg + byte) / 32);
   if (v->phys.valid() && v->phys.kind == phys_reg::acc)
      return dep_key(DEP_ACC, (v->phys.subreg + byte) / 32 % 2);
   return dep_key(DEP_VALUE, v->id, byte / 32);
}

uint64_t
flag_dep(const value *v, unsigned part)
{
   if (v->phys.valid() && v->phys.kind == phys_reg::flag)
      return dep_key(DEP_FLAG, v->phys.nr * 2u + v->phys.subreg + part);
   return dep_key(DEP_FLAG_VALUE, v->id, part);
}

/* Registers of operand o that piece k (of pw channels) touches. */
template <typename F>
void
for_each_reg(const operand &o, unsigned k, unsigned pw, bool is_dst, F fn)
{
   if (!o.val || o.val->file == reg_file::flag)
      return;
   if (!is_dst && is_scalar_operand(o)) {
      fn(grf_dep(o.val, o.offset));
      return;
   }
   const unsigned cb = channel_bytes(o, is_dst);
   unsigned first = o.offset + k * pw * cb;
   unsigned span = pw * cb;
   if (!is_dst && o.has_region && o.rgn.width) {
      const unsigned tb = type_bytes(o.type);
      const unsigned rows = std::max(1u, pw / o.rgn.width);
      first = o.offset + k * rows * o.rgn.vstride * tb;
      span = ((rows - 1) * o.rgn.vstride + (o.rgn.width - 1) * o.rgn.hstride + 1) * tb;
   }
   const unsigned limit = o.val->size_bytes();
   for (unsigned b = first / 32 * 32; b < first + span; b += 32) {
      if (limit && b >= limit && b != first / 32 * 32)
         break;
      fn(grf_dep(o.val, b));
   }
}

/* When each dependency of a program is ready: an open-addressing table
 * (a node-based hash map allocated an entry per register).  The first 32
 * slots live in the table itself.
 */
class dep_table {
public:
   dep_table() : slots(small), mask(num_small - 1)
   {
      clear_slots(small, num_small);
   }
   dep_table(const dep_table &) = delete;
   dep_table &operator=(const dep_table &) = delete;

   const unsigned *find(uint64_t key) const
   {
      for (unsigned i = hash(key);; i = (i + 1) & mask) {
         if (slots[i].key == key)
            return &slots[i].ready;
         if (slots[i].key == empty)
            return nullptr;
      }
   }

   unsigned &operator[](uint64_t key)
   {
      if (4 * (used + 1) > 3 * (mask + 1))
         grow();
      unsigned i = hash(key);
      while (slots[i].key != key && slots[i].key != empty)
         i = (i + 1) & mask;
      if (slots[i].key == empty) {
         slots[i].key = key;
         slots[i].ready = 0;
         used++;
      }
      return slots[i].ready;
   }

private:
   /* Dependency keys keep their top bits for the kind (at most 4). */
   static constexpr uint64_t empty = ~0ull;
   static constexpr unsigned num_small = 32;
   struct slot {
      uint64_t key;
      unsigned ready;
   };

   unsigned hash(uint64_t key) const
   {
      return unsigned((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
   }
   static void clear_slots(slot *s, unsigned n)
   {
      for (unsigned i = 0; i < n; i++)
         s[i].key = empty;
   }
   void grow()
   {
      const unsigned old_size = mask + 1;
      std::vector<slot> old(slots, slots + old_size);
      big.resize(old_size * 2);
      slots = big.data();
      mask = old_size * 2 - 1;
      clear_slots(slots, old_size * 2);
      used = 0;
      for (const slot &e : old) {
         if (e.key != empty)
            (*this)[e.key] = e.ready;
      }
   }

   slot small[num_small];
   std::vector<slot> big;
   slot *slots;
   unsigned mask;
   unsigned used = 0;
};

/* A whole program's dependencies: on allocated IR nearly all are GRFs,
 * which index an array; the rest go to a dep_table.  A dependency never
 * marked reads as ready at 0, which stalls nothing, so the array needs no
 * presence bits.
 */
class program_deps {
public:
   program_deps() { std::fill(grfs, grfs + num_grfs, 0u); }

   const unsigned *find(uint64_t key) const
   {
      if (is_grf(key))
         return &grfs[key >> 24];
      return rest.find(key);
   }
   static constexpr bool whole_program = true;
   /* A whole program always looks its stalls up. */
   bool any() const { return true; }

   unsigned &operator[](uint64_t key)
   {
      if (is_grf(key))
         return grfs[key >> 24];
      return rest[key];
   }

private:
   static constexpr unsigned num_grfs = 256;
   /* dep_key(DEP_GRF, nr): nr above bit 24, the kind and low bits 0. */
   static bool is_grf(uint64_t key)
   {
      return (key & 0xffffff) == 0 && (key >> 24) < num_grfs;
   }

   unsigned grfs[num_grfs];
   dep_table rest;
};

/* The dependencies of one instruction alone (perf_of()): few, so a list
 * searched in order beats hashing, and nothing needs clearing.
 */
class dep_list {
public:
   const unsigned *find(uint64_t key) const
   {
      for (unsigned i = 0; i < num; i++) {
         if (slots[i].key == key)
            return &slots[i].ready;
      }
      for (const slot &e : more) {
         if (e.key == key)
            return &e.ready;
      }
      return nullptr;
   }

   static constexpr bool whole_program = false;
   bool any() const { return num > 0; }

   unsigned &operator[](uint64_t key)
   {
      if (const unsigned *r = find(key))
         return *const_cast<unsigned *>(r);
      if (num < num_slots) {
         slots[num] = { key, 0 };
         return slots[num++].ready;
      }
      more.push_back({ key, 0 });
      return more.back().ready;
   }

private:
   static constexpr unsigned num_slots = 48;
   struct slot {
      uint64_t key;
      unsigned ready;
   };
   slot slots[num_slots];
   unsigned num = 0;
   std::vector<slot> more;
};

/* The simulated machine. */
template <typename deps>
struct machine_of {
   unsigned unit_ready[NUM_UNITS] = {};
   deps dep_ready;

   void stall(uint64_t dep)
   {
      if (const unsigned *ready = dep_ready.find(dep))
         unit_ready[UNIT_FE] = std::max(unit_ready[UNIT_FE], *ready);
   }
   static constexpr bool keeps_last_marks = deps::whole_program;

   /* When a result of the instruction issued last is ready. */
   unsigned ready_after(int latency) const
   {
      return unsigned(std::max(0, int(unit_ready[UNIT_FE]) + latency));
   }
   /* Records and returns when dep will be ready. */
   unsigned mark(uint64_t dep, int latency)
   {
      const unsigned ready = ready_after(latency);
      dep_ready[dep] = ready;
      return ready;
   }
   void execute(const cost &c)
   {
      unit_ready[UNIT_FE] = unsigned(std::max(0, int(unit_ready[UNIT_FE]) + c.df));
      if (c.unit < NUM_UNITS) {
         unit_ready[UNIT_FE] = std::max(unit_ready[UNIT_FE], unit_ready[c.unit]);
         unit_ready[c.unit] = unit_ready[UNIT_FE] + c.db;
      }
   }
};

bool
is_float_type(data_type t)
{
   return type_is_float(t);
}

/* Accumulator registers channels [c0, c0 + n) of an implicit accumulator
 * access use: brw numbers them by byte offset, integers taking twice the
 * room, and, as brw, an access that wraps touches none.
 */
template <typename F>
void
for_each_acc(const instr *in, unsigned c0, unsigned n, unsigned tx, bool fl, F fn)
{
   const unsigned scale = fl ? 1 : 2;
   const unsigned first = (c0 * tx * scale) / 32 % 2;
   const unsigned last = ((c0 + n - 1) * tx * scale) / 32 % 2;
   (void)in;
   for (unsigned j = first; j <= last; j++)
      fn(dep_key(DEP_ACC, j));
}

/* A hardware piece to issue: the instruction, the piece index and width,
 * or for load_payload the source it moves.
 */
struct piece {
   unsigned k = 0;
   unsigned width = 0;
   int payload_src = -1;
};

piece_info
info_of(const instr *in, const piece &pc, unsigned tx)
{
   piece_info p;
   p.tx = tx;
   p.sx = (pc.width * tx + 31) / 32;
   if (in->op == opcode::send) {
      const uint32_t desc = in->src(1).is_imm() ? uint32_t(in->src(1).imm) : 0;
      const uint32_t ex_desc = in->src(2).is_imm() ? uint32_t(in->src(2).imm) : 0;
      p.sd = (desc >> 20) & 0x1f;
      unsigned mlen = (desc >> 25) & 0xf;
      unsigned ex_mlen = in->num_srcs() > 4 && in->src(4).val ? (ex_desc >> 6) & 0xf : 0;
      p.ss = mlen + ex_mlen;
      return p;
   }
   if (in->num_dsts() && in->dst(0).val) {
      const operand &d = in->dst(0);
      unsigned bytes = d.val->width == 1 && pc.width == 1
                          ? type_bytes(d.type)
                          : pc.width * channel_bytes(d, true);
      if (in->op == opcode::math_idivrem || in->num_dsts() > 1)
         bytes = pc.width * channel_bytes(d, true);
      p.sd = (bytes + 31) / 32;
   }
   return p;
}

/* Does the allocated load_payload source i already sit where the
 * destination needs it (no move)?
 */
bool
payload_src_in_place(const instr *in, unsigned i, unsigned dst_byte)
{
   const operand &s = in->src(i);
   const operand &d = in->dst(0);
   if (!s.val || !d.val || !s.val->phys.valid() || !d.val->phys.valid())
      return false;
   if (s.val->phys.kind != phys_reg::grf || d.val->phys.kind != phys_reg::grf)
      return false;
   const unsigned sb = s.val->phys.nr * 32u + s.val->phys.subreg + s.offset;
   const unsigned db = d.val->phys.nr * 32u + d.val->phys.subreg + d.offset + dst_byte;
   return sb == db && s.val->width > 1;
}

bool
copy_in_place(const instr *in)
{
   const operand &s = in->src(0);
   const operand &d = in->dst(0);
   if (!s.val || !d.val || !s.val->phys.valid() || !d.val->phys.valid())
      return false;
   return s.val->phys == d.val->phys && s.offset == d.offset;
}

/* Issues one instruction on m.  *result_ready, if given, receives when its
 * last result (register, flag or accumulator) is ready.
 */
template <typename machine>
void
issue(machine &m, const instr *in, unsigned *result_ready = nullptr)
{
   if (in->op == opcode::copy && copy_in_place(in))
      return;
   auto result = [&](uint64_t d, int latency, bool keep) {
      const unsigned ready = keep ? m.mark(d, latency) : m.ready_after(latency);
      if (result_ready)
         *result_ready = std::max(*result_ready, ready);
   };

   const instr_shape shape = shape_of(in);
   const unsigned tx_bytes = shape.tx_bytes;
   const unsigned cost_tx = is_slow_int_mul(in) ? 8 : tx_bytes;
   const bool fl = in->num_srcs() && is_float_type(in->src(0).type);

   /* Each piece is issued as it is found (no list of them to allocate).
    * An instruction alone needs no record of its last piece's results:
    * nothing comes after to stall on them.
    */
   auto issue_piece = [&](const piece &pc, bool last) {
      const bool keep = !last || machine::keeps_last_marks;
      piece_info p = info_of(in, pc, cost_tx);
      p.sx = (pc.width * tx_bytes + 31) / 32;
      const cost c = unit_cost(in, p);
      const unsigned group = in->group + pc.k * pc.width;

      /* Stall on what the piece reads, and below on what it overwrites;
       * nothing stalls before anything is marked (an instruction alone,
       * its first piece).
       */
      const bool stalls = m.dep_ready.any();
      if (stalls) {
         if (pc.payload_src >= 0) {
            for_each_reg(in->src(pc.payload_src), pc.k, pc.width, false,
                         [&](uint64_t d) { m.stall(d); });
         } else {
            for (unsigned i = 0; i < in->num_srcs(); i++) {
               if (in->op == opcode::send && i < 3)
                  continue;
               const operand &o = in->src(i);
               if (in->op == opcode::send) {
                  /* Payloads are read whole. */
                  if (o.val)
                     for (unsigned b = 0; b < o.val->size_bytes(); b += 32)
                        m.stall(grf_dep(o.val, o.offset + b));
                  continue;
               }
               for_each_reg(o, pc.k, pc.width, false, [&](uint64_t d) { m.stall(d); });
            }
            if (in->preserve().val)
               for_each_reg(in->preserve(), pc.k, pc.width, true,
                            [&](uint64_t d) { m.stall(d); });
         }
         if (in->info().reads_accum)
            for_each_acc(in, group, pc.width, tx_bytes, fl,
                         [&](uint64_t d) { m.stall(d); });
         if (in->predicate())
            m.stall(flag_dep(in->predicate(), group / 16));
      }

      /* What it overwrites. */
      auto for_each_dst_reg = [&](auto fn) {
         for (unsigned j = 0; j < in->num_dsts(); j++) {
            const operand &d = in->dst(j);
            if (!d.val)
               continue;
            if (in->op == opcode::send || in->op == opcode::load_payload) {
               if (in->op == opcode::send) {
                  for (unsigned b = 0; b < d.val->size_bytes(); b += 32)
                     fn(grf_dep(d.val, d.offset + b));
               } else {
                  /* The part of the payload this source fills. */
                  const unsigned tb = type_bytes(d.type);
                  unsigned byte = 0;
                  for (int i = 0; i < pc.payload_src; i++) {
                     const operand &s = in->src(i);
                     byte += (s.val && s.val->width > 1
                                 ? std::min<unsigned>(s.val->width, d.val->width)
                                 : d.val->width) * tb;
                  }
                  byte += pc.k * pc.width * tb;
                  for (unsigned b = byte / 32 * 32; b < byte + pc.width * tb; b += 32)
                     fn(grf_dep(d.val, d.offset + b));
               }
               continue;
            }
            if (d.val->file == reg_file::accum) {
               fn(grf_dep(d.val, d.offset));
               continue;
            }
            for_each_reg(d, pc.k, pc.width, true, fn);
         }
      };
      if (stalls) {
         for_each_dst_reg([&](uint64_t d) { m.stall(d); });
         if (in->info().writes_accum)
            for_each_acc(in, group, pc.width, tx_bytes, fl,
                         [&](uint64_t d) { m.stall(d); });
         if (in->flag_def())
            m.stall(flag_dep(in->flag_def(), group / 16));
      }

      m.execute(c);

      /* A send's payload may be overwritten once the send has read it. */
      if (in->op == opcode::send && keep) {
         for (unsigned i = 3; i < in->num_srcs(); i++) {
            const operand &o = in->src(i);
            if (o.val)
               for (unsigned b = 0; b < o.val->size_bytes(); b += 32)
                  m.mark(grf_dep(o.val, o.offset + b), c.ls);
         }
      }
      for_each_dst_reg([&](uint64_t d) {
         result(d, (d >> 60) == DEP_ACC ? c.la : c.ld, keep);
      });
      if (in->info().writes_accum)
         for_each_acc(in, group, pc.width, tx_bytes, fl,
                      [&](uint64_t d) { result(d, c.la, keep); });
      if (in->flag_def())
         result(flag_dep(in->flag_def(), group / 16), c.lf, keep);
   };

   if (in->op == opcode::load_payload && in->num_dsts() && in->dst(0).val) {
      /* One move per source not already in place (brw lowers LOAD_PAYLOAD
       * to moves before it estimates).
       */
      const operand &d = in->dst(0);
      const unsigned w = std::max<unsigned>(1, d.val->width);
      const unsigned tb = type_bytes(d.type);
      unsigned byte = 0;
      for (unsigned i = 0; i < in->num_srcs(); i++) {
         const operand &s = in->src(i);
         const unsigned n = s.val && s.val->width > 1 ? std::min<unsigned>(s.val->width, w) : w;
         if (!payload_src_in_place(in, i, byte)) {
            const unsigned pw = std::min(n, std::max(1u, 64 / tb));
            for (unsigned k = 0; k * pw < n; k++) {
               piece pc;
               pc.k = k;
               pc.width = pw;
               pc.payload_src = int(i);
               issue_piece(pc, false);
            }
         }
         byte += n * tb;
      }
   } else {
      const unsigned exec = std::max<unsigned>(1, in->exec_size);
      const unsigned pw = shape.piece_width;
      for (unsigned k = 0; k * pw < exec; k++) {
         piece pc;
         pc.k = k;
         pc.width = pw;
         issue_piece(pc, (k + 1) * pw >= exec);
      }
   }
}

/* perf_of() of an instruction issued as one piece, without the simulated
 * machine: on an idle machine nothing stalls its only piece, and no later
 * piece waits for what it writes, so its figures come from its cost and
 * the kinds of result it writes (what issue() gives, at a fraction of the
 * cost; perf_of() is called for every node of every scheduling graph).
 * False for the instructions issue() takes apart: several pieces, a
 * load_payload's moves, a copy in place.
 */
bool
single_piece_perf(const instr *in, instr_perf *out)
{
   if (in->op == opcode::load_payload ||
       (in->op == opcode::copy && copy_in_place(in)))
      return false;
   const unsigned exec = std::max<unsigned>(1, in->exec_size);
   const instr_shape shape = shape_of(in);
   const unsigned pw = shape.piece_width;
   if (pw < exec)
      return false;

   const unsigned tx_bytes = shape.tx_bytes;
   const unsigned cost_tx = is_slow_int_mul(in) ? 8 : tx_bytes;
   piece pc;
   pc.width = pw;
   piece_info p = info_of(in, pc, cost_tx);
   p.sx = (pw * tx_bytes + 31) / 32;
   const cost c = unit_cost(in, p);
   /* An idle unit delays nothing. */
   const unsigned issue = unsigned(std::max(0, c.df));
   unsigned ready = 0;
   auto result = [&](int latency) {
      ready = std::max(ready, unsigned(std::max(0, int(issue) + latency)));
   };
   for (unsigned j = 0; j < in->num_dsts(); j++) {
      const value *v = in->dst(j).val;
      if (!v)
         continue;
      /* issue() marks no register of a send without bytes or of a flag. */
      if (in->op == opcode::send ? !v->size_bytes() : v->file == reg_file::flag)
         continue;
      const bool acc = v->phys.valid() && v->phys.kind == phys_reg::acc;
      result(acc ? c.la : c.ld);
   }
   if (in->info().writes_accum) {
      const bool fl = in->num_srcs() && is_float_type(in->src(0).type);
      for_each_acc(in, in->group, pw, tx_bytes, fl,
                   [&](uint64_t) { result(c.la); });
   }
   if (in->flag_def())
      result(c.lf);
   out->issue = issue;
   out->latency = std::max(ready, issue);
   return true;
}

} /* anonymous namespace */

instr_perf
perf_of(const instr *in, const device_info &dev)
{
   (void)dev;
   instr_perf fast;
   if (single_piece_perf(in, &fast))
      return fast;
   /* The instruction alone on an idle machine: issue is the front end's
    * time, latency when the last destination register is ready.
    */
   machine_of<dep_list> m;
   unsigned ready = 0;
   issue(m, in, &ready);
   instr_perf p;
   p.issue = m.unit_ready[UNIT_FE];
   ready = std::max(ready, p.issue);
   p.latency = ready;
   return p;
}

instr_perf
perf_of(const hw_instr &h)
{
   piece_info p;
   p.tx = h.slow_int_mul ? 8 : h.tx_bytes;
   p.sx = (h.exec_size * h.tx_bytes + 31) / 32;
   if (h.op == opcode::send) {
      p.sd = (h.desc >> 20) & 0x1f;
      p.ss = ((h.desc >> 25) & 0xf) + h.ex_mlen;
   } else {
      p.sd = (h.dst_bytes + 31) / 32;
   }
   const cost c = unit_cost(h.op, h.sfid, h.desc, false, p);
   instr_perf out;
   out.issue = unsigned(std::max(0, c.df));
   out.latency = std::max(out.issue, unsigned(std::max(0, int(out.issue) + c.ld)));
   return out;
}

perf_estimate
estimate_performance(const shader &s, const device_info &dev)
{
   (void)dev;
   perf_estimate e;
   e.block_cycles.assign(s.blocks().size(), 0);
   machine_of<program_deps> m;
   const float loop_weight = 10;
   float weight = 1;
   float elapsed = 0;
   for (const auto &b : s.blocks()) {
      const float elapsed0 = elapsed;
      for (const instr *in : b->instrs()) {
         const unsigned clock0 = m.unit_ready[UNIT_FE];
         issue(m, in);
         /* brw accumulates into an unsigned, truncating each step. */
         elapsed = float(unsigned(elapsed + float(m.unit_ready[UNIT_FE] - clock0) * weight));
         if (in->op == opcode::do_)
            weight *= loop_weight;
         else if (in->op == opcode::while_)
            weight /= loop_weight;
      }
      e.block_cycles[b->index] = unsigned(elapsed - elapsed0);
   }
   e.cycles = unsigned(elapsed);
   return e;
}

unsigned
estimate_cycles(const shader &s, const device_info &dev)
{
   return estimate_performance(s, dev).cycles;
}

} /* namespace ibis */
