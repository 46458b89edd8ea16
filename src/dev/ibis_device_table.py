#!/usr/bin/env python3
"""Renders ibis_device_table.cpp.mako with the table in ibis_devices.py."""
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibis_devices as t  # noqa: E402


def main():
    template, out = sys.argv[1], sys.argv[2]
    index = {d.name: i for i, d in enumerate(t.DEVICES)}
    for pid, name in t.PCI_IDS:
        if name not in index:
            sys.exit('PCI id 0x%04x names unknown device %s' % (pid, name))
    text = Template(filename=os.path.abspath(template)).render(
        devices=t.DEVICES, defaults=t.DEFAULT_FOR_PLATFORM,
        device_index=index, pci_ids=t.PCI_IDS)
    with open(out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
