/*
 * Reader for nir_print text, as Mesa 23.3 and Mesa 25.0 write it.
 *
 * The text is line oriented: a header of "key: value" lines, decl_var and
 * decl_function lines, and one "impl NAME { ... }" per function with its
 * structured control flow, one instruction per line.  The reader is
 * strict about tokens and lenient about horizontal whitespace.  Of what
 * nir_print derives, the preds/succs comments are checked against the
 * control flow; constant values after sources and variable names after IO
 * intrinsics are skipped, the printer recomputes them.
 *
 * The two Mesas print a few things differently (the header fields, the
 * decl_function line, con/div on blocks and loops, empty intrinsic
 * parentheses, the padding of 8-bit values).  The reader keeps the set of
 * dialects the text read so far fits and narrows it at each such form; a
 * text that mixes them is an error.  The shader records the dialect so the
 * printer can write the same one.
 *
 * Every error is an ibis::error "file:line:col: message".
 */
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "nir/nir.h"
#include "nir/nir_text.h"
#include "util/ibis_error.h"

namespace ibis::nir {

namespace {

bool
is_ident_char(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_';
}

bool
is_digit(char c)
{
   return c >= '0' && c <= '9';
}

std::string_view
rtrim(std::string_view s)
{
   while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
      s.remove_suffix(1);
   return s;
}

/* A reference to an SSA value by index, resolved when the impl is done. */
struct use_ref {
   unsigned index;
   unsigned line, col;
};

struct def_fixup {
   def **slot;
   use_ref ref;
};

struct block_fixup {
   block **slot;
   use_ref ref;  /* index is the block label */
};

/* The preds/succs comment of a block, checked against the built CFG. */
struct block_comment {
   block *b;
   unsigned line, succs_line;
   bool has_preds = false, has_succs = false;
   std::vector<unsigned> preds, succs;
};

enum class closer {
   end_block,     /* the impl's end block */
   close,         /* "}" */
   else_,         /* "} else {" */
   continue_,     /* "} continue {" */
};

class reader {
public:
   reader(const std::string &text, const std::string &file);
   std::unique_ptr<shader> run();

private:
   /* Lines and position. */
   std::vector<std::string_view> lines_;
   unsigned ln_ = 0;
   std::string_view cur_;
   size_t pos_ = 0;
   std::string file_;

   std::unique_ptr<shader> sh_;

   /* Per impl. */
   function_impl *impl_ = nullptr;
   /* Defs by SSA index: an array, with a map for the indices too large
    * for one (bad input must not make the reader allocate gigabytes).
    */
   std::vector<def *> defs_;
   std::unordered_map<unsigned, def *> far_defs_;
   unsigned def_bound_ = 0;   /* one more than the largest index */
   static constexpr unsigned near_defs = 1u << 20;
   def *find_def(unsigned index) const
   {
      if (index < near_defs)
         return index < defs_.size() ? defs_[index] : nullptr;
      auto it = far_defs_.find(index);
      return it == far_defs_.end() ? nullptr : it->second;
   }
   /* Blocks by label, the same way: an array for the labels nir_print
    * writes (b0 up), a map past it.
    */
   std::vector<block *> labels_;
   std::unordered_map<unsigned, block *> far_labels_;
   static constexpr unsigned near_labels = 1u << 16;
   block *&label_slot(unsigned label)
   {
      if (label >= near_labels)
         return far_labels_[label];
      if (label >= labels_.size())
         labels_.resize(std::max<size_t>(label + 1, 2 * labels_.size()), nullptr);
      return labels_[label];
   }
   block *find_label(unsigned label) const
   {
      if (label < near_labels)
         return label < labels_.size() ? labels_[label] : nullptr;
      auto it = far_labels_.find(label);
      return it == far_labels_.end() ? nullptr : it->second;
   }
   std::vector<def_fixup> def_fixups_;
   std::vector<block_fixup> block_fixups_;
   std::vector<block_comment> comments_;
   std::vector<intrinsic_instr *> intrinsics_;
   std::vector<tex_instr *> texs_;
   int ssa_digits_ = -1;  /* digits of ssa_alloc the padding implies */
   unsigned depth_ = 0;   /* ifs and loops around the current line */

   /* The print dialects the text read so far may be in (dialect_bit()). */
   uint8_t dialects_ = all_dialects;
   bool next_stage_seen_ = false;
   void narrow(print_dialect d, size_t pos, const char *form);
   bool is_25() const { return dialects_ == dialect_bit(print_dialect::mesa_25_0); }
   /* "con " or "div " before "block"/"loop" (25.0's divergence of a block
    * or loop): consumed, true for div.
    */
   bool cf_divergence(size_t *at);

   [[noreturn]] void error_at(size_t pos, const char *fmt, ...)
      __attribute__((format(printf, 3, 4)));
   [[noreturn]] void error(const char *fmt, ...)
      __attribute__((format(printf, 2, 3)));

   /* Line handling. */
   bool at_end() const { return ln_ >= lines_.size(); }
   void set_line(unsigned i);
   void advance() { set_line(ln_ + 1); }
   void skip_blank_lines();
   std::string_view rest() const { return cur_.substr(pos_); }

   /* Tokens within the line. */
   void ws();
   bool eol() const { return pos_ >= cur_.size(); }
   /* The first character decides most peeks; the rest is compared in a
    * loop the compiler unrolls for the literals peeked (memcmp was a
    * call).
    */
   __attribute__((always_inline)) bool peek(std::string_view s) const
   {
      const std::string_view r = rest();
      if (r.size() < s.size() || (!s.empty() && r[0] != s[0]))
         return false;
      for (size_t i = 1; i < s.size(); i++) {
         if (r[i] != s[i])
            return false;
      }
      return true;
   }
   __attribute__((always_inline)) bool accept(std::string_view s)
   {
      if (!peek(s))
         return false;
      pos_ += s.size();
      return true;
   }
   __attribute__((always_inline)) void expect(std::string_view s)
   {
      if (!accept(s))
         expect_failed(s);
   }
   [[noreturn]] void expect_failed(std::string_view s);
   void expect_eol();
   std::string_view ident(const char *what);
   std::string_view token();
   /* Up to four digits with a bound of at least 9999 (SSA indices,
    * block labels) inline; the rest out of line.
    */
   __attribute__((always_inline)) uint64_t number(const char *what, uint64_t max)
   {
      if (max >= 9999) {
         const char *const p = cur_.data() + pos_;
         const size_t left = cur_.size() - pos_;
         unsigned v = 0;
         size_t k = 0;
         while (k < 4 && k < left && is_digit(p[k])) {
            v = v * 10 + unsigned(p[k] - '0');
            k++;
         }
         if (k && (k == left || !is_digit(p[k]))) {
            pos_ += k;
            return v;
         }
      }
      return long_number(what, max);
   }
   uint64_t long_number(const char *what, uint64_t max);
   int64_t signed_number(const char *what, int64_t min, int64_t max);
   uint64_t hex_number(const char *what, uint64_t max);
   void skip_parens();

   /* Top level. */
   void parse_header();
   void parse_var(std::vector<variable> &out, bool local);
   void parse_function();
   void parse_impl();

   /* Control flow. */
   closer parse_cf_list(cf_list &list, bool top);
   closer line_closer();
   void parse_block(cf_list &list, bool top, bool *is_end);
   void parse_if(cf_list &list);
   void parse_loop(cf_list &list);

   /* Instructions. */
   std::unique_ptr<instr> parse_instr();
   void parse_def(def &d);
   use_ref parse_use();
   void skip_const_annotation();
   void add_fixup(def **slot, const use_ref &r) { def_fixups_.push_back({slot, r}); }
   std::unique_ptr<instr> parse_alu(def &d);
   std::unique_ptr<instr> parse_load_const(const def &d);
   std::unique_ptr<instr> parse_phi(const def &d);
   std::unique_ptr<instr> parse_intrinsic(const def *d);
   void parse_index(intrinsic_instr &in, intrinsic_index idx);
   std::unique_ptr<instr> parse_tex(const def &d);
   alu_type parse_alu_type();
   uint32_t parse_name_set(const char *const *names, unsigned n, const char *what);
   void register_def(def &d, instr *parent, size_t pos);
   void finish_impl();
};

reader::reader(const std::string &text, const std::string &file) : file_(file)
{
   std::string_view t(text);
   while (!t.empty()) {
      size_t nl = t.find('\n');
      std::string_view line = t.substr(0, nl);
      if (!line.empty() && line.back() == '\r')
         line.remove_suffix(1);
      lines_.push_back(line);
      if (nl == std::string_view::npos)
         break;
      t.remove_prefix(nl + 1);
   }
   if (!lines_.empty())
      set_line(0);
}

void
reader::error_at(size_t pos, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   const unsigned line = at_end() ? unsigned(lines_.size()) : ln_ + 1;
   throw ibis::error(source_loc{file_, line, unsigned(pos + 1)}, msg);
}

void
reader::error(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   const unsigned line = at_end() ? unsigned(lines_.size()) : ln_ + 1;
   throw ibis::error(source_loc{file_, line, unsigned(pos_ + 1)}, msg);
}

void
reader::narrow(print_dialect d, size_t pos, const char *form)
{
   if (!(dialects_ & dialect_bit(d))) {
      const bool is23 = d == print_dialect::mesa_23_3;
      error_at(pos, "%s is Mesa %s's print, the text before is Mesa %s's", form,
               is23 ? "23.3" : "25.0", is23 ? "25.0" : "23.3");
   }
   dialects_ = dialect_bit(d);
}

bool
reader::cf_divergence(size_t *at)
{
   *at = pos_;
   if (!(peek("con ") || peek("div ")))
      return false;
   const bool div = peek("div ");
   pos_ += 4;
   ws();
   if (!peek("block ") && !peek("loop")) {
      pos_ = *at;
      return false;
   }
   narrow(print_dialect::mesa_25_0, *at, "'con'/'div' before a block or loop");
   return div;
}

void
reader::set_line(unsigned i)
{
   ln_ = i;
   cur_ = i < lines_.size() ? lines_[i] : std::string_view();
   pos_ = 0;
}

void
reader::skip_blank_lines()
{
   while (!at_end()) {
      ws();
      if (!eol())
         return;
      advance();
   }
}

void
reader::ws()
{
   /* Local pointers: through members the loop reloaded both each time. */
   const char *const begin = cur_.data();
   const char *p = begin + pos_, *const end = begin + cur_.size();
   while (p != end && (*p == ' ' || *p == '\t'))
      p++;
   pos_ = size_t(p - begin);
}

void
reader::expect_failed(std::string_view s)
{
   if (eol())
      error("expected '%.*s' before the end of the line", int(s.size()), s.data());
   error("expected '%.*s'", int(s.size()), s.data());
}

void
reader::expect_eol()
{
   ws();
   if (!eol())
      error("unexpected '%.*s' at the end of the line",
            int(std::min<size_t>(rest().size(), 20)), rest().data());
}

std::string_view
reader::ident(const char *what)
{
   const size_t start = pos_;
   while (pos_ < cur_.size() && is_ident_char(cur_[pos_]))
      pos_++;
   if (pos_ == start)
      error("expected %s", what);
   return cur_.substr(start, pos_ - start);
}

/* A run of non-blank characters. */
std::string_view
reader::token()
{
   const size_t start = pos_;
   while (pos_ < cur_.size() && cur_[pos_] != ' ' && cur_[pos_] != '\t')
      pos_++;
   return cur_.substr(start, pos_ - start);
}

uint64_t
reader::long_number(const char *what, uint64_t max)
{
   const size_t start = pos_;
   if (eol() || !is_digit(cur_[pos_]))
      error("expected %s", what);
   /* Most numbers are short and their bound is 32 bits or more: nine
    * digits cannot pass it.
    */
   if (max >= 999999999) {
      const char *const p = cur_.data() + pos_;
      const size_t left = cur_.size() - pos_;
      uint32_t w = 0;
      size_t k = 0;
      while (k < left && k < 9 && is_digit(p[k])) {
         w = w * 10 + unsigned(p[k] - '0');
         k++;
      }
      if (k == left || !is_digit(p[k])) {
         pos_ += k;
         return w;
      }
   }
   uint64_t v = 0;
   /* Below `safe` no digit can overflow: the exact test (a division)
    * only runs above it.
    */
   const uint64_t safe = max >= 9 ? (max - 9) / 10 : 0;
   while (pos_ < cur_.size() && is_digit(cur_[pos_])) {
      const unsigned d = cur_[pos_] - '0';
      if (v > safe && v > (max - d) / 10)
         error_at(start, "%s is too large", what);
      v = v * 10 + d;
      pos_++;
   }
   return v;
}

int64_t
reader::signed_number(const char *what, int64_t min, int64_t max)
{
   const size_t start = pos_;
   const bool neg = accept("-");
   const uint64_t mag = number(what, neg ? uint64_t(-(min + 1)) + 1 : uint64_t(max));
   const int64_t v = neg ? -int64_t(mag - 1) - 1 : int64_t(mag);
   if (v < min || v > max)
      error_at(start, "%s is out of range", what);
   return v;
}

uint64_t
reader::hex_number(const char *what, uint64_t max)
{
   const size_t start = pos_;
   if (!accept("0x"))
      error("expected %s (0x...)", what);
   uint64_t v = 0;
   const size_t digits = pos_;
   while (pos_ < cur_.size() && isxdigit((unsigned char)cur_[pos_])) {
      const char c = cur_[pos_];
      const unsigned d = is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
      if (v > (max >> 4) && max != 0)
         error_at(start, "%s is too large", what);
      v = (v << 4) | d;
      pos_++;
   }
   if (pos_ == digits)
      error("expected hex digits");
   if (v > max)
      error_at(start, "%s is too large", what);
   return v;
}

/* Skips a parenthesized group, nested ones included. */
void
reader::skip_parens()
{
   const size_t start = pos_;
   int depth = 0;
   do {
      if (eol())
         error_at(start, "unterminated '('");
      if (cur_[pos_] == '(')
         depth++;
      else if (cur_[pos_] == ')')
         depth--;
      pos_++;
   } while (depth > 0);
}

/* ------------------------------------------------------------------ */
/* Header, variables, functions */

std::unique_ptr<shader>
reader::run()
{
   sh_ = std::make_unique<shader>();
   sh_->file = file_;

   /* Text only: control characters other than tabs (and the CR of CRLF line
    * ends) would not survive printing.
    */
   for (unsigned i = 0; i < lines_.size(); i++) {
      const std::string_view line = lines_[i];
      size_t c = 0;
      /* Eight bytes at a time: a word with no byte below 0x20 (most of
       * them) needs no byte-by-byte look.
       */
      for (; c + 8 <= line.size(); c += 8) {
         uint64_t w;
         std::memcpy(&w, line.data() + c, 8);
         const uint64_t ones = 0x0101010101010101ull;
         if (((w - 0x20 * ones) & ~w & 0x80 * ones) == 0)
            continue;
         for (size_t k = c; k < c + 8; k++) {
            const unsigned char ch = line[k];
            if (ch < 0x20 && ch != '\t') {
               set_line(i);
               error_at(k, "invalid character 0x%02x", ch);
            }
         }
      }
      for (; c < line.size(); c++) {
         const unsigned char ch = line[c];
         if (ch < 0x20 && ch != '\t') {
            set_line(i);
            error_at(c, "invalid character 0x%02x", ch);
         }
      }
   }
   if (!lines_.empty())
      set_line(0);
   skip_blank_lines();
   if (at_end())
      error("empty input: expected 'shader: MESA_SHADER_...'");
   parse_header();

   while (true) {
      skip_blank_lines();
      if (at_end())
         break;
      if (peek("decl_var ")) {
         if (!sh_->functions.empty())
            error("variables must be declared before the functions");
         parse_var(sh_->variables, false);
      } else if (peek("decl_function ")) {
         parse_function();
      } else if (peek("impl ")) {
         parse_impl();
      } else {
         error("expected 'decl_var', 'decl_function' or 'impl'");
      }
   }
   /* A text that fits both (no header field, function or impl tells them
    * apart) is taken as 23.3's.
    */
   sh_->dialect = is_25() ? print_dialect::mesa_25_0 : print_dialect::mesa_23_3;
   if (sh_->dialect == print_dialect::mesa_25_0 && !next_stage_seen_)
      sh_->info.next_stage = int(shader_stage::none);
   return std::move(sh_);
}

void
reader::parse_header()
{
   bool in_counts = false;
   while (true) {
      skip_blank_lines();
      if (at_end() || peek("decl_var ") || peek("decl_function ") || peek("impl "))
         break;
      const std::string_view line = rest();
      std::string_view key, value;
      if (line.substr(0, 16) == "Unhandled stage ") {
         key = "Unhandled stage";
         value = line.substr(16);
      } else {
         const size_t colon = line.find(": ");
         if (colon == std::string_view::npos) {
            if (!line.empty() && line.back() == ':') {
               key = line.substr(0, line.size() - 1);
               value = "";
            } else {
               error("expected 'key: value' in the shader header");
            }
         } else {
            key = line.substr(0, colon);
            value = line.substr(colon + 2);
         }
      }

      unsigned *count = key == "inputs" ? &sh_->num_inputs :
                        key == "outputs" ? &sh_->num_outputs :
                        key == "uniforms" ? &sh_->num_uniforms :
                        key == "scratch" ? &sh_->scratch_size :
                        key == "constants" ? &sh_->constant_data_size : nullptr;
      if (count) {
         if (sh_->info.stage == shader_stage::none)
            error("the header must start with 'shader:'");
         in_counts = true;
         pos_ += key.size() + 2;
         *count = unsigned(number("a count", UINT32_MAX));
         expect_eol();
      } else {
         if (in_counts)
            error("shader info field '%.*s' after the input/output counts",
                  int(key.size()), key.data());
         const std::string err =
            parse_shader_info_field(key, value, sh_->info, &dialects_);
         if (!err.empty())
            error("%s", err.c_str());
         next_stage_seen_ |= key == "next_stage";
      }
      advance();
   }
   if (sh_->info.stage == shader_stage::none)
      error("expected 'shader: MESA_SHADER_...'");
}

void
reader::parse_var(std::vector<variable> &out, bool local)
{
   variable v;
   v.line = ln_ + 1;
   ws();
   expect("decl_var ");

   static const struct {
      const char *name;
      bool variable::*flag;
   } quals[] = {
      {"bindless", &variable::bindless}, {"centroid", &variable::centroid},
      {"sample", &variable::sample}, {"patch", &variable::patch},
      {"invariant", &variable::invariant}, {"per_view", &variable::per_view},
      {"per_primitive", &variable::per_primitive},
      {"ray_query", &variable::ray_query},
      {"fb_fetch_output", &variable::fb_fetch_output},
   };

   /* Qualifiers, then the mode (empty for temporaries). */
   std::string_view tok;
   while (true) {
      ws();
      const size_t start = pos_;
      tok = token();
      bool is_qual = false;
      for (const auto &q : quals) {
         if (tok == q.name) {
            v.*q.flag = true;
            is_qual = true;
         }
      }
      if (is_qual)
         continue;
      if (tok.substr(0, 12) == "INTERP_MODE_") {
         pos_ = start;
         v.mode = local ? var_function_temp : var_shader_temp;
         break;
      }
      for (unsigned m = 0; m < num_variable_modes; m++) {
         const uint32_t bit = 1u << m;
         const char *name = variable_mode_str(bit, false);
         if (*name && tok == name)
            v.mode = bit;
      }
      if (!v.mode)
         error_at(start, "unknown variable mode '%.*s'", int(tok.size()), tok.data());
      break;
   }

   ws();
   size_t start = pos_;
   tok = token();
   unsigned interp;
   if (!value_of(interp_mode_names, tok, &interp))
      error_at(start, "expected an interpolation mode (INTERP_MODE_...)");
   v.interpolation = interp_mode(interp);

   /* Access qualifiers: "none" or a list of names. */
   ws();
   if (!accept("none ")) {
      bool any = false;
      while (true) {
         ws();
         start = pos_;
         tok = token();
         bool found = false;
         for (const access_name &a : access_names) {
            if (tok == a.name) {
               v.access |= a.bit;
               found = true;
            }
         }
         if (!found) {
            pos_ = start;
            break;
         }
         any = true;
      }
      if (!any)
         error("expected access qualifiers ('none' or names)");
   }

   /* [format] [precision] type name */
   std::vector<std::pair<std::string_view, size_t>> words;
   while (true) {
      ws();
      if (eol() || cur_[pos_] == '(' || cur_[pos_] == '=')
         break;
      const size_t at = pos_;
      words.push_back({token(), at});
   }
   if (words.size() < 2 || words.size() > 4)
      error("expected '[format] [precision] type name'");
   const size_t type_at = words.size() - 2;
   v.type = std::string(words[type_at].first);
   std::string name(words.back().first);
   for (size_t i = 0; i < type_at; i++) {
      const std::string_view w = words[i].first;
      if (w == "highp" || w == "mediump" || w == "lowp") {
         v.precision = w == "highp" ? 1 : w == "mediump" ? 2 : 3;
      } else if (i == 0 && type_is_image(v.type)) {
         unsigned f;
         if (!value_of(image_format_names, w, &f))
            error_at(words[i].second, "unknown image format '%.*s'", int(w.size()),
                     w.data());
         v.image_format = std::string(w);
      } else {
         error_at(words[i].second, "unexpected '%.*s' before the type",
                  int(w.size()), w.data());
      }
   }
   if (type_is_image(v.type) && v.image_format.empty())
      error_at(words[type_at].second, "an image variable needs a format");

   /* The printer adds "#N" to unnamed variables and to repeated names. */
   const size_t hash = name.rfind('#');
   if (hash != std::string::npos && hash + 1 < name.size() &&
       name.find_first_not_of("0123456789", hash + 1) == std::string::npos)
      name.resize(hash);
   v.name = name;

   ws();
   const uint32_t located = var_shader_in | var_shader_out | var_uniform |
                            var_system_value | var_mem_ubo | var_mem_ssbo |
                            var_image;
   if (v.mode & located) {
      expect("(");
      start = pos_;
      while (!eol() && cur_[pos_] != '.' && cur_[pos_] != ',' && cur_[pos_] != ')')
         pos_++;
      const std::string_view loc = cur_.substr(start, pos_ - start);
      if (!parse_location(loc, sh_->info.stage, v.mode, &v.location))
         error_at(start, "unknown location '%.*s'", int(loc.size()), loc.data());

      const unsigned n = type_components(v.type);
      const bool want_comps = (v.mode == var_shader_in || v.mode == var_shader_out) &&
                              n != 0 && n < 16;
      if (accept(".")) {
         const size_t cstart = pos_;
         while (!eol() && component_letter(cur_[pos_]) >= 0)
            pos_++;
         const std::string_view comps = cur_.substr(cstart, pos_ - cstart);
         v.location_frac = comps.empty() ? 0 : unsigned(component_letter(comps[0]));
         std::string expected;
         for (unsigned i = 0; i < n; i++)
            expected += comp_letter(n, v.location_frac + i);
         if (!want_comps || comps != expected)
            error_at(cstart, "component suffix '.%.*s' does not fit type %s",
                     int(comps.size()), comps.data(), v.type.c_str());
      } else if (want_comps) {
         error("expected the component suffix of a %s variable", v.type.c_str());
      }

      if (!(v.mode & var_system_value)) {
         expect(", ");
         v.driver_location = unsigned(number("a driver location", UINT32_MAX));
         expect(", ");
         v.binding = unsigned(number("a binding", UINT32_MAX));
      }
      expect(")");
      if (accept(" compact"))
         v.compact = true;
   }
   ws();
   if (!eol()) {
      if (cur_[pos_] != '=')
         error("expected '=' or the end of the line");
      v.initializer = " " + std::string(rest());
   }
   out.push_back(std::move(v));
   advance();
}

void
reader::parse_function()
{
   auto f = std::make_unique<function>();
   expect("decl_function ");
   f->name = std::string(ident("a function name"));
   ws();
   const size_t params_at = pos_;
   expect("(");
   if (!eol() && is_digit(cur_[pos_]) &&
       rest().find(" params)") != std::string_view::npos &&
       rest().find(" params)") == rest().find_first_not_of("0123456789")) {
      /* 23.3: "(N params) [(noinline)|(inline)]" */
      narrow(print_dialect::mesa_23_3, params_at, "'(N params)'");
      f->num_params = unsigned(number("a parameter count", 255));
      expect(" params)");
      ws();
      if (accept("(noinline)"))
         f->dont_inline = true;
      else if (accept("(inline)"))
         f->should_inline = true;
   } else {
      /* 25.0: "(32x2 name, 32, ...)" then " (noinline)", " (exported)",
       * " (entrypoint)".
       */
      narrow(print_dialect::mesa_25_0, params_at, "a parameter list");
      const size_t close = rest().find(')');
      if (close == std::string_view::npos)
         error("expected ')' after the parameters");
      f->params = std::string(rest().substr(0, close));
      if (f->params.find('(') != std::string::npos)
         error("expected ')' after the parameters");
      if (!f->params.empty()) {
         f->num_params = 1;
         for (char c : f->params)
            f->num_params += c == ',';
      }
      pos_ += close + 1;
      if (accept(" (noinline)"))
         f->dont_inline = true;
      else if (accept(" (inline)"))
         f->should_inline = true;
      if (accept(" (exported)"))
         f->is_exported = true;
      if (accept(" (entrypoint)"))
         f->is_entrypoint = true;
   }
   expect_eol();
   for (const auto &g : sh_->functions) {
      if (g->name == f->name)
         error_at(13, "function '%s' declared twice", f->name.c_str());
   }
   sh_->functions.push_back(std::move(f));
   advance();
}

void
reader::parse_impl()
{
   expect("impl ");
   const size_t name_at = pos_;
   const std::string_view name = ident("a function name");
   function *fn = nullptr;
   for (const auto &f : sh_->functions) {
      if (f->name == name)
         fn = f.get();
   }
   if (!fn)
      error_at(name_at, "impl of undeclared function '%.*s'", int(name.size()),
               name.data());
   if (fn->impl)
      error_at(name_at, "function '%.*s' has two impls", int(name.size()), name.data());
   ws();
   expect("{");
   expect_eol();
   advance();

   fn->impl = std::make_unique<function_impl>();
   impl_ = fn->impl.get();
   impl_->function = fn;
   defs_.clear();
   far_defs_.clear();
   def_bound_ = 0;
   labels_.clear();
   far_labels_.clear();
   def_fixups_.clear();
   block_fixups_.clear();
   comments_.clear();
   intrinsics_.clear();
   texs_.clear();
   ssa_digits_ = -1;

   skip_blank_lines();
   if (accept("preamble ")) {
      impl_->preamble = std::string(ident("a preamble function name"));
      expect_eol();
      advance();
   }
   while (true) {
      skip_blank_lines();
      if (!peek("decl_var "))
         break;
      parse_var(impl_->locals, true);
   }

   if (parse_cf_list(impl_->body, true) != closer::end_block)
      error("unbalanced '}'");
   /* parse_cf_list stops on the end block's line. */
   const unsigned end_label = unsigned(number("a block number", UINT32_MAX));
   label_slot(end_label) = impl_->end_block.get();
   expect(":");
   expect_eol();
   impl_->end_block->line = ln_ + 1;
   advance();
   skip_blank_lines();
   if (at_end())
      error("expected '}' to close impl %s", fn->name.c_str());
   expect("}");
   expect_eol();
   finish_impl();
   advance();
}

/* ------------------------------------------------------------------ */
/* Control flow */

/* Which closer the current line is, if any (the line is not consumed). */
closer
reader::line_closer()
{
   const std::string_view r = rtrim(rest());
   if (r == "} else {")
      return closer::else_;
   if (r == "} continue {")
      return closer::continue_;
   return closer::close;
}

closer
reader::parse_cf_list(cf_list &list, bool top)
{
   /* Real shaders nest a few dozen deep; this bounds the recursion. */
   if (depth_ > 500)
      error("control flow nested too deeply");
   while (true) {
      skip_blank_lines();
      if (at_end())
         error("unexpected end of input inside impl");
      ws();
      if (peek("}")) {
         const closer c = line_closer();
         if (c == closer::close && rtrim(rest()) != "}")
            error("expected '}', '} else {' or '} continue {'");
         if (top)
            error("unexpected '%.*s' in the impl body", int(rest().size()),
                  rest().data());
         if (list.empty() || list.back()->type != cf_type::block)
            error("a control-flow list must end with a block");
         return c;
      }
      size_t div_at;
      const bool div = cf_divergence(&div_at);
      const bool prefixed = pos_ != div_at;
      if (peek("block ")) {
         bool is_end = false;
         parse_block(list, top, &is_end);
         if (is_end && prefixed)
            error_at(div_at, "the end block has no 'con'/'div'");
         if (!is_end)
            static_cast<block &>(*list.back()).divergent = div;
         if (is_end) {
            if (list.empty() || list.back()->type != cf_type::block)
               error("the impl body must end with a block before the end block");
            return closer::end_block;
         }
      } else if (peek("if ")) {
         depth_++;
         parse_if(list);
         depth_--;
      } else if (peek("loop ") || peek("loop{")) {
         depth_++;
         parse_loop(list);
         depth_--;
         static_cast<loop &>(*list.back()).divergent_break = div;
      } else {
         error("expected a block, 'if', 'loop' or '}'");
      }
   }
}

void
reader::parse_block(cf_list &list, bool top, bool *is_end)
{
   const size_t start = pos_;
   expect("block b");
   const size_t label_at = pos_;

   /* The end block: "block bN:" alone, followed by the impl's "}". */
   if (top) {
      const size_t save = pos_;
      while (pos_ < cur_.size() && is_digit(cur_[pos_]))
         pos_++;
      const bool bare = accept(":") && (ws(), eol());
      pos_ = save;
      if (bare) {
         unsigned next = ln_ + 1;
         while (next < lines_.size() &&
                lines_[next].find_first_not_of(" \t") == std::string_view::npos)
            next++;
         if (next < lines_.size()) {
            const std::string_view l = lines_[next];
            if (rtrim(l.substr(l.find_first_not_of(" \t"))) == "}") {
               *is_end = true;
               return;
            }
         }
      }
   }

   if (!list.empty() && list.back()->type == cf_type::block)
      error_at(start, "two consecutive blocks");
   auto b = std::make_unique<block>();
   b->line = ln_ + 1;
   const unsigned label = unsigned(number("a block number", UINT32_MAX));
   block *&slot = label_slot(label);
   if (slot)
      error_at(label_at, "block b%u defined twice", label);
   slot = b.get();
   expect(":");

   block_comment bc;
   bc.b = b.get();
   bc.line = bc.succs_line = ln_ + 1;
   bool empty_block = false;
   ws();
   auto parse_list = [&](std::vector<unsigned> &out) {
      while (true) {
         ws();
         if (!accept("b"))
            break;
         out.push_back(unsigned(number("a block number", UINT32_MAX)));
      }
   };
   if (accept("// preds:")) {
      bc.has_preds = true;
      parse_list(bc.preds);
      if (accept(",")) {
         ws();
         expect("succs:");
         bc.has_succs = true;
         parse_list(bc.succs);
         empty_block = true;
      }
   }
   expect_eol();
   advance();

   if (!empty_block) {
      while (true) {
         skip_blank_lines();
         if (at_end())
            error("unexpected end of input in block b%u", label);
         const char c = cur_[pos_];
         if (c == '/' && accept("// succs:")) {
            bc.has_succs = true;
            bc.succs_line = ln_ + 1;
            parse_list(bc.succs);
            expect_eol();
            advance();
            break;
         }
         if ((c == 'b' || c == 'i' || c == 'l' || c == '}') &&
             (peek("block ") || peek("if ") || peek("loop ") || peek("}")))
            break;
         if ((c == 'c' || c == 'd') &&
             (peek("con block ") || peek("div block ") || peek("con loop ") ||
              peek("div loop ")))
            break;
         ws();
         const size_t instr_at = pos_;
         std::unique_ptr<instr> in = parse_instr();
         in->block = b.get();
         if (!b->instrs.empty() && b->instrs.back()->type == instr_type::jump)
            error_at(instr_at, "instruction after a jump in block b%u", label);
         b->instrs.push_back(std::move(in));
         advance();
      }
   }
   comments_.push_back(std::move(bc));
   list.push_back(std::move(b));
}

void
reader::parse_if(cf_list &list)
{
   const size_t start = pos_;
   if (list.empty() || list.back()->type != cf_type::block)
      error_at(start, "an if must follow a block");
   auto nif = std::make_unique<if_>();
   nif->line = ln_ + 1;
   expect("if ");
   ws();
   const use_ref cond = parse_use();
   skip_const_annotation();
   ws();
   if (accept("//")) {
      ws();
      if (accept("flatten"))
         nif->control = selection_control::flatten;
      else if (accept("don't flatten"))
         nif->control = selection_control::dont_flatten;
      else if (accept("divergent always taken"))
         nif->control = selection_control::divergent_always_taken;
      else
         error("unknown selection control");
      ws();
   }
   expect("{");
   expect_eol();
   advance();
   if_ *raw = nif.get();
   list.push_back(std::move(nif));
   add_fixup(&raw->condition.ssa, cond);

   if (parse_cf_list(raw->then_list, false) != closer::else_)
      error("expected '} else {'");
   advance();
   if (parse_cf_list(raw->else_list, false) != closer::close)
      error("expected '}' to close the if");
   advance();
}

void
reader::parse_loop(cf_list &list)
{
   const size_t start = pos_;
   if (list.empty() || list.back()->type != cf_type::block)
      error_at(start, "a loop must follow a block");
   auto l = std::make_unique<loop>();
   l->line = ln_ + 1;
   expect("loop");
   ws();
   expect("{");
   expect_eol();
   advance();
   loop *raw = l.get();
   list.push_back(std::move(l));

   closer c = parse_cf_list(raw->body, false);
   if (c == closer::else_)
      error("'} else {' closes a loop");
   advance();
   if (c == closer::continue_) {
      if (parse_cf_list(raw->continue_list, false) != closer::close)
         error("expected '}' to close the continue construct");
      advance();
   }
}

/* ------------------------------------------------------------------ */
/* Instructions */

use_ref
reader::parse_use()
{
   const size_t start = pos_;
   expect("%");
   const unsigned index = unsigned(number("an SSA index", UINT32_MAX - 1));
   return use_ref{index, ln_ + 1, unsigned(start + 1)};
}

/* After a source that is a constant, nir_print shows its value in
 * parentheses; the printer recomputes it.
 */
void
reader::skip_const_annotation()
{
   const size_t save = pos_;
   ws();
   if (peek("("))
      skip_parens();
   else
      pos_ = save;
}

void
reader::parse_def(def &d)
{
   if (accept("div "))
      d.divergent = true;
   else
      accept("con ");
   ws();
   const size_t bits_at = pos_;
   const uint64_t bits = number("a bit size", 64);
   if (bits != 1 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
      error_at(bits_at, "invalid bit size %" PRIu64, bits);
   d.bit_size = uint8_t(bits);
   d.num_components = 1;
   if (accept("x")) {
      const size_t comps_at = pos_;
      const uint64_t n = number("a component count", 16);
      if (!((n >= 1 && n <= 5) || n == 8 || n == 16))
         error_at(comps_at, "invalid component count %" PRIu64, n);
      d.num_components = uint8_t(n);
   }
   const size_t pad_start = pos_;
   ws();
   const size_t pad = pos_ - pad_start;
   const use_ref r = parse_use();
   d.index = r.index;

   /* nir_print pads the index to the digits of ssa_alloc: recover them
    * from the first value of the impl.
    */
   if (ssa_digits_ < 0) {
      const int fixed = d.num_components == 1 ? 3 : d.num_components == 16 ? 0 : 1;
      const int padding = int(pad) - fixed;
      /* 23.3 pads 1-bit values by one more, 25.0 values of up to 8 bits. */
      const bool wide = is_25() ? d.bit_size <= 8 : d.bit_size == 1;
      ssa_digits_ = padding - 1 - wide + int(count_digits(d.index));
   }
}

void
reader::register_def(def &d, instr *parent, size_t pos)
{
   d.parent = parent;
   def **slot;
   if (d.index < near_defs) {
      if (d.index >= defs_.size())
         defs_.resize(std::max<size_t>(d.index + 1, 2 * defs_.size()), nullptr);
      slot = &defs_[d.index];
   } else {
      slot = &far_defs_[d.index];
   }
   if (*slot)
      error_at(pos, "SSA value %%%u is defined twice", d.index);
   *slot = &d;
   def_bound_ = std::max(def_bound_, d.index + 1);
}

std::unique_ptr<instr>
reader::parse_instr()
{
   ws();
   const size_t start = pos_;
   const unsigned line = ln_ + 1;

   if (peek("@")) {
      auto in = parse_intrinsic(nullptr);
      in->line = line;
      return in;
   }
   static const jump_type jumps[] = {jump_type::break_, jump_type::continue_,
                                     jump_type::return_, jump_type::halt};
   for (const jump_type kind : jumps) {
      if (is_digit(cur_[pos_]) || peek("con ") || peek("div "))
         break;
      const char *name = jump_name(kind);
      const size_t len = strlen(name);
      if (rest() == name ||
          (peek(name) && (cur_[pos_ + len] == ' ' || cur_[pos_ + len] == '\t'))) {
         pos_ += len;
         expect_eol();
         auto in = std::make_unique<jump_instr>();
         in->kind = kind;
         in->line = line;
         return in;
      }
   }
   if (peek("goto"))
      error("unstructured control flow (goto) is not supported");

   if (!(peek("con ") || peek("div ") || (!eol() && is_digit(cur_[pos_]))))
      error("expected an instruction");

   def d;
   parse_def(d);
   ws();
   expect("=");
   ws();

   std::unique_ptr<instr> in;
   if (accept("load_const")) {
      in = parse_load_const(d);
   } else if (accept("undefined")) {
      expect_eol();
      auto u = std::make_unique<undef_instr>();
      u->dest = d;
      in = std::move(u);
   } else if (peek("phi ") || rest() == "phi") {
      pos_ += 3;
      in = parse_phi(d);
   } else if (peek("@")) {
      in = parse_intrinsic(&d);
   } else if (peek("(")) {
      in = parse_tex(d);
   } else {
      in = parse_alu(d);
   }
   register_def(*in->get_def(), in.get(), start);
   in->line = line;
   return in;
}

std::unique_ptr<instr>
reader::parse_alu(def &d)
{
   const size_t op_at = pos_;
   const std::string_view name = ident("an ALU opcode");
   auto alu = std::make_unique<alu_instr>();
   if (!alu_op_from_name(name, &alu->op))
      error_at(op_at, "unknown ALU opcode '%.*s'", int(name.size()), name.data());
   if (accept("!"))
      alu->exact = true;
   if (accept(".nsw"))
      alu->no_signed_wrap = true;
   if (accept(".nuw"))
      alu->no_unsigned_wrap = true;
   alu->dest = d;

   const alu_op_info &info = op_info(alu->op);
   alu->srcs.resize(info.num_inputs);
   for (unsigned i = 0; i < info.num_inputs; i++) {
      ws();
      if (i) {
         if (eol())
            error("'%s' takes %u sources", info.name, info.num_inputs);
         expect(",");
         ws();
      }
      if (eol())
         error("'%s' takes %u sources", info.name, info.num_inputs);
      const use_ref r = parse_use();
      skip_const_annotation();
      const unsigned want = alu->src_components(i);
      if (accept(".")) {
         const size_t sw_at = pos_;
         unsigned n = 0;
         while (!eol() && component_letter(cur_[pos_]) >= 0) {
            if (n < 16)
               alu->srcs[i].swizzle[n] = uint8_t(component_letter(cur_[pos_]));
            n++;
            pos_++;
         }
         if (n != want)
            error_at(sw_at, "swizzle of %u component(s) for a source of %u", n, want);
      }
      add_fixup(&alu->srcs[i].ssa, r);
   }
   expect_eol();
   return alu;
}

std::unique_ptr<instr>
reader::parse_load_const(const def &d)
{
   auto lc = std::make_unique<load_const_instr>();
   lc->dest = d;
   ws();
   expect("(");
   const uint64_t max = d.bit_size == 64 ? ~0ull : (1ull << d.bit_size) - 1;
   for (unsigned i = 0; i < d.num_components; i++) {
      if (i) {
         ws();
         expect(",");
         ws();
      }
      if (d.bit_size == 1) {
         const_value v;
         v.u64 = 0;
         if (accept("true"))
            v.b = true;
         else if (accept("false"))
            v.b = false;
         else
            error("expected true or false");
         lc->values.push_back(v);
      } else {
         lc->values.push_back(const_value_from_bits(hex_number("a constant", max),
                                                    d.bit_size));
      }
   }
   /* What follows (" = 1.000000", ") = (1.0, 2.0") restates the values
    * in other forms; the printer recomputes it.
    */
   ws();
   if (!peek(")") && !peek("="))
      error("expected ')' or '=' after the constant");
   const std::string_view tail = rtrim(rest());
   if (tail.empty() || tail.back() != ')')
      error("expected ')' at the end of the constant");
   pos_ = cur_.size();
   return lc;
}

std::unique_ptr<instr>
reader::parse_phi(const def &d)
{
   auto phi = std::make_unique<phi_instr>();
   phi->dest = d;
   std::vector<std::pair<use_ref, use_ref>> srcs;
   ws();
   while (!eol()) {
      if (!srcs.empty()) {
         expect(",");
         ws();
      }
      const size_t at = pos_;
      expect("b");
      const use_ref pred{unsigned(number("a block number", UINT32_MAX)), ln_ + 1,
                         unsigned(at + 1)};
      expect(":");
      ws();
      const use_ref val = parse_use();
      skip_const_annotation();
      srcs.push_back({pred, val});
      ws();
   }
   phi->srcs.resize(srcs.size());
   for (unsigned i = 0; i < srcs.size(); i++) {
      block_fixups_.push_back({&phi->srcs[i].pred, srcs[i].first});
      add_fixup(&phi->srcs[i].ssa, srcs[i].second);
   }
   return phi;
}

alu_type
reader::parse_alu_type()
{
   const size_t start = pos_;
   const std::string_view name = ident("a type");
   static const struct {
      const char *name;
      alu_type base;
   } bases[] = {
      {"int", type_int}, {"uint", type_uint}, {"bool", type_bool},
      {"float", type_float}, {"invalid", type_invalid},
   };
   for (const auto &b : bases) {
      const size_t len = strlen(b.name);
      if (name.substr(0, len) != b.name)
         continue;
      const std::string_view bits = name.substr(len);
      if (bits.empty())
         return b.base;
      /* A sized type is its base or'ed with its bit size, and names
       * itself by both (type_name()): one candidate to check, not every
       * type.
       */
      if (b.base == type_invalid || bits.size() > 2)
         continue;
      unsigned size = 0;
      for (char c : bits)
         size = is_digit(c) ? size * 10 + unsigned(c - '0') : 256;
      if (size < 128 && name == type_name(alu_type(b.base | size)))
         return alu_type(b.base | size);
   }
   error_at(start, "unknown type '%.*s'", int(name.size()), name.data());
}

/* "0" or names joined by '|' -> bits (names[i] is bit i). */
uint32_t
reader::parse_name_set(const char *const *names, unsigned n, const char *what)
{
   if (accept("0"))
      return 0;
   uint32_t set = 0;
   do {
      const size_t start = pos_;
      while (!eol() && cur_[pos_] != '|' && cur_[pos_] != ',' && cur_[pos_] != ')')
         pos_++;
      const std::string_view name = cur_.substr(start, pos_ - start);
      bool found = false;
      for (unsigned i = 0; i < n; i++) {
         if (names[i] && name == names[i]) {
            set |= 1u << i;
            found = true;
         }
      }
      if (!found)
         error_at(start, "unknown %s '%.*s'", what, int(name.size()), name.data());
   } while (accept("|"));
   return set;
}

void
reader::parse_index(intrinsic_instr &in, intrinsic_index idx)
{
   const intrinsic_index_info &ii = index_info(idx);
   const size_t start = pos_;
   const char *eq = ii.style == index_style::io_xfb ? "(" : "=";
   if (!accept(ii.label) || !accept(eq))
      error_at(start, "expected index '%s%s'", ii.label, eq);
   const size_t value_at = pos_;

   auto table_value = [&](const name_table &t, const char *what) {
      const size_t s = pos_;
      while (!eol() && cur_[pos_] != ',' && cur_[pos_] != ')')
         pos_++;
      const std::string_view name = cur_.substr(s, pos_ - s);
      unsigned v;
      if (!value_of(t, name, &v))
         error_at(s, "unknown %s '%.*s'", what, int(name.size()), name.data());
      return int32_t(v);
   };

   int32_t v = 0;
   switch (ii.style) {
   case index_style::write_mask: {
      uint32_t mask = 0;
      while (!eol() && component_letter(cur_[pos_]) >= 0) {
         mask |= 1u << component_letter(cur_[pos_]);
         pos_++;
      }
      v = int32_t(mask);
      break;
   }
   case index_style::alu_op: {
      const std::string_view name = ident("an ALU opcode");
      alu_op op;
      if (!alu_op_from_name(name, &op))
         error_at(value_at, "unknown ALU opcode '%.*s'", int(name.size()), name.data());
      v = int32_t(op);
      break;
   }
   case index_style::atomic_op: v = table_value(atomic_op_names, "atomic op"); break;
   case index_style::interp_mode:
      /* 23.3 prints the number, 25.0 the name. */
      if (!eol() && is_digit(cur_[pos_])) {
         narrow(print_dialect::mesa_23_3, pos_, "a numeric interp_mode");
         v = int32_t(number("an interpolation mode", 255));
      } else {
         narrow(print_dialect::mesa_25_0, pos_, "a named interp_mode");
         v = table_value(interp_mode_names, "interpolation mode");
      }
      break;
   case index_style::image_dim: v = table_value(image_dim_names, "image dimension"); break;
   case index_style::format: v = table_value(image_format_names, "image format"); break;
   case index_style::rounding_mode:
      v = table_value(rounding_mode_names, "rounding mode");
      break;
   case index_style::ray_query_value:
      v = table_value(ray_query_value_names, "ray query value");
      break;
   case index_style::scope: v = table_value(scope_names, "scope"); break;
   case index_style::boolean:
      if (accept("true"))
         v = 1;
      else if (!accept("false"))
         error("expected true or false");
      break;
   case index_style::desc_type: {
      const size_t s = pos_;
      while (!eol() && cur_[pos_] != ',' && cur_[pos_] != ')')
         pos_++;
      unsigned t;
      if (!desc_type_from_name(cur_.substr(s, pos_ - s), &t))
         error_at(s, "unknown descriptor type");
      v = int32_t(t);
      break;
   }
   case index_style::alu_type:
      v = parse_alu_type();
      break;
   case index_style::memory_semantics: {
      static const char *const names[] = {"ACQ", "REL", "AVAILABLE", "VISIBLE"};
      if (!accept("NONE"))
         v = int32_t(parse_name_set(names, 4, "memory semantic"));
      else if (accept("|"))
         v = int32_t(parse_name_set(names, 4, "memory semantic"));
      break;
   }
   case index_style::memory_modes:
      v = int32_t(parse_name_set(variable_mode_names.names, variable_mode_names.count,
                                 "variable mode"));
      break;
   case index_style::io_semantics: {
      io_semantics io;
      const uint32_t mode = io_semantics_mode(in.op);
      const size_t s = pos_;
      while (!eol() && cur_[pos_] != ' ' && cur_[pos_] != ',' && cur_[pos_] != ')')
         pos_++;
      const std::string_view loc = cur_.substr(s, pos_ - s);
      int location;
      if (!parse_location(loc, sh_->info.stage, mode, &location) || location < 0 ||
          location > 127)
         error_at(s, "unknown IO location '%.*s'", int(loc.size()), loc.data());
      io.location = unsigned(location);
      expect(" slots=");
      io.num_slots = unsigned(number("a slot count", 63));
      /* 25.0's order; 23.3 has no explicit_strict, coherent or invariant. */
      static const struct {
         const char *name;
         bool io_semantics::*flag;
      } flags[] = {
         {" explicit_strict", &io_semantics::interp_explicit_strict},
         {" dualsrc", &io_semantics::dual_source_blend_index},
         {" fbfetch", &io_semantics::fb_fetch_output},
         {" coherent", &io_semantics::fb_fetch_output_coherent},
         {" perview", &io_semantics::per_view},
         {" mediump", &io_semantics::medium_precision},
         {" high_16bits", &io_semantics::high_16bits},
         {" invariant", &io_semantics::invariant},
         {" high_dvec2", &io_semantics::high_dvec2},
         {" no_varying", &io_semantics::no_varying},
         {" no_sysval_output", &io_semantics::no_sysval_output},
      };
      for (const auto &f : flags) {
         const size_t at = pos_;
         if (accept(f.name)) {
            io.*f.flag = true;
            if (f.flag == &io_semantics::interp_explicit_strict ||
                f.flag == &io_semantics::fb_fetch_output_coherent ||
                f.flag == &io_semantics::invariant)
               narrow(print_dialect::mesa_25_0, at, "this IO flag");
         }
      }
      if (accept(" gs_streams(")) {
         for (unsigned i = 0; i < 4; i++) {
            if (i)
               expect(" ");
            expect(std::string(1, "xyzw"[i]) + "=");
            io.gs_streams |= unsigned(number("a stream", 3)) << (2 * i);
         }
         expect(")");
      }
      v = int32_t(io.pack());
      break;
   }
   case index_style::io_xfb: {
      const unsigned base = idx == intrinsic_index::io_xfb2 ? 2 : 0;
      io_xfb x;
      bool first = true;
      while (!accept(")")) {
         if (!first)
            expect(", ");
         first = false;
         unsigned lo, hi;
         if (accept("components=")) {
            lo = unsigned(number("a component", 3));
            expect("..");
            hi = unsigned(number("a component", 3));
         } else {
            expect("component=");
            lo = hi = unsigned(number("a component", 3));
         }
         if (lo < base || lo > base + 1 || hi < lo || hi - lo > 3)
            error("bad transform feedback components");
         auto &out = x.out[lo - base];
         out.num_components = uint8_t(hi - lo + 1);
         expect(" buffer=");
         out.buffer = uint8_t(number("a buffer", 15));
         expect(" offset=");
         const size_t off_at = pos_;
         const uint64_t off = number("an offset", 1020);
         if (off % 4)
            error_at(off_at, "transform feedback offsets are multiples of 4");
         out.offset = uint8_t(off / 4);
      }
      v = int32_t(x.pack());
      break;
   }
   case index_style::resource_access:
      v = int32_t(parse_name_set(resource_access_names.names,
                                 resource_access_names.count, "resource access"));
      break;
   case index_style::cmat_signed:
      v = int32_t(parse_name_set(cmat_signed_names.names, cmat_signed_names.count,
                                 "signedness"));
      break;
   case index_style::access: {
      /* Names by bit, for parse_name_set(). */
      const char *names[32] = {};
      for (const access_name &a : access_names)
         names[__builtin_ctz(a.bit)] = a.name;
      if (!accept("none"))
         v = int32_t(parse_name_set(names, 32, "access qualifier"));
      break;
   }
   case index_style::matrix_layout:
      if (accept("row_major"))
         v = 1;
      else if (!accept("col_major"))
         error("expected row_major or col_major");
      break;
   case index_style::swizzle_mask:
   case index_style::cmat_desc:
   case index_style::plain:
      v = int32_t(signed_number("an index value", INT32_MIN, UINT32_MAX));
      break;
   }
   in.set_index(idx, v);
}

std::unique_ptr<instr>
reader::parse_intrinsic(const def *d)
{
   const size_t start = pos_;
   expect("@");
   const std::string_view name = ident("an intrinsic name");
   auto in = std::make_unique<intrinsic_instr>();
   if (!intrinsic_op_from_name(name, &in->op))
      error_at(start, "unknown intrinsic '@%.*s'", int(name.size()), name.data());
   const intrinsic_info &info = op_info(in->op);
   if (d && !info.has_dest)
      error_at(start, "'@%s' has no destination", info.name);
   if (!d && info.has_dest)
      error_at(start, "'@%s' needs a destination", info.name);
   if (d)
      in->dest = *d;

   /* 23.3 writes "(sources) (indices)" always, 25.0 leaves out an empty
    * group.
    */
   ws();
   in->srcs.resize(info.num_srcs);
   if (info.num_srcs) {
      expect("(");
      for (unsigned i = 0; i < info.num_srcs; i++) {
         ws();
         if (peek(")"))
            error("'@%s' takes %u sources", info.name, info.num_srcs);
         if (i)
            expect(", ");
         const use_ref r = parse_use();
         skip_const_annotation();
         add_fixup(&in->srcs[i].ssa, r);
      }
      ws();
      if (!accept(")"))
         error("'@%s' takes %u sources", info.name, info.num_srcs);
   } else if (peek("()")) {
      narrow(print_dialect::mesa_23_3, pos_, "'()' for no sources");
      pos_ += 2;
   } else {
      if (!eol() && cur_[pos_] == '(' && !info.num_indices)
         error("'@%s' takes no sources", info.name);
      narrow(print_dialect::mesa_25_0, pos_, "an intrinsic without '()' for no sources");
   }
   ws();
   if (info.num_indices) {
      expect("(");
      for (unsigned i = 0; i < info.num_indices; i++) {
         if (i)
            expect(", ");
         parse_index(*in, info.indices[i]);
      }
      if (!accept(")"))
         error("expected ')' after the indices of '@%s'", info.name);
   } else if (peek("()")) {
      narrow(print_dialect::mesa_23_3, pos_, "'()' for no indices");
      pos_ += 2;
   } else {
      narrow(print_dialect::mesa_25_0, pos_, "an intrinsic without '()' for no indices");
   }
   ws();
   /* "// name": the variable the printer finds for IO intrinsics; 25.0's
    * is kept (see intrinsic_instr::name).
    */
   if (accept("//")) {
      if (is_25()) {
         ws();
         in->name = std::string(rtrim(rest()));
      }
      pos_ = cur_.size();
   } else {
      expect_eol();
   }
   intrinsics_.push_back(in.get());
   return in;
}

std::unique_ptr<instr>
reader::parse_tex(const def &d)
{
   auto tex = std::make_unique<tex_instr>();
   tex->dest = d;
   expect("(");
   tex->dest_type = parse_alu_type();
   expect(")");

   /* The longest printed name that matches ("tex (pre-dispatchable)"). */
   size_t best = 0;
   for (unsigned i = 0; i < num_tex_ops; i++) {
      const char *p = op_info(tex_op(i)).printed;
      const size_t len = strlen(p);
      if (peek(p) && len > best &&
          (pos_ + len == cur_.size() || cur_[pos_ + len] == ' ')) {
         best = len;
         tex->op = tex_op(i);
      }
   }
   if (!best)
      error("unknown texture operation");
   pos_ += best;
   const tex_op_info &info = op_info(tex->op);

   std::vector<use_ref> uses;
   bool have_texture = false, have_sampler = false, have_component = false;
   bool first = true;
   while (true) {
      ws();
      if (eol())
         break;
      if (!first) {
         expect(",");
         ws();
      }
      first = false;
      const size_t item = pos_;
      if (peek("%")) {
         uses.push_back(parse_use());
         ws();
         /* "(value) (kind)" for a constant, "(kind)" otherwise. */
         size_t kind_at = pos_;
         skip_parens();
         const size_t after_first = pos_;
         ws();
         if (peek("(")) {
            kind_at = pos_;
            skip_parens();
         } else {
            pos_ = after_first;
         }
         const std::string_view kind = cur_.substr(kind_at + 1, pos_ - kind_at - 2);
         tex_src_type t;
         if (!tex_src_from_name(kind, &t))
            error_at(kind_at, "unknown texture source '%.*s'", int(kind.size()),
                     kind.data());
         if (tex->src_index(t) >= 0)
            error_at(kind_at, "texture source '%.*s' given twice", int(kind.size()),
                     kind.data());
         tex->srcs.push_back({nullptr, t});
      } else if (accept("implicit lod")) {
         tex->is_gather_implicit_lod = true;
      } else if (accept("texture non-uniform")) {
         tex->texture_non_uniform = true;
      } else if (accept("sampler non-uniform")) {
         tex->sampler_non_uniform = true;
      } else if (accept("sparse")) {
         tex->is_sparse = true;
      } else if (accept("{")) {
         for (unsigned i = 0; i < 4; i++) {
            ws();
            if (i) {
               expect(",");
               ws();
            }
            expect("(");
            tex->tg4_offsets[i][0] = int8_t(signed_number("an offset", -128, 127));
            expect(", ");
            tex->tg4_offsets[i][1] = int8_t(signed_number("an offset", -128, 127));
            expect(")");
         }
         ws();
         expect("}");
         ws();
         expect("(offsets)");
         if (!tex->has_explicit_tg4_offsets())
            error_at(item, "gather offsets given without being needed");
      } else {
         const unsigned n = unsigned(number("a texture source", UINT32_MAX));
         ws();
         if (accept("(texture)")) {
            tex->texture_index = n;
            have_texture = true;
         } else if (accept("(sampler)")) {
            tex->sampler_index = n;
            have_sampler = true;
         } else if (accept("(gather_component)")) {
            if (n > 3)
               error_at(item, "gather component %u is out of range", n);
            tex->component = n;
            have_component = true;
         } else {
            error("expected (texture), (sampler) or (gather_component)");
         }
      }
   }

   const bool want_texture = tex->op != tex_op::txf_ms_fb &&
                             tex->src_index(tex_src_type::texture_deref) < 0;
   const bool want_sampler = info.needs_sampler &&
                             tex->src_index(tex_src_type::sampler_deref) < 0;
   if (want_texture != have_texture)
      error(want_texture ? "missing texture index" : "unexpected texture index");
   if (want_sampler != have_sampler)
      error(want_sampler ? "missing sampler index" : "unexpected sampler index");
   if ((tex->op == tex_op::tg4) != have_component)
      error(have_component ? "gather component on a non-gather"
                           : "missing gather component");
   tex->is_shadow = tex->src_index(tex_src_type::comparator) >= 0;
   for (unsigned i = 0; i < uses.size(); i++)
      add_fixup(&tex->srcs[i].ssa, uses[i]);
   texs_.push_back(tex.get());
   return tex;
}

/* ------------------------------------------------------------------ */

void
reader::finish_impl()
{
   for (const def_fixup &f : def_fixups_) {
      def *d = find_def(f.ref.index);
      if (!d)
         throw ibis::error(source_loc{file_, f.ref.line, f.ref.col},
                           strfmt("use of undefined SSA value %%%u", f.ref.index));
      *f.slot = d;
   }
   for (const block_fixup &f : block_fixups_) {
      block *b = find_label(f.ref.index);
      if (!b)
         throw ibis::error(source_loc{file_, f.ref.line, f.ref.col},
                           strfmt("unknown block b%u", f.ref.index));
      *f.slot = b;
   }

   /* The vector width of intrinsics: the def or source the table sizes
    * by num_components.
    */
   for (intrinsic_instr *in : intrinsics_) {
      const intrinsic_info &info = op_info(in->op);
      if (info.has_dest && info.dest_components == 0) {
         in->num_components = in->dest.num_components;
         continue;
      }
      for (unsigned i = 0; i < info.num_srcs; i++) {
         if (info.src_components[i] == 0) {
            in->num_components = in->srcs[i].ssa->num_components;
            break;
         }
      }
   }
   for (tex_instr *tex : texs_) {
      const int c = tex->src_index(tex_src_type::coord);
      tex->coord_components = c >= 0 ? tex->srcs[c].ssa->num_components : 0;
   }

   build_cfg(*impl_);

   /* The preds/succs comments must describe the control flow.  Compared
    * in place; the names for the message only on a mismatch.
    */
   auto mismatch = [&](const block_comment &bc, const std::vector<const block *> &actual,
                       const char *what, unsigned line) {
      std::unordered_map<const block *, unsigned> label_of;
      for (unsigned l = 0; l < labels_.size(); l++) {
         if (labels_[l])
            label_of[labels_[l]] = l;
      }
      for (const auto &[label, b] : far_labels_)
         label_of[b] = label;
      std::string names;
      for (const block *b : actual)
         names += strfmt(names.empty() ? "b%u" : " b%u", label_of[b]);
      throw ibis::error(source_loc{file_, line, 1},
                        strfmt("block b%u: %s do not match the control flow "
                               "(expected '%s')",
                               label_of[bc.b], what, names.c_str()));
   };
   for (const block_comment &bc : comments_) {
      if (bc.has_preds) {
         const auto &preds = bc.b->preds;
         bool same = bc.preds.size() == preds.size();
         for (size_t i = 0; same && i < preds.size(); i++)
            same = find_label(bc.preds[i]) == preds[i];
         if (!same)
            mismatch(bc, std::vector<const block *>(preds.begin(), preds.end()),
                     "predecessors", bc.line);
      }
      if (bc.has_succs) {
         const block *succs[2];
         size_t n = 0;
         for (const block *s : bc.b->succs) {
            if (s)
               succs[n++] = s;
         }
         bool same = bc.succs.size() == n;
         for (size_t i = 0; same && i < n; i++)
            same = find_label(bc.succs[i]) == succs[i];
         if (!same)
            mismatch(bc, std::vector<const block *>(succs, succs + n), "successors",
                     bc.succs_line);
      }
   }

   unsigned alloc = def_bound_;
   if (ssa_digits_ > int(count_digits(alloc)) && ssa_digits_ <= 9) {
      unsigned p = 1;
      for (int i = 1; i < ssa_digits_; i++)
         p *= 10;
      alloc = p;
   }
   impl_->ssa_alloc = alloc;
   impl_ = nullptr;
}

} /* anonymous namespace */

std::unique_ptr<shader>
read_shader(const std::string &text, const std::string &filename)
{
   return reader(text, filename).run();
}

std::unique_ptr<shader>
read_shader_file(const std::string &path)
{
   /* stdio into one string: an ifstream through an ostringstream copied
    * the text twice and cost a fifth of reading a small shader.
    */
   std::FILE *f = std::fopen(path.c_str(), "rb");
   if (!f)
      throw ibis::error(source_loc{path, 0, 0}, "cannot open file");
   std::string text;
   char buf[1 << 16];
   size_t n;
   while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
      text.append(buf, n);
   const bool failed = std::ferror(f);
   std::fclose(f);
   if (failed)
      throw ibis::error(source_loc{path, 0, 0}, "cannot read file");
   return read_shader(text, path);
}

} /* namespace ibis::nir */
