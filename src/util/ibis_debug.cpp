#include "util/ibis_debug.h"
#include "util/ibis_error.h"

#include <cstdio>
#include <cstdlib>

namespace ibis {

static const struct {
   const char *name;
   uint64_t flag;
} debug_names[] = {
   {"nir", DEBUG_NIR},       {"ir", DEBUG_IR},       {"opt", DEBUG_OPT},
   {"ra", DEBUG_RA},         {"asm", DEBUG_ASM},     {"stats", DEBUG_STATS},
   {"validate", DEBUG_VALIDATE}, {"sched", DEBUG_SCHED}, {"lower", DEBUG_LOWER},
};

uint64_t
parse_debug_flags(const std::string &list)
{
   uint64_t flags = 0;
   size_t pos = 0;
   while (pos <= list.size()) {
      size_t end = list.find(',', pos);
      if (end == std::string::npos)
         end = list.size();
      std::string name = list.substr(pos, end - pos);
      pos = end + 1;
      if (name.empty())
         continue;
      if (name == "all") {
         flags = ~0ull;
         continue;
      }
      bool found = false;
      for (const auto &d : debug_names) {
         if (name == d.name) {
            flags |= d.flag;
            found = true;
         }
      }
      if (!found) {
         std::string known;
         for (const auto &d : debug_names)
            known += std::string(known.empty() ? "" : ", ") + d.name;
         throw error(strfmt("unknown debug flag '%s' (known: %s, all)",
                            name.c_str(), known.c_str()));
      }
   }
   return flags;
}

uint64_t
debug_flags()
{
   static const uint64_t flags = [] {
      const char *env = std::getenv("IBIS_DEBUG");
      if (!env)
         return uint64_t(0);
      try {
         return parse_debug_flags(env);
      } catch (const error &e) {
         std::fprintf(stderr, "IBIS_DEBUG: %s\n", e.what());
         return uint64_t(0);
      }
   }();
   return flags;
}

} /* namespace ibis */
