/*
 * Helpers shared by the isa tests: reading the assembler test vectors.
 */
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "util/ibis_test.h"

namespace ibis::isa::test {

static inline std::string
read_file(const std::string &path)
{
   std::ifstream in(path, std::ios::binary);
   std::stringstream s;
   s << in.rdbuf();
   return s.str();
}

using ibis::test::list_files;

/* An .expected file: one instruction a line, as hex bytes. */
static inline std::vector<std::vector<uint8_t>>
read_expected(const std::string &path)
{
   std::vector<std::vector<uint8_t>> insts;
   std::istringstream lines(read_file(path));
   std::string line;
   while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string w;
      std::vector<uint8_t> bytes;
      while (words >> w)
         bytes.push_back(uint8_t(std::stoul(w, nullptr, 16)));
      if (!bytes.empty())
         insts.push_back(bytes);
   }
   return insts;
}

static inline native
to_native(const std::vector<uint8_t> &b)
{
   native n = { 0, 0 };
   for (size_t i = 0; i < 16 && i < b.size(); i++)
      n[i / 8] |= uint64_t(b[i]) << (8 * (i % 8));
   return n;
}

/* Splits assembler output into instructions (8 or 16 bytes each). */
static inline std::vector<std::vector<uint8_t>>
split(const std::vector<uint8_t> &bytes)
{
   std::vector<std::vector<uint8_t>> out;
   size_t i = 0;
   while (i + 8 <= bytes.size()) {
      size_t len = (bytes[i + 3] >> 5) & 1 ? 8 : 16;   /* CmptCtrl, bit 29 */
      len = std::min(len, bytes.size() - i);
      out.emplace_back(bytes.begin() + i, bytes.begin() + i + len);
      i += len;
   }
   return out;
}

static inline std::string
hex(const std::vector<uint8_t> &b)
{
   std::string s;
   char buf[4];
   for (uint8_t v : b) {
      snprintf(buf, sizeof(buf), s.empty() ? "%02x" : " %02x", v);
      s += buf;
   }
   return s;
}

} /* namespace ibis::isa::test */
