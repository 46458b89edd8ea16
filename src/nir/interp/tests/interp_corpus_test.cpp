/*
 * Runs every corpus shader on default_inputs() and checks that none stops
 * with an error.
 */
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "nir/interp/nir_interp.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis::nir;

namespace {

void
find_nir_files(const std::string &dir, std::vector<std::string> &out)
{
   DIR *d = opendir(dir.c_str());
   if (!d)
      return;
   while (struct dirent *e = readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..")
         continue;
      const std::string path = dir + "/" + name;
      struct stat st;
      if (stat(path.c_str(), &st) != 0)
         continue;
      if (S_ISDIR(st.st_mode))
         find_nir_files(path, out);
      else if (name.size() > 4 && name.compare(name.size() - 4, 4, ".nir") == 0)
         out.push_back(path);
   }
   closedir(d);
}

} /* anonymous namespace */

TEST(InterpCorpus, EveryShaderRuns)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   std::vector<std::string> files;
   find_nir_files(dir, files);
   std::sort(files.begin(), files.end());
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
