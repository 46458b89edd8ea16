/*
 * The differential check without the compiler: output classification,
 * input sets, and check_binary() on a hand-assembled vertex shader whose
 * payload layout is from_nir's.
 */
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "check/check.h"
#include "isa/isa.h"
#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;
using check::exactness;

namespace {

std::string
fs_shader(const std::string &body)
{
   return "shader: MESA_SHADER_FRAGMENT\nstage: 4\ninputs_read: 1\n"
          "divergence_analysis_run: true\nuniforms: 0\n"
          "decl_function main (0 params)\n\nimpl main {\n    block b0:\n" + body +
          "\n    block b1:\n}\n";
}

const char *varying =
   "    div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)\n"
   "    con 32 %1 = load_const (0x00000000)\n"
   "    div 32x4 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";

const char *store =
   "    @store_output (%9, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, "
   "src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n";

} /* anonymous namespace */

/* fsin's result is approximate through fadd, unchecked once converted to an
 * integer; plain arithmetic stays exact; a branch on an approximation makes
 * what it selects unchecked.
 */
TEST(check_classify, approximations_taint_what_they_reach)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
      "    div 32 %3 = fsin %2.x\n"
      "    div 32 %4 = fadd %3, %2.y\n"
      "    div 32 %5 = f2i32 %3\n"
      "    div 32 %6 = fmul %2.z, %2.w\n"
      "    div 32 %7 = flt32 %3, %2.y\n"
      "    div 32 %8 = b32csel %7, %2.x, %2.y\n"
      "    div 32x4 %9 = vec4 %4, %5, %6, %8\n" + store), "classify.nir");
   auto c = check::classify_outputs(*s);
   EXPECT_EQ(c.at("rt0.x"), exactness::approximate);
   EXPECT_EQ(c.at("rt0.y"), exactness::unchecked);
   EXPECT_EQ(c.at("rt0.z"), exactness::exact);
   EXPECT_EQ(c.at("rt0.w"), exactness::unchecked);
}

/* A kill chosen by an approximation (here the bits of frag_coord.w, which
 * Gen computes with math inv: random fs seed 1323) decides which channels
 * reach the render target at all: none of its outputs is compared.  A
 * comparison of it is a monotone step: compared where the perturbed runs
 * agree.
 */
TEST(check_classify, approximate_kill_is_unchecked)
{
   const std::string body = std::string(varying) +
      "    div 32x4 %3 = @load_frag_coord () ()\n"
      "    con 32 %4 = load_const (0x00000003)\n"
      "    div 32 %5 = iand %3.w, %4 (0x3)\n"
      "    div 32 %6 = ieq32 %5, %1 (0x0)\n"
      "    div 32 %7 = ieq32 %2.x, %1 (0x0)\n"
      "    div 32 %8 = flt32 %3.w, %2.x\n"
      "    @demote_if (%KILL) ()\n"
      "    div 32x4 %9 = vec4 %2.x, %2.y, %2.z, %2.w\n" + store;
   auto with = [&](const char *kill) {
      std::string b = body;
      b.replace(b.find("KILL"), 4, kill);
      return nir::read_shader(fs_shader(b), "kill.nir");
   };
   auto c = check::classify_outputs(*with("6"));
   EXPECT_EQ(c.at("kill"), exactness::opaque);
   EXPECT_EQ(c.at("rt0.x"), exactness::opaque);
   EXPECT_EQ(c.at("rt0.w"), exactness::opaque);
   c = check::classify_outputs(*with("8"));
   EXPECT_EQ(c.at("kill"), exactness::unchecked);
   EXPECT_EQ(c.at("rt0.x"), exactness::unchecked);
   EXPECT_EQ(c.at("rt0.w"), exactness::unchecked);
   /* An exact condition keeps everything compared. */
   c = check::classify_outputs(*with("7"));
   EXPECT_EQ(c.count("kill"), 0u);
   EXPECT_EQ(c.at("rt0.x"), exactness::exact);
}

/* An implicit-LOD lookup is compared only where the perturbed runs
 * agree (its LOD is approximate too), never in divergent control flow
 * (its derivatives read inactive channels); a texel fetch is exact.
 */
TEST(check_classify, filtered_texturing)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
      "    div 32x4 %3 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n"
      "    div 32 %4 = f2i32 %2.x\n"
      "    div 32x2 %5 = vec2 %4, %4\n"
      "    div 32x4 %6 = (float32)txf %5 (coord), %1 (0x0) (lod), 0 (texture)\n"
      "    div 32x4 %9 = vec4 %3.x, %6.y, %3.z, %6.w\n" + store), "tex.nir");
   auto c = check::classify_outputs(*s);
   EXPECT_EQ(c.at("rt0.x"), exactness::unchecked);
   EXPECT_EQ(c.at("rt0.y"), exactness::exact);
   EXPECT_EQ(c.at("rt0.z"), exactness::unchecked);
   EXPECT_EQ(c.at("rt0.w"), exactness::exact);
   /* Without mip filtering the LOD picks nothing: filtered, compared. */
   c = check::classify_outputs(*s, true);
   EXPECT_EQ(c.at("rt0.x"), exactness::approximate);
   EXPECT_EQ(c.at("rt0.y"), exactness::exact);
   EXPECT_EQ(c.at("rt0.z"), exactness::approximate);
   auto d = nir::read_shader(fs_shader(std::string(varying) +
      "    div 32 %3 = flt32 %2.x, %2.y\n"
      "    if %3 {\n"
      "        block b1:\n"
      "        div 32x4 %4 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n"
      "        div 32x4 %9 = vec4 %4.x, %4.y, %4.z, %4.w\n" + store +
      "    } else {\n"
      "        block b2:\n"
      "    }\n"
      "    block b3:\n"), "divergent-tex.nir");
   EXPECT_EQ(check::classify_outputs(*d).at("rt0.x"), exactness::opaque);
   EXPECT_EQ(check::classify_outputs(*d, true).at("rt0.x"), exactness::approximate);
}

/* Odd input sets turn mip filtering off, so their lookups are compared. */
TEST(check_inputs, odd_sets_are_lod_free)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
      "    div 32x4 %9 = (float32)tex %2 (coord), 0 (texture), 0 (sampler)\n" +
      store), "tex.nir");
   EXPECT_FALSE(check::lod_free_inputs(check::make_inputs(*s, 8, 7, 0)));
   EXPECT_TRUE(check::lod_free_inputs(check::make_inputs(*s, 8, 7, 1)));
   EXPECT_FALSE(check::lod_free_inputs(check::make_inputs(*s, 8, 7, 2)));
}

/* Set 0 is the interpreter's default; the others are a function of the
 * seed, differ from each other, and turn whole FS quads off on odd sets.
 */
TEST(check_inputs, sets_from_a_seed)
{
   nir::random_options ro;
   ro.seed = 5;
   ro.stage = nir::shader_stage::fragment;
   auto s = nir::generate(ro);
   auto def = nir::interp::default_inputs(*s, 16);
   auto in0 = check::make_inputs(*s, 16, 99, 0);
   EXPECT_EQ(nir::interp::print_inputs(in0), nir::interp::print_inputs(def));
   auto a = check::make_inputs(*s, 16, 99, 1), b = check::make_inputs(*s, 16, 99, 1);
   EXPECT_EQ(nir::interp::print_inputs(a), nir::interp::print_inputs(b));
   auto c = check::make_inputs(*s, 16, 100, 1);
   EXPECT_NE(nir::interp::print_inputs(a), nir::interp::print_inputs(c));
   bool some_off = false;
   for (unsigned i = 1; i < 40; i += 2) {
      uint32_t m = check::make_inputs(*s, 16, i, i).channel_mask();
      EXPECT_NE(m, 0u);
      for (unsigned q = 0; q < 4; q++) {
         uint32_t quad = (m >> (4 * q)) & 0xf;
         EXPECT_TRUE(quad == 0 || quad == 0xf) << std::hex << m;
         some_off |= quad == 0;
      }
   }
   EXPECT_TRUE(some_off);
}

/* A UBO word the shader shifts right by 16 holds packed bit fields: odd
 * sets fill it with random bits (Dolphin's ubershaders read their alpha
 * test there, which the small integers of set 0 make discard everything);
 * a word read as a plain integer stays small.
 */
TEST(check_inputs, ubo_bit_fields_vary_on_odd_sets)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
      "    con 32 %3 = @load_ubo (%1 (0x0), %1 (0x0)) (access=none, align_mul=4, "
      "align_offset=0, range_base=0, range=4)\n"
      "    con 32 %4 = load_const (0x00000010)\n"
      "    con 32 %5 = ushr %3, %4 (0x10)\n"
      "    con 32 %6 = load_const (0x00000004)\n"
      "    con 32 %7 = @load_ubo (%1 (0x0), %6 (0x4)) (access=none, align_mul=4, "
      "align_offset=4, range_base=4, range=4)\n"
      "    con 32 %8 = iadd %5, %7\n"
      "    div 32x4 %9 = vec4 %8, %8, %8, %8\n" + store), "fields.nir");
   auto word = [](const nir::interp::inputs &in, unsigned off) {
      uint32_t w;
      memcpy(&w, &in.ubos.at(0)[off], 4);
      return w;
   };
   std::set<uint32_t> fields;
   for (unsigned set = 0; set < 8; set++) {
      auto in = check::make_inputs(*s, 8, 3, set);
      EXPECT_LT(word(in, 4), 256u) << set;
      if (set % 2)
         fields.insert(word(in, 0) >> 16);
      else
         EXPECT_LT(word(in, 0), 256u) << set;
   }
   EXPECT_GE(fields.size(), 3u);
}

/* Of the bit fields drawn for an odd set, a fragment shader gets the ones
 * that leave the most pixels alive (here: bit 16 set, else discard).
 */
TEST(check_inputs, bit_fields_keep_pixels_alive)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
      "    con 32 %3 = @load_ubo (%1 (0x0), %1 (0x0)) (access=none, align_mul=4, "
      "align_offset=0, range_base=0, range=4)\n"
      "    con 32 %4 = load_const (0x00000010)\n"
      "    con 32 %5 = ushr %3, %4 (0x10)\n"
      "    con 32 %6 = load_const (0x00000001)\n"
      "    con 32 %7 = iand %5, %6 (0x1)\n"
      "    con 32 %8 = ieq32 %7, %1 (0x0)\n"
      "    @discard_if (%8) ()\n"
      "    div 32x4 %9 = vec4 %2.x, %2.y, %2.z, %2.w\n" + store), "alpha.nir");
   for (uint64_t seed = 1; seed <= 16; seed++) {
      auto in = check::make_inputs(*s, 8, seed, 1);
      uint32_t w;
      memcpy(&w, &in.ubos.at(0)[0], 4);
      EXPECT_EQ((w >> 16) & 1, 1u) << seed;
   }
}

namespace {

const char *vs_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

/* from_nir's VS layout without push constants: URB handles in g1, the
 * attribute's four components in g2..g5; VUE slot 1 is the position.
 * SWAP exchanges y and z.
 */
std::vector<uint8_t>
vs_binary(bool swap)
{
   std::string text = ibis::strfmt(
      "mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
      "mov(8) g11<1>F g2<8,8,1>F { align1 1Q };\n"
      "mov(8) g12<1>F g%u<8,8,1>F { align1 1Q };\n"
      "mov(8) g13<1>F g%u<8,8,1>F { align1 1Q };\n"
      "mov(8) g14<1>F g5<8,8,1>F { align1 1Q };\n"
      "send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };\n",
      swap ? 4 : 3, swap ? 3 : 4);
   return isa::assemble(text, isa::gen::gen9, false, "vs.asm");
}

} /* anonymous namespace */

TEST(check_binary, vertex_shader_matches_and_mismatches)
{
   auto s = nir::read_shader(vs_nir, "vs.nir");
   for (unsigned set = 0; set < 4; set++) {
      auto in = check::make_inputs(*s, 8, 7, set);
      auto good = check::check_binary(*s, 8, vs_binary(false), in, compile_options());
      EXPECT_EQ(good.v, check::verdict::match) << good.first;
      EXPECT_EQ(good.compared, 4 * unsigned(__builtin_popcount(in.channel_mask())));
      auto bad = check::check_binary(*s, 8, vs_binary(true), in, compile_options());
      EXPECT_EQ(bad.v, check::verdict::mismatch);
      EXPECT_EQ(bad.first.rfind("location 0.y channel 0: expected ", 0), 0u) << bad.first;
   }
}

/* Gen9 dispatches a pixel shader's subspans packed from channel 0
 * (brw_stage_has_packed_dispatch), and brw reads values it knows uniform
 * from channel 0: input sets with quad 0 off made brw's SIMD8 programs of
 * dolphin's ubershaders 138, 147 and 156 read a stale channel 0 (an
 * OWord block read's offset).
 */
TEST(check_inputs, fs_dispatch_is_packed)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
                                       "    div 32x4 %9 = fadd %2, %2\n" + store), "packed.nir");
   for (unsigned simd : {8u, 16u, 32u}) {
      bool partial = false;
      for (unsigned set = 0; set < 24; set++) {
         const uint32_t m = check::make_inputs(*s, simd, 3, set).channel_mask();
         EXPECT_NE(m, 0u);
         EXPECT_EQ(m & (m + 1), 0u) << "SIMD" << simd << " set " << set;
         EXPECT_EQ(__builtin_popcount(m) % 4, 0);
         partial |= __builtin_popcount(m) < int(simd);
      }
      EXPECT_TRUE(partial) << "SIMD" << simd << ": no set leaves quads out";
   }
}

namespace {

/* vs_nir under a brw-abi file that pushes one register of UBO 0, so the
 * attribute lands in g3..g6 (iris's layout, not ibis's for this NIR).
 */
const char *vs_brw_abi = R"({
  "stage": "vs", "nr_params": 0, "curb_read_length": 1,
  "ubo_ranges": [
    {"block": 0, "start": 0, "length": 1, "ubo_index": 0},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1},
    {"block": 0, "start": 0, "length": 0, "ubo_index": -1}
  ],
  "total_scratch": 0, "const_data_size": 0, "num_relocs": 0,
  "dispatch_grf_start_reg": 2,
  "vue_map": {"num_slots": 2, "slot_to_varying": [12, 0]},
  "inputs_read": "0x0000000000008000", "nr_attribute_slots": 1,
  "uses_vertexid": false, "uses_instanceid": false, "uses_is_indexed_draw": false,
  "uses_firstvertex": false, "uses_baseinstance": false, "uses_drawid": false
}
)";

/* As brw-asm/ stores a program: stats header, block lines, descriptions. */
std::string
vs_brw_asm(unsigned attr)
{
   return ibis::strfmt(
      "SIMD8 shader: 6 instructions. 0 loops. 20 cycles. 0:0 spills:fills, 1 sends, "
      "scheduled with mode top-down. Promoted 0 constants. Compacted 96 to 96 bytes (0%%)\n"
      "   START B0 (20 cycles)\n"
      "mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
      "mov(8) g11<1>F g%u<8,8,1>F { align1 1Q };\n"
      "mov(8) g12<1>F g%u<8,8,1>F { align1 1Q };\n"
      "mov(8) g13<1>F g%u<8,8,1>F { align1 1Q };\n"
      "mov(8) g14<1>F g%u<8,8,1>F { align1 1Q };\n"
      "send(8)         null<1>F        g10<8,8,1>F     0x0a080017\n"
      "                            urb MsgDesc: offset 1 SIMD8 write  mlen 5 rlen 0 "
      "{ align1 1Q EOT };\n"
      "   END B0\n", attr, attr + 1, attr + 2, attr + 3);
}

} /* anonymous namespace */

TEST(check_brw, program_runs_under_its_abi)
{
   auto s = nir::read_shader(vs_nir, "vs.nir");
   const brw_abi a = parse_brw_abi(vs_brw_abi, "vs.json");
   const check::program_abi p = check::brw_program_abi(*s, 8, a);
   EXPECT_EQ(p.layout.push_reg, 2u);
   ASSERT_EQ(p.layout.ubo_pushes.size(), 1u);
   EXPECT_EQ(p.layout.ubo_pushes[0].reg, 2u);
   EXPECT_EQ(p.layout.attr_reg, 3u);
   EXPECT_EQ(p.layout.attr_slots, std::vector<int>({15}));
   EXPECT_EQ(p.layout.ubo_bti_base, 0u);

   auto good = check::assemble_brw_asm(vs_brw_asm(3), "vs.simd8.asm");
   auto r = check::check_brw_binary(*s, 8, good, a, 1, 4);
   EXPECT_EQ(r.v, check::verdict::match) << r.first;
   EXPECT_GT(r.compared, 0u);
   /* The same program where ibis's layout (no push) would put it. */
   auto off = check::assemble_brw_asm(vs_brw_asm(2), "vs.simd8.asm");
   EXPECT_EQ(check::check_brw_binary(*s, 8, off, a, 1, 4).v, check::verdict::mismatch);
   /* An ABI of the wrong stage or width does not run. */
   EXPECT_EQ(check::check_brw_binary(*s, 16, good, a, 1, 1).v, check::verdict::unsupported);
}

/* An ABI the mapping cannot reproduce is refused, with its reason. */
TEST(check_brw, payload_must_end_at_the_dispatch_start)
{
   auto s = nir::read_shader(fs_shader(std::string(varying) +
                                       "    div 32x4 %9 = fadd %2, %2\n" + store), "fs.nir");
   brw_abi a;
   a.stage = "fs";
   a.dispatch_grf_start[0] = 4;       /* g0, g1, 2 of barycentrics */
   a.barycentric_interp_modes = 1;
   a.urb_setup_attribs = {32};
   a.dispatch[0] = true;
   EXPECT_EQ(check::brw_program_abi(*s, 8, a).layout.bary_reg[0][0], 2);
   EXPECT_EQ(check::brw_program_abi(*s, 8, a).layout.attr_reg, 4u);
   /* SIMD32 without a start (a .do32 program): where brw's payload ends. */
   EXPECT_EQ(check::brw_program_abi(*s, 32, a).layout.push_reg, 3u + 8u);
   a.uses_src_depth = true;
   EXPECT_THROW(check::brw_program_abi(*s, 8, a), error);
   a.uses_src_depth = false;
   a.nr_params = 4;
   EXPECT_THROW(check::brw_program_abi(*s, 8, a), error);
}

/* A binary the simulator cannot run is a run error, not a crash. */
TEST(check_binary, simulator_errors_are_reported)
{
   auto s = nir::read_shader(vs_nir, "vs.nir");
   std::vector<uint8_t> junk(16, 0xff);
   auto r = check::check_binary(*s, 8, junk, check::make_inputs(*s, 8, 1, 0), compile_options());
   EXPECT_EQ(r.v, check::verdict::run_error);
   EXPECT_FALSE(r.first.empty());
}

namespace {

/* Signed zeros: fmin/fmax of +0.0 and -0.0 in both operand orders and an
 * fneg of +0.0, as the position.
 */
const char *zeros_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    con 32    %1 = load_const (0x80000000)
    div 32x4  %2 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32    %3 = fmul %2.x, %0 (0.0)
    div 32    %4 = fmin %0 (0.0), %1 (-0.0)
    div 32    %5 = fmax %1 (-0.0), %0 (0.0)
    div 32    %6 = fneg %0 (0.0)
    div 32    %7 = fmax %3, %1 (-0.0)
    div 32x4  %8 = vec4 %4, %5, %6, %7
    @store_output (%8, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

enum class zero_bug { none, min_as_max, lost_fneg };

/* The position (-0.0, +0.0, -0.0, max(x * 0, -0.0), which is -0.0 for
 * x < 0 only) with sel.l and sel.ge on registers, or with one of two
 * sign-of-zero bugs.
 */
std::vector<uint8_t>
zeros_binary(zero_bug bug)
{
   std::string text = ibis::strfmt(
      "mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
      "mov(8) g20<1>UD 0x00000000UD { align1 1Q };\n"
      "mov(8) g21<1>UD 0x80000000UD { align1 1Q };\n"
      "mul(8) g22<1>F g2<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
      "%s(8) g11<1>F g20<8,8,1>F g21<8,8,1>F { align1 1Q };\n"
      "sel.ge(8) g12<1>F g21<8,8,1>F g20<8,8,1>F { align1 1Q };\n"
      "mov(8) g13<1>F %sg20<8,8,1>F { align1 1Q };\n"
      "sel.ge(8) g14<1>F g22<8,8,1>F g21<8,8,1>F { align1 1Q };\n"
      "send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };\n",
      bug == zero_bug::min_as_max ? "sel.ge" : "sel.l",
      bug == zero_bug::lost_fneg ? "" : "-");
   return isa::assemble(text, isa::gen::gen9, false, "vs.asm");
}

} /* anonymous namespace */

/* The sign of a zero is compared bit for bit, from fmin/fmax too: the
 * oracle pair orders -0.0 below +0.0 as Gen's sel does, so there is no
 * tolerance for it, and a wrong zero from a min or an fneg is caught.
 */
TEST(check_binary, signed_zeros_are_exact)
{
   auto s = nir::read_shader(zeros_nir, "zeros.nir");
   for (unsigned set = 0; set < 4; set++) {
      auto in = check::make_inputs(*s, 8, 5, set);
      auto good = check::check_binary(*s, 8, zeros_binary(zero_bug::none), in,
                                      compile_options());
      EXPECT_EQ(good.v, check::verdict::match) << good.first;
      EXPECT_EQ(good.compared, 4 * unsigned(__builtin_popcount(in.channel_mask())));
      auto min = check::check_binary(*s, 8, zeros_binary(zero_bug::min_as_max), in,
                                     compile_options());
      EXPECT_EQ(min.v, check::verdict::mismatch);
      EXPECT_EQ(min.first, "location 0.x channel 0: expected 80000000, got 00000000");
      auto neg = check::check_binary(*s, 8, zeros_binary(zero_bug::lost_fneg), in,
                                     compile_options());
      EXPECT_EQ(neg.v, check::verdict::mismatch);
      EXPECT_EQ(neg.first, "location 0.z channel 0: expected 80000000, got 00000000");
   }
}

namespace {

/* The bits of fmax(d, d) for a denormal d, or-ed into 1.0's: the shader
 * leaves the denormal mode open, so the interpreter flushes d (1.0) where
 * a raw move keeps it (1.0 + 5 ULP).  An integer operation made the word,
 * so the float outputs' zero-or-denormal tolerance cannot apply.
 */
const char *denormal_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    con 32    %1 = load_const (0x00000005)
    con 32    %2 = load_const (0x3f800000)
    div 32x4  %3 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32    %4 = fmax %1 (0x5), %1 (0x5)
    div 32    %5 = ior %4, %2 (0x3f800000)
    div 32x4  %6 = vec4 %5, %3.y, %3.z, %3.w
    @store_output (%6, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

/* x = d | 1.0 from a raw move of d, or a word neither run gives. */
std::vector<uint8_t>
denormal_binary(uint32_t low)
{
   std::string text = ibis::strfmt(
      "mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
      "mov(8) g20<1>UD 0x%08xUD { align1 1Q };\n"
      "or(8) g11<1>UD g20<8,8,1>UD 0x3f800000UD { align1 1Q };\n"
      "mov(8) g12<1>F g3<8,8,1>F { align1 1Q };\n"
      "mov(8) g13<1>F g4<8,8,1>F { align1 1Q };\n"
      "mov(8) g14<1>F g5<8,8,1>F { align1 1Q };\n"
      "send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };\n",
      low);
   return isa::assemble(text, isa::gen::gen9, false, "vs.asm");
}

} /* anonymous namespace */

/* A word that matches only the interpreter run keeping denormals is a
 * match (counted as such); one that matches neither run is not.
 */
TEST(check_binary, denormals_kept_by_a_move_match)
{
   auto s = nir::read_shader(denormal_nir, "vs.nir");
   auto in = check::make_inputs(*s, 8, 5, 0);
   const unsigned live = unsigned(__builtin_popcount(in.channel_mask()));
   auto kept = check::check_binary(*s, 8, denormal_binary(5), in, compile_options());
   EXPECT_EQ(kept.v, check::verdict::match) << kept.first;
   EXPECT_EQ(kept.kept_denormals, live);
   auto wrong = check::check_binary(*s, 8, denormal_binary(7), in, compile_options());
   EXPECT_EQ(wrong.v, check::verdict::mismatch);
   EXPECT_EQ(wrong.first, "location 0.x channel 0: expected 3f800000, got 3f800007") << wrong.first;
   EXPECT_EQ(wrong.kept_denormals, 0u);
}

namespace {

/* Two square roots converted to integers (level 2, "unchecked" to the
 * static classification): f2i(sqrt(2)) is 1 however sqrt rounds, while
 * f2i(sqrt(4)) is 2 or 1 depending on which side of 2.0 Gen's sqrt lands.
 */
const char *sqrt_nir = R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32    %2 = fsqrt %1.x
    div 32    %3 = f2i32 %2
    div 32    %4 = fsqrt %1.y
    div 32    %5 = f2i32 %4
    div 32x4  %6 = vec4 %3, %5, %1.z, %1.w
    @store_output (%6, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=int32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)";

/* The position (int(sqrt(x)), int(sqrt(y)), z, w), or with the two
 * roots exchanged.
 */
std::vector<uint8_t>
sqrt_binary(bool swap)
{
   std::string text = ibis::strfmt(
      "mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
      "math sqrt(8) g20<1>F g2<8,8,1>F null<8,8,1>F { align1 1Q };\n"
      "math sqrt(8) g21<1>F g3<8,8,1>F null<8,8,1>F { align1 1Q };\n"
      "mov(8) g%u<1>D g20<8,8,1>F { align1 1Q };\n"
      "mov(8) g%u<1>D g21<8,8,1>F { align1 1Q };\n"
      "mov(8) g13<1>F g4<8,8,1>F { align1 1Q };\n"
      "mov(8) g14<1>F g5<8,8,1>F { align1 1Q };\n"
      "send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };\n",
      swap ? 12 : 11, swap ? 11 : 12);
   return isa::assemble(text, isa::gen::gen9, false, "vs.asm");
}

} /* anonymous namespace */

/* Outputs the static classification leaves uncompared are compared bit
 * for bit where every perturbed interpreter run agrees (int(sqrt(2))),
 * so a wrong value there is caught; one that moves under the
 * perturbation (int(sqrt(4))) stays not compared.
 */
TEST(check_binary, stable_outputs_are_compared)
{
   auto s = nir::read_shader(sqrt_nir, "sqrt.nir");
   auto c = check::classify_outputs(*s);
   EXPECT_EQ(c.at("location 0.x"), exactness::unchecked);
   EXPECT_EQ(c.at("location 0.y"), exactness::unchecked);
   auto in = check::make_inputs(*s, 8, 1, 0);
   in.attribs[15] = {{0x40000000u, 0x40800000u, 0x3f800000u, 0x3f800000u}};   /* 2, 4, 1, 1 */
   auto good = check::check_binary(*s, 8, sqrt_binary(false), in, compile_options());
   EXPECT_EQ(good.v, check::verdict::match) << good.first;
   EXPECT_EQ(good.compared, 3u * 8);
   EXPECT_EQ(good.stable, 8u);
   EXPECT_EQ(good.unchecked, 8u);
   auto bad = check::check_binary(*s, 8, sqrt_binary(true), in, compile_options());
   EXPECT_EQ(bad.v, check::verdict::mismatch);
   EXPECT_EQ(bad.first, "location 0.x channel 0: expected 00000001, got 00000002 "
                        "(stable under perturbation)");
   /* y (1 where 2 is expected) is not compared. */
   EXPECT_EQ(bad.mismatches, 8u);
   EXPECT_EQ(bad.unchecked, 8u);
}

/* The interpreter's perturbation moves approximate results (fsqrt here)
 * by the bound, or by one ULP with a bound of 0, and leaves exact ones.
 */
TEST(check_binary, interpreter_perturbation)
{
   auto s = nir::read_shader(R"(shader: MESA_SHADER_VERTEX
stage: 0
inputs_read: 15
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    con 32    %0 = load_const (0x00000000)
    div 32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
    div 32    %2 = fsqrt %1.x
    div 32    %3 = fadd %1.y, %1.y
    div 32x4  %4 = vec4 %2, %3, %1.z, %1.w
    @store_output (%4, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
    block b1:
}
)", "perturb.nir");
   auto in = check::make_inputs(*s, 8, 1, 0);
   in.attribs[15] = {{0x40800000u, 0x3f800000u, 0, 0}};   /* 4, 1 */
   auto run = [&](nir::interp::perturb_mode m, double rel) {
      nir::interp::inputs pin = in;
      pin.perturb.mode = m;
      pin.perturb.rel = rel;
      auto o = nir::interp::run(*s, pin);
      return std::make_pair(o.f32(0, 0, 3), o.f32(0, 1, 3));
   };
   using nir::interp::perturb_mode;
   EXPECT_EQ(run(perturb_mode::none, 0x1p-20), std::make_pair(2.0f, 2.0f));
   EXPECT_EQ(run(perturb_mode::up, 0x1p-20), std::make_pair(2.0f + 0x1p-19f, 2.0f));
   EXPECT_EQ(run(perturb_mode::down, 0x1p-20), std::make_pair(2.0f - 0x1p-19f, 2.0f));
   EXPECT_EQ(run(perturb_mode::up, 0), std::make_pair(2.0f + 0x1p-22f, 2.0f));
   EXPECT_EQ(run(perturb_mode::down, 0), std::make_pair(2.0f - 0x1p-23f, 2.0f));
}

namespace {

/* Workgroup 16: invocation i stores i + 15 at shared dword i, passes the
 * barrier and copies dword 15 - i to dword 16 + i.  At SIMD8 the two
 * threads exchange their words through SLM.
 */
const char *exchange_nir = R"(shader: MESA_SHADER_COMPUTE
workgroup-size: 16, 1, 1
shared-size: 128
inputs: 0
outputs: 0
uniforms: 0
decl_function main (0 params)

impl main {
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
}
)";

/* The shader by hand at SIMD8, as ibis lays out its payload (the
 * subgroup id in g1.0).  barrier: with the gateway message and its wait;
 * skip: thread 1 jumps over them (a deadlock).
 */
std::vector<uint8_t>
exchange_binary(bool barrier, bool skip)
{
   std::string sync =
      "mov(8)   g8<1>UD    0x00000000UD                 { align1 WE_all 1Q };\n"
      "and(1)   g8.2<1>UD  g0.2<0,1,0>UD 0x0f000000UD   { align1 WE_all 1N };\n"
      "send(8)  null<1>UD  g8<8,8,1>UD   0x02000004  gateway { align1 WE_all 1Q };\n"
      "wait(1)  n0<1>UD                                 { align1 WE_all 1N };\n";
   if (skip)
      sync = "cmp.z.f0.0(8)  null<1>UD  g1<0,1,0>UD  0x00000000UD { align1 1Q };\n"
             "(+f0.0) if(8)  JIP: 80    UIP: 80                   { align1 1Q };\n" +
             sync + "endif(8)       JIP: 16                              { align1 1Q };\n";
   std::string text =
      "mov(8)   g2<1>UW    0x76543210V                  { align1 WE_all 1Q };\n"
      "mov(8)   g3<1>UD    g2<8,8,1>UW                  { align1 1Q };\n"
      "mul(1)   g4<1>UD    g1<0,1,0>UD   0x00000008UD   { align1 WE_all 1N };\n"
      "add(8)   g3<1>UD    g3<8,8,1>UD   g4<0,1,0>UD    { align1 1Q };\n"
      "shl(8)   g5<1>UD    g3<8,8,1>UD   0x00000002UD   { align1 1Q };\n"
      "add(8)   g6<1>UD    g3<8,8,1>UD   0x0000000fUD   { align1 1Q };\n"
      "send(8)  null<1>UD  g5<8,8,1>UD   0x04026efe  dp data 1 { align1 1Q };\n" +
      (barrier ? sync : std::string()) +
      "add(8)   g9<1>D     -g3<8,8,1>D   15D            { align1 1Q };\n"
      "shl(8)   g9<1>UD    g9<8,8,1>UD   0x00000002UD   { align1 1Q };\n"
      "send(8)  g12<1>UD   g9<8,8,1>UD   0x02106efe  dp data 1 { align1 1Q };\n"
      "add(8)   g11<1>UD   g5<8,8,1>UD   0x00000040UD   { align1 1Q };\n"
      "send(8)  null<1>UD  g11<8,8,1>UD  0x04026efe  dp data 1 { align1 1Q };\n"
      "mov(8)   g127<1>UD  g0<8,8,1>UD                  { align1 WE_all 1Q };\n"
      "send(8)  null<1>UD  g127<8,8,1>UD 0x02000010  thread_spawner { align1 WE_all 1Q EOT };\n";
   return isa::assemble(text, isa::gen::gen9, false, "cs.asm");
}

} /* anonymous namespace */

/* The whole workgroup runs on both sides: the exchange matches with the
 * barrier, and without it thread 0 reads words thread 1 has not stored
 * (shared memory is compared); a thread skipping the barrier is a
 * diagnosed deadlock.
 */
TEST(check_binary, workgroup_exchanges_through_shared_memory)
{
   auto s = nir::read_shader(exchange_nir, "cs.nir");
   for (unsigned set = 0; set < 2; set++) {
      auto in = check::make_inputs(*s, 8, 3, set);
      EXPECT_TRUE(in.whole_workgroup);
      auto good = check::check_binary(*s, 8, exchange_binary(true, false), in, compile_options());
      EXPECT_EQ(good.v, check::verdict::match) << good.first;
      EXPECT_EQ(good.compared, 32u);
      auto racy = check::check_binary(*s, 8, exchange_binary(false, false), in, compile_options());
      EXPECT_EQ(racy.v, check::verdict::mismatch);
      EXPECT_EQ(racy.first, "shared dword 16: expected 0000001e, got 00000000") << racy.first;
      auto stuck = check::check_binary(*s, 8, exchange_binary(true, true), in, compile_options());
      EXPECT_EQ(stuck.v, check::verdict::run_error);
      EXPECT_NE(stuck.first.find("workgroup deadlock"), std::string::npos) << stuck.first;
   }
}

namespace {

/* vs_binary(false) with two more instructions whose results nothing
 * reads: an add and a reciprocal, at SIMD8.
 */
std::vector<uint8_t>
vs_binary_padded()
{
   return isa::assemble("mov(8) g10<1>UD g1<8,8,1>UD { align1 1Q };\n"
                        "add(8) g20<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };\n"
                        "mov(8) g11<1>F g2<8,8,1>F { align1 1Q };\n"
                        "mov(8) g12<1>F g3<8,8,1>F { align1 1Q };\n"
                        "math inv(8) g21<1>F g2<8,8,1>F null<8,8,1>F { align1 1Q };\n"
                        "mov(8) g13<1>F g4<8,8,1>F { align1 1Q };\n"
                        "mov(8) g14<1>F g5<8,8,1>F { align1 1Q };\n"
                        "send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };\n",
                        isa::gen::gen9, false, "vs-padded.asm");
}

} /* anonymous namespace */

/* The latency table's figures for what the programs execute (brw's Gen9
 * ones, ir/ibis_perf.cpp): a SIMD8 float move or add issues in 2 cycles
 * and its result is ready 8 later, a SIMD8 reciprocal 2 and 16, a URB
 * write 2 and 200.
 */
TEST(check_dynamic, cycles_from_the_latency_table)
{
   auto cost = [](const char *line) {
      auto d = isa::decode_program(isa::assemble(line, isa::gen::gen9, false, "t.asm").data(),
                                   16, isa::gen::gen9);
      return perf_of(check::hw_instr_of(d.at(0).in)).latency;
   };
   EXPECT_EQ(cost("mov(8) g11<1>F g2<8,8,1>F { align1 1Q };"), 10u);
   EXPECT_EQ(cost("add(8) g20<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };"), 10u);
   /* SIMD16: two registers, 4 cycles to issue. */
   EXPECT_EQ(cost("add(16) g20<1>F g2<8,8,1>F g4<8,8,1>F { align1 1H };"), 12u);
   EXPECT_EQ(cost("math inv(8) g21<1>F g2<8,8,1>F null<8,8,1>F { align1 1Q };"), 18u);
   EXPECT_EQ(cost("send(8) null<1>F g10<8,8,1>F 0x0a080017 urb { align1 1Q EOT };"), 202u);

   const std::vector<uint8_t> bin = vs_binary(false);
   EXPECT_EQ(check::executed_cycles(bin, {1, 1, 1, 1, 1, 1}), 5 * 10 + 202u);
   EXPECT_EQ(check::executed_cycles(bin, {3, 0, 0, 0, 0, 1}), 3 * 10 + 202u);
}

/* A pair of programs of one shader whose counts are known: brw's as
 * vs_binary() (6 instructions), "ibis's" with two more.  The scoreboard
 * sums them, calls the pair hurt one way round and helped the other, and
 * puts the worse ratio first; the outputs agree word for word.
 */
TEST(check_dynamic, scoreboard_of_a_known_pair)
{
   auto s = nir::read_shader(vs_nir, "vs.nir");
   auto in = check::make_inputs(*s, 8, 7, 0);
   const unsigned live = unsigned(__builtin_popcount(in.channel_mask()));
   auto a = check::check_binary(*s, 8, vs_binary(false), in, compile_options());
   auto b = check::check_binary(*s, 8, vs_binary_padded(), in, compile_options());
   ASSERT_EQ(a.v, check::verdict::match) << a.first;
   ASSERT_EQ(b.v, check::verdict::match) << b.first;
   EXPECT_EQ(a.executed, 6u);
   EXPECT_EQ(b.executed, 8u);
   EXPECT_EQ(a.channel_executed, 6u * live);
   EXPECT_EQ(b.channel_executed, 8u * live);
   EXPECT_EQ(a.sends, 1u);
   EXPECT_EQ(b.sends, 1u);
   EXPECT_EQ(a.cycles, 252u);
   EXPECT_EQ(b.cycles, 252u + 10 + 18);

   /* The same words, all compared exactly by the interpreter. */
   const check::word_agreement same = check::compare_words(a.words, b.words);
   EXPECT_EQ(same.exact, 4u * live);
   EXPECT_EQ(same.exact_differ + same.loose + same.misaligned, 0u);
   /* y and z swapped: half the words differ. */
   auto swapped = check::check_binary(*s, 8, vs_binary(true), in, compile_options());
   const check::word_agreement differ = check::compare_words(a.words, swapped.words);
   EXPECT_EQ(differ.exact, 4u * live);
   EXPECT_EQ(differ.exact_differ, 2u * live);
   EXPECT_EQ(differ.first_differ.rfind("location 0.y:0: ", 0), 0u) << differ.first_differ;
   /* Words the interpreter left loose differ apart; a list that does not
    * line up is no agreement.
    */
   const check::word_agreement loose =
      check::compare_words("set 0\na 3f800000 3f800002 rt0.x:0\nu 00000001 00000002 rt0.y:0\n"
                           "u ffc00000 00000000 rt0.w:0\n",
                           "set 0\na 3f800001 3f800002 rt0.x:0\nu 00000001 00000002 rt0.y:0\n"
                           "u 7fc00000 00000000 rt0.w:0\ne 0 0 rt0.z:0\n");
   EXPECT_EQ(loose.loose, 3u);
   EXPECT_EQ(loose.loose_differ, 2u);
   EXPECT_EQ(loose.loose_nan, 1u);
   EXPECT_EQ(loose.exact, 0u);
   EXPECT_EQ(loose.misaligned, 1u);
   /* Each differing word listed with its set, both classes, both values
    * and the interpreter's.
    */
   EXPECT_EQ(loose.differ_list, "set 0 rt0.x:0 a/a 3f800000 3f800001 interp 3f800002\n"
                                "set 0 rt0.w:0 u/u ffc00000 7fc00000 interp 00000000\n");
   /* The same name with another interpreter value is not the same word. */
   EXPECT_EQ(check::compare_words("a 3f800000 3f800000 rt0.x:0\n",
                                  "a 3f800000 3f800001 rt0.x:0\n").misaligned, 1u);

   auto row = [](const char *name, const check::result &brw, const check::result &ibis) {
      check::dynamic_row r;
      r.group = "vs SIMD8";
      r.program = name;
      const uint64_t x[4] = {brw.executed, brw.channel_executed, brw.sends, brw.cycles};
      const uint64_t y[4] = {ibis.executed, ibis.channel_executed, ibis.sends, ibis.cycles};
      std::copy(x, x + 4, r.brw);
      std::copy(y, y + 4, r.ibis);
      return r;
   };
   const std::vector<check::dynamic_row> rows = {row("helped.asm", b, a),
                                                 row("hurt.asm", a, b)};
   const std::vector<check::dynamic_row> back =
      check::read_dynamic_rows(check::dynamic_rows_text(rows));
   ASSERT_EQ(back.size(), 2u);
   EXPECT_EQ(back[1].program, "hurt.asm");
   EXPECT_EQ(back[1].ibis[3], 280u);
   const std::string board = check::dynamic_scoreboard(back);
   EXPECT_NE(board.find("vs SIMD8: 2 programs, 1 helped, 1 hurt (ibis executes fewer, more "
                        "instructions), 0 alike; 1 more than 5% worse"),
             std::string::npos) << board;
   EXPECT_NE(board.find("executed instructions  brw           14  ibis           14  "
                        "ibis/brw 1.000"), std::string::npos) << board;
   EXPECT_NE(board.find("sends                  brw            2  ibis            2"),
             std::string::npos) << board;
   EXPECT_NE(board.find("estimated cycles       brw          532  ibis          532"),
             std::string::npos) << board;
   /* 8/6 before 6/8. */
   const size_t hurt = board.find("1.333  6 -> 8  hurt.asm"),
                helped = board.find("0.750  8 -> 6  helped.asm");
   ASSERT_NE(hurt, std::string::npos) << board;
   ASSERT_NE(helped, std::string::npos) << board;
   EXPECT_LT(hurt, helped);
}
