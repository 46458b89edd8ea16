/*
 * Spilling (docs/ra.md, "Spilling"): phi classes moved to scratch whole,
 * several spills per round, SIMD32 values, and a clean failure where no
 * spill can help.  ra_options::reserve_grfs takes most of the register
 * file so that small programs must spill.
 */
#include <gtest/gtest.h>

#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"
#include "ra/ra.h"
#include "ra/ra_internal.h"
#include "util/ibis_error.h"

namespace {

/* Allocates text with reserve GRFs taken; the printed result in *out. */
ibis::ra_result
allocate(const std::string &text, unsigned reserve, std::string *out)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(text));
   ibis::ra_options o;
   o.reserve_grfs = reserve;
   ibis::ra_result r = ibis::allocate_registers(*s, ibis::device_by_name("skl"), o);
   *out = s->str();
   return r;
}

/* n phis at the endif of an if/else, each branch writing all n values,
 * their sum written out; g112-g127 are taken by %2 so that only the
 * registers below the reservation are free.
 */
std::string
phis_at_join(unsigned n)
{
   std::string t = "shader fs simd8\nhw %0:f32x8@g2\nhw %2:u32x8[16]@g112\n"
                   "block0:\n   %1:flagx8 = cmp.nz %0, 0.0:f32\n   (+%1) if\n"
                   "block1:\n";
   for (unsigned i = 0; i < n; i++)
      t += ibis::strfmt("   %%%u:f32x8 = add %%0, %u.0:f32\n", 10 + i, i);
   t += "   else\nblock2:\n";
   for (unsigned i = 0; i < n; i++)
      t += ibis::strfmt("   %%%u:f32x8 = mul %%0, %u.0:f32\n", 30 + i, i);
   t += "block3:\n   endif\n";
   for (unsigned i = 0; i < n; i++)
      t += ibis::strfmt("   %%%u:f32x8 = phi %%%u, %%%u\n", 50 + i, 10 + i, 30 + i);
   std::string sum = "%50";
   for (unsigned i = 1; i < n; i++) {
      t += ibis::strfmt("   %%%u:f32x8 = add %s, %%%u\n", 70 + i, sum.c_str(), 50 + i);
      sum = ibis::strfmt("%%%u", 70 + i);
   }
   t += "   untyped_write_logical 0:u32, " + sum + ", " + sum + ", 1:u32\n";
   t += "   nop %2 {WE_all}\n";
   return t;
}

} /* anonymous namespace */

/* Five phis at one join with four free registers (g0, g1, g3, g4; g0
 * then holds the scratch header): the edge copies define all five class
 * values at once, so no spilling of ordinary values fits them and a phi
 * class goes to scratch whole.  Its edge copies run with the mask, so
 * each edge is a read-modify-write of the slot: a NoMask fill, the
 * masked copy over it (tied, a preserve write) and a NoMask store; the
 * phi's copy after the endif becomes a fill.  Before, allocation failed
 * with "nothing left to spill" (phi class members were unspillable).
 */
TEST(ra_spill, phi_class_spills_whole_with_masked_edge_stores)
{
   std::string out;
   ibis::ra_result r = allocate(phis_at_join(5), 107, &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_GT(r.spills, 0u);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
      block1:         ; preds: block0 succs: block3
      ...
         %[[f]]:f32x8@g[[r]] = send 10:u32, [[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
      ...
         %[[m]]:f32x8@g[[r]] = copy %[[_]], preserve %[[f]]
         %[[h]]:u32x8@g[[_]] = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[d]]:u32, 64:u32, %[[h]], %[[m]] {WE_all, side_effects, spill}
      ...
      block2:         ; preds: block0 succs: block3
      ...
         %[[f2]]:f32x8@g[[r2]] = send 10:u32, [[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
      ...
         %[[m2]]:f32x8@g[[r2]] = copy %[[_]], preserve %[[f2]]
         %[[h2]]:u32x8@g[[_]] = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[d]]:u32, 64:u32, %[[h2]], %[[m2]] {WE_all, side_effects, spill}
      ...
      block3:         ; preds: block1 block2
         endif
      ...
         %[[_]]:f32x8@g[[_]] = send 10:u32, [[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
      ...
   )", out), "") << out;
}

/* With one register fewer the RMW of an edge (header, fill, source)
 * no longer fits: allocation fails cleanly, without spilling the fills
 * and stores again (their ranges are already minimal) until the scratch
 * space runs out.
 */
TEST(ra_spill, minimal_ranges_are_not_spilled_again)
{
   std::string out;
   ibis::ra_result r = allocate(phis_at_join(5), 108, &out);
   EXPECT_FALSE(r.success);
   EXPECT_NE(r.failure.find("nothing left to spill"), std::string::npos) << r.failure;
}

/* 200 SIMD8 values live at once, far over the 128 GRFs: one pressure
 * pass spills enough of them before the first coloring, instead of one
 * value per coloring (over 70 rounds).
 */
TEST(ra_spill, several_spills_per_round)
{
   std::string text = "shader fs simd8\nhw %0:f32x8@g2\nblock0:\n";
   for (unsigned i = 1; i <= 200; i++)
      text += ibis::strfmt("   %%%u:f32x8 = add %%0, %u.0:f32\n", i, i);
   std::string sum = "%1";
   for (unsigned i = 2; i <= 200; i++) {
      text += ibis::strfmt("   %%%u:f32x8 = add %s, %%%u\n", 1000 + i,
                           sum.c_str(), i);
      sum = ibis::strfmt("%%%u", 1000 + i);
   }
   text += "   untyped_write_logical 0:u32, " + sum + ", " + sum + ", 1:u32\n";
   std::string out;
   ibis::ra_result r = allocate(text, 0, &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_GE(r.spills, 72u);
   EXPECT_LE(r.spill_rounds, 3u);
}

/* A SIMD32 value of four registers spills and fills as one 4-GRF
 * scratch block message (block size 2 = log2 4 in the descriptor,
 * 0x20e2xxx / 0x24c2xxx; the store's 4 data registers in the extended
 * descriptor, 256).
 */
TEST(ra_spill, simd32_value_spills_as_one_block)
{
   std::string text = "shader fs simd32\nhw %0:f32x32@g2\nblock0:\n";
   for (unsigned i = 1; i <= 40; i++)
      text += ibis::strfmt("   %%%u:f32x32 = add %%0, %u.0:f32\n", i, i);
   std::string sum = "%1";
   for (unsigned i = 2; i <= 40; i++) {
      text += ibis::strfmt("   %%%u:f32x32 = add %s, %%%u\n", 1000 + i,
                           sum.c_str(), i);
      sum = ibis::strfmt("%%%u", 1000 + i);
   }
   text += "   untyped_write_logical 0:u32, " + sum + ", " + sum + ", 1:u32\n";
   std::string out;
   ibis::ra_result r = allocate(text, 0, &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_GT(r.spills, 0u);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
         %[[v]]:f32x32@g[[_]] = add %0, [[_]].0:f32
         %[[h]]:u32x8@g[[_]] = mov %[[g0]] {WE_all}
         _ = send(8) 10:u32, 0x20e2[[_]]:u32, 256:u32, %[[h]], %[[v]] {WE_all, side_effects, spill}
      ...
         %[[f]]:f32x32@g[[_]] = send(8) 10:u32, 0x24c2[[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
      ...
   )", out), "") << out;
}

/* Both edges of a SIMD-local phi bring spilled values: the fills before
 * the edge copies run NoMask, so read directly they would make the phi
 * look SIMD-global and its copies write every channel (the else-side's
 * garbage over the then-side's channels).  Each fill reaches its
 * parallel copy through a masked copy, and the phi stays SIMD-local.
 */
TEST(ra_spill, phi_edge_fill_goes_through_a_masked_copy)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %3:f32x8 = add %0, 1.0:f32
         %4:f32x8 = mul %0, 2.0:f32
         %1:flagx8 = cmp.nz %0, 0.0:f32
         (+%1) if
      block1:
         %5:f32x8 = add %0, 3.0:f32
         else
      block2:
         %6:f32x8 = add %0, 4.0:f32
      block3:
         endif
         %7:f32x8 = phi %3, %4
         untyped_write_logical 0:u32, %7, %5, 1:u32
   )"));
   ibis::ra_insert_phi_copies(*s);
   ibis::ra_result res;
   ibis::ra_spill_values(*s, ibis::device_by_name("skl"),
                         {s->find_value(3), s->find_value(4)}, res);
   const ibis::instr *phi = nullptr;
   for (const auto &b : s->blocks())
      for (const ibis::instr *in : b->instrs())
         if (in->is_phi())
            phi = in;
   ASSERT_NE(phi, nullptr);
   EXPECT_FALSE(ibis::ra_phi_is_simd_global(phi)) << s->str();
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
      block1:         ; preds: block0 succs: block3
         %5:f32x8 = add %0, 3.0:f32
      ...
         %[[f]]:f32x8 = send 10:u32, [[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
         %[[m]]:f32x8 = copy %[[f]]
         %[[t]]:f32x8 = parallel_copy %[[m]]
         else
      ...
   )", s->str()), "") << s->str();
}

/* A WLR value read by its own writes (a scan adds earlier pieces into
 * later ones) is stored after its last write, and only readers after
 * the store fill: the last write itself reads the register, not the
 * slot it has not written yet (random cs seed 118 at SIMD32 with 100
 * GRFs reserved read a garbage fill there).
 */
TEST(ra_spill, wlr_read_by_its_own_writes_is_not_filled_there)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8
      hw %0:u32x8@g2
      wlr %1:u32x8
      block0:
         %1 = mov %0 {WE_all}
         %1.16<1> = add(4) %1<4,4,1>, %1.16<4,4,1> {WE_all}
         %2:u32x8 = add %0, 1:u32
         untyped_write_logical 0:u32, %1, %2, 1:u32
   )"));
   ibis::ra_result res;
   ibis::ra_spill_values(*s, ibis::device_by_name("skl"), {s->find_value(1)}, res);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      block0:
         %1 = mov %0 {WE_all}
         %1.16<1> = add(4) %1<4,4,1>, %1.16<4,4,1> {WE_all}
         %[[h]]:u32x8 = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[_]]:u32, 64:u32, %[[h]], %1 {WE_all, side_effects, spill}
         %2:u32x8 = add %0, 1:u32
         %[[h2]]:u32x8 = mov %[[g0]] {WE_all}
         %[[f]]:u32x8 = send 10:u32, [[_]]:u32, 0:u32, %[[h2]], _ {WE_all, fill}
         untyped_write_logical 0:u32, %[[f]], %2, 1:u32
   )", s->str()), "") << s->str();
}

/* A WLR value written before and after an instruction that alone
 * needs more than the free registers: spilling it stores it after its
 * last write, and it still holds its register between its writes, so
 * spilling it again only stores it again.  The allocator runs out of
 * things to spill instead of storing it in every round until the 64th
 * (random fs seed 5 and 14 other SIMD32 variants with 100 GRFs
 * reserved ended "after 64 rounds", storing the same values each round).
 */
TEST(ra_spill, spilled_value_is_not_spilled_again)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:u32x8@g2
      hw %2:u32x8[16]@g112
      wlr %1:u32x8
      block0:
         %1 = mov %0 {WE_all}
         %4:u32x8[4] = load_payload %0, %0, %0, %0
         _ = send 10:u32, 0x8080000:u32, 0:u32, %4, _ {side_effects}
         %1.16<1> = add(4) %0<4,4,1>, %0.16<4,4,1> {WE_all}
         untyped_write_logical 0:u32, %0, %1, 1:u32
         nop %2 {WE_all}
   )", 108, &out);
   EXPECT_FALSE(r.success);
   EXPECT_NE(r.failure.find("nothing left to spill"), std::string::npos) << r.failure;
   EXPECT_LE(r.spill_rounds, 1u);
}

/* A reader of one component of a spilled vector fills that component
 * (one register at the component's scratch offset, 64 bytes: 0x21c0002)
 * and reads it at offset 0; a reader of the whole vector fills all four
 * registers.  Before, each fill brought the whole vector: a SIMD32
 * load_payload of four vectors' fourth components needed 64 GRFs of
 * fills (nexuiz/16, 22, 25 ... .fs at SIMD32 with 96 GRFs reserved:
 * "nothing left to spill").
 */
TEST(ra_spill, reader_of_one_component_fills_that_component)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8[4] = load_payload %0, %0, %0, %0
         %2:f32x8 = add %1[2], 1.0:f32
         untyped_write_logical 0:u32, %2, %1, 4:u32
   )"));
   ibis::ra_result res;
   ibis::ra_spill_values(*s, ibis::device_by_name("skl"), {s->find_value(1)}, res);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
         %[[f]]:f32x8 = send 10:u32, 0x21c0002:u32, 0:u32, %[[_]], _ {WE_all, fill}
         %2:f32x8 = add %[[f]], 1.0:f32
         %[[_]]:u32x8 = mov %[[_]] {WE_all}
         %[[w]]:f32x8[4] = send 10:u32, 0x[[_]]:u32, 0:u32, %[[_]], _ {WE_all, fill}
         untyped_write_logical 0:u32, %2, %[[w]], 4:u32
   )", s->str()), "") << s->str();
}
