/*
 * lower_flag_chains: and/or trees of compares into chains of compares
 * predicated on the flag before.
 */
#include <gtest/gtest.h>

#include "ir/testing/ibis_check.h"
#include "lower/lower.h"

using namespace ibis;
using ibis::testing::check_pass;

static void
chains(shader &s)
{
   lower_flag_chains(s);
}

/* a < 0 && a > u: the second compare writes the flag only where the first
 * held; the bools and the and.nz go.
 */
TEST(lower_flag_chains, and_of_two_compares)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      uniform %2:f32x1
      block0:
         %3:u32x8 = cmp.l %1, 0.0:f32
         %4:u32x8 = cmp.g %1, %2
         _, %5:flagx8 = and.nz %3, %4
         (+%5) %6:f32x8 = sel %1, 1.0:f32
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", chains, R"(
      block0:
         %[[a]]:flagx8 = cmp.l %1, 0.0:f32
         (+%[[a]]) %5:flagx8 = cmp.g %1, %2
         (+%5) %6:f32x8 = sel %1, 1.0:f32
   ...
   )"));
}

/* Three compares under two ors (one of them the flag's): each later
 * compare runs where the flag so far is false.  SIMD32 (the links stay
 * whole until code generation).
 */
TEST(lower_flag_chains, or_tree_of_three)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32
      attr %1:f32x32
      block0:
         %3:u32x32 = cmp.l %1, 0.0:f32
         %4:u32x32 = cmp.g %1, 1.0:f32
         %5:u32x32 = or %3, %4
         %6:u32x32 = cmp.z %1, 0.5:f32
         %7:u32x32, %8:flagx32 = or.nz %6, %5
         (+%8) %9:f32x32 = sel %1, 1.0:f32
         untyped_write_logical 0:u32, %9, %9, 1:u32
   )", chains, R"(
      block0:
         %[[a]]:flagx32 = cmp.z %1, 0.5:f32
         (-%[[a]]) %[[b]]:flagx32 = cmp.l %1, 0.0:f32
         (-%[[b]]) %8:flagx32 = cmp.g %1, 1.0:f32
         (+%8) %9:f32x32 = sel %1, 1.0:f32
   ...
   )"));
}

/* Scalar bools (SIMD1 NoMask compares of scalars) join a chain: their
 * compares run at the root's width, where every channel gets the same.
 * A scalar compare of a per-channel value's component stays.
 */
TEST(lower_flag_chains, scalar_links)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      uniform %2:u32x1
      block0:
         %3:u32x1 = cmp.z %2, 2:u32 {WE_all}
         %4:u32x1 = cmp.z %2, 0:u32 {WE_all}
         _, %5:flagx8 = or.nz %4, %3
         %6:u32x8 = cmp.l %1, 0.0:f32
         %7:u32x1 = cmp.z %2, 3:u32 {WE_all}
         _, %8:flagx8 = and.nz %6, %7
         %9:u32x1 = cmp.l %1<0,1,0>, 1.0:f32 {WE_all}
         %10:u32x8 = cmp.g %1, 2.0:f32
         _, %11:flagx8 = and.nz %10, %9
         (+%5) %12:f32x8 = sel %1, 1.0:f32
         (+%8) %13:f32x8 = sel %12, 0.5:f32
         (+%11) %14:f32x8 = sel %13, 0.25:f32
         untyped_write_logical 0:u32, %14, %14, 1:u32
   )", chains, R"(
      block0:
         %[[a]]:flagx8 = cmp.z %2, 0:u32
         (-%[[a]]) %5:flagx8 = cmp.z %2, 2:u32
         %[[b]]:flagx8 = cmp.l %1, 0.0:f32
         (+%[[b]]) %8:flagx8 = cmp.z %2, 3:u32
         %9:u32x1 = cmp.l %1<0,1,0>, 1.0:f32 {WE_all}
         %10:u32x8 = cmp.g %1, 2.0:f32
         _, %11:flagx8 = and.nz %10, %9
   ...
   )"));
}

/* Left alone: a bool that something else reads, a compare of a WLR value
 * (it could change before the and), and a mixed and/or.
 */
TEST(lower_flag_chains, what_stays)
{
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      wlr %2:f32x8
      block0:
         %3:u32x8 = cmp.l %1, 0.0:f32
         %4:u32x8 = cmp.g %1, 1.0:f32
         _, %5:flagx8 = and.nz %3, %4
         %2 = mov %1
         %6:u32x8 = cmp.l %2, 0.0:f32
         %7:u32x8 = cmp.g %1, 2.0:f32
         _, %8:flagx8 = and.nz %6, %7
         %9:u32x8 = cmp.l %1, 3.0:f32
         %10:u32x8 = cmp.g %1, 4.0:f32
         %11:u32x8 = or %9, %10
         %12:u32x8 = cmp.z %1, 5.0:f32
         _, %13:flagx8 = and.nz %11, %12
         (+%5) %14:f32x8 = sel %1, %3:f32
         (+%8) %15:f32x8 = sel %14, 0.5:f32
         (+%13) %16:f32x8 = sel %15, 0.25:f32
         untyped_write_logical 0:u32, %16, %16, 1:u32
   )";
   EXPECT_TRUE(check_pass(program, chains, program));
}
