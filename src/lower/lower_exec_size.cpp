/*
 * hw_exec_size(): the channels of one Gen9 hardware instruction for `in`.
 * The rules live beside the lowered validator (ir/ibis_validate_lowered.cpp,
 * lowered_piece_width()) so that the validator checks exactly the pieces
 * code generation emits.
 */
#include "lower/lower.h"

#include "ir/ibis_validate.h"

namespace ibis {

unsigned
hw_exec_size(const instr *in, const device_info &dev)
{
   (void)dev; /* every target here is Gen9 */
   return lowered_piece_width(in);
}

} /* namespace ibis */
