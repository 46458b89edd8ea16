/*
 * The IR text parser: a line-oriented recursive descent over the syntax of
 * docs/ir.md.  Values may be used before their declaration (loop phis);
 * such operands are completed once the whole text is read.
 */
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>

#include "ir/ibis_ir.h"
#include "ir/ibis_text.h"
#include "util/ibis_error.h"

namespace ibis {

namespace {

class parser {
public:
   parser(const std::string &text, const std::string &file)
      : text(text), file(file) {}

   std::unique_ptr<shader> run();

private:
   /* An operand whose value was not declared yet when it was read. */
   struct fixup {
      instr *in;
      int slot;             /* source index, or use::preserve */
      unsigned comp, rest;
      bool typed;
      source_loc loc;
   };

   const std::string &text;
   std::string file;
   size_t pos = 0;
   unsigned line = 1;
   size_t line_start = 0;

   std::unique_ptr<shader> sh;
   std::vector<bool> declared;
   std::vector<fixup> fixups;

   bool is_declared(uint32_t id) const
   {
      return id < declared.size() && declared[id];
   }

   source_loc loc() const
   {
      return source_loc{file, line, unsigned(pos - line_start + 1)};
   }
   /* The location of the next token. */
   source_loc here()
   {
      skip_ws();
      return loc();
   }
   [[noreturn]] void error_at(const source_loc &l, const std::string &msg)
   {
      fail(l, "%s", msg.c_str());
   }
   [[noreturn]] void err(const char *fmt, ...)
      __attribute__((format(printf, 2, 3)))
   {
      va_list ap;
      va_start(ap, fmt);
      std::string msg = vstrfmt(fmt, ap);
      va_end(ap);
      error_at(loc(), msg);
   }

   char peek() const { return pos < text.size() ? text[pos] : '\n'; }
   bool at_eol() const { return peek() == '\n' || peek() == ';'; }

   void skip_ws()
   {
      while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                   text[pos] == '\r'))
         pos++;
   }
   bool accept(char c)
   {
      skip_ws();
      if (peek() != c)
         return false;
      pos++;
      return true;
   }
   void expect(char c)
   {
      if (!accept(c))
         err("expected '%c'", c);
   }
   void end_line()
   {
      skip_ws();
      if (peek() == ';') {
         while (pos < text.size() && text[pos] != '\n')
            pos++;
      }
      if (pos < text.size()) {
         if (text[pos] != '\n')
            err("unexpected '%c'", text[pos]);
         pos++;
         line++;
         line_start = pos;
      }
   }
   /* Skips blank and comment-only lines; false at the end of the text. */
   bool next_line()
   {
      for (;;) {
         skip_ws();
         if (pos >= text.size())
            return false;
         if (!at_eol())
            return true;
         end_line();
      }
   }

   std::string ident()
   {
      skip_ws();
      size_t start = pos;
      while (pos < text.size() && (isalnum((unsigned char)text[pos]) ||
                                   text[pos] == '_'))
         pos++;
      if (start == pos)
         err("expected a name");
      return text.substr(start, pos - start);
   }
   bool peek_ident(const char *word)
   {
      skip_ws();
      size_t n = strlen(word);
      return text.compare(pos, n, word) == 0 &&
             (pos + n >= text.size() ||
              !(isalnum((unsigned char)text[pos + n]) || text[pos + n] == '_'));
   }
   unsigned number()
   {
      skip_ws();
      if (!isdigit((unsigned char)peek()))
         err("expected a number");
      char *end;
      errno = 0;
      unsigned long v = strtoul(text.c_str() + pos, &end, 10);
      if (errno || v > UINT32_MAX)
         err("number out of range");
      pos = end - text.c_str();
      return v;
   }

   shader_stage parse_stage(const std::string &s);
   data_type parse_type();
   value *parse_spec(reg_file file, uint32_t id, const source_loc &at);
   phys_reg parse_phys();
   uint32_t parse_value_id();
   value *lookup(uint32_t id, const source_loc &at, bool may_forward);
   void parse_offset(unsigned *comp, unsigned *rest);
   operand parse_imm();
   operand parse_operand(instr *in, int slot);
   void apply_offset(operand &o, unsigned comp, unsigned rest,
                     const source_loc &at);
   void parse_decl(reg_file file);
   void check_structure(block *b, opcode op, const source_loc &at);

   /* Open if/do constructs, for errors at the right line. */
   std::vector<std::pair<opcode, source_loc>> nesting;
   void parse_instr(block *b);
};

shader_stage
parser::parse_stage(const std::string &s)
{
   for (unsigned i = 0; i <= unsigned(shader_stage::cs); i++) {
      if (s == stage_name(shader_stage(i)))
         return shader_stage(i);
   }
   err("unknown shader stage '%s'", s.c_str());
}

data_type
parser::parse_type()
{
   source_loc at = here();
   std::string name = ident();
   data_type t;
   if (!type_from_name(name, &t))
      error_at(at, strfmt("unknown type '%s'", name.c_str()));
   return t;
}

uint32_t
parser::parse_value_id()
{
   expect('%');
   if (!isdigit((unsigned char)peek()))
      err("expected a value number after '%%'");
   source_loc at = loc();
   unsigned id = number();
   /* Values are indexed by number: keep the table reasonable. */
   if (id >= (1u << 20))
      error_at(at, strfmt("value number %u is too large", id));
   return id;
}

/* "f32x16+16[4]" then an optional "@g12.0". */
value *
parser::parse_spec(reg_file file, uint32_t id, const source_loc &at)
{
   skip_ws();
   size_t start = pos;
   while (pos < text.size() && isalnum((unsigned char)text[pos]))
      pos++;
   std::string word = text.substr(start, pos - start);
   size_t x = word.rfind('x');
   data_type t;
   if (x == std::string::npos || x + 1 == word.size() ||
       !type_from_name(word.substr(0, x), &t)) {
      pos = start;
      err("expected a value size like f32x16");
   }
   unsigned width = strtoul(word.c_str() + x + 1, nullptr, 10);
   unsigned group = 0, length = 1;
   if (accept('+'))
      group = number();
   if (accept('['))
      length = number(), expect(']');
   if (width == 0 || width > 32 || (width & (width - 1)))
      error_at(at, strfmt("bad SIMD width %u", width));
   if (group >= 32)
      error_at(at, strfmt("bad group %u", group));
   if (length == 0 || length > 1024)
      error_at(at, strfmt("bad length %u", length));
   /* A definition declares an SSA value, or a FLAG value by its type. */
   if (t == data_type::flag && file == reg_file::ssa)
      file = reg_file::flag;

   value *v = sh->find_value(id);
   if (is_declared(id))
      error_at(at, strfmt("%%%u is declared twice", id));
   if (!v)
      v = sh->create_value(file, t, width, length, group, id);
   /* Complete a value that uses created before its declaration. */
   v->file = file;
   v->type = t;
   v->width = width;
   v->group = group;
   v->length = length;
   if (declared.size() <= id)
      declared.resize(id + 1);
   declared[id] = true;
   skip_ws();
   if (peek() == '@')
      v->phys = parse_phys();
   return v;
}

phys_reg
parser::parse_phys()
{
   expect('@');
   phys_reg p;
   std::string name = ident();
   size_t digits = name.find_first_of("0123456789");
   std::string kind = name.substr(0, digits);
   if (digits == std::string::npos ||
       name.find_first_not_of("0123456789", digits) != std::string::npos)
      err("bad register '%s'", name.c_str());
   if (kind == "g")
      p.kind = phys_reg::grf;
   else if (kind == "f")
      p.kind = phys_reg::flag;
   else if (kind == "acc")
      p.kind = phys_reg::acc;
   else
      err("unknown register file in '@%s'", name.c_str());
   unsigned long nr = strtoul(name.c_str() + digits, nullptr, 10);
   unsigned subreg = 0;
   if (peek() == '.') {
      pos++;
      subreg = number();
   }
   if (nr > UINT16_MAX || subreg > UINT16_MAX)
      err("register number out of range");
   p.nr = nr;
   p.subreg = subreg;
   return p;
}

value *
parser::lookup(uint32_t id, const source_loc &at, bool may_forward)
{
   value *v = sh->find_value(id);
   if (is_declared(id))
      return v;
   if (!may_forward)
      error_at(at, strfmt("%%%u is written before it is declared", id));
   if (!v)
      v = sh->create_value(reg_file::ssa, data_type::none, 1, 1, 0, id);
   return v;
}

void
parser::parse_offset(unsigned *comp, unsigned *rest)
{
   *comp = *rest = 0;
   if (peek() == '[') {
      pos++;
      *comp = number();
      expect(']');
   }
   if (peek() == '.') {
      pos++;
      *rest = number();
   }
}

void
parser::apply_offset(operand &o, unsigned comp, unsigned rest,
                     const source_loc &at)
{
   unsigned cb = o.val->component_bytes();
   if (comp >= o.val->length)
      error_at(at, strfmt("component %u of %%%u, which has %u", comp,
                          o.val->id, o.val->length));
   if (rest && rest >= cb)
      error_at(at, strfmt("byte offset %u is not within one component of "
                          "%%%u (%u bytes); write [component]", rest,
                          o.val->id, cb));
   o.offset = comp * cb + rest;
}

operand
parser::parse_imm()
{
   skip_ws();
   size_t start = pos;
   if (peek() == '-' || peek() == '+')
      pos++;
   while (pos < text.size() && (isalnum((unsigned char)text[pos]) ||
                                text[pos] == '.' ||
                                ((text[pos] == '-' || text[pos] == '+') &&
                                 (text[pos - 1] == 'e' || text[pos - 1] == 'E'))))
      pos++;
   std::string tok = text.substr(start, pos - start);
   expect(':');
   data_type t = parse_type();
   bool hex = tok.find("0x") != std::string::npos ||
              tok.find("0X") != std::string::npos;
   const char *s = tok.c_str();
   char *end;
   errno = 0;
   uint64_t bits;
   if (type_is_float(t) && t != data_type::vf && !hex) {
      double d = strtod(s, &end);
      /* ERANGE on underflow still gives the nearest denormal (or zero),
       * which is what the printer wrote; only overflow is an error.
       */
      if (errno == ERANGE && std::isfinite(d))
         errno = 0;
      if (t == data_type::f32) {
         float f = d;
         uint32_t u;
         memcpy(&u, &f, 4);
         bits = u;
      } else if (t == data_type::f64) {
         memcpy(&bits, &d, 8);
      } else {
         pos = start;
         err("write %s immediates as hex bits", type_name(t));
      }
   } else if (tok[0] == '-') {
      bits = uint64_t(strtoll(s, &end, 0));
   } else {
      bits = strtoull(s, &end, 0);
   }
   if (tok.empty() || *end || errno) {
      pos = start;
      err("bad immediate '%s'", tok.c_str());
   }
   unsigned n = type_bits(t);
   if (n < 64) {
      /* The value must fit the type, as unsigned or as signed. */
      uint64_t high = bits >> n;
      bool fits = high == 0 || (tok[0] == '-' && (int64_t(bits) >> (n - 1)) == -1);
      if (!fits) {
         pos = start;
         err("immediate '%s' does not fit %s", tok.c_str(), type_name(t));
      }
   }
   return operand::imm_of(t, bits);
}

/* One source operand; one of a value not declared yet gets a fixup. */
operand
parser::parse_operand(instr *in, int slot)
{
   source_loc at = here();
   if (peek_ident("_")) {
      pos++;
      return operand();
   }
   bool neg = false, abs = false;
   if (peek() == '-' && pos + 1 < text.size() &&
       (text[pos + 1] == '%' || text[pos + 1] == '|')) {
      neg = true;
      pos++;
   }
   if (accept('|'))
      abs = true;
   skip_ws();
   if (peek() != '%') {
      if (neg || abs)
         err("modifiers apply to values, not immediates");
      return parse_imm();
   }
   uint32_t id = parse_value_id();
   value *v = lookup(id, at, true);
   operand o(v);
   o.neg = neg;
   o.abs = abs;
   unsigned comp, rest;
   parse_offset(&comp, &rest);
   if (accept('<')) {
      unsigned vs = number();
      expect(',');
      unsigned w = number();
      expect(',');
      unsigned hs = number();
      expect('>');
      if (vs > 32 || w > 16 || hs > 4)
         error_at(at, "region out of range");
      o.rgn = region{uint8_t(vs), uint8_t(w), uint8_t(hs)};
      o.has_region = true;
   }
   bool typed = false;
   if (accept(':')) {
      o.type = parse_type();
      typed = true;
   }
   if (abs)
      expect('|');
   if (v->type == data_type::none) {
      fixups.push_back(fixup{in, slot, comp, rest, typed, at});
   } else {
      apply_offset(o, comp, rest, at);
   }
   return o;
}

void
parser::parse_decl(reg_file file)
{
   source_loc at = here();
   uint32_t id = parse_value_id();
   expect(':');
   parse_spec(file, id, at);
   if (file == reg_file::hw_reg && !sh->find_value(id)->phys.valid())
      error_at(at, "a hw value needs its register, e.g. @g0");
   end_line();
}

static bool
cond_mod_from_name(const std::string &s, cond_mod *c)
{
   for (unsigned i = 1; i <= unsigned(cond_mod::u); i++) {
      if (s == cond_mod_name(cond_mod(i))) {
         *c = cond_mod(i);
         return true;
      }
   }
   return false;
}

/* Catches unbalanced control flow here, where the line is known;
 * shader::rebuild_cfg() derives the edges afterwards.
 */
void
parser::check_structure(block *b, opcode op, const source_loc &at)
{
   const char *name = op_name(op);
   if (b->last() && b->last()->is_block_end())
      error_at(at, strfmt("'%s' follows '%s', which ends block%u", name,
                          b->last()->info().name, b->index));
   if ((op == opcode::endif || op == opcode::do_) && !b->empty())
      error_at(at, strfmt("'%s' must begin a block", name));

   bool in_loop = false;
   for (const auto &n : nesting)
      in_loop |= n.first == opcode::do_;
   opcode top = nesting.empty() ? opcode::nop : nesting.back().first;
   switch (op) {
   case opcode::if_:
   case opcode::do_:
      nesting.push_back({op, at});
      break;
   case opcode::else_:
      if (top != opcode::if_)
         error_at(at, "else without if");
      nesting.back().first = opcode::else_;
      break;
   case opcode::endif:
      if (top != opcode::if_ && top != opcode::else_)
         error_at(at, "endif without if");
      nesting.pop_back();
      break;
   case opcode::while_:
      if (top != opcode::do_)
         error_at(at, "while without do");
      nesting.pop_back();
      break;
   case opcode::break_:
   case opcode::cont:
      if (!in_loop)
         error_at(at, strfmt("%s outside a loop", name));
      break;
   default:
      break;
   }
}

void
parser::parse_instr(block *b)
{
   value *pred = nullptr;
   bool pred_inv = false;
   if (accept('(')) {
      skip_ws();
      if (peek() != '+' && peek() != '-')
         err("expected '+' or '-' before the predicate");
      pred_inv = text[pos++] == '-';
      source_loc at = here();
      pred = lookup(parse_value_id(), at, true);
      expect(')');
   }

   /* Destinations, each "%N[:spec][[c]][.b][<h>][:type]" or "_". */
   struct def_text {
      operand o;
      unsigned comp, rest;
      source_loc at;
   };
   std::vector<def_text> defs;
   skip_ws();
   if (peek() == '%' || peek_ident("_")) {
      do {
         skip_ws();
         def_text d{operand(), 0, 0, loc()};
         if (peek_ident("_")) {
            pos++;
            defs.push_back(d);
            continue;
         }
         uint32_t id = parse_value_id();
         value *v;
         /* "%N:f32x8" declares; "%N:f32" after a declaration is a type. */
         if (peek() == ':' && !is_declared(id)) {
            pos++;
            v = parse_spec(reg_file::ssa, id, d.at);
         } else {
            v = lookup(id, d.at, false);
         }
         d.o = operand(v);
         parse_offset(&d.comp, &d.rest);
         if (accept('<')) {
            unsigned hs = number();
            expect('>');
            if (hs > 4)
               error_at(d.at, "region out of range");
            d.o.rgn.hstride = hs;
            d.o.has_region = true;
         }
         if (accept(':'))
            d.o.type = parse_type();
         apply_offset(d.o, d.comp, d.rest, d.at);
         defs.push_back(d);
      } while (accept(','));
      expect('=');
   }

   source_loc op_at = here();
   std::string name = ident();
   opcode op;
   if (!opcode_from_name(name.c_str(), &op))
      error_at(op_at, strfmt("unknown opcode '%s'", name.c_str()));
   check_structure(b, op, op_at);
   instr *in = sh->create_instr(op);
   while (peek() == '.') {
      pos++;
      source_loc at = here();
      std::string mod = ident();
      if (mod == "sat")
         in->saturate = true;
      else if (!cond_mod_from_name(mod, &in->cmod))
         error_at(at, strfmt("unknown modifier '.%s'", mod.c_str()));
   }

   /* A conditional modifier's flag def is the last destination. */
   if (in->cmod != cond_mod::none && !defs.empty() && defs.back().o.val &&
       defs.back().o.val->file == reg_file::flag) {
      in->set_flag_def(defs.back().o.val);
      defs.pop_back();
   }
   for (const def_text &d : defs)
      in->add_dst(d.o);

   unsigned exec, group;
   in->set_predicate(pred, pred_inv);
   b->append(in);
   default_exec(in, sh->dispatch_width, &exec, &group);
   if (peek() == '(') {
      pos++;
      exec = number();
      group = 0;
      if (accept('+'))
         group = number();
      expect(')');
      if (exec == 0 || exec > 32 || (exec & (exec - 1)) || group >= 32)
         error_at(op_at, strfmt("bad execution size (%u+%u)", exec, group));
   }
   in->exec_size = exec;
   in->group = group;

   skip_ws();
   if (!at_eol() && peek() != '{') {
      do {
         if (peek_ident("preserve")) {
            pos += strlen("preserve");
            in->set_preserve(parse_operand(in, use::preserve));
            break;
         }
         in->add_src(parse_operand(in, in->num_srcs()));
      } while (accept(','));
   }
   if (accept('{')) {
      do {
         source_loc at = here();
         std::string f = ident();
         if (f == "WE_all")
            in->flags |= INSTR_WE_ALL;
         else if (f == "EOT")
            in->flags |= INSTR_EOT;
         else if (f == "side_effects")
            in->flags |= INSTR_SIDE_EFFECTS;
         else if (f == "spill")
            in->flags |= INSTR_SPILL;
         else if (f == "fill")
            in->flags |= INSTR_FILL;
         else if (f == "uniform")
            in->flags |= INSTR_UNIFORM;
         else if (f == "quad_all")
            in->flags |= INSTR_QUAD_ALL;
         else
            error_at(at, strfmt("unknown instruction flag '%s'", f.c_str()));
      } while (accept(','));
      expect('}');
   }
   end_line();
}

std::unique_ptr<shader>
parser::run()
{
   if (!next_line())
      err("empty input: expected 'shader <stage> simd<N>'");
   if (ident() != "shader")
      err("expected 'shader <stage> simd<N>'");
   shader_stage stage = parse_stage(ident());
   source_loc at = here();
   std::string simd = ident();
   unsigned width = simd.rfind("simd", 0) == 0 ? atoi(simd.c_str() + 4) : 0;
   if (width != 8 && width != 16 && width != 32)
      error_at(at, strfmt("expected simd8, simd16 or simd32, not '%s'",
                          simd.c_str()));
   sh.reset(new shader(stage, width));
   /* Optional pipeline state: lowered, allocated, scratch N. */
   for (;;) {
      skip_ws();
      if (!isalpha((unsigned char)peek()))
         break;
      source_loc word_at = here();
      std::string word = ident();
      if (word == "lowered") {
         sh->lowered = true;
      } else if (word == "allocated") {
         sh->allocated = true;
      } else if (word == "scratch") {
         sh->scratch_bytes = number();
      } else {
         error_at(word_at, strfmt("expected 'lowered', 'allocated' or "
                                  "'scratch N', not '%s'", word.c_str()));
      }
   }
   end_line();

   block *cur = nullptr;
   while (next_line()) {
      source_loc at = here();
      size_t save = pos;
      std::string word;
      if (isalpha((unsigned char)peek()))
         word = ident();
      if (word.rfind("block", 0) == 0 && accept(':')) {
         unsigned n = atoi(word.c_str() + 5);
         if (word != strfmt("block%u", unsigned(sh->blocks().size())) || n != sh->blocks().size())
            error_at(at, strfmt("expected block%u", unsigned(sh->blocks().size())));
         cur = sh->add_block();
         end_line();
         continue;
      }
      static const struct {
         const char *name;
         reg_file file;
      } decls[] = {
         {"ssa", reg_file::ssa},         {"wlr", reg_file::wlr},
         {"hw", reg_file::hw_reg},       {"uniform", reg_file::uniform},
         {"attr", reg_file::attr},       {"flag", reg_file::flag},
         {"accum", reg_file::accum},
      };
      bool is_decl = false;
      for (const auto &d : decls) {
         skip_ws();
         if (word == d.name && peek() == '%') {
            if (cur)
               error_at(at, "declarations come before the first block");
            parse_decl(d.file);
            is_decl = true;
            break;
         }
      }
      if (is_decl)
         continue;
      pos = save;
      if (!cur)
         error_at(at, "instruction outside a block");
      parse_instr(cur);
   }

   if (!nesting.empty()) {
      error_at(nesting.back().second,
               strfmt("%s is never closed", op_name(nesting.back().first)));
   }
   for (const fixup &f : fixups) {
      const operand &old = f.slot == use::preserve ? f.in->preserve()
                                                   : f.in->src(f.slot);
      value *v = old.val;
      if (v->type == data_type::none)
         error_at(f.loc, strfmt("%%%u is never declared", v->id));
      operand o = old;
      if (!f.typed)
         o.type = v->type;
      apply_offset(o, f.comp, f.rest, f.loc);
      if (f.slot == use::preserve)
         f.in->set_preserve(o);
      else
         f.in->set_src(f.slot, o);
   }
   for (const auto &b : sh->blocks()) {
      for (instr *in : b->instrs()) {
         if (in->predicate() && in->predicate()->type == data_type::none)
            throw error(strfmt("%s: %%%u is never declared", file.c_str(),
                               in->predicate()->id));
      }
   }
   sh->rebuild_cfg();
   return std::move(sh);
}

} /* anonymous namespace */

std::unique_ptr<shader>
parse_shader(const std::string &text, const std::string &filename)
{
   parser p(text, filename);
   return p.run();
}

} /* namespace ibis */
