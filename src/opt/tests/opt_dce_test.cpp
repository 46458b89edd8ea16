/*
 * Dead code elimination: unused values go, effects stay, WLR sequences go
 * as a whole, unread flags lose their conditional modifier.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_dce, unused_chain_is_removed)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = mul %2, %2
         %4:f32x8 = add %1, 2.0:f32
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "dce", R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %4:f32x8 = add %1, 2.0:f32
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
}

TEST(opt_dce, side_effects_stay)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      attr %1:u32x8
      block0:
         %2:u32x8 = add %1, 4:u32
         untyped_write_logical 0:u32, %2, %1, 1:u32
         %3:u32x8 = untyped_atomic_logical 0:u32, %2, %1, _, 0:u32
         %4:u32x8 = untyped_read_logical 0:u32, %2, 1:u32
         %5:u32x8 = add %1, %1 {side_effects}
   )", "dce", R"(
      block0:
         %2:u32x8 = add %1, 4:u32
         untyped_write_logical 0:u32, %2, %1, 1:u32
         %3:u32x8 = untyped_atomic_logical 0:u32, %2, %1, _, 0:u32
         %5:u32x8 = add %1, %1 {side_effects}
   )"));
}

TEST(opt_dce, control_flow_and_its_condition_stay)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
      block2:         ; preds: block0 block1
         endif
         %4:f32x8 = phi %1, %3
   )", "dce", R"(
      block0: ; succs: block1 block2
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1: ; preds: block0 succs: block2
      block2: ; preds: block0 block1
         endif
   )"));
}

/* The loop phi and its increment only feed each other. */
TEST(opt_dce, dead_loop_cycle_is_removed)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1
         %2:f32x8 = mov 0.0:f32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %3:f32x8 = phi %2, %4
         %4:f32x8 = add %3, 1.0:f32
         %5:flagx8 = cmp.l %1, 10.0:f32
         (+%5) while
      block2:         ; preds: block1
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "dce", R"(
      block0: ; succs: block1
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %5:flagx8 = cmp.l %1, 10.0:f32
         (+%5) while
      block2: ; preds: block1
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
}

/* Nobody outside the sequence reads %2: all its writes go, including the
 * one that reads it (x |= y).
 */
TEST(opt_dce, unread_wlr_sequence_is_removed)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      attr %1:u32x16[2]
      wlr %2:u32x16
      block0:
         %2 = mov %1
         %2 = or %2, %1[1]
         %2 = and %2, 0xff:u32
         %3:u32x16 = add %1, 1:u32
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )", "dce", R"(
      shader fs simd16
      attr %1:u32x16[2]
      wlr %2:u32x16
      block0:
         %3:u32x16 = add %1, 1:u32
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )"));
}

/* One read after the final write keeps every write, even those whose
 * result is only read by the next write.
 */
TEST(opt_dce, read_wlr_sequence_stays_whole)
{
   const char *program = R"(
      shader cs simd16
      wlr %1:u16x16
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %2:u32x16 = mov %1
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )";
   EXPECT_TRUE(check_opt(program, "dce", program));
}

TEST(opt_dce, unread_flag_loses_its_conditional_modifier)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8, %3:flagx8 = add.z %1, 1.0:f32
         %4:f32x8, %5:flagx8 = add.z %1, 2.0:f32
         (+%5) discard
         %6:f32x8 = add %2, %4
         fb_write_logical %6, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "dce", R"(
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %4:f32x8, %5:flagx8 = add.z %1, 2.0:f32
         (+%5) discard
         %6:f32x8 = add %2, %4
   ...
   )"));
}

/* An instruction kept for its flag loses a destination nobody reads: a
 * compare always, another instruction when the flag tests the result in
 * the same type (the null destination takes the first source's) and
 * nothing saturates; three-source instructions need their register.
 */
TEST(opt_dce, unread_destination_of_a_flag_write_becomes_null)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      uniform %2:u32x1
      block0:
         %3:u32x8, %4:flagx8 = cmp.l %1, 0.0:f32
         %5:u32x8, %6:flagx8 = and.z %2, 1:u32
         %7:s32x8, %8:flagx8 = add.z %1, 2.0:f32
         %9:f32x8, %10:flagx8 = add.sat.z %1, 3.0:f32
         %11:f32x8, %12:flagx8 = mad.l %1, %1, 4.0:f32
         (+%4) discard
         (+%6) discard
         (+%8) discard
         (+%10) discard
         (+%12) discard
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "dce", R"(
      block0:
         _, %4:flagx8 = cmp.l %1, 0.0:f32
         _, %6:flagx8 = and.z %2, 1:u32
         %7:s32x8, %8:flagx8 = add.z %1, 2.0:f32
         %9:f32x8, %10:flagx8 = add.sat.z %1, 3.0:f32
         %11:f32x8, %12:flagx8 = mad.l %1, %1, 4.0:f32
   ...
   )"));
}

/* cmp computes its flag by its modifier; sel.l and csel.z read theirs. */
TEST(opt_dce, cmp_sel_and_csel_keep_their_modifier)
{
   const char *program = R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8, %3:flagx8 = cmp.l %1, 0.0:f32
         %4:f32x8 = sel.l %1, %2
         %5:f32x8 = csel.z %1, %4, %2
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "dce", program));
}

/* A flag-only instruction whose flag is unread goes entirely. */
TEST(opt_dce, unread_flag_only_instruction_is_removed)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", "dce", R"(
      block0:
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
}

/* Writes of fixed registers and of an accumulator a later mac reads stay;
 * an accumulator write nobody reads afterwards goes.
 */
TEST(opt_dce, fixed_registers_and_accumulator)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:s32x8
      hw %2:u32x8@g2
      accum %3:s32x8@acc0
      block0:
         %2 = mov 0:u32
         %3 = mov %1
         %4:s32x8 = mac %1, 3:s32
         %5:s32x8 = addc %1, 7:s32
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", "dce", R"(
      block0:
         %2 = mov 0:u32
         %3 = mov %1
         %4:s32x8 = mac %1, 3:s32
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )"));
}

/* A physical send may write memory whatever its descriptor says. */
TEST(opt_dce, physical_send_stays)
{
   const char *program = R"(
      shader cs simd8
      attr %1:u32x8
      block0:
         %2:u32x8 = send 10:u32, 0x2410000:u32, 0:u32, %1, _
   )";
   EXPECT_TRUE(check_opt(program, "dce", program));
}
