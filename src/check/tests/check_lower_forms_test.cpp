/*
 * End to end through the simulator: message and derivative forms that
 * lowering learned for issue 9 (src/lower/tests/lower_forms_test.cpp has
 * their lowered IR), compiled at every width and compared with the NIR
 * interpreter.
 */
#include <gtest/gtest.h>

#include "check/check.h"

using namespace ibis;

namespace {

/* ddy_fine of values that are not linear in the pixel position (so each
 * column of a subspan has its own derivative), next to ddx_fine and the
 * coarse forms.
 */
const char *fine_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32 %3 = fmul %2.x, %2.y
    div 32 %4 = fmul %3, %2.x
    div 32 %5 = fddy_fine %3
    div 32 %6 = fddy_fine %4
    div 32 %7 = fddx_fine %4
    div 32 %8 = fddy_coarse %4
    div 32x4 %9 = vec4 %5, %6, %7, %8
    @store_output (%9, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* txf_ms of a 2D texture (single-sampled in both models: sample 0 is the
 * texel); the translator adds the MCS fetch, lowering makes ld_mcs and
 * ld2dms_w.  Coordinates and sample indices vary per channel.
 */
const char *txf_ms_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %8 = load_const (0x40800000)
    con 32 %9 = load_const (0x00000003)
    div 32 %10 = fmul %2.x, %8 (4.0)
    div 32 %11 = fmul %2.y, %8 (4.0)
    div 32 %12 = f2i32 %10
    div 32 %13 = f2i32 %11
    div 32 %3 = iand %12, %9 (0x3)
    div 32 %4 = iand %13, %9 (0x3)
    div 32 %5 = ixor %3, %4
    div 32x2 %6 = vec2 %3, %4
    div 32x4 %7 = (float32)txf_ms %6 (coord), %5 (ms_index), 1 (texture)
    @store_output (%7, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* A sampler above 15 (its state through the header's pointer) and
 * min_lod on both lookups.  Implicit-LOD lookups are compared only where
 * the LOD changes nothing (docs/check.md), so this checks that the
 * messages run and find their sampler states.
 */
const char *high_sampler_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2D lo (10, 1, 1)
decl_var uniform INTERP_MODE_NONE none sampler2D hi (11, 20, 20)
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %11 = load_const (0x3c800000)
    div 32 %12 = fmul %2.x, %11 (0.015625)
    div 32 %13 = fmul %2.y, %11 (0.015625)
    div 32x2 %3 = vec2 %12, %13
    con 32 %9 = load_const (0x3f000000)
    div 32 %10 = fmul %2.z, %2.w
    div 32 %4 = fadd %10, %9 (0.5)
    div 32x4 %5 = (float32)tex %3 (coord), %4 (min_lod), 20 (texture), 20 (sampler)
    div 32 %8 = fadd %2.w, %9 (0.5)
    div 32x4 %6 = (float32)tex %3 (coord), %8 (min_lod), 1 (texture), 1 (sampler)
    div 32x4 %7 = fadd %5, %6
    @store_output (%7, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* A scratch array with per-channel addresses (DWord scattered messages,
 * two SIMD16 halves at SIMD32) next to one at a constant address.
 */
const char *scratch_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
scratch: 64
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x41000000)
    con 32 %4 = load_const (0x00000003)
    con 32 %5 = load_const (0x00000010)
    div 32 %6 = fmul %2.x, %3 (8.0)
    div 32 %7 = f2u32 %6
    div 32 %8 = iand %7, %4 (0x3)
    div 32 %9 = imul %8, %5 (0x10)
    div 32x2 %10 = vec2 %2.y, %2.z
    @store_scratch (%10, %1 (0x0)) (align_mul=4, align_offset=0, wrmask=xy)
    @store_scratch (%2, %9) (align_mul=4, align_offset=0, wrmask=xyzw)
    div 32x4 %11 = @load_scratch (%9) (align_mul=4, align_offset=0)
    div 32x2 %12 = @load_scratch (%1 (0x0)) (align_mul=4, align_offset=0)
    div 32x4 %13 = vec4 %11.w, %12.x, %12.y, %11.x
    @store_output (%13, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* An SSBO compare-and-swap and a float atomic max, channels colliding on
 * four addresses (the hardware and the interpreter apply them in channel
 * order), their old values stored.  Input set 0 only: the SSBO starts at
 * zero (random contents could hold denormals, which the interpreter's
 * float controls flush and the data port's atomics may not).
 */
const char *atomics_nir = R"(shader: MESA_SHADER_COMPUTE
workgroup-size: 32, 1, 1
stage: 5
num_ssbos: 1
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32 %0 = load_const (0x00000000)
    con 32 %1 = load_const (0x00000004)
    con 32 %2 = load_const (0x00000003)
    con 32 %20 = load_const (0x00000080)
    div 32 %3 = @load_subgroup_invocation () ()
    div 32 %4 = iand %3, %2 (0x3)
    div 32 %5 = ishl %4, %1 (0x4)
    div 32 %6 = @ssbo_atomic_swap (%0 (0x0), %5, %4, %3) (access=none, atomic_op=cmpxchg)
    div 32 %7 = u2f32 %3
    div 32 %8 = iadd %5, %1 (0x4)
    div 32 %9 = @ssbo_atomic (%0 (0x0), %8, %7) (access=none, atomic_op=fmax)
    div 32 %10 = ishl %3, %1 (0x4)
    div 32 %11 = iadd %10, %20 (0x80)
    div 32x2 %12 = vec2 %6, %9
    @store_ssbo (%12, %0 (0x0), %11) (wrmask=xy, access=none, align_mul=4, align_offset=0)
    block b1:
}
)";

/* gl_SampleMask: the oMask GRF of each render-target write, compared
 * (its low 16 bits) with the interpreter's.
 */
const char *omask_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 3-4
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x41000000)
    div 32 %4 = fmul %2.x, %3 (8.0)
    div 32 %5 = f2u32 %4
    @store_output (%2, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    @store_output (%5, %1 (0x0)) (base=3, range=1, wrmask=x, component=0, src_type=int32, io location=FRAG_RESULT_SAMPLE_MASK slots=1, xfb(), xfb2())
    block b1:
}
)";

/* A computed stencil (SIMD8 only): the write runs; the simulator keeps no
 * stencil value to compare.
 */
const char *stencil_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 1,4
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x43000000)
    div 32 %4 = fmul %2.y, %3 (128.0)
    div 32 %5 = f2u32 %4
    @store_output (%2, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    @store_output (%5, %1 (0x0)) (base=1, range=1, wrmask=x, component=0, src_type=int32, io location=FRAG_RESULT_STENCIL slots=1, xfb(), xfb2())
    block b1:
}
)";

/* A texture and sampler index that differs between channels: the lookup
 * runs once per distinct index (the translator's loop); the varied input
 * sets give each texture its own texels.
 */
const char *non_uniform_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
decl_var uniform INTERP_MODE_NONE none sampler2D t[4] (10, 0, 0)
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x41000000)
    con 32 %4 = load_const (0x00000003)
    div 32 %5 = fmul %2.x, %3 (8.0)
    div 32 %6 = f2u32 %5
    div 32 %7 = iand %6, %4 (0x3)
    div 32x2 %8 = vec2 %2.y, %2.z
    div 32x4 %9 = (float32)txl %8 (coord), %1 (0x0) (lod), %7 (texture_offset), %7 (sampler_offset), 0 (texture), 0 (sampler)
    @store_output (%9, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* SSBO store, atomic and load through indices that differ between
 * channels (two buffers, alternating), each run once per distinct index.
 */
const char *non_uniform_ssbo_nir = R"(shader: MESA_SHADER_COMPUTE
workgroup-size: 32, 1, 1
stage: 5
num_ssbos: 2
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32 %0 = load_const (0x00000000)
    con 32 %1 = load_const (0x00000001)
    con 32 %2 = load_const (0x00000004)
    con 32 %3 = load_const (0x00000100)
    div 32 %4 = @load_subgroup_invocation () ()
    div 32 %5 = iand %4, %1 (0x1)
    div 32 %6 = ishl %4, %2 (0x4)
    div 32 %7 = iadd %4, %3 (0x100)
    @store_ssbo (%7, %5, %6) (wrmask=x, access=none, align_mul=4, align_offset=0)
    div 32 %8 = @ssbo_atomic (%5, %6, %4) (access=none, atomic_op=iadd)
    div 32 %9 = ixor %5, %1 (0x1)
    div 32 %10 = @load_ssbo (%9, %6) (access=none, align_mul=4, align_offset=0)
    div 32 %11 = iadd %6, %2 (0x4)
    div 32x2 %12 = vec2 %8, %10
    @store_ssbo (%12, %0 (0x0), %11) (wrmask=xy, access=none, align_mul=4, align_offset=0)
    block b1:
}
)";

/* A UBO read whose block index differs between channels (blocks 1 and
 * 2): sampler ld messages, once per distinct index.
 */
const char *non_uniform_ubo_nir = R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
num_ubos: 3
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    con 32 %3 = load_const (0x41000000)
    con 32 %4 = load_const (0x00000003)
    con 32 %9 = load_const (0x00000001)
    con 32 %10 = load_const (0x00000004)
    div 32 %5 = fmul %2.x, %3 (8.0)
    div 32 %6 = f2u32 %5
    div 32 %7 = iand %6, %4 (0x3)
    div 32 %11 = umin %7, %9 (0x1)
    div 32 %12 = iadd %11, %9 (0x1)
    div 32 %13 = ishl %7, %10 (0x4)
    div 32x4 %8 = @load_ubo (%12, %13) (access=none, align_mul=16, align_offset=0, range_base=0, range=-1)
    @store_output (%8, %1 (0x0)) (base=8, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)";

/* Compiled at SIMD8, 16 and 32 and run on sets input sets, every width
 * matches the interpreter, with at least per_channel words compared per
 * channel (at least one word when 0) and, with all_compared, none left
 * uncompared.
 */
void
expect_matches_at_every_width(const char *text, const char *name, unsigned sets,
                              unsigned per_channel, bool all_compared)
{
   auto s = nir::read_shader(text, name);
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 1, sets);
      EXPECT_EQ(r.v, check::verdict::match) << name << " SIMD" << w << ": " << r.first;
      if (per_channel) {
         EXPECT_GE(r.compared, per_channel * w) << name << " SIMD" << w;
      } else {
         EXPECT_GT(r.compared, 0u) << name << " SIMD" << w;
      }
      if (all_compared) {
         EXPECT_EQ(r.unchecked, 0u) << name << " SIMD" << w;
      }
   }
}

} /* anonymous namespace */

TEST(check_lower_forms, ddy_fine_matches_the_interpreter)
{
   /* Four components of every channel of set 0 at least. */
   expect_matches_at_every_width(fine_nir, "fine.nir", 4, 4, true);
}

TEST(check_lower_forms, txf_ms_matches_the_interpreter)
{
   expect_matches_at_every_width(txf_ms_nir, "txf_ms.nir", 4, 4, true);
}

TEST(check_lower_forms, high_sampler_and_min_lod_run)
{
   expect_matches_at_every_width(high_sampler_nir, "high_sampler.nir", 2, 0, false);
}

TEST(check_lower_forms, scratch_arrays_match_the_interpreter)
{
   expect_matches_at_every_width(scratch_nir, "scratch.nir", 4, 4, true);
}

TEST(check_lower_forms, cmpxchg_and_fmax_match_the_interpreter)
{
   expect_matches_at_every_width(atomics_nir, "atomics.nir", 1, 0, true);
}

TEST(check_lower_forms, omask_matches_the_interpreter)
{
   auto s = nir::read_shader(omask_nir, "omask.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 1, 2);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      /* Four colour components and the mask of every channel of set 0. */
      EXPECT_GE(r.compared, 5u * w);
      EXPECT_NE(r.detail.find("location 3.x"), std::string::npos) << r.detail;
   }
}

TEST(check_lower_forms, stencil_write_runs_at_simd8)
{
   auto s = nir::read_shader(stencil_nir, "stencil.nir");
   check::result r = check::check_shader(*s, 8, 1, 2);
   EXPECT_EQ(r.v, check::verdict::match) << r.first;
   EXPECT_GE(r.compared, 4u * 8u);
}

TEST(check_lower_forms, non_uniform_texture_index_matches_the_interpreter)
{
   expect_matches_at_every_width(non_uniform_nir, "non_uniform.nir", 4, 4, true);
}

TEST(check_lower_forms, non_uniform_ssbo_index_matches_the_interpreter)
{
   expect_matches_at_every_width(non_uniform_ssbo_nir, "non_uniform_ssbo.nir", 3, 0, true);
}

TEST(check_lower_forms, non_uniform_ubo_index_matches_the_interpreter)
{
   expect_matches_at_every_width(non_uniform_ubo_nir, "non_uniform_ubo.nir", 3, 4, true);
}
