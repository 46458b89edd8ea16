/*
 * libFuzzer target: any input must read (and validate, and print back to a
 * fixed point) or be rejected with an ibis::error.  An internal error or
 * a printing mismatch is a bug and aborts.
 *
 * Build with -Dfuzzers=true (clang); run, e.g.:
 *    build/src/nir/nir_fuzz -max_len=4096 CORPUS_DIR
 */
#include <cstdint>
#include <cstdlib>
#include <string>

#include "nir/nir.h"
#include "util/ibis_error.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const std::string text(reinterpret_cast<const char *>(data), size);
   try {
      auto s = ibis::nir::read_shader(text, "fuzz.nir");
      ibis::nir::validate(*s);
      const std::string printed = ibis::nir::print_shader(*s);
      auto again = ibis::nir::read_shader(printed, "printed.nir");
      ibis::nir::validate(*again);
      if (ibis::nir::print_shader(*again) != printed)
         std::abort();
   } catch (const ibis::internal_error &) {
      std::abort();
   } catch (const ibis::error &) {
      /* Rejected with a message: fine. */
   }
   return 0;
}
