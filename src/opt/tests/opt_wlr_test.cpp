/*
 * The two WLR examples of wlr-write-lock-read.txt: gl_SubgroupInvocation
 * (mov 0x76543210:v, then adds into the same value) and a subgroup fadd
 * reduction scratching around in one value.  Computed twice, CSE keeps one
 * sequence and copy-prop reads the survivor through copies (which lets a
 * second CSE merge what read the copy); sequences that
 * differ in a source, a width or one write stay apart.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

TEST(opt_wlr, subgroup_invocation_twice_is_one_sequence)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd16
      wlr %1:u16x16
      wlr %2:u16x16
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %3:u16x16 = mov %1
         %4:u32x16 = mov %3
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %5:u16x16 = mul %2, 4:u16
         %6:u16x16 = mul %3, 4:u16
         %7:u16x16 = add %5, %6
         )" WRITE("%4") R"(
         )" WRITE("%7") R"(
   )", "cse,copy-prop,cse,dce", R"(
      shader cs simd16
      wlr %1:u16x16
      wlr %2:u16x16
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %4:u32x16 = mov %1
         %5:u16x16 = mul %1, 4:u16
         %7:u16x16 = add %5, %5
         )" WRITE("%4") R"(
         )" WRITE("%7") R"(
   )"));
}

/* Same text, other value sizes: x16 and x32 values are not one value. */
TEST(opt_wlr, subgroup_invocation_of_another_width_stays)
{
   const char *program = R"(
      shader cs simd32
      wlr %1:u16x16
      wlr %2:u16x32
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %3:u16x16 = add %1, %1
         %4:u16x32 = add %2, %2
         )" WRITE("%3") R"(
         )" WRITE("%4") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cse", program));
}

/* One more write into the second value, or a write without NoMask, makes
 * another sequence.
 */
TEST(opt_wlr, sequences_differing_in_one_write_stay)
{
   const char *program = R"(
      shader cs simd32
      wlr %1:u16x32
      wlr %2:u16x32
      wlr %3:u16x32
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %2.32<1> = add(16+16) %2<16,16,1>, 16:u16 {WE_all}
         %3 = mov(8) 0x76543210:v {WE_all}
         %3.16<1> = add(8+8) %3<8,8,1>, 8:u16
         %4:u16x32 = add %1, %2
         %5:u16x32 = add %4, %3
         )" WRITE("%5") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cse", program));
}

/* Between two sequences reading g1, g1 is written: they read different
 * things.
 */
TEST(opt_wlr, intervening_write_of_a_source_keeps_both)
{
   const char *program = R"(
      shader cs simd16
      hw %1:u16x16@g1
      wlr %2:u16x16
      wlr %3:u16x16
      block0:
         %2 = mov(8) %1<8,8,1> {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %1 = mov 0:u16
         %3 = mov(8) %1<8,8,1> {WE_all}
         %3.16<1> = add(8+8) %3<8,8,1>, 8:u16 {WE_all}
         %4:u16x16 = add %2, %3
         )" WRITE("%4") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cse", program));
}

/* A sequence in the then-block does not serve the same one after endif. */
TEST(opt_wlr, sequence_in_a_branch_does_not_serve_the_merge)
{
   const char *program = R"(
      shader cs simd16
      attr %1:f32x16
      wlr %2:u16x16
      wlr %3:u16x16
      block0:         ; succs: block1 block2
         %4:flagx16 = cmp.l %1, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %5:u16x16 = add %2, 1:u16
         )" WRITE("%5") R"(
      block2:         ; preds: block0 block1
         endif
         %3 = mov(8) 0x76543210:v {WE_all}
         %3.16<1> = add(8+8) %3<8,8,1>, 8:u16 {WE_all}
         %6:u16x16 = add %3, 1:u16
         )" WRITE("%6") R"(
   )";
   EXPECT_TRUE(check_opt(program, "cse", program));
}

/* The same sequence in a dominated block is served by the first. */
TEST(opt_wlr, sequence_in_a_dominated_block_merges)
{
   EXPECT_TRUE(check_opt(R"(
      shader cs simd16
      attr %1:f32x16
      wlr %2:u16x16
      wlr %3:u16x16
      block0:         ; succs: block1 block2
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %4:flagx16 = cmp.l %1, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         %3 = mov(8) 0x76543210:v {WE_all}
         %3.16<1> = add(8+8) %3<8,8,1>, 8:u16 {WE_all}
         %5:u16x16 = add %3, 1:u16
         )" WRITE("%5") R"(
      block2:         ; preds: block0 block1
         endif
         %6:u16x16 = add %2, 1:u16
         )" WRITE("%6") R"(
   )", "cse", R"(
      block0: ; succs: block1 block2
         %2 = mov(8) 0x76543210:v {WE_all}
         %2.16<1> = add(8+8) %2<8,8,1>, 8:u16 {WE_all}
         %4:flagx16 = cmp.l %1, 0.0:f32
         (+%4) if
      block1: ; preds: block0 succs: block2
         %5:u16x16 = add %2, 1:u16
         )" WRITE("%5") R"(
      block2: ; preds: block0 block1
         endif
         %6:u16x16 = add %2, 1:u16
         )" WRITE("%6") R"(
   )"));
}

/* Subgroup fadd in SIMD8: the source goes into a scratch value whose
 * inactive channels hold the identity, strided adds build the scan, and
 * the total in channel 7 is broadcast.  The second reduction of the same
 * source merges into the first; copy-prop then reads the total through the
 * scalar region where ALU sources take it.
 */
#define REDUCE(w, src)                                                 \
   "%" w " = mov 0.0:f32 {WE_all}\n"                                   \
   "%" w " = mov " src "\n"                                            \
   "%" w ".4<2> = add(4) %" w "<8,4,2>, %" w ".4<8,4,2> {WE_all}\n"    \
   "%" w ".8<1> = add(2) %" w ".4<0,1,0>, %" w ".8<2,2,1> {WE_all}\n"  \
   "%" w ".24<1> = add(2) %" w ".20<0,1,0>, %" w ".24<2,2,1> {WE_all}\n" \
   "%" w ".16<1> = add(4) %" w ".12<0,1,0>, %" w ".16<4,4,1> {WE_all}\n"

TEST(opt_wlr, subgroup_fadd_twice_is_one_sequence)
{
   EXPECT_TRUE(check_opt("shader cs simd8\n"
                         "attr %1:f32x8[2]\n"
                         "wlr %2:f32x8\n"
                         "wlr %3:f32x8\n"
                         "block0:\n"
                         REDUCE("2", "%1")
                         "%4:f32x8 = mov %2.28<0,1,0>\n"
                         "%5:f32x8 = mul %4, %1[1]\n"
                         REDUCE("3", "%1")
                         "%6:f32x8 = mov %3.28<0,1,0>\n"
                         "%7:f32x8 = add %5, %6\n"
                         WRITE("%7"),
                         "cse,copy-prop,dce",
                         "block0:\n"
                         REDUCE("2", "%1")
                         "%5:f32x8 = mul %2.28<0,1,0>, %1[1]\n"
                         "%7:f32x8 = add %5, %2.28<0,1,0>\n"
                         WRITE("%7")));
}

/* Reductions of different sources are different values. */
TEST(opt_wlr, subgroup_fadd_of_another_source_stays)
{
   std::string program = "shader cs simd8\n"
                         "attr %1:f32x8[2]\n"
                         "wlr %2:f32x8\n"
                         "wlr %3:f32x8\n"
                         "block0:\n"
                         REDUCE("2", "%1")
                         REDUCE("3", "%1[1]")
                         "%4:f32x8 = add %2.28<0,1,0>, %3.28<0,1,0>\n"
                         WRITE("%4");
   EXPECT_TRUE(check_opt(program, "cse,copy-prop,dce", program));
}
