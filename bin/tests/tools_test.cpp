/*
 * The command-line tools as a user runs them: exit status, output, and the
 * file:line messages on bad input.  IBIS_BIN_DIR names the built tools.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
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
   std::string path = ibis::test::temp_dir() + name;
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

/* ibis-disasm --validate checks what it prints against Mesa's EU rules:
 * a SIMD4 move reading rows of 8 is refused, the SIMD8 one is not.
 */
TEST(tools, disasm_validate)
{
   auto check = [](const char *name, const char *text) {
      std::string src = write_temp(name, text);
      result a = run("ibis-asm --gen 9 --type hex " + src);
      EXPECT_EQ(a.status, 0) << a.out;
      return run("ibis-disasm --gen 9 --validate " + write_temp(std::string(name) + ".hex", a.out));
   };
   result bad = check("v1.asm", "mov(4) g2<1>F g3<8,8,1>F { align1 1N };\n");
   EXPECT_EQ(bad.status, 1);
   EXPECT_NE(bad.out.find(": 0: region: ExecSize must be greater than or equal to Width: "
                          "mov(4)"), std::string::npos) << bad.out;
   result good = check("v2.asm", "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n");
   EXPECT_EQ(good.status, 0) << good.out;
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
   std::string path = ibis::test::temp_dir() + "garbage.bin";
   {
      std::ofstream f(path, std::ios::binary);
      for (unsigned i = 0; i < 4096; i++)
         f.put(char((i * 2654435761u) >> 13));
   }
   result r = run("ibis-disasm --gen 9 " + path);
   EXPECT_TRUE(r.status == 0 || r.status == 1) << r.status << "\n" << r.out;
}

namespace {

/* A directory with the example under sub/ and, optionally, more files. */
std::string
corpus_dir(const std::string &name)
{
   const std::string dir = ibis::test::temp_dir() + name;
   std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "/sub'").c_str());
   std::ofstream(dir + "/sub/vignette.fs.nir") << slurp(example());
   return dir;
}

} /* namespace */

TEST(tools, compile_prints_selection_and_stats)
{
   result r = run("ibis-compile " + example());
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("; SIMD8: kept at offset 0, dispatch GRF start "),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("; SIMD16: "), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("; SIMD32: "), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("\nFS SIMD8 shader: "), std::string::npos) << r.out;
}

TEST(tools, compile_dump_asm_stats_and_raw_program)
{
   const std::string bin = ibis::test::temp_dir() + "vignette8.bin";
   result r = run("ibis-compile " + example() + " --simd 8 --dump asm,stats -o " + bin);
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("; SIMD8 assembly\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("EOT"), std::string::npos) << r.out;
   const size_t at = r.out.find("FS SIMD8 shader: ");
   ASSERT_NE(at, std::string::npos) << r.out;
   /* -o writes exactly the compacted program the stats line counts. */
   const size_t c = r.out.find(" to ", r.out.find("compacted ", at));
   ASSERT_NE(c, std::string::npos) << r.out;
   const unsigned bytes = unsigned(std::strtoul(r.out.c_str() + c + 4, nullptr, 10));
   EXPECT_EQ(slurp(bin).size(), bytes);
   result d = run("ibis-disasm --gen 9 " + bin);
   ASSERT_EQ(d.status, 0) << d.out;
   EXPECT_NE(d.out.find("send"), std::string::npos) << d.out;
   EXPECT_NE(d.out.find("EOT"), std::string::npos) << d.out;
}

TEST(tools, compile_unknown_dump_is_an_error)
{
   result r = run("ibis-compile " + example() + " --dump nir,bogus");
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find("unknown debug flag 'bogus'"), std::string::npos) << r.out;
}

TEST(tools, shaderdb_writes_brw_log_lines)
{
   const std::string dir = corpus_dir("sdb1");
   const std::string log = dir + "/out.txt";
   result r = run("ibis-shaderdb " + dir + " -j 2 -o " + log);
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("1 shaders: 1 compiled, 0 failed, 0 crashed"), std::string::npos)
      << r.out;
   /* The per-width tally: SIMD8 is always kept. */
   EXPECT_NE(r.out.find("FS SIMD8: 1/1 kept, 0 compiled but dropped, 0 failed, 0 skipped"),
             std::string::npos) << r.out;
   const std::string text = slurp(log);
   const std::regex line(
      R"(sub/vignette\.fs\.nir - FS SIMD(8|16|32) shader: \d+ inst, \d+ loops, \d+ cycles, )"
      R"(\d+:\d+ spills:fills, \d+ sends, scheduled with mode [a-z-]+, Promoted \d+ )"
      R"(constants, compacted \d+ to \d+ bytes\.)");
   size_t lines = 0, pos = 0;
   while (pos < text.size()) {
      const size_t nl = text.find('\n', pos);
      ASSERT_NE(nl, std::string::npos) << text;
      const std::string l = text.substr(pos, nl - pos);
      EXPECT_TRUE(std::regex_match(l, line)) << l;
      lines++;
      pos = nl + 1;
   }
   EXPECT_GE(lines, 2u) << text;
   EXPECT_EQ(text.rfind("sub/vignette.fs.nir - FS SIMD8 shader: ", 0), 0u) << text;
}

TEST(tools, shaderdb_asm_dir_feeds_report_kinds)
{
   const std::string dir = corpus_dir("sdb4");
   const std::string asm_dir = ibis::test::temp_dir() + "sdb4-asm";
   result r = run("ibis-shaderdb " + dir + " -j 1 -o /dev/null --asm-dir " + asm_dir);
   ASSERT_EQ(r.status, 0) << r.out;
   /* brw-asm's layout: the stats line, then the program; SIMD8 is kept. */
   const std::string simd8 = slurp(asm_dir + "/sub/vignette.fs.simd8.asm");
   EXPECT_EQ(simd8.compare(0, 17, "FS SIMD8 shader: "), 0) << simd8;
   EXPECT_NE(simd8.find("send"), std::string::npos) << simd8;
   /* Against itself every kind is even. */
   r = run("ibis-report --kinds " + asm_dir + " " + asm_dir);
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("ibis has more: -\nibis has fewer: -"), std::string::npos) << r.out;
   EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\nsend +[0-9]+->[0-9]+ \+0)"))) << r.out;
}

TEST(tools, report_dynamic_scoreboard)
{
   /* Two rows as `ibis-check brw --with-ibis --dynamic-report` writes
    * them: ibis executes 21 of brw's 20 instructions in one program (5%
    * worse exactly, not more) and 50 of 40 in the other.
    */
   const std::string file = ibis::test::temp_dir() + "dynamic.tsv";
   {
      std::ofstream f(file);
      f << "group\tprogram\tbrw_instructions\tbrw_channel_instructions\tbrw_sends\t"
           "brw_cycles\tibis_instructions\tibis_channel_instructions\tibis_sends\t"
           "ibis_cycles\n"
           "fs SIMD16\ta/1.fs.simd16.asm\t20\t320\t2\t900\t21\t336\t2\t910\n"
           "fs SIMD16\ta/2.fs.simd16.asm\t40\t640\t3\t1000\t50\t800\t3\t1100\n";
   }
   result r = run("ibis-report --dynamic " + file + " --top 1");
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("fs SIMD16: 2 programs, 0 helped, 2 hurt (ibis executes fewer, more "
                        "instructions), 0 alike; 1 more than 5% worse\n"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("executed instructions  brw           60  ibis           71  "
                        "ibis/brw 1.183"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("worst 1 (ibis/brw executed instructions):\n"
                        "      1.250  40 -> 50  a/2.fs.simd16.asm\n"), std::string::npos) << r.out;
   EXPECT_EQ(r.out.find("a/1.fs.simd16.asm"), std::string::npos) << r.out;
   /* A row that is not one is an error naming the line. */
   {
      std::ofstream f(file);
      f << "fs SIMD16\ta/1.fs.simd16.asm\t20\n";
   }
   r = run("ibis-report --dynamic " + file);
   EXPECT_EQ(r.status, 1) << r.out;
   EXPECT_NE(r.out.find(file + ":1: 3 fields, not 10"), std::string::npos) << r.out;
}

/* ibis-run --profile: the program with how often each instruction
 * issued.  The example's if runs once per input set and its then-block
 * (the reciprocal) only where a channel takes it; the counts add up to
 * the executed instructions the summary reports.
 */
TEST(tools, run_profile_counts_each_instruction)
{
   result r = run("ibis-run " + example() + " --sets 3 --profile --check");
   ASSERT_EQ(r.status, 0) << r.out;
   std::istringstream lines(r.out);
   std::string line;
   uint64_t sum = 0, if_count = 0, inv_count = 0, executed = 0;
   while (std::getline(lines, line)) {
      unsigned long long n;
      char op[64];
      if (std::sscanf(line.c_str(), " %llu %63s", &n, op) == 2) {
         sum += n;
         if (std::strncmp(op, "(+f0.0)", 7) == 0 && line.find(" if(8)") != std::string::npos)
            if_count = n;
         if (line.find("math inv(8)") != std::string::npos)
            inv_count = n;
      }
      size_t at = line.find("executed ");
      if (at != std::string::npos)
         executed = std::strtoull(line.c_str() + at + 9, nullptr, 10);
   }
   EXPECT_EQ(if_count, 3u) << r.out;
   EXPECT_GE(inv_count, 1u) << r.out;
   EXPECT_LE(inv_count, 3u) << r.out;
   EXPECT_GT(executed, 0u) << r.out;
   EXPECT_EQ(sum, executed) << r.out;
}

TEST(tools, report_times_pairs_variants_by_identity)
{
   /* INTEL_IBIS_TIMES lines of a brw run and an ibis run: g/1's FS in two
    * keys (ibis fell back to brw on the second: its time counts as
    * ibis's), g/3 compiled by ibis alone, a blit of the driver's in g/2.
    */
   const std::string brw = write_temp("brw.times",
      "g/1 VS brw 100 0 0000000a 0000000000000001 8 GLSL3\n"
      "g/1 FS brw 300 0 0000000b 0000000000000002 8,16 GLSL3\n"
      "g/1 FS brw 500 0 0000000b 0000000000000003 8,16 GLSL3\n"
      "g/2 FS brw 1000 0 0000000c 0000000000000004 8,16,32 GLSL3\n"
      "g/2 FS brw 9000 0 00000000 0000000000000006 8,16 BLORP-copy\n");
   const std::string ibis = write_temp("ibis.times",
      "g/1 FS ibis-fallback 700 0 0000000b 0000000000000003 8,16 GLSL3\n"
      "g/3 FS ibis 50 37 0000000d 0000000000000005 8 GLSL3\n"
      "g/1 VS ibis 20 15 0000000a 0000000000000001 8 GLSL3\n"
      "g/2 FS ibis 200 150 0000000c 0000000000000004 8,16 GLSL3\n"
      "g/1 FS ibis 60 45 0000000b 0000000000000002 8,16 GLSL3\n");
   result r = run("ibis-report --times " + brw + " " + ibis + " --top 1");
   ASSERT_EQ(r.status, 0) << r.out;
   /* The driver's own blit is no variant of g/2's. */
   EXPECT_NE(r.out.find(": 5 variants, 1 fell back to brw\n"
                        "the driver's own (blorp), left out: brw 1, ibis 0\n"
                        "paired: 4 variants (brw alone 0, ibis alone 1)\n"
                        "every variant: brw mean 0.475, ibis mean 0.206, ibis/brw 0.434\n"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("\nVS           1 |      0.100   0.100   0.100    0.100 |      0.020   "
                        "0.020   0.020    0.020 | 0.200 0.200 0.200\n"
                        "FS           3 |      1.800   0.600   0.500    1.000 |      0.960   "
                        "0.320   0.200    0.700 | 0.533 0.400 0.700\n"
                        "all          4 |      1.900   0.475   0.400    1.000 |      0.980   "
                        "0.245   0.130    0.700 | 0.516 0.325 0.700\n"),
             std::string::npos) << r.out;
   /* ibis's time inside libibis and in the glue; the fallback's is glue. */
   EXPECT_NE(r.out.find("\n                     VS            0.015      0.005         0.150\n"
                        "                     FS            0.195      0.765         0.108\n"
                        "                     all           0.210      0.770         0.111\n"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("goal ibis <= 0.25x brw (total): 0.516x, not met\n"
                        "goal slowest ibis <= half of slowest brw: 0.700 ms vs 1.000 ms "
                        "(0.700x), not met\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("brw -> the other's time for the same variant):\n"
                        "      1.000 ->     0.200  g/2 FS SIMD8,16,32\n"), std::string::npos)
      << r.out;
   EXPECT_NE(r.out.find("      0.700 <-     0.500  g/1 FS SIMD8,16 (fell back to brw)\n"),
             std::string::npos) << r.out;
   /* A line that is not one is an error naming the line. */
   const std::string bad = write_temp("bad.times",
      "g/1 VS brw 100 0 0000000a 0000000000000001 8 GLSL3\n"
      "g/1 FS brw fast 0 0000000b 0000000000000002 8 GLSL3\n");
   r = run("ibis-report --times " + bad + " " + ibis);
   EXPECT_EQ(r.status, 1) << r.out;
   EXPECT_NE(r.out.find(bad + ":2: microseconds 'fast' is not a number"), std::string::npos)
      << r.out;
}

TEST(tools, shaderdb_times_per_stage_width_and_memory)
{
   const std::string dir = corpus_dir("sdb3");
   result r = run("ibis-shaderdb " + dir + " -j 1 --times");
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(compile time \(CPU, all widths.*mean [0-9.]+ ms)")))
      << r.out;
   EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  allocate +[0-9.]+ s)"))) << r.out;
   /* Every width the example compiles has its time, by outcome. */
   EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  FS SIMD8 +kept [0-9.]+ s\n)"))) << r.out;
   EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n  FS SIMD16 +kept [0-9.]+ s)"))) << r.out;
   /* A worker's resident set, from the kernel: not zero. */
   std::smatch m;
   ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(peak memory of a worker \(resident\): ([0-9.]+) MB)")))
      << r.out;
   EXPECT_GT(std::stod(m[1]), 0.5) << r.out;
}

TEST(tools, shaderdb_lists_failures_and_survives_crashes)
{
   const std::string dir = corpus_dir("sdb2");
   std::ofstream(dir + "/sub/broken.fs.nir") << "shader: MESA_SHADER_FRAGMENT\nfrob\n";
   std::ofstream(dir + "/sub/crash.fs.nir") << slurp(example());
   std::ofstream(dir + "/sub/zz.fs.nir") << slurp(example());
   setenv("IBIS_SHADERDB_TEST_CRASH", "crash.fs", 1);
   result r = run("ibis-shaderdb " + dir + " -j 1");
   unsetenv("IBIS_SHADERDB_TEST_CRASH");
   /* A crash makes the exit status 2; the run still finishes. */
   EXPECT_EQ(r.status, 2) << r.out;
   EXPECT_NE(r.out.find("sub/broken.fs.nir: FAIL: "), std::string::npos) << r.out;
   /* The child dies of SIGSEGV, or under AddressSanitizer exits with
    * status 1 after ASan's report; either way the shader is the crash.
    */
   EXPECT_TRUE(r.out.find("sub/crash.fs.nir: CRASH: crashed: Segmentation fault") !=
                  std::string::npos ||
               r.out.find("sub/crash.fs.nir: CRASH: compiler exited with status 1") !=
                  std::string::npos) << r.out;
   EXPECT_NE(r.out.find("4 shaders: 2 compiled, 1 failed, 1 crashed"), std::string::npos)
      << r.out;
   /* The shader after the crash, in the same batch, still compiled. */
   EXPECT_NE(r.out.find("sub/zz.fs.nir - FS SIMD8 shader: "), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("sub/vignette.fs.nir - FS SIMD8 shader: "), std::string::npos)
      << r.out;
}

TEST(tools, report_totals_helped_hurt)
{
   const std::string before = write_temp("old.txt",
      "a.fs.nir - FS SIMD8 shader: 10 inst, 0 loops, 100 cycles, 0:0 spills:fills, 2 sends, scheduled with mode top-down, Promoted 0 constants, compacted 160 to 112 bytes.\n"
      "a.fs.nir - FS SIMD16 shader: 12 inst, 0 loops, 150 cycles, 0:0 spills:fills, 2 sends, scheduled with mode top-down, Promoted 0 constants, compacted 192 to 144 bytes.\n"
      "b.vs.nir - VS SIMD8 shader: 20 inst, 1 loops, 300 cycles, 2:3 spills:fills, 4 sends, scheduled with mode top-down, Promoted 0 constants, compacted 320 to 320 bytes.\n"
      "c.fs.nir - FS SIMD8 shader: 7 inst, 0 loops, 50 cycles, 0:0 spills:fills, 1 sends, scheduled with mode top-down, Promoted 0 constants, compacted 112 to 112 bytes.\n");
   const std::string after = write_temp("new.txt",
      "some other log line\n"
      "a.fs.nir - FS SIMD8 shader: 8 inst, 0 loops, 90 cycles, 0:0 spills:fills, 2 sends, scheduled with mode none, Promoted 0 constants, compacted 128 to 96 bytes.\n"
      "b.vs.nir - VS SIMD8 shader: 25 inst, 1 loops, 300 cycles, 0:1 spills:fills, 4 sends, scheduled with mode none, Promoted 0 constants, compacted 400 to 400 bytes.\n"
      "c.fs.nir - FS SIMD8 shader: 7 inst, 0 loops, 50 cycles, 0:0 spills:fills, 1 sends, scheduled with mode none, Promoted 0 constants, compacted 112 to 112 bytes.\n"
      "c.fs.nir - FS SIMD32 shader: 14 inst, 0 loops, 70 cycles, 0:0 spills:fills, 2 sends, scheduled with mode none, Promoted 0 constants, compacted 224 to 224 bytes.\n");
   result r = run("ibis-report " + before + " " + after);
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("shared programs: 3\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total instructions in shared programs: 37 -> 40 (+8.11%)\n"
                        "instructions in affected programs: 30 -> 33 (+10.00%)\n"
                        "helped: 1\nHURT: 1\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total cycles in shared programs: 450 -> 440 (-2.22%)"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total spills in shared programs: 2 -> 0 (-100.00%)"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total fills in shared programs: 3 -> 1 (-66.67%)"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("  FS SIMD16     1 ->     0"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("  FS SIMD32     0 ->     1"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("LOST: 1 programs\nGAINED: 1 programs"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("most hurt (instructions NEW / OLD):\n  b.vs.nir VS SIMD8"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("most helped (instructions NEW / OLD):\n  a.fs.nir FS SIMD8"),
             std::string::npos) << r.out;
}

TEST(tools, report_reads_brw_stats_csv)
{
   const std::string csv = write_temp("brw.csv",
      "game,name,stage,simd,status,reason,instructions,loops,cycles,spills,fills,sends,sched_mode,promoted_constants,bytes_uncompacted,bytes_compacted\n"
      "g,1,fs,8,compiled,,100,0,1000,0,0,5,top-down,0,1600,1200\n"
      "g,1,fs,32,discarded_inefficient,SIMD32 compiled but not better,300,0,5000,0,0,10,top-down,0,4800,4000\n"
      "g,1,vs,8,compiled,,40,0,200,0,0,2,top-down,0,640,512\n");
   const std::string log = write_temp("ibis.txt",
      "g/1.fs.nir - FS SIMD8 shader: 80 inst, 0 loops, 900 cycles, 0:0 spills:fills, 5 sends, scheduled with mode latency, Promoted 0 constants, compacted 1280 to 960 bytes.\n"
      "g/1.vs.nir - VS SIMD8 shader: 40 inst, 0 loops, 210 cycles, 0:0 spills:fills, 2 sends, scheduled with mode latency, Promoted 0 constants, compacted 640 to 512 bytes.\n");
   result r = run("ibis-report " + csv + " " + log);
   ASSERT_EQ(r.status, 0) << r.out;
   /* The discarded SIMD32 is no program of brw's. */
   EXPECT_NE(r.out.find("(2 programs)"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("shared programs: 2\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total instructions in shared programs: 140 -> 120 (-14.29%)"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("  FS SIMD8      1 ->     1   shared     1: 100 -> 80 inst (0.800x)"),
             std::string::npos) << r.out;
}

TEST(tools, report_numbers_recompiled_programs)
{
   /* Through a driver, a draw that changes the key compiles again. */
   const std::string before = write_temp("brw-driver.txt",
      "g/1 - FS SIMD8 shader: 10 inst, 0 loops, 100 cycles, 0:0 spills:fills, 1 sends, scheduled with mode top-down, Promoted 0 constants, compacted 160 to 160 bytes.\n"
      "g/1 - FS SIMD8 shader: 12 inst, 0 loops, 120 cycles, 0:0 spills:fills, 1 sends, scheduled with mode top-down, Promoted 0 constants, compacted 192 to 192 bytes.\n");
   const std::string after = write_temp("ibis-driver.txt",
      "g/1 - FS SIMD8 shader: 9 inst, 0 loops, 90 cycles, 0:0 spills:fills, 1 sends, scheduled with mode latency, Promoted 0 constants, compacted 144 to 144 bytes.\n"
      "g/1 - FS SIMD8 shader: 6 inst, 0 loops, 60 cycles, 0:0 spills:fills, 1 sends, scheduled with mode latency, Promoted 0 constants, compacted 96 to 96 bytes.\n");
   result r = run("ibis-report " + before + " " + after);
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("shared programs: 2\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("total instructions in shared programs: 22 -> 15 (-31.82%)"),
             std::string::npos) << r.out;
   EXPECT_NE(r.out.find("most helped (instructions NEW / OLD):\n  g/1#2 FS SIMD8"),
             std::string::npos) << r.out;
}

TEST(tools, report_bad_csv_names_line)
{
   const std::string csv = write_temp("bad.csv",
      "game,name,stage,simd,status,reason,instructions,loops,cycles,spills,fills,sends\n"
      "g,1,fs,8,compiled,,100,0,1000,0,0,5\n"
      "g,2,fs,8,compiled,,100,0\n");
   result r = run("ibis-report " + csv + " " + csv);
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find(csv + ":3: "), std::string::npos) << r.out;
}

TEST(tools, compile_abi_file_and_prog_data)
{
   const std::string abi = write_temp("vignette.abi", "# push nothing\npush_ranges none\n");
   result r = run("ibis-compile " + example() + " --abi " + abi + " --prog-data");
   ASSERT_EQ(r.status, 0) << r.out;
   EXPECT_NE(r.out.find("prog_data.push_regs 0\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("prog_data.push_ranges -\n"), std::string::npos) << r.out;
   /* VAR0 is the one varying, interpolated with perspective at pixels. */
   EXPECT_NE(r.out.find("prog_data.urb_setup 32\n"), std::string::npos) << r.out;
   EXPECT_NE(r.out.find("prog_data.barycentric_modes 0x1\n"), std::string::npos) << r.out;
   result d = run("ibis-compile " + example() + " --prog-data");
   ASSERT_EQ(d.status, 0) << d.out;
   EXPECT_NE(d.out.find("prog_data.push_regs 1\n"), std::string::npos) << d.out;

   /* The layout needs no code: g0, g1 (and g2 for the second SIMD32
    * half), then the PLN barycentrics, 2, 4 or 2 x 4 GRFs.
    */
   result l = run("ibis-compile " + example() + " --layout");
   ASSERT_EQ(l.status, 0) << l.out;
   EXPECT_NE(l.out.find("prog_data.kernel_offset -1 -1 -1\n"
                        "prog_data.dispatch_grf_start 4 6 11\n"
                        "prog_data.push_regs 1\n"), std::string::npos) << l.out;

   const std::string bad = write_temp("bad.abi", "push_range 0 0\n");
   result e = run("ibis-compile " + example() + " --abi " + bad);
   EXPECT_EQ(e.status, 1);
   EXPECT_NE(e.out.find(bad + ":1: 'push_range' takes BLOCK START LENGTH"), std::string::npos)
      << e.out;
}

/* ibis-shaderdb --abi-dir: D/<name>.json per <name>.nir, brw-abi JSON. */
TEST(tools, shaderdb_abi_dir_reads_brw_abi_json)
{
   const std::string dir = corpus_dir("sdb-abi");
   const std::string abis = ibis::test::temp_dir() + "sdb-abi-json";
   std::system(("rm -rf '" + abis + "' && mkdir -p '" + abis + "/sub'").c_str());
   const std::string json = abis + "/sub/vignette.fs.json";
   std::ofstream(json) << "{\n  \"stage\": \"fs\", \"dispatch_grf_start_reg\": 4,\n"
                          "  \"nr_params\": 0,\n  \"curb_read_length\": \"one\"\n}\n";
   result bad = run("ibis-shaderdb " + dir + " -j 1 --abi-dir " + abis + " -o " + dir + "/b.txt");
   EXPECT_EQ(bad.status, 1) << bad.out;
   EXPECT_NE(bad.out.find(json + ":4:23: expected an integer, got a string"), std::string::npos)
      << bad.out;
   result none = run("ibis-shaderdb " + dir + " --abi-dir " + dir + "/missing");
   EXPECT_EQ(none.status, 2) << none.out;
   EXPECT_NE(none.out.find("not a directory"), std::string::npos) << none.out;
   /* ibis-run's brw mode reports the same error, exit status 1. */
   const std::string asm_file = write_temp("brw.asm", "nop;\n");
   result r = run("ibis-run " + asm_file + " --abi " + json + " --simd 8 --check " + example());
   EXPECT_EQ(r.status, 1) << r.out;
   EXPECT_NE(r.out.find(json + ":4:23: expected an integer"), std::string::npos) << r.out;
}
