/*
 * Helpers for the interpreter tests: shaders from inline NIR text, float
 * words and buffers.
 */
#pragma once

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "nir/interp/nir_interp.h"
#include "nir/nir.h"

namespace ibis::nir::interp::testing {

/*
 * A shader of stage ("VERTEX", "FRAGMENT", "COMPUTE") whose main is body:
 * the text nir_print writes between "impl main {" and "}".  header holds
 * extra shader_info lines (after "shader:"), decls extra lines before
 * decl_function.  The shader is validated.
 */
inline std::unique_ptr<shader>
make_shader(const char *stage, const std::string &body,
            const std::string &header = "", const std::string &decls = "")
{
   const std::string text = std::string("shader: MESA_SHADER_") + stage +
                            "\n" + header +
                            "inputs: 0\noutputs: 0\nuniforms: 0\n" + decls +
                            "decl_function main (0 params)\n\nimpl main {\n" +
                            body + "}\n";
   std::unique_ptr<shader> s = read_shader(text, "test.nir");
   validate(*s);
   return s;
}

inline uint32_t
fw(float f)
{
   uint32_t w;
   std::memcpy(&w, &f, 4);
   return w;
}

inline float
wf(uint32_t w)
{
   float f;
   std::memcpy(&f, &w, 4);
   return f;
}

inline std::vector<uint8_t>
bytes(std::initializer_list<uint32_t> words)
{
   std::vector<uint8_t> b;
   for (uint32_t w : words) {
      for (unsigned i = 0; i < 4; i++)
         b.push_back(uint8_t(w >> (8 * i)));
   }
   return b;
}

inline uint32_t
word_at(const std::vector<uint8_t> &b, size_t i)
{
   uint32_t w = 0;
   for (unsigned k = 0; k < 4; k++)
      w |= uint32_t(b.at(4 * i + k)) << (8 * k);
   return w;
}

/* A store_output line: value def, 0-offset def, location, wrmask, type. */
inline std::string
store_output(const std::string &value, const std::string &zero,
             const std::string &loc, const std::string &mask = "x",
             const std::string &type = "uint32", unsigned component = 0)
{
   return "    @store_output (" + value + ", " + zero + " (0x0)) (base=0, range=1, "
          "wrmask=" + mask + ", component=" + std::to_string(component) +
          ", src_type=" + type + ", io location=" + loc +
          " slots=1, xfb(), xfb2())\n";
}

constexpr unsigned var0 = 32;  /* VARYING_SLOT_VAR0 */
constexpr unsigned data0 = 4;  /* FRAG_RESULT_DATA0 */

} /* namespace ibis::nir::interp::testing */
