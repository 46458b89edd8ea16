/*
 * The seed's two WLR examples through the optimizer: repeated subgroup
 * invocations and repeated subgroup fadds are WLR write sequences that CSE
 * merges as single definitions, copy-prop and DCE then leave one of each,
 * and the validator accepts every step.
 */
#include <gtest/gtest.h>

#include "from_nir_test_util.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_validate.h"
#include "opt/opt.h"

using namespace ibis;

static const char *const two_of_each = R"(
   div 32 %0 = @load_subgroup_invocation () ()
   div 32 %1 = @load_subgroup_invocation () ()
   div 32 %2 = u2f32 %0
   con 32 %3 = @reduce (%2) (reduction_op=fadd, cluster_size=0, include_helpers=0)
   div 32 %4 = u2f32 %1
   con 32 %5 = @reduce (%4) (reduction_op=fadd, cluster_size=0, include_helpers=0)
   div 32 %6 = iadd %0, %1
   con 32 %7 = fadd %3, %5
   div 32x2 %8 = vec2 %6, %7
   con 32 %9 = load_const (0x00000000)
   @store_ssbo (%8, %9 (0x0), %9 (0x0)) (wrmask=xy, access=none, align_mul=4, align_offset=0)
   block b1:
)";

static unsigned
count_wlr(const shader &s)
{
   unsigned n = 0;
   for (value *v : s.values())
      n += v->file == reg_file::wlr && !v->defs().empty();
   return n;
}

TEST(from_nir_wlr_opt, cse_merges_invocations_and_reductions)
{
   register_opt_passes();
   for (unsigned width : {8u, 16u, 32u}) {
      auto sh = ibis::test::translate("cs", width, two_of_each);
      ASSERT_EQ(count_wlr(*sh), 4u);
      run_passes(*sh, "cse,copy-prop,dce");
      EXPECT_TRUE(validate_errors(*sh).empty()) << sh->str();
      /* One invocation sequence and one reduction sequence remain. */
      EXPECT_EQ(count_wlr(*sh), 2u) << sh->str();
   }
}

/* What is left at SIMD16: one sequence of each, and both sums read the
 * same values (copy-prop forwards the reduction's last channel).
 */
TEST(from_nir_wlr_opt, simd16_result)
{
   register_opt_passes();
   auto sh = ibis::test::translate("cs", 16, two_of_each);
   run_passes(*sh, "cse,copy-prop,dce");
   std::string diff = ibis::testing::match_ir(ibis::testing::dedent(R"(
      shader cs simd16
      ...
      block0:
         %[[i]] = mov(8) 0x76543210:v {WE_all}
         %[[i]].16<1> = add(8+8) %[[i]]<8,8,1>, 8:u16 {WE_all}
         %[[u]]:u32x16 = mov %[[i]]
         %[[f]]:f32x16 = mov %[[u]]
         %[[t]] = mov 0.0:f32 {WE_all}
         %[[t]] = mov %[[f]]
         %[[t]].4<2> = add(8) %[[t]]<16,8,2>, %[[t]].4<16,8,2> {WE_all}
         ...
         %[[t]].32<1> = add(8) %[[t]].28<0,1,0>, %[[t]].32<8,8,1> {WE_all}
         %[[a]]:s32x16 = add %[[u]]:s32, %[[u]]:s32
         %[[s]]:f32x1 = add %[[t]].60<0,1,0>, %[[t]].60<0,1,0> {WE_all}
         ...
   )"), sh->str());
   EXPECT_TRUE(diff.empty()) << diff << "\n" << sh->str();
}
