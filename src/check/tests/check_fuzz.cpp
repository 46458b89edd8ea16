/*
 * libFuzzer target for the whole pipeline: any input that reads and
 * validates as NIR is compiled at every width it may dispatch at; the
 * result must be a compiled variant with code or an ibis::error.  An
 * internal error or any other exception aborts (a crash or a sanitizer
 * report is the fuzzer's own finding).
 *
 * Build with -Dfuzzers=true (clang); run, e.g.:
 *    build/src/check/check_fuzz -max_len=8192 -timeout=30 CORPUS_DIR
 */
#include <cstdint>
#include <cstdlib>
#include <string>

#include "compiler/compiler.h"
#include "util/ibis_error.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const std::string text(reinterpret_cast<const char *>(data), size);
   std::unique_ptr<ibis::nir::shader> s;
   try {
      s = ibis::nir::read_shader(text, "fuzz.nir");
      ibis::nir::validate(*s);
   } catch (const ibis::error &) {
      return 0;
   }
   const bool vs = s->info.stage == ibis::nir::shader_stage::vertex;
   for (unsigned w : {8u, 16u, 32u}) {
      if (vs && w != 8)
         break;
      try {
         ibis::compiled_variant v = ibis::compile_variant(*s, w, ibis::compile_options());
         if (v.compiled && v.binary.empty())
            std::abort();
      } catch (const ibis::internal_error &) {
         std::abort();
      } catch (const ibis::error &) {
         /* Diagnosed: fine. */
      } catch (...) {
         std::abort();
      }
   }
   return 0;
}
