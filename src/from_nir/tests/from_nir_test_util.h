/*
 * Helpers for from_nir tests: NIR text in (an impl body wrapped into a
 * shader of the given stage), ibis IR text out, matched against an inline
 * expectation with ibis::testing::match_ir.
 */
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "from_nir/from_nir.h"
#include "ir/ibis_text.h"
#include "ir/testing/ibis_check.h"
#include "util/ibis_error.h"

namespace ibis::test {

/* A shader of stage "vs", "fs" or "cs" (workgroup 8x4x1) whose main is
 * body: the lines after "block b0:", up to and including the end block.
 */
static inline std::string
nir_shader(const std::string &stage, const std::string &body, unsigned uniform_bytes = 0)
{
   std::string h = stage == "vs" ? "shader: MESA_SHADER_VERTEX\nstage: 0\n"
                 : stage == "fs" ? "shader: MESA_SHADER_FRAGMENT\nstage: 4\n"
                                 : "shader: MESA_SHADER_COMPUTE\nstage: 5\n"
                                   "workgroup-size: 8, 4, 1\n";
   return h + "divergence_analysis_run: true\ninputs: 0\noutputs: 0\nuniforms: " + std::to_string(uniform_bytes) +
          "\ndecl_function main (0 params)\n\nimpl main {\n    block b0:\n" +
          testing::dedent(body) + "\n}\n";
}

static inline std::unique_ptr<shader>
translate(const std::string &stage, unsigned width, const std::string &body,
          unsigned uniform_bytes = 0)
{
   auto s = nir::read_shader(nir_shader(stage, body, uniform_bytes), "test.nir");
   from_nir_options o;
   o.dispatch_width = width;
   return from_nir(*s, o);
}

/* The translation of body matches expected (which starts at "shader"). */
static inline ::testing::AssertionResult
translates_to(const std::string &stage, unsigned width, const std::string &body,
              const std::string &expected, unsigned uniform_bytes = 0)
{
   std::string actual;
   try {
      actual = translate(stage, width, body, uniform_bytes)->str();
   } catch (const error &e) {
      return ::testing::AssertionFailure() << "translation failed: " << e.what();
   }
   std::string diff = testing::match_ir(testing::dedent(expected), actual);
   if (diff.empty())
      return ::testing::AssertionSuccess();
   return ::testing::AssertionFailure() << diff << "\nactual:\n" << actual;
}

/* The same shader as Mesa 25.0 prints it (the body in 25.0's forms). */
static inline std::string
nir_shader25(const std::string &stage, const std::string &body)
{
   std::string h = stage == "vs" ? "shader: MESA_SHADER_VERTEX\n"
                 : stage == "fs" ? "shader: MESA_SHADER_FRAGMENT\n"
                                 : "shader: MESA_SHADER_COMPUTE\n"
                                   "workgroup_size: 8, 4, 1\n";
   return h + "divergence_analysis_run: true\ndecl_function main () (entrypoint)\n\n"
              "impl main {\n    con block b0:\n" + testing::dedent(body) + "\n}\n";
}

/* translates_to() for a body in 25.0's print; push_ubos false pulls every
 * UBO load.
 */
static inline ::testing::AssertionResult
translates_to25(const std::string &stage, unsigned width, const std::string &body,
                const std::string &expected, bool push_ubos = true)
{
   std::string actual;
   try {
      auto s = nir::read_shader(nir_shader25(stage, body), "test.nir");
      if (s->dialect != nir::print_dialect::mesa_25_0)
         return ::testing::AssertionFailure() << "not read as 25.0's print";
      nir::validate(*s);
      from_nir_options o;
      o.dispatch_width = width;
      o.auto_push_ubos = push_ubos;
      actual = from_nir(*s, o)->str();
   } catch (const error &e) {
      return ::testing::AssertionFailure() << "translation failed: " << e.what();
   }
   std::string diff = testing::match_ir(testing::dedent(expected), actual);
   if (diff.empty())
      return ::testing::AssertionSuccess();
   return ::testing::AssertionFailure() << diff << "\nactual:\n" << actual;
}

/* The message of the ibis::error translating body throws, or "". */
static inline std::string
translation_error(const std::string &stage, unsigned width, const std::string &body)
{
   try {
      translate(stage, width, body);
   } catch (const error &e) {
      return e.what();
   }
   return "";
}

} /* namespace ibis::test */
