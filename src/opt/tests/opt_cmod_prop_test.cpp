/*
 * Conditional-modifier propagation: a "cmp.nz x, 0" that only turns a
 * boolean into a flag goes when x's definition can make the flag.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_cmod_prop, logic_op_takes_the_modifier)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:u32x8 = cmp.l 1.0:f32, %1
         %3:u32x8 = cmp.ge 0.0:f32, %1
         %4:u32x8 = or %3, %2
         %5:flagx8 = cmp.nz %4, 0:u32
         (+%5) %6:u32x8 = sel %1:u32, 0:u32
         %7:flagx8 = cmp.nz %4, 0:u32
         (+%7) %8:u32x8 = sel %6, 1:u32
         )" WRITE("%8") R"(
   )", "cmod-prop,dce", R"(
      block0:
         %2:u32x8 = cmp.l 1.0:f32, %1
         %3:u32x8 = cmp.ge 0.0:f32, %1
         _, %5:flagx8 = or.nz %3, %2
         (+%5) %6:u32x8 = sel %1:u32, 0:u32
         (+%5) %8:u32x8 = sel %6, 1:u32
   ...
   )"));
}

TEST(opt_cmod_prop, cmp_flag_stands_in)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:u32x8, %3:flagx8 = cmp.z %1, 0.0:f32
         (+%3) %4:u32x8 = sel 0:u32, %1:u32
         %5:flagx8 = cmp.nz %2, 0:u32
         (+%5) %6:u32x8 = sel %4, 1:u32
         )" WRITE("%6") R"(
   )", "cmod-prop,dce", R"(
      block0:
         _, %3:flagx8 = cmp.z %1, 0.0:f32
         (+%3) %4:u32x8 = sel 0:u32, %1:u32
         (+%3) %6:u32x8 = sel %4, 1:u32
   ...
   )"));
}

/* The uniform case of glamor/85.fs: brw compares at the full width. */
TEST(opt_cmod_prop, scalar_compare_moves_to_the_predicate_width)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:u32x1[4]
      attr %2:u32x8
      block0:         ; succs: block1 block2
         %3:u32x1 = cmp.l |%1[2]:f32|, 1e-05:f32 {WE_all}
         %4:flagx8 = cmp.nz %3, 0:u32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         )" WRITE("%2") R"(
      block2:         ; preds: block0 block1
         endif
   )", "cmod-prop,dce", R"(
      block0:         ; succs: block1 block2
         %4:flagx8 = cmp.l |%1[2]:f32|, 1e-05:f32
         (+%4) if
   ...
   )"));
}

/* dolphin's ubershaders test bits of a push constant: brw's and.nz. */
TEST(opt_cmod_prop, scalar_logic_op_moves_to_the_predicate_width)
{
   EXPECT_TRUE(check_opt(R"(
      shader vs simd8
      uniform %1:u32x1[4]
      attr %2:u32x8
      block0:         ; succs: block1 block2
         %3:u32x1 = and %1[1], 1024:u32 {WE_all}
         %4:flagx8 = cmp.nz %3:s32, 0:s32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         )" WRITE("%2") R"(
      block2:         ; preds: block0 block1
         endif
   )", "cmod-prop,dce", R"(
      block0:         ; succs: block1 block2
         %4:flagx8 = and.nz %1[1], 1024:u32
         (+%4) if
   ...
   )"));
}

/* The ubershaders' bools are a bit test made a scalar bool first
 * ("b = cmp.nz (a & k), 0", then "f = cmp.nz b, 0" per if): the test goes
 * on into the and when only tests read it, one and.nz per if as brw's
 * (dolphin/ubershaders/237.vs.simd8.asm:149).  An and read otherwise
 * stays, tested by a cmp.
 */
TEST(opt_cmod_prop, scalar_bool_of_a_bit_test_becomes_and_nz)
{
   EXPECT_TRUE(check_opt(R"(
      shader vs simd8
      uniform %1:u32x1[4]
      attr %2:u32x8
      block0:         ; succs: block1 block2
         %3:u32x1 = and %1[1], 2048:u32 {WE_all}
         %4:u32x1 = cmp.nz %3:s32, 0:s32 {WE_all}
         %5:flagx8 = cmp.nz %4, 0:u32
         (+%5) if
      block1:         ; preds: block0 succs: block2
         )" WRITE("%2") R"(
      block2:         ; preds: block0 block1
         endif
         %6:u32x1 = and %1[2], 7:u32 {WE_all}
         %7:u32x1 = cmp.z %6:s32, 0:s32 {WE_all}
         %8:flagx8 = cmp.nz %7, 0:u32
         (+%8) %9:u32x8 = sel %2, %6
         )" WRITE("%9") R"(
   )", "cmod-prop,dce", R"(
      block0:         ; succs: block1 block2
         %5:flagx8 = and.nz %1[1], 2048:u32
         (+%5) if
      block1:         ; preds: block0 succs: block2
   ...
      block2:         ; preds: block0 block1
         endif
         %6:u32x1 = and %1[2], 7:u32 {WE_all}
         %8:flagx8 = cmp.z %6:s32, 0:s32
         (+%8) %9:u32x8 = sel %2, %6
   ...
   )"));
}

/* nexuiz/25.fs's loop exit: "not" of a uniform compare becomes inverted
 * predicates, and the compare moves to the predicate's width.
 */
TEST(opt_cmod_prop, not_becomes_an_inverted_predicate)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:u32x8
      attr %3:u32x8
      block0:         ; succs: block1 block2
         %4:u32x1 = cmp.l %1[1], %1[3] {WE_all}
         %5:u32x1 = not %4 {WE_all}
         %6:flagx8 = cmp.nz %5, 0:u32
         (+%6) if
      block1:         ; preds: block0 succs: block2
         %7:u32x8 = or %2, %3
         %8:u32x8 = not %7
         %9:flagx8 = cmp.nz %8, 0:u32
         (-%9) %10:u32x8 = sel %2, 1:u32
         )" WRITE("%10") R"(
      block2:         ; preds: block0 block1
         endif
   )", "cmod-prop,dce", R"(
      block0:         ; succs: block1 block2
         %6:flagx8 = cmp.l %1[1], %1[3]
         (-%6) if
      block1:         ; preds: block0 succs: block2
         _, %9:flagx8 = or.nz %2, %3
         (+%9) %10:u32x8 = sel %2, 1:u32
   ...
   )"));
}

/* A scalar bool that something else reads stays; the count is the same. */
TEST(opt_cmod_prop, scalar_compare_read_elsewhere_stays)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:s32x1[4]
      block0:
         %3:u32x1 = cmp.z %1[1]:s32, 0:s32 {WE_all}
         %4:flagx8 = cmp.nz %3, 0:u32
         (+%4) %5:u32x8 = sel %3, 7:u32
         )" WRITE("%5") R"(
   )", "cmod-prop,dce", R"(
      block0:
         %3:u32x1 = cmp.z %1[1], 0:s32 {WE_all}
         %4:flagx8 = cmp.z %1[1], 0:s32
         (+%4) %5:u32x8 = sel %3, 7:u32
   ...
   )"));
}

TEST(opt_cmod_prop, what_must_not_change)
{
   /* Another flag written in between, a float op (its .nz would compare
    * -0.0 as zero), a definition in another block, and .z of a cmp (the
    * inverse comparison is not the same with NaN).
    */
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      block0:         ; succs: block1 block2
         %3:u32x8 = and %2, 1:u32
         %4:flagx8 = cmp.g %1, 0.0:f32
         (+%4) %5:u32x8 = sel %2, 0:u32
         %6:flagx8 = cmp.nz %3, 0:u32
         (+%6) %7:u32x8 = sel %5, 1:u32
         %8:f32x8 = add %1, 1.0:f32
         %9:flagx8 = cmp.nz %8:u32, 0:u32
         (+%9) %10:u32x8 = sel %7, 2:u32
         %11:u32x8 = cmp.l %1, 0.5:f32
         %12:flagx8 = cmp.z %11, 0:u32
         (+%12) %13:u32x8 = sel %10, 3:u32
         %14:u32x8 = xor %2, %13
         (+%4) if
      block1:         ; preds: block0 succs: block2
         %15:flagx8 = cmp.nz %14, 0:u32
         (+%15) %16:u32x8 = sel %2, 4:u32
         )" WRITE("%16") R"(
      block2:         ; preds: block0 block1
         endif
         )" WRITE("%13") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cmod-prop", program));
}

/* warsow/91.vs: "cmp.l x, 0.0" of a mad is the mad's own .l, as brw
 * makes it; a negated x mirrors the test.
 */
TEST(opt_cmod_prop, float_test_of_zero_moves_to_the_definition)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:f32x8
      block0:
         %3:f32x8 = mad %1, %2, %1
         %4:flagx8 = cmp.l %3, 0.0:f32
         (+%4) %5:f32x8 = sel %1, %3
         %6:f32x8 = add %1, %2
         %7:flagx8 = cmp.ge -%6, 0.0:f32
         (+%7) %8:f32x8 = sel %5, %6
         )" WRITE("%8") R"(
   )", "cmod-prop", R"(
      block0:
         %3:f32x8, %4:flagx8 = mad.l %1, %2, %1
         (+%4) %5:f32x8 = sel %1, %3
         %6:f32x8, %7:flagx8 = add.le %1, %2
         (+%7) %8:f32x8 = sel %5, %6
   ...
   )"));
}

TEST(opt_cmod_prop, float_test_that_must_stay)
{
   /* The cmp's value read, a saturated definition, a non-zero immediate,
    * |x|, an integer definition, another flag written in between, and a
    * math result (math takes no conditional modifier).
    */
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:f32x8
      attr %20:s32x8
      block0:
         %3:f32x8 = mul %1, %2
         %4:u32x8, %5:flagx8 = cmp.l %3, 0.0:f32
         (+%5) %6:f32x8 = sel %1, %2
         %7:f32x8 = add.sat %1, %2
         %8:flagx8 = cmp.g %7, 0.0:f32
         (+%8) %9:f32x8 = sel %6, %7
         %10:f32x8 = add %1, %9
         %11:flagx8 = cmp.g %10, 1.0:f32
         (+%11) %12:f32x8 = sel %9, %10
         %13:f32x8 = mul %1, %12
         %14:flagx8 = cmp.g |%13|, 0.0:f32
         (+%14) %15:f32x8 = sel %12, %13
         %21:s32x8 = add %20, 1:s32
         %22:flagx8 = cmp.l %21:f32, 0.0:f32
         (+%22) %23:f32x8 = sel %15, %21:f32
         %24:f32x8 = add %1, %23
         %25:flagx8 = cmp.l %1, %2
         (+%25) %26:f32x8 = sel %23, %24
         %27:flagx8 = cmp.z %24, 0.0:f32
         (+%27) %28:f32x8 = sel %26, %1
         %29:f32x8 = math_rsq %28
         %30:flagx8 = cmp.z %29, 0.0:f32
         (+%30) %31:f32x8 = sel %28, %29
         )" WRITE("%4:f32") R"(
         )" WRITE("%31") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cmod-prop", program));
}
