/*
 * Copies of the dwords read of loaded constant blocks (pressure mode with
 * narrowed blocks, sched_mode::narrow).
 *
 * A constant-buffer load is a width-1 send result of a register or more
 * (u32x1[8]), of which the dolphin ubershaders read two or three dwords,
 * some of them much later (two such blocks live through most of the TEV
 * loop).  For a width-1 send result whose readers are not phis and each
 * read within one dword, and whose dwords read take fewer bytes than the
 * result, each of those dwords is copied into a width-1 value of its own
 * (a NoMask scalar move) right after the send, and the readers read the
 * copies: the allocator packs them by dwords and the result dies at the
 * copies.  The copies wait for the load, so this is a mode of its own,
 * tried only when the others do not allocate.
 *
 * The copies follow the send in its block, so they dominate every reader
 * the send does and run whenever it does.
 */
#include <map>

#include "sched/sched_dag.h"
#include "sched/sched_private.h"

namespace ibis {

bool
copy_block_dwords(shader &s)
{
   bool progress = false;
   const std::vector<value *> values = s.values();
   for (value *v : values) {
      if (v->width != 1 || v->file != reg_file::ssa || !v->def() ||
          v->def()->op != opcode::send || !uses_grfs(v) || v->uses().empty())
         continue;
      std::map<int, std::vector<use>> reads;
      bool ok = true;
      for (const use &u : v->uses()) {
         const int dw = u.slot < 0 || u.in->is_phi()
                           ? -1 : dword_read(u.in, u.in->src(u.slot));
         if (dw < 0) {
            ok = false;
            break;
         }
         reads[dw].push_back(u);
      }
      if (!ok || reads.size() * 4 >= uniform_bytes(v))
         continue;
      instr *def = v->def();
      instr *at = def;
      for (auto &entry : reads) {
         instr *mov = copy_dword_for(s, v, entry.first, entry.second);
         def->parent()->insert_after(at, mov);
         at = mov;
      }
      progress = true;
   }
   if (progress)
      s.renumber();
   return progress;
}

} /* namespace ibis */
