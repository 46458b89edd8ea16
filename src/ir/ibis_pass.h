/*
 * The pass registry: a name for every pass that ibis-opt and tests can run
 * by name ("validate,copy-prop,print").  Passes elsewhere register once at
 * start-up, e.g. from a register_opt_passes() the tool calls:
 *
 *    register_pass("copy-prop", "propagate copies", opt_copy_prop);
 *
 * A pass returns whether it changed the shader.
 */
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/ibis_ir.h"

namespace ibis {

using pass_fn = std::function<bool(shader &)>;

struct pass_info {
   std::string name;
   std::string help;
   pass_fn run;
};

/* Adds a pass; registering a name twice is an internal error. */
void register_pass(const std::string &name, const std::string &help, pass_fn fn);
/* The pass called name, or null. */
const pass_info *find_pass(const std::string &name);
/* Every registered pass, by name. */
std::vector<const pass_info *> registered_passes();

/* Runs a comma-separated list of passes in order.  Unknown names are an
 * ibis::error before anything runs.  With IBIS_DEBUG=validate the shader
 * is validated after every pass; with IBIS_DEBUG=opt it is printed.
 * Returns whether any pass changed the shader.
 */
bool run_passes(shader &s, const std::string &list);

} /* namespace ibis */
