#include "util/ibis_debug.h"
#include "util/ibis_error.h"
#include "util/ibis_files.h"
#include "util/ibis_json.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

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

/* The JSON reader of the brw-abi files: values, masks, positions in errors. */
TEST(json, reads_values_and_reports_positions)
{
   const json::value v = json::parse(
      "{\n  \"a\": [1, -2, 3.5],\n  \"s\": \"x\\\"y\",\n  \"m\": \"0x0000000000008000\",\n"
      "  \"t\": true, \"n\": null, \"o\": {}\n}\n", "t.json");
   EXPECT_EQ(v.at("a").at(1).as_int(), -2);
   EXPECT_THROW(v.at("a").at(2).as_int(), error);
   EXPECT_EQ(v.at("s").as_string(), "x\"y");
   EXPECT_EQ(v.at("m").as_mask(), 0x8000u);
   EXPECT_TRUE(v.at("t").as_bool());
   EXPECT_EQ(v.at("n").k, json::kind::null);
   EXPECT_EQ(v.find("missing"), nullptr);
   try {
      v.at("missing");
      FAIL();
   } catch (const error &e) {
      EXPECT_STREQ(e.what(), "t.json:1:1: missing 'missing'");
   }
   try {
      json::parse("{\n  \"a\": [1,\n  }\n", "bad.json");
      FAIL();
   } catch (const error &e) {
      EXPECT_STREQ(e.what(), "bad.json:3:3: expected a value");
   }
   EXPECT_THROW(json::parse("{} x", "t.json"), error);
   EXPECT_THROW(json::parse("\"open", "t.json"), error);
   EXPECT_TRUE(json::looks_like_json("  \n{"));
   EXPECT_FALSE(json::looks_like_json("push_range 1 0 2"));
}

/* Each directory's entries in name order, subdirectories where they
 * sort, other suffixes left out; a missing directory is an error.
 */
TEST(util, files_below_walks_in_name_order)
{
   char tmpl[] = "/tmp/ibis-files-XXXXXX";
   ASSERT_NE(mkdtemp(tmpl), nullptr);
   const std::string root = tmpl;
   ASSERT_EQ(mkdir((root + "/b").c_str(), 0755), 0);
   for (const char *f : {"/c.nir", "/a.nir", "/b/x.nir", "/b/y.txt", "/b.nir"})
      std::ofstream(root + f) << "x";
   EXPECT_EQ(ibis::files_below(root, ".nir"),
             std::vector<std::string>({"a.nir", "b/x.nir", "b.nir", "c.nir"}));
   EXPECT_THROW(ibis::files_below(root + "/none", ".nir"), ibis::error);
   std::system(("rm -rf " + root).c_str());
}
