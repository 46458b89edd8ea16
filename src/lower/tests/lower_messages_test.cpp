/*
 * One test per message kind: the logical instruction in, the lowered IR
 * out.  Each descriptor, mlen, ex_mlen and rlen is the one brw emits for
 * the same operation in the corpus (../shared/corpus/skl/brw-asm), cited
 * by file and line; the EOT bit 31 of a plain send's descriptor is not
 * part of the message descriptor ibis keeps.
 */
#include "lower_test.h"

#include "ir/ibis_text.h"
#include "util/ibis_error.h"

using ibis::testing::check_lower;

TEST(lower_messages, sample_simd16)
{
   /* anholt/12.fs.simd16.asm:5: send(16) 0x08840001 "sample SIMD16
    * Surface = 1 Sampler = 0 mlen 4 rlen 8"; :7 sendc(16) 0x90031000 "RT
    * write SIMD16 LastRT mlen 8".  The coordinates are one value, so the
    * payload is not split.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      hw %0:f32x8[4]@g2
      uniform %1:u32x1[16]@g6
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %4:f32x16[2] = load_payload %2, %3
         %5:f32x16[4] = tex_logical 0:u32, %4, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      hw %0:f32x8[4]@g2
      uniform %1:u32x1[16]@g6
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %4:f32x16[2] = load_payload %2, %3
         %5:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %4, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, sample_and_rt_write_simd8)
{
   /* anholt/12.fs.simd8.asm:5: send(8) 0x04420001 "sample SIMD8 mlen 2
    * rlen 4"; :7 sendc(8) 0x88031400 "RT write SIMD8 LastRT mlen 4".
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8[2] = load_payload %2, %3
         %5:f32x8[4] = tex_logical 0:u32, %4, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8[2] = load_payload %2, %3
         %5:f32x8[4] = send 2:u32, 0x4420001:u32, 0:u32, %4, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, simd32_sample_and_rt_write_halves)
{
   /* anholt/12.fs.simd32.do32.asm:7,9: two send(16) 0x08840001 (1H, 2H);
    * :11 sendc(16) 0x10031000 "RT write SIMD16 LastRT" and :13 0x90031800
    * "RT write SIMD16 Hi LastRT ... EOT" (slot group bit 11).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[2]
      block0:
         %5:f32x32[4] = tex_logical 0:u32, %0, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[2]
      block0:
         %6:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %7:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %6, _
         %8:u32x16+16[2] = load_payload %0.64:u32, %0[1].64:u32
         %9:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %8, _
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %7, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %9, _ {EOT}
   )"));
}

TEST(lower_messages, null_rt_write)
{
   /* anholt/9.fs.simd8.asm:3: sendc(8) 0x88031400 "RT write SIMD8 LastRT
    * mlen 4": a shader without color output writes undefined colors, one
    * unsplit payload.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      block0:
         fb_write_logical _, _, _, _, _, _, _, _, 0:u32, 0:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      block0:
         %0:u32x8[4] = load_payload _, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %0, _ {EOT}
   )"));
}

TEST(lower_messages, sample_c_split_payload)
{
   /* warsow/139.fs.simd8.asm:145: sends(8) 0x02123001 ex 0x80 "sample_c
    * SIMD8 mlen 1 ex_mlen 2 rlen 1": the reference is another value than
    * the coordinates, so the payload splits after it (brw's
    * opt_split_sends); only component 0 is read, so rlen is 1.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      attr %1:f32x8
      block0:
         %5:f32x8 = tex_logical 0:u32, %0, %1, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      attr %1:f32x8
      block0:
         %6:u32x8 = load_payload %1:u32
         %7:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8 = send 2:u32, 0x2123001:u32, 128:u32, %6, %7
         %8:u32x8[4] = load_payload %5:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %8, _ {EOT}
   )"));
}

TEST(lower_messages, sample_lz_for_txl_zero)
{
   /* warsow/25.fs.simd8.asm:7: send(8) 0x04438001 "sample_lz SIMD8
    * mlen 2 rlen 4": txl with lod 0 drops the lod parameter.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      block0:
         %5:f32x8[4] = tex_logical 2:u32, %0, _, 0.0:f32, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %6:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8[4] = send 2:u32, 0x4438001:u32, 0:u32, %6, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, sample_lz_for_txl_of_a_zero_copy)
{
   /* tesseract/136.vs.simd8.asm:14: send(8) 0x04138000 "sample_lz SIMD8
    * mlen 2 rlen 1": the lod 0 reaches the logical send as a copy of the
    * immediate (copy propagation leaves sends their values); a copy of
    * another constant stays a sample_l parameter.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      block0:
         %1:f32x8 = mov 0.0:f32
         %2:f32x8 = mov 1.0:f32
         %5:f32x8[4] = tex_logical 2:u32, %0, _, %1, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %6:f32x8[4] = tex_logical 2:u32, %0, _, %2, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %7:f32x8 = add %5, %6
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %1:f32x8 = mov 0.0:f32
         %2:f32x8 = mov 1.0:f32
         %8:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8 = send 2:u32, 0x4138001:u32, 0:u32, %8, _
         %9:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %6:f32x8 = send 2:u32, 0x2122001:u32, 128:u32, %2, %9
         %7:f32x8 = add %5, %6
         %10:u32x8[4] = load_payload %7:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST(lower_messages, trailing_zero_parameters_are_not_sent)
{
   /* nexuiz/37.fs.simd8.asm:23 (skl-mesa25): send(8) 0x02120203 "sample
    * SIMD8 Surface = 3 Sampler = 2 mlen 1 rlen 1" for a coordinate
    * (u, 0.0): the sampler reads a missing trailing parameter as zero
    * (brw's opt_zero_samples), so v is not sent (it was payload1, ex_mlen
    * 1, before).  Of (0.0, v, 0.0) only r goes (mlen 3 -> 2): a zero
    * before a non-zero parameter stays, and so does parameter 0 (a
    * resinfo's lod 0, mlen 1).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      block0:
         %1:f32x8 = mov 0.0:f32
         %2:f32x8[2] = load_payload %0, %1
         %3:f32x8 = tex_logical 0:u32, %2, _, _, _, _, _, _, 3:u32, 2:u32, 0:u32, 2:u32, 0:u32
         %4:f32x8[3] = load_payload %1, %0[1], 0.0:f32
         %5:f32x8 = tex_logical 0:u32, %4, _, _, _, _, _, _, 3:u32, 2:u32, 0:u32, 3:u32, 0:u32
         %6:f32x8 = tex_logical 8:u32, _, _, 0:s32, _, _, _, _, 3:u32, _, 0:u32, 0:u32, 0:u32
         %7:f32x8 = add %3, %5
         %8:f32x8 = add %7, %6
         fb_write_logical %8, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      block0:
         %1:f32x8 = mov 0.0:f32
         %2:f32x8[2] = load_payload %0, 0.0:f32
         %9:u32x8 = load_payload %2:u32
         %3:f32x8 = send 2:u32, 0x2120203:u32, 0:u32, %9, _
         %4:f32x8[3] = load_payload 0.0:f32, %0[1], 0.0:f32
         %10:u32x8[2] = load_payload %4:u32, %4[1]:u32
         %5:f32x8 = send 2:u32, 0x4120203:u32, 0:u32, %10, _
         %11:u32x8 = load_payload 0:u32
         %6:f32x8 = send 2:u32, 0x212a003:u32, 0:u32, %11, _
         %7:f32x8 = add %3, %5
         %8:f32x8 = add %7, %6
         %12:u32x8[4] = load_payload %8:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %12, _ {EOT}
   )"));
   /* SIMD32 (u, 0.0): each SIMD16 half sends u's half alone, mlen 2 (brw
    * 25.0.7 still sends the zero there, nexuiz/37.fs.simd32.asm:49).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = mov 0.0:f32
         %3:f32x32[2] = load_payload %1, %2
         %4:f32x32[4] = tex_logical 0:u32, %3, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = mov 0.0:f32
         %5:u32x16 = load_payload %1:u32
         %6:f32x16[4] = send 2:u32, 0x4840001:u32, 0:u32, %5, _
         %7:u32x16+16 = load_payload %1.64:u32
         %8:f32x16+16[4] = send 2:u32, 0x4840001:u32, 0:u32, %7, _
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %6, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %8, _ {EOT}
   )"));
}

TEST(lower_messages, gathered_payload_sends_a_whole_tail_apart)
{
   /* A colour whose last parameter is a whole value no other parameter
    * reads: it goes as the second payload, so only three are gathered.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %2:f32x8 = add %0, 0.5:f32
         %3:f32x8 = add %0, 1.0:f32
         %1:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %3:u32
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x8 = add %0, 0.5:f32
         %3:f32x8 = add %0, 1.0:f32
         %1:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %3:u32
         %4:u32x8[3] = load_payload %1, %1[1], %1[2]
         _ = send 5:u32, 0x6031400:u32, 64:u32, %4, %3 {EOT}
   )"));
}

TEST(lower_messages, split_payloads_never_share_a_value)
{
   /* humus-dynamicbranching/34.fs: a colour of one value in all four
    * channels.  Sending its alpha apart let allocation build the gathered
    * head over that value, and both payloads started at g112 ("split
    * send payloads must not overlap", Mesa's EU validator): it goes as
    * one payload, as brw's "mlen 4" (12 instructions, brw's count).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %2:f32x8 = add %0, 0.5:f32
         %1:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %2:u32
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x8 = add %0, 0.5:f32
         %1:u32x8[4] = load_payload %2:u32, %2:u32, %2:u32, %2:u32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %1, _ {EOT}
   )"));
}

TEST(lower_messages, simd32_sample_sends_a_lone_r_apart)
{
   /* humus-volumetricfogging2/1.fs.simd32.asm:203 "sends(16) ... 0x08240304
    * mlen 4 ex_mlen 2": a 3D sample's r, one value of the wide width,
    * goes alone as the second payload of each half; only u and v are
    * gathered (213 -> 209 instructions).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[3]
      block0:
         %1:f32x32 = add %0, 0.5:f32
         %2:f32x32 = add %0[1], 0.5:f32
         %3:f32x32 = add %0[2], 0.5:f32
         %4:f32x32[3] = load_payload %1, %2, %3
         %5:f32x32[4] = tex_logical 0:u32, %4, _, _, _, _, _, _, 4:u32, 3:u32, 0:u32, 3:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[3]
      block0:
         %1:f32x32 = add %0, 0.5:f32
         %2:f32x32 = add %0[1], 0.5:f32
         %3:f32x32 = add %0[2], 0.5:f32
         %6:u32x16[2] = load_payload %1:u32, %2:u32
         %7:u32x16 = load_payload %3:u32
         %8:f32x16[4] = send 2:u32, 0x8840304:u32, 128:u32, %6, %7
         %9:u32x16+16[2] = load_payload %1.64:u32, %2.64:u32
         %10:u32x16+16 = load_payload %3.64:u32
         %11:f32x16+16[4] = send 2:u32, 0x8840304:u32, 128:u32, %9, %10
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %8, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %11, _ {EOT}
   )"));
}

TEST(lower_messages, simd32_rt_write_sends_a_sampled_alpha_apart)
{
   /* warsow/145.fs.simd32.asm: "sendsc(16) ... mlen 6 ex_mlen 2": the
    * colour is computed, its alpha is a sample's, read in each half from
    * that half's result, not gathered (137 -> 135 instructions).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[2]
      block0:
         %5:f32x32[4] = tex_logical 0:u32, %0, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %1:f32x32 = mul %5, 0.5:f32
         %2:f32x32 = mul %5[1], 0.5:f32
         %3:f32x32 = mul %5[2], 0.5:f32
         %4:f32x32[4] = load_payload %1, %2, %3, %5[3]
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[2]
      block0:
         %6:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %7:f32x16[4] = send 2:u32, 0x8840001:u32, 0:u32, %6, _
         %8:u32x16+16[2] = load_payload %0.64:u32, %0[1].64:u32
         %9:f32x16+16[4] = send 2:u32, 0x8840001:u32, 0:u32, %8, _
         %5:f32x32[4] = load_payload %7, %9, %7[1], %9[1], %7[2], %9[2], %7[3], %9[3]
         %1:f32x32 = mul %5, 0.5:f32
         %2:f32x32 = mul %5[1], 0.5:f32
         %3:f32x32 = mul %5[2], 0.5:f32
         %10:u32x16[3] = load_payload %1:u32, %2:u32, %3:u32
         _ = send(16) 5:u32, 0xc031000:u32, 128:u32, %10, %7[3]
         %11:u32x16+16[3] = load_payload %1.64:u32, %2.64:u32, %3.64:u32
         _ = send(16+16) 5:u32, 0xc031800:u32, 128:u32, %11, %9[3] {EOT}
   )"));
}

TEST(lower_messages, sample_d_interleaves_gradients)
{
   /* nexuiz/94.fs.simd32.asm:91: sends(8) 0x02424001 ex 0x140 "sample_d
    * SIMD8 mlen 1 ex_mlen 5 rlen 4": u, dudx, dudy, v, dvdx, dvdy, split
    * after u; six parameters are SIMD8 only, so SIMD16 is two halves.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[2]
      attr %1:f32x16[2]
      attr %2:f32x16[2]
      block0:
         %5:f32x16[4] = tex_logical 3:u32, %0, _, %1, %2, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 2:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[2]
      attr %1:f32x16[2]
      attr %2:f32x16[2]
      block0:
         %6:u32x8 = load_payload %0:u32
         %7:u32x8[5] = load_payload %1:u32, %2:u32, %0[1]:u32, %1[1]:u32, %2[1]:u32
         %8:f32x8[4] = send 2:u32, 0x2424001:u32, 320:u32, %6, %7
         %9:u32x8+8 = load_payload %0.32:u32
         %10:u32x8+8[5] = load_payload %1.32:u32, %2.32:u32, %0[1].32:u32, %1[1].32:u32, %2[1].32:u32
         %11:f32x8+8[4] = send 2:u32, 0x2424001:u32, 320:u32, %9, %10
         %5:f32x16[4] = load_payload %8, %11, %8[1], %11[1], %8[2], %11[2], %8[3], %11[3]
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, ld_lz_for_txf_zero)
{
   /* dolphin/realxfb.fs.simd32.asm:43: send(16) 0x0885a001 "ld_lz SIMD16
    * mlen 4 rlen 8".
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:s32x16[2]
      block0:
         %5:f32x16[4] = tex_logical 4:u32, %0, _, 0:s32, _, _, _, _, 1:u32, _, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:s32x16[2]
      block0:
         %6:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x16[4] = send 2:u32, 0x885a001:u32, 0:u32, %6, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, resinfo_for_txs)
{
   /* dolphin/realxfb.fs.simd32.asm:12: send(16) 0x0444a001 "resinfo
    * SIMD16 mlen 2 rlen 4": the lod is the one parameter, two components
    * are read.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      block0:
         %5:s32x16[2] = tex_logical 8:u32, _, _, 0:s32, _, _, _, _, 1:u32, _, 0:u32, 0:u32, 0:u32
         %6:f32x16 = mov %5
         %7:f32x16 = mov %5[1]
         %8:f32x16[2] = load_payload %6, %7
         fb_write_logical %8, _, _, _, _, _, _, _, 0:u32, 2:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      block0:
         %9:u32x16 = load_payload 0:u32
         %5:s32x16[2] = send 2:u32, 0x444a001:u32, 0:u32, %9, _
         %6:f32x16 = mov %5
         %7:f32x16 = mov %5[1]
         %8:f32x16[2] = load_payload %6, %7
         %10:u32x16[4] = load_payload %8:u32, %8[1]:u32, _, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST(lower_messages, gather4_has_a_header)
{
   /* warsow/25.fs.simd16.asm:11: sends(16) 0x028c8001 ex 0x100 "gather4
    * SIMD16 mlen 1 ex_mlen 4 rlen 8": header (g0, dword 2 = component 1
    * << 16 | offsets) in payload0.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[2]
      block0:
         %5:f32x16[4] = tex_logical 266:u32, %0, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[2]
      wlr %6:u32x8
      hw %7:u32x8@g0
      block0:
         %6 = mov %7 {WE_all}
         %6.8 = mov(1) 0x10000:u32 {WE_all}
         %8:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x16[4] = send 2:u32, 0x28c8001:u32, 256:u32, %6, %8
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, sample_b_bias_first)
{
   /* humus-domino/4.fs.simd32.do32.asm:39: sends(16) 0x04241001 ex 0x180
    * "sample_b SIMD16 mlen 2 ex_mlen 6 rlen 2": bias, then u v r.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[3]
      attr %1:f32x16
      block0:
         %5:f32x16 = tex_logical 1:u32, %0, _, %1, _, _, _, _, 1:u32, 0:u32, 0:u32, 3:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[3]
      attr %1:f32x16
      block0:
         %6:u32x16 = load_payload %1:u32
         %7:u32x16[3] = load_payload %0:u32, %0[1]:u32, %0[2]:u32
         %5:f32x16 = send 2:u32, 0x4241001:u32, 384:u32, %6, %7
         %8:u32x16[4] = load_payload %5:u32, _, _, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %8, _ {EOT}
   )"));
}

TEST(lower_messages, varying_pull_constant_is_sampler_ld)
{
   /* dolphin/ubershaders/3.vs.simd8.asm:14: send(8) 0x02427000 "ld SIMD8
    * Surface = 0 mlen 1 rlen 4" (Gen9 brw's indirect_ubos_use_sampler).
    */
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:u32x8
      hw %9:u32x8@g1
      block0:
         %1:u32x8[4] = varying_pull_constant_logical 0:u32, %0, 16:u32
         urb_write_logical %9, 2:u32, _, %1, 4:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:u32x8
      hw %9:u32x8@g1
      block0:
         %10:u32x8 = load_payload %0
         %1:u32x8[4] = send 2:u32, 0x2427000:u32, 0:u32, %10, _
         %11:u32x8 = mov %9 {WE_all}
         _ = send 6:u32, 0x2080027:u32, 256:u32, %11, %1 {EOT, side_effects}
   )"));
}

TEST(lower_messages, uniform_block_read_variable_offset)
{
   /* dolphin/ubershaders/201.fs.simd8.asm:91: send(8) 0x0218420b "DC
    * unaligned OWORD block read, bti 11, 2 OWords, mlen 1 rlen 1".
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      uniform %0:u32x1
      block0:
         %1:u32x1[4] = uniform_block_read_logical 11:u32, %0, 16:u32 {WE_all}
         %2:f32x8 = mov %1[3]:f32
         fb_write_logical %2, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      uniform %0:u32x1
      wlr %3:u32x8
      block0:
         %3 = mov 0:u32 {WE_all}
         %3.8 = mov(1) %0 {WE_all}
         %1:u32x1[8] = send(8) 10:u32, 0x218420b:u32, 0:u32, %3, _ {WE_all}
         %2:f32x8 = mov %1[3]:f32
         %4:u32x8[4] = load_payload %2:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %4, _ {EOT}
   )"));
}

TEST(lower_messages, uniform_block_read_constant_offset)
{
   /* dolphin/nsmbw.2.vs.simd8.asm:25: send(16) 0x02280300 "const, bti 0,
    * msg_ctrl 3 (4 OWords), mlen 1 rlen 2": the 64-byte line holding the
    * constant offset, header dword 2 = line offset in OWords.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      block0:
         %1:u32x1[4] = uniform_block_read_logical 0:u32, 208:u32, 16:u32 {WE_all}
         %2:f32x8 = mov %1[1]:f32
         fb_write_logical %2, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      wlr %3:u32x8
      hw %4:u32x8@g0
      block0:
         %3 = mov %4 {WE_all}
         %3.8 = mov(1) 12:u32 {WE_all}
         %5:u32x1[16] = send(16) 9:u32, 0x2280300:u32, 0:u32, %3, _ {WE_all}
         %2:f32x8 = mov %5[5]:f32
         %6:u32x8[4] = load_payload %2:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %6, _ {EOT}
   )"));
}

TEST(lower_messages, urb_write)
{
   /* dolphin/nsmbw.2.vs.simd8.asm:56: sends(8) "urb offset 3 SIMD8 write
    * mlen 1 ex_mlen 4 EOT": the handles copied NoMask are the header.
    */
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:f32x8[4]
      hw %9:u32x8@g1
      block0:
         %1:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         urb_write_logical %9, 3:u32, _, %1, 4:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:f32x8[4]
      hw %9:u32x8@g1
      block0:
         %10:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %11:u32x8 = mov %9 {WE_all}
         _ = send 6:u32, 0x2080037:u32, 256:u32, %11, %10 {EOT, side_effects}
   )"));
}

/* tesseract/78.vs.simd8.asm: the first write reads the handles where they
 * are ("sends(8) null g1UD g14UD 0x02080017"); only the EOT write copies
 * them into g112-g127.
 */
TEST(lower_messages, urb_write_reads_the_handles_in_place)
{
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:f32x8[4]
      hw %9:u32x8@g1
      block0:
         %1:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         urb_write_logical %9, 1:u32, _, %1, 4:u32
         urb_write_logical %9, 3:u32, _, %1, 4:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:f32x8[4]
      hw %9:u32x8@g1
      block0:
         %1:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         _ = send 6:u32, 0x2080017:u32, 256:u32, %9, %1 {side_effects}
         %10:u32x8 = mov %9 {WE_all}
         _ = send 6:u32, 0x2080037:u32, 256:u32, %10, %1 {EOT, side_effects}
   )"));
}

TEST(lower_messages, urb_writes_skip_an_empty_header)
{
   /* anholt/12.vs.simd8.asm:12: sends(8) 0x02080017 ex 0x200 "urb offset 1
    * SIMD8 write mlen 1 ex_mlen 8 EOT": the all-zero VUE header (slot 0) is
    * not written, and slots 1 and 2 (position, varying) go in one message,
    * as brw's emit_urb_writes does.
    */
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:f32x8[4]@g2
      hw %9:u32x8@g1
      block0:
         %1:f32x8 = mul %0, 0.5:f32
         %10:u32x8 = mov 0:u32
         %14:u32x8[8] = load_payload %10, %10, %10, %10, %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         urb_write_logical %9, 0:u32, _, %14, 8:u32
         %17:u32x8[4] = load_payload %1:u32, %10, %10, %10
         urb_write_logical %9, 2:u32, _, %17, 4:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:f32x8[4]@g2
      hw %9:u32x8@g1
      block0:
         %1:f32x8 = mul %0, 0.5:f32
         %10:u32x8 = mov 0:u32
         %18:u32x8[8] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32, %1:u32, 0:u32, 0:u32, 0:u32
         %19:u32x8 = mov %9 {WE_all}
         _ = send 6:u32, 0x2080017:u32, 512:u32, %19, %18 {EOT, side_effects}
   )"));
}

TEST(lower_messages, rt_write_header_for_several_targets)
{
   /* tesseract/283.fs.simd32.asm:185: sendsc(16) 0x040b0000 ex 0x200 "RT
    * write SIMD16 Surface = 0 mlen 2 ex_mlen 8": with two render targets
    * Gen9 sends the 2-GRF header (g0, g1; dword 2 = target).
    * tesseract/503.fs.simd16.asm:5: "sendsc(16) nullUD g0UD g117UD
    * 0x040b0000": target 0's header sets nothing, so it is g0-g1 read in
    * place at SIMD16 as at SIMD8; target 1's is built.  (SIMD32 still
    * copies: three forced SIMD32 ubershaders that spill then fail
    * register allocation.)
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      attr %1:f32x16[4]
      block0:
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32
         fb_write_logical %1, _, _, _, _, _, _, _, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      attr %1:f32x16[4]
      hw %2:u32x8[2]@g0
      wlr %4:u32x8[2]
      hw %5:u32x8@g0
      hw %6:u32x8@g1
      block0:
         %3:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         _ = send 5:u32, 0x40b0000:u32, 512:u32, %2, %3
         %4 = load_payload %5, %6 {WE_all}
         %4.8 = mov(1) 1:u32 {WE_all}
         %7:u32x16[4] = load_payload %1:u32, %1[1]:u32, %1[2]:u32, %1[3]:u32
         _ = send 5:u32, 0x40b1001:u32, 512:u32, %4, %7 {EOT}
   )"));
}

TEST(lower_messages, simd32_rt_write_reads_g0_g1_in_place)
{
   /* tesseract/532.fs.simd32.asm: brw's first SIMD32 half to target 0
    * reads g0-g1 in place ("sendsc(16) nullUD g0UD"); the second half's
    * header is g0 and g2, and target 1 sets dword 2: those are built.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[4]
      attr %1:f32x32[4]
      block0:
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32
         fb_write_logical %1, _, _, _, _, _, _, _, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[4]
      attr %1:f32x32[4]
      hw %2:u32x8[2]@g0
      wlr %4:u32x8[2]
      hw %5:u32x8@g0
      hw %6:u32x8@g2
      wlr %8:u32x8[2]
      hw %9:u32x8@g1
      wlr %11:u32x8[2]
      block0:
         %3:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         _ = send(16) 5:u32, 0x40b0000:u32, 512:u32, %2, %3
         %4 = load_payload %5, %6 {WE_all}
         %7:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         _ = send(16+16) 5:u32, 0x40b0800:u32, 512:u32, %4, %7
         %8 = load_payload %5, %9 {WE_all}
         %8.8 = mov(1) 1:u32 {WE_all}
         %10:u32x16[4] = load_payload %1:u32, %1[1]:u32, %1[2]:u32, %1[3]:u32
         _ = send(16) 5:u32, 0x40b1001:u32, 512:u32, %8, %10
         %11 = load_payload %5, %6 {WE_all}
         %11.8 = mov(1) 1:u32 {WE_all}
         %12:u32x16+16[4] = load_payload %1.64:u32, %1[1].64:u32, %1[2].64:u32, %1[3].64:u32
         _ = send(16+16) 5:u32, 0x40b1801:u32, 512:u32, %11, %12 {EOT}
   )"));
}

TEST(lower_messages, spilling_simd32_copies_in_place_rt_headers)
{
   /* The compiler's spilling retry of a SIMD32 program puts the copy of
    * g0-g1 back: with g1 live to the end, the allocator gave a fill before
    * the loop of dolphin/ubershaders/3.fs (forced SIMD32) a register the
    * loop wrote.  Built headers stay as they are.
    */
   EXPECT_TRUE(ibis::testing::check_pass(R"(
      shader fs simd32 lowered
      attr %0:u32x16[4]
      hw %1:u32x8[2]@g0
      hw %2:u32x8@g0
      hw %3:u32x8@g2
      wlr %4:u32x8[2]
      block0:
         _ = send(16) 5:u32, 0x40b0000:u32, 512:u32, %1, %0
         %4 = load_payload %2, %3 {WE_all}
         _ = send(16+16) 5:u32, 0x40b1800:u32, 512:u32, %4, %0 {EOT}
   )", [](ibis::shader &s) { EXPECT_TRUE(ibis::copy_in_place_rt_headers(s)); }, R"(
      shader fs simd32 lowered
      attr %0:u32x16[4]
      hw %1:u32x8[2]@g0
      hw %2:u32x8@g0
      hw %3:u32x8@g2
      wlr %4:u32x8[2]
      wlr %5:u32x8[2]
      hw %6:u32x8@g1
      block0:
         %5 = load_payload %2, %6 {WE_all}
         _ = send(16) 5:u32, 0x40b0000:u32, 512:u32, %5, %0
         %4 = load_payload %2, %3 {WE_all}
         _ = send(16+16) 5:u32, 0x40b1800:u32, 512:u32, %4, %0 {EOT}
   )"));
}

TEST(lower_messages, message_pieces_read_the_sources_of_wide_vectors)
{
   /* dolphin/smg.1.fs.simd16.asm: brw's two SIMD8 dual-source writes take
    * the color components from where they were computed.  The SIMD16
    * color vectors are never a SIMD8 piece's payload, so the pieces read
    * their sources (a component in both colors is not copied whole first),
    * and a constant there is the immediate.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      block0:
         %1:f32x16 = mul %0, %0[1]
         %2:f32x16 = add %0, %0[2]
         %3:f32x16 = mov 0.5:f32
         %4:f32x16[4] = load_payload %1, %2, %0[3], %3
         %5:f32x16[4] = load_payload %1, %2, %0[3], %0
         fb_write_logical %4, %5, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      hw %6:u32x8[2]@g0
      wlr %8:u32x8[2]
      hw %9:u32x8@g0
      hw %10:u32x8@g1
      block0:
         %1:f32x16 = mul %0, %0[1]
         %2:f32x16 = add %0, %0[2]
         %3:f32x16 = mov 0.5:f32
         %7:u32x8[8] = load_payload %1:u32, %2:u32, %0[3]:u32, 0x3f000000:u32, %1:u32, %2:u32, %0[3]:u32, %0:u32
         _ = send(8) 5:u32, 0x40b1200:u32, 512:u32, %6, %7
         %8 = load_payload %9, %10 {WE_all}
         %11:u32x8+8[8] = load_payload %1.32:u32, %2.32:u32, %0[3].32:u32, 0x3f000000:u32, %1.32:u32, %2.32:u32, %0[3].32:u32, %0.32:u32
         _ = send(8+8) 5:u32, 0x40b1300:u32, 512:u32, %8, %11 {EOT}
   )"));
}

TEST(lower_messages, message_pieces_read_a_register_written_in_halves)
{
   /* A source of the wide vector that is a register written in SIMD8
    * halves (a pln per half), both before the load_payload, is read by
    * the pieces themselves, as an SSA source is (the writes are found
    * walking back from the load_payload).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      wlr %2:f32x16
      block0:
         %1:f32x16 = mul %0, %0[1]
         %2 = add(8) %0:f32, %0[2]:f32
         %2.32 = add(8+8) %0.32:f32, %0[2].32:f32
         %3:f32x16 = mov 0.5:f32
         %4:f32x16[4] = load_payload %1, %2, %0[3], %3
         %5:f32x16[4] = load_payload %1, %2, %0[3], %1
         fb_write_logical %4, %5, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      wlr %2:f32x16
      hw %6:u32x8[2]@g0
      wlr %8:u32x8[2]
      hw %9:u32x8@g0
      hw %10:u32x8@g1
      block0:
         %1:f32x16 = mul %0, %0[1]
         %2 = add(8) %0, %0[2]
         %2.32 = add(8+8) %0.32, %0[2].32
         %3:f32x16 = mov 0.5:f32
         %7:u32x8[8] = load_payload %1:u32, %2:u32, %0[3]:u32, 0x3f000000:u32, %1:u32, %2:u32, %0[3]:u32, %1:u32
         _ = send(8) 5:u32, 0x40b1200:u32, 512:u32, %6, %7
         %8 = load_payload %9, %10 {WE_all}
         %11:u32x8+8[8] = load_payload %1.32:u32, %2.32:u32, %0[3].32:u32, 0x3f000000:u32, %1.32:u32, %2.32:u32, %0[3].32:u32, %1.32:u32
         _ = send(8+8) 5:u32, 0x40b1300:u32, 512:u32, %8, %11 {EOT}
   )"));
}

TEST(lower_messages, simd32_sampler_halves_split_a_lone_coordinate)
{
   /* nexuiz/37.fs.simd32.asm:11: "sends(16) g108UD g96UD g78UD
    * 0x04240203 ex 0x80": brw sends the SIMD32 coordinate (u, 0.0) as two
    * SIMD16 halves, each a split send of u's half and a register of zeros
    * shared by all the messages of that half.  ibis now drops a trailing
    * zero (trailing_zero_parameters_are_not_sent), so here the constant is
    * 1.0: a mov at the half's width (which CSE shares), u's half a
    * one-source load_payload.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = mov 1.0:f32
         %3:f32x32[2] = load_payload %1, %2
         %4:f32x32[4] = tex_logical 0:u32, %3, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = mov 1.0:f32
         %5:u32x16 = load_payload %1:u32
         %6:u32x16 = mov 0x3f800000:u32
         %7:f32x16[4] = send 2:u32, 0x4840001:u32, 128:u32, %5, %6
         %8:u32x16+16 = load_payload %1.64:u32
         %9:u32x16+16 = mov 0x3f800000:u32
         %10:f32x16+16[4] = send 2:u32, 0x4840001:u32, 128:u32, %8, %9
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %7, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %10, _ {EOT}
   )"));
   /* tesseract/491.fs.simd32.asm: samples at several u of one v, "sends(16)
    * g24UD g46UD g38UD" ... "g32UD g69UD g38UD": v's half is payload1 of
    * every message of the half (the same load_payload, which CSE shares),
    * not copied into each.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = add %0, %0[1]
         %8:f32x32 = mul %0[1], 2.0:f32
         %3:f32x32[2] = load_payload %1, %8
         %4:f32x32[4] = tex_logical 0:u32, %3, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %5:f32x32[2] = load_payload %2, %8
         %6:f32x32[4] = tex_logical 0:u32, %5, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %7:f32x32 = add %4, %6
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[2]
      block0:
         %1:f32x32 = mul %0, %0[1]
         %2:f32x32 = add %0, %0[1]
         %8:f32x32 = mul %0[1], 2.0:f32
         %9:u32x16 = load_payload %1:u32
         %10:u32x16 = load_payload %8:u32
         %11:f32x16 = send 2:u32, 0x4240001:u32, 128:u32, %9, %10
         %12:u32x16+16 = load_payload %1.64:u32
         %13:u32x16+16 = load_payload %8.64:u32
         %14:f32x16+16 = send 2:u32, 0x4240001:u32, 128:u32, %12, %13
         %4:f32x32 = load_payload %11, %14
         %15:u32x16 = load_payload %2:u32
         %16:u32x16 = load_payload %8:u32
         %17:f32x16 = send 2:u32, 0x4240001:u32, 128:u32, %15, %16
         %18:u32x16+16 = load_payload %2.64:u32
         %19:u32x16+16 = load_payload %8.64:u32
         %20:f32x16+16 = send 2:u32, 0x4240001:u32, 128:u32, %18, %19
         %6:f32x32 = load_payload %17, %20
         %7:f32x32 = add %4, %6
         %21:u32x16[4] = load_payload %7:u32, _, _, _
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %21, _
         %22:u32x16+16[4] = load_payload %7.64:u32, _, _, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %22, _ {EOT}
   )"));
}

TEST(lower_messages, simd32_sampler_halves_split_an_interpolated_coordinate)
{
   /* warsow/34.fs.simd32.asm: "sends(16) g46UD g44UD g24UD 0x04640001 ex
    * 0x80" (mlen 2 ex_mlen 2): v, interpolated by two pln halves (a WLR
    * value), goes alone as the second payload of each half, as a value
    * of the wide width does (allocation splits the plns into SSA halves
    * and writes each where its payload reads it); only u is gathered.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      hw %0:f32x8[4]@g2
      hw %1:f32x8[4]@g6
      uniform %2:u32x1[16]@g10
      wlr %3:f32x32
      wlr %4:f32x32
      block0:
         %3 = pln(16) %2:f32, %0
         %3.64 = pln(16+16) %2:f32, %1
         %4 = pln(16) %2[4]:f32, %0
         %4.64 = pln(16+16) %2[4]:f32, %1
         %5:f32x32 = add %3, 0.5:f32
         %6:f32x32[2] = load_payload %5, %4
         %7:f32x32[4] = tex_logical 0:u32, %6, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      hw %0:f32x8[4]@g2
      hw %1:f32x8[4]@g6
      uniform %2:u32x1[16]@g10
      wlr %3:f32x32
      wlr %4:f32x32
      block0:
         %3 = pln(16) %2:f32, %0
         %3.64 = pln(16+16) %2:f32, %1
         %4 = pln(16) %2[4]:f32, %0
         %4.64 = pln(16+16) %2[4]:f32, %1
         %5:f32x32 = add %3, 0.5:f32
         %8:u32x16 = load_payload %5:u32
         %9:u32x16 = load_payload %4:u32
         %10:f32x16[4] = send 2:u32, 0x4840001:u32, 128:u32, %8, %9
         %11:u32x16+16 = load_payload %5.64:u32
         %12:u32x16+16 = load_payload %4.64:u32
         %13:f32x16+16[4] = send 2:u32, 0x4840001:u32, 128:u32, %11, %12
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %10, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %13, _ {EOT}
   )"));
}

TEST(lower_messages, simd8_rt_write_reads_g0_g1_in_place)
{
   /* tesseract/515.fs.simd8.asm:7: sendsc(8) with payload0 g0 for target
    * 0 (0x040b0400 ex 0x100): its header is g0-g1 as the thread got them,
    * not a copy.  The EOT write's header must be in g112-g127, and target 1
    * sets dword 2, so that one is built.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[4]
      attr %1:f32x8[4]
      block0:
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32
         fb_write_logical %1, _, _, _, _, _, _, _, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[4]
      attr %1:f32x8[4]
      hw %2:u32x8[2]@g0
      wlr %4:u32x8[2]
      hw %5:u32x8@g0
      hw %6:u32x8@g1
      block0:
         %3:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         _ = send 5:u32, 0x40b0400:u32, 256:u32, %2, %3
         %4 = load_payload %5, %6 {WE_all}
         %4.8 = mov(1) 1:u32 {WE_all}
         %7:u32x8[4] = load_payload %1:u32, %1[1]:u32, %1[2]:u32, %1[3]:u32
         _ = send 5:u32, 0x40b1401:u32, 256:u32, %4, %7 {EOT}
   )"));
}

TEST(lower_messages, terminate_halts_and_masks_rt_writes)
{
   /* dolphin/ubershaders/201.fs.simd8.asm:4779: brw halts terminated
    * channels; :5052 "(+f1.0) sendsc(8)": the RT write is predicated on the
    * channels still alive.  A terminate under an if: the channels that
    * reach the halt target mark themselves alive.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[4]
      block0:
         %2:flagx8 = cmp.l %0[1], 0.5:f32
         (+%2) if
      block1:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) terminate
      block2:
         endif
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[4]
      block0: ; succs: block1 block2
         %3:u32x8 = mov 0:u32 {WE_all}
         %2:flagx8 = cmp.l %0[1], 0.5:f32
         (+%2) if
      block1: ; preds: block0 succs: block2
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) halt
      block2: ; preds: block0 block1
         endif
         %4:u32x8 = mov 0xffffffff:u32, preserve %3
         halt
         %5:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %6:flagx8 = cmp.nz %4, 0:u32
         (+%6) _ = send 5:u32, 0x8031400:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, terminate_in_the_write_block_predicates_on_its_flag)
{
   /* nexuiz/52.fs.simd16.asm:8-9 "(+f1.0) cmp.ge.f1.0 ... halt" and :81
    * "(+f1.0) sendc(16)": brw keeps the live channels in a flag.  The one
    * terminate of the block that writes halts the channels its flag is set
    * in, and only halted channels come back at the halt target: the write
    * takes the inverted flag, no mask is marked.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) terminate
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) halt
         halt
         %2:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         (-%1) _ = send 5:u32, 0x10031000:u32, 0:u32, %2, _ {EOT}
   )"));
   /* nexuiz/79.fs.simd32.asm:13-15, :119-122: at SIMD32 too when there
    * is one write (114 -> 108 instructions, brw 108): both halves take
    * their channels of the flag.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[4]
      block0:
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (+%1) terminate
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[4]
      block0:
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (+%1) halt
         halt
         %2:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         (-%1) _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %2, _
         %3:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         (-%1) _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %3, _ {EOT}
   )"));
   /* SIMD32 with two render targets keeps the mask: the flag would hold
    * f0 whole across both writes (tesseract/532.fs estimates slower).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[4]
      block0:
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (+%1) terminate
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32
         fb_write_logical %0, _, _, _, _, _, _, _, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[4]
      hw %4:u32x8[2]@g0
      wlr %7:u32x8[2]
      hw %8:u32x8@g0
      hw %9:u32x8@g2
      wlr %12:u32x8[2]
      hw %13:u32x8@g1
      wlr %16:u32x8[2]
      block0:
         %2:u32x32 = mov 0:u32 {WE_all}
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (+%1) halt
         %3:u32x32 = mov 0xffffffff:u32, preserve %2
         halt
         %5:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %6:flagx16 = cmp.nz %3, 0:u32
         (+%6) _ = send(16) 5:u32, 0x40b0000:u32, 512:u32, %4, %5
         %7 = load_payload %8, %9 {WE_all}
         %10:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         %11:flagx16+16 = cmp.nz %3.64, 0:u32
         (+%11) _ = send(16+16) 5:u32, 0x40b0800:u32, 512:u32, %7, %10
         %12 = load_payload %8, %13 {WE_all}
         %12.8 = mov(1) 1:u32 {WE_all}
         %14:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %15:flagx16 = cmp.nz %3, 0:u32
         (+%15) _ = send(16) 5:u32, 0x40b1001:u32, 512:u32, %12, %14
         %16 = load_payload %8, %9 {WE_all}
         %16.8 = mov(1) 1:u32 {WE_all}
         %17:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         %18:flagx16+16 = cmp.nz %3.64, 0:u32
         (+%18) _ = send(16+16) 5:u32, 0x40b1801:u32, 512:u32, %16, %17 {EOT}
   )"));
   /* Two terminates: the writes need both flags, so the mask stays. */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) terminate
         %2:flagx16 = cmp.l %0[2], 0.5:f32
         (+%2) terminate
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      block0:
         %3:u32x16 = mov 0:u32 {WE_all}
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) halt
         %2:flagx16 = cmp.l %0[2], 0.5:f32
         (+%2) halt
         %4:u32x16 = mov 0xffffffff:u32, preserve %3
         halt
         %5:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %6:flagx16 = cmp.nz %4, 0:u32
         (+%6) _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_messages, glsl_discard_halts_whole_quads)
{
   /* tesseract/309.fs.simd16.asm:8-9 "(+f1.0) cmp.l.f1.0 ...",
    * "(-f1.0.any4h) halt": GLSL's discard halts a quad only once all
    * four channels are discarded, so the others' derivatives stay the
    * pixels'.  ibis: a discard and a quad_all terminate on one flag.  In
    * the write block the writes take the inverted flag, which covers the
    * discarded channels still running, so the discard goes.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) discard
         (+%1) terminate {quad_all}
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) halt {quad_all}
         halt
         %2:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         (-%1) _ = send 5:u32, 0x10031000:u32, 0:u32, %2, _ {EOT}
   )"));
   /* A store after it: the discarded channels that run on would store,
    * so the discard masks it (and the writes) as a demote does.  The
    * discard's mask, 0 in every channel the quad halt stops and defined
    * before it in the writes' block, needs no live mask beside it.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      block0:
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (+%1) discard
         (+%1) terminate {quad_all}
         %2:flagx16 = cmp.nz %0:u32, 0:u32
         (+%2) untyped_write_logical 0:u32, %0:u32, %0[1]:u32, 1:u32
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      block0:
         %4:u32x16 = mov 0xffffffff:u32
         %1:flagx16 = cmp.l %0[3], 0.5:f32
         (-%1) %5:u32x16 = sel %4, 0:u32
         (+%1) halt {quad_all}
         %2:flagx16 = cmp.nz %0:u32, 0:u32
         (+%2) %6:u32x16 = sel %5, 0:u32
         %8:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %9:flagx16 = cmp.nz %6, 0:u32
         (+%9) _ = send 12:u32, 0x8025e00:u32, 0:u32, %8, _ {side_effects}
         halt
         %10:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %11:flagx16 = cmp.nz %5, 0:u32
         (+%11) _ = send 5:u32, 0x10031000:u32, 0:u32, %10, _ {EOT}
   )"));
   /* SIMD32 with two targets keeps a mask (as a terminate does), but the
    * discard's: it is 0 in every channel the quad halt stops, so the halt
    * target marks no live mask.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:f32x32[4]
      block0:
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (+%1) discard
         (+%1) terminate {quad_all}
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32
         fb_write_logical %0, _, _, _, _, _, _, _, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:f32x32[4]
      hw %5:u32x8[2]@g0
      wlr %8:u32x8[2]
      hw %9:u32x8@g0
      hw %10:u32x8@g2
      wlr %13:u32x8[2]
      hw %14:u32x8@g1
      wlr %17:u32x8[2]
      block0:
         %3:u32x32 = mov 0xffffffff:u32
         %1:flagx32 = cmp.l %0[3], 0.5:f32
         (-%1) %4:u32x32 = sel %3, 0:u32
         (+%1) halt {quad_all}
         halt
         %6:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %7:flagx16 = cmp.nz %4, 0:u32
         (+%7) _ = send(16) 5:u32, 0x40b0000:u32, 512:u32, %5, %6
         %8 = load_payload %9, %10 {WE_all}
         %11:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         %12:flagx16+16 = cmp.nz %4.64, 0:u32
         (+%12) _ = send(16+16) 5:u32, 0x40b0800:u32, 512:u32, %8, %11
         %13 = load_payload %9, %14 {WE_all}
         %13.8 = mov(1) 1:u32 {WE_all}
         %15:u32x16[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %16:flagx16 = cmp.nz %4, 0:u32
         (+%16) _ = send(16) 5:u32, 0x40b1001:u32, 512:u32, %13, %15
         %17 = load_payload %9, %10 {WE_all}
         %17.8 = mov(1) 1:u32 {WE_all}
         %18:u32x16+16[4] = load_payload %0.64:u32, %0[1].64:u32, %0[2].64:u32, %0[3].64:u32
         %19:flagx16+16 = cmp.nz %4.64, 0:u32
         (+%19) _ = send(16+16) 5:u32, 0x40b1801:u32, 512:u32, %17, %18 {EOT}
   )"));
}

TEST(lower_messages, discard_masks_rt_writes)
{
   /* No corpus shader demotes.  brw (brw_fs_nir.cpp, demote_if) clears
    * the channel's bit of the sample mask f1.0 and predicates the RT write
    * on it (dolphin/ubershaders/201.fs.simd8.asm:5052 "(+f1.0) sendsc");
    * ibis keeps the mask as an SSA value, with a phi where a demote under
    * an if merges.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[4]
      block0:
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) if
      block1:
         %2:flagx8 = cmp.l %0[1], 0.5:f32
         (+%2) discard
      block2:
         endif
         fb_write_logical %0, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[4]
      block0: ; succs: block1 block2
         %4:u32x8 = mov 0xffffffff:u32
         %1:flagx8 = cmp.l %0, 0.5:f32
         (+%1) if
      block1: ; preds: block0 succs: block2
         %2:flagx8 = cmp.l %0[1], 0.5:f32
         (-%2) %6:u32x8 = sel %4, 0:u32
      block2: ; preds: block0 block1
         endif
         %5:u32x8 = phi %4, %6
         %7:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %8:flagx8 = cmp.nz %5, 0:u32
         (+%8) _ = send 5:u32, 0x8031400:u32, 0:u32, %7, _ {EOT}
   )"));
}

TEST(lower_messages, fs_stores_skip_helpers_and_demoted_channels)
{
   /* brw predicates a fragment shader's stores and atomics on the sample
    * mask (brw_emit_predicate_on_sample_mask), so neither helper pixels
    * nor demoted channels write memory.  The translator predicates the
    * store on the pixel mask (%1, from g1.7); lowering takes the channels
    * a demote cleared out of that predicate, and each SIMD8 piece of the
    * typed write gets its own flag.  The compare the demote made for the
    * logical write, read back as the mask %7, goes.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:u32x16[2]
      block0:
         %1:flagx16 = cmp.nz %0, 0:u32
         %2:flagx16 = cmp.l %0[1], 3:u32
         (+%2) discard
         %3:u32x16 = mov %0[1]
         (+%1) typed_write_logical 4:u32, %3, %3, 1:u32
         fb_write_logical _, _, _, _, _, _, _, _, 0:u32, 0:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:u32x16[2]
      block0:
         %5:u32x16 = mov 0xffffffff:u32
         %1:flagx16 = cmp.nz %0, 0:u32
         %2:flagx16 = cmp.l %0[1], 3:u32
         (-%2) %6:u32x16 = sel %5, 0:u32
         %3:u32x16 = mov %0[1]
         (+%1) %7:u32x16 = sel %6, 0:u32
         %9:u32x8[2] = load_payload %3, %3
         %10:flagx8 = cmp.nz %7, 0:u32
         (+%10) _ = send(8) 12:u32, 0x4035e04:u32, 0:u32, %9, _ {side_effects}
         %11:u32x8+8[2] = load_payload %3.32, %3.32
         %12:flagx8+8 = cmp.nz %7.32, 0:u32
         (+%12) _ = send(8+8) 12:u32, 0x4036e04:u32, 0:u32, %11, _ {side_effects}
         %13:u32x16[4] = load_payload _, _, _, _
         %14:flagx16 = cmp.nz %6, 0:u32
         (+%14) _ = send 5:u32, 0x10031000:u32, 0:u32, %13, _ {EOT}
   )"));
}

TEST(lower_messages, derivatives_are_regioned_adds)
{
   /* nexuiz/94.fs.simd32.asm:24: "add(16) g34<1>F g76.1<4,4,0>F
    * -g76<4,4,0>F" (ddx coarse); ddy coarse reads element 2.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16
      block0:
         %1:f32x16 = ddx_coarse %0
         %2:f32x16 = ddy_coarse %0
         %3:f32x16[2] = load_payload %1, %2
         fb_write_logical %3, _, _, _, _, _, _, _, 0:u32, 2:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16
      block0:
         %1:f32x16 = add %0.4<4,4,0>, -%0<4,4,0>
         %2:f32x16 = add %0.8<4,4,0>, -%0<4,4,0>
         %3:f32x16[2] = load_payload %1, %2
         %4:u32x16[4] = load_payload %3:u32, %3[1]:u32, _, _
         _ = send 5:u32, 0x10031000:u32, 0:u32, %4, _ {EOT}
   )"));
}

TEST(lower_messages, spill_and_fill_are_scratch_blocks)
{
   /* No corpus shader spills.  brw_eu_emit.c gfx7_block_read_scratch /
    * gfx7_set_dp_scratch_message: DC0, bit 18 scratch, 17 write, 13:12
    * log2 GRFs, 11:0 offset in HWords; header g0; mlen 1 (+ data), rlen =
    * GRFs read.  A 3-GRF value moves as blocks of 2 and 1.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[3]
      block0:
         scratch_write_logical 64:u32, %0 {spill}
         %1:f32x8[3] = scratch_read_logical 64:u32 {fill}
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 3:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[3]
      hw %3:u32x8@g0
      block0:
         %2:f32x8[2] = load_payload %0, %0[1] {WE_all}
         %4:u32x8 = mov %3 {WE_all}
         _ = send 10:u32, 0x20e1002:u32, 128:u32, %4, %2 {WE_all, side_effects, spill}
         %5:f32x8 = load_payload %0[2] {WE_all}
         %6:u32x8 = mov %3 {WE_all}
         _ = send 10:u32, 0x20e0004:u32, 64:u32, %6, %5 {WE_all, side_effects, spill}
         %8:u32x8 = mov %3 {WE_all}
         %7:f32x8[2] = send 10:u32, 0x22c1002:u32, 0:u32, %8, _ {WE_all, fill}
         %10:u32x8 = mov %3 {WE_all}
         %9:f32x8 = send 10:u32, 0x21c0004:u32, 0:u32, %10, _ {WE_all, fill}
         %1:f32x8[3] = load_payload %7, %7[1], %9 {WE_all}
         %11:u32x8[4] = load_payload %1:u32, %1[1]:u32, %1[2]:u32, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %11, _ {EOT}
   )"));
}

TEST(lower_messages, spill_of_a_narrow_value_is_staged)
{
   /* A width-1 value is narrower than a GRF: it is staged into one GRF
    * (the allocator reserves its size rounded up to a GRF) and moved by a
    * 1-GRF scratch block (brw_eu_emit.c gfx7_set_dp_scratch_message).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      uniform %0:u32x1[3]
      block0:
         %1:u32x1[3] = mov %0 {WE_all}
         scratch_write_logical 32:u32, %1 {WE_all, spill}
         %2:u32x1[3] = scratch_read_logical 32:u32 {WE_all, fill}
         %3:f32x8 = mov %2[2]:f32
         fb_write_logical %3, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      uniform %0:u32x1[3]
      wlr %4:u32x8
      hw %5:u32x8@g0
      block0:
         %1:u32x1[3] = mov %0 {WE_all}
         %4 = mov(1) %1 {WE_all}
         %4.4 = mov(1) %1[1] {WE_all}
         %4.8 = mov(1) %1[2] {WE_all}
         %6:u32x8 = mov %5 {WE_all}
         _ = send 10:u32, 0x20e0001:u32, 64:u32, %6, %4 {WE_all, side_effects, spill}
         %8:u32x8 = mov %5 {WE_all}
         %7:u32x8 = send 10:u32, 0x21c0001:u32, 0:u32, %8, _ {WE_all, fill}
         %2:u32x1[3] = load_payload %7, %7.4, %7.8 {WE_all}
         %3:f32x8 = mov %2[2]:f32
         %9:u32x8[4] = load_payload %3:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %9, _ {EOT}
   )"));
}

TEST(lower_messages, scratch_array_is_dword_scattered)
{
   /* No corpus shader has scratch arrays.  brw_fs_nir.cpp load_scratch /
    * store_scratch: DWord scattered read (type 3) / write (11) through the
    * stateless surface 253 with a header, dword address = (addr / 4) x
    * dispatch width + channel; brw_eu.h brw_dp_dword_scattered_rw_desc.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u32x8
      block0:
         scratch_write_logical %0, %0
         %1:u32x8 = scratch_read_logical %0
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:u32x8
      hw %6:u32x8@g0
      block0:
         %2:u32x8 = load_subgroup_invocation
         %3:u32x8 = shr %0, 2:u32
         %4:u32x8 = shl %3, 3:u32
         %5:u32x8 = add %4, %2
         %7:u32x8 = mov %6 {WE_all}
         %8:u32x8[2] = load_payload %5, %0
         _ = send 10:u32, 0x20ac2fd:u32, 128:u32, %7, %8 {side_effects}
         %9:u32x8 = load_subgroup_invocation
         %10:u32x8 = shr %0, 2:u32
         %11:u32x8 = shl %10, 3:u32
         %12:u32x8 = add %11, %9
         %13:u32x8 = mov %6 {WE_all}
         %14:u32x8 = send 10:u32, 0x218c2fd:u32, 64:u32, %13, %12
         %1:u32x8 = load_payload %14
         %15:u32x8[4] = load_payload %1, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %15, _ {EOT}
   )"));
}

TEST(lower_messages, untyped_surface_messages)
{
   /* No corpus shader uses SSBOs.  brw_eu.h
    * brw_dp_untyped_surface_rw_desc / brw_dp_untyped_atomic_desc: DC1,
    * read 1 / write 9 with the disabled channels in 3:0 and SIMD mode 5:4
    * (2 SIMD8), atomic 2 with the op in 3:0, SIMD8 bit 4, return bit 5.
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd8
      attr %0:u32x8
      block0:
         %1:u32x8 = untyped_read_logical 1:u32, %0, 1:u32
         untyped_write_logical 1:u32, %0, %1, 1:u32
         %2:u32x8 = untyped_atomic_logical 1:u32, %0, %1, _, 0:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd8 lowered
      attr %0:u32x8
      hw %7:u32x8@g0
      block0:
         %3:u32x8 = load_payload %0
         %1:u32x8 = send 12:u32, 0x2106e01:u32, 0:u32, %3, _
         %4:u32x8 = load_payload %0
         _ = send 12:u32, 0x2026e01:u32, 64:u32, %4, %1 {side_effects}
         %5:u32x8 = load_payload %0
         %2:u32x8 = send 12:u32, 0x210b701:u32, 64:u32, %5, %1 {side_effects}
         %6:u32x8 = load_payload %0
         _ = send 12:u32, 0x2026e02:u32, 64:u32, %6, %2 {side_effects}
         %8:u32x8 = mov %7 {WE_all}
         _ = send 7:u32, 0x2000010:u32, 0:u32, %8, _ {WE_all, EOT, side_effects}
   )"));
}

/* nir_atomic_op numbers are Mesa 23.3's: cmpxchg is 12 (BRW_AOP_CMPWR
 * 14, control 0x3e with SIMD8 and return; compare value then new value),
 * and fadd (9) has no Gen9 message and is refused: 9 was taken for
 * cmpxchg, so an fadd became a compare-exchange and every
 * ssbo_atomic_swap was refused (random cs seeds).
 */
TEST(lower_messages, untyped_atomic_op_numbers)
{
   EXPECT_TRUE(check_lower(R"(
      shader cs simd8
      attr %0:u32x8[2]
      block0:
         %2:u32x8 = untyped_atomic_logical 1:u32, %0, %0[1], %0, 12:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd8 lowered
      attr %0:u32x8[2]
      hw %5:u32x8@g0
      block0:
         %3:u32x8[3] = load_payload %0, %0[1], %0
         %2:u32x8 = send 12:u32, 0x610be01:u32, 0:u32, %3, _ {side_effects}
         %4:u32x8 = load_payload %0
         _ = send 12:u32, 0x2026e02:u32, 64:u32, %4, %2 {side_effects}
         %6:u32x8 = mov %5 {WE_all}
         _ = send 7:u32, 0x2000010:u32, 0:u32, %6, _ {WE_all, EOT, side_effects}
   )"));
   auto s = ibis::parse_shader(ibis::testing::dedent(R"(
      shader cs simd8
      attr %0:u32x8[2]
      block0:
         %2:u32x8 = untyped_atomic_logical 1:u32, %0, %0[1], _, 9:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         thread_end_logical %0 {EOT}
   )"));
   EXPECT_THROW(ibis::lower(*s, ibis::device_by_name("skl")), ibis::error);
}

/* A SIMD32 atomic splits into SIMD16 messages: they return their halves
 * when the instruction's result is read (the pieces' values have no
 * readers of their own: their responses were dropped and the zipped
 * result read undefined values, random cs seed 33), and return nothing
 * when it is not.  A message's piece reads its half of the result as it
 * is, without the zip.
 */
TEST(lower_messages, simd32_atomic_returns_what_is_read)
{
   EXPECT_TRUE(check_lower(R"(
      shader cs simd32
      attr %0:u32x32[2]
      block0:
         %2:u32x32 = untyped_atomic_logical 1:u32, %0, %0[1], _, 7:u32
         %3:u32x32 = untyped_atomic_logical 1:u32, %0, %0[1], _, 7:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd32 lowered
      attr %0:u32x32[2]
      hw %14:u32x8@g0
      block0:
         %5:u32x16[2] = load_payload %0, %0[1]
         %4:u32x16 = send 12:u32, 0x820a301:u32, 0:u32, %5, _ {side_effects}
         %7:u32x16+16[2] = load_payload %0.64, %0[1].64
         %6:u32x16+16 = send 12:u32, 0x820a301:u32, 0:u32, %7, _ {side_effects}
         %9:u32x16[2] = load_payload %0, %0[1]
         _ = send(16) 12:u32, 0x8008301:u32, 0:u32, %9, _ {side_effects}
         %11:u32x16+16[2] = load_payload %0.64, %0[1].64
         _ = send(16+16) 12:u32, 0x8008301:u32, 0:u32, %11, _ {side_effects}
         %12:u32x16 = load_payload %0
         _ = send(16) 12:u32, 0x4025e02:u32, 128:u32, %12, %4 {side_effects}
         %13:u32x16+16 = load_payload %0.64
         _ = send(16+16) 12:u32, 0x4025e02:u32, 128:u32, %13, %6 {side_effects}
         %15:u32x8 = mov %14 {WE_all}
         _ = send(8) 7:u32, 0x2000010:u32, 0:u32, %15, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_messages, typed_and_byte_scattered_messages)
{
   /* No corpus shader uses images or 8/16-bit buffers.  brw_eu.h
    * brw_dp_typed_surface_rw_desc (DC1 read 5 / write 13, disabled
    * channels 3:0, slot group 5:4 = 1 + (group / 8) % 2, SIMD8 only, no
    * header on Gen9) and brw_dp_byte_scattered_rw_desc (DC0 read 4 /
    * write 12, SIMD16 bit 0, data size 3:2).
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd16
      attr %0:u32x16[2]
      block0:
         %1:u32x16 = typed_read_logical 3:u32, %0, 1:u32
         typed_write_logical 3:u32, %0, %1, 1:u32
         %2:u32x16 = byte_scattered_read_logical 4:u32, %0, 16:u32
         byte_scattered_write_logical 4:u32, %0[1], %2, 16:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd16 lowered
      attr %0:u32x16[2]
      hw %11:u32x8@g0
      block0:
         %4:u32x8[2] = load_payload %0, %0[1]
         %3:u32x8 = send 12:u32, 0x4115e03:u32, 0:u32, %4, _
         %6:u32x8+8[2] = load_payload %0.32, %0[1].32
         %5:u32x8+8 = send 12:u32, 0x4116e03:u32, 0:u32, %6, _
         %7:u32x8[2] = load_payload %0, %0[1]
         _ = send(8) 12:u32, 0x4035e03:u32, 64:u32, %7, %3 {side_effects}
         %8:u32x8+8[2] = load_payload %0.32, %0[1].32
         _ = send(8+8) 12:u32, 0x4036e03:u32, 64:u32, %8, %5 {side_effects}
         %9:u32x16 = load_payload %0
         %2:u32x16 = send 10:u32, 0x4210504:u32, 0:u32, %9, _
         %10:u32x16 = load_payload %0[1]
         _ = send 10:u32, 0x4030504:u32, 128:u32, %10, %2 {side_effects}
         %12:u32x8 = mov %11 {WE_all}
         _ = send(8) 7:u32, 0x2000010:u32, 0:u32, %12, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_messages, fence_barrier_and_thread_end)
{
   /* No corpus shader is a compute shader.  brw_eu.h / brw_eu_emit.c
    * brw_memory_fence (DC0 type 7, commit bit 5 of the control, one GRF
    * back), the gateway barrier (function 4) followed by wait, and the
    * thread spawner EOT message with the g0 header.
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd8
      hw %0:u32x8@g0
      block0:
         memory_fence 0:u32
         barrier %0
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd8 lowered
      hw %0:u32x8@g0
      wlr %4:u32x8
      block0:
         %1:u32x8 = mov %0 {WE_all}
         %2:u32x8 = send 10:u32, 0x219e000:u32, 0:u32, %1, _ {WE_all, side_effects}
         %3:u32x8 = mov %2 {WE_all}
         %4 = mov 0:u32 {WE_all}
         %4.8 = and(1) %0.8, 0xf000000:u32 {WE_all}
         _ = send 3:u32, 0x2000004:u32, 0:u32, %4, _ {WE_all, side_effects}
         wait {WE_all}
         %5:u32x8 = mov %0 {WE_all}
         _ = send 7:u32, 0x2000010:u32, 0:u32, %5, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_messages, interpolate_at_sample_and_offset)
{
   /* No corpus shader interpolates at a sample or offset.  brw_eu.h
    * brw_pixel_interp_desc (type 13:12: 1 sample, 3 per-slot offset; SIMD16
    * bit 16), brw_fs_nir.cpp: the sample index ORed in at 7:4 from the
    * first live channel, offsets as min(int(16 x), 7); g0 is the sample
    * message's payload; 2 GRFs back per 8 channels.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:u32x16
      attr %1:f32x16[2]
      block0:
         %2:f32x16[2] = interp_logical 0:u32, %0, 1:u32
         %3:f32x16[2] = interp_logical 1:u32, %1, 3:u32
         %4:f32x16[4] = load_payload %2, %2[1], %3, %3[1]
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:u32x16
      attr %1:f32x16[2]
      hw %8:u32x8@g0
      block0:
         %5:u32x1 = find_live_channel {WE_all}
         %6:u32x1 = broadcast %0, %5 {WE_all}
         %7:u32x1 = shl %6, 4:u32 {WE_all}
         %9:u32x8 = mov %8 {WE_all}
         %10:u32x1 = or %7, 0x2411000:u32 {WE_all}
         %2:f32x16[2] = send 11:u32, %10, 0:u32, %9, _
         %11:f32x16 = mul %1, 16.0:f32
         %12:s32x16 = mov %11
         %13:s32x16 = sel.l %12, 7:s32
         %14:f32x16 = mul %1[1], 16.0:f32
         %15:s32x16 = mov %14
         %16:s32x16 = sel.l %15, 7:s32
         %17:u32x16[2] = load_payload %13:u32, %16:u32
         %3:f32x16[2] = send 11:u32, 0x8417000:u32, 0:u32, %17, _
         _ = send 5:u32, 0x8031000:u32, 256:u32, %2, %3 {EOT}
   )"));
   /* The colour is the two results as they are: a split RT write (mlen 4,
    * ex_mlen 4) reads them in place instead of gathering them.
    */
}

TEST(lower_messages, sample_payloads_split_to_read_shared_coordinates)
{
   /* humus-hdr/7.fs.simd8.asm:7,13: sends(8) 0x02320001 ex 0x40 "sample
    * SIMD8 mlen 1 ex_mlen 1 rlen 3": u and v from different plns, each
    * read by several messages, are the two payloads as they are (a
    * payload of both would copy them).  A coordinate whose plns are read
    * by nothing else stays one payload (:9, send(8) 0x04320001 mlen 2).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g5
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %5:f32x8[2] = load_payload %2, %3
         %6:f32x8[3] = tex_logical 0:u32, %5, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %7:f32x8[2] = load_payload %4, %3
         %8:f32x8[3] = tex_logical 0:u32, %7, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %9:f32x8 = pln %1[12]:f32, %0
         %10:f32x8 = pln %1[4]:f32, %0
         %11:f32x8[2] = load_payload %9, %10
         %12:f32x8[3] = tex_logical 0:u32, %11, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %13:f32x8 = add %6, %8
         %14:f32x8 = add %13, %12
         %15:f32x8 = add %6[1], %8[1]
         %16:f32x8 = add %15, %12[1]
         %17:f32x8 = add %6[2], %8[2]
         %18:f32x8 = add %17, %12[2]
         %19:f32x8[3] = load_payload %14, %16, %18
         fb_write_logical %19, _, _, _, _, _, _, _, 0:u32, 3:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g5
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8 = pln %1[8]:f32, %0
         %6:f32x8[3] = send 2:u32, 0x2320001:u32, 64:u32, %2, %3
         %8:f32x8[3] = send 2:u32, 0x2320001:u32, 64:u32, %4, %3
         %9:f32x8 = pln %1[12]:f32, %0
         %10:f32x8 = pln %1[4]:f32, %0
         %11:f32x8[2] = load_payload %9, %10
         %12:f32x8[3] = send 2:u32, 0x4320001:u32, 0:u32, %11, _
         %13:f32x8 = add %6, %8
         %14:f32x8 = add %13, %12
         %15:f32x8 = add %6[1], %8[1]
         %16:f32x8 = add %15, %12[1]
         %17:f32x8 = add %6[2], %8[2]
         %18:f32x8 = add %17, %12[2]
         %19:f32x8[3] = load_payload %14, %16, %18
         %20:u32x8[4] = load_payload %19:u32, %19[1]:u32, %19[2]:u32, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %20, _ {EOT}
   )"));
}

TEST(lower_messages, shared_sample_c_parameters_split_for_fewest_copies)
{
   /* Percentage-closer filtering (tesseract/435.fs SIMD8, 741 -> 717):
    * four sample_c at (ref, u0|u1, v0|v1).  brw's split, ref | (u, v),
    * gathers four pairs of four values: four copies at least.  Taking
    * (ref, u0) | v for two of them builds (ref, u0) twice (one part once
    * cse has merged them), and (u1, v0), (u1, v1) stay: one copy, of u1.
    * The rest sends as before.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[3]
      block0:
         %1:f32x8 = mul %0[2], 0.5:f32
         %2:f32x8 = add %0, -0.5:f32
         %3:f32x8 = add %0, 0.5:f32
         %4:f32x8 = add %0[1], -0.5:f32
         %5:f32x8 = add %0[1], 0.5:f32
         %6:f32x8[2] = load_payload %2, %4
         %7:f32x8 = tex_logical 0:u32, %6, %1, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %8:f32x8[2] = load_payload %3, %4
         %9:f32x8 = tex_logical 0:u32, %8, %1, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %10:f32x8[2] = load_payload %2, %5
         %11:f32x8 = tex_logical 0:u32, %10, %1, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %12:f32x8[2] = load_payload %3, %5
         %13:f32x8 = tex_logical 0:u32, %12, %1, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %14:f32x8 = add %7, %9
         %15:f32x8 = add %11, %13
         %16:f32x8 = add %14, %15
         fb_write_logical %16, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[3]
      block0:
         %1:f32x8 = mul %0[2], 0.5:f32
         %2:f32x8 = add %0, -0.5:f32
         %3:f32x8 = add %0, 0.5:f32
         %4:f32x8 = add %0[1], -0.5:f32
         %5:f32x8 = add %0[1], 0.5:f32
         %17:u32x8[2] = load_payload %1:u32, %2:u32
         %7:f32x8 = send 2:u32, 0x4123001:u32, 64:u32, %17, %4
         %8:f32x8[2] = load_payload %3, %4
         %9:f32x8 = send 2:u32, 0x2123001:u32, 128:u32, %1, %8
         %18:u32x8[2] = load_payload %1:u32, %2:u32
         %11:f32x8 = send 2:u32, 0x4123001:u32, 64:u32, %18, %5
         %12:f32x8[2] = load_payload %3, %5
         %13:f32x8 = send 2:u32, 0x2123001:u32, 128:u32, %1, %12
         %14:f32x8 = add %7, %9
         %15:f32x8 = add %11, %13
         %16:f32x8 = add %14, %15
         %19:u32x8[4] = load_payload %16:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %19, _ {EOT}
   )"));
}

TEST(lower_messages, rt_write_reads_a_texture_alpha_in_place)
{
   /* warsow/61.fs.simd16.asm:9: "sendsc(16) nullUD g121UD g119UD
    * 0x0c031000 ex 0x80": the computed rgb is payload0, the sample's alpha
    * (its last component, g119 of g113-g120) payload1, read where the
    * sampler wrote it: a payload is a value from an offset to its end.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %4:f32x16[2] = load_payload %2, %3
         %5:f32x16[4] = tex_logical 0:u32, %4, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %6:f32x16 = mul %2, %5
         %7:f32x16 = mul %3, %5[1]
         %8:f32x16 = mul %2, %5[2]
         %9:u32x16[4] = load_payload %6:u32, %7:u32, %8:u32, %5[3]:u32
         fb_write_logical %9, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x16 = pln %1:f32, %0
         %3:f32x16 = pln %1[4]:f32, %0
         %5:f32x16[4] = send 2:u32, 0x4840001:u32, 128:u32, %2, %3
         %6:f32x16 = mul %2, %5
         %7:f32x16 = mul %3, %5[1]
         %8:f32x16 = mul %2, %5[2]
         %9:u32x16[4] = load_payload %6:u32, %7:u32, %8:u32, %5[3]:u32
         %10:u32x16[3] = load_payload %9, %9[1], %9[2]
         _ = send 5:u32, 0xc031000:u32, 128:u32, %10, %5[3] {EOT}
   )"));
}

TEST(lower_messages, rt_write_reads_a_texture_result_in_place)
{
   /* tesseract/139.fs.simd8.asm:6,8: the sample's rgb (rlen 3) is
    * payload0 of sendsc(8) 0x06031400 ex 0x40 "RT write mlen 3 ex_mlen
    * 1", the constant alpha payload1: the colour vector is not copied.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8[2] = load_payload %2, %3
         %5:f32x8[4] = tex_logical 0:u32, %4, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %6:f32x8 = mov 0.0:f32
         %7:u32x8[4] = load_payload %5:u32, %5[1]:u32, %5[2]:u32, %6:u32
         fb_write_logical %7, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      hw %0:f32x8[2]@g2
      uniform %1:u32x1[16]@g4
      block0:
         %2:f32x8 = pln %1:f32, %0
         %3:f32x8 = pln %1[4]:f32, %0
         %4:f32x8[2] = load_payload %2, %3
         %5:f32x8[3] = send 2:u32, 0x4320001:u32, 0:u32, %4, _
         %6:f32x8 = mov 0.0:f32
         _ = send 5:u32, 0x6031400:u32, 64:u32, %5, %6 {EOT}
   )"));
}
