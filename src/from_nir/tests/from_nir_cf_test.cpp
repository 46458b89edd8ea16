/*
 * Control flow, registers rebuilt into SSA, and subgroup operations with
 * their WLR values: NIR text in, ibis IR out, both inline.
 */
#include <gtest/gtest.h>

#include "from_nir_test_util.h"

using ibis::test::translates_to;

/* Registers read after a loop and an if/else become phis; the loop counter
 * of a loop with a uniform exit stays a width-1 (NoMask) value, its phi
 * included.
 */
TEST(from_nir_cf, registers_become_phis)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32 %2 = load_const (0x00000008)
      div 32 %3 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
      con 32 %4 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
      div 32x2 %5 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %6 = @load_interpolated_input (%5, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %7 = mov %0
      @store_reg (%7, %3) (base=0, wrmask=x, legacy_fsat=0)
      @store_reg (%7, %4) (base=0, wrmask=x, legacy_fsat=0)
      loop {
      block b1:
      con 32 %8 = @load_reg (%4) (base=0, legacy_fabs=0, legacy_fneg=0)
      con 32 %9 = ige32 %8, %2 (0x8)
      if %9 {
      block b2:
      break
      } else {
      block b3:
      }
      block b4:
      div 32 %10 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %11 = fadd %10, %6
      @store_reg (%11, %3) (base=0, wrmask=x, legacy_fsat=0)
      con 32 %12 = iadd %8, %1 (0x1)
      @store_reg (%12, %4) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b5:
      div 32 %13 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %14 = flt32 %13, %6
      if %14 {
      block b6:
      div 32 %15 = fmul %13, %13
      @store_reg (%15, %3) (base=0, wrmask=x, legacy_fsat=0)
      } else {
      block b7:
      div 32 %16 = fneg %13
      @store_reg (%16, %3) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b8:
      div 32 %17 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %18 = vec4 %17, %17, %17, %17
      @store_output (%18, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b9:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
         %3:u32x8 = mov 0:u32
         %4:u32x1 = mov 0:u32 {WE_all}
      block1:         ; preds: block0 block2 succs: block2 block3
         do
         %5:u32x1 = phi %4, %10:u32 {WE_all}
         %8:u32x8 = phi %3, %9:u32
         %6:u32x1 = cmp.ge %5:s32, 8:s32 {WE_all}
         %7:flagx8 = cmp.nz %6, 0:u32
         (+%7) break
      block2:         ; preds: block1 succs: block1
         %9:f32x8 = add %8:f32, %2
         %10:s32x1 = add %5:s32, 1:s32 {WE_all}
         while
      block3:         ; preds: block1 succs: block4 block5
         %11:flagx8 = cmp.l %8:f32, %2
         (+%11) if
      block4:         ; preds: block3 succs: block6
         %12:f32x8 = mul %8:f32, %8:f32
         else
      block5:         ; preds: block3 succs: block6
         %13:f32x8 = mov -%8:f32
      block6:         ; preds: block4 block5
         endif
         %14:u32x8 = phi %12:u32, %13:u32
         %15:u32x8[4] = load_payload %14, %14, %14, %14
         fb_write_logical %15, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A register NIR calls uniform is widened when its loop exits divergently:
 * after the loop each channel sees the iteration it left in.
 */
TEST(from_nir_cf, divergent_exit_widens_register)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32 %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
      div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %5 = mov %0
      @store_reg (%5, %2) (base=0, wrmask=x, legacy_fsat=0)
      loop {
      block b1:
      con 32 %6 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      con 32 %7 = i2f32 %6
      div 32 %8 = flt32 %4, %7
      if %8 {
      block b2:
      break
      } else {
      block b3:
      }
      block b4:
      con 32 %9 = iadd %6, %1 (0x1)
      @store_reg (%9, %2) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b5:
      con 32 %10 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %11 = vec4 %10, %10, %10, %10
      @store_output (%11, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b6:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
         %3:u32x8 = mov 0:u32
      block1:         ; preds: block0 block2 succs: block2 block3
         do
         %4:u32x8 = phi %3, %7:u32
         %5:f32x8 = mov %4:s32
         %6:flagx8 = cmp.l %2, %5
         (+%6) break
      block2:         ; preds: block1 succs: block1
         %7:s32x8 = add %4:s32, 1:s32
         while
      block3:         ; preds: block1
         %8:u32x8[4] = load_payload %4, %4, %4, %4
         fb_write_logical %8, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* The loop's break is divergent, but the counter is not read after the
 * loop: the channels still in the loop are all in the same iteration, so
 * it stays width 1.  (A register stored in such a loop used to be
 * widened.)
 */
TEST(from_nir_cf, divergent_break_keeps_carried_register_uniform)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32 %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
      con 32 %12 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
      div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %5 = mov %0
      @store_reg (%5, %2) (base=0, wrmask=x, legacy_fsat=0)
      div 32 %13 = mov %4
      @store_reg (%13, %12) (base=0, wrmask=x, legacy_fsat=0)
      loop {
      block b1:
      con 32 %6 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      con 32 %7 = i2f32 %6
      div 32 %8 = flt32 %4, %7
      if %8 {
      block b2:
      break
      } else {
      block b3:
      }
      block b4:
      div 32 %14 = @load_reg (%12) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %15 = fadd %14, %7
      @store_reg (%15, %12) (base=0, wrmask=x, legacy_fsat=0)
      con 32 %9 = iadd %6, %1 (0x1)
      @store_reg (%9, %2) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b5:
      div 32 %10 = @load_reg (%12) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %11 = vec4 %10, %10, %10, %10
      @store_output (%11, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b6:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
         %3:u32x1 = mov 0:u32 {WE_all}
      block1:         ; preds: block0 block2 succs: block2 block3
         do
         %4:u32x1 = phi %3, %9:u32 {WE_all}
         %7:u32x8 = phi %2:u32, %8:u32
         %5:f32x1 = mov %4:s32 {WE_all}
         %6:flagx8 = cmp.l %2, %5
         (+%6) break
      block2:         ; preds: block1 succs: block1
         %8:f32x8 = add %7:f32, %5
         %9:s32x1 = add %4:s32, 1:s32 {WE_all}
         while
      block3:         ; preds: block1
         %10:u32x8[4] = load_payload %7, %7, %7, %7
         fb_write_logical %10, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A branch that only jumps becomes one predicated jump (brw's
 * opt_predicated_break): a break in the else takes the inverted flag.  A
 * branch that does more than jump keeps its if/endif.
 */
TEST(from_nir_cf, lone_jump_becomes_predicated)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      div 32 %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
      div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32 %5 = mov %4
      @store_reg (%5, %2) (base=0, wrmask=x, legacy_fsat=0)
      loop {
      block b1:
      div 32 %6 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %7 = flt32 %6, %4
      if %7 {
      block b2:
      } else {
      block b3:
      break
      }
      block b4:
      div 32 %8 = fadd %6, %6
      div 32 %9 = flt32 %4, %8
      if %9 {
      block b5:
      @store_reg (%8, %2) (base=0, wrmask=x, legacy_fsat=0)
      break
      } else {
      block b6:
      }
      block b7:
      div 32 %10 = fmul %8, %8
      @store_reg (%10, %2) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b8:
      div 32 %11 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %12 = vec4 %11, %11, %11, %11
      @store_output (%12, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b9:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
      block1:         ; preds: block0 block4 succs: block2 block5
         do
         %3:u32x8 = phi %2:u32, %7:u32
         %4:flagx8 = cmp.l %3:f32, %2
         (-%4) break
      block2:         ; preds: block1 succs: block3 block4
         %5:f32x8 = add %3:f32, %3:f32
         %6:flagx8 = cmp.l %2, %5
         (+%6) if
      block3:         ; preds: block2 succs: block5
         break
      block4:         ; preds: block2 succs: block1
         endif
         %7:f32x8 = mul %5, %5
         while
      block5:         ; preds: block1 block3
         %8:u32x8 = phi %3, %5:u32
         %9:u32x8[4] = load_payload %8, %8, %8, %8
         fb_write_logical %9, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A divergent continue: the channels that continue skip the second store,
 * so at the loop header channels hold different counters: full width.
 */
TEST(from_nir_cf, divergent_continue_widens_carried_register)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32 %16 = load_const (0x00000004)
      con 32 %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
      con 32 %12 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
      div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %5 = mov %0
      @store_reg (%5, %2) (base=0, wrmask=x, legacy_fsat=0)
      div 32 %13 = mov %4
      @store_reg (%13, %12) (base=0, wrmask=x, legacy_fsat=0)
      loop {
      block b1:
      con 32 %6 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
      con 32 %17 = ige32 %6, %16 (0x4)
      if %17 {
      block b2:
      break
      } else {
      block b3:
      }
      block b4:
      con 32 %7 = i2f32 %6
      div 32 %14 = @load_reg (%12) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %15 = fadd %14, %7
      @store_reg (%15, %12) (base=0, wrmask=x, legacy_fsat=0)
      con 32 %9 = iadd %6, %1 (0x1)
      @store_reg (%9, %2) (base=0, wrmask=x, legacy_fsat=0)
      div 32 %8 = flt32 %4, %7
      if %8 {
      block b5:
      continue
      } else {
      block b6:
      }
      block b7:
      con 32 %18 = iadd %9, %1 (0x1)
      @store_reg (%18, %2) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b8:
      div 32 %10 = @load_reg (%12) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %11 = vec4 %10, %10, %10, %10
      @store_output (%11, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b9:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
         %3:u32x8 = mov 0:u32
      block1:         ; preds: block0 block2 block3 succs: block2 block4
         do
         %4:u32x8 = phi %3, %9:u32, %11:u32
         %7:u32x8 = phi %2:u32, %8:u32, %8:u32
         %5:flagx8 = cmp.ge %4:s32, 4:s32
         (+%5) break
      block2:         ; preds: block1 succs: block3 block1
         %6:f32x8 = mov %4:s32
         %8:f32x8 = add %7:f32, %6
         %9:s32x8 = add %4:s32, 1:s32
         %10:flagx8 = cmp.l %2, %6
         (+%10) cont
      block3:         ; preds: block2 succs: block1
         %11:s32x8 = add %9, 1:s32
         while
      block4:         ; preds: block1
         %12:u32x8[4] = load_payload %7, %7, %7, %7
         fb_write_logical %12, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* A register stored in both branches of a uniform if inside a divergent if
 * and read only inside the divergent if: every channel that reads it saw
 * the same store, so it stays width 1.
 */
TEST(from_nir_cf, register_inside_divergent_if_stays_uniform)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x3f800000)
      con 32 %2 = load_const (0x40000000)
      con 32 %3 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
      con 32 %4 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
      div 32x2 %5 = @load_barycentric_pixel () (interp_mode=1)
      div 32 %6 = @load_interpolated_input (%5, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      con 32 %7 = @load_uniform (%0) (base=0, range=4, dest_type=float32)
      @store_reg (%6, %4) (base=0, wrmask=x, legacy_fsat=0)
      div 32 %8 = flt32 %6, %1 (1.0)
      if %8 {
      block b1:
      con 32 %9 = flt32 %7, %1 (1.0)
      if %9 {
      block b2:
      con 32 %10 = fadd %7, %1 (1.0)
      @store_reg (%10, %3) (base=0, wrmask=x, legacy_fsat=0)
      } else {
      block b3:
      con 32 %11 = fmul %7, %2 (2.0)
      @store_reg (%11, %3) (base=0, wrmask=x, legacy_fsat=0)
      }
      block b4:
      con 32 %12 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32 %13 = fadd %6, %12
      @store_reg (%13, %4) (base=0, wrmask=x, legacy_fsat=0)
      } else {
      block b5:
      }
      block b6:
      div 32 %14 = @load_reg (%4) (base=0, legacy_fabs=0, legacy_fneg=0)
      div 32x4 %15 = vec4 %14, %14, %14, %14
      @store_output (%15, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b7:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g5
      uniform %3:u32x1[8]@g4
      block0:         ; succs: block1 block5
         %2:f32x8 = pln %1:f32, %0
         %4:flagx8 = cmp.l %2, 1.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block2 block3
         %5:u32x1 = cmp.l %3:f32, 1.0:f32 {WE_all}
         %6:flagx8 = cmp.nz %5, 0:u32
         (+%6) if
      block2:         ; preds: block1 succs: block4
         %7:f32x1 = add %3:f32, 1.0:f32 {WE_all}
         else
      block3:         ; preds: block1 succs: block4
         %8:f32x1 = mul %3:f32, 2.0:f32 {WE_all}
      block4:         ; preds: block2 block3 succs: block5
         endif
         %9:u32x1 = phi %7:u32, %8:u32 {WE_all}
         %10:f32x8 = add %2, %9:f32
      block5:         ; preds: block0 block4
         endif
         %11:u32x8 = phi %2:u32, %10:u32
         %12:u32x8[4] = load_payload %11, %11, %11, %11
         fb_write_logical %12, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", 4));
}

/* An output written in one branch only: the render target write reads a phi
 * of the stored value and the earlier one; the then-branch ending in a break
 * gets its else in an unreachable block.
 */
TEST(from_nir_cf, outputs_in_control_flow)
{
   EXPECT_TRUE(translates_to("fs", 8, R"(
      div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
      con 32 %1 = load_const (0x00000000)
      con 32 %2 = load_const (0x3f800000 = 1.000000)
      div 32 %3 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
      div 32x4 %4 = vec4 %3, %3, %3, %3
      @store_output (%4, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      loop {
      block b1:
      div 32 %5 = flt32 %3, %2 (1.000000)
      if %5 {
      block b2:
      @store_output (%2, %1 (0x0)) (base=0, range=1, wrmask=x, component=1, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      break
      } else {
      block b3:
      div 32 %6 = fadd %3, %2 (1.000000)
      @store_output (%6, %1 (0x0)) (base=0, range=1, wrmask=x, component=2, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      }
      block b4:
      break
      }
      block b5:
      block b6:
   )", R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:         ; succs: block1
         %2:f32x8 = pln %1:f32, %0
      block1:         ; preds: block0 block6 succs: block2 block4
         do
         %3:flagx8 = cmp.l %2, 1.0:f32
         (+%3) if
      block2:         ; preds: block1 succs: block7
         %4:f32x8 = mov 1.0:f32
         break
      block3:         ; succs: block5
         else
      block4:         ; preds: block1 succs: block5
         %5:f32x8 = add %2, 1.0:f32
      block5:         ; preds: block3 block4 succs: block7
         endif
         break
      block6:         ; succs: block1
         while
      block7:         ; preds: block2 block5
         %11:u32x8 = phi %4:u32, %2:u32
         %16:u32x8 = phi %2:u32, %5:u32
         %26:u32x8[4] = load_payload %2:u32, %11, %16, %2:u32
         fb_write_logical %26, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )"));
}

/* The seed's first WLR example at SIMD8: one packed-vector mov. */
TEST(from_nir_subgroup, subgroup_invocation_simd8)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      div 32 %0 = @load_subgroup_invocation () ()
      con 32 %1 = load_const (0x00000000)
      @store_ssbo (%0, %1 (0x0), %1 (0x0)) (wrmask=x, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd8
      wlr %0:u16x8
      hw %3:u32x8@g0
      block0:
         %0 = mov 0x76543210:v {WE_all}
         %1:u32x8 = mov %0
         %2:u32x8 = mov 0:u32
         untyped_write_logical 0:u32, %2, %1, 1:u32
         thread_end_logical %3 {WE_all, EOT}
   )"));
}

/* At SIMD32: the mov and two adds (channels 8-15, then 16-31), NoMask, into
 * one WLR value.
 */
TEST(from_nir_subgroup, subgroup_invocation_simd32)
{
   EXPECT_TRUE(translates_to("cs", 32, R"(
      div 32 %0 = @load_subgroup_invocation () ()
      con 32 %1 = load_const (0x00000000)
      @store_ssbo (%0, %1 (0x0), %1 (0x0)) (wrmask=x, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd32
      wlr %0:u16x32
      hw %3:u32x8@g0
      block0:
         %0 = mov(8) 0x76543210:v {WE_all}
         %0.16<1> = add(8+8) %0<8,8,1>, 8:u16 {WE_all}
         %0.32<1> = add(16+16) %0<16,16,1>, 16:u16 {WE_all}
         %1:u32x32 = mov %0
         %2:u32x32 = mov 0:u32
         untyped_write_logical 0:u32, %2, %1, 1:u32
         thread_end_logical %3 {WE_all, EOT}
   )"));
}

/* The seed's second WLR example: a subgroup fadd is an identity-filled copy,
 * then strided in-place adds on one WLR value (brw's emit_scan), and the
 * total is read from the last channel as a width-1 value.
 */
TEST(from_nir_subgroup, reduce_fadd)
{
   EXPECT_TRUE(translates_to("cs", 16, R"(
      div 32 %0 = @load_subgroup_invocation () ()
      div 32 %1 = u2f32 %0
      con 32 %2 = @reduce (%1) (reduction_op=fadd, cluster_size=0, include_helpers=0)
      con 32 %3 = load_const (0x00000000)
      @store_ssbo (%2, %3 (0x0), %3 (0x0)) (wrmask=x, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd16
      wlr %0:u16x16
      wlr %3:f32x16
      hw %7:u32x8@g0
      block0:
         %0 = mov(8) 0x76543210:v {WE_all}
         %0.16<1> = add(8+8) %0<8,8,1>, 8:u16 {WE_all}
         %1:u32x16 = mov %0
         %2:f32x16 = mov %1
         %3 = mov 0.0:f32 {WE_all}
         %3 = mov %2
         %3.4<2> = add(8) %3<16,8,2>, %3.4<16,8,2> {WE_all}
         %3.8<4> = add(4) %3.4<16,4,4>, %3.8<16,4,4> {WE_all}
         %3.12<4> = add(4) %3.4<16,4,4>, %3.12<16,4,4> {WE_all}
         %3.16<1> = add(4) %3.12<0,1,0>, %3.16<4,4,1> {WE_all}
         %3.48<1> = add(4) %3.44<0,1,0>, %3.48<4,4,1> {WE_all}
         %3.32<1> = add(8) %3.28<0,1,0>, %3.32<8,8,1> {WE_all}
         %4:f32x1 = mov %3.60<0,1,0> {WE_all}
         %5:u32x16 = mov 0:u32
         %6:u32x16 = mov %4:u32
         untyped_write_logical 0:u32, %5, %6, 1:u32
         thread_end_logical %7 {WE_all, EOT}
   )"));
}

/* Inclusive scans are the WLR value itself; exclusive scans shuffle it up
 * one channel (channel 0's index wraps to the last channel, so the
 * shuffle's indirect read stays in the register file: random vs seed 234);
 * clustered reductions broadcast each cluster's last channel.
 */
TEST(from_nir_subgroup, scans_and_clusters)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      div 32 %0 = @load_subgroup_invocation () ()
      div 32 %1 = @inclusive_scan (%0) (reduction_op=imax)
      div 32 %2 = @exclusive_scan (%0) (reduction_op=iadd)
      div 32 %3 = u2f32 %0
      div 32 %4 = @reduce (%3) (reduction_op=fmin, cluster_size=4, include_helpers=0)
      div 32 %5 = iadd %1, %2
      div 32 %6 = fadd %4, %3
      div 32x2 %7 = vec2 %5, %6
      con 32 %8 = load_const (0x00000000)
      @store_ssbo (%7, %8 (0x0), %8 (0x0)) (wrmask=xy, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd8
      wlr %0:u16x8
      wlr %2:s32x8
      wlr %3:s32x8
      wlr %4:u16x8
      wlr %9:s32x8
      wlr %11:f32x8
      hw %17:u32x8@g0
      block0:
         %0 = mov 0x76543210:v {WE_all}
         %1:u32x8 = mov %0
         %2 = mov -2147483648:s32 {WE_all}
         %2 = mov %1:s32
         %2.4<2> = sel.ge(4) %2<8,4,2>, %2.4<8,4,2> {WE_all}
         %2.8<4> = sel.ge(2) %2.4<8,2,4>, %2.8<8,2,4> {WE_all}
         %2.12<4> = sel.ge(2) %2.4<8,2,4>, %2.12<8,2,4> {WE_all}
         %2.16<1> = sel.ge(4) %2.12<0,1,0>, %2.16<4,4,1> {WE_all}
         %3 = mov 0:s32 {WE_all}
         %3 = mov %1:s32
         %3.4<2> = add(4) %3<8,4,2>, %3.4<8,4,2> {WE_all}
         %3.8<4> = add(2) %3.4<8,2,4>, %3.8<8,2,4> {WE_all}
         %3.12<4> = add(2) %3.4<8,2,4>, %3.12<8,2,4> {WE_all}
         %3.16<1> = add(4) %3.12<0,1,0>, %3.16<4,4,1> {WE_all}
         %4 = mov 0x76543210:v {WE_all}
         %5:u32x8 = mov %4
         %6:u32x8 = add %5, 0xffffffff:u32
         %7:u32x8 = and %6, 7:u32
         %8:s32x8 = shuffle %3, %7
         %9 = mov %8 {WE_all}
         %9 = mov(1) 0:s32 {WE_all}
         %10:f32x8 = mov %1
         %11 = mov 0x7f800000:f32 {WE_all}
         %11 = mov %10
         %11.4<2> = sel.l(4) %11<8,4,2>, %11.4<8,4,2> {WE_all}
         %11.8<4> = sel.l(2) %11.4<8,2,4>, %11.8<8,2,4> {WE_all}
         %11.12<4> = sel.l(2) %11.4<8,2,4>, %11.12<8,2,4> {WE_all}
         %12:f32x8 = mov %11.12<4,4,0>
         %13:s32x8 = add %2, %9
         %14:f32x8 = add %12, %10
         %15:u32x8 = mov 0:u32
         %16:u32x8[2] = load_payload %13:u32, %14:u32
         untyped_write_logical 0:u32, %15, %16, 2:u32
         thread_end_logical %17 {WE_all, EOT}
   )"));
}

/* Ballot and votes are or/and reductions; vote_ieq compares with the first
 * live channel's value; shuffles and quad swaps are shuffles by computed
 * index.
 */
TEST(from_nir_subgroup, votes_ballot_and_reads)
{
   EXPECT_TRUE(translates_to("cs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32 %1 = @load_subgroup_invocation () ()
      div 32 %2 = ine32 %1, %0 (0x0)
      con 32x4 %3 = @ballot (%2) ()
      con 32 %4 = @vote_any (%2) ()
      con 32 %5 = @vote_ieq (%1) ()
      con 32 %6 = @read_first_invocation (%1) ()
      div 32 %7 = @shuffle (%1, %6) ()
      div 32 %8 = @quad_swap_horizontal (%7) ()
      div 32 %9 = iadd %8, %5
      div 32x4 %10 = vec4 %3.x, %4, %6, %9
      @store_ssbo (%10, %0 (0x0), %0 (0x0)) (wrmask=xyzw, access=none, align_mul=4, align_offset=0)
      block b1:
   )", R"(
      shader cs simd8
      wlr %0:u16x8
      wlr %3:u16x8
      wlr %7:u32x8
      wlr %9:u32x8
      wlr %14:u32x8
      wlr %19:u16x8
      hw %29:u32x8@g0
      block0:
         %0 = mov 0x76543210:v {WE_all}
         %1:u32x8 = mov %0
         %2:u32x8 = cmp.nz %1:s32, 0:s32
         %3 = mov 0x76543210:v {WE_all}
         %4:u32x8 = mov %3
         %5:u32x8 = shl 1:u32, %4
         %6:u32x8 = and %2, %5
         %7 = mov 0:u32 {WE_all}
         %7 = mov %6
         %7.4<2> = or(4) %7<8,4,2>, %7.4<8,4,2> {WE_all}
         %7.8<4> = or(2) %7.4<8,2,4>, %7.8<8,2,4> {WE_all}
         %7.12<4> = or(2) %7.4<8,2,4>, %7.12<8,2,4> {WE_all}
         %7.16<1> = or(4) %7.12<0,1,0>, %7.16<4,4,1> {WE_all}
         %8:u32x1 = mov %7.28<0,1,0> {WE_all}
         %9 = mov 0:u32 {WE_all}
         %9 = mov %2
         %9.4<2> = or(4) %9<8,4,2>, %9.4<8,4,2> {WE_all}
         %9.8<4> = or(2) %9.4<8,2,4>, %9.8<8,2,4> {WE_all}
         %9.12<4> = or(2) %9.4<8,2,4>, %9.12<8,2,4> {WE_all}
         %9.16<1> = or(4) %9.12<0,1,0>, %9.16<4,4,1> {WE_all}
         %10:u32x1 = mov %9.28<0,1,0> {WE_all}
         %11:u32x1 = find_live_channel {WE_all}
         %12:u32x1 = broadcast %1, %11 {WE_all}
         %13:u32x8 = cmp.z %1, %12
         %14 = mov 0xffffffff:u32 {WE_all}
         %14 = mov %13
         %14.4<2> = and(4) %14<8,4,2>, %14.4<8,4,2> {WE_all}
         %14.8<4> = and(2) %14.4<8,2,4>, %14.8<8,2,4> {WE_all}
         %14.12<4> = and(2) %14.4<8,2,4>, %14.12<8,2,4> {WE_all}
         %14.16<1> = and(4) %14.12<0,1,0>, %14.16<4,4,1> {WE_all}
         %15:u32x1 = mov %14.28<0,1,0> {WE_all}
         %16:u32x1 = find_live_channel {WE_all}
         %17:u32x1 = broadcast %1, %16 {WE_all}
         %18:u32x8 = shuffle %1, %17
         %19 = mov 0x76543210:v {WE_all}
         %20:u32x8 = mov %19
         %21:u32x8 = xor %20, 1:u32
         %22:u32x8 = shuffle %18, %21
         %23:s32x8 = add %22:s32, %15:s32
         %24:u32x8 = mov 0:u32
         %25:u32x8 = mov %8
         %26:u32x8 = mov %10
         %27:u32x8 = mov %17
         %28:u32x8[4] = load_payload %25, %26, %27, %23:u32
         untyped_write_logical 0:u32, %24, %28, 4:u32
         thread_end_logical %29 {WE_all, EOT}
   )"));
}
