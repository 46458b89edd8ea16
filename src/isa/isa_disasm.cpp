/*
 * Disassembly in the syntax of Mesa's brw_disasm / i965_disasm, down to
 * its column layout, so that our output can be compared with brw's.
 */
#include <cinttypes>
#include <cstdarg>
#include <cstring>

#include "isa/isa_bits.h"
#include "util/ibis_error.h"

namespace ibis::isa {

namespace {

/* Text with brw_disasm's notion of the current column.  Some of brw's
 * output bypasses its column counter (descriptors, invalid values); raw()
 * reproduces that so padding comes out the same.
 */
struct printer {
   std::string out;
   int column = 0;

   void str(const char *s)
   {
      out += s;
      column += strlen(s);
   }
   void fmt(const char *f, ...) __attribute__((format(printf, 2, 3)))
   {
      va_list ap;
      va_start(ap, f);
      str(vstrfmt(f, ap).c_str());
      va_end(ap);
   }
   void raw(const std::string &s) { out += s; }
   void pad(int c)
   {
      do
         str(" ");
      while (column < c);
   }
   void newline()
   {
      out += '\n';
      column = 0;
   }
   /* An entry of a name table, with brw's separator rule: a space before
    * it when *space is set.  Empty names print nothing.
    */
   void control(const char *what, const char *const *names, unsigned n,
                unsigned id, bool *space = nullptr)
   {
      if (id >= n || !names[id]) {
         raw(strfmt("*** invalid %s value %u ", what, id));
         return;
      }
      if (!names[id][0])
         return;
      if (space && *space)
         str(" ");
      str(names[id]);
      if (space)
         *space = true;
   }
};

template <size_t N>
void
control(printer &p, const char *what, const char *const (&names)[N],
        unsigned id, bool *space = nullptr)
{
   p.control(what, names, N, id, space);
}

unsigned
elem_size(isa::type t)
{
   unsigned s = type_size(t);
   return s ? s : 1;
}

const char *
letters(isa::type t)
{
   return unsigned(t) < num_types ? type_name(t) : "INVALID";
}

/* Prints a register name; false for ip and tdr0, which brw prints bare. */
bool
print_reg(printer &p, reg_file file, unsigned nr)
{
   switch (file) {
   case reg_file::arf: {
      unsigned kind = nr >> 4, idx = nr & 0xf;
      if (kind == unsigned(arf::null) >> 4)
         p.str("null");
      else if (kind == unsigned(arf::ip) >> 4) {
         p.str("ip");
         return false;
      } else if (kind == unsigned(arf::tdr) >> 4) {
         p.str("tdr0");
         return false;
      } else if (tables::arf_names[kind])
         p.fmt("%s%u", tables::arf_names[kind], idx);
      else
         p.fmt("ARF%u", nr);
      return true;
   }
   case reg_file::grf:
      p.fmt("g%u", nr);
      return true;
   default:
      p.fmt("%s%u", unsigned(file) == 2 ? "m" : "imm", nr);
      return true;
   }
}

/* "" for a reserved encoding. */
std::string
vstride_name(unsigned v)
{
   if (v == vstride_vxh)
      return "VxH";
   if (v == 0xfe)
      return "";
   return strfmt("%u", v);
}

void
print_region(printer &p, const reg &s)
{
   p.str("<");
   std::string v = vstride_name(s.vstride);
   if (!v.empty())
      p.str(v.c_str());
   else
      p.raw("*** invalid vert stride ");
   p.str(",");
   if (s.width <= 16)
      p.fmt("%u", s.width);
   else
      p.raw(strfmt("*** invalid width value %u ", log2_enc(s.width)));
   p.fmt(",%u>", s.hstride);
}

void
print_swizzle(printer &p, uint8_t swz)
{
   static const char chan[] = "xyzw";
   unsigned x = swz & 3, y = (swz >> 2) & 3, z = (swz >> 4) & 3, w = swz >> 6;
   if (x == y && x == z && x == w)
      p.fmt(".%c", chan[x]);
   else if (swz != swizzle_xyzw)
      p.fmt(".%c%c%c%c", chan[x], chan[y], chan[z], chan[w]);
}

void
print_writemask(printer &p, unsigned mask)
{
   if (mask == 0xf)
      return;
   std::string s = ".";
   for (unsigned i = 0; i < 4; i++) {
      if (mask & (1 << i))
         s += "xyzw"[i];
   }
   p.str(s.c_str());
}

float
vf_to_float(uint8_t vf)
{
   /* 8-bit restricted float: sign, 3-bit exponent (bias 3), 4-bit mantissa. */
   uint32_t bits;
   if ((vf & 0x7f) == 0) {
      bits = uint32_t(vf) << 24;
   } else {
      uint32_t e = ((vf >> 4) & 7) + 127 - 3;
      bits = uint32_t(vf & 0x80) << 24 | e << 23 | uint32_t(vf & 0xf) << 19;
   }
   float f;
   memcpy(&f, &bits, 4);
   return f;
}

void
print_imm(printer &p, const reg &s)
{
   uint32_t ud = uint32_t(s.imm);
   switch (s.type) {
   case type::UQ:
      p.fmt("0x%016" PRIx64 "UQ", s.imm);
      break;
   case type::Q:
      p.fmt("0x%016" PRIx64 "Q", s.imm);
      break;
   case type::UD:
      p.fmt("0x%08xUD", ud);
      break;
   case type::D:
      p.fmt("%dD", int32_t(ud));
      break;
   case type::UW:
      p.fmt("0x%04xUW", ud & 0xffff);
      break;
   case type::W:
      p.fmt("%dW", int16_t(ud));
      break;
   case type::UV:
      p.fmt("0x%08xUV", ud);
      break;
   case type::V:
      p.fmt("0x%08xV", ud);
      break;
   case type::VF:
      p.fmt("0x%xVF", ud);
      p.pad(48);
      p.fmt("/* [%-gF, %-gF, %-gF, %-gF]VF */", vf_to_float(ud), vf_to_float(ud >> 8),
            vf_to_float(ud >> 16), vf_to_float(ud >> 24));
      break;
   case type::F: {
      float f;
      memcpy(&f, &ud, 4);
      p.fmt("0x%xF", ud);
      p.pad(48);
      p.fmt(" /* %-gF */", f);
      break;
   }
   case type::DF: {
      double d;
      memcpy(&d, &s.imm, 8);
      p.fmt("0x%016" PRIx64 "DF", s.imm);
      p.pad(48);
      p.fmt("/* %-gDF */", d);
      break;
   }
   case type::HF:
      p.str("Half Float IMM");
      break;
   default:
      p.fmt("*** invalid immediate type %u ", unsigned(s.type));
      break;
   }
}

void
print_dst(printer &p, const inst &in)
{
   const reg &d = in.dst;
   unsigned size = elem_size(d.type);
   if (in.access == access_mode::align1) {
      if (!d.indirect) {
         if (!print_reg(p, d.file, d.nr))
            return;
         if (d.subnr)
            p.fmt(".%u", d.subnr / size);
      } else {
         p.str("g[a0");
         if (d.ia_subnr)
            p.fmt(".%u", d.ia_subnr / size);
         if (d.ia_imm)
            p.fmt(" %d", d.ia_imm);
         p.str("]");
      }
      p.fmt("<%u>", d.hstride);
      p.str(letters(d.type));
   } else {
      if (d.indirect) {
         p.str("Indirect align16 address mode not supported");
         return;
      }
      if (!print_reg(p, d.file, d.nr))
         return;
      if (d.subnr)
         p.fmt(".%u", 16 / size);
      p.str("<1>");
      print_writemask(p, d.writemask);
      p.str(letters(d.type));
   }
}

void
print_src(printer &p, const inst &in, const reg &s)
{
   if (s.file == reg_file::imm) {
      print_imm(p, s);
      return;
   }
   if (s.negate)
      p.str(tables::opcodes[unsigned(in.op)].logic ? "~" : "-");
   if (s.abs)
      p.str("(abs)");
   unsigned size = elem_size(s.type);
   if (in.access == access_mode::align1) {
      if (!s.indirect) {
         if (!print_reg(p, s.file, s.nr))
            return;
         if (s.subnr)
            p.fmt(".%u", s.subnr / size);
      } else {
         p.str("g[a0");
         if (s.ia_subnr)
            p.fmt(".%u", s.ia_subnr);
         if (s.ia_imm)
            p.fmt(" %d", s.ia_imm);
         p.str("]");
      }
      print_region(p, s);
   } else {
      if (s.indirect) {
         p.str("Indirect align16 address mode not supported");
         return;
      }
      if (!print_reg(p, s.file, s.nr))
         return;
      if (s.subnr)
         p.fmt(".%u", 16 / size);
      p.str("<");
      p.str(vstride_name(s.vstride).c_str());
      p.str(">");
      print_swizzle(p, s.swizzle);
   }
   p.str(letters(s.type));
}

void
print_tri_dst(printer &p, const inst &in)
{
   const reg &d = in.dst;
   print_reg(p, reg_file::grf, d.nr);
   if (d.subnr / elem_size(d.type))
      p.fmt(".%u", d.subnr / elem_size(d.type));
   p.str("<1>");
   print_writemask(p, d.writemask);
   p.str(letters(d.type));
}

void
print_tri_src(printer &p, const reg &s)
{
   bool scalar = s.vstride == 0;
   unsigned subnr = s.subnr / elem_size(s.type);
   if (s.negate)
      p.str("-");
   if (s.abs)
      p.str("(abs)");
   print_reg(p, reg_file::grf, s.nr);
   if (subnr || scalar)
      p.fmt(".%u", subnr);
   p.str(scalar ? "<0,1,0>" : "<4,4,1>");
   if (!scalar)
      print_swizzle(p, s.swizzle);
   p.str(letters(s.type));
}

void
print_label(printer &p, const label_map *labels, int64_t here, int32_t jump)
{
   if (!labels) {
      /* Without a label table, the relative byte offset keeps the text
       * assemblable.
       */
      p.fmt(" %d", jump);
      return;
   }
   auto it = labels->numbers.find(here + jump);
   if (it != labels->numbers.end())
      p.fmt(" LABEL%u", it->second);
}

void
print_group(printer &p, const inst &in)
{
   unsigned qtr = in.group / 8, nib = (in.group / 4) & 1;
   if (in.exec_size < 8 || nib)
      p.fmt(" %uN", qtr * 2 + nib + 1);
   else if (in.exec_size == 8)
      p.fmt(" %uQ", qtr + 1);
   else if (in.exec_size == 16)
      p.str(qtr < 2 ? " 1H" : " 2H");
}

/* The second line of a SEND: what its descriptor means. */
void
print_msg_desc(printer &p, const inst &in, bool split)
{
   const uint32_t desc = in.desc;
   bool space = false;
   control(p, "SFID", tables::sfid_names, unsigned(in.sfid), &space);
   p.str(" MsgDesc:");

   if (in.desc_indirect) {
      p.str(" indirect");
   } else {
      unsigned bti = desc_field(desc, msg::binding_table_index);
      unsigned msg_ctrl = desc_field(desc, msg::dp_msg_control);
      unsigned dp_type = desc_field(desc, msg::dp_msg_type);
      bool unsupported = false;
      switch (in.sfid) {
      case sfid::sampler:
         control(p, "sampler message", tables::sampler_msg_names,
                 desc_field(desc, msg::sampler_msg_type), &space);
         control(p, "sampler simd mode", tables::sampler_simd_names,
                 desc_field(desc, msg::sampler_simd_mode) |
                    desc_field(desc, msg::sampler_simd_mode_2) << 2, &space);
         if (desc_field(desc, msg::sampler_return_format))
            p.str(" HP");
         p.fmt(" Surface = %u Sampler = %u", bti, desc_field(desc, msg::sampler_index));
         break;
      case sfid::sampler_cache:
      case sfid::const_cache:
         p.fmt(" (bti %u, msg_ctrl %u, msg_type %u, write_commit %u)", bti, msg_ctrl,
               dp_type, 0u);
         break;
      case sfid::render_cache: {
         unsigned type = desc_field(desc, msg::rc_msg_type);
         control(p, "DP rc message type", tables::rc_msg_names, type, &space);
         if (type == 12) {
            control(p, "RT message type", tables::rt_write_names,
                    desc_field(desc, msg::rt_subtype), &space);
            if (desc_field(desc, msg::rt_slot_group))
               p.str(" Hi");
            if (desc_field(desc, msg::rt_last))
               p.str(" LastRT");
         } else {
            p.fmt(" MsgCtrl = 0x%u", msg_ctrl);
         }
         p.fmt(" Surface = %u", bti);
         break;
      }
      case sfid::urb: {
         unsigned op = desc_field(desc, msg::urb_opcode);
         p.fmt(" offset %u", desc_field(desc, msg::urb_global_offset));
         space = true;
         control(p, "urb opcode", tables::urb_opcode_names, op, &space);
         if (desc_field(desc, msg::urb_per_slot_offset))
            p.str(" per-slot");
         if (op == unsigned(urb_op::simd8_write) || op == unsigned(urb_op::simd8_read)) {
            if (desc_field(desc, msg::urb_channel_mask_present))
               p.str(" masked");
         } else {
            control(p, "urb swizzle", tables::urb_swizzle_names,
                    desc_field(desc, msg::urb_channel_mask_present), &space);
         }
         break;
      }
      case sfid::thread_spawner:
         break;
      case sfid::gateway: {
         const char *name = tables::gateway_names[desc_field(desc, msg::gateway_subfunc)];
         p.fmt(" (%s)", name ? name : "(null)");
         break;
      }
      case sfid::data_cache:
         p.str(" (");
         space = false;
         control(p, "DP DC0 message type", tables::dc0_msg_names, dp_type & 0xf, &space);
         p.fmt(", bti %u, ", bti);
         if (dp_type == 6) {
            control(p, "atomic op", tables::atomic_op_names, msg_ctrl & 0xf, &space);
         } else if (dp_type == 0 || dp_type == 8) {
            const char *n = tables::oword_block_names[msg_ctrl & 7];
            p.fmt("owords = %s, aligned = %u", n ? n : "?", (msg_ctrl >> 3) & 3);
         } else {
            p.fmt("%u", msg_ctrl);
         }
         p.str(")");
         break;
      case sfid::data_cache1:
         p.str(" (");
         space = false;
         control(p, "DP DC1 message type", tables::dc1_msg_names, dp_type, &space);
         p.fmt(", Surface = %u, ", bti);
         switch (dp_type) {
         case 2: case 6: case 11:
            p.fmt("SIMD%u,", (msg_ctrl & 0x10) ? 8 : 16);
            control(p, "atomic op", tables::atomic_op_names, msg_ctrl & 0xf, &space);
            break;
         case 3: case 7: case 12: case 18:
            control(p, "atomic op", tables::atomic_op_names, msg_ctrl & 0xf, &space);
            break;
         case 1: case 9: case 5: case 13: case 25: case 17: {
            static const char *const simd[4] = { "4x2", "16", "8", "?" };
            p.fmt("SIMD%s, Mask = 0x%x", simd[msg_ctrl >> 4], msg_ctrl & 0xf);
            break;
         }
         case 27: case 29:
            p.fmt("SIMD%u,", (msg_ctrl & 0x10) ? 8 : 16);
            control(p, "atomic float op", tables::atomic_float_op_names, msg_ctrl & 0xf, &space);
            break;
         case 20: case 21: {
            const char *n = tables::oword_block_names[msg_ctrl & 7];
            p.fmt("owords = %s, aligned = %u", n ? n : "?", (msg_ctrl >> 3) & 3);
            break;
         }
         default:
            p.fmt("0x%x", msg_ctrl);
            break;
         }
         p.str(")");
         break;
      case sfid::pixel_interp:
         p.fmt(" (%s, %s, 0x%02x)", desc_field(desc, msg::pi_nopersp) ? "linear" : "persp",
               tables::pi_msg_names[desc_field(desc, msg::pi_msg_type)],
               desc_field(desc, msg::pi_msg_data));
         break;
      default:
         unsupported = true;
         break;
      }
      if (unsupported)
         p.fmt("unsupported shared function ID %u", unsigned(in.sfid));
      if (space)
         p.str(" ");
   }
   if (!in.desc_indirect)
      p.fmt(" mlen %u", in.mlen());
   if (split && !in.ex_desc_indirect)
      p.fmt(" ex_mlen %u", in.ex_mlen());
   if (!in.desc_indirect)
      p.fmt(" rlen %u", in.rlen());
}

void
print_send(printer &p, const inst &in)
{
   bool split = info(in.op).form == op_form::sends;
   if (split) {
      p.pad(16);
      print_reg(p, in.dst.file, in.dst.nr);
      if (in.dst.subnr)
         p.fmt(".%u", in.dst.subnr / 16);
      p.str("UD");
      p.pad(32);
      print_reg(p, reg_file::grf, in.src[0].nr);
      if (in.src[0].subnr)
         p.str(".1");
      p.str("UD");
      p.pad(48);
      print_reg(p, in.src[1].file, in.src[1].nr);
      p.str("UD");
      p.pad(64);
      if (in.desc_indirect)
         p.str("a0<0>UD");
      else
         p.raw(strfmt("0x%08x", in.desc));
      p.pad(80);
      if (in.ex_desc_indirect) {
         p.str("a0");
         if (in.ex_desc_subnr)
            p.fmt(".%u", in.ex_desc_subnr);
         p.str("<0>UD");
      } else {
         p.raw(strfmt("0x%08x", in.ex_desc));
      }
   } else {
      p.pad(16);
      print_dst(p, in);
      p.pad(32);
      print_src(p, in, in.src[0]);
      p.pad(48);
      if (in.desc_indirect) {
         /* brw prints the descriptor word, here the register's fields. */
         const reg &r = in.src[1];
         uint32_t word = r.subnr | r.nr << 5 | r.abs << 13 | r.negate << 14 |
                         r.indirect << 15 | (hstride_enc(r.hstride) & 3) << 16 |
                         (log2_enc(r.width) & 7) << 18 | (vstride_enc(r.vstride) & 0xf) << 21 |
                         uint32_t(in.eot) << 31;
         print_src(p, in, r);
         p.pad(64);
         p.raw(strfmt("0x%08x", word));
      } else {
         p.raw(strfmt("0x%08x", in.desc | uint32_t(in.eot) << 31));
      }
   }
   p.newline();
   p.pad(16);
   p.raw("            ");
   print_msg_desc(p, in, split);
}

} /* namespace */

label_map
find_labels(const std::vector<decoded> &program)
{
   label_map labels;
   auto add = [&](int64_t target) {
      if (!labels.numbers.count(target)) {
         unsigned n = labels.numbers.size();
         labels.numbers[target] = n;
      }
   };
   for (const decoded &d : program) {
      if (has_uip(d.in.op)) {
         add(int64_t(d.offset) + d.in.uip);
         add(int64_t(d.offset) + d.in.jip);
      } else if (has_jip(d.in.op) && d.in.op != opcode::jmpi) {
         /* brw_disasm labels no JMPI target. */
         add(int64_t(d.offset) + d.in.jip);
      }
   }
   return labels;
}

std::string
disassemble(const inst &in, gen g, size_t offset, const label_map *labels)
{
   printer p;
   const opcode_info &oi = info(in.op);
   const bool send = is_send(in.op);

   if (in.pred != pred_ctrl::none) {
      p.fmt("(%s", in.pred_inv ? "-" : "+");
      p.fmt("f%u.%u", in.flag_nr, in.flag_subnr);
      if (in.access == access_mode::align1)
         control(p, "predicate control align1", tables::pred_suffix_align1, unsigned(in.pred));
      else
         control(p, "predicate control align16", tables::pred_suffix_align16, unsigned(in.pred));
      p.str(") ");
   }

   if (oi.name)
      p.str(oi.name);
   else
      p.raw(strfmt("*** invalid opcode value %u ", unsigned(in.op)));

   if (!send && in.saturate)
      p.str(".sat");
   if (in.debug)
      p.str(".breakpoint");

   if (in.op == opcode::math) {
      p.str(" ");
      control(p, "function", tables::math_names, unsigned(in.math));
   } else if (!send) {
      control(p, "conditional modifier", tables::cond_mod_suffix, unsigned(in.cmod));
      if (in.cmod != cond_mod::none && in.op != opcode::sel && in.op != opcode::csel &&
          in.op != opcode::if_ && in.op != opcode::while_)
         p.fmt(".f%u.%u", in.flag_nr, in.flag_subnr);
   }

   if (in.op != opcode::nop) {
      p.str("(");
      if (in.exec_size <= 32)
         p.fmt("%u", in.exec_size);
      else
         p.raw(strfmt("*** invalid execution size value %u ", log2_enc(in.exec_size)));
      p.str(")");
   }

   const int64_t here = int64_t(offset);
   if (in.op == opcode::jmpi) {
      p.pad(16);
      if (in.src[1].file == reg_file::imm) {
         /* The hardware's immediate: before Gen12 the distance from the
          * next instruction.
          */
         inst j = in;
         j.src[1] = imm_d(in.jip - (g < gen::gen12 ? 16 : 0));
         print_src(p, j, j.src[1]);
      } else {
         print_src(p, in, in.src[1]);
      }
   } else if (has_uip(in.op)) {
      p.pad(16);
      p.str("JIP: ");
      print_label(p, labels, here, in.jip);
      p.pad(38);
      p.str("UIP: ");
      print_label(p, labels, here, in.uip);
   } else if (has_jip(in.op)) {
      p.pad(16);
      p.str("JIP: ");
      print_label(p, labels, here, in.jip);
   } else if (oi.form == op_form::tri) {
      p.pad(16);
      print_tri_dst(p, in);
      p.pad(32);
      print_tri_src(p, in.src[0]);
      p.pad(48);
      print_tri_src(p, in.src[1]);
      p.pad(64);
      print_tri_src(p, in.src[2]);
   } else if (send) {
      print_send(p, in);
   } else if (oi.name) {
      if (oi.ndst > 0) {
         p.pad(16);
         print_dst(p, in);
      }
      if (oi.nsrc > 0) {
         p.pad(32);
         print_src(p, in, in.src[0]);
      }
      if (oi.nsrc > 1) {
         p.pad(48);
         print_src(p, in, in.src[1]);
      }
   }

   p.pad(64);
   if (in.op != opcode::nop) {
      p.str("{");
      bool space = true;
      static const char *const modes[2] = { "align1", "align16" };
      control(p, "access mode", modes, unsigned(in.access), &space);
      static const char *const we[2] = { "", "WE_all" };
      control(p, "write enable control", we, in.mask_disable, &space);
      static const char *const dep[4] = { "", "NoDDClr", "NoDDChk", "NoDDClr,NoDDChk" };
      control(p, "dependency control", dep, in.no_dd_check << 1 | in.no_dd_clear, &space);
      print_group(p, in);
      static const char *const cmpt[2] = { "", "compacted" };
      control(p, "compaction", cmpt, in.compacted, &space);
      static const char *const thread[4] = { "", "atomic", "switch", nullptr };
      control(p, "thread control", thread, unsigned(in.thread), &space);
      if (in.op == opcode::if_ || in.op == opcode::else_) {
         static const char *const bc[2] = { "", "BranchCtrl" };
         control(p, "branch ctrl", bc, in.acc_wr, &space);
      } else {
         static const char *const acc[2] = { "", "AccWrEnable" };
         control(p, "acc write control", acc, in.acc_wr, &space);
      }
      if (send) {
         static const char *const eot[2] = { "", "EOT" };
         control(p, "end of thread", eot, in.eot, &space);
      }
      if (space)
         p.str(" ");
      p.str("}");
   }
   p.str(";");
   p.newline();
   return p.out;
}

std::string
disassemble_program(const uint8_t *data, size_t size, gen g)
{
   std::vector<decoded> prog = decode_program(data, size, g);
   label_map labels = find_labels(prog);
   std::string out;
   for (const decoded &d : prog) {
      auto it = labels.numbers.find(int64_t(d.offset));
      if (it != labels.numbers.end())
         out += strfmt("LABEL%u:\n", it->second);
      out += disassemble(d.in, g, d.offset, &labels);
   }
   /* A label just past the last instruction (the end of an if or loop). */
   size_t end = prog.empty() ? 0 : prog.back().offset + (prog.back().in.compacted ? 8 : 16);
   auto it = labels.numbers.find(int64_t(end));
   if (it != labels.numbers.end())
      out += strfmt("LABEL%u:\n", it->second);
   return out;
}

} /* namespace ibis::isa */
