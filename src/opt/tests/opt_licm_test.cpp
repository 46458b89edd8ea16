/*
 * licm: invariant instructions of loop blocks run on every iteration move
 * before the do, chains whole; what reads the loop's values, what sits in
 * an if-arm of the loop, and what has a predicate or a flag stays.
 */
#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "opt_test.h"

using ibis::testing::check_opt;

/* A chain of invariant ALU instructions and a scalar constant-buffer load
 * at an invariant offset leave the loop; the counter's add and compare,
 * and the mul reading the loop's phi, stay.
 */
TEST(opt_licm, invariant_chain_leaves_the_loop)
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
         %5:f32x16 = mul %2, %1
         %6:f32x16 = add %5, 1.0:f32
         %7:u32x1 = shl %1[1], 4:u32 {WE_all}
         %8:u32x1[4] = uniform_block_read_logical 3:u32, %7, 16:u32 {WE_all}
         %9:f32x16 = mul %6, %8[2]
         %10:u32x16 = add %4, %1[2]
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
         %20:u32x1 = add %4, 1:u32 {WE_all}
         %21:flagx16 = cmp.l %20, %1[3]
         (+%21) while
      block2:
   )", "licm", R"(
      block0:
         %3:u32x1 = mov 0:u32 {WE_all}
         %5:f32x16 = mul %2, %1
         %6:f32x16 = add %5, 1.0:f32
         %7:u32x1 = shl %1[1], 4:u32 {WE_all}
         %8:u32x1[4] = uniform_block_read_logical 3:u32, %7, 16:u32 {WE_all}
         %9:f32x16 = mul %6, %8[2]
      block1:
         do
         %4:u32x1 = phi %3, %20 {WE_all}
         %10:u32x16 = add %4, %1[2]
         ...
   )"));
}

/* An invariant instruction in an if-arm of the loop may be skipped on
 * every iteration: it stays.  One after the endif runs each iteration and
 * moves, also when a break in the arm comes before it.
 */
TEST(opt_licm, if_arm_stays_join_moves)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mov 0.0:f32
      block1:
         do
         %4:f32x8 = phi %3, %12
         %5:flagx8 = cmp.g %4, %1
         (+%5) if
      block2:
         %6:f32x8 = mul %2, %1[1]
         )" WRITE("%6") R"(
         break
      block3:
         endif
         %7:f32x8 = mad %2, %1[2], %1[3]
         %12:f32x8 = add %4, %7
         %13:flagx8 = cmp.l %12, 100.0:f32
         (+%13) while
      block4:
   )", "licm", R"(
      block0:
         %3:f32x8 = mov 0.0:f32
         %7:f32x8 = mad %2, %1[2], %1[3]
      block1:
         do
         %4:f32x8 = phi %3, %12
         %5:flagx8 = cmp.g %4, %1
         (+%5) if
      block2:
         %6:f32x8 = mul %2, %1[1]
         ...
   )"));
}

/* A value moved out of the inner loop moves on out of the outer one when
 * its operands are the outer loop's invariants too; one reading the outer
 * loop's phi stops before the inner do.
 */
TEST(opt_licm, nested_loops)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mov 0.0:f32
      block1:
         do
         %4:f32x8 = phi %3, %14
      block2:
         do
         %5:f32x8 = phi %4, %8
         %6:f32x8 = mul %2, %1
         %7:f32x8 = mul %4, %1[1]
         %8:f32x8 = mad %5, %6, %7
         %9:flagx8 = cmp.l %8, 10.0:f32
         (+%9) while
      block3:
         %14:f32x8 = add %8, 1.0:f32
         %15:flagx8 = cmp.l %14, 100.0:f32
         (+%15) while
      block4:
         )" WRITE("%14") R"(
   )", "licm", R"(
      block0:
         %3:f32x8 = mov 0.0:f32
         %6:f32x8 = mul %2, %1
      block1:
         do
         %4:f32x8 = phi %3, %14
         %7:f32x8 = mul %4, %1[1]
      block2:
         do
         %5:f32x8 = phi %4, %8
         %8:f32x8 = mad %5, %6, %7
         ...
   )"));
}

/* Nothing moves: a predicated sel, a compare writing a flag, and a mov
 * from the loop's phi.
 */
TEST(opt_licm, predicated_and_flag_writing_stay)
{
   const char *program = R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mov 0.0:f32
         %4:flagx8 = cmp.g %2, 0.0:f32
      block1:
         do
         %5:f32x8 = phi %3, %12
         (+%4) %6:f32x8 = sel %2, %1
         %7:flagx8 = cmp.l %2, %1[1]
         (+%7) %8:f32x8 = sel %6, %5
         %12:f32x8 = add %8, 1.0:f32
         %13:flagx8 = cmp.l %12, 100.0:f32
         (+%13) while
      block2:
         )" WRITE("%12") R"(
   )";
   EXPECT_TRUE(check_opt(program, "licm", std::string(program)));
}

/* A continue is a back edge too: a block after it may be skipped on every
 * iteration and keeps its invariant mov; the one before the continue runs
 * on each iteration and moves.  A scalar immediate (lowering's constants)
 * moves like any other.
 */
TEST(opt_licm, block_after_a_continue_stays)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %9:u32x1[2]
      block0:
         %1:u32x8 = mov 0:u32
      block1:
         do
         %2:u32x8 = phi %1, %3, %5
         %4:flagx8 = cmp.ge %2:s32, 4:s32
         (+%4) break
      block2:
         %8:u32x1 = mov 0x7f:u32 {WE_all}
         %3:u32x8 = add %2, %8
         %6:flagx8 = cmp.l %3:s32, 2:s32
         (+%6) cont
      block3:
         %7:u32x8 = add %9, %9[1]
         %5:u32x8 = add %2, %7
         while
      block4:
         )" WRITE("%2") R"(
   )", "licm", R"(
      block0:
         %1:u32x8 = mov 0:u32
         %8:u32x1 = mov 127:u32 {WE_all}
      block1:
         do
         %2:u32x8 = phi %1, %3, %5
         %4:flagx8 = cmp.ge %2:s32, 4:s32
         (+%4) break
      block2:
         %3:u32x8 = add %2, %8
         %6:flagx8 = cmp.l %3:s32, 2:s32
         (+%6) cont
      block3:
         %7:u32x8 = add %9, %9[1]
         %5:u32x8 = add %2, %7
         while
         ...
   )"));
}
