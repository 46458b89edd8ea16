/*
 * Pass tests: input IR, passes, expected IR, all inline.  The input is
 * validated before the passes and the shader after each of them.
 */
#pragma once

#include <string>

#include "ir/testing/ibis_check.h"
#include "opt/opt.h"

/* A store of value v (IR text "%N"): a use with side effects that keeps v
 * alive through dce, and takes no immediates or scalar regions.
 */
#define WRITE(v) "untyped_write_logical 0:u32, " v ", " v ", 1:u32"

namespace ibis::testing {

inline ::testing::AssertionResult
check_opt(const std::string &input, const std::string &passes,
          const std::string &expected)
{
   register_opt_passes();
   std::string list = "validate";
   size_t pos = 0;
   while (pos <= passes.size()) {
      size_t end = std::min(passes.find(',', pos), passes.size());
      list += "," + passes.substr(pos, end - pos) + ",validate";
      pos = end + 1;
   }
   return check_pass(input, list, expected);
}

} /* namespace ibis::testing */
