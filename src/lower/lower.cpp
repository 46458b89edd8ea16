/*
 * lower(): the driver.  Walks the shader once, hands every logical and
 * non-surviving pseudo instruction to its lowering, then legalizes every
 * instruction for its hardware pieces, and marks the shader lowered.
 */
#include "lower/lower.h"

#include "ir/ibis_pass.h"
#include "util/ibis_error.h"

namespace ibis {

void
lower_instr(shader &s, instr *in, const device_info &dev)
{
   (void)s;
   (void)dev;
   throw error("lower: cannot lower " + in->str());
}

void
lower(shader &s, const device_info &dev)
{
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         const opcode_kind k = in->info().kind;
         if (k == opcode_kind::logical)
            lower_instr(s, in, dev);
      }
   }
   s.lowered = true;
}

} /* namespace ibis */
