/*
 * The differential check (docs/check.md): compile a NIR shader with ibis at
 * one SIMD width, run the binary on the EU simulator, run the NIR
 * interpreter on the same inputs, and compare what both wrote, channel by
 * channel.  The interpreter is the oracle.
 *
 * Inputs come from the interpreter's default inputs, varied by a seed:
 * uniforms, UBO and SSBO words, textures, attributes, varyings, the FS
 * channel mask (whole quads off), the CS workgroup.  They are mapped onto
 * the thread with the payload layout ibis compiled against (from_nir's,
 * which is brw's Gen9 layout), so a payload disagreement shows up as a
 * mismatch rather than being papered over.  A compute shader runs its
 * whole workgroup on both sides (every thread, one shared memory, real
 * barriers), and the group's final shared memory is compared too.
 *
 * Outputs are compared bit for bit, except where a value depends on an
 * operation Gen does not round correctly (frcp, frsq, fsqrt, fexp2, flog2,
 * fsin, fcos, fpow) or on filtered texturing: such a float output only
 * has to agree within a relative tolerance, one that went on through
 * monotone discontinuous operations (conversions to integer, comparisons,
 * control flow) is not compared, and one whose bits reached integer
 * operations is never compared.  The classification is per output
 * component and is printed with the result.  Then the interpreter runs
 * again with every approximate result moved to the edges of its error
 * bound: a word of an approximate or unchecked output that all those runs
 * agree on is compared bit for bit.
 */
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "ir/ibis_perf.h"
#include "isa/isa.h"
#include "nir/interp/nir_interp.h"
#include "nir/nir.h"
#include "sim/check/sim_check.h"

namespace ibis::check {

/* The binding table the check gives ibis (compile_options::abi, from_nir's
 * surface bases): textures and samplers at their index, UBO b at 64 + b,
 * SSBO b at 128 + b, as docs/sim.md lays out memory for ibis-run.
 */
constexpr unsigned bti_ubo = 64;
constexpr unsigned bti_ssbo = 128;

/* The options check_shader() compiles with: o plus the binding table. */
compile_options check_compile_options(const compile_options &o);

/* How an output is compared. */
enum class exactness : uint8_t {
   exact,         /* bit for bit (NaN matches any NaN) */
   approximate,   /* float within the relative tolerance below */
   unchecked,     /* an approximation reached a monotone discontinuous
                   * operation or a branch: compared bit for bit only where
                   * the perturbed interpreter runs agree (check.cpp) */
   opaque,        /* an approximate float's bits reached an integer or bit
                   * operation (or implicit derivatives in divergent
                   * control flow): never compared */
};

/* |got - want| <= rel_tolerance * max(|want|, 1): a few units of the
 * hardware's math error (a couple of ULP, 2^-20 absolute for sin/cos
 * near zero) amplified by later arithmetic.
 */
constexpr double rel_tolerance = 1.0 / 4096;

/* Per output component: "rt0.x" (FRAG_RESULT_DATA0 or COLOR), "depth",
 * "location 0.w" (VS: VARYING_SLOT_*), "ssbo 1" (a whole buffer), and
 * "kill" (FS: which channels demote or terminate; unchecked makes every
 * render-target output unchecked too).
 * lod_free: no sampler in the inputs picks a mip level (lod_free_inputs),
 * so an implicit-LOD lookup is as comparable as an explicit one.
 */
std::map<std::string, exactness> classify_outputs(const nir::shader &s,
                                                  bool lod_free = false);
/* Does every sampler of in sample one level only (no mip filter, or
 * single-level textures), so the level of detail changes nothing?
 */
bool lod_free_inputs(const nir::interp::inputs &in);
/* The output components stored as floats: there a denormal and a zero of
 * the same sign match (the shaders leave the denormal mode to the
 * implementation; Gen9 flushes by default).
 */
std::set<std::string> float_outputs(const nir::shader &s);
/* "rt0.x", "depth", "location 3.y"; index 1 (a dual-source blend's second
 * colour) is "rt0 dual.x".
 */
std::string output_component_name(nir::shader_stage st, unsigned location, unsigned comp,
                                  unsigned index = 0);

/* Input set `index` for s at simd: 0 is the interpreter's default inputs
 * (all channels), others vary them from seed.
 */
nir::interp::inputs make_inputs(const nir::shader &s, unsigned simd, uint64_t seed,
                                unsigned index);

enum class verdict : uint8_t {
   match,
   mismatch,
   compile_error,   /* ibis threw or did not compile this width */
   run_error,       /* the simulator threw (bad code or unmodelled path) */
   oracle_error,    /* the interpreter cannot run the shader (not ibis' fault) */
   unsupported,     /* the inputs do not map onto the simulator (cube maps, ...) */
};

const char *verdict_name(verdict v);

struct result {
   verdict v = verdict::match;
   /* The first difference ("FRAG_RESULT_DATA0.y channel 3: expected
    * 3f800000, got 00000000"), or the error.
    */
   std::string first;
   std::string log;             /* every mismatching channel */
   /* Both sides of every compared output, one line per output and side:
    * "rt0.x want: 3f800000 - ..." ("-": channel not compared).
    */
   std::string detail;
   unsigned mismatches = 0;
   unsigned input_set = 0;      /* the set that failed */
   unsigned compared = 0;       /* channel words compared */
   unsigned approximate = 0;    /* of which with a tolerance */
   unsigned unchecked = 0;      /* channel words skipped */
   /* Of compared: words of an approximate or unchecked output compared
    * bit for bit because the perturbed interpreter runs agree on them.
    */
   unsigned stable = 0;
   /* Of compared: words that match only the interpreter run that keeps
    * denormals (the shader leaves flushing to the target).
    */
   unsigned kept_denormals = 0;
   /* Instructions the simulator executed (every thread, every set run):
    * issued, the channels they ran on summed, and messages sent.
    */
   uint64_t executed = 0;
   uint64_t channel_executed = 0;
   uint64_t sends = 0;
   /* The executed instructions' estimated cycles (executed_cycles()). */
   uint64_t cycles = 0;
   /* How often each instruction of the binary issued (decode order),
    * summed like executed: the profile profile_text() prints.
    */
   std::vector<uint64_t> issued_at;
   /* Every output word compared or skipped, one line each, in the order
    * compared: "<class> <value> <want> <output>:<channel>", class e
    * (exact), a (within the tolerance), s (approximate or unchecked,
    * compared exactly as stable), u (unchecked or opaque: skipped); value
    * the program's word in hex or "none" (not written), want the
    * interpreter's (its plain run) in hex.  The same shader on the same
    * inputs lists the same words whoever compiled it, so brw's and ibis's
    * lists compare line by line (compare_words()).
    */
   std::string words;
};

/* Where a program expects its inputs and leaves its outputs: the thread
 * layout (sim/check's, shared with ibis-run) and, for a VS, the VUE map
 * (slot -> VARYING_SLOT_*; empty: brw's default map of what the
 * interpreter saw written).
 */
struct program_abi {
   sim::check::thread_layout layout;
   std::vector<int> vue_slots;
   /* CS: push registers, the subgroup id's dword in the GRF file. */
   unsigned cs_push_regs = 0;
   int cs_subgroup_id_dword = -1;
};

/* ibis's own: from_nir's payload layout for s at simd under o.abi, the
 * check's binding table (bti_ubo, bti_ssbo).  want (the interpreter's
 * outputs) decides the FS render-target payload parts.
 */
program_abi ibis_program_abi(const nir::shader &s, unsigned simd, const compile_options &o,
                             const nir::interp::outputs &want);

/* brw's, from what iris gave it (a brw-abi file): push data, setup slots,
 * payload parts at the dispatch GRF start of simd, the VUE map, and the
 * binding-table indices the corpus' NIR already uses.  An ABI the mapping
 * cannot reproduce (uniform params, constant data relocations, position
 * offsets) is an error.
 */
program_abi brw_program_abi(const nir::shader &s, unsigned simd, const brw_abi &a);

/* Runs an already compiled binary of s at simd on in and compares. */
result check_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
                    const nir::interp::inputs &in, const compile_options &o);
/* The same with the layout the binary was compiled for (brw's, say);
 * abi is a function of the interpreter's outputs (ibis_program_abi needs
 * them).
 */
result check_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
                    const nir::interp::inputs &in,
                    const std::function<program_abi(const nir::interp::outputs &)> &abi);

/* Runs `run` on input sets 0..sets-1 from seed and adds up the counts;
 * the first set that does not match ends it, its result carrying the
 * counts so far and its index.
 */
result check_sets(const nir::shader &s, unsigned simd, uint64_t seed, unsigned sets,
                  const std::function<result(const nir::interp::inputs &)> &run);

/* Checks brw's program `binary` of s at simd (laid out as a) on `sets`
 * input sets from seed, as check_shader() checks ibis's.
 */
result check_brw_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
                        const brw_abi &a, uint64_t seed, unsigned sets);

/* A corpus disassembly as stored (brw-asm/: the stats header, START/END
 * block lines, message descriptions) assembled for Gen9.
 */
std::vector<uint8_t> assemble_brw_asm(const std::string &text, const std::string &filename);

/* The dynamic scoreboard (docs/check.md): a hardware instruction as the
 * latency table (ir/ibis_perf.h) costs it, and the cycles of a run, each
 * instruction of binary (decode order) issued issued_at[k] times and
 * costing its issue and result latency, as if nothing overlapped.
 */
hw_instr hw_instr_of(const isa::inst &in);
uint64_t executed_cycles(const std::vector<uint8_t> &binary,
                         const std::vector<uint64_t> &issued_at);
/* The program's disassembly with, before each instruction, how often it
 * issued: where two programs of a shader differ in what they execute.
 */
std::string profile_text(const std::vector<uint8_t> &binary,
                         const std::vector<uint64_t> &issued_at);
/* Adds b's counts into a (the longer of the two). */
void add_issued(std::vector<uint64_t> &a, const std::vector<uint64_t> &b);

/* One program pair of the scoreboard: brw's and ibis's program of a
 * shader at a width, run on the same inputs.
 */
struct dynamic_row {
   std::string group;     /* "fs SIMD16" */
   std::string program;   /* brw-asm/'s file */
   /* executed instructions, channel-instructions, sends, estimated cycles */
   uint64_t brw[4] = {}, ibis[4] = {};
};
/* The rows as a tab-separated table with a header line, and back (a
 * malformed line is an error naming `name` and the line).
 */
std::string dynamic_rows_text(const std::vector<dynamic_row> &rows);
std::vector<dynamic_row> read_dynamic_rows(const std::string &text,
                                           const std::string &name = "dynamic report");
/* Per group: the totals of both, ibis/brw, helped and hurt (programs
 * where ibis executes fewer or more instructions) and the `worst`
 * programs of highest ibis/brw executed-instruction ratio.
 */
std::string dynamic_scoreboard(const std::vector<dynamic_row> &rows, unsigned worst = 10);

/* Two programs' output words (result::words) held to each other bit for
 * bit.  exact_*: words the interpreter compared exactly; loose_*: those
 * it compared within a tolerance or not at all, where two correct
 * compilers may differ (reassociated approximations).  A list that does
 * not line up (different words) counts in misaligned.
 */
struct word_agreement {
   uint64_t exact = 0, exact_differ = 0;
   uint64_t loose = 0, loose_differ = 0;
   uint64_t misaligned = 0;
   /* Of loose_differ: both words NaNs (of different bits, as a sign). */
   uint64_t loose_nan = 0;
   std::string first_differ;   /* the first differing word, both values */
   /* Every differing word, one line each: "set S <output>:<channel>
    * <class a>/<class b> <value a> <value b> interp <want>".
    */
   std::string differ_list;
};
word_agreement compare_words(const std::string &a, const std::string &b);

/* Compiles s at simd (compile_variant) and checks it on `sets` input sets
 * from seed; stops at the first set that does not match.
 */
result check_shader(const nir::shader &s, unsigned simd, uint64_t seed, unsigned sets,
                    const compile_options &o = compile_options());

/* The ibis-run command that reproduces a check. */
std::string repro_command(const std::string &nir_file, unsigned simd, uint64_t seed,
                          unsigned sets);

} /* namespace ibis::check */
