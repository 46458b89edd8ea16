/*
 * The NIR ALU opcode table (generated from from_nir_alu_table.py).
 */
#pragma once

#include <cstdint>

#include "ir/ibis_ir.h"
#include "nir/nir.h"

namespace ibis {

struct alu_operand_spec {
   enum kind_t : uint8_t { no_src, nir_src, temp_src, imm_src } kind;
   uint8_t index;         /* NIR source or temporary */
   int8_t comp;           /* component of a fixed-size source, -1: per component */
   char base;             /* 'f', 's', 'u', 'b'; '0': the temporary's own type */
   uint8_t bits;          /* 0: the operation's size */
   bool neg;
   bool abs;
   uint8_t special;       /* immediates: 1 = size - 1, 2 = size */
   uint64_t imm;
};

struct alu_step {
   opcode op;
   cond_mod cmod;
   bool saturate;
   char dst_base;
   uint8_t dst_bits;
   int8_t dst_temp;       /* -1: the result */
   uint8_t num_srcs;
   alu_operand_spec srcs[3];
};

enum class alu_handler : uint8_t {
   none,          /* run the steps */
   forward,       /* mov, vecN: components pass through */
   bool_select,   /* bcsel: predicated sel on the condition's flag */
   fsign,
   extract,       /* arg: bits | 0x80 if signed */
   insert,        /* arg: bits */
   mul_high,      /* imul_high, umul_high: mul to acc0 + mach */
   f2f16_rtz,     /* f2f16_rtz, pack_half_2x16_rtz_split */
   unsupported,
};

struct alu_recipe {
   const char *name;
   uint16_t first_step;
   uint16_t num_steps;
   alu_handler handler;
   uint8_t arg;
   bool ends_in_cmp;
   const char *why;       /* unsupported: the reason */
};

extern const alu_step alu_steps[];

const alu_recipe &alu_recipe_for(nir::alu_op op);

/* The result is a comparison that can define a flag directly. */
static inline bool
alu_ends_in_cmp(nir::alu_op op)
{
   return alu_recipe_for(op).ends_in_cmp;
}

static inline bool
alu_is_bool_select(nir::alu_op op)
{
   return alu_recipe_for(op).handler == alu_handler::bool_select;
}

} /* namespace ibis */
