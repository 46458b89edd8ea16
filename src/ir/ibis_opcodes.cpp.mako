/* Generated from ibis_opcodes.py by ibis_opcodes_gen.py: do not edit. */
#include "ir/ibis_opcodes.h"

#include <cstring>

namespace ibis {

% for o in opcodes:
% if o.src_names:
static const char *const ${o.name}_src_names[] = {
   ${', '.join('"%s"' % s for s in o.src_names)},
};
% endif
% endfor

const opcode_info opcode_infos[num_opcodes] = {
% for o in opcodes:
   {"${o.name}", ${o.num_srcs}, ${o.num_dsts}, opcode_kind::${o.kind},
    latency_class::${o.latency}, ${str(o.commutative).lower()},
    ${str(o.side_effects).lower()}, ${str(o.is_send).lower()},
    ${str(o.writes_accum).lower()}, ${str(o.reads_accum).lower()},
    ${str(o.writes_flag).lower()},
    ${'"%s"' % o.math_function if o.math_function else 'nullptr'},
    ${o.name + '_src_names' if o.src_names else 'nullptr'}},
% endfor
};

bool
opcode_from_name(const char *name, opcode *op)
{
   /* The table is small; a linear scan keeps this free of static state. */
   for (unsigned i = 0; i < num_opcodes; i++) {
      if (strcmp(opcode_infos[i].name, name) == 0) {
         *op = opcode(i);
         return true;
      }
   }
   return false;
}

} /* namespace ibis */
