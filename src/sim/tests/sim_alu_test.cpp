/*
 * ALU instructions, one class per test, with expected values worked out by
 * hand from the documented Gen9 semantics (docs/sim.md).
 */
#include <cstring>

#include "sim/tests/sim_test.h"

using namespace ibis::sim;
using namespace ibis::sim::test;

static const float qnan = std::nanf("");

TEST(sim_alu, mov_regions_and_immediates)
{
   machine m;
   m.set_d(2, { 10, 11, 12, 13, 14, 15, 16, 17 });
   m.run(R"(
mov(8)  g3<1>D   g2.1<0,1,0>D                    { align1 1Q };
mov(8)  g4<1>D   g2<4,4,0>D                      { align1 1Q };
mov(8)  g5<1>D   g2<2,4,1>D                      { align1 1Q };
mov(8)  g6<1>UW  0x76543210V                     { align1 1Q };
mov(8)  g7<2>W   0xfedcba98V                     { align1 1Q };
mov(4)  g8<1>F   0x3f302010VF                    { align1 1N };
mov(4)  g9<1>D   g2<8,2,4>D                      { align1 1N };
)");
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.d(3, i), 11);                        /* scalar broadcast */
      EXPECT_EQ(m.d(4, i), 10 + (i / 4) * 4);          /* hstride 0 rows */
      EXPECT_EQ(m.d(5, i), 10 + (i / 4) * 2 + i % 4);  /* overlapping rows */
      EXPECT_EQ(m.uw(6, i), i);
      /* 0xfedcba98V: nibble i is -8 + i... sign-extended, every other word. */
      EXPECT_EQ(int16_t(m.uw(7, 2 * i)), int16_t(int(i) - 8));
      EXPECT_EQ(m.uw(7, 2 * i + 1), 0);
   }
   /* VF bytes 0x10 = 0.25 (1.0 * 2^(1-3)), 0x20 = 0.5, 0x30 = 1, 0x3f = 1.9375. */
   EXPECT_EQ(m.f(8, 0), 0.25f);
   EXPECT_EQ(m.f(8, 1), 0.5f);
   EXPECT_EQ(m.f(8, 2), 1.0f);
   EXPECT_EQ(m.f(8, 3), 1.9375f);
   /* <8,2,4> with 4 channels: elements 0, 4 then 8, 12. */
   EXPECT_EQ(m.d(9, 0), 10);
   EXPECT_EQ(m.d(9, 1), 14);
   /* Elements 8 and 12 are in g3, written by the first mov. */
   EXPECT_EQ(m.d(9, 2), 11);
   EXPECT_EQ(m.d(9, 3), 11);
}

TEST(sim_alu, conversions)
{
   machine m;
   m.set_f(2, { 1.5f, -1.5f, 2.5f, -2.9f, 3e9f, -3e9f, qnan, 65520.0f });
   m.set_d(3, { 16777217, -16777217, 7, -1, 0, 1, 2147483647, -2147483647 - 1 });
   m.run(R"(
mov(8)  g4<1>D   g2<8,8,1>F                      { align1 1Q };
mov(8)  g5<1>UD  g2<8,8,1>F                      { align1 1Q };
mov(8)  g6<1>F   g3<8,8,1>D                      { align1 1Q };
mov(8)  g7<1>HF  g2<8,8,1>F                      { align1 1Q };
mov(8)  g8<1>F   g7<8,8,1>HF                     { align1 1Q };
mov(8)  g9<1>W   g3<8,8,1>D                      { align1 1Q };
mov(8)  g10<1>DF g2<8,8,1>F                      { align1 1Q };
mov(8)  g12<1>F  g10<4,4,1>DF                    { align1 1Q };
mov(8)  g13<1>UB g3<8,8,1>D                      { align1 1Q };
)");
   /* Float to integer: toward zero, saturating, NaN is 0. */
   const int32_t d[8] = { 1, -1, 2, -2, INT32_MAX, INT32_MIN, 0, 65520 };
   const uint32_t ud[8] = { 1, 0, 2, 0, 3000000000u, 0, 0, 65520 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.d(4, i), d[i]) << i;
      EXPECT_EQ(m.ud(5, i), ud[i]) << i;
   }
   /* Integer to float rounds to nearest even: 2^24 + 1 -> 2^24. */
   EXPECT_EQ(m.f(6, 0), 16777216.0f);
   EXPECT_EQ(m.f(6, 1), -16777216.0f);
   EXPECT_EQ(m.f(6, 6), 2147483648.0f);
   /* Half: 1.5 exact, 2.5 exact, 65520 rounds (to even) up to infinity. */
   EXPECT_EQ(m.uw(7, 0), 0x3e00);
   EXPECT_EQ(m.uw(7, 2), 0x4100);
   EXPECT_EQ(m.uw(7, 4), 0x7c00);   /* 3e9 overflows */
   EXPECT_EQ(m.uw(7, 7), 0x7c00);
   EXPECT_EQ(m.f(8, 1), -1.5f);
   EXPECT_TRUE(std::isnan(m.f(8, 6)));
   EXPECT_EQ(m.f(8, 3), -2.900390625f);   /* -2.9 to the nearest half */
   /* Integer narrowing truncates: 16777217 = 0x1000001 -> 1. */
   EXPECT_EQ(int16_t(m.uw(9, 0)), 1);
   EXPECT_EQ(int16_t(m.uw(9, 1)), -1);
   EXPECT_EQ(m.df(10, 0), 1.5);
   EXPECT_EQ(m.df(10, 3), double(-2.9f));
   EXPECT_EQ(m.f(12, 3), -2.9f);
   EXPECT_EQ(m.t.read<uint8_t>(13, 3), 0xff);
   EXPECT_EQ(m.t.read<uint8_t>(13, 1), 0xff);   /* -16777217 = 0x..fe..ff */
}

TEST(sim_alu, saturate_and_modifiers)
{
   machine m;
   m.set_f(2, { -0.5f, 0.25f, 1.5f, qnan, -qnan, INFINITY, -INFINITY, -0.0f });
   m.set_d(3, { 100, -100, 300, -300, 255, 0, INT32_MIN, 5 });
   m.run(R"(
mov.sat(8)  g4<1>F   g2<8,8,1>F                  { align1 1Q };
mov.sat(8)  g5<1>UB  g3<8,8,1>D                  { align1 1Q };
mov.sat(8)  g6<1>B   g3<8,8,1>D                  { align1 1Q };
add(8)      g7<1>F   -g2<8,8,1>F   (abs)g2<8,8,1>F { align1 1Q };
mov(8)      g8<1>D   (abs)g3<8,8,1>D             { align1 1Q };
add.sat(8)  g9<1>UD  g3<8,8,1>D    -g3<8,8,1>D   { align1 1Q };
)");
   const float sat[8] = { 0, 0.25f, 1, 0, 0, 1, 0, 0 };
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.f(4, i), sat[i]) << i;   /* NaN saturates to 0 */
   const uint8_t ub[8] = { 100, 0, 255, 0, 255, 0, 0, 5 };
   const int8_t b[8] = { 100, -100, 127, -128, 127, 0, -128, 5 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.t.read<uint8_t>(5, i), ub[i]) << i;
      EXPECT_EQ(m.t.read<int8_t>(6, i), b[i]) << i;
   }
   /* -x + |x|: 0 for x >= 0, 2|x| for x < 0. */
   EXPECT_EQ(m.f(7, 0), 1.0f);
   EXPECT_EQ(m.f(7, 1), 0.0f);
   EXPECT_TRUE(std::isnan(m.f(7, 3)));
   EXPECT_TRUE(std::isnan(m.f(7, 5)));   /* -inf + inf */
   EXPECT_EQ(m.f(7, 6), INFINITY);
   EXPECT_EQ(m.d(8, 1), 100);
   EXPECT_EQ(m.d(8, 6), INT32_MIN);   /* |INT_MIN| wraps */
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.ud(9, i), 0u);
}

/* Integer negation happens at the source's width (brw's lower_sub_sat):
 * 0 - INT_MIN saturates from INT_MIN, not from 2^31; W sources likewise.
 */
TEST(sim_alu, integer_negate_wraps_at_the_source_width)
{
   machine m;
   m.set_d(2, { INT32_MIN, INT32_MAX, -5, 0, 0, 0, 0, 0 });
   m.set_d(3, { 0, 0, 0, 0, 0, 0, 0, 0 });
   m.set_d(4, { 0x8000, 0x7fff, 3, 0, 0, 0, 0, 0 });
   m.run(R"(
add.sat(8)  g5<1>D   g3<8,8,1>D    -g2<8,8,1>D   { align1 1Q };
add.sat(8)  g6<1>W   g3<16,8,2>W   -g4<16,8,2>W  { align1 1Q };
)");
   EXPECT_EQ(m.d(5, 0), INT32_MIN);
   EXPECT_EQ(m.d(5, 1), -INT32_MAX);
   EXPECT_EQ(m.d(5, 2), 5);
   EXPECT_EQ(m.t.read<int16_t>(6, 0), INT16_MIN);
   EXPECT_EQ(m.t.read<int16_t>(6, 1), -INT16_MAX);
   EXPECT_EQ(m.t.read<int16_t>(6, 2), -3);
}

TEST(sim_alu, cmod_flags_and_predication)
{
   machine m;
   m.set_f(2, { 1, -1, 0, qnan, 2, -2, -0.0f, 5 });
   m.t.flag = { 0xffff0000u, 0 };
   m.run(R"(
cmp.l.f0.0(8)   null<1>F   g2<8,8,1>F   0x0F     { align1 1Q };
cmp.nz.f1.0(8)  g3<1>F     g2<8,8,1>F   0x0F     { align1 1Q };
mov(8)          g4<1>F     0x0F                  { align1 1Q };
(+f0.0) mov(8)  g4<1>F     g2<8,8,1>F            { align1 1Q };
(-f0.0) sel(8)  g5<1>F     g2<8,8,1>F   0x42c80000F { align1 1Q };
add.ge.f0.1(8)  g6<1>F     g2<8,8,1>F   0x3f800000F { align1 1Q };
)");
   /* .l: -1, -2 (channels 1, 5); NaN compares false. */
   EXPECT_EQ(m.t.flag[0] & 0xffff, 0x22u);
   /* .nz is true for NaN; -0 == 0. */
   EXPECT_EQ(m.t.flag[1] & 0xffff, 0xbbu);
   EXPECT_EQ(m.ud(3, 0), 0xffffffffu);
   EXPECT_EQ(m.ud(3, 2), 0u);
   EXPECT_EQ(m.f(4, 1), -1.0f);
   EXPECT_EQ(m.f(4, 0), 0.0f);
   /* Inverted predicate on SEL: src0 where the flag is clear. */
   EXPECT_EQ(m.f(5, 0), 1.0f);
   EXPECT_EQ(m.f(5, 1), 100.0f);
   /* x + 1 >= 0: all but -2 and NaN; written to f0.1 (bits 16-23). */
   EXPECT_EQ((m.t.flag[0] >> 16) & 0xff, 0xd7u);
}

TEST(sim_alu, simd16_groups_and_nomask)
{
   machine m(16);
   m.t.dispatch_mask = 0x0f0f;
   for (unsigned i = 0; i < 16; i++)
      m.t.write<float>(2 + i / 8, i % 8, float(i));
   m.run(R"(
mov(16)         g4<1>F     0x0F                  { align1 WE_all 1H };
mov(16)         g4<1>F     g2<8,8,1>F            { align1 1H };
cmp.ge.f0.0(8)  null<1>F   g3<8,8,1>F   0x41400000F { align1 2Q };
mov(8)          g6<1>F     0x40000000F           { align1 WE_all 2Q };
(+f0.0) mov(8)  g7<1>F     0x3f800000F           { align1 WE_all 2Q };
)");
   for (unsigned i = 0; i < 16; i++)
      EXPECT_EQ(m.t.read<float>(4 + i / 8, i % 8), (0x0f0f >> i) & 1 ? float(i) : 0.0f) << i;
   /* 2Q uses flag bits 8-15: channels 12..15 >= 12, but 12-15 are not
    * dispatched, so their bits stay clear.
    */
   EXPECT_EQ(m.t.flag[0] & 0xffff, 0u);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.f(6, i), 2.0f);      /* NoMask */
      EXPECT_EQ(m.f(7, i), 0.0f);      /* predicated off */
   }
}

TEST(sim_alu, min_max_nan)
{
   machine m;
   m.set_f(2, { 1, qnan, qnan, -0.0f, 3, -INFINITY, 2, 5 });
   m.set_f(3, { qnan, 2, qnan, 0.0f, 4, 1, 2, -5 });
   m.run(R"(
sel.l(8)   g4<1>F   g2<8,8,1>F   g3<8,8,1>F      { align1 1Q };
sel.ge(8)  g5<1>F   g2<8,8,1>F   g3<8,8,1>F      { align1 1Q };
)");
   EXPECT_EQ(m.f(4, 0), 1.0f);   /* NaN loses to a number */
   EXPECT_EQ(m.f(4, 1), 2.0f);
   EXPECT_TRUE(std::isnan(m.f(4, 2)));
   EXPECT_EQ(m.f(4, 4), 3.0f);
   EXPECT_EQ(m.f(4, 5), -INFINITY);
   EXPECT_EQ(m.f(4, 7), -5.0f);
   EXPECT_EQ(m.f(5, 0), 1.0f);
   EXPECT_EQ(m.f(5, 1), 2.0f);
   EXPECT_EQ(m.f(5, 4), 4.0f);
   EXPECT_EQ(m.f(5, 5), 1.0f);
   EXPECT_EQ(m.f(5, 7), 5.0f);
   EXPECT_EQ(m.t.flag[0], 0u);   /* SEL does not write flags */
}

/* min/max order -0.0 below +0.0 whatever the operand order (IEEE
 * 754-2019, as NIR's fmin/fmax, which brw emits as bare sel.l/sel.ge), in
 * every float type; equal zeros and integers are unaffected.
 */
TEST(sim_alu, min_max_order_signed_zeros)
{
   machine m;
   m.set_f(2, { -0.0f, 0.0f, -0.0f, 0.0f, 1, -1, -0.0f, 0.0f });
   m.set_f(3, { 0.0f, -0.0f, -0.0f, 0.0f, 0.0f, -0.0f, 0.0f, -0.0f });
   m.run(R"(
sel.l(8)   g4<1>F   g2<8,8,1>F   g3<8,8,1>F      { align1 1Q };
sel.ge(8)  g5<1>F   g2<8,8,1>F   g3<8,8,1>F      { align1 1Q };
mov(8)     g6<1>HF  g2<8,8,1>F                   { align1 1Q };
mov(8)     g7<1>HF  g3<8,8,1>F                   { align1 1Q };
sel.l(8)   g8<1>HF  g6<8,8,1>HF  g7<8,8,1>HF     { align1 1Q };
sel.ge(8)  g9<1>HF  g6<8,8,1>HF  g7<8,8,1>HF     { align1 1Q };
mov(8)     g10<1>DF g2<8,8,1>F                   { align1 1Q };
mov(8)     g12<1>DF g3<8,8,1>F                   { align1 1Q };
sel.l(8)   g14<1>DF g10<4,4,1>DF g12<4,4,1>DF    { align1 1Q };
sel.ge(8)  g16<1>DF g10<4,4,1>DF g12<4,4,1>DF    { align1 1Q };
sel.l(8)   g18<1>D  g2<8,8,1>D   g3<8,8,1>D      { align1 1Q };
)");
   const uint32_t min_f[8] = { 0x80000000, 0x80000000, 0x80000000, 0, 0, 0xbf800000,
                               0x80000000, 0x80000000 };
   const uint32_t max_f[8] = { 0, 0, 0x80000000, 0, 0x3f800000, 0x80000000, 0, 0 };
   const uint16_t min_h[8] = { 0x8000, 0x8000, 0x8000, 0, 0, 0xbc00, 0x8000, 0x8000 };
   const uint16_t max_h[8] = { 0, 0, 0x8000, 0, 0x3c00, 0x8000, 0, 0 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.ud(4, i), min_f[i]) << i;
      EXPECT_EQ(m.ud(5, i), max_f[i]) << i;
      EXPECT_EQ(m.uw(8, i), min_h[i]) << i;
      EXPECT_EQ(m.uw(9, i), max_h[i]) << i;
      EXPECT_EQ(m.t.read<uint64_t>(14, i), uint64_t(min_f[i] & 0x80000000) << 32 |
                (min_f[i] == 0xbf800000 ? 0x3ff0000000000000ull : 0)) << i;
      EXPECT_EQ(m.t.read<uint64_t>(16, i), uint64_t(max_f[i] & 0x80000000) << 32 |
                (max_f[i] == 0x3f800000 ? 0x3ff0000000000000ull : 0)) << i;
   }
   /* As integers, 0x80000000 is the smaller. */
   EXPECT_EQ(m.ud(18, 1), 0x80000000u);
   EXPECT_EQ(m.ud(18, 3), 0u);
}

TEST(sim_alu, denormals)
{
   machine m;
   const float den = 1e-40f;   /* single-precision denormal */
   m.set_f(2, { den, -den, 1e-38f, 0, 0, 0, 0, 0 });
   const char *prog = R"(
add(8)  g3<1>F   g2<8,8,1>F   0x0F               { align1 1Q };
mov(8)  g4<1>F   g2<8,8,1>F                      { align1 1Q };
mul(8)  g5<1>F   g2<8,8,1>F   0x3dcccccdF        { align1 1Q };
mov(8)  g6<1>F   -g2<8,8,1>F                     { align1 1Q };
mov(8)  g7<1>F   0x00000001F                     { align1 1Q };
)";
   m.run(prog);
   /* A mov of F to F moves bits, with a sign modifier or from an
    * immediate too (what fneg/fabs and folded constants become).
    */
   EXPECT_EQ(m.f(6, 0), -den);
   EXPECT_EQ(fbits(m.f(7, 0)), 1u);
   /* cr0 = 0: flushed in arithmetic (sign kept), raw moves keep bits. */
   EXPECT_EQ(fbits(m.f(3, 0)), 0u);
   EXPECT_EQ(fbits(m.f(3, 1)), 0u);            /* -0 + 0 = +0 */
   EXPECT_EQ(fbits(m.f(5, 1)), 0x80000000u);   /* -0 * 0.1 = -0 */
   EXPECT_EQ(m.f(4, 0), den);
   EXPECT_EQ(fbits(m.f(5, 2)), 0u);   /* 1e-39 result is flushed */
   machine p;
   p.set_f(2, { den, -den, 1e-38f, 0, 0, 0, 0, 0 });
   p.run(std::string(R"(
or(1)   cr0<1>UD   cr0<0,1,0>UD   0x00000080UD   { align1 1N switch };
)") + prog);
   EXPECT_EQ(p.f(3, 0), den);
   EXPECT_EQ(p.f(5, 2), 1e-38f * 0.1f);
}

TEST(sim_alu, math)
{
   machine m;
   m.set_f(2, { 4, 0, -1, 0.25f, 1, 8, qnan, -0.0f });
   m.set_f(3, { 2, 0, 3, 0.5f, 0, -1, 1, 1 });
   m.set_d(4, { 7, -7, 7, -7, 5, INT32_MIN, 0, 9 });
   m.set_d(5, { 2, 2, -2, -2, 0, -1, 3, 0 });
   m.run(R"(
math sqrt(8)   g6<1>F   g2<8,8,1>F   null<8,8,1>F  { align1 1Q };
math inv(8)    g7<1>F   g2<8,8,1>F   null<8,8,1>F  { align1 1Q };
math fdiv(8)   g8<1>F   g2<8,8,1>F   g3<8,8,1>F    { align1 1Q };
math log(8)    g9<1>F   g2<8,8,1>F   null<8,8,1>F  { align1 1Q };
math intdiv(8) g10<1>D  g4<8,8,1>D   g5<8,8,1>D    { align1 1Q };
math intmod(8) g11<1>D  g4<8,8,1>D   g5<8,8,1>D    { align1 1Q };
math intdiv(8) g12<1>UD g4<8,8,1>UD  g5<8,8,1>UD   { align1 1Q };
math pow(8)    g13<1>F  g2<8,8,1>F   g3<8,8,1>F    { align1 1Q };
math rsq(8)    g14<1>F  g2<8,8,1>F   null<8,8,1>F  { align1 1Q };
math exp(8)    g15<1>F  g3<8,8,1>F   null<8,8,1>F  { align1 1Q };
)");
   EXPECT_EQ(m.f(6, 0), 2.0f);
   EXPECT_TRUE(std::isnan(m.f(6, 2)));
   EXPECT_EQ(fbits(m.f(6, 7)), 0x80000000u);   /* sqrt(-0) = -0 */
   EXPECT_EQ(m.f(7, 1), INFINITY);
   EXPECT_EQ(m.f(7, 3), 4.0f);
   EXPECT_EQ(m.f(7, 7), -INFINITY);
   EXPECT_EQ(m.f(8, 0), 2.0f);
   EXPECT_TRUE(std::isnan(m.f(8, 1)));   /* 0/0 */
   EXPECT_EQ(m.f(8, 4), INFINITY);
   EXPECT_EQ(m.f(8, 5), -8.0f);
   EXPECT_EQ(m.f(9, 5), 3.0f);
   EXPECT_EQ(m.f(9, 1), -INFINITY);
   /* Signed division truncates; the remainder has the dividend's sign. */
   const int32_t q[8] = { 3, -3, -3, 3, INT32_MAX, INT32_MIN, 0, INT32_MAX };
   const int32_t r[8] = { 1, -1, 1, -1, 5, 0, 0, 9 };
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(m.d(10, i), q[i]) << i;
      EXPECT_EQ(m.d(11, i), r[i]) << i;
   }
   EXPECT_EQ(m.ud(12, 4), 0xffffffffu);   /* unsigned x / 0 */
   EXPECT_EQ(m.ud(12, 1), 0xfffffff9u / 2);
   EXPECT_EQ(m.f(13, 0), 16.0f);
   EXPECT_EQ(m.f(13, 3), 0.5f);
   EXPECT_EQ(m.f(13, 5), 0.125f);
   EXPECT_EQ(m.f(14, 0), 0.5f);
   EXPECT_EQ(m.f(15, 2), 8.0f);
   EXPECT_EQ(m.f(15, 5), 0.5f);
}

TEST(sim_alu, shifts_and_bits)
{
   machine m;
   m.set_d(2, { 1, -16, 0x12345678, 0, -1, 0x00f0, 0x40000000, 3 });
   m.set_d(3, { 33, 2, 4, 5, 31, 36, 1, 0 });
   m.run(R"(
shl(8)   g4<1>D   g2<8,8,1>D   g3<8,8,1>D        { align1 1Q };
shr(8)   g5<1>UD  g2<8,8,1>UD  g3<8,8,1>UD       { align1 1Q };
asr(8)   g6<1>D   g2<8,8,1>D   g3<8,8,1>D        { align1 1Q };
bfrev(8) g7<1>UD  g2<8,8,1>UD                    { align1 1Q };
cbit(8)  g8<1>UD  g2<8,8,1>UD                    { align1 1Q };
fbh(8)   g9<1>UD  g2<8,8,1>D                     { align1 1Q };
fbl(8)   g10<1>UD g2<8,8,1>UD                    { align1 1Q };
lzd(8)   g11<1>UD g2<8,8,1>UD                    { align1 1Q };
and(8)   g12<1>UD g2<8,8,1>UD  ~g3<8,8,1>UD      { align1 1Q };
not(8)   g13<1>D  g2<8,8,1>D                     { align1 1Q };
xor(8)   g14<1>UD g2<8,8,1>UD  0x0000ffffUD      { align1 1Q };
)");
   /* Shift counts use the low 5 bits: 33 -> 1, 36 -> 4. */
   EXPECT_EQ(m.d(4, 0), 2);
   EXPECT_EQ(m.d(4, 1), -64);
   EXPECT_EQ(m.d(4, 5), 0xf00);
   EXPECT_EQ(m.d(4, 6), int32_t(0x80000000u));
   EXPECT_EQ(m.ud(5, 1), 0xfffffff0u >> 2);
   EXPECT_EQ(m.ud(5, 4), 1u);
   EXPECT_EQ(m.d(6, 1), -4);
   EXPECT_EQ(m.d(6, 4), -1);
   EXPECT_EQ(m.d(6, 2), 0x01234567);
   EXPECT_EQ(m.ud(7, 0), 0x80000000u);
   EXPECT_EQ(m.ud(7, 2), 0x1e6a2c48u);
   EXPECT_EQ(m.ud(8, 2), 13u);
   EXPECT_EQ(m.ud(8, 4), 32u);
   /* FBH counts from the MSB; for negative D it looks for the first 0. */
   EXPECT_EQ(m.ud(9, 0), 31u);
   EXPECT_EQ(m.ud(9, 1), 28u);    /* -16 = 0xfffffff0: first 0 at bit 3 */
   EXPECT_EQ(m.ud(9, 3), 0xffffffffu);
   EXPECT_EQ(m.ud(9, 4), 0xffffffffu);
   EXPECT_EQ(m.ud(10, 1), 4u);
   EXPECT_EQ(m.ud(10, 3), 0xffffffffu);
   EXPECT_EQ(m.ud(11, 3), 32u);
   EXPECT_EQ(m.ud(11, 6), 1u);
   EXPECT_EQ(m.ud(12, 4), ~31u);
   EXPECT_EQ(m.d(13, 3), -1);
   EXPECT_EQ(m.ud(14, 2), 0x1234a987u);
}

TEST(sim_alu, bitfields)
{
   machine m;
   /* value, offset, width */
   m.set_d(2, { int32_t(0xf0f0f0f0), int32_t(0x80000000u), 0x12345678, -1, 0, 0, 0, 0 });
   m.set_d(3, { 4, 28, 8, 0, 4, 0, 0, 0 });
   m.set_d(4, { 8, 4, 0, 32, 8, 0, 0, 0 });
   m.run(R"(
bfe(8)   g5<1>UD  g4<4,4,1>UD  g3<4,4,1>UD  g2<4,4,1>UD { align16 1Q };
bfe(8)   g6<1>D   g4<4,4,1>D   g3<4,4,1>D   g2<4,4,1>D  { align16 1Q };
bfi1(8)  g7<1>UD  g4<8,8,1>UD  g3<8,8,1>UD       { align1 1Q };
bfi2(8)  g8<1>UD  g7<4,4,1>UD  g2<4,4,1>UD  g3<4,4,1>UD { align16 1Q };
)");
   EXPECT_EQ(m.ud(5, 0), 0x0fu);            /* 8 bits at 4 of 0xf0f0f0f0 */
   EXPECT_EQ(m.ud(5, 1), 0x8u);
   EXPECT_EQ(m.ud(5, 2), 0u);               /* width 0 */
   EXPECT_EQ(m.ud(5, 3), 0u);               /* width 32 & 31 = 0 */
   EXPECT_EQ(m.d(6, 0), 0x0f);
   EXPECT_EQ(m.d(6, 1), -8);                /* sign of the field */
   EXPECT_EQ(m.ud(7, 0), 0xff0u);
   EXPECT_EQ(m.ud(7, 1), 0xf0000000u);
   /* bfi2: insert src1 shifted to the mask's lowest bit into src2. */
   EXPECT_EQ(m.ud(8, 0), (4u & ~0xff0u) | ((0xf0f0f0f0u << 4) & 0xff0u));
   EXPECT_EQ(m.ud(8, 1), 28u | 0u);
}

TEST(sim_alu, accumulator_ops)
{
   machine m;
   m.set_d(2, { -1, 0x7fffffff, 123456789, -5, 0, 1, 2, 3 });
   m.set_d(3, { -1, 0x7fffffff, 987654321, 7, 0, -1, -2, 3 });
   m.set_d(4, { int32_t(0xffffffffu), 1, 5, 0, 0, 0, 0, 0 });
   m.run(R"(
mul(8)   acc0<1>D  g2<8,8,1>D   g3<16,8,2>UW     { align1 1Q };
mach(8)  g5<1>D    g2<8,8,1>D   g3<8,8,1>D       { align1 1Q AccWrEnable };
addc(8)  g6<1>UD   g4<8,8,1>UD  0x00000001UD     { align1 1Q AccWrEnable };
mov(8)   g7<1>UD   acc0<8,8,1>UD                 { align1 1Q };
subb(8)  g8<1>UD   g4<8,8,1>UD  0x00000002UD     { align1 1Q AccWrEnable };
mov(8)   g9<1>UD   acc0<8,8,1>UD                 { align1 1Q };
mov(8)   acc0<1>F  0x3f800000F                   { align1 1Q };
mac(8)   g10<1>F   g2<8,8,1>D   0x40000000F      { align1 1Q };
)");
   /* mul + mach: the high 32 bits of the 64-bit signed product. */
   const int64_t a[3] = { -1, 0x7fffffff, 123456789 }, b[3] = { -1, 0x7fffffff, 987654321 };
   for (unsigned i = 0; i < 3; i++)
      EXPECT_EQ(m.d(5, i), int32_t((a[i] * b[i]) >> 32)) << i;
   EXPECT_EQ(m.d(5, 3), -1);   /* -35 */
   EXPECT_EQ(m.d(5, 5), -1);
   EXPECT_EQ(m.ud(6, 0), 0u);
   EXPECT_EQ(m.ud(7, 0), 1u);   /* carry */
   EXPECT_EQ(m.ud(7, 1), 0u);
   EXPECT_EQ(m.ud(8, 1), 0xffffffffu);
   EXPECT_EQ(m.ud(9, 1), 1u);   /* borrow */
   EXPECT_EQ(m.ud(9, 2), 0u);
   EXPECT_EQ(m.f(10, 1), 1.0f + 2.0f * 2147483647.0f);
   EXPECT_EQ(m.f(10, 3), -9.0f);
}

TEST(sim_alu, three_source)
{
   machine m;
   m.set_f(2, { 1, 2, 3, 4, 0.5f, 0, 0.25f, 1 });
   m.set_f(3, { 2, 2, 2, 2, 8, 8, 8, 8 });
   m.set_f(4, { 10, 20, 30, 40, 0, 4, 16, 2 });
   m.set_f(5, { 16777216.0f, 0, 0, 0, 0, 0, 0, 0 });
   m.run(R"(
mad(8)   g6<1>F   g2<4,4,1>F   g3<4,4,1>F   g4<4,4,1>F { align16 1Q };
mad(8)   g7<1>F   g4<4,4,1>F   g5.0<0,1,0>F g2<4,4,1>F { align16 1Q };
lrp(8)   g8<1>F   g2<4,4,1>F   g3<4,4,1>F   g4<4,4,1>F { align16 1Q };
)");
   for (unsigned i = 0; i < 8; i++) {
      float s0 = m.f(2, i), s1 = m.f(3, i), s2 = m.f(4, i);
      EXPECT_EQ(m.f(6, i), s0 + s1 * s2) << i;
      EXPECT_EQ(m.f(8, i), s0 * s1 + (1 - s0) * s2) << i;
   }
   EXPECT_EQ(m.f(7, 1), 20.0f + 16777216.0f * 2.0f);
}

/* A fused f32 mad rounds once: (1 + 2^-23) * 1.5 lies exactly halfway
 * between two floats, and an addend of -2^-60 puts the exact result just
 * below it, so it rounds down to 1.5 + 2^-23.  An fma in double loses the
 * addend and the tie then rounds to even, 1.5 + 2^-22 (random cs 2536).
 */
TEST(sim_alu, mad_rounds_once)
{
   machine m;
   float b, d, a;
   const uint32_t bits[3] = {0x3f800001, 0x3fc00000, 0xa1800000};
   std::memcpy(&b, &bits[0], 4);
   std::memcpy(&d, &bits[1], 4);
   std::memcpy(&a, &bits[2], 4);
   m.set_f(2, { a, a, a, a, a, a, a, a });
   m.set_f(3, { b, b, b, b, b, b, b, b });
   m.set_f(4, { d, d, d, d, d, d, d, d });
   m.run(R"(
mad(8)   g6<1>F   g2<4,4,1>F   g3<4,4,1>F   g4<4,4,1>F { align16 1Q };
)");
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.ud(6, i), 0x3fc00001u) << i;
}

TEST(sim_alu, indirect_and_arf)
{
   machine m;
   m.set_d(20, { 100, 101, 102, 103, 104, 105, 106, 107 });
   m.set_d(21, { 108, 109, 110, 111, 112, 113, 114, 115 });
   m.run(R"(
mov(1)   a0.1<1>UW   0x0284UW                    { align1 WE_all 1N };
mov(8)   g3<1>D      g[a0.1 8]<8,8,1>D           { align1 1Q };
mov(1)   f1.1<1>UW   0x00a5UW                    { align1 WE_all 1N };
mov(1)   g4<1>UD     f1<0,1,0>UD                 { align1 WE_all 1N };
mov(8)   g5<1>UD     mask0<0,1,0>UD              { align1 1Q };
mov(1)   a0<1>UW     0x0140UW                    { align1 WE_all 1N };
mov(8)   g[a0 4]<1>D g20<8,8,1>D                 { align1 1Q };
)");
   /* a0.1 = 0x284 = g20 byte 4; +8 bytes -> g20.3. */
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(m.d(3, i), 103 + int(i));
   EXPECT_EQ(m.ud(4, 0), 0x00a50000u);
   EXPECT_EQ(m.ud(5, 0), 0xffu);
   /* g[a0.0 + 4] = g10 byte 4: the region crosses into g11. */
   EXPECT_EQ(m.d(10, 0), 0);
   EXPECT_EQ(m.d(10, 1), 100);
   EXPECT_EQ(m.d(10, 7), 106);
   EXPECT_EQ(m.d(11, 0), 107);
}

TEST(sim_alu, pln)
{
   machine m;
   /* plane [a, b, -, c] = [2, 3, 0, 10]; u in g4, v in g5. */
   m.set_f(2, { 2, 3, 0, 10, 0, 0, 0, 0 });
   m.set_f(4, { 0, 1, 0, 1, 0.5f, 0, 0, 0 });
   m.set_f(5, { 0, 0, 1, 1, 0.5f, 0, 0, 0 });
   m.run(R"(
pln(8)   g6<1>F   g2<0,1,0>F   g4<8,8,1>F        { align1 1Q };
)");
   const float e[5] = { 10, 12, 13, 15, 12.5f };
   for (unsigned i = 0; i < 5; i++)
      EXPECT_EQ(m.f(6, i), e[i]);
}

TEST(sim_alu, compacted_matches_native)
{
   const char *prog = R"(
add(8)   g3<1>F   g2<8,8,1>F   0x3f800000F       { align1 1Q };
mul(8)   g4<1>F   g3<8,8,1>F   g3<8,8,1>F        { align1 1Q };
mov(8)   g5<1>D   g4<8,8,1>F                     { align1 1Q };
)";
   machine a, b;
   a.set_f(2, { 1, 2, 3, 4, 5, 6, 7, 8 });
   b.set_f(2, { 1, 2, 3, 4, 5, 6, 7, 8 });
   a.run(prog, false);
   b.run(prog, true);
   std::vector<uint8_t> bin = ibis::isa::assemble(prog, ibis::isa::gen::gen9, true);
   EXPECT_LT(bin.size(), 48u);   /* at least one instruction compacted */
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(a.d(5, i), int((i + 2) * (i + 2)));
      EXPECT_EQ(b.d(5, i), a.d(5, i));
   }
}

TEST(sim_alu, unmodeled_is_an_error)
{
   machine m;
   try {
      m.run(R"(
mov(8)   g3<1>F   g2<8,8,1>F                     { align1 1Q };
dp4(8)   g3<1>F   g2<4,4,1>F   g2<4,4,1>F        { align16 1Q };
)");
      FAIL() << "dp4 ran";
   } catch (const ibis::error &e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("offset 0x10"), std::string::npos) << msg;
      EXPECT_NE(msg.find("dp4"), std::string::npos) << msg;
   }
}
