/*
 * Files below a directory, for the tools that walk the corpus.
 */
#ifndef IBIS_UTIL_FILES_H
#define IBIS_UTIL_FILES_H

#include <string>
#include <vector>

namespace ibis {

/* The files below dir whose names end in suffix, as paths relative to
 * dir, each directory's entries in name order (subdirectories where they
 * sort).  An unreadable dir throws ibis::error.
 */
std::vector<std::string> files_below(const std::string &dir, const std::string &suffix);

} /* namespace ibis */

#endif
