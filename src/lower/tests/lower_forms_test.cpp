/*
 * The message forms the corpus does not use (issue 9): each test states
 * the logical instruction and the lowered IR, with the descriptor, mlen,
 * ex_mlen and rlen as the hardware defines them (facts from Mesa 23.3's
 * brw_lower_logical_sends.cpp, brw_eu_defines.h and brw_eu.h; where a
 * corpus program of brw has the same message, its file and line).
 */
#include "lower_test.h"

using ibis::testing::check_lower;

TEST(lower_forms, ddy_fine_is_an_add_per_subspan)
{
   /* brw's Gen11 align1 ddy_fine (brw_fs_generator.cpp generate_ddy):
    * add(4) per subspan of src.2<0,2,1> and -src<0,2,1>, so each column
    * subtracts its own top pixel.  Gen9 encodes the same regions.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = ddy_fine %0
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x4 = add %0.8<0,2,1>, -%0<0,2,1>
         %3:f32x4+4 = add %0.24<0,2,1>, -%0.16<0,2,1>
         %1:f32x8 = load_payload %2, %3
         %4:u32x8[4] = load_payload %1:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %4, _ {EOT}
   )"));
}

TEST(lower_forms, sample_min_lod_follows_padded_coordinates)
{
   /* lower_sampler_logical_send_gfx7: min_lod goes after u v r ai, the
    * missing coordinates empty.  Five parameters stay SIMD16: "sample
    * SIMD16" type 0, mlen 4 + ex_mlen 4 (split where the source changes),
    * rlen 8.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[2]
      attr %1:f32x16
      block0:
         %5:f32x16[4] = tex_logical 0:u32, %0, _, _, _, %1, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[2]
      attr %1:f32x16
      block0:
         %6:u32x16[4] = load_payload %0:u32, %0[1]:u32, _, _
         %7:u32x16 = load_payload %1:u32
         %5:f32x16[4] = send 2:u32, 0x10840001:u32, 128:u32, %6, %7
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_forms, sample_d_min_lod_follows_padded_gradients)
{
   /* sample_d (type 4) SIMD8: u dudx dudy v dvdx dvdy, then r and its
    * gradients and ai empty, then min_lod: 11 parameters, the sampler's
    * maximum (MAX_SAMPLER_MESSAGE_SIZE).  mlen 1 + ex_mlen 10, rlen 4.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      attr %1:f32x8[2]
      attr %2:f32x8[2]
      attr %3:f32x8
      block0:
         %5:f32x8[4] = tex_logical 3:u32, %0, _, %1, %2, %3, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 2:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      attr %1:f32x8[2]
      attr %2:f32x8[2]
      attr %3:f32x8
      block0:
         %6:u32x8 = load_payload %0:u32
         %7:u32x8[10] = load_payload %1:u32, %2:u32, %0[1]:u32, %1[1]:u32, %2[1]:u32, _, _, _, _, %3:u32
         %5:f32x8[4] = send 2:u32, 0x2424001:u32, 640:u32, %6, %7
         _ = send 5:u32, 0x8031400:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_forms, txf_ms_is_ld2dms_w_after_ld_mcs)
{
   /* Gen9's txf_ms is ld2dms_w (GFX9_SAMPLER_MESSAGE_SAMPLE_LD2DMS_W 28):
    * si mcs0 mcs1 u v; the MCS comes from ld_mcs (29) of the same
    * coordinates, as brw's emit_mcs_fetch.  ld_mcs SIMD16: mlen 4, rlen 4
    * (the two MCS dwords read); ld2dms_w: 10 GRFs, rlen 8.  brw splits
    * si | mcs0 mcs1 u v (mlen 2 + ex_mlen 8); si mcs0 mcs1 | u v (mlen 6
    * + ex_mlen 4) gathers (u, v) as ld_mcs does, a part cse shares, and
    * the MCS result lies in place after si: 3 copies where brw's split
    * needs 5 (si, u, v).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:s32x16[2]
      attr %1:u32x16
      block0:
         %4:u32x16[2] = tex_logical 7:u32, %0, _, _, _, _, _, _, 3:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %5:f32x16[4] = tex_logical 5:u32, %0, _, _, _, _, %1, %4, 3:u32, _, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:s32x16[2]
      attr %1:u32x16
      block0:
         %6:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %4:u32x16[2] = send 2:u32, 0x845d003:u32, 0:u32, %6, _
         %7:u32x16[3] = load_payload %1, %4, %4[1]
         %8:u32x16[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x16[4] = send 2:u32, 0xc85c003:u32, 256:u32, %7, %8
         _ = send 5:u32, 0x10031000:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_forms, high_sampler_moves_the_state_pointer)
{
   /* Sampler 20: the descriptor says 4 (20 % 16), the header's dword 3 is
    * g0.3 + 16 states x 16 bytes (brw's is_high_sampler path); "sample
    * SIMD8" with a header: mlen 1 + ex_mlen 2, rlen 4.  Dword 2 stays g0.2,
    * 0 in fragment and vertex threads (brw writes it in other stages only).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      block0:
         %5:f32x8[4] = tex_logical 0:u32, %0, _, _, _, _, _, _, 1:u32, 20:u32, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      wlr %6:u32x8
      hw %7:u32x8@g0
      block0:
         %6 = mov %7 {WE_all}
         %6.12 = add(1) %7.12, 256:u32 {WE_all}
         %8:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8[4] = send 2:u32, 0x24a0401:u32, 128:u32, %6, %8
         _ = send 5:u32, 0x8031400:u32, 0:u32, %5, _ {EOT}
   )"));
}

TEST(lower_forms, sampler_index_in_a_value_has_a_header)
{
   /* A uniform sampler index: its low 4 bits go into the descriptor
    * (bits 11:8), (index & 0xf0) << 4 onto the header's state pointer; the
    * header disables the two components not read (dword 2 bits 15:14).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      uniform %1:u32x1@g3
      block0:
         %5:f32x8[2] = tex_logical 0:u32, %0, _, _, _, _, _, _, 1:u32, %1, 0:u32, 2:u32, 0:u32
         fb_write_logical %5, _, _, _, _, _, _, _, 0:u32, 2:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      uniform %1:u32x1@g3
      wlr %10:u32x8
      hw %11:u32x8@g0
      block0:
         %6:u32x1 = shl %1, 8:u32 {WE_all}
         %7:u32x1 = and %6, 3840:u32 {WE_all}
         %8:u32x1 = and %1, 240:u32 {WE_all}
         %9:u32x1 = shl %8, 4:u32 {WE_all}
         %10 = mov %11 {WE_all}
         %10.8 = mov(1) 49152:u32 {WE_all}
         %10.12 = add(1) %11.12, %9 {WE_all}
         %12:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %13:u32x1 = or %7, 0x22a0001:u32 {WE_all}
         %5:f32x8[2] = send 2:u32, %13, 128:u32, %10, %12
         %14:u32x8[4] = load_payload %5:u32, %5[1]:u32, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %14, _ {EOT}
   )"));
}

TEST(lower_forms, gather_header_disables_unread_components)
{
   /* brw sets the header's write mask when fewer than four components
    * come back (1 = not written): a gather of which two components are
    * read has dword 2 = 0xc000 | channel 1 << 16 and rlen 2.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[2]
      block0:
         %5:f32x8[4] = tex_logical 266:u32, %0, _, _, _, _, _, _, 1:u32, 0:u32, 0:u32, 2:u32, 0:u32
         %6:f32x8 = mul %5, %5[1]
         fb_write_logical %6, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[2]
      wlr %7:u32x8
      hw %8:u32x8@g0
      block0:
         %7 = mov %8 {WE_all}
         %7.8 = mov(1) 0x1c000:u32 {WE_all}
         %9:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8[2] = send 2:u32, 0x22a8001:u32, 128:u32, %7, %9
         %6:f32x8 = mul %5, %5[1]
         %10:u32x8[4] = load_payload %6:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %10, _ {EOT}
   )"));
}

TEST(lower_forms, urb_write_with_per_slot_offsets_and_a_mask)
{
   /* brw_urb_desc (Gen8+): per-slot offsets present 17, channel mask
    * present 15, global offset 14:4, SIMD8 write 7; the header is the
    * handles, the offsets and the mask (bits 23:16), NoMask: mlen 3, the
    * data in payload1 (ex_mlen 4).  The EOT write without them still
    * copies only the handles.
    */
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:f32x8[4]
      attr %2:u32x8
      hw %9:u32x8@g1
      block0:
         %1:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         urb_write_logical %9, %2, 0xf0000:u32, %1, 4:u32
         urb_write_logical %9, 2:u32, _, %1, 4:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:f32x8[4]
      attr %2:u32x8
      hw %9:u32x8@g1
      wlr %10:u32x8[3]
      block0:
         %1:u32x8[4] = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32
         %10 = load_payload %9, %2, 0xf0000:u32 {WE_all}
         _ = send 6:u32, 0x60a8007:u32, 256:u32, %10, %1 {side_effects}
         %11:u32x8 = mov %9 {WE_all}
         _ = send 6:u32, 0x2080027:u32, 256:u32, %11, %1 {EOT, side_effects}
   )"));
}

TEST(lower_forms, urb_write_with_a_mask_only)
{
   /* A mask in a value, the global offset in the descriptor: mlen 2
    * (handles, mask), bit 15 only, offset 5.
    */
   EXPECT_TRUE(check_lower(R"(
      shader vs simd8
      attr %0:f32x8[2]
      attr %2:u32x8
      hw %9:u32x8@g1
      block0:
         %1:u32x8[2] = load_payload %0:u32, %0[1]:u32
         urb_write_logical %9, 5:u32, %2, %1, 2:u32 {EOT}
   )", R"(
      shader vs simd8 lowered
      attr %0:f32x8[2]
      attr %2:u32x8
      hw %9:u32x8@g1
      wlr %10:u32x8[2]
      block0:
         %1:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %10 = load_payload %9, %2 {WE_all}
         _ = send 6:u32, 0x4088057:u32, 128:u32, %10, %1 {EOT, side_effects}
   )"));
}

TEST(lower_forms, simd32_scratch_array_is_two_simd16_messages)
{
   /* brw splits DWord scattered messages wider than 16 (lower_simd_width):
    * per component, a SIMD16 read (type 3, control 3 = legacy | SIMD16,
    * BTI 253, mlen 1 + ex_mlen 2, rlen 2) for channels 0-15 and one for
    * 16-31 reading the address's second half, zipped back.  The swizzled
    * address shifts by log2(32).
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd32
      attr %0:u32x32
      block0:
         %1:u32x32 = scratch_read_logical %0
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd32 lowered
      attr %0:u32x32
      hw %6:u32x8@g0
      block0:
         %2:u32x32 = load_subgroup_invocation
         %3:u32x32 = shr %0, 2:u32
         %4:u32x32 = shl %3, 5:u32
         %5:u32x32 = add %4, %2
         %7:u32x8 = mov %6 {WE_all}
         %8:u32x16 = load_payload %5
         %9:u32x16 = send 10:u32, 0x228c3fd:u32, 128:u32, %7, %8
         %10:u32x8 = mov %6 {WE_all}
         %11:u32x16+16 = load_payload %5.64
         %12:u32x16+16 = send 10:u32, 0x228c3fd:u32, 128:u32, %10, %11
         %1:u32x32 = load_payload %9, %12
         %13:u32x16[4] = load_payload %1, _, _, _
         _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %13, _
         %14:u32x16+16[4] = load_payload %1.64, _, _, _
         _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %14, _ {EOT}
   )"));
}

TEST(lower_forms, untyped_cmpxchg_and_float_atomics)
{
   /* nir_atomic_op (Mesa 23.3 nir.h): cmpxchg is 12 and goes to
    * BRW_AOP_CMPWR 14 with the compared value then the new one; fmin (10)
    * is the untyped atomic float message (GFX9_DATAPORT_DC_PORT1_UNTYPED_
    * ATOMIC_FLOAT_OP 0x1b, op BRW_AOP_FMIN 2 in 1:0).  SIMD16 with a
    * return: mlen 2, rlen 2, control bit 5.  The address is also the
    * compared value here: brw's split (address | data) would read it on
    * both sides, so the cmpxchg goes as one payload (mlen 6).
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd16
      attr %0:u32x16
      attr %1:u32x16
      attr %3:f32x16
      block0:
         %2:u32x16 = untyped_atomic_logical 1:u32, %0, %1, %0, 12:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         %4:u32x16 = untyped_atomic_logical 1:u32, %0, %3:u32, _, 10:u32
         untyped_write_logical 2:u32, %0, %4, 1:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd16 lowered
      attr %0:u32x16
      attr %1:u32x16
      attr %3:f32x16
      hw %10:u32x8@g0
      block0:
         %5:u32x16[3] = load_payload %0, %1, %0
         %2:u32x16 = send 12:u32, 0xc20ae01:u32, 0:u32, %5, _ {side_effects}
         %6:u32x16 = load_payload %0
         _ = send 12:u32, 0x4025e02:u32, 128:u32, %6, %2 {side_effects}
         %7:u32x16 = load_payload %0
         %8:u32x16 = load_payload %3:u32
         %4:u32x16 = send 12:u32, 0x426e201:u32, 128:u32, %7, %8 {side_effects}
         %9:u32x16 = load_payload %0
         _ = send 12:u32, 0x4025e02:u32, 128:u32, %9, %4 {side_effects}
         %11:u32x8 = mov %10 {WE_all}
         _ = send(8) 7:u32, 0x2000010:u32, 0:u32, %11, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_forms, simd32_atomic_returns_both_halves)
{
   /* The return bit is decided on the SIMD32 result (its halves have no
    * uses yet): both SIMD16 halves return (0x420a701: add, return, rlen
    * 2), each read as it is by the write's piece of its half; an atomic
    * nobody reads returns nothing (0x4008701, rlen 0).
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd32
      attr %0:u32x32
      attr %1:u32x32
      block0:
         %2:u32x32 = untyped_atomic_logical 1:u32, %0, %1, _, 0:u32
         untyped_write_logical 2:u32, %0, %2, 1:u32
         %3:u32x32 = untyped_atomic_logical 1:u32, %0, %1, _, 0:u32
         thread_end_logical %0 {EOT}
   )", R"(
      shader cs simd32 lowered
      attr %0:u32x32
      attr %1:u32x32
      hw %18:u32x8@g0
      block0:
         %5:u32x16 = load_payload %0
         %6:u32x16 = load_payload %1
         %4:u32x16 = send 12:u32, 0x420a701:u32, 128:u32, %5, %6 {side_effects}
         %8:u32x16+16 = load_payload %0.64
         %9:u32x16+16 = load_payload %1.64
         %7:u32x16+16 = send 12:u32, 0x420a701:u32, 128:u32, %8, %9 {side_effects}
         %10:u32x16 = load_payload %0
         _ = send(16) 12:u32, 0x4025e02:u32, 128:u32, %10, %4 {side_effects}
         %11:u32x16+16 = load_payload %0.64
         _ = send(16+16) 12:u32, 0x4025e02:u32, 128:u32, %11, %7 {side_effects}
         %13:u32x16 = load_payload %0
         %14:u32x16 = load_payload %1
         _ = send(16) 12:u32, 0x4008701:u32, 128:u32, %13, %14 {side_effects}
         %16:u32x16+16 = load_payload %0.64
         %17:u32x16+16 = load_payload %1.64
         _ = send(16+16) 12:u32, 0x4008701:u32, 128:u32, %16, %17 {side_effects}
         %19:u32x8 = mov %18 {WE_all}
         _ = send(8) 7:u32, 0x2000010:u32, 0:u32, %19, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_forms, rt_write_with_omask)
{
   /* lower_fb_write_logical_send: oMask is one GRF of 16-bit masks (the
    * low word of each channel's, NoMask), the whole header part of the
    * payload, so the send splits after it: "RT write SIMD16 LastRT" with
    * mlen 1 + ex_mlen 8.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd16
      attr %0:f32x16[4]
      attr %1:s32x16
      block0:
         fb_write_logical %0, _, _, _, _, _, %1, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd16 lowered
      attr %0:f32x16[4]
      attr %1:s32x16
      wlr %2:u16x16
      wlr %3:u32x8[8]
      block0:
         %2 = mov %1<16,8,2>:u16 {WE_all}
         %3 = load_payload %0:u32, %0.32:u32, %0[1]:u32, %0[1].32:u32, %0[2]:u32, %0[2].32:u32, %0[3]:u32, %0[3].32:u32 {WE_all}
         _ = send 5:u32, 0x2031000:u32, 512:u32, %2:u32, %3 {EOT}
   )"));
}

TEST(lower_forms, rt_write_with_stencil_omask_alpha_and_sample_mask)
{
   /* SIMD8 with a header (target 1): g0.0 |= src0 alpha 11 | computes
    * stencil 14, dword 2 = 1; payload0 = header, src0 alpha, oMask (mlen 4,
    * header bit); payload1 = RGBA and the stencil bytes (ex_mlen 5).  The
    * sample mask predicates the write.  "RT write SIMD8 LastRT" 0x80b1401.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8[4]
      attr %1:f32x8
      attr %2:s32x8
      attr %3:u32x8
      block0:
         fb_write_logical %0, _, %1, _, _, %2, %3, %3, 1:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8[4]
      attr %1:f32x8
      attr %2:s32x8
      attr %3:u32x8
      wlr %4:u32x8[2]
      hw %5:u32x8@g0
      hw %6:u32x8@g1
      wlr %7:u16x16
      wlr %8:u32x8
      wlr %9:u32x8[4]
      wlr %10:u32x8[5]
      block0:
         %4 = load_payload %5, %6 {WE_all}
         %4 = or(1) %5, 18432:u32 {WE_all}
         %4.8 = mov(1) 1:u32 {WE_all}
         %7 = mov(8) %3<16,8,2>:u16 {WE_all}
         %8:u8 = mov %2<32,8,4>:u8 {WE_all}
         %9 = load_payload %4, %4[1], %1:u32, %7:u32 {WE_all}
         %10 = load_payload %0:u32, %0[1]:u32, %0[2]:u32, %0[3]:u32, %8 {WE_all}
         %11:flagx8 = cmp.nz %3, 0:u32
         (+%11) _ = send 5:u32, 0x80b1401:u32, 320:u32, %9, %10 {EOT}
   )"));
}

TEST(lower_forms, varying_pull_constant_from_a_surface_in_a_value)
{
   /* The sampler ld of a varying pull constant ("ld SIMD8", 0x2427000:
    * mlen 1, rlen 4, type 7) with the buffer's BTI from a uniform value,
    * ANDed into an indirect descriptor (brw's surface & 0xff); each pass
    * of the translator's loop over a non-uniform UBO index is one.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:u32x8
      uniform %1:u32x1@g3
      block0:
         %2:u32x8[4] = varying_pull_constant_logical %1, %0, 16:u32
         fb_write_logical %2, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:u32x8
      uniform %1:u32x1@g3
      block0:
         %3:u32x1 = and %1, 255:u32 {WE_all}
         %4:u32x8 = load_payload %0
         %5:u32x1 = or %3, 0x2427000:u32 {WE_all}
         %2:u32x8[4] = send 2:u32, %5, 0:u32, %4, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %2, _ {EOT}
   )"));
}

TEST(lower_forms, compute_sampler_header_clears_dword_2)
{
   /* A compute thread's g0.2 is not 0, so a sampler header copied from g0
    * gets dword 2 written (brw: "other stages may not [have g0.2 = 0]");
    * sample_lz (24) with sampler 20, SIMD8: 0x24b8401.
    */
   EXPECT_TRUE(check_lower(R"(
      shader cs simd8
      attr %0:f32x8[2]
      attr %1:u32x8
      block0:
         %5:f32x8[4] = tex_logical 2:u32, %0, _, 0.0:f32, _, _, _, _, 1:u32, 20:u32, 0:u32, 2:u32, 0:u32
         untyped_write_logical 2:u32, %1, %5, 4:u32
         thread_end_logical %1 {EOT}
   )", R"(
      shader cs simd8 lowered
      attr %0:f32x8[2]
      attr %1:u32x8
      wlr %6:u32x8
      hw %7:u32x8@g0
      block0:
         %6 = mov %7 {WE_all}
         %6.8 = mov(1) 0:u32 {WE_all}
         %6.12 = add(1) %7.12, 256:u32 {WE_all}
         %8:u32x8[2] = load_payload %0:u32, %0[1]:u32
         %5:f32x8[4] = send 2:u32, 0x24b8401:u32, 128:u32, %6, %8
         %9:u32x8 = load_payload %1
         _ = send 12:u32, 0x2026002:u32, 256:u32, %9, %5 {side_effects}
         %10:u32x8 = mov %7 {WE_all}
         _ = send 7:u32, 0x2000010:u32, 0:u32, %10, _ {WE_all, EOT, side_effects}
   )"));
}

TEST(lower_forms, payload_slots_take_constants_as_immediates)
{
   /* Each slot is a mov either way; reading the immediate leaves the
    * constant's own register to dce when nothing else reads it (%2 is
    * also read by the add).  The colour goes as one payload: %1 in its
    * first and third slots would put one value on both sides of a split.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = mov 0.5:f32
         %2:f32x8 = mov 1.0:f32
         %3:f32x8 = add %0, %2
         %4:f32x8[4] = load_payload %1, %3, %1, %2
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 4:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %1:f32x8 = mov 0.5:f32
         %2:f32x8 = mov 1.0:f32
         %3:f32x8 = add %0, %2
         %4:f32x8[4] = load_payload 0.5:f32, %3, 0.5:f32, 1.0:f32
         _ = send 5:u32, 0x8031400:u32, 0:u32, %4, _ {EOT}
   )"));
}
