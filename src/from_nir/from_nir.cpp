/*
 * The translator's driver: stage setup, the walk over the NIR control flow,
 * stage end, SSA completion, validation and the IBIS_DEBUG=ir dump.
 */
#include <cstdarg>
#include <sstream>

#include "from_nir/from_nir_private.h"
#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "util/ibis_debug.h"

namespace ibis {

static shader_stage
ibis_stage(const nir::shader &s)
{
   switch (s.info.stage) {
   case nir::shader_stage::vertex:
      return shader_stage::vs;
   case nir::shader_stage::fragment:
      return shader_stage::fs;
   case nir::shader_stage::compute:
   case nir::shader_stage::kernel:
      return shader_stage::cs;
   default:
      throw error(source_loc{s.file, 0, 0},
                  strfmt("stage %d is not supported (VS, FS and CS are)",
                         int(s.info.stage)));
   }
}

static const nir::function_impl &
entry_impl(const nir::shader &s)
{
   const nir::function_impl *impl = nir::entrypoint(s);
   if (!impl)
      throw error(source_loc{s.file, 0, 0}, "the shader has no entry point");
   return *impl;
}

nir_translator::nir_translator(const nir::shader &s, const from_nir_options &o,
                               std::shared_ptr<const nir_facts> f)
   : nir(s), impl(entry_impl(s)), opts(o),
     dev(o.device ? *o.device : device_by_name("skl")),
     width(o.dispatch_width),
     sh(std::make_unique<shader>(ibis_stage(s), o.dispatch_width)),
     bld(sh.get()), facts(std::move(f)), ssa(sh.get())
{
}

std::string
nir_instr_str(const nir::shader &s, const nir::instr &in)
{
   /* The NIR printer writes whole shaders: print it and pick the line of
    * this instruction (its definition, or its source line for a shader that
    * was read from text, which the printer reproduces).
    */
   std::string text = nir::print_shader(s);
   std::istringstream lines(text);
   std::string line, found;
   std::string def_tag;
   if (const nir::def *d = in.get_def())
      def_tag = strfmt("%%%u = ", d->index);
   for (unsigned n = 1; std::getline(lines, line); n++) {
      bool hit = def_tag.empty() ? n == in.line && in.line
                                 : line.find(def_tag) != std::string::npos;
      if (hit) {
         found = line;
         break;
      }
   }
   size_t start = found.find_first_not_of(' ');
   found = start == std::string::npos ? "" : found.substr(start);
   size_t comment = found.find("  //");
   if (comment != std::string::npos)
      found = found.substr(0, comment);
   return found;
}

void
nir_translator::unsupported(const char *fmt, ...) const
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   if (cur) {
      std::string text = nir_instr_str(nir, *cur);
      if (!text.empty())
         msg += " in '" + text + "'";
   }
   throw error(source_loc{nir.file, cur ? cur->line : 0, 0}, msg);
}

builder
nir_translator::def_builder(const nir::def &d) const
{
   return is_uniform(d) ? uniform_builder() : bld.exec(width);
}

operand
nir_translator::src(const nir::def *d, unsigned comp) const
{
   unsigned n = 0;
   const operand *ops = vals.find(d, &n);
   /* The NIR validator does not check dominance; a use the translation has
    * not reached yet is bad input, not an internal error.
    */
   if (!ops || comp >= n)
      unsupported("NIR value %%%u (component %u) is used before its definition", d->index,
                  comp);
   operand o = ops[comp];
   if (o.val)
      o.val = ssa.resolve(o.val);
   return o;
}

operand
nir_translator::src(const nir::def *d, unsigned comp, data_type t) const
{
   return src(d, comp).as_type(t);
}

void
nir_translator::set_def(const nir::def &d, const operand *c, size_t n)
{
   vals.set(&d, c, n);
}

operand
nir_translator::surface_index(const builder &b, operand index, unsigned base)
{
   if (!base)
      return index;
   if (index.is_imm())
      return operand::imm_u32(uint32_t(index.imm) + base);
   builder ub = index.val && index.val->width == 1 ? uniform_builder() : b;
   return operand(ub.add(data_type::u32, index.as_type(data_type::u32), operand::imm_u32(base)));
}

value *
nir_translator::materialize(const builder &b, const operand &op, data_type t)
{
   if (op.val && op.val->file == reg_file::ssa && op.val->width == b.width() &&
       op.val->length == 1 && !op.offset && !op.neg && !op.abs &&
       op.val->bit_size() == type_bits(t))
      return op.val;
   return b.mov(t, op.as_type(t));
}

operand
nir_translator::gather(const builder &b, const comps &c, data_type t)
{
   if (c.size() == 1)
      return operand(materialize(b, c[0], t));
   /* All components of one value, in order (a send's result): as is. */
   value *whole = c[0].val;
   bool same = whole && whole->file == reg_file::ssa && whole->length == c.size() &&
               whole->width == b.width() && whole->bit_size() == type_bits(t);
   for (unsigned i = 0; same && i < c.size(); i++)
      same = c[i].val == whole && c[i].offset == i * whole->component_bytes() &&
             !c[i].neg && !c[i].abs;
   if (same)
      return operand(whole).as_type(t);
   std::vector<operand> srcs;
   for (const operand &o : c)
      srcs.push_back(operand(materialize(b, o, t)).as_type(t));
   return operand(b.load_payload(t, srcs));
}

comps
nir_translator::split(value *v)
{
   comps c;
   for (unsigned i = 0; i < v->length; i++)
      c.push_back(operand(v).component(i));
   return c;
}

void
nir_translator::record_flag(const nir::def &d, value *f)
{
   flags[&d] = flag_info{f, bld.cur_block()};
}

int
nir_translator::io_slot(int location, const operand &off) const
{
   /* 64 varying slots, and fragment results below that too. */
   if (off.imm >= 64)
      unsupported("I/O slot offset %llu is out of range", (unsigned long long)off.imm);
   return location + int(off.imm);
}

value *
nir_translator::flag_for(const nir::def *d, unsigned exec_width)
{
   auto it = flags.find(d);
   if (it == flags.end() || it->second.flag->width != exec_width)
      return nullptr;
   if (it->second.blk == bld.cur_block())
      return it->second.flag;
   /* Flags live in one block.  A use in a later ibis block of the same NIR
    * block (an instruction between them became control flow: an access
    * per distinct index) compares again, as the comparison may have made
    * no value (nir_facts::want_value).
    */
   const instr *c = it->second.flag->def();
   if (!c || c->op != opcode::cmp || c->predicate())
      return nullptr;
   /* A comparison that made its 0/~0 value is tested with cmp.nz, as
    * brw does: comparing again would keep its sources live to here (past
    * the phis of the ifs between, which then cannot take their
    * registers).
    */
   if (c->num_dsts() && c->dst(0).val)
      return nullptr;
   std::vector<operand> srcs(c->srcs().begin(), c->srcs().end());
   value *f = bld.exec(c->exec_size, c->group).flag();
   instr *n = bld.exec(c->exec_size, c->group).emit(opcode::cmp, {}, srcs);
   n->cmod = c->cmod;
   n->set_flag_def(f);
   record_flag(*d, f);
   return f;
}

value *
nir_translator::hw(unsigned grf, data_type t, unsigned regs)
{
   /* One value per register range and type: HW_REG values are never
    * written here, so sharing them keeps the IR readable.
    */
   value *&v = hw_cache[{grf, unsigned(t), regs}];
   if (!v)
      v = bld.hw_reg(grf, t, regs);
   return v;
}

value *
nir_translator::uniform_regs(unsigned grf, unsigned dwords)
{
   value *v = bld.uniform(data_type::u32, dwords);
   v->phys = phys_reg{phys_reg::grf, uint16_t(grf), 0};
   return v;
}

void
nir_translator::emit_block(const nir::block &b)
{
   for (const auto &in : b.instrs) {
      cur = in.get();
      switch (in->type) {
      case nir::instr_type::alu:
         emit_alu(static_cast<const nir::alu_instr &>(*in));
         break;
      case nir::instr_type::intrinsic:
         emit_intrinsic(static_cast<const nir::intrinsic_instr &>(*in));
         break;
      case nir::instr_type::tex:
         emit_tex(static_cast<const nir::tex_instr &>(*in));
         break;
      case nir::instr_type::load_const: {
         auto &lc = static_cast<const nir::load_const_instr &>(*in);
         comps c;
         for (const nir::const_value &v : lc.values) {
            data_type t = type_of('u', lc.dest.bit_size);
            uint64_t bits = lc.dest.bit_size == 1 ? (v.b ? 0xffffffffu : 0)
                                                  : nir::const_value_bits(v, lc.dest.bit_size);
            c.push_back(operand::imm_of(t, bits));
         }
         set_def(lc.dest, c);
         break;
      }
      case nir::instr_type::undef: {
         auto &u = static_cast<const nir::undef_instr &>(*in);
         /* Any value will do; zero keeps later folding simple. */
         set_def(u.dest, comps(u.dest.num_components,
                               operand::imm_of(type_of('u', u.dest.bit_size), 0)));
         break;
      }
      case nir::instr_type::jump:
         emit_jump(static_cast<const nir::jump_instr &>(*in));
         break;
      case nir::instr_type::phi:
         unsupported("phis do not occur in final-form NIR (registers carry "
                     "values between blocks)");
      }
   }
   cur = nullptr;
}

std::unique_ptr<shader>
nir_translator::run()
{
   if (sh->stage == shader_stage::vs && width != 8)
      throw error(source_loc{nir.file, 0, 0},
                  strfmt("VS runs at SIMD8 on Gen9, not SIMD%u", width));
   if (dev.ver < 8 || dev.ver > 11)
      throw error(source_loc{nir.file, 0, 0},
                  strfmt("%s (Gen%u): only the Gen8-11 thread payloads are known",
                         dev.name, dev.ver));
   if (width != 8 && width != 16 && width != 32)
      throw error(source_loc{nir.file, 0, 0},
                  strfmt("dispatch width %u (8, 16 or 32)", width));
   if (!facts)
      facts = std::make_shared<const nir_facts>(analyze_nir(impl));
   payload = compute_payload(nir, opts);

   block *entry = sh->add_block();
   bld.at_end(entry);
   ssa.seal(entry);

   emit_cf_list(impl.body);

   cur = nullptr;
   switch (sh->stage) {
   case shader_stage::fs:
      fs_finish();
      break;
   case shader_stage::vs:
      vs_finish();
      break;
   default:
      cs_finish();
      break;
   }

   sh->rebuild_cfg();
   ssa.finish();
   debug_print(*sh, DEBUG_IR, "after translation from NIR");
   /* The validator's contract (docs/compiler.md): after every pass in
    * debug builds and under IBIS_DEBUG=validate, not in every release
    * compile (it was 2.5% of one).
    */
#ifdef NDEBUG
   if (debug_enabled(DEBUG_VALIDATE))
#endif
      validate(*sh, "after translation from NIR");
   return std::move(sh);
}

std::unique_ptr<shader>
from_nir(const nir::shader &s, const from_nir_options &options,
         std::shared_ptr<const nir_facts> facts)
{
   nir_translator t(s, options, std::move(facts));
   return t.run();
}

std::shared_ptr<const nir_facts>
analyze_nir_shader(const nir::shader &s)
{
   return std::make_shared<const nir_facts>(analyze_nir(entry_impl(s)));
}

} /* namespace ibis */
