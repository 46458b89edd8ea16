/*
 * brw's programs as the outside judge (docs/check.md, "brw's programs"):
 * the corpus' brw-asm/ disassembly assembled again, laid out as the
 * brw-abi file says iris set it up, and checked on the same input sets as
 * ibis's own programs, through the same mapping (sim::check::map_inputs).
 */
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "check/check.h"
#include "isa/isa.h"
#include "util/ibis_error.h"

namespace ibis::check {

namespace {

unsigned
width_index(unsigned simd)
{
   switch (simd) {
   case 8: return 0;
   case 16: return 1;
   case 32: return 2;
   default: throw error(strfmt("brw: SIMD%u is not a dispatch width", simd));
   }
}

bool
starts_with_word(const std::string &line, const char *word)
{
   size_t i = line.find_first_not_of(" \t");
   return i != std::string::npos && line.compare(i, strlen(word), word) == 0 &&
          (line.size() == i + strlen(word) || line[i + strlen(word)] == ' ');
}

} /* anonymous namespace */

program_abi
brw_program_abi(const nir::shader &s, unsigned simd, const brw_abi &a)
{
   const bool vs = s.info.stage == nir::shader_stage::vertex;
   if (!vs && s.info.stage != nir::shader_stage::fragment)
      throw error("brw: only vertex and fragment shaders have a brw-abi file");
   if (a.stage != (vs ? "vs" : "fs"))
      throw error(strfmt("brw: a %s ABI for a %s shader", a.stage.c_str(), vs ? "vs" : "fs"));
   const unsigned w = width_index(simd);
   if (vs && simd != 8)
      throw error("brw: vertex shaders run SIMD8");
   unsigned start = a.dispatch_grf_start[w];
   if (!start && (vs || simd != 32))
      throw error(strfmt("brw: the ABI has no SIMD%u dispatch GRF start", simd));
   /* What the mapping cannot reproduce: brw's uniform params name
    * driver values, and constant data needs the relocated address.
    */
   if (a.nr_params)
      throw error("brw: uniform push params (nr_params) are not mapped");
   if (a.const_data_size || a.num_relocs)
      throw error("brw: constant data and relocations are not mapped");

   program_abi p;
   sim::check::thread_layout &l = p.layout;
   /* iris rewrote the NIR's buffer indices to binding-table indices. */
   l.ubo_bti_base = l.ssbo_bti_base = 0;
   auto place_push = [&]() {
      l.push_reg = start;
      unsigned reg = start;
      for (const push_range &r : a.ubo_ranges) {
         l.ubo_pushes.push_back({r.block, r.start, r.length, reg});
         reg += r.length;
      }
      l.attr_reg = start + a.curb_read_length;
   };

   if (vs) {
      place_push();
      for (unsigned i = 0; i < 64; i++) {
         if ((a.inputs_read >> i) & 1)
            l.attr_slots.push_back(int(i));
      }
      if (a.uses_vertex_ids)
         l.attr_slots.push_back(-1);
      if (a.uses_draw_id)
         l.attr_slots.push_back(-2);
      if (l.attr_slots.size() != a.nr_attribute_slots)
         throw error(strfmt("brw: %zu attribute slots from inputs_read and the system "
                            "values, nr_attribute_slots %u", l.attr_slots.size(),
                            a.nr_attribute_slots));
      p.vue_slots = a.vue_slots;
      return p;
   }

   /* brw's setup_fs_payload_gfx6, as the README of brw-abi/ lists it. */
   if (a.uses_depth_w_coefficients)
      throw error("brw: depth/W coefficients in the payload are not mapped");
   const unsigned halves = simd == 32 ? 2 : 1, hw = std::min(16u, simd);
   unsigned r = 1 + halves;
   for (unsigned h = 0; h < halves; h++) {
      for (unsigned m = 0; m < 6; m++) {
         if ((a.barycentric_interp_modes >> m) & 1) {
            l.bary_reg[m][h] = int(r);
            r += hw / 4;
         }
      }
      if (a.uses_src_depth) {
         l.source_depth_reg[h] = int(r);
         r += hw / 8;
      }
      if (a.uses_src_w) {
         l.source_w_reg[h] = int(r);
         r += hw / 8;
      }
      if (a.uses_pos_offset)
         l.sample_pos_reg[h] = int(r++);
      if (a.uses_sample_mask) {
         l.sample_mask_in_reg[h] = int(r);
         r += hw / 8;
      }
   }
   /* A SIMD32 program brw compiled and then dropped as not faster
    * (brw-asm's .do32 files) has no start in the ABI: its payload ends
    * where brw's layout says.
    */
   if (!start)
      start = r;
   if (r != start)
      throw error(strfmt("brw: the SIMD%u payload ends at g%u, the dispatch GRF start is g%u",
                         simd, r, start));
   place_push();
   l.attr_slots = a.urb_setup_attribs;
   l.rt_depth = a.computed_depth_mode != 0;
   l.rt_omask = a.uses_omask;
   l.rt_stencil = a.computed_stencil;
   return p;
}

result
check_brw_binary(const nir::shader &s, unsigned simd, const std::vector<uint8_t> &binary,
                 const brw_abi &a, uint64_t seed, unsigned sets)
{
   program_abi abi;
   try {
      abi = brw_program_abi(s, simd, a);
   } catch (const error &e) {
      result bad;
      bad.v = verdict::unsupported;
      bad.first = e.what();
      return bad;
   }
   return check_sets(s, simd, seed, sets, [&](const nir::interp::inputs &in) {
      return check_binary(s, simd, binary, in,
                          [&](const nir::interp::outputs &) { return abi; });
   });
}

word_agreement
compare_words(const std::string &a, const std::string &b)
{
   word_agreement out;
   std::istringstream ia(a), ib(b);
   std::string la, lb, set;
   /* "<class> <value> <want> <name>": the same word has the same name
    * (and the same interpreter value).
    */
   struct fields {
      std::string cls, value, want, name;
      bool parse(const std::string &line)
      {
         const size_t v = line.find(' ');
         const size_t w = v == std::string::npos ? v : line.find(' ', v + 1);
         const size_t n = w == std::string::npos ? w : line.find(' ', w + 1);
         if (n == std::string::npos)
            return false;
         cls = line.substr(0, v);
         value = line.substr(v + 1, w - v - 1);
         want = line.substr(w + 1, n - w - 1);
         name = line.substr(n + 1);
         return true;
      }
   };
   while (true) {
      const bool ha = bool(std::getline(ia, la)), hb = bool(std::getline(ib, lb));
      if (!ha && !hb)
         break;
      if (ha != hb) {
         out.misaligned++;
         continue;
      }
      if (la.compare(0, 4, "set ") == 0 || lb.compare(0, 4, "set ") == 0) {
         if (la != lb)
            out.misaligned++;
         set = la;
         continue;
      }
      fields fa, fb;
      if (!fa.parse(la) || !fb.parse(lb) || fa.name != fb.name || fa.want != fb.want) {
         out.misaligned++;
         continue;
      }
      const bool loose = fa.cls != "e" || fb.cls != "e";
      (loose ? out.loose : out.exact)++;
      if (fa.value == fb.value)
         continue;
      (loose ? out.loose_differ : out.exact_differ)++;
      auto nan = [](const std::string &v) {
         const uint32_t x = uint32_t(strtoul(v.c_str(), nullptr, 16));
         return v != "none" && (x & 0x7f800000) == 0x7f800000 && (x & 0x007fffff);
      };
      if (loose && nan(fa.value) && nan(fb.value))
         out.loose_nan++;
      if (out.first_differ.empty())
         out.first_differ = strfmt("%s: %s vs %s", fa.name.c_str(), fa.value.c_str(),
                                   fb.value.c_str());
      out.differ_list += strfmt("%s %s %s/%s %s %s interp %s\n", set.c_str(), fa.name.c_str(),
                                fa.cls.c_str(), fb.cls.c_str(), fa.value.c_str(),
                                fb.value.c_str(), fa.want.c_str());
   }
   return out;
}

std::vector<uint8_t>
assemble_brw_asm(const std::string &text, const std::string &filename)
{
   /* Blank out brw's decorations (keeping the line numbers of messages):
    * the "SIMD8 shader: N instructions. ..." stats header and the
    * "START B0 (n cycles)" / "END B0 ->B1" block lines.
    */
   std::istringstream in(text);
   std::string line, out;
   while (std::getline(in, line)) {
      if (starts_with_word(line, "START") || starts_with_word(line, "END") ||
          (line.compare(0, 4, "SIMD") == 0 && line.find(" shader: ") != std::string::npos))
         line.clear();
      out += line;
      out += '\n';
   }
   return isa::assemble(out, isa::gen::gen9, true, filename);
}

} /* namespace ibis::check */
