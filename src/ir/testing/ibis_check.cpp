#include "ir/testing/ibis_check.h"

#include <cctype>
#include <map>
#include <sstream>
#include <vector>

#include "ir/ibis_pass.h"
#include "ir/ibis_text.h"
#include "util/ibis_error.h"

namespace ibis::testing {

namespace {

std::vector<std::string>
split_lines(const std::string &text)
{
   std::vector<std::string> lines;
   std::istringstream in(text);
   std::string l;
   while (std::getline(in, l))
      lines.push_back(l);
   return lines;
}

/* Collapses blank runs and trims both ends. */
std::string
normalize(const std::string &s)
{
   std::string out;
   bool blank = false;
   for (char c : s) {
      if (c == ' ' || c == '\t' || c == '\r') {
         blank = true;
         continue;
      }
      if (blank && !out.empty())
         out += ' ';
      blank = false;
      out += c;
   }
   return out;
}

bool
is_word_char(char c)
{
   return isalnum((unsigned char)c) || c == '_';
}

using bindings = std::map<std::string, std::string>;

/* Matches one normalized line; on failure sets why. */
bool
match_line(const std::string &pat, std::string act, bindings &b,
           std::string *why)
{
   if (pat.find(';') == std::string::npos && act.find(';') != std::string::npos)
      act = normalize(act.substr(0, act.find(';')));
   size_t p = 0, a = 0;
   bindings local = b;
   while (p < pat.size()) {
      if (pat.compare(p, 2, "[[") == 0) {
         size_t close = pat.find("]]", p);
         if (close == std::string::npos) {
            *why = "unterminated [[ in the pattern";
            return false;
         }
         std::string name = pat.substr(p + 2, close - p - 2);
         size_t start = a;
         while (a < act.size() && is_word_char(act[a]))
            a++;
         std::string word = act.substr(start, a - start);
         if (word.empty()) {
            *why = strfmt("[[%s]] needs a word at column %zu", name.c_str(),
                          start + 1);
            return false;
         }
         if (name != "_") {
            auto it = local.find(name);
            if (it != local.end() && it->second != word) {
               *why = strfmt("[[%s]] is bound to '%s' but here is '%s'",
                             name.c_str(), it->second.c_str(), word.c_str());
               return false;
            }
            local[name] = word;
         }
         p = close + 2;
         continue;
      }
      if (a >= act.size() || pat[p] != act[a]) {
         *why = strfmt("differs at column %zu", a + 1);
         return false;
      }
      p++;
      a++;
   }
   if (a != act.size()) {
      *why = strfmt("output has more after column %zu", a);
      return false;
   }
   b = local;
   return true;
}

struct matcher {
   std::vector<std::string> pat, act;
   /* The deepest failure, for the report. */
   size_t best_p = 0, best_a = 0;
   std::string best_why;
   bool have_best = false;

   void note(size_t p, size_t a, const std::string &why)
   {
      if (!have_best || p > best_p || (p == best_p && a > best_a)) {
         best_p = p;
         best_a = a;
         best_why = why;
         have_best = true;
      }
   }

   bool match(size_t p, size_t a, bindings b)
   {
      if (p == pat.size()) {
         if (a == act.size())
            return true;
         note(p, a, "the output has more lines");
         return false;
      }
      if (pat[p] == "...") {
         for (size_t skip = a; skip <= act.size(); skip++) {
            if (match(p + 1, skip, b))
               return true;
         }
         return false;
      }
      if (a == act.size()) {
         note(p, a, "the output ends here");
         return false;
      }
      std::string why;
      if (!match_line(pat[p], act[a], b, &why)) {
         note(p, a, why);
         return false;
      }
      return match(p + 1, a + 1, b);
   }
};

std::vector<std::string>
significant_lines(const std::string &text)
{
   std::vector<std::string> out;
   for (const std::string &l : split_lines(text)) {
      std::string n = normalize(l);
      if (!n.empty())
         out.push_back(n);
   }
   return out;
}

} /* anonymous namespace */

std::string
match_ir(const std::string &pattern, const std::string &actual)
{
   matcher m;
   m.pat = significant_lines(pattern);
   m.act = significant_lines(actual);
   if (!m.pat.empty() && m.pat[0].rfind("shader", 0) != 0)
      m.pat.insert(m.pat.begin(), "...");
   if (m.match(0, 0, bindings()))
      return "";

   std::string r = "IR does not match the expectation:\n";
   if (m.best_p < m.pat.size())
      r += strfmt("  expected: %s\n", m.pat[m.best_p].c_str());
   else
      r += "  expected: end of output\n";
   if (m.best_a < m.act.size())
      r += strfmt("  got:      %s\n", m.act[m.best_a].c_str());
   else
      r += "  got:      end of output\n";
   r += "  (" + m.best_why + ")\n";
   r += "full output, with > at the mismatch:\n";
   for (size_t i = 0; i < m.act.size(); i++)
      r += strfmt("%s %s\n", i == m.best_a ? ">" : " ", m.act[i].c_str());
   return r;
}

std::string
dedent(const std::string &text)
{
   std::vector<std::string> lines = split_lines(text);
   size_t indent = std::string::npos;
   for (const std::string &l : lines) {
      size_t first = l.find_first_not_of(" \t");
      if (first != std::string::npos)
         indent = std::min(indent, first);
   }
   std::string out;
   for (const std::string &l : lines) {
      if (l.find_first_not_of(" \t") == std::string::npos) {
         if (!out.empty())
            out += "\n";
         continue;
      }
      out += l.substr(indent) + "\n";
   }
   while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
      out.pop_back();
   return out;
}

::testing::AssertionResult
check_pass(const std::string &input, const std::function<void(shader &)> &fn,
           const std::string &expected)
{
   std::string printed;
   try {
      std::unique_ptr<shader> s = parse_shader(dedent(input), "input");
      fn(*s);
      printed = s->str();
   } catch (const error &e) {
      return ::testing::AssertionFailure() << e.what();
   }
   std::string diff = match_ir(expected, printed);
   if (!diff.empty())
      return ::testing::AssertionFailure() << diff;
   return ::testing::AssertionSuccess();
}

::testing::AssertionResult
check_pass(const std::string &input, const std::string &passes,
           const std::string &expected)
{
   return check_pass(input, [&](shader &s) { run_passes(s, passes); },
                     expected);
}

::testing::AssertionResult
check_round_trip(const std::string &text)
{
   std::string want = dedent(text);
   try {
      std::unique_ptr<shader> s = parse_shader(want, "input");
      std::string once = s->str();
      if (once != want) {
         return ::testing::AssertionFailure()
                << "printed text differs from the input:\n--- input\n" << want
                << "--- printed\n" << once;
      }
      std::string twice = parse_shader(once, "printed")->str();
      if (twice != once)
         return ::testing::AssertionFailure() << "second print differs:\n" << twice;
   } catch (const error &e) {
      return ::testing::AssertionFailure() << e.what();
   }
   return ::testing::AssertionSuccess();
}

} /* namespace ibis::testing */
