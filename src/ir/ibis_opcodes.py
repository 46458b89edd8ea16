# The ibis IR opcode table.  ibis_opcodes_gen.py renders it through the
# .mako templates beside it into the opcode enum, the per-opcode info table
# and the builder's per-opcode helpers, so printer, parser, validator, passes
# and code generation all read one definition.
#
# Hardware facts (the Gen9 opcode list, which opcodes touch the accumulator,
# math functions, pipe/latency classes) follow Mesa's brw_eu_defines.h and
# brw_ir_performance.cpp.

# Latency classes for the static cost model and the scheduler.
LATENCY_CLASSES = [
    'none',      # virtual: costs nothing once lowered or coalesced
    'alu',       # FPU pipe, simple operations
    'alu_long',  # FPU pipe with a longer result latency (mad, lrp, dp*, mul)
    'math',      # extended math unit
    'cf',        # control flow (jumps, joins)
    'sampler',   # sampler messages
    'dataport',  # data port and scratch messages
    'urb',       # URB messages
    'rt',        # render target messages
    'barrier',   # gateway messages and fences
]

# Instruction kinds.
KINDS = ['alu', 'math', 'cf', 'send', 'logical', 'pseudo']

CPP_KEYWORDS = {'and', 'or', 'xor', 'not', 'if', 'else', 'do', 'while',
                'break', 'continue'}


class Opcode:
    def __init__(self, name, srcs, dsts=1, kind='alu', latency='alu',
                 commutative=False, side_effects=False, writes_accum=False,
                 reads_accum=False, writes_flag=False, math_function=None,
                 src_names=None):
        assert kind in KINDS and latency in LATENCY_CLASSES
        self.name = name
        self.cname = name + '_' if name in CPP_KEYWORDS else name
        # srcs: a count, -1 for a variadic list, or a list of slot names.
        if isinstance(srcs, list):
            self.src_names = srcs
            self.num_srcs = len(srcs)
        else:
            self.src_names = src_names or []
            self.num_srcs = srcs
        self.num_dsts = dsts
        self.kind = kind
        self.latency = latency
        self.commutative = commutative
        self.side_effects = side_effects
        self.writes_accum = writes_accum
        self.reads_accum = reads_accum
        self.writes_flag = writes_flag
        self.math_function = math_function

    @property
    def is_send(self):
        return self.kind in ('send', 'logical') and \
            self.latency in ('sampler', 'dataport', 'urb', 'rt', 'barrier')


OPCODES = []


def op(*args, **kwargs):
    OPCODES.append(Opcode(*args, **kwargs))


def alu(name, srcs, **kwargs):
    op(name, srcs, **kwargs)


# --- Gen9 ALU ---------------------------------------------------------------
alu('mov', 1)
alu('sel', 2, commutative=True)
alu('not', 1)
alu('and', 2, commutative=True)
alu('or', 2, commutative=True)
alu('xor', 2, commutative=True)
alu('shr', 2)
alu('shl', 2)
alu('asr', 2)
alu('cmp', 2, writes_flag=True)
alu('cmpn', 2, writes_flag=True)
alu('csel', 3)
alu('bfrev', 1)
alu('bfe', 3)
alu('bfi1', 2)
alu('bfi2', 3)
alu('add', 2, commutative=True)
alu('mul', 2, commutative=True, latency='alu_long')
alu('avg', 2, commutative=True)
alu('frc', 1)
alu('rndu', 1)
alu('rndd', 1)
alu('rnde', 1)
alu('rndz', 1)
alu('mac', 2, reads_accum=True, writes_accum=True, latency='alu_long')
alu('mach', 2, reads_accum=True, writes_accum=True, latency='alu_long')
alu('lzd', 1)
alu('fbh', 1)
alu('fbl', 1)
alu('cbit', 1)
alu('addc', 2, commutative=True, writes_accum=True)
alu('subb', 2, writes_accum=True)
alu('sad2', 2)
alu('sada2', 2, reads_accum=True)
alu('dp4', 2, latency='alu_long')
alu('dph', 2, latency='alu_long')
alu('dp3', 2, latency='alu_long')
alu('dp2', 2, latency='alu_long')
alu('line', 2, writes_accum=True, latency='alu_long')
alu('pln', 2, latency='alu_long')
alu('mad', 3, latency='alu_long')
alu('lrp', 3, latency='alu_long')
alu('madm', 3, latency='alu_long')
alu('nop', 0, dsts=0, latency='none')
# Waits on the notification register n0 (the gateway's barrier reply).
alu('wait', 0, dsts=0, latency='barrier', side_effects=True)

# The MATH instruction, one opcode per function (the function is the
# instruction's function control field).
for fn, nsrc in [('inv', 1), ('log', 1), ('exp', 1), ('sqrt', 1), ('rsq', 1),
                 ('sin', 1), ('cos', 1), ('pow', 2), ('idiv', 2),
                 ('irem', 2), ('invm', 1), ('rsqrtm', 1)]:
    op('math_' + fn, nsrc, kind='math', latency='math', math_function=fn)
op('math_idivrem', 2, dsts=2, kind='math', latency='math',
   math_function='idivrem')

# --- Structured control flow --------------------------------------------------
for name in ['if', 'else', 'endif', 'do', 'while', 'break', 'cont', 'halt']:
    op(name, 0, dsts=0, kind='cf', latency='cf')

# --- Sends -------------------------------------------------------------------
# The physical send after lowering: the message descriptor and extended
# descriptor, then up to two payloads.
op('send', ['sfid', 'desc', 'ex_desc', 'payload0', 'payload1'], kind='send',
   latency='dataport')

# Logical sends carry their typed payload pieces until lowering.  Empty slots
# are null operands; trailing immediates are message controls.
op('urb_write_logical',
   ['handle', 'per_slot_offsets', 'channel_mask', 'data', 'components'],
   dsts=0, kind='logical', latency='urb', side_effects=True)
op('urb_read_logical', ['handle', 'per_slot_offsets', 'offset'],
   kind='logical', latency='urb')
op('fb_write_logical',
   ['color0', 'color1', 'src0_alpha', 'src_depth', 'dst_depth',
    'src_stencil', 'omask', 'sample_mask', 'target', 'components'],
   dsts=0, kind='logical', latency='rt', side_effects=True)
op('tex_logical',
   ['op', 'coordinate', 'shadow_c', 'lod', 'lod2', 'min_lod',
    'sample_index', 'mcs', 'surface', 'sampler', 'tg4_offset',
    'coord_components', 'grad_components'],
   kind='logical', latency='sampler')
op('untyped_read_logical', ['surface', 'address', 'components'],
   kind='logical', latency='dataport')
op('untyped_write_logical', ['surface', 'address', 'data', 'components'],
   dsts=0, kind='logical', latency='dataport', side_effects=True)
op('untyped_atomic_logical', ['surface', 'address', 'data', 'data2', 'atomic_op'],
   kind='logical', latency='dataport', side_effects=True)
op('typed_read_logical', ['surface', 'address', 'components'],
   kind='logical', latency='dataport')
op('typed_write_logical', ['surface', 'address', 'data', 'components'],
   dsts=0, kind='logical', latency='dataport', side_effects=True)
op('typed_atomic_logical', ['surface', 'address', 'data', 'data2', 'atomic_op'],
   kind='logical', latency='dataport', side_effects=True)
op('byte_scattered_read_logical', ['surface', 'address', 'bit_size'],
   kind='logical', latency='dataport')
op('byte_scattered_write_logical', ['surface', 'address', 'data', 'bit_size'],
   dsts=0, kind='logical', latency='dataport', side_effects=True)
op('uniform_block_read_logical', ['surface', 'offset', 'size'],
   kind='logical', latency='dataport')
op('varying_pull_constant_logical', ['surface', 'offset', 'alignment'],
   kind='logical', latency='dataport')
# Scratch messages: register spills and fills, and scratch arrays.
op('scratch_write_logical', ['offset', 'data'], dsts=0, kind='logical',
   latency='dataport', side_effects=True)
op('scratch_read_logical', ['offset'], kind='logical', latency='dataport')
op('memory_fence', ['surface'], kind='logical', latency='barrier',
   side_effects=True)
op('barrier', ['header'], dsts=0, kind='logical', latency='barrier',
   side_effects=True)

# --- Virtual opcodes ----------------------------------------------------------
op('phi', -1, kind='pseudo', latency='none')
op('parallel_copy', -1, dsts=-1, kind='pseudo', latency='none')
op('copy', 1, kind='pseudo', latency='alu')
op('undef', 0, kind='pseudo', latency='none')
# Gathers components into one value of length N (payloads, vectors).
op('load_payload', -1, kind='pseudo', latency='alu')
# Demotes or terminates the channels whose predicate is set.
op('discard', 0, dsts=0, kind='pseudo', latency='alu', side_effects=True)
op('terminate', 0, dsts=0, kind='pseudo', latency='alu', side_effects=True)
op('find_live_channel', 0, kind='pseudo', latency='alu')
op('broadcast', ['value', 'index'], kind='pseudo', latency='alu')
op('shuffle', ['value', 'index'], kind='pseudo', latency='alu_long')
op('mov_indirect', ['base', 'offset', 'length'], kind='pseudo',
   latency='alu')
op('load_subgroup_invocation', 0, kind='pseudo', latency='alu')

# --- Added for from_nir -------------------------------------------------------
# Screen-space derivatives (brw's FS_OPCODE_DDX/DDY_*): pseudo until lowering
# turns them into regioned subtractions within each 2x2 subspan.
for name in ['ddx_coarse', 'ddx_fine', 'ddy_coarse', 'ddy_fine']:
    op(name, 1, kind='pseudo', latency='alu')
# Pixel interpolator query (interpolateAtSample/AtOffset): mode is an
# immediate (0 sample, 1 offset), src the sample index or the offset pair,
# interp_mode the NIR interpolation mode; the result is a barycentric pair in
# the payload's layout.
op('interp_logical', ['mode', 'src', 'interp_mode'], kind='logical',
   latency='sampler')
# Ends a thread that has no final message of its own (compute): the EOT send
# of g0 that lowering will build.
op('thread_end_logical', ['header'], dsts=0, kind='logical', latency='barrier',
   side_effects=True)
