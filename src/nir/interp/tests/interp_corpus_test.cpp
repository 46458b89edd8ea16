/*
 * Runs every corpus shader on default_inputs() and checks that none stops
 * with an error.
 */

#include <algorithm>
#include <cstdio>
#include <functional>

#include "nir/interp/nir_interp.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis::nir;

namespace {


} /* anonymous namespace */

TEST(InterpCorpus, EveryShaderRuns)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   const std::vector<std::string> files = ibis::test::list_files(dir, ".nir");
   ASSERT_GT(files.size(), 800u);

   unsigned ran = 0;
   std::vector<std::string> failures;
   for (const std::string &f : files) {
      try {
         std::unique_ptr<shader> s = read_shader_file(f);
         /* Fragment shaders at SIMD16 too: quads beyond the first. */
         const bool fs = s->info.stage == shader_stage::fragment;
         for (unsigned simd : {8u, 16u}) {
            if (simd == 16 && !fs)
               continue;
            const interp::inputs in = interp::default_inputs(*s, simd);
            interp::run(*s, in);
         }
         ran++;
      } catch (const ibis::error &e) {
         failures.push_back(f + ": " + e.what());
      }
   }
   for (const std::string &msg : failures)
      ADD_FAILURE() << msg;
   std::printf("%u/%zu corpus shaders ran\n", ran, files.size());
   EXPECT_EQ(ran, files.size());
}
