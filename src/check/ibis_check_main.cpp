/*
 * ibis-check: the corpus and random differential runs (docs/check.md).
 *
 *    ibis-check corpus [--dir D | --corpus NAME] [--every N] [--simd LIST]
 *                      [--sets K] [--skip SUBSTR:LIST]...
 *    ibis-check random [--stage vs|fs|cs|all] [--seeds A-B] [--simd LIST]
 *                      [--sets K] [--exact]
 *    ibis-check brw [--dir D] [--every N] [--simd LIST] [--sets K] [--with-ibis]
 *                   [--dynamic-report FILE] [--list-differ]
 *    common: [--save DIR] [--timeout SECONDS] [--quiet] [--expect-clean]
 *            [--known-failures FILE]
 *
 * Every variant is compiled and checked in a child process, so a crash or a
 * hang of the compiler or the simulator is counted (and reported) instead
 * of ending the run.  Each failure prints the shader (file or seed), the
 * width, the first differing output and channel, and the ibis-run command
 * that reproduces it.  The exit status is 0 unless --expect-clean is given
 * and something mismatched, crashed, failed to run or (corpus) could not
 * be read.
 */
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "check/check.h"
#include "check/check_isolated.h"
#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;
namespace fs = std::filesystem;
using check::outcome;
using check::kind_names;

namespace {

struct options {
   std::string mode;
   std::string dir;
   /* A corpus of the shared data: skl (Mesa 23.3's NIR), skl-mesa25. */
   std::string corpus;
   unsigned every = 1;
   std::vector<unsigned> widths = {8, 16, 32};
   unsigned sets = 4;
   std::string stages = "all";
   uint64_t first_seed = 1, last_seed = 50;
   bool exact = false;
   std::string save = "check-failures";
   unsigned timeout = 60;
   bool quiet = false;
   bool list_differ = false;   /* brw: every word brw's and ibis's programs differ in */
   bool expect_clean = false;
   /* brw: also check ibis's program of each shader at the width, on the
    * same inputs, and compare what the simulator executed.
    */
   bool with_ibis = false;
   /* brw --with-ibis: the per-program rows of the dynamic scoreboard. */
   std::string dynamic_report;
   /* Corpus variants left out: path substring, widths. */
   std::vector<std::pair<std::string, std::vector<unsigned>>> skips;
   /* Variants known to fail ("random fs seed 29 SIMD8"), as Mesa CI's
    * expectation lists: they do not fail --expect-clean, and a listed
    * variant that passes does, so the list cannot go stale.
    */
   std::set<std::string> known;
};

/* One variant per line; '#' starts a comment (say why it fails). */
std::set<std::string>
read_known_failures(const std::string &path)
{
   std::ifstream in(path);
   if (!in)
      throw error(strfmt("%s: cannot read the known-failures list", path.c_str()));
   std::set<std::string> out;
   std::string line;
   while (std::getline(in, line)) {
      line = line.substr(0, line.find('#'));
      size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t");
      if (b != std::string::npos)
         out.insert(line.substr(b, e - b + 1));
   }
   return out;
}

std::vector<unsigned>
parse_widths(const std::string &v)
{
   std::vector<unsigned> out;
   for (size_t p = 0; p < v.size();) {
      size_t q = v.find(',', p);
      unsigned w = unsigned(atoi(v.substr(p, q - p).c_str()));
      if (w != 8 && w != 16 && w != 32)
         throw error("--simd takes 8, 16, 32 or a comma-separated list");
      out.push_back(w);
      p = q == std::string::npos ? v.size() : q + 1;
   }
   return out;
}

bool
skipped(const options &o, const std::string &file, unsigned simd)
{
   for (const auto &[sub, widths] : o.skips) {
      if (file.find(sub) != std::string::npos &&
          std::find(widths.begin(), widths.end(), simd) != widths.end())
         return true;
   }
   return false;
}

struct tally {
   unsigned generated = 0, compiled = 0;
   unsigned counts[7] = {};
   unsigned long compared = 0, unchecked = 0;
   /* Simulator instructions issued, channel-instructions and sends, of
    * the matched variants.
    */
   unsigned long long executed = 0, channel_executed = 0, sends = 0;
   std::map<std::string, unsigned> reasons;   /* rejections, first line */
   /* Failures on the known list, and listed variants that passed. */
   unsigned known = 0, unexpected_passes = 0;
};

std::string
first_line(const std::string &s, size_t max = 160)
{
   std::string l = s.substr(0, s.find('\n'));
   return l.size() > max ? l.substr(0, max) + "..." : l;
}

/* A rejection reason without the file and value numbers, for grouping. */
std::string
reason_key(const std::string &s)
{
   /* "invalid IR ...:" is followed by the first broken rule. */
   std::string l = first_line(s, 400), out;
   size_t nl = s.find('\n');
   if (!l.empty() && l.back() == ':' && nl != std::string::npos)
      l += " " + first_line(s.substr(nl + 1), 200);
   size_t p = l.find(".nir:");
   if (p != std::string::npos) {
      size_t q = l.find(": ", p + 5);
      if (q != std::string::npos)
         l = l.substr(q + 2);
   }
   /* Value and block numbers and typed immediates ("26:u32") vary from
    * program to program; runs of blanks are one.
    */
   for (size_t i = 0; i < l.size(); i++) {
      const bool digit_next = i + 1 < l.size() && isdigit((unsigned char)l[i + 1]);
      if (l[i] == '%' && digit_next) {
         out += "%N";
         while (i + 1 < l.size() && isdigit((unsigned char)l[i + 1]))
            i++;
      } else if (l.compare(i, 5, "block") == 0 && i + 5 < l.size() &&
                 isdigit((unsigned char)l[i + 5])) {
         out += "blockN";
         i += 5;
         while (i + 1 < l.size() && isdigit((unsigned char)l[i + 1]))
            i++;
      } else if ((isdigit((unsigned char)l[i]) || l[i] == '-') && i > 0 &&
                 (l[i - 1] == ' ' || l[i - 1] == ',')) {
         size_t j = i + (l[i] == '-' ? 1 : 0);
         while (j < l.size() && isalnum((unsigned char)l[j]))
            j++;
         if (j > i && j < l.size() && l[j] == ':' && j + 1 < l.size() &&
             isalpha((unsigned char)l[j + 1])) {
            out += "K";
            i = j - 1;
         } else {
            out += l[i];
         }
      } else if (l[i] == ' ' && !out.empty() && out.back() == ' ') {
         continue;
      } else {
         out += l[i];
      }
   }
   return out.size() > 120 ? out.substr(0, 120) : out;
}

void
record(tally &t, const outcome &o, const std::string &what, unsigned simd,
       const std::string &repro, const options &opt)
{
   t.generated++;
   t.counts[o.k]++;
   t.compared += o.compared;
   t.unchecked += o.unchecked;
   if (o.k == outcome::match) {
      t.executed += o.executed;
      t.channel_executed += o.channel_executed;
      t.sends += o.sends;
   }
   if (o.k != outcome::rejected && o.k != outcome::crashed && o.k != outcome::timed_out)
      t.compiled++;
   if (o.k == outcome::rejected)
      t.reasons[reason_key(o.first)]++;
   const std::string key = strfmt("%s SIMD%u", what.c_str(), simd);
   const bool failed = o.k == outcome::mismatch || o.k == outcome::sim_error ||
                       o.k == outcome::crashed;
   if (opt.known.count(key)) {
      if (failed) {
         t.known++;
         printf("known failure: %s\n", key.c_str());
         return;
      }
      if (o.k == outcome::match) {
         t.unexpected_passes++;
         printf("unexpected pass: %s (remove it from the known-failures list)\n",
                key.c_str());
      }
   }
   if (o.k == outcome::mismatch || o.k == outcome::sim_error || o.k == outcome::crashed ||
       o.k == outcome::timed_out) {
      printf("%s: %s SIMD%u, input set %u: %s\n   reproduce: %s\n", kind_names[o.k], what.c_str(),
             simd, o.input_set, first_line(o.first).c_str(), repro.c_str());
   } else if (o.k == outcome::rejected && !opt.quiet) {
      printf("rejected: %s SIMD%u: %s\n", what.c_str(), simd, first_line(o.first).c_str());
   }
}

void
print_tally(const std::string &name, const tally &t)
{
   printf("%-12s %5u variants: %u compiled, %u matched, %u mismatched, %u crashed, "
          "%u rejected, %u simulator errors, %u timed out, %u skipped (%lu words compared, "
          "%lu not; executed %llu instructions, %llu channel-instructions, %llu sends)\n",
          name.c_str(), t.generated, t.compiled, t.counts[outcome::match],
          t.counts[outcome::mismatch], t.counts[outcome::crashed], t.counts[outcome::rejected],
          t.counts[outcome::sim_error], t.counts[outcome::timed_out], t.counts[outcome::skipped],
          t.compared, t.unchecked, t.executed, t.channel_executed, t.sends);
   if (t.known || t.unexpected_passes)
      printf("             %u known failures, %u unexpected passes\n", t.known,
             t.unexpected_passes);
   std::vector<std::pair<unsigned, std::string>> rs;
   for (const auto &[r, n] : t.reasons)
      rs.push_back({n, r});
   std::sort(rs.rbegin(), rs.rend());
   for (size_t i = 0; i < rs.size() && i < 5; i++)
      printf("             rejected %u x: %s\n", rs[i].first, rs[i].second.c_str());
}

std::vector<unsigned>
widths_for(nir::shader_stage st, const options &o)
{
   if (st == nir::shader_stage::vertex)
      return {8};
   return o.widths;
}

bool
clean(const std::map<std::string, tally> &all)
{
   for (const auto &[k, t] : all) {
      if (t.counts[outcome::mismatch] + t.counts[outcome::crashed] +
          t.counts[outcome::sim_error] > t.known || t.unexpected_passes)
         return false;
   }
   return true;
}

int
run_corpus(const options &o)
{
   std::string dir = o.dir;
   if (dir.empty()) {
      const char *shared = getenv("IBIS_SHARED_DIR");
      dir = std::string(shared ? shared : "../shared") + "/corpus/" +
            (o.corpus.empty() ? "skl" : o.corpus);
   }
   if (!fs::is_directory(dir)) {
      printf("ibis-check: no corpus at %s (set IBIS_SHARED_DIR or --dir): nothing to do\n",
             dir.c_str());
      return 77;   /* meson: skipped */
   }
   unsigned unreadable = 0;
   std::vector<std::string> files;
   for (const auto &e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".nir")
         files.push_back(e.path().string());
   }
   std::sort(files.begin(), files.end());
   std::map<std::string, tally> all;
   unsigned index = 0;
   for (const std::string &f : files) {
      if (index++ % o.every)
         continue;
      std::unique_ptr<nir::shader> s;
      try {
         s = nir::read_shader_file(f);
      } catch (const error &e) {
         printf("unreadable: %s: %s\n", f.c_str(), first_line(e.what()).c_str());
         unreadable++;
         continue;
      }
      const std::string st = nir::stage_name(s->info.stage);
      for (unsigned w : widths_for(s->info.stage, o)) {
         if (skipped(o, f, w)) {
            outcome r;
            r.k = outcome::skipped;
            record(all[strfmt("%s SIMD%u", st.c_str(), w)], r, f, w, "", o);
            continue;
         }
         outcome r = check::run_isolated(*s, w, 1, o.sets, o.timeout);
         record(all[strfmt("%s SIMD%u", st.c_str(), w)], r, f, w,
                check::repro_command(f, w, 1, r.input_set + 1), o);
      }
   }
   for (const auto &[k, t] : all)
      print_tally(k, t);
   if (unreadable)
      printf("%u corpus files unreadable\n", unreadable);
   return o.expect_clean && (!clean(all) || unreadable) ? 1 : 0;
}

/* brw's programs (brw-asm/<game>/<name>.<stage>.simdN[.do32].asm) on the
 * inputs ibis's get, laid out as brw-abi/ says iris set them up.
 */
int
run_brw(const options &o)
{
   std::string dir = o.dir;
   if (dir.empty()) {
      const char *shared = getenv("IBIS_SHARED_DIR");
      dir = std::string(shared ? shared : "../shared") + "/corpus/skl";
   }
   if (!fs::is_directory(dir + "/brw-asm") || !fs::is_directory(dir + "/brw-abi")) {
      printf("ibis-check: no brw-asm/ and brw-abi/ in %s (set IBIS_SHARED_DIR or --dir): "
             "nothing to do\n", dir.c_str());
      return 77;   /* meson: skipped */
   }
   std::vector<std::string> files;
   for (const auto &e : fs::recursive_directory_iterator(dir + "/brw-asm")) {
      if (e.is_regular_file() && e.path().extension() == ".asm")
         files.push_back(fs::relative(e.path(), dir + "/brw-asm").string());
   }
   std::sort(files.begin(), files.end());
   std::map<std::string, tally> all, ibis_all;
   /* Totals of brw's and ibis's programs where both matched. */
   struct pair_tally {
      unsigned programs = 0;
      unsigned long long brw[3] = {}, ibis[3] = {};   /* issued, channel, sends */
   };
   std::map<std::string, pair_tally> pairs;
   /* The words each comparison covers, programs both matched. */
   struct coverage {
      unsigned programs = 0;
      /* interpreter vs brw, interpreter vs ibis: compared, of which
       * within a tolerance, and not compared.
       */
      unsigned long long interp[2][3] = {};
      check::word_agreement pair;
      std::vector<std::string> loose_programs, failed_programs;
   };
   std::map<std::string, coverage> covered;
   std::vector<check::dynamic_row> rows;
   unsigned index = 0;
   for (const std::string &f : files) {
      /* <game>/<name>.<stage>.simdN.asm or .simd32.do32.asm */
      const bool do32 = f.size() > 9 && f.compare(f.size() - 9, 9, ".do32.asm") == 0;
      const std::string stem = f.substr(0, f.size() - (do32 ? 9 : 4));
      const size_t dot = stem.rfind(".simd");
      const unsigned w = dot == std::string::npos ? 0 : unsigned(atoi(stem.c_str() + dot + 5));
      const std::string shader = dot == std::string::npos ? stem : stem.substr(0, dot);
      const std::string st = shader.substr(shader.rfind('.') + 1);
      const std::string key = strfmt("%s SIMD%u%s", st.c_str(), w, do32 ? " do32" : "");
      if (std::find(o.widths.begin(), o.widths.end(), w) == o.widths.end())
         continue;
      if (index++ % o.every)
         continue;
      const std::string asm_path = dir + "/brw-asm/" + f;
      const std::string nir_path = dir + "/" + shader + ".nir";
      const std::string abi_path = dir + "/brw-abi/" + shader + ".json";
      const std::string what = "brw " + f;
      const std::string repro = strfmt("ibis-run %s --abi %s --simd %u --seed 1 --sets %u "
                                       "--check %s", asm_path.c_str(), abi_path.c_str(), w,
                                       o.sets, nir_path.c_str());
      outcome r = check::run_isolated([&]() {
         check::result res;
         try {
            std::unique_ptr<nir::shader> s = nir::read_shader_file(nir_path);
            const brw_abi a = read_brw_abi_file(abi_path);
            std::ifstream in(asm_path);
            std::stringstream text;
            text << in.rdbuf();
            const std::vector<uint8_t> bin = check::assemble_brw_asm(text.str(), asm_path);
            return check::check_brw_binary(*s, w, bin, a, 1, o.sets);
         } catch (const error &e) {
            /* Unreadable inputs: not the program's fault, not run. */
            res.v = check::verdict::unsupported;
            res.first = e.what();
         }
         return res;
      }, o.timeout);
      tally &t = all[key];
      record(t, r, what, w, repro, o);
      if (r.k == outcome::skipped)
         printf("not run: %s: %s\n", what.c_str(), first_line(r.first).c_str());
      if (!o.with_ibis)
         continue;
      /* ibis's program of the shader at the same width (SIMD32 kept
       * whatever selection says, like brw's .do32), compiled under brw's
       * ABI (the same push data), on the same input sets.
       */
      outcome mine = check::run_isolated([&]() {
         std::unique_ptr<nir::shader> s = nir::read_shader_file(nir_path);
         compile_options co;
         apply_abi_file(abi_path, co.abi);
         return check::check_shader(*s, w, 1, o.sets, co);
      }, o.timeout);
      record(ibis_all[key], mine, "ibis " + shader + ".nir", w,
             check::repro_command(nir_path, w, 1, mine.input_set + 1) + " --abi " + abi_path,
             o);
      if (r.k == outcome::match && mine.k == outcome::match) {
         pair_tally &p = pairs[key];
         p.programs++;
         p.brw[0] += r.executed;
         p.brw[1] += r.channel_executed;
         p.brw[2] += r.sends;
         p.ibis[0] += mine.executed;
         p.ibis[1] += mine.channel_executed;
         p.ibis[2] += mine.sends;

         coverage &c = covered[key];
         c.programs++;
         for (unsigned side = 0; side < 2; side++) {
            const outcome &x = side ? mine : r;
            c.interp[side][0] += x.compared;
            c.interp[side][1] += x.approximate;
            c.interp[side][2] += x.unchecked;
         }
         /* brw's and ibis's words held to each other: bit for bit where
          * the interpreter was exact, a difference elsewhere is reported
          * apart (both may be right).
          */
         const check::word_agreement wa = check::compare_words(r.words, mine.words);
         c.pair.exact += wa.exact;
         c.pair.exact_differ += wa.exact_differ;
         c.pair.loose += wa.loose;
         c.pair.loose_differ += wa.loose_differ;
         c.pair.loose_nan += wa.loose_nan;
         c.pair.misaligned += wa.misaligned;
         if (wa.exact_differ || wa.misaligned) {
            c.failed_programs.push_back(f);
            printf("brw/ibis differ: %s SIMD%u: %llu exact words differ, %llu do not line up; "
                   "first: %s\n", f.c_str(), w, (unsigned long long)wa.exact_differ,
                   (unsigned long long)wa.misaligned, wa.first_differ.c_str());
         } else if (wa.loose_differ) {
            c.loose_programs.push_back(f);
            if (!o.quiet)
               printf("brw/ibis differ where the interpreter allowed it: %s SIMD%u: %llu "
                      "words; first: %s\n", f.c_str(), w,
                      (unsigned long long)wa.loose_differ, wa.first_differ.c_str());
         }
         if (o.list_differ && !wa.differ_list.empty()) {
            std::istringstream lines(wa.differ_list);
            for (std::string l; std::getline(lines, l);)
               printf("brw/ibis word: %s SIMD%u %s\n", f.c_str(), w, l.c_str());
         }

         check::dynamic_row row;
         row.group = key;
         row.program = f;
         const unsigned long long b[4] = {r.executed, r.channel_executed, r.sends, r.cycles};
         const unsigned long long m[4] = {mine.executed, mine.channel_executed, mine.sends,
                                          mine.cycles};
         for (unsigned i = 0; i < 4; i++) {
            row.brw[i] = b[i];
            row.ibis[i] = m[i];
         }
         rows.push_back(row);
      }
   }
   for (const auto &[k, t] : all)
      print_tally(k, t);
   if (o.with_ibis) {
      for (const auto &[k, t] : ibis_all)
         print_tally("ibis " + k, t);
      printf("executed on the same inputs, programs both matched (brw -> ibis):\n");
      for (const auto &[k, p] : pairs) {
         auto pct = [](unsigned long long a, unsigned long long b) {
            return a ? 100.0 * (double(b) - double(a)) / double(a) : 0.0;
         };
         printf("%-15s %4u programs: instructions %llu -> %llu (%+.1f%%), "
                "channel-instructions %llu -> %llu (%+.1f%%), sends %llu -> %llu (%+.1f%%)\n",
                k.c_str(), p.programs, p.brw[0], p.ibis[0], pct(p.brw[0], p.ibis[0]), p.brw[1],
                p.ibis[1], pct(p.brw[1], p.ibis[1]), p.brw[2], p.ibis[2],
                pct(p.brw[2], p.ibis[2]));
      }
      printf("words covered, programs both matched (interpreter vs brw, interpreter vs "
             "ibis, brw vs ibis bit for bit):\n");
      bool pair_clean = true;
      for (const auto &[k, c] : covered) {
         printf("%-15s %4u programs: interp/brw %llu (%llu within tolerance, %llu not "
                "compared), interp/ibis %llu (%llu, %llu), brw/ibis %llu: %llu the "
                "interpreter compared exactly (%llu differ), %llu it did not or within "
                "tolerance (%llu differ, %llu of them NaNs both, %zu programs)%s\n",
                k.c_str(), c.programs, c.interp[0][0], c.interp[0][1], c.interp[0][2],
                c.interp[1][0], c.interp[1][1], c.interp[1][2],
                (unsigned long long)(c.pair.exact + c.pair.loose),
                (unsigned long long)c.pair.exact, (unsigned long long)c.pair.exact_differ,
                (unsigned long long)c.pair.loose, (unsigned long long)c.pair.loose_differ,
                (unsigned long long)c.pair.loose_nan, c.loose_programs.size(),
                c.pair.misaligned ? strfmt(", %llu words not lined up",
                                           (unsigned long long)c.pair.misaligned).c_str()
                                  : "");
         for (const std::string &p : c.loose_programs)
            printf("   brw/ibis differ where the interpreter allowed it: %s\n", p.c_str());
         pair_clean &= c.failed_programs.empty();
      }
      printf("dynamic scoreboard (same inputs, programs both matched):\n%s",
             check::dynamic_scoreboard(rows).c_str());
      if (!o.dynamic_report.empty()) {
         std::ofstream out(o.dynamic_report);
         out << check::dynamic_rows_text(rows);
         if (!out)
            throw error(strfmt("%s: cannot write the dynamic report",
                               o.dynamic_report.c_str()));
      }
      if (o.expect_clean && !pair_clean)
         return 1;
   }
   return o.expect_clean && !(clean(all) && clean(ibis_all)) ? 1 : 0;
}

int
run_random(const options &o)
{
   std::vector<std::pair<std::string, nir::shader_stage>> stages;
   for (auto [n, st] : {std::pair{"vs", nir::shader_stage::vertex},
                        std::pair{"fs", nir::shader_stage::fragment},
                        std::pair{"cs", nir::shader_stage::compute}}) {
      if (o.stages == "all" || o.stages == n)
         stages.push_back({n, st});
   }
   if (stages.empty())
      throw error("ibis-check: --stage takes vs, fs, cs or all");
   std::map<std::string, tally> all;
   for (const auto &[name, st] : stages) {
      for (uint64_t seed = o.first_seed; seed <= o.last_seed; seed++) {
         nir::random_options ro;
         ro.seed = seed;
         ro.stage = st;
         /* Odd seeds keep the approximate operations (their outputs get a
          * tolerance or are skipped), even seeds are exact throughout.
          */
         const bool exact = o.exact || seed % 2 == 0;
         ro.approximate = !exact;
         std::unique_ptr<nir::shader> s = nir::generate(ro);
         for (unsigned w : widths_for(st, o)) {
            outcome r = check::run_isolated(*s, w, seed, o.sets, o.timeout);
            std::string what = strfmt("random %s seed %llu", name.c_str(),
                                      (unsigned long long)seed);
            std::string repro;
            if (r.k == outcome::mismatch || r.k == outcome::sim_error ||
                r.k == outcome::crashed || r.k == outcome::timed_out) {
               fs::create_directories(o.save);
               std::string file = strfmt("%s/random-%s-%llu%s.nir", o.save.c_str(), name.c_str(),
                                         (unsigned long long)seed, exact ? "-exact" : "");
               FILE *f = fopen(file.c_str(), "w");
               if (f) {
                  fputs(nir::print_shader(*s).c_str(), f);
                  fclose(f);
               }
               repro = strfmt("ibis-nir-random --seed %llu --stage %s%s > %s; ",
                              (unsigned long long)seed, name.c_str(),
                              exact ? " --exact" : "", file.c_str()) +
                       check::repro_command(file, w, seed, r.input_set + 1);
            }
            record(all[strfmt("%s SIMD%u", name.c_str(), w)], r, what, w, repro, o);
         }
      }
   }
   for (const auto &[k, t] : all)
      print_tally(k, t);
   return o.expect_clean && !clean(all) ? 1 : 0;
}

void
usage(FILE *f)
{
   fprintf(f,
      "usage: ibis-check corpus [--dir D | --corpus NAME] [--every N] [--simd LIST]\n"
      "                         [--sets K] [--skip SUBSTR:LIST]...\n"
      "       ibis-check random [--stage vs|fs|cs|all] [--seeds A-B] [--simd LIST]\n"
      "                         [--sets K] [--exact]\n"
      "Random: even seeds are generated --exact, odd seeds with the approximate\n"
      "operations; --exact makes all of them exact.\n"
      "       ibis-check brw [--dir D] [--every N] [--simd LIST] [--sets K] [--with-ibis]\n"
      "                      [--dynamic-report FILE] [--list-differ]\n"
      "       common: [--save DIR] [--timeout S] [--quiet] [--expect-clean]\n"
      "               [--known-failures FILE]\n"
      "\n"
      "Compiles each shader at each width (VS: 8; LIST default 8,16,32), runs it\n"
      "on the simulator with K input sets (default 4) and compares with the NIR\n"
      "interpreter (docs/check.md).  The corpus is --dir D, or NAME under the\n"
      "shared data's corpus/ (IBIS_SHARED_DIR, default ../shared): skl (the\n"
      "default, Mesa 23.3's NIR) or skl-mesa25 (Mesa 25.0's).\n"
      "Prints every failure with an ibis-run command\n"
      "that reproduces it, then per stage and width: variants, compiled, matched,\n"
      "mismatched, crashed, rejected.  Random programs that fail are saved in\n"
      "--save DIR (default check-failures).  --skip leaves out (and counts as\n"
      "skipped) the corpus variants at the widths of LIST whose path contains\n"
      "SUBSTR.  --known-failures FILE lists variants, one a line as the output\n"
      "names them (\"random fs seed 29 SIMD8\"), whose failure --expect-clean\n"
      "accepts; a listed variant that matches fails it.\n"
      "\n"
      "brw: runs brw's programs of the corpus (D/brw-asm/, every N-th of the\n"
      "widths in LIST) on the same input sets, laid out as D/brw-abi/ says, and\n"
      "compares with the interpreter; the summary is per stage and width, brw's\n"
      "discarded SIMD32 programs (.do32) apart.  --with-ibis also checks ibis's\n"
      "program of each, compiled under the same brw-abi file (same width, same\n"
      "inputs), holds brw's and ibis's output words to each other bit for bit,\n"
      "prints the words each comparison covers and the dynamic scoreboard\n"
      "(executed instructions, channel-instructions, sends, estimated cycles,\n"
      "helped/hurt, the 10 worst); --dynamic-report FILE writes its per-program\n"
      "rows, tab-separated; --list-differ prints every word brw's and ibis's\n"
      "programs differ in (input set, output:channel, the interpreter's classes,\n"
      "brw's value, ibis's, the interpreter's).\n");
}

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   options o;
   try {
      for (int i = 1; i < argc; i++) {
         std::string a = argv[i];
         auto value = [&]() -> std::string {
            if (i + 1 >= argc)
               throw error(strfmt("option '%s' needs a value", a.c_str()));
            return argv[++i];
         };
         if (a == "corpus" || a == "random" || a == "brw")
            o.mode = a;
         else if (a == "--dir")
            o.dir = value();
         else if (a == "--corpus")
            o.corpus = value();
         else if (a == "--every")
            o.every = std::max(1, atoi(value().c_str()));
         else if (a == "--sets")
            o.sets = std::max(1, atoi(value().c_str()));
         else if (a == "--stage")
            o.stages = value();
         else if (a == "--exact")
            o.exact = true;
         else if (a == "--save")
            o.save = value();
         else if (a == "--timeout")
            o.timeout = unsigned(std::max(1, atoi(value().c_str())));
         else if (a == "--quiet")
            o.quiet = true;
         else if (a == "--expect-clean")
            o.expect_clean = true;
         else if (a == "--with-ibis")
            o.with_ibis = true;
         else if (a == "--list-differ")
            o.list_differ = true;
         else if (a == "--dynamic-report")
            o.dynamic_report = value();
         else if (a == "--known-failures")
            o.known = read_known_failures(value());
         else if (a == "--simd") {
            o.widths = parse_widths(value());
         } else if (a == "--skip") {
            std::string v = value();
            size_t c = v.rfind(':');
            if (c == std::string::npos || c == 0)
               throw error("--skip takes SUBSTR:LIST, e.g. dolphin/ubershaders/:32");
            o.skips.push_back({v.substr(0, c), parse_widths(v.substr(c + 1))});
         } else if (a == "--seeds") {
            std::string v = value();
            size_t d = v.find('-');
            o.first_seed = strtoull(v.c_str(), nullptr, 10);
            o.last_seed = d == std::string::npos ? o.first_seed
                                                 : strtoull(v.c_str() + d + 1, nullptr, 10);
         } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
         } else {
            usage(stderr);
            return 1;
         }
      }
      if (!o.dir.empty() && !o.corpus.empty())
         throw error("give --dir or --corpus, not both");
      if (o.corpus.find('/') != std::string::npos || o.corpus == "..")
         throw error("--corpus takes a name under the shared corpus/ (skl, skl-mesa25); "
                     "a path goes to --dir");
      if (o.mode == "corpus")
         return run_corpus(o);
      if (o.mode == "random")
         return run_random(o);
      if (o.mode == "brw")
         return run_brw(o);
      usage(stderr);
      return 1;
   } catch (const error &e) {
      fprintf(stderr, "ibis-check: %s\n", e.what());
      return 1;
   }
}
