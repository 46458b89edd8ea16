/*
 * Constant combining, after lowering: legalization gives every immediate
 * that a three-source or math instruction cannot encode its own
 * "%c:f32x1 = mov 0.5:f32 {WE_all}" in front of the reader, so a shader
 * that uses 0.5 in twenty mads loads it twenty times.  Here each constant
 * is loaded once, at the top of the block that dominates all its readers
 * (brw's opt_combine_constants; what its stats line calls "Promoted N
 * constants").  A float constant and its negation share the load where
 * every reader takes a negate modifier (the three-source opcodes do).
 * A predicated integer sel of two float constants selects bits; read as
 * f32 its constant shares the load of its negation ("sel -1.0 : 1.0"
 * becomes "sel -%c, 1.0F", as brw's).  Last, the loads are packed: four
 * vector floats in a "mov(4) :vf", then any two 32-bit constants in a
 * "mov(1) :uq" (a block's odd one with its nearest dominator's).
 *
 * Only width-1 NoMask movs of an immediate with no other effect, read as
 * whole values by ALU or math sources, take part.  O(loads + readers ×
 * dominator depth).
 */
#include <algorithm>
#include <map>

#include "ir/ibis_analysis.h"
#include "opt/opt.h"

namespace ibis {

namespace {

/* Is in "%c:Tx1 = mov imm:T {WE_all}" and nothing more? */
bool
is_constant_load(const instr *in)
{
   if (in->op != opcode::mov || in->num_dsts() != 1 || in->num_srcs() != 1 ||
       in->exec_size != 1 || !in->we_all() || in->predicate() ||
       in->saturate || in->cmod != cond_mod::none || in->flag_def() ||
       !in->preserve().is_null() || in->has_side_effects())
      return false;
   const operand &d = in->dst(0), &s = in->src(0);
   if (!d.val || d.val->file != reg_file::ssa || d.val->width != 1 ||
       d.val->length != 1 || d.offset || d.has_region || !s.is_imm() ||
       s.type != d.type || type_is_vector_imm(s.type) ||
       d.val->defs().size() != 1)
      return false;
   for (const use &u : d.val->uses()) {
      if (u.slot < 0)
         return false;
      const opcode_kind k = u.in->info().kind;
      const operand &o = u.in->src(u.slot);
      if ((k != opcode_kind::alu && k != opcode_kind::math) || o.offset ||
          o.has_region || u.in->is_phi())
         return false;
   }
   return true;
}

/* Readers that take a negate modifier on a float register source. */
bool
takes_negate(const use &u)
{
   switch (u.in->op) {
   case opcode::mad: case opcode::lrp: case opcode::add: case opcode::mul:
   case opcode::sel:
      return type_is_float(u.in->src(u.slot).type);
   default:
      return false;
   }
}

/* The key of a constant: its type and bits, with a float's sign dropped
 * when every reader can negate.
 */
struct key {
   data_type type;
   uint64_t bits;
   bool operator<(const key &o) const
   {
      return type != o.type ? type < o.type : bits < o.bits;
   }
};

uint64_t
sign_bit(data_type t)
{
   return uint64_t(1) << (type_bits(t) - 1);
}

/* A 32-bit pattern that is a normal float or zero: selecting it as f32
 * gives the same bits (no denormal flushed, no NaN touched).
 */
bool
plain_float_bits(uint64_t bits)
{
   const uint32_t exp = uint32_t(bits >> 23) & 0xff;
   return bits <= 0xffffffffu && exp != 0xff && (exp != 0 || (bits & 0x7fffffff) == 0);
}

/* The constant load a sel source reads, if it is one of a plain float. */
instr *
float_constant_load(const operand &o)
{
   if (!o.val || o.neg || o.abs || o.val->defs().size() != 1)
      return nullptr;
   instr *d = o.val->defs()[0];
   if (!is_constant_load(d) || type_bits(d->dst(0).type) != 32 ||
       type_is_float(d->dst(0).type) || !plain_float_bits(d->src(0).imm))
      return nullptr;
   return d;
}

/* A predicated sel of 32-bit integer type whose two sources are plain
 * float constants (immediates or loads every reader of which is such a
 * sel) is retyped to f32, and its loads with it, so that they group with
 * the float constants.
 */
void
retype_float_sels(shader &s)
{
   auto convertible = [](const instr *in) {
      if (in->op != opcode::sel || in->cmod != cond_mod::none || !in->predicate() ||
          in->saturate || in->num_dsts() != 1 || in->num_srcs() != 2 ||
          type_bits(in->dst(0).type) != 32 || type_is_float(in->dst(0).type))
         return false;
      bool load = false;
      for (unsigned i = 0; i < 2; i++) {
         const operand &o = in->src(i);
         if (o.is_imm()) {
            if (type_bits(o.type) != 32 || type_is_float(o.type) || o.neg || o.abs ||
                !plain_float_bits(o.imm))
               return false;
         } else if (float_constant_load(o) && !o.offset && !o.has_region &&
                    type_bits(o.type) == 32 && !type_is_float(o.type)) {
            load = true;
         } else {
            return false;
         }
      }
      return load;
   };
   std::vector<instr *> loads;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (convertible(in)) {
            for (unsigned i = 0; i < 2; i++) {
               if (instr *d = float_constant_load(in->src(i)))
                  loads.push_back(d);
            }
         }
      }
   }
   for (instr *ld : loads) {
      value *v = ld->dst(0).val;
      if (v->type == data_type::f32)
         continue;   /* done for an earlier reader */
      bool all = true;
      for (const use &u : v->uses())
         all &= u.slot >= 0 && (u.in->dst(0).type == data_type::f32 || convertible(u.in));
      if (!all)
         continue;
      for (const use &u : std::vector<use>(v->uses())) {
         instr *in = u.in;
         if (in->dst(0).type == data_type::f32)
            continue;
         operand d = in->dst(0);
         d.type = data_type::f32;
         in->set_dst(0, d);
         for (unsigned i = 0; i < 2; i++) {
            operand o = in->src(i);
            o.type = data_type::f32;
            in->set_src(i, o);
         }
      }
      v->type = data_type::f32;
      operand d = ld->dst(0);
      d.type = data_type::f32;
      ld->set_dst(0, d);
      operand c = ld->src(0);
      c.type = data_type::f32;
      ld->set_src(0, c);
   }
}

/* The 8-bit vector-float code of a float's bits (sign, 3-bit exponent
 * biased by 3, 4-bit mantissa), or -1: ±0 and the normals from 2^-3 to
 * 31 whose mantissa fits 4 bits, except 2^-3 itself (its code reads 0).
 */
int
vf_code(uint32_t bits)
{
   const uint32_t sign = bits >> 31;
   if ((bits & 0x7fffffff) == 0)
      return int(sign << 7);
   const int exp = int((bits >> 23) & 0xff) - 127;
   if ((bits & 0x7ffff) || exp < -3 || exp > 4)
      return -1;
   const uint32_t code = uint32_t(exp + 3) << 4 | ((bits >> 19) & 0xf);
   if (code == 0)
      return -1;
   return int(sign << 7 | code);
}

/* The f32 constant loads of a block that a vector-float immediate can
 * hold become channels of one 4-wide load ("mov(4) %v:f32x4 [a,b,c,d]VF"),
 * read as scalars (%v.4<0,1,0>): one instruction for up to four.  The
 * packed load goes where the first of its loads was, before every reader
 * of the others.
 */
bool
pack_vector_floats(shader &s)
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      std::vector<instr *> loads;
      for (instr *in : b->instrs()) {
         if (is_constant_load(in) && in->dst(0).type == data_type::f32 &&
             vf_code(uint32_t(in->src(0).imm)) >= 0)
            loads.push_back(in);
      }
      for (size_t first = 0; first + 1 < loads.size(); first += 4) {
         const size_t n = std::min<size_t>(4, loads.size() - first);
         /* Channels of distinct bits; a repeated constant reads its
          * first channel.
          */
         std::vector<uint32_t> lanes;
         std::vector<unsigned> lane_of(n);
         for (size_t i = 0; i < n; i++) {
            const uint32_t bits = uint32_t(loads[first + i]->src(0).imm);
            auto it = std::find(lanes.begin(), lanes.end(), bits);
            lane_of[i] = unsigned(it - lanes.begin());
            if (it == lanes.end())
               lanes.push_back(bits);
         }
         uint32_t imm = 0;
         for (unsigned l = 0; l < 4; l++)
            imm |= uint32_t(vf_code(lanes[std::min<size_t>(l, lanes.size() - 1)])) << (8 * l);
         instr *vec = s.create_instr(opcode::mov, 4);
         vec->flags = INSTR_WE_ALL;
         b->insert_before(loads[first], vec);
         value *v = s.create_value(reg_file::ssa, data_type::f32, 4);
         vec->add_dst(operand(v));
         vec->add_src(operand::imm_of(data_type::vf, imm));
         for (size_t i = 0; i < n; i++) {
            instr *ld = loads[first + i];
            value *old = ld->dst(0).val;
            ld->remove();
            for (const use &u : std::vector<use>(old->uses())) {
               operand o = u.in->src(u.slot);
               o.val = v;
               o.offset = 4 * lane_of[i];
               o = o.with_region(0, 1, 0);
               u.in->set_src(u.slot, o);
            }
         }
         progress = true;
      }
   }
   return progress;
}

/* One "mov(1) %p:u64 [hi:lo] {WE_all}" for the loads lo and hi, put
 * where lo was (lo's block dominates hi's, and lo comes first in a shared
 * one); their readers read the halves as scalars of their own types.
 */
void
pair_loads(shader &s, instr *lo, instr *hi)
{
   const uint64_t imm = uint64_t(uint32_t(hi->src(0).imm)) << 32 |
                        uint32_t(lo->src(0).imm);
   instr *pair = s.create_instr(opcode::mov, 1);
   pair->flags = INSTR_WE_ALL;
   lo->parent()->insert_before(lo, pair);
   value *v = s.create_value(reg_file::ssa, data_type::u64, 1);
   pair->add_dst(operand(v));
   pair->add_src(operand::imm_of(data_type::u64, imm));
   for (unsigned half = 0; half < 2; half++) {
      instr *ld = half ? hi : lo;
      value *old = ld->dst(0).val;
      ld->remove();
      for (const use &u : std::vector<use>(old->uses())) {
         operand o = u.in->src(u.slot);
         o.val = v;
         o.offset = 4 * half;
         o = o.with_region(0, 1, 0);
         u.in->set_src(u.slot, o);
      }
   }
}

/* The 32-bit constant loads of a block left after the vector-float
 * packing share 64-bit loads two at a time: Gen9 takes a 64-bit
 * immediate in a mov ("mov(1) %p:u64 [hi:lo] {WE_all}"), whose halves
 * are read as scalars (%p<0,1,0>, %p.4<0,1,0>) of the loads' own types.
 * Any bits fit, not only vector-float codes.  The pair goes where the
 * first of its loads was, before every reader of the second.  A block's
 * odd load left then pairs with the odd load of its nearest dominator
 * that has one, there: one instruction fewer on every path through both
 * and none more on any, for one scalar living longer.  Not at SIMD32,
 * where the register file is tightest: that scalar alone made the
 * latency schedule of a SIMD32 program fail to allocate, and the width
 * was dropped.
 */
bool
pair_scalar_loads(shader &s, const dominance &dom)
{
   bool progress = false;
   std::vector<instr *> odd(s.blocks().size(), nullptr);
   for (const auto &b : s.blocks()) {
      std::vector<instr *> loads;
      for (instr *in : b->instrs()) {
         if (is_constant_load(in) && type_bits(in->dst(0).type) == 32)
            loads.push_back(in);
      }
      size_t first = 0;
      for (; first + 1 < loads.size(); first += 2) {
         pair_loads(s, loads[first], loads[first + 1]);
         progress = true;
      }
      if (first < loads.size())
         odd[b->index] = loads[first];
   }
   if (s.dispatch_width >= 32)
      return progress;
   for (block *b : dom.rpo()) {
      instr *hi = odd[b->index];
      if (!hi)
         continue;
      for (block *a = dom.idom(b); a; a = dom.idom(a)) {
         if (instr *lo = odd[a->index]) {
            pair_loads(s, lo, hi);
            odd[a->index] = odd[b->index] = nullptr;
            progress = true;
            break;
         }
      }
   }
   return progress;
}

block *
common_dominator(const dominance &dom, block *a, block *b)
{
   while (!dom.dominates(a, b))
      a = dom.idom(a);
   return a;
}

} /* namespace */

bool
opt_combine_constants(shader &s)
{
   retype_float_sels(s);
   std::map<key, std::vector<instr *>> groups;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (!is_constant_load(in))
            continue;
         key k = {in->dst(0).type, in->src(0).imm};
         if (type_is_float(k.type)) {
            bool negatable = true;
            for (const use &u : in->dst(0).val->uses())
               negatable &= takes_negate(u);
            if (negatable)
               k.bits &= ~sign_bit(k.type);
         }
         groups[k].push_back(in);
      }
   }

   dominance dom(s);
   std::map<block *, instr *> last_load;
   bool progress = false;
   for (auto &[k, loads] : groups) {
      if (loads.size() < 2)
         continue;
      /* The block that dominates every reader. */
      block *top = nullptr;
      for (instr *ld : loads) {
         for (const use &u : ld->dst(0).val->uses()) {
            block *b = u.in->parent();
            top = top ? common_dominator(dom, top, b) : b;
         }
      }
      if (!top)
         continue;
      /* After the phis and the instruction that opens the block, and
       * after the loads already put there.
       */
      instr *one = s.create_instr(opcode::mov, 1);
      one->flags = INSTR_WE_ALL;
      if (instr *prev = last_load[top]) {
         top->insert_after(prev, one);
      } else {
         auto at = top->begin();
         while (at != top->end() && ((*at)->is_phi() || (*at)->is_block_start()))
            ++at;
         top->insert(at, one);
      }
      last_load[top] = one;
      const data_type t = k.type;
      value *c = s.create_value(reg_file::ssa, t, 1);
      one->add_dst(operand(c));
      one->add_src(operand::imm_of(t, k.bits));
      for (instr *ld : loads) {
         const bool negated = ld->src(0).imm != k.bits;
         value *old = ld->dst(0).val;
         ld->remove();
         std::vector<use> uses = old->uses();
         for (const use &u : uses) {
            operand o = u.in->src(u.slot);
            o.val = c;
            o.neg ^= negated;
            u.in->set_src(u.slot, o);
         }
      }
      progress = true;
   }
   progress |= pack_vector_floats(s);
   progress |= pair_scalar_loads(s, dom);
   return progress;
}

} /* namespace ibis */
