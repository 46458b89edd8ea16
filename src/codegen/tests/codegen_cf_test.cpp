/*
 * Structured control flow: JIP/UIP are computed after layout, counting 16
 * bytes per instruction, and moved to the compacted layout by the
 * encoder; the disassembly names each target with a label, so these
 * expectations check every offset on the compacted program.
 */
#include "codegen/tests/codegen_test.h"

using namespace ibis;
using namespace ibis::test;

/* if/else/endif: IF jumps past the ELSE, ELSE (BranchCtrl) to the NOP
 * brw puts before the ENDIF on Gen8-10, both UIPs to the ENDIF; ENDIF
 * with no block end after it jumps to the next instruction.
 */
TEST(codegen_cf, if_else_endif)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
block0:
   %2:flagx8@f0.0 = cmp.l %1, 0.0:f32
   (+%2) if
block1:
   %3:f32x8@g4 = mov 1.0:f32
   else
block2:
   %4:f32x8@g4 = mov 2.0:f32
block3:
   endif
   %5:f32x8@g5 = add %1, %1
)", R"(
cmp.l.f0.0(8) null<1>F g2<8,8,1>F 0x0F /* 0F */ { align1 1Q compacted };
(+f0.0) if(8) JIP: LABEL1 UIP: LABEL0 { align1 1Q };
mov(8) g4<1>F 0x3f800000F /* 1F */ { align1 1Q };
else(8) JIP: LABEL2 UIP: LABEL0 { align1 1Q BranchCtrl };
LABEL1:
mov(8) g4<1>F 0x40000000F /* 2F */ { align1 1Q };
LABEL2:
nop ;
LABEL0:
endif(8) JIP: LABEL3 { align1 1Q };
LABEL3:
add(8) g5<1>F g2<8,8,1>F g2<8,8,1>F { align1 1Q compacted };
)"));
}

/* An if without else: JIP = UIP = the ENDIF.  SIMD16 branches are 1H. */
TEST(codegen_cf, if_without_else_simd16)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd16 allocated
hw %1:f32x16@g2
block0:
   %2:flagx16@f1.0 = cmp.l %1, 0.0:f32
   (-%2) if
block1:
   %3:f32x16@g4 = mov 1.0:f32
block2:
   endif
)", R"(
cmp.l.f1.0(16) null<1>F g2<8,8,1>F 0x0F /* 0F */ { align1 1H };
(-f1.0) if(16) JIP: LABEL0 UIP: LABEL0 { align1 1H };
mov(16) g4<1>F 0x3f800000F /* 1F */ { align1 1H };
LABEL0:
endif(16) JIP: LABEL1 { align1 1H };
LABEL1:
)"));
}

/* Loops: Gen8+ has no DO; WHILE jumps back to the loop's first
 * instruction; BREAK and CONT jump (JIP) to the next block end and (UIP)
 * to the WHILE; an ENDIF inside the loop jumps to the WHILE, one before
 * it to the next HALT.  A HALT's UIP is the last HALT of the program
 * (brw's halt target), which itself goes on to the next instruction.
 */
TEST(codegen_cf, loops_and_halts)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
block0:
   %2:flagx8@f0.0 = cmp.l %1, 0.0:f32
   (+%2) if
block1:
   %3:f32x8@g4 = mov 1.0:f32
block2:
   endif
   %5:f32x8@g5 = add %1, %1
block3:
   do
   %6:flagx8@f0.1 = cmp.g %1, 1.0:f32
   (+%6) break
block4:
   %7:f32x8@g2 = mul %1, 0.5:f32
   (-%6) if
block5:
   cont
block6:
   endif
   %8:flagx8@f1.0 = cmp.nz %1, %1
   (+%8) while
block7:
   (+%2) halt
   halt
)", R"(
cmp.l.f0.0(8) null<1>F g2<8,8,1>F 0x0F /* 0F */ { align1 1Q compacted };
(+f0.0) if(8) JIP: LABEL0 UIP: LABEL0 { align1 1Q };
mov(8) g4<1>F 0x3f800000F /* 1F */ { align1 1Q };
LABEL0:
endif(8) JIP: LABEL1 { align1 1Q };
add(8) g5<1>F g2<8,8,1>F g2<8,8,1>F { align1 1Q compacted };
LABEL4:
cmp.g.f0.1(8) null<1>F g2<8,8,1>F 0x3f800000F /* 1F */ { align1 1Q };
(+f0.1) break(8) JIP: LABEL2 UIP: LABEL2 { align1 1Q };
mul(8) g2<1>F g2<8,8,1>F 0x3f000000F /* 0.5F */ { align1 1Q };
(-f0.1) if(8) JIP: LABEL3 UIP: LABEL3 { align1 1Q };
cont(8) JIP: LABEL3 UIP: LABEL2 { align1 1Q };
LABEL3:
endif(8) JIP: LABEL2 { align1 1Q };
cmp.nz.f1.0(8) null<1>F g2<8,8,1>F g2<8,8,1>F { align1 1Q };
LABEL2:
(+f1.0) while(8) JIP: LABEL4 { align1 1Q };
LABEL1:
(+f0.0) halt(8) JIP: LABEL5 UIP: LABEL5 { align1 1Q };
LABEL5:
halt(8) JIP: LABEL6 UIP: LABEL6 { align1 1Q };
LABEL6:
)"));
}

/* A quad_all predicate is Gen's all4h: GLSL's discard halts the quads all
 * of whose channels it discards (brw's "(-f1.0.any4h) halt" on the live
 * mask, tesseract/309.fs.simd16.asm:9).
 */
TEST(codegen_cf, quad_all_halt)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd16 allocated
hw %1:f32x16@g2
block0:
   %2:flagx16@f0.0 = cmp.l %1, 0.0:f32
   (+%2) halt {quad_all}
   halt
)", R"(
cmp.l.f0.0(16) null<1>F g2<8,8,1>F 0x0F /* 0F */ { align1 1H compacted };
(+f0.0.all4h) halt(16) JIP: LABEL0 UIP: LABEL0 { align1 1H };
LABEL0:
halt(16) JIP: LABEL1 UIP: LABEL1 { align1 1H };
LABEL1:
)"));
}

/* The offsets are bytes on the compacted program: decode the binary and
 * check that every branch lands on the instruction it names.
 */
TEST(codegen_cf, offsets_in_compacted_bytes)
{
   codegen_result r = generate(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
block0:
   %2:flagx8@f0.0 = cmp.l %1, 0.0:f32
block1:
   do
   %3:f32x8@g4 = add %1, %1
   %4:f32x8@g5 = add %3, %1
   (+%2) break
block2:
   %5:f32x8@g6 = add %4, %1
   (+%2) while
block3:
   %6:f32x8@g7 = mov %5
)");
   std::vector<isa::decoded> p =
      isa::decode_program(r.binary.data(), r.binary.size(), isa::gen::gen9);
   /* cmp, add, add (compacted, 8 bytes each), break, add, while, mov. */
   ASSERT_EQ(p.size(), 7u);
   EXPECT_TRUE(p[0].in.compacted && p[1].in.compacted && p[2].in.compacted);
   EXPECT_EQ(p[3].in.op, isa::opcode::break_);
   EXPECT_EQ(p[5].in.op, isa::opcode::while_);
   EXPECT_EQ(int64_t(p[3].offset) + p[3].in.jip, int64_t(p[5].offset));
   EXPECT_EQ(int64_t(p[3].offset) + p[3].in.uip, int64_t(p[5].offset));
   EXPECT_EQ(int64_t(p[5].offset) + p[5].in.jip, int64_t(p[1].offset));
   EXPECT_EQ(p[3].offset, 24u);
}

TEST(codegen_cf, unbalanced_is_an_error)
{
   /* The parser keeps IR text balanced; build a stray ELSE by hand. */
   shader s(shader_stage::fs, 8);
   s.allocated = true;
   block *b = s.add_block();
   b->append(s.create_instr(opcode::else_));
   EXPECT_THROW(generate_code(s, skl()), error);
}
