/*
 * brw's disassembly of the shader-db corpus as an assembler, disassembler
 * and compaction test.
 */
#include <cstdio>

#include "isa/isa.h"
#include "isa/tests/isa_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;
using namespace ibis::isa;
using namespace ibis::isa::test;

/* brw's own disassembly of the corpus, assembled with compaction and
 * disassembled again, is unchanged: the same text, and the same
 * instructions marked "compacted" as brw chose.
 */
TEST(IsaCorpus, DisassemblyRoundTripWithCompaction)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl/brw-asm");
   std::vector<std::string> files = list_files(dir, ".asm");
   ASSERT_FALSE(files.empty());

   unsigned lines = 0, same = 0, compacted = 0, reported = 0;
   for (size_t k = 0; k < files.size(); k++) {
      /* Keep only instructions and labels (not block markers or stats). */
      std::istringstream in(read_file(files[k]));
      std::string line, text;
      while (std::getline(in, line)) {
         if (line.empty() || line.compare(0, 8, "   START") == 0 ||
             line.compare(0, 6, "   END") == 0 || line.find("shader:") != std::string::npos)
            continue;
         text += line + "\n";
      }
      std::vector<uint8_t> bytes;
      try {
         bytes = assemble(text, gen::gen9, true, files[k]);
      } catch (const ibis::error &e) {
         ADD_FAILURE() << e.what();
         continue;
      }
      std::string again = disassemble_program(bytes.data(), bytes.size(), gen::gen9);
      std::istringstream a(text), b(again);
      std::string la, lb;
      while (std::getline(a, la)) {
         lines++;
         if (la.find("compacted") != std::string::npos)
            compacted++;
         if (std::getline(b, lb) && la == lb)
            same++;
         else if (reported++ < 20)
            ADD_FAILURE() << files[k] << ":\n  brw:  " << la << "\n  ibis: " << lb;
      }
   }
   printf("corpus: %zu files, %u/%u lines identical (%u compacted)\n", files.size(), same,
          lines, compacted);
   EXPECT_EQ(same, lines);
}
