/*
 * Hand-allocated programs (registers written in the IR text, already in
 * lowered form with brw's message descriptors) go through code
 * generation, run in the EU simulator and must give the expected outputs;
 * their disassembly must assemble back to the same bytes.
 *
 * Payload layouts are docs/sim.md §3 (checked against make_*_thread's
 * layout before each run, so the registers written in the IR are right).
 */
#include <cmath>
#include <cstring>

#include "codegen/tests/codegen_test.h"
#include "sim/sim.h"

using namespace ibis;
using namespace ibis::test;

namespace {

uint32_t
fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

float
bitsf(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

codegen_result
compile(const std::string &ir)
{
   codegen_result r = generate(ir);
   EXPECT_TRUE(assembles_back(r));
   return r;
}

/* Barycentrics and planes of exactly representable values, so that the
 * expected results are exact.
 */
float bary_u(unsigned ch) { return float(ch % 8) / 8.0f; }
float bary_v(unsigned ch) { return float((ch * 3) % 8) / 16.0f; }
const float plane[2][3] = {{4.0f, -2.0f, 1.5f}, {0.5f, 8.0f, -3.0f}};

float
interp(unsigned comp, unsigned ch)
{
   return plane[comp][0] * bary_u(ch) + plane[comp][1] * bary_v(ch) + plane[comp][2];
}

sim::fs_payload
fs_inputs(unsigned simd, uint32_t dispatch_mask)
{
   sim::fs_payload p;
   p.simd = simd;
   p.dispatch_mask = dispatch_mask;
   for (unsigned s = 0; s < simd / 4; s++)
      p.subspans.push_back({uint16_t(2 * s), 0});
   for (unsigned ch = 0; ch < simd; ch++)
      p.bary[sim::bary_persp_pixel][ch] = {bary_u(ch), bary_v(ch)};
   p.push = {fbits(3.0f)};
   std::array<std::array<float, 3>, 4> a{};
   for (unsigned k = 0; k < 2; k++)
      a[k] = {plane[k][0], plane[k][1], plane[k][2]};
   p.attributes.push_back(a);
   return p;
}

} /* anonymous namespace */

/* VS SIMD8: mad of an attribute with push constants, math, a conversion,
 * and a URB write of two slots (brw's split send: handles, then eight
 * registers of data) that ends the thread.
 */
TEST(codegen_sim, vs_simd8_urb_write)
{
   sim::vs_payload p;
   p.num_vertices = 7;
   p.push = {fbits(2.0f), fbits(0.5f)};
   p.attributes.resize(1);
   for (unsigned i = 0; i < 8; i++)
      for (unsigned k = 0; k < 4; k++)
         p.attributes[0][k][i] = fbits(float(i) + 0.25f * k - 1.0f);
   sim::payload_layout layout;
   sim::thread t = sim::make_vs_thread(p, &layout);
   ASSERT_EQ(layout.push_reg, 2u);
   ASSERT_EQ(layout.attr_reg, 3u);

   /* Descriptor of brw-asm/0ad/12.vs.simd8.asm: URB SIMD8 write, global
    * offset 1, mlen 1 (handles), ex_mlen 8.
    */
   codegen_result r = compile(R"(
shader vs simd8 allocated
hw %1:u32x8@g1
uniform %2:f32x1[2]@g2
attr %3:f32x8[4]@g3
block0:
   %4:u32x8@g126 = copy %1
   %5:f32x8@g118 = mad %2[1], %3[0], %2[0]
   %6:f32x8@g119 = mad %2[1], %3[1], %2[0]
   %7:f32x8@g120 = mad %2[1], %3[2], %2[0]
   %8:f32x8@g121 = mov 1.0:f32
   %9:f32x8@g122 = add %3[0], %3[1]
   %10:f32x8@g123 = mul %3[2], -%3[3]
   %11:f32x8@g124 = math_sqrt |%3[0]|
   %12:s32x8@g125 = mov %3[3]
   %13:f32x8[8]@g118 = load_payload %5, %6, %7, %8, %9, %10, %11, %12:f32
   _ = send 6:u32, 0x02080017:u32, 0x200:u32, %4, %13 {EOT}
)");
   EXPECT_EQ(r.stats.sends, 1u);

   sim::memory mem;
   sim::result res = sim::run(r.binary, t, mem);
   EXPECT_TRUE(res.eot);
   for (unsigned i = 0; i < 8; i++) {
      float x[4];
      for (unsigned k = 0; k < 4; k++)
         x[k] = bitsf(p.attributes[0][k][i]);
      uint32_t want[8] = {
         fbits(0.5f + x[0] * 2.0f), fbits(0.5f + x[1] * 2.0f),
         fbits(0.5f + x[2] * 2.0f), fbits(1.0f), fbits(x[0] + x[1]),
         fbits(x[2] * -x[3]), fbits(std::sqrt(std::fabs(x[0]))),
         uint32_t(int32_t(x[3])),
      };
      for (unsigned k = 0; k < 8; k++) {
         size_t addr = (i * 32 + 1) * 16 + 4 * k;
         if (i >= p.num_vertices) {
            EXPECT_TRUE(addr + 4 > mem.urb.size() ||
                        memcmp(&mem.urb[addr], "\0\0\0\0", 4) == 0);
            continue;
         }
         ASSERT_LE(addr + 4, mem.urb.size());
         uint32_t got;
         memcpy(&got, &mem.urb[addr], 4);
         EXPECT_EQ(got, want[k]) << "vertex " << i << " dword " << k;
      }
   }
}

/* FS SIMD8: PLN interpolation, an if/else on a comparison with a push
 * constant, and a render-target write (payload built by load_payload)
 * that ends the thread; channel 6 is not dispatched and writes nothing.
 */
TEST(codegen_sim, fs_simd8_if_else)
{
   sim::fs_payload p = fs_inputs(8, 0xbf);
   sim::payload_layout layout;
   sim::thread t = sim::make_fs_thread(p, &layout);
   ASSERT_EQ(layout.bary_reg[sim::bary_persp_pixel][0], 2);
   ASSERT_EQ(layout.push_reg, 4u);
   ASSERT_EQ(layout.attr_reg, 5u);

   /* brw-asm/0ad/12.fs.simd8.asm: RT write SIMD8 LastRT, mlen 4. */
   codegen_result r = compile(R"(
shader fs simd8 allocated
hw %1:f32x8[2]@g2
uniform %2:f32x1@g4
uniform %3:f32x1[8]@g5
hw %10:f32x8@g13
block0:
   %5:f32x8@g10 = pln %3[0], %1
   %6:f32x8@g11 = pln %3[4], %1
   %7:flagx8@f0.1 = cmp.g %5, %2
   (+%7) if
block1:
   %10 = add %5, %6
   else
block2:
   %10 = mul %5, %6
block3:
   endif
   %11:f32x8[4]@g120 = load_payload %5, %6, %10, 1.0:f32
   _ = send 5:u32, 0x08031400:u32, 0:u32, %11, _ {EOT}
)");

   sim::memory mem;
   EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
   for (unsigned ch = 0; ch < 8; ch++) {
      const sim::rt_pixel &px = mem.rt[0][ch];
      if (ch == 6) {
         EXPECT_FALSE(px.written);
         continue;
      }
      ASSERT_TRUE(px.written) << "channel " << ch;
      float x = interp(0, ch), y = interp(1, ch);
      EXPECT_EQ(px.color[0], fbits(x)) << "channel " << ch;
      EXPECT_EQ(px.color[1], fbits(y));
      EXPECT_EQ(px.color[2], fbits(x > 3.0f ? x + y : x * y)) << "channel " << ch;
      EXPECT_EQ(px.color[3], fbits(1.0f));
   }
}

/* FS SIMD8: a uniform if/else (JMPIs) inside a divergent if that
 * leaves out channel 0.  The JMPI reads channel 0's flag bit, which the
 * outer compare cleared: only the NoMask write of the uniform compare
 * makes the thread take the then part, as every channel would.
 */
TEST(codegen_sim, fs_simd8_uniform_if_in_divergent_if)
{
   sim::fs_payload p = fs_inputs(8, 0xbf);
   sim::thread t0 = sim::make_fs_thread(p, nullptr);
   const std::string ir = R"(
shader fs simd8 allocated
hw %1:f32x8[2]@g2
uniform %2:f32x1@g4
uniform %3:f32x1[8]@g5
hw %10:f32x8@g13
block0:
   %5:f32x8@g10 = pln %3[0], %1
   %6:f32x8@g11 = pln %3[4], %1
   %7:flagx8@f0.0 = cmp.g %5, 2.0:f32
   (+%7) if
block1:
   %8:flagx8@f0.0 = cmp.l %2, 5.0:f32 MASK
   (+%8) if {uniform}
block2:
   %10 = mov 7.0:f32
   else
block3:
   %10 = mov 9.0:f32
block4:
   endif
   else
block5:
   %10 = mov 1.0:f32
block6:
   endif
   %11:f32x8[4]@g120 = load_payload %5, %6, %10, 1.0:f32
   _ = send 5:u32, 0x08031400:u32, 0:u32, %11, _ {EOT}
)";
   auto run = [&](const std::string &mask) {
      std::string text = ir;
      text.replace(text.find("MASK"), 4, mask);
      codegen_result r = compile(text);
      sim::thread t = t0;
      sim::memory mem;
      EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
      std::vector<uint32_t> out;
      for (unsigned ch = 0; ch < 8; ch++)
         out.push_back(mem.rt[0][ch].written ? mem.rt[0][ch].color[2] : 0);
      return std::make_pair(r.disasm, out);
   };
   /* Channel 0 is inside the outer if's else part: it must be off. */
   ASSERT_FALSE(interp(0, 0) > 2.0f);

   auto [dis, got] = run("{WE_all}");
   EXPECT_NE(dis.find("(-f0.0) jmpi(1)"), std::string::npos) << dis;
   EXPECT_EQ(dis.find("endif"), dis.rfind("endif")) << dis;   /* the outer one only */
   for (unsigned ch = 0; ch < 8; ch++) {
      uint32_t want = ch == 6 ? 0 : fbits(interp(0, ch) > 2.0f ? 7.0f : 1.0f);
      EXPECT_EQ(got[ch], want) << "channel " << ch;
   }

   /* A masked compare leaves channel 0's stale bit: the jump goes wrong. */
   auto [dis2, wrong] = run("");
   bool any_inner = false;
   for (unsigned ch = 1; ch < 8; ch++) {
      if (ch != 6 && interp(0, ch) > 2.0f) {
         any_inner = true;
         EXPECT_EQ(wrong[ch], fbits(9.0f)) << "channel " << ch;
      }
   }
   EXPECT_TRUE(any_inner);
}

/* FS SIMD16: a loop whose channels leave it at different times, some by
 * a BREAK and some by the WHILE's condition.
 */
TEST(codegen_sim, fs_simd16_loop)
{
   sim::fs_payload p = fs_inputs(16, 0xffff);
   sim::payload_layout layout;
   sim::thread t = sim::make_fs_thread(p, &layout);
   ASSERT_EQ(layout.bary_reg[sim::bary_persp_pixel][0], 2);
   ASSERT_EQ(layout.push_reg, 6u);
   ASSERT_EQ(layout.attr_reg, 7u);

   /* brw-asm/0ad/12.fs.simd16.asm: RT write SIMD16 LastRT, mlen 8. */
   codegen_result r = compile(R"(
shader fs simd16 allocated
hw %1:f32x16[2]@g2
uniform %2:f32x1@g6
uniform %3:f32x1[8]@g7
hw %20:f32x16@g14
hw %21:s32x16@g16
block0:
   %5:f32x16@g10 = pln %3[0], %1
   %20 = mov 0.0:f32
   %21 = mov 0:s32
block1:
   do
   %20 = add %20, %5
   %21 = add %21, 1:s32
   %22:flagx16@f0.0 = cmp.ge %21, 3:s32
   (+%22) break
block2:
   %23:flagx16@f1.0 = cmp.l %20, 6.0:f32
   (+%23) while
block3:
   %24:f32x16[4]@g112 = load_payload %20, %5, %21:f32, %2
   _ = send 5:u32, 0x10031000:u32, 0:u32, %24, _ {EOT}
)");
   EXPECT_EQ(r.stats.loops, 1u);

   sim::memory mem;
   EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
   unsigned early = 0;
   for (unsigned ch = 0; ch < 16; ch++) {
      float g = interp(0, ch), sum = 0;
      int i = 0;
      for (;;) {
         sum += g;
         i++;
         if (i >= 3)
            break;
         if (!(sum < 6.0f))
            break;
      }
      early += i < 3;
      const sim::rt_pixel &px = mem.rt[0][ch];
      ASSERT_TRUE(px.written) << "channel " << ch;
      EXPECT_EQ(px.color[0], fbits(sum)) << "channel " << ch;
      EXPECT_EQ(px.color[1], fbits(g));
      EXPECT_EQ(px.color[2], uint32_t(i)) << "channel " << ch;
      EXPECT_EQ(px.color[3], fbits(3.0f));
   }
   /* Both ways out of the loop are taken. */
   EXPECT_GT(early, 0u);
   EXPECT_LT(early, 16u);
}

/* FS SIMD32: per-half PLN into the two SIMD16 halves, SIMD32 ALU and math
 * split into 1H/2H, a load_payload zipping the halves, and two SIMD16
 * render-target writes (the second "Hi" with EOT), as brw does.
 */
TEST(codegen_sim, fs_simd32_halves)
{
   sim::fs_payload p = fs_inputs(32, 0xfffffff7);
   sim::payload_layout layout;
   sim::thread t = sim::make_fs_thread(p, &layout);
   ASSERT_EQ(layout.bary_reg[sim::bary_persp_pixel][0], 3);
   ASSERT_EQ(layout.bary_reg[sim::bary_persp_pixel][1], 7);
   ASSERT_EQ(layout.push_reg, 11u);
   ASSERT_EQ(layout.attr_reg, 12u);

   /* brw-asm/0ad/12.fs.simd32.asm: RT write SIMD16 LastRT (0x10031000)
    * for channels 0-15, SIMD16 Hi LastRT (0x10031800) with EOT for 16-31.
    */
   codegen_result r = compile(R"(
shader fs simd32 allocated
hw %1:f32x16[2]@g3
hw %2:f32x16+16[2]@g7
uniform %3:f32x1@g11
uniform %4:f32x1[8]@g12
block0:
   %5:f32x16@g20 = pln %4[0], %1
   %6:f32x16+16@g24 = pln %4[0], %2
   %7:f32x32@g30 = load_payload %5, %6
   %8:f32x32@g34 = mul %7, %3
   %9:f32x32@g38 = math_sqrt |%8|
   %10:flagx32@f1.0 = cmp.l %8, 0.0:f32
   (+%10) %11:f32x32@g42 = sel %9, -%9
   %12:f32x16[4]@g100 = load_payload %8, %11, 0.0:f32, 1.0:f32
   %13:f32x16+16[4]@g112 = load_payload %8.64, %11.64, 0.0:f32, 1.0:f32
   _ = send(16) 5:u32, 0x10031000:u32, 0:u32, %12, _
   _ = send(16+16) 5:u32, 0x10031800:u32, 0:u32, %13, _ {EOT}
)");
   EXPECT_EQ(r.stats.sends, 2u);

   sim::memory mem;
   EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
   for (unsigned ch = 0; ch < 32; ch++) {
      const sim::rt_pixel &px = mem.rt[0][ch];
      if (ch == 3) {
         EXPECT_FALSE(px.written);
         continue;
      }
      ASSERT_TRUE(px.written) << "channel " << ch;
      float m = interp(0, ch) * 3.0f;
      float s = std::sqrt(std::fabs(m));
      EXPECT_EQ(px.color[0], fbits(m)) << "channel " << ch;
      EXPECT_EQ(px.color[1], fbits(m < 0 ? s : -s)) << "channel " << ch;
      EXPECT_EQ(px.color[2], fbits(0.0f));
      EXPECT_EQ(px.color[3], fbits(1.0f));
   }
}

/* CS SIMD16: the invocation index from the subgroup id (per-thread push
 * data) and the subgroup invocation, an untyped surface write (split
 * send: addresses, then data), and the thread-spawner EOT of a copy of g0.
 */
TEST(codegen_sim, cs_simd16_untyped_write)
{
   sim::cs_payload p;
   p.simd = 16;
   p.local_size = {32, 1, 1};
   p.subgroup_id = 1;
   p.push = {1000};
   sim::payload_layout layout;
   sim::thread t = sim::make_cs_thread(p, &layout);
   ASSERT_EQ(layout.push_reg, 1u);
   ASSERT_EQ(layout.subgroup_id_dword, 16u);

   /* Untyped surface write (dp data 1 type 9), SIMD16 (control bits 5:4 =
    * 1), red only (disabled-component mask 0xe), BTI 1, mlen 2, ex_mlen 2;
    * CS terminate: thread spawner, mlen 1, no URB dereference (bit 4).
    */
   codegen_result r = compile(R"(
shader cs simd16 allocated
hw %0:u32x8@g0
uniform %1:u32x1[8]@g1
uniform %2:u32x1@g2
block0:
   %3:u32x16@g10 = load_subgroup_invocation
   %4:u32x1@g3 = shl %2, 4:u32 {WE_all}
   %5:u32x16@g12 = add %3, %4
   %6:u32x16@g14 = mul %5, %5
   %7:u32x16@g16 = add %6, %1[0]
   %8:u32x16@g18 = shl %5, 2:u32
   _ = send 12:u32, 0x04025e01:u32, 0x80:u32, %8, %7
   %9:u32x8@g127 = copy %0 {WE_all}
   _ = send(8) 7:u32, 0x02000010:u32, 0:u32, %9, _ {EOT, WE_all}
)");
   sim::memory mem;
   mem.surfaces[1].data.assign(32 * 4, 0xff);
   EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
   for (unsigned i = 0; i < 32; i++) {
      uint32_t got;
      memcpy(&got, &mem.surfaces[1].data[4 * i], 4);
      /* Only the second thread of the group ran. */
      EXPECT_EQ(got, i < 16 ? 0xffffffffu : i * i + 1000) << "invocation " << i;
   }
}

/* FS SIMD8 terminate, the way brw does it: a predicated HALT inside an
 * if/else sends the channel to the halt target (the last HALT); the live
 * mask is zeroed NoMask before any channel can halt and set to ~0 by the
 * channels that reach the target; the RT write is predicated on it.
 * Also when every channel halts, the mask reads 0 (the jump skips all
 * code before the target).
 */
TEST(codegen_sim, fs_simd8_halt)
{
   const char *ir = R"(
shader fs simd8 allocated
hw %1:f32x8[2]@g2
uniform %2:f32x1@g4
uniform %3:f32x1[8]@g5
block0:
   %4:u32x8@g20 = mov 0:u32 {WE_all}
   %5:f32x8@g10 = pln %3[0], %1
   %6:flagx8@f0.0 = cmp.l %5, %2
   (+%6) if
block1:
   %7:flagx8@f0.1 = cmp.l %5, 2.0:f32
   (+%7) halt
   else
block2:
   %8:f32x8@g11 = mov %5
block3:
   endif
   %4 = mov 0xffffffff:u32
   halt
   %9:flagx8@f1.0 = cmp.nz %4, 0:u32
   %10:f32x8[4]@g120 = load_payload %5, %5, %5, %5
   (+%9) _ = send 5:u32, 0x08031400:u32, 0:u32, %10, _ {EOT}
)";
   EXPECT_TRUE(check_asm(ir, R"(
mov(8) g20<1>UD 0x00000000UD { align1 WE_all 1Q compacted };
pln(8) g10<1>F g5<0,1,0>F g2<8,8,1>F { align1 1Q compacted };
cmp.l.f0.0(8) null<1>F g10<8,8,1>F g4<0,1,0>F { align1 1Q compacted };
(+f0.0) if(8) JIP: LABEL1 UIP: LABEL0 { align1 1Q };
cmp.l.f0.1(8) null<1>F g10<8,8,1>F 0x40000000F /* 2F */ { align1 1Q };
(+f0.1) halt(8) JIP: LABEL3 UIP: LABEL2 { align1 1Q };
LABEL3:
else(8) JIP: LABEL4 UIP: LABEL0 { align1 1Q BranchCtrl };
LABEL1:
mov(8) g11<1>F g10<8,8,1>F { align1 1Q compacted };
LABEL4:
nop ;
LABEL0:
endif(8) JIP: LABEL2 { align1 1Q };
mov(8) g20<1>UD 0xffffffffUD { align1 1Q compacted };
LABEL2:
halt(8) JIP: LABEL5 UIP: LABEL5 { align1 1Q };
LABEL5:
cmp.nz.f1.0(8) null<1>UD g20<8,8,1>UD 0x00000000UD { align1 1Q };
mov(8) g120<1>F g10<8,8,1>F { align1 1Q compacted };
mov(8) g121<1>F g10<8,8,1>F { align1 1Q compacted };
mov(8) g122<1>F g10<8,8,1>F { align1 1Q compacted };
mov(8) g123<1>F g10<8,8,1>F { align1 1Q compacted };
(+f1.0) sendc(8) null<1>UD g120<8,8,1>UD 0x88031400
render MsgDesc: RT write SIMD8 LastRT Surface = 0 mlen 4 rlen 0 { align1 1Q EOT };
)"));
   codegen_result r = generate(ir);

   /* Threshold 3: channels below 2 halt, 2..3 take the then-branch and
    * live; threshold -10: nobody halts; threshold 100 with every value
    * below 2: everybody halts.
    */
   for (float thr : {3.0f, -10.0f, 100.0f}) {
      sim::fs_payload p = fs_inputs(8, 0xff);
      p.push = {fbits(thr)};
      if (thr == 100.0f) {
         for (unsigned ch = 0; ch < 8; ch++)
            p.bary[sim::bary_persp_pixel][ch] = {0.0f, 0.0f};   /* 1.5 */
      }
      sim::thread t = sim::make_fs_thread(p);
      /* Garbage where the mask lives: the NoMask zero must win. */
      for (unsigned i = 0; i < 8; i++)
         t.write<uint32_t>(20, i, 0xdeadbeef);
      sim::memory mem;
      EXPECT_TRUE(sim::run(r.binary, t, mem).eot);
      unsigned written = 0;
      for (unsigned ch = 0; ch < 8; ch++) {
         float x = thr == 100.0f ? 1.5f : interp(0, ch);
         bool killed = x < thr && x < 2.0f;
         const sim::rt_pixel &px = mem.rt[0][ch];
         EXPECT_EQ(px.written, !killed) << "threshold " << thr << " channel " << ch;
         if (px.written) {
            EXPECT_EQ(px.color[0], fbits(x));
            written++;
         }
      }
      if (thr == 100.0f) {
         EXPECT_EQ(written, 0u);
      }
      if (thr == -10.0f) {
         EXPECT_EQ(written, 8u);
      }
   }
}
