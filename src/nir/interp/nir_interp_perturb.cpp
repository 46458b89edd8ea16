/*
 * Perturbation of the results Gen does not round correctly (nir_interp.h):
 * the caller runs the shader with each result at an edge of its error
 * bound and sees which outputs move.
 */
#include <cmath>

#include "nir/interp/nir_interp_private.h"
#include "nir/nir_eval_helpers.h"

namespace ibis::nir::interp {

namespace {

double
decode(uint64_t bits, unsigned bit_size)
{
   switch (bit_size) {
   case 16: return eval::half_to_float(uint16_t(bits));
   case 32: return as_float(uint32_t(bits));
   default: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
   }
   }
}

uint64_t
encode(double v, unsigned bit_size)
{
   switch (bit_size) {
   case 16: return eval::to_half(v, false);
   case 32: return as_word(float(v));
   default: {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return b;
   }
   }
}

/* splitmix64's finalizer: the same signs on every host. */
uint64_t
mix(uint64_t z)
{
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

} /* anonymous namespace */

int
perturb_sign(const perturbation &p, unsigned id, unsigned lane, unsigned comp)
{
   switch (p.mode) {
   case perturb_mode::none: return 0;
   case perturb_mode::up: return 1;
   case perturb_mode::down: return -1;
   case perturb_mode::quad_x: return lane & 1 ? 1 : -1;
   case perturb_mode::quad_y: return lane & 2 ? 1 : -1;
   case perturb_mode::mixed: break;
   }
   uint64_t h = mix(p.seed * 0x9e3779b97f4a7c15ull + id);
   h = mix(h + (uint64_t(lane) << 8) + comp);
   return h & 1 ? 1 : -1;
}

uint64_t
perturb_float(uint64_t bits, unsigned bit_size, double bound, int sign)
{
   const double v = decode(bits, bit_size);
   if (!sign || v == 0 || !std::isfinite(v))
      return bits;
   uint64_t moved = encode(v + sign * bound, bit_size);
   if (moved == bits) {
      /* Less than half a ULP: one ULP, away from or toward zero. */
      moved = (sign > 0) == (v > 0) ? bits + 1 : bits - 1;
   }
   return moved;
}

void
perturb_alu(const perturbation &p, alu_op op, unsigned id, unsigned lane, unsigned bit_size,
            const_value *dst, unsigned nc, const const_value *const *srcs)
{
   bool absolute = false;
   switch (op) {
   case alu_op::fsin: case alu_op::fcos: case alu_op::flog2:
      absolute = true;
      break;
   case alu_op::frcp: case alu_op::frsq: case alu_op::fsqrt: case alu_op::fexp2:
   case alu_op::fpow: case alu_op::flrp:
      break;
   default:
      return;
   }
   if (bit_size != 16 && bit_size != 32 && bit_size != 64)
      return;
   for (unsigned k = 0; k < nc; k++) {
      const uint64_t bits = const_value_bits(dst[k], bit_size);
      const double r = decode(bits, bit_size);
      double bound = p.rel * std::fabs(r);
      if (op == alu_op::flrp) {
         /* Gen's lrp rounds its own way: the error scales with the terms. */
         const double a = decode(const_value_bits(srcs[0][k], bit_size), bit_size);
         const double b = decode(const_value_bits(srcs[1][k], bit_size), bit_size);
         const double c = decode(const_value_bits(srcs[2][k], bit_size), bit_size);
         bound = p.rel * (std::fabs(a * (1 - c)) + std::fabs(b * c));
      }
      if (absolute)
         bound += p.abs;
      if (!std::isfinite(bound))
         continue;
      dst[k] = const_value_from_bits(
         perturb_float(bits, bit_size, bound, perturb_sign(p, id, lane, k)), bit_size);
   }
}

} /* namespace ibis::nir::interp */
