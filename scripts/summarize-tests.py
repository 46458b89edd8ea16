#!/usr/bin/env python3
"""Counts GoogleTest results over a build's test run.

Every test binary writes gtest XML into BUILD/test-results/.  A meson test
that failed without writing XML (a crash, a sanitizer report before gtest
could write) counts as one failure, so nothing that broke goes unseen.
Prints failing test names, then "N passed, N failed, N skipped".
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    results = os.path.join(build, 'test-results')
    passed = failed = skipped = 0
    failures = []
    binaries_with_xml = set()
    if os.path.isdir(results):
        for name in sorted(os.listdir(results)):
            if not name.endswith('.xml'):
                continue
            binaries_with_xml.add(name[:-4])
            try:
                root = ET.parse(os.path.join(results, name)).getroot()
            except ET.ParseError:
                failed += 1
                failures.append(name + ' (unreadable XML)')
                continue
            for case in root.iter('testcase'):
                full = '%s.%s' % (case.get('classname'), case.get('name'))
                if case.find('failure') is not None or case.find('error') is not None:
                    failed += 1
                    failures.append(full)
                elif case.get('result') == 'skipped' or case.get('status') == 'notrun' \
                        or case.find('skipped') is not None:
                    skipped += 1
                else:
                    passed += 1

    log = os.path.join(build, 'meson-logs', 'testlog.json')
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                try:
                    t = json.loads(line)
                except ValueError:
                    continue
                if t.get('result') in ('OK', 'SKIP', 'EXPECTEDFAIL'):
                    continue
                cmd = t.get('command') or ['']
                exe = os.path.basename(cmd[0])
                # A failing binary with XML already counted its failed cases;
                # one that died without XML counts once here.
                if exe not in binaries_with_xml or t.get('result') in ('TIMEOUT', 'ERROR'):
                    failed += 1
                    failures.append('%s (%s)' % (t.get('name'), t.get('result')))

    for f in failures:
        print('FAILED: ' + f)
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed or passed == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
