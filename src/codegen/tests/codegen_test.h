/*
 * Helpers for code generation tests: allocated IR text in, disassembly
 * out, with whitespace runs collapsed so expectations can be aligned.
 */
#pragma once

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "dev/ibis_device.h"
#include "ir/ibis_text.h"
#include "isa/isa.h"
#include "util/ibis_error.h"

namespace ibis::test {

static inline const device_info &
skl()
{
   return device_by_name("skl");
}

static inline codegen_result
generate(const std::string &ir)
{
   std::unique_ptr<shader> s = parse_shader(ir);
   return generate_code(*s, skl());
}

/* Every line trimmed, whitespace runs as one space, blank lines gone. */
static inline std::string
normalize_asm(const std::string &text)
{
   std::istringstream in(text);
   std::string line, out;
   while (std::getline(in, line)) {
      std::string l;
      bool space = false;
      for (char c : line) {
         if (c == ' ' || c == '\t') {
            space = !l.empty();
            continue;
         }
         if (space)
            l += ' ';
         space = false;
         l += c;
      }
      if (!l.empty())
         out += l + "\n";
   }
   return out;
}

/* The program's disassembly assembles back to its bytes. */
static inline ::testing::AssertionResult
assembles_back(const codegen_result &r)
{
   std::vector<uint8_t> again = isa::assemble(r.disasm, isa::gen::gen9, true);
   if (again == r.binary)
      return ::testing::AssertionSuccess();
   return ::testing::AssertionFailure()
          << "reassembled " << again.size() << " bytes differ from the "
          << r.binary.size() << " generated:\n" << r.disasm;
}

/* Generates code for ir and compares its disassembly with expected; also
 * checks that the disassembly assembles back to the same bytes.
 */
static inline ::testing::AssertionResult
check_asm(const std::string &ir, const std::string &expected)
{
   codegen_result r;
   try {
      r = generate(ir);
   } catch (const error &e) {
      return ::testing::AssertionFailure() << "error: " << e.what();
   }
   std::string got = normalize_asm(r.disasm), want = normalize_asm(expected);
   if (got != want)
      return ::testing::AssertionFailure()
             << "expected:\n" << want << "got:\n" << got;
   return assembles_back(r);
}

/* The error code generation gives for ir ("" if none). */
static inline std::string
codegen_error(const std::string &ir)
{
   try {
      generate(ir);
   } catch (const error &e) {
      return e.what();
   }
   return "";
}

} /* namespace ibis::test */
