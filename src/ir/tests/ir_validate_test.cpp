/*
 * The validator: each rule has a failing example with its exact message,
 * and the WLR examples of wlr-write-lock-read.txt are accepted.
 */
#include <gtest/gtest.h>

#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "ir/testing/ibis_check.h"
#include "util/ibis_error.h"

using namespace ibis;
using ibis::testing::dedent;
using strings = std::vector<std::string>;

static strings
errors_of(const char *text)
{
   auto s = parse_shader(dedent(text), "t.ibis");
   return validate_errors(*s);
}

/* gl_SubgroupInvocation in SIMD32: 0x76543210:v, then adds filling the
 * upper channels, each reading what the previous writes produced.
 */
TEST(ir_validate, wlr_subgroup_invocation_is_valid)
{
   EXPECT_EQ(errors_of(R"(
      shader cs simd32
      wlr %1:u16x32
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %1.32<1> = add(16+16) %1<16,16,1>, 16:u16 {WE_all}
         %2:u32x32 = mov %1
   )"), strings());
}

/* x |= y: a write whose only output is x reads x. */
TEST(ir_validate, wlr_or_assign_is_valid)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      attr %1:u32x16[2]
      wlr %2:u32x16
      block0:
         %2 = mov %1
         %2 = or %2, %1[1]
         %2 = and %2, 0xff:u32
         %3:u32x16 = add %2, 1:u32
   )"), strings());
}

TEST(ir_validate, wlr_writes_in_two_blocks)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      attr %2:f32x8
      block0:         ; succs: block1 block2
         %1 = mov 0:u32
         %3:flagx8 = cmp.nz %2, 0.0:f32
         (+%3) if
      block1:         ; preds: block0 succs: block2
         %1 = mov 1:u32
      block2:         ; preds: block0 block1
         endif
         %4:u32x8 = add %1, 1:u32
   )"), (strings{"block1: '%1 = mov 1:u32': %1 is also written in block0; all "
                "writes of a WLR value are in one block [wlr-block]"}));
}

TEST(ir_validate, wlr_read_between_writes)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %1 = mov 0:u32
         %2:u32x8 = add %1, 1:u32
         %1 = or %1, 2:u32
   )"), (strings{"block0: '%2:u32x8 = add %1, 1:u32': %1 is read before its "
                "final write by an instruction that does not write it alone "
                "[wlr-read]"}));
}

TEST(ir_validate, wlr_read_by_a_write_with_a_second_output)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %1 = mov 0:u32
         %1, %2:flagx8 = or.nz %1, 2:u32
   )"), (strings{"block0: '%1, %2:flagx8 = or.nz %1, 2:u32': %1 is read before "
                "its final write by an instruction that does not write it "
                "alone [wlr-read]"}));
}

TEST(ir_validate, wlr_read_never_written)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %2:u32x8 = mov %1
   )"), (strings{"%1: WLR value is read but never written [wlr]"}));
}

TEST(ir_validate, ssa_two_definitions)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:u32x8 = mov 0:u32
         %1 = mov 1:u32
   )"), (strings{"%1: SSA value has 2 definitions [ssa-def]"}));
}

TEST(ir_validate, ssa_used_never_defined)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      ssa %1:u32x8
      block0:
         %2:u32x8 = mov %1
   )"), (strings{"%1: SSA value is used but never defined [ssa-def]"}));
}

TEST(ir_validate, ssa_use_not_dominated)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:flagx8 = cmp.nz %1, 0.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %3:f32x8 = mov 1.0:f32
      block2:         ; preds: block0 block1
         endif
         %4:f32x8 = add %3, %1
   )"), (strings{"block2: '%4:f32x8 = add %3, %1': %3 is used where its "
                "definition does not dominate [ssa-dominance]"}));
}

TEST(ir_validate, ssa_use_before_def_in_block)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %2:f32x8 = add %3, 1.0:f32
         %3:f32x8 = mov 1.0:f32
   )"), (strings{"block0: '%2:f32x8 = add %3, 1.0:f32': %3 is used where its "
                "definition does not dominate [ssa-dominance]"}));
}

TEST(ir_validate, ssa_phi_source_not_dominating_its_edge)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:flagx8 = cmp.nz %1, 0.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %3:f32x8 = mov 1.0:f32
      block2:         ; preds: block0 block1
         endif
         %4:f32x8 = phi %3, %3
   )"), (strings{"block2: '%4:f32x8 = phi %3, %3': %3 is used where its "
                "definition does not dominate [ssa-dominance]"}));
}

TEST(ir_validate, ssa_partial_write)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      block0:
         %1:f32x16 = mov(8) 1.0:f32
   )"), (strings{"block0: '%1:f32x16 = mov(8) 1.0:f32': writes part of %1 "
                "(8 channels from 0) without a preserve source "
                "[ssa-partial-write]"}));
}

/* A NoMask block read writes all its rlen registers: a SIMD16 value
 * filled by a send(8) {WE_all} is written whole (a fill at SIMD16/32).
 * Without NoMask, the same send writes 8 channels only.
 */
TEST(ir_validate, nomask_send_writes_its_destination_whole)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16 lowered
      block0:
         %1:u32x8 = mov 0:u32 {WE_all}
         %2:f32x16 = send(8) 10:u32, 0x2283000:u32, 0:u32, %1, _ {WE_all}
         %3:f32x16 = send(8) 10:u32, 0x2283000:u32, 0:u32, %1, _
   )"), (strings{"block0: '%3:f32x16 = send(8) 10:u32, 0x2283000:u32, 0:u32, "
                 "%1, _': writes part of %3 (8 channels from 0) without a "
                 "preserve source [ssa-partial-write]"}));
}

TEST(ir_validate, ssa_predicated_write)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:flagx8 = cmp.l 1.0:f32, 2.0:f32
         (+%1) %2:f32x8 = mov 1.0:f32
         %3:f32x8 = mov 0.0:f32
         (+%1) %4:f32x8 = mov 1.0:f32, preserve %3
         (+%1) %5:f32x8 = sel %3, %4
   )"), (strings{"block0: '(+%1) %2:f32x8 = mov 1.0:f32': writes %2 under a "
                 "predicate without a preserve source [ssa-partial-write]"}));
}

TEST(ir_validate, preserve_needs_matching_size)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:f32x16 = mov(8+8) 2.0:f32, preserve %1
   )"), (strings{"block0: '%2:f32x16 = mov(8+8) 2.0:f32, preserve %1': the "
                "preserve source must have the size of %2 [preserve]"}));
}

TEST(ir_validate, preserve_needs_ssa_destination)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %2:f32x8
      block0:
         %1:f32x8 = mov 1.0:f32
         %2 = mov(4) 2.0:f32, preserve %1
   )"), (strings{"block0: '%2 = mov(4) 2.0:f32, preserve %1': a preserve source "
                "needs an SSA destination [preserve]"}));
}

TEST(ir_validate, source_count)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:f32x8 = add 1.0:f32
   )"), (strings{"block0: '%1:f32x8 = add 1.0:f32': add takes 2 sources, not 1 "
                "[operands]"}));
}

TEST(ir_validate, destination_count)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         add 1.0:f32, 2.0:f32
   )"), (strings{"block0: 'add 1.0:f32, 2.0:f32': add has 1 destinations, not 0 "
                "[operands]"}));
}

TEST(ir_validate, exec_size)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      wlr %1:f32x16
      block0:
         %1 = mov(8+4) 1.0:f32
   )"), (strings{"block0: '%1 = mov(8+4) 1.0:f32': bad execution size (8+4) "
                "[exec-size]"}));
}

TEST(ir_validate, write_to_read_only_file)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      uniform %1:f32x1
      block0:
         %1 = mov 1.0:f32
   )"), (strings{"block0: '%1 = mov 1.0:f32': uniform value %1 is read-only "
                "[dst-file]",
                "%1: uniform values are read-only [size]"}));
}

TEST(ir_validate, ssa_source_of_another_bit_size)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:u16x8 = mov %1:u16
   )"), (strings{"block0: '%2:u16x8 = mov %1:u16': reads %1 (32-bit) as u16 "
                "[type]"}));
}

TEST(ir_validate, ssa_destination_of_another_bit_size)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:f32x8:f16 = mov 1.0:f32
   )"), (strings{"block0: '%1:f32x8:f16 = mov 1.0:f32': writes %1 (32-bit) as "
                "f16 [type]"}));
}

TEST(ir_validate, ssa_region)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:f32x8 = mov %1<4,4,1>
         %3:f32x8 = mov %1<0,1,0>
   )"), (strings{"block0: '%2:f32x8 = mov %1<4,4,1>': SSA values take no "
                "regions, %1 has one [region]"}));
}

TEST(ir_validate, illegal_region)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      hw %1:u32x8@g1
      block0:
         %2:u32x8 = mov %1<3,8,1>
         %3:u32x8 = mov(4) %1<8,8,1>, preserve %2
   )"), (strings{"block0: '%2:u32x8 = mov %1<3,8,1>': illegal region <3,8,1> "
                "[region]",
                "block0: '%3:u32x8 = mov(4) %1<8,8,1>, preserve %2': region "
                "width 8 exceeds the execution size 4 [region]"}));
}

TEST(ir_validate, offset_outside_value)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %1 = mov 0:u32
         %1.16<2> = mov(4) 1:u32
   )"), strings());
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      hw %1:u32x8@g1
      block0:
         %1.28<4> = mov(4) 1:u32
   )"), strings());
   /* Both fine; one byte further is not. */
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      hw %1:u32x8@g1
      block0:
         %2:u32x8 = mov %1
   )"));
   instr *in = s->blocks()[0]->first();
   operand o = in->src(0);
   o.offset = 32;
   in->set_src(0, o);
   EXPECT_EQ(validate_errors(*s),
             (strings{"block0: '%2:u32x8 = mov %1[1]': offset 32 is outside %1 "
                     "(32 bytes) [region]"}));
}

TEST(ir_validate, cmp_needs_conditional_modifier)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:flagx8 = cmp 1.0:f32, 2.0:f32
   )"), (strings{"block0: '%1:flagx8 = cmp 1.0:f32, 2.0:f32': cmp needs a "
                "conditional modifier [flag]"}));
}

TEST(ir_validate, predicate_must_be_a_flag)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:u32x8 = mov 1:u32
         (+%1) discard
   )"), (strings{"block0: '(+%1) discard': predicate %1 is not a FLAG value "
                "[flag]"}));
}

TEST(ir_validate, predicate_covers_other_channels)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      block0:
         %1:flagx8 = cmp.l(8) 1.0:f32, 2.0:f32
         (+%1) discard
   )"), (strings{"block0: '(+%1) discard': predicate %1 covers 8 channels "
                "from 0, not the instruction's 16 from 0 [flag]"}));
}

TEST(ir_validate, flag_def_width)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      block0:
         %1:flagx16 = cmp.l 1.0:f32, 2.0:f32
   )"));
   s->blocks()[0]->first()->exec_size = 8;
   EXPECT_EQ(validate_errors(*s),
             (strings{"block0: '%1:flagx16 = cmp.l(8) 1.0:f32, 2.0:f32': flag "
                     "%1 covers 16 channels from 0, the instruction 8 from 0 "
                     "[flag]"}));
}

TEST(ir_validate, flag_read_as_source)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:flagx8 = cmp.l 1.0:f32, 2.0:f32
         %2:u32x8 = add %1, 1:u32
   )"), (strings{"block0: '%2:u32x8 = add %1, 1:u32': FLAG value %1 read as a "
                "source [flag]"}));
}

TEST(ir_validate, phi_after_other_instructions)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:f32x8 = mov 1.0:f32
         %2:f32x8 = phi
   )"), (strings{"block0: '%2:f32x8 = phi': phi after a non-phi instruction "
                "[phi]"}));
}

TEST(ir_validate, phi_source_count)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      attr %1:f32x8
      block0:         ; succs: block1 block2
         %2:flagx8 = cmp.nz %1, 0.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %3:f32x8 = mov 1.0:f32
      block2:         ; preds: block0 block1
         endif
         %4:f32x8 = phi %1
   )"), (strings{"block2: '%4:f32x8 = phi %1': 1 sources for 2 predecessors "
                "[phi]"}));
}

TEST(ir_validate, value_sizes)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      uniform %1:f32x8
      attr %2:f32x8
      block0:
         nop
   )"), (strings{"%1: UNIFORM values have width 1, not 8 [size]",
                "%2: ATTR values have the dispatch width 16, not 8 [size]"}));
}

TEST(ir_validate, register_file_of_assignment)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:flagx8@g4 = cmp.l 1.0:f32, 2.0:f32
   )"), (strings{"%1: flag value assigned to the wrong register file [ra]"}));
}

/* After allocation, interfering values may not share registers. */
TEST(ir_validate, allocation_overlap)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      attr %1:f32x16@g2
      block0:
         %2:f32x16@g4 = add %1, 1.0:f32
         %3:f32x16@g5 = add %1, 2.0:f32
         %4:f32x16@g8 = add %2, %3
   )"), (strings{"%2: shares registers with %3 while both are live "
                "[ra-overlap]"}));
   /* A value may take the registers of one that dies where it is written. */
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      attr %1:f32x16@g2
      block0:
         %2:f32x16@g4 = add %1, 1.0:f32
         %3:f32x16@g4 = add %2, 2.0:f32
         %4:f32x16@g2 = add %3, %1
   )"), strings());
   /* But not of one that lives on. */
   EXPECT_EQ(errors_of(R"(
      shader fs simd16
      attr %1:f32x16@g2
      block0:
         %2:f32x16@g3 = add %1, 1.0:f32
         %3:f32x16@g4 = add %2, %1
   )"), (strings{"%1: shares registers with %2 while both are live "
                "[ra-overlap]"}));
}

/* Out of SSA, a phi's value has a copy on each incoming edge: an allocated
 * shader may write a value twice; the form and hardware rules still apply.
 */
TEST(ir_validate, allocated_mode_is_out_of_ssa)
{
   const char *text = R"(
      shader fs simd8 %s
      attr %%1:f32x8@g2
      block0:
         %%2:flagx8@f0.0 = cmp.l %%1, 0.5:f32
         (+%%2) if
      block1:
         %%3:f32x8@g4 = copy %%1
         else
      block2:
         %%3 = add %%1, 1.0:f32
      block3:
         endif
         %%4:f32x8@g5 = add %%3, %%1
   )";
   char buf[1024];
   snprintf(buf, sizeof buf, text, "lowered allocated");
   EXPECT_EQ(errors_of(buf), strings());
   snprintf(buf, sizeof buf, text, "lowered");
   EXPECT_EQ(errors_of(buf), (strings{"%3: SSA value has 2 definitions [ssa-def]"}));
}

TEST(ir_validate, validate_throws_with_every_message)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         %1:f32x8 = add 1.0:f32
   )"));
   try {
      validate(*s, "after test");
      FAIL() << "no error";
   } catch (const error &e) {
      EXPECT_STREQ(e.what(), "invalid IR after test:\n   block0: '%1:f32x8 = "
                             "add 1.0:f32': add takes 2 sources, not 1 "
                             "[operands]");
   }
}

TEST(ir_validate, more_messages)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:u32x8
      block0:
         %1<3> = mov 0:u32
   )"), (strings{"block0: '%1<3> = mov 0:u32': destination stride 3 [region]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      hw %1:u32x8@g1
      block0:
         %2:u32x8 = mov %1:uv
   )"), (strings{"block0: '%2:u32x8 = mov %1:uv': uv is a type for immediates "
                 "only [type]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:f32x8
      block0:         ; succs: block1
         nop
      block1:         ; preds: block0
         %1 = phi 1.0:f32
   )"), (strings{"block1: '%1 = phi 1.0:f32': phi writes wlr value %1 [phi]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      block0:
         %1:u32x8, %2:u32x8 = parallel_copy 1:u32
   )"), (strings{"block0: '%1:u32x8, %2:u32x8 = parallel_copy 1:u32': "
                 "parallel_copy needs as many sources as destinations "
                 "[operands]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      wlr %1:flagx8
      block0:
         %1 = mov 0:u32
   )"), (strings{"%1: only FLAG values have the flag type [size]"}));

   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         %1:f32x8 = mov 1.0:f32
   )"));
   instr *mov = s->blocks()[0]->first();
   mov->set_src(0, mov->src(0).negate());
   EXPECT_EQ(validate_errors(*s),
             (strings{"block0: '%1:f32x8 = mov 1.0:f32': immediates take no "
                      "source modifiers [type]"}));
}

/* A uniform if (a JMPI in the code) reads channel 0's flag bit: its flag
 * must be computed alike in every channel and written NoMask.
 */
TEST(ir_validate, uniform_if_needs_a_nomask_scalar_flag)
{
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      uniform %1:u32x1
      block0:
         %2:flagx8 = cmp.z %1, 0:u32 {WE_all}
         (+%2) if {uniform}
      block1:
         endif
   )"), strings());
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      uniform %1:u32x1
      block0:
         %2:flagx8 = cmp.z %1, 0:u32
         (+%2) if {uniform}
      block1:
         endif
   )"), (strings{"block0: '(+%2) if {uniform}': a uniform if's flag needs a "
                 "NoMask write from channel 0 [uniform]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      uniform %1:u32x1
      block0:
         %2:flagx8 = cmp.z %1, 0:u32
         (+%2) %3:flagx8 = cmp.z %1, 1:u32 {WE_all}
         (+%3) if {uniform}
      block1:
         endif
   )"), (strings{"block0: '(+%3) if {uniform}': a uniform if's flag needs a "
                 "NoMask write from channel 0 [uniform]"}));
   EXPECT_EQ(errors_of(R"(
      shader fs simd8
      attr %1:u32x8
      block0:
         %2:flagx8 = cmp.z %1, 0:u32 {WE_all}
         (+%2) if {uniform}
      block1:
         endif
   )"), (strings{"block0: '(+%2) if {uniform}': only an if on a flag computed "
                 "alike in every channel can be uniform [uniform]"}));
}
