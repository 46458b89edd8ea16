/*
 * Assembler for the i965_asm syntax (which brw_disasm also prints).
 *
 * The parser works on characters directly: the syntax is context
 * dependent ("g12UD", "nullUD", ".sat", ".f0.1"), which a separate token
 * stream would only obscure.  Instructions get the same operand fields
 * Mesa's assembler gives them, so the bytes match i965_asm's.
 */
#include <cctype>
#include <cstdarg>
#include <cstring>
#include <map>

#include "isa/isa_bits.h"
#include "util/ibis_error.h"

namespace ibis::isa {

namespace {

struct parsed_inst {
   inst in;
   unsigned line;
   std::string jip_label, uip_label;   /* empty: numeric offset */
};

class parser {
public:
   parser(const std::string &text, const std::string &file, gen g)
      : s(text), file(file), g(g) {}

   std::vector<parsed_inst> insts;
   std::vector<std::pair<std::string, size_t>> labels;   /* name, index */
   std::vector<unsigned> label_lines;

   void parse()
   {
      for (;;) {
         skip_space();
         if (pos >= s.size())
            break;
         stmt_line = line;
         statement();
      }
   }

   [[noreturn]] void error(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
   {
      va_list ap;
      va_start(ap, fmt);
      std::string msg = vstrfmt(fmt, ap);
      va_end(ap);
      throw ibis::error(source_loc{file, line, 0}, msg);
   }

private:
   const std::string &s;
   std::string file;
   gen g;
   size_t pos = 0;
   unsigned line = 1;
   unsigned stmt_line = 1;

   /* ---- characters ---- */

   char peek(size_t ahead = 0) const
   {
      return pos + ahead < s.size() ? s[pos + ahead] : '\0';
   }

   void advance(size_t n = 1)
   {
      for (size_t i = 0; i < n && pos < s.size(); i++) {
         if (s[pos] == '\n')
            line++;
         pos++;
      }
   }

   void skip_space()
   {
      for (;;) {
         char c = peek();
         if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            advance();
         } else if (c == '/' && peek(1) == '*') {
            size_t end = s.find("*/", pos + 2);
            if (end == std::string::npos)
               error("unterminated comment");
            advance(end + 2 - pos);
         } else if (c == '/' && peek(1) == '/') {
            while (pos < s.size() && peek() != '\n')
               advance();
         } else {
            return;
         }
      }
   }

   bool accept(const char *word)
   {
      skip_space();
      size_t n = strlen(word);
      if (s.compare(pos, n, word) != 0)
         return false;
      advance(n);
      return true;
   }

   /* Accepts a word only when no identifier character follows it. */
   bool accept_word(const char *word)
   {
      skip_space();
      size_t n = strlen(word);
      if (s.compare(pos, n, word) != 0)
         return false;
      char next = pos + n < s.size() ? s[pos + n] : '\0';
      if (isalnum((unsigned char)next) || next == '_')
         return false;
      advance(n);
      return true;
   }

   void expect(const char *what)
   {
      if (!accept(what))
         error("expected '%s' near '%s'", what, context().c_str());
   }

   std::string context() const
   {
      size_t end = pos;
      while (end < s.size() && end < pos + 12 && s[end] != '\n')
         end++;
      return pos >= s.size() ? std::string("end of file") : s.substr(pos, end - pos);
   }

   std::string ident()
   {
      skip_space();
      size_t start = pos;
      while (isalnum((unsigned char)peek()) || peek() == '_')
         advance();
      return s.substr(start, pos - start);
   }

   std::string lower_word()
   {
      size_t start = pos;
      while (islower((unsigned char)peek()))
         advance();
      return s.substr(start, pos - start);
   }

   bool at_number() const
   {
      return isdigit((unsigned char)peek());
   }

   uint64_t number()
   {
      if (!at_number())
         error("expected a number near '%s'", context().c_str());
      uint64_t v = 0;
      if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
         advance(2);
         if (!isxdigit((unsigned char)peek()))
            error("bad hexadecimal number");
         /* Hex digits are lower case, so that "0x0F" reads as 0x0 F. */
         while (isdigit((unsigned char)peek()) || (peek() >= 'a' && peek() <= 'f')) {
            char c = peek();
            v = v << 4 | unsigned(isdigit((unsigned char)c) ? c - '0' : c - 'a' + 10);
            advance();
         }
      } else {
         while (at_number()) {
            v = v * 10 + unsigned(peek() - '0');
            advance();
         }
      }
      return v;
   }

   int64_t signed_number()
   {
      skip_space();
      bool neg = false;
      if (peek() == '-') {
         neg = true;
         advance();
      }
      uint64_t v = number();
      return neg ? -int64_t(v) : int64_t(v);
   }

   unsigned small_number(unsigned max, const char *what)
   {
      uint64_t v = number();
      if (v > max)
         error("%s %llu out of range", what, (unsigned long long)v);
      return unsigned(v);
   }

   /* ---- pieces of operands ---- */

   bool type_suffix(isa::type *t, bool immediate)
   {
      if (peek() == ':')
         advance();
      size_t start = pos;
      while (isupper((unsigned char)peek()))
         advance();
      std::string name = s.substr(start, pos - start);
      for (unsigned i = 0; i < num_types; i++) {
         if (name == tables::types[i].name) {
            *t = isa::type(i);
            if (!immediate && tables::types[i].reg_hw < 0)
               error("type %s is only valid for immediates", name.c_str());
            return true;
         }
      }
      if (name.empty())
         return false;
      error("unknown type '%s'", name.c_str());
   }

   isa::type need_type(bool immediate = false)
   {
      isa::type t;
      if (!type_suffix(&t, immediate))
         error("expected a type near '%s'", context().c_str());
      return t;
   }

   /* A register name without sub-register: "g12", "null", "acc0", ... */
   bool reg_name(reg &r)
   {
      size_t save = pos;
      unsigned save_line = line;
      std::string word = lower_word();
      r.file = reg_file::arf;
      if (word == "g" || word == "r") {
         if (peek() == '[') {
            r.file = reg_file::grf;
            r.indirect = true;
            return true;
         }
         r.file = reg_file::grf;
         r.nr = small_number(127, "register number");
         return true;
      }
      if (word == "null") {
         r.nr = unsigned(arf::null);
         return true;
      }
      if (word == "ip") {
         r.nr = unsigned(arf::ip);
         return true;
      }
      static const struct { const char *name; arf kind; unsigned max; } arfs[] = {
         { "a", arf::address, 0 }, { "acc", arf::acc, 9 }, { "f", arf::flag, 1 },
         { "mask", arf::mask, 0 }, { "ce", arf::mask, 0 }, { "ms", arf::mask_stack, 0 },
         { "msd", arf::mask_stack_depth, 0 }, { "sr", arf::state, 1 },
         { "cr", arf::control, 0 }, { "n", arf::notification, 0 },
         { "tdr", arf::tdr, 0 }, { "tm", arf::timestamp, 0 },
      };
      for (const auto &a : arfs) {
         if (word == a.name && at_number()) {
            r.nr = unsigned(a.kind) | small_number(a.max, "register number");
            return true;
         }
      }
      pos = save;
      line = save_line;
      return false;
   }

   unsigned subreg()
   {
      if (peek() == '.' && isdigit((unsigned char)peek(1))) {
         advance();
         return small_number(31, "sub-register number");
      }
      return 0;
   }

   /* g[a0.N +-imm] */
   void indirect_address(reg &r)
   {
      expect("[");
      skip_space();
      if (lower_word() != "a" || number() != 0)
         error("expected a0 in an indirect address");
      r.ia_subnr = subreg();
      skip_space();
      if (peek() != ']') {
         int64_t off = signed_number();
         if (off < -512 || off > 511)
            error("indirect offset %lld out of range", (long long)off);
         r.ia_imm = int16_t(off);
      }
      expect("]");
   }

   unsigned region_value(const char *what, unsigned max, bool allow_zero)
   {
      skip_space();
      unsigned v = small_number(max, what);
      if ((v == 0 && !allow_zero) || (v & (v - 1)))
         error("invalid %s %u", what, v);
      return v;
   }

   void src_region(reg &r)
   {
      if (!accept("<")) {
         r.vstride = 0;
         r.width = 1;
         r.hstride = 0;
         return;
      }
      if (accept("VxH"))
         r.vstride = vstride_vxh;
      else
         r.vstride = region_value("vertical stride", 32, true);
      if (accept(">")) {
         r.width = 1;
         r.hstride = 0;
         return;
      }
      if (!accept(",") && !accept(";"))
         error("expected ',' in a region");
      r.width = region_value("width", 16, false);
      expect(",");
      r.hstride = region_value("horizontal stride", 4, true);
      expect(">");
   }

   unsigned channel(char c)
   {
      const char *p = strchr("xyzw", c);
      return p && c ? unsigned(p - "xyzw") : 4;
   }

   void swizzle(reg &r)
   {
      if (peek() != '.' || channel(peek(1)) > 3)
         return;
      advance();
      unsigned ch[4], n = 0;
      while (n < 4 && channel(peek()) <= 3) {
         ch[n++] = channel(peek());
         advance();
      }
      if (n == 1)
         r.swizzle = make_swizzle(ch[0], ch[0], ch[0], ch[0]);
      else if (n == 4)
         r.swizzle = make_swizzle(ch[0], ch[1], ch[2], ch[3]);
      else
         error("a swizzle has one or four channels");
   }

   void writemask(reg &r)
   {
      if (peek() != '.' || channel(peek(1)) > 3)
         return;
      advance();
      unsigned mask = 0, last = 0;
      bool first = true;
      while (channel(peek()) <= 3) {
         unsigned c = channel(peek());
         if (!first && c <= last)
            error("writemask channels must be in xyzw order");
         mask |= 1u << c;
         last = c;
         first = false;
         advance();
      }
      r.writemask = mask;
   }

   /* ---- operands ---- */

   reg dst()
   {
      skip_space();
      reg r;
      if (!reg_name(r))
         error("expected a destination register near '%s'", context().c_str());
      if (r.indirect)
         indirect_address(r);
      unsigned sub = r.indirect ? 0 : subreg();
      r.hstride = 1;
      if (accept("<")) {
         r.hstride = region_value("horizontal stride", 4, true);
         expect(">");
      }
      writemask(r);
      r.type = need_type();
      r.subnr = sub * type_size(r.type);
      r.vstride = 0;
      r.width = 1;
      return r;
   }

   reg immediate(bool negative)
   {
      reg r;
      r.file = reg_file::imm;
      uint64_t v;
      if (accept("[")) {
         /* Packed vector of four 8-bit values, as in VF immediates. */
         v = 0;
         for (unsigned i = 0; i < 4; i++) {
            if (i)
               expect(",");
            skip_space();
            v |= (uint64_t(signed_number()) & 0xff) << (8 * i);
         }
         expect("]");
      } else {
         v = number();
      }
      if (negative)
         v = uint64_t(-int64_t(v));
      r.type = need_type(true);
      switch (r.type) {
      case type::UW:
      case type::W:
         v = (v & 0xffff) * 0x10001u;
         break;
      case type::DF:
      case type::Q:
      case type::UQ:
         break;
      case type::F:
         /* The bits of the float, not its value: "0x3f800000F" is 1.0. */
         if (v >> 32)
            error("immediate 0x%llx does not fit in 32 bits", (unsigned long long)v);
         break;
      default:
         if ((v >> 32) && (v >> 32) != 0xffffffffu)
            error("immediate 0x%llx does not fit in 32 bits", (unsigned long long)v);
         v &= 0xffffffffu;
         break;
      }
      r.imm = v;
      return r;
   }

   reg src(bool allow_imm = true)
   {
      skip_space();
      bool negate = false, abs = false;
      if (peek() == '-' || peek() == '~') {
         advance();
         skip_space();
         if (at_number() || peek() == '[') {
            if (!allow_imm)
               error("an immediate is not allowed here");
            return immediate(true);
         }
         negate = true;
      }
      if (accept("(abs)"))
         abs = true;
      skip_space();
      if (at_number() || peek() == '[') {
         if (!allow_imm || negate || abs)
            error("an immediate is not allowed here");
         return immediate(false);
      }
      reg r;
      if (!reg_name(r))
         error("expected a source operand near '%s'", context().c_str());
      r.negate = negate;
      r.abs = abs;
      unsigned sub = 0;
      if (r.indirect)
         indirect_address(r);
      else
         sub = subreg();
      src_region(r);
      swizzle(r);
      r.type = need_type();
      r.subnr = sub * type_size(r.type);
      return r;
   }

   /* Split-send operands: "g12UD", "nullUD", "g12.1UD". */
   reg send_operand()
   {
      skip_space();
      reg r;
      if (!reg_name(r) || r.indirect)
         error("expected a register near '%s'", context().c_str());
      unsigned sub = subreg();
      r.subnr = sub * 16;
      r.type = need_type();
      r.vstride = 0;
      r.width = 1;
      r.hstride = 1;
      return r;
   }

   /* ---- instructions ---- */

   void predicate(inst &in)
   {
      if (!accept("("))
         return;
      skip_space();
      in.pred_inv = false;
      if (peek() == '+' || peek() == '-') {
         in.pred_inv = peek() == '-';
         advance();
      }
      flag_reg(in);
      in.pred = pred_ctrl::normal;
      if (peek() == '.') {
         std::string suffix = ".";
         advance();
         suffix += ident();
         bool found = false;
         for (unsigned i = 2; i < 16 && !found; i++) {
            const char *a1 = tables::pred_suffix_align1[i];
            const char *a16 = tables::pred_suffix_align16[i];
            if (a16 && suffix == a16 && i < 6) {
               in.pred = pred_ctrl(i);
               found = true;
            } else if (a1 && suffix == a1) {
               in.pred = pred_ctrl(i);
               found = true;
            }
         }
         if (!found)
            error("unknown predicate control '%s'", suffix.c_str());
      }
      expect(")");
   }

   void flag_reg(inst &in)
   {
      skip_space();
      if (peek() != 'f' || !isdigit((unsigned char)peek(1)))
         error("expected a flag register near '%s'", context().c_str());
      advance();
      in.flag_nr = small_number(1, "flag register");
      in.flag_subnr = 0;
      if (peek() == '.' && isdigit((unsigned char)peek(1))) {
         advance();
         in.flag_subnr = small_number(1, "flag sub-register");
      }
   }

   void cond_modifier(inst &in)
   {
      static const struct { const char *name; cond_mod c; } mods[] = {
         { "ge", cond_mod::ge }, { "le", cond_mod::le }, { "ne", cond_mod::nz },
         { "nz", cond_mod::nz }, { "e", cond_mod::z }, { "z", cond_mod::z },
         { "g", cond_mod::g }, { "l", cond_mod::l }, { "o", cond_mod::o },
         { "r", cond_mod::r }, { "u", cond_mod::u },
      };
      if (peek() != '.')
         return;
      size_t save = pos;
      advance();
      std::string word = lower_word();
      for (const auto &m : mods) {
         if (word == m.name) {
            in.cmod = m.c;
            if (peek() == '.' && peek(1) == 'f') {
               advance();
               flag_reg(in);
            }
            return;
         }
      }
      pos = save;
   }

   void exec_size(inst &in)
   {
      if (!accept("("))
         error("expected an execution size near '%s'", context().c_str());
      skip_space();
      unsigned n = small_number(32, "execution size");
      if (n == 0 || (n & (n - 1)))
         error("invalid execution size %u", n);
      in.exec_size = n;
      expect(")");
   }

   std::string jump_target(const char *what, int32_t *offset)
   {
      if (!accept(what))
         error("expected '%s' near '%s'", what, context().c_str());
      skip_space();
      if (at_number() || peek() == '-') {
         *offset = int32_t(signed_number());
         return std::string();
      }
      std::string name = ident();
      if (name.empty())
         error("expected a label after '%s'", what);
      return name;
   }

   void options(inst &in)
   {
      if (!accept("{"))
         return;
      for (;;) {
         skip_space();
         if (accept("}"))
            break;
         if (accept(","))
            continue;
         std::string w = ident();
         if (w == "align1")
            in.access = access_mode::align1;
         else if (w == "align16")
            in.access = access_mode::align16;
         else if (w == "WE_all" || w == "nomask")
            in.mask_disable = true;
         else if (w == "NoDDClr")
            in.no_dd_clear = true;
         else if (w == "NoDDChk")
            in.no_dd_check = true;
         else if (w == "AccWrEnable" || w == "BranchCtrl")
            in.acc_wr = true;
         else if (w == "EOT")
            in.eot = true;
         else if (w == "switch")
            in.thread = thread_ctrl::switch_;
         else if (w == "atomic")
            in.thread = thread_ctrl::atomic;
         else if (w == "breakpoint")
            in.debug = true;
         else if (w == "compacted")
            ;  /* compaction is the encoder's decision */
         else if (w.size() == 2 && isdigit((unsigned char)w[0]) &&
                  (w[1] == 'Q' || w[1] == 'H' || w[1] == 'N') && w[0] >= '1') {
            unsigned n = w[0] - '1';
            unsigned unit = w[1] == 'Q' ? 8 : w[1] == 'H' ? 16 : 4;
            if (n * unit >= 32)
               error("invalid channel group '%s'", w.c_str());
            in.group = n * unit;
         } else if (w.empty()) {
            error("unexpected '%c' in instruction options", peek());
         } else {
            error("unknown instruction option '%s'", w.c_str());
         }
      }
   }

   isa::sfid shared_function()
   {
      skip_space();
      /* Longest names first: "dp data 1" before "data". */
      static const struct { const char *name; isa::sfid id; } names[] = {
         { "dp data 1", sfid::data_cache1 }, { "pixel interp", sfid::pixel_interp },
         { "dp_sampler", sfid::sampler_cache }, { "thread_spawner", sfid::thread_spawner },
         { "sampler", sfid::sampler }, { "gateway", sfid::gateway },
         { "render", sfid::render_cache }, { "const", sfid::const_cache },
         { "data", sfid::data_cache }, { "urb", sfid::urb }, { "null", sfid::null },
         { "vme", sfid::vme }, { "cre", sfid::cre },
      };
      for (const auto &n : names) {
         if (accept_word(n.name))
            return n.id;
      }
      error("unknown shared function near '%s'", context().c_str());
   }

   void message_description()
   {
      /* "MsgDesc: ..." up to the options is a comment for the reader. */
      if (!accept("MsgDesc:"))
         return;
      while (pos < s.size() && peek() != '{' && peek() != ';')
         advance();
   }

   uint32_t descriptor(const char *what)
   {
      skip_space();
      int64_t v = signed_number();
      if (v < INT32_MIN || v > int64_t(UINT32_MAX))
         error("%s 0x%llx does not fit in 32 bits", what, (long long)v);
      return uint32_t(v);
   }

   void send(inst &in)
   {
      in.dst = dst();
      in.src[0] = src(false);
      skip_space();
      if (at_number() || peek() == '-') {
         uint32_t desc = descriptor("descriptor");
         in.desc = desc & 0x7fffffff;
      } else {
         in.src[1] = src(false);
         in.desc_indirect = true;
         /* brw prints the descriptor word even when it is a register. */
         skip_space();
         if (at_number())
            number();
      }
      in.sfid = shared_function();
      message_description();
   }

   void split_send(inst &in)
   {
      in.dst = send_operand();
      in.src[0] = send_operand();
      in.src[1] = send_operand();
      skip_space();
      if (peek() == 'a' || peek() == 'g') {
         /* "a0<0>UD", or "g[a0]UD" as older brw printed it. */
         reg a = src(false);
         if (a.arf_kind() != arf::address && !a.indirect)
            error("an indirect descriptor must be in a0");
         in.desc_indirect = true;
      } else {
         in.desc = descriptor("descriptor") & 0x7fffffff;
      }
      skip_space();
      if (peek() == 'a') {
         reg a = src(false);
         if (a.arf_kind() != arf::address)
            error("an indirect extended descriptor must be in a0");
         in.ex_desc_indirect = true;
         in.ex_desc_subnr = a.subnr / type_size(a.type);
      } else {
         in.ex_desc = descriptor("extended descriptor");
         if (in.ex_desc & 0xfc3f)
            error("extended descriptor 0x%08x has bits SENDS cannot hold", in.ex_desc);
      }
      in.sfid = shared_function();
      message_description();
   }

   void branch(parsed_inst &pi)
   {
      inst &in = pi.in;
      inst b = make_branch(in.op, in.exec_size, 0, 0);
      in.dst = b.dst;
      in.src = b.src;

      pi.jip_label = jump_target("JIP:", &in.jip);
      if (has_uip(in.op)) {
         skip_space();
         /* IF and ELSE may leave UIP out (it stays 0, as with i965_asm). */
         bool optional = in.op == opcode::if_ || in.op == opcode::else_;
         if (!optional || s.compare(pos, 4, "UIP:") == 0)
            pi.uip_label = jump_target("UIP:", &in.uip);
      }
   }

   void statement()
   {
      parsed_inst pi;
      inst &in = pi.in;
      pi.line = stmt_line;

      /* A label: "NAME:". */
      size_t save = pos;
      std::string word = ident();
      if (!word.empty() && peek() == ':') {
         advance();
         labels.push_back({ word, insts.size() });
         label_lines.push_back(stmt_line);
         return;
      }
      pos = save;

      predicate(in);
      std::string name = ident();
      if (name.empty())
         error("expected an instruction near '%s'", context().c_str());
      bool found = false;
      for (unsigned i = 0; i < 128; i++) {
         if (tables::opcodes[i].name && name == tables::opcodes[i].name) {
            in.op = opcode(i);
            found = true;
            break;
         }
      }
      if (!found)
         error("unknown instruction '%s'", name.c_str());
      const opcode_info &oi = info(in.op);

      if (accept(".sat"))
         in.saturate = true;

      if (in.op == opcode::nop) {
         in.exec_size = 1;
         options(in);
         expect(";");
         insts.push_back(pi);
         return;
      }

      if (in.op == opcode::math) {
         std::string fn = ident();
         bool ok = false;
         for (unsigned i = 1; i < 16; i++) {
            if (tables::math_names[i] && fn == tables::math_names[i]) {
               in.math = math_fn(i);
               ok = true;
            }
         }
         if (!ok)
            error("unknown math function '%s'", fn.c_str());
      } else {
         cond_modifier(in);
      }
      exec_size(in);

      switch (oi.form) {
      case op_form::branch:
      case op_form::branch2:
         branch(pi);
         break;
      case op_form::send:
         send(in);
         break;
      case op_form::sends:
         split_send(in);
         break;
      case op_form::tri:
         in.dst = dst();
         for (unsigned i = 0; i < 3; i++) {
            in.src[i] = src(false);
            /* Mesa's assembler leaves replicated sources with an .xxxx
             * swizzle (brw_disasm does not print it).
             */
            if (in.src[i].vstride == 0)
               in.src[i].swizzle = swizzle_xxxx;
         }
         break;
      case op_form::wait:
         in.dst = dst();
         if (in.dst.arf_kind() != arf::notification)
            error("wait must use the notification register");
         /* brw encodes the register again as a scalar source. */
         in.src[0] = scalar(in.dst);
         in.src[0].hstride = 0;
         in.src[1] = null_reg(type::F);
         in.mask_disable = true;
         break;
      case op_form::jmpi: {
         inst j = make_jmpi(0);
         in.dst = j.dst;
         in.src[0] = j.src[0];
         skip_space();
         /* Mesa's form, the distance from the next instruction in the
          * final layout ("368D"); "JIP: LABEL"; or the index register.
          */
         if (s.compare(pos, 4, "JIP:") == 0) {
            in.src[1] = imm_d(0);
            pi.jip_label = jump_target("JIP:", &in.jip);
         } else {
            in.src[1] = src();
            if (in.src[1].file == reg_file::imm) {
               if (in.src[1].type != type::D)
                  error("a JMPI distance is a D immediate");
               in.jip = int32_t(uint32_t(in.src[1].imm)) + (g < gen::gen12 ? 16 : 0);
               in.jip_final = true;
            }
         }
         break;
      }
      default:
         if (oi.ndst)
            in.dst = dst();
         if (oi.nsrc >= 1)
            in.src[0] = src();
         if (oi.nsrc >= 2) {
            in.src[1] = src();
         } else if (in.src[0].file == reg_file::imm) {
            in.src[1] = unused_src1(in.src[0]);
         }
         break;
      }
      options(in);
      expect(";");
      check(in);
      insts.push_back(pi);
   }

   void check(const inst &in)
   {
      if (is_3src(in.op) && in.access != access_mode::align16)
         error("three-source instructions must be align16");
      if (in.src[0].file == reg_file::imm && in.src[1].file == reg_file::imm)
         error("only one source can be an immediate");
      if (in.src[1].file == reg_file::imm && is_64bit_imm(in.src[1].type) &&
          !is_send(in.op))
         error("a 64-bit immediate must be the first source");
      if (in.group + in.exec_size > 32 && in.exec_size < 32)
         error("channel group does not fit the execution size");
   }
};

} /* namespace */

using label_table = std::map<std::string, size_t>;   /* name -> index */

static std::vector<parsed_inst>
parse_all(const std::string &text, gen g, const std::string &filename, label_table *labels)
{
   parser p(text, filename, g);
   p.parse();
   /* Every label used must be defined, once. */
   for (size_t i = 0; i < p.labels.size(); i++) {
      if (!labels->emplace(p.labels[i].first, p.labels[i].second).second)
         throw ibis::error(source_loc{ filename, p.label_lines[i], 0 },
                           strfmt("label '%s' defined twice", p.labels[i].first.c_str()));
   }
   for (const parsed_inst &pi : p.insts) {
      for (const std::string *name : { &pi.jip_label, &pi.uip_label }) {
         if (!name->empty() && !labels->count(*name))
            throw ibis::error(source_loc{ filename, pi.line, 0 },
                              strfmt("undefined label '%s'", name->c_str()));
      }
   }
   return p.insts;
}

/* Branch offsets in bytes of the native layout (16 per instruction). */
static void
set_targets(std::vector<parsed_inst> &insts, const label_table &labels)
{
   for (size_t i = 0; i < insts.size(); i++) {
      parsed_inst &pi = insts[i];
      auto offset = [&](const std::string &name) {
         return int32_t(16 * (int64_t(labels.at(name)) - int64_t(i)));
      };
      if (!pi.jip_label.empty())
         pi.in.jip = offset(pi.jip_label);
      if (!pi.uip_label.empty())
         pi.in.uip = offset(pi.uip_label);
   }
}

std::vector<inst>
parse_asm(const std::string &text, gen g, const std::string &filename)
{
   label_table labels;
   std::vector<parsed_inst> insts = parse_all(text, g, filename, &labels);
   set_targets(insts, labels);
   std::vector<inst> out;
   for (const parsed_inst &pi : insts)
      out.push_back(pi.in);
   return out;
}

std::vector<uint8_t>
assemble(const std::string &text, gen g, bool compaction, const std::string &filename)
{
   label_table labels;
   std::vector<parsed_inst> insts = parse_all(text, g, filename, &labels);
   set_targets(insts, labels);

   /* Encode each instruction once here so that errors carry its line. */
   std::vector<inst> prog;
   for (const parsed_inst &pi : insts) {
      try {
         encode(pi.in, g);
      } catch (const ibis::error &e) {
         throw ibis::error(source_loc{ filename, pi.line, 0 }, e.what());
      }
      prog.push_back(pi.in);
   }
   return encode_program(prog, g, compaction);
}

} /* namespace ibis::isa */
