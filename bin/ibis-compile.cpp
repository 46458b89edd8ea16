/*
 * ibis-compile FILE.nir [--platform skl] [--simd 8|16|32]
 *              [--dump nir|ir|asm|stats,...] [-o FILE.bin]
 *
 * Reads and validates a shader and translates it to the ibis IR for each
 * dispatch width (--simd picks one; otherwise SIMD8 for VS and SIMD8, 16
 * and 32 for FS and CS), then runs the optimization passes.  "--dump nir"
 * prints the shader exactly as read, "--dump ir" the optimized IR of each
 * width.  Code generation (asm, stats, -o) belongs to later stages and
 * reports that it is not implemented yet.
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dev/ibis_device.h"
#include "from_nir/from_nir.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_validate.h"
#include "nir/nir.h"
#include "opt/opt.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace {

void
usage(FILE *f)
{
   std::fprintf(f,
      "usage: ibis-compile FILE.nir [--platform skl] [--simd 8|16|32]\n"
      "                    [--dump nir|ir|asm|stats,...] [-o FILE.bin]\n");
}

struct options {
   std::string input;
   std::string platform = "skl";
   unsigned simd = 0;  /* 0: let the compiler choose */
   std::vector<std::string> dumps;
   std::string output;
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
      } else if (a == "--dump") {
         const std::string v = value(i);
         size_t start = 0;
         while (start <= v.size()) {
            const size_t comma = v.find(',', start);
            const std::string d = v.substr(start, comma - start);
            if (d != "nir" && d != "ir" && d != "asm" && d != "stats")
               throw ibis::error("unknown dump '" + d + "' (nir, ir, asm, stats)");
            o.dumps.push_back(d);
            if (comma == std::string::npos)
               break;
            start = comma + 1;
         }
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

/* The optimization passes that exist so far, in pipeline order. */
const char *const opt_passes = "copy-prop,cse,algebraic,constant-fold,copy-prop,dce";

std::vector<unsigned>
dispatch_widths(const ibis::nir::shader &s, unsigned forced)
{
   if (forced)
      return {forced};
   if (s.info.stage == ibis::nir::shader_stage::vertex)
      return {8};
   return {8, 16, 32};
}

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   try {
      const options o = parse_args(argc, argv);
      /* Refuse what later stages will do before doing any work. */
      for (const std::string &d : o.dumps) {
         if (d != "nir" && d != "ir")
            throw ibis::error("--dump " + d + ": not implemented yet");
      }
      const ibis::device_info &dev = ibis::device_by_name(o.platform);
      ibis::register_opt_passes();
      if (!o.output.empty())
         throw ibis::error("-o: code generation is not implemented yet");

      std::unique_ptr<ibis::nir::shader> s = ibis::nir::read_shader_file(o.input);
      ibis::nir::validate(*s);
      if (ibis::debug_enabled(ibis::DEBUG_NIR)) {
         const std::string text = ibis::nir::print_shader(*s);
         std::fwrite(text.data(), 1, text.size(), stderr);
      }
      bool dump_ir = false;
      for (const std::string &d : o.dumps) {
         if (d == "nir") {
            const std::string text = ibis::nir::print_shader(*s);
            std::fwrite(text.data(), 1, text.size(), stdout);
         }
         dump_ir |= d == "ir";
      }

      for (unsigned width : dispatch_widths(*s, o.simd)) {
         ibis::from_nir_options fo;
         fo.dispatch_width = width;
         fo.device = &dev;
         std::unique_ptr<ibis::shader> ir = ibis::from_nir(*s, fo);
         ibis::run_passes(*ir, opt_passes);
         ibis::validate(*ir);
         if (dump_ir) {
            std::printf("; SIMD%u, after %s\n", width, opt_passes);
            const std::string text = ir->str();
            std::fwrite(text.data(), 1, text.size(), stdout);
         }
      }
   } catch (const ibis::error &e) {
      std::fprintf(stderr, "ibis-compile: %s\n", e.what());
      return 1;
   }
   return 0;
}
