/*
 * Thread payloads, checked the way brw reads them: the instruction
 * sequences below are the ones brw_fs_visitor.cpp / brw_fs.cpp emit for
 * pixel coordinates, front facing, interpolation and workgroup ids.
 */
#include "sim/tests/sim_test.h"

using namespace ibis::sim;
using namespace ibis::sim::test;

TEST(sim_payload, vs_layout)
{
   vs_payload p;
   p.num_vertices = 5;
   p.vue_size = 6;
   p.push = { 11, 12, 13, 14, 15, 16, 17, 18, 19 };   /* two registers */
   p.attributes.resize(2);
   for (unsigned s = 0; s < 2; s++)
      for (unsigned k = 0; k < 4; k++)
         for (unsigned c = 0; c < 8; c++)
            p.attributes[s][k][c] = 100 * s + 10 * k + c;
   payload_layout l;
   machine m;
   m.t = make_vs_thread(p, &l);
   EXPECT_EQ(m.t.dispatch_mask, 0x1fu);
   EXPECT_EQ(l.push_reg, 2u);
   EXPECT_EQ(l.push_regs, 2u);
   EXPECT_EQ(l.attr_reg, 4u);
   m.run(R"(
add(8)   g40<1>UD   g1<8,8,1>UD   g2.1<0,1,0>UD  { align1 1Q };
add(8)   g41<1>UD   g11<8,8,1>UD  g3.0<0,1,0>UD  { align1 1Q };
)");
   for (unsigned c = 0; c < 5; c++) {
      EXPECT_EQ(m.ud(40, c), 6 * c + 12);              /* URB handle + push[1] */
      EXPECT_EQ(m.ud(41, c), 100 + 30 + c + 19);       /* attr 1 .w + push[8] */
   }
   EXPECT_EQ(m.ud(40, 5), 0u);   /* not dispatched */
}

static fs_payload
fs16()
{
   fs_payload p;
   p.simd = 16;
   p.dispatch_mask = 0xfff7;
   p.subspans = { { 10, 20 }, { 12, 20 }, { 10, 22 }, { 12, 22 } };
   p.front_facing = false;
   p.bary_modes = 1u << bary_persp_pixel | 1u << bary_nonpersp_pixel;
   for (unsigned ch = 0; ch < 16; ch++) {
      p.bary[bary_persp_pixel][ch] = { 0.01f * ch, 0.5f };
      p.bary[bary_nonpersp_pixel][ch] = { 0.25f, 0.02f * ch };
   }
   p.push = { 0x3f800000 };
   p.attributes.resize(1);
   p.attributes[0][1] = { 2.0f, 4.0f, 8.0f };   /* y = 2u + 4v + 8 */
   return p;
}

TEST(sim_payload, fs_pixel_coordinates_as_brw_computes_them)
{
   payload_layout l;
   machine m;
   m.t = make_fs_thread(fs16(), &l);
   /* emit_interpolation_setup_gfx6 (Gen8+): one add(32) over g1.4<1,4,0>UW
    * with 0x11001010V, then PIXEL_X/PIXEL_Y pick X and Y halves.
    */
   m.run(R"(
add(32)  g10<1>UW   g1.4<1,4,0>UW  0x11001010V   { align1 WE_all };
mov(8)   g14<1>F    g10<8,4,1>UW                 { align1 WE_all 1Q };
mov(8)   g15<1>F    g11<8,4,1>UW                 { align1 WE_all 2Q };
mov(8)   g16<1>F    g10.4<8,4,1>UW               { align1 WE_all 1Q };
mov(8)   g17<1>F    g11.4<8,4,1>UW               { align1 WE_all 2Q };
and(1)   g18<1>UD   g0<0,1,0>UD   0x00008000UD   { align1 WE_all 1N };
mov(1)   g20<1>UW   g1.14<0,1,0>UW               { align1 WE_all 1N };
)");
   for (unsigned ch = 0; ch < 16; ch++) {
      unsigned s = ch / 4;
      float x = 10 + 2 * (s % 2) + (ch & 1), y = 20 + 2 * (s / 2) + ((ch >> 1) & 1);
      EXPECT_EQ(m.t.read<float>(14 + ch / 8, ch % 8), x) << ch;
      EXPECT_EQ(m.t.read<float>(16 + ch / 8, ch % 8), y) << ch;
      EXPECT_EQ(m.t.pixel_x[ch], int(x));
      EXPECT_EQ(m.t.pixel_y[ch], int(y));
   }
   /* Back facing: g0.0 bit 15 set. */
   EXPECT_EQ(m.ud(18, 0), 0x8000u);
   EXPECT_EQ(m.uw(20, 0), 0xfff7u);   /* g1.7: dispatch mask */
}

TEST(sim_payload, fs_barycentrics_push_and_attributes)
{
   payload_layout l;
   machine m;
   fs_payload p = fs16();
   m.t = make_fs_thread(p, &l);
   /* g0, g1, persp pixel g2-5, nonpersp pixel g6-9, push g10, attrs g11. */
   EXPECT_EQ(l.bary_reg[bary_persp_pixel][0], 2);
   EXPECT_EQ(l.bary_reg[bary_nonpersp_pixel][0], 6);
   EXPECT_EQ(l.bary_reg[bary_persp_centroid][0], -1);
   EXPECT_EQ(l.push_reg, 10u);
   EXPECT_EQ(l.attr_reg, 11u);
   /* Component 1 of slot 0 is at g11.4 (second half of the register). */
   m.run(R"(
pln(16)  g40<1>F    g11.4<0,1,0>F  g2<8,8,1>F    { align1 1H };
pln(16)  g42<1>F    g11.4<0,1,0>F  g6<8,8,1>F    { align1 1H };
mul(16)  g44<1>F    g10<0,1,0>F    g40<8,8,1>F   { align1 1H };
)");
   for (unsigned ch = 0; ch < 16; ch++) {
      if (ch == 3)
         continue;   /* not dispatched */
      float want = 2.0f * (0.01f * ch) + 4.0f * 0.5f + 8.0f;
      EXPECT_FLOAT_EQ(m.t.read<float>(40 + ch / 8, ch % 8), want) << ch;
      EXPECT_FLOAT_EQ(m.t.read<float>(42 + ch / 8, ch % 8),
                      2.0f * 0.25f + 4.0f * (0.02f * ch) + 8.0f) << ch;
      EXPECT_FLOAT_EQ(m.t.read<float>(44 + ch / 8, ch % 8), want) << ch;
   }
   EXPECT_EQ(m.t.read<float>(40, 3), 0.0f);
}

TEST(sim_payload, fs_simd32_second_half_and_depth)
{
   fs_payload p;
   p.simd = 32;
   p.dispatch_mask = 0x8000ffff;
   for (unsigned s = 0; s < 8; s++)
      p.subspans.push_back({ uint16_t(2 * s), 0 });
   p.bary_modes = 1u << bary_persp_pixel;
   p.src_depth = true;
   for (unsigned ch = 0; ch < 32; ch++)
      p.depth[ch] = 0.5f + ch;
   payload_layout l;
   thread t = make_fs_thread(p, &l);
   /* g1, g2 per half; then per half: barycentrics (4), depth (2). */
   EXPECT_EQ(l.bary_reg[bary_persp_pixel][0], 3);
   EXPECT_EQ(l.depth_reg[0], 7);
   EXPECT_EQ(l.bary_reg[bary_persp_pixel][1], 9);
   EXPECT_EQ(l.depth_reg[1], 13);
   EXPECT_EQ(t.read<uint32_t>(2, 7), 0x8000u);
   EXPECT_EQ(t.read<uint16_t>(2, 4), 8u);    /* subspan 4 x */
   EXPECT_EQ(t.read<float>(14, 7), 31.5f);   /* depth of channel 31 */
   EXPECT_EQ(l.push_reg, 15u);
}

TEST(sim_payload, cs_workgroup_and_local_ids)
{
   cs_payload p;
   p.simd = 16;
   p.workgroup_id = { 3, 4, 5 };
   p.local_size = { 5, 4, 1 };   /* 20 invocations: thread 1 has 4 */
   p.subgroup_id = 1;
   p.push = { 7, 8 };
   p.local_ids_in_payload = true;
   payload_layout l;
   machine m;
   m.t = make_cs_thread(p, &l);
   EXPECT_EQ(m.t.dispatch_mask, 0xfu);
   EXPECT_EQ(l.local_id_reg, 1u);
   EXPECT_EQ(l.push_reg, 7u);
   EXPECT_EQ(l.subgroup_id_dword, 8u * 8u);
   /* emit_work_group_id_setup: g0.1, g0.6, g0.7. */
   m.run(R"(
mov(1)   g40<1>UD   g0.1<0,1,0>UD                { align1 WE_all 1N };
mov(1)   g40.1<1>UD g0.6<0,1,0>UD                { align1 WE_all 1N };
mov(1)   g40.2<1>UD g0.7<0,1,0>UD                { align1 WE_all 1N };
mov(1)   g40.3<1>UD g8<0,1,0>UD                  { align1 WE_all 1N };
add(16)  g42<1>UD   g1<8,8,1>UD   g7.1<0,1,0>UD  { align1 1H };
)");
   EXPECT_EQ(m.ud(40, 0), 3u);
   EXPECT_EQ(m.ud(40, 1), 4u);
   EXPECT_EQ(m.ud(40, 2), 5u);
   EXPECT_EQ(m.ud(40, 3), 1u);   /* subgroup id */
   /* Invocations 16..19: x = 1, 2, 3, 4 (y = 3); plus push[1] = 8. */
   for (unsigned c = 0; c < 4; c++) {
      EXPECT_EQ(m.ud(42, c), (16 + c) % 5 + 8);
      EXPECT_EQ(m.t.read<uint32_t>(3, c), (16 + c) / 5);   /* y ids */
   }
   EXPECT_EQ(m.ud(42, 4), 0u);
}
