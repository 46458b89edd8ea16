/*
 * libFuzzer target for the whole pipeline: any input that reads and
 * validates as NIR is compiled at every width it may dispatch at; the
 * result must be a compiled variant with code or an ibis::error.  An
 * internal error or any other exception aborts (a crash or a sanitizer
 * report is the fuzzer's own finding).
 *
 * Byte-level mutations of NIR text seldom read back as valid NIR, so the
 * custom mutator mostly makes structural edits of a line (as the
 * check_pipeline_mutation test does, and more): drop, repeat or swap
 * instruction lines, rename a source, exchange an opcode for another of
 * the same shape, give a constant an edge-case value, change a bit size;
 * one mutation in four is libFuzzer's own.
 *
 * Build with -Dfuzzers=true (clang); run as docs/check.md says, e.g.:
 *    build-fuzz/src/check/check_fuzz -max_len=16384 -timeout=60 CORPUS_DIR
 */
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "util/ibis_error.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

namespace {

std::vector<std::string>
split_lines(const std::string &text)
{
   std::vector<std::string> out;
   std::istringstream in(text);
   std::string l;
   while (std::getline(in, l))
      out.push_back(l);
   return out;
}

bool
is_instr(const std::string &l)
{
   return l.find(" = ") != std::string::npos || l.find('@') != std::string::npos;
}

/* Opcodes grouped by shape: one may stand for another of its group. */
const std::vector<std::vector<const char *>> opcode_groups = {
   {"fadd", "fmul", "fmin", "fmax", "fsub", "fpow", "fdiv", "fmod", "frem"},
   {"iadd", "isub", "imul", "iand", "ior", "ixor", "imin", "imax", "umin", "umax",
    "ishl", "ishr", "ushr", "idiv", "udiv", "irem", "imod", "umod", "umul_high",
    "imul_high", "iadd_sat", "uadd_sat", "isub_sat", "usub_sat", "uhadd", "ihadd"},
   {"flt32", "fge32", "feq32", "fneu32", "ilt32", "ige32", "ieq32", "ine32", "ult32",
    "uge32"},
   {"fneg", "fabs", "fsat", "fsign", "ffloor", "fceil", "ftrunc", "ffract",
    "fround_even", "frcp", "frsq", "fsqrt", "fexp2", "flog2", "fsin", "fcos"},
   {"ineg", "iabs", "inot", "isign", "bit_count", "bitfield_reverse", "ufind_msb",
    "ifind_msb", "find_lsb", "uclz"},
   {"f2i32", "f2u32", "i2f32", "u2f32", "f2f16", "f2f32", "i2i16", "i2i32", "u2u16",
    "u2u32", "f2i16", "f2u16", "i2f16", "u2f16", "f2f64", "i2i64", "u2u64", "b2f32",
    "b2i32"},
   {"b32csel", "fcsel", "bcsel", "ffma", "flrp", "bitfield_select", "ubfe", "ibfe"},
};

const char *const edge_constants[] = {
   "0x00000000", "0x80000000", "0x3f800000", "0xbf800000", "0x7f800000",
   "0xff800000", "0x7fc00000", "0x00000001", "0x007fffff", "0xffffffff",
   "0x7fffffff", "0x0000001f", "0x00000020", "0x00008000", "0x00007c00",
   "0x0000ffff", "0x00000003", "0x00000010",
};

/* Appends a random edit of TEXT to OUT; false if none applies. */
bool
structural_mutation(const std::string &text, std::mt19937 &r, std::string *out)
{
   std::vector<std::string> lines = split_lines(text);
   std::vector<size_t> instrs;
   for (size_t i = 0; i < lines.size(); i++) {
      if (is_instr(lines[i]))
         instrs.push_back(i);
   }
   if (instrs.empty())
      return false;
   const size_t a = instrs[r() % instrs.size()], b = instrs[r() % instrs.size()];
   std::string &l = lines[a];
   switch (r() % 8) {
   case 0:
      lines.erase(lines.begin() + a);
      break;
   case 1:
      lines.insert(lines.begin() + a, lines[a]);
      break;
   case 2:
      std::swap(lines[a], lines[b]);
      break;
   case 3: {
      /* A source %N of line a becomes the def of line b. */
      size_t eq = l.find(" = ");
      size_t p = l.find('%', eq == std::string::npos ? 0 : eq + 3);
      size_t q = lines[b].find('%');
      if (p == std::string::npos || q == std::string::npos)
         return false;
      size_t pe = p + 1, qe = q + 1;
      while (pe < l.size() && isdigit((unsigned char)l[pe]))
         pe++;
      while (qe < lines[b].size() && isdigit((unsigned char)lines[b][qe]))
         qe++;
      l.replace(p, pe - p, lines[b].substr(q, qe - q));
      break;
   }
   case 4:
   case 5: {
      /* An opcode for another of its group. */
      size_t eq = l.find(" = ");
      if (eq == std::string::npos)
         return false;
      size_t s = eq + 3, e = l.find(' ', s);
      std::string op = l.substr(s, e == std::string::npos ? std::string::npos : e - s);
      for (const auto &g : opcode_groups) {
         for (const char *name : g) {
            if (op == name) {
               l.replace(s, op.size(), g[r() % g.size()]);
               goto done;
            }
         }
      }
      return false;
   }
   case 6: {
      /* A load_const's first value gets an edge case. */
      size_t p = l.find("load_const (0x");
      if (p == std::string::npos)
         return false;
      p += strlen("load_const (");
      size_t e = p + 2;
      while (e < l.size() && isxdigit((unsigned char)l[e]))
         e++;
      std::string v = edge_constants[r() % (sizeof(edge_constants) / sizeof(*edge_constants))];
      /* Keep the constant's width: as many digits as it had. */
      size_t digits = e - p - 2;
      if (digits < 8)
         v = "0x" + v.substr(10 - digits);
      l.replace(p, e - p, v);
      break;
   }
   case 7: {
      /* A def's bit size for another. */
      static const char *const sizes[] = {"1", "8", "16", "32", "64"};
      for (const char *from : {" 32 ", " 16 ", " 64 ", " 32x", " 16x", " 1 "}) {
         size_t p = l.find(from);
         if (p != std::string::npos && p < l.find(" = ")) {
            size_t n = strlen(from) - 2;
            l.replace(p + 1, n, sizes[r() % 5]);
            goto done;
         }
      }
      return false;
   }
   }
done:
   out->clear();
   for (const std::string &x : lines) {
      *out += x;
      *out += '\n';
   }
   return true;
}

} /* anonymous namespace */

extern "C" size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
   std::mt19937 r(seed);
   if (r() % 4 != 0) {
      const std::string text(reinterpret_cast<const char *>(data), size);
      std::string out;
      for (unsigned tries = 0; tries < 4; tries++) {
         if (structural_mutation(text, r, &out) && out.size() <= max_size) {
            memcpy(data, out.data(), out.size());
            return out.size();
         }
      }
   }
   return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const std::string text(reinterpret_cast<const char *>(data), size);
   std::unique_ptr<ibis::nir::shader> s;
   try {
      s = ibis::nir::read_shader(text, "fuzz.nir");
      ibis::nir::validate(*s);
   } catch (const ibis::internal_error &) {
      std::abort();
   } catch (const ibis::error &) {
      return 0;
   }
   const bool vs = s->info.stage == ibis::nir::shader_stage::vertex;
   for (unsigned w : {8u, 16u, 32u}) {
      if (vs && w != 8)
         break;
      try {
         ibis::compiled_variant v = ibis::compile_variant(*s, w, ibis::compile_options());
         if (v.compiled && v.binary.empty())
            std::abort();
      } catch (const ibis::internal_error &) {
         std::abort();
      } catch (const ibis::error &) {
         /* Diagnosed: fine. */
      } catch (...) {
         std::abort();
      }
   }
   return 0;
}
