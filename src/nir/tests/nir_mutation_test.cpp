/*
 * Deterministic mutation test: corpus files truncated, with bytes flipped,
 * tokens swapped and lines dropped or repeated.  Every mutant must either
 * read and validate, or be rejected with an ibis::error giving a position
 * -- never crash, hang or hit an internal error.  A mutant that is
 * accepted must print, and its printed form must read back to itself.
 */
#include <random>

#include "nir/nir.h"
#include "nir/tests/nir_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

/* mt19937 is the same everywhere; the standard distributions are not. */
struct rng {
   std::mt19937 mt;
   explicit rng(uint32_t seed) : mt(seed) {}
   size_t below(size_t n) { return n ? mt() % n : 0; }
};

std::vector<std::pair<size_t, size_t>>
tokens_of(const std::string &s)
{
   std::vector<std::pair<size_t, size_t>> toks;
   size_t i = 0;
   while (i < s.size()) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\n'))
         i++;
      const size_t start = i;
      while (i < s.size() && s[i] != ' ' && s[i] != '\n')
         i++;
      if (i > start)
         toks.push_back({start, i - start});
   }
   return toks;
}

std::vector<std::pair<size_t, size_t>>
lines_of(const std::string &s)
{
   std::vector<std::pair<size_t, size_t>> lines;
   size_t start = 0;
   while (start < s.size()) {
      size_t nl = s.find('\n', start);
      if (nl == std::string::npos)
         nl = s.size();
      lines.push_back({start, nl + 1 - start});
      start = nl + 1;
   }
   return lines;
}

std::string
mutate(const std::string &text, rng &r, unsigned kind)
{
   std::string s = text;
   switch (kind) {
   case 0: /* truncate */
      s.resize(r.below(s.size()));
      break;
   case 1: { /* flip bytes */
      const unsigned n = 1 + unsigned(r.below(4));
      for (unsigned i = 0; i < n && !s.empty(); i++) {
         const size_t at = r.below(s.size());
         s[at] = r.below(2) ? char(s[at] ^ (1 << r.below(8)))
                            : " %(),.=x0123456789abz{}-#:\n"[r.below(27)];
      }
      break;
   }
   case 2: { /* swap two tokens */
      const auto toks = tokens_of(s);
      if (toks.size() < 2)
         break;
      auto a = toks[r.below(toks.size())], b = toks[r.below(toks.size())];
      if (a.first > b.first)
         std::swap(a, b);
      if (a.first == b.first)
         break;
      s = text.substr(0, a.first) + text.substr(b.first, b.second) +
          text.substr(a.first + a.second, b.first - a.first - a.second) +
          text.substr(a.first, a.second) + text.substr(b.first + b.second);
      break;
   }
   case 3: { /* drop or repeat a line */
      const auto lines = lines_of(s);
      if (lines.empty())
         break;
      const auto l = lines[r.below(lines.size())];
      if (r.below(2))
         s.erase(l.first, l.second);
      else
         s.insert(l.first, text.substr(l.first, l.second));
      break;
   }
   case 4: { /* replace a number with an extreme one */
      const auto toks = tokens_of(s);
      if (toks.empty())
         break;
      const auto t = toks[r.below(toks.size())];
      static const char *const extremes[] = {
         "%4294967295", "%0", "4294967296", "-1", "99999999999999999999",
         "0xffffffffffffffffff", "b4294967295:", "32x16", "64", "1x3", "()",
      };
      s.replace(t.first, t.second, extremes[r.below(11)]);
      break;
   }
   }
   return s;
}

void
corpus_mutants(const std::string &dir)
{
   const std::vector<std::string> files = nir::test::corpus_files(dir);
   ASSERT_FALSE(files.empty());

   /* A fixed spread of files keeps the run short, also under ASan. */
   constexpr unsigned num_files = 24, mutants_per_file = 60;
   rng r(0x1b15);
   unsigned accepted = 0, rejected = 0;
   std::vector<std::string> failures;
   for (unsigned f = 0; f < num_files; f++) {
      const std::string &path = files[f * files.size() / num_files];
      const std::string text = nir::test::read_file(path);
      for (unsigned m = 0; m < mutants_per_file; m++) {
         const unsigned kind = m % 5;
         const std::string mutant = mutate(text, r, kind);
         std::string why;
         try {
            auto s = nir::read_shader(mutant, "mutant.nir");
            nir::validate(*s);
            const std::string printed = nir::print_shader(*s);
            auto again = nir::read_shader(printed, "printed.nir");
            nir::validate(*again);
            if (nir::print_shader(*again) != printed)
               why = "printing is not a fixed point";
            accepted++;
         } catch (const ibis::internal_error &e) {
            why = std::string("internal error: ") + e.what();
         } catch (const ibis::error &e) {
            /* A clear message: file:line:col or file:line. */
            if (std::string(e.what()).rfind("mutant.nir:", 0) != 0)
               why = std::string("error without a position: ") + e.what();
            rejected++;
         }
         if (!why.empty())
            failures.push_back(path + " mutant " + std::to_string(m) + " (kind " +
                               std::to_string(kind) + "): " + why);
      }
   }
   std::printf("%u mutants: %u accepted, %u rejected with an error\n",
               accepted + rejected, accepted, rejected);
   for (size_t i = 0; i < failures.size() && i < 5; i++)
      ADD_FAILURE() << failures[i];
   EXPECT_TRUE(failures.empty());
   /* Most mutants of real shaders must be caught. */
   EXPECT_GT(rejected, accepted);
}

} /* anonymous namespace */

TEST(nir_mutation, corpus_mutants)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   corpus_mutants(dir);
}

/* Mutants of Mesa 25.0's print: its forms, mutated, read or give a
 * positioned error too.
 */
TEST(nir_mutation, mesa25_corpus_mutants)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl-mesa25");
   corpus_mutants(dir);
}
