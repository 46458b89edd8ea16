/*
 * Helpers for GoogleTest suites.  Only tests include this.
 */
#pragma once

#include <cstdlib>
#include <string>
#include <sys/stat.h>

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

static inline std::string
source_dir()
{
   const char *dir = std::getenv("IBIS_SOURCE_DIR");
   return dir ? dir : ".";
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
