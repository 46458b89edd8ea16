/*
 * Subgroup operations across the SIMD group (with divergent masks) and
 * derivatives over 2x2 quads.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

/* A vertex shader whose body runs for channels with invocation id >= lo:
 * %0 = 0, %1 = invocation id, %2 = 1 (inside the if: %1 >= lo).
 */
std::string
divergent(unsigned lo, const std::string &inside, const std::string &store)
{
   return R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_subgroup_invocation () ()
    32    %2 = load_const (0x00000001)
    32    %3 = load_const ()" + ibis::strfmt("0x%08x", lo) + R"()
    1     %4 = uge %1, %3
    if %4 {
        block b1:
)" + inside + store + R"(
    } else {
        block b2:
    }
    block b3:
    block b4:
)";
}

class InterpSubgroup : public ::testing::TestWithParam<unsigned> {
protected:
   outputs run_vs(const std::string &body)
   {
      auto s = make_shader("VERTEX", body);
      inputs in;
      in.simd = GetParam();
      return run(*s, in);
   }
   unsigned simd() const { return GetParam(); }
   uint32_t all() const { return simd() == 32 ? ~0u : (1u << simd()) - 1; }
};

INSTANTIATE_TEST_SUITE_P(Simd, InterpSubgroup, ::testing::Values(8u, 16u, 32u));

TEST_P(InterpSubgroup, BallotCountsOnlyActiveChannels)
{
   /* Channels >= 3 ballot "invocation is odd". */
   const outputs out = run_vs(divergent(3, R"(
        32    %5 = iand %1, %2 (0x1)
        1     %6 = ine %5, %0 (0x0)
        32    %7 = @ballot (%6) ()
        32x4  %8 = @ballot (%6) ()
)", store_output("%7", "%0", "VARYING_SLOT_VAR0") +
       store_output("%8", "%0", "VARYING_SLOT_VAR1", "xyzw")));
   const uint32_t expect = 0xaaaaaaaau & all() & ~7u;
   for (unsigned c = 3; c < simd(); c++) {
      EXPECT_EQ(out.word(var0, 0, c), expect) << c;
      EXPECT_EQ(out.word(var0 + 1, 0, c), expect) << c;
      EXPECT_EQ(out.word(var0 + 1, 1, c), 0u) << c;
   }
   EXPECT_EQ(out.find(var0)->written[0], all() & ~7u);
}

TEST_P(InterpSubgroup, Votes)
{
   /* Among channels >= 4: any(c == 5), all(c >= 4), all(c >= 5),
    * ieq(c >> 8) (all 0), ieq(c), feq(1.0), feq(NaN).
    */
   const outputs out = run_vs(divergent(4, R"(
        32    %5 = load_const (0x00000005)
        1     %6 = ieq %1, %5 (0x5)
        1     %7 = @vote_any (%6) ()
        1     %8 = @vote_all (%4) ()
        1     %9 = uge %1, %5 (0x5)
        1     %10 = @vote_all (%9) ()
        32    %11 = load_const (0x00000008)
        32    %12 = ushr %1, %11 (0x8)
        1     %13 = @vote_ieq (%12) ()
        1     %14 = @vote_ieq (%1) ()
        32    %15 = load_const (0x3f800000)
        32    %16 = load_const (0x7fc00000)
        1     %17 = @vote_feq (%15) ()
        1     %18 = @vote_feq (%16) ()
        32    %19 = b2i32 %7
        32    %20 = b2i32 %8
        32    %21 = b2i32 %10
        32    %22 = b2i32 %13
        32    %23 = b2i32 %14
        32    %24 = b2i32 %17
        32    %25 = b2i32 %18
        32x4  %26 = vec4 %19, %20, %21, %22
        32x3  %27 = vec3 %23, %24, %25
)", store_output("%26", "%0", "VARYING_SLOT_VAR0", "xyzw") +
       store_output("%27", "%0", "VARYING_SLOT_VAR1", "xyz")));
   const uint32_t t = 1;  /* b2i32 */
   EXPECT_EQ(out.word(var0, 0, 4), t);
   EXPECT_EQ(out.word(var0, 1, 4), t);
   EXPECT_EQ(out.word(var0, 2, 4), 0u);
   EXPECT_EQ(out.word(var0, 3, 4), t);
   EXPECT_EQ(out.word(var0 + 1, 0, 4), 0u);
   EXPECT_EQ(out.word(var0 + 1, 1, 4), t);
   EXPECT_EQ(out.word(var0 + 1, 2, 4), 0u);
}

TEST_P(InterpSubgroup, ReadInvocationFirstInvocationAndShuffle)
{
   const outputs out = run_vs(divergent(3, R"(
        32    %5 = load_const (0x00000064)
        32    %6 = iadd %1, %5 (0x64)
        32    %7 = @read_first_invocation (%6) ()
        32    %8 = load_const (0x00000006)
        32    %9 = @read_invocation (%6, %8 (0x6)) ()
        32    %10 = ixor %1, %2 (0x1)
        32    %11 = @shuffle (%6, %10) ()
        32    %12 = @first_invocation () ()
        1     %13 = @elect () ()
        32    %14 = b2i32 %13
        32x4  %15 = vec4 %7, %9, %11, %12
)", store_output("%15", "%0", "VARYING_SLOT_VAR0", "xyzw") +
       store_output("%14", "%0", "VARYING_SLOT_VAR1")));
   for (unsigned c = 3; c < simd(); c++) {
      EXPECT_EQ(out.word(var0, 0, c), 103u) << c;
      EXPECT_EQ(out.word(var0, 1, c), 106u) << c;
      /* Channel 3 reads channel 2, which is inactive: its value there is
       * whatever the register held; the others read active neighbours.
       */
      if (c != 3) {
         EXPECT_EQ(out.word(var0, 2, c), 100 + (c ^ 1)) << c;
      }
      EXPECT_EQ(out.word(var0, 3, c), 3u) << c;
      EXPECT_EQ(out.word(var0 + 1, 0, c), c == 3 ? 1u : 0u) << c;
   }
}

TEST_P(InterpSubgroup, ReductionsAndScans)
{
   /* Over channels >= 2, value v = c + 1:
    *   reduce iadd, reduce umin, clustered (4) iadd, inclusive iadd,
    *   exclusive imax, reduce fmul of 2.0 (2^(active count)).
    */
   const outputs out = run_vs(divergent(2, R"(
        32    %5 = iadd %1, %2 (0x1)
        32    %6 = @reduce (%5) (reduction_op=iadd, cluster_size=0, include_helpers=0)
        32    %7 = @reduce (%5) (reduction_op=umin, cluster_size=0, include_helpers=0)
        32    %8 = @reduce (%5) (reduction_op=iadd, cluster_size=4, include_helpers=0)
        32    %9 = @inclusive_scan (%5) (reduction_op=iadd)
        32    %10 = @exclusive_scan (%5) (reduction_op=imax)
        32    %11 = load_const (0x40000000)
        32    %12 = @reduce (%11) (reduction_op=fmul, cluster_size=0, include_helpers=0)
        32x4  %13 = vec4 %6, %7, %8, %9
        32x2  %14 = vec2 %10, %12
)", store_output("%13", "%0", "VARYING_SLOT_VAR0", "xyzw") +
       store_output("%14", "%0", "VARYING_SLOT_VAR1", "xy")));
   const unsigned n = simd();
   /* Sum of 3..n. */
   const unsigned total = n * (n + 1) / 2 - 3;
   for (unsigned c = 2; c < n; c++) {
      EXPECT_EQ(out.word(var0, 0, c), total) << c;
      EXPECT_EQ(out.word(var0, 1, c), 3u) << c;
      /* Clusters of 4: the first has only channels 2 and 3 active. */
      const unsigned q = c / 4;
      const unsigned cluster = q == 0 ? 3 + 4 : (4 * q + 1) * 4 + 6;
      EXPECT_EQ(out.word(var0, 2, c), cluster) << c;
      EXPECT_EQ(out.word(var0, 3, c), (c + 1) * (c + 2) / 2 - 3) << c;
      /* imax's identity is INT_MIN for the first active channel. */
      EXPECT_EQ(out.word(var0 + 1, 0, c), c == 2 ? 0x80000000u : c) << c;
      EXPECT_EQ(wf(out.word(var0 + 1, 1, c)), float(1u << (n - 2))) << c;
   }
}

TEST_P(InterpSubgroup, SubgroupSizeInvocationAndMasks)
{
   const outputs out = run_vs(R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_subgroup_invocation () ()
    32    %2 = @load_subgroup_size () ()
    32    %3 = @load_subgroup_eq_mask () ()
    32    %4 = @load_subgroup_lt_mask () ()
    32    %5 = @load_subgroup_ge_mask () ()
    32x4  %6 = @load_subgroup_gt_mask () ()
    32    %7 = @load_subgroup_le_mask () ()
    32x4  %8 = vec4 %1, %2, %3, %4
    32x3  %9 = vec3 %5, %6.x, %7
)" + store_output("%8", "%0", "VARYING_SLOT_VAR0", "xyzw") +
                               store_output("%9", "%0", "VARYING_SLOT_VAR1", "xyz") + R"(
    block b1:
)");
   for (unsigned c = 0; c < simd(); c++) {
      const uint32_t eq = 1u << c, lt = eq - 1;
      EXPECT_EQ(out.word(var0, 0, c), c);
      EXPECT_EQ(out.word(var0, 1, c), simd());
      EXPECT_EQ(out.word(var0, 2, c), eq);
      EXPECT_EQ(out.word(var0, 3, c), lt);
      EXPECT_EQ(out.word(var0 + 1, 0, c), all() & ~lt);
      EXPECT_EQ(out.word(var0 + 1, 1, c), all() & ~lt & ~eq);
      EXPECT_EQ(out.word(var0 + 1, 2, c), lt | eq);
   }
}

TEST_P(InterpSubgroup, QuadOperations)
{
   const outputs out = run_vs(R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_subgroup_invocation () ()
    32    %2 = load_const (0x00000002)
    32    %3 = @quad_broadcast (%1, %2 (0x2)) ()
    32    %4 = @quad_swap_horizontal (%1) ()
    32    %5 = @quad_swap_vertical (%1) ()
    32    %6 = @quad_swap_diagonal (%1) ()
    32x4  %7 = vec4 %3, %4, %5, %6
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw") + R"(
    block b1:
)");
   for (unsigned c = 0; c < simd(); c++) {
      EXPECT_EQ(out.word(var0, 0, c), (c & ~3u) + 2);
      EXPECT_EQ(out.word(var0, 1, c), c ^ 1);
      EXPECT_EQ(out.word(var0, 2, c), c ^ 2);
      EXPECT_EQ(out.word(var0, 3, c), c ^ 3);
   }
}

/* ------------------------------------------------------------------ */
/* Derivatives */

/*
 * v = x * y at the pixel centres of quad q: x in {2q + 0.5, 2q + 1.5},
 * y in {0.5, 1.5}.  d/dx along row y is y; d/dy along column x is x.
 */
TEST(InterpDerivatives, FineCoarseAndDefault)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_frag_coord () ()
    32    %2 = fmul %1.x, %1.y
    32    %3 = fddx_fine %2
    32    %4 = fddy_fine %2
    32    %5 = fddx_coarse %2
    32    %6 = fddy_coarse %2
    32    %7 = fddx %2
    32    %8 = fddy %2
    32x4  %9 = vec4 %3, %4, %5, %6
    32x2  %10 = vec2 %7, %8
)" + store_output("%9", "%0", "FRAG_RESULT_DATA0", "xyzw", "float32") +
                                  store_output("%10", "%0", "FRAG_RESULT_DATA1", "xy", "float32") + R"(
    block b1:
)", "uses_fddx_fddy: true\n");
   inputs in;
   in.simd = 16;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 16; c++) {
      const unsigned q = c / 4, i = c % 4;
      const float x = 2.0f * q + (i & 1) + 0.5f, y = (i >> 1) + 0.5f;
      const float x0 = 2.0f * q + 0.5f;
      EXPECT_EQ(out.f32(data0, 0, c), y) << c;
      EXPECT_EQ(out.f32(data0, 1, c), x) << c;
      EXPECT_EQ(out.f32(data0, 2, c), 0.5f) << c;
      EXPECT_EQ(out.f32(data0, 3, c), x0) << c;
      EXPECT_EQ(out.f32(data0 + 1, 0, c), 0.5f) << c;
      EXPECT_EQ(out.f32(data0 + 1, 1, c), x0) << c;
   }
}

/* Helper channels feed derivatives but their stores are flagged. */
TEST(InterpDerivatives, HelpersProvideNeighbourValues)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_frag_coord () ()
    32    %2 = fmul %1.x, %1.x
    32    %3 = fddx_fine %2
)" + store_output("%3", "%0", "FRAG_RESULT_DATA0", "x", "float32") + R"(
    block b1:
)");
   inputs in;
   in.helpers = 0x0a;
   const outputs out = run(*s, in);
   /* Row 0 of quad 0: 1.5^2 - 0.5^2 = 2; of quad 1: 3.5^2 - 2.5^2 = 6. */
   EXPECT_EQ(out.f32(data0, 0, 0), 2.0f);
   EXPECT_EQ(out.f32(data0, 0, 2), 2.0f);
   EXPECT_EQ(out.f32(data0, 0, 4), 6.0f);
   EXPECT_EQ(out.helpers, 0x0au);
}

} /* anonymous namespace */

/* Mesa 25.0's derivative intrinsics give what the fddx opcodes give:
 * plain ddx/ddy coarse, _fine along the channel's own row or column.
 */
TEST(InterpDerivatives, Mesa25Intrinsics)
{
   std::unique_ptr<shader> s = read_shader(R"(shader: MESA_SHADER_FRAGMENT
decl_function main () (entrypoint)

impl main {
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_frag_coord
    32    %2 = fmul %1.x, %1.y
    32    %3 = @ddx_fine (%2)
    32    %4 = @ddy_fine (%2)
    32    %5 = @ddx_coarse (%2)
    32    %6 = @ddy_coarse (%2)
    32    %7 = @ddx (%2)
    32    %8 = @ddy (%2)
    32x4  %9 = vec4 %3, %4, %5, %6
    32x2  %10 = vec2 %7, %8
    @store_output (%9, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    @store_output (%10, %0 (0x0)) (base=0, range=1, wrmask=xy, component=0, src_type=float32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())
    block b1:
}
)", "test25.nir");
   validate(*s);
   ASSERT_EQ(s->dialect, print_dialect::mesa_25_0);
   inputs in;
   in.simd = 16;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 16; c++) {
      const unsigned q = c / 4, i = c % 4;
      const float x = 2.0f * q + (i & 1) + 0.5f, y = (i >> 1) + 0.5f;
      const float x0 = 2.0f * q + 0.5f;
      EXPECT_EQ(out.f32(data0, 0, c), y) << c;
      EXPECT_EQ(out.f32(data0, 1, c), x) << c;
      EXPECT_EQ(out.f32(data0, 2, c), 0.5f) << c;
      EXPECT_EQ(out.f32(data0, 3, c), x0) << c;
      EXPECT_EQ(out.f32(data0 + 1, 0, c), 0.5f) << c;
      EXPECT_EQ(out.f32(data0 + 1, 1, c), x0) << c;
   }
}

/* Mesa 25.0's quad votes, among the active channels of each quad: with
 * channels >= 6 active, quad 1 has channels 6 and 7 only.
 */
TEST_P(InterpSubgroup, QuadVotes)
{
   const outputs out = run_vs(divergent(6, R"(
        32    %5 = load_const (0x00000007)
        1     %6 = ieq %1, %5 (0x7)
        32    %7 = iand %1, %2 (0x1)
        1     %8 = ieq %7, %0 (0x0)
        1     %9 = @quad_vote_any (%6) ()
        1     %10 = @quad_vote_all (%4) ()
        1     %11 = @quad_vote_any (%8) ()
        1     %12 = @quad_vote_all (%8) ()
        32    %13 = b2i32 %9
        32    %14 = b2i32 %10
        32    %15 = b2i32 %11
        32    %16 = b2i32 %12
        32x4  %17 = vec4 %13, %14, %15, %16
)", store_output("%17", "%0", "VARYING_SLOT_VAR0", "xyzw")));
   for (unsigned c = 6; c < simd(); c++) {
      EXPECT_EQ(out.word(var0, 0, c), c / 4 == 1 ? 1u : 0u) << c;
      EXPECT_EQ(out.word(var0, 1, c), 1u) << c;
      EXPECT_EQ(out.word(var0, 2, c), 1u) << c;
      EXPECT_EQ(out.word(var0, 3, c), 0u) << c;
   }
}
