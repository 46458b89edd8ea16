/*
 * Floating-point formats and rounding: half precision, the restricted
 * 8-bit VF immediates, and rounding a double to a narrower precision under
 * the cr0 rounding mode.
 */
#include <cmath>

#include "sim/sim_internal.h"

namespace ibis::sim {

using isa::type;

bool
is_float_type(type t)
{
   return t == type::F || t == type::DF || t == type::HF || t == type::VF;
}

bool
is_signed_type(type t)
{
   return t == type::D || t == type::W || t == type::B || t == type::Q ||
          t == type::V || is_float_type(t);
}

/* Rounds a (finite, non-zero) magnitude to a multiple of quantum. */
static double
round_quantum(double v, double quantum, rnd_mode mode)
{
   double q = v / quantum;   /* exact: quantum is a power of two */
   double n;
   switch (mode) {
   case rnd_mode::rtz: n = std::trunc(q); break;
   case rnd_mode::ru: n = std::ceil(q); break;
   case rnd_mode::rd: n = std::floor(q); break;
   default: n = std::nearbyint(q); break;   /* host default: RTNE */
   }
   return n * quantum;
}

/* Rounds v to a binary format with mant_bits explicit mantissa bits and
 * normal exponents down to min_exp; overflow gives infinity or the largest
 * finite value as the rounding mode says.
 */
static double
round_to_format(double v, int mant_bits, int min_exp, double max_finite,
                rnd_mode mode)
{
   if (!std::isfinite(v) || v == 0)
      return v;
   int e;
   std::frexp(v, &e);                        /* |v| = m * 2^e, m in [0.5, 1) */
   int exp = std::max(e - 1, min_exp);       /* denormals share min_exp */
   double quantum = std::ldexp(1.0, exp - mant_bits);
   double r = round_quantum(v, quantum, mode);
   if (std::fabs(r) > max_finite) {
      bool to_inf = mode == rnd_mode::rtne ||
                    (mode == rnd_mode::ru && r > 0) ||
                    (mode == rnd_mode::rd && r < 0);
      return std::copysign(to_inf ? INFINITY : max_finite, v);
   }
   return r == 0 ? std::copysign(0.0, v) : r;
}

double
round_to_float(double v, rnd_mode mode)
{
   if (mode == rnd_mode::rtne)
      return double(float(v));
   return round_to_format(v, 23, -126, 3.4028234663852886e38, mode);
}

double
round_to_half(double v, rnd_mode mode)
{
   return round_to_format(v, 10, -14, 65504.0, mode);
}

uint16_t
double_to_half(double v, rnd_mode mode)
{
   uint16_t sign = std::signbit(v) ? 0x8000 : 0;
   if (std::isnan(v))
      return sign | 0x7e00;
   double r = std::fabs(round_to_half(v, mode));
   if (std::isinf(r))
      return sign | 0x7c00;
   if (r < std::ldexp(1.0, -14))                /* denormal or zero */
      return sign | uint16_t(r * std::ldexp(1.0, 24));
   int e;
   double m = std::frexp(r, &e);               /* r = m * 2^e */
   unsigned exp = unsigned(e - 1 + 15);
   unsigned mant = unsigned((m * 2 - 1) * 1024);
   return sign | uint16_t(exp << 10 | mant);
}

uint16_t
float_to_half(float f, rnd_mode mode)
{
   return double_to_half(f, mode);
}

float
half_to_float(uint16_t h)
{
   float sign = (h & 0x8000) ? -1.0f : 1.0f;
   unsigned exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
   if (exp == 0x1f)
      return mant ? std::copysign(NAN, sign) : sign * INFINITY;
   if (exp == 0)
      return sign * std::ldexp(float(mant), -24);
   return sign * std::ldexp(float(mant | 0x400), int(exp) - 25);
}

/* VF: sign, 3-bit exponent biased by 3, 4-bit mantissa (brw_vf_to_float). */
double
vf_to_double(uint8_t vf)
{
   double sign = (vf & 0x80) ? -1.0 : 1.0;
   if ((vf & 0x7f) == 0)
      return sign * 0.0;
   unsigned exp = (vf >> 4) & 7, mant = vf & 0xf;
   return sign * std::ldexp(1.0 + mant / 16.0, int(exp) - 3);
}

unsigned
format_size(format f)
{
   switch (f) {
   case format::r32_uint:
   case format::r32_sint:
   case format::r32_float:
   case format::rgba8_unorm:
      return 4;
   default:
      return 16;
   }
}

size_t
surface::level_offset(unsigned l) const
{
   size_t off = 0;
   for (unsigned i = 0; i < l; i++)
      off += size_t(level_width(i)) * level_height(i) * level_depth(i) * format_size(fmt);
   return off;
}

} /* namespace ibis::sim */
