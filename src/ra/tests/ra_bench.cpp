/*
 * Allocation time per shader over the corpus (meson benchmark ra_bench):
 * each shader is translated, optimized and lowered once, then only
 * allocate_registers() is timed, on a fresh copy, per width.  Build with
 * --buildtype=release for meaningful figures (debug builds also run the
 * RA validator after every allocation).
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "from_nir/from_nir.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "lower/lower.h"
#include "nir/nir.h"
#include "opt/opt.h"
#include "ra/ra.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

int
main()
{
   std::string dir = ibis::test::shared_dir();
   if (dir.empty()) {
      fprintf(stderr, "ra_bench: IBIS_SHARED_DIR not set\n");
      return 77;
   }
   dir += "/corpus/skl";
   const ibis::device_info &dev = ibis::device_by_name("skl");
   ibis::register_opt_passes();
   std::map<std::string, std::vector<std::pair<double, std::string>>> times;
   for (const std::string &path : ibis::test::list_files(dir, ".nir")) {
      std::unique_ptr<ibis::nir::shader> n;
      try {
         n = ibis::nir::read_shader_file(path);
      } catch (const ibis::error &) {
         continue;
      }
      bool fs = n->info.stage == ibis::nir::shader_stage::fragment;
      for (unsigned width : fs ? std::vector<unsigned>{8, 16, 32}
                               : std::vector<unsigned>{8}) {
         std::string text;
         try {
            ibis::from_nir_options fo;
            fo.dispatch_width = width;
            fo.device = &dev;
            auto ir = ibis::from_nir(*n, fo);
            ibis::run_passes(*ir, "copy-prop,cse,algebraic,constant-fold,copy-prop,dce");
            ibis::lower(*ir, dev);
            text = ir->str();
         } catch (const ibis::error &) {
            continue;
         }
         auto s = ibis::parse_shader(text);
         ibis::ra_options o;
         o.allow_spilling = width == 8;
         auto t0 = std::chrono::steady_clock::now();
         ibis::allocate_registers(*s, dev, o);
         double ms = std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - t0).count();
         std::string key = std::string(fs ? "FS" : "VS") + " SIMD" +
                           std::to_string(width);
         times[key].push_back({ms, path.substr(dir.size() + 1)});
      }
   }
   printf("%-10s %7s %10s %8s %8s %8s %8s  %s\n", "width", "shaders", "total-ms",
          "avg", "median", "p99", "max", "slowest");
   for (auto &[k, v] : times) {
      std::sort(v.begin(), v.end());
      double total = 0;
      for (auto &t : v)
         total += t.first;
      printf("%-10s %7zu %10.1f %8.3f %8.3f %8.3f %8.3f  %s\n", k.c_str(),
             v.size(), total, total / v.size(), v[v.size() / 2].first,
             v[v.size() * 99 / 100].first, v.back().first,
             v.back().second.c_str());
   }
   return 0;
}
