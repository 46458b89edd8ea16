/*
 * Diagnostics shared by every layer.
 *
 * ibis reports bad input (malformed text, unsupported operations, impossible
 * register demands) by throwing ibis::error.  The public API and the command
 * line tools catch it and turn it into an error return, so a library user
 * never sees an exception and never gets an abort.  Broken internal
 * invariants throw ibis::internal_error, which is caught the same way.
 */
#pragma once

#include <cstdarg>
#include <stdexcept>
#include <string>

namespace ibis {

/* A position in a text input.  line and col count from 1; 0 means unknown. */
struct source_loc {
   std::string file;
   unsigned line = 0;
   unsigned col = 0;

   /* "file:line:col", leaving out the parts that are unknown. */
   std::string str() const;
};

class error : public std::runtime_error {
public:
   explicit error(const std::string &msg) : std::runtime_error(msg) {}
   error(const source_loc &loc, const std::string &msg)
      : std::runtime_error(loc.str() + ": " + msg), loc(loc), bare_msg(msg) {}

   source_loc loc;
   std::string bare_msg;
};

class internal_error : public error {
public:
   explicit internal_error(const std::string &msg)
      : error("internal compiler error: " + msg) {}
};

/* printf-style formatting into a std::string. */
std::string strfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string vstrfmt(const char *fmt, va_list ap);

[[noreturn]] void fail(const source_loc &loc, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

} /* namespace ibis */

/* An invariant of the compiler itself: cheap, kept in release builds, and
 * reported through the error path instead of aborting the driver.
 */
#define IBIS_CHECK(cond, ...)                                                  \
   do {                                                                        \
      if (!(cond))                                                             \
         throw ::ibis::internal_error(::ibis::strfmt("%s:%d: %s", __FILE__,    \
                                      __LINE__, #cond) +                       \
                                      std::string(" ") +                       \
                                      ::ibis::strfmt(__VA_ARGS__));            \
   } while (0)
