/*
 * ibis-reduce: shrinks a NIR program that the differential check fails on
 * (docs/check.md), keeping it valid and failing the same way.
 *
 *    ibis-reduce FILE.nir --simd N [--seed S] [--sets K] [--timeout T] [-o OUT]
 *
 * Delta debugging over the program's value-defining instructions: a chunk
 * of them has its results replaced by zero constants of the same size, and
 * then every definition nobody reads any more is deleted; a candidate is
 * kept when the NIR reader and validator accept it and the check still
 * fails with the same verdict (mismatch, simulator error or crash).  Chunks
 * halve until single instructions, and the whole pass repeats until
 * nothing changes.
 */
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "check/check.h"
#include "check/check_isolated.h"
#include "util/ibis_error.h"

using namespace ibis;

namespace {

struct config {
   unsigned simd = 8;
   uint64_t seed = 1;
   unsigned sets = 4;
   unsigned timeout = 60;
};

/* "    div 32x4   %12 = fmul %3, %4" */
const std::regex def_line(R"(^(\s*)(con|div)\s+(\d+)(?:x(\d+))?\s+%(\d+)\s*=\s*(@?)([A-Za-z0-9_]+)(.*)$)");

bool
parse_def(const std::string &line, unsigned *bits, unsigned *comps, std::string *name,
          std::string *op, bool *intrinsic)
{
   std::smatch m;
   if (!std::regex_match(line, m, def_line))
      return false;
   *bits = unsigned(std::stoul(m[3]));
   *comps = m[4].matched ? unsigned(std::stoul(m[4])) : 1;
   *name = m[5];
   *intrinsic = m[6] == "@";
   *op = m[7];
   return true;
}

/* Definitions that may become a constant: ALU, texture and load results;
 * not constants, undefs, phis (they must lead their block) or registers.
 */
bool
replaceable(const std::string &op, bool intrinsic)
{
   if (op == "load_const" || op == "undef" || op == "phi")
      return false;
   if (intrinsic)
      return op.compare(0, 5, "load_") == 0 && op != "load_reg" ? true
             : op == "load_reg" || op == "reduce" || op == "inclusive_scan" ||
                  op == "exclusive_scan" || op == "read_invocation" ||
                  op == "read_first_invocation" || op == "shuffle" || op == "ballot" ||
                  op == "vote_any" || op == "vote_all" || op == "quad_broadcast";
   return true;
}

std::string
zero_constant(const std::string &indent, unsigned bits, unsigned comps, const std::string &name)
{
   unsigned digits = bits == 64 ? 16 : bits == 16 ? 4 : bits == 8 ? 2 : bits == 1 ? 1 : 8;
   std::string z = "0x" + std::string(digits, '0'), vals;
   for (unsigned i = 0; i < comps; i++)
      vals += (i ? ", " : "") + z;
   std::string size = std::to_string(bits) + (comps > 1 ? "x" + std::to_string(comps) : "");
   return indent + "con " + size + " %" + name + " = load_const (" + vals + ")";
}

std::vector<std::string>
split_lines(const std::string &text)
{
   std::vector<std::string> lines;
   std::istringstream in(text);
   std::string l;
   while (std::getline(in, l))
      lines.push_back(l);
   return lines;
}

std::string
join(const std::vector<std::string> &lines)
{
   std::string out;
   for (const std::string &l : lines)
      out += l + "\n";
   return out;
}

/* Deletes definitions nobody reads (ALU, constants, loads), repeatedly. */
std::vector<std::string>
remove_dead(std::vector<std::string> lines)
{
   for (bool progress = true; progress;) {
      progress = false;
      std::string all = join(lines);
      std::vector<std::string> out;
      for (const std::string &l : lines) {
         unsigned bits, comps;
         std::string name, op;
         bool intr;
         if (parse_def(l, &bits, &comps, &name, &op, &intr) &&
             (replaceable(op, intr) || op == "load_const" || op == "undef") && op != "phi") {
            /* Any use: "%N" followed by a non-digit, outside this line. */
            std::regex use("%" + name + "(?![0-9])");
            auto b = std::sregex_iterator(all.begin(), all.end(), use);
            if (std::distance(b, std::sregex_iterator()) <= 1) {
               progress = true;
               continue;
            }
         }
         out.push_back(l);
      }
      lines = out;
   }
   return lines;
}

/* The operands of a line's first parenthesized source list. */
std::vector<std::string>
source_names(const std::string &line)
{
   std::vector<std::string> out;
   /* Sources print their constant values in parentheses: "%5 (0x1)". */
   const size_t open = line.find('(');
   size_t close = std::string::npos;
   for (size_t i = open, depth = 0; open != std::string::npos && i < line.size(); i++) {
      depth += line[i] == '(';
      depth -= line[i] == ')';
      if (!depth) {
         close = i;
         break;
      }
   }
   if (close == std::string::npos)
      return out;
   static const std::regex name(R"(%(\d+))");
   const std::string list = line.substr(open, close - open);
   for (auto it = std::sregex_iterator(list.begin(), list.end(), name);
        it != std::sregex_iterator(); ++it)
      out.push_back((*it)[1]);
   return out;
}

/* Values that compute a memory address of a store, an atomic, a shared
 * load or an image access, and everything they are computed from (registers through their
 * stores).  Replacing one by a constant makes every invocation write one
 * address, a race whose winner the check cannot know (random cs seeds 10
 * and 336 reduced to such races).
 */
std::set<std::string>
address_values(const std::vector<std::string> &lines)
{
   std::set<std::string> keep;
   std::vector<std::string> todo;
   for (const std::string &l : lines) {
      std::vector<std::string> srcs = source_names(l);
      int at = -1;
      if (l.find("@store_ssbo (") != std::string::npos)
         at = 2;
      else if (l.find("@ssbo_atomic") != std::string::npos ||
               l.find("@store_shared (") != std::string::npos)
         at = 1;
      else if (l.find("@load_shared (") != std::string::npos)
         at = 0;
      /* Images: the coordinates (a load of another's texel races too). */
      else if (l.find("@image_store (") != std::string::npos ||
               l.find("@image_atomic") != std::string::npos ||
               l.find("@image_load (") != std::string::npos)
         at = 1;
      if (at >= 0 && size_t(at) < srcs.size())
         todo.push_back(srcs[at]);
   }
   static const std::regex name(R"(%(\d+))");
   while (!todo.empty()) {
      const std::string v = todo.back();
      todo.pop_back();
      if (!keep.insert(v).second)
         continue;
      const std::regex defines(R"(^\s*(con|div)\s+\S+\s+%)" + v + R"(\s*=(.*)$)");
      for (const std::string &l : lines) {
         std::smatch m;
         std::string rhs;
         if (std::regex_match(l, m, defines)) {
            rhs = m[2];
         } else if (l.find("@store_reg (") != std::string::npos) {
            std::vector<std::string> srcs = source_names(l);
            if (srcs.size() == 2 && srcs[1] == v)
               rhs = "%" + srcs[0];
         }
         for (auto it = std::sregex_iterator(rhs.begin(), rhs.end(), name);
              it != std::sregex_iterator(); ++it)
            todo.push_back((*it)[1]);
      }
   }
   return keep;
}

struct reducer {
   config cfg;
   check::outcome::kind want;
   unsigned tries = 0;

   /* The candidate is valid NIR and fails the same way. */
   bool still_fails(const std::vector<std::string> &lines)
   {
      std::unique_ptr<nir::shader> s;
      try {
         s = nir::read_shader(join(lines), "candidate.nir");
         nir::validate(*s);
      } catch (const error &) {
         return false;
      }
      tries++;
      check::outcome o = check::run_isolated(*s, cfg.simd, cfg.seed, cfg.sets, cfg.timeout);
      return o.k == want;
   }

   std::vector<std::string> run(std::vector<std::string> lines)
   {
      for (bool progress = true; progress;) {
         progress = false;
         std::vector<size_t> cand;
         const std::set<std::string> addresses = address_values(lines);
         for (size_t i = 0; i < lines.size(); i++) {
            unsigned bits, comps;
            std::string name, op;
            bool intr;
            if (parse_def(lines[i], &bits, &comps, &name, &op, &intr) &&
                replaceable(op, intr) && !addresses.count(name))
               cand.push_back(i);
         }
         for (size_t chunk = std::max<size_t>(1, cand.size() / 2); chunk >= 1; chunk /= 2) {
            for (size_t start = 0; start < cand.size(); start += chunk) {
               std::vector<std::string> next = lines;
               bool any = false;
               for (size_t k = start; k < std::min(cand.size(), start + chunk); k++) {
                  unsigned bits, comps;
                  std::string name, op;
                  bool intr;
                  if (!parse_def(next[cand[k]], &bits, &comps, &name, &op, &intr) ||
                      !replaceable(op, intr))
                     continue;
                  std::smatch m;
                  std::regex_match(next[cand[k]], m, def_line);
                  next[cand[k]] = zero_constant(m[1], bits, comps, name);
                  any = true;
               }
               if (!any)
                  continue;
               std::vector<std::string> cleaned = remove_dead(next);
               if (still_fails(cleaned)) {
                  lines = cleaned;
                  progress = true;
                  fprintf(stderr, "ibis-reduce: %zu lines (%u checks)\n", lines.size(), tries);
                  break;   /* candidate indices moved: start over */
               }
            }
            if (progress || chunk == 1)
               break;
         }
      }
      return lines;
   }
};

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   config cfg;
   std::string file, out;
   try {
      for (int i = 1; i < argc; i++) {
         std::string a = argv[i];
         auto value = [&]() -> std::string {
            if (i + 1 >= argc)
               throw error(strfmt("option '%s' needs a value", a.c_str()));
            return argv[++i];
         };
         if (a == "--simd")
            cfg.simd = unsigned(atoi(value().c_str()));
         else if (a == "--seed")
            cfg.seed = strtoull(value().c_str(), nullptr, 0);
         else if (a == "--sets")
            cfg.sets = std::max(1, atoi(value().c_str()));
         else if (a == "--timeout")
            cfg.timeout = unsigned(std::max(1, atoi(value().c_str())));
         else if (a == "-o")
            out = value();
         else if (a[0] == '-') {
            fprintf(stderr, "usage: ibis-reduce FILE.nir --simd N [--seed S] [--sets K] "
                            "[--timeout T] [-o OUT.nir]\n");
            return a == "-h" || a == "--help" ? 0 : 1;
         } else {
            file = a;
         }
      }
      if (file.empty())
         throw error("no input file");
      std::ifstream f(file);
      if (!f)
         throw error(strfmt("cannot open %s", file.c_str()));
      std::stringstream ss;
      ss << f.rdbuf();
      std::vector<std::string> lines = split_lines(ss.str());
      auto s = nir::read_shader(ss.str(), file);
      check::outcome first = check::run_isolated(*s, cfg.simd, cfg.seed, cfg.sets, cfg.timeout);
      if (first.k != check::outcome::mismatch && first.k != check::outcome::sim_error &&
          first.k != check::outcome::crashed) {
         fprintf(stderr, "ibis-reduce: %s does not fail the check at SIMD%u (%s)\n",
                 file.c_str(), cfg.simd, check::kind_names[first.k]);
         return 1;
      }
      fprintf(stderr, "ibis-reduce: %s, %zu lines: %s\n", check::kind_names[first.k],
              lines.size(), first.first.substr(0, first.first.find('\n')).c_str());
      reducer r{cfg, first.k};
      std::vector<std::string> reduced = r.run(lines);
      std::string text = join(reduced);
      if (out.empty()) {
         fputs(text.c_str(), stdout);
      } else {
         std::ofstream o(out);
         o << text;
      }
      auto rs = nir::read_shader(text, "reduced.nir");
      check::outcome last = check::run_isolated(*rs, cfg.simd, cfg.seed, cfg.sets, cfg.timeout);
      fprintf(stderr, "ibis-reduce: %zu -> %zu lines after %u checks; still %s: %s\n",
              lines.size(), reduced.size(), r.tries, check::kind_names[last.k],
              last.first.substr(0, last.first.find('\n')).c_str());
      return 0;
   } catch (const error &e) {
      fprintf(stderr, "ibis-reduce: %s\n", e.what());
      return 1;
   }
}
