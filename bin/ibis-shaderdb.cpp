/*
 * ibis-shaderdb DIR... [-j N] [-o FILE] [--platform skl] [--simd N] [--times]
 *               [--asm-dir DIR] [--abi-dir D]
 *
 * Compiles every .nir file below the directories, in parallel, and writes
 * one line per kept variant in the form of brw's shader-db log, so that
 * shader-db's report.py and ibis-report read it:
 *
 *    0ad/12.fs.nir - FS SIMD16 shader: 180 inst, 0 loops, 3144 cycles, ...
 *
 * the name being the file's path below the directory given.  Compiles run
 * in child processes, a batch of shaders each, so that a shader that
 * crashes the compiler (or hangs it past --timeout seconds) is reported
 * and the run goes on.  On a terminal, stderr shows a progress bar.
 *
 * --asm-dir DIR writes each kept variant's stats line and disassembly to
 * DIR/<name>.<stage>.simdN.asm, the layout of brw's brw-asm directory
 * (ibis-report --kinds compares the two).
 *
 * Exit status: 0 when every shader compiled, 1 when some failed with a
 * diagnosed error, 2 when some crashed or timed out (or bad usage).
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <malloc.h>
#include <map>
#include <poll.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "compiler/compiler.h"
#include "util/ibis_error.h"
#include "util/ibis_files.h"

namespace {

struct options {
   std::vector<std::string> dirs;
   unsigned jobs = 0;
   std::string output;
   std::string asm_dir;
   std::string platform = "skl";
   /* brw-abi/ style: D/<name>.json for each shader <name>.nir (its path
    * below the directory given).
    */
   std::string abi_dir;
   bool times = false;
   bool verbose = false;
   unsigned timeout = 120;
   unsigned batch = 8;
   unsigned simd = 0;   /* one width alone, without SIMD selection */
};

struct job {
   std::string path;   /* file to read */
   std::string name;   /* as printed: path below the directory given */
};

/* What came back for one shader. */
struct outcome {
   enum { pending, ok, failed, crashed } state = pending;
   std::string lines;      /* shader-db lines */
   std::string reason;     /* failed / crashed */
   std::string variants;   /* "SIMD8 kept; SIMD16 failed (why) ..." */
   /* Per width: "FS 16 failed 0.0012" (outcome, seconds in its stages),
    * one entry each.
    */
   std::vector<std::string> widths_outcome;
   double seconds = 0;
   double stage_seconds[ibis::NUM_COMPILE_STAGES] = {};
   /* Widths compiled, and of those the ones that needed more than one
    * pre-RA scheduling attempt.
    */
   unsigned widths = 0, retried = 0;
};

void
usage(FILE *f)
{
   std::fprintf(f, "usage: ibis-shaderdb DIR... [-j N] [-o FILE] [--platform skl]\n"
                   "                     [--simd 8|16|32] [--times] [--verbose]\n"
                   "                     [--timeout SECONDS] [--asm-dir DIR] [--abi-dir D]\n");
}

options
parse_args(int argc, char **argv)
{
   options o;
   auto value = [&](int &i) -> std::string {
      if (i + 1 >= argc)
         throw ibis::error(ibis::strfmt("option '%s' needs a value", argv[i]));
      return argv[++i];
   };
   auto number = [&](int &i) {
      const std::string v = value(i);
      char *end = nullptr;
      const unsigned long n = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end || n == 0 || n > 4096)
         throw ibis::error(ibis::strfmt("%s: '%s' is not a positive number",
                                        argv[i - 1], v.c_str()));
      return unsigned(n);
   };
   for (int i = 1; i < argc; i++) {
      const std::string a = argv[i];
      if (a == "-j")
         o.jobs = number(i);
      else if (a.size() > 2 && a.compare(0, 2, "-j") == 0 &&
               a.find_first_not_of("0123456789", 2) == std::string::npos)
         o.jobs = unsigned(std::stoul(a.substr(2)));
      else if (a == "-o")
         o.output = value(i);
      else if (a == "--platform")
         o.platform = value(i);
      else if (a == "--simd") {
         o.simd = number(i);
         if (o.simd != 8 && o.simd != 16 && o.simd != 32)
            throw ibis::error(ibis::strfmt("--simd: %u is not 8, 16 or 32", o.simd));
      } else if (a == "--asm-dir")
         o.asm_dir = value(i);
      else if (a == "--times")
         o.times = true;
      else if (a == "--abi-dir")
         o.abi_dir = value(i);
      else if (a == "-v" || a == "--verbose")
         o.verbose = true;
      else if (a == "--timeout")
         o.timeout = number(i);
      else if (a == "-h" || a == "--help") {
         usage(stdout);
         std::exit(0);
      } else if (!a.empty() && a[0] == '-')
         throw ibis::error("unknown option '" + a + "'");
      else
         o.dirs.push_back(a);
   }
   if (o.dirs.empty())
      throw ibis::error("no directory");
   struct stat st;
   if (!o.abi_dir.empty() && (stat(o.abi_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
      throw ibis::error("--abi-dir " + o.abi_dir + ": not a directory");
   if (!o.jobs) {
      const long n = sysconf(_SC_NPROCESSORS_ONLN);
      o.jobs = n > 0 ? unsigned(n) : 1;
   }
   return o;
}

/* CPU time of this process: a worker compiles one shader at a time. */
double
cpu_seconds()
{
   timespec ts;
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
   return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

std::string
one_line(std::string s)
{
   for (char &c : s) {
      if (c == '\n' || c == '\r')
         c = ' ';
   }
   return s;
}

bool
write_all(int fd, const std::string &s)
{
   size_t done = 0;
   while (done < s.size()) {
      const ssize_t n = write(fd, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0)
         return false;
      done += size_t(n);
   }
   return true;
}

/* mkdir -p of the directory part of path. */
void
make_parents(const std::string &path)
{
   for (size_t at = path.find('/', 1); at != std::string::npos; at = path.find('/', at + 1))
      mkdir(path.substr(0, at).c_str(), 0777);
}

/* DIR/game/name.fs.nir's SIMD16 variant: DIR/game/name.fs.simd16.asm. */
void
write_asm(const options &o, const job &j, const ibis::compiled_variant &v)
{
   const std::string base = j.name.substr(0, j.name.size() - 4);
   const std::string path = ibis::strfmt("%s/%s.simd%u.asm", o.asm_dir.c_str(),
                                         base.c_str(), v.simd);
   make_parents(path);
   FILE *f = std::fopen(path.c_str(), "w");
   if (!f)
      throw ibis::error(path + ": cannot write");
   std::fprintf(f, "%s\n%s", v.stats_text.c_str(), v.disasm.c_str());
   std::fclose(f);
}

/* The child: compiles jobs [begin, end) and reports each on fd:
 *    B index / L line / V summary / T seconds stage... / F reason / E
 * The ABI file FILE.abi beside FILE.nir, when present, applies; with
 * --abi-dir D, D/NAME.json (NAME: the shader's name without .nir) replaces
 * it when present (brw-abi/<game>/<name>.<stage>.json for the corpus).
 */
[[noreturn]] void
run_batch(const options &o, const std::vector<job> &jobs, size_t begin,
          size_t end, int fd)
{
   /* Fault injection for the tool's own test: crash on the named shader. */
   const char *crash_on = std::getenv("IBIS_SHADERDB_TEST_CRASH");
   for (size_t i = begin; i < end; i++) {
      std::string rec = ibis::strfmt("B %zu\n", i);
      write_all(fd, rec);
      rec.clear();
      if (crash_on && *crash_on && jobs[i].name.find(crash_on) != std::string::npos)
         std::raise(SIGSEGV);
      const double t0 = cpu_seconds();
      try {
         ibis::compile_options co;
         co.device = &ibis::device_by_name(o.platform);
         /* One width: compiled and kept whatever the narrower ones do. */
         if (o.simd) {
            co.widths = { o.simd };
            co.force_simd32 = true;
         }
         co.disasm = !o.asm_dir.empty();
         const std::string abi = jobs[i].path.substr(0, jobs[i].path.size() - 4) + ".abi";
         struct stat st;
         if (stat(abi.c_str(), &st) == 0)
            ibis::apply_abi_file(abi, co.abi);
         if (!o.abi_dir.empty()) {
            const std::string &n = jobs[i].name;
            const std::string json = o.abi_dir + "/" + n.substr(0, n.size() - 4) + ".json";
            if (stat(json.c_str(), &st) == 0) {
               co.abi = ibis::from_nir_options();
               ibis::apply_abi_file(json, co.abi);
            }
         }
         std::unique_ptr<ibis::nir::shader> s = ibis::nir::read_shader_file(jobs[i].path);
         ibis::nir::validate(*s);
         ibis::compile_result r = ibis::compile_shader(*s, co);
         double stages[ibis::NUM_COMPILE_STAGES] = {};
         std::string summary;
         unsigned widths = 0, retried = 0;
         for (const ibis::compiled_variant &v : r.variants) {
            if (v.kept && !o.asm_dir.empty())
               write_asm(o, jobs[i], v);
            widths += !v.attempts.empty();
            retried += v.attempts.size() > 1;
            for (unsigned k = 0; k < ibis::NUM_COMPILE_STAGES; k++)
               stages[k] += v.stage_seconds[k];
            const char *what = v.kept ? "kept" : v.compiled ? "dropped"
                               : v.reason.compare(0, 8, "skipped:") == 0 ? "skipped"
                               : "failed";
            summary += ibis::strfmt("%sSIMD%u %s", summary.empty() ? "" : "; ",
                                    v.simd, what);
            double width_seconds = 0;
            for (double t : v.stage_seconds)
               width_seconds += t;
            rec += ibis::strfmt("W %s %u %s %.9f\n", s->info.stage == ibis::nir::shader_stage::vertex ? "VS"
                                : s->info.stage == ibis::nir::shader_stage::fragment ? "FS" : "CS",
                                v.simd, what, width_seconds);
            if (!v.reason.empty())
               summary += " (" + one_line(v.reason) + ")";
         }
         const std::string lines = ibis::shaderdb_lines(jobs[i].name, r);
         size_t pos = 0;
         while (pos < lines.size()) {
            size_t nl = lines.find('\n', pos);
            if (nl == std::string::npos)
               nl = lines.size();
            rec += "L " + lines.substr(pos, nl - pos) + "\n";
            pos = nl + 1;
         }
         rec += "V " + summary + "\n";
         rec += ibis::strfmt("A %u %u\n", widths, retried);
         const double total = cpu_seconds() - t0;
         rec += ibis::strfmt("T %.9f", total);
         for (double s : stages)
            rec += ibis::strfmt(" %.9f", s);
         rec += "\n";
      } catch (const std::exception &e) {
         rec += "F " + one_line(e.what()) + "\n";
      }
      rec += "E\n";
      write_all(fd, rec);
   }
   std::fflush(nullptr);
   _exit(0);
}

struct worker {
   pid_t pid = -1;
   int fd = -1;
   size_t begin = 0, end = 0;   /* its batch */
   size_t current = SIZE_MAX;   /* the shader it is on */
   std::string buf;
   outcome cur;
   std::chrono::steady_clock::time_point last;
};

void
parse_record_line(const std::string &line, worker &w, std::vector<outcome> &out)
{
   if (line.empty())
      return;
   const std::string rest = line.size() > 2 ? line.substr(2) : "";
   switch (line[0]) {
   case 'B':
      w.current = std::strtoull(rest.c_str(), nullptr, 10);
      w.cur = outcome();
      break;
   case 'L':
      w.cur.lines += rest + "\n";
      break;
   case 'V':
      w.cur.variants = rest;
      break;
   case 'W':
      w.cur.widths_outcome.push_back(rest);
      break;
   case 'A':
      std::sscanf(rest.c_str(), "%u %u", &w.cur.widths, &w.cur.retried);
      break;
   case 'F':
      w.cur.state = outcome::failed;
      w.cur.reason = rest;
      break;
   case 'T': {
      const char *p = rest.c_str();
      char *e = nullptr;
      w.cur.seconds = std::strtod(p, &e);
      for (unsigned k = 0; k < ibis::NUM_COMPILE_STAGES && e && *e; k++) {
         p = e;
         w.cur.stage_seconds[k] = std::strtod(p, &e);
      }
      break;
   }
   case 'E':
      if (w.current < out.size()) {
         if (w.cur.state == outcome::pending)
            w.cur.state = outcome::ok;
         out[w.current] = w.cur;
      }
      w.current = SIZE_MAX;
      break;
   default:
      break;
   }
}

void
progress(size_t done, size_t total, size_t failed)
{
   const unsigned width = 40;
   const unsigned fill = total ? unsigned(done * width / total) : width;
   std::fprintf(stderr, "\r[%s%s] %zu/%zu%s", std::string(fill, '#').c_str(),
                std::string(width - fill, ' ').c_str(), done, total,
                failed ? ibis::strfmt(", %zu failed", failed).c_str() : "");
   std::fflush(stderr);
}

double
median(std::vector<double> v)
{
   if (v.empty())
      return 0;
   std::sort(v.begin(), v.end());
   return v.size() % 2 ? v[v.size() / 2]
                       : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} /* anonymous namespace */

int
main(int argc, char **argv)
{
   /* A worker compiles shader after shader: freed memory stays in its
    * heap for the next compile instead of going back to the kernel at
    * every free of the heap's top (or of a large block) and coming back
    * as fresh zeroed pages (about half of a corpus run's page faults,
    * a few percent of its CPU time).  A worker's peak stays the same.
    */
   mallopt(M_TRIM_THRESHOLD, 256 << 20);
   mallopt(M_MMAP_THRESHOLD, 64 << 20);
   options o;
   std::vector<job> jobs;
   try {
      o = parse_args(argc, argv);
      ibis::device_by_name(o.platform);
      for (std::string d : o.dirs) {
         while (d.size() > 1 && d.back() == '/')
            d.pop_back();
         for (const std::string &rel : ibis::files_below(d, ".nir"))
            jobs.push_back(job{d + "/" + rel, rel});
      }
      /* Vertex shaders run at SIMD8 only. */
      if (o.simd > 8) {
         jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const job &j) {
                       return j.name.size() > 7 &&
                              j.name.compare(j.name.size() - 7, 7, ".vs.nir") == 0;
                    }), jobs.end());
      }
   } catch (const ibis::error &e) {
      std::fprintf(stderr, "ibis-shaderdb: %s\n", e.what());
      usage(stderr);
      return 2;
   }
   std::signal(SIGPIPE, SIG_IGN);

   std::vector<outcome> out(jobs.size());
   std::vector<worker> workers;
   size_t next = 0, done = 0, failed = 0;
   const bool tty = isatty(2);
   const auto t_start = std::chrono::steady_clock::now();

   auto start = [&](size_t begin, size_t end) {
      int fds[2];
      if (pipe(fds) != 0) {
         std::perror("ibis-shaderdb: pipe");
         std::exit(2);
      }
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid < 0) {
         std::perror("ibis-shaderdb: fork");
         std::exit(2);
      }
      if (pid == 0) {
         close(fds[0]);
         for (const worker &w : workers)
            close(w.fd);
         run_batch(o, jobs, begin, end, fds[1]);
      }
      close(fds[1]);
      worker w;
      w.pid = pid;
      w.fd = fds[0];
      w.begin = begin;
      w.end = end;
      w.last = std::chrono::steady_clock::now();
      workers.push_back(std::move(w));
   };
   /* Batches shrink toward the end so that the last ones spread over
    * every worker.
    */
   auto start_next = [&]() {
      const size_t left = jobs.size() - next;
      const size_t n = std::max<size_t>(1, std::min<size_t>(o.batch, left / (2 * o.jobs)));
      start(next, next + n);
      next += n;
   };

   while (next < jobs.size() || !workers.empty()) {
      while (workers.size() < o.jobs && next < jobs.size())
         start_next();
      std::vector<pollfd> pfds;
      for (const worker &w : workers)
         pfds.push_back(pollfd{w.fd, POLLIN, 0});
      const int n = poll(pfds.data(), pfds.size(), 1000);
      if (n < 0 && errno != EINTR) {
         std::perror("ibis-shaderdb: poll");
         return 2;
      }
      const auto now = std::chrono::steady_clock::now();
      for (size_t i = 0; i < pfds.size();) {
         worker &w = workers[i];
         bool eof = false;
         if (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
            char buf[65536];
            const ssize_t r = read(w.fd, buf, sizeof(buf));
            if (r > 0) {
               w.last = now;
               w.buf.append(buf, size_t(r));
               size_t nl;
               while ((nl = w.buf.find('\n')) != std::string::npos) {
                  const std::string line = w.buf.substr(0, nl);
                  w.buf.erase(0, nl + 1);
                  const size_t before = w.current;
                  parse_record_line(line, w, out);
                  if (before != SIZE_MAX && w.current == SIZE_MAX) {
                     done++;
                     failed += out[before].state != outcome::ok;
                     if (tty)
                        progress(done, jobs.size(), failed);
                  }
               }
            } else if (r == 0 || errno != EINTR) {
               eof = true;
            }
         }
         const bool hung = !eof && w.current != SIZE_MAX &&
                           now - w.last > std::chrono::seconds(o.timeout);
         if (hung)
            kill(w.pid, SIGKILL);
         if (!eof && !hung) {
            i++;
            continue;
         }
         int status = 0;
         close(w.fd);
         waitpid(w.pid, &status, 0);
         /* A shader the child began but never finished crashed it; the
          * rest of its batch goes to a new child.
          */
         size_t resume = w.end;
         if (w.current != SIZE_MAX) {
            outcome &c = out[w.current];
            c.state = outcome::crashed;
            c.reason = hung ? ibis::strfmt("timed out after %u s", o.timeout)
                       : WIFSIGNALED(status)
                          ? ibis::strfmt("crashed: %s", strsignal(WTERMSIG(status)))
                          : ibis::strfmt("compiler exited with status %d",
                                         WEXITSTATUS(status));
            done++;
            failed++;
            if (tty)
               progress(done, jobs.size(), failed);
            resume = w.current + 1;
         } else {
            for (size_t k = w.begin; k < w.end; k++) {
               if (out[k].state == outcome::pending) {
                  resume = k;
                  break;
               }
            }
         }
         const size_t end = w.end;
         workers.erase(workers.begin() + i);
         pfds.erase(pfds.begin() + i);
         if (resume < end)
            start(resume, end);
      }
   }
   if (tty)
      std::fprintf(stderr, "\n");
   const double wall = std::chrono::duration<double>(
      std::chrono::steady_clock::now() - t_start).count();

   FILE *f = stdout;
   if (!o.output.empty()) {
      f = std::fopen(o.output.c_str(), "w");
      if (!f) {
         std::fprintf(stderr, "ibis-shaderdb: %s: cannot write\n", o.output.c_str());
         return 2;
      }
   }
   size_t n_failed = 0, n_crashed = 0;
   for (size_t i = 0; i < jobs.size(); i++) {
      std::fputs(out[i].lines.c_str(), f);
      n_failed += out[i].state == outcome::failed;
      n_crashed += out[i].state == outcome::crashed;
   }
   if (f != stdout)
      std::fclose(f);

   for (size_t i = 0; i < jobs.size(); i++) {
      if (out[i].state == outcome::failed || out[i].state == outcome::crashed)
         std::fprintf(stderr, "%s: %s: %s\n", jobs[i].name.c_str(),
                      out[i].state == outcome::crashed ? "CRASH" : "FAIL",
                      out[i].reason.c_str());
   }
   if (o.verbose) {
      for (size_t i = 0; i < jobs.size(); i++) {
         if (out[i].state == outcome::ok)
            std::fprintf(stderr, "%s: %s\n", jobs[i].name.c_str(), out[i].variants.c_str());
      }
   }
   /* Per stage and width: how many were kept, dropped, failed, skipped. */
   std::map<std::pair<std::string, unsigned>, std::map<std::string, unsigned>> widths;
   std::map<std::pair<std::string, unsigned>, std::map<std::string, double>> width_seconds;
   std::map<std::string, unsigned> shaders_of_stage;
   for (size_t i = 0; i < jobs.size(); i++) {
      const std::string &n = jobs[i].name;
      const std::string stage = n.size() > 7 && n.compare(n.size() - 7, 7, ".vs.nir") == 0 ? "VS"
                                : n.size() > 7 && n.compare(n.size() - 7, 7, ".fs.nir") == 0 ? "FS"
                                : "CS";
      shaders_of_stage[stage]++;
      for (const std::string &w : out[i].widths_outcome) {
         char st[8] = {}, what[16] = {};
         unsigned simd = 0;
         double sec = 0;
         if (std::sscanf(w.c_str(), "%7s %u %15s %lf", st, &simd, what, &sec) == 4) {
            widths[{st, simd}][what]++;
            width_seconds[{st, simd}][what] += sec;
         }
      }
   }
   for (const auto &w : widths) {
      auto count = [&](const char *k) {
         auto it = w.second.find(k);
         return it == w.second.end() ? 0u : it->second;
      };
      const std::string &stage = w.first.first;
      std::fprintf(stderr, "%s SIMD%u: %u/%u kept, %u compiled but dropped, %u failed, "
                   "%u skipped\n", stage.c_str(), w.first.second, count("kept"),
                   shaders_of_stage[stage], count("dropped"), count("failed"),
                   count("skipped"));
   }
   std::fprintf(stderr, "%zu shaders: %zu compiled, %zu failed, %zu crashed "
                "(%.1f s, -j %u)\n", jobs.size(),
                jobs.size() - n_failed - n_crashed, n_failed, n_crashed, wall,
                o.jobs);

   if (o.times) {
      std::vector<double> t;
      double total = 0, stages[ibis::NUM_COMPILE_STAGES] = {}, stage_sum = 0;
      size_t slowest = 0;
      for (size_t i = 0; i < jobs.size(); i++) {
         if (out[i].state != outcome::ok)
            continue;
         t.push_back(out[i].seconds);
         total += out[i].seconds;
         if (out[i].seconds > out[slowest].seconds ||
             out[slowest].state != outcome::ok)
            slowest = i;
         for (unsigned k = 0; k < ibis::NUM_COMPILE_STAGES; k++) {
            stages[k] += out[i].stage_seconds[k];
            stage_sum += out[i].stage_seconds[k];
         }
      }
      std::fprintf(stderr, "compile time (CPU, all widths, read and validate the NIR "
                   "included): total %.3f s, "
                   "mean %.3f ms, median %.3f ms, slowest %.3f ms (%s)\n",
                   total, t.empty() ? 0 : 1e3 * total / t.size(), 1e3 * median(t),
                   t.empty() ? 0 : 1e3 * out[slowest].seconds,
                   t.empty() ? "-" : jobs[slowest].name.c_str());
      for (unsigned k = 0; k < ibis::NUM_COMPILE_STAGES; k++)
         std::fprintf(stderr, "  %-18s %8.3f s  %5.1f%%\n",
                      ibis::compile_stage_name(ibis::compile_stage(k)), stages[k],
                      total > 0 ? 100 * stages[k] / total : 0.0);
      std::fprintf(stderr, "  %-18s %8.3f s  %5.1f%%\n", "other (read, select)",
                   total - stage_sum, total > 0 ? 100 * (total - stage_sum) / total : 0.0);
      unsigned widths = 0, retried = 0;
      for (const outcome &c : out) {
         widths += c.widths;
         retried += c.retried;
      }
      std::fprintf(stderr, "  %u widths tried, %u needed more than one pre-RA "
                   "scheduling mode\n", widths, retried);
      /* Memory: the workers are children, and every one has exited. */
      struct rusage ru = {};
      getrusage(RUSAGE_CHILDREN, &ru);
      std::fprintf(stderr, "  peak memory of a worker (resident): %.1f MB\n",
                   ru.ru_maxrss / 1024.0);
      /* Per width, by outcome: what dropped and failed widths cost. */
      for (const auto &w : width_seconds) {
         std::string line;
         for (const auto &o : w.second)
            line += ibis::strfmt("  %s %.3f s", o.first.c_str(), o.second);
         std::fprintf(stderr, "  %s SIMD%-2u%s\n", w.first.first.c_str(), w.first.second,
                      line.c_str());
      }

      /* Where the time goes: a mean far above the median is a few shaders. */
      std::vector<size_t> order;
      for (size_t i = 0; i < jobs.size(); i++) {
         if (out[i].state == outcome::ok)
            order.push_back(i);
      }
      const size_t shown = std::min<size_t>(order.size(), 10);
      std::partial_sort(order.begin(), order.begin() + shown, order.end(),
                        [&](size_t a, size_t b) { return out[a].seconds > out[b].seconds; });
      std::fprintf(stderr, "  slowest %zu (ms: total, allocate):\n", shown);
      for (size_t k = 0; k < shown; k++) {
         const outcome &c = out[order[k]];
         std::fprintf(stderr, "    %9.3f %9.3f  %s\n", 1e3 * c.seconds,
                      1e3 * c.stage_seconds[ibis::STAGE_RA],
                      jobs[order[k]].name.c_str());
      }
   }
   return n_crashed ? 2 : n_failed ? 1 : 0;
}
