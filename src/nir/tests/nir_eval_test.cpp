/*
 * Constant evaluation of every ALU opcode against known values.
 *
 * A case reads "op bits | src0 | src1 ... => result [@fc]": bits is the
 * bit size of the opcode's unsized operands, each source and the result
 * list their components, and @fc gives float controls.  Values are typed
 * by the operand: floats as decimals, hex floats (0x1p-149), inf, nan, or
 * raw bits (#7f800001, the only form for 16-bit floats); integers in
 * decimal or hex; booleans as true/false.  An expected "nan" matches any
 * NaN and "~x" matches x to 1e-6.
 */
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "nir/nir.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis::nir;

namespace {

struct eval_case {
   std::string text;
   uint32_t fc = 0;
};

const char *const fixed_cases[] = {
   /* Moves and signs. */
   "mov 32 | 0xdeadbeef => 0xdeadbeef",
   "mov 8 | 0xff => 0xff",
   "mov 1 | 1 => 1",
   "ineg 32 | 5 => -5",
   "ineg 32 | -2147483648 => -2147483648",
   "ineg 64 | 1 => -1",
   "fneg 32 | 1.5 => -1.5",
   "fneg 32 | 0 => -0.0",
   "fneg 64 | inf => -inf",
   "fneg 16 | #3c00 => #bc00",
   "inot 32 | 0 => -1",
   "inot 8 | 0x0f => 0xf0",
   "fsign 32 | -3 => -1",
   "fsign 32 | 0 => 0",
   "fsign 32 | -0.0 => -0.0",
   "fsign 32 | nan => 0",
   "fsign 64 | inf => 1",
   "isign 32 | -7 => -1",
   "isign 32 | 0 => 0",
   "isign 16 | 9 => 1",
   "iabs 32 | -5 => 5",
   "iabs 32 | -2147483648 => -2147483648",
   "fabs 32 | -2.5 => 2.5",
   "fabs 32 | -inf => inf",
   "fabs 32 | #ffc00000 => #7fc00000",
   "fsat 32 | 1.5 => 1",
   "fsat 32 | -0.5 => 0",
   "fsat 32 | nan => 0",
   "fsat 32 | 0.25 => 0.25",
   "fsat 16 | #4000 => #3c00",
   "frcp 32 | 4 => 0.25",
   "frcp 32 | 0 => inf",
   "frcp 32 | -0.0 => -inf",
   "frsq 32 | 4 => 0.5",
   "frsq 32 | -1 => nan",
   "frsq 32 | 0 => inf",
   "fsqrt 32 | 9 => 3",
   "fsqrt 32 | -1 => nan",
   "fsqrt 64 | 2 => ~1.4142135623730951",
   "fexp2 32 | 3 => 8",
   "fexp2 32 | -inf => 0",
   "fexp2 32 | 128 => inf",
   "flog2 32 | 8 => 3",
   "flog2 32 | 0 => -inf",
   "flog2 32 | -1 => nan",

   /* Conversions: integer to float. */
   "i2f32 32 | -3 => -3",
   "i2f32 64 | 9007199254740993 => 9007199254740992",
   "i2f16 32 | 3 => #4200",
   "i2f64 8 | -128 => -128",
   "u2f32 32 | 0xffffffff => 4294967296",
   "u2f16 32 | 65535 => #7c00",
   "u2f64 64 | 0xffffffffffffffff => 18446744073709551616",
   /* Integer to integer: truncate or extend by signedness. */
   "i2i1 32 | 3 => 1",
   "i2i1 32 | 2 => 0",
   "i2i8 32 | 0x1ff => -1",
   "i2i8 1 | -1 => -1",
   "i2i16 8 | -2 => -2",
   "i2i32 16 | 0x8000 => -32768",
   "i2i64 32 | -1 => -1",
   "u2u1 32 | 2 => 0",
   "u2u8 32 | 0x1ff => 0xff",
   "u2u16 8 | 0xff => 0xff",
   "u2u32 16 | 0xffff => 0xffff",
   "u2u64 32 | 0xffffffff => 0xffffffff",
   /* Float to integer: truncate, saturate, NaN -> 0. */
   "f2i32 32 | -2.7 => -2",
   "f2i32 32 | nan => 0",
   "f2i32 32 | 3e9 => 2147483647",
   "f2i32 32 | -inf => -2147483648",
   "f2i1 32 | 0 => 0",
   "f2i8 32 | 300 => 127",
   "f2i16 32 | -40000 => -32768",
   "f2i64 64 | 1e19 => 9223372036854775807",
   "f2i64 32 | -2.5 => -2",
   "f2u32 32 | -5 => 0",
   "f2u32 32 | 4294967296 => 4294967295",
   "f2u32 32 | 3.9 => 3",
   "f2u8 32 | 256 => 255",
   "f2u16 16 | #3c00 => 1",
   "f2u64 64 | 1.5 => 1",
   "f2u1 32 | 1 => 1",
   /* Float to float: ties to even, toward zero, overflow. */
   "f2f16_rtne 32 | 0x1.002p+0 => #3c00",
   "f2f16_rtne 32 | 0x1.003p+0 => #3c01",
   "f2f16_rtz 32 | 0x1.003p+0 => #3c00",
   "f2f16_rtz 32 | 70000 => #7bff",
   "f2f16 32 | 70000 => #7c00",
   "f2f16 64 | 0.5 => #3800",
   "f2f16 32 | 0x1p-24 => #0001",
   "f2f16 32 | 0x1p-26 => #0000",
   "f2f32 64 | 1e300 => inf",
   "f2f32 64 | 0.1 => #3dcccccd",
   "f2f32 16 | #3555 => #3eaaa000",
   "f2f64 32 | 0.1 => #3fb99999a0000000",
   "f2fmp 32 | 2 => #4000",
   "i2imp 32 | 0x12345 => 0x2345",
   "f2imp 32 | -3.5 => -3",
   "f2ump 32 | 70000 => 65535",
   "i2fmp 32 | -2 => #c000",
   "u2fmp 32 | 2048 => #6800",
   /* Booleans. */
   "b2f32 32 | true => 1",
   "b2f32 1 | false => 0",
   "b2f16 32 | true => #3c00",
   "b2f64 8 | true => 1",
   "b2i32 32 | true => 1",
   "b2i1 32 | true => 1",
   "b2i8 1 | true => 1",
   "b2i16 16 | false => 0",
   "b2i64 32 | true => 1",
   "b2b1 32 | true => true",
   "b2b32 1 | true => true",
   "b2b8 16 | false => false",
   "b2b16 8 | true => true",

   /* Rounding and friends. */
   "ftrunc 32 | -2.7 => -2",
   "fceil 32 | 1.2 => 2",
   "fceil 32 | -0.5 => -0.0",
   "ffloor 32 | -1.5 => -2",
   "ffract 32 | 1.75 => 0.75",
   "ffract 32 | -0.25 => 0.75",
   "fround_even 32 | 2.5 => 2",
   "fround_even 32 | 3.5 => 4",
   "fround_even 64 | -2.5 => -2",
   "fquantize2f16 32 | 1 => 1",
   "fquantize2f16 32 | 0x1p-15 => 0",
   "fquantize2f16 32 | -0x1p-20 => -0.0",
   "fquantize2f16 32 | 0x1.004p+0 => 0x1.004p+0",
   "fquantize2f16 32 | 0x1.002p+0 => 1",
   "fquantize2f16 32 | 70000 => inf",
   "fsin 32 | 0 => 0",
   "fcos 32 | 0 => 1",
   "fsin 64 | 1.5707963267948966 => ~1",
   "frexp_exp 32 | 8 => 4",
   "frexp_sig 32 | 8 => 0.5",
   "frexp_sig 32 | -3 => -0.75",
   "fddx 32 | 5 => 0",
   "fddx 32 | inf => nan",
   "fddx_fine 32 | 5 => 0",
   "fddx_coarse 32 | nan => nan",
   "fddy 32 | -5 => 0",
   "fddy_fine 64 | 1 => 0",
   "fddy_coarse 16 | #3c00 => #0000",
   "fddx_must_abs_mali 32 | 5 => 0",
   "fddy_must_abs_mali 32 | 5 => 0",
   "fsin_amd 32 | 0.25 => ~1",
   "fcos_amd 32 | 0.5 => ~-1",
   "fsin_mdg 32 | 0.5 => ~1",
   "fcos_mdg 32 | 1 => ~-1",
   "fsin_agx 32 | 1 => ~1",
   "fsat_signed_mali 32 | -2 => -1",
   "fsat_signed_mali 32 | 0.5 => 0.5",
   "fclamp_pos_mali 32 | -2 => 0",
   "fclamp_pos_mali 32 | 3 => 3",
   "fisnormal 32 | 1 => true",
   "fisnormal 32 | #00000001 => false",
   "fisnormal 32 | inf => false",
   "fisfinite 32 | inf => false",
   "fisfinite 64 | 1 => true",
   "fisfinite32 32 | nan => false",
   "fisfinite32 32 | 2 => true",

   /* Bits. */
   "bitfield_reverse 32 | 1 => 0x80000000",
   "bitfield_reverse 32 | 0xf0 => 0x0f000000",
   "bit_count 32 | 0xff00ff00 => 16",
   "bit_count 64 | -1 => 64",
   "bit_count 8 | 0x81 => 2",
   "ufind_msb 32 | 0 => -1",
   "ufind_msb 32 | 0x80000000 => 31",
   "ufind_msb 64 | 0x100000000 => 32",
   "ufind_msb_rev 32 | 1 => 31",
   "ufind_msb_rev 32 | 0x80000000 => 0",
   "ufind_msb_rev 32 | 0 => -1",
   "uclz 32 | 1 => 31",
   "uclz 32 | 0 => 32",
   "uclz 32 | 0x80000000 => 0",
   "ifind_msb 32 | 1 => 0",
   "ifind_msb 32 | -1 => -1",
   "ifind_msb 32 | -2 => 0",
   "ifind_msb 32 | 0x40000000 => 30",
   "ifind_msb_rev 32 | 1 => 31",
   "ifind_msb_rev 32 | -2 => 31",
   "ifind_msb_rev 32 | -1 => -1",
   "find_lsb 32 | 8 => 3",
   "find_lsb 32 | 0 => -1",
   "find_lsb 64 | 0x100000000 => 32",

   /* Packing. */
   "pack_snorm_2x16 32 | 1 -1 => 0x80017fff",
   "pack_snorm_4x8 32 | 1 -1 0 0.5 => 0x4000817f",
   "pack_unorm_2x16 32 | 0.5 2 => 0xffff8000",
   "pack_unorm_4x8 32 | 0 1 0.5 nan => 0x0080ff00",
   "pack_half_2x16 32 | 1 -2 => 0xc0003c00",
   "unpack_snorm_2x16 32 | 0x80007fff => 1 -1",
   "unpack_snorm_4x8 32 | 0x0000817f => 1 -1 0 0",
   "unpack_unorm_2x16 32 | 0xffff0000 => 0 1",
   "unpack_unorm_4x8 32 | 0xff00 => 0 1 0 0",
   "unpack_half_2x16 32 | 0xc0003c00 => 1 -2",
   "pack_uint_2x16 32 | 70000 5 => 0x0005ffff",
   "pack_sint_2x16 32 | -40000 40000 => 0x7fff8000",
   "pack_uvec2_to_uint 32 | 0x12345678 9 => 0x00095678",
   "pack_uvec4_to_uint 32 | 1 2 3 4 => 0x04030201",
   "pack_32_4x8 8 | 1 2 3 4 => 0x04030201",
   "pack_32_2x16 16 | 0x1234 0x5678 => 0x56781234",
   "pack_64_2x32 32 | 1 2 => 0x200000001",
   "pack_64_4x16 16 | 1 2 3 4 => 0x0004000300020001",
   "unpack_64_2x32 64 | 0x200000001 => 1 2",
   "unpack_64_4x16 64 | 0x0004000300020001 => 1 2 3 4",
   "unpack_32_2x16 32 | 0x56781234 => 0x1234 0x5678",
   "unpack_32_4x8 32 | 0x04030201 => 1 2 3 4",
   "unpack_half_2x16_flush_to_zero 32 | 0x00013c00 => 1 0",
   "unpack_half_2x16_split_x 32 | 0xc0003c00 => 1",
   "unpack_half_2x16_split_y 32 | 0xc0003c00 => -2",
   "unpack_half_2x16_split_x_flush_to_zero 32 | 0x00000001 => 0",
   "unpack_half_2x16_split_y_flush_to_zero 32 | 0x80010000 => -0.0",
   "unpack_32_2x16_split_x 32 | 0x56781234 => 0x1234",
   "unpack_32_2x16_split_y 32 | 0x56781234 => 0x5678",
   "unpack_64_2x32_split_x 64 | 0x200000001 => 1",
   "unpack_64_2x32_split_y 64 | 0x200000001 => 2",
   "pack_half_2x16_split 32 | 1 | -2 => 0xc0003c00",
   "pack_half_2x16_rtz_split 32 | 0x1.003p+0 | 70000 => 0x7bff3c00",
   "pack_64_2x32_split 32 | 1 | 2 => 0x200000001",
   "pack_32_2x16_split 16 | 0x1234 | 0x5678 => 0x56781234",
   "pack_32_4x8_split 8 | 1 | 2 | 3 | 4 => 0x04030201",
   "pack_double_2x32_dxil 32 | 1 2 => 0x200000001",
   "unpack_double_2x32_dxil 64 | 0x200000001 => 1 2",
   "fsum2 32 | 1 2 => 3",
   "fsum3 32 | 1 2 3 => 6",
   "fsum4 32 | 1 2 3 inf => inf",

   /* Float arithmetic: NaN, infinities, denormals, rounding. */
   "fadd 32 | 1.5 | 2.25 => 3.75",
   "fadd 32 | inf | -inf => nan",
   "fadd 32 | 0x1p-149 | 0x1p-149 => 0x1p-148",
   "fadd 16 | #3c00 | #3c00 => #4000",
   "fadd 64 | 0.1 | 0.2 => 0.30000000000000004",
   "fadd 32 | 1 | 0x1.8p-24 => 0x1.000002p+0",
   "fsub 32 | 5 | 7.5 => -2.5",
   "fsub 32 | inf | inf => nan",
   "fmul 32 | 3 | -0.5 => -1.5",
   "fmul 32 | 0 | inf => nan",
   "fmul 32 | 0x1p-126 | 0.5 => 0x1p-127",
   "fmulz 32 | 0 | inf => 0",
   "fmulz 32 | 0 | nan => 0",
   "fmulz 32 | 2 | 3 => 6",
   "fdiv 32 | 1 | 0 => inf",
   "fdiv 32 | 0 | 0 => nan",
   "fdiv 32 | 7 | 2 => 3.5",
   "fmod 32 | 5.5 | 2 => 1.5",
   "fmod 32 | -1 | 3 => 2",
   "frem 32 | -1 | 3 => -1",
   "frem 32 | 5.5 | 2 => 1.5",
   "fmin 32 | 1 | nan => 1",
   "fmin 32 | 2 | -3 => -3",
   "fmax 32 | nan | 1 => 1",
   /* Signaling NaNs lose too, as on Gen (sel.ge), whatever the host's
    * libm does with them (random cs seed 336).
    */
   "fmax 32 | #ff95715e | -2 => -2",
   "fmin 32 | 3 | #7f800001 => 3",
   "fmax 64 | #7ff0000000000001 | 1 => 1",
   "fsat 32 | #7f800001 => 0",
   "fmax 64 | 2 | -3 => 2",
   /* -0.0 is below +0.0 in either operand order (IEEE 754-2019, as later
    * NIR defines fmin/fmax and Gen's sel.l/sel.ge compute them), so
    * commuting the operands never changes the result.
    */
   "fmin 32 | #00000000 | #80000000 => #80000000",
   "fmin 32 | #80000000 | #00000000 => #80000000",
   "fmax 32 | #00000000 | #80000000 => #00000000",
   "fmax 32 | #80000000 | #00000000 => #00000000",
   "fmin 16 | #0000 | #8000 => #8000",
   "fmax 16 | #8000 | #0000 => #0000",
   "fmin 64 | #0000000000000000 | #8000000000000000 => #8000000000000000",
   "fmax 64 | #0000000000000000 | #8000000000000000 => #0000000000000000",
   "fsat 32 | #80000000 => #00000000",
   "fpow 32 | 2 | 10 => 1024",
   "fpow 32 | 0 | 0 => 1",
   "fpow 32 | -8 | 0.5 => nan",
   "ldexp 32 | 1.5 | 2 => 6",
   "ldexp 32 | 1 | -130 => 0",
   "ldexp 32 | -1 | -130 => -0.0",
   "ldexp 32 | 1 | 200 => inf",
   "ldexp 64 | 1 | -1030 => 0",
   "slt 32 | 1 | 2 => 1",
   "sge 32 | 1 | 2 => 0",
   "seq 32 | nan | nan => 0",
   "sne 32 | nan | nan => 1",
   "fdph 32 | 1 2 3 | 1 1 1 10 => 16",
   "fdph_replicated 32 | 1 2 3 | 1 1 1 10 => 16 16 16",
   "ffma 32 | 2 | 3 | 1 => 7",
   "ffma 32 | inf | 0 | 1 => nan",
   "ffma 32 | 0x1.001p+0 | 0x1.001p+0 | -1 => 0x1.0008p-11",
   /* Rounded once: 3 * 341.5 = 1024.5 is a half tie, and + 2^-14 (half a
    * float ulp there) puts it above: 1025.  Rounded to float first, the
    * float tie goes to even, 1024.5, and then the half tie to 1024.
    */
   "ffma 16 | #4200 | #5d56 | #0400 => #6401",
   "ffma 32 | #3f800001 | #3fc00000 | #a1800000 => #3fc00001",
   "ffmaz 32 | 0 | inf | 2 => 2",
   "ffmaz 32 | 2 | 3 | 1 => 7",
   "flrp 32 | 1 | 3 | 0.5 => 2",
   "flrp 32 | 2 | 4 | 0 => 2",
   "fcsel 32 | 1 | 2 | 3 => 2",
   "fcsel 32 | -0.0 | 2 | 3 => 3",
   "fcsel_gt 32 | -1 | 2 | 3 => 3",
   "fcsel_ge 32 | 0 | 2 | 3 => 2",
   "b32fcsel_mdg 32 | true | 1.5 | 2.5 => 0x3fc00000",
   "cube_amd 32 | 1 0.5 0.25 => -0.5 -0.25 2 0",

   /* Integer arithmetic: overflow wraps or saturates as the opcode says. */
   "iadd 32 | 0x7fffffff | 1 => -2147483648",
   "iadd 8 | 200 | 100 => 44",
   "iadd 64 | -1 | 1 => 0",
   "iadd_sat 32 | 0x7fffffff | 1 => 0x7fffffff",
   "iadd_sat 32 | -2147483648 | -1 => -2147483648",
   "iadd_sat 8 | 100 | 100 => 127",
   "iadd_sat 32 | 5 | -3 => 2",
   "uadd_sat 32 | 0xffffffff | 1 => 0xffffffff",
   "uadd_sat 8 | 200 | 100 => 255",
   "uadd_sat 32 | 1 | 2 => 3",
   "isub_sat 32 | -2147483648 | 1 => -2147483648",
   "isub_sat 32 | 0x7fffffff | -1 => 0x7fffffff",
   "isub_sat 32 | 5 | 3 => 2",
   "usub_sat 32 | 1 | 2 => 0",
   "usub_sat 32 | 5 | 3 => 2",
   "isub 32 | -2147483648 | 1 => 0x7fffffff",
   "uabs_isub 32 | -2147483648 | 0x7fffffff => 0xffffffff",
   "uabs_isub 32 | 3 | 5 => 2",
   "uabs_usub 32 | 3 | 5 => 2",
   "uabs_usub 32 | 0xffffffff | 0 => 0xffffffff",
   "imul 32 | 0x10000 | 0x10000 => 0",
   "imul 32 | -3 | 4 => -12",
   "imul 16 | 0xffff | 0xffff => 1",
   "imul_2x32_64 32 | -2 | 0x7fffffff => -4294967294",
   "umul_2x32_64 32 | 0xffffffff | 0xffffffff => 0xfffffffe00000001",
   "imul_high 32 | -2 | 0x40000000 => -1",
   "imul_high 64 | -1 | -1 => 0",
   "imul_high 64 | 0x4000000000000000 | 4 => 1",
   "umul_high 32 | 0xffffffff | 0xffffffff => 0xfffffffe",
   "umul_high 64 | -1 | 2 => 1",
   "umul_low 32 | 0x10003 | 0x20004 => 12",
   "imul_32x16 32 | 3 | 0xffff => -3",
   "umul_32x16 32 | 3 | 0x1ffff => 0x2fffd",
   "idiv 32 | 7 | -2 => -3",
   "idiv 32 | 1 | 0 => 0",
   "idiv 32 | -2147483648 | -1 => -2147483648",
   "udiv 32 | 7 | 2 => 3",
   "udiv 32 | 7 | 0 => 0",
   "uadd_carry 32 | 0xffffffff | 1 => 1",
   "uadd_carry 32 | 1 | 1 => 0",
   "usub_borrow 32 | 1 | 2 => 1",
   "usub_borrow 32 | 2 | 1 => 0",
   "ihadd 32 | 0x7fffffff | 0x7fffffff => 0x7fffffff",
   "ihadd 32 | -3 | 2 => -1",
   "uhadd 32 | 0xffffffff | 0xffffffff => 0xffffffff",
   "uhadd 32 | 1 | 2 => 1",
   "irhadd 32 | 1 | 2 => 2",
   "irhadd 32 | -3 | 2 => 0",
   "urhadd 32 | 0xffffffff | 0 => 0x80000000",
   "urhadd 32 | 1 | 2 => 2",
   "umod 32 | 7 | 3 => 1",
   "umod 32 | 7 | 0 => 0",
   "irem 32 | -7 | 3 => -1",
   "irem 32 | 7 | -3 => 1",
   "irem 32 | -2147483648 | -1 => 0",
   "irem 32 | 5 | 0 => 0",
   "imod 32 | -7 | 3 => 2",
   "imod 32 | 7 | -3 => -2",
   "imod 32 | -6 | 3 => 0",
   "imod 32 | -2147483648 | -1 => 0",
   "iadd3 32 | 1 | 2 | 3 => 6",
   "iadd3 32 | 0x7fffffff | 1 | 0 => -2147483648",
   "amul 32 | 3 | 4 => 12",
   "imin 32 | -1 | 1 => -1",
   "umin 32 | 0xffffffff | 1 => 1",
   "imax 32 | -1 | 1 => 1",
   "umax 32 | 0xffffffff | 1 => 0xffffffff",

   /* Shifts take the count modulo the bit size. */
   "ishl 32 | 1 | 31 => 0x80000000",
   "ishl 32 | 1 | 32 => 1",
   "ishl 32 | 3 | 33 => 6",
   "ishl 8 | 1 | 9 => 2",
   "ishl 64 | 1 | 63 => 0x8000000000000000",
   "ishl 64 | 1 | 64 => 1",
   "ishr 32 | -8 | 1 => -4",
   "ishr 32 | -8 | 33 => -4",
   "ishr 32 | 0x80000000 | 31 => -1",
   "ishr 16 | -2 | 16 => -2",
   "ushr 32 | 0x80000000 | 31 => 1",
   "ushr 32 | 0x80000000 | 32 => 0x80000000",
   "ushr 8 | 0x80 | 7 => 1",
   "urol 32 | 0x80000001 | 1 => 3",
   "urol 32 | 0x80000001 | 33 => 3",
   "urol 8 | 0x81 | 1 => 3",
   "uror 32 | 3 | 1 => 0x80000001",
   "uror 32 | 3 | 0 => 3",
   "iand 32 | 0xff00 | 0x0ff0 => 0x0f00",
   "ior 32 | 0xff00 | 0x0ff0 => 0xfff0",
   "ixor 32 | 0xff00 | 0x0ff0 => 0xf0f0",
   "iand 1 | 1 | 1 => 1",
   "bfm 32 | 4 | 8 => 0xf00",
   "bfm 32 | 0 | 5 => 0",
   "bfm 32 | 32 | 0 => 0",
   "bfm 32 | 31 | 1 => 0xfffffffe",
   "extract_u8 32 | 0x12345678 | 1 => 0x56",
   "extract_i8 32 | 0x12345680 | 0 => -128",
   "extract_u16 32 | 0x12345678 | 1 => 0x1234",
   "extract_i16 32 | 0x8000 | 0 => -32768",
   "insert_u8 32 | 0x1ff | 2 => 0xff0000",
   "insert_u16 32 | 0x12345 | 1 => 0x23450000",

   /* Selects and bitfields. */
   "bcsel 32 | true | 1 | 2 => 1",
   "bcsel 64 | false | 1 | 0x100000000 => 0x100000000",
   "b8csel 32 | false | 1 | 2 => 2",
   "b16csel 16 | true | 1 | 2 => 1",
   "b32csel 32 | true | 7 | 8 => 7",
   "i32csel_gt 32 | 1 | 5 | 6 => 5",
   "i32csel_gt 32 | 0 | 5 | 6 => 6",
   "i32csel_ge 32 | 0 | 5 | 6 => 5",
   "i32csel_ge 32 | -1 | 5 | 6 => 6",
   "bfi 32 | 0xff0 | 0xab | 0x12345678 => 0x12345ab8",
   "bfi 32 | 0 | 5 | 7 => 7",
   "bitfield_select 32 | 0xff00ff00 | 0x12345678 | 0x9abcdef0 => 0x12bc56f0",
   "ubfe 32 | 0xabcd1234 | 4 | 8 => 0x23",
   "ubfe 32 | 0xabcd1234 | 36 | 8 => 0x23",
   "ubfe 32 | 0x80000000 | 31 | 1 => 1",
   "ubfe 32 | 5 | 0 | 0 => 0",
   "ubfe 32 | 0xf0000000 | 28 | 8 => 0xf",
   "ibfe 32 | 0x80 | 4 | 4 => -8",
   "ibfe 32 | 0xf0000000 | 28 | 8 => -1",
   "ubitfield_extract 32 | 0xabcd1234 | 4 | 8 => 0x23",
   "ubitfield_extract 32 | 1 | 31 | 2 => 0",
   "ubitfield_extract 32 | 1 | 0 | 32 => 1",
   "ubitfield_extract 32 | 7 | -1 | 2 => 0",
   "ibitfield_extract 32 | 0x80 | 4 | 4 => -8",
   "ibitfield_extract 32 | 0xffffffff | 0 | 32 => -1",
   "ibitfield_extract 32 | 5 | 30 | 3 => 0",
   "bitfield_insert 32 | 0xffffffff | 0 | 8 | 8 => 0xffff00ff",
   "bitfield_insert 32 | 1 | 2 | 0 | 0 => 1",
   "bitfield_insert 32 | 1 | 2 | 30 | 3 => 0",
   "sad_u8x4 32 | 0x01020304 | 0x04030201 | 10 => 18",

   /* Opcodes of other backends. */
   "imadsh_mix16 32 | 0x00030000 | 4 | 1 => 0xc0001",
   "imad24_ir3 32 | 0xffffff | 2 | 1 => -1",
   "extr_agx 32 | 0xf0000000 | 1 | 28 | 8 => 0x1f",
   "extr_agx 32 | 1 | 0 | 64 | 0 => 0",
   "imadshl_agx 32 | 2 | 3 | 1 | 2 => 10",
   "imsubshl_agx 32 | 2 | 3 | 1 | 2 => 2",
   "interleave_agx 16 | 0xffff | 0 => 0x55555555",
   "interleave_agx 16 | 0 | 0xffff => 0xaaaaaaaa",
   "imul24 32 | 0xffffff | 3 => -3",
   "umad24 32 | 0x1000002 | 3 | 1 => 7",
   "umul24 32 | 0x1000002 | 3 => 6",
   "imul24_relaxed 32 | -2 | 3 => -6",
   "umad24_relaxed 32 | 2 | 3 | 4 => 10",
   "umul24_relaxed 32 | 5 | 5 => 25",
   "usadd_4x8_vc4 32 | 0xff0180ff | 0x01018001 => 0xff02ffff",
   "ussub_4x8_vc4 32 | 0x10203040 | 0x20101010 => 0x00102030",
   "umin_4x8_vc4 32 | 0x10203040 | 0x20101010 => 0x10101010",
   "umax_4x8_vc4 32 | 0x10203040 | 0x20101010 => 0x20203040",
   "umul_unorm_4x8_vc4 32 | 0xff80ff00 | 0xffff8000 => 0xff808000",
   "sdot_4x8_iadd 32 | 0xff020304 | 0x01010101 | 10 => 18",
   "udot_4x8_uadd 32 | 0xff020304 | 0x01010101 | 10 => 274",
   "sudot_4x8_iadd 32 | 0xff020304 | 0xff010101 | 0 => -246",
   "sdot_4x8_iadd_sat 32 | 0x7f7f7f7f | 0x7f7f7f7f | 0x7fffffff => 0x7fffffff",
   "udot_4x8_uadd_sat 32 | 0xffffffff | 0xffffffff | 0xffffffff => 0xffffffff",
   "sudot_4x8_iadd_sat 32 | 0x80808080 | 0xffffffff | -2147483648 => -2147483648",
   "sdot_2x16_iadd 32 | 0xffff0002 | 0x00030004 | 1 => 6",
   "udot_2x16_uadd 32 | 0xffff0002 | 0x00030004 | 1 => 196614",
   "sdot_2x16_iadd_sat 32 | 0x7fff7fff | 0x7fff7fff | 0x7fffffff => 0x7fffffff",
   "udot_2x16_uadd_sat 32 | 0xffffffff | 0xffffffff | 0xffffffff => 0xffffffff",
};

/* Float controls (Mesa's FLOAT_CONTROLS_* bits). */
constexpr uint32_t FLUSH_FP32 = 1u << 4;
constexpr uint32_t FLUSH_FP16 = 1u << 3;
constexpr uint32_t RTZ_FP32 = 1u << 19;

std::string
seq(unsigned first, unsigned n)
{
   std::string s;
   for (unsigned i = 0; i < n; i++)
      s += (i ? " " : "") + std::to_string(first + i);
   return s;
}

std::vector<eval_case>
all_cases()
{
   std::vector<eval_case> cases;
   for (const char *c : fixed_cases)
      cases.push_back({c});

   /* Denormal flushing and round toward zero. */
   cases.push_back({"fadd 32 | 0x1p-149 | 0 => 0", FLUSH_FP32});
   cases.push_back({"fmul 32 | -0x1p-126 | 0.5 => -0.0", FLUSH_FP32});
   cases.push_back({"fadd 16 | #0001 | #0000 => #0000", FLUSH_FP16});
   cases.push_back({"fadd 32 | 1 | 0x1.8p-24 => 1", RTZ_FP32});
   cases.push_back({"fmul 32 | 0x1.fffffep+0 | 0x1.fffffep+0 => 0x1.fffffcp+1", RTZ_FP32});

   /* Comparisons, at each boolean size. */
   const char *const compares[] = {
      "flt 32 | 1 | 2 => true",        "flt 32 | nan | 2 => false",
      "fge 32 | nan | 1 => false",     "fge 64 | 2 | 2 => true",
      "feq 32 | -0.0 | 0 => true",     "feq 32 | nan | nan => false",
      "fneu 32 | nan | nan => true",   "fneu 16 | #3c00 | #3c00 => false",
      "ilt 32 | -1 | 0 => true",       "ilt 8 | 0x7f | 0x80 => false",
      "ige 32 | 0x80000000 | 0 => false",
      "ieq 32 | 5 | 5 => true",        "ine 32 | 5 | 5 => false",
      "ult 32 | 0xffffffff | 0 => false",
      "uge 32 | 0xffffffff | 0 => true",
      "bitnz 32 | 0x10 | 4 => true",   "bitnz 32 | 0x10 | 36 => true",
      "bitnz 8 | 0x10 | 3 => false",
      "bitz 32 | 0x10 | 3 => true",    "bitz 64 | 0x100000000 | 32 => false",
   };
   for (const char *c : compares) {
      const std::string s = c;
      const size_t sp = s.find(' ');
      for (const char *suffix : {"", "8", "16", "32"})
         cases.push_back({s.substr(0, sp) + suffix + s.substr(sp)});
   }

   /* Vector reductions and constructors of every width. */
   for (unsigned n : {2u, 3u, 4u, 5u, 8u, 16u}) {
      const std::string ns = std::to_string(n);
      const std::string a = seq(1, n), b = seq(2, n);
      const std::string a_nan = seq(1, n - 1) + " nan";
      for (const char *pre : {"b", "b8", "b16", "b32"}) {
         const std::string p = pre;
         cases.push_back({p + "all_fequal" + ns + " 32 | " + a + " | " + a + " => true"});
         cases.push_back({p + "all_fequal" + ns + " 32 | " + a_nan + " | " + a_nan +
                          " => false"});
         cases.push_back({p + "any_fnequal" + ns + " 32 | " + a + " | " + a + " => false"});
         cases.push_back({p + "any_fnequal" + ns + " 64 | " + a + " | " + b + " => true"});
         cases.push_back({p + "all_iequal" + ns + " 32 | " + a + " | " + a + " => true"});
         cases.push_back({p + "all_iequal" + ns + " 16 | " + a + " | " + b + " => false"});
         cases.push_back({p + "any_inequal" + ns + " 32 | " + a + " | " + a + " => false"});
         cases.push_back({p + "any_inequal" + ns + " 8 | " + a + " | " + b + " => true"});
      }
      cases.push_back({"fall_equal" + ns + " 32 | " + a + " | " + a + " => 1"});
      cases.push_back({"fall_equal" + ns + " 32 | " + a + " | " + b + " => 0"});
      cases.push_back({"fany_nequal" + ns + " 32 | " + a_nan + " | " + a_nan + " => 1"});
      cases.push_back({"fany_nequal" + ns + " 32 | " + a + " | " + a + " => 0"});

      /* 1 + 2 + ... + n */
      std::string all_one;
      for (unsigned i = 0; i < n; i++)
         all_one += i ? " 1" : "1";
      const std::string sum = std::to_string(n * (n + 1) / 2);
      cases.push_back({"fdot" + ns + " 32 | " + a + " | " + all_one + " => " + sum});
      cases.push_back({"fdot" + ns + "_replicated 32 | " + a + " | " + all_one + " => " +
                       sum + " " + sum});

      {
         std::string srcs;
         for (unsigned i = 0; i < n; i++)
            srcs += " | " + std::to_string(100 + i);
         cases.push_back({"vec" + ns + " 32" + srcs + " => " + seq(100, n)});
      }
   }
   cases.push_back({"fdot3 32 | inf 0 0 | 0 1 1 => nan"});
   return cases;
}

/* ------------------------------------------------------------------ */

struct operand {
   alu_type base;
   unsigned bits;
};

bool
parse_value(const operand &o, const std::string &tok, const_value *out, std::string *err)
{
   out->u64 = 0;
   if (o.base == type_bool) {
      if (tok != "true" && tok != "false") {
         *err = "expected true/false, got " + tok;
         return false;
      }
      const bool v = tok == "true";
      *out = const_value_from_bits(v ? ~0ull : 0, o.bits);
      if (o.bits == 1)
         out->b = v;
      return true;
   }
   if (!tok.empty() && tok[0] == '#') {
      *out = const_value_from_bits(std::strtoull(tok.c_str() + 1, nullptr, 16), o.bits);
      return true;
   }
   if (o.base == type_float) {
      if (o.bits == 16) {
         *err = "16-bit floats take raw #bits";
         return false;
      }
      if (o.bits == 32)
         out->f32 = std::strtof(tok.c_str(), nullptr);
      else
         out->f64 = std::strtod(tok.c_str(), nullptr);
      return true;
   }
   const uint64_t v = tok[0] == '-' ? uint64_t(std::strtoll(tok.c_str(), nullptr, 0))
                                    : std::strtoull(tok.c_str(), nullptr, 0);
   *out = const_value_from_bits(v, o.bits);
   return true;
}

double
as_double(const_value v, unsigned bits)
{
   return bits == 64 ? v.f64 : v.f32;
}

/* Runs one case; returns "" or what went wrong. */
std::string
run_case(const eval_case &c, std::string *op_name)
{
   std::istringstream in(c.text);
   std::string name, tok;
   unsigned bits = 0;
   in >> name >> bits;
   *op_name = name;
   alu_op op;
   if (!alu_op_from_name(name, &op))
      return "unknown opcode";
   const alu_op_info &info = op_info(op);

   std::vector<std::vector<std::string>> groups(1);
   bool result = false;
   while (in >> tok) {
      if (tok == "|") {
         groups.emplace_back();
      } else if (tok == "=>") {
         groups.emplace_back();
         result = true;
      } else {
         groups.back().push_back(tok);
      }
   }
   if (!result || groups.size() != size_t(info.num_inputs) + 2 || !groups[0].empty())
      return "malformed case";
   const std::vector<std::string> &expected = groups.back();

   const unsigned num_components =
      info.output_size ? info.output_size : unsigned(expected.size());
   if (expected.size() != num_components)
      return "wrong number of results";

   auto operand_of = [&](alu_type t) {
      return operand{base_type(t), type_size(t) ? type_size(t) : bits};
   };

   std::vector<std::vector<const_value>> srcs(info.num_inputs);
   std::vector<const const_value *> src_ptrs(info.num_inputs);
   for (unsigned i = 0; i < info.num_inputs; i++) {
      const operand o = operand_of(info.input_types[i]);
      const unsigned n = info.input_sizes[i] ? info.input_sizes[i] : num_components;
      /* A per-component source given once is used for every component. */
      const std::vector<std::string> &toks = groups[i + 1];
      if (toks.size() != n && !(toks.size() == 1 && !info.input_sizes[i]))
         return "source " + std::to_string(i) + " has the wrong size";
      for (unsigned k = 0; k < n; k++) {
         const_value v;
         std::string err;
         if (!parse_value(o, toks[toks.size() == 1 ? 0 : k], &v, &err))
            return err;
         srcs[i].push_back(v);
      }
      src_ptrs[i] = srcs[i].data();
   }

   std::vector<const_value> dst(num_components);
   eval_alu(op, dst.data(), num_components, bits, src_ptrs.data(), c.fc);

   const operand out = operand_of(info.output_type);
   for (unsigned k = 0; k < num_components; k++) {
      const std::string &e = expected[k];
      const uint64_t got = const_value_bits(dst[k], out.bits);
      if (out.base == type_float && e == "nan") {
         const bool is_nan = out.bits == 16 ? ((got & 0x7c00) == 0x7c00 && (got & 0x3ff))
                                            : std::isnan(as_double(dst[k], out.bits));
         if (!is_nan)
            return "component " + std::to_string(k) + " is not NaN";
         continue;
      }
      if (out.base == type_float && e[0] == '~') {
         const double want = std::strtod(e.c_str() + 1, nullptr);
         const double have = as_double(dst[k], out.bits);
         if (!(std::fabs(have - want) <= 1e-6 * std::max(1.0, std::fabs(want))))
            return "component " + std::to_string(k) + " is " + std::to_string(have);
         continue;
      }
      const_value want;
      std::string err;
      if (!parse_value(out, e, &want, &err))
         return err;
      const uint64_t want_bits = const_value_bits(want, out.bits);
      if (got != want_bits) {
         char buf[96];
         std::snprintf(buf, sizeof(buf), "component %u is 0x%" PRIx64 ", expected 0x%" PRIx64,
                       k, got, want_bits);
         return buf;
      }
   }
   return "";
}

} /* anonymous namespace */

TEST(nir_eval, known_values)
{
   unsigned n = 0;
   for (const eval_case &c : all_cases()) {
      std::string op;
      const std::string err = run_case(c, &op);
      EXPECT_EQ(err, "") << c.text;
      n++;
   }
   std::printf("%u evaluation cases\n", n);
}

TEST(nir_eval, every_opcode_has_a_case)
{
   std::set<std::string> covered;
   for (const eval_case &c : all_cases())
      covered.insert(c.text.substr(0, c.text.find(' ')));
   unsigned missing = 0;
   for (unsigned i = 0; i < num_alu_ops; i++) {
      const char *name = op_info(alu_op(i)).name;
      if (!covered.count(name)) {
         ADD_FAILURE() << "no evaluation case for " << name;
         missing++;
      }
   }
   std::printf("%u/%u opcodes have known-value cases\n", num_alu_ops - missing,
               num_alu_ops);
}

/* An opcode used at a bit size it does not have is an internal error. */
TEST(nir_eval, invalid_bit_size)
{
   const_value a[1], b[1], d[1];
   a[0].u64 = b[0].u64 = 0;
   const const_value *srcs[] = {a, b};
   EXPECT_THROW(eval_alu(alu_op::fadd, d, 1, 8, srcs), ibis::internal_error);
}
