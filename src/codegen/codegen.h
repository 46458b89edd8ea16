/*
 * Code generation: allocated IR to Gen instructions (docs/backend.md §3),
 * compaction, disassembly and the stats line of design.md §4.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"
#include "isa/isa.h"

namespace ibis {

/* shader-db's figures for one program, as brw counts them. */
struct shader_stats {
   unsigned instructions = 0;   /* hardware instructions but POW-erratum NOPs */
   unsigned loops = 0;
   unsigned cycles = 0;         /* estimate_cycles(), brw's units */
   unsigned spills = 0, fills = 0;
   unsigned sends = 0;
   unsigned promoted_constants = 0;
   unsigned bytes_uncompacted = 0, bytes_compacted = 0;
   std::string sched_mode = "none";
};

struct codegen_result {
   std::vector<uint8_t> binary;  /* encoded, compacted where legal */
   std::string disasm;           /* i965_disasm syntax, when asked for */
   shader_stats stats;
};

/* Marks each if whose flag every channel computes alike as uniform (a
 * JMPI in the code) and makes that flag's write NoMask; run on the
 * allocated program.  Returns whether it marked any.
 */
bool mark_uniform_branches(shader &s);

/* Generates code for allocated s.  Throws ibis::error for a value without
 * a register or an instruction Gen cannot encode.  The disassembly is
 * left empty unless want_disasm or IBIS_DEBUG=asm asks for it (it costs
 * a few percent of a compile and most callers never read it).  cycles:
 * estimate_cycles() of s when the caller has it (schedule_post_ra()
 * returns it), else null and it is estimated here.
 */
codegen_result generate_code(const shader &s, const device_info &dev,
                             bool want_disasm = true,
                             const unsigned *cycles = nullptr);

/* Mesa's EU validation (isa::validate) of every instruction of a binary
 * generate_code() made for dev; throws ibis::internal_error with the
 * number of instructions that break a rule and the first few.  The
 * compiler runs it in debug builds and under IBIS_DEBUG=validate.
 */
void validate_code(const std::vector<uint8_t> &binary, const device_info &dev);

/* i965_disasm text of a binary generate_code() made for dev. */
std::string disassemble(const std::vector<uint8_t> &binary,
                        const device_info &dev);

/* "FS SIMD16 shader: 42 inst, 0 loops, 300 cycles, 0:0 spills:fills,
 * 3 sends, scheduled with mode top-down, Promoted 0 constants, compacted
 * 672 to 512 bytes."
 */
std::string stats_line(const shader &s, const shader_stats &st);

} /* namespace ibis */
