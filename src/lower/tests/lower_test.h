/*
 * Pass tests of src/lower: input IR, the "lower" pass (Skylake GT2), the
 * expected lowered IR (ir/testing/ibis_check.h).
 */
#pragma once

#include <gtest/gtest.h>

#include "ir/testing/ibis_check.h"
#include "lower/lower.h"

namespace ibis::testing {

inline ::testing::AssertionResult
check_lower(const std::string &input, const std::string &expected)
{
   register_lower_passes();
   return check_pass(input, "lower,validate", expected);
}

} /* namespace ibis::testing */
