/*
 * Saturate propagation: a float mov.sat that is its source's only reader
 * moves its clamp into the source's definition.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_sat_prop, clamp_moves_into_the_definition)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:f32x8
      block0:
         %3:f32x8 = mad 0.5:f32, %1, %2
         %4:f32x8 = mov.sat %3
         %5:f32x8 = sel.l %1, %2
         %6:f32x8 = mov.sat %5
         %7:f32x8 = add %4, %6
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "sat-prop", R"(
      block0:
         %3:f32x8 = mad.sat 0.5:f32, %1, %2
         %5:f32x8 = sel.sat.l %1, %2
         %7:f32x8 = add %3, %5
   ...
   )"));
}

TEST(opt_sat_prop, what_must_not_change)
{
   /* A source read elsewhere too, an integer result read as float bits,
    * an integer mov.sat, a source modifier, a flag written from the
    * unclamped result, a different width.
    */
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:s32x8
      uniform %3:f32x1[2]
      block0:
         %4:f32x8 = mul %1, %1
         %5:f32x8 = mov.sat %4
         %6:f32x8 = add %4, %5
         %7:s32x8 = add %2, 1:s32
         %20:f32x8 = mov.sat %7:f32
         %21:s32x8 = add %2, 2:s32
         %8:s32x8 = mov.sat %21
         %9:f32x8 = add %1, 1.0:f32
         %10:f32x8 = mov.sat -%9
         %11:f32x8, %12:flagx8 = add.g %1, 2.0:f32
         %13:f32x8 = mov.sat %11
         (+%12) %14:f32x8 = sel %13, %10
         %15:f32x1 = mul %3, %3[1] {WE_all}
         %16:f32x8 = mov.sat %15
         %17:f32x8 = add %6, %14
         %18:f32x8 = add %17, %16
         %22:f32x8 = add %18, %20
         %19:f32x8 = add %22, %8:f32
         fb_write_logical %19, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "sat-prop", program));
}
