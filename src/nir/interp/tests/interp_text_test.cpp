/*
 * The inputs text format: parsing, printing back, and error positions;
 * the printed outputs.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

const char *const example = R"(# a fragment shader's inputs
simd 16
channels 0x00ff
helpers 0x0003
push: 0x3f800000 2 -1 1.5
ubo 1: 0x10 0x20
   0x30          # continued
ssbo 0: 0 0 0 0
shared: 7
attr VERT_ATTRIB_GENERIC0: 1.0 2.0 3.0 4.0
attr VERT_ATTRIB_GENERIC1 2: 5 6 7 8
vertex_id: 10 11 12
vertex_id 5: 99
instance_id 4
pixel 1: 8 9
triangle: 0 0 0.5 1  16 0 0.5 2  0 16 0.5 4
varying VARYING_SLOT_VAR0: 0 0 0 1  1.0 0 0 1  0 1.0 0 1
front_face 0
sample_pos: 0.25 0.25 0.75 0.75
sample_id: 0 1
workgroup_size 8 2 1
workgroup_id 1 2 3
whole_workgroup 1
texture 3 2x1 rgba32f: 0 0 0 1  1.0 1.0 1.0 1
texture 4 2x2x3 2d array levels 1 rgba32ui:
   0 0 0 0  1 1 1 1  2 2 2 2  3 3 3 3
   4 4 4 4  5 5 5 5  6 6 6 6  7 7 7 7
   8 8 8 8  9 9 9 9  10 10 10 10  11 11 11 11
sampler 3 linear mip_nearest repeat compare greater
sampler 4 nearest wrap clamp repeat clamp
)";

TEST(InterpText, ParsesEveryKey)
{
   const inputs in = parse_inputs(example, "ex.inputs");
   EXPECT_EQ(in.simd, 16u);
   EXPECT_EQ(in.channel_mask(), 0xffu);
   EXPECT_EQ(in.helpers, 3u);
   EXPECT_EQ(in.push, bytes({0x3f800000, 2, 0xffffffff, 0x3fc00000}));
   EXPECT_EQ(in.ubos.at(1), bytes({0x10, 0x20, 0x30}));
   EXPECT_EQ(in.ssbos.at(0).size(), 16u);
   EXPECT_EQ(in.shared, bytes({7}));
   ASSERT_EQ(in.attribs.at(15).size(), 1u);
   EXPECT_EQ(in.attribs.at(15)[0][3], fw(4.0f));
   ASSERT_EQ(in.attribs.at(16).size(), max_simd);
   EXPECT_EQ(in.attribs.at(16)[2][1], 6u);
   EXPECT_EQ(in.attribs.at(16)[1][1], 0u);
   EXPECT_EQ(in.vertex_id, (std::vector<uint32_t>{10, 11, 12, 0, 0, 99}));
   EXPECT_EQ(in.instance_id, 4u);
   ASSERT_EQ(in.pixel.size(), 2u);
   EXPECT_EQ(in.pixel[0][0], 0.0f);  /* default layout kept */
   EXPECT_EQ(in.pixel[1][0], 8.0f);
   EXPECT_EQ(in.triangle[2].y, 16.0f);
   EXPECT_EQ(in.triangle[2].w, 4.0f);
   EXPECT_EQ(in.varyings.at(32)[2][1], fw(1.0f));
   EXPECT_FALSE(in.front_face);
   ASSERT_EQ(in.sample_pos.size(), 2u);
   EXPECT_EQ(in.sample_pos[1][1], 0.75f);
   EXPECT_EQ(in.workgroup_size[1], 2u);
   EXPECT_EQ(in.workgroup_id[2], 3u);
   EXPECT_TRUE(in.whole_workgroup);
   const texture &t3 = in.textures.at(3);
   EXPECT_EQ(t3.width, 2u);
   EXPECT_EQ(t3.height, 1u);
   EXPECT_EQ(t3.texels[1][0], fw(1.0f));
   const texture &t4 = in.textures.at(4);
   EXPECT_TRUE(t4.array);
   EXPECT_EQ(t4.depth, 3u);
   EXPECT_EQ(t4.format, tex_format::rgba32ui);
   EXPECT_EQ(t4.texels[11][2], 11u);
   EXPECT_EQ(in.samplers.at(3).filt, filter::linear);
   EXPECT_EQ(in.samplers.at(3).mip, mip_filter::nearest);
   EXPECT_EQ(in.samplers.at(3).wrap[2], wrap_mode::repeat);
   EXPECT_EQ(in.samplers.at(3).compare, compare_func::greater);
   EXPECT_EQ(in.samplers.at(4).wrap[1], wrap_mode::repeat);
   EXPECT_EQ(in.samplers.at(4).wrap[2], wrap_mode::clamp);
}

TEST(InterpText, PrintReadsBackTheSame)
{
   const inputs in = parse_inputs(example, "ex.inputs");
   const std::string printed = print_inputs(in);
   const inputs again = parse_inputs(printed, "printed");
   EXPECT_EQ(print_inputs(again), printed);
   EXPECT_EQ(again.push, in.push);
   EXPECT_EQ(again.attribs, in.attribs);
   EXPECT_EQ(again.textures.at(4).texels, in.textures.at(4).texels);
   EXPECT_EQ(again.pixel, in.pixel);
   EXPECT_EQ(again.sample_id, in.sample_id);
}

TEST(InterpText, DefaultInputsPrintAndReadBack)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x2  %1 = load_const (0x3f000000, 0x3f000000)
    32x4  %2 = (float32)tex %1 (0.500000, 0.500000) (coord), 1 (texture), 0 (sampler)
)" + store_output("%2", "%0", "FRAG_RESULT_DATA0", "xyzw", "float32") + R"(
    block b1:
)");
   const inputs in = default_inputs(*s, 16);
   ASSERT_EQ(in.textures.count(1), 1u);
   const std::string printed = print_inputs(in);
   EXPECT_EQ(print_inputs(parse_inputs(printed)), printed);
   /* Running on the re-read inputs gives the same result. */
   const outputs a = run(*s, in), b = run(*s, parse_inputs(printed));
   EXPECT_EQ(print_outputs(a, shader_stage::fragment),
             print_outputs(b, shader_stage::fragment));
}

/* A size query's int32 destination does not make the texture an integer
 * one: the float lookup after it decides (random vs seed 8: the simulator
 * refused to filter the integer surface the query had chosen).
 */
TEST(InterpText, DefaultInputsTextureFormatComesFromLookupsNotQueries)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x2  %1 = (int32)txs %0 (0x0) (lod), 1 (texture)
    32x2  %2 = load_const (0x3f000000, 0x3f000000)
    32x4  %3 = (float32)txl %2 (0.500000, 0.500000) (coord), %0 (0.000000) (lod), 1 (texture), 1 (sampler)
)" + store_output("%3", "%0", "FRAG_RESULT_DATA0", "xyzw", "float32") + R"(
    block b1:
)");
   const inputs in = default_inputs(*s, 8);
   ASSERT_EQ(in.textures.count(1), 1u);
   EXPECT_EQ(in.textures.at(1).format, tex_format::rgba32f);
}

std::string
error_of(const std::string &text)
{
   try {
      parse_inputs(text, "in.txt");
   } catch (const ibis::error &e) {
      return e.what();
   }
   return "no error";
}

TEST(InterpText, ErrorsNameFileLineAndColumn)
{
   EXPECT_EQ(error_of("simd 8\n  bogus 1\n"), "in.txt:2:3: unknown key 'bogus'");
   EXPECT_EQ(error_of("simd 12"), "in.txt:1:6: SIMD width must be 8, 16 or 32");
   EXPECT_EQ(error_of("push: 1 2 zz"), "in.txt:1:11: expected a 32-bit word, got 'zz'");
   EXPECT_EQ(error_of("ubo 0 0x10"), "in.txt:1:11: expected 'ubo N: words'");
   EXPECT_EQ(error_of("attr NOT_A_SLOT: 1 2 3 4"),
             "in.txt:1:6: unknown location 'NOT_A_SLOT'");
   EXPECT_EQ(error_of("texture 0 2x2 rgba32f: 1 2 3 4"),
             "in.txt:1:31: expected 16 words (4 per texel), got 4");
   EXPECT_EQ(error_of("texture 0 2x2 rgba32f:\n  1 2 3 4\n  5 6 7 8\n"),
             "in.txt:3:10: expected 16 words (4 per texel), got 8");
   EXPECT_EQ(error_of("sampler 0 bilinear"),
             "in.txt:1:11: unknown sampler attribute 'bilinear'");
   EXPECT_EQ(error_of("varying VARYING_SLOT_VAR0: 1 2 3"),
             "in.txt:1:33: expected 12 values, got 3");
   EXPECT_EQ(error_of("pixel 40: 1 2"),
             "in.txt:1:7: expected an integer up to 31, got '40'");
}

TEST(InterpText, OutputsListWrittenComponents)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_subgroup_invocation () ()
)" + store_output("%1", "%0", "FRAG_RESULT_DATA0", "x") + R"(
    block b1:
)");
   inputs in;
   in.channels = 0x81;
   const outputs out = run(*s, in);
   EXPECT_EQ(print_outputs(out, shader_stage::fragment),
             "FRAG_RESULT_DATA0.x: 0x00000000 - - - - - - 0x00000007\n"
             "killed 0x00000000\nhelpers 0x00000000\n");
}

} /* anonymous namespace */
