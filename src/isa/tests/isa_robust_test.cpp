/*
 * The decoder and disassembler accept any bytes: seeded random programs
 * decode and print without crashing (the sanitized build checks for
 * undefined behaviour too), and what they print is deterministic.
 */
#include <random>

#include "isa/isa.h"
#include "util/ibis_error.h"
#include <gtest/gtest.h>

using namespace ibis;
using namespace ibis::isa;

namespace {

std::vector<uint8_t>
random_bytes(std::mt19937_64 &rng, size_t n)
{
   std::vector<uint8_t> b(n);
   for (uint8_t &v : b)
      v = uint8_t(rng());
   return b;
}

} /* namespace */

TEST(IsaRobust, RandomBytesDecodeAndDisassemble)
{
   std::mt19937_64 rng(0x1b15);
   size_t instructions = 0;
   for (unsigned round = 0; round < 400; round++) {
      /* Odd sizes too: a trailing partial instruction is ignored. */
      std::vector<uint8_t> bytes = random_bytes(rng, 8 + rng() % 1024);
      for (gen g : { gen::gen8, gen::gen9 }) {
         std::vector<decoded> prog = decode_program(bytes.data(), bytes.size(), g);
         std::string text = disassemble_program(bytes.data(), bytes.size(), g);
         instructions += prog.size();
         /* Each instruction prints at least one line ending in ';'. */
         size_t lines = 0;
         for (size_t p = text.find(";\n"); p != std::string::npos; p = text.find(";\n", p + 1))
            lines++;
         EXPECT_EQ(lines, prog.size());
         EXPECT_EQ(text, disassemble_program(bytes.data(), bytes.size(), g));
      }
   }
   EXPECT_GT(instructions, 10000u);
}

/* Random instruction words with one field class set to every value. */
TEST(IsaRobust, RandomNativesEncodeOrReportError)
{
   std::mt19937_64 rng(42);
   unsigned encoded = 0, refused = 0;
   for (unsigned i = 0; i < 20000; i++) {
      native n = { rng(), rng() };
      n[0] &= ~(1ull << 29);   /* native form */
      inst in = decode(n, gen::gen9);
      disassemble(in, gen::gen9, 0, nullptr);
      /* Re-encoding either works and is stable, or throws ibis::error. */
      try {
         native again = encode(in, gen::gen9);
         EXPECT_EQ(encode(decode(again, gen::gen9), gen::gen9), again);
         encoded++;
      } catch (const ibis::error &) {
         refused++;
      }
      uint64_t c;
      if (compact(n, gen::gen9, &c)) {
         EXPECT_EQ(uncompact(c, gen::gen9), n);
      }
   }
   EXPECT_GT(encoded, 0u);
   EXPECT_GT(refused, 0u);
}

TEST(IsaRobust, RandomCompactedWordsUncompact)
{
   std::mt19937_64 rng(7);
   for (unsigned i = 0; i < 20000; i++) {
      uint64_t c = rng() | 1ull << 29;
      for (gen g : { gen::gen8, gen::gen9 }) {
         native n = uncompact(c, g);
         /* The expansion is a native instruction, and compacting it back
          * gives a word that expands the same way.
          */
         EXPECT_FALSE((n[0] >> 29) & 1);
         uint64_t again;
         if (compact(n, g, &again)) {
            EXPECT_EQ(uncompact(again, g), n);
         }
         disassemble(decode(n, g), g);
      }
   }
}
