/*
 * Helpers for GoogleTest suites.  Only tests include this.
 */
#pragma once

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <gtest/gtest.h>

namespace ibis::test {

/* The project's shared data directory (corpus, isa-tests), or "" when the
 * build was configured without one that exists.
 */
static inline std::string
shared_dir()
{
   const char *dir = std::getenv("IBIS_SHARED_DIR");
   struct stat st;
   if (!dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
      return std::string();
   return dir;
}

/* A directory of this test process's own under GoogleTest's temporary
 * directory, ending in '/', removed when the process exits: test suites
 * of several builds may run at once on one machine, and fixed names in
 * /tmp would collide.
 */
static inline std::string
temp_dir()
{
   struct owned_dir {
      std::string path;
      ~owned_dir()
      {
         if (!path.empty())
            (void)std::system(("rm -rf '" + path + "'").c_str());
      }
   };
   static const owned_dir dir{[] {
      std::string t = ::testing::TempDir() + "ibis-test-XXXXXX";
      return mkdtemp(t.data()) ? t : std::string();
   }()};
   return dir.path.empty() ? ::testing::TempDir() : dir.path + "/";
}

static inline std::string
source_dir()
{
   const char *dir = std::getenv("IBIS_SOURCE_DIR");
   return dir ? dir : ".";
}

/* Files under dir, recursively, whose names end in suffix, sorted so that
 * corpus-wide tests visit them in a stable order.
 */
static inline std::vector<std::string>
list_files(const std::string &dir, const std::string &suffix)
{
   std::vector<std::string> out, pending{dir};
   while (!pending.empty()) {
      const std::string cur = pending.back();
      pending.pop_back();
      DIR *d = opendir(cur.c_str());
      if (!d)
         continue;
      while (const dirent *e = readdir(d)) {
         const std::string name = e->d_name;
         if (name == "." || name == "..")
            continue;
         const std::string path = cur + "/" + name;
         struct stat st;
         if (stat(path.c_str(), &st) != 0)
            continue;
         if (S_ISDIR(st.st_mode))
            pending.push_back(path);
         else if (name.size() > suffix.size() &&
                  name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(path);
      }
      closedir(d);
   }
   std::sort(out.begin(), out.end());
   return out;
}

} /* namespace ibis::test */

/* Skips (never passes) a test whose shared data is missing. */
#define IBIS_REQUIRE_SHARED(var, subpath)                                      \
   std::string var = ::ibis::test::shared_dir();                               \
   if (var.empty())                                                            \
      GTEST_SKIP() << "shared data directory not found (meson -Dshared_dir)";  \
   var += "/" subpath;                                                         \
   {                                                                           \
      struct stat st_;                                                         \
      if (stat(var.c_str(), &st_) != 0)                                        \
         GTEST_SKIP() << var << " not found";                                  \
   }
