/*
 * ibis's model of NIR: the final-form NIR that Mesa 23.3 and 25.0 hand to
 * their Intel backend, as nir_print writes it.
 *
 * The model keeps everything the text carries, so printing a shader that was
 * read gives back the same text.  Values point at their definition: a source
 * is a pointer to a def, never an integer name.  The control flow is the
 * structured tree (blocks, ifs, loops) with predecessor/successor edges
 * filled in by build_cfg().
 *
 * Everything is owned by the shader: a shader owns its functions, a function
 * its impl, an impl its cf tree, a block its instructions, an instruction its
 * def.  Pointers into the tree stay valid while the owner lives.
 *
 * Opcode enums and their info tables are generated from the Python tables
 * next to this file into nir_opcodes.h.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "nir/nir_opcodes.h"

namespace ibis::nir {

/* gl_shader_stage; the values are the ones nir_print writes as "stage: N". */
enum class shader_stage : int8_t {
   none = -1,
   vertex = 0,
   tess_ctrl = 1,
   tess_eval = 2,
   geometry = 3,
   fragment = 4,
   compute = 5,
   task = 6,
   mesh = 7,
   raygen = 8,
   any_hit = 9,
   closest_hit = 10,
   miss = 11,
   intersection = 12,
   callable = 13,
   kernel = 14,
};

/* "MESA_SHADER_FRAGMENT" etc., or nullptr for a value that has no name. */
const char *stage_name(shader_stage s);

/* Which Mesa's nir_print wrote a text.  The two differ in the header, the
 * function and block lines and the padding; the reader takes either and
 * the printer writes the one the shader was read in.
 */
enum class print_dialect : uint8_t {
   mesa_23_3,
   mesa_25_0,
};

/* nir_variable_mode: one bit per mode. */
enum variable_mode : uint32_t {
   var_system_value = 1u << 0,
   var_uniform = 1u << 1,
   var_shader_in = 1u << 2,
   var_shader_out = 1u << 3,
   var_image = 1u << 4,
   var_shader_call_data = 1u << 5,
   var_ray_hit_attrib = 1u << 6,
   var_mem_ubo = 1u << 7,
   var_mem_push_const = 1u << 8,
   var_mem_ssbo = 1u << 9,
   var_mem_constant = 1u << 10,
   var_mem_task_payload = 1u << 11,
   var_mem_node_payload = 1u << 12,
   var_mem_node_payload_in = 1u << 13,
   var_shader_temp = 1u << 14,
   var_function_temp = 1u << 15,
   var_mem_shared = 1u << 16,
   var_mem_global = 1u << 17,
   num_variable_modes = 18,
};

/* glsl_interp_mode */
enum class interp_mode : uint8_t {
   none = 0,
   smooth,
   flat,
   noperspective,
   explicit_,
   color,
};

/* gl_access_qualifier bits (the ones nir_print names). */
enum access_qualifier : uint32_t {
   access_coherent = 1u << 0,
   access_restrict = 1u << 1,
   access_volatile = 1u << 2,
   access_non_readable = 1u << 3,
   access_non_writeable = 1u << 4,
   access_non_uniform = 1u << 5,
   access_can_reorder = 1u << 6,
   access_non_temporal = 1u << 7,
   access_include_helpers = 1u << 8,
   access_can_speculate = 1u << 12,
};

/*
 * shader_info: every field nir_print writes in the header.  Fields that are
 * printed only when non-zero are zero when absent.
 */
struct shader_info {
   shader_stage stage = shader_stage::none;
   std::array<uint32_t, 5> source_sha1 = {};     /* 23.3 */
   std::array<uint32_t, 8> source_blake3 = {};   /* 25.0, printed when not 0 */
   bool has_name = false;
   std::string name;
   bool has_label = false;
   std::string label;
   bool internal = false;

   /* Compute-like stages. */
   std::array<uint16_t, 3> workgroup_size = {};
   bool workgroup_size_variable = false;

   int next_stage = 0;  /* a shader_stage; 25.0 prints it by name, not -1 */

   unsigned num_textures = 0;
   unsigned num_ubos = 0;
   unsigned num_abos = 0;
   unsigned num_ssbos = 0;
   unsigned num_images = 0;

   uint64_t inputs_read = 0;
   uint64_t dual_slot_inputs = 0;
   uint64_t outputs_written = 0;
   uint64_t outputs_read = 0;
   /* 96-bit set in 23.3, 128-bit in 25.0 */
   std::array<uint32_t, 4> system_values_read = {};
   uint64_t per_primitive_inputs = 0;
   uint64_t per_primitive_outputs = 0;
   uint64_t per_view_outputs = 0;
   uint16_t inputs_read_16bit = 0;
   uint16_t outputs_written_16bit = 0;
   uint16_t outputs_read_16bit = 0;
   uint16_t inputs_read_indirectly_16bit = 0;
   uint16_t outputs_accessed_indirectly_16bit = 0;
   uint32_t patch_inputs_read = 0;
   uint32_t patch_outputs_written = 0;
   uint32_t patch_outputs_read = 0;
   uint64_t inputs_read_indirectly = 0;
   uint64_t outputs_accessed_indirectly = 0;
   uint64_t patch_inputs_read_indirectly = 0;
   uint64_t patch_outputs_accessed_indirectly = 0;
   std::array<uint32_t, 4> textures_used = {};        /* 128-bit set */
   std::array<uint32_t, 4> textures_used_by_txf = {}; /* 128-bit set */
   std::array<uint32_t, 1> samplers_used = {};        /* 32-bit set */
   std::array<uint32_t, 2> images_used = {};          /* 64-bit set */
   std::array<uint32_t, 2> image_buffers = {};        /* 64-bit set */
   std::array<uint32_t, 2> msaa_images = {};          /* 64-bit set */
   uint32_t float_controls_execution_mode = 0;
   unsigned shared_size = 0;
   unsigned task_payload_size = 0;
   unsigned ray_queries = 0;
   unsigned subgroup_size = 0;
   bool uses_wide_subgroup_intrinsics = false;
   std::array<unsigned, 4> xfb_stride = {};
   std::array<unsigned, 4> inlinable_uniform_dw_offsets = {};
   unsigned num_inlinable_uniforms = 0;
   unsigned clip_distance_array_size = 0;
   unsigned cull_distance_array_size = 0;
   bool uses_texture_gather = false;
   bool uses_resource_info_query = false;
   bool uses_fddx_fddy = false;  /* 23.3 */
   bool divergence_analysis_run = false;
   uint8_t bit_sizes_float = 0;
   uint8_t bit_sizes_int = 0;
   bool first_ubo_is_default_ubo = false;
   bool separate_shader = false;
   bool has_transform_feedback_varyings = false;
   bool flrp_lowered = false;
   bool io_lowered = false;
   bool writes_memory = false;

   struct {
      uint64_t double_inputs = 0;
      unsigned blit_sgprs_amd = 0;
      bool window_space_position = false;
      bool needs_edge_flag = false;
   } vs;

   struct {
      unsigned primitive_mode = 0;
      unsigned tcs_vertices_out = 0;
      unsigned spacing = 0;
      bool ccw = false;
      bool point_mode = false;
      uint64_t tcs_same_invocation_inputs_read = 0;  /* 25.0 */
      uint64_t tcs_cross_invocation_inputs_read = 0;
      uint64_t tcs_cross_invocation_outputs_read = 0;
   } tess;

   struct {
      unsigned output_primitive = 0;  /* mesa_prim */
      unsigned input_primitive = 0;
      unsigned vertices_out = 0;
      unsigned invocations = 0;
      unsigned vertices_in = 0;
      bool uses_end_primitive = false;
      uint8_t active_stream_mask = 0;
   } gs;

   struct {
      bool uses_discard = false;
      bool uses_demote = false;  /* 23.3 */
      bool uses_fbfetch_output = false;
      bool color_is_dual_source = false;
      bool require_full_quads = false;  /* 25.0 */
      bool needs_quad_helper_invocations = false;
      bool needs_all_helper_invocations = false;  /* 23.3 */
      bool uses_sample_qualifier = false;
      bool uses_sample_shading = false;
      bool early_fragment_tests = false;
      bool inner_coverage = false;
      bool post_depth_coverage = false;
      bool pixel_center_integer = false;
      bool origin_upper_left = false;
      bool pixel_interlock_ordered = false;
      bool pixel_interlock_unordered = false;
      bool sample_interlock_ordered = false;
      bool sample_interlock_unordered = false;
      bool untyped_color_outputs = false;
      unsigned depth_layout = 0;
      interp_mode color0_interp = interp_mode::none;
      bool color0_sample = false;
      bool color0_centroid = false;
      interp_mode color1_interp = interp_mode::none;
      bool color1_sample = false;
      bool color1_centroid = false;
      uint32_t advanced_blend_modes = 0;
   } fs;

   struct {
      std::array<unsigned, 3> workgroup_size_hint = {};
      unsigned user_data_components_amd = 0;
      unsigned derivative_group = 0;
      unsigned ptr_size = 0;
   } cs;

   struct {
      uint64_t ms_cross_invocation_output_access = 0;
      unsigned max_vertices_out = 0;
      unsigned max_primitives_out = 0;
      unsigned primitive_type = 0;
      bool nv = false;
   } mesh;
};

/*
 * A decl_var line.  The GLSL type is kept by name ("vec4", "sampler2D",
 * "vec4[9]"); type_components() gives the component count nir_print derives
 * from it.
 */
struct variable {
   bool bindless = false;
   bool centroid = false;
   bool sample = false;
   bool patch = false;
   bool invariant = false;
   bool per_view = false;
   bool per_primitive = false;
   bool ray_query = false;
   bool fb_fetch_output = false;  /* printed by 25.0 only */
   uint32_t mode = 0;  /* one variable_mode bit */
   interp_mode interpolation = interp_mode::none;
   uint32_t access = 0;
   std::string image_format;  /* printed for image types only */
   unsigned precision = 0;    /* 0 none, 1 highp, 2 mediump, 3 lowp */
   std::string type;
   std::string name;          /* as printed, with any "#N" suffix */

   /* Only printed for in/out/uniform/system/ubo/ssbo/image modes. */
   int location = 0;          /* -1 prints "~0" */
   unsigned location_frac = 0;
   unsigned driver_location = 0;
   unsigned binding = 0;
   bool compact = false;

   /* The text after the declaration proper (" = { ... }", " = null", an
    * inline sampler or " = &var"), kept verbatim.
    */
   std::string initializer;

   unsigned line = 0;  /* where it was read, 0 if built in memory */
};

/* Component count of a GLSL type name, ignoring arrays; 0 for structs and
 * opaque types.  Matches glsl_get_components(glsl_without_array(t)).
 */
unsigned type_components(const std::string &glsl_type);

struct instr;
struct block;
struct function_impl;

/*
 * A list of an instruction's sources with room for N of them inside the
 * instruction: nearly every ALU and intrinsic instruction has at most
 * four, and a std::vector cost a malloc and a free per instruction read
 * (a sixth of reading).  A longer list lives on the heap.  The interface
 * is the part of std::vector's the sources need.
 */
template <typename T, unsigned N>
class src_list {
public:
   size_t size() const { return size_; }
   bool empty() const { return size_ == 0; }
   T *data() { return size_ > N ? heap_.data() : inline_.data(); }
   const T *data() const { return size_ > N ? heap_.data() : inline_.data(); }
   T *begin() { return data(); }
   T *end() { return data() + size_; }
   const T *begin() const { return data(); }
   const T *end() const { return data() + size_; }
   T &operator[](size_t i) { return data()[i]; }
   const T &operator[](size_t i) const { return data()[i]; }
   T &front() { return data()[0]; }
   const T &front() const { return data()[0]; }
   T &back() { return data()[size_ - 1]; }
   const T &back() const { return data()[size_ - 1]; }

   /* New elements are T(), as std::vector's. */
   void resize(size_t n)
   {
      if (n > N) {
         if (size_ <= N)
            heap_.assign(inline_.begin(), inline_.begin() + size_);
         heap_.resize(n);
      } else {
         if (size_ > N)
            std::copy(heap_.begin(), heap_.begin() + n, inline_.begin());
         for (size_t i = size_ > N ? n : size_; i < n; i++)
            inline_[i] = T();
         heap_.clear();
      }
      size_ = n;
   }
   void push_back(const T &x)
   {
      const T copy = x;   /* x may be one of ours, which resize moves */
      const size_t n = size_;
      resize(n + 1);
      (*this)[n] = copy;
   }
   void clear() { resize(0); }

private:
   size_t size_ = 0;
   std::array<T, N> inline_{};
   std::vector<T> heap_;
};

/* An SSA value. */
struct def {
   instr *parent = nullptr;
   unsigned index = 0;
   uint8_t bit_size = 32;       /* 1, 8, 16, 32 or 64 */
   uint8_t num_components = 1;  /* 1-5, 8 or 16 */
   bool divergent = false;
};

struct src {
   def *ssa = nullptr;
};

enum class instr_type : uint8_t {
   alu,
   intrinsic,
   tex,
   load_const,
   undef,
   phi,
   jump,
};

struct instr {
   explicit instr(instr_type t) : type(t) {}
   virtual ~instr() = default;
   instr(const instr &) = delete;
   instr &operator=(const instr &) = delete;

   /* The value this instruction defines, or nullptr. */
   virtual def *get_def() { return nullptr; }
   const def *get_def() const { return const_cast<instr *>(this)->get_def(); }

   const instr_type type;
   nir::block *block = nullptr;
   unsigned line = 0;  /* source line it was read from, 0 if built */
};

struct alu_src {
   def *ssa = nullptr;
   std::array<uint8_t, 16> swizzle = {0, 1, 2, 3, 4, 5, 6, 7,
                                      8, 9, 10, 11, 12, 13, 14, 15};
};

struct alu_instr : instr {
   alu_instr() : instr(instr_type::alu) {}
   def *get_def() override { return &dest; }

   alu_op op = alu_op::mov;
   bool exact = false;             /* printed as "op!" */
   bool no_signed_wrap = false;    /* ".nsw" */
   bool no_unsigned_wrap = false;  /* ".nuw" */
   def dest;
   src_list<alu_src, 4> srcs;      /* op_info(op).num_inputs entries */

   /* Components read from source i: the op's input size, or the number of
    * components of the destination for per-component inputs.
    */
   unsigned src_components(unsigned i) const;
};

/* nir_io_semantics, unpacked. */
struct io_semantics {
   unsigned location = 0;
   unsigned num_slots = 0;
   bool dual_source_blend_index = false;
   bool fb_fetch_output = false;
   unsigned gs_streams = 0;
   bool medium_precision = false;
   bool per_view = false;
   bool high_16bits = false;
   bool invariant = false;
   bool high_dvec2 = false;
   bool no_varying = false;
   bool no_sysval_output = false;
   bool interp_explicit_strict = false;    /* 25.0 */
   bool fb_fetch_output_coherent = false;  /* 25.0 */

   /* The 32-bit encoding Mesa keeps in const_index[]. */
   uint32_t pack() const;
   static io_semantics unpack(uint32_t bits);
};

/* nir_io_xfb: transform feedback for two components. */
struct io_xfb {
   struct {
      uint8_t num_components = 0;  /* 0: disabled */
      uint8_t buffer = 0;
      uint8_t offset = 0;          /* in dwords */
   } out[2];

   uint32_t pack() const;
   static io_xfb unpack(uint32_t bits);
};

struct intrinsic_instr : instr {
   intrinsic_instr() : instr(instr_type::intrinsic) {}
   def *get_def() override { return op_info(op).has_dest ? &dest : nullptr; }

   intrinsic_op op = intrinsic_op::nop;
   def dest;                  /* meaningful when op_info(op).has_dest */
   src_list<src, 4> srcs;     /* op_info(op).num_srcs entries */
   /* The vector width of the instruction (nir_intrinsic_instr::
    * num_components): the size of the sources and def the table gives as 0.
    */
   unsigned num_components = 0;

   /* 25.0: the name in the comment after an IO intrinsic, kept as read
    * (25.0 prints the intrinsic's own name when it has one, which the text
    * does not otherwise carry).  23.3's comment is recomputed.
    */
   std::string name;

   /* Constant indices, by kind.  Only the kinds op_info(op) lists are
    * meaningful (and printed).
    */
   std::array<int32_t, num_intrinsic_indices> indices = {};

   bool has_index(intrinsic_index i) const;
   int32_t index(intrinsic_index i) const { return indices[unsigned(i)]; }
   void set_index(intrinsic_index i, int32_t v) { indices[unsigned(i)] = v; }

   io_semantics get_io_semantics() const
   {
      return io_semantics::unpack(index(intrinsic_index::io_semantics));
   }
};

/* The type of an intrinsic's source / destination where NIR knows one
 * (nir_intrinsic_instr_src_type / _dest_type): the SRC_TYPE / DEST_TYPE
 * index of IO loads and stores, int for memory and IO offsets, otherwise
 * type_invalid.
 */
alu_type intrinsic_src_type(const intrinsic_instr &in, unsigned src);
alu_type intrinsic_dest_type(const intrinsic_instr &in);

/* For load_reg, store_reg and their _indirect forms: the @decl_reg that
 * declares the register they access (its num_components, num_array_elems,
 * bit_size and divergent indices describe it), or nullptr if the handle
 * source is not a decl_reg.
 */
const intrinsic_instr *reg_decl(const intrinsic_instr &in);

struct tex_src {
   def *ssa = nullptr;
   tex_src_type type = tex_src_type::coord;
};

/* The tg4 offsets a new texture instruction has (the 2x2 footprint). */
constexpr std::array<std::array<int8_t, 2>, 4> default_tg4_offsets = {
   {{0, 1}, {1, 1}, {1, 0}, {0, 0}}};

struct tex_instr : instr {
   tex_instr() : instr(instr_type::tex) {}
   def *get_def() override { return &dest; }

   tex_op op = tex_op::tex;
   alu_type dest_type = type_float32;
   def dest;
   std::vector<tex_src> srcs;
   unsigned texture_index = 0;
   unsigned sampler_index = 0;
   unsigned component = 0;               /* tg4 gather component */
   bool is_gather_implicit_lod = false;
   /* Gather offsets; printed only when they differ from the defaults. */
   std::array<std::array<int8_t, 2>, 4> tg4_offsets = default_tg4_offsets;
   bool texture_non_uniform = false;
   bool sampler_non_uniform = false;
   bool is_sparse = false;

   /* Not in the text; the reader derives them from the sources.  nir_print
    * does not write the sampler dimension or arrayness at all.
    */
   unsigned coord_components = 0;        /* of the coord source */
   bool is_shadow = false;               /* has a comparator */

   int src_index(tex_src_type t) const;  /* -1 if absent */
   bool has_explicit_tg4_offsets() const;
};

/* A constant component: the value sits in the low bit_size bits. */
union const_value {
   uint64_t u64;
   int64_t i64;
   bool b;
   float f32;
   double f64;
   int8_t i8;
   uint8_t u8;
   int16_t i16;
   uint16_t u16;
   int32_t i32;
   uint32_t u32;
};

/* Builds a constant of bit_size bits from the low bits of v. */
const_value const_value_from_bits(uint64_t v, unsigned bit_size);
/* The value's bits, zero-extended from bit_size. */
uint64_t const_value_bits(const_value v, unsigned bit_size);

struct load_const_instr : instr {
   load_const_instr() : instr(instr_type::load_const) {}
   def *get_def() override { return &dest; }

   def dest;
   std::vector<const_value> values;  /* dest.num_components entries */
};

struct undef_instr : instr {
   undef_instr() : instr(instr_type::undef) {}
   def *get_def() override { return &dest; }

   def dest;
};

struct phi_src {
   block *pred = nullptr;
   def *ssa = nullptr;
};

struct phi_instr : instr {
   phi_instr() : instr(instr_type::phi) {}
   def *get_def() override { return &dest; }

   def dest;
   std::vector<phi_src> srcs;
};

enum class jump_type : uint8_t {
   return_,
   halt,
   break_,
   continue_,
};

struct jump_instr : instr {
   jump_instr() : instr(instr_type::jump) {}

   jump_type kind = jump_type::break_;
};

/* Structured control flow. */
enum class cf_type : uint8_t {
   block,
   if_,
   loop,
};

struct cf_node;
using cf_list = std::vector<std::unique_ptr<cf_node>>;

struct cf_node {
   explicit cf_node(cf_type t) : type(t) {}
   virtual ~cf_node() = default;
   cf_node(const cf_node &) = delete;
   cf_node &operator=(const cf_node &) = delete;

   const cf_type type;
   cf_node *parent = nullptr;  /* the enclosing if/loop, nullptr at top */
};

struct block : cf_node {
   block() : cf_node(cf_type::block) {}

   unsigned index = 0;  /* nir_index_blocks() order */
   bool divergent = false;  /* 25.0's "div block" */
   std::vector<std::unique_ptr<instr>> instrs;

   /* Filled in by build_cfg(); predecessors sorted by index. */
   std::vector<block *> preds;
   std::array<block *, 2> succs = {nullptr, nullptr};

   unsigned line = 0;
};

enum class selection_control : uint8_t {
   none = 0,
   flatten = 1,
   dont_flatten = 2,
   divergent_always_taken = 3,
};

struct if_ : cf_node {
   if_() : cf_node(cf_type::if_) {}

   src condition;
   selection_control control = selection_control::none;
   cf_list then_list;
   cf_list else_list;
   unsigned line = 0;
};

struct loop : cf_node {
   loop() : cf_node(cf_type::loop) {}

   cf_list body;
   cf_list continue_list;  /* empty unless the loop has a continue construct */
   bool divergent_break = false;  /* 25.0's "div loop" */
   unsigned line = 0;
};

struct function;

struct function_impl {
   nir::function *function = nullptr;
   std::vector<variable> locals;  /* function_temp variables */
   std::string preamble;          /* name of the preamble function, if any */
   cf_list body;
   /* The exit block: not part of body, has no instructions. */
   std::unique_ptr<block> end_block = std::make_unique<block>();
   /* One more than the largest SSA index in use, at least; nir_print pads
    * SSA names to its number of digits.
    */
   unsigned ssa_alloc = 0;
};

struct function {
   std::string name;
   unsigned num_params = 0;
   /* 25.0 prints the parameters ("32x2 name, 32"): kept as written. */
   std::string params;
   bool dont_inline = false;
   bool should_inline = false;
   bool is_exported = false;    /* 25.0 */
   bool is_entrypoint = false;  /* 25.0 */
   std::unique_ptr<function_impl> impl;  /* nullptr for a declaration */
};

struct shader {
   print_dialect dialect = print_dialect::mesa_23_3;
   shader_info info;
   unsigned num_inputs = 0;
   unsigned num_outputs = 0;
   unsigned num_uniforms = 0;
   unsigned scratch_size = 0;
   unsigned constant_data_size = 0;
   std::vector<variable> variables;  /* in printing order */
   std::vector<std::unique_ptr<function>> functions;
   std::string file;  /* the name it was read from, for messages */
};

/*
 * Text interface (nir_reader.cpp, nir_print.cpp).
 *
 * read_shader() parses nir_print text; errors throw ibis::error with
 * "file:line:col: message".  The result has its CFG built but is not
 * validated: call validate() for that.
 */
std::unique_ptr<shader> read_shader(const std::string &text,
                                    const std::string &filename = "<input>");
std::unique_ptr<shader> read_shader_file(const std::string &path);
std::string print_shader(const shader &s);

/*
 * CFG and analysis helpers (nir_cfg.cpp).
 */

/* Numbers blocks in program order and recomputes preds/succs and parents
 * from the cf tree.  The end block gets the last index.
 */
void build_cfg(function_impl &impl);

/* The successors the cf tree gives each block but the end block, whatever
 * the blocks' succs and the nodes' parents say.
 */
std::unordered_map<const block *, std::array<block *, 2>>
structured_successors(const function_impl &impl);

/* All blocks of impl in program order, end block last. */
std::vector<block *> blocks_in_order(const function_impl &impl);

/* The first block of a cf list (cf lists start with a block). */
block *first_block(const cf_list &list);
/* The last block of a cf list. */
block *last_block(const cf_list &list);

/* The implementation of main (or of the only function). */
function_impl *entrypoint(const shader &s);

/*
 * Validation (nir_validate.cpp): throws ibis::error naming the offending
 * instruction and its line.
 */
void validate(const shader &s);

} /* namespace ibis::nir */
