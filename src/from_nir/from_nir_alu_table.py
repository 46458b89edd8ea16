#!/usr/bin/env python3
"""How each NIR ALU opcode becomes ibis instructions (one NIR component at a
time).  Rendered through from_nir_alu_table.cpp.mako into the table that
from_nir_alu.cpp interprets.

A recipe is either a sequence of steps, a named handler (for what needs
flags, constants computed from a source, or no instruction at all), or the
reason the opcode cannot reach brw's backend on Gen9.  Step syntax:

    OP[.CMOD][.sat] DST [tN] <- SRC, SRC, ...

OP is an ibis opcode.  DST is the result type: f/s/u (float, signed,
unsigned) with an optional bit size, or b (a boolean of the NIR result's
size, 32-bit for 1-bit booleans, as brw represents them on Gen9).  Without
a size, f/s/u take the operation's size: the NIR destination's bit size, or
for opcodes with sized results (comparisons, conversions) the unsized
source's.  A step naming a temporary tN writes it; the last step writes
the result.  SRC is [-][|]ATOM[|] where ATOM is $i:TYPE (NIR source i; $i.k
is component k of a fixed-size source), tN[:TYPE] or #TYPE:VALUE (an
immediate; VALUE may be BITS or BITS-1, the operation's size).  Operand
orders follow the hardware: mad computes src0 + src1 * src2, lrp
src0 * src1 + (1 - src0) * src2, bfe (width, offset, value), csel picks
src0 where src2 passes the condition.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

RECIPES = {}


def steps(name, text):
    RECIPES[name] = ('steps', text)


def handler(name, h, arg=0):
    RECIPES[name] = ('handler', h, arg)


def lowered(names, why):
    for n in names.split():
        RECIPES[n] = ('unsupported', why)


# --- Moves and vectors: no instruction, the operands are forwarded. ---------
for n in ['mov', 'vec2', 'vec3', 'vec4', 'vec5', 'vec8', 'vec16']:
    handler(n, 'forward')

# --- Float arithmetic -------------------------------------------------------
steps('fadd', 'add f <- $0:f, $1:f')
steps('fsub', 'add f <- $0:f, -$1:f')
steps('fmul', 'mul f <- $0:f, $1:f')
steps('ffma', 'mad f <- $2:f, $0:f, $1:f')
steps('flrp', 'lrp f <- $2:f, $1:f, $0:f')
steps('fneg', 'mov f <- -$0:f')
steps('fabs', 'mov f <- |$0:f|')
steps('fsat', 'mov.sat f <- $0:f')
steps('fmin', 'sel.l f <- $0:f, $1:f')
steps('fmax', 'sel.ge f <- $0:f, $1:f')
steps('ffloor', 'rndd f <- $0:f')
steps('fceil', 'rndd f t0 <- -$0:f; mov f <- -t0')
steps('ftrunc', 'rndz f <- $0:f')
steps('ffract', 'frc f <- $0:f')
steps('fround_even', 'rnde f <- $0:f')
handler('fsign', 'fsign')
# Round through half precision; magnitudes below the smallest normal half
# flush to a zero of the source's sign (selected with masks, not flags).
steps('fquantize2f16', 'mov f16 t0 <- $0:f32; mov f32 t1 <- t0; '
      'cmp.l u32 t2 <- |$0:f32|, #f32:0x38800000; '
      'and u32 t3 <- $0:u32, #u32:0x80000000; and u32 t4 <- t2, t3; '
      'not u32 t5 <- t2; and u32 t6 <- t5, t1:u32; or u32 <- t4, t6')
steps('fcsel', 'csel.nz f32 <- $1:f32, $2:f32, $0:f32')
steps('fcsel_gt', 'csel.g f32 <- $1:f32, $2:f32, $0:f32')
steps('fcsel_ge', 'csel.ge f32 <- $1:f32, $2:f32, $0:f32')

# --- Extended math ------------------------------------------------------------
steps('frcp', 'math_inv f <- $0:f')
steps('frsq', 'math_rsq f <- $0:f')
steps('fsqrt', 'math_sqrt f <- $0:f')
steps('fexp2', 'math_exp f <- $0:f')
steps('flog2', 'math_log f <- $0:f')
steps('fsin', 'math_sin f <- $0:f')
steps('fcos', 'math_cos f <- $0:f')
steps('fpow', 'math_pow f <- $0:f, $1:f')

# --- Derivatives (coarse unless asked: brw without high-quality derivatives)
steps('fddx', 'ddx_coarse f <- $0:f')
steps('fddy', 'ddy_coarse f <- $0:f')
steps('fddx_coarse', 'ddx_coarse f <- $0:f')
steps('fddy_coarse', 'ddy_coarse f <- $0:f')
steps('fddx_fine', 'ddx_fine f <- $0:f')
steps('fddy_fine', 'ddy_fine f <- $0:f')

# --- Integer arithmetic -------------------------------------------------------
steps('iadd', 'add s <- $0:s, $1:s')
steps('isub', 'add s <- $0:s, -$1:s')
steps('ineg', 'mov s <- -$0:s')
steps('iabs', 'mov s <- |$0:s|')
steps('imul', 'mul s <- $0:s, $1:s')
steps('amul', 'mul s <- $0:s, $1:s')
steps('umul_low', 'mul u32 <- $0:u32, $1:u32')
# mul to the accumulator and mach, in SIMD8 pieces (from_nir_alu.cpp).
handler('imul_high', 'mul_high')
handler('umul_high', 'mul_high')
steps('imul_2x32_64', 'mul s64 <- $0:s32, $1:s32')
steps('umul_2x32_64', 'mul u64 <- $0:u32, $1:u32')
steps('imul_32x16', 'mov s16 t0 <- $1:s32; mul s32 <- $0:s32, t0')
steps('umul_32x16', 'mov u16 t0 <- $1:u32; mul u32 <- $0:u32, t0')
steps('imin', 'sel.l s <- $0:s, $1:s')
steps('imax', 'sel.ge s <- $0:s, $1:s')
steps('umin', 'sel.l u <- $0:u, $1:u')
steps('umax', 'sel.ge u <- $0:u, $1:u')
steps('iadd_sat', 'add.sat s <- $0:s, $1:s')
steps('uadd_sat', 'add.sat u <- $0:u, $1:u')
# Gen negates at the source's width, so -INT_MIN is INT_MIN: subtract the
# halves of $1 (neither is INT_MIN), saturating each time (brw's lower_sub_sat).
steps('isub_sat', 'asr s t0 <- $1:s, #u32:1; add s t1 <- $1:s, -t0; '
      'add.sat s t2 <- $0:s, -t0; add.sat s <- t2, -t1')
steps('usub_sat', 'sel.ge u t0 <- $0:u, $1:u; add u <- t0, -$1:u')
steps('uabs_isub', 'add s t0 <- $0:s, -$1:s; mov u <- |t0:s|')
steps('uabs_usub', 'sel.ge u t0 <- $0:u, $1:u; sel.l u t1 <- $0:u, $1:u; '
      'add u <- t0, -t1')
# Halving adds without the carry out of the top bit: (a & b) + ((a ^ b) >> 1).
steps('ihadd', 'and s t0 <- $0:s, $1:s; xor s t1 <- $0:s, $1:s; '
      'asr s t2 <- t1, #u32:1; add s <- t0, t2')
steps('uhadd', 'and u t0 <- $0:u, $1:u; xor u t1 <- $0:u, $1:u; '
      'shr u t2 <- t1, #u32:1; add u <- t0, t2')
steps('irhadd', 'avg s <- $0:s, $1:s')
steps('urhadd', 'avg u <- $0:u, $1:u')
steps('idiv', 'math_idiv s32 <- $0:s32, $1:s32')
steps('udiv', 'math_idiv u32 <- $0:u32, $1:u32')
steps('irem', 'math_irem s32 <- $0:s32, $1:s32')
steps('umod', 'math_irem u32 <- $0:u32, $1:u32')
# The remainder takes the divisor's sign: add the divisor where the
# remainder is non-zero and the signs differ.
steps('imod', 'math_irem s32 t0 <- $0:s32, $1:s32; cmp.nz u32 t1 <- t0, #s32:0; '
      'xor s32 t2 <- t0, $1:s32; asr s32 t3 <- t2, #u32:31; '
      'and u32 t4 <- t1, t3:u32; and u32 t5 <- t4, $1:u32; add s32 <- t0, t5:s32')
steps('isign', 'asr s t0 <- $0:s, #u32:BITS-1; shr u t1 <- -$0:u, #u32:BITS-1; '
      'or s <- t0, t1:s')

# --- Bit operations -----------------------------------------------------------
steps('iand', 'and u <- $0:u, $1:u')
steps('ior', 'or u <- $0:u, $1:u')
steps('ixor', 'xor u <- $0:u, $1:u')
steps('inot', 'not u <- $0:u')
steps('ishl', 'shl u <- $0:u, $1:u32')
steps('ishr', 'asr s <- $0:s, $1:u32')
steps('ushr', 'shr u <- $0:u, $1:u32')
steps('bitfield_reverse', 'bfrev u32 <- $0:u32')
steps('bit_count', 'cbit u32 <- $0:u')
steps('ufind_msb_rev', 'fbh u32 <- $0:u32')
steps('ifind_msb_rev', 'fbh s32 <- $0:s32')
# fbh counts from the top (0xffffffff: no bit); the index is 31 minus that,
# and the arithmetic shift of the count keeps "none" at -1.
steps('ufind_msb', 'fbh u32 t0 <- $0:u32; add s32 t1 <- -t0:s32, #s32:31; '
      'asr s32 t2 <- t0:s32, #u32:31; or s32 <- t1, t2')
steps('ifind_msb', 'fbh s32 t0 <- $0:s32; add s32 t1 <- -t0:s32, #s32:31; '
      'asr s32 t2 <- t0:s32, #u32:31; or s32 <- t1, t2')
steps('find_lsb', 'fbl u32 <- $0:u')
steps('uclz', 'lzd u32 <- $0:u32')
steps('bfm', 'bfi1 u32 <- $0:u32, $1:u32')
steps('bfi', 'bfi2 u32 <- $0:u32, $1:u32, $2:u32')
steps('bitfield_select', 'bfi2 u <- $0:u, $1:u, $2:u')
steps('ubfe', 'bfe u32 <- $2:u32, $1:u32, $0:u32')
steps('ibfe', 'bfe s32 <- $2:u32, $1:u32, $0:s32')
handler('extract_u8', 'extract', 0x08)
handler('extract_i8', 'extract', 0x88)
handler('extract_u16', 'extract', 0x10)
handler('extract_i16', 'extract', 0x90)
handler('insert_u8', 'insert', 0x08)
handler('insert_u16', 'insert', 0x10)

# --- Comparisons: 0 / ~0 booleans of the result's size ------------------------
CMPS = [('flt', 'l', 'f'), ('fge', 'ge', 'f'), ('feq', 'z', 'f'),
        ('fneu', 'nz', 'f'), ('ilt', 'l', 's'), ('ige', 'ge', 's'),
        ('ieq', 'z', 's'), ('ine', 'nz', 's'), ('ult', 'l', 'u'),
        ('uge', 'ge', 'u')]
for n, cmod, t in CMPS:
    for size in ['', '8', '16', '32']:
        steps(n + size, 'cmp.%s b <- $0:%s, $1:%s' % (cmod, t, t))
for size in ['', '8', '16', '32']:
    steps('bitnz' + size, 'shr u t0 <- $0:u, $1:u32; and u t1 <- t0, #u:1; '
          'cmp.nz b <- t1, #u:0')
    steps('bitz' + size, 'shr u t0 <- $0:u, $1:u32; and u t1 <- t0, #u:1; '
          'cmp.z b <- t1, #u:0')
for n in ['bcsel', 'b8csel', 'b16csel', 'b32csel']:
    handler(n, 'bool_select')
steps('i32csel_gt', 'csel.g s32 <- $1:s32, $2:s32, $0:s32')
steps('i32csel_ge', 'csel.ge s32 <- $1:s32, $2:s32, $0:s32')

# --- Conversions --------------------------------------------------------------
for bits in ['16', '32', '64']:
    steps('i2f' + bits, 'mov f%s <- $0:s' % bits)
    steps('u2f' + bits, 'mov f%s <- $0:u' % bits)
    steps('f2f' + bits, 'mov f%s <- $0:f' % bits)
for bits in ['8', '16', '32', '64']:
    steps('i2i' + bits, 'mov s%s <- $0:s' % bits)
    steps('u2u' + bits, 'mov u%s <- $0:u' % bits)
    steps('f2i' + bits, 'mov s%s <- $0:f' % bits)
    steps('f2u' + bits, 'mov u%s <- $0:f' % bits)
steps('f2f16_rtne', 'mov f16 <- $0:f')
steps('f2fmp', 'mov f16 <- $0:f32')
steps('i2imp', 'mov s16 <- $0:s32')
steps('f2imp', 'mov s16 <- $0:f32')
steps('f2ump', 'mov u16 <- $0:f32')
steps('i2fmp', 'mov f16 <- $0:s32')
steps('u2fmp', 'mov f16 <- $0:u32')
# Booleans are 0 / ~0: masking gives the 1.0 or 1 of the result type.
steps('b2f16', 'mov u16 t0 <- $0:u; and u16 <- t0, #u16:0x3c00')
steps('b2f32', 'and u32 <- $0:u, #u32:0x3f800000')
steps('b2f64', 'and u32 t0 <- $0:u, #u32:1; mov f64 <- t0:u32')
steps('b2i8', 'mov u8 t0 <- $0:u; and u8 <- t0, #u8:1')
steps('b2i16', 'mov u16 t0 <- $0:u; and u16 <- t0, #u16:1')
steps('b2i32', 'and u32 <- $0:u, #u32:1')
steps('b2i64', 'and u32 t0 <- $0:u, #u32:1; mov u64 <- t0:u32')
steps('b2b1', 'mov u32 <- $0:s')
steps('b2b8', 'mov s8 <- $0:s')
steps('b2b16', 'mov s16 <- $0:s')
steps('b2b32', 'mov s32 <- $0:s')

# --- Packing: shifts and masks on whole values, so everything stays SSA -------
steps('pack_64_2x32_split', 'mov u64 t0 <- $0:u32; mov u64 t1 <- $1:u32; '
      'shl u64 t2 <- t1, #u32:32; or u64 <- t0, t2')
steps('unpack_64_2x32_split_x', 'mov u32 <- $0:u64')
steps('unpack_64_2x32_split_y', 'shr u64 t0 <- $0:u64, #u32:32; mov u32 <- t0')
steps('pack_32_2x16_split', 'mov u32 t0 <- $0:u16; mov u32 t1 <- $1:u16; '
      'shl u32 t2 <- t1, #u32:16; or u32 <- t0, t2')
steps('unpack_32_2x16_split_x', 'mov u16 <- $0:u32')
steps('unpack_32_2x16_split_y', 'shr u32 t0 <- $0:u32, #u32:16; mov u16 <- t0')
steps('pack_32_4x8_split', 'mov u32 t0 <- $0:u8; mov u32 t1 <- $1:u8; '
      'mov u32 t2 <- $2:u8; mov u32 t3 <- $3:u8; shl u32 t4 <- t1, #u32:8; '
      'shl u32 t5 <- t2, #u32:16; shl u32 t6 <- t3, #u32:24; '
      'or u32 t7 <- t0, t4; or u32 t8 <- t5, t6; or u32 <- t7, t8')
steps('pack_half_2x16_split', 'mov f16 t0 <- $0:f32; mov f16 t1 <- $1:f32; '
      'mov u32 t2 <- t0:u16; mov u32 t3 <- t1:u16; shl u32 t4 <- t3, #u32:16; '
      'or u32 <- t2, t4')
steps('unpack_half_2x16_split_x', 'mov u16 t0 <- $0:u32; mov f32 <- t0:f16')
steps('unpack_half_2x16_split_y', 'shr u32 t0 <- $0:u32, #u32:16; '
      'mov u16 t1 <- t0; mov f32 <- t1:f16')
# Flushing a half denormal: where the exponent is zero keep only the sign
# bit (the mask is ~0 for normal numbers, 0x8000 otherwise), then convert.
steps('unpack_half_2x16_split_x_flush_to_zero',
      'and u32 t0 <- $0:u32, #u32:0x7c00; cmp.nz u32 t1 <- t0, #u32:0; '
      'or u32 t2 <- t1, #u32:0x8000; and u32 t3 <- $0:u32, t2; '
      'mov u16 t4 <- t3; mov f32 <- t4:f16')
steps('unpack_half_2x16_split_y_flush_to_zero',
      'shr u32 t0 <- $0:u32, #u32:16; and u32 t1 <- t0, #u32:0x7c00; '
      'cmp.nz u32 t2 <- t1, #u32:0; or u32 t3 <- t2, #u32:0x8000; '
      'and u32 t4 <- t0, t3; mov u16 t5 <- t4; mov f32 <- t5:f16')
# Round toward zero without a rounding-mode switch (from_nir_alu.cpp).
handler('f2f16_rtz', 'f2f16_rtz')
handler('pack_half_2x16_rtz_split', 'f2f16_rtz')

# --- What cannot reach brw's Gen9 backend -------------------------------------
BRW = "lowered by brw's NIR passes before the backend (brw_nir.c options)"
lowered('fdiv fmod frem ldexp frexp_exp frexp_sig fisnormal fisfinite '
        'fisfinite32 seq sne slt sge '
        'uadd_carry usub_borrow urol uror bitfield_insert ubitfield_extract '
        'ibitfield_extract iadd3 fmulz ffmaz', BRW)
lowered('fsum2 fsum3 fsum4 fdph fdph_replicated ' +
        ' '.join('fdot%s fdot%s_replicated' % (n, n)
                 for n in ['2', '3', '4', '5', '8', '16']) + ' ' +
        ' '.join('%s%s%s' % (p, k, n)
                 for p in ['b', 'b8', 'b16', 'b32']
                 for k in ['all_fequal', 'any_fnequal', 'all_iequal',
                           'any_inequal']
                 for n in ['2', '3', '4', '5', '8', '16']) + ' ' +
        ' '.join('%s%s' % (k, n) for k in ['fall_equal', 'fany_nequal']
                 for n in ['2', '3', '4', '5', '8', '16']),
        'horizontal opcode: brw scalarizes it (nir_lower_alu_to_scalar)')
lowered('pack_snorm_2x16 pack_snorm_4x8 pack_unorm_2x16 pack_unorm_4x8 '
        'pack_half_2x16 unpack_snorm_2x16 unpack_snorm_4x8 unpack_unorm_2x16 '
        'unpack_unorm_4x8 unpack_half_2x16 unpack_half_2x16_flush_to_zero '
        'pack_uint_2x16 pack_sint_2x16 pack_uvec2_to_uint pack_uvec4_to_uint '
        'pack_32_4x8 pack_32_2x16 pack_64_2x32 pack_64_4x16 unpack_64_2x32 '
        'unpack_64_4x16 unpack_32_2x16 unpack_32_4x8',
        'vector pack: brw splits it (nir_lower_pack, nir_lower_packing)')
lowered('f2i1 f2u1 i2i1 u2u1 b2i1', '1-bit integers do not exist on Gen9')
lowered('sad_u8x4 imadsh_mix16 imad24_ir3 cube_amd fsin_amd fcos_amd fsin_mdg '
        'fcos_mdg fsin_agx extr_agx imadshl_agx imsubshl_agx interleave_agx '
        'imul24 umad24 umul24 imul24_relaxed umad24_relaxed umul24_relaxed '
        'usadd_4x8_vc4 ussub_4x8_vc4 umin_4x8_vc4 umax_4x8_vc4 '
        'umul_unorm_4x8_vc4 fsat_signed_mali fclamp_pos_mali b32fcsel_mdg '
        'fddx_must_abs_mali fddy_must_abs_mali pack_double_2x32_dxil '
        'unpack_double_2x32_dxil', 'another backend\'s opcode')
lowered('sdot_4x8_iadd udot_4x8_uadd sudot_4x8_iadd sdot_4x8_iadd_sat '
        'udot_4x8_uadd_sat sudot_4x8_iadd_sat sdot_2x16_iadd udot_2x16_uadd '
        'sdot_2x16_iadd_sat udot_2x16_uadd_sat',
        'dot-product-accumulate needs Gen12 (brw lowers it before)')


# --- Parsing -------------------------------------------------------------------
CMODS = {'z': 'z', 'nz': 'nz', 'g': 'g', 'ge': 'ge', 'l': 'l', 'le': 'le'}
_TYPE = re.compile(r'^([fsub])(\d*)$')


def parse_type(t):
    m = _TYPE.match(t)
    if not m:
        raise ValueError('bad type ' + t)
    return m.group(1), int(m.group(2) or 0)


def parse_src(text):
    s = text.strip()
    neg = s.startswith('-')
    s = s.lstrip('-')
    absv = s.startswith('|')
    s = s.strip('|') if absv else s
    if absv and '|' in s:
        raise ValueError(text)
    src = dict(kind='no', index=0, comp=-1, base='0', bits=0, neg=neg,
               abs=absv, imm=0, special=0)
    if s.startswith('$'):
        m = re.match(r'^\$(\d)(?:\.(\d+))?:(\w+)$', s)
        base, bits = parse_type(m.group(3))
        src.update(kind='nir', index=int(m.group(1)),
                   comp=int(m.group(2)) if m.group(2) else -1,
                   base=base, bits=bits)
    elif s.startswith('t'):
        m = re.match(r'^t(\d+)(?::(\w+))?$', s)
        src.update(kind='temp', index=int(m.group(1)))
        if m.group(2):
            base, bits = parse_type(m.group(2))
            src.update(base=base, bits=bits)
    elif s.startswith('#'):
        m = re.match(r'^#(\w+):(\S+)$', s)
        base, bits = parse_type(m.group(1))
        v = m.group(2)
        special = {'BITS': 2, 'BITS-1': 1}.get(v, 0)
        imm = 0 if special else int(v, 0)
        src.update(kind='imm', base=base, bits=bits, imm=imm, special=special)
    else:
        raise ValueError('bad source ' + text)
    return src


def parse_step(text, ibis_names):
    lhs, rhs = text.split('<-')
    words = lhs.split()
    parts = words[0].split('.')
    op = parts[0]
    if op not in ibis_names:
        raise ValueError('unknown ibis opcode ' + op)
    cmod, sat = 'none', False
    for p in parts[1:]:
        if p == 'sat':
            sat = True
        else:
            cmod = CMODS[p]
    base, bits = parse_type(words[1])
    temp = int(words[2][1:]) if len(words) > 2 else -1
    srcs = [parse_src(s) for s in rhs.split(',')]
    return dict(op=ibis_names[op], cmod=cmod, sat=sat, base=base, bits=bits,
                temp=temp, srcs=srcs)


def build(nir_ops, ibis_names):
    missing = [n for n in nir_ops if n not in RECIPES]
    extra = [n for n in RECIPES if n not in nir_ops]
    if missing or extra:
        raise SystemExit('ALU table mismatch: missing %s, unknown %s'
                         % (missing, extra))
    all_steps, recipes = [], []
    for name in nir_ops:
        r = RECIPES[name]
        if r[0] == 'steps':
            parsed = [parse_step(s, ibis_names) for s in r[1].split(';')]
            recipes.append(dict(name=name, first=len(all_steps),
                                count=len(parsed), handler='none', arg=0,
                                why=None, cmp=parsed[-1]['op'] == 'cmp'))
            all_steps += parsed
        elif r[0] == 'handler':
            recipes.append(dict(name=name, first=0, count=0, handler=r[1],
                                arg=r[2], why=None, cmp=False))
        else:
            recipes.append(dict(name=name, first=0, count=0,
                                handler='unsupported', arg=0, why=r[1],
                                cmp=False))
    return all_steps, recipes


def fmt_src(s):
    """A source spec as a C++ alu_operand_spec initializer."""
    b = lambda v: 'true' if v else 'false'
    return "{alu_operand_spec::%s_src, %d, %d, '%s', %d, %s, %s, %d, 0x%xull}" % (
        s['kind'], s['index'], s['comp'], s['base'], s['bits'], b(s['neg']),
        b(s['abs']), s['special'], s['imm'])


def main():
    template, out = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(HERE, '..', 'nir'))
    sys.path.insert(0, os.path.join(HERE, '..', 'ir'))
    from mako.template import Template
    import nir_opcodes
    import ibis_opcodes
    ibis_names = {o.name: o.cname for o in ibis_opcodes.OPCODES}
    all_steps, recipes = build(list(nir_opcodes.OPS.keys()), ibis_names)
    handlers = sorted(set(r['handler'] for r in recipes))
    text = Template(filename=os.path.abspath(template)).render(steps=all_steps,
                                              recipes=recipes,
                                              handlers=handlers,
                                              fmt_src=fmt_src)
    with open(out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
