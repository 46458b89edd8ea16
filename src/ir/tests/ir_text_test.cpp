/*
 * The IR text form: hand-written programs round-trip exactly, they cover
 * every opcode and register file, and bad text is reported at its line and
 * column.
 */
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "ir/ibis_builder.h"
#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "ir/testing/ibis_check.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"
#include "ir/tests/ir_test_programs.h"

using namespace ibis;
using ibis::testing::check_round_trip;
using ibis::testing::dedent;

/* Every ALU and math opcode, every register file, modifiers, regions,
 * immediates of every type. */
static const char *const alu_program = R"(
   shader fs simd8
   uniform %1:u32x1[4]@g1
   attr %2:f32x8[4]@g2
   wlr %3:u16x16
   hw %4:u32x8@g0
   accum %5:s32x8@acc0
   block0:
      %3 = mov(8) 0x76543210:v {WE_all}
      %3.16<1> = add(8+8) %3<8,8,1>, 8:u16 {WE_all}
      %10:f32x8 = mov %2
      %11:f32x8 = sel.l %2, %2[1]
      %12:u32x8 = not %1<0,1,0>
      %13:u32x8 = and %12, 0xff00ff:u32
      %14:u32x8 = or %13, 1:u32
      %15:u32x8 = xor %14, %13
      %16:u32x8 = shr %15, 4:u32
      %17:u32x8 = shl %16, 2:u32
      %18:s32x8 = asr %17:s32, 1:s32
      %19:flagx8 = cmp.l %10, 0.0:f32
      %20:f32x8, %21:flagx8 = cmpn.nz %10, %11
      %22:f32x8 = csel.z %10, %11, %10
      %23:u32x8 = bfrev %17
      %24:u32x8 = bfe %17, 8:u32, 4:u32
      %25:u32x8 = bfi1 4:u32, 8:u32
      %26:u32x8 = bfi2 %25, %17, %16
      %27:f32x8 = add.sat %10, -%11
      %28:f32x8 = mul %27, |%10|
      %29:u32x8 = avg %17, %16
      %30:f32x8 = frc -|%28|
      %31:f32x8 = rndu %30
      %32:f32x8 = rndd %30
      %33:f32x8 = rnde %30
      %34:f32x8 = rndz %30
      %5 = mul %18, 3:s32
      %35:s32x8 = mac %18, -7:s32
      %36:s32x8 = mach %18, %35
      %37:u32x8 = lzd %17
      %38:u32x8 = fbh %17
      %39:u32x8 = fbl %17
      %40:u32x8 = cbit %17
      %41:u32x8 = addc %17, %16
      %42:u32x8 = subb %17, %16
      %43:u16x8 = sad2 %3, %3.16
      %44:u16x8 = sada2 %43, %43
      %45:f32x8 = dp4 %2, %2[1]
      %46:f32x8 = dph %2, %2[1]
      %47:f32x8 = dp3 %2, %2[1]
      %48:f32x8 = dp2 %2, %2[1]
      %49:f32x8 = line %1<0,4,1>:f32, %10
      %50:f32x8 = pln %1<0,4,1>:f32, %2
      %51:f32x8 = mad %10, %11, 0.5:f32
      %52:f32x8 = lrp %10, %11, %27
      %54:f64x8 = mov 2.5:f64
      %53:f64x8 = madm %54, %54, %54
      nop
      wait {WE_all}
      %60:f32x8 = math_inv %10
      %61:f32x8 = math_log %10
      %62:f32x8 = math_exp %10
      %63:f32x8 = math_sqrt %10
      %64:f32x8 = math_rsq %10
      %65:f32x8 = math_sin %10
      %66:f32x8 = math_cos %10
      %67:f32x8 = math_pow %10, 2.0:f32
      %68:s32x8 = math_idiv %18, 3:s32
      %69:s32x8 = math_irem %18, 3:s32
      %70:f64x8 = math_invm %54
      %71:f64x8 = math_rsqrtm %54
      %72:u32x8, %73:u32x8 = math_idivrem %17, 5:u32
      %74:f16x8 = mov 0x3c00:f16
      %75:s16x8 = mov -32768:s16
      %76:u8x8 = mov 255:u8
      %77:s8x8 = mov -1:s8
      %78:u64x8 = mov 0xffffffffffffffff:u64
      %79:s64x8 = mov -9223372036854775807:s64
      %80:f32x8 = mov 0x54321:vf
      %81:u16x8 = mov 0xfedcba98:uv
      %82:f32x8 = mov 0x7f800000:f32
      %83:f32x8 = mov -0.0:f32
      %84:f32x8 = mov 1e-10:f32
      %85:f32x8 = mov 123456.79:f32
      %86:f32x8 = ddx_coarse %10
      %87:f32x8 = ddx_fine %10
      %88:f32x8 = ddy_coarse %10
      %89:f32x8 = ddy_fine %10
)";

/* Logical and physical sends, pseudo opcodes, preserve partial writes,
 * physical assignments. */
static const char *const send_program = R"(
   shader cs simd16
   uniform %1:u32x1[8]@g1
   hw %2:u32x8@g0
   block0:
      %3:u32x16 = load_subgroup_invocation
      %4:u32x1 = find_live_channel {WE_all}
      %5:u32x1 = broadcast %3, %4
      %6:u32x16 = shuffle %3, %3
      %7:u32x16 = mov_indirect %1, %3, 32:u32
      %8:u32x16 = undef
      %9:u32x16 = copy %3
      %10:u32x16, %11:u32x16 = parallel_copy %9, %3
      %12:f32x16[4] = load_payload %10:f32, %11:f32, 1.0:f32, 0.0:f32
      %13:f32x16[4] = tex_logical 0:u32, %12, _, _, _, _, _, _, 0:u32, 0:u32, _, 2:u32, 0:u32
      %14:u32x16[2] = untyped_read_logical 1:u32, %3, 2:u32
      untyped_write_logical 1:u32, %3, %14, 2:u32
      %15:u32x16 = untyped_atomic_logical 1:u32, %3, %9, _, 1:u32
      %16:u32x16[4] = typed_read_logical 2:u32, %3, 4:u32
      typed_write_logical 2:u32, %3, %16, 4:u32
      %17:u32x16 = typed_atomic_logical 2:u32, %3, %9, %8, 7:u32
      %18:u32x16 = byte_scattered_read_logical 3:u32, %3, 8:u32
      byte_scattered_write_logical 3:u32, %3, %18, 8:u32
      %19:u32x1[4] = uniform_block_read_logical 4:u32, %4, 16:u32 {WE_all}
      %20:u32x16[4] = varying_pull_constant_logical 4:u32, %3, 4:u32
      scratch_write_logical 64:u32, %20
      %21:u32x16[4] = scratch_read_logical 64:u32
      %28:u32x16[4] = urb_read_logical %2, _, 0:u32
      %22:u32x8@g20 = mov %2 {WE_all}
      %26:u32x8.8 = mov(1) 32768:u32, preserve %22 {WE_all}
      %23:u32x8 = send 3:u32, 0x2000000:u32, 0:u32, %26, _ {WE_all}
      %27:u32x8 = memory_fence 0:u32 {WE_all}
      barrier %27 {WE_all}
      %24:flagx16@f0.1 = cmp.nz %21[3], 0:u32
      (+%24) discard
      (-%24) terminate
      %25:u32x16[4]@g30[1] = mov %20[2], preserve %21
      %29:f32x16[2] = interp_logical 0:u32, %3, 1:u32
      thread_end_logical %2
      urb_write_logical %2, _, _, %25, 4:u32 {EOT}
)";

TEST(ir_text, round_trip_alu)
{
   EXPECT_TRUE(check_round_trip(alu_program));
}

TEST(ir_text, round_trip_flow)
{
   EXPECT_TRUE(check_round_trip(flow_program));
}

TEST(ir_text, round_trip_sends)
{
   EXPECT_TRUE(check_round_trip(send_program));
}

TEST(ir_text, programs_are_valid)
{
   for (const char *text : {alu_program, flow_program, send_program}) {
      auto s = parse_shader(dedent(text));
      EXPECT_EQ(validate_errors(*s), std::vector<std::string>());
   }
}

/* The programs above are the round-trip coverage: check that they really
 * use every opcode of the table and every register file.
 */
TEST(ir_text, programs_cover_every_opcode_and_file)
{
   std::set<opcode> ops;
   std::set<reg_file> files;
   for (const char *text : {alu_program, flow_program, send_program}) {
      auto s = parse_shader(dedent(text));
      for (const value *v : s->values())
         files.insert(v->file);
      for (const auto &b : s->blocks()) {
         for (const instr *in : b->instrs()) {
            ops.insert(in->op);
            for (const operand &o : in->srcs())
               files.insert(o.file());
         }
      }
   }
   for (unsigned i = 0; i < num_opcodes; i++)
      EXPECT_TRUE(ops.count(opcode(i))) << op_name(opcode(i)) << " is not covered";
   for (unsigned f = 0; f <= unsigned(reg_file::accum); f++)
      EXPECT_TRUE(files.count(reg_file(f))) << file_name(reg_file(f)) << " is not covered";
}

TEST(ir_text, cfg_edges)
{
   auto s = parse_shader(dedent(flow_program));
   auto idx = [](const std::vector<block *> &v) {
      std::vector<unsigned> r;
      for (const block *b : v)
         r.push_back(b->index);
      return r;
   };
   const auto &b = s->blocks();
   EXPECT_EQ(idx(b[0]->succs), (std::vector<unsigned>{1, 2}));    /* if */
   EXPECT_EQ(idx(b[1]->succs), (std::vector<unsigned>{3}));       /* else */
   EXPECT_EQ(idx(b[3]->preds), (std::vector<unsigned>{1, 2}));    /* endif */
   EXPECT_EQ(idx(b[4]->preds), (std::vector<unsigned>{3, 5, 6})); /* do */
   EXPECT_EQ(idx(b[4]->succs), (std::vector<unsigned>{5, 7}));    /* break */
   EXPECT_EQ(idx(b[5]->succs), (std::vector<unsigned>{6, 4}));    /* cont */
   EXPECT_EQ(idx(b[6]->succs), (std::vector<unsigned>{4, 7}));    /* while */
   EXPECT_TRUE(b[7]->succs.empty());
}

TEST(ir_text, unpredicated_jumps_do_not_fall_through)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         do
         break
      block1:
         cont
      block2:
         while
      block3:
         nop
   )"));
   const auto &b = s->blocks();
   ASSERT_EQ(b[0]->succs.size(), 1u);
   EXPECT_EQ(b[0]->succs[0], b[3].get());
   ASSERT_EQ(b[1]->succs.size(), 1u);
   EXPECT_EQ(b[1]->succs[0], b[0].get());
   ASSERT_EQ(b[2]->succs.size(), 1u);
   EXPECT_EQ(b[2]->succs[0], b[0].get());
   EXPECT_EQ(b[3]->preds.size(), 1u);
}

static std::string
parse_error(const char *text)
{
   try {
      parse_shader(dedent(text), "t.ibis");
   } catch (const error &e) {
      return e.what();
   }
   return "no error";
}

TEST(ir_text, parse_errors_name_file_line_and_column)
{
   EXPECT_EQ(parse_error("shader fs simd12\n"),
             "t.ibis:1:11: expected simd8, simd16 or simd32, not 'simd12'");
   EXPECT_EQ(parse_error("shader xs simd8\n"),
             "t.ibis:1:10: unknown shader stage 'xs'");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:f32x8 = frob 1.0:f32
   )"), "t.ibis:3:15: unknown opcode 'frob'");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1 = mov 1:u32
   )"), "t.ibis:3:4: %1 is written before it is declared");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:u32x8 = mov %9
   )"), "t.ibis:3:19: %9 is never declared");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:u8x8 = mov 300:u8
   )"), "t.ibis:3:18: immediate '300' does not fit u8");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:q32x8 = mov 3:u32
   )"), "t.ibis:3:7: expected a value size like f32x16");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      attr %1:f32x8[2]
      block0:
         %2:f32x8 = mov %1.32
   )"), "t.ibis:4:19: byte offset 32 is not within one component of %1 "
        "(32 bytes); write [component]");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:f32x8 = add.sat.q %1, %1
   )"), "t.ibis:3:23: unknown modifier '.q'");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         nop {WE_all, fast}
   )"), "t.ibis:3:17: unknown instruction flag 'fast'");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         nop
      block2:
   )"), "t.ibis:4:1: expected block1");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      uniform %1:f32x1
      uniform %1:f32x1
   )"), "t.ibis:3:9: %1 is declared twice");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      uniform %9999999:f32x1
   )"), "t.ibis:2:10: value number 9999999 is too large");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      attr %1:f32x8+40
   )"), "t.ibis:2:6: bad group 40");
}

TEST(ir_text, structure_errors)
{
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         else
   )"), "t.ibis:3:4: else without if");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         nop
         endif
   )"), "t.ibis:4:4: 'endif' must begin a block");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         do
         break
         nop
   )"), "t.ibis:5:4: 'nop' follows 'break', which ends block0");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         cont
   )"), "t.ibis:3:4: cont outside a loop");
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         do
      block1:
         nop
   )"), "t.ibis:3:4: do is never closed");
}

TEST(ir_text, immediates_read_back_to_the_same_bits)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         %1:f32x8 = add 0.1:f32, -2.5e-06:f32
         %2:f64x8 = add 0.1:f64, 1e+300:f64
         %3:s32x8 = add -2147483648:s32, 0x7fffffff:s32
   )"));
   const auto &in = s->blocks()[0]->instrs();
   auto it = in.begin();
   EXPECT_EQ((*it)->src(0).imm, 0x3dcccccdu);
   EXPECT_EQ((*it)->src(1).imm, 0xb627c5acu);
   ++it;
   EXPECT_EQ((*it)->src(0).imm, 0x3fb999999999999aull);
   EXPECT_EQ((*it)->src(1).imm, 0x7e37e43c8800759cull);
   ++it;
   EXPECT_EQ((*it)->src(0).imm, 0x80000000u);
   EXPECT_EQ((*it)->src(1).imm, 0x7fffffffu);
   EXPECT_EQ((*it)->str(), "%3:s32x8 = add -2147483648:s32, 2147483647:s32");
}

/* Denormals print as decimals that strtod reports as underflow (ERANGE);
 * they must still read back, exactly.
 */
TEST(ir_text, denormal_immediates_round_trip)
{
   const uint64_t f64_min_denorm = 1, f64_denorm = 0x000fffffffffffffull;
   const uint64_t f32_denorm = 0x00000001u;
   operand a = operand::imm_of(data_type::f64, f64_min_denorm);
   operand b = operand::imm_of(data_type::f64, f64_denorm);
   operand c = operand::imm_of(data_type::f32, f32_denorm);
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         %1:f64x8 = add )" + imm_str(a) + ", " + imm_str(b) + R"(
         %2:f32x8 = mov )" + imm_str(c) + R"(
   )"));
   const auto &in = s->blocks()[0]->instrs();
   EXPECT_EQ(in.front()->src(0).imm, f64_min_denorm);
   EXPECT_EQ(in.front()->src(1).imm, f64_denorm);
   EXPECT_EQ(in.back()->src(0).imm, f32_denorm);
   /* Overflow is still an error, not a silent infinity. */
   EXPECT_EQ(parse_error(R"(
      shader fs simd8
      block0:
         %1:f64x8 = mov 1e999:f64
   )"), "t.ibis:3:19: bad immediate '1e999'");
}

/* The builder produces what the text says. */
TEST(ir_text, builder_matches_text)
{
   shader s(shader_stage::fs, 16);
   builder b(&s, s.add_block());
   value *a = b.attr(data_type::f32, 2);
   value *sum = b.add(data_type::f32, operand(a), operand(a).component(1).negate());
   value *f = b.cmp(cond_mod::l, sum, operand::imm_f32(0.5f));
   value *w = b.wlr(data_type::u16);
   b.exec(8).nomask().mov(w, operand::imm_of(data_type::v, 0x76543210));
   operand hi = operand(w);
   hi.offset = 16;
   hi.has_region = true;
   hi.rgn.hstride = 1;
   b.exec(8, 8).nomask().add(hi, operand(w).with_region(8, 8, 1),
                             operand::imm_of(data_type::u16, 8));
   b.predicated(f).if_();
   builder t(&s, s.add_block());
   value *x = t.mul(data_type::f32, sum, sum);
   t.else_();
   builder e(&s, s.add_block());
   value *y = e.mov(data_type::f32, operand::imm_f32(1.0f));
   builder m(&s, s.add_block());
   m.endif();
   value *p = m.phi(data_type::f32, {x, y});
   instr *fb = m.emit(opcode::fb_write_logical, {},
                      {p, {}, {}, {}, {}, {}, {}, {}, operand::imm_u32(0),
                       operand::imm_u32(1)});
   fb->flags |= INSTR_EOT;
   s.rebuild_cfg();

   EXPECT_EQ(s.str(), dedent(R"(
      shader fs simd16
      attr %0:f32x16[2]
      wlr %3:u16x16
      block0:         ; succs: block1 block2
         %1:f32x16 = add %0, -%0[1]
         %2:flagx16 = cmp.l %1, 0.5:f32
         %3 = mov(8) 0x76543210:v {WE_all}
         %3.16<1> = add(8+8) %3<8,8,1>, 8:u16 {WE_all}
         (+%2) if
      block1:         ; preds: block0 succs: block3
         %4:f32x16 = mul %1, %1
         else
      block2:         ; preds: block0 succs: block3
         %5:f32x16 = mov 1.0:f32
      block3:         ; preds: block1 block2
         endif
         %6:f32x16 = phi %4, %5
         fb_write_logical %6, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   EXPECT_EQ(validate_errors(s), std::vector<std::string>());
}

/* The example of docs/ir.md stays true. */
TEST(ir_text, docs_example_round_trips)
{
   std::ifstream f(ibis::test::source_dir() + "/docs/ir.md");
   ASSERT_TRUE(f) << "docs/ir.md not found";
   std::stringstream doc;
   doc << f.rdbuf();
   std::string text = doc.str();
   size_t start = text.find("```\nshader ");
   ASSERT_NE(start, std::string::npos);
   start += 4;
   std::string example = text.substr(start, text.find("```", start) - start);
   EXPECT_TRUE(check_round_trip(example));
   EXPECT_EQ(validate_errors(*parse_shader(example)), std::vector<std::string>());
}

/* The pipeline state travels in the header line, so lowered and allocated
 * programs can be written by hand in tests.
 */
TEST(ir_text, header_carries_pipeline_state)
{
   EXPECT_TRUE(check_round_trip(R"(shader fs simd8 lowered allocated scratch 64
block0:
   %1:f32x8@g4 = mov 1.0:f32
   send 10:u32, 0x20a0000:u32, 0:u32, %1, _ {side_effects, spill}
   %2:f32x8@g5 = send 10:u32, 0x2110000:u32, 0:u32, %1, _ {fill}
)"));
   std::unique_ptr<shader> s = parse_shader("shader vs simd8 lowered\nblock0:\n", "t.ibis");
   EXPECT_TRUE(s->lowered);
   EXPECT_FALSE(s->allocated);
   EXPECT_EQ(s->scratch_bytes, 0u);
   try {
      parse_shader("shader vs simd8 allocted\nblock0:\n", "t.ibis");
      ADD_FAILURE() << "a misspelt state word was accepted";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("t.ibis:1:17: expected 'lowered'"),
                std::string::npos) << e.what();
   }
}
