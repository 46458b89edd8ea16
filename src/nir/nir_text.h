/*
 * Pieces of the nir_print text format shared by the reader and the printer
 * (internal to src/nir).
 */
#pragma once

#include <string>
#include <string_view>

#include "nir/nir.h"

namespace ibis::nir {

/* A variable or IO location as nir_print names it for the stage and mode:
 * "VARYING_SLOT_TEX0", "FRAG_RESULT_COLOR", a number, or "~0".
 */
std::string location_str(int location, shader_stage stage, uint32_t mode);
/* The inverse; false if the text names no location. */
bool parse_location(std::string_view text, shader_stage stage, uint32_t mode,
                    int *location);

/* A single mode's name; want_local_global names shader_temp and
 * function_temp instead of giving "".
 */
const char *variable_mode_str(uint32_t mode, bool want_local_global);
/* "ubo|ssbo" for a set of modes (the deref/memory-modes spelling). */
std::string variable_mode_list(uint32_t modes);

/* Whether a GLSL type name (possibly an array) is an image type. */
bool type_is_image(const std::string &type);

/* Decimal digits of n (1 for 0). */
static inline unsigned
count_digits(unsigned n)
{
   unsigned d = 1;
   while (n >= 10) {
      n /= 10;
      d++;
   }
   return d;
}

/* The letters naming the components of a vector: xyzw up to 4, else a-p. */
static inline const char *
comp_letters(unsigned num_components)
{
   return num_components > 4 ? "abcdefghijklmnop" : "xyzw";
}

/* The letter of component c of such a vector, '?' if it has none. */
static inline char
comp_letter(unsigned num_components, unsigned c)
{
   return c < (num_components > 4 ? 16u : 4u) ? comp_letters(num_components)[c] : '?';
}

/* The component a swizzle or write-mask letter names, or -1. */
static inline int
component_letter(char c)
{
   switch (c) {
   case 'x': return 0;
   case 'y': return 1;
   case 'z': return 2;
   case 'w': return 3;
   default: return c >= 'a' && c <= 'p' ? c - 'a' : -1;
   }
}

/* "break", "continue", "return", "halt". */
const char *jump_name(jump_type kind);

/* The mode whose locations an IO intrinsic's io_semantics names:
 * shader_in for input loads, shader_out for output loads and stores,
 * 0 otherwise.
 */
uint32_t io_semantics_mode(intrinsic_op op);

/* Access qualifier names, in the order nir_print writes them. */
struct access_name {
   uint32_t bit;
   const char *name;
};
extern const access_name access_names[9];

/* The header lines ("shader: ..." up to the stage-specific fields), as
 * the dialect's nir_print writes them.
 */
void print_shader_info(const shader_info &info, print_dialect dialect,
                       std::string &out);

/* A set of print dialects: bit 1 << print_dialect. */
constexpr uint8_t dialect_bit(print_dialect d)
{
   return uint8_t(1u << unsigned(d));
}
constexpr uint8_t all_dialects =
   dialect_bit(print_dialect::mesa_23_3) | dialect_bit(print_dialect::mesa_25_0);

/*
 * Reads one header line's value into info.  Returns "" on success, else an
 * error message.  "shader:" must come first (it sets the stage the other
 * fields are checked against).  *dialects is the set of dialects the text
 * read so far may be in; a field of one dialect only (source_blake3,
 * stage) narrows it, and a field of a dialect no longer in it is an error.
 */
std::string parse_shader_info_field(std::string_view key, std::string_view value,
                                    shader_info &info, uint8_t *dialects);

/* Whether a header line "key: ..." (or "Unhandled stage N") is a shader
 * info field for the printer's format.
 */
bool is_shader_info_key(std::string_view key);

} /* namespace ibis::nir */
