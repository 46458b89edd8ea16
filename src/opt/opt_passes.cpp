/*
 * Registration of the optimization passes.  An explicit call rather than
 * static initializers: a static library drops objects nobody references.
 */
#include "opt/opt.h"

#include "ir/ibis_pass.h"

namespace ibis {

void
register_opt_passes()
{
   /* A function-local static runs its initializer once, also when
    * several threads get here first together.
    */
   static const bool once = [] {
      register_pass("dce", "remove unused instructions and WLR sequences, "
                    "and unread conditional modifiers", opt_dce);
      register_pass("copy-prop", "propagate copies, immediates and source "
                    "modifiers", opt_copy_prop);
      register_pass("cse", "global value numbering; WLR sequences as one "
                    "instruction", opt_cse);
      register_pass("constant-fold", "fold ALU instructions of constants",
                    opt_constant_fold);
      register_pass("algebraic", "simplify identities such as x*1 and x+0",
                    opt_algebraic);
      register_pass("cmod-prop", "let a boolean's definition write the flag a "
                    "cmp.nz made of it", opt_cmod_prop);
      register_pass("combine-constants", "load each immediate that lowering "
                    "put in a register once, where it dominates its readers",
                    opt_combine_constants);
      register_pass("sat-prop", "move a mov.sat's clamp into its source's "
                    "definition", opt_sat_prop);
      register_pass("narrow-phis", "after lowering, SIMD16: integer phis that "
                    "fit 16 bits become 16-bit phis", opt_narrow_phis);
      register_pass("empty-else", "remove an empty if/else arm with its else "
                    "(an empty then-arm inverts the if)", opt_empty_else);
      register_pass("hoist", "compute equal scalar expressions of several "
                    "arms once, in the block dominating them", opt_hoist);
      register_pass("sink", "move an instruction into the one if-arm that "
                    "reads its value", opt_sink);
      register_pass("licm", "move loop-invariant instructions of blocks run "
                    "on every iteration before the loop", opt_licm);
      return true;
   }();
   (void)once;
}

} /* namespace ibis */
