/*
 * Sampler messages (brw's lower_sampler_logical_send for Gen9).
 *
 * Descriptor (SFID 2): BTI 7:0, sampler 11:8, message type 16:12, SIMD
 * mode 18:17 (1 SIMD8, 2 SIMD16), 32-bit return.  Parameters, one per
 * channel each, in the Gen9 order of each message:
 *   sample u v r ai        sample_c ref u v r ai
 *   sample_b bias u v r    sample_b_c ref bias u v r
 *   sample_l lod u v r     sample_l_c ref lod u v r
 *   sample_lz u v r        sample_c_lz ref u v r   (txl with lod 0)
 *   sample_d u dudx dudy v dvdx dvdy r drdx drdy   (_c: ref first)
 *   ld u v lod r           ld_lz u v r             (txf with lod 0)
 *   resinfo lod            lod u v r
 *   gather4 u v r ai       gather4_c ref u v r
 *   gather4_po u v offu offv r
 *   ld2dms_w si mcs0 mcs1 u v r (txf_ms)      ld_mcs u v r
 * A min_lod follows the coordinates padded to four (and, for sample_d, the
 * gradients padded to three): brw's layout.
 * A header (a NoMask copy of g0) is sent when dword 2 has something to
 * say: the texel offsets (11:0) and the gather channel (17:16); then
 * 15:12 disables the components the response leaves out.  Samplers above
 * 15 (and sampler indices in values) need it too: dword 3, the sampler
 * state pointer, moves on by 16 states of 16 bytes per 16 samplers, and
 * the descriptor keeps the index modulo 16 (brw's is_high_sampler).  Messages
 * of more than five parameters are SIMD8 only; SIMD32 is split into
 * halves.  The response is one GRF per 8 channels for each component the
 * shader reads, so the descriptor's rlen is trimmed as brw's is.
 * Surface or sampler indices held in (uniform) values are ORed into an
 * indirect descriptor.
 */
#include "lower/lower_private.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace ibis::lowering {

namespace {

enum nir_texop : unsigned {
   TEX = 0, TXB = 1, TXL = 2, TXD = 3, TXF = 4, TXF_MS = 5, TXF_MS_MCS = 7, TXS = 8,
   LOD = 9, TG4 = 10, QUERY_LEVELS = 11,
};

enum gen9_sampler_msg : unsigned {
   SAMPLE = 0, SAMPLE_B = 1, SAMPLE_L = 2, SAMPLE_C = 3, SAMPLE_D = 4,
   SAMPLE_B_C = 5, SAMPLE_L_C = 6, LD = 7, GATHER4 = 8, LOD_MSG = 9,
   RESINFO = 10, GATHER4_C = 16, GATHER4_PO = 17, GATHER4_PO_C = 18,
   SAMPLE_D_C = 20, SAMPLE_LZ = 24, SAMPLE_C_LZ = 25, LD_LZ = 26,
   LD2DMS_W = 28, LD_MCS = 29,
};

/* Bytes of one SAMPLER_STATE (the header's dword 3 points at an array). */
constexpr unsigned SAMPLER_STATE_BYTES = 16;

constexpr unsigned MAX_SIMD16_PARAMS = 5;
/* brw's MAX_SAMPLER_MESSAGE_SIZE: SIMD8 parameters of a message. */
constexpr unsigned MAX_SAMPLER_PARAMS = 11;

} /* anonymous namespace */

/* An immediate 0, or an SSA copy of one at its value's width (a constant
 * lod stays a value in a logical send: tesseract/136.vs takes sample_lz as
 * brw, 24 -> 23).
 */
bool
is_zero_operand(const operand &o)
{
   if (o.is_imm())
      return o.imm == 0;
   if (!o.val || o.val->file != reg_file::ssa || o.offset || o.has_region ||
       o.neg || o.abs || type_bits(o.type) != o.val->bit_size())
      return false;
   const instr *d = o.val->def();
   return d && d->op == opcode::mov && d->num_srcs() == 1 &&
          d->src(0).is_imm() && d->src(0).imm == 0 &&
          !type_is_vector_imm(d->src(0).type) && !d->predicate() &&
          d->preserve().is_null() && !d->saturate && !d->dst().offset &&
          !d->dst().has_region && d->exec_size == o.val->width;
}

namespace {

struct tex_message {
   unsigned type;
   std::vector<param> params;
   uint32_t header_dw2 = 0;
   bool header = false;
};

tex_message
build_tex_message(const instr *in)
{
   namespace src = tex_logical_src;
   const operand &op_o = in->src(src::op);
   const operand &coord = in->src(src::coordinate);
   const operand &shadow = in->src(src::shadow_c);
   const operand &lod = in->src(src::lod);
   const operand &lod2 = in->src(src::lod2);
   const operand &offset = in->src(src::tg4_offset);
   const unsigned ncoord = in->src(src::coord_components).imm;
   const unsigned ngrad = in->src(src::grad_components).imm;
   if (!op_o.is_imm())
      throw error("lower: texture op must be an immediate");
   const unsigned op = op_o.imm & 0xff;
   const unsigned gather_comp = (op_o.imm >> 8) & 3;
   const operand &min_lod = in->src(src::min_lod);
   const operand &sample_index = in->src(src::sample_index);
   const operand &mcs = in->src(src::mcs);
   if ((!sample_index.is_null() || !mcs.is_null()) && op != TXF_MS)
      throw error("lower: a sample index or MCS is for txf_ms only: '" +
                  in->str() + "'");

   tex_message m;
   auto coord_c = [&](unsigned i) { return make_param(coord.component(i)); };
   auto add = [&](const operand &o) { m.params.push_back(make_param(o)); };
   const bool sh = !shadow.is_null();
   if (sh)
      add(shadow);

   bool offset_value = false;
   if (offset.is_imm())
      m.header_dw2 |= offset.imm & 0xfff;
   else if (!offset.is_null())
      offset_value = true;
   if (offset_value && op != TG4)
      throw error("lower: non-constant offsets are for gathers only");

   switch (op) {
   case TEX:
      m.type = sh ? SAMPLE_C : SAMPLE;
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXB:
      m.type = sh ? SAMPLE_B_C : SAMPLE_B;
      add(lod);
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXL:
      if (is_zero_operand(lod)) {
         m.type = sh ? SAMPLE_C_LZ : SAMPLE_LZ;
      } else {
         m.type = sh ? SAMPLE_L_C : SAMPLE_L;
         add(lod);
      }
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXD:
      m.type = sh ? SAMPLE_D_C : SAMPLE_D;
      for (unsigned i = 0; i < ncoord; i++) {
         m.params.push_back(coord_c(i));
         if (i < ngrad) {
            add(lod.component(i));
            add(lod2.component(i));
         }
      }
      break;
   case TXF:
      if (sh)
         throw error("lower: txf has no shadow comparison");
      m.params.push_back(coord_c(0));
      if (ncoord >= 2)
         m.params.push_back(coord_c(1));
      else
         add(operand::imm_s32(0));
      if (lod.is_null() || is_zero_operand(lod)) {
         m.type = LD_LZ;
      } else {
         m.type = LD;
         add(lod);
      }
      for (unsigned i = 2; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXF_MS:
      /* Gen9's ld2dms_w: the sample, the two MCS dwords (0 for a surface
       * without one), then the integer coordinates.
       */
      if (sh)
         throw error("lower: txf_ms has no shadow comparison");
      m.type = LD2DMS_W;
      add(sample_index.is_null() ? operand::imm_u32(0) : sample_index);
      for (unsigned i = 0; i < 2; i++) {
         if (mcs.is_null() || (mcs.val && i >= mcs.val->length))
            add(operand::imm_u32(0));
         else
            add(mcs.is_imm() ? mcs : mcs.component(i));
      }
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXF_MS_MCS:
      if (sh)
         throw error("lower: an MCS fetch has no shadow comparison");
      m.type = LD_MCS;
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TXS:
   case QUERY_LEVELS:
      m.type = RESINFO;
      add(lod.is_null() ? operand::imm_u32(0) : lod);
      break;
   case LOD:
      m.type = LOD_MSG;
      for (unsigned i = 0; i < ncoord; i++)
         m.params.push_back(coord_c(i));
      break;
   case TG4:
      m.header = true;
      m.header_dw2 |= gather_comp << 16;
      if (offset_value) {
         m.type = sh ? GATHER4_PO_C : GATHER4_PO;
         for (unsigned i = 0; i < 2 && i < ncoord; i++)
            m.params.push_back(coord_c(i));
         add(offset.component(0));
         add(offset.component(1));
         for (unsigned i = 2; i < ncoord; i++)
            m.params.push_back(coord_c(i));
      } else {
         m.type = sh ? GATHER4_C : GATHER4;
         for (unsigned i = 0; i < ncoord; i++)
            m.params.push_back(coord_c(i));
      }
      break;
   default:
      throw error("lower: texture op " + std::to_string(op) +
                  " is not supported: '" + in->str() + "'");
   }
   if (!min_lod.is_null()) {
      /* After the coordinates padded to u v r ai (and the gradients to
       * three pairs): empty slots, as brw leaves them.
       */
      if (op != TEX && op != TXB && op != TXD)
         throw error("lower: min_lod is for tex, txb and txd: '" + in->str() + "'");
      for (unsigned i = ncoord; i < 4; i++)
         m.params.push_back(param{operand(), nullptr});
      for (unsigned i = ngrad; op == TXD && i < 3; i++) {
         m.params.push_back(param{operand(), nullptr});
         m.params.push_back(param{operand(), nullptr});
      }
      add(min_lod);
   }
   if (m.header_dw2)
      m.header = true;
   if (m.params.empty())
      throw error("lower: texture message without parameters");
   if (m.params.size() > MAX_SAMPLER_PARAMS)
      throw error("lower: texture message of " + std::to_string(m.params.size()) +
                  " parameters, the sampler takes at most 11: '" + in->str() + "'");
   return m;
}

/* The sampler reads parameters a message leaves out as zero, so trailing
 * ones that are zero or undefined need not be sent (brw's
 * opt_zero_samples): a shorter payload and no register holding the zero.
 * Parameter 0 stays, the hardware requires it.  Each parameter is whole
 * registers at SIMD8 and SIMD16, so any number may go.  A min_lod is kept:
 * the simulator clamps by a sent min_lod only, and the corpus has none.
 * Dropping before the SIMD width is chosen may let a shortened message
 * of more than five parameters run at SIMD16.
 */
bool
zero_param(const operand &o)
{
   if (is_zero_operand(o))
      return true;
   /* A component of a coordinate vector a load_payload built from a zero. */
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || o.neg || o.abs || o.has_region ||
       v->bit_size() != 32 || type_bits(o.type) != 32 ||
       o.offset % v->component_bytes())
      return false;
   const instr *lp = v->def();
   if (!lp || lp->op != opcode::load_payload || lp->predicate() ||
       !lp->preserve().is_null() || lp->num_srcs() != v->length ||
       lp->exec_size != v->width || lp->group != v->group)
      return false;
   const operand &s = lp->src(o.offset / v->component_bytes());
   return !s.is_null() && type_bits(s.type) == 32 && is_zero_operand(s);
}

void
trim_trailing_zeros(const instr *in, tex_message &m)
{
   if (!in->src(tex_logical_src::min_lod).is_null())
      return;
   while (m.params.size() > 1) {
      const operand &o = m.params.back().op;
      if (!o.is_null() && !zero_param(o))
         break;
      m.params.pop_back();
   }
}

/* The sampler index needs the header's dword 3 (samplers above 15, or
 * an index held in a value).
 */
bool
high_sampler(const operand &samp)
{
   return samp.is_imm() ? samp.imm >= 16 : !samp.is_null();
}

/* The register a gathered parameter can share with its payload slot, if
 * any: a 32-bit SSA value of one component at the message's channels,
 * also read through a vector a load_payload built of such values (split
 * into its components before coloring).  Anything else (an immediate, a
 * broadcast scalar, a WLR value, a modifier) is copied into every slot.
 */
const value *
slot_value(const operand &o, unsigned exec, unsigned group)
{
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || o.neg || o.abs || o.has_region ||
       v->bit_size() != 32 || type_bits(o.type) != 32 || v->width != exec ||
       v->group != group || o.offset % v->component_bytes())
      return nullptr;
   if (v->length == 1)
      return v;
   const instr *lp = v->def();
   if (!lp || lp->op != opcode::load_payload || lp->predicate() ||
       lp->num_srcs() != v->length || lp->exec_size != v->width)
      return nullptr;
   const operand &c = lp->src(o.offset / v->component_bytes());
   return c.val && c.val->length == 1 && !c.offset ? slot_value(c, exec, group)
                                                   : nullptr;
}

/* A gathered part: which distinct one (cse merges equal parts in a
 * block), its defined slots and the values that may lie in place.
 */
struct plan_part {
   int id = -1;                  /* -1: nothing gathered */
   unsigned slots = 0;
   std::vector<unsigned> vals;   /* distinct, numbered by plan_ids */
};

/* Numbers for the parts (by block and sources) and values of a plan. */
struct plan_ids {
   std::map<std::vector<uint64_t>, int> parts;
   std::unordered_map<const value *, unsigned> vals;
};

/* The copies the gathered parts of all messages need together: each
 * distinct part takes one copy per defined slot, less one for each
 * distinct value that lies in some slot in place (a value has one
 * register: in place in one part at most).
 */
struct copy_count {
   std::vector<unsigned> refs, in_parts;
   int copies = 0;

   void add(const plan_part &pp)
   {
      if (pp.id < 0 || refs[pp.id]++)
         return;
      copies += pp.slots;
      for (unsigned v : pp.vals)
         copies -= !in_parts[v]++;
   }
   void remove(const plan_part &pp)
   {
      if (pp.id < 0 || --refs[pp.id])
         return;
      copies -= pp.slots;
      for (unsigned v : pp.vals)
         copies += !--in_parts[v];
   }
};

plan_part
make_part(plan_ids &ids, const block *blk, const std::vector<operand> &srcs,
          unsigned exec, unsigned group)
{
   plan_part pp;
   if (srcs.empty())
      return pp;
   std::vector<uint64_t> key;
   key.reserve(1 + 3 * srcs.size());
   key.push_back(uint64_t(uintptr_t(blk)));
   for (const operand &o : srcs) {
      key.push_back(o.val ? uint64_t(uintptr_t(o.val)) : o.imm);
      key.push_back(uint64_t(o.offset) | uint64_t(o.type) << 32 |
                    uint64_t(o.neg) << 48 | uint64_t(o.abs) << 49 |
                    uint64_t(o.is_imm()) << 50 | uint64_t(o.is_null()) << 51 |
                    uint64_t(o.has_region) << 52 | uint64_t(o.rgn.vstride) << 53);
      key.push_back(uint64_t(o.rgn.width) | uint64_t(o.rgn.hstride) << 8);
      if (o.is_null())
         continue;
      pp.slots++;
      if (const value *v = slot_value(o, exec, group)) {
         const unsigned n = ids.vals.try_emplace(v, unsigned(ids.vals.size())).first->second;
         if (std::find(pp.vals.begin(), pp.vals.end(), n) == pp.vals.end())
            pp.vals.push_back(n);
      }
   }
   pp.id = ids.parts.try_emplace(std::move(key), int(ids.parts.size())).first->second;
   return pp;
}

/* Whether a value is read by more than one message or vector. */
bool
gathered_twice(const value *v)
{
   unsigned n = 0;
   for (const use &u : v->uses()) {
      n += u.in->op == opcode::tex_logical || u.in->op == opcode::load_payload;
      if (n > 1)
         return true;
   }
   return false;
}

/* Whether a message reads a value that another message or vector reads
 * too, directly or through a vector built for it.  Only such messages are
 * planned: the parts of any other share neither a value nor a part with
 * the rest, so the count does not depend on the split it takes.
 */
bool
reads_shared_value(const instr *in)
{
   for (const operand &o : in->srcs()) {
      if (!o.val)
         continue;
      if (gathered_twice(o.val))
         return true;
      const instr *lp = o.val->def();
      if (!lp || lp->op != opcode::load_payload)
         continue;
      for (const operand &c : lp->srcs()) {
         if (c.val && gathered_twice(c.val))
            return true;
      }
   }
   return false;
}

} /* anonymous namespace */

/* brw splits a payload where its source register first changes; when the
 * parameters are shared between messages, another split may need fewer
 * copies (percentage-closer filtering: four sample_c at (ref, u, v) with
 * coordinates (u0|u1, v0|v1) gather four (u, v) pairs from four values,
 * four copies at least, where (ref, u) | v gathers two parts, shared by
 * two messages each, one copy).  Each message of one piece without a
 * header starts at its default split; then, message by message, a split
 * that lowers the count of copies all gathered parts need takes its
 * place (a tie keeps the current one), until none does.
 */
tex_plan
plan_tex_splits(shader &s)
{
   namespace src = tex_logical_src;
   struct planned {
      const instr *in;
      std::vector<size_t> mids;
      std::vector<std::array<plan_part, 2>> parts;
      size_t cur, dflt;
   };
   std::vector<planned> msgs;
   plan_ids ids;
   builder b(&s);
   for (const auto &blk : s.blocks()) {
      for (instr *in : blk->instrs()) {
         if (in->op != opcode::tex_logical || !in->src(src::op).is_imm() ||
             !reads_shared_value(in))
            continue;
         tex_message m = build_tex_message(in);
         trim_trailing_zeros(in, m);
         const unsigned width = in->exec_size;
         if (m.header || high_sampler(in->src(src::sampler)) ||
             (m.params.size() > MAX_SIMD16_PARAMS ? 8u : 16u) < width)
            continue;
         split_request req;
         req.collect = true;
         b.before(in);
         build_payloads(b.exec(width, in->group), width, in->group, nullptr, 1,
                        m.params, &req);
         if (req.options.size() < 2)
            continue;
         planned pm{in, {}, {}, SIZE_MAX, SIZE_MAX};
         for (const split_option &o : req.options) {
            if (o.mid == req.dflt)
               pm.cur = pm.mids.size();
            pm.mids.push_back(o.mid);
            pm.parts.push_back({make_part(ids, blk.get(), o.gathered[0], width, in->group),
                                make_part(ids, blk.get(), o.gathered[1], width, in->group)});
         }
         pm.dflt = pm.cur;
         if (pm.cur != SIZE_MAX)
            msgs.push_back(std::move(pm));
      }
   }
   tex_plan plan;
   if (msgs.empty())
      return plan;
   copy_count cc;
   cc.refs.resize(ids.parts.size());
   cc.in_parts.resize(ids.vals.size());
   for (const planned &pm : msgs) {
      for (const plan_part &pp : pm.parts[pm.cur])
         cc.add(pp);
   }
   /* Each change lowers the count: a few rounds settle it. */
   bool changed = true;
   for (unsigned round = 0; changed && round < 4; round++) {
      changed = false;
      for (planned &pm : msgs) {
         for (const plan_part &pp : pm.parts[pm.cur])
            cc.remove(pp);
         int best = INT_MAX;
         size_t pick = pm.cur;
         for (size_t i = 0; i < pm.mids.size(); i++) {
            const size_t o = i == 0 ? pm.cur : (i <= pm.cur ? i - 1 : i);
            for (const plan_part &pp : pm.parts[o])
               cc.add(pp);
            if (cc.copies < best) {
               best = cc.copies;
               pick = o;
            }
            for (const plan_part &pp : pm.parts[o])
               cc.remove(pp);
         }
         for (const plan_part &pp : pm.parts[pick])
            cc.add(pp);
         changed |= pick != pm.cur;
         pm.cur = pick;
      }
   }
   for (const planned &pm : msgs) {
      if (pm.cur != pm.dflt)
         plan[pm.in] = pm.mids[pm.cur];
   }
   return plan;
}

void
lower_tex(shader &s, instr *in, const tex_plan *plan)
{
   namespace src = tex_logical_src;
   tex_message m = build_tex_message(in);
   trim_trailing_zeros(in, m);
   value *result = in->dst().val;
   if (!result || result->bit_size() != 32)
      throw error("lower: texture results must be 32-bit values: '" +
                  in->str() + "'");
   /* Only the components read come back (rlen trimmed); txs/levels read
    * what they need too.
    */
   const bool levels = (in->src(src::op).imm & 0xff) == QUERY_LEVELS;
   unsigned comps = levels ? 4 : components_read(result);

   builder b(&s);
   b.before(in);
   const operand &surf = in->src(src::surface);
   const operand &samp = in->src(src::sampler);
   uint32_t index_bits = 0;
   value *desc_val = nullptr;
   /* What the header's dword 3 adds to g0.3 for a high sampler. */
   operand state_offset;
   {
      const builder ub = b.exec(1).nomask();
      if (surf.is_imm())
         index_bits |= surf.imm & 0xff;
      else if (surf.val && surf.val->width == 1)
         desc_val = ub.and_(data_type::u32, surf.as_type(data_type::u32),
                            operand::imm_u32(0xff));
      else
         throw error("lower: non-uniform texture index in '" + in->str() + "'");
      if (samp.is_imm()) {
         if (samp.imm > 0xff)
            throw error("lower: sampler index " + std::to_string(samp.imm) +
                        " is above 255");
         index_bits |= (samp.imm & 0xf) << 8;
         if (samp.imm >= 16)
            state_offset = operand::imm_u32(16 * (uint32_t(samp.imm) / 16) *
                                            SAMPLER_STATE_BYTES);
      } else if (!samp.is_null()) {
         if (!samp.val || samp.val->width != 1)
            throw error("lower: non-uniform sampler index in '" + in->str() + "'");
         const operand si = samp.as_type(data_type::u32);
         value *sh = ub.shl(data_type::u32, si, operand::imm_u32(8));
         value *sm = ub.and_(data_type::u32, operand(sh), operand::imm_u32(0xf00));
         desc_val = desc_val ? ub.or_(data_type::u32, operand(desc_val), operand(sm))
                             : sm;
         /* (index & 0xf0) << 4 = 16 states of 16 bytes per 16 samplers. */
         value *hi = ub.and_(data_type::u32, si, operand::imm_u32(0xf0));
         state_offset = operand(ub.shl(data_type::u32, operand(hi),
                                       operand::imm_u32(4)));
      }
   }
   const bool header = m.header || !state_offset.is_null();
   /* Components the response leaves out (1 = not written) when there is a
    * header to say so; without one, rlen alone trims the last ones.
    */
   uint32_t dw2 = m.header_dw2;
   if (header && comps < 4)
      dw2 |= (~((1u << comps) - 1) & 0xf) << 12;

   const unsigned width = in->exec_size;
   const unsigned piece =
      std::min(width, m.params.size() > MAX_SIMD16_PARAMS ? 8u : 16u);
   const unsigned regs = piece / 8;
   std::vector<value *> parts;
   for (unsigned first = 0; first < width; first += piece) {
      const unsigned group = in->group + first;
      const builder pb = b.exec(piece, group);
      value *hdr = nullptr;
      if (header) {
         const builder nb = b.exec(8).nomask();
         hdr = nb.wlr(data_type::u32);
         nb.mov(operand(hdr), operand(hw_grf(s, 0)));
         operand d2(hdr);
         d2.offset = 8;
         const builder one = b.exec(1).nomask();
         /* VS and FS threads start with g0.2 = 0 (brw leaves it). */
         if (dw2 || (s.stage != shader_stage::vs && s.stage != shader_stage::fs))
            one.mov(d2, operand::imm_u32(dw2));
         if (!state_offset.is_null()) {
            operand d3(hdr), g0_3(hw_grf(s, 0));
            d3.offset = g0_3.offset = 12;
            one.add(d3, g0_3, state_offset);
         }
      }
      split_request req;
      if (plan && piece == width) {
         const auto it = plan->find(in);
         req.take = it != plan->end() ? it->second : 0;
      }
      payloads p = build_payloads(pb, piece, group, hdr, 1, m.params, &req);
      value *dst = piece == width ? result
                                  : s.create_value(reg_file::ssa, result->type,
                                                   piece, comps, group);
      if (dst == result)
         result->length = comps;
      const uint32_t desc = sampler_desc(0, 0, m.type, piece) | index_bits;
      emit_send(pb, SFID_SAMPLER, desc, p, operand(dst), comps * regs,
                hdr != nullptr, desc_val);
      if (dst != result)
         parts.push_back(dst);
   }
   if (!parts.empty()) {
      /* Zip the pieces back into the full-width result. */
      result->length = comps;
      std::vector<operand> srcs;
      for (unsigned c = 0; c < comps; c++)
         for (value *pc : parts)
            srcs.push_back(operand(pc).component(c));
      b.exec(width, in->group).emit(opcode::load_payload, {operand(result)}, srcs);
   }
   in->remove();
}

} /* namespace ibis::lowering */
