/*
 * nir_print's text format, written from the model.
 *
 * The output is byte-for-byte what Mesa 23.3's or Mesa 25.0's
 * nir_print_shader() writes (the shader's dialect), including its column
 * padding and the constant annotations it derives from a type inference
 * over the impl, except that the blank line after the last function is
 * left out (see docs/nir.md).
 */
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <set>

#include "nir/nir.h"
#include "nir/nir_eval_helpers.h"
#include "nir/nir_text.h"
#include "util/ibis_error.h"

namespace ibis::nir {

namespace {

const char *
size_suffix(unsigned num_components)
{
   switch (num_components) {
   case 1: return "   ";
   case 2: return "x2 ";
   case 3: return "x3 ";
   case 4: return "x4 ";
   case 5: return "x5 ";
   case 8: return "x8 ";
   case 16: return "x16";
   default: return "x??";
   }
}

class printer {
public:
   explicit printer(const shader &s)
      : sh_(s), is25_(s.dialect == print_dialect::mesa_25_0)
   {
      out_.reserve(1 << 16);
   }

   std::string run();

private:
   void put(const char *s) { out_ += s; }
   void put(const std::string &s) { out_ += s; }
   void putc(char c) { out_ += c; }
   void putf(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
   void put_uint(uint64_t v);
   void spaces(unsigned n) { out_.append(n, ' '); }
   void indent(unsigned tabs) { spaces(4 * tabs); }

   void print_var_decl(const variable &v);
   const std::string &var_name(const variable &v);
   void print_function(const function &f);
   void print_impl(const function_impl &impl);
   void gather_types(const function_impl &impl);
   void print_cf_list(const cf_list &list, unsigned tabs);
   void print_block(const block &b, unsigned tabs);
   void print_if(const if_ &nif, unsigned tabs);
   void print_loop(const loop &l, unsigned tabs);
   void print_instr(const instr &in);
   void print_def(const def &d);
   void print_src(const def *d, alu_type type);
   void print_const(const load_const_instr &lc, alu_type type);
   void print_load_const(const load_const_instr &lc);
   void print_alu(const alu_instr &alu);
   void print_intrinsic(const intrinsic_instr &in);
   void print_index(const intrinsic_instr &in, intrinsic_index idx);
   void print_tex(const tex_instr &tex);
   void print_access(uint32_t access, const char *sep);

   const shader &sh_;
   const bool is25_;
   std::string out_;

   /* Variable names, with nir_print's "#N" suffixes for the unnamed and
    * the duplicates.
    */
   std::map<const variable *, std::string> var_names_;
   std::set<std::string> used_names_;
   unsigned name_index_ = 0;

   /* Per impl. */
   unsigned max_dest_index_ = 0;
   unsigned padding_for_no_dest_ = 0;
   std::vector<uint8_t> float_types_, int_types_;
};

void
printer::putf(const char *fmt, ...)
{
   char buf[256];
   va_list ap;
   va_start(ap, fmt);
   const int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   if (n >= 0 && size_t(n) < sizeof(buf)) {
      out_.append(buf, size_t(n));
   } else {
      va_start(ap, fmt);
      out_ += vstrfmt(fmt, ap);
      va_end(ap);
   }
}

void
printer::put_uint(uint64_t v)
{
   char buf[24];
   const auto r = std::to_chars(buf, buf + sizeof(buf), v);
   out_.append(buf, r.ptr);
}

std::string
printer::run()
{
   print_shader_info(sh_.info, sh_.dialect, out_);
   /* 25.0 leaves out the counts that are 0. */
   if (!is25_ || sh_.num_inputs)
      putf("inputs: %u\n", sh_.num_inputs);
   if (!is25_ || sh_.num_outputs)
      putf("outputs: %u\n", sh_.num_outputs);
   if (!is25_ || sh_.num_uniforms)
      putf("uniforms: %u\n", sh_.num_uniforms);
   if (sh_.scratch_size)
      putf("scratch: %u\n", sh_.scratch_size);
   if (sh_.constant_data_size)
      putf("constants: %u\n", sh_.constant_data_size);

   /* Grouped by mode in bit order, as nir_print walks the modes. */
   for (unsigned m = 0; m < num_variable_modes; m++) {
      if ((1u << m) == var_function_temp)
         continue;
      for (const variable &v : sh_.variables) {
         if (v.mode == (1u << m))
            print_var_decl(v);
      }
   }

   for (const auto &f : sh_.functions)
      print_function(*f);

   /* The corpus files end with a single newline. */
   if (out_.size() >= 2 && out_[out_.size() - 1] == '\n' &&
       out_[out_.size() - 2] == '\n')
      out_.pop_back();
   return std::move(out_);
}

const std::string &
printer::var_name(const variable &v)
{
   auto it = var_names_.find(&v);
   if (it != var_names_.end())
      return it->second;
   std::string name;
   if (v.name.empty())
      name = "#" + std::to_string(name_index_++);
   else if (used_names_.count(v.name))
      name = v.name + "#" + std::to_string(name_index_++);
   else {
      used_names_.insert(v.name);
      name = v.name;
   }
   return var_names_[&v] = name;
}

void
printer::print_access(uint32_t access, const char *sep)
{
   if (!access) {
      put("none");
      return;
   }
   bool first = true;
   for (const access_name &m : access_names) {
      if (access & m.bit) {
         if (!first)
            put(sep);
         put(m.name);
         first = false;
      }
   }
}

void
printer::print_var_decl(const variable &v)
{
   put("decl_var ");
   if (v.bindless) put("bindless ");
   if (v.centroid) put("centroid ");
   if (v.sample) put("sample ");
   if (v.patch) put("patch ");
   if (v.invariant) put("invariant ");
   if (v.per_view) put("per_view ");
   if (v.per_primitive) put("per_primitive ");
   if (v.ray_query) put("ray_query ");
   if (v.fb_fetch_output) put("fb_fetch_output ");
   put(variable_mode_str(v.mode, false));
   putc(' ');
   const char *interp = name_of(interp_mode_names, unsigned(v.interpolation));
   put(interp ? interp : "UNKNOWN");
   putc(' ');
   print_access(v.access, " ");
   putc(' ');
   if (type_is_image(v.type))
      put(v.image_format + " ");
   if (v.precision) {
      static const char *const precisions[] = {"", "highp", "mediump", "lowp"};
      put(precisions[v.precision & 3]);
      putc(' ');
   }
   put(v.type);
   putc(' ');
   put(var_name(v));

   if (v.mode & (var_shader_in | var_shader_out | var_uniform |
                 var_system_value | var_mem_ubo | var_mem_ssbo | var_image)) {
      const std::string loc = location_str(v.location, sh_.info.stage, v.mode);
      std::string comps;
      if (v.mode == var_shader_in || v.mode == var_shader_out) {
         const unsigned n = type_components(v.type);
         if (n != 0 && n < 16) {
            comps = ".";
            for (unsigned i = 0; i < n; i++)
               comps += comp_letter(n, i + v.location_frac);
         }
      }
      if (v.mode & var_system_value)
         putf(" (%s%s)", loc.c_str(), comps.c_str());
      else
         putf(" (%s%s, %u, %u)%s", loc.c_str(), comps.c_str(),
              v.driver_location, v.binding, v.compact ? " compact" : "");
   }
   put(v.initializer);
   putc('\n');
}

void
printer::print_function(const function &f)
{
   if (is25_) {
      putf("decl_function %s (%s)%s%s%s\n", f.name.c_str(), f.params.c_str(),
           f.dont_inline ? " (noinline)" : f.should_inline ? " (inline)" : "",
           f.is_exported ? " (exported)" : "", f.is_entrypoint ? " (entrypoint)" : "");
   } else {
      putf("decl_function %s (%u params) %s\n", f.name.c_str(), f.num_params,
           f.dont_inline ? "(noinline)" : f.should_inline ? "(inline)" : "");
   }
   if (f.impl)
      print_impl(*f.impl);
}

void
printer::print_impl(const function_impl &impl)
{
   max_dest_index_ = impl.ssa_alloc;
   putf("\nimpl %s {\n", impl.function ? impl.function->name.c_str() : "");
   if (!impl.preamble.empty()) {
      indent(1);
      putf("preamble %s\n", impl.preamble.c_str());
   }
   gather_types(impl);
   for (const variable &v : impl.locals) {
      indent(1);
      print_var_decl(v);
   }
   print_cf_list(impl.body, 1);
   indent(1);
   putf("block b%u:\n}\n\n", impl.end_block->index);
   max_dest_index_ = 0;
}

/*
 * nir_gather_types(): marks SSA values used or defined as floats and as
 * integers, propagating through moves, vecs, selects and phis until
 * nothing changes.  Constants and undefs take their users' types but do
 * not pass them on.
 */
void
printer::gather_types(const function_impl &impl)
{
   unsigned n = impl.ssa_alloc;
   for (const block *b : blocks_in_order(impl)) {
      for (const auto &in : b->instrs) {
         if (const def *d = in->get_def())
            n = std::max(n, d->index + 1);
      }
   }
   float_types_.assign(n, 0);
   int_types_.assign(n, 0);

   bool progress;
   auto set_type = [&](const def *d, alu_type t) {
      std::vector<uint8_t> *types = nullptr;
      switch (base_type(t)) {
      case type_bool:
      case type_int:
      case type_uint:
         types = &int_types_;
         break;
      case type_float:
         types = &float_types_;
         break;
      default:
         return;
      }
      if (!(*types)[d->index]) {
         (*types)[d->index] = 1;
         progress = true;
      }
   };
   auto copy_types = [&](const def *src, const def *dst) {
      const bool sink = src->parent->type == instr_type::load_const ||
                        src->parent->type == instr_type::undef;
      for (auto *types : {&float_types_, &int_types_}) {
         if ((*types)[dst->index]) {
            if (!(*types)[src->index]) {
               (*types)[src->index] = 1;
               progress = true;
            }
         } else if ((*types)[src->index] && !sink) {
            (*types)[dst->index] = 1;
            progress = true;
         }
      }
   };

   const std::vector<block *> blocks = blocks_in_order(impl);
   do {
      progress = false;
      for (const block *b : blocks) {
         for (const auto &in : b->instrs) {
            switch (in->type) {
            case instr_type::alu: {
               const auto &alu = static_cast<const alu_instr &>(*in);
               const alu_op_info &info = op_info(alu.op);
               switch (alu.op) {
               case alu_op::mov:
               case alu_op::vec2:
               case alu_op::vec3:
               case alu_op::vec4:
               case alu_op::vec5:
               case alu_op::vec8:
               case alu_op::vec16:
                  for (const alu_src &s : alu.srcs)
                     copy_types(s.ssa, &alu.dest);
                  break;
               case alu_op::bcsel:
               case alu_op::b32csel:
                  set_type(alu.srcs[0].ssa, type_bool);
                  copy_types(alu.srcs[1].ssa, &alu.dest);
                  copy_types(alu.srcs[2].ssa, &alu.dest);
                  break;
               default:
                  for (unsigned i = 0; i < info.num_inputs; i++)
                     set_type(alu.srcs[i].ssa, info.input_types[i]);
                  set_type(&alu.dest, info.output_type);
                  break;
               }
               break;
            }
            case instr_type::tex: {
               const auto &tex = static_cast<const tex_instr &>(*in);
               for (const tex_src &s : tex.srcs)
                  set_type(s.ssa, tex_src_alu_type(tex.op, s.type));
               set_type(&tex.dest, tex.dest_type);
               break;
            }
            case instr_type::intrinsic: {
               const auto &intr = static_cast<const intrinsic_instr &>(*in);
               const alu_type dt = intrinsic_dest_type(intr);
               if (dt != type_invalid)
                  set_type(&intr.dest, dt);
               for (unsigned i = 0; i < intr.srcs.size(); i++) {
                  const alu_type st = intrinsic_src_type(intr, i);
                  if (st != type_invalid)
                     set_type(intr.srcs[i].ssa, st);
               }
               break;
            }
            case instr_type::phi: {
               const auto &phi = static_cast<const phi_instr &>(*in);
               for (const phi_src &s : phi.srcs)
                  copy_types(s.ssa, &phi.dest);
               break;
            }
            default:
               break;
            }
         }
      }
   } while (progress);
}

void
printer::print_cf_list(const cf_list &list, unsigned tabs)
{
   for (const auto &node : list) {
      switch (node->type) {
      case cf_type::block:
         print_block(static_cast<const block &>(*node), tabs);
         break;
      case cf_type::if_:
         print_if(static_cast<const if_ &>(*node), tabs);
         break;
      case cf_type::loop:
         print_loop(static_cast<const loop &>(*node), tabs);
         break;
      }
   }
}

void
printer::print_block(const block &b, unsigned tabs)
{
   bool has_dest = false;
   for (const auto &in : b.instrs)
      has_dest |= in->get_def() != nullptr;
   padding_for_no_dest_ =
      has_dest ? 10 + (sh_.info.divergence_analysis_run ? 4 : 0) +
                    count_digits(max_dest_index_)
               : 0;

   /* 23.3: "// preds: b1 b2 " ... "// succs: b3 "; 25.0 puts the space
    * before each block instead.
    */
   auto preds = [&] {
      for (unsigned i = 0; i < b.preds.size(); i++) {
         put(i || is25_ ? " b" : "b");
         put_uint(b.preds[i]->index);
      }
   };
   auto succs = [&] {
      for (const block *s : b.succs) {
         if (s) {
            put(is25_ ? " b" : "b");
            put_uint(s->index);
            if (!is25_)
               putc(' ');
         }
      }
   };
   const char *preds_label = is25_ ? "// preds:" : "// preds: ";
   const char *succs_label = is25_ ? "// succs:" : "// succs: ";

   indent(tabs);
   if (is25_ && sh_.info.divergence_analysis_run)
      put(b.divergent ? "div " : "con ");
   putf("block b%u:", b.index);
   if (b.instrs.empty()) {
      put("  ");
      put(preds_label);
      preds();
      put(is25_ ? ", succs:" : ", succs: ");
      succs();
      putc('\n');
      return;
   }
   const unsigned block_length = 7 + count_digits(b.index) + 1;
   spaces(block_length < padding_for_no_dest_ ? padding_for_no_dest_ - block_length
                                             : 0);
   put(preds_label);
   preds();
   putc('\n');

   for (const auto &in : b.instrs) {
      indent(tabs);
      print_instr(*in);
      putc('\n');
   }

   indent(tabs);
   spaces(padding_for_no_dest_);
   put(succs_label);
   succs();
   putc('\n');
}

void
printer::print_if(const if_ &nif, unsigned tabs)
{
   indent(tabs);
   put("if ");
   print_src(nif.condition.ssa, type_invalid);
   switch (nif.control) {
   case selection_control::flatten: put("  // flatten"); break;
   case selection_control::dont_flatten: put("  // don't flatten"); break;
   case selection_control::divergent_always_taken:
      put("  // divergent always taken");
      break;
   default: break;
   }
   put(" {\n");
   print_cf_list(nif.then_list, tabs + 1);
   indent(tabs);
   put("} else {\n");
   print_cf_list(nif.else_list, tabs + 1);
   indent(tabs);
   put("}\n");
}

void
printer::print_loop(const loop &l, unsigned tabs)
{
   indent(tabs);
   if (is25_ && sh_.info.divergence_analysis_run)
      put(l.divergent_break ? "div " : "con ");
   put("loop {\n");
   print_cf_list(l.body, tabs + 1);
   indent(tabs);
   if (!l.continue_list.empty()) {
      put("} continue {\n");
      print_cf_list(l.continue_list, tabs + 1);
      indent(tabs);
   }
   put("}\n");
}

void
printer::print_def(const def &d)
{
   const unsigned ssa_padding =
      max_dest_index_ ? std::max(0, int(count_digits(max_dest_index_)) -
                                       int(count_digits(d.index)))
                      : 0;
   /* 23.3 pads 1-bit values by one more, 25.0 values of up to 8 bits. */
   const unsigned padding =
      (is25_ ? d.bit_size <= 8 : d.bit_size == 1) + 1 + ssa_padding;
   if (sh_.info.divergence_analysis_run)
      put(d.divergent ? "div " : "con ");
   put_uint(d.bit_size);
   put(size_suffix(d.num_components));
   spaces(padding);
   putc('%');
   put_uint(d.index);
}

/* One value as nir_print writes it in each style. */
static std::string
fmt_value(const_value v, unsigned bit_size, char style)
{
   const uint64_t u = const_value_bits(v, bit_size);
   char buf[512];  /* "%f" of a large double needs ~320 */
   switch (style) {
   case 'x': /* hex, padded */
      std::snprintf(buf, sizeof(buf), "0x%0*" PRIx64, int(bit_size / 4), u);
      break;
   case 'h': /* hex, terse */
      std::snprintf(buf, sizeof(buf), "0x%" PRIx64, u);
      break;
   case 'f':
      std::snprintf(buf, sizeof(buf), "%f",
                    bit_size == 64 ? v.f64 :
                    bit_size == 32 ? double(v.f32) :
                                     double(eval::half_to_float(v.u16)));
      break;
   case 'i': {
      const int64_t s = bit_size == 64 ? v.i64 : bit_size == 32 ? v.i32 :
                        bit_size == 16 ? v.i16 : v.i8;
      std::snprintf(buf, sizeof(buf), "%+" PRId64, s);
      break;
   }
   default: /* 'u' */
      std::snprintf(buf, sizeof(buf), "%" PRIu64, u);
      break;
   }
   return buf;
}

void
printer::print_const(const load_const_instr &lc, alu_type type)
{
   const unsigned bits = lc.dest.bit_size;
   putc('(');
   for (unsigned i = 0; i < lc.values.size(); i++) {
      if (i)
         put(", ");
      if (bits == 1)
         put(lc.values[i].b ? "true" : "false");
      else
         put(fmt_value(lc.values[i], bits, base_type(type) == type_float ? 'f' : 'h'));
   }
   putc(')');
}

void
printer::print_load_const(const load_const_instr &lc)
{
   print_def(lc.dest);
   put(" = load_const (");
   const unsigned bits = lc.dest.bit_size;
   const unsigned n = lc.values.size();
   if (bits == 1) {
      for (unsigned i = 0; i < n; i++)
         put(i ? (lc.values[i].b ? ", true" : ", false")
               : (lc.values[i].b ? "true" : "false"));
      putc(')');
      return;
   }

   bool needs_float = bits > 8, needs_signed = false, needs_decimal = false;
   for (const const_value &v : lc.values) {
      const uint64_t u = const_value_bits(v, bits);
      needs_signed |= (u >> (bits - 1)) & 1;
      needs_decimal |= u >= 10;
   }
   const unsigned idx = lc.dest.index;
   const bool is_int = idx < int_types_.size() && int_types_[idx];
   const bool is_float = idx < float_types_.size() && float_types_[idx];
   if (is_int && !is_float)
      needs_float = false;
   else if (is_float && !is_int)
      needs_signed = needs_decimal = false;

   auto values = [&](char style) {
      for (unsigned i = 0; i < n; i++) {
         if (i)
            put(", ");
         put(fmt_value(lc.values[i], bits, style));
      }
   };
   const char *sep = n > 1 ? ") = (" : " = ";
   values('x');
   if (needs_float) {
      put(sep);
      values('f');
   }
   if (needs_signed) {
      put(sep);
      values('i');
   }
   if (needs_decimal) {
      put(sep);
      values('u');
   }
   putc(')');
}

void
printer::print_src(const def *d, alu_type type)
{
   putc('%');
   put_uint(d->index);
   if (d->parent->type != instr_type::load_const)
      return;
   putc(' ');
   alu_type t = base_type(type);
   if (t == type_invalid && d->index < float_types_.size() &&
       float_types_[d->index] && !int_types_[d->index])
      t = type_float;
   if (t == type_invalid)
      t = type_uint;
   print_const(static_cast<const load_const_instr &>(*d->parent), t);
}

void
printer::print_alu(const alu_instr &alu)
{
   const alu_op_info &info = op_info(alu.op);
   print_def(alu.dest);
   put(" = ");
   put(info.name);
   if (alu.exact)
      putc('!');
   if (alu.no_signed_wrap)
      put(".nsw");
   if (alu.no_unsigned_wrap)
      put(".nuw");
   putc(' ');
   for (unsigned i = 0; i < info.num_inputs; i++) {
      if (i)
         put(", ");
      const alu_src &s = alu.srcs[i];
      print_src(s.ssa, info.input_types[i]);
      const unsigned used = alu.src_components(i);
      const unsigned live = s.ssa->num_components;
      bool identity = used == live;
      for (unsigned c = 0; c < used; c++)
         identity &= s.swizzle[c] == c;
      if (!identity) {
         putc('.');
         for (unsigned c = 0; c < used; c++)
            putc(comp_letter(live, s.swizzle[c]));
      }
   }
}

void
printer::print_index(const intrinsic_instr &in, intrinsic_index idx)
{
   const intrinsic_index_info &ii = index_info(idx);
   const int32_t v = in.index(idx);
   const uint32_t u = uint32_t(v);
   switch (ii.style) {
   case index_style::write_mask:
      put("wrmask=");
      for (unsigned i = 0; i < in.num_components && i < 16; i++) {
         if ((u >> i) & 1)
            putc(comp_letter(in.num_components, i));
      }
      return;
   case index_style::alu_op:
      putf("%s=%s", ii.label, u < num_alu_ops ? op_info(alu_op(u)).name : "?");
      return;
   case index_style::interp_mode:
      if (is25_) {
         const char *name = name_of(interp_mode_names, u);
         putf("%s=%s", ii.label, name ? name : "UNKNOWN");
         return;
      }
      break;
   case index_style::atomic_op:
   case index_style::image_dim:
   case index_style::format:
   case index_style::rounding_mode:
   case index_style::ray_query_value:
   case index_style::scope: {
      const name_table &t = ii.style == index_style::atomic_op ? atomic_op_names :
                            ii.style == index_style::image_dim ? image_dim_names :
                            ii.style == index_style::format ? image_format_names :
                            ii.style == index_style::rounding_mode ? rounding_mode_names :
                            ii.style == index_style::ray_query_value ? ray_query_value_names :
                            scope_names;
      const char *name = name_of(t, u);
      putf("%s=%s", ii.label, name ? name : "unknown");
      return;
   }
   case index_style::boolean:
      putf("%s=%s", ii.label, v ? "true" : "false");
      return;
   case index_style::desc_type: {
      const char *name = desc_type_name(u);
      putf("%s=%s", ii.label, name ? name : "unknown");
      return;
   }
   case index_style::alu_type:
      putf("%s=%s", ii.label, type_name(alu_type(u)));
      return;
   case index_style::memory_semantics: {
      static const char *const acq_rel[] = {"NONE", "ACQ", "REL", "ACQ|REL"};
      putf("%s=%s", ii.label, acq_rel[u & 3]);
      if (u & 4)
         put("|AVAILABLE");
      if (u & 8)
         put("|VISIBLE");
      return;
   }
   case index_style::memory_modes:
      putf("%s=", ii.label);
      put(u ? variable_mode_list(u) : "0");
      return;
   case index_style::io_semantics: {
      const io_semantics io = io_semantics::unpack(u);
      const uint32_t mode = io_semantics_mode(in.op);
      const std::string loc = location_str(int(io.location), sh_.info.stage, mode);
      putf("io location=%s slots=%u", loc.c_str(), io.num_slots);
      if (io.interp_explicit_strict) put(" explicit_strict");
      if (io.dual_source_blend_index) put(" dualsrc");
      if (io.fb_fetch_output) put(" fbfetch");
      if (io.fb_fetch_output_coherent) put(" coherent");
      if (io.per_view) put(" perview");
      if (io.medium_precision) put(" mediump");
      if (io.high_16bits) put(" high_16bits");
      if (io.invariant && is25_) put(" invariant");
      if (io.high_dvec2) put(" high_dvec2");
      if (io.no_varying) put(" no_varying");
      if (io.no_sysval_output) put(" no_sysval_output");
      if (sh_.info.stage == shader_stage::geometry &&
          (in.op == intrinsic_op::store_output ||
           in.op == intrinsic_op::store_per_vertex_output)) {
         put(" gs_streams(");
         for (unsigned i = 0; i < 4; i++)
            putf("%s%c=%u", i ? " " : "", "xyzw"[i], (io.gs_streams >> (2 * i)) & 3);
         putc(')');
      }
      return;
   }
   case index_style::io_xfb: {
      const bool second = idx == intrinsic_index::io_xfb2;
      const io_xfb x = io_xfb::unpack(u);
      putf("%s(", ii.label);
      bool first = true;
      for (unsigned i = 0; i < 2; i++) {
         const unsigned start = (second ? 2 : 0) + i;
         if (!x.out[i].num_components)
            continue;
         if (!first)
            put(", ");
         first = false;
         if (x.out[i].num_components > 1)
            putf("components=%u..%u", start, start + x.out[i].num_components - 1);
         else
            putf("component=%u", start);
         putf(" buffer=%u offset=%u", x.out[i].buffer, x.out[i].offset * 4u);
      }
      putc(')');
      return;
   }
   case index_style::resource_access:
   case index_style::cmat_signed: {
      const name_table &t = ii.style == index_style::resource_access
                               ? resource_access_names : cmat_signed_names;
      putf("%s=", ii.label);
      if (!u)
         putc('0');
      for (uint32_t m = u; m;) {
         const char *name = name_of(t, __builtin_ctz(m));
         m &= m - 1;
         put(name ? name : "unknown");
         if (m)
            putc('|');
      }
      return;
   }
   case index_style::access:
      putf("%s=", ii.label);
      print_access(u, "|");
      return;
   case index_style::matrix_layout:
      putf("%s=%s", ii.label, u == 0 ? "col_major" : u == 1 ? "row_major" : "unknown");
      return;
   case index_style::swizzle_mask:
   case index_style::cmat_desc:
   case index_style::plain:
      break;
   }
   putf("%s=%d", ii.label, v);
}

void
printer::print_intrinsic(const intrinsic_instr &in)
{
   const intrinsic_info &info = op_info(in.op);
   if (info.has_dest) {
      print_def(in.dest);
      put(" = ");
   } else {
      spaces(padding_for_no_dest_);
   }
   /* 25.0 leaves out an empty group of sources or indices. */
   putf("@%s", info.name);
   if (!is25_ || !in.srcs.empty()) {
      put(" (");
      for (unsigned i = 0; i < in.srcs.size(); i++) {
         if (i)
            put(", ");
         print_src(in.srcs[i].ssa, intrinsic_src_type(in, i));
      }
      putc(')');
   }
   if (!is25_ || info.num_indices) {
      put(" (");
      for (unsigned i = 0; i < info.num_indices; i++) {
         if (i)
            put(", ");
         print_index(in, info.indices[i]);
      }
      putc(')');
   }

   if (is25_) {
      if (!in.name.empty())
         putf("  // %s", in.name.c_str());
      return;
   }

   /* The variable an IO intrinsic accesses, as a comment. */
   uint32_t mode;
   switch (in.op) {
   case intrinsic_op::load_uniform:
      mode = var_uniform;
      break;
   case intrinsic_op::load_input:
   case intrinsic_op::load_interpolated_input:
   case intrinsic_op::load_per_vertex_input:
      mode = var_shader_in;
      break;
   case intrinsic_op::load_output:
   case intrinsic_op::store_output:
   case intrinsic_op::store_per_vertex_output:
      mode = var_shader_out;
      break;
   default:
      return;
   }
   const int base = in.index(intrinsic_index::base);
   const unsigned comp = unsigned(in.index(intrinsic_index::component));
   for (const variable &v : sh_.variables) {
      if (v.mode != mode || int(v.driver_location) != base || v.name.empty())
         continue;
      /* glsl_get_components() of the whole type: 0 for arrays. */
      const unsigned n = v.type.find('[') == std::string::npos ?
                         type_components(v.type) : 0;
      if (in.op == intrinsic_op::load_uniform ||
          (comp >= v.location_frac && comp < v.location_frac + n)) {
         putf("  // %s", v.name.c_str());
         break;
      }
   }
}

void
printer::print_tex(const tex_instr &tex)
{
   const tex_op_info &info = op_info(tex.op);
   print_def(tex.dest);
   putf(" = (%s)%s ", type_name(tex.dest_type), info.printed);
   bool has_texture_deref = false, has_sampler_deref = false;
   for (unsigned i = 0; i < tex.srcs.size(); i++) {
      if (i)
         put(", ");
      print_src(tex.srcs[i].ssa, tex_src_alu_type(tex.op, tex.srcs[i].type));
      putf(" (%s)", tex_src_name(tex.srcs[i].type));
      has_texture_deref |= tex.srcs[i].type == tex_src_type::texture_deref;
      has_sampler_deref |= tex.srcs[i].type == tex_src_type::sampler_deref;
   }
   if (tex.is_gather_implicit_lod)
      put(", implicit lod");
   if (tex.op == tex_op::tg4)
      putf(", %u (gather_component)", tex.component);
   if (tex.has_explicit_tg4_offsets()) {
      putf(", { (%i, %i)", tex.tg4_offsets[0][0], tex.tg4_offsets[0][1]);
      for (unsigned i = 1; i < 4; i++)
         putf(", (%i, %i)", tex.tg4_offsets[i][0], tex.tg4_offsets[i][1]);
      put(" } (offsets)");
   }
   if (tex.op != tex_op::txf_ms_fb && !has_texture_deref)
      putf(", %u (texture)", tex.texture_index);
   if (info.needs_sampler && !has_sampler_deref)
      putf(", %u (sampler)", tex.sampler_index);
   if (tex.texture_non_uniform)
      put(", texture non-uniform");
   if (tex.sampler_non_uniform)
      put(", sampler non-uniform");
   if (tex.is_sparse)
      put(", sparse");
}

void
printer::print_instr(const instr &in)
{
   switch (in.type) {
   case instr_type::alu:
      print_alu(static_cast<const alu_instr &>(in));
      break;
   case instr_type::intrinsic:
      print_intrinsic(static_cast<const intrinsic_instr &>(in));
      break;
   case instr_type::tex:
      print_tex(static_cast<const tex_instr &>(in));
      break;
   case instr_type::load_const:
      print_load_const(static_cast<const load_const_instr &>(in));
      break;
   case instr_type::undef:
      print_def(static_cast<const undef_instr &>(in).dest);
      put(" = undefined");
      break;
   case instr_type::phi: {
      const auto &phi = static_cast<const phi_instr &>(in);
      print_def(phi.dest);
      put(" = phi ");
      for (unsigned i = 0; i < phi.srcs.size(); i++) {
         if (i)
            put(", ");
         putf("b%u: ", phi.srcs[i].pred->index);
         print_src(phi.srcs[i].ssa, type_invalid);
      }
      break;
   }
   case instr_type::jump: {
      spaces(padding_for_no_dest_);
      put(jump_name(static_cast<const jump_instr &>(in).kind));
      break;
   }
   }
}

} /* anonymous namespace */

std::string
print_shader(const shader &s)
{
   return printer(s).run();
}

} /* namespace ibis::nir */
