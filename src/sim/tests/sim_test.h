/*
 * Test helpers: assemble inline i965_asm text, run it on a thread, read
 * registers back.
 */
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "isa/isa.h"
#include "sim/sim.h"

namespace ibis::sim::test {

struct machine {
   thread t;
   memory mem;
   result last;

   explicit machine(unsigned simd = 8)
   {
      t.simd = simd;
      t.dispatch_mask = simd == 32 ? ~0u : (1u << simd) - 1;
   }

   /* Assembles and runs; both forms (native and compacted) when asked. */
   result run(const std::string &text, bool compact = false)
   {
      std::vector<uint8_t> bin = isa::assemble(text, isa::gen::gen9, compact);
      last = sim::run(bin, t, mem);
      return last;
   }

   float f(unsigned reg, unsigned i) const { return t.read<float>(reg, i); }
   uint32_t ud(unsigned reg, unsigned i) const { return t.read<uint32_t>(reg, i); }
   int32_t d(unsigned reg, unsigned i) const { return t.read<int32_t>(reg, i); }
   uint16_t uw(unsigned reg, unsigned i) const { return t.read<uint16_t>(reg, i); }
   double df(unsigned reg, unsigned i) const { return t.read<double>(reg, i); }

   void set_f(unsigned reg, std::initializer_list<float> v)
   {
      unsigned i = 0;
      for (float x : v)
         t.write<float>(reg + i / 8, i % 8, x), i++;
   }
   void set_d(unsigned reg, std::initializer_list<int32_t> v)
   {
      unsigned i = 0;
      for (int32_t x : v)
         t.write<int32_t>(reg + i / 8, i % 8, x), i++;
   }
   void fill_ud(unsigned reg, unsigned n, uint32_t (*fn)(unsigned))
   {
      for (unsigned i = 0; i < n; i++)
         t.write<uint32_t>(reg + i / 8, i % 8, fn(i));
   }
};

static inline uint32_t
fbits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

static inline float
bits_to_float(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

} /* namespace ibis::sim::test */
