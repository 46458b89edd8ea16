/*
 * `meson install` into a temporary DESTDIR, then a C program built with
 * `cc` and `pkg-config ibis` against what was installed: the header, the
 * one static archive and ibis.pc are all a driver needs.
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "util/ibis_test.h"

namespace {

struct result {
   int status;
   std::string out;
};

result
sh(const std::string &cmd)
{
   result r{-1, ""};
   FILE *p = popen((cmd + " 2>&1").c_str(), "r");
   if (!p)
      return r;
   char buf[4096];
   size_t n;
   while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
      r.out.append(buf, n);
   const int st = pclose(p);
   r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
   return r;
}

std::string
env(const char *name)
{
   const char *v = std::getenv(name);
   return v ? v : "";
}

} /* anonymous namespace */

TEST(compiler_capi, c_program_builds_against_installed_files)
{
   const std::string build = env("IBIS_BUILD_ROOT");
   const std::string program = env("IBIS_CAPI_PROGRAM");
   ASSERT_FALSE(build.empty());
   ASSERT_FALSE(program.empty());
   const std::string dest = ibis::test::temp_dir() + "ibis-capi-install";
   ASSERT_EQ(sh("rm -rf '" + dest + "'").status, 0);

   result inst = sh("/usr/bin/env meson install -C '" + build +
                    "' --no-rebuild --quiet --destdir '" + dest + "'");
   ASSERT_EQ(inst.status, 0) << inst.out;
   result found = sh("find '" + dest + "' -name ibis.pc -o -name libibis.a -o -name ibis.h | sort");
   ASSERT_NE(found.out.find("/include/ibis/ibis.h"), std::string::npos) << found.out;
   ASSERT_NE(found.out.find("/libibis.a"), std::string::npos) << found.out;
   ASSERT_NE(found.out.find("/pkgconfig/ibis.pc"), std::string::npos) << found.out;
   const size_t pc_end = found.out.find("/pkgconfig/ibis.pc") + std::string("/pkgconfig").size();
   const std::string pcdir = found.out.substr(0, pc_end).substr(
      found.out.substr(0, pc_end).rfind('\n') + 1);

   const std::string pkg = "PKG_CONFIG_SYSROOT_DIR='" + dest + "' PKG_CONFIG_PATH='" +
                           pcdir + "' PKG_CONFIG_LIBDIR='" + pcdir + ":/usr/lib/x86_64-linux-gnu/pkgconfig:/usr/share/pkgconfig'";
   result flags = sh(pkg + " pkg-config --cflags --libs ibis");
   ASSERT_EQ(flags.status, 0) << flags.out;
   ASSERT_NE(flags.out.find("-libis"), std::string::npos) << flags.out;
   std::string f = flags.out;
   while (!f.empty() && (f.back() == '\n' || f.back() == ' '))
      f.pop_back();

   const std::string sanitize = env("IBIS_SANITIZE");
   if (!sanitize.empty() && sanitize != "none")
      f += " -fsanitize=" + sanitize;

   const std::string exe = dest + "/capi_program";
   result cc = sh("cc -std=c99 -Wall -Wextra -Werror -pedantic '" + program + "' -o '" +
                  exe + "' " + f);
   ASSERT_EQ(cc.status, 0) << cc.out;

   const std::string example = ibis::test::source_dir() + "/examples/shaders/vignette.fs.nir";
   result run = sh("'" + exe + "' '" + example + "'");
   ASSERT_EQ(run.status, 0) << run.out;
   EXPECT_NE(run.out.find("stage 4, "), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("same program: yes"), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("SIMD8 kept offset 0 "), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("FS SIMD8 shader: "), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("prog data: offsets 0 "), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("debug log has stats: yes"), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("bad shader: bad.nir:1:"), std::string::npos) << run.out;
   EXPECT_NE(run.out.find("bad prog data: null"), std::string::npos) << run.out;
}
