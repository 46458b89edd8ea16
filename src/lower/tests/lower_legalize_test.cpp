/*
 * Legalization (lower_legalize.cpp): each rule with an instruction that
 * breaks it and the legal instructions lowering makes of it.  Without the
 * rule, the output keeps the illegal form and "validate" (which runs
 * after "lower") rejects it.
 */
#include "lower_test.h"

using ibis::testing::check_lower;

/* Three-source instructions take no immediates: the constant is loaded into a width-1 value read as a scalar. */
TEST(lower_legalize, three_source_immediate_becomes_scalar)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = mad %0, %0, 2.0:f32
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x1 = mov 2.0:f32 {WE_all}
         %1:f32x8 = mad %0, %0, %2
   )"));
}

/* Only src1 holds an immediate; add commutes. */
TEST(lower_legalize, commutative_immediate_moves_to_src1)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = add 1.0:f32, -%0
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = add -%0, 1.0:f32
   )"));
}

/* cmp.l 1, x is cmp.g x, 1. */
TEST(lower_legalize, comparison_swaps_and_reverses)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.l 1.0:f32, %0
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.g %0, 1.0:f32
   )"));
}

/* A predicated sel picks src0 where the predicate holds: swapping inverts it. */
TEST(lower_legalize, predicated_sel_swaps_and_inverts)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) %2:f32x8 = sel 1.0:f32, %0
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (-%1) %2:f32x8 = sel %0, 1.0:f32
   )"));
}

/* shl does not commute: its immediate src0 is loaded. */
TEST(lower_legalize, non_commutative_immediate_is_loaded)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u32x8
      block0:
         %1:u32x8 = shl 1:u32, %0
   )", R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %2:u32x1 = mov 1:u32 {WE_all}
         %1:u32x8 = shl %2, %0
   )"));
}

/* The math unit reads no immediate src0. */
TEST(lower_legalize, math_immediate_src0_is_loaded)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = math_pow 2.0:f32, %0
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x1 = mov 2.0:f32 {WE_all}
         %1:f32x8 = math_pow %2, %0
   )"));
}

/* 64-bit immediates exist only for mov. */
TEST(lower_legalize, immediate_64bit_is_loaded)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f64x8
      block0:
         %1:f64x8 = add %0, 1.0:f64
   )", R"(
      shader fs simd8 lowered
      attr %0:f64x8
      block0:
         %2:f64x1 = mov 1.0:f64 {WE_all}
         %1:f64x8 = add %0, %2
   )"));
}

/* A u16 result of a dword add: computed at 32 bits, then the low words moved with a stride-2 read. */
TEST(lower_legalize, narrow_destination_goes_through_dwords)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u32x8
      block0:
         %1:u16x8 = add %0, 1:u32
   )", R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %2:u32x8 = add %0, 1:u32
         %1:u16x8 = mov %2<16,8,2>:u16
   )"));
}

/* imul_32x16's second source truncated to a word (mov %w:s16 = %d:s32)
 * is read as %d's low words through <16,8,2>, as brw's mul(8) D x
 * g37<16,8,2>W (dolphin/efb2ram.fs.simd8.asm:22): the mov goes.  A
 * scalar reads <0,1,0>; a truncation read elsewhere too stays for the
 * other reader, itself one strided mov.
 */
TEST(lower_legalize, mul_reads_a_truncated_source_as_low_words)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:s32x8[2]
      uniform %1:s32x1[2]@g4
      block0:
         %2:s16x8 = mov %0[1]
         %3:s32x8 = mul %0:s32, %2
         %4:s16x1 = mov %1[1] {WE_all}
         %5:s32x1 = mul %1:s32, %4 {WE_all}
         %6:s16x8 = mov %0
         %7:s32x8 = mul %0[1]:s32, %6
         %8:s16x8 = add %6, %6
   )", R"(
      shader fs simd8 lowered
      attr %0:s32x8[2]
      uniform %1:s32x1[2]@g4
      block0:
         %3:s32x8 = mul %0, %0[1]<16,8,2>:s16
         %5:s32x1 = mul %1, %1[1]<0,1,0>:s16 {WE_all}
         %6:s16x8 = mov %0<16,8,2>:s16
         %7:s32x8 = mul %0[1], %0<16,8,2>:s16
         %8:s16x8 = add %6, %6
   )"));
}

/* A mul reading the bits of a half float converted from a DW reads the
 * conversion's result, not the DW's low words (random vs seed 5784).
 */
TEST(lower_legalize, mul_reads_a_half_float_conversion_as_it_is)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:s32x8[2]
      block0:
         %2:f16x8 = mov %0[1]
         %3:s32x8 = mul %0:s32, %2:s16
   )", R"(
      shader fs simd8 lowered
      attr %0:s32x8[2]
      block0:
         %4:f32x8 = mov %0[1]
         %2:f16x8 = mov %4
         %3:s32x8 = mul %0, %2:s16
   )"));
}

/* From SIMD16 on the truncation stays where the DW dies at the mul and
 * was defined more than 4 instructions before it: the word copy holds one
 * GRF where the DW holds two (%1); a DW read after the mul is live anyway
 * and is read in place (%4).
 */
TEST(lower_legalize, simd16_mul_reads_low_words_only_of_a_dw_live_after_it)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:s32x16[2]
      block0:
         %1:s32x16 = add %0, 1:s32
         %2:s16x16 = mov %1
         %9:s32x16 = add %0, 3:s32
         %10:s32x16 = add %0, 4:s32
         %11:s32x16 = add %0, 5:s32
         %3:s32x16 = mul %0[1]:s32, %2
         %4:s32x16 = add %0, 2:s32
         %5:s16x16 = mov %4
         %6:s32x16 = mul %0[1]:s32, %5
         %7:s32x16 = add %4, %6
         %8:s32x16 = add %3, %7
         %12:s32x16 = add %9, %10
         %13:s32x16 = add %11, %12
   )", R"(
      shader fs simd16 lowered
      attr %0:s32x16[2]
      block0:
         %1:s32x16 = add %0, 1:s32
         %2:s16x16 = mov %1<16,8,2>:s16
         %9:s32x16 = add %0, 3:s32
         %10:s32x16 = add %0, 4:s32
         %11:s32x16 = add %0, 5:s32
         %3:s32x16 = mul %0[1], %2
         %4:s32x16 = add %0, 2:s32
         %6:s32x16 = mul %0[1], %4<16,8,2>:s16
         %7:s32x16 = add %4, %6
         %8:s32x16 = add %3, %7
         %12:s32x16 = add %9, %10
         %13:s32x16 = add %11, %12
   )"));
}

/* At SIMD16 a DW defined at most 4 instructions before the mul is read
 * in place too: it lives only a few instructions wider (dolphin/efb2ram.fs
 * SIMD16: brw reads the sign select of imul_32x16 as "g75<16,8,2>W").
 * Defined further up, the word copy stays (%6).
 */
TEST(lower_legalize, simd16_mul_reads_low_words_of_a_dw_defined_close_before)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:s32x16[2]
      block0:
         %1:s32x16 = sel.l %0, 1:s32
         %2:u32x16 = shr %0[1]:u32, 2:u32
         %3:s16x16 = mov %1
         %4:s32x16 = mul %2:s32, %3
         %5:s32x16 = sel.l %0[1], 1:s32
         %6:s16x16 = mov %5
         %7:s32x16 = add %0, 1:s32
         %8:s32x16 = add %0, 2:s32
         %9:s32x16 = add %0, 3:s32
         %10:s32x16 = add %0, 4:s32
         %11:s32x16 = mul %4, %6
         %12:s32x16 = add %7, %8
         %13:s32x16 = add %9, %10
         %14:s32x16 = add %11, %12
         %15:s32x16 = add %13, %14
   )", R"(
      shader fs simd16 lowered
      attr %0:s32x16[2]
      block0:
         %1:s32x16 = sel.l %0, 1:s32
         %2:u32x16 = shr %0[1]:u32, 2:u32
         %4:s32x16 = mul %2:s32, %1<16,8,2>:s16
         %5:s32x16 = sel.l %0[1], 1:s32
         %6:s16x16 = mov %5<16,8,2>:s16
         %7:s32x16 = add %0, 1:s32
         %8:s32x16 = add %0, 2:s32
         %9:s32x16 = add %0, 3:s32
         %10:s32x16 = add %0, 4:s32
         %11:s32x16 = mul %4, %6
         %12:s32x16 = add %7, %8
         %13:s32x16 = add %9, %10
         %14:s32x16 = add %11, %12
         %15:s32x16 = add %13, %14
   )"));
}

/* Byte operands execute as words: a u8 result of a byte `and` is computed
 * as a u16 and its low bytes read with a stride of 2 (a u64 temporary read
 * that way lost b2i8 of true: random vs seed 50).
 */
TEST(lower_legalize, byte_destination_goes_through_words)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u8x8
      block0:
         %1:u8x8 = and %0, 1:u8
   )", R"(
      shader fs simd8 lowered
      attr %0:u8x8
      block0:
         %2:u16x8 = and %0, 1:u8
         %1:u8x8 = mov %2<16,8,2>:u8
   )"));
}

/* An integer truncation is one mov of the source's low parts through a
 * strided region, not a copy at the wide type and a strided mov of the
 * copy (dolphin/efb2ram.fs SIMD16 81 -> 76 instructions, brw 71).  A
 * negated source is an arithmetic mov and keeps the two steps.
 */
TEST(lower_legalize, integer_truncation_reads_the_low_parts)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:s32x16
      attr %1:u16x16
      block0:
         %2:s16x16 = mov %0
         %3:u8x16 = mov %1
         %4:u16x16 = mov -%0
         %5:u16x16 = add %2, %3
         %6:u16x16 = add %5, %4
   )", R"(
      shader fs simd16 lowered
      attr %0:s32x16
      attr %1:u16x16
      block0:
         %2:s16x16 = mov %0<16,8,2>:s16
         %3:u8x16 = mov %1<16,8,2>:u8
         %7:u32x16 = mov -%0
         %4:u16x16 = mov %7<16,8,2>:u16
         %5:u16x16 = add %2, %3
         %6:u16x16 = add %5, %4
   )"));
}

/* A byte from a qword goes through the low dword: reading every eighth
 * byte would need <64,8,8>, beyond what a region encodes (random vs
 * seed 41).
 */
TEST(lower_legalize, byte_from_qword_goes_through_a_dword)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u64x8
      block0:
         %1:u8x8 = mov %0
   )", R"(
      shader fs simd8 lowered
      attr %0:u64x8
      block0:
         %2:u64x8 = mov %0
         %3:u32x8 = mov %2<16,8,2>:u32
         %1:u8x8 = mov %3<32,8,4>:u8
   )"));
}

/* A float narrowing converts: f64 -> f32 writes f32 elements strided over
 * a wide register (reading the low dword of the double instead turned
 * 90.25 into 0: random fs seed 24).
 */
TEST(lower_legalize, float_narrowing_converts_into_a_strided_destination)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f64x8
      block0:
         %1:f32x8 = mov %0
   )", R"(
      shader fs simd8 lowered
      attr %0:f64x8
      wlr %2:f32x8[2]
      block0:
         %2<2> = mov %0
         %1:f32x8 = mov %2<16,8,2>
   )"));
}

/* The same for a width-1 NoMask value: the low word is read as a scalar. */
TEST(lower_legalize, uniform_narrow_destination)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      uniform %0:u32x1
      block0:
         %1:u16x1 = add %0, 1:u32 {WE_all}
   )", R"(
      shader fs simd8 lowered
      uniform %0:u32x1
      block0:
         %2:u32x1 = add %0, 1:u32 {WE_all}
         %1:u16x1 = mov %2<0,1,0>:u16 {WE_all}
   )"));
}

/* When multiplying a DW by a narrower integer, the DW operand must be src0 (brw_eu_validate.c). */
TEST(lower_legalize, mul_takes_the_dword_in_src0)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u16x8
      attr %1:u32x8
      block0:
         %2:u32x8 = mul %0, %1
   )", R"(
      shader fs simd8 lowered
      attr %0:u16x8
      attr %1:u32x8
      block0:
         %2:u32x8 = mul %1, %0
   )"));
}

/* A DW immediate cannot be src0: times a word it becomes a word when it
 * fits, else a scalar register in src0 (random vs seed 1: mul %77:u16,
 * 255:u32 broke the DW-in-src0 rule).
 */
TEST(lower_legalize, mul_dword_immediate_by_a_word)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u16x8
      attr %1:s16x8
      block0:
         %2:u32x8 = mul 255:u32, %0
         %3:s32x8 = mul %1, -7:s32
         %4:u32x8 = mul %0, 0x12345:u32
   )", R"(
      shader fs simd8 lowered
      attr %0:u16x8
      attr %1:s16x8
      block0:
         %2:u32x8 = mul %0, 255:u16
         %3:s32x8 = mul %1, -7:s16
         %5:u32x1 = mov 0x12345:u32 {WE_all}
         %4:u32x8 = mul %5, %0
   )"));
}

/* Gen9 csel is F only: an integer one is a comparison and a predicated sel. */
TEST(lower_legalize, integer_csel_becomes_cmp_and_sel)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:s32x8[3]
      block0:
         %1:s32x8 = csel.nz %0, %0[1], %0[2]
   )", R"(
      shader fs simd8 lowered
      attr %0:s32x8[3]
      block0:
         %2:flagx8 = cmp.nz %0[2], 0:s32
         (+%2) %1:s32x8 = sel %0, %0[1]
   )"));
}

/* Gen9 writes integer/HF conversions dword-strided (brw_eu_validate.c); through f32 they are packed.  A dword destination is already legal. */
TEST(lower_legalize, integer_to_hf_goes_through_f32)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u16x8
      attr %1:f16x8
      block0:
         %2:f16x8 = mov %0
         %3:u16x8 = mov %1
         %4:s32x8 = mov %1
   )", R"(
      shader fs simd8 lowered
      attr %0:u16x8
      attr %1:f16x8
      block0:
         %5:f32x8 = mov %0
         %2:f16x8 = mov %5
         %6:f32x8 = mov %1
         %7:u32x8 = mov %6
         %3:u16x8 = mov %7<16,8,2>:u16
         %4:s32x8 = mov %1
   )"));
}

/* A :v immediate holds 8 elements, which Gen repeats every 8 channels: a
 * SIMD16 piece reads it as it is (brw's pixel centers, an add(16) of
 * 0x11001010:v in tesseract/365.fs.simd8.asm:3).
 */
TEST(lower_legalize, wide_vector_immediate_stays)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:u16x16
      block0:
         %1:u16x16 = add %0, 0x76543210:v
   )", R"(
      shader fs simd16 lowered
      attr %0:u16x16
      block0:
         %1:u16x16 = add %0, 0x76543210:v
   )"));
}

/* Every channel of an immediate is the same: reading it from another
 * channel (broadcast, shuffle) is a mov of it.  Codegen refused these and
 * rejected many random programs.
 */
TEST(lower_legalize, broadcast_and_shuffle_of_an_immediate_are_movs)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u32x8
      block0:
         %1:u32x8 = shuffle 7:u32, %0
         %2:u32x1 = broadcast 9:u32, 3:u32 {WE_all}
         %3:u32x8 = add %1, %2
   )", R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %1:u32x8 = mov 7:u32
         %2:u32x1 = mov 9:u32 {WE_all}
         %3:u32x8 = add %1, %2
   )"));
}

/* Conversions Mesa's EU validator refuses, in forms it accepts: bytes to
 * qwords through a dword of the byte's sign ("no direct conversions
 * between 64-bit types and B/UB"); a byte constant from a scalar register,
 * so that the move writing packed bytes is raw (Gen has no byte
 * immediate: code generation's word one made it a conversion); a scalar
 * 64-bit source of a three-source instruction spread over the channels
 * (align16 cannot replicate 64-bit operands).  Random-program mutants
 * (check_pipeline_mutation seeds 3, 23 and 53).
 */
TEST(lower_legalize, qword_from_byte_goes_through_a_dword)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:s8x8
      block0:
         %1:s64x8 = mov %0
   )", R"(
      shader fs simd8 lowered
      attr %0:s8x8
      block0:
         %2:s32x8 = mov %0
         %1:s64x8 = mov %2
   )"));
}

TEST(lower_legalize, byte_constant_comes_from_a_register)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      block0:
         %1:u8x8 = mov 7:u8
   )", R"(
      shader fs simd8 lowered
      block0:
         %2:u8x1 = mov 7:u8 {WE_all}
         %1:u8x8 = mov %2
   )"));
}

TEST(lower_legalize, scalar_qword_of_a_three_source_is_spread)
{
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f64x8
      uniform %1:f64x1
      block0:
         %2:f64x8 = mad %0, %1, %0
   )", R"(
      shader fs simd8 lowered
      attr %0:f64x8
      uniform %1:f64x1
      block0:
         %3:f64x8 = mov %1
         %2:f64x8 = mad %0, %3, %0
   )"));
}
