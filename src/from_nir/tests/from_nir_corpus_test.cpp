/*
 * Every corpus shader translates at every width brw attempted for it (VS:
 * SIMD8; FS: SIMD8, SIMD16 and SIMD32, where SIMD32 is tried for every FS
 * since it is legal for all of them) and the result passes the validator.
 * The whole corpus takes about 10 s, under 30 s with AddressSanitizer, so
 * it is not sampled.
 */
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "from_nir/from_nir.h"
#include "ir/ibis_validate.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

/* (game/name, stage) -> widths brw attempted (compiled or failed). */
std::map<std::pair<std::string, std::string>, std::set<unsigned>>
read_stats(const std::string &csv)
{
   std::map<std::pair<std::string, std::string>, std::set<unsigned>> widths;
   std::ifstream f(csv);
   std::string line;
   std::getline(f, line);
   while (std::getline(f, line)) {
      std::vector<std::string> cols;
      std::stringstream ss(line);
      std::string c;
      while (std::getline(ss, c, ','))
         cols.push_back(c);
      if (cols.size() < 5)
         continue;
      /* "skipped" widths were never tried by brw. */
      if (cols[4] == "skipped")
         continue;
      widths[{cols[0] + "/" + cols[1], cols[2]}].insert(std::stoul(cols[3]));
   }
   return widths;
}

void
every_shader_every_width(const std::string &dir)
{
   /* Paths relative to the corpus, "game/name.fs.nir", as brw-stats.csv
    * names them.
    */
   std::vector<std::string> files;
   for (const std::string &f : ibis::test::list_files(dir, ".nir"))
      files.push_back(f.substr(dir.size() + 1));
   ASSERT_GT(files.size(), 800u);
   auto stats = read_stats(dir + "/brw-stats.csv");
   ASSERT_FALSE(stats.empty());

   struct count {
      unsigned ok = 0, total = 0;
   };
   std::map<std::string, count> counts;
   std::vector<std::string> failures;
   unsigned brw_rows = 0;

   for (const std::string &rel : files) {
      std::string stage = rel.find(".vs.nir") != std::string::npos ? "vs" : "fs";
      std::string key = rel.substr(0, rel.size() - 7);
      std::set<unsigned> widths = stats[{key, stage}];
      brw_rows += widths.size();
      if (stage == "fs")
         widths.insert(32);   /* SIMD32 is legal for every FS */
      if (widths.empty())
         widths.insert(8);

      std::unique_ptr<nir::shader> s;
      try {
         s = nir::read_shader_file(dir + "/" + rel);
      } catch (const error &e) {
         failures.push_back(rel + ": " + e.what());
         continue;
      }
      for (unsigned w : widths) {
         std::string label = strfmt("%s SIMD%u", stage == "vs" ? "VS" : "FS", w);
         count &c = counts[label];
         c.total++;
         try {
            from_nir_options o;
            o.dispatch_width = w;
            std::unique_ptr<shader> ir = from_nir(*s, o);
            std::vector<std::string> errors = validate_errors(*ir);
            if (!errors.empty())
               throw error(errors[0]);
            c.ok++;
         } catch (const error &e) {
            failures.push_back(label + " " + rel + ": " + e.what());
         }
      }
   }

   std::string line;
   for (const char *label : {"VS SIMD8", "FS SIMD8", "FS SIMD16", "FS SIMD32"}) {
      count c = counts[label];
      line += strfmt("%s%s %u/%u", line.empty() ? "" : ", ", label, c.ok, c.total);
   }
   printf("%s\n", line.c_str());
   /* brw's rows (compiled or failed) must all have been attempted. */
   EXPECT_GT(brw_rows, 0u);

   std::string report;
   for (size_t i = 0; i < failures.size() && i < 8; i++)
      report += "\n   " + failures[i];
   EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first ones:" << report;
}

} /* anonymous namespace */

TEST(from_nir_corpus, every_shader_every_width)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   every_shader_every_width(dir);
}

/* The same shaders as Mesa 25.0 prints them. */
TEST(from_nir_corpus, every_shader_every_width_mesa25)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl-mesa25");
   every_shader_every_width(dir);
}
