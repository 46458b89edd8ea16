"""The NIR ALU opcodes of Mesa 23.3, with ibis's own constant expressions.

Each opcode has an output and input signature and a C++ expression that
nir_opcodes_cpp.mako turns into the constant evaluator.

Types are "float", "int", "uint" or "bool", optionally with a bit size
("float32", "bool1").  An unsized type takes the instruction's bit size.
Sizes are component counts: 0 means "as many as the destination" (a
per-component operand); anything else is a fixed vector (a horizontal
operand).

Expressions are C++.  A per-component source is the scalar sN, a horizontal
source the array sN[k].  The result is either the expression's value or, when
the text mentions "dst", whatever the statements store in dst (dst[k] for
a horizontal result).  In scope: bits (the bit size of the unsized
operands), F/I/U (the float, signed and unsigned C++ types of that size),
fc (the float controls execution mode) and the helpers of
nir_opcodes_cpp.mako.  Floats of 16 bits are computed as float and rounded
on store.  Integer arithmetic goes through the wrap helpers so that
overflow wraps instead of being undefined.
"""

import re

COMMUTATIVE = "commutative"   # the first two sources commute
ASSOCIATIVE = "associative"
SELECTION = "selection"
DERIVATIVE = "derivative"


class AluOp:
    def __init__(self, name, output_size, output_type, input_sizes,
                 input_types, is_conversion, props, expr):
        assert len(input_sizes) == len(input_types)
        for p in props:
            assert p in (COMMUTATIVE, ASSOCIATIVE, SELECTION, DERIVATIVE), p
        self.name = name
        self.output_size = output_size
        self.output_type = output_type
        self.input_sizes = input_sizes
        self.input_types = input_types
        self.num_inputs = len(input_sizes)
        self.is_conversion = is_conversion
        self.props = props
        self.expr = expr.strip()


OPS = {}

_TYPE_RE = re.compile(r'^(int|uint|float|bool)(\d*)$')


def base_type(t):
    return _TYPE_RE.match(t).group(1)


def sized(t):
    return _TYPE_RE.match(t).group(2) != ""


def type_bits(t):
    return int(_TYPE_RE.match(t).group(2))


def sizes_of(t):
    """The bit sizes an unsized type may take."""
    if sized(t):
        return [type_bits(t)]
    return {"bool": [1, 8, 16, 32], "float": [16, 32, 64],
            "int": [1, 8, 16, 32, 64], "uint": [1, 8, 16, 32, 64]}[base_type(t)]


def op_bit_sizes(op):
    """The valid bit sizes of the unsized operands, or None if all are sized."""
    result = None
    for t in [op.output_type] + op.input_types:
        if sized(t):
            continue
        s = set(sizes_of(t))
        result = s if result is None else result & s
    return sorted(result) if result is not None else None


def opcode(name, output_size, output_type, input_sizes, input_types, expr,
           props=(), is_conversion=False):
    assert name not in OPS, name
    for t in [output_type] + input_types:
        assert _TYPE_RE.match(t), t
    OPS[name] = AluOp(name, output_size, output_type, list(input_sizes),
                      list(input_types), is_conversion, list(props), expr)


def unop(name, ty, expr, props=()):
    opcode(name, 0, ty, [0], [ty], expr, props)


def unop_convert(name, out_type, in_type, expr):
    opcode(name, 0, out_type, [0], [in_type], expr)


def binop(name, ty, expr, props=()):
    opcode(name, 0, ty, [0, 0], [ty, ty], expr, props)


def binop_convert(name, out_type, in_type, expr, props=(), in_type2=None):
    opcode(name, 0, out_type, [0, 0], [in_type, in_type2 or in_type], expr,
           props)


def triop(name, ty, expr, props=()):
    opcode(name, 0, ty, [0, 0, 0], [ty, ty, ty], expr, props)


def horiz(name, out_size, out_type, srcs, expr, props=()):
    """A horizontal opcode; srcs is a list of (size, type)."""
    opcode(name, out_size, out_type, [s for s, _ in srcs],
           [t for _, t in srcs], expr, props)


# ---------------------------------------------------------------------------
# Moves, negation, signs

unop("mov", "uint", "s0")
unop("ineg", "int", "wneg(s0)")
unop("fneg", "float", "-s0")
unop("inot", "int", "~s0")
# OpenCL rules: NaN gives 0.0 and a zero keeps its sign.
unop("fsign", "float",
     "std::isnan(s0) ? F(0) : (s0 == 0 ? s0 : (s0 > 0 ? F(1) : F(-1)))")
unop("isign", "int", "s0 == 0 ? 0 : (s0 > 0 ? 1 : -1)")
unop("iabs", "int", "s0 < 0 ? wneg(s0) : U(s0)")
unop("fabs", "float", "std::fabs(s0)")
# fmin/fmax pick the number over a NaN, so fsat(NaN) is 0.
unop("fsat", "float", "min_num(max_num(s0, F(0)), F(1))")
unop("frcp", "float", "F(1) / s0")
unop("frsq", "float", "F(1) / std::sqrt(s0)")
unop("fsqrt", "float", "std::sqrt(s0)")
unop("fexp2", "float", "std::exp2(s0)")
unop("flog2", "float", "std::log2(s0)")

# ---------------------------------------------------------------------------
# Numeric conversions: <src>2<dst><bits>.  Float to integer saturates and
# maps NaN to 0 (C++ leaves it undefined; this is what GEN does).

_CONV_DSTS = {"int": ["float", "int"], "uint": ["float", "uint"],
              "float": ["int", "uint", "float"],
              "bool": ["float", "int", "bool"]}


def _conversion(src_t, dst_t, bits, suffix=""):
    name = "%s2%s%d%s" % (src_t[0], dst_t[0], bits, suffix)
    dst = "%s%d" % (dst_t, bits)
    if dst_t == "bool":
        expr = "s0 != 0"
    elif src_t == "float" and dst_t in ("int", "uint"):
        expr = "f2int_sat<%s>(s0)" % ctype(dst)
    elif src_t == "float" and dst_t == "float" and bits == 16:
        expr = {"_rtne": "dst = round_f16(s0, false);",
                "_rtz": "dst = round_f16(s0, true);",
                "": "dst = round_f16(s0, rtz_mode(fc, 16));"}[suffix]
    elif src_t == "float" and dst_t == "float" and bits == 32:
        expr = "dst = bits == 64 && rtz_mode(fc, 32) ? double_to_float_rtz(s0) : float(s0);"
    elif src_t == "bool" and dst_t == "int":
        expr = "s0 ? 1 : 0"
    else:
        expr = "s0"
    opcode(name, 0, dst, [0], [src_t], expr, is_conversion=True)


def ctype(t):
    """C++ type of a sized type, for expressions that need one."""
    b, n = base_type(t), type_bits(t)
    if b == "float":
        return "double" if n == 64 else "float"
    if b == "bool":
        return "bool"
    return "%sint%d_t" % ("" if b == "int" else "u", max(n, 8))


for _src in ["int", "uint", "float", "bool"]:
    for _dst in _CONV_DSTS[_src]:
        for _bits in sizes_of(_dst):
            if _src == "float" and _dst == "float" and _bits == 16:
                for _sfx in ["_rtne", "_rtz", ""]:
                    _conversion(_src, _dst, _bits, _sfx)
            else:
                _conversion(_src, _dst, _bits)


def _conversion_mp(base, dst_t, src_t):
    """Medium-precision conversions: same values as the 16-bit ones."""
    opcode(base + "mp", 0, dst_t, [0], [src_t],
           OPS[base + "16"].expr, is_conversion=True)


_conversion_mp("f2f", "float16", "float32")
_conversion_mp("i2i", "int16", "int32")
_conversion_mp("f2i", "int16", "float32")
_conversion_mp("f2u", "uint16", "float32")
_conversion_mp("i2f", "float16", "int32")
_conversion_mp("u2f", "float16", "uint32")

# ---------------------------------------------------------------------------
# Rounding, trigonometry, derivatives

unop("ftrunc", "float", "std::trunc(s0)")
unop("fceil", "float", "std::ceil(s0)")
unop("ffloor", "float", "std::floor(s0)")
unop("ffract", "float", "s0 - std::floor(s0)")
unop("fround_even", "float", "roundeven(s0)")
# Below the smallest normal half, keep only the sign.
unop("fquantize2f16", "float",
     "std::fabs(s0) < F(0x1p-14) ? std::copysign(F(0), s0) : F(half_to_float(float_to_half(float(s0), false)))")
unop("fsin", "float", "std::sin(s0)")
unop("fcos", "float", "std::cos(s0)")
unop_convert("frexp_exp", "int32", "float", "frexp_exp(s0)")
unop_convert("frexp_sig", "float", "float", "frexp_sig(s0)")

# The derivative of a constant is 0, unless it is not finite.
for _sfx in ["", "_fine", "_coarse"]:
    for _axis in "xy":
        unop("fdd" + _axis + _sfx, "float",
             "std::isfinite(s0) ? F(0) : F(NAN)", props=[DERIVATIVE])

# ---------------------------------------------------------------------------
# Packing


def _pack_2x16(fmt, in_type):
    horiz("pack_%s_2x16" % fmt, 1, "uint32", [(2, in_type)],
          "dst[0] = uint32_t(pack_%s_16(s0[0])) | uint32_t(pack_%s_16(s0[1])) << 16;"
          % (fmt, fmt))


def _pack_4x8(fmt):
    horiz("pack_%s_4x8" % fmt, 1, "uint32", [(4, "float32")],
          "dst[0] = 0; for (int k = 0; k < 4; k++) dst[0] |= uint32_t(pack_%s_8(s0[k])) << (8 * k);"
          % fmt)


def _unpack_2x16(fmt):
    horiz("unpack_%s_2x16" % fmt, 2, "float32", [(1, "uint32")],
          "dst[0] = unpack_%s_16(uint16_t(s0[0])); dst[1] = unpack_%s_16(uint16_t(s0[0] >> 16));"
          % (fmt, fmt))


def _unpack_4x8(fmt):
    horiz("unpack_%s_4x8" % fmt, 4, "float32", [(1, "uint32")],
          "for (int k = 0; k < 4; k++) dst[k] = unpack_%s_8(uint8_t(s0[0] >> (8 * k)));"
          % fmt)


_pack_2x16("snorm", "float")
_pack_4x8("snorm")
_pack_2x16("unorm", "float")
_pack_4x8("unorm")
_pack_2x16("half", "float32")
_unpack_2x16("snorm")
_unpack_4x8("snorm")
_unpack_2x16("unorm")
_unpack_4x8("unorm")
_unpack_2x16("half")

horiz("pack_uint_2x16", 1, "uint32", [(2, "uint32")],
      "dst[0] = std::min(s0[0], 0xffffu) | std::min(s0[1], 0xffffu) << 16;")
horiz("pack_sint_2x16", 1, "int32", [(2, "int32")],
      "dst[0] = int32_t((uint32_t(std::clamp(s0[0], -0x8000, 0x7fff)) & 0xffff) |"
      " uint32_t(std::clamp(s0[1], -0x8000, 0x7fff)) << 16);")
horiz("pack_uvec2_to_uint", 1, "uint32", [(2, "uint32")],
      "dst[0] = (s0[0] & 0xffff) | s0[1] << 16;")
horiz("pack_uvec4_to_uint", 1, "uint32", [(4, "uint32")],
      "dst[0] = s0[0] | s0[1] << 8 | s0[2] << 16 | s0[3] << 24;")
horiz("pack_32_4x8", 1, "uint32", [(4, "uint8")],
      "dst[0] = uint32_t(s0[0]) | uint32_t(s0[1]) << 8 | uint32_t(s0[2]) << 16 | uint32_t(s0[3]) << 24;")
horiz("pack_32_2x16", 1, "uint32", [(2, "uint16")],
      "dst[0] = uint32_t(s0[0]) | uint32_t(s0[1]) << 16;")
horiz("pack_64_2x32", 1, "uint64", [(2, "uint32")],
      "dst[0] = uint64_t(s0[0]) | uint64_t(s0[1]) << 32;")
horiz("pack_64_4x16", 1, "uint64", [(4, "uint16")],
      "dst[0] = uint64_t(s0[0]) | uint64_t(s0[1]) << 16 | uint64_t(s0[2]) << 32 | uint64_t(s0[3]) << 48;")
horiz("unpack_64_2x32", 2, "uint32", [(1, "uint64")],
      "dst[0] = uint32_t(s0[0]); dst[1] = uint32_t(s0[0] >> 32);")
horiz("unpack_64_4x16", 4, "uint16", [(1, "uint64")],
      "for (int k = 0; k < 4; k++) dst[k] = uint16_t(s0[0] >> (16 * k));")
horiz("unpack_32_2x16", 2, "uint16", [(1, "uint32")],
      "dst[0] = uint16_t(s0[0]); dst[1] = uint16_t(s0[0] >> 16);")
horiz("unpack_32_4x8", 4, "uint8", [(1, "uint32")],
      "for (int k = 0; k < 4; k++) dst[k] = uint8_t(s0[0] >> (8 * k));")
horiz("unpack_half_2x16_flush_to_zero", 2, "float32", [(1, "uint32")],
      "dst[0] = unpack_half_ftz_16(uint16_t(s0[0])); dst[1] = unpack_half_ftz_16(uint16_t(s0[0] >> 16));")

unop_convert("unpack_half_2x16_split_x", "float32", "uint32",
             "half_to_float(uint16_t(s0))")
unop_convert("unpack_half_2x16_split_y", "float32", "uint32",
             "half_to_float(uint16_t(s0 >> 16))")
unop_convert("unpack_half_2x16_split_x_flush_to_zero", "float32", "uint32",
             "unpack_half_ftz_16(uint16_t(s0))")
unop_convert("unpack_half_2x16_split_y_flush_to_zero", "float32", "uint32",
             "unpack_half_ftz_16(uint16_t(s0 >> 16))")
unop_convert("unpack_32_2x16_split_x", "uint16", "uint32", "uint16_t(s0)")
unop_convert("unpack_32_2x16_split_y", "uint16", "uint32", "uint16_t(s0 >> 16)")
unop_convert("unpack_64_2x32_split_x", "uint32", "uint64", "uint32_t(s0)")
unop_convert("unpack_64_2x32_split_y", "uint32", "uint64", "uint32_t(s0 >> 32)")

# ---------------------------------------------------------------------------
# Bit operations

unop("bitfield_reverse", "uint32", "reverse_bits32(s0)")
unop_convert("bit_count", "uint32", "uint", "popcount(uint64_t(s0))")
unop_convert("ufind_msb", "int32", "uint", "msb_index(uint64_t(s0))")
# Counted from the top bit of a 32-bit value.
unop_convert("ufind_msb_rev", "int32", "uint",
             "s0 == 0 ? -1 : int32_t(31 - msb_index(uint64_t(uint32_t(s0))))")
unop("uclz", "uint32", "s0 == 0 ? 32u : uint32_t(31 - msb_index(s0))")
# For a negative value, the highest 0 bit; for a positive one, the highest 1.
unop("ifind_msb", "int32", "msb_index(uint64_t(uint32_t(s0 < 0 ? ~s0 : s0)))")
unop("ifind_msb_rev", "int32",
     "(s0 == 0 || s0 == -1) ? -1 : int32_t(31 - msb_index(uint64_t(uint32_t(s0 < 0 ? ~s0 : s0))))")
unop_convert("find_lsb", "int32", "int", "lsb_index(uint64_t(U(s0)))")

for _n in [2, 3, 4]:
    horiz("fsum%d" % _n, 1, "float", [(_n, "float")],
          "dst[0] = s0[0]; for (int k = 1; k < %d; k++) dst[0] += s0[k];" % _n)

# ---------------------------------------------------------------------------
# Integer and float arithmetic


def _rtz_float(op_expr):
    """A float op that honours the round-toward-zero float control."""
    return "dst = rtz_mode(fc, bits) ? rtz_eval([&] { return %s; }) : %s;" % (
        op_expr, op_expr)


binop("fadd", "float", _rtz_float("s0 + s1"), [COMMUTATIVE, ASSOCIATIVE])
binop("iadd", "int", "wadd(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("iadd_sat", "int", "sat_add_signed(s0, s1, bits)", [COMMUTATIVE])
binop("uadd_sat", "uint", "sat_add_unsigned(s0, s1, bits)", [COMMUTATIVE])
binop("isub_sat", "int", "sat_sub_signed(s0, s1, bits)")
binop("usub_sat", "uint", "s0 < s1 ? U(0) : U(s0 - s1)")
binop("fsub", "float", _rtz_float("s0 - s1"))
binop("isub", "int", "wsub(s0, s1)")
binop_convert("uabs_isub", "uint", "int",
              "s1 > s0 ? wsub(s1, s0) : wsub(s0, s1)")
binop("uabs_usub", "uint", "s1 > s0 ? U(s1 - s0) : U(s0 - s1)")
binop("fmul", "float", _rtz_float("s0 * s1"), [COMMUTATIVE, ASSOCIATIVE])
# Zero times anything, even inf or NaN, is zero.
binop("fmulz", "float32", "(s0 == 0 || s1 == 0) ? 0.0f : s0 * s1",
      [COMMUTATIVE, ASSOCIATIVE])
binop("imul", "int", "wmul(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop_convert("imul_2x32_64", "int64", "int32", "int64_t(s0) * int64_t(s1)",
              [COMMUTATIVE])
binop_convert("umul_2x32_64", "uint64", "uint32", "uint64_t(s0) * uint64_t(s1)",
              [COMMUTATIVE])
binop("imul_high", "int", "mul_high_signed(s0, s1, bits)", [COMMUTATIVE])
binop("umul_high", "uint", "mul_high_unsigned(s0, s1, bits)", [COMMUTATIVE])
# Product of the low halves.
binop("umul_low", "uint32",
      "uint32_t(uint64_t(s0 & 0xffff) * uint64_t(s1 & 0xffff))", [COMMUTATIVE])
binop("imul_32x16", "int32", "int32_t(wmul(s0, int16_t(s1)))")
binop("umul_32x16", "uint32", "uint32_t(wmul(s0, uint16_t(s1)))")
binop("fdiv", "float", "s0 / s1")
# Division by zero gives 0; INT_MIN / -1 wraps.
binop("idiv", "int", "s1 == 0 ? U(0) : (s1 == -1 ? wneg(s0) : U(s0 / s1))")
binop("udiv", "uint", "s1 == 0 ? U(0) : U(s0 / s1)")
binop_convert("uadd_carry", "uint", "uint", "U(s0 + s1) < s0 ? 1 : 0",
              [COMMUTATIVE])
binop_convert("usub_borrow", "uint", "uint", "s0 < s1 ? 1 : 0")
# Halving adds without overflow: (a + b) >> 1 and (a + b + 1) >> 1.
binop("ihadd", "int", "(s0 & s1) + ((s0 ^ s1) >> 1)", [COMMUTATIVE])
binop("uhadd", "uint", "(s0 & s1) + ((s0 ^ s1) >> 1)", [COMMUTATIVE])
binop("irhadd", "int", "(s0 | s1) - ((s0 ^ s1) >> 1)", [COMMUTATIVE])
binop("urhadd", "uint", "(s0 | s1) - ((s0 ^ s1) >> 1)", [COMMUTATIVE])
binop("umod", "uint", "s1 == 0 ? U(0) : U(s0 % s1)")
# irem is C's %, imod takes the sign of the divisor.
binop("irem", "int", "(s1 == 0 || s1 == -1) ? I(0) : I(s0 % s1)")
binop("imod", "int",
      "(s1 == 0 || s1 == -1) ? I(0) : I((s0 % s1 != 0 && ((s0 < 0) != (s1 < 0))) ? s0 % s1 + s1 : s0 % s1)")
binop("fmod", "float", "s0 - s1 * std::floor(s0 / s1)")
binop("frem", "float", "s0 - s1 * std::trunc(s0 / s1)")

# ---------------------------------------------------------------------------
# Comparisons: a boolean of 1, 8, 16 or 32 bits (0 or ~0).


def _compare(name, ty, expr, props=(), ty2=None):
    for sfx, out in [("", "bool1"), ("8", "bool8"), ("16", "bool16"),
                     ("32", "bool32")]:
        binop_convert(name + sfx, out, ty, expr, props, ty2)


_compare("flt", "float", "s0 < s1")
_compare("fge", "float", "s0 >= s1")
_compare("feq", "float", "s0 == s1", [COMMUTATIVE])
_compare("fneu", "float", "s0 != s1", [COMMUTATIVE])
_compare("ilt", "int", "s0 < s1")
_compare("ige", "int", "s0 >= s1")
_compare("ieq", "int", "s0 == s1", [COMMUTATIVE])
_compare("ine", "int", "s0 != s1", [COMMUTATIVE])
_compare("ult", "uint", "s0 < s1")
_compare("uge", "uint", "s0 >= s1")
# The bit number wraps at the bit size, like the shifts.
_compare("bitnz", "uint", "((uint64_t(s0) >> (s1 & (bits - 1))) & 1) != 0",
         ty2="uint32")
_compare("bitz", "uint", "((uint64_t(s0) >> (s1 & (bits - 1))) & 1) == 0",
         ty2="uint32")


def _reduce(name, out_type, src_type, out_size, cmp, combine, final):
    """All-equal / any-different over vectors of every size."""
    for n in [2, 3, 4, 5, 8, 16]:
        expr = ("bool r = %s; for (int k = 1; k < %d; k++) r = r %s %s; dst%s = %s;"
                % (cmp.format(k=0), n, combine, cmp.format(k="k"),
                   "[0]" if out_size else "", final))
        opcode(name.format(n=n), out_size, out_type, [n, n],
               [src_type, src_type], expr, [COMMUTATIVE])


for _b, _t in [("b", "bool1"), ("b8", "bool8"), ("b16", "bool16"),
               ("b32", "bool32")]:
    _reduce(_b + "all_fequal{n}", _t, "float", 1, "s0[{k}] == s1[{k}]", "&&", "r")
    _reduce(_b + "any_fnequal{n}", _t, "float", 1, "s0[{k}] != s1[{k}]", "||", "r")
    _reduce(_b + "all_iequal{n}", _t, "int", 1, "s0[{k}] == s1[{k}]", "&&", "r")
    _reduce(_b + "any_inequal{n}", _t, "int", 1, "s0[{k}] != s1[{k}]", "||", "r")

_reduce("fall_equal{n}", "float32", "float32", 1, "s0[{k}] == s1[{k}]", "&&",
        "r ? 1.0f : 0.0f")
_reduce("fany_nequal{n}", "float32", "float32", 1, "s0[{k}] != s1[{k}]", "||",
        "r ? 1.0f : 0.0f")

# Comparisons giving 1.0 / 0.0.
binop("slt", "float", "s0 < s1 ? F(1) : F(0)")
binop("sge", "float", "s0 >= s1 ? F(1) : F(0)")
binop("seq", "float", "s0 == s1 ? F(1) : F(0)", [COMMUTATIVE])
binop("sne", "float", "s0 != s1 ? F(1) : F(0)", [COMMUTATIVE])

# Shifts use the shift count modulo the bit size (SM5 rules).
opcode("ishl", 0, "int", [0, 0], ["int", "uint32"],
       "uint64_t(s0) << (s1 & (bits - 1))")
opcode("ishr", 0, "int", [0, 0], ["int", "uint32"],
       "int64_t(s0) >> (s1 & (bits - 1))")
opcode("ushr", 0, "uint", [0, 0], ["uint", "uint32"],
       "uint64_t(s0) >> (s1 & (bits - 1))")
opcode("urol", 0, "uint", [0, 0], ["uint", "uint32"], "rotate_left(s0, s1, bits)")
opcode("uror", 0, "uint", [0, 0], ["uint", "uint32"],
       "rotate_left(s0, bits - (s1 & (bits - 1)), bits)")

binop("iand", "uint", "s0 & s1", [COMMUTATIVE, ASSOCIATIVE])
binop("ior", "uint", "s0 | s1", [COMMUTATIVE, ASSOCIATIVE])
binop("ixor", "uint", "s0 ^ s1", [COMMUTATIVE, ASSOCIATIVE])

for _n in [2, 3, 4, 5, 8, 16]:
    _dot = "F d = 0; for (int k = 0; k < %d; k++) d += s0[k] * s1[k];" % _n
    opcode("fdot%d" % _n, 1, "float", [_n, _n], ["float", "float"],
           _dot + " dst[0] = d;", [COMMUTATIVE])
    opcode("fdot%d_replicated" % _n, 0, "float", [_n, _n], ["float", "float"],
           _dot + " dst = d;", [COMMUTATIVE])

_DPH = "s0[0] * s1[0] + s0[1] * s1[1] + s0[2] * s1[2] + s1[3]"
opcode("fdph", 1, "float", [3, 4], ["float", "float"], _DPH)
opcode("fdph_replicated", 0, "float", [3, 4], ["float", "float"], _DPH)

binop("fmin", "float", "min_num(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("imin", "int", "std::min(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("umin", "uint", "std::min(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("fmax", "float", "max_num(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("imax", "int", "std::max(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("umax", "uint", "std::max(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])
binop("fpow", "float", "std::pow(s0, s1)")

horiz("pack_half_2x16_split", 1, "uint32", [(1, "float32"), (1, "float32")],
      "uint32_t(float_to_half(s0[0], false)) | uint32_t(float_to_half(s1[0], false)) << 16")
horiz("pack_half_2x16_rtz_split", 1, "uint32", [(1, "float32"), (1, "float32")],
      "uint32_t(float_to_half(s0[0], true)) | uint32_t(float_to_half(s1[0], true)) << 16")
binop_convert("pack_64_2x32_split", "uint64", "uint32",
              "uint64_t(s0) | uint64_t(s1) << 32")
binop_convert("pack_32_2x16_split", "uint32", "uint16",
              "uint32_t(s0) | uint32_t(s1) << 16")
opcode("pack_32_4x8_split", 0, "uint32", [0, 0, 0, 0],
       ["uint8", "uint8", "uint8", "uint8"],
       "uint32_t(s0) | uint32_t(s1) << 8 | uint32_t(s2) << 16 | uint32_t(s3) << 24")

# Bitfield mask: bits and offset are taken modulo 32.
binop_convert("bfm", "uint32", "int32",
              "uint32_t(((uint64_t(1) << (s0 & 31)) - 1) << (s1 & 31))")
# Results that come out denormal are flushed to zero.
opcode("ldexp", 0, "float", [0, 0], ["float", "int32"],
       "dst = ldexp_flush(s0, s1, bits);")

horiz("vec2", 2, "uint", [(1, "uint"), (1, "uint")],
      "dst[0] = s0[0]; dst[1] = s1[0];")

binop("extract_u8", "uint", "uint8_t(uint64_t(s0) >> ((s1 & 7) * 8))")
binop("extract_i8", "int", "int8_t(uint64_t(s0) >> ((s1 & 7) * 8))")
binop("extract_u16", "uint", "uint16_t(uint64_t(s0) >> ((s1 & 3) * 16))")
binop("extract_i16", "int", "int16_t(uint64_t(s0) >> ((s1 & 3) * 16))")
binop("insert_u8", "uint", "(uint64_t(s0) & 0xff) << ((s1 & 7) * 8)")
binop("insert_u16", "uint", "(uint64_t(s0) & 0xffff) << ((s1 & 3) * 16)")

# ---------------------------------------------------------------------------
# Three and four sources

# A 16-bit fma in double is exact but for addends that a half product
# cannot move; rounded to odd in float, the store to half rounds it once.
# In float it would round twice and could land on the other side of a tie.
triop("ffma", "float",
      "auto f = [&] { return bits == 16 ? F(round_to_odd(std::fma(double(s0), double(s1), double(s2)))) : F(std::fma(s0, s1, s2)); }; "
      "dst = rtz_mode(fc, bits) ? rtz_eval(f) : f();",
      [COMMUTATIVE])
triop("ffmaz", "float32",
      "(s0 == 0 || s1 == 0) ? 0.0f + s2 : std::fma(s0, s1, s2)", [COMMUTATIVE])
triop("flrp", "float", "s0 * (1 - s2) + s1 * s2")
triop("iadd3", "int", "wadd(wadd(s0, s1), s2)", [COMMUTATIVE, ASSOCIATIVE])
triop("fcsel", "float32", "s0 != 0 ? s1 : s2", [SELECTION])
opcode("bcsel", 0, "uint", [0, 0, 0], ["bool1", "uint", "uint"],
       "s0 ? s1 : s2", [SELECTION])
opcode("b8csel", 0, "uint", [0, 0, 0], ["bool8", "uint", "uint"],
       "s0 ? s1 : s2", [SELECTION])
opcode("b16csel", 0, "uint", [0, 0, 0], ["bool16", "uint", "uint"],
       "s0 ? s1 : s2", [SELECTION])
opcode("b32csel", 0, "uint", [0, 0, 0], ["bool32", "uint", "uint"],
       "s0 ? s1 : s2", [SELECTION])
triop("i32csel_gt", "int32", "s0 > 0 ? s1 : s2", [SELECTION])
triop("i32csel_ge", "int32", "s0 >= 0 ? s1 : s2", [SELECTION])
triop("fcsel_gt", "float32", "s0 > 0 ? s1 : s2", [SELECTION])
triop("fcsel_ge", "float32", "s0 >= 0 ? s1 : s2", [SELECTION])
# SM5 bfi: insert s1, shifted to the lowest set bit of the mask s0, into s2.
triop("bfi", "uint32",
      "s0 == 0 ? s2 : ((s2 & ~s0) | ((s1 << lsb_index(s0)) & s0))")
triop("bitfield_select", "uint", "(s0 & s1) | (~s0 & s2)")
# SM5 ubfe/ibfe: offset and width modulo 32.
opcode("ubfe", 0, "uint32", [0, 0, 0], ["uint32", "uint32", "uint32"],
       "dst = bitfield_extract_sm5(s0, s1 & 31, s2 & 31, false);")
opcode("ibfe", 0, "int32", [0, 0, 0], ["int32", "uint32", "uint32"],
       "dst = int32_t(bitfield_extract_sm5(uint32_t(s0), s1 & 31, s2 & 31, true));")
# GLSL bitfieldExtract: out-of-range fields give 0.
opcode("ubitfield_extract", 0, "uint32", [0, 0, 0], ["uint32", "int32", "int32"],
       "dst = bitfield_extract_glsl(s0, s1, s2, false);")
opcode("ibitfield_extract", 0, "int32", [0, 0, 0], ["int32", "int32", "int32"],
       "dst = int32_t(bitfield_extract_glsl(uint32_t(s0), s1, s2, true));")
horiz("sad_u8x4", 1, "uint", [(1, "uint"), (1, "uint"), (1, "uint")],
      "uint32_t sum = uint32_t(s2[0]); for (int k = 0; k < 32; k += 8) {"
      " int a = (uint32_t(s0[0]) >> k) & 0xff, b = (uint32_t(s1[0]) >> k) & 0xff;"
      " sum += uint32_t(a > b ? a - b : b - a); } dst[0] = sum;")
horiz("vec3", 3, "uint", [(1, "uint")] * 3,
      "dst[0] = s0[0]; dst[1] = s1[0]; dst[2] = s2[0];")
opcode("bitfield_insert", 0, "uint32", [0, 0, 0, 0],
       ["uint32", "uint32", "int32", "int32"],
       "dst = bitfield_insert_glsl(s0, s1, s2, s3);")
horiz("vec4", 4, "uint", [(1, "uint")] * 4,
      "dst[0] = s0[0]; dst[1] = s1[0]; dst[2] = s2[0]; dst[3] = s3[0];")
horiz("vec5", 5, "uint", [(1, "uint")] * 5,
      "dst[0] = s0[0]; dst[1] = s1[0]; dst[2] = s2[0]; dst[3] = s3[0]; dst[4] = s4[0];")
for _n in [8, 16]:
    horiz("vec%d" % _n, _n, "uint", [(1, "uint")] * _n,
          " ".join("dst[%d] = s%d[0];" % (k, k) for k in range(_n)))

# Address multiply: like imul (overflow is undefined for NIR, wraps here).
binop("amul", "int", "wmul(s0, s1)", [COMMUTATIVE, ASSOCIATIVE])

# ---------------------------------------------------------------------------
# Opcodes of other backends, kept so every 23.3 opcode reads and folds.

opcode("imadsh_mix16", 0, "int32", [0, 0, 0], ["int32", "int32", "int32"],
       "int32_t(wadd(uint32_t(uint32_t(s0) >> 16) * uint32_t(s1 & 0xffff) << 16, s2))")
triop("imad24_ir3", "int32",
      "int32_t(wadd(wmul(sext24(s0), sext24(s1)), s2))", [COMMUTATIVE])
horiz("cube_amd", 4, "float32", [(3, "float32")], "cube_amd(s0, dst);")
unop("fsin_amd", "float", "std::sin(F(6.2831853) * s0)")
unop("fcos_amd", "float", "std::cos(F(6.2831853) * s0)")
unop("fsin_mdg", "float", "std::sin(F(3.141592653589793) * s0)")
unop("fcos_mdg", "float", "std::cos(F(3.141592653589793) * s0)")
unop("fsin_agx", "float", "std::sin(s0 * F(6.2831853 / 4.0))")
# Extract from the 64-bit pair s1:s0; a width of 0 means 32.
opcode("extr_agx", 0, "uint32", [0, 0, 0, 0],
       ["uint32", "uint32", "uint32", "uint32"],
       "dst = (s2 & 0x7f) >= 64 ? 0 : uint32_t(((uint64_t(s1) << 32 | s0) >> (s2 & 0x7f)) &"
       " (s3 == 0 || s3 >= 32 ? 0xffffffffu : (1u << s3) - 1));")
opcode("imadshl_agx", 0, "int", [0, 0, 0, 0], ["int", "int", "int", "int"],
       "wadd(wmul(s0, s1), uint64_t(s2) << (s3 & (bits - 1)))")
opcode("imsubshl_agx", 0, "int", [0, 0, 0, 0], ["int", "int", "int", "int"],
       "wsub(wmul(s0, s1), uint64_t(s2) << (s3 & (bits - 1)))")
binop_convert("interleave_agx", "uint32", "uint16",
              "dst = 0; for (int k = 0; k < 16; k++) dst |= uint32_t((s0 >> k) & 1) << (2 * k) |"
              " uint32_t((s1 >> k) & 1) << (2 * k + 1);")
binop("imul24", "int32", "int32_t(wmul(sext24(s0), sext24(s1)))",
      [COMMUTATIVE, ASSOCIATIVE])
triop("umad24", "uint32",
      "uint32_t(wadd(wmul(s0 & 0xffffff, s1 & 0xffffff), s2))", [COMMUTATIVE])
binop("umul24", "int32",
      "int32_t(wmul(uint32_t(s0) & 0xffffff, uint32_t(s1) & 0xffffff))",
      [COMMUTATIVE, ASSOCIATIVE])
binop("imul24_relaxed", "int32", "int32_t(wmul(s0, s1))", [COMMUTATIVE, ASSOCIATIVE])
triop("umad24_relaxed", "uint32", "uint32_t(wadd(wmul(s0, s1), s2))", [COMMUTATIVE])
binop("umul24_relaxed", "uint32", "uint32_t(wmul(s0, s1))", [COMMUTATIVE, ASSOCIATIVE])
unop_convert("fisnormal", "bool1", "float", "std::isnormal(s0)")
unop_convert("fisfinite", "bool1", "float", "std::isfinite(s0)")
unop_convert("fisfinite32", "bool32", "float", "std::isfinite(s0)")

# vc4: per-byte saturating add/sub, min, max and unorm multiply.
binop("usadd_4x8_vc4", "int32", "bytewise(s0, s1, [](int a, int b) { return std::min(a + b, 255); })",
      [COMMUTATIVE, ASSOCIATIVE])
binop("ussub_4x8_vc4", "int32", "bytewise(s0, s1, [](int a, int b) { return std::max(a - b, 0); })")
binop("umin_4x8_vc4", "int32", "bytewise(s0, s1, [](int a, int b) { return std::min(a, b); })",
      [COMMUTATIVE, ASSOCIATIVE])
binop("umax_4x8_vc4", "int32", "bytewise(s0, s1, [](int a, int b) { return std::max(a, b); })",
      [COMMUTATIVE, ASSOCIATIVE])
binop("umul_unorm_4x8_vc4", "int32", "bytewise(s0, s1, [](int a, int b) { return a * b / 255; })",
      [COMMUTATIVE, ASSOCIATIVE])

unop("fsat_signed_mali", "float", "min_num(max_num(s0, F(-1)), F(1))")
unop("fclamp_pos_mali", "float", "max_num(s0, F(0))")
opcode("b32fcsel_mdg", 0, "uint", [0, 0, 0], ["bool32", "float", "float"],
       "dst = s0 ? fbits(s1, bits) : fbits(s2, bits);", [SELECTION])
unop("fddx_must_abs_mali", "float", "F(0)", props=[DERIVATIVE])
unop("fddy_must_abs_mali", "float", "F(0)", props=[DERIVATIVE])
horiz("pack_double_2x32_dxil", 1, "uint64", [(2, "uint32")],
      "dst[0] = uint64_t(s0[0]) | uint64_t(s0[1]) << 32;")
horiz("unpack_double_2x32_dxil", 2, "uint32", [(1, "uint64")],
      "dst[0] = uint32_t(s0[0]); dst[1] = uint32_t(s0[0] >> 32);")

# Dot products of packed 8- and 16-bit vectors plus an accumulator; the
# _sat forms clamp to the 32-bit range of the result type.
def _dot_packed(name, lanes, s0_signed, s1_signed, acc_signed, sat, props):
    lane_bits = 32 // lanes
    def lane(src, signed):
        t = ("int%d_t" if signed else "uint%d_t") % lane_bits
        return "int64_t(%s(uint32_t(%s) >> (%d * k)))" % (t, src, lane_bits)
    body = ("int64_t sum = %s; for (int k = 0; k < %d; k++) sum += %s * %s;"
            % ("int64_t(s2)" if acc_signed else "int64_t(uint32_t(s2))", lanes,
               lane("s0", s0_signed), lane("s1", s1_signed)))
    if sat:
        if acc_signed:
            body += " dst = int32_t(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX));"
        else:
            body += " dst = uint32_t(std::min<int64_t>(sum, UINT32_MAX));"
    else:
        body += " dst = uint32_t(sum);"
    out = "int32" if (acc_signed or sat) else "uint32"
    opcode(name, 0, out, [0, 0, 0],
           ["uint32", "uint32", "int32" if (acc_signed or sat) else "uint32"],
           body, props)


_dot_packed("sdot_4x8_iadd", 4, True, True, True, False, [COMMUTATIVE])
_dot_packed("udot_4x8_uadd", 4, False, False, False, False, [COMMUTATIVE])
_dot_packed("sudot_4x8_iadd", 4, True, False, True, False, [])
_dot_packed("sdot_4x8_iadd_sat", 4, True, True, True, True, [COMMUTATIVE])
_dot_packed("udot_4x8_uadd_sat", 4, False, False, False, True, [COMMUTATIVE])
_dot_packed("sudot_4x8_iadd_sat", 4, True, False, True, True, [])
_dot_packed("sdot_2x16_iadd", 2, True, True, True, False, [COMMUTATIVE])
_dot_packed("udot_2x16_uadd", 2, False, False, False, False, [COMMUTATIVE])
_dot_packed("sdot_2x16_iadd_sat", 2, True, True, True, True, [COMMUTATIVE])
_dot_packed("udot_2x16_uadd_sat", 2, False, False, False, True, [COMMUTATIVE])
