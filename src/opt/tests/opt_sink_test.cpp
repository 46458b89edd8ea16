/*
 * sink: an ALU instruction whose value only one if-arm reads moves into
 * that arm, before its first reader; never into a loop, never when both
 * arms read it, never when a reader takes another channel's data.
 */
#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "opt_test.h"

using ibis::testing::check_opt;

/* A chain read only in the then-arm sinks whole, reader first. */
TEST(opt_sink, chain_into_the_arm_that_reads_it)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mul %2, %1
         %4:f32x8 = add %3, 1.0:f32
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mul %2, %2
         %7:f32x8 = mad %6, %4, %1[1]
      block2:
         endif
         %8:f32x8 = phi %2, %7
         )" WRITE("%8") R"(
   )", "sink", R"(
      block0:
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mul %2, %2
         %3:f32x8 = mul %2, %1
         %4:f32x8 = add %3, 1.0:f32
         %7:f32x8 = mad %6, %4, %1[1]
      block2:
         endif
         %8:f32x8 = phi %2, %7
         ...
   )"));
}

/* Read by the endif's phi on the edge from the else-arm: computed at the
 * end of that arm.  A NoMask scalar moves too.
 */
TEST(opt_sink, phi_source_goes_to_the_end_of_its_arm)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x1 = mul %1, %1[1] {WE_all}
         %4:f32x8 = add %2, %3
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mul %2, %2
         else
      block2:
         %7:f32x8 = mul %2, 2.0:f32
      block3:
         endif
         %8:f32x8 = phi %6, %4
         )" WRITE("%8") R"(
   )", "sink", R"(
      block0:
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mul %2, %2
         else
      block2:
         %7:f32x8 = mul %2, 2.0:f32
         %3:f32x1 = mul %1, %1[1] {WE_all}
         %4:f32x8 = add %2, %3
      block3:
         endif
         ...
   )"));
}

/* Read in a loop inside the arm: it goes into the arm, before the loop,
 * not into the loop.
 */
TEST(opt_sink, stops_before_a_loop)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mul %2, %1
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mov %2
      block2:
         do
         %7:f32x8 = phi %6, %9
         %9:f32x8 = add %7, %3
         %10:flagx8 = cmp.l %9, %1[2]
         (+%10) while
      block3:
         )" WRITE("%9") R"(
      block4:
         endif
   )", "sink", R"(
      block0:
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = mov %2
         %3:f32x8 = mul %2, %1
      block2:
         do
         ...
   )"));
}

/* Read in both arms, read after the endif, read through a region (the
 * arm computes only its own channels), or defined in the arm already:
 * nothing moves.
 */
TEST(opt_sink, stays_where_the_arm_does_not_own_it)
{
   const char *program = R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x8 = mul %2, %1
         %4:f32x8 = mul %2, %1[1]
         %11:f32x8 = mul %2, %1[2]
         %5:flagx8 = cmp.g %2, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = add %3, 1.0:f32
         %12:f32x8 = mov %11<0,1,0>
         %13:f32x8 = add %6, %12
         else
      block2:
         %7:f32x8 = add %3, 2.0:f32
      block3:
         endif
         %8:f32x8 = phi %13, %7
         %9:f32x8 = add %8, %4
         )" WRITE("%9") R"(
   )";
   EXPECT_TRUE(check_opt(program, "sink", program));
}
