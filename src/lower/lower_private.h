/*
 * Shared pieces of the lowering passes: Gen9 shared-function ids and
 * descriptor fields, payload construction and send emission.
 * Hardware facts: Mesa's brw_eu.h, brw_eu_defines.h and
 * brw_lower_logical_sends.cpp (SKL PRM Vol 2d message descriptors).
 */
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/ibis_builder.h"
#include "lower/lower.h"
#include "util/ibis_error.h"

namespace ibis::lowering {

/* Gen7+ shared function ids (isa_tables.py SFIDS). */
enum sfid : uint32_t {
   SFID_SAMPLER = 2,
   SFID_GATEWAY = 3,
   SFID_RENDER = 5,
   SFID_URB = 6,
   SFID_THREAD_SPAWNER = 7,
   SFID_CONST = 9,
   SFID_DC0 = 10,
   SFID_PIXEL_INTERP = 11,
   SFID_DC1 = 12,
};

/* Descriptor bits common to every message: mlen 28:25, rlen 24:20,
 * header present 19.
 */
inline uint32_t
msg_desc(unsigned mlen, unsigned rlen, bool header)
{
   return (mlen & 0xf) << 25 | (rlen & 0x1f) << 20 | (header ? 1u << 19 : 0);
}
inline unsigned desc_mlen(uint32_t d) { return (d >> 25) & 0xf; }
inline unsigned desc_rlen(uint32_t d) { return (d >> 20) & 0x1f; }
inline bool desc_header(uint32_t d) { return (d >> 19) & 1; }
/* Extended descriptor of a split send: ex_mlen in 9:6. */
inline uint32_t ex_desc_mlen(unsigned ex_mlen) { return (ex_mlen & 0xf) << 6; }
inline unsigned ex_desc_ex_mlen(uint32_t d) { return (d >> 6) & 0xf; }

/* Data port descriptor (Gen8+): BTI 7:0, message control 13:8, type 18:14. */
inline uint32_t
dp_desc(unsigned bti, unsigned msg_type, unsigned msg_control)
{
   return (bti & 0xff) | (msg_control & 0x3f) << 8 | (msg_type & 0x1f) << 14;
}

/* Sampler descriptor (Gen8+): BTI 7:0, sampler 11:8, type 16:12, SIMD
 * mode 18:17 (1 SIMD8, 2 SIMD16), 32-bit return.
 */
inline uint32_t
sampler_desc(unsigned bti, unsigned sampler, unsigned msg_type, unsigned exec)
{
   const unsigned simd = exec == 16 ? 2 : 1;
   return (bti & 0xff) | (sampler & 0xf) << 8 | (msg_type & 0x1f) << 12 |
          simd << 17;
}

/* Bytes of one GRF. */
constexpr unsigned REG = device_info::grf_bytes;

/* The two payloads of a (split) send and their lengths in GRFs. */
struct payloads {
   operand p0, p1;
   unsigned mlen = 0, ex_mlen = 0;
};

/* One per-channel message parameter: a 32-bit operand read for the
 * message's channels (a width-1 value or an immediate is broadcast).
 * `origin` groups parameters that brw would find in one virtual register:
 * payloads are split where the origin first changes (brw's
 * opt_split_sends), so the descriptors' mlen match brw's.
 */
struct param {
   operand op;
   const void *origin;
};

param make_param(const operand &o);

/* The splits a message without header allows, for a caller that weighs
 * them against the other messages (lower_tex's plan).  Each option puts
 * params [0, mid) in payload0 (mid = all: one payload) and lists the
 * sources of each part that would be gathered, as gathered when taken
 * (empty for a part that is a whole value).
 */
struct split_option {
   size_t mid;
   std::vector<operand> gathered[2];
};
struct split_request {
   /* Fill `options` and `dflt` (the split taken otherwise) and build
    * nothing.
    */
   bool collect = false;
   std::vector<split_option> options;
   size_t dflt = 0;
   /* Else, when nonzero: the split to take, if still allowed. */
   size_t take = 0;
};

/* Builds payload0/payload1 for a message of `exec` channels from `group`:
 * a NoMask header value (or null) and per-channel parameters.  With a
 * header, payload0 is the header and the parameters go in payload1;
 * without, the parameters split at the first change of origin (or where
 * `req` says, for a message of one piece).
 */
payloads build_payloads(const builder &b, unsigned exec, unsigned group,
                        value *header, unsigned header_regs,
                        const std::vector<param> &params,
                        split_request *req = nullptr);

/* Emits `send` writing dst (or nothing), with mlen/rlen/header bits added
 * to desc (an immediate, or ORed into a width-1 value desc_val).
 */
instr *emit_send(const builder &b, uint32_t sfid, uint32_t desc,
                 const payloads &p, const operand &dst, unsigned rlen,
                 bool header, value *desc_val = nullptr);

/* The operand for channels [group, group + n) of o, which is read by an
 * instruction covering the value's own channels: offset moved for wider
 * values, unchanged for scalars and immediates.
 */
operand channels_of(const operand &o, unsigned group);

/* A NoMask u32x8 copy of g0 (message headers). */
value *g0_copy(const builder &b);
/* The shader's HW_REG value for gN, created when missing. */
value *hw_grf(shader &s, unsigned nr);

/* Uses of v read component indices below this many (1 when none). */
unsigned components_read(const value *v);

/* Replaces every use of `from` by `to` at `delta` more bytes. */
void replace_uses(value *from, value *to, int delta = 0);

/* Reads operand o as a plain 32-bit value for a payload: modifiers and
 * regions are applied by a mov first.
 */
operand plain(const builder &b, const operand &o);

/* The per-opcode lowerings; each replaces `in` and removes it. */
void lower_scratch(shader &s, instr *in, const device_info &dev);
void lower_urb_write(shader &s, instr *in);
/* RT writes are predicated on live != 0, or on live_flag (inverted with
 * live_flag_inv), the channels still alive after terminates.
 */
void lower_fb_write(shader &s, instr *in, bool header, value *live,
                    value *live_flag = nullptr, bool live_flag_inv = false);
/* Split points chosen for texture messages of one piece
 * (plan_tex_splits).
 */
using tex_plan = std::unordered_map<const instr *, size_t>;
/* Chooses where the payloads of the shader's texture messages split so
 * that the gathered parts need the fewest copies together.
 */
tex_plan plan_tex_splits(shader &s);
void lower_tex(shader &s, instr *in, const tex_plan *plan = nullptr);
/* An immediate 0, or a whole-width SSA mov of one. */
bool is_zero_operand(const operand &o);
void lower_dataport(shader &s, instr *in);
/* The data-port logical ops that write memory (stores and atomics). */
bool writes_memory(opcode op);
void lower_derivative(shader &s, instr *in);
void lower_interp(shader &s, instr *in);
void lower_terminate(shader &s, instr *in);
/* Replaces every discard by updates of an `alive` mask; returns its value
 * at first_write (null without discards).
 */
value *lower_demotes(shader &s, instr *first_write);

/* Makes every instruction's hardware pieces encodable (lower_legalize.cpp). */
void legalize(shader &s, const device_info &dev);

} /* namespace ibis::lowering */
