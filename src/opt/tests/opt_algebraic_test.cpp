/*
 * Algebraic simplification: identities become movs that keep saturate and
 * the conditional modifier; nothing that changes -0.0, a conversion or a
 * logic op's not-modifier.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_algebraic, identities)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      attr %3:s32x8
      block0:
         %4:f32x8 = mul %1, 1.0:f32
         %5:f32x8 = mul.sat %1, -1.0:f32
         %6:f32x8 = add -0.0:f32, |%1|
         %7:u32x8 = add %2, 0:u32
         %8:u32x8 = and %2, 0xffffffff:u32
         %9:u32x8 = or %2, 0:u32
         %10:u32x8 = xor %2, 0:u32
         %11:u32x8 = shl %2, 0:u32
         %12:s32x8 = mul %3, -1:s32
         %13:u32x8 = and %2, 0:u32
         %14:u32x8 = or %2, 0xffffffff:u32
         %15:s32x8 = mul %3, 0:s32
         %16:f32x8 = sel.l %1, %1
         %17:u32x8, %18:flagx8 = add.nz %2, 0:u32
         (+%18) discard
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
         )" WRITE("%11") R"(
         )" WRITE("%12") R"(
         )" WRITE("%13") R"(
         )" WRITE("%14") R"(
         )" WRITE("%15") R"(
         )" WRITE("%16") R"(
         )" WRITE("%17") R"(
   )", "algebraic", R"(
      block0:
         %4:f32x8 = mov %1
         %5:f32x8 = mov.sat -%1
         %6:f32x8 = mov |%1|
         %7:u32x8 = mov %2
         %8:u32x8 = mov %2
         %9:u32x8 = mov %2
         %10:u32x8 = mov %2
         %11:u32x8 = mov %2
         %12:s32x8 = mov -%3
         %13:u32x8 = mov 0:u32
         %14:u32x8 = mov 0xffffffff:u32
         %15:s32x8 = mov 0:s32
         %16:f32x8 = mov %1
         %17:u32x8, %18:flagx8 = mov.nz %2
         (+%18) discard
   ...
   )"));
}

/* x + 0.0 is +0.0 for x = -0.0; float x*0 is NaN for inf; a conversion
 * (add of u32 into f32) is not a mov of the same type; and's negate is a
 * not; shl 0, x is not x; predicated instructions keep their preserve.
 */
TEST(opt_algebraic, not_identities)
{
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      block0:
         %3:f32x8 = add %1, 0.0:f32
         %4:f32x8 = mul %1, 0.0:f32
         %5:f32x8 = add %2, 0:u32
         %6:u32x8 = and -%2, 0xffffffff:u32
         %7:u32x8 = shl 0:u32, %2
         %8:flagx8 = cmp.l %1, 0.0:f32
         (+%8) %9:f32x8 = mul %1, 1.0:f32, preserve %3
         %10:f32x8 = sel.g %1, %1
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
   )";
   EXPECT_TRUE(check_opt(program, "algebraic", program));
}

/* The mov left behind is a copy for copy-prop. */
TEST(opt_algebraic, with_copy_prop)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = mul %1, 1.0:f32
         %3:f32x8 = add %2, %1
         )" WRITE("%3") R"(
   )", "algebraic,copy-prop,dce", R"(
      block0:
         %3:f32x8 = add %1, %1
         )" WRITE("%3") R"(
   )"));
}

/* tesseract/443.fs: b2f(!x) is "not; and" in NIR, one and on Gen8+. */
TEST(opt_algebraic, not_folds_into_logic_ops)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:u32x8
      attr %2:u32x8
      uniform %3:u32x1[2]
      block0:
         %4:u32x8 = not %1
         %5:u32x8 = and %4, 0x3f800000:u32
         %6:u32x8 = not -%2
         %7:u32x8 = or %5, -%6
         %8:u32x8 = not %3[1]
         %9:u32x8 = xor %7, %8
         )" WRITE("%9") R"(
   )", "algebraic,dce", R"(
      block0:
         %5:u32x8 = and -%1, 0x3f800000:u32
         %7:u32x8 = or %5, -%2
         %9:u32x8 = xor %7, -%3[1]
         )" WRITE("%9") R"(
   )"));
}

/* A not read by something other than a logic op stays, and so does one
 * that converts its source.
 */
TEST(opt_algebraic, not_that_must_stay)
{
   const char *program = R"(
      shader fs simd8
      attr %1:u32x8
      attr %2:u16x8
      block0:
         %3:u32x8 = not %1
         %4:u32x8 = add %3, 1:u32
         %5:u32x8 = not %2
         %6:u32x8 = and %5, 255:u32
         %8:u32x8 = or %6, %4
         )" WRITE("%8") R"(
   )";
   EXPECT_TRUE(check_opt(program, "algebraic", program));
}
