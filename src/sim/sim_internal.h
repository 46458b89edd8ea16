/*
 * Pieces shared by the simulator's source files.  Internal to src/sim.
 */
#pragma once

#include <cstring>

#include "sim/sim.h"

namespace ibis::sim {

/* The instruction being executed, for error messages and send handling. */
struct exec_ctx {
   thread &t;
   memory &mem;
   const isa::inst &in;
   size_t offset;
   /* Channel enables of this instruction (bit i: channel group + i), after
    * the execution mask, NoMask and predication.
    */
   uint32_t exec_mask = 0;   /* before predication */
   uint32_t enabled = 0;

   /* Throws ibis::error "offset 0x..: <disassembly>: message". */
   [[noreturn]] void fail(const char *fmt, ...) const
      __attribute__((format(printf, 2, 3)));
};

/* Sends: sim_msg.cpp.  Returns true when the message ended the thread. */
bool execute_send(exec_ctx &c);

/* Value conversions: sim_value.cpp. */
bool is_float_type(isa::type t);
bool is_signed_type(isa::type t);
double round_to_float(double v, rnd_mode mode);
double round_to_half(double v, rnd_mode mode);
uint16_t double_to_half(double v, rnd_mode mode);
double vf_to_double(uint8_t vf);

static inline float
bits_to_float(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

static inline uint32_t
float_to_bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

static inline double
bits_to_double(uint64_t u)
{
   double d;
   std::memcpy(&d, &u, 8);
   return d;
}

static inline uint64_t
double_to_bits(double d)
{
   uint64_t u;
   std::memcpy(&u, &d, 8);
   return u;
}

} /* namespace ibis::sim */
