/*
 * Helpers shared by the NIR tests, the fuzz target and the benchmark.
 */
#pragma once

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
static inline void
find_nir_files(const std::string &dir, std::vector<std::string> &out)
{
   DIR *d = opendir(dir.c_str());
   if (!d)
      return;
   while (const dirent *e = readdir(d)) {
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

static inline std::vector<std::string>
corpus_files(const std::string &dir)
{
   std::vector<std::string> files;
   find_nir_files(dir, files);
   std::sort(files.begin(), files.end());
   return files;
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
