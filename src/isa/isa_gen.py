#!/usr/bin/env python3
# Renders the Mako templates for the encoding tables:
#    isa_gen.py TABLES.py TEMPLATE.mako OUTPUT
import importlib.util
import os
import sys

from mako.template import Template

CPP_KEYWORDS = {'not', 'and', 'or', 'xor', 'if', 'else', 'while', 'break',
                'goto', 'return', 'switch', 'default'}


def ident(name):
   """A C++ identifier for a table name ('3src_x' -> 'tri_x', 'if' -> 'if_')."""
   name = name.replace(' ', '_').replace('/', '_')
   if name.startswith('3src_'):
      name = 'tri_' + name[5:]
   return name + '_' if name in CPP_KEYWORDS else name


def bits_width(ranges):
   return sum(hi - lo + 1 for hi, lo in ranges)


def main():
   tables_path, template_path, out_path = sys.argv[1:4]
   spec = importlib.util.spec_from_file_location('isa_tables', tables_path)
   tables = importlib.util.module_from_spec(spec)
   spec.loader.exec_module(tables)
   text = Template(filename=os.path.abspath(template_path)).render(
      t=tables, ident=ident, bits_width=bits_width)
   with open(out_path, 'w') as f:
      f.write(text)


if __name__ == '__main__':
   main()
