/*
 * Checks in a child process (for ibis-check and ibis-reduce): a crash or a
 * hang of the compiler or the simulator becomes a result, not the end of
 * the run.
 */
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "check/check.h"
#include "util/ibis_error.h"

namespace ibis::check {

/* What a child reports: the verdict and the first line. */
struct outcome {
   enum kind { match, mismatch, rejected, sim_error, crashed, skipped, timed_out } k = match;
   std::string first;
   unsigned compared = 0, unchecked = 0, input_set = 0;
   /* Simulator instructions issued, channel-instructions, sends. */
   unsigned long long executed = 0, channel_executed = 0, sends = 0;
   /* Of compared, the words compared within a tolerance. */
   unsigned approximate = 0;
   unsigned long long cycles = 0;   /* estimated (executed_cycles()) */
   std::string words;               /* result::words */
};

inline const char *kind_names[] = {"matched", "mismatched", "rejected", "simulator errors", "crashed",
                                   "skipped", "timed out"};

/* Runs check() in a child process. */
inline outcome
run_isolated(const std::function<result()> &check, unsigned timeout)
{
   int fd[2];
   if (pipe(fd) != 0)
      throw error("ibis-check: pipe failed");
   fflush(stdout);
   pid_t pid = fork();
   if (pid < 0)
      throw error("ibis-check: fork failed");
   if (pid == 0) {
      close(fd[0]);
      alarm(timeout);
      std::string msg;
      result r;
      try {
         r = check();
      } catch (const std::exception &e) {
         r.v = verdict::compile_error;
         r.first = std::string("uncaught exception: ") + e.what();
      }
      outcome::kind k;
      switch (r.v) {
      case verdict::match: k = outcome::match; break;
      case verdict::mismatch: k = outcome::mismatch; break;
      case verdict::compile_error: k = outcome::rejected; break;
      case verdict::run_error: k = outcome::sim_error; break;
      default: k = outcome::skipped; break;
      }
      msg = strfmt("%d %u %u %u %llu %llu %llu %u %llu %zu\n", int(k), r.compared, r.unchecked,
                   r.input_set, (unsigned long long)r.executed,
                   (unsigned long long)r.channel_executed, (unsigned long long)r.sends,
                   r.approximate, (unsigned long long)r.cycles, r.words.size()) +
            r.words + r.first;
      size_t off = 0;
      while (off < msg.size()) {
         ssize_t n = write(fd[1], msg.data() + off, msg.size() - off);
         if (n <= 0)
            break;
         off += size_t(n);
      }
      _exit(0);
   }
   close(fd[1]);
   std::string text;
   char buf[4096];
   ssize_t n;
   while ((n = read(fd[0], buf, sizeof(buf))) > 0)
      text.append(buf, size_t(n));
   close(fd[0]);
   int status = 0;
   waitpid(pid, &status, 0);
   outcome o;
   if (WIFSIGNALED(status)) {
      o.k = WTERMSIG(status) == SIGALRM ? outcome::timed_out : outcome::crashed;
      o.first = WTERMSIG(status) == SIGALRM ? strfmt("timed out after %u s", timeout)
                                             : strfmt("signal %d (%s)", WTERMSIG(status),
                                                      strsignal(WTERMSIG(status)));
      return o;
   }
   int k = 0;
   size_t words = 0;
   size_t nl = text.find('\n');
   if (nl == std::string::npos ||
       sscanf(text.c_str(), "%d %u %u %u %llu %llu %llu %u %llu %zu", &k, &o.compared,
              &o.unchecked, &o.input_set, &o.executed, &o.channel_executed, &o.sends,
              &o.approximate, &o.cycles, &words) != 10 ||
       text.size() < nl + 1 + words) {
      o.k = outcome::crashed;
      o.first = "the child died without a result";
      return o;
   }
   o.k = outcome::kind(k);
   o.words = text.substr(nl + 1, words);
   o.first = text.substr(nl + 1 + words);
   return o;
}

} /* namespace ibis::check */

namespace ibis::check {

/* Compiles s at simd with ibis and checks it, in a child process. */
inline outcome
run_isolated(const nir::shader &s, unsigned simd, uint64_t seed, unsigned sets, unsigned timeout)
{
   return run_isolated([&]() { return check_shader(s, simd, seed, sets); }, timeout);
}

} /* namespace ibis::check */
