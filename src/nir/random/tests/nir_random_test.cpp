/*
 * The random program generator: validity, round trip through the text
 * format, reproducibility, coverage of the dialect, and the guards it
 * promises (docs/random.md).
 */
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;
using namespace ibis::nir;

namespace {

constexpr unsigned num_seeds = 240;

/* Seeds cycle through the stages; one in four programs uses phis. */
random_options
options_for(uint64_t seed)
{
   static const shader_stage stages[] = {shader_stage::vertex,
                                         shader_stage::fragment,
                                         shader_stage::compute};
   random_options o;
   o.seed = seed;
   o.stage = stages[seed % 3];
   o.registers = (seed / 3) % 4 != 3;
   return o;
}

std::vector<const instr *>
all_instrs(const shader &s)
{
   std::vector<const instr *> out;
   for (block *b : blocks_in_order(*entrypoint(s))) {
      for (const auto &in : b->instrs)
         out.push_back(in.get());
   }
   return out;
}

template <class F>
void
walk_cf(const cf_list &list, F &&f)
{
   for (const auto &n : list) {
      f(*n);
      if (n->type == cf_type::if_) {
         walk_cf(static_cast<const if_ &>(*n).then_list, f);
         walk_cf(static_cast<const if_ &>(*n).else_list, f);
      } else if (n->type == cf_type::loop) {
         walk_cf(static_cast<const loop &>(*n).body, f);
      }
   }
}

const alu_instr *
as_alu(const def *d)
{
   return d->parent->type == instr_type::alu
             ? static_cast<const alu_instr *>(d->parent) : nullptr;
}

bool
is_const(const def *d, uint64_t v)
{
   if (d->parent->type != instr_type::load_const)
      return false;
   const auto *lc = static_cast<const load_const_instr *>(d->parent);
   return const_value_bits(lc->values[0], d->bit_size) == v;
}

} /* namespace */

/* generate -> validate -> print -> read -> validate -> print: same text. */
TEST(nir_random, programs_validate_and_round_trip)
{
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      auto s = generate(options_for(seed));
      ASSERT_NO_THROW(validate(*s));
      const std::string text = print_shader(*s);
      std::unique_ptr<shader> back;
      ASSERT_NO_THROW(back = read_shader(text, "seed.nir")) << text;
      ASSERT_NO_THROW(validate(*back)) << text;
      ASSERT_EQ(print_shader(*back), text);
   }
}

TEST(nir_random, every_feature_off_still_validates)
{
   for (uint64_t seed = 0; seed < 30; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      random_options o = options_for(seed);
      o.bits16 = o.bits64 = o.subgroups = o.textures = false;
      o.ubo = o.ssbo = o.approximate = o.derivatives = false;
      o.max_depth = 1;
      auto s = generate(o);
      ASSERT_NO_THROW(validate(*s));
   }
}

TEST(nir_random, big_programs_validate)
{
   for (uint64_t seed = 0; seed < 6; seed++) {
      random_options o = options_for(seed);
      o.num_instrs = 1000;
      o.max_depth = 5;
      auto s = generate(o);
      ASSERT_NO_THROW(validate(*s)) << "seed " << seed;
      EXPECT_GT(all_instrs(*s).size(), 1000u);
   }
}

TEST(nir_random, same_seed_same_program)
{
   for (uint64_t seed : {0ull, 7ull, 123456789ull, ~0ull}) {
      random_options o = options_for(seed);
      EXPECT_EQ(print_shader(*generate(o)), print_shader(*generate(o)));
   }
}

TEST(nir_random, different_seeds_different_programs)
{
   std::set<std::string> texts;
   for (uint64_t seed = 0; seed < 60; seed++) {
      random_options o;
      o.seed = seed;
      texts.insert(print_shader(*generate(o)));
   }
   EXPECT_EQ(texts.size(), 60u);
}

TEST(nir_random, bad_stage_is_an_error)
{
   random_options o;
   o.stage = shader_stage::geometry;
   EXPECT_THROW(generate(o), ibis::error);
}

/* Across the seeds, every ALU opcode the generator claims, every intrinsic
 * and texture kind, and every control-flow construct appears.
 */
TEST(nir_random, coverage)
{
   std::map<alu_op, unsigned> alu_count;
   std::map<intrinsic_op, unsigned> intr_count;
   std::map<tex_op, unsigned> tex_count;
   std::map<std::string, unsigned> cf;
   std::set<unsigned> alu_bits;
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      auto s = generate(options_for(seed));
      for (const instr *in : all_instrs(*s)) {
         switch (in->type) {
         case instr_type::alu: {
            const auto *a = static_cast<const alu_instr *>(in);
            alu_count[a->op]++;
            alu_bits.insert(a->dest.bit_size);
            break;
         }
         case instr_type::intrinsic: {
            const auto *ii = static_cast<const intrinsic_instr *>(in);
            intr_count[ii->op]++;
            /* Atomics: a swap is cmpxchg (12) or fcmpxchg (13); the others
             * integer ops 0-8 (iadd ... xchg) or fmin/fmax (10, 11), never
             * fadd (9), which Gen9's float message lacks.
             */
            if (ii->op == intrinsic_op::ssbo_atomic_swap) {
               const int32_t a = ii->index(intrinsic_index::atomic_op);
               EXPECT_TRUE(a == 12 || a == 13) << a;
               cf["atomic " + std::to_string(a)]++;
            }
            if (ii->op == intrinsic_op::ssbo_atomic) {
               const int32_t a = ii->index(intrinsic_index::atomic_op);
               EXPECT_TRUE(a <= 8 || a == 10 || a == 11) << a;
               cf["atomic " + std::to_string(a)]++;
            }
            break;
         }
         case instr_type::tex: {
            const auto *t = static_cast<const tex_instr *>(in);
            tex_count[t->op]++;
            if (t->op == tex_op::tg4) {
               cf["tg4 component " + std::to_string(t->component)]++;
               /* A constant offset, in the header's range. */
               const int o = t->src_index(tex_src_type::offset);
               if (o >= 0) {
                  cf["tg4 offset"]++;
                  const def *d = t->srcs[o].ssa;
                  EXPECT_EQ(d->parent->type, instr_type::load_const);
               }
            }
            if (t->src_index(tex_src_type::comparator) >= 0) {
               /* Through the shadow unit. */
               cf["shadow"]++;
               EXPECT_EQ(t->texture_index, 2u);
               EXPECT_EQ(t->sampler_index, 2u);
               EXPECT_TRUE(t->is_shadow);
            }
            if (t->op == tex_op::txd) {
               EXPECT_GE(t->src_index(tex_src_type::ddx), 0);
               EXPECT_GE(t->src_index(tex_src_type::ddy), 0);
            }
            break;
         }
         case instr_type::phi:
            cf["phi"]++;
            break;
         case instr_type::jump:
            cf[static_cast<const jump_instr *>(in)->kind == jump_type::continue_ ? "continue"
                                                                                 : "break"]++;
            break;
         default:
            break;
         }
         if (const def *d = in->get_def())
            cf[d->divergent ? "div" : "con"]++;
      }
      walk_cf(entrypoint(*s)->body, [&](const cf_node &n) {
         if (n.type == cf_type::loop) {
            cf["loop"]++;
            if (n.parent && n.parent->type == cf_type::loop)
               cf["nested loop"]++;
         } else if (n.type == cf_type::if_) {
            const auto &i = static_cast<const if_ &>(n);
            cf[i.condition.ssa->divergent ? "divergent if" : "uniform if"]++;
         }
      });
   }

   for (alu_op op : random_alu_ops())
      EXPECT_GT(alu_count[op], 0u) << op_info(op).name;
   EXPECT_EQ(alu_count.size(), random_alu_ops().size());

   static const intrinsic_op intrinsics[] = {
      intrinsic_op::decl_reg, intrinsic_op::load_reg, intrinsic_op::store_reg,
      intrinsic_op::load_ubo, intrinsic_op::load_ubo_uniform_block_intel,
      intrinsic_op::load_ssbo, intrinsic_op::store_ssbo,
      intrinsic_op::load_input, intrinsic_op::load_interpolated_input,
      intrinsic_op::load_barycentric_pixel, intrinsic_op::load_frag_coord,
      intrinsic_op::load_vertex_id_zero_base, intrinsic_op::load_instance_id,
      intrinsic_op::load_local_invocation_index,
      intrinsic_op::load_local_invocation_id, intrinsic_op::load_workgroup_id,
      intrinsic_op::store_output, intrinsic_op::reduce,
      intrinsic_op::inclusive_scan, intrinsic_op::exclusive_scan,
      intrinsic_op::read_first_invocation, intrinsic_op::read_invocation,
      intrinsic_op::shuffle, intrinsic_op::ballot, intrinsic_op::vote_any,
      intrinsic_op::vote_all, intrinsic_op::vote_ieq, intrinsic_op::vote_feq,
      intrinsic_op::load_subgroup_invocation,
      intrinsic_op::quad_swap_horizontal, intrinsic_op::quad_swap_vertical,
      intrinsic_op::quad_swap_diagonal, intrinsic_op::quad_broadcast,
      intrinsic_op::load_uniform, intrinsic_op::ssbo_atomic, intrinsic_op::ssbo_atomic_swap,
      intrinsic_op::store_shared, intrinsic_op::load_shared, intrinsic_op::terminate_if,
      intrinsic_op::demote_if, intrinsic_op::barrier, intrinsic_op::shared_atomic,
   };
   for (intrinsic_op op : intrinsics)
      EXPECT_GT(intr_count[op], 0u) << op_info(op).name;
   for (tex_op op : {tex_op::tex, tex_op::txb, tex_op::txl, tex_op::txf, tex_op::txs,
                     tex_op::tg4, tex_op::txd})
      EXPECT_GT(tex_count[op], 0u) << op_info(op).name;
   EXPECT_GT(cf["tg4 offset"], 0u);
   EXPECT_GT(cf["shadow"], 0u);
   for (const char *a : {"atomic 10", "atomic 11", "atomic 12", "atomic 13"})
      EXPECT_GT(cf[a], 0u) << a;
   for (unsigned c = 0; c < 4; c++)
      EXPECT_GT(cf["tg4 component " + std::to_string(c)], 0u) << c;
   for (const char *c : {"phi", "break", "continue", "loop", "nested loop", "divergent if",
                         "uniform if", "con", "div"})
      EXPECT_GT(cf[c], 0u) << c;
   for (unsigned bits : {8u, 16u, 32u, 64u})
      EXPECT_TRUE(alu_bits.count(bits)) << bits;
}

/* Toggles remove what they name. */
TEST(nir_random, toggles_are_honoured)
{
   for (uint64_t seed = 0; seed < 45; seed++) {
      random_options o = options_for(seed);
      o.bits16 = o.bits64 = o.subgroups = o.textures = o.approximate = false;
      o.ubo = false;
      o.registers = seed % 2;
      auto s = generate(o);
      for (const instr *in : all_instrs(*s)) {
         if (const def *d = in->get_def()) {
            EXPECT_EQ(d->bit_size, 32) << "seed " << seed;
         }
         EXPECT_NE(in->type, instr_type::tex);
         if (in->type == instr_type::phi) {
            EXPECT_FALSE(o.registers);
         }
         if (in->type == instr_type::alu) {
            const alu_op op = static_cast<const alu_instr *>(in)->op;
            for (alu_op a : {alu_op::frcp, alu_op::frsq, alu_op::fsqrt,
                             alu_op::fexp2, alu_op::flog2, alu_op::fsin,
                             alu_op::fcos, alu_op::fpow})
               EXPECT_NE(op, a);
         }
         if (in->type == instr_type::intrinsic) {
            const intrinsic_op op = static_cast<const intrinsic_instr *>(in)->op;
            EXPECT_NE(op, intrinsic_op::load_ubo);
            EXPECT_NE(op, intrinsic_op::reduce);
            EXPECT_NE(op, intrinsic_op::ballot);
            EXPECT_NE(op, intrinsic_op::shuffle);
            EXPECT_NE(op, intrinsic_op::load_subgroup_invocation);
            if (!o.registers) {
               EXPECT_NE(op, intrinsic_op::decl_reg);
            }
         }
      }
   }
}

/* Compute programs talk across invocations through shared memory: every
 * barrier is at the top level or in an if on a bit of the workgroup id
 * (all invocations of the group reach it, or none),
 * of workgroup scope; workgroups of 24, 32 and 64 invocations; the
 * exchange regions fit in shared_size; cross-invocation atomics are only
 * order-independent ones; --no-shared leaves no barrier.
 */
TEST(nir_random, shared_memory_exchanges)
{
   std::map<unsigned, unsigned> sizes;
   unsigned barriers = 0, atomics = 0, wg_ifs = 0, in_loops = 0, total = 0;
   for (uint64_t seed = 2; seed < 300; seed += 3) {
      random_options o = options_for(seed);
      ASSERT_EQ(o.stage, shader_stage::compute);
      auto s = generate(o);
      sizes[s->info.workgroup_size[0]]++;
      for (const auto &n : entrypoint(*s)->body) {
         if (n->type != cf_type::block)
            continue;
         for (const auto &in : static_cast<const block &>(*n).instrs) {
            if (in->type != instr_type::intrinsic)
               continue;
            const auto &ii = static_cast<const intrinsic_instr &>(*in);
            if (ii.op == intrinsic_op::barrier) {
               barriers++;
               EXPECT_EQ(ii.index(intrinsic_index::execution_scope), 4);
               EXPECT_EQ(ii.index(intrinsic_index::memory_scope), 4);
            }
            if (ii.op == intrinsic_op::shared_atomic) {
               atomics++;
               EXPECT_LE(ii.index(intrinsic_index::atomic_op), 7);
               EXPECT_LT(ii.index(intrinsic_index::base) + 16, int64_t(s->info.shared_size));
            }
            if (ii.op == intrinsic_op::store_shared || ii.op == intrinsic_op::load_shared) {
               EXPECT_LE(ii.index(intrinsic_index::base) + 4 * s->info.workgroup_size[0],
                         int64_t(s->info.shared_size)) << "seed " << seed;
            }
         }
      }
      unsigned all = 0, to_ssbo2 = 0;
      for (const instr *in : all_instrs(*s)) {
         if (in->type != instr_type::intrinsic)
            continue;
         const auto &ii = static_cast<const intrinsic_instr &>(*in);
         if (ii.op == intrinsic_op::barrier)
            all++;
         if (ii.op == intrinsic_op::store_ssbo && !is_const(ii.srcs[1].ssa, 1)) {
            /* The words read from other invocations, one per exchange. */
            EXPECT_TRUE(is_const(ii.srcs[1].ssa, 2)) << "seed " << seed;
            to_ssbo2++;
         }
      }
      EXPECT_EQ(to_ssbo2, all ? 1u : 0u) << "seed " << seed;
      EXPECT_EQ(s->info.num_ssbos, all ? 3u : 2u) << "seed " << seed;
      /* At the top level, in a top-level loop counted by a constant, or
       * in the then-block of a top-level if on (workgroup_id.x & 1) == k,
       * which the whole group agrees on.
       */
      auto barriers_in = [](const block &b) {
         unsigned k = 0;
         for (const auto &in : b.instrs)
            k += in->type == instr_type::intrinsic &&
                 static_cast<const intrinsic_instr &>(*in).op == intrinsic_op::barrier;
         return k;
      };
      unsigned top = 0;
      for (const auto &n : entrypoint(*s)->body) {
         if (n->type == cf_type::block) {
            top += barriers_in(static_cast<const block &>(*n));
            continue;
         }
         if (n->type == cf_type::loop) {
            /* A top-level loop whose one exit is an if (i >= constant)
             * holding a break and nothing else: every invocation runs
             * the same number of trips.
             */
            unsigned ifs = 0, exits = 0, in_body = 0;
            for (const auto &m : static_cast<const loop &>(*n).body) {
               if (m->type == cf_type::block) {
                  in_body += barriers_in(static_cast<const block &>(*m));
                  continue;
               }
               ifs++;
               if (m->type != cf_type::if_)
                  continue;
               const auto &exit = static_cast<const if_ &>(*m);
               const alu_instr *ge = as_alu(exit.condition.ssa);
               if (ge && ge->op == alu_op::uge32 &&
                   ge->srcs[1].ssa->parent->type == instr_type::load_const &&
                   exit.then_list.size() == 1 && exit.else_list.size() == 1 &&
                   static_cast<const block &>(*exit.then_list[0]).instrs.size() == 1 &&
                   static_cast<const block &>(*exit.then_list[0]).instrs[0]->type ==
                      instr_type::jump)
                  exits++;
            }
            if (ifs == 1 && exits == 1) {
               in_loops += in_body;
               top += in_body;
            }
            continue;
         }
         if (n->type != cf_type::if_)
            continue;
         const auto &nif = static_cast<const if_ &>(*n);
         const alu_instr *eq = as_alu(nif.condition.ssa);
         const alu_instr *bit = eq && eq->op == alu_op::ieq32 ? as_alu(eq->srcs[0].ssa) : nullptr;
         if (!bit || bit->op != alu_op::iand || !is_const(bit->srcs[1].ssa, 1) ||
             bit->srcs[0].ssa->parent->type != instr_type::intrinsic ||
             static_cast<const intrinsic_instr *>(bit->srcs[0].ssa->parent)->op !=
                intrinsic_op::load_workgroup_id)
            continue;
         for (const auto &m : nif.then_list) {
            if (m->type == cf_type::block) {
               wg_ifs += barriers_in(static_cast<const block &>(*m));
               top += barriers_in(static_cast<const block &>(*m));
            }
         }
      }
      EXPECT_EQ(all, top) << "seed " << seed << ": a barrier in non-uniform control flow";
      total += all;
      o.shared = false;
      /* Named: a temporary in the range expression would die before the loop. */
      const auto plain = generate(o);
      for (const instr *in : all_instrs(*plain)) {
         EXPECT_FALSE(in->type == instr_type::intrinsic &&
                      static_cast<const intrinsic_instr *>(in)->op == intrinsic_op::barrier);
      }
   }
   EXPECT_GT(barriers, 50u);
   EXPECT_GT(wg_ifs, 10u);
   EXPECT_GT(in_loops, 10u);
   EXPECT_GT(total, 100u);
   EXPECT_GT(atomics, 10u);
   for (unsigned wg : {24u, 32u, 64u})
      EXPECT_GT(sizes[wg], 10u) << wg;
   EXPECT_EQ(sizes.size(), 3u);
}

/* --no-gather, --no-txd and --no-shadow leave the other lookups. */
TEST(nir_random, gather_gradient_and_shadow_toggles)
{
   unsigned lookups = 0;
   for (uint64_t seed = 0; seed < 45; seed++) {
      random_options o = options_for(seed);
      o.gather = o.gradients = o.shadow = false;
      auto s = generate(o);
      for (const instr *in : all_instrs(*s)) {
         if (in->type != instr_type::tex)
            continue;
         const tex_op op = static_cast<const tex_instr *>(in)->op;
         EXPECT_FALSE(static_cast<const tex_instr *>(in)->is_shadow) << "seed " << seed;
         EXPECT_NE(op, tex_op::tg4) << "seed " << seed;
         EXPECT_NE(op, tex_op::txd) << "seed " << seed;
         lookups++;
      }
   }
   EXPECT_GT(lookups, 0u);
}

/*
 * Register arrays (indirect_regs): 2-8 elements, divergent, every element
 * stored in the entry block before anything reads it; indirect offsets
 * are iand(x, n - 1) (n a power of two) or umin(x, n - 1) with n the
 * elements from base on, so no access leaves the array; constant-index
 * accesses stay inside it.  --no-indirect and the phi form emit none.
 */
TEST(nir_random, indirect_register_arrays)
{
   std::map<std::string, unsigned> seen;
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      const random_options o = options_for(seed);
      auto s = generate(o);
      const block *entry = blocks_in_order(*entrypoint(*s))[0];
      std::map<const def *, std::set<int>> stored_at_top;
      for (const auto &in : entry->instrs) {
         if (in->type != instr_type::intrinsic)
            continue;
         const auto &ii = static_cast<const intrinsic_instr &>(*in);
         if (ii.op == intrinsic_op::store_reg)
            stored_at_top[ii.srcs[1].ssa].insert(ii.index(intrinsic_index::base));
         if (ii.op == intrinsic_op::load_reg || ii.op == intrinsic_op::load_reg_indirect)
            break;
      }
      for (const instr *in : all_instrs(*s)) {
         if (in->type != instr_type::intrinsic)
            continue;
         const auto &ii = static_cast<const intrinsic_instr &>(*in);
         const bool load = ii.op == intrinsic_op::load_reg ||
                           ii.op == intrinsic_op::load_reg_indirect;
         const bool store = ii.op == intrinsic_op::store_reg ||
                            ii.op == intrinsic_op::store_reg_indirect;
         if (ii.op == intrinsic_op::decl_reg) {
            const int n = ii.index(intrinsic_index::num_array_elems);
            if (n == 0)
               continue;
            EXPECT_TRUE(o.registers && o.indirect_regs);
            EXPECT_GE(n, 2);
            EXPECT_LE(n, 8);
            EXPECT_EQ(ii.index(intrinsic_index::divergent), 1);
            EXPECT_EQ(stored_at_top[&ii.dest].size(), unsigned(n));
            seen["array"]++;
            continue;
         }
         if (!load && !store)
            continue;
         const def *reg = ii.srcs[load ? 0 : 1].ssa;
         const auto &decl = static_cast<const intrinsic_instr &>(*reg->parent);
         const int n = decl.index(intrinsic_index::num_array_elems);
         const int base = ii.index(intrinsic_index::base);
         if (n == 0) {
            EXPECT_EQ(base, 0);
            continue;
         }
         EXPECT_GE(base, 0);
         EXPECT_LT(base, n);
         const bool indirect = ii.op == intrinsic_op::load_reg_indirect ||
                               ii.op == intrinsic_op::store_reg_indirect;
         if (!indirect) {
            if (ii.block != entry)
               seen[load ? "constant load" : "constant store"]++;
            continue;
         }
         seen[load ? "indirect load" : "indirect store"]++;
         if (ii.block->parent)
            seen["in control flow"]++;
         const def *off = ii.srcs[load ? 1 : 2].ssa;
         seen[off->divergent ? "divergent index" : "uniform index"]++;
         const alu_instr *a = as_alu(off);
         ASSERT_TRUE(a) << "index %" << off->index;
         const uint64_t last = uint64_t(n - base - 1);
         if (a->op == alu_op::iand) {
            EXPECT_EQ((last + 1) & last, 0u) << "mask for " << last + 1 << " elements";
            EXPECT_TRUE(is_const(a->srcs[1].ssa, last));
            seen["iand"]++;
         } else {
            EXPECT_EQ(a->op, alu_op::umin);
            EXPECT_TRUE(is_const(a->srcs[1].ssa, last));
            seen["umin"]++;
         }
      }
   }
   for (const char *c : {"array", "constant load", "constant store", "indirect load",
                         "indirect store", "in control flow", "divergent index",
                         "uniform index", "iand", "umin"})
      EXPECT_GT(seen[c], 0u) << c;

   for (uint64_t seed = 0; seed < 30; seed++) {
      random_options o = options_for(seed);
      o.indirect_regs = false;
      auto s = generate(o);
      for (const instr *in : all_instrs(*s)) {
         if (in->type != instr_type::intrinsic)
            continue;
         const auto &ii = static_cast<const intrinsic_instr &>(*in);
         EXPECT_NE(ii.op, intrinsic_op::load_reg_indirect) << "seed " << seed;
         EXPECT_NE(ii.op, intrinsic_op::store_reg_indirect) << "seed " << seed;
         if (ii.op == intrinsic_op::decl_reg) {
            EXPECT_EQ(ii.index(intrinsic_index::num_array_elems), 0) << "seed " << seed;
         }
      }
   }
}

/*
 * Undefined behaviour is kept out by construction: divisors are never 0
 * (ior x, 1 / umax x, 1), signed dividends never INT_MIN, shift counts
 * are masked below the bit size, extract lanes are constants in range.
 */
TEST(nir_random, guards_are_in_place)
{
   unsigned divisions = 0, shifts = 0;
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      auto s = generate(options_for(seed));
      for (const instr *in : all_instrs(*s)) {
         const alu_instr *a = in->type == instr_type::alu
                                 ? static_cast<const alu_instr *>(in) : nullptr;
         if (!a)
            continue;
         const unsigned bits = a->srcs.empty() ? 0 : a->srcs[0].ssa->bit_size;
         switch (a->op) {
         case alu_op::idiv: case alu_op::irem: case alu_op::imod: {
            const alu_instr *q = as_alu(a->srcs[1].ssa);
            ASSERT_TRUE(q && q->op == alu_op::ior && is_const(q->srcs[1].ssa, 1));
            const alu_instr *n = as_alu(a->srcs[0].ssa);
            ASSERT_TRUE(n && n->op == alu_op::imax &&
                        is_const(n->srcs[1].ssa, 0x80000001u));
            divisions++;
            break;
         }
         case alu_op::udiv: case alu_op::umod: {
            const alu_instr *q = as_alu(a->srcs[1].ssa);
            ASSERT_TRUE(q && q->op == alu_op::umax && is_const(q->srcs[1].ssa, 1));
            divisions++;
            break;
         }
         case alu_op::ishl: case alu_op::ishr: case alu_op::ushr: {
            /* Address arithmetic shifts by constants; the rest masks. */
            const def *c = a->srcs[1].ssa;
            if (c->parent->type == instr_type::load_const) {
               EXPECT_LT(const_value_bits(static_cast<const load_const_instr *>(
                            c->parent)->values[0], 32), bits);
               break;
            }
            const alu_instr *m = as_alu(c);
            ASSERT_TRUE(m && m->op == alu_op::iand && is_const(m->srcs[1].ssa, bits - 1));
            shifts++;
            break;
         }
         case alu_op::extract_u8: case alu_op::extract_i8:
         case alu_op::extract_u16: case alu_op::extract_i16: {
            const def *c = a->srcs[1].ssa;
            ASSERT_EQ(c->parent->type, instr_type::load_const);
            const unsigned lane_bits = a->op == alu_op::extract_u8 ||
                                       a->op == alu_op::extract_i8 ? 8 : 16;
            EXPECT_LT(const_value_bits(static_cast<const load_const_instr *>(
                         c->parent)->values[0], bits), bits / lane_bits);
            break;
         }
         default:
            break;
         }
      }
   }
   EXPECT_GT(divisions, 0u);
   EXPECT_GT(shifts, 0u);
}

/*
 * No float operation reads a value that may be a denormal: a constant with
 * denormal bits or a b2i result (1 read as a float).  Whether it is
 * flushed is open in NIR (execution mode 0): ibis and Mesa fold fmin(x, x)
 * to x, keeping it, where the interpreter flushes (random vs seed 46).
 * The clamps (fmax/fmin with a constant) flush it alike on both sides;
 * fneg and fabs move bits and may read one before the clamp.
 */
TEST(nir_random, float_operands_are_not_denormal)
{
   unsigned checked = 0;
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      auto s = generate(options_for(seed));
      for (const instr *in : all_instrs(*s)) {
         const alu_instr *a = in->type == instr_type::alu
                                 ? static_cast<const alu_instr *>(in) : nullptr;
         if (!a || a->op == alu_op::fneg || a->op == alu_op::fabs)
            continue;
         const alu_op_info &oi = op_info(a->op);
         const bool clamp = (a->op == alu_op::fmin || a->op == alu_op::fmax) &&
                            a->srcs[1].ssa->parent->type == instr_type::load_const;
         for (unsigned j = 0; j < oi.num_inputs; j++) {
            if (base_type(oi.input_types[j]) != type_float || (clamp && j == 0))
               continue;
            const def *d = a->srcs[j].ssa;
            const unsigned bits = d->bit_size;
            checked++;
            if (const alu_instr *p = as_alu(d)) {
               EXPECT_FALSE(p->op == alu_op::b2i8 || p->op == alu_op::b2i16 ||
                            p->op == alu_op::b2i32 || p->op == alu_op::b2i64)
                  << "seed " << seed << ": " << oi.name << " reads a b2i result";
               continue;
            }
            if (d->parent->type != instr_type::load_const)
               continue;
            const auto *lc = static_cast<const load_const_instr *>(d->parent);
            for (unsigned k = 0; k < a->src_components(j); k++) {
               const uint64_t v = const_value_bits(lc->values[a->srcs[j].swizzle[k]], bits);
               const uint64_t exp = bits == 16 ? v & 0x7c00
                                    : bits == 32 ? v & 0x7f800000u
                                                 : v & 0x7ff0000000000000ull;
               const uint64_t mant = bits == 16 ? v & 0x3ff
                                     : bits == 32 ? v & 0x7fffffu
                                                  : v & 0xfffffffffffffull;
               EXPECT_FALSE(exp == 0 && mant != 0)
                  << "seed " << seed << ": " << oi.name << " reads the denormal constant "
                  << std::hex << v;
            }
         }
      }
   }
   EXPECT_GT(checked, 10000u);
}

/*
 * A value is con only if it is uniform by construction: ALU results of
 * uniform sources, registers written only by uniform values under uniform
 * conditions, loads of uniform registers.
 */
TEST(nir_random, divergence_is_conservative)
{
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      auto s = generate(options_for(seed));
      for (const instr *in : all_instrs(*s)) {
         if (in->type == instr_type::alu) {
            const auto *a = static_cast<const alu_instr *>(in);
            if (!a->dest.divergent) {
               for (const alu_src &src : a->srcs)
                  ASSERT_FALSE(src.ssa->divergent) << op_info(a->op).name;
            }
         } else if (in->type == instr_type::intrinsic) {
            const auto *i = static_cast<const intrinsic_instr *>(in);
            if (i->op == intrinsic_op::load_reg) {
               const auto *decl = static_cast<const intrinsic_instr *>(i->srcs[0].ssa->parent);
               ASSERT_EQ(i->dest.divergent,
                         decl->index(intrinsic_index::divergent) != 0);
            } else if (i->op == intrinsic_op::store_reg) {
               const auto *decl = static_cast<const intrinsic_instr *>(i->srcs[1].ssa->parent);
               if (decl->index(intrinsic_index::divergent))
                  continue;
               ASSERT_FALSE(i->srcs[0].ssa->divergent);
               /* No divergent if around it. */
               for (const cf_node *n = in->block->parent; n; n = n->parent) {
                  if (n->type == cf_type::if_) {
                     ASSERT_FALSE(static_cast<const if_ *>(n)->condition.ssa->divergent);
                  }
               }
            } else if (i->op == intrinsic_op::load_ubo ||
                       i->op == intrinsic_op::load_ssbo) {
               if (!i->dest.divergent) {
                  ASSERT_FALSE(i->srcs[1].ssa->divergent);
               }
            } else if (i->op == intrinsic_op::load_input ||
                       i->op == intrinsic_op::load_interpolated_input ||
                       i->op == intrinsic_op::load_subgroup_invocation ||
                       i->op == intrinsic_op::inclusive_scan ||
                       i->op == intrinsic_op::exclusive_scan) {
               ASSERT_TRUE(i->dest.divergent);
            }
         } else if (in->type == instr_type::tex) {
            const auto *t = static_cast<const tex_instr *>(in);
            if (!t->dest.divergent) {
               for (const tex_src &src : t->srcs)
                  ASSERT_FALSE(src.ssa->divergent);
            }
         } else if (in->type == instr_type::phi) {
            const auto *p = static_cast<const phi_instr *>(in);
            if (!p->dest.divergent) {
               for (const phi_src &src : p->srcs)
                  ASSERT_FALSE(src.ssa->divergent);
            }
         }
      }
   }
}

/* Loops run a bounded number of times: each starts with a counter test
 * against a constant, and the counter is written only at the loop's end.
 */
TEST(nir_random, loops_are_bounded)
{
   unsigned loops = 0;
   for (uint64_t seed = 0; seed < num_seeds; seed++) {
      random_options o = options_for(seed);
      o.max_loop_trips = 3;
      auto s = generate(o);
      walk_cf(entrypoint(*s)->body, [&](const cf_node &n) {
         if (n.type != cf_type::loop)
            return;
         loops++;
         const auto &l = static_cast<const loop &>(n);
         ASSERT_GE(l.body.size(), 3u);
         ASSERT_EQ(l.body[1]->type, cf_type::if_);
         const auto &test = static_cast<const if_ &>(*l.body[1]);
         const alu_instr *cmp = as_alu(test.condition.ssa);
         ASSERT_TRUE(cmp && cmp->op == alu_op::uge32);
         const def *bound = cmp->srcs[1].ssa;
         ASSERT_EQ(bound->parent->type, instr_type::load_const);
         EXPECT_LE(const_value_bits(static_cast<const load_const_instr *>(
                      bound->parent)->values[0], 32), 3u);
         const block *brk = first_block(test.then_list);
         ASSERT_FALSE(brk->instrs.empty());
         ASSERT_EQ(brk->instrs.back()->type, instr_type::jump);
         EXPECT_TRUE(l.continue_list.empty());
      });
   }
   EXPECT_GT(loops, 50u);
}
