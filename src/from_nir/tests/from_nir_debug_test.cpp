/*
 * IBIS_DEBUG=ir prints the IR after translation (its own binary: the flags
 * are read once per process).
 */
#include <cstdlib>

#include <gtest/gtest.h>

#include "from_nir_test_util.h"

TEST(from_nir_debug, ibis_debug_ir_prints_the_translation)
{
   setenv("IBIS_DEBUG", "ir", 1);
   ::testing::internal::CaptureStderr();
   auto sh = ibis::test::translate("cs", 16, R"(
      div 32 %0 = @load_subgroup_invocation () ()
      block b1:
   )");
   std::string err = ::testing::internal::GetCapturedStderr();
   EXPECT_NE(err.find("ibis IR after translation from NIR"), std::string::npos) << err;
   EXPECT_NE(err.find("shader cs simd16"), std::string::npos) << err;
   EXPECT_NE(err.find("= mov(8) 0x76543210:v {WE_all}"), std::string::npos) << err;
}
