/*
 * The schedulers, with the input IR and the expected order inline.
 *
 * Dependency tests use the latency mode, which wants to issue the
 * long-latency send (a sampler message: 750 cycles, ir/ibis_perf.h) as
 * early as possible; each program puts an instruction the send or its
 * chain depends on after independent work, so that the expected order
 * shows the scheduler moving as far as the dependency lets it, and no
 * further.
 */
#include <gtest/gtest.h>

#include "dev/ibis_device.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_perf.h"
#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "ir/testing/ibis_check.h"
#include "ra/ra.h"
#include "sched/sched.h"
#include "sched/sched_dag.h"
#include "util/ibis_error.h"

using namespace ibis;
using ibis::testing::check_pass;
using ibis::testing::dedent;

namespace {

class sched : public ::testing::Test {
protected:
   void SetUp() override
   {
      register_sched_passes();
      register_ra_passes();
   }
};

} /* namespace */

TEST_F(sched, mode_names)
{
   EXPECT_STREQ(sched_mode_name(sched_mode::latency), "latency");
   EXPECT_STREQ(sched_mode_name(sched_mode::pressure), "pressure");
   EXPECT_STREQ(sched_mode_name(sched_mode::none), "none");
   EXPECT_STREQ(sched_mode_name(sched_mode::narrow), "narrow");
}

TEST_F(sched, latency_hoists_an_independent_send)
{
   /* Nothing holds the send back: it goes first. */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = add %1, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %1, _
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )", "sched-pre-latency,validate", R"(
      block0:
         %4:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %1, _
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = add %1, 2.0:f32
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )"));
}

TEST_F(sched, def_use)
{
   /* The payload's definition goes first, then the send as soon as it
    * can; the independent adds fill the wait.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = add %1, 2.0:f32
         %7:f32x8 = mul %1, %1
         %4:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %7, _
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )", "sched-pre-latency,validate", R"(
      block0:
         %7:f32x8 = mul %1, %1
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = add %1, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %7, _
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )"));
}

TEST_F(sched, wlr_sequence_keeps_its_order)
{
   /* The payload is a WLR value written twice; the writes stay in order
    * and the send reads it after the final write.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      wlr %7:f32x8
      block0:
         %8:flagx8 = cmp.l %1, 0.0:f32
         %2:f32x8 = add %1, 1.0:f32
         %7 = mov %1
         %3:f32x8 = add %1, 2.0:f32
         (+%8) %7 = mov 0.0:f32
         %4:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %7, _
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )", "sched-pre-latency,validate", R"(
      block0:
         %8:flagx8 = cmp.l %1, 0.0:f32
         %7 = mov %1
         %2:f32x8 = add %1, 1.0:f32
         %3:f32x8 = add %1, 2.0:f32
         (+%8) %7 = mov 0.0:f32
         %4:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %7, _
         %5:f32x8 = add %4, %2
         %6:f32x8 = add %5, %3
   )"));
}

TEST_F(sched, flag_lifetimes_do_not_interleave)
{
   /* %9 feeds the send, so its cmp would go first; but %8's sel must
    * read f0 before another flag is defined.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %8:flagx8 = cmp.l %1, 0.0:f32
         (+%8) %2:f32x8 = sel %1, 1.0:f32
         %9:flagx8 = cmp.g %1, 0.5:f32
         (+%9) %3:f32x8 = sel %1, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %3, _
         %5:f32x8 = add %4, %2
   )", "sched-pre-latency,validate", R"(
      block0:
         %8:flagx8 = cmp.l %1, 0.0:f32
         (+%8) %2:f32x8 = sel %1, 1.0:f32
         %9:flagx8 = cmp.g %1, 0.5:f32
         (+%9) %3:f32x8 = sel %1, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
         %5:f32x8 = add %4, %2
   )"));
}

TEST_F(sched, accumulator)
{
   /* addc writes the accumulator, mach reads and writes it: the second
    * addc, which feeds the send, may not pass the mach.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:u32x8
      block0:
         %2:u32x8 = addc %1, %1
         %3:u32x8 = mach %1, %2
         %4:u32x8 = addc %1, 7:u32
         %5:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %4, _
         %6:f32x8 = add %5, %3:f32
   )", "sched-pre-latency,validate", R"(
      block0:
         %2:u32x8 = addc %1, %1
         %3:u32x8 = mach %1, %2
         %4:u32x8 = addc %1, 7:u32
         %5:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %4, _
         %6:f32x8 = add %5, %3:f32
   )"));
}

TEST_F(sched, hw_reg_order)
{
   /* The write of g4 is on the send's critical path and moves above the
    * read of g5 (other bytes); the read of g4 stays after the write (it
    * waits for it while the g5 read issues).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:f32x8
      hw %10:f32x8@g4
      hw %11:f32x8@g5
      block0:
         %2:f32x8 = add %11, 1.0:f32
         %10 = mov %1
         %3:f32x8 = add %10, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %3, _
         %5:f32x8 = add %4, %2
   )", "sched-pre-latency,validate", R"(
      block0:
         %10 = mov %1
         %2:f32x8 = add %11, 1.0:f32
         %3:f32x8 = add %10, 2.0:f32
         %4:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
         %5:f32x8 = add %4, %2
   )"));
}

TEST_F(sched, side_effects_keep_their_order)
{
   /* A data port write (side effects), then a data port read whose
    * result is on the critical path: the read stays after the write;
    * the barrier's gateway send and its wait keep their place among
    * them.
    */
   EXPECT_TRUE(check_pass(R"(
      shader cs simd8
      attr %1:u32x8
      hw %9:u32x8@g0
      block0:
         %2:u32x8 = add %1, 1:u32
         _ = send 12:u32, 0x02026000:u32, 0:u32, %1, _ {side_effects}
         _ = send 3:u32, 0x02000004:u32, 0:u32, %9, _ {side_effects}
         wait
         %3:u32x8 = send 12:u32, 0x02106000:u32, 0:u32, %1, _
         %4:u32x8 = add %3, %2
   )", "sched-pre-latency,validate", R"(
      block0:
         _ = send 12:u32, 0x2026000:u32, 0:u32, %1, _ {side_effects}
         _ = send 3:u32, 0x2000004:u32, 0:u32, %9, _ {side_effects}
         wait
         %3:u32x8 = send 12:u32, 0x2106000:u32, 0:u32, %1, _
         %2:u32x8 = add %1, 1:u32
         %4:u32x8 = add %3, %2
   )"));
}

TEST_F(sched, eot_stays_last)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      attr %1:u32x8
      block0:
         _ = send 6:u32, 0x02080017:u32, 0:u32, %1, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         _ = send 6:u32, 0x2080017:u32, 0:u32, %1, _ {EOT}
   )"));
}

/* Four independent chains of two SIMD16 values each: in the original
 * order all four first results are live together (with the attribute,
 * 10 GRFs at the fourth add); pressure first evaluates one chain at a
 * time.
 */
static const char *const four_chains = R"(
   shader fs simd16
   attr %1:f32x16
   block0:
      %2:f32x16 = add %1, 1.0:f32
      %3:f32x16 = add %1, 2.0:f32
      %4:f32x16 = add %1, 3.0:f32
      %5:f32x16 = add %1, 4.0:f32
      %6:f32x16 = mul %2, %2
      %7:f32x16 = mul %3, %3
      %8:f32x16 = mul %4, %4
      %9:f32x16 = mul %5, %5
      %10:f32x16 = add %6, %7
      %11:f32x16 = add %8, %9
      %12:f32x16 = add %10, %11
      %13:u32x16 = mov %12:u32
      _ = send 6:u32, 0x02080017:u32, 0:u32, %13, _ {EOT}
)";

TEST_F(sched, pressure_first_lowers_max_live)
{
   auto s = parse_shader(dedent(four_chains));
   EXPECT_EQ(max_live(*s), 10u);
   schedule_pre_ra(*s, device_by_name("skl"), sched_mode::pressure);
   validate(*s, "pressure test");
   EXPECT_EQ(max_live(*s), 8u);
   /* The latency mode keeps the order here: under the budget, latency
    * wins, and the original order is already the best for it.
    */
   auto l = parse_shader(dedent(four_chains));
   schedule_pre_ra(*l, device_by_name("skl"), sched_mode::latency);
   EXPECT_EQ(max_live(*l), 10u);
   /* none leaves the program alone. */
   auto n = parse_shader(dedent(four_chains));
   const std::string before = n->str();
   schedule_pre_ra(*n, device_by_name("skl"), sched_mode::none);
   EXPECT_EQ(n->str(), before);
}

TEST_F(sched, pressure_first_order)
{
   EXPECT_TRUE(check_pass(four_chains, "sched-pre-pressure,validate", R"(
      block0:
         %2:f32x16 = add %1, 1.0:f32
         %6:f32x16 = mul %2, %2
         %3:f32x16 = add %1, 2.0:f32
         %7:f32x16 = mul %3, %3
         %10:f32x16 = add %6, %7
         %4:f32x16 = add %1, 3.0:f32
         %8:f32x16 = mul %4, %4
         %5:f32x16 = add %1, 4.0:f32
         %9:f32x16 = mul %5, %5
         %11:f32x16 = add %8, %9
         %12:f32x16 = add %10, %11
         %13:u32x16 = mov %12:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %13, _ {EOT}
   )"));
}

TEST_F(sched, interpolation_sinks_to_its_use)
{
   /* from_nir interpolates every input at the top.  Pressure first moves
    * each pln, and the constant, down to its first reader: the four
    * results (2 GRFs each) then never live together, at the price of
    * the barycentric pair (4 GRFs) living longer.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      uniform %1:f32x1[16]@g6
      attr %2:f32x16[2]
      attr %3:f32x16
      block0:
         %4:f32x16 = pln %1<0,4,1>:f32, %2
         %5:f32x16 = pln %1[4]<0,4,1>:f32, %2
         %6:f32x16 = pln %1[8]<0,4,1>:f32, %2
         %7:f32x16 = pln %1[12]<0,4,1>:f32, %2
         %8:f32x16 = mov 0.5:f32
         %9:f32x16 = mul %3, %3
         %10:f32x16 = mad %9, %8, %4
         %11:f32x16 = mul %10, %5
         %12:f32x16 = mul %11, %6
         %13:f32x16 = add %12, %7
         %14:u32x16 = mov %13:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %14, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %9:f32x16 = mul %3, %3
         %4:f32x16 = pln %1<0,4,1>, %2
         %8:f32x16 = mov 0.5:f32
         %10:f32x16 = mad %9, %8, %4
         %5:f32x16 = pln %1[4]<0,4,1>, %2
         %11:f32x16 = mul %10, %5
         %6:f32x16 = pln %1[8]<0,4,1>, %2
         %12:f32x16 = mul %11, %6
         %7:f32x16 = pln %1[12]<0,4,1>, %2
         %13:f32x16 = add %12, %7
         %14:u32x16 = mov %13:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %14, _ {EOT}
   )"));
}

TEST_F(sched, cheap_definitions_rematerialize_in_their_blocks)
{
   /* The pln and the constant are only read in the branches: pressure
    * first gives each branch its own copy and drops the originals, so
    * neither lives across the if.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      uniform %1:f32x1[8]@g6
      attr %2:f32x16[2]
      attr %3:f32x16
      block0:
         %4:f32x16 = pln %1<0,4,1>:f32, %2
         %5:f32x16 = mov 0.5:f32
         %6:flagx16 = cmp.l %3, 0.0:f32
         (+%6) if
      block1:
         %7:f32x16 = mul %3, %4
         else
      block2:
         %8:f32x16 = add %3, %5
      block3:
         endif
         %9:f32x16 = phi %7, %8
         %10:u32x16 = mov %9:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %6:flagx16 = cmp.l %3, 0.0:f32
         (+%6) if
      block1:
         %[[p]]:f32x16 = pln %1<0,4,1>, %2
         %7:f32x16 = mul %3, %[[p]]
         else
      block2:
         %[[c]]:f32x16 = mov 0.5:f32
         %8:f32x16 = add %3, %[[c]]
      block3:
         endif
         %9:f32x16 = phi %7, %8
         %10:u32x16 = mov %9:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST_F(sched, rematerialized_copies_are_numbered_in_block_order)
{
   /* The pln is read in both arms and after the if: its copies get their
    * ids in block order, whatever the blocks' addresses, so two runs
    * number (and allocate) them alike.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      uniform %1:f32x1[8]@g6
      attr %2:f32x16[2]
      attr %3:f32x16
      block0:
         %4:f32x16 = pln %1<0,4,1>:f32, %2
         %6:flagx16 = cmp.l %3, 0.0:f32
         (+%6) if
      block1:
         %7:f32x16 = mul %3, %4
         else
      block2:
         %8:f32x16 = add %3, %4
      block3:
         endif
         %9:f32x16 = phi %7, %8
         %5:f32x16 = mad %9, %4, %4
         %10:u32x16 = mov %5:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %6:flagx16 = cmp.l %3, 0.0:f32
         (+%6) if
      block1:
         %11:f32x16 = pln %1<0,4,1>, %2
         %7:f32x16 = mul %3, %11
         else
      block2:
         %12:f32x16 = pln %1<0,4,1>, %2
         %8:f32x16 = add %3, %12
      block3:
         endif
         %9:f32x16 = phi %7, %8
         %13:f32x16 = pln %1<0,4,1>, %2
         %5:f32x16 = mad %9, %13, %13
         %10:u32x16 = mov %5:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST_F(sched, masked_values_rematerialize_where_their_source_is_live)
{
   /* %4 is %3 masked to 8 bits; %3 lives to the end anyway.  Pressure
    * first recomputes %4 in each block that reads it instead of keeping
    * both across the else (6 GRFs there before, 4 after).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      block0:
         %3:f32x16 = math_inv %2
         %4:u32x16 = and %3:u32, 255:u32
         %5:flagx16 = cmp.l %2, 0.0:f32
         (+%5) if
      block1:
         %6:u32x16 = add %4, 1:u32
         else
      block2:
         %7:u32x16 = add %3:u32, 2:u32
      block3:
         endif
         %8:u32x16 = phi %6, %7
         %9:u32x16 = add %8, %4
         %10:u32x16 = add %9, %3:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %5:flagx16 = cmp.l %2, 0.0:f32
         %3:f32x16 = math_inv %2
         (+%5) if
      block1:
         %[[a]]:u32x16 = and %3:u32, 255:u32
         %6:u32x16 = add %[[a]], 1:u32
         else
      block2:
         %7:u32x16 = add %3:u32, 2:u32
      block3:
         endif
         %8:u32x16 = phi %6, %7
         %[[b]]:u32x16 = and %3:u32, 255:u32
         %9:u32x16 = add %8, %[[b]]
         %10:u32x16 = add %9, %3:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST_F(sched, masked_values_stay_where_a_copy_would_change_them)
{
   /* Block3 sends %4 (a payload reads every channel, also those disabled
    * in a branch) and %11 is not live in block1 when %3's last reader
    * precedes it: neither block gets a copy.  Block1's %6 still does, %3
    * being live there.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      block0:
         %3:f32x16 = math_inv %2
         %11:f32x16 = math_inv %3
         %4:u32x16 = and %3:u32, 255:u32
         %12:u32x16 = and %11:u32, 255:u32
         %5:flagx16 = cmp.l %2, 0.0:f32
         (+%5) if
      block1:
         %6:u32x16 = add %4, %12
         else
      block2:
         %7:u32x16 = add %3:u32, 2:u32
      block3:
         endif
         %8:u32x16 = phi %6, %7
         %9:u32x16 = add %8, %3:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %4, %9 {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %5:flagx16 = cmp.l %2, 0.0:f32
         %3:f32x16 = math_inv %2
         %11:f32x16 = math_inv %3
         %12:u32x16 = and %11:u32, 255:u32
         %4:u32x16 = and %3:u32, 255:u32
         (+%5) if
      block1:
         %[[a]]:u32x16 = and %3:u32, 255:u32
         %6:u32x16 = add %[[a]], %12
         else
      block2:
         %7:u32x16 = add %3:u32, 2:u32
      block3:
         endif
         %8:u32x16 = phi %6, %7
         %9:u32x16 = add %8, %3:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %4, %9 {EOT}
   )"));
}

TEST_F(sched, preserved_values_are_not_rematerialized)
{
   /* The live mask of a shader that terminates: a NoMask zero, then ~0
    * in the channels still running, read after the halt target.  When
    * every channel has halted, the hardware skips block2 up to the halt
    * target; a copy of the zero there would be skipped too and the RT
    * write would read garbage, so the zero stays where it was written
    * before any jump.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      block0:
         %3:u32x16 = mov 0:u32 {WE_all}
         %4:flagx16 = cmp.l %2, 0.0:f32
         (+%4) if
      block1:
         (+%4) halt
      block2:
         endif
         %5:u32x16 = mov 0xffffffff:u32, preserve %3
         halt
         %6:flagx16 = cmp.nz %5, 0:u32
         %7:u32x16 = mov %2:u32
         (+%6) _ = send 6:u32, 0x02080017:u32, 0:u32, %7, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %4:flagx16 = cmp.l %2, 0.0:f32
         %3:u32x16 = mov 0:u32 {WE_all}
         (+%4) if
      block1:
         (+%4) halt
      block2:
         endif
         %5:u32x16 = mov 0xffffffff:u32, preserve %3
         halt
         %6:flagx16 = cmp.nz %5, 0:u32
         %7:u32x16 = mov %2:u32
         (+%6) _ = send 6:u32, 0x2080017:u32, 0:u32, %7, _ {EOT}
   )"));
}

TEST_F(sched, values_through_a_loop_are_recomputed_after_it)
{
   /* %5 (the pixel x + 0.5 of a WLR position and a conversion) and the
    * live mask's NoMask zero %7 are written before the loop and read only
    * after it: pressure first recomputes both at the top of the loop's
    * exit block, so they no longer hold 4 GRFs through the loop, and the
    * originals go.  %9 is read in the loop and stays (a math
    * instruction, not recomputed in the loop either).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      hw %1:u16x16@g1
      attr %2:f32x16
      uniform %3:u32x1[8]@g6
      wlr %4:u16x16
      block0:
         %4 = add(8) %1.8<2,4,0>, 0x10101010:v
         %4.16 = add(8+8) %1.16<2,4,0>, 0x10101010:v
         %6:f32x16 = mov %4
         %5:f32x16 = add %6, 0.5:f32
         %7:u32x16 = mov 0:u32 {WE_all}
         %9:f32x16 = math_inv %2
      block1:
         do
         %10:f32x16 = phi %2, %11
         %11:f32x16 = add %10, %9
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:u32x16 = mov 0xffffffff:u32, preserve %7
         %14:f32x16 = mul %11, %5
         %15:u32x16 = add %14:u32, %13
         _ = send 6:u32, 0x02080017:u32, 0:u32, %15, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %9:f32x16 = math_inv %2
      block1:
         do
         %10:f32x16 = phi %2, %11
         %11:f32x16 = add %10, %9
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %[[w]] = add(8) %1.8<2,4,0>, 0x10101010:v
         %[[w]].16 = add(8+8) %1.16<2,4,0>, 0x10101010:v
         %[[c]]:f32x16 = mov %[[w]]
         %[[h]]:f32x16 = add %[[c]], 0.5:f32
         %14:f32x16 = mul %11, %[[h]]
         %[[z]]:u32x16 = mov 0:u32 {WE_all}
         %13:u32x16 = mov 0xffffffff:u32, preserve %[[z]]
         %15:u32x16 = add %14:u32, %13
         _ = send 6:u32, 0x2080017:u32, 0:u32, %15, _ {EOT}
   )"));
}

TEST_F(sched, push_constants_read_after_a_loop_are_copied_before_it)
{
   /* The loop reads none of %3 (2 GRFs) and two of its dwords after it:
    * pressure first copies those into width-1 values in the block before
    * the loop (where the scheduler puts them first), so %3 dies there.
    * %4 is read in the loop and stays as it is.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      uniform %3:u32x1[16]@g6
      uniform %4:u32x1[8]@g8
      block0:
         %5:f32x16 = mul %2, %3[1]:f32
      block1:
         do
         %10:f32x16 = phi %5, %11
         %11:f32x16 = mad %10, %4:f32, %2
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:f32x16 = mul %11, %3[9]:f32
         %14:f32x16 = add %13, %3[12]:f32
         %15:f32x16 = mad %14, %3[9]:f32, %4[2]:f32
         %16:u32x16 = mov %15:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %16, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %[[a]]:u32x1 = mov %3[9] {WE_all}
         %[[b]]:u32x1 = mov %3[12] {WE_all}
         %5:f32x16 = mul %2, %3[1]:f32
      block1:
         do
         %10:f32x16 = phi %5, %11
         %11:f32x16 = mad %10, %4:f32, %2
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:f32x16 = mul %11, %[[a]]:f32
         %14:f32x16 = add %13, %[[b]]:f32
         %15:f32x16 = mad %14, %[[a]]:f32, %4[2]:f32
         %16:u32x16 = mov %15:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %16, _ {EOT}
   )"));
}

TEST_F(sched, wide_uniforms_read_after_a_loop_are_not_copied)
{
   /* A 64-bit width-1 value read after the loop by its low dword (through
    * a region) stays as it is: a u32 copy of it without the region is
    * invalid IR (random cs seeds 636 and 906 at SIMD32 with register
    * arrays).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      uniform %3:u32x1[16]@g6
      block0:
         %6:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %4:u64x1 = mov %6[1] {WE_all}
         %5:f32x16 = mul %2, %3[1]:f32
      block1:
         do
         %10:f32x16 = phi %5, %11
         %11:f32x16 = mad %10, %3:f32, %2
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:u32x1 = mov %4<0,1,0>:u32 {WE_all}
         %14:f32x16 = mul %11, %13:f32
         %16:u32x16 = mov %14:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %16, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %6:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %4:u64x1 = mov %6[1] {WE_all}
         %5:f32x16 = mul %2, %3[1]:f32
      block1:
         do
         %10:f32x16 = phi %5, %11
         %11:f32x16 = mad %10, %3:f32, %2
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:u32x1 = mov %4<0,1,0>:u32 {WE_all}
         %14:f32x16 = mul %11, %13:f32
         %16:u32x16 = mov %14:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %16, _ {EOT}
   )"));
}

TEST_F(sched, narrow_copies_the_dwords_read_of_loaded_blocks)
{
   /* The narrow mode copies the dwords read of the constant blocks %4
    * (1 and 5) and %8 (2) into width-1 values right after their loads,
    * so each block dies at its copies; %5, a message payload read whole,
    * stays.  The pressure mode leaves all three.
    */
   const char *in = R"(
      shader fs simd16
      attr %2:f32x16
      uniform %3:u32x1[8]@g6
      block0:
         %4:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %5:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %6:f32x16 = mul %2, %4[1]:f32
         %7:f32x16 = mad %6, %4[5]:f32, %4[1]:f32
         %8:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %5, _ {WE_all}
         %9:f32x16 = add %7, %8[2]:f32
         %10:u32x16 = mov %9:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
   )";
   EXPECT_TRUE(check_pass(in, "sched-pre-narrow,validate", R"(
      block0:
         %5:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %8:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %5, _ {WE_all}
         %[[c]]:u32x1 = mov %8[2] {WE_all}
         %4:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %[[a]]:u32x1 = mov %4[1] {WE_all}
         %[[b]]:u32x1 = mov %4[5] {WE_all}
         %6:f32x16 = mul %2, %[[a]]:f32
         %7:f32x16 = mad %6, %[[b]]:f32, %[[a]]:f32
         %9:f32x16 = add %7, %[[c]]:f32
         %10:u32x16 = mov %9:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
   EXPECT_TRUE(check_pass(in, "sched-pre-pressure,validate", R"(
      block0:
         %4:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %6:f32x16 = mul %2, %4[1]:f32
         %7:f32x16 = mad %6, %4[5]:f32, %4[1]:f32
         %5:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %8:u32x1[8] = send 10:u32, 0x218420b:u32, 0:u32, %5, _ {WE_all}
         %9:f32x16 = add %7, %8[2]:f32
         %10:u32x16 = mov %9:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST_F(sched, values_through_a_loop_stay_after_a_halt)
{
   /* A halt before the loop's exit may leave it with no channel
    * enabled, skipped with a copy there: %7 stays before the loop.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      attr %2:f32x16
      block0:
         %7:u32x16 = mov 0:u32 {WE_all}
         %8:flagx16 = cmp.l %2, 0.0:f32
         (+%8) halt
      block1:
         do
         %10:f32x16 = phi %2, %11
         %11:f32x16 = add %10, 1.0:f32
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:u32x16 = mov 0xffffffff:u32, preserve %7
         halt
         %14:flagx16 = cmp.nz %13, 0:u32
         %15:u32x16 = mov %11:u32
         (+%14) _ = send 6:u32, 0x02080017:u32, 0:u32, %15, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %8:flagx16 = cmp.l %2, 0.0:f32
         %7:u32x16 = mov 0:u32 {WE_all}
         (+%8) halt
      block1:
         do
         %10:f32x16 = phi %2, %11
         %11:f32x16 = add %10, 1.0:f32
         %12:flagx16 = cmp.l %11, 1.0:f32
         (+%12) break
      block2:
         while
      block3:
         %13:u32x16 = mov 0xffffffff:u32, preserve %7
         halt
         %14:flagx16 = cmp.nz %13, 0:u32
         %15:u32x16 = mov %11:u32
         (+%14) _ = send 6:u32, 0x2080017:u32, 0:u32, %15, _ {EOT}
   )"));
}

/* A discard's halt, with interpolation that only the code after it
 * reads: a thread whose channels all halt skips that code, and should
 * skip the interpolation with it.
 */
static const char *const work_after_a_discard = R"(
   shader fs simd8
   uniform %1:f32x1[16]@g6
   attr %2:f32x8[2]
   block0:
      %3:f32x8 = pln %1<0,4,1>:f32, %2
      %4:f32x8 = pln %1[4]<0,4,1>:f32, %2
      %5:f32x8 = pln %1[8]<0,4,1>:f32, %2
      %6:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %3, _
      %7:flagx8 = cmp.ge %6[3], 0.5:f32
      (+%7) halt
      %8:f32x8 = mul %6, %4
      %9:f32x8 = mad %8, %5, %6[1]
      halt
      %10:u32x8 = mov %9:u32
      _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
)";

static const char *const work_after_the_discard_goes_after_its_halt = R"(
   block0:
      %3:f32x8 = pln %1<0,4,1>, %2
      %6:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
      %7:flagx8 = cmp.ge %6[3], 0.5:f32
      (+%7) halt
      %4:f32x8 = pln %1[4]<0,4,1>, %2
      %5:f32x8 = pln %1[8]<0,4,1>, %2
      %8:f32x8 = mul %6, %4
      %9:f32x8 = mad %8, %5, %6[1]
      halt
      %10:u32x8 = mov %9:u32
      _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
)";

TEST_F(sched, latency_leaves_the_sampler_wait_before_a_halt_empty)
{
   /* The two plns would fill the sampler's wait before the compare;
    * they go after the halt instead, where the thread still runs.
    */
   EXPECT_TRUE(check_pass(work_after_a_discard, "sched-pre-latency,validate",
                          work_after_the_discard_goes_after_its_halt));
}

TEST_F(sched, pressure_places_work_after_a_discard_after_its_halt)
{
   EXPECT_TRUE(check_pass(work_after_a_discard, "sched-pre-pressure,validate",
                          work_after_the_discard_goes_after_its_halt));
}

TEST_F(sched, what_a_halt_leaves_unwritten_stays_before_it)
{
   /* Only %12, a NoMask scalar, goes after the halt.  %4 is a sampler
    * payload (the sampler reads the channels the halt turns off: their
    * coordinates give the derivatives), %5 is read after the halt target
    * (where the halted channels run again), %11 is the old value a
    * preserve keeps in them (where every channel halts, the thread jumps
    * to the target and reads it there), %13 is read through a region.
    * After the halt, everything but %14's send keeps its order: the
    * send goes first to the sampler.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      uniform %1:f32x1[16]@g6
      attr %2:f32x8[2]
      block0:
         %3:f32x8 = pln %1<0,4,1>:f32, %2
         %4:f32x8 = pln %1[4]<0,4,1>:f32, %2
         %5:f32x8 = pln %1[8]<0,4,1>:f32, %2
         %11:u32x8 = mov 0:u32 {WE_all}
         %12:f32x1 = mov 2.0:f32 {WE_all}
         %13:f32x8 = pln %1[12]<0,4,1>:f32, %2
         %6:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %3, _
         %7:flagx8 = cmp.ge %6[3], 0.5:f32
         (+%7) halt
         %14:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %4, _
         %8:f32x8 = mul %6, %12
         %15:f32x8 = mul %13<0,1,0>, %8
         %16:u32x8 = mov 0xffffffff:u32, preserve %11
         halt
         %9:f32x8 = mad %15, %5, %14
         %17:flagx8 = cmp.nz %16, 0:u32
         %10:u32x8 = mov %9:u32
         (+%17) _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
   )", "sched-pre-pressure,validate", R"(
      block0:
         %3:f32x8 = pln %1<0,4,1>, %2
         %4:f32x8 = pln %1[4]<0,4,1>, %2
         %5:f32x8 = pln %1[8]<0,4,1>, %2
         %13:f32x8 = pln %1[12]<0,4,1>, %2
         %6:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
         %7:flagx8 = cmp.ge %6[3], 0.5:f32
         %11:u32x8 = mov 0:u32 {WE_all}
         (+%7) halt
         %12:f32x1 = mov 2.0:f32 {WE_all}
         %8:f32x8 = mul %6, %12
         %15:f32x8 = mul %13<0,1,0>, %8
         %16:u32x8 = mov 0xffffffff:u32, preserve %11
         %14:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %4, _
         halt
         %9:f32x8 = mad %15, %5, %14
         %17:flagx8 = cmp.nz %16, 0:u32
         %10:u32x8 = mov %9:u32
         (+%17) _ = send 6:u32, 0x2080017:u32, 0:u32, %10, _ {EOT}
   )"));
}

/* A sampler payload read after a halt of whole quads (GLSL's discard):
 * the quads that stay run all their channels, so the halted ones' data
 * is read by no one and %4 goes after the halt.  After a halt of single
 * pixels the sampler still reads a halted pixel's coordinate for its
 * quad's derivatives: %4 stays before.
 */
static const char *const payload_after_a_halt = R"(
   shader fs simd8
   uniform %1:f32x1[16]@g6
   attr %2:f32x8[2]
   block0:
      %3:f32x8 = pln %1<0,4,1>:f32, %2
      %4:f32x8 = pln %1[4]<0,4,1>:f32, %2
      %6:f32x8[4] = send 2:u32, 0x02420000:u32, 0:u32, %3, _
      %7:flagx8 = cmp.ge %6[3], 0.5:f32
      (+%7) halt HALT
      %11:f32x8[2] = load_payload %4, %3
      %8:f32x8[4] = send 2:u32, 0x04440000:u32, 0:u32, %11, _
      halt
      %10:u32x8 = mov %8:u32
      _ = send 6:u32, 0x02080017:u32, 0:u32, %10, _ {EOT}
)";

static std::string
with_halt(const char *program, const char *halt)
{
   std::string p = program;
   p.replace(p.find("HALT"), 4, halt);
   return p;
}

TEST_F(sched, a_payload_follows_a_halt_of_whole_quads)
{
   EXPECT_TRUE(check_pass(with_halt(payload_after_a_halt, "{quad_all}"),
                          "sched-pre-latency,validate", R"(
      block0:
         %3:f32x8 = pln %1<0,4,1>, %2
         %6:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
         %7:flagx8 = cmp.ge %6[3], 0.5:f32
         (+%7) halt {quad_all}
         %4:f32x8 = pln %1[4]<0,4,1>, %2
         %11:f32x8[2] = load_payload %4, %3
   ...
   )"));
   EXPECT_TRUE(check_pass(with_halt(payload_after_a_halt, ""),
                          "sched-pre-latency,validate", R"(
      block0:
         %3:f32x8 = pln %1<0,4,1>, %2
         %4:f32x8 = pln %1[4]<0,4,1>, %2
         %6:f32x8[4] = send 2:u32, 0x2420000:u32, 0:u32, %3, _
         %7:flagx8 = cmp.ge %6[3], 0.5:f32
         (+%7) halt
   ...
   )"));
}

TEST_F(sched, simd16_pieces_follow_a_halt_when_read_channel_by_channel)
{
   /* SIMD32 interpolation is written in SIMD16 pieces.  %4's reader
    * takes each channel from itself: both pieces go after the halt.
    * %8's readers swap the halves (channel 0 reads channel 16): a
    * halted channel's half would be read by a running one, so %8 stays.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32
      hw %0:f32x8[4]@g3
      hw %1:f32x8[4]@g7
      uniform %2:u32x1[16]@g13
      wlr %3:f32x32
      wlr %4:f32x32
      wlr %8:f32x32
      block0:
         %3 = pln(16) %2:f32, %0
         %3.64 = pln(16+16) %2:f32, %1
         %4 = pln(16) %2[4]:f32, %0
         %4.64 = pln(16+16) %2[4]:f32, %1
         %8 = pln(16) %2[8]:f32, %0
         %8.64 = pln(16+16) %2[8]:f32, %1
         %5:flagx32 = cmp.ge %3, 0.5:f32
         (+%5) halt
         %6:f32x32 = mul %4, 2.0:f32
         %9:f32x16 = mul(16) %8.64, 2.0:f32
         %10:f32x16+16 = mul(16+16) %8, 2.0:f32
         halt
         %7:u32x32 = mov %6:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %7, %9 {EOT}
   )", "sched-pre-latency,validate", R"(
      block0:
         %3 = pln(16) %2:f32, %0
         %3.64 = pln(16+16) %2:f32, %1
         %8 = pln(16) %2[8]:f32, %0
         %8.64 = pln(16+16) %2[8]:f32, %1
         %5:flagx32 = cmp.ge %3, 0.5:f32
         (+%5) halt
         %4 = pln(16) %2[4]:f32, %0
         %4.64 = pln(16+16) %2[4]:f32, %1
         %9:f32x16 = mul %8.64, 2.0:f32
         %10:f32x16+16 = mul %8, 2.0:f32
         %6:f32x32 = mul %4, 2.0:f32
         halt
         %7:u32x32 = mov %6:u32
         _ = send 6:u32, 0x2080017:u32, 0:u32, %7, %9 {EOT}
   )"));
}

TEST_F(sched, post_ra_hides_send_latency)
{
   /* The sampler result in g20-g23 is read right after the send; the
    * independent adds move into the wait.  The add writing g2 (the
    * payload) stays after the send, and the one writing g21 (part of the
    * result) after the read of g21.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8 allocated
      attr %1:f32x8@g2
      attr %2:f32x8@g3
      block0:
         %3:f32x8[4]@g20 = send 2:u32, 0x02420000:u32, 0:u32, %1, _
         %4:f32x8@g30 = add %3[1], 1.0:f32
         %5:f32x8@g31 = mul %2, %2
         %6:f32x8@g32 = mul %2, 3.0:f32
         %7:f32x8@g21 = add %2, 4.0:f32
         %8:f32x8@g2 = add %2, 5.0:f32
         %9:f32x8@g33 = add %4, %7
   )", "sched-post", R"(
      block0:
         %3:f32x8[4]@g20 = send 2:u32, 0x2420000:u32, 0:u32, %1, _
         %5:f32x8@g31 = mul %2, %2
         %6:f32x8@g32 = mul %2, 3.0:f32
         %8:f32x8@g2 = add %2, 5.0:f32
         %4:f32x8@g30 = add %3[1], 1.0:f32
         %7:f32x8@g21 = add %2, 4.0:f32
         %9:f32x8@g33 = add %4, %7
   )"));
}

TEST_F(sched, region_reorderable_counts_what_lies_between_phis_and_jump)
{
   /* block0: two instructions before the if; block1: one before the
    * else; block2: one; block3: the endif, a phi and two more.
    */
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      attr %2:f32x16
      block0:
         %3:f32x16 = math_inv %2
         %5:flagx16 = cmp.l %2, 0.0:f32
         (+%5) if
      block1:
         %6:u32x16 = add %3:u32, 1:u32
         else
      block2:
         %7:u32x16 = add %3:u32, 2:u32
      block3:
         endif
         %8:u32x16 = phi %6, %7
         %9:u32x16 = add %8, %3:u32
         _ = send 6:u32, 0x02080017:u32, 0:u32, %9, _ {EOT}
   )"));
   std::vector<bool> got;
   for (const auto &b : s->blocks())
      got.push_back(sched_region_reorderable(b.get()));
   EXPECT_EQ(got, (std::vector<bool>{true, false, false, true}));
   for (const auto &b : s->blocks())
      EXPECT_EQ(sched_region_reorderable(b.get()),
                build_sched_dag(b.get(), false, device_by_name("skl")).nodes.size() >= 2);
}

TEST_F(sched, post_ra_returns_the_estimate_of_the_program_it_leaves)
{
   /* Code generation takes the stats line's cycles from it: they are
    * those of the reordered program (the send's wait filled), and of the
    * program as it was where nothing moves.
    */
   const device_info &dev = device_by_name("skl");
   auto s = parse_shader(dedent(R"(
      shader fs simd8 allocated
      attr %1:f32x8@g2
      attr %2:f32x8@g3
      block0:
         %3:f32x8[4]@g20 = send 2:u32, 0x02420000:u32, 0:u32, %1, _
         %4:f32x8@g30 = add %3[1], 1.0:f32
         %5:f32x8@g31 = mul %2, %2
         %6:f32x8@g32 = mul %2, 3.0:f32
   )"));
   const unsigned before = estimate_cycles(*s, dev);
   const unsigned cycles = schedule_post_ra(*s, dev);
   EXPECT_EQ(cycles, estimate_cycles(*s, dev));
   EXPECT_LT(cycles, before);
   /* Already in its best order. */
   EXPECT_EQ(schedule_post_ra(*s, dev), cycles);
   EXPECT_EQ(estimate_cycles(*s, dev), cycles);
}

TEST_F(sched, post_ra_wlr_piece_stays_after_the_range_it_reuses)
{
   /* nexuiz/49 at SIMD32: %46 (g41-g44) is written in two SIMD16 pieces
    * after the last read of g41-g42, which the send's result %131
    * (g37-g42) occupied.  The second piece writes only g43-g44, but a WLR
    * value owns its whole range from its first write (ibis_liveness.cpp,
    * the RA validator): neither piece may rise above the send or the read
    * of %131[2].  %47 (g49-g52) shares nothing and fills the send's wait.
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered allocated
      hw %0:f32x8[4]@g3
      hw %1:f32x8[4]@g7
      uniform %2:u32x1[64]@g13
      wlr %46:f32x32@g41
      wlr %47:f32x32@g49
      block0:
         %131:f32x16[3]@g37 = send 2:u32, 0x8640405:u32, 0:u32, %0, _
         %151:f32x32@g61 = load_payload %131[2], %131[2]
         %46 = pln(16) %2[32]:f32, %0
         %46.64 = pln(16+16) %2[32]:f32, %1
         %47 = pln(16) %2[36]:f32, %0
         %47.64 = pln(16+16) %2[36]:f32, %1
         %51:f32x32@g29 = mad %47, %151, %46
   )", "sched-post,validate-ra", R"(
      block0:
         %131:f32x16[3]@g37 = send 2:u32, 0x8640405:u32, 0:u32, %0, _
         %47 = pln(16) %2[36]:f32, %0
         %47.64 = pln(16+16) %2[36]:f32, %1
         %151:f32x32@g61 = load_payload %131[2], %131[2]
         %46 = pln(16) %2[32]:f32, %0
         %46.64 = pln(16+16) %2[32]:f32, %1
         %51:f32x32@g29 = mad %47, %151, %46
   )"));
}

TEST_F(sched, post_ra_pseudo_op_writes_its_whole_destination)
{
   /* mov_indirect expands into one move per component: %4[1] (g41) is
    * written too, so the add that heads the long math chain stays behind
    * it (reading only g40 would let it go first).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8 lowered allocated
      uniform %1:u32x1[8]@g6
      hw %2:u32x8@g30
      block0:
         %4:u32x8[2]@g40 = mov_indirect %1, %2, 32:u32
         %5:f32x8@g44 = add %4[1]:f32, 1.0:f32
         %6:f32x8@g45 = math_inv %5
         %7:f32x8@g46 = math_inv %6
         %8:f32x8@g47 = math_inv %7
   )", "sched-post,validate-ra", R"(
      block0:
         %4:u32x8[2]@g40 = mov_indirect %1, %2, 32:u32
         %5:f32x8@g44 = add %4[1]:f32, 1.0:f32
         %6:f32x8@g45 = math_inv %5
         %7:f32x8@g46 = math_inv %6
         %8:f32x8@g47 = math_inv %7
   )"));
}

TEST_F(sched, pre_ra_refuses_allocated_ir)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8 allocated
      attr %1:f32x8@g2
      block0:
         %2:f32x8@g4 = add %1, 1.0:f32
   )"));
   EXPECT_THROW(schedule_pre_ra(*s, device_by_name("skl"), sched_mode::pressure),
                error);
   auto u = parse_shader(dedent(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 1.0:f32
   )"));
   EXPECT_THROW(schedule_post_ra(*u, device_by_name("skl")), error);
}

TEST_F(sched, post_ra_flag_of_upper_channels_overlaps_the_second_half)
{
   /* random fs seed 5063 at SIMD32: %3, the flag of channels 16-31 named
    * f0.0, is the upper half of f0, which the NoMask cmp's dead flag
    * f0.1 writes too: the cmp, head of a long math chain, stays behind
    * the sel that reads %3 (the adds fill the wait for the flag).
    */
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered allocated
      hw %1:s32x16+16@g4
      uniform %2:f32x1[8]@g10
      block0:
         %3:flagx16+16@f0.0 = cmp.ge %1, 5:s32
         (-%3) %6:u32x16+16@g20 = sel %1:u32, 0:u32
         %10:f32x16+16@g30 = add %1:f32, 1.0:f32
         %11:f32x16+16@g32 = add %1:f32, 2.0:f32
         %12:f32x16+16@g34 = add %1:f32, 3.0:f32
         %4:u32x1@g11, %5:flagx1@f0.1 = cmp.ge %2, %2[1] {WE_all}
         %7:f32x1@g12 = math_inv %4:f32 {WE_all}
         %8:f32x1@g12.4 = math_inv %7 {WE_all}
         %9:f32x1@g12.8 = math_inv %8 {WE_all}
   )", "sched-post,validate-ra", R"(
      block0:
         %3:flagx16+16@f0.0 = cmp.ge %1, 5:s32
         %10:f32x16+16@g30 = add %1:f32, 1.0:f32
         %11:f32x16+16@g32 = add %1:f32, 2.0:f32
         %12:f32x16+16@g34 = add %1:f32, 3.0:f32
         (-%3) %6:u32x16+16@g20 = sel %1:u32, 0:u32
         %4:u32x1@g11, %5:flagx1@f0.1 = cmp.ge %2, %2[1] {WE_all}
         %7:f32x1@g12 = math_inv %4:f32 {WE_all}
         %8:f32x1@g12.4 = math_inv %7 {WE_all}
         %9:f32x1@g12.8 = math_inv %8 {WE_all}
   )"));
}

/* The graph of allocated IR follows register bytes, one GRF at a time as
 * byte masks: writes of other bytes of the same register are
 * independent, a write spanning two registers depends on the last writer
 * of each byte it covers, and an overwrite clears what came before.
 */
TEST_F(sched, post_ra_graph_follows_the_bytes_of_each_register)
{
   std::unique_ptr<shader> s = parse_shader(dedent(R"(
      shader fs simd8 lowered allocated
      block0:
         %2:u32x1@g10 = mov 1:u32 {WE_all}
         %3:u32x1@g10.4 = mov 2:u32 {WE_all}
         %4:u32x1@g11 = add %2, 7:u32 {WE_all}
         %5:u32x1@g10 = mov 3:u32 {WE_all}
         %6:u32x8@g9.16 = mov 5:u32
         %7:u32x1@g12 = mov %3 {WE_all}
   )"));
   sched_dag dag = build_sched_dag(s->blocks()[0].get(), true, device_by_name("skl"));
   std::string preds;
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      preds += std::to_string(n) + ":";
      for (const sched_edge &e : dag.preds(n))
         preds += " " + std::to_string(e.node);
      preds += "\n";
   }
   /* 1 writes other bytes than 0; 3 overwrites 0's bytes after 2 read
    * them; 4 covers g9.16-g10.15, whose g10 bytes 3 and 1 wrote last
    * (not 0 or 2: 3 overwrote them); 5 reads bytes 4 wrote last.
    */
   EXPECT_EQ(preds, "0:\n1:\n2: 0\n3: 0 2\n4: 1 3\n5: 4\n");
   /* Successors mirror the predecessors, each list by increasing node. */
   std::string succs;
   for (unsigned n = 0; n < dag.nodes.size(); n++) {
      succs += std::to_string(n) + ":";
      for (const sched_edge &e : dag.succs(n))
         succs += " " + std::to_string(e.node);
      succs += "\n";
   }
   EXPECT_EQ(succs, "0: 2 3\n1: 4\n2: 3\n3: 4\n4: 5\n5:\n");
}

/* The schedulers build every block's graph into one graph and scratch
 * that a thread keeps between programs: a graph built after another,
 * larger one (more nodes, other registers and values) is the graph built
 * afresh.
 */
TEST_F(sched, graph_built_into_a_used_graph_is_the_fresh_graph)
{
   auto edges = [](const sched_dag &dag) {
      std::string out;
      for (unsigned n = 0; n < dag.nodes.size(); n++) {
         out += std::to_string(n) + ":";
         for (const sched_edge &e : dag.preds(n))
            out += " " + std::to_string(e.node) + "/" + std::to_string(e.latency);
         out += " ->";
         for (const sched_edge &e : dag.succs(n))
            out += " " + std::to_string(e.node);
         out += " path " + std::to_string(dag.nodes[n].path) + "\n";
      }
      return out;
   };
   const device_info &dev = device_by_name("skl");
   std::unique_ptr<shader> big = parse_shader(dedent(R"(
      shader fs simd8 lowered allocated
      block0:
         %2:u32x1@g20 = mov 1:u32 {WE_all}
         %3:u32x1@g20.4 = mov 2:u32 {WE_all}
         %4:u32x1@g21 = add %2, 7:u32 {WE_all}
         %5:u32x1@g20 = mov 3:u32 {WE_all}
         %6:u32x8@g19.16 = mov 5:u32
         %7:u32x1@g22 = mov %3 {WE_all}
         %8:u32x8@g10 = mov 6:u32
         %9:u32x8@g11 = add %8, %6
   )"));
   std::unique_ptr<shader> small = parse_shader(dedent(R"(
      shader fs simd8 lowered allocated
      block0:
         %2:u32x1@g10 = mov 1:u32 {WE_all}
         %3:u32x1@g10.4 = mov 2:u32 {WE_all}
         %4:u32x1@g11 = add %2, 7:u32 {WE_all}
         %5:u32x1@g10 = mov 3:u32 {WE_all}
   )"));
   const std::string fresh = edges(build_sched_dag(small->blocks()[0].get(), true, dev));
   sched_dag_scratch scratch;
   sched_dag dag;
   build_sched_dag(big->blocks()[0].get(), true, dev, scratch, dag);
   ASSERT_EQ(dag.nodes.size(), 8u);
   build_sched_dag(small->blocks()[0].get(), true, dev, scratch, dag);
   EXPECT_EQ(dag.blk, small->blocks()[0].get());
   EXPECT_EQ(edges(dag), fresh);
   /* The edges of the graph above (its first four instructions). */
   EXPECT_EQ(fresh, "0: -> 2 3 path 20\n1: -> path 10\n2: 0/10 -> 3 path 10\n"
                    "3: 0/0 2/0 -> path 10\n");
}
