/*
 * Mesa's assembler test vectors: each X.asm must assemble to exactly the
 * bytes i965_asm produced (X.expected), and the disassembly of those bytes
 * must assemble back to them.
 */
#include <cstdio>

#include "isa/isa.h"
#include "isa/tests/isa_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;
using namespace ibis::isa;
using namespace ibis::isa::test;

namespace {

struct counts {
   unsigned good = 0, total = 0;
};

/* Assembles every vector of dir for g; returns matching instructions. */
counts
check_vectors(const std::string &dir, gen g, std::vector<std::string> *failures)
{
   counts c;
   for (const std::string &asm_path : list_files(dir, ".asm")) {
      std::string base = asm_path.substr(0, asm_path.size() - 4);
      auto expected = read_expected(base + ".expected");
      std::vector<std::vector<uint8_t>> got;
      try {
         got = split(assemble(read_file(asm_path), g, false, asm_path));
      } catch (const ibis::error &e) {
         failures->push_back(e.what());
      }
      c.total += expected.size();
      for (size_t i = 0; i < expected.size(); i++) {
         if (i < got.size() && got[i] == expected[i])
            c.good++;
         else if (failures->size() < 20)
            failures->push_back(strfmt("%s: instruction %zu: got %s, want %s", asm_path.c_str(),
                                       i, i < got.size() ? hex(got[i]).c_str() : "nothing",
                                       hex(expected[i]).c_str()));
      }
   }
   return c;
}

} /* namespace */

TEST(IsaVectors, Gen9AssemblesToExpectedBytes)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests/gen9");
   std::vector<std::string> failures;
   counts c = check_vectors(dir, gen::gen9, &failures);
   printf("gen9: %u/%u instructions\n", c.good, c.total);
   for (const std::string &f : failures)
      ADD_FAILURE() << f;
   EXPECT_GT(c.total, 2000u);
   EXPECT_EQ(c.good, c.total);
}

TEST(IsaVectors, Gen8AssemblesToExpectedBytes)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests/gen8");
   std::vector<std::string> failures;
   counts c = check_vectors(dir, gen::gen8, &failures);
   printf("gen8: %u/%u instructions\n", c.good, c.total);
   for (const std::string &f : failures)
      ADD_FAILURE() << f;
   EXPECT_GT(c.total, 2000u);
   EXPECT_EQ(c.good, c.total);
}

TEST(IsaVectors, Gen11AssemblesToExpectedBytes)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests/gen11");
   std::vector<std::string> failures;
   counts c = check_vectors(dir, gen::gen11, &failures);
   printf("gen11: %u/%u instructions\n", c.good, c.total);
   for (const std::string &f : failures)
      ADD_FAILURE() << f;
   EXPECT_GT(c.total, 0u);
   EXPECT_EQ(c.good, c.total);
}

/* bytes -> decode -> text -> assemble -> the same bytes, file by file so
 * that branch labels resolve.
 */
static void
check_round_trip(const std::string &dir, gen g, const char *name)
{
   unsigned good = 0, total = 0;
   for (const std::string &path : list_files(dir, ".expected")) {
      std::vector<uint8_t> bytes;
      for (const auto &i : read_expected(path))
         bytes.insert(bytes.end(), i.begin(), i.end());
      std::string text = disassemble_program(bytes.data(), bytes.size(), g);
      std::vector<uint8_t> again;
      try {
         again = assemble(text, g, false, path + ".dis");
      } catch (const ibis::error &e) {
         ADD_FAILURE() << e.what();
      }
      auto want = split(bytes), got = split(again);
      total += want.size();
      for (size_t i = 0; i < want.size(); i++) {
         if (i < got.size() && got[i] == want[i])
            good++;
         else
            ADD_FAILURE() << path << ": instruction " << i << " prints as\n"
                          << disassemble(decode(to_native(want[i]), g), g);
      }
   }
   printf("%s disassembly round trip: %u/%u instructions\n", name, good, total);
   EXPECT_GT(total, 0u);
   EXPECT_EQ(good, total);
}

TEST(IsaVectors, DisassemblyAssemblesBackToSameBytes)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests");
   check_round_trip(dir + "/gen9", gen::gen9, "gen9");
   check_round_trip(dir + "/gen8", gen::gen8, "gen8");
   check_round_trip(dir + "/gen11", gen::gen11, "gen11");
}

/* decode(bytes) re-encodes to the same bytes: the decoded form loses
 * nothing that the vectors use.
 */
TEST(IsaVectors, DecodeEncodeIsLossless)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests/gen9");
   unsigned good = 0, total = 0;
   for (const std::string &path : list_files(dir, ".expected")) {
      for (const auto &b : read_expected(path)) {
         native n = to_native(b);
         total++;
         native again = encode(decode(n, gen::gen9), gen::gen9);
         if (again == n)
            good++;
         else
            ADD_FAILURE() << path << ": " << hex(b);
      }
   }
   EXPECT_EQ(good, total);
}

/* compact -> uncompact gives the original back for every vector the
 * Gen9 tables can express.
 */
TEST(IsaVectors, CompactionRoundTrip)
{
   IBIS_REQUIRE_SHARED(dir, "isa-tests/gen9");
   unsigned total = 0, exact = 0, emitted = 0;
   for (const std::string &path : list_files(dir, ".expected")) {
      for (const auto &b : read_expected(path)) {
         native n = to_native(b);
         total++;
         uint64_t c;
         if (compact(n, gen::gen9, &c)) {
            exact++;
            EXPECT_EQ(uncompact(c, gen::gen9), n) << path << ": " << hex(b);
            EXPECT_TRUE((c >> 29) & 1);
         }
         if (compact_for_emit(n, gen::gen9, &c)) {
            emitted++;
            EXPECT_EQ(uncompact(c, gen::gen9), precompact(n, gen::gen9)) << path;
            /* Precompaction only retypes; the opcode and registers stay. */
            inst a = decode(n, gen::gen9), p = decode(uncompact(c, gen::gen9), gen::gen9);
            EXPECT_EQ(a.op, p.op);
            EXPECT_EQ(a.dst.nr, p.dst.nr);
            EXPECT_EQ(a.src[0].imm, p.src[0].imm);
         }
      }
   }
   printf("gen9 compaction: %u of %u vectors compact exactly, %u after precompaction\n",
          exact, total, emitted);
   /* Both kinds of instruction occur: the test exercises the tables. */
   EXPECT_GT(exact, 0u);
   EXPECT_LT(exact, total);
}
