/*
 * Constant combining after lowering: one load per constant, where it
 * dominates its readers; a float and its negation share one where every
 * reader negates.
 */
#include "opt_test.h"

using ibis::testing::check_opt;

/* tesseract/443.fs: 0.5 for two mads in each of two branches, -8.0 and
 * 8.0 for mads.  The two loads in block0 then share one vector-float
 * load (0.5 in channel 0, 8.0 in channel 1).
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
         %23:f32x4 = mov 0x60606020:vf {WE_all}
         %3:flagx8 = cmp.g %1, 0.0:f32
         (+%3) if
      block1:         ; preds: block0 succs: block3
         %5:f32x8 = mad %1, %2, %23<0,1,0>
         %7:f32x8 = mad %5, -%23.4<0,1,0>, %2
         else
      block2:         ; preds: block0 succs: block3
         %9:f32x8 = mad %2, %1, %23<0,1,0>
         %11:f32x8 = mad %9, -%23.4<0,1,0>, %1
   ...
   )"));
}

/* A single load stays, and a constant whose negation a reader cannot
 * take (cmp) keeps its own load.  (Constants no vector-float immediate
 * holds, so that the loads are not packed either; the first two then
 * share a 64-bit load, each in its own half.)
 */
TEST(opt_combine_constants, what_must_not_change)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      block0:
         %2:f32x1 = mov 2.2:f32 {WE_all}
         %3:f32x8 = mad %1, %1, %2
         %4:f32x1 = mov -3.3:f32 {WE_all}
         %5:flagx8 = cmp.ge %3, %4
         %6:f32x1 = mov 3.3:f32 {WE_all}
         %7:f32x8 = sel.l %3, %6
         (+%5) %8:f32x8 = sel %7, %3
         %20:u32x8[4] = load_payload %8:u32, %8:u32, %8:u32, %8:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )", "combine-constants", R"(
      block0:
         %21:u64x1 = mov 0xc0533333400ccccd:u64 {WE_all}
         %3:f32x8 = mad %1, %1, %21<0,1,0>:f32
         %5:flagx8 = cmp.ge %3, %21.4<0,1,0>:f32
         %6:f32x1 = mov 3.3:f32 {WE_all}
         %7:f32x8 = sel.l %3, %6
   ...
   )"));
}

/* sel takes a negate modifier: max(x, -3.0) and min(x, 3.0) share 3.0. */
TEST(opt_combine_constants, sel_negates)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      block0:
         %4:f32x1 = mov -3.0:f32 {WE_all}
         %5:f32x8 = sel.ge %1, %4
         %6:f32x1 = mov 3.0:f32 {WE_all}
         %7:f32x8 = sel.l %5, %6
         %20:u32x8[4] = load_payload %7:u32, %7:u32, %7:u32, %7:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )", "combine-constants", R"(
      block0:
         %21:f32x1 = mov 3.0:f32 {WE_all}
         %5:f32x8 = sel.ge %1, -%21
         %7:f32x8 = sel.l %5, %21
   ...
   )"));
}

/* tesseract/286.vs: a predicated u32 sel of -1.0 and 1.0 (NIR's bcsel)
 * selects bits; as f32 its -1.0 is the negation of the 1.0 a mul loads.
 * A sel of a constant that is no plain float (a denormal) stays u32 (its
 * load, 1:u32, shares a 64-bit load with 1.0:f32).
 */
TEST(opt_combine_constants, bit_sel_of_float_constants)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      block0:
         %2:flagx8 = cmp.l %1, 0.0:f32
         %3:u32x1 = mov 0xbf800000:u32 {WE_all}
         (+%2) %4:u32x8 = sel %3, 0x3f800000:u32
         %5:f32x1 = mov 1.0:f32 {WE_all}
         %6:f32x8 = mad %1, %1, %5
         %7:u32x1 = mov 0x1:u32 {WE_all}
         (+%2) %8:u32x8 = sel %7, 0x3f800000:u32
         %9:f32x1 = mov 1.0:f32 {WE_all}
         %10:f32x8 = mad %1, %6, %9
         %20:u32x8[4] = load_payload %4, %6:u32, %8, %10:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )", "combine-constants", R"(
      block0:
         %22:u64x1 = mov 0x13f800000:u64 {WE_all}
         %2:flagx8 = cmp.l %1, 0.0:f32
         (+%2) %4:u32x8:f32 = sel -%22<0,1,0>:f32, 1.0:f32
         %6:f32x8 = mad %1, %1, %22<0,1,0>:f32
         (+%2) %8:u32x8 = sel %22.4<0,1,0>:u32, 0x3f800000:u32
         %10:f32x8 = mad %1, %6, %22<0,1,0>:f32
   ...
   )"));
}

/* f32 constants of one block that a vector-float immediate holds (±0,
 * and 2^-3 < |x| <= 31 with a 4-bit mantissa) share 4-wide loads, read
 * as scalar channels; a packed load goes where its first constant was.
 * 0.1 (mantissa), 0.125 (its code would read 0) and 32.0 (exponent)
 * are no vector floats: the first two share a 64-bit load, the last
 * keeps its own.
 */
TEST(opt_combine_constants, vector_float_loads)
{
   EXPECT_TRUE(check_opt(R"(
      shader fs simd8 lowered
      attr %1:f32x8
      attr %2:f32x8
      block0:
         %3:f32x1 = mov 0.5:f32 {WE_all}
         %4:f32x8 = mad %1, %2, %3
         %5:f32x1 = mov 0.1:f32 {WE_all}
         %6:f32x8 = mad %4, %5, %2
         %7:f32x1 = mov -8.0:f32 {WE_all}
         %8:f32x8 = mad %6, %7, %1
         %9:f32x1 = mov 0.125:f32 {WE_all}
         %10:f32x8 = mad %8, %9, %1
         %11:f32x1 = mov 31.0:f32 {WE_all}
         %12:f32x8 = mad %10, %11, %1
         %13:f32x1 = mov 0.0:f32 {WE_all}
         %14:f32x8 = mad %12, %13, %1
         %15:f32x1 = mov 1.5:f32 {WE_all}
         %16:f32x8 = mad %14, %15, %1
         %17:f32x1 = mov 32.0:f32 {WE_all}
         %18:f32x8 = mad %16, %17, %1
         %19:f32x1 = mov 3.0:f32 {WE_all}
         %21:f32x8 = lrp %18, %19, %1
         %20:u32x8[4] = load_payload %21:u32, %12:u32, %18:u32, %16:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )", "combine-constants", R"(
      block0:
         %22:f32x4 = mov 0x7fe020:vf {WE_all}
         %4:f32x8 = mad %1, %2, %22<0,1,0>
         %24:u64x1 = mov 0x3e0000003dcccccd:u64 {WE_all}
         %6:f32x8 = mad %4, %24<0,1,0>:f32, %2
         %8:f32x8 = mad %6, %22.4<0,1,0>, %1
         %10:f32x8 = mad %8, %24.4<0,1,0>:f32, %1
         %12:f32x8 = mad %10, %22.8<0,1,0>, %1
         %14:f32x8 = mad %12, %22.12<0,1,0>, %1
         %23:f32x4 = mov 0x48484838:vf {WE_all}
         %16:f32x8 = mad %14, %23<0,1,0>, %1
         %17:f32x1 = mov 32.0:f32 {WE_all}
         %18:f32x8 = mad %16, %17, %1
         %21:f32x8 = lrp %18, %23.4<0,1,0>, %1
   ...
   )"));
   /* One packable constant alone in its block keeps its load. */
   const char *single = R"(
      shader fs simd8 lowered
      attr %1:f32x8
      block0:
         %2:f32x1 = mov 2.0:f32 {WE_all}
         %3:f32x8 = mad %1, %1, %2
         %20:u32x8[4] = load_payload %3:u32, %3:u32, %3:u32, %3:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(single, "combine-constants", single));
}

/* The 32-bit loads a block has left after the vector-float packing, of
 * any bits and type, share 64-bit loads two at a time ("mov(1) UQ"; Gen9
 * takes a 64-bit immediate in a mov), their halves read as scalars of
 * the loads' types.  A block's odd load left pairs with the odd load of
 * its nearest dominator, there (100.0 of block0 with 0.7 of block2); a
 * load no such partner is left for keeps its own (0.3).  At SIMD32 odd
 * loads of different blocks stay apart.
 */
TEST(opt_combine_constants, pairs_of_scalar_loads)
{
   const std::string body = R"(
      attr %1:f32x8
      attr %2:u32x8
      block0:         ; succs: block1 block2
         %3:f32x1 = mov 0.1:f32 {WE_all}
         %4:f32x8 = mad %1, %1, %3
         %5:u32x1 = mov 0x12345678:u32 {WE_all}
         %6:flagx8 = cmp.l %2, 7:u32
         (+%6) %7:u32x8 = sel %5, 9:u32
         %8:f32x1 = mov 100.0:f32 {WE_all}
         %9:f32x8 = lrp %4, %8, %1
         (+%6) if
      block1:         ; preds: block0 succs: block3
         %10:f32x1 = mov 0.3:f32 {WE_all}
         %11:f32x8 = mad %9, %1, %10
         else
      block2:         ; preds: block0 succs: block3
         %12:f32x1 = mov 0.7:f32 {WE_all}
         %13:f32x8 = mad %9, %1, %12
      block3:         ; preds: block1 block2
         endif
         %14:f32x8 = phi %11, %13
         %20:u32x8[4] = load_payload %14:u32, %7, %9:u32, %4:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )";
   EXPECT_TRUE(check_opt("shader fs simd8 lowered\n" + body, "combine-constants", R"(
      block0:         ; succs: block1 block2
         %21:u64x1 = mov 0x123456783dcccccd:u64 {WE_all}
         %4:f32x8 = mad %1, %1, %21<0,1,0>:f32
         %6:flagx8 = cmp.l %2, 7:u32
         (+%6) %7:u32x8 = sel %21.4<0,1,0>:u32, 9:u32
         %22:u64x1 = mov 0x3f33333342c80000:u64 {WE_all}
         %9:f32x8 = lrp %4, %22<0,1,0>:f32, %1
         (+%6) if
      block1:         ; preds: block0 succs: block3
         %10:f32x1 = mov 0.3:f32 {WE_all}
         %11:f32x8 = mad %9, %1, %10
         else
      block2:         ; preds: block0 succs: block3
         %13:f32x8 = mad %9, %1, %22.4<0,1,0>:f32
      block3:         ; preds: block1 block2
   ...
   )"));
}

/* At SIMD32, where the register file is tightest, odd loads of different
 * blocks keep their own loads (no scalar lives longer).
 */
TEST(opt_combine_constants, no_pairs_across_blocks_at_simd32)
{
   const char *program = R"(
      shader fs simd32 lowered
      attr %1:f32x32
      block0:         ; succs: block1 block2
         %2:f32x1 = mov 0.1:f32 {WE_all}
         %3:f32x32 = mad %1, %1, %2
         %4:flagx32 = cmp.l %3, 0.0:f32
         (+%4) if
      block1:         ; preds: block0 succs: block2
         %5:f32x1 = mov 0.3:f32 {WE_all}
         %6:f32x32 = mad %3, %1, %5
      block2:         ; preds: block0 block1
         endif
         %7:f32x32 = phi %3, %6
         %20:u32x16[4] = load_payload %7:u32, %7:u32, %7:u32, %7:u32
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %20, _
         %21:u32x16+16[4] = load_payload %7.64:u32, %7.64:u32, %7.64:u32, %7.64:u32
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %21, _ {EOT}
   )";
   EXPECT_TRUE(check_opt(program, "combine-constants", program));
}
