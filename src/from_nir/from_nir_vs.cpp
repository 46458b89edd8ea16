/*
 * Vertex shaders (SIMD8): vertex attributes and the vertex/instance ids
 * from the payload, and the URB writes of the VUE that end the thread.
 */
#include <algorithm>

#include "from_nir/from_nir_private.h"

namespace ibis {

using nir::intrinsic_index;
using nir::intrinsic_op;

bool
nir_translator::emit_vs_intrinsic(const nir::intrinsic_instr &in)
{
   auto attr = [&](int index, unsigned comp) {
      if (!attrs) {
         attrs = bld.attr(data_type::f32, std::max<size_t>(1, payload.attr_slots.size()) * 4);
         attrs->phys = phys_reg{phys_reg::grf, uint16_t(payload.attr_start), 0};
      }
      return operand(attrs).component(index * 4 + comp);
   };
   /* The vertex/instance id slot: x base vertex, y base instance,
    * z vertex id (zero based), w instance id; the draw id slot: x draw id,
    * y is-indexed-draw.
    */
   auto sgvs = [&](int slot, unsigned comp) {
      IBIS_CHECK(slot >= 0, "no system value slot in the VS payload");
      builder b = def_builder(in.dest);
      return operand(b.mov(data_type::u32, attr(slot, comp).as_type(data_type::u32)));
   };

   switch (in.op) {
   case intrinsic_op::load_input: {
      if (in.get_io_semantics().num_slots == 0) {
         /* A system value brw lowered to the vertex element after the
          * attributes (first vertex, base instance, vertex id, instance
          * id; then draw id, is indexed draw).
          */
         const int slot = vs_sysval_element(nir, in) == 0 ? payload.vs_sgvs_slot
                                                           : payload.vs_drawid_slot;
         comps c;
         for (unsigned i = 0; i < in.num_components; i++)
            c.push_back(sgvs(slot, in.index(intrinsic_index::component) + i));
         set_def(in.dest, c);
         return true;
      }
      operand off = src(in.srcs[0].ssa, 0);
      if (!off.is_imm())
         unsupported("indirectly indexed vertex attributes are not supported");
      if (in.dest.bit_size != 32)
         unsupported("%u-bit vertex attributes are not supported", in.dest.bit_size);
      const int slot = io_slot(in.get_io_semantics().location, off);
      int a = payload.attr_index(slot);
      /* Bad input, as in the FS: the slot (an offset past the attribute)
       * is not in inputs_read, so the payload has no room for it.
       */
      if (a < 0)
         unsupported("vertex attribute %d is not in inputs_read: the payload has no "
                     "room for it", slot);
      comps c;
      for (unsigned i = 0; i < in.num_components; i++)
         c.push_back(attr(a, in.index(intrinsic_index::component) + i));
      set_def(in.dest, c);
      return true;
   }
   case intrinsic_op::load_vertex_id_zero_base:
      set_def(in.dest, {sgvs(payload.vs_sgvs_slot, 2)});
      return true;
   case intrinsic_op::load_vertex_id: {
      operand zero_based = sgvs(payload.vs_sgvs_slot, 2);
      operand first = sgvs(payload.vs_sgvs_slot, 0);
      set_def(in.dest, {operand(def_builder(in.dest).add(data_type::u32, zero_based, first))});
      return true;
   }
   case intrinsic_op::load_instance_id:
      set_def(in.dest, {sgvs(payload.vs_sgvs_slot, 3)});
      return true;
   case intrinsic_op::load_base_vertex:
   case intrinsic_op::load_first_vertex:
      set_def(in.dest, {sgvs(payload.vs_sgvs_slot, 0)});
      return true;
   case intrinsic_op::load_base_instance:
      set_def(in.dest, {sgvs(payload.vs_sgvs_slot, 1)});
      return true;
   case intrinsic_op::load_draw_id:
      set_def(in.dest, {sgvs(payload.vs_drawid_slot, 0)});
      return true;
   case intrinsic_op::load_is_indexed_draw:
      set_def(in.dest, {sgvs(payload.vs_drawid_slot, 1)});
      return true;
   case intrinsic_op::store_output:
      store_output(in, in.get_io_semantics().location);
      return true;
   default:
      return false;
   }
}

void
nir_translator::vs_finish()
{
   payload.vue_slots = opts.vs_vue_slots.empty() ? default_vue_map(output_slots)
                                                 : opts.vs_vue_slots;
   builder b = bld.exec(width);
   value *handles = hw(1, data_type::u32);

   /* Two VUE slots (8 registers at SIMD8) per message, as brw does; the
    * header slot carries point size, layer and viewport when written.
    */
   const std::vector<int> &map = payload.vue_slots;
   for (size_t s = 0; s < map.size(); s += 2) {
      comps c;
      unsigned n = std::min<size_t>(2, map.size() - s);
      for (unsigned k = 0; k < n; k++) {
         int slot = map[s + k];
         for (unsigned j = 0; j < 4; j++) {
            value *v = nullptr;
            if (slot == VARYING_SLOT_PSIZ) {
               /* Header: w is the point size, y the layer, z the viewport. */
               static const int header[4] = {-1, VARYING_SLOT_LAYER,
                                             VARYING_SLOT_VIEWPORT, VARYING_SLOT_PSIZ};
               if (header[j] >= 0)
                  v = read_output(header[j], 0);
            } else {
               v = read_output(slot, j);
            }
            /* The header's unwritten fields must read zero; a varying
             * component nobody wrote is undefined (brw leaves it too).
             */
            if (!v && slot != VARYING_SLOT_PSIZ)
               v = b.def(opcode::undef, data_type::u32, {});
            c.push_back(v ? operand(v) : operand::imm_u32(0));
         }
      }
      operand data = gather(b, c, data_type::u32);
      instr *w = b.emit(opcode::urb_write_logical, {},
                        {operand(handles), operand::imm_u32(s), operand(), data,
                         operand::imm_u32(4 * n)});
      if (s + 2 >= map.size())
         w->flags |= INSTR_EOT;
   }
}

std::vector<int>
default_vue_map(std::vector<int> written)
{
   std::sort(written.begin(), written.end());
   written.erase(std::unique(written.begin(), written.end()), written.end());
   auto has = [&](int s) {
      return std::binary_search(written.begin(), written.end(), s);
   };
   std::vector<int> map = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS};
   for (int s : {int(VARYING_SLOT_CLIP_DIST0), int(VARYING_SLOT_CLIP_DIST1)}) {
      if (has(s))
         map.push_back(s);
   }
   for (int s : written) {
      if (s != VARYING_SLOT_POS && s != VARYING_SLOT_PSIZ &&
          s != VARYING_SLOT_CLIP_DIST0 && s != VARYING_SLOT_CLIP_DIST1 &&
          s != VARYING_SLOT_LAYER && s != VARYING_SLOT_VIEWPORT)
         map.push_back(s);
   }
   return map;
}

} /* namespace ibis */
