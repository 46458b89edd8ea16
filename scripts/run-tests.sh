#!/usr/bin/env bash
# The README's test command: install, build, run the whole suite, and print
# "N passed, N failed" as the last line.  Exits non-zero if anything failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

scripts/install-deps.sh
build=$(scripts/build.sh "$@")

rm -rf "$build/test-results"
mkdir -p "$build/test-results"
status=0
/usr/bin/meson test -C "$build" --num-processes "${IBIS_JOBS:-2}" --print-errorlogs \
   >"$build/test-results/meson-test.log" 2>&1 || status=$?
tail -n 25 "$build/test-results/meson-test.log"
/usr/bin/python3 scripts/summarize-tests.py "$build" || status=1
exit $status
