/*
 * lower(): the driver, and the helpers every message lowering shares.
 *
 * One walk over the shader hands each logical instruction and each pseudo
 * op that does not survive (docs/backend.md §1) to its lowering; then
 * legalize() rewrites what a hardware piece could not encode, and the
 * shader is marked lowered.
 */
#include "lower/lower_private.h"

#include <algorithm>
#include <array>
#include <map>

#include "ir/ibis_pass.h"
#include "ir/ibis_validate.h"

namespace ibis {

namespace lowering {

param
make_param(const operand &o)
{
   return param{o, o.val};
}

operand
channels_of(const operand &o, unsigned group)
{
   if (!o.val || o.val->width == 1 || o.val->file == reg_file::uniform)
      return o;
   if (o.has_region && o.rgn.vstride == 0 && o.rgn.hstride == 0)
      return o;
   operand r = o;
   if (group > o.val->group)
      r.offset += (group - o.val->group) * type_bits(o.type) / 8;
   return r;
}

operand
plain(const builder &b, const operand &o)
{
   if (o.is_imm() || (!o.neg && !o.abs && !o.has_region))
      return o;
   if (o.has_region && o.rgn.vstride == 0 && o.rgn.hstride == 0 &&
       o.rgn.width <= 1 && !o.neg && !o.abs)
      return o;
   return operand(b.mov(o.type, o));
}

namespace {

/* The whole of one value, when params are exactly its components in
 * order at the message's width: then it is the payload as it is.  Its
 * last components in order are too: a payload is the value from an
 * offset to its end (a texture result's alpha as the second part of an
 * RT write, warsow/61.fs SIMD16 11 -> 10, brw 10).  Null when not.
 */
operand
whole_value(const std::vector<param> &ps, size_t from, size_t to,
            unsigned exec, unsigned group)
{
   value *v = ps[from].op.val;
   if (!v || v->file != reg_file::ssa || v->width != exec ||
       v->group != group || v->bit_size() != 32)
      return operand();
   const unsigned cb = v->component_bytes();
   const unsigned first = ps[from].op.offset / cb;
   if (ps[from].op.offset % cb || first + (to - from) != v->length)
      return operand();
   /* Not the tail of a vector gathered for messages: its sources are. */
   if (first && v->def() && v->def()->op == opcode::load_payload)
      return operand();
   for (size_t i = from; i < to; i++) {
      const operand &o = ps[i].op;
      if (o.val != v || o.neg || o.abs || o.has_region ||
          o.offset != (first + i - from) * cb)
         return operand();
   }
   operand r(v);
   r.offset = first * cb;
   return r;
}

/* A parameter read from a vector that a load_payload built for this
 * message alone (its only use) is read from that load_payload's source:
 * the vector then dies, and a run of the sources may be a whole value.
 */
operand
resolve(const operand &o)
{
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || o.neg || o.abs || o.has_region ||
       v->uses().size() != 1 || o.offset % v->component_bytes())
      return o;
   const instr *lp = v->def();
   if (!lp || lp->op != opcode::load_payload || lp->predicate() ||
       lp->num_srcs() != v->length || lp->we_all() || lp->exec_size != v->width)
      return o;
   operand s = lp->src(o.offset / v->component_bytes());
   /* Each source is one component: same width, or broadcast. */
   if (s.is_null() || s.is_imm() || !s.val || s.val->bit_size() != 32 ||
       type_bits(s.type) != 32 || (s.val->width != 1 && s.val->width != v->width) ||
       s.val->group != v->group)
      return o;
   s.type = o.type;
   return s;
}

/* Whether allocation can likely gather params [from, to) in place: each
 * (through a vector built for this message alone) is a distinct
 * one-component value read by nothing else, as plns gathered into a
 * coordinate.  A value read elsewhere too, or twice, needs a copy.
 */
bool
in_place(const std::vector<param> &ps, const std::vector<param> &rs,
         size_t from, size_t to, unsigned exec)
{
   for (size_t i = from; i < to; i++) {
      const operand &r = rs[i].op;
      const value *v = r.val;
      if (!v || v->file != reg_file::ssa || v->width != exec ||
          v->length != 1 || r.neg || r.abs || r.has_region)
         return false;
      const instr *vec = ps[i].op.val != v ? ps[i].op.val->def() : nullptr;
      for (const use &u : v->uses()) {
         if (u.in != vec)
            return false;
      }
      for (size_t j = from; j < i; j++) {
         if (rs[j].op.val == v)
            return false;
      }
   }
   return true;
}

std::vector<param>
resolved(const std::vector<param> &ps)
{
   std::vector<param> r = ps;
   for (param &p : r)
      p.op = resolve(p.op);
   return r;
}

/* A parameter read from a vector that a load_payload built at a wider
 * width than the message (a SIMD16 color written as two SIMD8
 * dual-source pieces, a SIMD32 one as two SIMD16 halves) is read from
 * that load_payload's source: the vector's layout is never a piece's
 * payload, so gathering it first is only a copy more (dolphin/smg.1.fs
 * SIMD16: a color in both dual-source colors was copied whole first).
 */
/* A WLR value whose writes all come before `at` in its block, each
 * unpredicated and writing bytes no other write does (a pln per SIMD16
 * half): it holds at any later reader what it held at `at`.
 */
bool
written_once_before(const value *v, const instr *at)
{
   if (v->file != reg_file::wlr || v->defs().empty())
      return false;
   std::vector<std::pair<unsigned, unsigned>> spans;
   for (const instr *d : v->defs()) {
      if (d->parent() != at->parent() || d->predicate() || d->num_dsts() != 1 ||
          d->dst().val != v || d->dst().has_region || d->preserve().val)
         return false;
      const unsigned from = d->dst().offset;
      const unsigned to = from + d->exec_size * type_bits(d->dst().type) / 8;
      for (const auto &sp : spans)
         if (from < sp.second && sp.first < to)
            return false;
      spans.push_back({from, to});
   }
   /* All in at's block: they are all before it once that many writes
    * show up walking back from it (they mostly come right before it; a
    * walk from the block's start cost a large block a pass per
    * parameter).
    */
   const size_t want = v->defs().size();
   size_t seen = 0;
   const auto first = at->parent()->instrs().begin();
   for (auto it = at->position(); it != first && seen < want;) {
      --it;
      seen += (*it)->writes(v);
   }
   return seen == want;
}

operand
through_wide_vector(const operand &o, unsigned exec)
{
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || v->width <= exec || o.neg || o.abs ||
       o.has_region || o.offset % v->component_bytes())
      return o;
   const instr *lp = v->def();
   if (!lp || lp->op != opcode::load_payload || lp->predicate() ||
       lp->num_srcs() != v->length || lp->we_all() || lp->exec_size != v->width ||
       lp->group != v->group)
      return o;
   operand s = lp->src(o.offset / v->component_bytes());
   if (s.is_null() || s.neg || s.abs || s.has_region)
      return o;
   if (s.is_imm()) {
      if (type_bits(s.type) != 32)
         return o;
      return operand::imm_of(o.type, s.imm);
   }
   const reg_file f = s.val->file;
   if ((f != reg_file::ssa && f != reg_file::uniform && f != reg_file::attr &&
        !written_once_before(s.val, lp)) ||
       s.val->bit_size() != 32 || type_bits(s.type) != 32 ||
       (s.val->width != 1 && s.val->width != v->width) ||
       (s.val->width != 1 && s.val->group != v->group) ||
       s.offset % s.val->component_bytes())
      return o;
   s.type = o.type;
   return s;
}

/* A parameter of a piece read from a SIMD32 vector zipped from SIMD16
 * halves (a texture result: component c of half h is source 2c + h) is
 * read from the half of its piece's channels.
 */
operand
through_zip(const operand &o, unsigned exec, unsigned group)
{
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || v->width != 2 * exec || o.neg || o.abs ||
       o.has_region || o.offset % v->component_bytes() || group < v->group ||
       group - v->group != (group - v->group) / exec * exec ||
       (group - v->group) / exec > 1)
      return o;
   const instr *lp = v->def();
   if (!lp || lp->op != opcode::load_payload || lp->predicate() ||
       lp->num_srcs() != 2u * v->length || lp->we_all())
      return o;
   operand s = lp->src(2 * (o.offset / v->component_bytes()) + (group - v->group) / exec);
   if (s.is_null() || s.is_imm() || s.neg || s.abs || s.has_region ||
       s.val->file != reg_file::ssa || s.val->width != exec || s.val->group != group ||
       s.val->bit_size() != 32 || type_bits(s.type) != 32)
      return o;
   s.type = o.type;
   return s;
}

/* The params of a piece read through wide vectors and zips. */
std::vector<param>
zip_halves(const std::vector<param> &ps, unsigned exec, unsigned group)
{
   std::vector<param> zs = ps;
   for (param &q : zs) {
      if (!q.op.is_null())
         q.op = through_zip(through_wide_vector(q.op, exec), exec, group);
   }
   return zs;
}

/* The immediate of a constant parameter: an immediate, or an
 * unpredicated 32-bit mov of one.
 */
bool
constant_param(const operand &o, uint32_t *imm)
{
   if (o.is_imm()) {
      if (type_bits(o.type) != 32)
         return false;
      *imm = uint32_t(o.imm);
      return true;
   }
   const value *v = o.val;
   if (!v || v->file != reg_file::ssa || v->length != 1 || o.neg || o.abs ||
       o.has_region || type_bits(o.type) != 32 || v->defs().size() != 1)
      return false;
   const instr *d = v->defs()[0];
   if (d->op != opcode::mov || d->predicate() || d->saturate ||
       d->cmod != cond_mod::none || d->flag_def() || d->preserve().val ||
       d->num_srcs() != 1 || !d->src(0).is_imm() || d->dst().offset ||
       d->dst().has_region || type_bits(d->src(0).type) != 32 ||
       type_bits(d->dst().type) != 32 || d->src(0).neg || d->src(0).abs)
      return false;
   *imm = uint32_t(d->src(0).imm);
   return true;
}

/* One parameter of a SIMD8/16 piece of a wider message, alone in its
 * payload, that needs no gathering of its own: a constant (a mov of it at
 * the piece's width, which CSE shares between messages, as brw's split
 * sends share one register), or a one-component value of the wider width
 * (its piece's GRFs, by a one-source load_payload: allocation splits the
 * value into halves and places them there).  Texture coordinates
 * of SIMD32 messages: (u, v) with v shared by many samples, or (u, 0.0)
 * (tesseract/491.fs, nexuiz/37.fs).
 */
bool
lone_piece_param(const operand &o, unsigned exec, unsigned group)
{
   uint32_t k;
   if (constant_param(o, &k))
      return true;
   /* A WLR value the operand reads here was checked where it was
    * found through a vector (through_wide_vector); read directly, it is
    * read at the message.  Allocation splits one written by SIMD16
    * halves (plns) into SSA halves.
    */
   const value *v = o.val;
   return v && (v->file == reg_file::ssa || v->file == reg_file::wlr) &&
          v->length == 1 && v->width > exec &&
          v->bit_size() == 32 && type_bits(o.type) == 32 && !o.neg && !o.abs &&
          !o.has_region && !o.offset && v->group <= group &&
          group + exec <= v->group + v->width;
}

/* A parameter of a piece as the piece reads it: through a vector built at
 * the wider width, else through one built for this message alone.
 */
operand
piece_operand(const operand &o, unsigned exec)
{
   const operand t = through_wide_vector(o, exec);
   return t == o ? resolve(o) : t;
}

/* The payload of params [from, to): a whole value as it is (also one the
 * params' vectors were built from), else a load_payload of the params
 * (not of the vectors' sources: a source read twice, or a vector shared
 * by several messages, coalesces worse).
 */
operand
gather(const builder &b, unsigned exec, unsigned group,
       const std::vector<param> &ps, size_t from, size_t to, bool piece = false)
{
   operand w = whole_value(ps, from, to, exec, group);
   if (w.is_null())
      w = whole_value(resolved(ps), from, to, exec, group);
   if (w.is_null() && piece)
      w = whole_value(zip_halves(ps, exec, group), from, to, exec, group);
   if (!w.is_null())
      return w;
   if (piece && to - from == 1 && !ps[from].op.is_null()) {
      const operand o = piece_operand(ps[from].op, exec);
      uint32_t k;
      if (constant_param(o, &k))
         return operand(b.mov(data_type::u32, operand::imm_u32(k)));
   }
   std::vector<operand> srcs;
   for (size_t i = from; i < to; i++) {
      operand o = ps[i].op;
      if (!o.is_null() && type_bits(o.type) != 32)
         throw error("lower: message parameters must be 32-bit, not " +
                     std::string(type_name(o.type)));
      if (o.is_null()) {
         /* Left undefined, as brw's BAD_FILE payload sources. */
         srcs.push_back(operand());
         continue;
      }
      o = plain(b, channels_of(through_wide_vector(o, exec), group));
      srcs.push_back(o.as_type(data_type::u32));
   }
   return operand(b.load_payload(data_type::u32, srcs));
}

} /* anonymous namespace */

payloads
build_payloads(const builder &b, unsigned exec, unsigned group, value *header,
               unsigned header_regs, const std::vector<param> &params,
               split_request *req)
{
   payloads p;
   const unsigned regs = exec * 4 / REG;
   if (req && req->collect) {
      req->options.clear();
      if (header)
         return p;
   }
   if (header) {
      p.p0 = operand(header);
      p.mlen = header_regs;
      if (!params.empty()) {
         p.p1 = gather(b, exec, group, params, 0, params.size());
         p.ex_mlen = params.size() * regs;
      }
      return p;
   }
   if (params.empty())
      throw internal_error("lower: a message without payload");
   /* Undefined parameters do not end a run (brw skips BAD_FILE), and an
    * undefined first one is a run of undefined ones.
    */
   size_t mid = 1;
   for (; mid < params.size(); mid++) {
      if (params[mid].op.is_null())
         continue;
      if (params[0].op.is_null() || !params[0].origin ||
          params[mid].origin != params[0].origin)
         break;
   }
   /* brw's split, unless another one (or none) makes both payloads whole
    * values, which need no copies (a coordinate whose components are
    * shared by several messages, a texture result written out as it is).
    * A gathered payload may still be shared (CSE): only a split without
    * any gathering beats brw's.
    */
   const std::vector<param> rs = resolved(params);
   const size_t n = params.size();
   /* A piece of a wider message (a parameter wider than it). */
   bool piece = false;
   for (const param &q : params) {
      const operand o = piece_operand(q.op, exec);
      piece |= o.val && o.val->width > exec;
   }
   /* A lone piece parameter no other parameter reads (one read twice
    * goes in one payload, as brw's).
    */
   auto lone = [&](size_t i) {
      if (!piece || params[i].op.is_null())
         return false;
      const operand o = piece_operand(params[i].op, exec);
      if (!lone_piece_param(o, exec, group))
         return false;
      for (size_t j = 0; j < n; j++) {
         if (j != i && o.val && piece_operand(params[j].op, exec).val == o.val)
            return false;
      }
      return true;
   };
   /* A piece's params read from texture results zipped from halves are
    * those halves' results (a sample's alpha as an RT write's second
    * payload at SIMD32, as brw's sends: warsow/145.fs SIMD32 137 -> 135).
    */
   const std::vector<param> zs = piece ? zip_halves(params, exec, group) : params;
   auto whole = [&](size_t from, size_t to) {
      return from == to || !whole_value(rs, from, to, exec, group).is_null() ||
             (piece && !whole_value(zs, from, to, exec, group).is_null()) ||
             in_place(params, rs, from, to, exec) ||
             (to - from == 1 && lone(from));
   };
   /* The two payloads of a split send must not overlap (PRM, and Mesa's
    * EU validator): a value read on both sides could be each payload's
    * register at once (a whole payload is the value itself, a gathered
    * one may be built over it), as with a sample at (u, u) or an RT
    * write whose alpha is its red (tesseract/133.fs, 488.fs).
    */
   auto reads_of = [&](size_t i) {
      return std::array<operand, 3>{ params[i].op, rs[i].op,
                                     piece_operand(params[i].op, exec) };
   };
   /* An undefined payload interferes with nothing in allocation, so it
    * may land on the other one: each side needs a defined parameter
    * (tesseract/115.fs, an RT write without alpha: one payload, mlen 4,
    * as brw's).
    */
   auto defined = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; i++) {
         const operand &o = rs[i].op;
         const instr *d = o.val ? o.val->def() : nullptr;
         if (!params[i].op.is_null() && !o.is_null() &&
             !(o.val && o.val->file == reg_file::ssa && !d) &&
             !(d && d->op == opcode::undef))
            return true;
      }
      return false;
   };
   auto disjoint = [&](size_t m) {
      if (m >= n)
         return true;
      if (!defined(0, m) || !defined(m, n))
         return false;
      for (size_t i = 0; i < m; i++) {
         for (size_t j = m; j < n; j++) {
            for (const operand &a : reads_of(i)) {
               for (const operand &c : reads_of(j)) {
                  if (a.val && a.val == c.val && a.offset == c.offset)
                     return false;
               }
            }
         }
      }
      return true;
   };
   for (size_t m = 1; m <= n && !(whole(0, mid) && whole(mid, n) && disjoint(mid)); m++) {
      if (whole(0, m) && whole(m, n) && disjoint(m))
         mid = m;
   }
   /* One gathered payload whose tail is whole: the tail goes as the
    * second payload and only the head is gathered, one copy per
    * parameter fewer (humus-dynamicbranching/34.fs).  A lone piece
    * parameter only in messages of up to three (a 3D sample's r at
    * SIMD32, humus-volumetricfogging2/1.fs, as brw's "sends" with mlen 4
    * and ex_mlen 2): an RT write's alpha that way cost
    * humus-dynamicbranching/10.fs its SIMD32 program.
    */
   if (mid == n && !whole(0, n)) {
      for (size_t m = 1; m < n; m++) {
         if ((!whole_value(rs, m, n, exec, group).is_null() ||
              (piece && !whole_value(zs, m, n, exec, group).is_null()) ||
              (n <= 3 && whole(m, n))) &&
             !params[m].op.is_null() && disjoint(m)) {
            mid = m;
            break;
         }
      }
   }
   /* Even brw's split, when both sides read one value: one payload (a
    * gathered side may be coalesced with its sources, so gathering both
    * does not keep them apart: tesseract/488.fs's RT write).
    */
   if (mid < n && !disjoint(mid))
      mid = n;
   /* Any split keeping both sides apart, each starting with a defined
    * parameter (as brw's), for a caller that sees the other messages.
    */
   auto allowed = [&](size_t m) {
      return m == n || (!params[m].op.is_null() && disjoint(m));
   };
   /* A part that is a whole value needs no gathering here; a vector a
    * load_payload built is gathered all the same, from its sources.
    */
   auto part_sources = [&](size_t from, size_t to) {
      operand w = whole_value(params, from, to, exec, group);
      if (w.is_null())
         w = whole_value(rs, from, to, exec, group);
      std::vector<operand> srcs;
      if (w.is_null()) {
         for (size_t i = from; i < to; i++)
            srcs.push_back(rs[i].op);
         return srcs;
      }
      const instr *lp = w.val->def();
      if (lp && lp->op == opcode::load_payload && !w.offset &&
          lp->num_srcs() == w.val->length) {
         for (const operand &o : lp->srcs())
            srcs.push_back(o);
      }
      return srcs;
   };
   if (req && req->collect) {
      req->options.clear();
      req->dflt = mid;
      /* Pieces of a wider message are left as they are: other splits
       * of the halves cost tesseract/351.fs at SIMD32 coalescing
       * elsewhere (284 -> 305 instructions, brw 292).
       */
      if (piece)
         return p;
      for (size_t m = 1; m <= n; m++) {
         if (!allowed(m))
            continue;
         split_option o{m, {}};
         const size_t bounds[3] = {0, m, n};
         for (unsigned k = 0; k < 2; k++) {
            if (bounds[k] != bounds[k + 1])
               o.gathered[k] = part_sources(bounds[k], bounds[k + 1]);
         }
         req->options.push_back(std::move(o));
      }
      return p;
   }
   /* A split chosen against the other messages gathers the vectors'
    * sources, so that messages building the same part share it (cse).
    */
   const std::vector<param> *gs = &params;
   if (req && req->take && req->take != mid && !piece && allowed(req->take)) {
      mid = req->take;
      gs = &rs;
   }
   /* A whole second part found through the vectors before the first
    * part's gathering reads them too (a texture result's alpha).
    */
   operand w1;
   if (mid < n) {
      w1 = whole_value(params, mid, n, exec, group);
      if (w1.is_null())
         w1 = whole_value(rs, mid, n, exec, group);
      if (w1.is_null() && piece)
         w1 = whole_value(zs, mid, n, exec, group);
   }
   p.p0 = gather(b, exec, group, *gs, 0, mid, piece);
   p.mlen = mid * regs;
   if (mid < n) {
      p.p1 = !w1.is_null() ? w1 : gather(b, exec, group, *gs, mid, n, piece);
      p.ex_mlen = (n - mid) * regs;
   }
   return p;
}

instr *
emit_send(const builder &b, uint32_t sfid, uint32_t desc, const payloads &p,
          const operand &dst, unsigned rlen, bool header, value *desc_val)
{
   const uint32_t full = desc | msg_desc(p.mlen, rlen, header);
   operand d = operand::imm_u32(full);
   if (desc_val)
      d = operand(b.exec(1).nomask().or_(data_type::u32, operand(desc_val), d));
   const uint32_t ex = p.p1.is_null() ? 0 : ex_desc_mlen(p.ex_mlen);
   return b.emit(opcode::send, {dst},
                 {operand::imm_u32(sfid), d, operand::imm_u32(ex), p.p0, p.p1});
}

value *
hw_grf(shader &s, unsigned nr)
{
   /* By id, without a copy of the shader's value list per message. */
   for (unsigned id = 0; id < s.value_id_bound(); id++) {
      value *v = s.find_value(id);
      if (v && v->file == reg_file::hw_reg && v->phys.kind == phys_reg::grf &&
          v->phys.nr == nr && v->phys.subreg == 0 && v->type == data_type::u32 &&
          v->width == 8 && v->length == 1)
         return v;
   }
   value *v = s.create_value(reg_file::hw_reg, data_type::u32, 8, 1);
   v->phys = phys_reg{phys_reg::grf, uint16_t(nr), 0};
   return v;
}

value *
g0_copy(const builder &b)
{
   return b.exec(8).nomask().mov(data_type::u32, operand(hw_grf(*b.sh, 0)));
}

unsigned
components_read(const value *v)
{
   unsigned n = 1;
   for (const use &u : v->uses()) {
      if (u.slot < 0)
         return v->length;
      const opcode_kind k = u.in->info().kind;
      const operand &o = u.in->src(u.slot);
      const unsigned first = o.offset / v->component_bytes();
      if (k != opcode_kind::alu && k != opcode_kind::math &&
          u.in->op != opcode::load_payload && u.in->op != opcode::copy)
         return v->length;
      if (u.in->op == opcode::load_payload || u.in->op == opcode::copy) {
         /* A source narrower than the value reads one component. */
         const value *d = u.in->dst().val;
         if (!d || d->width > v->width || o.offset % v->component_bytes() +
             d->width * v->bit_size() / 8 > v->component_bytes())
            return v->length;
      }
      n = std::max(n, first + 1);
   }
   return std::min<unsigned>(n, v->length);
}

void
replace_uses(value *from, value *to, int delta)
{
   const std::vector<use> uses = from->uses();
   for (const use &u : uses) {
      if (u.slot == use::preserve) {
         operand o = u.in->preserve();
         o.val = to;
         o.offset += delta;
         u.in->set_preserve(o);
      } else if (u.slot >= 0) {
         operand o = u.in->src(u.slot);
         o.val = to;
         o.offset += delta;
         u.in->set_src(u.slot, o);
      }
   }
}

} /* namespace lowering */

using namespace lowering;

namespace {

/* State of one lower() run over a fragment shader. */
struct fs_state {
   bool rt_header = false;      /* several render targets or dual source */
   bool has_terminate = false;
   value *live = nullptr;       /* 0/~0 per channel after the halt target */
   value *live_flag = nullptr;  /* or a flag of them (single_terminate) */
   bool live_flag_inv = false;
};

/* VS outputs as brw writes them (emit_urb_writes): the VUE header slot is
 * not written when nothing in it is (all zero), and the slots go out two
 * at a time (8 GRFs) from the first one written, so the messages and their
 * global offsets are brw's.
 */
void
repack_urb_writes(shader &s)
{
   std::vector<instr *> writes;
   for (const auto &b : s.blocks())
      for (instr *in : b->instrs())
         if (in->op == opcode::urb_write_logical)
            writes.push_back(in);
   if (writes.empty())
      return;
   namespace src = urb_write_logical_src;
   std::map<unsigned, std::vector<operand>> slots;
   const operand handle = writes[0]->src(src::handle);
   for (instr *in : writes) {
      const operand &slot = in->src(src::per_slot_offsets);
      const operand &data = in->src(src::data);
      if (in->parent() != writes[0]->parent() || !slot.is_imm() ||
          !in->src(src::channel_mask).is_null() || !data.val ||
          data.val->width != 8 || data.val->bit_size() != 32 || data.offset ||
          data.val->length % 4 || in->src(src::handle) != handle)
         return;
      const instr *lp = data.val->def();
      for (unsigned c = 0; c < data.val->length; c++) {
         operand o = operand(data.val).component(c);
         if (lp && lp->op == opcode::load_payload &&
             lp->num_srcs() == data.val->length && !lp->src(c).is_null() &&
             (lp->src(c).is_imm() || lp->src(c).val->width == 8))
            o = lp->src(c);
         std::vector<operand> &v = slots[slot.imm + c / 4];
         if (v.size() != c % 4)
            return;
         v.push_back(o);
      }
   }
   /* Contiguous slots only. */
   unsigned expect = slots.begin()->first;
   for (const auto &e : slots)
      if (e.first != expect++)
         return;
   if (slots.begin()->first == 0 && slots.size() > 1) {
      bool zero = true;
      for (const operand &o : slots[0])
         zero &= is_zero_operand(o);
      if (zero)
         slots.erase(slots.begin());
   }

   instr *last = writes.back();
   builder b(&s);
   b.before(last);
   const builder b8 = b.exec(8);
   std::vector<unsigned> order;
   for (const auto &e : slots)
      order.push_back(e.first);
   for (size_t i = 0; i < order.size(); i += 2) {
      std::vector<operand> srcs;
      const size_t n = std::min<size_t>(2, order.size() - i);
      for (size_t k = 0; k < n; k++)
         for (const operand &o : slots[order[i + k]])
            srcs.push_back(o.is_imm() ? o : o.as_type(data_type::u32));
      /* The components of one value in order need no gathering. */
      value *data = srcs[0].val;
      for (size_t k = 0; data && k < srcs.size(); k++) {
         if (srcs[k].val != data || srcs[k].offset != k * data->component_bytes() ||
             srcs[k].neg || srcs[k].abs || srcs[k].has_region)
            data = nullptr;
      }
      if (!data || data->file != reg_file::ssa || data->length != srcs.size() ||
          data->width != 8 || data->bit_size() != 32)
         data = b8.load_payload(data_type::u32, srcs);
      instr *w = b8.emit(opcode::urb_write_logical, {},
                         {handle, operand::imm_u32(order[i]), operand(),
                          operand(data), operand::imm_u32(srcs.size())});
      if (i + 2 >= order.size())
         w->flags |= last->flags & INSTR_EOT;
   }
   for (instr *in : writes)
      in->remove();
}

/* A compare whose flag only predicated an access the lowering read back
 * as a mask of channels (predicate_mask: flag -> word -> flag per piece).
 */
bool
dead_flag_compare(const instr *in)
{
   if (in->op != opcode::cmp || in->has_side_effects() || !in->flag_def() ||
       !in->flag_def()->uses().empty())
      return false;
   for (unsigned i = 0; i < in->num_dsts(); i++) {
      const value *d = in->dst(i).val;
      if (d && (d->file != reg_file::ssa || !d->uses().empty()))
         return false;
   }
   return true;
}

/* Gathers whose every reader became a message payload of its sources. */
void
remove_dead_payloads(shader &s)
{
   bool progress = true;
   while (progress) {
      progress = false;
      for (const auto &b : s.blocks()) {
         for (auto it = b->begin(); it != b->end();) {
            instr *in = *it++;
            if ((in->op == opcode::load_payload && in->num_dsts() == 1 &&
                 in->dst().val && in->dst().val->file == reg_file::ssa &&
                 in->dst().val->uses().empty() && !in->has_side_effects())) {
               in->remove();
               progress = true;
            }
         }
      }
   }
}

/* A payload slot filled from a constant takes the immediate: each slot is
 * one mov either way, and the register the constant was loaded into goes
 * when nothing else reads it (tesseract/515.fs: 0.0 in four slots of two
 * RT writes was loaded once and copied four times).  Any channels of it:
 * a SIMD32 message's second half reads the constant at an offset.
 */
void
payload_immediates(shader &s)
{
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->op != opcode::load_payload || in->num_dsts() != 1 ||
             !in->dst().val || in->dst().val->bit_size() != 32)
            continue;
         for (unsigned k = 0; k < in->num_srcs(); k++) {
            const operand &o = in->src(k);
            uint32_t imm;
            if (o.is_imm() || o.offset % 4 || !constant_param(o, &imm))
               continue;
            in->set_src(k, operand::imm_of(o.type, imm));
         }
      }
   }
}

bool
is_lowered_away(const instr *in)
{
   switch (in->info().kind) {
   case opcode_kind::logical:
      return true;
   default:
      break;
   }
   switch (in->op) {
   case opcode::terminate:
   case opcode::ddx_coarse:
   case opcode::ddx_fine:
   case opcode::ddy_coarse:
   case opcode::ddy_fine:
      return true;
   default:
      return false;
   }
}

/* Where terminated channels come back: an unpredicated halt (every
 * halt's UIP is the last halt, docs/codegen.md) before the first
 * render-target write, and the mask of the channels still alive there,
 * built while only they run: ~0 written under the execution mask over a
 * NoMask 0.
 */
value *
emit_halt_target(shader &s, instr *first_write, bool mark_live)
{
   builder b(&s);
   const unsigned w = s.dispatch_width;
   if (!mark_live) {
      b.before(first_write);
      b.emit(opcode::halt, {}, {});
      return nullptr;
   }
   /* The zero goes before any halt: when every channel halts, the jump
    * lands on the target and skips whatever precedes it in its block.
    */
   b.at_start(s.entry());
   value *zero = b.exec(w).nomask().mov(data_type::u32, operand::imm_u32(0));
   b.before(first_write);
   value *live = b.exec(w).ssa(data_type::u32);
   instr *mark = b.exec(w).mov(operand(live), operand::imm_u32(~0u));
   mark->set_preserve(operand(zero));
   b.emit(opcode::halt, {}, {});
   return live;
}

/* The flag of the one terminate of a shader without demotes, when its
 * channels are exactly the ones the RT writes must skip: a predicated
 * terminate at the dispatch width in the block of every RT write and
 * before them, which write at that width without a sample mask of their
 * own.  A block runs one set of channels and halted ones come back only
 * at the halt target, so the writes take the inverted flag as their
 * predicate (brw's f1.0) instead of a mask the live channels mark
 * (nexuiz/52.fs SIMD16: 73 -> 70 instructions, brw 71).  At SIMD32 only
 * with one write (nexuiz/52.fs SIMD32 145 -> 139, brw 139): there the
 * flag takes f0 whole to the end, and the MRT writes of tesseract/319-323
 * and 532-540 then estimate up to 50 cycles slower (five SIMD32 programs
 * no longer beat their SIMD16 ones).
 *
 * A GLSL discard is a discard (demote) and a quad_all terminate on one
 * flag (from_nir): its discarded channels of live quads run on to the
 * writes, which the inverted flag keeps from writing; *pair is then that
 * discard, which the flag makes redundant, provided no memory write lies
 * between the terminate and the RT writes.
 */
instr *
single_terminate(shader &s, instr *first_write, instr **pair)
{
   instr *term = nullptr, *discard = nullptr;
   unsigned writes = 0;
   *pair = nullptr;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->op == opcode::discard) {
            if (discard)
               return nullptr;
            discard = in;
         }
         if (in->op == opcode::terminate) {
            if (term)
               return nullptr;
            term = in;
         }
         if (in->op == opcode::fb_write_logical) {
            writes++;
            if (in->parent() != first_write->parent() ||
                in->exec_size != s.dispatch_width ||
                !in->src(fb_write_logical_src::sample_mask).is_null())
               return nullptr;
         }
      }
   }
   if (!term || !term->predicate() || term->parent() != first_write->parent() ||
       term->exec_size != s.dispatch_width || term->group ||
       (s.dispatch_width > 16 && writes > 1))
      return nullptr;
   const bool quad = term->flags & INSTR_QUAD_ALL;
   if (discard && (!quad || discard->parent() != term->parent() ||
                   discard->predicate() != term->predicate() ||
                   discard->pred_inv != term->pred_inv ||
                   discard->exec_size != term->exec_size || discard->group))
      return nullptr;
   if (quad && !discard)
      return nullptr;
   /* Before the first write in its block (and for a quad terminate, no
    * memory write in between: the discarded channels still run there).
    */
   bool seen = false;
   for (instr *in : first_write->parent()->instrs()) {
      if (in == first_write)
         break;
      if (in == term)
         seen = true;
      else if (seen && quad && writes_memory(in->op))
         return nullptr;
   }
   if (!seen)
      return nullptr;
   *pair = discard;
   return term;
}

/* Whether the halt target must mark the channels still running: not when
 * every terminate is a quad_all one right after its discard, in the block
 * of the writes.  The discard's mask is then 0 in every channel the halt
 * stops (all four of its quad discarded), defined in that block before
 * the halt, so no copy a halted channel skipped stands between it and the
 * writes (tesseract/309-323, 532-540.fs SIMD32: the two marking moves and
 * the NoMask zero).
 */
bool
halt_needs_live_mask(shader &s, instr *first_write)
{
   for (const auto &b : s.blocks()) {
      instr *prev = nullptr;
      for (instr *in : b->instrs()) {
         if (in->op == opcode::terminate &&
             (!(in->flags & INSTR_QUAD_ALL) || b.get() != first_write->parent() || !prev ||
              prev->op != opcode::discard || prev->predicate() != in->predicate() ||
              prev->pred_inv != in->pred_inv || prev->exec_size != in->exec_size ||
              prev->group != in->group))
            return true;
         prev = in;
      }
   }
   return false;
}

} /* anonymous namespace */

static void lower_one(shader &s, instr *in, const device_info &dev);

/* Runs lower_one on in and gives the sends it leaves in in's place the
 * side effects in had (a store, an atomic, a fence: the opcode "send" has
 * none of its own), so that no later pass reorders memory accesses
 * across them or removes them.
 */
template <typename F>
static void
keeping_effects(instr *in, F lower)
{
   const bool effects = in->has_side_effects();
   block *b = in->parent();
   auto at = in->position();
   instr *prev = at == b->begin() ? nullptr : *std::prev(at);
   auto next_it = std::next(at);
   instr *next = next_it == b->end() ? nullptr : *next_it;
   lower();
   if (!effects)
      return;
   auto it = prev ? std::next(prev->position()) : b->begin();
   for (; it != b->end() && *it != next; ++it) {
      if ((*it)->op == opcode::send)
         (*it)->flags |= INSTR_SIDE_EFFECTS;
   }
}

void
lower_instr(shader &s, instr *in, const device_info &dev)
{
   keeping_effects(in, [&] { lower_one(s, in, dev); });
}

static void
lower_one(shader &s, instr *in, const device_info &dev)
{
   switch (in->op) {
   case opcode::scratch_read_logical:
   case opcode::scratch_write_logical:
      lower_scratch(s, in, dev);
      return;
   case opcode::urb_write_logical:
      lower_urb_write(s, in);
      return;
   case opcode::fb_write_logical:
      lower_fb_write(s, in, false, nullptr);
      return;
   case opcode::tex_logical:
      lower_tex(s, in);
      return;
   case opcode::interp_logical:
      lower_interp(s, in);
      return;
   case opcode::ddx_coarse:
   case opcode::ddx_fine:
   case opcode::ddy_coarse:
   case opcode::ddy_fine:
      lower_derivative(s, in);
      return;
   case opcode::terminate:
      lower_terminate(s, in);
      return;
   case opcode::uniform_block_read_logical:
   case opcode::varying_pull_constant_logical:
   case opcode::untyped_read_logical:
   case opcode::untyped_write_logical:
   case opcode::untyped_atomic_logical:
   case opcode::typed_read_logical:
   case opcode::typed_write_logical:
   case opcode::typed_atomic_logical:
   case opcode::byte_scattered_read_logical:
   case opcode::byte_scattered_write_logical:
   case opcode::memory_fence:
   case opcode::barrier:
   case opcode::thread_end_logical:
      lower_dataport(s, in);
      return;
   default:
      throw error("lower: cannot lower '" + in->str() + "'");
   }
}

void
lower(shader &s, const device_info &dev)
{
   if (s.stage == shader_stage::vs)
      repack_urb_writes(s);
   fs_state fs;
   instr *first_write = nullptr;
   unsigned targets = 0;
   for (const auto &b : s.blocks()) {
      for (instr *in : b->instrs()) {
         if (in->op == opcode::terminate)
            fs.has_terminate = true;
         if (in->op != opcode::fb_write_logical)
            continue;
         if (!first_write)
            first_write = in;
         if (!in->src(fb_write_logical_src::color0).is_null())
            targets++;
         if (!in->src(fb_write_logical_src::color1).is_null() ||
             !in->src(fb_write_logical_src::src0_alpha).is_null())
            fs.rt_header = true;
      }
   }
   fs.rt_header |= targets > 1;
   if (fs.has_terminate && !first_write)
      throw error("lower: terminate in a shader without a render-target "
                  "write");
   instr *pair = nullptr;
   instr *term = fs.has_terminate ? single_terminate(s, first_write, &pair) : nullptr;
   if (term) {
      fs.live_flag = term->predicate();
      fs.live_flag_inv = !term->pred_inv;
      if (pair)
         pair->remove();
   }
   const bool mark_live = fs.has_terminate && !term && halt_needs_live_mask(s, first_write);
   value *alive = lower_demotes(s, first_write);
   if (fs.has_terminate)
      fs.live = emit_halt_target(s, first_write, mark_live);
   if (alive && fs.live) {
      builder b(&s);
      b.before(first_write);
      fs.live = b.exec(s.dispatch_width).and_(data_type::u32, operand(fs.live),
                                              operand(alive));
   } else if (alive) {
      fs.live = alive;
   }

   /* Compares that predicated logical accesses: the data-port lowering
    * reads such a flag back as a mask and gives each piece its own flag.
    */
   std::vector<instr *> predicate_defs;
   const tex_plan plan = plan_tex_splits(s);
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         if (!is_lowered_away(in))
            continue;
         /* RT writes need no order against memory accesses (only among
          * themselves, which the EOT barrier and their results keep), so
          * texture reads may still move across the first SIMD32 half.
          */
         if (in->info().kind == opcode_kind::logical && in->predicate() &&
             in->predicate()->def() &&
             std::find(predicate_defs.begin(), predicate_defs.end(),
                       in->predicate()->def()) == predicate_defs.end())
            predicate_defs.push_back(in->predicate()->def());
         if (in->op == opcode::fb_write_logical)
            lower_fb_write(s, in, fs.rt_header, fs.live, fs.live_flag,
                           fs.live_flag_inv);
         else if (in->op == opcode::tex_logical)
            lower_tex(s, in, &plan);
         else
            lower_instr(s, in, dev);
      }
   }
   for (instr *c : predicate_defs) {
      if (dead_flag_compare(c))
         c->remove();
   }
   remove_dead_payloads(s);
   payload_immediates(s);
   legalize(s, dev);
   lower_flag_chains(s);
   s.lowered = true;
}

void
register_lower_passes()
{
   /* A function-local static runs its initializer once, also when
    * several threads get here first together.
    */
   static const bool once = [] {
      register_pass("lower", "lower logical sends and pseudo ops for Skylake "
                    "GT2 and legalize (docs/lower.md)", [](shader &s) {
                       lower(s, device_by_name("skl"));
                       return true;
                    });
      register_pass("flag-chains", "and/or trees of compares into chains of "
                    "compares predicated on the flag before (docs/lower.md)",
                    lower_flag_chains);
      return true;
   }();
   (void)once;
}

} /* namespace ibis */
