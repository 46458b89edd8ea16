/*
 * The pipeline driver: one width through every stage, with the retries of
 * pre-RA scheduling modes, and brw's SIMD selection across widths.
 *
 * Each scheduling attempt starts from a copy of the lowered program
 * (shader::clone()), which is translated, optimized and lowered once per
 * width.  Where the first attempt is expected to allocate, it takes the
 * program itself instead, and a retry translates again (the same
 * program).
 */
#include <cstdio>
#include <ctime>

#include "compiler/compiler_private.h"
#include "ir/ibis_perf.h"
#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "lower/lower.h"
#include "opt/opt.h"
#include "ra/ra.h"
#include "sched/sched.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

const char *
compile_stage_name(compile_stage st)
{
   switch (st) {
   case STAGE_TRANSLATE: return "translate";
   case STAGE_OPT: return "optimize";
   case STAGE_LOWER: return "lower";
   case STAGE_SCHED_PRE: return "schedule pre-RA";
   case STAGE_RA: return "allocate";
   case STAGE_SCHED_POST: return "schedule post-RA";
   case STAGE_CODEGEN: return "generate code";
   case STAGE_VALIDATE: return "validate";
   default: return "?";
   }
}

namespace {

/* Stage times are CPU time of the compiling thread, so that they mean the
 * same on a loaded machine and with several compiles in parallel.
 */
struct clock_type {
   using time_point = double;
   static time_point now()
   {
      timespec ts;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
   }
};

/* The optimization passes in pipeline order (as ibis-compile ran them
 * before the back half existed).
 */
const struct {
   const char *name;
   bool (*run)(shader &);
} opt_pipeline[] = {
   {"copy-prop", opt_copy_prop}, {"cse", opt_cse}, {"hoist", opt_hoist},
   {"algebraic", opt_algebraic}, {"constant-fold", opt_constant_fold},
   {"copy-prop", opt_copy_prop}, {"sat-prop", opt_sat_prop},
   {"cmod-prop", opt_cmod_prop},
   {"licm", opt_licm}, {"dce", opt_dce}, {"sink", opt_sink},
};

const sched_mode pre_ra_modes[] = {
   sched_mode::latency, sched_mode::pressure, sched_mode::none,
   sched_mode::narrow,   /* costs cycles: only where nothing else fits */
};

/* One compile's context: options, device, flags and the time sheet. */
struct context {
   const nir::shader &nir;
   const compile_options &o;
   const device_info &dev;
   uint64_t flags;
   double *seconds;
   /* from_nir's analysis, the same at every width and attempt. */
   std::shared_ptr<const nir_facts> facts;

   bool validating() const
   {
#ifndef NDEBUG
      return true;
#else
      return (flags & DEBUG_VALIDATE) != 0;
#endif
   }

   void emit(const std::string &text) const
   {
      if (o.dump)
         o.dump(text);
      else
         std::fwrite(text.data(), 1, text.size(), stderr);
   }

   void dump_ir(const shader &s, uint64_t flag, const std::string &when) const
   {
      if (flags & flag)
         emit("; " + when + "\n" + s.str());
   }

   /* Validates (when asked or in debug builds) and dumps after a stage. */
   void after(shader &s, uint64_t flag, const std::string &when) const
   {
      if (validating()) {
         const auto t = clock_type::now();
         /* Allocated IR is out of SSA: the IR validator checks its form
          * and the hardware rules, the allocation validator its registers.
          */
         validate(s, when.c_str());
         if (s.allocated)
            validate_allocation(s);
         seconds[STAGE_VALIDATE] += elapsed(t);
      }
      dump_ir(s, flag, when);
   }

   static double elapsed(clock_type::time_point t)
   {
      return clock_type::now() - t;
   }
};

/* The NIR analysis every width's translation shares, timed as translation. */
void
analyze(context &c)
{
   const auto t = clock_type::now();
   c.facts = analyze_nir_shader(c.nir);
   c.seconds[STAGE_TRANSLATE] += context::elapsed(t);
}

std::string
width_tag(unsigned simd)
{
   return "SIMD" + std::to_string(simd);
}

/* Translation and optimization. */
std::unique_ptr<shader>
translate_and_optimize(const context &c, unsigned simd)
{
   const std::string tag = width_tag(simd) + ", ";
   auto t = clock_type::now();
   from_nir_options fo = c.o.abi;
   fo.dispatch_width = simd;
   fo.device = &c.dev;
   std::unique_ptr<shader> s = from_nir(c.nir, fo, c.facts);
   c.seconds[STAGE_TRANSLATE] += context::elapsed(t);
   c.after(*s, DEBUG_IR, tag + "after translation");

   /* The thread's CPU clock is a system call: with nothing to validate
    * or dump between the passes, one reading covers them all.
    */
   if (!c.validating() && !(c.flags & DEBUG_OPT)) {
      t = clock_type::now();
      for (const auto &p : opt_pipeline)
         p.run(*s);
      c.seconds[STAGE_OPT] += context::elapsed(t);
      return s;
   }
   for (const auto &p : opt_pipeline) {
      t = clock_type::now();
      p.run(*s);
      c.seconds[STAGE_OPT] += context::elapsed(t);
      c.after(*s, DEBUG_OPT, tag + "after " + p.name);
   }
   return s;
}

/* Translation, optimization and lowering: the part each scheduling
 * attempt repeats.  Its dumps are shown for the first attempt only.
 */
std::unique_ptr<shader>
front_end(const context &c, unsigned simd, bool first)
{
   context quiet = c;
   if (!first)
      quiet.flags &= ~uint64_t(DEBUG_IR | DEBUG_OPT | DEBUG_LOWER);
   std::unique_ptr<shader> s = translate_and_optimize(quiet, simd);
   auto t = clock_type::now();
   lower(*s, c.dev);
   opt_combine_constants(*s);
   /* Lowering's immediates, loaded where they dominate their readers,
    * may be in a loop.
    */
   opt_licm(*s);
   opt_cse(*s);
   opt_dce(*s);
   opt_empty_else(*s);
   c.seconds[STAGE_LOWER] += context::elapsed(t);
   quiet.after(*s, DEBUG_LOWER, width_tag(simd) + ", after lowering");
   return s;
}

/* The narrowing retry's pass over the lowered program; false if no phi
 * fits a word.
 */
bool
narrow_phis(const context &c, shader &s, unsigned simd)
{
   const auto t = clock_type::now();
   const bool changed = opt_narrow_phis(s);
   c.seconds[STAGE_LOWER] += context::elapsed(t);
   if (changed)
      c.after(s, DEBUG_LOWER, width_tag(simd) + ", after narrow-phis");
   return changed;
}

/* brw's "Promoted N constants": the immediates loaded into a register
 * because their readers cannot encode them (opt_combine_constants' loads;
 * a 4-wide vector-float load counts its distinct channels, a 64-bit
 * pair its distinct halves).
 */
unsigned
count_promoted_constants(const shader &s)
{
   unsigned n = 0;
   for (const auto &b : s.blocks()) {
      for (const instr *in : b->instrs()) {
         if (in->op == opcode::mov && in->exec_size == 4 && in->we_all() &&
             in->num_srcs() == 1 && in->src(0).is_imm() &&
             in->src(0).type == data_type::vf && in->num_dsts() == 1 &&
             in->dst(0).val && in->dst(0).val->file == reg_file::ssa &&
             !(in->flags & (INSTR_SPILL | INSTR_FILL))) {
            const uint64_t v = in->src(0).imm;
            for (unsigned l = 0; l < 4; l++) {
               bool seen = false;
               for (unsigned k = 0; k < l; k++)
                  seen |= ((v >> (8 * k)) & 0xff) == ((v >> (8 * l)) & 0xff);
               n += !seen;
            }
            continue;
         }
         /* combine-constants' pair of 32-bit constants in one 64-bit
          * load: its halves are read as 32-bit scalars.
          */
         if (in->op == opcode::mov && in->exec_size == 1 && in->we_all() &&
             in->num_srcs() == 1 && in->src(0).is_imm() &&
             in->src(0).type == data_type::u64 && in->num_dsts() == 1 &&
             in->dst(0).val && in->dst(0).val->file == reg_file::ssa &&
             !in->dst(0).val->uses().empty() &&
             !(in->flags & (INSTR_SPILL | INSTR_FILL))) {
            bool halves = true;
            for (const use &u : in->dst(0).val->uses())
               halves &= u.slot >= 0 && type_bits(u.in->src(u.slot).type) == 32;
            if (halves) {
               const uint64_t v = in->src(0).imm;
               n += 1 + (uint32_t(v) != uint32_t(v >> 32));
               continue;
            }
         }
         n += in->op == opcode::mov && in->exec_size == 1 && in->we_all() &&
              in->num_srcs() == 1 && in->src(0).is_imm() && in->num_dsts() == 1 &&
              in->dst(0).val && in->dst(0).val->file == reg_file::ssa &&
              in->dst(0).val->width == 1 && !(in->flags & (INSTR_SPILL | INSTR_FILL));
      }
   }
   return n;
}

/* Below this MaxLive at the next narrower width, a width's first
 * scheduling mode is expected to allocate: its values are at most twice
 * as wide, well inside the 128-GRF file.  In the corpus no SIMD16 or
 * SIMD32 width below it needed a second mode (331 and 198 widths), and
 * 1 SIMD8 width of 857 did.  A wrong guess costs a second translation,
 * never a different program.
 */
constexpr unsigned first_mode_fits_below = 40;

/* Compiles one width.  Without spilling allowed, a width that does not
 * allocate in any scheduling mode comes back with compiled = false and
 * the reason.  Throws ibis::error for anything else that fails.
 * first_fits: the first scheduling mode is expected to allocate, so the
 * first attempt needs no copy of the lowered program.
 */
compiled_variant
compile_width(const context &c, unsigned simd, bool allow_spilling, bool first_fits)
{
   compiled_variant v;
   v.simd = simd;
   double *const outer = c.seconds;
   context ctx = c;
   ctx.seconds = v.stage_seconds;
   const std::string tag = width_tag(simd) + ", ";

   std::unique_ptr<shader> s;
   ra_result ra;
   sched_mode mode = sched_mode::none;
   sched_mode best_mode = pre_ra_modes[0];
   unsigned best_pressure = ~0u;
   bool allocated = false;
   /* A SIMD32 program that does not fit with its values split into
    * SIMD16 halves may still fit with its phis whole (tesseract/367.fs)
    * or all of them whole (warsow/136.fs: the texture results then die
    * component by component).  Level 2 splits all, 1 not the phis, 0
    * nothing.
    */
   std::vector<std::pair<sched_mode, unsigned>> tries;
   for (unsigned level : {2u, 1u, 0u}) {
      if (level < 2 && simd != 32)
         break;
      for (sched_mode m : pre_ra_modes)
         tries.push_back({m, level});
   }
   std::vector<sched_mode> over;   /* modes MaxLive alone ruled out */
   /* The lowered program, kept for the retries (each starts from a copy
    * of it; translating again gave the same program at many times the
    * cost: the largest ubershaders try SIMD16 in all three modes).
    */
   std::unique_ptr<shader> lowered;
   /* The retry of a SIMD16 width that does not fit: its integer phis
    * that fit a word become 16-bit (opt_narrow_phis; it costs
    * conversions, so only where nothing else allocates).
    */
   bool narrow = false;
   auto next_program = [&](bool last) {
      if (!lowered) {
         lowered = front_end(ctx, simd, v.attempts.empty());
         if (narrow)
            narrow_phis(ctx, *lowered, simd);
         /* Most value ids are dead by now (about 3 in 4 in the
          * ubershaders): every attempt's liveness and allocation work
          * on the compacted ids.
          */
         const auto t0 = clock_type::now();
         lowered->compact_values();
         v.stage_seconds[STAGE_LOWER] += context::elapsed(t0);
      }
      if (last || (first_fits && v.attempts.empty()))
         return std::move(lowered);
      const auto t0 = clock_type::now();
      std::unique_ptr<shader> copy = lowered->clone();
      v.stage_seconds[STAGE_LOWER] += context::elapsed(t0);
      ctx.after(*copy, 0, tag + "copy of the lowered program");
      return copy;
   };
   /* Then the modes again with narrowed phis (SIMD16), before spilling. */
   const size_t narrow_from = tries.size();
   if (simd == 16)
      for (sched_mode m : pre_ra_modes)
         tries.push_back({m, 2u});
   for (size_t ti = 0; ti < tries.size(); ti++) {
      if (ti == narrow_from) {
         narrow = true;
         over.clear();
         if (lowered && !narrow_phis(ctx, *lowered, simd))
            break;
      }
      auto [m, level] = tries[ti];
      /* Splitting does not change MaxLive. */
      if (std::find(over.begin(), over.end(), m) != over.end())
         continue;
      mode = m;
      /* The last try of a width that may not spill needs no copy. */
      s = next_program(!allow_spilling && ti + 1 == tries.size());
      auto t = clock_type::now();
      schedule_pre_ra(*s, c.dev, m);
      v.stage_seconds[STAGE_SCHED_PRE] += context::elapsed(t);
      ctx.after(*s, DEBUG_SCHED,
                tag + "after pre-RA scheduling (" + sched_mode_name(m) + ")");

      t = clock_type::now();
      ra_options ro;
      ro.allow_spilling = false;
      ro.split_halves = level > 0;
      ro.split_phi_halves = level > 1;
      ra = allocate_registers(*s, c.dev, ro);
      v.stage_seconds[STAGE_RA] += context::elapsed(t);
      const std::string name = std::string(sched_mode_name(m)) +
                               (level == 2 ? "" : level == 1 ? " (SIMD32 phis whole)"
                                           : " (SIMD32 values whole)") +
                               (narrow ? " (16-bit phis)" : "");
      if (ra.success) {
         v.attempts.push_back(name + ": allocated");
         allocated = true;
         if (narrow)
            v.last_resort = "16-bit phis";
         else if (m == sched_mode::narrow)
            v.last_resort = "the narrow schedule";
         break;
      }
      v.attempts.push_back(name + ": " +
                           (ra.failure.empty() ? "does not fit" : ra.failure));
      if (ra.gave_up_early) {
         over.push_back(m);
         if (ti == 0)
            v.first_schedule_over = ra.max_live;
      }
      /* Spilling keeps to the first three modes' schedules. */
      if (m != sched_mode::narrow && !narrow && ra.max_live < best_pressure) {
         best_pressure = ra.max_live;
         best_mode = m;
      }
   }

   if (!allocated) {
      if (!allow_spilling) {
         v.reason = "register allocation failed without spilling in every "
                    "scheduling mode (" +
                    (ra.failure.empty() ? std::string("does not fit") : ra.failure) +
                    ")";
         for (unsigned i = 0; i < NUM_COMPILE_STAGES; i++)
            outer[i] += v.stage_seconds[i];
         return v;
      }
      /* Spill from the schedule with the lowest pressure, as brw does,
       * and from the program with its phis whole.
       */
      if (narrow) {
         narrow = false;
         lowered.reset();
      }
      mode = best_mode;
      s = next_program(true);
      auto t = clock_type::now();
      schedule_pre_ra(*s, c.dev, mode);
      v.stage_seconds[STAGE_SCHED_PRE] += context::elapsed(t);
      ctx.after(*s, DEBUG_SCHED,
                tag + "after pre-RA scheduling (" + sched_mode_name(mode) + ")");
      t = clock_type::now();
      ra = allocate_registers(*s, c.dev, ra_options{});
      v.stage_seconds[STAGE_RA] += context::elapsed(t);
      if (!ra.success)
         throw error(c.nir.file + ": " + width_tag(simd) +
                     ": register allocation failed: " + ra.failure);
      v.attempts.push_back(std::string(sched_mode_name(mode)) + ": allocated with " +
                           std::to_string(ra.spills) + " spills");
   }
   ctx.after(*s, DEBUG_RA, tag + "after register allocation");

   auto t = clock_type::now();
   mark_uniform_branches(*s);
   const unsigned cycles = schedule_post_ra(*s, c.dev);
   v.stage_seconds[STAGE_SCHED_POST] += context::elapsed(t);
   ctx.after(*s, DEBUG_SCHED, tag + "after post-RA scheduling");

   t = clock_type::now();
   const uint64_t own = c.o.dump ? c.flags : c.o.debug;
   codegen_result cg = generate_code(*s, c.dev, c.o.disasm || (own & DEBUG_ASM),
                                     &cycles);
   v.stage_seconds[STAGE_CODEGEN] += context::elapsed(t);
   if (ctx.validating()) {
      t = clock_type::now();
      validate_code(cg.binary, c.dev);
      v.stage_seconds[STAGE_VALIDATE] += context::elapsed(t);
   }

   v.compiled = true;
   v.binary = std::move(cg.binary);
   v.disasm = std::move(cg.disasm);
   v.stats = cg.stats;
   v.stats.sched_mode = sched_mode_name(mode);
   v.stats.promoted_constants = count_promoted_constants(*s);
   if (!v.stats.spills && !v.stats.fills) {
      v.stats.spills = ra.spills;
      v.stats.fills = ra.fills;
   }
   v.stats_text = stats_line(*s, v.stats);
   v.scratch_bytes = s->scratch_bytes;
   v.grfs_used = ra.grfs_used;
   v.max_live = ra.max_live;
   v.dispatch_grf_start = dispatch_grf_start(c.nir, c.o.abi, simd);
   v.throughput = v.stats.cycles ? double(simd) / v.stats.cycles : double(simd);

   /* generate_code() itself prints IBIS_DEBUG's asm and stats to stderr;
    * the driver adds them where that does not reach: a caller's sink, or
    * flags the caller asked for.
    */
   if (own & DEBUG_ASM)
      ctx.emit("; " + width_tag(simd) + " assembly\n" + v.disasm);
   if (own & DEBUG_STATS)
      ctx.emit(v.stats_text + "\n");
   for (unsigned i = 0; i < NUM_COMPILE_STAGES; i++)
      outer[i] += v.stage_seconds[i];
   return v;
}

/* A width that fails with an error (not a spill) is reported, not fatal,
 * unless it is the width every shader must have.
 */
compiled_variant
try_width(const context &c, unsigned simd, bool allow_spilling, bool required,
          unsigned narrower_max_live)
{
   const bool first_fits = simd == 8 || narrower_max_live < first_mode_fits_below;
   if (required)
      return compile_width(c, simd, allow_spilling, first_fits);
   try {
      return compile_width(c, simd, allow_spilling, first_fits);
   } catch (const error &e) {
      compiled_variant v;
      v.simd = simd;
      v.reason = e.what();
      return v;
   }
}

bool
wanted(const compile_options &o, unsigned simd)
{
   if (o.widths.empty())
      return true;
   for (unsigned w : o.widths)
      if (w == simd)
         return true;
   return false;
}

compiled_variant
skipped(unsigned simd, const std::string &why)
{
   compiled_variant v;
   v.simd = simd;
   v.reason = why;
   return v;
}

void
check_stage(const nir::shader &s)
{
   switch (s.info.stage) {
   case nir::shader_stage::vertex:
   case nir::shader_stage::fragment:
   case nir::shader_stage::compute:
   case nir::shader_stage::kernel:
      return;
   default:
      throw error(s.file + ": cannot compile a " +
                  std::string(nir::stage_name(s.info.stage)) +
                  " shader (vertex, fragment and compute only)");
   }
}

/* brw_compile_fs on Gen9: SIMD8 always (spilling allowed); SIMD16 when
 * SIMD8 did not spill, without spilling; SIMD32 when neither spilled and
 * SIMD16 did not fail, kept only if its throughput beats the best so far.
 */
void
select_fs(const context &c, std::vector<compiled_variant> &vs)
{
   double throughput = 0;
   bool has_spilled = false;
   bool allow_spilling = true;
   bool simd16_failed = false;
   /* How SIMD16 fit, when it only just did, and its MaxLive. */
   std::string simd16_last_resort;
   unsigned simd16_max_live = 0, simd16_first_over = 0;
   /* MaxLive of the widest width compiled so far (unknown: none). */
   unsigned narrower_max_live = ~0u;

   if (wanted(c.o, 8)) {
      compiled_variant v8 = try_width(c, 8, true, true, narrower_max_live);
      v8.kept = true;
      narrower_max_live = v8.max_live;
      throughput = v8.throughput;
      has_spilled = v8.stats.spills > 0;
      allow_spilling = false;
      vs.push_back(std::move(v8));
   }

   if (wanted(c.o, 16)) {
      if (has_spilled) {
         vs.push_back(skipped(16, "skipped: SIMD8 spilled"));
      } else {
         compiled_variant v16 = try_width(c, 16, allow_spilling, vs.empty(),
                                          narrower_max_live);
         if (v16.compiled) {
            v16.kept = true;
            simd16_last_resort = v16.last_resort;
            simd16_max_live = v16.max_live;
            simd16_first_over = v16.first_schedule_over;
            narrower_max_live = v16.max_live;
            throughput = std::max(throughput, v16.throughput);
            has_spilled = v16.stats.spills > 0;
            allow_spilling = false;
         } else {
            simd16_failed = true;
         }
         vs.push_back(std::move(v16));
      }
   }

   if (wanted(c.o, 32)) {
      if (has_spilled) {
         vs.push_back(skipped(32, "skipped: a narrower width spilled"));
      } else if (simd16_failed) {
         vs.push_back(skipped(32, "skipped: SIMD16 failed"));
      } else if (!simd16_last_resort.empty() && !c.o.force_simd32) {
         /* SIMD16 only just fit: SIMD32, with twice the registers per
          * value, cannot without spilling (the 10 dolphin ubershaders
          * of the corpus where this holds fail all 12 SIMD32 attempts).
          */
         vs.push_back(skipped(32, strfmt("skipped: SIMD16 allocated only with "
                                         "%s (MaxLive %u GRFs)",
                                         simd16_last_resort.c_str(),
                                         simd16_max_live)));
      } else if (simd16_first_over && !c.o.force_simd32) {
         /* SIMD16's latency schedule was over the register file by
          * MaxLive alone: in the corpus SIMD32 then never allocates (15
          * dolphin and tesseract shaders fail all its attempts) and the
          * attempts cost about 30 ms each.
          */
         vs.push_back(skipped(32, strfmt("skipped: SIMD16's latency schedule needed "
                                         "MaxLive %u GRFs", simd16_first_over)));
      } else {
         compiled_variant v32 = try_width(c, 32, allow_spilling, vs.empty(),
                                          narrower_max_live);
         if (v32.compiled) {
            if (c.o.force_simd32 || v32.throughput > throughput) {
               v32.kept = true;
               if (c.o.force_simd32 && v32.throughput <= throughput)
                  v32.reason = "kept by force_simd32";
            } else {
               v32.reason = strfmt("not faster: estimated throughput %.5f "
                                   "channels/cycle, narrower width %.5f",
                                   v32.throughput, throughput);
            }
         }
         vs.push_back(std::move(v32));
      }
   }
}

/* brw_compile_cs on Gen9 (brw_simd_selection.c): SIMD8 may spill; wider
 * widths only when the workgroup needs them and they allocate without
 * spilling; SIMD32 only on request.  One program is dispatched: the
 * widest that compiled.
 */
void
select_cs(const context &c, std::vector<compiled_variant> &vs)
{
   const auto &ws = c.nir.info.workgroup_size;
   const unsigned group = c.nir.info.workgroup_size_variable
                             ? 1024u : unsigned(ws[0]) * ws[1] * ws[2];
   unsigned lowest = 0;
   unsigned narrower_max_live = ~0u;
   for (unsigned simd : {8u, 16u, 32u}) {
      if (!wanted(c.o, simd))
         continue;
      if (lowest) {
         if (group <= lowest) {
            vs.push_back(skipped(simd, strfmt("skipped: the workgroup of %u "
                                              "fits SIMD%u", group, lowest)));
            continue;
         }
         if (simd == 32 && !c.o.force_simd32) {
            vs.push_back(skipped(32, "skipped: SIMD32 not required "
                                     "(force_simd32 compiles it)"));
            continue;
         }
      }
      compiled_variant v = try_width(c, simd, !lowest, !lowest, narrower_max_live);
      if (v.compiled && v.stats.spills && lowest) {
         v.compiled = false;
         v.reason = "spills";
      }
      narrower_max_live = v.compiled ? v.max_live : ~0u;
      if (!lowest && v.compiled)
         lowest = simd;
      vs.push_back(std::move(v));
   }
   compiled_variant *best = nullptr;
   for (compiled_variant &v : vs) {
      if (v.compiled)
         best = &v;
   }
   if (best)
      best->kept = true;
   for (compiled_variant &v : vs) {
      if (v.compiled && !v.kept)
         v.reason = "not kept: a wider width compiled";
   }
}

} /* anonymous namespace */

std::unique_ptr<shader>
compile_front_end(const nir::shader &s, unsigned simd, const compile_options &o)
{
   check_stage(s);
   double seconds[NUM_COMPILE_STAGES] = {};
   context c{s, o, o.device ? *o.device : device_by_name("skl"),
             o.debug | debug_flags(), seconds};
   analyze(c);
   return translate_and_optimize(c, simd);
}

compiled_variant
compile_variant(const nir::shader &s, unsigned simd, const compile_options &o)
{
   check_stage(s);
   if (simd != 8 && simd != 16 && simd != 32)
      throw error(strfmt("SIMD%u: widths are 8, 16 and 32", simd));
   if (s.info.stage == nir::shader_stage::vertex && simd != 8)
      throw error(strfmt("a vertex shader runs at SIMD8, not SIMD%u", simd));
   double seconds[NUM_COMPILE_STAGES] = {};
   context c{s, o, o.device ? *o.device : device_by_name("skl"),
             o.debug | debug_flags(), seconds};
   analyze(c);
   compiled_variant v = compile_width(c, simd, true, simd == 8);
   v.kept = true;
   return v;
}

compile_result
compile_shader(const nir::shader &s, const compile_options &o)
{
   check_stage(s);
   double seconds[NUM_COMPILE_STAGES] = {};
   context c{s, o, o.device ? *o.device : device_by_name("skl"),
             o.debug | debug_flags(), seconds};
   analyze(c);
   if (c.flags & DEBUG_NIR)
      c.emit(nir::print_shader(s));

   compile_result r;
   for (unsigned w : o.widths) {
      if (w != 8 && w != 16 && w != 32)
         throw error(strfmt("SIMD%u: widths are 8, 16 and 32", w));
   }
   switch (s.info.stage) {
   case nir::shader_stage::vertex:
      if (!wanted(o, 8))
         throw error("a vertex shader runs at SIMD8 only");
      r.variants.push_back(try_width(c, 8, true, true, ~0u));
      r.variants.back().kept = true;
      break;
   case nir::shader_stage::fragment:
      select_fs(c, r.variants);
      break;
   default:
      select_cs(c, r.variants);
      break;
   }

   bool any = false;
   for (const compiled_variant &v : r.variants)
      any |= v.kept;
   if (!any) {
      std::string why;
      for (const compiled_variant &v : r.variants)
         why += strfmt("%sSIMD%u: %s", why.empty() ? "" : "; ", v.simd,
                       v.reason.c_str());
      throw error(s.file + ": no width compiled (" + why + ")");
   }

   r.prog = compute_prog_data(s, o.abi);
   for (compiled_variant &v : r.variants) {
      if (!v.kept)
         continue;
      /* Kernels start on 64-byte boundaries, as brw places them. */
      while (r.binary.size() % 64)
         r.binary.push_back(0);
      v.offset = unsigned(r.binary.size());
      r.binary.insert(r.binary.end(), v.binary.begin(), v.binary.end());
      r.prog.scratch_bytes = std::max(r.prog.scratch_bytes, v.scratch_bytes);
      int *offset = v.simd == 8 ? &r.prog.offset_simd8
                    : v.simd == 16 ? &r.prog.offset_simd16 : &r.prog.offset_simd32;
      unsigned *grf = v.simd == 8 ? &r.prog.dispatch_grf_start_simd8
                      : v.simd == 16 ? &r.prog.dispatch_grf_start_simd16
                                     : &r.prog.dispatch_grf_start_simd32;
      *offset = int(v.offset);
      *grf = v.dispatch_grf_start;
   }
   return r;
}

std::string
shaderdb_lines(const std::string &name, const compile_result &r)
{
   std::string out;
   for (const compiled_variant &v : r.variants) {
      if (v.kept)
         out += name + " - " + v.stats_text + "\n";
   }
   return out;
}

} /* namespace ibis */
