#include "util/ibis_debug.h"
#include "util/ibis_error.h"

#include <gtest/gtest.h>

using namespace ibis;

TEST(util, debug_flags_parse)
{
   EXPECT_EQ(parse_debug_flags(""), 0u);
   EXPECT_EQ(parse_debug_flags("nir,asm"), DEBUG_NIR | DEBUG_ASM);
   EXPECT_EQ(parse_debug_flags("stats,,validate"), DEBUG_STATS | DEBUG_VALIDATE);
   EXPECT_EQ(parse_debug_flags("all"), ~0ull);
}

TEST(util, debug_flags_unknown_is_an_error)
{
   try {
      parse_debug_flags("nir,bogus");
      FAIL() << "no error";
   } catch (const error &e) {
      EXPECT_NE(std::string(e.what()).find("unknown debug flag 'bogus'"),
                std::string::npos) << e.what();
   }
}

TEST(util, error_location_format)
{
   try {
      fail(source_loc{"a.nir", 3, 7}, "expected '%s'", ")");
      FAIL() << "no error";
   } catch (const error &e) {
      EXPECT_STREQ(e.what(), "a.nir:3:7: expected ')'");
      EXPECT_EQ(e.bare_msg, "expected ')'");
      EXPECT_EQ(e.loc.line, 3u);
   }
}

TEST(util, check_throws_internal_error)
{
   EXPECT_THROW(IBIS_CHECK(1 + 1 == 3, "arithmetic is %s", "broken"),
                internal_error);
}
