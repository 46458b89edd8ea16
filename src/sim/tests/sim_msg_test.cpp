/*
 * Shared-function messages.  Descriptors are spelled out in hex with
 * their fields worked out from brw_eu.h in the comment beside each.
 */
#include "sim/tests/sim_test.h"

using namespace ibis::sim;
using namespace ibis::sim::test;

static std::vector<uint8_t>
words(std::initializer_list<uint32_t> v)
{
   std::vector<uint8_t> out;
   for (uint32_t w : v) {
      for (unsigned b = 0; b < 4; b++)
         out.push_back(uint8_t(w >> (8 * b)));
   }
   return out;
}

static uint32_t
word(const std::vector<uint8_t> &buf, size_t off)
{
   uint32_t v;
   std::memcpy(&v, &buf[off], 4);
   return v;
}

TEST(sim_msg, urb_simd8_write_and_eot)
{
   vs_payload p;
   p.num_vertices = 3;
   p.vue_size = 4;
   machine m;
   m.t = make_vs_thread(p);
   for (unsigned i = 0; i < 8; i++) {
      for (unsigned k = 0; k < 4; k++)
         m.t.write<float>(11 + k, i, float(10 * i + k));
      m.t.write<uint32_t>(16, i, i == 1 ? 0x5u << 16 : 0xfu << 16);   /* masks */
   }
   /* 0x0a080017: mlen 5, header, global offset 1, SIMD8 write (7).
    * 0x0c088007: mlen 6, header, channel mask present (bit 15), offset 0.
    */
   result r = m.run(R"(
mov(8)   g10<1>UD   g1<8,8,1>UD                  { align1 1Q };
mov(8)   g15<1>UD   g1<8,8,1>UD                  { align1 1Q };
mov(8)   g17<1>F    g11<8,8,1>F                  { align1 1Q };
mov(8)   g18<1>F    g12<8,8,1>F                  { align1 1Q };
mov(8)   g19<1>F    g13<8,8,1>F                  { align1 1Q };
mov(8)   g20<1>F    g14<8,8,1>F                  { align1 1Q };
send(8)  null<1>F   g15<8,8,1>F   0x0c088007  urb   { align1 1Q };
send(8)  null<1>F   g10<8,8,1>F   0x0a080017  urb   { align1 1Q EOT };
mov(8)   g30<1>F    0x3f800000F                  { align1 1Q };
)");
   EXPECT_TRUE(r.eot);
   EXPECT_EQ(m.ud(30, 0), 0u);   /* nothing runs after EOT */
   /* Vertex i: slot 1 at OWord 4i + 1. */
   for (unsigned i = 0; i < 3; i++) {
      for (unsigned k = 0; k < 4; k++) {
         EXPECT_EQ(bits_to_float(word(m.mem.urb, (4 * i + 1) * 16 + 4 * k)), float(10 * i + k));
         /* Slot 0 through the mask: vertex 1 wrote x and z only. */
         float want = i == 1 && (k == 1 || k == 3) ? 0.0f : float(10 * i + k);
         EXPECT_EQ(bits_to_float(word(m.mem.urb, (4 * i) * 16 + 4 * k)), want);
      }
   }
   /* Channels 3..7 were not dispatched. */
   EXPECT_LE(m.mem.urb.size(), size_t(3 * 64));
}

static fs_payload
quad_payload(unsigned simd)
{
   fs_payload p;
   p.simd = simd;
   for (unsigned s = 0; s < simd / 4; s++)
      p.subspans.push_back({ uint16_t(4 + 2 * s), 6 });
   return p;
}

TEST(sim_msg, render_target_write_simd8)
{
   fs_payload p = quad_payload(8);
   p.dispatch_mask = 0xbf;   /* channel 6 not dispatched */
   machine m;
   m.t = make_fs_thread(p);
   for (unsigned i = 0; i < 8; i++) {
      for (unsigned k = 0; k < 4; k++)
         m.t.write<float>(10 + k, i, float(i) + 0.25f * k);
   }
   /* 0x08031400: mlen 4, RT write (12 << 14), SIMD8 (4 << 8), last RT. */
   result r = m.run(R"(
send(8)  null<1>F   g10<8,8,1>F   0x08031400  render   { align1 1Q EOT };
)");
   EXPECT_TRUE(r.eot);
   const auto &rt = m.mem.rt.at(0);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(rt[i].written, i != 6) << i;
      if (i == 6)
         continue;
      EXPECT_EQ(rt[i].x, int(4 + 2 * (i / 4) + (i & 1)));
      EXPECT_EQ(rt[i].y, int(6 + ((i >> 1) & 1)));
      for (unsigned k = 0; k < 4; k++)
         EXPECT_EQ(bits_to_float(rt[i].color[k]), float(i) + 0.25f * k);
   }
}

TEST(sim_msg, render_target_write_simd16_header_discard_depth)
{
   fs_payload p = quad_payload(16);
   machine m;
   m.t = make_fs_thread(p);
   m.mem.fs.depth = true;
   for (unsigned i = 0; i < 16; i++) {
      for (unsigned k = 0; k < 4; k++)
         m.t.write<float>(22 + 2 * k + i / 8, i % 8, float(100 * k + i));
      m.t.write<float>(30 + i / 8, i % 8, 0.5f + i);
   }
   /* Header g20-g21 from g0-g1 with pixel mask (dword 15) 0x00f3.
    * 0x180b1003: mlen 12 (2 + 8 + 2), header, RT write, SIMD16 (0),
    * last RT, BTI 3.
    */
   m.run(R"(
mov(16)  g20<1>UD   g0<8,8,1>UD                  { align1 WE_all 1H };
mov(1)   g21.7<1>UD 0x000000f3UD                 { align1 WE_all 1N };
send(16) null<1>F   g20<8,8,1>F   0x180b1003  render   { align1 1H EOT };
)");
   const auto &rt = m.mem.rt.at(3);
   for (unsigned i = 0; i < 16; i++) {
      bool live = (0xf3 >> i) & 1;
      EXPECT_EQ(rt[i].written, live) << i;
      if (!live)
         continue;
      EXPECT_EQ(bits_to_float(rt[i].color[2]), float(200 + i));
      EXPECT_TRUE(rt[i].has_depth);
      EXPECT_EQ(rt[i].depth, 0.5f + i);
   }
}

static surface
texture_4x4()
{
   /* rgba32_float, 4x4 level 0 texel (x, y, x + 10y, 1); 2x2 level 1
    * texel (100 + x, 100 + y, 0, 1).
    */
   surface s;
   s.texture = true;
   s.fmt = format::rgba32_float;
   s.width = s.height = 4;
   s.levels = 2;
   std::vector<float> f;
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++)
         f.insert(f.end(), { float(x), float(y), float(x + 10 * y), 1.0f });
   for (unsigned y = 0; y < 2; y++)
      for (unsigned x = 0; x < 2; x++)
         f.insert(f.end(), { 100.0f + x, 100.0f + y, 0.0f, 1.0f });
   s.data.resize(f.size() * 4);
   std::memcpy(s.data.data(), f.data(), s.data.size());
   return s;
}

TEST(sim_msg, sampler_sample_ld_resinfo)
{
   machine m;
   m.mem.surfaces[1] = texture_4x4();
   m.mem.samplers[0] = sampler_state();                 /* nearest, repeat */
   sampler_state lin;
   lin.mag = lin.min = filter::linear;
   lin.wrap_s = lin.wrap_t = wrap::clamp;
   m.mem.samplers[1] = lin;
   const float u[8] = { 0.125f, 0.375f, 0.875f, 1.125f, 0.5f, 0.0f, 0.5f, -0.125f };
   const float v[8] = { 0.125f, 0.375f, 0.625f, 0.125f, 0.125f, 0.125f, 0.5f, 0.125f };
   for (unsigned i = 0; i < 8; i++) {
      m.t.write<float>(2, i, u[i]);
      m.t.write<float>(3, i, v[i]);
      m.t.write<int32_t>(4, i, int32_t(i % 4));   /* ld x */
      m.t.write<int32_t>(5, i, int32_t(i / 4));   /* ld y */
      m.t.write<int32_t>(6, i, i == 7 ? 1 : 0);   /* ld lod */
      m.t.write<float>(7, i, 1.0f);               /* sample_l lod */
      m.t.write<float>(8, i, u[i]);
      m.t.write<float>(9, i, v[i]);
   }
   m.t.write<int32_t>(4, 6, 9);                   /* out of bounds */
   m.t.write<int32_t>(4, 7, 1);                   /* (1, 1) at level 1 */
   /* sample: 0x04420001 mlen 2 rlen 4 SIMD8 type 0 BTI 1 sampler 0.
    * sample via sampler 1: 0x04420101.  ld: 0x06427001 (u, v, lod).
    * sample_l: 0x06422001 (lod, u, v).  resinfo: 0x0242a001.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x04420001  sampler  { align1 1Q };
send(8)  g24<1>UW   g2<8,8,1>UD   0x04420101  sampler  { align1 1Q };
send(8)  g28<1>UW   g4<8,8,1>UD   0x06427001  sampler  { align1 1Q };
send(8)  g32<1>UW   g7<8,8,1>UD   0x06422001  sampler  { align1 1Q };
send(8)  g36<1>UW   g6<8,8,1>UD   0x0242a001  sampler  { align1 1Q };
)");
   /* Nearest with repeat: floor(u * 4) mod 4. */
   const unsigned nx[8] = { 0, 1, 3, 0, 2, 0, 2, 3 }, ny[8] = { 0, 1, 2, 0, 0, 0, 2, 0 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.f(20, i), float(nx[i])) << i;
      EXPECT_EQ(m.f(21, i), float(ny[i])) << i;
      EXPECT_EQ(m.f(22, i), float(nx[i] + 10 * ny[i])) << i;
      EXPECT_EQ(m.f(23, i), 1.0f) << i;
   }
   /* Bilinear, clamp: u = 0.5 is halfway between texels 1 and 2. */
   EXPECT_EQ(m.f(24, 4), 1.5f);
   EXPECT_EQ(m.f(25, 4), 0.0f);
   EXPECT_EQ(m.f(24, 6), 1.5f);
   EXPECT_EQ(m.f(25, 6), 1.5f);
   EXPECT_EQ(m.f(26, 6), 16.5f);
   EXPECT_EQ(m.f(24, 5), 0.0f);    /* clamped at the edge */
   EXPECT_EQ(m.f(24, 0), 0.0f);    /* u = 0.125: texel center */
   /* ld: integer texel; out of bounds returns zeros; level 1 via lod. */
   EXPECT_EQ(m.f(28, 1), 1.0f);
   EXPECT_EQ(m.f(29, 5), 1.0f);
   EXPECT_EQ(m.f(30, 5), 11.0f);
   EXPECT_EQ(m.f(31, 6), 0.0f);
   EXPECT_EQ(m.f(28, 7), 101.0f);
   /* sample_l at lod 1: level 1 (2x2). */
   EXPECT_EQ(m.f(32, 2), 101.0f);
   EXPECT_EQ(m.f(33, 2), 101.0f);
   /* resinfo: width, height, depth (0 for 2D), levels. */
   EXPECT_EQ(m.ud(36, 0), 4u);
   EXPECT_EQ(m.ud(37, 0), 4u);
   EXPECT_EQ(m.ud(38, 0), 0u);
   EXPECT_EQ(m.ud(39, 0), 2u);
   EXPECT_EQ(m.ud(36, 7), 2u);
}

/* Linear mip filtering blends the two levels around the LOD by its
 * fraction; nearest picks one; none stays on level 0 (random vs seed 159:
 * a txl at LOD 0.75 read level 1 alone).
 */
TEST(sim_msg, sampler_mip_filter_modes)
{
   machine m;
   m.mem.surfaces[1] = texture_4x4();
   sampler_state lin, nearest, none;
   lin.mip = mip_filter::linear;
   nearest.mip = mip_filter::nearest;
   none.mip = mip_filter::none;
   m.mem.samplers[0] = lin;
   m.mem.samplers[1] = nearest;
   m.mem.samplers[2] = none;
   for (unsigned i = 0; i < 8; i++) {
      m.t.write<float>(2, i, i < 4 ? 0.75f : 0.25f);   /* lod */
      m.t.write<float>(3, i, 0.125f);                  /* u: texel 0 */
      m.t.write<float>(4, i, 0.125f);                  /* v */
   }
   /* sample_l (lod, u, v): 0x06422001 with sampler 0, 1, 2. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06422001  sampler  { align1 1Q };
send(8)  g24<1>UW   g2<8,8,1>UD   0x06422101  sampler  { align1 1Q };
send(8)  g28<1>UW   g2<8,8,1>UD   0x06422201  sampler  { align1 1Q };
)");
   /* Level 0 texel (0, 0) has x = 0, level 1 texel (0, 0) x = 100. */
   EXPECT_EQ(m.f(20, 0), 75.0f);
   EXPECT_EQ(m.f(20, 4), 25.0f);
   EXPECT_EQ(m.f(24, 0), 100.0f);
   EXPECT_EQ(m.f(24, 4), 0.0f);
   EXPECT_EQ(m.f(28, 0), 0.0f);
   EXPECT_EQ(m.f(28, 4), 0.0f);
}

/* sample_d / sample_d_c take the LOD from the gradients: log2 of the longer
 * texel-space derivative vector (texture_4x4: 4 texels a side).
 */
TEST(sim_msg, sampler_sample_d_gradients)
{
   machine m;
   m.mem.surfaces[1] = texture_4x4();
   m.mem.samplers[0] = sampler_state();           /* nearest, lequal */
   const float dudx[8] = { 0.25f, 0.5f, 0, 0.375f, 0, 0, 0, 0 };
   const float dvdx[8] = { 0, 0, 0, 0.5f, 0, 0, 0, 0 };
   const float dudy[8] = { 0, 0, 0, 0, 0.125f, 0, 0, 0 };
   const float dvdy[8] = { 0, 0, 0.5f, 0, 0, 0, 0, 0 };
   for (unsigned i = 0; i < 8; i++) {
      /* sample_d: g2.. u dudx dudy v dvdx dvdy. */
      m.t.write<float>(2, i, 0.375f);
      m.t.write<float>(3, i, dudx[i]);
      m.t.write<float>(4, i, dudy[i]);
      m.t.write<float>(5, i, 0.625f);
      m.t.write<float>(6, i, dvdx[i]);
      m.t.write<float>(7, i, dvdy[i]);
      /* sample_d_c: g10.. ref u dudx dudy v dvdx dvdy. */
      m.t.write<float>(10, i, 50.0f);
      m.t.write<float>(11, i, 0.375f);
      m.t.write<float>(12, i, dudx[i]);
      m.t.write<float>(13, i, dudy[i]);
      m.t.write<float>(14, i, 0.625f);
      m.t.write<float>(15, i, dvdx[i]);
      m.t.write<float>(16, i, dvdy[i]);
   }
   /* sample_d: mlen 6, rlen 4, SIMD8, type 4, BTI 1: 0x0C424001.
    * sample_d_c: mlen 7, rlen 1, SIMD8, type 20, BTI 1: 0x0E134001.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x0c424001  sampler  { align1 1Q };
send(8)  g24<1>UW   g10<8,8,1>UD  0x0e134001  sampler  { align1 1Q };
)");
   /* (u, v) = (0.375, 0.625) is texel (1, 2) = (1, 2, 21, 1) of level 0
    * and texel (0, 1) = (100, 101, 0, 1) of level 1.  LODs:
    * ch0 |(0.25 * 4, 0)| = 1 -> 0; ch1 |(2, 0)| -> 1; ch2 |(0, 2)| -> 1;
    * ch3 |(1.5, 2)| = 2.5 -> 1.32 -> level 1; ch4 0.5 -> -1 -> level 0;
    * ch5-7 no gradient -> -inf, clamped to min_lod 0.
    */
   const float want_r[8] = { 1, 100, 100, 100, 1, 1, 1, 1 };
   const float want_g[8] = { 2, 101, 101, 101, 2, 2, 2, 2 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.f(20, i), want_r[i]) << i;
      EXPECT_EQ(m.f(21, i), want_g[i]) << i;
      /* The comparison 50 <= R passes only on level 1 (R = 100). */
      EXPECT_EQ(m.f(24, i), want_r[i] == 100 ? 1.0f : 0.0f) << i;
   }
}

/* gather4 returns one channel of the 2x2 footprint in the order
 * R (i0,j1), G (i1,j1), B (i1,j0), A (i0,j0).
 */
TEST(sim_msg, sampler_gather4_forms)
{
   machine m;
   m.mem.surfaces[1] = texture_4x4();             /* texel (x, y, x + 10y, 1) */
   m.mem.samplers[0] = sampler_state();           /* repeat, lequal */
   m.fill_ud(40, 8, [](unsigned) { return 0u; });
   m.t.write<uint32_t>(40, 2, 0x00020100);        /* channel 2 (z), u offset +1 */
   m.set_f(41, { 0.375f, 0.0f });
   m.set_f(42, { 0.375f, 0.0f });
   /* gather4_po_c: g50.. ref u v offu offv. */
   m.set_f(50, { 0.5f, 2.5f });
   m.set_f(51, { 0.375f, 0.375f });
   m.set_f(52, { 0.375f, 0.375f });
   m.set_d(53, { -1, 0x42 });                     /* 0x42: low 6 bits = 2 */
   m.set_d(54, { 0, 0 });
   /* gather4: mlen 3, rlen 4, header, SIMD8, type 8, BTI 1: 0x064A8001.
    * gather4_po_c: mlen 5, rlen 4, SIMD8, type 18, BTI 1: 0x0A432001.
    */
   m.run(R"(
send(8)  g20<1>UW   g40<8,8,1>UD  0x064a8001  sampler  { align1 1Q };
send(8)  g24<1>UW   g50<8,8,1>UD  0x0a432001  sampler  { align1 1Q };
)");
   /* ch0: u * 4 - 0.5 = 1, so (i0, j0) = (1 + 1, 1): z of (2,2) (3,2)
    * (3,1) (2,1) = 22 23 13 12.
    * ch1: u = v = 0: (-1 + 1, -1) wraps to (0, 3): (0,0) (1,0) (1,3) (0,3)
    * = 0 1 31 30.
    */
   const float g0[4] = { 22, 23, 13, 12 }, g1[4] = { 0, 1, 31, 30 };
   for (unsigned k = 0; k < 4; k++) {
      EXPECT_EQ(m.f(20 + k, 0), g0[k]) << k;
      EXPECT_EQ(m.f(20 + k, 1), g1[k]) << k;
   }
   /* gather4_po_c, lequal on x: ch0 offset -1: (i0, j0) = (0, 1), x of
    * the corners 0 1 1 0 against ref 0.5 -> 0 1 1 0.  ch1 offset 2:
    * (3, 1), x = 3 0 0 3 against 2.5 -> 1 0 0 1.
    */
   const float c0[4] = { 0, 1, 1, 0 }, c1[4] = { 1, 0, 0, 1 };
   for (unsigned k = 0; k < 4; k++) {
      EXPECT_EQ(m.f(24 + k, 0), c0[k]) << k;
      EXPECT_EQ(m.f(24 + k, 1), c1[k]) << k;
   }
}

/* The LOD query: R = LOD after the sampler's clamps, G = before. */
TEST(sim_msg, sampler_lod_query)
{
   machine m;
   m.t.fragment = true;
   m.mem.surfaces[1] = texture_4x4();
   sampler_state ss;
   ss.max_lod = 0.5f;
   m.mem.samplers[0] = ss;
   m.set_f(2, { 0, 0.5f, 0, 0.5f, 0.25f, 0.25f, 0.25f, 0.25f });
   m.set_f(3, { 0, 0, 0.25f, 0.25f, 0.5f, 0.5f, 0.5f, 0.5f });
   /* lod: mlen 2, rlen 2, SIMD8, type 9, BTI 1: 0x04229001. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x04229001  sampler  { align1 1Q };
)");
   /* Quad 0: du/dx = 0.5 * 4 = 2, dv/dy = 0.25 * 4 = 1: rho 2, LOD 1,
    * clamped to 0.5.  Quad 1 is constant: log2(0) = -inf, clamped to 0.
    */
   for (unsigned i = 0; i < 4; i++) {
      EXPECT_EQ(m.f(20, i), 0.5f) << i;
      EXPECT_EQ(m.f(21, i), 1.0f) << i;
      EXPECT_EQ(m.f(20, 4 + i), 0.0f) << i;
      EXPECT_EQ(m.f(21, 4 + i), -INFINITY) << i;
   }
}

/* A cube's implicit LOD: how the face's (s, t) move across the quad, on
 * the face of its first pixel, as the interpreter (and GL) computes it.
 * From the raw direction (the model before) quad 0 was LOD 2 and quad 1
 * LOD 4, and tesseract 336-340's cube lookups sampled levels away from
 * the interpreter's.
 */
TEST(sim_msg, sampler_cube_lod_on_the_face)
{
   machine m;
   m.t.fragment = true;
   surface s;
   s.texture = true;
   s.cube = true;
   s.fmt = format::r32_float;
   s.width = s.height = 8;
   s.depth = 6;
   s.data.assign(8 * 8 * 6 * 4, 0);
   m.mem.surfaces[1] = s;
   m.mem.samplers[0] = sampler_state();
   /* +X face, |x| = 2 (quad 0) and 8 (quad 1): s and t move by 1/8 of
    * the face (one texel) to the right and down in both.
    */
   m.set_f(2, { 2, 2, 2, 2, 8, 8, 8, 8 });
   m.set_f(3, { 0, 0, -0.5f, -0.5f, 0, 0, -2, -2 });
   m.set_f(4, { 0, -0.5f, 0, -0.5f, 0, -2, 0, -2 });
   /* lod: mlen 3 (u v r), rlen 2, SIMD8, type 9, BTI 1: 0x06229001. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06229001  sampler  { align1 1Q };
)");
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(21, i), 0.0f) << i;
}

/* Pixel interpolator: barycentrics of memory.pi's triangle at a position
 * in each pixel.  Triangle (0,0) (8,0) (0,8): without perspective
 * I = x / 8, J = y / 8.
 */
static void
pi_setup(machine &m, unsigned simd, double w1, double w2)
{
   m.t.fragment = true;
   for (unsigned i = 0; i < simd; i++) {
      m.t.pixel_x[i] = int32_t(i);
      m.t.pixel_y[i] = 1;
   }
   m.mem.pi.valid = true;
   m.mem.pi.vertex = { { { 0, 0, 1 }, { 8, 0, w1 }, { 0, 8, w2 } } };
}

TEST(sim_msg, pixel_interpolator)
{
   machine m;
   pi_setup(m, 8, 1, 1);
   m.mem.pi.sample_pos[3] = { 0.25f, 0.75f };
   m.set_d(2, { -8, 7, 0, 0, 0, 0, 0, 0 });       /* x offsets, 1/16 pixel */
   m.set_d(3, { 4, 4, 4, 4, 4, 4, 4, 0x1f });     /* y; 0x1f: low 4 bits -1 */
   /* sample 3, no perspective: mlen 1, rlen 2, type 1 (13:12), 14,
    * index 3 in 7:4: 0x02205030.  Per-slot offsets: mlen 2, type 3:
    * 0x04207000.  sfid 11.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x02205030  pixel interp  { align1 1Q };
send(8)  g22<1>UW   g2<8,8,1>UD   0x04207000  pixel interp  { align1 1Q };
)");
   for (unsigned i = 0; i < 8; i++) {
      /* Sample 3 at (0.25, 0.75) of pixel (i, 1). */
      EXPECT_EQ(m.f(20, i), float((i + 0.25) / 8)) << i;
      EXPECT_EQ(m.f(21, i), float(1.75 / 8)) << i;
   }
   /* ch0: x 0.5 - 0.5 = 0; ch1: 1.5 + 7/16 = 1.9375; y 1.5 + 0.25. */
   EXPECT_EQ(m.f(22, 0), 0.0f);
   EXPECT_EQ(m.f(22, 1), float(1.9375 / 8));
   EXPECT_EQ(m.f(22, 2), float(2.5 / 8));
   EXPECT_EQ(m.f(23, 0), float(1.75 / 8));
   EXPECT_EQ(m.f(23, 7), float((1.5 - 1.0 / 16) / 8));

   /* Perspective, w = 1, 2, 4, shared offset (0, 0) (type 2: 0x02202000):
    * pixel (0, 1) centre has screen weights 0.75, 0.0625, 0.1875; divided
    * by w: 0.75, 0.03125, 0.046875, sum 0.828125: I = 2/53, J = 3/53.
    */
   machine p;
   pi_setup(p, 8, 2, 4);
   p.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x02202000  pixel interp  { align1 1Q };
)");
   EXPECT_EQ(p.f(20, 0), float(2.0 / 53));
   EXPECT_EQ(p.f(21, 0), float(3.0 / 53));

   /* SIMD16 per-slot offsets (bit 16; mlen 4, rlen 4: 0x08417000):
    * x block g2-g3, y block g4-g5, all zero; response I/J pairs per 8.
    */
   machine w(16);
   pi_setup(w, 16, 1, 1);
   w.run(R"(
send(16) g20<1>UW   g2<8,8,1>UD   0x08417000  pixel interp  { align1 1H };
)");
   for (unsigned i = 0; i < 16; i++) {
      EXPECT_EQ(w.f(20 + 2 * (i / 8), i % 8), float((i + 0.5) / 8)) << i;
      EXPECT_EQ(w.f(21 + 2 * (i / 8), i % 8), float(1.5 / 8)) << i;
   }
}

/* Varying pull constants: ld on a UBO's buffer surface (R32G32B32A32_FLOAT,
 * 1-byte pitch) takes a byte offset and returns the 16 bytes there.
 */
TEST(sim_msg, sampler_ld_buffer_surface)
{
   machine m;
   m.t.dispatch_mask = 0x7f;                      /* channel 7 not dispatched */
   surface ubo;                                   /* dword k = 100 + k */
   for (unsigned k = 0; k < 16; k++)
      for (unsigned b = 0; b < 4; b++)
         ubo.data.push_back(uint8_t((100 + k) >> (8 * b)));
   m.mem.surfaces[64] = ubo;
   m.set_d(2, { 0, 4, 16, 20, 60, 64, 2, 0 });
   for (unsigned r = 20; r < 24; r++)
      m.fill_ud(r, 8, [](unsigned) { return 0xdeadbeefu; });
   /* ld SIMD8: mlen 1 (25), rlen 4 (20), SIMD8 (17), type 7 (12), BTI 64:
    * 0x02427040.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x02427040  sampler  { align1 1Q };
)");
   /* Offset o reads dwords o/4 .. o/4 + 3, i.e. 100 + o/4 + k. */
   const unsigned aligned[5] = { 0, 4, 16, 20, 60 };
   for (unsigned i = 0; i < 4; i++)
      for (unsigned k = 0; k < 4; k++)
         EXPECT_EQ(m.ud(20 + k, i), 100 + aligned[i] / 4 + k) << i << k;
   /* Offset 60: dword 15 = 115, then bytes 64.. are past the data: 0. */
   EXPECT_EQ(m.ud(20, 4), 115u);
   EXPECT_EQ(m.ud(21, 4), 0u);
   EXPECT_EQ(m.ud(23, 4), 0u);
   /* Offset 64: element 64 of 64 is out of bounds, all four read 0. */
   for (unsigned k = 0; k < 4; k++)
      EXPECT_EQ(m.ud(20 + k, 5), 0u) << k;
   /* Offset 2: high half of dword 0 (100) and low half of dword 1 (101):
    * 100 >> 16 | 101 << 16 = 0x00650000.
    */
   EXPECT_EQ(m.ud(20, 6), 0x00650000u);
   EXPECT_EQ(m.ud(21, 6), 0x00660000u);   /* 102 << 16 */
   EXPECT_EQ(m.ud(20, 7), 0xdeadbeefu);   /* disabled channel untouched */

   /* SIMD16: mlen 2, rlen 8, SIMD16 (2 << 17): 0x04847040; component k of
    * channel i lands in g(30 + 2k + i / 8).
    */
   machine w(16);
   w.mem.surfaces[64] = ubo;
   w.fill_ud(2, 16, [](unsigned i) { return 4 * (i % 13); });
   w.run(R"(
send(16) g30<1>UW   g2<8,8,1>UD   0x04847040  sampler  { align1 1H };
)");
   for (unsigned i = 0; i < 16; i++)
      for (unsigned k = 0; k < 4; k++) {
         unsigned dw = i % 13 + k;
         EXPECT_EQ(w.ud(30 + 2 * k + i / 8, i % 8), dw < 16 ? 100 + dw : 0u) << i << k;
      }

   /* Only ld reads buffers: a sample (type 0, 0x02420040) is an error. */
   EXPECT_THROW(m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x02420040  sampler  { align1 1Q };
)"), ibis::error);
}

/* A 2D array: r picks the layer, clamp(floor(r + 0.5)). */
TEST(sim_msg, sampler_2d_array)
{
   machine m;
   surface s;
   s.texture = true;
   s.array = true;
   s.fmt = format::r32_float;
   s.width = 2;
   s.depth = 3;                                   /* layers */
   for (unsigned l = 0; l < 3; l++)
      for (unsigned x = 0; x < 2; x++) {
         auto w = words({ fbits(float(10 * l + x)) });
         s.data.insert(s.data.end(), w.begin(), w.end());
      }
   m.mem.surfaces[2] = s;
   m.mem.samplers[0] = sampler_state();
   m.set_f(2, { 0.75f, 0.75f, 0.75f, 0.75f, 0.25f, 0.25f, 0.25f, 0.25f });
   m.set_f(3, { 0, 0, 0, 0, 0, 0, 0, 0 });
   m.set_f(4, { 1.4f, 2.6f, -3.0f, 0.5f, 0.49f, 1.5f, 7.0f, 0.0f });
   m.set_d(10, { 1, 0, 1, 1, 0, 0, 0, 0 });       /* ld u */
   m.set_d(11, { 0, 0, 0, 0, 0, 0, 0, 0 });       /* v */
   m.set_d(12, { 0, 0, 0, 0, 0, 0, 0, 0 });       /* lod */
   m.set_d(13, { 2, 1, 3, -1, 0, 0, 0, 0 });      /* layer */
   /* sample, mlen 3 (u v r), rlen 1, BTI 2: 0x06120002 (type 0).
    * ld, mlen 4 (u v lod r), rlen 1: 0x08127002.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06120002  sampler  { align1 1Q };
send(8)  g21<1>UW   g10<8,8,1>UD  0x08127002  sampler  { align1 1Q };
)");
   /* Layers: 1.4 -> 1, 2.6 -> 2, -3 -> 0, 0.5 -> 1, 0.49 -> 0, 1.5 -> 2,
    * 7 -> 2, 0 -> 0; x = 1 for u = 0.75, 0 for 0.25.
    */
   const float want[8] = { 11, 21, 1, 11, 0, 20, 20, 0 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(20, i), want[i]) << i;
   /* ld: (1, layer 2) = 21, (0, 1) = 10; layers 3 and -1 are outside: 0. */
   EXPECT_EQ(m.f(21, 0), 21.0f);
   EXPECT_EQ(m.f(21, 1), 10.0f);
   EXPECT_EQ(m.f(21, 2), 0.0f);
   EXPECT_EQ(m.f(21, 3), 0.0f);
}

/* A 3D surface filters between slices too: linear is 8 taps (tesseract's
 * 3D lookups differed from the interpreter while it took the nearest one).
 */
TEST(sim_msg, sampler_3d_linear_blends_slices)
{
   machine m;
   surface s;
   s.texture = true;
   s.fmt = format::r32_float;
   s.width = s.height = 1;
   s.depth = 2;                                   /* slice z holds 10z */
   for (unsigned z = 0; z < 2; z++) {
      auto w = words({ fbits(float(10 * z)) });
      s.data.insert(s.data.end(), w.begin(), w.end());
   }
   m.mem.surfaces[2] = s;
   sampler_state lin;
   lin.mag = lin.min = filter::linear;
   lin.wrap_r = wrap::clamp;
   m.mem.samplers[0] = lin;
   m.set_f(2, { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f });
   m.set_f(3, { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f });
   m.set_f(4, { 0.25f, 0.5f, 0.75f, 0.375f, 0.0f, 1.0f, 0.625f, 0.5f });
   /* sample, mlen 3 (u v r), rlen 1, BTI 2. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06120002  sampler  { align1 1Q };
)");
   /* Slice centres at r = 0.25 and 0.75; clamped outside them. */
   const float want[8] = { 0, 5, 10, 2.5f, 0, 10, 7.5f, 5 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(20, i), want[i]) << i;
}

/* A cube: the face by the major axis, (s, t) from the GL face table. */
TEST(sim_msg, sampler_cube)
{
   machine m;
   surface s;
   s.texture = true;
   s.cube = true;
   s.fmt = format::r32_float;
   s.width = s.height = 2;
   s.depth = 6;
   for (unsigned f = 0; f < 6; f++)               /* texel 100f + 10y + x */
      for (unsigned y = 0; y < 2; y++)
         for (unsigned x = 0; x < 2; x++) {
            auto w = words({ fbits(float(100 * f + 10 * y + x)) });
            s.data.insert(s.data.end(), w.begin(), w.end());
         }
   m.mem.surfaces[3] = s;
   m.mem.samplers[0] = sampler_state();           /* nearest */
   m.set_f(2, { 1, 1, 0.5f, 0.5f, -1, 0.5f, -0.5f, 1 });
   m.set_f(3, { -0.5f, 0.5f, 1, -0.5f, -0.5f, -1, -0.5f, 1 });
   m.set_f(4, { -0.5f, 0.5f, -0.5f, -1, 0.5f, 0.5f, 1, 0 });
   /* sample, mlen 3 (u v r), rlen 1, BTI 3: 0x06120003. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06120003  sampler  { align1 1Q };
)");
   /* ch0 +X: s = (-z/|x| + 1)/2 = 0.75, t = (-y/|x| + 1)/2 = 0.75 -> (1,1).
    * ch1 +X: (0.25, 0.25) -> (0,0).  ch2 +Y: s = x -> 0.75, t = z -> 0.25.
    * ch3 -Z: s = -x -> 0.25, t = -y -> 0.75.  ch4 -X: s = z -> 0.75,
    * t = -y -> 0.75.  ch5 -Y: s = x -> 0.75, t = -z -> 0.25.  ch6 +Z:
    * s = x -> 0.25, t = -y -> 0.75.  ch7 (1, 1, 0): a tie goes to X:
    * s = 0.5 -> texel 1, t = 0 -> 0.
    */
   const float want[8] = { 11, 0, 201, 510, 111, 301, 410, 1 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(20, i), want[i]) << i;
}

/* Non-normalized coordinates (rectangle textures): u, v in texels. */
TEST(sim_msg, sampler_unnormalized_coordinates)
{
   machine m;
   m.mem.surfaces[1] = texture_4x4();             /* texel (x, y, x + 10y, 1) */
   sampler_state near;
   near.unnormalized = true;
   m.mem.samplers[0] = near;
   sampler_state lin = near;
   lin.mag = lin.min = filter::linear;
   lin.wrap_s = lin.wrap_t = wrap::clamp;
   m.mem.samplers[1] = lin;
   m.set_f(2, { 2.5f, 0.25f, 2.0f });
   m.set_f(3, { 1.5f, 3.75f, 0.5f });
   /* sample via sampler 0 and 1, mlen 2, rlen 4: 0x04420001, 0x04420101. */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x04420001  sampler  { align1 1Q };
send(8)  g24<1>UW   g2<8,8,1>UD   0x04420101  sampler  { align1 1Q };
)");
   /* Nearest: (2.5, 1.5) is texel (2, 1); (0.25, 3.75) is (0, 3). */
   EXPECT_EQ(m.f(22, 0), 12.0f);
   EXPECT_EQ(m.f(22, 1), 30.0f);
   /* Bilinear at (2.0, 0.5): halfway between texels 1 and 2 of row 0. */
   EXPECT_EQ(m.f(24, 2), 1.5f);
   EXPECT_EQ(m.f(25, 2), 0.0f);
}

TEST(sim_msg, sampler_shadow_compare)
{
   machine m;
   surface s;
   s.texture = true;
   s.fmt = format::r32_float;
   s.width = 2;
   s.height = 1;
   s.data = words({ fbits(0.25f), fbits(0.75f) });
   m.mem.surfaces[0] = s;
   m.mem.samplers[0] = sampler_state();   /* lequal */
   const float ref[8] = { 0.2f, 0.5f, 0.2f, 0.8f, 0.75f, 0.25f, 0, 1 };
   const float u[8] = { 0.25f, 0.25f, 0.75f, 0.75f, 0.75f, 0.25f, 0.25f, 0.25f };
   for (unsigned i = 0; i < 8; i++) {
      m.t.write<float>(2, i, ref[i]);
      m.t.write<float>(3, i, u[i]);
   }
   /* sample_c: 0x06123000 ref, u, v; rlen 1 (red only). */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x06123000  sampler  { align1 1Q };
)");
   const float want[8] = { 1, 0, 1, 0, 1, 1, 1, 0 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(20, i), want[i]) << i;
}

TEST(sim_msg, untyped_surface_read_write_atomic)
{
   machine m(16);
   m.t.dispatch_mask = 0xffff;
   surface buf;
   buf.data.resize(64 * 4);
   m.mem.surfaces[2] = buf;
   for (unsigned i = 0; i < 16; i++) {
      m.t.write<uint32_t>(2 + i / 8, i % 8, 4 * i);          /* address */
      m.t.write<uint32_t>(4 + i / 8, i % 8, 1000 + i);       /* data */
      m.t.write<uint32_t>(6, i % 8, 8 * (i % 8));            /* SIMD8 address */
      m.t.write<uint32_t>(7, i % 8, i % 8);                  /* data x */
      m.t.write<uint32_t>(8, i % 8, 50 + i % 8);             /* data y */
   }
   m.t.write<uint32_t>(6, 7, 1u << 20);                      /* out of bounds */
   /* SIMD16 write, 1 channel: 0x08025e02 (mlen 4, type 9, ctl 0x1e).
    * SIMD8 write, 2 channels: 0x06026c02 (mlen 3, type 9, ctl 0x2c) at 2Q.
    * SIMD8 read, 2 channels: 0x02206c02 (mlen 1, rlen 2, type 1, ctl 0x2c).
    * SIMD8 atomic add with return: 0x0410b702 (type 2, ctl 0x37).
    */
   m.run(R"(
send(16) null<1>UD  g2<8,8,1>UD   0x08025e02  dp data 1  { align1 1H };
send(8)  g10<1>UD   g6<8,8,1>UD   0x02206c02  dp data 1  { align1 1Q };
send(8)  null<1>UD  g6<8,8,1>UD   0x06026c02  dp data 1  { align1 2Q };
send(8)  g12<1>UD   g6<8,8,1>UD   0x02206c02  dp data 1  { align1 1Q };
send(8)  g14<1>UD   g6<8,8,1>UD   0x0410b702  dp data 1  { align1 1Q };
)");
   const auto &d = m.mem.surfaces[2].data;
   /* The first read sees the SIMD16 write: dword 2i, 2i+1. */
   for (unsigned i = 0; i < 7; i++) {
      EXPECT_EQ(m.ud(10, i), 1000 + 2 * i) << i;
      EXPECT_EQ(m.ud(11, i), 1001 + 2 * i) << i;
      EXPECT_EQ(m.ud(12, i), i) << i;         /* after the SIMD8 write */
      EXPECT_EQ(m.ud(13, i), 50 + i) << i;
      EXPECT_EQ(m.ud(14, i), i) << i;         /* atomic returns the old x */
      EXPECT_EQ(word(d, 8 * i), 2 * i) << i;  /* x + x */
   }
   EXPECT_EQ(m.ud(10, 7), 0u);                /* out of bounds reads 0 */
   EXPECT_EQ(word(d, 60), 1015u);             /* channel 7's SIMD8 ops were out of bounds */
}

/* Untyped atomic float max and min order -0.0 below +0.0 as sel.ge/sel.l
 * do, whichever of the old value and the operand is which; a number wins
 * over a NaN.  SIMD8 with return: 0x0416f102 (fmax) at BTI 2, 0x0416f203
 * (fmin) at BTI 3 (type 0x1b, ctl 0x31/0x32).
 */
TEST(sim_msg, untyped_atomic_float_min_max)
{
   machine m(8);
   const uint32_t old[8] = { 0, 0x80000000, 0x3f800000, 0x80000000, 0x7fc00000, 0, 0xbf800000, 0 };
   const uint32_t src[8] = { 0x80000000, 0, 0x80000000, 0x80000000, 0x40000000, 0x7fc00000, 0, 0 };
   surface a, b;
   a.data.resize(32);
   b.data.resize(32);
   for (unsigned i = 0; i < 8; i++) {
      memcpy(&a.data[4 * i], &old[i], 4);
      memcpy(&b.data[4 * i], &old[i], 4);
      m.t.write<uint32_t>(6, i, 4 * i);
      m.t.write<uint32_t>(7, i, src[i]);
   }
   m.mem.surfaces[2] = a;
   m.mem.surfaces[3] = b;
   m.run(R"(
send(8)  g10<1>UD   g6<8,8,1>UD   0x0416f102  dp data 1  { align1 1Q };
send(8)  g11<1>UD   g6<8,8,1>UD   0x0416f203  dp data 1  { align1 1Q };
)");
   const uint32_t max[8] = { 0, 0, 0x3f800000, 0x80000000, 0x40000000, 0, 0, 0 };
   const uint32_t min[8] = { 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x40000000, 0,
                             0xbf800000, 0 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(word(m.mem.surfaces[2].data, 4 * i), max[i]) << i;
      EXPECT_EQ(word(m.mem.surfaces[3].data, 4 * i), min[i]) << i;
      EXPECT_EQ(m.ud(10, i), old[i]) << i;
      EXPECT_EQ(m.ud(11, i), old[i]) << i;
   }
}

TEST(sim_msg, constant_block_read_scratch_barrier)
{
   machine m;
   surface ubo;
   for (unsigned k = 0; k < 16; k++) {
      auto w = words({ 0x100 + k });
      ubo.data.insert(ubo.data.end(), w.begin(), w.end());
   }
   m.mem.surfaces[3] = ubo;
   m.mem.scratch.resize(256);
   for (unsigned i = 0; i < 8; i++)
      m.t.write<uint32_t>(5, i, 7 * i);
   /* Constant cache OWord block read, 2 OWords at OWord 1: 0x02180203.
    * Scratch OWord block write (BTI 253, 2 OWords at OWord 4): 0x040a02fd.
    * Scratch block read, 1 register at HWord 2: 0x021c0002.
    * Gateway barrier: 0x02000004.  Thread spawner EOT: 0x02000010.
    */
   result r = m.run(R"(
mov(8)   g2<1>UD    g0<8,8,1>UD                  { align1 WE_all 1Q };
mov(1)   g2.2<1>UD  0x00000001UD                 { align1 WE_all 1N };
send(8)  g10<1>UW   g2<8,8,1>UD   0x02180203  const  { align1 WE_all 1Q };
mov(8)   g3<1>UD    g0<8,8,1>UD                  { align1 WE_all 1Q };
mov(1)   g3.2<1>UD  0x00000004UD                 { align1 WE_all 1N };
mov(8)   g4<1>UD    g5<8,8,1>UD                  { align1 WE_all 1Q };
send(8)  null<1>UW  g3<8,8,1>UD   0x040a02fd  data   { align1 WE_all 1Q };
send(8)  g11<1>UW   g0<8,8,1>UD   0x021c0002  data   { align1 WE_all 1Q };
send(8)  null<1>UD  g0<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };
send(8)  null<1>UD  g0<8,8,1>UD   0x02000010  thread_spawner { align1 WE_all 1Q EOT };
)");
   EXPECT_TRUE(r.eot);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.ud(10, i), 0x104 + i) << i;
      EXPECT_EQ(m.ud(11, i), 7 * i) << i;
   }
   EXPECT_EQ(m.mem.barriers, 1u);
}

/* DWord scattered scratch access (addresses in DWords), byte scattered
 * access (addresses in bytes, data in the low bits) and the fence.
 */
TEST(sim_msg, scattered_scratch_byte_and_fence)
{
   machine m;
   m.t.dispatch_mask = 0xbf;                      /* channel 6 off */
   m.fill_ud(2, 8, [](unsigned) { return 0u; });  /* header */
   m.set_d(3, { 0, 1, 2, 3, 10, 11, 12, 13 });
   m.fill_ud(4, 8, [](unsigned i) { return 0xa0 + i; });
   m.fill_ud(5, 8, [](unsigned) { return 0u; });
   m.set_d(6, { 13, 12, 11, 10, 3, 2, 1, 100 });
   m.fill_ud(20, 8, [](unsigned) { return 0xdeadbeefu; });
   m.fill_ud(30, 8, [](unsigned) { return 0xdeadbeefu; });
   /* DWord scattered write: mlen 3, header, type 11, 8 dwords (ctl 2),
    * BTI 253: 0x060ac2fd.  Read: mlen 2, rlen 1, type 3: 0x0418c2fd.
    * Fence with commit: mlen 1, rlen 1, header, type 7, ctl 0x20:
    * 0x0219e000.
    */
   m.run(R"(
send(8)  null<1>UW  g2<8,8,1>UD   0x060ac2fd  data   { align1 1Q };
send(8)  g20<1>UW   g5<8,8,1>UD   0x0418c2fd  data   { align1 1Q };
send(8)  g30<1>UW   g2<8,8,1>UD   0x0219e000  data   { align1 WE_all 1Q };
)");
   /* Dword 13 came from channel 7; 12 was channel 6's (off: still 0 in
    * the grown scratch); 100 is past the scratch (0); channel 6 unread.
    */
   const uint32_t want[8] = { 0xa7, 0, 0xa5, 0xa4, 0xa3, 0xa2, 0xdeadbeef, 0 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.ud(20, i), want[i]) << i;
   EXPECT_EQ(m.mem.scratch.size(), 56u);          /* up to dword 13 */
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.ud(30, i), 0u) << i;

   machine b;
   surface buf;
   for (unsigned k = 0; k < 16; k++)
      buf.data.push_back(uint8_t(k));
   b.mem.surfaces[5] = buf;
   b.set_d(8, { 1, 2, 20, 3, 4, 5, 6, 7 });
   b.set_d(9, { 0x1ff, 0xee, 0x55, 0x33, 0x34, 0x35, 0x36, 0x37 });
   b.set_d(10, { 0, 1, 14, 15, 3, 0, 0, 0 });
   /* Byte write: mlen 2, type 12, bytes, BTI 5: 0x04030005.  Word read:
    * mlen 1, rlen 1, type 4, data size 1 (ctl 4): 0x02110405.
    */
   b.run(R"(
send(8)  null<1>UW  g8<8,8,1>UD   0x04030005  data   { align1 1Q };
send(8)  g20<1>UW   g10<8,8,1>UD  0x02110405  data   { align1 1Q };
)");
   /* Bytes now 00 ff ee 33 34 35 36 37 08 .. 0f (address 20 dropped). */
   EXPECT_EQ(b.mem.surfaces[5].data.size(), 16u);
   EXPECT_EQ(b.ud(20, 0), 0xff00u);
   EXPECT_EQ(b.ud(20, 1), 0xeeffu);
   EXPECT_EQ(b.ud(20, 2), 0x0f0eu);
   EXPECT_EQ(b.ud(20, 3), 0u);                    /* 15..16 crosses the end */
   EXPECT_EQ(b.ud(20, 4), 0x3433u);
   EXPECT_EQ(b.ud(20, 7), 0xff00u);
}

/* Typed surface read, write and atomic on a 4x2 r32_uint image
 * (texel (x, y) = 10y + x), SIMD8, no header, coordinates u, v.
 */
TEST(sim_msg, typed_read_write_atomic)
{
   machine m;
   surface img;
   img.texture = true;
   img.fmt = format::r32_uint;
   img.width = 4;
   img.height = 2;
   for (unsigned y = 0; y < 2; y++)
      for (unsigned x = 0; x < 4; x++) {
         auto w = words({ 10 * y + x });
         img.data.insert(img.data.end(), w.begin(), w.end());
      }
   m.mem.surfaces[7] = img;
   m.set_d(2, { 0, 1, 2, 3, 4, 0, 1, 3 });        /* u; 4 is out of bounds */
   m.set_d(3, { 0, 0, 1, 1, 0, 1, 1, -1 });       /* v; -1 is out of bounds */
   m.fill_ud(4, 8, [](unsigned i) { return 100 + i; });
   m.set_d(10, { 0, 1, 2, 3, 4, 0, 1, 3 });
   m.set_d(11, { 0, 0, 1, 1, 0, 1, 1, -1 });
   m.fill_ud(12, 8, [](unsigned) { return 1u; });
   /* Read R (disabled 0xe, slot group 1 << 4: ctl 0x1e): mlen 2, rlen 1,
    * type 5, BTI 7: 0x04115e07.  Write: mlen 3, type 13: 0x06035e07.
    * Atomic add (op 7) with return (0x20): mlen 3, rlen 1, type 6:
    * 0x0611a707.
    */
   m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x04115e07  dp data 1  { align1 1Q };
send(8)  null<1>UW  g2<8,8,1>UD   0x06035e07  dp data 1  { align1 1Q };
send(8)  g21<1>UW   g10<8,8,1>UD  0x0611a707  dp data 1  { align1 1Q };
)");
   const uint32_t before[8] = { 0, 1, 12, 13, 0, 10, 11, 0 };
   const unsigned texel[8] = { 0, 1, 6, 7, ~0u, 4, 5, ~0u };   /* 4y + x */
   const auto &data = m.mem.surfaces[7].data;
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.ud(20, i), before[i]) << i;
      /* The atomic returns what the write left (100 + i), 0 outside. */
      EXPECT_EQ(m.ud(21, i), texel[i] == ~0u ? 0u : 100 + i) << i;
      if (texel[i] != ~0u) {
         EXPECT_EQ(word(data, 4 * texel[i]), 101 + i) << i;
      }
   }
   /* Texels 2 and 3 (row 0) were never addressed: unchanged. */
   EXPECT_EQ(word(data, 8), 2u);
   EXPECT_EQ(word(data, 12), 3u);
}

/* resinfo reports the height of a 2D surface one texel high when the
 * surface says it is 2D (dims), and none for 1D or buffer surfaces; a 2D
 * array's layers come third.  Typed reads address the layer with r.
 */
TEST(sim_msg, resinfo_surface_type_and_typed_array)
{
   machine m;
   surface img;
   img.texture = true;
   img.fmt = format::r32_sint;
   img.width = 3;
   img.height = 1;
   img.dims = 2;
   img.data = words({ 1, 2, 3 });
   m.mem.surfaces[1] = img;
   img.dims = 1;
   m.mem.surfaces[2] = img;
   surface arr = img;
   arr.dims = 2;
   arr.array = true;
   arr.width = 2;
   arr.depth = 2;
   arr.data = words({ 10, 11, 20, 21 });   /* layer 0: 10 11; layer 1: 20 21 */
   m.mem.surfaces[3] = arr;
   m.fill_ud(6, 8, [](unsigned) { return 0u; });                  /* lod */
   m.set_d(8, { 0, 1, 0, 1, 2, 0, 1, 0 });                        /* u */
   m.set_d(9, { 0, 0, 0, 0, 0, 0, 0, 1 });                        /* v */
   m.set_d(10, { 0, 0, 1, 1, 1, 2, -1, 0 });                      /* layer */
   /* resinfo on BTI 1, 2, 3: 0x0242a001 + BTI.  Typed read of R (ctl
    * 0x1e) with u, v, r: mlen 3, rlen 1, type 5: 0x06115e03.
    */
   m.run(R"(
send(8)  g20<1>UW   g6<8,8,1>UD   0x0242a001  sampler  { align1 1Q };
send(8)  g24<1>UW   g6<8,8,1>UD   0x0242a002  sampler  { align1 1Q };
send(8)  g28<1>UW   g6<8,8,1>UD   0x0242a003  sampler  { align1 1Q };
send(8)  g32<1>UW   g8<8,8,1>UD   0x06115e03  dp data 1  { align1 1Q };
)");
   EXPECT_EQ(m.ud(20, 0), 3u);
   EXPECT_EQ(m.ud(21, 0), 1u);
   EXPECT_EQ(m.ud(22, 0), 0u);
   EXPECT_EQ(m.ud(24, 0), 3u);
   EXPECT_EQ(m.ud(25, 0), 0u);
   EXPECT_EQ(m.ud(28, 0), 2u);
   EXPECT_EQ(m.ud(29, 0), 1u);
   EXPECT_EQ(m.ud(30, 0), 2u);
   /* Layer 2, layer -1, u 2 and v 1 are outside: 0. */
   const uint32_t want[8] = { 10, 11, 20, 21, 0, 0, 0, 0 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.ud(32, i), want[i]) << i;
}

/* Dual-source RT write (control 2, SIMD8): src0 RGBA then src1 RGBA. */
TEST(sim_msg, render_target_write_dual_source)
{
   fs_payload p = quad_payload(8);
   machine m;
   m.t = make_fs_thread(p);
   for (unsigned i = 0; i < 8; i++)
      for (unsigned k = 0; k < 8; k++)
         m.t.write<uint32_t>(10 + k, i, 100 * k + i);
   /* mlen 8, RT write (12 << 14), last RT (1 << 12), dual source low
    * (2 << 8): 0x10031200.  Control 3 (high half) on channels 0-7 is
    * inconsistent: 0x10031300.
    */
   m.run(R"(
send(8)  null<1>F   g10<8,8,1>F   0x10031200  render   { align1 1Q EOT };
)");
   const auto &rt = m.mem.rt.at(0);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_TRUE(rt[i].written && rt[i].dual) << i;
      for (unsigned k = 0; k < 4; k++) {
         EXPECT_EQ(rt[i].color[k], 100 * k + i) << i << k;
         EXPECT_EQ(rt[i].color1[k], 100 * (k + 4) + i) << i << k;
      }
   }
   EXPECT_THROW(m.run(R"(
send(8)  null<1>F   g10<8,8,1>F   0x10031300  render   { align1 1Q EOT };
)"), ibis::error);
}

TEST(sim_msg, unmodeled_message_is_an_error)
{
   machine m;
   /* Sampler gather4 (type 8). */
   EXPECT_THROW(m.run(R"(
send(8)  g20<1>UW   g2<8,8,1>UD   0x04428001  sampler  { align1 1Q };
)"), ibis::error);
   /* A surface that is not there. */
   EXPECT_THROW(m.run(R"(
send(8)  g10<1>UD   g6<8,8,1>UD   0x02206c09  dp data 1  { align1 1Q };
)"), ibis::error);
}

/* ---- A workgroup of threads: shared local memory and the barrier ---- */

/* Each SIMD8 thread of a 16-invocation group stores i + 100 at SLM dword
 * i (i = subgroup id * 8 + lane, the subgroup id pushed in g1.0), sends
 * the barrier (id from g0.2 bits 27:24), waits on n0, then reads dword
 * 15 - i (the other thread's) and stores it at dword 16 + i.
 */
static const char *const slm_exchange = R"(
mov(8)   g2<1>UW    0x76543210V                  { align1 WE_all 1Q };
mov(8)   g3<1>UD    g2<8,8,1>UW                  { align1 1Q };
mul(1)   g4<1>UD    g1<0,1,0>UD   0x00000008UD   { align1 WE_all 1N };
add(8)   g3<1>UD    g3<8,8,1>UD   g4<0,1,0>UD    { align1 1Q };
shl(8)   g5<1>UD    g3<8,8,1>UD   0x00000002UD   { align1 1Q };
add(8)   g6<1>UD    g3<8,8,1>UD   0x00000064UD   { align1 1Q };
send(8)  null<1>UD  g5<8,8,1>UD   0x04026efe  dp data 1 { align1 1Q };
mov(8)   g8<1>UD    0x00000000UD                 { align1 WE_all 1Q };
and(1)   g8.2<1>UD  g0.2<0,1,0>UD 0x0f000000UD   { align1 WE_all 1N };
send(8)  null<1>UD  g8<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };
wait(1)  n0<1>UD                                 { align1 WE_all 1N };
add(8)   g9<1>D     -g3<8,8,1>D   15D            { align1 1Q };
shl(8)   g9<1>UD    g9<8,8,1>UD   0x00000002UD   { align1 1Q };
send(8)  g12<1>UD   g9<8,8,1>UD   0x02106efe  dp data 1 { align1 1Q };
add(8)   g11<1>UD   g5<8,8,1>UD   0x00000040UD   { align1 1Q };
send(8)  null<1>UD  g11<8,8,1>UD  0x04026efe  dp data 1 { align1 1Q };
mov(8)   g127<1>UD  g0<8,8,1>UD                  { align1 WE_all 1Q };
send(8)  null<1>UD  g127<8,8,1>UD 0x02000010  thread_spawner { align1 WE_all 1Q EOT };
)";

static std::vector<thread>
cs_group(unsigned n, unsigned barrier_id)
{
   std::vector<thread> g;
   for (unsigned k = 0; k < n; k++) {
      cs_payload p;
      p.simd = 8;
      p.local_size = { 8 * n, 1, 1 };
      p.subgroup_id = k;
      p.barrier_id = barrier_id;
      g.push_back(make_cs_thread(p));
   }
   return g;
}

TEST(sim_group, threads_exchange_slm_words_across_the_barrier)
{
   std::vector<uint8_t> bin = ibis::isa::assemble(slm_exchange, ibis::isa::gen::gen9, false);
   memory mem;
   mem.surfaces[254].data.assign(128, 0);
   std::vector<thread> g = cs_group(2, 5);
   std::vector<result> r = run_group(bin, g, mem);
   ASSERT_EQ(r.size(), 2u);
   EXPECT_TRUE(r[0].eot && r[1].eot);
   EXPECT_EQ(mem.barriers, 2u);
   EXPECT_FALSE(mem.barrier_waits);
   for (unsigned i = 0; i < 16; i++) {
      EXPECT_EQ(word(mem.surfaces[254].data, 4 * i), 100 + i) << i;
      EXPECT_EQ(word(mem.surfaces[254].data, 4 * (16 + i)), 100 + (15 - i)) << i;
   }
   /* Each thread alone answers its barrier at once: thread 0 reads the
    * slots thread 1 has not written yet.
    */
   memory alone;
   alone.surfaces[254].data.assign(128, 0);
   std::vector<thread> h = cs_group(2, 5);
   run(bin, h[0], alone);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(word(alone.surfaces[254].data, 4 * i), 100 + i) << i;
      EXPECT_EQ(word(alone.surfaces[254].data, 4 * (16 + i)), 0u) << i;
   }
}

TEST(sim_group, a_thread_ending_without_the_barrier_is_a_deadlock)
{
   /* Thread 1 (subgroup id 1) skips the barrier: thread 0 waits for ever. */
   std::vector<uint8_t> bin = ibis::isa::assemble(R"(
cmp.z.f0.0(8)  null<1>UD  g1<0,1,0>UD  0x00000000UD   { align1 1Q };
(+f0.0) if(8)  JIP: 80    UIP: 80                     { align1 1Q };
mov(8)   g8<1>UD    0x00000000UD                 { align1 WE_all 1Q };
and(1)   g8.2<1>UD  g0.2<0,1,0>UD 0x0f000000UD   { align1 WE_all 1N };
send(8)  null<1>UD  g8<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };
wait(1)  n0<1>UD                                 { align1 WE_all 1N };
endif(8)       JIP: 16                                { align1 1Q };
mov(8)   g127<1>UD  g0<8,8,1>UD                  { align1 WE_all 1Q };
send(8)  null<1>UD  g127<8,8,1>UD 0x02000010  thread_spawner { align1 WE_all 1Q EOT };
)", ibis::isa::gen::gen9, false);
   memory mem;
   std::vector<thread> g = cs_group(2, 0);
   try {
      run_group(bin, g, mem);
      FAIL() << "no deadlock reported";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("workgroup deadlock: thread 0 waits at offset 0x50 "
                                           "after its barrier, thread 1 ended without the barrier"),
                std::string::npos)
         << e.what();
   }
   /* One thread: it sends the barrier, which is answered. */
   std::vector<thread> one = cs_group(1, 0);
   EXPECT_EQ(run_group(bin, one, mem).size(), 1u);
}

TEST(sim_group, the_barrier_message_carries_the_groups_barrier_id)
{
   /* The whole of g0 as the header: bits 27:24 of dword 2 are the id. */
   std::vector<uint8_t> bin = ibis::isa::assemble(R"(
send(8)  null<1>UD  g0<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };
wait(1)  n0<1>UD                                 { align1 WE_all 1N };
mov(1)   g0.2<1>UD  0x03000000UD                 { align1 WE_all 1N };
send(8)  null<1>UD  g0<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };
)", ibis::isa::gen::gen9, false);
   memory mem;
   std::vector<thread> g = cs_group(2, 9);
   try {
      run_group(bin, g, mem);
      FAIL() << "the wrong barrier id was accepted";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("thread 0 of the workgroup"), std::string::npos)
         << e.what();
      EXPECT_NE(std::string(e.what()).find("barrier id 3 in the message, the thread's group has 9"),
                std::string::npos)
         << e.what();
   }
   EXPECT_EQ(mem.barriers, 2u);
}

TEST(sim_group, a_wait_nothing_answers_is_an_error_alone)
{
   std::vector<uint8_t> bin = ibis::isa::assemble(R"(
wait(1)  n0<1>UD                                 { align1 WE_all 1N };
)", ibis::isa::gen::gen9, false);
   machine m;
   EXPECT_THROW(run(bin, m.t, m.mem), ibis::error);
   std::vector<thread> g = cs_group(2, 0);
   memory mem;
   EXPECT_THROW(run_group(bin, g, mem), ibis::error);
}
