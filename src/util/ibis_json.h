/*
 * A small JSON reader for the driver-ABI files brw's corpus comes with
 * (docs/compiler.md, "Driver ABI"): objects, arrays, strings, numbers,
 * booleans and null.  Errors are ibis::error with file:line:col.
 */
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "util/ibis_error.h"

namespace ibis::json {

enum class kind : uint8_t { null, boolean, number, string, array, object };

struct value {
   kind k = kind::null;
   bool b = false;
   double n = 0;
   std::string s;
   std::vector<value> items;                      /* array */
   std::vector<std::pair<std::string, value>> members;   /* object, in order */
   source_loc loc;

   /* A member of an object; null when absent or when this is no object. */
   const value *find(const std::string &key) const;
   /* The member, or an error naming the file and the key. */
   const value &at(const std::string &key) const;
   const value &at(size_t i) const;

   /* Typed reads; a wrong type is an error at this value's position. */
   int64_t as_int() const;
   bool as_bool() const;
   const std::string &as_string() const;
   /* A number, or a string "0x..." (brw-abi's 64-bit masks). */
   uint64_t as_mask() const;
   const std::vector<value> &as_array() const;
};

/* Parses text (from filename, for messages). */
value parse(const std::string &text, const std::string &filename);

/* Does text look like JSON (its first non-blank character is '{')? */
bool looks_like_json(const std::string &text);

} /* namespace ibis::json */
