/*
 * Storage images: image_load, image_store, image_atomic(_swap) and
 * image_size on 1D, 2D, 2D array, 3D and buffer images of every format,
 * out-of-bounds accesses (as Gen's typed messages: loads 0, stores
 * dropped), helpers, bad accesses, and the inputs text form.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

image
make_image(image_dim dim, image_format f, unsigned w, unsigned h = 1, unsigned d = 1,
           bool array = false)
{
   image im;
   im.dim = dim;
   im.format = f;
   im.width = w;
   im.height = h;
   im.depth = d;
   im.array = array;
   im.words.resize(im.texel_count() * im.components());
   for (size_t i = 0; i < im.words.size(); i++)
      im.words[i] = uint32_t(100 + i);
   return im;
}

/* Channel c loads texel (c - 1, 1) of a 4x2 r32ui image: channel 0 reads
 * x = -1 and channels 5-7 x >= 4, outside the image (all zeros); inside,
 * the missing components read 0, 0, 1.
 */
TEST(InterpImage, Load2DWithOutOfBounds)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = @load_local_invocation_index () ()
    32    %3 = isub %2, %1 (0x1)
    32x4  %4 = vec4 %3, %1 (0x1), %0 (0x0), %0 (0x0)
    32x4  %5 = @image_load (%1 (0x1), %4, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)
    32    %6 = load_const (0x00000010)
    32    %9 = imul %2, %6 (0x10)
    @store_ssbo (%5, %0 (0x0), %9) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   inputs in;
   in.images[1] = make_image(image_dim::d2, image_format::r32ui, 4, 2);
   in.ssbos[0] = std::vector<uint8_t>(8 * 16, 0xee);
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      const bool inside = c >= 1 && c <= 4;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c), inside ? 100u + 4 + (c - 1) : 0u) << c;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c + 1), 0u) << c;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c + 2), 0u) << c;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c + 3), inside ? 1u : 0u) << c;
   }
   /* Loads leave the image as it was. */
   EXPECT_EQ(out.images.at(1).words, in.images.at(1).words);
}

/* A float image's missing alpha is 1.0; rgba images give all four words. */
TEST(InterpImage, LoadFloatAndRgbaFormats)
{
   auto v = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = @load_vertex_id_zero_base () ()
    32x4  %3 = vec4 %2, %0 (0x0), %0 (0x0), %0 (0x0)
    32x4  %4 = @image_load (%0 (0x0), %3, %0 (0x0), %0 (0x0)) (image_dim=1D, image_array=false, format=none, access=none, range_base=0, dest_type=float32)
    32x4  %5 = @image_load (%1 (0x1), %3, %0 (0x0), %0 (0x0)) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)
)" + store_output("%4", "%0", "VARYING_SLOT_VAR0", "xyzw", "float32") +
                            store_output("%5", "%0", "VARYING_SLOT_VAR1", "xyzw") + R"(
    block b1:
)");
   inputs in;
   in.images[0] = make_image(image_dim::d1, image_format::r32f, 8);
   for (unsigned t = 0; t < 8; t++)
      in.images[0].words[t] = fw(0.5f * float(t));
   in.images[1] = make_image(image_dim::buf, image_format::rgba32ui, 5);
   const outputs out = run(*v, in);
   const unsigned var0 = 32, var1 = 33;
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(out.f32(var0, 0, c), 0.5f * float(c));
      EXPECT_EQ(out.word(var0, 1, c), 0u);
      EXPECT_EQ(out.word(var0, 2, c), 0u);
      EXPECT_EQ(out.f32(var0, 3, c), 1.0f);
      for (unsigned k = 0; k < 4; k++)
         EXPECT_EQ(out.word(var1, k, c), c < 5 ? 100u + 4 * c + k : 0u) << c << k;
   }
}

/* Stores: each channel its own texel of a 3x2 2D image (channels 6, 7
 * fall outside and are dropped); an rgba32i buffer takes four words, an
 * r32 image only the first component of a vec4.
 */
TEST(InterpImage, StoresDropOutOfBoundsTexels)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000003)
    32    %3 = @load_local_invocation_index () ()
    32    %4 = umod %3, %2 (0x3)
    32    %5 = udiv %3, %2 (0x3)
    32x4  %6 = vec4 %4, %5, %0 (0x0), %0 (0x0)
    32    %7 = iadd %3, %2 (0x3)
    32x4  %8 = vec4 %7, %3, %1 (0x1), %2 (0x3)
    @image_store (%0 (0x0), %6, %0 (0x0), %8, %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, src_type=uint32)
    32x4  %9 = vec4 %3, %0 (0x0), %0 (0x0), %0 (0x0)
    @image_store (%1 (0x1), %9, %0 (0x0), %8, %0 (0x0)) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0, src_type=int32)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   inputs in;
   in.images[0] = make_image(image_dim::d2, image_format::r32ui, 3, 2);
   in.images[1] = make_image(image_dim::buf, image_format::rgba32i, 4);
   const outputs out = run(*s, in);
   const image &a = out.images.at(0), &b = out.images.at(1);
   for (unsigned t = 0; t < 6; t++)
      EXPECT_EQ(a.words[t], t + 3u);
   for (unsigned t = 0; t < 4; t++) {
      EXPECT_EQ(b.words[4 * t + 0], t + 3u);
      EXPECT_EQ(b.words[4 * t + 1], t);
      EXPECT_EQ(b.words[4 * t + 2], 1u);
      EXPECT_EQ(b.words[4 * t + 3], 3u);
   }
}

/* Helper invocations load but never store. */
TEST(InterpImage, HelpersDoNotStore)
{
   auto s = make_shader("FRAGMENT", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000007)
    32    %2 = @load_subgroup_invocation () ()
    32x4  %3 = vec4 %2, %0 (0x0), %0 (0x0), %0 (0x0)
    32x4  %4 = vec4 %1 (0x7), %1 (0x7), %1 (0x7), %1 (0x7)
    @image_store (%0 (0x0), %3, %0 (0x0), %4, %0 (0x0)) (image_dim=1D, image_array=false, format=none, access=none, range_base=0, src_type=uint32)
    32    %5 = @image_atomic (%0 (0x0), %3, %0 (0x0), %1 (0x7)) (image_dim=1D, image_array=false, format=none, access=none, range_base=0, atomic_op=iadd)
)" + store_output("%5", "%0", "FRAG_RESULT_DATA0") + R"(
    block b1:
)");
   inputs in;
   in.helpers = 0x30;
   in.images[0] = make_image(image_dim::d1, image_format::r32i, 8);
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++) {
      const bool helper = c == 4 || c == 5;
      EXPECT_EQ(out.images.at(0).words[c], helper ? 100u + c : 14u) << c;
      /* The atomic returns what was there: the store's 7 or the input. */
      EXPECT_EQ(out.word(4, 0, c), helper ? 100u + c : 7u) << c;
   }
}

/* Atomics run channel by channel, lowest first: all eight add to texel
 * (1, 1) of a 2D array layer 1 and see the running sums; umax, cmpxchg
 * (atomic_swap) per texel; outside the image they return 0 and write
 * nothing.
 */
TEST(InterpImage, AtomicsInChannelOrder)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000002)
    32    %3 = @load_local_invocation_index () ()
    32x4  %4 = vec4 %1 (0x1), %1 (0x1), %1 (0x1), %0 (0x0)
    32    %5 = @image_atomic (%2 (0x2), %4, %0 (0x0), %3) (image_dim=2D, image_array=true, format=none, access=none, range_base=0, atomic_op=iadd)
    32x4  %6 = vec4 %3, %0 (0x0), %0 (0x0), %0 (0x0)
    32    %7 = iadd %3, %1 (0x1)
    32    %8 = @image_atomic_swap (%0 (0x0), %6, %0 (0x0), %7, %3) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0, atomic_op=cmpxchg)
    32    %9 = @image_atomic (%0 (0x0), %6, %0 (0x0), %2 (0x2)) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0, atomic_op=umax)
    32    %10 = ishl %3, %2 (0x2)
    32x3  %11 = vec3 %5, %8, %9
    32    %12 = load_const (0x00000010)
    32    %13 = imul %3, %12 (0x10)
    @store_ssbo (%11, %0 (0x0), %13) (wrmask=xyz, access=none, align_mul=16, align_offset=0)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   inputs in;
   in.images[2] = make_image(image_dim::d2, image_format::r32ui, 2, 2, 2, true);
   in.images[2].words.assign(8, 0);
   in.images[2].words[7] = 1000;   /* layer 1, (1, 1) */
   image buf = make_image(image_dim::buf, image_format::r32ui, 6);
   for (unsigned t = 0; t < 6; t++)
      buf.words[t] = t % 2 ? t + 1 : 50;   /* odd texels hold c + 1: swapped */
   in.images[0] = buf;
   in.ssbos[0] = std::vector<uint8_t>(8 * 16, 0);
   const outputs out = run(*s, in);
   unsigned sum = 1000;
   for (unsigned c = 0; c < 8; c++) {
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c), sum) << c;
      sum += c;
      const bool inside = c < 6;
      const uint32_t before = inside ? buf.words[c] : 0;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c + 1), before) << c;
      const uint32_t swapped = inside && before == c + 1 ? c : before;
      EXPECT_EQ(word_at(out.ssbos.at(0), 4 * c + 2), swapped) << c;
      if (inside)
         EXPECT_EQ(out.images.at(0).words[c], std::max(swapped, 2u)) << c;
   }
   EXPECT_EQ(out.images.at(2).words[7], sum);
   EXPECT_EQ(out.images.at(0).words.size(), 6u);
}

/* image_size: the sizes of the dimension (layers for arrays), 0 beyond. */
TEST(InterpImage, Size)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000002)
    32x3  %3 = @image_size (%0 (0x0), %0 (0x0)) (image_dim=2D, image_array=true, format=none, access=none, range_base=0)
    32    %4 = @image_size (%1 (0x1), %0 (0x0)) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0)
    32x3  %5 = @image_size (%2 (0x2), %0 (0x0)) (image_dim=3D, image_array=false, format=none, access=none, range_base=0)
    32x2  %6 = @image_size (%2 (0x2), %0 (0x0)) (image_dim=3D, image_array=false, format=none, access=none, range_base=0)
    32x4  %7 = vec4 %3.x, %3.y, %3.z, %4
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw") +
                            store_output("%5", "%0", "VARYING_SLOT_VAR1", "xyz") + R"(
    block b1:
)");
   inputs in;
   in.images[0] = make_image(image_dim::d2, image_format::r32f, 5, 3, 4, true);
   in.images[1] = make_image(image_dim::buf, image_format::r32ui, 17);
   in.images[2] = make_image(image_dim::d3, image_format::rgba32f, 2, 3, 4);
   const outputs out = run(*s, in);
   EXPECT_EQ(out.word(32, 0, 0), 5u);
   EXPECT_EQ(out.word(32, 1, 0), 3u);
   EXPECT_EQ(out.word(32, 2, 0), 4u);
   EXPECT_EQ(out.word(32, 3, 0), 17u);
   EXPECT_EQ(out.word(33, 0, 3), 2u);
   EXPECT_EQ(out.word(33, 1, 3), 3u);
   EXPECT_EQ(out.word(33, 2, 3), 4u);
}

/* A missing image, another dimension, a level other than 0 and an atomic
 * on a four-component format are errors, not silent values.
 */
TEST(InterpImage, BadAccessesAreErrors)
{
   auto shader_for = [](const std::string &access) {
      return make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32x4  %2 = vec4 %0 (0x0), %0 (0x0), %0 (0x0), %0 (0x0)
    )" + access + R"(
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   };
   inputs in;
   in.images[0] = make_image(image_dim::d2, image_format::r32ui, 2, 2);
   in.images[1] = make_image(image_dim::d2, image_format::rgba32ui, 2, 2);
   auto ok = shader_for("32x4 %3 = @image_load (%0 (0x0), %2, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)");
   EXPECT_NO_THROW(run(*ok, in));
   auto missing = shader_for("32x4 %3 = @image_load (%1 (0x1), %2, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)");
   in.images.erase(1);
   EXPECT_THROW(run(*missing, in), ibis::error);
   in.images[1] = make_image(image_dim::d2, image_format::rgba32ui, 2, 2);
   auto dim = shader_for("32x4 %3 = @image_load (%0 (0x0), %2, %0 (0x0), %0 (0x0)) (image_dim=3D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)");
   EXPECT_THROW(run(*dim, in), ibis::error);
   auto lod = shader_for("32x4 %3 = @image_load (%0 (0x0), %2, %0 (0x0), %1 (0x1)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)");
   EXPECT_THROW(run(*lod, in), ibis::error);
   auto wide = shader_for("32 %3 = @image_atomic (%1 (0x1), %2, %0 (0x0), %1 (0x1)) (image_dim=2D, image_array=false, format=none, access=none, range_base=0, atomic_op=iadd)");
   EXPECT_THROW(run(*wide, in), ibis::error);
   /* A description whose words do not fill it. */
   in.images[1].words.pop_back();
   EXPECT_THROW(run(*ok, in), ibis::error);
}

/* The text form: an image line reads back to the same image, words
 * continue on indented lines, and bad descriptions name the problem.
 */
TEST(InterpImage, TextForm)
{
   inputs in = parse_inputs(R"(
image 3 2x2 2d r32f: 1.0 2.0
   3.0 0x40800000
image 4 3 buf rgba32i: 1 2 3 4  5 6 7 8  -1 -2 -3 -4
image 5 1x1x2 2d array r32ui: 7 8
image 6 1x2x1 3d r32i: 9 10
)");
   ASSERT_EQ(in.images.size(), 4u);
   const image &a = in.images.at(3);
   EXPECT_EQ(a.dim, image_dim::d2);
   EXPECT_EQ(a.format, image_format::r32f);
   EXPECT_EQ(a.words, (std::vector<uint32_t>{fw(1), fw(2), fw(3), fw(4)}));
   EXPECT_EQ(in.images.at(4).words[8], 0xffffffffu);
   EXPECT_TRUE(in.images.at(5).array);
   EXPECT_EQ(in.images.at(5).depth, 2u);
   EXPECT_EQ(in.images.at(6).dim, image_dim::d3);
   const inputs back = parse_inputs(print_inputs(in));
   for (const auto &[i, im] : in.images) {
      const image &b = back.images.at(i);
      EXPECT_EQ(b.dim, im.dim);
      EXPECT_EQ(b.array, im.array);
      EXPECT_EQ(b.format, im.format);
      EXPECT_EQ(b.width, im.width);
      EXPECT_EQ(b.height, im.height);
      EXPECT_EQ(b.depth, im.depth);
      EXPECT_EQ(b.words, im.words);
   }
   EXPECT_EQ(print_inputs(back), print_inputs(in));
   EXPECT_THROW(parse_inputs("image 0 2x2 2d r32ui: 1 2 3\n"), ibis::error);
   EXPECT_THROW(parse_inputs("image 0 2 2d r32ui: 1 2\n"), ibis::error);
   EXPECT_THROW(parse_inputs("image 0 2x2 r32ui: 1 2 3 4\n"), ibis::error);
   EXPECT_THROW(parse_inputs("image 0 2x2 2d: 1 2 3 4\n"), ibis::error);
   EXPECT_THROW(parse_inputs("image 0 2x2 1d array r32ui: 1 2 3 4\n"), ibis::error);
}

/* default_inputs gives every constant-index image a filled image of the
 * access' dimension and, from the value type, its format.
 */
TEST(InterpImage, DefaultInputs)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000003)
    32x4  %2 = vec4 %0 (0x0), %0 (0x0), %0 (0x0), %0 (0x0)
    32    %3 = @image_atomic (%1 (0x3), %2, %0 (0x0), %1 (0x3)) (image_dim=Buf, image_array=false, format=none, access=none, range_base=0, atomic_op=imax)
    32x4  %4 = @image_load (%0 (0x0), %2, %0 (0x0), %0 (0x0)) (image_dim=2D, image_array=true, format=none, access=none, range_base=0, dest_type=float32)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   const inputs in = default_inputs(*s, 8);
   ASSERT_EQ(in.images.size(), 2u);
   EXPECT_EQ(in.images.at(3).dim, image_dim::buf);
   EXPECT_EQ(in.images.at(3).format, image_format::r32ui);
   EXPECT_EQ(in.images.at(3).words[2], 9u);
   EXPECT_EQ(in.images.at(0).dim, image_dim::d2);
   EXPECT_TRUE(in.images.at(0).array);
   EXPECT_EQ(in.images.at(0).format, image_format::r32f);
   EXPECT_EQ(in.images.at(0).words[1], fw(1.25f));
   EXPECT_NO_THROW(run(*s, in));
}

/* An index chosen per channel between constants (b32csel) gets an image
 * for each choice; each channel reads its own.
 */
TEST(InterpImage, DefaultInputsForANonUniformIndex)
{
   auto s = make_shader("COMPUTE", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000006)
    32    %3 = @load_local_invocation_index () ()
    32    %4 = iand %3, %1 (0x1)
    32    %5 = ieq32 %4, %0 (0x0)
    32    %6 = b32csel %5, %1 (0x1), %2 (0x6)
    32x4  %7 = vec4 %3, %0 (0x0), %0 (0x0), %0 (0x0)
    32    %8 = @image_load (%6, %7, %0 (0x0), %0 (0x0)) (image_dim=1D, image_array=false, format=none, access=none, range_base=0, dest_type=uint32)
    32    %9 = load_const (0x00000004)
    32    %10 = imul %3, %9 (0x4)
    @store_ssbo (%8, %0 (0x0), %10) (wrmask=x, access=none, align_mul=4, align_offset=0)
    block b1:
)", "workgroup-size: 8, 1, 1\n");
   inputs in = default_inputs(*s, 8);
   ASSERT_EQ(in.images.count(1), 1u);
   ASSERT_EQ(in.images.count(6), 1u);
   for (unsigned t = 0; t < 64; t++)
      in.images.at(6).words[t] = 1000 + t;
   in.ssbos[0] = std::vector<uint8_t>(32, 0);
   const outputs out = run(*s, in);
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(word_at(out.ssbos.at(0), c), c % 2 ? 1000u + c : 4 * c + 1) << c;
}

} /* namespace */
