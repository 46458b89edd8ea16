/*
 * Hoisting of expressions computed in several arms.
 *
 * cse merges an expression with an equal one that dominates it; two equal
 * expressions in sibling arms (the dolphin ubershaders extract the same
 * bitfields of a UBO word in every case of a switch) stay.  A scalar
 * expression (exec size 1, NoMask, no predicate, no flag) runs the same in
 * any block, for every channel, so equal ones are computed once at the end
 * of the nearest block that dominates them all, where their operands are
 * already defined, and their readers read that one.  Chains (shr then and)
 * merge over rounds, one link per round.  Besides ALU instructions the
 * constant-buffer load (uniform_block_read_logical) moves too: it has no
 * effect, and a read out of bounds returns zeros.  A full-width
 * expression moves too when its values take one GRF each: it then
 * computes the channels enabled in the dominating block, a superset of
 * the arms' ones, which read the same; a wider value would hold more
 * registers over the arms (SIMD16 ubershaders stop allocating).
 * When nothing more merges, equal comparisons into a flag whose flags
 * predicate the same movable expressions in every arm move with them
 * (hoist_flags_round), so the flag never lives over the arms.
 *
 * Nothing is speculated: a group moves only to a block from whose end
 * every path runs one of its members (anticipated()); otherwise the
 * members under a lower such block merge there.  Moving every equal
 * group to the common dominator took the corpus to 0.857x brw's static
 * instructions but made the simulator execute 18.7% more at SIMD8 on
 * the check's inputs: an ubershader's uniform switch then runs every
 * case's expressions instead of its own.
 *
 * Cost: per round, one hash per instruction and a walk up the dominator
 * tree per merged group.
 */
#include "opt/opt.h"

#include <algorithm>
#include <map>

#include "ir/ibis_analysis.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

/* An expression that computes the same wherever it runs (with_pred: a
 * predicated one, for the flag phase).
 */
bool
is_hoistable(const instr *in, bool with_pred = false)
{
   const bool scalar = in->exec_size == 1 && in->we_all();
   if ((in->predicate() && !with_pred) ||
       in->flag_def() || !in->preserve().is_null() || in->is_phi() ||
       !is_numbered_expression(in))
      return false;
   const opcode_kind kind = in->info().kind;
   if ((kind == opcode_kind::send || kind == opcode_kind::logical) &&
       (in->op != opcode::uniform_block_read_logical || !scalar))
      return false;
   if (kind == opcode_kind::cf)
      return false;
   for (const operand &d : in->dsts()) {
      if (!d.val || d.val->file != reg_file::ssa)
         return false;
      /* A wider value lives over the arms in the registers of channels
       * the arms may not run: at most one GRF.
       */
      if (!(scalar && d.val->width == 1) && value_grfs(d.val) > 1)
         return false;
   }
   for (const operand &o : in->srcs()) {
      if (o.val && o.val->file != reg_file::ssa && !o.val->is_preloaded())
         return false;
   }
   /* A broadcast of a push constant is as cheap to make again as to
    * keep: moved, its register would live over the arms (glamor/7.fs,
    * +14).
    */
   if (in->op == opcode::mov && in->num_srcs() == 1 && !scalar &&
       in->src(0).val && in->src(0).val->file == reg_file::uniform)
      return false;
   return true;
}

/* Is every value in reads defined by the end of b? */
bool
operands_available(const instr *in, const block *b, const dominance &dom)
{
   for (const operand &o : in->srcs()) {
      if (!o.val || o.val->is_preloaded())
         continue;
      const instr *d = o.val->def();
      if (!d || !d->parent() || !dom.dominates(d->parent(), b))
         return false;
   }
   return true;
}

/* A copy of in at the end of b, writing new values of the same layout
 * (and predicated on pred instead, if given).
 */
instr *
clone_at_end(shader &s, const instr *in, block *b, value *pred = nullptr)
{
   instr *c = s.create_instr(in->op, in->exec_size);
   c->group = in->group;
   c->saturate = in->saturate;
   c->cmod = in->cmod;
   c->flags = in->flags;
   for (const operand &d : in->dsts()) {
      operand o = d;
      o.val = s.create_value(d.val->file, d.val->type, d.val->width,
                             d.val->length, d.val->group);
      c->add_dst(o);
   }
   for (const operand &o : in->srcs())
      c->add_src(o);
   if (in->flag_def()) {
      const value *f = in->flag_def();
      c->set_flag_def(s.create_value(f->file, f->type, f->width, f->length,
                                     f->group));
   }
   if (in->predicate())
      c->set_predicate(pred ? pred : in->predicate(), in->pred_inv);
   b->insert(b->before_jump(), c);
   return c;
}

/* The nearest block dominating every member. */
block *
nearest_common_dominator(const std::vector<instr *> &members,
                         const dominance &dom)
{
   block *ncd = members[0]->parent();
   for (const instr *m : members) {
      while (!dom.dominates(ncd, m->parent()))
         ncd = dom.idom(ncd);
   }
   return ncd;
}

/* The walk's memory, kept from one question to the next: a round asks
 * for every group, and a state per block cleared each time made the
 * round quadratic in the blocks.
 */
struct walk_scratch {
   /* Per block index: 1 holds a member, 2 seen by the walk. */
   std::vector<uint8_t> state;
   std::vector<unsigned> touched;   /* indices to clear before the next walk */
   std::vector<const block *> stack;
};

/* Does every path from the end of d run one of members before it leaves
 * the program or comes back to d?  Then the copy at the end of d adds no
 * work to any path; otherwise it is speculation: a uniform branch of an
 * ubershader would run every case's expressions instead of its own.
 * The walk is bounded; past the bound the answer is no.
 */
bool
anticipated(const block *d, const std::vector<instr *> &members, walk_scratch &w)
{
   std::vector<uint8_t> &state = w.state;
   for (unsigned i : w.touched)
      state[i] = 0;
   w.touched.clear();
   auto at = [&](const block *b) -> uint8_t & {
      if (b->index >= state.size())
         state.resize(b->index + 1, 0);
      w.touched.push_back(b->index);
      return state[b->index];
   };
   for (const instr *m : members)
      at(m->parent()) = 1;
   if (at(d) == 1)
      return true;
   std::vector<const block *> &stack = w.stack;
   stack.assign(d->succs.begin(), d->succs.end());
   unsigned visited = 0;
   if (stack.empty())
      return false;
   while (!stack.empty()) {
      const block *b = stack.back();
      stack.pop_back();
      uint8_t &st = at(b);
      if (st == 1)
         continue;
      if (b == d || b->succs.empty() || ++visited > 4096)
         return false;
      if (st == 2)
         continue;
      st = 2;
      stack.insert(stack.end(), b->succs.begin(), b->succs.end());
   }
   return true;
}

/* Numbers keys in the order they are first seen.  The keys lie one
 * after another in one pool and the table holds their numbers (open
 * addressing): no allocation per key.
 */
class key_numbering {
public:
   explicit key_numbering(size_t max_keys)
   {
      slots.assign(key_table_size(max_keys), none);
   }

   unsigned number(const vn_key &k)
   {
      const size_t h = key_hash()(k);
      for (size_t i = h & (slots.size() - 1);; i = (i + 1) & (slots.size() - 1)) {
         if (slots[i] == none) {
            slots[i] = keys.size();
            keys.push_back({h, pool.size(), k.size()});
            pool.insert(pool.end(), k.begin(), k.end());
            return slots[i];
         }
         const entry &e = keys[slots[i]];
         if (e.hash == h && e.len == k.size() &&
             std::equal(k.begin(), k.end(), pool.begin() + e.start))
            return slots[i];
      }
   }

   unsigned count() const { return keys.size(); }

private:
   static constexpr unsigned none = ~0u;
   struct entry {
      size_t hash, start, len;
   };
   std::vector<uint64_t> pool;
   std::vector<entry> keys;
   std::vector<unsigned> slots;
};

/* The groups of two or more equal expressions (cse's key) that pass
 * want, in first-seen order (deterministic); a lone expression has
 * nothing to merge with.
 */
template <typename F>
std::vector<std::vector<instr *>>
equal_groups(const shader &s, const dominance &dom, F want)
{
   size_t num_instrs = 0;
   for (const auto &b : s.blocks())
      num_instrs += b->instrs().size();
   key_numbering numbers(num_instrs);
   std::vector<std::pair<unsigned, instr *>> seen;
   vn_key k;
   for (block *b : dom.rpo()) {
      for (instr *in : b->instrs()) {
         if (!want(in))
            continue;
         k.clear();
         expression_key(k, in);
         seen.push_back({numbers.number(k), in});
      }
   }
   std::vector<unsigned> size(numbers.count(), 0), group(numbers.count(), ~0u);
   for (const auto &[n, in] : seen)
      size[n]++;
   std::vector<std::vector<instr *>> groups;
   for (const auto &[n, in] : seen) {
      if (size[n] < 2)
         continue;
      if (group[n] == ~0u) {
         group[n] = groups.size();
         groups.emplace_back();
         groups.back().reserve(size[n]);
      }
      groups[group[n]].push_back(in);
   }
   return groups;
}

/* A comparison into a flag, nothing else, whose flag only predicates
 * expressions (a cmp for sels).
 */
bool
is_flag_candidate(const instr *in)
{
   const value *f = in->flag_def();
   if (!f || in->num_dsts() || in->predicate() || !in->preserve().is_null() ||
       in->info().kind != opcode_kind::alu || !is_numbered_expression(in) ||
       f->uses().empty())
      return false;
   for (const operand &o : in->srcs()) {
      if (o.val && o.val->file != reg_file::ssa && !o.val->is_preloaded())
         return false;
   }
   for (const use &u : f->uses()) {
      if (u.slot != use::predicate || !is_hoistable(u.in, true))
         return false;
   }
   return true;
}

/* The readers of m's flag in program order, with their keys as if they
 * read canon's flag.
 */
std::vector<std::pair<vn_key, instr *>>
flag_readers(const instr *m, const value *canon)
{
   std::vector<std::pair<vn_key, instr *>> r;
   for (const use &u : m->flag_def()->uses()) {
      vn_key k;
      expression_key(k, u.in, canon);
      r.emplace_back(std::move(k), u.in);
   }
   std::sort(r.begin(), r.end(),
             [](const auto &a, const auto &b) { return a.second->ip < b.second->ip; });
   return r;
}

/* Moves equal comparisons (members) whose flags predicate the same
 * expressions in the same order, and those expressions, to the end of
 * the block dominating them; false if something is not available there.
 */
bool
hoist_flag_group(shader &s, const dominance &dom,
                 const std::vector<instr *> &members, walk_scratch &w)
{
   block *ncd = nearest_common_dominator(members, dom);
   bool ok = operands_available(members[0], ncd, dom);
   const value *canon = members[0]->flag_def();
   std::vector<std::vector<std::pair<vn_key, instr *>>> readers;
   for (const instr *m : members) {
      ok = ok && m->parent() != ncd;
      if (!ok)
         return false;
      readers.push_back(flag_readers(m, canon));
      ok = readers.back().size() == readers[0].size();
      for (size_t i = 0; ok && i < readers[0].size(); i++)
         ok = readers.back()[i].first == readers[0][i].first;
   }
   for (size_t i = 0; ok && i < readers[0].size(); i++)
      ok = operands_available(readers[0][i].second, ncd, dom);
   if (!ok || !anticipated(ncd, members, w))
      return false;

   instr *cmp = clone_at_end(s, members[0], ncd);
   for (size_t i = 0; i < readers[0].size(); i++) {
      instr *rep = clone_at_end(s, readers[0][i].second, ncd, cmp->flag_def());
      for (const auto &r : readers) {
         instr *m = r[i].second;
         for (unsigned d = 0; d < m->num_dsts(); d++)
            replace_uses(m->dst(d).val, rep->dst(d).val);
         m->remove();
      }
   }
   for (instr *m : members)
      m->remove();
   return true;
}

/* The flag phase: equal comparisons in arms, each predicating the same
 * expressions (sels) in its arm, become one comparison and one of each
 * expression at the end of the dominating block, the flag living only
 * from the comparison to the last of them.  Every reader must have its
 * equal in every arm, or the flag would live over the arms.
 */
bool
hoist_flags_round(shader &s)
{
   s.renumber();
   dominance dom(s);
   walk_scratch w;
   bool progress = false;
   for (std::vector<instr *> &members : equal_groups(s, dom, is_flag_candidate)) {
      /* Comparisons with the same readers move together. */
      const value *canon = members[0]->flag_def();
      std::map<vn_key, std::vector<instr *>> by_readers;
      std::vector<const vn_key *> sig_order;
      for (instr *m : members) {
         vn_key sig;
         for (const auto &r : flag_readers(m, canon)) {
            sig.push_back(r.first.size());
            sig.insert(sig.end(), r.first.begin(), r.first.end());
         }
         auto res = by_readers.emplace(std::move(sig), std::vector<instr *>());
         if (res.second)
            sig_order.push_back(&res.first->first);
         res.first->second.push_back(m);
      }
      for (const vn_key *sig : sig_order) {
         if (by_readers[*sig].size() >= 2)
            progress |= hoist_flag_group(s, dom, by_readers[*sig], w);
      }
   }
   return progress;
}

/* Merges members into rep, or into a copy at the end of b; false if an
 * operand is not available there.
 */
bool
merge_at(shader &s, const dominance &dom, const std::vector<instr *> &members, block *b,
         instr *rep)
{
   if (!rep) {
      if (!operands_available(members[0], b, dom))
         return false;
      rep = clone_at_end(s, members[0], b);
   }
   for (instr *m : members) {
      if (m == rep)
         continue;
      for (unsigned i = 0; i < m->num_dsts(); i++)
         replace_uses(m->dst(i).val, rep->dst(i).val);
      m->remove();
   }
   return true;
}

/* One round: each group of equal expressions, none dominating another,
 * becomes one.
 */
bool
hoist_round(shader &s)
{
   s.renumber();
   dominance dom(s);
   walk_scratch w;
   bool progress = false;
   for (std::vector<instr *> &members :
        equal_groups(s, dom, [](const instr *in) { return is_hoistable(in); })) {
      block *ncd = nearest_common_dominator(members, dom);
      /* A member in that block already comes before the others (cse
       * leaves such pairs only when it did not run in between).
       */
      instr *rep = nullptr;
      for (instr *m : members) {
         if (m->parent() == ncd && (!rep || m->ip < rep->ip))
            rep = m;
      }
      if (rep || anticipated(ncd, members, w)) {
         progress |= merge_at(s, dom, members, ncd, rep);
         continue;
      }
      /* Not on every path from there: the members under a lower block
       * may be, highest such block first.
       */
      std::vector<block *> cands;
      for (instr *m : members) {
         for (block *a = dom.idom(m->parent()); a && a != ncd; a = dom.idom(a)) {
            if (std::find(cands.begin(), cands.end(), a) == cands.end())
               cands.push_back(a);
         }
      }
      /* Each candidate's depth below ncd, counted once and not at every
       * comparison of the sort.
       */
      std::vector<std::pair<unsigned, block *>> by_depth;
      by_depth.reserve(cands.size());
      for (block *a : cands) {
         unsigned n = 0;
         for (const block *b = a; b != ncd; b = dom.idom(b))
            n++;
         by_depth.emplace_back(n, a);
      }
      std::stable_sort(by_depth.begin(), by_depth.end(),
                       [](const std::pair<unsigned, block *> &a,
                          const std::pair<unsigned, block *> &b) {
                          return a.first < b.first;
                       });
      for (size_t i = 0; i < cands.size(); i++)
         cands[i] = by_depth[i].second;
      std::vector<instr *> left = members;
      for (block *a : cands) {
         std::vector<instr *> under;
         instr *in_a = nullptr;   /* one in a itself comes before the rest */
         for (instr *m : left) {
            if (dom.dominates(a, m->parent()))
               under.push_back(m);
            if (m->parent() == a && (!in_a || m->ip < in_a->ip))
               in_a = m;
         }
         if (under.size() < 2 || !anticipated(a, under, w))
            continue;
         if (merge_at(s, dom, under, a, in_a)) {
            progress = true;
            for (instr *m : under)
               left.erase(std::find(left.begin(), left.end(), m));
         }
      }
   }
   return progress;
}

} /* anonymous namespace */

bool
opt_hoist(shader &s)
{
   bool progress = false;
   /* Each round merges one more link of the chains (load, shr, and,
    * shl, add, load; cmp and sels, mul, rnde, f2i); the bound only
    * guards against a program that keeps merging.
    */
   for (unsigned round = 0; round < 32; round++) {
      if (!hoist_round(s) && !hoist_flags_round(s))
         break;
      progress = true;
   }
   return progress;
}

} /* namespace ibis */
