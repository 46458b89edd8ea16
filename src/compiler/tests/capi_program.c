/*
 * A C driver of the public API, built against the installed header,
 * archive and ibis.pc by compiler_capi_install_test.  It compiles the NIR
 * file it is given from text and from a parsed shader, checks that both
 * give the same program, prints each width's outcome, the stats lines
 * and the prog data, then shows the error of a broken shader.
 */
#include <ibis/ibis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
slurp(const char *path, size_t *len)
{
   FILE *f = fopen(path, "rb");
   char *buf;
   long n;
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   n = ftell(f);
   fseek(f, 0, SEEK_SET);
   buf = malloc((size_t)n + 1);
   if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
   }
   fclose(f);
   if (buf)
      buf[n] = 0;
   *len = (size_t)n;
   return buf;
}

int
main(int argc, char **argv)
{
   size_t len, size_a, size_b;
   char *text, *err = NULL;
   ibis_compile_options o;
   ibis_nir_shader *nir;
   ibis_program *a, *b, *bad;
   const ibis_prog_data *pd;
   const void *bin_a, *bin_b;
   unsigned i;

   if (argc != 2 || !(text = slurp(argv[1], &len))) {
      fprintf(stderr, "usage: capi_program FILE.nir\n");
      return 2;
   }
   ibis_compile_options_init(&o);
   o.platform = "skl";
   o.debug = "stats";

   a = ibis_compile_nir_text(text, len, argv[1], &o);
   if (!a || ibis_program_error(a)) {
      printf("error: %s\n", a ? ibis_program_error(a) : "out of memory");
      return 1;
   }
   nir = ibis_nir_shader_parse(text, len, argv[1], &err);
   if (!nir) {
      printf("parse error: %s\n", err);
      free(err);
      return 1;
   }
   b = ibis_compile_nir_shader(nir, NULL);
   if (!b || ibis_program_error(b)) {
      printf("error: %s\n", b ? ibis_program_error(b) : "out of memory");
      return 1;
   }
   bin_a = ibis_program_binary(a, &size_a);
   bin_b = ibis_program_binary(b, &size_b);
   printf("stage %d, %zu bytes, same program: %s\n", ibis_nir_shader_stage(nir),
          size_a, size_a == size_b && memcmp(bin_a, bin_b, size_a) == 0 ? "yes" : "no");

   for (i = 0; i < ibis_program_variant_count(a); i++) {
      ibis_variant v;
      if (ibis_program_variant(a, i, &v) != 0)
         return 1;
      printf("SIMD%u %s offset %u size %u grf start %u%s%s\n", v.simd,
             v.kept ? "kept" : v.compiled ? "dropped" : "failed", v.offset,
             v.size, v.dispatch_grf_start, *v.reason ? ": " : "", v.reason);
      if (v.compiled)
         printf("%s\n", v.stats_line);
      /* The disassembly is made on request: a compiled width has one. */
      if (v.compiled && !strstr(ibis_program_variant_disasm(a, i), "EOT"))
         return 1;
   }
   if (ibis_program_variant(a, 99, NULL) != -1 ||
       ibis_program_variant_disasm(a, 99) != NULL)
      return 1;

   pd = ibis_program_prog_data(a);
   printf("prog data: offsets %d %d %d, push %u regs, %u inputs, bary 0x%x, kill %d\n",
          pd->kernel_offset[0], pd->kernel_offset[1], pd->kernel_offset[2],
          pd->push_regs, pd->num_urb_setup, pd->barycentric_modes, pd->uses_kill);
   printf("debug log has stats: %s\n",
          strstr(ibis_program_debug_log(a), " shader: ") ? "yes" : "no");

   bad = ibis_compile_nir_text("shader: nonsense\n", 17, "bad.nir", NULL);
   printf("bad shader: %s\n", ibis_program_error(bad) ? ibis_program_error(bad) : "(none)");
   printf("bad prog data: %s\n", ibis_program_prog_data(bad) ? "present" : "null");

   ibis_program_free(bad);
   ibis_program_free(b);
   ibis_program_free(a);
   ibis_nir_shader_free(nir);
   free(text);
   return 0;
}
