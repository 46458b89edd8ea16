/*
 * ibis inside brw: when INTEL_IBIS names a stage ("vs,fs,cs" or "all"),
 * brw_compile_vs/fs/cs hand the final-form NIR to ibis (libibis.a, through
 * its C API) instead of brw's own backend.  Part of the ibis project; the
 * script scripts/mesa-driver.sh copies it into Mesa's src/intel/compiler.
 *
 * Each entry point returns the program (allocated in params->base.mem_ctx,
 * prog data filled) or NULL: then brw compiles the shader as usual, and
 * one "ibis fallback" line in the shader debug log says why.
 *
 * INTEL_IBIS_TIMES=FILE appends one line per brw_compile_vs/fs/cs call to
 * FILE: the stage; the backend that produced the program (brw, ibis, or
 * ibis-fallback: ibis tried, brw compiled, the time is both); the
 * backend's thread CPU time in microseconds from the hook to the return,
 * and the part of it inside libibis (0 for brw); the source hash the
 * driver gave; a hash of the key; the widths compiled ("-" when the
 * compile failed); the NIR's name.
 */
#ifndef BRW_IBIS_H
#define BRW_IBIS_H

#include "brw_compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

bool brw_ibis_wants(gl_shader_stage stage);

const unsigned *brw_ibis_compile_vs(const struct brw_compiler *compiler,
                                    struct brw_compile_vs_params *params,
                                    bool debug_enabled);
const unsigned *brw_ibis_compile_fs(const struct brw_compiler *compiler,
                                    struct brw_compile_fs_params *params,
                                    bool debug_enabled);
const unsigned *brw_ibis_compile_cs(const struct brw_compiler *compiler,
                                    struct brw_compile_cs_params *params,
                                    bool debug_enabled);

#ifdef __cplusplus
}

/* Measures one backend compile for INTEL_IBIS_TIMES: from its
 * construction at the hook to its destruction at the entry point's
 * return.  Without INTEL_IBIS_TIMES it reads no clock.
 */
class brw_ibis_timer {
public:
   explicit brw_ibis_timer(const struct brw_compile_vs_params *params);
   explicit brw_ibis_timer(const struct brw_compile_fs_params *params);
   explicit brw_ibis_timer(const struct brw_compile_cs_params *params);
   ~brw_ibis_timer();
   brw_ibis_timer(const brw_ibis_timer &) = delete;
   brw_ibis_timer &operator=(const brw_ibis_timer &) = delete;

private:
   void start(const void *key, size_t key_size);

   gl_shader_stage stage;
   const void *params;
   uint32_t source_hash;
   uint64_t key_hash = 0;
   int64_t start_ns = -1;
};
#endif

#endif /* BRW_IBIS_H */
