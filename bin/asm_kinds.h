/*
 * Where a program's instructions go: each instruction of a Gen disassembly
 * (Mesa's i965 syntax, as brw's brw-asm files and ibis-shaderdb --asm-dir
 * write it) sorted into one kind, so that ibis-report --kinds can say which
 * kinds ibis has more of than brw.  The classification reads text only;
 * docs/compiler.md (ibis-report) describes the heuristics.
 */
#ifndef IBIS_BIN_ASM_KINDS_H
#define IBIS_BIN_ASM_KINDS_H

#include <array>
#include <string>

namespace ibis {

enum asm_kind {
   KIND_MOV_HEADER,    /* message header assembly: NoMask mov into a payload, copies of g0/g1 */
   KIND_MOV_PAYLOAD,   /* other mov into a later send's payload */
   KIND_MOV_PHI,       /* register mov just before a flow instruction (parallel copy) */
   KIND_MOV_CONST,     /* mov of an immediate */
   KIND_MOV_OTHER,     /* any other mov (copies, conversions, saturates) */
   KIND_ALU,
   KIND_MATH,
   KIND_SEND,
   KIND_FLOW,
   KIND_NOP,
   NUM_ASM_KINDS
};

extern const char *const asm_kind_names[NUM_ASM_KINDS];

using asm_kind_counts = std::array<unsigned, NUM_ASM_KINDS>;

/* Counts the instructions of a whole disassembly by kind.  Lines that are
 * not instructions (stats headers, "START B0", send descriptions on their
 * own line, comments, labels) are skipped.
 */
asm_kind_counts classify_asm(const std::string &text);

} /* namespace ibis */

#endif
