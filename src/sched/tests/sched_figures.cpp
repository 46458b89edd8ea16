/*
 * sched_figures SHARED_DIR [--all]
 *
 * The pre-RA scheduling figures of the report: for every FS that brw
 * could not compile at SIMD16 (brw-stats.csv: fs, simd 16, status other
 * than compiled), the SIMD16 IR's MaxLive in the translator's order and
 * after each pre-RA mode, the cycle estimate, and the time scheduling
 * took, and the allocator's view of the pressure schedule: its MaxLive
 * (with the payload registers still read) and whether it allocates
 * without spilling.  The pipeline is that of ibis-compile: from_nir, the
 * optimization passes, then lower() when it lowers (the table says which
 * IR was measured).  --all measures every FS at SIMD16 instead.
 */
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dev/ibis_device.h"
#include "from_nir/from_nir.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_perf.h"
#include "ir/ibis_validate.h"
#include "lower/lower.h"
#include "nir/nir.h"
#include "opt/opt.h"
#include "ra/ra.h"
#include "sched/sched.h"
#include "util/ibis_error.h"

using namespace ibis;

namespace {

/* The compiler's passes (compiler.cpp: opt_pipeline, front_end). */
const char *const opt_passes =
   "copy-prop,cse,algebraic,constant-fold,copy-prop,sat-prop,cmod-prop,dce";
const char *const post_lower_passes = "combine-constants,cse,dce";

std::vector<std::string>
split(const std::string &line)
{
   std::vector<std::string> f;
   std::stringstream ss(line);
   std::string x;
   while (std::getline(ss, x, ','))
      f.push_back(x);
   return f;
}

struct prepared {
   std::unique_ptr<shader> s;
   bool lowered = false;
};

prepared
prepare(const nir::shader &n, const device_info &dev)
{
   from_nir_options fo;
   fo.dispatch_width = 16;
   fo.device = &dev;
   prepared p;
   p.s = from_nir(n, fo);
   run_passes(*p.s, opt_passes);
   try {
      lower(*p.s, dev);
      run_passes(*p.s, post_lower_passes);
      p.lowered = p.s->lowered;
   } catch (const error &) {
      /* Not lowerable yet: measure the optimized IR. */
      p.s = from_nir(n, fo);
      run_passes(*p.s, opt_passes);
   }
   return p;
}

} /* namespace */

int
main(int argc, char **argv)
{
   if (argc < 2) {
      std::fprintf(stderr, "usage: sched_figures SHARED_DIR [--all]\n");
      return 1;
   }
   const std::string dir = argv[1];
   const bool all = argc > 2 && std::string(argv[2]) == "--all";
   const device_info &dev = device_by_name("skl");
   register_opt_passes();

   std::ifstream csv(dir + "/corpus/skl/brw-stats.csv");
   if (!csv) {
      std::fprintf(stderr, "cannot read %s/corpus/skl/brw-stats.csv\n", dir.c_str());
      return 1;
   }
   std::string line;
   std::getline(csv, line);
   std::printf("%-28s %5s %6s %6s %6s %8s %8s %8s %9s %9s %6s %6s\n", "shader", "instr",
               "orig", "lat", "press", "cyc-orig", "cyc-lat", "cyc-pres",
               "ms-press", "lowered", "ra-ml", "ra");
   unsigned count = 0, fit = 0, allocated = 0;
   double worst_ms = 0, worst_prep_ms = 0;
   std::string worst;
   while (std::getline(csv, line)) {
      auto f = split(line);
      if (f.size() < 5 || f[2] != "fs" || f[3] != "16")
         continue;
      if (!all && f[4] == "compiled")
         continue;
      const std::string path = dir + "/corpus/skl/" + f[0] + "/" + f[1] + ".fs.nir";
      try {
         auto n = nir::read_shader_file(path);
         nir::validate(*n);
         const auto p0 = std::chrono::steady_clock::now();
         prepared orig = prepare(*n, dev);
         const double prep_ms = std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - p0).count();
         unsigned instrs = 0;
         for (const auto &b : orig.s->blocks())
            instrs += b->instrs().size();
         const unsigned live0 = max_live(*orig.s);
         const unsigned cyc0 = estimate_cycles(*orig.s, dev);

         prepared lat = prepare(*n, dev);
         schedule_pre_ra(*lat.s, dev, sched_mode::latency);
         validate(*lat.s, "sched-pre-latency");

         prepared pres = prepare(*n, dev);
         const auto t0 = std::chrono::steady_clock::now();
         schedule_pre_ra(*pres.s, dev, sched_mode::pressure);
         const auto t1 = std::chrono::steady_clock::now();
         validate(*pres.s, "sched-pre-pressure");
         const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();

         const unsigned live_lat = max_live(*lat.s), live_pres = max_live(*pres.s);
         const unsigned cyc_lat = estimate_cycles(*lat.s, dev);
         const unsigned cyc_pres = estimate_cycles(*pres.s, dev);
         ra_options ro;
         ro.allow_spilling = false;
         ra_result ra = allocate_registers(*pres.s, dev, ro);
         allocated += ra.success;
         std::printf("%-28s %5u %6u %6u %6u %8u %8u %8u %9.2f %9s %6u %6s\n",
                     (f[0] + "/" + f[1]).c_str(), instrs, live0, live_lat,
                     live_pres, cyc0, cyc_lat, cyc_pres, ms,
                     orig.lowered ? "yes" : "no", ra.max_live,
                     ra.success ? "ok" : "fails");
         count++;
         fit += std::min(live_lat, live_pres) <= device_info::grf_count;
         if (ms > worst_ms) {
            worst_ms = ms;
            worst = f[0] + "/" + f[1];
            worst_prep_ms = prep_ms;
         }
      } catch (const error &e) {
         std::printf("%-28s error: %s\n", (f[0] + "/" + f[1]).c_str(), e.what());
      }
   }
   std::printf("%u shaders, %u with MaxLive <= %u after pre-RA scheduling, "
               "%u allocated without spilling after the pressure mode; "
               "slowest pressure schedule %.2f ms (%s; from_nir + opt + "
               "lower of it: %.2f ms)\n",
               count, fit, device_info::grf_count, allocated, worst_ms,
               worst.c_str(), worst_prep_ms);
   return 0;
}
