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

void
apply_abi_file(const std::string &path, from_nir_options &o)
{
   std::ifstream f(path);
   if (!f)
      throw error(path + ": cannot read the ABI file");
   std::stringstream ss;
   ss << f.rdbuf();
   apply_abi_text(ss.str(), path, o);
}

} /* namespace ibis */
