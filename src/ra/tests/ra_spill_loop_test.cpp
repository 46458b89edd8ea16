/*
 * Spilling a SIMD-local value written in a loop and read after it.  A
 * channel that breaks in an earlier iteration needs its value from the
 * slot after the loop, but a later iteration's store writes every
 * channel (the block message runs NoMask), from a register that holds
 * the value only between its write and the store: another value of the
 * loop may hold its disabled channels (dolphin/ubershaders/3, 12 and
 * 21.fs at a forced SIMD32 with g0-g1 read in place by the RT write).
 * The store is therefore a read-modify-write of the slot, and the
 * validator counts such a store as a NoMask read of what it stores.
 */
#include <gtest/gtest.h>

#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"
#include "ra/ra.h"
#include "ra/ra_internal.h"
#include "util/ibis_error.h"

namespace {

/* A loop whose %3 is written each iteration; %5 (or %2) is read after
 * the loop.
 */
const char *loop_prog = R"(
   shader fs simd8
   hw %0:f32x8@g2
   block0:
      %1:f32x8 = mov 0.0:f32
   block1:
      do
      %2:f32x8 = phi %1, %6
      %3:f32x8 = add %2, 7.0:f32
      %4:flagx8 = cmp.g %3, %0
      (+%4) break
   block2:
      %6:f32x8 = add %3, 1.0:f32
      while
   block3:
      untyped_write_logical 0:u32, %@@, %@@, 1:u32
)";

std::string
with_read(const char *text, const std::string &v)
{
   std::string t = text;
   for (size_t at; (at = t.find("@@")) != std::string::npos;)
      t.replace(at, 2, v);
   return t;
}

/* The validator's complaint about an allocated program, or "". */
std::string
validator_error(const std::string &text)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(text));
   try {
      ibis::validate_allocation(*s);
   } catch (const ibis::error &e) {
      return e.what();
   }
   return "";
}

} /* anonymous namespace */

/* %3 is read after the loop: its store fills the slot's old channels,
 * copies %3 over them with the mask and stores the merge.
 */
TEST(ra_spill_loop, value_read_after_its_loop_is_stored_over_the_slot)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(with_read(loop_prog, "3")));
   ibis::ra_result res;
   ibis::ra_spill_values(*s, ibis::device_by_name("skl"), {s->find_value(3)}, res);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
      block1:         ; preds: block0 block2 succs: block2 block3
         do
         %2:f32x8 = phi %1, %6
         %3:f32x8 = add %2, 7.0:f32
         %[[h]]:u32x8 = mov %[[g0]] {WE_all}
         %[[f]]:f32x8 = send 10:u32, [[d]]:u32, 0:u32, %[[h]], _ {WE_all, fill}
         %[[m]]:f32x8 = copy %3, preserve %[[f]]
         %[[h2]]:u32x8 = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[_]]:u32, 64:u32, %[[h2]], %[[m]] {WE_all, side_effects, spill}
      ...
      block3:         ; preds: block1
      ...
         %[[f2]]:f32x8 = send 10:u32, [[d]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
         untyped_write_logical 0:u32, %[[f2]], %[[f2]], 1:u32
   )", s->str()), "") << s->str();
}

/* Read only inside its loop, %3 is stored as it is: the channels the
 * store overwrites with garbage are never filled for a channel that
 * needs them.
 */
TEST(ra_spill_loop, value_read_in_its_loop_only_is_stored_directly)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(with_read(loop_prog, "2")));
   ibis::ra_result res;
   ibis::ra_spill_values(*s, ibis::device_by_name("skl"), {s->find_value(3)}, res);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
         %3:f32x8 = add %2, 7.0:f32
         %[[h]]:u32x8 = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[_]]:u32, 64:u32, %[[h]], %3 {WE_all, side_effects, spill}
         %[[h2]]:u32x8 = mov %[[g0]] {WE_all}
         %[[f]]:f32x8 = send 10:u32, [[_]]:u32, 0:u32, %[[h2]], _ {WE_all, fill}
         %4:flagx8 = cmp.g %[[f]], %0
      ...
   )", s->str()), "") << s->str();
}

/* Allocated by hand: %3 is written in the loop with the mask and
 * stored NoMask to a slot filled after the loop, and %5, also read
 * after the loop, shares its register.  A channel that broke out in an
 * earlier iteration holds %5 there, which the store would write over
 * its %3 in the slot.  The validator took a spill store for a read of
 * the enabled channels only and accepted this; with the read-modify-
 * write (the masked copy over a fill of the slot) it is valid.
 */
TEST(ra_spill_loop, validator_rejects_a_store_of_shared_channels_filled_after_the_loop)
{
   const char *prog = R"(
      shader fs simd8 allocated scratch 32
      hw %0:f32x8@g2
      hw %9:u32x8@g0
      block0:
         %1:f32x8@g4 = mov 0.0:f32
      block1:
         do
         %3:f32x8@g5 = add %1, 7.0:f32
      @@
         %5:f32x8@g5 = add %1, 9.0:f32
         %4:flagx8@f0.0 = cmp.g %5, %0
         (+%4) break
      block2:
         %1 = add %1, 1.0:f32
         while
      block3:
         %11:u32x8@g6 = mov %9 {WE_all}
         %7:f32x8@g7 = send 10:u32, 0x21c0000:u32, 0:u32, %11, _ {WE_all, fill}
         untyped_write_logical 0:u32, %7, %5, 1:u32
   )";
   std::string e = validator_error(with_read(prog, R"(
         %10:u32x8@g6 = mov %9 {WE_all}
         _ = send 10:u32, 0x20e0000:u32, 64:u32, %10, %3 {WE_all, side_effects, spill}
   )"));
   EXPECT_NE(e.find("%3 and %5 share registers"), std::string::npos) << e;
   EXPECT_EQ(validator_error(with_read(prog, R"(
         %10:u32x8@g6 = mov %9 {WE_all}
         %12:f32x8@g8 = send 10:u32, 0x21c0000:u32, 0:u32, %10, _ {WE_all, fill}
         %13:f32x8@g8 = copy %3, preserve %12
         %14:u32x8@g6 = mov %9 {WE_all}
         _ = send 10:u32, 0x20e0000:u32, 64:u32, %14, %13 {WE_all, side_effects, spill}
   )")), "");
}

/* A loop variable whose first value is a NoMask fill before the loop
 * (a fill coalesced into its phi web) and whose back-edge write runs
 * with the mask, read only with the mask: a value of the loop read
 * after it may share its register, as the write changes only channels
 * that go round again (dolphin/ubershaders/3.fs at a forced SIMD32,
 * rejected before because the fill made the web count as NoMask).
 */
TEST(ra_spill_loop, validator_lets_a_fill_started_loop_variable_share_with_the_mask)
{
   EXPECT_EQ(validator_error(R"(
      shader fs simd8 allocated scratch 32
      hw %0:f32x8@g2
      hw %9:u32x8@g0
      block0:
         %10:u32x8@g6 = mov %9 {WE_all}
         %1:f32x8@g4 = send 10:u32, 0x21c0000:u32, 0:u32, %10, _ {WE_all, fill}
      block1:
         do
         %3:f32x8@g5 = add %1, 7.0:f32
         %5:f32x8@g4 = add %3, 9.0:f32
         %4:flagx8@f0.0 = cmp.g %5, %0
         (+%4) break
      block2:
         %1 = add %3, 1.0:f32
         while
      block3:
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )"), "");
}

/* A variable filled NoMask before an if and written in the then-side,
 * stored after the endif through lower_scratch()'s NoMask staging copy
 * (a value whose components are not whole registers is packed first):
 * a then-side value may share its register with the mask, as the copy
 * only feeds the store (random cs seed 147 at SIMD32 with 100 GRFs
 * reserved, rejected before as a NoMask read).  A staging copy that
 * something else reads too is a NoMask read.
 */
TEST(ra_spill_loop, validator_lets_a_staged_store_read_a_shared_variable)
{
   const char *prog = R"(
      shader cs simd8 allocated scratch 64
      hw %0:f32x8@g2
      hw %9:u32x8@g0
      block0:
         %10:u32x8@g6 = mov %9 {WE_all}
         %1:f32x8@g4 = send 10:u32, 0x21c0000:u32, 0:u32, %10, _ {WE_all, fill}
         %4:flagx8@f0.0 = cmp.g %0, 1.0:f32
         (+%4) if
      block1:
         %5:f32x8@g4 = add %0, 9.0:f32
         %1 = add %5, 1.0:f32
      block2:
         endif
         %11:f32x8@g7 = mov %1 {WE_all}
         %12:u32x8@g6 = mov %9 {WE_all}
         _ = send 10:u32, 0x20e0001:u32, 64:u32, %12, %11 {WE_all, side_effects, spill}@@
   )";
   EXPECT_EQ(validator_error(with_read(prog, "")), "");
   std::string e = validator_error(with_read(prog, R"(
         untyped_write_logical 0:u32, %11, %11, 1:u32)"));
   EXPECT_NE(e.find("%1 and %5 share registers"), std::string::npos) << e;
}
