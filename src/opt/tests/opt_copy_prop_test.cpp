/*
 * Copy propagation: what a copy is, where its source may go, immediates
 * only where Gen9 encodes them, source modifiers only where the consumer
 * has them.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_copy_prop, ssa_copy_chain)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = mov %2
         %4:f32x8 = mov %3
         %5:f32x8 = mul %4, %3
         )" WRITE("%5") R"(
   )", "copy-prop,dce", R"(
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %5:f32x8 = mul %2, %2
         )" WRITE("%5") R"(
   )"));
}

/* A raw copy of the bits reinterpreted: the use keeps its own type. */
TEST(opt_copy_prop, same_bits_other_type)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8[2]
      block0:
         %2:u32x8 = mov %1[1]:u32
         %3:u32x8 = and %2, 0x7fffffff:u32
         %4:s32x8 = add %2:s32, -1:s32
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
   )", "copy-prop,dce", R"(
      block0:
         %3:u32x8 = and %1[1]:u32, 0x7fffffff:u32
         %4:s32x8 = add %1[1]:s32, -1:s32
   ...
   )"));
}

/* Conversions, saturate, predication, conditional modifiers and partial
 * writes are not copies.
 */
TEST(opt_copy_prop, not_copies)
{
   const char *program = R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:u32x16 = mov %1
         %3:f32x16 = mov.sat %1
         %4:flagx16 = cmp.l %1, 0.0:f32
         %5:f32x16 = mov 0.0:f32
         (+%4) %6:f32x16 = mov %1, preserve %5
         %7:f32x16, %8:flagx16 = mov.nz %1
         %9:f32x16 = mov(8) 1.0:f32, preserve %3
         %10:f32x8+8 = mov %1
         %11:f32x16 = add %3, %6
         %12:f32x16 = add %7, %9
         %13:f32x8+8 = add %10, 1.0:f32
         (+%8) discard
         )" WRITE("%2") R"(
         )" WRITE("%11") R"(
         )" WRITE("%12") R"(
         )" WRITE("%13") R"(
   )";
   EXPECT_TRUE(check_opt(program, "copy-prop", program));
}

/* src1 takes the immediate; a commutative src0 use swaps it there, cmp
 * swaps and mirrors its test; a shift cannot; 3-source instructions,
 * 1-source ALU and sends take none.
 */
TEST(opt_copy_prop, immediates_where_gen9_encodes_them)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      block0:
         %3:f32x8 = mov 2.0:f32
         %4:u32x8 = mov 5:u32
         %5:f32x8 = add %1, %3
         %6:f32x8 = mul %3, %1
         %7:flagx8 = cmp.l %3, %1
         %8:u32x8 = shl %4, %2
         %9:u32x8 = shl %2, %4
         %10:f32x8 = mad %1, %3, %1
         %11:f32x8 = frc %3
         %12:f32x8 = mov %3
         %13:f32x8 = math_pow %3, %3
         (+%7) discard
         untyped_write_logical 0:u32, %4, %4, 1:u32
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
         )" WRITE("%11") R"(
         )" WRITE("%12") R"(
         )" WRITE("%13") R"(
   )", "copy-prop", R"(
      block0:
         %3:f32x8 = mov 2.0:f32
         %4:u32x8 = mov 5:u32
         %5:f32x8 = add %1, 2.0:f32
         %6:f32x8 = mul %1, 2.0:f32
         %7:flagx8 = cmp.g %1, 2.0:f32
         %8:u32x8 = shl %4, %2
         %9:u32x8 = shl %2, 5:u32
         %10:f32x8 = mad %1, %3, %1
         %11:f32x8 = frc %3
         %12:f32x8 = mov 2.0:f32
         %13:f32x8 = math_pow %3, 2.0:f32
         (+%7) discard
         untyped_write_logical 0:u32, %4, %4, 1:u32
   ...
   )"));
}

/* A predicated sel picks src0 where the flag is set: swapping inverts the
 * predicate.  sel.ge is max and commutes; sel.g does not.
 */
TEST(opt_copy_prop, immediate_into_sel)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = mov 0.5:f32
         %3:flagx8 = cmp.l %1, 0.0:f32
         (+%3) %4:f32x8 = sel %2, %1
         %5:f32x8 = sel.ge %2, %1
         %6:f32x8 = sel.g %2, %1
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
   )", "copy-prop", R"(
      block0:
         %2:f32x8 = mov 0.5:f32
         %3:flagx8 = cmp.l %1, 0.0:f32
         (-%3) %4:f32x8 = sel %1, 0.5:f32
         %5:f32x8 = sel.ge %1, 0.5:f32
         %6:f32x8 = sel.g %2, %1
   ...
   )"));
}

/* Never two immediates; no 64-bit immediate outside mov, no byte
 * immediates at all.
 */
TEST(opt_copy_prop, immediate_limits)
{
   const char *program = R"(
      shader fs simd8
      attr %1:f64x8
      attr %2:u8x8
      block0:
         %3:f32x8 = mov 1.0:f32
         %4:f32x8 = add 3.0:f32, %3
         %5:f64x8 = mov 2.0:f64
         %6:f64x8 = add %1, %5
         %7:u8x8 = mov 3:u8
         %8:u8x8 = add %2, %7
         )" WRITE("%4") R"(
         )" WRITE("%6") R"(
         )" WRITE("%8") R"(
   )";
   EXPECT_TRUE(check_opt(program, "copy-prop", program));
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      block0:
         %5:f64x8 = mov 2.0:f64
         %6:f64x8 = mov %5
         )" WRITE("%6") R"(
   )", "copy-prop,dce", R"(
      block0:
         %6:f64x8 = mov 2.0:f64
         )" WRITE("%6") R"(
   )"));
}

/* The use's modifiers fold into the immediate, except on logic ops where
 * a negate is a bitwise not.
 */
TEST(opt_copy_prop, immediate_with_use_modifiers)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:s32x8
      block0:
         %3:f32x8 = mov -2.5:f32
         %4:f32x8 = add %1, -|%3|
         %5:s32x8 = mov -7:s32
         %6:s32x8 = add %2, -%5
         %7:s32x8 = and %2, -%5
         )" WRITE("%4") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
   )", "copy-prop", R"(
         %4:f32x8 = add %1, -2.5:f32
         %5:s32x8 = mov -7:s32
         %6:s32x8 = add %2, 7:s32
         %7:s32x8 = and %2, -%5
   ...
   )"));
}

/* neg/abs of a copy fold into consumers of the same type that take source
 * modifiers; not into logic ops, bit ops, sends or another type.
 */
TEST(opt_copy_prop, source_modifiers)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:s32x8
      block0:
         %3:f32x8 = mov -%1
         %4:f32x8 = add %3, |%3|
         %5:f32x8 = mul -%3, %1
         %6:s32x8 = mov -%2
         %7:s32x8 = and %6, 255:s32
         %8:s32x8 = bfrev %6
         %9:u32x8 = add %6:u32, 1:u32
         %10:s32x8 = add %6, %2
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
         )" WRITE("%6") R"(
   )", "copy-prop,dce", R"(
      block0:
         %4:f32x8 = add -%1, |%1|
         %5:f32x8 = mul %1, %1
         %6:s32x8 = mov -%2
         %7:s32x8 = and %6, 255:s32
         %8:s32x8 = bfrev %6
         %9:u32x8 = add %6:u32, 1:u32
         %10:s32x8 = add -%2, %2
   ...
   )"));
}

/* A width-1 value copied to full width is a broadcast: ALU sources may read
 * it through <0,1,0>; sends, payloads and phis need the full-width value.
 */
TEST(opt_copy_prop, uniform_broadcast)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      uniform %1:f32x1[2]
      attr %2:f32x16
      block0:
         %3:f32x16 = mov %1[1]
         %4:f32x16 = mad %2, %3, %2
         %5:f32x16 = load_payload %3, %4
         fb_write_logical %3, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "copy-prop", R"(
      block0:
         %3:f32x16 = mov %1[1]
         %4:f32x16 = mad %2, %1[1], %2
         %5:f32x16 = load_payload %3, %4
         fb_write_logical %3, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   /* One channel of a full-width value, broadcast by a scalar region. */
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:f32x16 = mov %1.12<0,1,0>
         %3:f32x16 = add %1, %2
         )" WRITE("%3") R"(
   )", "copy-prop,dce", R"(
      block0:
         %3:f32x16 = add %1, %1.12<0,1,0>
         )" WRITE("%3") R"(
   )"));
}

/* Copies from registers that can be written again are not propagated. */
TEST(opt_copy_prop, hw_register_source_stays)
{
   const char *program = R"(
      shader fs simd8
      hw %1:u32x8@g1
      block0:
         %2:u32x8 = mov %1
         %1 = mov 0:u32
         %3:u32x8 = add %2, 1:u32
         )" WRITE("%3") R"(
   )";
   EXPECT_TRUE(check_opt(program, "copy-prop", program));
}

TEST(opt_copy_prop, flag_copy_into_predicate)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         %3:flagx8 = mov %2
         (-%3) discard
   )", "copy-prop,dce", R"(
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         (-%2) discard
   )"));
}

/* Phis and payloads take same-layout copies, not immediates. */
TEST(opt_copy_prop, into_phi_and_payload)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:f32x8 = mov %1
         %3:f32x8 = mov 1.0:f32
         %4:flagx8 = cmp.l %1, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         %5:f32x8 = add %1, 1.0:f32
      block2:         ; preds: block0 block1
         endif
         %6:f32x8 = phi %2, %5
         %7:f32x8 = phi %3, %5
         %8:f32x8[2] = load_payload %2, %3
         untyped_write_logical 0:u32, %6, %8, 2:u32
         )" WRITE("%7") R"(
   )", "copy-prop", R"(
         %6:f32x8 = phi %1, %5
         %7:f32x8 = phi %3, %5
         %8:f32x8[2] = load_payload %1, %3
   ...
   )"));
}

/* A phi reading one operand on every edge is a copy of it: both arms of
 * the README's vignette copy the texel's alpha, copy-prop resolves the
 * copies, and the phi goes too (it cost a mov in each arm).  A loop phi
 * reading itself on the back edge is not such a phi.
 */
TEST(opt_copy_prop, phi_of_one_operand)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8[4]
      block0:         ; succs: block1 block2
         %4:flagx8 = cmp.l %1, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block3
         %5:u32x8 = mov %1[3]:u32
         else
      block2:         ; preds: block0 succs: block3
         %6:u32x8 = mov %1[3]:u32
      block3:         ; preds: block1 block2
         endif
         %7:u32x8 = phi %5, %6
         %8:u32x8[2] = load_payload %1:u32, %7
         untyped_write_logical 0:u32, %8, %8, 2:u32
   )", "copy-prop,dce", R"(
      block0:         ; succs: block1 block2
         %4:flagx8 = cmp.l %1, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block3
         else
      block2:         ; preds: block0 succs: block3
      block3:         ; preds: block1 block2
         endif
         %8:u32x8[2] = load_payload %1:u32, %1[3]:u32
   ...
   )"));
}

/* A copy of a complete WLR value: its reads stand for the copy's.  The
 * writes of the sequence are not copies: the later read of %2 must not
 * become %1, nor the or's read of %2.
 */
TEST(opt_copy_prop, wlr_value)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      attr %1:u32x16[2]
      wlr %2:u32x16
      block0:
         %2 = mov %1
         %2 = or %2, %1[1]
         %3:u32x16 = mov %2
         %4:u32x16 = add %3, %2
         )" WRITE("%4") R"(
   )", "copy-prop,dce", R"(
      block0:
         %2 = mov %1
         %2 = or %2, %1[1]
         %4:u32x16 = add %2, %2
         )" WRITE("%4") R"(
   )"));
}

/* warsow/91.vs: b32csel of x and -x.  A predicated sel only picks bits, so
 * it turns float to take the negate; a sel.ge (a float max of its own
 * type), a sel with a modifier on the other source, and an unpredicated
 * integer add keep the copy.
 */
TEST(opt_copy_prop, negated_copy_retypes_a_select)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      block0:
         %3:f32x8 = mov -%1
         %4:flagx8 = cmp.l %1, 0.0:f32
         (+%4) %5:u32x8 = sel %3:u32, %1:u32
         %6:f32x8 = mov |%1|
         (+%4) %7:u32x8 = sel %5, %6:u32
         %8:u32x8 = sel.ge %3:u32, %2
         (+%4) %9:u32x8 = sel %3:u32, -%2
         %10:u32x8 = add %3:u32, %9
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%10") R"(
   )", "copy-prop", R"(
      block0:
         %3:f32x8 = mov -%1
         %4:flagx8 = cmp.l %1, 0.0:f32
         (+%4) %5:u32x8:f32 = sel -%1, %1
         %6:f32x8 = mov |%1|
         (+%4) %7:u32x8:f32 = sel %5:f32, |%1|
         %8:u32x8 = sel.ge %3:u32, %2
         (+%4) %9:u32x8 = sel %3:u32, -%2
         %10:u32x8 = add %3:u32, %9
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%10") R"(
   )"));
}

/* A width-1 mach keeps its width: the mul before it wrote the accumulator
 * of channel 0 only (random cs seed 5802: imul_high of two uniforms read
 * garbage accumulator channels 1-7 once widened).
 */
TEST(opt_copy_prop, broadcast_of_a_mach_stays_a_broadcast)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      uniform %1:s32x1[2]
      accum %2:s32x1@acc0
      block0:
         %2 = mul %1:s32, %1[1]:u16 {WE_all}
         %3:s32x1 = mach %1:s32, %1[1]:s32 {WE_all}
         %4:u32x8 = mov %3:u32
         %5:u32x8[2] = load_payload %4, %4
   )", "copy-prop", R"(
      block0:
         %2 = mul %1, %1[1]:u16 {WE_all}
         %3:s32x1 = mach %1, %1[1] {WE_all}
         %4:u32x8 = mov %3:u32
         %5:u32x8[2] = load_payload %4, %4
   )"));
}

/* dolphin/smg.2.fs: a width-1 mov.sat of a push constant only broadcast
 * into the render target payload is computed at full width.  A width-1
 * value read elsewhere too, and one computed from a full-width channel,
 * keep their broadcast.
 */
TEST(opt_copy_prop, broadcast_of_a_lone_scalar_result_widens_it)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      uniform %1:f32x1[4]
      attr %2:f32x8
      block0:
         %3:f32x1 = mov.sat %1[1] {WE_all}
         %4:f32x8 = mov %3
         %5:f32x1 = add %1[2], 1.0:f32 {WE_all}
         %6:f32x8 = mov %5
         %7:f32x1 = mul %5, %1[3] {WE_all}
         %8:f32x8 = mov %7
         %9:f32x1 = add %2.3<0,1,0>, 1.0:f32 {WE_all}
         %10:f32x8 = mov %9
         %11:u32x8[4] = load_payload %4:u32, %6:u32, %8:u32, %10:u32
         fb_write_logical %11, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", "copy-prop", R"(
      block0:
         %4:f32x8 = mov.sat %1[1]
         %5:f32x1 = add %1[2], 1.0:f32 {WE_all}
         %6:f32x8 = mov %5
         %8:f32x8 = mul %5, %1[3]
         %9:f32x1 = add %2.3<0,1,0>, 1.0:f32 {WE_all}
         %10:f32x8 = mov %9
         %11:u32x8[4] = load_payload %4:u32, %6:u32, %8:u32, %10:u32
         fb_write_logical %11, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* The float sel reads its other source as a float, flushing a denormal:
 * integer bits (a phi of u32, the integer 1, a denormal immediate) keep
 * the copy; a float result and a normal float immediate take the negate
 * (random vs seed 40 with register arrays: an fceil stored over the
 * integer 1 read back 0).
 */
TEST(opt_copy_prop, negated_copy_keeps_integer_select)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      attr %2:u32x8
      block0:
         %3:f32x8 = mov -%1
         %4:flagx8 = cmp.l %1, 0.0:f32
         %5:u32x8 = add %2, 1:u32
         (+%4) %6:u32x8 = sel %3:u32, %5
         (+%4) %7:u32x8 = sel %3:u32, 1:u32
         %8:f32x8 = add %1, 1.0:f32
         (+%4) %9:u32x8 = sel %3:u32, %8:u32
         (+%4) %10:u32x8 = sel %3:u32, 0x3f800000:u32
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
   )", "copy-prop", R"(
      block0:
         %3:f32x8 = mov -%1
         %4:flagx8 = cmp.l %1, 0.0:f32
         %5:u32x8 = add %2, 1:u32
         (+%4) %6:u32x8 = sel %3:u32, %5
         (+%4) %7:u32x8 = sel %3:u32, 1:u32
         %8:f32x8 = add %1, 1.0:f32
         (+%4) %9:u32x8:f32 = sel -%1, %8
         (+%4) %10:u32x8:f32 = sel -%1, 1.0:f32
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
   )"));
}

/* tesseract/389.fs: the pixel centre, "mov" of the payload's u16
 * coordinates to float and "add 0.5".  A two-source float instruction
 * converts a 16-bit integer source (exact) to its float execution type as
 * it reads it: add, mul, cmp and sel.ge/sel.l read the integers.  Not a
 * three-source mad, not a use with a modifier, not the second integer
 * source of an add (its execution type would turn integer), not a
 * predicated sel, not math, and not a 32-bit integer (it rounds).
 */
TEST(opt_copy_prop, conversion_of_16_bit_integers_into_float_sources)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      wlr %0:u16x32
      hw %1:u16x16@g1
      attr %5:f32x16
      attr %10:s32x16
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2:f32x16 = mov %0<8,4,1>
         %3:f32x16 = mov %0.8<8,4,1>
         %4:f32x16 = add %2, 0.5:f32
         %6:f32x16 = mul %5, %3
         %7:f32x16 = mad %5, %3, %5
         %8:f32x16 = add %2, %3
         %9:f32x16 = add -%2, %5
         %11:f32x16 = mov %10
         %12:f32x16 = add %11, 0.5:f32
         %13:flagx16 = cmp.l %3, 0.5:f32
         %14:f32x16 = sel.ge %2, %5
         (+%13) %15:f32x16 = sel %2, %5
         %16:f32x16 = math_sqrt %2
         %20:u32x16[8] = load_payload %4:u32, %6:u32, %7:u32, %8:u32, %9:u32, %12:u32, %14:u32, %15:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
         )" WRITE("%16") R"(
   )", "copy-prop,dce", R"(
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2:f32x16 = mov %0<8,4,1>
         %3:f32x16 = mov %0.8<8,4,1>
         %4:f32x16 = add %0<8,4,1>, 0.5:f32
         %6:f32x16 = mul %5, %0.8<8,4,1>
         %7:f32x16 = mad %5, %3, %5
         %8:f32x16 = add %0<8,4,1>, %3
         %9:f32x16 = add -%2, %5
         %11:f32x16 = mov %10
         %12:f32x16 = add %11, 0.5:f32
         %13:flagx16 = cmp.l %0.8<8,4,1>, 0.5:f32
         %14:f32x16 = sel.ge %0<8,4,1>, %5
         (+%13) %15:f32x16 = sel %2, %5
         %16:f32x16 = math_sqrt %2
   ...
   )"));
}

/* SIMD32 converts the coordinates in SIMD16 halves into a WLR value.  A
 * full-width float add that is its only reader, its other source an
 * immediate, is done in the same halves on the integers (the movs go
 * with dce): two instructions for four.  A full-width other source (the
 * mul) keeps the converted value.
 */
TEST(opt_copy_prop, simd32_conversion_halves_into_their_reader)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd32
      wlr %0:u16x32
      wlr %2:u16x32
      wlr %4:f32x32
      wlr %7:f32x32
      hw %1:u16x16@g1
      hw %3:u16x16@g2
      attr %6:f32x32
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2 = add %3.8<1,4,0>, 0x11001010:v {WE_all}
         %4 = mov(16) %0<8,4,1>
         %4.64 = mov(16+16) %2<8,4,1>
         %7 = mov(16) %0.8<8,4,1>
         %7.64 = mov(16+16) %2.8<8,4,1>
         %5:f32x32 = add %4, 0.5:f32
         %8:f32x32 = mul %7, %6
         %9:f32x32 = mad %5, %8, %6
         )" WRITE("%9") R"(
   )", "copy-prop,dce", R"(
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2 = add %3.8<1,4,0>, 0x11001010:v {WE_all}
         %7 = mov(16) %0.8<8,4,1>
         %7.64 = mov(16+16) %2.8<8,4,1>
         %10 = add(16) %0<8,4,1>, 0.5:f32
         %10.64 = add(16+16) %2<8,4,1>, 0.5:f32
         %8:f32x32 = mul %7, %6
         %9:f32x32 = mad %10, %8, %6
         )" WRITE("%9") R"(
   )"));
}
