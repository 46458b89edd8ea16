/*
 * The driver-ABI inputs: the ABI file's syntax and errors, and what each
 * key changes in the compile's prog data and code.
 */
#include <gtest/gtest.h>

#include "compiler_test_util.h"

using namespace ibis;
using ibis::test::read_nir;
using ibis::test::variant;

namespace {

/* Reads UBO 1 at byte offsets 0 and 64 (two different 32-byte GRFs), and
 * two varyings.
 */
const char *const ubo_fs = R"(
   con 32 %0 = load_const (0x00000000)
   con 32 %1 = load_const (0x00000001)
   con 32 %2 = load_const (0x00000040)
   div 32x2 %3 = @load_barycentric_pixel () (interp_mode=1)
   div 32 %4 = @load_interpolated_input (%3, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
   div 32 %5 = @load_interpolated_input (%3, %0 (0x0)) (base=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)
   con 32 %6 = @load_ubo (%1 (0x1), %0 (0x0)) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=-1)
   con 32 %7 = @load_ubo (%1 (0x1), %2 (0x40)) (access=none, align_mul=1073741824, align_offset=64, range_base=0, range=-1)
   div 32 %8 = ffma %4, %6, %7
   div 32 %9 = fadd %8, %5
   div 32x4 %10 = vec4 %9, %9, %9, %9
   @store_output (%10, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
   block b1:
)";

std::string
abi_error(const std::string &text)
{
   from_nir_options o;
   try {
      apply_abi_text(text, "t.abi", o);
   } catch (const error &e) {
      return e.what();
   }
   return "";
}

} /* anonymous namespace */

TEST(compiler_abi, file_sets_every_key)
{
   from_nir_options o;
   apply_abi_text("# iris's choice\n"
                  "push_range 1 0 2   # UBO 1, registers 0-1\n"
                  "push_range 2 4 1\n"
                  "fs_input_slots 33 32\n"
                  "vs_vue_slots 12 0 32\n", "t.abi", o);
   ASSERT_EQ(o.push_ranges.size(), 2u);
   EXPECT_EQ(o.push_ranges[0].block, 1u);
   EXPECT_EQ(o.push_ranges[0].start, 0u);
   EXPECT_EQ(o.push_ranges[0].length, 2u);
   EXPECT_EQ(o.push_ranges[1].block, 2u);
   EXPECT_EQ(o.push_ranges[1].start, 4u);
   EXPECT_FALSE(o.auto_push_ubos);
   EXPECT_EQ(o.fs_input_slots, (std::vector<int>{33, 32}));
   EXPECT_EQ(o.vs_vue_slots, (std::vector<int>{12, 0, 32}));
}

TEST(compiler_abi, errors_name_file_and_line)
{
   EXPECT_EQ(abi_error("\npush_range 1 2\n"), "t.abi:2: 'push_range' takes BLOCK START LENGTH");
   EXPECT_EQ(abi_error("push_range 1 x 2\n"), "t.abi:1: 'push_range': 'x' is not a number");
   EXPECT_EQ(abi_error("push_ranges all\n"), "t.abi:1: 'push_ranges' takes 'none'");
   EXPECT_EQ(abi_error("fs_input_slots\n"), "t.abi:1: 'fs_input_slots' needs at least one slot");
   EXPECT_NE(abi_error("# ok\nurb_size 4\n").find("t.abi:2: unknown key 'urb_size'"),
             std::string::npos);
   EXPECT_NE(abi_error("push_range 0 0 40\npush_range 1 0 40\n").find("t.abi:2:"),
             std::string::npos);
   EXPECT_NE(abi_error("push_range 0 0 -1\n").find("not a number"), std::string::npos);
}

/* The default pushes both UBO registers read; "push_ranges none" pushes
 * nothing (the loads become pull-constant sends), and an explicit range
 * is what the prog data reports.
 */
TEST(compiler_abi, push_ranges_change_the_push_layout_and_code)
{
   compile_options o;
   o.widths = {8};
   compile_result dflt = compile_shader(*read_nir("fs", ubo_fs), o);
   /* One range per register read: they are not adjacent. */
   ASSERT_EQ(dflt.prog.push_ranges.size(), 2u);
   EXPECT_EQ(dflt.prog.push_ranges[0].block, 1u);
   EXPECT_EQ(dflt.prog.push_ranges[0].start + dflt.prog.push_ranges[1].start, 2u);
   EXPECT_EQ(dflt.prog.push_ranges[0].length, 1u);
   EXPECT_EQ(dflt.prog.push_regs, 2u);

   compile_options none = o;
   apply_abi_text("push_ranges none\n", "none.abi", none.abi);
   compile_result pulled = compile_shader(*read_nir("fs", ubo_fs), none);
   EXPECT_TRUE(pulled.prog.push_ranges.empty());
   EXPECT_EQ(pulled.prog.push_regs, 0u);
   /* Pulled constants cost sends. */
   EXPECT_GT(variant(pulled, 8)->stats.sends, variant(dflt, 8)->stats.sends);

   compile_options one = o;
   apply_abi_text("push_range 1 2 1\n", "one.abi", one.abi);
   compile_result mixed = compile_shader(*read_nir("fs", ubo_fs), one);
   ASSERT_EQ(mixed.prog.push_ranges.size(), 1u);
   EXPECT_EQ(mixed.prog.push_ranges[0].start, 2u);
   EXPECT_EQ(mixed.prog.push_regs, 1u);
   EXPECT_EQ(variant(mixed, 8)->stats.sends, variant(dflt, 8)->stats.sends + 1);
}

/* Mesa 25.0's block loads read 16 components where the shader uses four
 * (iris's fixed-function FS); the driver pushes the register of those
 * four, and they come from it: the RT write is the only send, as brw's.
 */
TEST(compiler_abi, block_load_wider_than_its_pushed_range_reads_the_push)
{
   const char *fs = R"(
      con 32 %0 = load_const (0x00000000)
      con 32 %1 = load_const (0x00000001)
      con 32x16 %2 = @load_ubo_uniform_block_intel (%1 (0x1), %0 (0x0)) (access=speculatable, align_mul=1073741824, align_offset=0, range_base=0, range=64)
      con 32x4 %3 = vec4 %2.a, %2.b, %2.c, %2.d
      @store_output (%3, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
      block b1:
   )";
   compile_options o;
   o.widths = {8};
   apply_abi_text("push_range 1 0 1\n", "t.abi", o.abi);
   compile_result r = compile_shader(*read_nir("fs", fs), o);
   ASSERT_NE(variant(r, 8), nullptr);
   EXPECT_EQ(variant(r, 8)->stats.sends, 1u);
   EXPECT_EQ(r.prog.push_regs, 1u);
}

TEST(compiler_abi, fs_input_slots_reorder_urb_setup)
{
   compile_options o;
   o.widths = {8};
   apply_abi_text("fs_input_slots 33 32\n", "t.abi", o.abi);
   compile_result r = compile_shader(*read_nir("fs", ubo_fs), o);
   EXPECT_EQ(r.prog.urb_setup, (std::vector<int>{33, 32}));
   compile_result d = compile_shader(*read_nir("fs", ubo_fs), compile_options{});
   EXPECT_EQ(d.prog.urb_setup, (std::vector<int>{32, 33}));
   /* The setup data moved, so the code reading it did too. */
   EXPECT_NE(variant(r, 8)->binary, variant(d, 8)->binary);
}

namespace {

/* The corpus' brw-abi JSON for ubo_fs as iris would set it up: UBO 1's
 * second register pushed, the varyings in the order VAR1, VAR0.
 */
const char *const ubo_fs_json = R"({
  "stage": "fs", "nr_params": 0, "curb_read_length": 1,
  "ubo_ranges": [
    {"block": 1, "start": 2, "length": 1, "ubo_index": 0},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1}
  ],
  "total_scratch": 0, "const_data_size": 0, "num_relocs": 0,
  "dispatch_grf_start_reg": 4, "dispatch_grf_start_reg_16": 6, "dispatch_grf_start_reg_32": 0,
  "dispatch_8": true, "dispatch_16": true, "dispatch_32": false,
  "urb_setup_attribs": [33, 32], "barycentric_interp_modes": 1,
  "uses_src_depth": false, "uses_src_w": false, "uses_pos_offset": false,
  "uses_sample_mask": false, "uses_depth_w_coefficients": false,
  "computed_depth_mode": 0, "computed_stencil": false, "uses_omask": false,
  "dual_src_blend": false
}
)";

} /* anonymous namespace */

/* A JSON text is a brw-abi file (by content, whatever its name). */
TEST(compiler_abi, brw_abi_json_is_read_by_content)
{
   compile_options o;
   o.widths = {8};
   apply_abi_text(ubo_fs_json, "t.abi", o.abi);
   ASSERT_EQ(o.abi.push_ranges.size(), 1u);
   EXPECT_EQ(o.abi.push_ranges[0].block, 1u);
   EXPECT_EQ(o.abi.push_ranges[0].start, 2u);
   EXPECT_FALSE(o.abi.auto_push_ubos);
   EXPECT_EQ(o.abi.fs_input_slots, (std::vector<int>{33, 32}));
   compile_result r = compile_shader(*read_nir("fs", ubo_fs), o);
   EXPECT_EQ(r.prog.urb_setup, (std::vector<int>{33, 32}));
   /* Errors name the file, line and column. */
   std::string bad = ubo_fs_json;
   bad.replace(bad.find("\"curb_read_length\": 1"), 21, "\"curb_read_length\": 2");
   const std::string e = abi_error(bad);
   EXPECT_EQ(e.rfind("t.abi:2:", 0), 0u) << e;
   EXPECT_NE(e.find("curb_read_length"), std::string::npos) << e;
   EXPECT_NE(abi_error("{\"stage\": \"gs\"}").find("'stage'"), std::string::npos);
}
