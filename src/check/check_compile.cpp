/*
 * Compile-and-check (check.h): the part of the differential check that
 * needs the whole pipeline.
 */
#include "check/check.h"
#include "util/ibis_error.h"

namespace ibis::check {

compile_options
check_compile_options(const compile_options &o)
{
   compile_options co = o;
   co.abi.ubo_surface_base = bti_ubo;
   co.abi.ssbo_surface_base = bti_ssbo;
   return co;
}

result
check_shader(const nir::shader &s, unsigned simd, uint64_t seed, unsigned sets,
             const compile_options &o)
{
   result total;
   compile_options co = check_compile_options(o);
   compiled_variant v;
   try {
      v = compile_variant(s, simd, co);
   } catch (const error &e) {
      total.v = verdict::compile_error;
      total.first = e.what();
      return total;
   }
   if (!v.compiled) {
      total.v = verdict::compile_error;
      total.first = v.reason.empty() ? "not compiled" : v.reason;
      return total;
   }
   for (unsigned i = 0; i < sets; i++) {
      nir::interp::inputs in = make_inputs(s, simd, seed, i);
      result r = check_binary(s, simd, v.binary, in, co);
      total.compared += r.compared;
      total.approximate += r.approximate;
      total.unchecked += r.unchecked;
      total.stable += r.stable;
      total.kept_denormals += r.kept_denormals;
      total.executed += r.executed;
      total.channel_executed += r.channel_executed;
      total.sends += r.sends;
      total.cycles += r.cycles;
      total.words += strfmt("set %u\n", i) + r.words;
      total.detail = r.detail;
      if (r.v != verdict::match) {
         r.input_set = i;
         r.compared = total.compared;
         r.approximate = total.approximate;
         r.unchecked = total.unchecked;
         r.stable = total.stable;
         r.kept_denormals = total.kept_denormals;
         r.executed = total.executed;
         r.channel_executed = total.channel_executed;
         r.sends = total.sends;
         r.cycles = total.cycles;
         return r;
      }
   }
   return total;
}

std::string
repro_command(const std::string &nir_file, unsigned simd, uint64_t seed, unsigned sets)
{
   return strfmt("ibis-run %s --simd %u --seed %llu --sets %u --check", nir_file.c_str(), simd,
                 (unsigned long long)seed, sets);
}

} /* namespace ibis::check */
