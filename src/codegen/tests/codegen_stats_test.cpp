/*
 * The stats line: each field counted as brw counts it.
 */
#include "codegen/tests/codegen_test.h"
#include "ir/ibis_perf.h"

using namespace ibis;
using namespace ibis::test;

/* The program's native instructions, in order:
 *   0 math pow(16)
 *     nop      (POW erratum: brw leaves it out of the count)
 *   1 add(16)  2 cmp(16)  3 if  4 mov  5 else  6 mov
 *   7 nop      (before ENDIF after an ELSE: brw counts it)
 *   8 endif  9 add  10 while
 *  11 send {spill}  12 send {fill}  13 send (sampler)  14 sendc (EOT)
 */
const char *program = R"(
shader fs simd16 allocated scratch 64
hw %0:u32x8@g0
hw %1:f32x16@g2
hw %2:u32x8[2]@g20
hw %9:f32x16[4]@g120
block0:
   %3:f32x16@g10 = math_pow %1, %1
   %4:f32x16@g12 = add %3, %1
   %5:flagx16@f0.0 = cmp.l %4, %1
   (+%5) if
block1:
   %6:f32x16@g14 = mov 1.0:f32
   else
block2:
   %7:f32x16@g14 = mov 2.0:f32
block3:
   endif
block4:
   do
   %8:f32x16@g16 = add %4, %4
   (+%5) while
block5:
   _ = send(8) 10:u32, 0x040e0000:u32, 0:u32, %2, _ {WE_all, spill}
   %10:u32x8@g24 = send(8) 10:u32, 0x021c0000:u32, 0:u32, %0, _ {WE_all, fill}
   %11:f32x16[4]@g30 = send 2:u32, 0x04420001:u32, 0:u32, %1, _
   _ = send 5:u32, 0x10031000:u32, 0:u32, %9, _ {EOT}
)";

TEST(codegen_stats, fields)
{
   std::unique_ptr<shader> s = parse_shader(program);
   codegen_result r = generate_code(*s, skl());
   const shader_stats &st = r.stats;
   EXPECT_EQ(st.instructions, 15u);
   EXPECT_EQ(st.loops, 1u);
   EXPECT_EQ(st.spills, 1u);
   EXPECT_EQ(st.fills, 1u);
   EXPECT_EQ(st.sends, 2u);
   EXPECT_EQ(st.promoted_constants, 0u);
   EXPECT_EQ(st.cycles, estimate_cycles(*s, skl()));
   EXPECT_GT(st.cycles, 0u);
   /* 16 native instructions (both NOPs included) before compaction. */
   EXPECT_EQ(st.bytes_uncompacted, 16u * 16u);
   EXPECT_EQ(st.bytes_compacted, r.binary.size());
   EXPECT_LT(st.bytes_compacted, st.bytes_uncompacted);

   std::vector<isa::decoded> p =
      isa::decode_program(r.binary.data(), r.binary.size(), isa::gen::gen9);
   ASSERT_EQ(p.size(), 16u);
   EXPECT_EQ(p[1].in.op, isa::opcode::nop);
   EXPECT_EQ(p[8].in.op, isa::opcode::nop);
}

TEST(codegen_stats, line)
{
   shader s(shader_stage::fs, 16);
   shader_stats st;
   st.instructions = 180;
   st.loops = 0;
   st.cycles = 3144;
   st.sends = 7;
   st.sched_mode = "top-down";
   st.bytes_uncompacted = 2928;
   st.bytes_compacted = 2048;
   EXPECT_EQ(stats_line(s, st),
             "FS SIMD16 shader: 180 inst, 0 loops, 3144 cycles, 0:0 spills:fills, "
             "7 sends, scheduled with mode top-down, Promoted 0 constants, "
             "compacted 2928 to 2048 bytes.");
   shader v(shader_stage::vs, 8);
   st.spills = 2;
   st.fills = 3;
   st.loops = 1;
   EXPECT_EQ(stats_line(v, st),
             "VS SIMD8 shader: 180 inst, 1 loops, 3144 cycles, 2:3 spills:fills, "
             "7 sends, scheduled with mode top-down, Promoted 0 constants, "
             "compacted 2928 to 2048 bytes.");
}
