#include "ir/ibis_validate.h"

#include <algorithm>
#include <cstdarg>

#include "ir/ibis_analysis.h"
#include "ir/ibis_text.h"
#include "util/ibis_error.h"

namespace ibis {

namespace {

bool
is_pow2(unsigned x)
{
   return x && !(x & (x - 1));
}

class validator {
public:
   explicit validator(shader &s) : sh(s), dom(s), live(s) {}

   std::vector<std::string> run();

private:
   shader &sh;
   dominance dom;
   liveness live;
   std::vector<std::string> errors;

   void report(const instr *in, const char *rule, const char *fmt, ...)
      __attribute__((format(printf, 4, 5)));
   void report_value(const value *v, const char *rule, const char *fmt, ...)
      __attribute__((format(printf, 4, 5)));

   void check_value(const value *v);
   void check_ssa(const value *v);
   void check_wlr(const value *v);
   void check_instr(const instr *in);
   void check_dst(const instr *in, const operand &d);
   void check_src(const instr *in, const operand &o, bool is_preserve);
   void check_region(const instr *in, const operand &o, bool is_dst);
   void check_allocation();
};

void
validator::report(const instr *in, const char *rule, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   errors.push_back(strfmt("block%u: '%s': %s [%s]", in->parent()->index,
                           in->str().c_str(), msg.c_str(), rule));
}

void
validator::report_value(const value *v, const char *rule, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   errors.push_back(strfmt("%%%u: %s [%s]", v->id, msg.c_str(), rule));
}

/* Where a use reads: the instruction, or for a phi source the end of the
 * matching predecessor.
 */
static const instr *
use_point(const use &u, const block **blk)
{
   *blk = u.in->parent();
   if (u.in->is_phi() && u.slot >= 0 &&
       unsigned(u.slot) < u.in->parent()->preds.size()) {
      *blk = u.in->parent()->preds[u.slot];
      return nullptr;
   }
   return u.in;
}

void
validator::check_value(const value *v)
{
   bool flag_type = v->type == data_type::flag;
   if (flag_type != (v->file == reg_file::flag))
      report_value(v, "size", "only FLAG values have the flag type");
   if (v->type == data_type::none || type_is_vector_imm(v->type))
      report_value(v, "size", "a value cannot have type %s", type_name(v->type));
   if (!is_pow2(v->width) || v->width > 32)
      report_value(v, "size", "bad SIMD width %u", v->width);
   else if (v->group % v->width || v->group + v->width > 32)
      report_value(v, "size", "group %u does not fit width %u", v->group, v->width);
   if (v->length == 0)
      report_value(v, "size", "length 0");
   if (v->file == reg_file::uniform && v->width != 1)
      report_value(v, "size", "UNIFORM values have width 1, not %u", v->width);
   if (v->file == reg_file::attr && v->width != sh.dispatch_width)
      report_value(v, "size", "ATTR values have the dispatch width %u, not %u",
                   sh.dispatch_width, v->width);
   if (v->file == reg_file::hw_reg && v->phys.kind != phys_reg::grf)
      report_value(v, "size", "a hw value needs a fixed GRF");
   if (v->is_preloaded() && !v->defs().empty())
      report_value(v, "size", "%s values are read-only", file_name(v->file));

   if (v->phys.valid()) {
      bool want_flag = v->file == reg_file::flag;
      bool want_acc = v->file == reg_file::accum;
      if ((v->phys.kind == phys_reg::flag) != want_flag ||
          (v->phys.kind == phys_reg::acc) != want_acc)
         report_value(v, "ra", "%s value assigned to the wrong register file",
                      file_name(v->file));
   }

   /* Out of SSA, a phi's value is written by a copy on every edge: the
    * SSA and WLR rules no longer hold, and validate_allocation() (src/ra)
    * checks the allocated program instead.
    */
   if (sh.allocated)
      return;
   if (v->file == reg_file::ssa || v->file == reg_file::flag)
      check_ssa(v);
   else if (v->file == reg_file::wlr)
      check_wlr(v);
}

void
validator::check_ssa(const value *v)
{
   if (v->defs().size() > 1) {
      report_value(v, "ssa-def", "SSA value has %u definitions",
                   unsigned(v->defs().size()));
      return;
   }
   if (v->defs().empty()) {
      if (!v->uses().empty())
         report_value(v, "ssa-def", "SSA value is used but never defined");
      return;
   }
   const instr *def = v->defs()[0];
   for (const use &u : v->uses()) {
      const block *blk;
      const instr *at = use_point(u, &blk);
      if (!dom.reachable(blk))
         continue;
      bool ok = at ? at != def && dom.dominates(def, at)
                   : dom.dominates(def->parent(), blk);
      if (!ok)
         report(u.in, "ssa-dominance",
                "%%%u is used where its definition does not dominate", v->id);
   }
}

void
validator::check_wlr(const value *v)
{
   if (v->defs().empty()) {
      if (!v->uses().empty())
         report_value(v, "wlr", "WLR value is read but never written");
      return;
   }
   const block *blk = v->defs()[0]->parent();
   const instr *first = v->defs()[0], *final = v->defs()[0];
   for (const instr *d : v->defs()) {
      if (d->parent() != blk) {
         report(d, "wlr-block", "%%%u is also written in block%u; all writes "
                "of a WLR value are in one block", v->id, blk->index);
         return;
      }
      first = d->ip < first->ip ? d : first;
      final = d->ip > final->ip ? d : final;
   }
   for (const use &u : v->uses()) {
      const block *ublk;
      const instr *at = use_point(u, &ublk);
      if (!dom.reachable(ublk))
         continue;
      /* x |= y: a write whose only output is x may read x... */
      bool only_output = at && at->writes(v) && !at->flag_def() &&
                         std::all_of(at->dsts().begin(), at->dsts().end(),
                                     [&](const operand &d) { return d.val == v; });
      if (only_output && at != first)
         continue;
      /* ...anything else must come after the final write. */
      bool ok = at ? at != final && dom.dominates(final, at)
                   : dom.dominates(final->parent(), ublk);
      if (!ok)
         report(u.in, "wlr-read", "%%%u is read before its final write by an "
                "instruction that does not write it alone", v->id);
   }
}

void
validator::check_region(const instr *in, const operand &o, bool is_dst)
{
   const value *v = o.val;
   if (o.offset >= v->size_bytes())
      report(in, "region", "offset %u is outside %%%u (%u bytes)", o.offset,
             v->id, v->size_bytes());
   if (!o.has_region)
      return;
   const region &r = o.rgn;
   if (is_dst) {
      if (r.hstride != 1 && r.hstride != 2 && r.hstride != 4)
         report(in, "region", "destination stride %u", r.hstride);
   } else {
      if ((r.vstride && !is_pow2(r.vstride)) || r.vstride > 32 ||
          !is_pow2(r.width) || r.width > 16 ||
          (r.hstride && !is_pow2(r.hstride)) || r.hstride > 4)
         report(in, "region", "illegal region <%u,%u,%u>", r.vstride, r.width,
                r.hstride);
      else if (r.width > in->exec_size)
         report(in, "region", "region width %u exceeds the execution size %u",
                r.width, in->exec_size);
   }
   bool scalar = !is_dst && r.vstride == 0 && r.width == 1 && r.hstride == 0;
   /* Lowered IR reads SSA values through regions (derivatives). */
   if ((v->file == reg_file::ssa || v->file == reg_file::flag) && !scalar &&
       in->preserve().is_null() && !(sh.lowered && !is_dst))
      report(in, "region", "SSA values take no regions, %%%u has one", v->id);
}

void
validator::check_dst(const instr *in, const operand &d)
{
   if (d.is_null())
      return;
   if (d.is_imm()) {
      report(in, "dst-file", "an immediate cannot be written");
      return;
   }
   const value *v = d.val;
   if (v->is_preloaded()) {
      report(in, "dst-file", "%s value %%%u is read-only", file_name(v->file),
             v->id);
      return;
   }
   check_region(in, d, true);
   bool ssa = v->file == reg_file::ssa || v->file == reg_file::flag;
   if (ssa && type_bits(d.type) != v->bit_size())
      report(in, "type", "writes %%%u (%u-bit) as %s", v->id, v->bit_size(),
             type_name(d.type));
   /* A predicated sel picks a source per channel and still writes all. */
   if (ssa && in->preserve().is_null() && in->predicate() &&
       in->op != opcode::sel)
      report(in, "ssa-partial-write", "writes %%%u under a predicate without "
             "a preserve source", v->id);
   /* A NoMask send (a block read: a fill, a constant load) writes its
    * rlen registers whole, whatever its execution size.
    */
   else if (ssa && in->preserve().is_null() && !in->is_phi() &&
       in->op != opcode::parallel_copy && in->op != opcode::load_payload &&
       !(in->op == opcode::send && in->we_all() && !d.offset) &&
       (in->exec_size != v->width || in->group != v->group || d.offset))
      report(in, "ssa-partial-write",
             "writes part of %%%u (%u channels from %u) without a preserve "
             "source", v->id, in->exec_size, in->group);
}

void
validator::check_src(const instr *in, const operand &o, bool is_preserve)
{
   if (o.is_null())
      return;
   if (o.is_imm()) {
      if (o.type == data_type::flag)
         report(in, "type", "flag immediates do not exist");
      /* Fold modifiers into the bits instead; the text has no syntax. */
      if (o.neg || o.abs)
         report(in, "type", "immediates take no source modifiers");
      return;
   }
   const value *v = o.val;
   check_region(in, o, false);
   if (v->file == reg_file::flag && !is_preserve &&
       in->info().kind != opcode_kind::pseudo && in->op != opcode::mov &&
       in->op != opcode::copy)
      report(in, "flag", "FLAG value %%%u read as a source", v->id);
   bool ssa = v->file == reg_file::ssa || v->file == reg_file::flag;
   if (ssa && !o.has_region && type_bits(o.type) != v->bit_size())
      report(in, "type", "reads %%%u (%u-bit) as %s", v->id, v->bit_size(),
             type_name(o.type));
   if (type_is_vector_imm(o.type))
      report(in, "type", "%s is a type for immediates only", type_name(o.type));
}

void
validator::check_instr(const instr *in)
{
   const opcode_info &info = in->info();
   if (info.num_srcs >= 0 && in->num_srcs() != unsigned(info.num_srcs))
      report(in, "operands", "%s takes %d sources, not %u", info.name,
             info.num_srcs, in->num_srcs());
   bool null_dst_ok = in->flag_def() && in->num_dsts() == 0;
   if (info.num_dsts >= 0 && in->num_dsts() != unsigned(info.num_dsts) &&
       !null_dst_ok)
      report(in, "operands", "%s has %d destinations, not %u", info.name,
             info.num_dsts, in->num_dsts());
   if (in->op == opcode::parallel_copy && in->num_dsts() != in->num_srcs())
      report(in, "operands", "parallel_copy needs as many sources as destinations");

   if (!is_pow2(in->exec_size) || in->exec_size > 32 ||
       in->group % in->exec_size || in->group + in->exec_size > 32)
      report(in, "exec-size", "bad execution size (%u+%u)", in->exec_size,
             in->group);

   for (const operand &d : in->dsts())
      check_dst(in, d);
   for (const operand &s : in->srcs())
      check_src(in, s, false);

   /* A uniform if becomes a JMPI that reads channel 0's flag bit, so the
    * flag must be the same in every channel and written with NoMask.
    */
   if (in->flags & INSTR_UNIFORM) {
      const value *f = in->predicate();
      const instr *d = in->op == opcode::if_ ? uniform_flag_def(f) : nullptr;
      if (!d)
         report(in, "uniform", "only an if on a flag computed alike in every "
                "channel can be uniform");
      else {
         bool nomask = true;
         for (const instr *l = d; l; l = l->predicate() ? l->predicate()->def() : nullptr)
            nomask &= l->we_all();
         if (!nomask || f->group != 0)
            report(in, "uniform", "a uniform if's flag needs a NoMask write from "
                   "channel 0");
      }
   }

   if (!in->preserve().is_null()) {
      const operand &p = in->preserve();
      const value *d = in->num_dsts() ? in->dst(0).val : nullptr;
      check_src(in, p, true);
      if (!d || (d->file != reg_file::ssa && d->file != reg_file::flag))
         report(in, "preserve", "a preserve source needs an SSA destination");
      else if (!p.val || p.val->width != d->width || p.val->group != d->group ||
               p.val->bit_size() != d->bit_size() || p.val->length != d->length)
         report(in, "preserve", "the preserve source must have the size of %%%u",
                d->id);
   }

   /* Flags. */
   if (info.writes_flag && in->cmod == cond_mod::none)
      report(in, "flag", "%s needs a conditional modifier", info.name);
   if (in->flag_def()) {
      const value *f = in->flag_def();
      if (in->cmod == cond_mod::none)
         report(in, "flag", "a flag definition needs a conditional modifier");
      if (f->file != reg_file::flag)
         report(in, "flag", "conditional modifier writes %%%u, which is not a "
                "FLAG value", f->id);
      else if (f->width != in->exec_size || f->group != in->group)
         report(in, "flag", "flag %%%u covers %u channels from %u, the "
                "instruction %u from %u", f->id, f->width, f->group,
                in->exec_size, in->group);
   }
   if (const value *p = in->predicate()) {
      if (p->file != reg_file::flag)
         report(in, "flag", "predicate %%%u is not a FLAG value", p->id);
      else if (p->width < in->exec_size ||
               in->group < p->group ||
               in->group + in->exec_size > p->group + p->width)
         report(in, "flag", "predicate %%%u covers %u channels from %u, not "
                "the instruction's %u from %u", p->id, p->width, p->group,
                in->exec_size, in->group);
   }

   /* Phis come first (after a leading endif/do), one source per pred. */
   if (in->is_phi()) {
      const block *b = in->parent();
      bool placed = true;
      for (const instr *x : b->instrs()) {
         if (x == in)
            break;
         if (!x->is_phi() && !(x == b->first() && x->is_block_start()))
            placed = false;
      }
      if (!placed)
         report(in, "phi", "phi after a non-phi instruction");
      if (in->num_srcs() != b->preds.size())
         report(in, "phi", "%u sources for %u predecessors", in->num_srcs(),
                unsigned(b->preds.size()));
      for (const operand &d : in->dsts()) {
         if (d.val && d.val->file != reg_file::ssa && d.val->file != reg_file::flag)
            report(in, "phi", "phi writes %s value %%%u", file_name(d.val->file),
                   d.val->id);
      }
   }
}

/* After allocation: values whose registers overlap must not interfere. */
void
validator::check_allocation()
{
   struct range {
      const value *v;
      unsigned start, end;      /* bytes in the register file */
   };
   std::vector<range> grf, flag;
   for (const value *v : sh.values()) {
      if (!liveness::tracked(v) || !v->phys.valid())
         continue;
      if (v->defs().empty() && v->uses().empty())
         continue;
      if (v->phys.kind == phys_reg::grf) {
         unsigned start = v->phys.nr * 32 + v->phys.subreg;
         unsigned size = v->width == 1 ? uniform_bytes(v) : v->size_bytes();
         grf.push_back({v, start, start + size});
      } else if (v->phys.kind == phys_reg::flag) {
         unsigned start = v->phys.nr * 32 + v->phys.subreg * 16;
         flag.push_back({v, start, start + v->width * v->length});
      }
   }
   for (auto *set : {&grf, &flag}) {
      std::sort(set->begin(), set->end(), [](const range &a, const range &b) {
         return a.start < b.start || (a.start == b.start && a.v->id < b.v->id);
      });
      for (size_t i = 0; i < set->size(); i++) {
         for (size_t j = i + 1; j < set->size() && (*set)[j].start < (*set)[i].end; j++) {
            const value *a = (*set)[i].v, *b = (*set)[j].v;
            if (regs_interfere(a, b, live, dom))
               errors.push_back(strfmt(
                  "%%%u: shares registers with %%%u while both are live "
                  "[ra-overlap]", std::min(a->id, b->id), std::max(a->id, b->id)));
         }
      }
   }
}

std::vector<std::string>
validator::run()
{
   for (const auto &b : sh.blocks()) {
      for (const instr *in : b->instrs())
         check_instr(in);
   }
   for (const value *v : sh.values())
      check_value(v);
   /* Overlap by SSA interference means nothing once out of SSA. */
   if (!sh.allocated)
      check_allocation();
   if (sh.lowered) {
      for (std::string &e : validate_lowered_errors(sh))
         errors.push_back(std::move(e));
   }
   return errors;
}

} /* anonymous namespace */

std::vector<std::string>
validate_errors(shader &s)
{
   validator v(s);
   return v.run();
}

void
validate(shader &s, const char *when)
{
   std::vector<std::string> errors = validate_errors(s);
   if (errors.empty())
      return;
   std::string msg = strfmt("invalid IR%s%s:", when ? " " : "", when ? when : "");
   for (const std::string &e : errors)
      msg += "\n   " + e;
   throw error(msg);
}

} /* namespace ibis */
