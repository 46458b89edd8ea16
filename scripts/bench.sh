#!/usr/bin/env bash
# `ninja -C build bench` (meson benchmark 'compile'): compile time over the
# whole corpus with ibis-shaderdb --times (one worker, so per-shader times
# do not share a core), then the instructions executed (valgrind's
# callgrind) compiling every 10th shader with ibis-compile.  Not part of
# the test suite.
#    scripts/bench.sh BIN_DIR CORPUS_DIR
set -euo pipefail
bin=$1
corpus=$2
if [ ! -d "$corpus" ]; then
   echo "bench: $corpus not found (meson -Dshared_dir)"
   exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== compile time, every shader, all widths (ibis-shaderdb -j 1 --times)"
"$bin/ibis-shaderdb" "$corpus" -j 1 --times -o "$tmp/stats.txt" 2>&1 | grep -v ': FAIL: ' || true
echo "   ($(wc -l < "$tmp/stats.txt") programs; failures: see ibis-shaderdb's own run)"

echo
if ! command -v valgrind >/dev/null; then
   echo "== callgrind: valgrind is not installed (scripts/install-deps.sh installs it)"
   exit 0
fi
echo "== instructions executed compiling every 10th shader (callgrind, ibis-compile)"
find "$corpus" -name '*.nir' | LC_ALL=C sort | awk 'NR % 10 == 1' > "$tmp/sample"
total=0
n=0
while read -r f; do
   valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
      "$bin/ibis-compile" "$f" > /dev/null 2>&1 || true
   ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out" 2>/dev/null || echo 0)
   total=$((total + ${ir:-0}))
   echo "${ir:-0} ${f#"$corpus"/}" >> "$tmp/ir"
   n=$((n + 1))
   rm -f "$tmp/cg.out"
done < "$tmp/sample"
echo "   $n shaders: $total instructions in all, $((total / (n > 0 ? n : 1))) per shader"
if [ -s "$tmp/ir" ]; then
   sort -n "$tmp/ir" | awk '{ v[NR] = $1; name[NR] = $2 }
      END { printf "   median %d, slowest %d (%s)\n", v[int((NR + 1) / 2)], v[NR], name[NR] }'
fi
