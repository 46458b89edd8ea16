/*
 * The translator's interface: the ALU table covers NIR, unsupported input
 * is an ibis::error naming the instruction and its line, options change
 * the payload, and the WLR values of the seed's examples validate.
 */
#include <gtest/gtest.h>

#include "from_nir/from_nir_alu.h"
#include "from_nir_test_util.h"
#include "ir/ibis_validate.h"

using namespace ibis;
using ibis::test::translation_error;

/* Every NIR opcode has a recipe: steps, a handler, or the reason it cannot
 * reach the Gen9 backend; the ones the corpus uses have steps or a handler.
 */
TEST(from_nir_api, alu_table_covers_every_opcode)
{
   unsigned supported = 0;
   for (unsigned i = 0; i < nir::num_alu_ops; i++) {
      const alu_recipe &r = alu_recipe_for(nir::alu_op(i));
      EXPECT_STREQ(r.name, nir::op_info(nir::alu_op(i)).name);
      if (r.handler == alu_handler::unsupported)
         EXPECT_TRUE(r.why && *r.why) << r.name;
      else
         supported++;
   }
   EXPECT_GT(supported, 200u);
   for (const char *name : {"ffma", "fmul", "b32csel", "ieq32", "fround_even", "imul_32x16",
                            "extract_u8", "flrp", "fddx", "fsign", "b2f32"}) {
      nir::alu_op op;
      ASSERT_TRUE(nir::alu_op_from_name(name, &op));
      EXPECT_NE(alu_recipe_for(op).handler, alu_handler::unsupported) << name;
   }
}

/* An opcode brw lowers away: the message names it, the instruction as the
 * NIR printer writes it, and the line.
 */
TEST(from_nir_api, unsupported_alu_names_instruction_and_line)
{
   std::string msg = translation_error("vs", 8, R"(
      con 32 %0 = load_const (0x00000000)
      div 32x4 %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
      div 32 %2 = fdiv %1.x, %1.y
      block b1:
   )");
   EXPECT_NE(msg.find("test.nir:13: fdiv cannot be translated: lowered by brw"),
             std::string::npos) << msg;
   EXPECT_NE(msg.find("'div 32    %2 = fdiv %1.x, %1.y'"), std::string::npos) << msg;
}

TEST(from_nir_api, unsupported_intrinsic_names_instruction_and_line)
{
   std::string msg = translation_error("cs", 8, R"(
      con 64 %0 = load_const (0x0000000000001000)
      div 32 %1 = @load_global (%0 (0x1000)) (access=none, align_mul=4, align_offset=0)
      block b1:
   )");
   EXPECT_NE(msg.find("test.nir:13: 64-bit (A64) addressing"), std::string::npos) << msg;
   EXPECT_NE(msg.find("@load_global"), std::string::npos) << msg;
}

TEST(from_nir_api, bad_width_is_an_error)
{
   std::string msg = translation_error("vs", 16, R"(
      block b1:
   )");
   EXPECT_NE(msg.find("VS runs at SIMD8 on Gen9, not SIMD16"), std::string::npos) << msg;
}

/* Without UBO pushing, a constant-offset uniform load becomes one block
 * read for all channels (a width-1 send result) instead of a UNIFORM.
 */
TEST(from_nir_api, push_ranges_decide_push_or_pull)
{
   const char *body = R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000040)
      con 32x4 %2 = @load_ubo (%0 (0x0), %1 (0x40)) (access=none, align_mul=1073741824, align_offset=64, range_base=64, range=16)
      @store_output (%2, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )";
   auto s = nir::read_shader(ibis::test::nir_shader("vs", body), "t.nir");
   std::vector<push_range> ranges = default_push_ranges(*s);
   ASSERT_EQ(ranges.size(), 1u);
   EXPECT_EQ(ranges[0].block, 0u);
   EXPECT_EQ(ranges[0].start, 2u);
   EXPECT_EQ(ranges[0].length, 1u);

   from_nir_options o;
   std::string pushed = from_nir(*s, o)->str();
   EXPECT_NE(pushed.find("uniform %"), std::string::npos) << pushed;
   EXPECT_EQ(pushed.find("uniform_block_read_logical"), std::string::npos) << pushed;

   o.auto_push_ubos = false;
   std::string pulled = from_nir(*s, o)->str();
   /* The whole 64-byte line, as brw's uniform pulls read it. */
   EXPECT_NE(pulled.find(":u32x1[16] = uniform_block_read_logical 0:u32, 64:u32, 64:u32 {WE_all}"),
             std::string::npos) << pulled;
}

/* Constant pulls of one 64-byte line in one block share its read; another
 * line, or a load crossing into the next, reads its own.  tesseract's VS
 * pulled five vec3s of one line with five sends under iris's push ranges
 * (brw: one).
 */
TEST(from_nir_api, constant_pulls_of_one_line_share_its_read)
{
   const char *body = R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000040)
      con 32 %2 = load_const (0x0000004c)
      con 32 %3 = load_const (0x00000080)
      con 32 %4 = load_const (0x00000078)
      con 32x3 %5 = @load_ubo (%0 (0x0), %1 (0x40)) (access=none, align_mul=1073741824, align_offset=64, range_base=64, range=12)
      con 32x3 %6 = @load_ubo (%0 (0x0), %2 (0x4c)) (access=none, align_mul=1073741824, align_offset=76, range_base=76, range=12)
      con 32 %7 = @load_ubo (%0 (0x0), %3 (0x80)) (access=none, align_mul=1073741824, align_offset=128, range_base=128, range=4)
      con 32x4 %8 = @load_ubo (%0 (0x0), %4 (0x78)) (access=none, align_mul=1073741824, align_offset=120, range_base=120, range=16)
      con 32x4 %9 = vec4 %5.x, %6.z, %7, %8.w
      @store_output (%9, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
      block b1:
   )";
   auto s = nir::read_shader(ibis::test::nir_shader("vs", body), "t.nir");
   from_nir_options o;
   o.auto_push_ubos = false;
   const std::string ir = from_nir(*s, o)->str();
   auto count = [&](const std::string &what) {
      size_t n = 0;
      for (size_t p = ir.find(what); p != std::string::npos; p = ir.find(what, p + 1))
         n++;
      return n;
   };
   EXPECT_EQ(count("uniform_block_read_logical 0:u32, 64:u32, 64:u32"), 1u) << ir;
   EXPECT_EQ(count("uniform_block_read_logical 0:u32, 128:u32, 64:u32"), 1u) << ir;
   /* 120..135 crosses from the line at 64 into the one at 128: each
    * component comes from its line, read once for all four loads.
    */
   EXPECT_EQ(count("uniform_block_read_logical"), 2u) << ir;
}

/* The seed's WLR examples at every width: the write sequences are in one
 * block, the validator accepts them, and two occurrences give the same
 * sequence, so a pass comparing write sequences can merge them.
 */
TEST(from_nir_api, wlr_values_validate_and_repeat_identically)
{
   for (unsigned width : {8u, 16u, 32u}) {
      auto sh = ibis::test::translate("cs", width, R"(
         div 32 %0 = @load_subgroup_invocation () ()
         div 32 %1 = @load_subgroup_invocation () ()
         div 32 %2 = u2f32 %0
         con 32 %3 = @reduce (%2) (reduction_op=fadd, cluster_size=0, include_helpers=0)
         div 32 %4 = u2f32 %1
         con 32 %5 = @reduce (%4) (reduction_op=fadd, cluster_size=0, include_helpers=0)
         div 32 %6 = iadd %0, %1
         con 32 %7 = fadd %3, %5
         div 32x2 %8 = vec2 %6, %7
         con 32 %9 = load_const (0x00000000)
         @store_ssbo (%8, %9 (0x0), %9 (0x0)) (wrmask=xy, access=none, align_mul=4, align_offset=0)
         block b1:
      )");
      EXPECT_TRUE(validate_errors(*sh).empty()) << sh->str();

      std::vector<value *> wlr;
      for (value *v : sh->values()) {
         if (v->file == reg_file::wlr)
            wlr.push_back(v);
      }
      /* Two invocations and two reductions (whose inputs are the second
       * pair of invocations' conversions).
       */
      ASSERT_EQ(wlr.size(), 4u) << sh->str();
      /* The write sequence with the value itself as "self" and any other
       * value as "other": identical for repeated occurrences.
       */
      auto sequence = [](value *v) {
         std::string s;
         for (instr *in : v->defs()[0]->parent()->instrs()) {
            if (!in->writes(v))
               continue;
            s += strfmt("%s(%u+%u)%s:", op_name(in->op), in->exec_size, in->group,
                        in->we_all() ? " nomask" : "");
            for (const operand &o : in->srcs()) {
               if (o.is_imm())
                  s += strfmt(" imm 0x%llx", (unsigned long long)o.imm);
               else
                  s += strfmt(" %s+%u<%u,%u,%u>", o.val == v ? "self" : "other",
                              o.offset, o.rgn.vstride, o.rgn.width, o.rgn.hstride);
            }
            s += strfmt(" -> +%u<%u>\n", in->dst(0).offset, in->dst(0).rgn.hstride);
         }
         return s;
      };
      EXPECT_EQ(sequence(wlr[0]), sequence(wlr[1]));
      EXPECT_EQ(sequence(wlr[2]), sequence(wlr[3]));
      for (value *v : wlr) {
         const block *b = v->defs()[0]->parent();
         for (instr *d : v->defs())
            EXPECT_EQ(d->parent(), b);
      }
      unsigned invocation_writes = width == 8 ? 1 : width == 16 ? 2 : 3;
      EXPECT_EQ(wlr[0]->defs().size(), invocation_writes);
      EXPECT_EQ(wlr[1]->defs().size(), invocation_writes);
      EXPECT_EQ(wlr[0]->type, data_type::u16);
      EXPECT_EQ(wlr[2]->type, data_type::f32);
      EXPECT_EQ(wlr[2]->defs().size(), wlr[3]->defs().size());
   }
}
