/*
 * Generated programs run in the NIR interpreter: they terminate, read no
 * undefined value the interpreter diagnoses, and give the same outputs on
 * every run.
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
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
       a.killed != b.killed || a.helpers != b.helpers)
      return false;
   for (const auto &[key, slot] : a.slots) {
      const interp::output_slot *other = b.find(key.location, key.index);
      if (!other || other->value != slot.value || other->written != slot.written)
         return false;
   }
   return true;
}

} /* namespace */

TEST(nir_random_interp, programs_run)
{
   unsigned ran = 0, floats_checked = 0, all_terminated = 0;
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
      /* Deterministic: a second run gives the same outputs. */
      EXPECT_TRUE(same_outputs(interp::run(*s, in), out));
      ran++;
   }
   EXPECT_EQ(ran, 300u);
   EXPECT_EQ(floats_checked + all_terminated, 200u);
   EXPECT_LT(all_terminated, 20u);
}
