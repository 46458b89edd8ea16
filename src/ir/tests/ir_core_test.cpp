/*
 * The IR core API: use/def lists under editing, builder cursors, the
 * opcode table.
 */
#include <algorithm>

#include <gtest/gtest.h>

#include "ir/ibis_builder.h"
#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"
#include "ir/tests/ir_test_programs.h"

using namespace ibis;
using ibis::testing::dedent;

static std::vector<int>
slots(const value *v)
{
   std::vector<int> r;
   for (const use &u : v->uses())
      r.push_back(u.slot);
   return r;
}

TEST(ir_core, use_and_def_lists_follow_edits)
{
   shader s(shader_stage::fs, 8);
   builder b(&s, s.add_block());
   value *x = b.mov(data_type::f32, operand::imm_f32(1.0f));
   value *y = b.mov(data_type::f32, operand::imm_f32(2.0f));
   value *z = b.add(data_type::f32, x, x);
   instr *add = z->def();
   ASSERT_NE(add, nullptr);
   EXPECT_EQ(slots(x), (std::vector<int>{0, 1}));

   add->set_src(1, y);
   EXPECT_EQ(slots(x), (std::vector<int>{0}));
   EXPECT_EQ(slots(y), (std::vector<int>{1}));

   value *f = b.flag();
   add->set_predicate(f, true);
   add->set_preserve(x);
   EXPECT_EQ(slots(f), (std::vector<int>{use::predicate}));
   EXPECT_EQ(slots(x), (std::vector<int>{0, use::preserve}));
   add->set_predicate(nullptr);
   EXPECT_TRUE(f->uses().empty());

   value *w = b.ssa(data_type::f32);
   add->set_dst(0, w);
   EXPECT_TRUE(z->defs().empty());
   EXPECT_EQ(w->def(), add);
   add->set_dst(0, w);
   EXPECT_EQ(w->defs().size(), 1u);

   value *g = b.flag();
   add->cmod = cond_mod::z;
   add->set_flag_def(g);
   add->set_flag_def(g);
   EXPECT_EQ(g->defs().size(), 1u);
   EXPECT_TRUE(add->writes(g));

   add->remove();
   EXPECT_TRUE(x->uses().empty());
   EXPECT_TRUE(y->uses().empty());
   EXPECT_TRUE(w->defs().empty());
   EXPECT_TRUE(g->defs().empty());
   EXPECT_EQ(s.blocks()[0]->instrs().size(), 2u);
}

/* Where an instruction is: block index and position in it. */
static std::pair<unsigned, unsigned>
where(const instr *in)
{
   unsigned k = 0;
   for (const instr *i : in->parent()->instrs()) {
      if (i == in)
         break;
      k++;
   }
   return {in->parent()->index, k};
}

TEST(ir_core, clone_is_exact)
{
   auto s = parse_shader(dedent(flow_program));
   /* A use list out of program order (the first instruction now reads
    * %1, its use comes last), a removed instruction and a value without
    * a definition: the copy keeps all of them as they are.
    */
   instr *first = s->blocks()[0]->first();
   first->set_src(0, operand(s->find_value(1)));
   s->find_value(5)->def()->remove();
   s->find_value(4)->def()->flags |= INSTR_WE_ALL;

   auto c = s->clone();
   EXPECT_EQ(c->str(), s->str());
   ASSERT_EQ(c->value_id_bound(), s->value_id_bound());
   ASSERT_EQ(c->values().size(), s->values().size());
   for (const value *v : s->values()) {
      const value *w = c->find_value(v->id);
      ASSERT_NE(w, nullptr);
      EXPECT_NE(w, v);
      EXPECT_EQ(w->file, v->file);
      EXPECT_EQ(value_spec(w), value_spec(v));
      ASSERT_EQ(w->uses().size(), v->uses().size()) << "%" << v->id;
      for (size_t i = 0; i < v->uses().size(); i++) {
         EXPECT_EQ(w->uses()[i].slot, v->uses()[i].slot);
         EXPECT_EQ(where(w->uses()[i].in), where(v->uses()[i].in)) << "%" << v->id;
         EXPECT_EQ(w->uses()[i].in->parent()->parent(), c.get());
      }
      ASSERT_EQ(w->defs().size(), v->defs().size());
      for (size_t i = 0; i < v->defs().size(); i++)
         EXPECT_EQ(where(w->defs()[i]), where(v->defs()[i]));
   }
   EXPECT_EQ(c->find_value(1)->uses().back().in, c->blocks()[0]->first());
   EXPECT_TRUE(c->find_value(5)->defs().empty());
   ASSERT_EQ(c->blocks().size(), s->blocks().size());
   for (size_t i = 0; i < s->blocks().size(); i++) {
      const block *a = s->blocks()[i].get(), *b = c->blocks()[i].get();
      EXPECT_EQ(b->parent(), c.get());
      ASSERT_EQ(b->preds.size(), a->preds.size());
      for (size_t k = 0; k < a->preds.size(); k++)
         EXPECT_EQ(b->preds[k]->index, a->preds[k]->index);
      ASSERT_EQ(b->succs.size(), a->succs.size());
      for (size_t k = 0; k < a->succs.size(); k++)
         EXPECT_EQ(b->succs[k]->index, a->succs[k]->index);
   }

   /* The copy is a program of its own. */
   c->find_value(2)->def()->remove();
   EXPECT_NE(c->str(), s->str());
   EXPECT_EQ(s->find_value(2)->defs().size(), 1u);
}

/* Values nothing names (%3 never written or read, %5 whose definition
 * was removed) are left out; the rest keep their order under new ids,
 * the unread payload register %7 included.
 */
TEST(ir_core, compact_values_renumbers_in_order)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      attr %1:f32x8
      hw %7:f32x8@g2
      block0:
         %3:f32x8 = mov 3.0:f32
         %5:f32x8 = mov 5.0:f32
         %6:f32x8 = add %1, 1.0:f32
         %9:flagx8 = cmp.g %6, 0.0:f32
         (+%9) %11:f32x8 = sel %6, 2.0:f32
         fb_write_logical %11, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   s->find_value(3)->def()->remove();
   s->find_value(5)->def()->remove();
   EXPECT_EQ(s->compact_values(), 2u);
   EXPECT_EQ(s->value_id_bound(), 5u);
   EXPECT_EQ(s->str(), dedent(R"(
      shader fs simd8
      attr %0:f32x8
      hw %2:f32x8@g2
      block0:
         %1:f32x8 = add %0, 1.0:f32
         %3:flagx8 = cmp.g %1, 0.0:f32
         (+%3) %4:f32x8 = sel %1, 2.0:f32
         fb_write_logical %4, _, _, _, _, _, _, _, 0:u32, 1:u32 {EOT}
   )"));
   EXPECT_EQ(s->find_value(3)->uses().size(), 1u);
   EXPECT_EQ(s->find_value(4)->def()->op, opcode::sel);
}

TEST(ir_core, builder_cursors)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      attr %3:f32x8
      block0:         ; succs: block1
         nop
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %1:f32x8 = phi %3, %2
         %2:f32x8 = add %1, 1.0:f32
         %4:flagx8 = cmp.l %2, 8.0:f32
         (+%4) while
      block2:         ; preds: block1
         nop
   )"));
   block *loop = s->blocks()[1].get();
   instr *add = s->find_value(2)->def();
   builder b(s.get());
   b.at_start(loop);
   b.mov(data_type::u32, operand::imm_u32(1));
   b.after(add);
   b.mov(data_type::u32, operand::imm_u32(2));
   b.before(add);
   b.mov(data_type::u32, operand::imm_u32(3));
   b.at_end(s->blocks()[2].get());
   b.exec(1).nomask().mov(data_type::u32, operand::imm_u32(4));
   loop->insert(loop->before_jump(), s->create_instr(opcode::nop));
   std::string text = s->str();
   EXPECT_EQ(text.substr(text.find("block1:")), dedent(R"(
      block1:         ; preds: block0 block1 succs: block1 block2
         do
         %1:f32x8 = phi %3, %2
         %5:u32x8 = mov 1:u32
         %7:u32x8 = mov 3:u32
         %2:f32x8 = add %1, 1.0:f32
         %6:u32x8 = mov 2:u32
         %4:flagx8 = cmp.l %2, 8.0:f32
         nop
         (+%4) while
      block2:         ; preds: block1
         nop
         %8:u32x1 = mov 4:u32 {WE_all}
   )"));
}

TEST(ir_core, remove_while_iterating)
{
   auto s = parse_shader(dedent(R"(
      shader fs simd8
      block0:
         %1:u32x8 = mov 1:u32
         nop
         %2:u32x8 = add %1, %1
         nop
   )"));
   block *b = s->blocks()[0].get();
   for (auto it = b->begin(); it != b->end();) {
      instr *in = *it++;
      if (in->op == opcode::nop)
         in->remove();
   }
   EXPECT_EQ(s->str(), dedent(R"(
      shader fs simd8
      block0:
         %1:u32x8 = mov 1:u32
         %2:u32x8 = add %1, %1
   )"));
}

/* Operand, def and use lists keep a few elements inside their object and
 * move to the heap past that: both sides behave as a std::vector.
 */
TEST(ir_core, small_vector_inline_and_heap)
{
   small_vector<int, 2> v;
   EXPECT_TRUE(v.empty());
   EXPECT_EQ(v.capacity(), 2u);
   for (int i = 0; i < 9; i++)
      v.push_back(i * 10);
   EXPECT_GE(v.capacity(), 9u);
   EXPECT_EQ(std::vector<int>(v), (std::vector<int>{0, 10, 20, 30, 40, 50, 60, 70, 80}));

   /* Pushing one of its own elements while it grows. */
   small_vector<int, 2> w;
   w.push_back(7);
   w.push_back(8);
   w.push_back(w[0]);
   EXPECT_EQ(std::vector<int>(w), (std::vector<int>{7, 8, 7}));

   v.erase(v.begin() + 1);
   v.erase(v.begin() + 2, v.begin() + 4);
   EXPECT_EQ(std::vector<int>(v), (std::vector<int>{0, 20, 50, 60, 70, 80}));
   v.erase(std::remove(v.begin(), v.end(), 60), v.end());
   EXPECT_EQ(std::vector<int>(v), (std::vector<int>{0, 20, 50, 70, 80}));

   /* Copies are independent, inline or not. */
   small_vector<int, 2> c = v, d;
   d.push_back(1);
   small_vector<int, 2> e = d;
   c[0] = 99;
   e[0] = 98;
   EXPECT_EQ(v[0], 0);
   EXPECT_EQ(d[0], 1);
   d = v;
   EXPECT_EQ(std::vector<int>(d), std::vector<int>(v));

   v.resize(7);
   EXPECT_EQ(std::vector<int>(v), (std::vector<int>{0, 20, 50, 70, 80, 0, 0}));
   v.resize(1);
   EXPECT_EQ(v.size(), 1u);
   v.pop_back();
   EXPECT_TRUE(v.empty());
}

/* Past the inline room (four uses, three sources): the use lists still
 * follow every edit, in order.
 */
TEST(ir_core, long_operand_and_use_lists)
{
   shader s(shader_stage::fs, 8);
   builder b(&s, s.add_block());
   value *x = b.mov(data_type::u32, operand::imm_u32(1));
   value *y = b.mov(data_type::u32, operand::imm_u32(2));
   std::vector<operand> srcs(6, operand(x));
   value *p = b.load_payload(data_type::u32, srcs);
   instr *lp = p->def();
   ASSERT_EQ(lp->num_srcs(), 6u);
   EXPECT_EQ(slots(x), (std::vector<int>{0, 1, 2, 3, 4, 5}));
   lp->set_src(2, y);
   lp->set_src(4, y);
   EXPECT_EQ(slots(x), (std::vector<int>{0, 1, 3, 5}));
   EXPECT_EQ(slots(y), (std::vector<int>{2, 4}));
   lp->add_src(x);
   EXPECT_EQ(slots(x), (std::vector<int>{0, 1, 3, 5, 6}));
   lp->set_num_srcs(4);
   EXPECT_EQ(slots(x), (std::vector<int>{0, 1, 3}));
   EXPECT_EQ(slots(y), (std::vector<int>{2}));
   EXPECT_EQ(lp->str(), "%2:u32x8[6] = load_payload %0, %0, %1, %0");

   /* A copy of a copy, with instructions created out of program order. */
   builder front(&s);
   front.at_start(s.blocks()[0].get());
   front.add(data_type::u32, y, y);
   auto c = s.clone();
   auto cc = c->clone();
   EXPECT_EQ(cc->str(), s.str());
   EXPECT_EQ(slots(cc->find_value(x->id)), slots(x));
   EXPECT_EQ(slots(cc->find_value(y->id)), slots(y));

   lp->remove();
   EXPECT_TRUE(x->uses().empty());
   EXPECT_EQ(slots(y), (std::vector<int>{0, 1}));
}

TEST(ir_core, operands)
{
   shader s(shader_stage::fs, 16);
   value *v = s.create_value(reg_file::ssa, data_type::f32, 16, 4);
   operand o(v);
   EXPECT_EQ(o.component(2).offset, 128u);
   EXPECT_EQ(operand_str(o.component(3).negate().as_type(data_type::s32)),
             "-%0[3]:s32");
   EXPECT_EQ(operand_str(o.absolute().with_region(0, 1, 0)), "|%0<0,1,0>|");
   EXPECT_EQ(operand_str(operand::imm_s32(-5)), "-5:s32");
   EXPECT_EQ(operand::imm_of(data_type::u8, 0x1ff).imm, 0xffu);
   EXPECT_TRUE(operand().is_null());
   EXPECT_TRUE(operand::imm_f32(0.0f).is_imm());
   EXPECT_NE(o, o.component(1));
   /* Relative to where the operand starts: a message's data may begin
    * inside a vector (random cs seed 202 stored %44[3] as %44[0]).
    */
   EXPECT_EQ(operand_str(o.component(3).component(0)), "%0[3]");
   EXPECT_EQ(operand_str(o.component(1).component(2)), "%0[3]");
   EXPECT_EQ(value_spec(s.create_value(reg_file::ssa, data_type::u16, 8, 2, 8)),
             "u16x8+8[2]");
}

TEST(ir_core, opcode_table)
{
   EXPECT_STREQ(op_name(opcode::and_), "and");
   EXPECT_TRUE(op_info(opcode::add).commutative);
   EXPECT_FALSE(op_info(opcode::shl).commutative);
   EXPECT_EQ(op_info(opcode::mad).num_srcs, 3);
   EXPECT_TRUE(op_info(opcode::mach).writes_accum);
   EXPECT_TRUE(op_info(opcode::mac).reads_accum);
   EXPECT_TRUE(op_info(opcode::cmp).writes_flag);
   EXPECT_STREQ(op_info(opcode::math_rsq).math_function, "rsq");
   EXPECT_EQ(op_info(opcode::math_rsq).latency, latency_class::math);
   EXPECT_TRUE(op_info(opcode::fb_write_logical).is_send);
   EXPECT_TRUE(op_info(opcode::fb_write_logical).side_effects);
   EXPECT_FALSE(op_info(opcode::tex_logical).side_effects);
   EXPECT_STREQ(op_info(opcode::tex_logical).src_names[tex_logical_src::lod], "lod");
   EXPECT_EQ(op_info(opcode::phi).num_srcs, -1);
   EXPECT_EQ(op_info(opcode::parallel_copy).num_dsts, -1);
   opcode op;
   EXPECT_TRUE(opcode_from_name("while", &op));
   EXPECT_EQ(op, opcode::while_);
   EXPECT_FALSE(opcode_from_name("whilst", &op));
}
