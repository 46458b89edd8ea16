/*
 * The differential mode end to end: hand-assembled programs paired with
 * equivalent NIR, run on the simulator and on the NIR interpreter with the
 * interpreter's default inputs, compared channel by channel.
 */
#include <gtest/gtest.h>

#include "isa/isa.h"
#include "nir/nir.h"
#include "sim/check/sim_check.h"

using namespace ibis;
namespace interp = ibis::nir::interp;

namespace {

/* Mesa 23 nir_print text: gl_Position = position. */
const char *vs_nir = R"(shader: MESA_SHADER_VERTEX
name: GLSL1
internal: false
stage: 0
next_stage: 4
inputs_read: 15
outputs_written: 0
subgroup_size: 1
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_NONE none vec4 position (VERT_ATTRIB_GENERIC0.xyzw, 15, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)
decl_function main (0 params)

impl main {
    block b0:      // preds:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
                   @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())  // gl_Position
                   // succs: b1
    block b1:
}
)";

/* Attributes at g2 (no push constants); the VUE's slot 1 is the position. */
const char *vs_asm = R"(
mov(8)   g10<1>UD   g1<8,8,1>UD                  { align1 1Q };
mov(8)   g11<1>F    g2<8,8,1>F                   { align1 1Q };
mov(8)   g12<1>F    g3<8,8,1>F                   { align1 1Q };
mov(8)   g13<1>F    g4<8,8,1>F                   { align1 1Q };
mov(8)   g14<1>F    g5<8,8,1>F                   { align1 1Q };
send(8)  null<1>F   g10<8,8,1>F   0x0a080017  urb   { align1 1Q EOT };
)";

/* gl_FragColor = gl_Color (smooth). */
const char *fs_nir = R"(shader: MESA_SHADER_FRAGMENT
name: GLSL1
internal: false
stage: 4
next_stage: 4
inputs_read: 1
outputs_written: 2
subgroup_size: 1
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 1, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:      // preds:
    div 32x2  %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32    %1 = load_const (0x00000000)
    div 32x4  %2 = @load_interpolated_input (%0, %1 (0x0)) (base=1, component=0, dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)  // gl_Color
                   @store_output (%2, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())  // gl_FragColor
                   // succs: b1
    block b1:
}
)";

/* SIMD8: barycentrics g2-g3, the attribute's planes g4-g5; RT write. */
const char *fs_asm = R"(
pln(8)   g10<1>F    g4<0,1,0>F     g2<8,8,1>F    { align1 1Q };
pln(8)   g11<1>F    g4.4<0,1,0>F   g2<8,8,1>F    { align1 1Q };
pln(8)   g12<1>F    g5<0,1,0>F     g2<8,8,1>F    { align1 1Q };
pln(8)   g13<1>F    g5.4<0,1,0>F   g2<8,8,1>F    { align1 1Q };
send(8)  null<1>F   g10<8,8,1>F   0x08031400  render   { align1 1Q EOT };
)";

/* if (gl_FragCoord.x < 2.0) discard; gl_FragColor = (0.25, 0.5, 0.75, 1). */
const char *discard_nir = R"(shader: MESA_SHADER_FRAGMENT
name: GLSL1
internal: false
stage: 4
next_stage: 4
outputs_written: 2
subgroup_size: 1
uses_discard: true
inputs: 0
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params)

impl main {
    block b0:      // preds:
    div 32x4  %0 = @load_frag_coord () ()
    con 32    %1 = load_const (0x40000000) = (2.000000)
    div 32    %2 = flt32 %0.x, %1 (2.000000)
                   @discard_if (%2) ()
    con 32x4  %3 = load_const (0x3e800000, 0x3f000000, 0x3f400000, 0x3f800000) = (0.250000, 0.500000, 0.750000, 1.000000)
    con 32    %4 = load_const (0x00000000)
                   @store_output (%3 (0.250000, 0.500000, 0.750000, 1.000000), %4 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())  // gl_FragColor
                   // succs: b1
    block b1:
}
)";

/* brw's discard: live pixels in f0.1, (-f0.1.any4h) halt to the end, the
 * RT write header carrying f0.1 as the pixel mask.
 */
const char *discard_asm = R"(
mov(1)   f0.1<1>UW  g1.14<0,1,0>UW               { align1 WE_all 1N };
add(16)  g10<1>UW   g1.4<1,4,0>UW  0x11001010V   { align1 WE_all 1H };
mov(8)   g12<1>F    g10<8,4,1>UW                 { align1 1Q };
add(8)   g12<1>F    g12<8,8,1>F    0x3f000000F   { align1 1Q };
(+f0.1) cmp.ge.f0.1(8) null<1>F g12<8,8,1>F 0x40000000F { align1 1Q };
(-f0.1.any4h) halt(8) JIP: TARGET  UIP: TARGET   { align1 1Q };
mov(8)   g22<1>F    0x3e800000F                  { align1 1Q };
mov(8)   g23<1>F    0x3f000000F                  { align1 1Q };
mov(8)   g24<1>F    0x3f400000F                  { align1 1Q };
mov(8)   g25<1>F    0x3f800000F                  { align1 1Q };
TARGET:
halt(8)  JIP: NEXT  UIP: NEXT                    { align1 1Q };
NEXT:
mov(16)  g20<1>UD   g0<8,8,1>UD                  { align1 WE_all 1H };
mov(1)   g21.14<1>UW f0.1<0,1,0>UW               { align1 WE_all 1N };
send(8)  null<1>F   g20<8,8,1>F   0x0c0b1400  render   { align1 1Q EOT };
)";

struct outcome {
   unsigned mismatches;
   std::string log;
};

outcome
differential(const char *nir_text, const std::string &asm_text, const char *stage,
             unsigned simd)
{
   std::unique_ptr<nir::shader> s = nir::read_shader(nir_text);
   interp::inputs in = interp::default_inputs(*s, simd);
   interp::outputs want = interp::run(*s, in);
   std::vector<uint8_t> bin = isa::assemble(asm_text, isa::gen::gen9, true);
   sim::check::run_result r = sim::check::run(bin, stage, in, s.get(), &want);
   EXPECT_TRUE(r.result.eot);
   outcome o;
   o.mismatches = sim::check::compare(stage, want, r.outputs, simd, 0, &o.log);
   return o;
}

} /* namespace */

TEST(sim_diff, vertex_passthrough_matches)
{
   outcome o = differential(vs_nir, vs_asm, "vs", 8);
   EXPECT_EQ(o.mismatches, 0u) << o.log;
}

TEST(sim_diff, fragment_interpolation_matches)
{
   outcome o = differential(fs_nir, fs_asm, "fs", 8);
   EXPECT_EQ(o.mismatches, 0u) << o.log;
}

TEST(sim_diff, wrong_program_lists_every_channel)
{
   /* Swap the planes of x and y: both components differ on all channels
    * whose x and y differ, and each one is named.
    */
   std::string bad = fs_asm;
   bad.replace(bad.find("g4<0,1,0>F"), 10, "gX<0,1,0>F");
   bad.replace(bad.find("g4.4<0,1,0>F"), 12, "g4<0,1,0>F");
   bad.replace(bad.find("gX<0,1,0>F"), 10, "g4.4<0,1,0>F");
   outcome o = differential(fs_nir, bad, "fs", 8);
   EXPECT_EQ(o.mismatches, 16u) << o.log;
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_NE(o.log.find("rt0.x channel " + std::to_string(c) + ":"), std::string::npos) << o.log;
      EXPECT_NE(o.log.find("rt0.y channel " + std::to_string(c) + ":"), std::string::npos) << o.log;
   }
}

TEST(sim_diff, discard_with_halt_matches)
{
   /* Default pixels: quad q at x = 2q, so quad 0 is discarded. */
   outcome o = differential(discard_nir, discard_asm, "fs", 8);
   EXPECT_EQ(o.mismatches, 0u) << o.log;
   /* Without the header's pixel mask the discarded pixels get written. */
   std::string leaky = discard_asm;
   leaky.replace(leaky.find("0x0c0b1400"), 10, "0x08031400");
   leaky.replace(leaky.find("g20<8,8,1>F   0x08031400"), 3, "g22");
   o = differential(discard_nir, leaky, "fs", 8);
   EXPECT_EQ(o.mismatches, 4u) << o.log;
   EXPECT_NE(o.log.find("rt0 channel 0: written, but the channel was killed"), std::string::npos)
      << o.log;
}

/* One FS dispatch for ibis-run and the differential check: quads from
 * the interpreter's pixels (or quad q at (2q, 0)), the masks, and the
 * barycentrics of each asked-for mode at the pixel centres, perspective
 * for the first three modes.
 */
TEST(sim_diff, fs_dispatch_from_interpreter_inputs)
{
   interp::inputs in;
   in.simd = 8;
   in.channels = 0xf0;
   in.helpers = 0x10;
   in.front_face = false;
   in.triangle = {{{0, 0, 0, 1}, {64, 0, 0, 2}, {0, 64, 0, 4}}};
   sim::fs_payload p = sim::check::fs_dispatch(
      in, (1u << sim::bary_persp_pixel) | (1u << sim::bary_nonpersp_pixel));
   ASSERT_EQ(p.subspans.size(), 2u);
   EXPECT_EQ(p.subspans[1][0], 2u);
   EXPECT_EQ(p.subspans[1][1], 0u);
   EXPECT_EQ(p.dispatch_mask, 0xf0u);
   EXPECT_EQ(p.helpers, 0x10u);
   EXPECT_FALSE(p.front_facing);
   /* Channel 7: pixel (3, 1), centre (3.5, 1.5). */
   EXPECT_EQ(p.bary[sim::bary_nonpersp_pixel][7][0], 3.5f / 64);
   EXPECT_EQ(p.bary[sim::bary_nonpersp_pixel][7][1], 1.5f / 64);
   const double b0 = (1 - 5.0 / 64) / 1, b1 = 3.5 / 64 / 2, b2 = 1.5 / 64 / 4;
   EXPECT_FLOAT_EQ(p.bary[sim::bary_persp_pixel][7][0], float(b1 / (b0 + b1 + b2)));
   EXPECT_FLOAT_EQ(p.bary[sim::bary_persp_pixel][7][1], float(b2 / (b0 + b1 + b2)));
   EXPECT_EQ(p.bary[sim::bary_persp_centroid][7][0], 0.f);

   for (unsigned c = 0; c < 8; c++)
      in.pixel.push_back({float(10 + 2 * (c / 4) + (c & 1)), float(20 + ((c >> 1) & 1))});
   p = sim::check::fs_dispatch(in, 0);
   EXPECT_EQ(p.subspans[0][0], 10u);
   EXPECT_EQ(p.subspans[1][0], 12u);
   EXPECT_EQ(p.subspans[1][1], 20u);
   std::swap(in.pixel[0], in.pixel[1]);
   EXPECT_THROW(sim::check::fs_dispatch(in, 0), ibis::error);
}
