#include "util/ibis_files.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/ibis_error.h"

namespace ibis {

namespace {

void
walk(const std::string &dir, const std::string &prefix, const std::string &suffix,
     std::vector<std::string> &out)
{
   DIR *d = opendir(dir.c_str());
   if (!d)
      throw error(dir + ": " + std::strerror(errno));
   std::vector<std::string> names;
   while (const dirent *e = readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..")
         names.push_back(n);
   }
   closedir(d);
   std::sort(names.begin(), names.end());
   for (const std::string &n : names) {
      const std::string path = dir + "/" + n;
      struct stat st;
      if (stat(path.c_str(), &st) != 0)
         continue;
      if (S_ISDIR(st.st_mode))
         walk(path, prefix + n + "/", suffix, out);
      else if (n.size() > suffix.size() &&
               n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
         out.push_back(prefix + n);
   }
}

} /* anonymous namespace */

std::vector<std::string>
files_below(const std::string &dir, const std::string &suffix)
{
   std::vector<std::string> out;
   walk(dir, "", suffix, out);
   return out;
}

} /* namespace ibis */
