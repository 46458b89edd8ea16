/*
 * The decoder and disassembler accept any bytes: seeded random programs
 * decode and print without crashing (the sanitized build checks for
 * undefined behaviour too), and what they print is deterministic.
 */
#include <random>
#include <string>

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
      for (gen g : { gen::gen8, gen::gen9, gen::gen11 }) {
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
      for (gen g : { gen::gen8, gen::gen9, gen::gen11 }) {
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

/* Mutated assembly either assembles or is diagnosed with ibis::error. */
TEST(IsaRobust, MutatedAssemblyIsDiagnosed)
{
   const std::string base =
      "LABEL0:\n"
      "(+f0.0) if(8) JIP: LABEL1 UIP: LABEL1 { align1 1Q };\n"
      "add(8) g3<1>UD g2<0,1,0>UD ~g2.2<0,1,0>D { align1 1Q };\n"
      "mad(8) g26<1>F g22<4,4,1>F g2.4<0,1,0>F g5<4,4,1>F { align16 1Q };\n"
      "mov(1) g19<1>UD g[a0 64]<0,1,0>UD { align1 WE_all 1N };\n"
      "send(8) null<1>F g123<8,8,1>F 0x8a080017\n"
      "   urb MsgDesc: offset 1 SIMD8 write mlen 5 rlen 0 { align1 1Q EOT };\n"
      "sends(8) nullUD g34UD g36UD 0x04035001 0x00000100\n"
      "   dp data 1 MsgDesc: x { align1 2Q };\n"
      "LABEL1:\n"
      "(-f0.0) while(8) JIP: LABEL0 { align1 1Q };\n";
   const char alphabet[] = "gfa0123456789<>,.;:()[]{}-~xyzwUDFWBVQH \n/*";
   std::mt19937_64 rng(99);
   unsigned ok = 0, diagnosed = 0;
   for (unsigned i = 0; i < 3000; i++) {
      std::string text = base;
      for (unsigned k = 1 + rng() % 4; k > 0; k--) {
         size_t at = rng() % text.size();
         switch (rng() % 3) {
         case 0: text[at] = alphabet[rng() % (sizeof(alphabet) - 1)]; break;
         case 1: text.erase(at, 1 + rng() % 3); break;
         default: text.insert(at, 1, alphabet[rng() % (sizeof(alphabet) - 1)]); break;
         }
      }
      try {
         assemble(text, gen::gen9, rng() & 1, "m.asm");
         ok++;
      } catch (const ibis::error &e) {
         EXPECT_EQ(std::string(e.what()).compare(0, 6, "m.asm:"), 0) << e.what();
         diagnosed++;
      }
   }
   EXPECT_GT(ok, 0u);
   EXPECT_GT(diagnosed, 0u);
}
