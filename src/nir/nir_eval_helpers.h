/*
 * Helpers for the generated constant evaluator (nir_constant_eval.cpp) and
 * anyone else who needs NIR's value conventions: typed loads and stores of
 * const_value, half floats, wrapping and saturating integer arithmetic, and
 * the bit manipulations the opcode expressions use.
 */
#pragma once

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "nir/nir.h"

namespace ibis::nir::eval {

/* Half floats.  to_half rounds a double to the nearest half (ties to even)
 * or toward zero; going through double keeps f64 -> f16 singly rounded.
 */
float half_to_float(uint16_t h);
uint16_t to_half(double x, bool rtz);

static inline uint16_t
float_to_half(float x, bool rtz)
{
   return to_half(x, rtz);
}

/* The value rounded to half precision and back. */
static inline float
round_f16(double x, bool rtz)
{
   return half_to_float(to_half(x, rtz));
}

/* IEEE 754-2019 minimumNumber/maximumNumber, as Gen's sel.l/sel.ge: a
 * number wins over any NaN, quiet or signaling (std::fmin/fmax leave a
 * signaling NaN to the host: glibc returned a NaN for random cs seed 336's
 * clamp of 0xff95715e), and -0.0 is below +0.0 whatever the operand order
 * (std::fmin/fmax leave that to the host too).  Mesa 23.3's NIR leaves the
 * sign of fmin(+0.0, -0.0) open; later NIR defines it so (nir_opcodes.py)
 * and brw still emits a bare sel.l/sel.ge for fmin/fmax, without the
 * lower_fminmax_signed_zero lowering that backends whose min/max do not
 * order zeros set: the hardware orders them.
 */
template <typename T>
static inline T
min_num(T a, T b)
{
   if (std::isnan(a))
      return b;
   if (std::isnan(b) || a < b)
      return a;
   if (b < a)
      return b;
   return std::signbit(a) ? a : b;
}

template <typename T>
static inline T
max_num(T a, T b)
{
   if (std::isnan(a))
      return b;
   if (std::isnan(b) || a > b)
      return a;
   if (b > a)
      return b;
   return std::signbit(a) ? b : a;
}

/* Mesa's FLOAT_CONTROLS_* bits. */
static inline bool
rtz_mode(uint32_t fc, unsigned bits)
{
   return (bits == 16 && (fc & (1u << 18))) || (bits == 32 && (fc & (1u << 19))) ||
          (bits == 64 && (fc & (1u << 20)));
}

static inline bool
flush_mode(uint32_t fc, unsigned bits)
{
   return (bits == 16 && (fc & (1u << 3))) || (bits == 32 && (fc & (1u << 4))) ||
          (bits == 64 && (fc & (1u << 5)));
}

/* Runs f with the FPU rounding toward zero. */
template <typename Fn>
static inline auto
rtz_eval(Fn f)
{
   const int old = std::fegetround();
   std::fesetround(FE_TOWARDZERO);
   volatile auto r = f();
   std::fesetround(old);
   return r;
}

float double_to_float_rtz(double x);

/* x rounded to float toward zero, with the lowest mantissa bit set when
 * that was inexact ("round to odd"): rounding the result again to half,
 * in any mode, rounds x once.  A 16-bit ffma goes this way.
 */
inline float
round_to_odd(double x)
{
   float f = double_to_float_rtz(x);
   if (double(f) == x || !std::isfinite(x))
      return f;
   uint32_t u;
   std::memcpy(&u, &f, 4);
   u |= 1;
   std::memcpy(&f, &u, 4);
   return f;
}

/* C++ type of a value of kind K ('f', 'i', 'u', 'b') and bit size B.
 * Floats of 16 bits are held as float, 1-bit integers as 8-bit ones.
 */
template <char K, unsigned B> struct val_type;
template <unsigned B> struct val_type<'f', B> { using type = float; };
template <> struct val_type<'f', 64> { using type = double; };
template <unsigned B> struct val_type<'b', B> { using type = bool; };
template <unsigned B> struct val_type<'i', B> {
   using type = std::conditional_t<B <= 8, int8_t,
                std::conditional_t<B == 16, int16_t,
                std::conditional_t<B == 32, int32_t, int64_t>>>;
};
template <unsigned B> struct val_type<'u', B> {
   using type = std::make_unsigned_t<typename val_type<'i', B>::type>;
};
template <char K, unsigned B> using val_t = typename val_type<K, B>::type;

/* Reads a component: 1-bit integers are 0/-1 signed and 0/1 unsigned;
 * booleans of any size are true when non-zero.
 */
template <char K, unsigned B>
static inline val_t<K, B>
ld(const const_value &v, uint32_t fc = 0)
{
   if constexpr (K == 'f') {
      /* Flushing denormals flushes them on input too, as Gen does. */
      const bool ftz = flush_mode(fc, B);
      if constexpr (B == 16) {
         const uint16_t u = ftz && !(v.u16 & 0x7c00) ? v.u16 & 0x8000 : v.u16;
         return half_to_float(u);
      } else if constexpr (B == 32) {
         return ftz && std::fpclassify(v.f32) == FP_SUBNORMAL ? std::copysign(0.0f, v.f32)
                                                              : v.f32;
      } else {
         return ftz && std::fpclassify(v.f64) == FP_SUBNORMAL ? std::copysign(0.0, v.f64)
                                                              : v.f64;
      }
   } else if constexpr (K == 'b') {
      return B == 1 ? v.b : const_value_bits(v, B) != 0;
   } else if constexpr (B == 1) {
      return K == 'i' ? -int8_t(v.b) : uint8_t(v.b);
   } else {
      return val_t<K, B>(const_value_bits(v, B));
   }
}

/* Writes a component: booleans become 0/~0 (1-bit ones go in .b), 16-bit
 * floats are rounded per the float controls, and float results are
 * flushed to zero when the controls ask for it.
 */
template <char K, unsigned B>
static inline void
st(const_value *out, val_t<K, B> x, uint32_t fc, bool may_flush)
{
   if constexpr (K == 'b') {
      *out = B == 1 ? const_value{} : const_value_from_bits(x ? ~0ull : 0, B);
      if (B == 1)
         out->b = x;
   } else if constexpr (K == 'f') {
      uint64_t bits;
      if constexpr (B == 16) {
         bits = to_half(x, rtz_mode(fc, 16));
      } else if constexpr (B == 32) {
         uint32_t u;
         std::memcpy(&u, &x, 4);
         bits = u;
      } else {
         std::memcpy(&bits, &x, 8);
      }
      if (may_flush && flush_mode(fc, B)) {
         const uint64_t exp_mask = B == 16 ? 0x7c00 : B == 32 ? 0x7f800000 :
                                   0x7ff0000000000000ull;
         const uint64_t sign = 1ull << (B - 1);
         if ((bits & exp_mask) == 0)
            bits &= sign;
      }
      *out = const_value_from_bits(bits, B);
   } else if constexpr (B == 1) {
      *out = const_value{};
      out->b = (x & 1) != 0;
   } else {
      *out = const_value_from_bits(uint64_t(x), B);
   }
}

/* Wrapping integer arithmetic: computed modulo 2^64, truncated on store. */
template <typename A, typename B>
static inline uint64_t
wadd(A a, B b)
{
   return uint64_t(a) + uint64_t(b);
}

template <typename A, typename B>
static inline uint64_t
wsub(A a, B b)
{
   return uint64_t(a) - uint64_t(b);
}

template <typename A, typename B>
static inline uint64_t
wmul(A a, B b)
{
   return uint64_t(a) * uint64_t(b);
}

template <typename A>
static inline uint64_t
wneg(A a)
{
   return 0 - uint64_t(a);
}

static inline __int128
int_min(unsigned bits)
{
   return -(__int128(1) << (bits - 1));
}

static inline __int128
int_max(unsigned bits)
{
   return (__int128(1) << (bits - 1)) - 1;
}

static inline __int128
uint_max(unsigned bits)
{
   return (__int128(1) << bits) - 1;
}

static inline int64_t
clamp_signed(__int128 v, unsigned bits)
{
   return int64_t(std::clamp(v, int_min(bits), int_max(bits)));
}

template <typename T>
static inline int64_t
sat_add_signed(T a, T b, unsigned bits)
{
   return clamp_signed(__int128(a) + b, bits);
}

template <typename T>
static inline int64_t
sat_sub_signed(T a, T b, unsigned bits)
{
   return clamp_signed(__int128(a) - b, bits);
}

template <typename T>
static inline uint64_t
sat_add_unsigned(T a, T b, unsigned bits)
{
   return uint64_t(std::min(__int128(a) + b, uint_max(bits)));
}

template <typename T>
static inline uint64_t
mul_high_signed(T a, T b, unsigned bits)
{
   return uint64_t((__int128(a) * __int128(b)) >> bits);
}

template <typename T>
static inline uint64_t
mul_high_unsigned(T a, T b, unsigned bits)
{
   using u128 = unsigned __int128;
   return uint64_t((u128(a) * u128(b)) >> bits);
}

/* Float to integer: truncate, saturate at the type's range, NaN -> 0. */
template <typename T, typename Fl>
static inline T
f2int_sat(Fl x)
{
   if (std::isnan(x))
      return 0;
   const long double lo = std::numeric_limits<T>::min();
   const long double hi = std::numeric_limits<T>::max();
   const long double v = std::trunc((long double)x);
   if (v <= lo)
      return std::numeric_limits<T>::min();
   if (v >= hi)
      return std::numeric_limits<T>::max();
   return T(v);
}

template <typename Fl>
static inline Fl
roundeven(Fl x)
{
   return std::nearbyint(x);
}

template <typename Fl>
static inline int32_t
frexp_exp(Fl x)
{
   int e = 0;
   std::frexp(x, &e);
   return e;
}

template <typename Fl>
static inline Fl
frexp_sig(Fl x)
{
   int e;
   return std::frexp(x, &e);
}

/* ldexp whose denormal results become a zero of the source's sign. */
template <typename Fl>
static inline Fl
ldexp_flush(Fl x, int32_t e, unsigned bits)
{
   const Fl r = std::ldexp(x, e);
   const Fl min_normal = bits == 16 ? Fl(0x1p-14) : bits == 32 ? Fl(0x1p-126) :
                         Fl(0x1p-1022);
   if (r != 0 && std::fabs(r) < min_normal)
      return std::copysign(Fl(0), x);
   return r;
}

/* The bit pattern of a float value of the given size. */
template <typename Fl>
static inline uint64_t
fbits(Fl x, unsigned bits)
{
   if (bits == 16)
      return to_half(x, false);
   if (bits == 32) {
      const float f = float(x);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return u;
   }
   const double d = x;
   uint64_t u;
   std::memcpy(&u, &d, 8);
   return u;
}

/* Fixed-point packing (GLSL packSnorm/packUnorm); NaN packs as 0. */
uint16_t pack_snorm_16(double x);
uint16_t pack_unorm_16(double x);
uint8_t pack_snorm_8(double x);
uint8_t pack_unorm_8(double x);
float unpack_snorm_16(uint16_t u);
float unpack_unorm_16(uint16_t u);
float unpack_snorm_8(uint8_t u);
float unpack_unorm_8(uint8_t u);

static inline uint16_t
pack_half_16(double x)
{
   return to_half(x, false);
}

static inline float
unpack_half_16(uint16_t u)
{
   return half_to_float(u);
}

/* Half to float with half denormals flushed to zero. */
float unpack_half_ftz_16(uint16_t u);

uint32_t reverse_bits32(uint32_t x);

static inline unsigned
popcount(uint64_t x)
{
   return unsigned(__builtin_popcountll(x));
}

/* Index of the highest / lowest set bit, -1 for zero. */
static inline int32_t
msb_index(uint64_t x)
{
   return x ? 63 - __builtin_clzll(x) : -1;
}

static inline int32_t
lsb_index(uint64_t x)
{
   return x ? __builtin_ctzll(x) : -1;
}

/* Rotates the low `bits` bits of x left by n modulo bits. */
static inline uint64_t
rotate_left(uint64_t x, uint64_t n, unsigned bits)
{
   const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
   x &= mask;
   n &= bits - 1;
   if (n == 0)
      return x;
   return ((x << n) | (x >> (bits - n))) & mask;
}

/* SM5 ubfe/ibfe with offset and width already reduced modulo 32. */
uint32_t bitfield_extract_sm5(uint32_t base, uint32_t offset, uint32_t width,
                              bool is_signed);
/* GLSL bitfieldExtract / bitfieldInsert; out-of-range fields give 0. */
uint32_t bitfield_extract_glsl(uint32_t base, int32_t offset, int32_t width,
                               bool is_signed);
uint32_t bitfield_insert_glsl(uint32_t base, uint32_t insert, int32_t offset,
                              int32_t width);

/* Sign-extends the low 24 bits. */
static inline int32_t
sext24(int64_t x)
{
   return int32_t(uint32_t(x) << 8) >> 8;
}

/* Applies f to each byte pair, keeping the low 8 bits of each result. */
template <typename Fn>
static inline uint32_t
bytewise(uint32_t a, uint32_t b, Fn f)
{
   uint32_t r = 0;
   for (int k = 0; k < 32; k += 8)
      r |= uint32_t(f(int((a >> k) & 0xff), int((b >> k) & 0xff)) & 0xff) << k;
   return r;
}

/* AMD's cube face coordinates: (t, s, 2 * major axis, face). */
void cube_amd(const float *s, float *d);

} /* namespace ibis::nir::eval */
