/*
 * Phi narrowing after lowering: SIMD16 integer phis whose values fit a
 * word (range analysis) or whose high half nobody reads (demanded bits)
 * become 16-bit phis; readers that keep a dword execution type read the
 * word, the others a conversion made just before them.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

/* A loop-carried value masked to 0..255 on both edges: a u16 phi.  The
 * inputs are truncated at the end of their predecessors, the add reads the
 * word (its other source is a dword), the payload a conversion.
 */
TEST(opt_narrow_phis, masked_phi_narrows)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16 lowered
      attr %1:u32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = and %1, 255:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %6
         %5:u32x16 = add %4, %1
         %6:u32x16 = and %5, 255:u32
         %7:flagx16 = cmp.l %2, 10.0:f32
         (+%7) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %4, %4, %4, %4
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )", "narrow-phis", R"(
      block0: ; succs: block1
         %3:u32x16 = and %1, 255:u32
         %[[a]]:u16x16 = mov %3<16,8,2>:u16
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %[[w]]:u16x16 = phi %[[a]], %[[b]]
         %5:u32x16 = add %[[w]], %1
         %6:u32x16 = and %5, 255:u32
         %7:flagx16 = cmp.l %2, 10.0:f32
         %[[b]]:u16x16 = mov %6<16,8,2>:u16
         (+%7) while
      block2: ; preds: block1
         %[[e]]:u32x16 = mov %[[w]]
         %8:u32x16[4] = load_payload %[[e]], %[[e]], %[[e]], %[[e]]
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )"));
}

/* An add around the loop is unbounded, and the payload reads all 32 bits:
 * the phi stays a dword.
 */
TEST(opt_narrow_phis, unbounded_phi_stays)
{
   const char *program = R"(
      shader fs simd16 lowered
      attr %1:u32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = and %1, 255:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %5
         %5:u32x16 = add %4, 1:u32
         %7:flagx16 = cmp.l %2, 10.0:f32
         (+%7) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %4, %4, %4, %4
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "narrow-phis", program));
}

/* Dolphin's TEV clamp: max(x, -1024) then min(.., 1023), signed.  The phi
 * holds -1024..1023: an s16 phi whose readers see it sign-extended (the
 * add and asr read the word, the payload a conversion from s16).
 */
TEST(opt_narrow_phis, signed_clamp_narrows)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16 lowered
      attr %1:s32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov 0:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %7
         %5:s32x16 = add %4:s32, %1
         %6:s32x16 = sel.ge %5, -1024:s32
         %7:s32x16 = sel.l %6, 1023:s32
         %9:s32x16 = asr %4:s32, 2:u32
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %4, %9:u32, %4, %4
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )", "narrow-phis", R"(
      block0: ; succs: block1
         %3:u32x16 = mov 0:u32
         %[[a]]:s16x16 = mov %3<16,8,2>:s16
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %[[w]]:s16x16 = phi %[[a]], %[[b]]
         %5:s32x16 = add %[[w]], %1
         %6:s32x16 = sel.ge %5, -1024:s32
         %7:s32x16 = sel.l %6, 1023:s32
         %9:s32x16 = asr %[[w]], 2:u32
         %10:flagx16 = cmp.l %2, 10.0:f32
         %[[b]]:s16x16 = mov %7<16,8,2>:s16
         (+%10) while
      block2: ; preds: block1
         %[[e]]:u32x16 = mov %[[w]]
         %8:u32x16[4] = load_payload %[[e]], %9:u32, %[[e]], %[[e]]
   ...
   )"));
}

/* Clamped only from above (min(x, 1023), signed) the phi can still be
 * any negative number: it stays.
 */
TEST(opt_narrow_phis, one_sided_clamp_stays)
{
   const char *program = R"(
      shader fs simd16 lowered
      attr %1:s32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov 0:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %7
         %5:s32x16 = add %4:s32, %1
         %7:s32x16 = sel.l %5, 1023:s32
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %4, %4, %4, %4
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "narrow-phis", program));
}

/* Dolphin's colour registers: the first value is a push constant (any
 * 32 bits), but every reader masks the low 8 bits, so the high half is
 * never observed: a u16 phi of truncated inputs, read directly by the
 * and.  An unsigned shift right would observe the high half: with one
 * such reader the phi stays.
 */
TEST(opt_narrow_phis, unobserved_high_half_narrows)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16 lowered
      attr %1:u32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov %1
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %6
         %5:u32x16 = and %4, 255:u32
         %6:u32x16 = add %5, %1
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %5, %5, %5, %5
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )", "narrow-phis", R"(
      block0: ; succs: block1
         %3:u32x16 = mov %1
         %[[a]]:u16x16 = mov %3<16,8,2>:u16
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %[[w]]:u16x16 = phi %[[a]], %[[b]]
         %5:u32x16 = and %[[w]], 255:u32
         %6:u32x16 = add %5, %1
         %10:flagx16 = cmp.l %2, 10.0:f32
         %[[b]]:u16x16 = mov %6<16,8,2>:u16
         (+%10) while
   ...
   )"));

   const char *observed = R"(
      shader fs simd16 lowered
      attr %1:u32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov %1
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %6
         %5:u32x16 = and %4, 255:u32
         %9:u32x16 = shr %4, 16:u32
         %6:u32x16 = add %5, %9
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %5, %5, %5, %5
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(observed, "narrow-phis", observed));
}

/* SIMD8 phis are one GRF either way: left alone. */
TEST(opt_narrow_phis, simd8_is_left_alone)
{
   const char *program = R"(
      shader fs simd8 lowered
      attr %1:u32x8
      attr %2:f32x8
      block0:         ; succs: block1
         %3:u32x8 = and %1, 255:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x8 = phi %3, %6
         %6:u32x8 = and %4, 127:u32
         %7:flagx8 = cmp.l %2, 10.0:f32
         (+%7) while
      block2:         ; preds: block1
         %8:u32x8[4] = load_payload %4, %4, %4, %4
         _ = send 5:u32, 0x8031400:u32, 0:u32, %8, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "narrow-phis", program));
}

/* Two word phis reading the same dword from the same predecessor share
 * its truncation, also when one is u16 and the other s16.
 */
TEST(opt_narrow_phis, one_truncation_per_value_and_predecessor)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16 lowered
      attr %1:s32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov 0:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %6
         %5:u32x16 = phi %3, %7
         %6:u32x16 = and %4, 255:u32
         %8:s32x16 = add %5:s32, %1
         %9:s32x16 = sel.ge %8, -1024:s32
         %7:s32x16 = sel.l %9, 1023:s32
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %11:u32x16[4] = load_payload %4, %5, %4, %5
         _ = send 5:u32, 0x10031000:u32, 0:u32, %11, _ {EOT}
   )", "narrow-phis", R"(
      block0: ; succs: block1
         %3:u32x16 = mov 0:u32
         %[[a]]:u16x16 = mov %3<16,8,2>:u16
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %[[w]]:u16x16 = phi %[[a]], %[[b]]
         %[[x]]:s16x16 = phi %[[a]]:s16, %[[c]]
   ...
   )"));
}

/* An asr of an unsigned dword by 16: -32768..32767 if the shift is
 * arithmetic, 0..65535 if the hardware shifted an unsigned source
 * logically; no word holds both, so the phi stays.  Of a signed source
 * it is an s16 phi.
 */
TEST(opt_narrow_phis, asr_of_an_unsigned_source)
{
   const char *program = R"(
      shader fs simd16 lowered
      attr %1:u32x16
      attr %2:f32x16
      block0:         ; succs: block1
         %3:u32x16 = mov 0:u32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %4:u32x16 = phi %3, %5
         %6:u32x16 = add %4, %1
         %5:u32x16 = asr %6, 16:u32
         %10:flagx16 = cmp.l %2, 10.0:f32
         (+%10) while
      block2:         ; preds: block1
         %8:u32x16[4] = load_payload %4, %4, %4, %4
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "narrow-phis", program));

   std::string is_signed = program;
   is_signed.replace(is_signed.find("asr %6,"), 7, "asr %6:s32,");
   EXPECT_TRUE(check_opt(is_signed, "narrow-phis", R"(
      block1: ; preds: block0 block1 succs: block1 block2
         do
         %[[w]]:s16x16 = phi %[[a]], %[[b]]
   ...
   )"));
}
