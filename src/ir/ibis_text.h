/*
 * The IR as text: printer and parser (syntax in docs/ir.md).
 */
#pragma once

#include <memory>
#include <string>

#include "ir/ibis_ir.h"

namespace ibis {

/* Parses a whole shader.  Errors throw ibis::error as "file:line:col: msg".
 * The result has its CFG built but is not validated.
 */
std::unique_ptr<shader> parse_shader(const std::string &text,
                                     const std::string &filename = "<input>");

std::string operand_str(const operand &o);
std::string imm_str(const operand &o);
std::string block_label_str(const block *b);

/* The execution size and group an instruction gets when the text does not
 * say: those of its first destination (or flag def), else the dispatch
 * width from channel 0.
 */
void default_exec(const instr *in, unsigned dispatch_width, unsigned *exec,
                  unsigned *group);

/* Prints the shader to stderr when IBIS_DEBUG has `flag` (e.g. DEBUG_IR). */
void debug_print(const shader &s, uint64_t flag, const char *when);

} /* namespace ibis */
