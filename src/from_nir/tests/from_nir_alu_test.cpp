/*
 * ALU translation, one test per category: the NIR text goes in, the ibis IR
 * comes out, both inline.  The recipes come from from_nir_alu_table.py.
 */
#include <gtest/gtest.h>

#include "from_nir/from_nir_alu.h"
#include "from_nir_test_util.h"

using ibis::test::translates_to;
using ibis::test::translates_to25;

/* Float arithmetic: mad and lrp take the hardware's operand order, modifiers
 * become source modifiers or .sat, fceil is -rndd(-x).
 */
TEST(from_nir_alu, float_arithmetic)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = ffma %2.x, %2.y, %2.z
      div 32 %4 = flrp %2.x, %2.y, %2.w
      div 32 %5 = fsat %3
      div 32 %6 = fneg %4
      div 32 %7 = fabs %6
      div 32 %8 = fmin %5, %7
      div 32 %9 = fceil %8
      div 32 %10 = ffract %9
      div 32 %11 = fsub %10, %2.x
      div 32x4 %12 = vec4 %11, %9, %5, %1
      @store_output (%12, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f32x8 = mad %4, %2, %3
         %7:f32x8 = lrp %5, %3, %2
         %8:f32x8 = mov.sat %6
         %9:f32x8 = mov -%7
         %10:f32x8 = mov |%9|
         %11:f32x8 = sel.l %8, %10
         %12:f32x8 = rndd -%11
         %13:f32x8 = mov -%12
         %14:f32x8 = frc %13
         %15:f32x8 = add %14, -%2
         %16:f32x8 = mov 0.0:f32
         %17:u32x8[4] = load_payload %15:u32, %13:u32, %8:u32, %16:u32
         fb_write_logical %17, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* Transcendentals use the MATH instruction's functions. */
TEST(from_nir_alu, extended_math)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = frcp %2.x
      div 32 %4 = frsq %2.y
      div 32 %5 = fpow %3, %4
      div 32 %6 = fsin %5
      div 32x4 %7 = vec4 %3, %4, %5, %6
      @store_output (%7, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f32x8 = math_inv %2
         %7:f32x8 = math_rsq %3
         %8:f32x8 = math_pow %6, %7
         %9:f32x8 = math_sin %8
         %10:u32x8[4] = load_payload %6:u32, %7:u32, %8:u32, %9:u32
         fb_write_logical %10, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* Integer arithmetic: subtraction negates a source, udiv is math idiv on
 * unsigned types, imul_32x16 narrows its second source first.
 */
TEST(from_nir_alu, integer_arithmetic)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000003)
      div 32x4 %2 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=int32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 32 %3 = iadd %2.x, %1 (0x3)
      div 32 %4 = imul %3, %2.y
      div 32 %5 = isub %4, %2.z
      div 32 %6 = imax %5, %2.w
      div 32 %7 = udiv %6, %1 (0x3)
      div 32 %8 = imul_32x16 %7, %2.x
      div 32 %9 = ineg %8
      div 32x4 %10 = vec4 %9, %7, %6, %5
      @store_output (%10, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %9:u32x8@g1
      block0:
         %1:s32x8 = add %0:s32, 3:s32
         %2:s32x8 = mul %1, %0[1]:s32
         %3:s32x8 = add %2, -%0[2]:s32
         %4:s32x8 = sel.ge %3, %0[3]:s32
         %5:u32x8 = math_idiv %4:u32, 3:u32
         %6:s16x8 = mov %0:s32
         %7:s32x8 = mul %5:s32, %6
         %8:s32x8 = mov -%7
         %10:u32x8 = mov 0:u32
         %11:u32x8 = mov 0:u32
         %12:u32x8 = mov 0:u32
         %13:u32x8 = mov 0:u32
         %14:u32x8[8] = load_payload %10, %11, %12, %13, %8:u32, %5, %4:u32, %3:u32
         urb_write_logical %9, 0:u32, _, %14, 8:u32 {EOT}
   )"));
}

/* Bit operations: shifts by type, ubfe as bfe(width, offset, value),
 * extracts with constant indices as shifts and masks.
 */
TEST(from_nir_alu, bit_operations)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000004)
      con 32 %2 = load_const (0x00000001)
      div 32x4 %3 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=uint32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 32 %4 = iand %3.x, %3.y
      div 32 %5 = ishl %4, %1 (0x4)
      div 32 %6 = ishr %5, %3.z
      div 32 %7 = ushr %6, %2 (0x1)
      div 32 %8 = ubfe %7, %1 (0x4), %3.w
      div 32 %9 = extract_u8 %8, %2 (0x1)
      div 32 %10 = extract_i16 %8, %2 (0x1)
      div 32 %11 = bit_count %10
      div 32x4 %12 = vec4 %9, %10, %11, %8
      @store_output (%12, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %10:u32x8@g1
      block0:
         %1:u32x8 = and %0:u32, %0[1]:u32
         %2:u32x8 = shl %1, 4:u32
         %3:s32x8 = asr %2:s32, %0[2]:u32
         %4:u32x8 = shr %3:u32, 1:u32
         %5:u32x8 = bfe %0[3]:u32, 4:u32, %4
         %6:u32x8 = shr %5, 8:u32
         %7:u32x8 = and %6, 255:u32
         %8:s32x8 = asr %5:s32, 16:u32
         %9:u32x8 = cbit %8:u32
         %11:u32x8 = mov 0:u32
         %12:u32x8 = mov 0:u32
         %13:u32x8 = mov 0:u32
         %14:u32x8 = mov 0:u32
         %15:u32x8[8] = load_payload %11, %12, %13, %14, %7, %8:u32, %9, %5
         urb_write_logical %10, 0:u32, _, %15, 8:u32 {EOT}
   )"));
}

/* 32-bit 0/~0 booleans: a comparison read only by a select in its block
 * defines just a flag; one whose value is read (iand, b2f32) keeps its
 * destination, and the select re-derives a flag with cmp.nz.
 */
TEST(from_nir_alu, booleans_and_flags)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = flt32 %2.x, %2.y
      div 32 %4 = b32csel %3, %2.z, %2.w
      div 32 %5 = ieq32 %2.z, %2.w
      div 32 %6 = b2f32 %5
      div 32 %7 = fge32 %2.x, %1 (0x0)
      div 32 %8 = iand %7, %5
      div 32 %9 = b32csel %8, %4, %6
      div 32 %10 = fsign %9
      div 32x4 %11 = vec4 %9, %6, %4, %10
      @store_output (%11, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:flagx8 = cmp.l %2, %3
         (+%6) %7:u32x8 = sel %4:u32, %5:u32
         %8:u32x8 = cmp.z %4:s32, %5:s32
         %9:u32x8 = and %8, 0x3f800000:u32
         %10:u32x8 = cmp.ge %2, 0.0:f32
         %11:u32x8 = and %10, %8
         %12:flagx8 = cmp.nz %11, 0:u32
         (+%12) %13:u32x8 = sel %7, %9
         %14:u32x8 = and %13, 0x80000000:u32
         %15:u32x8 = or %14, 0x3f800000:u32
         %16:flagx8 = cmp.nz %13:f32, 0.0:f32
         (+%16) %17:u32x8 = sel %15, %14
         %18:u32x8[4] = load_payload %13, %9, %7, %17
         fb_write_logical %18, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A comparison whose value is read (b2f32), with a select in its own
 * block (it defines the value and a flag) and one in a later block, where
 * the flag is gone: the later select tests the value with cmp.nz, as brw does, rather
 * than comparing again, which kept the comparison's sources live past the
 * if (warsow/25.fs: the phis of the ifs between could not take their
 * registers, 501 -> 489 instructions at SIMD32).
 */
TEST(from_nir_alu, value_of_an_earlier_block_is_tested_not_compared_again)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = fge32 %2.x, %2.y
      div 32 %4 = b2f32 %3
      div 32 %8 = b32csel %3, %2.w, %2.z
      div 32 %5 = flt32 %2.z, %1 (0x0)
      if %5 {
         block b1:
         @terminate () ()
      } else {
         block b2:
      }
      block b3:
      div 32 %6 = b32csel %3, %2.z, %2.w
      div 32x4 %7 = vec4 %4, %6, %8, %6
      @store_output (%7, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b4:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:u32x8, %7:flagx8 = cmp.ge %2, %3
         %8:u32x8 = and %6, 0x3f800000:u32
         (+%7) %9:u32x8 = sel %5:u32, %4:u32
         %10:flagx8 = cmp.l %4, 0.0:f32
         (+%10) if
      block1:
         terminate
      block2:
         endif
         %11:flagx8 = cmp.nz %6, 0:u32
         (+%11) %12:u32x8 = sel %4:u32, %5:u32
         %13:u32x8[4] = load_payload %8, %12, %9, %12
         fb_write_logical %13, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* Conversions are typed movs, including 16- and 64-bit floats. */
TEST(from_nir_alu, conversions)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32x4 %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 32 %2 = f2i32 %1.x
      div 32 %3 = i2f32 %2
      div 32 %4 = f2u32 %1.y
      div 32 %5 = u2f32 %4
      div 16 %6 = f2f16 %1.z
      div 32 %7 = f2f32 %6
      div 64 %8 = f2f64 %1.w
      div 32 %9 = f2f32 %8
      div 32x4 %10 = vec4 %3, %5, %7, %9
      @store_output (%10, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %9:u32x8@g1
      block0:
         %1:s32x8 = mov %0
         %2:f32x8 = mov %1
         %3:u32x8 = mov %0[1]
         %4:f32x8 = mov %3
         %5:f16x8 = mov %0[2]
         %6:f32x8 = mov %5
         %7:f64x8 = mov %0[3]
         %8:f32x8 = mov %7
         %10:u32x8 = mov 0:u32
         %11:u32x8 = mov 0:u32
         %12:u32x8 = mov 0:u32
         %13:u32x8 = mov 0:u32
         %14:u32x8[8] = load_payload %10, %11, %12, %13, %2:u32, %4:u32, %6:u32, %8:u32
         urb_write_logical %9, 0:u32, _, %14, 8:u32 {EOT}
   )"));
}

/* 16- and 64-bit arithmetic, and packing through shifts and ors on whole
 * values so that everything stays SSA.
 */
TEST(from_nir_alu, sizes_and_packing)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 16 %1 = load_const (0x3c00 = 1.000000)
      con 64 %2 = load_const (0x0000000100000000)
      div 32x4 %3 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=uint32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 16 %4 = u2u16 %3.x
      div 16 %5 = iadd %4, %4
      div 16 %6 = i2f16 %5
      div 16 %7 = fmul %6, %1 (1.000000)
      div 64 %8 = pack_64_2x32_split %3.y, %3.z
      div 64 %9 = iadd %8, %2 (0x100000000)
      div 32 %10 = unpack_64_2x32_split_y %9
      div 32 %11 = unpack_half_2x16_split_x %3.w
      div 32 %12 = f2f32 %7
      div 32x4 %13 = vec4 %10, %11, %12, %0
      @store_output (%13, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %16:u32x8@g1
      block0:
         %1:u16x8 = mov %0:u32
         %2:s16x8 = add %1:s16, %1:s16
         %3:f16x8 = mov %2
         %4:f16x8 = mul %3, 0x3c00:f16
         %5:u64x8 = mov %0[1]:u32
         %6:u64x8 = mov %0[2]:u32
         %7:u64x8 = shl %6, 32:u32
         %8:u64x8 = or %5, %7
         %9:s64x8 = add %8:s64, 4294967296:s64
         %10:u64x8 = shr %9:u64, 32:u32
         %11:u32x8 = mov %10
         %12:u16x8 = mov %0[3]:u32
         %13:f32x8 = mov %12:f16
         %14:f32x8 = mov %4
         %15:f32x8 = mov 0.0:f32
         %17:u32x8 = mov 0:u32
         %18:u32x8 = mov 0:u32
         %19:u32x8 = mov 0:u32
         %20:u32x8 = mov 0:u32
         %21:u32x8[8] = load_payload %17, %18, %19, %20, %11, %13:u32, %14:u32, %15:u32
         urb_write_logical %16, 0:u32, _, %21, 8:u32 {EOT}
   )"));
}

/* Derivatives: coarse by default, fine when asked (pseudo opcodes lowered
 * later into subspan regions).
 */
TEST(from_nir_alu, derivatives)
{
   EXPECT_TRUE(translates_to("fs", 16, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x2 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = fddx %2.x
      div 32 %4 = fddy_fine %2.y
      div 32x4 %5 = vec4 %3, %4, %1, %1
      @store_output (%5, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd16
      hw %0:f32x8[4]@g2
      uniform %1:u32x1[16]@g6
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %4:f32x16 = ddx_coarse %2
         %5:f32x16 = ddy_fine %3
         %6:f32x16 = mov 0.0:f32
         %7:f32x16 = mov 0.0:f32
         %8:u32x16[4] = load_payload %4:u32, %5:u32, %6:u32, %7:u32
         fb_write_logical %8, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* con values are computed once, at width 1 with NoMask, and read by full-
 * width instructions as scalars.
 */
TEST(from_nir_alu, uniform_values)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %3 = load_const (0x40000000 = 2.000000)
      con 32 %4 = @load_uniform (%1 (0x0)) (base=0, range=4, dest_type=float32)
      con 32 %5 = fmul %4, %3 (2.000000)
      con 32 %6 = fexp2 %5
      div 32 %7 = fadd %2.x, %6
      div 32x4 %8 = vec4 %7, %6, %5, %4
      @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g5
      uniform %6:u32x1[8]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %7:f32x1 = mul %6:f32, 2.0:f32 {WE_all}
         %8:f32x1 = math_exp %7 {WE_all}
         %9:f32x8 = add %2, %8
         %10:f32x8 = mov %8
         %11:f32x8 = mov %7
         %12:f32x8 = mov %6:f32
         %13:u32x8[4] = load_payload %9:u32, %10:u32, %11:u32, %12:u32
         fb_write_logical %13, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", 16));
}

/* umul_high/imul_high: brw's mul to the accumulator (x times the low word
 * of y) and mach, one pair per eight channels, the accumulator an explicit
 * ACCUM value per pair; at SIMD16 the halves write one WLR value.  ihadd is
 * (a & b) + ((a ^ b) >> 1); ifind_msb is 31 - fbh, -1 when fbh finds none.
 */
TEST(from_nir_alu, mul_high_hadd_find_msb)
{
   EXPECT_TRUE(translates_to("fs", 16, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = umul_high %2.x, %2.y
      div 32 %4 = imul_high %2.z, %1
      div 32 %5 = ihadd %3, %4
      div 32 %6 = ifind_msb %5
      div 32x4 %7 = vec4 %3, %4, %5, %6
      @store_output (%7, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd16
      hw %0:f32x8[4]@g2
      uniform %1:u32x1[16]@g6
      wlr %7:u32x16
      accum %8:u32x8@acc0
      accum %9:u32x8+8@acc0
      wlr %10:s32x16
      accum %11:s32x8@acc0
      accum %12:s32x8+8@acc0
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %4:f32x16 = pln %1[8]:f32, %0
         %5:f32x16 = pln %1[12]:f32, %0
         %6:u16x16 = mov %3:u32
         %8 = mul %2:u32, %6
         %7 = mach(8) %2:u32, %3:u32
         %9 = mul %2.32:u32, %6.16
         %7.32 = mach(8+8) %2.32:u32, %3.32:u32
         %11 = mul %4:s32, 0:u16
         %10 = mach(8) %4:s32, 0:s32
         %12 = mul %4.32:s32, 0:u16
         %10.32 = mach(8+8) %4.32:s32, 0:s32
         %13:s32x16 = and %7:s32, %10
         %14:s32x16 = xor %7:s32, %10
         %15:s32x16 = asr %14, 1:u32
         %16:s32x16 = add %13, %15
         %17:s32x16 = fbh %16
         %18:s32x16 = add -%17, 31:s32
         %19:s32x16 = asr %17, 31:u32
         %20:s32x16 = or %18, %19
         %21:u32x16 = mov %7
         %22:u32x16 = mov %10:u32
         %23:u32x16[4] = load_payload %21, %22, %16:u32, %20:u32
         fb_write_logical %23, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* Modes ibis does not switch: f2f16_rtz rounds to nearest and steps one
 * unit towards zero where that grew the magnitude; the flush-to-zero half
 * unpacks keep only the sign of a half whose exponent is zero.
 */
TEST(from_nir_alu, rounding_and_flushing_without_mode_switches)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 16 %3 = f2f16_rtz %2.x
      div 32 %4 = unpack_half_2x16_split_x_flush_to_zero %2.y
      div 32 %5 = unpack_half_2x16_split_y_flush_to_zero %2.z
      div 32 %6 = ufind_msb %2.w
      div 32 %7 = u2u32 %3
      div 32x4 %8 = vec4 %7, %4, %5, %6
      @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f16x8 = mov %2
         %7:f32x8 = mov %6
         %8:flagx8 = cmp.g |%7|, |%2|
         %9:u16x8 = add %6:u16, 65535:u16
         (+%8) %10:u16x8 = sel %9, %6:u16
         %11:u32x8 = and %3:u32, 31744:u32
         %12:u32x8 = cmp.nz %11, 0:u32
         %13:u32x8 = or %12, 32768:u32
         %14:u32x8 = and %3:u32, %13
         %15:u16x8 = mov %14
         %16:f32x8 = mov %15:f16
         %17:u32x8 = shr %4:u32, 16:u32
         %18:u32x8 = and %17, 31744:u32
         %19:u32x8 = cmp.nz %18, 0:u32
         %20:u32x8 = or %19, 32768:u32
         %21:u32x8 = and %17, %20
         %22:u16x8 = mov %21
         %23:f32x8 = mov %22:f16
         %24:u32x8 = fbh %5:u32
         %25:s32x8 = add -%24:s32, 31:s32
         %26:s32x8 = asr %24:s32, 31:u32
         %27:s32x8 = or %25, %26
         %28:u32x8 = mov %10
         %29:u32x8[4] = load_payload %28, %16:u32, %23:u32, %27:u32
         fb_write_logical %29, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* The derivative of a value that is the same in every channel is x - x,
 * computed once; a per-channel value keeps its derivative pseudo-op.
 */
TEST(from_nir_alu, derivatives_of_uniform_values)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x3fc00000)
      div 32x4 %3 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %4 = fddy_fine %2
      con 32x4 %5 = @load_ubo_uniform_block_intel (%1 (0x0), %1 (0x0)) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=16)
      con 32 %6 = fddx %5.y
      div 32 %7 = fddx %3.x
      div 32x4 %8 = vec4 %4, %6, %7, %7
      @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g5
      uniform %7:u32x1[8]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f32x1 = add 1.5:f32, -1.5:f32 {WE_all}
         %8:f32x1 = add %7[1]:f32, -%7[1]:f32 {WE_all}
         %9:f32x8 = ddx_coarse %2
         %10:f32x8 = mov %6
         %11:f32x8 = mov %8
         %12:u32x8[4] = load_payload %10:u32, %11:u32, %9:u32, %9:u32
         fb_write_logical %12, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* Mesa 25.0 prints derivatives as intrinsics: plain and coarse ones are
 * ddx_coarse/ddy_coarse (as fddx was), fine ones ddx_fine/ddy_fine, and
 * one of a value the same in every channel is x - x.
 */
TEST(from_nir_alu, derivative_intrinsics)
{
   EXPECT_TRUE(translates_to25("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel (interp_mode=INTERP_MODE_SMOOTH)
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x3fc00000)
      div 32x4 %3 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %4 = mov %3.x
      div 32 %5 = @ddx (%4)
      div 32 %6 = @ddy (%4)
      div 32 %7 = @ddx_fine (%4)
      div 32 %8 = @ddy_fine (%4)
      div 32 %9 = @ddx_coarse (%4)
      div 32 %10 = @ddy_coarse (%4)
      con 32 %11 = @ddx_fine (%2)
      div 32 %12 = fadd %5, %6
      div 32 %13 = fadd %7, %8
      div 32 %14 = fadd %9, %10
      div 32x4 %15 = vec4 %12, %13, %14, %11
      @store_output (%15, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f32x8 = ddx_coarse %2
         %7:f32x8 = ddy_coarse %2
         %8:f32x8 = ddx_fine %2
         %9:f32x8 = ddy_fine %2
         %10:f32x8 = ddx_coarse %2
         %11:f32x8 = ddy_coarse %2
         %12:f32x1 = add 1.5:f32, -1.5:f32 {WE_all}
         %13:f32x8 = add %6, %7
         %14:f32x8 = add %8, %9
         %15:f32x8 = add %10, %11
         %16:f32x8 = mov %12
         %17:u32x8[4] = load_payload %13:u32, %14:u32, %15:u32, %16:u32
         fb_write_logical %17, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* 25.0 lowers fsign with fcsel_gt (src0 > 0 ? src1 : src2): a csel.g. */
TEST(from_nir_alu, fcsel_gt_of_mesa25)
{
   EXPECT_TRUE(translates_to25("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel (interp_mode=INTERP_MODE_SMOOTH)
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x3f800000)
      con 32 %3 = load_const (0xbf800000)
      div 32x4 %4 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %5 = fneg %4.x
      div 32 %6 = fcsel_gt %5, %3, %1
      div 32 %7 = fcsel_gt %4.x, %2, %6
      div 32x4 %8 = vec4 %7, %7, %7, %7
      @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8 = pln %1[12]:f32, %0
         %6:f32x8 = mov -%2
         %7:f32x8 = csel.g -1.0:f32, 0.0:f32, %6
         %8:f32x8 = csel.g 1.0:f32, %7, %2
         %9:u32x8[4] = load_payload %8:u32, %8:u32, %8:u32, %8:u32
         fb_write_logical %9, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}
