#include "util/ibis_error.h"

#include <cstdio>
#include <vector>

namespace ibis {

std::string
source_loc::str() const
{
   std::string s = file.empty() ? "<input>" : file;
   if (line) {
      s += ":" + std::to_string(line);
      if (col)
         s += ":" + std::to_string(col);
   }
   return s;
}

std::string
vstrfmt(const char *fmt, va_list ap)
{
   va_list ap2;
   va_copy(ap2, ap);
   int n = std::vsnprintf(nullptr, 0, fmt, ap2);
   va_end(ap2);
   if (n <= 0)
      return std::string();
   std::vector<char> buf(n + 1);
   std::vsnprintf(buf.data(), buf.size(), fmt, ap);
   return std::string(buf.data(), n);
}

std::string
strfmt(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string s = vstrfmt(fmt, ap);
   va_end(ap);
   return s;
}

void
fail(const source_loc &loc, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   std::string msg = vstrfmt(fmt, ap);
   va_end(ap);
   throw error(loc, msg);
}

} /* namespace ibis */
