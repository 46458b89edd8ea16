/*
 * Reader and validator tests: a small shader with every kind of control
 * flow, its exact printed form, and one broken variant per error with the
 * exact message the reader or validator gives.
 */
#include <string>

#include "nir/nir.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

/* As nir_print writes it: reading and printing gives it back. */
const std::string canonical = R"(shader: MESA_SHADER_FRAGMENT
source_sha1: {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}
name: test
internal: false
stage: 4
next_stage: 4
subgroup_size: 1
divergence_analysis_run: true
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_in INTERP_MODE_SMOOTH none vec4 color (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main (0 params) 

impl main {
    block b0:       // preds: 
    con 32     %0 = load_const (0x00000000)
    con 32     %1 = load_const (0x3f800000 = 1.000000)
    div 32x2   %2 = @load_barycentric_pixel () (interp_mode=1)
    div 32x4   %3 = @load_interpolated_input (%2, %0 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)  // color
    div 32     %4 = flt32 %3.x, %1 (1.000000)
                    // succs: b1 b2 
    if %4 {
        block b1:       // preds: b0
        div 32     %5 = fadd %3.y, %1 (1.000000)
                        // succs: b3 
    } else {
        block b2:       // preds: b0
        div 32     %6 = fmul %3.z, %1 (1.000000)
                        // succs: b3 
    }
    block b3:       // preds: b1 b2
    div 32     %7 = phi b1: %5, b2: %6
    con 32     %8 = load_const (0x00000001)
                    // succs: b4 
    loop {
        block b4:       // preds: b3 b7
        con 32     %9 = ieq32 %8 (0x1), %0 (0x0)
                        // succs: b5 b6 
        if %9 {
            block b5:// preds: b4
            break
            // succs: b8 
        } else {
            block b6:  // preds: b4, succs: b7 
        }
        block b7:// preds: b6
        continue
        // succs: b4 
    }
    block b8:       // preds: b5
    div 32x4  %10 = vec4 %7, %3.y, %3.z, %1 (0x3f800000)
                    @store_output (%10, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())  // gl_FragColor
                    // succs: b9 
    block b9:
}
)";

/* The same without the preds/succs comments, which the reader checks
 * before the validator could.
 */
std::string
without_cfg_comments(const std::string &text)
{
   std::string out;
   size_t pos = 0;
   while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      const size_t c = line.find("//");
      if (line.find("// succs:") != std::string::npos &&
          line.find("block ") == std::string::npos)
         continue;
      if (c != std::string::npos && line.find("block ") != std::string::npos)
         line = line.substr(0, line.find(':') + 1);
      out += line + "\n";
   }
   return out;
}

std::string
replaced(const std::string &text, const std::string &from, const std::string &to)
{
   const size_t at = text.find(from);
   EXPECT_NE(at, std::string::npos) << "test text lacks: " << from;
   if (at == std::string::npos)
      return text;
   return text.substr(0, at) + to + text.substr(at + from.size());
}

/* The error reading + validating the text gives, or "" if none. */
std::string
error_of(const std::string &text)
{
   try {
      auto s = nir::read_shader(text, "t.nir");
      nir::validate(*s);
   } catch (const ibis::error &e) {
      return e.what();
   }
   return "";
}

struct error_case {
   const char *name;
   const char *from, *to;
   const char *message;
};

const error_case reader_cases[] = {
   {"unknown ALU opcode",
    "div 32     %5 = fadd %3.y",
    "div 32     %5 = fadd_x %3.y",
    "t.nir:26:25: unknown ALU opcode 'fadd_x'"},
   {"unknown intrinsic",
    "@load_barycentric_pixel ()",
    "@load_barycentric_pixelx ()",
    "t.nir:20:21: unknown intrinsic '@load_barycentric_pixelx'"},
   {"undefined SSA value",
    "%6 = fmul %3.z",
    "%6 = fmul %33.z",
    "t.nir:30:30: use of undefined SSA value %33"},
   {"defined twice",
    "con 32     %8 = load_const (0x00000001)",
    "con 32     %7 = load_const (0x00000001)",
    "t.nir:35:5: SSA value %7 is defined twice"},
   {"bad bit size",
    "div 32     %4 = flt32",
    "div 33     %4 = flt32",
    "t.nir:22:9: invalid bit size 33"},
   {"bad component count",
    "div 32x4   %3 =",
    "div 32x6   %3 =",
    "t.nir:21:12: invalid component count 6"},
   {"swizzle length",
    "flt32 %3.x, %1",
    "flt32 %3.xy, %1",
    "t.nir:22:30: swizzle of 2 component(s) for a source of 1"},
   {"too few sources",
    "%9 = ieq32 %8 (0x1), %0 (0x0)",
    "%9 = ieq32 %8 (0x1)",
    "t.nir:39:39: 'ieq32' takes 2 sources"},
   {"intrinsic sources",
    "@load_interpolated_input (%2, %0 (0x0))",
    "@load_interpolated_input (%2)",
    "t.nir:21:49: '@load_interpolated_input' takes 2 sources"},
   {"wrong index name",
    "(base=32, component=0",
    "(base=32, comp=0",
    "t.nir:21:71: expected index 'component='"},
   {"bad io location",
    "io location=VARYING_SLOT_VAR0 slots=1)",
    "io location=VARYING_SLOT_BOGUS slots=1)",
    "t.nir:21:115: unknown IO location 'VARYING_SLOT_BOGUS'"},
   {"unknown block in phi",
    "phi b1: %5, b2: %6",
    "phi b1: %5, b12: %6",
    "t.nir:34:33: unknown block b12"},
   {"preds mismatch",
    "block b3:       // preds: b1 b2",
    "block b3:       // preds: b1",
    "t.nir:33:1: block b3: predecessors do not match the control flow (expected 'b1 b2')"},
   {"succs mismatch",
    "            // succs: b8 ",
    "            // succs: b7 ",
    "t.nir:44:1: block b5: successors do not match the control flow (expected 'b8')"},
   {"missing else",
    "    } else {\n        block b2:",
    "    }\n        block b2:",
    "t.nir:28:5: expected '} else {'"},
   {"header order",
    "stage: 4\nnext_stage: 4",
    "stage: 5\nnext_stage: 4",
    "t.nir:5:1: stage 5 does not match MESA_SHADER_FRAGMENT"},
   {"unknown header",
    "subgroup_size: 1",
    "subgroup_sizes: 1",
    "t.nir:7:1: unknown shader info field 'subgroup_sizes'"},
   {"store needs no dest",
    "                    @store_output",
    "    div 32 %11 = @store_output",
    "t.nir:54:18: '@store_output' has no destination"},
   {"load needs dest",
    "div 32x2   %2 = @load_barycentric_pixel",
    "@load_barycentric_pixel",
    "t.nir:20:5: '@load_barycentric_pixel' needs a destination"},
   {"unknown stage",
    "shader: MESA_SHADER_FRAGMENT",
    "shader: MESA_SHADER_PIXEL",
    "t.nir:1:1: unknown shader stage 'MESA_SHADER_PIXEL'"},
   {"bad constant",
    "load_const (0x00000001)",
    "load_const (0x1ffffffff)",
    "t.nir:35:33: a constant is too large"},
   {"consecutive blocks",
    "    loop {",
    "    block b99:\n    loop {",
    "t.nir:37:5: two consecutive blocks"},
   {"var location",
    "(VARYING_SLOT_VAR0.xyzw, 32, 0)",
    "(VARYING_SLOT_VAR0.xyz, 32, 0)",
    "t.nir:12:74: component suffix '.xyz' does not fit type vec4"},
   {"tex unknown",
    "div 32x4  %10 = vec4 %7, %3.y, %3.z, %1 (0x3f800000)",
    "div 32x4  %10 = (float32)tex %3 (coords), 0 (texture), 0 (sampler)",
    "t.nir:53:37: unknown texture source 'coords'"},
   {"tex missing sampler",
    "div 32x4  %10 = vec4 %7, %3.y, %3.z, %1 (0x3f800000)",
    "div 32x4  %10 = (float32)tex %2 (coord), 0 (texture)",
    "t.nir:53:57: missing sampler index"},
   {"jump mid-block",
    "            break\n",
    "            break\n            div 32 %11 = fneg %1\n",
    "t.nir:44:13: instruction after a jump in block b5"},
   /* A sized type names its base and one of the base's bit sizes. */
   {"type bit size",
    "dest_type=float32, io location=VARYING_SLOT_VAR0",
    "dest_type=float31, io location=VARYING_SLOT_VAR0",
    "t.nir:21:94: unknown type 'float31'"},
   {"type leading zero",
    "dest_type=float32, io location=VARYING_SLOT_VAR0",
    "dest_type=float032, io location=VARYING_SLOT_VAR0",
    "t.nir:21:94: unknown type 'float032'"},
   {"type of another base's size",
    "dest_type=float32, io location=VARYING_SLOT_VAR0",
    "dest_type=float8, io location=VARYING_SLOT_VAR0",
    "t.nir:21:94: unknown type 'float8'"},
   {"goto",
    "            break\n",
    "            goto b4\n",
    "t.nir:43:13: unstructured control flow (goto) is not supported"},
   {"impl undeclared",
    "impl main {",
    "impl other {",
    "t.nir:16:6: impl of undeclared function 'other'"},
   /* Found by the fuzzer. */
   {"control character",
    "name: test",
    "name: te\x01st",
    "t.nir:3:9: invalid character 0x01"},
   /* The reader looks at eight bytes at a time, then byte by byte: a
    * control character in a later word, in the tail after the last
    * whole word, and after an allowed tab in the same word.
    */
   {"control character in a later word",
    "dest_type=float32, io location=VARYING_SLOT_VAR0",
    "dest_type=float32, io location=VARYING_SLOT\x1fVAR0",
    "t.nir:21:127: invalid character 0x1f"},
   {"control character in the tail",
    "name: test",
    "name: test\x7f\x02",
    "t.nir:3:12: invalid character 0x02"},
   {"control character after a tab",
    "name: test",
    "name:\ttes\x1bt",
    "t.nir:3:10: invalid character 0x1b"},
   {"component letter out of range",
    "(VARYING_SLOT_VAR0.xyzw, 32, 0)",
    "(VARYING_SLOT_VAR0.p, 32, 0)",
    "t.nir:12:74: component suffix '.p' does not fit type vec4"},
};

const error_case validator_cases[] = {
   {"dominance",
    "    div 32x4  %10 = vec4 %7, %3.y",
    "    div 32x4  %10 = vec4 %5, %3.y",
    "t.nir:46: '%10 = vec4': source 0 (%5, defined in block b1) does not dominate its use in block b8"},
   {"use before def",
    "    div 32     %4 = flt32 %3.x, %1 (1.000000)\n",
    "    div 32     %4 = flt32 %11.x, %1 (1.000000)\n    div 32x4   %11 = fneg %3\n",
    "t.nir:22: '%4 = flt32': source 0 (%11) is used before its definition"},
   {"phi placement",
    "    div 32     %7 = phi b1: %5, b2: %6\n    con 32     %8 = load_const (0x00000001)",
    "    con 32     %8 = load_const (0x00000001)\n    div 32     %7 = phi b1: %5, b2: %6",
    "t.nir:32: '%7 = phi': phis must come first in their block"},
   {"phi missing pred",
    "%7 = phi b1: %5, b2: %6",
    "%7 = phi b1: %5",
    "t.nir:31: '%7 = phi': 0 sources for predecessor b2, expected 1"},
   {"phi extra pred",
    "%7 = phi b1: %5, b2: %6",
    "%7 = phi b1: %5, b2: %6, b4: %6",
    "t.nir:31: '%7 = phi': source from b4, which is not a predecessor"},
   {"bit sizes",
    "        div 32     %5 = fadd %3.y, %1 (1.000000)",
    "        div 16     %12 = f2f16 %3.y\n        div 32     %5 = fadd %3.y, %12",
    "t.nir:26: '%5 = fadd': source 1 (%12) has 16 bits, other operands have 32"},
   {"component count",
    "@load_interpolated_input (%2, %0 (0x0))",
    "@load_interpolated_input (%0, %0 (0x0))",
    "t.nir:21: '%3 = @load_interpolated_input': source 0 (%0) has 1 component(s), expected 2"},
   {"swizzle range",
    "%6 = fmul %3.z, %1",
    "%6 = fmul %2.z, %1",
    "t.nir:28: '%6 = fmul': swizzle of source 0 (%2) reads component 2 of 2"},
   {"write mask",
    "    block b9:",
    "    @store_output (%2, %0 (0x0)) (base=4, range=1, wrmask=xyz, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n    block b9:",
    "t.nir:48: '@store_output': write mask 0x7 is wider than 2 components"},
   /* Found by check_fuzz (a 5-component load_input). */
   {"I/O slot",
    "(base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0",
    "(base=32, component=2, dest_type=float32, io location=VARYING_SLOT_VAR0",
    "t.nir:21: '%3 = @load_interpolated_input': components 2-5 of an I/O slot (a vec4)"},
   {"result components",
    "    div 32     %4 = flt32 %3.x, %1 (1.000000)",
    "    div 32     %4 = flt32 %3.x, %1 (1.000000)\n    div 32x2   %11 = fdot2 %2, %2",
    "t.nir:23: '%11 = fdot2': the result has 2 component(s), the opcode gives 1"},
   {"break outside loop",
    "        div 32     %5 = fadd %3.y, %1 (1.000000)\n",
    "        div 32     %5 = fadd %3.y, %1 (1.000000)\n        break\n",
    "t.nir:26: 'break': outside a loop"},
   {"jump ends list",
    "        block b7:\n        continue\n",
    "        block b7:\n        continue\n        if %9 {\n            block b10:\n        } else {\n            block b11:\n        }\n        block b12:\n",
    "t.nir:43: 'continue': a block ending in a jump must end its list"},
   {"index alignment",
    "    div 32     %4 = flt32",
    "    con 32x4   %11 = @load_ubo (%0, %0) (access=none, align_mul=3, align_offset=0, range_base=0, range=16)\n    div 32     %4 = flt32",
    "t.nir:22: '%11 = @load_ubo': align_mul 3 is not a power of two"},
   {"register size",
    "    div 32     %4 = flt32",
    "    div 32     %11 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)\n    div 16     %12 = @load_reg (%11) (base=0, legacy_fabs=0, legacy_fneg=0)\n    div 32     %4 = flt32",
    "t.nir:23: '%12 = @load_reg': 16 bits for a 32-bit register (%11)"},
   {"register decl block",
    "        div 32     %6 = fmul %3.z, %1 (1.000000)",
    "        div 32     %6 = fmul %3.z, %1 (1.000000)\n        div 32     %11 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)",
    "t.nir:29: '%11 = @decl_reg': registers are declared in the first block"},
   {"if condition size",
    "    if %4 {",
    "    if %3 {",
    "t.nir:23: the if condition (%3) has 4 component(s), expected 1"},
};

} /* anonymous namespace */

TEST(nir_text, canonical_round_trip)
{
   auto s = nir::read_shader(canonical, "t.nir");
   nir::validate(*s);
   EXPECT_EQ(nir::print_shader(*s), canonical);
}

TEST(nir_text, comments_and_padding_are_optional)
{
   /* Hand-written text: no CFG comments, single spaces, no annotations. */
   const std::string bare = R"(shader: MESA_SHADER_VERTEX
source_sha1: {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}
internal: false
stage: 0
next_stage: 4
subgroup_size: 1
inputs: 0
outputs: 0
uniforms: 0
decl_function main (0 params)

impl main {
    block b0:
    32 %0 = load_const (0x3f800000)
    32x2 %1 = vec2 %0, %0
    32 %2 = fadd %1.y, %0
    block b1:
}
)";
   auto s = nir::read_shader(bare, "bare.nir");
   nir::validate(*s);
   const std::string printed = nir::print_shader(*s);
   EXPECT_NE(printed.find("    32    %2 = fadd %1.y, %0 (1.000000)\n"),
             std::string::npos) << printed;
   /* The printed form is a fixed point. */
   EXPECT_EQ(nir::print_shader(*nir::read_shader(printed, "p.nir")), printed);
}

TEST(nir_text, model_of_the_canonical_shader)
{
   auto s = nir::read_shader(canonical, "t.nir");
   const nir::function_impl &impl = *nir::entrypoint(*s);
   const auto blocks = nir::blocks_in_order(impl);
   ASSERT_EQ(blocks.size(), 10u);
   /* The loop's break goes to the block after the loop, continue to the
    * loop header, whose predecessors are the block before the loop and
    * the continuing block.
    */
   EXPECT_EQ(blocks[5]->succs[0], blocks[8]);
   EXPECT_EQ(blocks[7]->succs[0], blocks[4]);
   EXPECT_EQ(blocks[4]->preds, (std::vector<nir::block *>{blocks[3], blocks[7]}));
   const auto &phi = static_cast<const nir::phi_instr &>(*blocks[3]->instrs[0]);
   ASSERT_EQ(phi.type, nir::instr_type::phi);
   EXPECT_EQ(phi.srcs[0].pred, blocks[1]);
   EXPECT_EQ(phi.srcs[1].ssa->index, 6u);
   EXPECT_EQ(impl.ssa_alloc, 11u);
}

TEST(nir_text, reader_errors)
{
   for (const error_case &c : reader_cases) {
      SCOPED_TRACE(c.name);
      EXPECT_EQ(error_of(replaced(canonical, c.from, c.to)), c.message);
   }
}

/* SSA indices past the reader's array (2^20) go through its map: a use
 * finds its def there, an unknown one and a repeated one are errors.
 */
TEST(nir_text, large_ssa_indices)
{
   std::string text = replaced(canonical, "con 32     %8 = load_const",
                               "con 32     %3000008 = load_const");
   text = replaced(text, "ieq32 %8 (0x1)", "ieq32 %3000008 (0x1)");
   auto s = nir::read_shader(text, "t.nir");
   nir::validate(*s);
   const nir::function_impl &impl = *nir::entrypoint(*s);
   EXPECT_EQ(impl.ssa_alloc, 3000009u);
   const nir::block &b = *nir::blocks_in_order(impl)[4];
   ASSERT_FALSE(b.instrs.empty());
   const auto &ieq = static_cast<const nir::alu_instr &>(*b.instrs[0]);
   EXPECT_EQ(ieq.srcs[0].ssa->index, 3000008u);

   EXPECT_EQ(error_of(replaced(text, "ieq32 %3000008 (0x1)", "ieq32 %3000007 (0x1)")),
             "t.nir:39:31: use of undefined SSA value %3000007");
   EXPECT_EQ(error_of(replaced(text, "div 32     %7 = phi", "div 32     %3000008 = phi")),
             "t.nir:35:5: SSA value %3000008 is defined twice");
}

TEST(nir_text, validator_errors)
{
   const std::string bare = without_cfg_comments(canonical);
   ASSERT_EQ(error_of(bare), "");
   for (const error_case &c : validator_cases) {
      SCOPED_TRACE(c.name);
      EXPECT_EQ(error_of(replaced(bare, c.from, c.to)), c.message);
   }
}

/* Rules only a shader built or changed in memory can break. */
TEST(nir_text, validator_in_memory)
{
   auto validate_error = [](const nir::shader &sh) -> std::string {
      try {
         nir::validate(sh);
      } catch (const ibis::error &e) {
         return e.what();
      }
      return "";
   };

   auto s = nir::read_shader(canonical, "t.nir");
   nir::function_impl &impl = *s->functions[0]->impl;
   const auto blocks = nir::blocks_in_order(impl);

   impl.ssa_alloc = 5;
   EXPECT_EQ(validate_error(*s),
             "t.nir:26: '%5 = fadd': SSA index %5 is not below ssa_alloc (5)");
   impl.ssa_alloc = 11;
   EXPECT_EQ(validate_error(*s), "");

   /* Dropping the break without rebuilding the CFG leaves stale edges. */
   auto brk = std::move(blocks[5]->instrs.back());
   blocks[5]->instrs.pop_back();
   EXPECT_EQ(validate_error(*s),
             "t.nir:42: block b5: the successors are not the ones the control flow "
             "gives (call build_cfg)");
   nir::build_cfg(impl);
   EXPECT_EQ(validate_error(*s), "");
   blocks[5]->instrs.push_back(std::move(brk));
   nir::build_cfg(impl);
   EXPECT_EQ(validate_error(*s), "");

   /* Two values with one index. */
   blocks[1]->instrs[0]->get_def()->index = 6;
   EXPECT_EQ(validate_error(*s), "t.nir:30: '%6 = fmul': SSA index %6 is used by two "
                                 "values");
}

/* Nesting is bounded, so hostile input cannot exhaust the stack. */
TEST(nir_text, deep_nesting_is_an_error)
{
   std::string text = canonical.substr(0, canonical.find("impl main {"));
   text += "impl main {\n    block b0:\n    con 32 %0 = load_const (0x00000000)\n";
   const unsigned n = 2000;
   for (unsigned i = 0; i < n; i++)
      text += "if %0 {\nblock b" + std::to_string(i + 1) + ":\n";
   for (unsigned i = 0; i < n; i++)
      text += "} else {\nblock b" + std::to_string(10000 + i) + ":\n}\nblock b" +
              std::to_string(20000 + i) + ":\n";
   text += "block b99999:\n}\n";
   EXPECT_EQ(error_of(text), "t.nir:1020:1: control flow nested too deeply");
}

/* Mesa 25.0's print of a shader like the canonical one, with the forms
 * 25.0 adds: a named next_stage, no internal/stage/uniforms lines,
 * precisions and slot names on variables, "(entrypoint)", con/div on
 * blocks and loops, no "()" for empty intrinsic groups, a named
 * interp_mode, the derivative intrinsics, demote_if, fcsel_gt, a
 * 16-component block load read with letters past w, an invariant output.
 */
const std::string canonical25 = R"(shader: MESA_SHADER_FRAGMENT
source_blake3: {0x00000001, 0x00000002, 0x00000003, 0x00000004, 0x00000005, 0x00000006, 0x00000007, 0x00000008}
name: test
next_stage: MESA_SHADER_FRAGMENT
num_ubos: 1
subgroup_size: 1
divergence_analysis_run: true
uses_discard: true
inputs: 1
outputs: 1
decl_var shader_in INTERP_MODE_SMOOTH none highp vec4 VARYING_SLOT_VAR0 (VARYING_SLOT_VAR0.xyzw, 32, 0)
decl_var shader_out INTERP_MODE_NONE none highp vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)
decl_function main () (entrypoint)

impl main {
    con block b0:        // preds:
    con 32      %0 = load_const (0x00000000)
    con 32      %1 = load_const (0x3f800000 = 1.000000)
    div 32x2    %2 = @load_barycentric_pixel (interp_mode=INTERP_MODE_SMOOTH)
    div 32x4    %3 = @load_interpolated_input (%2, %0 (0x0)) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)  // VARYING_SLOT_VAR0
    div 32      %4 = mov %3.x
    div 32      %5 = @ddx (%4)
    div 32      %6 = @ddy_fine (%4)
    con 32x16   %7 = @load_ubo_uniform_block_intel (%0 (0x0), %0 (0x0)) (access=speculatable, align_mul=1073741824, align_offset=0, range_base=0, range=64)
    div 32      %8 = fcsel_gt %5, %7.p, %6
    div 1       %9 = flt %8, %1 (1.000000)
                     // succs: b1 b2
    if %9 {
        div block b1:        // preds: b0
                         @demote_if (%9)
        div 32     %10 = fadd %3.y, %1 (1.000000)
                         // succs: b3
    } else {
        div block b2:        // preds: b0
        div 32     %11 = fmul %3.z, %1 (1.000000)
                         // succs: b3
    }
    div block b3:        // preds: b1 b2
    div 32     %12 = phi b1: %10, b2: %11
    con 32     %13 = load_const (0x00000001)
                     // succs: b4
    con loop {
        con block b4:        // preds: b3 b7
        con 32     %14 = ieq32 %13 (0x1), %0 (0x0)
                         // succs: b5 b6
        if %14 {
            con block b5:// preds: b4
            break
            // succs: b8
        } else {
            con block b6:  // preds: b4, succs: b7
        }
        con block b7:// preds: b6
        continue
        // succs: b4
    }
    div block b8:        // preds: b5
    div 32x4   %15 = vec4 %12, %3.y, %3.z, %1 (0x3f800000)
                     @store_output (%15, %0 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1 invariant, xfb(), xfb2())  // gl_FragColor
                     // succs: b9
    block b9:
}
)";

TEST(nir_text, mesa25_round_trip)
{
   auto s = nir::read_shader(canonical25, "t25.nir");
   nir::validate(*s);
   EXPECT_EQ(s->dialect, nir::print_dialect::mesa_25_0);
   EXPECT_EQ(nir::print_shader(*s), canonical25);
}

TEST(nir_text, mesa25_model)
{
   auto s = nir::read_shader(canonical25, "t25.nir");
   /* The stage comes from "shader:"; 25.0 has no "stage:" line. */
   EXPECT_EQ(s->info.stage, nir::shader_stage::fragment);
   EXPECT_EQ(s->info.next_stage, int(nir::shader_stage::fragment));
   EXPECT_EQ(s->info.source_blake3[7], 8u);
   EXPECT_EQ(s->num_uniforms, 0u);
   EXPECT_EQ(s->variables[0].name, "VARYING_SLOT_VAR0");
   EXPECT_EQ(s->variables[0].precision, 1u);
   const nir::function &main = *s->functions[0];
   EXPECT_TRUE(main.is_entrypoint);
   EXPECT_EQ(main.num_params, 0u);

   const auto blocks = nir::blocks_in_order(*nir::entrypoint(*s));
   ASSERT_EQ(blocks.size(), 10u);
   EXPECT_FALSE(blocks[0]->divergent);
   EXPECT_TRUE(blocks[1]->divergent);
   EXPECT_FALSE(blocks[4]->divergent);
   const auto *lp = static_cast<const nir::loop *>(blocks[4]->parent);
   ASSERT_EQ(lp->type, nir::cf_type::loop);
   EXPECT_FALSE(lp->divergent_break);

   auto intr = [&](unsigned b, unsigned i) {
      EXPECT_EQ(blocks[b]->instrs[i]->type, nir::instr_type::intrinsic);
      return static_cast<const nir::intrinsic_instr *>(blocks[b]->instrs[i].get());
   };
   EXPECT_EQ(intr(0, 2)->index(nir::intrinsic_index::interp_mode),
             int(nir::interp_mode::smooth));
   EXPECT_EQ(intr(0, 5)->op, nir::intrinsic_op::ddx);
   EXPECT_EQ(intr(0, 5)->srcs[0].ssa->index, 4u);
   EXPECT_EQ(intr(0, 6)->op, nir::intrinsic_op::ddy_fine);
   EXPECT_EQ(intr(0, 7)->dest.num_components, 16u);
   EXPECT_EQ(intr(0, 7)->index(nir::intrinsic_index::access),
             int(nir::access_can_speculate));
   const auto &sel = static_cast<const nir::alu_instr &>(*blocks[0]->instrs[8]);
   EXPECT_EQ(sel.op, nir::alu_op::fcsel_gt);
   EXPECT_EQ(sel.srcs[1].swizzle[0], 15u); /* .p */
   EXPECT_EQ(intr(1, 0)->op, nir::intrinsic_op::demote_if);
   EXPECT_TRUE(intr(8, 1)->get_io_semantics().invariant);
   EXPECT_EQ(intr(8, 1)->name, "gl_FragColor");
}

/* Absent in 25.0's header: a next_stage of MESA_SHADER_NONE. */
TEST(nir_text, mesa25_without_next_stage)
{
   const std::string text =
      replaced(canonical25, "next_stage: MESA_SHADER_FRAGMENT\n", "");
   auto s = nir::read_shader(text, "t25.nir");
   EXPECT_EQ(s->info.next_stage, int(nir::shader_stage::none));
   EXPECT_EQ(nir::print_shader(*s), text);
}

/* One text is one dialect: a form of the other is an error at its place. */
TEST(nir_text, mesa25_errors)
{
   const error_case cases[] = {
      {"23.3 header field", "name: test\n", "name: test\nstage: 4\n",
       "t.nir:4:1: 'stage' is a field of Mesa 23.3's print, the text before is "
       "Mesa 25.0's"},
      {"23.3 function line", "decl_function main () (entrypoint)",
       "decl_function main (0 params)",
       "t.nir:13:20: '(N params)' is Mesa 23.3's print, the text before is Mesa 25.0's"},
      {"23.3 empty groups", "@load_barycentric_pixel (interp_mode",
       "@load_barycentric_pixel () (interp_mode",
       "t.nir:19:46: '()' for no sources is Mesa 23.3's print, the text before is "
       "Mesa 25.0's"},
      {"numeric interp_mode", "(interp_mode=INTERP_MODE_SMOOTH)", "(interp_mode=1)",
       "t.nir:19:59: a numeric interp_mode is Mesa 23.3's print, the text before is "
       "Mesa 25.0's"},
      {"short blake3", "0x00000007, 0x00000008}", "0x00000007}",
       "t.nir:2:1: bad value for 'source_blake3'"},
      {"unknown next stage", "next_stage: MESA_SHADER_FRAGMENT",
       "next_stage: MESA_SHADER_PIXEL", "t.nir:4:1: bad value for 'next_stage'"},
      {"con on the end block", "    block b9:\n}", "    con block b9:\n}",
       "t.nir:61:5: the end block has no 'con'/'div'"},
      {"sources of an intrinsic without", "@ddx (%4)", "@ddx",
       "t.nir:22:26: expected '(' before the end of the line"},
   };
   for (const error_case &c : cases) {
      SCOPED_TRACE(c.name);
      EXPECT_EQ(error_of(replaced(canonical25, c.from, c.to)), c.message);
   }
   /* And the other way: 25.0's forms in a 23.3 text. */
   EXPECT_EQ(error_of(replaced(canonical, "    block b1:       // preds: b0",
                               "    div block b1:       // preds: b0")),
             "t.nir:25:9: 'con'/'div' before a block or loop is Mesa 25.0's print, "
             "the text before is Mesa 23.3's");
   EXPECT_EQ(error_of(replaced(canonical, "next_stage: 4", "next_stage: MESA_SHADER_FRAGMENT")),
             "t.nir:6:1: bad value for 'next_stage'");
}

/* 25.0's compute header: "workgroup_size:" (23.3: "workgroup-size:" and an
 * always-printed "shared-size:"), shared_size only when not 0.
 */
TEST(nir_text, mesa25_compute_header)
{
   const std::string text = R"(shader: MESA_SHADER_COMPUTE
name: cs
workgroup_size: 8, 4, 1
shared_size: 64
subgroup_size: 0
decl_function main () (entrypoint)

impl main {
    block b0:  // preds:, succs: b1
    block b1:
}
)";
   auto s = nir::read_shader(text, "cs25.nir");
   nir::validate(*s);
   EXPECT_EQ(s->dialect, nir::print_dialect::mesa_25_0);
   EXPECT_EQ(s->info.workgroup_size[1], 4u);
   EXPECT_EQ(s->info.shared_size, 64u);
   EXPECT_EQ(s->info.next_stage, int(nir::shader_stage::none));
   EXPECT_EQ(nir::print_shader(*s), text);
   /* 23.3's line makes the text 23.3's until 25.0's function line. */
   EXPECT_EQ(error_of(replaced(text, "workgroup_size:", "workgroup-size:")),
             "t.nir:6:20: a parameter list is Mesa 25.0's print, the text before is "
             "Mesa 23.3's");
}

/* Block labels past the reader's array (2^16) go through its map, as SSA
 * indices do: the phi, the CFG comments and the checks find them there.
 */
TEST(nir_text, large_block_labels)
{
   std::string text = canonical;
   for (const char *from : {"block b5:", "succs: b5 b6", "b8:       // preds: b5"}) {
      std::string to = from;
      to.replace(to.find("b5"), 2, "b70005");
      text = replaced(text, from, to);
   }
   auto s = nir::read_shader(text, "t.nir");
   nir::validate(*s);
   EXPECT_EQ(nir::blocks_in_order(*nir::entrypoint(*s)).size(), 10u);
   EXPECT_EQ(error_of(replaced(text, "block b8:       // preds: b70005",
                               "block b8:       // preds: b70006")),
             "t.nir:52:1: block b8: predecessors do not match the control flow "
             "(expected 'b70005')");
   EXPECT_EQ(error_of(replaced(text, "phi b1: %5, b2: %6", "phi b1: %5, b70006: %6")),
             "t.nir:34:33: unknown block b70006");
}

/* Numbers of up to nine digits take the reader's short path, longer ones
 * the checked one: both read the same values and give the same errors.
 */
TEST(nir_text, number_lengths)
{
   EXPECT_EQ(error_of(replaced(canonical, "ieq32 %8 (0x1)", "ieq32 %999999999 (0x1)")),
             "t.nir:39:31: use of undefined SSA value %999999999");
   EXPECT_EQ(error_of(replaced(canonical, "ieq32 %8 (0x1)", "ieq32 %1000000000 (0x1)")),
             "t.nir:39:31: use of undefined SSA value %1000000000");
   EXPECT_EQ(error_of(replaced(canonical, "ieq32 %8 (0x1)", "ieq32 %0000000008 (0x1)")),
             "");
   EXPECT_EQ(error_of(replaced(canonical, "ieq32 %8 (0x1)", "ieq32 %4294967295 (0x1)")),
             "t.nir:39:32: an SSA index is too large");
   EXPECT_EQ(error_of(replaced(canonical, "ieq32 %8 (0x1)", "ieq32 %99999999999999999999 (0x1)")),
             "t.nir:39:32: an SSA index is too large");
   EXPECT_EQ(error_of(replaced(canonical, "base=4, range=1", "base=4, range=4294967295")), "");
}

/* The opcode and enum names the reader looks up by hash: every name finds
 * its own value, a repeated name its first, and no other string matches.
 */
TEST(nir_text, name_lookups)
{
   for (unsigned i = 0; i < nir::num_alu_ops; i++) {
      nir::alu_op op;
      ASSERT_TRUE(nir::alu_op_from_name(nir::op_info(nir::alu_op(i)).name, &op));
      EXPECT_EQ(unsigned(op), i);
   }
   for (unsigned i = 0; i < nir::num_intrinsic_ops; i++) {
      nir::intrinsic_op op;
      ASSERT_TRUE(nir::intrinsic_op_from_name(nir::op_info(nir::intrinsic_op(i)).name, &op));
      EXPECT_EQ(unsigned(op), i);
   }
   nir::alu_op op;
   EXPECT_FALSE(nir::alu_op_from_name("fadd ", &op));
   EXPECT_FALSE(nir::alu_op_from_name("fad", &op));
   EXPECT_FALSE(nir::alu_op_from_name("", &op));
   nir::intrinsic_op iop;
   EXPECT_FALSE(nir::intrinsic_op_from_name("store_outputs", &iop));

   for (const nir::name_table *t :
        {&nir::varying_slot_names, &nir::frag_result_names, &nir::interp_mode_names,
         &nir::image_format_names, &nir::atomic_op_names, &nir::scope_names}) {
      for (unsigned i = 0; i < t->count; i++) {
         if (!t->names[i])
            continue;
         unsigned first = 0;
         while (!t->names[first] || std::string(t->names[first]) != t->names[i])
            first++;
         unsigned v;
         ASSERT_TRUE(nir::value_of(*t, t->names[i], &v)) << t->names[i];
         EXPECT_EQ(v, first) << t->names[i];
         EXPECT_FALSE(nir::value_of(*t, std::string(t->names[i]) + "_", &v));
      }
      unsigned v;
      EXPECT_FALSE(nir::value_of(*t, "NOT_A_NAME", &v));
   }
}

/* Instruction sources: inside the instruction up to four, on the heap past
 * that, the same list either way; new entries are default ones.
 */
TEST(nir_text, src_list)
{
   nir::src_list<nir::alu_src, 4> l;
   nir::def defs[20];
   for (unsigned i = 0; i < 20; i++) {
      nir::alu_src s;
      s.ssa = &defs[i];
      s.swizzle[0] = uint8_t(i % 16);
      l.push_back(s);
      ASSERT_EQ(l.size(), i + 1);
      for (unsigned k = 0; k <= i; k++) {
         EXPECT_EQ(l[k].ssa, &defs[k]);
         EXPECT_EQ(l[k].swizzle[0], k % 16);
      }
   }
   l.push_back(l[2]);   /* an element of the list itself, moved by the growth */
   EXPECT_EQ(l.back().ssa, &defs[2]);
   l.resize(3);
   ASSERT_EQ(l.size(), 3u);
   EXPECT_EQ(l[2].ssa, &defs[2]);
   l.resize(6);
   EXPECT_EQ(l[2].ssa, &defs[2]);
   for (unsigned k = 3; k < 6; k++) {
      EXPECT_EQ(l[k].ssa, nullptr);
      EXPECT_EQ(l[k].swizzle[0], 0);
      EXPECT_EQ(l[k].swizzle[15], 15);
   }
   l.resize(1);
   l.resize(4);
   EXPECT_EQ(l[0].ssa, &defs[0]);
   EXPECT_EQ(l[1].ssa, nullptr);
   EXPECT_EQ(l[1].swizzle[0], 0);   /* was 1 before the shrink: reset */
   EXPECT_EQ(l[1].swizzle[1], 1);
   unsigned n = 0;
   for (const nir::alu_src &s : l)
      n += s.ssa != nullptr;
   EXPECT_EQ(n, 1u);
   l.clear();
   EXPECT_TRUE(l.empty());
}
