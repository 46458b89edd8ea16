/*
 * ibis-disasm: prints Gen8, Gen9 or Gen11 machine code in i965_disasm syntax.
 *
 *    ibis-disasm [--gen 8|9|11] [--validate] FILE
 *
 * FILE is raw binary, or hex text as ibis-asm --type hex and i965_asm
 * write it (two-digit bytes separated by white space); the format is
 * detected from the content.  --validate also checks every instruction
 * against Mesa's EU rules (isa::validate): each violation goes to stderr
 * as "FILE: offset: group: rule: instruction", and the exit status is 1
 * when there is one.
 */
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "isa/isa.h"
#include "util/ibis_error.h"

using namespace ibis;

/* True if the text is only hex byte pairs and white space. */
static bool
parse_hex(const std::string &text, std::vector<uint8_t> *out)
{
   std::istringstream in(text);
   std::string word;
   while (in >> word) {
      if (word.size() != 2 || !isxdigit((unsigned char)word[0]) ||
          !isxdigit((unsigned char)word[1]))
         return false;
      out->push_back(uint8_t(strtoul(word.c_str(), nullptr, 16)));
   }
   return !out->empty();
}

int
main(int argc, char **argv)
{
   isa::gen g = isa::gen::gen9;
   const char *input = nullptr;
   bool check = false;

   for (int i = 1; i < argc; i++) {
      if ((!strcmp(argv[i], "--gen") || !strcmp(argv[i], "-g")) && i + 1 < argc) {
         if (!isa::parse_gen(argv[++i], &g)) {
            fprintf(stderr, "ibis-disasm: unknown generation '%s'\n", argv[i]);
            return 1;
         }
      } else if (!strcmp(argv[i], "--validate")) {
         check = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         fprintf(stderr, "usage: ibis-disasm [--gen 8|9|11] [--validate] FILE\n");
         return 1;
      } else {
         input = argv[i];
      }
   }
   if (!input) {
      fprintf(stderr, "usage: ibis-disasm [--gen 8|9|11] [--validate] FILE\n");
      return 1;
   }

   try {
      std::ifstream in(input, std::ios::binary);
      if (!in)
         throw error(strfmt("%s: cannot open", input));
      std::stringstream buf;
      buf << in.rdbuf();
      std::string data = buf.str();

      std::vector<uint8_t> bytes;
      if (!parse_hex(data, &bytes))
         bytes.assign(data.begin(), data.end());
      std::string text = isa::disassemble_program(bytes.data(), bytes.size(), g);
      fwrite(text.data(), 1, text.size(), stdout);
      if (check) {
         const std::vector<std::string> bad =
            isa::validate_program(bytes.data(), bytes.size(), g);
         for (const std::string &e : bad)
            fprintf(stderr, "%s: %s\n", input, e.c_str());
         if (!bad.empty())
            return 1;
      }
   } catch (const error &e) {
      fprintf(stderr, "%s\n", e.what());
      return 1;
   }
   return 0;
}
