#!/usr/bin/env bash
# The README's first command: install, build, and compile the bundled
# example shader, printing every stage the pipeline has so far.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

scripts/install-deps.sh
build=$(scripts/build.sh "$@")
"$build/bin/ibis-compile" examples/shaders/vignette.fs.nir --dump nir,ir
