#include "nir/nir_eval_helpers.h"

namespace ibis::nir::eval {

float
half_to_float(uint16_t h)
{
   const bool neg = h & 0x8000;
   const unsigned exp = (h >> 10) & 0x1f;
   const unsigned mant = h & 0x3ff;
   float v;
   if (exp == 0x1f)
      v = mant ? NAN : INFINITY;
   else if (exp == 0)
      v = std::ldexp(float(mant), -24);
   else
      v = std::ldexp(float(mant | 0x400), int(exp) - 25);
   return neg ? -v : v;
}

/* Rounds a non-negative q to an integer: ties to even, or toward zero. */
static double
round_units(double q, bool rtz)
{
   const double fl = std::floor(q);
   if (rtz)
      return fl;
   const double frac = q - fl;
   if (frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0))
      return fl + 1;
   return fl;
}

uint16_t
to_half(double x, bool rtz)
{
   const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
   if (std::isnan(x))
      return sign | 0x7e00;
   const double a = std::fabs(x);
   if (std::isinf(a))
      return sign | 0x7c00;

   if (a < 0x1p-14) {
      /* Subnormal: count units of 2^-24.  A result of 1024 is exactly the
       * smallest normal's encoding.
       */
      return sign | uint16_t(round_units(a * 0x1p24, rtz));
   }

   int e2;
   std::frexp(a, &e2);
   int e = e2 - 1;  /* a = 1.m * 2^e */
   double m = round_units(std::ldexp(a, 10 - e), rtz);
   if (m >= 2048) {
      m /= 2;
      e++;
   }
   if (e > 15)
      return rtz ? sign | 0x7bff : sign | 0x7c00;
   return sign | uint16_t((e + 15) << 10) | (uint16_t(m) - 0x400);
}

float
double_to_float_rtz(double x)
{
   float f = float(x);
   if (std::fabs(double(f)) > std::fabs(x))
      f = std::nextafter(f, 0.0f);
   return f;
}

/* round(clamp(x, lo, 1) * scale), NaN -> 0. */
static int
fixed_point(double x, double lo, double scale)
{
   if (std::isnan(x))
      return 0;
   return int(round_units(std::fabs(std::clamp(x, lo, 1.0) * scale), false)) *
          (x < 0 ? -1 : 1);
}

uint16_t
pack_snorm_16(double x)
{
   return uint16_t(int16_t(fixed_point(x, -1.0, 32767.0)));
}

uint16_t
pack_unorm_16(double x)
{
   return uint16_t(fixed_point(x, 0.0, 65535.0));
}

uint8_t
pack_snorm_8(double x)
{
   return uint8_t(int8_t(fixed_point(x, -1.0, 127.0)));
}

uint8_t
pack_unorm_8(double x)
{
   return uint8_t(fixed_point(x, 0.0, 255.0));
}

float
unpack_snorm_16(uint16_t u)
{
   return std::clamp(int16_t(u) / 32767.0f, -1.0f, 1.0f);
}

float
unpack_unorm_16(uint16_t u)
{
   return u / 65535.0f;
}

float
unpack_snorm_8(uint8_t u)
{
   return std::clamp(int8_t(u) / 127.0f, -1.0f, 1.0f);
}

float
unpack_unorm_8(uint8_t u)
{
   return u / 255.0f;
}

float
unpack_half_ftz_16(uint16_t u)
{
   if ((u & 0x7c00) == 0)
      u &= 0x8000;
   return half_to_float(u);
}

uint32_t
reverse_bits32(uint32_t x)
{
   uint32_t r = 0;
   for (int i = 0; i < 32; i++)
      r |= ((x >> i) & 1) << (31 - i);
   return r;
}

uint32_t
bitfield_extract_sm5(uint32_t base, uint32_t offset, uint32_t width,
                     bool is_signed)
{
   if (width == 0)
      return 0;
   if (offset + width < 32) {
      const uint32_t up = base << (32 - width - offset);
      return is_signed ? uint32_t(int32_t(up) >> (32 - width))
                       : up >> (32 - width);
   }
   return is_signed ? uint32_t(int32_t(base) >> offset) : base >> offset;
}

uint32_t
bitfield_extract_glsl(uint32_t base, int32_t offset, int32_t width,
                      bool is_signed)
{
   if (width == 0 || width < 0 || offset < 0 || int64_t(offset) + width > 32)
      return 0;
   uint32_t v = uint32_t((uint64_t(base) >> offset) & ((1ull << width) - 1));
   if (is_signed && width < 32 && (v >> (width - 1)) & 1)
      v |= ~uint32_t((1ull << width) - 1);
   return v;
}

uint32_t
bitfield_insert_glsl(uint32_t base, uint32_t insert, int32_t offset,
                     int32_t width)
{
   if (width == 0)
      return base;
   if (width < 0 || offset < 0 || int64_t(offset) + width > 32)
      return 0;
   const uint64_t mask = ((1ull << width) - 1) << offset;
   return uint32_t((base & ~mask) | ((uint64_t(insert) << offset) & mask));
}

void
cube_amd(const float *s, float *d)
{
   const float ax = std::fabs(s[0]), ay = std::fabs(s[1]), az = std::fabs(s[2]);
   d[0] = d[1] = d[2] = d[3] = 0.0f;
   /* Later faces win ties, as the hardware's priority does. */
   if (ax >= ay && ax >= az) {
      d[2] = 2 * s[0];
      d[0] = -s[1];
      d[1] = s[0] >= 0 ? -s[2] : s[2];
      d[3] = s[0] >= 0 ? 0 : 1;
   }
   if (ay >= ax && ay >= az) {
      d[2] = 2 * s[1];
      d[0] = s[1] >= 0 ? s[2] : -s[2];
      d[1] = s[0];
      d[3] = s[1] >= 0 ? 2 : 3;
   }
   if (az >= ax && az >= ay) {
      d[2] = 2 * s[2];
      d[0] = -s[1];
      d[1] = s[2] >= 0 ? s[0] : -s[0];
      d[3] = s[2] >= 0 ? 4 : 5;
   }
}

} /* namespace ibis::nir::eval */
