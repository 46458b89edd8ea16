/*
 * Instruction kinds of a Gen disassembly; see asm_kinds.h.
 *
 * The text is all there is: no IR, no block list (ibis prints none, brw
 * prints "START B0"), so moves are told apart by what the text shows.
 * Registers are tracked by number in program order, not along the CFG,
 * which is exact in straight-line code and a fair guess around branches.
 */
#include "asm_kinds.h"

#include <algorithm>
#include <bitset>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <vector>

namespace ibis {

const char *const asm_kind_names[NUM_ASM_KINDS] = {
   "mov header", "mov payload", "mov phi", "mov const", "mov other",
   "alu", "math", "send", "flow", "nop",
};

namespace {

constexpr unsigned NUM_GRFS = 128;
using grf_set = std::bitset<NUM_GRFS>;

struct operand {
   bool grf = false;
   bool imm = false;
   unsigned reg = 0, byte = 0;   /* start: GRF and byte within it */
   unsigned type_size = 4;
   unsigned hstride = 1;
};

struct asm_inst {
   std::string op;               /* "mov", "send", "if" ... (no cmod/sat) */
   unsigned exec = 1;
   bool no_mask = false;
   operand dst;
   std::vector<operand> srcs;
   unsigned mlen = 0, ex_mlen = 0, rlen = 0;
};

unsigned
type_size(const std::string &t)
{
   if (t == "DF" || t == "Q" || t == "UQ")
      return 8;
   if (t == "W" || t == "UW" || t == "HF")
      return 2;
   if (t == "B" || t == "UB")
      return 1;
   return 4;
}

operand
parse_operand(std::string t)
{
   operand o;
   while (!t.empty() && (t[0] == '-' || t[0] == '~'))
      t.erase(0, 1);
   if (t.compare(0, 5, "(abs)") == 0)
      t.erase(0, 5);
   if (!t.empty() && (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '.')) {
      o.imm = true;
      return o;
   }
   static const std::regex grf_re(R"(^g(\d+)(?:\.(\d+))?(?:<(\d+)(?:,(\d+),(\d+))?>)?([A-Z]+)?)");
   std::smatch m;
   if (!std::regex_search(t, m, grf_re))
      return o;
   o.grf = true;
   o.reg = unsigned(std::stoul(m[1]));
   o.type_size = type_size(m[6]);
   const unsigned sub = m[2].matched ? unsigned(std::stoul(m[2])) : 0;
   o.byte = sub * o.type_size;
   /* A destination's region is <h>; a source's <v,w,h>. */
   if (m[3].matched && !m[4].matched)
      o.hstride = unsigned(std::stoul(m[3]));
   return o;
}

bool
parse_inst(std::string text, asm_inst &in)
{
   /* Comments after immediates (the value in decimal) carry nothing here. */
   static const std::regex comment_re(R"(/\*.*?\*/)");
   text = std::regex_replace(text, comment_re, " ");
   const size_t brace = text.find('{');
   const std::string opts = brace == std::string::npos ? "" : text.substr(brace);
   std::string body = text.substr(0, brace);
   in.no_mask = opts.find("WE_all") != std::string::npos;
   std::istringstream ss(body);
   std::string tok;
   if (!(ss >> tok))
      return false;
   if (tok[0] == '(') {   /* predicate */
      if (!(ss >> tok))
         return false;
   }
   std::string head = tok;
   if (head == "math") {
      in.op = "math";
      if (!(ss >> tok))
         return false;
      head = tok;
   } else {
      in.op = head.substr(0, head.find_first_of(".(;"));
   }
   const size_t paren = head.find('(');
   if (paren != std::string::npos)
      in.exec = unsigned(std::strtoul(head.c_str() + paren + 1, nullptr, 10));
   std::vector<std::string> ops;
   while (ss >> tok) {
      if (tok == ";")
         break;
      ops.push_back(tok);
   }
   if (!ops.empty()) {
      in.dst = parse_operand(ops[0]);
      for (size_t i = 1; i < ops.size(); i++)
         in.srcs.push_back(parse_operand(ops[i]));
   }
   static const std::regex mlen_re(R"(\bmlen (\d+))"), ex_re(R"(\bex_mlen (\d+))"),
      rlen_re(R"(\brlen (\d+))");
   std::smatch m;
   if (std::regex_search(text, m, mlen_re))
      in.mlen = unsigned(std::stoul(m[1]));
   if (std::regex_search(text, m, ex_re))
      in.ex_mlen = unsigned(std::stoul(m[1]));
   if (std::regex_search(text, m, rlen_re))
      in.rlen = unsigned(std::stoul(m[1]));
   return !in.op.empty();
}

bool
is_send(const std::string &op)
{
   return op == "send" || op == "sendc" || op == "sends" || op == "sendsc";
}

bool
is_flow(const std::string &op)
{
   static const char *const ops[] = {"if", "else", "endif", "while", "break", "cont",
                                     "do", "jmpi", "halt", "call", "ret", "goto",
                                     "join", "brd", "brc", "calla"};
   for (const char *o : ops) {
      if (op == o)
         return true;
   }
   return false;
}

/* The GRFs a destination writes, and those of them it writes whole. */
void
dst_regs(const asm_inst &in, grf_set &touched, grf_set &whole)
{
   if (!in.dst.grf)
      return;
   if (is_send(in.op)) {
      for (unsigned r = in.dst.reg; r < in.dst.reg + in.rlen && r < NUM_GRFS; r++) {
         touched.set(r);
         whole.set(r);
      }
      return;
   }
   const unsigned start = in.dst.reg * 32 + in.dst.byte;
   const unsigned exec = std::max(1u, in.exec);
   const unsigned end = start + (exec - 1) * in.dst.hstride * in.dst.type_size +
                        in.dst.type_size;
   for (unsigned r = start / 32; r <= (end - 1) / 32 && r < NUM_GRFS; r++) {
      touched.set(r);
      /* Whole: every byte, with no gaps. */
      if (in.dst.hstride == 1 && start <= r * 32 && end >= r * 32 + 32)
         whole.set(r);
   }
}

} /* anonymous namespace */

asm_kind_counts
classify_asm(const std::string &text)
{
   /* Gather instructions: one starts on a line at column 0; indented
    * lines continue it (a send's description), except block markers.
    */
   std::vector<std::string> texts;
   std::istringstream ss(text);
   std::string line;
   bool open = false;
   while (std::getline(ss, line)) {
      const size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos)
         continue;
      const std::string t = line.substr(first);
      if (t.compare(0, 5, "START") == 0 || t.compare(0, 3, "END") == 0 ||
          t[0] == ';' || t[0] == '#' || t.compare(0, 2, "//") == 0 ||
          line.compare(0, 4, "SIMD") == 0 || line.find(" shader: ") != std::string::npos) {
         open = false;
         continue;
      }
      if (first == 0) {
         /* A label ("LABEL3:") alone on its line. */
         if (t.back() == ':' && t.find(' ') == std::string::npos) {
            open = false;
            continue;
         }
         texts.push_back(t);
         open = t.find(';') == std::string::npos;
      } else if (!texts.empty() && (open || t.find("MsgDesc") != std::string::npos ||
                                    t.find("mlen") != std::string::npos)) {
         texts.back() += " " + t;
         open = t.find(';') == std::string::npos;
      }
   }

   std::vector<asm_inst> insts;
   for (const std::string &t : texts) {
      asm_inst in;
      if (parse_inst(t, in))
         insts.push_back(in);
   }

   /* Backwards: which GRFs a later send reads as payload, before anything
    * writes them whole again.
    */
   std::vector<bool> into_payload(insts.size(), false);
   grf_set pending;
   for (size_t i = insts.size(); i-- > 0;) {
      const asm_inst &in = insts[i];
      grf_set touched, whole;
      dst_regs(in, touched, whole);
      into_payload[i] = !is_send(in.op) && (touched & pending).any();
      pending &= ~whole;
      if (is_send(in.op)) {
         if (in.srcs.size() > 0 && in.srcs[0].grf) {
            for (unsigned r = 0; r < std::max(1u, in.mlen); r++) {
               if (in.srcs[0].reg + r < NUM_GRFS)
                  pending.set(in.srcs[0].reg + r);
            }
         }
         if (in.op[in.op.size() - 1] == 's' || in.op == "sendsc") {
            if (in.srcs.size() > 1 && in.srcs[1].grf) {
               for (unsigned r = 0; r < in.ex_mlen; r++) {
                  if (in.srcs[1].reg + r < NUM_GRFS)
                     pending.set(in.srcs[1].reg + r);
               }
            }
         }
      }
   }

   asm_kind_counts c{};
   for (size_t i = 0; i < insts.size(); i++) {
      const asm_inst &in = insts[i];
      asm_kind k;
      if (is_send(in.op))
         k = KIND_SEND;
      else if (is_flow(in.op))
         k = KIND_FLOW;
      else if (in.op == "nop" || in.op == "sync" || in.op == "wait")
         k = KIND_NOP;
      else if (in.op == "math")
         k = KIND_MATH;
      else if (in.op != "mov")
         k = KIND_ALU;
      else {
         const operand src = in.srcs.empty() ? operand() : in.srcs[0];
         const bool from_header = src.grf && src.reg <= 1 && in.no_mask;
         if (from_header || (into_payload[i] && in.no_mask))
            k = KIND_MOV_HEADER;
         else if (into_payload[i])
            k = KIND_MOV_PAYLOAD;
         else if (src.imm)
            k = KIND_MOV_CONST;
         else {
            /* A copy in the run of moves that ends its block (brw puts
             * NOPs before some endifs).
             */
            size_t j = i + 1;
            while (j < insts.size() && (insts[j].op == "mov" || insts[j].op == "nop"))
               j++;
            k = j < insts.size() && is_flow(insts[j].op) ? KIND_MOV_PHI : KIND_MOV_OTHER;
         }
      }
      c[k]++;
   }
   return c;
}

} /* namespace ibis */
