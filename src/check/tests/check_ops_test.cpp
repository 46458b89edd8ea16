/*
 * End to end through the simulator: the opcodes the translator emulates
 * (mul/mach high multiplies, halving adds, find_msb, the flush-to-zero half
 * unpacks, f2f16_rtz) compiled at every width and compared with the
 * interpreter on six input sets.  Needs the whole pipeline.
 */
#include <gtest/gtest.h>

#include "check/check.h"

using namespace ibis;

namespace {

const char *ops_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %20 = load_const (0x9e3779b9)
    div 32 %21 = fmul %2.x, %2.y
    div 32 %3 = imul %21, %20 (0x9e3779b9)
    div 32 %4 = ixor %3, %2.z
    div 32 %5 = umul_high %3, %4
    div 32 %6 = imul_high %4, %3
    div 32 %7 = ihadd %5, %6
    div 32 %8 = uhadd %5, %6
    div 32 %9 = ifind_msb %6
    div 32 %10 = ufind_msb %7
    div 32 %11 = unpack_half_2x16_split_x_flush_to_zero %3
    div 32 %12 = unpack_half_2x16_split_y_flush_to_zero %4
    div 16 %13 = f2f16_rtz %21
    div 32 %14 = u2u32 %13
    div 32 %15 = ixor %9, %10
    div 32 %16 = ixor %15, %14
    div 32 %17 = ixor %7, %8
    div 32x4 %18 = vec4 %5, %6, %17, %16
    @store_output (%18, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=uint32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    div 32x4 %19 = vec4 %11, %12, %11, %12
    @store_output (%19, %1 (0x0)) (base=1, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* Mesa 25.0's forms end to end: the derivative intrinsics (coarse and
 * fine), fcsel_gt (25.0's lowered fsign), demote_if, quad votes, and
 * 16-component UBO block loads at a line-aligned offset and across a
 * 64-byte line.
 */
const char *mesa25_nir = R"(shader: MESA_SHADER_FRAGMENT
inputs_read: 32
num_ubos: 1
uses_discard: true
divergence_analysis_run: true
decl_var ubo INTERP_MODE_NONE none vec4[16] uniform_0 (0, 0, 0)
decl_function main () (entrypoint)

impl main {
    con block b0:
    div 32x2 %0 = @load_barycentric_pixel (interp_mode=INTERP_MODE_SMOOTH)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32 %3 = fmul %2.x, %2.y
    div 32 %4 = @ddx (%3)
    div 32 %5 = @ddy_fine (%3)
    div 32 %24 = mov %2.z
    div 32 %25 = mov %2.w
    div 32 %6 = @ddx_fine (%24)
    div 32 %7 = @ddy (%25)
    con 32 %8 = load_const (0x00000020)
    con 32x16 %9 = @load_ubo_uniform_block_intel (%1 (0x0), %1 (0x0)) (access=speculatable, align_mul=1073741824, align_offset=0, range_base=0, range=64)
    con 32x16 %10 = @load_ubo_uniform_block_intel (%1 (0x0), %8 (0x20)) (access=speculatable, align_mul=1073741824, align_offset=32, range_base=32, range=64)
    div 32 %11 = fsub %2.x, %9.c
    con 32 %12 = load_const (0x3f800000)
    con 32 %13 = load_const (0xbf800000)
    div 32 %14 = fneg %11
    div 32 %15 = fcsel_gt %14, %13 (-1.000000), %1 (0.000000)
    div 32 %16 = fcsel_gt %11, %12 (1.000000), %15
    div 32 %17 = fadd %10.a, %10.p
    div 32 %18 = fadd %9.p, %10.i
    div 32 %19 = fmul %16, %17
    div 32 %20 = fadd %4, %5
    div 32 %21 = fadd %6, %7
    div 32x4 %26 = @load_frag_coord
    div 1 %22 = flt %26.x, %9.e
    div 32 %32 = fmul %26.y, %9.f
    div 1 %33 = flt %32, %9.e
    div 1 %27 = @quad_vote_any (%33)
    div 1 %28 = @quad_vote_all (%33)
    div 32 %29 = b2i32 %27
    div 32 %30 = b2i32 %28
    div 32x2 %31 = vec2 %29, %30
    @store_output (%31, %1 (0x0)) (base=1, range=1, wrmask=xy, component=0, src_type=uint32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())
    @demote_if (%22)
    div 32x4 %23 = vec4 %19, %18, %20, %21
    @store_output (%23, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* Dual-source blending: the second colour (index 1) goes out in the same
 * render-target write and is compared with the simulator's color1.
 */
const char *dual_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
color_is_dual_source: true
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    @store_output (%2, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    div 32x4 %3 = vec4 %2.w, %2.z, %2.y, %2.x
    @store_output (%3, %1 (0x0)) (base=9, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1 dualsrc, xfb(), xfb2())
    block b1:
}
)";

/* tesseract/494.fs: a rectangle at texture 1 read through sampler 0; the
 * texel-space coordinate comes from the pixel position.
 */
const char *rect_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs: 0
outputs: 1
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2DRect tex0 (0, 0, 0)
decl_function main (0 params)

impl main {
    block b0:
    div 32x4 %0 = @load_frag_coord () ()
    con 32 %1 = load_const (0x00000000)
    con 32 %2 = load_const (0x3f000000)
    div 32 %3 = fadd %0.x, %2 (0.500000)
    div 32 %4 = fadd %0.y, %2 (0.500000)
    div 32x2 %5 = vec2 %3, %4
    div 32x4 %6 = (float32)tex %5 (coord), 1 (texture), 0 (sampler)
    @store_output (%6, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* isub_sat by INT_MIN, a constant (random cs seed 1342: 16-bit
 * 0x8000 - 0x8000 gave 0x8000) and per channel (a channel's x below zero
 * picks INT_MIN), at 16 and 32 bits: Gen negates at the source's width.
 */
const char *sub_sat_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x80000000)
    div 32 %4 = f2i32 %2.y
    div 32 %5 = flt32 %2.x, %1 (0x0)
    div 32 %6 = b32csel %5, %3 (0x80000000), %4
    div 32 %7 = isub_sat %4, %6
    div 32 %8 = isub_sat %4, %3 (0x80000000)
    con 16 %9 = load_const (0x8000)
    div 16 %10 = i2i16 %4
    div 16 %11 = b16csel %5, %9 (0x8000), %10
    div 16 %12 = isub_sat %10, %11
    div 16 %13 = isub_sat %9 (0x8000), %9 (0x8000)
    div 32 %14 = i2i32 %12
    div 32 %15 = i2i32 %13
    div 32x4 %16 = vec4 %7, %8, %14, %15
    @store_output (%16, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=int32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* fmin/fmax of zeros of both signs (x * 0 has x's sign), in both operand
 * orders, with constants and with each other, and their fsat and fneg:
 * the compiler may commute and fold them, the result may not change
 * (random cs 6736, vs 9017 of the 10,000-seed run).
 */
const char *zeros_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x80000000)
    div 32 %4 = fmul %2.x, %1 (0.0)
    div 32 %5 = fmul %2.y, %1 (0.0)
    div 32 %6 = fmin %4, %5
    div 32 %7 = fmax %5, %4
    div 32 %8 = fmin %3 (-0.0), %4
    div 32 %9 = fmax %4, %3 (-0.0)
    div 32 %10 = fmin %1 (0.0), %3 (-0.0)
    div 32 %11 = fmax %10, %1 (0.0)
    div 32 %12 = fmin %7, %11
    div 32 %13 = fneg %12
    div 32 %14 = fsat %8
    div 32 %15 = fmax %13, %14
    div 32x4 %16 = vec4 %6, %7, %8, %9
    @store_output (%16, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    con 16 %17 = load_const (0x0000)
    con 16 %18 = load_const (0x8000)
    div 16 %19 = f2f16 %4
    div 16 %20 = fmax %17 (0.0), %18 (-0.0)
    div 16 %21 = fmin %19, %20
    div 16 %22 = fmax %18 (-0.0), %19
    div 32 %23 = f2f32 %21
    div 32 %24 = f2f32 %22
    div 32x4 %25 = vec4 %10, %15, %23, %24
    @store_output (%25, %1 (0x0)) (base=1, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* Depth comparisons through a sampler2DShadow (as the random programs'
 * unit 2): txl with a reference, whose x is compared with a tolerance
 * (filtered; y, z and w are the hardware's, not NIR's, so neither the
 * corpus nor the generator reads them); and a gather of a plain 2D
 * texture, exact.
 */
const char *shadow_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2DShadow shadow0 (0, 0, 0)
decl_var uniform INTERP_MODE_NONE none sampler2D tex1 (1, 1, 1)
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x3e4ccccd)
    div 32 %4 = fmul %2.z, %3 (0.200000)
    div 32x2 %5 = vec2 %2.x, %2.y
    div 32x4 %6 = (float32)txl %5 (coord), %4 (comparator), %1 (0.000000) (lod), 0 (texture), 0 (sampler)
    div 32x4 %8 = vec4 %6.x, %4, %6.x, %2.w
    @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    div 32x4 %7 = (float32)tg4 %5 (coord), 2 (gather_component), 1 (texture), 1 (sampler)
    @store_output (%7, %1 (0x0)) (base=1, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA1 slots=1, xfb(), xfb2())
    block b1:
}
)";

} /* anonymous namespace */

/* The sampler of a rectangle lookup takes texel coordinates whatever its
 * index; the filtered result is compared (one level, so no LOD).
 */
TEST(check_ops, rectangle_through_another_sampler_index)
{
   auto s = nir::read_shader(rect_nir, "rect.nir");
   for (unsigned w : {8u, 16u}) {
      check::result r = check::check_shader(*s, w, 1, 2);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      EXPECT_GE(r.compared, 4u * w);
   }
}

TEST(check_ops, emulated_opcodes_match_the_interpreter)
{
   auto s = nir::read_shader(ops_nir, "ops.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 3, 6);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      /* 2 outputs x 4 components x channels x 6 sets (some channels off). */
      EXPECT_GT(r.compared, 8u * w * 3);
      EXPECT_EQ(r.unchecked, 0u);
   }
}

TEST(check_ops, mesa25_forms_match_the_interpreter)
{
   auto s = nir::read_shader(mesa25_nir, "mesa25.nir");
   ASSERT_EQ(s->dialect, nir::print_dialect::mesa_25_0);
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 11, 4);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      EXPECT_GT(r.compared, 4u * w) << r.detail;
   }
}

TEST(check_ops, dual_source_colors_are_compared)
{
   auto s = nir::read_shader(dual_nir, "dual.nir");
   for (unsigned w : {8u, 16u}) {
      check::result r = check::check_shader(*s, w, 1, 2);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      /* Both colours, 4 components each, every channel of set 0. */
      EXPECT_GE(r.compared, 2u * 4u * w);
      EXPECT_NE(r.detail.find("rt0 dual.x"), std::string::npos) << r.detail;
   }
}

TEST(check_ops, isub_sat_by_int_min)
{
   auto s = nir::read_shader(sub_sat_nir, "sub_sat.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 5, 6);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      EXPECT_GT(r.compared, 4u * w * 3);
      EXPECT_EQ(r.unchecked, 0u);
   }
}

TEST(check_ops, signed_zeros_from_min_max)
{
   auto s = nir::read_shader(zeros_nir, "zeros.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 7, 6);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      EXPECT_GT(r.compared, 8u * w * 3);
      EXPECT_EQ(r.unchecked, 0u);
   }
}

TEST(check_ops, shadow_lookup_and_gather)
{
   auto s = nir::read_shader(shadow_nir, "shadow.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 3, 4);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      EXPECT_GT(r.compared, 8u * w * 2);
      EXPECT_EQ(r.unchecked, 0u);
      EXPECT_GT(r.approximate, 0u);
   }
}

namespace {

/* glamor/91.vs's shape: one attribute (GENERIC0, slot 0) and gl_VertexID
 * as brw_nir_lower_vs_inputs leaves it, a load_input without a slot at the
 * vertex element after the attributes.  ibis took it for attribute 0 (a
 * slot before GENERIC0's), so under brw's layout it read the ids where
 * GENERIC0 was.
 */
const char *sysval_vs_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32    %2 = @load_input (%0 (0x0)) (base=1, range=0, component=0, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    div 32    %3 = @load_input (%0 (0x0)) (base=1, range=0, component=2, dest_type=invalid, io location=VERT_ATTRIB_POS slots=0)
    div 32    %4 = iadd %3, %2
    div 32    %5 = i2f32 %4
    div 32    %6 = fadd %1.x, %5
    div 32x4  %7 = vec4 %6, %1.y, %1.z, %1.w
    @store_output (%7, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

} /* anonymous namespace */

TEST(check_ops, brw_lowered_vertex_ids_are_the_vertex_element)
{
   auto s = nir::read_shader(sysval_vs_nir, "sysval.vs.nir");
   check::result r = check::check_shader(*s, 8, 1, 4);
   EXPECT_EQ(r.v, check::verdict::match) << r.first;
   EXPECT_EQ(r.compared % 4, 0u);
   EXPECT_GT(r.compared, 0u);
}

namespace {

/* A vec8 uniform block read at byte 52 of UBO 0 crosses a 64-byte line;
 * with nothing pushed it is pulled.  The lowering refused it ("block read
 * crosses a 64-byte line": warsow/157, 160, 241, 244 and five dolphin VS
 * under iris's push ranges).
 */
const char *line_crossing_vs_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    con 32    %1 = load_const (0x00000034)
    div 32x4  %2 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    con 32x8  %3 = @load_ubo_uniform_block_intel (%0 (0x0), %1 (0x34)) (access=none, align_mul=1073741824, align_offset=52, range_base=52, range=32)
    div 32    %4 = fadd %2.x, %3.a
    div 32    %5 = fadd %2.y, %3.h
    div 32x4  %6 = vec4 %4, %5, %3.c, %3.f
    @store_output (%6, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

} /* anonymous namespace */

TEST(check_ops, pulled_block_read_across_a_64_byte_line)
{
   auto s = nir::read_shader(line_crossing_vs_nir, "line.vs.nir");
   compile_options o;
   apply_abi_text("push_ranges none\n", "none.abi", o.abi);
   check::result r = check::check_shader(*s, 8, 1, 4, o);
   EXPECT_EQ(r.v, check::verdict::match) << r.first;
   EXPECT_GT(r.compared, 0u);
}

namespace {

/* A VS writing a clip distance: iris's VUE map has a pad slot after it
 * (dolphin's ubershader VS), where brw's default map for what the
 * interpreter saw written has none.  The check compared VAR0 with the
 * pad's slot.
 */
const char *clip_vs_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32x4  %2 = fadd %1, %1
    @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    @store_output (%2, %0 (0x0)) (base=1, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_CLIP_DIST0 slots=1, xfb(), xfb2())
    @store_output (%2, %0 (0x0)) (base=2, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
    block b1:
}
)";

} /* anonymous namespace */

TEST(check_ops, vue_map_of_the_abi_is_the_one_compared)
{
   auto s = nir::read_shader(clip_vs_nir, "clip.vs.nir");
   compile_options o;
   apply_abi_text("vs_vue_slots 12 0 17 65 32\n", "clip.abi", o.abi);
   check::result r = check::check_shader(*s, 8, 1, 2, o);
   EXPECT_EQ(r.v, check::verdict::match) << r.first;
   EXPECT_GE(r.compared, 3u * 4 * 8);   /* set 0: 3 outputs, 8 vertices */
}

namespace {

/* GLSL's discard (23.3's discard_if) of the left column of every quad,
 * then derivatives of a value computed after it.  brw halts only quads
 * all of whose channels discard ("(-f1.0.any4h) halt"), so the discarded
 * channels of the others still compute it and the right column's
 * derivatives are those of the pixels: tesseract/309.fs.simd16.asm:8,
 * whose cube lookup after the alpha test ibis gave another LOD where it
 * halted the discarded channels one by one (63 words brw and ibis
 * differed in).
 */
const char *discard_derivatives_nir = R"(shader: MESA_SHADER_FRAGMENT
inputs_read: 32
uses_discard: true
needs_quad_helper_invocations: true
divergence_analysis_run: true
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32x4 %3 = @load_frag_coord () ()
    div 32 %4 = f2u32 %3.x
    con 32 %5 = load_const (0x00000001)
    div 32 %6 = iand %4, %5 (0x1)
    div 32 %7 = ieq32 %6, %1 (0x0)
    @discard_if (%7) ()
    div 32 %8 = fmul %2.z, %2.w
    div 32 %9 = fmul %8, %8
    div 32 %10 = fddx %9
    div 32 %11 = fddy %9
    div 32x4 %12 = vec4 %10, %11, %9, %8
    @store_output (%12, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* The same with an unconditional discard under an if. */
const char *discard_in_if_nir = R"(shader: MESA_SHADER_FRAGMENT
inputs_read: 32
uses_discard: true
needs_quad_helper_invocations: true
divergence_analysis_run: true
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32x4 %3 = @load_frag_coord () ()
    div 32 %4 = f2u32 %3.x
    con 32 %5 = load_const (0x00000001)
    div 32 %6 = iand %4, %5 (0x1)
    div 32 %7 = ieq32 %6, %1 (0x0)
    if %7 {
        block b1:
        @discard () ()
    } else {
        block b2:
    }
    block b3:
    div 32 %8 = fmul %2.z, %2.w
    div 32 %9 = fmul %8, %8
    div 32 %10 = fddx %9
    div 32 %11 = fddy %9
    div 32x4 %12 = vec4 %10, %11, %9, %8
    @store_output (%12, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b4:
}
)";

} /* anonymous namespace */

TEST(check_ops, derivatives_after_a_discard_see_the_discarded_pixels)
{
   for (const char *text : {discard_derivatives_nir, discard_in_if_nir}) {
      auto s = nir::read_shader(text, "discard.nir");
      for (unsigned w : {8u, 16u, 32u}) {
         check::result r = check::check_shader(*s, w, 1, 4);
         EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
         /* The right column of each quad: 4 components, exactly. */
         EXPECT_GE(r.compared, 4u * w / 2);
         EXPECT_EQ(r.unchecked, 0u);
      }
   }
}
