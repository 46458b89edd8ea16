/*
 * ibis-report --kinds' classification: small disassembly texts in the
 * syntax brw-asm and ibis-shaderdb --asm-dir write, one kind at a time.
 */
#include <gtest/gtest.h>

#include "../asm_kinds.h"

namespace {

using ibis::asm_kind_counts;
using ibis::classify_asm;

/* Counts as {kind: n} for the kinds that are not zero. */
std::string
show(const asm_kind_counts &c)
{
   std::string s;
   for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++) {
      if (c[k])
         s += std::string(s.empty() ? "" : ", ") + ibis::asm_kind_names[k] + " " +
              std::to_string(c[k]);
   }
   return s;
}

} /* namespace */

TEST(asm_kinds, alu_math_send_and_skipped_lines)
{
   const char *text =
      "SIMD8 shader: 4 instructions. 0 loops. 30 cycles.\n"
      "   START B0 (30 cycles)\n"
      "math inv(8)     g66<1>F         g5<8,8,1>F      null<8,8,1>F    { align1 1Q compacted };\n"
      "mul(8)          g98<1>F         g7.3<0,1,0>F    0x3dcccccdF  /* 0.1F */ { align1 1Q };\n"
      "(+f0.0) sel(8)  g99<1>F         g98<8,8,1>F     g66<8,8,1>F     { align1 1Q };\n"
      "send(8)         g12<1>UW        g79<0,1,0>UD    0x04420001\n"
      "                            sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };\n"
      "   END B0\n";
   EXPECT_EQ(show(classify_asm(text)), "alu 2, math 1, send 1");
}

TEST(asm_kinds, mov_into_a_send_payload)
{
   /* g20-g21 are the payload (mlen 2); g22 is not, and g20 is read by the
    * send only after its second write, so the first write is an ordinary
    * copy.
    */
   const char *text =
      "mov(8)          g20<1>F         g5<8,8,1>F                      { align1 1Q };\n"
      "add(8)          g9<1>F          g20<8,8,1>F     g5<8,8,1>F      { align1 1Q };\n"
      "mov(8)          g20<1>F         g6<8,8,1>F                      { align1 1Q };\n"
      "mov(8)          g21<1>F         g7<8,8,1>F                      { align1 1Q };\n"
      "mov(8)          g22<1>F         g7<8,8,1>F                      { align1 1Q };\n"
      "send(8)         g12<1>UW        g20<0,1,0>UD    0x04420001\n"
      "                            sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 2 rlen 4 { align1 1Q };\n";
   EXPECT_EQ(show(classify_asm(text)), "mov payload 2, mov other 2, alu 1, send 1");
}

TEST(asm_kinds, sends_second_payload_and_header)
{
   /* sends: src0 g126 (mlen 1, the URB handle copied from g1: header),
    * src1 g118-g125 (ex_mlen 8).  A SIMD16 write into g124 covers g124 and
    * g125.
    */
   const char *text =
      "mov(8)          g126<1>UD       g1<8,8,1>UD                     { align1 WE_all 1Q compacted };\n"
      "mov(16)         g124<1>F        g11<8,8,1>F                     { align1 1H };\n"
      "mov(8)          g118<1>F        0x3f800000F  /* 1F */           { align1 1Q };\n"
      "sends(8)        nullUD          g126UD          g118UD          0x02080057                0x00000200\n"
      "                            urb MsgDesc: offset 5 SIMD8 write  mlen 1 ex_mlen 8 rlen 0 { align1 1Q EOT };\n";
   EXPECT_EQ(show(classify_asm(text)), "mov header 1, mov payload 2, send 1");
}

TEST(asm_kinds, no_mask_mov_into_a_payload_is_header_assembly)
{
   const char *text =
      "mov(8)          g30<1>UD        g9<8,8,1>UD                     { align1 WE_all 1Q };\n"
      "mov(1)          g30.2<1>UD      0x00000010UD                    { align1 WE_all 1N };\n"
      "send(8)         g40<1>UW        g30<0,1,0>UD    0x04420001\n"
      "                            sampler MsgDesc: sample SIMD8 Surface = 1 Sampler = 0  mlen 1 rlen 4 { align1 1Q };\n";
   EXPECT_EQ(show(classify_asm(text)), "mov header 2, send 1");
}

TEST(asm_kinds, constants_phi_copies_flow_and_nops)
{
   const char *text =
      "mov(1)          g82<1>D         1061997773D                     { align1 WE_all 1N };\n"
      "mov(8)          g10<1>F         0x0F  /* 0F */                  { align1 1Q };\n"
      "(+f0.0) if(8)   JIP: LABEL0     UIP: LABEL1                     { align1 1Q };\n"
      "add(8)          g11<1>F         g10<8,8,1>F     g2<8,8,1>F      { align1 1Q };\n"
      "mov(8)          g12<1>F         g11<8,8,1>F                     { align1 1Q };\n"
      "mov(8)          g13<1>F         g2<8,8,1>F                      { align1 1Q };\n"
      "else(8)         JIP: LABEL1     UIP: LABEL1                     { align1 1Q };\n"
      "LABEL0:\n"
      "mov(8)          g12<1>F         g3<8,8,1>F                      { align1 1Q };\n"
      "nop                                                             ;\n"
      "LABEL1:\n"
      "endif(8)        JIP: LABEL2                                     { align1 1Q };\n"
      "mov(8)          g14<1>F         g12<8,8,1>F                     { align1 1Q };\n"
      "add(8)          g15<1>F         g14<8,8,1>F     g13<8,8,1>F     { align1 1Q };\n";
   /* Three copies end their blocks (a NOP between does not count); the
    * mov after endif is an ordinary copy.
    */
   EXPECT_EQ(show(classify_asm(text)),
             "mov phi 3, mov const 2, mov other 1, alu 2, flow 3, nop 1");
}
