/*
 * hoist: equal scalar expressions of arms that do not dominate each other
 * are computed once where a block dominates them all; full-width,
 * predicated and flag-writing ones, and loads with effects, stay.
 */
#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "opt_test.h"

using ibis::testing::check_opt;

/* A bitfield of a push constant extracted in both arms: the shr merges in
 * the first round, the and in the second.
 */
TEST(opt_hoist, chain_in_both_arms_goes_before_the_if)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         (+%3) if
      block1:
         %4:u32x1 = shr %1[1], 4:u32 {WE_all}
         %5:u32x1 = and %4, 15:u32 {WE_all}
         %6:u32x8 = add %5, 1:u32
         else
      block2:
         %7:u32x1 = shr %1[1], 4:u32 {WE_all}
         %8:u32x1 = and %7, 15:u32 {WE_all}
         %9:u32x8 = add %8, 2:u32
      block3:
         endif
         %10:u32x8 = phi %6, %9
         )" WRITE("%10") R"(
   )", "hoist", R"(
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         %[[a]]:u32x1 = shr %1[1], 4:u32 {WE_all}
         %[[b]]:u32x1 = and %[[a]], 15:u32 {WE_all}
         (+%3) if
      block1:
         %6:u32x8 = add %[[b]], 1:u32
         else
      block2:
         %9:u32x8 = add %[[b]], 2:u32
      block3:
         endif
         %10:u32x8 = phi %6, %9
         )" WRITE("%10") R"(
   )"));
}

/* A constant-buffer load (and its offset) in both arms of an if in a loop
 * goes before the if, in the loop: it reads the loop's phi.
 */
TEST(opt_hoist, constant_buffer_load_in_a_loop)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      uniform %1:u32x1[4]
      attr %2:f32x16
      block0:
         %3:u32x1 = mov 0:u32 {WE_all}
      block1:
         do
         %4:u32x1 = phi %3, %20 {WE_all}
         %5:flagx16 = cmp.g %2, 0.0:f32
         (+%5) if
      block2:
         %7:u32x1 = shl %4, 4:u32 {WE_all}
         %8:u32x1[4] = uniform_block_read_logical 3:u32, %7, 16:u32 {WE_all}
         %9:u32x16 = mov %8[2]
         else
      block3:
         %11:u32x1 = shl %4, 4:u32 {WE_all}
         %12:u32x1[4] = uniform_block_read_logical 3:u32, %11, 16:u32 {WE_all}
         %13:u32x16 = add %12[1], 1:u32
      block4:
         endif
         %14:u32x16 = phi %9, %13
         )" WRITE("%14") R"(
         %20:u32x1 = add %4, 1:u32 {WE_all}
         %21:flagx16 = cmp.l %20, %1[3]
         (+%21) while
      block5:
   )", "hoist", R"(
      block0:
         %3:u32x1 = mov 0:u32 {WE_all}
      block1:
         do
         %4:u32x1 = phi %3, %20 {WE_all}
         %5:flagx16 = cmp.g %2, 0.0:f32
         %[[a]]:u32x1 = shl %4, 4:u32 {WE_all}
         %[[l]]:u32x1[4] = uniform_block_read_logical 3:u32, %[[a]], 16:u32 {WE_all}
         (+%5) if
      block2:
         %9:u32x16 = mov %[[l]][2]
         else
      block3:
         %13:u32x16 = add %[[l]][1], 1:u32
      block4:
         endif
         ...
   )"));
}

/* The same load in an inner then-arm (no else) and in the outer else-arm
 * is not on every path from the outer if: hoisted, it would run on the
 * path that skips the inner arm, as a uniform branch of an ubershader
 * would run every case's loads instead of its own.  Nothing moves.
 */
TEST(opt_hoist, load_not_on_every_path_stays)
{
   const char *program = R"(
      shader fs simd16
      uniform %1:u32x1[4]
      attr %2:f32x16
      block0:
         %5:flagx16 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:flagx16 = cmp.l %2, 1.0:f32
         (+%6) if
      block2:
         %7:u32x1 = shl %1, 4:u32 {WE_all}
         %8:u32x1[4] = uniform_block_read_logical 3:u32, %7, 16:u32 {WE_all}
         %9:u32x16 = mov %8[2]
      block3:
         endif
         %10:u32x16 = phi %1, %9
         else
      block4:
         %11:u32x1 = shl %1, 4:u32 {WE_all}
         %12:u32x1[4] = uniform_block_read_logical 3:u32, %11, 16:u32 {WE_all}
         %13:u32x16 = mov %12[2]
      block5:
         endif
         %14:u32x16 = phi %10, %13
         )" WRITE("%14") R"(
   )";
   EXPECT_TRUE(check_opt(program, "hoist", program));
}

/* At SIMD8 a full-width 32-bit value is one GRF: it may live over the
 * arms.  The conversion reads the hoisted rnde in the next round.
 */
TEST(opt_hoist, one_grf_value_goes_before_the_if)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8[2]
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = mul %1[1], 255.0:f32
         %4:f32x8 = rnde %3
         %5:s32x8 = mov %4
         else
      block2:
         %6:f32x8 = mul %1[1], 255.0:f32
         %7:f32x8 = rnde %6
         %8:s32x8 = mov %7
         %9:s32x8 = add %8, 1:s32
      block3:
         endif
         %10:s32x8 = phi %5, %9
         )" WRITE("%10") R"(
   )", "hoist", R"(
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         %[[a]]:f32x8 = mul %1[1], 255.0:f32
         %[[b]]:f32x8 = rnde %[[a]]
         %[[c]]:s32x8 = mov %[[b]]
         (+%2) if
      block1:
         else
      block2:
         %9:s32x8 = add %[[c]], 1:s32
      block3:
         endif
         %10:s32x8 = phi %[[c]], %9
         )" WRITE("%10") R"(
   )"));
}

/* At SIMD16 the same values take two GRFs each: they stay in the arms. */
TEST(opt_hoist, two_grf_value_stays)
{
   const char *program = R"(
      shader fs simd16
      attr %1:f32x16[2]
      block0:
         %2:flagx16 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x16 = mul %1[1], 255.0:f32
         else
      block2:
         %4:f32x16 = mul %1[1], 255.0:f32
         %5:f32x16 = add %4, 1.0:f32
      block3:
         endif
         %6:f32x16 = phi %3, %5
         )" WRITE("%6") R"(
   )";
   EXPECT_TRUE(check_opt(program, "hoist", program));
}

/* Predicated, flag-writing, different, single and effectful
 * expressions: nothing moves.
 */
TEST(opt_hoist, what_stays)
{
   const char *program = R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         %4:flagx1 = cmp.z %1[2], 0:u32 {WE_all}
         (+%3) if
      block1:
         (+%4) %6:u32x1 = sel %1, %1[1] {WE_all}
         %7:u32x1, %8:flagx1 = and.nz %1, 2:u32 {WE_all}
         %9:u32x1 = shr %1[1], 5:u32 {WE_all}
         %10:u32x1 = or %1[1], 5:u32 {WE_all}
         %11:u32x1[4] = untyped_read_logical 1:u32, %1, 1:u32 {WE_all}
         else
      block2:
         (+%4) %13:u32x1 = sel %1, %1[1] {WE_all}
         %14:u32x1, %15:flagx1 = and.nz %1, 2:u32 {WE_all}
         %16:u32x1 = shr %1[1], 6:u32 {WE_all}
         %17:u32x1[4] = untyped_read_logical 1:u32, %1, 1:u32 {WE_all}
      block3:
         endif
         %19:u32x1 = phi %6, %13 {WE_all}
         %20:u32x1 = phi %7, %14 {WE_all}
         %21:u32x1 = phi %9, %16 {WE_all}
         %22:u32x1 = phi %10, %1[3] {WE_all}
         %23:u32x1 = phi %11[1], %17[1] {WE_all}
         %18:u32x8 = mov %2:u32
         %24:u32x8 = add %18, %19
         %25:u32x8 = add %20, %21
         %26:u32x8 = add %22, %23
         )" WRITE("%24") R"(
         )" WRITE("%25") R"(
         )" WRITE("%26") R"(
   )";
   EXPECT_TRUE(check_opt(program, "hoist", program));
}

/* The same comparison in both arms, predicating the same sel: the two go
 * before the if together (the flag lives from one to the other), then
 * the mul of the sel follows in the next round.
 */
TEST(opt_hoist, comparison_and_its_sels_go_together)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8[2]
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         (+%3) if
      block1:
         %4:flagx8 = cmp.z %1[1], 0:u32
         (+%4) %5:f32x8 = sel %2, %2[1]
         %6:f32x8 = mul %5, 255.0:f32
         else
      block2:
         %7:flagx8 = cmp.z %1[1], 0:u32
         (+%7) %8:f32x8 = sel %2, %2[1]
         %9:f32x8 = mul %8, 255.0:f32
         %10:f32x8 = add %9, 1.0:f32
      block3:
         endif
         %11:f32x8 = phi %6, %10
         )" WRITE("%11") R"(
   )", "hoist", R"(
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         %[[f]]:flagx8 = cmp.z %1[1], 0:u32
         (+%[[f]]) %[[s]]:f32x8 = sel %2, %2[1]
         %[[m]]:f32x8 = mul %[[s]], 255.0:f32
         (+%3) if
      block1:
         else
      block2:
         %10:f32x8 = add %[[m]], 1.0:f32
      block3:
         endif
         %11:f32x8 = phi %[[m]], %10
         )" WRITE("%11") R"(
   )"));
}

/* Equal comparisons whose flags predicate different sels, or an if:
 * moving them would keep a flag live over the arms.  Nothing moves.
 */
TEST(opt_hoist, comparison_with_different_readers_stays)
{
   const char *program = R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8[2]
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         (+%3) if
      block1:
         %4:flagx8 = cmp.z %1[1], 0:u32
         (+%4) %5:f32x8 = sel %2, %2[1]
         %12:flagx8 = cmp.l %1[2], 3:u32
         (+%12) if
      block2:
         %13:f32x8 = add %5, 2.0:f32
      block3:
         endif
         %14:f32x8 = phi %5, %13
         else
      block4:
         %7:flagx8 = cmp.z %1[1], 0:u32
         (+%7) %8:f32x8 = sel %2[1], %2
         %15:flagx8 = cmp.l %1[2], 3:u32
         (+%15) if
      block5:
         %16:f32x8 = add %8, 3.0:f32
      block6:
         endif
         %17:f32x8 = phi %8, %16
      block7:
         endif
         %11:f32x8 = phi %14, %17
         )" WRITE("%11") R"(
   )";
   EXPECT_TRUE(check_opt(program, "hoist", program));
}

/* Four equal comparisons, three of them predicating the same sel, one on
 * each path: those three move; the fourth, whose sel differs, stays.
 */
TEST(opt_hoist, comparisons_with_the_same_readers_move)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8[2]
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         (+%3) if
      block1:
         %4:flagx8 = cmp.z %1[1], 0:u32
         (+%4) %5:f32x8 = sel %2, %2[1]
         else
      block2:
         %6:flagx8 = cmp.g %2[1], 0.0:f32
         (+%6) if
      block3:
         %7:flagx8 = cmp.z %1[1], 0:u32
         (+%7) %8:f32x8 = sel %2, %2[1]
         %9:f32x8 = add %8, 1.0:f32
         else
      block4:
         %10:flagx8 = cmp.z %1[1], 0:u32
         (+%10) %11:f32x8 = sel %2[1], %2
         %14:flagx8 = cmp.z %1[1], 0:u32
         (+%14) %15:f32x8 = sel %2, %2[1]
         %16:f32x8 = add %11, %15
      block5:
         endif
         %12:f32x8 = phi %9, %16
      block6:
         endif
         %13:f32x8 = phi %5, %12
         )" WRITE("%13") R"(
   )", "hoist", R"(
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         %[[f]]:flagx8 = cmp.z %1[1], 0:u32
         (+%[[f]]) %[[s]]:f32x8 = sel %2, %2[1]
         (+%3) if
      block1:
         else
      block2:
         %6:flagx8 = cmp.g %2[1], 0.0:f32
         (+%6) if
      block3:
         %9:f32x8 = add %[[s]], 1.0:f32
         else
      block4:
         %10:flagx8 = cmp.z %1[1], 0:u32
         (+%10) %11:f32x8 = sel %2[1], %2
         %16:f32x8 = add %11, %[[s]]
      block5:
         endif
         %12:f32x8 = phi %9, %16
      block6:
         endif
         %13:f32x8 = phi %[[s]], %12
         )" WRITE("%13") R"(
   )"));
}

/* A broadcast of a push constant in both arms stays: copy propagation
 * folds it into its readers, and a register would live over the arms.
 * The scalar copy moves.
 */
TEST(opt_hoist, push_constant_broadcast_stays)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:f32x8
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         (+%3) if
      block1:
         %4:u32x8 = mov %1[2]
         %5:u32x1 = mov %1[3] {WE_all}
         %6:u32x8 = add %4, %5
         else
      block2:
         %7:u32x8 = mov %1[2]
         %8:u32x1 = mov %1[3] {WE_all}
         %9:u32x8 = add %7, %8
         %10:u32x8 = add %9, 1:u32
      block3:
         endif
         %11:u32x8 = phi %6, %10
         )" WRITE("%11") R"(
   )", "hoist", R"(
      block0:
         %3:flagx8 = cmp.g %2, 0.0:f32
         %[[s]]:u32x1 = mov %1[3] {WE_all}
         (+%3) if
      block1:
         %4:u32x8 = mov %1[2]
         %6:u32x8 = add %4, %[[s]]
         else
      block2:
         %7:u32x8 = mov %1[2]
         %9:u32x8 = add %7, %[[s]]
         %10:u32x8 = add %9, 1:u32
      block3:
         endif
         %11:u32x8 = phi %6, %10
         )" WRITE("%11") R"(
   )"));
}
