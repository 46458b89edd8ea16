/*
 * Internals shared by the compiler driver's files.
 */
#pragma once

#include "compiler/compiler.h"

namespace ibis {

/* Everything of prog_data that follows from the NIR and the ABI inputs
 * alone (not from any width's code): push layout, VUE map, URB setup,
 * FS state flags, CS workgroup size.
 */
prog_data compute_prog_data(const nir::shader &s, const from_nir_options &abi);

/* The GRF where push constants start at `width` (brw's
 * dispatch_grf_start_reg: the size of the fixed thread payload).
 */
unsigned dispatch_grf_start(const nir::shader &s, const from_nir_options &abi,
                            unsigned width);

} /* namespace ibis */
