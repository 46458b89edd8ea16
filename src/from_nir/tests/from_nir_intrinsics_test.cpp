/*
 * Intrinsic and texture translation, one test per class: the NIR text goes
 * in, the ibis IR comes out, both inline.
 */
#include <gtest/gtest.h>

#include "from_nir_test_util.h"

using ibis::test::translates_to;
using ibis::test::translates_to25;

/* FS inputs at SIMD32: pln per SIMD16 half into one WLR value, from the
 * barycentrics of each mode; flat inputs read the plane's constant term.
 */
TEST(from_nir_intrinsics, fs_interpolated_and_flat_inputs)
{
   EXPECT_TRUE(translates_to("fs", 32, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      div 32x2 %1 = @load_barycentric_centroid () (interp_mode=3)
      con 32 %2 = load_const (0x00000000)
      div 32 %3 = @load_interpolated_input (%0, %2 (0x0)) (base=0, component=1, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %4 = @load_interpolated_input (%1, %2 (0x0)) (base=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)
      div 32 %5 = @load_input (%2 (0x0)) (base=2, range=1, component=2, dest_type=float32, io location=VARYING_SLOT_VAR2 slots=1)
      div 32x4 %6 = vec4 %3, %4, %5, %2
      @store_output (%6, %2 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd32
      hw %0:f32x8[4]@g3
      hw %1:f32x8[4]@g11
      hw %2:f32x8[4]@g7
      hw %3:f32x8[4]@g15
      uniform %4:u32x1[48]@g19
      wlr %5:f32x32
      wlr %6:f32x32
      block0:
         %5 = pln(16) %4[4]:f32, %0
         %5.64 = pln(16+16) %4[4]:f32, %1
         %6 = pln(16) %4[16]:f32, %2
         %6.64 = pln(16+16) %4[16]:f32, %3
         %7:u32x32 = mov %4[43]
         %8:f32x32 = mov %5
         %9:f32x32 = mov %6
         %10:f32x32 = mov 0.0:f32
         %11:u32x32[4] = load_payload %8:u32, %9:u32, %7, %10:u32
         fb_write_logical %11, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* FS system values from the SIMD16 payload: pixel X/Y from one NoMask add
 * of twice the width (each subspan's four X then four Y words, brw's),
 * source depth and 1/W, front facing from g0.0, sample id, mask and
 * position.
 */
TEST(from_nir_intrinsics, fs_system_values)
{
   EXPECT_TRUE(translates_to("fs", 16, R"(
      div 32x4 %0 = @load_frag_coord () ()
      div 32 %1 = @load_front_face () ()
      div 32 %2 = @load_sample_id () ()
      div 32 %3 = @load_sample_mask_in () ()
      div 32x2 %4 = @load_sample_pos () ()
      con 32 %5 = load_const (0x00000000)
      div 32 %6 = b32csel %1, %0.x, %0.w
      div 32 %7 = iadd %2, %3
      div 32x4 %8 = vec4 %6, %7, %4.x, %0.z
      @store_output (%8, %5 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd16
      wlr %0:u16x32
      hw %1:u16x16@g1
      hw %5:f32x8[2]@g2
      hw %7:f32x8[2]@g4
      hw %9:s16x16@g0
      hw %12:u8x32@g1
      hw %15:s32x8[2]@g7
      hw %17:s8x32@g6
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2:f32x16 = mov %0<8,4,1>
         %3:f32x16 = mov %0.8<8,4,1>
         %4:f32x16 = mov %5
         %6:f32x16 = mov %7
         %8:f32x16 = math_inv %6
         %10:s32x16 = asr -%9<0,1,0>, 15:u32
         %11:u16x16 = shr %12<1,8,0>, 0x44440000:v
         %13:u32x16 = and %11, 15:u16
         %14:s32x16 = mov %15
         %16:s32x16 = mov %17<16,8,2>
         %18:f32x16 = mov %16
         %19:f32x16 = mul %18, 0.0625:f32
         %20:s32x16 = mov %17.1<16,8,2>
         %21:f32x16 = mov %20
         %22:f32x16 = mul %21, 0.0625:f32
         %23:flagx16 = cmp.nz %10:u32, 0:u32
         (+%23) %24:u32x16 = sel %2:u32, %8:u32
         %25:s32x16 = add %13:s32, %14
         %26:u32x16[4] = load_payload %24, %25:u32, %19:u32, %4:u32
         fb_write_logical %26, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* discard_if discards (demotes) the channels of its comparison's flag and
 * terminates only the quads all four of whose channels it sets (brw's
 * any4h halt: the others' derivatives stay the pixels'); demote_if
 * discards; helper invocations come from the pixel mask in g1.7; the
 * depth output goes into the render target write.
 */
TEST(from_nir_intrinsics, fs_discard_demote_depth)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = flt32 %2, %1 (0x0)
      @discard_if (%3) ()
      div 32 %4 = @load_helper_invocation () ()
      @demote_if (%4) ()
      div 32x4 %5 = vec4 %2, %2, %2, %2
      @store_output (%5, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      @store_output (%2, %1 (0x0)) (base=0, range=1, wrmask=x, component=0, src_type=float32, io location=FRAG_RESULT_DEPTH slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      hw %4:u16x16@g1
      wlr %6:u16x8
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:flagx8 = cmp.l %2, 0.0:f32
         (+%3) discard
         (+%3) terminate {quad_all}
         %5:u32x1 = mov %4.28<0,1,0> {WE_all}
         %6 = mov 0x76543210:v {WE_all}
         %7:u32x8 = mov %6
         %8:u32x8 = shr %5, %7
         %9:u32x8 = and %8, 1:u32
         %10:u32x8 = cmp.z %9, 0:u32
         %11:flagx8 = cmp.nz %10, 0:u32
         (+%11) discard
         %12:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %2:u32
         fb_write_logical %12, _, _, %2, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* An unconditional GLSL discard is discard_if of a flag set everywhere. */
TEST(from_nir_intrinsics, fs_discard_everywhere)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      @discard () ()
      div 32x4 %5 = vec4 %2, %2, %2, %2
      @store_output (%5, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:u32x8 = mov 0:u32
         %4:flagx8 = cmp.z %3, 0:u32
         (+%4) discard
         (+%4) terminate {quad_all}
         %5:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %2:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A fragment shader's stores and atomics run on the pixel mask (g1.7), so
 * helper invocations write no memory (brw predicates them on the sample
 * mask); the atomic's result is undefined in the helpers (preserve undef).
 */
TEST(from_nir_intrinsics, fs_stores_and_atomics_skip_helpers)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      @store_ssbo (%0, %0 (0x0), %0 (0x0)) (wrmask=x, access=none, align_mul=4, align_offset=0)
      div 32 %1 = @ssbo_atomic (%0 (0x0), %0 (0x0), %0 (0x0)) (access=none, atomic_op=iadd)
      div 32x4 %2 = vec4 %1, %1, %1, %1
      @store_output (%2, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:u16x16@g1
      wlr %2:u16x8
      wlr %10:u16x8
      block0:
         %1:u32x1 = mov %0.28<0,1,0> {WE_all}
         %2 = mov 0x76543210:v {WE_all}
         %3:u32x8 = mov %2
         %4:u32x8 = shr %1, %3
         %5:u32x8 = and %4, 1:u32
         %6:flagx8 = cmp.nz %5, 0:u32
         %7:u32x8 = mov 0:u32
         %8:u32x8 = mov 0:u32
         (+%6) untyped_write_logical 0:u32, %7, %8, 1:u32
         %9:u32x1 = mov %0.28<0,1,0> {WE_all}
         %10 = mov 0x76543210:v {WE_all}
         %11:u32x8 = mov %10
         %12:u32x8 = shr %9, %11
         %13:u32x8 = and %12, 1:u32
         %14:flagx8 = cmp.nz %13, 0:u32
         %15:u32x8 = mov 0:u32
         %16:u32x8 = mov 0:u32
         %18:u32x8 = undef
         (+%14) %17:u32x8 = untyped_atomic_logical 0:u32, %15, %16, _, 0:u32, preserve %18
         %19:u32x8[4] = load_payload %17, %17, %17, %17
         fb_write_logical %19, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* is_helper_invocation counts the channels a demote made helpers (a
 * variable ~0 where demoted, 0 from the start); load_helper_invocation
 * would not.
 */
TEST(from_nir_intrinsics, fs_is_helper_after_demote)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 1 %3 = flt32 %2, %1 (0x0)
      @demote_if (%3) ()
      div 1 %4 = @is_helper_invocation () ()
      div 32 %5 = b2i32 %4
      div 32x4 %6 = vec4 %5, %5, %5, %5
      @store_output (%6, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      hw %7:u16x16@g1
      wlr %9:u16x8
      block0:
         %5:u32x8 = mov 0:u32
         %2:f32x8 = pln %1:f32, %0
         %3:flagx8 = cmp.l %2, 0.0:f32
         (+%3) discard
         %4:u32x8 = mov 0xffffffff:u32
         (+%3) %6:u32x8 = sel %4, %5
         %8:u32x1 = mov %7.28<0,1,0> {WE_all}
         %9 = mov 0x76543210:v {WE_all}
         %10:u32x8 = mov %9
         %11:u32x8 = shr %8, %10
         %12:u32x8 = and %11, 1:u32
         %13:u32x8 = cmp.z %12, 0:u32
         %14:u32x8 = or %13, %6
         %15:u32x8 = and %14, 1:u32
         %16:u32x8[4] = load_payload %15, %15, %15, %15
         fb_write_logical %16, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A comparison only an if reads makes a flag and no value; an image load
 * between them whose index differs between channels becomes a loop, so
 * the if is in another block and compares again (random fs 3727 read the
 * missing value as 0).
 */
TEST(from_nir_intrinsics, flag_compared_again_after_a_distinct_index_loop)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = flt32 %2, %1 (0x0)
      con 32 %4 = load_const (0x00000003)
      con 32 %5 = load_const (0x00000006)
      div 32 %6 = b32csel %2, %4 (0x3), %5 (0x6)
      con 32x4 %7 = load_const (0x00000000, 0x00000000, 0x00000000, 0x00000000)
      div 32 %8 = @image_load (%6, %7, %1 (0x0), %1 (0x0)) (image_dim=2D, image_array=false, format=r32_uint, access=none, range_base=0, dest_type=uint32)
      if %3 {
         block b1:
         @terminate () ()
      } else {
         block b2:
      }
      block b3:
      div 32x4 %9 = vec4 %8, %8, %8, %8
      @store_output (%9, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b4:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %17:u32x8 = undef
         %2:f32x8 = pln %1:f32, %0
         %3:flagx8 = cmp.l %2, 0.0:f32
         %4:flagx8 = cmp.nz %2:u32, 0:u32
         (+%4) %5:u32x8 = sel 3:u32, 6:u32
      block1:         ; preds: block0 block5 succs: block2 block3
         do
         %16:u32x8 = phi %17, %15
         %6:u32x1 = find_live_channel {WE_all}
         %7:u32x1 = broadcast %5, %6 {WE_all}
         %8:u32x8 = xor %5, %7
         %9:flagx8 = cmp.z %8, 0:u32
         (+%9) if
      block2:         ; preds: block1 succs: block3
         %11:u32x8 = mov 0:u32
         %12:u32x8 = mov 0:u32
         %13:u32x8[2] = load_payload %11, %12
         %10:u32x8 = typed_read_logical %7, %13, 1:u32
      block3:         ; preds: block1 block2 succs: block4 block5
         endif
         %15:u32x8 = phi %16, %10
         %14:flagx8 = cmp.z %8, 0:u32
         (+%14) if
      block4:         ; preds: block3 succs: block6
         break
      block5:         ; preds: block3 succs: block1
         endif
         while
      block6:         ; preds: block4 succs: block7 block8
         %18:flagx8 = cmp.l %2, 0.0:f32
         (+%18) if
      block7:         ; preds: block6 succs: block8
         terminate
      block8:         ; preds: block6 block7
         endif
         %19:u32x8[4] = load_payload %15, %15, %15, %15
         fb_write_logical %19, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* VS: attributes in 4 GRFs per slot, vertex and instance ids from the
 * system-value slot after them, and the VUE written two slots per URB
 * message (header with the point size, position, then varyings).
 */
TEST(from_nir_intrinsics, vs_attributes_ids_and_urb_writes)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32x4 %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 32x2 %2 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)
      div 32 %3 = @load_vertex_id_zero_base () ()
      div 32 %4 = @load_instance_id () ()
      con 32 %5 = @load_first_vertex () ()
      div 32 %6 = iadd %3, %5
      div 32x4 %7 = vec4 %6, %4, %2.x, %2.y
      @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      @store_output (%7, %0 (0x0)) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
      div 32 %8 = mov %2.y
      @store_output (%8, %0 (0x0)) (base=12, range=1, wrmask=x, component=0, src_type=float32, io location=VARYING_SLOT_PSIZ slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[12]@g2
      hw %12:u32x8@g1
      block0:
         %1:u32x8 = mov %0[10]:u32
         %2:u32x8 = mov %0[11]:u32
         %3:u32x1 = mov %0[8]:u32 {WE_all}
         %4:s32x8 = add %1:s32, %3:s32
         %5:f32x8 = mov %0
         %6:f32x8 = mov %0[1]
         %7:f32x8 = mov %0[2]
         %8:f32x8 = mov %0[3]
         %9:f32x8 = mov %0[4]
         %10:f32x8 = mov %0[5]
         %11:f32x8 = mov %0[5]
         %13:u32x8 = mov 0:u32
         %14:u32x8 = mov 0:u32
         %15:u32x8 = mov 0:u32
         %16:u32x8[8] = load_payload %13, %14, %15, %11:u32, %5:u32, %6:u32, %7:u32, %8:u32
         urb_write_logical %12, 0:u32, _, %16, 8:u32
         %17:u32x8[4] = load_payload %4:u32, %2, %9:u32, %10:u32
         urb_write_logical %12, 2:u32, _, %17, 4:u32 {EOT}
   )"));
}

/* A varying component nobody wrote is undefined (brw leaves it), so it
 * costs no instruction; the header's unwritten fields stay zero.
 */
TEST(from_nir_intrinsics, vs_unwritten_varying_components_are_undef)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32x4 %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      div 32x2 %2 = vec2 %1.y, %1.x
      @store_output (%2, %0 (0x0)) (base=32, range=1, wrmask=xy, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %7:u32x8@g1
      block0:
         %1:f32x8 = mov %0
         %2:f32x8 = mov %0[1]
         %3:f32x8 = mov %0[2]
         %4:f32x8 = mov %0[3]
         %5:f32x8 = mov %0[1]
         %6:f32x8 = mov %0
         %8:u32x8 = mov 0:u32
         %9:u32x8 = mov 0:u32
         %10:u32x8 = mov 0:u32
         %11:u32x8 = mov 0:u32
         %12:u32x8[8] = load_payload %8, %9, %10, %11, %1:u32, %2:u32, %3:u32, %4:u32
         urb_write_logical %7, 0:u32, _, %12, 8:u32
         %13:u32x8 = undef
         %14:u32x8 = undef
         %15:u32x8[4] = load_payload %5:u32, %6:u32, %13, %14
         urb_write_logical %7, 2:u32, _, %15, 4:u32 {EOT}
   )"));
}

/* Uniforms and the UBO ranges read at constant offsets are pushed (UNIFORM
 * values at fixed GRFs); a divergent offset pulls with a varying pull-
 * constant send.
 */
TEST(from_nir_intrinsics, push_constants_and_ubos)
{
   EXPECT_TRUE(translates_to("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000010)
      con 32 %2 = load_const (0x00000400)
      con 32 %3 = load_const (0x00000002)
      div 32 %4 = @load_vertex_id_zero_base () ()
      con 32x4 %5 = @load_ubo (%0 (0x0), %1 (0x10)) (access=none, align_mul=1073741824, align_offset=16, range_base=16, range=16)
      con 32x4 %6 = @load_ubo_uniform_block_intel (%3 (0x2), %2 (0x400)) (access=none, align_mul=1073741824, align_offset=1024, range_base=0, range=-1)
      div 32 %7 = ishl %4, %1 (0x10)
      div 32x2 %8 = @load_ubo (%3 (0x2), %7) (access=none, align_mul=16, align_offset=0, range_base=0, range=-1)
      con 32 %9 = @load_uniform (%0 (0x0)) (base=4, range=4, dest_type=float32)
      div 32 %10 = fadd %5.y, %8.y
      con 32 %11 = fadd %6.w, %9
      div 32x4 %12 = vec4 %10, %11, %8.x, %5.x
      @store_output (%12, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %0:f32x8[4]@g5
      uniform %2:u32x1[24]@g2
      hw %10:u32x8@g1
      block0:
         %1:u32x8 = mov %0[2]:u32
         %3:u32x8 = shl %1, 16:u32
         %4:u32x8[2] = varying_pull_constant_logical 2:u32, %3, 16:u32
         %5:f32x8 = add %2[13]:f32, %4[1]:f32
         %6:f32x1 = add %2[19]:f32, %2[1]:f32 {WE_all}
         %7:f32x8 = mov %6
         %8:f32x8 = mov %4:f32
         %9:f32x8 = mov %2[12]:f32
         %11:u32x8 = mov 0:u32
         %12:u32x8 = mov 0:u32
         %13:u32x8 = mov 0:u32
         %14:u32x8 = mov 0:u32
         %15:u32x8[8] = load_payload %11, %12, %13, %14, %5:u32, %7:u32, %8:u32, %9:u32
         urb_write_logical %10, 0:u32, _, %15, 8:u32 {EOT}
   )", 16));
}

/* SSBO and shared memory as untyped and byte-scattered sends (shared memory
 * on surface 254), atomics with NIR's operation number, a fence and a
 * workgroup barrier.
 */
TEST(from_nir_intrinsics, ssbo_shared_and_barriers)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      div 32 %2 = @load_subgroup_invocation () ()
      div 32 %3 = ishl %2, %1 (0x1)
      div 32x2 %4 = @load_ssbo (%1 (0x1), %3) (access=none, align_mul=4, align_offset=0)
      div 32 %5 = iadd %4.x, %4.y
      @store_ssbo (%4, %0 (0x0), %3) (wrmask=xy, access=none, align_mul=4, align_offset=0)
      div 32 %6 = @ssbo_atomic (%0 (0x0), %3, %5) (access=none, atomic_op=iadd)
      @store_shared (%6, %3) (base=16, wrmask=x, align_mul=4, align_offset=0)
      @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
      div 32 %7 = @load_shared (%3) (base=16, align_mul=4, align_offset=0)
      div 32 %8 = @shared_atomic_swap (%3, %7, %6) (base=0, atomic_op=cmpxchg)
      div 16 %9 = @load_ssbo (%1 (0x1), %3) (access=none, align_mul=2, align_offset=0)
      div 32 %10 = u2u32 %9
      div 32 %11 = iadd %10, %8
      @store_ssbo (%11, %1 (0x1), %0 (0x0)) (wrmask=x, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd8
      wlr %0:u16x8
      hw %8:u32x8@g0
      block0:
         %0 = mov 0x76543210:v {WE_all}
         %1:u32x8 = mov %0
         %2:u32x8 = shl %1, 1:u32
         %3:u32x8[2] = untyped_read_logical 1:u32, %2, 2:u32
         %4:s32x8 = add %3:s32, %3[1]:s32
         untyped_write_logical 0:u32, %2, %3, 2:u32
         %5:u32x8 = untyped_atomic_logical 0:u32, %2, %4, _, 0:u32
         %6:u32x8 = add %2, 16:u32
         untyped_write_logical 254:u32, %6, %5, 1:u32
         %7:u32x1 = memory_fence 254:u32 {WE_all}
         barrier(1) %8 {WE_all}
         %9:u32x8 = add %2, 16:u32
         %10:u32x8 = untyped_read_logical 254:u32, %9, 1:u32
         %11:u32x8 = untyped_atomic_logical 254:u32, %2, %10, %5, 12:u32
         %12:u32x8 = byte_scattered_read_logical 1:u32, %2, 16:u32
         %13:u16x8 = mov %12
         %14:u32x8 = mov %13
         %15:s32x8 = add %14:s32, %11:s32
         %16:u32x8 = mov 0:u32
         untyped_write_logical 1:u32, %16, %15, 1:u32
         thread_end_logical %8 {WE_all, EOT}
   )"));
}

/* Images as typed sends; workgroup ids from g0.1/6/7, the subgroup id from
 * the per-thread push constant, local ids derived from them.
 */
TEST(from_nir_intrinsics, images_and_compute_ids)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32x3 %2 = @load_workgroup_id () ()
      div 32x3 %3 = @load_local_invocation_id () ()
      div 32 %4 = iadd %2.x, %3.x
      div 32x4 %5 = vec4 %4, %3.y, %0, %0
      div 32x4 %6 = @image_load (%1 (0x1), %5, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)
      @image_store (%0 (0x0), %5, %0 (0x0), %6, %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, src_type=uint32)
      div 32 %7 = @image_atomic (%0 (0x0), %5, %0 (0x0), %4) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, atomic_op=umax)
      block b1:
   )", R"(
      shader cs simd8
      hw %0:u32x8@g0
      uniform %4:u32x1[8]@g1
      wlr %7:u16x8
      block0:
         %1:u32x1 = mov %0.4<0,1,0> {WE_all}
         %2:u32x1 = mov %0.24<0,1,0> {WE_all}
         %3:u32x1 = mov %0.28<0,1,0> {WE_all}
         %5:u32x1 = mov %4 {WE_all}
         %6:u32x1 = mul %5, 8:u32 {WE_all}
         %7 = mov 0x76543210:v {WE_all}
         %8:u32x8 = mov %7
         %9:u32x8 = add %8, %6
         %10:u32x8 = math_irem %9, 8:u32
         %11:u32x8 = math_idiv %9, 8:u32
         %12:u32x8 = math_irem %11, 4:u32
         %13:u32x8 = math_idiv %11, 4:u32
         %14:s32x8 = add %1:s32, %10:s32
         %16:u32x8[2] = load_payload %14:u32, %12
         %15:u32x8[4] = typed_read_logical 1:u32, %16, 4:u32
         %17:u32x8[2] = load_payload %14:u32, %12
         typed_write_logical 0:u32, %17, %15, 4:u32
         %18:u32x8[2] = load_payload %14:u32, %12
         %19:u32x8 = typed_atomic_logical 0:u32, %18, %14, _, 4:u32
         thread_end_logical %0 {WE_all, EOT}
   )"));
}

/* Texture operations as tex_logical: tex, txb, txl, shadow compare, txd, txf
 * with a packed constant offset, tg4 with its component, txs.
 */
TEST(from_nir_intrinsics, textures)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x3f800000 = 1.000000)
      con 32 %3 = load_const (0x00000001)
      con 32 %4 = load_const (0xffffffff)
      div 32x3 %5 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32x2 %6 = vec2 %5.x, %5.y
      div 32x4 %7 = (float32)tex %6 (coord), 0 (texture), 0 (sampler)
      div 32x4 %8 = (float32)txb %6 (coord), %2 (1.000000) (bias), 1 (texture), 1 (sampler)
      div 32x4 %9 = (float32)txl %6 (coord), %1 (0.000000) (lod), 2 (texture), 2 (sampler)
      div 32 %22 = mov %7.x
      div 32 %10 = (float32)tex %5 (coord), %22 (comparator), 3 (texture), 3 (sampler)
      div 32x4 %11 = (float32)txd %6 (coord), %6 (ddx), %6 (ddy), 0 (texture), 0 (sampler)
      div 32x2 %12 = f2i32 %6
      con 32x2 %13 = vec2 %3, %4
      div 32x4 %14 = (int32)txf %12 (coord), %1 (0x0) (lod), %13 (offset), 4 (texture)
      div 32x4 %15 = (float32)tg4 %6 (coord), 0 (texture), 0 (sampler), 2 (gather_component)
      con 32x2 %16 = (int32)txs %1 (0x0) (lod), 0 (texture)
      div 32 %17 = fadd %7.x, %8.y
      div 32 %18 = fadd %9.z, %10
      div 32 %19 = fadd %11.w, %15.x
      div 32 %20 = i2f32 %14.x
      div 32x4 %21 = vec4 %17, %18, %19, %20
      @store_output (%21, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8[2] = load_payload %2, %3
         %6:f32x8[4] = tex_logical 0:u32, %5, _, _, _, _, _, _, 0:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %7:f32x8[2] = load_payload %2, %3
         %8:f32x8 = mov 1.0:f32
         %9:f32x8[4] = tex_logical 1:u32, %7, _, %8, _, _, _, _, 1:u32, 1:u32, 0:u32, 2:u32, 0:u32
         %10:f32x8[2] = load_payload %2, %3
         %11:f32x8 = mov 0.0:f32
         %12:f32x8[4] = tex_logical 2:u32, %10, _, %11, _, _, _, _, 2:u32, 2:u32, 0:u32, 2:u32, 0:u32
         %13:f32x8[3] = load_payload %2, %3, %4
         %14:f32x8 = mov %6
         %15:f32x8 = tex_logical 0:u32, %13, %14, _, _, _, _, _, 3:u32, 3:u32, 0:u32, 3:u32, 0:u32
         %16:f32x8[2] = load_payload %2, %3
         %17:f32x8[2] = load_payload %2, %3
         %18:f32x8[2] = load_payload %2, %3
         %19:f32x8[4] = tex_logical 3:u32, %16, _, %17, %18, _, _, _, 0:u32, 0:u32, 0:u32, 2:u32, 2:u32
         %20:s32x8 = mov %2
         %21:s32x8 = mov %3
         %22:s32x8[2] = load_payload %20, %21
         %23:s32x8 = mov 0:s32
         %24:s32x8[4] = tex_logical 4:u32, %22, _, %23, _, _, _, _, 4:u32, _, 496:u32, 2:u32, 0:u32
         %25:f32x8[2] = load_payload %2, %3
         %26:f32x8[4] = tex_logical 522:u32, %25, _, _, _, _, _, _, 0:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %27:s32x8 = mov 0:s32
         %28:s32x8[2] = tex_logical 8:u32, _, _, %27, _, _, _, _, 0:u32, _, 0:u32, 0:u32, 0:u32
         %29:f32x8 = add %6, %9[1]
         %30:f32x8 = add %12[2], %15
         %31:f32x8 = add %19[3], %26
         %32:f32x8 = mov %24
         %33:u32x8[4] = load_payload %29:u32, %30:u32, %31:u32, %32:u32
         fb_write_logical %33, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* 64-bit SSBO access as pairs of dwords, low first, at most four dwords a
 * message: a 64x3 load reads 4 + 2 dwords and joins them with shifts, a
 * 64x3 store splits each component and writes 4 + 2 dwords.
 */
TEST(from_nir_intrinsics, ssbo_64bit_as_dword_pairs)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      con 32 %0 = load_const (0x00000001)
      con 32 %1 = load_const (0x00000010)
      div 32 %2 = @load_local_invocation_index () ()
      div 64x3 %3 = @load_ssbo (%0, %2) (access=none, align_mul=8, align_offset=0)
      div 64 %4 = iadd %3.x, %3.z
      div 64x3 %5 = vec3 %4, %3.y, %4
      @store_ssbo (%5, %0, %1) (wrmask=xyz, access=none, align_mul=8, align_offset=0)
      block b1:
   )", R"(
      shader cs simd8
      uniform %0:u32x1[8]@g1
      wlr %3:u16x8
      hw %35:u32x8@g0
      block0:
         %1:u32x1 = mov %0 {WE_all}
         %2:u32x1 = mul %1, 8:u32 {WE_all}
         %3 = mov 0x76543210:v {WE_all}
         %4:u32x8 = mov %3
         %5:u32x8 = add %4, %2
         %6:u32x8[4] = untyped_read_logical 1:u32, %5, 4:u32
         %7:u64x8 = mov %6
         %8:u64x8 = mov %6[1]
         %9:u64x8 = shl %8, 32:u32
         %10:u64x8 = or %7, %9
         %11:u64x8 = mov %6[2]
         %12:u64x8 = mov %6[3]
         %13:u64x8 = shl %12, 32:u32
         %14:u64x8 = or %11, %13
         %15:u32x8 = add %5, 16:u32
         %16:u32x8[2] = untyped_read_logical 1:u32, %15, 2:u32
         %17:u64x8 = mov %16
         %18:u64x8 = mov %16[1]
         %19:u64x8 = shl %18, 32:u32
         %20:u64x8 = or %17, %19
         %21:s64x8 = add %10:s64, %20:s64
         %22:u32x8 = mov 16:u32
         %23:u32x8 = mov %21:u64
         %24:u64x8 = shr %21:u64, 32:u32
         %25:u32x8 = mov %24
         %26:u32x8 = mov %14
         %27:u64x8 = shr %14, 32:u32
         %28:u32x8 = mov %27
         %29:u32x8[4] = load_payload %23, %25, %26, %28
         untyped_write_logical 1:u32, %22, %29, 4:u32
         %30:u32x8 = add 16:u32, 16:u32
         %31:u32x8 = mov %21:u64
         %32:u64x8 = shr %21:u64, 32:u32
         %33:u32x8 = mov %32
         %34:u32x8[2] = load_payload %31, %33
         untyped_write_logical 1:u32, %30, %34, 2:u32
         thread_end_logical %35 {WE_all, EOT}
   )"));
}

/* A colour component the shader never writes is undefined, as brw leaves
 * it: an undef in the payload (no mov 0), which the allocator places
 * anywhere.
 */
TEST(from_nir_intrinsics, unwritten_color_components_are_undef)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      div 32x2 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      @store_output (%2, %1 (0x0)) (base=0, range=1, wrmask=xy, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:u32x8 = undef
         %5:u32x8 = undef
         %6:u32x8[4] = load_payload %2:u32, %3:u32, %4, %5
         fb_write_logical %6, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* load_reg_indirect: a select chain over the elements, element 0 first,
 * then one cmp per other element (offset == element - base) and one sel
 * per component; legacy_fneg applies to the result.  The register is full
 * width although NIR calls it uniform and its index and values are.
 */
TEST(from_nir_intrinsics, register_array_indirect_read)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = @decl_reg () (num_components=2, num_array_elems=3, bit_size=32, divergent=0)
      con 32x2 %2 = load_const (0x00000001, 0x00000002)
      con 32x2 %3 = load_const (0x00000003, 0x00000004)
      con 32x2 %4 = load_const (0x00000005, 0x00000006)
      @store_reg (%2, %1) (base=0, wrmask=xy, legacy_fsat=0)
      @store_reg (%3, %1) (base=1, wrmask=xy, legacy_fsat=0)
      @store_reg (%4, %1) (base=2, wrmask=xy, legacy_fsat=0)
      con 32 %5 = @load_uniform (%0 (0x0)) (base=0, range=4, dest_type=uint32)
      con 32x2 %6 = @load_reg_indirect (%1, %5) (base=1, legacy_fabs=0, legacy_fneg=1)
      con 32 %7 = load_const (0x3f800000)
      con 32x4 %8 = vec4 %6.x, %6.y, %7, %7
      @store_output (%8, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      uniform %6:u32x1[8]@g2
      block0:
         %0:u32x8 = mov 1:u32
         %1:u32x8 = mov 2:u32
         %2:u32x8 = mov 3:u32
         %3:u32x8 = mov 4:u32
         %4:u32x8 = mov 5:u32
         %5:u32x8 = mov 6:u32
         %7:flagx8 = cmp.z %6, 0:u32
         (+%7) %8:u32x8 = sel %2, %0
         (+%7) %9:u32x8 = sel %3, %1
         %10:flagx8 = cmp.z %6, 1:u32
         (+%10) %11:u32x8 = sel %4, %8
         (+%10) %12:u32x8 = sel %5, %9
         %13:f32x8 = mov -%11:f32
         %14:f32x8 = mov -%12:f32
         %15:f32x8 = mov 1.0:f32
         %16:f32x8 = mov 1.0:f32
         %17:u32x8[4] = load_payload %13:u32, %14:u32, %15:u32, %16:u32
         fb_write_logical %17, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", 16));
}

/* store_reg_indirect: every element is replaced where the offset picks it
 * (offset == element - base), in the components of the write mask only.
 */
TEST(from_nir_intrinsics, register_array_indirect_write)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32 %1 = @decl_reg () (num_components=2, num_array_elems=2, bit_size=32, divergent=1)
      con 32x2 %2 = load_const (0x00000001, 0x00000002)
      @store_reg (%2, %1) (base=0, wrmask=xy, legacy_fsat=0)
      @store_reg (%2, %1) (base=1, wrmask=xy, legacy_fsat=0)
      div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %5 = f2u32 %4
      div 32x2 %6 = vec2 %4, %4
      @store_reg_indirect (%6, %1, %5) (base=0, wrmask=y, legacy_fsat=1)
      div 32x2 %7 = @load_reg (%1) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x2 %8 = @load_reg (%1) (base=1, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %9 = vec4 %7.x, %7.y, %8.x, %8.y
      @store_output (%9, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      hw %4:f32x8[2]@g2
      uniform %5:u32x1[16]@g4
      block0:
         %0:u32x8 = mov 1:u32
         %1:u32x8 = mov 2:u32
         %2:u32x8 = mov 1:u32
         %3:u32x8 = mov 2:u32
         %6:f32x8 = pln %5:f32, %4
         %7:u32x8 = mov %6
         %8:f32x8 = mov.sat %6
         %9:flagx8 = cmp.z %7, 0:u32
         (+%9) %10:u32x8 = sel %8:u32, %1
         %11:flagx8 = cmp.z %7, 1:u32
         (+%11) %12:u32x8 = sel %8:u32, %3
         %13:u32x8[4] = load_payload %0, %10, %2, %12
         fb_write_logical %13, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* An index that differs between channels, under a divergent if: the
 * selects run under the if's execution mask and every element meets the
 * value from before the if in a phi.  An 8-bit register selects in 16
 * bits (a predicated sel cannot write bytes) and moves the result down.
 */
TEST(from_nir_intrinsics, register_array_divergent_index)
{
   EXPECT_TRUE(translates_to("fs", 16, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000002)
      div 32 %2 = @decl_reg () (num_components=1, num_array_elems=3, bit_size=8, divergent=1)
      con 8 %3 = load_const (0x07)
      @store_reg (%3, %2) (base=0, wrmask=x, legacy_fsat=0)
      @store_reg (%3, %2) (base=1, wrmask=x, legacy_fsat=0)
      @store_reg (%3, %2) (base=2, wrmask=x, legacy_fsat=0)
      div 32x2 %4 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %5 = @load_interpolated_input (%4, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %6 = f2u32 %5
      div 32 %7 = umin %6, %1 (0x2)
      div 32 %8 = flt32 %5, %0 (0x0)
      if %8 {
      block b1:
      div 8 %9 = u2u8 %6
      @store_reg_indirect (%9, %2, %7) (base=0, wrmask=x, legacy_fsat=0)
      } else {
      block b2:
      }
      block b3:
      div 32 %10 = iand %6, %1 (0x2)
      div 8 %11 = @load_reg_indirect (%2, %10) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %12 = u2u32 %11
      div 32x4 %13 = vec4 %12, %12, %12, %12
      @store_output (%13, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b4:
   )", R"(
      shader fs simd16
      hw %3:f32x8[4]@g2
      uniform %4:u32x1[16]@g6
      block0:         ; succs: block1 block2
         %0:u8x16 = mov 7:u8
         %1:u8x16 = mov 7:u8
         %2:u8x16 = mov 7:u8
         %5:f32x16 = pln %4:f32, %3
         %6:u32x16 = mov %5
         %7:u32x16 = sel.l %6, 2:u32
         %8:flagx16 = cmp.l %5, 0.0:f32
         (+%8) if
      block1:         ; preds: block0 succs: block2
         %9:u8x16 = mov %6
         %10:flagx16 = cmp.z %7, 0:u32
         (+%10) %11:u16x16 = sel %9, %0
         %12:u8x16 = mov %11
         %13:flagx16 = cmp.z %7, 1:u32
         (+%13) %14:u16x16 = sel %9, %1
         %15:u8x16 = mov %14
         %16:flagx16 = cmp.z %7, 2:u32
         (+%16) %17:u16x16 = sel %9, %2
         %18:u8x16 = mov %17
      block2:         ; preds: block0 block1
         endif
         %20:u8x16 = phi %0, %12
         %22:u8x16 = phi %1, %15
         %25:u8x16 = phi %2, %18
         %19:u32x16 = and %6, 2:u32
         %21:flagx16 = cmp.z %19, 1:u32
         (+%21) %23:u16x16 = sel %22, %20
         %24:flagx16 = cmp.z %19, 2:u32
         (+%24) %26:u16x16 = sel %25, %23
         %27:u8x16 = mov %26
         %28:u32x16 = mov %27
         %29:u32x16[4] = load_payload %28, %28, %28, %28
         fb_write_logical %29, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* 25.0's block loads read up to 16 components.  A uniform one at a
 * constant offset reads the 64-byte lines of the constant cache it
 * touches, whole (one for a line-aligned offset, two from the middle of a
 * line); a varying one is one vec4 pull per four components.
 */
TEST(from_nir_intrinsics, ubo_block_loads_of_16_components)
{
   EXPECT_TRUE(translates_to25("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000020)
      con 32 %2 = load_const (0x00000080)
      con 32x16 %3 = @load_ubo_uniform_block_intel (%0 (0x0), %2 (0x80)) (access=speculatable, align_mul=1073741824, align_offset=128, range_base=0, range=-1)
      con 32x16 %4 = @load_ubo_uniform_block_intel (%0 (0x0), %1 (0x20)) (access=speculatable, align_mul=1073741824, align_offset=32, range_base=0, range=-1)
      div 32 %5 = @load_vertex_id_zero_base
      div 32 %6 = ishl %5, %2 (0x80)
      div 32x16 %7 = @load_ubo_uniform_block_intel (%0 (0x0), %6) (access=speculatable, align_mul=128, align_offset=0, range_base=0, range=-1)
      con 32 %8 = fadd %3.p, %4.a
      con 32 %9 = fadd %4.i, %4.p
      div 32 %10 = fadd %7.a, %7.p
      div 32 %11 = fadd %7.e, %7.j
      div 32x4 %12 = vec4 %8, %9, %10, %11
      @store_output (%12, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader vs simd8
      attr %3:f32x8[4]@g2
      hw %19:u32x8@g1
      block0:
         %0:u32x1[16] = uniform_block_read_logical 0:u32, 128:u32, 64:u32 {WE_all}
         %1:u32x1[16] = uniform_block_read_logical 0:u32, 0:u32, 64:u32 {WE_all}
         %2:u32x1[16] = uniform_block_read_logical 0:u32, 64:u32, 64:u32 {WE_all}
         %4:u32x8 = mov %3[2]:u32
         %5:u32x8 = shl %4, 128:u32
         %6:u32x8[4] = varying_pull_constant_logical 0:u32, %5, 128:u32
         %7:u32x8 = add %5, 16:u32
         %8:u32x8[4] = varying_pull_constant_logical 0:u32, %7, 16:u32
         %9:u32x8 = add %5, 32:u32
         %10:u32x8[4] = varying_pull_constant_logical 0:u32, %9, 16:u32
         %11:u32x8 = add %5, 48:u32
         %12:u32x8[4] = varying_pull_constant_logical 0:u32, %11, 16:u32
         %13:f32x1 = add %0[15]:f32, %1[8]:f32 {WE_all}
         %14:f32x1 = add %2:f32, %2[7]:f32 {WE_all}
         %15:f32x8 = add %6:f32, %12[3]:f32
         %16:f32x8 = add %8:f32, %10[1]:f32
         %17:f32x8 = mov %13
         %18:f32x8 = mov %14
         %20:u32x8 = mov 0:u32
         %21:u32x8 = mov 0:u32
         %22:u32x8 = mov 0:u32
         %23:u32x8 = mov 0:u32
         %24:u32x8[8] = load_payload %20, %21, %22, %23, %17:u32, %18:u32, %15:u32, %16:u32
         urb_write_logical %19, 0:u32, _, %24, 8:u32 {EOT}
   )", false));
}

/* 25.0 demotes where 23.3 discarded: demote_if (%c) with no index group. */
TEST(from_nir_intrinsics, demote_if_of_mesa25)
{
   EXPECT_TRUE(translates_to25("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel (interp_mode=INTERP_MODE_SMOOTH)
      con 32 %1 = load_const (0x00000000)
      div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %3 = flt32 %2.x, %1 (0.000000)
      @demote_if (%3)
      @store_output (%2, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
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
         %6:flagx8 = cmp.l %2, 0.0:f32
         (+%6) discard
         %7:u32x8[4] = load_payload %2:u32, %3:u32, %4:u32, %5:u32
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* 25.0's quad votes: the vote's or/and scan in clusters of four, each
 * quad's last channel read back over the quad (<4,4,0>).
 */
TEST(from_nir_intrinsics, quad_votes)
{
   EXPECT_TRUE(translates_to25("fs", 8, R"(
      div 32x4 %0 = @load_frag_coord
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x40000000)
      div 1 %3 = flt %0.x, %2 (2.000000)
      div 1 %4 = @quad_vote_any (%3)
      div 1 %5 = @quad_vote_all (%3)
      div 32 %6 = b2i32 %4
      div 32 %7 = b2i32 %5
      div 32x4 %8 = vec4 %6, %7, %1, %1
      @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )", R"(
      shader fs simd8
      wlr %0:u16x16
      hw %1:u16x16@g1
      hw %5:f32x8@g2
      hw %7:f32x8@g3
      wlr %10:u32x8
      wlr %12:u32x8
      block0:
         %0 = add %1.8<1,4,0>, 0x11001010:v {WE_all}
         %2:f32x8 = mov %0<8,4,1>
         %3:f32x8 = mov %0.8<8,4,1>
         %4:f32x8 = mov %5
         %6:f32x8 = mov %7
         %8:f32x8 = math_inv %6
         %9:u32x8 = cmp.l %2, 2.0:f32
         %10 = mov 0:u32 {WE_all}
         %10 = mov %9
         %10.4<2> = or(4) %10<8,4,2>, %10.4<8,4,2> {WE_all}
         %10.8<4> = or(2) %10.4<8,2,4>, %10.8<8,2,4> {WE_all}
         %10.12<4> = or(2) %10.4<8,2,4>, %10.12<8,2,4> {WE_all}
         %11:u32x8 = mov %10.12<4,4,0>
         %12 = mov 0xffffffff:u32 {WE_all}
         %12 = mov %9
         %12.4<2> = and(4) %12<8,4,2>, %12.4<8,4,2> {WE_all}
         %12.8<4> = and(2) %12.4<8,2,4>, %12.8<8,2,4> {WE_all}
         %12.12<4> = and(2) %12.4<8,2,4>, %12.12<8,2,4> {WE_all}
         %13:u32x8 = mov %12.12<4,4,0>
         %14:u32x8 = and %11, 1:u32
         %15:u32x8 = and %13, 1:u32
         %16:u32x8 = mov 0:u32
         %17:u32x8 = mov 0:u32
         %18:u32x8[4] = load_payload %14, %15, %16, %17
         fb_write_logical %18, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}
