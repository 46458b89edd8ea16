/*
 * Thread payloads as Gen9 delivers them (docs/sim.md, "Thread payloads";
 * the facts come from brw_fs_thread_payload.cpp, brw_fs_visitor.cpp and
 * brw_fs.cpp of Mesa).
 */
#include "sim/sim_internal.h"

namespace ibis::sim {

namespace {

unsigned
regs_for(size_t dwords)
{
   return unsigned((dwords + 7) / 8);
}

void
place_push(thread &t, unsigned reg, const std::vector<uint32_t> &push)
{
   if (reg + regs_for(push.size()) > num_grfs)
      throw error("sim: push constants do not fit in the GRF file");
   for (size_t k = 0; k < push.size(); k++)
      t.write<uint32_t>(reg + unsigned(k / 8), unsigned(k % 8), push[k]);
}

} /* namespace */

thread
make_vs_thread(const vs_payload &p, payload_layout *layout)
{
   if (p.num_vertices < 1 || p.num_vertices > 8)
      throw error(strfmt("sim: VS thread with %u vertices", p.num_vertices));
   thread t;
   t.simd = 8;
   t.dispatch_mask = (1u << p.num_vertices) - 1;
   t.sr0[2] = t.sr0[3] = t.dispatch_mask;
   /* g1: one URB handle per channel. */
   for (unsigned c = 0; c < 8; c++)
      t.write<uint32_t>(1, c, c * p.vue_size);
   payload_layout l;
   l.num_regs = 2;
   l.push_reg = 2;
   l.push_regs = regs_for(p.push.size());
   place_push(t, l.push_reg, p.push);
   /* Attributes: slot s, component k in g(attr + 4s + k), one per channel. */
   l.attr_reg = l.push_reg + l.push_regs;
   if (l.attr_reg + 4 * p.attributes.size() > num_grfs)
      throw error("sim: VS attributes do not fit in the GRF file");
   for (size_t s = 0; s < p.attributes.size(); s++) {
      for (unsigned k = 0; k < 4; k++) {
         for (unsigned c = 0; c < 8; c++)
            t.write<uint32_t>(l.attr_reg + unsigned(4 * s) + k, c, p.attributes[s][k][c]);
      }
   }
   if (layout)
      *layout = l;
   return t;
}

thread
make_fs_thread(const fs_payload &p, payload_layout *layout)
{
   if (p.simd != 8 && p.simd != 16 && p.simd != 32)
      throw error(strfmt("sim: FS dispatch width %u", p.simd));
   if (p.subspans.size() < p.simd / 4)
      throw error(strfmt("sim: SIMD%u FS thread needs %u subspans", p.simd, p.simd / 4));
   thread t;
   t.simd = p.simd;
   t.fragment = true;
   uint32_t all = p.simd == 32 ? ~0u : (1u << p.simd) - 1;
   t.dispatch_mask = p.dispatch_mask & all;
   t.pixel_mask = t.dispatch_mask & ~p.helpers;
   t.sr0[2] = t.sr0[3] = t.dispatch_mask;
   /* g0.0 bit 15: 0 for a front-facing polygon (Gfx6-11). */
   t.write<uint32_t>(0, 0, p.front_facing ? 0 : 1u << 15);

   payload_layout l;
   unsigned halves = p.simd == 32 ? 2 : 1;
   unsigned width = std::min(16u, p.simd);   /* payload_width in brw */
   unsigned r = 1;
   /* g1 (and g2 for SIMD32): subspan X/Y in dwords 2..5, pixel mask in 7. */
   for (unsigned h = 0; h < halves; h++, r++) {
      for (unsigned s = 0; s < width / 4; s++) {
         const auto &ss = p.subspans[h * 4 + s];
         t.write<uint16_t>(r, 4 + 2 * s, ss[0]);
         t.write<uint16_t>(r, 5 + 2 * s, ss[1]);
      }
      t.write<uint32_t>(r, 7, (t.pixel_mask >> (16 * h)) & 0xffff);
   }
   for (unsigned ch = 0; ch < p.simd; ch++) {
      t.pixel_x[ch] = p.subspans[ch / 4][0] + (ch & 1);
      t.pixel_y[ch] = p.subspans[ch / 4][1] + ((ch >> 1) & 1);
   }
   for (auto &m : l.bary_reg)
      m = { -1, -1 };
   for (unsigned h = 0; h < halves; h++) {
      /* Barycentrics per enabled mode: [u0-7][v0-7] ([u8-15][v8-15]). */
      for (unsigned m = 0; m < bary_mode_count; m++) {
         if (!((p.bary_modes >> m) & 1))
            continue;
         l.bary_reg[m][h] = int(r);
         for (unsigned i = 0; i < width; i++) {
            unsigned ch = h * 16 + i;
            unsigned base = r + (i / 8) * 2;
            t.write<float>(base, i % 8, p.bary[m][ch][0]);
            t.write<float>(base + 1, i % 8, p.bary[m][ch][1]);
         }
         r += width / 4;
      }
      if (p.src_depth) {
         l.depth_reg[h] = int(r);
         for (unsigned i = 0; i < width; i++)
            t.write<float>(r + i / 8, i % 8, p.depth[h * 16 + i]);
         r += width / 8;
      }
   }
   l.num_regs = r;
   l.push_reg = r;
   l.push_regs = regs_for(p.push.size());
   place_push(t, r, p.push);
   /* Attribute setup: slot s, component k at g(attr + 2s + k/2).(k%2)*4,
    * as the four floats [a, b, unused, c] PLN reads.
    */
   l.attr_reg = l.push_reg + l.push_regs;
   if (l.attr_reg + 2 * p.attributes.size() > num_grfs)
      throw error("sim: FS attributes do not fit in the GRF file");
   for (size_t s = 0; s < p.attributes.size(); s++) {
      for (unsigned k = 0; k < 4; k++) {
         unsigned reg = l.attr_reg + unsigned(2 * s) + k / 2, e = (k % 2) * 4;
         t.write<float>(reg, e + 0, p.attributes[s][k][0]);
         t.write<float>(reg, e + 1, p.attributes[s][k][1]);
         t.write<float>(reg, e + 3, p.attributes[s][k][2]);
      }
   }
   if (layout)
      *layout = l;
   return t;
}

thread
make_cs_thread(const cs_payload &p, payload_layout *layout)
{
   if (p.simd != 8 && p.simd != 16 && p.simd != 32)
      throw error(strfmt("sim: CS dispatch width %u", p.simd));
   thread t;
   t.simd = p.simd;
   /* g0.1, g0.6, g0.7: workgroup id x, y, z (emit_work_group_id_setup). */
   t.write<uint32_t>(0, 1, p.workgroup_id[0]);
   t.write<uint32_t>(0, 6, p.workgroup_id[1]);
   t.write<uint32_t>(0, 7, p.workgroup_id[2]);
   /* g0.2 bits 27:24: the barrier id the gateway message must carry. */
   if (p.barrier_id > 15)
      throw error(strfmt("sim: barrier id %u does not fit in 4 bits", p.barrier_id));
   t.write<uint32_t>(0, 2, p.barrier_id << 24);
   t.barrier_id = p.barrier_id;

   unsigned size = p.local_size[0] * p.local_size[1] * p.local_size[2];
   uint32_t mask = 0;
   for (unsigned c = 0; c < p.simd; c++) {
      if (p.subgroup_id * p.simd + c < size)
         mask |= 1u << c;
   }
   if (!mask)
      throw error(strfmt("sim: subgroup %u has no invocations", p.subgroup_id));
   t.dispatch_mask = mask;
   t.sr0[2] = t.sr0[3] = mask;

   payload_layout l;
   unsigned r = 1;
   if (p.local_ids_in_payload) {
      /* x, y, z as SIMD-wide UD vectors, simd / 8 registers each. */
      l.local_id_reg = r;
      for (unsigned c = 0; c < p.simd; c++) {
         unsigned idx = p.subgroup_id * p.simd + c;
         uint32_t id[3] = { idx % p.local_size[0],
                            idx / p.local_size[0] % p.local_size[1],
                            idx / (p.local_size[0] * p.local_size[1]) };
         for (unsigned k = 0; k < 3; k++)
            t.write<uint32_t>(r + k * (p.simd / 8) + c / 8, c % 8, id[k]);
      }
      r += 3 * (p.simd / 8);
   }
   l.num_regs = r;
   l.push_reg = r;
   std::vector<uint32_t> push = p.push;
   push.resize(regs_for(push.size()) * 8, 0);
   if (p.push_subgroup_id) {
      l.subgroup_id_dword = unsigned(r * 8 + push.size());
      push.push_back(p.subgroup_id);
   }
   l.push_regs = regs_for(push.size());
   place_push(t, r, push);
   l.attr_reg = l.push_reg + l.push_regs;
   if (layout)
      *layout = l;
   return t;
}

} /* namespace ibis::sim */
