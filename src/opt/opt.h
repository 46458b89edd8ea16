/*
 * Optimization passes over the ibis IR (design §1): each keeps the shader
 * valid and returns whether it changed it.  WLR values are handled as the
 * seed note asks: a value's whole write sequence is one meta-instruction,
 * so to these passes a WLR value behaves like an SSA value.
 */
#pragma once

#include "ir/ibis_ir.h"

namespace ibis {

/* Removes instructions whose results nobody reads and that have no side
 * effects, whole WLR write sequences included, and conditional modifiers
 * whose flag nobody reads.
 */
bool opt_dce(shader &s);

/* Propagates copies (SSA, uniform broadcasts, completed WLR values),
 * immediates where the hardware takes them, and neg/abs source modifiers.
 */
bool opt_copy_prop(shader &s);

/* Global value numbering over the dominator tree; a WLR write sequence is
 * numbered as one meta-instruction.
 */
bool opt_cse(shader &s);

/* Folds ALU instructions of constants where the host computes exactly what
 * Gen9 does.
 */
bool opt_constant_fold(shader &s);

/* x*1, x+0, x&~0, x|0, ...: identities and absorbing constants to movs. */
bool opt_algebraic(shader &s);

/* "f = cmp.nz x, 0" of a boolean x: x's definition (a logic op or cmp of
 * the same width in the same block) makes the flag itself, and a width-1
 * cmp read by a wider predicate is compared at that width.
 */
bool opt_cmod_prop(shader &s);

/* After lowering: each immediate that legalization loaded into a width-1
 * value for several readers is loaded once, in the block dominating them
 * all (a float and its negation share it where readers can negate).
 */
bool opt_combine_constants(shader &s);

/* "x = mov.sat y", y's only reader: y's definition saturates instead. */
bool opt_sat_prop(shader &s);

/* After lowering, SIMD16: 32-bit integer phis whose values fit a word
 * (range analysis) or whose high half nobody reads (demanded bits) become
 * 16-bit phis, one GRF instead of two (opt_narrow_phis.cpp).
 */
bool opt_narrow_phis(shader &s);

/* Removes an if/else arm that only computes (a few ALU instructions) what
 * the phis at its endif read, with its else: the instructions move before
 * the if, and an empty then-arm inverts the if (docs/passes.md).  Saves
 * the else and the NOP before its endif; phis at the endif take the
 * removed arm's value from the if-block.
 */
bool opt_empty_else(shader &s);

/* Equal scalar expressions (NoMask, exec size 1: ALU instructions and
 * constant-buffer loads), and full-width ALU ones whose values take one
 * GRF, in arms where none dominates another are computed once, at the end
 * of the nearest block dominating them all; a comparison whose flag only
 * predicates such expressions, equal in every arm, moves with them
 * (opt_hoist.cpp).
 */
bool opt_hoist(shader &s);

/* An ALU instruction before an if whose value only one arm reads moves
 * into that arm, so that threads skipping the arm skip it too (never into
 * a loop; opt_sink.cpp).
 */
bool opt_sink(shader &s);

/* An ALU instruction (or scalar constant-buffer load) of a loop's block
 * that runs on every iteration, whose operands are all defined before the
 * loop, moves before the do: computed once instead of once per iteration
 * (opt_licm.cpp).
 */
bool opt_licm(shader &s);

/* Registers "dce", "copy-prop", "cse", "constant-fold", "algebraic",
 * "cmod-prop", "sat-prop", "combine-constants", "narrow-phis",
 * "empty-else", "hoist", "sink" and "licm"
 * with the pass registry (ir/ibis_pass.h).  Tools call it at start-up;
 * calling it again is a no-op.
 */
void register_opt_passes();

} /* namespace ibis */
