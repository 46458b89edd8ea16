/*
 * ibis-report OLD NEW [--top N]
 * ibis-report --kinds BRW_ASM_DIR IBIS_ASM_DIR [--top N] [--programs]
 * ibis-report --dynamic FILE [--top N]
 * ibis-report --times BRW_TIMES IBIS_TIMES [--top N]
 *
 * Compares two shader-db results, as shader-db's report.py does: totals
 * of instructions, cycles, spills, fills, sends and loops over the
 * programs both have, helped and hurt counts, the SIMD8/16/32 program
 * counts, the ratio per stage and width, and the most changed programs.
 *
 * Each input is a shader-db log (ibis-shaderdb's output or brw's:
 * "NAME - FS SIMD16 shader: 180 inst, 0 loops, 3144 cycles, 0:0
 * spills:fills, 7 sends, ..."; a program logged again, as a driver
 * recompiles for a draw, is NAME#2, NAME#3, ...) or brw-stats.csv (columns game, name,
 * stage, simd, status, reason, instructions, loops, cycles, spills, fills,
 * sends, ...; rows with status "compiled" are programs, named
 * GAME/NAME.STAGE.nir to match ibis-shaderdb's names).
 *
 * --kinds compares two directories of disassembly in brw-asm's layout
 * (GAME/NAME.STAGE.simdN.asm; brw's ".do32.asm", the SIMD32 programs it
 * discarded, are left out): per program both keep, instructions by kind
 * (asm_kinds.h), totalled per stage and width, with the dolphin
 * ubershaders apart from the rest.
 *
 * --dynamic reads the per-program rows `ibis-check brw --with-ibis
 * --dynamic-report FILE` wrote (brw's and ibis's programs run on the same
 * inputs) and prints the dynamic scoreboard: per stage and width the
 * executed instructions, channel-instructions, sends and estimated cycles
 * of both, helped and hurt, and the N worst programs (docs/check.md).
 *
 * --times compares the backends' compile times inside the driver: the
 * lines Mesa's INTEL_IBIS_TIMES wrote in a brw run and in an ibis run
 * (scripts/mesa-driver.sh run --times, docs/mesa.md), "[NAME] STAGE
 * BACKEND MICROSECONDS LIBIBIS_MICROSECONDS SOURCE_HASH KEY_HASH WIDTHS
 * NIR_NAME".  Variants pair by
 * name, stage, source and key (the n-th of equal ones with the n-th); per
 * stage the count, total, mean, median and slowest of each, the ratios,
 * ibis's time inside libibis and in the glue, and the N slowest variants
 * of each.  An ibis fallback is ibis's time;
 * the driver's own shaders (blorp's) are left out.
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "asm_kinds.h"
#include "check/check.h"
#include "util/ibis_error.h"
#include "util/ibis_files.h"

#include <dirent.h>
#include <sys/stat.h>

namespace {

enum metric { INST, CYCLES, SPILLS, FILLS, SENDS, LOOPS, NUM_METRICS };
const char *const metric_names[NUM_METRICS] = {
   "instructions", "cycles", "spills", "fills", "sends", "loops",
};

struct program {
   double v[NUM_METRICS] = {};
};

/* (name, stage, simd) -> figures */
using key = std::tuple<std::string, std::string, unsigned>;
using result_set = std::map<key, program>;

std::vector<std::string>
split_csv(const std::string &line)
{
   std::vector<std::string> f;
   std::string cur;
   bool quoted = false;
   for (char c : line) {
      if (c == '"')
         quoted = !quoted;
      else if (c == ',' && !quoted) {
         f.push_back(cur);
         cur.clear();
      } else if (c != '\r')
         cur += c;
   }
   f.push_back(cur);
   return f;
}

std::string
upper(std::string s)
{
   for (char &c : s)
      c = char(std::toupper(static_cast<unsigned char>(c)));
   return s;
}

std::string
lower(std::string s)
{
   for (char &c : s)
      c = char(std::tolower(static_cast<unsigned char>(c)));
   return s;
}

unsigned
to_uint(const std::string &s, const ibis::source_loc &loc, const char *what)
{
   char *end = nullptr;
   const unsigned long v = std::strtoul(s.c_str(), &end, 10);
   if (s.empty() || *end)
      throw ibis::error(loc, std::string(what) + " '" + s + "' is not a number");
   return unsigned(v);
}

result_set
read_csv(std::istream &in, const std::string &path)
{
   result_set r;
   std::string line;
   ibis::source_loc loc{path, 1, 0};
   std::getline(in, line);
   const std::vector<std::string> head = split_csv(line);
   std::map<std::string, size_t> col;
   for (size_t i = 0; i < head.size(); i++)
      col[head[i]] = i;
   for (const char *c : {"game", "name", "stage", "simd", "status", "instructions",
                         "loops", "cycles", "spills", "fills", "sends"}) {
      if (!col.count(c))
         throw ibis::error(loc, std::string("no column '") + c + "'");
   }
   while (std::getline(in, line)) {
      loc.line++;
      if (line.empty())
         continue;
      const std::vector<std::string> f = split_csv(line);
      if (f.size() != head.size())
         throw ibis::error(loc, ibis::strfmt("%zu fields, the header has %zu",
                                             f.size(), head.size()));
      if (f[col["status"]] != "compiled")
         continue;
      program p;
      p.v[INST] = to_uint(f[col["instructions"]], loc, "instructions");
      p.v[LOOPS] = to_uint(f[col["loops"]], loc, "loops");
      p.v[CYCLES] = to_uint(f[col["cycles"]], loc, "cycles");
      p.v[SPILLS] = to_uint(f[col["spills"]], loc, "spills");
      p.v[FILLS] = to_uint(f[col["fills"]], loc, "fills");
      p.v[SENDS] = to_uint(f[col["sends"]], loc, "sends");
      const std::string stage = f[col["stage"]];
      r[key{f[col["game"]] + "/" + f[col["name"]] + "." + lower(stage) + ".nir",
            upper(stage), to_uint(f[col["simd"]], loc, "simd")}] = p;
   }
   return r;
}

result_set
read_log(std::istream &in, const std::string &path)
{
   static const std::regex line_re(
      R"(^(.*) - (\w+) SIMD(\d+) shader: (\d+) inst, (\d+) loops, (\d+) cycles, )"
      R"((\d+):(\d+) spills:fills, (\d+) sends)");
   result_set r;
   std::string line;
   ibis::source_loc loc{path, 0, 0};
   while (std::getline(in, line)) {
      loc.line++;
      std::smatch m;
      if (!std::regex_search(line, m, line_re))
         continue;   /* shader-db logs carry other lines too */
      program p;
      p.v[INST] = std::stod(m[4]);
      p.v[LOOPS] = std::stod(m[5]);
      p.v[CYCLES] = std::stod(m[6]);
      p.v[SPILLS] = std::stod(m[7]);
      p.v[FILLS] = std::stod(m[8]);
      p.v[SENDS] = std::stod(m[9]);
      /* A driver compiles a shader again when a draw changes its key:
       * the n-th program of a name, stage and width is "NAME#n" (n > 1),
       * so that two runs of the same draws pair up in order.
       */
      key k{m[1], upper(m[2]), to_uint(m[3], loc, "width")};
      const std::string name = std::get<0>(k);
      for (unsigned n = 2; r.count(k); n++)
         std::get<0>(k) = name + "#" + std::to_string(n);
      r[k] = p;
   }
   return r;
}

result_set
read_results(const std::string &path)
{
   std::ifstream f(path);
   if (!f)
      throw ibis::error(path + ": cannot read");
   std::string first;
   std::getline(f, first);
   f.clear();
   f.seekg(0);
   if (first.compare(0, 10, "game,name,") == 0)
      return read_csv(f, path);
   return read_log(f, path);
}

std::string
change(double a, double b)
{
   if (a == 0)
      return b == 0 ? "0.00%" : "+inf%";
   return ibis::strfmt("%+.2f%%", 100.0 * (b - a) / a);
}

std::string
program_name(const key &k)
{
   return ibis::strfmt("%s %s SIMD%u", std::get<0>(k).c_str(),
                       std::get<1>(k).c_str(), std::get<2>(k));
}

std::string
slurp(const std::string &path)
{
   std::ifstream f(path);
   if (!f)
      throw ibis::error(path + ": cannot read");
   return std::string(std::istreambuf_iterator<char>(f), {});
}

/* The dolphin ubershaders are reported apart: they alone decide the
 * corpus totals.
 */
bool
is_ubershader(const std::string &rel)
{
   return rel.compare(0, 20, "dolphin/ubershaders/") == 0;
}

/* "game/name.fs.simd16.asm" -> "FS SIMD16" */
std::string
stage_width(const std::string &rel)
{
   static const std::regex re(R"(\.(\w+)\.simd(\d+)\.asm$)");
   std::smatch m;
   if (!std::regex_search(rel, m, re))
      return "?";
   return upper(m[1]) + " SIMD" + std::string(m[2]);
}

std::string
kind_diffs(const ibis::asm_kind_counts &b, const ibis::asm_kind_counts &a)
{
   std::string s;
   for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++) {
      if (a[k] != b[k])
         s += ibis::strfmt("%s%s %+d", s.empty() ? "" : ", ", ibis::asm_kind_names[k],
                           int(a[k]) - int(b[k]));
   }
   return s;
}

int
report_kinds(const std::string &brw_dir, const std::string &ibis_dir, unsigned top,
             bool all_programs)
{
   struct pair {
      std::string rel;
      ibis::asm_kind_counts brw, ibis;
      int total_diff() const
      {
         int d = 0;
         for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++)
            d += int(ibis[k]) - int(brw[k]);
         return d;
      }
   };
   /* brw's discarded SIMD32 programs (.do32.) are no programs of its. */
   std::vector<std::string> rels = ibis::files_below(ibis_dir, ".asm");
   rels.erase(std::remove_if(rels.begin(), rels.end(), [](const std::string &r) {
                 return r.find(".do32.") != std::string::npos;
              }), rels.end());
   std::vector<pair> pairs;
   unsigned ibis_only = 0;
   for (const std::string &rel : rels) {
      std::ifstream probe(brw_dir + "/" + rel);
      if (!probe) {
         ibis_only++;
         continue;
      }
      pairs.push_back(pair{rel, ibis::classify_asm(slurp(brw_dir + "/" + rel)),
                           ibis::classify_asm(slurp(ibis_dir + "/" + rel))});
   }
   std::printf("instruction kinds, brw (%s) -> ibis (%s):\n"
               "%zu programs both keep, %u ibis alone keeps\n",
               brw_dir.c_str(), ibis_dir.c_str(), pairs.size(), ibis_only);

   for (const bool uber : {false, true}) {
      std::map<std::string, std::pair<ibis::asm_kind_counts, ibis::asm_kind_counts>> by_width;
      std::map<std::string, unsigned> n_width;
      ibis::asm_kind_counts tb{}, ta{};
      unsigned n = 0;
      for (const pair &p : pairs) {
         if (is_ubershader(p.rel) != uber)
            continue;
         auto &w = by_width[stage_width(p.rel)];
         n_width[stage_width(p.rel)]++;
         n++;
         for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++) {
            w.first[k] += p.brw[k];
            w.second[k] += p.ibis[k];
            tb[k] += p.brw[k];
            ta[k] += p.ibis[k];
         }
      }
      std::printf("\n== %s (%u programs) ==\n",
                  uber ? "dolphin ubershaders" : "all but the dolphin ubershaders", n);
      std::printf("%-12s", "kind");
      for (const auto &w : by_width)
         std::printf(" %21s", (w.first + ibis::strfmt(" (%u)", n_width[w.first])).c_str());
      std::printf(" %21s\n", "total");
      for (unsigned k = 0; k <= ibis::NUM_ASM_KINDS; k++) {
         auto cell = [](unsigned b, unsigned a) {
            return ibis::strfmt("%u->%u %+d", b, a, int(a) - int(b));
         };
         const bool sum = k == ibis::NUM_ASM_KINDS;
         std::printf("%-12s", sum ? "all" : ibis::asm_kind_names[k]);
         unsigned sb = 0, sa = 0;
         for (const auto &w : by_width) {
            unsigned b = 0, a = 0;
            for (unsigned j = 0; j < ibis::NUM_ASM_KINDS; j++) {
               if (sum || j == k) {
                  b += w.second.first[j];
                  a += w.second.second[j];
               }
            }
            sb += b;
            sa += a;
            std::printf(" %21s", cell(b, a).c_str());
         }
         std::printf(" %21s\n", cell(sb, sa).c_str());
      }
      std::string more, fewer;
      for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++) {
         const int d = int(ta[k]) - int(tb[k]);
         if (d)
            (d > 0 ? more : fewer) += ibis::strfmt("%s%s %+d", (d > 0 ? more : fewer).empty()
                                                                   ? "" : ", ",
                                                   ibis::asm_kind_names[k], d);
      }
      std::printf("ibis has more: %s\nibis has fewer: %s\n",
                  more.empty() ? "-" : more.c_str(), fewer.empty() ? "-" : fewer.c_str());
   }

   std::vector<const pair *> order;
   for (const pair &p : pairs)
      order.push_back(&p);
   std::stable_sort(order.begin(), order.end(), [](const pair *x, const pair *y) {
      return x->total_diff() > y->total_diff();
   });
   std::printf("\n%s (instructions brw -> ibis, and by kind):\n",
               all_programs ? "every program" : "where ibis has the most more");
   for (size_t i = 0; i < order.size() && (all_programs || i < top); i++) {
      const pair &p = *order[i];
      if (!all_programs && p.total_diff() <= 0)
         break;
      unsigned b = 0, a = 0;
      for (unsigned k = 0; k < ibis::NUM_ASM_KINDS; k++) {
         b += p.brw[k];
         a += p.ibis[k];
      }
      std::printf("  %-50s %5u -> %5u: %s\n", p.rel.c_str(), b, a,
                  kind_diffs(p.brw, p.ibis).c_str());
   }
   return 0;
}

struct timed_variant {
   std::string name, stage, backend, widths;
   double us = 0, libibis_us = 0;
};

/* Pairing identity -> variant; the n-th equal identity gets "#n". */
using timed_set = std::map<std::string, timed_variant>;

/* The driver's own shaders (blorp's, named BLORP-*) are counted in
 * *internal and left out: they are no application shader.
 */
timed_set
read_times(const std::string &path, unsigned *internal)
{
   std::ifstream in(path);
   if (!in)
      throw ibis::error(path + ": cannot read");
   timed_set r;
   std::string line;
   ibis::source_loc loc{path, 0, 0};
   while (std::getline(in, line)) {
      loc.line++;
      std::istringstream ss(line);
      std::vector<std::string> f;
      for (std::string w; ss >> w;)
         f.push_back(w);
      if (f.empty())
         continue;
      if (f.size() < 8)
         throw ibis::error(loc, ibis::strfmt("%zu fields, not 8 or more", f.size()));
      const size_t b = f.size() - 8;
      timed_variant v;
      for (size_t i = 0; i < b; i++)
         v.name += (i ? " " : "") + f[i];
      if (v.name.empty())
         v.name = "-";
      v.stage = f[b];
      v.backend = f[b + 1];
      v.us = to_uint(f[b + 2], loc, "microseconds");
      v.libibis_us = to_uint(f[b + 3], loc, "microseconds in libibis");
      v.widths = f[b + 6];
      if (v.stage != "VS" && v.stage != "FS" && v.stage != "CS")
         throw ibis::error(loc, "stage '" + v.stage + "' is not VS, FS or CS");
      if (v.backend != "brw" && v.backend != "ibis" && v.backend != "ibis-fallback")
         throw ibis::error(loc, "backend '" + v.backend + "' is not brw, ibis or ibis-fallback");
      if (f[b + 7].compare(0, 6, "BLORP-") == 0) {
         (*internal)++;
         continue;
      }
      const std::string id = v.name + " " + v.stage + " " + f[b + 4] + " " + f[b + 5];
      std::string k = id;
      for (unsigned n = 2; r.count(k); n++)
         k = id + "#" + std::to_string(n);
      r[k] = v;
   }
   return r;
}

double
median(std::vector<double> v)
{
   if (v.empty())
      return 0;
   std::sort(v.begin(), v.end());
   const size_t n = v.size();
   return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
report_times(const std::string &brw_path, const std::string &ibis_path, unsigned top)
{
   unsigned brw_internal = 0, ibis_internal = 0;
   const timed_set brw = read_times(brw_path, &brw_internal);
   const timed_set ibis = read_times(ibis_path, &ibis_internal);
   unsigned fallbacks = 0, not_brw = 0;
   for (const auto &kv : ibis)
      fallbacks += kv.second.backend == "ibis-fallback";
   for (const auto &kv : brw)
      not_brw += kv.second.backend != "brw";
   std::vector<std::string> shared;
   for (const auto &kv : brw) {
      if (ibis.count(kv.first))
         shared.push_back(kv.first);
   }
   auto mean_all = [](const timed_set &s) {
      double t = 0;
      for (const auto &kv : s)
         t += kv.second.us;
      return s.empty() ? 0.0 : t / s.size() / 1000;
   };
   std::printf("backend compile time inside the driver (thread CPU from the hook to the\n"
               "return of brw_compile_*, all widths; ms; an ibis fallback is ibis's time):\n"
               "brw:  %s: %zu variants%s\n"
               "ibis: %s: %zu variants, %u fell back to brw\n"
               "the driver's own (blorp), left out: brw %u, ibis %u\n"
               "paired: %zu variants (brw alone %zu, ibis alone %zu)\n"
               "every variant: brw mean %.3f, ibis mean %.3f, ibis/brw %.3f\n\n",
               brw_path.c_str(), brw.size(),
               not_brw ? ibis::strfmt(" (%u not compiled by brw alone)", not_brw).c_str() : "",
               ibis_path.c_str(), ibis.size(), fallbacks, brw_internal, ibis_internal,
               shared.size(),
               brw.size() - shared.size(), ibis.size() - shared.size(), mean_all(brw),
               mean_all(ibis), mean_all(brw) > 0 ? mean_all(ibis) / mean_all(brw) : 0.0);

   std::printf("%-5s %8s | %10s %7s %7s %8s | %10s %7s %7s %8s | %s\n", "stage", "variants",
               "brw total", "mean", "median", "slowest", "ibis total", "mean", "median",
               "slowest", "ibis/brw total(=mean) median slowest");
   double all_ratio = 0, slow_ratio = 0, brw_slowest = 0, ibis_slowest = 0;
   for (const char *stage : {"VS", "FS", "CS", "all"}) {
      std::vector<double> b, a;
      for (const std::string &k : shared) {
         if (std::string(stage) == "all" || brw.at(k).stage == stage) {
            b.push_back(brw.at(k).us / 1000);
            a.push_back(ibis.at(k).us / 1000);
         }
      }
      if (b.empty())
         continue;
      double tb = 0, ta = 0;
      for (size_t i = 0; i < b.size(); i++) {
         tb += b[i];
         ta += a[i];
      }
      const double mb = median(b), ma = median(a);
      const double sb = *std::max_element(b.begin(), b.end());
      const double sa = *std::max_element(a.begin(), a.end());
      auto ratio = [](double x, double y) { return y > 0 ? x / y : 0.0; };
      std::printf("%-5s %8zu | %10.3f %7.3f %7.3f %8.3f | %10.3f %7.3f %7.3f %8.3f | "
                  "%5.3f %5.3f %5.3f\n",
                  stage, b.size(), tb, tb / b.size(), mb, sb, ta, ta / a.size(), ma, sa,
                  ratio(ta, tb), ratio(ma, mb), ratio(sa, sb));
      if (std::string(stage) == "all") {
         all_ratio = ratio(ta, tb);
         slow_ratio = ratio(sa, sb);
         brw_slowest = sb;
         ibis_slowest = sa;
      }
   }
   /* libibis: NIR text in, program out; the glue: nir_print, the ABI, the
    * comparisons with brw's prog data.
    */
   std::printf("\nibis's time by part: %-5s %13s %10s %13s\n", "stage", "libibis total",
               "glue total", "libibis/brw");
   for (const char *stage : {"VS", "FS", "CS", "all"}) {
      double tb = 0, lib = 0, glue = 0;
      unsigned n = 0;
      for (const std::string &k : shared) {
         if (std::string(stage) == "all" || brw.at(k).stage == stage) {
            tb += brw.at(k).us / 1000;
            lib += ibis.at(k).libibis_us / 1000;
            glue += (ibis.at(k).us - ibis.at(k).libibis_us) / 1000;
            n++;
         }
      }
      if (n)
         std::printf("%20s %-5s %13.3f %10.3f %13.3f\n", "", stage, lib, glue,
                     tb > 0 ? lib / tb : 0.0);
   }

   if (!shared.empty()) {
      std::printf("\ngoal ibis <= 0.25x brw (total): %.3fx, %s\n", all_ratio,
                  all_ratio <= 0.25 ? "met" : "not met");
      std::printf("goal slowest ibis <= half of slowest brw: %.3f ms vs %.3f ms (%.3fx), %s\n",
                  ibis_slowest, brw_slowest, slow_ratio, slow_ratio <= 0.5 ? "met" : "not met");
   }

   for (const bool of_ibis : {false, true}) {
      const timed_set &self = of_ibis ? ibis : brw, &other = of_ibis ? brw : ibis;
      std::vector<std::string> order;
      for (const std::string &k : shared)
         order.push_back(k);
      std::stable_sort(order.begin(), order.end(), [&](const std::string &x, const std::string &y) {
         return self.at(x).us > self.at(y).us;
      });
      std::printf("\nslowest %u, %s (ms; %s the other's time for the same variant):\n", top,
                  of_ibis ? "ibis" : "brw", of_ibis ? "ibis <-" : "brw ->");
      for (size_t i = 0; i < order.size() && i < top; i++) {
         const timed_variant &v = self.at(order[i]);
         std::printf("  %9.3f %s %9.3f  %s %s SIMD%s%s\n", v.us / 1000,
                     of_ibis ? "<-" : "->", other.at(order[i]).us / 1000, v.name.c_str(),
                     v.stage.c_str(), v.widths.c_str(),
                     v.backend == "ibis-fallback" ? " (fell back to brw)" : "");
      }
   }
   return 0;
}

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   std::vector<std::string> files;
   unsigned top = 10;
   bool kinds = false, dynamic = false, times = false, all_programs = false;
   try {
      for (int i = 1; i < argc; i++) {
         const std::string a = argv[i];
         if (a == "--kinds") {
            kinds = true;
         } else if (a == "--dynamic") {
            dynamic = true;
         } else if (a == "--times") {
            times = true;
         } else if (a == "--programs") {
            all_programs = true;
         } else if (a == "--top" && i + 1 < argc) {
            top = unsigned(std::strtoul(argv[++i], nullptr, 10));
         } else if (a == "-h" || a == "--help") {
            std::printf("usage: ibis-report OLD NEW [--top N]\n"
                        "       ibis-report --kinds BRW_ASM_DIR IBIS_ASM_DIR [--top N] "
                        "[--programs]\n"
                        "       ibis-report --dynamic FILE [--top N]\n"
                        "       ibis-report --times BRW_TIMES IBIS_TIMES [--top N]\n");
            return 0;
         } else if (!a.empty() && a[0] == '-') {
            throw ibis::error("unknown option '" + a + "'");
         } else {
            files.push_back(a);
         }
      }
      if (dynamic) {
         if (files.size() != 1)
            throw ibis::error("usage: ibis-report --dynamic FILE [--top N]");
         std::ifstream in(files[0]);
         if (!in)
            throw ibis::error(files[0] + ": cannot read");
         std::stringstream text;
         text << in.rdbuf();
         std::fputs(ibis::check::dynamic_scoreboard(ibis::check::read_dynamic_rows(text.str(), files[0]),
                                                    top).c_str(), stdout);
         return 0;
      }
      if (files.size() != 2)
         throw ibis::error("usage: ibis-report OLD NEW [--top N], --kinds "
                           "BRW_ASM_DIR IBIS_ASM_DIR, or --dynamic FILE");
      if (times)
         return report_times(files[0], files[1], top);
      if (kinds)
         return report_kinds(files[0], files[1], top, all_programs);
      const result_set before = read_results(files[0]);
      const result_set after = read_results(files[1]);

      std::vector<key> shared;
      for (const auto &kv : before) {
         if (after.count(kv.first))
            shared.push_back(kv.first);
      }
      std::printf("OLD: %s (%zu programs)\nNEW: %s (%zu programs)\n"
                  "shared programs: %zu\n\n",
                  files[0].c_str(), before.size(), files[1].c_str(),
                  after.size(), shared.size());

      for (unsigned m = 0; m < NUM_METRICS; m++) {
         double tb = 0, ta = 0, ab = 0, aa = 0;
         unsigned helped = 0, hurt = 0;
         for (const key &k : shared) {
            const double b = before.at(k).v[m], a = after.at(k).v[m];
            tb += b;
            ta += a;
            if (a != b) {
               ab += b;
               aa += a;
               (a < b ? helped : hurt)++;
            }
         }
         std::printf("total %s in shared programs: %.0f -> %.0f (%s)\n",
                     metric_names[m], tb, ta, change(tb, ta).c_str());
         std::printf("%s in affected programs: %.0f -> %.0f (%s)\n",
                     metric_names[m], ab, aa, change(ab, aa).c_str());
         std::printf("helped: %u\nHURT: %u\n\n", helped, hurt);
      }

      /* Program counts per stage and width, and what was lost or gained. */
      std::map<std::pair<std::string, unsigned>, std::pair<unsigned, unsigned>> counts;
      for (const auto &kv : before)
         counts[{std::get<1>(kv.first), std::get<2>(kv.first)}].first++;
      for (const auto &kv : after)
         counts[{std::get<1>(kv.first), std::get<2>(kv.first)}].second++;
      std::printf("programs per stage and width (OLD -> NEW), and instructions\n"
                  "in the programs both have (NEW / OLD):\n");
      for (const auto &c : counts) {
         double ib = 0, ia = 0;
         unsigned n = 0;
         for (const key &k : shared) {
            if (std::get<1>(k) == c.first.first && std::get<2>(k) == c.first.second) {
               ib += before.at(k).v[INST];
               ia += after.at(k).v[INST];
               n++;
            }
         }
         std::printf("  %s SIMD%-2u %5u -> %5u   shared %5u: %.0f -> %.0f inst (%.3fx)\n",
                     c.first.first.c_str(), c.first.second, c.second.first,
                     c.second.second, n, ib, ia, ib > 0 ? ia / ib : 0.0);
      }
      unsigned lost = 0, gained = 0;
      for (const auto &kv : before)
         lost += !after.count(kv.first);
      for (const auto &kv : after)
         gained += !before.count(kv.first);
      std::printf("LOST: %u programs\nGAINED: %u programs\n\n", lost, gained);

      /* The most changed programs, by relative instruction count. */
      std::vector<std::pair<double, key>> ratios;
      for (const key &k : shared) {
         const double b = before.at(k).v[INST], a = after.at(k).v[INST];
         if (b > 0 && a != b)
            ratios.emplace_back(a / b, k);
      }
      std::sort(ratios.begin(), ratios.end(), [](const auto &x, const auto &y) {
         return x.first != y.first ? x.first > y.first : x.second < y.second;
      });
      std::printf("most hurt (instructions NEW / OLD):\n");
      for (size_t i = 0; i < ratios.size() && i < top && ratios[i].first > 1; i++) {
         const key &k = ratios[i].second;
         std::printf("  %-60s %6.0f -> %6.0f (%.2fx)\n", program_name(k).c_str(),
                     before.at(k).v[INST], after.at(k).v[INST], ratios[i].first);
      }
      std::printf("most helped (instructions NEW / OLD):\n");
      for (size_t i = 0; i < top && i < ratios.size(); i++) {
         const auto &r = ratios[ratios.size() - 1 - i];
         if (r.first >= 1)
            break;
         std::printf("  %-60s %6.0f -> %6.0f (%.2fx)\n", program_name(r.second).c_str(),
                     before.at(r.second).v[INST], after.at(r.second).v[INST], r.first);
      }
   } catch (const ibis::error &e) {
      std::fprintf(stderr, "ibis-report: %s\n", e.what());
      return 1;
   } catch (const std::exception &e) {
      std::fprintf(stderr, "ibis-report: %s\n", e.what());
      return 1;
   }
   return 0;
}
