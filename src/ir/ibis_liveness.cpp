/*
 * Liveness by backward data flow over the blocks, then per-instruction
 * answers by walking one block.
 *
 * SSA and FLAG values die (going backwards) at their definition.  A WLR
 * value dies only at its first write: its later, partial writes keep the
 * earlier ones alive, as uses do.  Phi sources are live at the end of the
 * matching predecessor, not in the phi's block.  UNIFORM and ATTR values
 * have no definition and are live from the program start.
 */
#include "ir/ibis_analysis.h"

#include <algorithm>

namespace ibis {

bool
value_set::add_all(const value_set &o)
{
   bool grew = false;
   if (words.size() < o.words.size())
      words.resize(o.words.size());
   for (size_t i = 0; i < o.words.size(); i++) {
      uint64_t w = words[i] | o.words[i];
      grew |= w != words[i];
      words[i] = w;
   }
   return grew;
}

bool
value_set::operator==(const value_set &o) const
{
   /* Sets that grew differently compare by their members. */
   size_t n = std::max(words.size(), o.words.size());
   for (size_t i = 0; i < n; i++) {
      uint64_t a = i < words.size() ? words[i] : 0;
      uint64_t b = i < o.words.size() ? o.words[i] : 0;
      if (a != b)
         return false;
   }
   return true;
}

std::vector<value *>
value_set::values(const shader &s) const
{
   std::vector<value *> v;
   for (size_t i = 0; i < words.size(); i++) {
      for (uint64_t w = words[i]; w; w &= w - 1) {
         value *val = s.find_value(i * 64 + __builtin_ctzll(w));
         if (val)
            v.push_back(val);
      }
   }
   return v;
}

bool
liveness::kills(const instr *in, const value *v) const
{
   return v->file != reg_file::wlr || first_def_[v->id] == in;
}

/* Steps live from after in to before it. */
void
liveness::transfer(const instr *in, value_set &live) const
{
   auto visit_def = [&](value *v) {
      if (!v || !want(v))
         return;
      if (kills(in, v))
         live.remove(v);
      else
         live.add(v);
   };
   for (const operand &d : in->dsts())
      visit_def(d.val);
   visit_def(in->flag_def());
   if (in->is_phi())
      return;
   auto visit_use = [&](value *v) {
      if (v && want(v))
         live.add(v);
   };
   for (const operand &s : in->srcs())
      visit_use(s.val);
   visit_use(in->predicate());
   visit_use(in->preserve().val);
}

/* The block equations in = (out - kill) | gen and out = the union over
 * the successors of their live-in plus the phi sources of the edge, on
 * words: one walk per block summarizes its instructions as kill and gen
 * (the composition of transfer()), so the fixpoint iterations touch no
 * instruction.  The fixpoint from empty sets is the one the instruction
 * walk reached.
 */
void
liveness::solve(unsigned bound)
{
   const unsigned n = sh.blocks().size();
   const size_t nw = (bound + 63) / 64;
   /* Each block's gen and kill only where its instructions touch them:
    * the words (sorted) with their gen and kill bits, patch[patch_first[i]]
    * up to patch[patch_first[i + 1]].  Whole sets per block were two
    * blocks x words arrays to clear, mostly zeros.
    */
   struct word_patch {
      uint32_t w;
      uint64_t gen, kill;
   };
   std::vector<word_patch> patch;
   std::vector<unsigned> patch_first(n + 1, 0);
   std::vector<uint64_t> gen(nw, 0), kill(nw, 0);
   std::vector<uint8_t> touched_mark(nw, 0);
   std::vector<uint32_t> touched;
   auto touch = [&](size_t w) {
      if (!touched_mark[w]) {
         touched_mark[w] = 1;
         touched.push_back(uint32_t(w));
      }
   };
   /* Phi sources of block i's outgoing edges: phi_ids[phi_first[i]] up
    * to phi_ids[phi_first[i + 1]] (flat: a list per block reallocated
    * over and over in every liveness).
    */
   std::vector<unsigned> phi_ids, phi_first(n + 1, 0);
   for (unsigned i = 0; i < n; i++) {
      phi_first[i] = phi_ids.size();
      const block *b = sh.blocks()[i].get();
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         const instr *in = *it;
         auto visit_def = [&](const value *v) {
            if (!v || !want(v))
               return;
            const uint64_t bit = 1ull << (v->id % 64);
            touch(v->id / 64);
            if (kills(in, v)) {
               kill[v->id / 64] |= bit;
               gen[v->id / 64] &= ~bit;
            } else {
               gen[v->id / 64] |= bit;
            }
         };
         for (const operand &d : in->dsts())
            visit_def(d.val);
         visit_def(in->flag_def());
         if (in->is_phi())
            continue;
         auto visit_use = [&](const value *v) {
            if (v && want(v)) {
               touch(v->id / 64);
               gen[v->id / 64] |= 1ull << (v->id % 64);
            }
         };
         for (const operand &o : in->srcs())
            visit_use(o.val);
         visit_use(in->predicate());
         visit_use(in->preserve().val);
      }
      patch_first[i] = patch.size();
      std::sort(touched.begin(), touched.end());
      for (uint32_t w : touched) {
         patch.push_back({w, gen[w], kill[w]});
         gen[w] = kill[w] = 0;
         touched_mark[w] = 0;
      }
      touched.clear();
      /* Phi sources of b's outgoing edges. */
      for (const block *succ : b->succs) {
         for (unsigned j = 0; j < succ->preds.size(); j++) {
            if (succ->preds[j] != b)
               continue;
            for (const instr *in : succ->instrs()) {
               if (in->is_block_start())
                  continue;
               if (!in->is_phi())
                  break;
               if (j < in->num_srcs() && in->src(j).val && want(in->src(j).val))
                  phi_ids.push_back(in->src(j).val->id);
            }
         }
      }
   }
   phi_first[n] = phi_ids.size();
   patch_first[n] = patch.size();

   /* Round robin over the blocks, last first, revisiting only a block
    * whose successor's live-in changed: a block after its loop's header
    * settles in the first round, and only loops take more.
    */
   /* Predecessors by index in increasing order, flat: those of block i
    * at preds[pred_first[i]] up to preds[pred_first[i + 1]].
    */
   std::vector<unsigned> pred_first(n + 1, 0);
   for (unsigned i = 0; i < n; i++) {
      for (const block *succ : sh.blocks()[i]->succs)
         pred_first[succ->index + 1]++;
   }
   for (unsigned i = 0; i < n; i++)
      pred_first[i + 1] += pred_first[i];
   std::vector<unsigned> preds(pred_first[n]);
   {
      std::vector<unsigned> fill(pred_first.begin(), pred_first.end() - 1);
      for (unsigned i = 0; i < n; i++) {
         for (const block *succ : sh.blocks()[i]->succs)
            preds[fill[succ->index]++] = i;
      }
   }
   /* Every set only grows from empty, so a block's live-out is its old
    * one or'ed with its successors' live-in (no copy), and its live-in
    * is updated in place.
    */
   std::vector<uint8_t> dirty(n, 1);
   for (bool again = true; again;) {
      again = false;
      for (unsigned i = n; i-- > 0;) {
         if (!dirty[i])
            continue;
         dirty[i] = 0;
         const block *b = sh.blocks()[i].get();
         uint64_t *out = out_[i].words.data();
         for (const block *succ : b->succs) {
            const uint64_t *si = in_[succ->index].words.data();
            for (size_t w = 0; w < nw; w++)
               out[w] |= si[w];
         }
         for (unsigned k = phi_first[i]; k < phi_first[i + 1]; k++)
            out[phi_ids[k] / 64] |= 1ull << (phi_ids[k] % 64);
         uint64_t *in = in_[i].words.data();
         uint64_t grew = 0;
         size_t w = 0;
         for (unsigned q = patch_first[i]; q < patch_first[i + 1]; q++) {
            const word_patch &p = patch[q];
            for (; w < p.w; w++) {
               grew |= out[w] ^ in[w];
               in[w] = out[w];
            }
            const uint64_t next = (out[w] & ~p.kill) | p.gen;
            grew |= next ^ in[w];
            in[w] = next;
            w++;
         }
         for (; w < nw; w++) {
            grew |= out[w] ^ in[w];
            in[w] = out[w];
         }
         if (grew) {
            for (unsigned q = pred_first[i]; q < pred_first[i + 1]; q++) {
               const unsigned p = preds[q];
               dirty[p] = 1;
               /* A predecessor at or after i (a loop's back edge) waits
                * for the next round.
                */
               again |= p >= i;
            }
         }
      }
   }
}

liveness::liveness(shader &s, bool flags_only, live_detail detail)
   : sh(s), flags_only_(flags_only)
{
   unsigned num_ips = s.renumber();
   unsigned bound = s.value_id_bound();
   unsigned n = s.blocks().size();

   first_def_.assign(bound, nullptr);
   for (const value *v : s.values()) {
      for (const instr *d : v->defs()) {
         if (d->parent() && (!first_def_[v->id] || d->ip < first_def_[v->id]->ip))
            first_def_[v->id] = d;
      }
   }

   in_.assign(n, value_set(bound));
   out_.assign(n, value_set(bound));
   solve(bound);
   if (detail == live_detail::intervals)
      compute_intervals(num_ips);
}

/* Intervals in program order, from the solved sets. */
void
liveness::compute_intervals(unsigned num_ips)
{
   const shader &s = sh;
   const unsigned bound = s.value_id_bound();
   const unsigned n = s.blocks().size();

   /* Phi sources per (block, predecessor slot). */
   auto phi_uses = [&](const block *succ, const block *pred,
                       std::vector<value *> &vals) {
      for (unsigned j = 0; j < succ->preds.size(); j++) {
         if (succ->preds[j] != pred)
            continue;
         for (const instr *in : succ->instrs()) {
            if (in->is_block_start())
               continue;
            if (!in->is_phi())
               break;
            if (j < in->num_srcs() && in->src(j).val && want(in->src(j).val))
               vals.push_back(in->src(j).val);
         }
      }
   };

   start_.assign(bound, UINT32_MAX);
   end_.assign(bound, 0);
   auto cover_id = [&](unsigned id, unsigned from, unsigned to) {
      start_[id] = std::min(start_[id], from);
      end_[id] = std::max(end_[id], to);
   };
   auto cover = [&](const value *v, unsigned from, unsigned to) {
      cover_id(v->id, from, to);
   };
   /* A value live into (out of) several blocks: only the first and the
    * last of them in program order can move its interval's ends, so each
    * set member is visited once in all, not once per block.  Only live-in
    * can move a start (live out of a block, a value is live into it or
    * written in it) and only live-out an end (live into a block, it is
    * live out of it or read or written in it): the first blocks' live-in
    * sets, the last blocks' live-out sets.
    */
   {
      const size_t nw = (bound + 63) / 64;
      std::vector<uint64_t> seen(nw);
      auto cover_new = [&](const value_set &set, unsigned at) {
         for (size_t w = 0; w < nw; w++) {
            uint64_t fresh = set.words[w] & ~seen[w];
            seen[w] |= fresh;
            for (; fresh; fresh &= fresh - 1)
               cover_id(unsigned(w * 64 + __builtin_ctzll(fresh)), at, at);
         }
      };
      for (unsigned k = 0; k < n; k++) {
         const block *b = s.blocks()[k].get();
         if (!b->empty())
            cover_new(in_[b->index], b->first()->ip);
      }
      std::fill(seen.begin(), seen.end(), 0);
      for (unsigned k = n; k-- > 0;) {
         const block *b = s.blocks()[k].get();
         if (!b->empty())
            cover_new(out_[b->index], b->last()->ip + 1);
      }
   }
   for (const auto &b : s.blocks()) {
      if (b->empty())
         continue;
      for (const instr *in : b->instrs()) {
         for (const operand &d : in->dsts()) {
            if (d.val && want(d.val))
               cover(d.val, in->ip, in->ip + 1);
         }
         if (in->flag_def())
            cover(in->flag_def(), in->ip, in->ip + 1);
         if (in->is_phi())
            continue;
         for (const operand &o : in->srcs()) {
            if (o.val && want(o.val))
               cover(o.val, in->ip, in->ip);
         }
         if (in->predicate())
            cover(in->predicate(), in->ip, in->ip);
         if (in->preserve().val && want(in->preserve().val))
            cover(in->preserve().val, in->ip, in->ip);
      }
   }
   /* SIMD control flow runs every block in program order with some
    * channels disabled, so a value that some channels carry over a jump
    * is live, for those channels, in every block the jump skips; and a
    * value that channels carry out of a loop (by break, or past the
    * while) was written by them in an earlier iteration and is live for
    * them in the whole loop.  Intervals cover both, so that a NoMask write
    * (the interval part of regs_interfere) cannot land on such a value.
    */
   {
      std::vector<const block *> loop_head(n, nullptr), stack;
      std::vector<unsigned> loop_last(n, 0);
      std::vector<value *> vals;
      for (const auto &b : s.blocks()) {
         const instr *first = b->first(), *last = b->last();
         if (first && first->op == opcode::do_)
            stack.push_back(b.get());
         if (!stack.empty())
            loop_head[b->index] = stack.back();
         if (last && last->op == opcode::while_ && !stack.empty()) {
            loop_last[stack.back()->index] = b->index;
            stack.pop_back();
         }
      }
      for (const auto &b : s.blocks()) {
         if (b->empty())
            continue;
         for (const block *succ : b->succs) {
            if (succ->empty())
               continue;
            unsigned from = b->last()->ip + 1, to = succ->first()->ip;
            /* Most edges fall through inside their loop: nothing to cover. */
            const block *h0 = loop_head[b->index];
            bool leaves = h0 && !(succ->index >= h0->index &&
                                  succ->index <= loop_last[h0->index]);
            /* A cont waits, disabled, at the while: what it carries to the
             * do block is live in the rest of the loop body.
             */
            bool cont = h0 && succ == h0 && b->last()->op == opcode::cont;
            if (to <= from && !leaves && !cont)
               continue;
            /* What the edge carries: succ's live-in and the phi sources
             * of the edge, all live out of b (solve() made out of them);
             * a value twice covers the same twice.
             */
            vals.clear();
            in_[succ->index].for_each_id([&](unsigned id) {
               if (value *v = s.find_value(id))
                  vals.push_back(v);
            });
            phi_uses(succ, b.get(), vals);
            if (to > from) {
               for (const value *v : vals)
                  cover(v, from, to);
            }
            if (cont) {
               unsigned end_ip = s.blocks()[loop_last[h0->index]]->last()->ip + 1;
               for (const value *v : vals)
                  cover(v, from, end_ip);
            }
            /* Leaving loops: every loop around b that succ is outside of. */
            for (const block *h = loop_head[b->index]; h;) {
               unsigned last = loop_last[h->index];
               if (succ->index >= h->index && succ->index <= last)
                  break;
               unsigned head_ip = h->first()->ip;
               unsigned end_ip = s.blocks()[last]->last()->ip + 1;
               for (const value *v : vals) {
                  if (start_[v->id] >= head_ip)
                     cover(v, head_ip, std::max(end_ip, to));
               }
               h = h->index > 0 ? loop_head[h->index - 1] : nullptr;
               /* The enclosing loop of h, if h's own loop is nested. */
               while (h && loop_last[h->index] < last)
                  h = h->index > 0 ? loop_head[h->index - 1] : nullptr;
            }
         }
      }
   }
   for (const value *v : s.values()) {
      if (v->is_preloaded() && start_[v->id] != UINT32_MAX)
         start_[v->id] = 0;
      if (start_[v->id] == UINT32_MAX)
         start_[v->id] = end_[v->id] = num_ips;
   }
}

value_set
liveness::live_after(const instr *in) const
{
   value_set live(sh.value_id_bound());
   walk_backwards(in->parent(), [&](const instr *i, const value_set &l) {
      if (i == in)
         live = l;
   });
   return live;
}

const instr *
liveness::first_def(const value *v) const
{
   return v->id < first_def_.size() ? first_def_[v->id] : nullptr;
}

bool
liveness::is_live_after(const value *v, const instr *in) const
{
   const block *b = in->parent();
   const instr *def = first_def(v);
   bool defined_here = def && def->parent() == b;
   if (defined_here ? def->ip > in->ip : !in_[b->index].has(v))
      return false;
   if (out_[b->index].has(v))
      return true;
   /* A later read, or a later partial write of a WLR value. */
   for (const use &u : v->uses()) {
      if (u.in->parent() == b && !u.in->is_phi() && u.in->ip > in->ip)
         return true;
   }
   for (const instr *d : v->defs()) {
      if (d->parent() == b && d->ip > in->ip && !kills(d, v))
         return true;
   }
   return false;
}

} /* namespace ibis */
