/* Generated from ibis_opcodes.py by ibis_opcodes_gen.py: do not edit. */
#pragma once

#include <cstdint>

namespace ibis {

enum class opcode : uint16_t {
% for o in opcodes:
   ${o.cname},
% endfor
};

constexpr unsigned num_opcodes = ${len(opcodes)};

enum class latency_class : uint8_t {
% for l in latency_classes:
   ${l},
% endfor
};

enum class opcode_kind : uint8_t {
% for k in kinds:
   ${k},
% endfor
};

struct opcode_info {
   const char *name;
   int8_t num_srcs;      /* -1: any number */
   int8_t num_dsts;      /* -1: any number */
   opcode_kind kind;
   latency_class latency;
   bool commutative;     /* sources 0 and 1 may be swapped */
   bool side_effects;    /* never removed or reordered across other effects */
   bool is_send;         /* a message to a shared function */
   bool writes_accum;    /* implicitly writes the accumulator */
   bool reads_accum;     /* implicitly reads the accumulator */
   bool writes_flag;     /* always has a conditional modifier and flag def */
   const char *math_function;         /* MATH function name, or null */
   const char *const *src_names;      /* num_srcs slot names, or null */
};

extern const opcode_info opcode_infos[num_opcodes];

static inline const opcode_info &
op_info(opcode op)
{
   return opcode_infos[unsigned(op)];
}

static inline const char *
op_name(opcode op)
{
   return op_info(op).name;
}

/* Looks an opcode up by its text name; false if there is none. */
bool opcode_from_name(const char *name, opcode *op);

/* Named source slots of the opcodes that have them, e.g. tex_logical_src::lod. */
% for o in opcodes:
% if o.src_names:
namespace ${o.name}_src {
enum : unsigned {
% for s in o.src_names:
   ${s},
% endfor
};
}
% endif
% endfor

} /* namespace ibis */
