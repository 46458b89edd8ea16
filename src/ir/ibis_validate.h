/*
 * The IR validator (design §2): SSA and WLR form, sizes, types, regions,
 * flags, phis, and after register allocation that no two interfering
 * values share a register.
 */
#pragma once

#include <string>
#include <vector>

#include "ir/ibis_ir.h"

namespace ibis {

/* Every rule the shader breaks, one message each:
 *    "block1: '%5:f32x16 = add %3, %4': <what is wrong> [rule]"
 * or, for a value rather than one instruction,
 *    "%4: <what is wrong> [rule]".
 */
std::vector<std::string> validate_errors(shader &s);

/* Throws ibis::error with all messages when the shader is not valid; `when`
 * ("after copy-prop") goes into the first line.
 */
void validate(shader &s, const char *when = nullptr);

/* The rules of the lowered form (docs/backend.md §1, docs/lower.md):
 * opcodes that survive lowering, send payload and response sizes, and
 * Gen9's region, type, immediate and three-source rules for every
 * hardware piece.  validate_errors() adds them for shaders marked
 * lowered (ibis_validate_lowered.cpp).
 */
std::vector<std::string> validate_lowered_errors(const shader &s);

/* Channels of one Gen9 hardware instruction for `in` (the width code
 * generation splits it by; lower.h's hw_exec_size()).
 */
unsigned lowered_piece_width(const instr *in);

} /* namespace ibis */
