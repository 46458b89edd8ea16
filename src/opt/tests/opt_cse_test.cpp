/*
 * Global value numbering: identical expressions in dominating positions
 * merge; effects, impure loads, other execution sizes, NoMask, and flags
 * across a flag redefinition do not.
 */
#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_cse, same_expression_merges)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8[2]
      block0:
         %2:f32x8 = add %1, %1[1]
         %3:f32x8 = add %1[1], %1
         %4:f32x8 = mul %2, %3
         %5:f32x8 = mul %3, %2
         %6:f32x8 = add %4, %5
         )" WRITE("%6") R"(
   )", "cse", R"(
      block0:
         %2:f32x8 = add %1, %1[1]
         %4:f32x8 = mul %2, %2
         %6:f32x8 = add %4, %4
         )" WRITE("%6") R"(
   )"));
}

/* Each differs from the first in one property. */
TEST(opt_cse, different_expressions_stay)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd16
      attr %1:f32x16[2]
      block0:
         %2:f32x16 = add %1, %1[1]
         %3:f32x16 = add %1, -%1[1]
         %4:f32x16 = add.sat %1, %1[1]
         %5:f32x16 = add %1, %1[1] {WE_all}
         %6:f32x8 = add(8) %1, %1[1]
         %7:f32x8+8 = add(8+8) %1, %1[1]
         %8:u32x16 = add %1:u32, %1[1]:u32
         %9:f32x16 = sel.g %1, %1[1]
         %10:f32x16 = sel.g %1[1], %1
         )" WRITE("%2") R"(
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
         )" WRITE("%10") R"(
   )", "cse", R"(
      block0:
         %2:f32x16 = add %1, %1[1]
         %3:f32x16 = add %1, -%1[1]
         %4:f32x16 = add.sat %1, %1[1]
         %5:f32x16 = add %1, %1[1] {WE_all}
         %6:f32x8 = add %1, %1[1]
         %7:f32x8+8 = add %1, %1[1]
         %8:u32x16 = add %1:u32, %1[1]:u32
         %9:f32x16 = sel.g %1, %1[1]
         %10:f32x16 = sel.g %1[1], %1
   ...
   )"));
}

/* Dominating positions only: the then-block's add is not available in the
 * else-block nor after endif; the entry's is available everywhere.
 */
TEST(opt_cse, dominator_tree_scopes)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:f32x8 = mul %1, %1
         %3:flagx8 = cmp.l %1, 0.0:f32
         (+%3) if
      block1:         ; preds: block0 succs: block3
         %4:f32x8 = add %1, 1.0:f32
         %5:f32x8 = mul %1, %1
         else
      block2:         ; preds: block0 succs: block3
         %6:f32x8 = add %1, 1.0:f32
      block3:         ; preds: block1 block2
         endif
         %7:f32x8 = phi %4, %6
         %8:f32x8 = phi %5, %2
         %10:f32x8 = phi %4, %6
         %9:f32x8 = add %1, 1.0:f32
         %11:f32x8 = add %7, %8
         %12:f32x8 = add %9, %10
         )" WRITE("%11") R"(
         )" WRITE("%12") R"(
   )", "cse", R"(
      block1: ; preds: block0 succs: block3
         %4:f32x8 = add %1, 1.0:f32
         else
      block2: ; preds: block0 succs: block3
         %6:f32x8 = add %1, 1.0:f32
      block3: ; preds: block1 block2
         endif
         %7:f32x8 = phi %4, %6
         %8:f32x8 = phi %2, %2
         %9:f32x8 = add %1, 1.0:f32
         %11:f32x8 = add %7, %8
         %12:f32x8 = add %9, %7
   ...
   )"));
}

/* Sampler and constant-buffer loads merge; memory reads, atomics and
 * writes do not.
 */
TEST(opt_cse, only_pure_loads)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd8
      attr %1:u32x8
      block0:
         %2:u32x8 = uniform_block_read_logical 0:u32, 16:u32, 4:u32
         %3:u32x8 = uniform_block_read_logical 0:u32, 16:u32, 4:u32
         %4:u32x8 = untyped_read_logical 1:u32, %1, 1:u32
         untyped_write_logical 1:u32, %1, %2, 1:u32
         %5:u32x8 = untyped_read_logical 1:u32, %1, 1:u32
         %6:u32x8 = untyped_atomic_logical 1:u32, %1, %3, _, 0:u32
         %7:u32x8 = untyped_atomic_logical 1:u32, %1, %3, _, 0:u32
         %8:u32x8 = add %4, %5
         %9:u32x8 = add %6, %7
         )" WRITE("%8") R"(
         )" WRITE("%9") R"(
   )", "cse", R"(
      block0:
         %2:u32x8 = uniform_block_read_logical 0:u32, 16:u32, 4:u32
         %4:u32x8 = untyped_read_logical 1:u32, %1, 1:u32
         untyped_write_logical 1:u32, %1, %2, 1:u32
         %5:u32x8 = untyped_read_logical 1:u32, %1, 1:u32
         %6:u32x8 = untyped_atomic_logical 1:u32, %1, %2, _, 0:u32
         %7:u32x8 = untyped_atomic_logical 1:u32, %1, %2, _, 0:u32
   ...
   )"));
}

/* A comparison merges with the same one earlier in its block while its
 * flag and the flags defined in between fit the four 16-bit flag halves:
 * %8 merges with %6 across %7, %9 with %4 across three; %7 does not
 * merge with %2 across four.
 */
TEST(opt_cse, flag_definitions)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         %3:flagx8 = cmp.g %1, 1.0:f32
         %4:flagx8 = cmp.g %1, 2.0:f32
         %5:flagx8 = cmp.g %1, 3.0:f32
         %6:flagx8 = cmp.g %1, 4.0:f32
         %7:flagx8 = cmp.l %1, 0.0:f32
         %8:flagx8 = cmp.g %1, 4.0:f32
         %9:flagx8 = cmp.g %1, 2.0:f32
         (+%2) discard
         (+%3) discard
         (+%4) discard
         (+%5) discard
         (+%6) discard
         (+%7) discard
         (+%8) discard
         (+%9) discard
   )", "cse", R"(
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         %3:flagx8 = cmp.g %1, 1.0:f32
         %4:flagx8 = cmp.g %1, 2.0:f32
         %5:flagx8 = cmp.g %1, 3.0:f32
         %6:flagx8 = cmp.g %1, 4.0:f32
         %7:flagx8 = cmp.l %1, 0.0:f32
         (+%2) discard
         (+%3) discard
         (+%4) discard
         (+%5) discard
         (+%6) discard
         (+%7) discard
         (+%6) discard
         (+%4) discard
   )"));
}

/* A SIMD32 flag takes two halves: it merges across one other SIMD32
 * flag, not across two.
 */
TEST(opt_cse, wide_flag_definitions)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd32
      attr %1:f32x32
      block0:
         %2:flagx32 = cmp.l %1, 0.0:f32
         %3:flagx32 = cmp.g %1, 1.0:f32
         %4:flagx32 = cmp.l %1, 0.0:f32
         %5:flagx32 = cmp.g %1, 2.0:f32
         %6:flagx32 = cmp.g %1, 3.0:f32
         %7:flagx32 = cmp.g %1, 1.0:f32
         (+%2) discard
         (+%3) discard
         (+%4) discard
         (+%5) discard
         (+%6) discard
         (+%7) discard
   )", "cse", R"(
      block0:
         %2:flagx32 = cmp.l %1, 0.0:f32
         %3:flagx32 = cmp.g %1, 1.0:f32
         %5:flagx32 = cmp.g %1, 2.0:f32
         %6:flagx32 = cmp.g %1, 3.0:f32
         %7:flagx32 = cmp.g %1, 1.0:f32
         (+%2) discard
         (+%3) discard
         (+%2) discard
         (+%5) discard
         (+%6) discard
         (+%7) discard
   )"));
}

/* Values read from fixed registers and the accumulator are not numbered;
 * neither is find_live_channel, which depends on where it runs.
 */
TEST(opt_cse, hardware_state_is_not_numbered)
{
   const char *program = R"(
      shader fs simd8
      hw %1:u32x8@g1
      attr %2:s32x8
      block0:
         %3:u32x8 = add %1, 1:u32
         %1 = mov 7:u32
         %4:u32x8 = add %1, 1:u32
         %5:s32x8 = mac %2, 3:s32
         %6:s32x8 = mac %2, 3:s32
         %7:u32x1 = find_live_channel
         %8:u32x1 = find_live_channel
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
         )" WRITE("%5") R"(
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
         )" WRITE("%8") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cse", program));
}

/* 4000 rounds of: two equal adds, a copy of the second, a mul of both,
 * all reading one broadcast copy.  The passes must stay near linear (a
 * quadratic walk would blow the test's time limit, especially under ASan);
 * the result is one add and one mul per round.  The expectation is compared
 * as printed text: the pattern matcher recurses once per line.
 */
TEST(opt_cse, long_program)
{
   const unsigned rounds = 4000;
   std::string head = "shader fs simd8\nattr %1:f32x8\nuniform %2:f32x1\nblock0:\n";
   std::string in = head + "%3:f32x8 = mov %2\n", out = head;
   unsigned prev = 1, id = 4;
   for (unsigned i = 0; i < rounds; i++) {
      unsigned a = id++, b = id++, c = id++, m = id++;
      auto p = std::to_string(prev), sa = std::to_string(a),
           sb = std::to_string(b), sc = std::to_string(c),
           sm = std::to_string(m);
      in += "%" + sa + ":f32x8 = add %" + p + ", %3\n";
      in += "%" + sb + ":f32x8 = add %" + p + ", %3\n";
      in += "%" + sc + ":f32x8 = mov %" + sb + "\n";
      in += "%" + sm + ":f32x8 = mul %" + sa + ", %" + sc + "\n";
      out += "%" + sa + ":f32x8 = add %" + p + ", %2\n";
      out += "%" + sm + ":f32x8 = mul %" + sa + ", %" + sa + "\n";
      prev = m;
   }
   std::string w = "%" + std::to_string(prev);
   in += "untyped_write_logical 0:u32, " + w + ", " + w + ", 1:u32\n";
   out += "untyped_write_logical 0:u32, " + w + ", " + w + ", 1:u32\n";

   ibis::register_opt_passes();
   auto s = ibis::parse_shader(in);
   ibis::run_passes(*s, "validate,copy-prop,validate,cse,validate,copy-prop,"
                        "validate,dce,validate");
   EXPECT_EQ(s->str(), ibis::parse_shader(out)->str());
}

/* After lowering (the compiler runs cse again there): two sampler messages
 * with the same parameters share one payload; the sends themselves, which
 * read memory, are never merged.
 */
TEST(opt_cse, lowered_payloads_merge_sends_do_not)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      attr %2:f32x8
      block0:
         %3:f32x8[2] = load_payload %1, %2
         %4:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %5:f32x8[2] = load_payload %1, %2
         %6:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %5, _
         %7:f32x8 = add %4, %6
         %8:u32x8[4] = load_payload %7:u32, %4[1]:u32, %6[2]:u32, %4[3]:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %8, _ {EOT}
   )", "cse,dce", R"(
      block0:
         %3:f32x8[2] = load_payload %1, %2
         %4:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
         %6:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %3, _
   ...
   )"));
}
