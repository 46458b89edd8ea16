/*
 * Pre-RA scheduling on the dolphin ubershaders brw cannot compile at
 * SIMD16 (brw-stats.csv: fs, simd 16, not compiled), through the
 * pipeline of ibis-compile (from_nir, optimization, lower): every mode
 * leaves a valid program, pressure first never raises MaxLive and lowers
 * it on every one of them.  sched_figures prints the numbers.
 */
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "dev/ibis_device.h"
#include "from_nir/from_nir.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_validate.h"
#include "lower/lower.h"
#include "nir/nir.h"
#include "opt/opt.h"
#include "sched/sched.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

std::unique_ptr<shader>
prepare(const nir::shader &n, const device_info &dev)
{
   from_nir_options fo;
   fo.dispatch_width = 16;
   fo.device = &dev;
   std::unique_ptr<shader> s = from_nir(n, fo);
   run_passes(*s, "copy-prop,cse,algebraic,constant-fold,copy-prop,dce");
   lower(*s, dev);
   return s;
}

} /* namespace */

TEST(sched_corpus, dolphin_simd16_failures)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   register_opt_passes();
   const device_info &dev = device_by_name("skl");
   std::ifstream csv(dir + "/brw-stats.csv");
   ASSERT_TRUE(csv.good());
   std::string line;
   std::getline(csv, line);
   unsigned count = 0;
   while (std::getline(csv, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      std::string x;
      while (std::getline(ss, x, ','))
         f.push_back(x);
      if (f.size() < 5 || f[0].compare(0, 7, "dolphin") != 0 || f[2] != "fs" || f[3] != "16" ||
          f[4] == "compiled")
         continue;
      SCOPED_TRACE(f[1]);
      auto n = nir::read_shader_file(dir + "/" + f[0] + "/" + f[1] + ".fs.nir");
      nir::validate(*n);

      auto s = prepare(*n, dev);
      const unsigned before = max_live(*s);
      schedule_pre_ra(*s, dev, sched_mode::pressure);
      EXPECT_NO_THROW(validate(*s, "sched-pre-pressure"));
      EXPECT_LT(max_live(*s), before);

      auto l = prepare(*n, dev);
      schedule_pre_ra(*l, dev, sched_mode::latency);
      EXPECT_NO_THROW(validate(*l, "sched-pre-latency"));
      EXPECT_LE(max_live(*l), before);
      count++;
   }
   EXPECT_EQ(count, 27u);
}
