/*
 * Uniform branches: an if on a flag that every channel computes alike
 * (from push constants, scalar loads and immediates) sends all channels
 * the same way, so it needs no mask.  Code generation makes it a JMPI
 * over the then part, and its else a JMPI over the else part, instead of
 * IF, ELSE and ENDIF: one instruction fewer per if, as IGC does for
 * uniform branches.
 *
 * The JMPI reads channel 0's flag bit whether channel 0 is enabled or
 * not, so the flag's write becomes NoMask.  That write only touches the
 * flag's own bits: flags are allocated by program-order intervals, which
 * already hold for masked writes.  This runs after allocation, whose flag
 * spilling turns a flag into a compare of a per-channel GRF.
 */
#include "codegen/codegen.h"

namespace ibis {

bool
mark_uniform_branches(shader &s)
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      instr *in = b->last();
      if (!in || in->op != opcode::if_ || (in->flags & INSTR_UNIFORM))
         continue;
      value *f = in->predicate();
      instr *d = uniform_flag_def(f);
      if (!d || f->group != 0)
         continue;
      /* Every link of a compare chain: each reads the one before. */
      for (; d; d = d->predicate() ? d->predicate()->def() : nullptr)
         d->flags |= INSTR_WE_ALL;
      in->flags |= INSTR_UNIFORM;
      progress = true;
   }
   return progress;
}

} /* namespace ibis */
