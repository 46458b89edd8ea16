/*
 * The inputs text format (docs/interp.md) and the printed form of outputs.
 */
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "nir/interp/nir_interp_private.h"
#include "util/ibis_error.h"

namespace ibis::nir::interp {

namespace {

struct token {
   std::string text;
   unsigned col = 0;
   unsigned line = 0;
};

/* One line: the tokens before the colon (the key and its arguments) and
 * the values after it.
 */
struct line {
   std::vector<token> head;
   std::vector<token> values;
   bool has_colon = false;
   unsigned col_end = 1;   /* where the statement ends */
   unsigned end_line = 0;
};

const char *const dim_names[] = {"1d", "2d", "3d", "cube", "rect"};
const char *const format_names[] = {"rgba32f", "rgba32ui", "rgba32i"};
const char *const image_dim_names[] = {"1d", "2d", "3d", "buf"};
const char *const image_format_names[] = {"r32ui", "r32i", "r32f",
                                          "rgba32ui", "rgba32i", "rgba32f"};
const char *const filter_names[] = {"nearest", "linear"};
const char *const mip_names[] = {"mip_none", "mip_nearest", "mip_linear"};
const char *const wrap_names[] = {"clamp", "repeat"};
const char *const compare_names[] = {"never", "less", "equal", "lequal",
                                     "greater", "notequal", "gequal", "always"};

template <size_t N>
int
find_name(const char *const (&names)[N], const std::string &s)
{
   for (size_t i = 0; i < N; i++) {
      if (s == names[i])
         return int(i);
   }
   return -1;
}

class parser {
public:
   parser(const std::string &text, const std::string &file)
      : text_(text), file_(file) {}
   inputs parse();

private:
   [[noreturn]] void fail_at(unsigned line, unsigned col, const std::string &msg)
   {
      ibis::fail(source_loc{file_, line, col}, "%s", msg.c_str());
   }
   [[noreturn]] void fail_at(const token &t, const std::string &msg)
   {
      fail_at(t.line, t.col, msg);
   }
   [[noreturn]] void fail_end(const line &l, const std::string &msg)
   {
      fail_at(l.end_line, l.col_end, msg);
   }
   line split(const std::string &l);
   void statement(const line &l);

   uint32_t word(const token &t);
   uint64_t number(const token &t, uint64_t max);
   /* "WxHxD" (one to three sizes, each up to max) into dims, the missing
    * ones 1; returns how many were given.
    */
   unsigned sizes(const token &t, unsigned max, unsigned dims[3]);
   float real(const token &t);
   unsigned location(const token &t, const name_table &names);
   int channel(const line &l, size_t arg);
   void expect_values(const line &l, size_t n);
   std::vector<uint8_t> bytes(const line &l);
   void parse_texture(const line &l);
   void parse_sampler(const line &l);
   void parse_image(const line &l);

   const std::string &text_;
   const std::string &file_;
   unsigned line_no_ = 0;
   inputs in_;
};

line
parser::split(const std::string &s)
{
   line l;
   size_t i = 0;
   while (i < s.size()) {
      if (s[i] == '#')
         break;
      if (std::isspace(static_cast<unsigned char>(s[i]))) {
         i++;
         continue;
      }
      if (s[i] == ':') {
         if (l.has_colon)
            fail_at(line_no_, unsigned(i + 1), "a second ':'");
         l.has_colon = true;
         i++;
         continue;
      }
      const size_t start = i;
      while (i < s.size() && s[i] != ':' && s[i] != '#' &&
             !std::isspace(static_cast<unsigned char>(s[i])))
         i++;
      token t{s.substr(start, i - start), unsigned(start + 1)};
      (l.has_colon ? l.values : l.head).push_back(t);
   }
   l.col_end = unsigned(std::min(i, s.size()) + 1);
   return l;
}

uint64_t
parser::number(const token &t, uint64_t max)
{
   const char *s = t.text.c_str();
   char *end = nullptr;
   errno = 0;
   const unsigned long long v = std::strtoull(s, &end, 0);
   if (*s == '-' || *s == '+' || !*s || *end || errno || v > max)
      fail_at(t, "expected an integer up to " + std::to_string(max) +
                        ", got '" + t.text + "'");
   return v;
}

unsigned
parser::sizes(const token &t, unsigned max, unsigned dims[3])
{
   dims[0] = dims[1] = dims[2] = 1;
   unsigned n = 0;
   std::stringstream ss(t.text);
   std::string part;
   while (std::getline(ss, part, 'x')) {
      if (n == 3)
         fail_at(t, "at most three sizes");
      dims[n++] = unsigned(number({part, t.col, t.line}, max));
   }
   return n;
}

float
parser::real(const token &t)
{
   const char *s = t.text.c_str();
   char *end = nullptr;
   const float f = std::strtof(s, &end);
   if (!*s || *end)
      fail_at(t, "expected a number, got '" + t.text + "'");
   return f;
}

/* 0x hex and decimal integers (negative ones as two's complement); anything
 * with '.', an exponent, inf or nan is a float.
 */
uint32_t
parser::word(const token &t)
{
   const std::string &s = t.text;
   const bool is_hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
   if (!is_hex && (s.find_first_of(".eE") != std::string::npos ||
                   s.find("inf") != std::string::npos ||
                   s.find("nan") != std::string::npos))
      return as_word(real(t));
   char *end = nullptr;
   errno = 0;
   const long long v = std::strtoll(s.c_str(), &end, 0);
   if (s.empty() || *end || errno) {
      errno = 0;
      const unsigned long long u = std::strtoull(s.c_str(), &end, 0);
      if (s.empty() || *end || errno || u > 0xffffffffull || s[0] == '-')
         fail_at(t, "expected a 32-bit word, got '" + s + "'");
      return uint32_t(u);
   }
   if (v < INT32_MIN || v > int64_t(UINT32_MAX))
      fail_at(t, "'" + s + "' does not fit in 32 bits");
   return uint32_t(v);
}

unsigned
parser::location(const token &t, const name_table &names)
{
   unsigned v;
   if (value_of(names, t.text, &v))
      return v;
   if (!t.text.empty() && std::isdigit(static_cast<unsigned char>(t.text[0])))
      return unsigned(number(t, 255));
   fail_at(t, "unknown location '" + t.text + "'");
}

/* The optional channel argument at head[arg]: -1 when absent. */
int
parser::channel(const line &l, size_t arg)
{
   if (l.head.size() <= arg)
      return -1;
   if (l.head.size() > arg + 1)
      fail_at(l.head[arg + 1], "unexpected '" + l.head[arg + 1].text + "'");
   return int(number(l.head[arg], max_simd - 1));
}

void
parser::expect_values(const line &l, size_t n)
{
   if (!l.has_colon)
      fail_end(l, "expected ':' and values");
   if (l.values.size() != n)
   {
      const std::string msg = "expected " + std::to_string(n) +
                              " values, got " + std::to_string(l.values.size());
      if (l.values.size() > n)
         fail_at(l.values[n], msg);
      fail_end(l, msg);
   }
}

std::vector<uint8_t>
parser::bytes(const line &l)
{
   if (!l.has_colon)
      fail_end(l, "expected ':' and words");
   std::vector<uint8_t> b;
   for (const token &t : l.values) {
      const uint32_t w = word(t);
      for (unsigned i = 0; i < 4; i++)
         b.push_back(uint8_t(w >> (8 * i)));
   }
   return b;
}

/* texture N WxH[xD] [dim] [array] [levels L] format: texels */
void
parser::parse_texture(const line &l)
{
   if (l.head.size() < 3)
      fail_end(l, "expected 'texture N WxH[xD] ... format:'");
   const unsigned index = unsigned(number(l.head[1], 1u << 16));
   texture t;

   const token &size = l.head[2];
   unsigned dims[3];
   const unsigned n = sizes(size, 1u << 16, dims);
   t.width = dims[0];
   t.height = dims[1];
   t.depth = dims[2];

   bool have_format = false;
   for (size_t i = 3; i < l.head.size(); i++) {
      const token &k = l.head[i];
      int v;
      if ((v = find_name(dim_names, k.text)) >= 0) {
         t.dim = tex_dim(v);
      } else if (k.text == "array") {
         t.array = true;
      } else if (k.text == "levels" && i + 1 < l.head.size()) {
         t.levels = unsigned(number(l.head[++i], 16));
      } else if ((v = find_name(format_names, k.text)) >= 0) {
         t.format = tex_format(v);
         have_format = true;
      } else {
         fail_at(k, "unknown texture attribute '" + k.text + "'");
      }
   }
   if (!have_format)
      fail_end(l, "missing texel format (rgba32f, rgba32ui, rgba32i)");
   if (t.dim == tex_dim::d1 && n > 1 && !t.array)
      fail_at(size, "a 1D texture has one size");
   if (t.dim == tex_dim::d1 && t.array) {
      /* 1D arrays write WxL: the layers go to depth. */
      t.depth = t.height;
      t.height = 1;
   }
   if (!l.has_colon)
      fail_end(l, "expected ':' and texels");
   if (l.values.size() != 4 * t.texel_count())
      fail_end(l, strfmt("expected %zu words (4 per texel), got %zu",
                                4 * t.texel_count(), l.values.size()));
   for (size_t i = 0; i < l.values.size(); i += 4)
      t.texels.push_back({word(l.values[i]), word(l.values[i + 1]),
                          word(l.values[i + 2]), word(l.values[i + 3])});
   try {
      check_texture(t, index);
   } catch (const error &e) {
      fail_at(l.head[0], e.what());
   }
   in_.textures[index] = std::move(t);
}

/* image N W[xH[xD]] dim [array] format: words */
void
parser::parse_image(const line &l)
{
   if (l.head.size() < 4)
      fail_end(l, "expected 'image N W[xH[xD]] dim [array] format:'");
   const unsigned index = unsigned(number(l.head[1], 255));
   image im;
   const token &size = l.head[2];
   unsigned dims[3];
   const unsigned n = sizes(size, 1u << 14, dims);
   im.width = dims[0];
   im.height = dims[1];
   im.depth = dims[2];
   bool have_dim = false, have_format = false;
   for (size_t i = 3; i < l.head.size(); i++) {
      const token &k = l.head[i];
      int v;
      if ((v = find_name(image_dim_names, k.text)) >= 0) {
         im.dim = image_dim(v);
         have_dim = true;
      } else if (k.text == "array") {
         im.array = true;
      } else if ((v = find_name(image_format_names, k.text)) >= 0) {
         im.format = image_format(v);
         have_format = true;
      } else {
         fail_at(k, "unknown image attribute '" + k.text + "'");
      }
   }
   if (!have_dim)
      fail_end(l, "missing image dimension (1d, 2d, 3d, buf)");
   if (!have_format)
      fail_end(l, "missing image format (r32ui, r32i, r32f, rgba32ui, rgba32i, rgba32f)");
   if (n != im.coords())
      fail_at(size, strfmt("this image takes %u size(s)", im.coords()));
   if (!l.has_colon)
      fail_end(l, "expected ':' and words");
   for (const token &t : l.values)
      im.words.push_back(word(t));
   try {
      check_image(im, index);
   } catch (const error &e) {
      fail_at(l.head[0], e.what());
   }
   in_.images[index] = std::move(im);
}

/* sampler N [nearest|linear] [mip_*] [clamp|repeat | wrap S T R]
 *           [compare FUNC]
 */
void
parser::parse_sampler(const line &l)
{
   if (l.head.size() < 2 || l.has_colon)
      fail_end(l, "expected 'sampler N attributes...'");
   sampler s;
   for (size_t i = 2; i < l.head.size(); i++) {
      const token &k = l.head[i];
      int v;
      if ((v = find_name(filter_names, k.text)) >= 0) {
         s.filt = filter(v);
      } else if ((v = find_name(mip_names, k.text)) >= 0) {
         s.mip = mip_filter(v);
      } else if ((v = find_name(wrap_names, k.text)) >= 0) {
         s.wrap.fill(wrap_mode(v));
      } else if (k.text == "wrap" && i + 3 < l.head.size()) {
         for (unsigned a = 0; a < 3; a++) {
            const token &w = l.head[++i];
            if ((v = find_name(wrap_names, w.text)) < 0)
               fail_at(w, "expected clamp or repeat");
            s.wrap[a] = wrap_mode(v);
         }
      } else if (k.text == "compare" && i + 1 < l.head.size()) {
         const token &f = l.head[++i];
         if ((v = find_name(compare_names, f.text)) < 0)
            fail_at(f, "unknown comparison '" + f.text + "'");
         s.compare = compare_func(v);
      } else {
         fail_at(k, "unknown sampler attribute '" + k.text + "'");
      }
   }
   in_.samplers[unsigned(number(l.head[1], 1u << 16))] = s;
}

void
parser::statement(const line &l)
{
   const token &key = l.head[0];
   const std::string &k = key.text;
   /* n arguments after the key; values after a colon only if colon. */
   auto arg_count = [&](size_t n, bool colon = false) {
      if (l.head.size() != n + 1)
      {
         const std::string msg = "'" + k + "' takes " + std::to_string(n) +
                                 " argument(s)";
         if (l.head.size() > n + 1)
            fail_at(l.head[n + 1], msg);
         fail_end(l, msg);
      }
      if (l.has_colon != colon)
         fail_end(l, colon ? "expected ':' and values"
                           : "'" + k + "' takes no ':'");
   };
   auto u32_arg = [&](size_t i) { return uint32_t(number(l.head[i], UINT32_MAX)); };
   /* A per-channel list: "key C: v" or "key: v0 v1 ..." for channels 0... */
   auto per_channel = [&](std::vector<uint32_t> &v) {
      const int c = channel(l, 1);
      if (c >= 0) {
         expect_values(l, 1);
         if (v.size() <= unsigned(c))
            v.resize(unsigned(c) + 1);
         v[unsigned(c)] = word(l.values[0]);
      } else {
         if (!l.has_colon || l.values.size() > max_simd)
            fail_end(l, "expected ':' and one value per channel");
         v.clear();
         for (const token &t : l.values)
            v.push_back(word(t));
      }
   };
   auto triple = [&](std::array<unsigned, 3> &v) {
      arg_count(3);
      for (unsigned i = 0; i < 3; i++)
         v[i] = u32_arg(i + 1);
   };

   if (k == "simd") {
      arg_count(1);
      in_.simd = unsigned(number(l.head[1], 32));
      if (in_.simd != 8 && in_.simd != 16 && in_.simd != 32)
         fail_at(l.head[1], "SIMD width must be 8, 16 or 32");
   } else if (k == "channels" || k == "helpers") {
      arg_count(1);
      (k == "channels" ? in_.channels : in_.helpers) = u32_arg(1);
   } else if (k == "push" || k == "shared") {
      arg_count(0, true);
      (k == "push" ? in_.push : in_.shared) = bytes(l);
   } else if (k == "ubo" || k == "ssbo") {
      if (l.head.size() != 2)
         fail_end(l, "expected '" + k + " N: words'");
      (k == "ubo" ? in_.ubos : in_.ssbos)[u32_arg(1)] = bytes(l);
   } else if (k == "attr") {
      if (l.head.size() < 2)
         fail_end(l, "expected 'attr LOCATION [CHANNEL]: x y z w'");
      auto &v = in_.attribs[location(l.head[1], vert_attrib_names)];
      const int c = channel(l, 2);
      if (c >= 0) {
         expect_values(l, 4);
         /* Naming a channel makes the values per channel. */
         if (v.size() <= 1)
            v.assign(max_simd, v.empty() ? words4{} : v[0]);
      } else {
         if (!l.has_colon || l.values.empty() || l.values.size() % 4 ||
             l.values.size() > 4 * max_simd)
            fail_end(l, "expected ':' and 4 words per channel");
         v.assign(l.values.size() / 4, words4{});
      }
      for (size_t i = 0; i < l.values.size(); i++)
         v[(c >= 0 ? unsigned(c) : i / 4)][i % 4] = word(l.values[i]);
   } else if (k == "varying") {
      if (l.head.size() != 2)
         fail_end(l, "expected 'varying LOCATION: 12 words'");
      const unsigned loc = location(l.head[1], varying_slot_names);
      expect_values(l, 12);
      auto &v = in_.varyings[loc];
      for (size_t i = 0; i < 12; i++)
         v[i / 4][i % 4] = word(l.values[i]);
   } else if (k == "vertex_id") {
      per_channel(in_.vertex_id);
   } else if (k == "sample_id") {
      per_channel(in_.sample_id);
   } else if (k == "sample_mask_in") {
      per_channel(in_.sample_mask_in);
   } else if (k == "first_vertex" || k == "base_vertex" || k == "instance_id" ||
              k == "base_instance" || k == "draw_id" || k == "subgroup_id" ||
              k == "max_loop_iterations" || k == "front_face" || k == "whole_workgroup") {
      arg_count(1);
      const uint32_t v = u32_arg(1);
      if (k == "first_vertex") in_.first_vertex = v;
      else if (k == "base_vertex") in_.base_vertex = v;
      else if (k == "instance_id") in_.instance_id = v;
      else if (k == "base_instance") in_.base_instance = v;
      else if (k == "draw_id") in_.draw_id = v;
      else if (k == "subgroup_id") in_.subgroup_id = v;
      else if (k == "max_loop_iterations") in_.max_loop_iterations = v;
      else if (k == "whole_workgroup") in_.whole_workgroup = v != 0;
      else in_.front_face = v != 0;
   } else if (k == "pixel") {
      const int c = channel(l, 1);
      if (c >= 0) {
         expect_values(l, 2);
         /* Channels not named keep the default layout. */
         while (in_.pixel.size() <= unsigned(c)) {
            const unsigned i = unsigned(in_.pixel.size());
            in_.pixel.push_back({float(2 * (i / 4) + (i & 1)), float((i & 3) >> 1)});
         }
         in_.pixel[unsigned(c)] = {real(l.values[0]), real(l.values[1])};
      } else {
         if (!l.has_colon || l.values.size() % 2 || l.values.size() > 2 * max_simd)
            fail_end(l, "expected ':' and x y per channel");
         in_.pixel.clear();
         for (size_t i = 0; i < l.values.size(); i += 2)
            in_.pixel.push_back({real(l.values[i]), real(l.values[i + 1])});
      }
   } else if (k == "triangle") {
      arg_count(0, true);
      expect_values(l, 12);
      for (unsigned v = 0; v < 3; v++) {
         in_.triangle[v] = {real(l.values[4 * v]), real(l.values[4 * v + 1]),
                            real(l.values[4 * v + 2]), real(l.values[4 * v + 3])};
      }
   } else if (k == "sample_pos") {
      arg_count(0, true);
      if (l.values.empty() || l.values.size() % 2)
         fail_end(l, "expected x y per sample");
      in_.sample_pos.clear();
      for (size_t i = 0; i < l.values.size(); i += 2)
         in_.sample_pos.push_back({real(l.values[i]), real(l.values[i + 1])});
   } else if (k == "workgroup_size") {
      triple(in_.workgroup_size);
   } else if (k == "workgroup_id") {
      triple(in_.workgroup_id);
   } else if (k == "num_workgroups") {
      triple(in_.num_workgroups);
   } else if (k == "texture") {
      parse_texture(l);
   } else if (k == "sampler") {
      parse_sampler(l);
   } else if (k == "image") {
      parse_image(l);
   } else {
      fail_at(key, "unknown key '" + k + "'");
   }
}

inputs
parser::parse()
{
   /* Lines that start with blanks continue the values of the line before. */
   line pending;
   unsigned pending_line = 0;
   auto flush = [&]() {
      if (!pending.head.empty()) {
         const unsigned last = line_no_;
         line_no_ = pending_line;
         statement(pending);
         line_no_ = last;
      }
      pending = line();
   };

   size_t pos = 0;
   while (pos <= text_.size()) {
      size_t end = text_.find('\n', pos);
      if (end == std::string::npos)
         end = text_.size();
      line_no_++;
      const std::string phys = text_.substr(pos, end - pos);
      pos = end + 1;
      line l = split(phys);
      for (token &t : l.head)
         t.line = line_no_;
      for (token &t : l.values)
         t.line = line_no_;
      if (l.head.empty() && !l.has_colon)
         continue;
      const bool continues = !phys.empty() && (phys[0] == ' ' || phys[0] == '\t');
      if (continues && pending.has_colon && !l.has_colon) {
         for (const token &t : l.head)
            pending.values.push_back(t);
         pending.col_end = l.col_end;
         pending.end_line = line_no_;
         continue;
      }
      flush();
      if (l.head.empty())
         fail_at(line_no_, 1, "a line must start with a key");
      pending = l;
      pending.end_line = pending_line = line_no_;
   }
   flush();
   return std::move(in_);
}

/* Printing */

std::string
hex(uint32_t w)
{
   return strfmt("0x%08x", w);
}

/* A float that reads back to the same bits. */
std::string
real_str(float f)
{
   if (std::isnan(f))
      return "nan";
   if (std::isinf(f))
      return f < 0 ? "-inf" : "inf";
   std::string s = strfmt("%.9g", double(f));
   if (s.find_first_of(".en") == std::string::npos)
      s += ".0";
   return s;
}

void
print_words(std::string &out, const std::vector<uint8_t> &b)
{
   for (size_t i = 0; i < b.size(); i += 4) {
      uint32_t w = 0;
      for (unsigned k = 0; k < 4 && i + k < b.size(); k++)
         w |= uint32_t(b[i + k]) << (8 * k);
      out += (i % 32 == 0 ? i ? "\n   " : " " : " ") + hex(w);
   }
   out += "\n";
}

/* "image N W[xH[xD]] dim [array] format:" and the words, 8 per line. */
void
print_image(std::string &o, unsigned index, const image &im)
{
   o += strfmt("image %u %u", index, im.width);
   if (im.coords() > 1)
      o += strfmt("x%u", im.height);
   if (im.coords() > 2)
      o += strfmt("x%u", im.depth);
   o += std::string(" ") + image_dim_names[unsigned(im.dim)];
   if (im.array)
      o += " array";
   o += std::string(" ") + image_format_names[unsigned(im.format)] + ":";
   for (size_t k = 0; k < im.words.size(); k++)
      o += (k % 8 == 0 && k ? "\n   " : " ") + hex(im.words[k]);
   o += "\n";
}

std::string
location_name(const name_table &t, unsigned loc)
{
   const char *n = name_of(t, loc);
   return n ? n : std::to_string(loc);
}

} /* anonymous namespace */

inputs
parse_inputs(const std::string &text, const std::string &filename)
{
   parser p(text, filename);
   return p.parse();
}

std::string
print_inputs(const inputs &in)
{
   std::string o;
   const inputs d;
   o += strfmt("simd %u\n", in.simd);
   if (in.channels != d.channels)
      o += "channels " + hex(in.channels) + "\n";
   if (in.helpers)
      o += "helpers " + hex(in.helpers) + "\n";
   if (!in.push.empty()) {
      o += "push:";
      print_words(o, in.push);
   }
   for (const auto &[i, b] : in.ubos) {
      o += strfmt("ubo %u:", i);
      print_words(o, b);
   }
   for (const auto &[i, b] : in.ssbos) {
      o += strfmt("ssbo %u:", i);
      print_words(o, b);
   }
   if (!in.shared.empty()) {
      o += "shared:";
      print_words(o, in.shared);
   }
   for (const auto &[loc, v] : in.attribs) {
      o += "attr " + location_name(vert_attrib_names, loc) + ":";
      for (const words4 &w : v)
         o += " " + hex(w[0]) + " " + hex(w[1]) + " " + hex(w[2]) + " " + hex(w[3]);
      o += "\n";
   }
   auto list = [&](const char *key, const std::vector<uint32_t> &v) {
      if (v.empty())
         return;
      o += key;
      o += ":";
      for (uint32_t x : v)
         o += strfmt(" %u", x);
      o += "\n";
   };
   list("vertex_id", in.vertex_id);
   auto scalar = [&](const char *key, uint32_t v, uint32_t dflt) {
      if (v != dflt)
         o += strfmt("%s %u\n", key, v);
   };
   scalar("first_vertex", in.first_vertex, d.first_vertex);
   scalar("base_vertex", in.base_vertex, d.base_vertex);
   scalar("instance_id", in.instance_id, d.instance_id);
   scalar("base_instance", in.base_instance, d.base_instance);
   scalar("draw_id", in.draw_id, d.draw_id);

   if (!in.pixel.empty()) {
      o += "pixel:";
      for (const auto &p : in.pixel)
         o += " " + real_str(p[0]) + " " + real_str(p[1]);
      o += "\n";
   }
   o += "triangle:";
   for (const raster_vertex &v : in.triangle)
      o += " " + real_str(v.x) + " " + real_str(v.y) + " " + real_str(v.z) +
           " " + real_str(v.w);
   o += "\n";
   for (const auto &[loc, v] : in.varyings) {
      o += "varying " + location_name(varying_slot_names, loc) + ":";
      for (const words4 &w : v)
         o += " " + hex(w[0]) + " " + hex(w[1]) + " " + hex(w[2]) + " " + hex(w[3]);
      o += "\n";
   }
   scalar("front_face", in.front_face, d.front_face);
   o += "sample_pos:";
   for (const auto &p : in.sample_pos)
      o += " " + real_str(p[0]) + " " + real_str(p[1]);
   o += "\n";
   list("sample_id", in.sample_id);
   list("sample_mask_in", in.sample_mask_in);

   auto triple = [&](const char *key, const std::array<unsigned, 3> &v) {
      o += strfmt("%s %u %u %u\n", key, v[0], v[1], v[2]);
   };
   triple("workgroup_size", in.workgroup_size);
   triple("workgroup_id", in.workgroup_id);
   triple("num_workgroups", in.num_workgroups);
   scalar("subgroup_id", in.subgroup_id, d.subgroup_id);
   scalar("whole_workgroup", in.whole_workgroup, d.whole_workgroup);
   scalar("max_loop_iterations", in.max_loop_iterations, d.max_loop_iterations);

   for (const auto &[i, t] : in.textures) {
      /* The sizes parse_texture() expects: W, WxLAYERS, WxH or WxHxD. */
      o += strfmt("texture %u %u", i, t.width);
      if (t.dim == tex_dim::d1 && t.array)
         o += strfmt("x%u", t.depth);
      else if (t.dim != tex_dim::d1)
         o += strfmt("x%u", t.height);
      if (t.dim == tex_dim::d3 || t.dim == tex_dim::cube ||
          (t.array && t.dim != tex_dim::d1))
         o += strfmt("x%u", t.depth);
      o += std::string(" ") + dim_names[unsigned(t.dim)];
      if (t.array)
         o += " array";
      if (t.levels != 1)
         o += strfmt(" levels %u", t.levels);
      o += std::string(" ") + format_names[unsigned(t.format)] + ":";
      for (size_t k = 0; k < t.texels.size(); k++) {
         o += k % 4 == 0 && k ? "\n   " : " ";
         for (unsigned c = 0; c < 4; c++)
            o += (c ? " " : "") + hex(t.texels[k][c]);
      }
      o += "\n";
   }
   for (const auto &[i, s] : in.samplers) {
      o += strfmt("sampler %u %s %s wrap %s %s %s compare %s\n", i,
                  filter_names[unsigned(s.filt)], mip_names[unsigned(s.mip)],
                  wrap_names[unsigned(s.wrap[0])], wrap_names[unsigned(s.wrap[1])],
                  wrap_names[unsigned(s.wrap[2])],
                  compare_names[unsigned(s.compare)]);
   }
   for (const auto &[i, im] : in.images)
      print_image(o, i, im);
   return o;
}

std::string
print_outputs(const outputs &out, shader_stage stage)
{
   std::string o;
   const name_table &names = stage == shader_stage::fragment ? frag_result_names
                                                             : varying_slot_names;
   for (const auto &[key, slot] : out.slots) {
      for (unsigned comp = 0; comp < 4; comp++) {
         if (!slot.written[comp])
            continue;
         o += location_name(names, key.location);
         if (key.index)
            o += strfmt("[%u]", key.index);
         o += strfmt(".%c:", "xyzw"[comp]);
         for (unsigned c = 0; c < out.simd; c++) {
            o += slot.written[comp] >> c & 1 ? " " + hex(slot.value[comp][c])
                                             : std::string(" -");
         }
         o += "\n";
      }
   }
   if (stage == shader_stage::fragment)
      o += "killed " + hex(out.killed) + "\nhelpers " + hex(out.helpers) + "\n";
   for (const auto &[i, b] : out.ssbos) {
      o += strfmt("ssbo %u:", i);
      print_words(o, b);
   }
   if (!out.shared.empty()) {
      o += "shared:";
      print_words(o, out.shared);
   }
   for (const auto &[i, im] : out.images)
      print_image(o, i, im);
   return o;
}

} /* namespace ibis::nir::interp */
