/*
 * The differential check (check.h): input sets, their mapping onto a
 * simulated Gen9 thread in the payload layout ibis compiled against, the
 * run, and the comparison with the NIR interpreter.
 */
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "check/check.h"
#include "from_nir/from_nir_private.h"
#include "sim/check/sim_check.h"
#include "sim/sim.h"
#include "util/ibis_error.h"

namespace ibis::check {

namespace interp = ibis::nir::interp;

namespace {

/* The binding table the check gives ibis (compile_options::abi): textures
 * and samplers at their index, UBO b at 64 + b, SSBO b at 128 + b, as
 * docs/sim.md lays out memory for ibis-run.
 */

constexpr unsigned frag_result_depth = 0;
constexpr unsigned frag_result_stencil = 1;
constexpr unsigned frag_result_color = 2;
constexpr unsigned frag_result_sample_mask = 3;
constexpr unsigned frag_result_data0 = 4;
constexpr unsigned varying_slot_pos = 0;
constexpr unsigned varying_slot_psiz = 12;
constexpr unsigned varying_slot_clip_dist0 = 17;
constexpr unsigned varying_slot_clip_dist1 = 18;
constexpr unsigned varying_slot_layer = 22;
constexpr unsigned varying_slot_viewport = 23;

/* splitmix64: a seed gives the same inputs everywhere. */
struct rng {
   uint64_t s;
   explicit rng(uint64_t seed) : s(seed) {}
   uint64_t next()
   {
      uint64_t z = (s += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
   }
   unsigned below(unsigned n) { return unsigned(next() % n); }
};

uint32_t
word_of(float f)
{
   uint32_t w;
   memcpy(&w, &f, 4);
   return w;
}

float
float_of(uint32_t w)
{
   float f;
   memcpy(&f, &w, 4);
   return f;
}

/* A new word like w: small integers stay small (loop bounds, indices,
 * divisors the shader expects), floats become other multiples of 1/8.
 */
uint32_t
vary_word(uint32_t w, rng &r)
{
   if (w < 256)
      return 1 + r.below(4);
   int k = int(r.below(48)) - 8;
   return word_of(float(k == 0 ? 1 : k) * 0.125f);
}

void
vary_bytes(std::vector<uint8_t> &bytes, rng &r)
{
   for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      uint32_t w;
      memcpy(&w, &bytes[i], 4);
      w = vary_word(w, r);
      memcpy(&bytes[i], &w, 4);
   }
}

/* Images: other sizes (some smaller than the shader's accesses reach,
 * which then fall outside) and contents: small integers, sometimes any
 * word (signed and unsigned orders differ), floats in eighths.
 */
void
vary_images(interp::inputs &in, rng &r)
{
   for (auto &[i, im] : in.images) {
      static const unsigned lengths[] = {5, 16, 33, 64};
      static const unsigned sides[] = {1, 3, 4, 8, 16};
      switch (im.dim) {
      case interp::image_dim::d1:
      case interp::image_dim::buf:
         im.width = lengths[r.below(4)];
         break;
      case interp::image_dim::d2:
         im.width = sides[1 + r.below(4)];
         im.height = sides[r.below(5)];
         if (im.array)
            im.depth = 1 + r.below(3);
         break;
      case interp::image_dim::d3:
         im.width = 2 + r.below(3);
         im.height = 2 + r.below(3);
         im.depth = 1 + r.below(4);
         break;
      }
      const bool fl = im.format == interp::image_format::r32f ||
                      im.format == interp::image_format::rgba32f;
      im.words.resize(im.texel_count() * im.components());
      for (uint32_t &w : im.words) {
         if (fl)
            w = word_of((float(r.below(64)) - 32.f) * 0.125f);
         else
            w = r.below(4) ? r.below(32) : uint32_t(r.next());
      }
   }
}

/* A constant source component, if it is one. */
bool
const_u32(const nir::def *d, unsigned comp, uint32_t *v)
{
   if (!d || !d->parent || d->parent->type != nir::instr_type::load_const)
      return false;
   const auto &lc = static_cast<const nir::load_const_instr &>(*d->parent);
   if (comp >= lc.values.size())
      return false;
   *v = lc.values[comp].u32;
   return true;
}

void
visit_instrs(const nir::cf_list &list, const std::function<void(const nir::instr &)> &fn)
{
   for (const auto &node : list) {
      if (node->type == nir::cf_type::block) {
         for (const auto &i : static_cast<const nir::block &>(*node).instrs)
            fn(*i);
      } else if (node->type == nir::cf_type::if_) {
         const auto &nif = static_cast<const nir::if_ &>(*node);
         visit_instrs(nif.then_list, fn);
         visit_instrs(nif.else_list, fn);
      } else {
         const auto &l = static_cast<const nir::loop &>(*node);
         visit_instrs(l.body, fn);
         visit_instrs(l.continue_list, fn);
      }
   }
}

/* UBO words (block, byte offset) the shader reads at a constant address
 * and shifts right by 8 bits or more: packed bit fields (Dolphin's
 * ubershaders keep their whole pipeline state so, e.g. the alpha test's
 * comparisons at bits 16-23), which the small integers of the default
 * inputs leave all zero (an alpha test that never passes).  Fields are
 * narrow, so random bits there give small values too.
 */
std::set<std::pair<unsigned, uint32_t>>
ubo_bit_fields(const nir::shader &s)
{
   std::set<std::pair<unsigned, uint32_t>> words;
   for (const auto &f : s.functions) {
      if (!f->impl)
         continue;
      visit_instrs(f->impl->body, [&](const nir::instr &i) {
         if (i.type != nir::instr_type::alu)
            return;
         const auto &alu = static_cast<const nir::alu_instr &>(i);
         if (alu.op != nir::alu_op::ushr && alu.op != nir::alu_op::ubfe)
            return;
         uint32_t shift;
         if (alu.srcs.size() < 2 || !const_u32(alu.srcs[1].ssa, alu.srcs[1].swizzle[0], &shift) ||
             (shift & 31) < 8)
            return;
         const nir::def *d = alu.srcs[0].ssa;
         if (!d->parent || d->parent->type != nir::instr_type::intrinsic || d->bit_size != 32)
            return;
         const auto &ld = static_cast<const nir::intrinsic_instr &>(*d->parent);
         if (ld.op != nir::intrinsic_op::load_ubo &&
             ld.op != nir::intrinsic_op::load_ubo_uniform_block_intel)
            return;
         uint32_t block, offset;
         if (!const_u32(ld.srcs[0].ssa, 0, &block) ||
             !const_u32(ld.srcs[1].ssa, 0, &offset))
            return;
         words.insert({block, offset + 4 * alu.srcs[0].swizzle[0]});
      });
   }
   return words;
}

} /* anonymous namespace */

/* The FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_FP16/32/64 bits. */
constexpr uint32_t ftz_all = 7u << 3;

const char *
verdict_name(verdict v)
{
   switch (v) {
   case verdict::match: return "match";
   case verdict::mismatch: return "mismatch";
   case verdict::compile_error: return "compile error";
   case verdict::run_error: return "simulator error";
   case verdict::oracle_error: return "interpreter error";
   case verdict::unsupported: return "inputs the simulator cannot take";
   }
   return "?";
}

interp::inputs
make_inputs(const nir::shader &s, unsigned simd, uint64_t seed, unsigned index)
{
   const nir::shader_stage st = s.info.stage;
   interp::inputs in = interp::default_inputs(s, st == nir::shader_stage::vertex ? 8 : simd);
   /* Gen9 threads start with cr0 = 0: denormals of every precision the
    * shader does not ask to keep (FLOAT_CONTROLS_DENORM_PRESERVE_FP16/32/64)
    * are flushed (FLOAT_CONTROLS_DENORM_FLUSH_TO_ZERO_*), on input and
    * output, and the oracle must do the same.
    */
   for (unsigned k = 0; k < 3; k++) {
      if (!(s.info.float_controls_execution_mode & (1u << k)))
         in.float_controls |= 1u << (3 + k);
   }
   if (st == nir::shader_stage::compute) {
      for (unsigned k = 0; k < 3; k++)
         in.workgroup_size[k] = std::max(1u, unsigned(s.info.workgroup_size[k]));
      in.num_workgroups = {2, 2, 1};
      /* Every invocation of the workgroup, shared memory and barriers
       * across its threads.
       */
      in.whole_workgroup = true;
   }
   if (index == 0)
      return in;

   rng r(seed * 0x100000001b3ull + index);
   vary_bytes(in.push, r);
   for (auto &[b, data] : in.ubos)
      vary_bytes(data, r);
   /* Odd sets: random bit fields (the even ones keep them small). */
   const std::set<std::pair<unsigned, uint32_t>> fields =
      index % 2 ? ubo_bit_fields(s) : std::set<std::pair<unsigned, uint32_t>>();
   auto fill_fields = [&](interp::inputs &x, rng &g) {
      for (const auto &[b, off] : fields) {
         auto it = x.ubos.find(b);
         if (it != x.ubos.end() && off + 4 <= it->second.size()) {
            uint32_t w = uint32_t(g.next());
            memcpy(&it->second[off], &w, 4);
         }
      }
   };
   fill_fields(in, r);
   for (auto &[b, data] : in.ssbos) {
      for (size_t i = 0; i + 4 <= data.size(); i += 4) {
         uint32_t w = r.below(2) ? 1 + r.below(8) : word_of(float(r.below(64)) * 0.125f);
         memcpy(&data[i], &w, 4);
      }
   }
   for (auto &[t, tex] : in.textures) {
      for (auto &texel : tex.texels) {
         for (uint32_t &w : texel) {
            w = tex.format == interp::tex_format::rgba32f ? word_of(float(r.below(65)) / 64.f)
                                                          : r.below(16);
         }
      }
   }
   vary_images(in, r);
   /* Odd sets sample level 0 only, so implicit-LOD lookups are compared
    * there (classify_outputs' lod_free); even sets keep the mipmaps.
    */
   if (index % 2) {
      for (auto &[i, smp] : in.samplers)
         smp.mip = interp::mip_filter::none;
   }
   for (auto &[loc, vals] : in.attribs) {
      for (auto &v : vals) {
         for (unsigned k = 0; k < 4; k++)
            v[k] = word_of((float(r.below(64)) - 16.f) * 0.125f);
      }
   }
   for (auto &[loc, verts] : in.varyings) {
      for (auto &v : verts) {
         for (unsigned k = 0; k < 4; k++)
            v[k] = word_of((float(r.below(64)) - 16.f) * 0.125f);
      }
   }
   switch (st) {
   case nir::shader_stage::vertex:
      /* Fewer vertices than channels, sometimes. */
      in.channels = index % 2 ? (1u << (1 + r.below(8))) - 1 : 0xff;
      in.first_vertex = r.below(16);
      in.instance_id = r.below(4);
      in.base_instance = r.below(4);
      break;
   case nir::shader_stage::fragment: {
      /* Odd sets: fewer quads (the hardware dispatches whole quads), and
       * in a third of those one to three helper pixels (a partly covered
       * quad): they run, for derivatives, but write nothing.  The quads
       * are packed from channel 0, as Gen9's pixel shader dispatch packs
       * them (brw_stage_has_packed_dispatch): brw reads values it knows
       * uniform from channel 0 at the top level, and dolphin's
       * ubershaders 138, 147 and 156 (brw SIMD8) read a stale channel 0
       * when quad 0 was off.
       */
      if (index % 2) {
         unsigned quads = simd / 4, on = 0;
         while (!on) {
            for (unsigned q = 0; q < quads; q++)
               on += r.below(3) != 0;
         }
         const uint32_t mask = on == 8 ? ~0u : (1u << (4 * on)) - 1;
         in.channels = mask;
         for (unsigned q = 0; q < quads; q++) {
            if ((mask >> (4 * q) & 0xf) && !r.below(3))
               in.helpers |= (1 + r.below(14)) << (4 * q);
         }
      }
      in.front_face = r.below(2);
      float z0 = float(r.below(8)) / 8.f;
      in.triangle = {{{0, 0, z0, 1}, {64, 0, 0.5f, 1.f + float(r.below(4))},
                      {0, 64, 0.75f, 1.f + float(r.below(4))}}};
      break;
   }
   case nir::shader_stage::compute: {
      unsigned invocations = in.workgroup_size[0] * in.workgroup_size[1] * in.workgroup_size[2];
      unsigned threads = std::max(1u, (invocations + simd - 1) / simd);
      in.subgroup_id = r.below(threads);
      in.workgroup_id = {r.below(2), r.below(2), 0};
      break;
   }
   default:
      break;
   }
   /* Fragment shaders: of eight draws of the bit fields, the one that
    * leaves the most pixels alive (a random alpha test discards most).
    */
   if (st == nir::shader_stage::fragment && !fields.empty()) {
      nir::shader &oracle = const_cast<nir::shader &>(s);
      const bool centre = oracle.info.fs.pixel_center_integer;
      oracle.info.fs.pixel_center_integer = true;
      rng g(seed * 0x2545f4914f6cdd1dull + index);
      interp::inputs best = in;
      int best_live = -1;
      for (unsigned k = 0; k < 8; k++) {
         interp::inputs cand = in;
         if (k)
            fill_fields(cand, g);
         int live = -1;
         try {
            interp::outputs o = interp::run(s, cand);
            live = __builtin_popcount(o.channels & ~o.killed & ~o.helpers);
         } catch (const error &) {
         }
         if (live > best_live) {
            best_live = live;
            best = std::move(cand);
         }
      }
      oracle.info.fs.pixel_center_integer = centre;
      in = std::move(best);
   }
   return in;
}

namespace {

/* ---- The thread: ibis's payload layout filled from the inputs ---- */

struct setup {
   sim::thread t;
   /* CS: every thread of the workgroup (t unused). */
   std::vector<sim::thread> group;
   sim::memory mem;
   std::vector<unsigned> vue;    /* VS: VUE slot -> location (~0u: none) */
   unsigned ssbo_base = bti_ssbo;
};

/* brw's VUE map for the locations the interpreter saw written. */
std::vector<unsigned>
vue_map(const interp::outputs &want)
{
   std::vector<unsigned> vue = {~0u, varying_slot_pos};
   for (unsigned clip : {varying_slot_clip_dist0, varying_slot_clip_dist1}) {
      if (want.find(clip))
         vue.push_back(clip);
   }
   for (const auto &[key, sl] : want.slots) {
      unsigned l = key.location;
      if (l != varying_slot_pos && l != varying_slot_psiz && l != varying_slot_layer &&
          l != varying_slot_viewport && l != varying_slot_clip_dist0 &&
          l != varying_slot_clip_dist1)
         vue.push_back(l);
   }
   return vue;
}

setup
make_setup(const nir::shader &s, unsigned simd, const interp::inputs &in,
           const interp::outputs &want, const program_abi &abi)
{
   setup r;
   const sim::check::thread_layout &l = abi.layout;
   r.ssbo_base = l.ssbo_bti_base;
   switch (s.info.stage) {
   case nir::shader_stage::vertex:
   case nir::shader_stage::fragment: {
      const bool vs = s.info.stage == nir::shader_stage::vertex;
      if (!vs && in.simd != simd)
         throw error(strfmt("check: inputs for SIMD%u, shader at SIMD%u", in.simd, simd));
      sim::check::thread_setup ts = sim::check::map_inputs(vs ? "vs" : "fs", &s, in, l);
      r.t = std::move(ts.t);
      r.mem = std::move(ts.mem);
      if (vs) {
         if (abi.vue_slots.empty()) {
            r.vue = vue_map(want);
         } else {
            /* The header (slot 0) and brw's own slots compare nothing. */
            for (size_t k = 0; k < abi.vue_slots.size(); k++) {
               const int v = abi.vue_slots[k];
               r.vue.push_back(k == 0 || v < 0 || v >= 64 ? ~0u : unsigned(v));
            }
         }
      }
      break;
   }
   case nir::shader_stage::compute: {
      sim::check::map_memory(&s, in, l, r.mem);
      /* Shared local memory: brw's SLM surface 254, as from_nir addresses it. */
      if (s.info.shared_size) {
         std::vector<uint8_t> &slm = r.mem.surfaces[254].data;
         slm = in.shared;
         slm.resize(std::max<size_t>(slm.size(), s.info.shared_size), 0);
      }
      const std::vector<uint32_t> push = sim::check::push_data(in, l);
      /* The whole workgroup: ceil(invocations / simd) threads, each with
       * its subgroup id (the local ids derive from it, as brw on Gen9),
       * one SLM and the group's barrier id in g0.2.
       */
      sim::cs_payload p;
      p.simd = simd;
      p.workgroup_id = {in.workgroup_id[0], in.workgroup_id[1], in.workgroup_id[2]};
      p.local_size = {in.workgroup_size[0], in.workgroup_size[1], in.workgroup_size[2]};
      p.barrier_id = 1 + (in.workgroup_id[0] + 2 * in.workgroup_id[1]) % 15;
      p.push = push;
      p.push.resize(size_t(abi.cs_push_regs - 1) * 8, 0);
      const unsigned invocations = p.local_size[0] * p.local_size[1] * p.local_size[2];
      const unsigned threads = in.whole_workgroup ? (invocations + simd - 1) / simd : 1;
      for (unsigned k = 0; k < threads; k++) {
         p.subgroup_id = in.whole_workgroup ? k : in.subgroup_id;
         sim::payload_layout sl;
         r.group.push_back(sim::make_cs_thread(p, &sl));
         if (int(sl.subgroup_id_dword) != abi.cs_subgroup_id_dword)
            throw error(strfmt("check: the simulator puts the subgroup id in dword %u, ibis "
                               "reads dword %d", sl.subgroup_id_dword,
                               abi.cs_subgroup_id_dword));
      }
      break;
   }
   default:
      throw error(strfmt("check: %s shaders are not supported", nir::stage_name(s.info.stage)));
   }
   return r;
}

/* ---- Comparison ---- */

bool
is_zero_or_denormal(uint32_t w)
{
   return (w & 0x7f800000) == 0;
}

bool
within(uint32_t want, uint32_t got, exactness e, bool is_float)
{
   if (want == got)
      return true;
   /* Flushed denormals: the same sign, both zero or denormal. */
   if (is_float && is_zero_or_denormal(want) && is_zero_or_denormal(got) &&
       (want >> 31) == (got >> 31))
      return true;
   float fw = float_of(want), fg = float_of(got);
   if (std::isnan(fw) && std::isnan(fg))
      return true;
   if (e != exactness::approximate || std::isnan(fw) || std::isnan(fg))
      return false;
   return std::fabs(double(fg) - double(fw)) <=
          rel_tolerance * std::max(1.0, std::fabs(double(fw)));
}

/* The distance of two floats of one sign in representable values. */
uint64_t
ulps_apart(uint32_t a, uint32_t b)
{
   if ((a >> 31) != (b >> 31))
      return ~uint64_t(0);
   return a > b ? uint64_t(a - b) : uint64_t(b - a);
}

/* The words of one interpreter run (none without a run), by output: a
 * perturbed run, or the run that keeps denormals where the shader leaves
 * the denormal mode open (Gen flushes them in ALU operations, but a move
 * or a scan's first channel passes a denormal's bits on unchanged).  Each
 * lookup gives nullptr where the run has no such word: a channel that
 * did not run, was killed or did not store it.
 */
struct run_words {
   const interp::outputs *o = nullptr;
   uint32_t w = 0;

   static const uint32_t *word(const std::vector<uint8_t> &bytes, size_t i, uint32_t &w)
   {
      if (i + 4 > bytes.size())
         return nullptr;
      memcpy(&w, &bytes[i], 4);
      return &w;
   }
   const uint32_t *slot(const interp::output_key &key, unsigned k, unsigned c, uint32_t mask)
   {
      if (!o)
         return nullptr;
      const uint32_t live = o->channels & ~o->killed & ~o->helpers;
      const interp::output_slot *sl = o->find(key.location, key.index);
      if (!((live >> c) & 1) || !sl || !((sl->written[k] >> c) & 1))
         return nullptr;
      w = sl->value[k][c] & mask;
      return &w;
   }
   const uint32_t *ssbo(unsigned b, size_t i)
   {
      if (!o)
         return nullptr;
      auto it = o->ssbos.find(b);
      return it != o->ssbos.end() ? word(it->second, i, w) : nullptr;
   }
   const uint32_t *shared(size_t i) { return o ? word(o->shared, i, w) : nullptr; }
   const uint32_t *image(unsigned b, size_t k)
   {
      if (!o)
         return nullptr;
      auto it = o->images.find(b);
      if (it == o->images.end() || k >= it->second.words.size())
         return nullptr;
      w = it->second.words[k];
      return &w;
   }
};

/* The interpreter's outputs with every approximate result at an edge of
 * its error bound (nir_interp.h's perturbation): all up, all down, and
 * two mixes of signs.  A word the same in all of them and in the plain
 * run does not depend on Gen's approximations within their bounds, so it
 * is compared bit for bit whatever its static class (docs/check.md).
 */
struct perturbed {
   std::vector<interp::outputs> runs;   /* empty: no refinement */

   /* Every run has word v where get finds it in a run's words. */
   template <typename F>
   bool all(uint32_t v, bool is_float, F get) const
   {
      if (runs.empty())
         return false;
      for (const interp::outputs &o : runs) {
         run_words words{&o};
         const uint32_t *w = get(words);
         if (!w || !within(*w, v, exactness::exact, is_float))
            return false;
      }
      return true;
   }
   /* Channel c ran, was not killed and stored component k with value v
    * in every run (value masked by mask).
    */
   bool slot(const interp::output_key &key, unsigned k, unsigned c, uint32_t v, uint32_t mask,
             bool is_float) const
   {
      return all(v, is_float, [&](run_words &w) { return w.slot(key, k, c, mask); });
   }
   /* Whether channel c is killed is the same in every run. */
   bool kill(unsigned c, bool killed) const
   {
      if (runs.empty())
         return false;
      for (const interp::outputs &o : runs) {
         if (((o.killed >> c) & 1) != killed)
            return false;
      }
      return true;
   }
   /* Shared memory word i is v in every run. */
   bool shared(size_t i, uint32_t v, bool is_float) const
   {
      return all(v, is_float, [&](run_words &w) { return w.shared(i); });
   }
   bool ssbo(unsigned b, size_t i, uint32_t v, bool is_float) const
   {
      return all(v, is_float, [&](run_words &w) { return w.ssbo(b, i); });
   }
};

struct comparer {
   const std::map<std::string, exactness> &classes;
   const std::set<std::string> &floats;
   result &res;
   unsigned simd;
   /* Per output: the interpreter's and the simulator's words. */
   std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> seen;

   void note(const std::string &what, unsigned channel, uint32_t want, const uint32_t *got)
   {
      if (channel >= simd)
         return;
      auto &[w, g] = seen[what];
      w.resize(simd, "-");
      g.resize(simd, "-");
      w[channel] = strfmt("%08x", want);
      g[channel] = got ? strfmt("%08x", *got) : "none";
   }
   std::string table() const
   {
      std::string out;
      for (const auto &[name, sides] : seen) {
         out += name + " want:";
         for (const std::string &x : sides.first)
            out += " " + x;
         out += "\n" + name + " got: ";
         for (const std::string &x : sides.second)
            out += " " + x;
         out += "\n";
      }
      return out;
   }

   exactness class_of(const std::string &name) const
   {
      auto it = classes.find(name);
      return it == classes.end() ? exactness::exact : it->second;
   }
   bool is_float(const std::string &what) const
   {
      return floats.count(what.substr(0, what.find(" dword"))) > 0;
   }
   /* stable: the word is the same in every perturbed run.  kept: the
    * word of the run that keeps denormals (nullptr: none).
    *
    * A stable float may still be one ULP off: the runs sample the corners
    * of the approximations' bounds, not the value the hardware's math
    * returns, and a rounding between them can go either way (a VS
    * position from a matrix of rsq results: brw's program and ibis's
    * both 423c60bf, every perturbed interpreter run 423c60be;
    * shared/regressions/vs-position-1ulp).
    */
   void one(const std::string &what, unsigned channel, uint32_t want, const uint32_t *got,
            exactness e, bool stable = false, const uint32_t *kept = nullptr)
   {
      const char cls = stable && (e == exactness::approximate || e == exactness::unchecked) ? 's'
                       : e == exactness::unchecked || e == exactness::opaque                 ? 'u'
                       : e == exactness::approximate                                         ? 'a'
                                                                                             : 'e';
      res.words += got ? strfmt("%c %08x %08x %s:%u\n", cls, *got, want, what.c_str(), channel)
                       : strfmt("%c none %08x %s:%u\n", cls, want, what.c_str(), channel);
      bool one_ulp = false;
      if (stable && (e == exactness::approximate || e == exactness::unchecked)) {
         e = exactness::exact;
         one_ulp = is_float(what);
         res.stable++;
      }
      if (e == exactness::unchecked || e == exactness::opaque) {
         res.unchecked++;
         return;
      }
      const bool memory = what.compare(0, 5, "ssbo ") == 0 || what.compare(0, 6, "image ") == 0 ||
                          what.compare(0, 7, "shared ") == 0;
      if (!memory)
         note(what, channel, want, got);
      res.compared++;
      if (e == exactness::approximate)
         res.approximate++;
      if (got && within(want, *got, e, is_float(what)))
         return;
      if (got && one_ulp && ulps_apart(want, *got) <= 1)
         return;
      if (got && kept && within(*kept, *got, e, is_float(what))) {
         res.kept_denormals++;
         return;
      }
      /* SSBO and image words name no channel: the shader chose who wrote
       * them.
       */
      std::string where = memory ? what : strfmt("%s channel %u", what.c_str(), channel);
      std::string line = got ? strfmt("%s: expected %08x, got %08x%s", where.c_str(), want, *got,
                                      e == exactness::approximate ? " (approximate)"
                                      : stable ? " (stable under perturbation)" : "")
                             : strfmt("%s: expected %08x, not written", where.c_str(), want);
      if (!res.mismatches++)
         res.first = line;
      res.log += line + "\n";
   }
};

void
compare_outputs(const nir::shader &s, unsigned simd, const setup &r,
                const interp::outputs &want, const std::map<std::string, exactness> &classes,
                const perturbed &pert, run_words kept, result &res)
{
   const std::set<std::string> floats = float_outputs(s);
   comparer cmp{classes, floats, res, simd, {}};
   static const char xyzw[] = "xyzw";
   const uint32_t live = want.channels & ~want.killed & ~want.helpers;
   switch (s.info.stage) {
   case nir::shader_stage::fragment:
      for (const auto &[key, sl] : want.slots) {
         unsigned bti;
         if (key.location == frag_result_color)
            bti = 0;
         else if (key.location >= frag_result_data0)
            bti = key.location - frag_result_data0;
         else if (key.location != frag_result_depth &&
                  key.location != frag_result_sample_mask)
            continue;
         else
            bti = 0;
         /* Depth and oMask: one component, in every render target write. */
         const bool scalar = key.location == frag_result_depth ||
                             key.location == frag_result_sample_mask;
         /* Index 1: the second source of a dual-source write to bti. */
         const bool dual = key.index == 1 && !scalar;
         auto rt = r.mem.rt.find(bti);
         for (unsigned k = 0; k < 4; k++) {
            if (scalar && k)
               break;
            std::string name = output_component_name(s.info.stage, key.location, k,
                                                     dual ? 1 : 0);
            for (unsigned c = 0; c < simd; c++) {
               if (!((sl.written[k] >> c) & 1) || !((live >> c) & 1))
                  continue;
               const uint32_t *got = nullptr;
               uint32_t depth, omask;
               uint32_t want_v = sl.value[k][c];
               if (key.location == frag_result_sample_mask)
                  want_v &= 0xffff;   /* the message carries 16 bits */
               if (rt != r.mem.rt.end() && rt->second[c].written) {
                  if (key.location == frag_result_sample_mask) {
                     omask = rt->second[c].omask;
                     got = rt->second[c].has_omask ? &omask : nullptr;
                  } else if (key.location == frag_result_depth) {
                     memcpy(&depth, &rt->second[c].depth, 4);
                     got = rt->second[c].has_depth ? &depth : nullptr;
                  } else if (dual) {
                     got = rt->second[c].dual ? &rt->second[c].color1[k] : nullptr;
                  } else {
                     got = &rt->second[c].color[k];
                  }
               }
               const exactness e = cmp.class_of(name);
               const bool stable = e != exactness::exact &&
                                   pert.slot(key, k, c, want_v,
                                             key.location == frag_result_sample_mask ? 0xffff
                                                                                     : ~0u,
                                             cmp.is_float(name));
               cmp.one(name, c, want_v, got, e, stable,
                       kept.slot(key, k, c,
                                 key.location == frag_result_sample_mask ? 0xffff : ~0u));
            }
         }
      }
      /* Killed channels must not reach a render target (unless an
       * approximation chose them: then which ones is not compared).
       */
      for (const auto &[bti, pixels] : r.mem.rt) {
         for (unsigned c = 0; c < simd; c++) {
            if (pixels[c].written && !((live >> c) & 1)) {
               const exactness k = cmp.class_of("kill");
               if ((want.killed >> c) & 1 &&
                   (k == exactness::opaque ||
                    (k == exactness::unchecked && !pert.kill(c, true)))) {
                  res.unchecked++;
                  continue;
               }
               std::string line = strfmt("rt%u channel %u: written, but the channel %s", bti, c,
                                         (want.killed >> c) & 1 ? "was killed" : "did not run");
               if (!res.mismatches++)
                  res.first = line;
               res.log += line + "\n";
            }
         }
      }
      break;
   case nir::shader_stage::vertex: {
      const unsigned vue_size = sim::vs_payload().vue_size;
      for (const auto &[key, sl] : want.slots) {
         auto at = std::find(r.vue.begin(), r.vue.end(), key.location);
         for (unsigned k = 0; k < 4; k++) {
            std::string name = output_component_name(s.info.stage, key.location, k);
            for (unsigned c = 0; c < 8; c++) {
               if (!((sl.written[k] >> c) & 1) || !((live >> c) & 1))
                  continue;
               uint32_t v;
               const uint32_t *got = nullptr;
               if (at != r.vue.end()) {
                  size_t off = (size_t(c) * vue_size + size_t(at - r.vue.begin())) * 16 + 4 * k;
                  if (off + 4 <= r.mem.urb.size()) {
                     memcpy(&v, &r.mem.urb[off], 4);
                     got = &v;
                  }
               }
               const exactness e = cmp.class_of(name);
               const bool stable = e != exactness::exact &&
                                   pert.slot(key, k, c, sl.value[k][c], ~0u, cmp.is_float(name));
               cmp.one(name, c, sl.value[k][c], got, e, stable, kept.slot(key, k, c, ~0u));
            }
         }
      }
      break;
   }
   default:
      break;
   }
   (void)xyzw;
   for (const auto &[b, data] : want.ssbos) {
      std::string name = strfmt("ssbo %u", b);
      exactness e = std::max(cmp.class_of(name), cmp.class_of("ssbo"));
      auto it = r.mem.surfaces.find(r.ssbo_base + b);
      for (size_t i = 0; i + 4 <= data.size(); i += 4) {
         uint32_t w, g;
         memcpy(&w, &data[i], 4);
         const uint32_t *got = nullptr;
         if (it != r.mem.surfaces.end() && i + 4 <= it->second.data.size()) {
            memcpy(&g, &it->second.data[i], 4);
            got = &g;
         }
         const bool stable = e != exactness::exact &&
                             pert.ssbo(b, i, w, cmp.is_float(name));
         cmp.one(strfmt("%s dword %zu", name.c_str(), i / 4), unsigned(i / 4 % simd), w, got, e,
                 stable, kept.ssbo(b, i));
      }
   }
   /* Compute: the workgroup's shared memory as the last invocation left it. */
   if (s.info.stage == nir::shader_stage::compute && s.info.shared_size) {
      const exactness e = cmp.class_of("shared");
      auto it = r.mem.surfaces.find(254);
      for (size_t i = 0; i + 4 <= want.shared.size() && i < s.info.shared_size; i += 4) {
         uint32_t w, g;
         memcpy(&w, &want.shared[i], 4);
         const uint32_t *got = nullptr;
         if (it != r.mem.surfaces.end() && i + 4 <= it->second.data.size()) {
            memcpy(&g, &it->second.data[i], 4);
            got = &g;
         }
         const bool stable = e != exactness::exact && pert.shared(i, w, false);
         cmp.one(strfmt("shared dword %zu", i / 4), 0, w, got, e, stable, kept.shared(i));
      }
   }
   for (const auto &[i, im] : want.images) {
      std::string name = strfmt("image %u", i);
      exactness e = std::max(cmp.class_of(name), cmp.class_of("image"));
      auto it = r.mem.surfaces.find(i);
      for (size_t k = 0; k < im.words.size(); k++) {
         uint32_t g;
         const uint32_t *got = nullptr;
         if (it != r.mem.surfaces.end() && 4 * k + 4 <= it->second.data.size()) {
            memcpy(&g, &it->second.data[4 * k], 4);
            got = &g;
         }
         cmp.one(strfmt("%s dword %zu", name.c_str(), k), unsigned(k % simd), im.words[k], got, e,
                 false, kept.image(i, k));
      }
   }
   res.detail = cmp.table();
}

} /* anonymous namespace */

program_abi
ibis_program_abi(const nir::shader &s, unsigned simd, const compile_options &o,
                 const interp::outputs &want)
{
   from_nir_options fo = o.abi;
   fo.dispatch_width = simd;
   const payload_layout p = compute_payload(s, fo);
   program_abi a;
   sim::check::thread_layout &l = a.layout;
   l.push_reg = p.push_start;
   l.uniform_bytes = p.uniform_regs * 32;
   for (size_t i = 0; i < p.ubo_ranges.size(); i++) {
      const push_range &pr = p.ubo_ranges[i];
      l.ubo_pushes.push_back({pr.block, pr.start, pr.length, p.ubo_range_start[i]});
   }
   l.attr_reg = p.attr_start;
   l.attr_slots = p.attr_slots;
   for (unsigned m = 0; m < 6; m++) {
      for (unsigned h = 0; h < 2; h++)
         l.bary_reg[m][h] = p.bary_reg[m][h];
   }
   for (unsigned h = 0; h < 2; h++) {
      l.source_depth_reg[h] = p.source_depth_reg[h];
      l.source_w_reg[h] = p.source_w_reg[h];
      l.sample_pos_reg[h] = p.sample_pos_reg[h];
      l.sample_mask_in_reg[h] = p.sample_mask_in_reg[h];
   }
   /* The render-target payload's parts are the compiled shader's: a
    * source depth whenever the shader stores one, even if every channel
    * was killed before it did; so are an oMask and a computed stencil.
    */
   l.rt_depth = (s.info.outputs_written >> frag_result_depth) & 1 ||
                want.find(frag_result_depth) != nullptr;
   l.rt_omask = (s.info.outputs_written >> frag_result_sample_mask) & 1 ||
                want.find(frag_result_sample_mask) != nullptr;
   l.rt_stencil = (s.info.outputs_written >> frag_result_stencil) & 1 ||
                  want.find(frag_result_stencil) != nullptr;
   l.ubo_bti_base = o.abi.ubo_surface_base;
   l.ssbo_bti_base = o.abi.ssbo_surface_base;
   /* The VUE map the compile wrote (the driver's, when it gave one). */
   a.vue_slots = o.abi.vs_vue_slots;
   a.cs_push_regs = p.push_regs;
   if (p.cs_subgroup_id_dword >= 0)
      a.cs_subgroup_id_dword = int(p.push_start * 8) + p.cs_subgroup_id_dword;
   return a;
}

result
check_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
             const interp::inputs &in, const compile_options &o)
{
   return check_binary(s, simd, binary, in, [&](const interp::outputs &want) {
      return ibis_program_abi(s, simd, o, want);
   });
}

result
check_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
             const interp::inputs &in,
             const std::function<program_abi(const interp::outputs &)> &abi)
{
   result res;
   interp::outputs want;
   /* Final-form Gen9 NIR has had its pixel centre lowered into the shader
    * (nir_lower_wpos_center: brw's load_frag_coord is the integer pixel
    * position, see the corpus' brw assembly); the interpreter must not add
    * the 0.5 again.
    */
   nir::shader &oracle = const_cast<nir::shader &>(s);
   const bool centre = oracle.info.fs.pixel_center_integer;
   oracle.info.fs.pixel_center_integer = true;
   try {
      want = interp::run(s, in);
      oracle.info.fs.pixel_center_integer = centre;
   } catch (const error &e) {
      oracle.info.fs.pixel_center_integer = centre;
      res.v = verdict::oracle_error;
      res.first = e.what();
      return res;
   }
   setup r;
   try {
      r = make_setup(s, simd, in, want, abi(want));
   } catch (const error &e) {
      res.v = verdict::unsupported;
      res.first = e.what();
      return res;
   }
   try {
      if (s.info.stage == nir::shader_stage::compute) {
         for (const sim::result &t : sim::run_group(binary, r.group, r.mem))
         {
            res.executed += t.instructions;
            res.channel_executed += t.channel_instructions;
            res.sends += t.sends;
            add_issued(res.issued_at, t.issued_at);
         }
      } else {
         const sim::result t = sim::run(binary, r.t, r.mem);
         res.executed = t.instructions;
         res.channel_executed = t.channel_instructions;
         res.sends = t.sends;
         res.issued_at = t.issued_at;
      }
      res.cycles = executed_cycles(binary, res.issued_at);
   } catch (const error &e) {
      res.v = verdict::run_error;
      res.first = e.what();
      return res;
   }
   const std::map<std::string, exactness> classes = classify_outputs(s, lod_free_inputs(in));
   perturbed pert;
   if (std::any_of(classes.begin(), classes.end(),
                   [](const auto &c) { return c.second != exactness::exact; })) {
      /* At the edges of the bounds, and one ULP away (bounds of 0): a
       * bit-level use of an approximate float (its low bits as an index)
       * may not see a whole number of 8 ULPs move, but sees one ULP.
       */
      static const struct {
         interp::perturb_mode mode;
         uint64_t seed;
         bool ulp;
      } modes[] = {
         {interp::perturb_mode::up, 0, false},
         {interp::perturb_mode::down, 0, false},
         {interp::perturb_mode::mixed, 1, false},
         {interp::perturb_mode::mixed, 2, false},
         {interp::perturb_mode::up, 0, true},
         {interp::perturb_mode::down, 0, true},
         {interp::perturb_mode::mixed, 3, true},
         /* Derivatives: neighbours moved apart. */
         {interp::perturb_mode::quad_x, 0, false},
         {interp::perturb_mode::quad_y, 0, false},
         {interp::perturb_mode::quad_x, 0, true},
         {interp::perturb_mode::quad_y, 0, true},
      };
      oracle.info.fs.pixel_center_integer = true;
      try {
         for (const auto &m : modes) {
            interp::inputs pin = in;
            pin.perturb.mode = m.mode;
            pin.perturb.seed = m.seed;
            if (m.ulp)
               pin.perturb.rel = pin.perturb.abs = pin.perturb.texel = pin.perturb.lod = 0;
            pert.runs.push_back(interp::run(s, pin));
         }
      } catch (const error &) {
         /* A perturbed run the interpreter cannot finish (a loop that
          * runs away): keep the static classes.
          */
         pert.runs.clear();
      }
      oracle.info.fs.pixel_center_integer = centre;
   }
   compare_outputs(s, simd, r, want, classes, pert, run_words(), res);
   /* Denormals the target may flush or keep (make_inputs): compare the
    * words that differ again with a run that keeps them.  Only on a
    * mismatch, since it costs a second interpreter run.
    */
   const uint32_t ftz_open = in.float_controls & ftz_all;
   if (res.mismatches && ftz_open) {
      interp::inputs kin = in;
      kin.float_controls &= ~ftz_open;
      interp::outputs keep;
      bool ran = true;
      oracle.info.fs.pixel_center_integer = true;
      try {
         keep = interp::run(s, kin);
      } catch (const error &) {
         ran = false;   /* keep the first verdict */
      }
      oracle.info.fs.pixel_center_integer = centre;
      if (ran) {
         result again;
         again.executed = res.executed;
         again.channel_executed = res.channel_executed;
         again.sends = res.sends;
         again.cycles = res.cycles;
         again.issued_at = std::move(res.issued_at);
         compare_outputs(s, simd, r, want, classes, pert, run_words{&keep}, again);
         res = again;
      }
   }
   res.v = res.mismatches ? verdict::mismatch : verdict::match;
   return res;
}

result
check_sets(const nir::shader &s, unsigned simd, uint64_t seed, unsigned sets,
           const std::function<result(const nir::interp::inputs &)> &run)
{
   result total;
   for (unsigned i = 0; i < sets; i++) {
      result r = run(make_inputs(s, simd, seed, i));
      total.compared += r.compared;
      total.approximate += r.approximate;
      total.unchecked += r.unchecked;
      total.stable += r.stable;
      total.kept_denormals += r.kept_denormals;
      total.executed += r.executed;
      total.channel_executed += r.channel_executed;
      total.sends += r.sends;
      total.cycles += r.cycles;
      add_issued(total.issued_at, r.issued_at);
      total.words += strfmt("set %u\n", i) + r.words;
      total.detail = r.detail;
      if (r.v != verdict::match) {
         r.input_set = i;
         r.compared = total.compared;
         r.approximate = total.approximate;
         r.unchecked = total.unchecked;
         r.stable = total.stable;
         r.kept_denormals = total.kept_denormals;
         r.executed = total.executed;
         r.channel_executed = total.channel_executed;
         r.sends = total.sends;
         r.cycles = total.cycles;
         r.issued_at = std::move(total.issued_at);
         return r;
      }
   }
   return total;
}

} /* namespace ibis::check */
