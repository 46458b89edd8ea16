/*
 * libFuzzer target: decode and disassemble arbitrary bytes, and compact
 * whatever re-encodes.  Built with -Dfuzzers=true.
 */
#include <cstddef>
#include <cstdint>

#include "isa/isa.h"
#include "util/ibis_error.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   using namespace ibis::isa;
   for (gen g : { gen::gen8, gen::gen9, gen::gen11 }) {
      disassemble_program(data, size, g);
      for (const decoded &d : decode_program(data, size, g)) {
         try {
            native n = encode(d.in, g);
            uint64_t c;
            if (compact(n, g, &c) && uncompact(c, g) != n)
               __builtin_trap();
         } catch (const ibis::error &) {
         }
      }
   }
   return 0;
}
