/*
 * Images through the whole differential check: compiled by ibis, run on
 * the simulator's typed messages and compared word by word with the NIR
 * interpreter's images, at SIMD8, 16 and 32 (the typed messages split
 * into SIMD8 slot groups), on input sets of varied sizes and contents.
 */
#include <gtest/gtest.h>

#include "check/check.h"
#include "util/ibis_error.h"

using namespace ibis;

namespace {

/* Each invocation c of a 32-wide workgroup: loads and rewrites its texel
 * (c % 8, c / 8) of 2D image 0, adds c to and takes the umax/imin of its
 * texel of buffer image 1, swaps its texel of 1D image 3 (-c where it held
 * c), stores a vec4 to its texel (c % 4, c / 4 % 2, layer c / 8) of 2D
 * array image 2, and stores the sizes of images 0 and 2 and the atomics'
 * results to SSBO 0.
 */
const char *image_cs = R"(shader: MESA_SHADER_COMPUTE
workgroup-size: 32, 1, 1
stage: 5
num_ssbos: 1
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32 %0 = load_const (0x00000000)
    con 32 %1 = load_const (0x00000001)
    con 32 %2 = load_const (0x00000002)
    con 32 %3 = load_const (0x00000003)
    con 32 %4 = load_const (0x00000008)
    con 32 %5 = load_const (0x00000004)
    con 32 %6 = load_const (0x00000010)
    div 32 %7 = @load_local_invocation_index () ()
    div 32 %8 = umod %7, %4 (0x8)
    div 32 %9 = udiv %7, %4 (0x8)
    div 32x4 %10 = vec4 %8, %9, %0 (0x0), %0 (0x0)
    div 32x4 %11 = @image_load (%0 (0x0), %10, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=r32_uint, access=none, range_base=0, dest_type=uint32)
    div 32 %12 = imul %11.x, %3 (0x3)
    div 32 %13 = iadd %12, %7
    div 32x4 %14 = vec4 %13, %13, %13, %13
    @image_store (%0 (0x0), %10, %0 (0x0), %14, %0 (0x0)) (image_dim=2D, image_array=false, format=r32_uint, access=none, range_base=0, src_type=uint32)
    div 32x4 %15 = vec4 %7, %0 (0x0), %0 (0x0), %0 (0x0)
    div 32 %16 = @image_atomic (%1 (0x1), %15, %0 (0x0), %7) (image_dim=Buf, image_array=false, format=r32_uint, access=none, range_base=0, atomic_op=iadd)
    div 32 %17 = @image_atomic (%1 (0x1), %15, %0 (0x0), %4 (0x8)) (image_dim=Buf, image_array=false, format=r32_uint, access=none, range_base=0, atomic_op=umax)
    div 32 %18 = ineg %7
    div 32 %19 = @image_atomic (%1 (0x1), %15, %0 (0x0), %18) (image_dim=Buf, image_array=false, format=r32_uint, access=none, range_base=0, atomic_op=imin)
    div 32 %20 = @image_atomic_swap (%3 (0x3), %15, %0 (0x0), %7, %18) (image_dim=1D, image_array=false, format=r32_sint, access=none, range_base=0, atomic_op=cmpxchg)
    div 32 %21 = umod %7, %5 (0x4)
    div 32 %22 = udiv %7, %5 (0x4)
    div 32 %23 = iand %22, %1 (0x1)
    div 32x4 %24 = vec4 %21, %23, %9, %0 (0x0)
    div 32 %25 = u2f32 %7
    div 32 %26 = u2f32 %16
    div 32x4 %27 = vec4 %25, %26, %25, %26
    @image_store (%2 (0x2), %24, %0 (0x0), %27, %0 (0x0)) (image_dim=2D, image_array=true, format=r32g32b32a32_float, access=none, range_base=0, src_type=float32)
    con 32x2 %28 = @image_size (%0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=r32_uint, access=none, range_base=0)
    con 32x3 %29 = @image_size (%2 (0x2), %0 (0x0)) (image_dim=2D, image_array=true, format=r32g32b32a32_float, access=none, range_base=0)
    div 32x4 %30 = vec4 %16, %17, %19, %20
    div 32 %31 = imul %7, %6 (0x10)
    @store_ssbo (%30, %0 (0x0), %31) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    div 32x4 %32 = vec4 %28.x, %28.y, %29.x, %29.z
    div 32 %33 = iadd %31, %4 (0x8)
    con 32 %34 = load_const (0x00000200)
    div 32 %35 = iadd %31, %34 (0x200)
    @store_ssbo (%32, %0 (0x0), %35) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    block b1:
}
)";

/* A fragment shader stores its interpolated x to its texel of a 2D r32f
 * image (x = channel), only where it is not a helper invocation, and
 * writes what the image held there before.
 */
const char *image_fs = R"(shader: MESA_SHADER_FRAGMENT
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
    div 32 %3 = @load_subgroup_invocation () ()
    con 32 %4 = load_const (0x00000008)
    div 32 %5 = umod %3, %4 (0x8)
    div 32 %6 = udiv %3, %4 (0x8)
    div 32x4 %7 = vec4 %5, %6, %1 (0x0), %1 (0x0)
    div 32x4 %8 = @image_load (%1 (0x0), %7, %1 (0x0), %1 (0x0)) (image_dim=2D, image_array=false, format=r32_float, access=none, range_base=0, dest_type=float32)
    div 32 %9 = @is_helper_invocation () ()
    div 32 %10 = inot %9
    // succs: b1 b2
    if %10 {
        block b1:
        div 32x4 %11 = vec4 %2.x, %2.x, %2.x, %2.x
        @image_store (%1 (0x0), %7, %1 (0x0), %11, %1 (0x0)) (image_dim=2D, image_array=false, format=r32_float, access=none, range_base=0, src_type=float32)
        // succs: b3
    } else {
        block b2:
        // succs: b3
    }
    block b3:
    @store_output (%8, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b4:
}
)";

/* Loads whose image index differs between channels (image 1 or 6 of a
 * different size): the access runs once per distinct index.
 */
const char *non_uniform_image_cs = R"(shader: MESA_SHADER_COMPUTE
workgroup-size: 32, 1, 1
stage: 5
num_ssbos: 1
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32 %0 = load_const (0x00000000)
    con 32 %1 = load_const (0x00000001)
    con 32 %2 = load_const (0x00000006)
    con 32 %3 = load_const (0x00000003)
    con 32 %4 = load_const (0x00000004)
    div 32 %5 = @load_local_invocation_index () ()
    div 32 %6 = umod %5, %3 (0x3)
    div 32 %7 = ieq32 %6, %0 (0x0)
    div 32 %8 = b32csel %7, %1 (0x1), %2 (0x6)
    div 32x4 %9 = vec4 %5, %6, %0 (0x0), %0 (0x0)
    div 32x4 %10 = @image_load (%8, %9, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=r32_uint, access=none, range_base=0, dest_type=uint32)
    div 32 %11 = imul %5, %4 (0x4)
    div 32 %12 = mov %10.x
    @store_ssbo (%12, %0 (0x0), %11) (wrmask=x, access=none, align_mul=4, align_offset=0)
    block b1:
}
)";

void
expect_matches(const char *text, const char *name, unsigned min_words)
{
   auto s = nir::read_shader(text, name);
   for (unsigned w : {8u, 16u, 32u}) {
      check::result r = check::check_shader(*s, w, 7, 6);
      EXPECT_EQ(r.v, check::verdict::match) << name << " SIMD" << w << ": " << r.first;
      EXPECT_GE(r.compared, min_words) << name << " SIMD" << w;
      EXPECT_EQ(r.unchecked, 0u) << name << " SIMD" << w;
   }
}

} /* anonymous namespace */

TEST(check_images, compute_loads_stores_atomics_and_sizes_match)
{
   /* Set 0's images alone: 64 + 64 + 64 + 2 * 8 * 8 * 4 words. */
   expect_matches(image_cs, "image_cs.nir", 700);
}

TEST(check_images, fragment_stores_match)
{
   expect_matches(image_fs, "image_fs.nir", 64);
}

TEST(check_images, non_uniform_image_index_matches)
{
   expect_matches(non_uniform_image_cs, "non_uniform_image.nir", 32);
}

/* What a load reads back from an image is as exact as what was stored
 * there: an approximate frsq stored and loaded is approximate (random fs
 * seed 331: compared exactly, it was 1 ULP off), and the image too; an
 * image only read stays exact.
 */
TEST(check_images, loads_carry_the_stored_taint)
{
   auto s = nir::read_shader(R"(shader: MESA_SHADER_FRAGMENT
stage: 4
inputs_read: 32
outputs_written: 4
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
    con 32 %1 = load_const (0x00000000)
    con 32 %2 = load_const (0x00000001)
    div 32x4 %3 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    div 32 %4 = frsq %3.x
    div 32x4 %5 = vec4 %4, %4, %4, %4
    div 32 %6 = @load_subgroup_invocation () ()
    div 32x4 %7 = vec4 %6, %1 (0x0), %1 (0x0), %1 (0x0)
    @image_store (%1 (0x0), %7, %1 (0x0), %5, %1 (0x0)) (image_dim=1D, image_array=false, format=r32_float, access=none, range_base=0, src_type=float32)
    div 32 %8 = @image_load (%1 (0x0), %7, %1 (0x0), %1 (0x0)) (image_dim=1D, image_array=false, format=r32_float, access=none, range_base=0, dest_type=float32)
    div 32 %9 = @image_load (%2 (0x1), %7, %1 (0x0), %1 (0x0)) (image_dim=1D, image_array=false, format=r32_float, access=none, range_base=0, dest_type=float32)
    div 32x4 %10 = vec4 %8, %9, %3.y, %3.z
    @store_output (%10, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
    block b1:
}
)", "taint.nir");
   auto c = check::classify_outputs(*s);
   EXPECT_EQ(c.at("rt0.x"), check::exactness::approximate);
   EXPECT_EQ(c.at("rt0.y"), check::exactness::exact);
   EXPECT_EQ(c.at("image 0"), check::exactness::approximate);
}

/* The input sets vary the images' sizes (some smaller than the accesses
 * reach) and contents; set 0 is the interpreter's default.
 */
TEST(check_images, input_sets_vary_images)
{
   auto s = nir::read_shader(image_cs, "image_cs.nir");
   auto d = check::make_inputs(*s, 8, 7, 0);
   ASSERT_EQ(d.images.size(), 4u);
   EXPECT_EQ(d.images.at(0).width, 8u);
   EXPECT_EQ(d.images.at(2).format, nir::interp::image_format::rgba32f);
   EXPECT_EQ(d.images.at(3).format, nir::interp::image_format::r32i);
   bool other_size = false, other_words = false;
   for (unsigned i = 1; i < 6; i++) {
      auto in = check::make_inputs(*s, 8, 7, i);
      for (const auto &[k, im] : in.images) {
         const auto &im0 = d.images.at(k);
         other_size |= im.width != im0.width || im.height != im0.height;
         other_words |= im.words != im0.words;
         EXPECT_EQ(im.words.size(), im.texel_count() * im.components());
      }
   }
   EXPECT_TRUE(other_size);
   EXPECT_TRUE(other_words);
}

/* A binary that stores another value is caught in the image words. */
TEST(check_images, a_wrong_store_is_a_mismatch)
{
   auto s = nir::read_shader(image_cs, "image_cs.nir");
   std::string wrong = image_cs;
   wrong.replace(wrong.find("%13 = iadd %12, %7"), 18, "%13 = iadd %12, %1");
   auto t = nir::read_shader(wrong, "wrong.nir");
   compile_options co = check::check_compile_options(compile_options());
   compiled_variant v = compile_variant(*t, 8, co);
   ASSERT_TRUE(v.compiled) << v.reason;
   check::result r = check::check_binary(*s, 8, v.binary, check::make_inputs(*s, 8, 7, 0), co);
   EXPECT_EQ(r.v, check::verdict::mismatch);
   EXPECT_EQ(r.first.compare(0, 14, "image 0 dword "), 0) << r.first;
}
