#!/usr/bin/env python3
"""Renders the NIR opcode templates.

Usage: nir_gen.py TEMPLATE OUTPUT [TEMPLATE OUTPUT ...]

Each template sees the tables of nir_opcodes.py (OPS), nir_intrinsics.py
(INTRINSICS, INDICES), nir_tex.py (TEX_OPS, TEX_SRCS, ...) and nir_names.py
(enum value names).
"""

import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import nir_intrinsics  # noqa: E402
import nir_names  # noqa: E402
import nir_opcodes  # noqa: E402
import nir_tex  # noqa: E402


def main(argv):
    if len(argv) < 3 or len(argv) % 2 != 1:
        sys.exit("usage: nir_gen.py TEMPLATE OUTPUT [TEMPLATE OUTPUT ...]")
    env = {
        "ops": nir_opcodes,
        "intr": nir_intrinsics,
        "tex": nir_tex,
        "names": nir_names,
    }
    for template, output in zip(argv[1::2], argv[2::2]):
        with open(template) as f:
            text = Template(f.read()).render(**env)
        with open(output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv)
