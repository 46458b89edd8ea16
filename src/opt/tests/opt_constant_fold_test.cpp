/*
 * Constant folding: exact integer wrap-around and shifts, IEEE single
 * rounding, saturate; nothing where Gen9 and the host may disagree (NaN,
 * denormals, out-of-range conversions) or where the instruction does more
 * than compute a value.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

/* A logic op's negate is a bitwise not on Gen8+ (algebraic folds a not
 * into it): xor of x and "-x" is all ones, and "-x" of an and/or is ~x,
 * not the two's complement (random vs seed 9659 got 0xfffc).
 */
TEST(opt_constant_fold, logic_negate_is_a_not)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      block0:
         %1:u16x8 = mov 2:u16
         %2:u16x8 = xor -%1, %1
         %3:u32x8 = mov 5:u32
         %4:u32x8 = and -%3, 0xff:u32
         %5:u32x8 = or -%3, 1:u32
         )" WRITE("%2") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
   )", "constant-fold", R"(
      block0:
         %1:u16x8 = mov 2:u16
         %2:u16x8 = mov 65535:u16
         %3:u32x8 = mov 5:u32
         %4:u32x8 = mov 250:u32
         %5:u32x8 = mov 0xfffffffb:u32
         ...
   )"));
}

TEST(opt_constant_fold, integers)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      block0:
         %1:u32x8 = mov 0xffffffff:u32
         %2:u32x8 = add %1, 2:u32
         %3:s32x8 = mul -3:s32, 0x40000000:s32
         %4:u32x8 = shl %1, 33:u32
         %5:s32x8 = asr -16:s32, 2:s32
         %6:u32x8 = shr 0x80000000:u32, 31:u32
         %7:s32x8 = sel.l -1:s32, 1:s32
         %8:u32x8 = sel.l 0xffffffff:u32, 1:u32
         %9:u16x8 = add 0xffff:u16, 3:u16
         %10:u32x8 = xor %1, 0xf0:u32
         )" WRITE("%2") R"(
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
   )", "constant-fold", R"(
      block0:
         %1:u32x8 = mov 0xffffffff:u32
         %2:u32x8 = mov 1:u32
         %3:s32x8 = mov 1073741824:s32
         %4:u32x8 = mov 0xfffffffe:u32
         %5:s32x8 = mov -4:s32
         %6:u32x8 = mov 1:u32
         %7:s32x8 = mov -1:s32
         %8:u32x8 = mov 1:u32
         %9:u16x8 = mov 2:u16
         %10:u32x8 = mov 0xffffff0f:u32
   ...
   )"));
}

TEST(opt_constant_fold, floats)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      block0:
         %1:f32x8 = mov 0.1:f32
         %2:f32x8 = add %1, 0.2:f32
         %3:f32x8 = mul -%1, 10.0:f32
         %4:f32x8 = add.sat %1, 2.0:f32
         %5:f32x8 = sel.ge %1, -|%1|
         %6:f32x8 = mov 7:s32
         %7:s32x8 = mov -2.75:f32
         %8:f64x8 = add 0.5:f64, 0.25:f64
         )" WRITE("%2") R"(
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
   )", "constant-fold", R"(
      block0:
         %1:f32x8 = mov 0.1:f32
         %2:f32x8 = mov 0.3:f32
         %3:f32x8 = mov -1.0:f32
         %4:f32x8 = mov 1.0:f32
         %5:f32x8 = mov 0.1:f32
         %6:f32x8 = mov 7.0:f32
         %7:s32x8 = mov -2:s32
         %8:f64x8 = mov 0.75:f64
   ...
   )"));
}

/* NaN, denormal inputs and results, float-to-int out of range, ±0 for
 * max, 16-bit shifts, flags, predication, mixed types: left alone.
 */
TEST(opt_constant_fold, not_folded)
{
   const char *program = R"(
      shader cs simd8
      block0:
         %1:f32x8 = mov 0x7fc00000:f32
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = mul 1e-30:f32, 1e-10:f32
         %4:f32x8 = add 1e-40:f32, 0.0:f32
         %5:s32x8 = mov 3000000000.0:f32
         %6:f32x8 = sel.ge -0.0:f32, 0.0:f32
         %7:u16x8 = shl 1:u16, 3:u16
         %8:u32x8, %9:flagx8 = add.z 1:u32, 0xffffffff:u32
         %10:u32x8 = add 1:s32, 2:s32
         %11:f32x8 = mov 1.0:f32
         (+%9) %12:f32x8 = add 1.0:f32, 2.0:f32, preserve %11
         %13:f32x8 = mad 1.0:f32, 2.0:f32, 3.0:f32
         %14:u32x8 = add.sat 1:u32, 2:u32
         )" WRITE("%2") R"(
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%10") R"(
         )" WRITE("%12") R"(
         )" WRITE("%13") R"(
         )" WRITE("%14") R"(
   )";
   EXPECT_TRUE(check_opt(program, "constant-fold", program));
}

/* Folding feeds copy-prop and dce. */
TEST(opt_constant_fold, with_copy_prop)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      attr %1:u32x8
      block0:
         %2:u32x8 = mov 6:u32
         %3:u32x8 = mul %2, 7:u32
         %4:u32x8 = add %1, %3
         )" WRITE("%4") R"(
   )", "constant-fold,copy-prop,dce", R"(
      block0:
         %4:u32x8 = add %1, 42:u32
         )" WRITE("%4") R"(
   )"));
}

/* imul_32x16 narrows its second source with a mov to s16: a constant's
 * low word becomes the mul's word immediate ("mul D, 80W") instead of a
 * load and a word copy of it.
 */
TEST(opt_constant_fold, narrowed_integer_feeds_mul)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      attr %1:s32x8
      block0:
         %2:s16x8 = mov 80:s32
         %3:s32x8 = mul %1:s32, %2
         %4:u16x8 = mov 0x12345:u32
         %5:u32x8 = mul %1:u32, %4
         )" WRITE("%3") R"(
         )" WRITE("%5") R"(
   )", "constant-fold,copy-prop,dce", R"(
      block0:
         %3:s32x8 = mul %1, 80:s16
         %5:u32x8 = mul %1:u32, 9029:u16
         )" WRITE("%3") R"(
         )" WRITE("%5") R"(
   )"));
}
