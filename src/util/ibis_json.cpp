/*
 * The JSON reader (ibis_json.h): recursive descent over the text, with the
 * line and column of every value kept for messages.
 */
#include "util/ibis_json.h"

#include <cmath>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace ibis::json {

namespace {

const char *
kind_name(kind k)
{
   switch (k) {
   case kind::null: return "null";
   case kind::boolean: return "a boolean";
   case kind::number: return "a number";
   case kind::string: return "a string";
   case kind::array: return "an array";
   case kind::object: return "an object";
   }
   return "?";
}

struct parser {
   const std::string &t;
   source_loc loc;
   size_t i = 0;
   unsigned depth = 0;

   [[noreturn]] void fail(const std::string &msg) { throw error(loc, msg); }

   int peek() const { return i < t.size() ? (unsigned char)t[i] : -1; }

   void advance()
   {
      if (t[i] == '\n') {
         loc.line++;
         loc.col = 1;
      } else {
         loc.col++;
      }
      i++;
   }

   void skip_blank()
   {
      while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
         advance();
   }

   void expect(char c)
   {
      skip_blank();
      if (peek() != c)
         fail(std::string("expected '") + c + "'");
      advance();
   }

   void word(const char *w)
   {
      for (const char *p = w; *p; p++) {
         if (peek() != *p)
            fail(std::string("expected '") + w + "'");
         advance();
      }
   }

   std::string string()
   {
      expect('"');
      std::string out;
      for (;;) {
         int c = peek();
         if (c < 0 || c == '\n')
            fail("unterminated string");
         advance();
         if (c == '"')
            return out;
         if (c != '\\') {
            out += char(c);
            continue;
         }
         c = peek();
         if (c < 0)
            fail("unterminated string");
         advance();
         switch (c) {
         case 'n': out += '\n'; break;
         case 't': out += '\t'; break;
         case 'r': out += '\r'; break;
         case 'b': out += '\b'; break;
         case 'f': out += '\f'; break;
         case 'u': {
            unsigned v = 0;
            for (int k = 0; k < 4; k++) {
               int h = peek();
               if (h < 0 || !isxdigit(h))
                  fail("bad \\u escape");
               v = v * 16 + unsigned(isdigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
               advance();
            }
            /* The ABI files are ASCII; keep others as a byte each. */
            out += v < 0x80 ? char(v) : '?';
            break;
         }
         default: out += char(c); break;
         }
      }
   }

   value parse_value()
   {
      skip_blank();
      if (++depth > 64)
         fail("nested too deeply");
      value v;
      v.loc = loc;
      int c = peek();
      if (c == '{') {
         v.k = kind::object;
         advance();
         skip_blank();
         if (peek() == '}') {
            advance();
         } else {
            for (;;) {
               skip_blank();
               std::string key = string();
               expect(':');
               v.members.emplace_back(key, parse_value());
               skip_blank();
               if (peek() == ',') {
                  advance();
                  continue;
               }
               expect('}');
               break;
            }
         }
      } else if (c == '[') {
         v.k = kind::array;
         advance();
         skip_blank();
         if (peek() == ']') {
            advance();
         } else {
            for (;;) {
               v.items.push_back(parse_value());
               skip_blank();
               if (peek() == ',') {
                  advance();
                  continue;
               }
               expect(']');
               break;
            }
         }
      } else if (c == '"') {
         v.k = kind::string;
         v.s = string();
      } else if (c == 't') {
         word("true");
         v.k = kind::boolean;
         v.b = true;
      } else if (c == 'f') {
         word("false");
         v.k = kind::boolean;
      } else if (c == 'n') {
         word("null");
      } else if (c == '-' || (c >= '0' && c <= '9')) {
         size_t start = i;
         while (i < t.size() && (isdigit((unsigned char)t[i]) || strchr("+-.eE", t[i])))
            advance();
         std::string num = t.substr(start, i - start);
         char *end = nullptr;
         v.n = strtod(num.c_str(), &end);
         if (*end || !std::isfinite(v.n))
            fail("bad number '" + num + "'");
         v.k = kind::number;
      } else {
         fail(c < 0 ? "unexpected end of input" : "expected a value");
      }
      depth--;
      return v;
   }
};

} /* anonymous namespace */

const value *
value::find(const std::string &key) const
{
   for (const auto &[k, v] : members) {
      if (k == key)
         return &v;
   }
   return nullptr;
}

const value &
value::at(const std::string &key) const
{
   if (k != kind::object)
      throw error(loc, "expected an object with '" + key + "', got " + kind_name(k));
   const value *v = find(key);
   if (!v)
      throw error(loc, "missing '" + key + "'");
   return *v;
}

const value &
value::at(size_t idx) const
{
   const std::vector<value> &a = as_array();
   if (idx >= a.size())
      throw error(loc, strfmt("expected at least %zu elements", idx + 1));
   return a[idx];
}

int64_t
value::as_int() const
{
   if (k != kind::number || n != std::floor(n) || std::fabs(n) > 9.0e15)
      throw error(loc, std::string("expected an integer, got ") + kind_name(k));
   return int64_t(n);
}

bool
value::as_bool() const
{
   if (k != kind::boolean)
      throw error(loc, std::string("expected true or false, got ") + kind_name(k));
   return b;
}

const std::string &
value::as_string() const
{
   if (k != kind::string)
      throw error(loc, std::string("expected a string, got ") + kind_name(k));
   return s;
}

uint64_t
value::as_mask() const
{
   if (k == kind::number) {
      int64_t v = as_int();
      if (v < 0)
         throw error(loc, "expected a mask, got a negative number");
      return uint64_t(v);
   }
   if (k == kind::string && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      char *end = nullptr;
      uint64_t v = strtoull(s.c_str() + 2, &end, 16);
      if (!*end)
         return v;
   }
   throw error(loc, "expected a mask (a number or \"0x...\")");
}

const std::vector<value> &
value::as_array() const
{
   if (k != kind::array)
      throw error(loc, std::string("expected an array, got ") + kind_name(k));
   return items;
}

value
parse(const std::string &text, const std::string &filename)
{
   parser p{text, source_loc{filename, 1, 1}};
   value v = p.parse_value();
   p.skip_blank();
   if (p.peek() >= 0)
      p.fail("text after the JSON value");
   return v;
}

bool
looks_like_json(const std::string &text)
{
   for (char c : text) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
         continue;
      return c == '{';
   }
   return false;
}

} /* namespace ibis::json */
