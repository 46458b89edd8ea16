/*
 * Which outputs depend on operations Gen does not round correctly
 * (check.h): a forward taint over the NIR, iterated to a fixed point for
 * registers and loops.
 *
 * Levels: 0 exact; 1 an approximation that went only through continuous
 * float arithmetic; 2 an approximation that reached a discontinuous
 * operation, an address, or a branch (everything under a tainted branch,
 * and after a loop that contains one, is level 2).
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

/* Small changes of the operands make small changes of the result. */
bool
is_continuous(alu_op op)
{
   switch (op) {
   case alu_op::mov: case alu_op::vec2: case alu_op::vec3: case alu_op::vec4:
   case alu_op::vec5: case alu_op::vec8: case alu_op::vec16:
   case alu_op::fadd: case alu_op::fsub: case alu_op::fmul: case alu_op::ffma:
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
         walk(impl->body, 0);
         if (!changed)
            break;
      }
      /* Which channels a kill removes decides every colour and depth the
       * fragment writes, and whether it writes any at all.
       */
      if (kill_level >= 2) {
         for (auto &[name, l] : outputs)
            l = 2;
      }
      if (kill_level)
         outputs["kill"] = kill_level;
      std::map<std::string, exactness> out;
      for (const auto &[name, l] : outputs)
         out[name] = l == 0 ? exactness::exact : l == 1 ? exactness::approximate
                                                        : exactness::unchecked;
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
   unsigned after = 0;   /* raised after a loop with a tainted branch */
   unsigned kill_level = 0;   /* of the channels killed (demote, terminate) */

   /* The highest level of any component. */
   unsigned of(const nir::def *d) const
   {
      auto it = level.find(d);
      if (it == level.end())
         return 0;
      return *std::max_element(it->second.begin(), it->second.end());
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
      if (comp < cur.size() && l > cur[comp]) {
         cur[comp] = l;
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
      if (l > cur) {
         cur = l;
         changed = true;
      }
   }
   void output(const std::string &name, unsigned l)
   {
      unsigned &cur = outputs[name];
      if (l > cur)
         cur = l;
   }

   /* Returns whether a tainted branch was seen (for enclosing loops). */
   bool walk(const nir::cf_list &list, unsigned control)
   {
      bool tainted_branch = false;
      for (const auto &node : list) {
         unsigned c = std::max(control, after);
         if (node->type == nir::cf_type::block) {
            for (const auto &i : static_cast<const nir::block &>(*node).instrs)
               visit(*i, c);
         } else if (node->type == nir::cf_type::if_) {
            const auto &nif = static_cast<const nir::if_ &>(*node);
            unsigned cond = of(nif.condition.ssa);
            unsigned inner = cond ? 2 : c;
            tainted_branch |= cond != 0;
            tainted_branch |= walk(nif.then_list, inner);
            tainted_branch |= walk(nif.else_list, inner);
         } else {
            const auto &l = static_cast<const nir::loop &>(*node);
            bool t = walk(l.body, c);
            t |= walk(l.continue_list, c);
            if (t) {
               /* Trip counts may differ: the whole loop and what follows. */
               walk(l.body, 2);
               walk(l.continue_list, 2);
               after = 2;
            }
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
               l = std::max(l, of(src.ssa, src.swizzle[k]));
            return l;
         };
         const bool vec = alu.op == alu_op::vec2 || alu.op == alu_op::vec3 ||
                          alu.op == alu_op::vec4 || alu.op == alu_op::vec5 ||
                          alu.op == alu_op::vec8 || alu.op == alu_op::vec16;
         for (unsigned c = 0; c < alu.dest.num_components; c++) {
            unsigned l = 0;
            if (vec) {
               raise(&alu.dest, c, std::max(control ? 2u : 0u,
                                            of(alu.srcs[c].ssa, alu.srcs[c].swizzle[0])));
               continue;
            }
            for (unsigned i = 0; i < alu.srcs.size(); i++)
               l = std::max(l, src_level(i, c));
            if (is_approximate(alu.op))
               l = std::max(l, 1u);
            if (alu.op == alu_op::bcsel || alu.op == alu_op::b32csel ||
                alu.op == alu_op::fcsel) {
               /* A tainted selector is a branch; tainted data is not. */
               l = std::max({src_level(0, c) ? 2u : 0u, src_level(1, c), src_level(2, c)});
            } else if (l == 1 && !is_continuous(alu.op)) {
               l = 2;
            }
            raise(&alu.dest, c, control ? 2 : l);
         }
         break;
      }
      case nir::instr_type::tex: {
         const auto &tex = static_cast<const nir::tex_instr &>(i);
         unsigned l = 0;
         for (const auto &src : tex.srcs)
            l = std::max(l, of(src.ssa) ? 2u : 0u);
         /* Filtering weights are not exact on Gen; fetches and queries are. */
         bool filtered = nir::base_type(tex.dest_type) == nir::type_float &&
                         (tex.op == nir::tex_op::tex || tex.op == nir::tex_op::txb ||
                          tex.op == nir::tex_op::txl || tex.op == nir::tex_op::txd);
         if (filtered)
            l = std::max(l, 1u);
         /* The LOD of an implicit-LOD lookup is itself approximate on
          * Gen, and the simulator and the interpreter compute it
          * differently: between two levels the blend, and so the result,
          * may differ by much more than any tolerance would allow.  With
          * no mip filtering the level is always 0 (one filter serves
          * minification and magnification), so the LOD changes nothing.
          */
         if (filtered && tex.op != nir::tex_op::txl && !lod_free)
            l = 2;
         raise(&tex.dest, control ? 2 : l);
         break;
      }
      case nir::instr_type::phi: {
         const auto &phi = static_cast<const nir::phi_instr &>(i);
         unsigned l = control;
         for (const auto &src : phi.srcs)
            l = std::max(l, of(src.ssa));
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
         srcs = std::max(srcs, of(src.ssa));
      switch (in.op) {
      case intrinsic_op::decl_reg:
         return;
      case intrinsic_op::demote: case intrinsic_op::demote_if:
      case intrinsic_op::discard: case intrinsic_op::discard_if:
      case intrinsic_op::terminate: case intrinsic_op::terminate_if:
         /* An approximation that picks the killed channels is a branch. */
         kill_level = std::max(kill_level, srcs || control ? 2u : 0u);
         return;
      case intrinsic_op::load_frag_coord:
         /* w is 1/W: Gen computes it with math inv of the payload's W. */
         raise(&in.dest, 0, control);
         raise(&in.dest, 3, std::max(1u, control));
         return;
      case intrinsic_op::load_reg:
      case intrinsic_op::load_reg_indirect: {
         auto it = reg_level.find(in.srcs[0].ssa);
         unsigned l = it == reg_level.end() ? 0 : it->second;
         if (in.srcs.size() > 1 && of(in.srcs[1].ssa))
            l = 2;
         raise(&in.dest, std::max(l, control));
         return;
      }
      case intrinsic_op::store_reg:
      case intrinsic_op::store_reg_indirect: {
         unsigned l = std::max(of(in.srcs[0].ssa), control);
         if (in.srcs.size() > 2 && of(in.srcs[2].ssa))
            l = 2;
         raise_reg(in.srcs[1].ssa, l);
         return;
      }
      case intrinsic_op::store_output: {
         unsigned loc = in.get_io_semantics().location;
         unsigned index = in.get_io_semantics().dual_source_blend_index;
         unsigned comp = unsigned(in.index(nir::intrinsic_index::component));
         unsigned mask = unsigned(in.index(nir::intrinsic_index::write_mask));
         for (unsigned k = 0; k < 4; k++) {
            unsigned l = std::max(of(in.srcs[0].ssa, k), control);
            if (of(in.srcs[1].ssa))
               l = 2;
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
         unsigned l = std::max(srcs, control);
         const nir::def *b = in.srcs[1].ssa;
         std::string name = "ssbo";
         if (b->parent && b->parent->type == nir::instr_type::load_const)
            name = strfmt("ssbo %u", unsigned(static_cast<const nir::load_const_instr *>(
                                         b->parent)->values[0].u32));
         /* An approximate value at an exact address is still approximate. */
         if (of(in.srcs[2].ssa) || of(in.srcs[1].ssa))
            l = 2;
         output(name, l);
         return;
      }
      case intrinsic_op::image_store:
      case intrinsic_op::image_atomic:
      case intrinsic_op::image_atomic_swap: {
         /* Like an SSBO store: the image's words, at coordinates. */
         const nir::def *b = in.srcs[0].ssa;
         std::string name = "image";
         if (b->parent && b->parent->type == nir::instr_type::load_const)
            name = strfmt("image %u", unsigned(static_cast<const nir::load_const_instr *>(
                                          b->parent)->values[0].u32));
         /* An atomic's arithmetic on an approximate value is not continuous. */
         const bool atomic = in.op != intrinsic_op::image_store;
         const bool discontinuous = of(in.srcs[0].ssa) || of(in.srcs[1].ssa) || (atomic && srcs);
         output(name, discontinuous ? 2 : std::max(srcs, control));
         if (in.op == intrinsic_op::image_store)
            return;
         break;
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
      unsigned l = srcs ? 2 : 0;
      if (srcs == 1 && (in.op == intrinsic_op::reduce || in.op == intrinsic_op::inclusive_scan ||
                        in.op == intrinsic_op::read_first_invocation ||
                        in.op == intrinsic_op::read_invocation)) {
         unsigned red = unsigned(in.index(nir::intrinsic_index::reduction_op));
         bool minmax = red == unsigned(alu_op::fmin) || red == unsigned(alu_op::fmax);
         if (minmax || in.op == intrinsic_op::read_first_invocation)
            l = 1;
      }
      raise(&in.dest, std::max(l, control));
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
