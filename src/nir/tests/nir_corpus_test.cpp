/*
 * Every corpus file reads, validates and prints back byte for byte.
 */
#include "nir/nir.h"
#include "nir/tests/nir_test_util.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

/* Reads, validates and prints every file of a corpus directory; the
 * print must give the file back.
 */
static void
round_trip(const std::string &dir, nir::print_dialect dialect)
{
   const std::vector<std::string> files = nir::test::corpus_files(dir);
   ASSERT_FALSE(files.empty());

   unsigned ok = 0;
   std::vector<std::string> failures;
   for (const std::string &path : files) {
      const std::string text = nir::test::read_file(path);
      std::string why;
      try {
         auto s = nir::read_shader(text, path);
         nir::validate(*s);
         if (s->dialect != dialect)
            why = "read as the other dialect";
         /* Printing gives the file back, so printing is also a fixed point
          * for these texts.
          */
         const std::string printed = nir::print_shader(*s);
         if (why.empty() && printed != text)
            why = "printed text differs at line " +
                  std::to_string(nir::test::first_diff_line(text, printed));
      } catch (const ibis::error &e) {
         why = e.what();
      }
      if (why.empty())
         ok++;
      else
         failures.push_back(path + ": " + why);
   }

   std::printf("%u/%zu corpus files\n", ok, files.size());
   ::testing::Test::RecordProperty("corpus_files", std::to_string(ok) + "/" + std::to_string(files.size()));
   for (size_t i = 0; i < failures.size() && i < 5; i++)
      ADD_FAILURE() << failures[i];
   EXPECT_EQ(ok, files.size());
}

TEST(nir_corpus, round_trip)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   round_trip(dir, nir::print_dialect::mesa_23_3);
}

/* Mesa 25.0's print of the same shaders. */
TEST(nir_corpus, round_trip_mesa25)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl-mesa25");
   round_trip(dir, nir::print_dialect::mesa_25_0);
}

/* The model holds what the text says: spot checks on one known file. */
TEST(nir_corpus, model_of_a_known_file)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   auto s = nir::read_shader_file(dir + "/0ad/12.fs.nir");
   EXPECT_EQ(s->info.stage, nir::shader_stage::fragment);
   EXPECT_EQ(s->info.num_textures, 5u);
   EXPECT_EQ(s->info.inputs_read, 0xf0ull | (1ull << 32));
   EXPECT_TRUE(s->info.fs.needs_quad_helper_invocations);
   EXPECT_EQ(s->num_inputs, 5u);

   const nir::function_impl *impl = nir::entrypoint(*s);
   ASSERT_NE(impl, nullptr);
   const auto blocks = nir::blocks_in_order(*impl);
   ASSERT_EQ(blocks.size(), 2u);
   const nir::block &b0 = *blocks[0];
   EXPECT_EQ(b0.succs[0], blocks[1]);
   EXPECT_EQ(blocks[1], impl->end_block.get());

   /* "div 32x4   %19 = @load_interpolated_input (%18, %0 (0x0)) (base=4, ...)" */
   const nir::intrinsic_instr *lii = nullptr;
   for (const auto &in : b0.instrs) {
      const nir::def *d = in->get_def();
      if (d && d->index == 19)
         lii = static_cast<const nir::intrinsic_instr *>(in.get());
   }
   ASSERT_NE(lii, nullptr);
   EXPECT_EQ(lii->op, nir::intrinsic_op::load_interpolated_input);
   EXPECT_EQ(lii->dest.num_components, 4u);
   EXPECT_TRUE(lii->dest.divergent);
   EXPECT_EQ(lii->index(nir::intrinsic_index::base), 4);
   EXPECT_EQ(lii->get_io_semantics().location, 4u); /* VARYING_SLOT_TEX0 */
   EXPECT_EQ(lii->srcs[0].ssa->index, 18u);
   EXPECT_EQ(lii->srcs[1].ssa->parent->type, nir::instr_type::load_const);
}

/* Final-form registers: loads and stores name their decl_reg. */
TEST(nir_corpus, registers)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   auto s = nir::read_shader_file(dir + "/glamor/82.fs.nir");
   nir::validate(*s);
   unsigned loads = 0, stores = 0;
   for (const nir::block *b : nir::blocks_in_order(*nir::entrypoint(*s))) {
      for (const auto &in : b->instrs) {
         if (in->type != nir::instr_type::intrinsic)
            continue;
         const auto &intr = static_cast<const nir::intrinsic_instr &>(*in);
         const nir::intrinsic_instr *decl = nir::reg_decl(intr);
         if (intr.op == nir::intrinsic_op::load_reg)
            loads++;
         else if (intr.op == nir::intrinsic_op::store_reg)
            stores++;
         else
            continue;
         /* "@decl_reg () (num_components=1, num_array_elems=0, bit_size=32, ...)" */
         ASSERT_NE(decl, nullptr);
         EXPECT_EQ(decl->dest.index, 91u);
         EXPECT_EQ(decl->index(nir::intrinsic_index::bit_size), 32);
         EXPECT_EQ(decl->index(nir::intrinsic_index::num_components), 1);
      }
   }
   EXPECT_EQ(loads, 5u);
   EXPECT_EQ(stores, 2u);
}
