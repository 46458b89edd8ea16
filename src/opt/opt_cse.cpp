/*
 * Common subexpression elimination by global value numbering over the
 * dominator tree: a scoped hash table maps each expression (opcode,
 * execution size and group, NoMask, saturate, conditional modifier,
 * predicate, sources with type, offset, region and modifiers, destination
 * layout) to the first instruction computing it.  A later instruction with
 * the same key in a dominated position is replaced by the earlier one's
 * results and removed.  Commutative sources are hashed in a canonical order.
 *
 * A WLR value is numbered as one meta-instruction when its final write is
 * reached: the key is the keys of all its writes in order, with reads of
 * the value itself written as "self".  Two identical sequences in dominating
 * positions leave the first; the second's writes are removed and its reads
 * point at the first value.  The single writes of a sequence are never
 * numbered on their own.
 *
 * Not numbered: side effects, control flow, sends other than pure loads
 * (sampler, constant buffers, pixel interpolator), accumulator users, instructions reading a
 * HW_REG or writing anything but SSA/FLAG values, and find_live_channel,
 * which depends on the execution mask where it runs.  An instruction that
 * defines a flag is only merged within its block with no flag defined in
 * between, so the flag's live range never spans another flag's.
 *
 * Near linear: one hash of each instruction; a subtree's entries are popped
 * on leaving it.
 */
#include "opt/opt.h"

#include <algorithm>

#include "ir/ibis_analysis.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

struct vn_entry {
   instr *in;             /* the instruction, or the final WLR write */
   value *wlr;            /* the WLR value of a meta-instruction */
   block *blk;
   unsigned flag_epoch;   /* flag halves defined before it, for flag defs */
};

void
put_value_spec(vn_key &k, const value *v)
{
   k.push_back(uint64_t(v->file) | uint64_t(v->type) << 8 |
               uint64_t(v->width) << 16 | uint64_t(v->group) << 24 |
               uint64_t(v->length) << 32);
}

void
put_operand(vn_key &k, const operand &o, const value *self)
{
   k.push_back(!o.val ? 0 : o.val == self ? 1 : uint64_t(o.val->id) + 2);
   k.push_back(o.imm);
   k.push_back(uint64_t(o.type) | uint64_t(o.offset) << 8 |
               uint64_t(o.has_region) << 40 | uint64_t(o.rgn.vstride) << 41 |
               uint64_t(o.rgn.width) << 47 | uint64_t(o.rgn.hstride) << 53 |
               uint64_t(o.neg) << 56 | uint64_t(o.abs) << 57);
}

bool
is_commutative(const instr *in)
{
   if (in->op == opcode::sel)
      return in->cmod == cond_mod::ge || in->cmod == cond_mod::l;
   return in->info().commutative && in->num_srcs() == 2;
}

/* The key of one instruction; self is the WLR value a sequence writes. */
void
put_instr(vn_key &k, const instr *in, const value *self)
{
   k.push_back(uint64_t(in->op) | uint64_t(in->exec_size) << 16 |
               uint64_t(in->group) << 24 | uint64_t(in->saturate) << 32 |
               uint64_t(in->cmod) << 33 | uint64_t(in->pred_inv) << 40 |
               uint64_t(in->flag_def() != nullptr) << 41 |
               uint64_t(in->flags & INSTR_WE_ALL) << 42);
   k.push_back(in->predicate() ? in->predicate()->id + 1 : 0);
   if (in->is_phi())
      k.push_back(in->parent()->index);

   k.push_back(in->num_srcs());
   if (is_commutative(in)) {
      /* Three words per operand, the smaller pair of words first. */
      const size_t a = k.size();
      put_operand(k, in->src(0), self);
      put_operand(k, in->src(1), self);
      const auto first = k.begin() + a;
      if (std::lexicographical_compare(first + 3, first + 6, first, first + 3))
         std::swap_ranges(first, first + 3, first + 3);
   } else {
      for (const operand &o : in->srcs())
         put_operand(k, o, self);
   }
   put_operand(k, in->preserve(), self);

   k.push_back(in->num_dsts());
   /* Destinations by layout: which value they are is the result. */
   for (const operand &d : in->dsts()) {
      operand o = d;
      if (d.val && d.val != self) {
         put_value_spec(k, d.val);
         o.val = nullptr;
      }
      put_operand(k, o, self);
   }
   if (in->flag_def())
      put_value_spec(k, in->flag_def());
}

bool
is_pure_load(opcode op)
{
   return op == opcode::tex_logical || op == opcode::uniform_block_read_logical ||
          op == opcode::varying_pull_constant_logical ||
          op == opcode::interp_logical;
}

/* May two of these compute the same thing? */
bool
is_expression(const instr *in)
{
   const opcode_info &info = in->info();
   if (in->has_side_effects() || info.kind == opcode_kind::cf ||
       info.writes_accum || info.reads_accum || (in->flags & INSTR_EOT))
      return false;
   if ((info.kind == opcode_kind::send || info.kind == opcode_kind::logical) &&
       !is_pure_load(in->op))
      return false;
   switch (in->op) {
   case opcode::undef: case opcode::parallel_copy: case opcode::nop:
   case opcode::find_live_channel:
      return false;
   default:
      break;
   }
   for (const operand &o : in->srcs()) {
      if (o.val && (o.val->file == reg_file::hw_reg ||
                    o.val->file == reg_file::accum))
         return false;
   }
   return true;
}

bool
writes_only_values(const instr *in)
{
   if (!in->num_dsts() && !in->flag_def())
      return false;
   for (const operand &d : in->dsts()) {
      if (!d.val || (d.val->file != reg_file::ssa && d.val->file != reg_file::flag))
         return false;
   }
   return true;
}

/* The sequence's writes may be numbered: each writes only v, all in one
 * block.
 */
bool
is_wlr_expression(const std::vector<instr *> &writes, const value *v)
{
   for (const instr *w : writes) {
      if (!is_expression(w) || w->flag_def() || w->num_dsts() != 1 ||
          w->dst(0).val != v || w->parent() != writes[0]->parent())
         return false;
   }
   return true;
}

/* A scoped hash table of keys for the walk over the dominator tree.  The
 * keys lie one after another in one pool, each bucket chains its entries
 * newest first, and leaving a subtree pops the entries it added, which are
 * the newest: that also uncovers the entries they shadowed.  No node or
 * key is allocated per instruction.
 */
class vn_table {
public:
   explicit vn_table(size_t max_entries)
   {
      heads.assign(key_table_size(max_entries), none);
   }

   /* The newest entry with key k, or null. */
   vn_entry *find(const vn_key &k, size_t h)
   {
      for (uint32_t i = heads[h & (heads.size() - 1)]; i != none; i = entries[i].next) {
         const slot &s = entries[i];
         if (s.hash == h && s.len == k.size() &&
             std::equal(k.begin(), k.end(), pool.begin() + s.start))
            return &entries[i].e;
      }
      return nullptr;
   }

   void push(const vn_key &k, size_t h, const vn_entry &e)
   {
      uint32_t &head = heads[h & (heads.size() - 1)];
      entries.push_back({e, h, uint32_t(pool.size()), uint32_t(k.size()), head});
      head = uint32_t(entries.size() - 1);
      pool.insert(pool.end(), k.begin(), k.end());
   }

   size_t size() const { return entries.size(); }

   /* Removes the entries pushed after the first mark ones. */
   void pop_to(size_t mark)
   {
      while (entries.size() > mark) {
         const slot &s = entries.back();
         heads[s.hash & (heads.size() - 1)] = s.next;
         pool.resize(s.start);
         entries.pop_back();
      }
   }

private:
   static constexpr uint32_t none = UINT32_MAX;
   struct slot {
      vn_entry e;
      size_t hash;
      uint32_t start, len;   /* the key in pool */
      uint32_t next;         /* the next older entry in the bucket */
   };
   std::vector<uint64_t> pool;
   std::vector<slot> entries;
   std::vector<uint32_t> heads;
};

size_t
count_instrs(const shader &s)
{
   size_t n = 0;
   for (const auto &b : s.blocks())
      n += b->instrs().size();
   return n;
}

class cse {
public:
   explicit cse(shader &s)
      : sh(s), dom(s), final_ip(s.value_id_bound()), table(count_instrs(s))
   {
      /* The final write of each WLR value: its defs share one block. */
      for (const value *v : s.values()) {
         for (const instr *d : v->defs())
            final_ip[v->id] = std::max(final_ip[v->id], d->ip);
      }
   }
   bool run();

private:
   shader &sh;
   dominance dom;
   std::vector<unsigned> final_ip;    /* by value id */
   vn_table table;
   vn_key key;                        /* the key being built */
   unsigned flag_epoch = 0;
   bool progress = false;

   void visit(block *b);
   void number_instr(instr *in);
   void number_wlr(instr *final_write, value *v);
   bool may_merge(const vn_entry &e, const instr *in) const;
};

/* The 16-bit flag halves a flag definition takes. */
unsigned
flag_halves(const instr *in)
{
   const value *f = in->flag_def();
   return f ? std::max(1u, unsigned(f->width + 15) / 16) : 0;
}

/* A flag merges with the same one earlier in its block while its flag
 * and those defined in between fit the four flag halves together: its
 * life then overlaps theirs without a spill, and a second compare costs
 * as much as the flag reload a spill would add.
 */
bool
cse::may_merge(const vn_entry &e, const instr *in) const
{
   return !in->flag_def() ||
          (e.blk == in->parent() && flag_epoch - e.flag_epoch + flag_halves(in) <= 4);
}

void
cse::number_instr(instr *in)
{
   key.assign(1, 0);   /* one instruction */
   put_instr(key, in, nullptr);
   const size_t h = key_hash()(key);
   const vn_entry *e = table.find(key, h);
   if (e && may_merge(*e, in)) {
      instr *prev = e->in;
      for (unsigned i = 0; i < in->num_dsts(); i++)
         replace_uses(in->dst(i).val, prev->dst(i).val);
      if (in->flag_def())
         replace_uses(in->flag_def(), prev->flag_def());
      in->remove();
      progress = true;
      return;
   }
   flag_epoch += flag_halves(in);
   table.push(key, h, vn_entry{in, nullptr, in->parent(), flag_epoch});
}

void
cse::number_wlr(instr *final_write, value *v)
{
   std::vector<instr *> writes = wlr_writes(v);
   if (!is_wlr_expression(writes, v))
      return;
   key.assign(1, 1);   /* a WLR sequence */
   put_value_spec(key, v);
   for (const instr *w : writes)
      put_instr(key, w, v);
   const size_t h = key_hash()(key);
   if (const vn_entry *e = table.find(key, h)) {
      value *first = e->wlr;
      /* The writes go first: they hold v's reads of itself. */
      for (instr *w : writes)
         w->remove();
      replace_uses(v, first);
      progress = true;
      return;
   }
   table.push(key, h, vn_entry{final_write, v, final_write->parent(), 0});
}

void
cse::visit(block *b)
{
   for (auto it = b->begin(); it != b->end();) {
      instr *in = *it++;
      value *wlr = nullptr;
      for (const operand &d : in->dsts()) {
         if (d.val && d.val->file == reg_file::wlr)
            wlr = d.val;
      }
      if (wlr) {
         if (in->ip == final_ip[wlr->id])
            number_wlr(in, wlr);
      } else if (is_expression(in) && writes_only_values(in)) {
         number_instr(in);
         continue;
      }
      if (in->parent())
         flag_epoch += flag_halves(in);
   }
}

bool
cse::run()
{
   if (sh.blocks().empty())
      return false;
   /* Depth-first over the dominator tree, popping each block's entries
    * when its subtree is done.
    */
   struct frame {
      block *b;
      size_t next_child, table_mark;
   };
   std::vector<frame> stack;
   stack.push_back({sh.entry(), 0, table.size()});
   visit(sh.entry());
   while (!stack.empty()) {
      frame &f = stack.back();
      const std::vector<block *> &kids = dom.children(f.b);
      if (f.next_child < kids.size()) {
         block *c = kids[f.next_child++];
         stack.push_back({c, 0, table.size()});
         visit(c);
         continue;
      }
      table.pop_to(f.table_mark);
      stack.pop_back();
   }
   return progress;
}

} /* anonymous namespace */

bool
is_numbered_expression(const instr *in)
{
   return is_expression(in) && writes_only_values(in);
}

void
expression_key(std::vector<uint64_t> &k, const instr *in, const value *pred_as)
{
   const size_t start = k.size();
   put_instr(k, in, nullptr);
   if (pred_as && in->predicate())
      k[start + 1] = pred_as->id + 1;
}

bool
opt_cse(shader &s)
{
   return cse(s).run();
}

} /* namespace ibis */
