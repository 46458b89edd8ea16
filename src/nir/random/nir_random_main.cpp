/*
 * ibis-nir-random: prints a random NIR program.
 *
 *   ibis-nir-random [--seed N] [--stage vs|fs|cs] [--instrs N] [--depth N]
 *                   [--trips N] [--phis] [--no-16bit] [--no-64bit]
 *                   [--no-subgroups] [--no-textures] [--no-ubo] [--no-ssbo]
 *                   [--exact] [--allow-nan] [--no-derivatives] [--no-validate]
 *                   [--no-push] [--no-continue] [--no-discard] [--no-shared]
 *                   [--no-atomics] [--no-gather] [--no-txd] [--no-shadow]
 *                   [--no-float-atomics] [--no-indirect]
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "nir/random/nir_random.h"
#include "util/ibis_error.h"

using namespace ibis;

static void
usage()
{
   std::fprintf(stderr,
                "usage: ibis-nir-random [--seed N] [--stage vs|fs|cs] [--instrs N]\n"
                "         [--depth N] [--trips N] [--phis] [--no-16bit] [--no-64bit]\n"
                "         [--no-subgroups] [--no-textures] [--no-ubo] [--no-ssbo]\n"
                "         [--exact] [--allow-nan] [--no-derivatives] [--no-validate]\n"
                "         [--no-push] [--no-continue] [--no-discard] [--no-shared]\n"
                "         [--no-atomics] [--no-gather] [--no-txd] [--no-shadow]\n"
                "         [--no-float-atomics] [--no-indirect]\n");
   std::exit(1);
}

static unsigned long long
number(const char *s)
{
   char *end;
   const unsigned long long v = std::strtoull(s, &end, 0);
   if (!*s || *end)
      usage();
   return v;
}

int
main(int argc, char **argv)
{
   nir::random_options o;
   bool validate = true;
   for (int i = 1; i < argc; i++) {
      const std::string a = argv[i];
      const bool has_value = i + 1 < argc;
      if (a == "--seed" && has_value) {
         o.seed = number(argv[++i]);
      } else if (a == "--stage" && has_value) {
         const std::string s = argv[++i];
         if (s == "vs")
            o.stage = nir::shader_stage::vertex;
         else if (s == "fs")
            o.stage = nir::shader_stage::fragment;
         else if (s == "cs")
            o.stage = nir::shader_stage::compute;
         else
            usage();
      } else if (a == "--instrs" && has_value) {
         o.num_instrs = unsigned(number(argv[++i]));
      } else if (a == "--depth" && has_value) {
         o.max_depth = unsigned(number(argv[++i]));
      } else if (a == "--trips" && has_value) {
         o.max_loop_trips = unsigned(number(argv[++i]));
      } else if (a == "--phis") {
         o.registers = false;
      } else if (a == "--no-16bit") {
         o.bits16 = false;
      } else if (a == "--no-64bit") {
         o.bits64 = false;
      } else if (a == "--no-subgroups") {
         o.subgroups = false;
      } else if (a == "--no-textures") {
         o.textures = false;
      } else if (a == "--no-ubo") {
         o.ubo = false;
      } else if (a == "--no-ssbo") {
         o.ssbo = false;
      } else if (a == "--exact") {
         o.approximate = false;
      } else if (a == "--allow-nan") {
         o.allow_nan = true;
      } else if (a == "--no-derivatives") {
         o.derivatives = false;
      } else if (a == "--no-push") {
         o.push_constants = false;
      } else if (a == "--no-continue") {
         o.continues = false;
      } else if (a == "--no-discard") {
         o.discard = false;
      } else if (a == "--no-shared") {
         o.shared = false;
      } else if (a == "--no-atomics") {
         o.atomics = false;
      } else if (a == "--no-gather") {
         o.gather = false;
      } else if (a == "--no-txd") {
         o.gradients = false;
      } else if (a == "--no-shadow") {
         o.shadow = false;
      } else if (a == "--no-float-atomics") {
         o.float_atomics = false;
      } else if (a == "--no-indirect") {
         o.indirect_regs = false;
      } else if (a == "--no-images") {
         o.images = false;
      } else if (a == "--no-validate") {
         validate = false;
      } else {
         usage();
      }
   }

   try {
      auto s = nir::generate(o);
      if (validate)
         nir::validate(*s);
      std::fputs(nir::print_shader(*s).c_str(), stdout);
   } catch (const error &e) {
      std::fprintf(stderr, "ibis-nir-random: %s\n", e.what());
      return 1;
   }
   return 0;
}
