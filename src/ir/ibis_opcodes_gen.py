#!/usr/bin/env python3
"""Renders one .mako template with the opcode table of ibis_opcodes.py."""
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibis_opcodes as t  # noqa: E402


def main():
    template, out = sys.argv[1], sys.argv[2]
    names = [o.name for o in t.OPCODES]
    if len(set(names)) != len(names):
        sys.exit('duplicate opcode name')
    text = Template(filename=os.path.abspath(template)).render(
        opcodes=t.OPCODES, latency_classes=t.LATENCY_CLASSES, kinds=t.KINDS)
    with open(out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
