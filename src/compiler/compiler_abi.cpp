/*
 * The driver-ABI file: what a driver would decide for a shader (pushed UBO
 * ranges, FS input slots, the VS VUE map) given to a compile as text, so
 * a corpus shader can be compiled with the layout brw's driver chose.
 * Format (docs/compiler.md):
 *
 *    # comment
 *    push_range BLOCK START LENGTH    one pushed UBO range (repeatable)
 *    push_ranges none                 push no UBO range at all
 *    fs_input_slots SLOT...           VARYING_SLOT_* in setup order
 *    vs_vue_slots SLOT...             VARYING_SLOT_* per VUE slot
 */
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "compiler/compiler.h"
#include "util/ibis_error.h"
#include "util/ibis_json.h"

namespace ibis {

namespace {

std::vector<unsigned>
numbers(std::istringstream &in, const source_loc &loc, const std::string &key)
{
   std::vector<unsigned> v;
   std::string word;
   while (in >> word) {
      char *end = nullptr;
      const unsigned long n = std::strtoul(word.c_str(), &end, 0);
      if (word.empty() || *end || word[0] == '-' || n > 0xffff)
         throw error(loc, "'" + key + "': '" + word + "' is not a number");
      v.push_back(unsigned(n));
   }
   return v;
}

} /* anonymous namespace */

void
apply_abi_text(const std::string &text, const std::string &filename,
               from_nir_options &o)
{
   if (json::looks_like_json(text)) {
      apply_brw_abi(parse_brw_abi(text, filename), o);
      return;
   }
   std::istringstream lines(text);
   std::string line;
   source_loc loc{filename, 0, 0};
   bool ranges_seen = false;
   while (std::getline(lines, line)) {
      loc.line++;
      const size_t hash = line.find('#');
      if (hash != std::string::npos)
         line.resize(hash);
      std::istringstream in(line);
      std::string key;
      if (!(in >> key))
         continue;
      if (key == "push_ranges") {
         std::string what;
         if (!(in >> what) || what != "none")
            throw error(loc, "'push_ranges' takes 'none'");
         o.push_ranges.clear();
         o.auto_push_ubos = false;
         ranges_seen = true;
      } else if (key == "push_range") {
         const std::vector<unsigned> v = numbers(in, loc, key);
         if (v.size() != 3)
            throw error(loc, "'push_range' takes BLOCK START LENGTH");
         if (v[2] == 0)
            throw error(loc, "'push_range': an empty range");
         if (!ranges_seen)
            o.push_ranges.clear();
         ranges_seen = true;
         o.auto_push_ubos = false;
         o.push_ranges.push_back(push_range{v[0], v[1], v[2]});
         unsigned total = 0;
         for (const push_range &r : o.push_ranges)
            total += r.length;
         /* brw pushes at most 4 ranges and 64 registers of constants. */
         if (o.push_ranges.size() > 4 || total > 64)
            throw error(loc, "more than 4 push ranges or 64 registers");
      } else if (key == "fs_input_slots" || key == "vs_vue_slots") {
         const std::vector<unsigned> v = numbers(in, loc, key);
         if (v.empty())
            throw error(loc, "'" + key + "' needs at least one slot");
         std::vector<int> &dst =
            key == "fs_input_slots" ? o.fs_input_slots : o.vs_vue_slots;
         dst.assign(v.begin(), v.end());
      } else {
         throw error(loc, "unknown key '" + key +
                     "' (push_range, push_ranges, fs_input_slots, vs_vue_slots)");
      }
   }
}

namespace {

std::string
read_text(const std::string &path)
{
   std::ifstream f(path);
   if (!f)
      throw error(path + ": cannot read the ABI file");
   std::stringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

unsigned
number(const json::value &v, const char *key, int64_t max = 0xffff)
{
   const json::value &n = v.at(key);
   const int64_t x = n.as_int();
   if (x < 0 || x > max)
      throw error(n.loc, strfmt("'%s': %lld is out of range", key, (long long)x));
   return unsigned(x);
}

bool
flag(const json::value &v, const char *key)
{
   return v.at(key).as_bool();
}

} /* anonymous namespace */

void
apply_abi_file(const std::string &path, from_nir_options &o)
{
   apply_abi_text(read_text(path), path, o);
}

brw_abi
parse_brw_abi(const std::string &text, const std::string &filename)
{
   const json::value j = json::parse(text, filename);
   brw_abi a;
   a.stage = j.at("stage").as_string();
   if (a.stage != "vs" && a.stage != "fs")
      throw error(j.at("stage").loc, "'stage': \"" + a.stage + "\" (vs or fs)");
   a.dispatch_grf_start[0] = number(j, "dispatch_grf_start_reg", 127);
   a.nr_params = number(j, "nr_params");
   a.curb_read_length = number(j, "curb_read_length", 127);
   unsigned pushed = (a.nr_params + 7) / 8;
   for (const json::value &r : j.at("ubo_ranges").as_array()) {
      const unsigned length = number(r, "length", 64);
      if (length)
         a.ubo_ranges.push_back(push_range{number(r, "block", 255), number(r, "start"), length});
      pushed += length;
   }
   if (a.ubo_ranges.size() > 4)
      throw error(j.at("ubo_ranges").loc, "more than 4 push ranges");
   if (pushed != a.curb_read_length)
      throw error(j.at("curb_read_length").loc,
                  strfmt("'curb_read_length' %u, but the parameters and ranges push %u GRFs",
                         a.curb_read_length, pushed));
   a.total_scratch = number(j, "total_scratch", 1 << 24);
   a.const_data_size = number(j, "const_data_size", 1 << 24);
   a.num_relocs = number(j, "num_relocs");

   if (a.stage == "vs") {
      a.inputs_read = j.at("inputs_read").as_mask();
      a.uses_vertex_ids = flag(j, "uses_vertexid") || flag(j, "uses_instanceid") ||
                          flag(j, "uses_firstvertex") || flag(j, "uses_baseinstance");
      a.uses_draw_id = flag(j, "uses_drawid") || flag(j, "uses_is_indexed_draw");
      a.nr_attribute_slots = number(j, "nr_attribute_slots", 32);
      const json::value &vm = j.at("vue_map");
      const unsigned n = number(vm, "num_slots", 64);
      const json::value &slots = vm.at("slot_to_varying");
      for (unsigned s = 0; s < n; s++)
         a.vue_slots.push_back(int(slots.at(s).as_int()));
      a.dispatch[0] = true;
      return a;
   }
   a.dispatch_grf_start[1] = number(j, "dispatch_grf_start_reg_16", 127);
   a.dispatch_grf_start[2] = number(j, "dispatch_grf_start_reg_32", 127);
   a.dispatch[0] = flag(j, "dispatch_8");
   a.dispatch[1] = flag(j, "dispatch_16");
   a.dispatch[2] = flag(j, "dispatch_32");
   const json::value &attribs = j.at("urb_setup_attribs");
   for (const json::value &v : attribs.as_array()) {
      const int64_t slot = v.as_int();
      if (slot < 0 || slot >= 64)
         throw error(v.loc, "'urb_setup_attribs': not a varying slot");
      a.urb_setup_attribs.push_back(int(slot));
   }
   a.barycentric_interp_modes = number(j, "barycentric_interp_modes", 63);
   a.uses_src_depth = flag(j, "uses_src_depth");
   a.uses_src_w = flag(j, "uses_src_w");
   a.uses_pos_offset = flag(j, "uses_pos_offset");
   a.uses_sample_mask = flag(j, "uses_sample_mask");
   a.uses_depth_w_coefficients = flag(j, "uses_depth_w_coefficients");
   a.computed_depth_mode = number(j, "computed_depth_mode", 3);
   a.computed_stencil = flag(j, "computed_stencil");
   a.uses_omask = flag(j, "uses_omask");
   a.dual_src_blend = flag(j, "dual_src_blend");
   return a;
}

brw_abi
read_brw_abi_file(const std::string &path)
{
   return parse_brw_abi(read_text(path), path);
}

void
apply_brw_abi(const brw_abi &a, from_nir_options &o)
{
   o.push_ranges = a.ubo_ranges;
   o.auto_push_ubos = false;
   if (a.stage == "fs")
      o.fs_input_slots = a.urb_setup_attribs;
   else
      o.vs_vue_slots = a.vue_slots;
}

} /* namespace ibis */
