/*
 * Helpers shared by the NIR tests, the fuzz target and the benchmark.
 */
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "util/ibis_test.h"

namespace ibis::nir::test {

static inline std::string
read_file(const std::string &path)
{
   std::ifstream f(path, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

/* All *.nir files under dir, recursively, sorted. */
static inline std::vector<std::string>
corpus_files(const std::string &dir)
{
   return ibis::test::list_files(dir, ".nir");
}

/* 1-based line of the first difference between two texts. */
static inline unsigned
first_diff_line(const std::string &a, const std::string &b)
{
   unsigned line = 1;
   for (size_t i = 0; i < a.size() && i < b.size(); i++) {
      if (a[i] != b[i])
         return line;
      line += a[i] == '\n';
   }
   return line;
}

} /* namespace ibis::nir::test */
