/*
 * Benchmark: reads and validates every corpus file, and reports the total
 * time and the average per file.  Run by "ninja -C build bench".
 */
#include <chrono>
#include <cstdio>

#include "nir/nir.h"
#include "nir/tests/nir_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

int
main()
{
   const std::string shared = ibis::test::shared_dir();
   if (shared.empty()) {
      std::printf("nir-read-corpus: shared data directory not found, skipped\n");
      return 77;
   }
   const std::vector<std::string> files =
      ibis::nir::test::corpus_files(shared + "/corpus/skl");
   std::vector<std::string> texts;
   size_t bytes = 0;
   for (const std::string &f : files) {
      texts.push_back(ibis::nir::test::read_file(f));
      bytes += texts.back().size();
   }

   /* Best of three runs over the whole corpus, files already in memory. */
   double best = 1e30;
   for (unsigned run = 0; run < 3; run++) {
      const auto start = std::chrono::steady_clock::now();
      for (size_t i = 0; i < texts.size(); i++) {
         try {
            auto s = ibis::nir::read_shader(texts[i], files[i]);
            ibis::nir::validate(*s);
         } catch (const ibis::error &e) {
            std::fprintf(stderr, "%s\n", e.what());
            return 1;
         }
      }
      const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
      best = std::min(best, t.count());
   }
   std::printf("nir-read-corpus: read+validate %zu files (%.1f MB) in %.3f s, "
               "%.3f ms per file, %.1f MB/s\n",
               texts.size(), bytes / 1e6, best, 1e3 * best / texts.size(),
               bytes / 1e6 / best);
   return 0;
}
