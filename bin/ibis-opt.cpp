/*
 * ibis-opt: reads IR text, runs the named passes, prints the result, in the
 * manner of LLVM's `llc -run-pass`:
 *
 *    ibis-opt FILE.ibis --passes validate,print-pressure [-o OUT]
 */
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "lower/lower.h"
#include "opt/opt.h"
#include "ra/ra.h"
#include "sched/sched.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

using namespace ibis;

static void
usage(FILE *f)
{
   fprintf(f, "usage: ibis-opt FILE.ibis|- [--passes P1,P2,...] [-o OUT]\n"
              "       ibis-opt --list-passes\n");
}

int
main(int argc, char **argv)
{
   register_opt_passes();
   register_lower_passes();
   register_sched_passes();
   register_ra_passes();

   std::string input, output, passes;
   for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      if ((a == "--passes" || a == "-o") && i + 1 < argc) {
         (a == "-o" ? output : passes) = argv[++i];
      } else if (a.rfind("--passes=", 0) == 0) {
         passes = a.substr(strlen("--passes="));
      } else if (a == "--list-passes") {
         for (const pass_info *p : registered_passes())
            printf("%-18s %s\n", p->name.c_str(), p->help.c_str());
         return 0;
      } else if (a == "-h" || a == "--help") {
         usage(stdout);
         return 0;
      } else if (input.empty() && (a == "-" || a[0] != '-')) {
         input = a;
      } else {
         usage(stderr);
         return 1;
      }
   }
   if (input.empty()) {
      usage(stderr);
      return 1;
   }

   try {
      std::stringstream text;
      if (input == "-") {
         text << std::cin.rdbuf();
      } else {
         std::ifstream f(input);
         if (!f)
            throw error(strfmt("%s: cannot open: %s", input.c_str(), strerror(errno)));
         text << f.rdbuf();
      }
      std::unique_ptr<shader> s = parse_shader(text.str(), input);
      debug_print(*s, DEBUG_IR, "as read");
      run_passes(*s, passes);

      std::string result = s->str();
      if (output.empty()) {
         fputs(result.c_str(), stdout);
      } else {
         std::ofstream f(output);
         f << result;
         if (!f)
            throw error(strfmt("%s: cannot write", output.c_str()));
      }
   } catch (const error &e) {
      fprintf(stderr, "%s\n", e.what());
      return 1;
   }
   return 0;
}
