/*
 * Helpers shared by the optimization passes.
 */
#pragma once

#include <vector>

#include "ir/ibis_ir.h"

namespace ibis {

/* The operand a use reads (a source, the predicate or the preserve). */
operand use_operand(const use &u);

/* Makes use u read o instead.  A predicate takes only o's value. */
void set_use(const use &u, const operand &o);

/* Points every use of from at to, keeping each use's type, offset, region
 * and modifiers.  The two values must have the same layout.
 */
void replace_uses(value *from, value *to);

/* The writes of a WLR value in program order; instruction numbers must be
 * current (shader::renumber()).
 */
std::vector<instr *> wlr_writes(const value *v);

/* Is o a region that reads every channel of its value in order, as an
 * operand without a region does?
 */
bool is_identity_region(const operand &o, unsigned exec_size);

/* and, or, xor, not: on Gen8+ a negate source modifier is a bitwise not. */
bool is_logic_op(opcode op);

/* Applies abs, then neg, to the bits of an immediate of type t, as the
 * hardware would to a register source of an arithmetic instruction, or
 * with logic to one of a logic op (neg is a bitwise not, abs has no
 * meaning); false where the type has no such modifier (packed vectors).
 */
bool fold_imm_mods(data_type t, uint64_t *imm, bool neg, bool abs,
                   bool logic = false);

/* The constant o reads, with o's type and modifiers applied as an
 * instruction of kind logic (is_logic_op) would: an immediate, or a
 * whole-value mov of an immediate of the same bit size.
 */
bool const_operand(const operand &o, uint64_t *bits, bool logic = false);

/* Calls fn on every instruction in program order (fn may remove the one
 * it gets); true if any call returned true.
 */
bool for_each_instr(shader &s, bool (*fn)(instr *));

/* Replaces in, which writes one value, by "mov dst, src" with the same
 * execution size, group, NoMask, saturate and conditional modifier (and
 * flag definition, unless drop_cmod).  Returns the mov.
 */
instr *replace_with_mov(instr *in, const operand &src, bool drop_cmod = false);

/* May in move to another block that its operands' definitions dominate
 * (sink, licm)?  An ALU or math instruction (or, with scalar_loads, a
 * NoMask width-1 constant-buffer load) writing one read SSA value, with
 * no predicate, flag, accumulator, preserve or side effect, reading only
 * single-definition SSA values, push constants, attributes and immediates.
 */
bool is_movable_expression(const instr *in, bool scalar_loads = false);

/* Would cse number in (a pure expression writing only SSA/FLAG values)? */
bool is_numbered_expression(const instr *in);

/* An expression's value-numbering key (expression_key) and its hash, for
 * cse's table and hoist's groups.
 */
using vn_key = std::vector<uint64_t>;

struct key_hash {
   size_t operator()(const vn_key &k) const
   {
      uint64_t h = 0xcbf29ce484222325ull;
      for (uint64_t w : k) {
         h ^= w;
         h *= 0x100000001b3ull;
         h ^= h >> 29;
      }
      return h;
   }
};

/* Slots of an open table for up to n keys: a power of two at least twice
 * n (at most half full), 16 or more.
 */
inline size_t
key_table_size(size_t n)
{
   size_t size = 16;
   while (size < 2 * n)
      size *= 2;
   return size;
}

/* Appends cse's key of one instruction to k: two instructions with equal
 * keys compute the same results from the same operands.  With pred_as,
 * a predicate is keyed as if it were pred_as.
 */
void expression_key(std::vector<uint64_t> &k, const instr *in,
                    const value *pred_as = nullptr);

} /* namespace ibis */
