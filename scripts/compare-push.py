#!/usr/bin/env python3
"""Compares ibis's default push layout with brw's choice on the corpus.

brw's programs do not state their push constants, but in a SIMD8 fragment
shader every `pln` reads setup data, which brw places right after the push
constants: the lowest GRF a `pln` reads is where brw's setup data starts.
ibis's is its SIMD8 dispatch GRF start plus its push registers
(`ibis-compile --layout`, which needs no code).  Equal starts mean the same payload plus push
size.

For VS only a heuristic exists: brw's push constants end at the highest
GRF the program reads as a scalar (`<0,1,0>`) before anything writes it;
attributes read as scalars make it overestimate.

   scripts/compare-push.py BUILD/bin/ibis-compile CORPUS_DIR
"""
import collections
import os
import re
import subprocess
import sys


def main():
    compiler, corpus = sys.argv[1], sys.argv[2]
    asm_dir = os.path.join(corpus, 'brw-asm')
    tally = collections.Counter()
    diffs = []
    for root, _, files in sorted(os.walk(corpus)):
        if root.startswith(asm_dir):
            continue
        for name in sorted(files):
            if not name.endswith('.fs.nir'):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, corpus)
            asm = os.path.join(asm_dir, rel[:-4] + '.simd8.asm')
            if not os.path.exists(asm):
                continue
            regs = [int(m.group(1)) for m in re.finditer(
                r'^pln\(8\)\s+\S+\s+g(\d+)(?:\.\d+)?<0,1,0>', open(asm).read(), re.M)]
            if not regs:
                continue
            out = subprocess.run([compiler, path, '--layout'], capture_output=True,
                                 text=True)
            fields = dict(l.split(' ', 1) for l in out.stdout.splitlines()
                          if l.startswith('prog_data.'))
            if out.returncode != 0 or 'prog_data.push_regs' not in fields:
                tally['ibis failed'] += 1
                continue
            start = int(fields['prog_data.dispatch_grf_start'].split()[0])
            ours = start + int(fields['prog_data.push_regs'])
            brw = min(regs)
            tally['equal' if ours == brw else 'ibis later' if ours > brw else 'ibis earlier'] += 1
            if ours != brw:
                diffs.append((rel, ours, brw))
    print('FS SIMD8 setup-data start GRF, ibis default vs brw:', dict(tally))
    for rel, ours, brw in diffs[:20]:
        print('  %s: ibis g%d, brw g%d' % (rel, ours, brw))
    vs_tally = collections.Counter()
    for root, _, files in sorted(os.walk(corpus)):
        if root.startswith(asm_dir):
            continue
        for name in sorted(files):
            if not name.endswith('.vs.nir'):
                continue
            path = os.path.join(root, name)
            asm = os.path.join(asm_dir, os.path.relpath(path, corpus)[:-4] + '.simd8.asm')
            if not os.path.exists(asm):
                continue
            written, scalars = set(), set()
            for line in open(asm):
                m = re.match(r'^\s*(?:\(\S+\)\s*)?[a-z.]+\(\d+\)\s+(\S+)\s+(.*)$', line)
                if not m:
                    continue
                for r in re.finditer(r'g(\d+)(?:\.\d+)?<0,1,0>', m.group(2)):
                    if int(r.group(1)) not in written:
                        scalars.add(int(r.group(1)))
                d = re.match(r'-?g(\d+)', m.group(1))
                if d:
                    written.add(int(d.group(1)))
            out = subprocess.run([compiler, path, '--layout'], capture_output=True, text=True)
            fields = dict(l.split(' ', 1) for l in out.stdout.splitlines()
                          if l.startswith('prog_data.'))
            if out.returncode != 0 or 'prog_data.push_regs' not in fields:
                vs_tally['ibis failed'] += 1
                continue
            start = int(fields['prog_data.dispatch_grf_start'].split()[0])
            ours = start + int(fields['prog_data.push_regs'])
            brw = max(scalars) + 1 if scalars else start
            vs_tally['equal' if ours == brw else 'ibis later' if ours > brw else 'ibis earlier'] += 1
    print('VS push end GRF (heuristic), ibis default vs brw:', dict(vs_tally))


if __name__ == '__main__':
    main()
