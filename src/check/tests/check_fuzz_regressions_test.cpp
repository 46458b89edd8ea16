/*
 * The inputs check_fuzz found crashing the pipeline, each compiled
 * in-process at every width it may dispatch at, as the fuzz target does:
 * now each gives code or the diagnosis the table names (from the reader,
 * the validator or the compiler), never an
 * internal error or another exception.  New findings go in
 * tests/fuzz-regressions/ with a line here (docs/check.md).
 */
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "compiler/compiler.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;
using ibis::test::list_files;
using ibis::test::source_dir;

namespace {

struct finding {
   const char *file;
   /* A part of the diagnosis at every width that reads (empty: code). */
   const char *diagnosis;
};

const finding findings[] = {
   /* A load_input offset past the attribute (0x10: VERT_ATTRIB_TEX0 + 16)
    * was an internal error in from_nir_vs.
    */
   {"vs-attribute-past-inputs-read.nir", "is not in inputs_read"},
   /* A 5-component load_input of one slot read past the VS payload's
    * attributes (an internal error in ibis_ir); the validator rejects it.
    */
   {"vs-load-input-past-the-vec4.nir", "components 0-4 of an I/O slot"},
   /* A store_output at offset 0x7fffffff: the slot sum overflowed (UBSan)
    * and compiled to some other slot.
    */
   {"vs-output-offset-overflow.nir", "I/O slot offset 2147483647 is out of range"},
   /* An empty FS: liveness took &v[0] of empty word vectors (UBSan); it
    * compiles to a null RT write.
    */
   {"fs-empty.nir", ""},
};

std::string
read_file(const std::string &path)
{
   std::ifstream f(path);
   std::stringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

} /* anonymous namespace */

TEST(check_fuzz_regressions, each_is_diagnosed_or_compiled)
{
   const std::string dir = source_dir() + "/src/check/tests/fuzz-regressions/";
   /* Every file has a line in the table. */
   EXPECT_EQ(list_files(dir, ".nir").size(), sizeof(findings) / sizeof(findings[0]));
   for (const finding &f : findings) {
      SCOPED_TRACE(f.file);
      const std::string text = read_file(dir + f.file);
      ASSERT_FALSE(text.empty());
      std::unique_ptr<nir::shader> s;
      try {
         s = nir::read_shader(text, f.file);
         nir::validate(*s);
      } catch (const internal_error &e) {
         ADD_FAILURE() << "internal error: " << e.what();
         continue;
      } catch (const error &e) {
         /* Rejected as it reads: the diagnosis the table names. */
         EXPECT_NE(f.diagnosis[0], '\0') << e.what();
         EXPECT_NE(std::string(e.what()).find(f.diagnosis), std::string::npos) << e.what();
         continue;
      }
      const bool vs = s->info.stage == nir::shader_stage::vertex;
      for (unsigned w : {8u, 16u, 32u}) {
         if (vs && w != 8)
            break;
         SCOPED_TRACE("SIMD" + std::to_string(w));
         try {
            compiled_variant v = compile_variant(*s, w, compile_options());
            EXPECT_EQ(f.diagnosis[0], '\0') << "compiled, expected: " << f.diagnosis;
            EXPECT_TRUE(!v.compiled || !v.binary.empty());
         } catch (const internal_error &e) {
            ADD_FAILURE() << "internal error: " << e.what();
         } catch (const error &e) {
            EXPECT_NE(std::string(e.what()).find(f.diagnosis), std::string::npos)
               << e.what();
            EXPECT_NE(f.diagnosis[0], '\0') << e.what();
         }
      }
   }
}
