/*
 * Generated programs run in the NIR interpreter: they terminate, read no
 * undefined value the interpreter diagnoses, and give the same outputs on
 * every run.
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "nir/interp/nir_interp.h"
#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;
using namespace ibis::nir;

namespace {

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

/* Deterministic bytes: small floats and integers mixed. */
std::vector<uint8_t>
pattern(size_t bytes, uint32_t salt)
{
   std::vector<uint8_t> v(bytes);
   for (size_t i = 0; i < bytes; i += 4) {
      const uint32_t k = uint32_t(i / 4) * 2654435761u + salt;
      float f = float(int(k % 2001) - 1000) / 16;
      uint32_t w;
      std::memcpy(&w, &f, 4);
      if (k & 0x100)
         w = k;
      std::memcpy(&v[i], &w, 4);
   }
   return v;
}

/* The layout docs/random.md says the programs assume. */
interp::inputs
inputs_for(unsigned simd)
{
   interp::inputs in;
   in.simd = simd;
   in.ubos[0] = pattern(256, 1);
   in.ssbos[0] = pattern(256, 2);
   in.ssbos[1] = std::vector<uint8_t>(64 * 32 * 4);
   /* Units 0 and 1, and the shadow unit 2. */
   for (unsigned t = 0; t < 3; t++) {
      interp::texture tex;
      tex.width = tex.height = 4;
      tex.levels = 2;
      const std::vector<uint8_t> bytes = pattern(tex.texel_count() * 16, 10 + t);
      tex.texels.resize(tex.texel_count());
      std::memcpy(tex.texels.data(), bytes.data(), bytes.size());
      in.textures[t] = tex;
   }
   /* Images 3 and 6 (2D r32ui, read only), 4 (buffer r32i), 5 (2D array
    * rgba32f).
    */
   const interp::image_dim dims[] = {interp::image_dim::d2, interp::image_dim::buf,
                                     interp::image_dim::d2, interp::image_dim::d2};
   const interp::image_format formats[] = {interp::image_format::r32ui,
                                           interp::image_format::r32i,
                                           interp::image_format::rgba32f,
                                           interp::image_format::r32ui};
   const unsigned sizes[][3] = {{16, 8, 1}, {64, 1, 1}, {8, 8, 2}, {4, 4, 1}};
   for (unsigned i = 0; i < 4; i++) {
      interp::image im;
      im.dim = dims[i];
      im.format = formats[i];
      im.array = i == 2;
      im.width = sizes[i][0];
      im.height = sizes[i][1];
      im.depth = sizes[i][2];
      const std::vector<uint8_t> bytes = pattern(im.texel_count() * im.components() * 4, 40 + i);
      im.words.resize(bytes.size() / 4);
      std::memcpy(im.words.data(), bytes.data(), bytes.size());
      in.images[3 + i] = im;
   }
   for (unsigned a = 0; a < 4; a++) {
      const std::vector<uint8_t> bytes = pattern(simd * 16, 20 + a);
      std::vector<interp::words4> w(simd);
      std::memcpy(w.data(), bytes.data(), bytes.size());
      in.attribs[15 + a] = w;
   }
   for (unsigned v = 0; v < 3; v++) {
      const std::vector<uint8_t> bytes = pattern(3 * 16, 30 + v);
      std::array<interp::words4, 3> w;
      std::memcpy(w.data(), bytes.data(), bytes.size());
      in.varyings[32 + v] = w;
   }
   return in;
}

bool
same_outputs(const interp::outputs &a, const interp::outputs &b)
{
   if (a.slots.size() != b.slots.size() || a.ssbos != b.ssbos ||
       a.images.size() != b.images.size() ||
       a.killed != b.killed || a.helpers != b.helpers)
      return false;
   for (const auto &[key, slot] : a.slots) {
      const interp::output_slot *other = b.find(key.location, key.index);
      if (!other || other->value != slot.value || other->written != slot.written)
         return false;
   }
   for (const auto &[i, im] : a.images) {
      if (!b.images.count(i) || b.images.at(i).words != im.words)
         return false;
   }
   return true;
}

/* Is in inside the then-list of an `if !is_helper_invocation`? */
bool
helper_guarded(const instr &in)
{
   for (const cf_node *n = in.block; n && n->parent; n = n->parent) {
      if (n->parent->type != cf_type::if_)
         continue;
      const auto &nif = static_cast<const if_ &>(*n->parent);
      bool in_then = false;
      for (const auto &c : nif.then_list)
         in_then |= c.get() == n;
      const instr *cond = nif.condition.ssa->parent;
      if (!in_then || cond->type != instr_type::alu)
         continue;
      const auto &a = static_cast<const alu_instr &>(*cond);
      const instr *src = a.srcs[0].ssa->parent;
      if (a.op == alu_op::inot && src->type == instr_type::intrinsic &&
          static_cast<const intrinsic_instr &>(*src).op == intrinsic_op::is_helper_invocation)
         return true;
   }
   return false;
}

} /* namespace */

/* Fragment programs run image atomics only where the channel is not a
 * helper invocation (a helper's atomic result is undefined); stores are
 * guarded half the time, so that the compiler's own predication of
 * helpers' stores is exercised too (the interpreter drops a helper's
 * writes by itself).
 */
TEST(nir_random_interp, fragment_image_writes_skip_helpers)
{
   unsigned atomics = 0, guarded = 0, unguarded = 0;
   for (uint64_t seed = 1; seed < 600; seed += 3) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      auto s = generate(options_for(seed));
      for (const block *b : blocks_in_order(*entrypoint(*s))) {
         for (const auto &i : b->instrs) {
            if (i->type != instr_type::intrinsic)
               continue;
            const intrinsic_op op = static_cast<const intrinsic_instr &>(*i).op;
            if (op == intrinsic_op::image_atomic || op == intrinsic_op::image_atomic_swap) {
               EXPECT_TRUE(helper_guarded(*i));
               atomics++;
            } else if (op == intrinsic_op::image_store) {
               (helper_guarded(*i) ? guarded : unguarded)++;
            }
         }
      }
   }
   EXPECT_GT(atomics, 20u);
   EXPECT_GT(guarded, 20u);
   EXPECT_GT(unguarded, 20u);
}

TEST(nir_random_interp, programs_run)
{
   unsigned ran = 0, floats_checked = 0, all_terminated = 0, with_images = 0;
   for (uint64_t seed = 0; seed < 300; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      auto s = generate(options_for(seed));
      const unsigned simd = 8u << (seed % 3);
      const interp::inputs in = inputs_for(simd);
      interp::outputs out;
      try {
         out = interp::run(*s, in);
      } catch (const error &e) {
         FAIL() << e.what() << "\n" << print_shader(*s);
      }
      /* Every running channel that was not terminated (demoted ones
       * still store) wrote the results.
       */
      const uint32_t channels = in.channel_mask() & ~(out.killed & ~out.helpers);
      if (s->info.stage == shader_stage::compute) {
         ASSERT_TRUE(out.ssbos.count(1));
         EXPECT_GE(out.ssbos.at(1).size(), size_t(64) * simd);
      } else if (channels) {
         ASSERT_EQ(out.slots.size(), 2u);
         for (const auto &[key, slot] : out.slots) {
            for (unsigned c = 0; c < 4; c++)
               EXPECT_EQ(slot.written[c] & channels, channels);
         }
         /* The float output is never NaN or infinite. */
         const unsigned loc = s->info.stage == shader_stage::vertex ? 0 : 4;
         for (unsigned c = 0; c < 4; c++) {
            for (unsigned ch = 0; ch < simd; ch++) {
               if (channels >> ch & 1) {
                  EXPECT_TRUE(std::isfinite(out.f32(loc, c, ch)))
                     << "component " << c << " channel " << ch;
               }
            }
         }
         floats_checked++;
      } else {
         all_terminated++;   /* a fragment shader's terminate_if took every channel */
      }
      /* Image 3 is read only; 4 and 5 change only at the running
       * channels' own texels (channel c is invocation c: slot c in
       * compute, the pixel (2 (c / 4) + (c & 1), (c / 2) & 1) in fragment
       * shaders), and never at an input helper's (demotes come after).
       */
      /* Fragment programs run again with channels 2 and 3 as helpers. */
      interp::inputs hin = in;
      interp::outputs hout = out;
      if (s->info.stage == shader_stage::fragment) {
         hin.helpers = 0x0c;
         hout = interp::run(*s, hin);
      }
      std::set<size_t> own_buf, own_arr;
      for (unsigned c = 0; c < simd; c++) {
         if (!(hin.channel_mask() >> c & 1) || (hin.helpers >> c & 1))
            continue;
         const bool cs = s->info.stage == shader_stage::compute;
         const unsigned x = cs ? c : 2 * (c / 4) + (c & 1), y = cs ? 0 : (c >> 1) & 1;
         own_buf.insert(cs ? c : x + 64 * y);
         own_arr.insert(cs ? (c / 64 * 8 + (c / 8) % 8) * 8 + c % 8 : y * 8 + x);
      }
      EXPECT_EQ(hout.images.at(3).words, in.images.at(3).words);
      EXPECT_EQ(hout.images.at(6).words, in.images.at(6).words);
      for (size_t t = 0; t < 64; t++) {
         if (hout.images.at(4).words[t] != in.images.at(4).words[t])
            EXPECT_TRUE(own_buf.count(t)) << "buffer image texel " << t;
      }
      for (size_t t = 0; t < 128; t++) {
         for (unsigned k = 0; k < 4; k++) {
            if (hout.images.at(5).words[4 * t + k] != in.images.at(5).words[4 * t + k])
               EXPECT_TRUE(own_arr.count(t)) << "array image texel " << t;
         }
      }
      bool has_images = false;
      for (const block *b : blocks_in_order(*entrypoint(*s))) {
         for (const auto &i : b->instrs) {
            if (i->type == instr_type::intrinsic &&
                std::string(op_info(static_cast<const intrinsic_instr &>(*i).op).name)
                      .compare(0, 6, "image_") == 0)
               has_images = true;
         }
      }
      with_images += has_images;
      /* Deterministic: a second run gives the same outputs. */
      EXPECT_TRUE(same_outputs(interp::run(*s, in), out));
      ran++;
   }
   EXPECT_EQ(ran, 300u);
   EXPECT_EQ(floats_checked + all_terminated, 200u);
   EXPECT_LT(all_terminated, 20u);
   /* Compute and fragment programs (200 of the 300) mostly use images. */
   EXPECT_GT(with_images, 100u);
}
