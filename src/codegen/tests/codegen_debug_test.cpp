/*
 * IBIS_DEBUG=asm,stats: code generation prints the disassembly and the
 * stats line to stderr.  Its own executable, since the flags are read
 * once per process: the variable is set before anything reads it.
 */
#include <cstdlib>

#include "codegen/tests/codegen_test.h"

using namespace ibis;
using namespace ibis::test;

static const bool env_set = setenv("IBIS_DEBUG", "asm,stats", 1) == 0;

TEST(codegen_debug, prints_asm_and_stats)
{
   ASSERT_TRUE(env_set);
   std::unique_ptr<shader> s = parse_shader(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
block0:
   %2:f32x8@g3 = add %1, %1
)");
   ::testing::internal::CaptureStderr();
   codegen_result r = generate_code(*s, skl());
   std::string err = ::testing::internal::GetCapturedStderr();
   EXPECT_EQ(err, r.disasm + stats_line(*s, r.stats) + "\n");
   EXPECT_NE(err.find("add(8)"), std::string::npos);
   EXPECT_NE(err.find("FS SIMD8 shader: 1 inst, 0 loops"), std::string::npos);
}
