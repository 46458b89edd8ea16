/*
 * The shader header, locations and mode names of the nir_print format.
 */
#include "nir/nir_text.h"

#include <cerrno>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "util/ibis_error.h"

namespace ibis::nir {

namespace {

/* Varying slots that other slots alias in some stages. */
unsigned
varying_slot_index(const char *name)
{
   unsigned v = 0;
   value_of(varying_slot_names, name, &v);
   return v;
}

struct slot_alias {
   const char *name;
   const char *aliased;  /* the slot with the same number */
   bool (*applies)(shader_stage s);
};

const slot_alias slot_aliases[] = {
   {"VARYING_SLOT_PRIMITIVE_SHADING_RATE", "VARYING_SLOT_FACE",
    [](shader_stage s) { return s != shader_stage::fragment; }},
   {"VARYING_SLOT_PRIMITIVE_COUNT", "VARYING_SLOT_TESS_LEVEL_OUTER",
    [](shader_stage s) { return s == shader_stage::mesh; }},
   {"VARYING_SLOT_PRIMITIVE_INDICES", "VARYING_SLOT_TESS_LEVEL_INNER",
    [](shader_stage s) { return s == shader_stage::mesh; }},
   {"VARYING_SLOT_CULL_PRIMITIVE", "VARYING_SLOT_BOUNDING_BOX0",
    [](shader_stage s) { return s == shader_stage::mesh; }},
   {"VARYING_SLOT_TASK_COUNT", "VARYING_SLOT_BOUNDING_BOX0",
    [](shader_stage s) { return s == shader_stage::task; }},
};

const char *
varying_slot_name(unsigned slot, shader_stage stage)
{
   for (const slot_alias &a : slot_aliases) {
      if (a.applies(stage) && slot == varying_slot_index(a.aliased))
         return a.name;
   }
   return name_of(varying_slot_names, slot);
}

/* Which name table get_location_str() uses, or nullptr for a number. */
enum class loc_kind { number, vert_attrib, varying, frag_result, system_value };

loc_kind
location_kind(int location, shader_stage stage, uint32_t mode)
{
   switch (stage) {
   case shader_stage::vertex:
      if (mode == var_shader_in)
         return loc_kind::vert_attrib;
      if (mode == var_shader_out)
         return loc_kind::varying;
      break;
   case shader_stage::tess_ctrl:
   case shader_stage::tess_eval:
      if (unsigned(location) >= varying_slot_names.count)
         break;
      /* fallthrough */
   case shader_stage::task:
   case shader_stage::mesh:
   case shader_stage::geometry:
      if (mode == var_shader_in || mode == var_shader_out)
         return loc_kind::varying;
      break;
   case shader_stage::fragment:
      if (mode == var_shader_in)
         return loc_kind::varying;
      if (mode == var_shader_out)
         return loc_kind::frag_result;
      break;
   default:
      break;
   }
   return mode == var_system_value ? loc_kind::system_value : loc_kind::number;
}

} /* anonymous namespace */

std::string
location_str(int location, shader_stage stage, uint32_t mode)
{
   const unsigned loc = unsigned(location);
   const char *name = nullptr;
   switch (location_kind(location, stage, mode)) {
   case loc_kind::vert_attrib: name = name_of(vert_attrib_names, loc); break;
   case loc_kind::varying: name = varying_slot_name(loc, stage); break;
   case loc_kind::frag_result: name = name_of(frag_result_names, loc); break;
   case loc_kind::system_value: name = name_of(system_value_names, loc); break;
   case loc_kind::number:
      if (location == -1)
         return "~0";
      /* nir_print formats into a 4-byte buffer: at most three digits. */
      return std::to_string(loc).substr(0, 3);
   }
   return name ? name : "UNKNOWN";
}

bool
parse_location(std::string_view text, shader_stage stage, uint32_t mode,
               int *location)
{
   if (text == "~0") {
      *location = -1;
      return location_kind(-1, stage, mode) == loc_kind::number;
   }
   if (!text.empty() && text.size() <= 3 &&
       text.find_first_not_of("0123456789") == std::string_view::npos) {
      *location = std::atoi(std::string(text).c_str());
      return location_kind(*location, stage, mode) == loc_kind::number;
   }

   /* A name: find it in the table for this stage and mode.  The kind can
    * depend on the value only for tessellation (numbers past the varying
    * slots), where names are varyings.
    */
   const loc_kind kind = location_kind(0, stage, mode);
   unsigned v = 0;
   bool found = false;
   switch (kind) {
   case loc_kind::vert_attrib: found = value_of(vert_attrib_names, text, &v); break;
   case loc_kind::frag_result: found = value_of(frag_result_names, text, &v); break;
   case loc_kind::system_value: found = value_of(system_value_names, text, &v); break;
   case loc_kind::varying:
      for (const slot_alias &a : slot_aliases) {
         if (a.applies(stage) && text == a.name) {
            v = varying_slot_index(a.aliased);
            found = true;
         }
      }
      if (!found)
         found = value_of(varying_slot_names, text, &v);
      /* An aliased name is printed under its alias in this stage. */
      if (found && std::string_view(varying_slot_name(v, stage)) != text)
         found = false;
      break;
   case loc_kind::number:
      break;
   }
   *location = int(v);
   return found;
}

const char *
variable_mode_str(uint32_t mode, bool want_local_global)
{
   switch (mode) {
   case var_shader_in: return "shader_in";
   case var_shader_out: return "shader_out";
   case var_uniform: return "uniform";
   case var_mem_ubo: return "ubo";
   case var_system_value: return "system";
   case var_mem_ssbo: return "ssbo";
   case var_mem_shared: return "shared";
   case var_mem_global: return "global";
   case var_mem_push_const: return "push_const";
   case var_mem_constant: return "constant";
   case var_image: return "image";
   case var_shader_temp: return want_local_global ? "shader_temp" : "";
   case var_function_temp: return want_local_global ? "function_temp" : "";
   case var_shader_call_data: return "shader_call_data";
   case var_ray_hit_attrib: return "ray_hit_attrib";
   case var_mem_task_payload: return "task_payload";
   case var_mem_node_payload: return "node_payload";
   case var_mem_node_payload_in: return "node_payload_in";
   default: {
      const uint32_t generic = var_shader_temp | var_function_temp |
                               var_mem_shared | var_mem_global;
      return mode && (mode & generic) == mode ? "generic" : "";
   }
   }
}

std::string
variable_mode_list(uint32_t modes)
{
   std::string s;
   for (uint32_t m = modes; m;) {
      const unsigned bit = __builtin_ctz(m);
      m &= m - 1;
      s += variable_mode_str(1u << bit, true);
      if (m)
         s += '|';
   }
   return s;
}

const char *
jump_name(jump_type kind)
{
   switch (kind) {
   case jump_type::return_: return "return";
   case jump_type::halt: return "halt";
   case jump_type::break_: return "break";
   case jump_type::continue_: return "continue";
   }
   return "?";
}

uint32_t
io_semantics_mode(intrinsic_op op)
{
   switch (op) {
   case intrinsic_op::load_input:
   case intrinsic_op::load_interpolated_input:
   case intrinsic_op::load_per_vertex_input:
      return var_shader_in;
   case intrinsic_op::load_output:
   case intrinsic_op::store_output:
   case intrinsic_op::store_per_vertex_output:
      return var_shader_out;
   default:
      return 0;
   }
}

const access_name access_names[9] = {
   {access_coherent, "coherent"},
   {access_volatile, "volatile"},
   {access_restrict, "restrict"},
   {access_non_writeable, "readonly"},
   {access_non_readable, "writeonly"},
   {access_can_reorder, "reorderable"},
   {access_can_speculate, "speculatable"},
   {access_non_temporal, "non-temporal"},
   {access_include_helpers, "include-helpers"},
};

bool
type_is_image(const std::string &type)
{
   std::string t = type.substr(0, type.find('['));
   if (!t.empty() && (t[0] == 'i' || t[0] == 'u') && t.compare(1, 5, "image") == 0)
      return true;
   return t.compare(0, 5, "image") == 0;
}

/* ------------------------------------------------------------------ */
/* The header: one table in printing order. */

namespace {

enum class fk : uint8_t {
   u_nz,       /* "%u", when non-zero */
   u_always,   /* "%u" */
   int_always, /* "%d" */
   range64,    /* "0,15-17", when non-zero */
   bitset,     /* "0x%08x'%08x...", most significant word first */
   x32, x16, x8,        /* "0x%08x" etc., when non-zero */
   x8_always,
   flag,       /* "true", when set */
   bool_always,/* "true" / "false" */
   ulist_nz,   /* "{%u, %u, ...}", when any is non-zero */
   primitive,  /* a mesa_prim name */
   interp_nz,  /* an INTERP_MODE_ name, when not NONE */
   stage_nz,   /* a MESA_SHADER_ name, when not MESA_SHADER_NONE */
   special,    /* handled by name */
};

/* The print dialects a field belongs to (bit per print_dialect). */
constexpr uint8_t D23 = 1u << unsigned(print_dialect::mesa_23_3);
constexpr uint8_t D25 = 1u << unsigned(print_dialect::mesa_25_0);
constexpr uint8_t DALL = D23 | D25;

constexpr uint32_t
stage_bit(shader_stage s)
{
   return s == shader_stage::none ? 0 : 1u << unsigned(s);
}

constexpr uint32_t ALL = 0;
constexpr uint32_t VS = stage_bit(shader_stage::vertex);
constexpr uint32_t TESS = stage_bit(shader_stage::tess_ctrl) |
                          stage_bit(shader_stage::tess_eval);
constexpr uint32_t GS = stage_bit(shader_stage::geometry);
constexpr uint32_t FS = stage_bit(shader_stage::fragment);
constexpr uint32_t CS = stage_bit(shader_stage::compute) |
                        stage_bit(shader_stage::kernel);
constexpr uint32_t MESH = stage_bit(shader_stage::mesh);
constexpr uint32_t TASK = stage_bit(shader_stage::task);
/* gl_shader_stage_uses_workgroup() */
constexpr uint32_t WORKGROUP = CS | MESH | TASK;
/* The stages print_shader_info() has no case for. */
constexpr uint32_t UNHANDLED = ~(VS | TESS | GS | FS | CS | MESH);

struct info_field {
   const char *key;
   fk kind;
   uint32_t stages;
   void *(*member)(shader_info &);
   unsigned count;  /* words of a bitset, entries of a list */
   uint8_t dialects;
};

constexpr unsigned
opt_count(unsigned n = 0)
{
   return n;
}

/* Fields of both dialects (F), of one (F23, F25). */
#define FD(dialects, key, kind, stages, member, count)                         \
   { key, fk::kind, stages,                                                    \
     [](shader_info &i) -> void * { return &i.member; }, count, dialects }
#define F(key, kind, stages, member, ...)                                      \
   FD(DALL, key, kind, stages, member, opt_count(__VA_ARGS__))
#define F23(key, kind, stages, member) FD(D23, key, kind, stages, member, 0)
#define F25(key, kind, stages, member) FD(D25, key, kind, stages, member, 0)
#define SPECIAL(key, stages, dialects) { key, fk::special, stages, nullptr, 0, dialects }

/* One table in each dialect's printing order: the two differ in a few
 * fields only.
 */
const info_field info_fields[] = {
   SPECIAL("shader", ALL, DALL),
   SPECIAL("source_sha1", ALL, D23),
   SPECIAL("source_blake3", ALL, D25),
   SPECIAL("name", ALL, DALL),
   SPECIAL("label", ALL, DALL),
   F23("internal", bool_always, ALL, internal),
   F25("internal", flag, ALL, internal),
   SPECIAL("workgroup-size", WORKGROUP, D23),
   SPECIAL("workgroup_size", WORKGROUP, D25),
   F23("shared-size", u_always, WORKGROUP, shared_size),
   F23("stage", int_always, ALL, stage),
   F23("next_stage", int_always, ALL, next_stage),
   F25("next_stage", stage_nz, ALL, next_stage),
   F("num_textures", u_nz, ALL, num_textures),
   F("num_ubos", u_nz, ALL, num_ubos),
   F("num_abos", u_nz, ALL, num_abos),
   F("num_ssbos", u_nz, ALL, num_ssbos),
   F("num_images", u_nz, ALL, num_images),
   F("inputs_read", range64, ALL, inputs_read),
   F("dual_slot_inputs", range64, ALL, dual_slot_inputs),
   F("outputs_written", range64, ALL, outputs_written),
   F("outputs_read", range64, ALL, outputs_read),
   FD(D23, "system_values_read", bitset, ALL, system_values_read, 3),
   FD(D25, "system_values_read", bitset, ALL, system_values_read, 4),
   F("per_primitive_inputs", range64, ALL, per_primitive_inputs),
   F("per_primitive_outputs", range64, ALL, per_primitive_outputs),
   F("per_view_outputs", range64, ALL, per_view_outputs),
   F("inputs_read_16bit", x16, ALL, inputs_read_16bit),
   F("outputs_written_16bit", x16, ALL, outputs_written_16bit),
   F("outputs_read_16bit", x16, ALL, outputs_read_16bit),
   F("inputs_read_indirectly_16bit", x16, ALL, inputs_read_indirectly_16bit),
   F("outputs_accessed_indirectly_16bit", x16, ALL,
     outputs_accessed_indirectly_16bit),
   F("patch_inputs_read", x32, ALL, patch_inputs_read),
   F("patch_outputs_written", x32, ALL, patch_outputs_written),
   F("patch_outputs_read", x32, ALL, patch_outputs_read),
   F("inputs_read_indirectly", range64, ALL, inputs_read_indirectly),
   F("outputs_accessed_indirectly", range64, ALL, outputs_accessed_indirectly),
   F("patch_inputs_read_indirectly", range64, ALL, patch_inputs_read_indirectly),
   F("patch_outputs_accessed_indirectly", range64, ALL,
     patch_outputs_accessed_indirectly),
   F("textures_used", bitset, ALL, textures_used, 4),
   F("textures_used_by_txf", bitset, ALL, textures_used_by_txf, 4),
   F("samplers_used", bitset, ALL, samplers_used, 1),
   F("images_used", bitset, ALL, images_used, 2),
   F("image_buffers", bitset, ALL, image_buffers, 2),
   F("msaa_images", bitset, ALL, msaa_images, 2),
   F("float_controls_execution_mode", x32, ALL, float_controls_execution_mode),
   F("shared_size", u_nz, ALL, shared_size),
   F("task_payload_size", u_always, MESH | TASK, task_payload_size),
   F("ray queries", u_nz, ALL, ray_queries),
   F("subgroup_size", u_always, ALL, subgroup_size),
   F("uses_wide_subgroup_intrinsics", flag, ALL, uses_wide_subgroup_intrinsics),
   F("xfb_stride", ulist_nz, ALL, xfb_stride, 4),
   F("inlinable_uniform_dw_offsets", ulist_nz, ALL, inlinable_uniform_dw_offsets, 4),
   F("num_inlinable_uniforms", u_nz, ALL, num_inlinable_uniforms),
   F("clip_distance_array_size", u_nz, ALL, clip_distance_array_size),
   F("cull_distance_array_size", u_nz, ALL, cull_distance_array_size),
   F("uses_texture_gather", flag, ALL, uses_texture_gather),
   F("uses_resource_info_query", flag, ALL, uses_resource_info_query),
   F23("uses_fddx_fddy", flag, ALL, uses_fddx_fddy),
   F("divergence_analysis_run", flag, ALL, divergence_analysis_run),
   F("bit_sizes_float", x8, ALL, bit_sizes_float),
   F("bit_sizes_int", x8, ALL, bit_sizes_int),
   F("first_ubo_is_default_ubo", flag, ALL, first_ubo_is_default_ubo),
   F("separate_shader", flag, ALL, separate_shader),
   F("has_transform_feedback_varyings", flag, ALL, has_transform_feedback_varyings),
   F("flrp_lowered", flag, ALL, flrp_lowered),
   F("io_lowered", flag, ALL, io_lowered),
   F("writes_memory", flag, ALL, writes_memory),
   F25("derivative_group", u_nz, ALL, cs.derivative_group),

   F("double_inputs", range64, VS, vs.double_inputs),
   F("blit_sgprs_amd", u_nz, VS, vs.blit_sgprs_amd),
   F("window_space_position", flag, VS, vs.window_space_position),
   F("needs_edge_flag", flag, VS, vs.needs_edge_flag),

   F("primitive_mode", u_always, TESS, tess.primitive_mode),
   F("tcs_vertices_out", u_always, TESS, tess.tcs_vertices_out),
   F("spacing", u_always, TESS, tess.spacing),
   F("ccw", flag, TESS, tess.ccw),
   F("point_mode", flag, TESS, tess.point_mode),
   F25("tcs_same_invocation_inputs_read", range64, TESS,
       tess.tcs_same_invocation_inputs_read),
   F("tcs_cross_invocation_inputs_read", range64, TESS,
     tess.tcs_cross_invocation_inputs_read),
   F("tcs_cross_invocation_outputs_read", range64, TESS,
     tess.tcs_cross_invocation_outputs_read),

   F("output_primitive", primitive, GS, gs.output_primitive),
   F("input_primitive", primitive, GS, gs.input_primitive),
   F("vertices_out", u_always, GS, gs.vertices_out),
   F("invocations", u_always, GS, gs.invocations),
   F("vertices_in", u_always, GS, gs.vertices_in),
   F("uses_end_primitive", flag, GS, gs.uses_end_primitive),
   F("active_stream_mask", x8_always, GS, gs.active_stream_mask),

   F("uses_discard", flag, FS, fs.uses_discard),
   F23("uses_demote", flag, FS, fs.uses_demote),
   F("uses_fbfetch_output", flag, FS, fs.uses_fbfetch_output),
   F("color_is_dual_source", flag, FS, fs.color_is_dual_source),
   F25("require_full_quads", flag, FS, fs.require_full_quads),
   F("needs_quad_helper_invocations", flag, FS, fs.needs_quad_helper_invocations),
   F23("needs_all_helper_invocations", flag, FS, fs.needs_all_helper_invocations),
   F("uses_sample_qualifier", flag, FS, fs.uses_sample_qualifier),
   F("uses_sample_shading", flag, FS, fs.uses_sample_shading),
   F("early_fragment_tests", flag, FS, fs.early_fragment_tests),
   F("inner_coverage", flag, FS, fs.inner_coverage),
   F("post_depth_coverage", flag, FS, fs.post_depth_coverage),
   F("pixel_center_integer", flag, FS, fs.pixel_center_integer),
   F("origin_upper_left", flag, FS, fs.origin_upper_left),
   F("pixel_interlock_ordered", flag, FS, fs.pixel_interlock_ordered),
   F("pixel_interlock_unordered", flag, FS, fs.pixel_interlock_unordered),
   F("sample_interlock_ordered", flag, FS, fs.sample_interlock_ordered),
   F("sample_interlock_unordered", flag, FS, fs.sample_interlock_unordered),
   F("untyped_color_outputs", flag, FS, fs.untyped_color_outputs),
   F("depth_layout", u_nz, FS, fs.depth_layout),
   F("color0_interp", interp_nz, FS, fs.color0_interp),
   F("color0_sample", flag, FS, fs.color0_sample),
   F("color0_centroid", flag, FS, fs.color0_centroid),
   F("color1_interp", interp_nz, FS, fs.color1_interp),
   F("color1_sample", flag, FS, fs.color1_sample),
   F("color1_centroid", flag, FS, fs.color1_centroid),
   F("advanced_blend_modes", x32, FS, fs.advanced_blend_modes),

   F("workgroup_size_hint", ulist_nz, CS, cs.workgroup_size_hint, 3),
   F("user_data_components_amd", u_nz, CS, cs.user_data_components_amd),
   F23("derivative_group", u_nz, CS, cs.derivative_group),
   F23("ptr_size", u_always, CS, cs.ptr_size),
   F25("ptr_size", u_nz, CS, cs.ptr_size),

   F("ms_cross_invocation_output_access", range64, MESH,
     mesh.ms_cross_invocation_output_access),
   F("max_vertices_out", u_always, MESH, mesh.max_vertices_out),
   F("max_primitives_out", u_always, MESH, mesh.max_primitives_out),
   F("primitive_type", primitive, MESH, mesh.primitive_type),
   F("nv", flag, MESH, mesh.nv),

   SPECIAL("Unhandled stage", UNHANDLED, DALL),
};

#undef FD
#undef F
#undef F23
#undef F25
#undef SPECIAL

bool
applies(const info_field &f, shader_stage stage)
{
   return f.stages == ALL || (stage_bit(stage) & f.stages);
}

std::string
format_range64(uint64_t v)
{
   std::string s;
   while (v) {
      const unsigned start = __builtin_ctzll(v);
      unsigned end = start;
      while (end + 1 < 64 && ((v >> (end + 1)) & 1))
         end++;
      if (!s.empty())
         s += ',';
      s += end > start ? strfmt("%u-%u", start, end) : strfmt("%u", start);
      v &= end == 63 ? 0 : ~0ull << (end + 1);
   }
   return s;
}

/* Strict unsigned parse of the whole text in the given base. */
bool
parse_uint(std::string_view text, unsigned base, uint64_t max, uint64_t *out)
{
   if (text.empty() || text.size() > 24)
      return false;
   const std::string s(text);
   if (s[0] == '-' || s[0] == '+' || s[0] == ' ')
      return false;
   char *end;
   errno = 0;
   const unsigned long long v = std::strtoull(s.c_str(), &end, base);
   if (*end || errno || v > max)
      return false;
   *out = v;
   return true;
}

bool
parse_hex(std::string_view text, uint64_t max, uint64_t *out)
{
   if (text.size() < 3 || text.substr(0, 2) != "0x")
      return false;
   return parse_uint(text.substr(2), 16, max, out);
}

bool
parse_range64(std::string_view text, uint64_t *out)
{
   uint64_t v = 0;
   while (!text.empty()) {
      const size_t comma = text.find(',');
      std::string_view item = text.substr(0, comma);
      text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
      if (comma != std::string_view::npos && text.empty())
         return false;
      const size_t dash = item.find('-');
      uint64_t a, b;
      if (!parse_uint(item.substr(0, dash), 10, 63, &a))
         return false;
      b = a;
      if (dash != std::string_view::npos &&
          (!parse_uint(item.substr(dash + 1), 10, 63, &b) || b < a))
         return false;
      for (uint64_t i = a; i <= b; i++)
         v |= 1ull << i;
   }
   *out = v;
   return v != 0;
}

/* "{a, b, c}" with exactly n unsigned entries, in the given base. */
bool
parse_list(std::string_view text, unsigned n, unsigned base, uint32_t *out)
{
   if (text.size() < 2 || text.front() != '{' || text.back() != '}')
      return false;
   text = text.substr(1, text.size() - 2);
   for (unsigned i = 0; i < n; i++) {
      const size_t comma = text.find(", ");
      if ((i + 1 < n) == (comma == std::string_view::npos))
         return false;
      uint64_t v;
      const std::string_view item = text.substr(0, comma);
      if (!(base == 16 ? parse_hex(item, UINT32_MAX, &v)
                       : parse_uint(item, 10, UINT32_MAX, &v)))
         return false;
      out[i] = uint32_t(v);
      text = comma == std::string_view::npos ? "" : text.substr(comma + 2);
   }
   return true;
}

} /* anonymous namespace */

void
print_shader_info(const shader_info &info, print_dialect dialect, std::string &out)
{
   shader_info &mi = const_cast<shader_info &>(info);
   const uint8_t dbit = uint8_t(1u << unsigned(dialect));
   for (const info_field &f : info_fields) {
      if (!applies(f, info.stage) || !(f.dialects & dbit))
         continue;
      const std::string key = f.key;
      void *m = f.member ? f.member(mi) : nullptr;
      switch (f.kind) {
      case fk::special:
         if (key == "shader") {
            const char *name = stage_name(info.stage);
            out += strfmt("shader: %s\n", name ? name : "UNKNOWN");
         } else if (key == "source_sha1") {
            out += "source_sha1: {";
            for (unsigned i = 0; i < 5; i++)
               out += strfmt(i ? ", 0x%08x" : "0x%08x", info.source_sha1[i]);
            out += "}\n";
         } else if (key == "source_blake3") {
            bool any = false;
            for (uint32_t w : info.source_blake3)
               any |= w != 0;
            if (any) {
               out += "source_blake3: {";
               for (unsigned i = 0; i < 8; i++)
                  out += strfmt(i ? ", 0x%08x" : "0x%08x", info.source_blake3[i]);
               out += "}\n";
            }
         } else if (key == "name") {
            if (info.has_name)
               out += "name: " + info.name + "\n";
         } else if (key == "label") {
            if (info.has_label)
               out += "label: " + info.label + "\n";
         } else if (key == "workgroup-size" || key == "workgroup_size") {
            out += strfmt("%s: %u, %u, %u%s\n", f.key, info.workgroup_size[0],
                          info.workgroup_size[1], info.workgroup_size[2],
                          info.workgroup_size_variable ? " (variable)" : "");
         } else if (key == "Unhandled stage") {
            out += strfmt("Unhandled stage %d\n", int(info.stage));
         }
         break;
      case fk::u_nz:
         if (*(unsigned *)m)
            out += strfmt("%s: %u\n", f.key, *(unsigned *)m);
         break;
      case fk::u_always:
         out += strfmt("%s: %u\n", f.key, *(unsigned *)m);
         break;
      case fk::int_always:
         out += strfmt("%s: %d\n", f.key,
                       key == "stage" ? int(info.stage) : *(int *)m);
         break;
      case fk::range64:
         if (*(uint64_t *)m)
            out += strfmt("%s: %s\n", f.key, format_range64(*(uint64_t *)m).c_str());
         break;
      case fk::bitset: {
         const uint32_t *w = (const uint32_t *)m;
         bool any = false;
         for (unsigned i = 0; i < f.count; i++)
            any |= w[i] != 0;
         if (!any)
            break;
         out += strfmt("%s: ", f.key);
         for (int i = int(f.count) - 1; i >= 0; i--)
            out += strfmt(i == int(f.count) - 1 ? "0x%08x" : "'%08x", w[i]);
         out += '\n';
         break;
      }
      case fk::x32:
         if (*(uint32_t *)m)
            out += strfmt("%s: 0x%08x\n", f.key, *(uint32_t *)m);
         break;
      case fk::x16:
         if (*(uint16_t *)m)
            out += strfmt("%s: 0x%04x\n", f.key, *(uint16_t *)m);
         break;
      case fk::x8:
         if (*(uint8_t *)m)
            out += strfmt("%s: 0x%02x\n", f.key, *(uint8_t *)m);
         break;
      case fk::x8_always:
         out += strfmt("%s: 0x%02x\n", f.key, *(uint8_t *)m);
         break;
      case fk::flag:
         if (*(bool *)m)
            out += strfmt("%s: true\n", f.key);
         break;
      case fk::bool_always:
         out += strfmt("%s: %s\n", f.key, *(bool *)m ? "true" : "false");
         break;
      case fk::ulist_nz: {
         const unsigned *v = (const unsigned *)m;
         bool any = false;
         for (unsigned i = 0; i < f.count; i++)
            any |= v[i] != 0;
         if (!any)
            break;
         out += strfmt("%s: {", f.key);
         for (unsigned i = 0; i < f.count; i++)
            out += strfmt(i ? ", %u" : "%u", v[i]);
         out += "}\n";
         break;
      }
      case fk::primitive: {
         const char *name = name_of(primitive_names, *(unsigned *)m);
         out += strfmt("%s: %s\n", f.key, name ? name : "UNKNOWN");
         break;
      }
      case fk::interp_nz: {
         const unsigned mode = unsigned(*(interp_mode *)m);
         if (mode) {
            const char *name = name_of(interp_mode_names, mode);
            out += strfmt("%s: %s\n", f.key, name ? name : "UNKNOWN");
         }
         break;
      }
      case fk::stage_nz: {
         const int st = *(int *)m;
         if (st != int(shader_stage::none)) {
            const char *name = stage_name(shader_stage(st));
            out += strfmt("%s: %s\n", f.key, name ? name : "UNKNOWN");
         }
         break;
      }
      }
   }
}

namespace {

/* The fields' keys with their lengths, made once: every header line
 * looks its key up in the whole table, and comparing with a C string
 * measured it again for each field.
 */
const std::vector<std::string_view> &
info_field_keys()
{
   static const std::vector<std::string_view> keys = [] {
      std::vector<std::string_view> k;
      for (const info_field &f : info_fields)
         k.emplace_back(f.key);
      return k;
   }();
   return keys;
}

} /* anonymous namespace */

bool
is_shader_info_key(std::string_view key)
{
   for (std::string_view k : info_field_keys()) {
      if (key == k)
         return true;
   }
   return false;
}

namespace {

std::string parse_field(const info_field *field, std::string_view key,
                        std::string_view value, shader_info &info);

} /* anonymous namespace */

std::string
parse_shader_info_field(std::string_view key, std::string_view value,
                        shader_info &info, uint8_t *dialects)
{
   /* The entries for this key in the dialects still possible; where both
    * dialects have one (next_stage: 4 or MESA_SHADER_FRAGMENT), the value
    * decides.
    */
   const info_field *cands[2];
   unsigned n = 0;
   bool other_dialect = false;
   const std::vector<std::string_view> &keys = info_field_keys();
   for (size_t i = 0; i < keys.size(); i++) {
      const info_field &f = info_fields[i];
      if (key != keys[i] || !(key == "shader" || applies(f, info.stage)))
         continue;
      if (!(f.dialects & *dialects)) {
         other_dialect = true;
         continue;
      }
      if (n < 2)
         cands[n++] = &f;
   }
   if (!n) {
      if (other_dialect)
         return strfmt("'%.*s' is a field of Mesa %s's print, the text before is "
                       "Mesa %s's", int(key.size()), key.data(),
                       *dialects & D25 ? "23.3" : "25.0",
                       *dialects & D25 ? "25.0" : "23.3");
      if (is_shader_info_key(key))
         return strfmt("'%.*s' is not a field of a %s shader", int(key.size()),
                       key.data(), stage_name(info.stage));
      return strfmt("unknown shader info field '%.*s'", int(key.size()),
                    key.data());
   }
   if (key != "shader" && info.stage == shader_stage::none)
      return "the header must start with 'shader:'";

   std::string first_err;
   uint8_t ok = 0;
   shader_info parsed;
   bool have = false;
   for (unsigned i = 0; i < n; i++) {
      shader_info attempt = info;
      const std::string err = parse_field(cands[i], key, value, attempt);
      if (!err.empty()) {
         if (first_err.empty())
            first_err = err;
         continue;
      }
      ok |= cands[i]->dialects;
      if (!have) {
         parsed = attempt;
         have = true;
      }
   }
   if (!have)
      return first_err;
   info = parsed;
   *dialects &= ok;
   return "";
}

namespace {

std::string
parse_field(const info_field *field, std::string_view key, std::string_view value,
            shader_info &info)
{
   /* Formatted only on failure: every header line comes through here. */
   auto bad = [&] {
      return strfmt("bad value for '%.*s'", int(key.size()), key.data());
   };
   void *m = field->member ? field->member(info) : nullptr;
   uint64_t v;
   switch (field->kind) {
   case fk::special:
      if (key == "shader") {
         if (info.stage != shader_stage::none)
            return "'shader' given twice";
         for (int s = 0; s <= int(shader_stage::kernel); s++) {
            if (value == stage_name(shader_stage(s))) {
               info.stage = shader_stage(s);
               return "";
            }
         }
         return strfmt("unknown shader stage '%.*s'", int(value.size()), value.data());
      }
      if (key == "source_sha1")
         return parse_list(value, 5, 16, info.source_sha1.data()) ? std::string() : bad();
      if (key == "source_blake3")
         return parse_list(value, 8, 16, info.source_blake3.data()) ? std::string() : bad();
      if (key == "name") {
         info.has_name = true;
         info.name = std::string(value);
         return "";
      }
      if (key == "label") {
         info.has_label = true;
         info.label = std::string(value);
         return "";
      }
      if (key == "Unhandled stage") {
         if (value != std::to_string(int(info.stage)))
            return bad();
         return "";
      }
      if (key == "workgroup-size" || key == "workgroup_size") {
         std::string_view rest = value;
         const std::string_view variable = " (variable)";
         if (rest.size() > variable.size() &&
             rest.substr(rest.size() - variable.size()) == variable) {
            info.workgroup_size_variable = true;
            rest = rest.substr(0, rest.size() - variable.size());
         }
         uint32_t w[3];
         if (!parse_list("{" + std::string(rest) + "}", 3, 10, w))
            return bad();
         for (unsigned i = 0; i < 3; i++) {
            if (w[i] > UINT16_MAX)
               return bad();
            info.workgroup_size[i] = uint16_t(w[i]);
         }
         return "";
      }
      return bad();
   case fk::u_nz:
   case fk::u_always:
      if (!parse_uint(value, 10, UINT32_MAX, &v))
         return bad();
      *(unsigned *)m = unsigned(v);
      return "";
   case fk::int_always: {
      const std::string s(value);
      char *end;
      const long n = std::strtol(s.c_str(), &end, 10);
      if (s.empty() || *end || n < INT32_MIN || n > INT32_MAX)
         return bad();
      if (key == "stage") {
         if (n != int(info.stage))
            return strfmt("stage %ld does not match %s", n, stage_name(info.stage));
         return "";
      }
      *(int *)m = int(n);
      return "";
   }
   case fk::range64:
      return parse_range64(value, (uint64_t *)m) ? std::string() : bad();
   case fk::bitset: {
      uint32_t *w = (uint32_t *)m;
      std::string_view rest = value;
      for (int i = int(field->count) - 1; i >= 0; i--) {
         const bool first = i == int(field->count) - 1;
         if (!first) {
            if (rest.empty() || rest[0] != '\'')
               return bad();
            rest = rest.substr(1);
         } else if (rest.substr(0, 2) != "0x") {
            return bad();
         } else {
            rest = rest.substr(2);
         }
         if (rest.size() < 8 || !parse_uint(rest.substr(0, 8), 16, UINT32_MAX, &v))
            return bad();
         w[i] = uint32_t(v);
         rest = rest.substr(8);
      }
      return rest.empty() ? std::string() : bad();
   }
   case fk::x32:
   case fk::x16:
   case fk::x8:
   case fk::x8_always: {
      const uint64_t max = field->kind == fk::x32 ? UINT32_MAX :
                           field->kind == fk::x16 ? UINT16_MAX : UINT8_MAX;
      if (!parse_hex(value, max, &v))
         return bad();
      if (field->kind == fk::x32)
         *(uint32_t *)m = uint32_t(v);
      else if (field->kind == fk::x16)
         *(uint16_t *)m = uint16_t(v);
      else
         *(uint8_t *)m = uint8_t(v);
      return "";
   }
   case fk::flag:
      if (value != "true")
         return bad();
      *(bool *)m = true;
      return "";
   case fk::bool_always:
      if (value != "true" && value != "false")
         return bad();
      *(bool *)m = value == "true";
      return "";
   case fk::ulist_nz:
      return parse_list(value, field->count, 10, (uint32_t *)m) ? std::string() : bad();
   case fk::primitive: {
      unsigned p;
      if (!value_of(primitive_names, value, &p))
         return bad();
      *(unsigned *)m = p;
      return "";
   }
   case fk::interp_nz: {
      unsigned mode;
      if (!value_of(interp_mode_names, value, &mode) || mode == 0)
         return bad();
      *(interp_mode *)m = interp_mode(mode);
      return "";
   }
   case fk::stage_nz:
      for (int st = 0; st <= int(shader_stage::kernel); st++) {
         if (value == stage_name(shader_stage(st))) {
            *(int *)m = st;
            return "";
         }
      }
      return bad();
   }
   return bad();
}

} /* anonymous namespace */

} /* namespace ibis::nir */
