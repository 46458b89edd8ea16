/*
 * Lowering: optimized IR to the lowered form of docs/backend.md §1, the
 * form code generation accepts.  Logical sends become `send`s with the
 * hardware's descriptors and payloads built by `load_payload`; derivatives,
 * discard and terminate become real instructions; every operand and region
 * is made legal for each hardware piece of its instruction.
 */
#pragma once

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"

namespace ibis {

/* Lowers the whole shader in place and sets s.lowered.  Throws ibis::error
 * naming the instruction for anything it cannot lower.
 */
void lower(shader &s, const device_info &dev);

/* Lowers one logical instruction (e.g. a scratch read or write the
 * allocator inserted for a spill) in place, in an already lowered shader;
 * the instructions it adds go where `in` was.
 */
void lower_instr(shader &s, instr *in, const device_info &dev);

/* Gives every RT write that reads the thread's g0-g1 in place as its
 * header a NoMask copy instead; true if there was one.  The compiler's
 * spilling retry of a SIMD32 program calls it: with g1 live to the end
 * there, the allocator placed a fill before a loop in a register the
 * loop wrote (dolphin/ubershaders/3.fs forced to SIMD32, an invalid
 * allocation).
 */
bool copy_in_place_rt_headers(shader &s);

/* The channels of each hardware instruction code generation splits `in`
 * into (docs/backend.md §1, "Execution size"): in->exec_size when the
 * instruction fits the hardware as it is.
 */
unsigned hw_exec_size(const instr *in, const device_info &dev);

/* Registers the "lower" pass (Skylake GT2) with the pass registry
 * (ir/ibis_pass.h).  Calling it again is a no-op.
 */
/* And/or trees of compares into a chain of compares each predicated on
 * the flag before (lower_flag_chains.cpp); lower() runs it last.
 */
bool lower_flag_chains(shader &s);

void register_lower_passes();

} /* namespace ibis */
