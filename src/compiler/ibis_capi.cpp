/*
 * include/ibis/ibis.h over compiler.h: every C++ exception stops here and
 * becomes an error string.
 */
#include "ibis/ibis.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>

#include "compiler/compiler.h"
#include "util/ibis_debug.h"
#include "util/ibis_error.h"

struct ibis_nir_shader {
   std::unique_ptr<ibis::nir::shader> nir;
};

struct ibis_program {
   std::string error;
   ibis::compile_result result;
   std::string debug_log;
   ibis_prog_data prog = {};
   /* The disassembly is made on the first ibis_program_variant() of each
    * width, under the lock (a const program may be read from threads).
    */
   const ibis::device_info *dev = nullptr;
   std::mutex disasm_lock;
};

namespace {

char *
dup_string(const std::string &s)
{
   char *p = static_cast<char *>(std::malloc(s.size() + 1));
   if (p)
      std::memcpy(p, s.c_str(), s.size() + 1);
   return p;
}

std::unique_ptr<ibis::nir::shader>
parse(const char *text, size_t len, const char *name)
{
   if (!text)
      throw ibis::error("no NIR text");
   std::unique_ptr<ibis::nir::shader> s =
      ibis::nir::read_shader(std::string(text, len), name ? name : "<nir>");
   ibis::nir::validate(*s);
   return s;
}

void
fill_prog_data(ibis_program &p)
{
   const ibis::prog_data &d = p.result.prog;
   ibis_prog_data &c = p.prog;
   c.stage = int(d.stage);
   c.kernel_offset[0] = d.offset_simd8;
   c.kernel_offset[1] = d.offset_simd16;
   c.kernel_offset[2] = d.offset_simd32;
   c.dispatch_grf_start[0] = d.dispatch_grf_start_simd8;
   c.dispatch_grf_start[1] = d.dispatch_grf_start_simd16;
   c.dispatch_grf_start[2] = d.dispatch_grf_start_simd32;
   c.scratch_bytes = d.scratch_bytes;
   c.push_uniform_regs = d.push_uniform_regs;
   c.push_regs = d.push_regs;
   c.num_push_ranges = unsigned(std::min<size_t>(4, d.push_ranges.size()));
   for (unsigned i = 0; i < c.num_push_ranges; i++)
      c.push_ranges[i] = {d.push_ranges[i].block, d.push_ranges[i].start,
                          d.push_ranges[i].length};
   c.num_vue_slots = unsigned(d.vue_slots.size());
   c.vue_slots = d.vue_slots.data();
   c.num_vs_attrs = unsigned(d.vs_attr_slots.size());
   c.vs_attrs = d.vs_attr_slots.data();
   c.urb_read_length = d.urb_read_length;
   c.urb_entry_size = d.urb_entry_size;
   c.uses_vertexid = d.uses_vertexid;
   c.uses_instanceid = d.uses_instanceid;
   c.uses_drawid = d.uses_drawid;
   c.num_urb_setup = unsigned(d.urb_setup.size());
   c.urb_setup = d.urb_setup.data();
   c.flat_inputs = d.flat_inputs;
   c.barycentric_modes = d.barycentric_modes;
   c.uses_kill = d.uses_kill;
   c.writes_omask = d.writes_omask;
   c.uses_src_depth = d.uses_src_depth;
   c.uses_src_w = d.uses_src_w;
   c.computes_depth = d.computes_depth;
   c.writes_stencil = d.writes_stencil;
   c.uses_sample_mask_in = d.uses_sample_mask_in;
   c.uses_sample_pos = d.uses_sample_pos;
   for (unsigned i = 0; i < 3; i++)
      c.local_size[i] = d.local_size[i];
   c.cs_subgroup_id_dword = d.cs_subgroup_id_dword;
}

ibis_program *
compile(const ibis::nir::shader *s, const char *text, size_t len,
        const char *name, const ibis_compile_options *co)
{
   ibis_program *p = new (std::nothrow) ibis_program;
   if (!p)
      return nullptr;
   try {
      std::unique_ptr<ibis::nir::shader> parsed;
      if (!s) {
         parsed = parse(text, len, name);
         s = parsed.get();
      }
      ibis_compile_options defaults;
      ibis_compile_options_init(&defaults);
      if (!co)
         co = &defaults;

      ibis::compile_options o;
      if (co->pci_id) {
         o.device = ibis::device_by_pci_id(co->pci_id);
         if (!o.device)
            throw ibis::error(ibis::strfmt("unknown PCI id 0x%04x", co->pci_id));
      } else {
         o.device = &ibis::device_by_name(co->platform ? co->platform : "skl");
      }
      for (unsigned w : {8u, 16u, 32u}) {
         if (co->simd_mask & w)
            o.widths.push_back(w);
      }
      if (co->simd_mask & ~(8u | 16u | 32u))
         throw ibis::error(ibis::strfmt("simd_mask 0x%x: widths are 8, 16 and 32",
                                        co->simd_mask));
      o.force_simd32 = co->force_simd32 != 0;
      if (co->abi)
         ibis::apply_abi_text(co->abi, "<abi>", o.abi);
      /* Asked-for dumps go to the program; IBIS_DEBUG's to stderr. */
      if (co->debug) {
         o.debug = ibis::parse_debug_flags(co->debug);
         std::string *log = &p->debug_log;
         o.dump = [log](const std::string &t) { *log += t; };
      }

      p->dev = o.device;
      p->result = ibis::compile_shader(*s, o);
      fill_prog_data(*p);
   } catch (const std::bad_alloc &) {
      p->error = "out of memory";
   } catch (const std::exception &e) {
      p->error = e.what();
      if (p->error.empty())
         p->error = "compile failed";
   }
   return p;
}

} /* anonymous namespace */

extern "C" {

void
ibis_compile_options_init(ibis_compile_options *o)
{
   std::memset(o, 0, sizeof(*o));
}

ibis_nir_shader *
ibis_nir_shader_parse(const char *text, size_t len, const char *name,
                      char **error)
{
   if (error)
      *error = nullptr;
   try {
      auto *s = new ibis_nir_shader;
      try {
         s->nir = parse(text, len, name);
      } catch (...) {
         delete s;
         throw;
      }
      return s;
   } catch (const std::exception &e) {
      if (error)
         *error = dup_string(e.what());
      return nullptr;
   }
}

void
ibis_nir_shader_free(ibis_nir_shader *s)
{
   delete s;
}

int
ibis_nir_shader_stage(const ibis_nir_shader *s)
{
   return s && s->nir ? int(s->nir->info.stage) : -1;
}

ibis_program *
ibis_compile_nir_text(const char *text, size_t len, const char *name,
                      const ibis_compile_options *o)
{
   return compile(nullptr, text, len, name, o);
}

ibis_program *
ibis_compile_nir_shader(const ibis_nir_shader *s, const ibis_compile_options *o)
{
   if (!s || !s->nir) {
      ibis_program *p = new (std::nothrow) ibis_program;
      if (p)
         p->error = "no NIR shader";
      return p;
   }
   return compile(s->nir.get(), nullptr, 0, nullptr, o);
}

void
ibis_program_free(ibis_program *p)
{
   delete p;
}

const char *
ibis_program_error(const ibis_program *p)
{
   if (!p)
      return "no program";
   return p->error.empty() ? nullptr : p->error.c_str();
}

const void *
ibis_program_binary(const ibis_program *p, size_t *size)
{
   if (size)
      *size = p && p->error.empty() ? p->result.binary.size() : 0;
   return p && p->error.empty() ? p->result.binary.data() : nullptr;
}

unsigned
ibis_program_variant_count(const ibis_program *p)
{
   return p ? unsigned(p->result.variants.size()) : 0;
}

int
ibis_program_variant(const ibis_program *p, unsigned i, ibis_variant *out)
{
   if (!p || !out || i >= p->result.variants.size())
      return -1;
   const ibis::compiled_variant &v = p->result.variants[i];
   std::memset(out, 0, sizeof(*out));
   out->simd = v.simd;
   out->compiled = v.compiled;
   out->kept = v.kept;
   out->reason = v.reason.c_str();
   out->offset = v.offset;
   out->size = unsigned(v.binary.size());
   out->dispatch_grf_start = v.dispatch_grf_start;
   out->scratch_bytes = v.scratch_bytes;
   out->grfs_used = v.grfs_used;
   const ibis::shader_stats &st = v.stats;
   out->stats = {st.instructions, st.loops, st.cycles, st.spills, st.fills,
                 st.sends, st.promoted_constants, st.bytes_uncompacted,
                 st.bytes_compacted};
   out->stats_line = v.stats_text.c_str();
   out->sched_mode = v.stats.sched_mode.c_str();
   return 0;
}

const char *
ibis_program_variant_disasm(const ibis_program *p, unsigned i)
{
   if (!p || i >= p->result.variants.size())
      return nullptr;
   ibis_program *mp = const_cast<ibis_program *>(p);
   std::lock_guard<std::mutex> lock(mp->disasm_lock);
   ibis::compiled_variant &mv = mp->result.variants[i];
   if (mv.disasm.empty() && !mv.binary.empty())
      mv.disasm = ibis::disassemble(mv.binary, *p->dev);
   return mv.disasm.c_str();
}

const ibis_prog_data *
ibis_program_prog_data(const ibis_program *p)
{
   return p && p->error.empty() ? &p->prog : nullptr;
}

const char *
ibis_program_debug_log(const ibis_program *p)
{
   return p ? p->debug_log.c_str() : "";
}

const char *
ibis_version(void)
{
   return "0.1.0";
}

} /* extern "C" */
