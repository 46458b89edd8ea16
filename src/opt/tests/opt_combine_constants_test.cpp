/*
 * Constant combining after lowering: one load per constant, where it
 * dominates its readers; a float and its negation share one where every
 * reader negates.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

/* tesseract/443.fs: 0.5 for two mads in each of two branches, -8.0 and
 * 8.0 for mads.
 */
TEST(opt_combine_constants, one_load_where_it_dominates)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      attr %2:f32x8
      block0:         ; succs: block1 block2
         %3:flagx8 = cmp.g %1, 0.0:f32
         (+%3) if
      block1:         ; preds: block0 succs: block3
         %4:f32x1 = mov 0.5:f32 {WE_all}
         %5:f32x8 = mad %1, %2, %4
         %6:f32x1 = mov -8.0:f32 {WE_all}
         %7:f32x8 = mad %5, %6, %2
         else
      block2:         ; preds: block0 succs: block3
         %8:f32x1 = mov 0.5:f32 {WE_all}
         %9:f32x8 = mad %2, %1, %8
         %10:f32x1 = mov 8.0:f32 {WE_all}
         %11:f32x8 = mad %9, -%10, %1
      block3:         ; preds: block1 block2
         endif
         %12:f32x8 = phi %7, %11
         %20:u32x8[4] = load_payload %12:u32, %12:u32, %12:u32, %12:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )", "combine-constants", R"(
      block0:         ; succs: block1 block2
         %21:f32x1 = mov 0.5:f32 {WE_all}
         %22:f32x1 = mov 8.0:f32 {WE_all}
         %3:flagx8 = cmp.g %1, 0.0:f32
         (+%3) if
      block1:         ; preds: block0 succs: block3
         %5:f32x8 = mad %1, %2, %21
         %7:f32x8 = mad %5, -%22, %2
         else
      block2:         ; preds: block0 succs: block3
         %9:f32x8 = mad %2, %1, %21
         %11:f32x8 = mad %9, -%22, %1
   ...
   )"));
}

/* A single load stays, and a constant whose negation a reader cannot
 * take (sel) keeps its own load.
 */
TEST(opt_combine_constants, what_must_not_change)
{
   const char *program = R"(
      shader fs simd8 lowered
      attr %1:f32x8
      block0:
         %2:f32x1 = mov 2.0:f32 {WE_all}
         %3:f32x8 = mad %1, %1, %2
         %4:f32x1 = mov -3.0:f32 {WE_all}
         %5:f32x8 = sel.ge %3, %4
         %6:f32x1 = mov 3.0:f32 {WE_all}
         %7:f32x8 = sel.l %5, %6
         %20:u32x8[4] = load_payload %7:u32, %7:u32, %7:u32, %7:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "combine-constants", program));
}
