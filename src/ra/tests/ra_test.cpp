/*
 * Register allocation, inline: lowered IR in, allocated IR out.  Every
 * allocation the "ra" pass makes is also checked by validate_allocation()
 * (debug builds), and the validator has tests of its own that break
 * allocations by hand.
 */
#include <algorithm>

#include <gtest/gtest.h>

#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "ir/testing/ibis_check.h"
#include "ra/ra.h"
#include "ra/ra_internal.h"
#include "util/ibis_error.h"

using ibis::testing::check_pass;

namespace {

struct ra_test : ::testing::Test {
   void SetUp() override { ibis::register_ra_passes(); }
};

/* Allocates text and returns the result with the shader printed. */
ibis::ra_result
allocate(const std::string &text, std::string *out, bool spill = true)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(text));
   ibis::ra_options o;
   o.allow_spilling = spill;
   ibis::ra_result r = ibis::allocate_registers(*s, ibis::device_by_name("skl"), o);
   *out = s->str();
   return r;
}

/* text with its "@@" replaced by s. */
std::string
fill(std::string text, const std::string &s)
{
   size_t at = text.find("@@");
   return text.replace(at, 2, s);
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

/* A graph made by hand over nodes, without edges: one block, every node
 * live over one instruction at cost 1, none read by an EOT send.
 */
ibis::ra_graph
hand_graph(const ibis::shader &s, std::vector<ibis::value *> nodes)
{
   ibis::ra_graph g;
   g.nodes = std::move(nodes);
   const unsigned n = g.nodes.size();
   g.node_of.assign(s.value_id_bound(), -1);
   for (unsigned i = 0; i < n; i++)
      g.node_of[g.nodes[i]->id] = int(i);
   g.adj = ibis::ra_lists(n);
   g.channel_adj = ibis::ra_lists(n);
   g.start.assign(n, 0);
   g.end.assign(n, 1);
   g.cost.assign(n, 1);
   g.eot.assign(n, false);
   g.block_weight = {1};
   return g;
}

} /* anonymous namespace */

/* i965-scalar-ssa.txt: a (before the if, read in the else) and b
 * (written in the then-block) are SIMD-local with one layout and never
 * live together in SSA terms, so they share a register; the phi needs no
 * copy, both branches write its register.
 */
TEST_F(ra_test, then_else_values_share_a_register)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = mov 0.5:f32
         %4:f32x8 = add %3, %0
         else
      block2:
         %5:f32x8 = add %1, %0
      block3:
         endif
         %6:f32x8 = phi %4, %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", "ra", R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g[[a]] = mov 1.0:f32
         %2:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8@g[[a]] = mov 0.5:f32
         %[[p]]:f32x8@g[[r]] = add %3, %0
         else
      block2:
         %[[p]] = add %1, %0
      block3:
         endif
         untyped_write_logical 0:u32, %[[p]], %[[p]], 1:u32
   )"));
}

/* The counter-example: b written with NoMask clobbers a's channels of
 * the else-branch, so they must not share.
 */
TEST_F(ra_test, nomask_write_does_not_share)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = mov 0.5:f32 {WE_all}
         %4:f32x8 = add %3, %0
         else
      block2:
         %5:f32x8 = add %1, %0
      block3:
         endif
         %6:f32x8 = phi %4, %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
         %1:f32x8@g[[a]] = mov 1.0:f32
      ...
         %3:f32x8@g[[b]] = mov 0.5:f32 {WE_all}
      ...
   )", out), "");
   auto s = ibis::parse_shader(out);
   const ibis::value *a = s->find_value(1), *b = s->find_value(3);
   EXPECT_NE(a->phys.nr, b->phys.nr);
}

/* A phi that reads an attribute register directly: the copy on the then
 * side runs with the branch's channels.  A NoMask copy there overwrote
 * the else side's channels of the phi web (random vs seed 40).
 */
TEST_F(ra_test, phi_copy_of_an_attribute_keeps_the_branch_mask)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader vs simd8
      attr %0:f32x8[2]@g4
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         else
      block2:
         %5:f32x8 = add %1, %0
      block3:
         endif
         %6:f32x8 = phi %0[1], %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   unsigned copies = 0;
   for (const auto &b : s->blocks()) {
      for (const ibis::instr *in : b->instrs()) {
         if (in->num_srcs() && in->src(0).val == s->find_value(0) &&
             (in->op == ibis::opcode::mov || in->op == ibis::opcode::copy)) {
            copies++;
            EXPECT_FALSE(in->we_all()) << in->str();
         }
      }
   }
   EXPECT_EQ(copies, 1u) << out;
}

/* Channels that break out of the loop keep %3 while the others run more
 * iterations, so the NoMask write of %5 at the top of the loop must not
 * land on it even though %5 comes first in program order; the masked %6
 * of the continuing channels may.
 */
TEST_F(ra_test, value_carried_out_of_a_loop_meets_no_nomask_write)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 0.0:f32
      block1:
         do
         %2:f32x8 = phi %1, %6
         %5:f32x8 = mov 7.0:f32 {WE_all}
         %3:f32x8 = add %2, %5
         %4:flagx8 = cmp.g %3, %0
         (+%4) break
      block2:
         %6:f32x8 = add %2, 1.0:f32
         while
      block3:
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(ibis::testing::match_ir(R"(
      block1:
         do
         %5:f32x8@g[[b]] = mov 7.0:f32 {WE_all}
         %3:f32x8@g[[a]] = add %[[p]], %5
         %4:flagx8@f0.0 = cmp.g %3, %0
         (+%4) break
      block2:
         %[[p]] = add %[[p]], 1.0:f32
         while
      ...
   )", out), "");
   auto s = ibis::parse_shader(out);
   EXPECT_NE(s->find_value(5)->phys.nr, s->find_value(3)->phys.nr);
}

/* A WLR value is one value over its write sequence: one register block,
 * written twice, read after.
 */
TEST_F(ra_test, wlr_value_is_one_block)
{
   EXPECT_TRUE(check_pass(R"(
      shader cs simd16
      wlr %1:u16x16
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %2:u32x16 = mov %1
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )", "ra", R"(
      shader cs simd16 allocated
      wlr %1:u16x16@g[[w]]
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %2:u32x16@g[[d]] = mov %1
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )"));
}

/* The hybrid graph has fewer edges than an interval-only one: the
 * then/else pair shares no edge.
 */
TEST_F(ra_test, hybrid_graph_has_fewer_edges_than_intervals)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = mov 0.5:f32
         %4:f32x8 = add %3, %0
         else
      block2:
         %5:f32x8 = add %1, %0
      block3:
         endif
         %6:f32x8 = phi %4, %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_LT(r.edges, r.interval_edges);
}

/* Two loop phis that trade values: the back edge's parallel copy is a
 * cycle, broken with three xors and no spare register.
 */
TEST_F(ra_test, parallel_copy_cycle_is_a_swap)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:f32x8 = mov 2.0:f32
      block1:
         do
         %3:f32x8 = phi %1, %4
         %4:f32x8 = phi %2, %3
         %5:f32x8 = add %3, %4
         untyped_write_logical 0:u32, %5, %5, 1:u32
         %6:flagx8 = cmp.l %5, %0
         (+%6) while
      block2:
         halt
   )", "ra", R"(
      block0:
         %[[x]]:f32x8@g[[rx]] = mov 1.0:f32
         %[[y]]:f32x8@g[[ry]] = mov 2.0:f32
      block1:
         do
         %5:f32x8@g[[r5]] = add %[[x]], %[[y]]
         untyped_write_logical 0:u32, %5, %5, 1:u32
         %6:flagx8@f0.0 = cmp.l %5, %0
         %[[x]]:u32 = xor %[[x]]:u32, %[[y]]:u32
         %[[y]]:u32 = xor %[[y]]:u32, %[[x]]:u32
         %[[x]]:u32 = xor %[[x]]:u32, %[[y]]:u32
         (+%6) while
      block2:
         halt
   )"));
}

/* A swap of 16-bit values is xored in words; as dwords it was a partial
 * write of the wrong type (invalid IR, random vs 4 with bytes).  Packed
 * bytes are still open: a byte xor needs a strided destination.
 */
TEST_F(ra_test, parallel_copy_cycle_of_words_is_a_word_swap)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:u16x8@g2
      block0:
         %1:u16x8 = mov %0
         %2:u16x8 = add %0, %0
      block1:
         do
         %3:u16x8 = phi %1, %4
         %4:u16x8 = phi %2, %3
         %5:u16x8 = add %3, %4
         %7:u32x8 = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx8 = cmp.l %5, %0
         (+%6) while
      block2:
         halt
   )", "ra", R"(
      block1:
         do
         %5:u16x8@g[[r5]] = add %[[x]], %[[y]]
         %7:u32x8@g[[r7]] = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx8@f0.0 = cmp.l %5, %0
         %[[x]] = xor %[[x]], %[[y]]
         %[[y]] = xor %[[y]], %[[x]]
         %[[x]] = xor %[[x]], %[[y]]
         (+%6) while
      block2:
         halt
   )"));
}

/* A cycle of scalars of two sizes: the s32 source goes to the u32
 * destination and the u16 to the u16 across the same dword pair.  The
 * swap runs as dwords (the wider value moves whole) and the u16 reads its
 * word of t in place, as a u16; before, t was renamed to it, a u16
 * written as a u32 (random cs seed 183 SIMD16 with 104 GRFs reserved:
 * invalid IR after allocation).
 */
TEST_F(ra_test, parallel_copy_cycle_of_scalars_of_two_sizes)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader cs simd8 allocated
      hw %0:u32x8@g2
      block0:
         %1:u16x1@g1.4 = mov 7:u16 {WE_all}
         %2:s32x1@g1 = mov -3:s32 {WE_all}
         %3:u32x1@g1.4, %4:u16x1@g1 = parallel_copy %2:u32, %1
         %5:u32x8@g3 = add %0, %3
         %6:u32x8@g4 = add %0, %4:u16
         untyped_write_logical 0:u32, %5, %6, 1:u32
   )"));
   ibis::ra_lower_copies(*s);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      block0:
         %1:u16x1@g1.4 = mov 7:u16 {WE_all}
         %2:s32x1@g1 = mov -3:s32 {WE_all}
         %3:u32x1@g1.4 = xor %1<0,1,0>:u32, %2<0,1,0>:u32 {WE_all}
         %[[t]]:u32x1@g1 = xor %2<0,1,0>:u32, %3<0,1,0> {WE_all}
         %3 = xor %3<0,1,0>, %[[t]]<0,1,0> {WE_all}
         %4:u16x1@g1 = mov %[[t]]<0,1,0>:u16 {WE_all}
         %5:u32x8@g3 = add %0, %3
      ...
   )", s->str()), "") << s->str();
   EXPECT_NO_THROW(ibis::validate_allocation(*s)) << s->str();
}

/* A masked copy in place of a NoMask fill (a spilled phi source) into
 * a SIMD-local phi web stays: removed, the fill became a write of the
 * web, code generation took the web for SIMD-global and emitted its
 * then-side write NoMask (random fs seed 1035 SIMD32 with 36-104 GRFs
 * reserved mismatched).
 */
TEST_F(ra_test, masked_copy_of_a_fill_into_a_phi_web_stays)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      hw %9:u32x8@g0
      block0:
         %10:u32x8@g6 = mov %9 {WE_all}
         %1:f32x8@g4 = send 10:u32, 0x21c0000:u32, 0:u32, %10, _ {WE_all, fill}
         %2:f32x8@g4 = copy %1
         %4:flagx8@f0.0 = cmp.g %0, 1.0:f32
         (+%4) if
      block1:
         %2 = add %0, 1.0:f32
      block2:
         endif
         untyped_write_logical 0:u32, %0, %2, 1:u32
   )"));
   ibis::ra_lower_copies(*s);
   EXPECT_EQ(ibis::testing::match_ir(R"(
      ...
         %1:f32x8@g4 = send 10:u32, 0x21c0000:u32, 0:u32, %10, _ {WE_all, fill}
         %2:f32x8@g4 = copy %1
      ...
   )", s->str()), "") << s->str();
   const ibis::value *web = nullptr;
   for (const auto &b : s->blocks())
      for (const ibis::instr *in : b->instrs())
         if (in->op == ibis::opcode::add)
            web = in->dst().val;
   ASSERT_NE(web, nullptr);
   EXPECT_FALSE(web->is_simd_global()) << s->str();
   EXPECT_NO_THROW(ibis::validate_allocation(*s)) << s->str();
}

/* The swap of two SIMD32 upper halves runs on their channels 16-31
 * (random fs seed 4627 swapped them with xor(16) of channels 0-15, a
 * partial write of each).
 */
TEST_F(ra_test, parallel_copy_cycle_of_upper_halves_keeps_their_group)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32
      hw %0:u32x32@g2
      block0:
         %1:u16x16+16 = mov 1:u16
         %2:u16x16+16 = mov 2:u16
      block1:
         do
         %3:u16x16+16 = phi %1, %4
         %4:u16x16+16 = phi %2, %3
         %5:u16x16+16 = add %3, %4
         %7:u32x16+16 = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx32 = cmp.l %0, 9:u32
         (+%6) while
      block2:
         halt
   )", "ra", R"(
      block1:
         do
         %5:u16x16+16@g[[r5]] = add %[[x]], %[[y]]
         %7:u32x16+16@g[[r7]] = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx32@f0.0 = cmp.l %0, 9:u32
         %[[x]] = xor %[[x]], %[[y]]
         %[[y]] = xor %[[y]], %[[x]]
         %[[x]] = xor %[[x]], %[[y]]
         (+%6) while
      block2:
         halt
   )"));
}

/* random fs seed 7768 SIMD32: the edge copies of a lower-half phi (from
 * %1) and an upper-half phi (from %2) were colored into a cycle, %1 on
 * the upper phi's register and %2 on the lower one's, and swapped with
 * xors of channels 0-15 (an upper half written in the lower half's
 * channels: invalid IR).  An edge copy's destination interferes with the
 * other entries' sources when the two phis differ in width, group or
 * NoMask, so a cycle keeps to one set of channels; one layout alone (%1
 * and %3, the lower halves) may still share.
 */
TEST_F(ra_test, parallel_copy_cycle_keeps_to_one_set_of_channels)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd32
      hw %0:u32x32@g2
      hw %20:u16x32@g6
      block0:
         %1:u16x16 = add %20, 1:u16
         %2:u16x16+16 = add %20.32, 2:u16
         %3:u16x16 = add %20, 3:u16
         %4:flagx32 = cmp.l %0, 9:u32
         (+%4) if
      block1:
         %5:u16x16 = mov 5:u16
         %6:u16x16+16 = mov 6:u16
         %7:u16x16 = mov 7:u16
      block2:
         endif
         %8:u16x16 = phi %1, %5
         %9:u16x16+16 = phi %2, %6
         %10:u16x16 = phi %3, %7
         %11:u32x16 = mov %8
         %12:u32x16+16 = mov %9
         %13:u32x16 = mov %10
         untyped_write_logical 0:u32, %11, %13, 1:u32
         untyped_write_logical 0:u32, %12, %12, 1:u32
   )"));
   ibis::ra_insert_phi_copies(*s);
   const ibis::instr *pc = nullptr;
   for (const ibis::instr *in : s->blocks()[0]->instrs()) {
      if (in->op == ibis::opcode::parallel_copy)
         pc = in;
   }
   ASSERT_NE(pc, nullptr) << s->str();
   ASSERT_EQ(pc->num_dsts(), 3u) << s->str();
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   const ibis::ra_lists adj = ibis::ra_adjacency(g);
   auto edge = [&](const ibis::value *a, const ibis::value *b) {
      const auto &l = adj[g.node_of[a->id]];
      return std::find(l.begin(), l.end(), unsigned(g.node_of[b->id])) != l.end();
   };
   /* Entry 0 copies %1 into the lower phi, 1 %2 into the upper one. */
   EXPECT_TRUE(edge(pc->dst(0).val, pc->src(1).val)) << s->str();
   EXPECT_TRUE(edge(pc->dst(1).val, pc->src(0).val)) << s->str();
   EXPECT_TRUE(edge(pc->dst(1).val, pc->src(2).val)) << s->str();
   EXPECT_FALSE(edge(pc->dst(0).val, pc->src(2).val)) << s->str();
   EXPECT_FALSE(edge(pc->dst(2).val, pc->src(0).val)) << s->str();
}

/* random vs 4: packed bytes cannot be xor-swapped (a byte destination of
 * an ALU op needs stride 2), so a byte parallel copy never forms a cycle:
 * its destinations interfere with the other entries' sources, and the
 * phi swap becomes copies through a third register.
 */
TEST_F(ra_test, parallel_copy_of_bytes_has_no_cycle)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:u8x8@g2
      block0:
         %1:u8x8 = mov %0
         %2:u8x8 = add %0, %0
      block1:
         do
         %3:u8x8 = phi %1, %4
         %4:u8x8 = phi %2, %3
         %5:u8x8 = add %3, %4
         %7:u32x8 = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx8 = cmp.l %5, %0
         (+%6) while
      block2:
         halt
   )", "ra", R"(
      block0:
         %[[x]]:u8x8@g[[rx]].[[_]] = mov %0
         %[[y]]:u8x8@g[[ry]].[[_]] = add %0, %0
      block1:
         do
         %4:u8x8@g[[r4]] = copy %[[y]]
         %[[y]] = copy %[[x]]
         %5:u8x8@g[[r5]].[[_]] = add %[[y]], %4
         %7:u32x8@g[[r7]] = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx8@f0.0 = cmp.l %5, %0
         %[[x]] = copy %4
         (+%6) while
      block2:
         halt
   )"));
}

/* ra_result::copies counts what out of SSA leaves: three xors for a
 * swap, three copies through a third register for bytes, nothing where
 * the phi classes coalesce (the then/else sharing).
 */
TEST_F(ra_test, copies_out_of_ssa_are_counted)
{
   const char *loop = R"(
      shader fs simd8
      hw %0:@@x8@g2
      block0:
         %1:@@x8 = mov %0
         %2:@@x8 = add %0, %0
      block1:
         do
         %3:@@x8 = phi %1, %4
         %4:@@x8 = phi %2, %3
         %5:@@x8 = add %3, %4
         %7:u32x8 = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx8 = cmp.l %5, %0
         (+%6) while
      block2:
         halt
   )";
   auto typed = [&](const std::string &t) {
      std::string text = loop;
      for (size_t at; (at = text.find("@@")) != std::string::npos;)
         text.replace(at, 2, t);
      return text;
   };
   std::string out;
   ibis::ra_result r = allocate(typed("u32"), &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(r.copies, 3u) << out;
   EXPECT_NE(out.find("xor"), std::string::npos) << out;
   r = allocate(typed("u8"), &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(r.copies, 3u) << out;
   EXPECT_EQ(out.find("xor"), std::string::npos) << out;
   r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, %0
      block2:
         endif
         %4:f32x8 = phi %1, %3
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(r.copies, 0u) << out;
}

/* dolphin ubershader 147 FS SIMD16: two-register values need not start
 * at even registers, so a cycle could pair g5-g6 with g4-g5, which no
 * swap undoes ("a parallel copy cycle with partly overlapping
 * registers").  Cycles never pass through values of several registers;
 * the swap goes through a third register.
 */
TEST_F(ra_test, parallel_copy_of_several_registers_has_no_cycle)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = mov %0
         %2:f32x16 = add %0, %0
      block1:
         do
         %3:f32x16 = phi %1, %4
         %4:f32x16 = phi %2, %3
         %5:f32x16 = add %3, %4
         %7:f32x16 = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx16 = cmp.l %5, %0
         (+%6) while
      block2:
         halt
   )", "ra", R"(
      block0:
         %[[x]]:f32x16@g[[rx]] = mov %0
         %[[y]]:f32x16@g[[ry]] = add %0, %0
      block1:
         do
         %4:f32x16@g[[r4]] = copy %[[y]]
         %[[y]] = copy %[[x]]
         %5:f32x16@g[[r5]] = add %[[y]], %4
         %7:f32x16@g[[r7]] = mov %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
         %6:flagx16@f0.0 = cmp.l %5, %0
         %[[x]] = copy %4
         (+%6) while
      block2:
         halt
   )"));
}

/* A phi whose source still lives after the edge (the lost copy): the copy
 * stays, after the phis.
 */
TEST_F(ra_test, phi_source_live_past_the_edge_keeps_its_copy)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
      block1:
         do
         %2:f32x8 = phi %1, %3
         %3:f32x8 = add %2, %0
         %4:flagx8 = cmp.l %3, %0
         (+%4) while
      block2:
         %5:f32x8 = add %2, %3
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", "ra", R"(
      block0:
         %[[v]]:f32x8@g[[rv]] = mov 1.0:f32
      block1:
         do
         %2:f32x8@g[[r2]] = copy %[[v]]
         %[[v]] = add %2, %0
         %4:flagx8@f0.0 = cmp.l %[[v]], %0
         (+%4) while
      block2:
         %5:f32x8@g[[r5]] = add %2, %[[v]]
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )"));
}

/* A loop-carried value updated by ALU instructions: each destination takes
 * the register of its dying source (same layout, docs/backend.md §2), so
 * the whole phi web -- initial value, phi, the product and the new value
 * -- is one register and the back edge needs no copy.
 */
TEST_F(ra_test, loop_carried_value_updates_in_place)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 0.0:f32
      block1:
         do
         %2:f32x8 = phi %1, %4
         %3:f32x8 = mul %2, %0
         %4:f32x8 = add %3, 1.0:f32
         %5:flagx8 = cmp.l %4, %0
         (+%5) while
      block2:
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", "ra", R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %[[v]]:f32x8@g[[r]] = mov 0.0:f32
      block1:
         do
         %3:f32x8@g[[r]] = mul %[[v]], %0
         %[[v]] = add %3, 1.0:f32
         %5:flagx8@f0.0 = cmp.l %[[v]], %0
         (+%5) while
      block2:
         untyped_write_logical 0:u32, %[[v]], %[[v]], 1:u32
   )"));
}

/* A HW_REG value read in a loop is read again on the next iteration: it
 * lives to the loop's end, so nothing written later in the loop takes its
 * register (the thread payload header g0 was overwritten by a send result
 * after its last read in program order: the next iteration built its
 * sampler header from texels).
 */
TEST_F(ra_test, fixed_value_read_in_a_loop_lives_to_its_end)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g0
      block0:
         %1:f32x8 = mov 0.0:f32
      block1:
         do
         %2:f32x8 = phi %1, %5
         %3:f32x8 = mul %0, %2
         %4:f32x8 = mov 2.0:f32
         %5:f32x8 = add %3, %4
         %6:flagx8 = cmp.l %5, 100.0:f32
         (+%6) while
      block2:
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   for (const auto &b : s->blocks()) {
      for (const ibis::instr *in : b->instrs()) {
         for (const ibis::operand &d : in->dsts())
            EXPECT_FALSE(d.val && d.val->file != ibis::reg_file::flag &&
                         d.val->phys.nr == 0) << out;
      }
   }
}

/* Among free registers, an ALU destination prefers the one of its dying
 * source (a weak copy bias): %5 takes %1's register and %4 takes %3's,
 * two registers where lowest-first took three.
 */
TEST_F(ra_test, alu_destination_prefers_its_dying_source)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %3:f32x8 = add %0, 2.0:f32
         %5:f32x8 = mul %1, %0
         %4:f32x8 = add %3, 3.0:f32
         %6:f32x8 = add %4, %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", "ra", R"(
      block0:
         %1:f32x8@g[[a]] = add %0, 1.0:f32
         %3:f32x8@g[[b]] = add %0, 2.0:f32
         %5:f32x8@g[[a]] = mul %1, %0
         %4:f32x8@g[[b]] = add %3, 3.0:f32
         %6:f32x8@g[[_]] = add %4, %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )"));
}

/* A destination that reads its source through a region (or with another
 * bit size) must not land on it: code generation may split the
 * instruction, and a later piece would read what an earlier one wrote.
 */
TEST_F(ra_test, regioned_source_is_not_overwritten_in_place)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16 = add %1.4<4,4,0>, -%1<4,4,0>
         %3:f32x16 = add %0, 2.0:f32
         %4:f32x16 = mul %3, %0
         untyped_write_logical 0:u32, %2, %4, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   EXPECT_NE(s->find_value(2)->phys.nr, s->find_value(1)->phys.nr) << out;
   /* The plain one does. */
   EXPECT_EQ(s->find_value(4)->phys.nr, s->find_value(3)->phys.nr) << out;
}

/* Coloring alone, on a graph made by hand: g0-g111 are taken (%0), and
 * g112-g117 are taken for the pairs x2/x3 (%1).  Every class is over the
 * trivial bound, so the order is optimistic.  The eight-register B is the
 * cheapest per byte; pushed first, it was placed last, after the pairs
 * had cut g112-g127 into pieces (x0/x1 at g112-g115, x2/x3 at
 * g118-g121), and found no eight registers in a row.  Classes of more
 * than two registers are pushed last: B takes g112-g119, the pairs
 * g120-g123.
 */
TEST_F(ra_test, large_class_is_placed_before_small_ones)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd16 lowered
      hw %0:f32x8[112]@g0
      hw %1:f32x8[6]@g112
      block0:
         halt
   )"));
   using ibis::reg_file;
   using ibis::data_type;
   ibis::value *b = s->create_value(reg_file::ssa, data_type::f32, 16, 4);
   std::vector<ibis::value *> x;
   for (unsigned i = 0; i < 4; i++)
      x.push_back(s->create_value(reg_file::ssa, data_type::f32, 16));
   ibis::ra_graph g =
      hand_graph(*s, {s->find_value(0), s->find_value(1), b, x[0], x[1], x[2], x[3]});
   const unsigned n = g.nodes.size();
   std::vector<std::vector<unsigned>> adj(n);
   auto edge = [&](unsigned a, unsigned c) {
      adj[a].push_back(c);
      adj[c].push_back(a);
   };
   for (unsigned i = 2; i < n; i++)
      edge(0, i);                     /* g0-g111: everything */
   for (unsigned i = 3; i < n; i++)
      edge(2, i);                     /* B: every pair value */
   edge(3, 4);                        /* x0-x1 */
   edge(5, 6);                        /* x2-x3 */
   edge(1, 5);                        /* g112-g117: x2, x3 */
   edge(1, 6);
   for (auto &l : adj)
      std::sort(l.begin(), l.end());
   g.adj = ibis::ra_lists(adj);
   g.cost = {1, 1, 1, 100, 100, 100, 100};
   ibis::ra_color_result r = ibis::ra_color(*s, g, {}, false, 0);
   ASSERT_TRUE(r.success);
   EXPECT_EQ(b->phys.nr, 112u);
   for (unsigned i = 0; i < 4; i += 2) {
      EXPECT_EQ(std::min(x[i]->phys.nr, x[i + 1]->phys.nr), 120u) << i;
      EXPECT_EQ(std::max(x[i]->phys.nr, x[i + 1]->phys.nr), 122u) << i;
   }
}

/* Coloring alone, on a graph made by hand, of the three ways place()
 * rules starts out: g0-g9 are taken (%0) and a scalar holds g10.3.  A
 * two-register value (register starts: a register is out when any of
 * its dwords is held) skips g10 for g11; a half-register value (dword
 * starts) takes g10's upper half; a SIMD16 double channel-constrained
 * against one at g12-g15 may share it only channel on channel, so g11
 * (one register off) is out and g12 is its place.
 */
TEST_F(ra_test, place_rules_out_registers_dwords_and_channels)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd16 lowered
      hw %0:f32x8[10]@g0
      block0:
         halt
   )"));
   using ibis::reg_file;
   using ibis::data_type;
   auto fixed = [&](ibis::value *v, unsigned nr, unsigned subreg) {
      v->phys.kind = ibis::phys_reg::grf;
      v->phys.nr = nr;
      v->phys.subreg = subreg;
      return v;
   };
   ibis::value *u = fixed(s->create_value(reg_file::hw_reg, data_type::u32, 1), 10, 12);
   ibis::value *w0 = fixed(s->create_value(reg_file::hw_reg, data_type::f64, 16), 12, 0);
   ibis::value *y = s->create_value(reg_file::ssa, data_type::f32, 16);
   ibis::value *h = s->create_value(reg_file::ssa, data_type::f16, 8);
   ibis::value *w1 = s->create_value(reg_file::ssa, data_type::f64, 16);
   ibis::ra_graph g = hand_graph(*s, {s->find_value(0), u, w0, y, h, w1});
   std::vector<std::vector<unsigned>> adj(g.nodes.size()), channel_adj(g.nodes.size());
   for (unsigned a : {0u, 1u}) {
      for (unsigned c : {3u, 4u, 5u}) {
         adj[a].push_back(c);
         adj[c].push_back(a);
      }
   }
   channel_adj[2].push_back(5);
   channel_adj[5].push_back(2);
   g.adj = ibis::ra_lists(adj);
   g.channel_adj = ibis::ra_lists(channel_adj);
   for (unsigned strategy = 0; strategy < 2; strategy++) {
      ibis::ra_color_result r = ibis::ra_color(*s, g, {}, false, strategy);
      ASSERT_TRUE(r.success);
      EXPECT_EQ(y->phys.nr, 11u) << strategy;
      EXPECT_EQ(y->phys.subreg, 0u) << strategy;
      EXPECT_EQ(h->phys.nr, 10u) << strategy;
      EXPECT_EQ(h->phys.subreg, 16u) << strategy;
      EXPECT_EQ(w1->phys.nr, 12u) << strategy;
   }
}

/* merge() tests a copy's two classes by walking the one with the shorter
 * adjacency lists.  Here the source's class {%1, %2} has the longer ones
 * (%1 is read twice more), so the destination's side is walked: %3 must
 * still see that %1, in the class it would join, is live after it and
 * keep out of its register, while %2 coalesces with %1.
 */
TEST_F(ra_test, copy_into_a_larger_class_sees_its_interference)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %2:f32x8 = copy %1
         %3:f32x8 = copy %2
         %4:f32x8 = add %1, %3
         %5:f32x8 = mul %1, %4
         untyped_write_logical 0:u32, %5, %1, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   const ibis::value *v1 = s->find_value(1), *v3 = s->find_value(3);
   ASSERT_TRUE(v1 && v3) << out;
   EXPECT_NE(v3->phys.nr, v1->phys.nr) << out;
   /* %2 vanished into %1: no copy of %1 is left, only %3's. */
   EXPECT_EQ(s->find_value(2), nullptr) << out;
}

/* Coalescing must never cost registers.  Four fixed blocks leave only
 * g10, g20 and g30 free while they are live, so the payload %13 cannot
 * take %4 and the phi web of %7 whole (they would need two adjacent free
 * registers).  The merged class is split back into what it was made of
 * and colored piece by piece, each where its copies vanish if it can: the
 * phi web stays one register (no copy in the loop), %12 stays on %11, and
 * only %4 is moved into the payload.  Giving up coalescing instead kept
 * every copy.
 */
TEST_F(ra_test, merged_class_without_a_place_is_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8[10]@g0
      hw %1:f32x8[9]@g11
      hw %2:f32x8[9]@g21
      hw %3:f32x8[97]@g31
      block0:
         %4:f32x8 = mov 1.0:f32
         %5:f32x8 = mov 2.0:f32
      block1:
         do
         %6:f32x8 = phi %5, %7
         %7:f32x8 = add %6, %0
         %8:flagx8 = cmp.l %7, %1
         (+%8) while
      block2:
         %9:f32x8 = add %0[9], %1[8]
         %10:f32x8 = add %2[8], %3[96]
         %11:f32x8 = mul %9, %10
         %12:f32x8 = copy %11
         %13:f32x8[2] = load_payload %4, %7
         %14:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %13, _
         %15:f32x8 = add %14[3], %12
         untyped_write_logical 0:u32, %15, %15, 1:u32
   )", "ra", R"(
      block0:
         %4:f32x8@g[[a]] = mov 1.0:f32
         %[[p]]:f32x8@g[[w]] = mov 2.0:f32
      block1:
         do
         %[[p]] = add %[[p]], %0
         %8:flagx8@f0.0 = cmp.l %[[p]], %1
         (+%8) while
      block2:
         %9:f32x8@g[[_]] = add %0[9], %1[8]
         %10:f32x8@g[[_]] = add %2[8], %3[96]
         %11:f32x8@g[[_]] = mul %9, %10
         %13:f32x8[2]@g[[_]] = load_payload %4, %[[p]]
         %14:f32x8[4]@g[[_]] = send 2:u32, 0x4420001:u32, 0:u32, %13, _
         %15:f32x8@g[[_]] = add %14[3], %11
         untyped_write_logical 0:u32, %15, %15, 1:u32
   )"));
}

/* An if without else in front of a phi: the critical edge's copy goes
 * before the if (every channel), the then-side copy overwrites the
 * channels that take the branch.  Here both coalesce away, and the
 * then-side add writes the phi's register in place.
 */
TEST_F(ra_test, phi_behind_if_without_else)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, %0
      block2:
         endif
         %4:f32x8 = phi %1, %3
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", "ra", R"(
      block0:
         %[[v]]:f32x8@g[[r]] = mov 1.0:f32
         %2:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %[[v]] = add %[[v]], %0
      block2:
         endif
         untyped_write_logical 0:u32, %[[v]], %[[v]], 1:u32
   )"));
}

/* A constant that only phis read is written on each edge by a mov of its
 * own: no copy from it, and it no longer lives up to the edges (dolphin
 * ubershaders at SIMD16: 350 instructions fewer, the constants' registers
 * free for coalescing).  Only where the allocation may not spill: a
 * spilled phi class stores edge copies only.
 */
TEST_F(ra_test, phi_constant_is_written_on_the_edge)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:u32x8@g2
      block0:
         %1:u32x8 = mov 5:u32
         %2:flagx8 = cmp.nz %0, 0:u32
         (+%2) if
      block1:
         %3:u32x8 = add %0, 1:u32
         %4:u32x8 = add %0, 2:u32
      block2:
         endif
         %5:u32x8 = phi %1, %3
         %6:u32x8 = phi %1, %4
         untyped_write_logical 0:u32, %5, %6, 1:u32
   )", "ra-nospill", R"(
      block0:
         %2:flagx8@f0.0 = cmp.nz %0, 0:u32
         %[[a]]:u32x8@g[[ra]] = mov 5:u32
         %[[b]]:u32x8@g[[rb]] = mov 5:u32
         (+%2) if
      block1:
         %[[a]] = add %0, 1:u32
         %[[b]] = add %0, 2:u32
      block2:
         endif
         untyped_write_logical 0:u32, %[[a]], %[[b]], 1:u32
   )"));
}

/* A phi whose sources are read with another type of the same size (NIR's
 * untyped registers: dolphin's ubershaders) coalesces like any other: the
 * registers hold bits.
 */
TEST_F(ra_test, phi_of_another_type_coalesces)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mul %0, %0
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:s32x8 = mov %0
      block2:
         endif
         %4:u32x8 = phi %1:u32, %3:u32
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", "ra", R"(
      block0:
         %[[v]]:u32x8@g[[r]]:f32 = mul %0, %0
         %2:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %[[v]]:s32 = mov %0
      block2:
         endif
         untyped_write_logical 0:u32, %[[v]], %[[v]], 1:u32
   )"));
}

/* A predicated flag write (lower_flag_chains) keeps its predicate's bits
 * in the other channels: it takes the predicate's register, f1.0, where
 * the first free half would have been f0.1 (%6 dies at the sel before).
 */
TEST_F(ra_test, predicated_flag_write_takes_the_predicate_register)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:flagx8 = cmp.l %0, 0.0:f32
         %6:flagx8 = cmp.g %0, 3.0:f32
         %2:flagx8 = cmp.g %0, 1.0:f32
         (+%6) %7:f32x8 = sel %0, 0.75:f32
         (+%2) %3:flagx8 = cmp.l %0, 2.0:f32
         (+%3) %4:f32x8 = sel %7, 0.5:f32
         (+%1) %5:f32x8 = sel %4, 0.25:f32
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", "ra", R"(
      block0:
         %1:flagx8@f0.0 = cmp.l %0, 0.0:f32
         %6:flagx8@f0.1 = cmp.g %0, 3.0:f32
         %2:flagx8@f1.0 = cmp.g %0, 1.0:f32
         (+%6) %7:f32x8@g[[_]] = sel %0, 0.75:f32
         (+%2) %3:flagx8@f1.0 = cmp.l %0, 2.0:f32
   ...
   )"));
}

/* Five SIMD8 flags live at once in four flag halves: the one that lives
 * longest goes to a GRF (sel after its cmp) and comes back by cmp.nz
 * right before its use.
 */
TEST_F(ra_test, flag_spill_through_a_grf)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:flagx8 = cmp.l %0, 1.0:f32
         %2:flagx8 = cmp.l %0, 2.0:f32
         %3:flagx8 = cmp.l %0, 3.0:f32
         %4:flagx8 = cmp.l %0, 4.0:f32
         %5:flagx8 = cmp.l %0, 5.0:f32
         (+%5) %6:f32x8 = sel %0, 0.0:f32
         (+%4) %7:f32x8 = sel %6, 1.0:f32
         (+%3) %8:f32x8 = sel %7, 2.0:f32
         (+%2) %9:f32x8 = sel %8, 3.0:f32
         (+%1) %10:f32x8 = sel %9, 4.0:f32
         untyped_write_logical 0:u32, %10, %10, 1:u32
   )", "ra", R"(
      block0:
         %1:flagx8@f0.0 = cmp.l %0, 1.0:f32
         %[[c]]:u32x8@g[[_]] = mov 0xffffffff:u32
         (+%1) %[[g]]:u32x8@g[[rg]] = sel %[[c]], 0:u32
         %2:flagx8@f0.0 = cmp.l %0, 2.0:f32
         %3:flagx8@f0.1 = cmp.l %0, 3.0:f32
         %4:flagx8@f1.0 = cmp.l %0, 4.0:f32
         %5:flagx8@f1.1 = cmp.l %0, 5.0:f32
         (+%5) %6:f32x8@g[[_]] = sel %0, 0.0:f32
         (+%4) %7:f32x8@g[[_]] = sel %6, 1.0:f32
         (+%3) %8:f32x8@g[[_]] = sel %7, 2.0:f32
         (+%2) %9:f32x8@g[[_]] = sel %8, 3.0:f32
         %[[f]]:flagx8@f0.0 = cmp.nz %[[g]], 0:u32
         (+%[[f]]) %10:f32x8@g[[_]] = sel %9, 4.0:f32
         untyped_write_logical 0:u32, %10, %10, 1:u32
   )"));
   /* Only the last source of a sel may be an immediate (random fs seed
    * 5111 SIMD32 was rejected for a sel of ~0 and 0).
    */
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd32
      hw %0:f32x32@g2
      block0:
         %1:flagx32 = cmp.l %0, 1.0:f32
         %2:flagx32 = cmp.l %0, 2.0:f32
         %3:flagx32 = cmp.l %0, 3.0:f32
         (+%3) %6:f32x32 = sel %0, 0.0:f32
         (+%2) %7:f32x32 = sel %6, 1.0:f32
         (+%1) %8:f32x32 = sel %7, 2.0:f32
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   for (const std::string &e : ibis::validate_lowered_errors(*s))
      EXPECT_EQ(e.find("[hw-imm]"), std::string::npos) << e << "\n" << out;
}

/* A SIMD32 flag takes a whole f0 or f1; a cmp whose flag nobody reads
 * still writes one, so it gets a dead flag value of its own.
 */
TEST_F(ra_test, simd32_flag_and_unread_cmp_flag)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32
      hw %0:f32x32@g2
      block0:
         %1:flagx32 = cmp.l %0, 1.0:f32
         %2:f32x32 = cmp.l %0, 2.0:f32
         (+%1) %3:f32x32 = sel %0, %2
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )", "ra", R"(
      block0:
         %1:flagx32@f0.0 = cmp.l %0, 1.0:f32
         %2:f32x32@g[[_]], %[[d]]:flagx32@f1.0 = cmp.l %0, 2.0:f32
         (+%1) %3:f32x32@g[[_]] = sel %0, %2
   ...
   )"));
}

/* Tied preserve writes: the first preserve value is still read later, so a
 * copy is the tied one; the second dies there and is written in place.
 */
TEST_F(ra_test, preserve_write_tied_with_and_without_copy)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      block0:
         %1:u16x16 = mov 0:u16
         %2:u16x16 = mov(8) 7:u16, preserve %1
         %3:u16x16 = mov(8+8) 9:u16, preserve %1
         untyped_write_logical 0:u32, %2, %3, 1:u32
   )", "ra", R"(
      block0:
         %1:u16x16@g[[a]] = mov 0:u16
         %[[c]]:u16x16@g[[b]] = copy %1
         %2:u16x16@g[[b]] = mov(8) 7:u16, preserve %[[c]]
         %3:u16x16@g[[a]] = mov(8+8) 9:u16, preserve %1
         untyped_write_logical 0:u32, %2, %3, 1:u32
   )"));
}

/* A NoMask value keeps NoMask through the copies the allocator adds: a
 * phi whose every edge brings a SIMD-global value is SIMD-global, and its
 * edge copies run with all channels.
 */
TEST_F(ra_test, nomask_is_a_property_of_the_value)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:u32x8 = mov 1:u32 {WE_all}
      block1:
         do
         %2:u32x8 = phi %1, %3
         %3:u32x8 = add %2, 1:u32 {WE_all}
         %4:flagx8 = cmp.l %3, 10:u32
         (+%4) while
      block2:
         %5:u32x8 = add %2, %3
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", "ra", R"(
      block1:
         do
         %2:u32x8@g[[r2]] = copy %[[v]] {WE_all}
         %3:u32x8@g[[r3]] = add %2, 1:u32 {WE_all}
         %4:flagx8@f0.0 = cmp.l %3, 10:u32
         %[[v]] = copy %3 {WE_all}
         (+%4) while
   ...
   )"));
}

/* A phi that mixes a NoMask constant with a value of the channels is
 * SIMD-local: each channel takes the value of the edge it came by, so the
 * edge copy of the constant runs with the mask and the phi web is not
 * made NoMask (which would keep it off every register a value of the
 * skipped blocks uses).
 */
TEST_F(ra_test, phi_mixing_a_nomask_value_stays_simd_local)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:u32x8@g2
      block0:
         %1:u32x8 = mov 7:u32 {WE_all}
         %2:flagx8 = cmp.nz %0, 0:u32
         (+%2) if
      block1:
         %3:u32x8 = add %0, 1:u32
      block2:
         endif
         %4:u32x8 = phi %1, %3
         untyped_write_logical 0:u32, %4, %1, 1:u32
   )", "ra", R"(
      block0:
         %1:u32x8@g[[a]] = mov 7:u32 {WE_all}
         %2:flagx8@f0.0 = cmp.nz %0, 0:u32
         %[[p]]:u32x8@g[[b]] = copy %1
         (+%2) if
      block1:
         %[[p]] = add %0, 1:u32
      block2:
         endif
         untyped_write_logical 0:u32, %[[p]], %1, 1:u32
   )"));
}

/* Vectors and messages: a load_payload's sources are built in place when
 * they can be, the send's result does not overlap its payload, SIMD16
 * values take two aligned registers.
 */
TEST_F(ra_test, payload_sources_in_place)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16 = add %0, 2.0:f32
         %3:f32x16[2] = load_payload %1, %2
         %4:f32x16[4] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %5:f32x16 = add %4[3], %1
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", "ra", R"(
      block0:
         %1:f32x16@g[[a]] = add %0, 1.0:f32
         %2:f32x16@g[[b]] = add %0, 2.0:f32
         %3:f32x16[2]@g[[a]] = load_payload %1, %2
         %4:f32x16[4]@g[[r]] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %5:f32x16@g[[_]] = add %4[3], %1
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )"));
}

/* A SIMD32 vector zipped from SIMD16 halves and read one component at a
 * time is split into one value per component (no 4-register block
 * needed), and each half is computed where its SIMD32 value needs it.
 */
TEST_F(ra_test, vectors_read_by_component_are_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32
      hw %0:f32x32@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16+16 = add %0.64, 2.0:f32
         %3:f32x16 = add %0, 3.0:f32
         %4:f32x16+16 = add %0.64, 4.0:f32
         %5:f32x32[2] = load_payload %1, %2, %3, %4
         %6:f32x32 = mul %5[1], %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", "ra", R"(
      block0:
         %1:f32x16@g[[a]] = add %0, 1.0:f32
         %2:f32x16+16@g[[a2]] = add %0.64, 2.0:f32
         %3:f32x16@g[[b]] = add %0, 3.0:f32
         %4:f32x16+16@g[[b2]] = add %0.64, 4.0:f32
         %[[x]]:f32x32@g[[a]] = load_payload %1, %2
         %[[y]]:f32x32@g[[b]] = load_payload %3, %4
         %6:f32x32@g[[_]] = mul %[[y]], %[[x]]
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )"));
   std::string out;
   allocate(R"(
      shader fs simd32
      hw %0:f32x32@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16+16 = add %0.64, 2.0:f32
         %3:f32x16 = add %0, 3.0:f32
         %4:f32x16+16 = add %0.64, 4.0:f32
         %5:f32x32[2] = load_payload %1, %2, %3, %4
         %6:f32x32 = mul %5[1], %5
         untyped_write_logical 0:u32, %6, %6, 1:u32
   )", &out);
   auto s = ibis::parse_shader(out);
   /* The second half sits right after the first: built in place. */
   EXPECT_EQ(s->find_value(2)->phys.nr, s->find_value(1)->phys.nr + 2);
   EXPECT_EQ(s->find_value(4)->phys.nr, s->find_value(3)->phys.nr + 2);
}

/* tesseract/365.fs at SIMD32: a coordinate is read whole by SIMD32
 * arithmetic and by halves by the two SIMD16 samples.  Each half's
 * payload is that half of the coordinate in place (four payload copies
 * before this, 243 -> 239 instructions); the register the second half's
 * payload sits at is the one the send reads.
 */
TEST_F(ra_test, simd32_payload_is_a_half_of_a_value_read_whole)
{
   const char *in = R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:f32x32@g6
      block0:
         %2:f32x32 = add %0, 0.5:f32
         %3:f32x32 = add %1, 0.5:f32
         %4:u32x16 = load_payload %2:u32
         %5:u32x16 = load_payload %3:u32
         %6:f32x16 = send 2:u32, 0x4240203:u32, 128:u32, %4, %5
         %7:u32x16+16 = load_payload %2.64:u32
         %8:u32x16+16 = load_payload %3.64:u32
         %9:f32x16+16 = send 2:u32, 0x4240203:u32, 128:u32, %7, %8
         %10:f32x32 = load_payload %6, %9
         %11:f32x32 = mad %10, %2, %3
         untyped_write_logical 0:u32, %11, %11, 1:u32
   )";
   std::string out;
   ibis::ra_result r = allocate(in, &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
   auto s = ibis::parse_shader(out);
   auto nr = [&](unsigned id) { return s->find_value(id)->phys.nr; };
   EXPECT_EQ(nr(4), nr(2)) << out;
   EXPECT_EQ(nr(7), nr(2) + 2) << out;
   EXPECT_EQ(nr(5), nr(3)) << out;
   EXPECT_EQ(nr(8), nr(3) + 2) << out;
}

/* A run of a value lands in place only when the value's other bytes fall
 * outside the payload: here the second half of %2 would sit under the
 * payload's second source, which is written while %2 is still read.
 */
TEST_F(ra_test, payload_run_not_in_place_under_another_source)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %2:f32x32 = add %0, 0.5:f32
         %3:f32x16 = add %0, 1.5:f32
         %4:u32x16[2] = load_payload %2:u32, %3:u32
         %6:f32x16 = send 2:u32, 0x4240203:u32, 0:u32, %4, _
         %7:f32x16+16 = mov(16+16) %2.64
         %8:f32x32 = load_payload %6, %7
         %9:f32x32 = mad %8, %2, %0
         untyped_write_logical 0:u32, %9, %9, 1:u32
   )", &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
   auto s = ibis::parse_shader(out);
   EXPECT_NE(s->find_value(4)->phys.nr, s->find_value(2)->phys.nr) << out;
}

/* A component read at several positions of one payload is no run in
 * place (random fs seed 3 SIMD8: the rule placed the vector under the
 * last position, and the validator rejected the allocation).
 */
TEST_F(ra_test, payload_run_read_at_several_positions)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8 lowered
      hw %0:u32x8@g2
      block0:
         %1:u32x8 = add %0, 1:u32
         %2:u32x8[2] = send 12:u32, 0x2206c00:u32, 0:u32, %1, _
         %3:u32x8[4] = load_payload %2, %2, %2, %2
         %4:u32x8[4] = send 2:u32, 0x8840001:u32, 0:u32, %3, _
         %5:u32x8 = add %4[3], %2[1]
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
}

/* tesseract/353.fs at SIMD32: the components of a sample are zipped
 * from the two SIMD16 results for SIMD32 arithmetic whose results are
 * read whole (here by the SIMD32 store).  Each reader near the zip splits
 * into halves that read the results in place, and its halves' results
 * are zipped side by side instead: no copies (181 -> 175 instructions).
 */
TEST_F(ra_test, simd32_readers_of_result_zips_split_forwards)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x16@g6
      hw %2:u32x16@g8
      block0:
         %3:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %5:f32x32[4] = load_payload %3, %4, %3[1], %4[1], %3[2], %4[2], %3[3], %4[3]
         %6:f32x32 = mul %5, %0
         %7:f32x32 = mad %6, %5[1], %5[3]
         %8:f32x32 = add %7, %5[2]
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )", "ra", R"(
      block0:
         %3:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %[[a]]:f32x16@g[[p]] = mul %3, %0
         %[[b]]:f32x16+16@g[[_]] = mul %4, %0.64
         %6:f32x32@g[[p]] = load_payload %[[a]], %[[b]]
         %[[c]]:f32x16@g[[q]] = mad %6, %3[1], %3[3]
         %[[d]]:f32x16+16@g[[_]] = mad %6.64, %4[1], %4[3]
         %7:f32x32@g[[q]] = load_payload %[[c]], %[[d]]
         %[[e]]:f32x16@g[[r]] = add %7, %3[2]
         %[[f]]:f32x16+16@g[[_]] = add %7.64, %4[2]
         %8:f32x32@g[[r]] = load_payload %[[e]], %[[f]]
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )"));
}

/* tesseract/393.fs at SIMD32: a reader far from the zip (here after ten
 * other instructions; the pre-RA schedule puts the sample's lrps there)
 * splits as a near one does.  The results stay live until it, as the zip
 * would: no copies of the component (two movs before).
 */
TEST_F(ra_test, simd32_far_reader_of_a_result_zip_splits_forwards)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x16@g6
      hw %2:u32x16@g8
      block0:
         %3:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %5:f32x32[4] = load_payload %3, %4, %3[1], %4[1], %3[2], %4[2], %3[3], %4[3]
         %10:f32x32 = add %0, 1.0:f32
         %11:f32x32 = mul %10, %10
         %12:f32x32 = add %11, 2.0:f32
         %13:f32x32 = mul %12, %12
         %14:f32x32 = add %13, 3.0:f32
         %15:f32x32 = mul %14, %14
         %16:f32x32 = add %15, 4.0:f32
         %17:f32x32 = mul %16, %16
         %18:f32x32 = add %17, 5.0:f32
         %19:f32x32 = mul %18, %18
         %8:f32x32 = mad %19, %5[2], %5[2]
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )", "ra", R"(
         %19:f32x32@g[[s]] = mul %18, %18
         %[[e]]:f32x16@g[[r]] = mad %19, %3[2], %3[2]
         %[[f]]:f32x16+16@g[[_]] = mad %19.64, %4[2], %4[2]
         %8:f32x32@g[[r]] = load_payload %[[e]], %[[f]]
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )"));
}

/* nexuiz/25.fs at SIMD16: sample_d cannot run at SIMD16 (its payload
 * would pass the message length limit), so each component of a sample
 * is zipped from two SIMD8 results, two movs.  A reader splitting into
 * SIMD8 pieces costs one instruction: %8 (one zip) and %9 (two) read the
 * results in place; the zip of %7[3], whose two readers would cost what
 * its movs do, stays.
 */
TEST_F(ra_test, simd16_readers_of_simd8_result_zips_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16 lowered
      hw %0:f32x16@g2
      hw %1:u32x8@g4
      hw %2:u32x8[5]@g5
      hw %3:u32x8+8@g10
      hw %4:u32x8+8[5]@g11
      block0:
         %5:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %1, %2
         %6:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %3, %4
         %7:f32x16[4] = load_payload %5, %6, %5[1], %6[1], %5[2], %6[2], %5[3], %6[3]
         %8:f32x16 = add %7, -0.5:f32
         %9:f32x16 = mad %8, %7[1], %7[2]
         %10:f32x16 = mul %7[3], %0
         %11:f32x16 = add %7[3], %9
         %12:f32x16 = mad %11, %10, %9
         untyped_write_logical 0:u32, %12, %12, 1:u32
   )", "ra", R"(
         %[[z]]:f32x16@g[[_]] = load_payload %5[3], %6[3]
         %[[a]]:f32x8@g[[p]] = add %5, -0.5:f32
         %[[b]]:f32x8+8@g[[_]] = add %6, -0.5:f32
         %8:f32x16@g[[p]] = load_payload %[[a]], %[[b]]
         %[[c]]:f32x8@g[[q]] = mad %8, %5[1], %5[2]
         %[[d]]:f32x8+8@g[[_]] = mad %8.32, %6[1], %6[2]
         %9:f32x16@g[[q]] = load_payload %[[c]], %[[d]]
         %10:f32x16@g[[_]] = mul %[[z]], %0
         %11:f32x16@g[[_]] = add %[[z]], %9
         %12:f32x16@g[[_]] = mad %11, %10, %9
         untyped_write_logical 0:u32, %12, %12, 1:u32
   )"));
}

/* nexuiz/25.fs at SIMD32: sample_d runs as four SIMD8 messages, each
 * component zipped from four results (four movs).  A SIMD32 reader costs
 * two instructions more as four SIMD8 pieces, each reading its result in
 * place: %10 (one zip) and %11 (another, read twice) split.
 */
TEST_F(ra_test, simd32_readers_of_simd8_result_zips_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x8@g6
      hw %2:u32x8+8@g7
      hw %3:u32x8+16@g8
      hw %4:u32x8+24@g9
      block0:
         %5:f32x8[2] = send 2:u32, 0x2220001:u32, 0:u32, %1, _
         %6:f32x8+8[2] = send 2:u32, 0x2220001:u32, 0:u32, %2, _
         %7:f32x8+16[2] = send 2:u32, 0x2220001:u32, 0:u32, %3, _
         %8:f32x8+24[2] = send 2:u32, 0x2220001:u32, 0:u32, %4, _
         %9:f32x32[2] = load_payload %5, %6, %7, %8, %5[1], %6[1], %7[1], %8[1]
         %10:f32x32 = mul %9, %0
         %11:f32x32 = mad %10, %9[1], %9[1]
         untyped_write_logical 0:u32, %11, %11, 1:u32
   )", "ra", R"(
         %[[a]]:f32x8@g[[p]] = mul %5, %0
         %[[b]]:f32x8+8@g[[_]] = mul %6, %0.32
         %[[c]]:f32x8+16@g[[_]] = mul %7, %0.64
         %[[d]]:f32x8+24@g[[_]] = mul %8, %0.96
         %10:f32x32@g[[p]] = load_payload %[[a]], %[[b]], %[[c]], %[[d]]
         %[[e]]:f32x8@g[[q]] = mad %10, %5[1], %5[1]
         %[[f]]:f32x8+8@g[[_]] = mad %10.32, %6[1], %6[1]
         %[[g]]:f32x8+16@g[[_]] = mad %10.64, %7[1], %7[1]
         %[[h]]:f32x8+24@g[[_]] = mad %10.96, %8[1], %8[1]
         %11:f32x32@g[[q]] = load_payload %[[e]], %[[f]], %[[g]], %[[h]]
         untyped_write_logical 0:u32, %11, %11, 1:u32
   )"));
}

/* nexuiz/25.fs at SIMD16: the gradients of a sample_d, SIMD16 values,
 * are read only by the payloads of the two SIMD8 messages.  Each value
 * becomes its two SIMD8 halves, computed in the payloads that read them
 * (four copies before, one instruction more per value).  %0 is read
 * whole too: its halves are copied.  The sample's zip has one reader,
 * which splits.
 */
TEST_F(ra_test, simd16_payload_halves_are_computed_in_place)
{
   const char *in = R"(
      shader fs simd16 lowered
      hw %0:f32x16@g2
      hw %1:f32x16@g4
      block0:
         %2:f32x16 = add %0, 0.5:f32
         %3:f32x16 = mul %1, 2.0:f32
         %4:u32x8 = load_payload %0:u32
         %5:u32x8[5] = load_payload %2:u32, %3:u32, _, _, _
         %6:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %4, %5
         %7:u32x8+8 = load_payload %0.32:u32
         %8:u32x8+8[5] = load_payload %2.32:u32, %3.32:u32, _, _, _
         %9:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %7, %8
         %10:f32x16 = load_payload %6, %9
         %11:f32x16 = add %10, %0
         untyped_write_logical 0:u32, %11, %11, 1:u32
   )";
   EXPECT_TRUE(check_pass(in, "ra", R"(
         %[[a]]:f32x8@g[[p]] = add %0, 0.5:f32
         %[[b]]:f32x8+8@g[[q]] = add %0.32, 0.5:f32
         %[[c]]:f32x8@g[[_]] = mul %1, 2.0:f32
         %[[d]]:f32x8+8@g[[_]] = mul %1.32, 2.0:f32
         %4:u32x8@g[[_]] = load_payload %0:u32
         %5:u32x8[5]@g[[p]] = load_payload %[[a]]:u32, %[[c]]:u32, _, _, _
         %6:f32x8[4]@g[[_]] = send 2:u32, 0x2424001:u32, 320:u32, %4, %5
         %7:u32x8+8@g[[_]] = load_payload %0.32:u32
         %8:u32x8+8[5]@g[[q]] = load_payload %[[b]]:u32, %[[d]]:u32, _, _, _
         %9:f32x8+8[4]@g[[_]] = send 2:u32, 0x2424001:u32, 320:u32, %7, %8
         %[[e]]:f32x8@g[[r]] = add %6, %0
         %[[f]]:f32x8+8@g[[_]] = add %9, %0.32
         %11:f32x16@g[[r]] = load_payload %[[e]], %[[f]]
         untyped_write_logical 0:u32, %11, %11, 1:u32
   )"));
   std::string out;
   ibis::ra_result r = allocate(in, &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
   /* Each payload holds both its halves in place. */
   auto s = ibis::parse_shader(out);
   for (unsigned id : {5u, 8u}) {
      const ibis::instr *lp = s->find_value(id)->def();
      ASSERT_NE(lp, nullptr) << out;
      const unsigned nr = s->find_value(id)->phys.nr;
      EXPECT_EQ(lp->src(0).val->phys.nr, nr) << out;
      EXPECT_EQ(lp->src(1).val->phys.nr, nr + 1) << out;
      EXPECT_EQ(lp->src(0).val->width, 8u) << out;
   }
}

/* A SIMD16 value read only as the whole of two one-register SIMD8
 * payloads (a sample_d's first part, u) stays whole: the payloads take
 * its halves in place, and two SIMD8 adds would cost one more.
 */
TEST_F(ra_test, simd16_value_of_one_register_payloads_stays_whole)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16 lowered
      hw %0:f32x16@g2
      hw %1:u32x8[5]@g4
      hw %2:u32x8+8[5]@g9
      block0:
         %3:f32x16 = add %0, 0.5:f32
         %4:u32x8 = load_payload %3:u32
         %5:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %4, %1
         %6:u32x8+8 = load_payload %3.32:u32
         %7:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %6, %2
         %8:f32x16 = load_payload %5, %7
         untyped_write_logical 0:u32, %8, %8, 1:u32
   )", "ra", R"(
      block0:
         %3:f32x16@g[[p]] = add %0, 0.5:f32
         %4:u32x8@g[[p]] = load_payload %3:u32
         ...
   )"));
}

/* nexuiz/25.fs at SIMD16: the coordinate %4 a loop advances (%5) is
 * sampled by SIMD8 sample_d messages in the loop and after it.  The web
 * splits into SIMD8 halves, each written in its payloads: per iteration
 * the mad costs one more and the two copies into the payloads go, and
 * after the loop two more; before the loop the halves of %2 are copied
 * (here one lies in place).  %1, the whole of each SIMD8 payload, keeps
 * its halves in place unsplit.
 */
TEST_F(ra_test, simd16_loop_phi_read_by_simd8_payloads_is_split)
{
   const char *in = R"(
      shader fs simd16 lowered
      hw %0:f32x16@g2
      hw %1:f32x16@g4
      uniform %9:u32x1[8]@g10
      block0:
         %2:f32x16 = add %0, 1.0:f32
         %3:f32x16 = add %0, 0.5:f32
      block1:
         do
         %4:f32x16 = phi %2, %5
         %15:flagx16 = cmp.l %0, %9:f32
         (-%15) break
      block2:
         %6:u32x8 = load_payload %1:u32
         %7:u32x8[5] = load_payload %3:u32, %4:u32, _, _, _
         %8:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %6, %7
         %10:u32x8+8 = load_payload %1.32:u32
         %11:u32x8+8[5] = load_payload %3.32:u32, %4.32:u32, _, _, _
         %12:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %10, %11
         %13:f32x16 = load_payload %8[3], %12[3]
         %14:f32x16 = add %13, 1.0:f32
         %5:f32x16 = mad %4, %14, %0
         while
      block3:
         %16:u32x8 = load_payload %1:u32
         %17:u32x8[5] = load_payload %3:u32, %4:u32, _, _, _
         %18:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %16, %17
         %19:u32x8+8 = load_payload %1.32:u32
         %20:u32x8+8[5] = load_payload %3.32:u32, %4.32:u32, _, _, _
         %21:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %19, %20
         %22:f32x16 = load_payload %18, %21
         untyped_write_logical 0:u32, %22, %22, 1:u32
   )";
   EXPECT_TRUE(check_pass(in, "ra", R"(
      block0:         ; succs: block1
         %2:f32x16@g[[_]] = add %0, 1.0:f32
         %[[a]]:f32x8@g[[q]] = add %0, 0.5:f32
         %[[b]]:f32x8+8@g[[r]] = add %0.32, 0.5:f32
         ...
      block2:         ; preds: block1 succs: block1
         %6:u32x8@g[[_]] = load_payload %1:u32
         %7:u32x8[5]@g[[q]] = load_payload %[[a]]:u32, %[[p0]]:u32, _, _, _
         %8:f32x8[4]@g[[_]] = send 2:u32, 0x2424001:u32, 320:u32, %6, %7
         %10:u32x8+8@g[[_]] = load_payload %1.32:u32
         %11:u32x8+8[5]@g[[r]] = load_payload %[[b]]:u32, %[[p1]]:u32, _, _, _
         %12:f32x8+8[4]@g[[_]] = send 2:u32, 0x2424001:u32, 320:u32, %10, %11
         %[[c]]:f32x8@g[[_]] = add %8[3], 1.0:f32
         %[[d]]:f32x8+8@g[[_]] = add %12[3], 1.0:f32
         %14:f32x16@g[[_]] = load_payload %[[c]], %[[d]]
         %[[p0]] = mad %[[p0]], %14, %0
         %[[p1]] = mad %[[p1]], %14.32, %0.32
         while
      block3:         ; preds: block1
         %16:u32x8@g[[_]] = load_payload %1:u32
         %17:u32x8[5]@g[[q]] = load_payload %[[a]]:u32, %[[p0]]:u32, _, _, _
         %18:f32x8[4]@g[[_]] = send 2:u32, 0x2424001:u32, 320:u32, %16, %17
         %19:u32x8+8@g[[_]] = load_payload %1.32:u32
         %20:u32x8+8[5]@g[[r]] = load_payload %[[b]]:u32, %[[p1]]:u32, _, _, _
         ...
   )"));
   std::string out;
   ibis::ra_result r = allocate(in, &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
   /* Each half lies in its payloads' slot, in the loop and after it. */
   auto s = ibis::parse_shader(out);
   for (unsigned id : {7u, 11u, 17u, 20u}) {
      const ibis::instr *lp = s->find_value(id)->def();
      ASSERT_NE(lp, nullptr) << out;
      EXPECT_EQ(lp->src(1).val->phys.nr, s->find_value(id)->phys.nr + 1) << out;
   }
}

/* nexuiz/37.fs at SIMD32: interpolated coordinates (WLR values written
 * by pln halves) and the ALU results between the samples are read only by
 * SIMD16 payload halves (the planes are one push constant value per
 * register).  Each half becomes a value of its own, computed
 * in the payload that reads it: no coordinate copies, no zip of the
 * texture halves and no unzip into the RT write (24 -> 16 instructions).
 */
TEST_F(ra_test, simd32_halves_are_computed_in_their_payloads)
{
   const char *in = R"(
      shader fs simd32 lowered
      hw %0:f32x8[4]@g3
      hw %1:f32x8[4]@g7
      uniform %2:u32x1[16]@g12
      wlr %3:f32x32
      wlr %4:f32x32
      block0:
         %3 = pln(16) %2:f32, %0
         %3.64 = pln(16+16) %2:f32, %1
         %4 = pln(16) %2[4]:f32, %0
         %4.64 = pln(16+16) %2[4]:f32, %1
         %5:f32x32[2] = load_payload %3, %4
         %6:u32x16[2] = load_payload %5:u32, %5[1]:u32
         %7:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %6, _
         %8:u32x16+16[2] = load_payload %5.64:u32, %5[1].64:u32
         %9:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %8, _
         %10:f32x32[4] = load_payload %7, %9, %7[1], %9[1], %7[2], %9[2], %7[3], %9[3]
         %11:f32x32 = mul %10[3], %10
         %12:f32x32 = add %11, -%2[8]:f32
         %13:u32x32[4] = load_payload %12:u32, %10[1]:u32, %10[2]:u32, %10[3]:u32
         %14:u32x16[4] = load_payload %13, %13[1], %13[2], %13[3]
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %14, _
         %15:u32x16+16[4] = load_payload %13.64, %13[1].64, %13[2].64, %13[3].64
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %15, _ {EOT}
   )";
   EXPECT_TRUE(check_pass(in, "ra", R"(
      block0:
         %[[a]]:f32x16@g[[p]] = pln %[[u]]:f32, %0
         %[[b]]:f32x16+16@g[[q]] = pln %[[u]]:f32, %1
         %[[c]]:f32x16@g[[_]] = pln %[[u]][4]:f32, %0
         %[[d]]:f32x16+16@g[[_]] = pln %[[u]][4]:f32, %1
         %6:u32x16[2]@g[[p]] = load_payload %[[a]]:u32, %[[c]]:u32
         %7:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %6, _
         %8:u32x16+16[2]@g[[q]] = load_payload %[[b]]:u32, %[[d]]:u32
         %9:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %8, _
         %[[g]]:f32x16@g[[_]] = mul %7[3], %7
         %[[h]]:f32x16+16@g[[_]] = mul %9[3], %9
         %[[i]]:f32x16@g[[r]] = add %[[g]], -%[[w]]:f32
         %[[j]]:f32x16+16@g[[s]] = add %[[h]], -%[[w]]:f32
         %14:u32x16[4]@g[[r]] = load_payload %[[i]]:u32, %7[1]:u32, %7[2]:u32, %7[3]:u32
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %14, _
         %15:u32x16+16[4]@g[[s]] = load_payload %[[j]]:u32, %9[1]:u32, %9[2]:u32, %9[3]:u32
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %15, _ {EOT}
   )"));
   std::string out;
   ibis::ra_result r = allocate(in, &out, false);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   /* Every pln half and add half sits at its place in the payload. */
   const auto &ins = s->blocks()[0]->instrs();
   std::vector<const ibis::instr *> v(ins.begin(), ins.end());
   EXPECT_EQ(v[2]->dst().val->phys.nr, v[0]->dst().val->phys.nr + 2) << out;
   EXPECT_EQ(v[3]->dst().val->phys.nr, v[1]->dst().val->phys.nr + 2) << out;

   /* Without split_halves (the compiler's fallback) the values stay whole. */
   auto whole = ibis::parse_shader(ibis::testing::dedent(in));
   ibis::ra_options o;
   o.allow_spilling = false;
   o.split_halves = false;
   r = ibis::allocate_registers(*whole, ibis::device_by_name("skl"), o);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_NE(whole->str().find("%3.64 = pln(16+16)"), std::string::npos)
      << whole->str();
}

/* A phi at an if's join whose value is read only by SIMD16 halves
 * becomes a phi per half: each half lands in its own payload (the EOT
 * one in g112+) with no payload copies after the join, and each half's
 * phi web (the add, the mul that overwrites it in place, the phi) is one
 * register, so no edge copy is left either.
 */
TEST_F(ra_test, simd32_phi_read_by_halves_is_split)
{
   const char *in = R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %1:f32x32 = add %0, 1.0:f32
         %2:flagx32 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x32 = mul %1, %0
      block2:
         endif
         %4:f32x32 = phi %1, %3
         %5:u32x16 = load_payload(16) %4:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %5, _
         %6:u32x16+16 = load_payload(16+16) %4.64:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %6, _ {EOT}
   )";
   EXPECT_TRUE(check_pass(in, "ra", R"(
      block0:         ; succs: block1 block2
         %[[a]]:f32x16@g[[p]] = add %0, 1.0:f32
         %[[b]]:f32x16+16@g112 = add %0.64, 1.0:f32
         %2:flagx32@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %[[a]] = mul %[[a]], %0
         %[[b]] = mul %[[b]], %0.64
      block2:         ; preds: block0 block1
         endif
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %[[a]]:u32, _
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %[[b]]:u32, _ {EOT}
   )"));

   /* split_phi_halves = false (the compiler's fallback): the phi's value
    * stays one SIMD32 value.
    */
   auto whole = ibis::parse_shader(ibis::testing::dedent(in));
   ibis::ra_options o;
   o.allow_spilling = false;
   o.split_phi_halves = false;
   ibis::ra_result r = ibis::allocate_registers(*whole, ibis::device_by_name("skl"), o);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_NE(whole->str().find("load_payload %7.64:u32"), std::string::npos)
      << whole->str();
}

/* humus-volumetricfogging2/1.fs at SIMD32: loop phis of coordinates that
 * the loop's SIMD16 sampler payloads read by halves.  The phis split with
 * the adds that make their back-edge values, so each half's web (initial
 * value, phi, add) is written where its payload reads it; whole, one of
 * x and y was copied into each half's payload every iteration (two
 * mov(16) per sample).
 */
TEST_F(ra_test, simd32_loop_phi_read_by_halves_is_split)
{
   const char *in = R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      uniform %9:u32x1[8]@g10
      block0:
         %1:f32x32 = add %0, 1.0:f32
         %2:f32x32 = mul %0, 2.0:f32
      block1:
         do
         %3:f32x32 = phi %1, %5
         %4:f32x32 = phi %2, %6
         %5:f32x32 = add %3, 0.5:f32
         %6:f32x32 = add %4, 0.25:f32
         %7:u32x16[2] = load_payload(16) %5:u32, %6:u32
         %8:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %7, _
         %10:u32x16+16[2] = load_payload(16+16) %5.64:u32, %6.64:u32
         %11:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %10, _
         %12:flagx32 = cmp.z %9:s32, 0:s32 {WE_all}
         (+%12) while
      block2:
         %13:u32x16[4] = load_payload(16) %8:u32, %8[1]:u32, %8[2]:u32, %8[3]:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %13, _
         %14:u32x16+16[4] = load_payload(16+16) %11:u32, %11[1]:u32, %11[2]:u32, %11[3]:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %14, _ {EOT}
   )";
   EXPECT_TRUE(check_pass(in, "ra", R"(
      block0:         ; succs: block1
         %[[x0]]:f32x16@g[[_]] = add %0, 1.0:f32
         %[[x1]]:f32x16+16@g[[_]] = add %0.64, 1.0:f32
         %[[y0]]:f32x16@g[[_]] = mul %0, 2.0:f32
         %[[y1]]:f32x16+16@g[[_]] = mul %0.64, 2.0:f32
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %[[x0]] = add %[[x0]], 0.5:f32
         %[[x1]] = add %[[x1]], 0.5:f32
         %[[y0]] = add %[[y0]], 0.25:f32
         %[[y1]] = add %[[y1]], 0.25:f32
         %7:u32x16[2]@g[[_]] = load_payload %[[x0]]:u32, %[[y0]]:u32
         %8:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %7, _
         %10:u32x16+16[2]@g[[_]] = load_payload %[[x1]]:u32, %[[y1]]:u32
         %11:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %10, _
         %12:flagx32@f0.0 = cmp.z %9:s32, 0:s32 {WE_all}
         (+%12) while
      ...
   )"));

   /* split_phi_halves = false (the compiler's fallback): the phis stay
    * whole.
    */
   auto whole = ibis::parse_shader(ibis::testing::dedent(in));
   ibis::ra_options o;
   o.allow_spilling = false;
   o.split_phi_halves = false;
   ibis::ra_result r = ibis::allocate_registers(*whole, ibis::device_by_name("skl"), o);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_NE(whole->str().find(":f32x32@g"), std::string::npos)
      << whole->str();
   EXPECT_EQ(whole->str().find(":f32x16@g"), std::string::npos)
      << whole->str();
}

/* glamor/73.fs at SIMD32: a phi at an if's join takes one component of
 * a texture result zipped from its two SIMD16 halves.  The phi splits
 * into halves all the same, each taking its half of the component from
 * that half's result, so the zip goes: before, the whole vector was
 * zipped (eight movs) and the component copied whole into the phi web.
 */
TEST_F(ra_test, simd32_phi_of_a_vector_component_is_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x16@g6
      hw %2:u32x16@g8
      uniform %9:u32x1[8]@g10
      block0:
         %3:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %5:f32x32[4] = load_payload %3, %4, %3[1], %4[1], %3[2], %4[2], %3[3], %4[3]
         %6:flagx32 = cmp.z %9:s32, 0:s32 {WE_all}
         (-%6) if
      block1:
         %7:f32x32 = mul %5, %5[2]
      block2:
         endif
         %8:f32x32 = phi %5[1], %7
         %10:u32x16[2] = load_payload(16) %8:u32, %5[3]:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %10, _
         %11:u32x16+16[2] = load_payload(16+16) %8.64:u32, %5[3].64:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %11, _ {EOT}
   )", "ra", R"(
      block0:         ; succs: block1 block2
         %3:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %6:flagx32@f0.0 = cmp.z %9:s32, 0:s32 {WE_all}
         %[[a]]:f32x16@g[[_]] = load_payload %3[1]
         %[[b]]:f32x16+16@g[[_]] = load_payload %4[1]
         %[[c]]:f32x16@g[[_]] = copy %[[a]]
         %[[d]]:f32x16+16@g112 = copy %[[b]]
         (-%6) if
      block1:         ; preds: block0 succs: block2
         %[[c]] = mul %3, %3[2]
         %[[d]] = mul %4, %4[2]
      block2:         ; preds: block0 block1
         endif
         %10:u32x16[2]@g[[_]] = load_payload %[[c]]:u32, %3[3]:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %10, _
         %11:u32x16+16[2]@g112 = load_payload %[[d]]:u32, %4[3]:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %11, _ {EOT}
   )"));
}

/* humus-hdr/1.fs at SIMD32: an undefined alpha in both RT write halves.
 * The undef splits like any value read by halves; whole, its second half
 * was copied into the EOT payload (128 -> 127 instructions, brw 127).
 */
TEST_F(ra_test, simd32_undef_read_by_halves_is_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %1:f32x32 = add %0, 1.0:f32
         %2:f32x32 = undef
         %3:u32x16[2] = load_payload(16) %1:u32, %2:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %3, _
         %4:u32x16+16[2] = load_payload(16+16) %1.64:u32, %2.64:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %4, _ {EOT}
   )", "ra", R"(
      block0:
         %[[a]]:f32x16@g[[p]] = add %0, 1.0:f32
         %[[b]]:f32x16+16@g112 = add %0.64, 1.0:f32
         %[[c]]:f32x16@g[[_]] = undef
         %[[d]]:f32x16+16@g114 = undef
         %3:u32x16[2]@g[[p]] = load_payload %[[a]]:u32, %[[c]]:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %3, _
         %4:u32x16+16[2]@g112 = load_payload %[[b]]:u32, %[[d]]:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %4, _ {EOT}
   )"));
}

/* glamor/82.fs at SIMD32: a chain of compares (lower_flag_chains: the
 * second predicated on the first's flag) whose last flag only predicates
 * of halves read splits link by link, so the difference they compare is
 * computed in halves from the two texture results, without zipping them
 * (four movs; 130 -> 126 instructions, brw 127).
 */
TEST_F(ra_test, simd32_flag_chain_read_by_halves_is_split)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x16@g6
      hw %2:u32x16@g8
      block0:
         %3:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %5:f32x32 = load_payload %3, %4
         %6:f32x32 = load_payload %3[1], %4[1]
         %7:f32x32 = add %6, -%5
         %8:flagx32 = cmp.l %7, 0.000001:f32
         (-%8) %9:flagx32 = cmp.g %7, 2.0:f32
         (-%9) %10:f32x32 = sel %7, %0
         %11:u32x16 = mov(16) %10:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %11, _
         %12:u32x16+16 = mov(16+16) %10.64:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %12, _ {EOT}
   )", "ra", R"(
      block0:
         %3:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %[[a]]:f32x16@g[[_]] = add %3[1], -%3
         %[[b]]:f32x16+16@g[[_]] = add %4[1], -%4
         %[[f]]:flagx16@f[[_]].[[_]] = cmp.l %[[a]], 1e-06:f32
         %[[g]]:flagx16+16@f[[_]].[[_]] = cmp.l %[[b]], 1e-06:f32
         (-%[[f]]) %[[h]]:flagx16@f[[_]].[[_]] = cmp.g %[[a]], 2.0:f32
         (-%[[g]]) %[[i]]:flagx16+16@f[[_]].[[_]] = cmp.g %[[b]], 2.0:f32
         (-%[[h]]) %[[c]]:f32x16@g[[_]] = sel %[[a]], %0
         (-%[[i]]) %[[d]]:f32x16+16@g[[_]] = sel %[[b]], %0.64
   ...
   )"));
}

/* tesseract/283.fs at SIMD32 (brw: "mov(1) g125.2" into the header the
 * previous write read) and tesseract/500.fs at SIMD16: an RT header
 * copied again from g0-g1 after every read of an earlier copy, setting
 * the dwords that one set and more, is that copy with its dwords
 * written over (%5 over %4, moved down to %5's send so %4 dies there
 * and the preserve write is tied without a copy).  %6 sets only dword 2
 * where the chain set dword 0 too (the src0-alpha bit): built again.
 */
TEST_F(ra_test, rt_header_copy_is_reused_after_its_reads)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16 lowered
      hw %0:u32x16[4]@g2
      hw %1:u32x8[2]@g0
      hw %2:u32x8@g0
      hw %3:u32x8@g1
      wlr %4:u32x8[2]
      wlr %5:u32x8[2]
      wlr %6:u32x8[2]
      block0:
         %4 = load_payload %2, %3 {WE_all}
         %4.8 = mov(1) 1:u32 {WE_all}
         %5 = load_payload %2, %3 {WE_all}
         %5.0 = or(1) %2, 2048:u32 {WE_all}
         %5.8 = mov(1) 2:u32 {WE_all}
         %6 = load_payload %2, %3 {WE_all}
         %6.8 = mov(1) 3:u32 {WE_all}
         %7:u32x16[4] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b0000:u32, 512:u32, %1, %7
         %8:u32x16[4] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b0001:u32, 512:u32, %4, %8
         %9:u32x16[4] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b0002:u32, 512:u32, %5, %9
         %10:u32x16[4] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b1003:u32, 512:u32, %6, %10 {EOT}
   )", "ra", R"(
      wlr %4:u32x8[2]@g[[h]]
      wlr %5:u32x8[2]
      wlr %6:u32x8[2]@g[[_]]
      ...
      block0:
         %4 = load_payload %2, %3 {WE_all}
         %4.8 = mov(1) 1:u32 {WE_all}
         %6 = load_payload %2, %3 {WE_all}
         %6.8 = mov(1) 3:u32 {WE_all}
         %7:u32x16[4]@g[[c]] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b0000:u32, 512:u32, %1, %7
         %8:u32x16[4]@g[[c]] = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b0001:u32, 512:u32, %4, %8
         %9:u32x16[4]@g[[c]] = load_payload %0, %0[1], %0[2], %0[3]
         %[[a]]:u32x8[2]@g[[h]] = or(1) %2, 2048:u32, preserve %4 {WE_all}
         %[[b]]:u32x8[2]@g[[h]].8 = mov(1) 2:u32, preserve %[[a]] {WE_all}
         _ = send 5:u32, 0x40b0002:u32, 512:u32, %[[b]], %9
         %10:u32x16[4]@g112 = load_payload %0, %0[1], %0[2], %0[3]
         _ = send 5:u32, 0x40b1003:u32, 512:u32, %6, %10 {EOT}
   )"));
}

/* A SIMD32 value read whole by a SIMD32 instruction stays whole, also
 * where payload halves read it (%1, %2), and so does a flag an if reads
 * (%3); a cmp whose flag only predicates of halves read splits into two
 * SIMD16 flags (%7).
 */
TEST_F(ra_test, simd32_values_read_whole_stay_whole)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %1:f32x32 = add %0, 1.0:f32
         %2:f32x32 = mul %1, %1
         %3:flagx32 = cmp.l %2, 0.5:f32
         %4:u32x16[2] = load_payload(16) %1:u32, %2:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %4, _
         %5:u32x16+16[2] = load_payload(16+16) %1.64:u32, %2.64:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %5, _
         (+%3) if
      block1:
         %6:f32x32 = mul %2, %0
         %7:flagx32 = cmp.l %0, %6
         (+%7) %8:f32x32 = sel %6, %1
         %9:u32x16 = mov(16) %8:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %9, _
         %10:u32x16+16 = mov(16+16) %8.64:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %10, _
      block2:
         endif
   )", "ra", R"(
      block0:         ; succs: block1 block2
         %1:f32x32@g[[_]] = add %0, 1.0:f32
         %2:f32x32@g[[_]] = mul %1, %1
         %3:flagx32@f[[_]].[[_]] = cmp.l %2, 0.5:f32
         %4:u32x16[2]@g[[_]] = load_payload %1:u32, %2:u32
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %4, _
         %5:u32x16+16[2]@g[[_]] = load_payload %1.64:u32, %2.64:u32
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %5, _
         (+%3) if
      block1:         ; preds: block0 succs: block2
         %[[a]]:f32x16@g[[_]] = mul %2, %0
         %[[b]]:f32x16+16@g[[_]] = mul %2.64, %0.64
         %[[f]]:flagx16@f[[_]].[[_]] = cmp.l %0, %[[a]]
         %[[g]]:flagx16+16@f[[_]].[[_]] = cmp.l %0.64, %[[b]]
         (+%[[f]]) %[[c]]:f32x16@g[[_]] = sel %[[a]], %1
         (+%[[g]]) %[[d]]:f32x16+16@g[[_]] = sel %[[b]], %1.64
         %9:u32x16@g[[_]] = mov %[[c]]:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %9, _
         %10:u32x16+16@g[[_]] = mov %[[d]]:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %10, _
      block2:         ; preds: block0 block1
         endif
   )"));
}

/* A compare kept for its flag alone (opt_dce makes its destination null)
 * splits like one without a destination, and so the value it reads can
 * (tesseract/367.fs SIMD32: 20 copies fewer).
 */
TEST_F(ra_test, simd32_flag_write_with_a_null_destination_splits)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %1:f32x32 = add %0, 1.0:f32
         _, %2:flagx32 = cmp.l %1, 0.5:f32
         (+%2) %3:f32x32 = sel %1, %0
         %4:u32x16 = mov(16) %3:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %4, _
         %5:u32x16+16 = mov(16+16) %3.64:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %5, _ {EOT}
   )", "ra", R"(
      block0:
         %[[a]]:f32x16@g[[_]] = add %0, 1.0:f32
         %[[b]]:f32x16+16@g[[_]] = add %0.64, 1.0:f32
         %[[f]]:flagx16@f[[_]].[[_]] = cmp.l %[[a]], 0.5:f32
         %[[g]]:flagx16+16@f[[_]].[[_]] = cmp.l %[[b]], 0.5:f32
         (+%[[f]]) %[[c]]:f32x16@g[[_]] = sel %[[a]], %0
         (+%[[g]]) %[[d]]:f32x16+16@g[[_]] = sel %[[b]], %0.64
   ...
   )"));
}

/* A broadcast with a computed index reads any channel of its value, so
 * a value it reads stays whole even where payload halves read it too
 * (random fs seed 227: the broadcast read the first half only).
 */
TEST_F(ra_test, simd32_value_broadcast_stays_whole)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      block0:
         %1:f32x32 = add %0, 1.0:f32
         %2:u32x1 = find_live_channel {WE_all}
         %3:u32x1 = broadcast %1:u32, %2 {WE_all}
         %4:u32x16[2] = load_payload(16) %1:u32, %3
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %4, _
         %5:u32x16+16[2] = load_payload(16+16) %1.64:u32, %3
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %5, _ {EOT}
   )", "ra", R"(
      block0:
         %1:f32x32@g[[_]] = add %0, 1.0:f32
         %2:u32x1@g[[_]] = find_live_channel {WE_all}
         %3:u32x1@g[[_]].[[_]] = broadcast %1:u32, %2 {WE_all}
         %4:u32x16[2]@g[[_]] = load_payload %1:u32, %3
         _ = send(16) 5:u32, 0x8031000:u32, 0:u32, %4, _
         %5:u32x16+16[2]@g[[_]] = load_payload %1.64:u32, %3
         _ = send(16+16) 5:u32, 0x8031800:u32, 0:u32, %5, _ {EOT}
   )"));
}

/* Components of a split vector that nobody reads are not built. */
TEST_F(ra_test, unread_split_components_are_dropped)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16 = add %0, 2.0:f32
         %3:f32x16 = add %0, 3.0:f32
         %4:f32x16[3] = load_payload %1, %2, %3
         %5:f32x16 = mul %4[2], %4
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", "ra", R"(
      block0:
         %1:f32x16@g[[a]] = add %0, 1.0:f32
         %2:f32x16@g[[_]] = add %0, 2.0:f32
         %3:f32x16@g[[c]] = add %0, 3.0:f32
         %5:f32x16@g[[_]] = mul %3, %1
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )"));
}

/* warsow/25.fs at SIMD32: a phi at an if's join takes one component of
 * a texture result zipped from its two SIMD16 halves, and a SIMD32 cmp
 * reads the phi whole, so the phi stays whole.  The phi reads that
 * component only, so the zip splits by components like any vector read
 * within them: only the component the phi reads is zipped (two movs),
 * where all four were (eight movs, then the component copied into the
 * phi's web: warsow/25.fs SIMD32 562 -> 501 instructions).
 */
TEST_F(ra_test, phi_of_one_zipped_component_splits_the_zip)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd32 lowered
      hw %0:f32x32@g2
      hw %1:u32x16@g6
      hw %2:u32x16@g8
      uniform %9:u32x1[8]@g10
      block0:
         %6:flagx32 = cmp.z %9:s32, 0:s32 {WE_all}
         (-%6) if
      block1:
         %3:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %5:f32x32[4] = load_payload %3, %4, %3[1], %4[1], %3[2], %4[2], %3[3], %4[3]
      block2:
         endif
         %8:f32x32 = phi %0, %5[1]
         %10:flagx32 = cmp.l %8, %0
         (+%10) if
      block3:
         %11:u32x16 = load_payload(16) %0:u32
         _ = send(16) 5:u32, 0x4031000:u32, 0:u32, %11, _
         %12:u32x16+16 = load_payload(16+16) %0.64:u32
         _ = send(16+16) 5:u32, 0x4031800:u32, 0:u32, %12, _ {EOT}
      block4:
         endif
   )", "ra", R"(
      block0:         ; succs: block1 block2
         %6:flagx32@f0.0 = cmp.z %9:s32, 0:s32 {WE_all}
         %[[c]]:f32x32@g[[_]] = copy %0
         (-%6) if
      block1:         ; preds: block0 succs: block2
         %3:f32x16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %1, _
         %4:f32x16+16[4]@g[[_]] = send 2:u32, 0x8840001:u32, 0:u32, %2, _
         %[[c]] = load_payload %3[1], %4[1]
      block2:         ; preds: block0 block1 succs: block3 block4
         endif
         %10:flagx32@f0.0 = cmp.l %[[c]], %0
      ...
   )"));
}

/* nexuiz/94.fs: a component of a split vector that is a whole value of
 * its layout is that value, not a copy of it.  A copy would interfere
 * with the value wherever both live, so a payload gathering such copies
 * while the values live on (read again by a later payload) could not be
 * built in place: five movs per loop iteration there.  Here both
 * payloads are built in place.
 */
TEST_F(ra_test, whole_value_components_are_the_values)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8 lowered
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %2:f32x8 = add %0, 2.0:f32
         %3:f32x8[2] = load_payload %1, %2
         %4:u32x8[2] = load_payload %3[1]:u32, %3:u32
         _ = send 5:u32, 0x4031000:u32, 0:u32, %4, _ {side_effects}
         %5:u32x8[2] = load_payload %2:u32, %1:u32
         _ = send 5:u32, 0x4031000:u32, 0:u32, %5, _ {side_effects}
   )", "ra", R"(
      block0:
         %1:f32x8@g[[a]] = add %0, 1.0:f32
         %2:f32x8@g[[b]] = add %0, 2.0:f32
         %4:u32x8[2]@g[[b]] = load_payload %2:u32, %1:u32
         _ = send 5:u32, 0x4031000:u32, 0:u32, %4, _ {side_effects}
         %5:u32x8[2]@g[[b]] = load_payload %2:u32, %1:u32
         _ = send 5:u32, 0x4031000:u32, 0:u32, %5, _ {side_effects}
   )"));
}

/* A payload source that is one component of a send result may put the
 * whole result in the payload only where its other components are read
 * in place: here g[0] of the payload is another source, and the result's
 * first component is read after the gather (the validator rejected this:
 * "destination %3 overlaps source %1").
 */
TEST_F(ra_test, vector_component_in_payload_keeps_its_neighbors)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd16 lowered
      hw %0:f32x16[2]@g2
      block0:
         %1:f32x16[2] = send 2:u32, 0x8440001:u32, 0:u32, %0, _
         %3:u32x16[2] = load_payload %0[1]:u32, %1[1]:u32
         %4:f32x16[2] = send 2:u32, 0x8440001:u32, 0:u32, %3, _
         %5:f32x16 = mul %4, %1
         %6:u32x16[2] = load_payload %5:u32, %4[1]:u32
         _ = send 5:u32, 0x8031000:u32, 0:u32, %6, _ {EOT}
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_EQ(validator_error(out), "") << out;
   auto s = ibis::parse_shader(out);
   const ibis::value *res = s->find_value(1), *p = s->find_value(3);
   EXPECT_TRUE(res->phys.nr + 4 <= p->phys.nr || p->phys.nr + 4 <= res->phys.nr)
      << out;
}

/* An EOT send's payload lives in g112-g127. */
/* anholt/12.fs: a texture result read component by component into the
 * RT write payload lands there whole (brw samples straight into g112+);
 * a swizzled read cannot, and keeps its copies.
 */
TEST_F(ra_test, send_result_lands_in_the_eot_payload)
{
   for (bool swizzled : {false, true}) {
      std::string out;
      ibis::ra_result r = allocate(fill(R"(
         shader fs simd8 lowered
         hw %0:f32x8[2]@g2
         block0:
            %1:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %0, _
            %2:u32x8[4] = load_payload @@
            _ = send 5:u32, 0x8031400:u32, 0:u32, %2, _ {EOT}
      )", swizzled ? "%1[1]:u32, %1:u32, %1[2]:u32, %1[3]:u32"
                   : "%1:u32, %1[1]:u32, %1[2]:u32, %1[3]:u32"), &out);
      ASSERT_TRUE(r.success) << r.failure;
      auto s = ibis::parse_shader(out);
      const ibis::value *tex = s->find_value(1), *p = s->find_value(2);
      EXPECT_GE(p->phys.nr, 112u);
      EXPECT_EQ(tex->phys.nr == p->phys.nr, !swizzled) << out;
   }
}

TEST_F(ra_test, eot_payload_in_the_top_registers)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %2:f32x8[4] = load_payload %1, %1, %1, %1
         send 12:u32, 0x08031400:u32, 0:u32, %2, _ {EOT}
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   const ibis::value *p = s->find_value(2);
   EXPECT_GE(p->phys.nr, 112u);
   EXPECT_LE(p->phys.nr + 4u, 128u);
}

/* humus-dynamicbranching/34.fs: one value written to all four colour
 * slots (brw: the add writes g126, three movs fill g123-g125).  It is
 * computed in one of its slots, and the payload copies it into the other
 * three: three movs, not four.
 */
TEST_F(ra_test, value_read_at_several_payload_slots_sits_in_one)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %2:u32x8[4] = load_payload %1:u32, %1:u32, %1:u32, %1:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %2, _ {EOT}
   )", "ra", R"(
      block0:
         %1:f32x8@g[[p]] = add %0, 1.0:f32
         %2:u32x8[4]@g[[p]] = load_payload %1:u32, %1:u32, %1:u32, %1:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %2, _ {EOT}
   )"));
}

/* Width-1 values pack into one register by dwords. */
TEST_F(ra_test, uniform_values_pack)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      uniform %0:u32x1[4]@g4
      block0:
         %1:u32x1 = add %0, 1:u32 {WE_all}
         %2:u32x1 = add %0[1], 2:u32 {WE_all}
         %3:u32x1 = add %0[2], 3:u32 {WE_all}
         %4:u32x8 = add %1, %2
         %5:u32x8 = add %4, %3
         untyped_write_logical 0:u32, %5, %5, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   const ibis::value *a = s->find_value(1), *b = s->find_value(2),
                     *c = s->find_value(3);
   EXPECT_EQ(a->phys.nr, b->phys.nr);
   EXPECT_EQ(a->phys.nr, c->phys.nr);
   EXPECT_NE(a->phys.subreg, b->phys.subreg);
   EXPECT_NE(a->phys.subreg, c->phys.subreg);
   EXPECT_NE(b->phys.subreg, c->phys.subreg);
   EXPECT_EQ(a->phys.subreg % 4, 0u);
   /* The push constants (g4) and three packed scalars: g0-g2 for the
    * rest, nothing past g4.
    */
   EXPECT_LE(r.grfs_used, 5u);
}

/* 16-bit SIMD8 values take half a register each: of three such values,
 * two share a register.
 */
TEST_F(ra_test, half_register_values_pack)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      hw %0:u16x8@g2
      block0:
         %1:u16x8 = add %0, 1:u16
         %2:u16x8 = add %0, 2:u16
         %3:u16x8 = add %1, %2
         %4:u32x8 = mov %3
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   std::vector<unsigned> regs;
   for (unsigned id : {1u, 2u, 3u}) {
      const ibis::phys_reg &p = s->find_value(id)->phys;
      EXPECT_TRUE(p.subreg == 0 || p.subreg == 16) << out;
      regs.push_back(p.nr);
   }
   std::sort(regs.begin(), regs.end());
   EXPECT_NE(std::unique(regs.begin(), regs.end()), regs.end()) << out;
}

/* A push constant block is one value per register: g2, whose last read
 * is the first add, takes %2 while g3 is still to be read.  Read again
 * at the end, g2 stays taken.
 */
TEST_F(ra_test, push_constant_registers_free_at_their_last_read)
{
   const char *prog = R"(
      shader fs simd8
      hw %5:u32x8[2]@g0
      uniform %0:u32x1[16]@g2
      block0:
         %1:u32x8 = add %5, %0[1]
         %2:u32x8 = add %5[1], %0[9]
         %3:u32x8 = add %1, %2
         %4:u32x8 = add %3, %0[10]
         %6:u32x8 = mov %0[@@]<0,1,0>
         untyped_write_logical 0:u32, %4, %6, 1:u32
   )";
   EXPECT_TRUE(check_pass(fill(prog, "11"), "ra", R"(
      block0:
         %1:u32x8@g4 = add %5, %[[a]][1]
         %2:u32x8@g2 = add %5[1], %[[b]][1]
         %3:u32x8@g2 = add %1, %2
         %4:u32x8@g2 = add %3, %[[b]][2]
         %6:u32x8@g0 = mov %[[b]][3]<0,1,0>
         untyped_write_logical 0:u32, %4, %6, 1:u32
   )"));
   EXPECT_TRUE(check_pass(fill(prog, "7"), "ra", R"(
      block0:
         %1:u32x8@g4 = add %5, %[[a]][1]
         %2:u32x8@g5 = add %5[1], %[[b]][1]
         %3:u32x8@g4 = add %1, %2
         %4:u32x8@g4 = add %3, %[[b]][2]
         %6:u32x8@g0 = mov %[[a]][7]<0,1,0>
         untyped_write_logical 0:u32, %4, %6, 1:u32
   )"));
}

/* Push constants keep their register and nothing else lands there while
 * they are live; undef takes a register but blocks nothing.
 */
TEST_F(ra_test, fixed_registers_and_undef)
{
   std::string out;
   ibis::ra_result r = allocate(R"(
      shader fs simd8
      uniform %0:f32x1[8]@g0
      block0:
         %1:f32x8 = undef
         %2:f32x8 = add %0, 1.0:f32
         %3:f32x8 = add %2, %0[7]
         %4:f32x8 = add %3, %1
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )", &out);
   ASSERT_TRUE(r.success) << r.failure;
   auto s = ibis::parse_shader(out);
   EXPECT_EQ(s->find_value(0)->phys.nr, 0u);
   /* g0 is the push constants' until %3 reads %0[7]. */
   EXPECT_NE(s->find_value(2)->phys.nr, 0u);
   EXPECT_TRUE(s->find_value(1)->phys.valid());
   /* g0 for the push constants, one for %2 and %3 (%3 overwrites %2 in
    * place: same layout); the undef value adds none.
    */
   EXPECT_EQ(r.grfs_used, 2u);
}

/* Without spilling a program that needs more than 128 registers fails
 * with a reason; it never half-allocates silently.
 */
/* n SIMD32 values (4 GRFs each) live at once, then summed. */
static std::string
live_simd32_values(unsigned n)
{
   std::string text = "shader fs simd32\nhw %0:f32x32@g2\nblock0:\n";
   for (unsigned i = 1; i <= n; i++)
      text += "   %" + std::to_string(i) + ":f32x32 = add %0, " +
              std::to_string(i) + ".0:f32\n";
   std::string sum = "%1";
   for (unsigned i = 2; i <= n; i++) {
      text += "   %" + std::to_string(100 + i) + ":f32x32 = add " + sum + ", %" +
              std::to_string(i) + "\n";
      sum = "%" + std::to_string(100 + i);
   }
   return text + "   untyped_write_logical 0:u32, " + sum + ", " + sum + ", 1:u32\n";
}

TEST_F(ra_test, no_spilling_fails_cleanly)
{
   std::string out;
   ibis::ra_result r = allocate(live_simd32_values(40), &out, false);
   EXPECT_FALSE(r.success);
   EXPECT_NE(r.failure.find("SIMD32 needs spilling"), std::string::npos) << r.failure;
   EXPECT_GE(r.max_live, 160u);
}

/* Far over the register file (MaxLive beyond 128 + 16 GRFs) a width that
 * may not spill gives up without coloring; just over it, coloring is
 * tried, since MaxLive counts both sides of copies that coalesce, of ALU
 * writes in place and of SIMD32 values split into halves (SIMD32
 * nexuiz/16.fs allocates at MaxLive 140).
 */
TEST_F(ra_test, no_spilling_gives_up_early_only_far_over)
{
   std::string out;
   ibis::ra_result far = allocate(live_simd32_values(36), &out, false);
   EXPECT_FALSE(far.success);
   EXPECT_GT(far.max_live, 144u);
   EXPECT_EQ(far.failure.find("values do not fit"), std::string::npos) << far.failure;
   ibis::ra_result near = allocate(live_simd32_values(35), &out, false);
   EXPECT_FALSE(near.success);
   EXPECT_LE(near.max_live, 144u);
   EXPECT_NE(near.failure.find("values do not fit"), std::string::npos) << near.failure;
}

/* 131 SIMD8 values live at once: the cheapest per byte and per length of
 * range goes to scratch.  That is the NoMask value %1 (one use at each
 * end): its spill and its fill are lowered scratch messages that run with
 * all channels, and the shader gets its scratch size.
 */
TEST_F(ra_test, nomask_value_spills_and_fills_with_nomask)
{
   std::string text = "shader fs simd8\nhw %0:f32x8@g2\nblock0:\n"
                      "   %1:f32x8 = add %0, 1.0:f32 {WE_all}\n";
   for (unsigned i = 2; i <= 130; i++)
      text += ibis::strfmt("   %%%u:f32x8 = add %%0, %u.0:f32\n", i, i);
   std::string sum = "%1";
   for (unsigned i = 2; i <= 130; i++) {
      text += ibis::strfmt("   %%%u:f32x8 = add %s, %%%u\n", 1000 + i,
                           sum.c_str(), i);
      sum = ibis::strfmt("%%%u", 1000 + i);
   }
   text += "   %2000:f32x8 = add " + sum + ", %1\n";
   text += "   untyped_write_logical 0:u32, %2000, %2000, 1:u32\n";
   EXPECT_TRUE(check_pass(text, "ra", R"(
      shader fs simd8 allocated scratch [[_]]
      ...
         %1:f32x8@g[[r1]] = add %0, 1.0:f32 {WE_all}
         %[[h]]:u32x8@g[[_]] = mov %[[g0]] {WE_all}
         _ = send 10:u32, [[_]]:u32, 64:u32, %[[h]], %1 {WE_all, side_effects, spill}
      ...
         %[[f]]:f32x8@g[[_]] = send 10:u32, [[_]]:u32, 0:u32, %[[h2]], _ {WE_all, fill}
         %2000:f32x8@g[[_]] = add %1130, %[[f]]
         untyped_write_logical 0:u32, %2000, %2000, 1:u32
   )"));
   std::string out;
   ibis::ra_result r = allocate(text, &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_GT(r.spills, 0u);
   EXPECT_GE(r.fills, r.spills);
   EXPECT_EQ(r.grfs_used, 128u);
   /* Without spilling the same program fails with its reason. */
   r = allocate(text, &out, false);
   EXPECT_FALSE(r.success);
   EXPECT_NE(r.failure.find("SIMD8 needs spilling"), std::string::npos);
}

/* A preserve source is never spilled: the halt target's live mask (a
 * NoMask zero, then ~0 written into it by the channels still running)
 * must be in its register where every halt lands, and a fill before the
 * tied write sits where a thread whose channels all halted never runs
 * (dolphin/ubershaders/48.fs at a forced SIMD16 wrote killed pixels).
 * Under the same pressure as above, another value spills instead.
 */
TEST_F(ra_test, preserve_source_is_not_spilled)
{
   std::string text = "shader fs simd8\nhw %0:f32x8@g2\nblock0:\n"
                      "   %1:u32x8 = mov 0:u32 {WE_all}\n";
   for (unsigned i = 2; i <= 130; i++)
      text += ibis::strfmt("   %%%u:f32x8 = add %%0, %u.0:f32\n", i, i);
   std::string sum = "%2";
   for (unsigned i = 3; i <= 130; i++) {
      text += ibis::strfmt("   %%%u:f32x8 = add %s, %%%u\n", 1000 + i,
                           sum.c_str(), i);
      sum = ibis::strfmt("%%%u", 1000 + i);
   }
   text += "   %2001:u32x8 = mov 0xffffffff:u32, preserve %1\n";
   text += "   untyped_write_logical 0:u32, " + sum + ", " + sum + ", 1:u32\n";
   text += "   untyped_write_logical 0:u32, %2001, %2001, 1:u32\n";
   EXPECT_TRUE(check_pass(text, "ra", R"(
      shader fs simd8 allocated scratch [[_]]
      ...
         %1:u32x8@g[[m]] = mov 0:u32 {WE_all}
      ...
         %2001:u32x8@g[[m]] = mov 0xffffffff:u32, preserve %1
      ...
   )"));
   std::string out;
   ibis::ra_result r = allocate(text, &out);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_GT(r.spills, 0u);
   EXPECT_EQ(out.find(", %1 {WE_all, side_effects, spill}"), std::string::npos) << out;
}

/* The validator, on allocations broken by hand. */
TEST_F(ra_test, validator_accepts_a_correct_allocation)
{
   EXPECT_EQ(validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g3 = add %0, 1.0:f32
         %2:f32x8@g4 = add %1, %0
         %3:f32x8@g3 = add %2, %2
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )"), "");
}

TEST_F(ra_test, validator_rejects_a_clobber)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g3 = add %0, 1.0:f32
         %2:f32x8@g3 = add %0, 2.0:f32
         %3:f32x8@g4 = add %1, %2
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )");
   EXPECT_NE(e.find("writing %2 clobbers %1, which is live"), std::string::npos) << e;
}

/* A fixed register read in a loop is read again on the next iteration:
 * a write to it later in the loop is a clobber.
 */
TEST_F(ra_test, validator_rejects_a_clobber_of_a_fixed_value_read_in_a_loop)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g0
      block0:
         %1:f32x8@g1 = mov 0.0:f32
      block1:
         do
         %3:f32x8@g1 = mul %0, %1
         %4:f32x8@g0 = mov 2.0:f32
         %1 = add %3, %4
         %6:flagx8@f0.0 = cmp.l %1, 100.0:f32
         (+%6) while
      block2:
         untyped_write_logical 0:u32, %1, %1, 1:u32
   )");
   EXPECT_NE(e.find("clobbers %0"), std::string::npos) << e;
}

/* The then/else sharing of SIMD16 values (two registers a component)
 * holds channel on channel only.  %4 is written on both sides and read
 * after the join; in the else block its then-side channels are live when
 * %3 is written.  At %4's own start, %3's channels are the else side's,
 * where %4 is dead; one register off, channel c of %3 lands on channel
 * c + 8 of %4, which the then side wrote.
 */
TEST_F(ra_test, validator_rejects_sharing_off_the_channel_grid)
{
   const char *prog = R"(
      shader fs simd16 allocated
      hw %0:f32x16@g2
      block0:
         %1:flagx16@f0.0 = cmp.g %0, 0.0:f32
         (+%1) if
      block1:
         %4:f32x16@g10 = add %0, 1.0:f32
         else
      block2:
         %3:f32x16@gB = add %0, 3.0:f32
         untyped_write_logical 0:u32, %0, %3, 1:u32
         %4 = add %0, 2.0:f32
      block3:
         endif
         untyped_write_logical 0:u32, %0, %4, 1:u32
   )";
   auto with = [&](const char *reg) {
      std::string t = prog;
      t.replace(t.find("gB"), 2, reg);
      return validator_error(t.c_str());
   };
   EXPECT_EQ(with("g10"), "");
   EXPECT_NE(with("g11").find("channel on channel"), std::string::npos)
      << with("g11");
}

/* A swap of two scalars by three xors writes each in place, reading it
 * through the scalar region <0,1,0>: same start, same layout (random vs
 * seed 179 was rejected).
 */
TEST_F(ra_test, validator_accepts_an_in_place_scalar_swap)
{
   EXPECT_EQ(validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:u32x1@g10 = mov 1:u32 {WE_all}
         %2:u32x1@g10.4 = mov 2:u32 {WE_all}
         %3:u32x1@g10 = xor %1<0,1,0>:u32, %2<0,1,0> {WE_all}
         %4:u32x1@g10.4 = xor %3<0,1,0>:u32, %2<0,1,0> {WE_all}
         %5:u32x1@g10 = xor %3<0,1,0>:u32, %4<0,1,0> {WE_all}
         %6:u32x8@g11 = add %5:u32, %4:u32
         untyped_write_logical 0:u32, %0, %6, 1:u32
   )"), "");
}

/* A register of a vector component whose reads are done may be reused
 * while another component is still to be read (post-RA scheduling makes
 * such code); the component still to be read may not.
 */
TEST_F(ra_test, validator_tracks_vector_components)
{
   const char *prog = R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g3 = add %0, 1.0:f32
         %2:f32x8@g4 = add %0, 2.0:f32
         %3:f32x8[2]@g3 = load_payload %1, %2
         %4:f32x8@g5 = add %3[1], %0
         %5:f32x8@g@@ = add %0, 3.0:f32
         %6:f32x8@g6 = add %3, %5
         %7:f32x8@g7 = add %6, %4
         untyped_write_logical 0:u32, %7, %7, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "4")), "");
   std::string e = validator_error(fill(prog, "3"));
   EXPECT_NE(e.find("writing %5 clobbers %3, which is live"), std::string::npos) << e;
}

/* A byte value takes a dword but is written as a byte: post-RA
 * scheduling may move its write onto the first word of a value whose
 * first word is read for the last time, while the next word is still to
 * be read (random cs seed 2055 was rejected).  One byte further it
 * lands on the word still to be read.
 */
TEST_F(ra_test, validator_checks_the_bytes_of_a_byte_write)
{
   const char *prog = R"(
      shader cs simd8 allocated
      hw %0:u32x8@g1
      block0:
         %1:u8x1@g5 = mov 9:u8 {WE_all}
         %2:u16x8@g3 = add %0:u16, 7:u16
         %3:u16x1@g4 = mov %2<0,1,0> {WE_all}
         %4:u8x1@g3.@@ = copy %1 {WE_all}
         %5:u16x1@g4.4 = mov %2.2<0,1,0> {WE_all}
         %6:u32x8@g6 = add %3:u16, %5:u16
         %7:u32x8@g7 = add %6, %4:u8
         untyped_write_logical 0:u32, %0, %7, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "0")), "");
   std::string e = validator_error(fill(prog, "2"));
   EXPECT_NE(e.find("writing %4 clobbers %2, which is live"), std::string::npos) << e;
}

/* A loop variable's first half is read for the last time before a
 * write lands on it, its second half after, and the variable gets its
 * next value later in the block: only the reads before that count
 * (post-RA scheduling made such code, random cs seed 9392 was rejected).
 * On the second half the write clobbers the read still to come.
 */
TEST_F(ra_test, validator_frees_a_variable_written_again_in_the_block)
{
   const char *prog = R"(
      shader cs simd32 allocated
      hw %0:u32x32@g1
      block0:
         %1:u32x32@g10 = mov %0
      block1:
         do
         %5:u32x32@g14 = add %1, 1:u32
         %2:u32x16@g20 = load_payload %1
         %3:u32x16+16@g@@ = add %0.64, 1:u32
         %4:u32x16+16@g22 = load_payload %1.64
         %6:u32x16+16@g24 = add %3, %4
         %8:u32x16@g26 = add %2, 3:u32
         untyped_write_logical 0:u32, %0, %8, 1:u32
         untyped_write_logical 0:u32, %0, %6, 1:u32
         %1 = mov %5
         %7:flagx32@f0.0 = cmp.l %5, 100:u32
         (+%7) while
      block2:
         untyped_write_logical 0:u32, %0, %5, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "10")), "");
   std::string e = validator_error(fill(prog, "12"));
   EXPECT_NE(e.find("writing %3 clobbers %1, which is live"), std::string::npos) << e;
   /* Read after the loop, the variable is kept by the channels that
    * left it, which the write of the other half's channels overwrites.
    */
   std::string after = fill(prog, "10");
   after.replace(after.rfind("%5, 1:u32"), 2, "%1");
   e = validator_error(after);
   EXPECT_NE(e.find("%1 and %3 share registers"), std::string::npos) << e;
}

/* The same with the variable's next value written in a later block of
 * the loop: its need after the loop-top block is that value's, so the
 * NoMask write may land on the half already read (post-RA scheduling
 * made such code: random cs seed 485 at SIMD32 with 90 GRFs reserved
 * was rejected).  On the second half it clobbers the read to come.
 */
TEST_F(ra_test, validator_frees_a_variable_written_again_in_a_later_block)
{
   const char *prog = R"(
      shader cs simd32 allocated
      hw %0:u32x32@g1
      block0:
         %1:u32x32@g10 = mov %0
      block1:
         do
         %4:u32x16+16@g22 = load_payload %1.64
         %3:u32x16+16@g@@ = add %0.64, 1:u32 {WE_all}
         %2:u32x16@g20 = load_payload %1
         %6:u32x16+16@g24 = add %3, %4
         %8:u32x16@g26 = add %2, 3:u32
         untyped_write_logical 0:u32, %0, %8, 1:u32
         untyped_write_logical 0:u32, %0, %6, 1:u32
         %7:flagx32@f0.0 = cmp.l %0, 100:u32
         (+%7) break
      block2:
         %1 = add %0, 5:u32
         while
      block3:
         untyped_write_logical 0:u32, %0, %0, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "12")), "");
   std::string e = validator_error(fill(prog, "10"));
   EXPECT_NE(e.find("%1 and %3 share registers"), std::string::npos) << e;
}

/* A variable whose only write so far in the entry block is an undef
 * (a phi web with an undef edge) holds nothing there: another value may
 * use its register up to its first real write (random fs seed 631 at
 * SIMD32 with 100 GRFs reserved was rejected).  After a real write the
 * same sharing is a clobber.
 */
TEST_F(ra_test, validator_frees_a_variable_only_undefined_so_far)
{
   const char *prog = R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g3 = @@
         %3:f32x8@g3 = add %0, 1.0:f32
         %4:f32x8@g4 = add %3, %0
         %2:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %1 = mul %4, %0
      block2:
         endif
         untyped_write_logical 0:u32, %4, %1, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "undef")), "");
   std::string e = validator_error(fill(prog, "mov 2.0:f32"));
   EXPECT_NE(e.find("writing %3 clobbers %1, which is live"), std::string::npos) << e;
}

/* A variable of a SIMD-local web written NoMask before an if (a fill
 * coalesced into a phi web: dolphin/ubershaders/102.fs spilled at
 * SIMD16 was rejected) and again, with the mask, in the then-block: a
 * masked write there may take its register, as the channels it changes
 * need the variable no more.  Read NoMask after the join, every channel
 * of it counts.
 */
TEST_F(ra_test, validator_lets_masked_writes_share_with_a_masked_read_variable)
{
   const char *prog = R"(
      shader fs simd16 allocated
      hw %0:f32x16@g2
      block0:
         %1:u32x16@g10 = mov 5:u32 {WE_all}
         %2:flagx16@f0.0 = cmp.g %0, 0.0:f32
         (+%2) if
      block1:
         %3:u32x16@g10 = add %0:u32, 1:u32
         %4:u32x16@g12 = add %3, 2:u32
         %1 = mov %4
      block2:
         endif
         %5:u32x16@g14 = add %1, 3:u32@@
         untyped_write_logical 0:u32, %0, %5, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "")), "");
   std::string e = validator_error(fill(prog, " {WE_all}"));
   EXPECT_NE(e.find("%1 and %3 share registers"), std::string::npos) << e;
}

TEST_F(ra_test, validator_rejects_a_write_over_a_fixed_register)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g2 = mov 1.0:f32
         %2:f32x8@g3 = add %1, %0
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )");
   EXPECT_NE(e.find("%0 and %1 share registers"), std::string::npos) << e;
}

/* dolphin ubershader VS 30: post-RA scheduling moved the URB handle copy
 * onto g2, the first register of the push constants, above the last
 * reads of the push constants' later registers.  The push constant block
 * is one value, but nothing writes it, so only the bytes a reachable read
 * touches are still needed: g2 is free, g3 is not, and in a loop a read
 * above the write is reachable again.
 */
TEST_F(ra_test, validator_frees_push_constant_bytes_whose_reads_are_done)
{
   const char *prog = R"(
      shader vs simd8 allocated
      uniform %0:u32x1[16]@g2
      hw %1:u32x8@g1
      block0:
         %2:u32x8@g4 = add %1, %0[1]
         %6:flagx8@f0.0 = cmp.nz %2, 0:u32
         (+%6) if
      block1:
         %2 = add %2, %0[2]
      block2:
         endif
         %3:u32x8@g2 = mov %1 {WE_all}
         %4:u32x8@g5 = add %2, %0[@@]
         _ = send 6:u32, 0x2080017:u32, 512:u32, %3, %4
   )";
   EXPECT_EQ(validator_error(fill(prog, "12")), "");
   std::string e = validator_error(fill(prog, "3"));
   EXPECT_NE(e.find("%0 and %3 share registers"), std::string::npos) << e;

   std::string loop = validator_error(R"(
      shader vs simd8 allocated
      uniform %0:u32x1[16]@g2
      hw %1:u32x8@g1
      block0:
         %5:u32x8@g6 = mov 0:u32
      block1:
         do
         %2:u32x8@g4 = add %1, %0[1]
         %3:u32x8@g2 = mov %1 {WE_all}
         %4:u32x8@g5 = add %2, %0[12]
         %5 = add %5, %3
         %6:flagx8@f0.0 = cmp.nz %4, 0:u32
         (+%6) while
      block2:
         _ = send 6:u32, 0x2080017:u32, 512:u32, %1, %5
   )");
   EXPECT_NE(loop.find("%0 and %3 share registers"), std::string::npos) << loop;
}

/* Post-RA scheduling also moves a NoMask write onto a component of a
 * vector that came from an earlier block once that component's last read
 * is done, while another component is still to be read (random vs 33).
 * Only the reads left in the block where the vector dies count.
 */
TEST_F(ra_test, validator_frees_finished_components_of_a_value_from_before)
{
   const char *prog = R"(
      shader vs simd8 allocated
      hw %0:u32x8@g1
      block0:
         %1:u32x8[2]@g4 = send 12:u32, 0x2406000:u32, 0:u32, %0, _
         %2:flagx8@f0.0 = cmp.nz %0, 0:u32
         (+%2) if
      block1:
         %3:u32x8@g6 = add %0, 1:u32
      block2:
         endif
         %4:u32x8@g7 = add %1[1], %0
         %5:u32x1@g@@ = mov 14:u32 {WE_all}
         %6:u32x8@g8 = add %1, %4
         %7:u32x8@g9 = add %6, %5
         untyped_write_logical 0:u32, %7, %7, 1:u32
   )";
   EXPECT_EQ(validator_error(fill(prog, "5")), "");
   std::string e = validator_error(fill(prog, "4"));
   EXPECT_NE(e.find("%1 and %5 share registers"), std::string::npos) << e;
}

TEST_F(ra_test, validator_rejects_nomask_sharing_across_branches)
{
   const char *prog = R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8@g3 = mov 1.0:f32
         %2:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8@g3 = mov 0.5:f32@@
         %4:f32x8@g4 = add %3, %0
         else
      block2:
         %4 = add %1, %0
      block3:
         endif
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )";
   std::string masked = fill(prog, "");
   std::string nomask = fill(prog, " {WE_all}");
   /* The seed's sharing is fine with masked writes ... */
   EXPECT_EQ(validator_error(masked), "");
   /* ... and wrong with a NoMask one. */
   std::string e = validator_error(nomask);
   EXPECT_NE(e.find("%1 and %3 share registers while both are live"),
             std::string::npos) << e;
}

/* The loop extension in the validator: the NoMask write at the loop top
 * clobbers what channels that broke out earlier still hold.
 */
TEST_F(ra_test, validator_rejects_nomask_write_over_a_value_leaving_the_loop)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %7:f32x8@g3 = mov 0.0:f32
      block1:
         do
         %5:f32x8@g0 = mov 7.0:f32 {WE_all}
         %3:f32x8@g0 = add %7, %5
         %4:flagx8@f0.0 = cmp.g %3, %0
         (+%4) break
      block2:
         %6:f32x8@g1 = add %7, 1.0:f32
         %7 = copy %6
         while
      block3:
         untyped_write_logical 0:u32, %3, %3, 1:u32
   )");
   EXPECT_NE(e.find("%3 and %5 share registers while both are live"),
             std::string::npos) << e;
}

/* A payload built in place from a vector: every component at its own
 * position passes; a swizzled one, or one that leaves a component of the
 * vector under another source, is an overlap.
 */
TEST_F(ra_test, validator_checks_vectors_built_in_place)
{
   const char *text = R"(
      shader fs simd8 allocated
      hw %0:f32x8[2]@g2
      hw %3:u32x8@g10
      block0:
         %1:f32x8[4]@g112 = send 2:u32, 0x4420001:u32, 0:u32, %0, _
         %2:u32x8[4]@g112 = load_payload @@
         _ = send 5:u32, 0x8031400:u32, 0:u32, %2, _ {EOT}
   )";
   EXPECT_EQ(validator_error(fill(text, "%1:u32, %1[1]:u32, %1[2]:u32, %1[3]:u32")), "");
   std::string e = validator_error(fill(text, "%1[1]:u32, %1:u32, %1[2]:u32, %1[3]:u32"));
   EXPECT_NE(e.find("destination %2 overlaps source %1"), std::string::npos) << e;
   e = validator_error(fill(text, "%1:u32, %1[1]:u32, %1[2]:u32, %3"));
   EXPECT_NE(e.find("destination %2 overlaps source %1"), std::string::npos) << e;
}

TEST_F(ra_test, validator_rejects_send_result_on_its_payload)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:f32x8[2]@g4 = load_payload %0, %0
         %2:f32x8[4]@g5 = send 2:u32, 0x04420001:u32, 0:u32, %1, _
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )");
   EXPECT_NE(e.find("destination %2 overlaps source %1"), std::string::npos) << e;
}

TEST_F(ra_test, validator_rejects_flag_overlap_and_missing_registers)
{
   std::string e = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:flagx8@f0.0 = cmp.l %0, 1.0:f32
         %2:flagx8@f0.0 = cmp.l %0, 2.0:f32
         (+%1) %3:f32x8@g3 = sel %0, 0.0:f32
         (+%2) %4:f32x8 = sel %3, 1.0:f32
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )");
   EXPECT_NE(e.find("destination %4 has no general register"), std::string::npos) << e;
   std::string e2 = validator_error(R"(
      shader fs simd8 allocated
      hw %0:f32x8@g2
      block0:
         %1:flagx8@f0.0 = cmp.l %0, 1.0:f32
         %2:flagx8@f0.0 = cmp.l %0, 2.0:f32
         (+%1) %3:f32x8@g3 = sel %0, 0.0:f32
         (+%2) %4:f32x8@g4 = sel %3, 1.0:f32
         untyped_write_logical 0:u32, %4, %4, 1:u32
   )");
   EXPECT_NE(e2.find("%1 and %2 share flag bits"), std::string::npos) << e2;
}

TEST_F(ra_test, validator_rejects_untied_preserve_and_low_eot)
{
   std::string e = validator_error(R"(
      shader fs simd16 allocated
      block0:
         %1:u16x16@g3 = mov 0:u16
         %2:u16x16@g4 = mov(8) 7:u16, preserve %1
         send 12:u32, 0x08031400:u32, 0:u32, %2, _ {EOT}
   )");
   EXPECT_NE(e.find("preserve write of %2 is not in %1's register"),
             std::string::npos) << e;
   EXPECT_NE(e.find("EOT payload %2 below g112"), std::string::npos) << e;
}

/* The interference and class lists are symmetric with repeats; sorting
 * them by transposing gives each list deduplicated and in order.
 */
TEST(ra_lists, sorted_unique_matches_dedup_and_sort)
{
   std::vector<std::vector<unsigned>> lists(6);
   auto edge = [&](unsigned x, unsigned y) {
      lists[x].push_back(y);
      lists[y].push_back(x);
   };
   edge(3, 0);
   edge(5, 1);
   edge(0, 3);
   edge(2, 5);
   edge(4, 0);
   edge(1, 5);
   edge(5, 0);
   edge(2, 2);
   ibis::ra_sorted_unique(lists);
   const std::vector<std::vector<unsigned>> expect = {
      {3, 4, 5}, {5}, {2, 5}, {0}, {0}, {0, 1, 2},
   };
   EXPECT_EQ(lists, expect);
}

/* A straight-line program: longs values (%1 up) live across a chain of
 * adds (each link, with copies, followed by a copy of itself), then each
 * added into the chain's end, and a last mov.
 */
static std::string
chain_program(unsigned longs, unsigned chain, bool copies)
{
   std::string text = "shader fs simd8\nhw %0:f32x8@g2\nblock0:\n";
   auto def = [&](unsigned id, const std::string &rhs) {
      text += "   %" + std::to_string(id) + ":f32x8 = " + rhs + "\n";
   };
   auto v = [](unsigned id) { return "%" + std::to_string(id); };
   unsigned id = 1;
   for (unsigned i = 0; i < longs; i++, id++)
      def(id, "add %0, " + std::to_string(i + 1) + ".0:f32");
   def(id++, "mov 0.5:f32");
   for (unsigned i = 0; i < chain; i++, id++) {
      def(id, "add " + v(id - 1) + ", %0");
      if (copies) {
         id++;
         def(id, "copy " + v(id - 1));
      }
   }
   for (unsigned i = 0; i < longs; i++, id++)
      def(id, "add " + v(id - 1) + ", " + v(i + 1));
   def(id, "mov " + v(id - 1));
   return text;
}

/* Past 8192 nodes the interference and class graphs are kept as lists,
 * not bit matrices.  A chain of 9000 adds with 20 values live across it:
 * each long-lived value must stay apart from every link of the chain and
 * from each other, which the allocation validator checks.
 */
TEST_F(ra_test, graphs_past_the_bit_matrix_limit_use_lists)
{
   const unsigned longs = 20;
   std::string text = chain_program(longs, 9000, false);
   auto s = ibis::parse_shader(text);
   ASSERT_GT(ibis::ra_build_interference(*s).nodes.size(), 8192u);
   ibis::ra_options o;
   o.allow_spilling = false;
   ibis::ra_result r = ibis::allocate_registers(*s, ibis::device_by_name("skl"), o);
   ASSERT_TRUE(r.success) << r.failure;
   EXPECT_NO_THROW(ibis::validate_allocation(*s));
   /* Twenty long-lived values, the hw value and two chain links at most. */
   EXPECT_LE(r.max_live, longs + 3);
}

/* In the bit matrix a definition writes its own row only and the graph is
 * made symmetric at the end, 64 x 64 blocks at a time: a value defined
 * first (its row written before the chain exists) still lists every
 * link of a chain of several blocks defined while it is live, and each
 * list is sorted with every edge both ways.
 */
TEST_F(ra_test, matrix_graph_is_symmetric_across_blocks)
{
   std::string text = "shader fs simd8\nhw %0:f32x8@g2\nblock0:\n"
                      "   %1:f32x8 = add %0, 1.0:f32\n"
                      "   %2:f32x8 = mov 0.5:f32\n";
   const unsigned chain = 300;
   unsigned id = 3;
   for (unsigned i = 0; i < chain; i++, id++)
      text += "   %" + std::to_string(id) + ":f32x8 = add %" + std::to_string(id - 1) + ", %0\n";
   text += "   %" + std::to_string(id) + ":f32x8 = add %" + std::to_string(id - 1) + ", %1\n";
   auto s = ibis::parse_shader(text);
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   const ibis::ra_lists adj = ibis::ra_adjacency(g);
   const int first = g.node_of[1];
   ASSERT_GE(first, 0);
   for (unsigned v = 3; v < 3 + chain; v++) {
      const int x = g.node_of[v];
      ASSERT_GE(x, 0);
      const auto &l = adj[first];
      EXPECT_TRUE(std::binary_search(l.begin(), l.end(), unsigned(x))) << "%" << v;
   }
   for (unsigned x = 0; x < adj.size(); x++) {
      const auto &l = adj[x];
      EXPECT_TRUE(std::adjacent_find(l.begin(), l.end(),
                                     [](unsigned a, unsigned b) { return a >= b; }) == l.end());
      for (unsigned y : l) {
         EXPECT_NE(x, y);
         EXPECT_TRUE(std::binary_search(adj[y].begin(), adj[y].end(), x))
            << x << " - " << y;
      }
   }
}

/* A graph built as a matrix has no lists: each node's degree is its
 * row's bit count and the edge count half their sum, as the lists read
 * out of it (ra_adjacency()) have them; the neighbors come in increasing
 * order.
 */
TEST_F(ra_test, matrix_graph_degrees_match_its_lists)
{
   std::string text = chain_program(6, 60, true);
   auto s = ibis::parse_shader(text);
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   ASSERT_FALSE(g.matrix.empty());
   ASSERT_TRUE(g.by_matrix());
   EXPECT_EQ(g.adj.items.size(), 0u);
   const ibis::ra_lists adj = ibis::ra_adjacency(g);
   ASSERT_EQ(adj.size(), g.nodes.size());
   size_t ends = 0;
   for (unsigned x = 0; x < g.nodes.size(); x++) {
      EXPECT_EQ(g.degree(x), adj[x].size()) << x;
      std::vector<unsigned> seen;
      g.for_each_neighbor(x, [&](unsigned y) { seen.push_back(y); });
      EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << x;
      EXPECT_TRUE(std::equal(seen.begin(), seen.end(), adj[x].begin(), adj[x].end())) << x;
      ends += g.degree(x);
   }
   EXPECT_GT(ends, 0u);
   EXPECT_EQ(size_t(g.edges) * 2, ends);
}

/* class_graph() reads a coalesced class's neighbors from the interference
 * matrix when the graph has one, from the lists otherwise, and keeps them
 * as bit rows or lists for simplify(); select reads a node's colored
 * neighbors from its matrix row or its list: both ways give the same
 * classes, order and places, so the same coloring.  A chain whose links
 * are copied (each copy coalesces with its link) past a block of 64
 * nodes, with values live across it.
 */
TEST_F(ra_test, class_graph_from_matrix_matches_lists)
{
   const unsigned longs = 6, chain = 60;
   std::string text = chain_program(longs, chain, true);
   auto s = ibis::parse_shader(text);
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   ASSERT_FALSE(g.matrix.empty());
   ASSERT_GT(g.nodes.size(), 128u);
   auto colors = [&]() {
      ibis::ra_color_result r = ibis::ra_color(*s, g, {}, true, 0);
      EXPECT_TRUE(r.success);
      std::vector<unsigned> at;
      for (const ibis::value *v : g.nodes)
         at.push_back(v->phys.nr * 32 + v->phys.subreg);
      return at;
   };
   std::vector<unsigned> from_matrix = colors();
   /* The copies coalesced: a link and its copy share their register. */
   for (unsigned v = longs + 2; v < longs + 2 + 2 * chain; v += 2) {
      EXPECT_EQ(s->find_value(v)->phys.nr, s->find_value(v + 1)->phys.nr) << v;
   }
   g.adj = ibis::ra_adjacency(g);
   g.matrix.clear();
   EXPECT_EQ(colors(), from_matrix);
}

/* n SIMD16 values of two registers each, all defined before any is read
 * and then summed up: at the last definition they are live together with
 * the payload %0 (g2-g3) the definitions read.
 */
static std::string
all_live_program(unsigned n)
{
   std::string text = "shader fs simd16\nhw %0:f32x16@g2\nblock0:\n";
   for (unsigned i = 1; i <= n; i++)
      text += ibis::strfmt("   %%%u:f32x16 = add %%0, %u.0:f32\n", i, i);
   unsigned sum = 1;
   for (unsigned i = 2; i <= n; i++) {
      text += ibis::strfmt("   %%%u:f32x16 = add %%%u, %%%u\n", n + i, sum, i);
      sum = n + i;
   }
   text += ibis::strfmt("   untyped_write_logical 0:u32, %%%u, %%%u, 1:u32\n", sum, sum);
   return text;
}

/* Is there a proof that the program cannot be colored? */
static bool
proves_no_fit(const std::string &text)
{
   auto s = ibis::parse_shader(text);
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   ibis::liveness live(*s);
   return ibis::ra_cannot_fit(*s, g, {}, live);
}

/* 63 values of two registers and g2-g3 fill the 128 registers exactly:
 * no proof.  A 64th overflows the file, proved without coloring, and an
 * allocation that may not spill then fails as the colorings would (not
 * by MaxLive alone: that gives up only far over the file).
 */
TEST_F(ra_test, proof_that_values_live_together_overflow_the_file)
{
   EXPECT_FALSE(proves_no_fit(all_live_program(63)));
   EXPECT_TRUE(proves_no_fit(all_live_program(64)));
   std::string out;
   ibis::ra_result r = allocate(all_live_program(64), &out, false);
   EXPECT_FALSE(r.success);
   EXPECT_FALSE(r.gave_up_early);
   EXPECT_NE(r.failure.find("values do not fit"), std::string::npos) << r.failure;
}

/* Live at different times, values prove nothing however many there are;
 * nor do values that share the registers of a copy.
 */
TEST_F(ra_test, proof_needs_values_that_interfere)
{
   std::string text = "shader fs simd16\nhw %0:f32x16@g2\nblock0:\n";
   unsigned last = 0;
   for (unsigned i = 1; i <= 80; i++) {
      text += ibis::strfmt("   %%%u:f32x16 = add %%%u, 1.0:f32\n", i, last);
      last = i;
   }
   text += ibis::strfmt("   untyped_write_logical 0:u32, %%%u, %%%u, 1:u32\n", last, last);
   EXPECT_FALSE(proves_no_fit(text));

   /* 40 values and a copy of each, all live together: 160 registers
    * by MaxLive, 80 after coalescing.
    */
   std::string copies = "shader fs simd16\nhw %0:f32x16@g2\nblock0:\n";
   for (unsigned i = 1; i <= 40; i++)
      copies += ibis::strfmt("   %%%u:f32x16 = add %%0, %u.0:f32\n", i, i);
   for (unsigned i = 1; i <= 40; i++)
      copies += ibis::strfmt("   %%%u:f32x16 = copy %%%u\n", 40 + i, i);
   unsigned sum = 1;
   for (unsigned i = 2; i <= 80; i++) {
      copies += ibis::strfmt("   %%%u:f32x16 = add %%%u, %%%u\n", 100 + i, sum, i);
      sum = 100 + i;
   }
   copies += ibis::strfmt("   untyped_write_logical 0:u32, %%%u, %%%u, 1:u32\n", sum, sum);
   EXPECT_FALSE(proves_no_fit(copies));
}

/* Channel constraints are for SIMD-local values of one layout whose
 * intervals overlap but which do not interfere (%1, read only in the
 * else-block, and %3 of the then-block); a pair that interferes (%1 and
 * %5: %1 is read after %5 is written) has its edge and no channel
 * constraint, which could only repeat it.
 */
TEST_F(ra_test, channel_constraints_only_without_an_edge)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = mov 1.0:f32
         %2:flagx16 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         %3:f32x16 = add %0, 0.5:f32
         %4:f32x16 = add %3, %0
         else
      block2:
         %5:f32x16 = add %0, 2.0:f32
         %6:f32x16 = add %5, %1
      block3:
         endif
         %7:f32x16 = phi %4, %6
         untyped_write_logical 0:u32, %7, %7, 1:u32
   )"));
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   const ibis::ra_lists adj = ibis::ra_adjacency(g);
   ASSERT_FALSE(g.matrix.empty());
   auto node = [&](unsigned id) { return unsigned(g.node_of[id]); };
   auto has = [&](const ibis::ra_lists &l, unsigned x, unsigned y) {
      for (unsigned q : l[x]) {
         if (q == y)
            return true;
      }
      return false;
   };
   EXPECT_FALSE(has(adj, node(1), node(3)));
   EXPECT_TRUE(has(g.channel_adj, node(1), node(3)));
   EXPECT_TRUE(has(g.channel_adj, node(3), node(1)));
   EXPECT_TRUE(has(adj, node(1), node(5)));
   EXPECT_FALSE(has(g.channel_adj, node(1), node(5)));
   EXPECT_FALSE(has(g.channel_adj, node(5), node(1)));
}

/* glamor/73.fs SIMD32: a phi of a send result's component (then-side)
 * and of a value computed while that component is still read
 * (else-side), read by a payload at the join.  Coalesced in program
 * order, the phi took the component's register (the then-side copy
 * free) and cost a copy on the else-side and one more into the payload
 * at the join, which both sides run.  The join's copies go first: the
 * phi sits in the payload, the else-side writes it there, and only the
 * then-side copies.
 */
TEST_F(ra_test, join_copies_coalesce_before_edge_copies)
{
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %2:f32x8 = add %0, 2.0:f32
         %3:f32x8[2] = load_payload %1, %2
         %4:f32x8[2] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %5:flagx8 = cmp.nz %0, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8 = load_payload %4[1]
         else
      block2:
         %7:f32x8 = add %4, %4[1]
         %8:f32x8 = mul %7, %4[1]
      block3:
         endif
         %9:f32x8 = phi %6, %8
         %10:f32x8[2] = load_payload %1, %9
         %11:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %10, _
         untyped_write_logical 0:u32, %11, %11[3], 1:u32
   )", "ra", R"(
      block0:
         %1:f32x8@g[[a]] = add %0, 1.0:f32
         %2:f32x8@g[[b]] = add %0, 2.0:f32
         %3:f32x8[2]@g[[a]] = load_payload %1, %2
         %4:f32x8[2]@g[[r]] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %5:flagx8@f0.0 = cmp.nz %0, 0.0:f32
         (+%5) if
      block1:
         %6:f32x8@g[[_]] = load_payload %4[1]
         %[[p]]:f32x8@g[[b]] = copy %6
         else
      block2:
         %7:f32x8@g[[_]] = add %4, %4[1]
         %[[p]] = mul %7, %4[1]
      block3:
         endif
         %10:f32x8[2]@g[[a]] = load_payload %1, %[[p]]
         %11:f32x8[4]@g[[_]] = send 2:u32, 0x4420001:u32, 0:u32, %10, _
         untyped_write_logical 0:u32, %11, %11[3], 1:u32
   )"));
}

namespace {

/* Runs the flag allocator with the caller's liveness kept, and checks
 * that liveness against one made afresh of the program it left: same
 * intervals for every tracked value (the interference graph reads them).
 */
unsigned
assign_flags_checked(ibis::shader &s)
{
   std::optional<ibis::liveness> kept;
   const unsigned spilled = ibis::ra_assign_flags(s, &kept);
   EXPECT_TRUE(kept.has_value());
   if (!kept)
      return spilled;
   const ibis::liveness fresh(s);
   for (const ibis::value *v : s.values()) {
      if (!ibis::liveness::tracked(v) || (v->defs().empty() && v->uses().empty()))
         continue;
      EXPECT_EQ(kept->start(v), fresh.start(v)) << "%" << v->id;
      EXPECT_EQ(kept->end(v), fresh.end(v)) << "%" << v->id;
   }
   return spilled;
}

} /* anonymous namespace */

/* Five SIMD8 flags live at once in one block (the intervals come without
 * a liveness): the last moves to a GRF, but the sel that saves it reads
 * it right after its cmp, where the four others are live, so the longest
 * of those moves too.  Every flag left (five, and the two cmp.nz before
 * the moved ones' readers) has a half, and the liveness handed on is that
 * of the program with the spill code.
 */
TEST_F(ra_test, block_local_flags_spill_and_keep_liveness)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:flagx8 = cmp.l %0, 1.0:f32
         %2:flagx8 = cmp.l %0, 2.0:f32
         %3:flagx8 = cmp.l %0, 3.0:f32
         %4:flagx8 = cmp.l %0, 4.0:f32
         %5:flagx8 = cmp.l %0, 5.0:f32
         (+%1) %6:f32x8 = sel %0, 1.0:f32
         (+%2) %7:f32x8 = sel %6, 2.0:f32
         (+%3) %8:f32x8 = sel %7, 3.0:f32
         (+%4) %9:f32x8 = sel %8, 4.0:f32
         (+%5) %10:f32x8 = sel %9, 5.0:f32
         untyped_write_logical 0:u32, %10, %10, 1:u32
   )"));
   EXPECT_EQ(assign_flags_checked(*s), 2u);
   unsigned in_flags = 0;
   for (const ibis::value *v : s->values()) {
      if (v->file == ibis::reg_file::flag && !v->defs().empty()) {
         EXPECT_EQ(v->phys.kind, ibis::phys_reg::flag) << "%" << v->id;
         in_flags++;
      }
   }
   EXPECT_EQ(in_flags, 7u);
}

/* A flag read in another block than its cmp is in the live sets: its
 * interval comes from a liveness, and no flag spills.
 */
TEST_F(ra_test, flag_read_in_another_block_keeps_liveness)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:flagx8 = cmp.l %0, 1.0:f32
         %2:flagx8 = cmp.nz %0, 0.0:f32
         (+%2) if
      block1:
         (+%1) %3:f32x8 = sel %0, 1.0:f32
         untyped_write_logical 0:u32, %3, %3, 1:u32
         else
      block2:
         untyped_write_logical 0:u32, %0, %0, 1:u32
      block3:
         endif
         halt
   )"));
   EXPECT_EQ(assign_flags_checked(*s), 0u);
   for (const ibis::value *v : s->values()) {
      if (v->file == ibis::reg_file::flag)
         EXPECT_EQ(v->phys.kind, ibis::phys_reg::flag) << "%" << v->id;
   }
}

/* Values of one layout whose components span several registers and whose
 * intervals overlap get a channel constraint exactly when they have no
 * edge (the sweep skips the pairs already in the new node's matrix row a
 * word at a time, and asks the matrix for the others).  %1 and %2 are
 * live together (an edge); %1, live into the else side, overlaps the
 * then side's %4 without interfering (a channel pair).
 */
TEST_F(ra_test, channel_pairs_are_the_overlapping_pairs_without_an_edge)
{
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader fs simd16
      hw %0:f32x16@g2
      block0:
         %1:f32x16 = add %0, 1.0:f32
         %2:f32x16 = add %0, 2.0:f32
         %3:flagx16 = cmp.nz %0, 0.0:f32
         (+%3) if
      block1:
         %4:f32x16 = add %2, %0
         %5:f32x16 = mul %4, %4
         else
      block2:
         %6:f32x16 = add %1, %2
      block3:
         endif
         %7:f32x16 = phi %5, %6
         untyped_write_logical 0:u32, %7, %7, 1:u32
   )"));
   ibis::ra_graph g = ibis::ra_build_interference(*s);
   const ibis::ra_lists adj = ibis::ra_adjacency(g);
   ASSERT_FALSE(g.matrix.empty());
   auto has = [](ibis::ra_lists::range l, unsigned y) {
      return std::binary_search(l.begin(), l.end(), y);
   };
   auto node = [&](unsigned id) { return unsigned(g.node_of[id]); };
   EXPECT_TRUE(has(adj[node(1)], node(2)));
   EXPECT_FALSE(has(g.channel_adj[node(1)], node(2)));
   EXPECT_FALSE(has(adj[node(1)], node(4)));
   EXPECT_TRUE(has(g.channel_adj[node(1)], node(4)));
   EXPECT_TRUE(has(g.channel_adj[node(4)], node(1)));
   /* And in general: of the SIMD-local wide pairs of one layout that
    * overlap, those without an edge, each once in each direction.
    */
   const unsigned n = g.nodes.size();
   unsigned pairs = 0;
   for (unsigned x = 0; x < n; x++) {
      const ibis::value *a = g.nodes[x];
      std::vector<unsigned> seen(g.channel_adj[x].begin(), g.channel_adj[x].end());
      std::sort(seen.begin(), seen.end());
      EXPECT_TRUE(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
      for (unsigned y : seen)
         EXPECT_FALSE(has(adj[x], y)) << x << " - " << y;
      for (unsigned y = 0; y < n; y++) {
         const ibis::value *b = g.nodes[y];
         if (y == x || a->file != ibis::reg_file::ssa || b->file != ibis::reg_file::ssa ||
             a->is_simd_global() || b->is_simd_global() ||
             a->component_bytes() <= 32 || a->width != b->width ||
             a->group != b->group || a->bit_size() != b->bit_size() ||
             std::max(g.start[x], g.start[y]) >= std::min(g.end[x], g.end[y]))
            continue;
         EXPECT_EQ(has(adj[x], y), !std::binary_search(seen.begin(), seen.end(), y))
            << x << " - " << y;
         pairs++;
      }
   }
   EXPECT_GT(pairs, 0u);
}
