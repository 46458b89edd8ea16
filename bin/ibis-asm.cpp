/*
 * ibis-asm: assembles i965_asm syntax into Gen8, Gen9 or Gen11 machine code.
 *
 *    ibis-asm --gen 8|9|11 --type hex|bin [--compact|--no-compact] FILE.asm [-o OUT]
 *
 * Hex output is what Mesa's i965_asm --type hex prints: one instruction a
 * line, bytes as two hex digits separated by spaces (16 bytes native, 8
 * compacted).
 */
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "isa/isa.h"
#include "util/ibis_error.h"

using namespace ibis;

static void
usage(FILE *f)
{
   fprintf(f, "usage: ibis-asm [--gen 8|9|11] [--type hex|bin] [--compact|--no-compact] "
              "FILE.asm [-o OUT]\n");
}

/* One line per instruction, following the compaction bit of each. */
static std::string
to_hex(const std::vector<uint8_t> &bytes)
{
   std::string out;
   size_t i = 0;
   while (i < bytes.size()) {
      /* CmptCtrl is bit 29: bit 5 of the fourth byte. */
      size_t len = i + 3 < bytes.size() && (bytes[i + 3] >> 5) & 1 ? 8 : 16;
      for (size_t j = 0; j < len && i + j < bytes.size(); j++)
         out += strfmt(j ? " %02x" : "%02x", bytes[i + j]);
      out += '\n';
      i += len;
   }
   return out;
}

int
main(int argc, char **argv)
{
   isa::gen g = isa::gen::gen9;
   bool hex = true, compaction = false;
   const char *input = nullptr, *output = nullptr;

   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      if ((!strcmp(a, "--gen") || !strcmp(a, "-g")) && i + 1 < argc) {
         if (!isa::parse_gen(argv[++i], &g)) {
            fprintf(stderr, "ibis-asm: unknown generation '%s'\n", argv[i]);
            return 1;
         }
      } else if ((!strcmp(a, "--type") || !strcmp(a, "-t")) && i + 1 < argc) {
         const char *t = argv[++i];
         if (!strcmp(t, "hex")) {
            hex = true;
         } else if (!strcmp(t, "bin")) {
            hex = false;
         } else {
            fprintf(stderr, "ibis-asm: unknown output type '%s'\n", t);
            return 1;
         }
      } else if (!strcmp(a, "--compact") || !strcmp(a, "-c")) {
         compaction = true;
      } else if (!strcmp(a, "--no-compact")) {
         compaction = false;
      } else if (!strcmp(a, "-o") && i + 1 < argc) {
         output = argv[++i];
      } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         usage(stdout);
         return 0;
      } else if (a[0] == '-' && a[1]) {
         usage(stderr);
         return 1;
      } else {
         input = a;
      }
   }
   if (!input) {
      usage(stderr);
      return 1;
   }

   try {
      std::ifstream in(input);
      if (!in)
         throw error(strfmt("%s: cannot open", input));
      std::stringstream text;
      text << in.rdbuf();
      std::vector<uint8_t> bytes = isa::assemble(text.str(), g, compaction, input);

      std::string data = hex ? to_hex(bytes) : std::string(bytes.begin(), bytes.end());
      if (output) {
         std::ofstream out(output, std::ios::binary);
         out << data;
         if (!out)
            throw error(strfmt("%s: cannot write", output));
      } else {
         fwrite(data.data(), 1, data.size(), stdout);
      }
   } catch (const error &e) {
      fprintf(stderr, "%s\n", e.what());
      return 1;
   }
   return 0;
}
