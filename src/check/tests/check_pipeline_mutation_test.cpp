/*
 * Robustness of the whole pipeline: mutants of corpus shaders and of random
 * programs that still read and validate are compiled at every width.  Each
 * must give a diagnosed ibis::error or a compiled variant with code: no
 * crash (this runs in-process, so a sanitizer build reports it), no
 * internal error, no other exception.
 */
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "compiler/compiler.h"
#include "nir/random/nir_random.h"
#include "nir/tests/nir_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

std::vector<std::string>
lines_of(const std::string &text)
{
   std::vector<std::string> out;
   std::istringstream in(text);
   std::string l;
   while (std::getline(in, l))
      out.push_back(l);
   return out;
}

/* One structural edit of an instruction line: drop it, repeat it, swap it
 * with another, make one of its %N sources another value, or change its
 * opcode for another of the same width.
 */
std::string
mutate(const std::string &text, std::mt19937 &r)
{
   std::vector<std::string> lines = lines_of(text);
   std::vector<size_t> instrs;
   for (size_t i = 0; i < lines.size(); i++) {
      if (lines[i].find(" = ") != std::string::npos || lines[i].find('@') != std::string::npos)
         instrs.push_back(i);
   }
   if (instrs.size() < 2)
      return text;
   size_t a = instrs[r() % instrs.size()], b = instrs[r() % instrs.size()];
   static const char *const swaps[][2] = {
      {"fadd", "fmul"}, {"iadd", "ishl"}, {"fmul", "fmax"}, {"imul", "ixor"},
      {"ior", "iand"}, {"flt32", "fge32"}, {"f2i32", "f2u32"}, {"ushr", "ishr"},
      {"fsat", "fneg"}, {"b32csel", "fcsel"}, {"uge32", "ilt32"}, {"fmin", "fmax"},
   };
   switch (r() % 5) {
   case 0:
      lines.erase(lines.begin() + a);
      break;
   case 1:
      lines.insert(lines.begin() + a, lines[a]);
      break;
   case 2:
      std::swap(lines[a], lines[b]);
      break;
   case 3: {
      /* A source %N of line a becomes a def named on line b. */
      std::string &l = lines[a];
      size_t eq = l.find(" = ");
      size_t p = l.find('%', eq == std::string::npos ? 0 : eq);
      size_t q = lines[b].find('%');
      if (p == std::string::npos || q == std::string::npos)
         break;
      size_t pe = p + 1, qe = q + 1;
      while (pe < l.size() && isdigit((unsigned char)l[pe]))
         pe++;
      while (qe < lines[b].size() && isdigit((unsigned char)lines[b][qe]))
         qe++;
      l.replace(p, pe - p, lines[b].substr(q, qe - q));
      break;
   }
   default:
      for (const auto &s : swaps) {
         size_t p = lines[a].find(std::string(" ") + s[0] + " ");
         if (p != std::string::npos) {
            lines[a].replace(p + 1, strlen(s[0]), s[1]);
            break;
         }
      }
      break;
   }
   std::string out;
   for (const std::string &l : lines)
      out += l + "\n";
   return out;
}

struct tally {
   unsigned mutants = 0, valid = 0, variants = 0, compiled = 0, diagnosed = 0;
   std::vector<std::string> failures;
};

void
compile_all_widths(const std::string &text, const std::string &what, tally &t)
{
   t.mutants++;
   std::unique_ptr<nir::shader> s;
   try {
      s = nir::read_shader(text, "mutant.nir");
      nir::validate(*s);
   } catch (const error &) {
      return;   /* not a valid program: the reader's tests cover this */
   }
   t.valid++;
   std::vector<unsigned> widths = {8};
   if (s->info.stage != nir::shader_stage::vertex)
      widths = {8, 16, 32};
   for (unsigned w : widths) {
      t.variants++;
      try {
         compiled_variant v = compile_variant(*s, w, compile_options());
         if (v.compiled && v.binary.empty())
            t.failures.push_back(strfmt("%s SIMD%u: compiled without code", what.c_str(), w));
         else if (v.compiled)
            t.compiled++;
         else
            t.diagnosed++;
      } catch (const internal_error &e) {
         t.failures.push_back(strfmt("%s SIMD%u: internal error: %s", what.c_str(), w, e.what()));
      } catch (const error &) {
         t.diagnosed++;
      } catch (const std::exception &e) {
         t.failures.push_back(strfmt("%s SIMD%u: %s", what.c_str(), w, e.what()));
      }
   }
}

void
report(const tally &t)
{
   printf("%u mutants, %u valid; %u variants: %u compiled, %u diagnosed errors, %zu failures\n",
          t.mutants, t.valid, t.variants, t.compiled, t.diagnosed, t.failures.size());
   for (size_t i = 0; i < t.failures.size() && i < 5; i++)
      ADD_FAILURE() << t.failures[i];
}

void
corpus_mutants(const std::string &dir)
{
   const std::vector<std::string> files = nir::test::corpus_files(dir);
   ASSERT_FALSE(files.empty());
   std::mt19937 r(0x5eed);
   tally t;
   constexpr unsigned num_files = 48, per_file = 12;
   for (unsigned f = 0; f < num_files; f++) {
      const std::string &path = files[f * files.size() / num_files];
      const std::string text = nir::test::read_file(path);
      for (unsigned m = 0; m < per_file; m++)
         compile_all_widths(mutate(text, r), strfmt("%s mutant %u", path.c_str(), m), t);
   }
   report(t);
   EXPECT_TRUE(t.failures.empty());
   EXPECT_GT(t.valid, 0u);
}

} /* anonymous namespace */

TEST(check_pipeline_mutation, corpus_mutants_compile_or_fail_cleanly)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   corpus_mutants(dir);
}

/* The same mutants of Mesa 25.0's print of the same shaders. */
TEST(check_pipeline_mutation, mesa25_corpus_mutants_compile_or_fail_cleanly)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl-mesa25");
   corpus_mutants(dir);
}

TEST(check_pipeline_mutation, random_mutants_compile_or_fail_cleanly)
{
   std::mt19937 r(0xb0b);
   tally t;
   for (uint64_t seed = 1; seed <= 90; seed++) {
      nir::random_options ro;
      ro.seed = seed;
      ro.stage = seed % 3 == 0 ? nir::shader_stage::vertex
               : seed % 3 == 1 ? nir::shader_stage::fragment : nir::shader_stage::compute;
      const std::string text = nir::print_shader(*nir::generate(ro));
      for (unsigned m = 0; m < 4; m++)
         compile_all_widths(mutate(text, r), strfmt("random seed %u mutant %u", unsigned(seed), m),
                            t);
   }
   report(t);
   EXPECT_TRUE(t.failures.empty());
   EXPECT_GT(t.valid, 0u);
}
