/*
 * The ibis backend IR.
 *
 * A shader is a list of basic blocks in program order; each block holds a
 * list of instructions.  Instructions read operands and write values; every
 * operand that names a value points at that value, and every value knows the
 * instructions that write it (defs) and the operands that read it (uses),
 * so use -> def and def -> uses are both one pointer away.  There are no
 * integer register names before register allocation.
 *
 * Register files (design §2):
 *   SSA      one full write that dominates every use; no regions.
 *   WLR      write-lock-read: several, possibly partial, writes, all in one
 *            block; reads are by an instruction whose only output is the
 *            value, or are dominated by the last write.
 *   HW_REG   a fixed physical register (g0, g1, ...), full regioning.
 *   UNIFORM  push constants, width 1, defined at program start.
 *   ATTR     push attributes, dispatch width, defined at program start.
 *   FLAG     boolean SSA values living in f0.0/f0.1/f1.0/f1.1.
 *   ACCUM    the accumulator, tracked as a dependency.
 * Immediates are operands without a value (operand::is_imm()).
 *
 * Lifetime: the shader owns every value, instruction and block; removing an
 * instruction from its block unlinks it from all use/def lists but keeps
 * the memory until the shader dies, so pointers held by a pass stay valid.
 *
 * Editing: build with ibis::builder (ir/ibis_builder.h).  Change operands
 * only through instr::set_src()/set_dst()/... so that use lists stay right.
 * After changing block structure (adding blocks or control flow
 * instructions) call shader::rebuild_cfg().
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "ir/ibis_opcodes.h"
#include "ir/ibis_small_vector.h"

namespace ibis {

class value;
class instr;
class block;
class shader;

enum class reg_file : uint8_t {
   ssa, wlr, hw_reg, uniform, attr, imm, flag, accum,
};

const char *file_name(reg_file f);

/* Operand and value types.  v, uv and vf are the packed-vector immediate
 * types; flag is the type of FLAG values (one bit per channel).
 */
enum class data_type : uint8_t {
   none,
   u8, s8, u16, s16, f16, u32, s32, f32, u64, s64, f64,
   v, uv, vf,
   flag,
};

/* Bits per type, by data_type (inline: allocation and scheduling ask for
 * it in their inner loops).
 */
inline constexpr uint8_t type_bits_table[] = {
   0, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64, 32, 32, 32, 1,
};
inline unsigned type_bits(data_type t) { return type_bits_table[unsigned(t)]; }
bool type_is_float(data_type t);
bool type_is_signed_int(data_type t);
bool type_is_vector_imm(data_type t);
const char *type_name(data_type t);
/* Parses a type name ("f32", "uv", "flag"); false if unknown. */
bool type_from_name(const std::string &s, data_type *t);

/* A physical location, set by register allocation (or fixed for HW_REG,
 * push constants and attributes).
 */
struct phys_reg {
   enum kind_t : uint8_t { none, grf, flag, acc } kind = none;
   uint16_t nr = 0;
   uint16_t subreg = 0;     /* bytes for grf/acc, 16-bit halves for flag */

   bool valid() const { return kind != none; }
   bool operator==(const phys_reg &o) const
   {
      return kind == o.kind && nr == o.nr && subreg == o.subreg;
   }
};

/* A point of use of a value: an instruction and the operand slot. */
struct use {
   enum : int { predicate = -1, preserve = -2 };

   instr *in;
   int slot;                /* source index, or predicate / preserve */
};

/* A value's writers and readers: one writer and a few readers are the
 * usual case, kept inside the value.
 */
using def_list = small_vector<instr *, 1>;
using use_list = small_vector<use, 4>;

class value {
public:
   uint32_t id;
   reg_file file;
   data_type type;          /* natural type; gives the bit size */
   uint8_t width;           /* SIMD channels; 1 for uniform values */
   uint8_t group;           /* first channel covered (quarter control) */
   uint16_t length;         /* number of components */
   phys_reg phys;

   unsigned bit_size() const { return type_bits(type); }
   /* Bytes of one component (width channels); flags count bits, not bytes. */
   /* Flags are bits in the flag register; count them as bytes rounded up. */
   unsigned component_bytes() const { return (width * bit_size() + 7) / 8; }
   unsigned size_bytes() const { return component_bytes() * length; }

   /* The instructions writing this value, in no particular order. */
   const def_list &defs() const { return defs_; }
   /* The single writer of an SSA/FLAG value, or null if there is none. */
   instr *def() const { return defs_.size() == 1 ? defs_[0] : nullptr; }
   const use_list &uses() const { return uses_; }

   /* Defined at program start by the hardware (push constants, attributes). */
   bool is_preloaded() const
   {
      return file == reg_file::uniform || file == reg_file::attr;
   }

   /* Lives in all channels regardless of the execution mask: a NoMask,
    * partial or uniform write, or a file that is global by nature.  Such a
    * value interferes with anything whose register range it shares.
    */
   bool is_simd_global() const;

private:
   friend class instr;
   friend class shader;
   def_list defs_;
   use_list uses_;
};

/* The instruction that computes flag f alike in every channel: a
 * conditional modifier on scalars (width-1 values read whole, immediates),
 * writing nothing else, unpredicated or a compare predicated on such a
 * flag; null if f is not such a flag.  An if on it goes the same way for
 * all channels (a uniform branch).
 */
instr *uniform_flag_def(const value *f);

/* A register region <vstride;width,hstride> in elements; vstride and width
 * are unused on destinations.
 */
struct region {
   uint8_t vstride = 0, width = 0, hstride = 0;

   bool operator==(const region &o) const
   {
      return vstride == o.vstride && width == o.width && hstride == o.hstride;
   }
};

/* An operand: a value (with type, byte offset, region and modifiers), an
 * immediate, or nothing (an empty optional slot).
 */
class operand {
public:
   value *val = nullptr;
   uint64_t imm = 0;        /* immediate bits, zero-extended */
   data_type type = data_type::none;
   uint32_t offset = 0;     /* bytes from the start of the value */
   region rgn;
   bool has_region = false;
   bool neg = false;
   bool abs = false;

   operand() = default;
   operand(value *v) : val(v), type(v ? v->type : data_type::none) {}

   static operand imm_of(data_type t, uint64_t bits);
   static operand imm_f32(float f);
   static operand imm_u32(uint32_t u) { return imm_of(data_type::u32, u); }
   static operand imm_s32(int32_t i) { return imm_of(data_type::s32, uint32_t(i)); }

   bool is_null() const { return !val && type == data_type::none; }
   bool is_imm() const { return !val && type != data_type::none; }
   reg_file file() const { return val ? val->file : reg_file::imm; }

   /* The same operand reading the i-th component from where it starts
    * (%4[3].component(1) is %4[4]): a logical message's vector operand may
    * begin inside a value.
    */
   operand component(unsigned i) const;
   operand as_type(data_type t) const;
   operand with_region(unsigned vstride, unsigned width, unsigned hstride) const;
   operand negate() const { operand o = *this; o.neg = !o.neg; return o; }
   operand absolute() const { operand o = *this; o.abs = true; o.neg = false; return o; }

   bool operator==(const operand &o) const;
   bool operator!=(const operand &o) const { return !(*this == o); }
};

/* Does o read one element for every channel (<0,1,0>)? */
bool is_scalar_region(const operand &o);
/* Does o read the same for every channel: an immediate, or a width-1
 * value read whole or through <0,1,0>?
 */
bool is_scalar_read(const operand &o);

/* An instruction's sources and destinations, room for the usual number
 * (three sources, one destination) inside the instruction.
 */
using src_list = small_vector<operand, 3>;
using dst_list = small_vector<operand, 1>;

enum class cond_mod : uint8_t { none, z, nz, g, ge, l, le, o, u };
const char *cond_mod_name(cond_mod c);

/* The condition with the compared operands exchanged (a > b is b < a). */
inline cond_mod
cond_mod_swapped(cond_mod c)
{
   switch (c) {
   case cond_mod::g: return cond_mod::l;
   case cond_mod::ge: return cond_mod::le;
   case cond_mod::l: return cond_mod::g;
   case cond_mod::le: return cond_mod::ge;
   default: return c;
   }
}

/* The nodes of a shader's instruction lists, recycled: passes and
 * schedulers insert, remove and reorder instructions all the time, and a
 * node from the heap each time was a fifth of a compile's allocations.
 * Every node has one size; the memory goes with the shader.
 */
class list_node_pool {
public:
   list_node_pool() = default;
   list_node_pool(const list_node_pool &) = delete;
   list_node_pool &operator=(const list_node_pool &) = delete;

   void *alloc(size_t bytes)
   {
      if (free_) {
         void *p = free_;
         free_ = *static_cast<void **>(p);
         return p;
      }
      const size_t align = alignof(std::max_align_t);
      bytes = (bytes + align - 1) / align * align;
      if (left_ < bytes) {
         const size_t n = bytes * (size_t(64) << std::min<size_t>(chunks_.size(), 6));
         chunks_.emplace_back(new char[n]);
         next_ = chunks_.back().get();
         left_ = n;
      }
      void *p = next_;
      next_ += bytes;
      left_ -= bytes;
      return p;
   }
   void free(void *p)
   {
      *static_cast<void **>(p) = free_;
      free_ = p;
   }

private:
   std::vector<std::unique_ptr<char[]>> chunks_;
   char *next_ = nullptr;
   size_t left_ = 0;
   void *free_ = nullptr;
};

/* Single nodes from a list_node_pool (the heap without one). */
template <typename T>
struct list_node_allocator {
   using value_type = T;
   list_node_pool *pool = nullptr;

   list_node_allocator() = default;
   explicit list_node_allocator(list_node_pool *p) : pool(p) {}
   template <typename U>
   list_node_allocator(const list_node_allocator<U> &o) : pool(o.pool) {}

   T *allocate(size_t n)
   {
      if (n == 1 && pool)
         return static_cast<T *>(pool->alloc(sizeof(T)));
      return static_cast<T *>(::operator new(n * sizeof(T)));
   }
   void deallocate(T *p, size_t n)
   {
      if (n == 1 && pool)
         pool->free(p);
      else
         ::operator delete(p);
   }
   template <typename U>
   bool operator==(const list_node_allocator<U> &o) const { return pool == o.pool; }
   template <typename U>
   bool operator!=(const list_node_allocator<U> &o) const { return pool != o.pool; }
};

/* A block's instructions in order. */
using instr_list = std::list<instr *, list_node_allocator<instr *>>;

enum instr_flag : uint32_t {
   INSTR_WE_ALL       = 1u << 0,   /* NoMask: runs on all channels */
   INSTR_EOT          = 1u << 1,   /* ends the thread (sends) */
   INSTR_SIDE_EFFECTS = 1u << 2,   /* an effect the opcode does not imply */
   INSTR_SPILL        = 1u << 3,   /* a register spill the allocator added */
   INSTR_FILL         = 1u << 4,   /* a register fill the allocator added */
   INSTR_UNIFORM      = 1u << 5,   /* an if all channels take alike: a jump */
   /* The predicate holds in a channel where the flag is set in all four
    * channels of its quad (Gen's all4h): a terminate/halt of whole quads.
    */
   INSTR_QUAD_ALL     = 1u << 6,
};

class instr {
public:
   const opcode op;
   uint8_t exec_size;
   uint8_t group = 0;       /* first channel of the execution mask */
   bool saturate = false;
   bool pred_inv = false;
   cond_mod cmod = cond_mod::none;
   uint32_t flags = 0;
   /* Position in program order, set by shader::renumber(). */
   unsigned ip = 0;

   const opcode_info &info() const { return op_info(op); }
   block *parent() const { return block_; }
   /* Where the instruction is in its block's list. */
   instr_list::iterator position() const { return pos_; }

   unsigned num_srcs() const { return srcs_.size(); }
   const operand &src(unsigned i) const { return srcs_[i]; }
   const src_list &srcs() const { return srcs_; }
   unsigned num_dsts() const { return dsts_.size(); }
   const operand &dst(unsigned i = 0) const { return dsts_[i]; }
   const dst_list &dsts() const { return dsts_; }
   /* The FLAG value defined by the conditional modifier, or null. */
   value *flag_def() const { return flag_def_; }
   /* The FLAG value read by the predicate, or null. */
   value *predicate() const { return pred_; }
   /* The tied source whose contents the partial destination write keeps. */
   const operand &preserve() const { return preserve_; }

   void set_src(unsigned i, const operand &o);
   void add_src(const operand &o);
   /* Room for n sources at once (a send's long list). */
   void reserve_srcs(unsigned n) { srcs_.reserve(n); }
   void set_num_srcs(unsigned n);
   void set_dst(unsigned i, const operand &o);
   void add_dst(const operand &o);
   void set_flag_def(value *v);
   void set_predicate(value *v, bool inverted = false);
   void set_preserve(const operand &o);

   bool we_all() const { return flags & INSTR_WE_ALL; }
   bool has_side_effects() const
   {
      return info().side_effects || (flags & INSTR_SIDE_EFFECTS);
   }
   /* Does this instruction write v (as a destination or flag def)? */
   bool writes(const value *v) const;
   /* Does this instruction read v (source, predicate or preserve)? */
   bool reads(const value *v) const;
   bool is_phi() const { return op == opcode::phi; }
   /* if, else, while, break and cont end their block. */
   bool is_block_end() const;
   /* endif and do begin their block. */
   bool is_block_start() const;

   /* Unlinks from the block and from every use/def list. */
   void remove();

   /* The instruction as text, as the printer writes it. */
   std::string str() const;

private:
   friend class shader;
   friend class block;
   instr(opcode op, uint8_t exec_size) : op(op), exec_size(exec_size) {}
   void link_src(const operand &o, int slot);
   void unlink_src(const operand &o, int slot);
   void link_dst(const operand &o);
   void unlink_dst(const operand &o);

   src_list srcs_;
   dst_list dsts_;
   operand preserve_;
   value *flag_def_ = nullptr;
   value *pred_ = nullptr;
   block *block_ = nullptr;
   instr_list::iterator pos_;
   /* Creation order in the shader: clone() finds copies by it. */
   uint32_t serial_ = 0;
};

class block {
public:
   using iterator = instr_list::iterator;

   unsigned index;
   std::vector<block *> preds;
   std::vector<block *> succs;

   /* Iterate with "for (instr *in : blk->instrs())"; to remove while
    * iterating, advance the iterator before calling instr::remove().
    */
   const instr_list &instrs() const { return instrs_; }
   bool empty() const { return instrs_.empty(); }
   instr *first() const { return instrs_.empty() ? nullptr : instrs_.front(); }
   instr *last() const { return instrs_.empty() ? nullptr : instrs_.back(); }
   iterator begin() { return instrs_.begin(); }
   iterator end() { return instrs_.end(); }

   /* First position after the leading endif/do marker and the phis. */
   iterator after_phis();
   /* Last position before a block-ending jump. */
   iterator before_jump();

   void append(instr *in) { insert(instrs_.end(), in); }
   void insert(iterator pos, instr *in);
   void insert_before(instr *pos, instr *in) { insert(pos->pos_, in); }
   void insert_after(instr *pos, instr *in) { insert(std::next(pos->pos_), in); }
   /* Moves in, from the block holding it, in front of pos in this block;
    * its operands and their use and def lists stay as they are.
    */
   void move_here(iterator pos, instr *in);
   /* Puts the block's instructions in the given order, a permutation of
    * them (instruction schedulers).
    */
   void reorder(const std::vector<instr *> &order);

   shader *parent() const { return shader_; }

private:
   friend class shader;
   friend class instr;
   block() = default;
   explicit block(list_node_pool *nodes)
      : instrs_(list_node_allocator<instr *>(nodes)) {}
   instr_list instrs_;
   shader *shader_ = nullptr;
};

/* Storage for a shader's instructions or values: chunks of growing size,
 * so that creating an object costs no allocation of its own, and all of
 * them go at once with the shader (they are never freed one by one).
 */
template <typename T>
class object_pool {
public:
   object_pool() = default;
   object_pool(const object_pool &) = delete;
   object_pool &operator=(const object_pool &) = delete;
   ~object_pool()
   {
      for (size_t c = 0; c < chunks_.size(); c++) {
         const size_t n = c + 1 < chunks_.size() ? chunk_size(c) : used_;
         for (size_t i = 0; i < n; i++)
            chunks_[c][i].obj.~T();
      }
   }

   /* Room for one more object, to be constructed in place at once. */
   void *alloc()
   {
      if (chunks_.empty() || used_ == chunk_size(chunks_.size() - 1)) {
         chunks_.emplace_back(new slot[chunk_size(chunks_.size())]);
         used_ = 0;
      }
      return &chunks_.back()[used_++].obj;
   }

private:
   /* Raw storage: the object's lifetime is the pool's business. */
   union slot {
      slot() {}
      ~slot() {}
      T obj;
   };
   static size_t chunk_size(size_t c) { return size_t(32) << (c < 6 ? c : 6); }
   std::vector<std::unique_ptr<slot[]>> chunks_;
   size_t used_ = 0;   /* objects in the last chunk */
};

enum class shader_stage : uint8_t { vs, tcs, tes, gs, fs, cs };
const char *stage_name(shader_stage s);

class shader {
public:
   shader(shader_stage stage, unsigned dispatch_width);
   ~shader();
   shader(const shader &) = delete;
   shader &operator=(const shader &) = delete;

   shader_stage stage;
   unsigned dispatch_width;

   /* Pipeline state (docs/backend.md).  lowered: only instructions code
    * generation accepts remain, and the validator checks Gen9's encoding
    * rules.  allocated: every register operand has a physical register and
    * no phi or parallel copy is left.  Both print in the header line.
    */
   bool lowered = false;
   bool allocated = false;
   /* Per-thread scratch space in bytes: scratch arrays and spills. */
   unsigned scratch_bytes = 0;

   const std::vector<std::unique_ptr<block>> &blocks() const { return blocks_; }
   block *entry() const { return blocks_.empty() ? nullptr : blocks_[0].get(); }
   block *add_block();

   /* A new value; the default id is the next free one. */
   value *create_value(reg_file file, data_type type, unsigned width,
                       unsigned length = 1, unsigned group = 0,
                       uint32_t id = UINT32_MAX);
   value *find_value(uint32_t id) const
   {
      return id < values_.size() ? values_[id] : nullptr;
   }
   /* Every value, in id order. */
   std::vector<value *> values() const;
   /* One more than the largest value id (size for id-indexed arrays). */
   uint32_t value_id_bound() const { return values_.size(); }

   /* A new instruction, not yet in a block.  exec_size 0 means the
    * dispatch width.
    */
   instr *create_instr(opcode op, unsigned exec_size = 0);

   /* Recomputes preds/succs from the structured control flow; throws
    * ibis::error on unbalanced if/else/endif or do/while, or on a jump that
    * does not end its block.
    */
   void rebuild_cfg();
   /* Numbers instructions in program order (instr::ip), from 0. */
   unsigned renumber();

   std::string str() const;

   /* A deep copy: the same blocks, every value under its id (unused ones
    * too), the instructions in the same order and each value's defs and
    * uses in the same order, so that every pass runs on the copy exactly
    * as on the original (the compiler's scheduling retries start from a
    * copy of the lowered program instead of translating it again).
    */
   std::unique_ptr<shader> clone() const;

   /* Renumbers the values from 0 in their id order, leaving out the SSA,
    * WLR and FLAG values that no instruction names and that have no
    * register: passes compare ids the same way afterwards, and id-indexed
    * analyses (liveness) shrink to the values in use.  Returns the number
    * left out.
    */
   unsigned compact_values();

private:
   /* Declared first, so destroyed last: every value and instruction,
    * also those no block holds and the values compact_values() left out
    * (removed instructions may still name them).
    */
   object_pool<value> value_pool_;
   object_pool<instr> instr_pool_;
   list_node_pool list_nodes_;
   std::vector<std::unique_ptr<block>> blocks_;
   std::vector<value *> values_;      /* indexed by id */
   uint32_t num_instrs_ = 0;          /* instructions created */
};

/* Channels of an SSA/WLR value, by bit size, width, group and length:
 * "f32x16", "u16x8+8[4]".
 */
std::string value_spec(const value *v);

} /* namespace ibis */
