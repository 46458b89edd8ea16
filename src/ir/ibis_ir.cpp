#include "ir/ibis_ir.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "util/ibis_error.h"

namespace ibis {

const char *
file_name(reg_file f)
{
   static const char *const names[] = {
      "ssa", "wlr", "hw", "uniform", "attr", "imm", "flag", "accum",
   };
   return names[unsigned(f)];
}

static const struct {
   const char *name;
} type_table[] = {
   {"none"}, {"u8"},  {"s8"},  {"u16"}, {"s16"}, {"f16"}, {"u32"}, {"s32"},
   {"f32"},  {"u64"}, {"s64"}, {"f64"}, {"v"},   {"uv"},  {"vf"},  {"flag"},
};
static_assert(sizeof(type_table) / sizeof(type_table[0]) ==
                 sizeof(type_bits_table) && unsigned(data_type::flag) + 1 ==
                 sizeof(type_bits_table),
              "one name and one size per data_type");

const char *
type_name(data_type t)
{
   return type_table[unsigned(t)].name;
}

bool
type_from_name(const std::string &s, data_type *t)
{
   for (unsigned i = 1; i < sizeof(type_table) / sizeof(type_table[0]); i++) {
      if (s == type_table[i].name) {
         *t = data_type(i);
         return true;
      }
   }
   return false;
}

bool
type_is_float(data_type t)
{
   return t == data_type::f16 || t == data_type::f32 || t == data_type::f64 ||
          t == data_type::vf;
}

bool
type_is_signed_int(data_type t)
{
   return t == data_type::s8 || t == data_type::s16 || t == data_type::s32 ||
          t == data_type::s64 || t == data_type::v;
}

bool
type_is_vector_imm(data_type t)
{
   return t == data_type::v || t == data_type::uv || t == data_type::vf;
}

const char *
cond_mod_name(cond_mod c)
{
   static const char *const names[] = {
      "", "z", "nz", "g", "ge", "l", "le", "o", "u",
   };
   return names[unsigned(c)];
}

const char *
stage_name(shader_stage s)
{
   static const char *const names[] = {"vs", "tcs", "tes", "gs", "fs", "cs"};
   return names[unsigned(s)];
}

/* value ------------------------------------------------------------------- */

bool
value::is_simd_global() const
{
   if (file != reg_file::ssa && file != reg_file::flag)
      return true;
   if (width == 1)
      return true;
   for (const instr *d : defs_) {
      if (d->we_all() || !d->preserve().is_null())
         return true;
   }
   return false;
}

bool
is_scalar_region(const operand &o)
{
   return o.has_region && o.rgn.vstride == 0 && o.rgn.width == 1 &&
          o.rgn.hstride == 0;
}

bool
is_scalar_read(const operand &o)
{
   if (o.is_imm())
      return true;
   return o.val && o.val->width == 1 && (!o.has_region || is_scalar_region(o));
}

instr *
uniform_flag_def(const value *f)
{
   instr *d = f && f->file == reg_file::flag ? f->def() : nullptr;
   if (!d || d->flag_def() != f || d->cmod == cond_mod::none)
      return nullptr;
   /* A link of a compare chain (lower_flag_chains) is uniform when the
    * flag it is predicated on is.
    */
   if (d->predicate() && (d->op != opcode::cmp || !uniform_flag_def(d->predicate())))
      return nullptr;
   switch (d->op) {
   case opcode::cmp:
   case opcode::and_:
   case opcode::or_:
   case opcode::xor_:
   case opcode::not_:
   case opcode::mov:
   case opcode::add:
      break;
   default:
      return nullptr;
   }
   for (const operand &o : d->dsts()) {
      if (!o.is_null())
         return nullptr;
   }
   for (const operand &o : d->srcs()) {
      if (!is_scalar_read(o))
         return nullptr;
   }
   return d;
}

/* operand ----------------------------------------------------------------- */

operand
operand::imm_of(data_type t, uint64_t bits)
{
   operand o;
   o.type = t;
   unsigned n = type_bits(t);
   o.imm = n >= 64 ? bits : bits & ((1ull << n) - 1);
   return o;
}

operand
operand::imm_f32(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return imm_of(data_type::f32, u);
}

operand
operand::component(unsigned i) const
{
   IBIS_CHECK(val && offset / val->component_bytes() + i < val->length,
              "component %u past the end of the operand's vector", i);
   operand o = *this;
   o.offset = offset + i * val->component_bytes();
   return o;
}

operand
operand::as_type(data_type t) const
{
   operand o = *this;
   o.type = t;
   return o;
}

operand
operand::with_region(unsigned vstride, unsigned width, unsigned hstride) const
{
   operand o = *this;
   o.rgn = region{uint8_t(vstride), uint8_t(width), uint8_t(hstride)};
   o.has_region = true;
   return o;
}

bool
operand::operator==(const operand &o) const
{
   return val == o.val && imm == o.imm && type == o.type &&
          offset == o.offset && has_region == o.has_region &&
          (!has_region || rgn == o.rgn) && neg == o.neg && abs == o.abs;
}

/* instr ------------------------------------------------------------------- */

void
instr::link_src(const operand &o, int slot)
{
   if (!o.val)
      return;
   o.val->uses_.push_back(use{this, slot});
}

void
instr::unlink_src(const operand &o, int slot)
{
   if (!o.val)
      return;
   auto &u = o.val->uses_;
   auto it = std::find_if(u.begin(), u.end(), [&](const use &x) {
      return x.in == this && x.slot == slot;
   });
   IBIS_CHECK(it != u.end(), "use list of %%%u lost a use", o.val->id);
   u.erase(it);
}

void
instr::link_dst(const operand &o)
{
   if (o.val && !writes(o.val))
      o.val->defs_.push_back(this);
}

void
instr::unlink_dst(const operand &o)
{
   if (!o.val)
      return;
   /* Another destination may still write the same value. */
   unsigned n = 0;
   for (const operand &d : dsts_)
      n += d.val == o.val;
   n += flag_def_ == o.val;
   if (n > 1)
      return;
   auto &d = o.val->defs_;
   d.erase(std::remove(d.begin(), d.end(), this), d.end());
}

void
instr::set_src(unsigned i, const operand &o)
{
   IBIS_CHECK(i < srcs_.size(), "source %u of %s out of range", i, info().name);
   unlink_src(srcs_[i], i);
   srcs_[i] = o;
   link_src(o, i);
}

void
instr::add_src(const operand &o)
{
   srcs_.push_back(o);
   link_src(o, srcs_.size() - 1);
}

void
instr::set_num_srcs(unsigned n)
{
   while (srcs_.size() > n) {
      unlink_src(srcs_.back(), srcs_.size() - 1);
      srcs_.pop_back();
   }
   srcs_.resize(n);
}

void
instr::set_dst(unsigned i, const operand &o)
{
   IBIS_CHECK(i < dsts_.size(), "destination %u of %s out of range", i,
              info().name);
   unlink_dst(dsts_[i]);
   dsts_[i] = operand();
   link_dst(o);
   dsts_[i] = o;
}

void
instr::add_dst(const operand &o)
{
   link_dst(o);
   dsts_.push_back(o);
}

void
instr::set_flag_def(value *v)
{
   if (flag_def_)
      unlink_dst(operand(flag_def_));
   flag_def_ = nullptr;
   if (v)
      link_dst(operand(v));
   flag_def_ = v;
}

void
instr::set_predicate(value *v, bool inverted)
{
   unlink_src(operand(pred_), use::predicate);
   pred_ = v;
   pred_inv = v && inverted;
   link_src(operand(v), use::predicate);
}

void
instr::set_preserve(const operand &o)
{
   unlink_src(preserve_, use::preserve);
   preserve_ = o;
   link_src(o, use::preserve);
}

bool
instr::writes(const value *v) const
{
   if (flag_def_ == v)
      return true;
   for (const operand &d : dsts_) {
      if (d.val == v)
         return true;
   }
   return false;
}

bool
instr::reads(const value *v) const
{
   if (pred_ == v || preserve_.val == v)
      return true;
   for (const operand &s : srcs_) {
      if (s.val == v)
         return true;
   }
   return false;
}

bool
instr::is_block_end() const
{
   return op == opcode::if_ || op == opcode::else_ || op == opcode::while_ ||
          op == opcode::break_ || op == opcode::cont;
}

bool
instr::is_block_start() const
{
   return op == opcode::endif || op == opcode::do_;
}

void
instr::remove()
{
   for (unsigned i = 0; i < srcs_.size(); i++)
      unlink_src(srcs_[i], i);
   unlink_src(operand(pred_), use::predicate);
   unlink_src(preserve_, use::preserve);
   for (const operand &d : dsts_) {
      if (d.val) {
         auto &defs = d.val->defs_;
         defs.erase(std::remove(defs.begin(), defs.end(), this), defs.end());
      }
   }
   if (flag_def_) {
      auto &defs = flag_def_->defs_;
      defs.erase(std::remove(defs.begin(), defs.end(), this), defs.end());
   }
   srcs_.clear();
   dsts_.clear();
   preserve_ = operand();
   pred_ = flag_def_ = nullptr;
   if (block_) {
      block_->instrs_.erase(pos_);
      block_ = nullptr;
   }
}

/* block ------------------------------------------------------------------- */

void
block::insert(iterator pos, instr *in)
{
   IBIS_CHECK(!in->block_, "instruction is already in a block");
   in->pos_ = instrs_.insert(pos, in);
   in->block_ = this;
}

void
block::move_here(iterator pos, instr *in)
{
   IBIS_CHECK(in->block_, "move: the instruction is in no block");
   /* One shader's lists share their node pool: splicing keeps the node. */
   instrs_.splice(pos, in->block_->instrs_, in->pos_);
   in->block_ = this;
}

void
block::reorder(const std::vector<instr *> &order)
{
   IBIS_CHECK(order.size() == instrs_.size(),
              "reorder: not a permutation of the block");
   for (instr *in : order)
      IBIS_CHECK(in->block_ == this, "reorder: instruction of another block");
   /* Moving each node to the end keeps every position valid. */
   for (instr *in : order)
      instrs_.splice(instrs_.end(), instrs_, in->pos_);
}

block::iterator
block::after_phis()
{
   auto it = instrs_.begin();
   if (it != instrs_.end() && (*it)->is_block_start())
      ++it;
   while (it != instrs_.end() && (*it)->is_phi())
      ++it;
   return it;
}

block::iterator
block::before_jump()
{
   if (!instrs_.empty() && instrs_.back()->is_block_end())
      return std::prev(instrs_.end());
   return instrs_.end();
}

/* shader ------------------------------------------------------------------ */

shader::shader(shader_stage stage, unsigned dispatch_width)
   : stage(stage), dispatch_width(dispatch_width)
{
}

shader::~shader() = default;

block *
shader::add_block()
{
   blocks_.emplace_back(new block(&list_nodes_));
   block *b = blocks_.back().get();
   b->index = blocks_.size() - 1;
   b->shader_ = this;
   return b;
}

value *
shader::create_value(reg_file file, data_type type, unsigned width,
                     unsigned length, unsigned group, uint32_t id)
{
   if (id == UINT32_MAX)
      id = values_.size();
   IBIS_CHECK(id >= values_.size() || !values_[id], "value %%%u exists", id);
   if (id >= values_.size())
      values_.resize(id + 1);
   value *v = new (value_pool_.alloc()) value();
   v->id = id;
   v->file = file;
   v->type = type;
   v->width = width;
   v->group = group;
   v->length = length;
   values_[id] = v;
   return v;
}

std::vector<value *>
shader::values() const
{
   /* A copy of the table in one piece, then the gaps out (there are
    * none after compact_values()): passes ask for this often.
    */
   std::vector<value *> v(values_);
   v.erase(std::remove(v.begin(), v.end(), nullptr), v.end());
   return v;
}

instr *
shader::create_instr(opcode op, unsigned exec_size)
{
   instr *in = new (instr_pool_.alloc()) instr(op, exec_size ? exec_size : dispatch_width);
   in->serial_ = num_instrs_++;
   return in;
}

std::unique_ptr<shader>
shader::clone() const
{
   auto c = std::make_unique<shader>(stage, dispatch_width);
   c->lowered = lowered;
   c->allocated = allocated;
   c->scratch_bytes = scratch_bytes;

   c->values_.resize(values_.size());
   for (const value *p : values_) {
      if (!p)
         continue;
      value *v = new (c->value_pool_.alloc()) value();
      v->id = p->id;
      v->file = p->file;
      v->type = p->type;
      v->width = p->width;
      v->group = p->group;
      v->length = p->length;
      v->phys = p->phys;
      c->values_[p->id] = v;
   }
   auto map_val = [&](const value *v) -> value * {
      return v ? c->values_[v->id] : nullptr;
   };
   auto map_op = [&](const operand &o) {
      operand n = o;
      n.val = map_val(o.val);
      return n;
   };

   /* Old instruction -> copy, by the old one's serial number. */
   std::vector<std::pair<const instr *, instr *>> copy_of(num_instrs_);
   for (const auto &b : blocks_) {
      block *nb = c->add_block();
      nb->index = b->index;
      for (const instr *in : b->instrs_) {
         instr *ni = c->create_instr(in->op, in->exec_size);
         ni->group = in->group;
         ni->saturate = in->saturate;
         ni->pred_inv = in->pred_inv;
         ni->cmod = in->cmod;
         ni->flags = in->flags;
         ni->ip = in->ip;
         ni->srcs_.reserve(in->srcs_.size());
         for (const operand &o : in->srcs_)
            ni->srcs_.push_back(map_op(o));
         ni->dsts_.reserve(in->dsts_.size());
         for (const operand &o : in->dsts_)
            ni->dsts_.push_back(map_op(o));
         ni->preserve_ = map_op(in->preserve_);
         ni->flag_def_ = map_val(in->flag_def_);
         ni->pred_ = map_val(in->pred_);
         ni->block_ = nb;
         ni->pos_ = nb->instrs_.insert(nb->instrs_.end(), ni);
         copy_of[in->serial_] = {in, ni};
      }
   }
   /* A block's copy is at its position, which is its index unless the
    * blocks were not renumbered.
    */
   auto map_block = [&](const block *b) {
      if (b->index < blocks_.size() && blocks_[b->index].get() == b)
         return c->blocks_[b->index].get();
      for (size_t i = 0; i < blocks_.size(); i++) {
         if (blocks_[i].get() == b)
            return c->blocks_[i].get();
      }
      throw error("clone: an edge to a block outside the shader");
   };
   for (size_t i = 0; i < blocks_.size(); i++) {
      block *nb = c->blocks_[i].get();
      for (const block *p : blocks_[i]->preds)
         nb->preds.push_back(map_block(p));
      for (const block *s : blocks_[i]->succs)
         nb->succs.push_back(map_block(s));
   }
   auto map_instr = [&](const instr *in) {
      IBIS_CHECK(in->serial_ < copy_of.size() && copy_of[in->serial_].first == in,
                 "clone: a def or use outside the blocks");
      return copy_of[in->serial_].second;
   };
   for (const value *p : values_) {
      if (!p)
         continue;
      value *v = c->values_[p->id];
      v->defs_.reserve(p->defs_.size());
      for (const instr *d : p->defs_)
         v->defs_.push_back(map_instr(d));
      v->uses_.reserve(p->uses_.size());
      for (const use &u : p->uses_)
         v->uses_.push_back({map_instr(u.in), u.slot});
   }
   return c;
}

unsigned
shader::compact_values()
{
   std::vector<uint8_t> named(values_.size(), 0);
   auto name = [&](const value *v) {
      if (v)
         named[v->id] = 1;
   };
   for (const auto &b : blocks_) {
      for (const instr *in : b->instrs_) {
         for (const operand &o : in->srcs_)
            name(o.val);
         for (const operand &o : in->dsts_)
            name(o.val);
         name(in->preserve_.val);
         name(in->flag_def_);
         name(in->pred_);
      }
   }
   /* Fixed registers stay even unread (the scheduler's budget leaves out
    * every HW_REG register).
    */
   /* The values left out stay in the pool: removed instructions may
    * still name them.
    */
   std::vector<value *> kept;
   kept.reserve(values_.size());
   unsigned dropped = 0;
   for (value *p : values_) {
      if (!p)
         continue;
      if (named[p->id] || !p->defs_.empty() || !p->uses_.empty() ||
          p->phys.valid() ||
          (p->file != reg_file::ssa && p->file != reg_file::wlr &&
           p->file != reg_file::flag)) {
         p->id = kept.size();
         kept.push_back(p);
      } else {
         dropped++;
      }
   }
   values_ = std::move(kept);
   return dropped;
}

unsigned
shader::renumber()
{
   unsigned ip = 0;
   for (const auto &b : blocks_) {
      for (instr *in : b->instrs())
         in->ip = ip++;
   }
   return ip;
}

[[noreturn]] static void
cfg_error(const block *b, const instr *in, const char *what)
{
   throw error(strfmt("block%u: '%s': %s", b->index, in->str().c_str(), what));
}

/* Structured control flow: "if", "else", "while", "break" and "cont" end
 * their block, "endif" and "do" begin one.  The edges follow the jumps: an
 * if goes to the then-block and to the else-block (or the endif block), an
 * else to the endif block, a while back to the do block, a break to the
 * block after its while, a cont to the do block.  Predicated while, break
 * and cont, and blocks without a jump, also fall through.
 */
void
shader::rebuild_cfg()
{
   struct frame {
      opcode op;            /* if_ or do_ */
      block *start;         /* block ending with the if, or starting with do */
      block *else_end;      /* block ending with else, if any */
      std::vector<block *> jumps;  /* breaks (loops) */
      std::vector<block *> conts;
   };
   std::vector<frame> stack;
   for (auto &b : blocks_) {
      b->preds.clear();
      b->succs.clear();
   }
   auto edge = [](block *from, block *to) {
      from->succs.push_back(to);
      to->preds.push_back(from);
   };

   /* Forward edges are added when their target is known; record them and
    * add all edges in block order afterwards so the edge order is stable.
    * One flat list (source index, target), not a vector per block.
    */
   std::vector<std::pair<unsigned, block *>> succs;
   succs.reserve(2 * blocks_.size());
   auto record = [&](unsigned from, block *to) { succs.emplace_back(from, to); };
   for (size_t i = 0; i < blocks_.size(); i++) {
      block *b = blocks_[i].get();
      block *next = i + 1 < blocks_.size() ? blocks_[i + 1].get() : nullptr;
      bool falls = true;

      for (instr *in : b->instrs()) {
         if (in->is_block_end() && in != b->last())
            cfg_error(b, in, "a jump must end its block");
         if (in->is_block_start() && in != b->first())
            cfg_error(b, in, "endif and do must begin their block");
      }

      instr *first = b->first();
      if (first && first->op == opcode::endif) {
         if (stack.empty() || stack.back().op != opcode::if_)
            cfg_error(b, first, "endif without if");
         frame &f = stack.back();
         /* The if without else, or the else, jumps here. */
         if (f.else_end)
            record(f.else_end->index, b);
         else
            record(f.start->index, b);
         stack.pop_back();
      }
      if (first && first->op == opcode::do_)
         stack.push_back(frame{opcode::do_, b, nullptr, {}, {}});

      instr *last = b->last();
      if (last && last->is_block_end()) {
         bool pred = last->predicate() != nullptr;
         auto loop = [&]() -> frame & {
            for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
               if (it->op == opcode::do_)
                  return *it;
            }
            cfg_error(b, last, "break, cont or while outside a loop");
         };
         switch (last->op) {
         case opcode::if_:
            if (!next)
               cfg_error(b, last, "if at the end of the program");
            record(i, next);
            stack.push_back(frame{opcode::if_, b, nullptr, {}, {}});
            falls = false;
            break;
         case opcode::else_: {
            if (stack.empty() || stack.back().op != opcode::if_ ||
                stack.back().else_end)
               cfg_error(b, last, "else without if");
            if (!next)
               cfg_error(b, last, "else at the end of the program");
            frame &f = stack.back();
            record(f.start->index, next);
            f.else_end = b;
            falls = false;
            break;
         }
         case opcode::while_: {
            if (stack.empty() || stack.back().op != opcode::do_)
               cfg_error(b, last, "while without do");
            frame f = stack.back();
            stack.pop_back();
            record(i, f.start);
            for (block *c : f.conts)
               record(c->index, f.start);
            falls = pred;
            if (next) {
               for (block *j : f.jumps)
                  record(j->index, next);
            } else if (!f.jumps.empty() || pred) {
               cfg_error(b, last, "loop exit at the end of the program");
            }
            break;
         }
         case opcode::break_:
            loop().jumps.push_back(b);
            falls = pred;
            break;
         case opcode::cont:
            loop().conts.push_back(b);
            falls = pred;
            break;
         default:
            break;
         }
      }
      if (falls && next)
         record(i, next);
   }
   if (!stack.empty()) {
      throw error(strfmt("block%u: '%s' is never closed", stack.back().start->index,
                         stack.back().op == opcode::if_ ? "if" : "do"));
   }
   /* Jump edges first, then fall-through, in the order recorded. */
   std::stable_sort(succs.begin(), succs.end(),
                    [](const std::pair<unsigned, block *> &a,
                       const std::pair<unsigned, block *> &b) {
                       return a.first < b.first;
                    });
   for (const auto &e : succs)
      edge(blocks_[e.first].get(), e.second);
}

std::string
value_spec(const value *v)
{
   std::string s = strfmt("%sx%u", type_name(v->type), v->width);
   if (v->group)
      s += strfmt("+%u", v->group);
   if (v->length != 1)
      s += strfmt("[%u]", v->length);
   return s;
}

} /* namespace ibis */
