/*
 * The command-line tools as a user runs them: exit status, output, and the
 * file:line messages on bad input.  IBIS_BIN_DIR names the built tools.
 */
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "util/ibis_test.h"

namespace {

struct result {
   int status;
   std::string out;  /* stdout and stderr together */
};

result
run(const std::string &args)
{
   const char *bin = std::getenv("IBIS_BIN_DIR");
   std::string cmd = std::string(bin ? bin : "bin") + "/" + args + " 2>&1";
   result r{-1, ""};
   FILE *p = popen(cmd.c_str(), "r");
   if (!p)
      return r;
   char buf[4096];
   size_t n;
   while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
      r.out.append(buf, n);
   int st = pclose(p);
   r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
   return r;
}

std::string
write_temp(const std::string &name, const std::string &text)
{
   std::string path = ::testing::TempDir() + name;
   std::ofstream(path) << text;
   return path;
}

std::string
slurp(const std::string &path)
{
   std::ifstream f(path);
   return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string
example()
{
   return ibis::test::source_dir() + "/examples/shaders/vignette.fs.nir";
}

} /* namespace */

TEST(tools, compile_dump_nir_round_trips_the_example)
{
   result r = run("ibis-compile " + example() + " --dump nir");
   EXPECT_EQ(r.status, 0) << r.out;
   EXPECT_EQ(r.out, slurp(example()));
}

TEST(tools, compile_dump_ir_translates_every_fs_width)
{
   result r = run("ibis-compile " + example() + " --dump ir");
   ASSERT_EQ(r.status, 0) << r.out;
   for (unsigned w : {8, 16, 32}) {
      const std::string head = "shader fs simd" + std::to_string(w) + "\n";
      size_t at = r.out.find(head);
      ASSERT_NE(at, std::string::npos) << head << r.out;
      /* Each width ends in its render-target write. */
      size_t end = r.out.find("fb_write_logical", at);
      EXPECT_NE(end, std::string::npos) << r.out;
      EXPECT_NE(r.out.find("{EOT}", end), std::string::npos) << r.out;
   }
   /* The uniform radius test stays a flag feeding the if. */
   EXPECT_NE(r.out.find("cmp.l"), std::string::npos) << r.out;
}

TEST(tools, compile_unknown_platform)
{
   result r = run("ibis-compile " + example() + " --platform tgl --dump ir");
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find("unknown platform 'tgl'"), std::string::npos) << r.out;
}

TEST(tools, compile_missing_file)
{
   result r = run("ibis-compile /nonexistent/x.nir --dump nir");
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find("/nonexistent/x.nir"), std::string::npos) << r.out;
}

TEST(tools, compile_malformed_nir_names_file_and_line)
{
   std::string text = slurp(example());
   size_t at = text.find("fsqrt");
   ASSERT_NE(at, std::string::npos);
   text.replace(at, 5, "fsqrtx");
   std::string path = write_temp("bad.fs.nir", text);
   result r = run("ibis-compile " + path + " --dump nir");
   EXPECT_EQ(r.status, 1) << r.out;
   EXPECT_NE(r.out.find(path + ":"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("fsqrtx"), std::string::npos) << r.out;
}

TEST(tools, opt_runs_registered_passes)
{
   std::string path = write_temp("copy.ibis",
      "shader fs simd8\n"
      "block0:\n"
      "   %1:f32x8 = mov 1.0:f32\n"
      "   %2:f32x8 = add %1, %1\n"
      "   %3:f32x8 = add %1, %1\n"
      "   %4:f32x8 = mul %2, %3\n"
      "   fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}\n");
   result r = run("ibis-opt " + path + " --passes validate,cse,dce,validate");
   EXPECT_EQ(r.status, 0) << r.out;
   /* CSE merges the second add; DCE removes it. */
   EXPECT_EQ(r.out.find("%3:"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("mul %2, %2"), std::string::npos) << r.out;
}

TEST(tools, opt_unknown_pass_is_an_error)
{
   std::string path = write_temp("empty.ibis", "shader fs simd8\nblock0:\n");
   result r = run("ibis-opt " + path + " --passes validate,no-such-pass");
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find("no-such-pass"), std::string::npos) << r.out;
}

TEST(tools, opt_parse_error_has_line_and_column)
{
   std::string path = write_temp("bad.ibis",
      "shader fs simd8\nblock0:\n   %1:f32x8 = frobnicate 1.0:f32\n");
   result r = run("ibis-opt " + path + " --passes validate");
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find(path + ":3:"), std::string::npos) << r.out;
}

TEST(tools, asm_and_disasm_round_trip)
{
   std::string src = write_temp("t.asm",
      "add(16)         g3<1>D          g18<8,8,1>D     g12<8,8,1>D     { align1 1H };\n"
      "mov(8)          g4<1>F          0x3f800000F                     { align1 1Q };\n");
   result a = run("ibis-asm --gen 9 --type hex --no-compact " + src);
   ASSERT_EQ(a.status, 0) << a.out;
   /* The add is a Mesa encoding vector (isa-tests/gen9/add.expected). */
   EXPECT_EQ(a.out.substr(0, 47),
             "40 00 80 00 28 0a 60 20 40 02 8d 0a 80 01 8d 00");
   std::string hex = write_temp("t.hex", a.out);
   result d = run("ibis-disasm --gen 9 " + hex);
   ASSERT_EQ(d.status, 0) << d.out;
   std::string again = write_temp("t2.asm", d.out);
   result a2 = run("ibis-asm --gen 9 --type hex --no-compact " + again);
   EXPECT_EQ(a2.status, 0) << a2.out;
   EXPECT_EQ(a2.out, a.out);
}

TEST(tools, asm_error_names_file_and_line)
{
   std::string src = write_temp("bad.asm",
      "mov(8)          g4<1>F          0x3f800000F                     { align1 1Q };\n"
      "frob(8)         g4<1>F          g5<8,8,1>F                      { align1 1Q };\n");
   result r = run("ibis-asm --gen 9 --type hex " + src);
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find(src + ":2:"), std::string::npos) << r.out;
}

TEST(tools, disasm_survives_garbage)
{
   std::string path = ::testing::TempDir() + "garbage.bin";
   {
      std::ofstream f(path, std::ios::binary);
      for (unsigned i = 0; i < 4096; i++)
         f.put(char((i * 2654435761u) >> 13));
   }
   result r = run("ibis-disasm --gen 9 " + path);
   EXPECT_TRUE(r.status == 0 || r.status == 1) << r.status << "\n" << r.out;
}
