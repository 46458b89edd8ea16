#!/usr/bin/env bash
# The README's first command: install, build, and compile the bundled
# example shader through the whole pipeline, printing each width's outcome,
# its assembly and its stats line.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

scripts/install-deps.sh
# The compiler and ibis-compile alone: the test suite is run-tests.sh's.
build=$(IBIS_TARGETS=bin/ibis-compile scripts/build.sh "$@")
"$build/bin/ibis-compile" examples/shaders/vignette.fs.nir --dump asm,stats
