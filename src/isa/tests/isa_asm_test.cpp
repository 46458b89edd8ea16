/*
 * The assembler's diagnostics, labels and the C++ instruction builders.
 */
#include "isa/isa.h"
#include "util/ibis_error.h"
#include <gtest/gtest.h>

using namespace ibis;
using namespace ibis::isa;

namespace {

std::string
asm_error(const std::string &text)
{
   try {
      assemble(text, gen::gen9, false, "t.asm");
   } catch (const ibis::error &e) {
      return e.what();
   }
   return "no error";
}

native
asm_one(const std::string &text)
{
   std::vector<uint8_t> b = assemble(text, gen::gen9, false, "t.asm");
   EXPECT_EQ(b.size(), 16u);
   native n = { 0, 0 };
   for (size_t i = 0; i < 16 && i < b.size(); i++)
      n[i / 8] |= uint64_t(b[i]) << (8 * (i % 8));
   return n;
}

} /* namespace */

TEST(IsaAsm, ErrorsNameFileAndLine)
{
   EXPECT_EQ(asm_error("add(8) g1<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };\n"
                       "frob(8) g1<1>F g2<8,8,1>F { align1 1Q };\n"),
             "t.asm:2: unknown instruction 'frob'");
   EXPECT_EQ(asm_error("\n\nmov(8) g1<1>Z g2<8,8,1>F;\n"), "t.asm:3: unknown type 'Z'");
   EXPECT_EQ(asm_error("mov(3) g1<1>F g2<8,8,1>F;\n"), "t.asm:1: invalid execution size 3");
   EXPECT_EQ(asm_error("mov(8) g1<1>F g2<8,3,1>F;\n"), "t.asm:1: invalid width 3");
   EXPECT_EQ(asm_error("mov(8) g200<1>F g2<8,8,1>F;\n"), "t.asm:1: register number 200 out of range");
   EXPECT_EQ(asm_error("mov(8) g1<1>F g2<8,8,1>F { align1 bogus };\n"),
             "t.asm:1: unknown instruction option 'bogus'");
   EXPECT_EQ(asm_error("mov(8) g1<1>F g2<8,8,1>F\n"), "t.asm:2: expected ';' near 'end of file'");
   EXPECT_EQ(asm_error("endif(8) JIP: NOWHERE { align1 1Q };\n"),
             "t.asm:1: undefined label 'NOWHERE'");
   EXPECT_EQ(asm_error("add(8) g1<1>D 1D 2D { align1 1Q };\n"),
             "t.asm:1: only one source can be an immediate");
   EXPECT_EQ(asm_error("mad(8) g1<1>F g2<4,4,1>F g3<4,4,1>F g4<4,4,1>F { align1 1Q };\n"),
             "t.asm:1: three-source instructions must be align16");
   EXPECT_EQ(asm_error("mov(8) g1<1>V g2<8,8,1>F;\n"),
             "t.asm:1: type V is only valid for immediates");
   EXPECT_EQ(asm_error("math frob(8) g1<1>F g2<8,8,1>F null<8,8,1>F;\n"),
             "t.asm:1: unknown math function 'frob'");
   EXPECT_EQ(asm_error("/* never closed\n"), "t.asm:1: unterminated comment");
   EXPECT_EQ(asm_error("A:\nnop;\nA:\n"), "t.asm:3: label 'A' defined twice");
}

TEST(IsaAsm, LabelsResolveToByteOffsets)
{
   std::vector<inst> prog = parse_asm("LOOP:\n"
                                      "add(8) g1<1>F g1<8,8,1>F g2<8,8,1>F { align1 1Q };\n"
                                      "(-f0.0) while(8) JIP: LOOP { align1 1Q };\n"
                                      "(+f0.0) if(8) JIP: END UIP: END { align1 1Q };\n"
                                      "END:\n",
                                      gen::gen9);
   ASSERT_EQ(prog.size(), 3u);
   EXPECT_EQ(prog[1].op, opcode::while_);
   EXPECT_EQ(prog[1].jip, -16);
   EXPECT_EQ(prog[1].pred_inv, true);
   EXPECT_EQ(prog[2].jip, 16);
   EXPECT_EQ(prog[2].uip, 16);
}

TEST(IsaAsm, CompactionShrinksAndLabelsFollow)
{
   const char *text = "LOOP:\n"
                      "add(8) g1<1>F g1<8,8,1>F g2<8,8,1>F { align1 1Q };\n"
                      "mov(8) g3<1>UD g4<8,8,1>UD { align1 1Q };\n"
                      "(-f0.0) while(8) JIP: LOOP { align1 1Q };\n";
   std::vector<uint8_t> native_bytes = assemble(text, gen::gen9, false);
   std::vector<uint8_t> compacted = assemble(text, gen::gen9, true);
   EXPECT_EQ(native_bytes.size(), 48u);
   EXPECT_EQ(compacted.size(), 32u);
   std::vector<decoded> prog = decode_program(compacted.data(), compacted.size(), gen::gen9);
   ASSERT_EQ(prog.size(), 3u);
   EXPECT_TRUE(prog[0].in.compacted);
   EXPECT_TRUE(prog[1].in.compacted);
   EXPECT_EQ(prog[2].in.jip, -16);

   /* emit() makes the same choices for instructions built in C++. */
   std::vector<uint8_t> built;
   emit(built, make(opcode::add, 8, grf(1, type::F), grf(1, type::F), grf(2, type::F)),
        gen::gen9, true);
   emit(built, make(opcode::mov, 8, grf(3, type::UD), grf(4, type::UD)), gen::gen9, true);
   inst loop = make_branch(opcode::while_, 8, -16);
   loop.pred = pred_ctrl::normal;
   loop.pred_inv = true;
   emit(built, loop, gen::gen9, true);
   EXPECT_EQ(built, compacted);

   /* encode_program() moves branch offsets given in the native layout. */
   std::vector<inst> prog2 = {
      make(opcode::add, 8, grf(1, type::F), grf(1, type::F), grf(2, type::F)),
      make(opcode::mov, 8, grf(3, type::UD), grf(4, type::UD)),
      make_branch(opcode::while_, 8, -32),
   };
   prog2[2].pred = pred_ctrl::normal;
   prog2[2].pred_inv = true;
   EXPECT_EQ(encode_program(prog2, gen::gen9, true), compacted);
   EXPECT_EQ(encode_program(prog2, gen::gen9, false), native_bytes);

   /* Given the instructions' encodings, it uses them, but encodes the
    * branches again (code generation sets their offsets after emitting
    * them): a stale encoding of the while is not what comes out.
    */
   std::vector<native> encoded = { encode(prog2[0], gen::gen9),
                                   encode(prog2[1], gen::gen9),
                                   encode(make_branch(opcode::while_, 8, 0), gen::gen9) };
   EXPECT_EQ(encode_program(prog2, encoded, gen::gen9, true), compacted);
   EXPECT_EQ(encode_program(prog2, encoded, gen::gen9, false), native_bytes);
   encoded[1] = encode(make(opcode::mov, 8, grf(5, type::UD), grf(4, type::UD)), gen::gen9);
   EXPECT_NE(encode_program(prog2, encoded, gen::gen9, true), compacted);
   encoded.pop_back();
   EXPECT_THROW(encode_program(prog2, encoded, gen::gen9, true), ibis::error);

   prog2[2].jip = -24;
   EXPECT_THROW(encode_program(prog2, gen::gen9, true), ibis::error);
}

/* JMPI keeps its target as a JIP from itself and never compacts; the
 * hardware (Gen8-11) adds its D immediate to the IP after the JMPI, so the
 * bits hold the distance from the next instruction in the compacted
 * layout.  The disassembly names the target with a label and assembles
 * back to the same bytes.
 */
TEST(IsaAsm, JmpiJumpsFromTheNextInstruction)
{
   const char *text = "(-f0.0) jmpi(1) JIP: OVER { align1 WE_all 1N };\n"
                      "add(8) g1<1>F g1<8,8,1>F g2<8,8,1>F { align1 1Q };\n"
                      "mov(8) g3<1>UD g4<8,8,1>UD { align1 1Q };\n"
                      "OVER:\n"
                      "mov(8) g5<1>UD g4<8,8,1>UD { align1 1Q };\n";
   std::vector<inst> parsed = parse_asm(text, gen::gen9);
   ASSERT_EQ(parsed.size(), 4u);
   EXPECT_EQ(parsed[0].jip, 48);

   std::vector<uint8_t> native_bytes = assemble(text, gen::gen9, false);
   std::vector<uint8_t> compacted = assemble(text, gen::gen9, true);
   ASSERT_EQ(native_bytes.size(), 64u);
   ASSERT_EQ(compacted.size(), 40u);
   auto imm_of = [](const std::vector<uint8_t> &b) {
      uint32_t v = 0;
      for (unsigned i = 0; i < 4; i++)
         v |= uint32_t(b[12 + i]) << (8 * i);
      return int32_t(v);
   };
   EXPECT_EQ(imm_of(native_bytes), 32);   /* two 16-byte instructions */
   EXPECT_EQ(imm_of(compacted), 16);      /* two compacted ones */

   std::vector<decoded> prog = decode_program(compacted.data(), compacted.size(), gen::gen9);
   ASSERT_EQ(prog.size(), 4u);
   EXPECT_FALSE(prog[0].in.compacted);
   EXPECT_EQ(prog[0].in.op, opcode::jmpi);
   EXPECT_EQ(prog[0].in.jip, 32);
   EXPECT_EQ(int64_t(prog[0].offset) + prog[0].in.jip, int64_t(prog[3].offset));

   /* brw_disasm prints the immediate, the distance from the next
    * instruction, and labels no JMPI target.
    */
   std::string dis = disassemble_program(compacted.data(), compacted.size(), gen::gen9);
   EXPECT_EQ(dis.substr(0, dis.find('\n') + 1),
             "(-f0.0) jmpi(1) 16D                                             "
             "{ align1 WE_all 1N };\n") << dis;
   EXPECT_EQ(dis.find("LABEL"), std::string::npos) << dis;
   EXPECT_EQ(assemble(dis, gen::gen9, true), compacted) << dis;
   dis = disassemble_program(native_bytes.data(), native_bytes.size(), gen::gen9);
   EXPECT_EQ(dis.substr(0, dis.find('\n') + 1),
             "(-f0.0) jmpi(1) 32D                                             "
             "{ align1 WE_all 1N };\n") << dis;
   EXPECT_EQ(assemble(dis, gen::gen9, false), native_bytes) << dis;
}

/* Mesa's form of a JMPI is the hardware immediate, a distance in the final
 * layout: the assembler keeps it as given, compacted or not, and refuses
 * one that lands inside an instruction.
 */
TEST(IsaAsm, JmpiTakesMesasDistance)
{
   const std::string body = "add(8) g1<1>F g1<8,8,1>F g2<8,8,1>F { align1 1Q };\n"
                            "mov(8) g3<1>UD g4<8,8,1>UD { align1 1Q };\n"
                            "mov(8) g5<1>UD g4<8,8,1>UD { align1 1Q };\n";
   const std::string labelled = "(-f0.0) jmpi(1) JIP: OVER { align1 WE_all 1N };\n"
                                "add(8) g1<1>F g1<8,8,1>F g2<8,8,1>F { align1 1Q };\n"
                                "mov(8) g3<1>UD g4<8,8,1>UD { align1 1Q };\n"
                                "OVER:\n"
                                "mov(8) g5<1>UD g4<8,8,1>UD { align1 1Q };\n";
   EXPECT_EQ(assemble("(-f0.0) jmpi(1) 16D { align1 WE_all 1N };\n" + body, gen::gen9, true),
             assemble(labelled, gen::gen9, true));
   EXPECT_EQ(assemble("(-f0.0) jmpi(1) 32D { align1 WE_all 1N };\n" + body, gen::gen9, false),
             assemble(labelled, gen::gen9, false));
   std::vector<inst> parsed = parse_asm("jmpi(1) -48D { align1 WE_all 1N };\n", gen::gen9);
   EXPECT_EQ(parsed.at(0).jip, -32);
   EXPECT_TRUE(parsed.at(0).jip_final);
   EXPECT_EQ(asm_error("(-f0.0) jmpi(1) 4D { align1 WE_all 1N };\n" + body),
             "instruction 0 jumps to byte 20, not to an instruction");
   EXPECT_EQ(asm_error("jmpi(1) 16UD { align1 WE_all 1N };\n" + body),
             "t.asm:1: a JMPI distance is a D immediate");
}

/* The compaction tables have no dst:D with imm:D, so such instructions
 * compact as UD, which computes the same bits, but not fbh: on D it finds
 * the first bit unlike the sign (fbh of -2 is 31, on UD 0; random vs seed
 * 2824 computed ifind_msb(-2) as 31).
 */
TEST(IsaAsm, CompactionKeepsTheSignOfFbh)
{
   const char *text = "mov(1) g0<1>D -2D { align1 WE_all 1N };\n"
                      "fbh(1) g1<1>D -2D { align1 WE_all 1N };\n";
   std::vector<uint8_t> c = assemble(text, gen::gen9, true);
   std::vector<decoded> prog = decode_program(c.data(), c.size(), gen::gen9);
   ASSERT_EQ(prog.size(), 2u);
   EXPECT_TRUE(prog[0].in.compacted);
   EXPECT_EQ(prog[0].in.dst.type, type::UD);
   EXPECT_EQ(prog[1].in.op, opcode::fbh);
   EXPECT_EQ(prog[1].in.dst.type, type::D);
   EXPECT_EQ(prog[1].in.src[0].type, type::D);
}

/* The builders give the same bits as the text Mesa's tests use. */
TEST(IsaAsm, BuildersMatchAssembly)
{
   inst add = make(opcode::add, 8, grf(124, type::F), grf(7, type::D), imm_d(1));
   EXPECT_EQ(encode(add, gen::gen9),
             asm_one("add(8) g124<1>F g7<8,8,1>D 1D { align1 1Q };"));

   inst mad = make(opcode::mad, 8, grf(26, type::F), region(grf(22, type::F), 4, 4, 1),
                   scalar(grf(2, type::F, 4)), region(grf(5, type::F), 4, 4, 1));
   mad.src[1].swizzle = swizzle_xxxx;
   EXPECT_EQ(encode(mad, gen::gen9),
             asm_one("mad(8) g26<1>F g22<4,4,1>F g2.4<0,1,0>F g5<4,4,1>F { align16 1Q };"));

   inst cmp = make(opcode::cmp, 8, null_reg(type::D), grf(7, type::D), imm_d(0));
   cmp.cmod = cond_mod::nz;
   cmp.dst.hstride = 1;
   EXPECT_EQ(encode(cmp, gen::gen9),
             asm_one("cmp.nz.f0.0(8) null<1>D g7<8,8,1>D 0D { align1 1Q };"));

   inst send = make_send(opcode::send, 8, null_reg(type::F), grf(123, type::F), sfid::urb,
                         0x0a080017);
   send.dst.hstride = 1;
   send.eot = true;
   EXPECT_EQ(encode(send, gen::gen9),
             asm_one("send(8) null<1>F g123<8,8,1>F 0x8a080017\n"
                     "   urb MsgDesc: ignored { align1 1Q EOT };"));
   EXPECT_EQ(send.mlen(), 5u);
   EXPECT_EQ(send.rlen(), 0u);

   inst math = make_math(math_fn::inv, 8, grf(95, type::F), grf(94, type::F),
                         null_reg(type::F));
   EXPECT_EQ(encode(math, gen::gen9),
             asm_one("math inv(8) g95<1>F g94<8,8,1>F null<8,8,1>F { align1 1Q };"));

   inst mov = make(opcode::mov, 16, grf(4, type::D), imm_d(0));
   mov.group = 16;
   EXPECT_EQ(encode(mov, gen::gen9), asm_one("mov(16) g4<1>D 0D { align1 2H };"));
}

/* A three-source instruction has one source type.  Integer ones (ibfe's
 * bfe reads a UD width and offset and a D value) take the destination's,
 * as brw_alu3 does; flagging the differing source made it read as HF
 * (random cs seed 10: ibfe of the invocation index read 16-bit halves).
 */
TEST(IsaAsm, ThreeSourceIntegerSourcesTakeTheDestinationType)
{
   inst bfe = make(opcode::bfe, 8, grf(11, type::D), scalar(grf(3, type::UD, 1)),
                   region(grf(9, type::UD), 4, 4, 1), region(grf(2, type::D), 4, 4, 1));
   bfe.access = access_mode::align16;
   bfe.src[0].swizzle = swizzle_xxxx;
   inst back = decode(encode(bfe, gen::gen9), gen::gen9);
   for (unsigned i = 0; i < 3; i++)
      EXPECT_EQ(back.src[i].type, type::D) << "src" << i;
   EXPECT_EQ(back.dst.type, type::D);

   inst ubfe = bfe;
   ubfe.dst.type = type::UD;
   back = decode(encode(ubfe, gen::gen9), gen::gen9);
   for (unsigned i = 0; i < 3; i++)
      EXPECT_EQ(back.src[i].type, type::UD) << "src" << i;

   /* F with HF sources stays mixed; an integer source of a float op is
    * refused.
    */
   inst mad = make(opcode::mad, 8, grf(26, type::F), region(grf(22, type::F), 4, 4, 1),
                   region(grf(2, type::HF), 4, 4, 1), region(grf(5, type::F), 4, 4, 1));
   mad.access = access_mode::align16;
   back = decode(encode(mad, gen::gen9), gen::gen9);
   EXPECT_EQ(back.src[1].type, type::HF);
   EXPECT_EQ(back.src[2].type, type::F);
   mad.src[2].type = type::D;
   EXPECT_THROW(encode(mad, gen::gen9), ibis::error);
}

TEST(IsaAsm, DecodedFieldsAreNatural)
{
   inst in = decode(asm_one("(-f0.1.any4h) halt(8) JIP: 64 UIP: 32 { align1 1Q };"),
                    gen::gen9);
   EXPECT_EQ(in.op, opcode::halt);
   EXPECT_EQ(in.exec_size, 8);
   EXPECT_EQ(in.pred, pred_ctrl::any4h);
   EXPECT_TRUE(in.pred_inv);
   EXPECT_EQ(in.flag_subnr, 1);
   EXPECT_EQ(in.jip, 64);
   EXPECT_EQ(in.uip, 32);

   in = decode(asm_one("sends(8) nullUD g34UD g36UD 0x04035001 0x00000100\n"
                       "   dp data 1 MsgDesc: ignored { align1 2Q };"),
               gen::gen9);
   EXPECT_EQ(in.op, opcode::sends);
   EXPECT_EQ(in.sfid, sfid::data_cache1);
   EXPECT_EQ(in.src[0].nr, 34);
   EXPECT_EQ(in.src[1].nr, 36);
   EXPECT_EQ(in.desc, 0x04035001u);
   EXPECT_EQ(in.ex_mlen(), 4u);
   EXPECT_EQ(in.mlen(), 2u);
   EXPECT_EQ(in.group, 8);

   in = decode(asm_one("mov(1) g19<1>UD g[a0 64]<0,1,0>UD { align1 WE_all 1N };"), gen::gen9);
   EXPECT_TRUE(in.src[0].indirect);
   EXPECT_EQ(in.src[0].ia_imm, 64);
   EXPECT_TRUE(in.mask_disable);
   EXPECT_EQ(in.exec_size, 1);
}

TEST(IsaAsm, GenNames)
{
   gen g;
   EXPECT_TRUE(parse_gen("9", &g));
   EXPECT_EQ(g, gen::gen9);
   EXPECT_TRUE(parse_gen("bdw", &g));
   EXPECT_EQ(g, gen::gen8);
   EXPECT_FALSE(parse_gen("gen42", &g));
   EXPECT_THROW(encode(inst(), gen::gen12), ibis::error);
}

TEST(IsaAsm, DescriptorBuilders)
{
   /* The render target write of sendc.asm: SIMD8, last RT, 4 registers. */
   uint32_t rt = message_desc(4, 0, false) |
                 fb_write_desc(0, rt_write_subtype::simd8, true, false);
   EXPECT_EQ(rt, 0x08031400u);

   inst send = make_send(opcode::sendc, 8, null_reg(type::UW), grf(124, type::F),
                         sfid::render_cache, rt);
   send.eot = true;
   EXPECT_EQ(encode(send, gen::gen9),
             asm_one("sendc(8) null<1>UW g124<8,8,1>F 0x88031400\n"
                     "   render MsgDesc: ignored { align1 1Q EOT };"));
   std::string text = disassemble(send, gen::gen9);
   EXPECT_NE(text.find("render MsgDesc: RT write SIMD8 LastRT Surface = 0  mlen 4 rlen 0"),
             std::string::npos) << text;

   uint32_t tex = message_desc(4, 8, false) |
                  sampler_desc(1, 0, sampler_msg::sample, sampler_simd::simd16);
   send = make_send(opcode::send, 16, grf(10, type::UW), grf(2, type::UD), sfid::sampler, tex);
   text = disassemble(send, gen::gen9);
   EXPECT_NE(text.find("sampler MsgDesc: sample SIMD16 Surface = 1 Sampler = 0  mlen 4 rlen 8"),
             std::string::npos) << text;

   uint32_t urb = message_desc(1, 0, true) | urb_desc(urb_op::simd8_write, 3, false, false);
   inst sends = make_send(opcode::sends, 8, null_reg(type::UD), grf(1, type::UD), sfid::urb,
                          urb, grf(2, type::UD), sends_ex_desc(8));
   EXPECT_EQ(sends.ex_mlen(), 8u);
   EXPECT_TRUE(sends.header_present());
   text = disassemble(sends, gen::gen9);
   EXPECT_NE(text.find("urb MsgDesc: offset 3 SIMD8 write  mlen 1 ex_mlen 8 rlen 0"),
             std::string::npos) << text;
   EXPECT_EQ(decode(encode(sends, gen::gen9), gen::gen9).ex_desc, sends_ex_desc(8));
}

/* The block reads ibis emits for uniform loads are brw's (brw_lower_
 * logical_sends on Gen9): a variable offset reads the data cache with the
 * unaligned OWord block message (type 1: a byte offset in the header),
 * a constant one the constant cache with the OWord block message (type 0:
 * an offset in OWords, 64-byte aligned).  Same descriptors and text as
 * brw's disassembly in the corpus (dolphin/ubershaders/102.vs.simd8.asm,
 * dolphin/nsmbw.2.vs.simd8.asm).
 */
TEST(IsaAsm, BlockReadsAreBrws)
{
   const uint32_t dc = message_desc(1, 1, true) |
                       dp_desc(0, unsigned(dc0_msg::unaligned_oword_block_read), 2);
   EXPECT_EQ(dc, 0x02184200u);
   const uint32_t cc = message_desc(1, 2, true) |
                       dp_desc(0, unsigned(dc0_msg::oword_block_read), 3);
   EXPECT_EQ(cc, 0x02280300u);

   inst rd = make_send(opcode::send, 8, grf(90, type::UW), scalar(grf(84, type::UD)),
                       sfid::data_cache, dc);
   rd.mask_disable = true;
   EXPECT_EQ(disassemble(rd, gen::gen9),
             "send(8)         g90<1>UW        g84<0,1,0>UD    0x02184200\n"
             "                            data MsgDesc: (DC unaligned OWORD block read, "
             "bti 0, 2)  mlen 1 rlen 1 { align1 WE_all 1Q };\n");
   EXPECT_EQ(encode(rd, gen::gen9), asm_one(disassemble(rd, gen::gen9)));

   inst cr = make_send(opcode::send, 16, grf(102, type::UW), scalar(grf(28, type::UD)),
                       sfid::const_cache, cc);
   cr.mask_disable = true;
   EXPECT_EQ(disassemble(cr, gen::gen9),
             "send(16)        g102<1>UW       g28<0,1,0>UD    0x02280300\n"
             "                            const MsgDesc: (bti 0, msg_ctrl 3, msg_type 0, "
             "write_commit 0)  mlen 1 rlen 2 { align1 WE_all 1H };\n");
   EXPECT_EQ(encode(cr, gen::gen9), asm_one(disassemble(cr, gen::gen9)));

   /* The aligned data-cache form prints its block size and alignment. */
   inst al = rd;
   al.desc = message_desc(1, 1, true) |
             dp_desc(18, unsigned(dc0_msg::oword_block_read), 2);
   EXPECT_NE(disassemble(al, gen::gen9).find("(DC OWORD block read, bti 18, "
                                             "owords = 2, aligned = 0)"),
             std::string::npos) << disassemble(al, gen::gen9);
}

/* 0.0F compacts as 0.0VF only where a vector immediate may go: an
 * oword-aligned destination (Mesa's EU validator); elsewhere it stays F
 * and native.
 */
TEST(IsaAsm, ZeroFloatCompactsAsVfOnlyOwordAligned)
{
   auto first = [](const std::string &text) {
      std::vector<uint8_t> b = assemble(text, gen::gen9, true);
      return decode_program(b.data(), b.size(), gen::gen9).at(0).in;
   };
   inst aligned = first("mov(8) g44<1>F 0x0F { align1 1Q };\n");
   EXPECT_TRUE(aligned.compacted);
   EXPECT_EQ(aligned.src[0].type, type::VF);
   EXPECT_TRUE(validate(aligned, gen::gen9).empty());
   inst inside = first("mov(1) g44.2<1>F 0x0F { align1 WE_all 1N };\n");
   EXPECT_FALSE(inside.compacted);
   EXPECT_EQ(inside.src[0].type, type::F);
   EXPECT_TRUE(validate(inside, gen::gen9).empty());
}
