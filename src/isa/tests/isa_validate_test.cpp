/*
 * The EU validator (isa_validate.cpp): each rule with an instruction that
 * breaks it and one that keeps it, and brw's own programs, which must
 * pass every rule.
 */
#include <cstdio>

#include "isa/isa.h"
#include "isa/tests/isa_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;
using namespace ibis::isa;
using namespace ibis::isa::test;

namespace {

/* The first instruction of the text, through its encoding (what the
 * validator sees in a binary).
 */
inst
bits_of(const std::string &text, gen g = gen::gen9)
{
   return decode(encode(parse_asm(text, g, "t.asm").at(0), g), g);
}

std::string
joined(const std::vector<std::string> &v)
{
   std::string s;
   for (const std::string &e : v)
      s += e + "\n";
   return s;
}

::testing::AssertionResult
violates(const inst &in, const std::string &rule, gen g = gen::gen9, bool lp = false)
{
   std::vector<std::string> errors = validate(in, g, lp);
   for (const std::string &e : errors) {
      if (e.find(rule) != std::string::npos)
         return ::testing::AssertionSuccess();
   }
   return ::testing::AssertionFailure() << "no '" << rule << "' in:\n" << joined(errors);
}

::testing::AssertionResult
valid(const inst &in, gen g = gen::gen9, bool lp = false)
{
   std::vector<std::string> errors = validate(in, g, lp);
   if (errors.empty())
      return ::testing::AssertionSuccess();
   return ::testing::AssertionFailure() << joined(errors);
}

::testing::AssertionResult
violates(const char *text, const std::string &rule)
{
   return violates(bits_of(text), rule);
}

::testing::AssertionResult
valid(const char *text)
{
   return valid(bits_of(text));
}

} /* namespace */

TEST(IsaValidate, Values)
{
   inst in = bits_of("add(8) g2<1>F g3<8,8,1>F g4<8,8,1>F { align1 1Q };");
   EXPECT_TRUE(valid(in));
   in.exec_size = 64;
   EXPECT_TRUE(violates(in, "values: invalid execution size"));
   in.exec_size = 8;
   in.op = opcode::illegal;
   EXPECT_TRUE(violates(in, "Instruction not supported on this Gen"));

   in = bits_of("add(8) g2<1>F g3<8,8,1>F g4<8,8,1>F { align1 1Q };");
   in.src[1].type = type::invalid;
   EXPECT_TRUE(violates(in, "Invalid source register type encoding."));

   /* Gen9 three-source instructions are align16 only. */
   in = bits_of("mad(8) g2<1>F g3<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };");
   EXPECT_TRUE(valid(in));
   in.access = access_mode::align1;
   EXPECT_TRUE(violates(in, "Align1 mode not allowed on Gfx9 for 3-src instructions"));
}

TEST(IsaValidate, SourcesNotNull)
{
   EXPECT_TRUE(violates("add(8) g2<1>F null<8,8,1>F g4<8,8,1>F { align1 1Q };",
                        "values: src0 is null"));
   EXPECT_TRUE(violates("add(8) g2<1>F g3<8,8,1>F null<8,8,1>F { align1 1Q };",
                        "values: src1 is null"));
   /* A one-source math reads no src1: null is what brw encodes there. */
   EXPECT_TRUE(valid("math inv(8) g2<1>F g3<8,8,1>F null<8,8,1>F { align1 1Q };"));
}

TEST(IsaValidate, Send)
{
   /* EOT payloads come from g112-g127. */
   EXPECT_TRUE(violates("send(8) null<1>F g100<0,1,0>F 0x8a080017\n"
                        "   urb MsgDesc: ignored { align1 1Q EOT };",
                        "send: send with EOT must use g112-g127"));
   EXPECT_TRUE(valid("send(8) null<1>F g123<0,1,0>F 0x8a080017\n"
                     "   urb MsgDesc: ignored { align1 1Q EOT };"));
   EXPECT_TRUE(violates("sends(8) nullUD g1UD g18UD 0x02080017 0x00000200\n"
                        "   urb MsgDesc: ignored { align1 1Q EOT };",
                        "send: send with EOT must use g112-g127"));

   /* mlen 2 from g34 covers g35. */
   EXPECT_TRUE(violates("sends(8) nullUD g34UD g35UD 0x04035001 0x00000100\n"
                        "   dp data 1 MsgDesc: ignored { align1 1Q };",
                        "send: split send payloads must not overlap"));
   EXPECT_TRUE(valid("sends(8) nullUD g34UD g36UD 0x04035001 0x00000100\n"
                     "   dp data 1 MsgDesc: ignored { align1 1Q };"));
   /* ex_mlen 1 from g33 ends before g34. */
   inst in = bits_of("sends(8) nullUD g34UD g33UD 0x04035001 0x00000040\n"
                     "   dp data 1 MsgDesc: ignored { align1 1Q };");
   EXPECT_TRUE(valid(in));
   in.ex_desc = sends_ex_desc(2);
   EXPECT_TRUE(violates(in, "split send payloads must not overlap"));
   in = bits_of("sends(8) nullUD g34UD g36UD 0x04035001 0x00000100\n"
                "   dp data 1 MsgDesc: ignored { align1 1Q };");
   in.src[1] = arf_reg(arf::acc, 0, type::UD);
   EXPECT_TRUE(violates(in, "src1 of split send must be a GRF or NULL"));

   /* rlen 2 into g126-g127 from a payload reaching g126. */
   EXPECT_TRUE(violates("send(8) g126<1>UW g125<0,1,0>UD 0x04220001\n"
                        "   sampler MsgDesc: ignored { align1 1Q };",
                        "r127 must not be used for return address"));
   EXPECT_TRUE(valid("send(8) g124<1>UW g125<0,1,0>UD 0x04220001\n"
                     "   sampler MsgDesc: ignored { align1 1Q };"));
   in = bits_of("send(8) g124<1>UW g125<0,1,0>UD 0x04220001\n"
                "   sampler MsgDesc: ignored { align1 1Q };");
   in.src[0].indirect = true;
   EXPECT_TRUE(violates(in, "send: send must use direct addressing"));
   in.src[0].indirect = false;
   in.src[0].file = reg_file::arf;
   EXPECT_TRUE(violates(in, "send: send from non-GRF"));
}

TEST(IsaValidate, SendDescriptor)
{
   /* URB SIMD8 write: header (bit 19) required. */
   EXPECT_TRUE(valid("send(8) null<1>F g2<0,1,0>UD 0x02080017\n"
                     "   urb MsgDesc: ignored { align1 1Q };"));
   EXPECT_TRUE(violates("send(8) null<1>F g2<0,1,0>UD 0x02000017\n"
                        "   urb MsgDesc: ignored { align1 1Q };",
                        "send-desc: Header must be present for all URB messages."));
   /* Opcodes past SIMD8 read: the fence (9) is Gfx12.5's, 10 is none;
    * the HWord write (0) is valid from Gen7; a SIMD8 read reads.
    */
   EXPECT_TRUE(violates("send(8) null<1>F g2<0,1,0>UD 0x0208001a\n"
                        "   urb MsgDesc: ignored { align1 1Q };",
                        "send-desc: Invalid URB message"));
   EXPECT_TRUE(violates("send(8) null<1>F g2<0,1,0>UD 0x02080019\n"
                        "   urb MsgDesc: ignored { align1 1Q };",
                        "URB fence message only valid on gfx >= 12.5"));
   EXPECT_TRUE(valid("send(8) null<1>F g2<0,1,0>UD 0x02080010\n"
                     "   urb MsgDesc: ignored { align1 1Q };"));
   EXPECT_TRUE(violates("send(8) null<1>F g2<0,1,0>UD 0x02080018\n"
                        "   urb MsgDesc: ignored { align1 1Q };",
                        "URB SIMD8 read message must read some data."));
   EXPECT_TRUE(valid("send(8) g4<1>UD g2<0,1,0>UD 0x02180018\n"
                     "   urb MsgDesc: ignored { align1 1Q };"));
}

TEST(IsaValidate, OperandTypes)
{
   /* Packed bytes: raw moves only. */
   EXPECT_TRUE(violates("add(8) g2<1>UB g3<8,8,1>UB g4<8,8,1>UB { align1 1Q };",
                        "types: Only raw MOV supports a packed-byte destination"));
   EXPECT_TRUE(valid("mov(8) g2<1>UB g3<8,8,1>B { align1 1Q };"));
   EXPECT_TRUE(valid("add(8) g2<2>UB g3<8,8,1>UB g4<8,8,1>UB { align1 1Q };"));

   EXPECT_TRUE(violates("mov(4) g2<4>UB g4<4,4,1>DF { align1 1N };",
                        "There are no direct conversions between 64-bit types and B/UB"));
   EXPECT_TRUE(valid("mov(4) g2<2>D g4<4,4,1>DF { align1 1N };"));
   EXPECT_TRUE(violates("mov(4) g2<4>HF g4<4,4,1>DF { align1 1N };",
                        "There are no direct conversions between 64-bit types and HF"));

   /* Integer <-> HF: dword-strided, dword-aligned destination. */
   EXPECT_TRUE(violates("mov(8) g2<1>HF g4<8,8,1>D { align1 1Q };",
                        "must be strided by a DWord on the destination"));
   EXPECT_TRUE(violates("mov(8) g2.1<2>HF g4<8,8,1>D { align1 1Q };",
                        "must be aligned to a DWord on the destination"));
   EXPECT_TRUE(valid("mov(8) g2<2>HF g4<8,8,1>D { align1 1Q };"));
   /* F -> HF: even words, or packed and oword-aligned (mixed float). */
   EXPECT_TRUE(violates("mov(8) g2<4>HF g4<8,8,1>F { align1 1Q };",
                        "Conversions to HF must have either all words in even"));
   EXPECT_TRUE(valid("mov(8) g2<2>HF g4<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(valid("mov(8) g2<1>HF g4<8,8,1>F { align1 1Q };"));

   /* Destination stride = execution type size / destination type size. */
   EXPECT_TRUE(violates("add(8) g2<1>W g3<8,8,1>D g4<8,8,1>D { align1 1Q };",
                        "types: Destination stride must be equal to the ratio"));
   EXPECT_TRUE(valid("add(8) g2<2>W g3<8,8,1>D g4<8,8,1>D { align1 1Q };"));
   EXPECT_TRUE(valid("add(1) g2<1>W g3<0,1,0>D g4<0,1,0>D { align1 WE_all 1N };"));
   EXPECT_TRUE(violates("add(8) g2.1<2>W g3<8,8,1>D g4<8,8,1>D { align1 1Q };",
                        "Destination subreg must be aligned to the size of the "
                        "execution data type"));
   EXPECT_TRUE(violates("add(8) g2.2<4>B g3<8,8,1>D g4<8,8,1>D { align1 1Q };",
                        "(or to the next lowest byte for byte destinations)"));
   EXPECT_TRUE(valid("add(8) g2.1<4>B g3<8,8,1>D g4<8,8,1>D { align1 1Q };"));

   /* Gen11 has no 64-bit types and no byte src1. */
   inst in = bits_of("add(8) g2<1>D g3<8,8,1>D g4<8,8,1>D { align1 1Q };", gen::gen11);
   EXPECT_TRUE(valid(in, gen::gen11));
   in.dst.type = in.src[0].type = in.src[1].type = type::DF;
   EXPECT_TRUE(violates(in, "64-bit float destination, but platform does not support it",
                        gen::gen11));
   in = bits_of("add(8) g2<1>W g3<8,8,1>W g4<16,8,2>B { align1 1Q };", gen::gen11);
   EXPECT_TRUE(violates(in, "Byte data type is not supported for src1", gen::gen11));

   /* 64-bit three-source operands cannot be replicated. */
   EXPECT_TRUE(violates("mad(4) g2<1>DF g4<4,4,1>DF g6<0,1,0>DF g8<4,4,1>DF { align16 1N };",
                        "types: RepCtrl must be zero for 64-bit source 1"));
   EXPECT_TRUE(valid("mad(4) g2<1>DF g4<4,4,1>DF g6<4,4,1>DF g8<4,4,1>DF { align16 1N };"));
}

TEST(IsaValidate, RegionParameters)
{
   /* The SIMD8 VS block read ibis emitted: send(1) reading <8,8,1>. */
   EXPECT_TRUE(violates("send(1) g3<1>UD g2<8,8,1>UD 0x02182200\n"
                        "   data MsgDesc: ignored { align1 WE_all 1N };",
                        "region: ExecSize must be greater than or equal to Width"));
   EXPECT_TRUE(valid("send(1) g3<1>UD g2<0,1,0>UD 0x02182200\n"
                     "   data MsgDesc: ignored { align1 WE_all 1N };"));
   EXPECT_TRUE(violates("mov(4) g2<1>F g3<8,8,1>F { align1 1N };",
                        "ExecSize must be greater than or equal to Width"));

   EXPECT_TRUE(violates("mov(8) g2<1>F g3<1,1,1>F { align1 1Q };",
                        "If Width = 1, HorzStride must be 0"));
   EXPECT_TRUE(valid("mov(8) g2<1>F g3<1,1,0>F { align1 1Q };"));
   EXPECT_TRUE(violates("mov(8) g2<1>F g3<4,8,1>F { align1 1Q };",
                        "VertStride must be set to Width * HorzStride"));
   EXPECT_TRUE(valid("mov(8) g2<1>F g3<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(violates("mov(1) g2<1>F g3<1,1,0>F { align1 WE_all 1N };",
                        "If ExecSize = Width = 1, both VertStride and HorzStride must be 0"));
   EXPECT_TRUE(valid("mov(1) g2<1>F g3<0,1,0>F { align1 WE_all 1N };"));
   EXPECT_TRUE(violates("mov(8) g2<1>F g3<0,2,0>F { align1 1Q };",
                        "If VertStride = HorzStride = 0, Width must be 1"));
   EXPECT_TRUE(violates("mov(8) g2<1>F g3.4<8,8,1>F { align1 1Q };",
                        "VertStride must be used to cross GRF register boundaries"));
   EXPECT_TRUE(valid("mov(8) g2<1>F g3.4<4,4,1>F { align1 1Q };"));
   /* VxH indirect rows have no vertical stride. */
   EXPECT_TRUE(valid("mov(8) g2<1>F g[a0 64]<VxH,1,0>F { align1 1Q };"));

   inst in = bits_of("mov(8) g2<1>F g3<8,8,1>F { align1 1Q };");
   in.dst.hstride = 0;
   EXPECT_TRUE(violates(in, "region: Destination Horizontal Stride must not be 0"));

   in = bits_of("add(4) g2<1>F g3<4,4,1>F g4<4,4,1>F { align1 1N };");
   in.access = access_mode::align16;
   in.src[0].vstride = in.src[1].vstride = 4;
   EXPECT_TRUE(valid(in));
   in.src[1].vstride = 8;
   EXPECT_TRUE(violates(in, "In Align16 mode, only VertStride of 0, 2, or 4 is allowed"));
   in.src[1].vstride = 4;
   in.dst.hstride = 2;
   EXPECT_TRUE(violates(in, "region: Destination Horizontal Stride must be 1"));
}

TEST(IsaValidate, MixedFloat)
{
   EXPECT_TRUE(violates("add(16) g2<1>F g4<8,8,1>HF g6<8,8,1>F { align1 1H };",
                        "mixed-float: Mixed float mode with 32-bit float destination "
                        "is limited to SIMD8"));
   EXPECT_TRUE(valid("add(8) g2<1>F g4<8,8,1>HF g6<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(violates("add(16) g2<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1H };",
                        "limited to SIMD8 when destination is packed half-float"));
   EXPECT_TRUE(valid("add(8) g2<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(violates("add(8) g2.4<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };",
                        "packed half-float output must be oword aligned"));
   EXPECT_TRUE(valid("add(8) g2.8<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(violates("math inv(8) g2<1>F g4<8,8,1>HF null<8,8,1>F { align1 1Q };",
                        "Align1 mixed mode math needs strided half-float inputs"));
   EXPECT_TRUE(valid("math inv(8) g2<1>F g4<16,8,2>HF null<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(violates("add(8) g2<1>HF acc0.1<8,8,1>F g6<8,8,1>F { align1 1Q };",
                        "register-aligned accumulator source reads"));
   EXPECT_TRUE(violates("mac(8) g2<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };",
                        "accumulator source and half-float destination requires a "
                        "stride of 2"));
   EXPECT_TRUE(valid("mac(8) g2<2>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };"));
   /* Broadwell has no mixed-float mode: the general ratio rule holds
    * (CHV, a low-power Gen8, has the mode).
    */
   inst bdw = bits_of("add(8) g2<1>HF g4<8,8,1>F g6<8,8,1>F { align1 1Q };", gen::gen8);
   EXPECT_TRUE(violates(bdw, "Destination stride must be equal to the ratio", gen::gen8));
   EXPECT_TRUE(valid(bdw, gen::gen8, true));

   inst in = bits_of("add(8) g2<1>F g4<8,8,1>HF g6<8,8,1>F { align1 1Q };");
   in.src[0].indirect = true;
   EXPECT_TRUE(violates(in, "Indirect addressing on source is not supported"));

   in = bits_of("add(8) g2<1>F g4<8,8,1>HF g6<8,8,1>F { align1 1Q };");
   in.access = access_mode::align16;
   in.src[0].vstride = in.src[1].vstride = 4;
   EXPECT_TRUE(valid(in));
   in.src[0].vstride = 2;
   EXPECT_TRUE(violates(in, "Align16 mixed float mode assumes packed data"));
   in.src[0].vstride = 4;
   in.exec_size = 16;
   in.dst.type = type::HF;
   EXPECT_TRUE(violates(in, "Align16 mixed float mode is limited to SIMD8"));
   in.exec_size = 8;
   in.src[1] = arf_reg(arf::acc, 0, type::F);
   in.src[1].vstride = 4;
   EXPECT_TRUE(violates(in, "No accumulator read access for Align16 mixed float"));
}

TEST(IsaValidate, RegionAlignment)
{
   EXPECT_TRUE(violates("mov(16) g2<1>D g4<16,8,2>D { align1 1H };",
                        "alignment: A source cannot span more than 2 adjacent GRF registers"));
   EXPECT_TRUE(valid("mov(16) g2<1>D g4<8,8,1>D { align1 1H };"));
   EXPECT_TRUE(violates("mov(16) g2<4>D g4<8,8,1>D { align1 1H };",
                        "A destination cannot span more than 2 adjacent GRF registers"));
   /* Math writing two registers writes as many channels to each. */
   EXPECT_TRUE(violates("math inv(8) g2.2<1>F g4<8,8,1>F null<8,8,1>F { align1 1Q };",
                        "Writes must be evenly split between the two destination registers"));
   EXPECT_TRUE(valid("math inv(8) g2.4<1>F g4<8,8,1>F null<8,8,1>F { align1 1Q };"));
   /* On Gen8 every instruction (Mesa 23.3, BDW PRM), on Gen9 math only. */
   inst in = bits_of("mov(8) g2.2<1>F g4<8,8,1>F { align1 1Q };", gen::gen8);
   EXPECT_TRUE(violates(in, "Writes must be evenly split", gen::gen8));
   EXPECT_TRUE(valid(bits_of("mov(8) g2.2<1>F g4<8,8,1>F { align1 1Q };")));
}

TEST(IsaValidate, VectorImmediates)
{
   EXPECT_TRUE(valid("mov(8) g2<1>W 0x76543210V { align1 1Q };"));
   EXPECT_TRUE(violates("mov(8) g2.1<1>W 0x76543210V { align1 1Q };",
                        "vector-imm: Destination must be 128-bit aligned"));
   EXPECT_TRUE(violates("mov(8) g2<1>D 0x76543210V { align1 1Q };",
                        "stride equivalent to word in order to use the V or UV type"));
   EXPECT_TRUE(valid("mov(4) g2<1>F 0x30201000VF { align1 1N };"));
   EXPECT_TRUE(violates("mov(4) g2<1>HF 0x30201000VF { align1 1N };",
                        "stride equivalent to dword in order to use the VF type"));
}

TEST(IsaValidate, DoublePrecision)
{
   /* Align16 with a QWord destination and a smaller source: SIMD2 at most. */
   inst in = bits_of("mov(4) g2<1>DF g4<4,4,1>F { align1 1N };");
   EXPECT_TRUE(valid(in));
   in.access = access_mode::align16;
   in.src[0].vstride = 4;
   EXPECT_TRUE(violates(in, "64-bit: In Align16 exec size cannot exceed 2"));
   in.exec_size = 2;
   EXPECT_TRUE(valid(in));

   /* CHV/BXT/GLK: a D x D multiply counts as 64-bit and needs qword strides. */
   in = bits_of("mul(8) g2<1>D g4<8,8,1>D g6<8,8,1>D { align1 1Q };");
   EXPECT_TRUE(valid(in));
   EXPECT_TRUE(violates(in, "Source and destination horizontal stride must equal and a "
                        "multiple of a qword", gen::gen9, true));
   in = bits_of("add(4) g2<1>DF g4<4,4,1>DF g8<4,4,1>DF { align1 1N };");
   EXPECT_TRUE(valid(in, gen::gen9, true));
   in.no_dd_clear = true;
   EXPECT_TRUE(violates(in, "DepCtrl is not allowed when the execution type is 64-bit",
                        gen::gen9, true));
   in.no_dd_clear = false;
   in.acc_wr = true;
   EXPECT_TRUE(violates(in, "Architecture registers cannot be used", gen::gen9, true));
   in.acc_wr = false;
   in.src[0].subnr = 8;
   EXPECT_TRUE(violates(in, "Source and destination offset must be the same",
                        gen::gen9, true));
}

TEST(IsaValidate, Instructions)
{
   EXPECT_TRUE(violates("cmp(8) null<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };",
                        "inst: CMP (or CMPN) must have a condition."));
   EXPECT_TRUE(valid("cmp.l.f0.0(8) null<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };"));

   EXPECT_TRUE(violates("sel(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };",
                        "SEL must either be predicated or have a condition modifiers"));
   EXPECT_TRUE(violates("(+f0.0) sel.ge(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };",
                        "SEL must either be predicated or have a condition modifiers"));
   EXPECT_TRUE(valid("sel.ge(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };"));
   EXPECT_TRUE(valid("(+f0.0) sel(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };"));

   EXPECT_TRUE(violates("mul(8) g2<1>D g3<16,8,2>W g4<8,8,1>D { align1 1Q };",
                        "the DW operand must be src0."));
   EXPECT_TRUE(valid("mul(8) g2<1>D g4<8,8,1>D g3<16,8,2>W { align1 1Q };"));
   EXPECT_TRUE(violates("mul(8) g2<1>D acc0<8,8,1>D g3<16,8,2>W { align1 1Q };",
                        "Integer source operands cannot be accumulators."));
   EXPECT_TRUE(violates("mul.sat(8) g2<1>D g4<8,8,1>D g3<16,8,2>W { align1 1Q };",
                        "Neither Saturate nor conditional modifier allowed with DW "
                        "integer multiply."));
   EXPECT_TRUE(valid("mul.sat(8) g2<1>F g4<8,8,1>F g3<8,8,1>F { align1 1Q };"));

   EXPECT_TRUE(violates("math intdiv(8) g2<1>D -g3<8,8,1>D g4<8,8,1>D { align1 1Q };",
                        "INT DIV function does not support source modifiers."));
   EXPECT_TRUE(valid("math intdiv(8) g2<1>D g3<8,8,1>D g4<8,8,1>D { align1 1Q };"));

   EXPECT_TRUE(violates("and(8) g2<1>UD (abs)g3<8,8,1>UD g4<8,8,1>UD { align1 1Q };",
                        "Behavior of abs source modifier in logic ops is undefined."));
   EXPECT_TRUE(violates("and(8) g2<1>UD ~acc0<8,8,1>UD g4<8,8,1>UD { align1 1Q };",
                        "Source modifier is not allowed if source is an accumulator."));
   EXPECT_TRUE(valid("and(8) g2<1>UD ~g3<8,8,1>UD g4<8,8,1>UD { align1 1Q };"));
   EXPECT_TRUE(violates("and.o.f0.0(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD { align1 1Q };",
                        "O, R, and U conditional modifiers should not be used."));
   EXPECT_TRUE(valid("and.nz.f0.0(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD { align1 1Q };"));

   EXPECT_TRUE(valid("bfi2(8) g2<1>UD g3<4,4,1>UD g4<4,4,1>UD g5<4,4,1>UD { align16 1Q };"));
   EXPECT_TRUE(violates("bfi2.sat(8) g2<1>UD g3<4,4,1>UD g4<4,4,1>UD g5<4,4,1>UD { align16 1Q };",
                        "BFI2 cannot have saturate modifier"));
   inst in = bits_of("bfi2(8) g2<1>UD g3<4,4,1>UD g4<4,4,1>UD g5<4,4,1>UD { align16 1Q };");
   in.dst.type = type::F;
   EXPECT_TRUE(violates(in, "BFI2 destination type must be D or UD"));
   EXPECT_TRUE(violates(in, "BFI2 source type must match destination type"));
   in.dst.type = type::UD;
   in.cmod = cond_mod::nz;
   EXPECT_TRUE(violates(in, "BFI2 cannot have conditional modifier"));

   EXPECT_TRUE(valid("csel.l(8) g2<1>F g3<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };"));
   EXPECT_TRUE(violates("csel(8) g2<1>F g3<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };",
                        "CSEL must have a condition."));
   in = bits_of("csel.l(8) g2<1>F g3<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };");
   in.pred = pred_ctrl::normal;
   EXPECT_TRUE(violates(in, "CSEL cannot be predicated"));
   in.pred = pred_ctrl::none;
   in.dst.type = in.src[0].type = type::D;
   EXPECT_TRUE(violates(in, "CSEL destination type must be F"));
   EXPECT_TRUE(violates(in, "CSEL source type must be F"));
}

/* brw's disassembly of the corpus, assembled: brw's code passes every
 * rule (a rule that rejects it is wrong).
 */
TEST(IsaValidate, BrwCorpusIsValid)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl/brw-asm");
   std::vector<std::string> files = list_files(dir, ".asm");
   ASSERT_FALSE(files.empty());
   size_t insts = 0, bad = 0;
   for (const std::string &f : files) {
      std::istringstream in(read_file(f));
      std::string line, text;
      while (std::getline(in, line)) {
         if (line.empty() || line.compare(0, 8, "   START") == 0 ||
             line.compare(0, 6, "   END") == 0 || line.find("shader:") != std::string::npos)
            continue;
         text += line + "\n";
      }
      std::vector<uint8_t> bytes = assemble(text, gen::gen9, true, f);
      insts += decode_program(bytes.data(), bytes.size(), gen::gen9).size();
      for (const std::string &e : validate_program(bytes.data(), bytes.size(), gen::gen9)) {
         if (bad++ < 20)
            ADD_FAILURE() << f << ": " << e;
      }
   }
   printf("brw: %zu programs, %zu instructions, %zu violations\n", files.size(), insts, bad);
   EXPECT_EQ(bad, 0u);
}
