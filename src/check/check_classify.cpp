/*
 * Which outputs depend on operations Gen does not round correctly
 * (check.h): a forward taint over the NIR, iterated to a fixed point for
 * registers and loops.
 *
 * Each def component carries a set of taints: C, it varies continuously
 * with an approximation (it went only through continuous float
 * arithmetic); S, it is a step function of one: an approximation reached
 * a monotone discontinuous operation (a comparison, a conversion to
 * integer, floor, a texel index) or a branch (everything under a tainted
 * branch, and after a loop that contains one, is S), and integer work on
 * such a step stays S; B, the bits of an approximate float reached an
 * integer or bit operation (its low bits as an index or a mask).
 *
 * An output with B is "opaque" and never compared; S or C alone are
 * compared where every perturbed interpreter run agrees (check.cpp), C
 * alone with a tolerance where they do not.  Sampling the edges of the
 * error bounds is sound for monotone steps (between two equal edges every
 * value gives the same step) but not for bits: a float one ULP up may
 * land on any low bits.
 */
#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>

#include "check/check.h"
#include "util/ibis_error.h"

namespace ibis::check {

namespace {

using nir::alu_op;
using nir::intrinsic_op;

constexpr unsigned frag_result_depth = 0;
constexpr unsigned frag_result_color = 2;
constexpr unsigned frag_result_data0 = 4;

bool
is_approximate(alu_op op)
{
   switch (op) {
   case alu_op::frcp: case alu_op::frsq: case alu_op::fsqrt: case alu_op::fexp2:
   case alu_op::flog2: case alu_op::fsin: case alu_op::fcos: case alu_op::fpow:
   /* Gen's LRP rounds its two products and the sum its own way, not as
    * NIR's a * (1 - c) + b * c.
    */
   case alu_op::flrp:
      return true;
   default:
      return false;
   }
}

constexpr unsigned taint_c = 1, taint_s = 2, taint_b = 4;

/* Monotone in each float operand with a discrete result: between two
 * operands with the same result every operand gives it.  (feq/fneu are
 * not monotone, but only an operand equal to the constant between the
 * sampled edges, none of which is, would differ.)
 */
bool
is_step(alu_op op)
{
   const std::string name = nir::op_info(op).name;
   for (const char *p : {"flt", "fge", "feq", "fneu", "f2i", "f2u", "f2b"}) {
      if (name.rfind(p, 0) == 0)
         return true;
   }
   switch (op) {
   case alu_op::ffloor: case alu_op::fceil: case alu_op::ftrunc: case alu_op::fround_even:
   case alu_op::fsign: case alu_op::slt: case alu_op::sge: case alu_op::seq: case alu_op::sne:
      return true;
   default:
      return false;
   }
}

/* Continuous between steps (the sawtooth of ffract, a rounding to half). */
bool
is_step_continuous(alu_op op)
{
   const std::string name = nir::op_info(op).name;
   if (name.rfind("f2f16", 0) == 0)
      return true;
   switch (op) {
   case alu_op::ffract: case alu_op::fmod: case alu_op::frem: case alu_op::fquantize2f16:
      return true;
   default:
      return false;
   }
}

/* Small changes of the operands make small changes of the result. */
bool
is_continuous(alu_op op)
{
   switch (op) {
   case alu_op::mov: case alu_op::vec2: case alu_op::vec3: case alu_op::vec4:
   case alu_op::vec5: case alu_op::vec8: case alu_op::vec16:
   case alu_op::fadd: case alu_op::fsub: case alu_op::fmul: case alu_op::ffma:
   case alu_op::fmulz: case alu_op::ffmaz: case alu_op::fdiv:
   case alu_op::flrp: case alu_op::fneg: case alu_op::fabs: case alu_op::fsat:
   case alu_op::fmin: case alu_op::fmax: case alu_op::frcp: case alu_op::frsq:
   case alu_op::fsqrt: case alu_op::fexp2: case alu_op::flog2: case alu_op::fsin:
   case alu_op::fcos: case alu_op::fpow: case alu_op::f2f32: case alu_op::f2f64:
   case alu_op::fddx: case alu_op::fddy: case alu_op::fddx_fine:
   case alu_op::fddy_fine: case alu_op::fddx_coarse: case alu_op::fddy_coarse:
      return true;
   default:
      return false;
   }
}

class classifier {
public:
   classifier(const nir::shader &s, bool lod_free) : s(s), lod_free(lod_free) {}

   std::map<std::string, exactness> run()
   {
      const nir::function_impl *impl = nullptr;
      for (const auto &f : s.functions) {
         if (f->impl && (!impl || f->name == "main"))
            impl = f->impl.get();
      }
      if (!impl)
         return {};
      /* Each pass only raises levels; registers and loops need repeats. */
      for (unsigned i = 0; i < 16; i++) {
         changed = false;
         after = 0;
         divergent = !s.info.divergence_analysis_run;
         kill_divergent = false;
         walk(impl->body, 0);
         if (!changed)
            break;
      }
      /* Which channels a kill removes decides every colour and depth the
       * fragment writes, and whether it writes any at all.
       */
      if (kill_level & (taint_s | taint_b)) {
         for (auto &[name, l] : outputs)
            l |= kill_level & (taint_s | taint_b);
      }
      if (kill_level)
         outputs["kill"] = kill_level;
      std::map<std::string, exactness> out;
      for (const auto &[name, l] : outputs)
         out[name] = l & taint_b ? exactness::opaque
                   : l & taint_s ? exactness::unchecked
                   : l ? exactness::approximate : exactness::exact;
      return out;
   }

private:
   const nir::shader &s;
   const bool lod_free;
   /* Per component of a def; registers (by decl_reg) as a whole. */
   std::unordered_map<const nir::def *, std::vector<unsigned>> level;
   std::unordered_map<const nir::def *, unsigned> reg_level;
   std::map<std::string, unsigned> outputs;
public:
   std::set<std::string> floats;   /* outputs stored as floats */
private:
   bool changed = false;
   bool divergent = false;        /* in divergent control flow */
   bool kill_divergent = false;   /* after a divergent kill */
   unsigned after = 0;   /* taints after a loop with a tainted branch */
   unsigned kill_level = 0;   /* of the channels killed (demote, terminate) */
   /* What was stored to each image ("image N"; "image": an index that is
    * not constant).
    */
   std::map<std::string, unsigned> image_level;
   /* What any invocation stored to shared memory (one array for the
    * whole workgroup: a load may read another invocation's word).
    */
   unsigned shared_level = 0;

   /* A value used as a condition, an index or an address: a step of a
    * step, the bits of a continuous float.
    */
   static unsigned as_choice(unsigned l)
   {
      return (l & taint_c ? taint_b : 0) | (l & taint_b) | (l & taint_s);
   }
   /* What a branch on l makes of everything under it. */
   static unsigned branch(unsigned l)
   {
      l = as_choice(l);
      return l & taint_b ? taint_b | taint_s : l ? taint_s : 0;
   }

   /* The taints of any component. */
   unsigned of(const nir::def *d) const
   {
      auto it = level.find(d);
      unsigned l = 0;
      if (it != level.end()) {
         for (unsigned x : it->second)
            l |= x;
      }
      return l;
   }
   unsigned of(const nir::def *d, unsigned comp) const
   {
      auto it = level.find(d);
      return it == level.end() || comp >= it->second.size() ? 0 : it->second[comp];
   }
   void raise(const nir::def *d, unsigned comp, unsigned l)
   {
      std::vector<unsigned> &cur = level[d];
      cur.resize(std::max<size_t>(d->num_components, 1), 0);
      if (comp < cur.size() && (cur[comp] | l) != cur[comp]) {
         cur[comp] |= l;
         changed = true;
      }
   }
   void raise(const nir::def *d, unsigned l)
   {
      for (unsigned c = 0; c < std::max<unsigned>(d->num_components, 1); c++)
         raise(d, c, l);
   }
   void raise_reg(const nir::def *d, unsigned l)
   {
      unsigned &cur = reg_level[d];
      if ((cur | l) != cur) {
         cur |= l;
         changed = true;
      }
   }
   void output(const std::string &name, unsigned l)
   {
      outputs[name] |= l;
   }

   static bool has_divergent_branch(const nir::cf_list &list)
   {
      for (const auto &node : list) {
         if (node->type == nir::cf_type::if_) {
            const auto &nif = static_cast<const nir::if_ &>(*node);
            if (nif.condition.ssa->divergent || has_divergent_branch(nif.then_list) ||
                has_divergent_branch(nif.else_list))
               return true;
         } else if (node->type == nir::cf_type::loop) {
            const auto &l = static_cast<const nir::loop &>(*node);
            if (has_divergent_branch(l.body) || has_divergent_branch(l.continue_list))
               return true;
         }
      }
      return false;
   }

   /* Returns the taints of the tainted branches seen (for enclosing
    * loops).
    */
   unsigned walk(const nir::cf_list &list, unsigned control)
   {
      unsigned tainted_branch = 0;
      for (const auto &node : list) {
         unsigned c = control | after;
         if (node->type == nir::cf_type::block) {
            for (const auto &i : static_cast<const nir::block &>(*node).instrs)
               visit(*i, c);
         } else if (node->type == nir::cf_type::if_) {
            const auto &nif = static_cast<const nir::if_ &>(*node);
            unsigned cond = branch(of(nif.condition.ssa));
            unsigned inner = cond | c;
            const bool was = divergent;
            divergent |= nif.condition.ssa->divergent;
            tainted_branch |= cond;
            tainted_branch |= walk(nif.then_list, inner);
            tainted_branch |= walk(nif.else_list, inner);
            divergent = was;
         } else {
            const auto &l = static_cast<const nir::loop &>(*node);
            /* Channels leave at a divergent break: conservatively, any
             * divergent branch in the loop.
             */
            const bool was = divergent;
            divergent |= has_divergent_branch(l.body) || has_divergent_branch(l.continue_list);
            unsigned t = walk(l.body, c);
            t |= walk(l.continue_list, c);
            if (t) {
               /* Trip counts may differ: the whole loop and what follows. */
               walk(l.body, c | t);
               walk(l.continue_list, c | t);
               after |= t;
            }
            divergent = was;
            tainted_branch |= t;
         }
      }
      return tainted_branch;
   }

   void visit(const nir::instr &i, unsigned control)
   {
      switch (i.type) {
      case nir::instr_type::alu: {
         const auto &alu = static_cast<const nir::alu_instr &>(i);
         const nir::alu_op_info &info = nir::op_info(alu.op);
         /* Source i as read for destination component c. */
         auto src_level = [&](unsigned i, unsigned c) {
            const auto &src = alu.srcs[i];
            if (!info.input_sizes[i])
               return of(src.ssa, src.swizzle[c]);
            unsigned l = 0;
            for (unsigned k = 0; k < info.input_sizes[i]; k++)
               l |= of(src.ssa, src.swizzle[k]);
            return l;
         };
         const bool vec = alu.op == alu_op::vec2 || alu.op == alu_op::vec3 ||
                          alu.op == alu_op::vec4 || alu.op == alu_op::vec5 ||
                          alu.op == alu_op::vec8 || alu.op == alu_op::vec16;
         for (unsigned c = 0; c < alu.dest.num_components; c++) {
            unsigned l = 0;
            if (vec) {
               raise(&alu.dest, c, control | of(alu.srcs[c].ssa, alu.srcs[c].swizzle[0]));
               continue;
            }
            for (unsigned i = 0; i < alu.srcs.size(); i++)
               l |= src_level(i, c);
            if (is_approximate(alu.op))
               l |= taint_c;
            const bool fsel = alu.op == alu_op::fcsel || alu.op == alu_op::fcsel_gt ||
                              alu.op == alu_op::fcsel_ge;
            if (alu.op == alu_op::bcsel || alu.op == alu_op::b32csel || fsel) {
               /* A tainted selector is a branch; tainted data is not.
                * (fcsel's float selector is compared with zero: 25.0
                * lowers fsign to fcsel_gt, a step as fsign is.)
                */
               unsigned sel = src_level(0, c);
               sel = fsel ? (sel & taint_b) | (sel ? taint_s : 0) : branch(sel);
               l = sel | src_level(1, c) | src_level(2, c);
            } else if (l & taint_c && !is_continuous(alu.op)) {
               /* A step of a continuous value, or its bits. */
               if (is_step(alu.op))
                  l = (l & ~taint_c) | taint_s;
               else if (is_step_continuous(alu.op))
                  l |= taint_s;
               else
                  l |= taint_b;
            }
            raise(&alu.dest, c, control | l);
         }
         break;
      }
      case nir::instr_type::tex: {
         const auto &tex = static_cast<const nir::tex_instr &>(i);
         /* A texel index is a step of the coordinates; an index or
          * offset from the bits of a float is opaque.
          */
         unsigned l = 0;
         for (const auto &src : tex.srcs) {
            unsigned m = of(src.ssa);
            l |= (m & (taint_s | taint_b)) | (m & taint_c ? taint_s | taint_c : 0);
         }
         /* Filtering weights are not exact on Gen; fetches and queries are. */
         bool filtered = nir::base_type(tex.dest_type) == nir::type_float &&
                         (tex.op == nir::tex_op::tex || tex.op == nir::tex_op::txb ||
                          tex.op == nir::tex_op::txl || tex.op == nir::tex_op::txd);
         if (filtered)
            l |= taint_c;
         /* The LOD of an implicit-LOD lookup is itself approximate on
          * Gen, and the simulator and the interpreter compute it
          * differently: between two levels the blend, and so the result,
          * may differ by much more than any tolerance would allow (the
          * perturbed runs move the LOD by a level).  With no mip filtering
          * the level is always 0 (one filter serves minification and
          * magnification), so the LOD changes nothing.  Where the quad may
          * be partly inactive (divergent control flow) the derivatives
          * read what the inactive channels hold, which neither side
          * defines: opaque.
          */
         if (filtered && tex.op != nir::tex_op::txl && !lod_free)
            l |= (divergent || kill_divergent) && tex.op != nir::tex_op::txd ? taint_b : taint_s;
         raise(&tex.dest, control | l);
         break;
      }
      case nir::instr_type::phi: {
         const auto &phi = static_cast<const nir::phi_instr &>(i);
         unsigned l = control;
         for (const auto &src : phi.srcs)
            l |= of(src.ssa);
         raise(&phi.dest, l);
         break;
      }
      case nir::instr_type::intrinsic:
         visit_intrinsic(static_cast<const nir::intrinsic_instr &>(i), control);
         break;
      default:
         break;
      }
   }

   void visit_intrinsic(const nir::intrinsic_instr &in, unsigned control)
   {
      unsigned srcs = 0;
      for (const auto &src : in.srcs)
         srcs |= of(src.ssa);
      switch (in.op) {
      case intrinsic_op::decl_reg:
         return;
      case intrinsic_op::demote: case intrinsic_op::demote_if:
      case intrinsic_op::discard: case intrinsic_op::discard_if:
      case intrinsic_op::terminate: case intrinsic_op::terminate_if:
         /* An approximation that picks the killed channels is a branch. */
         kill_level |= branch(srcs) | control;
         if (!in.srcs.empty() && in.srcs[0].ssa->divergent)
            kill_divergent = true;
         return;
      case intrinsic_op::load_frag_coord:
         /* w is 1/W: Gen computes it with math inv of the payload's W. */
         raise(&in.dest, 0, control);
         raise(&in.dest, 3, taint_c | control);
         return;
      case intrinsic_op::load_reg:
      case intrinsic_op::load_reg_indirect: {
         auto it = reg_level.find(in.srcs[0].ssa);
         unsigned l = it == reg_level.end() ? 0 : it->second;
         if (in.srcs.size() > 1)
            l |= as_choice(of(in.srcs[1].ssa));
         raise(&in.dest, l | control);
         return;
      }
      case intrinsic_op::store_reg:
      case intrinsic_op::store_reg_indirect: {
         unsigned l = of(in.srcs[0].ssa) | control;
         if (in.srcs.size() > 2)
            l |= as_choice(of(in.srcs[2].ssa));
         raise_reg(in.srcs[1].ssa, l);
         return;
      }
      case intrinsic_op::store_output: {
         unsigned loc = in.get_io_semantics().location;
         unsigned index = in.get_io_semantics().dual_source_blend_index;
         unsigned comp = unsigned(in.index(nir::intrinsic_index::component));
         unsigned mask = unsigned(in.index(nir::intrinsic_index::write_mask));
         for (unsigned k = 0; k < 4; k++) {
            unsigned l = of(in.srcs[0].ssa, k) | control | as_choice(of(in.srcs[1].ssa));
            if ((mask >> k) & 1 && comp + k < 4) {
               std::string name = output_name(s.info.stage, loc, comp + k, index);
               output(name, l);
               if (nir::base_type(nir::intrinsic_src_type(in, 0)) == nir::type_float)
                  floats.insert(name);
            }
         }
         return;
      }
      case intrinsic_op::store_ssbo: {
         unsigned l = of(in.srcs[0].ssa) | control;
         const nir::def *b = in.srcs[1].ssa;
         std::string name = "ssbo";
         if (b->parent && b->parent->type == nir::instr_type::load_const)
            name = strfmt("ssbo %u", unsigned(static_cast<const nir::load_const_instr *>(
                                         b->parent)->values[0].u32));
         /* An approximate value at an exact address is still approximate;
          * at an approximate address it is wherever the address says.
          */
         l |= as_choice(of(in.srcs[2].ssa) | of(in.srcs[1].ssa));
         output(name, l);
         return;
      }
      case intrinsic_op::load_shared:
         raise(&in.dest, as_choice(of(in.srcs[0].ssa)) | shared_level | control);
         return;
      case intrinsic_op::store_shared:
      case intrinsic_op::shared_atomic:
      case intrinsic_op::shared_atomic_swap: {
         /* The final words are output "shared"; an atomic's arithmetic on
          * an approximate value is not continuous.
          */
         const bool store = in.op == intrinsic_op::store_shared;
         const nir::def *addr = in.srcs[store ? 1 : 0].ssa;
         const unsigned l = (store ? of(in.srcs[0].ssa) : as_choice(srcs)) |
                            as_choice(of(addr)) | control;
         output("shared", l);
         if ((shared_level | l) != shared_level) {
            shared_level |= l;
            changed = true;
         }
         if (!store)
            raise(&in.dest, l | shared_level);
         return;
      }
      case intrinsic_op::image_store:
      case intrinsic_op::image_atomic:
      case intrinsic_op::image_atomic_swap:
      case intrinsic_op::image_load: {
         /* Like an SSBO store: the image's words, at coordinates; what a
          * load (or an atomic's old value) reads is as exact as what was
          * stored there (any image's, for an index that is not constant).
          */
         const nir::def *b = in.srcs[0].ssa;
         std::string name = "image";
         if (b->parent && b->parent->type == nir::instr_type::load_const)
            name = strfmt("image %u", unsigned(static_cast<const nir::load_const_instr *>(
                                          b->parent)->values[0].u32));
         unsigned stored = 0;
         for (const auto &[n, l] : image_level) {
            if (n == name || name == "image" || n == "image")
               stored = std::max(stored, l);
         }
         if (in.op == intrinsic_op::image_load) {
            raise(&in.dest, std::max({of(b) || of(in.srcs[1].ssa) ? 2u : 0u, stored, control}));
            return;
         }
         /* An atomic's arithmetic on an approximate value is not continuous. */
         const bool atomic = in.op != intrinsic_op::image_store;
         const bool discontinuous = of(b) || of(in.srcs[1].ssa) || (atomic && srcs);
         const unsigned l = discontinuous ? 2 : std::max(srcs, control);
         output(name, l);
         unsigned &cur = image_level[name];
         if (l > cur) {
            cur = l;
            changed = true;
         }
         if (in.op == intrinsic_op::image_store)
            return;
         raise(&in.dest, std::max({l, stored, control}));
         return;
      }
      default:
         break;
      }
      if (!nir::op_info(in.op).has_dest)
         return;
      /* fmin/fmax reductions keep a tainted float continuous; every other
       * intrinsic with a tainted source (an address, a shuffle index, a
       * vote) is discontinuous.
       */
      unsigned l = as_choice(srcs);
      /* 25.0's derivatives are continuous, as the fddx opcodes. */
      if (in.op == intrinsic_op::ddx || in.op == intrinsic_op::ddx_coarse ||
          in.op == intrinsic_op::ddx_fine || in.op == intrinsic_op::ddy ||
          in.op == intrinsic_op::ddy_coarse || in.op == intrinsic_op::ddy_fine)
         l = srcs;
      if (in.op == intrinsic_op::reduce || in.op == intrinsic_op::inclusive_scan ||
          in.op == intrinsic_op::read_first_invocation) {
         const bool minmax =
            in.op == intrinsic_op::read_first_invocation ||
            in.index(nir::intrinsic_index::reduction_op) == int64_t(alu_op::fmin) ||
            in.index(nir::intrinsic_index::reduction_op) == int64_t(alu_op::fmax);
         if (minmax)
            l = srcs;
      }
      raise(&in.dest, l | control);
   }

public:
   static std::string output_name(nir::shader_stage st, unsigned loc, unsigned comp,
                                  unsigned index)
   {
      static const char xyzw[] = "xyzw";
      const char *dual = index ? " dual" : "";
      if (st == nir::shader_stage::fragment) {
         if (loc == frag_result_depth)
            return "depth";
         if (loc == frag_result_color)
            return strfmt("rt0%s.%c", dual, xyzw[comp]);
         if (loc >= frag_result_data0)
            return strfmt("rt%u%s.%c", loc - frag_result_data0, dual, xyzw[comp]);
      }
      return strfmt("location %u.%c", loc, xyzw[comp]);
   }
};

} /* anonymous namespace */

std::string
output_component_name(nir::shader_stage st, unsigned loc, unsigned comp, unsigned index)
{
   return classifier::output_name(st, loc, comp, index);
}

std::map<std::string, exactness>
classify_outputs(const nir::shader &s, bool lod_free)
{
   return classifier(s, lod_free).run();
}

bool
lod_free_inputs(const nir::interp::inputs &in)
{
   /* Textures and samplers pair up by the instruction, not by index. */
   bool mip = false, levels = false;
   for (const auto &[index, smp] : in.samplers)
      mip |= smp.mip != nir::interp::mip_filter::none;
   for (const auto &[index, t] : in.textures)
      levels |= t.levels > 1;
   return !mip || !levels;
}

std::set<std::string>
float_outputs(const nir::shader &s)
{
   classifier c(s, false);
   c.run();
   return c.floats;
}

} /* namespace ibis::check */
