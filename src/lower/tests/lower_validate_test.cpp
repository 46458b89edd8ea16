/*
 * The lowered validator (ir/ibis_validate_lowered.cpp): every rule has an
 * example that breaks it, with the exact message, and a shader keeping
 * them all is accepted.
 */
#include <gtest/gtest.h>

#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "ir/testing/ibis_check.h"

using namespace ibis;
using ibis::testing::dedent;
using strings = std::vector<std::string>;

namespace {

strings
errors_of(const char *text)
{
   auto s = parse_shader(dedent(text), "t.ibis");
   return validate_errors(*s);
}

} /* anonymous namespace */

/* A logical send left in lowered IR. */
TEST(lower_validate, logical_op_survives)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"), (strings{
                 "block0: 'fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}': logical opcode fb_write_logical in lowered IR [lowered-op]"}));
}

/* Derivatives become adds. */
TEST(lower_validate, derivative_survives)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = ddx_coarse %0
   )"), (strings{
                 "block0: '%1:f32x8 = ddx_coarse %0': ddx_coarse does not survive lowering [lowered-op]"}));
}

/* terminate becomes a halt. */
TEST(lower_validate, terminate_survives)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) terminate
   )"), (strings{
                 "block0: '(+%1) terminate': terminate does not survive lowering [lowered-op]"}));
}

/* payload0 is 2 GRFs, the descriptor says mlen 1. */
TEST(lower_validate, send_mlen_mismatch)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %1:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %2:f32x8[4] = send 2:u32, 0x2420001:u32, 0:u32, %1, _
   )"), (strings{
                 "block0: '%2:f32x8[4] = send 2:u32, 0x2420001:u32, 0:u32, %1, _': payload0 is 2 GRFs, mlen says 1 [send]"}));
}

/* A 4-GRF destination with rlen 3. */
TEST(lower_validate, send_rlen_mismatch)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %1:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %2:f32x8[4] = send 2:u32, 0x4320001:u32, 0:u32, %1, _
   )"), (strings{
                 "block0: '%2:f32x8[4] = send 2:u32, 0x4320001:u32, 0:u32, %1, _': the destination is 4 GRFs, rlen says 3 [send]"}));
}

/* payload1 of 2 GRFs, ex_mlen 1 in the extended descriptor. */
TEST(lower_validate, send_ex_mlen_mismatch)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      attr %1:f32x8
      block0:
         %2:u32x8 = load_payload %1:u32
         %3:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %4:f32x8 = send 2:u32, 0x2123001:u32, 64:u32, %2, %3
   )"), (strings{
                 "block0: '%4:f32x8 = send 2:u32, 0x2123001:u32, 64:u32, %2, %3': payload1 is 2 GRFs, ex_mlen says 1 [send]"}));
}

/* ex_mlen set, no payload1. */
TEST(lower_validate, send_ex_mlen_without_payload1)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %1:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %2:f32x8[4] = send 2:u32, 0x4420001:u32, 64:u32, %1, _
   )"), (strings{
                 "block0: '%2:f32x8[4] = send 2:u32, 0x4420001:u32, 64:u32, %1, _': ex_mlen 1 without payload1 [send]"}));
}

/* A SIMD8 16-bit payload is half a GRF. */
TEST(lower_validate, send_payload_not_whole_grfs)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u16x8
      block0:
         %1:u16x8 = mov %0
         _ = send 10:u32, 0x2000000:u32, 0:u32, %1, _
   )"), (strings{
                 "block0: '_ = send 10:u32, 0x2000000:u32, 0:u32, %1, _': payload0 is not whole GRFs (16 bytes from 0) [send]"}));
}

/* Sends are split into SIMD16 halves. */
TEST(lower_validate, send_simd32)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd32 lowered
      attr %0:f32x32[4]
      block0:
         %1:u32x32[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         _ = send 5:u32, 0x20031000:u32, 0:u32, %1, _ {EOT}
   )"), (strings{
                 "block0: '_ = send 5:u32, 0x20031000:u32, 0:u32, %1, _ {EOT}': messages are SIMD1, SIMD8 or SIMD16, not SIMD32 [send]",
                 "block0: '_ = send 5:u32, 0x20031000:u32, 0:u32, %1, _ {EOT}': payload0 is 16 GRFs, mlen says 0 [send]"}));
}

/* An indirect descriptor is a width-1 u32 value. */
TEST(lower_validate, send_indirect_descriptor_type)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %1:u32x8 = load_payload %0
         %2:u32x8 = send 2:u32, %0, 0:u32, %1, _
   )"), (strings{
                 "block0: '%2:u32x8 = send 2:u32, %0, 0:u32, %1, _': the descriptor must be an immediate or a width-1 32-bit value [send]"}));
}

/* Allocated IR: an EOT payload outside g112-g127. */
TEST(lower_validate, eot_payload_below_g112)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered allocated
      attr %0:f32x8@g2
      block0:
         %1:u32x8@g10 = load_payload %0:u32
         _ = send 5:u32, 0x2031400:u32, 0:u32, %1, _ {EOT}
   )"), (strings{
                 "block0: '_ = send 5:u32, 0x2031400:u32, 0:u32, %1, _ {EOT}': an EOT payload must be in g112-g127 [send]"}));
}

/* mad takes no immediate. */
TEST(lower_validate, imm_in_three_source)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = mad %0, %0, 2.0:f32
   )"), (strings{
                 "block0: '%1:f32x8 = mad %0, %0, 2.0:f32': three-source instructions take no immediates [hw-imm]"}));
}

/* Only src1 of a two-source instruction may be an immediate. */
TEST(lower_validate, imm_in_src0)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %1:u32x8 = shl 1:u32, %0
   )"), (strings{
                 "block0: '%1:u32x8 = shl 1:u32, %0': only the last source may be an immediate (source 0 is one) [hw-imm]"}));
}

/* 64-bit immediates exist for mov only. */
TEST(lower_validate, imm_64bit_outside_mov)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f64x8
      block0:
         %1:f64x8 = add %0, 1.0:f64
   )"), (strings{
                 "block0: '%1:f64x8 = add %0, 1.0:f64': 64-bit immediates exist only for mov [hw-imm]"}));
}

/* A :v immediate repeats every eight channels: a SIMD16 piece may read it
 * (brw's add(16)/add(32) of 0x11001010:v for the pixel centers).
 */
TEST(lower_validate, vector_imm_in_a_simd16_piece)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16 lowered
      attr %0:u16x16
      block0:
         %1:u16x16 = add %0, 0x76543210:v
   )"), strings{});
}

/* Math reads no immediate in src0. */
TEST(lower_validate, math_imm_src0)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      block0:
         %1:f32x8 = math_inv 2.0:f32
   )"), (strings{
                 "block0: '%1:f32x8 = math_inv 2.0:f32': math takes no immediate source 0 [hw-imm]"}));
}

/* Align16 three-source instructions have no word types. */
TEST(lower_validate, three_source_types)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u16x8[3]
      block0:
         %1:u16x8 = mad %0, %0[1], %0[2]
   )"), (strings{
                 "block0: '%1:u16x8 = mad %0, %0[1], %0[2]': source 0 type u16 is not F, HF, DF, D or UD [hw-3src]",
                 "block0: '%1:u16x8 = mad %0, %0[1], %0[2]': source 1 type u16 is not F, HF, DF, D or UD [hw-3src]",
                 "block0: '%1:u16x8 = mad %0, %0[1], %0[2]': source 2 type u16 is not F, HF, DF, D or UD [hw-3src]",
                 "block0: '%1:u16x8 = mad %0, %0[1], %0[2]': destination type u16 is not F, HF, DF, D or UD [hw-3src]"}));
}

/* Align16 sources are packed or scalar. */
TEST(lower_validate, three_source_regions)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      hw %0:f32x8[2]@g2
      block0:
         %1:f32x8 = mad %0<16,8,2>, %0, %0
   )"), (strings{
                 "block0: '%1:f32x8 = mad %0<16,8,2>, %0, %0': source 0 must be packed or scalar [hw-3src]"}));
}

/* SIMD16 f64 splits into SIMD8 pieces; a width-16 region that is not
 * contiguous does not fit one.
 */
TEST(lower_validate, region_width_above_piece)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16 lowered
      attr %0:f64x16
      block0:
         %1:f64x16 = add %0<32,16,1>, %0
   )"), (strings{
                 "block0: '%1:f64x16 = add %0<32,16,1>, %0': region width 16 exceeds the piece's 8 channels [hw-region]"}));
}

/* A contiguous region wider than the piece narrows to it in code
 * generation: the SIMD32 scan step reads 8 dwords 4 apart, split into
 * pieces of 4 (rejected before: most SIMD32 programs with scans).
 */
TEST(lower_validate, contiguous_region_wider_than_the_piece)
{
   EXPECT_EQ(errors_of(R"(
      shader cs simd32 lowered
      wlr %0:u32x32
      block0:
         %0 = mov 0:u32 {WE_all}
         %0.8<4> = or(8) %0.4<32,8,4>, %0.8<32,8,4> {WE_all}
         %1:u32x32 = mov %0
   )"), strings{});
}

/* Width 1 needs HorzStride 0. */
TEST(lower_validate, region_width1_hstride)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = add %0<1,1,1>, 1.0:f32
   )"), (strings{
                 "block0: '%1:f32x8 = add %0<1,1,1>, 1.0:f32': Width 1 needs HorzStride 0 in <1,1,1> [hw-region]"}));
}

/* <0;w,0> must have width 1. */
TEST(lower_validate, region_scalar_width)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = add %0<0,4,0>, 1.0:f32
   )"), (strings{
                 "block0: '%1:f32x8 = add %0<0,4,0>, 1.0:f32': <0,4,0> must have Width 1 [hw-region]"}));
}

/* With ExecSize == Width, VertStride = Width * HorzStride. */
TEST(lower_validate, region_exec_equals_width)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      hw %0:f32x8[2]@g2
      block0:
         %1:f32x8 = add %0<4,8,1>, 1.0:f32
   )"), (strings{
                 "block0: '%1:f32x8 = add %0<4,8,1>, 1.0:f32': with ExecSize == Width, VertStride must be Width * HorzStride in <4,8,1> [hw-region]"}));
}

/* A word destination of a dword operation needs stride 2. */
TEST(lower_validate, dst_stride_vs_exec_type)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u32x8
      block0:
         %1:u16x8 = add %0, 1:u32
   )"), (strings{
                 "block0: '%1:u16x8 = add %0, 1:u32': a 2-byte destination of a 4-byte execution type needs stride 2, not 1 [hw-dst]"}));
}

/* Float math of an integer. */
TEST(lower_validate, math_types)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:s32x8
      block0:
         %1:s32x8 = math_sqrt %0
   )"), (strings{
                 "block0: '%1:s32x8 = math_sqrt %0': math sqrt source 0 of type s32 [hw-math]"}));
}

/* Math does not mix F and HF. */
TEST(lower_validate, math_mixed_float)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f16x8 = math_sqrt %0
   )"), (strings{
                 "block0: '%1:f16x8 = math_sqrt %0': math does not mix F and HF [hw-math]"}));
}

/* No 64-bit integer mul on Gen9. */
TEST(lower_validate, mul_64bit_integers)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u64x8
      block0:
         %1:u64x8 = mul %0, %0
   )"), (strings{
                 "block0: '%1:u64x8 = mul %0, %0': no mul of 64-bit integers [hw-type]"}));
}

/* A DW multiplied by a narrower integer is src0. */
TEST(lower_validate, mul_dword_in_src1)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u16x8
      attr %1:u32x8
      block0:
         %2:u32x8 = mul %0, %1
   )"), (strings{
                 "block0: '%2:u32x8 = mul %0, %1': multiplying a DW by a narrower integer, the DW operand must be src0 [hw-type]"}));
}

/* Gen9 csel is F only. */
TEST(lower_validate, csel_integer)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:s32x8[3]
      block0:
         %1:s32x8 = csel.nz %0, %0[1], %0[2]
   )"), (strings{
                 "block0: '%1:s32x8 = csel.nz %0, %0[1], %0[2]': Gen9 csel is F only [hw-type]"}));
}

/* sel with both a predicate and a condition. */
TEST(lower_validate, sel_predicate_and_condition)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) %2:f32x8 = sel.l %0, 1.0:f32
   )"), (strings{
                 "block0: '(+%1) %2:f32x8 = sel.l %0, 1.0:f32': sel needs a predicate or a condition, not both [hw-type]"}));
}

/* An integer to HF conversion into a packed destination. */
TEST(lower_validate, integer_hf_conversion_packed)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8 lowered
      attr %0:u16x8
      block0:
         %1:f16x8 = mov %0
   )"), (strings{
                 "block0: '%1:f16x8 = mov %0': a conversion between integer and HF needs a dword-strided destination [hw-dst]"}));
}

/* A shader that keeps every rule. */
TEST(lower_validate, valid_lowered_shader)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16 lowered
      attr %0:f32x16[2]
      block0:
         %1:f32x16 = add %0.4<4,4,0>, -%0<4,4,0>
         %2:f32x16 = mad %0, %0[1], %1
         %3:u32x16[2] = load_payload %2:u32, %1:u32
         %4:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %3, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %4, _ {EOT}
   )"), strings());
}
