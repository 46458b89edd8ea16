/*
 * Random NIR programs for differential testing.
 *
 * generate() builds a shader in the final-form dialect that Mesa 23.3 hands
 * to its Intel backend for Gen9 (scalar ALU, 32-bit booleans, NIR registers
 * instead of phis), valid for the NIR validator, that terminates and whose
 * result is defined: the NIR interpreter and compiled code running on the
 * EU simulator must agree on it.  docs/random.md lists the guarantees and
 * the dialect covered.
 *
 * The same options (seed included) give the same program on every platform:
 * the generator has its own PRNG and never uses the standard library's
 * distributions.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nir/nir.h"

namespace ibis::nir {

struct random_options {
   uint64_t seed = 0;
   /* vertex, fragment or compute. */
   shader_stage stage = shader_stage::fragment;

   /* Size: roughly how many instructions the body gets (guards and
    * plumbing come on top), how deeply ifs and loops nest, and the most
    * iterations one loop runs.
    */
   unsigned num_instrs = 80;
   unsigned max_depth = 3;
   unsigned max_loop_trips = 4;

   /* Features. */
   bool bits16 = true;          /* 16-bit integer and float ALU */
   bool bits64 = true;          /* 64-bit integer and float ALU */
   bool subgroups = true;       /* reductions, scans, votes, shuffles, ... */
   bool textures = true;        /* tex/txb/txl/txf/txs (+ tg4, txd) on 2D textures */
   bool ubo = true;
   bool ssbo = true;            /* loads everywhere, stores in compute */
   bool registers = true;       /* decl_reg/load_reg/store_reg, else phis */
   /* Operations whose GEN result is not correctly rounded (frcp, frsq,
    * fsqrt, fexp2, flog2, fsin, fcos, fpow): a comparison needs a tolerance.
    */
   bool approximate = true;
   /* Let floats be NaN or infinite: no clamping of float operands. */
   bool allow_nan = false;
   /* Derivatives and implicit-LOD sampling (fragment shaders only). */
   bool derivatives = true;
   /* Push constants read with load_uniform (64 bytes). */
   bool push_constants = true;
   /* `if c { i++; continue }` in loops (register form only). */
   bool continues = true;
   /* Fragment shaders: terminate_if / demote_if before the outputs. */
   bool discard = true;
   /* Compute shaders: shared memory round trips through each invocation's
    * own slot, and SSBO atomics on its own output slot.
    */
   bool shared = true;
   bool atomics = true;
   /* Texture gathers (tg4, some with a constant offset) and lookups with
    * explicit gradients (txd).
    */
   bool gather = true;
   bool gradients = true;
   /* Depth comparisons (a comparator) through a sampler2DShadow at unit 2. */
   bool shadow = true;
   /* Compute shaders: float atomics (fmin, fmax, fcmpxchg) among the
    * atomics.
    */
   bool float_atomics = true;
   /* Register arrays (2-8 elements) read and written with an index masked
    * into range (load_reg_indirect / store_reg_indirect) or a constant one
    * (register form only).
    */
   bool indirect_regs = true;
   /* Compute and fragment shaders: storage images (docs/random.md
    * "Images"): loads anywhere in a read-only image, stores, loads and
    * atomics at the invocation's own texel of two others, image_size.
    */
   bool images = true;
};

/* The ALU opcodes generate() may emit: those of Gen9 final-form NIR. */
std::vector<alu_op> random_alu_ops();

/* A new shader, with its CFG built.  Throws ibis::error for options that
 * make no sense (an unsupported stage).
 */
std::unique_ptr<shader> generate(const random_options &opts);

} /* namespace ibis::nir */
