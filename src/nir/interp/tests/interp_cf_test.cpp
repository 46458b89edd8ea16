/*
 * Control flow under per-channel masks: divergent if/else, loops with
 * break and continue, phis (also along back edges), registers, halt, and
 * the channel mask, at SIMD8, SIMD16 and SIMD32.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

class InterpCF : public ::testing::TestWithParam<unsigned> {};

INSTANTIATE_TEST_SUITE_P(Simd, InterpCF, ::testing::Values(8u, 16u, 32u));

/* The vertex id is the channel number by default. */
TEST_P(InterpCF, DivergentIfElseMergesThroughPhi)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_vertex_id () ()
    32    %2 = load_const (0x00000003)
    1     %3 = ult %1, %2 (0x3)
    if %3 {
        block b1:
        32    %4 = load_const (0x00000064)
        32    %5 = iadd %1, %4 (0x64)
    } else {
        block b2:
        32    %6 = imul %1, %1
    }
    block b3:
    32    %7 = phi b1: %5, b2: %6
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0") + R"(
    block b4:
)");
   inputs in;
   in.simd = GetParam();
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < in.simd; c++)
      EXPECT_EQ(out.word(var0, 0, c), c < 3 ? 100 + c : c * c) << "channel " << c;
   EXPECT_EQ(out.find(var0)->written[0], in.simd == 32 ? ~0u : (1u << in.simd) - 1);
}

/*
 * acc = 0; for (i = 0; i < vid; i++) { if (i & 1) continue; acc += i; }
 * with the counter and sum in registers: acc is the sum of the even
 * numbers below vid, m(m-1) for m = ceil(vid / 2).  A second register
 * counts the iterations that reach the end of the body.
 */
TEST_P(InterpCF, LoopWithDivergentBreakAndContinue)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %1 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %3 = load_const (0x00000000)
    32    %4 = load_const (0x00000001)
    32    %5 = @load_vertex_id () ()
    @store_reg (%3 (0x0), %0) (base=0, wrmask=x, legacy_fsat=0)
    @store_reg (%3 (0x0), %1) (base=0, wrmask=x, legacy_fsat=0)
    @store_reg (%3 (0x0), %2) (base=0, wrmask=x, legacy_fsat=0)
    loop {
        block b1:
        32    %6 = @load_reg (%1) (base=0, legacy_fabs=0, legacy_fneg=0)
        1     %7 = uge %6, %5
        if %7 {
            block b2:
            break
        } else {
            block b3:
        }
        block b4:
        32    %8 = iadd %6, %4 (0x1)
        @store_reg (%8, %1) (base=0, wrmask=x, legacy_fsat=0)
        32    %9 = iand %6, %4 (0x1)
        1     %10 = ine %9, %3 (0x0)
        if %10 {
            block b5:
            continue
        } else {
            block b6:
        }
        block b7:
        32    %11 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %12 = iadd %11, %6
        @store_reg (%12, %0) (base=0, wrmask=x, legacy_fsat=0)
        32    %13 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %14 = iadd %13, %4 (0x1)
        @store_reg (%14, %2) (base=0, wrmask=x, legacy_fsat=0)
    }
    block b8:
    32    %15 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)
    32    %16 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x2  %17 = vec2 %15, %16
)" + store_output("%17", "%3", "VARYING_SLOT_VAR0", "xy") + R"(
    block b9:
)");
   inputs in;
   in.simd = GetParam();
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < in.simd; c++) {
      const unsigned m = (c + 1) / 2;
      EXPECT_EQ(out.word(var0, 0, c), m * (m - 1)) << "channel " << c;
      EXPECT_EQ(out.word(var0, 1, c), m) << "channel " << c;
   }
}

/*
 * SSA loop: header phis read each other along the back edge, so (a, b)
 * swap every iteration: after vid iterations a is 7 for even vid and 9
 * for odd.  n counts the iterations and is read after the loop.
 */
TEST_P(InterpCF, LoopHeaderPhisSwapInParallel)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000007)
    32    %3 = load_const (0x00000009)
    32    %4 = @load_vertex_id () ()
    loop {
        block b1:
        32    %5 = phi b0: %0, b4: %9
        32    %6 = phi b0: %2, b4: %7
        32    %7 = phi b0: %3, b4: %6
        1     %8 = uge %5, %4
        if %8 {
            block b2:
            break
        } else {
            block b3:
        }
        block b4:
        32    %9 = iadd %5, %1 (0x1)
    }
    block b5:
    32x2  %10 = vec2 %6, %5
)" + store_output("%10", "%0", "VARYING_SLOT_VAR0", "xy") + R"(
    block b6:
)");
   inputs in;
   in.simd = GetParam();
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < in.simd; c++) {
      EXPECT_EQ(out.word(var0, 0, c), c % 2 ? 9u : 7u) << "channel " << c;
      EXPECT_EQ(out.word(var0, 1, c), c) << "channel " << c;
   }
}

/* Nested loops: the inner break leaves only the inner loop. */
TEST_P(InterpCF, NestedLoopsBreakInnerOnly)
{
   /* for (j = 0; j < 3; j++) for (i = 0; ; i++) { if (i >= vid % 4) break;
    * total++; } -> total = 3 * (vid % 4).
    */
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %1 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %2 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %3 = load_const (0x00000000)
    32    %4 = load_const (0x00000001)
    32    %5 = load_const (0x00000003)
    32    %6 = load_const (0x00000004)
    32    %7 = @load_vertex_id () ()
    32    %8 = umod %7, %6 (0x4)
    @store_reg (%3 (0x0), %0) (base=0, wrmask=x, legacy_fsat=0)
    @store_reg (%3 (0x0), %1) (base=0, wrmask=x, legacy_fsat=0)
    loop {
        block b1:
        32    %9 = @load_reg (%1) (base=0, legacy_fabs=0, legacy_fneg=0)
        1     %10 = uge %9, %5 (0x3)
        if %10 {
            block b2:
            break
        } else {
            block b3:
        }
        block b4:
        @store_reg (%3 (0x0), %2) (base=0, wrmask=x, legacy_fsat=0)
        loop {
            block b5:
            32    %11 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)
            1     %12 = uge %11, %8
            if %12 {
                block b6:
                break
            } else {
                block b7:
            }
            block b8:
            32    %13 = iadd %11, %4 (0x1)
            @store_reg (%13, %2) (base=0, wrmask=x, legacy_fsat=0)
            32    %14 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)
            32    %15 = iadd %14, %4 (0x1)
            @store_reg (%15, %0) (base=0, wrmask=x, legacy_fsat=0)
        }
        block b9:
        32    %16 = iadd %9, %4 (0x1)
        @store_reg (%16, %1) (base=0, wrmask=x, legacy_fsat=0)
    }
    block b10:
    32    %17 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)
)" + store_output("%17", "%3", "VARYING_SLOT_VAR0") + R"(
    block b11:
)");
   inputs in;
   in.simd = GetParam();
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < in.simd; c++)
      EXPECT_EQ(out.word(var0, 0, c), 3 * (c % 4)) << "channel " << c;
}

/* Channels that halt keep what they stored before and run nothing after. */
TEST_P(InterpCF, HaltEndsOnlyTheChannelsThatTakeIt)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000005)
    32    %2 = load_const (0x0000000b)
    32    %3 = load_const (0x00000016)
    32    %4 = @load_vertex_id () ()
)" + store_output("%2", "%0", "VARYING_SLOT_VAR0") + R"(
    1     %5 = uge %4, %1 (0x5)
    if %5 {
        block b1:
        halt
    } else {
        block b2:
    }
    block b3:
)" + store_output("%3", "%0", "VARYING_SLOT_VAR0") + R"(
    block b4:
)");
   inputs in;
   in.simd = GetParam();
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < in.simd; c++)
      EXPECT_EQ(out.word(var0, 0, c), c >= 5 ? 11u : 22u) << "channel " << c;
}

/* Only the channels in the mask run; the rest write nothing. */
TEST_P(InterpCF, ChannelMaskLimitsExecution)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_vertex_id () ()
)" + store_output("%1", "%0", "VARYING_SLOT_VAR0") + R"(
    block b1:
)");
   inputs in;
   in.simd = GetParam();
   in.channels = 0x80000005u;
   const outputs out = run(*s, in);
   const uint32_t expect = in.simd == 32 ? 0x80000005u : 0x5u;
   EXPECT_EQ(out.channels, expect);
   EXPECT_EQ(out.find(var0)->written[0], expect);
   EXPECT_EQ(out.word(var0, 0, 2), 2u);
}

} /* anonymous namespace */

/* Register arrays: direct and indirect elements, write masks. */
TEST(InterpRegs, ArrayElementsIndirectAndWriteMask)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = @decl_reg () (num_components=4, num_array_elems=3, bit_size=32, divergent=1)
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000003)
    32    %3 = load_const (0x00000001)
    32x4  %4 = load_const (0x0000000a, 0x0000000b, 0x0000000c, 0x0000000d)
    32x4  %5 = load_const (0x00000014, 0x00000015, 0x00000016, 0x00000017)
    32x4  %6 = load_const (0x0000001e, 0x0000001f, 0x00000020, 0x00000021)
    @store_reg (%4, %0) (base=0, wrmask=xyzw, legacy_fsat=0)
    @store_reg (%5, %0) (base=1, wrmask=xyzw, legacy_fsat=0)
    @store_reg (%6, %0) (base=2, wrmask=xyzw, legacy_fsat=0)
    32    %7 = @load_vertex_id () ()
    32    %8 = umod %7, %2 (0x3)
    32x4  %9 = vec4 %7, %7, %7, %7
    @store_reg_indirect (%9, %0, %8) (base=0, wrmask=yw, legacy_fsat=0)
    32x4  %10 = @load_reg_indirect (%0, %8) (base=0, legacy_fabs=0, legacy_fneg=0)
    32    %11 = iadd %7, %3 (0x1)
    32    %12 = umod %11, %2 (0x3)
    32x4  %13 = @load_reg_indirect (%0, %12) (base=0, legacy_fabs=0, legacy_fneg=0)
    32x4  %14 = @load_reg (%0) (base=1, legacy_fabs=0, legacy_fneg=0)
)" + store_output("%10", "%1", "VARYING_SLOT_VAR0", "xyzw") +
                                  store_output("%13", "%1", "VARYING_SLOT_VAR1", "xyzw") +
                                  store_output("%14", "%1", "VARYING_SLOT_VAR2", "xyzw") + R"(
    block b1:
)");
   inputs in;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      const unsigned e = c % 3, e2 = (c + 1) % 3;
      EXPECT_EQ(out.word(var0, 0, c), 10 * (e + 1));
      EXPECT_EQ(out.word(var0, 1, c), c);
      EXPECT_EQ(out.word(var0, 2, c), 10 * (e + 1) + 2);
      EXPECT_EQ(out.word(var0, 3, c), c);
      /* The next element was not written by this channel. */
      for (unsigned k = 0; k < 4; k++)
         EXPECT_EQ(out.word(var0 + 1, k, c), 10 * (e2 + 1) + k);
      /* Element 1 lost y and w in channels 1, 4, 7. */
      const bool hit = e == 1;
      EXPECT_EQ(out.word(var0 + 2, 0, c), 20u);
      EXPECT_EQ(out.word(var0 + 2, 1, c), hit ? c : 21u);
      EXPECT_EQ(out.word(var0 + 2, 3, c), hit ? c : 23u);
   }
}

/* legacy_fsat clamps on store, legacy_fabs/fneg apply on load: -|x|. */
TEST(InterpRegs, LegacyModifiers)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
    32    %1 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
    32    %2 = load_const (0x00000000)
    32    %3 = load_const (0x3fc00000 = 1.500000)
    32    %4 = load_const (0xc0000000 = -2.000000)
    @store_reg (%3 (1.500000), %0) (base=0, wrmask=x, legacy_fsat=1)
    @store_reg (%4 (-2.000000), %1) (base=0, wrmask=x, legacy_fsat=0)
    32    %5 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)
    32    %6 = @load_reg (%1) (base=0, legacy_fabs=1, legacy_fneg=1)
    32    %7 = @load_reg (%1) (base=0, legacy_fabs=1, legacy_fneg=0)
    32x3  %8 = vec3 %5, %6, %7
)" + store_output("%8", "%2", "VARYING_SLOT_VAR0", "xyz", "float32") + R"(
    block b1:
)");
   const outputs out = run(*s, inputs());
   EXPECT_EQ(out.f32(var0, 0, 3), 1.0f);
   EXPECT_EQ(out.f32(var0, 1, 3), -2.0f);
   EXPECT_EQ(out.f32(var0, 2, 3), 2.0f);
}

/* A loop that never ends is stopped with an error, not a hang. */
TEST(InterpErrors, RunawayLoop)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    loop {
        block b1:
    }
    block b2:
    block b3:
)");
   inputs in;
   in.max_loop_iterations = 100;
   EXPECT_THROW(run(*s, in), ibis::error);
}

/* Unsupported intrinsics are errors that name the instruction. */
TEST(InterpErrors, UnsupportedIntrinsicIsNamed)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32x2  %0 = @shader_clock () (memory_scope=SUBGROUP)
    block b1:
)");
   try {
      run(*s, inputs());
      FAIL() << "no error";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("@shader_clock"), std::string::npos)
         << e.what();
      EXPECT_EQ(std::string(e.what()),
                "test.nir:10: the interpreter does not support intrinsic "
                "@shader_clock: 32x2  %0 = @shader_clock () (memory_scope=SUBGROUP)");
   }
}
