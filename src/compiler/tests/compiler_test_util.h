/*
 * Helpers for the compiler driver's tests: a NIR shader from an impl body,
 * and a compile of it.
 */
#pragma once

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "compiler/compiler.h"
#include "ir/testing/ibis_check.h"
#include "util/ibis_error.h"

namespace ibis::test {

/* A shader of stage "vs", "fs" or "cs" (workgroup 8x4x1) whose main is
 * body: the lines after "block b0:", up to and including the end block.
 */
static inline std::string
nir_text(const std::string &stage, const std::string &body,
         unsigned uniform_bytes = 0)
{
   std::string h = stage == "vs" ? "shader: MESA_SHADER_VERTEX\nstage: 0\n"
                 : stage == "fs" ? "shader: MESA_SHADER_FRAGMENT\nstage: 4\n"
                                 : "shader: MESA_SHADER_COMPUTE\nstage: 5\n"
                                   "workgroup-size: 8, 4, 1\n";
   return h + "divergence_analysis_run: true\ninputs: 0\noutputs: 0\nuniforms: " +
          std::to_string(uniform_bytes) +
          "\ndecl_function main (0 params)\n\nimpl main {\n    block b0:\n" +
          testing::dedent(body) + "\n}\n";
}

static inline std::unique_ptr<nir::shader>
read_nir(const std::string &stage, const std::string &body,
         unsigned uniform_bytes = 0)
{
   auto s = nir::read_shader(nir_text(stage, body, uniform_bytes), "test.nir");
   nir::validate(*s);
   return s;
}

/* The bits of a float as NIR's load_const prints them. */
static inline std::string
float_bits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   char buf[16];
   snprintf(buf, sizeof(buf), "0x%08x", u);
   return buf;
}

/* An FS whose n products x * c_i are all live at once: they are summed,
 * and each is used again with the sum, so no schedule keeps fewer than n
 * values (2n GRFs at SIMD16) live.
 */
static inline std::string
pressure_fs(unsigned n)
{
   std::string b =
      "div 32x2 %0 = @load_barycentric_pixel () (interp_mode=1)\n"
      "con 32 %1 = load_const (0x00000000)\n"
      "div 32 %2 = @load_interpolated_input (%0, %1 (0x0)) (base=0, component=0, "
      "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n";
   unsigned id = 3;
   std::vector<unsigned> v;
   for (unsigned i = 0; i < n; i++) {
      b += "con 32 %" + std::to_string(id) + " = load_const (" +
           float_bits(1.0f + 0.5f * float(i)) + ")\n";
      b += "div 32 %" + std::to_string(id + 1) + " = fmul %2, %" +
           std::to_string(id) + "\n";
      v.push_back(id + 1);
      id += 2;
   }
   unsigned sum = v[0];
   for (unsigned i = 1; i < n; i++) {
      b += "div 32 %" + std::to_string(id) + " = fadd %" + std::to_string(sum) +
           ", %" + std::to_string(v[i]) + "\n";
      sum = id++;
   }
   unsigned acc = 0;
   for (unsigned i = 0; i < n; i++) {
      b += "div 32 %" + std::to_string(id) + " = fmul %" + std::to_string(v[i]) +
           ", %" + std::to_string(sum) + "\n";
      const unsigned prod = id++;
      if (i == 0) {
         acc = prod;
      } else {
         b += "div 32 %" + std::to_string(id) + " = fadd %" + std::to_string(acc) +
              ", %" + std::to_string(prod) + "\n";
         acc = id++;
      }
   }
   const std::string a = std::to_string(acc);
   b += "div 32x4 %" + std::to_string(id) + " = vec4 %" + a + ", %" + a + ", %" + a +
        ", %" + a + "\n";
   b += "@store_output (%" + std::to_string(id) + ", %1 (0x0)) (base=0, range=1, "
        "wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_DATA0 "
        "slots=1, xfb(), xfb2())\n";
   b += "block b1:\n";
   return b;
}

static inline const compiled_variant *
variant(const compile_result &r, unsigned simd)
{
   for (const compiled_variant &v : r.variants) {
      if (v.simd == simd)
         return &v;
   }
   return nullptr;
}

} /* namespace ibis::test */
