/*
 * The dynamic scoreboard's cycles (docs/check.md, "The dynamic
 * scoreboard"): each hardware instruction the simulator issued, costed by
 * the latency table ibis's schedulers use (ir/ibis_perf.h), summed.
 */
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "check/check.h"
#include "ir/ibis_perf.h"
#include "isa/isa.h"
#include "util/ibis_error.h"

namespace ibis::check {

namespace {

/* The IR opcode whose figures a hardware instruction takes: those the
 * table costs apart, and a plain FPU move for the rest.
 */
opcode
ir_opcode_of(const isa::inst &in)
{
   using isa_op = isa::opcode;
   switch (in.op) {
   case isa_op::mad: return opcode::mad;
   case isa_op::madm: return opcode::madm;
   case isa_op::lrp: return opcode::lrp;
   case isa_op::csel: return opcode::csel;
   case isa_op::bfe: return opcode::bfe;
   case isa_op::bfi2: return opcode::bfi2;
   case isa_op::dp4: return opcode::dp4;
   case isa_op::dph: return opcode::dph;
   case isa_op::dp3: return opcode::dp3;
   case isa_op::dp2: return opcode::dp2;
   case isa_op::pln: return opcode::pln;
   case isa_op::mul: return opcode::mul;
   case isa_op::if_: return opcode::if_;
   case isa_op::else_: return opcode::else_;
   case isa_op::endif: return opcode::endif;
   case isa_op::while_: return opcode::while_;
   case isa_op::break_: return opcode::break_;
   case isa_op::cont: return opcode::cont;
   case isa_op::halt: return opcode::halt;
   /* brw costs a JMPI as the other jumps. */
   case isa_op::jmpi: return opcode::if_;
   case isa_op::wait: return opcode::wait;
   case isa_op::nop: return opcode::nop;
   case isa_op::send:
   case isa_op::sendc:
   case isa_op::sends:
   case isa_op::sendsc:
      return opcode::send;
   case isa_op::math:
      switch (in.math) {
      case isa::math_fn::inv: return opcode::math_inv;
      case isa::math_fn::log: return opcode::math_log;
      case isa::math_fn::exp: return opcode::math_exp;
      case isa::math_fn::sqrt: return opcode::math_sqrt;
      case isa::math_fn::rsq: return opcode::math_rsq;
      case isa::math_fn::sin: return opcode::math_sin;
      case isa::math_fn::cos: return opcode::math_cos;
      case isa::math_fn::pow: return opcode::math_pow;
      case isa::math_fn::intdiv: return opcode::math_idiv;
      case isa::math_fn::intmod: return opcode::math_irem;
      case isa::math_fn::intdivmod: return opcode::math_idivrem;
      case isa::math_fn::invm: return opcode::math_invm;
      case isa::math_fn::rsqrtm: return opcode::math_rsqrtm;
      default: return opcode::math_inv;
      }
   default:
      return opcode::mov;
   }
}

bool
is_float(isa::type t)
{
   return t == isa::type::F || t == isa::type::DF || t == isa::type::HF ||
          t == isa::type::VF;
}

} /* anonymous namespace */

hw_instr
hw_instr_of(const isa::inst &in)
{
   hw_instr h;
   h.op = ir_opcode_of(in);
   h.exec_size = in.exec_size;
   const unsigned nsrc = isa::info(in.op).nsrc;
   /* The execution type: the largest source type (vectors immediates
    * excluded), else the destination's.
    */
   unsigned tx = 0;
   for (unsigned i = 0; i < nsrc && i < 3; i++) {
      const isa::reg &r = in.src[i];
      if (r.file == isa::reg_file::arf && r.is_null())
         continue;
      if (r.type == isa::type::V || r.type == isa::type::UV || r.type == isa::type::VF)
         continue;
      tx = std::max(tx, isa::type_size(r.type));
   }
   if (!tx && !in.dst.is_null())
      tx = isa::type_size(in.dst.type);
   h.tx_bytes = tx ? tx : 4;
   if (!in.dst.is_null())
      h.dst_bytes = in.exec_size * isa::type_size(in.dst.type) *
                    std::max<unsigned>(1, in.dst.hstride);
   h.slow_int_mul = (in.op == isa::opcode::mul || in.op == isa::opcode::mad) && nsrc >= 2 &&
                    !is_float(in.src[0].type) && isa::type_size(in.src[0].type) == 4 &&
                    isa::type_size(in.src[1].type) == 4;
   if (h.op == opcode::send) {
      h.sfid = unsigned(in.sfid);
      h.desc = in.desc;
      h.ex_mlen = in.op == isa::opcode::sends || in.op == isa::opcode::sendsc ? in.ex_mlen() : 0;
   }
   return h;
}

uint64_t
executed_cycles(const std::vector<uint8_t> &binary, const std::vector<uint64_t> &issued_at)
{
   const std::vector<isa::decoded> prog =
      isa::decode_program(binary.data(), binary.size(), isa::gen::gen9);
   uint64_t cycles = 0;
   for (size_t k = 0; k < prog.size() && k < issued_at.size(); k++) {
      if (issued_at[k])
         cycles += issued_at[k] * perf_of(hw_instr_of(prog[k].in)).latency;
   }
   return cycles;
}

void
add_issued(std::vector<uint64_t> &a, const std::vector<uint64_t> &b)
{
   a.resize(std::max(a.size(), b.size()));
   for (size_t k = 0; k < b.size(); k++)
      a[k] += b[k];
}

std::string
profile_text(const std::vector<uint8_t> &binary, const std::vector<uint64_t> &issued_at)
{
   const std::vector<isa::decoded> prog =
      isa::decode_program(binary.data(), binary.size(), isa::gen::gen9);
   const isa::label_map labels = isa::find_labels(prog);
   std::string out;
   for (size_t k = 0; k < prog.size(); k++) {
      auto l = labels.numbers.find(int64_t(prog[k].offset));
      if (l != labels.numbers.end())
         out += strfmt("%10s LABEL%u:\n", "", l->second);
      /* A send's description continues on an indented second line. */
      std::string text = isa::disassemble(prog[k].in, isa::gen::gen9, prog[k].offset, &labels);
      for (size_t nl = text.find('\n'); nl != std::string::npos && nl + 1 < text.size();
           nl = text.find('\n', nl + 1))
         text.insert(nl + 1, 11, ' ');
      const uint64_t n = k < issued_at.size() ? issued_at[k] : 0;
      out += (n ? strfmt("%10llu ", (unsigned long long)n) : std::string(11, ' ')) + text;
   }
   return out;
}

} /* namespace ibis::check */

namespace ibis::check {

namespace {

const char *const measure_names[4] = {"executed instructions", "channel-instructions", "sends",
                                      "estimated cycles"};

double
ratio(uint64_t brw, uint64_t ibis)
{
   return brw ? double(ibis) / double(brw) : ibis ? HUGE_VAL : 1.0;
}

} /* anonymous namespace */

std::string
dynamic_rows_text(const std::vector<dynamic_row> &rows)
{
   std::string out = "group\tprogram\tbrw_instructions\tbrw_channel_instructions\tbrw_sends\t"
                     "brw_cycles\tibis_instructions\tibis_channel_instructions\tibis_sends\t"
                     "ibis_cycles\n";
   for (const dynamic_row &r : rows) {
      out += r.group + "\t" + r.program;
      for (uint64_t v : r.brw)
         out += strfmt("\t%llu", (unsigned long long)v);
      for (uint64_t v : r.ibis)
         out += strfmt("\t%llu", (unsigned long long)v);
      out += "\n";
   }
   return out;
}

std::vector<dynamic_row>
read_dynamic_rows(const std::string &text, const std::string &name)
{
   std::vector<dynamic_row> rows;
   std::istringstream in(text);
   std::string line;
   unsigned n = 0;
   while (std::getline(in, line)) {
      n++;
      if (line.empty() || line.compare(0, 6, "group\t") == 0)
         continue;
      std::vector<std::string> f;
      for (size_t p = 0;;) {
         size_t q = line.find('\t', p);
         f.push_back(line.substr(p, q == std::string::npos ? q : q - p));
         if (q == std::string::npos)
            break;
         p = q + 1;
      }
      if (f.size() != 10)
         throw error(strfmt("%s:%u: %zu fields, not 10", name.c_str(), n, f.size()));
      dynamic_row r;
      r.group = f[0];
      r.program = f[1];
      for (unsigned i = 0; i < 4; i++) {
         r.brw[i] = strtoull(f[2 + i].c_str(), nullptr, 10);
         r.ibis[i] = strtoull(f[6 + i].c_str(), nullptr, 10);
      }
      rows.push_back(r);
   }
   return rows;
}

std::string
dynamic_scoreboard(const std::vector<dynamic_row> &rows, unsigned worst)
{
   std::map<std::string, std::vector<const dynamic_row *>> groups;
   for (const dynamic_row &r : rows)
      groups[r.group].push_back(&r);
   std::string out;
   for (auto &[g, list] : groups) {
      uint64_t brw[4] = {}, ibis[4] = {};
      unsigned helped = 0, hurt = 0, hurt_5 = 0;
      for (const dynamic_row *r : list) {
         for (unsigned i = 0; i < 4; i++) {
            brw[i] += r->brw[i];
            ibis[i] += r->ibis[i];
         }
         helped += r->ibis[0] < r->brw[0];
         hurt += r->ibis[0] > r->brw[0];
         /* The bound: no program more than 5% worse. */
         hurt_5 += ratio(r->brw[0], r->ibis[0]) > 1.05;
      }
      out += strfmt("%s: %zu programs, %u helped, %u hurt (ibis executes fewer, more "
                    "instructions), %zu alike; %u more than 5%% worse\n", g.c_str(),
                    list.size(), helped, hurt, list.size() - helped - hurt, hurt_5);
      for (unsigned i = 0; i < 4; i++)
         out += strfmt("   %-22s brw %12llu  ibis %12llu  ibis/brw %.3f\n", measure_names[i],
                       (unsigned long long)brw[i], (unsigned long long)ibis[i],
                       ratio(brw[i], ibis[i]));
      /* Highest ratio first; ties by the larger excess, then by name. */
      std::vector<const dynamic_row *> order = list;
      std::sort(order.begin(), order.end(), [](const dynamic_row *a, const dynamic_row *b) {
         const double ra = ratio(a->brw[0], a->ibis[0]), rb = ratio(b->brw[0], b->ibis[0]);
         if (ra != rb)
            return ra > rb;
         const int64_t ea = int64_t(a->ibis[0] - a->brw[0]), eb = int64_t(b->ibis[0] - b->brw[0]);
         if (ea != eb)
            return ea > eb;
         return a->program < b->program;
      });
      out += strfmt("   worst %u (ibis/brw executed instructions):\n",
                    std::min<unsigned>(worst, unsigned(order.size())));
      for (size_t i = 0; i < order.size() && i < worst; i++)
         out += strfmt("      %.3f  %llu -> %llu  %s\n", ratio(order[i]->brw[0], order[i]->ibis[0]),
                       (unsigned long long)order[i]->brw[0],
                       (unsigned long long)order[i]->ibis[0], order[i]->program.c_str());
   }
   return out;
}

} /* namespace ibis::check */
