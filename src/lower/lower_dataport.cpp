/*
 * Data-port and constant messages (brw's lower_*_logical_send for Gen9):
 * uniform block loads, varying pull constants, untyped/typed surface
 * access and atomics, byte scattered access, fences, barriers and the
 * compute thread's end.
 *
 * Data-port descriptors (Gen8+): BTI 7:0, message control 13:8, message
 * type 18:14 (dp_desc).  The untyped and typed messages are on data
 * cache 1 (SFID 12), OWord block and byte scattered ones on data cache 0
 * (SFID 10), the constant cache is SFID 9.
 */
#include "lower/lower_private.h"

namespace ibis::lowering {

namespace {

/* Data cache 0 message types. */
constexpr unsigned DC_OWORD_BLOCK_READ = 0;
constexpr unsigned DC_UNALIGNED_OWORD_BLOCK_READ = 1;
constexpr unsigned DC_BYTE_SCATTERED_READ = 4;
constexpr unsigned DC_MEMORY_FENCE = 7;
constexpr unsigned DC_BYTE_SCATTERED_WRITE = 12;
/* Data cache 1 message types. */
constexpr unsigned DC1_UNTYPED_READ = 1;
constexpr unsigned DC1_UNTYPED_ATOMIC = 2;
constexpr unsigned DC1_UNTYPED_ATOMIC_FLOAT = 0x1b;
constexpr unsigned DC1_TYPED_READ = 5;
constexpr unsigned DC1_TYPED_ATOMIC = 6;
constexpr unsigned DC1_UNTYPED_WRITE = 9;
constexpr unsigned DC1_TYPED_WRITE = 13;
/* The sampler's ld, which Gen9 brw uses for varying pull constants. */
constexpr unsigned SAMPLER_LD = 7;
/* Block sizes of OWord block messages (control 2:0) by dwords. */
unsigned
oword_block_size(unsigned dwords)
{
   switch (dwords) {
   case 4: return 0;
   case 8: return 2;
   case 16: return 3;
   case 32: return 4;
   default: throw internal_error("lower: no OWord block of that size");
   }
}

unsigned
imm_of(const instr *in, unsigned slot, const char *what)
{
   const operand &o = in->src(slot);
   if (!o.is_imm())
      throw error(std::string("lower: ") + what + " must be an immediate in '" +
                  in->str() + "'");
   return o.imm;
}

/* brw's FS_OPCODE_UNIFORM_PULL_CONSTANT_LOAD (constant offset: a 64-byte
 * line from the constant cache, header g0 with dword 2 = offset in OWords)
 * and UNALIGNED_OWORD_BLOCK_READ (uniform variable offset: data cache,
 * zero header with dword 2 = the byte offset); both NoMask and SIMD8.
 * The send runs one channel per dword returned, as brw's (SIMD8 for one
 * register, SIMD16 for two): a SIMD1 one reads its payload with a region
 * wider than its execution size, which Mesa's EU validator rejects
 * ("ExecSize must be greater than or equal to Width").
 */
void
lower_uniform_block_read(shader &s, instr *in)
{
   namespace src = uniform_block_read_logical_src;
   builder b(&s);
   b.before(in);
   const builder nb = b.exec(8).nomask();
   const builder one = b.exec(1).nomask();
   const unsigned surface = imm_of(in, src::surface, "the surface");
   const unsigned size = imm_of(in, src::size, "the size");
   value *result = in->dst().val;
   if (result->width != 1 || result->bit_size() != 32)
      throw error("lower: block reads give width-1 32-bit values: '" +
                  in->str() + "'");
   const operand &off = in->src(src::offset);
   /* A constant offset whose bytes cross a 64-byte line (a vec4-aligned
    * pull past what the driver pushed: dolphin's and warsow's VS under
    * iris's push ranges) takes the unaligned read below.
    */
   if (off.is_imm() && (off.imm & 63u) + size <= 64) {
      const unsigned base = off.imm & ~63u;
      const unsigned delta = off.imm & 63u;
      value *header = nb.wlr(data_type::u32);
      nb.mov(operand(header), operand(hw_grf(s, 0)));
      operand dw2(header);
      dw2.offset = 8;
      one.mov(dw2, operand::imm_u32(base / 16));
      value *line = s.create_value(reg_file::ssa, data_type::u32, 1, 16);
      payloads p;
      p.p0 = operand(header);
      p.mlen = 1;
      emit_send(b.exec(16).nomask(), SFID_CONST,
                dp_desc(surface, DC_OWORD_BLOCK_READ, oword_block_size(16)),
                p, operand(line), 2, true);
      replace_uses(result, line, delta);
   } else {
      /* A GRF (or two) from the byte offset, as brw's 8- or 16-dword
       * blocks (its UNALIGNED_OWORD_BLOCK_READ takes an immediate too).
       */
      const unsigned dwords = size <= 32 ? 8 : size <= 64 ? 16 : 0;
      if (!dwords)
         throw error("lower: block reads of more than 64 bytes are not "
                     "supported: '" + in->str() + "'");
      value *header = nb.wlr(data_type::u32);
      nb.mov(operand(header), operand::imm_u32(0));
      operand dw2(header);
      dw2.offset = 8;
      one.mov(dw2, off.as_type(data_type::u32));
      if (result->length > dwords)
         throw internal_error("lower: block read result larger than its size");
      result->length = dwords;
      payloads p;
      p.p0 = operand(header);
      p.mlen = 1;
      emit_send(b.exec(dwords).nomask(), SFID_DC0,
                dp_desc(surface, DC_UNALIGNED_OWORD_BLOCK_READ,
                        oword_block_size(dwords)),
                p, operand(result), dwords / 8, true);
   }
   in->remove();
}

value *surface_index(const builder &b, const operand &surf, uint32_t *bits,
                     const instr *in);

/* Gen9 brw reads varying (per-channel) pull constants with the sampler's
 * ld on the buffer surface (indirect_ubos_use_sampler): one parameter,
 * the byte offset, and always a vec4 back.
 */
void
lower_varying_pull(shader &s, instr *in)
{
   namespace src = varying_pull_constant_logical_src;
   builder b(&s);
   b.before(in);
   /* A surface in a (uniform) value goes into an indirect descriptor. */
   const operand &surf = in->src(src::surface);
   const unsigned surface = surf.is_imm() ? unsigned(surf.imm) : 0;
   value *result = in->dst().val;
   if (result->bit_size() != 32 || result->length > 4)
      throw error("lower: pull constants are up to four 32-bit components: '" +
                  in->str() + "'");
   const unsigned width = in->exec_size;
   const unsigned piece = std::min(width, 16u);
   std::vector<value *> parts;
   for (unsigned first = 0; first < width; first += piece) {
      const unsigned group = in->group + first;
      const builder pb = b.exec(piece, group);
      uint32_t bits = 0;
      value *desc_val = surf.is_imm() ? nullptr : surface_index(pb, surf, &bits, in);
      payloads p = build_payloads(pb, piece, group, nullptr, 0,
                                  {param{in->src(src::offset), nullptr}});
      value *dst = piece == width ? result
                                  : s.create_value(reg_file::ssa, result->type,
                                                   piece, 4, group);
      dst->length = 4;
      emit_send(pb, SFID_SAMPLER, sampler_desc(surface, 0, SAMPLER_LD, piece),
                p, operand(dst), 4 * piece / 8, false, desc_val);
      if (dst != result)
         parts.push_back(dst);
   }
   if (!parts.empty()) {
      result->length = 4;
      std::vector<operand> srcs;
      for (unsigned c = 0; c < 4; c++)
         for (value *pc : parts)
            srcs.push_back(operand(pc).component(c));
      b.exec(width, in->group).emit(opcode::load_payload, {operand(result)}, srcs);
   }
   in->remove();
}

/* Gen9 untyped/typed/byte-scattered messages are SIMD8 or SIMD16; the
 * pieces of a wider instruction, with their results zipped back.
 */
template <typename F>
void
for_each_piece(shader &s, instr *in, unsigned max, F emit_piece)
{
   builder b(&s);
   b.before(in);
   const unsigned width = in->exec_size;
   const unsigned piece = std::min(width, max);
   value *result = in->num_dsts() ? in->dst().val : nullptr;
   std::vector<value *> parts;
   for (unsigned first = 0; first < width; first += piece) {
      const unsigned group = in->group + first;
      value *dst = !result ? nullptr
                   : piece == width ? result
                   : s.create_value(reg_file::ssa, result->type, piece,
                                    result->length, group);
      emit_piece(b.exec(piece, group), piece, group, dst);
      if (dst && dst != result)
         parts.push_back(dst);
   }
   /* An atomic whose result nobody reads returns nothing: no parts to
    * zip.
    */
   if (!parts.empty() && !result->uses().empty()) {
      std::vector<operand> srcs;
      for (unsigned c = 0; c < result->length; c++)
         for (value *pc : parts)
            srcs.push_back(operand(pc).component(c));
      b.exec(width, in->group).emit(opcode::load_payload, {operand(result)}, srcs);
   }
}

/* A predicated access (a fragment shader's store or atomic runs on the
 * pixel mask, from_nir_memory.cpp): the predicate as ~0 or 0 per channel,
 * which predicate_send() makes each piece's own flag again; null when the
 * access is not predicated.
 */
operand
predicate_mask(shader &s, instr *in)
{
   if (!in->predicate())
      return operand();
   /* A flag of "x != 0" (how the predicates are made): x itself. */
   const instr *c = in->predicate()->def();
   if (!in->pred_inv && c && c->op == opcode::cmp && c->cmod == cond_mod::nz &&
       !c->predicate() && c->src(1).is_imm() && c->src(1).imm == 0 &&
       c->src(0).val && type_bits(c->src(0).type) == 32 && !c->src(0).neg &&
       !c->src(0).abs && c->exec_size == in->exec_size && c->group == in->group)
      return c->src(0);
   builder b(&s);
   b.before(in);
   const builder fb = b.exec(in->exec_size, in->group);
   value *ones = fb.mov(data_type::u32, operand::imm_u32(~0u));
   value *m = fb.ssa(data_type::u32);
   fb.predicated(in->predicate(), in->pred_inv)
      .sel(operand(m), operand(ones), operand::imm_u32(0));
   return operand(m);
}

void
predicate_send(const builder &pb, instr *send, const operand &mask, unsigned group)
{
   if (mask.is_null())
      return;
   builder b = pb;
   b.before(send);
   send->set_predicate(b.cmp(cond_mod::nz, channels_of(mask, group), operand::imm_u32(0)));
   if (send->num_dsts() && send->dst().val) {
      /* An atomic's result: undefined in the channels it skips. */
      const value *d = send->dst().val;
      send->set_preserve(operand(b.exec(d->width, d->group).undef(d->type)));
   }
}

/* The surface index: an immediate in the descriptor, or a uniform value
 * ORed in (indirect descriptor).
 */
value *
surface_index(const builder &b, const operand &surf, uint32_t *bits,
              const instr *in)
{
   if (surf.is_imm()) {
      *bits |= surf.imm & 0xff;
      return nullptr;
   }
   if (!surf.val || surf.val->width != 1)
      throw error("lower: non-uniform surface index in '" + in->str() + "'");
   return b.exec(1).nomask().and_(data_type::u32, surf.as_type(data_type::u32),
                                  operand::imm_u32(0xff));
}

/* A Gen9 atomic: the operation and whether it is the float message. */
struct gen_atomic {
   unsigned op;
   bool fp;
};

/* NIR atomic op numbers (nir_atomic_op of Mesa 23.3's nir.h) to Gen9's. */
gen_atomic
gen_atomic_op(unsigned nir_op, const instr *in)
{
   /* nir_atomic_op: iadd 0, imin 1, umin 2, imax 3, umax 4, iand 5, ior 6,
    * ixor 7, xchg 8, fadd 9, fmin 10, fmax 11, cmpxchg 12, fcmpxchg 13,
    * inc_wrap 14, dec_wrap 15.  BRW_AOP: and 1, or 2, xor 3, mov 4, add 7,
    * imax 10, imin 11, umax 12, umin 13, cmpwr 14; the float message's
    * BRW_AOP_FMAX 1, FMIN 2, FCMPWR 3 (its op field is 2 bits: no FADD,
    * and Gen9 has no wrapping increments).
    */
   static const int map[] = {7, 11, 13, 10, 12, 1, 2, 3, 4, -1, 2, 1, 14, 3, -1, -1};
   if (nir_op >= sizeof(map) / sizeof(map[0]) || map[nir_op] < 0)
      throw error("lower: atomic operation " + std::to_string(nir_op) +
                  " has no Gen9 message: '" + in->str() + "'");
   const bool fp = nir_op == 10 || nir_op == 11 || nir_op == 13;
   return gen_atomic{unsigned(map[nir_op]), fp};
}

void
lower_surface(shader &s, instr *in)
{
   const opcode op = in->op;
   const bool typed = op == opcode::typed_read_logical ||
                      op == opcode::typed_write_logical ||
                      op == opcode::typed_atomic_logical;
   const bool atomic = op == opcode::untyped_atomic_logical ||
                       op == opcode::typed_atomic_logical;
   const bool write = op == opcode::untyped_write_logical ||
                      op == opcode::typed_write_logical;
   const operand &surf = in->src(0);
   const operand &addr = in->src(1);
   /* Whether the old value comes back: decided on the whole result, as a
    * SIMD32 half's value has no uses yet.
    */
   const bool ret = in->num_dsts() && in->dst().val && !in->dst().val->uses().empty();
   /* Typed messages are SIMD8 on Gen9 (brw splits them by 8). */
   const operand pmask = predicate_mask(s, in);
   for_each_piece(s, in, typed ? 8 : 16,
                  [&](const builder &pb, unsigned piece, unsigned group,
                      value *dst) {
      uint32_t bits = 0;
      value *desc_val = surface_index(pb, surf, &bits, in);
      std::vector<param> ps;
      const unsigned ncoord = typed && addr.val ? addr.val->length : 1;
      for (unsigned i = 0; i < ncoord; i++)
         ps.push_back(make_param(addr.val ? addr.component(i) : addr));
      unsigned comps = 0;
      uint32_t desc = 0;
      unsigned rlen = 0;
      /* Gen9 needs no header for typed messages (brw adds one before Gen9
       * only), nor for untyped ones through a binding table.
       */
      value *header = nullptr;
      if (atomic) {
         const gen_atomic ga = gen_atomic_op(in->src(4).imm, in);
         const unsigned aop = ga.op;
         if (ga.fp && typed)
            throw error("lower: Gen9 has no typed float atomics: '" +
                        in->str() + "'");
         ps.push_back(make_param(in->src(2)));
         if (!in->src(3).is_null())
            ps.push_back(make_param(in->src(3)));
         const unsigned ctrl = aop | (piece <= 8 ? 1u << 4 : 0) |
                               (ret ? 1u << 5 : 0);
         desc = dp_desc(0, typed ? DC1_TYPED_ATOMIC
                                 : ga.fp ? DC1_UNTYPED_ATOMIC_FLOAT
                                         : DC1_UNTYPED_ATOMIC,
                        typed ? (aop | (ret ? 1u << 5 : 0) |
                                 (group % 16 >= 8 ? 1u << 4 : 0))
                              : ctrl);
         rlen = ret ? piece / 8 : 0;
         if (!ret && dst) {
            /* Nothing reads it: an unused result is undef; the halves of
             * a split one are not zipped (for_each_piece), so they go.
             */
            if (dst == in->dst().val)
               pb.emit(opcode::undef, {operand(dst)}, {});
            dst = nullptr;
         }
      } else {
         comps = imm_of(in, write ? 3 : 2, "the component count");
         if (write) {
            const operand &data = in->src(2);
            for (unsigned c = 0; c < comps; c++)
               ps.push_back(make_param(data.val ? data.component(c) : data));
         }
         /* Control: disabled channels 3:0 (brw_mdc_cmask), SIMD mode 5:4
          * (2 SIMD8, 1 SIMD16); typed: slot group 5:4 instead.
          */
         const unsigned cmask = 0xf & (0xf << comps);
         const unsigned ctrl =
            typed ? cmask | (group % 16 >= 8 ? 2u : 1u) << 4
                  : cmask | (piece <= 8 ? 2u : 1u) << 4;
         desc = dp_desc(0, typed ? (write ? DC1_TYPED_WRITE : DC1_TYPED_READ)
                                 : (write ? DC1_UNTYPED_WRITE : DC1_UNTYPED_READ),
                        ctrl);
         rlen = write ? 0 : comps * piece / 8;
      }
      payloads p = build_payloads(pb, piece, group, header, 1, ps);
      predicate_send(pb, emit_send(pb, SFID_DC1, desc | bits, p,
                                   dst ? operand(dst) : operand(), rlen,
                                   header != nullptr, desc_val),
                     pmask, group);
   });
   in->remove();
}

void
lower_byte_scattered(shader &s, instr *in)
{
   const bool write = in->op == opcode::byte_scattered_write_logical;
   const unsigned bits = imm_of(in, write ? 3 : 2, "the bit size");
   const unsigned ds = bits == 8 ? 0 : bits == 16 ? 1 : 2;
   const operand pmask = predicate_mask(s, in);
   for_each_piece(s, in, 16, [&](const builder &pb, unsigned piece,
                                 unsigned group, value *dst) {
      uint32_t bti = 0;
      value *desc_val = surface_index(pb, in->src(0), &bti, in);
      std::vector<param> ps = {make_param(in->src(1))};
      if (write)
         ps.push_back(make_param(in->src(2)));
      payloads p = build_payloads(pb, piece, group, nullptr, 0, ps);
      const unsigned ctrl = (piece == 16 ? 1u : 0u) | ds << 2;
      predicate_send(pb, emit_send(pb, SFID_DC0,
                                   dp_desc(0, write ? DC_BYTE_SCATTERED_WRITE
                                                    : DC_BYTE_SCATTERED_READ, ctrl) | bti,
                                   p, dst ? operand(dst) : operand(),
                                   write ? 0 : piece / 8, false, desc_val),
                     pmask, group);
   });
   in->remove();
}

/* Fence: a data-cache memory fence with commit (brw_memory_fence), whose
 * one-GRF response is waited on by reading it; barrier: the gateway
 * message with the barrier id from g0 (brw's BARRIER: header dword 2 =
 * g0.2 bits 27:24 at 15:12... as brw, a copy of g0.2 masked), then `wait`
 * on n0; thread end: an EOT message to the thread spawner.
 */
void
lower_sync(shader &s, instr *in)
{
   builder b(&s);
   b.before(in);
   const builder nb = b.exec(8).nomask();
   switch (in->op) {
   case opcode::memory_fence: {
      value *header = g0_copy(b);
      value *ack = s.create_value(reg_file::ssa, data_type::u32, 8, 1);
      payloads p;
      p.p0 = operand(header);
      p.mlen = 1;
      const unsigned bti = in->src(0).is_imm() ? in->src(0).imm : 0;
      /* Message control bit 5: commit enable (a response to wait on). */
      emit_send(nb, SFID_DC0, dp_desc(bti, DC_MEMORY_FENCE, 1u << 5), p,
                operand(ack), 1, true);
      /* The fence completes when its response arrives: a NoMask move of
       * the response stalls until then.
       */
      nb.mov(data_type::u32, operand(ack));
      break;
   }
   case opcode::barrier: {
      /* Barrier message (gateway opcode 4): dword 2 of the header holds
       * the barrier id, g0.2 bits 27:24, at bits 27:24.
       */
      value *header = nb.wlr(data_type::u32);
      nb.mov(operand(header), operand::imm_u32(0));
      operand dw2(header);
      dw2.offset = 8;
      operand g02(hw_grf(s, 0));
      g02.offset = 8;
      b.exec(1).nomask().and_(dw2, g02, operand::imm_u32(0x0f000000));
      payloads p;
      p.p0 = operand(header);
      p.mlen = 1;
      emit_send(nb, SFID_GATEWAY, 4, p, operand(), 0, false);
      nb.emit(opcode::wait, {}, {});
      break;
   }
   case opcode::thread_end_logical: {
      value *header = g0_copy(b);
      payloads p;
      p.p0 = operand(header);
      p.mlen = 1;
      /* Opcode 0 (dereference resource), root thread, bit 4: do not
       * dereference the URB (brw's generate_cs_terminate).
       */
      instr *send = emit_send(nb, SFID_THREAD_SPAWNER, 1u << 4, p, operand(),
                              0, false);
      send->flags |= INSTR_EOT;
      break;
   }
   default:
      throw internal_error("lower_sync: not a synchronization op");
   }
   in->remove();
}

} /* anonymous namespace */

bool
writes_memory(opcode op)
{
   switch (op) {
   case opcode::untyped_write_logical: case opcode::untyped_atomic_logical:
   case opcode::typed_write_logical: case opcode::typed_atomic_logical:
   case opcode::byte_scattered_write_logical:
      return true;
   default:
      return false;
   }
}

void
lower_dataport(shader &s, instr *in)
{
   switch (in->op) {
   case opcode::uniform_block_read_logical:
      lower_uniform_block_read(s, in);
      return;
   case opcode::varying_pull_constant_logical:
      lower_varying_pull(s, in);
      return;
   case opcode::untyped_read_logical:
   case opcode::untyped_write_logical:
   case opcode::untyped_atomic_logical:
   case opcode::typed_read_logical:
   case opcode::typed_write_logical:
   case opcode::typed_atomic_logical:
      lower_surface(s, in);
      return;
   case opcode::byte_scattered_read_logical:
   case opcode::byte_scattered_write_logical:
      lower_byte_scattered(s, in);
      return;
   case opcode::memory_fence:
   case opcode::barrier:
   case opcode::thread_end_logical:
      lower_sync(s, in);
      return;
   default:
      throw internal_error("lower_dataport: not a data-port op");
   }
}

} /* namespace ibis::lowering */
