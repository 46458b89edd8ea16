/*
 * Pseudo-ops expanded after allocation: the sequences they give, and
 * (where the sequence computes something) what they compute in the
 * simulator.
 */
#include "codegen/tests/codegen_test.h"
#include "sim/sim.h"

using namespace ibis;
using namespace ibis::test;

namespace {

/* Runs r on t and returns t. */
sim::thread
run(const codegen_result &r, sim::thread t)
{
   sim::memory mem;
   sim::run(r.binary, t, mem);
   return t;
}

sim::thread
fs_thread(unsigned simd, uint32_t dispatch_mask)
{
   sim::fs_payload p;
   p.simd = simd;
   p.dispatch_mask = dispatch_mask;
   for (unsigned s = 0; s < simd / 4; s++)
      p.subspans.push_back({uint16_t(2 * s), 0});
   return sim::make_fs_thread(p);
}

} /* anonymous namespace */

/* copy: one mov per piece and component (as far as the source reaches),
 * NoMask with WE_all, nothing when the allocator put both in one place; a
 * FLAG copy moves flag bits; undef gives no code.
 */
TEST(codegen_pseudo, copy)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd32 allocated
hw %1:f32x32[2]@g2
block0:
   %2:f32x32[2]@g10 = copy %1
   %3:f32x32@g2 = copy %1
   %4:u32x8@g20 = copy %1[1]:u32 {WE_all}
   %5:flagx32@f0.0 = cmp.l %1, %1
   %6:flagx32@f1.0 = copy %5
   %7:flagx16@f0.0 = cmp.l %1, %1
   %8:flagx16@f1.1 = copy %7
   %9:f32x8@g21 = undef
   %10:f32x8[2]@g22 = copy %9
)", R"(
mov(16) g10<1>F g2<8,8,1>F { align1 1H compacted };
mov(16) g12<1>F g4<8,8,1>F { align1 2H };
mov(16) g14<1>F g6<8,8,1>F { align1 1H compacted };
mov(16) g16<1>F g8<8,8,1>F { align1 2H };
mov(8) g20<1>UD g6<8,8,1>UD { align1 WE_all 1Q compacted };
cmp.l.f0.0(16) null<1>F g2<8,8,1>F g2<8,8,1>F { align1 1H compacted };
cmp.l.f0.0(16) null<1>F g4<8,8,1>F g4<8,8,1>F { align1 2H };
mov(1) f1<1>UD f0<0,1,0>UD { align1 WE_all 1N };
cmp.l.f0.0(16) null<1>F g2<8,8,1>F g2<8,8,1>F { align1 1H compacted };
mov(1) f1.1<1>UW f0<0,1,0>UW { align1 WE_all 1N };
mov(8) g22<1>F g21<8,8,1>F { align1 1Q compacted };
)"));
}

/* load_payload: a source already in place costs nothing, others move with
 * their own channel group (the two SIMD16 halves of a SIMD32 value), an
 * immediate fills a whole component, a SIMD-global payload moves NoMask.
 */
TEST(codegen_pseudo, load_payload)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd32 allocated
hw %1:f32x16@g2
hw %2:f32x16+16@g4
hw %3:f32x32@g20
block0:
   %4:f32x32[2]@g10 = load_payload %1, %2, %3
   %5:f32x16[2]@g4 = load_payload %2, 1.0:f32
   %6:f32x16[2]@g30 = load_payload %3.64, %3 {WE_all}
)", R"(
mov(16) g10<1>F g2<8,8,1>F { align1 1H compacted };
mov(16) g12<1>F g4<8,8,1>F { align1 2H };
mov(16) g14<1>F g20<8,8,1>F { align1 1H compacted };
mov(16) g16<1>F g22<8,8,1>F { align1 2H };
mov(16) g6<1>F 0x3f800000F /* 1F */ { align1 1H };
mov(16) g30<1>F g22<8,8,1>F { align1 WE_all 1H compacted };
mov(16) g32<1>F g20<8,8,1>F { align1 WE_all 1H compacted };
)"));

   EXPECT_EQ(codegen_error(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
block0:
   %2:f32x8[3]@g10 = load_payload %1, %1
)"), "codegen: '%2:f32x8[3]@g10 = load_payload %1, %1': sources fill 64 of 96 bytes");
}

/* A NoMask payload built from registers that follow each other (r0 and
 * r1 into a message header, brw's mov(16) 1H) moves two at a time; a
 * source out of order or in place breaks the pair.
 */
TEST(codegen_pseudo, load_payload_pairs_nomask_registers)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd8 allocated
hw %1:u32x8@g0
hw %2:u32x8@g1
hw %3:u32x8@g7
block0:
   %4:u32x8[2]@g20 = load_payload %1, %2 {WE_all}
   %5:u32x8[3]@g30 = load_payload %2, %1, %3 {WE_all}
   %6:u32x8[3]@g6 = load_payload %1, %3, %2 {WE_all}
)", R"(
mov(16) g20<1>UD g0<8,8,1>UD { align1 WE_all 1H compacted };
mov(8) g30<1>UD g1<8,8,1>UD { align1 WE_all 1Q compacted };
mov(8) g31<1>UD g0<8,8,1>UD { align1 WE_all 1Q compacted };
mov(8) g32<1>UD g7<8,8,1>UD { align1 WE_all 1Q compacted };
mov(8) g6<1>UD g0<8,8,1>UD { align1 WE_all 1Q compacted };
mov(8) g8<1>UD g1<8,8,1>UD { align1 WE_all 1Q compacted };
)"));
}

/* find_live_channel: fragment threads combine ce0 with the dispatch mask
 * in sr0.2 (they are not packed); other stages find the first bit of ce0.
 */
TEST(codegen_pseudo, find_live_channel)
{
   const char *fs = R"(
shader fs simd16 allocated
block0:
   %1:u32x1@g20 = find_live_channel
)";
   EXPECT_TRUE(check_asm(fs, R"(
mov(1) g20<1>UD sr0.2<0,1,0>UD { align1 WE_all 1N compacted };
and(1) g20<1>UD mask0<0,1,0>UD g20<0,1,0>UD { align1 WE_all 1N };
fbl(1) g20<1>UD g20<0,1,0>UD { align1 WE_all 1N compacted };
)"));
   EXPECT_TRUE(check_asm(R"(
shader cs simd16 allocated
block0:
   %1:u32x1@g20 = find_live_channel
)", R"(
fbl(1) g20<1>UD mask0<0,1,0>UD { align1 WE_all 1N compacted };
)"));

   /* Pixels 0-4 not dispatched: the first live channel is 5. */
   sim::thread t = run(generate(fs), fs_thread(16, 0xffe0));
   EXPECT_EQ(t.read<uint32_t>(20, 0), 5u);
}

/* broadcast: a constant index reads the channel directly; a register
 * index goes through a0.0 (shl by the element size, the base above 512
 * bytes added to it, the rest in the indirect immediate); a wider
 * destination then takes channel 0 everywhere.
 */
TEST(codegen_pseudo, broadcast)
{
   const char *prog = R"(
shader cs simd16 allocated
hw %1:u32x16@g30
hw %2:u32x1@g20
hw %7:f64x8@g50
block0:
   %3:u32x1@g21 = broadcast %1, %2 {WE_all}
   %4:u32x1@g21.4 = broadcast %1, 3:u32 {WE_all}
   %5:u32x16@g40 = broadcast %1, %2
   %6:f64x1@g22 = broadcast %7, %2 {WE_all}
)";
   EXPECT_TRUE(check_asm(prog, R"(
shl(1) a0<1>UD g20<0,1,0>UD 0x00000002UD { align1 WE_all 1N compacted };
add(1) a0<1>UD a0<0,1,0>UD 0x00000200UD { align1 WE_all 1N };
mov(1) g21<1>UD g[a0 448]<0,1,0>UD { align1 WE_all 1N };
mov(1) g21.1<1>UD g30.3<0,1,0>UD { align1 WE_all 1N };
shl(1) a0<1>UD g20<0,1,0>UD 0x00000002UD { align1 WE_all 1N compacted };
add(1) a0<1>UD a0<0,1,0>UD 0x00000200UD { align1 WE_all 1N };
mov(1) g40<1>UD g[a0 448]<0,1,0>UD { align1 WE_all 1N };
mov(16) g40<1>UD g40<0,1,0>UD { align1 1H compacted };
shl(1) a0<1>UD g20<0,1,0>UD 0x00000003UD { align1 WE_all 1N compacted };
add(1) a0<1>UD a0<0,1,0>UD 0x00000600UD { align1 WE_all 1N };
mov(1) g22<1>UD g[a0 64]<0,1,0>UD { align1 WE_all 1N };
mov(1) g22.1<1>UD g[a0 68]<0,1,0>UD { align1 WE_all 1N };
)"));

   sim::cs_payload p;
   p.simd = 16;
   p.local_size = {16, 1, 1};
   sim::thread t = sim::make_cs_thread(p);
   for (unsigned i = 0; i < 16; i++)
      t.write<uint32_t>(30, i, 100 + i);
   for (unsigned i = 0; i < 8; i++)
      t.write<uint64_t>(50, i, 0x1234567800000000ull + i);
   t.write<uint32_t>(20, 0, 6);
   t = run(generate(prog), t);
   EXPECT_EQ(t.read<uint32_t>(21, 0), 106u);
   EXPECT_EQ(t.read<uint32_t>(21, 1), 103u);
   for (unsigned i = 0; i < 16; i++)
      EXPECT_EQ(t.read<uint32_t>(40, i), 106u) << "channel " << i;
   EXPECT_EQ(t.read<uint64_t>(22, 0), 0x1234567800000006ull);
}

/* shuffle: a0.0-15 take one address per channel, the move reads them
 * with a VxH region; 64-bit data moves as two dwords, eight channels at
 * a time.
 */
TEST(codegen_pseudo, shuffle)
{
   const char *prog = R"(
shader cs simd16 allocated
hw %1:u32x16@g30
hw %2:u32x16@g32
hw %3:u64x16@g50
block0:
   %4:u32x16@g40 = shuffle %1, %2
   %5:u64x16@g60 = shuffle %3, %2
   %6:u32x16@g42 = shuffle %1, 2:u32
)";
   EXPECT_TRUE(check_asm(prog, R"(
mov(16) a0<1>UW 0x03c0UW { align1 WE_all 1H };
shl(16) a0<1>UW g32<16,8,2>UW 0x0002UW { align1 1H };
add(16) a0<1>UW a0<16,16,1>UW 0x03c0UW { align1 1H };
mov(16) g40<1>UD g[a0]<VxH,1,0>UD { align1 1H };
mov(8) a0<1>UW 0x0640UW { align1 WE_all 1Q };
shl(8) a0<1>UW g32<16,8,2>UW 0x0003UW { align1 1Q };
add(8) a0<1>UW a0<8,8,1>UW 0x0640UW { align1 1Q };
mov(8) g60<2>UD g[a0]<VxH,1,0>UD { align1 1Q };
mov(8) g60.1<2>UD g[a0 4]<VxH,1,0>UD { align1 1Q };
mov(8) a0<1>UW 0x0640UW { align1 WE_all 2Q };
shl(8) a0<1>UW g33<16,8,2>UW 0x0003UW { align1 2Q };
add(8) a0<1>UW a0<8,8,1>UW 0x0640UW { align1 2Q };
mov(8) g62<2>UD g[a0]<VxH,1,0>UD { align1 2Q };
mov(8) g62.1<2>UD g[a0 4]<VxH,1,0>UD { align1 2Q };
mov(16) g42<1>UD g30.2<0,1,0>UD { align1 1H compacted };
)"));

   sim::cs_payload p;
   p.simd = 16;
   p.local_size = {16, 1, 1};
   sim::thread t = sim::make_cs_thread(p);
   for (unsigned i = 0; i < 16; i++) {
      t.write<uint32_t>(30, i, 100 + i);
      t.write<uint32_t>(32, i, (i * 7) % 16);
      t.write<uint64_t>(50, i, 0xabcd000000000000ull + i);
   }
   t = run(generate(prog), t);
   for (unsigned i = 0; i < 16; i++) {
      EXPECT_EQ(t.read<uint32_t>(40, i), 100 + (i * 7) % 16) << "channel " << i;
      EXPECT_EQ(t.read<uint64_t>(60, i), 0xabcd000000000000ull + (i * 7) % 16);
      EXPECT_EQ(t.read<uint32_t>(42, i), 102u);
   }
}

/* mov_indirect: each channel reads base + its byte offset; an immediate
 * offset is a plain move; component c reads component c of the base.
 */
TEST(codegen_pseudo, mov_indirect)
{
   const char *prog = R"(
shader cs simd8 allocated
uniform %1:u32x1[8]@g6
hw %2:u32x8@g30
hw %3:u32x1@g31
block0:
   %4:u32x8[2]@g40 = mov_indirect %1, %2, 32:u32
   %5:u32x1@g42 = mov_indirect %1, %3, 32:u32
   %6:u32x8@g43 = mov_indirect %1, 8:u32, 32:u32
)";
   EXPECT_TRUE(check_asm(prog, R"(
mov(8) a0<1>UW 0x00c0UW { align1 WE_all 1Q };
add(8) a0<1>UW g30<16,8,2>UW 0x00c0UW { align1 1Q };
mov(8) g40<1>UD g[a0]<VxH,1,0>UD { align1 1Q };
mov(8) a0<1>UW 0x00c4UW { align1 WE_all 1Q };
add(8) a0<1>UW g30<16,8,2>UW 0x00c4UW { align1 1Q };
mov(8) g41<1>UD g[a0]<VxH,1,0>UD { align1 1Q };
mov(1) a0<1>UW 0x00c0UW { align1 WE_all 1N };
add(1) a0<1>UW g31<0,1,0>UW 0x00c0UW { align1 WE_all 1N };
mov(1) g42<1>UD g[a0]<0,1,0>UD { align1 WE_all 1N };
mov(8) g43<1>UD g6.2<0,1,0>UD { align1 1Q compacted };
)"));

   sim::cs_payload p;
   sim::thread t = sim::make_cs_thread(p);
   for (unsigned i = 0; i < 8; i++) {
      t.write<uint32_t>(6, i, 1000 + i);
      t.write<uint32_t>(30, i, 4 * (7 - i));
   }
   t.write<uint32_t>(31, 0, 12);
   t = run(generate(prog), t);
   for (unsigned i = 0; i < 8; i++) {
      EXPECT_EQ(t.read<uint32_t>(40, i), 1000 + (7 - i)) << "channel " << i;
      EXPECT_EQ(t.read<uint32_t>(41, i), i == 0 ? 0u : 1000 + (8 - i))
         << "channel " << i;
      EXPECT_EQ(t.read<uint32_t>(43, i), 1002u);
   }
   EXPECT_EQ(t.read<uint32_t>(42, 0), 1003u);
}

/* load_subgroup_invocation: 0-7 from a packed vector, +8 and +16. */
TEST(codegen_pseudo, load_subgroup_invocation)
{
   const char *prog = R"(
shader cs simd32 allocated
block0:
   %1:u16x16@g46 = load_subgroup_invocation
   %2:u32x32@g48 = load_subgroup_invocation
)";
   EXPECT_TRUE(check_asm(prog, R"(
mov(8) g46<1>UW 0x76543210V { align1 WE_all 1Q };
add(8) g46.8<1>UW g46<8,8,1>UW 0x0008UW { align1 WE_all 1Q };
mov(8) g48<1>UW 0x76543210V { align1 WE_all 1Q };
mov(8) g48<1>UD g48<8,8,1>UW { align1 WE_all 1Q };
add(8) g49<1>UD g48<8,8,1>UD 0x00000008UD { align1 WE_all 1Q compacted };
add(16) g50<1>UD g48<8,8,1>UD 0x00000010UD { align1 WE_all 1H compacted };
)"));
   sim::cs_payload p;
   p.simd = 32;
   p.local_size = {32, 1, 1};
   sim::thread t = run(generate(prog), sim::make_cs_thread(p));
   for (unsigned i = 0; i < 16; i++)
      EXPECT_EQ(t.read<uint16_t>(46, i), i);
   for (unsigned i = 0; i < 32; i++)
      EXPECT_EQ(t.read<uint32_t>(48, i), i);
}
