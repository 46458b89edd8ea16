/*
 * Narrowing of 32-bit integer phis to 16 bits (docs/passes.md).
 *
 * Two analyses decide which phis may live in a word:
 *
 * - a range analysis: for each 32-bit integer SSA value, an interval
 *   [lo, hi] of integers such that the value's bits are, modulo 2^32, one
 *   of them.  Working modulo 2^32 keeps add, sub, mul and shl exact (the
 *   hardware wraps); signed and unsigned operations read the interval
 *   through the matching view (the representatives in [-2^31, 2^31) or
 *   [0, 2^32)), which is the whole view when the interval crosses its
 *   wrap.  It is a fixed point from "no value" (undef, unreached) upwards,
 *   each new interval the hull of the old and the transfer, so the result
 *   holds every concrete run; a value that keeps growing is widened to a
 *   16-bit range that holds it, then to everything.
 *
 * - a demanded-bits analysis: the bits of a value any reader can observe
 *   (an "and x, 255" observes 8, an add only the bits up to the highest
 *   its result needs, a phi or a predicated sel what its result needs).
 *   Readers the pass does not know observe all 32 bits.
 *
 * A phi fits a word when its range fits u16 or s16 (the word's extension
 * is the value itself) or nobody observes its high half.  It becomes a
 * word phi: inputs that are not word phis are truncated at the end of
 * their predecessor (one mov reading the low words), readers that can
 * take a word source with a dword execution type read the word, the others
 * read a dword conversion made just before them.
 *
 * The pass works on lowered SIMD16 programs, between lowering and
 * scheduling (so no CSE merges the conversions into one long-lived value
 * again), and only phis of 16 channels gain: one GRF instead of two.
 */
#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "opt/opt.h"
#include "opt/opt_util.h"

namespace ibis {

namespace {

constexpr int64_t two32 = int64_t(1) << 32;
constexpr int64_t two31 = int64_t(1) << 31;

/* Integers whose residues mod 2^32 hold the value's bits; bottom when no
 * run defines the value yet.
 */
struct int_range {
   bool bottom = true;
   int64_t lo = 0, hi = 0;

   static int_range of(int64_t lo, int64_t hi)
   {
      int_range r;
      r.bottom = false;
      r.lo = lo;
      r.hi = hi;
      if (hi - lo >= two32 - 1) {
         r.lo = 0;
         r.hi = two32 - 1;
      }
      return r;
   }
   static int_range top() { return of(0, two32 - 1); }
   bool is_top() const { return !bottom && hi - lo >= two32 - 1; }
   bool operator==(const int_range &o) const
   {
      return bottom == o.bottom && (bottom || (lo == o.lo && hi == o.hi));
   }
   bool operator!=(const int_range &o) const { return !(*this == o); }
};

/* The same residues with representatives in [base, base + 2^32), or that
 * whole window if they wrap around its end.
 */
int_range
view(const int_range &r, int64_t base)
{
   if (r.bottom)
      return r;
   /* The whole window, spelled with its own representatives (of() would
    * move it to [0, 2^32)).
    */
   int_range whole;
   whole.bottom = false;
   whole.lo = base;
   whole.hi = base + two32 - 1;
   if (r.is_top())
      return whole;
   int64_t k = r.lo - base;
   k = k >= 0 ? k / two32 : -((-k + two32 - 1) / two32);
   const int64_t lo = r.lo - k * two32, hi = r.hi - k * two32;
   if (hi > base + two32 - 1)
      return whole;
   return int_range::of(lo, hi);
}

int_range sview(const int_range &r) { return view(r, -two31); }
int_range uview(const int_range &r) { return view(r, 0); }

/* The smallest interval holding both (in one of the two views). */
int_range
hull(const int_range &a, const int_range &b)
{
   if (a.bottom)
      return b;
   if (b.bottom)
      return a;
   const int_range sa = sview(a), sb = sview(b), ua = uview(a), ub = uview(b);
   const int_range s = int_range::of(std::min(sa.lo, sb.lo), std::max(sa.hi, sb.hi));
   const int_range u = int_range::of(std::min(ua.lo, ub.lo), std::max(ua.hi, ub.hi));
   return s.hi - s.lo <= u.hi - u.lo ? s : u;
}

bool
fits_u16(const int_range &r)
{
   const int_range u = uview(r);
   return r.bottom || u.hi <= 0xffff;
}

bool
fits_s16(const int_range &r)
{
   const int_range s = sview(r);
   return r.bottom || (s.lo >= -0x8000 && s.hi <= 0x7fff);
}

bool
is_int32(data_type t)
{
   return t == data_type::u32 || t == data_type::s32;
}

bool
is_int(data_type t)
{
   switch (t) {
   case data_type::u8: case data_type::s8: case data_type::u16:
   case data_type::s16: case data_type::u32: case data_type::s32:
      return true;
   default:
      return false;
   }
}

/* A value the analyses follow: a 32-bit integer SSA value of one
 * component with one definition.
 */
bool
tracked(const value *v)
{
   return v && v->file == reg_file::ssa && is_int32(v->type) && v->length == 1 &&
          v->def();
}

/* An operand that reads a tracked value's dwords as they are. */
bool
plain_read(const operand &o)
{
   return o.val && tracked(o.val) && is_int32(o.type) && o.offset == 0 &&
          !o.has_region;
}

struct range_analysis {
   std::vector<int_range> range;
   std::vector<unsigned> updates;

   int_range operand_range(const operand &o) const
   {
      int_range r;
      if (o.is_imm()) {
         switch (o.type) {
         case data_type::u32: return int_range::of(uint32_t(o.imm), uint32_t(o.imm));
         case data_type::s32: return int_range::of(int32_t(o.imm), int32_t(o.imm));
         case data_type::u16: return int_range::of(uint16_t(o.imm), uint16_t(o.imm));
         case data_type::s16: return int_range::of(int16_t(o.imm), int16_t(o.imm));
         default: return int_range::top();
         }
      }
      if (!o.val)
         return int_range::top();
      /* Any read of a word or byte type holds that type's values. */
      switch (o.type) {
      case data_type::u16: r = int_range::of(0, 0xffff); break;
      case data_type::s16: r = int_range::of(-0x8000, 0x7fff); break;
      case data_type::u8: r = int_range::of(0, 0xff); break;
      case data_type::s8: r = int_range::of(-0x80, 0x7f); break;
      default:
         /* A dword read of a tracked value reads one of its elements. */
         if (is_int32(o.type) && tracked(o.val) && o.offset % 4 == 0)
            r = range[o.val->id];
         else
            return int_range::top();
      }
      if (r.bottom)
         return r;
      if (o.abs) {
         const int_range s = sview(r);
         if (s.lo >= 0)
            r = s;
         else if (s.hi <= 0)
            r = int_range::of(-s.hi, -s.lo);
         else
            r = int_range::of(0, std::max(-s.lo, s.hi));
      }
      if (o.neg)
         r = int_range::of(-r.hi, -r.lo);
      return r;
   }

   static int_range mul(const int_range &a, const int_range &b)
   {
      const int_range sa = sview(a), sb = sview(b);
      __int128 c[4] = {(__int128)sa.lo * sb.lo, (__int128)sa.lo * sb.hi,
                       (__int128)sa.hi * sb.lo, (__int128)sa.hi * sb.hi};
      const __int128 lo = *std::min_element(c, c + 4), hi = *std::max_element(c, c + 4);
      if (hi - lo >= two32 - 1)
         return int_range::top();
      /* Both ends move by the same multiple of 2^32 as the window. */
      const __int128 k = lo >= 0 ? lo / two32 : -((-lo + two32 - 1) / two32);
      return int_range::of(int64_t(lo - k * two32), int64_t(hi - k * two32));
   }

   /* The range of in's (tracked) destination from its sources. */
   int_range transfer(const instr *in) const
   {
      if (in->op == opcode::undef)
         return int_range();
      if (in->op == opcode::phi) {
         int_range r;
         for (const operand &o : in->srcs())
            r = hull(r, operand_range(o));
         return r;
      }
      if (in->saturate || in->num_dsts() != 1 || !in->preserve().is_null())
         return int_range::top();
      for (const operand &o : in->srcs())
         if (!o.is_imm() && !(o.val && is_int(o.type)))
            return int_range::top();
      if (in->predicate() && in->op != opcode::sel)
         return int_range::top();
      const unsigned n = in->num_srcs();
      auto src = [&](unsigned i) { return operand_range(in->src(i)); };
      for (unsigned i = 0; i < n; i++)
         if (src(i).bottom)
            return int_range();
      bool any_dword = false;
      for (const operand &o : in->srcs())
         any_dword |= is_int32(o.type);
      /* Word-only arithmetic might run at word precision: not followed. */
      if (!any_dword && (in->op == opcode::add || in->op == opcode::mul ||
                         in->op == opcode::shl))
         return int_range::top();
      const bool is_signed = n && type_is_signed_int(in->src(0).type);
      auto shift = [&]() -> int {
         if (n != 2 || !in->src(1).is_imm())
            return -1;
         return int(in->src(1).imm & 31);
      };
      switch (in->op) {
      case opcode::mov:
         return n == 1 ? src(0) : int_range::top();
      case opcode::add:
         if (n != 2)
            return int_range::top();
         return int_range::of(sview(src(0)).lo + sview(src(1)).lo,
                              sview(src(0)).hi + sview(src(1)).hi);
      case opcode::mul:
         return n == 2 ? mul(src(0), src(1)) : int_range::top();
      case opcode::and_:
         if (n != 2 || in->src(0).neg || in->src(1).neg)
            return int_range::top();
         return int_range::of(0, std::min(uview(src(0)).hi, uview(src(1)).hi));
      case opcode::or_:
      case opcode::xor_: {
         if (n != 2 || in->src(0).neg || in->src(1).neg)
            return int_range::top();
         const int64_t m = std::max(uview(src(0)).hi, uview(src(1)).hi);
         int64_t p = 1;
         while (p <= m)
            p <<= 1;
         return int_range::of(0, p - 1);
      }
      case opcode::shr: {
         const int c = shift();
         const int_range a = uview(src(0));
         if (c < 0)
            return int_range::of(0, a.hi);
         return int_range::of(a.lo >> c, a.hi >> c);
      }
      case opcode::asr: {
         const int c = shift();
         const int_range a = sview(src(0));
         const int_range r =
            c < 0 ? int_range::of(std::min<int64_t>(a.lo, 0), std::max<int64_t>(a.hi, 0))
                  : int_range::of(a.lo >> c, a.hi >> c);
         /* Bit 31 is the sign (as the simulator has it); of an unsigned
          * source, also allow a logical shift.
          */
         if (type_is_signed_int(in->src(0).type))
            return r;
         const int_range u = uview(src(0));
         return hull(r, c < 0 ? int_range::of(0, u.hi) : int_range::of(u.lo >> c, u.hi >> c));
      }
      case opcode::shl: {
         const int c = shift();
         if (c < 0)
            return int_range::top();
         return mul(src(0), int_range::of(int64_t(1) << c, int64_t(1) << c));
      }
      case opcode::sel: {
         if (n != 2)
            return int_range::top();
         if (in->predicate() && in->cmod == cond_mod::none)
            return hull(src(0), src(1));
         if (in->predicate())
            return int_range::top();
         /* Signedness of the comparison: the sources' type. */
         if (type_is_signed_int(in->src(1).type) != is_signed)
            return int_range::top();
         const int_range a = is_signed ? sview(src(0)) : uview(src(0));
         const int_range b = is_signed ? sview(src(1)) : uview(src(1));
         if (in->cmod == cond_mod::ge)
            return int_range::of(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
         if (in->cmod == cond_mod::l)
            return int_range::of(std::min(a.lo, b.lo), std::min(a.hi, b.hi));
         return int_range::top();
      }
      case opcode::cmp:
      case opcode::cmpn:
         /* An integer destination gets 0 or ~0. */
         return int_range::of(-1, 0);
      default:
         return int_range::top();
      }
   }

   void run(shader &s)
   {
      range.assign(s.value_id_bound(), int_range());
      updates.assign(s.value_id_bound(), 0);
      /* Values the analysis does not follow are everything. */
      for (value *v : s.values())
         if (v && !tracked(v))
            range[v->id] = int_range::top();
      bool changed = true;
      while (changed) {
         changed = false;
         for (const auto &b : s.blocks()) {
            for (const instr *in : b->instrs()) {
               for (const operand &d : in->dsts()) {
                  if (!d.val || !tracked(d.val))
                     continue;
                  int_range r = (d.offset || d.has_region || !is_int32(d.type))
                                   ? int_range::top()
                                   : transfer(in);
                  const int_range old = range[d.val->id];
                  r = hull(old, r);
                  if (r == old)
                     continue;
                  /* Widening: a value still growing after a few rounds
                   * takes a 16-bit range that holds it, then everything.
                   */
                  unsigned &u = updates[d.val->id];
                  if (++u > 8) {
                     if (u <= 9 && fits_u16(r))
                        r = int_range::of(0, 0xffff);
                     else if (u <= 9 && fits_s16(r))
                        r = int_range::of(-0x8000, 0x7fff);
                     else
                        r = int_range::top();
                  }
                  range[d.val->id] = r;
                  changed = true;
               }
            }
         }
      }
   }
};

/* Bits a reader of operand slot i of in may observe, given the bits of in's
 * destination that are observed (dst_bits).
 */
uint32_t
observed_bits(const instr *in, unsigned i, uint32_t dst_bits)
{
   const operand &o = in->src(i);
   if (o.abs || in->saturate || in->has_side_effects() || in->flag_def() ||
       in->cmod != cond_mod::none || !in->preserve().is_null())
      return ~0u;
   auto low_closed = [](uint32_t m) -> uint32_t {
      if (!m)
         return 0;
      const unsigned top = 31 - __builtin_clz(m);
      return top == 31 ? ~0u : (2u << top) - 1;
   };
   const unsigned n = in->num_srcs();
   /* An arithmetic negate: bit k of -x depends on bits 0..k of x. */
   const uint32_t arith = o.neg ? low_closed(dst_bits) : dst_bits;
   switch (in->op) {
   case opcode::phi:
      return dst_bits;
   case opcode::mov:
      return arith;
   case opcode::sel:
      return in->predicate() ? arith : ~0u;
   case opcode::or_:
   case opcode::xor_:
      return n == 2 ? dst_bits : ~0u;
   case opcode::and_: {
      if (n != 2)
         return ~0u;
      const operand &other = in->src(1 - i);
      if (other.is_imm() && is_int32(other.type) && !other.neg)
         return dst_bits & uint32_t(other.imm);
      return dst_bits;
   }
   case opcode::add:
   case opcode::mul:
      return n == 2 ? low_closed(dst_bits) : ~0u;
   case opcode::shl:
      if (n == 2 && i == 0 && in->src(1).is_imm())
         return dst_bits >> (in->src(1).imm & 31);
      return ~0u;
   default:
      return ~0u;
   }
}

struct demand_analysis {
   std::vector<uint32_t> bits;

   uint32_t dst_bits(const instr *in) const
   {
      if (in->num_dsts() != 1 || !in->dst().val)
         return ~0u;
      const operand &d = in->dst();
      if (tracked(d.val) && !d.offset && !d.has_region && is_int32(d.type))
         return bits[d.val->id];
      /* A word or byte integer destination keeps the low bits of an
       * integer source of the same or a wider size (a truncating mov).
       */
      if (in->op == opcode::mov && in->num_srcs() == 1 && is_int(d.type) &&
          is_int(in->src(0).type) && !in->src(0).neg && !in->src(0).abs &&
          type_bits(d.type) < 32)
         return (1u << type_bits(d.type)) - 1;
      return ~0u;
   }

   void run(shader &s)
   {
      bits.assign(s.value_id_bound(), 0);
      bool changed = true;
      while (changed) {
         changed = false;
         for (auto bi = s.blocks().rbegin(); bi != s.blocks().rend(); ++bi) {
            const auto &list = (*bi)->instrs();
            for (auto it = list.rbegin(); it != list.rend(); ++it) {
               const instr *in = *it;
               const uint32_t db = dst_bits(in);
               for (unsigned i = 0; i < in->num_srcs(); i++) {
                  const operand &o = in->src(i);
                  if (!o.val || !tracked(o.val))
                     continue;
                  const uint32_t m = plain_read(o) ? observed_bits(in, i, db) : ~0u;
                  uint32_t &b = bits[o.val->id];
                  if ((b | m) != b) {
                     b |= m;
                     changed = true;
                  }
               }
               for (const value *v : {in->predicate(), in->preserve().val}) {
                  if (v && tracked(v) && bits[v->id] != ~0u) {
                     bits[v->id] = ~0u;
                     changed = true;
                  }
               }
            }
         }
      }
   }
};

/* Can in read the word value instead of the dword operand in slot i?
 * Only where the execution type stays a dword (another source is a dword
 * that is not narrowed, or in is a conversion) and the operation is the
 * same on the extended word: the word's extension equals the dword where
 * the range fits, and differs only in bits nobody observes otherwise.
 */
bool
reads_word(const instr *in, unsigned i, data_type word,
           const std::vector<bool> &narrowed)
{
   const operand &o = in->src(i);
   if (o.neg || o.abs || in->saturate || !in->preserve().is_null() ||
       in->we_all() || in->num_dsts() != 1 || !in->dst().val ||
       !is_int32(in->dst().type))
      return false;
   switch (in->op) {
   case opcode::mov:
      return in->num_srcs() == 1;
   case opcode::sel:
      if (!in->predicate() || in->cmod != cond_mod::none)
         return false;
      break;
   case opcode::and_:
   case opcode::or_:
   case opcode::xor_:
   case opcode::add:
      break;
   case opcode::shl:
   case opcode::asr:
      if (i != 0)
         return false;
      break;
   case opcode::shr:
      /* A logical shift of a sign-extended word: keep to zero extension. */
      if (i != 0 || word != data_type::u16)
         return false;
      break;
   default:
      return false;
   }
   if (in->num_srcs() != 2)
      return false;
   const operand &other = in->src(1 - i);
   if (!is_int32(other.type))
      return false;
   /* Values made by this rewrite have ids past narrowed: not narrowed. */
   return other.is_imm() ||
          (other.val && !(tracked(other.val) && other.val->id < narrowed.size() &&
                          narrowed[other.val->id]));
}

/* "dst = mov src" at 16 channels, inserted before pos in blk. */
void
insert_mov(shader &s, block *blk, block::iterator pos, value *dst, const operand &src)
{
   instr *mv = s.create_instr(opcode::mov, 16);
   mv->add_dst(operand(dst));
   mv->add_src(src);
   blk->insert(pos, mv);
}

} /* namespace */

bool
opt_narrow_phis(shader &s)
{
   range_analysis ra;
   ra.run(s);
   demand_analysis da;
   da.run(s);

   /* The phis that become words, and the word type of each. */
   std::vector<bool> narrowed(s.value_id_bound(), false);
   std::unordered_map<uint32_t, data_type> word;
   std::vector<instr *> phis;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (!in->is_phi() || in->num_dsts() != 1)
            continue;
         const operand &d = in->dst();
         value *v = d.val;
         if (!v || !tracked(v) || v->width != 16 || v->group != 0 || in->we_all() ||
             d.offset || d.has_region || in->exec_size != 16)
            continue;
         bool ok = true;
         for (unsigned i = 0; i < in->num_srcs() && ok; i++) {
            const operand &o = in->src(i);
            ok = o.val && o.val->file == reg_file::ssa && is_int32(o.type) &&
                 !o.offset && !o.has_region && !o.neg && !o.abs &&
                 o.val->width == 16 && o.val->group == 0;
         }
         /* Readers: sources of full-width instructions, no predicate or
          * preserve.
          */
         for (const use &u : v->uses()) {
            if (!ok)
               break;
            ok = u.slot >= 0 && u.in->exec_size == 16 && u.in->group == 0 &&
                 !u.in->we_all();
            if (ok) {
               const operand &o = u.in->src(u.slot);
               ok = is_int32(o.type) && !o.offset && !o.has_region;
            }
         }
         if (!ok)
            continue;
         const int_range &r = ra.range[v->id];
         data_type t;
         if (fits_u16(r))
            t = data_type::u16;
         else if (fits_s16(r))
            t = data_type::s16;
         else if (!(da.bits[v->id] & 0xffff0000u))
            t = data_type::u16;
         else
            continue;
         narrowed[v->id] = true;
         word[v->id] = t;
         phis.push_back(in);
      }
   }
   if (phis.empty())
      return false;

   std::unordered_map<uint32_t, value *> words;
   for (instr *phi : phis) {
      value *v = phi->dst().val;
      words[v->id] = s.create_value(reg_file::ssa, word[v->id], 16, 1, 0);
   }
   for (instr *phi : phis) {
      value *v = phi->dst().val;
      value *w = words[v->id];
      const data_type t = word[v->id];
      /* Readers first (the uses list of v changes as they move). */
      const std::vector<use> uses = v->uses();
      /* One conversion per reader, however many of its sources read v. */
      std::unordered_map<instr *, value *> conv;
      for (const use &u : uses) {
         instr *in = u.in;
         const operand old = in->src(u.slot);
         if (in->is_phi()) {
            if (in->num_dsts() == 1 && in->dst().val &&
                in->dst().val->id < narrowed.size() && narrowed[in->dst().val->id])
               continue;   /* rewritten with its own inputs below */
            /* A dword phi reading the word: convert at the end of the
             * predecessor.
             */
            block *pred = in->parent()->preds[u.slot];
            value *e = s.create_value(reg_file::ssa, v->type, 16, 1, 0);
            insert_mov(s, pred, pred->before_jump(), e, operand(w).as_type(t));
            operand n = old;
            n.val = e;
            in->set_src(u.slot, n);
            continue;
         }
         if (reads_word(in, u.slot, t, narrowed)) {
            operand n = operand(w).as_type(t);
            in->set_src(u.slot, n);
            continue;
         }
         value *&e = conv[in];
         if (!e) {
            e = s.create_value(reg_file::ssa, v->type, 16, 1, 0);
            insert_mov(s, in->parent(), in->position(), e, operand(w).as_type(t));
         }
         operand n = old;
         n.val = e;
         in->set_src(u.slot, n);
      }
   }
   std::map<std::pair<block *, value *>, value *> truncated;
   for (instr *phi : phis) {
      value *v = phi->dst().val;
      value *w = words[v->id];
      const data_type t = word[v->id];
      for (unsigned i = 0; i < phi->num_srcs(); i++) {
         const operand &o = phi->src(i);
         if (o.val->id < narrowed.size() && narrowed[o.val->id]) {
            phi->set_src(i, operand(words[o.val->id]).as_type(t));
            continue;
         }
         /* Truncate: the low word of each channel's dword, once per
          * value and predecessor (the three components of a colour often
          * read the same register).
          */
         block *pred = phi->parent()->preds[i];
         value *&tw = truncated[{pred, o.val}];
         if (!tw) {
            tw = s.create_value(reg_file::ssa, t, 16, 1, 0);
            insert_mov(s, pred, pred->before_jump(), tw,
                       operand(o.val).as_type(t).with_region(16, 8, 2));
         }
         phi->set_src(i, operand(tw).as_type(t));
      }
      phi->set_dst(0, operand(w));
   }
   return true;
}

} /* namespace ibis */
