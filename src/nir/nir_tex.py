"""Texture opcodes and texture source kinds of Mesa 23.3's NIR.

TEX_OPS: (name, printed name, needs a sampler, is a query, implicit
derivatives).  The printed name is what nir_print writes after the
destination type.

TEX_SRCS: (name, type of the value).  The type decides how a constant
source is printed; "coord_lod" is float except for the fetch-like ops
listed in COORD_INT_OPS / LOD_INT_OPS.
"""

TEX_OPS = [
    ("tex", "tex", True, False, True),
    ("txb", "txb", True, False, True),
    ("txl", "txl", True, False, False),
    ("txd", "txd", True, False, False),
    ("txf", "txf", False, False, False),
    ("txf_ms", "txf_ms", False, False, False),
    ("txf_ms_fb", "txf_ms_fb", True, False, False),
    ("txf_ms_mcs_intel", "txf_ms_mcs_intel", True, False, False),
    ("txs", "txs", False, True, False),
    ("lod", "lod", True, True, True),
    ("tg4", "tg4", True, False, False),
    ("query_levels", "query_levels", False, True, False),
    ("texture_samples", "texture_samples", False, True, False),
    ("samples_identical", "samples_identical", False, False, False),
    ("tex_prefetch", "tex (pre-dispatchable)", True, False, False),
    ("fragment_fetch_amd", "fragment_fetch_amd", True, False, False),
    ("fragment_mask_fetch_amd", "fragment_mask_fetch_amd", True, False, False),
    ("descriptor_amd", "descriptor_amd", False, True, False),
    ("sampler_descriptor_amd", "sampler_descriptor_amd", True, True, False),
    ("lod_bias_agx", "lod_bias_agx", True, True, False),
    ("hdr_dim_nv", "hdr_dim_nv", True, False, False),
    ("tex_type_nv", "tex_type_nv", True, False, False),
]

TEX_SRCS = [
    ("coord", "coord"),
    ("projector", "float"),
    ("comparator", "float"),
    ("offset", "int"),
    ("bias", "float"),
    ("lod", "lod"),
    ("min_lod", "float"),
    ("ms_index", "int"),
    ("ms_mcs_intel", "uint"),
    ("ddx", "float"),
    ("ddy", "float"),
    ("texture_deref", "uint"),
    ("sampler_deref", "uint"),
    ("texture_offset", "uint"),
    ("sampler_offset", "uint"),
    ("texture_handle", "uint"),
    ("sampler_handle", "uint"),
    ("plane", "int"),
    ("backend1", "float"),
    ("backend2", "float"),
]

# Ops whose coordinate (resp. lod) source is an integer.
COORD_INT_OPS = ["txf", "txf_ms", "txf_ms_fb", "txf_ms_mcs_intel",
                 "samples_identical", "fragment_fetch_amd",
                 "fragment_mask_fetch_amd"]
LOD_INT_OPS = ["txs", "txf", "txf_ms", "fragment_fetch_amd",
               "fragment_mask_fetch_amd"]
