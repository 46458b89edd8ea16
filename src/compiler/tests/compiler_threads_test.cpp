/*
 * No global mutable state: a sample of the corpus compiled on four
 * threads at once gives the bytes a lone compile gives.
 */
#include <thread>

#include <gtest/gtest.h>

#include "compiler_test_util.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

/* Every 32nd corpus shader: both stages, a fixed sample. */
std::vector<std::unique_ptr<nir::shader>>
corpus_sample(const std::string &dir)
{
   std::vector<std::unique_ptr<nir::shader>> v;
   const std::vector<std::string> files = ibis::test::list_files(dir, ".nir");
   for (size_t i = 0; i < files.size(); i += 32) {
      auto s = nir::read_shader_file(files[i]);
      nir::validate(*s);
      v.push_back(std::move(s));
   }
   return v;
}

/* Each variant's outcome and bytes, one string per shader. */
std::string
fingerprint(const nir::shader &s)
{
   try {
      const compile_result r = compile_shader(s, compile_options{});
      std::string f(r.binary.begin(), r.binary.end());
      for (const compiled_variant &v : r.variants)
         f += strfmt("|%u %d %d ", v.simd, v.compiled, v.kept) + v.stats_text;
      return f;
   } catch (const error &e) {
      return std::string("error: ") + e.what();
   }
}

} /* anonymous namespace */

void
four_threads(const std::string &dir)
{
   const auto shaders = corpus_sample(dir);
   ASSERT_GE(shaders.size(), 20u);

   std::vector<std::string> alone;
   for (const auto &s : shaders)
      alone.push_back(fingerprint(*s));

   /* Each thread compiles the whole sample, starting at a different
    * shader, so different shaders are in flight at the same time.
    */
   std::vector<std::vector<std::string>> got(4, std::vector<std::string>(shaders.size()));
   std::vector<std::thread> threads;
   for (unsigned t = 0; t < 4; t++) {
      threads.emplace_back([&, t] {
         for (size_t k = 0; k < shaders.size(); k++) {
            const size_t i = (k + t * shaders.size() / 4) % shaders.size();
            got[t][i] = fingerprint(*shaders[i]);
         }
      });
   }
   for (std::thread &th : threads)
      th.join();

   unsigned compiled = 0;
   for (size_t i = 0; i < shaders.size(); i++) {
      compiled += alone[i].compare(0, 6, "error:") != 0;
      for (unsigned t = 0; t < 4; t++)
         EXPECT_EQ(got[t][i], alone[i]) << shaders[i]->file << " on thread " << t;
   }
   /* The comparison means something only if shaders compiled. */
   EXPECT_GT(compiled, shaders.size() / 2);
}

TEST(compiler_threads, four_threads_give_identical_binaries)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   four_threads(dir);
}

/* The same sample of Mesa 25.0's NIR. */
TEST(compiler_threads, four_threads_give_identical_binaries_mesa25)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl-mesa25");
   four_threads(dir);
}
