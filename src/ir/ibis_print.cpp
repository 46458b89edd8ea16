/*
 * The IR text printer.  docs/ir.md describes the syntax; ibis_parse.cpp
 * reads it back, and print(parse(print(s))) == print(s) for every shader.
 */
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ir/ibis_ir.h"
#include "ir/ibis_text.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

/* Shortest decimal form that reads back to the same bits, or hex bits for
 * values that decimal cannot express (inf, nan) and for half floats.
 */
static std::string
float_str(data_type t, uint64_t bits)
{
   double d;
   if (t == data_type::f32) {
      float f;
      uint32_t u = bits;
      memcpy(&f, &u, 4);
      d = f;
   } else if (t == data_type::f64) {
      memcpy(&d, &bits, 8);
   } else {
      return strfmt("0x%" PRIx64, bits);
   }
   if (!std::isfinite(d))
      return strfmt("0x%" PRIx64, bits);
   /* The shortest precision that round-trips. */
   std::string s;
   for (int prec = 1; prec <= 17; prec++) {
      s = strfmt("%.*g", prec, d);
      double back = strtod(s.c_str(), nullptr);
      bool same = t == data_type::f32 ? float(back) == float(d) : back == d;
      if (same && std::signbit(back) == std::signbit(d))
         break;
   }
   /* Plain decimals read better than exponents for ordinary magnitudes. */
   if (s.find('e') != std::string::npos && fabs(d) >= 1e-4 && fabs(d) < 1e16) {
      for (int decimals = 1; decimals <= 20; decimals++) {
         std::string f = strfmt("%.*f", decimals, d);
         double back = strtod(f.c_str(), nullptr);
         if (t == data_type::f32 ? float(back) == float(d) : back == d) {
            s = f;
            break;
         }
      }
   }
   if (s.find_first_of(".e") == std::string::npos)
      s += ".0";
   return s;
}

std::string
imm_str(const operand &o)
{
   std::string s;
   if (type_is_float(o.type) && o.type != data_type::vf) {
      s = float_str(o.type, o.imm);
   } else if (type_is_signed_int(o.type) && o.type != data_type::v) {
      unsigned bits = type_bits(o.type);
      int64_t v = bits == 64 ? int64_t(o.imm)
                             : int64_t(o.imm << (64 - bits)) >> (64 - bits);
      s = strfmt("%" PRId64, v);
   } else if (type_is_vector_imm(o.type) || o.imm > 0xffff) {
      s = strfmt("0x%" PRIx64, o.imm);
   } else {
      s = strfmt("%" PRIu64, o.imm);
   }
   return s + ":" + type_name(o.type);
}

static std::string
phys_str(const phys_reg &p)
{
   switch (p.kind) {
   case phys_reg::grf:
      return p.subreg ? strfmt("@g%u.%u", p.nr, p.subreg) : strfmt("@g%u", p.nr);
   case phys_reg::flag:
      return strfmt("@f%u.%u", p.nr, p.subreg);
   case phys_reg::acc:
      return p.subreg ? strfmt("@acc%u.%u", p.nr, p.subreg) : strfmt("@acc%u", p.nr);
   default:
      return "";
   }
}

/* "[c].b" for a byte offset: the component and the rest within it. */
static std::string
offset_str(const operand &o)
{
   std::string s;
   unsigned cb = o.val->component_bytes();
   unsigned comp = cb ? o.offset / cb : 0;
   unsigned rest = cb ? o.offset % cb : o.offset;
   if (comp)
      s += strfmt("[%u]", comp);
   if (rest)
      s += strfmt(".%u", rest);
   return s;
}

std::string
operand_str(const operand &o)
{
   if (o.is_null())
      return "_";
   if (o.is_imm())
      return imm_str(o);
   std::string s;
   if (o.neg)
      s += "-";
   if (o.abs)
      s += "|";
   s += strfmt("%%%u", o.val->id) + offset_str(o);
   if (o.has_region)
      s += strfmt("<%u,%u,%u>", o.rgn.vstride, o.rgn.width, o.rgn.hstride);
   if (o.type != o.val->type)
      s += std::string(":") + type_name(o.type);
   if (o.abs)
      s += "|";
   return s;
}

static std::string
def_str(const operand &d, bool declare)
{
   if (d.is_null())
      return "_";
   std::string s = strfmt("%%%u", d.val->id);
   if (declare)
      s += ":" + value_spec(d.val) + phys_str(d.val->phys);
   s += offset_str(d);
   if (d.has_region)
      s += strfmt("<%u>", d.rgn.hstride);
   if (d.type != d.val->type)
      s += std::string(":") + type_name(d.type);
   return s;
}

void
default_exec(const instr *in, unsigned dispatch_width, unsigned *exec,
             unsigned *group)
{
   const value *v = nullptr;
   if (in->num_dsts() && in->dst(0).val)
      v = in->dst(0).val;
   else if (in->flag_def())
      v = in->flag_def();
   *exec = v ? v->width : dispatch_width;
   *group = v ? v->group : 0;
}

static bool
declared_at_def(const value *v)
{
   return v->file == reg_file::ssa || v->file == reg_file::flag;
}

/* declared: values whose declaration is printed already; null to print the
 * instruction alone, declaring values at their (SSA/FLAG) definitions.
 */
static std::string
instr_str(const instr *in, std::vector<bool> *declared)
{
   std::string s;
   auto declare = [&](const value *v) {
      if (!declared_at_def(v))
         return false;
      if (!declared)
         return true;
      if (v->id < declared->size() && (*declared)[v->id])
         return false;
      if (v->id >= declared->size())
         declared->resize(v->id + 1);
      (*declared)[v->id] = true;
      return true;
   };

   if (in->predicate())
      s += strfmt("(%c%%%u) ", in->pred_inv ? '-' : '+', in->predicate()->id);

   std::vector<std::string> defs;
   for (const operand &d : in->dsts())
      defs.push_back(def_str(d, d.val && declare(d.val)));
   if (in->flag_def())
      defs.push_back(def_str(operand(in->flag_def()), declare(in->flag_def())));
   for (size_t i = 0; i < defs.size(); i++)
      s += defs[i] + (i + 1 < defs.size() ? ", " : " = ");

   s += in->info().name;
   if (in->saturate)
      s += ".sat";
   if (in->cmod != cond_mod::none)
      s += std::string(".") + cond_mod_name(in->cmod);

   unsigned exec, group;
   const shader *sh = in->parent() ? in->parent()->parent() : nullptr;
   default_exec(in, sh ? sh->dispatch_width : in->exec_size, &exec, &group);
   if (in->exec_size != exec || in->group != group) {
      s += in->group ? strfmt("(%u+%u)", in->exec_size, in->group)
                     : strfmt("(%u)", in->exec_size);
   }

   const char *sep = " ";
   for (const operand &o : in->srcs()) {
      s += sep + operand_str(o);
      sep = ", ";
   }
   if (!in->preserve().is_null())
      s += sep + std::string("preserve ") + operand_str(in->preserve());

   std::vector<const char *> flags;
   if (in->flags & INSTR_WE_ALL)
      flags.push_back("WE_all");
   if (in->flags & INSTR_EOT)
      flags.push_back("EOT");
   if (in->flags & INSTR_SIDE_EFFECTS)
      flags.push_back("side_effects");
   if (in->flags & INSTR_SPILL)
      flags.push_back("spill");
   if (in->flags & INSTR_FILL)
      flags.push_back("fill");
   if (in->flags & INSTR_UNIFORM)
      flags.push_back("uniform");
   if (in->flags & INSTR_QUAD_ALL)
      flags.push_back("quad_all");
   if (!flags.empty()) {
      s += " {";
      for (size_t i = 0; i < flags.size(); i++)
         s += std::string(i ? ", " : "") + flags[i];
      s += "}";
   }
   return s;
}

std::string
instr::str() const
{
   return instr_str(this, nullptr);
}

std::string
block_label_str(const block *b)
{
   std::string s = strfmt("block%u:", b->index);
   std::string edges;
   if (!b->preds.empty()) {
      edges += " preds:";
      for (const block *p : b->preds)
         edges += strfmt(" block%u", p->index);
   }
   if (!b->succs.empty()) {
      edges += " succs:";
      for (const block *p : b->succs)
         edges += strfmt(" block%u", p->index);
   }
   if (!edges.empty())
      s += strfmt("%*s;", int(s.size() < 16 ? 16 - s.size() : 1), "") + edges;
   return s;
}

std::string
shader::str() const
{
   std::string s = strfmt("shader %s simd%u%s%s", stage_name(stage),
                          dispatch_width, lowered ? " lowered" : "",
                          allocated ? " allocated" : "");
   if (scratch_bytes)
      s += strfmt(" scratch %u", scratch_bytes);
   s += "\n";

   /* Values without a definition in the program are declared up front. */
   std::vector<bool> defined(value_id_bound());
   for (const auto &b : blocks_) {
      for (const instr *in : b->instrs()) {
         for (const operand &d : in->dsts()) {
            if (d.val)
               defined[d.val->id] = true;
         }
         if (in->flag_def())
            defined[in->flag_def()->id] = true;
      }
   }
   std::vector<bool> declared(value_id_bound());
   for (const value *v : values()) {
      if (declared_at_def(v) && (defined[v->id] || v->uses().empty()))
         continue;
      s += strfmt("%s %%%u:%s%s\n", file_name(v->file), v->id,
                  value_spec(v).c_str(), phys_str(v->phys).c_str());
      declared[v->id] = true;
   }

   for (const auto &b : blocks_) {
      s += block_label_str(b.get()) + "\n";
      for (const instr *in : b->instrs())
         s += "   " + instr_str(in, &declared) + "\n";
   }
   return s;
}

void
debug_print(const shader &s, uint64_t flag, const char *when)
{
   if (!debug_enabled(flag))
      return;
   fprintf(stderr, "ibis IR %s:\n%s\n", when, s.str().c_str());
}

} /* namespace ibis */
