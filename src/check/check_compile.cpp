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
   return check_sets(s, simd, seed, sets, [&](const nir::interp::inputs &in) {
      return check_binary(s, simd, v.binary, in, co);
   });
}

std::string
repro_command(const std::string &nir_file, unsigned simd, uint64_t seed, unsigned sets)
{
   return strfmt("ibis-run %s --simd %u --seed %llu --sets %u --check", nir_file.c_str(), simd,
                 (unsigned long long)seed, sets);
}

} /* namespace ibis::check */
