/*
 * The static performance model against brw's figures.
 *
 * Figures cited as "brw" are brw_ir_performance.cpp's Gen8-10 rows
 * (Mesa 23.3), in its linear form X = X_1 + X_sd * sd + X_sx * sx:
 *   simple FPU ops (add, mul, mov, cmp, ...), 32-bit: df = 2 sd, db = 2 sx,
 *       ld = 8, la = 4, lf = 12
 *   64-bit execution type:                    df = 4 sd, db = 4 sx, ld = 12
 *   math inv/rsq/...: unit EM, df = -2 + 4 sd, db = 4 sx, ld = 16
 *   sampler send: df = 2, db = 16, ls = 8 + 2 ss, ld = 750 + 2 ss
 *   URB send: df = 2, db = 6, ls = 32, ld = 200
 *   if/else/endif/while/...: df = 8; do: 0; loops weigh 10.
 */
#include <gtest/gtest.h>

#include "dev/ibis_device.h"
#include "ir/ibis_perf.h"
#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"

using namespace ibis;
using ibis::testing::dedent;

namespace {

const device_info &
skl()
{
   static device_info d = [] {
      device_info i{};
      i.name = "skl_gt2";
      i.platform = "skl";
      i.ver = 9;
      return i;
   }();
   return d;
}

unsigned
cycles(const char *text)
{
   auto s = parse_shader(dedent(text));
   return estimate_cycles(*s, skl());
}

const instr *
first_instr(const shader &s)
{
   return s.entry()->first();
}

} /* namespace */

TEST(perf, dependent_alu_simd8)
{
   /* add: df 2 -> FE 2, result at 2 + ld 8 = 10; mul stalls to 10, +2. */
   EXPECT_EQ(cycles(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = mul %2, %2
   )"), 12u);
}

TEST(perf, independent_alu_simd8)
{
   /* No stall: two issues of df 2 each. */
   EXPECT_EQ(cycles(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = mul %1, %1
   )"), 4u);
}

TEST(perf, dependent_alu_simd16)
{
   /* sd = 2: add df 4, result at 4 + 8 = 12; mul stalls to 12, +4. */
   EXPECT_EQ(cycles(R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:f32x16 = add %1, 1.0:f32
         %3:f32x16 = mul %2, %2
   )"), 16u);
}

TEST(perf, simd32_splits_into_simd16_pieces)
{
   /* Two SIMD16 pieces each (sd 2, df 4, ld 8).  add: FE 4 (regs 0-1
    * ready 12), FE 8 (regs 2-3 ready 16).  mul piece 0 waits for 12, +4
    * = 16; piece 1 waits for 16, +4 = 20.
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd32
      attr %1:f32x32
      block0:
         %2:f32x32 = add %1, 1.0:f32
         %3:f32x32 = mul %2, %2
   )"), 20u);
}

TEST(perf, double_precision_halves_throughput)
{
   /* f64 SIMD8 is one instruction of two-GRF operands: sd = 2, and the
    * 64-bit row gives df = 4 sd = 8 (a 32-bit one would give 4).
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd8
      attr %1:f64x8
      block0:
         %2:f64x8 = add %1, %1
   )"), 8u);
}

TEST(perf, math_and_sampler)
{
   /* math inv SIMD8: df = -2 + 4 = 2, result at 2 + 16 = 18; add waits
    * and issues: 20.
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = math_inv %1
         %3:f32x8 = add %2, 1.0:f32
   )"), 20u);
   /* Sampler send, mlen 2 (desc 0x04420000: mlen 2, rlen 4), ss 2:
    * df 2, result at 2 + 750 + 4 = 756; the add waits, +2 = 758.
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd8
      attr %1:f32x8[2]
      block0:
         %2:f32x8[4] = send 2:u32, 0x04420000:u32, 0:u32, %1, _
         %3:f32x8 = add %2, 1.0:f32
   )"), 758u);
}

TEST(perf, loops_weigh_ten)
{
   /* block0: add, 2.  block1 (weight 10): add 2 -> 20, cmp 2 -> 20 (flag
    * ready at 6 + 12 = 18), while waits for the flag: 18 + 8 - 6 = 20 ->
    * 200.  block2: add, 2.  Total 244.
    */
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
      block1:
         do
         %3:f32x8 = add %1, 2.0:f32
         %4:flagx8 = cmp.l %1, 3.0:f32
         (+%4) while
      block2:
         %5:f32x8 = add %2, %3
   )"));
   perf_estimate e = estimate_performance(*s, skl());
   EXPECT_EQ(e.cycles, 244u);
   ASSERT_EQ(e.block_cycles.size(), 3u);
   EXPECT_EQ(e.block_cycles[0], 2u);
   EXPECT_EQ(e.block_cycles[1], 240u);
   EXPECT_EQ(e.block_cycles[2], 2u);
}

TEST(perf, perf_of_one_instruction)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:f32x16 = mad %1, %1, %1
   )"));
   /* mad SIMD16 32-bit: df = 2 sd = 4, ld = 8: ready at 12. */
   instr_perf p = perf_of(first_instr(*s), skl());
   EXPECT_EQ(p.issue, 4u);
   EXPECT_EQ(p.latency, 12u);
}

TEST(perf, allocated_registers_carry_dependencies)
{
   /* Physical registers: the mul reads g10, which the add wrote (ready at
    * 10); the third instruction reads g11, untouched, and issues at once.
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd8 allocated
      attr %1:f32x8@g2
      block0:
         %2:f32x8@g10 = add %1, 1.0:f32
         %3:f32x8@g12 = mul %2, %2
         %4:f32x8@g13 = mul %1, %1
   )"), 14u);
}

TEST(perf, urb_write_payload_read)
{
   /* URB write (desc 0x02080017: mlen 1), df 2, ls 32: rewriting its
    * payload register g1 waits until 2 + 32 = 34, then 2 more.
    */
   EXPECT_EQ(cycles(R"(
      shader vs simd8 allocated
      hw %1:u32x8@g1
      attr %2:f32x8@g2
      block0:
         send 6:u32, 0x02080017:u32, 0:u32, %1, _
         %1 = mov %2
   )"), 36u);
}

/* brw's own blocks, transcribed register for register: the estimate must
 * equal the "START B0 (N cycles)" brw printed.
 */
TEST(perf, brw_block_efb2ram_vs)
{
   /* corpus/skl/brw-asm/dolphin/efb2ram.vs.simd8.asm: 52 cycles. */
   EXPECT_EQ(cycles(R"(
      shader vs simd8 allocated
      attr %1:s32x8@g2
      attr %2:s32x8@g4
      hw %3:u32x8@g1
      wlr %15:f32x8[4]@g122
      block0:
         %4:s32x8@g3 = add %2, %1
         %5:s32x1@g8 = mov(1) 1065353216:s32 {WE_all}
         %15[2] = mov 0.0:f32
         %15[3] = mov 1.0:f32
         %8:u32x8@g126 = mov %3 {WE_all}
         %9:u32x8@g4 = and %4:u32, 1:u32
         %10:u32x8@g6 = and %4:u32, 2:u32
         %11:f32x8@g5 = mov %9:s32
         %12:f32x8@g7 = mov %10:s32
         %15[0] = lrp %11, %5:f32, -%5:f32
         %15[1] = lrp %12, %5:f32, -%5:f32
         _ = send 6:u32, 0x02080017:u32, 0x100:u32, %8, %15 {EOT}
   )"), 52u);
}

TEST(perf, brw_block_0ad_6_fs_simd16)
{
   /* corpus/skl/brw-asm/0ad/6.fs.simd16.asm: 26 cycles (four SIMD16
    * moves of df 4, the last result at 16 + 8; the EOT send after it).
    */
   EXPECT_EQ(cycles(R"(
      shader fs simd16 allocated
      uniform %1:f32x1[4]@g2
      wlr %2:f32x16[4]@g119
      block0:
         %2[0] = mov %1
         %2[1] = mov %1[1]
         %2[2] = mov %1[2]
         %2[3] = mov %1[3]
         _ = send 5:u32, 0x10031000:u32, 0:u32, %2, _ {EOT}
   )"), 26u);
}
