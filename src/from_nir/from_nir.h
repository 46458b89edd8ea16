/*
 * NIR -> ibis IR translation (design §1): one ibis shader per dispatch
 * width, in SSA/WLR form, with the thread payload of Gen9 hardware.
 *
 * The result has not been optimized, lowered or allocated: memory, sampler
 * and output operations are logical sends, payload registers are HW_REG,
 * UNIFORM and ATTR values at fixed GRFs (docs/from_nir.md lists the layout).
 * Unsupported input throws ibis::error naming the NIR instruction and its
 * source line.
 */
#pragma once

#include <memory>
#include <vector>

#include "dev/ibis_device.h"
#include "ir/ibis_ir.h"
#include "nir/nir.h"

namespace ibis {

/* A pushed range of a UBO (brw's brw_ubo_range): `length` 32-byte registers
 * of UBO `block` from register `start` are delivered in the payload.
 */
struct push_range {
   unsigned block;
   unsigned start;
   unsigned length;
};

struct from_nir_options {
   unsigned dispatch_width = 8;
   /* null: Skylake GT2. */
   const device_info *device = nullptr;

   /* UBO ranges pushed after the uniforms; when auto_push_ubos is set and
    * the list is empty, default_push_ranges() chooses them.
    */
   std::vector<push_range> push_ranges;
   bool auto_push_ubos = true;

   /* FS: the varying slots (VARYING_SLOT_*) in the order their setup data
    * is delivered (brw's urb_setup).  Empty: every slot the shader reads,
    * in increasing order.
    */
   std::vector<int> fs_input_slots;

   /* VS: the VUE map, slot -> VARYING_SLOT_*.  Empty: brw's layout
    * (header, position, clip distances, then the other outputs in order).
    */
   std::vector<int> vs_vue_slots;

   /* Binding-table index of UBO 0 and of SSBO 0: NIR's buffer indices are
    * offset by these in the messages (0: NIR's indices already are the
    * binding table's, as the driver lowered them).  Textures and samplers
    * keep NIR's indices.
    */
   unsigned ubo_surface_base = 0;
   unsigned ssbo_surface_base = 0;
};

/* The UBO ranges brw's UBO push analysis would choose, approximately: the
 * 32-byte registers read at constant offsets, per block, at most four
 * ranges and 64 registers in all, most-read first.
 */
std::vector<push_range> default_push_ranges(const nir::shader &s);

/* brw's VUE map (brw_compute_vue_map, Gen6+, no separate shader objects)
 * for the VS outputs `written` (VARYING_SLOT_*): the header slot, the
 * position, the clip distances, then the other outputs in slot order.
 * The translator writes this layout when vs_vue_slots is empty.
 */
std::vector<int> default_vue_map(std::vector<int> written);

/* What the translator learns of the NIR before translating (which defs
 * are uniform, which comparisons feed flags).  It is the same at every
 * width: a compile computes it once and passes it to each from_nir()
 * (null: from_nir() computes it).
 */
struct nir_facts;
std::shared_ptr<const nir_facts> analyze_nir_shader(const nir::shader &s);

std::unique_ptr<shader> from_nir(const nir::shader &s,
                                 const from_nir_options &options,
                                 std::shared_ptr<const nir_facts> facts = nullptr);

} /* namespace ibis */
