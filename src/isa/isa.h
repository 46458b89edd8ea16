/*
 * The GEN instruction set: Gen8/Gen9 encoding, and Gen11 (its renumbered
 * types) for everything but the align1 three-source form.
 *
 * One decoded instruction is an isa::inst: a plain struct with every field
 * the hardware has, in natural units (exec size 16, not its log2; strides
 * in elements; sub-register offsets in bytes).  encode() turns it into the
 * native 128-bit form, compact() into the 64-bit form where the Gen9
 * compaction tables allow, decode() reads either form back, and
 * disassemble() prints Mesa's i965_disasm syntax, which assemble() reads.
 *
 * The enums opcode, type, cond_mod, math_fn, sfid and pred_ctrl are
 * generated from isa_tables.py into isa_tables.h; their values are the
 * hardware encodings on Gen8/Gen9.
 */
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/isa_tables.h"

namespace ibis::isa {

enum class gen : uint8_t { gen8 = 8, gen9 = 9, gen11 = 11, gen12 = 12 };

/* Register files, by their Gen8 encoding (2 was the pre-Gen8 MRF). */
enum class reg_file : uint8_t { arf = 0, grf = 1, imm = 3 };

/* Architecture register kinds: the high nibble of an ARF register number;
 * the low nibble is the index (acc1 is 0x21, f1 is 0x31).
 */
enum class arf : uint8_t {
   null = 0x00, address = 0x10, acc = 0x20, flag = 0x30, mask = 0x40,
   mask_stack = 0x50, mask_stack_depth = 0x60, state = 0x70, control = 0x80,
   notification = 0x90, ip = 0xa0, tdr = 0xb0, timestamp = 0xc0,
};

enum class access_mode : uint8_t { align1 = 0, align16 = 1 };
enum class thread_ctrl : uint8_t { normal = 0, atomic = 1, switch_ = 2 };

/* Region value that stands for VxH (indirect with one address per row). */
constexpr uint8_t vstride_vxh = 0xff;
/* Align16 swizzles: two bits per channel, x in the low bits. */
constexpr uint8_t swizzle_xyzw = 0xe4;
constexpr uint8_t swizzle_xxxx = 0x00;

constexpr uint8_t
make_swizzle(unsigned x, unsigned y, unsigned z, unsigned w)
{
   return uint8_t(x | y << 2 | z << 4 | w << 6);
}

/* An operand: destination, source or immediate. */
struct reg {
   reg_file file = reg_file::arf;
   uint8_t nr = 0;             /* GRF number, or ARF number (arf | index) */
   uint8_t subnr = 0;          /* byte offset inside the register */
   isa::type type = isa::type::UD;
   bool negate = false;        /* "-" (or "~" on logic opcodes) */
   bool abs = false;

   /* Align1 region, in elements.  A destination uses hstride only.  In
    * three-source (align16) instructions <0,1,0> means "replicate".
    */
   uint8_t vstride = 0;
   uint8_t width = 1;
   uint8_t hstride = 0;

   uint8_t swizzle = swizzle_xyzw;  /* align16 sources */
   uint8_t writemask = 0xf;         /* align16 destinations */

   /* Indirect addressing: g[a0.ia_subnr + ia_imm]. */
   bool indirect = false;
   uint8_t ia_subnr = 0;       /* a0 sub-register, as encoded */
   int16_t ia_imm = 0;         /* byte offset, signed 10 bits */

   uint64_t imm = 0;           /* immediate bits (file == imm) */

   bool is_null() const { return file == reg_file::arf && (nr & 0xf0) == 0; }
   isa::arf arf_kind() const { return isa::arf(nr & 0xf0); }
};

/* ---- SEND message descriptors (fields in msg::, isa_tables.h) ---- */

constexpr uint32_t
desc_field(uint32_t desc, field f)
{
   return (desc >> f.lo) & ((1u << (f.hi - f.lo + 1)) - 1);
}

constexpr uint32_t
desc_bits(field f, uint32_t value)
{
   return (value & ((1u << (f.hi - f.lo + 1)) - 1)) << f.lo;
}

constexpr unsigned desc_mlen(uint32_t desc) { return desc_field(desc, msg::mlen); }
constexpr unsigned desc_rlen(uint32_t desc) { return desc_field(desc, msg::rlen); }
constexpr bool desc_header_present(uint32_t desc) { return desc_field(desc, msg::header_present); }
constexpr unsigned ex_desc_ex_mlen(uint32_t ex_desc) { return desc_field(ex_desc, msg::ex_mlen); }

/* The part common to every message: payload and response lengths in
 * registers, and whether the payload starts with a header.  OR it with
 * one of the function-specific parts below.
 */
constexpr uint32_t
message_desc(unsigned mlen, unsigned rlen, bool header)
{
   return desc_bits(msg::mlen, mlen) | desc_bits(msg::rlen, rlen) |
          desc_bits(msg::header_present, header);
}

constexpr uint32_t
sampler_desc(unsigned bti, unsigned sampler, sampler_msg type, sampler_simd simd,
             bool half_precision = false)
{
   return desc_bits(msg::binding_table_index, bti) | desc_bits(msg::sampler_index, sampler) |
          desc_bits(msg::sampler_msg_type, unsigned(type)) |
          desc_bits(msg::sampler_simd_mode, unsigned(simd)) |
          desc_bits(msg::sampler_return_format, half_precision);
}

constexpr uint32_t
urb_desc(urb_op op, unsigned global_offset, bool per_slot_offset, bool channel_mask)
{
   return desc_bits(msg::urb_opcode, unsigned(op)) |
          desc_bits(msg::urb_global_offset, global_offset) |
          desc_bits(msg::urb_per_slot_offset, per_slot_offset) |
          desc_bits(msg::urb_channel_mask_present, channel_mask);
}

/* Data-port messages (data cache, data cache 1, constant cache). */
constexpr uint32_t
dp_desc(unsigned bti, unsigned msg_type, unsigned msg_control)
{
   return desc_bits(msg::binding_table_index, bti) | desc_bits(msg::dp_msg_type, msg_type) |
          desc_bits(msg::dp_msg_control, msg_control);
}

/* Render-target write (render cache message type 12). */
constexpr uint32_t
fb_write_desc(unsigned bti, rt_write_subtype subtype, bool last_rt, bool slot_group_hi)
{
   return desc_bits(msg::binding_table_index, bti) | desc_bits(msg::rc_msg_type, 12) |
          desc_bits(msg::rt_subtype, unsigned(subtype)) | desc_bits(msg::rt_last, last_rt) |
          desc_bits(msg::rt_slot_group, slot_group_hi);
}

/* A SENDS extended descriptor with the second payload's length. */
constexpr uint32_t
sends_ex_desc(unsigned ex_mlen)
{
   return desc_bits(msg::ex_mlen, ex_mlen);
}

struct inst {
   isa::opcode op = isa::opcode::nop;
   uint8_t exec_size = 8;      /* 1, 2, 4, 8, 16 or 32 */
   uint8_t group = 0;          /* first channel: 0, 4, 8, ... 28 (1Q, 2N, ...) */
   access_mode access = access_mode::align1;

   pred_ctrl pred = pred_ctrl::none;
   bool pred_inv = false;
   uint8_t flag_nr = 0;        /* f0/f1, shared by predicate and cond mod */
   uint8_t flag_subnr = 0;     /* f0.0/f0.1 */
   isa::cond_mod cmod = isa::cond_mod::none;
   isa::math_fn math = isa::math_fn::none;  /* op == math only */

   bool saturate = false;
   bool mask_disable = false;  /* WE_all / NoMask */
   bool no_dd_clear = false;
   bool no_dd_check = false;
   thread_ctrl thread = thread_ctrl::normal;
   bool acc_wr = false;        /* AccWrEnable; BranchCtrl on branches */
   bool debug = false;         /* breakpoint */
   bool compacted = false;     /* set by decode(); encode() ignores it */
   bool eot = false;

   reg dst;
   std::array<reg, 3> src;

   /* Branch offsets in bytes, relative to this instruction. */
   int32_t jip = 0;
   int32_t uip = 0;
   /* The JIP counts the final (compacted) layout already: a JMPI given
    * by its distance, as Mesa prints it.  encode_program() keeps it.
    */
   bool jip_final = false;

   /* SEND, SENDC, SENDS, SENDSC. */
   isa::sfid sfid = isa::sfid::null;
   uint32_t desc = 0;          /* message descriptor, when immediate; bit
                                * 31 is not part of it (it is EOT) */
   uint32_t ex_desc = 0;       /* SENDS extended descriptor, when immediate
                                * (a Gen9 SEND has no room for one) */
   bool desc_indirect = false;     /* descriptor in a0.0 (src[1] on SEND) */
   bool ex_desc_indirect = false;  /* SENDS: extended descriptor in a0 */
   uint8_t ex_desc_subnr = 0;      /* ... in a0.<ex_desc_subnr> */

   unsigned mlen() const { return desc_mlen(desc); }
   unsigned rlen() const { return desc_rlen(desc); }
   bool header_present() const { return desc_header_present(desc); }
   unsigned ex_mlen() const { return ex_desc_ex_mlen(ex_desc); }
};

/* Static properties of opcodes (from isa_tables.py). */
struct opcode_info {
   const char *name;           /* nullptr: not a Gen8/Gen9 opcode */
   uint8_t nsrc;
   uint8_t ndst;
   op_form form;
};
const opcode_info &info(isa::opcode op);
bool is_send(isa::opcode op);
bool is_3src(isa::opcode op);
bool has_jip(isa::opcode op);
bool has_uip(isa::opcode op);

/* Type properties. */
unsigned type_size(isa::type t);
const char *type_name(isa::type t);

/* ---- Operand helpers for building instructions in C++ ---- */
reg grf(unsigned nr, isa::type t, unsigned subnr_elems = 0);
reg null_reg(isa::type t = isa::type::UD);
reg arf_reg(isa::arf kind, unsigned index, isa::type t, unsigned subnr_elems = 0);
reg imm_ud(uint32_t v);
reg imm_d(int32_t v);
reg imm_uw(uint16_t v);
reg imm_w(int16_t v);
reg imm_f(float v);
reg imm_df(double v);
reg imm_uq(uint64_t v);
reg imm_q(int64_t v);
reg imm_v(uint32_t v);
reg imm_uv(uint32_t v);
reg imm_vf(uint32_t v);
/* Regions, returning a copy of r. */
reg region(reg r, unsigned vstride, unsigned width, unsigned hstride);
reg stride(reg r, unsigned hstride);   /* destination stride */
reg scalar(reg r);                     /* <0,1,0> */
reg neg(reg r);
reg abs(reg r);
/* The src1 of a one-source instruction whose src0 is src0: next to an
 * immediate it has the immediate's type (encoded with the immediate's type
 * number, as brw does).
 */
reg unused_src1(const reg &src0);

/* An ALU instruction with default controls; change fields afterwards. */
inst make(isa::opcode op, unsigned exec_size, const reg &dst,
          const reg &src0 = reg(), const reg &src1 = reg(),
          const reg &src2 = reg());
inst make_math(isa::math_fn fn, unsigned exec_size, const reg &dst,
               const reg &src0, const reg &src1);
inst make_send(isa::opcode op, unsigned exec_size, const reg &dst,
               const reg &payload, isa::sfid sfid, uint32_t desc,
               const reg &payload2 = reg(), uint32_t ex_desc = 0);
inst make_branch(isa::opcode op, unsigned exec_size, int32_t jip,
                 int32_t uip = 0);
/* JMPI (1) NoMask by jip bytes from itself (encode() makes the immediate
 * the hardware adds to the next instruction's IP).
 */
inst make_jmpi(int32_t jip);

/* ---- Encoding ---- */

/* A native instruction: bits 0-63 in [0], 64-127 in [1]. */
using native = std::array<uint64_t, 2>;

/* Throws ibis::error if the instruction cannot be encoded. */
native encode(const inst &in, gen g);
/* The compacted form of n, if the Gen8/Gen9 tables can express it. */
bool compact(const native &n, gen g, uint64_t *out);
/* The native form of a compacted instruction. */
native uncompact(uint64_t c, gen g);
/* n with the type changes brw makes before compacting, which do not change
 * what the instruction computes: the type of an absent src1 next to an
 * immediate, 0.0F as 0.0VF, and small D immediates as UD.
 */
native precompact(const native &n, gen g);
/* The compacted form of precompact(n) if it exists, as brw emits code. */
bool compact_for_emit(const native &n, gen g, uint64_t *out);

/* Appends an instruction as bytes (little endian), compacted (after
 * precompact()) when compaction is on and the tables allow it.  Branch
 * offsets must already account for compaction (see assemble()).
 */
void emit(std::vector<uint8_t> &out, const inst &in, gen g, bool compaction);

/* Encodes a program whose branch offsets count 16 bytes per instruction
 * (as parse_asm() gives them, and as a code generator naturally computes
 * them), compacting what can be compacted when compaction is on and moving
 * the branch offsets to match.  Branches themselves stay native.
 */
std::vector<uint8_t> encode_program(std::vector<inst> prog, gen g, bool compaction);

/* The same for a program already encoded instruction by instruction
 * (encoded[i] = encode(prog[i])) but for the branches, whose offsets
 * and fields may have changed since: code generation encodes each
 * instruction as it emits it, to report what cannot be encoded.
 */
std::vector<uint8_t> encode_program(std::vector<inst> prog,
                                    const std::vector<native> &encoded,
                                    gen g, bool compaction);

/* ---- Decoding ---- */

/* Never throws on bad bits: unknown encodings decode to opcode::illegal
 * or out-of-range enum values that disassemble() reports.
 */
inst decode(const native &n, gen g);

struct decoded {
   size_t offset;              /* byte offset in the buffer */
   inst in;
};
/* Decodes a whole program (compacted and native instructions mixed).  A
 * trailing partial instruction is ignored.
 */
std::vector<decoded> decode_program(const uint8_t *data, size_t size, gen g);

/* ---- Text ---- */

/* One instruction in i965_disasm syntax, with a trailing newline (SENDs
 * take two lines).  With labels, branch targets print as "LABELn"; without,
 * as relative byte offsets, which assemble back as well.  A JMPI prints
 * its immediate, the distance from the next instruction ("jmpi(1) 368D"),
 * as brw_disasm does: it has no label.
 */
struct label_map {
   std::map<int64_t, unsigned> numbers;   /* byte offset -> n of "LABELn" */
};
/* Labels for every branch target, numbered as brw_disasm does. */
label_map find_labels(const std::vector<decoded> &program);
std::string disassemble(const inst &in, gen g, size_t offset = 0,
                        const label_map *labels = nullptr);
/* A whole program, with "LABELn:" lines at branch targets. */
std::string disassemble_program(const uint8_t *data, size_t size, gen g);

/* Parses i965_asm syntax.  Errors throw ibis::error "file:line: message". */
std::vector<inst> parse_asm(const std::string &text, gen g,
                            const std::string &filename = "<input>");
/* Parses and encodes; branch labels resolve to byte offsets after
 * compaction when compaction is on.
 */
std::vector<uint8_t> assemble(const std::string &text, gen g, bool compaction,
                              const std::string &filename = "<input>");

/* ---- EU validation (isa_validate.cpp) ---- */

/* The restrictions Mesa's EU validator (brw_eu_validate.c) checks on
 * Gen8/Gen9 code: one message per violated rule, "group: rule", empty
 * when the instruction is valid.  low_power adds the rules of CHV, BXT
 * and GLK (64-bit regioning).  docs/isa.md lists the rules.
 */
std::vector<std::string> validate(const inst &in, gen g, bool low_power = false);
/* Every instruction of a binary: "offset: group: rule: disassembly". */
std::vector<std::string> validate_program(const uint8_t *data, size_t size,
                                          gen g, bool low_power = false);

/* Parses "--gen" arguments: "8", "9", "11", "skl", "bdw", ... */
bool parse_gen(const std::string &s, gen *g);

} /* namespace ibis::isa */
