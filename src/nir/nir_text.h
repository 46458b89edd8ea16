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

/* The header lines ("shader: ..." up to the stage-specific fields). */
void print_shader_info(const shader_info &info, std::string &out);

/*
 * Reads one header line's value into info.  Returns "" on success, else an
 * error message.  "shader:" must come first (it sets the stage the other
 * fields are checked against).
 */
std::string parse_shader_info_field(std::string_view key, std::string_view value,
                                    shader_info &info);

/* Whether a header line "key: ..." (or "Unhandled stage N") is a shader
 * info field for the printer's format.
 */
bool is_shader_info_key(std::string_view key);

} /* namespace ibis::nir */
