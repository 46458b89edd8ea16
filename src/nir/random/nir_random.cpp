/*
 * The random NIR program generator (see nir_random.h and docs/random.md).
 *
 * Programs are built top-down: a cf list gets a budget of instructions and
 * spends it on ALU operations, loads, subgroup operations, texture
 * instructions, register traffic, ifs and loops.  Every value records what
 * the generator knows of it (a bound on its magnitude as a float, whether it
 * is a 0/~0 boolean), which is how undefined or unstable results are kept
 * out: an operand that might leave an operation's safe domain is first
 * clamped or masked by extra instructions.
 */
#include "nir/random/nir_random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "nir/nir_eval_helpers.h"
#include "util/ibis_error.h"

namespace ibis::nir {

namespace {

/* xoshiro256** seeded through splitmix64: the same stream everywhere. */
class rng {
public:
   explicit rng(uint64_t seed)
   {
      for (uint64_t &w : s_) {
         seed += 0x9e3779b97f4a7c15ull;
         uint64_t z = seed;
         z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
         z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
         w = z ^ (z >> 31);
      }
   }

   uint64_t next()
   {
      const uint64_t result = rotl(s_[1] * 5, 7) * 9;
      const uint64_t t = s_[1] << 17;
      s_[2] ^= s_[0];
      s_[3] ^= s_[1];
      s_[1] ^= s_[2];
      s_[0] ^= s_[3];
      s_[2] ^= t;
      s_[3] = rotl(s_[3], 45);
      return result;
   }

   /* Uniform enough in [0, n); the modulo bias does not matter here. */
   unsigned below(unsigned n) { return n ? unsigned(next() % n) : 0; }
   bool chance(unsigned percent) { return below(100) < percent; }

   template <class T> const T &pick(const std::vector<T> &v)
   {
      IBIS_CHECK(!v.empty(), "pick from an empty list");
      return v[below(unsigned(v.size()))];
   }

private:
   static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
   uint64_t s_[4];
};

constexpr double unbounded = std::numeric_limits<double>::infinity();

/* Bit-size masks of the unsized operands an opcode may take. */
enum : uint8_t { s8 = 1, s16 = 2, s32 = 4, s64 = 8, s_int = 15, s_big = 14 };

/* How the generator feeds an opcode. */
enum class kind : uint8_t {
   int_op,     /* integer operands, nothing to guard */
   bitwise,    /* iand/ior/ixor/inot: booleans stay booleans */
   division,   /* the divisor must not be 0, nor INT_MIN / -1 */
   shift,      /* the count is masked to the bit size */
   extract,    /* the byte/word number is a constant */
   compare,    /* result is a 32-bit boolean */
   csel,       /* b32csel: source 0 is a boolean */
   from_bool,  /* b2f/b2i */
   float_op,   /* unsized float arithmetic, bounded */
   convert,    /* numeric conversions */
   find,       /* bit counts and searches: 32-bit source */
   sized,      /* every operand sized */
   vec,        /* vec2..vec16 */
};

struct op_entry {
   alu_op op;
   uint8_t sizes;
   kind k;
};

/*
 * The ALU opcodes of final-form NIR for Gen9: those brw_fs_nir.cpp's
 * nir_emit_alu handles (Mesa 23.3) minus what the Gen9 compiler options
 * lower before it (fdot, reductions, packing built-ins, uadd_carry,
 * bitfield_insert/extract, ldexp, fsub, urol/uror, iadd3, sdot/udot, 64-bit
 * division and multiply, fp64 rounding and transcendentals), restricted to
 * the bit sizes nir_lower_bit_size leaves alone (no 8-bit operation with
 * two sources, no 16-bit division or rounding).
 */
const op_entry final_form_ops[] = {
   {alu_op::mov, s_int, kind::int_op},
   {alu_op::ineg, s_int, kind::int_op},
   {alu_op::iabs, s_int, kind::int_op},
   {alu_op::inot, s_int, kind::bitwise},
   {alu_op::iand, s_big, kind::bitwise},
   {alu_op::ior, s_big, kind::bitwise},
   {alu_op::ixor, s_big, kind::bitwise},
   {alu_op::iadd, s_big, kind::int_op},
   {alu_op::imul, s16 | s32, kind::int_op},
   {alu_op::imin, s_big, kind::int_op},
   {alu_op::imax, s_big, kind::int_op},
   {alu_op::umin, s_big, kind::int_op},
   {alu_op::umax, s_big, kind::int_op},
   {alu_op::iadd_sat, s16 | s32, kind::int_op},
   {alu_op::uadd_sat, s16 | s32, kind::int_op},
   {alu_op::isub_sat, s16 | s32, kind::int_op},
   {alu_op::usub_sat, s16 | s32, kind::int_op},
   {alu_op::ihadd, s16 | s32, kind::int_op},
   {alu_op::uhadd, s16 | s32, kind::int_op},
   {alu_op::irhadd, s16 | s32, kind::int_op},
   {alu_op::urhadd, s16 | s32, kind::int_op},
   {alu_op::imul_high, s32, kind::int_op},
   {alu_op::umul_high, s32, kind::int_op},
   {alu_op::idiv, s32, kind::division},
   {alu_op::udiv, s32, kind::division},
   {alu_op::irem, s32, kind::division},
   {alu_op::umod, s32, kind::division},
   {alu_op::imod, s32, kind::division},
   {alu_op::ishl, s_big, kind::shift},
   {alu_op::ishr, s_big, kind::shift},
   {alu_op::ushr, s_big, kind::shift},
   {alu_op::extract_u8, s_big, kind::extract},
   {alu_op::extract_i8, s_big, kind::extract},
   {alu_op::extract_u16, s32 | s64, kind::extract},
   {alu_op::extract_i16, s32 | s64, kind::extract},
   {alu_op::ieq32, s_big, kind::compare},
   {alu_op::ine32, s_big, kind::compare},
   {alu_op::ilt32, s_big, kind::compare},
   {alu_op::ige32, s_big, kind::compare},
   {alu_op::ult32, s_big, kind::compare},
   {alu_op::uge32, s_big, kind::compare},
   {alu_op::feq32, s_big, kind::compare},
   {alu_op::fneu32, s_big, kind::compare},
   {alu_op::flt32, s_big, kind::compare},
   {alu_op::fge32, s_big, kind::compare},
   {alu_op::b32csel, s_big, kind::csel},
   {alu_op::b2f16, s32, kind::from_bool},
   {alu_op::b2f32, s32, kind::from_bool},
   {alu_op::b2f64, s32, kind::from_bool},
   {alu_op::b2i8, s32, kind::from_bool},
   {alu_op::b2i16, s32, kind::from_bool},
   {alu_op::b2i32, s32, kind::from_bool},
   {alu_op::b2i64, s32, kind::from_bool},
   {alu_op::fneg, s_big, kind::float_op},
   {alu_op::fabs, s_big, kind::float_op},
   {alu_op::fsat, s_big, kind::float_op},
   {alu_op::fsign, s16 | s32, kind::float_op},
   {alu_op::fadd, s_big, kind::float_op},
   {alu_op::fmul, s_big, kind::float_op},
   {alu_op::ffma, s_big, kind::float_op},
   {alu_op::flrp, s32, kind::float_op},
   {alu_op::fmin, s_big, kind::float_op},
   {alu_op::fmax, s_big, kind::float_op},
   {alu_op::ffloor, s32, kind::float_op},
   {alu_op::fceil, s32, kind::float_op},
   {alu_op::ftrunc, s32, kind::float_op},
   {alu_op::ffract, s32, kind::float_op},
   {alu_op::fround_even, s32, kind::float_op},
   {alu_op::fquantize2f16, s32, kind::float_op},
   {alu_op::frcp, s16 | s32, kind::float_op},
   {alu_op::frsq, s16 | s32, kind::float_op},
   {alu_op::fsqrt, s16 | s32, kind::float_op},
   {alu_op::fexp2, s16 | s32, kind::float_op},
   {alu_op::flog2, s16 | s32, kind::float_op},
   {alu_op::fsin, s16 | s32, kind::float_op},
   {alu_op::fcos, s16 | s32, kind::float_op},
   {alu_op::fpow, s16 | s32, kind::float_op},
   {alu_op::fddx, s32, kind::float_op},
   {alu_op::fddy, s32, kind::float_op},
   {alu_op::fddx_fine, s32, kind::float_op},
   {alu_op::fddy_fine, s32, kind::float_op},
   {alu_op::fddx_coarse, s32, kind::float_op},
   {alu_op::fddy_coarse, s32, kind::float_op},
   {alu_op::f2f16, s32 | s64, kind::convert},
   {alu_op::f2f16_rtne, s32 | s64, kind::convert},
   {alu_op::f2f16_rtz, s32 | s64, kind::convert},
   {alu_op::f2f32, s_big, kind::convert},
   {alu_op::f2f64, s_big, kind::convert},
   {alu_op::f2i8, s_big, kind::convert},
   {alu_op::f2i16, s_big, kind::convert},
   {alu_op::f2i32, s_big, kind::convert},
   {alu_op::f2i64, s_big, kind::convert},
   {alu_op::f2u8, s_big, kind::convert},
   {alu_op::f2u16, s_big, kind::convert},
   {alu_op::f2u32, s_big, kind::convert},
   {alu_op::f2u64, s_big, kind::convert},
   {alu_op::i2f16, s_int, kind::convert},
   {alu_op::i2f32, s_int, kind::convert},
   {alu_op::i2f64, s_int, kind::convert},
   {alu_op::u2f16, s_int, kind::convert},
   {alu_op::u2f32, s_int, kind::convert},
   {alu_op::u2f64, s_int, kind::convert},
   {alu_op::i2i8, s_int, kind::convert},
   {alu_op::i2i16, s_int, kind::convert},
   {alu_op::i2i32, s_int, kind::convert},
   {alu_op::i2i64, s_int, kind::convert},
   {alu_op::u2u8, s_int, kind::convert},
   {alu_op::u2u16, s_int, kind::convert},
   {alu_op::u2u32, s_int, kind::convert},
   {alu_op::u2u64, s_int, kind::convert},
   {alu_op::bit_count, s32, kind::find},
   {alu_op::ifind_msb, s32, kind::find},
   {alu_op::find_lsb, s32, kind::find},
   {alu_op::uclz, s32, kind::find},
   {alu_op::bitfield_reverse, 0, kind::sized},
   {alu_op::bfm, 0, kind::sized},
   {alu_op::bfi, 0, kind::sized},
   {alu_op::ubfe, 0, kind::sized},
   {alu_op::ibfe, 0, kind::sized},
   {alu_op::imul_32x16, 0, kind::sized},
   {alu_op::umul_32x16, 0, kind::sized},
   {alu_op::imul_2x32_64, 0, kind::sized},
   {alu_op::umul_2x32_64, 0, kind::sized},
   {alu_op::pack_32_2x16_split, 0, kind::sized},
   {alu_op::pack_32_4x8_split, 0, kind::sized},
   {alu_op::pack_64_2x32_split, 0, kind::sized},
   {alu_op::unpack_32_2x16_split_x, 0, kind::sized},
   {alu_op::unpack_32_2x16_split_y, 0, kind::sized},
   {alu_op::unpack_64_2x32_split_x, 0, kind::sized},
   {alu_op::unpack_64_2x32_split_y, 0, kind::sized},
   {alu_op::pack_half_2x16_split, 0, kind::sized},
   {alu_op::unpack_half_2x16_split_x, 0, kind::sized},
   {alu_op::unpack_half_2x16_split_y, 0, kind::sized},
   {alu_op::unpack_half_2x16_split_x_flush_to_zero, 0, kind::sized},
   {alu_op::unpack_half_2x16_split_y_flush_to_zero, 0, kind::sized},
   {alu_op::vec2, s_big, kind::vec},
   {alu_op::vec3, s_big, kind::vec},
   {alu_op::vec4, s_big, kind::vec},
   {alu_op::vec8, s_big, kind::vec},
   {alu_op::vec16, s_big, kind::vec},
};

bool
is_approximate(alu_op op)
{
   switch (op) {
   case alu_op::frcp: case alu_op::frsq: case alu_op::fsqrt:
   case alu_op::fexp2: case alu_op::flog2: case alu_op::fsin:
   case alu_op::fcos: case alu_op::fpow:
      return true;
   default:
      return false;
   }
}

bool
is_derivative(alu_op op)
{
   return op_info(op).props & alu_derivative;
}

/* A bit size as its mask bit. */
uint8_t
size_bit(unsigned bits)
{
   switch (bits) {
   case 8: return s8;
   case 16: return s16;
   case 32: return s32;
   case 64: return s64;
   default: return 0;
   }
}

/* Largest magnitude a float of this size may keep without a clamp, and the
 * smallest the positive-domain guards produce.  Both leave room so that
 * results of bounded operands stay finite and normal.
 */
double
float_cap(unsigned bits)
{
   return bits == 16 ? 0x1p14 : 0x1p100;
}

double
float_tiny(unsigned bits)
{
   return bits == 16 ? 0x1p-14 : 0x1p-100;
}

/* Domain an operand must be in before an operation reads it. */
enum class domain : uint8_t { any, nonneg, positive };

struct float_rule {
   double lim[3] = {unbounded, unbounded, unbounded};
   domain dom[3] = {domain::any, domain::any, domain::any};
   double tiny = 0;  /* lower bound of positive operands; 0: float_tiny */
};

/* Operand limits of a bounded float operation. */
float_rule
rule_for(alu_op op, unsigned bits)
{
   const double cap = float_cap(bits);
   const bool half = bits == 16;
   float_rule r;
   auto all = [&](double l) { r.lim[0] = r.lim[1] = r.lim[2] = l; };
   switch (op) {
   case alu_op::fadd: all(cap / 2); break;
   case alu_op::fmul: all(std::sqrt(cap)); break;
   case alu_op::ffma:
      all(half ? 64 : 0x1p49);
      r.lim[2] = cap / 2;
      break;
   case alu_op::flrp:
      all(cap / 16);
      r.lim[2] = 4;
      break;
   case alu_op::fsat: break;  /* NaN saturates to 0 on both sides */
   case alu_op::fquantize2f16: all(float_cap(16)); break;
   case alu_op::fsin: case alu_op::fcos: all(half ? 64 : 1024); break;
   case alu_op::fexp2: all(half ? 13 : 99); break;
   case alu_op::flog2: case alu_op::frcp: case alu_op::frsq:
   case alu_op::fsqrt:
      all(cap);
      r.dom[0] = domain::positive;
      break;
   case alu_op::fpow:
      r.lim[0] = half ? 4 : 0x1p10;
      r.dom[0] = domain::positive;
      r.tiny = 1 / r.lim[0];
      r.lim[1] = half ? 7 : 10;
      break;
   case alu_op::fddx: case alu_op::fddy: case alu_op::fddx_fine:
   case alu_op::fddy_fine: case alu_op::fddx_coarse: case alu_op::fddy_coarse:
      all(cap / 2);
      break;
   default: all(cap); break;
   }
   return r;
}

/* Bound of a bounded float operation's result. */
double
result_bound(alu_op op, unsigned bits, const double *b)
{
   const bool half = bits == 16;
   switch (op) {
   case alu_op::fadd: return b[0] + b[1];
   case alu_op::fmul: return b[0] * b[1];
   case alu_op::ffma: return b[0] * b[1] + b[2];
   case alu_op::flrp: return b[0] * 5 + b[1] * 4;
   case alu_op::fmin: case alu_op::fmax: return std::max(b[0], b[1]);
   case alu_op::fsat: case alu_op::fsign: case alu_op::ffract:
   case alu_op::fsin: case alu_op::fcos:
      return 1;
   case alu_op::ffloor: case alu_op::fceil: case alu_op::ftrunc:
   case alu_op::fround_even:
      return b[0] + 1;
   case alu_op::fexp2: return std::exp2(b[0]);
   case alu_op::flog2: return half ? 15 : 101;
   case alu_op::frcp: return 1 / float_tiny(bits);
   case alu_op::frsq: return 1 / std::sqrt(float_tiny(bits));
   case alu_op::fsqrt: return std::sqrt(b[0]) + 1;
   case alu_op::fpow: return half ? 0x1p14 : 0x1p100;
   case alu_op::fddx: case alu_op::fddy: case alu_op::fddx_fine:
   case alu_op::fddy_fine: case alu_op::fddx_coarse: case alu_op::fddy_coarse:
      return 2 * b[0];
   default: return b[0];  /* fneg, fabs, fquantize2f16 */
   }
}

/* What the generator knows of a value (all its components). */
struct value_info {
   double bound = unbounded;  /* |x| as a float; unbounded: maybe NaN/inf */
   bool is_bool = false;      /* every component is 0 or ~0 */
};

/* One component of a value. */
struct operand {
   def *d = nullptr;
   uint8_t comp = 0;
};

struct loop_state {
   bool uniform_exit = false;  /* every break is taken by all channels */
   /* Phi mode: the value each break carries to the exit phi. */
   unsigned exit_bits = 32;
   std::vector<std::pair<block *, def *>> exits;
   /* Register form: the counter's register (continues increment it). */
   def *counter = nullptr;
};

/* Where code is being generated. */
struct context {
   /* No divergent if and no loop with a divergent exit encloses this
    * point: every channel that started the shader runs it together.
    */
   bool uniform = true;
   loop_state *loop = nullptr;
   unsigned depth = 0;
};

struct reg_info {
   def *decl = nullptr;
   bool locked = false;  /* a loop counter: only its loop writes it */
};

constexpr unsigned push_size = 64;         /* bytes of push constants */
constexpr unsigned shared_slot_size = 16;  /* bytes per invocation */

/* Texture and buffer layout the programs assume (docs/random.md). */
constexpr unsigned num_textures = 2;
/* The unit of sampler2DShadow lookups, declared when one is emitted. */
constexpr unsigned shadow_unit = 2;
/* Images: a read-only 2D r32ui image, a buffer r32i image and a 2D
 * array rgba32f image whose only writes are each invocation's own texel.
 */
constexpr unsigned image_ro = 3;
constexpr unsigned image_buf = 4;
constexpr unsigned image_arr = 5;
/* A second read-only image like image 3, for loads whose image index
 * differs between channels.
 */
constexpr unsigned image_ro2 = 6;
constexpr unsigned ubo_size = 256;
constexpr unsigned ssbo_in_size = 256;
constexpr unsigned ssbo_slot_size = 64;   /* bytes per invocation */
/* Compute workgroup sizes (invocations along x): several threads at
 * every SIMD width but 32 for the smaller ones; 24 leaves a partial
 * thread at SIMD16.
 */
const std::vector<unsigned> cs_workgroups = {32, 64, 24};
/* Cross-invocation exchanges through shared memory, each in a region
 * of its own (one dword per invocation) after the invocations' slots.
 */
constexpr unsigned max_exchanges = 4;
constexpr unsigned num_vs_attribs = 4;
constexpr unsigned num_fs_varyings = 3;
constexpr unsigned loc_vert_attrib_generic0 = 15;
constexpr unsigned loc_varying_pos = 0;
constexpr unsigned loc_varying_var0 = 32;
constexpr unsigned loc_frag_data0 = 4;

class generator {
public:
   explicit generator(const random_options &o) : o_(o), rng_(o.seed) {}
   std::unique_ptr<shader> run();

private:
   /* Building blocks. */
   def *init_def(def &d, instr *in, unsigned bits, unsigned comps, bool div);
   template <class T> T *emit(std::unique_ptr<T> in);
   void insert_at_top(std::unique_ptr<instr> in, bool is_decl);
   void make_visible(def *d) { visible_.push_back(d); }
   value_info &info(const def *d) { return infos_[d->index]; }
   block *new_block(cf_list &list, cf_node *parent);

   def *imm(unsigned bits, uint64_t v, unsigned comps = 1);
   def *fimm(unsigned bits, double v);
   def *alu(alu_op op, unsigned bits, const std::vector<operand> &srcs);
   intrinsic_instr *intrinsic(intrinsic_op op, unsigned comps);
   def *finish_intrinsic(intrinsic_instr *in, unsigned bits, bool div);

   /* Operands. */
   bool size_enabled(unsigned bits) const;
   std::vector<unsigned> enabled_sizes(uint8_t mask) const;
   operand any_value(unsigned bits, bool want_con = false);
   operand float_operand(unsigned bits, double lim, domain dom,
                         bool want_con = false, double tiny = 0);
   operand bool_operand(bool want_con);
   operand const_operand(unsigned bits, uint64_t v) { return {imm(bits, v), 0}; }
   operand random_const(unsigned bits);
   operand raw32(operand v);
   operand mixed_word();
   def *shaped_value(unsigned bits, unsigned comps, bool want_con);
   def *condition(bool want_con);

   /* Instructions. */
   bool gen_alu(const context &ctx);
   bool gen_alu_op(const op_entry &e, unsigned bits);
   def *compare(alu_op op, unsigned bits, bool want_con);
   def *gen_compare(bool want_con);
   bool gen_load();
   bool gen_subgroup(const context &ctx);
   bool gen_texture(const context &ctx);
   bool gen_ssbo_store();
   bool gen_push_load();
   bool gen_shared();
   bool gen_exchange(const context &ctx);
   void gen_exchange_loop(unsigned region);
   void exchange(unsigned region, def *salt = nullptr);
   void barrier();
   bool gen_atomic();
   bool gen_image();
   def *subgroup_first_lane();
   def *load_subgroup_invocation();

   /* Registers. */
   def *new_reg(unsigned bits, unsigned comps, bool divergent);
   void store_reg(def *reg, def *value, unsigned wrmask);
   def *load_reg(def *reg);
   bool gen_reg_traffic(const context &ctx);
   def *new_reg_array(unsigned bits, unsigned comps, unsigned elems);
   def *array_index(unsigned range);
   void gen_array_traffic();
   std::vector<operand> array_digests();

   /* Control flow. */
   void gen_list(cf_list &list, cf_node *parent, unsigned budget,
                 const context &ctx);
   void gen_code(unsigned budget, const context &ctx);
   if_ *push_if(def *cond);
   void gen_if(unsigned budget, const context &ctx);
   void emit_break(loop_state &lp, def *exit_value);
   void gen_break_if(const context &ctx);
   bool gen_continue_if(const context &ctx);
   def *gen_discard();
   void gen_loop(unsigned budget, const context &ctx);
   loop *begin_loop();

   /* Stage plumbing. */
   def *zero_offset();
   void gen_inputs();
   def *ssbo_slot(unsigned byte);
   /* Images. */
   intrinsic_instr *image_access(intrinsic_op op, unsigned image, def *coord, unsigned comps,
                                 def *index = nullptr);
   def *own_texel(unsigned image);
   void image_store(unsigned image, def *coord, def *value);
   void store_ssbo(def *value, def *offset, unsigned align, unsigned buffer = 1);
   void store_output(def *value, unsigned base, unsigned location,
                     alu_type type);
   void gen_outputs();
   void finish_info();

   const random_options &o_;
   rng rng_;
   std::unique_ptr<shader> sh_;
   function_impl *impl_ = nullptr;
   block *cur_ = nullptr;
   cf_list *cur_list_ = nullptr;   /* the list cur_ ends */
   cf_node *cur_parent_ = nullptr;
   block *entry_ = nullptr;
   unsigned num_decls_ = 0;        /* decl_regs open the entry block */
   unsigned entry_prefix_ = 0;     /* then their initial stores */

   std::vector<value_info> infos_;
   std::vector<def *> visible_;    /* values that dominate cur_ */
   std::vector<reg_info> regs_;
   std::vector<def *> arrays_;     /* register arrays (indirect_regs) */
   unsigned array_dwords_ = 0;     /* their size per channel */
   def *zero_offset_ = nullptr;
   def *local_index_ = nullptr;
   def *workgroup_id_ = nullptr;

   /* For the header. */
   uint32_t textures_used_ = 0;
   uint32_t samplers_used_ = 0;
   uint32_t txf_textures_ = 0;
   bool used_txs_ = false;
   bool used_gather_ = false;
   bool used_shadow_ = false;
   bool used_subgroups_ = false;
   bool used_quads_ = false;
   bool used_derivatives_ = false;
   bool used_ssbo_store_ = false;
   bool used_ssbo_ = false;
   bool used_ubo_ = false;
   bool used_push_ = false;
   bool used_shared_ = false;
   unsigned wg_ = 32;           /* compute workgroup size */
   unsigned exchanges_ = 0;     /* gen_exchange() regions used */
   std::vector<def *> exchanged_;   /* their loads: each reaches the output */
   uint32_t images_used_ = 0;
   def *frag_pixel_ = nullptr;   /* FS: the pixel's integer x, y */
};

/* ------------------------------------------------------------------ */
/* Building blocks */

def *
generator::init_def(def &d, instr *in, unsigned bits, unsigned comps, bool div)
{
   d.parent = in;
   d.index = impl_->ssa_alloc++;
   d.bit_size = uint8_t(bits);
   d.num_components = uint8_t(comps);
   d.divergent = div;
   infos_.resize(impl_->ssa_alloc);
   return &d;
}

template <class T>
T *
generator::emit(std::unique_ptr<T> in)
{
   T *p = in.get();
   p->block = cur_;
   cur_->instrs.push_back(std::move(in));
   return p;
}

block *
generator::new_block(cf_list &list, cf_node *parent)
{
   auto b = std::make_unique<block>();
   b->parent = parent;
   block *p = b.get();
   list.push_back(std::move(b));
   return p;
}

def *
generator::imm(unsigned bits, uint64_t v, unsigned comps)
{
   auto in = std::make_unique<load_const_instr>();
   init_def(in->dest, in.get(), bits, comps, false);
   for (unsigned i = 0; i < comps; i++)
      in->values.push_back(const_value_from_bits(v, bits));
   def *d = &emit(std::move(in))->dest;
   /* The bits read as a float: no clamp is needed where they are finite
    * and normal.  A denormal (a small integer's bits) is clamped like a
    * NaN: whether an operation flushes it is left open by NIR (execution
    * mode 0), and ibis, like Mesa, folds fmin(x, x) or x * 1 to a move
    * that keeps it while the interpreter's fmin flushes (random vs seed
    * 46).  The clamp's fmax/fmin flush it alike on both sides.
    */
   double f = unbounded;
   const const_value c = const_value_from_bits(v, bits);
   const double min_normal = bits == 16 ? 0x1p-14 : bits == 32 ? 0x1p-126 : 0x1p-1022;
   if (bits == 16)
      f = eval::half_to_float(c.u16);
   else if (bits == 32)
      f = c.f32;
   else if (bits == 64)
      f = c.f64;
   if (std::isfinite(f) && (f == 0 || std::fabs(f) >= min_normal))
      info(d).bound = std::fabs(f);
   return d;
}

/* A float constant; v must be exact in the type. */
def *
generator::fimm(unsigned bits, double v)
{
   uint64_t b;
   if (bits == 16) {
      b = eval::to_half(v, false);
   } else if (bits == 32) {
      const float f = float(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      b = u;
   } else {
      std::memcpy(&b, &v, 8);
   }
   def *d = imm(bits, b);
   info(d).bound = std::fabs(v);
   return d;
}

def *
generator::alu(alu_op op, unsigned bits, const std::vector<operand> &srcs)
{
   const alu_op_info &oi = op_info(op);
   IBIS_CHECK(srcs.size() == oi.num_inputs, "%s", oi.name);
   auto in = std::make_unique<alu_instr>();
   in->op = op;
   bool div = false;
   for (unsigned i = 0; i < oi.num_inputs; i++) {
      alu_src s;
      s.ssa = srcs[i].d;
      s.swizzle[0] = srcs[i].comp;
      const unsigned want = type_size(oi.input_types[i]) ? type_size(oi.input_types[i]) : bits;
      IBIS_CHECK(srcs[i].d->bit_size == want, "%s src %u: %u-bit, wants %u",
                 oi.name, i, srcs[i].d->bit_size, want);
      div |= srcs[i].d->divergent;
      in->srcs.push_back(s);
   }
   const unsigned out_bits = type_size(oi.output_type) ? type_size(oi.output_type) : bits;
   init_def(in->dest, in.get(), out_bits, oi.output_size ? oi.output_size : 1, div);
   return &emit(std::move(in))->dest;
}

intrinsic_instr *
generator::intrinsic(intrinsic_op op, unsigned comps)
{
   auto in = std::make_unique<intrinsic_instr>();
   in->op = op;
   in->num_components = comps;
   in->srcs.resize(op_info(op).num_srcs);
   return emit(std::move(in));
}

def *
generator::finish_intrinsic(intrinsic_instr *in, unsigned bits, bool div)
{
   const intrinsic_info &ii = op_info(in->op);
   const unsigned comps = ii.dest_components ? ii.dest_components : in->num_components;
   return init_def(in->dest, in, bits, comps, div);
}

/* ------------------------------------------------------------------ */
/* Operands */

/* Whether values of this size may appear (0: unsized, always). */
bool
generator::size_enabled(unsigned bits) const
{
   if (bits == 8 || bits == 16)
      return o_.bits16;
   if (bits == 64)
      return o_.bits64;
   return true;
}

std::vector<unsigned>
generator::enabled_sizes(uint8_t mask) const
{
   std::vector<unsigned> sizes;
   for (unsigned bits : {8u, 16u, 32u, 64u}) {
      if (!(mask & size_bit(bits)))
         continue;
      if (size_enabled(bits))
         sizes.push_back(bits);
   }
   return sizes;
}

operand
generator::random_const(unsigned bits)
{
   static const int64_t small[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32,
                                   -1, -2, -8, 100, 255, 256};
   uint64_t v;
   switch (rng_.below(4)) {
   case 0: v = uint64_t(small[rng_.below(sizeof(small) / sizeof(small[0]))]); break;
   case 1: v = uint64_t(1) << rng_.below(bits); break;
   case 2: v = rng_.next(); break;
   default: v = rng_.below(64); break;
   }
   if (bits < 64)
      v &= (uint64_t(1) << bits) - 1;
   return {imm(bits, v), 0};
}

/* A visible value of this size, or a new constant.  want_con asks for a
 * uniform one.
 */
operand
generator::any_value(unsigned bits, bool want_con)
{
   if (!rng_.chance(12)) {
      std::vector<def *> cands;
      for (def *d : visible_) {
         if (d->bit_size == bits && (!want_con || !d->divergent))
            cands.push_back(d);
      }
      if (!cands.empty()) {
         /* Recent values are likelier: longer dependency chains. */
         def *d = rng_.chance(50) && cands.size() > 4
                     ? cands[cands.size() - 1 - rng_.below(4)]
                     : rng_.pick(cands);
         return {d, uint8_t(rng_.below(d->num_components))};
      }
   }
   return random_const(bits);
}

/* A float operand of at most lim in magnitude (and in the domain): an
 * existing value, clamped by fmin/fmax (which turn NaN into a number) when
 * nothing says it is already in range.
 */
operand
generator::float_operand(unsigned bits, double lim, domain dom, bool want_con,
                         double tiny)
{
   if (tiny == 0)
      tiny = float_tiny(bits);
   lim = std::min(lim, float_cap(bits));
   operand v;
   if (rng_.chance(15)) {
      /* Exact in every float size: a multiple of 1/4 below 256. */
      const double c = double(int(rng_.below(2048)) - 1024) / 4;
      v = {fimm(bits, std::min(std::fabs(c), std::floor(lim)) * (c < 0 ? -1 : 1)), 0};
   } else {
      v = any_value(bits, want_con);
   }
   if (o_.allow_nan)
      return v;
   const double b = info(v.d).bound;
   if (dom != domain::any) {
      v = {alu(alu_op::fabs, bits, {v}), 0};
      info(v.d).bound = b;
      if (dom == domain::positive) {
         v = {alu(alu_op::fmax, bits, {v, {fimm(bits, tiny), 0}}), 0};
         info(v.d).bound = std::isfinite(b) ? std::max(b, tiny) : unbounded;
      }
      /* fabs keeps a NaN; fmin turns it into lim. */
      if (!(info(v.d).bound <= lim)) {
         v = {alu(alu_op::fmin, bits, {v, {fimm(bits, lim), 0}}), 0};
         info(v.d).bound = lim;
      }
      return v;
   }
   if (b <= lim)
      return v;
   def *lo = alu(alu_op::fmax, bits, {v, {fimm(bits, -lim), 0}});
   def *hi = alu(alu_op::fmin, bits, {{lo, 0}, {fimm(bits, lim), 0}});
   info(hi).bound = lim;
   return {hi, 0};
}

/* A comparison giving a 32-bit boolean. */
def *
generator::compare(alu_op op, unsigned bits, bool want_con)
{
   const bool is_float = base_type(op_info(op).input_types[0]) == type_float;
   operand a, b;
   if (is_float) {
      /* Comparisons are defined for NaN: no clamp needed, but bounded
       * operands make equality likelier.
       */
      a = float_operand(bits, float_cap(bits), domain::any, want_con);
      b = float_operand(bits, float_cap(bits), domain::any, want_con);
   } else {
      a = any_value(bits, want_con);
      b = rng_.chance(40) ? random_const(bits) : any_value(bits, want_con);
   }
   def *d = alu(op, bits, {a, b});
   info(d).is_bool = true;
   return d;
}

/* A random comparison. */
def *
generator::gen_compare(bool want_con)
{
   static const alu_op cmps[] = {alu_op::ieq32, alu_op::ine32, alu_op::ilt32,
                                 alu_op::ige32, alu_op::ult32, alu_op::uge32,
                                 alu_op::feq32, alu_op::fneu32, alu_op::flt32,
                                 alu_op::fge32};
   return compare(cmps[rng_.below(10)], rng_.pick(enabled_sizes(s_big)),
                  want_con);
}

/* A 32-bit boolean. */
operand
generator::bool_operand(bool want_con)
{
   if (rng_.chance(70)) {
      std::vector<def *> cands;
      for (def *d : visible_) {
         if (info(d).is_bool && (!want_con || !d->divergent))
            cands.push_back(d);
      }
      if (!cands.empty()) {
         def *d = rng_.pick(cands);
         return {d, uint8_t(rng_.below(d->num_components))};
      }
   }
   def *d = gen_compare(want_con);
   make_visible(d);
   return {d, 0};
}

/* Any value folded to 32 bits, for the outputs. */
operand
generator::raw32(operand v)
{
   switch (v.d->bit_size) {
   case 8:
   case 16:
      return {alu(alu_op::u2u32, v.d->bit_size, {v}), 0};
   case 64: {
      def *lo = alu(alu_op::unpack_64_2x32_split_x, 64, {v});
      def *hi = alu(alu_op::unpack_64_2x32_split_y, 64, {v});
      return {alu(alu_op::ixor, 32, {{lo, 0}, {hi, 0}}), 0};
   }
   default:
      return v;
   }
}

/* ------------------------------------------------------------------ */
/* ALU */

bool
generator::gen_alu(const context &ctx)
{
   const unsigned n = sizeof(final_form_ops) / sizeof(final_form_ops[0]);
   for (unsigned tries = 0; tries < 8; tries++) {
      const op_entry &e = final_form_ops[rng_.below(n)];
      if (is_approximate(e.op) && !o_.approximate)
         continue;
      if (is_derivative(e.op) &&
          (!o_.derivatives || sh_->info.stage != shader_stage::fragment ||
           !ctx.uniform))
         continue;
      if (!size_enabled(type_size(op_info(e.op).output_type)))
         continue;
      unsigned bits = 32;
      if (e.sizes) {
         const std::vector<unsigned> sizes = enabled_sizes(e.sizes);
         if (sizes.empty())
            continue;
         bits = rng_.pick(sizes);
      }
      if (gen_alu_op(e, bits))
         return true;
   }
   return false;
}

bool
generator::gen_alu_op(const op_entry &e, unsigned bits)
{
   const alu_op_info &oi = op_info(e.op);
   const alu_op op = e.op;
   std::vector<operand> srcs;
   def *d = nullptr;

   switch (e.k) {
   case kind::int_op: {
      for (unsigned i = 0; i < oi.num_inputs; i++)
         srcs.push_back(any_value(bits));
      d = alu(op, bits, srcs);
      if (op == alu_op::mov) {
         info(d) = info(srcs[0].d);
      }
      break;
   }
   case kind::bitwise: {
      /* Half the time over booleans, to build conditions. */
      const bool booleans = bits == 32 && rng_.chance(40);
      for (unsigned i = 0; i < oi.num_inputs; i++)
         srcs.push_back(booleans ? bool_operand(false) : any_value(bits));
      d = alu(op, bits, srcs);
      info(d).is_bool = booleans;
      break;
   }
   case kind::division: {
      const bool is_signed = base_type(oi.input_types[0]) == type_int;
      operand n = any_value(bits), q = any_value(bits);
      if (is_signed) {
         /* Odd, so never 0; INT_MIN is kept out of the dividend so that
          * x / -1 cannot overflow.
          */
         q = {alu(alu_op::ior, bits, {q, const_operand(bits, 1)}), 0};
         n = {alu(alu_op::imax, bits, {n, const_operand(bits, 0x80000001u)}), 0};
      } else {
         q = {alu(alu_op::umax, bits, {q, const_operand(bits, 1)}), 0};
      }
      d = alu(op, bits, {n, q});
      break;
   }
   case kind::shift: {
      operand v = any_value(bits);
      operand c = any_value(32);
      /* NIR and GEN agree on counts below the bit size only. */
      c = {alu(alu_op::iand, 32, {c, const_operand(32, bits - 1)}), 0};
      d = alu(op, bits, {v, c});
      break;
   }
   case kind::extract: {
      const bool bytes = op == alu_op::extract_u8 || op == alu_op::extract_i8;
      const unsigned lanes = bits / (bytes ? 8 : 16);
      d = alu(op, bits, {any_value(bits), const_operand(bits, rng_.below(lanes))});
      break;
   }
   case kind::compare:
      d = compare(op, bits, false);
      break;
   case kind::csel: {
      operand c = bool_operand(false);
      operand a = any_value(bits), b = any_value(bits);
      d = alu(op, bits, {c, a, b});
      info(d).bound = std::max(info(a.d).bound, info(b.d).bound);
      info(d).is_bool = info(a.d).is_bool && info(b.d).is_bool;
      break;
   }
   case kind::from_bool:
      d = alu(op, 32, {bool_operand(false)});
      /* b2i's 1 read as a float is a denormal: unbounded (see imm()). */
      if (base_type(oi.output_type) == type_float)
         info(d).bound = 1;
      break;
   case kind::float_op: {
      const float_rule r = rule_for(op, bits);
      double bounds[3] = {0, 0, 0};
      for (unsigned i = 0; i < oi.num_inputs; i++) {
         srcs.push_back(float_operand(bits, r.lim[i], r.dom[i], false, r.tiny));
         bounds[i] = info(srcs[i].d).bound;
      }
      d = alu(op, bits, srcs);
      if (!o_.allow_nan)
         info(d).bound = result_bound(op, bits, bounds);
      if (is_derivative(op))
         used_derivatives_ = true;
      break;
   }
   case kind::convert: {
      const unsigned out_bits = type_size(oi.output_type);
      const alu_type in_base = base_type(oi.input_types[0]);
      const alu_type out_base = base_type(oi.output_type);
      /* Same-size moves are not conversions; brw splits conversions
       * between 64-bit and 8/16-bit floats.
       */
      if (bits == out_bits && in_base == out_base)
         return false;
      if ((in_base == type_float || out_base == type_float) &&
          ((bits == 64 && out_bits <= 16) || (bits <= 16 && out_bits == 64)))
         return false;
      if (in_base == type_float && bits == 8)
         return false;
      operand s;
      double bound = unbounded;
      if (in_base == type_float) {
         /* Float to integer must be in range (NIR leaves it undefined). */
         double lim = std::min(float_cap(bits), float_cap(out_bits));
         if (out_base != type_float)
            lim = out_bits == 8 ? 100 : out_bits == 16 ? 30000
                  : out_bits == 32 ? 0x1p30 : 0x1p62;
         s = float_operand(bits, lim, out_base == type_uint ? domain::nonneg
                                                            : domain::any);
         if (out_base == type_float)
            bound = info(s.d).bound;
      } else {
         s = any_value(bits);
         if (out_bits == 16 && (bits > 16 || in_base == type_uint)) {
            /* Keep the value finite as a half float. */
            s = {alu(alu_op::iand, bits, {s, const_operand(bits, 0x3fff)}), 0};
            bound = 0x3fff;
         } else {
            bound = std::ldexp(1.0, int(bits));
         }
      }
      d = alu(op, bits, {s});
      if (out_base == type_float)
         info(d).bound = o_.allow_nan ? unbounded : bound;
      break;
   }
   case kind::find:
      d = alu(op, 32, {any_value(32)});
      break;
   case kind::sized:
      for (unsigned i = 0; i < oi.num_inputs; i++) {
         const alu_type t = oi.input_types[i];
         const unsigned b = type_size(t);
         if (!size_enabled(b))
            return false;
         srcs.push_back(base_type(t) == type_float
                           ? float_operand(b, 0x1p14, domain::any)
                           : any_value(b));
      }
      d = alu(op, 32, srcs);
      break;
   case kind::vec:
      for (unsigned i = 0; i < oi.num_inputs; i++)
         srcs.push_back(any_value(bits));
      d = alu(op, bits, srcs);
      info(d).bound = 0;
      for (const operand &s : srcs)
         info(d).bound = std::max(info(d).bound, info(s.d).bound);
      break;
   }
   make_visible(d);
   return true;
}

/* ------------------------------------------------------------------ */
/* Memory, inputs, textures, subgroups */

bool
generator::gen_load()
{
   const bool ssbo = o_.ssbo && (!o_.ubo || rng_.chance(40));
   if (!ssbo && !o_.ubo)
      return false;
   const unsigned size = ssbo ? ssbo_in_size : ubo_size;
   const unsigned comps = 1 + rng_.below(4);
   const bool dynamic = rng_.chance(50);
   const bool block_load = !ssbo && !dynamic && rng_.chance(40);
   def *offset;
   unsigned align_mul, align_offset = 0, range_base = 0, range = size;
   if (dynamic) {
      /* (x & 7) * 16 + 16k stays inside the block. */
      operand x = any_value(32);
      def *m = alu(alu_op::iand, 32, {x, const_operand(32, 7)});
      def *s = alu(alu_op::ishl, 32, {{m, 0}, const_operand(32, 4)});
      const unsigned base = 16 * rng_.below(size / 16 - 8);
      offset = alu(alu_op::iadd, 32, {{s, 0}, const_operand(32, base)});
      align_mul = 16;
   } else {
      const unsigned off = block_load ? 16 * rng_.below(size / 16 - 2)
                                      : 4 * rng_.below(size / 4 - 4);
      offset = imm(32, off);
      align_mul = 1073741824;
      align_offset = off;
      range_base = off;
      range = 4 * comps;
   }
   intrinsic_op op = ssbo ? intrinsic_op::load_ssbo
                     : block_load ? intrinsic_op::load_ubo_uniform_block_intel
                                  : intrinsic_op::load_ubo;
   intrinsic_instr *in = intrinsic(op, comps);
   in->srcs[0].ssa = zero_offset();  /* SSBO 0 is only read */
   in->srcs[1].ssa = offset;
   in->set_index(intrinsic_index::access, 0);
   in->set_index(intrinsic_index::align_mul, int32_t(align_mul));
   in->set_index(intrinsic_index::align_offset, int32_t(align_offset));
   if (!ssbo) {
      in->set_index(intrinsic_index::range_base, int32_t(range_base));
      in->set_index(intrinsic_index::range, int32_t(range));
   }
   (ssbo ? used_ssbo_ : used_ubo_) = true;
   make_visible(finish_intrinsic(in, 32, offset->divergent));
   return true;
}

def *
generator::load_subgroup_invocation()
{
   intrinsic_instr *in = intrinsic(intrinsic_op::load_subgroup_invocation, 1);
   return finish_intrinsic(in, 32, true);
}

/* The index of the first active channel: uniform, and always active. */
def *
generator::subgroup_first_lane()
{
   def *lane = load_subgroup_invocation();
   intrinsic_instr *in = intrinsic(intrinsic_op::read_first_invocation, 1);
   in->srcs[0].ssa = lane;
   return finish_intrinsic(in, 32, false);
}

bool
generator::gen_subgroup(const context &ctx)
{
   if (!o_.subgroups)
      return false;
   used_subgroups_ = true;
   const bool fs = sh_->info.stage == shader_stage::fragment;
   /* Whole quads run only in uniform fragment code. */
   const bool quads = fs && ctx.uniform;
   const unsigned bits = rng_.pick(enabled_sizes(s16 | s32 | s64));
   def *d = nullptr;
   switch (rng_.below(quads ? 11 : 9)) {
   case 0:
   case 1:
   case 2: {
      /* Integer reductions are exact in any order; float ones only for
       * fmin/fmax.
       */
      static const alu_op ops[] = {alu_op::iadd, alu_op::imul, alu_op::imin,
                                   alu_op::imax, alu_op::umin, alu_op::umax,
                                   alu_op::iand, alu_op::ior, alu_op::ixor,
                                   alu_op::fmin, alu_op::fmax};
      alu_op rop = ops[rng_.below(11)];
      if (rop == alu_op::imul && bits == 64)
         rop = alu_op::iadd;
      const bool is_float = rop == alu_op::fmin || rop == alu_op::fmax;
      const unsigned which = rng_.below(3);
      const intrinsic_op op = which == 0 ? intrinsic_op::reduce
                              : which == 1 ? intrinsic_op::inclusive_scan
                                           : intrinsic_op::exclusive_scan;
      operand v = is_float ? float_operand(bits, float_cap(bits), domain::any)
                           : any_value(bits);
      /* Scalar intrinsics read component 0: take the component first. */
      def *s = v.comp || v.d->num_components > 1 ? alu(alu_op::mov, bits, {v}) : v.d;
      if (s != v.d)
         info(s) = info(v.d);
      intrinsic_instr *in = intrinsic(op, 1);
      in->srcs[0].ssa = s;
      in->set_index(intrinsic_index::reduction_op, int32_t(rop));
      unsigned cluster = 0;
      if (op == intrinsic_op::reduce) {
         cluster = rng_.chance(30) ? 1u << (1 + rng_.below(3)) : 0;
         in->set_index(intrinsic_index::cluster_size, int32_t(cluster));
      }
      d = finish_intrinsic(in, bits, op != intrinsic_op::reduce || cluster != 0);
      /* An exclusive scan gives the first channel the identity, +-inf. */
      if (is_float && op != intrinsic_op::exclusive_scan)
         info(d).bound = info(s).bound;
      break;
   }
   case 3:
   case 4: {
      /* read_first_invocation, or read_invocation of a lane that is on. */
      operand v = any_value(bits);
      def *s = alu(alu_op::mov, bits, {v});
      info(s) = info(v.d);
      const bool first = rng_.chance(50);
      intrinsic_instr *in;
      if (first) {
         in = intrinsic(intrinsic_op::read_first_invocation, 1);
      } else {
         def *lane = subgroup_first_lane();
         in = intrinsic(intrinsic_op::read_invocation, 1);
         in->srcs[1].ssa = lane;
      }
      in->srcs[0].ssa = s;
      d = finish_intrinsic(in, bits, false);
      info(d) = info(s);
      break;
   }
   case 5: {
      def *b = alu(alu_op::mov, 32, {bool_operand(false)});
      intrinsic_instr *in = intrinsic(intrinsic_op::ballot, 1);
      in->srcs[0].ssa = b;
      d = finish_intrinsic(in, 32, false);
      break;
   }
   case 6: {
      static const intrinsic_op ops[] = {intrinsic_op::vote_any,
                                         intrinsic_op::vote_all,
                                         intrinsic_op::vote_ieq,
                                         intrinsic_op::vote_feq};
      const intrinsic_op op = ops[rng_.below(4)];
      operand v = op == intrinsic_op::vote_feq
                     ? float_operand(bits, float_cap(bits), domain::any)
                  : op == intrinsic_op::vote_ieq ? any_value(bits)
                                                 : bool_operand(false);
      def *s = alu(alu_op::mov, v.d->bit_size, {v});
      intrinsic_instr *in = intrinsic(op, 1);
      in->srcs[0].ssa = s;
      d = finish_intrinsic(in, 32, false);
      info(d).is_bool = true;
      break;
   }
   case 7: {
      /* shuffle from a lane known to be on: its own or the first one. */
      operand v = any_value(bits);
      def *s = alu(alu_op::mov, bits, {v});
      def *lane = rng_.chance(50) ? load_subgroup_invocation() : subgroup_first_lane();
      intrinsic_instr *in = intrinsic(intrinsic_op::shuffle, 1);
      in->srcs[0].ssa = s;
      in->srcs[1].ssa = lane;
      d = finish_intrinsic(in, bits, s->divergent || lane->divergent);
      break;
   }
   case 8:
      d = load_subgroup_invocation();
      break;
   default: {
      static const intrinsic_op ops[] = {intrinsic_op::quad_swap_horizontal,
                                         intrinsic_op::quad_swap_vertical,
                                         intrinsic_op::quad_swap_diagonal,
                                         intrinsic_op::quad_broadcast};
      const intrinsic_op op = ops[rng_.below(4)];
      used_quads_ = true;
      operand v = any_value(bits);
      def *s = alu(alu_op::mov, bits, {v});
      info(s) = info(v.d);
      def *lane = op == intrinsic_op::quad_broadcast ? imm(32, rng_.below(4)) : nullptr;
      intrinsic_instr *in = intrinsic(op, 1);
      in->srcs[0].ssa = s;
      if (lane)
         in->srcs[1].ssa = lane;
      d = finish_intrinsic(in, bits, true);
      info(d).bound = info(s).bound;
      break;
   }
   }
   make_visible(d);
   return true;
}

bool
generator::gen_texture(const context &ctx)
{
   if (!o_.textures)
      return false;
   const bool fs = sh_->info.stage == shader_stage::fragment;
   auto tex = std::make_unique<tex_instr>();
   unsigned unit = rng_.below(num_textures);
   unsigned kind = rng_.below(4);
   /* Implicit derivatives need whole quads. */
   if (kind == 0 && !(fs && ctx.uniform && o_.derivatives))
      kind = 1;
   def *coord;
   def *lod = nullptr, *bias = nullptr;
   std::vector<tex_src> extra;   /* after the coordinate, as Mesa orders them */
   unsigned comps = 4;
   bool div = false;
   if (kind == 2) {
      /* txf: texel coordinates inside the 4x4 level 0. */
      operand x = any_value(32), y = any_value(32);
      def *cx = alu(alu_op::iand, 32, {x, const_operand(32, 3)});
      def *cy = alu(alu_op::iand, 32, {y, const_operand(32, 3)});
      coord = alu(alu_op::vec2, 32, {{cx, 0}, {cy, 0}});
      lod = imm(32, 0);
      tex->op = tex_op::txf;
      txf_textures_ |= 1u << unit;
   } else if (kind == 3) {
      coord = nullptr;
      lod = imm(32, rng_.below(2));
      tex->op = tex_op::txs;
      tex->dest_type = type_int32;
      comps = 2;
      used_txs_ = true;
   } else {
      operand x = float_operand(32, 4, domain::any);
      operand y = float_operand(32, 4, domain::any);
      coord = alu(alu_op::vec2, 32, {x, y});
      /* An explicit-LOD lookup becomes a gather or a gradient lookup a
       * third of the time each (when enabled).
       */
      const unsigned explicit_kind = kind == 1 ? rng_.below(3) : 0;
      if (explicit_kind == 1 && o_.gather) {
         tex->op = tex_op::tg4;
         tex->component = rng_.below(4);
         used_gather_ = true;
         if (rng_.chance(30)) {
            /* A constant texel offset in the message header's range. */
            const int ox = int(rng_.below(16)) - 8, oy = int(rng_.below(16)) - 8;
            auto c = std::make_unique<load_const_instr>();
            init_def(c->dest, c.get(), 32, 2, false);
            c->values.push_back(const_value_from_bits(uint32_t(ox), 32));
            c->values.push_back(const_value_from_bits(uint32_t(oy), 32));
            extra.push_back({&emit(std::move(c))->dest, tex_src_type::offset});
         }
      } else if (explicit_kind == 2 && o_.gradients) {
         tex->op = tex_op::txd;
         def *g[2];
         for (def *&d : g) {
            operand gx = float_operand(32, 2, domain::any);
            operand gy = float_operand(32, 2, domain::any);
            d = alu(alu_op::vec2, 32, {gx, gy});
            div |= d->divergent;
         }
         extra.push_back({g[0], tex_src_type::ddx});
         extra.push_back({g[1], tex_src_type::ddy});
      } else if (kind == 1) {
         lod = float_operand(32, 2, domain::any).d;
         if (lod->num_components != 1)
            lod = alu(alu_op::mov, 32, {{lod, 0}});
         tex->op = tex_op::txl;
      } else {
         /* Implicit LOD, half the time with a bias (txb). */
         tex->op = tex_op::tex;
         if (rng_.chance(50)) {
            bias = float_operand(32, 2, domain::any).d;
            if (bias->num_components != 1)
               bias = alu(alu_op::mov, 32, {{bias, 0}});
            tex->op = tex_op::txb;
         }
         used_derivatives_ = true;
      }
   }
   /* A quarter of the filtered lookups compare against a reference
    * instead: through the depth-comparison sampler of the shadow unit.
    */
   def *comparator = nullptr;
   if (o_.shadow && (tex->op == tex_op::tex || tex->op == tex_op::txb ||
                     tex->op == tex_op::txl) && rng_.chance(25)) {
      unit = shadow_unit;
      comparator = float_operand(32, 1, domain::any).d;
      if (comparator->num_components != 1)
         comparator = alu(alu_op::mov, 32, {{comparator, 0}});
      tex->is_shadow = true;
      used_shadow_ = true;
   }
   tex->texture_index = unit;
   tex->sampler_index = unit;
   if (coord) {
      tex->srcs.push_back({coord, tex_src_type::coord});
      tex->coord_components = 2;
      div |= coord->divergent;
   }
   if (comparator) {
      tex->srcs.push_back({comparator, tex_src_type::comparator});
      div |= comparator->divergent;
   }
   if (lod) {
      tex->srcs.push_back({lod, tex_src_type::lod});
      div |= lod->divergent;
   }
   if (bias) {
      tex->srcs.push_back({bias, tex_src_type::bias});
      div |= bias->divergent;
   }
   for (const tex_src &x : extra)
      tex->srcs.push_back(x);
   textures_used_ |= 1u << unit;
   if (op_info(tex->op).needs_sampler)
      samplers_used_ |= 1u << unit;
   tex_instr *t = emit(std::move(tex));
   def *d = init_def(t->dest, t, 32, comps, div);
   /* A depth comparison's result is its x (the corpus reads nothing else:
    * what the hardware leaves in y, z and w is not NIR's to say).
    */
   if (comparator)
      d = alu(alu_op::mov, 32, {{d, 0}});
   make_visible(d);
   return true;
}

/* ------------------------------------------------------------------ */
/* Registers */

void
generator::insert_at_top(std::unique_ptr<instr> in, bool is_decl)
{
   in->block = entry_;
   auto &v = entry_->instrs;
   v.insert(v.begin() + (is_decl ? num_decls_ : entry_prefix_), std::move(in));
   num_decls_ += is_decl;
   entry_prefix_++;
}

def *
generator::new_reg(unsigned bits, unsigned comps, bool divergent)
{
   auto in = std::make_unique<intrinsic_instr>();
   in->op = intrinsic_op::decl_reg;
   in->set_index(intrinsic_index::num_components, int32_t(comps));
   in->set_index(intrinsic_index::num_array_elems, 0);
   in->set_index(intrinsic_index::bit_size, int32_t(bits));
   in->set_index(intrinsic_index::divergent, divergent);
   /* Mesa's divergence analysis leaves decl_reg divergent. */
   def *reg = init_def(in->dest, in.get(), 32, 1, true);
   insert_at_top(std::move(in), true);

   /* Stored once at the top, so that no path reads an unwritten register. */
   block scratch;
   block *saved = cur_;
   cur_ = &scratch;
   store_reg(reg, imm(bits, rng_.chance(50) ? 0 : rng_.next(), comps),
             (1u << comps) - 1);
   cur_ = saved;
   for (auto &i : scratch.instrs)
      insert_at_top(std::move(i), false);
   regs_.push_back({reg, false});
   return reg;
}

void
generator::store_reg(def *reg, def *value, unsigned wrmask)
{
   intrinsic_instr *in = intrinsic(intrinsic_op::store_reg, value->num_components);
   in->srcs[0].ssa = value;
   in->srcs[1].ssa = reg;
   in->set_index(intrinsic_index::base, 0);
   in->set_index(intrinsic_index::write_mask, int32_t(wrmask));
   in->set_index(intrinsic_index::legacy_fsat, 0);
}

static const intrinsic_instr &
decl_of(const def *reg)
{
   return *static_cast<const intrinsic_instr *>(reg->parent);
}

static bool
reg_divergent(const def *reg)
{
   return decl_of(reg).index(intrinsic_index::divergent) != 0;
}

def *
generator::load_reg(def *reg)
{
   const intrinsic_instr &decl = decl_of(reg);
   const unsigned comps = unsigned(decl.index(intrinsic_index::num_components));
   intrinsic_instr *in = intrinsic(intrinsic_op::load_reg, comps);
   in->srcs[0].ssa = reg;
   in->set_index(intrinsic_index::base, 0);
   in->set_index(intrinsic_index::legacy_fabs, 0);
   in->set_index(intrinsic_index::legacy_fneg, 0);
   return finish_intrinsic(in, unsigned(decl.index(intrinsic_index::bit_size)),
                           reg_divergent(reg));
}

/* A value of the given shape; uniform if asked. */
def *
generator::shaped_value(unsigned bits, unsigned comps, bool want_con)
{
   std::vector<operand> srcs;
   for (unsigned i = 0; i < comps; i++)
      srcs.push_back(any_value(bits, want_con));
   if (comps == 1 && srcs[0].d->num_components == 1)
      return srcs[0].d;
   static const alu_op vecs[] = {alu_op::mov, alu_op::mov, alu_op::vec2,
                                 alu_op::vec3, alu_op::vec4};
   def *d = alu(vecs[comps], bits, srcs);
   if (comps == 1)
      info(d) = info(srcs[0].d);
   return d;
}

bool
generator::gen_reg_traffic(const context &ctx)
{
   if (!o_.registers)
      return false;
   if (o_.indirect_regs && rng_.chance(25)) {
      gen_array_traffic();
      return true;
   }
   if (regs_.empty() || rng_.chance(15)) {
      const unsigned bits = rng_.pick(enabled_sizes(s_int));
      const unsigned comps = rng_.chance(80) ? 1 : 2 + rng_.below(3);
      new_reg(bits, comps, !ctx.uniform || rng_.chance(50));
   }
   const reg_info &r = rng_.pick(regs_);
   const intrinsic_instr &decl = decl_of(r.decl);
   const bool div = reg_divergent(r.decl);
   /* A uniform register is only written by uniform code. */
   if (rng_.chance(50) && !r.locked && (div || ctx.uniform)) {
      const unsigned comps = unsigned(decl.index(intrinsic_index::num_components));
      const unsigned bits = unsigned(decl.index(intrinsic_index::bit_size));
      unsigned mask = (1u << comps) - 1;
      if (comps > 1 && rng_.chance(40))
         mask &= unsigned(rng_.next()) | 1;
      store_reg(r.decl, shaped_value(bits, comps, !div), mask);
   } else {
      make_visible(load_reg(r.decl));
   }
   return true;
}

/* A register array of 2-8 elements, each stored at the top like any
 * register.  Divergent: an indirect store with a divergent index makes
 * per-channel values whatever is stored.
 */
def *
generator::new_reg_array(unsigned bits, unsigned comps, unsigned elems)
{
   auto in = std::make_unique<intrinsic_instr>();
   in->op = intrinsic_op::decl_reg;
   in->set_index(intrinsic_index::num_components, int32_t(comps));
   in->set_index(intrinsic_index::num_array_elems, int32_t(elems));
   in->set_index(intrinsic_index::bit_size, int32_t(bits));
   in->set_index(intrinsic_index::divergent, 1);
   def *reg = init_def(in->dest, in.get(), 32, 1, true);
   insert_at_top(std::move(in), true);

   block scratch;
   block *saved = cur_;
   cur_ = &scratch;
   for (unsigned e = 0; e < elems; e++) {
      def *v = imm(bits, rng_.chance(50) ? e : rng_.next(), comps);
      store_reg(reg, v, (1u << comps) - 1);
      static_cast<intrinsic_instr &>(*scratch.instrs.back())
         .set_index(intrinsic_index::base, int32_t(e));
   }
   cur_ = saved;
   for (auto &i : scratch.instrs)
      insert_at_top(std::move(i), false);
   arrays_.push_back(reg);
   return reg;
}

/* A 32-bit element offset in [0, range): a visible value masked with
 * iand (range a power of two) or clamped with umin, so that no access
 * leaves the array (NIR leaves that undefined).
 */
def *
generator::array_index(unsigned range)
{
   operand x = any_value(32);
   if ((range & (range - 1)) == 0 && rng_.chance(50))
      return alu(alu_op::iand, 32, {x, const_operand(32, range - 1)});
   return alu(alu_op::umin, 32, {x, const_operand(32, range - 1)});
}

/* A load or store of one element of a register array: through an index
 * (load_reg_indirect / store_reg_indirect, base + offset), or a constant
 * one (load_reg / store_reg with base).
 */
void
generator::gen_array_traffic()
{
   /* Every element stays live to the end (the outputs read it): at most
    * 8 dwords per channel an array and 16 in all, which SIMD32 (4 GRFs a
    * dword) holds next to the rest without spilling.
    */
   if (array_dwords_ < 16 && (arrays_.empty() || rng_.chance(20))) {
      const unsigned bits = rng_.pick(enabled_sizes(s_int));
      const unsigned size = bits == 64 ? 2 : 1;
      const unsigned elems = std::min(2 + rng_.below(7), 8 / size);
      unsigned comps = rng_.chance(70) ? 1 : 2 + rng_.below(3);
      comps = std::max(1u, std::min(comps, 8 / (elems * size)));
      new_reg_array(bits, comps, elems);
      array_dwords_ += elems * comps * size;
   }
   def *reg = rng_.pick(arrays_);
   const intrinsic_instr &decl = decl_of(reg);
   const unsigned comps = unsigned(decl.index(intrinsic_index::num_components));
   const unsigned bits = unsigned(decl.index(intrinsic_index::bit_size));
   const unsigned elems = unsigned(decl.index(intrinsic_index::num_array_elems));
   const bool indirect = rng_.chance(75);
   /* Indirect: base plus an offset below elems - base. */
   const unsigned base = rng_.chance(70) ? 0 : rng_.below(elems);
   def *index = indirect ? array_index(elems - base) : nullptr;
   const bool store = rng_.chance(50);
   intrinsic_op op = store ? (indirect ? intrinsic_op::store_reg_indirect
                                       : intrinsic_op::store_reg)
                           : (indirect ? intrinsic_op::load_reg_indirect
                                       : intrinsic_op::load_reg);
   if (store) {
      unsigned mask = (1u << comps) - 1;
      if (comps > 1 && rng_.chance(40))
         mask &= unsigned(rng_.next()) | 1;
      def *value = shaped_value(bits, comps, false);
      intrinsic_instr *in = intrinsic(op, comps);
      in->srcs[0].ssa = value;
      in->srcs[1].ssa = reg;
      if (indirect)
         in->srcs[2].ssa = index;
      in->set_index(intrinsic_index::base, int32_t(base));
      in->set_index(intrinsic_index::write_mask, int32_t(mask));
      in->set_index(intrinsic_index::legacy_fsat, 0);
      return;
   }
   intrinsic_instr *in = intrinsic(op, comps);
   in->srcs[0].ssa = reg;
   if (indirect)
      in->srcs[1].ssa = index;
   in->set_index(intrinsic_index::base, int32_t(base));
   in->set_index(intrinsic_index::legacy_fabs, 0);
   in->set_index(intrinsic_index::legacy_fneg, 0);
   make_visible(finish_intrinsic(in, bits, true));
}

/* For the outputs: per register array, every component of every element
 * folded into one word (xor of their low 32 bits), so that all of them are
 * observed.
 */
std::vector<operand>
generator::array_digests()
{
   std::vector<operand> out;
   for (def *reg : arrays_) {
      const int elems = decl_of(reg).index(intrinsic_index::num_array_elems);
      operand acc;
      for (int e = 0; e < elems; e++) {
         def *d = load_reg(reg);
         static_cast<intrinsic_instr *>(d->parent)->set_index(intrinsic_index::base, e);
         make_visible(d);
         for (unsigned c = 0; c < d->num_components; c++) {
            operand w = raw32({d, uint8_t(c)});
            acc = acc.d ? operand{alu(alu_op::ixor, 32, {acc, w}), 0} : w;
         }
      }
      out.push_back(acc);
   }
   return out;
}

/* ------------------------------------------------------------------ */
/* Control flow */

void
generator::gen_list(cf_list &list, cf_node *parent, unsigned budget,
                    const context &ctx)
{
   cf_list *saved_list = cur_list_;
   cf_node *saved_parent = cur_parent_;
   cur_list_ = &list;
   cur_parent_ = parent;
   cur_ = new_block(list, parent);
   gen_code(budget, ctx);
   cur_list_ = saved_list;
   cur_parent_ = saved_parent;
}

void
generator::gen_code(unsigned budget, const context &ctx)
{
   unsigned spent = 0;
   while (spent < budget) {
      const unsigned roll = rng_.below(100);
      const unsigned left = budget - spent;
      const bool nest = ctx.depth < o_.max_depth;
      if (roll < 7 && nest && left >= 6) {
         const unsigned sub = 3 + rng_.below(left / 2);
         gen_if(sub, ctx);
         spent += sub;
      } else if (roll < 11 && nest && left >= 8) {
         const unsigned sub = 4 + rng_.below(left / 2);
         gen_loop(sub, ctx);
         spent += sub;
      } else if (roll < 15 && ctx.loop) {
         if (!(rng_.chance(30) && gen_continue_if(ctx)))
            gen_break_if(ctx);
         spent += 2;
      } else if (roll < 25 && gen_reg_traffic(ctx)) {
         spent++;
      } else if (roll < 32 && gen_load()) {
         spent++;
      } else if (roll < 38 && gen_subgroup(ctx)) {
         spent++;
      } else if (roll < 42 && gen_texture(ctx)) {
         spent++;
      } else if (roll < 44 && gen_ssbo_store()) {
         spent++;
      } else if (roll < 46 && gen_push_load()) {
         spent++;
      } else if (roll < 50 && gen_exchange(ctx)) {
         spent += 3;
      } else if (roll < 47 && (gen_shared() || gen_atomic())) {
         spent++;
      } else if (roll < 50 && gen_image()) {
         spent++;
      } else if (gen_alu(ctx)) {
         spent++;
      }
   }
}

/* A boolean as a scalar, for if conditions. */
def *
generator::condition(bool want_con)
{
   operand c = bool_operand(want_con);
   if (c.comp == 0 && c.d->num_components == 1)
      return c.d;
   def *d = alu(alu_op::mov, 32, {c});
   info(d).is_bool = true;
   return d;
}

if_ *
generator::push_if(def *cond)
{
   auto nif = std::make_unique<if_>();
   if_ *ifp = nif.get();
   ifp->condition.ssa = cond;
   ifp->parent = cur_parent_;
   cur_list_->push_back(std::move(nif));
   return ifp;
}

void
generator::gen_if(unsigned budget, const context &ctx)
{
   def *cond = condition(rng_.chance(50));
   context inner = ctx;
   inner.depth++;
   inner.uniform = ctx.uniform && !cond->divergent;

   /* Values that leave the if: registers, or phis. */
   const unsigned num_merge = rng_.below(3);
   std::vector<unsigned> bits;
   std::vector<def *> regs;
   for (unsigned i = 0; i < num_merge; i++) {
      bits.push_back(rng_.pick(enabled_sizes(s_int)));
      if (o_.registers)
         regs.push_back(new_reg(bits[i], 1, !inner.uniform));
   }

   if_ *ifp = push_if(cond);
   std::vector<def *> vals[2];
   block *ends[2];
   for (int side = 0; side < 2; side++) {
      const size_t scope = visible_.size();
      gen_list(side == 0 ? ifp->then_list : ifp->else_list, ifp,
               side == 0 ? budget - budget / 2 : budget / 2, inner);
      for (unsigned i = 0; i < num_merge; i++) {
         /* A uniform register takes uniform values only. */
         const bool want_con = o_.registers ? !reg_divergent(regs[i])
                                            : inner.uniform && rng_.chance(70);
         def *v = shaped_value(bits[i], 1, want_con);
         if (o_.registers)
            store_reg(regs[i], v, 1);
         else
            vals[side].push_back(v);
      }
      visible_.resize(scope);
      ends[side] = cur_;
   }

   cur_ = new_block(*cur_list_, cur_parent_);
   for (unsigned i = 0; i < num_merge; i++) {
      if (o_.registers) {
         make_visible(load_reg(regs[i]));
         continue;
      }
      auto phi = std::make_unique<phi_instr>();
      phi->srcs.push_back({ends[0], vals[0][i]});
      phi->srcs.push_back({ends[1], vals[1][i]});
      const bool div = cond->divergent || vals[0][i]->divergent ||
                       vals[1][i]->divergent;
      def *d = init_def(phi->dest, phi.get(), bits[i], 1, div);
      info(d).bound = std::max(info(vals[0][i]).bound, info(vals[1][i]).bound);
      info(d).is_bool = info(vals[0][i]).is_bool && info(vals[1][i]).is_bool;
      emit(std::move(phi));
      make_visible(d);
   }
}

/* if (cond) { break; } with the value it takes to the exit phi. */
void
generator::emit_break(loop_state &lp, def *exit_value)
{
   if (!o_.registers) {
      if (!exit_value) {
         operand v = any_value(lp.exit_bits, false);
         exit_value = v.d->num_components == 1 && v.comp == 0
                         ? v.d : alu(alu_op::mov, lp.exit_bits, {v});
      }
      lp.exits.push_back({cur_, exit_value});
   }
   auto j = std::make_unique<jump_instr>();
   j->kind = jump_type::break_;
   emit(std::move(j));
}

void
generator::gen_break_if(const context &ctx)
{
   loop_state &lp = *ctx.loop;
   /* A loop whose exit is uniform breaks only on uniform conditions in
    * uniform code.
    */
   if (lp.uniform_exit && !ctx.uniform)
      return;
   def *cond = condition(lp.uniform_exit || rng_.chance(30));
   if_ *ifp = push_if(cond);
   cur_ = new_block(ifp->then_list, ifp);
   emit_break(lp, nullptr);
   new_block(ifp->else_list, ifp);
   cur_ = new_block(*cur_list_, cur_parent_);
}

/* `if c { i++; continue }`: the counter still grows on every trip, so the
 * loop stays bounded.  Only in register form (a phi form would need the
 * header phi to take the continue's value) and under the same uniformity
 * rule as breaks.
 */
bool
generator::gen_continue_if(const context &ctx)
{
   loop_state &lp = *ctx.loop;
   if (!o_.continues || !o_.registers || !lp.counter || (lp.uniform_exit && !ctx.uniform))
      return false;
   def *cond = condition(lp.uniform_exit || rng_.chance(30));
   if_ *ifp = push_if(cond);
   cur_ = new_block(ifp->then_list, ifp);
   def *i = load_reg(lp.counter);
   store_reg(lp.counter, alu(alu_op::iadd, 32, {{i, 0}, const_operand(32, 1)}), 1);
   auto j = std::make_unique<jump_instr>();
   j->kind = jump_type::continue_;
   emit(std::move(j));
   new_block(ifp->else_list, ifp);
   cur_ = new_block(*cur_list_, cur_parent_);
   return true;
}

/* Appends a loop to the current list and starts the first block of its
 * body (the caller restores cur_list_ and cur_parent_ after it).
 */
loop *
generator::begin_loop()
{
   auto nl = std::make_unique<loop>();
   loop *lpp = nl.get();
   lpp->parent = cur_parent_;
   cur_list_->push_back(std::move(nl));
   cur_list_ = &lpp->body;
   cur_parent_ = lpp;
   cur_ = new_block(lpp->body, lpp);
   return lpp;
}

void
generator::gen_loop(unsigned budget, const context &ctx)
{
   loop_state lp;
   lp.uniform_exit = ctx.uniform && rng_.chance(60);
   lp.exit_bits = rng_.pick(enabled_sizes(s_int));
   lp.counter = nullptr;
   const unsigned trips = 1 + rng_.below(std::max(1u, o_.max_loop_trips));

   context inner = ctx;
   inner.depth++;
   inner.loop = &lp;
   inner.uniform = ctx.uniform && lp.uniform_exit;

   /* The counter is reset before every entry, so nested loops are bounded
    * by the product of their trip counts.
    */
   def *zero = imm(32, 0);
   block *preheader = cur_;
   def *counter_reg = nullptr;
   if (o_.registers) {
      counter_reg = new_reg(32, 1, !lp.uniform_exit);
      regs_.back().locked = true;
      store_reg(counter_reg, zero, 1);
      lp.counter = counter_reg;
   }

   cf_list *saved_list = cur_list_;
   cf_node *saved_parent = cur_parent_;
   const size_t scope = visible_.size();
   loop *lpp = begin_loop();
   def *i;
   phi_instr *counter_phi = nullptr;
   if (o_.registers) {
      i = load_reg(counter_reg);
   } else {
      auto phi = std::make_unique<phi_instr>();
      i = init_def(phi->dest, phi.get(), 32, 1, false);
      counter_phi = emit(std::move(phi));
   }
   info(i).bound = trips;
   def *done = alu(alu_op::uge32, 32, {{i, 0}, const_operand(32, trips)});
   info(done).is_bool = true;
   if_ *ifp = push_if(done);
   cur_ = new_block(ifp->then_list, ifp);
   emit_break(lp, o_.registers ? nullptr : imm(lp.exit_bits, 0));
   new_block(ifp->else_list, ifp);
   make_visible(i);

   gen_list(lpp->body, lpp, budget, inner);

   /* i++ at the end of the body. */
   if (o_.registers) {
      def *i2 = load_reg(counter_reg);
      store_reg(counter_reg, alu(alu_op::iadd, 32, {{i2, 0}, const_operand(32, 1)}), 1);
   } else {
      def *inc = alu(alu_op::iadd, 32, {{i, 0}, const_operand(32, 1)});
      counter_phi->srcs.push_back({preheader, zero});
      counter_phi->srcs.push_back({cur_, inc});
   }
   visible_.resize(scope);
   cur_list_ = saved_list;
   cur_parent_ = saved_parent;

   cur_ = new_block(*cur_list_, cur_parent_);
   if (!o_.registers) {
      auto phi = std::make_unique<phi_instr>();
      bool div = !lp.uniform_exit;
      double bound = 0;
      for (auto &[pred, v] : lp.exits) {
         phi->srcs.push_back({pred, v});
         div |= v->divergent;
         bound = std::max(bound, info(v).bound);
      }
      def *d = init_def(phi->dest, phi.get(), lp.exit_bits, 1, div);
      info(d).bound = bound;
      emit(std::move(phi));
      make_visible(d);
   }
}

/* ------------------------------------------------------------------ */
/* Stage inputs and outputs */

def *
generator::zero_offset()
{
   if (!zero_offset_) {
      block scratch;
      block *saved = cur_;
      cur_ = &scratch;
      zero_offset_ = imm(32, 0);
      cur_ = saved;
      insert_at_top(std::move(scratch.instrs[0]), false);
   }
   return zero_offset_;
}

static variable
io_var(uint32_t mode, const std::string &type, const std::string &name,
       int location, unsigned driver_location)
{
   variable v;
   v.mode = mode;
   v.type = type;
   v.name = name;
   v.location = location;
   v.driver_location = driver_location;
   return v;
}

void
generator::gen_inputs()
{
   const shader_stage stage = sh_->info.stage;
   if (stage == shader_stage::vertex) {
      for (unsigned a = 0; a < num_vs_attribs; a++) {
         if (a > 0 && rng_.chance(40))
            continue;
         const unsigned loc = loc_vert_attrib_generic0 + a;
         intrinsic_instr *in = intrinsic(intrinsic_op::load_input, 4);
         in->srcs[0].ssa = zero_offset();
         in->set_index(intrinsic_index::base, int32_t(a));
         in->set_index(intrinsic_index::range, 1);
         in->set_index(intrinsic_index::component, 0);
         in->set_index(intrinsic_index::dest_type, type_float32);
         io_semantics io;
         io.location = loc;
         io.num_slots = 1;
         in->set_index(intrinsic_index::io_semantics, int32_t(io.pack()));
         make_visible(finish_intrinsic(in, 32, true));
         sh_->variables.push_back(io_var(var_shader_in, "vec4",
                                         "attr" + std::to_string(a), int(loc), loc));
         sh_->info.inputs_read |= uint64_t(1) << loc;
         sh_->num_inputs++;
      }
      if (rng_.chance(50))
         make_visible(finish_intrinsic(intrinsic(intrinsic_op::load_vertex_id_zero_base, 1), 32, true));
      if (rng_.chance(30))
         make_visible(finish_intrinsic(intrinsic(intrinsic_op::load_instance_id, 1), 32, true));
   } else if (stage == shader_stage::fragment) {
      intrinsic_instr *bary = intrinsic(intrinsic_op::load_barycentric_pixel, 2);
      bary->set_index(intrinsic_index::interp_mode, int32_t(interp_mode::smooth));
      def *b = finish_intrinsic(bary, 32, true);
      for (unsigned v = 0; v < num_fs_varyings; v++) {
         if (v > 0 && rng_.chance(40))
            continue;
         const unsigned loc = loc_varying_var0 + v;
         intrinsic_instr *in = intrinsic(intrinsic_op::load_interpolated_input, 4);
         in->srcs[0].ssa = b;
         in->srcs[1].ssa = zero_offset();
         in->set_index(intrinsic_index::base, int32_t(loc));
         in->set_index(intrinsic_index::component, 0);
         in->set_index(intrinsic_index::dest_type, type_float32);
         io_semantics io;
         io.location = loc;
         io.num_slots = 1;
         in->set_index(intrinsic_index::io_semantics, int32_t(io.pack()));
         make_visible(finish_intrinsic(in, 32, true));
         variable var = io_var(var_shader_in, "vec4", "var" + std::to_string(v),
                               int(loc), loc);
         var.interpolation = interp_mode::smooth;
         sh_->variables.push_back(var);
         sh_->info.inputs_read |= uint64_t(1) << loc;
         sh_->num_inputs++;
      }
      if (rng_.chance(50))
         make_visible(finish_intrinsic(intrinsic(intrinsic_op::load_frag_coord, 4), 32, true));
   } else {
      wg_ = rng_.pick(cs_workgroups);
      local_index_ = finish_intrinsic(intrinsic(intrinsic_op::load_local_invocation_index, 1), 32, true);
      workgroup_id_ = finish_intrinsic(intrinsic(intrinsic_op::load_workgroup_id, 3), 32, false);
      make_visible(local_index_);
      make_visible(workgroup_id_);
      if (rng_.chance(50))
         make_visible(finish_intrinsic(intrinsic(intrinsic_op::load_local_invocation_id, 3), 32, true));
   }
}

/* Byte offset of this invocation's slot in the output buffer (compute). */
def *
generator::ssbo_slot(unsigned byte)
{
   def *wg = alu(alu_op::imul, 32, {{workgroup_id_, 0}, const_operand(32, wg_)});
   def *slot = alu(alu_op::iadd, 32, {{local_index_, 0}, {wg, 0}});
   def *base = alu(alu_op::imul, 32, {{slot, 0}, const_operand(32, ssbo_slot_size)});
   return alu(alu_op::iadd, 32, {{base, 0}, const_operand(32, byte)});
}

void
generator::store_ssbo(def *value, def *offset, unsigned align, unsigned buffer)
{
   def *index = imm(32, buffer);
   intrinsic_instr *in = intrinsic(intrinsic_op::store_ssbo, value->num_components);
   in->srcs[0].ssa = value;
   in->srcs[1].ssa = index;
   in->srcs[2].ssa = offset;
   in->set_index(intrinsic_index::write_mask, int32_t((1u << value->num_components) - 1));
   in->set_index(intrinsic_index::access, 0);
   in->set_index(intrinsic_index::align_mul, int32_t(align));
   in->set_index(intrinsic_index::align_offset, 0);
   used_ssbo_store_ = true;
}

/* Compute shaders write each invocation's own slot only: no races. */
bool
generator::gen_ssbo_store()
{
   if (!o_.ssbo || sh_->info.stage != shader_stage::compute)
      return false;
   const unsigned bits = rng_.pick(enabled_sizes(s16 | s32 | s64));
   def *v = shaped_value(bits, 1, false);
   /* Bytes 16..63 of the slot; the final vec4 takes 0..15. */
   store_ssbo(v, ssbo_slot(16 + 8 * rng_.below(6)), 8);
   return true;
}

/* load_uniform of 1-4 dwords at a constant or a dynamic (x & 3) * 16
 * offset inside the 64 pushed bytes.
 */
bool
generator::gen_push_load()
{
   if (!o_.push_constants)
      return false;
   const unsigned comps = 1 + rng_.below(4);
   def *offset;
   if (rng_.chance(50)) {
      operand x = any_value(32);
      def *m = alu(alu_op::iand, 32, {x, const_operand(32, 3)});
      offset = alu(alu_op::ishl, 32, {{m, 0}, const_operand(32, 4)});
   } else {
      offset = imm(32, 4 * rng_.below(push_size / 4 - comps + 1));
   }
   intrinsic_instr *in = intrinsic(intrinsic_op::load_uniform, comps);
   in->srcs[0].ssa = offset;
   in->set_index(intrinsic_index::base, 0);
   in->set_index(intrinsic_index::range, int32_t(push_size));
   in->set_index(intrinsic_index::dest_type, rng_.chance(50) ? type_float32 : type_uint32);
   used_push_ = true;
   make_visible(finish_intrinsic(in, 32, offset->divergent));
   return true;
}

/* Compute shaders: a value goes to this invocation's shared-memory slot
 * and is read back from it (no other invocation touches the slot).
 */
bool
generator::gen_shared()
{
   if (!o_.shared || sh_->info.stage != shader_stage::compute || rng_.chance(50))
      return false;
   const unsigned comps = 1 + rng_.below(4);
   def *v = shaped_value(32, comps, false);
   def *slot = alu(alu_op::imul, 32, {{local_index_, 0}, const_operand(32, shared_slot_size)});
   intrinsic_instr *st = intrinsic(intrinsic_op::store_shared, comps);
   st->srcs[0].ssa = v;
   st->srcs[1].ssa = slot;
   st->set_index(intrinsic_index::base, 0);
   st->set_index(intrinsic_index::write_mask, int32_t((1u << comps) - 1));
   st->set_index(intrinsic_index::align_mul, int32_t(shared_slot_size));
   st->set_index(intrinsic_index::align_offset, 0);
   intrinsic_instr *ld = intrinsic(intrinsic_op::load_shared, comps);
   ld->srcs[0].ssa = slot;
   ld->set_index(intrinsic_index::base, 0);
   ld->set_index(intrinsic_index::align_mul, int32_t(shared_slot_size));
   ld->set_index(intrinsic_index::align_offset, 0);
   used_shared_ = true;
   make_visible(finish_intrinsic(ld, 32, true));
   return true;
}

/* barrier() of workgroup execution and memory scope on shared memory. */
void
generator::barrier()
{
   intrinsic_instr *b = intrinsic(intrinsic_op::barrier, 0);
   /* mesa_scope WORKGROUP 4; NIR_MEMORY_ACQUIRE | NIR_MEMORY_RELEASE. */
   b->set_index(intrinsic_index::execution_scope, 4);
   b->set_index(intrinsic_index::memory_scope, 4);
   b->set_index(intrinsic_index::memory_semantics, 3);
   b->set_index(intrinsic_index::memory_modes, int32_t(var_mem_shared));
}

/* Compute shaders, at the top level, in a counted loop there or in an if
 * on a bit of the workgroup id (all invocations of a group run it the
 * same number of times: the barrier's control flow is uniform across
 * the workgroup): invocations
 * talk through shared memory.  Either each stores a value at its dword of
 * a fresh region, passes a barrier and reads another invocation's dword
 * (the next one, 8 or 16 further, half the group further, i ^ 1, or the
 * reversed one, so that different threads talk at every width), or every
 * invocation runs an atomic (iadd, imin, umin, imax, umax, iand, ior,
 * ixor: order does not change the result) on one of four dwords, passes
 * a barrier and reads one of them; the atomics' old values depend on the
 * order and are not used.
 */
bool
generator::gen_exchange(const context &ctx)
{
   if (!o_.shared || sh_->info.stage != shader_stage::compute || ctx.depth || ctx.loop ||
       !ctx.uniform || exchanges_ >= max_exchanges)
      return false;
   const unsigned region = wg_ * shared_slot_size + exchanges_ * 4 * wg_;
   exchanges_++;
   used_shared_ = true;
   const unsigned form = rng_.below(10);
   if (form < 5) {
      exchange(region);
      return true;
   }
   if (form < 7) {
      gen_exchange_loop(region);
      return true;
   }
   /* Inside an if on a bit of the workgroup id, which every invocation of
    * the group agrees on (so the barrier's control flow is uniform, but
    * not the same for every input set); the word leaves through a
    * register or a phi, the else side's being a constant.
    */
   def *reg = o_.registers ? new_reg(32, 1, true) : nullptr;
   def *bit = alu(alu_op::iand, 32, {{workgroup_id_, 0}, const_operand(32, 1)});
   def *cond = alu(alu_op::ieq32, 32, {{bit, 0}, const_operand(32, rng_.below(2))});
   info(cond).is_bool = true;
   if_ *ifp = push_if(cond);
   cf_list *saved_list = cur_list_;
   cf_node *saved_parent = cur_parent_;
   const size_t scope = visible_.size();
   cur_list_ = &ifp->then_list;
   cur_parent_ = ifp;
   cur_ = new_block(ifp->then_list, ifp);
   exchange(region);
   def *got = exchanged_.back();
   exchanged_.pop_back();
   if (reg)
      store_reg(reg, got, 1);
   block *then_end = cur_;
   visible_.resize(scope);
   cur_list_ = &ifp->else_list;
   cur_ = new_block(ifp->else_list, ifp);
   def *other = reg ? nullptr : imm(32, 0x0badcafe);
   block *else_end = cur_;
   cur_list_ = saved_list;
   cur_parent_ = saved_parent;
   cur_ = new_block(*cur_list_, cur_parent_);
   def *d;
   if (reg) {
      d = load_reg(reg);
   } else {
      auto phi = std::make_unique<phi_instr>();
      phi->srcs.push_back({then_end, got});
      phi->srcs.push_back({else_end, other});
      d = init_def(phi->dest, phi.get(), 32, 1, true);
      emit(std::move(phi));
   }
   make_visible(d);
   exchanged_.push_back(d);
   return true;
}

/* The exchange in a loop that every invocation of the group runs the
 * same number of times (its constant trip count is its only exit, so the
 * barriers' control flow stays uniform across the workgroup).  Each trip
 * stores values of its own; a second barrier at the end of the body keeps
 * the next trip's stores from overtaking a slower thread's load.  The
 * words read are summed into what leaves the loop.
 */
void
generator::gen_exchange_loop(unsigned region)
{
   const unsigned trips = 1 + rng_.below(3);
   def *zero = imm(32, 0);
   block *preheader = cur_;
   def *counter_reg = nullptr, *sum_reg = nullptr;
   if (o_.registers) {
      counter_reg = new_reg(32, 1, false);
      regs_.back().locked = true;
      store_reg(counter_reg, zero, 1);
      sum_reg = new_reg(32, 1, true);
      regs_.back().locked = true;
      store_reg(sum_reg, zero, 1);
   }

   cf_list *saved_list = cur_list_;
   cf_node *saved_parent = cur_parent_;
   const size_t scope = visible_.size();
   loop *lpp = begin_loop();
   def *i, *sum;
   phi_instr *i_phi = nullptr, *sum_phi = nullptr;
   if (o_.registers) {
      i = load_reg(counter_reg);
      sum = load_reg(sum_reg);
   } else {
      auto ip = std::make_unique<phi_instr>();
      i = init_def(ip->dest, ip.get(), 32, 1, false);
      i_phi = emit(std::move(ip));
      auto sp = std::make_unique<phi_instr>();
      sum = init_def(sp->dest, sp.get(), 32, 1, true);
      sum_phi = emit(std::move(sp));
   }
   info(i).bound = trips;
   def *done = alu(alu_op::uge32, 32, {{i, 0}, const_operand(32, trips)});
   info(done).is_bool = true;
   if_ *ifp = push_if(done);
   cur_ = new_block(ifp->then_list, ifp);
   block *exit_pred = cur_;
   auto j = std::make_unique<jump_instr>();
   j->kind = jump_type::break_;
   emit(std::move(j));
   new_block(ifp->else_list, ifp);
   cur_ = new_block(lpp->body, lpp);

   exchange(region, i);
   def *got = exchanged_.back();
   exchanged_.pop_back();
   def *sum2 = alu(alu_op::iadd, 32, {{sum, 0}, {got, 0}});
   barrier();
   def *i2 = alu(alu_op::iadd, 32, {{i, 0}, const_operand(32, 1)});
   if (o_.registers) {
      store_reg(counter_reg, i2, 1);
      store_reg(sum_reg, sum2, 1);
   } else {
      i_phi->srcs.push_back({preheader, zero});
      i_phi->srcs.push_back({cur_, i2});
      sum_phi->srcs.push_back({preheader, zero});
      sum_phi->srcs.push_back({cur_, sum2});
   }
   visible_.resize(scope);
   cur_list_ = saved_list;
   cur_parent_ = saved_parent;
   cur_ = new_block(*cur_list_, cur_parent_);
   def *d;
   if (o_.registers) {
      d = load_reg(sum_reg);
   } else {
      auto phi = std::make_unique<phi_instr>();
      phi->srcs.push_back({exit_pred, sum});
      d = init_def(phi->dest, phi.get(), 32, 1, true);
      emit(std::move(phi));
   }
   make_visible(d);
   exchanged_.push_back(d);
}

/* One exchange through the dwords at region (gen_exchange()); salt, if
 * given, is added to every value stored.
 */
void
generator::exchange(unsigned region, def *salt)
{
   /* A value that differs between invocations, so which one a load got
    * shows, and is exact (no approximation nor filtered texel reaches it:
    * the check compares every word it reaches bit for bit; random data
    * goes through shared memory in gen_shared()).
    */
   auto own_value = [&]() {
      def *tag = alu(alu_op::imul, 32, {{local_index_, 0}, const_operand(32, 0x01000193)});
      def *v = alu(alu_op::iadd, 32, {{tag, 0}, random_const(32)});
      if (salt) {
         def *t = alu(alu_op::imul, 32, {{salt, 0}, const_operand(32, 0x9e3779b1)});
         v = alu(alu_op::iadd, 32, {{v, 0}, {t, 0}});
      }
      return v;
   };
   auto load_at = [&](def *index) {
      def *addr = alu(alu_op::ishl, 32, {{index, 0}, const_operand(32, 2)});
      intrinsic_instr *ld = intrinsic(intrinsic_op::load_shared, 1);
      ld->srcs[0].ssa = addr;
      ld->set_index(intrinsic_index::base, int32_t(region));
      ld->set_index(intrinsic_index::align_mul, 4);
      ld->set_index(intrinsic_index::align_offset, 0);
      def *got = finish_intrinsic(ld, 32, true);
      make_visible(got);
      exchanged_.push_back(got);
   };
   if (o_.atomics && rng_.chance(30)) {
      def *word = alu(alu_op::iand, 32, {{local_index_, 0}, const_operand(32, 3)});
      def *addr = alu(alu_op::ishl, 32, {{word, 0}, const_operand(32, 2)});
      def *data = own_value();
      intrinsic_instr *in = intrinsic(intrinsic_op::shared_atomic, 1);
      in->srcs[0].ssa = addr;
      in->srcs[1].ssa = data;
      in->set_index(intrinsic_index::base, int32_t(region));
      /* nir_atomic_op: iadd imin umin imax umax iand ior ixor (0-7). */
      in->set_index(intrinsic_index::atomic_op, int32_t(rng_.below(8)));
      finish_intrinsic(in, 32, true);
      barrier();
      def *other = alu(alu_op::iadd, 32, {{local_index_, 0}, const_operand(32, 1 + rng_.below(3))});
      load_at(alu(alu_op::iand, 32, {{other, 0}, const_operand(32, 3)}));
      return;
   }
   def *value = own_value();
   def *own = alu(alu_op::ishl, 32, {{local_index_, 0}, const_operand(32, 2)});
   intrinsic_instr *st = intrinsic(intrinsic_op::store_shared, 1);
   st->srcs[0].ssa = value;
   st->srcs[1].ssa = own;
   st->set_index(intrinsic_index::base, int32_t(region));
   st->set_index(intrinsic_index::write_mask, 1);
   st->set_index(intrinsic_index::align_mul, 4);
   st->set_index(intrinsic_index::align_offset, 0);
   barrier();
   def *partner;
   switch (rng_.below(3)) {
   case 0:
      /* wg - 1 - i (final-form NIR has no isub). */
      partner = alu(alu_op::ineg, 32, {{local_index_, 0}});
      partner = alu(alu_op::iadd, 32, {{partner, 0}, const_operand(32, wg_ - 1)});
      break;
   case 1:
      partner = alu(alu_op::ixor, 32, {{local_index_, 0}, const_operand(32, 1)});
      break;
   default: {
      const unsigned dist[] = {1, 8, 16, wg_ / 2, wg_ - 1};
      def *sum = alu(alu_op::iadd, 32, {{local_index_, 0}, const_operand(32, dist[rng_.below(5)])});
      /* (i + d) mod wg: i + d - wg unless that wraps around. */
      def *wrapped = alu(alu_op::iadd, 32, {{sum, 0}, const_operand(32, uint32_t(-int32_t(wg_)))});
      partner = alu(alu_op::umin, 32, {{sum, 0}, {wrapped, 0}});
      break;
   }
   }
   load_at(partner);
}

/* Compute shaders: an atomic on a dword of this invocation's own output
 * slot (bytes 16..63, before the final stores); its old value is used.
 */
bool
generator::gen_atomic()
{
   if (!o_.atomics || !o_.ssbo || sh_->info.stage != shader_stage::compute)
      return false;
   const bool swap = rng_.chance(20);
   def *index = imm(32, 1);
   def *offset = ssbo_slot(16 + 4 * rng_.below(12));
   /* A float atomic (fmin, fmax, fcmpxchg: Gen9's float message has no
    * fadd) a quarter of the time, on a float stored there just before, so
    * the old value is a number.  The operands always go through the
    * fmax/fmin clamp, which flushes a denormal on both sides: an operand
    * may be one (a small loop counter's bits count as bounded), and the
    * simulator's atomic does not flush where the interpreter's fmin/fmax
    * do (random cs 219, 253, 923 mismatched so).
    */
   const bool fp = o_.float_atomics && rng_.chance(25);
   auto bounded_float = [&]() {
      const double lim = 64;
      operand f = float_operand(32, lim, domain::any);
      def *lo = alu(alu_op::fmax, 32, {f, {fimm(32, -lim), 0}});
      def *hi = alu(alu_op::fmin, 32, {{lo, 0}, {fimm(32, lim), 0}});
      info(hi).bound = lim;
      return hi;
   };
   def *data, *data2 = nullptr;
   if (fp) {
      def *old = bounded_float();
      store_ssbo(old, offset, 4);
      data = swap && rng_.chance(50) ? old : bounded_float();
      if (swap)
         data2 = bounded_float();
   } else {
      data = shaped_value(32, 1, false);
      data2 = swap ? shaped_value(32, 1, false) : nullptr;
   }
   intrinsic_instr *in = intrinsic(swap ? intrinsic_op::ssbo_atomic_swap
                                        : intrinsic_op::ssbo_atomic, 1);
   in->srcs[0].ssa = index;
   in->srcs[1].ssa = offset;
   in->srcs[2].ssa = data;
   if (swap)
      in->srcs[3].ssa = data2;
   /* nir_atomic_op: iadd imin umin imax umax iand ior ixor xchg (0-8),
    * fadd fmin fmax (9-11), cmpxchg (12), fcmpxchg (13).
    */
   const int32_t op = fp ? (swap ? 13 : 10 + int32_t(rng_.below(2))) :
                           (swap ? 12 : int32_t(rng_.below(9)));
   in->set_index(intrinsic_index::atomic_op, op);
   in->set_index(intrinsic_index::access, 0);
   used_ssbo_store_ = true;
   make_visible(finish_intrinsic(in, 32, true));
   return true;
}

/* An image intrinsic on a constant image index at coord (a vec4), with
 * sample and level 0; image_size takes no coordinate.
 */
intrinsic_instr *
generator::image_access(intrinsic_op op, unsigned image, def *coord, unsigned comps,
                        def *index)
{
   def *zero = imm(32, 0);
   if (!index)
      index = imm(32, image);
   intrinsic_instr *in = intrinsic(op, comps);
   in->srcs[0].ssa = index;
   if (op == intrinsic_op::image_size) {
      in->srcs[1].ssa = zero;
   } else {
      in->srcs[1].ssa = coord;
      in->srcs[2].ssa = zero;
      if (op == intrinsic_op::image_load)
         in->srcs[3].ssa = zero;
   }
   /* glsl_sampler_dim 2D 1, Buf 5; formats as the images hold them. */
   in->set_index(intrinsic_index::image_dim, image == image_buf ? 5 : 1);
   in->set_index(intrinsic_index::image_array, image == image_arr ? 1 : 0);
   unsigned fmt = 0;
   value_of(image_format_names, image == image_ro ? "r32_uint" : image == image_buf
                                   ? "r32_sint" : "r32g32b32a32_float", &fmt);
   in->set_index(intrinsic_index::format, int32_t(fmt));
   in->set_index(intrinsic_index::access, 0);
   in->set_index(intrinsic_index::range_base, 0);
   const alu_type t = image == image_ro ? type_uint32 : image == image_buf ? type_int32
                                                                          : type_float32;
   if (op == intrinsic_op::image_load)
      in->set_index(intrinsic_index::dest_type, t);
   if (op == intrinsic_op::image_store)
      in->set_index(intrinsic_index::src_type, t);
   images_used_ |= 1u << image;
   return in;
}

/* The coordinates (a vec4) of the invocation's own texel, which no other
 * invocation writes: compute, slot s = workgroup * 32 + local index at x = s
 * of the buffer and (s % 8, s / 8 % 8, s / 64) of the array; fragment, the
 * pixel (x, y) at x + 64 y of the buffer and (x, y, 0) of the array.  Out
 * of an image's bounds the access does nothing (loads 0).
 */
def *
generator::own_texel(unsigned image)
{
   def *zero = imm(32, 0);
   if (sh_->info.stage == shader_stage::fragment) {
      if (!frag_pixel_) {
         def *fc = finish_intrinsic(intrinsic(intrinsic_op::load_frag_coord, 4), 32, true);
         def *x = alu(alu_op::f2u32, 32, {{fc, 0}});
         def *y = alu(alu_op::f2u32, 32, {{fc, 1}});
         frag_pixel_ = alu(alu_op::vec2, 32, {{x, 0}, {y, 0}});
         /* Made at the top of the program, where every use sees it. */
         std::unique_ptr<instr> moved[4];
         for (unsigned k = 0; k < 4; k++) {
            moved[3 - k] = std::move(cur_->instrs.back());
            cur_->instrs.pop_back();
         }
         for (unsigned k = 0; k < 4; k++) {
            moved[k]->block = entry_;
            insert_at_top(std::move(moved[k]), false);
         }
      }
      if (image == image_buf) {
         def *row = alu(alu_op::imul, 32, {{frag_pixel_, 1}, const_operand(32, 64)});
         def *x = alu(alu_op::iadd, 32, {{frag_pixel_, 0}, {row, 0}});
         return alu(alu_op::vec4, 32, {{x, 0}, {zero, 0}, {zero, 0}, {zero, 0}});
      }
      return alu(alu_op::vec4, 32, {{frag_pixel_, 0}, {frag_pixel_, 1}, {zero, 0}, {zero, 0}});
   }
   def *wg = alu(alu_op::imul, 32, {{workgroup_id_, 0}, const_operand(32, wg_)});
   def *slot = alu(alu_op::iadd, 32, {{local_index_, 0}, {wg, 0}});
   if (image == image_buf)
      return alu(alu_op::vec4, 32, {{slot, 0}, {zero, 0}, {zero, 0}, {zero, 0}});
   def *x = alu(alu_op::iand, 32, {{slot, 0}, const_operand(32, 7)});
   def *s8 = alu(alu_op::ushr, 32, {{slot, 0}, const_operand(32, 3)});
   def *y = alu(alu_op::iand, 32, {{s8, 0}, const_operand(32, 7)});
   def *layer = alu(alu_op::ushr, 32, {{slot, 0}, const_operand(32, 6)});
   return alu(alu_op::vec4, 32, {{x, 0}, {y, 0}, {layer, 0}, {zero, 0}});
}

void
generator::image_store(unsigned image, def *coord, def *value)
{
   intrinsic_instr *in = image_access(intrinsic_op::image_store, image, coord, 4);
   in->srcs[3].ssa = value;
   in->srcs[4].ssa = in->srcs[2].ssa;   /* level 0 */
   used_ssbo_store_ = true;   /* writes memory */
}

/* Compute and fragment shaders: one image operation.  Image 3 is only
 * read, at any coordinates (some outside: 0); images 4 and 5 are written
 * only at the invocation's own texel (own_texel), and read only there, so
 * no invocation sees another's write; atomics (every integer op Gen9's
 * typed atomic has, cmpxchg as image_atomic_swap) on the own texel of the
 * buffer image.  Fragment shaders store and run atomics only where the
 * channel is not a helper invocation, inside an if.
 */
bool
generator::gen_image()
{
   const shader_stage stage = sh_->info.stage;
   if (!o_.images || (stage != shader_stage::compute && stage != shader_stage::fragment))
      return false;
   const unsigned what = rng_.below(10);
   if (what < 3) {
      /* A load of the read-only image: coordinates masked to 0..15, or
       * raw values (mostly outside, negative ones included).
       */
      operand x = raw32(any_value(rng_.pick(enabled_sizes(s_int)), false));
      operand y = raw32(any_value(rng_.pick(enabled_sizes(s_int)), false));
      if (rng_.chance(75)) {
         x = {alu(alu_op::iand, 32, {x, const_operand(32, 15)}), 0};
         y = {alu(alu_op::iand, 32, {y, const_operand(32, 7)}), 0};
      }
      def *coord = alu(alu_op::vec4, 32, {x, y, {imm(32, 0), 0}, {imm(32, 0), 0}});
      const unsigned comps = rng_.chance(70) ? 1 : 4;
      /* A third of them choose image 3 or 6 per channel (a non-uniform
       * index: the access runs once per distinct index).
       */
      def *index = nullptr;
      if (rng_.chance(33)) {
         def *cond = condition(false);
         index = alu(alu_op::b32csel, 32, {{cond, 0}, const_operand(32, image_ro),
                                          const_operand(32, image_ro2)});
         images_used_ |= 1u << image_ro2;
      }
      intrinsic_instr *in = image_access(intrinsic_op::image_load, image_ro, coord, comps, index);
      make_visible(finish_intrinsic(in, 32, coord->divergent || (index && index->divergent)));
      return true;
   }
   if (what < 4) {
      const unsigned image = rng_.chance(50) ? image_ro : image_buf;
      intrinsic_instr *in = image_access(intrinsic_op::image_size, image, nullptr,
                                         image == image_ro ? 2 : 1);
      make_visible(finish_intrinsic(in, 32, false));
      return true;
   }
   const unsigned image = rng_.chance(60) ? image_buf : image_arr;
   if (what < 6) {
      /* A load of the own texel: what this invocation stored, or the
       * input's word.
       */
      const unsigned comps = image == image_arr ? 1 + rng_.below(4) : rng_.chance(70) ? 1 : 4;
      intrinsic_instr *in = image_access(intrinsic_op::image_load, image, own_texel(image),
                                         comps);
      make_visible(finish_intrinsic(in, 32, true));
      return true;
   }

   /* Stores and atomics: in fragment shaders under if (!helper), but half
    * the stores without it (ibis must keep helpers from writing, as the
    * interpreter does).  An atomic's result in a helper is undefined
    * (ibis predicates it away) and may reach derivatives: always under
    * the if.
    */
   const bool store = what < 8 || image == image_arr;
   const bool fs = stage == shader_stage::fragment && !(store && rng_.chance(50));
   cf_list *saved_list = cur_list_;
   cf_node *saved_parent = cur_parent_;
   if_ *ifp = nullptr;
   if (fs) {
      def *helper = finish_intrinsic(intrinsic(intrinsic_op::is_helper_invocation, 1), 32, true);
      def *live = alu(alu_op::inot, 32, {{helper, 0}});
      info(live).is_bool = true;
      ifp = push_if(live);
      cur_list_ = &ifp->then_list;
      cur_parent_ = ifp;
      cur_ = new_block(ifp->then_list, ifp);
   }
   const size_t scope = visible_.size();
   if (store) {
      def *value;
      if (image == image_arr) {
         std::vector<operand> f;
         for (unsigned k = 0; k < 4; k++)
            f.push_back(float_operand(32, float_cap(32), domain::any));
         value = alu(alu_op::vec4, 32, f);
      } else {
         /* Four components; the r32 image keeps the first. */
         value = shaped_value(32, rng_.chance(70) ? 1 : 4, false);
         if (value->num_components == 1)
            value = alu(alu_op::vec4, 32, {{value, 0}, {value, 0}, {value, 0}, {value, 0}});
      }
      image_store(image, own_texel(image), value);
   } else {
      const bool swap = rng_.chance(20);
      def *coord = own_texel(image_buf);
      def *data = shaped_value(32, 1, false);
      def *data2 = swap ? shaped_value(32, 1, false) : nullptr;
      intrinsic_instr *in = image_access(swap ? intrinsic_op::image_atomic_swap
                                              : intrinsic_op::image_atomic,
                                         image_buf, coord, 1);
      in->srcs[3].ssa = data;
      if (swap)
         in->srcs[4].ssa = data2;
      /* nir_atomic_op: iadd imin umin imax umax iand ior ixor xchg (0-8),
       * cmpxchg 12.
       */
      in->set_index(intrinsic_index::atomic_op, swap ? 12 : int32_t(rng_.below(9)));
      used_ssbo_store_ = true;
      make_visible(finish_intrinsic(in, 32, true));
   }
   if (fs) {
      /* What the then-block made is not visible after the if. */
      visible_.resize(scope);
      cur_list_ = &ifp->else_list;
      cur_ = new_block(ifp->else_list, ifp);
      cur_list_ = saved_list;
      cur_parent_ = saved_parent;
      cur_ = new_block(*cur_list_, cur_parent_);
   }
   return true;
}

/* Fragment shaders: some channels end (terminate_if) or become helpers
 * (demote_if) just before the outputs, so that the outputs of only some
 * channels are kept.
 */
def *
generator::gen_discard()
{
   if (!o_.discard || sh_->info.stage != shader_stage::fragment || rng_.chance(50))
      return nullptr;
   def *cond = condition(false);
   const bool demote = rng_.chance(50);
   intrinsic_instr *in = intrinsic(demote ? intrinsic_op::demote_if
                                          : intrinsic_op::terminate_if, 1);
   in->srcs[0].ssa = cond;
   if (!demote) {
      sh_->info.fs.uses_discard = true;
      return nullptr;
   }
   sh_->info.fs.uses_demote = true;
   if (!o_.subgroups || rng_.chance(50))
      return nullptr;
   /* Half the demotes: the ballot of is_helper_invocation after it, which
    * the channels still lit see (demoted ones count as helpers).
    */
   def *helper = finish_intrinsic(intrinsic(intrinsic_op::is_helper_invocation, 1), 32, true);
   intrinsic_instr *b = intrinsic(intrinsic_op::ballot, 1);
   b->srcs[0].ssa = helper;
   return finish_intrinsic(b, 32, false);
}

/* A 32-bit word mixing several values, so that they are all observed. */
operand
generator::mixed_word()
{
   operand acc = raw32(any_value(rng_.pick(enabled_sizes(s_int)), false));
   for (unsigned k = 0; k < 2; k++) {
      operand v = raw32(any_value(rng_.pick(enabled_sizes(s_int)), false));
      acc = {alu(rng_.chance(50) ? alu_op::ixor : alu_op::iadd, 32, {acc, v}), 0};
   }
   return acc;
}

void
generator::store_output(def *value, unsigned base, unsigned location,
                        alu_type type)
{
   intrinsic_instr *in = intrinsic(intrinsic_op::store_output, 4);
   in->srcs[0].ssa = value;
   in->srcs[1].ssa = zero_offset();
   in->set_index(intrinsic_index::base, int32_t(base));
   in->set_index(intrinsic_index::range, 1);
   in->set_index(intrinsic_index::write_mask, 0xf);
   in->set_index(intrinsic_index::component, 0);
   in->set_index(intrinsic_index::src_type, type);
   io_semantics io;
   io.location = location;
   io.num_slots = 1;
   in->set_index(intrinsic_index::io_semantics, int32_t(io.pack()));
   sh_->info.outputs_written |= uint64_t(1) << location;
   sh_->num_outputs++;
}

void
generator::gen_outputs()
{
   /* Every register's final value is observed. */
   for (const reg_info &r : regs_) {
      if (!r.locked)
         make_visible(load_reg(r.decl));
   }
   std::vector<operand> digests = array_digests();
   std::vector<operand> words, floats;
   for (unsigned c = 0; c < 4; c++) {
      words.push_back(mixed_word());
      floats.push_back(float_operand(32, float_cap(32), domain::any));
   }
   for (size_t i = 0; i < digests.size(); i++)
      words[i % 4] = {alu(alu_op::ixor, 32, {words[i % 4], digests[i]}), 0};
   def *raw = alu(alu_op::vec4, 32, words);
   const shader_stage stage = sh_->info.stage;
   if (stage == shader_stage::compute) {
      store_ssbo(raw, ssbo_slot(0), 16);
      /* The words other invocations left in shared memory, each in SSBO
       * 2 (16 bytes per invocation): a buffer of their own, which the
       * check classifies apart from SSBO 1's mix of everything.
       */
      if (!exchanged_.empty()) {
         def *wg = alu(alu_op::imul, 32, {{workgroup_id_, 0}, const_operand(32, wg_)});
         def *slot = alu(alu_op::iadd, 32, {{local_index_, 0}, {wg, 0}});
         def *base = alu(alu_op::imul, 32, {{slot, 0}, const_operand(32, 4 * max_exchanges)});
         std::vector<operand> got;
         for (def *d : exchanged_)
            got.push_back({d, 0});
         static const alu_op vecs[] = {alu_op::mov, alu_op::mov, alu_op::vec2,
                                       alu_op::vec3, alu_op::vec4};
         store_ssbo(alu(vecs[got.size()], 32, got), base, 16, 2);
      }
      return;
   }
   def *fl = alu(alu_op::vec4, 32, floats);
   if (def *h = gen_discard()) {
      def *x = alu(alu_op::ixor, 32, {{raw, 0}, {h, 0}});
      raw = alu(alu_op::vec4, 32, {{x, 0}, {raw, 1}, {raw, 2}, {raw, 3}});
   }
   const bool vs = stage == shader_stage::vertex;
   const unsigned loc_f = vs ? loc_varying_pos : loc_frag_data0;
   const unsigned loc_r = vs ? loc_varying_var0 : loc_frag_data0 + 1;
   store_output(fl, vs ? loc_f : 8, loc_f, type_float32);
   store_output(raw, vs ? loc_r : 10, loc_r, type_uint32);
   sh_->variables.push_back(io_var(var_shader_out, "vec4", "out_float", int(loc_f),
                                   vs ? loc_f : 8));
   sh_->variables.push_back(io_var(var_shader_out, "uvec4", "out_bits", int(loc_r),
                                   vs ? loc_r : 10));
}

/* The header fields Mesa's nir_gather_info would have filled in. */
void
generator::finish_info()
{
   shader_info &si = sh_->info;
   const shader_stage stage = si.stage;
   si.has_name = true;
   si.name = "ibis-random";
   si.next_stage = int(stage == shader_stage::compute ? shader_stage::compute
                                                      : shader_stage::fragment);
   si.subgroup_size = 1;
   si.divergence_analysis_run = true;
   si.first_ubo_is_default_ubo = true;
   si.flrp_lowered = true;
   si.uses_wide_subgroup_intrinsics = used_subgroups_;
   si.uses_fddx_fddy = used_derivatives_;
   si.uses_resource_info_query = used_txs_;
   si.uses_texture_gather = used_gather_;
   si.writes_memory = used_ssbo_store_;
   if (stage == shader_stage::fragment)
      si.fs.needs_quad_helper_invocations = used_derivatives_ || used_quads_;
   if (stage == shader_stage::compute)
      si.workgroup_size = {uint16_t(wg_), 1, 1};
   if (used_push_)
      sh_->num_uniforms = push_size;
   if (used_shared_)
      si.shared_size = wg_ * (shared_slot_size + 4 * exchanges_);
   if (used_ubo_) {
      si.num_ubos = 1;
      variable v;
      v.mode = var_mem_ubo;
      v.type = "uvec4[16]";
      v.name = "ubo0";
      sh_->variables.push_back(v);
   }
   if (used_ssbo_ || used_ssbo_store_) {
      si.num_ssbos = exchanged_.empty() ? 2 : 3;
      for (unsigned b = 0; b < si.num_ssbos; b++) {
         variable v;
         v.mode = var_mem_ssbo;
         v.type = "uvec4[]";
         v.name = b == 0 ? "ssbo_in" : b == 1 ? "ssbo_out" : "ssbo_shared";
         v.binding = b;
         v.access = b == 0 ? uint32_t(access_non_writeable) : 0u;
         sh_->variables.push_back(v);
      }
   }
   if (images_used_) {
      si.num_images = image_ro2 + 1;
      si.images_used[0] = images_used_;
      si.image_buffers[0] = images_used_ & (1u << image_buf);
      for (unsigned i = image_ro; i <= image_ro2; i++) {
         const bool ro = i == image_ro || i == image_ro2;
         variable v;
         v.mode = var_image;
         v.type = ro ? "uimage2D" : i == image_buf ? "iimageBuffer" : "image2DArray";
         v.image_format = ro ? "r32_uint" : i == image_buf ? "r32_sint" : "r32g32b32a32_float";
         v.access = ro ? uint32_t(access_non_writeable) : 0u;
         v.name = "img" + std::to_string(i);
         v.binding = i;
         sh_->variables.push_back(v);
      }
   }
   if (textures_used_) {
      si.num_textures = num_textures;
      for (unsigned t = 0; t < num_textures; t++) {
         variable v;
         v.mode = var_uniform;
         v.type = "sampler2D";
         v.name = "tex" + std::to_string(t);
         v.location = int(t);
         v.driver_location = t;
         v.binding = t;
         sh_->variables.push_back(v);
      }
      if (used_shadow_) {
         si.num_textures = shadow_unit + 1;
         variable v;
         v.mode = var_uniform;
         v.type = "sampler2DShadow";
         v.name = "shadow" + std::to_string(shadow_unit);
         v.location = int(shadow_unit);
         v.driver_location = shadow_unit;
         v.binding = shadow_unit;
         sh_->variables.push_back(v);
      }
      si.textures_used[0] = textures_used_;
      si.samplers_used[0] = samplers_used_;
      si.textures_used_by_txf[0] = txf_textures_;
   }

   /* Bit sizes of float and integer ALU operands, as nir_gather_info. */
   for (block *b : blocks_in_order(*impl_)) {
      for (const auto &in : b->instrs) {
         if (in->type != instr_type::alu)
            continue;
         const alu_instr &a = static_cast<const alu_instr &>(*in);
         const alu_op_info &oi = op_info(a.op);
         auto note = [&](alu_type t, unsigned bits) {
            (base_type(t) == type_float ? si.bit_sizes_float : si.bit_sizes_int) |=
               uint8_t(bits);
         };
         note(oi.output_type, a.dest.bit_size);
         for (unsigned i = 0; i < a.srcs.size(); i++)
            note(oi.input_types[i], a.srcs[i].ssa->bit_size);
      }
   }
}

std::unique_ptr<shader>
generator::run()
{
   const shader_stage stage = o_.stage;
   if (stage != shader_stage::vertex && stage != shader_stage::fragment &&
       stage != shader_stage::compute)
      throw error(strfmt("nir_random: unsupported stage %d", int(stage)));

   sh_ = std::make_unique<shader>();
   sh_->info.stage = stage;
   auto f = std::make_unique<function>();
   f->name = "main";
   f->impl = std::make_unique<function_impl>();
   f->impl->function = f.get();
   impl_ = f->impl.get();
   sh_->functions.push_back(std::move(f));

   cur_list_ = &impl_->body;
   cur_parent_ = nullptr;
   entry_ = cur_ = new_block(impl_->body, nullptr);
   gen_inputs();
   context top;
   gen_code(o_.num_instrs, top);
   gen_outputs();
   build_cfg(*impl_);
   finish_info();
   return std::move(sh_);
}

} /* namespace */

std::vector<alu_op>
random_alu_ops()
{
   std::vector<alu_op> ops;
   for (const op_entry &e : final_form_ops)
      ops.push_back(e.op);
   return ops;
}

std::unique_ptr<shader>
generate(const random_options &opts)
{
   generator g(opts);
   return g.run();
}

} /* namespace ibis::nir */
