#include "ir/ibis_pass.h"

#include <cstdio>
#include <map>

#include "ir/ibis_analysis.h"
#include "ir/ibis_text.h"
#include "ir/ibis_validate.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

namespace ibis {

/* Analysis dumps for ibis-opt; they go to stderr like IBIS_DEBUG output. */

static std::string
names(const value_set &set, const shader &s)
{
   std::string out;
   for (const value *v : set.values(s))
      out += strfmt(" %%%u", v->id);
   return out.empty() ? " -" : out;
}

static bool
print_liveness(shader &s)
{
   liveness live(s);
   for (const auto &b : s.blocks()) {
      fprintf(stderr, "block%u: live-in:%s\n", b->index,
              names(live.live_in(b.get()), s).c_str());
      fprintf(stderr, "block%u: live-out:%s\n", b->index,
              names(live.live_out(b.get()), s).c_str());
   }
   return false;
}

static bool
print_pressure(shader &s)
{
   liveness live(s);
   register_pressure p = compute_pressure(live);
   for (const auto &b : s.blocks()) {
      fprintf(stderr, "%s\n", block_label_str(b.get()).c_str());
      for (const instr *in : b->instrs())
         fprintf(stderr, "%4u  %s\n", p.at[in->ip], in->str().c_str());
   }
   fprintf(stderr, "max pressure: %u GRFs\n", p.max);
   return false;
}

static bool
print_dominance(shader &s)
{
   dominance dom(s);
   for (const auto &b : s.blocks()) {
      const block *idom = dom.idom(b.get());
      if (idom)
         fprintf(stderr, "block%u: idom block%u\n", b->index, idom->index);
      else
         fprintf(stderr, "block%u: %s\n", b->index,
                 dom.reachable(b.get()) ? "entry" : "unreachable");
   }
   return false;
}

static std::map<std::string, pass_info> &
registry()
{
   static std::map<std::string, pass_info> passes = [] {
      std::map<std::string, pass_info> m;
      auto add = [&](const char *name, const char *help, pass_fn fn) {
         m[name] = pass_info{name, help, fn};
      };
      add("validate", "check the IR rules; fails with every broken rule",
          [](shader &s) { validate(s); return false; });
      add("print", "print the IR to stderr",
          [](shader &s) { fprintf(stderr, "%s", s.str().c_str()); return false; });
      add("print-liveness", "print live-in/live-out sets to stderr", print_liveness);
      add("print-pressure", "print GRF pressure per instruction to stderr",
          print_pressure);
      add("print-dominance", "print immediate dominators to stderr",
          print_dominance);
      return m;
   }();
   return passes;
}

void
register_pass(const std::string &name, const std::string &help, pass_fn fn)
{
   auto &r = registry();
   IBIS_CHECK(!r.count(name), "pass '%s' registered twice", name.c_str());
   r[name] = pass_info{name, help, std::move(fn)};
}

const pass_info *
find_pass(const std::string &name)
{
   auto &r = registry();
   auto it = r.find(name);
   return it == r.end() ? nullptr : &it->second;
}

std::vector<const pass_info *>
registered_passes()
{
   std::vector<const pass_info *> v;
   for (const auto &p : registry())
      v.push_back(&p.second);
   return v;
}

bool
run_passes(shader &s, const std::string &list)
{
   std::vector<const pass_info *> todo;
   size_t pos = 0;
   while (pos <= list.size()) {
      size_t end = list.find(',', pos);
      if (end == std::string::npos)
         end = list.size();
      std::string name = list.substr(pos, end - pos);
      pos = end + 1;
      if (name.empty())
         continue;
      const pass_info *p = find_pass(name);
      if (!p) {
         std::string known;
         for (const pass_info *q : registered_passes())
            known += (known.empty() ? "" : ", ") + q->name;
         throw error(strfmt("unknown pass '%s' (known: %s)", name.c_str(),
                            known.c_str()));
      }
      todo.push_back(p);
   }
   bool progress = false;
   for (const pass_info *p : todo) {
      progress |= p->run(s);
      std::string when = "after " + p->name;
      if (debug_enabled(DEBUG_VALIDATE))
         validate(s, when.c_str());
      debug_print(s, DEBUG_OPT, when.c_str());
   }
   return progress;
}

} /* namespace ibis */
