/*
 * IR programs shared by several IR test suites.
 */
#pragma once

/* Every structured control flow construct, phis on merges and loops. */
static const char *const flow_program = R"(
   shader fs simd16
   attr %1:f32x16[2]
   block0:         ; succs: block1 block2
      %2:f32x16 = mov 0.0:f32
      %3:flagx16 = cmp.g %1, 0.0:f32
      (+%3) if
   block1:         ; preds: block0 succs: block3
      %4:f32x16 = add %1, 1.0:f32
      else
   block2:         ; preds: block0 succs: block3
      %5:f32x16 = add %1[1], -1.0:f32
   block3:         ; preds: block1 block2 succs: block4
      endif
      %6:f32x16 = phi %4, %5
   block4:         ; preds: block3 block5 block6 succs: block5 block7
      do
      %7:f32x16 = phi %6, %9, %11
      %8:flagx16 = cmp.ge %7, 100.0:f32
      (+%8) break
   block5:         ; preds: block4 succs: block6 block4
      %9:f32x16 = mul %7, 2.0:f32
      %10:flagx16 = cmp.l %9, 10.0:f32
      (-%10) cont
   block6:         ; preds: block5 succs: block4 block7
      %11:f32x16 = add %9, 1.0:f32
      %12:flagx16 = cmp.nz %11, 50.0:f32
      (+%12) while
   block7:         ; preds: block4 block6
      %13:f32x16 = phi %7, %11
      %14:flagx16 = cmp.z %13, %2
      (+%14) halt
      fb_write_logical %13, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
)";
