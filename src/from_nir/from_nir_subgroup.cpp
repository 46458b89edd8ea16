/*
 * Subgroup operations.  The seed's WLR cases live here: the subgroup
 * invocation (a packed-vector mov and 0-2 adds into one WLR value) and the
 * reductions and scans (an identity-filled copy of the source, then
 * in-place strided steps on one WLR value).  Each sequence is emitted where
 * it is used, in one block, so CSE and copy-prop can treat the whole write
 * sequence as one definition.  Algorithms follow brw's emit_scan.
 */
#include <cmath>
#include <cstring>

#include "from_nir/from_nir_private.h"

namespace ibis {

using nir::intrinsic_index;
using nir::intrinsic_op;

namespace {

/* The part of a WLR value starting at channel `first`, read with a
 * stride of `stride` channels by an instruction of `exec` channels.
 */
operand
channels(value *v, unsigned first, unsigned stride, unsigned exec)
{
   operand o(v);
   o.offset = first * v->bit_size() / 8;
   unsigned w = std::min(exec, 8u);
   return o.with_region(w * stride, w, stride);
}

/* The same as a destination (only the horizontal stride counts). */
operand
channels_dst(value *v, unsigned first, unsigned stride)
{
   operand o(v);
   o.offset = first * v->bit_size() / 8;
   return o.with_region(0, 0, stride);
}

operand
scalar(value *v, unsigned channel)
{
   operand o(v);
   o.offset = channel * v->bit_size() / 8;
   return o.with_region(0, 1, 0);
}

struct reduction {
   opcode op;
   cond_mod cmod;     /* sel.l / sel.ge for min and max */
   data_type type;
   uint64_t identity;
};

uint64_t
float_bits(data_type t, double d)
{
   if (t == data_type::f64) {
      uint64_t u;
      memcpy(&u, &d, 8);
      return u;
   }
   if (t == data_type::f16)
      return d > 0 ? 0x7c00 : d < 0 ? 0xfc00 : 0;   /* +inf, -inf, 0 */
   float f = float(d);
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

} /* anonymous namespace */

value *
nir_translator::get_subgroup_invocation()
{
   /* 0..7 from a packed vector immediate, then +8 and +16 for the other
    * channels, all NoMask: the value is SIMD-global (seed note WLR).
    */
   builder b = bld.nomask();
   value *w = bld.exec(width).wlr(data_type::u16);
   b.exec(8).mov(operand(w), operand::imm_of(data_type::v, 0x76543210));
   if (width >= 16)
      b.exec(8, 8).add(channels_dst(w, 8, 1), channels(w, 0, 1, 8),
                       operand::imm_of(data_type::u16, 8));
   if (width == 32) {
      operand lo(w);
      b.exec(16, 16).add(channels_dst(w, 16, 1), lo.with_region(16, 16, 1),
                         operand::imm_of(data_type::u16, 16));
   }
   return bld.exec(width).mov(data_type::u32, operand(w));
}

bool
nir_translator::emit_subgroup_intrinsic(const nir::intrinsic_instr &in)
{
   builder full = bld.exec(width);
   builder u = uniform_builder();

   /* NIR's reduction op -> ibis opcode, type and identity. */
   auto reduction_of = [&](unsigned nir_op, unsigned bits) {
      nir::alu_op op = nir::alu_op(nir_op);
      data_type f = type_of('f', bits), s = type_of('s', bits), uu = type_of('u', bits);
      uint64_t ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
      uint64_t smax = ones >> 1, smin = smax + 1;
      switch (op) {
      case nir::alu_op::iadd: return reduction{opcode::add, cond_mod::none, s, 0};
      case nir::alu_op::fadd: return reduction{opcode::add, cond_mod::none, f, 0};
      case nir::alu_op::imul: return reduction{opcode::mul, cond_mod::none, s, 1};
      case nir::alu_op::fmul: return reduction{opcode::mul, cond_mod::none, f, float_bits(f, 1.0)};
      case nir::alu_op::imin: return reduction{opcode::sel, cond_mod::l, s, smax};
      case nir::alu_op::umin: return reduction{opcode::sel, cond_mod::l, uu, ones};
      case nir::alu_op::fmin: return reduction{opcode::sel, cond_mod::l, f, float_bits(f, INFINITY)};
      case nir::alu_op::imax: return reduction{opcode::sel, cond_mod::ge, s, smin};
      case nir::alu_op::umax: return reduction{opcode::sel, cond_mod::ge, uu, 0};
      case nir::alu_op::fmax: return reduction{opcode::sel, cond_mod::ge, f, float_bits(f, -INFINITY)};
      case nir::alu_op::iand: return reduction{opcode::and_, cond_mod::none, uu, ones};
      case nir::alu_op::ior: return reduction{opcode::or_, cond_mod::none, uu, 0};
      case nir::alu_op::ixor: return reduction{opcode::xor_, cond_mod::none, uu, 0};
      default:
         unsupported("reduction operation %s is not supported", nir::op_info(op).name);
      }
   };

   /* Inclusive scan of x within clusters of `cluster` channels, as one WLR
    * value: inactive channels hold the identity, then log2(cluster) rounds
    * of strided in-place steps.
    */
   auto scan = [&](const operand &x, const reduction &r, unsigned cluster) {
      value *t = full.wlr(r.type);
      builder all = bld.nomask();
      all.exec(width).mov(operand(t), operand::imm_of(r.type, r.identity));
      full.mov(operand(t), x.as_type(r.type));
      auto step = [&](unsigned exec, unsigned group, operand dst, operand left,
                      operand right) {
         instr *i = all.exec(exec, group).emit(r.op, {dst}, {left, right});
         i->cmod = r.cmod;
      };
      bool wide = type_bits(r.type) == 64;
      if (cluster > 1) {
         /* Odd channels take their left neighbour. */
         step(width / 2, 0, channels_dst(t, 1, 2), channels(t, 0, 2, width / 2),
              channels(t, 1, 2, width / 2));
      }
      if (cluster > 2) {
         if (!wide) {
            /* Channels 2 and 3 of each 4 take channel 1. */
            for (unsigned k = 2; k < 4; k++)
               step(width / 4, 0, channels_dst(t, k, 4), channels(t, 1, 4, width / 4),
                    channels(t, k, 4, width / 4));
         } else {
            /* 64-bit strides of 4 are out of reach: go 4 channels at a time. */
            for (unsigned q = 0; q < width / 4; q++)
               step(2, 0, channels_dst(t, q * 4 + 2, 1), scalar(t, q * 4 + 1),
                    channels(t, q * 4 + 2, 1, 2));
         }
      }
      for (unsigned i = 4; i < std::min(cluster, width); i *= 2) {
         /* The upper half of each 2i-cluster takes its lower half's last. */
         for (unsigned j = 0; j < width; j += 2 * i)
            step(i, 0, channels_dst(t, j + i, 1), scalar(t, j + i - 1),
                 channels(t, j + i, 1, i));
      }
      return t;
   };

   switch (in.op) {
   case intrinsic_op::load_subgroup_invocation:
      set_def(in.dest, {operand(get_subgroup_invocation())});
      return true;
   case intrinsic_op::load_subgroup_size:
      set_def(in.dest, {operand::imm_u32(width)});
      return true;
   case intrinsic_op::load_subgroup_eq_mask:
   case intrinsic_op::load_subgroup_ge_mask:
   case intrinsic_op::load_subgroup_gt_mask:
   case intrinsic_op::load_subgroup_le_mask:
   case intrinsic_op::load_subgroup_lt_mask: {
      operand inv(get_subgroup_invocation());
      uint32_t base = in.op == intrinsic_op::load_subgroup_eq_mask ? 1
                    : in.op == intrinsic_op::load_subgroup_gt_mask ||
                      in.op == intrinsic_op::load_subgroup_le_mask ? 0xfffffffe
                                                                   : 0xffffffff;
      value *m = full.shl(data_type::u32, operand::imm_u32(base), inv);
      if (in.op == intrinsic_op::load_subgroup_le_mask ||
          in.op == intrinsic_op::load_subgroup_lt_mask)
         m = full.not_(data_type::u32, operand(m));
      operand r(m);
      if (in.dest.bit_size == 64)
         r = operand(full.mov(data_type::u64, r));
      comps c(in.dest.num_components, operand::imm_of(type_of('u', in.dest.bit_size), 0));
      c[0] = r;
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::reduce:
   case intrinsic_op::inclusive_scan:
   case intrinsic_op::exclusive_scan: {
      unsigned bits = in.dest.bit_size == 1 ? 32 : in.dest.bit_size;
      reduction r = reduction_of(in.index(intrinsic_index::reduction_op), bits);
      unsigned cluster = in.op == intrinsic_op::reduce
                            ? unsigned(in.index(intrinsic_index::cluster_size)) : 0;
      if (!cluster || cluster > width)
         cluster = width;
      comps c;
      for (unsigned i = 0; i < in.dest.num_components; i++) {
         value *t = scan(src(in.srcs[0].ssa, i), r, cluster);
         if (in.op == intrinsic_op::inclusive_scan) {
            c.push_back(operand(t));
         } else if (in.op == intrinsic_op::exclusive_scan) {
            /* Shift up one channel; channel 0 gets the identity.  Its
             * index wraps to the last channel: -1 made the shuffle's
             * indirect read leave the register file when the scan sat in
             * g0 (random vs seed 234).
             */
            value *prev = full.add(data_type::u32, operand(get_subgroup_invocation()),
                                   operand::imm_s32(-1).as_type(data_type::u32));
            value *idx = full.and_(data_type::u32, operand(prev),
                                   operand::imm_of(data_type::u32, width - 1));
            value *sh = full.shuffle(r.type, operand(t), operand(idx));
            value *e = full.wlr(r.type);
            bld.nomask().exec(width).mov(operand(e), operand(sh));
            bld.nomask().exec(1).mov(operand(e), operand::imm_of(r.type, r.identity));
            c.push_back(operand(e));
         } else if (cluster == width) {
            c.push_back(operand(u.mov(r.type, scalar(t, width - 1))));
         } else {
            /* Each cluster's last channel, broadcast over the cluster. */
            operand last(t);
            last.offset = (cluster - 1) * bits / 8;
            c.push_back(operand(full.mov(r.type, last.with_region(cluster, cluster, 0))));
         }
      }
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::vote_any:
   case intrinsic_op::vote_all: {
      /* A reduction of the 0/~0 booleans: or for any, and for all. */
      reduction r = in.op == intrinsic_op::vote_any
                       ? reduction{opcode::or_, cond_mod::none, data_type::u32, 0}
                       : reduction{opcode::and_, cond_mod::none, data_type::u32, 0xffffffff};
      value *t = scan(src(in.srcs[0].ssa, 0), r, width);
      set_def(in.dest, {operand(u.mov(data_type::u32, scalar(t, width - 1)))});
      return true;
   }
   case intrinsic_op::quad_vote_any:
   case intrinsic_op::quad_vote_all: {
      /* 25.0's quad votes: the vote's reduction in clusters of four (as
       * brw's VOTE_ANY/ALL of cluster 4), each quad's last channel
       * broadcast over the quad.
       */
      reduction r = in.op == intrinsic_op::quad_vote_any
                       ? reduction{opcode::or_, cond_mod::none, data_type::u32, 0}
                       : reduction{opcode::and_, cond_mod::none, data_type::u32, 0xffffffff};
      value *t = scan(src(in.srcs[0].ssa, 0), r, 4);
      operand last(t);
      last.offset = 3 * 4;
      set_def(in.dest, {operand(full.mov(data_type::u32, last.with_region(4, 4, 0)))});
      return true;
   }
   case intrinsic_op::vote_ieq:
   case intrinsic_op::vote_feq: {
      /* Every channel equals the first live one. */
      bool fl = in.op == intrinsic_op::vote_feq;
      const nir::def *x = in.srcs[0].ssa;
      data_type t = type_of(fl ? 'f' : 'u', x->bit_size);
      value *ch = u.def(opcode::find_live_channel, data_type::u32, {});
      value *all_eq = nullptr;
      for (unsigned i = 0; i < x->num_components; i++) {
         value *first = u.broadcast(t, src(x, i, t), operand(ch));
         value *eq = full.ssa(data_type::u32);
         instr *cmp = full.emit(opcode::cmp, {operand(eq)}, {src(x, i, t), operand(first)});
         cmp->cmod = cond_mod::z;
         all_eq = all_eq ? full.and_(data_type::u32, operand(all_eq), operand(eq)) : eq;
      }
      reduction r{opcode::and_, cond_mod::none, data_type::u32, 0xffffffff};
      value *s = scan(operand(all_eq), r, width);
      set_def(in.dest, {operand(u.mov(data_type::u32, scalar(s, width - 1)))});
      return true;
   }
   case intrinsic_op::ballot: {
      /* Each live channel contributes its bit; inactive ones the identity. */
      value *bit = full.shl(data_type::u32, operand::imm_u32(1),
                            operand(get_subgroup_invocation()));
      value *set = full.and_(data_type::u32, src(in.srcs[0].ssa, 0, data_type::u32),
                             operand(bit));
      reduction r{opcode::or_, cond_mod::none, data_type::u32, 0};
      value *t = scan(operand(set), r, width);
      operand res(u.mov(data_type::u32, scalar(t, width - 1)));
      if (in.dest.bit_size == 64)
         res = operand(u.mov(data_type::u64, res));
      comps c(in.dest.num_components, operand::imm_of(type_of('u', in.dest.bit_size), 0));
      c[0] = res;
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::read_first_invocation:
   case intrinsic_op::read_invocation: {
      operand idx = in.op == intrinsic_op::read_invocation
                       ? src(in.srcs[1].ssa, 0, data_type::u32)
                       : operand(u.def(opcode::find_live_channel, data_type::u32, {}));
      builder b = def_builder(in.dest);
      data_type t = type_of('u', in.dest.bit_size);
      comps c;
      for (unsigned i = 0; i < in.dest.num_components; i++)
         c.push_back(operand(b.broadcast(t, src(in.srcs[0].ssa, i, t), idx)));
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::first_invocation:
      set_def(in.dest, {operand(u.def(opcode::find_live_channel, data_type::u32, {}))});
      return true;
   case intrinsic_op::elect: {
      value *ch = u.def(opcode::find_live_channel, data_type::u32, {});
      value *r = full.ssa(data_type::u32);
      instr *cmp = full.emit(opcode::cmp, {operand(r)},
                             {operand(get_subgroup_invocation()), operand(ch)});
      cmp->cmod = cond_mod::z;
      set_def(in.dest, {operand(r)});
      return true;
   }
   case intrinsic_op::shuffle:
   case intrinsic_op::quad_broadcast:
   case intrinsic_op::quad_swap_horizontal:
   case intrinsic_op::quad_swap_vertical:
   case intrinsic_op::quad_swap_diagonal: {
      operand idx;
      if (in.op == intrinsic_op::shuffle) {
         idx = src(in.srcs[1].ssa, 0, data_type::u32);
      } else {
         /* Quad operations as shuffles within each group of 4. */
         operand inv(get_subgroup_invocation());
         if (in.op == intrinsic_op::quad_broadcast) {
            value *base = full.and_(data_type::u32, inv, operand::imm_u32(~3u));
            idx = operand(full.add(data_type::u32, operand(base),
                                   src(in.srcs[1].ssa, 0, data_type::u32)));
         } else {
            unsigned x = in.op == intrinsic_op::quad_swap_horizontal ? 1
                       : in.op == intrinsic_op::quad_swap_vertical ? 2 : 3;
            idx = operand(full.xor_(data_type::u32, inv, operand::imm_u32(x)));
         }
      }
      data_type t = type_of('u', in.dest.bit_size);
      comps c;
      for (unsigned i = 0; i < in.dest.num_components; i++)
         c.push_back(operand(full.shuffle(t, src(in.srcs[0].ssa, i, t), idx)));
      set_def(in.dest, c);
      return true;
   }
   default:
      return false;
   }
}

} /* namespace ibis */
