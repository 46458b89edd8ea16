/*
 * Dead code elimination by marking: start from the instructions that must
 * stay (side effects, control flow, physical sends, writes of fixed
 * registers and of the accumulator a later instruction reads), mark every value they read live,
 * and every writer of a live value, until nothing changes; then delete the
 * unmarked instructions.
 *
 * WLR values: marking a value marks all its writes, and a write that reads
 * its own value (x |= y) marks nothing new, so a sequence whose value is only
 * read by itself is never reached and goes as a whole.  Loop phis that only
 * feed each other go the same way.
 *
 * A conditional modifier whose flag nobody reads is dropped from an
 * instruction kept for its main result (cmp and cmpn keep theirs: the
 * modifier is what they compute).  The other way round, an instruction
 * kept for its flag loses a destination nobody reads: a null destination
 * frees the register, and a flag written from scalars alone can then be
 * a uniform branch's (mark_uniform_branches).
 *
 * Linear in instructions plus uses.
 */
#include "opt/opt.h"

#include "ir/ibis_analysis.h"

namespace ibis {

namespace {

bool
writes_fixed_register(const instr *in)
{
   for (const operand &d : in->dsts()) {
      if (d.val && (d.val->file == reg_file::hw_reg ||
                    d.val->file == reg_file::accum))
         return true;
   }
   return false;
}

/* Must stay whatever reads its results.  A physical send's message is
 * opaque here: it may write memory.
 */
bool
is_root(const instr *in)
{
   return in->has_side_effects() || in->info().kind == opcode_kind::cf ||
          in->op == opcode::send ||
          (in->flags & INSTR_EOT) || writes_fixed_register(in);
}

bool
has_value_dst(const instr *in)
{
   for (const operand &d : in->dsts()) {
      if (d.val)
         return true;
   }
   return false;
}

/* The destination of in, written only by it and read by nothing live,
 * can become null without changing the flag: a compare's flag does not
 * depend on its destination; otherwise the flag tests the result in the
 * null destination's type, the first source's (codegen), so that type
 * must be the destination's and nothing saturates.
 */
bool
dst_is_droppable(const instr *in, const value_set &live_values)
{
   if (in->num_dsts() != 1)
      return false;
   const operand &d = in->dst(0);
   if (!d.val || d.val->file != reg_file::ssa || d.val->defs().size() != 1 ||
       live_values.has(d.val) || !in->preserve().is_null())
      return false;
   /* Three-source instructions need a GRF destination. */
   if (in->num_srcs() > 2)
      return false;
   if (in->op == opcode::cmp)
      return true;
   return !in->saturate && in->num_srcs() && in->src(0).type == d.type;
}

/* sel and csel read their conditional modifier rather than set a flag. */
bool
cmod_is_removable(const instr *in)
{
   return !in->info().writes_flag && in->op != opcode::sel &&
          in->op != opcode::csel;
}

} /* anonymous namespace */

bool
opt_dce(shader &s)
{
   unsigned n = s.renumber();
   std::vector<bool> live(n);
   value_set live_values(s.value_id_bound());
   std::vector<instr *> work;

   auto mark_instr = [&](instr *in) {
      if (!live[in->ip]) {
         live[in->ip] = true;
         work.push_back(in);
      }
   };
   auto mark_value = [&](value *v) {
      if (!v || live_values.has(v))
         return;
      live_values.add(v);
      for (instr *d : v->defs())
         mark_instr(d);
   };

   for (const auto &b : s.blocks()) {
      /* The accumulator is implicit: a write of it stays while a later
       * instruction of the block reads it.  It does not flow across blocks.
       */
      bool accum_read = false;
      for (auto it = b->instrs().rbegin(); it != b->instrs().rend(); ++it) {
         instr *in = *it;
         const opcode_info &info = in->info();
         if (is_root(in) || (info.writes_accum && accum_read))
            mark_instr(in);
         if (info.writes_accum)
            accum_read = false;
         if (info.reads_accum)
            accum_read = true;
      }
   }

   while (!work.empty()) {
      instr *in = work.back();
      work.pop_back();
      for (const operand &o : in->srcs())
         mark_value(o.val);
      mark_value(in->predicate());
      mark_value(in->preserve().val);
   }

   bool progress = false;
   for (const auto &b : s.blocks()) {
      for (auto it = b->begin(); it != b->end();) {
         instr *in = *it++;
         if (!live[in->ip]) {
            in->remove();
            progress = true;
         } else if (in->flag_def() && !live_values.has(in->flag_def()) &&
                    cmod_is_removable(in) && has_value_dst(in)) {
            in->set_flag_def(nullptr);
            in->cmod = cond_mod::none;
            progress = true;
         } else if (in->flag_def() && live_values.has(in->flag_def()) &&
                    dst_is_droppable(in, live_values)) {
            in->set_dst(0, operand());
            progress = true;
         }
      }
   }
   return progress;
}

} /* namespace ibis */
