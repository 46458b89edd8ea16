/*
 * ibis-compile FILE.nir [--platform skl] [--simd 8|16|32] [--do32]
 *              [--abi FILE] [--dump STAGE,...] [-o FILE.bin]
 *
 * Compiles a NIR shader through the whole pipeline with brw's SIMD
 * selection (or one width with --simd) and prints each width's outcome and
 * stats line.  --dump prints stages to stdout: nir, ir, opt, lower, sched,
 * ra, asm, stats, validate (run the validator after every pass), all.
 * Asked only for nir, ir or opt (and no -o), it stops after the
 * optimization passes, for every width of the stage.  -o writes the
 * program: every kept kernel at its offset, or with --simd that width's
 * kernel alone (what ibis-disasm and i965_disasm read).  --prog-data
 * prints the prog data after the compile; --layout prints the part of it
 * that needs no code (push, URB, FS flags) without compiling.
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace {

void
usage(FILE *f)
{
   std::fprintf(f,
      "usage: ibis-compile FILE.nir [--platform skl] [--simd 8|16|32] [--do32]\n"
      "                    [--abi FILE] [--dump nir,ir,opt,lower,sched,ra,asm,stats,validate,all]\n"
      "                    [--prog-data] [--layout] [-o FILE.bin]\n");
}

struct options {
   std::string input;
   std::string platform = "skl";
   unsigned simd = 0;  /* 0: let the compiler choose */
   bool do32 = false;
   uint64_t dumps = 0;
   std::string abi;
   std::string output;
   bool prog_data = false;
   bool layout = false;
};

/* Throws ibis::error for a bad command line. */
options
parse_args(int argc, char **argv)
{
   options o;
   auto value = [&](int &i) -> std::string {
      if (i + 1 >= argc)
         throw ibis::error(ibis::strfmt("option '%s' needs a value", argv[i]));
      return argv[++i];
   };
   for (int i = 1; i < argc; i++) {
      const std::string a = argv[i];
      if (a == "--platform") {
         o.platform = value(i);
      } else if (a == "--simd") {
         const std::string v = value(i);
         if (v != "8" && v != "16" && v != "32")
            throw ibis::error("--simd takes 8, 16 or 32, not '" + v + "'");
         o.simd = unsigned(std::stoul(v));
      } else if (a == "--do32") {
         o.do32 = true;
      } else if (a == "--dump") {
         o.dumps |= ibis::parse_debug_flags(value(i));
      } else if (a == "--prog-data") {
         o.prog_data = true;
      } else if (a == "--layout") {
         o.layout = true;
      } else if (a == "--abi") {
         o.abi = value(i);
      } else if (a == "-o") {
         o.output = value(i);
      } else if (a == "-h" || a == "--help") {
         usage(stdout);
         std::exit(0);
      } else if (!a.empty() && a[0] == '-') {
         throw ibis::error("unknown option '" + a + "'");
      } else if (o.input.empty()) {
         o.input = a;
      } else {
         throw ibis::error("more than one input file");
      }
   }
   if (o.input.empty())
      throw ibis::error("no input file");
   return o;
}

void
write_file(const std::string &path, const std::vector<uint8_t> &bytes)
{
   FILE *f = std::fopen(path.c_str(), "wb");
   if (!f)
      throw ibis::error(path + ": cannot write");
   const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
   if (std::fclose(f) != 0 || !ok)
      throw ibis::error(path + ": write failed");
}

void
out(const std::string &text)
{
   std::fwrite(text.data(), 1, text.size(), stdout);
}

std::string
list(const std::vector<int> &v)
{
   std::string s;
   for (int x : v)
      s += " " + std::to_string(x);
   return s.empty() ? " -" : s;
}

/* The prog data, one "key value" line each, for scripts and people. */
void
print_prog_data(const ibis::prog_data &p)
{
   std::string ranges;
   for (const ibis::push_range &r : p.push_ranges)
      ranges += ibis::strfmt(" %u:%u+%u", r.block, r.start, r.length);
   out(ibis::strfmt("prog_data.kernel_offset %d %d %d\n"
                    "prog_data.dispatch_grf_start %u %u %u\n"
                    "prog_data.push_regs %u\n"
                    "prog_data.push_uniform_regs %u\n"
                    "prog_data.push_ranges%s\n"
                    "prog_data.scratch_bytes %u\n",
                    p.offset_simd8, p.offset_simd16, p.offset_simd32,
                    p.dispatch_grf_start_simd8, p.dispatch_grf_start_simd16,
                    p.dispatch_grf_start_simd32, p.push_regs, p.push_uniform_regs,
                    ranges.empty() ? " -" : ranges.c_str(), p.scratch_bytes));
   if (p.stage == ibis::nir::shader_stage::vertex) {
      out("prog_data.vs_attrs" + list(p.vs_attr_slots) + "\n");
      out("prog_data.vue_slots" + list(p.vue_slots) + "\n");
      out(ibis::strfmt("prog_data.urb_read_length %u\nprog_data.urb_entry_size %u\n",
                       p.urb_read_length, p.urb_entry_size));
   } else if (p.stage == ibis::nir::shader_stage::fragment) {
      out("prog_data.urb_setup" + list(p.urb_setup) + "\n");
      out(ibis::strfmt("prog_data.flat_inputs 0x%llx\n"
                       "prog_data.barycentric_modes 0x%x\n"
                       "prog_data.uses_kill %d\nprog_data.writes_omask %d\n"
                       "prog_data.uses_src_depth %d\nprog_data.uses_src_w %d\n"
                       "prog_data.computes_depth %d\n",
                       (unsigned long long)p.flat_inputs, p.barycentric_modes,
                       p.uses_kill, p.writes_omask, p.uses_src_depth, p.uses_src_w,
                       p.computes_depth));
   } else {
      out(ibis::strfmt("prog_data.local_size %u %u %u\n", p.local_size[0],
                       p.local_size[1], p.local_size[2]));
   }
}

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   try {
      const options a = parse_args(argc, argv);
      ibis::compile_options o;
      o.device = &ibis::device_by_name(a.platform);
      o.force_simd32 = a.do32;
      o.debug = a.dumps;
      o.dump = out;
      if (!a.abi.empty())
         ibis::apply_abi_file(a.abi, o.abi);

      std::unique_ptr<ibis::nir::shader> s = ibis::nir::read_shader_file(a.input);
      ibis::nir::validate(*s);

      /* The layout alone needs no code. */
      if (a.layout) {
         print_prog_data(ibis::shader_layout(*s, o.abi));
         return 0;
      }

      const uint64_t back_end = ~uint64_t(ibis::DEBUG_NIR | ibis::DEBUG_IR |
                                          ibis::DEBUG_OPT | ibis::DEBUG_VALIDATE);
      const uint64_t front_end = ibis::DEBUG_NIR | ibis::DEBUG_IR | ibis::DEBUG_OPT;
      if ((a.dumps & front_end) && !(a.dumps & back_end) && a.output.empty()) {
         if (a.dumps & ibis::DEBUG_NIR)
            out(ibis::nir::print_shader(*s));
         std::vector<unsigned> widths = {8, 16, 32};
         if (a.simd)
            widths = {a.simd};
         else if (s->info.stage == ibis::nir::shader_stage::vertex)
            widths = {8};
         o.debug &= ~uint64_t(ibis::DEBUG_NIR);
         for (unsigned w : widths)
            ibis::compile_front_end(*s, w, o);
         return 0;
      }

      std::vector<uint8_t> program;
      if (a.simd) {
         ibis::compiled_variant v = ibis::compile_variant(*s, a.simd, o);
         if (!((a.dumps | ibis::debug_flags()) & ibis::DEBUG_STATS))
            out(v.stats_text + "\n");
         program = v.binary;
      } else {
         ibis::compile_result r = ibis::compile_shader(*s, o);
         for (const ibis::compiled_variant &v : r.variants) {
            std::string what = v.kept ? "kept" : v.compiled ? "dropped" : "failed";
            if (v.kept)
               what += ibis::strfmt(" at offset %u, dispatch GRF start %u",
                                    v.offset, v.dispatch_grf_start);
            out(ibis::strfmt("; SIMD%u: %s%s%s\n", v.simd, what.c_str(),
                             v.reason.empty() ? "" : ": ", v.reason.c_str()));
            /* The scheduling modes tried, when more than one was. */
            for (size_t i = 0; v.attempts.size() > 1 && i < v.attempts.size(); i++)
               out(ibis::strfmt(";   attempt %zu: %s\n", i + 1, v.attempts[i].c_str()));
         }
         if (!((a.dumps | ibis::debug_flags()) & ibis::DEBUG_STATS)) {
            for (const ibis::compiled_variant &v : r.variants) {
               if (v.compiled)
                  out(v.stats_text + "\n");
            }
         }
         program = r.binary;
         if (a.prog_data)
            print_prog_data(r.prog);
      }
      if (!a.output.empty())
         write_file(a.output, program);
   } catch (const ibis::error &e) {
      std::fflush(stdout);
      std::fprintf(stderr, "ibis-compile: %s\n", e.what());
      return 1;
   } catch (const std::exception &e) {
      std::fflush(stdout);
      std::fprintf(stderr, "ibis-compile: internal error: %s\n", e.what());
      return 1;
   }
   return 0;
}
