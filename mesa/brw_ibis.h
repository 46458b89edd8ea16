/*
 * ibis inside brw: when INTEL_IBIS names a stage ("vs,fs,cs" or "all"),
 * brw_compile_vs/fs/cs hand the final-form NIR to ibis (libibis.a, through
 * its C API) instead of brw's own backend.  Part of the ibis project; the
 * script scripts/mesa-driver.sh copies it into Mesa's src/intel/compiler.
 *
 * Each entry point returns the program (allocated in params->base.mem_ctx,
 * prog data filled) or NULL: then brw compiles the shader as usual, and
 * one "ibis fallback" line in the shader debug log says why.
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
#endif

#endif /* BRW_IBIS_H */
