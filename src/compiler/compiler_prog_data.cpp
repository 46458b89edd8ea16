/*
 * The driver-facing layout of a shader (brw's prog_data): what follows
 * from the NIR and the ABI inputs before any width is compiled.  The
 * payload layout is the translator's own (from_nir_payload.cpp), so what
 * the driver is told matches what the code reads.
 */
#include <algorithm>

#include "compiler/compiler_private.h"
#include "from_nir/from_nir_private.h"

namespace ibis {

namespace {

template <typename F>
void
for_each_intrinsic(const nir::shader &s, F fn)
{
   const nir::function_impl *impl = nir::entrypoint(s);
   if (!impl)
      return;
   for (const nir::block *b : nir::blocks_in_order(*impl)) {
      for (const auto &in : b->instrs) {
         if (in->type == nir::instr_type::intrinsic)
            fn(*static_cast<const nir::intrinsic_instr *>(in.get()));
      }
   }
}

} /* anonymous namespace */

unsigned
dispatch_grf_start(const nir::shader &s, const from_nir_options &abi,
                   unsigned width)
{
   from_nir_options o = abi;
   o.dispatch_width = width;
   return compute_payload(s, o).push_start;
}

prog_data
compute_prog_data(const nir::shader &s, const from_nir_options &abi)
{
   prog_data pd;
   pd.stage = s.info.stage;
   from_nir_options o = abi;
   o.dispatch_width = 8;
   const payload_layout p = compute_payload(s, o);

   pd.push_uniform_regs = p.uniform_regs;
   pd.push_ranges = p.ubo_ranges;
   pd.push_regs = p.push_regs;
   pd.cs_subgroup_id_dword = p.cs_subgroup_id_dword;

   std::vector<int> outputs, flat_slots;
   for_each_intrinsic(s, [&](const nir::intrinsic_instr &in) {
      using op = nir::intrinsic_op;
      switch (in.op) {
      case op::store_output: {
         const nir::io_semantics io = in.get_io_semantics();
         for (unsigned i = 0; i < std::max(1u, io.num_slots); i++)
            outputs.push_back(int(io.location + i));
         break;
      }
      case op::load_input:
         /* In a fragment shader a plain input load is flat. */
         if (s.info.stage == nir::shader_stage::fragment) {
            const nir::io_semantics io = in.get_io_semantics();
            for (unsigned i = 0; i < std::max(1u, io.num_slots); i++)
               flat_slots.push_back(int(io.location + i));
         }
         break;
      case op::discard: case op::discard_if: case op::demote:
      case op::demote_if: case op::terminate: case op::terminate_if:
         pd.uses_kill = true;
         break;
      case op::load_vertex_id: case op::load_vertex_id_zero_base:
         pd.uses_vertexid = true;
         break;
      case op::load_instance_id:
         pd.uses_instanceid = true;
         break;
      case op::load_draw_id:
         pd.uses_drawid = true;
         break;
      default:
         break;
      }
   });
   auto writes = [&](int slot) {
      return std::find(outputs.begin(), outputs.end(), slot) != outputs.end();
   };

   switch (s.info.stage) {
   case nir::shader_stage::vertex: {
      pd.vs_attr_slots = p.attr_slots;
      pd.vue_slots = abi.vs_vue_slots.empty() ? default_vue_map(outputs)
                                              : abi.vs_vue_slots;
      const unsigned attrs = unsigned(p.attr_slots.size());
      pd.urb_read_length = (attrs + 1) / 2;
      pd.urb_entry_size =
         (std::max<unsigned>(attrs, unsigned(pd.vue_slots.size())) + 3) / 4;
      break;
   }
   case nir::shader_stage::fragment:
      pd.urb_setup = p.attr_slots;
      for (size_t i = 0; i < pd.urb_setup.size() && i < 64; i++) {
         if (std::find(flat_slots.begin(), flat_slots.end(), pd.urb_setup[i]) !=
             flat_slots.end())
            pd.flat_inputs |= 1ull << i;
      }
      for (unsigned m = 0; m < 6; m++) {
         if (p.bary_reg[m][0] >= 0)
            pd.barycentric_modes |= 1u << m;
      }
      pd.uses_kill |= s.info.fs.uses_discard || s.info.fs.uses_demote;
      pd.uses_src_depth = p.source_depth_reg[0] >= 0;
      pd.uses_src_w = p.source_w_reg[0] >= 0;
      pd.uses_sample_pos = p.sample_pos_reg[0] >= 0;
      pd.uses_sample_mask_in = p.sample_mask_in_reg[0] >= 0;
      pd.computes_depth = writes(FRAG_RESULT_DEPTH);
      pd.writes_stencil = writes(FRAG_RESULT_STENCIL);
      pd.writes_omask = writes(FRAG_RESULT_SAMPLE_MASK);
      break;
   case nir::shader_stage::compute:
   case nir::shader_stage::kernel:
      for (unsigned i = 0; i < 3; i++)
         pd.local_size[i] = s.info.workgroup_size[i];
      break;
   default:
      break;
   }
   return pd;
}

prog_data
shader_layout(const nir::shader &s, const from_nir_options &abi)
{
   prog_data pd = compute_prog_data(s, abi);
   pd.dispatch_grf_start_simd8 = dispatch_grf_start(s, abi, 8);
   if (s.info.stage != nir::shader_stage::vertex) {
      pd.dispatch_grf_start_simd16 = dispatch_grf_start(s, abi, 16);
      pd.dispatch_grf_start_simd32 = dispatch_grf_start(s, abi, 32);
   }
   return pd;
}

} /* namespace ibis */
