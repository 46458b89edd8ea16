/*
 * The inline-expectation helper and the pass registry.
 */
#include <gtest/gtest.h>

#include "ir/ibis_builder.h"
#include "ir/ibis_pass.h"
#include "ir/testing/ibis_check.h"
#include "util/ibis_error.h"

using namespace ibis;
using namespace ibis::testing;

static const char *const printed = R"(shader fs simd8
attr %1:f32x8
block0:
   %2:f32x8 = add %1, 1.0:f32
   %3:f32x8@g7 = mul %2, %2
   %4:f32x8 = mov %3
)";

TEST(ir_check, exact_match)
{
   EXPECT_EQ(match_ir(printed, printed), "");
}

TEST(ir_check, captures_and_wildcards)
{
   EXPECT_EQ(match_ir(R"(
      block0:
         %[[a]]:f32x8 = add %[[_]], 1.0:f32
         %[[b]]:f32x8@g[[r]] = mul %[[a]], %[[a]]
         %[[c]]:f32x8 = mov %[[b]]
   )", printed), "");
}

TEST(ir_check, skip_lines)
{
   EXPECT_EQ(match_ir(R"(
      shader fs simd8
      ...
      %4:f32x8 = mov %3
   )", printed), "");
}

TEST(ir_check, edge_comments_are_ignored_unless_asked_for)
{
   const char *with_edges = "block0:         ; succs: block1\n   nop\n";
   EXPECT_EQ(match_ir("block0:\nnop\n", with_edges), "");
   EXPECT_NE(match_ir("block0: ; succs: block2\nnop\n", with_edges), "");
}

TEST(ir_check, capture_mismatch_is_reported)
{
   std::string r = match_ir(R"(
      %[[a]]:f32x8 = add %1, 1.0:f32
      %[[b]]:f32x8@g7 = mul %[[a]], %[[b]]
   )", printed);
   EXPECT_EQ(r, "IR does not match the expectation:\n"
                "  expected: %[[b]]:f32x8@g7 = mul %[[a]], %[[b]]\n"
                "  got:      %3:f32x8@g7 = mul %2, %2\n"
                "  ([[b]] is bound to '3' but here is '2')\n"
                "full output, with > at the mismatch:\n"
                "  shader fs simd8\n"
                "  attr %1:f32x8\n"
                "  block0:\n"
                "  %2:f32x8 = add %1, 1.0:f32\n"
                "> %3:f32x8@g7 = mul %2, %2\n"
                "  %4:f32x8 = mov %3\n");
}

TEST(ir_check, text_mismatch_is_reported)
{
   std::string r = match_ir(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:f32x8 = add %1, 2.0:f32
      ...
   )", printed);
   EXPECT_NE(r.find("  expected: %2:f32x8 = add %1, 2.0:f32\n"
                    "  got:      %2:f32x8 = add %1, 1.0:f32\n"
                    "  (differs at column 20)\n"), std::string::npos) << r;
}

TEST(ir_check, missing_and_extra_lines_are_reported)
{
   std::string r = match_ir("shader fs simd8\nattr %1:f32x8\n", printed);
   EXPECT_NE(r.find("  expected: end of output\n"
                    "  got:      block0:\n"
                    "  (the output has more lines)\n"), std::string::npos) << r;
   r = match_ir(std::string(printed) + "   nop\n", printed);
   EXPECT_NE(r.find("  expected: nop\n"
                    "  got:      end of output\n"), std::string::npos) << r;
}

TEST(ir_check, check_pass_with_registered_passes)
{
   EXPECT_TRUE(check_pass(printed, "validate", R"(
      block0:
         %2:f32x8 = add %1, 1.0:f32
      ...
   )"));
   ::testing::AssertionResult r = check_pass(printed, "no-such-pass", "");
   EXPECT_FALSE(r);
   EXPECT_NE(std::string(r.message()).find("unknown pass 'no-such-pass' (known: "),
             std::string::npos) << r.message();
}

TEST(ir_check, check_pass_reports_invalid_output)
{
   ::testing::AssertionResult r = check_pass(R"(
      shader fs simd8
      block0:
         %1:f32x8 = add 1.0:f32
   )", "validate", "");
   EXPECT_FALSE(r);
   EXPECT_NE(std::string(r.message()).find("add takes 2 sources, not 1"),
             std::string::npos) << r.message();
}

/* A pass written with the builder and exercised through check_pass: it
 * replaces "mov" of an immediate by "add" with zero, only to show the
 * shape of a pass test.
 */
static bool
mov_to_add(shader &s)
{
   bool progress = false;
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         if (in->op != opcode::mov || !in->src(0).is_imm())
            continue;
         builder bld(&s);
         bld.before(in);
         bld.add(in->dst(), in->src(0), operand::imm_of(in->src(0).type, 0));
         in->remove();
         progress = true;
      }
   }
   return progress;
}

TEST(ir_check, registered_pass_runs_by_name)
{
   register_pass("test-mov-to-add", "rewrite mov imm as add imm, 0", mov_to_add);
   EXPECT_NE(find_pass("test-mov-to-add"), nullptr);
   EXPECT_TRUE(check_pass(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %1 = mov 5:u32
         %2:u32x8 = mov 7:u32
         %3:u32x8 = add %1, %2
   )", "test-mov-to-add,validate", R"(
      shader fs simd8
      wlr %[[w]]:u32x8
      block0:
         %[[w]] = add 5:u32, 0:u32
         %[[x]]:u32x8 = add 7:u32, 0:u32
         %[[_]]:u32x8 = add %[[w]], %[[x]]
   )"));
   EXPECT_THROW(register_pass("test-mov-to-add", "", mov_to_add), internal_error);
}

TEST(ir_check, dedent)
{
   EXPECT_EQ(dedent("\n   a\n     b\n\n   c\n  "), "a\n  b\n\nc\n");
}
