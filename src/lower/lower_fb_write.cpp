/*
 * Fragment shader ends: render-target writes (brw's
 * lower_fb_write_logical_send) and terminate.
 *
 * RT write descriptor (render cache, SFID 5): BTI 7:0 = the target,
 * message control 10:8 (0 SIMD16 single source, 4 SIMD8 single source,
 * 2/3 SIMD8 dual source for subspans 0-1/2-3), slot group 11 (the second
 * SIMD16 half of a SIMD32 thread), last render target 12, type 17:14 = 12.
 * Payload: [header: g0 and g1 (g2 for the second half), dword 0 |= 1 << 11
 * with src0 alpha, dword 2 = target], [src0 alpha], R G B A, [R G B A of
 * the second color], [source depth], [destination depth].  Gen9 needs the
 * header with several render targets or dual-source blending.
 *
 * terminate: a predicated halt.  Halted channels come back at the halt
 * target lower() puts before the first RT write, where the channels still
 * running mark themselves alive; every RT write is predicated on that.
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

namespace {

constexpr unsigned RT_WRITE = 12;
constexpr unsigned RT_SIMD16_SINGLE = 0;
constexpr unsigned RT_SIMD8_DUAL_LO = 2;
constexpr unsigned RT_SIMD8_DUAL_HI = 3;
constexpr unsigned RT_SIMD8_SINGLE = 4;

uint32_t
rt_write_desc(unsigned target, unsigned control, unsigned group, bool last)
{
   return (target & 0xff) | control << 8 | (group / 16 & 1) << 11 |
          (last ? 1u << 12 : 0) | RT_WRITE << 14;
}

/* The 2-GRF RT header of a piece: g0 and g1 (g2 for channels 16-31), with
 * the src0-alpha bit and the target index.
 */
value *
rt_header(shader &s, const builder &b, unsigned group, unsigned target,
          bool src0_alpha)
{
   const builder nb = b.exec(8).nomask();
   value *h = nb.wlr(data_type::u32, 2);
   value *g0 = hw_grf(s, 0);
   nb.emit(opcode::load_payload, {operand(h)},
           {operand(g0), operand(hw_grf(s, group >= 16 ? 2 : 1))});
   const builder one = b.exec(1).nomask();
   if (src0_alpha) {
      operand d(h);
      one.or_(d, operand(g0), operand::imm_u32(1u << 11));
   }
   if (target) {
      operand d(h);
      d.offset = 8;
      one.mov(d, operand::imm_u32(target));
   }
   return h;
}

/* A color component.  A constant one (an immediate gathered into the
 * color, or a mov of one) ends the payload's first run: brw's copy
 * propagation puts the immediate itself into the payload, which splits
 * the send there (opt_split_sends).
 */
param
color_param(const operand &o)
{
   param p = make_param(o);
   const value *v = o.val;
   const instr *lp = v && v->file == reg_file::ssa ? v->def() : nullptr;
   if (!lp || lp->op != opcode::load_payload || lp->num_srcs() != v->length ||
       o.offset % v->component_bytes())
      return p;
   const operand &src = lp->src(o.offset / v->component_bytes());
   const instr *d = src.val && src.val->file == reg_file::ssa ? src.val->def()
                                                             : nullptr;
   if (src.is_imm() || (d && d->op == opcode::mov && d->src(0).is_imm() &&
                        !d->predicate()))
      p.origin = nullptr;
   return p;
}

} /* anonymous namespace */

void
lower_fb_write(shader &s, instr *in, bool header, value *live)
{
   namespace src = fb_write_logical_src;
   const operand &color0 = in->src(src::color0);
   const operand &color1 = in->src(src::color1);
   const operand &alpha = in->src(src::src0_alpha);
   const operand &src_depth = in->src(src::src_depth);
   const operand &dst_depth = in->src(src::dst_depth);
   if (!in->src(src::src_stencil).is_null() || !in->src(src::omask).is_null() ||
       !in->src(src::sample_mask).is_null())
      throw error("lower: RT writes with stencil, oMask or a sample mask are "
                  "not supported: '" + in->str() + "'");
   const operand &target_op = in->src(src::target);
   const operand &comps_op = in->src(src::components);
   if (!target_op.is_imm() || !comps_op.is_imm())
      throw error("lower: RT write target and components must be immediates");
   const unsigned target = target_op.imm;
   const unsigned comps = comps_op.imm;
   const bool dual = !color1.is_null();
   const bool last = in->flags & INSTR_EOT;

   builder b(&s);
   b.before(in);
   const unsigned piece = dual ? 8 : std::min(16u, unsigned(in->exec_size));
   for (unsigned first = 0; first < in->exec_size; first += piece) {
      const unsigned group = in->group + first;
      const builder pb = b.exec(piece, group);
      std::vector<param> ps;
      auto add_color = [&](const operand &c) {
         for (unsigned i = 0; i < 4; i++) {
            if (c.is_null() || i >= comps || i >= c.val->length)
               ps.push_back(param{operand(), nullptr});
            else
               ps.push_back(color_param(c.component(i)));
         }
      };
      if (!alpha.is_null())
         ps.push_back(make_param(alpha));
      add_color(color0);
      if (dual)
         add_color(color1);
      if (!src_depth.is_null())
         ps.push_back(make_param(src_depth));
      if (!dst_depth.is_null())
         ps.push_back(make_param(dst_depth));

      value *h = header ? rt_header(s, pb, group, target, !alpha.is_null())
                        : nullptr;
      payloads p = build_payloads(pb, piece, group, h, 2, ps);
      const unsigned control =
         dual ? (group % 16 ? RT_SIMD8_DUAL_HI : RT_SIMD8_DUAL_LO)
              : piece == 16 ? RT_SIMD16_SINGLE : RT_SIMD8_SINGLE;
      builder sb = pb;
      if (live) {
         operand l = channels_of(operand(live), group);
         value *f = pb.cmp(cond_mod::nz, l, operand::imm_u32(0));
         sb = pb.predicated(f);
      }
      instr *send = emit_send(sb, SFID_RENDER,
                              rt_write_desc(target, control, group, last), p,
                              operand(), 0, h != nullptr);
      if (last && first + piece == in->exec_size)
         send->flags |= INSTR_EOT;
   }
   in->remove();
}

void
lower_terminate(shader &s, instr *in)
{
   builder b(&s);
   b.before(in);
   builder hb = b.exec(in->exec_size, in->group);
   if (in->predicate())
      hb = hb.predicated(in->predicate(), in->pred_inv);
   hb.emit(opcode::halt, {}, {});
   in->remove();
}

} /* namespace ibis::lowering */
