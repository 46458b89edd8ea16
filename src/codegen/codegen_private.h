/*
 * Code generation internals: the generator that walks allocated IR and
 * appends Gen instructions (docs/codegen.md).
 */
#pragma once

#include <vector>

#include "codegen/codegen.h"

namespace ibis::codegen_internal {

/* What the stats line needs to know about one emitted instruction. */
struct emitted {
   const instr *from = nullptr;  /* the IR instruction it came from */
   bool errata_nop = false;      /* the POW workaround NOP brw leaves out */
};

/* One piece of an IR instruction: its channels relative to the
 * instruction's first channel and their count.
 */
struct piece {
   unsigned first = 0;
   unsigned size = 0;
};

/* An instruction's pieces (at most one per channel), without a heap
 * allocation per instruction.
 */
struct piece_list {
   piece items[32];
   unsigned count = 0;

   const piece *begin() const { return items; }
   const piece *end() const { return items + count; }
};

class generator {
public:
   generator(const shader &s, const device_info &dev) : s(s), dev(dev) {}

   void run();

   std::vector<isa::inst> insts;
   std::vector<isa::native> encoded;   /* of insts, but for branches */
   std::vector<emitted> info;

private:
   const shader &s;
   const device_info &dev;
   const instr *cur = nullptr;

   /* Open if/else and loops while walking, by index in insts. */
   /* An open if: its IF (or JMPI, uniform) and ELSE (or JMPI). */
   struct if_frame { int if_idx, else_idx; bool uniform; };
   std::vector<if_frame> ifs;
   std::vector<int> loop_starts;

   void check_instr(const instr *in);
   void emit_instr(const instr *in);
   void emit_alu(const instr *in);
   void emit_send(const instr *in);
   void emit_cf(const instr *in);
   void emit_copy(const instr *in);
   void emit_load_payload(const instr *in);
   void emit_find_live_channel(const instr *in);
   void emit_broadcast(const instr *in);
   void emit_shuffle(const instr *in);
   void emit_mov_indirect(const instr *in);
   void emit_subgroup_invocation(const instr *in);
   void fix_branches();

public:
   /* Appends one instruction (checking that it encodes) and returns it. */
   isa::inst &push(const isa::inst &i, bool errata_nop = false);

   /* Operands.  first/channels: the piece's channels relative to the
    * instruction, for the offset of each operand and its region.
    */
   isa::reg src_reg(const operand &o, unsigned first, unsigned channels,
                    bool compressed) const;
   isa::reg dst_reg(const operand &o, unsigned first) const;
   /* The GRF byte address of o's value plus extra bytes. */
   unsigned grf_byte(const operand &o, unsigned extra) const;
   void set_flags(isa::inst &hw, const instr *in, unsigned group) const;
   piece_list pieces(const instr *in) const;
   [[noreturn]] void fail(const char *fmt, ...) const
      __attribute__((format(printf, 2, 3)));
};

isa::type isa_type(data_type t);
isa::gen isa_gen(const device_info &dev);

} /* namespace ibis::codegen_internal */
