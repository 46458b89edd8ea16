/*
 * Inputs found outside the corpus (shared/regressions/, its README says
 * where each came from), each checked as the finding was: ibis's program
 * and brw's against the interpreter on the input sets that showed it.
 */
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "check/check.h"
#include "compiler/compiler.h"
#include "util/ibis_test.h"

using namespace ibis;

/* shared/regressions/vs-position-1ulp: a position computed from rsq
 * results through a matrix, stable under every perturbation of the
 * interpreter and still one ULP off in brw's program as in ibis's (input
 * seed 2, set 1, channel 6).  brw's program decides: the check allows a
 * stable float one ULP, and both programs match.
 */
TEST(check_regressions, vs_position_1ulp_agrees_with_brw)
{
   IBIS_REQUIRE_SHARED(dir, "regressions");
   auto s = nir::read_shader_file(dir + "/vs-position-1ulp.vs.nir");
   const check::result mine = check::check_shader(*s, 8, 2, 2);
   EXPECT_EQ(mine.v, check::verdict::match) << mine.first;
   EXPECT_GT(mine.stable, 0u);
   const brw_abi a = read_brw_abi_file(dir + "/vs-position-1ulp.vs.json");
   std::ifstream f(dir + "/vs-position-1ulp.vs.simd8.asm");
   std::stringstream text;
   text << f.rdbuf();
   const auto brw = check::assemble_brw_asm(text.str(), "vs-position-1ulp.vs.simd8.asm");
   const check::result theirs = check::check_brw_binary(*s, 8, brw, a, 2, 2);
   EXPECT_EQ(theirs.v, check::verdict::match) << theirs.first;
}

