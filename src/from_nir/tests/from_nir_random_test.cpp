/*
 * The translator takes every program the random generator writes: seeds
 * 1-200 of each stage (VS, FS, CS) at every width the stage dispatches,
 * translated and validated.  The generator stays in Gen9's final-form NIR
 * (docs/random.md), so a rejection here is a gap in the translator.
 */
#include <gtest/gtest.h>

#include "from_nir/from_nir.h"
#include "ir/ibis_validate.h"
#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;

namespace {

struct stage_case {
   const char *name;
   nir::shader_stage stage;
   std::vector<unsigned> widths;
};

const stage_case stages[] = {
   {"vs", nir::shader_stage::vertex, {8}},
   {"fs", nir::shader_stage::fragment, {8, 16, 32}},
   {"cs", nir::shader_stage::compute, {8, 16, 32}},
};

} /* anonymous namespace */

class from_nir_random : public ::testing::TestWithParam<stage_case> {};

TEST_P(from_nir_random, seeds_1_to_200_translate)
{
   const stage_case &sc = GetParam();
   unsigned rejected = 0, translated = 0;
   std::string first;   /* the first five rejections */
   for (uint64_t seed = 1; seed <= 200; seed++) {
      nir::random_options ro;
      ro.seed = seed;
      ro.stage = sc.stage;
      std::unique_ptr<nir::shader> s = nir::generate(ro);
      for (unsigned w : sc.widths) {
         from_nir_options o;
         o.dispatch_width = w;
         try {
            std::unique_ptr<shader> ir = from_nir(*s, o);
            validate(*ir, "from_nir");
            translated++;
         } catch (const error &e) {
            if (rejected++ < 5)
               first += strfmt("ibis-nir-random --seed %u --stage %s, SIMD%u: %s",
                              unsigned(seed), sc.name, w, e.what()) + "\n";
         }
      }
   }
   EXPECT_EQ(rejected, 0u) << first;
   EXPECT_EQ(translated, 200u * sc.widths.size());
}

INSTANTIATE_TEST_SUITE_P(stages, from_nir_random, ::testing::ValuesIn(stages),
                         [](const auto &info) { return std::string(info.param.name); });
