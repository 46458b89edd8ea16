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

TEST(opt_sat_prop, clamp_moves_into_every_half_of_a_split_value)
{
   /* SIMD32 interpolation writes a WLR value one SIMD16 half per pln
    * (brw: pln.sat in both halves).
    */
   EXPECT_TRUE(check_opt(R"(
      shader fs simd32
      hw %1:f32x8[4]@g3
      hw %2:f32x8[4]@g7
      uniform %3:u32x1[16]@g12
      wlr %4:f32x32
      block0:
         %4 = pln(16) %3:f32, %1
         %4.64 = pln(16+16) %3:f32, %2
         %5:f32x32 = mov.sat %4
         %6:f32x32 = math_sqrt %5
         fb_write_logical %6, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "sat-prop", R"(
      block0:
         %4 = pln.sat(16) %3:f32, %1
         %4.64 = pln.sat(16+16) %3:f32, %2
         %6:f32x32 = math_sqrt %4
   ...
   )"));
}

TEST(opt_sat_prop, split_values_that_must_not_change)
{
   /* A half that cannot saturate (cmp), a half predicated, a half that
    * reads the other, a half written twice, a half never written.
    */
   const char *program = R"(
      shader fs simd32
      hw %1:f32x8[4]@g3
      hw %2:f32x8[4]@g7
      uniform %3:u32x1[16]@g12
      wlr %4:f32x32
      wlr %5:f32x32
      wlr %6:f32x32
      wlr %7:f32x32
      wlr %8:f32x32
      attr %20:f32x32
      block0:
         %4 = pln(16) %3:f32, %1
         %4.64 = cmp.ge(16+16) %3:f32, 0.5:f32
         %10:f32x32 = mov.sat %4
         %30:flagx32 = cmp.ge %20, 0.5:f32
         %5 = pln(16) %3:f32, %1
         (+%30) %5.64 = pln(16+16) %3:f32, %2
         %11:f32x32 = mov.sat %5
         %6 = pln(16) %3:f32, %1
         %6.64 = add(16+16) %6, 1.0:f32
         %12:f32x32 = mov.sat %6
         %7 = pln(16) %3:f32, %1
         %7 = pln(16) %3[4]:f32, %1
         %7.64 = pln(16+16) %3:f32, %2
         %13:f32x32 = mov.sat %7
         %8 = pln(16) %3:f32, %1
         %14:f32x32 = mov.sat %8
         %15:f32x32 = add %10, %11
         %16:f32x32 = add %12, %13
         %17:f32x32 = add %15, %16
         %18:f32x32 = add %17, %14
         fb_write_logical %18, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "sat-prop", program));
}
