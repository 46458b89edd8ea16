/*
 * Which GRFs hold what when a Gen9 thread starts, per stage and dispatch
 * width: the one place these decisions live (docs/from_nir.md, "Thread
 * payload", lists them with the brw sources they follow).
 *
 *   VS (brw vs_thread_payload): g0 header, g1 URB handles, then the push
 *     constants, then the vertex attributes, 4 GRFs per slot (x, y, z, w
 *     of 8 channels), in VERT_ATTRIB order, then the vertex/instance id
 *     slot and the draw id slot when used (brw's SGVS elements).
 *   FS (brw setup_fs_payload_gfx6): g0 header; per SIMD16 half one GRF of
 *     masks and pixel X/Y (g1, and g2 at SIMD32); then per half the
 *     barycentrics of each enabled mode in brw_barycentric_mode order
 *     (2 GRFs per 8 channels: I then J), source depth, source W (1 GRF per
 *     8 channels each), sample positions (1 GRF), input coverage mask (1 GRF
 *     per 8 channels).  Push constants follow, then the setup data of the
 *     varyings: 2 GRFs per slot, 4 floats per component: the plane a, b, (unused), c,
 *     c being the value of flat inputs.
 *   CS (brw cs_thread_payload, Gen9): g0 header only; the push constants
 *     (cross-thread) are followed by one register of per-thread data whose
 *     first dword is the subgroup id.
 */
#include <algorithm>
#include <map>

#include "from_nir/from_nir_private.h"

namespace ibis {

namespace {

const nir::intrinsic_instr *
as_intrinsic(const nir::instr &in)
{
   return in.type == nir::instr_type::intrinsic
             ? static_cast<const nir::intrinsic_instr *>(&in) : nullptr;
}

template <typename F>
void
for_each_intrinsic(const nir::shader &s, F fn)
{
   const nir::function_impl *impl = nir::entrypoint(s);
   if (!impl)
      return;
   for (const nir::block *b : nir::blocks_in_order(*impl)) {
      for (const auto &in : b->instrs) {
         if (const nir::intrinsic_instr *ii = as_intrinsic(*in))
            fn(*ii);
      }
   }
}

bool
const_src(const nir::src &s, uint64_t *v)
{
   if (!s.ssa->parent || s.ssa->parent->type != nir::instr_type::load_const)
      return false;
   auto *lc = static_cast<const nir::load_const_instr *>(s.ssa->parent);
   *v = nir::const_value_bits(lc->values[0], lc->dest.bit_size);
   return true;
}

} /* anonymous namespace */

int
barycentric_mode(const nir::intrinsic_instr &in)
{
   int base;
   switch (in.op) {
   case nir::intrinsic_op::load_barycentric_pixel:
      base = BARY_PERSP_PIXEL;
      break;
   case nir::intrinsic_op::load_barycentric_centroid:
      base = BARY_PERSP_CENTROID;
      break;
   case nir::intrinsic_op::load_barycentric_sample:
      base = BARY_PERSP_SAMPLE;
      break;
   default:
      return -1;
   }
   bool noperspective = in.index(nir::intrinsic_index::interp_mode) ==
                        int(nir::interp_mode::noperspective);
   return base + (noperspective ? 3 : 0);
}

std::vector<push_range>
default_push_ranges(const nir::shader &s)
{
   /* Registers read at constant offsets, per UBO block. */
   std::map<unsigned, std::vector<unsigned>> used;   /* block -> regs */
   for_each_intrinsic(s, [&](const nir::intrinsic_instr &in) {
      if (in.op != nir::intrinsic_op::load_ubo &&
          in.op != nir::intrinsic_op::load_ubo_uniform_block_intel)
         return;
      uint64_t block, offset;
      if (!const_src(in.srcs[0], &block) || !const_src(in.srcs[1], &offset))
         return;
      unsigned bytes = in.num_components * std::max(1u, unsigned(in.dest.bit_size) / 8);
      std::vector<unsigned> &regs = used[block];
      for (unsigned r = offset / 32; r <= (offset + bytes - 1) / 32; r++)
         regs.push_back(r);
   });

   /* Contiguous runs of used registers, most used first (brw's analysis
    * weighs by use count too), at most 4 ranges and 64 registers.
    */
   struct run {
      push_range r;
      unsigned uses;
   };
   std::vector<run> runs;
   for (auto &[block, regs] : used) {
      std::map<unsigned, unsigned> count;
      for (unsigned r : regs)
         count[r]++;
      for (auto it = count.begin(); it != count.end();) {
         run cur{{block, it->first, 0}, 0};
         unsigned next = it->first;
         while (it != count.end() && it->first == next) {
            cur.r.length++;
            cur.uses += it->second;
            next++;
            ++it;
         }
         runs.push_back(cur);
      }
   }
   std::stable_sort(runs.begin(), runs.end(),
                    [](const run &a, const run &b) { return a.uses > b.uses; });
   std::vector<push_range> result;
   unsigned total = 0;
   for (const run &r : runs) {
      if (result.size() == 4 || total + r.r.length > 64)
         break;
      result.push_back(r.r);
      total += r.r.length;
   }
   return result;
}

int
vs_sysval_element(const nir::shader &s, const nir::intrinsic_instr &in)
{
   const unsigned inputs = unsigned(__builtin_popcountll(s.info.inputs_read));
   const int base = in.index(nir::intrinsic_index::base);
   if (base < 0 || (unsigned(base) != inputs && unsigned(base) != inputs + 1))
      throw error(strfmt("a system-value load_input at base %d: the vertex elements after "
                         "the %u attributes are %u and %u", base, inputs, inputs, inputs + 1));
   return int(unsigned(base) - inputs);
}

int
payload_layout::attr_index(int slot) const
{
   auto it = std::find(attr_slots.begin(), attr_slots.end(), slot);
   return it == attr_slots.end() ? -1 : int(it - attr_slots.begin());
}

payload_layout
compute_payload(const nir::shader &s, const from_nir_options &o)
{
   payload_layout p;
   unsigned width = o.dispatch_width;
   bool reads_sysval[5] = {};   /* frag coord, sample pos, mask in, vertex ids, draw id */
   unsigned bary_modes = 0;
   std::vector<int> slots;

   for_each_intrinsic(s, [&](const nir::intrinsic_instr &in) {
      using op = nir::intrinsic_op;
      int mode = barycentric_mode(in);
      if (mode >= 0)
         bary_modes |= 1u << mode;
      switch (in.op) {
      case op::load_frag_coord:
         reads_sysval[0] = true;
         break;
      case op::load_sample_pos:
      case op::load_sample_pos_or_center:
         reads_sysval[1] = true;
         break;
      case op::load_sample_mask_in:
         reads_sysval[2] = true;
         break;
      case op::load_vertex_id:
      case op::load_vertex_id_zero_base:
      case op::load_instance_id:
      case op::load_base_vertex:
      case op::load_first_vertex:
      case op::load_base_instance:
         reads_sysval[3] = true;
         break;
      case op::load_draw_id:
      case op::load_is_indexed_draw:
         reads_sysval[4] = true;
         break;
      case op::load_input:
      case op::load_interpolated_input: {
         nir::io_semantics io = in.get_io_semantics();
         /* brw_nir_lower_vs_inputs' system values: no slot, the base is
          * the vertex element after the attributes (vs_sysval_element).
          */
         if (s.info.stage == nir::shader_stage::vertex && in.op == op::load_input &&
             io.num_slots == 0) {
            reads_sysval[vs_sysval_element(s, in) == 0 ? 3 : 4] = true;
            break;
         }
         for (unsigned i = 0; i < std::max(1u, io.num_slots); i++)
            slots.push_back(io.location + i);
         break;
      }
      default:
         break;
      }
   });
   std::sort(slots.begin(), slots.end());
   slots.erase(std::unique(slots.begin(), slots.end()), slots.end());

   unsigned r = 1;   /* g0: thread header */
   switch (s.info.stage) {
   case nir::shader_stage::vertex:
      r++;           /* g1: URB handles */
      break;
   case nir::shader_stage::fragment: {
      unsigned halves = width == 32 ? 2 : 1;
      unsigned half_width = std::min(16u, width);
      for (unsigned h = 0; h < halves; h++)
         p.subspan_coord_reg[h] = r++;
      for (unsigned h = 0; h < halves; h++) {
         for (unsigned m = 0; m < 6; m++) {
            if (bary_modes & (1u << m)) {
               p.bary_reg[m][h] = r;
               r += half_width / 4;
            }
         }
         /* brw enables source depth and W together with frag coord. */
         if (reads_sysval[0]) {
            p.source_depth_reg[h] = r;
            r += half_width / 8;
            p.source_w_reg[h] = r;
            r += half_width / 8;
         }
         if (reads_sysval[1])
            p.sample_pos_reg[h] = r++;
         if (reads_sysval[2]) {
            p.sample_mask_in_reg[h] = r;
            r += half_width / 8;
         }
      }
      break;
   }
   default:
      break;
   }
   p.num_regs = r;

   /* Push constants: the NIR uniforms, then the pushed UBO ranges; for CS
    * then one register of per-thread data whose first dword is the
    * subgroup id (brw's cross-thread / per-thread split).
    */
   p.push_start = r;
   p.uniform_regs = (s.num_uniforms + 31) / 32;
   r += p.uniform_regs;
   p.ubo_ranges = o.push_ranges;
   if (p.ubo_ranges.empty() && o.auto_push_ubos)
      p.ubo_ranges = default_push_ranges(s);
   for (const push_range &pr : p.ubo_ranges) {
      p.ubo_range_start.push_back(r);
      r += pr.length;
   }
   if (s.info.stage == nir::shader_stage::compute ||
       s.info.stage == nir::shader_stage::kernel) {
      p.cs_subgroup_id_dword = (r - p.push_start) * 8;
      r++;
   }
   p.push_regs = r - p.push_start;

   p.attr_start = r;
   if (s.info.stage == nir::shader_stage::vertex) {
      p.attr_slots = slots;
      if (reads_sysval[3]) {
         p.vs_sgvs_slot = p.attr_slots.size();
         p.attr_slots.push_back(-1);
      }
      if (reads_sysval[4]) {
         p.vs_drawid_slot = p.attr_slots.size();
         p.attr_slots.push_back(-2);
      }
   } else if (s.info.stage == nir::shader_stage::fragment) {
      p.attr_slots = o.fs_input_slots.empty() ? slots : o.fs_input_slots;
   }
   return p;
}

} /* namespace ibis */
