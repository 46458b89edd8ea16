/*
 * The whole pipeline on small NIR shaders: what comes out (stats,
 * assembly, binary, prog data) and the dumps each stage leaves.
 */
#include <gtest/gtest.h>

#include "compiler_test_util.h"
#include "util/ibis_debug.h"

using namespace ibis;
using ibis::test::read_nir;
using ibis::test::variant;

namespace {

/* A constant color: one render-target write, nothing else to do. */
const char *const constant_fs = R"(
   con 32 %0 = load_const (0x00000000)
   con 32 %1 = load_const (0x3f800000 = 1.000000)
   con 32x4 %2 = vec4 %1, %0, %0, %1
   @store_output (%2, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
   block b1:
)";

/* An interpolated input, a flat input, discard and a depth write. */
const char *const state_fs = R"(
   div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)
   con 32 %1 = load_const (0x00000000)
   div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
   div 32 %3 = @load_input (%1 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)
   div 32 %4 = flt32 %2, %1 (0x0)
   @discard_if (%4) ()
   div 32 %5 = fadd %2, %3
   div 32x4 %6 = vec4 %5, %5, %5, %5
   @store_output (%6, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
   @store_output (%2, %1 (0x0)) (base=0, range=1, wrmask=x, component=0, src_type=float32, io location=FRAG_RESULT_DEPTH slots=1, xfb(), xfb2())
   block b1:
)";

/* A loop with a uniform trip count. */
const char *const loop_fs = R"(
   con 32 %0 = load_const (0x00000000)
   con 32 %1 = load_const (0x00000001)
   con 32 %2 = load_const (0x00000004)
   div 32 %3 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
   con 32 %4 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=0)
   div 32x2 %5 = @load_barycentric_pixel () (interp_mode=1)
   div 32 %6 = @load_interpolated_input (%5, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
   @store_reg (%6, %3) (base=0, wrmask=x, legacy_fsat=0)
   @store_reg (%0, %4) (base=0, wrmask=x, legacy_fsat=0)
   loop {
   block b1:
   con 32 %7 = @load_reg (%4) (base=0, legacy_fabs=0, legacy_fneg=0)
   con 32 %8 = ige32 %7, %2 (0x4)
   if %8 {
   block b2:
   break
   } else {
   block b3:
   }
   block b4:
   div 32 %9 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
   div 32 %10 = fmul %9, %9
   @store_reg (%10, %3) (base=0, wrmask=x, legacy_fsat=0)
   con 32 %11 = iadd %7, %1 (0x1)
   @store_reg (%11, %4) (base=0, wrmask=x, legacy_fsat=0)
   }
   block b5:
   div 32 %12 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)
   div 32x4 %13 = vec4 %12, %12, %12, %12
   @store_output (%13, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())
   block b6:
)";

/* Position from an attribute, one varying. */
const char *const simple_vs = R"(
   con 32 %0 = load_const (0x00000000)
   div 32x4 %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)
   div 32x4 %2 = @load_input (%0 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)
   @store_output (%1, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())
   @store_output (%2, %0 (0x0)) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())
   block b1:
)";

size_t
count(const std::string &text, const std::string &what)
{
   size_t n = 0;
   for (size_t at = text.find(what); at != std::string::npos;
        at = text.find(what, at + 1))
      n++;
   return n;
}

compile_options
with_disasm()
{
   compile_options o;
   o.disasm = true;
   return o;
}

} /* anonymous namespace */

TEST(compiler_pipeline, constant_fs_is_one_eot_send_per_width)
{
   compile_result r = compile_shader(*read_nir("fs", constant_fs), with_disasm());
   for (unsigned simd : {8u, 16u}) {
      const compiled_variant *v = variant(r, simd);
      ASSERT_NE(v, nullptr) << simd;
      ASSERT_TRUE(v->compiled) << v->reason;
      EXPECT_TRUE(v->kept);
      EXPECT_EQ(v->stats.sends, 1u) << v->disasm;
      EXPECT_EQ(v->stats.loops, 0u);
      EXPECT_EQ(v->stats.spills + v->stats.fills, 0u);
      /* The color moves into the payload and the write: a handful. */
      EXPECT_GE(v->stats.instructions, 2u) << v->disasm;
      EXPECT_LE(v->stats.instructions, 8u) << v->disasm;
      EXPECT_EQ(count(v->disasm, "EOT"), 1u) << v->disasm;
      EXPECT_EQ(v->binary.size(), v->stats.bytes_compacted);
      EXPECT_EQ(v->stats_text.rfind("FS SIMD" + std::to_string(simd) + " shader: ", 0), 0u)
         << v->stats_text;
   }
}

TEST(compiler_pipeline, kept_kernels_sit_at_their_offsets)
{
   compile_result r = compile_shader(*read_nir("fs", constant_fs), {});
   unsigned kept = 0;
   for (const compiled_variant &v : r.variants) {
      if (!v.kept)
         continue;
      kept++;
      EXPECT_EQ(v.offset % 64, 0u);
      ASSERT_LE(v.offset + v.binary.size(), r.binary.size());
      EXPECT_TRUE(std::equal(v.binary.begin(), v.binary.end(),
                             r.binary.begin() + v.offset)) << v.simd;
   }
   EXPECT_GE(kept, 2u);
   EXPECT_EQ(r.prog.offset_simd8, 0);
   EXPECT_EQ(r.prog.offset_simd16, int(variant(r, 16)->offset));
   EXPECT_GT(r.prog.offset_simd16, 0);
}

TEST(compiler_pipeline, loop_counts_in_stats)
{
   compiled_variant v = compile_variant(*read_nir("fs", loop_fs), 8, with_disasm());
   ASSERT_TRUE(v.compiled) << v.reason;
   EXPECT_EQ(v.stats.loops, 1u) << v.disasm;
   EXPECT_NE(v.disasm.find("while"), std::string::npos) << v.disasm;
   EXPECT_NE(v.stats_text.find(" 1 loops,"), std::string::npos) << v.stats_text;
}

TEST(compiler_pipeline, vs_is_simd8_with_urb_writes)
{
   compile_result r = compile_shader(*read_nir("vs", simple_vs), with_disasm());
   ASSERT_EQ(r.variants.size(), 1u);
   const compiled_variant &v = r.variants[0];
   ASSERT_TRUE(v.kept) << v.reason;
   EXPECT_EQ(v.simd, 8u);
   EXPECT_EQ(v.stats_text.rfind("VS SIMD8 shader: ", 0), 0u) << v.stats_text;
   EXPECT_GE(v.stats.sends, 1u);
   EXPECT_EQ(count(v.disasm, "EOT"), 1u) << v.disasm;
   /* Two attributes; the VUE: header, position, VAR0 (slot 32). */
   EXPECT_EQ(r.prog.vs_attr_slots.size(), 2u);
   EXPECT_EQ(r.prog.urb_read_length, 1u);
   EXPECT_EQ(r.prog.vue_slots, (std::vector<int>{12, 0, 32}));
   EXPECT_EQ(r.prog.urb_entry_size, 1u);
   /* g0 header, g1 URB handles: attributes (no push) start at g2. */
   EXPECT_EQ(v.dispatch_grf_start, 2u);
}

TEST(compiler_pipeline, fs_prog_data_flags)
{
   compile_result r = compile_shader(*read_nir("fs", state_fs), {});
   const prog_data &p = r.prog;
   EXPECT_TRUE(p.uses_kill);
   EXPECT_TRUE(p.computes_depth);
   EXPECT_FALSE(p.writes_omask);
   EXPECT_FALSE(p.uses_src_depth);
   /* Perspective pixel barycentrics only (brw_barycentric_mode 0). */
   EXPECT_EQ(p.barycentric_modes, 1u);
   /* VAR0 (32) interpolated, VAR1 (33) flat: setup slot 1 is flat. */
   EXPECT_EQ(p.urb_setup, (std::vector<int>{32, 33}));
   EXPECT_EQ(p.flat_inputs, 2u);
   /* SIMD8: g0, g1, then one PLN barycentric pair (2 GRFs). */
   EXPECT_EQ(p.dispatch_grf_start_simd8, 4u);
   EXPECT_EQ(variant(r, 8)->dispatch_grf_start, 4u);
}

TEST(compiler_pipeline, dumps_follow_the_pipeline)
{
   compile_options o;
   o.widths = {8};
   o.debug = DEBUG_IR | DEBUG_OPT | DEBUG_LOWER | DEBUG_SCHED | DEBUG_RA |
             DEBUG_ASM | DEBUG_STATS;
   std::string log;
   o.dump = [&](const std::string &t) { log += t; };
   compile_result r = compile_shader(*read_nir("fs", constant_fs), o);
   ASSERT_TRUE(r.variants[0].kept);
   size_t at = 0;
   for (const char *stage : {"; SIMD8, after translation", "; SIMD8, after copy-prop",
                             "; SIMD8, after dce", "; SIMD8, after lowering",
                             "; SIMD8, after pre-RA scheduling",
                             "; SIMD8, after register allocation",
                             "; SIMD8, after post-RA scheduling",
                             "; SIMD8 assembly", "FS SIMD8 shader: "}) {
      const size_t next = log.find(stage, at);
      ASSERT_NE(next, std::string::npos) << stage << "\n" << log;
      at = next;
   }
   /* The lowered and allocated states show in the IR's header line. */
   EXPECT_NE(log.find("lowered"), std::string::npos);
   EXPECT_NE(log.find("allocated"), std::string::npos);
}

TEST(compiler_pipeline, unsupported_width_and_stage_are_errors)
{
   try {
      compile_variant(*read_nir("vs", simple_vs), 16, {});
      FAIL() << "a SIMD16 VS compiled";
   } catch (const error &e) {
      EXPECT_NE(std::string(e.what()).find("SIMD8"), std::string::npos) << e.what();
   }
   compile_options o;
   o.widths = {12};
   try {
      compile_shader(*read_nir("fs", constant_fs), o);
      FAIL() << "SIMD12 accepted";
   } catch (const error &e) {
      EXPECT_NE(std::string(e.what()).find("SIMD12"), std::string::npos) << e.what();
   }
}

TEST(compiler_pipeline, shaderdb_lines_name_every_kept_variant)
{
   compile_result r = compile_shader(*read_nir("fs", constant_fs), {});
   const std::string lines = shaderdb_lines("game/1.fs.nir", r);
   unsigned kept = 0;
   for (const compiled_variant &v : r.variants)
      kept += v.kept;
   EXPECT_EQ(count(lines, "\n"), kept);
   EXPECT_EQ(lines.rfind("game/1.fs.nir - FS SIMD8 shader: ", 0), 0u) << lines;
   EXPECT_NE(lines.find("game/1.fs.nir - FS SIMD16 shader: "), std::string::npos);
}

/* The disassembly is made only on request, and what disassemble() makes
 * later is what the compile would have made.
 */
TEST(compiler_pipeline, disasm_only_on_request)
{
   compile_result lazy = compile_shader(*read_nir("fs", constant_fs), {});
   compile_result eager = compile_shader(*read_nir("fs", constant_fs), with_disasm());
   ASSERT_EQ(lazy.variants.size(), eager.variants.size());
   for (unsigned i = 0; i < lazy.variants.size(); i++) {
      const compiled_variant &l = lazy.variants[i], &e = eager.variants[i];
      if (!e.compiled)
         continue;
      EXPECT_TRUE(l.disasm.empty()) << l.simd;
      ASSERT_FALSE(e.disasm.empty()) << e.simd;
      EXPECT_EQ(l.binary, e.binary) << l.simd;
      EXPECT_EQ(disassemble(l.binary, device_by_name("skl")), e.disasm) << l.simd;
   }
}
