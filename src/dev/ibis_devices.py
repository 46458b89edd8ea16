# Device table for ibis: the Intel GPUs the compiler targets, by platform
# name and PCI device id.  Hardware facts (generation, thread counts, feature
# bits, PCI ids) follow Mesa's intel_device_info and iris_pci_ids.h for the
# Gen8-Gen11 parts.  ibis_device_table.cpp.mako turns this into C++.

class Device:
    def __init__(self, name, platform, ver, gt, eus_per_subslice, subslices,
                 max_cs_threads=56, has_pln=True, has_64bit_float=True,
                 has_64bit_int=True, has_integer_dword_mul=True):
        self.name = name
        self.platform = platform
        self.ver = ver
        self.gt = gt
        self.eus_per_subslice = eus_per_subslice
        self.subslices = subslices
        self.max_cs_threads = max_cs_threads
        self.has_pln = has_pln
        self.has_64bit_float = has_64bit_float
        self.has_64bit_int = has_64bit_int
        self.has_integer_dword_mul = has_integer_dword_mul

GEN11 = dict(has_pln=False, has_64bit_float=False, has_64bit_int=False,
             has_integer_dword_mul=False)

DEVICES = [
    Device('bdw_gt1', 'bdw', 8, 1, 6, 2, max_cs_threads=42),
    Device('bdw_gt2', 'bdw', 8, 2, 8, 3),
    Device('bdw_gt3', 'bdw', 8, 3, 8, 6),
    Device('skl_gt1', 'skl', 9, 1, 6, 2),
    Device('skl_gt2', 'skl', 9, 2, 8, 3),
    Device('skl_gt3', 'skl', 9, 3, 8, 6),
    Device('skl_gt4', 'skl', 9, 4, 8, 9),
    Device('kbl_gt1', 'kbl', 9, 1, 6, 2),
    Device('kbl_gt1_5', 'kbl', 9, 1, 6, 3),
    Device('kbl_gt2', 'kbl', 9, 2, 8, 3),
    Device('kbl_gt3', 'kbl', 9, 3, 8, 6),
    Device('kbl_gt4', 'kbl', 9, 4, 8, 9),
    Device('icl_gt0_5', 'icl', 11, 1, 8, 1, **GEN11),
    Device('icl_gt1', 'icl', 11, 1, 8, 4, **GEN11),
    Device('icl_gt1_5', 'icl', 11, 1, 8, 6, **GEN11),
    Device('icl_gt2', 'icl', 11, 2, 8, 8, **GEN11),
]

# The device a bare platform name ("skl") selects.
DEFAULT_FOR_PLATFORM = {'bdw': 'bdw_gt2', 'skl': 'skl_gt2', 'kbl': 'kbl_gt2',
                        'icl': 'icl_gt2'}

PCI_IDS = [
   (0x1602, 'bdw_gt1'),
   (0x1606, 'bdw_gt1'),
   (0x160a, 'bdw_gt1'),
   (0x160b, 'bdw_gt1'),
   (0x160d, 'bdw_gt1'),
   (0x160e, 'bdw_gt1'),
   (0x1612, 'bdw_gt2'),
   (0x1616, 'bdw_gt2'),
   (0x161a, 'bdw_gt2'),
   (0x161b, 'bdw_gt2'),
   (0x161d, 'bdw_gt2'),
   (0x161e, 'bdw_gt2'),
   (0x1622, 'bdw_gt3'),
   (0x1626, 'bdw_gt3'),
   (0x162a, 'bdw_gt3'),
   (0x162b, 'bdw_gt3'),
   (0x162d, 'bdw_gt3'),
   (0x162e, 'bdw_gt3'),
   (0x1902, 'skl_gt1'),
   (0x1906, 'skl_gt1'),
   (0x190a, 'skl_gt1'),
   (0x190b, 'skl_gt1'),
   (0x190e, 'skl_gt1'),
   (0x1912, 'skl_gt2'),
   (0x1913, 'skl_gt2'),
   (0x1915, 'skl_gt2'),
   (0x1916, 'skl_gt2'),
   (0x1917, 'skl_gt2'),
   (0x191a, 'skl_gt2'),
   (0x191b, 'skl_gt2'),
   (0x191d, 'skl_gt2'),
   (0x191e, 'skl_gt2'),
   (0x1921, 'skl_gt2'),
   (0x1923, 'skl_gt3'),
   (0x1926, 'skl_gt3'),
   (0x1927, 'skl_gt3'),
   (0x192a, 'skl_gt4'),
   (0x192b, 'skl_gt3'),
   (0x192d, 'skl_gt3'),
   (0x1932, 'skl_gt4'),
   (0x193a, 'skl_gt4'),
   (0x193b, 'skl_gt4'),
   (0x193d, 'skl_gt4'),
   (0x5902, 'kbl_gt1'),
   (0x5906, 'kbl_gt1'),
   (0x590a, 'kbl_gt1'),
   (0x5908, 'kbl_gt1'),
   (0x590b, 'kbl_gt1'),
   (0x590e, 'kbl_gt1'),
   (0x5913, 'kbl_gt1_5'),
   (0x5915, 'kbl_gt1_5'),
   (0x5917, 'kbl_gt2'),
   (0x5912, 'kbl_gt2'),
   (0x5916, 'kbl_gt2'),
   (0x591a, 'kbl_gt2'),
   (0x591b, 'kbl_gt2'),
   (0x591d, 'kbl_gt2'),
   (0x591e, 'kbl_gt2'),
   (0x5921, 'kbl_gt2'),
   (0x5923, 'kbl_gt3'),
   (0x5926, 'kbl_gt3'),
   (0x5927, 'kbl_gt3'),
   (0x593b, 'kbl_gt4'),
   (0x591c, 'kbl_gt2'),
   (0x87c0, 'kbl_gt2'),
   (0x8a50, 'icl_gt2'),
   (0x8a51, 'icl_gt2'),
   (0x8a52, 'icl_gt2'),
   (0x8a53, 'icl_gt2'),
   (0x8a54, 'icl_gt1_5'),
   (0x8a56, 'icl_gt1'),
   (0x8a57, 'icl_gt1_5'),
   (0x8a58, 'icl_gt1'),
   (0x8a59, 'icl_gt1_5'),
   (0x8a5a, 'icl_gt1_5'),
   (0x8a5b, 'icl_gt1'),
   (0x8a5c, 'icl_gt1_5'),
   (0x8a5d, 'icl_gt1'),
   (0x8a71, 'icl_gt0_5'),
]
