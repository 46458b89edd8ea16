/*
 * ibis: an SSA-based backend compiler for Intel Gen9 GPUs.  The C API a
 * driver links (libibis.a, `pkg-config --cflags --libs ibis`).
 *
 * NIR goes in (nir_print text, or a shader parsed once and compiled many
 * times); a program comes out: one binary holding a kernel per dispatch
 * width the SIMD selection kept, its offsets, the state a driver
 * programs (prog data), shader-db statistics and disassembly.
 *
 * Every function is thread-safe: compiles share no mutable state, and
 * objects are never shared behind the caller's back.  No function aborts
 * or throws; failures come back as an error string.
 */
#ifndef IBIS_IBIS_H
#define IBIS_IBIS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ibis_nir_shader ibis_nir_shader;
typedef struct ibis_program ibis_program;

/* gl_shader_stage numbers, as nir_print writes them. */
enum ibis_stage {
   IBIS_STAGE_VERTEX = 0,
   IBIS_STAGE_FRAGMENT = 4,
   IBIS_STAGE_COMPUTE = 5,
};

typedef struct ibis_compile_options {
   /* Device by name ("skl", "kbl", ...); NULL: Skylake GT2. */
   const char *platform;
   /* Device by PCI id when nonzero (takes precedence over platform). */
   uint16_t pci_id;
   /* Widths to attempt, as a mask of 8, 16 and 32 (IBIS_SIMD8 | ...);
    * 0: the stage's (VS 8; FS and CS 8, 16, 32).
    */
   unsigned simd_mask;
   /* Keep SIMD32 even when the estimate says it is not faster
    * (brw's INTEL_DEBUG=do32).
    */
   int force_simd32;
   /* The driver's ABI decisions, in the ABI file format of
    * docs/compiler.md (push ranges, FS input slots, VUE map), or a
    * brw-abi JSON text (detected by its leading '{'); NULL: the defaults.
    */
   const char *abi;
   /* IBIS_DEBUG-style dumps for this compile ("ir,asm"); they go to the
    * program's debug log, not to stderr.  NULL: none.
    */
   const char *debug;
} ibis_compile_options;

#define IBIS_SIMD8  8u
#define IBIS_SIMD16 16u
#define IBIS_SIMD32 32u

/* Defaults: Skylake, every width of the stage, no ABI overrides. */
void ibis_compile_options_init(ibis_compile_options *o);

/* Parses and validates nir_print text.  NULL on failure, with *error (if
 * error is not NULL) set to a message the caller frees with free().
 * name appears in messages ("name:line:col: ...").
 */
ibis_nir_shader *ibis_nir_shader_parse(const char *text, size_t len,
                                       const char *name, char **error);
void ibis_nir_shader_free(ibis_nir_shader *s);
/* enum ibis_stage of the shader (or -1). */
int ibis_nir_shader_stage(const ibis_nir_shader *s);

/* Compiles.  The result is NULL only when memory runs out; otherwise
 * check ibis_program_error().  o may be NULL for the defaults.
 */
ibis_program *ibis_compile_nir_text(const char *text, size_t len,
                                    const char *name,
                                    const ibis_compile_options *o);
ibis_program *ibis_compile_nir_shader(const ibis_nir_shader *s,
                                      const ibis_compile_options *o);
void ibis_program_free(ibis_program *p);

/* NULL when the compile succeeded, else why it failed. */
const char *ibis_program_error(const ibis_program *p);

/* Every kept kernel, at its offset; size in bytes. */
const void *ibis_program_binary(const ibis_program *p, size_t *size);

/* shader-db figures of one width, as brw counts them. */
typedef struct ibis_stats {
   unsigned instructions;
   unsigned loops;
   unsigned cycles;
   unsigned spills, fills;
   unsigned sends;
   unsigned promoted_constants;
   unsigned bytes_uncompacted, bytes_compacted;
} ibis_stats;

/* One width's outcome: compiled or not, kept or not, and why. */
typedef struct ibis_variant {
   unsigned simd;
   int compiled;
   int kept;
   const char *reason;        /* "" when kept for the usual reasons */
   unsigned offset, size;     /* of its kernel in the binary, when kept */
   unsigned dispatch_grf_start;
   unsigned scratch_bytes;
   unsigned grfs_used;
   ibis_stats stats;
   const char *stats_line;    /* "FS SIMD16 shader: 42 inst, ..." */
   const char *sched_mode;
} ibis_variant;

unsigned ibis_program_variant_count(const ibis_program *p);
/* 0 on success, -1 for an index out of range. */
int ibis_program_variant(const ibis_program *p, unsigned i, ibis_variant *out);
/* Variant i's program in i965_disasm syntax ("" when it was not
 * compiled, NULL for an index out of range), disassembled on this
 * request: a driver asks only when it prints the program, and doing it
 * for every compile took a sixth of ibis's time inside iris.
 */
const char *ibis_program_variant_disasm(const ibis_program *p, unsigned i);

typedef struct ibis_push_range {
   unsigned block, start, length;   /* UBO, first and count of 32-byte regs */
} ibis_push_range;

/* What a driver programs its state from (brw's brw_*_prog_data). */
typedef struct ibis_prog_data {
   int stage;                          /* enum ibis_stage */
   int kernel_offset[3];               /* SIMD8, 16, 32; -1 when absent */
   unsigned dispatch_grf_start[3];     /* SIMD8, 16, 32 */
   unsigned scratch_bytes;             /* per thread, the largest width */

   /* Push constants from the dispatch GRF start: uniforms, then ranges. */
   unsigned push_uniform_regs;
   unsigned push_regs;
   unsigned num_push_ranges;
   ibis_push_range push_ranges[4];

   /* VS */
   unsigned num_vue_slots;
   const int *vue_slots;               /* VARYING_SLOT_* per VUE slot */
   unsigned num_vs_attrs;
   const int *vs_attrs;                /* VERT_ATTRIB_*; -1 vertex/instance id, -2 draw id */
   unsigned urb_read_length;           /* pairs of attribute slots */
   unsigned urb_entry_size;            /* 64-byte units */
   int uses_vertexid, uses_instanceid, uses_drawid;

   /* FS */
   unsigned num_urb_setup;
   const int *urb_setup;               /* VARYING_SLOT_* in setup order */
   uint64_t flat_inputs;               /* bit i: setup slot i is flat */
   unsigned barycentric_modes;         /* bit per brw_barycentric_mode */
   int uses_kill, writes_omask, uses_src_depth, uses_src_w, computes_depth,
       writes_stencil, uses_sample_mask_in, uses_sample_pos;

   /* CS */
   unsigned local_size[3];
   int cs_subgroup_id_dword;           /* push dword of the subgroup id */
} ibis_prog_data;

/* Valid until the program is freed; NULL for a failed compile. */
const ibis_prog_data *ibis_program_prog_data(const ibis_program *p);

/* The dumps ibis_compile_options::debug asked for ("" if none). */
const char *ibis_program_debug_log(const ibis_program *p);

const char *ibis_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBIS_IBIS_H */
