/*
 * The message forms the corpus does not use (issue 9): each test states
 * the logical instruction and the lowered IR, with the descriptor, mlen,
 * ex_mlen and rlen as the hardware defines them (facts from Mesa 23.3's
 * brw_lower_logical_sends.cpp, brw_eu_defines.h and brw_eu.h; where a
 * corpus program of brw has the same message, its file and line).
 */
#include "lower_test.h"

using ibis::testing::check_lower;

TEST(lower_forms, ddy_fine_is_an_add_per_subspan)
{
   /* brw's Gen11 align1 ddy_fine (brw_fs_generator.cpp generate_ddy):
    * add(4) per subspan of src.2<0,2,1> and -src<0,2,1>, so each column
    * subtracts its own top pixel.  Gen9 encodes the same regions.
    */
   EXPECT_TRUE(check_lower(R"(
      shader fs simd8
      attr %0:f32x8
      block0:
         %1:f32x8 = ddy_fine %0
         fb_write_logical %1, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )", R"(
      shader fs simd8 lowered
      attr %0:f32x8
      block0:
         %2:f32x4 = add %0.8<0,2,1>, -%0<0,2,1>
         %3:f32x4+4 = add %0.24<0,2,1>, -%0.16<0,2,1>
         %1:f32x8 = load_payload %2, %3
         %4:u32x8[4] = load_payload %1:u32, _, _, _
         _ = send 5:u32, 0x8031400:u32, 0:u32, %4, _ {EOT}
   )"));
}
