"""NIR intrinsics the Intel backend of Mesa 23.3 or 25.0 can receive.

Every intrinsic lists its sources (component counts: 0 means the
instruction's num_components, -1 any size), its destination (-1 none,
0 num_components), its constant indices in printing order, and:
  flags         ELIM (can be eliminated), REORDER (can be reordered)
  sysval        reads a system value
  bit_sizes     the bit sizes the destination may have (empty: any)
  bit_size_src  the source whose bit size the destination takes
  offset_src    the source that is a memory/IO offset (printed as an
                integer constant)
  typed_dest    the destination type is the DEST_TYPE index
  typed_src0    source 0's type is the SRC_TYPE index
"""


class Index:
    """A constant-index kind: its name and how nir_print shows it.

    style names the printer case: "plain" prints name=%d; the others are
    special formats (see nir_print.cpp).  label is the text before "=",
    when it differs from the name.
    """
    def __init__(self, name, style="plain", label=None):
        self.name = name
        self.style = style
        self.label = label if label is not None else name


INDICES = []


def index(name, style="plain", label=None):
    idx = Index(name, style, label)
    INDICES.append(idx)
    globals()[name.upper()] = idx


index("base")
index("write_mask", "write_mask", "wrmask")
index("stream_id")
index("ucp_id")
index("range_base")
index("range")
index("desc_set")
index("binding")
index("component")
index("column")
index("interp_mode", "interp_mode")
index("reduction_op", "alu_op")
index("cluster_size")
index("include_helpers")
index("param_idx")
index("image_dim", "image_dim")
index("image_array", "boolean")
index("format", "format")
index("access", "access")
index("call_idx")
index("stack_size")
index("align_mul")
index("align_offset")
index("desc_type", "desc_type")
index("src_type", "alu_type")
index("dest_type", "alu_type")
index("swizzle_mask", "swizzle_mask")
index("fetch_inactive")
index("offset0")
index("offset1")
index("st64")
index("arg_upper_bound_u32_amd")
index("dst_access")
index("src_access")
index("driver_location")
index("memory_semantics", "memory_semantics", "mem_semantics")
index("memory_modes", "memory_modes", "mem_modes")
index("memory_scope", "scope")
index("execution_scope", "scope")
index("io_semantics", "io_semantics", "io location")
index("io_xfb", "io_xfb", "xfb")
index("io_xfb2", "io_xfb", "xfb2")
index("ray_query_value", "ray_query_value")
index("committed")
index("rounding_mode", "rounding_mode")
index("saturate")
index("synchronous")
index("value_id")
index("sign_extend")
index("flags")
index("atomic_op", "atomic_op")
index("resource_block_intel")
index("resource_access_intel", "resource_access", "resource_intel")
index("num_components")
index("num_array_elems")
index("bit_size")
index("divergent")
index("legacy_fabs")
index("legacy_fneg")
index("legacy_fsat")
index("cmat_desc", "cmat_desc")
index("matrix_layout", "matrix_layout")
index("cmat_signed_mask", "cmat_signed", "cmat_signed")
index("alu_op", "alu_op")

ELIM = "can_eliminate"
REORDER = "can_reorder"


class Intrinsic:
    def __init__(self, name, srcs, dest, indices, flags, sysval, bit_sizes,
                 bit_size_src, offset_src, typed_dest, typed_src0):
        assert dest >= -1
        assert len(set(i.name for i in indices)) == len(indices)
        self.name = name
        self.srcs = srcs
        self.num_srcs = len(srcs)
        self.has_dest = dest >= 0
        self.dest = max(dest, 0)
        self.indices = indices
        self.flags = flags
        self.sysval = sysval
        self.bit_sizes = bit_sizes
        self.bit_size_src = bit_size_src
        self.offset_src = offset_src
        self.typed_dest = typed_dest
        self.typed_src0 = typed_src0


INTRINSICS = {}


def intrinsic(name, srcs=(), dest=-1, indices=(), flags=(), sysval=False,
              bit_sizes=(), bit_size_src=-1, offset_src=-1, typed_dest=False,
              typed_src0=False):
    assert name not in INTRINSICS, name
    INTRINSICS[name] = Intrinsic(name, list(srcs), dest, list(indices),
                                 list(flags), sysval, list(bit_sizes),
                                 bit_size_src, offset_src, typed_dest,
                                 typed_src0)


intrinsic("ballot", srcs=[1], dest=0, flags=[ELIM])
intrinsic("barrier", indices=[EXECUTION_SCOPE, MEMORY_SCOPE, MEMORY_SEMANTICS, MEMORY_MODES])
intrinsic("begin_invocation_interlock")
intrinsic("bindless_image_atomic", srcs=[-1, 4, 1, 1], dest=1, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, ATOMIC_OP])
intrinsic("bindless_image_atomic_swap", srcs=[-1, 4, 1, 1, 1], dest=1, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, ATOMIC_OP])
intrinsic("bindless_image_load", srcs=[-1, 4, 1, 1], dest=0, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, DEST_TYPE], flags=[ELIM])
intrinsic("bindless_image_size", srcs=[-1, 1], dest=0, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS], flags=[ELIM, REORDER])
intrinsic("bindless_image_store", srcs=[-1, 4, 1, 0, 1], indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, SRC_TYPE])
intrinsic("btd_retire_intel")
intrinsic("btd_spawn_intel", srcs=[1, 1])
# Mesa 25.0's derivatives (23.3's fddx/fddy ALU opcodes); not reorderable
# across a demote.
for _axis in "xy":
    for _kind in ("", "_coarse", "_fine"):
        intrinsic("dd" + _axis + _kind, srcs=[0], dest=0, flags=[ELIM],
                  bit_sizes=[16, 32], bit_size_src=0)
intrinsic("decl_reg", dest=1, indices=[NUM_COMPONENTS, NUM_ARRAY_ELEMS, BIT_SIZE, DIVERGENT], flags=[ELIM])
intrinsic("demote")
intrinsic("demote_if", srcs=[1])
intrinsic("discard")
intrinsic("discard_if", srcs=[1])
intrinsic("elect", dest=1, flags=[ELIM])
intrinsic("emit_vertex_with_counter", srcs=[1, 1], indices=[STREAM_ID])
intrinsic("end_invocation_interlock")
intrinsic("end_primitive_with_counter", srcs=[1, 1], indices=[STREAM_ID])
intrinsic("exclusive_scan", srcs=[0], dest=0, indices=[REDUCTION_OP], flags=[ELIM], bit_size_src=0)
intrinsic("first_invocation", dest=1, flags=[ELIM], bit_sizes=[32])
intrinsic("get_ssbo_size", srcs=[-1], dest=1, indices=[ACCESS], flags=[ELIM, REORDER], bit_sizes=[32])
intrinsic("global_atomic", srcs=[1, 1], dest=1, indices=[ATOMIC_OP], offset_src=0)
intrinsic("global_atomic_swap", srcs=[1, 1, 1], dest=1, indices=[ATOMIC_OP], offset_src=0)
intrinsic("image_atomic", srcs=[1, 4, 1, 1], dest=1, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE, ATOMIC_OP])
intrinsic("image_atomic_swap", srcs=[1, 4, 1, 1, 1], dest=1, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE, ATOMIC_OP])
intrinsic("image_load", srcs=[1, 4, 1, 1], dest=0, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE, DEST_TYPE], flags=[ELIM])
intrinsic("image_load_raw_intel", srcs=[1, 1], dest=0, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE], flags=[ELIM])
intrinsic("image_size", srcs=[1, 1], dest=0, indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE], flags=[ELIM, REORDER])
intrinsic("image_store", srcs=[1, 4, 1, 0, 1], indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE, SRC_TYPE])
intrinsic("image_store_raw_intel", srcs=[1, 1, 0], indices=[IMAGE_DIM, IMAGE_ARRAY, FORMAT, ACCESS, RANGE_BASE])
intrinsic("inclusive_scan", srcs=[0], dest=0, indices=[REDUCTION_OP], flags=[ELIM], bit_size_src=0)
intrinsic("is_helper_invocation", dest=1, flags=[ELIM])
intrinsic("last_invocation", dest=1, flags=[ELIM], bit_sizes=[32])
intrinsic("load_barycentric_at_offset", srcs=[2], dest=2, indices=[INTERP_MODE], flags=[ELIM, REORDER])
intrinsic("load_barycentric_at_sample", srcs=[1], dest=2, indices=[INTERP_MODE], flags=[ELIM, REORDER])
intrinsic("load_barycentric_centroid", dest=2, indices=[INTERP_MODE], flags=[ELIM, REORDER])
intrinsic("load_barycentric_pixel", dest=2, indices=[INTERP_MODE], flags=[ELIM, REORDER])
intrinsic("load_barycentric_sample", dest=2, indices=[INTERP_MODE], flags=[ELIM, REORDER])
intrinsic("load_base_instance", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_base_vertex", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_btd_global_arg_addr_intel", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[64])
intrinsic("load_btd_local_arg_addr_intel", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[64])
intrinsic("load_btd_shader_type_intel", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_btd_stack_id_intel", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_draw_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_first_vertex", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_frag_coord", dest=4, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_frag_shading_rate", dest=1, flags=[ELIM, REORDER], bit_sizes=[32])
intrinsic("load_front_face", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[1, 32])
intrinsic("load_fs_input_interp_deltas", srcs=[1], dest=3, indices=[BASE, COMPONENT, IO_SEMANTICS], flags=[ELIM, REORDER], offset_src=0)
intrinsic("load_global", srcs=[1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM], offset_src=0)
intrinsic("load_global_block_intel", srcs=[1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM])
intrinsic("load_global_const_block_intel", srcs=[1, 1], dest=0, indices=[BASE], flags=[ELIM, REORDER], bit_sizes=[32])
intrinsic("load_global_constant", srcs=[1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM, REORDER], offset_src=0)
intrinsic("load_global_constant_uniform_block_intel", srcs=[1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM, REORDER])
intrinsic("load_global_invocation_id", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_helper_invocation", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[1, 32])
intrinsic("load_input", srcs=[1], dest=0, indices=[BASE, RANGE, COMPONENT, DEST_TYPE, IO_SEMANTICS], flags=[ELIM, REORDER], offset_src=0, typed_dest=True)
intrinsic("load_instance_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_interpolated_input", srcs=[2, 1], dest=0, indices=[BASE, COMPONENT, DEST_TYPE, IO_SEMANTICS], flags=[ELIM, REORDER], offset_src=1)
intrinsic("load_invocation_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_is_indexed_draw", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_layer_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_local_invocation_id", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_local_invocation_index", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_num_workgroups", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_output", srcs=[1], dest=0, indices=[BASE, RANGE, COMPONENT, DEST_TYPE, IO_SEMANTICS], flags=[ELIM], offset_src=0)
intrinsic("load_per_vertex_input", srcs=[1, 1], dest=0, indices=[BASE, RANGE, COMPONENT, DEST_TYPE, IO_SEMANTICS], flags=[ELIM, REORDER], offset_src=1)
intrinsic("load_per_vertex_output", srcs=[1, 1], dest=0, indices=[BASE, RANGE, COMPONENT, DEST_TYPE, IO_SEMANTICS], flags=[ELIM], offset_src=1)
intrinsic("load_primitive_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_push_constant", srcs=[1], dest=0, indices=[BASE, RANGE, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM, REORDER])
intrinsic("load_reg", srcs=[1], dest=0, indices=[BASE, LEGACY_FABS, LEGACY_FNEG], flags=[ELIM])
intrinsic("load_reg_indirect", srcs=[1, 1], dest=0, indices=[BASE, LEGACY_FABS, LEGACY_FNEG], flags=[ELIM])
intrinsic("load_reloc_const_intel", dest=1, indices=[PARAM_IDX], flags=[ELIM, REORDER], bit_sizes=[32])
intrinsic("load_sample_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_sample_mask_in", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_sample_pos", dest=2, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_sample_pos_or_center", dest=2, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_scratch", srcs=[1], dest=0, indices=[ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM], offset_src=0)
intrinsic("load_shared", srcs=[1], dest=0, indices=[BASE, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM], offset_src=0)
intrinsic("load_shared_block_intel", srcs=[1], dest=0, indices=[BASE, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM])
intrinsic("load_shared_uniform_block_intel", srcs=[1], dest=0, indices=[BASE, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM])
intrinsic("load_ssbo", srcs=[-1, 1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM], offset_src=1)
intrinsic("load_ssbo_block_intel", srcs=[-1, 1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM])
intrinsic("load_ssbo_uniform_block_intel", srcs=[-1, 1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET], flags=[ELIM])
intrinsic("load_subgroup_eq_mask", dest=0, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_subgroup_ge_mask", dest=0, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_subgroup_gt_mask", dest=0, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_subgroup_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_subgroup_invocation", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_subgroup_le_mask", dest=0, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_subgroup_lt_mask", dest=0, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32, 64])
intrinsic("load_subgroup_size", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_tess_coord", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_topology_id_intel", dest=1, indices=[BASE], flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_ubo", srcs=[-1, 1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET, RANGE_BASE, RANGE], flags=[ELIM, REORDER], offset_src=1)
intrinsic("load_ubo_uniform_block_intel", srcs=[-1, 1], dest=0, indices=[ACCESS, ALIGN_MUL, ALIGN_OFFSET, RANGE_BASE, RANGE], flags=[ELIM, REORDER])
intrinsic("load_uniform", srcs=[1], dest=0, indices=[BASE, RANGE, DEST_TYPE], flags=[ELIM, REORDER], offset_src=0, typed_dest=True)
intrinsic("load_vertex_id", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_vertex_id_zero_base", dest=1, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_workgroup_id", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_workgroup_id_zero_base", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("load_workgroup_size", dest=3, flags=[ELIM, REORDER], sysval=True, bit_sizes=[32])
intrinsic("nop", flags=[ELIM])
# Mesa 25.0 (VK_KHR_shader_quad_control): a vote within each quad.
intrinsic("quad_vote_all", srcs=[1], dest=1, flags=[ELIM])
intrinsic("quad_vote_any", srcs=[1], dest=1, flags=[ELIM])
intrinsic("quad_broadcast", srcs=[0, 1], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("quad_swap_diagonal", srcs=[0], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("quad_swap_horizontal", srcs=[0], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("quad_swap_vertical", srcs=[0], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("read_first_invocation", srcs=[0], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("read_invocation", srcs=[0, 1], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("reduce", srcs=[0], dest=0, indices=[REDUCTION_OP, CLUSTER_SIZE, INCLUDE_HELPERS], flags=[ELIM], bit_size_src=0)
intrinsic("resource_intel", srcs=[1, 1, 1], dest=1, indices=[DESC_SET, BINDING, RESOURCE_ACCESS_INTEL, RESOURCE_BLOCK_INTEL], flags=[ELIM, REORDER], bit_sizes=[32])
intrinsic("set_vertex_and_primitive_count", srcs=[1, 1], indices=[STREAM_ID])
intrinsic("shader_clock", dest=2, indices=[MEMORY_SCOPE], flags=[ELIM], bit_sizes=[32])
intrinsic("shared_atomic", srcs=[1, 1], dest=1, indices=[BASE, ATOMIC_OP], offset_src=0)
intrinsic("shared_atomic_swap", srcs=[1, 1, 1], dest=1, indices=[BASE, ATOMIC_OP], offset_src=0)
intrinsic("shuffle", srcs=[0, 1], dest=0, flags=[ELIM], bit_size_src=0)
intrinsic("ssbo_atomic", srcs=[-1, 1, 1], dest=1, indices=[ACCESS, ATOMIC_OP], offset_src=1)
intrinsic("ssbo_atomic_swap", srcs=[-1, 1, 1, 1], dest=1, indices=[ACCESS, ATOMIC_OP], offset_src=1)
intrinsic("store_global", srcs=[0, 1], indices=[WRITE_MASK, ACCESS, ALIGN_MUL, ALIGN_OFFSET], offset_src=1)
intrinsic("store_global_block_intel", srcs=[0, 1], indices=[WRITE_MASK, ACCESS, ALIGN_MUL, ALIGN_OFFSET])
intrinsic("store_output", srcs=[0, 1], indices=[BASE, RANGE, WRITE_MASK, COMPONENT, SRC_TYPE, IO_SEMANTICS, IO_XFB, IO_XFB2], offset_src=1, typed_src0=True)
intrinsic("store_per_vertex_output", srcs=[0, 1, 1], indices=[BASE, RANGE, WRITE_MASK, COMPONENT, SRC_TYPE, IO_SEMANTICS], offset_src=2)
intrinsic("store_reg", srcs=[0, 1], indices=[BASE, WRITE_MASK, LEGACY_FSAT])
intrinsic("store_reg_indirect", srcs=[0, 1, 1], indices=[BASE, WRITE_MASK, LEGACY_FSAT])
intrinsic("store_scratch", srcs=[0, 1], indices=[ALIGN_MUL, ALIGN_OFFSET, WRITE_MASK], offset_src=1)
intrinsic("store_shared", srcs=[0, 1], indices=[BASE, WRITE_MASK, ALIGN_MUL, ALIGN_OFFSET], offset_src=1)
intrinsic("store_shared_block_intel", srcs=[0, 1], indices=[BASE, WRITE_MASK, ALIGN_MUL, ALIGN_OFFSET])
intrinsic("store_ssbo", srcs=[0, -1, 1], indices=[WRITE_MASK, ACCESS, ALIGN_MUL, ALIGN_OFFSET], offset_src=2)
intrinsic("store_ssbo_block_intel", srcs=[0, -1, 1], indices=[WRITE_MASK, ACCESS, ALIGN_MUL, ALIGN_OFFSET])
intrinsic("terminate")
intrinsic("terminate_if", srcs=[1])
intrinsic("trace_ray_intel", srcs=[1, 1, 1], indices=[SYNCHRONOUS])
intrinsic("vote_all", srcs=[1], dest=1, flags=[ELIM])
intrinsic("vote_any", srcs=[1], dest=1, flags=[ELIM])
intrinsic("vote_feq", srcs=[0], dest=1, flags=[ELIM])
intrinsic("vote_ieq", srcs=[0], dest=1, flags=[ELIM])
