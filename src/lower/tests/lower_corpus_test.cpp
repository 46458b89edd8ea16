/*
 * Every corpus shader, at every width (VS SIMD8; FS SIMD8, SIMD16 and
 * SIMD32), goes through from_nir, the optimization pipeline of
 * bin/ibis-compile and lower(), and the lowered validator accepts it.
 * For each variant brw compiled, the test counts how many of ibis's send
 * descriptors also occur among the descriptors of brw's program for that
 * variant (brw-asm/<game>/<name>.<stage>.simd<W>*.asm; the EOT bit 31 of
 * a plain send's descriptor is not part of the message and is ignored).
 */
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "from_nir/from_nir.h"
#include "ir/ibis_pass.h"
#include "ir/ibis_validate.h"
#include "lower/lower.h"
#include "nir/nir.h"
#include "opt/opt.h"
#include "util/ibis_error.h"
#include "util/ibis_test.h"

using namespace ibis;

namespace {

const char *const opt_pipeline =
   "copy-prop,cse,algebraic,constant-fold,copy-prop,dce";

/* The immediate descriptors of brw's sends in one .asm file. */
std::set<uint32_t>
brw_descriptors(const std::string &path)
{
   std::set<uint32_t> out;
   std::ifstream f(path);
   std::string line;
   while (std::getline(f, line)) {
      /* A predicate, "(+f1.0) sendc(16) ...", comes first. */
      if (!line.empty() && line[0] == '(') {
         const size_t end = line.find(')');
         if (end == std::string::npos)
            continue;
         line = line.substr(line.find_first_not_of(' ', end + 1));
      }
      if (line.compare(0, 4, "send") != 0)
         continue;
      const bool split = line.compare(0, 5, "sends") == 0;
      std::vector<uint32_t> hex;
      std::stringstream ss(line);
      std::string tok;
      while (ss >> tok) {
         if (tok.size() == 10 && tok.compare(0, 2, "0x") == 0)
            hex.push_back(std::stoul(tok, nullptr, 16));
      }
      if (hex.empty())
         continue;   /* an indirect descriptor */
      /* send: ... desc; sends: ... desc ex_desc. */
      uint32_t d = split ? hex.size() >= 2 ? hex[hex.size() - 2] : hex[0]
                         : hex.back();
      out.insert(split ? d : d & 0x7fffffffu);
   }
   return out;
}

std::string
brw_asm_path(const std::string &dir, const std::string &key,
             const std::string &stage, unsigned w)
{
   const std::string prefix = key + "." + stage + ".simd" + std::to_string(w);
   for (const char *suffix : {".asm", ".do32.asm"}) {
      const std::string p = dir + "/brw-asm/" + prefix + suffix;
      std::ifstream f(p);
      if (f.good())
         return p;
   }
   return std::string();
}

} /* anonymous namespace */

TEST(lower_corpus, every_shader_every_width)
{
   IBIS_REQUIRE_SHARED(dir, "corpus/skl");
   register_opt_passes();
   const device_info &dev = device_by_name("skl");
   std::vector<std::string> files;
   for (const std::string &f : ibis::test::list_files(dir, ".nir"))
      files.push_back(f.substr(dir.size() + 1));
   ASSERT_GT(files.size(), 800u);

   struct count {
      unsigned ok = 0, total = 0;
   };
   std::map<std::string, count> counts;
   std::vector<std::string> failures;
   unsigned ibis_descs = 0, matched = 0, sends = 0;
   std::map<std::string, unsigned> rules;
   std::map<std::string, std::string> examples;

   for (const std::string &rel : files) {
      const std::string stage = rel.find(".vs.nir") != std::string::npos ? "vs" : "fs";
      const std::string key = rel.substr(0, rel.size() - 7);
      std::unique_ptr<nir::shader> s;
      try {
         s = nir::read_shader_file(dir + "/" + rel);
      } catch (const error &e) {
         failures.push_back(rel + ": " + e.what());
         continue;
      }
      const std::vector<unsigned> widths =
         stage == "vs" ? std::vector<unsigned>{8} : std::vector<unsigned>{8, 16, 32};
      for (unsigned w : widths) {
         const std::string label =
            strfmt("%s SIMD%u", stage == "vs" ? "VS" : "FS", w);
         count &c = counts[label];
         c.total++;
         std::unique_ptr<shader> ir;
         try {
            from_nir_options o;
            o.dispatch_width = w;
            o.device = &dev;
            ir = from_nir(*s, o);
            run_passes(*ir, opt_pipeline);
            lower(*ir, dev);
            const char *dump = std::getenv("IBIS_LOWER_CORPUS_DUMP");
            if (dump && rel == dump)
               printf("; %s\n%s", label.c_str(), ir->str().c_str());
            std::vector<std::string> errors = validate_errors(*ir);
            for (const std::string &e : errors) {
               size_t b = e.rfind('[');
               const std::string r = b == std::string::npos ? e : e.substr(b);
               if (!rules[r]++)
                  examples[r] = e;
            }
            if (!errors.empty())
               throw error(errors[0]);
            c.ok++;
         } catch (const error &e) {
            failures.push_back(label + " " + rel + ": " + e.what());
            continue;
         }

         /* Descriptors against brw's program for the same variant. */
         const std::string asm_path = brw_asm_path(dir, key, stage, w);
         if (asm_path.empty())
            continue;
         const std::set<uint32_t> brw = brw_descriptors(asm_path);
         unsigned mine = 0, found = 0;
         for (const auto &b : ir->blocks()) {
            for (const instr *in : b->instrs()) {
               if (in->op != opcode::send)
                  continue;
               sends++;
               if (!in->src(1).is_imm())
                  continue;
               mine++;
               const uint32_t d = uint32_t(in->src(1).imm);
               found += brw.count(d);
               if (!brw.count(d) && std::getenv("IBIS_LOWER_CORPUS_MISSES"))
                  printf("miss %s %s sfid %u desc 0x%08x\n", rel.c_str(),
                         label.c_str(), unsigned(in->src(0).imm), d);
            }
         }
         ibis_descs += mine;
         matched += found;
         if (std::getenv("IBIS_LOWER_CORPUS_VERBOSE"))
            printf("%s %s: %u of %u\n", rel.c_str(), label.c_str(), found, mine);
      }
   }

   std::string line;
   for (const char *label : {"VS SIMD8", "FS SIMD8", "FS SIMD16", "FS SIMD32"}) {
      count c = counts[label];
      line += strfmt("%s%s %u/%u", line.empty() ? "" : ", ", label, c.ok, c.total);
   }
   printf("lowered and valid: %s\n", line.c_str());
   printf("%u sends; %u of %u ibis send descriptors occur in brw's program\n",
          sends, matched, ibis_descs);
   for (const auto &r : rules)
      printf("   %u x %s, e.g. %s\n", r.second, r.first.c_str(),
             examples[r.first].c_str());
   EXPECT_GT(ibis_descs, 0u);

   std::string report;
   for (size_t i = 0; i < failures.size() && i < 8; i++)
      report += "\n   " + failures[i];
   EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first ones:" << report;
}
