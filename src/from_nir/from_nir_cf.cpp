/*
 * Structured control flow: NIR ifs and loops become ibis if/else/endif and
 * do/while with break and cont, block by block, telling the SSA rebuilder
 * about each edge as it appears (the same edges shader::rebuild_cfg() will
 * derive from the markers).
 */
#include "from_nir/from_nir_private.h"

namespace ibis {

block *
nir_translator::start_block()
{
   block *b = sh->add_block();
   bld.at_end(b);
   return b;
}

bool
nir_translator::ends_in_jump(const block *b) const
{
   const instr *last = b->last();
   return last && (last->op == opcode::break_ || last->op == opcode::cont ||
                   last->op == opcode::while_);
}

void
nir_translator::emit_cf_list(const nir::cf_list &list)
{
   for (const auto &node : list) {
      switch (node->type) {
      case nir::cf_type::block:
         emit_block(static_cast<const nir::block &>(*node));
         break;
      case nir::cf_type::if_:
         emit_if(static_cast<const nir::if_ &>(*node));
         break;
      case nir::cf_type::loop:
         emit_loop(static_cast<const nir::loop &>(*node));
         break;
      }
   }
}

static bool
list_is_empty(const nir::cf_list &list)
{
   return list.size() == 1 && list[0]->type == nir::cf_type::block &&
          static_cast<const nir::block &>(*list[0]).instrs.empty();
}

/* The jump of a branch that holds nothing else, or null. */
static const nir::jump_instr *
lone_jump(const nir::cf_list &list)
{
   if (list.size() != 1 || list[0]->type != nir::cf_type::block)
      return nullptr;
   const auto &b = static_cast<const nir::block &>(*list[0]);
   if (b.instrs.size() != 1 || b.instrs[0]->type != nir::instr_type::jump)
      return nullptr;
   const auto *j = static_cast<const nir::jump_instr *>(b.instrs[0].get());
   return j->kind == nir::jump_type::break_ || j->kind == nir::jump_type::continue_ ? j
                                                                                    : nullptr;
}

void
nir_translator::emit_if(const nir::if_ &nif)
{
   /* The if takes a flag of the dispatch width, whatever the condition's. */
   const nir::def *cond = nif.condition.ssa;
   value *f = flag_for(cond, width);
   if (!f) {
      f = bld.exec(width).flag();
      instr *cmp = bld.exec(width).emit(opcode::cmp, {},
                                        {src(cond, 0, data_type::u32), operand::imm_u32(0)});
      cmp->cmod = cond_mod::nz;
      cmp->set_flag_def(f);
   }

   /* if (c) break; (or continue, or the jump in the else) is one predicated
    * jump, as brw's opt_predicated_break makes it: if, jump and endif cost
    * three instructions.
    */
   const nir::jump_instr *then_jump = lone_jump(nif.then_list);
   const nir::jump_instr *else_jump = lone_jump(nif.else_list);
   bool then_empty = list_is_empty(nif.then_list);
   bool else_empty = list_is_empty(nif.else_list);
   if ((then_jump && else_empty) || (else_jump && then_empty)) {
      const nir::jump_instr *j = then_jump ? then_jump : else_jump;
      IBIS_CHECK(!loops.empty(), "break or continue outside a loop");
      builder pb = bld.exec(width).predicated(f, !then_jump);
      block *head = bld.cur_block();
      if (j->kind == nir::jump_type::break_) {
         pb.break_();
         loops.back().breaks.push_back(head);
      } else {
         pb.cont();
         ssa.add_pred(loops.back().header, head);
      }
      /* Predicated jumps fall through: the rest goes on in a block of its own. */
      block *next = start_block();
      ssa.add_pred(next, head);
      ssa.seal(next);
      return;
   }

   bld.exec(width).predicated(f).if_();
   block *head = bld.cur_block();

   block *then_start = start_block();
   ssa.add_pred(then_start, head);
   ssa.seal(then_start);
   emit_cf_list(nif.then_list);
   block *then_end = bld.cur_block();

   block *merge;
   if (!list_is_empty(nif.else_list)) {
      if (ends_in_jump(then_end)) {
         /* else must end a block of its own: an unreachable one. */
         then_end = start_block();
         ssa.seal(then_end);
      }
      bld.exec(width).else_();
      block *else_start = start_block();
      ssa.add_pred(else_start, head);
      ssa.seal(else_start);
      emit_cf_list(nif.else_list);
      block *else_end = bld.cur_block();

      merge = start_block();
      ssa.add_pred(merge, then_end);
      if (!ends_in_jump(else_end))
         ssa.add_pred(merge, else_end);
   } else {
      merge = start_block();
      ssa.add_pred(merge, head);
      if (!ends_in_jump(then_end))
         ssa.add_pred(merge, then_end);
   }
   bld.exec(width).endif();
   ssa.seal(merge);
}

void
nir_translator::emit_loop(const nir::loop &l)
{
   if (!l.continue_list.empty() && !list_is_empty(l.continue_list)) {
      throw error(source_loc{nir.file, l.line, 0},
                  "loops with a continue construct do not occur in final-form "
                  "NIR for brw and are not supported");
   }
   block *pre = bld.cur_block();
   block *header = start_block();
   ssa.add_pred(header, pre);
   bld.exec(width).do_();
   loops.push_back(loop_frame{header, {}});

   emit_cf_list(l.body);

   block *end = bld.cur_block();
   if (ends_in_jump(end)) {
      end = start_block();
      ssa.seal(end);
   }
   bld.exec(width).while_();
   ssa.add_pred(header, end);
   ssa.seal(header);

   loop_frame frame = loops.back();
   loops.pop_back();
   block *exit = start_block();
   for (block *b : frame.breaks)
      ssa.add_pred(exit, b);
   ssa.seal(exit);
}

void
nir_translator::emit_jump(const nir::jump_instr &j)
{
   switch (j.kind) {
   case nir::jump_type::break_:
      IBIS_CHECK(!loops.empty(), "break outside a loop");
      bld.exec(width).break_();
      loops.back().breaks.push_back(bld.cur_block());
      break;
   case nir::jump_type::continue_:
      IBIS_CHECK(!loops.empty(), "continue outside a loop");
      bld.exec(width).cont();
      ssa.add_pred(loops.back().header, bld.cur_block());
      break;
   default:
      unsupported("return and halt jumps do not occur in final-form NIR for brw");
   }
}

} /* namespace ibis */
