/*
 * Internals of the NIR -> ibis translator, shared by the from_nir_*.cpp
 * files (one per concern).
 */
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "from_nir/from_nir.h"
#include "ir/ibis_builder.h"
#include "util/ibis_error.h"

namespace ibis {

/* The value of an NIR def: one operand per component (an immediate, a
 * length-1 value, or one component of a longer value such as a send's
 * result).
 */
using comps = std::vector<operand>;

/*
 * Register -> SSA reconstruction (Braun et al., "Simple and Efficient
 * Construction of Static Single Assignment Form", CC 2013): NIR registers
 * and shader outputs become variables; reads build minimal, pruned phis as
 * blocks are sealed, and trivial phis are removed as they appear.
 */
class ssa_rebuilder {
public:
   explicit ssa_rebuilder(shader *sh) : sh(sh) {}

   unsigned add_var(data_type type, unsigned width);
   data_type var_type(unsigned var) const { return vars[var].type; }
   unsigned var_width(unsigned var) const { return vars[var].width; }

   void add_pred(block *b, block *pred) { at(preds, b).push_back(pred); }
   const std::vector<block *> &preds_of(block *b) { return at(preds, b); }
   void seal(block *b);

   void write(unsigned var, block *b, value *v) { *current.slot(key(var, b)) = v; }
   value *read(unsigned var, block *b);

   /* The value v stands for now (phis removed as trivial are replaced). */
   value *resolve(value *v) const;

   /* After shader::rebuild_cfg(): puts phi sources in the CFG's
    * predecessor order and checks that the edges agree.
    */
   void finish();

private:
   struct var_info {
      data_type type;
      unsigned width;
   };

   shader *sh;
   std::vector<var_info> vars;
   /* Per block, by block index.  Each lookup first grows the table to the
    * shader's block count; reads add no blocks, so within a chain of
    * recursive reads no table moves under a reference into it.
    */
   template <typename T> T &at(std::vector<T> &v, const block *b)
   {
      if (v.size() < sh->blocks().size())
         v.resize(sh->blocks().size());
      if (b->index >= v.size())
         v.resize(b->index + 1);
      return v[b->index];
   }
   /* The value of each (block, variable) pair that was read or written:
    * the reads of a large shader memoize one entry per block they pass
    * through, so the table is flat (open addressing, linear probing)
    * instead of a node per entry.
    */
   class value_table {
   public:
      /* The slot of k, created null if absent. */
      value **slot(uint64_t k)
      {
         if (2 * (used + 1) > keys.size())
            grow();
         size_t i = find(k);
         if (keys[i] == EMPTY) {
            keys[i] = k;
            vals[i] = nullptr;
            used++;
         }
         return &vals[i];
      }
      /* The value stored for k, or null. */
      value *get(uint64_t k) const
      {
         if (keys.empty())
            return nullptr;
         size_t i = find(k);
         return keys[i] == EMPTY ? nullptr : vals[i];
      }

   private:
      static constexpr uint64_t EMPTY = ~uint64_t(0);
      std::vector<uint64_t> keys;
      std::vector<value *> vals;
      size_t used = 0;

      size_t find(uint64_t k) const
      {
         const size_t mask = keys.size() - 1;
         /* The block index is in the high half: mix it into the low bits. */
         uint64_t h = (k ^ (k >> 29)) * 0xbf58476d1ce4e5b9ull;
         size_t i = size_t(h ^ (h >> 32)) & mask;
         while (keys[i] != EMPTY && keys[i] != k)
            i = (i + 1) & mask;
         return i;
      }
      void grow()
      {
         std::vector<uint64_t> old_keys = std::move(keys);
         std::vector<value *> old_vals = std::move(vals);
         const size_t n = old_keys.empty() ? 256 : 2 * old_keys.size();
         keys.assign(n, EMPTY);
         vals.assign(n, nullptr);
         for (size_t j = 0; j < old_keys.size(); j++) {
            if (old_keys[j] != EMPTY) {
               size_t i = find(old_keys[j]);
               keys[i] = old_keys[j];
               vals[i] = old_vals[j];
            }
         }
      }
   };
   static uint64_t key(unsigned var, const block *b)
   {
      return uint64_t(b->index) << 32 | var;
   }
   value_table current;
   std::vector<std::vector<block *>> preds;
   std::vector<uint8_t> sealed;
   std::vector<std::vector<std::pair<unsigned, value *>>> incomplete;
   /* By value id: what a removed phi stands for, and the undefs of
    * unreachable blocks (vectors: resolve() runs on every read).
    */
   std::vector<value *> replaced;
   std::vector<uint8_t> unreachable_undef;
   static bool has(const std::vector<uint8_t> &set, const value *v)
   {
      return v->id < set.size() && set[v->id];
   }

   value *read_recursive(unsigned var, block *b);
   value *new_phi(unsigned var, block *b);
   value *undef(data_type type, unsigned width, block *b);
   value *add_phi_operands(unsigned var, value *phi);
   value *try_remove_trivial(value *phi);
};

/* Where the thread payload puts things (from_nir_payload.cpp). */
struct payload_layout {
   /* Fixed thread payload: g0 .. g(num_regs - 1). */
   unsigned num_regs = 1;

   /* Push constants: NIR uniforms (load_uniform, num_uniforms bytes), then
    * the pushed UBO ranges, from GRF push_start.
    */
   unsigned push_start = 0;
   unsigned push_regs = 0;
   unsigned uniform_regs = 0;
   std::vector<push_range> ubo_ranges;
   std::vector<unsigned> ubo_range_start;   /* GRF of each range */

   /* VS attributes (4 GRFs per slot at SIMD8) or FS setup data (2 GRFs per
    * varying slot), from GRF attr_start.
    */
   unsigned attr_start = 0;
   std::vector<int> attr_slots;    /* VERT_ATTRIB_* or VARYING_SLOT_* */
   int vs_sgvs_slot = -1;          /* attribute index of the vertex/instance id slot */
   int vs_drawid_slot = -1;

   /* FS (brw's fs_thread_payload), per SIMD16 half. */
   unsigned subspan_coord_reg[2] = {};
   int bary_reg[6][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
   int source_depth_reg[2] = {-1, -1};
   int source_w_reg[2] = {-1, -1};
   int sample_pos_reg[2] = {-1, -1};
   int sample_mask_in_reg[2] = {-1, -1};

   /* CS: the push-constant dword holding the subgroup id (Gen9 delivers
    * it as per-thread push data after the cross-thread constants).
    */
   int cs_subgroup_id_dword = -1;

   /* VS: the VUE map, slot -> VARYING_SLOT_*. */
   std::vector<int> vue_slots;

   int attr_index(int slot) const;
};

payload_layout compute_payload(const nir::shader &s, const from_nir_options &o);

/* A VS load_input without a slot (num_slots 0: brw_nir_lower_vs_inputs'
 * vertex system values): 0 when it reads the vertex/instance id element
 * (base = the attribute count), 1 the draw id element (the next one).
 */
int vs_sysval_element(const nir::shader &s, const nir::intrinsic_instr &in);

/* brw_barycentric_mode */
enum bary_mode {
   BARY_PERSP_PIXEL, BARY_PERSP_CENTROID, BARY_PERSP_SAMPLE,
   BARY_NONPERSP_PIXEL, BARY_NONPERSP_CENTROID, BARY_NONPERSP_SAMPLE,
};
/* The mode of a load_barycentric_{pixel,centroid,sample}; -1 otherwise. */
int barycentric_mode(const nir::intrinsic_instr &in);

/* Some NIR value facts (from_nir_uniform.cpp). */
/* A set of pointers by open addressing: the analysis fills and clears
 * its sets pass after pass and the translator asks them about every def,
 * so a heap node per element cost more than the lookups.  Iteration order
 * means nothing.
 */
template <typename T>
class ptr_set {
public:
   size_t count(const T *p) const
   {
      if (slots_.empty() || !p)
         return 0;
      return slots_[find(p)] == p;
   }
   /* True if p was not in the set. */
   bool insert(const T *p)
   {
      if (2 * (used_ + 1) > slots_.size())
         grow();
      const T *&s = slots_[find(p)];
      if (s == p)
         return false;
      s = p;
      used_++;
      return true;
   }
   void clear()
   {
      std::fill(slots_.begin(), slots_.end(), nullptr);
      used_ = 0;
   }
   size_t size() const { return used_; }

   class iterator {
   public:
      iterator(const T *const *at, const T *const *end) : at_(at), end_(end) { skip(); }
      const T *operator*() const { return *at_; }
      iterator &operator++()
      {
         ++at_;
         skip();
         return *this;
      }
      bool operator!=(const iterator &o) const { return at_ != o.at_; }

   private:
      void skip()
      {
         while (at_ != end_ && !*at_)
            ++at_;
      }
      const T *const *at_, *const *end_;
   };
   iterator begin() const { return iterator(slots_.data(), slots_.data() + slots_.size()); }
   iterator end() const
   {
      return iterator(slots_.data() + slots_.size(), slots_.data() + slots_.size());
   }

private:
   std::vector<const T *> slots_;   /* null: empty */
   size_t used_ = 0;

   size_t find(const T *p) const
   {
      const size_t mask = slots_.size() - 1;
      uint64_t h = uint64_t(uintptr_t(p)) * 0x9e3779b97f4a7c15ull;
      size_t i = size_t(h >> 32) & mask;
      while (slots_[i] && slots_[i] != p)
         i = (i + 1) & mask;
      return i;
   }
   void grow()
   {
      std::vector<const T *> old = std::move(slots_);
      slots_.assign(old.empty() ? 64 : 2 * old.size(), nullptr);
      for (const T *p : old) {
         if (p)
            slots_[find(p)] = p;
      }
   }
};

/* The operands of each translated NIR def, one range of a pool per def
 * (set again, a def gets a new range), found by open addressing: no
 * heap node per def.
 */
class def_operands {
public:
   /* The operands of d, or null if it has none yet. */
   const operand *find(const nir::def *d, unsigned *n) const
   {
      if (slots_.empty())
         return nullptr;
      const entry &e = slots_[slot(d)];
      if (e.d != d)
         return nullptr;
      *n = e.len;
      return pool_.data() + e.start;
   }
   void set(const nir::def *d, const operand *c, size_t n)
   {
      if (2 * (used_ + 1) > slots_.size())
         grow();
      entry &e = slots_[slot(d)];
      if (e.d != d) {
         e.d = d;
         used_++;
      }
      e.start = pool_.size();
      e.len = n;
      pool_.insert(pool_.end(), c, c + n);
   }

private:
   struct entry {
      const nir::def *d = nullptr;
      size_t start = 0;
      unsigned len = 0;
   };
   std::vector<entry> slots_;
   std::vector<operand> pool_;
   size_t used_ = 0;

   size_t slot(const nir::def *d) const
   {
      const size_t mask = slots_.size() - 1;
      uint64_t h = uint64_t(uintptr_t(d)) * 0x9e3779b97f4a7c15ull;
      size_t i = size_t(h >> 32) & mask;
      while (slots_[i].d && slots_[i].d != d)
         i = (i + 1) & mask;
      return i;
   }
   void grow()
   {
      std::vector<entry> old = std::move(slots_);
      slots_.assign(old.empty() ? 256 : 2 * old.size(), entry());
      for (const entry &e : old) {
         if (e.d)
            slots_[slot(e.d)] = e;
      }
   }
};

struct nir_facts {
   /* Defs that get width 1 (computed once, SIMD-global). */
   ptr_set<nir::def> uniform;
   /* Boolean defs whose comparison should also (or only) define a flag,
    * and whether any use needs the 0/~0 value.
    */
   ptr_set<nir::def> want_flag;
   ptr_set<nir::def> want_value;
   /* decl_reg defs of registers that hold one value for all channels. */
   ptr_set<nir::def> uniform_regs;
   /* Ifs whose condition is not uniform. */
   ptr_set<nir::if_> divergent_ifs;
   /* The shader demotes and asks is_helper_invocation, which must count
    * the demoted channels as helpers.
    */
   bool helpers_see_demotes = false;
};
nir_facts analyze_nir(const nir::function_impl &impl);

/* Slot numbers of gl_varying_slot and gl_frag_result (Mesa 23.3). */
enum {
   VARYING_SLOT_POS = 0,
   VARYING_SLOT_PSIZ = 12,
   VARYING_SLOT_CLIP_DIST0 = 17,
   VARYING_SLOT_CLIP_DIST1 = 18,
   VARYING_SLOT_LAYER = 22,
   VARYING_SLOT_VIEWPORT = 23,
   FRAG_RESULT_DEPTH = 0,
   FRAG_RESULT_STENCIL = 1,
   FRAG_RESULT_COLOR = 2,
   FRAG_RESULT_SAMPLE_MASK = 3,
   FRAG_RESULT_DATA0 = 4,
   /* Output slot of the second source of dual-source blending. */
   FRAG_RESULT_DUAL_OFFSET = 256,
};

/* data_type from a base ('f', 's', 'u') and a bit size (1 means a boolean,
 * represented in 32 bits as brw does on Gen9).
 */
data_type type_of(char base, unsigned bits);

class nir_translator {
public:
   nir_translator(const nir::shader &s, const from_nir_options &o,
                  std::shared_ptr<const nir_facts> facts);
   std::unique_ptr<shader> run();

   const nir::shader &nir;
   /* Constant UBO pulls: (block, 64-byte line) -> the NIR block that read
    * it and its 16 dwords, shared by the later loads of that block.
    */
   std::map<std::pair<unsigned, unsigned>, std::pair<const nir::block *, comps>> ubo_lines;
   const nir::function_impl &impl;
   const from_nir_options &opts;
   const device_info &dev;
   unsigned width;
   std::unique_ptr<shader> sh;
   builder bld;
   payload_layout payload;
   std::shared_ptr<const nir_facts> facts;
   ssa_rebuilder ssa;
   const nir::instr *cur = nullptr;

   /* Errors. */
   [[noreturn]] void unsupported(const char *fmt, ...) const __attribute__((format(printf, 2, 3)));
   /* An I/O location plus a constant slot offset (bad input: an offset
    * past every slot).
    */
   int io_slot(int location, const operand &off) const;

   /* Values of NIR defs. */
   bool is_uniform(const nir::def &d) const { return facts->uniform.count(&d); }
   /* A builder for instructions computing d: width 1 NoMask when uniform. */
   builder def_builder(const nir::def &d) const;
   builder uniform_builder() const { return bld.exec(1).nomask(); }
   operand src(const nir::def *d, unsigned comp) const;
   operand src(const nir::def *d, unsigned comp, data_type t) const;
   void set_def(const nir::def &d, const comps &c)
   {
      set_def(d, c.data(), c.size());
   }
   void set_def(const nir::def &d, const operand *c, size_t n);
   /* A value of the given width holding op (a mov when op is not already
    * a whole length-1 value of that width and bit size).
    */
   value *materialize(const builder &b, const operand &op, data_type t);
   /* Gathers operands into one length-N value for a message payload. */
   operand gather(const builder &b, const comps &c, data_type t);
   /* A FLAG value of exec_width channels that is set where the 32-bit
    * boolean d is true.
    */
   value *flag_for(const nir::def *d, unsigned exec_width);
   void record_flag(const nir::def &d, value *f);
   /* The components of a send result. */
   static comps split(value *v);

   /* A buffer index plus the binding-table base of its kind. */
   operand surface_index(const builder &b, operand index, unsigned base);

   /* Preloaded values. */
   value *hw(unsigned grf, data_type t, unsigned regs = 1);
   std::map<std::tuple<unsigned, unsigned, unsigned>, value *> hw_cache;
   value *uniform_regs(unsigned grf, unsigned dwords);

   /* Per-kind emission. */
   void emit_alu(const nir::alu_instr &in);
   /* 25.0's ddx/ddy intrinsics, as 23.3's fddx/fddy opcodes. */
   void emit_derivative_intrinsic(const nir::intrinsic_instr &in);
   void emit_intrinsic(const nir::intrinsic_instr &in);
   bool emit_reg_intrinsic(const nir::intrinsic_instr &in);
   bool emit_memory_intrinsic(const nir::intrinsic_instr &in);
   bool emit_subgroup_intrinsic(const nir::intrinsic_instr &in);
   bool emit_fs_intrinsic(const nir::intrinsic_instr &in);
   bool emit_vs_intrinsic(const nir::intrinsic_instr &in);
   bool emit_cs_intrinsic(const nir::intrinsic_instr &in);
   void emit_tex(const nir::tex_instr &in);

   /* Control flow (from_nir_cf.cpp). */
   void emit_cf_list(const nir::cf_list &list);
   void emit_block(const nir::block &b);
   void emit_if(const nir::if_ &nif);
   void emit_loop(const nir::loop &l);
   void emit_jump(const nir::jump_instr &j);
   block *start_block();
   bool ends_in_jump(const block *b) const;
   struct loop_frame {
      block *header;
      std::vector<block *> breaks;
   };
   std::vector<loop_frame> loops;

   /* Thread end (from_nir_fs.cpp, from_nir_vs.cpp, from_nir_cs.cpp). */
   void fs_finish();
   void vs_finish();
   void cs_finish();

   /* Outputs: one SSA variable per component, read at the end. */
   unsigned output_var(int slot, unsigned comp, data_type t);
   std::unordered_map<unsigned, unsigned> output_vars;   /* slot * 4 + comp */
   std::vector<int> output_slots;                        /* in first-store order */
   void store_output(const nir::intrinsic_instr &in, int slot);
   /* The value of an output component at the current block, or null. */
   value *read_output(int slot, unsigned comp);

   /* NIR registers: decl_reg def -> first variable (one per element and
    * component).
    */
   std::unordered_map<const nir::def *, unsigned> reg_vars;
   void emit_reg_indirect(const nir::intrinsic_instr &in);
   value *reg_store_value(const nir::intrinsic_instr &in, unsigned k, unsigned var);
   comps reg_load_modifiers(const nir::intrinsic_instr &in, comps c);

   /* Flags defined by comparisons, valid in one block. */
   struct flag_info {
      value *flag;
      block *blk;
   };
   std::unordered_map<const nir::def *, flag_info> flags;

   /* Barycentrics: per SIMD16 half, I/J pairs in the payload's layout (two
    * registers per 8 channels), which only pln reads.
    */
   std::unordered_map<const nir::def *, comps> bary_vals;
   const comps &bary_halves(const nir::def *d);

   /* Payload values. */
   value *uniforms = nullptr;          /* push constants, all of them */
   value *setup_data = nullptr;        /* FS plane equations */
   value *attrs = nullptr;             /* VS attributes */
   value *fs_setup_data();
   comps pixel_position();
   /* gl_SubgroupInvocation as u32, built from a WLR u16 sequence. */
   value *get_subgroup_invocation();
   value *pixel_bit();
   /* ~0 in the channels a demote made helpers, else 0 (only when
    * nir_facts::helpers_see_demotes); -1 before its first use.
    */
   int demoted_var = -1;
   unsigned demoted();
   operand push_constant(unsigned byte_offset, data_type t);
   bool pushed_ubo(unsigned block, unsigned offset, unsigned bytes,
                   unsigned *push_byte) const;

private:
   def_operands vals;
};

/* The NIR instruction as nir_print writes it ("div 32 %4 = fadd %1, %2"),
 * for messages; "" when it cannot be found.
 */
std::string nir_instr_str(const nir::shader &s, const nir::instr &in);

} /* namespace ibis */
