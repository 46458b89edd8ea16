/*
 * The independent RA validator (after ir3's ir3_ra_validate.c): it reads
 * only the allocated program, re-derives liveness on it and checks every
 * physical register against it.  Nothing of the allocator's graph or
 * classes is used, so a bug there cannot hide itself here.
 *
 * Checks:
 *  - form: no phi or parallel copy; every operand's value has a register
 *    of the right kind; EOT payloads in g112-g127; a preserve write lands
 *    in its preserve register.
 *  - clobber: a write overlaps no other value live after it (liveness of
 *    the allocated program, where each write of a value kills it), except
 *    a load_payload source built in place.
 *  - SIMD: values whose program-order intervals overlap (intervals cover
 *    skipped blocks and loops, ibis_liveness.cpp) may share bytes only if
 *    both are SIMD-local with the same width, bit size and group: the
 *    then/else sharing of i965-scalar-ssa.txt and nothing more.
 *  - instruction rules of docs/backend.md §2: a destination overlaps a
 *    source only at the same start with the same layout, never for send,
 *    shuffle, mov_indirect and broadcast.
 *  - flags: flag values with overlapping intervals use distinct bits.
 * Undefined values (written only by undef) hold garbage and are exempt.
 */
#include "ra/ra.h"

#include <algorithm>

#include "ir/ibis_analysis.h"
#include "ir/ibis_text.h"
#include "ra/ra_internal.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

namespace {

struct span {
   unsigned start, end;   /* bytes */
};

bool
is_grf_value(const value *v)
{
   return v->file == reg_file::ssa || v->file == reg_file::wlr ||
          v->file == reg_file::uniform || v->file == reg_file::attr ||
          v->file == reg_file::hw_reg;
}

span
grf_span(const value *v)
{
   unsigned at = v->phys.nr * 32 + v->phys.subreg;
   unsigned bytes = v->width == 1 ? uniform_bytes(v) : v->size_bytes();
   return {at, at + std::max(bytes, 1u)};
}

span
flag_span(const value *v)
{
   /* In bits of f0..f1, from the named subregister plus the group. */
   unsigned at = v->phys.nr * 32 + v->phys.subreg * 16 + v->group;
   return {at, at + std::max<unsigned>(v->width, 1)};
}

bool
overlap(span a, span b)
{
   return a.start < b.end && b.start < a.end;
}

bool
undefined(const value *v)
{
   if (v->defs().empty())
      return false;
   for (const instr *d : v->defs()) {
      if (d->op != opcode::undef)
         return false;
   }
   return true;
}

class checker {
public:
   explicit checker(shader &s) : s(s) {}

   std::vector<std::string> errors;

   void fail(const instr *in, const std::string &msg)
   {
      errors.push_back(strfmt("block%u: '%s': %s", in->parent()->index,
                              in->str().c_str(), msg.c_str()));
   }

   void check_operand(const instr *in, const value *v, const char *what)
   {
      if (!v || v->file == reg_file::imm)
         return;
      phys_reg::kind_t want = v->file == reg_file::flag ? phys_reg::flag :
                              v->file == reg_file::accum ? phys_reg::acc :
                              phys_reg::grf;
      if (v->phys.kind != want)
         fail(in, strfmt("%s %%%u has no %s register", what, v->id,
                         want == phys_reg::flag ? "flag" :
                         want == phys_reg::acc ? "accumulator" : "general"));
      else if (want == phys_reg::grf && grf_span(v).end > RA_GRF_BYTES)
         fail(in, strfmt("%s %%%u goes past g127", what, v->id));
   }

   /* Byte span an operand reads or writes within its value's register. */
   span operand_span(const operand &o)
   {
      span v = grf_span(o.val);
      return {v.start + o.offset, v.end};
   }

   void check_form()
   {
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            size_t before = errors.size();
            if (in->is_phi() || in->op == opcode::parallel_copy)
               fail(in, "phi or parallel copy left after allocation");
            for (const operand &d : in->dsts())
               check_operand(in, d.val, "destination");
            for (const operand &o : in->srcs())
               check_operand(in, o.val, "source");
            check_operand(in, in->predicate(), "predicate");
            check_operand(in, in->flag_def(), "flag");
            check_operand(in, in->preserve().val, "preserve");
            if (errors.size() == before)
               check_instr_overlap(in);
         }
      }
   }

   void check_instr_overlap(const instr *in)
   {
      if (in->preserve().val && in->num_dsts() && in->dst().val) {
         const value *d = in->dst().val, *p = in->preserve().val;
         if (!(d->phys == p->phys))
            fail(in, strfmt("preserve write of %%%u is not in %%%u's register",
                            d->id, p->id));
      }
      if (in->op == opcode::send && (in->flags & INSTR_EOT)) {
         for (unsigned k = 3; k < in->num_srcs(); k++) {
            const value *p = in->src(k).val;
            if (p && grf_span(p).start < RA_EOT_FIRST)
               fail(in, strfmt("EOT payload %%%u below g112", p->id));
         }
      }
      for (const operand &d : in->dsts()) {
         if (!d.val || d.val->phys.kind != phys_reg::grf)
            continue;
         span ds = grf_span(d.val);
         for (unsigned k = 0; k < in->num_srcs(); k++) {
            const operand &o = in->src(k);
            if (!o.val || o.val->phys.kind != phys_reg::grf || o.val == d.val)
               continue;
            if (undefined(o.val))
               continue;
            span os = grf_span(o.val);
            if (!overlap(ds, os))
               continue;
            bool ok;
            switch (in->op) {
            case opcode::send:
            case opcode::shuffle:
            case opcode::mov_indirect:
            case opcode::broadcast:
               ok = false;
               break;
            case opcode::load_payload:
               /* Built in place (at one of its positions). */
               ok = in_place_source(in, d.val, o.val);
               break;
            default:
               /* A width-1 value's plain read is the scalar <0,1,0>. */
               ok = operand_span(o).start == ds.start + d.offset &&
                    ((o.val->width == d.val->width &&
                      o.val->bit_size() == d.val->bit_size() &&
                      (!o.has_region || o.rgn.width == 0 || o.rgn.hstride == 1 ||
                       (o.val->width == 1 && o.rgn.vstride == 0 &&
                        o.rgn.width == 1 && o.rgn.hstride == 0))) ||
                     scalar_in_place(in, d, o));
               break;
            }
            if (!ok)
               fail(in, strfmt("destination %%%u overlaps source %%%u",
                               d.val->id, o.val->id));
         }
      }
   }

   void check_clobbers()
   {
      liveness live(s);
      /* Fixed registers the program only reads (the thread payload):
       * liveness does not track them, so a write clobbers one where a
       * read of its bytes is reachable (in a loop, the next iteration's).
       */
      std::vector<const value *> fixed;
      for (const value *v : s.values()) {
         if (v->file == reg_file::hw_reg && v->defs().empty() &&
             v->phys.kind == phys_reg::grf && !v->uses().empty())
            fixed.push_back(v);
      }
      for (const value *v : live.live_in(s.entry()).values(s)) {
         if (!v->is_preloaded() && !undefined(v) && v->file != reg_file::flag)
            errors.push_back(strfmt("%%%u is read on a path where it is "
                                    "never written", v->id));
      }
      for (const auto &b : s.blocks()) {
         live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
            if (in->op == opcode::undef)
               return;
            std::vector<value *> l;
            bool got = false;
            for (const operand &d : in->dsts()) {
               if (!d.val || d.val->phys.kind != phys_reg::grf)
                  continue;
               if (!got) {
                  l = after.values(s);
                  got = true;
               }
               span ds = written_span(in, d);
               for (const value *v : l) {
                  if (v == d.val || v->phys.kind != phys_reg::grf ||
                      undefined(v) || !overlap(ds, grf_span(v)) ||
                      undef_so_far(in, v))
                     continue;
                  if (in_place_source(in, d.val, v))
                     continue;
                  /* Only the bytes read before v is dead or written
                   * again in this block matter.
                   */
                  unsigned kill = next_kill(in, v);
                  if ((kill || !live.live_out(b.get()).has(v)) &&
                      !later_reads_overlap(in, v, ds, false, kill))
                     continue;
                  if (read_only(v) && !later_reads_overlap(in, v, ds, true))
                     continue;
                  fail(in, strfmt("writing %%%u clobbers %%%u, which is "
                                  "live", d.val->id, v->id));
               }
               for (const value *v : fixed) {
                  if (overlap(ds, grf_span(v)) &&
                      later_reads_overlap(in, v, ds, true))
                     fail(in, strfmt("writing %%%u clobbers %%%u, which is "
                                     "read later", d.val->id, v->id));
               }
            }
         });
      }
      check_simd(live);
   }

   /* Bytes a destination writes: all of its value, or for a partial
    * write (WLR pieces, offsets, strides) the channels it covers.
    */
   span written_span(const instr *in, const operand &d)
   {
      span whole = grf_span(d.val);
      if (d.val->file != reg_file::wlr && !d.offset && !d.has_region) {
         /* A width-1 value owns whole dwords, but a byte or word value
          * is written at its own size: post-RA scheduling may move such
          * a write onto a dword whose other bytes are still read (random
          * cs seed 2055: a u8 copy into the first word of a scan value
          * whose first word was done).
          */
         if (d.val->width == 1 && in->op != opcode::send) {
            unsigned n = std::max(d.val->size_bytes(), type_bits(d.type) / 8);
            return {whole.start, std::min(whole.end, whole.start + std::max(n, 1u))};
         }
         return whole;
      }
      if (in->op == opcode::send || in->op == opcode::load_payload)
         return {whole.start + d.offset, whole.end};
      unsigned elem = std::max(1u, type_bits(d.type) / 8);
      unsigned stride = d.has_region ? std::max<unsigned>(1, d.rgn.hstride) : 1;
      unsigned start = whole.start + d.offset;
      unsigned n = (in->exec_size - 1) * stride * elem + elem;
      return {start, std::min(whole.end, start + n)};
   }

   /* Does a later read of v in in's block (v is dead past the block), or
    * with any_block a read anywhere reachable, touch the bytes ds?  Only the components still to be read count, so
    * a register of a vector whose reads are all done may be reused while
    * other components are still read (post-RA scheduling does that).
    */
   bool later_reads_overlap(const instr *in, const value *v, span ds,
                            bool any_block = false, unsigned until = 0)
   {
      unsigned base = grf_span(v).start;
      for (const use &u : v->uses()) {
         bool later = any_block ? reachable(in, u.in) :
                      u.in->parent() == in->parent() && u.in->ip > in->ip &&
                      (!until || u.in->ip <= until);
         if (!later)
            continue;
         if (u.slot < 0)
            return true;
         const operand &o = u.in->src(u.slot);
         unsigned n;
         if (u.in->op == opcode::load_payload) {
            const value *d = u.in->dst().val;
            unsigned w = v->width > 1 ? std::min<unsigned>(v->width, d->width)
                                      : d->width;
            n = w * d->bit_size() / 8;
         } else if (u.in->op == opcode::send || u.in->op == opcode::copy ||
                    u.in->op == opcode::mov_indirect ||
                    u.in->op == opcode::shuffle) {
            n = grf_span(v).end - base;
         } else {
            n = ra_read_bytes(u.in, o);
         }
         span r = {base + o.offset, base + o.offset + std::max(n, 1u)};
         if (overlap(r, ds))
            return true;
      }
      return false;
   }

   /* The ip of the next write in in's block that replaces all of v
    * (unpredicated, every channel, no offset or region), or 0: the bytes
    * of v a write before it may take are those read up to it (random cs
    * seed 9392: post-RA scheduling moved a write onto the half of a loop
    * variable whose reads were done, before the other half's last read
    * and the variable's next value).
    */
   unsigned next_kill(const instr *in, const value *v)
   {
      if (v->file == reg_file::wlr)
         return 0;
      unsigned kill = 0;
      for (const instr *d : v->defs()) {
         if (d->parent() != in->parent() || d->ip <= in->ip ||
             (kill && d->ip >= kill) || d->predicate() ||
             d->exec_size < v->width || d->num_dsts() != 1)
            continue;
         const operand &o = d->dst();
         if (o.val == v && !o.offset && !o.has_region)
            kill = d->ip;
      }
      return kill;
   }

   /* A push constant or attribute: never written, so the bytes it still
    * needs are those some read reachable from here touches.  Liveness is
    * per value; post-RA scheduling may move a write onto bytes of a large
    * push constant block whose reads are done while other bytes of it are
    * still read.
    */
   static bool read_only(const value *v)
   {
      return (v->file == reg_file::uniform || v->file == reg_file::attr) &&
             v->defs().empty();
   }

   /* Can to run after from?  Structured control flow: a later
    * instruction, or any in a loop holding both (program-order, so a
    * block skipped by a jump counts too).
    */
   bool reachable(const instr *from, const instr *to)
   {
      if (to->ip > from->ip)
         return true;
      if (loops.empty()) {
         std::vector<unsigned> stack;
         for (const auto &b : s.blocks()) {
            if (b->first() && b->first()->op == opcode::do_)
               stack.push_back(b->first()->ip);
            if (b->last() && b->last()->op == opcode::while_ && !stack.empty()) {
               loops.push_back({stack.back(), b->last()->ip + 1});
               stack.pop_back();
            }
         }
         loops.push_back({0, 0});   /* computed */
      }
      for (span l : loops) {
         if (l.start <= from->ip && from->ip < l.end &&
             l.start <= to->ip && to->ip < l.end)
            return true;
      }
      return false;
   }

   /* v is a load_payload source already where d needs it. */
   bool in_place_source(const instr *in, const value *d, const value *v)
   {
      if (in->op != opcode::load_payload && in->op != opcode::copy)
         return false;
      unsigned pos = 0;
      span ds = grf_span(d);
      /* A vector read component by component is in place when every
       * component is read, each at its own position.
       */
      bool vector = in->op == opcode::load_payload && v->length > 1 &&
                    v->width == d->width && v->bit_size() == d->bit_size();
      uint64_t components = 0;
      for (const operand &o : in->srcs()) {
         unsigned w = o.val && o.val->width > 1 ?
                      std::min<unsigned>(o.val->width, d->width) : d->width;
         unsigned bytes = w * d->bit_size() / 8;
         if (o.val == v && !o.offset && !o.has_region &&
             grf_span(v).start == ds.start + pos &&
             v->width <= d->width && v->bit_size() == d->bit_size() &&
             v->size_bytes() == bytes)
            return true;
         if (o.val == v && in->op == opcode::load_payload &&
             ra_in_place_run(in, o, d, pos, bytes) &&
             grf_span(v).start + o.offset == ds.start + pos)
            return true;
         if (o.val == v && vector) {
            unsigned cb = v->component_bytes();
            if (o.has_region || cb != bytes || o.offset % cb ||
                grf_span(v).start + o.offset != ds.start + pos || v->length >= 64)
               return false;
            components |= uint64_t(1) << (o.offset / cb);
         }
         pos += bytes;
      }
      return vector && components + 1 == uint64_t(1) << v->length;
   }

   /* Program-order segments where each value is live for some channel:
    * the CFG liveness of the allocated program, plus, for values live on
    * a forward jump, the blocks it skips, and for values carried out of a
    * loop and written inside it, the whole loop.
    */
   using segments = std::vector<std::pair<unsigned, unsigned>>;

   std::vector<segments> live_segments(const liveness &live)
   {
      std::vector<segments> seg(s.value_id_bound());
      std::vector<unsigned> end_of(s.value_id_bound());
      auto tracked = [](const value *v) { return liveness::tracked(v); };
      for (const auto &b : s.blocks()) {
         if (b->empty())
            continue;
         value_set cur = live.live_out(b.get());
         for (const value *v : cur.values(s))
            end_of[v->id] = b->last()->ip + 1;
         for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
            const instr *in = *it;
            auto def = [&](value *v) {
               if (!v || !tracked(v))
                  return;
               if (cur.has(v)) {
                  seg[v->id].push_back({in->ip, end_of[v->id]});
                  bool partial = v->file == reg_file::wlr &&
                                 live.first_def(v) != in;
                  if (!partial)
                     cur.remove(v);
                  else
                     end_of[v->id] = in->ip;
               } else {
                  seg[v->id].push_back({in->ip, in->ip + 1});
               }
            };
            for (const operand &d : in->dsts())
               def(d.val);
            def(in->flag_def());
            auto use = [&](value *v) {
               if (!v || !tracked(v) || cur.has(v))
                  return;
               cur.add(v);
               end_of[v->id] = in->ip;
            };
            for (const operand &o : in->srcs())
               use(o.val);
            use(in->predicate());
            use(in->preserve().val);
         }
         for (const value *v : cur.values(s))
            seg[v->id].push_back({b->first()->ip, end_of[v->id]});
      }
      /* Structured loops: head block and last block. */
      std::vector<int> head_of(s.blocks().size(), -1), last_of(s.blocks().size(), -1);
      std::vector<int> stack;
      for (const auto &b : s.blocks()) {
         if (b->first() && b->first()->op == opcode::do_)
            stack.push_back(b->index);
         if (!stack.empty())
            head_of[b->index] = stack.back();
         if (b->last() && b->last()->op == opcode::while_ && !stack.empty()) {
            last_of[stack.back()] = b->index;
            stack.pop_back();
         }
      }
      for (const auto &b : s.blocks()) {
         if (b->empty())
            continue;
         for (const block *succ : b->succs) {
            if (succ->empty())
               continue;
            for (const value *v : live.live_in(succ).values(s)) {
               if (!live.live_out(b.get()).has(v))
                  continue;
               unsigned from = b->last()->ip + 1, to = succ->first()->ip;
               if (to > from)
                  seg[v->id].push_back({from, to});
               for (int h = head_of[b->index]; h >= 0;) {
                  int last = last_of[h];
                  if (last < 0 || (int(succ->index) >= h && int(succ->index) <= last))
                     break;
                  unsigned head_ip = s.blocks()[h]->first()->ip;
                  unsigned end_ip = s.blocks()[last]->last()->ip + 1;
                  bool inside = false;
                  for (const instr *d : v->defs())
                     inside |= d->ip >= head_ip && d->ip < end_ip;
                  if (inside)
                     seg[v->id].push_back({head_ip, std::max(end_ip, to)});
                  int outer = h > 0 ? head_of[h - 1] : -1;
                  while (outer >= 0 && last_of[outer] >= 0 && last_of[outer] < last)
                     outer = outer > 0 ? head_of[outer - 1] : -1;
                  h = outer;
               }
            }
         }
      }
      for (auto &l : seg) {
         std::sort(l.begin(), l.end());
         segments merged;
         for (auto r : l) {
            if (r.second <= r.first)
               continue;
            if (!merged.empty() && r.first <= merged.back().second)
               merged.back().second = std::max(merged.back().second, r.second);
            else
               merged.push_back(r);
         }
         l = merged;
      }
      return seg;
   }

   static bool meet(const segments &a, const segments &b)
   {
      size_t i = 0, j = 0;
      while (i < a.size() && j < b.size()) {
         if (a[i].first < b[j].second && b[j].first < a[i].second)
            return true;
         if (a[i].second <= b[j].second)
            i++;
         else
            j++;
      }
      return false;
   }

   /* Every channel's need of the value from ip on lies within block b
    * (it may have come from earlier blocks), or up to the write at kill
    * that replaces it: then only the reads left in b (up to kill) matter.
    * A segment that starts after b is a later write's: were the value
    * live out of b, a segment would reach b's end (random cs seed 485 at
    * SIMD32 with 90 GRFs reserved: a loop variable read at the loop top
    * and written again further down the loop).
    */
   static bool dies_in(const segments &l, const block *b, unsigned ip,
                       unsigned kill)
   {
      unsigned hi = b->last()->ip + 1;
      for (auto [s0, e0] : l) {
         if (e0 > ip && e0 >= hi && s0 < hi && !(kill && s0 >= kill))
            return false;
      }
      return true;
   }

   static bool live_at(const segments &l, unsigned ip)
   {
      for (auto [s0, e0] : l) {
         if (s0 <= ip && ip < e0)
            return true;
      }
      return false;
   }

   /* The hybrid rule, write by write: a write changes the bytes it covers
    * in every channel it does not mask off.  It may land on a value that
    * some channel still needs only if both are SIMD-local with one layout
    * (then the write's channels are exactly those where the other value
    * is dead: the then/else sharing of i965-scalar-ssa.txt).
    */
   void check_simd(const liveness &live)
   {
      std::vector<segments> seg = live_segments(live);
      std::vector<bool> hw(s.value_id_bound(), false);
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            auto touch = [&](const value *v) {
               if (v && v->file == reg_file::hw_reg) {
                  seg[v->id] = {{0, in->ip + 1}};
                  hw[v->id] = true;
               }
            };
            for (const operand &d : in->dsts())
               touch(d.val);
            for (const operand &o : in->srcs())
               touch(o.val);
         }
      }
      /* Values by the registers they occupy. */
      std::vector<std::vector<const value *>> on(128);
      std::vector<const value *> flags;
      for (const value *v : s.values()) {
         if (!v->phys.valid() || (v->defs().empty() && v->uses().empty()) ||
             undefined(v))
            continue;
         if (is_grf_value(v) && v->phys.kind == phys_reg::grf) {
            span r = grf_span(v);
            for (unsigned g = r.start / 32; g < 128 && g * 32 < r.end; g++)
               on[g].push_back(v);
         } else if (v->file == reg_file::flag && v->phys.kind == phys_reg::flag) {
            flags.push_back(v);
         }
      }
      auto global = [&](const value *v) {
         return v->is_simd_global() || v->file == reg_file::hw_reg;
      };
      /* The value a masked write lands on matters in every channel only
       * if something reads it so.  A variable of a SIMD-local phi web
       * that is also written NoMask (a fill coalesced into the web:
       * dolphin/ubershaders/102.fs spilled at SIMD16) but read only
       * with the mask loses
       * nothing: the channels the write changes are those on its path,
       * where the clobber check found the variable dead.
       */
      /* A spill stores every channel NoMask for the fills; the fills'
       * readers are the value's.  Not so for a store in a loop whose
       * slot is filled outside it: channels that left the loop earlier
       * read the slot's old contents there, which the store writes from
       * the register's disabled channels, SIMD-local value or not.
       */
      auto stored_for_later = [&](const value *v) {
         for (const use &u : v->uses()) {
            std::vector<const instr *> sends;
            if (!spill_store(u.in, sends))
               continue;
            for (const instr *st : sends)
               if (stores_for_later(st))
                  return true;
         }
         return false;
      };
      auto read_global = [&](const value *v) {
         if (!global(v))
            return stored_for_later(v);
         if (v->file != reg_file::ssa || v->width == 1)
            return true;
         for (const instr *d : v->defs()) {
            if (!d->preserve().is_null())
               return true;
         }
         for (const use &u : v->uses()) {
            std::vector<const instr *> sends;
            if (u.in->we_all() && !spill_store(u.in, sends))
               return true;
         }
         return stored_for_later(v);
      };
      std::vector<std::pair<unsigned, unsigned>> reported;
      for (const auto &b : s.blocks()) {
         for (const instr *in : b->instrs()) {
            if (in->op == opcode::undef)
               continue;
            for (const operand &d : in->dsts()) {
               if (!d.val || d.val->phys.kind != phys_reg::grf)
                  continue;
               span ds = written_span(in, d);
               for (unsigned g = ds.start / 32; g < 128 && g * 32 < ds.end; g++) {
                  for (const value *v : on[g]) {
                     if (v == d.val || !overlap(ds, grf_span(v)) ||
                         !live_at(seg[v->id], in->ip) || undef_so_far(in, v))
                        continue;
                     /* The then/else sharing: one layout, channel on
                      * channel (the starts a whole number of components
                      * apart), so each write's channels are the other's
                      * dead ones.
                      */
                     if (!read_global(d.val) && !in->we_all() && !read_global(v) &&
                         d.val->width == v->width &&
                         d.val->bit_size() == v->bit_size() &&
                         d.val->group == v->group &&
                         channels_align(d.val, v))
                        continue;
                     if (in_place_pair(d.val, v) || in_place_pair(v, d.val))
                        continue;
                     /* Only the bytes some later read still needs. */
                     unsigned kill = next_kill(in, v);
                     if (dies_in(seg[v->id], b.get(), in->ip, kill) &&
                         !later_reads_overlap(in, v, ds, false, kill))
                        continue;
                     if (read_only(v) && !later_reads_overlap(in, v, ds, true))
                        continue;
                     auto key = std::make_pair(std::min(d.val->id, v->id),
                                               std::max(d.val->id, v->id));
                     if (std::find(reported.begin(), reported.end(), key) !=
                         reported.end())
                        continue;
                     reported.push_back(key);
                     errors.push_back(strfmt(
                        "%%%u and %%%u share registers while both are live "
                        "and not both SIMD-local with one layout, channel on channel",
                        key.first, key.second));
                  }
               }
            }
         }
      }
      /* Flags: no two with overlapping lives share bits. */
      for (size_t i = 0; i < flags.size(); i++) {
         for (size_t j = i + 1; j < flags.size(); j++) {
            const value *a = flags[i], *c = flags[j];
            if (!overlap(flag_span(a), flag_span(c)))
               continue;
            segments sa = seg[a->id], sc = seg[c->id];
            /* A dead flag definition still writes its flag. */
            for (const instr *d : a->defs())
               sa.push_back({d->ip, d->ip + 1});
            for (const instr *d : c->defs())
               sc.push_back({d->ip, d->ip + 1});
            std::sort(sa.begin(), sa.end());
            std::sort(sc.begin(), sc.end());
            if (meet(sa, sc))
               errors.push_back(strfmt("%%%u and %%%u share flag bits while "
                                       "both are live; flags do not share",
                                       std::min(a->id, c->id),
                                       std::max(a->id, c->id)));
         }
      }
   }

   /* The scratch registers (in 32-byte units) a lowered spill or fill
    * send covers: the block message's offset, and the registers the
    * fill returns or the store sends.
    */
   static span scratch_span(const instr *in)
   {
      if (in->num_srcs() < 3 || !in->src(1).is_imm() || !in->src(2).is_imm())
         return {0, ~0u};   /* all of it */
      const uint32_t desc = uint32_t(in->src(1).imm);
      const unsigned regs = (in->flags & INSTR_FILL) ?
                            (desc >> 20) & 0x1f :
                            (uint32_t(in->src(2).imm) >> 6) & 0x1f;
      return {desc & 0xfff, (desc & 0xfff) + std::max(regs, 1u)};
   }

   /* Does only an undef of v reach in?  In the entry block, which has
    * no predecessors, only v's earlier writes in it do (a phi web with an
    * undef edge: random fs seed 631 SIMD32 with 100 GRFs reserved put a
    * fill's header over the web before its first real write).
    */
   static bool undef_so_far(const instr *in, const value *v)
   {
      const block *b = in->parent();
      if (!b->preds.empty())
         return false;
      bool any = false;
      for (const instr *d : v->defs()) {
         if (d->parent() != b || d->ip >= in->ip)
            continue;
         if (d->op != opcode::undef)
            return false;
         any = true;
      }
      return any;
   }

   /* One channel read and written at one place with one type: the xor
    * swap of scalars of different sizes (ra_out_of_ssa.cpp) runs at the
    * wider type, and the narrower one is then read in place.
    */
   static bool scalar_in_place(const instr *in, const operand &d,
                               const operand &o)
   {
      return in->exec_size == 1 && d.val->width == 1 && o.val->width == 1 &&
             type_bits(d.type) == type_bits(o.type) && !d.has_region &&
             (!o.has_region || (o.rgn.vstride == 0 && o.rgn.width == 1 &&
                                o.rgn.hstride == 0));
   }

   /* Is in a spill store, or a NoMask copy that only spill stores read
    * (lower_scratch() packs a value whose components are not whole
    * registers, and gathers each message's part of a larger one, into a
    * payload of its own)?  Collects the stores' sends.
    */
   static bool spill_store(const instr *in, std::vector<const instr *> &sends,
                           unsigned depth = 0)
   {
      if (in->op == opcode::send && (in->flags & INSTR_SPILL)) {
         sends.push_back(in);
         return true;
      }
      if (depth >= 2 || !in->we_all() || in->num_dsts() != 1 ||
          (in->op != opcode::mov && in->op != opcode::load_payload))
         return false;
      const value *d = in->dst().val;
      if (!d || d->uses().empty())
         return false;
      for (const use &u : d->uses())
         if (!spill_store(u.in, sends, depth + 1))
            return false;
      return true;
   }

   /* Is a spill store in a loop whose scratch a fill outside that loop
    * reads?  Worked out once for every store.
    */
   bool stores_for_later(const instr *store)
   {
      if (!late_done) {
         late_done = true;
         reachable(store, store);   /* computes the loops */
         std::vector<const instr *> fills, stores;
         for (const auto &b : s.blocks()) {
            for (const instr *in : b->instrs()) {
               if (in->op != opcode::send)
                  continue;
               if (in->flags & INSTR_FILL)
                  fills.push_back(in);
               else if (in->flags & INSTR_SPILL)
                  stores.push_back(in);
            }
         }
         for (const instr *st : stores) {
            const span at = scratch_span(st);
            bool late = false;
            for (span l : loops) {
               if (l.start > st->ip || st->ip >= l.end)
                  continue;
               for (const instr *f : fills)
                  late |= (f->ip < l.start || f->ip >= l.end) &&
                          overlap(scratch_span(f), at);
            }
            if (late)
               late_stores.push_back(st);
         }
      }
      return std::find(late_stores.begin(), late_stores.end(), store) !=
             late_stores.end();
   }

   /* Channel c of a lies on channel c of b (one width and bit size). */
   static bool channels_align(const value *a, const value *b)
   {
      const unsigned comp = a->component_bytes();
      const unsigned sa = grf_span(a).start, sb = grf_span(b).start;
      return (sa > sb ? sa - sb : sb - sa) % comp == 0;
   }

   bool in_place_pair(const value *d, const value *v)
   {
      for (const instr *in : d->defs()) {
         if (in_place_source(in, d, v))
            return true;
      }
      return false;
   }

   shader &s;
   std::vector<span> loops;   /* ip ranges of the loops, once asked */
   bool late_done = false;
   std::vector<const instr *> late_stores;   /* stores_for_later() */
};

} /* anonymous namespace */

void
validate_allocation(const shader &cs)
{
   /* Liveness numbers the instructions; nothing else changes. */
   shader &s = const_cast<shader &>(cs);
   checker c(s);
   c.check_form();
   if (c.errors.empty())
      c.check_clobbers();
   if (c.errors.empty())
      return;
   std::string msg = "invalid register allocation:";
   for (const std::string &e : c.errors)
      msg += "\n   " + e;
   if (debug_enabled(DEBUG_RA))
      fprintf(stderr, "ra: %s\nin\n%s", msg.c_str(), s.str().c_str());
   throw error(msg);
}

} /* namespace ibis */
