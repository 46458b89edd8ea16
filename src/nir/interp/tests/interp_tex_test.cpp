/*
 * Texture instructions over in-memory textures: every op and source kind
 * of the corpus (tex, txb, txl, txd, txf, txs, tg4; comparator, offsets,
 * lod, bias, derivatives, texture/sampler offsets) plus the dimensions,
 * filters and wrap modes they meet.
 */
#include "interp_test_helpers.h"
#include "util/ibis_error.h"

using namespace ibis::nir;
using namespace ibis::nir::interp;
using namespace ibis::nir::interp::testing;

namespace {

/* VERT_ATTRIB_GENERIC0 */
constexpr unsigned generic0 = 15;

/*
 * A vertex shader: %1 = attribute GENERIC0 (per channel), %2 = GENERIC1,
 * %3 = coord (the first ncoord components of %1), %4 = %2.x, %6 = %2.yz
 * as integers; tex_line defines %5, stored to VAR0.
 */
std::unique_ptr<shader>
tex_vs(unsigned ncoord, const std::string &tex_line,
       const std::string &dest = "32x4", const std::string &mask = "xyzw")
{
   static const char *const vec[] = {"", "mov", "vec2", "vec3", "vec4"};
   std::string coord = std::string(vec[ncoord]);
   for (unsigned i = 0; i < ncoord; i++)
      coord += std::string(i ? "," : "") + " %1." + "xyzw"[i];
   return make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    32x4  %2 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)
    32x)" + std::to_string(ncoord) + "  %3 = " + coord + R"(
    32    %4 = mov %2.x
    32x2  %6 = vec2 %2.y, %2.z
    )" + dest + "  %5 = " + tex_line + "\n" +
                      store_output("%5", "%0", "VARYING_SLOT_VAR0", mask, "float32") + R"(
    block b1:
)");
}

/* Per-channel coordinates (GENERIC0) and parameters (GENERIC1). */
inputs
coords(std::initializer_list<std::array<float, 4>> c,
       std::initializer_list<std::array<float, 4>> p = {})
{
   inputs in;
   for (const auto &v : c)
      in.attribs[generic0].push_back({fw(v[0]), fw(v[1]), fw(v[2]), fw(v[3])});
   for (const auto &v : p)
      in.attribs[generic0 + 1].push_back({fw(v[0]), fw(v[1]), fw(v[2]), fw(v[3])});
   /* Channels past the list repeat its last entry. */
   for (auto &[loc, v] : in.attribs)
      v.resize(8, v.back());
   return in;
}

words4
fv(float r, float g = 0, float b = 0, float a = 1)
{
   return {fw(r), fw(g), fw(b), fw(a)};
}

/* 2x2: texel (x, y) = (10x + 20y, 10x + 20y + 1, 0, 1). */
texture
tex2x2()
{
   texture t;
   t.width = t.height = 2;
   for (unsigned y = 0; y < 2; y++) {
      for (unsigned x = 0; x < 2; x++)
         t.texels.push_back(fv(10.f * x + 20.f * y, 10.f * x + 20.f * y + 1));
   }
   return t;
}

/* 4x4 with three levels, each level constant: 1, 2, 4. */
texture
mipmapped()
{
   texture t;
   t.width = t.height = 4;
   t.levels = 3;
   for (unsigned i = 0; i < 16; i++)
      t.texels.push_back(fv(1));
   for (unsigned i = 0; i < 4; i++)
      t.texels.push_back(fv(2));
   t.texels.push_back(fv(4));
   return t;
}

sampler
make_sampler(filter f, wrap_mode w, mip_filter m = mip_filter::none)
{
   sampler s;
   s.filt = f;
   s.wrap.fill(w);
   s.mip = m;
   return s;
}

const char *const txl_2d = "(float32)txl %3 (coord), %4 (lod), 0 (texture), 0 (sampler)";

TEST(InterpTex, NearestClampAndRepeat)
{
   auto s = tex_vs(2, txl_2d);
   inputs in = coords({{0.25f, 0.25f}, {0.75f, 0.25f}, {0.25f, 0.75f},
                       {0.9f, 0.9f}, {1.25f, 0.25f}, {-0.25f, 0.25f}});
   in.textures[0] = tex2x2();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::clamp);
   outputs out = run(*s, in);
   const float clamp[] = {0, 10, 20, 30, 10, 0};
   for (unsigned c = 0; c < 6; c++) {
      EXPECT_EQ(out.f32(var0, 0, c), clamp[c]) << c;
      EXPECT_EQ(out.f32(var0, 1, c), clamp[c] + 1) << c;
      EXPECT_EQ(out.f32(var0, 3, c), 1.0f) << c;
   }
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat);
   out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 4), 0.0f);
   EXPECT_EQ(out.f32(var0, 0, 5), 10.0f);
}

TEST(InterpTex, LinearFiltering)
{
   auto s = tex_vs(2, txl_2d);
   inputs in = coords({{0.5f, 0.5f}, {0.5f, 0.25f}, {0.25f, 0.25f},
                       {0.75f, 0.625f}, {0.0f, 0.25f}});
   in.textures[0] = tex2x2();
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::clamp);
   outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 15.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 5.0f);
   EXPECT_EQ(out.f32(var0, 0, 2), 0.0f);
   EXPECT_EQ(out.f32(var0, 0, 3), 25.0f);
   EXPECT_EQ(out.f32(var0, 0, 4), 0.0f);
   EXPECT_EQ(out.f32(var0, 3, 3), 1.0f);
   /* Repeat blends the far edge in. */
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::repeat);
   out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 4), 5.0f);
}

TEST(InterpTex, ExplicitLodSelectsMipLevels)
{
   auto s = tex_vs(2, txl_2d);
   inputs in = coords({{0.5f, 0.5f}},
                      {{0.4f}, {0.6f}, {1.5f}, {1.6f}, {5.0f}, {-1.0f}, {0.25f}, {2.5f}});
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::clamp, mip_filter::nearest);
   outputs out = run(*s, in);
   const float nearest[] = {1, 2, 2, 4, 4, 1, 1, 4};
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(out.f32(var0, 0, c), nearest[c]) << c;

   in.samplers[0].mip = mip_filter::linear;
   out = run(*s, in);
   const float linear[] = {1.4f, 1.6f, 3, 3.2f, 4, 1, 1.25f, 4};
   for (unsigned c = 0; c < 8; c++)
      EXPECT_FLOAT_EQ(out.f32(var0, 0, c), linear[c]) << c;

   in.samplers[0].mip = mip_filter::none;
   out = run(*s, in);
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(out.f32(var0, 0, c), 1.0f) << c;
}

TEST(InterpTex, TxdGradientsGiveTheLod)
{
   /* GENERIC1 holds ddx.x, ddy.y: rho = 4 * max(|ddx|, |ddy|). */
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)
    32x2  %2 = load_const (0x3f000000, 0x3f000000)
    32x2  %3 = vec2 %1.x, %0 (0x0)
    32x2  %4 = vec2 %0 (0x0), %1.y
    32x4  %5 = (float32)txd %2 (0.500000, 0.500000) (coord), %3 (ddx), %4 (ddy), 0 (texture), 0 (sampler)
)" + store_output("%5", "%0", "VARYING_SLOT_VAR0", "x", "float32") + R"(
    block b1:
)");
   inputs in = coords({{0}}, {{0.25f, 0.25f}, {0.5f, 0.0f}, {1.0f, 0.25f}, {0.0f, 0.0625f}});
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::clamp, mip_filter::nearest);
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 1.0f);  /* rho 1, lod 0 */
   EXPECT_EQ(out.f32(var0, 0, 1), 2.0f);  /* rho 2, lod 1 */
   EXPECT_EQ(out.f32(var0, 0, 2), 4.0f);  /* rho 4, lod 2 */
   EXPECT_EQ(out.f32(var0, 0, 3), 1.0f);  /* rho 1/4: magnified */
}

/*
 * Implicit LOD in a fragment shader: coord = frag_coord.xy * scale, so
 * neighbouring pixels are scale apart, 4 * scale texels: lod log2(4 scale).
 */
std::unique_ptr<shader>
implicit_fs(const char *scale, const std::string &tex_line)
{
   return make_shader("FRAGMENT", std::string(R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x4  %1 = @load_frag_coord () ()
    32    %2 = load_const ()") + scale + R"()
    32    %3 = load_const (0x3f800000)
    32x2  %4 = vec2 %1.x, %1.y
    32x2  %5 = fmul %4, %2.xx
    32x4  %6 = )" + tex_line + "\n" +
                      store_output("%6", "%0", "FRAG_RESULT_DATA0", "x", "float32") + R"(
    block b1:
)");
}

TEST(InterpTex, ImplicitLodFromQuadDerivatives)
{
   inputs in;
   in.simd = 16;
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat, mip_filter::nearest);
   const char *tex = "(float32)tex %5 (coord), 0 (texture), 0 (sampler)";
   const std::pair<const char *, float> cases[] = {
      {"0x3e800000", 1.0f},  /* 1/4: lod 0 */
      {"0x3f000000", 2.0f},  /* 1/2: lod 1 */
      {"0x3f800000", 4.0f},  /* 1: lod 2 */
   };
   for (const auto &[scale, expect] : cases) {
      const outputs out = run(*implicit_fs(scale, tex), in);
      for (unsigned c = 0; c < 16; c++)
         EXPECT_EQ(out.f32(data0, 0, c), expect) << scale << " channel " << c;
   }
}

TEST(InterpTex, BiasAddsToTheImplicitLod)
{
   inputs in;
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat, mip_filter::nearest);
   const outputs out = run(*implicit_fs("0x3e800000",
      "(float32)txb %5 (coord), %3 (1.000000) (bias), 0 (texture), 0 (sampler)"), in);
   for (unsigned c = 0; c < 8; c++)
      EXPECT_EQ(out.f32(data0, 0, c), 2.0f) << c;
}

/* Implicit LOD outside fragment shaders is 0. */
TEST(InterpTex, ImplicitLodInVertexShaderIsZero)
{
   auto s = tex_vs(2, "(float32)tex %3 (coord), 0 (texture), 0 (sampler)");
   inputs in = coords({{0.5f, 0.5f}});
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat, mip_filter::nearest);
   EXPECT_EQ(run(*s, in).f32(var0, 0, 0), 1.0f);
}

TEST(InterpTex, ConstantOffset)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x2  %1 = load_const (0x3e800000, 0x3e800000)
    32x2  %2 = load_const (0x00000001, 0x00000001)
    32x2  %3 = load_const (0xffffffff, 0x00000001)
    32x4  %4 = (float32)txl %1 (0.250000, 0.250000) (coord), %2 (0x1, 0x1) (offset), %0 (0.000000) (lod), 0 (texture), 0 (sampler)
    32x4  %5 = (float32)txl %1 (0.250000, 0.250000) (coord), %3 (0xffffffff, 0x1) (offset), %0 (0.000000) (lod), 0 (texture), 0 (sampler)
    32x2  %6 = vec2 %4.x, %5.x
)" + store_output("%6", "%0", "VARYING_SLOT_VAR0", "xy", "float32") + R"(
    block b1:
)");
   inputs in;
   in.textures[0] = tex2x2();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat);
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 30.0f);
   /* (0, 0) + (-1, 1) wraps to (1, 1). */
   EXPECT_EQ(out.f32(var0, 1, 0), 30.0f);
}

TEST(InterpTex, ShadowComparison)
{
   auto s = tex_vs(2, "(float32)tex %3 (coord), %4 (comparator), 0 (texture), 0 (sampler)");
   inputs in = coords({{0.25f, 0.25f}, {0.25f, 0.25f}, {0.5f, 0.5f}},
                      {{0.05f}, {0.15f}, {0.25f}});
   texture t;
   t.width = t.height = 2;
   t.texels = {fv(0.1f), fv(0.2f), fv(0.3f), fv(0.4f)};
   in.textures[0] = t;
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::clamp);
   outputs out = run(*s, in);
   /* lequal: ref <= depth.  At (0.25, 0.25) linear reads texel (0,0) only. */
   EXPECT_EQ(out.f32(var0, 0, 0), 1.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 0.0f);
   EXPECT_EQ(out.f32(var0, 0, 2), 0.5f);
   EXPECT_EQ(out.f32(var0, 1, 2), 0.0f);
   EXPECT_EQ(out.f32(var0, 3, 2), 1.0f);
   in.samplers[0].compare = compare_func::greater;
   out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 1), 1.0f);
   EXPECT_EQ(out.f32(var0, 0, 2), 0.5f);
}

/* A one-component shadow lookup, as the corpus has them. */
TEST(InterpTex, ShadowScalarDest)
{
   auto s = tex_vs(2, "(float32)tex %3 (coord), %4 (comparator), 0 (texture), 0 (sampler)",
                   "32", "x");
   inputs in = coords({{0.75f, 0.75f}}, {{0.35f}});
   texture t;
   t.width = t.height = 2;
   t.texels = {fv(0.1f), fv(0.2f), fv(0.3f), fv(0.4f)};
   in.textures[0] = t;
   EXPECT_EQ(run(*s, in).f32(var0, 0, 0), 1.0f);
}

TEST(InterpTex, TexelFetch)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32x2  %2 = load_const (0x00000001, 0x00000001)
    32x2  %3 = load_const (0x00000002, 0x00000000)
    32x2  %4 = load_const (0xffffffff, 0x00000000)
    32x4  %5 = (float32)txf %2 (0x1, 0x1) (coord), %0 (0x0) (lod), 0 (texture)
    32x4  %6 = (float32)txf %3 (0x2, 0x0) (coord), %0 (0x0) (lod), 0 (texture)
    32x4  %7 = (float32)txf %2 (0x1, 0x1) (coord), %4 (0xffffffff, 0x0) (offset), %0 (0x0) (lod), 0 (texture)
    32x4  %8 = (float32)txf %2 (0x1, 0x1) (coord), %1 (0x1) (lod), 1 (texture)
    32x4  %9 = (float32)txf %3 (0x2, 0x0) (coord), %1 (0x1) (lod), 1 (texture)
    32x4  %10 = vec4 %5.x, %6.x, %7.x, %8.x
)" + store_output("%10", "%0", "VARYING_SLOT_VAR0", "xyzw", "float32") +
                                  store_output("%9", "%0", "VARYING_SLOT_VAR1", "xyzw", "float32") + R"(
    block b1:
)");
   inputs in;
   in.textures[0] = tex2x2();
   in.textures[1] = mipmapped();
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 30.0f);
   EXPECT_EQ(out.f32(var0, 1, 0), 0.0f);   /* outside: 0 */
   EXPECT_EQ(out.word(var0 + 1, 3, 0), 0u);
   EXPECT_EQ(out.f32(var0, 2, 0), 20.0f);
   EXPECT_EQ(out.f32(var0, 3, 0), 2.0f);
}

TEST(InterpTex, TextureSize)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32    %2 = load_const (0x00000002)
    32x2  %3 = (int32)txs %0 (0x0) (lod), 0 (texture)
    32x2  %4 = (int32)txs %1 (0x1) (lod), 0 (texture)
    32x2  %5 = (int32)txs %2 (0x2) (lod), 0 (texture)
    32x3  %6 = (int32)txs %0 (0x0) (lod), 1 (texture)
    32x4  %7 = vec4 %3.x, %3.y, %4.x, %5.y
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "xyzw", "int32") +
                                  store_output("%6", "%0", "VARYING_SLOT_VAR1", "xyz", "int32") + R"(
    block b1:
)");
   inputs in;
   in.textures[0] = mipmapped();
   texture arr;
   arr.width = 4;
   arr.height = 2;
   arr.depth = 3;
   arr.array = true;
   arr.texels.resize(24);
   in.textures[1] = arr;
   const outputs out = run(*s, in);
   EXPECT_EQ(out.word(var0, 0, 0), 4u);
   EXPECT_EQ(out.word(var0, 1, 0), 4u);
   EXPECT_EQ(out.word(var0, 2, 0), 2u);
   EXPECT_EQ(out.word(var0, 3, 0), 1u);
   EXPECT_EQ(out.word(var0 + 1, 0, 0), 4u);
   EXPECT_EQ(out.word(var0 + 1, 1, 0), 2u);
   EXPECT_EQ(out.word(var0 + 1, 2, 0), 3u);
}

TEST(InterpTex, GatherComponentAndOffset)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32x2  %1 = load_const (0x3f000000, 0x3f000000)
    32x2  %2 = load_const (0x00000001, 0x00000000)
    32x4  %3 = (float32)tg4 %1 (0.500000, 0.500000) (coord), 0 (gather_component), 0 (texture), 0 (sampler)
    32x4  %4 = (float32)tg4 %1 (0.500000, 0.500000) (coord), 1 (gather_component), 0 (texture), 0 (sampler)
    32x4  %5 = (float32)tg4 %1 (0.500000, 0.500000) (coord), %2 (0x1, 0x0) (offset), 0 (gather_component), 0 (texture), 0 (sampler)
)" + store_output("%3", "%0", "VARYING_SLOT_VAR0", "xyzw", "float32") +
                                  store_output("%4", "%0", "VARYING_SLOT_VAR1", "xyzw", "float32") +
                                  store_output("%5", "%0", "VARYING_SLOT_VAR2", "xyzw", "float32") + R"(
    block b1:
)");
   inputs in;
   in.textures[0] = tex2x2();
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::clamp);
   outputs out = run(*s, in);
   /* (i0,j1) (i1,j1) (i1,j0) (i0,j0) */
   const float x[] = {20, 30, 10, 0};
   for (unsigned k = 0; k < 4; k++) {
      EXPECT_EQ(out.f32(var0, k, 0), x[k]) << k;
      EXPECT_EQ(out.f32(var0 + 1, k, 0), x[k] + 1) << k;
   }
   const float clamped[] = {30, 30, 10, 10};
   for (unsigned k = 0; k < 4; k++)
      EXPECT_EQ(out.f32(var0 + 2, k, 0), clamped[k]) << k;
   in.samplers[0].wrap.fill(wrap_mode::repeat);
   out = run(*s, in);
   const float repeated[] = {30, 20, 0, 10};
   for (unsigned k = 0; k < 4; k++)
      EXPECT_EQ(out.f32(var0 + 2, k, 0), repeated[k]) << k;
}

TEST(InterpTex, ArrayLayers)
{
   auto s = tex_vs(3, "(float32)txl %3 (coord), %4 (lod), 0 (texture), 0 (sampler)");
   inputs in = coords({{0.25f, 0.25f, 1.4f}, {0.25f, 0.25f, 2.6f}, {0.75f, 0.25f, -1.0f},
                       {0.25f, 0.75f, 0.5f}});
   texture t;
   t.width = t.height = 2;
   t.depth = 3;
   t.array = true;
   for (unsigned l = 0; l < 3; l++)
      for (unsigned i = 0; i < 4; i++)
         t.texels.push_back(fv(100.f * l + i));
   in.textures[0] = t;
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 100.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 200.0f);
   EXPECT_EQ(out.f32(var0, 0, 2), 1.0f);
   /* floor(0.5 + 0.5) = 1 */
   EXPECT_EQ(out.f32(var0, 0, 3), 102.0f);
}

TEST(InterpTex, CubeFaces)
{
   auto s = tex_vs(3, "(float32)txl %3 (coord), %4 (lod), 0 (texture), 0 (sampler)");
   inputs in = coords({{1, 0.2f, 0.3f}, {-1, 0, 0}, {0.1f, 2, 0}, {0, -3, 1},
                       {0.2f, 0.1f, 5}, {0, 0, -1}, {-0.5f, -0.5f, 1}, {0.5f, 0.5f, -1}});
   texture t;
   t.dim = tex_dim::cube;
   t.width = t.height = 2;
   t.depth = 6;
   for (unsigned f = 0; f < 6; f++)
      for (unsigned i = 0; i < 4; i++)
         t.texels.push_back(fv(10.f * f + i));
   in.textures[0] = t;
   const outputs out = run(*s, in);
   /* Face centres fall on texel (1, 1) (index 3) of 2x2 faces, except
    * +X with sc = -0.3, tc = -0.2: (0.35, 0.4) -> texel (0, 0).
    */
   EXPECT_EQ(out.f32(var0, 0, 0), 0.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 13.0f);
   /* +Y: sc = 0.1, tc = 0 over 2: s = 0.525, t = 0.5 -> (1, 1) */
   EXPECT_EQ(out.f32(var0, 0, 2), 23.0f);
   /* -Y: sc = 0, tc = -1 over 3: t = 1/3 -> (1, 0) */
   EXPECT_EQ(out.f32(var0, 0, 3), 31.0f);
   /* +Z: sc = 0.2, tc = -0.1 over 5: s = 0.52, t = 0.49 -> (1, 0) */
   EXPECT_EQ(out.f32(var0, 0, 4), 41.0f);
   EXPECT_EQ(out.f32(var0, 0, 5), 53.0f);
   /* +Z: s = (-0.5 + 1) / 2 = 0.25, t = (0.5 + 1) / 2 = 0.75 -> (0, 1) */
   EXPECT_EQ(out.f32(var0, 0, 6), 42.0f);
   /* -Z: sc = -0.5, tc = -0.5: s = t = 0.25 -> (0, 0) */
   EXPECT_EQ(out.f32(var0, 0, 7), 50.0f);
}

TEST(InterpTex, ThreeDimensional)
{
   auto s = tex_vs(3, "(float32)txl %3 (coord), %4 (lod), 0 (texture), 0 (sampler)");
   inputs in = coords({{0.75f, 0.25f, 0.75f}, {0.5f, 0.5f, 0.5f}});
   texture t;
   t.dim = tex_dim::d3;
   t.width = t.height = t.depth = 2;
   for (unsigned i = 0; i < 8; i++)
      t.texels.push_back(fv(float(i)));
   in.textures[0] = t;
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::clamp);
   outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 5.0f);
   in.samplers[0].filt = filter::linear;
   out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 1), 3.5f);
}

TEST(InterpTex, RectangleUsesTexelCoordinates)
{
   auto s = tex_vs(2, "(float32)tex %3 (coord), 0 (texture), 0 (sampler)");
   inputs in = coords({{2.5f, 1.5f}, {3.0f, 0.5f}});
   texture t;
   t.dim = tex_dim::rect;
   t.width = 4;
   t.height = 2;
   for (unsigned y = 0; y < 2; y++)
      for (unsigned x = 0; x < 4; x++)
         t.texels.push_back(fv(x + 10.f * y));
   in.textures[0] = t;
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::clamp);
   const outputs out = run(*s, in);
   EXPECT_EQ(out.f32(var0, 0, 0), 12.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 2.5f);
}

TEST(InterpTex, IntegerTexturesAreNotFiltered)
{
   auto s = tex_vs(2, "(uint32)txl %3 (coord), %4 (lod), 0 (texture), 0 (sampler)");
   inputs in = coords({{0.5f, 0.5f}});
   texture t;
   t.format = tex_format::rgba32ui;
   t.width = t.height = 2;
   t.texels = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
   in.textures[0] = t;
   in.samplers[0] = make_sampler(filter::linear, wrap_mode::clamp);
   const outputs out = run(*s, in);
   /* Nearest at (1.0, 1.0): texel (1, 1). */
   EXPECT_EQ(out.word(var0, 0, 0), 13u);
   EXPECT_EQ(out.word(var0, 3, 0), 16u);
}

/* texture_offset / sampler_offset pick the texture and sampler per channel. */
TEST(InterpTex, IndirectTextureAndSampler)
{
   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = load_const (0x00000001)
    32x2  %2 = load_const (0x3f000000, 0x3f000000)
    32    %3 = @load_vertex_id () ()
    32    %4 = iand %3, %1 (0x1)
    32    %5 = ushr %3, %1 (0x1)
    32    %6 = iand %5, %1 (0x1)
    32x4  %7 = (float32)tex %4 (texture_offset), %6 (sampler_offset), %2 (0.500000, 0.500000) (coord), 0 (texture), 0 (sampler)
)" + store_output("%7", "%0", "VARYING_SLOT_VAR0", "x", "float32") + R"(
    block b1:
)");
   inputs in;
   in.textures[0] = tex2x2();
   in.textures[1] = tex2x2();
   for (words4 &t : in.textures[1].texels)
      t[0] = fw(wf(t[0]) + 100);
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::clamp);
   in.samplers[1] = make_sampler(filter::linear, wrap_mode::clamp);
   const outputs out = run(*s, in);
   /* Channel c: texture c & 1, sampler (c >> 1) & 1. */
   EXPECT_EQ(out.f32(var0, 0, 0), 30.0f);
   EXPECT_EQ(out.f32(var0, 0, 1), 130.0f);
   EXPECT_EQ(out.f32(var0, 0, 2), 15.0f);
   EXPECT_EQ(out.f32(var0, 0, 3), 115.0f);
}

TEST(InterpTex, MissingTextureIsAnError)
{
   auto s = tex_vs(2, txl_2d);
   EXPECT_THROW(run(*s, coords({{0, 0}})), ibis::error);
}

TEST(InterpTex, CoordinateCountMustMatchTheTexture)
{
   auto s = tex_vs(3, txl_2d);
   inputs in = coords({{0, 0}});
   in.textures[0] = tex2x2();
   EXPECT_THROW(run(*s, in), ibis::error);
}

} /* anonymous namespace */

namespace {

/* textureQueryLod and textureQueryLevels. */
TEST(InterpTex, LodAndLevelQueries)
{
   inputs in;
   in.textures[0] = mipmapped();
   in.samplers[0] = make_sampler(filter::nearest, wrap_mode::repeat, mip_filter::nearest);
   /* Scale 1/2: lod 1; scale 4: lod 4, clamped to the last level 2. */
   const char *query = "(float32)lod %5 (coord), 0 (texture), 0 (sampler)";
   outputs out = run(*implicit_fs("0x3f000000", query), in);
   EXPECT_EQ(out.f32(data0, 0, 5), 1.0f);
   out = run(*implicit_fs("0x40800000", query), in);
   EXPECT_EQ(out.f32(data0, 0, 5), 2.0f);

   auto s = make_shader("VERTEX", R"(
    block b0:
    32    %0 = load_const (0x00000000)
    32    %1 = (int32)query_levels 0 (texture)
)" + store_output("%1", "%0", "VARYING_SLOT_VAR0", "x", "int32") + R"(
    block b1:
)");
   EXPECT_EQ(run(*s, in).word(var0, 0, 0), 3u);
}

} /* anonymous namespace */
