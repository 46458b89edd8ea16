/*
 * ibis-run: runs a Gen9 binary on the EU simulator and prints its outputs
 * per channel; with --check, runs the paired NIR on the reference
 * interpreter with the same inputs and lists every mismatch by channel.
 *
 *    ibis-run FILE.bin|FILE.hex|FILE.asm --stage vs|fs|cs [--simd N]
 *             [--inputs F] [--check FILE.nir] [--ulps N]
 *    ibis-run FILE.nir [--simd N] [--abi F] [--inputs F | --seed S [--sets K]] --check
 *    ibis-run BRW.asm --abi ABI.json [--simd N] [--seed S [--sets K]] --check FILE.nir
 *
 * The second form compiles FILE.nir with ibis at that width and runs the
 * differential check of src/check (docs/check.md): exit 0 on a match, 1 on
 * a mismatch or any diagnosed error.
 *
 * Inputs are the interpreter's inputs text (docs/interp.md), or its
 * default inputs for the NIR file, and are mapped onto the thread payload
 * and memory as docs/sim.md ("ibis-run") and usage() describe.
 */
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <fstream>
#include <memory>
#include <sstream>

#include "isa/isa.h"
#include "nir/interp/nir_interp.h"
#include "nir/nir.h"
#include "sim/check/sim_check.h"
#include "util/ibis_error.h"
#include "check/check.h"

using namespace ibis;
namespace interp = ibis::nir::interp;

namespace {

void
usage(FILE *f)
{
   fprintf(f,
      "usage: ibis-run FILE.bin|FILE.hex|FILE.asm --stage vs|fs|cs [--simd N]\n"
      "                [--inputs F] [--check FILE.nir] [--ulps N]\n"
      "\n"
      "Runs a Gen9 binary on the EU simulator (docs/sim.md) and prints its\n"
      "outputs per channel.  --check runs FILE.nir on the NIR interpreter with\n"
      "the same inputs and lists every mismatch by channel (exit status 1).\n"
      "\n"
      "Inputs (the interpreter's text format, docs/interp.md; default: its\n"
      "default inputs for the NIR file) map onto the hardware as:\n"
      "  push bytes      push constants after the payload registers\n"
      "  textures[t]     surface and sampler t; UBO b at BTI 64+b, SSBO b at 128+b\n"
      "  VS attribs      attribute slots in increasing location order; outputs\n"
      "                  are URB slots: 0 the VUE header, 1 VARYING_SLOT_POS,\n"
      "                  then the other written locations in increasing order\n"
      "  FS pixels       2x2 quads as subspans; perspective-pixel barycentrics of\n"
      "                  the input triangle; varyings as attribute planes in\n"
      "                  increasing location order; RT n is FRAG_RESULT_DATAn\n"
      "                  (or COLOR), depth is FRAG_RESULT_DEPTH\n"
      "  CS              workgroup id/size and subgroup id into the payload; the\n"
      "                  subgroup id is pushed after the push constants\n"
      "Floats compare bit-exactly unless --ulps N allows N units in the last place.\n"
      "\n"
      "       ibis-run FILE.nir [--simd N] [--abi F] [--inputs F | --seed S [--sets K]] [-v]\n"
      "                [--profile] --check\n"
      "\n"
      "Compiles FILE.nir with ibis at SIMD N (default 8), runs it on the simulator\n"
      "and on the interpreter, and compares (docs/check.md): input set 0 is the\n"
      "interpreter's default inputs, sets 1..K-1 vary them from seed S (default\n"
      "1, K default 4); --inputs F checks those inputs only; --abi F compiles under\n"
      "that driver ABI (ABI text or brw-abi JSON).  Exit status 0 on a\n"
      "match, 1 on a mismatch or an error.  -v prints both sides of every compared\n"
      "output of the last input set run.  --profile prints the program with how\n"
      "often each instruction issued over all threads and sets run.\n"
      "\n"
      "       ibis-run BRW.asm --abi ABI.json [--simd N] [--seed S [--sets K]] [-v]\n"
      "                [--profile]\n"
      "                --check FILE.nir\n"
      "\n"
      "Checks brw's program for FILE.nir (a corpus brw-asm/ file as stored) the same\n"
      "way, its inputs laid out as the brw-abi JSON file says iris set them up.\n");
}

/* A crash in the compiler or the simulator is reported as a failure with
 * exit status 1, never as a signal.
 */
void
on_fatal_signal(int sig)
{
   const char msg[] = "ibis-run: crashed (fatal signal)\n";
   ssize_t n = write(2, msg, sizeof(msg) - 1);
   (void)n;
   (void)sig;
   _exit(1);
}


std::string
read_file(const std::string &path)
{
   std::ifstream f(path, std::ios::binary);
   if (!f)
      throw error(strfmt("cannot open %s", path.c_str()));
   std::stringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

bool
ends_with(const std::string &s, const char *suffix)
{
   size_t n = strlen(suffix);
   return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/* Raw bytes, "ibis-asm --type hex" text, or assembly. */
std::vector<uint8_t>
load_program(const std::string &path)
{
   std::string text = read_file(path);
   if (ends_with(path, ".asm"))
      return isa::assemble(text, isa::gen::gen9, false, path);
   std::istringstream in(text);
   std::vector<uint8_t> out;
   std::string word;
   bool hex = !text.empty();
   while (in >> word) {
      if (word.size() != 2 || !isxdigit((unsigned char)word[0]) ||
          !isxdigit((unsigned char)word[1])) {
         hex = false;
         break;
      }
      out.push_back(uint8_t(strtoul(word.c_str(), nullptr, 16)));
   }
   if (hex && !out.empty())
      return out;
   return std::vector<uint8_t>(text.begin(), text.end());
}

/* How each output is compared, and the check's counts: both modes. */
void
print_result(const nir::shader &s, unsigned simd, const check::result &r)
{
   for (const auto &[name, e] : check::classify_outputs(s)) {
      if (e != check::exactness::exact)
         printf("# %s: %s\n", name.c_str(),
                e == check::exactness::approximate
                   ? "approximate (relative tolerance 1/4096 where not stable under "
                     "perturbation)"
                   : e == check::exactness::unchecked
                   ? "compared only where stable under perturbation (an approximation "
                     "reaches a discontinuous operation)"
                   : "not compared (an approximate float's bits reach an integer "
                     "operation)");
   }
   printf("# SIMD%u: %u words compared (%u with a tolerance, %u stable under perturbation, "
          "%u matching with denormals kept), "
          "%u not compared; executed %llu instructions (%llu channel-instructions), "
          "%llu sends\n", simd, r.compared, r.approximate, r.stable, r.kept_denormals,
          r.unchecked, (unsigned long long)r.executed, (unsigned long long)r.channel_executed,
          (unsigned long long)r.sends);
}

int
check_nir(const std::string &path, unsigned simd, const std::string &inputs_path, uint64_t seed,
          unsigned sets, bool verbose, bool profile, const std::string &abi_path)
{
   std::unique_ptr<nir::shader> s = nir::read_shader_file(path);
   /* Compiled under a driver ABI (text or brw-abi JSON), checked with
    * ibis's layout of it.
    */
   compile_options opts;
   if (!abi_path.empty())
      apply_abi_file(abi_path, opts.abi);
   if (s->info.stage == nir::shader_stage::vertex && simd != 8)
      throw error("ibis-run: vertex shaders run SIMD8");
   compile_options o = check::check_compile_options(opts);
   compiled_variant v = compile_variant(*s, simd, o);
   if (!v.compiled)
      throw error(strfmt("ibis-run: SIMD%u not compiled: %s", simd, v.reason.c_str()));
   check::result r;
   if (!inputs_path.empty()) {
      interp::inputs in = interp::parse_inputs(read_file(inputs_path), inputs_path);
      in.simd = simd;
      r = check::check_binary(*s, simd, v.binary, in, o);
   } else {
      r = check::check_sets(*s, simd, seed, sets, [&](const interp::inputs &in) {
         return check::check_binary(*s, simd, v.binary, in, o);
      });
   }
   if (profile)
      fputs(check::profile_text(v.binary, r.issued_at).c_str(), stdout);
   print_result(*s, simd, r);
   if (r.v == check::verdict::match) {
      if (verbose)
         fputs(r.detail.c_str(), stdout);
      printf("PASS\n");
      return 0;
   }
   if (verbose)
      fputs(r.detail.c_str(), stdout);
   fputs(r.log.c_str(), stdout);
   printf("FAIL: %s, input set %u: %s\n", check::verdict_name(r.v), r.input_set,
          r.first.c_str());
   if (inputs_path.empty())
      printf("reproduce: %s%s\n", check::repro_command(path, simd, seed, r.input_set + 1).c_str(),
             abi_path.empty() ? "" : (" --abi " + abi_path).c_str());
   return 1;
}

/* brw's program for a corpus shader, laid out as its brw-abi file says. */
int
check_brw(const std::string &asm_path, const std::string &abi_path, const std::string &nir_path,
          unsigned simd, uint64_t seed, unsigned sets, bool verbose, bool profile)
{
   std::unique_ptr<nir::shader> s = nir::read_shader_file(nir_path);
   const brw_abi a = read_brw_abi_file(abi_path);
   const std::vector<uint8_t> binary = check::assemble_brw_asm(read_file(asm_path), asm_path);
   check::result r = check::check_brw_binary(*s, simd, binary, a, seed, sets);
   if (profile)
      fputs(check::profile_text(binary, r.issued_at).c_str(), stdout);
   print_result(*s, simd, r);
   if (verbose)
      fputs(r.detail.c_str(), stdout);
   if (r.v == check::verdict::match) {
      printf("PASS\n");
      return 0;
   }
   fputs(r.log.c_str(), stdout);
   printf("FAIL: %s, input set %u: %s\n", check::verdict_name(r.v), r.input_set,
          r.first.c_str());
   printf("reproduce: ibis-run %s --abi %s --simd %u --seed %llu --sets %u --check %s\n",
          asm_path.c_str(), abi_path.c_str(), simd, (unsigned long long)seed,
          r.input_set + 1, nir_path.c_str());
   return 1;
}

} /* namespace */

int
main(int argc, char **argv)
{
   std::string file, stage, inputs_path, nir_path, abi_path;
   unsigned simd = 0, ulps = 0, sets = 4;
   uint64_t seed = 1;
   bool check_flag = false, verbose = false, profile = false;
   signal(SIGSEGV, on_fatal_signal);
   signal(SIGABRT, on_fatal_signal);
   signal(SIGFPE, on_fatal_signal);
   signal(SIGBUS, on_fatal_signal);
   signal(SIGILL, on_fatal_signal);
   for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      auto value = [&]() -> std::string {
         if (i + 1 >= argc) {
            usage(stderr);
            exit(1);
         }
         return argv[++i];
      };
      if (a == "--stage")
         stage = value();
      else if (a == "--simd")
         simd = unsigned(atoi(value().c_str()));
      else if (a == "--abi")
         abi_path = value();
      else if (a == "--inputs")
         inputs_path = value();
      else if (a == "--check") {
         /* --check FILE.nir pairs a binary with its NIR; alone, it checks
          * the NIR file given as the program.
          */
         if (i + 1 < argc && ends_with(argv[i + 1], ".nir"))
            nir_path = argv[++i];
         check_flag = true;
      }
      else if (a == "--seed")
         seed = strtoull(value().c_str(), nullptr, 0);
      else if (a == "-v" || a == "--verbose")
         verbose = true;
      else if (a == "--profile")
         profile = true;
      else if (a == "--sets")
         sets = unsigned(atoi(value().c_str()));
      else if (a == "--ulps")
         ulps = unsigned(atoi(value().c_str()));
      else if (a == "--help" || a == "-h") {
         usage(stdout);
         return 0;
      } else if (a[0] == '-') {
         usage(stderr);
         return 1;
      } else {
         file = a;
      }
   }
   if (!abi_path.empty() && !ends_with(file, ".nir")) {
      if (file.empty() || nir_path.empty() || !check_flag || !inputs_path.empty()) {
         usage(stderr);
         return 1;
      }
      try {
         return check_brw(file, abi_path, nir_path, simd ? simd : 8, seed, std::max(1u, sets),
                          verbose, profile);
      } catch (const error &e) {
         fprintf(stderr, "ibis-run: %s\n", e.what());
         return 1;
      } catch (const std::exception &e) {
         fprintf(stderr, "ibis-run: internal error: %s\n", e.what());
         return 1;
      }
   }
   if (file.empty() && !nir_path.empty())
      std::swap(file, nir_path);
   if (ends_with(file, ".nir")) {
      if (!check_flag) {
         usage(stderr);
         return 1;
      }
      try {
         return check_nir(file, simd ? simd : 8, inputs_path, seed, std::max(1u, sets), verbose,
                          profile, abi_path);
      } catch (const error &e) {
         fprintf(stderr, "ibis-run: %s\n", e.what());
         return 1;
      } catch (const std::exception &e) {
         fprintf(stderr, "ibis-run: internal error: %s\n", e.what());
         return 1;
      }
   }
   if (file.empty() || stage.empty()) {
      usage(stderr);
      return 1;
   }

   try {
      std::vector<uint8_t> program = load_program(file);
      std::unique_ptr<nir::shader> shader;
      if (!nir_path.empty())
         shader = nir::read_shader_file(nir_path);

      interp::inputs in;
      if (!inputs_path.empty())
         in = interp::parse_inputs(read_file(inputs_path), inputs_path);
      else if (shader)
         in = interp::default_inputs(*shader, simd ? simd : 8);
      if (simd)
         in.simd = simd;
      if (in.simd != 8 && in.simd != 16 && in.simd != 32)
         throw error(strfmt("ibis-run: SIMD%u", in.simd));
      if (stage == "vs")
         in.simd = 8;

      interp::outputs want;
      if (shader)
         want = interp::run(*shader, in);

      sim::check::run_result r = sim::check::run(program, stage, in, shader.get(),
                                                 shader ? &want : nullptr);
      printf("# %s SIMD%u: %llu instructions%s\n", stage.c_str(), in.simd,
             (unsigned long long)r.result.instructions, r.result.eot ? ", EOT" : "");
      fputs(sim::check::print(r.outputs, in.simd).c_str(), stdout);
      if (!shader)
         return 0;
      std::string log;
      unsigned bad = sim::check::compare(stage, want, r.outputs, in.simd, ulps, &log);
      fputs(log.c_str(), stdout);
      printf("%s: %u mismatch%s\n", bad ? "FAIL" : "PASS", bad, bad == 1 ? "" : "es");
      return bad ? 1 : 0;
   } catch (const error &e) {
      fprintf(stderr, "ibis-run: %s\n", e.what());
      return 1;
   }
}
