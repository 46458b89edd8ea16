/*
 * The NIR reference interpreter: the structured control-flow tree run
 * under per-channel execution masks, with values, registers, memory,
 * system values, interpolation, subgroup operations and derivatives.
 */
#include "nir/interp/nir_interp.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "nir/interp/nir_interp_private.h"
#include "nir/nir_eval_helpers.h"
#include "util/ibis_error.h"

namespace ibis::nir::interp {

uint32_t
inputs::channel_mask() const
{
   return channels & simd_mask(simd);
}

const output_slot *
outputs::find(unsigned location, unsigned index) const
{
   auto it = slots.find({location, index});
   return it == slots.end() ? nullptr : &it->second;
}

uint32_t
outputs::word(unsigned location, unsigned comp, unsigned c,
              unsigned index) const
{
   const output_slot *s = find(location, index);
   return s && comp < 4 && c < max_simd ? s->value[comp][c] : 0;
}

float
outputs::f32(unsigned location, unsigned comp, unsigned c,
             unsigned index) const
{
   return as_float(word(location, comp, c, index));
}

namespace {

/* FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_FP16 */
constexpr uint32_t ftz16 = 1u << 3;

template <typename Fn>
void
for_each_lane(lane_mask mask, Fn fn)
{
   for (lane_mask m = mask; m; m &= m - 1)
      fn(unsigned(__builtin_ctz(m)));
}

/* Bytes of buf at offset, zero where they fall outside it. */
uint64_t
read_bytes(const std::vector<uint8_t> &buf, int64_t offset, unsigned bytes)
{
   uint64_t v = 0;
   for (unsigned i = 0; i < bytes; i++) {
      const int64_t at = offset + i;
      if (at >= 0 && uint64_t(at) < buf.size())
         v |= uint64_t(buf[size_t(at)]) << (8 * i);
   }
   return v;
}

void
write_bytes(std::vector<uint8_t> &buf, int64_t offset, unsigned bytes,
            uint64_t v)
{
   for (unsigned i = 0; i < bytes; i++) {
      const int64_t at = offset + i;
      if (at >= 0 && uint64_t(at) < buf.size())
         buf[size_t(at)] = uint8_t(v >> (8 * i));
   }
}

/* The bits of a float of bit_size holding x (16, 32 or 64). */
uint64_t
float_bits(double x, unsigned bit_size)
{
   const_value v;
   v.u64 = 0;
   if (bit_size == 64) {
      v.f64 = x;
      return v.u64;
   }
   if (bit_size == 16)
      return eval::to_half(x, false);
   return as_word(float(x));
}

/* The identity of a reduction, as bits of bit_size. */
uint64_t
reduction_identity(alu_op op, unsigned bit_size)
{
   const uint64_t ones = bit_size == 64 ? ~0ull : (1ull << bit_size) - 1;
   const uint64_t sign = 1ull << (bit_size - 1);
   switch (op) {
   case alu_op::iadd:
   case alu_op::ior:
   case alu_op::ixor:
   case alu_op::umax:
      return 0;
   case alu_op::imul:
      return 1;
   case alu_op::iand:
   case alu_op::umin:
      return ones;
   case alu_op::imin:
      return ones & ~sign;
   case alu_op::imax:
      return sign;
   case alu_op::fadd:
      return 0;
   case alu_op::fmul:
      return float_bits(1.0, bit_size);
   case alu_op::fmin:
      return float_bits(INFINITY, bit_size);
   case alu_op::fmax:
      return float_bits(-INFINITY, bit_size);
   default:
      throw error(strfmt("unsupported reduction operation %s",
                         op_info(op).name));
   }
}

/* The subgroups of one workgroup (inputs::whole_workgroup): each runs
 * in a thread of its own, but only the one holding the turn executes, so
 * the order is fixed: subgroup 0 up to its next barrier (or its end),
 * then 1, and so on; when every subgroup that has not ended waits at the
 * barrier, all pass it and 0 runs again.  A subgroup that ends while
 * another waits at a barrier is a deadlock (Gen counts every thread of
 * the group): a diagnosed error.
 */
struct group_sync {
   enum state : uint8_t { ready, waiting, done };
   struct aborted {};

   std::mutex m;
   std::condition_variable cv;
   unsigned turn = 0;
   std::vector<state> st;
   std::vector<unsigned> barriers;   /* barriers passed, per subgroup */
   bool abort = false;
   std::exception_ptr failure;

   explicit group_sync(unsigned n) : st(n, ready), barriers(n, 0) {}

   void wait_turn(std::unique_lock<std::mutex> &lk, unsigned me)
   {
      cv.wait(lk, [&] { return abort || turn == me; });
      if (abort)
         throw aborted{};
   }
   /* me stops (at a barrier or at its end): the next ready subgroup in
    * order runs, or every waiting one passes the barrier.
    */
   void pass(unsigned me)
   {
      const unsigned n = unsigned(st.size());
      for (unsigned k = 1; k <= n; k++) {
         const unsigned j = (me + k) % n;
         if (st[j] == ready) {
            turn = j;
            cv.notify_all();
            return;
         }
      }
      int waiter = -1, ended = -1;
      for (unsigned j = 0; j < n; j++) {
         if (st[j] == waiting && waiter < 0)
            waiter = int(j);
         if (st[j] == done && ended < 0)
            ended = int(j);
      }
      if (waiter < 0) {
         turn = n;   /* all ended */
         cv.notify_all();
         return;
      }
      if (ended >= 0) {
         abort = true;
         cv.notify_all();
         throw error(strfmt("workgroup deadlock: subgroup %d waits at its barrier %u, "
                            "subgroup %d ended after %u barriers",
                            waiter, barriers[unsigned(waiter)] + 1, ended,
                            barriers[unsigned(ended)]));
      }
      for (unsigned j = 0; j < n; j++) {
         st[j] = ready;
         barriers[j]++;
      }
      turn = 0;
      cv.notify_all();
   }
};

class machine {
public:
   machine(const shader &s, const inputs &in, outputs *memory = nullptr,
           group_sync *group = nullptr, unsigned subgroup = 0, lane_mask channels = 0);
   outputs execute();

private:
   /* Values */
   const_value *lane_values(const def *d, unsigned lane);
   uint64_t get(const def *d, unsigned lane, unsigned comp = 0);
   uint32_t get32(const def *d, unsigned lane, unsigned comp = 0)
   {
      return uint32_t(get(d, lane, comp));
   }
   uint32_t get32(const src &s, unsigned lane, unsigned comp = 0)
   {
      return get32(s.ssa, lane, comp);
   }
   float getf(const def *d, unsigned lane, unsigned comp = 0);
   void set(const def &d, unsigned lane, unsigned comp, uint64_t bits);
   void set_bool(const def &d, unsigned lane, bool b);
   bool get_bool(const def *d, unsigned lane);
   void number_defs(const cf_list &list);

   /* Control flow */
   void exec_list(const cf_list &list, lane_mask &mask);
   void exec_block(const block &b, lane_mask &mask);
   void exec_loop(const loop &l, lane_mask &mask);
   void exec_phis(const block &b, lane_mask mask);
   void kill(lane_mask lanes, lane_mask &mask, bool demote);

   /* Instructions */
   void exec_alu(const alu_instr &alu, lane_mask mask);
   void exec_derivative(const alu_instr &alu, lane_mask mask);
   void derivative(const def &dest, const def *src, const uint8_t *swizzle, bool is_y,
                   bool fine, lane_mask mask);
   void exec_intrinsic(const intrinsic_instr &in, lane_mask &mask);
   bool exec_io(const intrinsic_instr &in, lane_mask mask);
   bool exec_memory(const intrinsic_instr &in, lane_mask mask);
   bool exec_image(const intrinsic_instr &in, lane_mask mask);
   image &image_of(const intrinsic_instr &in, unsigned lane);
   bool exec_subgroup(const intrinsic_instr &in, lane_mask mask);
   bool exec_sysval(const intrinsic_instr &in, lane_mask mask);
   void exec_reg(const intrinsic_instr &in, lane_mask mask);
   void exec_tex(const tex_instr &tex, lane_mask mask);

   /* Helpers */
   std::string instr_text(const instr &i);
   [[noreturn]] void unsupported(const instr &i, const char *what);
   void load_words(const intrinsic_instr &in, unsigned lane,
                   const words4 *slots, unsigned num_slots, unsigned first);
   void load_memory(const intrinsic_instr &in, unsigned lane,
                    const std::vector<uint8_t> &buf, int64_t offset);
   void store_memory(const intrinsic_instr &in, unsigned lane,
                     std::vector<uint8_t> &buf, int64_t offset);
   void atomic(const intrinsic_instr &in, unsigned lane,
               std::vector<uint8_t> &buf, int64_t offset, unsigned data_src);
   std::vector<uint8_t> *ssbo(uint32_t index);
   std::array<double, 3> screen_bary(double x, double y) const;
   std::array<double, 2> pixel_pos(unsigned lane) const;
   uint64_t fold(alu_op op, unsigned bit_size, uint64_t a, uint64_t b);


   const shader &sh_;
   const inputs &in_;
   const unsigned simd_;
   const uint32_t fc_;
   const function_impl *impl_ = nullptr;

   std::vector<std::pair<const def *, unsigned>> by_index_;
   std::unordered_map<const def *, unsigned> slot_;
   std::vector<std::vector<const_value>> vals_;

   struct reg_store {
      unsigned num_components = 1;
      unsigned elems = 1;
      unsigned bit_size = 32;
      std::vector<const_value> v;  /* [lane][elem][component] */
   };
   std::unordered_map<const def *, reg_store> regs_;

   std::array<const block *, max_simd> last_block_ = {};
   struct loop_masks {
      lane_mask brk = 0;
      lane_mask cont = 0;
   };
   std::vector<loop_masks> loops_;
   unsigned iterations_ = 0;

   lane_mask helpers_ = 0;
   std::array<std::vector<uint8_t>, max_simd> scratch_;
   std::array<unsigned, 3> wg_size_ = {1, 1, 1};
   outputs out_;
   /* SSBOs, images and shared memory: out_'s, or the workgroup's. */
   outputs *mem_ = &out_;
   group_sync *group_ = nullptr;
   unsigned subgroup_ = 0;
};

machine::machine(const shader &s, const inputs &in, outputs *memory, group_sync *group,
                 unsigned subgroup, lane_mask channels)
   : sh_(s), in_(in), simd_(in.simd), fc_(s.info.float_controls_execution_mode | in.float_controls),
     group_(group), subgroup_(group ? subgroup : in.subgroup_id)
{
   if (simd_ != 8 && simd_ != 16 && simd_ != 32)
      throw error(strfmt("SIMD width %u: must be 8, 16 or 32", simd_));
   const shader_stage st = s.info.stage;
   if (st != shader_stage::vertex && st != shader_stage::fragment &&
       st != shader_stage::compute)
      throw error(strfmt("stage %s is not supported by the interpreter",
                         stage_name(st) ? stage_name(st) : "?"));

   for (const auto &f : s.functions) {
      if (f->impl && (!impl_ || f->name == "main"))
         impl_ = f->impl.get();
   }
   if (!impl_)
      throw error("shader has no function implementation");
   number_defs(impl_->body);

   for (const auto &[index, t] : in.textures)
      check_texture(t, index);
   for (const auto &[loc, v] : in.attribs) {
      if (v.size() > 1 && v.size() < simd_)
         throw error(strfmt("attribute %u: %zu values for SIMD%u", loc,
                            v.size(), simd_));
   }

   if (st == shader_stage::compute) {
      for (unsigned i = 0; i < 3; i++) {
         wg_size_[i] = in.workgroup_size[i] ? in.workgroup_size[i]
                                            : s.info.workgroup_size[i];
         wg_size_[i] = std::max(wg_size_[i], 1u);
      }
   }

   out_.simd = simd_;
   out_.channels = group ? channels : in.channel_mask();
   if (memory) {
      mem_ = memory;
   } else {
      out_.ssbos = in.ssbos;
      for (const auto &[index, im] : in.images)
         check_image(im, index);
      out_.images = in.images;
      out_.shared = in.shared;
      if (out_.shared.size() < s.info.shared_size)
         out_.shared.resize(s.info.shared_size);
   }
   for (auto &sc : scratch_)
      sc.assign(s.scratch_size, 0);
   if (st == shader_stage::fragment)
      helpers_ = in.helpers & out_.channels;
}

void
machine::number_defs(const cf_list &list)
{
   for (const auto &node : list) {
      switch (node->type) {
      case cf_type::block:
         for (const auto &i : static_cast<const block &>(*node).instrs) {
            if (const def *d = i->get_def()) {
               const unsigned slot = unsigned(vals_.size());
               vals_.emplace_back(size_t(simd_) * d->num_components);
               /* Reader-numbered defs are found by index; others (and
                * clashing indices) through the map.
                */
               if (d->index < (1u << 20)) {
                  if (by_index_.size() <= d->index)
                     by_index_.resize(d->index + 1, {nullptr, 0});
                  if (!by_index_[d->index].first) {
                     by_index_[d->index] = {d, slot};
                     continue;
                  }
               }
               slot_.emplace(d, slot);
            }
         }
         break;
      case cf_type::if_: {
         const auto &nif = static_cast<const if_ &>(*node);
         number_defs(nif.then_list);
         number_defs(nif.else_list);
         break;
      }
      case cf_type::loop: {
         const auto &l = static_cast<const loop &>(*node);
         number_defs(l.body);
         number_defs(l.continue_list);
         break;
      }
      }
   }
}

const_value *
machine::lane_values(const def *d, unsigned lane)
{
   unsigned slot;
   if (d->index < by_index_.size() && by_index_[d->index].first == d) {
      slot = by_index_[d->index].second;
   } else {
      auto it = slot_.find(d);
      IBIS_CHECK(it != slot_.end(), "source %%%u is not defined in the shader",
                 d->index);
      slot = it->second;
   }
   return &vals_[slot][size_t(lane) * d->num_components];
}

uint64_t
machine::get(const def *d, unsigned lane, unsigned comp)
{
   IBIS_CHECK(comp < d->num_components, "component %u of %%%u", comp,
              d->index);
   return const_value_bits(lane_values(d, lane)[comp], d->bit_size);
}

float
machine::getf(const def *d, unsigned lane, unsigned comp)
{
   const uint64_t b = get(d, lane, comp);
   switch (d->bit_size) {
   case 16: return eval::half_to_float(uint16_t(b));
   case 64: {
      const_value v;
      v.u64 = b;
      return float(v.f64);
   }
   default: return as_float(uint32_t(b));
   }
}

bool
machine::get_bool(const def *d, unsigned lane)
{
   return get(d, lane) != 0;
}

void
machine::set(const def &d, unsigned lane, unsigned comp, uint64_t bits)
{
   IBIS_CHECK(comp < d.num_components, "component %u of %%%u", comp, d.index);
   lane_values(&d, lane)[comp] = const_value_from_bits(bits, d.bit_size);
}

/* NIR booleans: 1-bit, or 0 / ~0 of a wider size. */
void
machine::set_bool(const def &d, unsigned lane, bool b)
{
   set(d, lane, 0, b ? ~0ull : 0);
}

/* The printed form of an instruction that defines a value: its line in
 * print_shader()'s output (SSA names are unique), or "".
 */
std::string
machine::instr_text(const instr &i)
{
   const def *d = i.get_def();
   if (!d)
      return "";
   const std::string text = print_shader(sh_);
   const std::string name = strfmt("%%%u = ", d->index);
   size_t at = text.find(name);
   if (at == std::string::npos || text.find(name, at + 1) != std::string::npos)
      return "";
   const size_t begin = text.rfind('\n', at) + 1;
   const size_t end = text.find('\n', at);
   std::string line = text.substr(begin, end - begin);
   line.erase(0, line.find_first_not_of(' '));
   return line;
}

void
machine::unsupported(const instr &i, const char *what)
{
   const std::string text = instr_text(i);
   throw error(source_loc{sh_.file, i.line, 0},
               strfmt("the interpreter does not support %s%s%s", what,
                      text.empty() ? "" : ": ", text.c_str()));
}

/* ------------------------------------------------------------------ */
/* Control flow */

void
machine::exec_list(const cf_list &list, lane_mask &mask)
{
   for (const auto &node : list) {
      if (!mask)
         return;
      switch (node->type) {
      case cf_type::block:
         exec_block(static_cast<const block &>(*node), mask);
         break;
      case cf_type::if_: {
         const auto &nif = static_cast<const if_ &>(*node);
         lane_mask taken = 0;
         for_each_lane(mask, [&](unsigned c) {
            if (get_bool(nif.condition.ssa, c))
               taken |= 1u << c;
         });
         lane_mask then_mask = taken, else_mask = mask & ~taken;
         exec_list(nif.then_list, then_mask);
         exec_list(nif.else_list, else_mask);
         mask = then_mask | else_mask;
         break;
      }
      case cf_type::loop:
         exec_loop(static_cast<const loop &>(*node), mask);
         break;
      }
   }
}

void
machine::exec_loop(const loop &l, lane_mask &mask)
{
   loops_.push_back({});
   lane_mask running = mask;
   while (running) {
      if (++iterations_ > in_.max_loop_iterations)
         throw error(source_loc{sh_.file, l.line, 0},
                     strfmt("more than %u loop iterations",
                            in_.max_loop_iterations));
      loops_.back().cont = 0;
      exec_list(l.body, running);
      running |= loops_.back().cont;
      exec_list(l.continue_list, running);
   }
   mask = loops_.back().brk;
   loops_.pop_back();
}

/* All phis of a block read their sources before any is written: a phi may
 * read another phi of the same block along a back edge.
 */
void
machine::exec_phis(const block &b, lane_mask mask)
{
   std::vector<std::pair<const phi_instr *, std::vector<const_value>>> pending;
   for (const auto &i : b.instrs) {
      if (i->type != instr_type::phi)
         break;
      const auto &phi = static_cast<const phi_instr &>(*i);
      const unsigned nc = phi.dest.num_components;
      std::vector<const_value> v(size_t(simd_) * nc);
      for_each_lane(mask, [&](unsigned c) {
         const phi_src *from = nullptr;
         for (const phi_src &s : phi.srcs) {
            if (s.pred == last_block_[c])
               from = &s;
         }
         if (!from)
            throw error(source_loc{sh_.file, phi.line, 0},
                        strfmt("phi %%%u has no source for the block channel "
                               "%u comes from", phi.dest.index, c));
         for (unsigned k = 0; k < nc; k++)
            v[size_t(c) * nc + k] = lane_values(from->ssa, c)[k];
      });
      pending.emplace_back(&phi, std::move(v));
   }
   /* Not a structured binding: C++17 lambdas cannot capture one (clang). */
   for (auto &p : pending) {
      const phi_instr *phi = p.first;
      const std::vector<const_value> &v = p.second;
      const unsigned nc = phi->dest.num_components;
      for_each_lane(mask, [&](unsigned c) {
         std::copy_n(&v[size_t(c) * nc], nc, lane_values(&phi->dest, c));
      });
   }
}

void
machine::exec_block(const block &b, lane_mask &mask)
{
   exec_phis(b, mask);
   for_each_lane(mask, [&](unsigned c) { last_block_[c] = &b; });

   for (const auto &ip : b.instrs) {
      if (!mask)
         return;
      const instr &i = *ip;
      switch (i.type) {
      case instr_type::phi:
         break;
      case instr_type::alu:
         exec_alu(static_cast<const alu_instr &>(i), mask);
         break;
      case instr_type::intrinsic:
         exec_intrinsic(static_cast<const intrinsic_instr &>(i), mask);
         break;
      case instr_type::tex:
         exec_tex(static_cast<const tex_instr &>(i), mask);
         break;
      case instr_type::load_const: {
         const auto &lc = static_cast<const load_const_instr &>(i);
         for (unsigned c = 0; c < simd_; c++) {
            for (unsigned k = 0; k < lc.dest.num_components; k++)
               set(lc.dest, c, k, const_value_bits(lc.values.at(k),
                                                   lc.dest.bit_size));
         }
         break;
      }
      case instr_type::undef:
         /* Undefined values read as 0 (the storage starts zeroed). */
         break;
      case instr_type::jump:
         switch (static_cast<const jump_instr &>(i).kind) {
         case jump_type::break_:
            IBIS_CHECK(!loops_.empty(), "break outside a loop");
            loops_.back().brk |= mask;
            break;
         case jump_type::continue_:
            IBIS_CHECK(!loops_.empty(), "continue outside a loop");
            loops_.back().cont |= mask;
            break;
         case jump_type::return_:
         case jump_type::halt:
            /* Only main runs: both end the invocation. */
            break;
         }
         mask = 0;
         break;
      }
   }
}

/* terminate ends the channels; demote (and discard) keeps them running
 * as helpers.  Either way their pixels are not written.
 */
void
machine::kill(lane_mask lanes, lane_mask &mask, bool demote)
{
   lanes &= mask;
   out_.killed |= lanes;
   if (demote)
      helpers_ |= lanes;
   else
      mask &= ~lanes;
}

/* ------------------------------------------------------------------ */
/* ALU */

void
machine::exec_alu(const alu_instr &alu, lane_mask mask)
{
   const alu_op_info &info = op_info(alu.op);
   if (info.props & alu_derivative) {
      exec_derivative(alu, mask);
      return;
   }

   /* The size of the unsized operands: the first unsized source's, else
    * the destination's.
    */
   unsigned bit_size = alu.dest.bit_size;
   for (unsigned j = 0; j < info.num_inputs; j++) {
      if (!type_size(info.input_types[j])) {
         bit_size = alu.srcs[j].ssa->bit_size;
         break;
      }
   }

   /* Under a 16-bit flush-to-zero mode Mesa's nir_opt_algebraic makes
    * the half unpacks their _flush_to_zero forms (and Gen's mov from HF
    * flushes a denormal half): their source is a uint, so the generic
    * flushing of float operands does not reach it.
    */
   alu_op op = alu.op;
   if (fc_ & ftz16) {
      if (op == alu_op::unpack_half_2x16_split_x)
         op = alu_op::unpack_half_2x16_split_x_flush_to_zero;
      else if (op == alu_op::unpack_half_2x16_split_y)
         op = alu_op::unpack_half_2x16_split_y_flush_to_zero;
   }

   const unsigned nc = alu.dest.num_components;
   const_value srcv[max_alu_inputs][16];
   const const_value *srcp[max_alu_inputs];
   for (unsigned j = 0; j < info.num_inputs; j++)
      srcp[j] = srcv[j];
   for_each_lane(mask, [&](unsigned c) {
      for (unsigned j = 0; j < info.num_inputs; j++) {
         const alu_src &s = alu.srcs[j];
         const const_value *v = lane_values(s.ssa, c);
         for (unsigned k = 0; k < alu.src_components(j); k++) {
            IBIS_CHECK(s.swizzle[k] < s.ssa->num_components,
                       "swizzle out of range");
            srcv[j][k] = v[s.swizzle[k]];
         }
      }
      const_value dst[16];
      eval_alu(op, dst, nc, bit_size, srcp, fc_);
      if (in_.perturb.mode != perturb_mode::none)
         perturb_alu(in_.perturb, op, alu.dest.index, c, bit_size, dst, nc, srcp);
      /* The half packs produce halves in a uint: under the 16-bit flush
       * mode a denormal half is flushed, as Gen's mov to HF does (their
       * uint result escapes the generic flushing of float results;
       * random fs seed 744).
       */
      if ((fc_ & ftz16) && (op == alu_op::pack_half_2x16_split ||
                            op == alu_op::pack_half_2x16_rtz_split)) {
         uint32_t v = dst[0].u32;
         for (unsigned h = 0; h < 32; h += 16) {
            if (!((v >> h) & 0x7c00))
               v &= ~(0x3ffu << h);
         }
         dst[0].u32 = v;
      }
      for (unsigned k = 0; k < nc; k++)
         set(alu.dest, c, k, const_value_bits(dst[k], alu.dest.bit_size));
   });
}

/*
 * Derivatives over 2x2 quads: channels 4q+0..3 are the pixels (0,0) (1,0)
 * (0,1) (1,1) of quad q.  Fine derivatives take the difference along the
 * channel's own row or column; coarse ones (and plain fddx/fddy, as brw
 * compiles them by default) the top row / left column for the whole quad.
 */
void
machine::exec_derivative(const alu_instr &alu, lane_mask mask)
{
   const char *name = op_info(alu.op).name;
   const bool is_y = name[3] == 'y';
   const bool fine = alu.op == alu_op::fddx_fine || alu.op == alu_op::fddy_fine;
   if (alu.op != alu_op::fddx && alu.op != alu_op::fddy &&
       alu.op != alu_op::fddx_fine && alu.op != alu_op::fddy_fine &&
       alu.op != alu_op::fddx_coarse && alu.op != alu_op::fddy_coarse)
      unsupported(alu, name);
   if (sh_.info.stage != shader_stage::fragment)
      unsupported(alu, "derivatives outside fragment shaders");

   derivative(alu.dest, alu.srcs[0].ssa, alu.srcs[0].swizzle.data(), is_y, fine, mask);
}

/* Of component swizzle[k] of src into component k of dest. */
void
machine::derivative(const def &dest, const def *src, const uint8_t *swizzle, bool is_y,
                    bool fine, lane_mask mask)
{
   const unsigned nc = dest.num_components;
   const unsigned bits = dest.bit_size;
   for_each_lane(mask, [&](unsigned c) {
      const unsigned q = c & ~3u, i = c & 3u;
      unsigned hi, lo;
      if (is_y) {
         lo = q + (fine ? (i & 1) : 0);
         hi = lo + 2;
      } else {
         lo = q + (fine ? (i & 2) : 0);
         hi = lo + 1;
      }
      for (unsigned k = 0; k < nc; k++) {
         const_value a = lane_values(src, hi)[swizzle[k]];
         const_value b = lane_values(src, lo)[swizzle[k]];
         const const_value *srcs[2] = {&a, &b};
         const_value d;
         eval_alu(alu_op::fsub, &d, 1, bits, srcs, fc_);
         set(dest, c, k, const_value_bits(d, bits));
      }
   });
}

uint64_t
machine::fold(alu_op op, unsigned bit_size, uint64_t a, uint64_t b)
{
   const const_value va = const_value_from_bits(a, bit_size);
   const const_value vb = const_value_from_bits(b, bit_size);
   const const_value *srcs[2] = {&va, &vb};
   const_value d;
   eval_alu(op, &d, 1, bit_size, srcs, fc_);
   return const_value_bits(d, bit_size);
}

/* ------------------------------------------------------------------ */
/* Intrinsics */

void
machine::exec_intrinsic(const intrinsic_instr &in, lane_mask &mask)
{
   switch (in.op) {
   case intrinsic_op::decl_reg:
   case intrinsic_op::load_reg:
   case intrinsic_op::load_reg_indirect:
   case intrinsic_op::store_reg:
   case intrinsic_op::store_reg_indirect:
      exec_reg(in, mask);
      return;

   case intrinsic_op::nop:
      return;
   /* 25.0's derivatives: 23.3's fddx/fddy opcodes as intrinsics. */
   case intrinsic_op::ddx:
   case intrinsic_op::ddx_coarse:
   case intrinsic_op::ddx_fine:
   case intrinsic_op::ddy:
   case intrinsic_op::ddy_coarse:
   case intrinsic_op::ddy_fine: {
      if (sh_.info.stage != shader_stage::fragment)
         unsupported(in, "derivatives outside fragment shaders");
      static const uint8_t identity[16] = {0, 1, 2, 3, 4, 5, 6, 7,
                                           8, 9, 10, 11, 12, 13, 14, 15};
      const bool is_y = in.op == intrinsic_op::ddy || in.op == intrinsic_op::ddy_coarse ||
                        in.op == intrinsic_op::ddy_fine;
      const bool fine = in.op == intrinsic_op::ddx_fine || in.op == intrinsic_op::ddy_fine;
      derivative(in.dest, in.srcs[0].ssa, identity, is_y, fine, mask);
      return;
   }
   case intrinsic_op::barrier: {
      /* Alone (one subgroup, or no execution scope up to the workgroup),
       * a barrier orders nothing.  mesa_scope: WORKGROUP is 4.
       */
      if (!group_ || in.index(intrinsic_index::execution_scope) < 4)
         return;
      if (mask != out_.channels)
         throw error(source_loc{sh_.file, in.line, 0},
                     strfmt("barrier in non-uniform control flow: subgroup %u reaches it "
                            "with channels 0x%x of 0x%x", subgroup_, mask, out_.channels));
      std::unique_lock<std::mutex> lk(group_->m);
      group_->st[subgroup_] = group_sync::waiting;
      group_->pass(subgroup_);
      group_->wait_turn(lk, subgroup_);
      return;
   }

   /* 23.3's GLSL discard runs as brw runs it: like demote, the channels
    * go on as helpers, so their quads' derivatives stay defined (brw
    * halts a quad only once all of it is discarded, which no other quad
    * sees).  terminate ends them.
    */
   case intrinsic_op::discard:
   case intrinsic_op::terminate:
   case intrinsic_op::demote:
      kill(mask, mask, in.op != intrinsic_op::terminate);
      return;
   case intrinsic_op::discard_if:
   case intrinsic_op::terminate_if:
   case intrinsic_op::demote_if: {
      lane_mask lanes = 0;
      for_each_lane(mask, [&](unsigned c) {
         if (get_bool(in.srcs[0].ssa, c))
            lanes |= 1u << c;
      });
      kill(lanes, mask, in.op != intrinsic_op::terminate_if);
      return;
   }

   default:
      break;
   }

   if (exec_io(in, mask) || exec_memory(in, mask) || exec_image(in, mask) ||
       exec_subgroup(in, mask) || exec_sysval(in, mask))
      return;
   unsupported(in, strfmt("intrinsic @%s", op_info(in.op).name).c_str());
}

void
machine::exec_reg(const intrinsic_instr &in, lane_mask mask)
{
   if (in.op == intrinsic_op::decl_reg) {
      reg_store &r = regs_[&in.dest];
      if (r.v.empty()) {
         r.num_components = std::max(1, in.index(intrinsic_index::num_components));
         r.elems = std::max(1, in.index(intrinsic_index::num_array_elems));
         r.bit_size = unsigned(in.index(intrinsic_index::bit_size));
         r.v.resize(size_t(simd_) * r.elems * r.num_components);
         for (auto &x : r.v)
            x.u64 = 0;
      }
      return;
   }

   const bool store = in.op == intrinsic_op::store_reg ||
                      in.op == intrinsic_op::store_reg_indirect;
   const bool indirect = in.op == intrinsic_op::load_reg_indirect ||
                         in.op == intrinsic_op::store_reg_indirect;
   const def *handle = in.srcs[store ? 1 : 0].ssa;
   auto it = regs_.find(handle);
   if (it == regs_.end())
      throw error(source_loc{sh_.file, in.line, 0},
                  "register access before its decl_reg");
   reg_store &r = it->second;
   const int base = in.index(intrinsic_index::base);

   for_each_lane(mask, [&](unsigned c) {
      int64_t elem = base;
      if (indirect)
         elem += int32_t(get32(in.srcs[store ? 2 : 1], c));
      /* Out-of-bounds elements read 0 and ignore writes. */
      const bool ok = elem >= 0 && elem < int64_t(r.elems);
      const_value *v = ok ? &r.v[(size_t(c) * r.elems + size_t(elem)) *
                                 r.num_components]
                          : nullptr;
      if (store) {
         const def *value = in.srcs[0].ssa;
         const uint32_t wrmask = uint32_t(in.index(intrinsic_index::write_mask));
         for (unsigned k = 0; k < r.num_components && v; k++) {
            if (!(wrmask >> k & 1))
               continue;
            const_value x = lane_values(value, c)[k];
            if (in.index(intrinsic_index::legacy_fsat)) {
               const const_value *srcs[1] = {&x};
               eval_alu(alu_op::fsat, &x, 1, r.bit_size, srcs, fc_);
            }
            v[k] = x;
         }
      } else {
         for (unsigned k = 0; k < in.dest.num_components; k++) {
            const_value x = v && k < r.num_components ? v[k]
                                                      : const_value_from_bits(0, 64);
            const const_value *srcs[1] = {&x};
            if (in.index(intrinsic_index::legacy_fabs))
               eval_alu(alu_op::fabs, &x, 1, r.bit_size, srcs, fc_);
            if (in.index(intrinsic_index::legacy_fneg))
               eval_alu(alu_op::fneg, &x, 1, r.bit_size, srcs, fc_);
            set(in.dest, c, k, const_value_bits(x, in.dest.bit_size));
         }
      }
   });
}

/* Reads dest components from 32-bit words of consecutive slots, starting at
 * word first of slot 0: 64-bit components take two words, 16-bit ones the
 * low half of one.
 */
void
machine::load_words(const intrinsic_instr &in, unsigned lane,
                    const words4 *slots, unsigned num_slots, unsigned first)
{
   const unsigned bits = in.dest.bit_size;
   const unsigned step = bits == 64 ? 2 : 1;
   auto word = [&](unsigned w) -> uint64_t {
      return w / 4 < num_slots ? slots[w / 4][w % 4] : 0;
   };
   for (unsigned k = 0; k < in.dest.num_components; k++) {
      const unsigned w = first + k * step;
      uint64_t v = word(w);
      if (bits == 64)
         v |= word(w + 1) << 32;
      set(in.dest, lane, k, v);
   }
}

std::array<double, 3>
machine::screen_bary(double x, double y) const
{
   const raster_vertex &a = in_.triangle[0], &b = in_.triangle[1],
                       &c = in_.triangle[2];
   const double area = double(b.x - a.x) * (c.y - a.y) -
                       double(c.x - a.x) * (b.y - a.y);
   if (area == 0)
      throw error("the input triangle is degenerate");
   const double l1 = ((x - a.x) * (c.y - a.y) - (c.x - a.x) * (y - a.y)) / area;
   const double l2 = ((b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y)) / area;
   return {1 - l1 - l2, l1, l2};
}

/* The top-left corner of a channel's pixel. */
std::array<double, 2>
machine::pixel_pos(unsigned lane) const
{
   if (lane < in_.pixel.size())
      return {in_.pixel[lane][0], in_.pixel[lane][1]};
   if (!in_.pixel.empty())
      throw error(strfmt("no pixel position for channel %u", lane));
   return {double(2 * (lane / 4) + (lane & 1)), double((lane & 3) >> 1)};
}

bool
machine::exec_io(const intrinsic_instr &in, lane_mask mask)
{
   const shader_stage stage = sh_.info.stage;
   const io_semantics io = in.get_io_semantics();

   switch (in.op) {
   case intrinsic_op::load_input:
      /* brw_nir_lower_vs_inputs turns the vertex system values into
       * load_inputs without a slot (num_slots 0) whose base is the vertex
       * element after the attributes: (first vertex, base instance,
       * vertex id from zero, instance id), then (draw id, is indexed draw).
       */
      if (stage == shader_stage::vertex && io.num_slots == 0) {
         const unsigned base = unsigned(in.index(intrinsic_index::base));
         /* brw's num_inputs: the attribute slots before the element. */
         const unsigned n = unsigned(__builtin_popcountll(sh_.info.inputs_read));
         if (base != n && base != n + 1)
            unsupported(in, "a system-value load_input past the vertex elements");
         const unsigned comp = unsigned(in.index(intrinsic_index::component));
         /* A shader that reads the draw id alone has it at base n too;
          * the corpus has none (docs/interp.md).
          */
         const bool ids = base == n;
         for_each_lane(mask, [&](unsigned c) {
            words4 w[2] = {};
            if (ids) {
               const uint32_t vid = c < in_.vertex_id.size() ? in_.vertex_id[c]
                                                             : in_.first_vertex + c;
               w[0] = {in_.first_vertex, in_.base_instance, vid - in_.first_vertex,
                       in_.instance_id};
            } else {
               w[0] = {in_.draw_id, 0, 0, 0};
            }
            load_words(in, c, w, 2, comp);
         });
         return true;
      }
      for_each_lane(mask, [&](unsigned c) {
         const unsigned loc = io.location + get32(in.srcs[0], c);
         const unsigned comp = unsigned(in.index(intrinsic_index::component));
         words4 w[2] = {};
         for (unsigned s = 0; s < 2; s++) {
            if (stage == shader_stage::vertex) {
               auto it = in_.attribs.find(loc + s);
               if (it != in_.attribs.end() && !it->second.empty())
                  w[s] = it->second[it->second.size() == 1 ? 0 : c];
            } else if (stage == shader_stage::fragment) {
               /* Flat: the provoking vertex, vertex 0. */
               auto it = in_.varyings.find(loc + s);
               if (it != in_.varyings.end())
                  w[s] = it->second[0];
            } else {
               unsupported(in, "load_input in this stage");
            }
         }
         load_words(in, c, w, 2, comp);
      });
      return true;

   case intrinsic_op::load_interpolated_input: {
      if (in.dest.bit_size != 32)
         unsupported(in, "interpolated inputs that are not 32-bit");
      const unsigned comp = unsigned(in.index(intrinsic_index::component));
      for_each_lane(mask, [&](unsigned c) {
         const unsigned loc = io.location + get32(in.srcs[1], c);
         const double b1 = getf(in.srcs[0].ssa, c, 0);
         const double b2 = getf(in.srcs[0].ssa, c, 1);
         std::array<words4, 3> v = {};
         auto it = in_.varyings.find(loc);
         if (it != in_.varyings.end())
            v = it->second;
         for (unsigned k = 0; k < in.dest.num_components; k++) {
            const unsigned w = comp + k;
            if (w >= 4)
               unsupported(in, "interpolation across slots");
            const double a0 = as_float(v[0][w]), a1 = as_float(v[1][w]),
                         a2 = as_float(v[2][w]);
            set(in.dest, c, k,
                as_word(float(a0 + b1 * (a1 - a0) + b2 * (a2 - a0))));
         }
      });
      return true;
   }

   case intrinsic_op::load_barycentric_pixel:
   case intrinsic_op::load_barycentric_centroid:
   case intrinsic_op::load_barycentric_sample:
   case intrinsic_op::load_barycentric_at_sample:
   case intrinsic_op::load_barycentric_at_offset: {
      const int mode = in.index(intrinsic_index::interp_mode);
      if (mode == int(interp_mode::flat) || mode == int(interp_mode::explicit_))
         unsupported(in, "flat or explicit barycentrics");
      const bool perspective = mode != int(interp_mode::noperspective);
      for_each_lane(mask, [&](unsigned c) {
         const auto p = pixel_pos(c);
         std::array<float, 2> at = {0.5f, 0.5f};
         unsigned sample = c < in_.sample_id.size() ? in_.sample_id[c] : 0;
         switch (in.op) {
         case intrinsic_op::load_barycentric_sample:
         case intrinsic_op::load_barycentric_at_sample:
            if (in.op == intrinsic_op::load_barycentric_at_sample)
               sample = get32(in.srcs[0], c);
            if (sample < in_.sample_pos.size())
               at = in_.sample_pos[sample];
            break;
         case intrinsic_op::load_barycentric_at_offset:
            at[0] += getf(in.srcs[0].ssa, c, 0);
            at[1] += getf(in.srcs[0].ssa, c, 1);
            break;
         default:
            /* Centroid is taken at the centre: one sample covers it. */
            break;
         }
         std::array<double, 3> l = screen_bary(p[0] + at[0], p[1] + at[1]);
         if (perspective) {
            double sum = 0;
            for (unsigned i = 0; i < 3; i++) {
               l[i] /= in_.triangle[i].w;
               sum += l[i];
            }
            for (double &x : l)
               x /= sum;
         }
         set(in.dest, c, 0, as_word(float(l[1])));
         set(in.dest, c, 1, as_word(float(l[2])));
      });
      return true;
   }

   case intrinsic_op::load_frag_coord:
      for_each_lane(mask, [&](unsigned c) {
         const auto p = pixel_pos(c);
         const double off = sh_.info.fs.pixel_center_integer ? 0 : 0.5;
         const auto l = screen_bary(p[0] + 0.5, p[1] + 0.5);
         double z = 0, inv_w = 0;
         for (unsigned i = 0; i < 3; i++) {
            z += l[i] * in_.triangle[i].z;
            inv_w += l[i] / in_.triangle[i].w;
         }
         set(in.dest, c, 0, as_word(float(p[0] + off)));
         set(in.dest, c, 1, as_word(float(p[1] + off)));
         set(in.dest, c, 2, as_word(float(z)));
         /* Gen computes it with math inv of the payload's W. */
         set(in.dest, c, 3, perturb_float(as_word(float(inv_w)), 32,
                                          in_.perturb.rel * std::fabs(inv_w),
                                          perturb_sign(in_.perturb, in.dest.index, c, 3)));
      });
      return true;

   case intrinsic_op::store_output: {
      const def *value = in.srcs[0].ssa;
      const unsigned bits = value->bit_size;
      const unsigned comp = unsigned(in.index(intrinsic_index::component));
      const uint32_t wrmask = uint32_t(in.index(intrinsic_index::write_mask));
      for_each_lane(mask, [&](unsigned c) {
         const unsigned loc = io.location + get32(in.srcs[1], c);
         auto put = [&](unsigned w, uint32_t v, uint32_t keep) {
            output_slot &s = out_.slots[{loc + w / 4, io.dual_source_blend_index}];
            uint32_t &dst = s.value[w % 4][c];
            dst = (dst & keep) | v;
            s.written[w % 4] |= 1u << c;
         };
         for (unsigned k = 0; k < value->num_components; k++) {
            if (!(wrmask >> k & 1))
               continue;
            const uint64_t v = get(value, c, k);
            if (bits == 64) {
               put(comp + 2 * k, uint32_t(v), 0);
               put(comp + 2 * k + 1, uint32_t(v >> 32), 0);
            } else if (bits == 16) {
               const unsigned sh = io.high_16bits ? 16 : 0;
               put(comp + k, uint32_t(v) << sh, 0xffffu << (16 - sh));
            } else {
               put(comp + k, uint32_t(v), 0);
            }
         }
      });
      return true;
   }

   default:
      return false;
   }
}

std::vector<uint8_t> *
machine::ssbo(uint32_t index)
{
   auto it = mem_->ssbos.find(index);
   return it == mem_->ssbos.end() ? nullptr : &it->second;
}

void
machine::load_memory(const intrinsic_instr &in, unsigned lane,
                     const std::vector<uint8_t> &buf, int64_t offset)
{
   const unsigned bytes = std::max(1u, in.dest.bit_size / 8u);
   for (unsigned k = 0; k < in.dest.num_components; k++)
      set(in.dest, lane, k, read_bytes(buf, offset + int64_t(k) * bytes, bytes));
}

void
machine::store_memory(const intrinsic_instr &in, unsigned lane,
                      std::vector<uint8_t> &buf, int64_t offset)
{
   /* Helper invocations never write memory. */
   if (helpers_ >> lane & 1)
      return;
   const def *value = in.srcs[0].ssa;
   const unsigned bytes = std::max(1u, value->bit_size / 8u);
   const uint32_t wrmask = uint32_t(in.index(intrinsic_index::write_mask));
   for (unsigned k = 0; k < value->num_components; k++) {
      if (wrmask >> k & 1)
         write_bytes(buf, offset + int64_t(k) * bytes, bytes, get(value, lane, k));
   }
}

/* One channel's atomic; channels go in order, lowest first. */
void
machine::atomic(const intrinsic_instr &in, unsigned lane,
                std::vector<uint8_t> &buf, int64_t offset, unsigned data_src)
{
   const unsigned bits = in.dest.bit_size;
   const unsigned bytes = bits / 8;
   const uint64_t old = read_bytes(buf, offset, bytes);
   const uint64_t data = get(in.srcs[data_src].ssa, lane);
   const uint32_t op = uint32_t(in.index(intrinsic_index::atomic_op));
   const char *name = name_of(atomic_op_names, op);
   const std::string n = name ? name : "?";
   uint64_t result;
   if (n == "xchg") {
      result = data;
   } else if (n == "cmpxchg" || n == "fcmpxchg") {
      /* Sources: ..., compare, new value. */
      const uint64_t swap = get(in.srcs[data_src + 1].ssa, lane);
      bool equal = old == data;
      if (n == "fcmpxchg")
         equal = fold(alu_op::feq, bits, old, data) != 0;
      result = equal ? swap : old;
   } else if (n == "inc_wrap") {
      result = old >= data ? 0 : old + 1;
   } else if (n == "dec_wrap") {
      result = old == 0 || old > data ? data : old - 1;
   } else {
      alu_op op;
      if (!alu_op_from_name(n, &op))
         unsupported(in, strfmt("atomic operation %s", n.c_str()).c_str());
      result = fold(op, bits, old, data);
   }
   if (!(helpers_ >> lane & 1))
      write_bytes(buf, offset, bytes, result);
   set(in.dest, lane, 0, old);
}

bool
machine::exec_memory(const intrinsic_instr &in, lane_mask mask)
{
   static const std::vector<uint8_t> empty;
   auto base = [&]() -> int64_t { return in.index(intrinsic_index::base); };

   switch (in.op) {
   case intrinsic_op::load_uniform:
   case intrinsic_op::load_push_constant:
      for_each_lane(mask, [&](unsigned c) {
         load_memory(in, c, in_.push, base() + int32_t(get32(in.srcs[0], c)));
      });
      return true;

   case intrinsic_op::load_ubo:
   case intrinsic_op::load_ubo_uniform_block_intel:
      for_each_lane(mask, [&](unsigned c) {
         auto it = in_.ubos.find(get32(in.srcs[0], c));
         load_memory(in, c, it == in_.ubos.end() ? empty : it->second,
                     get32(in.srcs[1], c));
      });
      return true;

   case intrinsic_op::load_ssbo:
   case intrinsic_op::load_ssbo_uniform_block_intel:
      for_each_lane(mask, [&](unsigned c) {
         const std::vector<uint8_t> *b = ssbo(get32(in.srcs[0], c));
         load_memory(in, c, b ? *b : empty, get32(in.srcs[1], c));
      });
      return true;

   case intrinsic_op::store_ssbo:
      for_each_lane(mask, [&](unsigned c) {
         if (std::vector<uint8_t> *b = ssbo(get32(in.srcs[1], c)))
            store_memory(in, c, *b, get32(in.srcs[2], c));
      });
      return true;

   case intrinsic_op::ssbo_atomic:
   case intrinsic_op::ssbo_atomic_swap:
      for_each_lane(mask, [&](unsigned c) {
         std::vector<uint8_t> scratch;
         std::vector<uint8_t> *b = ssbo(get32(in.srcs[0], c));
         atomic(in, c, b ? *b : scratch, get32(in.srcs[1], c), 2);
      });
      return true;

   case intrinsic_op::get_ssbo_size:
      for_each_lane(mask, [&](unsigned c) {
         const std::vector<uint8_t> *b = ssbo(get32(in.srcs[0], c));
         set(in.dest, c, 0, b ? b->size() : 0);
      });
      return true;

   case intrinsic_op::load_shared:
   case intrinsic_op::load_shared_uniform_block_intel:
      for_each_lane(mask, [&](unsigned c) {
         load_memory(in, c, mem_->shared, base() + get32(in.srcs[0], c));
      });
      return true;

   case intrinsic_op::store_shared:
      for_each_lane(mask, [&](unsigned c) {
         store_memory(in, c, mem_->shared, base() + get32(in.srcs[1], c));
      });
      return true;

   case intrinsic_op::shared_atomic:
   case intrinsic_op::shared_atomic_swap:
      for_each_lane(mask, [&](unsigned c) {
         atomic(in, c, mem_->shared, base() + get32(in.srcs[0], c), 1);
      });
      return true;

   case intrinsic_op::load_scratch:
      for_each_lane(mask, [&](unsigned c) {
         load_memory(in, c, scratch_[c], get32(in.srcs[0], c));
      });
      return true;

   case intrinsic_op::store_scratch:
      for_each_lane(mask, [&](unsigned c) {
         store_memory(in, c, scratch_[c], get32(in.srcs[1], c));
      });
      return true;

   default:
      return false;
   }
}

/* The image a channel's access addresses; its dimension must be the
 * instruction's.
 */
image &
machine::image_of(const intrinsic_instr &in, unsigned lane)
{
   const uint32_t index = get32(in.srcs[0], lane);
   auto it = mem_->images.find(index);
   if (it == mem_->images.end())
      unsupported(in, strfmt("image %u, which the inputs do not have", index).c_str());
   image &im = it->second;
   /* glsl_sampler_dim: 1D 0, 2D 1, 3D 2, Buf 5. */
   static const int dims[] = {0, 1, 2, 5};
   const int dim = int(in.index(intrinsic_index::image_dim));
   const bool array = in.index(intrinsic_index::image_array) != 0;
   if (dim != dims[unsigned(im.dim)] || array != im.array)
      unsupported(in, strfmt("an access of another dimension or arrayness than image %u",
                             index).c_str());
   return im;
}

/* Images: integer coordinates, one level (the lod source must be 0);
 * outside the image loads give zeros, stores are dropped and atomics
 * return 0 without writing, as Gen's typed messages do.  Helper
 * invocations never write.
 */
bool
machine::exec_image(const intrinsic_instr &in, lane_mask mask)
{
   const intrinsic_op op = in.op;
   if (op != intrinsic_op::image_load && op != intrinsic_op::image_store &&
       op != intrinsic_op::image_atomic && op != intrinsic_op::image_atomic_swap &&
       op != intrinsic_op::image_size)
      return false;
   auto coords = [&](const image &im, unsigned lane, int32_t *xyz) {
      for (unsigned k = 0; k < 3; k++)
         xyz[k] = k < im.coords() ? int32_t(get32(in.srcs[1], lane, k)) : 0;
   };
   auto level0 = [&](unsigned src, unsigned lane) {
      if (get32(in.srcs[src], lane) != 0)
         unsupported(in, "an image level other than 0");
   };
   if (nir::op_info(op).has_dest && in.dest.bit_size != 32)
      unsupported(in, "a non-32-bit image access");

   switch (op) {
   case intrinsic_op::image_load:
      for_each_lane(mask, [&](unsigned c) {
         const image &im = image_of(in, c);
         level0(3, c);
         int32_t xyz[3];
         coords(im, c, xyz);
         const words4 v = image_read(im, xyz);
         for (unsigned k = 0; k < in.dest.num_components; k++)
            set(in.dest, c, k, k < 4 ? v[k] : 0);
      });
      return true;

   case intrinsic_op::image_store: {
      const def *val = in.srcs[3].ssa;
      if (val->bit_size != 32)
         unsupported(in, "a non-32-bit image store");
      for_each_lane(mask, [&](unsigned c) {
         image &im = image_of(in, c);
         level0(4, c);
         if (helpers_ >> c & 1)
            return;
         int32_t xyz[3];
         coords(im, c, xyz);
         const int64_t t = image_texel(im, xyz);
         if (t < 0)
            return;
         for (unsigned k = 0; k < std::min(im.components(), unsigned(val->num_components)); k++)
            im.words[size_t(t) * im.components() + k] = get32(val, c, k);
      });
      return true;
   }

   case intrinsic_op::image_atomic:
   case intrinsic_op::image_atomic_swap:
      for_each_lane(mask, [&](unsigned c) {
         image &im = image_of(in, c);
         if (im.components() != 1)
            unsupported(in, "an atomic on a four-component image");
         int32_t xyz[3];
         coords(im, c, xyz);
         const int64_t t = image_texel(im, xyz);
         /* The texel as a 4-byte buffer (empty outside: reads 0, drops
          * the write).
          */
         std::vector<uint8_t> word;
         if (t >= 0) {
            word.resize(4);
            std::memcpy(word.data(), &im.words[size_t(t)], 4);
         }
         atomic(in, c, word, 0, 3);
         if (t >= 0)
            std::memcpy(&im.words[size_t(t)], word.data(), 4);
      });
      return true;

   case intrinsic_op::image_size:
      for_each_lane(mask, [&](unsigned c) {
         const image &im = image_of(in, c);
         level0(1, c);
         const unsigned sizes[3] = {im.width, im.height, im.depth};
         for (unsigned k = 0; k < in.dest.num_components; k++)
            set(in.dest, c, k, k < im.coords() ? sizes[k] : 0);
      });
      return true;

   default:
      return false;
   }
}

bool
machine::exec_subgroup(const intrinsic_instr &in, lane_mask mask)
{
   const def &dest = in.dest;
   const unsigned first = mask ? unsigned(__builtin_ctz(mask)) : 0;

   /* A 32- or 64-bit mask, or a uvec4 of 32-bit words. */
   auto set_mask = [&](unsigned c, uint64_t m) {
      set(dest, c, 0, m);
      for (unsigned k = 1; k < dest.num_components; k++)
         set(dest, c, k, 0);
   };

   switch (in.op) {
   case intrinsic_op::ballot: {
      lane_mask m = 0;
      for_each_lane(mask, [&](unsigned c) {
         if (get_bool(in.srcs[0].ssa, c))
            m |= 1u << c;
      });
      for_each_lane(mask, [&](unsigned c) { set_mask(c, m); });
      return true;
   }

   case intrinsic_op::vote_any:
   case intrinsic_op::vote_all: {
      bool any = false, all = true;
      for_each_lane(mask, [&](unsigned c) {
         const bool b = get_bool(in.srcs[0].ssa, c);
         any |= b;
         all &= b;
      });
      const bool r = in.op == intrinsic_op::vote_any ? any : all;
      for_each_lane(mask, [&](unsigned c) { set_bool(dest, c, r); });
      return true;
   }

   case intrinsic_op::quad_vote_any:
   case intrinsic_op::quad_vote_all: {
      /* Over the active channels of each quad (4q .. 4q+3). */
      for_each_lane(mask, [&](unsigned c) {
         bool any = false, all = true;
         for (unsigned k = c & ~3u; k < (c & ~3u) + 4; k++) {
            if (!((mask >> k) & 1))
               continue;
            const bool b = get_bool(in.srcs[0].ssa, k);
            any |= b;
            all &= b;
         }
         set_bool(dest, c, in.op == intrinsic_op::quad_vote_any ? any : all);
      });
      return true;
   }

   case intrinsic_op::vote_ieq:
   case intrinsic_op::vote_feq: {
      const def *v = in.srcs[0].ssa;
      bool equal = true;
      for_each_lane(mask, [&](unsigned c) {
         for (unsigned k = 0; k < v->num_components; k++) {
            const uint64_t a = get(v, first, k), b = get(v, c, k);
            if (in.op == intrinsic_op::vote_ieq)
               equal &= a == b;
            else
               equal &= fold(alu_op::feq, v->bit_size, a, b) != 0;
         }
      });
      for_each_lane(mask, [&](unsigned c) { set_bool(dest, c, equal); });
      return true;
   }

   case intrinsic_op::read_first_invocation:
   case intrinsic_op::read_invocation:
   case intrinsic_op::shuffle:
   case intrinsic_op::quad_broadcast:
   case intrinsic_op::quad_swap_horizontal:
   case intrinsic_op::quad_swap_vertical:
   case intrinsic_op::quad_swap_diagonal: {
      /* Every channel reads before any writes. */
      std::array<unsigned, max_simd> from = {};
      for_each_lane(mask, [&](unsigned c) {
         switch (in.op) {
         case intrinsic_op::read_first_invocation: from[c] = first; break;
         case intrinsic_op::quad_broadcast:
            from[c] = (c & ~3u) | (get32(in.srcs[1], c) & 3u);
            break;
         case intrinsic_op::quad_swap_horizontal: from[c] = c ^ 1; break;
         case intrinsic_op::quad_swap_vertical: from[c] = c ^ 2; break;
         case intrinsic_op::quad_swap_diagonal: from[c] = c ^ 3; break;
         default: from[c] = get32(in.srcs[1], c); break;
         }
         /* An index past the group: brw takes it modulo the width. */
         from[c] %= simd_;
      });
      const def *v = in.srcs[0].ssa;
      std::vector<uint64_t> tmp(size_t(simd_) * v->num_components);
      for_each_lane(mask, [&](unsigned c) {
         for (unsigned k = 0; k < v->num_components; k++)
            tmp[c * v->num_components + k] = get(v, from[c], k);
      });
      for_each_lane(mask, [&](unsigned c) {
         for (unsigned k = 0; k < v->num_components; k++)
            set(dest, c, k, tmp[c * v->num_components + k]);
      });
      return true;
   }

   case intrinsic_op::reduce:
   case intrinsic_op::inclusive_scan:
   case intrinsic_op::exclusive_scan: {
      const alu_op op = alu_op(in.index(intrinsic_index::reduction_op));
      const def *v = in.srcs[0].ssa;
      unsigned cluster = simd_;
      if (in.op == intrinsic_op::reduce && in.index(intrinsic_index::cluster_size))
         cluster = std::min(simd_, unsigned(in.index(intrinsic_index::cluster_size)));
      std::vector<uint64_t> res(size_t(simd_) * v->num_components);
      for (unsigned k = 0; k < v->num_components; k++) {
         for (unsigned start = 0; start < simd_; start += cluster) {
            uint64_t acc = reduction_identity(op, v->bit_size);
            for (unsigned c = start; c < start + cluster; c++) {
               if (!(mask >> c & 1))
                  continue;
               const uint64_t before = acc;
               acc = fold(op, v->bit_size, acc, get(v, c, k));
               if (in.op == intrinsic_op::exclusive_scan)
                  res[c * v->num_components + k] = before;
               else if (in.op == intrinsic_op::inclusive_scan)
                  res[c * v->num_components + k] = acc;
            }
            if (in.op == intrinsic_op::reduce) {
               for (unsigned c = start; c < start + cluster; c++)
                  res[c * v->num_components + k] = acc;
            }
         }
      }
      for_each_lane(mask, [&](unsigned c) {
         for (unsigned k = 0; k < v->num_components; k++)
            set(dest, c, k, res[c * v->num_components + k]);
      });
      return true;
   }

   case intrinsic_op::elect:
      for_each_lane(mask, [&](unsigned c) { set_bool(dest, c, c == first); });
      return true;
   case intrinsic_op::first_invocation:
      for_each_lane(mask, [&](unsigned c) { set(dest, c, 0, first); });
      return true;
   case intrinsic_op::last_invocation:
      for_each_lane(mask, [&](unsigned c) {
         set(dest, c, 0, 31u - unsigned(__builtin_clz(mask)));
      });
      return true;

   case intrinsic_op::load_subgroup_invocation:
      for_each_lane(mask, [&](unsigned c) { set(dest, c, 0, c); });
      return true;
   case intrinsic_op::load_subgroup_size:
      for_each_lane(mask, [&](unsigned c) { set(dest, c, 0, simd_); });
      return true;
   case intrinsic_op::load_subgroup_eq_mask:
   case intrinsic_op::load_subgroup_ge_mask:
   case intrinsic_op::load_subgroup_gt_mask:
   case intrinsic_op::load_subgroup_le_mask:
   case intrinsic_op::load_subgroup_lt_mask:
      for_each_lane(mask, [&](unsigned c) {
         const uint64_t eq = 1ull << c, lt = eq - 1;
         const uint64_t group = simd_mask(simd_);
         uint64_t m = 0;
         switch (in.op) {
         case intrinsic_op::load_subgroup_eq_mask: m = eq; break;
         case intrinsic_op::load_subgroup_ge_mask: m = ~lt & group; break;
         case intrinsic_op::load_subgroup_gt_mask: m = ~(lt | eq) & group; break;
         case intrinsic_op::load_subgroup_le_mask: m = lt | eq; break;
         default: m = lt; break;
         }
         set_mask(c, m);
      });
      return true;

   default:
      return false;
   }
}

bool
machine::exec_sysval(const intrinsic_instr &in, lane_mask mask)
{
   const def &dest = in.dest;
   auto each = [&](auto value_of) {
      for_each_lane(mask, [&](unsigned c) {
         for (unsigned k = 0; k < dest.num_components; k++)
            set(dest, c, k, value_of(c, k));
      });
   };
   auto per_channel = [&](const std::vector<uint32_t> &v, unsigned c,
                          uint32_t dflt) -> uint32_t {
      return c < v.size() ? v[c] : dflt;
   };
   /* Local invocation index and id of a compute channel. */
   auto local_index = [&](unsigned c) { return subgroup_ * simd_ + c; };
   auto local_id = [&](unsigned c, unsigned k) -> uint32_t {
      const unsigned i = local_index(c);
      switch (k) {
      case 0: return i % wg_size_[0];
      case 1: return i / wg_size_[0] % wg_size_[1];
      default: return i / (wg_size_[0] * wg_size_[1]);
      }
   };

   switch (in.op) {
   /* Vertex */
   case intrinsic_op::load_vertex_id:
      each([&](unsigned c, unsigned) {
         return per_channel(in_.vertex_id, c, in_.first_vertex + c);
      });
      return true;
   case intrinsic_op::load_vertex_id_zero_base:
      each([&](unsigned c, unsigned) {
         return per_channel(in_.vertex_id, c, in_.first_vertex + c) -
                in_.first_vertex;
      });
      return true;
   case intrinsic_op::load_first_vertex:
      each([&](unsigned, unsigned) { return in_.first_vertex; });
      return true;
   case intrinsic_op::load_base_vertex:
      each([&](unsigned, unsigned) { return in_.base_vertex; });
      return true;
   case intrinsic_op::load_instance_id:
      each([&](unsigned, unsigned) { return in_.instance_id; });
      return true;
   case intrinsic_op::load_base_instance:
      each([&](unsigned, unsigned) { return in_.base_instance; });
      return true;
   case intrinsic_op::load_draw_id:
      each([&](unsigned, unsigned) { return in_.draw_id; });
      return true;

   /* Fragment */
   case intrinsic_op::load_front_face:
      for_each_lane(mask, [&](unsigned c) { set_bool(dest, c, in_.front_face); });
      return true;
   case intrinsic_op::load_helper_invocation:
   case intrinsic_op::is_helper_invocation:
      for_each_lane(mask, [&](unsigned c) {
         set_bool(dest, c, helpers_ >> c & 1);
      });
      return true;
   case intrinsic_op::load_sample_id:
      each([&](unsigned c, unsigned) { return per_channel(in_.sample_id, c, 0); });
      return true;
   case intrinsic_op::load_sample_mask_in:
      each([&](unsigned c, unsigned) {
         return per_channel(in_.sample_mask_in, c, 1);
      });
      return true;
   case intrinsic_op::load_sample_pos:
   case intrinsic_op::load_sample_pos_or_center:
      each([&](unsigned c, unsigned k) {
         const uint32_t s = per_channel(in_.sample_id, c, 0);
         const float v = s < in_.sample_pos.size() ? in_.sample_pos[s][k] : 0.5f;
         return as_word(v);
      });
      return true;

   /* Compute */
   case intrinsic_op::load_local_invocation_id:
      each(local_id);
      return true;
   case intrinsic_op::load_local_invocation_index:
      each([&](unsigned c, unsigned) { return local_index(c); });
      return true;
   case intrinsic_op::load_workgroup_id:
   case intrinsic_op::load_workgroup_id_zero_base:
      each([&](unsigned, unsigned k) { return in_.workgroup_id[k]; });
      return true;
   case intrinsic_op::load_workgroup_size:
      each([&](unsigned, unsigned k) { return wg_size_[k]; });
      return true;
   case intrinsic_op::load_num_workgroups:
      each([&](unsigned, unsigned k) { return in_.num_workgroups[k]; });
      return true;
   case intrinsic_op::load_global_invocation_id:
      each([&](unsigned c, unsigned k) {
         return uint64_t(in_.workgroup_id[k]) * wg_size_[k] + local_id(c, k);
      });
      return true;
   case intrinsic_op::load_subgroup_id:
      each([&](unsigned, unsigned) { return subgroup_; });
      return true;

   default:
      return false;
   }
}

/* ------------------------------------------------------------------ */
/* Textures */

void
machine::exec_tex(const tex_instr &tex, lane_mask mask)
{
   auto src_def = [&](tex_src_type t) -> const def * {
      const int i = tex.src_index(t);
      return i < 0 ? nullptr : tex.srcs[unsigned(i)].ssa;
   };
   const def *coord = src_def(tex_src_type::coord);
   const def *comparator = src_def(tex_src_type::comparator);
   const def *offset = src_def(tex_src_type::offset);
   const def *bias = src_def(tex_src_type::bias);
   const def *lod = src_def(tex_src_type::lod);
   const def *min_lod = src_def(tex_src_type::min_lod);
   const def *ddx = src_def(tex_src_type::ddx);
   const def *ddy = src_def(tex_src_type::ddy);
   const def *tex_off = src_def(tex_src_type::texture_offset);
   const def *samp_off = src_def(tex_src_type::sampler_offset);
   for (const tex_src &s : tex.srcs) {
      switch (s.type) {
      case tex_src_type::coord: case tex_src_type::comparator:
      case tex_src_type::offset: case tex_src_type::bias:
      case tex_src_type::lod: case tex_src_type::min_lod:
      case tex_src_type::ddx: case tex_src_type::ddy:
      case tex_src_type::texture_offset: case tex_src_type::sampler_offset:
      case tex_src_type::ms_index:
         break;
      default:
         unsupported(tex, strfmt("texture source %s",
                                 tex_src_name(s.type)).c_str());
      }
   }
   if (tex.is_sparse)
      unsupported(tex, "sparse texture lookups");

   const bool fragment = sh_.info.stage == shader_stage::fragment;
   const def &dest = tex.dest;
   const sampler default_sampler;

   for_each_lane(mask, [&](unsigned c) {
      const unsigned ti = tex.texture_index + (tex_off ? get32(tex_off, c) : 0);
      const unsigned si = tex.sampler_index + (samp_off ? get32(samp_off, c) : 0);
      auto t_it = in_.textures.find(ti);
      if (t_it == in_.textures.end())
         throw error(source_loc{sh_.file, tex.line, 0},
                     strfmt("texture %u is not in the inputs", ti));
      const texture &t = t_it->second;
      auto s_it = in_.samplers.find(si);
      const sampler &s = s_it == in_.samplers.end() ? default_sampler : s_it->second;

      words4 r = {};
      auto int_src = [&](const def *d, int32_t dflt) -> int32_t {
         return d ? int32_t(get(d, c)) : dflt;
      };

      switch (tex.op) {
      case tex_op::txs:
         r = tex_size(t, int_src(lod, 0));
         break;
      case tex_op::query_levels:
         r[0] = t.levels;
         break;
      case tex_op::texture_samples:
         r[0] = 1;
         break;
      case tex_op::txf:
      case tex_op::txf_ms: {
         int32_t ic[4] = {0, 0, 0, 0};
         if (!coord || coord->num_components > 4)
            unsupported(tex, "txf without a coordinate");
         for (unsigned k = 0; k < coord->num_components; k++)
            ic[k] = int32_t(get(coord, c, k));
         std::array<int32_t, 3> off = {0, 0, 0};
         for (unsigned k = 0; offset && k < offset->num_components && k < 3; k++)
            off[k] = int32_t(get(offset, c, k));
         r = tex_fetch(t, ic, tex.op == tex_op::txf ? int_src(lod, 0) : 0, off);
         break;
      }
      case tex_op::tex:
      case tex_op::txb:
      case tex_op::txl:
      case tex_op::txd:
      case tex_op::lod:
      case tex_op::tg4: {
         const unsigned n = tex_coord_components(t);
         if (!coord || coord->num_components != n)
            throw error(source_loc{sh_.file, tex.line, 0},
                        strfmt("texture %u takes %u coordinates, the "
                               "instruction gives %u", ti, n,
                               coord ? coord->num_components : 0));
         float fc[4] = {0, 0, 0, 0};
         for (unsigned k = 0; k < n; k++)
            fc[k] = getf(coord, c, k);

         float level = 0;
         if (tex.op == tex_op::txl) {
            level = lod ? getf(lod, c) : 0;
         } else if (tex.op == tex_op::txd) {
            float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
            for (unsigned k = 0; k < ddx->num_components && k < 3; k++) {
               dx[k] = getf(ddx, c, k);
               dy[k] = getf(ddy, c, k);
            }
            level = tex_lod(t, fc, dx, dy);
         } else if (tex.op != tex_op::tg4 && fragment) {
            /* Implicit LOD: coarse quad derivatives, one LOD per quad. */
            const unsigned q = c & ~3u;
            float c0[4], dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
            for (unsigned k = 0; k < n; k++)
               c0[k] = getf(coord, q, k);
            for (unsigned k = 0; k < tex_spatial_dims(t); k++) {
               dx[k] = getf(coord, q + 1, k) - c0[k];
               dy[k] = getf(coord, q + 2, k) - c0[k];
            }
            level = tex_lod(t, c0, dx, dy);
         }
         /* Gen's LOD is approximate (and computed its own way). */
         if (tex.op == tex_op::txd ||
             (fragment && (tex.op == tex_op::tex || tex.op == tex_op::txb)))
            level += float(in_.perturb.lod * perturb_sign(in_.perturb, tex.dest.index, c, 4));
         if (bias)
            level += getf(bias, c);
         if (min_lod)
            level = std::max(level, getf(min_lod, c));

         sample_args a;
         a.coord = fc;
         a.lod = level;
         for (unsigned k = 0; offset && k < offset->num_components && k < 3; k++)
            a.offset[k] = int32_t(get(offset, c, k));
         if (comparator) {
            a.shadow = true;
            a.ref = getf(comparator, c);
         }

         if (tex.op == tex_op::lod) {
            const float clamped = s.mip == mip_filter::none ? 0.f :
               std::clamp(std::isnan(level) ? 0.f : level, 0.f, float(t.levels - 1));
            r = {as_word(clamped), as_word(level), 0, 0};
         } else if (tex.op == tex_op::tg4) {
            r = tex_gather(t, s, a, tex.component,
                           tex.has_explicit_tg4_offsets() ? &tex.tg4_offsets
                                                          : nullptr);
         } else {
            r = tex_sample(t, s, a);
            /* Gen's filter weights are not exact. */
            const bool filtered = t.format == tex_format::rgba32f &&
                                  base_type(tex.dest_type) == type_float;
            for (unsigned k = 0; k < 4 && filtered; k++) {
               const double bound = in_.perturb.texel * std::max(1.0, std::fabs(double(as_float(r[k]))));
               r[k] = uint32_t(perturb_float(r[k], 32, bound,
                                             perturb_sign(in_.perturb, tex.dest.index, c, k)));
            }
         }
         break;
      }
      default:
         unsupported(tex, strfmt("texture operation %s",
                                 op_info(tex.op).name).c_str());
      }

      const bool is_float = base_type(tex.dest_type) == type_float;
      for (unsigned k = 0; k < dest.num_components && k < 4; k++) {
         uint64_t v = r[k];
         if (dest.bit_size == 16 && is_float)
            v = eval::to_half(as_float(r[k]), false);
         set(dest, c, k, v);
      }
   });
}

/* ------------------------------------------------------------------ */

outputs
machine::execute()
{
   lane_mask mask = out_.channels;
   exec_list(impl_->body, mask);
   out_.helpers = helpers_;
   return std::move(out_);
}

} /* anonymous namespace */

/* Every subgroup of the workgroup, with one memory (group_sync). */
outputs
run_workgroup(const shader &s, const inputs &in)
{
   std::array<unsigned, 3> size;
   for (unsigned i = 0; i < 3; i++)
      size[i] = std::max(1u, in.workgroup_size[i] ? in.workgroup_size[i]
                                                  : unsigned(s.info.workgroup_size[i]));
   const uint64_t invocations = uint64_t(size[0]) * size[1] * size[2];
   if (invocations > 1024)
      throw error(strfmt("workgroup of %llu invocations: at most 1024",
                         (unsigned long long)invocations));
   const unsigned n = unsigned((invocations + in.simd - 1) / in.simd);

   outputs mem;
   mem.simd = in.simd;
   mem.ssbos = in.ssbos;
   for (const auto &[index, im] : in.images)
      check_image(im, index);
   mem.images = in.images;
   mem.shared = in.shared;
   if (mem.shared.size() < s.info.shared_size)
      mem.shared.resize(s.info.shared_size);

   group_sync g(n);
   std::vector<std::unique_ptr<machine>> machines;
   for (unsigned k = 0; k < n; k++) {
      lane_mask channels = 0;
      for (unsigned c = 0; c < in.simd; c++) {
         if (uint64_t(k) * in.simd + c < invocations)
            channels |= 1u << c;
      }
      channels &= in.channel_mask();
      machines.push_back(std::make_unique<machine>(s, in, &mem, &g, k, channels));
      if (k == 0)
         mem.channels = channels;
   }
   auto body = [&](unsigned k) {
      try {
         std::unique_lock<std::mutex> lk(g.m);
         g.wait_turn(lk, k);
         lk.unlock();
         machines[k]->execute();
         lk.lock();
         g.st[k] = group_sync::done;
         g.pass(k);
      } catch (const group_sync::aborted &) {
      } catch (...) {
         std::lock_guard<std::mutex> lk(g.m);
         if (!g.failure)
            g.failure = std::current_exception();
         g.abort = true;
         g.cv.notify_all();
      }
   };
   std::vector<std::thread> threads;
   for (unsigned k = 0; k < n; k++)
      threads.emplace_back(body, k);
   for (std::thread &t : threads)
      t.join();
   if (g.failure)
      std::rethrow_exception(g.failure);
   return mem;
}

outputs
run(const shader &s, const inputs &in)
{
   if (in.whole_workgroup && s.info.stage == shader_stage::compute)
      return run_workgroup(s, in);
   machine m(s, in);
   return m.execute();
}

} /* namespace ibis::nir::interp */
