/* Generated from from_nir_alu_table.py: do not edit. */
#include <vector>

#include "from_nir/from_nir_alu.h"
#include "util/ibis_error.h"

namespace ibis {

const alu_step alu_steps[] = {
% for st in steps:
   {opcode::${st['op']}, cond_mod::${st['cmod']}, ${'true' if st['sat'] else 'false'}, '${st['base']}', ${st['bits']}, ${st['temp']}, ${len(st['srcs'])},
    {${', '.join(fmt_src(s) for s in st['srcs'])}}},
% endfor
};

namespace {

struct entry {
   nir::alu_op op;
   alu_recipe recipe;
};

const entry entries[] = {
% for r in recipes:
   {nir::alu_op::${r['name']}, {"${r['name']}", ${r['first']}, ${r['count']}, alu_handler::${r['handler']}, ${r['arg']}, ${'true' if r['cmp'] else 'false'}, ${'"%s"' % r['why'].replace('"', '\\"') if r['why'] else 'nullptr'}}},
% endfor
};

} /* anonymous namespace */

const alu_recipe &
alu_recipe_for(nir::alu_op op)
{
   static const std::vector<const alu_recipe *> table = [] {
      std::vector<const alu_recipe *> t;
      for (const entry &e : entries) {
         if (t.size() <= unsigned(e.op))
            t.resize(unsigned(e.op) + 1, nullptr);
         t[unsigned(e.op)] = &e.recipe;
      }
      return t;
   }();
   IBIS_CHECK(unsigned(op) < table.size() && table[unsigned(op)],
              "no ALU recipe for opcode %u", unsigned(op));
   return *table[unsigned(op)];
}

} /* namespace ibis */
