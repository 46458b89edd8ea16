/*
 * Dominance, liveness, register pressure and the hybrid interference query.
 */
#include <algorithm>

#include <gtest/gtest.h>

#include "ir/ibis_analysis.h"
#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"
#include "ir/tests/ir_test_programs.h"

using namespace ibis;
using ibis::testing::dedent;

static std::string
ids(const shader &s, const value_set &set)
{
   std::string r;
   for (const value *v : set.values(s))
      r += (r.empty() ? "%" : " %") + std::to_string(v->id);
   return r;
}

static const instr *
def_of(const shader &s, unsigned id)
{
   return s.find_value(id)->defs()[0];
}

TEST(ir_analysis, dominance)
{
   auto s = parse_shader(dedent(flow_program));
   dominance dom(*s);
   const auto &b = s->blocks();
   unsigned expected_idom[] = {~0u, 0, 0, 0, 3, 4, 5, 4};
   for (unsigned i = 0; i < b.size(); i++) {
      const block *idom = dom.idom(b[i].get());
      EXPECT_EQ(idom ? idom->index : ~0u, expected_idom[i]) << "block" << i;
   }
   EXPECT_TRUE(dom.dominates(b[4].get(), b[6].get()));
   EXPECT_TRUE(dom.dominates(b[6].get(), b[6].get()));
   EXPECT_FALSE(dom.dominates(b[5].get(), b[7].get()));
   EXPECT_FALSE(dom.dominates(b[1].get(), b[3].get()));
   EXPECT_TRUE(dom.dominates(def_of(*s, 9), def_of(*s, 11)));
   EXPECT_FALSE(dom.dominates(def_of(*s, 11), def_of(*s, 9)));
}

TEST(ir_analysis, unreachable_blocks_are_dominated_by_nothing)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         do
         break
      block1:
         while
      block2:
         nop
   )"));
   dominance dom(*s);
   const auto &b = s->blocks();
   EXPECT_FALSE(dom.reachable(b[1].get()));
   EXPECT_FALSE(dom.dominates(b[0].get(), b[1].get()));
   EXPECT_EQ(dom.idom(b[2].get()), b[0].get());
}

TEST(ir_analysis, liveness_per_block)
{
   auto s = parse_shader(dedent(flow_program));
   liveness live(*s);
   const char *in[] = {"%1", "%1 %2", "%1 %2", "%2", "%2", "%2 %7", "%2 %9", "%2"};
   const char *out[] = {"%1 %2", "%2 %4", "%2 %5", "%2 %6", "%2 %7", "%2 %9",
                        "%2 %11", ""};
   for (const auto &b : s->blocks()) {
      EXPECT_EQ(ids(*s, live.live_in(b.get())), in[b->index]) << "block" << b->index;
      EXPECT_EQ(ids(*s, live.live_out(b.get())), out[b->index]) << "block" << b->index;
   }
}

/* Values whose ids lie in different words of the sets: a block passes
 * the words its instructions do not touch through from live-out to
 * live-in (solve() keeps gen and kill only for the touched words).
 */
TEST(ir_analysis, liveness_of_ids_in_several_words)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:f32x8 = mov 1.0:f32
         %200:f32x8 = add %1, %0
         %130:f32x8 = mul %1, %0
      block1:
         do
         %70:f32x8 = add %200, %0
         %3:flagx8 = cmp.l %70, %0
         (+%3) while
      block2:
         untyped_write_logical 0:u32, %70, %130, 1:u32
   )"));
   liveness live(*s);
   const char *in[] = {"", "%130 %200", "%70 %130"};
   const char *out[] = {"%130 %200", "%70 %130 %200", ""};
   for (const auto &b : s->blocks()) {
      EXPECT_EQ(ids(*s, live.live_in(b.get())), in[b->index]) << "block" << b->index;
      EXPECT_EQ(ids(*s, live.live_out(b.get())), out[b->index]) << "block" << b->index;
   }
}

TEST(ir_analysis, flags_only_liveness_matches_the_full_one_on_flags)
{
   /* %3 lives across the if and through the loop (read after it), %8
    * only inside the loop.
    */
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      attr %1:f32x16[2]
      block0:         ; succs: block1 block2
         %3:flagx16 = cmp.g %1, 0.0:f32
         %2:flagx16 = cmp.l %1, 1.0:f32
         (+%2) if
      block1:         ; preds: block0 succs: block2
         %4:f32x16 = add %1, 1.0:f32
      block2:         ; preds: block0 block1 succs: block3
         endif
         %5:f32x16 = phi %1, %4
      block3:         ; preds: block2 block3 succs: block3 block4
         do
         %6:f32x16 = phi %5, %7
         %7:f32x16 = mul %6, 2.0:f32
         %8:flagx16 = cmp.l %7, 10.0:f32
         (+%8) while
      block4:         ; preds: block3
         (+%3) %9:f32x16 = sel %7, %1
         fb_write_logical %9, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   liveness full(*s), flags(*s, true);
   for (const value *v : s->values()) {
      if (v->file != reg_file::flag)
         continue;
      EXPECT_EQ(flags.start(v), full.start(v)) << "%" << v->id;
      EXPECT_EQ(flags.end(v), full.end(v)) << "%" << v->id;
   }
   EXPECT_LT(full.start(s->find_value(3)), full.start(s->find_value(8)));
   for (const auto &b : s->blocks()) {
      for (const value *v : s->values()) {
         bool flag = v->file == reg_file::flag;
         EXPECT_EQ(flags.live_in(b.get()).has(v), flag && full.live_in(b.get()).has(v));
         EXPECT_EQ(flags.live_out(b.get()).has(v), flag && full.live_out(b.get()).has(v));
      }
   }
   EXPECT_TRUE(flags.live_in(s->blocks()[3].get()).has(s->find_value(3)));
}

/* The sets-only liveness (schedulers, remat, pressure) answers every
 * question but the intervals as the full one does.
 */
TEST(ir_analysis, sets_only_liveness_matches_the_full_one)
{
   auto s = parse_shader(dedent(flow_program));
   liveness full(*s), sets(*s, false, live_detail::sets);
   for (const auto &b : s->blocks()) {
      EXPECT_EQ(ids(*s, sets.live_in(b.get())), ids(*s, full.live_in(b.get())));
      EXPECT_EQ(ids(*s, sets.live_out(b.get())), ids(*s, full.live_out(b.get())));
      std::vector<std::string> a, c;
      full.walk_backwards(b.get(), [&](const instr *, const value_set &l) {
         a.push_back(ids(*s, l));
      });
      sets.walk_backwards(b.get(), [&](const instr *, const value_set &l) {
         c.push_back(ids(*s, l));
      });
      EXPECT_EQ(a, c) << "block" << b->index;
   }
   for (const value *v : s->values())
      EXPECT_EQ(sets.first_def(v), full.first_def(v)) << "%" << v->id;
   EXPECT_FALSE(ids(*s, sets.live_out(s->blocks()[0].get())).empty());
   EXPECT_EQ(compute_pressure(sets).at, compute_pressure(full).at);
}

TEST(ir_analysis, liveness_per_instruction)
{
   auto s = parse_shader(dedent(flow_program));
   liveness live(*s);
   const instr *cmp_ge = def_of(*s, 8), *add11 = def_of(*s, 11);
   EXPECT_EQ(ids(*s, live.live_after(cmp_ge)), "%2 %7 %8");
   EXPECT_EQ(ids(*s, live.live_after(add11)), "%2 %11");
   EXPECT_TRUE(live.is_live_after(s->find_value(7), cmp_ge));
   EXPECT_FALSE(live.is_live_after(s->find_value(9), add11));
   EXPECT_TRUE(live.is_live_after(s->find_value(2), add11));
   /* Not yet defined. */
   EXPECT_FALSE(live.is_live_after(s->find_value(11), cmp_ge));
   /* The answers of is_live_after() and live_after() agree everywhere. */
   for (const auto &b : s->blocks()) {
      for (const instr *in : b->instrs()) {
         value_set after = live.live_after(in);
         for (const value *v : s->values())
            EXPECT_EQ(live.is_live_after(v, in), after.has(v))
               << "%" << v->id << " after '" << in->str() << "'";
      }
   }
}

TEST(ir_analysis, wlr_value_lives_from_its_first_write)
{
   auto s = parse_shader(dedent(R"(
      shader cs simd16
      wlr %1:u16x16
      block0:
         %1 = mov(8) 0x76543210:v {WE_all}
         %2:u32x16 = mov 0:u32
         %1.16<1> = add(8+8) %1<8,8,1>, 8:u16 {WE_all}
         %3:u32x16 = add %1, %2
   )"));
   liveness live(*s);
   const instr *first = s->blocks()[0]->first();
   const instr *zero = def_of(*s, 2);
   EXPECT_TRUE(live.is_live_after(s->find_value(1), first));
   EXPECT_EQ(ids(*s, live.live_after(zero)), "%1 %2");
   EXPECT_EQ(live.start(s->find_value(1)), 0u);
   EXPECT_EQ(live.end(s->find_value(1)), 3u);
}

/* Channels that take a cont wait, disabled, at the while while the others
 * run the rest of the body: the value the cont carries to the do block's
 * phi (%3) must stay in its register until the while, or a write of
 * another layout there (%7, 16-bit) may share it.  (random fs seed 1874
 * SIMD32: a u16 staging value clobbered a byte register array of the
 * continuing channels.)
 */
TEST(ir_analysis, value_carried_by_cont_lives_to_the_while)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      hw %0:f32x8@g2
      block0:
         %1:u32x8 = mov 0:u32
      block1:
         do
         %2:u32x8 = phi %1, %3, %5
         %4:flagx8 = cmp.ge %2:s32, 4:s32
         (+%4) break
      block2:
         %3:u32x8 = add %2, 1:u32
         %6:flagx8 = cmp.l %3:s32, 2:s32
         (+%6) cont
      block3:
         %7:u16x8 = mov 5:u16
         %5:u32x8 = add %2, %7:u16
         while
      block4:
         untyped_write_logical 0:u32, %2, %2, 1:u32
   )"));
   liveness live(*s);
   const instr *wh = s->find_value(5)->defs()[0]->parent()->last();
   ASSERT_EQ(wh->op, opcode::while_);
   EXPECT_GE(live.end(s->find_value(3)), wh->ip);
   EXPECT_TRUE(regs_interval_interfere(s->find_value(3), s->find_value(7), live));
}

/* Hand counts (32-byte GRFs; width-1 values pack by dwords):
 *   %1 u32x1[3]  12 B  uniform      %6 u16x32[2]  128 B  4 GRFs
 *   %2 f64x1      8 B  uniform      %7 u32x1        4 B  uniform
 *   %3 f32x32   128 B  4 GRFs       %8 f16x1    2 -> 4 B uniform
 *   %4 f16x16    32 B  1 GRF        %9 u8x8         8 B  1 GRF
 *   %5 f64x8     64 B  2 GRFs       %10 u64x1[3]   24 B  uniform
 * Everything stays live until the final write.
 */
TEST(ir_analysis, pressure_mixed_widths_bit_sizes_and_uniforms)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd32
      uniform %1:u32x1[3]
      uniform %2:f64x1
      block0:
         %3:f32x32 = mov %1<0,1,0>:f32
         %4:f16x16 = mov 0x3c00:f16
         %5:f64x8 = mov %2<0,1,0>
         %6:u16x32[2] = undef
         %7:u32x1 = mov %1[2]
         %8:f16x1 = mov 0x3c00:f16
         %9:u8x8 = mov 7:u8
         %10:u64x1[3] = undef
         fb_write_logical %3, %4, %5, %6, %7, %8, %9, %1, %2, %10 {EOT}
   )"));
   liveness live(*s);
   register_pressure p = compute_pressure(live);
   std::vector<unsigned> expected = {
      4 + 1,                  /* %3; uniforms 12 + 8 = 20 B */
      4 + 1 + 1,              /* + %4 */
      4 + 1 + 2 + 1,          /* + %5 */
      4 + 1 + 2 + 4 + 1,      /* + %6 */
      4 + 1 + 2 + 4 + 1,      /* + %7: 24 B of uniforms */
      4 + 1 + 2 + 4 + 1,      /* + %8: 28 B */
      4 + 1 + 2 + 4 + 1 + 1,  /* + %9 */
      4 + 1 + 2 + 4 + 1 + 2,  /* + %10: 52 B of uniforms take 2 */
      4 + 1 + 2 + 4 + 1 + 2,  /* the final read */
   };
   EXPECT_EQ(p.at, expected);
   EXPECT_EQ(p.max, 14u);
}

/* Values dying at their last read free their registers. */
TEST(ir_analysis, pressure_follows_last_uses)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      attr %1:f32x16[2]
      block0:
         %2:f32x16 = add %1, %1[1]
         %3:f64x16 = mov %2
         %4:f16x16 = mov 0x3c00:f16
         %5:f64x16 = mul %3, %3
         fb_write_logical %5, %4, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   liveness live(*s);
   register_pressure p = compute_pressure(live);
   /* %1 4 GRFs, %2 2, %3 4, %4 1, %5 4. */
   std::vector<unsigned> expected = {4 + 2, 2 + 4, 4 + 1, 4 + 1 + 4, 4 + 1};
   EXPECT_EQ(p.at, expected);
   EXPECT_EQ(p.max, 9u);
}

/* Pressure asked for some blocks only: theirs as in the whole one, the
 * others' left at 0.
 */
TEST(ir_analysis, pressure_of_chosen_blocks)
{
   auto s = parse_shader(dedent(flow_program));
   liveness live(*s, false, live_detail::sets);
   const register_pressure all = compute_pressure(live);
   std::vector<uint8_t> only(s->blocks().size(), 0);
   only[1] = only[4] = 1;
   const register_pressure some = compute_pressure(live, &only);
   ASSERT_EQ(some.at.size(), all.at.size());
   unsigned max = 0, weighed = 0;
   for (const auto &b : s->blocks()) {
      for (const instr *in : b->instrs()) {
         if (only[b->index]) {
            EXPECT_EQ(some.at[in->ip], all.at[in->ip]) << "ip " << in->ip;
            max = std::max(max, all.at[in->ip]);
            weighed += all.at[in->ip] != 0;
         } else {
            EXPECT_EQ(some.at[in->ip], 0u) << "ip " << in->ip;
         }
      }
   }
   EXPECT_GT(weighed, 0u);
   EXPECT_EQ(some.max, max);
}

/* The pressure by definition, summing the whole present set at every
 * instruction: what compute_pressure()'s running sums must equal.
 */
static std::vector<unsigned>
pressure_by_whole_sets(const shader &s, const liveness &live)
{
   std::vector<unsigned> at;
   for (const auto &b : s.blocks())
      at.resize(at.size() + b->instrs().size());
   for (const auto &b : s.blocks()) {
      live.walk_backwards(b.get(), [&](const instr *in, const value_set &after) {
         value_set present = after;
         for (const operand &d : in->dsts())
            if (d.val)
               present.add(d.val);
         if (!in->is_phi()) {
            for (const operand &o : in->srcs())
               if (o.val)
                  present.add(o.val);
            if (in->preserve().val)
               present.add(in->preserve().val);
         }
         unsigned grfs = 0, uniform = 0;
         for (const value *v : present.values(s)) {
            if (!uses_grfs(v))
               continue;
            if (v->width == 1)
               uniform += uniform_bytes(v);
            else
               grfs += value_grfs(v);
         }
         at[in->ip] = grfs + (uniform + 31) / 32;
      });
   }
   return at;
}

/* Blocks whose live sets differ from their neighbours' (branches, loops,
 * phis, ids in several set words, uniforms): the running sums carried
 * from block to block give the whole-set pressure everywhere.
 */
TEST(ir_analysis, pressure_matches_whole_set_sums_across_blocks)
{
   const char *programs[] = {
      flow_program,
      R"(
      shader fs simd16
      uniform %300:u32x1[3]
      attr %1:f32x16[2]
      block0:
         %2:f32x16 = mov 1.0:f32
         %200:f64x16 = mov %2
         %130:u32x1 = mov %300[1]
         %4:flagx16 = cmp.g %1, 0.0:f32
         (+%4) if
      block1:
         %131:u32x1 = add %130, %300[2]
         %5:f32x16 = add %2, %131:f32
         else
      block2:
         %6:f32x16 = mov %200
      block3:
         endif
         %7:f32x16 = phi %5, %6
      block4:
         do
         %70:f32x16 = phi %7, %71
         %71:f32x16 = add %70, %1[1]
         %8:flagx16 = cmp.l %71, %1
         (+%8) while
      block5:
         fb_write_logical %71, %200, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
      )",
   };
   for (const char *text : programs) {
      auto s = parse_shader(dedent(text));
      liveness live(*s, false, live_detail::sets);
      const register_pressure p = compute_pressure(live);
      const std::vector<unsigned> want = pressure_by_whole_sets(*s, live);
      EXPECT_EQ(p.at, want);
      EXPECT_EQ(p.max, *std::max_element(want.begin(), want.end()));
   }
}

TEST(ir_analysis, value_grfs)
{
   shader s(shader_stage::fs, 16);
   auto grfs = [&](data_type t, unsigned width, unsigned length) {
      return value_grfs(s.create_value(reg_file::ssa, t, width, length));
   };
   EXPECT_EQ(grfs(data_type::f32, 16, 1), 2u);
   EXPECT_EQ(grfs(data_type::f64, 8, 1), 2u);
   EXPECT_EQ(grfs(data_type::f16, 16, 1), 1u);
   EXPECT_EQ(grfs(data_type::f16, 8, 1), 1u);
   EXPECT_EQ(grfs(data_type::f16, 8, 3), 2u);
   EXPECT_EQ(grfs(data_type::f32, 32, 4), 16u);
   EXPECT_EQ(grfs(data_type::u32, 1, 9), 2u);
}

/* The seed's example: a (%2) is live in the else branch, b (%4) is
 * written in the then branch; b_def varies how b is written.
 */
struct interference {
   bool ssa, interval, hybrid;
};

static interference
a_and_b(const std::string &b_def)
{
   std::string text = dedent(R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:f32x16 = mov 1.0:f32
         %3:flagx16 = cmp.nz %1, 0.0:f32
         (+%3) if
      block1:
         B_DEF
         %5:f32x16 = mov 2.0:f32
         else
      block2:
         %6:f32x16 = add %2, %1
      block3:
         endif
         %7:f32x16 = phi %5, %6
   )");
   text.replace(text.find("B_DEF"), 5, b_def);
   auto s = parse_shader(text);
   liveness live(*s);
   dominance dom(*s);
   const value *a = s->find_value(2), *b = s->find_value(4);
   EXPECT_EQ(regs_interfere(a, b, live, dom), regs_interfere(b, a, live, dom));
   return {regs_ssa_interfere(a, b, live, dom), regs_interval_interfere(a, b, live),
           regs_interfere(a, b, live, dom)};
}

TEST(ir_analysis, interference_complementary_masks)
{
   interference i = a_and_b("%4:f32x16 = mov 0.5:f32");
   EXPECT_FALSE(i.ssa);
   EXPECT_TRUE(i.interval);
   EXPECT_FALSE(i.hybrid);
}

TEST(ir_analysis, interference_nomask_write)
{
   interference i = a_and_b("%4:f32x16 = mov 0.5:f32 {WE_all}");
   EXPECT_FALSE(i.ssa);
   EXPECT_TRUE(i.hybrid);
}

TEST(ir_analysis, interference_width_bit_size_and_quarter)
{
   EXPECT_TRUE(a_and_b("%4:f32x8 = mov 0.5:f32").hybrid);
   EXPECT_TRUE(a_and_b("%4:f16x16 = mov 0x3800:f16").hybrid);
   EXPECT_TRUE(a_and_b("%4:f64x16 = mov 0.5:f64").hybrid);
   /* Same width and bit size as a's first half, but the second quarter. */
   interference q = a_and_b("%4:f32x8+8 = mov 0.5:f32");
   EXPECT_FALSE(q.ssa);
   EXPECT_TRUE(q.hybrid);
}

TEST(ir_analysis, interference_uniform_and_partial_writes_are_global)
{
   EXPECT_TRUE(a_and_b("%4:f32x1 = mov 0.5:f32").hybrid);
   EXPECT_TRUE(a_and_b("%4:f32x16 = mov(8) 0.5:f32, preserve %1").hybrid);
}

TEST(ir_analysis, interference_ssa)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      attr %1:f32x16
      block0:
         %2:f32x16 = add %1, 1.0:f32
         %3:f32x16 = add %1, 2.0:f32
         %4:f32x16 = add %2, %3
         %5:f32x16 = add %4, 1.0:f32
   )"));
   liveness live(*s);
   dominance dom(*s);
   auto v = [&](unsigned id) { return s->find_value(id); };
   EXPECT_TRUE(regs_ssa_interfere(v(2), v(3), live, dom));
   EXPECT_TRUE(regs_ssa_interfere(v(1), v(2), live, dom));
   EXPECT_FALSE(regs_ssa_interfere(v(1), v(4), live, dom));  /* %1 dies at %3 */
   EXPECT_FALSE(regs_ssa_interfere(v(2), v(4), live, dom));  /* dies where %4 is born */
   EXPECT_FALSE(regs_interfere(v(4), v(5), live, dom));
   EXPECT_FALSE(regs_interfere(v(2), v(5), live, dom));
   EXPECT_FALSE(regs_interval_interfere(v(2), v(5), live));
}

/* Channels that take a continue keep the value the header's phi reads
 * from it, disabled, while the others run the rest of the body: its
 * interval reaches the while (random fs seed 3951 SIMD32, where a u16
 * temporary written later in the body landed on the u8 value's bytes).
 */
TEST(ir_analysis, value_carried_by_a_continue_lives_to_the_while)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd16
      block0:         ; succs: block1
         %1:u32x16 = mov 0:u32
      block1:         ; preds: block0 block3 block4 succs: block2 block5
         do
         %2:u32x16 = phi %1, %3, %6
         %4:flagx16 = cmp.ge %2, 3:u32
         (+%4) break
      block2:         ; preds: block1 succs: block3 block4
         %3:u32x16 = add %2, 1:u32
         %5:flagx16 = cmp.l %2, 1:u32
         (+%5) if
      block3:         ; preds: block2 succs: block1
         cont
      block4:         ; preds: block2 succs: block1
         endif
         %6:u32x16 = add %2, 2:u32
         %7:u16x16 = mov 5:u16
         %8:u16x16 = add %7, 1:u16
         while
      block5:         ; preds: block1
         fb_write_logical %2, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   liveness live(*s);
   const value *carried = s->find_value(3);
   const instr *w = s->blocks()[4]->last();
   ASSERT_EQ(w->op, opcode::while_);
   EXPECT_GT(live.end(carried), def_of(*s, 8)->ip);
   EXPECT_EQ(live.end(carried), w->ip + 1);
   /* The entry edge falls through into the header: no continue. */
   EXPECT_EQ(live.end(s->find_value(1)), s->blocks()[1]->first()->ip);
}
