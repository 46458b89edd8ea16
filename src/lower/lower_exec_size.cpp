/*
 * hw_exec_size(): how many channels one hardware instruction of `in` may
 * cover on Gen9.  Code generation splits wider instructions into pieces of
 * this size (docs/backend.md §1, "Execution size").
 *
 * The limits are the hardware's: a direct operand spans at most two GRFs,
 * the extended math unit takes SIMD16 single precision and SIMD8 integer
 * division or half float, and mixed float mode with an f32 destination is
 * SIMD8 only.
 */
#include "lower/lower.h"

#include <algorithm>

namespace ibis {

namespace {

/* Bytes from the first register boundary an operand of `n` channels
 * touches to the end of its last element; 0 for scalars and non-registers.
 */
unsigned
operand_span(const operand &o, unsigned n, bool is_dst)
{
   if (!o.val || o.val->file == reg_file::flag ||
       o.val->file == reg_file::accum)
      return 0;
   const unsigned tb = std::max(1u, type_bits(o.type) / 8);
   unsigned last;
   if (o.has_region) {
      const region r = o.rgn;
      if (!is_dst && r.vstride == 0 && r.hstride == 0 && r.width <= 1)
         return 0;
      const unsigned w = std::max<unsigned>(1, is_dst ? n : r.width);
      last = ((n - 1) / w) * r.vstride + ((n - 1) % w) * r.hstride;
   } else {
      if (!is_dst && o.val->width == 1)
         return 0;
      last = n - 1;
   }
   return o.offset % device_info::grf_bytes + (last + 1) * tb;
}

bool
fits_two_grfs(const instr *in, unsigned n)
{
   const unsigned limit = 2 * device_info::grf_bytes;
   for (const operand &d : in->dsts()) {
      if (operand_span(d, n, true) > limit)
         return false;
   }
   for (const operand &s : in->srcs()) {
      if (operand_span(s, n, false) > limit)
         return false;
   }
   return true;
}

bool
is_mixed_float(const instr *in)
{
   bool f16 = false, f32 = false;
   auto see = [&](const operand &o) {
      if (o.is_null() || (!o.val && !o.is_imm()))
         return;
      if (o.type == data_type::f16)
         f16 = true;
      else if (o.type == data_type::f32)
         f32 = true;
   };
   for (const operand &d : in->dsts())
      see(d);
   for (const operand &s : in->srcs())
      see(s);
   return f16 && f32;
}

} /* anonymous namespace */

unsigned
hw_exec_size(const instr *in, const device_info &dev)
{
   (void)dev;
   const unsigned exec = in->exec_size;
   const opcode_info &info = in->info();

   /* Lowering already gave every message its final width. */
   if (info.kind == opcode_kind::send || info.kind == opcode_kind::logical ||
       info.kind == opcode_kind::cf)
      return exec;

   /* Gen9 instruction controls address at most 16 channels of a 32-bit
    * datapath; SIMD32 splits into halves.
    */
   unsigned max = std::min(exec, 16u);

   if (info.kind == opcode_kind::math) {
      const bool int_div = in->op == opcode::math_idiv ||
                           in->op == opcode::math_irem ||
                           in->op == opcode::math_idivrem;
      const bool half = !in->dsts().empty() &&
                        in->dst().type == data_type::f16;
      if (int_div || half)
         max = std::min(max, 8u);
   }

   /* Mixed float mode with an f32 destination: no SIMD16. */
   if (is_mixed_float(in) && !in->dsts().empty() &&
       in->dst().type == data_type::f32)
      max = std::min(max, 8u);

   /* No operand may span more than two registers. */
   while (max > 1 && !fits_two_grfs(in, max))
      max /= 2;
   return max;
}

} /* namespace ibis */
