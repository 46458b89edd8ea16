/*
 * mark_uniform_branches: which ifs become JMPIs, and the code they give.
 */
#include "codegen/tests/codegen_test.h"
#include "ir/testing/ibis_check.h"

using namespace ibis;
using namespace ibis::test;
using ibis::testing::check_pass;

static void
mark(shader &s)
{
   mark_uniform_branches(s);
}

/* Only the first if's flag comes from scalars alone: the second compares a
 * per-channel value, the third's compare is predicated on a per-channel
 * flag, the fourth's also writes a register.  The first flag's write
 * becomes NoMask.
 */
TEST(codegen_uniform_branches, marks_ifs_on_scalar_flags)
{
   EXPECT_TRUE(check_pass(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
uniform %2:u32x1@g4
block0:
   %3:u32x1@g5 = shl %2, 2:u32 {WE_all}
   %4:flagx8@f0.0 = and.nz %2, %3
   (+%4) if
block1:
   %5:flagx8@f0.1 = cmp.l %1, 0.0:f32
   (-%5) if
block2:
   %6:flagx8@f1.0 = cmp.l %1, 3.0:f32
   (+%6) %7:flagx8@f1.1 = cmp.z %2, 4:u32
   (+%7) if
block3:
   %8:u32x8@g6, %9:flagx8@f1.0 = and.z %2, 1:u32
   (+%9) if
block4:
   endif
block5:
   endif
block6:
   endif
block7:
   endif
)", mark, R"(
block0:
   %3:u32x1@g5 = shl %2, 2:u32 {WE_all}
   %4:flagx8@f0.0 = and.nz %2, %3 {WE_all}
   (+%4) if {uniform}
block1:
   %5:flagx8@f0.1 = cmp.l %1, 0.0:f32
   (-%5) if
block2:
   %6:flagx8@f1.0 = cmp.l %1, 3.0:f32
   (+%6) %7:flagx8@f1.1 = cmp.z %2, 4:u32
   (+%7) if
block3:
   %8:u32x8@g6, %9:flagx8@f1.0 = and.z %2, 1:u32
   (+%9) if
...
)"));
}

/* A chain of compares of scalars (lower_flag_chains) is uniform too:
 * every link's write becomes NoMask, since each reads the one before in
 * every channel.  A chain with a per-channel link is not.
 */
TEST(codegen_uniform_branches, marks_scalar_compare_chains)
{
   EXPECT_TRUE(check_pass(R"(
shader fs simd8 allocated
hw %1:f32x8@g2
uniform %2:u32x1@g4
block0:
   %3:flagx8@f0.0 = cmp.z %2, 0:u32
   (-%3) %4:flagx8@f0.0 = cmp.z %2, 2:u32
   (+%4) if
block1:
   %5:flagx8@f0.1 = cmp.l %1, 0.0:f32
   (+%5) %6:flagx8@f0.1 = cmp.z %2, 3:u32
   (+%6) if
block2:
   endif
block3:
   endif
)", mark, R"(
block0:
   %3:flagx8@f0.0 = cmp.z %2, 0:u32 {WE_all}
   (-%3) %4:flagx8@f0.0 = cmp.z %2, 2:u32 {WE_all}
   (+%4) if {uniform}
block1:
   %5:flagx8@f0.1 = cmp.l %1, 0.0:f32
   (+%5) %6:flagx8@f0.1 = cmp.z %2, 3:u32
   (+%6) if
...
)"));
}

/* A uniform if without else is one JMPI over the then part, taken when the
 * if would not be entered; with an else, the then part ends with a JMPI
 * over the else part.  No ENDIF, and no NOP for the ELSE's BranchCtrl.
 * JMPIs print as brw_disasm prints them: the distance from the next
 * instruction, no label.
 */
TEST(codegen_uniform_branches, jmpi_code)
{
   EXPECT_TRUE(check_asm(R"(
shader fs simd8 allocated
uniform %1:f32x1@g2
block0:
   %2:flagx8@f0.0 = cmp.l %1, 0.0:f32 {WE_all}
   (+%2) if {uniform}
block1:
   %3:f32x8@g4 = mov 1.0:f32
block2:
   endif
   %4:flagx8@f0.1 = cmp.g %1, 1.0:f32 {WE_all}
   (-%4) if {uniform}
block3:
   %5:f32x8@g5 = mov 2.0:f32
   else
block4:
   %5 = mov 3.0:f32
block5:
   endif
   %6:f32x8@g6 = add %5, %3
)", R"(
cmp.l.f0.0(8) null<1>F g2<0,1,0>F 0x0F /* 0F */ { align1 WE_all 1Q compacted };
(-f0.0) jmpi(1) 16D { align1 WE_all 1N };
mov(8) g4<1>F 0x3f800000F /* 1F */ { align1 1Q };
cmp.g.f0.1(8) null<1>F g2<0,1,0>F 0x3f800000F /* 1F */ { align1 WE_all 1Q };
(+f0.1) jmpi(1) 32D { align1 WE_all 1N };
mov(8) g5<1>F 0x40000000F /* 2F */ { align1 1Q };
jmpi(1) 16D { align1 WE_all 1N };
mov(8) g5<1>F 0x40400000F /* 3F */ { align1 1Q };
add(8) g6<1>F g5<8,8,1>F g4<8,8,1>F { align1 1Q compacted };
)"));
}
