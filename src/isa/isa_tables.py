# Gen8/Gen9 encoding tables.  This file is data only: isa_gen.py turns it
# into isa_tables.h / isa_tables.cpp through the Mako templates beside it.
# Values are hardware facts (Intel PRMs; cross-checked against Mesa's
# brw_inst.h, brw_eu.c, brw_reg_type.c and brw_eu_compact.c).

# Native (128-bit) instruction fields shared by Gen8 and Gen9: name, high
# bit, low bit.  Fields that alias each other (cond_modifier / math_function
# / sfid) are listed once per meaning so that code reads naturally.
FIELDS = [
   ('hw_opcode', 6, 0),
   ('access_mode', 8, 8),
   ('no_dd_clear', 9, 9),
   ('no_dd_check', 10, 10),
   ('nib_control', 11, 11),
   ('qtr_control', 13, 12),
   ('thread_control', 15, 14),
   ('pred_control', 19, 16),
   ('pred_inv', 20, 20),
   ('exec_size', 23, 21),
   ('cond_modifier', 27, 24),
   ('math_function', 27, 24),
   ('sfid', 27, 24),
   ('acc_wr_control', 28, 28),
   ('branch_control', 28, 28),
   ('cmpt_control', 29, 29),
   ('debug_control', 30, 30),
   ('saturate', 31, 31),
   ('flag_subreg_nr', 32, 32),
   ('flag_reg_nr', 33, 33),
   ('mask_control', 34, 34),
   ('dst_reg_file', 36, 35),
   ('dst_reg_hw_type', 40, 37),
   ('src0_reg_file', 42, 41),
   ('src0_reg_hw_type', 46, 43),
   ('dst_ia_addr_imm_9', 47, 47),
   ('dst_da1_subreg_nr', 52, 48),
   ('dst_da16_subreg_nr', 52, 52),
   ('da16_writemask', 51, 48),
   ('dst_ia1_addr_imm', 56, 48),
   ('dst_ia16_addr_imm', 56, 52),
   ('dst_da_reg_nr', 60, 53),
   ('dst_ia_subreg_nr', 60, 57),
   ('dst_hstride', 62, 61),
   ('dst_address_mode', 63, 63),
   ('src0_da1_subreg_nr', 68, 64),
   ('src0_da16_subreg_nr', 68, 68),
   ('src0_da16_swiz_x', 65, 64),
   ('src0_da16_swiz_y', 67, 66),
   ('src0_ia1_addr_imm', 72, 64),
   ('src0_da_reg_nr', 76, 69),
   ('src0_ia_subreg_nr', 76, 73),
   ('src0_abs', 77, 77),
   ('src0_negate', 78, 78),
   ('src0_address_mode', 79, 79),
   ('src0_hstride', 81, 80),
   ('src0_da16_swiz_z', 81, 80),
   ('src0_width', 84, 82),
   ('src0_da16_swiz_w', 83, 82),
   ('src0_vstride', 88, 85),
   ('src1_reg_file', 90, 89),
   ('src1_reg_hw_type', 94, 91),
   ('src0_ia_addr_imm_9', 95, 95),
   ('src1_da1_subreg_nr', 100, 96),
   ('src1_da16_subreg_nr', 100, 100),
   ('src1_da16_swiz_x', 97, 96),
   ('src1_da16_swiz_y', 99, 98),
   ('src1_ia1_addr_imm', 104, 96),
   ('src1_da_reg_nr', 108, 101),
   ('src1_ia_subreg_nr', 108, 105),
   ('src1_abs', 109, 109),
   ('src1_negate', 110, 110),
   ('src1_address_mode', 111, 111),
   ('src1_hstride', 113, 112),
   ('src1_da16_swiz_z', 113, 112),
   ('src1_width', 116, 114),
   ('src1_da16_swiz_w', 115, 114),
   ('src1_vstride', 120, 117),
   ('src1_ia_addr_imm_9', 121, 121),
   ('imm32', 127, 96),
   ('imm64', 127, 64),
   ('jip', 127, 96),
   ('uip', 95, 64),
   # SEND / SENDS
   ('send_desc', 127, 96),
   ('eot', 127, 127),
   ('send_ex_desc_31_28', 94, 91),
   ('send_ex_desc_27_24', 88, 85),
   ('send_ex_desc_23_20', 83, 80),
   ('send_ex_desc_19_16', 67, 64),
   ('sends_ex_desc_31_16', 95, 80),
   ('sends_ex_desc_9_6', 67, 64),
   ('send_ex_desc_ia_subreg_nr', 82, 80),
   ('send_sel_reg32_desc', 77, 77),
   ('send_sel_reg32_ex_desc', 61, 61),
   ('send_src1_reg_nr', 51, 44),
   ('send_src1_reg_file', 36, 36),
   ('send_dst_reg_file', 35, 35),
   # Three-source align16
   ('3src_flag_subreg_nr', 32, 32),
   ('3src_flag_reg_nr', 33, 33),
   ('3src_src0_abs', 37, 37),
   ('3src_src0_negate', 38, 38),
   ('3src_src1_abs', 39, 39),
   ('3src_src1_negate', 40, 40),
   ('3src_src2_abs', 41, 41),
   ('3src_src2_negate', 42, 42),
   ('3src_src2_type', 35, 35),
   ('3src_src1_type', 36, 36),
   ('3src_src_hw_type', 45, 43),
   ('3src_dst_hw_type', 48, 46),
   ('3src_dst_writemask', 52, 49),
   ('3src_dst_subreg_nr', 55, 53),
   ('3src_dst_reg_nr', 63, 56),
   ('3src_src0_rep_ctrl', 64, 64),
   ('3src_src0_swizzle', 72, 65),
   ('3src_src0_subreg_nr', 75, 73),
   ('3src_src0_reg_nr', 83, 76),
   ('3src_src1_rep_ctrl', 85, 85),
   ('3src_src1_swizzle', 93, 86),
   ('3src_src1_subreg_nr', 96, 94),
   ('3src_src1_reg_nr', 104, 97),
   ('3src_src2_rep_ctrl', 106, 106),
   ('3src_src2_swizzle', 114, 107),
   ('3src_src2_subreg_nr', 117, 115),
   ('3src_src2_reg_nr', 125, 118),
]

# Compacted (64-bit) instruction fields, Gen8/Gen9.
COMPACT_FIELDS = [
   ('hw_opcode', 6, 0),
   ('debug_control', 7, 7),
   ('control_index', 12, 8),
   ('datatype_index', 17, 13),
   ('subreg_index', 22, 18),
   ('acc_wr_control', 23, 23),
   ('cond_modifier', 27, 24),
   ('cmpt_control', 29, 29),
   ('src0_index', 34, 30),
   ('src1_index', 39, 35),
   ('dst_reg_nr', 47, 40),
   ('src0_reg_nr', 55, 48),
   ('src1_reg_nr', 63, 56),
   # three-source
   ('3src_control_index', 9, 8),
   ('3src_source_index', 11, 10),
   ('3src_dst_reg_nr', 18, 12),
   ('3src_src0_rep_ctrl', 28, 28),
   ('3src_saturate', 31, 31),
   ('3src_src1_rep_ctrl', 32, 32),
   ('3src_src2_rep_ctrl', 33, 33),
   ('3src_src0_subreg_nr', 36, 34),
   ('3src_src1_subreg_nr', 39, 37),
   ('3src_src2_subreg_nr', 42, 40),
   ('3src_src0_reg_nr', 49, 43),
   ('3src_src1_reg_nr', 56, 50),
   ('3src_src2_reg_nr', 63, 57),
]

# Opcodes of Gen8/Gen9: name, hardware value, sources, destinations, form.
# Forms: alu (1/2 sources, align1 or align16), 3src (align16 three-source),
# math, send, sends, branch (JIP only), branch2 (JIP and UIP), nop, wait.
OPCODES = [
   ('illegal', 0, 0, 0, 'alu'),
   ('mov', 1, 1, 1, 'alu'),
   ('sel', 2, 2, 1, 'alu'),
   ('movi', 3, 2, 1, 'alu'),
   ('not', 4, 1, 1, 'alu'),
   ('and', 5, 2, 1, 'alu'),
   ('or', 6, 2, 1, 'alu'),
   ('xor', 7, 2, 1, 'alu'),
   ('shr', 8, 2, 1, 'alu'),
   ('shl', 9, 2, 1, 'alu'),
   ('smov', 10, 1, 1, 'alu'),
   ('asr', 12, 2, 1, 'alu'),
   ('ror', 14, 2, 1, 'alu'),
   ('rol', 15, 2, 1, 'alu'),
   ('cmp', 16, 2, 1, 'alu'),
   ('cmpn', 17, 2, 1, 'alu'),
   ('csel', 18, 3, 1, '3src'),
   ('bfrev', 23, 1, 1, 'alu'),
   ('bfe', 24, 3, 1, '3src'),
   ('bfi1', 25, 2, 1, 'alu'),
   ('bfi2', 26, 3, 1, '3src'),
   ('jmpi', 32, 0, 0, 'jmpi'),
   ('brd', 33, 0, 0, 'alu'),
   ('if', 34, 0, 0, 'branch2'),
   ('brc', 35, 0, 0, 'alu'),
   ('else', 36, 0, 0, 'branch2'),
   ('endif', 37, 0, 0, 'branch'),
   ('while', 39, 0, 0, 'branch'),
   ('break', 40, 0, 0, 'branch2'),
   ('cont', 41, 0, 0, 'branch2'),
   ('halt', 42, 0, 0, 'branch2'),
   ('calla', 43, 0, 0, 'alu'),
   ('call', 44, 0, 0, 'alu'),
   ('ret', 45, 0, 0, 'alu'),
   ('goto', 46, 0, 0, 'alu'),
   ('wait', 48, 0, 1, 'wait'),
   ('send', 49, 1, 1, 'send'),
   ('sendc', 50, 1, 1, 'send'),
   ('sends', 51, 2, 1, 'sends'),
   ('sendsc', 52, 2, 1, 'sends'),
   ('math', 56, 2, 1, 'math'),
   ('add', 64, 2, 1, 'alu'),
   ('mul', 65, 2, 1, 'alu'),
   ('avg', 66, 2, 1, 'alu'),
   ('frc', 67, 1, 1, 'alu'),
   ('rndu', 68, 1, 1, 'alu'),
   ('rndd', 69, 1, 1, 'alu'),
   ('rnde', 70, 1, 1, 'alu'),
   ('rndz', 71, 1, 1, 'alu'),
   ('mac', 72, 2, 1, 'alu'),
   ('mach', 73, 2, 1, 'alu'),
   ('lzd', 74, 1, 1, 'alu'),
   ('fbh', 75, 1, 1, 'alu'),
   ('fbl', 76, 1, 1, 'alu'),
   ('cbit', 77, 1, 1, 'alu'),
   ('addc', 78, 2, 1, 'alu'),
   ('subb', 79, 2, 1, 'alu'),
   ('sad2', 80, 2, 1, 'alu'),
   ('sada2', 81, 2, 1, 'alu'),
   ('dp4', 84, 2, 1, 'alu'),
   ('dph', 85, 2, 1, 'alu'),
   ('dp3', 86, 2, 1, 'alu'),
   ('dp2', 87, 2, 1, 'alu'),
   ('line', 89, 2, 1, 'alu'),
   ('pln', 90, 2, 1, 'alu'),
   ('mad', 91, 3, 1, '3src'),
   ('lrp', 92, 3, 1, '3src'),
   ('madm', 93, 3, 1, '3src'),
   ('nop', 126, 0, 0, 'nop'),
]

# Logic opcodes print a source negate as "~" (bitwise not) on Gen8+.
LOGIC_OPCODES = ['and', 'not', 'or', 'xor']

# Register types: name, size in bytes, Gen8/Gen9 register and immediate
# encodings, Gen8/Gen9 align16 three-source encoding, Gen11 register and
# immediate encodings (None: the type has no such encoding).
TYPES = [
   ('UD', 4, 0, 0, 2, 0, 0),
   ('D', 4, 1, 1, 1, 1, 1),
   ('UW', 2, 2, 2, None, 2, 2),
   ('W', 2, 3, 3, None, 3, 3),
   ('UB', 1, 4, None, None, 4, None),
   ('B', 1, 5, None, None, 5, None),
   ('DF', 8, 6, 10, 3, None, None),
   ('F', 4, 7, 7, 0, 9, 9),
   ('UQ', 8, 8, 8, None, None, None),
   ('Q', 8, 9, 9, None, None, None),
   ('HF', 2, 10, 11, 4, 8, 8),
   ('UV', 2, None, 4, None, None, 4),
   ('VF', 4, None, 5, None, None, 11),
   ('V', 2, None, 6, None, None, 5),
]

# Conditional modifiers: name, value.  Assembly also accepts ".e" and ".ne".
COND_MODS = [
   ('none', 0, ''), ('z', 1, '.z'), ('nz', 2, '.nz'), ('g', 3, '.g'),
   ('ge', 4, '.ge'), ('l', 5, '.l'), ('le', 6, '.le'), ('r', 7, '.r'),
   ('o', 8, '.o'), ('u', 9, '.u'),
]

# Align1 predicate controls: name, value, suffix.
PREDICATES = [
   ('none', 0, ''), ('normal', 1, ''), ('anyv', 2, '.anyv'),
   ('allv', 3, '.allv'), ('any2h', 4, '.any2h'), ('all2h', 5, '.all2h'),
   ('any4h', 6, '.any4h'), ('all4h', 7, '.all4h'), ('any8h', 8, '.any8h'),
   ('all8h', 9, '.all8h'), ('any16h', 10, '.any16h'),
   ('all16h', 11, '.all16h'), ('any32h', 12, '.any32h'),
   ('all32h', 13, '.all32h'),
]

# Align16 predicate controls share values 1..7 with different meanings.
PREDICATES_ALIGN16 = ['', '', '.x', '.y', '.z', '.w', '.any4h', '.all4h']

MATH_FUNCTIONS = [
   ('inv', 1), ('log', 2), ('exp', 3), ('sqrt', 4), ('rsq', 5), ('sin', 6),
   ('cos', 7), ('sincos', 8), ('fdiv', 9), ('pow', 10), ('intdivmod', 11),
   ('intdiv', 12), ('intmod', 13), ('invm', 14), ('rsqrtm', 15),
]

# Shared functions (SFIDs) of Gen7+: enum name, value, assembly name.
SFIDS = [
   ('null', 0, 'null'),
   ('sampler', 2, 'sampler'),
   ('gateway', 3, 'gateway'),
   ('sampler_cache', 4, 'dp_sampler'),
   ('render_cache', 5, 'render'),
   ('urb', 6, 'urb'),
   ('thread_spawner', 7, 'thread_spawner'),
   ('vme', 8, 'vme'),
   ('const_cache', 9, 'const'),
   ('data_cache', 10, 'data'),
   ('pixel_interp', 11, 'pixel interp'),
   ('data_cache1', 12, 'dp data 1'),
   ('cre', 13, 'cre'),
]

# Architecture registers: name, number of the first one (high nibble).
ARFS = [
   ('null', 0x00), ('a', 0x10), ('acc', 0x20), ('f', 0x30), ('mask', 0x40),
   ('ms', 0x50), ('msd', 0x60), ('sr', 0x70), ('cr', 0x80), ('n', 0x90),
   ('ip', 0xa0), ('tdr', 0xb0), ('tm', 0xc0),
]

# --- Message descriptors (Gen9) ---
# Fields of the 32-bit message descriptor of SEND/SENDS: name, high, low.
MESSAGE_FIELDS = [
   ('mlen', 28, 25),
   ('rlen', 24, 20),
   ('header_present', 19, 19),
   ('binding_table_index', 7, 0),
   # sampler
   ('sampler_index', 11, 8),
   ('sampler_msg_type', 16, 12),
   ('sampler_simd_mode', 18, 17),
   ('sampler_simd_mode_2', 29, 29),
   ('sampler_return_format', 30, 30),
   # data port (data cache, data cache 1, constant and sampler caches)
   ('dp_msg_control', 13, 8),
   ('dp_msg_type', 18, 14),
   # render cache: render target writes
   ('rt_subtype', 10, 8),
   ('rt_slot_group', 11, 11),
   ('rt_last', 12, 12),
   ('rc_msg_type', 17, 14),
   # URB
   ('urb_opcode', 3, 0),
   ('urb_global_offset', 14, 4),
   ('urb_channel_mask_present', 15, 15),
   ('urb_per_slot_offset', 17, 17),
   # message gateway
   ('gateway_subfunc', 2, 0),
   # pixel interpolator
   ('pi_msg_data', 7, 0),
   ('pi_slot_group', 11, 11),
   ('pi_msg_type', 13, 12),
   ('pi_nopersp', 14, 14),
   ('pi_simd_mode', 16, 16),
]
# Fields of the SENDS extended descriptor.
EX_DESC_FIELDS = [
   ('ex_mlen', 9, 6),
]

# Message types with C++ names: enum name, {value: identifier}.
MESSAGE_ENUMS = [
   ('sampler_msg', {0: 'sample', 1: 'sample_b', 2: 'sample_l', 3: 'sample_c',
                    4: 'sample_d', 5: 'sample_b_c', 6: 'sample_l_c', 7: 'ld',
                    8: 'gather4', 9: 'lod', 10: 'resinfo', 11: 'sampleinfo',
                    16: 'gather4_c', 17: 'gather4_po', 18: 'gather4_po_c',
                    20: 'sample_d_c', 24: 'sample_lz', 25: 'sample_c_lz',
                    26: 'ld_lz', 28: 'ld2dms_w', 29: 'ld_mcs', 30: 'ld2dms',
                    31: 'ld2dss'}),
   ('sampler_simd', {0: 'simd4x2', 1: 'simd8', 2: 'simd16', 3: 'simd32_64'}),
   ('urb_op', {0: 'write_hword', 1: 'write_oword', 2: 'read_hword',
               3: 'read_oword', 4: 'atomic_mov', 5: 'atomic_inc',
               6: 'atomic_add', 7: 'simd8_write', 8: 'simd8_read'}),
   ('rt_write_subtype', {0: 'simd16', 1: 'simd16_repdata', 2: 'simd8_dual_low',
                         3: 'simd8_dual_high', 4: 'simd8',
                         5: 'simd8_image_write'}),
   ('dc0_msg', {0: 'oword_block_read', 1: 'unaligned_oword_block_read',
                2: 'oword_dual_block_read', 3: 'dword_scattered_read',
                4: 'byte_scattered_read', 5: 'untyped_surface_read',
                6: 'untyped_atomic', 7: 'memory_fence',
                8: 'oword_block_write', 10: 'oword_dual_block_write',
                11: 'dword_scattered_write', 12: 'byte_scattered_write',
                13: 'untyped_surface_write'}),
   ('dc1_msg', {1: 'untyped_surface_read', 2: 'untyped_atomic',
                3: 'untyped_atomic_simd4x2', 4: 'media_block_read',
                5: 'typed_surface_read', 6: 'typed_atomic',
                7: 'typed_atomic_simd4x2', 9: 'untyped_surface_write',
                10: 'media_block_write', 11: 'atomic_counter',
                12: 'atomic_counter_simd4x2', 13: 'typed_surface_write',
                16: 'a64_scattered_read', 17: 'a64_untyped_surface_read',
                18: 'a64_untyped_atomic', 20: 'a64_oword_block_read',
                21: 'a64_oword_block_write', 25: 'a64_untyped_surface_write',
                26: 'a64_scattered_write', 27: 'untyped_atomic_float',
                29: 'a64_untyped_atomic_float'}),
   ('atomic_op', {1: 'and_', 2: 'or_', 3: 'xor_', 4: 'mov', 5: 'inc', 6: 'dec',
                  7: 'add', 8: 'sub', 9: 'revsub', 10: 'imax', 11: 'imin',
                  12: 'umax', 13: 'umin', 14: 'cmpwr', 15: 'predec'}),
   ('gateway_subfunc', {0: 'open', 1: 'close', 2: 'forward_msg',
                        3: 'get_timestamp', 4: 'barrier_msg',
                        5: 'update_state', 6: 'mmio_read_write'}),
   ('pi_msg', {0: 'shared_offset', 1: 'sample_position', 2: 'centroid',
               3: 'per_slot_offset'}),
]

# --- Message descriptor names, as brw_disasm prints them (Gen9) ---

SAMPLER_MSG_TYPES = {
   0: 'sample', 1: 'sample_b', 2: 'sample_l', 3: 'sample_c', 4: 'sample_d',
   5: 'sample_b_c', 6: 'sample_l_c', 7: 'ld', 8: 'gather4', 9: 'lod',
   10: 'resinfo', 11: 'sampleinfo', 16: 'gather4_c', 17: 'gather4_po',
   18: 'gather4_po_c', 20: 'sample_d_c', 24: 'sample_lz', 25: 'sample_c_lz',
   26: 'ld_lz', 28: 'ld2dms_w', 29: 'ld_mcs', 30: 'ld2dms', 31: 'ld2dss',
}
SAMPLER_SIMD_MODES = {0: 'SIMD4x2', 1: 'SIMD8', 2: 'SIMD16', 3: 'SIMD32/64'}

URB_OPCODES = {
   0: 'write HWord', 1: 'write OWord', 2: 'read HWord', 3: 'read OWord',
   4: 'atomic mov', 5: 'atomic inc', 6: 'atomic add', 7: 'SIMD8 write',
   8: 'SIMD8 read',
}
URB_SWIZZLES = {0: '', 1: 'interleave', 2: 'transpose'}

RC_MSG_TYPES = {12: 'RT write', 13: 'RT read'}
RT_WRITE_SUBTYPES = {
   0: 'SIMD16', 1: 'SIMD16/RepData', 2: 'SIMD8/DualSrcLow',
   3: 'SIMD8/DualSrcHigh', 4: 'SIMD8', 5: 'SIMD8/ImageWrite',
   7: 'SIMD16/RepData-111',
}

DC0_MSG_TYPES = {
   0: 'DC OWORD block read', 1: 'DC unaligned OWORD block read',
   2: 'DC OWORD dual block read', 3: 'DC DWORD scattered read',
   4: 'DC byte scattered read', 5: 'DC untyped surface read',
   6: 'DC untyped atomic', 7: 'DC mfence', 8: 'DC OWORD block write',
   10: 'DC OWORD dual block write', 11: 'DC DWORD scatterd write',
   12: 'DC byte scattered write', 13: 'DC untyped surface write',
}

DC1_MSG_TYPES = {
   1: 'untyped surface read', 2: 'DC untyped atomic op',
   3: 'DC untyped 4x2 atomic op', 4: 'DC media block read',
   5: 'DC typed surface read', 6: 'DC typed atomic',
   7: 'DC typed 4x2 atomic op', 9: 'DC untyped surface write',
   10: 'DC media block write', 11: 'DC atomic counter op',
   12: 'DC 4x2 atomic counter op', 13: 'DC typed surface write',
   16: 'DC A64 scattered read', 17: 'DC A64 untyped surface read',
   18: 'DC A64 untyped atomic op', 20: 'DC A64 oword block read',
   21: 'DC A64 oword block write', 25: 'DC A64 untyped surface write',
   26: 'DC A64 scattered write', 27: 'DC untyped atomic float op',
   29: 'DC A64 untyped atomic float op',
}

ATOMIC_OPS = {
   1: 'and', 2: 'or', 3: 'xor', 4: 'mov', 5: 'inc', 6: 'dec', 7: 'add',
   8: 'sub', 9: 'revsub', 10: 'imax', 11: 'imin', 12: 'umax', 13: 'umin',
   14: 'cmpwr', 15: 'predec',
}
ATOMIC_FLOAT_OPS = {1: 'fmax', 2: 'fmin', 3: 'fcmpwr', 4: 'fadd'}

OWORD_BLOCK_SIZES = {0: '1-low', 1: '1-high', 2: '2', 3: '4', 4: '8'}

GATEWAY_SUBFUNCS = {
   0: 'open', 1: 'close', 2: 'forward msg', 3: 'get timestamp',
   4: 'barrier msg', 5: 'update state', 6: 'mmio read/write',
}

PI_MSG_TYPES = {
   0: 'per_message_offset', 1: 'sample_position', 2: 'centroid',
   3: 'per_slot_offset',
}

# --- Compaction (Gen8/Gen9) ---
# Each index of a compacted instruction selects one entry of a table; the
# entry's bits are scattered over these native bit ranges, most significant
# range first.
COMPACT_CONTROL_BITS = [(33, 31), (23, 12), (10, 9), (34, 34), (8, 8)]
COMPACT_DATATYPE_BITS = [(63, 61), (94, 89), (46, 35)]
COMPACT_SUBREG_BITS = [(100, 96), (68, 64), (52, 48)]
COMPACT_SRC0_BITS = [(88, 77)]
COMPACT_SRC1_BITS = [(120, 109)]
# Gen9 (and Cherryview) layout of the three-source indices.
COMPACT_3SRC_CONTROL_BITS = [(36, 35), (34, 32), (28, 8)]
COMPACT_3SRC_SOURCE_BITS = [(126, 125), (105, 104), (84, 84), (83, 83),
                            (114, 107), (93, 86), (72, 65), (55, 37)]
# Gen8 (Broadwell) has narrower three-source indices.
COMPACT_3SRC_CONTROL_BITS_GEN8 = [(34, 32), (28, 8)]
COMPACT_3SRC_SOURCE_BITS_GEN8 = [(125, 125), (104, 104), (83, 83),
                                 (114, 107), (93, 86), (72, 65), (55, 37)]

CONTROL_INDEX_TABLE = [
   0b0000000000000000010, 0b0000100000000000000, 0b0000100000000000001, 0b0000100000000000010,
   0b0000100000000000011, 0b0000100000000000100, 0b0000100000000000101, 0b0000100000000000111,
   0b0000100000000001000, 0b0000100000000001001, 0b0000100000000001101, 0b0000110000000000000,
   0b0000110000000000001, 0b0000110000000000010, 0b0000110000000000011, 0b0000110000000000100,
   0b0000110000000000101, 0b0000110000000000111, 0b0000110000000001001, 0b0000110000000001101,
   0b0000110000000010000, 0b0000110000100000000, 0b0001000000000000000, 0b0001000000000000010,
   0b0001000000000000100, 0b0001000000100000000, 0b0010110000000000000, 0b0010110000000010000,
   0b0011000000000000000, 0b0011000000100000000, 0b0101000000000000000, 0b0101000000100000000,
]

DATATYPE_TABLE = [
   0b001000000000000000001, 0b001000000000001000000, 0b001000000000001000001, 0b001000000000011000001,
   0b001000000000101011101, 0b001000000010111011101, 0b001000000011101000001, 0b001000000011101000101,
   0b001000000011101011101, 0b001000001000001000001, 0b001000011000001000000, 0b001000011000001000001,
   0b001000101000101000101, 0b001000111000101000100, 0b001000111000101000101, 0b001011100011101011101,
   0b001011101011100011101, 0b001011101011101011100, 0b001011101011101011101, 0b001011111011101011100,
   0b000000000010000001100, 0b001000000000001011101, 0b001000000000101000101, 0b001000001000001000000,
   0b001000101000101000100, 0b001000111000100000100, 0b001001001001000001001, 0b001010111011101011101,
   0b001011111011101011101, 0b001001111001101001100, 0b001001001001001001000, 0b001001011001001001000,
]

SUBREG_TABLE = [
   0b000000000000000, 0b000000000000001, 0b000000000001000, 0b000000000001111,
   0b000000000010000, 0b000000010000000, 0b000000100000000, 0b000000110000000,
   0b000001000000000, 0b000001000010000, 0b000001010000000, 0b001000000000000,
   0b001000000000001, 0b001000010000001, 0b001000010000010, 0b001000010000011,
   0b001000010000100, 0b001000010000111, 0b001000010001000, 0b001000010001110,
   0b001000010001111, 0b001000110000000, 0b001000111101000, 0b010000000000000,
   0b010000110000000, 0b011000000000000, 0b011110010000111, 0b100000000000000,
   0b101000000000000, 0b110000000000000, 0b111000000000000, 0b111000000011100,
]

SRC_INDEX_TABLE = [
   0b000000000000, 0b000000000010, 0b000000010000, 0b000000010010,
   0b000000011000, 0b000000100000, 0b000000101000, 0b000001001000,
   0b000001010000, 0b000001110000, 0b000001111000, 0b001100000000,
   0b001100000010, 0b001100001000, 0b001100010000, 0b001100010010,
   0b001100100000, 0b001100101000, 0b001100111000, 0b001101000000,
   0b001101000010, 0b001101001000, 0b001101010000, 0b001101100000,
   0b001101101000, 0b001101110000, 0b001101110001, 0b001101111000,
   0b010001101000, 0b010001101001, 0b010001101010, 0b010110001000,
]

CONTROL_INDEX_TABLE_3SRC = [
   0b00100000000110000000000001, 0b00000000000110000000000001, 0b00000000001000000000000001, 0b00000000001000000000100001,
]

SOURCE_INDEX_TABLE_3SRC = [
   0b0000001110010011100100111001000001111000000000000, 0b0000001110010011100100111001000001111000000000010, 0b0000001110010011100100111001000001111000000001000, 0b0000001110010011100100111001000001111000000100000,
]

# Gen11 replaces only the datatype table (its type encodings changed).
DATATYPE_TABLE_GEN11 = [
   0b001000000000000000001, 0b001000000000001000000, 0b001000000000001000001, 0b001000000000011000001,
   0b001000000000101100101, 0b001000000101111100101, 0b001000000100101000001, 0b001000000100101000101,
   0b001000000100101100101, 0b001000001000001000001, 0b001000011000001000000, 0b001000011000001000001,
   0b001000101000101000101, 0b001000111000101000100, 0b001000111000101000101, 0b001100100100101100101,
   0b001100101100100100101, 0b001100101100101100100, 0b001100101100101100101, 0b001100111100101100100,
   0b000000000010000001100, 0b001000000000001100101, 0b001000000000101000101, 0b001000001000001000000,
   0b001000101000101000100, 0b001000111000100000100, 0b001001001001000001001, 0b001101111100101100101,
   0b001100111100101100101, 0b001001111001101001100, 0b001001001001001001000, 0b001001011001001001000,
]
