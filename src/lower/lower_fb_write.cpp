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
 * oMask (gl_SampleMask) is one GRF of 16-bit masks, channel c's at word
 * c % 16, after src0 alpha; the computed stencil (SIMD8 only, as brw) is
 * one GRF of bytes, channel c's at byte c, after the depth, and sets
 * dword 0 bit 14 of a header.  Both are built NoMask, so the payloads of
 * such writes are NoMask copies of whole GRFs: the header part ([header]
 * [src0 alpha] oMask, brw's payload_header_size) in payload0, the rest in
 * payload1.  A sample_mask source predicates the write on its channels
 * being non-zero, as brw's sample mask register does.
 *
 * terminate: a predicated halt (all4h for a quad_all terminate, GLSL's
 * discard: whole quads only).  Halted channels come back at the halt
 * target lower() puts before the first RT write, where the channels still
 * running mark themselves alive; every RT write is predicated on that (or
 * on the inverted flag of the one terminate, lower.cpp single_terminate).
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
          bool src0_alpha, bool stencil, bool copy)
{
   /* Target 0 with nothing to set is g0-g1 as the thread got them, read
    * in place as brw does (an EOT payload must be in g112-g127, so the
    * caller asks for a copy there).  copy_in_place_rt_headers() puts
    * the copy back.
    */
   if (!target && !src0_alpha && !stencil && group < 16 && !copy) {
      for (unsigned id = 0; id < s.value_id_bound(); id++) {
         value *v = s.find_value(id);
         if (v && v->file == reg_file::hw_reg && v->phys.kind == phys_reg::grf &&
             v->phys.nr == 0 && v->phys.subreg == 0 && v->type == data_type::u32 &&
             v->width == 8 && v->length == 2)
            return v;
      }
      value *v = s.create_value(reg_file::hw_reg, data_type::u32, 8, 2);
      v->phys = phys_reg{phys_reg::grf, 0, 0};
      return v;
   }
   const builder nb = b.exec(8).nomask();
   value *h = nb.wlr(data_type::u32, 2);
   value *g0 = hw_grf(s, 0);
   nb.emit(opcode::load_payload, {operand(h)},
           {operand(g0), operand(hw_grf(s, group >= 16 ? 2 : 1))});
   const builder one = b.exec(1).nomask();
   /* g0.0: source 0 alpha present 11, computes stencil 14. */
   const uint32_t g00 = (src0_alpha ? 1u << 11 : 0) | (stencil ? 1u << 14 : 0);
   if (g00) {
      operand d(h);
      one.or_(d, operand(g0), operand::imm_u32(g00));
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

/* The GRFs of a piece's per-channel parameter: 8 channels each. */
void
add_grfs(const builder &pb, unsigned piece, unsigned group, const operand &o,
         std::vector<operand> *grfs)
{
   for (unsigned k = 0; k < piece; k += 8) {
      if (o.is_null()) {
         grfs->push_back(operand());
         continue;
      }
      if (type_bits(o.type) != 32)
         throw error("lower: RT write parameters must be 32-bit, not " +
                     std::string(type_name(o.type)));
      grfs->push_back(plain(pb, channels_of(o, group + k)).as_type(data_type::u32));
   }
}

/* A NoMask payload of whole GRFs (a GRF value per source). */
value *
nomask_payload(const builder &b, const std::vector<operand> &grfs)
{
   const builder nb = b.exec(8).nomask();
   value *v = nb.wlr(data_type::u32, unsigned(grfs.size()));
   nb.emit(opcode::load_payload, {operand(v)}, grfs);
   return v;
}

} /* anonymous namespace */

void
lower_fb_write(shader &s, instr *in, bool header, value *live,
               value *live_flag, bool live_flag_inv)
{
   namespace src = fb_write_logical_src;
   const operand &color0 = in->src(src::color0);
   const operand &color1 = in->src(src::color1);
   const operand &alpha = in->src(src::src0_alpha);
   const operand &src_depth = in->src(src::src_depth);
   const operand &dst_depth = in->src(src::dst_depth);
   const operand &stencil = in->src(src::src_stencil);
   const operand &omask = in->src(src::omask);
   const operand &smask = in->src(src::sample_mask);
   if (!stencil.is_null() && in->exec_size != 8)
      throw error("lower: RT writes with a stencil are SIMD8 only (brw's "
                  "payload takes it at SIMD8): '" + in->str() + "'");
   if (!stencil.is_null() && !dst_depth.is_null())
      throw error("lower: Gen9 RT writes have no destination depth with a "
                  "stencil: '" + in->str() + "'");
   const bool grf_payload = !stencil.is_null() || !omask.is_null();
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

      const bool in_place_header =
         !(last && first + piece == in->exec_size);
      value *h = header ? rt_header(s, pb, group, target, !alpha.is_null(),
                                    !stencil.is_null(),
                                    !in_place_header)
                        : nullptr;
      payloads p;
      if (!grf_payload) {
         p = build_payloads(pb, piece, group, h, 2, ps);
      } else {
         /* Header part: [header] [src0 alpha] [oMask]. */
         std::vector<operand> head, rest;
         if (h) {
            head.push_back(operand(h));
            head.push_back(operand(h).component(1));
         }
         const size_t first_color = alpha.is_null() ? 0 : 1;
         if (!alpha.is_null())
            add_grfs(pb, piece, group, alpha, &head);
         if (!omask.is_null()) {
            /* The low word of each channel's mask at word (group % 16). */
            value *om = b.exec(16).nomask().wlr(data_type::u16);
            operand d(om);
            d.offset = group % 16 * 2;
            operand m = omask.is_imm()
                           ? operand::imm_of(data_type::u16, omask.imm & 0xffff)
                           : channels_of(omask, group).as_type(data_type::u16)
                                .with_region(16, 8, 2);
            pb.nomask().mov(d, m);
            head.push_back(operand(om).as_type(data_type::u32));
         }
         for (size_t i = first_color; i < ps.size(); i++)
            add_grfs(pb, piece, group, ps[i].op, &rest);
         if (!stencil.is_null()) {
            /* The low byte of each channel's stencil at byte c. */
            value *st = b.exec(8).nomask().wlr(data_type::u32);
            operand d = operand(st).as_type(data_type::u8);
            operand v = stencil.is_imm()
                           ? operand::imm_of(data_type::u8, stencil.imm & 0xff)
                           : channels_of(stencil, group).as_type(data_type::u8)
                                .with_region(32, 8, 4);
            pb.nomask().mov(d, v);
            rest.push_back(operand(st));
         }
         if (head.empty()) {
            p.p0 = operand(nomask_payload(pb, rest));
            p.mlen = unsigned(rest.size());
         } else if (head.size() == 1 && !omask.is_null()) {
            /* The oMask GRF alone is the header part. */
            p.p0 = head[0];
            p.mlen = 1;
            p.p1 = operand(nomask_payload(pb, rest));
            p.ex_mlen = unsigned(rest.size());
         } else {
            p.p0 = operand(nomask_payload(pb, head));
            p.mlen = unsigned(head.size());
            p.p1 = operand(nomask_payload(pb, rest));
            p.ex_mlen = unsigned(rest.size());
         }
      }
      const unsigned control =
         dual ? (group % 16 ? RT_SIMD8_DUAL_HI : RT_SIMD8_DUAL_LO)
              : piece == 16 ? RT_SIMD16_SINGLE : RT_SIMD8_SINGLE;
      builder sb = pb;
      operand keep = live ? channels_of(operand(live), group) : operand();
      if (!smask.is_null()) {
         operand m = channels_of(smask, group).as_type(data_type::u32);
         keep = keep.is_null() ? m
                               : operand(pb.and_(data_type::u32, keep, m));
      }
      if (!keep.is_null()) {
         value *f = pb.cmp(cond_mod::nz, keep, operand::imm_u32(0));
         sb = pb.predicated(f);
      } else if (live_flag) {
         sb = pb.predicated(live_flag, live_flag_inv);
      }
      instr *send = emit_send(sb, SFID_RENDER,
                              rt_write_desc(target, control, group, last), p,
                              operand(), 0, h != nullptr);
      if (last && first + piece == in->exec_size)
         send->flags |= INSTR_EOT;
   }
   in->remove();
}

} /* namespace ibis::lowering */

namespace ibis {

bool
copy_in_place_rt_headers(shader &s)
{
   using namespace lowering;
   std::vector<instr *> writes;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->op != opcode::send || in->num_srcs() != 5 ||
             !in->src(0).is_imm() || in->src(0).imm != SFID_RENDER)
            continue;
         const operand &p0 = in->src(3);
         const value *v = p0.val;
         if (v && v->file == reg_file::hw_reg && v->phys.kind == phys_reg::grf &&
             v->phys.nr == 0 && v->phys.subreg == 0 && v->length == 2 && !p0.offset)
            writes.push_back(in);
      }
   }
   for (instr *in : writes) {
      builder b(&s);
      b.before(in);
      const builder nb = b.exec(8).nomask();
      value *h = nb.wlr(data_type::u32, 2);
      nb.emit(opcode::load_payload, {operand(h)},
              {operand(hw_grf(s, 0)), operand(hw_grf(s, 1))});
      in->set_src(3, operand(h));
   }
   return !writes.empty();
}

} /* namespace ibis */

namespace ibis::lowering {

void
lower_terminate(shader &s, instr *in)
{
   builder b(&s);
   b.before(in);
   builder hb = b.exec(in->exec_size, in->group);
   if (in->predicate())
      hb = hb.predicated(in->predicate(), in->pred_inv);
   instr *halt = hb.emit(opcode::halt, {}, {});
   halt->flags |= in->flags & INSTR_QUAD_ALL;
   in->remove();
}

} /* namespace ibis::lowering */
