/*
 * Bit-field access on instruction words, and the small encodings shared by
 * the encoder and the decoder.  Internal to src/isa.
 */
#pragma once

#include "isa/isa.h"

namespace ibis::isa {

static inline uint64_t
get_bits(const native &n, unsigned hi, unsigned lo)
{
   unsigned width = hi - lo + 1;
   uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
   if (lo / 64 == hi / 64)
      return (n[lo / 64] >> (lo % 64)) & mask;
   /* A field that straddles the two words. */
   unsigned low_width = 64 - lo % 64;
   return ((n[0] >> (lo % 64)) | (n[1] << low_width)) & mask;
}

static inline void
set_bits(native &n, unsigned hi, unsigned lo, uint64_t v)
{
   if (lo / 64 != hi / 64) {
      /* A field that straddles the two words: set each part. */
      unsigned low_width = 64 - lo % 64;
      set_bits(n, 63, lo, v);
      set_bits(n, hi, 64, v >> low_width);
      return;
   }
   unsigned width = hi - lo + 1;
   uint64_t mask = (width == 64 ? ~0ull : (1ull << width) - 1) << (lo % 64);
   uint64_t &w = n[lo / 64];
   w = (w & ~mask) | ((v << (lo % 64)) & mask);
}

static inline uint64_t get(const native &n, field f) { return get_bits(n, f.hi, f.lo); }
static inline void set(native &n, field f, uint64_t v) { set_bits(n, f.hi, f.lo, v); }

static inline uint64_t
cget(uint64_t c, field f)
{
   unsigned width = f.hi - f.lo + 1;
   return (c >> f.lo) & ((1ull << width) - 1);
}

static inline void
cset(uint64_t &c, field f, uint64_t v)
{
   unsigned width = f.hi - f.lo + 1;
   uint64_t mask = ((1ull << width) - 1) << f.lo;
   c = (c & ~mask) | ((v << f.lo) & mask);
}

/* Fields of the two sources of a one- or two-source instruction. */
struct src_fields {
   field reg_file, reg_hw_type, address_mode, negate, abs, vstride, width,
      hstride, da_reg_nr, da1_subreg_nr, da16_subreg_nr, swiz_x, swiz_y,
      swiz_z, swiz_w, ia_subreg_nr, ia1_addr_imm, ia_addr_imm_9;
};

inline const src_fields src_f[2] = {
   { fld::src0_reg_file, fld::src0_reg_hw_type, fld::src0_address_mode,
     fld::src0_negate, fld::src0_abs, fld::src0_vstride, fld::src0_width,
     fld::src0_hstride, fld::src0_da_reg_nr, fld::src0_da1_subreg_nr,
     fld::src0_da16_subreg_nr, fld::src0_da16_swiz_x, fld::src0_da16_swiz_y,
     fld::src0_da16_swiz_z, fld::src0_da16_swiz_w, fld::src0_ia_subreg_nr,
     fld::src0_ia1_addr_imm, fld::src0_ia_addr_imm_9 },
   { fld::src1_reg_file, fld::src1_reg_hw_type, fld::src1_address_mode,
     fld::src1_negate, fld::src1_abs, fld::src1_vstride, fld::src1_width,
     fld::src1_hstride, fld::src1_da_reg_nr, fld::src1_da1_subreg_nr,
     fld::src1_da16_subreg_nr, fld::src1_da16_swiz_x, fld::src1_da16_swiz_y,
     fld::src1_da16_swiz_z, fld::src1_da16_swiz_w, fld::src1_ia_subreg_nr,
     fld::src1_ia1_addr_imm, fld::src1_ia_addr_imm_9 },
};

/* Fields of the three sources of an align16 three-source instruction. */
struct tri_src_fields {
   field reg_nr, subreg_nr, swizzle, rep_ctrl, negate, abs;
};

inline const tri_src_fields tri_src_f[3] = {
   { fld::tri_src0_reg_nr, fld::tri_src0_subreg_nr, fld::tri_src0_swizzle,
     fld::tri_src0_rep_ctrl, fld::tri_src0_negate, fld::tri_src0_abs },
   { fld::tri_src1_reg_nr, fld::tri_src1_subreg_nr, fld::tri_src1_swizzle,
     fld::tri_src1_rep_ctrl, fld::tri_src1_negate, fld::tri_src1_abs },
   { fld::tri_src2_reg_nr, fld::tri_src2_subreg_nr, fld::tri_src2_swizzle,
     fld::tri_src2_rep_ctrl, fld::tri_src2_negate, fld::tri_src2_abs },
};

/* log2 encodings of region parameters and exec size; 0xff is "none". */
static inline unsigned
log2_enc(unsigned v)
{
   switch (v) {
   case 1: return 0;
   case 2: return 1;
   case 4: return 2;
   case 8: return 3;
   case 16: return 4;
   case 32: return 5;
   default: return 0xff;
   }
}

static inline unsigned
vstride_enc(unsigned v)
{
   if (v == vstride_vxh)
      return 0xf;
   return v == 0 ? 0 : log2_enc(v) + 1;
}

static inline unsigned
vstride_dec(unsigned e)
{
   if (e == 0xf)
      return vstride_vxh;
   return e == 0 ? 0 : e <= 6 ? 1u << (e - 1) : 0xfe;  /* 0xfe: reserved */
}

static inline unsigned
hstride_enc(unsigned v)
{
   return v == 0 ? 0 : v <= 4 ? log2_enc(v) + 1 : 0xff;
}

static inline unsigned
hstride_dec(unsigned e)
{
   return e == 0 ? 0 : 1u << (e - 1);
}

/* Hardware type encodings, per register file (immediates differ) and
 * generation (Gen11 renumbered them).
 */
static inline int
type_hw(isa::type t, bool immediate, gen g)
{
   if (unsigned(t) >= num_types)
      return -1;
   const tables::type_desc &d = tables::types[unsigned(t)];
   if (g >= gen::gen11)
      return immediate ? d.imm_hw11 : d.reg_hw11;
   return immediate ? d.imm_hw : d.reg_hw;
}

static inline isa::type
type_from_hw(unsigned hw, bool immediate, gen g)
{
   for (unsigned i = 0; i < num_types; i++) {
      if (type_hw(isa::type(i), immediate, g) == int(hw))
         return isa::type(i);
   }
   return isa::type::invalid;
}

static inline isa::type
tri_type_from_hw(unsigned hw)
{
   for (unsigned i = 0; i < num_types; i++) {
      if (tables::types[i].tri_hw == int(hw))
         return isa::type(i);
   }
   return isa::type::invalid;
}

static inline bool
is_64bit_imm(isa::type t)
{
   return t == type::DF || t == type::Q || t == type::UQ;
}

} /* namespace ibis::isa */
