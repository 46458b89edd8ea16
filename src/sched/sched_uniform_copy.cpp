/*
 * Copies of the push constants read only after a loop.
 *
 * The push constants are one width-1 value in fixed registers (10 GRFs
 * in the dolphin ubershaders), live until their last read.  The
 * ubershaders read none of them in the TEV loop but two dozen dwords
 * after it (fog, alpha test, depth), so all ten registers stay occupied
 * through the loop, where pressure peaks.  For such a width-1 value (a
 * push constant, or any width-1 value) that a top-level loop does not
 * read, whose readers after the loop each read within one dword, and
 * whose dwords read there take fewer bytes than the value, each of those
 * dwords is copied into a width-1 value of its own at the end of the
 * block before the loop, and the readers after the loop read the copies:
 * the allocator packs them by dwords (25 dwords: 4 GRFs instead of 10),
 * and the value dies before the loop.
 *
 * The copies are NoMask scalar moves, so the channel mask does not
 * matter; the block before a top-level loop dominates the loop and all
 * that follows, and it runs whenever the readers after the loop do as
 * long as no halt comes before the loop's exit (a block with no channel
 * enabled is skipped).  The pass runs after remat_cheap_defs, which would
 * copy the moves next to their readers again.
 */
#include <map>

#include "sched/sched_dag.h"
#include "sched/sched_private.h"

namespace ibis {

int
dword_read(const instr *in, const operand &o)
{
   unsigned start, len;
   operand_byte_range(in, o, false, &start, &len);
   if (!len || start / 4 != (start + len - 1) / 4)
      return -1;
   return int(start / 4);
}

instr *
copy_dword_for(shader &s, value *v, unsigned dw, const std::vector<use> &readers)
{
   instr *mov = s.create_instr(opcode::mov, 1);
   mov->flags = INSTR_WE_ALL;
   value *c = s.create_value(reg_file::ssa, data_type::u32, 1);
   operand src(v);
   src.type = data_type::u32;
   src.offset = dw * 4;
   mov->add_src(src);
   mov->add_dst(operand(c));
   for (const use &u : readers) {
      operand o = u.in->src(u.slot);
      o.val = c;
      o.offset -= dw * 4;
      u.in->set_src(u.slot, o);
   }
   return mov;
}

bool
copy_uniforms_before_loops(shader &s)
{
   const std::vector<loop_range> loops = top_level_loops(s);
   if (loops.empty())
      return false;
   const unsigned halt_block = first_halt_block(s);
   bool progress = false;
   for (const loop_range &l : loops) {
      if (l.first == 0 || l.last + 1 >= halt_block)
         break;
      block *pre = s.blocks()[l.first - 1].get();
      for (value *v : s.values()) {
         /* The copies are u32 dwords: a 64-bit value is read by dwords
          * only through a region, which they do not carry.
          */
         if (v->width != 1 || !uses_grfs(v) || v->uses().empty() ||
             type_bits(v->type) != 32)
            continue;
         /* The value must be in its registers before the loop. */
         if (!v->is_preloaded() &&
             (v->file != reg_file::ssa || !v->def() ||
              v->def()->parent()->index >= l.first))
            continue;
         std::map<int, std::vector<use>> after;
         bool ok = true;
         for (const use &u : v->uses()) {
            const unsigned ub = use_block(u)->index;
            if (ub < l.first)
               continue;
            if (ub <= l.last || u.slot < 0 || u.in->is_phi()) {
               ok = false;
               break;
            }
            const int dw = dword_read(u.in, u.in->src(u.slot));
            if (dw < 0) {
               ok = false;
               break;
            }
            after[dw].push_back(u);
         }
         if (!ok || after.empty() || after.size() * 4 >= uniform_bytes(v))
            continue;
         for (auto &entry : after)
            pre->insert(pre->before_jump(),
                        copy_dword_for(s, v, entry.first, entry.second));
         progress = true;
      }
   }
   if (progress)
      s.renumber();
   return progress;
}

} /* namespace ibis */
