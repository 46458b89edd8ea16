/*
 * SIMD selection as brw_compile_fs does it on Gen9, on shaders whose
 * register pressure is known: n values live at once take n GRFs at SIMD8
 * and 2n at SIMD16, of 128.
 */
#include <gtest/gtest.h>

#include "compiler_test_util.h"
#include "util/ibis_test.h"

using namespace ibis;
using ibis::test::pressure_fs;
using ibis::test::read_nir;
using ibis::test::variant;

/* 24 live values: 48 GRFs at SIMD16, 96 at SIMD32, every width fits. */
TEST(compiler_simd, low_pressure_compiles_every_width)
{
   compile_result r = compile_shader(*read_nir("fs", pressure_fs(24)), {});
   ASSERT_EQ(r.variants.size(), 3u);
   const compiled_variant *v8 = variant(r, 8), *v16 = variant(r, 16),
                          *v32 = variant(r, 32);
   ASSERT_TRUE(v8 && v16 && v32);
   EXPECT_TRUE(v8->kept) << v8->reason;
   EXPECT_TRUE(v16->kept) << v16->reason;
   ASSERT_TRUE(v32->compiled) << v32->reason;
   for (const compiled_variant *v : {v8, v16, v32})
      EXPECT_EQ(v->stats.spills, 0u) << v->simd;
   /* SIMD32 is kept exactly when its throughput beats SIMD8's and
    * SIMD16's (brw: `throughput >= perf.throughput` drops it).
    */
   const double best = std::max(8.0 / v8->stats.cycles, 16.0 / v16->stats.cycles);
   const double t32 = 32.0 / v32->stats.cycles;
   EXPECT_EQ(v32->kept, t32 > best) << t32 << " vs " << best;
   if (!v32->kept) {
      EXPECT_NE(v32->reason.find("not faster"), std::string::npos) << v32->reason;
   }
}

TEST(compiler_simd, force_simd32_keeps_it)
{
   compile_options o;
   o.force_simd32 = true;
   compile_result r = compile_shader(*read_nir("fs", pressure_fs(24)), o);
   const compiled_variant *v32 = variant(r, 32);
   ASSERT_NE(v32, nullptr);
   EXPECT_TRUE(v32->kept) << v32->reason;
   EXPECT_GE(r.prog.offset_simd32, 0);
}

/* 80 live values: 160 GRFs at SIMD16 cannot fit without spilling, so
 * SIMD16 fails and SIMD32 is not tried; SIMD8 (80 GRFs) fits.
 */
TEST(compiler_simd, simd16_that_would_spill_fails_and_skips_simd32)
{
   compile_result r = compile_shader(*read_nir("fs", pressure_fs(80)), {});
   const compiled_variant *v8 = variant(r, 8), *v16 = variant(r, 16),
                          *v32 = variant(r, 32);
   ASSERT_TRUE(v8 && v16 && v32);
   EXPECT_TRUE(v8->kept) << v8->reason;
   EXPECT_EQ(v8->stats.spills, 0u);
   EXPECT_FALSE(v16->compiled);
   EXPECT_FALSE(v16->kept);
   EXPECT_NE(v16->reason.find("without spilling"), std::string::npos) << v16->reason;
   /* Every scheduling mode was tried before giving up. */
   EXPECT_EQ(v16->attempts.size(), 4u);
   EXPECT_FALSE(v32->compiled);
   EXPECT_EQ(v32->reason, "skipped: SIMD16 failed");
   EXPECT_EQ(r.prog.offset_simd16, -1);
   EXPECT_EQ(r.prog.offset_simd32, -1);
   EXPECT_EQ(r.binary.size(), v8->binary.size());
}

/* 34 live values: SIMD16 (68 GRFs) fits, SIMD32 (136 and the payload)
 * does not, but is close enough to the file for coloring to be tried:
 * with its values split into SIMD16 halves, its phis whole and everything
 * whole, in every scheduling mode, before SIMD32 gives up.  Far over the
 * file (50 values), MaxLive alone rules each mode out once.
 */
TEST(compiler_simd, simd32_tries_whole_values_before_giving_up)
{
   compile_result far = compile_shader(*read_nir("fs", pressure_fs(50)), {});
   ASSERT_TRUE(variant(far, 32));
   EXPECT_FALSE(variant(far, 32)->compiled);
   EXPECT_EQ(variant(far, 32)->attempts.size(), 4u);

   compile_result r = compile_shader(*read_nir("fs", pressure_fs(34)), {});
   const compiled_variant *v16 = variant(r, 16), *v32 = variant(r, 32);
   ASSERT_TRUE(v16 && v32);
   EXPECT_TRUE(v16->kept) << v16->reason;
   EXPECT_FALSE(v32->compiled);
   ASSERT_EQ(v32->attempts.size(), 12u);
   for (unsigned i = 0; i < 12; i++) {
      EXPECT_EQ(v32->attempts[i].find("SIMD32 phis whole") != std::string::npos,
                i >= 4 && i < 8) << v32->attempts[i];
      EXPECT_EQ(v32->attempts[i].find("SIMD32 values whole") != std::string::npos,
                i >= 8) << v32->attempts[i];
      /* The narrow mode comes last at each level. */
      EXPECT_EQ(v32->attempts[i].rfind("narrow", 0) == 0, i % 4 == 3)
         << v32->attempts[i];
   }
}

/* 150 live values do not fit SIMD8 either: it spills (allowed there),
 * and no wider width is tried.
 */
TEST(compiler_simd, simd8_spills_and_wider_widths_are_skipped)
{
   compile_result r = compile_shader(*read_nir("fs", pressure_fs(150)), {});
   const compiled_variant *v8 = variant(r, 8), *v16 = variant(r, 16);
   ASSERT_TRUE(v8 && v16);
   ASSERT_TRUE(v8->kept) << v8->reason;
   EXPECT_GT(v8->stats.spills, 0u);
   EXPECT_GT(v8->stats.fills, 0u);
   EXPECT_GT(v8->scratch_bytes, 0u);
   EXPECT_EQ(r.prog.scratch_bytes, v8->scratch_bytes);
   EXPECT_NE(v8->stats_text.find(ibis::strfmt("%u:%u spills:fills", v8->stats.spills,
                                              v8->stats.fills)), std::string::npos)
      << v8->stats_text;
   EXPECT_FALSE(v16->compiled);
   EXPECT_EQ(v16->reason, "skipped: SIMD8 spilled");
}

/* dolphin/ubershaders/174.fs allocates SIMD16 only with the narrow
 * schedule (latency and none are over the file, pressure fails to color):
 * SIMD32, which needs about twice its registers, is not tried (it failed
 * all its attempts), unless forced.
 */
TEST(compiler_simd, simd16_at_its_last_resort_skips_simd32)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   std::unique_ptr<nir::shader> s =
      nir::read_shader_file(dir + "/dolphin/ubershaders/174.fs.nir");
   compile_options o;
   o.widths = {16, 32};
   compile_result r = compile_shader(*s, o);
   const compiled_variant *v16 = variant(r, 16), *v32 = variant(r, 32);
   ASSERT_TRUE(v16 && v32);
   ASSERT_TRUE(v16->kept) << v16->reason;
   EXPECT_EQ(v16->stats.sched_mode, "narrow");
   EXPECT_EQ(v16->last_resort, "the narrow schedule");
   EXPECT_FALSE(v32->compiled);
   EXPECT_TRUE(v32->attempts.empty());
   EXPECT_EQ(v32->reason, ibis::strfmt("skipped: SIMD16 allocated only with the "
                                       "narrow schedule (MaxLive %u GRFs)",
                                       v16->max_live));
   EXPECT_GT(v16->max_live, 100u);
}

/* tesseract/506.fs allocates SIMD16, but its latency schedule there is
 * over the file by MaxLive alone: SIMD32 is not tried (it failed all its
 * attempts), unless forced.
 */
TEST(compiler_simd, simd16_latency_over_the_file_skips_simd32)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   std::unique_ptr<nir::shader> s = nir::read_shader_file(dir + "/tesseract/506.fs.nir");
   compile_options o;
   o.widths = {16, 32};
   compile_result r = compile_shader(*s, o);
   const compiled_variant *v16 = variant(r, 16), *v32 = variant(r, 32);
   ASSERT_TRUE(v16 && v32);
   ASSERT_TRUE(v16->kept) << v16->reason;
   EXPECT_TRUE(v16->last_resort.empty()) << v16->last_resort;
   EXPECT_GT(v16->first_schedule_over, 144u);
   EXPECT_FALSE(v32->compiled);
   EXPECT_TRUE(v32->attempts.empty());
   EXPECT_EQ(v32->reason, ibis::strfmt("skipped: SIMD16's latency schedule needed MaxLive "
                                       "%u GRFs", v16->first_schedule_over));

   o.force_simd32 = true;
   compile_result forced = compile_shader(*s, o);
   ASSERT_TRUE(variant(forced, 32));
   EXPECT_FALSE(variant(forced, 32)->attempts.empty());
}

TEST(compiler_simd, widths_option_limits_the_attempts)
{
   compile_options o;
   o.widths = {16};
   compile_result r = compile_shader(*read_nir("fs", pressure_fs(8)), o);
   ASSERT_EQ(r.variants.size(), 1u);
   EXPECT_EQ(r.variants[0].simd, 16u);
   EXPECT_TRUE(r.variants[0].kept) << r.variants[0].reason;
   EXPECT_EQ(r.prog.offset_simd16, 0);
   EXPECT_EQ(r.prog.offset_simd8, -1);
}

/* A width whose first attempt takes the lowered program itself (the
 * narrower width's MaxLive was low: SIMD16 at 8 and 24 live values,
 * SIMD32 at 8) compiles the same program as one that attempts from a
 * copy (compiled alone, no narrower MaxLive known; alone, it may also
 * spill).  SIMD8 always takes it: simd8_spills_and_wider_widths_are_skipped
 * translates again after every mode failed.
 */
TEST(compiler_simd, first_attempt_without_a_copy_gives_the_same_program)
{
   for (unsigned n : {8u, 24u, 34u}) {
      std::unique_ptr<nir::shader> s = read_nir("fs", pressure_fs(n));
      compile_result all = compile_shader(*s, {});
      for (unsigned simd : {16u, 32u}) {
         const compiled_variant *v = variant(all, simd);
         ASSERT_TRUE(v) << n << " SIMD" << simd;
         compile_options o;
         o.widths = {simd};
         o.force_simd32 = true;
         compile_result alone = compile_shader(*s, o);
         ASSERT_EQ(alone.variants.size(), 1u);
         const compiled_variant &a = alone.variants[0];
         if (!v->compiled) {
            /* Alone, the width may spill after the same failed attempts. */
            ASSERT_GT(a.attempts.size(), v->attempts.size()) << n << " SIMD" << simd;
            EXPECT_EQ(v->attempts, std::vector<std::string>(
                                      a.attempts.begin(),
                                      a.attempts.begin() + v->attempts.size()))
               << n << " SIMD" << simd;
            continue;
         }
         EXPECT_EQ(v->compiled, a.compiled) << n << " SIMD" << simd;
         EXPECT_EQ(v->attempts, a.attempts) << n << " SIMD" << simd;
         EXPECT_EQ(v->binary, a.binary) << n << " SIMD" << simd;
         EXPECT_EQ(v->stats_text, a.stats_text) << n << " SIMD" << simd;
      }
   }
}

namespace {

/* Each invocation stores its local index: a workgroup of 8x4x1. */
const char *const store_cs = R"(
   con 32 %0 = load_const (0x00000000)
   con 32 %1 = load_const (0x00000002)
   div 32 %2 = @load_local_invocation_index () ()
   div 32 %3 = ishl %2, %1 (0x2)
   @store_ssbo (%2, %0 (0x0), %3) (wrmask=x, access=none, align_mul=4, align_offset=0)
   block b1:
)";

} /* anonymous namespace */

/* brw_simd_selection: the 32 invocations need more than SIMD8, so SIMD16
 * is compiled and is the one dispatched; SIMD32 only on request.
 */
TEST(compiler_simd, cs_keeps_the_widest_width_it_needs)
{
   compile_result r = compile_shader(*read_nir("cs", store_cs), {});
   const compiled_variant *v8 = variant(r, 8), *v16 = variant(r, 16),
                          *v32 = variant(r, 32);
   ASSERT_TRUE(v8 && v16 && v32);
   EXPECT_TRUE(v8->compiled) << v8->reason;
   EXPECT_FALSE(v8->kept);
   EXPECT_TRUE(v16->kept) << v16->reason;
   EXPECT_FALSE(v32->compiled);
   EXPECT_NE(v32->reason.find("SIMD32 not required"), std::string::npos) << v32->reason;
   EXPECT_EQ(r.prog.offset_simd16, 0);
   EXPECT_EQ(r.prog.offset_simd8, -1);
   EXPECT_EQ(r.prog.local_size[0], 8u);
   EXPECT_EQ(r.prog.local_size[1], 4u);

   compile_options o;
   o.force_simd32 = true;
   compile_result f = compile_shader(*read_nir("cs", store_cs), o);
   EXPECT_TRUE(variant(f, 32)->kept) << variant(f, 32)->reason;
   EXPECT_FALSE(variant(f, 16)->kept);
}
