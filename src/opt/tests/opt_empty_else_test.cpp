/*
 * Empty if/else arms: an empty else-arm goes with its else, an empty
 * then-arm too once the if is inverted; the phis at the endif take the
 * removed arm's value on the edge from the if-block.
 */
#include "opt_test.h"
#include "util/ibis_error.h"

using ibis::testing::check_opt;

TEST(opt_empty_else, empty_else_arm_goes)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         else
      block2:
      block3:
         endif
         %4:f32x8 = phi %3, %1
         )" WRITE("%4") R"(
   )", "empty-else", R"(
      block0: ; succs: block1 block3
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1: ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
         %4:f32x8 = phi %1, %3
         )" WRITE("%4") R"(
   )"));
}

/* The else-arm has a store: the then-arm goes instead. */
TEST(opt_empty_else, empty_then_arm_inverts_the_if)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         else
      block2:
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
      block3:
         endif
         %4:f32x8 = phi %1, %3
         )" WRITE("%4") R"(
   )", "empty-else", R"(
      block0: ; succs: block1 block3
         %2:flagx8 = cmp.g %1, 0.0:f32
         (-%2) if
      block1: ; preds: block0 succs: block2
      block2: ; preds: block1 succs: block3
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
      block3: ; preds: block0 block2
         endif
         %4:f32x8 = phi %1, %3
         )" WRITE("%4") R"(
   )"));
}

/* Both arms of the outer if end empty-handed in turn: the inner if/else
 * loses its empty else, the outer one its empty then-arm.
 */
TEST(opt_empty_else, nested_arms)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         else
      block2:
         %3:flagx8 = cmp.l %1, 4.0:f32
         (+%3) if
      block3:
         %4:f32x8 = mul %1, %1
         else
      block4:
      block5:
         endif
         %5:f32x8 = phi %4, %1
      block6:
         endif
         %6:f32x8 = phi %1, %5
         )" WRITE("%6") R"(
   )", "empty-else", R"(
      block0: ; succs: block1 block6
         %2:flagx8 = cmp.g %1, 0.0:f32
         (-%2) if
      block1: ; preds: block0 succs: block2
      block2: ; preds: block1 succs: block3 block5
         %3:flagx8 = cmp.l %1, 4.0:f32
         (+%3) if
      block3: ; preds: block2 succs: block4
         %4:f32x8 = mul %1, %1
      block4: ; preds: block3 succs: block5
      block5: ; preds: block2 block4 succs: block6
         endif
         %5:f32x8 = phi %1, %4
      block6: ; preds: block0 block5
         endif
         %6:f32x8 = phi %1, %5
         )" WRITE("%6") R"(
   )"));
}

/* %1 lives on through the then-arm, so the copy before the if needs a
 * register of its own there, where 128 registers of %5 are live: the else
 * stays.  %7 dies at the if: its copy takes its register, the else goes.
 */
TEST(opt_empty_else, not_over_the_register_file)
{
   const char *in = R"(
      shader fs simd8
      attr %1:f32x8
      attr %5:f32x8[128]
      block0:
         %7:f32x8 = mul %1, 3.0:f32
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         else
      block2:
      block3:
         endif
         %4:f32x8 = phi %3, %SRC
         )" WRITE("%4") R"(
         )" WRITE("%5[127]") R"(
   )";
   std::string kept = in, taken = in;
   kept.replace(kept.find("%SRC"), 4, "%1");
   taken.replace(taken.find("%SRC"), 4, "%7");
   EXPECT_TRUE(check_opt(kept, "empty-else", R"(
      block0: ; succs: block1 block2
         %7:f32x8 = mul %1, 3.0:f32
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1: ; preds: block0 succs: block3
         %3:f32x8 = add %1, 1.0:f32
         else
      block2: ; preds: block0 succs: block3
      block3: ; preds: block1 block2
         endif
         %4:f32x8 = phi %3, %1
         )" WRITE("%4") R"(
         )" WRITE("%5[127]") R"(
   )"));
   EXPECT_TRUE(check_opt(taken, "empty-else", R"(
      block0: ; succs: block1 block3
         %7:f32x8 = mul %1, 3.0:f32
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1: ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
         %4:f32x8 = phi %7, %3
         )" WRITE("%4") R"(
         )" WRITE("%5[127]") R"(
   )"));
}

/* Both arms store: nothing to do. */
TEST(opt_empty_else, full_arms_stay)
{
   const char *in = R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
         else
      block2:
         %4:f32x8 = mul %1, 2.0:f32
         )" WRITE("%4") R"(
      block3:
         endif
         %5:f32x8 = phi %3, %4
         )" WRITE("%5") R"(
   )";
   EXPECT_TRUE(check_opt(in, "empty-else", in));
}

/* An arm computing only what the phis read moves before the if: its
 * constant and the sum made of it, for every channel.  Either arm could go
 * here; the else-arm is tried first.
 */
TEST(opt_empty_else, phi_only_arm_moves_before_the_if)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         else
      block2:
         %4:f32x8 = mov 2.0:f32
         %5:f32x8 = add %4, %1
      block3:
         endif
         %6:f32x8 = phi %3, %4
         %7:f32x8 = phi %3, %5
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
   )", "empty-else", R"(
      block0: ; succs: block1 block3
         %2:flagx8 = cmp.g %1, 0.0:f32
         %4:f32x8 = mov 2.0:f32
         %5:f32x8 = add %4, %1
         (+%2) if
      block1: ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
         %6:f32x8 = phi %4, %3
         %7:f32x8 = phi %5, %3
         )" WRITE("%6") R"(
         )" WRITE("%7") R"(
   )"));
}

/* A result read elsewhere, a send or a predicated write keep the arm
 * (the then-arm stores).
 */
TEST(opt_empty_else, arm_with_other_work_stays)
{
   for (const char *arm : {
           "%4:f32x8 = mov 2.0:f32\n " WRITE("%4"),
           "%4:f32x8 = untyped_read_logical 0:u32, %1, 1:u32",
           "(+%2) %4:f32x8 = sel %1, 2.0:f32"}) {
      std::string in = std::string(R"(
         shader fs simd8
         attr %1:f32x8
         block0:
            %2:flagx8 = cmp.g %1, 0.0:f32
            (+%2) if
         block1:
            %3:f32x8 = add %1, 1.0:f32
            )" WRITE("%3") R"(
            else
         block2:
            )") + arm + R"(
         block3:
            endif
            %6:f32x8 = phi %3, %4
            )" WRITE("%6") R"(
      )";
      EXPECT_TRUE(check_opt(in, "empty-else", in)) << arm;
   }
}

/* A flag of the arm's own goes before the if's flag, so that the two are
 * not live together; a value computed between the if's flag and the if
 * keeps the arm's instructions after that flag.
 */
TEST(opt_empty_else, arm_flags_go_before_the_if_flag)
{
   const char *in = R"(
      shader fs simd8
      attr %1:f32x8
      attr %8:s32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         %9:s32x8 = add %8, 3:s32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
         else
      block2:
         %4:flagx8 = cmp.z %SRC, 1:s32
         (+%4) %5:f32x8 = sel %1, 2.0:f32
      block3:
         endif
         %6:f32x8 = phi %3, %5
         )" WRITE("%6") R"(
   )";
   std::string before = in, after = in;
   before.replace(before.find("%SRC"), 4, "%8");
   after.replace(after.find("%SRC"), 4, "%9");
   EXPECT_TRUE(check_opt(before, "empty-else", R"(
      block0: ; succs: block1 block3
         %4:flagx8 = cmp.z %8, 1:s32
         (+%4) %5:f32x8 = sel %1, 2.0:f32
         %2:flagx8 = cmp.g %1, 0.0:f32
         %9:s32x8 = add %8, 3:s32
         (+%2) if
      block1: ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
         %6:f32x8 = phi %5, %3
         )" WRITE("%6") R"(
   )"));
   EXPECT_TRUE(check_opt(after, "empty-else", R"(
      block0: ; succs: block1 block3
         %2:flagx8 = cmp.g %1, 0.0:f32
         %9:s32x8 = add %8, 3:s32
         %4:flagx8 = cmp.z %9, 1:s32
         (+%4) %5:f32x8 = sel %1, 2.0:f32
         (+%2) if
      block1: ; preds: block0 succs: block2
         %3:f32x8 = add %1, 1.0:f32
         )" WRITE("%3") R"(
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
         %6:f32x8 = phi %5, %3
         )" WRITE("%6") R"(
   )"));
}

/* An if on a push constant: all channels go one way.  Moving the arm's
 * add (or only the phi's copy, for an empty else-arm) before the if
 * would run it on the other side too, to save one jump on its own: both
 * ifs keep their arms.  An arm with nothing at all still goes.
 */
TEST(opt_empty_else, uniform_if_keeps_an_arm_with_work)
{
   const char *in = R"(
      shader fs simd8
      attr %1:f32x8
      uniform %9:u32x1[4]@g6
      block0:
         %2:flagx8 = cmp.nz %9, 0:u32
         (+%2) if
      block1:
         %3:f32x8 = add %1, 1.0:f32
         else
      block2:
      block3:
         endif
         %4:f32x8 = phi %3, %1
         )" WRITE("%4") R"(
         %5:flagx8 = cmp.nz %9[1], 0:u32
         (+%5) if
      block4:
         else
      block5:
         %6:f32x8 = add %1, 2.0:f32
      block6:
         endif
         %7:f32x8 = phi %1, %6
         )" WRITE("%7") R"(
   )";
   EXPECT_TRUE(check_opt(in, "empty-else", in));
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8
      attr %1:f32x8
      uniform %9:u32x1[4]@g6
      block0:
         %2:flagx8 = cmp.nz %9, 0:u32
         (+%2) if
      block1:
         )" WRITE("%1") R"(
         else
      block2:
      block3:
         endif
   )", "empty-else", R"(
      block0: ; succs: block1 block3
         %2:flagx8 = cmp.nz %9, 0:u32
         (+%2) if
      block1: ; preds: block0 succs: block2
         )" WRITE("%1") R"(
      block2: ; preds: block1 succs: block3
      block3: ; preds: block0 block2
         endif
   )"));
}

/* Each phi at the endif takes a copy before the if for the removed arm's
 * edge, run for every channel also where all of them take the other
 * arm: with the arm's own instructions at most 8.  An empty else-arm
 * with eight phis goes; with nine it stays.
 */
TEST(opt_empty_else, phi_copies_count_as_moved_work)
{
   auto program = [](unsigned phis, bool removed) {
      std::string s = R"(
      shader fs simd8
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.g %1, 0.0:f32
         (+%2) if
      block1:
)";
      if (removed)
         s = "      block0: ; succs: block1 block3\n"
             "         %2:flagx8 = cmp.g %1, 0.0:f32\n"
             "         (+%2) if\n"
             "      block1: ; preds: block0 succs: block2\n";
      for (unsigned i = 0; i < phis; i++)
         s += ibis::strfmt("         %%%u:f32x8 = add %%1, %u.0:f32\n", 10 + i, i);
      s += removed ? "      block2: ; preds: block1 succs: block3\n"
                     "      block3: ; preds: block0 block2\n"
                     "         endif\n"
                   : "         else\n"
                     "      block2:\n"
                     "      block3:\n"
                     "         endif\n";
      for (unsigned i = 0; i < phis; i++) {
         s += removed ? ibis::strfmt("         %%%u:f32x8 = phi %%1, %%%u\n", 30 + i, 10 + i)
                      : ibis::strfmt("         %%%u:f32x8 = phi %%%u, %%1\n", 30 + i, 10 + i);
      }
      for (unsigned i = 0; i < phis; i++)
         s += ibis::strfmt("         " WRITE("%%%u") "\n", 30 + i, 30 + i);
      return s;
   };
   EXPECT_TRUE(check_opt(program(8, false), "empty-else", program(8, true)));
   EXPECT_TRUE(check_opt(program(9, false), "empty-else", program(9, false)));
}
