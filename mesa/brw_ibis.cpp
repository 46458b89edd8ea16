/*
 * ibis inside brw (see brw_ibis.h).  brw has already lowered and
 * optimized the NIR and made the driver-facing decisions a backend does
 * not own: the pushed UBO ranges (iris's brw_nir_analyze_ubo_ranges), the
 * FS input slots (brw_nir_populate_wm_prog_data), the VS VUE map.  They
 * go to ibis as its ABI; ibis's program and prog data come back into
 * brw's structures.  Wherever ibis and brw describe the same fact (push
 * layout, attribute slots, URB sizes) the two are compared, and any
 * difference is a fallback: the driver must never program state for a
 * layout the code does not read.
 */
#include "brw_ibis.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <string>
#include <vector>

#include <ibis/ibis.h>

#include "brw_nir.h"
#include "brw_private.h"
#include "compiler/nir/nir.h"
#include "dev/intel_debug.h"
#include "util/memstream.h"
#include "util/ralloc.h"
#include "util/u_math.h"

namespace {

/* INTEL_IBIS: "vs,fs,cs", "all", or empty.  Read once per process. */
unsigned
stage_mask()
{
   static const unsigned mask = [] {
      unsigned m = 0;
      const char *env = getenv("INTEL_IBIS");
      if (!env)
         return m;
      std::string s(env);
      size_t pos = 0;
      while (pos <= s.size()) {
         size_t end = s.find(',', pos);
         if (end == std::string::npos)
            end = s.size();
         const std::string tok = s.substr(pos, end - pos);
         if (tok == "all" || tok == "1")
            m |= BITFIELD_BIT(MESA_SHADER_VERTEX) |
                 BITFIELD_BIT(MESA_SHADER_FRAGMENT) |
                 BITFIELD_BIT(MESA_SHADER_COMPUTE);
         else if (tok == "vs")
            m |= BITFIELD_BIT(MESA_SHADER_VERTEX);
         else if (tok == "fs")
            m |= BITFIELD_BIT(MESA_SHADER_FRAGMENT);
         else if (tok == "cs")
            m |= BITFIELD_BIT(MESA_SHADER_COMPUTE);
         else if (!tok.empty())
            fprintf(stderr, "INTEL_IBIS: unknown stage '%s' (vs, fs, cs, all)\n",
                    tok.c_str());
         pos = end + 1;
      }
      return m;
   }();
   return mask;
}

std::string
strprintf(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = NULL;
   const int n = vasprintf(&s, fmt, ap);
   va_end(ap);
   std::string r = n >= 0 ? std::string(s, n) : std::string(fmt);
   free(s);
   return r;
}

/* INTEL_IBIS_TIMES: the file, or NULL.  Read once per process. */
const char *
times_path()
{
   static const char *const path = [] {
      const char *env = getenv("INTEL_IBIS_TIMES");
      return env && *env ? env : (const char *)NULL;
   }();
   return path;
}

int64_t
thread_cpu_ns()
{
   struct timespec ts;
   clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
   return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/* What the glue made of the compile a brw_ibis_timer measures on this
 * thread: nothing (brw compiled it), a program, or a fallback to brw; and
 * the CPU time spent inside libibis (ibis_compile_nir_text) for it.
 */
enum class outcome { brw, ibis, fallback };
thread_local outcome current_outcome = outcome::brw;
thread_local int64_t libibis_ns = 0;

/* One compile's context: the caller's log and the reason it gave up. */
struct attempt {
   const brw_compiler *compiler;
   brw_compile_params *params;
   gl_shader_stage stage;
   bool debug;

   const unsigned *
   fallback(const std::string &why) const
   {
      const nir_shader *nir = params->nir;
      current_outcome = outcome::fallback;
      brw_shader_debug_log(compiler, params->log_data,
                           "%s ibis fallback to brw: %s\n",
                           _mesa_shader_stage_to_abbrev(stage), why.c_str());
      if (debug)
         fprintf(stderr, "ibis fallback to brw for %s %s: %s\n",
                 _mesa_shader_stage_to_abbrev(stage),
                 nir->info.name ? nir->info.name : "unnamed", why.c_str());
      return NULL;
   }
};

std::string
nir_text(nir_shader *nir)
{
   char *buf = NULL;
   size_t size = 0;
   struct u_memstream mem;
   if (!u_memstream_open(&mem, &buf, &size))
      return std::string();
   nir_print_shader(nir, u_memstream_get(&mem));
   u_memstream_close(&mem);
   std::string s(buf ? buf : "", size);
   free(buf);
   return s;
}

/* The ABI file text ibis reads (docs/compiler.md): brw's push ranges. */
std::string
push_abi(const brw_stage_prog_data *pd)
{
   std::string abi;
   for (unsigned i = 0; i < 4; i++) {
      const brw_ubo_range &r = pd->ubo_ranges[i];
      if (r.length)
         abi += strprintf("push_range %u %u %u\n", r.block, r.start, r.length);
   }
   return abi.empty() ? "push_ranges none\n" : abi;
}

/* An ibis program and what it was compiled from; freed with the scope. */
struct program {
   ibis_program *p = nullptr;
   std::string nir, abi;
   program() = default;
   program(const program &) = delete;
   program &operator=(const program &) = delete;
   ~program() { ibis_program_free(p); }
};

bool
compile(const attempt &a, nir_shader *nir, const std::string &abi,
        unsigned simd_mask, program &out, std::string &why)
{
   const intel_device_info *devinfo = a.compiler->devinfo;
   if (devinfo->ver != 9) {
      why = "ibis compiles Gen9 only";
      return false;
   }
   if (nir->constant_data_size) {
      why = "shader constant data (relocated constant buffer) is not supported";
      return false;
   }
   if (a.params->nir->info.ray_queries) {
      why = "ray queries are not supported";
      return false;
   }
   out.nir = nir_text(nir);
   out.abi = abi;
   const std::string &text = out.nir;
   if (text.empty()) {
      why = "nir_print failed";
      return false;
   }
   ibis_compile_options o;
   ibis_compile_options_init(&o);
   o.pci_id = devinfo->pci_device_id;
   o.simd_mask = simd_mask;
   o.force_simd32 = INTEL_DEBUG(DEBUG_DO32) ? 1 : 0;
   o.abi = abi.c_str();
   const char *name = nir->info.name ? nir->info.name : "shader";
   const int64_t t0 = times_path() ? thread_cpu_ns() : 0;
   out.p = ibis_compile_nir_text(text.data(), text.size(), name, &o);
   if (times_path())
      libibis_ns += thread_cpu_ns() - t0;
   if (!out.p) {
      why = "out of memory";
      return false;
   }
   if (const char *e = ibis_program_error(out.p)) {
      /* The first line is the diagnosis; the log wants one line. */
      why = std::string(e).substr(0, std::string(e).find('\n'));
      return false;
   }
   return true;
}

std::vector<ibis_variant>
kept_variants(const ibis_program *p)
{
   std::vector<ibis_variant> v;
   for (unsigned i = 0; i < ibis_program_variant_count(p); i++) {
      ibis_variant var;
      if (ibis_program_variant(p, i, &var) == 0 && var.kept)
         v.push_back(var);
   }
   std::sort(v.begin(), v.end(), [](const ibis_variant &x, const ibis_variant &y) {
      return x.simd < y.simd;
   });
   return v;
}

/* The program of p's width simd, disassembled now: only INTEL_DEBUG asks. */
const char *
variant_disasm(const ibis_program *p, unsigned simd)
{
   for (unsigned i = 0; i < ibis_program_variant_count(p); i++) {
      ibis_variant var;
      if (ibis_program_variant(p, i, &var) == 0 && var.simd == simd)
         return ibis_program_variant_disasm(p, i);
   }
   return "";
}

/* Push data: ibis must have pushed exactly what brw's prog data says, as
 * the driver uploads from that.  Empty when they agree.
 */
std::string
push_mismatch(const brw_stage_prog_data *brw, const ibis_prog_data *pd)
{
   if (pd->push_uniform_regs != DIV_ROUND_UP(brw->nr_params, 8))
      return strprintf("ibis pushes %u uniform registers, the driver %u params",
                       pd->push_uniform_regs, brw->nr_params);
   unsigned n = 0;
   for (unsigned i = 0; i < 4; i++) {
      const brw_ubo_range &r = brw->ubo_ranges[i];
      if (!r.length)
         continue;
      if (n >= pd->num_push_ranges || pd->push_ranges[n].block != r.block ||
          pd->push_ranges[n].start != r.start || pd->push_ranges[n].length != r.length)
         return "ibis's push ranges differ from the driver's";
      n++;
   }
   if (n != pd->num_push_ranges)
      return "ibis pushes more ranges than the driver";
   return std::string();
}

/* What brw's backend notes while translating a compute shader, from the
 * NIR: the driver enables barriers and binds the workgroup count by them.
 */
void
note_cs_intrinsics(nir_shader *shader, struct brw_cs_prog_data *cs)
{
   nir_foreach_function_impl(impl, shader) {
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *in = nir_instr_as_intrinsic(instr);
            if (in->intrinsic == nir_intrinsic_barrier &&
                nir_intrinsic_execution_scope(in) == SCOPE_WORKGROUP)
               cs->uses_barrier = true;
            else if (in->intrinsic == nir_intrinsic_load_num_workgroups)
               cs->uses_num_work_groups = true;
         }
      }
   }
}

/* brw's scratch sizes are powers of two of at least 1 KiB. */
unsigned
scratch_size(unsigned bytes)
{
   return bytes ? MAX2(1024u, util_next_power_of_two(bytes)) : 0;
}

void
write_file(const std::string &path, const std::string &text)
{
   if (FILE *f = fopen(path.c_str(), "w")) {
      fwrite(text.data(), 1, text.size(), f);
      fclose(f);
   }
}

/* INTEL_IBIS_DUMP=PREFIX writes what ibis compiled and what it logged as
 * PREFIX-K.STAGE.nir, .abi and .stats, so that ibis-shaderdb (which reads
 * X.abi beside X.nir) can be held to the driver's lines.
 */
void
dump(const attempt &a, const program &prog, const std::vector<ibis_variant> &kept)
{
   const char *prefix = getenv("INTEL_IBIS_DUMP");
   /* A compute shader's widths are compiled from different NIR. */
   if (!prefix || !*prefix || a.stage == MESA_SHADER_COMPUTE)
      return;
   static std::atomic<unsigned> counter{0};
   const std::string base =
      strprintf("%s-%u.%s", prefix, counter++,
                a.stage == MESA_SHADER_VERTEX ? "vs" : "fs");
   std::string stats;
   for (const ibis_variant &v : kept)
      stats += std::string(v.stats_line) + "\n";
   write_file(base + ".nir", prog.nir);
   write_file(base + ".abi", prog.abi);
   write_file(base + ".stats", stats);
}

/* Program, stats, debug log and the fields every stage shares. */
const unsigned *
finish(const attempt &a, const program &prog, const std::vector<ibis_variant> &kept,
       brw_stage_prog_data *pd)
{
   const ibis_program *p = prog.p;
   const ibis_prog_data *ipd = ibis_program_prog_data(p);
   size_t size = 0;
   const void *bin = ibis_program_binary(p, &size);
   void *out = ralloc_size(a.params->mem_ctx, MAX2(size, 1));
   if (!out)
      return NULL;
   memcpy(out, bin, size);

   pd->program_size = size;
   pd->const_data_size = 0;
   pd->const_data_offset = 0;
   pd->num_relocs = 0;
   pd->relocs = NULL;
   pd->curb_read_length = ipd->push_regs;
   pd->total_scratch = scratch_size(ipd->scratch_bytes);
   /* ibis does not report whether it pulled a UBO; the driver only
    * flushes more when told so.
    */
   pd->has_ubo_pull = true;

   unsigned grf_used = 0;
   brw_compile_stats *stats = a.params->stats;
   const unsigned max_width = kept.empty() ? 0 : kept.back().simd;
   for (const ibis_variant &v : kept) {
      grf_used = MAX2(grf_used, v.grfs_used);
      brw_shader_debug_log(a.compiler, a.params->log_data, "%s\n", v.stats_line);
      if (a.debug) {
         fprintf(stderr, "Native code for %s %s shader %s (ibis)\n%s\n%s\n",
                 a.params->nir->info.label ? a.params->nir->info.label : "unnamed",
                 _mesa_shader_stage_to_string(a.stage),
                 a.params->nir->info.name ? a.params->nir->info.name : "",
                 v.stats_line, variant_disasm(p, v.simd));
      }
      if (stats) {
         memset(stats, 0, sizeof(*stats));
         stats->dispatch_width = v.simd;
         stats->max_polygons = 1;
         stats->max_dispatch_width = max_width;
         stats->instructions = v.stats.instructions;
         stats->sends = v.stats.sends;
         stats->loops = v.stats.loops;
         stats->cycles = v.stats.cycles;
         stats->spills = v.stats.spills;
         stats->fills = v.stats.fills;
         stats++;
      }
   }
   pd->grf_used = grf_used;
   dump(a, prog, kept);
   current_outcome = outcome::ibis;
   return (const unsigned *)out;
}

/* FNV-1a: variants of one shader differ by their key alone. */
uint64_t
hash_bytes(const void *data, size_t size)
{
   uint64_t h = 0xcbf29ce484222325ull;
   const unsigned char *p = (const unsigned char *)data;
   for (size_t i = 0; i < size; i++)
      h = (h ^ p[i]) * 0x100000001b3ull;
   return h;
}

} /* anonymous namespace */

brw_ibis_timer::brw_ibis_timer(const struct brw_compile_vs_params *p)
   : stage(MESA_SHADER_VERTEX), params(p), source_hash(p->base.source_hash)
{
   start(p->key, sizeof(*p->key));
}

brw_ibis_timer::brw_ibis_timer(const struct brw_compile_fs_params *p)
   : stage(MESA_SHADER_FRAGMENT), params(p), source_hash(p->base.source_hash)
{
   start(p->key, sizeof(*p->key));
}

brw_ibis_timer::brw_ibis_timer(const struct brw_compile_cs_params *p)
   : stage(MESA_SHADER_COMPUTE), params(p), source_hash(p->base.source_hash)
{
   start(p->key, sizeof(*p->key));
}

void
brw_ibis_timer::start(const void *key, size_t key_size)
{
   if (!times_path())
      return;
   key_hash = hash_bytes(key, key_size);
   current_outcome = outcome::brw;
   libibis_ns = 0;
   start_ns = thread_cpu_ns();
}

brw_ibis_timer::~brw_ibis_timer()
{
   if (start_ns < 0)
      return;
   const int64_t ns = thread_cpu_ns() - start_ns;

   /* The widths the driver will dispatch, as the prog data says. */
   unsigned mask = 0;
   const char *error = NULL;
   switch (stage) {
   case MESA_SHADER_VERTEX: {
      auto *p = (const struct brw_compile_vs_params *)params;
      error = p->base.error_str;
      mask = 1;
      break;
   }
   case MESA_SHADER_FRAGMENT: {
      auto *p = (const struct brw_compile_fs_params *)params;
      error = p->base.error_str;
      mask = p->prog_data->dispatch_8 | p->prog_data->dispatch_16 << 1 |
             p->prog_data->dispatch_32 << 2;
      break;
   }
   default: {
      auto *p = (const struct brw_compile_cs_params *)params;
      error = p->base.error_str;
      mask = p->prog_data->prog_mask;
      break;
   }
   }
   std::string widths, name;
   if (!error) {
      u_foreach_bit(i, mask)
         widths += strprintf("%s%u", widths.empty() ? "" : ",", 8u << i);
   }

   /* The NIR's name, one word: "GLSL3", or blorp's "BLORP-clear". */
   const nir_shader *nir = ((const struct brw_compile_params *)params)->nir;
   for (const char *c = nir->info.name ? nir->info.name : ""; *c; c++)
      name += isspace((unsigned char)*c) ? '_' : *c;

   const char *backend = current_outcome == outcome::ibis ? "ibis" :
                         current_outcome == outcome::fallback ? "ibis-fallback" : "brw";
   /* One write per line, appended: processes may share the file. */
   const std::string line =
      strprintf("%s %s %lld %lld %08x %016llx %s %s\n", _mesa_shader_stage_to_abbrev(stage),
                backend, (long long)((ns + 500) / 1000),
                (long long)((libibis_ns + 500) / 1000), source_hash,
                (unsigned long long)key_hash, widths.empty() ? "-" : widths.c_str(),
                name.empty() ? "-" : name.c_str());
   const int fd = open(times_path(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
   if (fd >= 0) {
      if (write(fd, line.data(), line.size()) < 0) {
         /* Nothing to do: the timing is lost, not the compile. */
      }
      close(fd);
   }
}

extern "C" bool
brw_ibis_wants(gl_shader_stage stage)
{
   return stage_mask() & BITFIELD_BIT(stage);
}

extern "C" const unsigned *
brw_ibis_compile_vs(const struct brw_compiler *compiler,
                    struct brw_compile_vs_params *params, bool debug_enabled)
{
   const attempt a{compiler, &params->base, MESA_SHADER_VERTEX, debug_enabled};
   struct brw_vs_prog_data *vs = params->prog_data;
   const intel_vue_map &vue = vs->base.vue_map;

   std::string abi = push_abi(&vs->base.base);
   abi += "vs_vue_slots";
   for (int s = 0; s < vue.num_slots; s++)
      abi += strprintf(" %d", vue.slot_to_varying[s]);
   abi += "\n";

   program prog;
   std::string why;
   if (!compile(a, params->base.nir, abi, IBIS_SIMD8, prog, why))
      return a.fallback(why);
   const ibis_prog_data *pd = ibis_program_prog_data(prog.p);
   const std::vector<ibis_variant> kept = kept_variants(prog.p);
   if (kept.size() != 1 || kept[0].simd != 8)
      return a.fallback("ibis kept no SIMD8 vertex shader");
   if (!(why = push_mismatch(&vs->base.base, pd)).empty())
      return a.fallback(why);

   /* Attribute slots: the inputs_read bits in order, then brw's system
    * value slots (first vertex, base instance, vertex id, instance id;
    * then draw id, is indexed draw), which ibis numbers -1 and -2.
    */
   std::vector<int> expect;
   u_foreach_bit64(attr, vs->inputs_read)
      expect.push_back(int(attr));
   if (vs->uses_firstvertex || vs->uses_baseinstance || vs->uses_vertexid ||
       vs->uses_instanceid)
      expect.push_back(-1);
   if (vs->uses_drawid || vs->uses_is_indexed_draw)
      expect.push_back(-2);
   if (std::vector<int>(pd->vs_attrs, pd->vs_attrs + pd->num_vs_attrs) != expect)
      return a.fallback("ibis's vertex attribute layout differs from brw's");
   if (pd->urb_read_length != vs->base.urb_read_length ||
       pd->urb_entry_size > vs->base.urb_entry_size)
      return a.fallback(strprintf("URB sizes differ (read %u/%u, entry %u/%u)",
                                  pd->urb_read_length, vs->base.urb_read_length,
                                  pd->urb_entry_size, vs->base.urb_entry_size));

   vs->base.base.dispatch_grf_start_reg = pd->dispatch_grf_start[0];
   vs->base.dispatch_mode = INTEL_DISPATCH_MODE_SIMD8;
   return finish(a, prog, kept, &vs->base.base);
}

extern "C" const unsigned *
brw_ibis_compile_fs(const struct brw_compiler *compiler,
                    struct brw_compile_fs_params *params, bool debug_enabled)
{
   const attempt a{compiler, &params->base, MESA_SHADER_FRAGMENT, debug_enabled};
   const brw_wm_prog_key *key = params->key;
   struct brw_wm_prog_data *wm = params->prog_data;
   nir_shader *nir = params->base.nir;

   /* What brw does in its FB-write and payload code from the key, and
    * ibis does not model: decline rather than guess.
    */
   if (params->use_rep_send)
      return a.fallback("replicated-data clear shaders are not supported");
   if (key->alpha_test_replicate_alpha)
      return a.fallback("alpha-test alpha replication is not supported");
   if (key->alpha_to_coverage != INTEL_NEVER)
      return a.fallback("alpha to coverage is not supported");
   if (key->coarse_pixel || wm->dual_src_blend)
      return a.fallback("coarse pixels and dual-source blending are not supported");
   if (wm->persample_dispatch != INTEL_NEVER)
      return a.fallback("per-sample dispatch is not supported");
   const uint64_t colors = nir->info.outputs_written >> FRAG_RESULT_DATA0;
   if (key->nr_color_regions > 0 && (colors >> key->nr_color_regions) != 0)
      return a.fallback("the shader writes render targets the key does not have");

   std::string abi = push_abi(&wm->base);
   if (wm->urb_setup_attribs_count) {
      abi += "fs_input_slots";
      for (unsigned i = 0; i < wm->urb_setup_attribs_count; i++)
         abi += strprintf(" %u", wm->urb_setup_attribs[i]);
      abi += "\n";
   }

   unsigned simd_mask = 0;
   if (brw_required_dispatch_width(&nir->info) == SUBGROUP_SIZE_REQUIRE_16)
      simd_mask = IBIS_SIMD16;

   program prog;
   std::string why;
   if (!compile(a, nir, abi, simd_mask, prog, why))
      return a.fallback(why);
   const ibis_prog_data *pd = ibis_program_prog_data(prog.p);
   const std::vector<ibis_variant> kept = kept_variants(prog.p);
   if (kept.empty())
      return a.fallback("ibis kept no fragment shader width");
   if (!(why = push_mismatch(&wm->base, pd)).empty())
      return a.fallback(why);
   if (pd->num_urb_setup != wm->urb_setup_attribs_count ||
       !std::equal(pd->urb_setup, pd->urb_setup + pd->num_urb_setup,
                   wm->urb_setup_attribs))
      return a.fallback("ibis's FS input slots differ from brw's");
   if (pd->kernel_offset[0] > 0)
      return a.fallback("ibis placed the SIMD8 kernel after another");

   wm->dispatch_8 = pd->kernel_offset[0] >= 0;
   wm->dispatch_16 = pd->kernel_offset[1] >= 0;
   wm->dispatch_32 = pd->kernel_offset[2] >= 0;
   wm->prog_offset_16 = MAX2(pd->kernel_offset[1], 0);
   wm->prog_offset_32 = MAX2(pd->kernel_offset[2], 0);
   wm->base.dispatch_grf_start_reg = wm->dispatch_8 ? pd->dispatch_grf_start[0] : 0;
   wm->dispatch_grf_start_reg_16 = wm->dispatch_16 ? pd->dispatch_grf_start[1] : 0;
   wm->dispatch_grf_start_reg_32 = wm->dispatch_32 ? pd->dispatch_grf_start[2] : 0;
   wm->dispatch_multi = 0;
   wm->max_polygons = 1;

   /* The thread payload is ibis's: the driver enables exactly the parts
    * its code reads.
    */
   wm->barycentric_interp_modes = pd->barycentric_modes;
   wm->uses_nonperspective_interp_modes =
      (pd->barycentric_modes & INTEL_BARYCENTRIC_NONPERSPECTIVE_BITS) != 0;
   wm->flat_inputs = uint32_t(pd->flat_inputs);
   wm->uses_src_depth = pd->uses_src_depth;
   wm->uses_src_w = pd->uses_src_w;
   wm->uses_pos_offset = pd->uses_sample_pos;
   wm->uses_sample_mask = pd->uses_sample_mask_in;
   wm->uses_depth_w_coefficients = false;
   wm->uses_pc_bary_coefficients = false;
   wm->uses_npc_bary_coefficients = false;
   wm->pulls_bary = false;
   wm->uses_kill = pd->uses_kill;
   wm->uses_omask = pd->writes_omask;
   wm->computed_stencil = pd->writes_stencil;
   if (!pd->computes_depth)
      wm->computed_depth_mode = BRW_PSCDEPTH_OFF;
   else if (wm->computed_depth_mode == BRW_PSCDEPTH_OFF)
      wm->computed_depth_mode = BRW_PSCDEPTH_ON;
   return finish(a, prog, kept, &wm->base);
}

extern "C" const unsigned *
brw_ibis_compile_cs(const struct brw_compiler *compiler,
                    struct brw_compile_cs_params *params, bool debug_enabled)
{
   const attempt a{compiler, &params->base, MESA_SHADER_COMPUTE, debug_enabled};
   struct brw_cs_prog_data *cs = params->prog_data;
   nir_shader *nir = params->base.nir;

   for (unsigned i = 0; i < 4; i++) {
      if (cs->base.ubo_ranges[i].length)
         return a.fallback("pushed UBO ranges in a compute shader");
   }
   if (nir->info.workgroup_size_variable)
      return a.fallback("variable workgroup sizes are not supported");
   /* brw appends the subgroup id to the params (fs_nir_setup_uniforms),
    * and iris pushes a compute shader's subgroup id alone, as param 0.
    */
   if (nir->num_uniforms || cs->base.nr_params)
      return a.fallback("push constants besides the subgroup id");
   if (cs->uses_inline_data)
      return a.fallback("inline data is not supported");

   /* brw lowers subgroup sizes per width before its backend runs, so each
    * width is its own NIR and its own ibis compile, chosen among as brw
    * chooses.
    */
   brw_simd_selection_state simd_state{
      .devinfo = compiler->devinfo,
      .prog_data = cs,
      .required_width = brw_required_dispatch_width(&nir->info),
   };
   program progs[3];
   nir_shader *shaders[3] = {};
   std::string errors[3];
   for (unsigned simd = 0; simd < 3; simd++) {
      if (!brw_simd_should_compile(simd_state, simd))
         continue;
      const unsigned width = 8u << simd;
      nir_shader *shader = nir_shader_clone(params->base.mem_ctx, nir);
      brw_nir_apply_key(shader, compiler, &params->key->base, width);
      NIR_PASS(_, shader, brw_nir_lower_simd, width);
      NIR_PASS(_, shader, nir_opt_constant_folding);
      NIR_PASS(_, shader, nir_opt_dce);
      brw_postprocess_nir(shader, compiler, debug_enabled,
                          params->key->base.robust_flags);
      shaders[simd] = shader;

      std::string why;
      if (!compile(a, shader, push_abi(&cs->base), width, progs[simd], why) ||
          kept_variants(progs[simd].p).size() != 1) {
         errors[simd] = why.empty() ? "ibis kept no program" : why;
         simd_state.error[simd] = ralloc_strdup(params->base.mem_ctx,
                                                errors[simd].c_str());
         continue;
      }
      const ibis_prog_data *pd = ibis_program_prog_data(progs[simd].p);
      if (pd->cs_subgroup_id_dword > 0 || pd->num_push_ranges)
         return a.fallback(strprintf("ibis pushes more than the subgroup id "
                                     "(subgroup id at dword %d, %u ranges)",
                                     pd->cs_subgroup_id_dword, pd->num_push_ranges));
      brw_simd_mark_compiled(simd_state, simd, pd->scratch_bytes > 0);
   }
   const int selected = brw_simd_select(simd_state);
   if (selected < 0)
      return a.fallback(strprintf("SIMD8 '%s', SIMD16 '%s', SIMD32 '%s'",
                                  errors[0].c_str(), errors[1].c_str(),
                                  errors[2].c_str()));

   /* One kernel: brw keeps the selected width alone for a fixed size. */
   const program &prog = progs[selected];
   const ibis_prog_data *pd = ibis_program_prog_data(prog.p);
   note_cs_intrinsics(shaders[selected], cs);
   cs->prog_mask = 1u << selected;
   cs->prog_spilled = pd->scratch_bytes ? cs->prog_mask : 0;
   for (unsigned i = 0; i < 3; i++)
      cs->prog_offset[i] = 0;
   cs->base.dispatch_grf_start_reg = pd->dispatch_grf_start[selected];

   /* The subgroup id, when read, is the one param: per thread. */
   cs->push.cross_thread = {0, 0, 0};
   cs->push.per_thread = {0, 0, 0};
   if (pd->cs_subgroup_id_dword == 0) {
      *brw_stage_prog_data_add_params(&cs->base, 1) = BRW_PARAM_BUILTIN_SUBGROUP_ID;
      cs->push.per_thread = {1, 1, 32};
   }

   return finish(a, prog, kept_variants(prog.p), &cs->base);
}
