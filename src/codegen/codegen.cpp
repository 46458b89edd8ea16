/*
 * Code generation: allocated IR to Gen instructions (docs/codegen.md).
 *
 * Each IR instruction becomes one hardware instruction per piece of
 * hw_exec_size() channels (ALU, math), one send, a branch, or the
 * sequence its pseudo-op expands to.  Branch offsets are filled in after
 * the whole program is laid out, counting 16 bytes per instruction;
 * isa::encode_program() then compacts and moves them to the compacted
 * layout.
 */
#include <array>
#include <cstdio>
#include <map>

#include "codegen/codegen_private.h"
#include "ir/ibis_perf.h"
#include "lower/lower.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis::codegen_internal {

namespace {

/* The hardware opcode of an IR ALU opcode: the same name.  The table by IR
 * opcode is built once (a lookup by name per instruction was a few
 * percent of code generation).
 */
isa::opcode
isa_opcode(opcode op)
{
   /* isa::opcode::illegal marks IR opcodes with no Gen opcode. */
   static const std::array<isa::opcode, num_opcodes> by_op = [] {
      std::map<std::string, isa::opcode> by_name;
      for (unsigned i = 0; i < 128; i++) {
         const isa::opcode_info &oi = isa::info(isa::opcode(i));
         if (oi.name)
            by_name[oi.name] = isa::opcode(i);
      }
      std::array<isa::opcode, num_opcodes> t;
      for (unsigned i = 0; i < num_opcodes; i++) {
         auto it = by_name.find(op_name(opcode(i)));
         t[i] = it == by_name.end() ? isa::opcode::illegal : it->second;
      }
      return t;
   }();
   const isa::opcode r = unsigned(op) < num_opcodes ? by_op[unsigned(op)]
                                                    : isa::opcode::illegal;
   if (r == isa::opcode::illegal)
      throw error(strfmt("codegen: no Gen opcode '%s'", op_name(op)));
   return r;
}

bool
math_function(opcode op, isa::math_fn *fn)
{
   switch (op) {
   case opcode::math_inv: *fn = isa::math_fn::inv; return true;
   case opcode::math_log: *fn = isa::math_fn::log; return true;
   case opcode::math_exp: *fn = isa::math_fn::exp; return true;
   case opcode::math_sqrt: *fn = isa::math_fn::sqrt; return true;
   case opcode::math_rsq: *fn = isa::math_fn::rsq; return true;
   case opcode::math_sin: *fn = isa::math_fn::sin; return true;
   case opcode::math_cos: *fn = isa::math_fn::cos; return true;
   case opcode::math_pow: *fn = isa::math_fn::pow; return true;
   case opcode::math_idiv: *fn = isa::math_fn::intdiv; return true;
   case opcode::math_irem: *fn = isa::math_fn::intmod; return true;
   case opcode::math_invm: *fn = isa::math_fn::invm; return true;
   case opcode::math_rsqrtm: *fn = isa::math_fn::rsqrtm; return true;
   default: return false;
   }
}

} /* anonymous namespace */

/* Everything code generation needs is there: registers on every value,
 * no virtual instruction left.
 */
void
generator::check_instr(const instr *in)
{
   switch (in->info().kind) {
   case opcode_kind::logical:
      fail("logical instruction left after lowering");
   default:
      break;
   }
   switch (in->op) {
   case opcode::phi:
   case opcode::parallel_copy:
      fail("%s left after register allocation", op_name(in->op));
   case opcode::discard:
   case opcode::terminate:
   case opcode::ddx_coarse:
   case opcode::ddx_fine:
   case opcode::ddy_coarse:
   case opcode::ddy_fine:
   case opcode::math_idivrem:
      fail("not a lowered instruction");
   default:
      break;
   }
   auto check = [&](const value *v) {
      if (v && !v->phys.valid())
         fail("%%%u has no register", v->id);
   };
   for (const operand &o : in->srcs())
      check(o.val);
   for (const operand &o : in->dsts())
      check(o.val);
   check(in->predicate());
   check(in->flag_def());
   check(in->preserve().val);
   if (in->preserve().val && in->num_dsts() && in->dst(0).val) {
      const operand &d = in->dst(0), &p = in->preserve();
      if (!(d.val->phys == p.val->phys) || p.offset)
         fail("preserve %%%u is not tied to the destination", p.val->id);
   }
}

void
generator::emit_alu(const instr *in)
{
   isa::math_fn fn = isa::math_fn::none;
   bool math = math_function(in->op, &fn);
   isa::opcode op = math ? isa::opcode::math : isa_opcode(in->op);

   if (op == isa::opcode::nop) {
      isa::inst nop;
      nop.op = op;
      nop.exec_size = 1;
      push(nop);
      return;
   }
   if (op == isa::opcode::wait) {
      isa::inst w;
      w.op = op;
      w.exec_size = 1;
      w.dst = isa::stride(isa::arf_reg(isa::arf::notification, 0, isa::type::UD), 1);
      w.src[0] = isa::scalar(w.dst);
      w.src[1] = isa::null_reg(isa::type::F);
      w.mask_disable = true;
      push(w);
      return;
   }

   bool has_dst = in->num_dsts() && !in->dst(0).is_null();
   const operand *first_src = in->num_srcs() ? &in->src(0) : nullptr;
   data_type null_type = has_dst ? in->dst(0).type
                       : first_src && !first_src->is_null() ? first_src->type
                                                            : data_type::u32;
   bool three_src = isa::is_3src(op);

   for (const piece &pc : pieces(in)) {
      isa::reg dst = has_dst ? dst_reg(in->dst(0), pc.first)
                             : isa::null_reg(isa_type(null_type));
      unsigned dst_span = pc.size * isa::type_size(dst.type) *
                          std::max<unsigned>(dst.hstride, 1);
      bool compressed = dst_span > 32;
      if (!has_dst) {
         for (const operand &o : in->srcs())
            if (!o.is_null() && pc.size * type_bits(o.type) / 8 > 32)
               compressed = true;
      }
      std::array<isa::reg, 3> src;
      for (unsigned i = 0; i < in->num_srcs() && i < 3; i++)
         src[i] = src_reg(in->src(i), pc.first, pc.size, compressed);

      isa::inst hw;
      if (math) {
         isa::reg s1 = in->num_srcs() > 1 ? src[1]
                       : isa::null_reg(src[0].type);
         hw = isa::make_math(fn, pc.size, dst, src[0], s1);
      } else {
         hw = isa::make(op, pc.size, dst, src[0], src[1], src[2]);
      }
      if (three_src) {
         for (isa::reg &r : hw.src) {
            if (r.file == isa::reg_file::imm)
               fail("three-source instructions take no immediates");
            /* A 64-bit operand cannot be replicated (RepCtrl); alone
             * in a SIMD1 instruction it needs not be.
             */
            bool replicate = r.vstride == 0 && r.width == 1 && r.hstride == 0 &&
                             !(isa::type_size(r.type) == 8 && pc.size == 1);
            r.swizzle = replicate ? isa::swizzle_xxxx : isa::swizzle_xyzw;
            if (!replicate)
               r = isa::region(r, 4, 4, 1);
         }
      }
      hw.acc_wr = in->info().writes_accum;
      set_flags(hw, in, in->group + pc.first);
      push(hw);
   }
}

void
generator::emit_send(const instr *in)
{
   const operand &sfid = in->src(0), &desc = in->src(1), &ex_desc = in->src(2);
   const operand &p0 = in->src(3), &p1 = in->src(4);
   if (!sfid.is_imm() || !ex_desc.is_imm())
      fail("send needs an immediate sfid and extended descriptor");
   if (!p0.val)
      fail("send without a payload");
   bool split = !p1.is_null() || ex_desc.imm != 0;
   auto sf = isa::sfid(sfid.imm);
   bool render = sf == isa::sfid::render_cache;
   isa::opcode op = split ? (render ? isa::opcode::sendsc : isa::opcode::sends)
                          : (render ? isa::opcode::sendc : isa::opcode::send);

   bool has_dst = in->num_dsts() && !in->dst(0).is_null();
   isa::reg dst = has_dst ? dst_reg(in->dst(0).as_type(data_type::u32), 0)
                          : isa::null_reg(isa::type::UD);
   if (has_dst && dst.subnr)
      fail("send destination not at a register boundary");
   unsigned p0_byte = grf_byte(p0, 0);
   if (p0_byte % 32)
      fail("payload not at a register boundary");
   isa::reg payload = isa::grf(p0_byte / 32, isa::type::UD);
   isa::reg payload2 = isa::null_reg(isa::type::UD);
   if (!p1.is_null()) {
      if (!p1.val)
         fail("immediate payload");
      unsigned b = grf_byte(p1, 0);
      if (b % 32)
         fail("payload not at a register boundary");
      payload2 = isa::grf(b / 32, isa::type::UD);
   }

   bool eot = in->flags & INSTR_EOT;
   if (eot && (payload.nr < 112 || (!p1.is_null() && payload2.nr < 112)))
      fail("an EOT send's payload must be in g112-g127");

   uint32_t desc_imm = 0;
   bool indirect = false;
   if (desc.is_imm()) {
      desc_imm = uint32_t(desc.imm);
   } else {
      /* The descriptor is in a register: a0.0 carries it. */
      isa::inst mov = isa::make(isa::opcode::mov, 1,
                                isa::arf_reg(isa::arf::address, 0, isa::type::UD),
                                src_reg(desc.as_type(data_type::u32), 0, 1, false));
      mov.dst = isa::stride(mov.dst, 1);
      mov.mask_disable = true;
      push(mov);
      indirect = true;
   }
   if (!split && (ex_desc.imm & ~0xfull))
      fail("a send without a second payload keeps no extended descriptor");

   isa::inst hw = isa::make_send(op, in->exec_size, dst, payload, sf, desc_imm,
                                 payload2, split ? uint32_t(ex_desc.imm) : 0);
   if (indirect) {
      hw.desc_indirect = true;
      if (!split)
         hw.src[1] = isa::scalar(isa::arf_reg(isa::arf::address, 0, isa::type::UD));
   }
   hw.eot = eot;
   set_flags(hw, in, in->group);
   push(hw);
}

void
generator::emit_cf(const instr *in)
{
   int here = int(insts.size());
   auto branch = [&](isa::opcode op) -> isa::inst & {
      isa::inst b = isa::make_branch(op, in->exec_size, 0, 0);
      set_flags(b, in, in->group);
      return push(b);
   };
   /* A uniform if's jumps (mark_uniform_branches): SIMD1 NoMask JMPIs
    * that leave the mask alone; the IF's skips the then part when the
    * if's condition fails.
    */
   auto jump = [&](bool predicated) -> isa::inst & {
      isa::inst j = isa::make_jmpi(0);
      if (predicated) {
         set_flags(j, in, 0);
         j.pred_inv = !in->pred_inv;
      }
      j.mask_disable = true;
      return push(j);
   };
   switch (in->op) {
   case opcode::if_: {
      bool uniform = in->flags & INSTR_UNIFORM;
      if (uniform)
         jump(true);
      else
         branch(isa::opcode::if_);
      ifs.push_back(if_frame{here, -1, uniform});
      break;
   }
   case opcode::else_:
      if (ifs.empty() || ifs.back().else_idx >= 0)
         fail("else without if");
      if (ifs.back().uniform)
         jump(false);
      else
         branch(isa::opcode::else_);
      ifs.back().else_idx = here;
      break;
   case opcode::endif: {
      if (ifs.empty())
         fail("endif without if");
      if_frame f = ifs.back();
      ifs.pop_back();
      if (f.uniform) {
         /* No ENDIF: the JMPIs land on what comes next. */
         int end = int(insts.size());
         insts[f.if_idx].jip = ((f.else_idx < 0 ? end : f.else_idx + 1) - f.if_idx) * 16;
         if (f.else_idx >= 0)
            insts[f.else_idx].jip = (end - f.else_idx) * 16;
         break;
      }
      /* Gen8-10: ELSE with BranchCtrl jumps to a NOP just before the
       * ENDIF (brw_ENDIF, Wa_220160235).
       */
      if (f.else_idx >= 0 && dev.ver < 11) {
         isa::inst nop;
         nop.op = isa::opcode::nop;
         nop.exec_size = 1;
      nop.exec_size = 1;
         push(nop);
      }
      int endif = int(insts.size());
      isa::inst &e = branch(isa::opcode::endif);
      e.exec_size = insts[f.if_idx].exec_size;
      e.group = insts[f.if_idx].group;
      e.pred = isa::pred_ctrl::none;
      isa::inst &i = insts[f.if_idx];
      if (f.else_idx < 0) {
         i.jip = i.uip = (endif - f.if_idx) * 16;
      } else {
         isa::inst &el = insts[f.else_idx];
         i.jip = (f.else_idx + 1 - f.if_idx) * 16;
         i.uip = (endif - f.if_idx) * 16;
         if (dev.ver < 11) {
            el.jip = (endif - f.else_idx - 1) * 16;
            el.acc_wr = true;   /* BranchCtrl */
         } else {
            el.jip = (endif - f.else_idx) * 16;
         }
         el.uip = (endif - f.else_idx) * 16;
      }
      break;
   }
   case opcode::do_:
      /* Gen6+ has no DO instruction: the loop starts at the next one. */
      loop_starts.push_back(here);
      break;
   case opcode::while_: {
      if (loop_starts.empty())
         fail("while without do");
      isa::inst &w = branch(isa::opcode::while_);
      w.jip = (loop_starts.back() - here) * 16;
      loop_starts.pop_back();
      break;
   }
   case opcode::break_:
      branch(isa::opcode::break_);
      break;
   case opcode::cont:
      branch(isa::opcode::cont);
      break;
   case opcode::halt:
      branch(isa::opcode::halt);
      break;
   default:
      fail("unknown control flow");
   }
}

/* brw_find_next_block_end: the next ENDIF, ELSE, HALT or enclosing WHILE
 * at the same if-nesting depth after start, or -1.
 */
static int
next_block_end(const std::vector<isa::inst> &p, int start)
{
   int depth = 0;
   for (int j = start + 1; j < int(p.size()); j++) {
      switch (p[j].op) {
      case isa::opcode::if_:
         depth++;
         break;
      case isa::opcode::endif:
         if (depth == 0)
            return j;
         depth--;
         break;
      case isa::opcode::while_:
         /* A sibling loop's WHILE jumps back after start. */
         if (j + p[j].jip / 16 > start)
            break;
         if (depth == 0)
            return j;
         break;
      case isa::opcode::else_:
      case isa::opcode::halt:
         if (depth == 0)
            return j;
         break;
      default:
         break;
      }
   }
   return -1;
}

/* The WHILE of the innermost loop around start. */
static int
loop_end(const std::vector<isa::inst> &p, int start)
{
   for (int j = start + 1; j < int(p.size()); j++) {
      if (p[j].op == isa::opcode::while_ && j + p[j].jip / 16 <= start)
         return j;
   }
   return -1;
}

/* brw_set_uip_jip, plus the halt target: every HALT's UIP is the last
 * HALT of the program, which itself jumps to the next instruction.
 */
void
generator::fix_branches()
{
   int last_halt = -1;
   for (int i = 0; i < int(insts.size()); i++)
      if (insts[i].op == isa::opcode::halt)
         last_halt = i;

   for (int i = 0; i < int(insts.size()); i++) {
      isa::inst &b = insts[i];
      cur = info[i].from;
      /* Only these look for their block's end (a scan ahead). */
      if (b.op != isa::opcode::break_ && b.op != isa::opcode::cont &&
          b.op != isa::opcode::endif && b.op != isa::opcode::halt)
         continue;
      int end = next_block_end(insts, i);
      switch (b.op) {
      case isa::opcode::break_:
      case isa::opcode::cont: {
         int w = loop_end(insts, i);
         if (w < 0 || end < 0)
            fail("%s outside a loop", isa::info(b.op).name);
         b.jip = (end - i) * 16;
         b.uip = (w - i) * 16;
         break;
      }
      case isa::opcode::endif:
         b.jip = end < 0 ? 16 : (end - i) * 16;
         break;
      case isa::opcode::halt:
         b.uip = i == last_halt ? 16 : (last_halt - i) * 16;
         b.jip = end < 0 || i == last_halt ? b.uip : (end - i) * 16;
         break;
      default:
         break;
      }
   }
   cur = nullptr;
}

void
generator::emit_instr(const instr *in)
{
   switch (in->op) {
   case opcode::undef:
      return;
   case opcode::copy:
      emit_copy(in);
      return;
   case opcode::load_payload:
      emit_load_payload(in);
      return;
   case opcode::find_live_channel:
      emit_find_live_channel(in);
      return;
   case opcode::broadcast:
      emit_broadcast(in);
      return;
   case opcode::shuffle:
      emit_shuffle(in);
      return;
   case opcode::mov_indirect:
      emit_mov_indirect(in);
      return;
   case opcode::load_subgroup_invocation:
      emit_subgroup_invocation(in);
      return;
   case opcode::send:
      emit_send(in);
      return;
   default:
      break;
   }
   switch (in->info().kind) {
   case opcode_kind::cf:
      emit_cf(in);
      break;
   case opcode_kind::alu:
   case opcode_kind::math:
      emit_alu(in);
      break;
   default:
      fail("no code for this instruction");
   }
}

void
generator::run()
{
   if (!s.allocated)
      throw error("codegen: the shader is not allocated (docs/backend.md §2)");
   /* Mostly one hardware instruction each, SIMD32 ones two. */
   size_t num_instrs = 0;
   for (const auto &blk : s.blocks())
      num_instrs += blk->instrs().size();
   insts.reserve(num_instrs * 2);
   encoded.reserve(num_instrs * 2);
   info.reserve(num_instrs * 2);
   for (const auto &blk : s.blocks()) {
      for (const instr *in : blk->instrs()) {
         cur = in;
         check_instr(in);
         emit_instr(in);
      }
   }
   cur = nullptr;
   if (!ifs.empty() || !loop_starts.empty())
      fail("unbalanced control flow");
   fix_branches();
}

} /* namespace ibis::codegen_internal */

namespace ibis {

using namespace codegen_internal;

codegen_result
generate_code(const shader &s, const device_info &dev, bool want_disasm,
              const unsigned *cycles)
{
   generator g(s, dev);
   g.run();
   isa::gen gen = isa_gen(dev);

   codegen_result r;
   r.binary = isa::encode_program(g.insts, g.encoded, gen, true);
   const bool print_asm = debug_enabled(DEBUG_ASM);
   if (want_disasm || print_asm)
      r.disasm = isa::disassemble_program(r.binary.data(), r.binary.size(), gen);

   shader_stats &st = r.stats;
   for (unsigned i = 0; i < g.insts.size(); i++) {
      const isa::inst &in = g.insts[i];
      const instr *from = g.info[i].from;
      if (!g.info[i].errata_nop)
         st.instructions++;
      if (in.op == isa::opcode::while_)
         st.loops++;
      if (isa::is_send(in.op)) {
         if (from && (from->flags & INSTR_SPILL))
            st.spills++;
         else if (from && (from->flags & INSTR_FILL))
            st.fills++;
         else
            st.sends++;
      }
   }
   st.cycles = cycles ? *cycles : estimate_cycles(s, dev);
   st.bytes_uncompacted = g.insts.size() * 16;
   st.bytes_compacted = r.binary.size();

   if (print_asm)
      fprintf(stderr, "%s", r.disasm.c_str());
   if (debug_enabled(DEBUG_STATS))
      fprintf(stderr, "%s\n", stats_line(s, st).c_str());
   return r;
}

void
validate_code(const std::vector<uint8_t> &binary, const device_info &dev)
{
   /* The low-power parts have the 64-bit regioning rules. */
   const std::string platform = dev.platform;
   const bool lp = platform == "chv" || platform == "bxt" || platform == "glk";
   const isa::gen gen = isa_gen(dev);
   unsigned bad = 0;
   std::string first;
   int64_t last = -1;
   for (const std::string &e : isa::validate_program(binary.data(), binary.size(), gen, lp)) {
      /* Messages start with the instruction's offset. */
      const int64_t at = std::stoll(e);
      if (at != last)
         bad++;
      last = at;
      if (bad <= 3)
         first += "\n   " + e;
   }
   if (bad)
      throw internal_error(strfmt("EU validation: %u instructions break Mesa's rules:%s",
                                  bad, first.c_str()));
}

std::string
disassemble(const std::vector<uint8_t> &binary, const device_info &dev)
{
   return isa::disassemble_program(binary.data(), binary.size(), isa_gen(dev));
}

std::string
stats_line(const shader &s, const shader_stats &st)
{
   std::string stage = stage_name(s.stage);
   for (char &c : stage)
      c = toupper((unsigned char)c);
   return strfmt("%s SIMD%u shader: %u inst, %u loops, %u cycles, "
                 "%u:%u spills:fills, %u sends, scheduled with mode %s, "
                 "Promoted %u constants, compacted %u to %u bytes.",
                 stage.c_str(), s.dispatch_width, st.instructions, st.loops,
                 st.cycles, st.spills, st.fills, st.sends,
                 st.sched_mode.c_str(), st.promoted_constants,
                 st.bytes_uncompacted, st.bytes_compacted);
}

} /* namespace ibis */
