/*
 * IBIS_DEBUG: a comma-separated list of stages to dump to stderr, in the
 * manner of INTEL_DEBUG.  "IBIS_DEBUG=nir,ir,asm" or "IBIS_DEBUG=all".
 */
#pragma once

#include <cstdint>
#include <string>

namespace ibis {

enum debug_flag : uint64_t {
   DEBUG_NIR      = 1ull << 0,  /* the NIR as read */
   DEBUG_IR       = 1ull << 1,  /* ibis IR after translation */
   DEBUG_OPT      = 1ull << 2,  /* ibis IR after each optimization pass */
   DEBUG_RA       = 1ull << 3,  /* register allocation decisions */
   DEBUG_ASM      = 1ull << 4,  /* final disassembly */
   DEBUG_STATS    = 1ull << 5,  /* the shader-db stats line */
   DEBUG_VALIDATE = 1ull << 6,  /* run the IR validator after every pass */
   DEBUG_SCHED    = 1ull << 7,  /* scheduling decisions */
   DEBUG_LOWER    = 1ull << 8,  /* ibis IR after lowering */
};

/* Parses a flag list; unknown names throw ibis::error naming them. */
uint64_t parse_debug_flags(const std::string &list);

/* The flags from the IBIS_DEBUG environment variable, read once. */
uint64_t debug_flags();

static inline bool
debug_enabled(uint64_t flag)
{
   return (debug_flags() & flag) != 0;
}

} /* namespace ibis */
