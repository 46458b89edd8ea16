/*
 * The NIR validator: the structural rules of nir_validate.c that apply to
 * final-form NIR.
 *
 * Control flow: cf lists alternate blocks and ifs/loops, start and end with
 * a block; jumps end their block, which ends its list; breaks and
 * continues sit in loops; the end block is empty; the CFG edges are the
 * ones build_cfg() gives.  SSA: every value is defined once, its index is
 * below ssa_alloc, and its definition dominates every use (a phi's use is
 * at the end of the predecessor it comes from); phis start their block and
 * have exactly one source per predecessor.  Sizes: defs have a valid bit
 * size and component count, and every source has the bit size and number
 * of components its instruction needs; swizzles and write masks stay in
 * range.  Indices: enum-valued indices name a value, alignments are powers
 * of two, registers are used through their decl_reg.
 *
 * Errors are ibis::error "file:line: 'instruction': message".
 */
#include <algorithm>
#include <array>
#include <cstdarg>
#include <unordered_map>

#include "nir/nir.h"
#include "nir/nir_text.h"
#include "util/ibis_error.h"

namespace ibis::nir {

namespace {

bool
valid_bit_size(unsigned b)
{
   return b == 1 || b == 8 || b == 16 || b == 32 || b == 64;
}

bool
valid_num_components(unsigned n)
{
   return (n >= 1 && n <= 5) || n == 8 || n == 16;
}

/* A short name for an instruction: "%12 = fadd", "@store_output", "break". */
std::string
describe(const instr &in)
{
   const def *d = in.get_def();
   std::string prefix = d ? strfmt("%%%u = ", d->index) : "";
   switch (in.type) {
   case instr_type::alu:
      return prefix + op_info(static_cast<const alu_instr &>(in).op).name;
   case instr_type::intrinsic:
      return prefix + "@" + op_info(static_cast<const intrinsic_instr &>(in).op).name;
   case instr_type::tex:
      return prefix + op_info(static_cast<const tex_instr &>(in).op).name;
   case instr_type::load_const:
      return prefix + "load_const";
   case instr_type::undef:
      return prefix + "undefined";
   case instr_type::phi:
      return prefix + "phi";
   case instr_type::jump:
      return jump_name(static_cast<const jump_instr &>(in).kind);
   }
   return prefix;
}

class validator {
public:
   validator(const shader &s) : sh_(s) {}
   void run();

private:
   const shader &sh_;
   const function_impl *impl_ = nullptr;
   const instr *instr_ = nullptr;   /* the instruction being checked */
   unsigned line_ = 0;              /* its line, or the cf node's */

   /* Per impl. */
   /* The def with each SSA index and its position in its block: arrays,
    * not hash maps, as the validator runs on every shader read.
    */
   std::vector<const def *> defs_;
   std::vector<unsigned> def_pos_;
   std::unordered_map<const block *, unsigned> order_;  /* block -> index */
   std::vector<const block *> blocks_;
   std::vector<int> idom_;                            /* by order index */
   std::unordered_map<const block *, std::array<block *, 2>> succs_;

   /* A block's position in program order (its index when that is
    * right).
    */
   unsigned order_of(const block *b) const
   {
      if (b->index < blocks_.size() && blocks_[b->index] == b)
         return b->index;
      return order_.at(b);
   }
   bool defined_here(const def *d) const
   {
      return d->index < defs_.size() && defs_[d->index] == d;
   }

   [[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
   /* Inline, the message formatted only on failure: the validator checks
    * every instruction of every shader read.
    */
   template <typename... Args>
   void check(bool cond, const char *fmt, Args... args)
   {
      if (__builtin_expect(!cond, 0))
         fail(fmt, args...);
   }

   void validate_impl(const function_impl &impl);
   void validate_cf_list(const cf_list &list, const cf_node *parent,
                         const loop *in_loop, bool in_continue);
   void validate_block(const block &b, const cf_list &list, size_t pos,
                       const loop *in_loop, bool in_continue);
   void compute_dominators();
   bool dominates(const block *a, const block *b) const;
   /* what is a format with one int argument, formatted on failure. */
   void validate_use(const def *d, const block *use_block, size_t use_pos,
                     const char *what, int arg = 0);
   void validate_src(const def *d, unsigned bit_size, unsigned num_components,
                     const char *what, int arg = 0);
   void validate_instr(const instr &in, const block &b, size_t pos);
   void validate_alu(const alu_instr &alu);
   void validate_intrinsic(const intrinsic_instr &in);
   void validate_tex(const tex_instr &tex);
   void validate_def(const def &d);
};

void
validator::fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   if (instr_)
      msg = "'" + describe(*instr_) + "': " + msg;
   throw ibis::error(source_loc{sh_.file, line_, 0}, msg);
}

void
validator::run()
{
   for (const variable &v : sh_.variables) {
      line_ = v.line;
      check(v.mode && !(v.mode & (v.mode - 1)),
            "variable '%s' must have exactly one mode", v.name.c_str());
      check(v.mode != var_function_temp,
            "function_temp variable '%s' outside a function", v.name.c_str());
      check(unsigned(v.interpolation) < interp_mode_names.count,
            "variable '%s' has an invalid interpolation mode", v.name.c_str());
   }
   for (const auto &f : sh_.functions) {
      if (!f->impl)
         continue;
      line_ = 0;
      check(f->impl->function == f.get(), "impl of '%s' points at another function",
            f->name.c_str());
      validate_impl(*f->impl);
   }
}

void
validator::validate_impl(const function_impl &impl)
{
   impl_ = &impl;
   defs_.clear();
   order_.clear();
   blocks_ = std::vector<const block *>();
   for (const block *b : blocks_in_order(impl)) {
      order_[b] = unsigned(blocks_.size());
      blocks_.push_back(b);
   }

   for (const variable &v : impl.locals) {
      line_ = v.line;
      check(v.mode == var_function_temp, "local variable '%s' must be function_temp",
            v.name.c_str());
   }

   /* Definitions first: uses may come before their definition (phis). */
   unsigned num_indices = impl.ssa_alloc;
   for (const block *b : blocks_) {
      for (const auto &in : b->instrs) {
         if (const def *d = in->get_def())
            num_indices = std::max(num_indices, d->index + 1);
      }
   }
   defs_.assign(num_indices, nullptr);
   def_pos_.assign(num_indices, 0);
   for (const block *b : blocks_) {
      for (size_t i = 0; i < b->instrs.size(); i++) {
         const auto &in = b->instrs[i];
         if (const def *d = in->get_def()) {
            instr_ = in.get();
            line_ = in->line;
            check(d->parent == in.get(), "def does not point at its instruction");
            const def *&slot = defs_[d->index];
            if (slot == d)
               fail("defined twice");
            check(!slot, "SSA index %%%u is used by two values", d->index);
            slot = d;
            def_pos_[d->index] = unsigned(i);
            validate_def(*d);
         }
      }
   }
   instr_ = nullptr;

   compute_dominators();
   succs_ = structured_successors(impl);
   validate_cf_list(impl.body, nullptr, nullptr, false);

   const block &end = *impl.end_block;
   line_ = end.line;
   check(end.instrs.empty(), "the end block must be empty");
   check(!end.succs[0] && !end.succs[1], "the end block has successors");
   impl_ = nullptr;
}

void
validator::validate_def(const def &d)
{
   check(valid_bit_size(d.bit_size), "invalid bit size %u", d.bit_size);
   check(valid_num_components(d.num_components), "invalid component count %u",
         d.num_components);
   check(d.index < impl_->ssa_alloc, "SSA index %%%u is not below ssa_alloc (%u)",
         d.index, impl_->ssa_alloc);
}

/* Cooper, Harvey and Kennedy's iterative dominators over program order. */
void
validator::compute_dominators()
{
   const size_t n = blocks_.size();
   idom_.assign(n, -1);
   if (n == 0)
      return;
   idom_[0] = 0;
   bool changed = true;
   while (changed) {
      changed = false;
      for (size_t i = 1; i < n; i++) {
         int new_idom = -1;
         for (const block *p : blocks_[i]->preds) {
            int x;
            if (p->index < n && blocks_[p->index] == p) {
               x = int(p->index);
            } else {
               auto it = order_.find(p);
               if (it == order_.end())
                  continue;
               x = int(it->second);
            }
            if (idom_[x] < 0)
               continue;
            if (new_idom < 0) {
               new_idom = x;
               continue;
            }
            int y = new_idom;
            while (x != y) {
               while (x > y)
                  x = idom_[x];
               while (y > x)
                  y = idom_[y];
            }
            new_idom = x;
         }
         if (new_idom != idom_[i]) {
            idom_[i] = new_idom;
            changed = true;
         }
      }
   }
}

bool
validator::dominates(const block *a, const block *b) const
{
   int x = int(order_of(b));
   const int target = int(order_of(a));
   while (x >= 0) {
      if (x == target)
         return true;
      if (x == 0)
         return false;
      x = idom_[x];
   }
   return false;
}

/* d must be defined in this impl and dominate position use_pos of
 * use_block (use_pos = instrs.size() for the end of the block).
 */
void
validator::validate_use(const def *d, const block *use_block, size_t use_pos,
                        const char *what, int arg)
{
   auto name = [&] { return strfmt(what, arg); };
   if (!d)
      fail("%s has no value", name().c_str());
   if (!defined_here(d))
      fail("%s (%%%u) is not defined in this function", name().c_str(), d->index);
   const block *def_block = d->parent->block;
   const int use_idx = int(order_of(use_block));
   if (idom_[use_idx] < 0)
      return;  /* unreachable: no dominance to speak of */
   if (def_block == use_block) {
      if (def_pos_[d->index] >= use_pos)
         fail("%s (%%%u) is used before its definition", name().c_str(), d->index);
      return;
   }
   if (!dominates(def_block, use_block))
      fail("%s (%%%u, defined in block b%u) does not dominate its use in block b%u",
           name().c_str(), d->index, def_block->index, use_block->index);
}

void
validator::validate_src(const def *d, unsigned bit_size, unsigned num_components,
                        const char *what, int arg)
{
   if (bit_size && d->bit_size != bit_size)
      fail("%s (%%%u) has %u bits, expected %u", strfmt(what, arg).c_str(), d->index,
           d->bit_size, bit_size);
   if (num_components && d->num_components != num_components)
      fail("%s (%%%u) has %u component(s), expected %u", strfmt(what, arg).c_str(),
           d->index, d->num_components, num_components);
}

void
validator::validate_cf_list(const cf_list &list, const cf_node *parent,
                            const loop *in_loop, bool in_continue)
{
   check(!list.empty() && list.front()->type == cf_type::block &&
            list.back()->type == cf_type::block,
         "a control-flow list must start and end with a block");
   for (size_t i = 0; i < list.size(); i++) {
      const cf_node &node = *list[i];
      check(node.parent == parent, "cf node has the wrong parent");
      if (i > 0)
         check((node.type == cf_type::block) != (list[i - 1]->type == cf_type::block),
               "blocks and ifs/loops must alternate");
      switch (node.type) {
      case cf_type::block:
         validate_block(static_cast<const block &>(node), list, i, in_loop, in_continue);
         break;
      case cf_type::if_: {
         const auto &nif = static_cast<const if_ &>(node);
         instr_ = nullptr;
         line_ = nif.line;
         const block *prev = static_cast<const block *>(list[i - 1].get());
         validate_use(nif.condition.ssa, prev, prev->instrs.size(), "the if condition");
         validate_src(nif.condition.ssa, 0, 1, "the if condition");
         validate_cf_list(nif.then_list, &nif, in_loop, in_continue);
         validate_cf_list(nif.else_list, &nif, in_loop, in_continue);
         break;
      }
      case cf_type::loop: {
         const auto &l = static_cast<const loop &>(node);
         validate_cf_list(l.body, &l, &l, false);
         if (!l.continue_list.empty())
            validate_cf_list(l.continue_list, &l, &l, true);
         break;
      }
      }
   }
}

void
validator::validate_block(const block &b, const cf_list &list, size_t pos,
                          const loop *in_loop, bool in_continue)
{
   instr_ = nullptr;
   line_ = b.line;

   bool phis_done = false;
   for (size_t i = 0; i < b.instrs.size(); i++) {
      const instr &in = *b.instrs[i];
      instr_ = &in;
      line_ = in.line;
      check(in.block == &b, "instruction does not point at its block");
      if (in.type == instr_type::phi)
         check(!phis_done, "phis must come first in their block");
      else
         phis_done = true;

      if (in.type == instr_type::jump) {
         const auto kind = static_cast<const jump_instr &>(in).kind;
         check(i + 1 == b.instrs.size(), "a jump must end its block");
         check(pos + 1 == list.size(), "a block ending in a jump must end its list");
         if (kind == jump_type::break_ || kind == jump_type::continue_)
            check(in_loop != nullptr, "outside a loop");
         if (kind != jump_type::break_)
            check(!in_continue, "not allowed in a loop's continue construct");
      }
      validate_instr(in, b, i);
   }
   instr_ = nullptr;
   line_ = b.line;

   /* The edges must be the ones the cf tree implies. */
   check(b.succs == succs_.at(&b), "block b%u: the successors are not the ones the control "
         "flow gives (call build_cfg)", b.index);
   check(b.succs[0] != nullptr, "block b%u has no successor", b.index);
   check(b.succs[0] != b.succs[1], "block b%u has the same successor twice", b.index);
   for (const block *s : b.succs) {
      if (s)
         check(std::count(s->preds.begin(), s->preds.end(), &b) == 1,
               "block b%u is not a predecessor of its successor b%u", b.index,
               s->index);
   }
   for (const block *p : b.preds) {
      check(order_.count(p), "block b%u has a predecessor outside the function",
            b.index);
      check(p->succs[0] == &b || p->succs[1] == &b,
            "block b%u is not a successor of its predecessor b%u", b.index, p->index);
   }
}

void
validator::validate_instr(const instr &in, const block &b, size_t pos)
{
   switch (in.type) {
   case instr_type::alu: {
      const auto &alu = static_cast<const alu_instr &>(in);
      for (unsigned i = 0; i < alu.srcs.size(); i++)
         validate_use(alu.srcs[i].ssa, &b, pos, "source %d", int(i));
      validate_alu(alu);
      break;
   }
   case instr_type::intrinsic: {
      const auto &intr = static_cast<const intrinsic_instr &>(in);
      for (unsigned i = 0; i < intr.srcs.size(); i++)
         validate_use(intr.srcs[i].ssa, &b, pos, "source %d", int(i));
      validate_intrinsic(intr);
      break;
   }
   case instr_type::tex: {
      const auto &tex = static_cast<const tex_instr &>(in);
      for (unsigned i = 0; i < tex.srcs.size(); i++)
         validate_use(tex.srcs[i].ssa, &b, pos, "source %d", int(i));
      validate_tex(tex);
      break;
   }
   case instr_type::load_const: {
      const auto &lc = static_cast<const load_const_instr &>(in);
      check(lc.values.size() == lc.dest.num_components,
            "%zu values for %u components", lc.values.size(), lc.dest.num_components);
      break;
   }
   case instr_type::phi: {
      const auto &phi = static_cast<const phi_instr &>(in);
      for (const block *p : b.preds) {
         unsigned n = 0;
         for (const phi_src &s : phi.srcs)
            n += s.pred == p;
         check(n == 1, "%u sources for predecessor b%u, expected 1", n, p->index);
      }
      for (const phi_src &s : phi.srcs) {
         check(s.pred && std::count(b.preds.begin(), b.preds.end(), s.pred),
               "source from b%u, which is not a predecessor",
               s.pred ? s.pred->index : 0);
         validate_use(s.ssa, s.pred, s.pred->instrs.size(), "the source from b%d",
                      int(s.pred->index));
         validate_src(s.ssa, phi.dest.bit_size, phi.dest.num_components,
                      "the source from b%d", int(s.pred->index));
      }
      break;
   }
   case instr_type::undef:
   case instr_type::jump:
      break;
   }
}

void
validator::validate_alu(const alu_instr &alu)
{
   const alu_op_info &info = op_info(alu.op);
   check(alu.srcs.size() == info.num_inputs, "%zu sources, expected %u",
         alu.srcs.size(), info.num_inputs);
   if (info.output_size)
      check(alu.dest.num_components == info.output_size,
            "the result has %u component(s), the opcode gives %u",
            alu.dest.num_components, info.output_size);

   /* The unsized operands all take one bit size.  src is -1 for the
    * result.
    */
   unsigned unsized = 0;
   auto what = [&](int src) {
      return src < 0 ? std::string("the result")
                     : strfmt("source %d (%%%u)", src, alu.srcs[src].ssa->index);
   };
   auto size_check = [&](alu_type t, unsigned bits, int src) {
      if (type_size(t)) {
         if (bits != type_size(t))
            fail("%s has %u bits, the opcode needs %u", what(src).c_str(), bits,
                 type_size(t));
      } else if (!unsized) {
         unsized = bits;
         if ((info.bit_sizes & bits) != bits)
            fail("%s has %u bits, which the opcode does not allow", what(src).c_str(),
                 bits);
      } else if (bits != unsized) {
         fail("%s has %u bits, other operands have %u", what(src).c_str(), bits,
              unsized);
      }
   };
   size_check(info.output_type, alu.dest.bit_size, -1);
   for (unsigned i = 0; i < info.num_inputs; i++) {
      const def *d = alu.srcs[i].ssa;
      size_check(info.input_types[i], d->bit_size, int(i));
      const unsigned used = alu.src_components(i);
      for (unsigned c = 0; c < used; c++) {
         if (alu.srcs[i].swizzle[c] >= d->num_components)
            fail("swizzle of %s reads component %u of %u", what(int(i)).c_str(),
                 alu.srcs[i].swizzle[c], d->num_components);
      }
   }
}

void
validator::validate_intrinsic(const intrinsic_instr &in)
{
   const intrinsic_info &info = op_info(in.op);
   check(in.srcs.size() == info.num_srcs, "%zu sources, expected %u", in.srcs.size(),
         info.num_srcs);
   for (unsigned i = 0; i < info.num_srcs; i++) {
      const int want = info.src_components[i];
      const unsigned n = want == 0 ? in.num_components : want < 0 ? 0 : unsigned(want);
      validate_src(in.srcs[i].ssa, 0, n, "source %d", int(i));
   }
   if (info.has_dest) {
      const unsigned n = info.dest_components ? info.dest_components : in.num_components;
      check(in.dest.num_components == n, "the result has %u component(s), expected %u",
            in.dest.num_components, n);
      if (info.dest_bit_sizes)
         check((info.dest_bit_sizes & in.dest.bit_size) == in.dest.bit_size,
               "a %u-bit result is not allowed", in.dest.bit_size);
      if (info.bit_size_src >= 0)
         check(in.dest.bit_size == in.srcs[info.bit_size_src].ssa->bit_size,
               "the result must have the bit size of source %d", info.bit_size_src);
   }

   for (unsigned k = 0; k < info.num_indices; k++) {
      const intrinsic_index idx = info.indices[k];
      const intrinsic_index_info &ii = index_info(idx);
      const uint32_t v = uint32_t(in.index(idx));
      switch (ii.style) {
      case index_style::write_mask:
         check(v < (1u << std::min(in.num_components, 16u)),
               "write mask 0x%x is wider than %u components", v, in.num_components);
         break;
      case index_style::alu_op:
         check(v < num_alu_ops, "%s %u is not an ALU opcode", ii.name, v);
         break;
      case index_style::atomic_op:
         check(name_of(atomic_op_names, v), "invalid atomic op %u", v);
         break;
      case index_style::interp_mode:
         check(name_of(interp_mode_names, v), "invalid interpolation mode %u", v);
         break;
      case index_style::image_dim:
         check(name_of(image_dim_names, v), "invalid image dimension %u", v);
         break;
      case index_style::format:
         check(name_of(image_format_names, v), "invalid image format %u", v);
         break;
      case index_style::rounding_mode:
         check(name_of(rounding_mode_names, v), "invalid rounding mode %u", v);
         break;
      case index_style::scope:
         check(name_of(scope_names, v), "invalid %s %u", ii.name, v);
         break;
      case index_style::alu_type:
         check(v == 0 || std::string(type_name(alu_type(v))) != "invalid",
               "invalid %s %u", ii.name, v);
         break;
      default:
         break;
      }
   }

   /* An I/O slot is a vec4: a load or store of up to 32-bit components
    * stays inside it (a 5-component load_input of one slot made from_nir
    * read past the VS payload's attributes: found by check_fuzz).
    */
   if (in.has_index(intrinsic_index::component) && in.has_index(intrinsic_index::io_semantics)) {
      const bool store = !info.has_dest;
      const unsigned bits = store ? in.srcs[0].ssa->bit_size : in.dest.bit_size;
      const unsigned comp = unsigned(in.index(intrinsic_index::component));
      if (bits <= 32)
         check(comp + in.num_components <= 4,
               "components %u-%u of an I/O slot (a vec4)", comp,
               comp + in.num_components - 1);
   }

   /* Memory accesses carry an alignment; loads and stores move bytes. */
   if (in.has_index(intrinsic_index::align_mul)) {
      const uint32_t mul = uint32_t(in.index(intrinsic_index::align_mul));
      const uint32_t off = uint32_t(in.index(intrinsic_index::align_offset));
      check(mul && !(mul & (mul - 1)), "align_mul %u is not a power of two", mul);
      check(off < mul, "align_offset %u is not below align_mul %u", off, mul);
   }
   switch (in.op) {
   case intrinsic_op::load_ubo:
   case intrinsic_op::load_ubo_uniform_block_intel:
      check(in.index(intrinsic_index::range) != 0, "the range is 0");
      /* fallthrough */
   case intrinsic_op::load_ssbo:
   case intrinsic_op::load_shared:
   case intrinsic_op::load_global:
   case intrinsic_op::load_global_constant:
   case intrinsic_op::load_scratch:
   case intrinsic_op::load_uniform:
   case intrinsic_op::load_input:
   case intrinsic_op::load_per_vertex_input:
   case intrinsic_op::load_interpolated_input:
   case intrinsic_op::load_output:
   case intrinsic_op::load_per_vertex_output:
      check(in.dest.bit_size >= 8, "loads at least a byte");
      break;
   case intrinsic_op::store_ssbo:
   case intrinsic_op::store_shared:
   case intrinsic_op::store_global:
   case intrinsic_op::store_scratch:
   case intrinsic_op::store_output:
   case intrinsic_op::store_per_vertex_output:
      check(in.srcs[0].ssa->bit_size >= 8, "stores at least a byte");
      break;
   case intrinsic_op::decl_reg: {
      check(in.block == first_block(impl_->body),
            "registers are declared in the first block");
      const unsigned bits = unsigned(in.index(intrinsic_index::bit_size));
      const unsigned comps = unsigned(in.index(intrinsic_index::num_components));
      check(valid_bit_size(bits), "invalid register bit size %u", bits);
      check(valid_num_components(comps), "invalid register component count %u", comps);
      check(in.dest.bit_size == 32 && in.dest.num_components == 1,
            "a register handle is a 32-bit scalar");
      break;
   }
   case intrinsic_op::load_reg:
   case intrinsic_op::load_reg_indirect:
   case intrinsic_op::store_reg:
   case intrinsic_op::store_reg_indirect: {
      const bool load = in.op == intrinsic_op::load_reg ||
                        in.op == intrinsic_op::load_reg_indirect;
      const def *handle = in.srcs[load ? 0 : 1].ssa;
      const intrinsic_instr *decl = reg_decl(in);
      check(decl, "the register (%%%u) is not a decl_reg", handle->index);
      const intrinsic_instr &reg = *decl;
      const unsigned bits = load ? in.dest.bit_size : in.srcs[0].ssa->bit_size;
      const unsigned comps = load ? in.dest.num_components
                                  : in.srcs[0].ssa->num_components;
      check(bits == unsigned(reg.index(intrinsic_index::bit_size)),
            "%u bits for a %d-bit register (%%%u)", bits,
            reg.index(intrinsic_index::bit_size), handle->index);
      check(comps == unsigned(reg.index(intrinsic_index::num_components)),
            "%u components for a %d-component register (%%%u)", comps,
            reg.index(intrinsic_index::num_components), handle->index);
      const int elems = reg.index(intrinsic_index::num_array_elems);
      const int base = in.index(intrinsic_index::base);
      check(base >= 0 && (base < elems || (elems == 0 && base == 0)),
            "register offset %d outside the register (%%%u)", base, handle->index);
      break;
   }
   default:
      break;
   }
}

void
validator::validate_tex(const tex_instr &tex)
{
   check(unsigned(tex.op) < num_tex_ops, "invalid texture op");
   for (size_t i = 0; i < tex.srcs.size(); i++) {
      check(unsigned(tex.srcs[i].type) < num_tex_src_types, "invalid source kind");
      for (size_t j = 0; j < i; j++)
         check(tex.srcs[i].type != tex.srcs[j].type, "source '%s' given twice",
               tex_src_name(tex.srcs[i].type));
      const def *d = tex.srcs[i].ssa;
      const tex_src_type t = tex.srcs[i].type;
      if (t == tex_src_type::coord)
         check(d->num_components == tex.coord_components,
               "the coordinate has %u components, coord_components says %u",
               d->num_components, tex.coord_components);
      else if (t != tex_src_type::ddx && t != tex_src_type::ddy &&
               t != tex_src_type::offset && t != tex_src_type::backend1 &&
               t != tex_src_type::backend2 && t != tex_src_type::ms_mcs_intel &&
               t != tex_src_type::texture_handle && t != tex_src_type::sampler_handle)
         validate_src(d, 0, 1, "source %d", int(i));
   }
   check(base_type(tex.dest_type) != type_invalid, "the result type is invalid");
   check(tex.component < 4, "gather component %u", tex.component);
   check(tex.is_shadow == (tex.src_index(tex_src_type::comparator) >= 0),
         "is_shadow does not match the comparator source");
}

} /* anonymous namespace */

void
validate(const shader &s)
{
   validator(s).run();
}

} /* namespace ibis::nir */
