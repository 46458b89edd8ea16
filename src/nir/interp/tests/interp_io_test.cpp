/*
 * Inputs, outputs, system values and memory: vertex attributes, varyings
 * with every barycentric kind, fragment coordinates, discard/terminate/
 * demote, compute ids, push constants, UBOs, SSBOs, shared memory and
 * scratch.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

/* ------------------------------------------------------------------ */
/* Vertex shaders */

TEST(InterpVS, LoadInputPerChannelAndBroadcast)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    32x2  %2 = @load_input (%0 (0x0)) (base=1, range=1, component=2, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)
    32x4  %3 = fadd %1, %1
)" + store_output("%3", "%0", "VARYING_SLOT_POS", "xyzw", "float32") +
                                  store_output("%2", "%0", "VARYING_SLOT_VAR0", "xy", "float32", 1) + R"(
    block b1:
)");
   inputs in;
   for (unsigned c = 0; c < 8; c++)
      in.attribs[15].push_back({fw(float(c)), fw(1.5f), fw(-2.0f), fw(0.25f * c)});
   in.attribs[16] = {{fw(9), fw(8), fw(7), fw(6)}};
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.f32(0, 0, c), 2.0f * c);
      EXPECT_EQ(out.f32(0, 1, c), 3.0f);
      EXPECT_EQ(out.f32(0, 2, c), -4.0f);
      EXPECT_EQ(out.f32(0, 3, c), 0.5f * c);
      /* component=1 in the store, component=2 in the load. */
      EXPECT_EQ(out.find(var0)->written[0], 0u);
      EXPECT_EQ(out.f32(var0, 1, c), 7.0f);
      EXPECT_EQ(out.f32(var0, 2, c), 6.0f);
   }
}

TEST(InterpVS, VertexAndInstanceIds)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_vertex_id () ()
    32    %2 = @load_instance_id () ()
    32    %3 = @load_vertex_id_zero_base () ()
    32    %4 = @load_base_vertex () ()
    32    %5 = @load_first_vertex () ()
    32    %6 = @load_base_instance () ()
    32    %7 = @load_draw_id () ()
    32x4  %8 = vec4 %1, %2, %3, %4
    32x3  %9 = vec3 %5, %6, %7
)" + store_output("%8", "%0", "VARYING_SLOT_VAR0", "xyzw") +
                                  store_output("%9", "%0", "VARYING_SLOT_VAR1", "xyz") + R"(
    block b1:
)");
   inputs in;
   in.vertex_id = {100, 101, 102, 103, 104, 105, 106, 107};
   in.first_vertex = 100;
   in.base_vertex = 90;
   in.instance_id = 3;
   in.base_instance = 2;
   in.draw_id = 5;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.word(var0, 0, c), 100 + c);
      EXPECT_EQ(out.word(var0, 1, c), 3u);
      EXPECT_EQ(out.word(var0, 2, c), c);
      EXPECT_EQ(out.word(var0, 3, c), 90u);
      EXPECT_EQ(out.word(var0 + 1, 0, c), 100u);
      EXPECT_EQ(out.word(var0 + 1, 1, c), 2u);
      EXPECT_EQ(out.word(var0 + 1, 2, c), 5u);
   }
}

/* brw_nir_lower_vs_inputs turns the vertex system values into load_inputs
 * without a slot, at the vertex element after the attributes (base = the
 * attribute count): (first vertex, base instance, vertex id from zero,
 * instance id), then (draw id, is indexed draw).  glamor/91.vs reads one
 * attribute (GENERIC0) and gl_VertexID so; the interpreter read attribute
 * 0 for it, which brw's program (and the hardware) does not.
 */
TEST(InterpVS, BrwLoweredSystemValuesReadTheVertexElement)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    32    %2 = @load_input (%0 (0x0)) (base=1, range=0, component=0, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    32    %3 = @load_input (%0 (0x0)) (base=1, range=0, component=2, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    32    %4 = @load_input (%0 (0x0)) (base=1, range=0, component=3, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    32    %5 = @load_input (%0 (0x0)) (base=2, range=0, component=0, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    32x4  %6 = vec4 %2, %3, %4, %5
)" + store_output("%1", "%0", "VARYING_SLOT_POS", "xyzw", "float32") +
                                  store_output("%6", "%0", "VARYING_SLOT_VAR0", "xyzw") + R"(
    block b1:
)", "inputs_read: 15\n");
   inputs in;
   in.attribs[0] = {{fw(9.f), fw(9.f), fw(9.f), fw(9.f)}};    /* must not be read */
   in.attribs[15] = {{fw(1.f), fw(2.f), fw(3.f), fw(4.f)}};
   in.vertex_id = {100, 101, 102, 103, 104, 105, 106, 107};
   in.first_vertex = 100;
   in.instance_id = 3;
   in.draw_id = 5;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.word(0, 0, c), fw(1.f));
      EXPECT_EQ(out.word(var0, 0, c), 100u);
      EXPECT_EQ(out.word(var0, 1, c), c);
      EXPECT_EQ(out.word(var0, 2, c), 3u);
      EXPECT_EQ(out.word(var0, 3, c), 5u);
   }
}

/* A 64-bit output takes two words per component. */
TEST(InterpVS, SixtyFourBitOutputTakesTwoWords)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    64    %1 = load_const (0x1122334455667788)
)" + store_output("%1", "%0", "VARYING_SLOT_VAR0", "x", "uint64", 2) + R"(
    block b1:
)");
   const outputs out = run(*s, inputs());
   EXPECT_EQ(out.word(var0, 2, 0), 0x55667788u);
   EXPECT_EQ(out.word(var0, 3, 0), 0x11223344u);
}

/* ------------------------------------------------------------------ */
/* Fragment shaders: interpolation */

/*
 * The triangle (0,0) (8,0) (0,8) with w = 1, 2, 4 and z = 0.25, 0.5,
 * 0.75: screen barycentrics at (x, y) are (1 - x/8 - y/8, x/8, y/8).
 * VAR0.x is 0, 59, 118 at the vertices, VAR0.y is 10, 10, 10.
 */
inputs
triangle_inputs()
{
   inputs in;
   in.triangle = {{{0, 0, 0.25f, 1}, {8, 0, 0.5f, 2}, {0, 8, 0.75f, 4}}};
   in.varyings[var0] = {{{fw(0), fw(10), fw(0), fw(0)},
                         {fw(59), fw(10), fw(0), fw(0)},
                         {fw(118), fw(10), fw(0), fw(0)}}};
   return in;
}

std::string
interp_shader(const std::string &bary)
{
   return R"(
    block b0:
    32    %0 = load_const (0x00000000)
)" + bary + R"(
    32x2  %2 = @load_interpolated_input (%1, %0 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
)" + store_output("%2", "%0", "FRAG_RESULT_DATA0", "xy", "float32") + R"(
    block b1:
)";
}

TEST(InterpFS, SmoothInterpolationIsPerspectiveCorrect)
{
   auto s = make_shader("FRAGMENT", interp_shader(
      "    32x2  %1 = @load_barycentric_pixel () (interp_mode=1)"));
   const outputs out = run(*s, triangle_inputs());
   /* Channel 0, centre (0.5, 0.5): l = (7/8, 1/16, 1/16), over w:
    * (7/8, 1/32, 1/64) -> b1 = 2/59, b2 = 1/59 -> 59 * 2/59 + 118/59 = 4.
    */
   EXPECT_NEAR(out.f32(data0, 0, 0), 4.0f, 1e-5);
   /* Channel 1, (1.5, 0.5): (3/4, 3/32, 1/64) -> b = (6/55, 1/55). */
   EXPECT_NEAR(out.f32(data0, 0, 1), 472.0f / 55, 1e-5);
   /* Channel 3, (1.5, 1.5): (5/8, 3/32, 3/64) -> b = (6/49, 3/49). */
   EXPECT_NEAR(out.f32(data0, 0, 3), 708.0f / 49, 1e-5);
   /* A constant varying stays constant. */
   EXPECT_NEAR(out.f32(data0, 1, 3), 10.0f, 1e-5);
   /* Quad 1 starts at x = 2: channel 4 is (2.5, 0.5). l = (5/8, 5/16,
    * 1/16), over w: (40/64, 10/64, 1/64) -> b = (10/51, 1/51).
    */
   EXPECT_NEAR(out.f32(data0, 0, 4), (590.0f + 118.0f) / 51, 1e-5);
}

TEST(InterpFS, NoperspectiveInterpolationIsScreenLinear)
{
   auto s = make_shader("FRAGMENT", interp_shader(
      "    32x2  %1 = @load_barycentric_pixel () (interp_mode=3)"));
   const outputs out = run(*s, triangle_inputs());
   EXPECT_NEAR(out.f32(data0, 0, 0), 59 * 0.0625f + 118 * 0.0625f, 1e-5);
   EXPECT_NEAR(out.f32(data0, 0, 1), 59 * 0.1875f + 118 * 0.0625f, 1e-5);
   EXPECT_NEAR(out.f32(data0, 0, 3), 177 * 0.1875f, 1e-5);
}

TEST(InterpFS, CentroidIsTakenAtThePixelCentre)
{
   auto s = make_shader("FRAGMENT", interp_shader(
      "    32x2  %1 = @load_barycentric_centroid () (interp_mode=3)"));
   const outputs out = run(*s, triangle_inputs());
   EXPECT_NEAR(out.f32(data0, 0, 3), 177 * 0.1875f, 1e-5);
}

TEST(InterpFS, SampleAndAtSampleUseSamplePositions)
{
   inputs in = triangle_inputs();
   in.sample_pos = {{0.25f, 0.75f}, {0.125f, 0.375f}};
   in.sample_id = {0, 1};
   auto s = make_shader("FRAGMENT", interp_shader(
      "    32x2  %1 = @load_barycentric_sample () (interp_mode=3)"));
   outputs out = run(*s, in);
   /* Channel 0 samples (0.25, 0.75): b = (1/32, 3/32). */
   EXPECT_NEAR(out.f32(data0, 0, 0), 59 / 32.0f + 118 * 3 / 32.0f, 1e-5);
   /* Channel 1 (pixel (1, 0)) is sample 1: (1.125, 0.375). */
   EXPECT_NEAR(out.f32(data0, 0, 1), (59 * 1.125f + 118 * 0.375f) / 8, 1e-5);

   auto s2 = make_shader("FRAGMENT", interp_shader(R"(
    32    %9 = load_const (0x00000001)
    32x2  %1 = @load_barycentric_at_sample (%9 (0x1)) (interp_mode=3))"));
   out = run(*s2, in);
   EXPECT_NEAR(out.f32(data0, 0, 0), (59 * 0.125f + 118 * 0.375f) / 8, 1e-5);
}

TEST(InterpFS, AtOffsetMovesFromTheCentre)
{
   auto s = make_shader("FRAGMENT", interp_shader(R"(
    32x2  %9 = load_const (0x3f000000, 0xbf000000)
    32x2  %1 = @load_barycentric_at_offset (%9) (interp_mode=3))"));
   const outputs out = run(*s, triangle_inputs());
   /* Channel 0: (1.0, 0.0); channel 3: (2.0, 1.0). */
   EXPECT_NEAR(out.f32(data0, 0, 0), 59 / 8.0f, 1e-5);
   EXPECT_NEAR(out.f32(data0, 0, 3), 59 * 0.25f + 118 * 0.125f, 1e-5);
}

TEST(InterpFS, FlatInputsComeFromVertexZero)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x2  %1 = @load_input (%0 (0x0)) (base=33, range=1, component=1, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)
)" + store_output("%1", "%0", "FRAG_RESULT_DATA0", "xy", "float32") + R"(
    block b1:
)");
   inputs in = triangle_inputs();
   in.varyings[var0 + 1] = {{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}};
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.word(data0, 0, c), 2u);
      EXPECT_EQ(out.word(data0, 1, c), 3u);
   }
}

TEST(InterpFS, FragCoord)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_frag_coord () ()
)" + store_output("%1", "%0", "FRAG_RESULT_DATA0", "xyzw", "float32") + R"(
    block b1:
)");
   inputs in = triangle_inputs();
   in.pixel = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {4, 2}, {5, 2}, {4, 3}, {5, 3}};
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(data0, 0, 3), 1.5f);
   EXPECT_EQ(out.f32(data0, 1, 3), 1.5f);
   /* l = (5/8, 3/16, 3/16): z = 5/32 + 3/32 + 9/64, 1/w = 5/8 + 3/32 + 3/64. */
   EXPECT_FLOAT_EQ(out.f32(data0, 2, 3), 0.390625f);
   EXPECT_FLOAT_EQ(out.f32(data0, 3, 3), 0.765625f);
   EXPECT_EQ(out.f32(data0, 0, 5), 5.5f);
   EXPECT_EQ(out.f32(data0, 1, 5), 2.5f);
}

TEST(InterpFS, FrontFaceSampleIdMaskAndPosition)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    1     %1 = @load_front_face () ()
    32    %2 = b2i32 %1
    32    %3 = @load_sample_id () ()
    32    %4 = @load_sample_mask_in () ()
    32x2  %5 = @load_sample_pos () ()
    32    %6 = @load_helper_invocation () ()
    32x4  %7 = vec4 %2, %3, %4, %6
)" + store_output("%7", "%0", "FRAG_RESULT_DATA0", "xyzw") +
                                  store_output("%5", "%0", "FRAG_RESULT_DATA1", "xy", "float32") + R"(
    block b1:
)");
   inputs in;
   in.front_face = false;
   in.sample_pos = {{0.5f, 0.5f}, {0.25f, 0.75f}};
   in.sample_id = {0, 1, 0, 1, 0, 1, 0, 1};
   in.sample_mask_in = {1, 2, 1, 2, 1, 2, 1, 2};
   in.helpers = 0x0c;
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.word(data0, 0, c), 0u);
      EXPECT_EQ(out.word(data0, 1, c), c & 1);
      EXPECT_EQ(out.word(data0, 2, c), 1u + (c & 1));
      EXPECT_EQ(out.word(data0, 3, c), c == 2 || c == 3 ? ~0u : 0u);
      EXPECT_EQ(out.f32(data0 + 1, 0, c), c & 1 ? 0.25f : 0.5f);
      EXPECT_EQ(out.f32(data0 + 1, 1, c), c & 1 ? 0.75f : 0.5f);
   }
   EXPECT_EQ(out.helpers, 0x0cu);
}

/* ------------------------------------------------------------------ */
/* Fragment shaders: killing channels */

/* discard_if kills channels but, as brw runs GLSL's discard (a quad halts
 * only once all of it is discarded), they run on as helpers: they still
 * store (and feed derivatives), and `killed` says the hardware drops them.
 */
TEST(InterpFS, DiscardIfKillsAndKeepsChannelsAsHelpers)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x3f800000 = 1.000000)
    32x4  %2 = @load_frag_coord () ()
    1     %3 = flt %1 (1.000000), %2.x
    @discard_if (%3) ()
)" + store_output("%2", "%0", "FRAG_RESULT_DATA0", "x", "float32") + R"(
    block b1:
)", "uses_discard: true\n");
   const outputs out = run(*s, inputs());
   /* x + 0.5 > 1 for odd channels of each quad (x = 2q + 1) and for every
    * channel of the later quads (x >= 2).
    */
   EXPECT_EQ(out.killed, 0xfau);
   EXPECT_EQ(out.helpers, 0xfau);
   EXPECT_EQ(out.find(data0)->written[0], 0xffu);
   EXPECT_EQ(out.f32(data0, 0, 2), 0.5f);
}

TEST(InterpFS, DiscardInsideIfAndTerminate)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000002)
    32    %2 = @load_subgroup_invocation () ()
    1     %3 = ult %2, %1 (0x2)
    if %3 {
        block b1:
        @discard () ()
    } else {
        block b2:
    }
    block b3:
    32    %4 = load_const (0x00000006)
    1     %5 = uge %2, %4 (0x6)
    @terminate_if (%5) ()
)" + store_output("%2", "%0", "FRAG_RESULT_DATA0") + R"(
    block b4:
)");
   const outputs out = run(*s, inputs());
   EXPECT_EQ(out.killed, 0xc3u);
   /* The discarded channels 0-1 run on (and store); the terminated 6-7
    * stop.
    */
   EXPECT_EQ(out.helpers, 0x03u);
   EXPECT_EQ(out.find(data0)->written[0], 0x3fu);
}

/* Demoted channels keep running as helpers: they still compute (and feed
 * derivatives) but are reported killed.
 */
TEST(InterpFS, DemoteMakesHelpers)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = @load_subgroup_invocation () ()
    32    %3 = iand %2, %1 (0x1)
    1     %4 = ine %3, %0 (0x0)
    @demote_if (%4) ()
    1     %5 = @is_helper_invocation () ()
    32    %6 = b2i32 %5
)" + store_output("%6", "%0", "FRAG_RESULT_DATA0") + R"(
    block b1:
)");
   const outputs out = run(*s, inputs());
   EXPECT_EQ(out.killed, 0xaau);
   EXPECT_EQ(out.helpers, 0xaau);
   EXPECT_EQ(out.find(data0)->written[0], 0xffu);
   EXPECT_EQ(out.word(data0, 0, 1), 1u);
   EXPECT_EQ(out.word(data0, 0, 2), 0u);
}

/* ------------------------------------------------------------------ */
/* Compute shaders */

TEST(InterpCS, InvocationAndWorkgroupIds)
{
   /* ssbo[global index] = local id x | y << 8 | workgroup id x << 16 */
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000008)
    32    %2 = load_const (0x00000010)
    32    %3 = load_const (0x00000002)
    32x3  %4 = @load_local_invocation_id () ()
    32x3  %5 = @load_workgroup_id () ()
    32    %6 = @load_local_invocation_index () ()
    32x3  %7 = @load_global_invocation_id () ()
    32x3  %8 = @load_workgroup_size () ()
    32    %9 = ishl %4.y, %1 (0x8)
    32    %10 = ishl %5.x, %2 (0x10)
    32    %11 = ior %4.x, %9
    32    %12 = ior %11, %10
    32    %13 = ishl %6, %3 (0x2)
    @store_ssbo (%12, %0 (0x0), %13) (wrmask=x, access=none, align_mul=4, align_offset=0)
    32    %14 = load_const (0x00000080)
    32    %15 = iadd %13, %14 (0x80)
    32    %17 = mov %7.y
    @store_ssbo (%17, %0 (0x0), %15) (wrmask=x, access=none, align_mul=4, align_offset=0)
    32    %16 = load_const (0x00000100)
    @store_ssbo (%8, %0 (0x0), %16 (0x100)) (wrmask=xyz, access=none, align_mul=4, align_offset=0)
    block b1:
)", "workgroup-size: 4, 4, 1\n");
   inputs in;
   in.simd = 16;
   in.workgroup_id = {3, 2, 0};
   in.ssbos[0].resize(512);
   const outputs out = run(*s, in);
   const auto &b = out.ssbos.at(0);
   for (unsigned c = 0; c < 16; c++) {
      EXPECT_EQ(word_at(b, c), (c % 4) | (c / 4) << 8 | 3u << 16) << c;
      /* global y = 2 * 4 + local y */
      EXPECT_EQ(word_at(b, 32 + c), 8 + c / 4) << c;
   }
   EXPECT_EQ(word_at(b, 64), 4u);
   EXPECT_EQ(word_at(b, 65), 4u);
   EXPECT_EQ(word_at(b, 66), 1u);
}

TEST(InterpCS, SharedMemoryAtomicsAndBarrier)
{
   /* Every channel adds its index to shared[0] and maxes shared[4]; after a
    * barrier each channel reads shared[0] back.  The atomic returns the old
    * value: channel c sees the sum of 0..c-1.
    */
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000004)
    32    %2 = @load_local_invocation_index () ()
    32    %3 = @shared_atomic (%0 (0x0), %2) (base=0, atomic_op=iadd)
    32    %4 = @shared_atomic (%1 (0x4), %2) (base=0, atomic_op=umax)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
    32    %5 = @load_shared (%0 (0x0)) (base=0, align_mul=4, align_offset=0)
    32    %6 = ishl %2, %1 (0x4)
    32x2  %7 = vec2 %3, %5
    @store_shared (%7, %6) (base=16, wrmask=xy, align_mul=4, align_offset=0)
    block b1:
)", "workgroup-size: 8, 1, 1\nshared-size: 256\n");
   const outputs out = run(*s, inputs());
   EXPECT_EQ(out.shared.size(), 256u);
   EXPECT_EQ(word_at(out.shared, 0), 28u);
   EXPECT_EQ(word_at(out.shared, 1), 7u);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(word_at(out.shared, 4 + 4 * c), c * (c - 1) / 2) << c;
      EXPECT_EQ(word_at(out.shared, 5 + 4 * c), 28u) << c;
   }
}

/* Two subgroups of 8 (workgroup 16): each invocation stores its index
 * to its slot, passes the barrier and reads the slot of invocation
 * 15 - i, which the other subgroup wrote.  Run alone, subgroup 0 would
 * read zeros: only the whole workgroup gives 15 - i everywhere.
 */
const char *const reverse_exchange = R"(
    block b0:
    32    %0 = load_const (0x00000002)
    32    %1 = load_const (0x0000000f)
    32    %2 = @load_local_invocation_index () ()
    32    %3 = ishl %2, %0 (0x2)
    32    %4 = iadd %2, %1 (0xf)
    @store_shared (%4, %3) (base=0, wrmask=x, align_mul=4, align_offset=0)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
    32    %5 = isub %1 (0xf), %2
    32    %6 = ishl %5, %0 (0x2)
    32    %7 = @load_shared (%6) (base=0, align_mul=4, align_offset=0)
    @store_shared (%7, %3) (base=64, wrmask=x, align_mul=4, align_offset=0)
    block b1:
)";

TEST(InterpCS, WholeWorkgroupExchangesThroughSharedMemoryAcrossTheBarrier)
{
   auto s = make_shader("COMPUTE", reverse_exchange, "workgroup-size: 16, 1, 1\nshared-size: 128\n");
   inputs in;
   in.simd = 8;
   in.whole_workgroup = true;
   const outputs out = run(*s, in);
   for (unsigned i = 0; i < 16; i++) {
      EXPECT_EQ(word_at(out.shared, i), i + 15) << i;
      EXPECT_EQ(word_at(out.shared, 16 + i), (15 - i) + 15) << i;
   }
   /* One subgroup alone sees only its own stores. */
   in.whole_workgroup = false;
   const outputs one = run(*s, in);
   for (unsigned i = 0; i < 8; i++)
      EXPECT_EQ(word_at(one.shared, 16 + i), 0u) << i;
   /* SIMD16: one subgroup is the whole group, and the same words. */
   in.simd = 16;
   in.whole_workgroup = true;
   const outputs wide = run(*s, in);
   EXPECT_EQ(wide.shared, out.shared);
}

TEST(InterpCS, WholeWorkgroupRunsInOrderBetweenBarriers)
{
   /* Workgroup 24 at SIMD8: three subgroups, the last one full.  Every
    * invocation increments shared[0] and keeps the old value, barrier,
    * then again: the first round gives 0..23 in invocation order, the
    * second 24..47, as subgroups run in order up to each barrier.
    */
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000004)
    32    %3 = @load_local_invocation_index () ()
    32    %4 = ishl %3, %2 (0x4)
    32    %5 = @shared_atomic (%0 (0x0), %1 (0x1)) (base=0, atomic_op=iadd)
    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
    32    %6 = @shared_atomic (%0 (0x0), %1 (0x1)) (base=0, atomic_op=iadd)
    32x2  %7 = vec2 %5, %6
    @store_shared (%7, %4) (base=16, wrmask=xy, align_mul=4, align_offset=0)
    block b1:
)", "workgroup-size: 24, 1, 1\nshared-size: 512\n");
   /* SIMD16: a full subgroup and one of 8 channels; SIMD32: one of 24. */
   for (unsigned simd : {8u, 16u, 32u}) {
      inputs in;
      in.simd = simd;
      in.whole_workgroup = true;
      const outputs out = run(*s, in);
      EXPECT_EQ(word_at(out.shared, 0), 48u) << simd;
      for (unsigned i = 0; i < 24; i++) {
         EXPECT_EQ(word_at(out.shared, 4 + 4 * i), i) << simd << " " << i;
         EXPECT_EQ(word_at(out.shared, 5 + 4 * i), 24 + i) << simd << " " << i;
      }
   }
}

TEST(InterpCS, SubgroupSkippingTheBarrierIsADiagnosedDeadlock)
{
   /* Subgroup 1 (invocations 8-15) skips the barrier (a uniform branch on
    * the subgroup id), subgroup 0 waits at it for ever.
    */
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = @load_subgroup_id () ()
    1     %2 = ieq %1, %0 (0x0)
    // succs: b1 b2
    if %2 {
      block b1:
      @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
      // succs: b3
    } else {
      block b2:
      // succs: b3
    }
    block b3:
    block b4:
)", "workgroup-size: 16, 1, 1\nshared-size: 64\n");
   inputs in;
   in.simd = 8;
   in.whole_workgroup = true;
   try {
      run(*s, in);
      FAIL() << "no deadlock reported";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("deadlock: subgroup 0 waits at its barrier 1, "
                                           "subgroup 1 ended"),
                std::string::npos)
         << e.what();
   }
   /* At SIMD16 the one subgroup takes the branch: no deadlock. */
   in.simd = 16;
   EXPECT_NO_THROW(run(*s, in));
}

TEST(InterpCS, BarrierInDivergentControlFlowIsAnError)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000004)
    32    %1 = @load_local_invocation_index () ()
    1     %2 = ult %1, %0 (0x4)
    // succs: b1 b2
    if %2 {
      block b1:
      @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, mem_semantics=ACQ|REL, mem_modes=shared)
      // succs: b3
    } else {
      block b2:
      // succs: b3
    }
    block b3:
    block b4:
)", "workgroup-size: 16, 1, 1\nshared-size: 64\n");
   inputs in;
   in.simd = 8;
   in.whole_workgroup = true;
   try {
      run(*s, in);
      FAIL() << "no error";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("barrier in non-uniform control flow"),
                std::string::npos)
         << e.what();
   }
}

/* ------------------------------------------------------------------ */
/* Buffers */

TEST(InterpMemory, PushConstantsAndUniforms)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000004)
    32x2  %2 = @load_uniform (%1 (0x4)) (base=4, range=8, dest_type=uint32)
    32    %3 = @load_vertex_id () ()
    32    %4 = ishl %3, %1 (0x4)
    32    %5 = @load_push_constant (%4) (base=0, range=64, align_mul=4, align_offset=0)
    32x3  %6 = vec3 %2.x, %2.y, %5
)" + store_output("%6", "%0", "VARYING_SLOT_VAR0", "xyz") + R"(
    block b1:
)");
   inputs in;
   in.push = bytes({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27});
   const outputs out = run(*s, in);
   EXPECT_EQ(out.word(var0, 0, 0), 12u);
   EXPECT_EQ(out.word(var0, 1, 0), 13u);
   /* Words 0, 4, 8, 12, 16, then past the end: 0. */
   EXPECT_EQ(out.word(var0, 2, 0), 10u);
   EXPECT_EQ(out.word(var0, 2, 3), 22u);
   EXPECT_EQ(out.word(var0, 2, 4), 26u);
   EXPECT_EQ(out.word(var0, 2, 5), 0u);
}

TEST(InterpMemory, UboLoadsWithDivergentBlockAndOffset)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000004)
    32x4  %3 = @load_ubo_uniform_block_intel (%1 (0x1), %0 (0x0)) (access=none, align_mul=16, align_offset=0, range_base=0, range=16)
    32    %4 = @load_vertex_id () ()
    32    %5 = iand %4, %1 (0x1)
    32    %6 = ishl %4, %2 (0x4)
    32    %7 = iadd %6, %2 (0x4)
    32    %8 = @load_ubo (%5, %7) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)
    32x2  %9 = vec2 %3.w, %8
)" + store_output("%9", "%0", "VARYING_SLOT_VAR0", "xy") + R"(
    block b1:
)");
   inputs in;
   in.ubos[0] = bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
   in.ubos[1] = bytes({100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111});
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.word(var0, 0, c), 103u);
      /* Word 4c + 1 of UBO c & 1; UBO 0 has 16 words, UBO 1 twelve. */
      const unsigned w = 4 * c + 1;
      const uint32_t expect = c & 1 ? (w < 12 ? 100 + w : 0) : (w < 16 ? w : 0);
      EXPECT_EQ(out.word(var0, 1, c), expect) << c;
   }
}

TEST(InterpMemory, SsboLoadStoreAtomicsAndSize)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000002)
    32    %2 = load_const (0x00000010)
    32    %3 = @load_subgroup_invocation () ()
    32    %4 = ishl %3, %1 (0x2)
    32    %5 = iadd %4, %2 (0x10)
    32    %6 = @load_ssbo (%0 (0x0), %5) (access=none, align_mul=4, align_offset=0)
    32    %7 = imul %6, %6
    @store_ssbo (%7, %0 (0x0), %5) (wrmask=x, access=none, align_mul=4, align_offset=0)
    32    %8 = @ssbo_atomic (%0 (0x0), %0 (0x0), %6) (access=none, atomic_op=iadd)
    32    %9 = load_const (0x00000004)
    32    %10 = @ssbo_atomic_swap (%0 (0x0), %9 (0x4), %3, %2 (0x10)) (access=none, atomic_op=cmpxchg)
    32    %11 = load_const (0x00000008)
    32    %12 = @ssbo_atomic (%0 (0x0), %11 (0x8), %3) (access=none, atomic_op=xchg)
    32    %13 = @get_ssbo_size (%0 (0x0)) (access=none)
    32    %14 = load_const (0x00000040)
    32    %17 = ishl %3, %9 (0x4)
    32    %15 = iadd %17, %14 (0x40)
    32x3  %16 = vec3 %8, %10, %13
    @store_ssbo (%16, %1 (0x2), %15) (wrmask=xz, access=none, align_mul=4, align_offset=0)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   inputs in;
   in.ssbos[0] = bytes({0, 3, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
   in.ssbos[2].resize(256);
   const outputs out = run(*s, in);
   const auto &b0 = out.ssbos.at(0), &b2 = out.ssbos.at(2);
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(word_at(b0, 4 + c), (c + 1) * (c + 1));
   /* Channel c's iadd returns 0 + 1 + ... + c (the loaded values). */
   EXPECT_EQ(word_at(b0, 0), 36u);
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(word_at(b2, 16 + 4 * c), c * (c + 1) / 2) << c;
      EXPECT_EQ(word_at(b2, 16 + 4 * c + 1), 0u);  /* not in wrmask */
      EXPECT_EQ(word_at(b2, 16 + 4 * c + 2), 48u);
   }
   /* cmpxchg: word 1 holds 3 until channel 3 swaps in 16. */
   EXPECT_EQ(word_at(b0, 1), 16u);
   /* xchg in channel order: the last channel's value stays. */
   EXPECT_EQ(word_at(b0, 2), 7u);
}

TEST(InterpMemory, ScratchIsPerChannel)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000004)
    32    %2 = @load_vertex_id () ()
    @store_scratch (%2, %1 (0x4)) (align_mul=4, align_offset=0, wrmask=x)
    32    %3 = @load_scratch (%1 (0x4)) (align_mul=4, align_offset=0)
)" + store_output("%3", "%0", "VARYING_SLOT_VAR0") + R"(
    block b1:
)", "", "scratch: 16\n");
   const outputs out = run(*s, inputs());
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(out.word(var0, 0, c), c);
}

} /* anonymous namespace */

/* The target's float controls: with denormals flushed (Gen9's cr0 = 0)
 * a comparison sees a denormal input as zero and a result that would be
 * denormal comes out zero; fneg and fabs, source modifiers on Gen, keep
 * the bits.  Without the controls the interpreter is IEEE.
 */
TEST(InterpVS, FloatControlsFlushDenormalsOnInputAndOutput)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = fneu32 %0, %1
    32    %3 = fmul %1, %1
    32    %4 = fneg %1
    32x4  %7 = vec4 %2, %3, %4, %2
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw", "uint32") + R"(
    block b1:
)");
   inputs in;
   outputs ieee = run(*s, in);
   in.float_controls = 0x10;   /* FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_FP32 */
   outputs gen = run(*s, in);
   EXPECT_EQ(ieee.word(var0, 0, 0), ~0u);       /* 0 != 2^-149 */
   EXPECT_EQ(gen.word(var0, 0, 0), 0u);         /* 0 != 0 */
   EXPECT_EQ(gen.word(var0, 1, 0), 0u);
   EXPECT_EQ(ieee.word(var0, 2, 0), 0x80000001u);
   EXPECT_EQ(gen.word(var0, 2, 0), 0x80000001u);
}

/* A denormal half unpacked under the 16-bit flush mode is zero (Mesa's
 * algebraic pass makes the unpack its _flush_to_zero form; Gen's mov from
 * HF flushes), and stays 2^-24 without it.  Random cs seed 4: an atomic
 * umax of unpack_half_2x16_split_x(1) found 0x33800000 in the interpreter,
 * zero in the simulator.
 */
TEST(InterpVS, FloatControlsFlushDenormalHalvesInUnpack)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x3c010001)
    32    %2 = unpack_half_2x16_split_x %1
    32    %3 = unpack_half_2x16_split_y %1
    32    %4 = load_const (0x80010000)
    32    %5 = unpack_half_2x16_split_y %4
    32x4  %7 = vec4 %2, %3, %5, %0
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw", "uint32") + R"(
    block b1:
)");
   inputs in;
   outputs ieee = run(*s, in);
   in.float_controls = 0x8;   /* FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_FP16 */
   outputs gen = run(*s, in);
   EXPECT_EQ(ieee.word(var0, 0, 0), 0x33800000u);   /* 2^-24 */
   EXPECT_EQ(gen.word(var0, 0, 0), 0u);
   EXPECT_EQ(ieee.word(var0, 1, 0), 0x3f802000u);   /* a normal half: 1 + 2^-10 */
   EXPECT_EQ(gen.word(var0, 1, 0), 0x3f802000u);
   EXPECT_EQ(ieee.word(var0, 2, 0), 0xb3800000u);   /* -2^-24 */
   EXPECT_EQ(gen.word(var0, 2, 0), 0x80000000u);    /* -0 */
}

/* The half packs flush a denormal half under the 16-bit flush mode (Gen's
 * mov to HF does): random fs seed 744 packed 2^-23 into 0x0003 where the
 * simulator wrote 0.
 */
TEST(InterpVS, FloatControlsFlushDenormalHalvesInPack)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x34400000)
    32    %2 = load_const (0x3f800000)
    32    %3 = pack_half_2x16_split %2, %1
    32    %4 = pack_half_2x16_rtz_split %1, %2
    32x4  %7 = vec4 %3, %4, %0, %0
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw", "uint32") + R"(
    block b1:
)");
   inputs in;
   outputs ieee = run(*s, in);
   in.float_controls = 0x8;   /* FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_FP16 */
   outputs gen = run(*s, in);
   /* 1.5 * 2^-23 is the half denormal 3 * 2^-24 = 0x0003. */
   EXPECT_EQ(ieee.word(var0, 0, 0), 0x00033c00u);
   EXPECT_EQ(gen.word(var0, 0, 0), 0x00003c00u);
   EXPECT_EQ(ieee.word(var0, 1, 0), 0x3c000003u);
   EXPECT_EQ(gen.word(var0, 1, 0), 0x3c000000u);
}
