#!/usr/bin/env bash
# CI's driver check: builds Mesa's iris with ibis (scripts/mesa-driver.sh
# build; cold, or only what changed when the cache is warm), runs a sample
# of the dev corpus's shader_tests through it with brw and with ibis, and
# checks that every file drew with both, nothing crashed, ibis fell back
# nowhere, ibis's lines through the driver equal ibis-shaderdb's on the
# NIR the driver handed it, and the backend compile times (--times) have
# one well-formed line per compiled variant and pair up in ibis-report.  The last line is "N passed, N failed,
# N skipped".
#
#    scripts/mesa-check.sh [--all] [SHADER_DB_DIR]
#
# The sample is one game (glamor) and every 10th shader_test of the rest;
# --all runs every file (the bench does).  Without shared data the checks
# report themselves skipped.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
all=0
[ "${1:-}" = --all ] && { all=1; shift; }
shaders=${1:-$top/../shared/shader-db/shaders}
checks=(build brw-drawn brw-no-crash ibis-drawn ibis-no-crash ibis-no-fallback consistency
        times)

if [ ! -d "$shaders" ]; then
   echo "mesa-check: $shaders not found: skipped"
   echo "0 passed, 0 failed, ${#checks[@]} skipped"
   exit 0
fi

out=${IBIS_MESA_CHECK_DIR:-$top/build-mesa-check}
rm -rf "$out"
mkdir -p "$out/sample"
# The sample as a tree of links, so that names stay GAME/NAME.
(cd "$shaders" && find . -name '*.shader_test' | LC_ALL=C sort | sed 's#^\./##') |
   awk -v all=$all '$0 ~ /^glamor\// || all || NR % 10 == 1' |
   while read -r f; do
      mkdir -p "$out/sample/$(dirname "$f")"
      ln -s "$shaders/$f" "$out/sample/$f"
   done
files=$(find "$out/sample" "$top/mesa/tests" -name "*.shader_test" | wc -l)

passed=0 failed=0
result() {
   if [ "$2" = 0 ]; then
      echo "PASS: $1"
      passed=$((passed + 1))
   else
      echo "FAIL: $1${3:+: $3}"
      failed=$((failed + 1))
   fi
}
finish() {
   echo "$passed passed, $failed failed, 0 skipped"
   [ "$failed" = 0 ]
   exit
}

t0=$SECONDS
"$top/scripts/mesa-driver.sh" build
status=$?
result build $status "scripts/mesa-driver.sh build"
echo "mesa-check: driver build took $((SECONDS - t0)) s"
if [ $status != 0 ]; then
   for c in "${checks[@]:1}"; do result "$c" 1 "no driver"; done
   finish
fi

count() { grep -c "$1" "$2" || true; }

t0=$SECONDS
"$top/scripts/mesa-driver.sh" run --times "$out/brw.times" -o "$out/brw.txt" "$out/sample" "$top/mesa/tests"
echo "mesa-check: brw: $((SECONDS - t0)) s"
t0=$SECONDS
"$top/scripts/mesa-driver.sh" run --ibis --dump "$out/dump" --times "$out/ibis.times" \
   -o "$out/ibis.txt" "$out/sample" "$top/mesa/tests"
echo "mesa-check: ibis: $((SECONDS - t0)) s"

for side in brw ibis; do
   drawn=$(count ' drawn$' "$out/$side.txt.status")
   crashed=$(count ' crashed ' "$out/$side.txt.status")
   result "$side-drawn" $([ "$drawn" = "$files" ] && echo 0 || echo 1) \
      "$drawn of $files drawn: $(grep -v ' drawn$' "$out/$side.txt.status" | head -n 3 | tr '\n' ';')"
   result "$side-no-crash" $([ "$crashed" = 0 ] && echo 0 || echo 1) "$crashed crashed"
done
fallbacks=$(count 'fallback' "$out/ibis.txt")
result ibis-no-fallback $([ "$fallbacks" = 0 ] && echo 0 || echo 1) \
   "$fallbacks: $(grep 'fallback' "$out/ibis.txt" | head -n 3 | tr '\n' ';')"
"$top/scripts/mesa-driver.sh" consistency "$out/dump" | tail -n 8
result consistency "${PIPESTATUS[0]}"

# Times: one line per variant each side compiled, matching the log; and
# every variant of brw's paired with ibis's by name, stage, source and key.
times_status=0
for side in brw ibis; do
   "$top/scripts/mesa-driver.sh" check-times "$out/$side.txt" "$out/$side.times" $side ||
      times_status=1
done
ninja -C "$top/build-mesa-ibis" -j2 bin/ibis-report >/dev/null &&
   "$top/build-mesa-ibis/bin/ibis-report" --times "$out/brw.times" "$out/ibis.times" \
      > "$out/times.txt" 2>&1 || times_status=1
head -n 12 "$out/times.txt"
grep -q '^paired: [1-9][0-9]* variants (brw alone 0, ' "$out/times.txt" || times_status=1
result times $times_status "check-times or ibis-report --times (see above)"

ninja -C "$top/build-mesa-ibis" -j2 bin/ibis-report >/dev/null &&
   "$top/build-mesa-ibis/bin/ibis-report" "$out/brw.txt" "$out/ibis.txt" 2>&1 | head -n 40 || true
finish
