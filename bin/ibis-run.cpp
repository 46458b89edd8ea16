/*
 * ibis-run: runs a Gen9 binary on the EU simulator and prints its outputs
 * per channel; with --check, runs the paired NIR on the reference
 * interpreter with the same inputs and lists every mismatch by channel.
 *
 *    ibis-run FILE.bin|FILE.hex|FILE.asm --stage vs|fs|cs [--simd N]
 *             [--inputs F] [--check FILE.nir] [--ulps N]
 *
 * Inputs are the interpreter's inputs text (docs/interp.md), or its
 * default inputs for the NIR file, and are mapped onto the thread payload
 * and memory as docs/sim.md ("ibis-run") and usage() describe.
 */
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "isa/isa.h"
#include "nir/interp/nir_interp.h"
#include "nir/nir.h"
#include "sim/check/sim_check.h"
#include "util/ibis_error.h"

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
      "Floats compare bit-exactly unless --ulps N allows N units in the last place.\n");
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

} /* namespace */

int
main(int argc, char **argv)
{
   std::string file, stage, inputs_path, nir_path;
   unsigned simd = 0, ulps = 0;
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
      else if (a == "--inputs")
         inputs_path = value();
      else if (a == "--check")
         nir_path = value();
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
