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

} /* anonymous namespace */

TEST(check_lower_forms, ddy_fine_matches_the_interpreter)
{
   auto s = nir::read_shader(fine_nir, "fine.nir");
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 1, 4);
      EXPECT_EQ(r.v, check::verdict::match) << "SIMD" << w << ": " << r.first;
      /* Four components of every channel of set 0 at least. */
      EXPECT_GE(r.compared, 4u * w);
      EXPECT_EQ(r.unchecked, 0u);
   }
}
