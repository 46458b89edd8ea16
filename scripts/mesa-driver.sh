#!/usr/bin/env bash
# ibis inside Mesa: builds Mesa 25.0.7's iris driver (with Intel's tools
# and the noop drm-shim) linked with this tree's libibis.a, and runs
# shader_tests through it.
#
#    scripts/mesa-driver.sh build
#    scripts/mesa-driver.sh run [--ibis [--dump DIR]] [--times FILE] [-j N] -o LOG PATH...
#    scripts/mesa-driver.sh times [-r ROUNDS] -o DIR PATH...
#    scripts/mesa-driver.sh check-times LOG TIMES brw|ibis
#    scripts/mesa-driver.sh consistency DIR
#    scripts/mesa-driver.sh env        # the run environment, for a shell
#
# build: installs what it needs from Debian's archive (the archive this
# machine's apt already uses), gets Mesa's source package, applies
# mesa/intel-ibis.patch with ibis's glue (mesa/brw_ibis.*), builds libibis.a
# and the driver.  Everything lives in a cache outside the clone
# (IBIS_MESA_CACHE, default ~/.cache/ibis-mesa), keyed by Mesa's version
# and the hook's content, so a second build only rebuilds what changed.
#
# run: every .shader_test below the paths, one process per file, through
# the driver on the drm-shim (Skylake): brw, or ibis with --ibis
# (INTEL_IBIS=all).  LOG gets one line per compiled variant,
# "<file below PATH without .shader_test> - FS SIMD16 shader: ...", ibis's
# fallbacks ("... - FS ibis fallback to brw: reason") and crashes
# ("... - CRASH: signal N").  LOG.status gets one line per file: drawn,
# failed (with the runner's message) or crashed.  Exit status non-zero only
# when the run could not happen.  --dump DIR keeps, per shader ibis
# compiled, the NIR and ABI the driver handed it and the lines it logged
# (brw_ibis.cpp's INTEL_IBIS_DUMP).  --times FILE writes, per compiled
# variant, "<file> STAGE BACKEND MICROSECONDS LIBIBIS_MICROSECONDS
# SOURCE_HASH KEY_HASH WIDTHS NIR_NAME": the backend's thread CPU time
# (brw_ibis.h's INTEL_IBIS_TIMES).
#
# times: the compile time of record: ROUNDS (default 2) times brw then
# ibis, one file at a time (-j 1), and `ibis-report --times` on each pair;
# DIR gets brw-R.txt/.times, ibis-R.txt/.times and report-R.txt.
#
# check-times: holds a --times file to its run log: every line well formed
# and of the run's backend, and per file and stage one width per program
# line the log has (the driver's own blorp shaders log none).  Exit status
# 1 otherwise.
#
# consistency: compiles a --dump directory with ibis-shaderdb (which reads
# X.abi beside X.nir) and compares its lines with the driver's, variant by
# variant.  Exit status 1 when a line differs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

mesa_version=25.0.7
mesa_package=mesa=25.0.7-2~bpo12+1
cache=${IBIS_MESA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ibis-mesa}
vdir=$cache/$mesa_version
src=$vdir/src
bld=$vdir/build
prefix=$vdir/ibis-prefix
jobs=${IBIS_JOBS:-2}
# Debian's meson and python3-mako: a python3 earlier on PATH may lack mako.
export PATH=/usr/bin:/bin:$PATH

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

log() { echo "mesa-driver: $*" >&2; }

# Mesa 25.0 needs meson >= 1.1 (bookworm-backports has 1.7; its package is
# unpacked into the cache rather than replacing the system's meson, which
# ibis's own build uses) and, for iris's internal shaders, LLVM/clang 15.
packages=(bison flex libexpat1-dev libzstd-dev zlib1g-dev libelf-dev
          python3-mako python3-ply python3-yaml python3-packaging
          llvm-15-dev libclang-15-dev libclang-cpp15-dev libclc-15 libclc-15-dev
          libllvmspirvlib-15-dev spirv-tools libdrm-dev libglvnd-core-dev
          libglvnd-dev libegl-dev libopengl-dev libgl-dev libegl1 libopengl0
          xz-utils pkg-config ninja-build gcc g++)

setup_apt() {
   local list=/etc/apt/sources.list.d/ibis-mesa.sources
   if [ ! -f "$list" ]; then
      local uri
      uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
      [ -n "$uri" ] || { log "no URIs: line in /etc/apt/sources.list.d/debian.sources"; exit 1; }
      log "adding bookworm-backports and source stanzas for $uri"
      $sudo tee "$list" >/dev/null <<EOF
Types: deb deb-src
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $uri
Suites: bookworm bookworm-updates trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
      $sudo apt-get update -qq
   fi
   local missing=()
   for p in "${packages[@]}"; do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
         missing+=("$p")
   done
   if [ ${#missing[@]} -gt 0 ]; then
      log "installing ${missing[*]}"
      $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
         --no-install-recommends "${missing[@]}" >/dev/null
   fi
}

meson17() {
   PYTHONPATH="$cache/meson-1.7/usr/lib/python3/dist-packages" \
      /usr/bin/python3 "$cache/meson-1.7/usr/bin/meson" "$@"
}

# Mesa's build.ninja regenerates itself with meson 1.7's script, which
# finds its modules through PYTHONPATH.
mesa_ninja() {
   PYTHONPATH="$cache/meson-1.7/usr/lib/python3/dist-packages" ninja -C "$bld" "$@"
}

get_meson() {
   [ -x "$cache/meson-1.7/usr/bin/meson" ] && return
   mkdir -p "$cache/dl"
   (cd "$cache/dl" && apt-get download -q meson/bookworm-backports >/dev/null 2>&1)
   local deb
   deb=$(ls "$cache"/dl/meson_1.*bpo12*_all.deb | tail -n 1)
   dpkg -x "$deb" "$cache/meson-1.7"
}

get_source() {
   [ -f "$src/meson.build" ] && return
   mkdir -p "$cache/dl" "$vdir"
   local tarball=$cache/dl/mesa_$mesa_version.orig.tar.xz
   if [ ! -f "$tarball" ]; then
      log "fetching the source of $mesa_package"
      # The backport's .dsc may be missing from the archive; the upstream
      # tarball is all the build needs.
      (cd "$cache/dl" && apt-get source -q --download-only --tar-only "$mesa_package" >/dev/null 2>&1) ||
         (cd "$cache/dl" && apt-get source -q --download-only --tar-only "mesa=$mesa_version-2" >/dev/null 2>&1) || true
      [ -f "$tarball" ] || { log "could not download $tarball"; exit 1; }
   fi
   rm -rf "$src.tmp"
   mkdir -p "$src.tmp"
   tar -C "$src.tmp" --strip-components=1 -xf "$tarball"
   mv "$src.tmp" "$src"
}

hook_hash() {
   cat "$top/mesa/intel-ibis.patch" "$top/mesa/brw_ibis.h" "$top/mesa/brw_ibis.cpp" |
      sha256sum | cut -c1-16
}

# Applies the hook; a changed hook replaces the one applied before.  Files
# are copied only when they differ, so ninja rebuilds just what changed.
apply_hook() {
   local want have=""
   want=$(hook_hash)
   [ -f "$vdir/hook.applied" ] && have=$(cat "$vdir/hook.hash" 2>/dev/null || true)
   if [ "$want" != "$have" ]; then
      if [ -f "$vdir/hook.applied" ]; then
         patch -s -R -p1 -d "$src" < "$vdir/hook.applied"
         rm -f "$vdir/hook.applied"
      fi
      patch -s -p1 -d "$src" < "$top/mesa/intel-ibis.patch"
      cp "$top/mesa/intel-ibis.patch" "$vdir/hook.applied"
      echo "$want" > "$vdir/hook.hash"
   fi
   for f in brw_ibis.h brw_ibis.cpp; do
      cmp -s "$top/mesa/$f" "$src/src/intel/compiler/$f" ||
         cp "$top/mesa/$f" "$src/src/intel/compiler/$f"
   done
}

# libibis.a from this tree, installed where Mesa's pkg-config finds it.
build_ibis() {
   local b=$top/build-mesa-ibis
   "$top/scripts/install-deps.sh"
   if [ ! -f "$b/build.ninja" ]; then
      /usr/bin/meson setup "$b" "$top" --buildtype=release --prefix="$prefix" \
         --libdir=lib -Dlibdrm=disabled >/dev/null
   elif ! grep -qF "$prefix" "$b/meson-info/intro-installed.json" 2>/dev/null; then
      /usr/bin/meson configure "$b" --prefix="$prefix" >/dev/null
   fi
   ninja -C "$b" -j"$jobs" src/compiler/libibis.a >/dev/null
   /usr/bin/meson install -C "$b" --no-rebuild --quiet >/dev/null
}

mesa_options=(-Dbuildtype=release -Db_ndebug=true -Dgallium-drivers=iris
   -Dvulkan-drivers= -Dtools=drm-shim,intel -Dglvnd=enabled -Dllvm=enabled
   -Dshared-llvm=enabled -Ddraw-use-llvm=false -Dplatforms= -Dglx=disabled
   -Degl=enabled -Dgbm=enabled -Dgles1=disabled -Dgles2=enabled
   -Dbuild-tests=false -Dvalgrind=disabled -Dintel-rt=disabled
   -Dgallium-va=disabled -Dgallium-vdpau=disabled -Dgallium-xa=disabled
   -Dvideo-codecs= -Dlmsensors=disabled -Dlibunwind=disabled
   -Dintel-ibis=enabled)

build_mesa() {
   if [ ! -f "$bld/build.ninja" ]; then
      meson17 setup "$bld" "$src" "${mesa_options[@]}" \
         -Dpkg_config_path="$prefix/lib/pkgconfig" >"$vdir/setup.log" 2>&1 ||
         { tail -n 20 "$vdir/setup.log" >&2; exit 1; }
      touch "$vdir/configured-ibis"
   elif [ ! -f "$vdir/configured-ibis" ]; then
      # A build configured before the hook's option existed.
      mesa_ninja build.ninja >/dev/null
      meson17 configure "$bld" -Dintel-ibis=enabled \
         -Dpkg_config_path="$prefix/lib/pkgconfig" >"$vdir/setup.log" 2>&1 ||
         { tail -n 20 "$vdir/setup.log" >&2; exit 1; }
      touch "$vdir/configured-ibis"
   fi
   mesa_ninja -j"$jobs" >"$vdir/ninja.log" 2>&1 ||
      { tail -n 30 "$vdir/ninja.log" >&2; exit 1; }
}

build_runner() {
   local out=$vdir/ibis-shader-runner
   if [ ! -x "$out" ] || [ "$top/mesa/runner/ibis-shader-runner.c" -nt "$out" ]; then
      gcc -O2 -Wall -o "$out" "$top/mesa/runner/ibis-shader-runner.c" -lEGL -lOpenGL
   fi
}

cmd_build() {
   local t0=$SECONDS
   setup_apt
   get_meson
   get_source
   apply_hook
   build_ibis
   build_mesa
   build_runner
   log "driver built in $((SECONDS - t0)) s ($bld)"
}

run_env() {
   cat <<EOF
LD_PRELOAD=$bld/src/intel/tools/libintel_noop_drm_shim.so
INTEL_STUB_GPU_PLATFORM=skl
MESA_LOADER_DRIVER_OVERRIDE=iris
MESA_SHADER_CACHE_DISABLE=true
GALLIUM_THREAD=0
allow_glsl_extension_directive_midshader=true
LD_LIBRARY_PATH=$bld/src/egl:$bld/src/gbm:$bld/src/gallium/targets/dri
GBM_BACKENDS_PATH=$bld/src/gbm/backends/dri
__EGL_VENDOR_LIBRARY_FILENAMES=$bld/src/egl/50_mesa.json
EOF
}

# One file: its shader-db lines on stdout, its status on fd 3.
run_one() {
   local file=$1 name=$2 out status
   out=$(mktemp)
   if [ -n "${dump_dir:-}" ]; then
      mkdir -p "$(dirname "$dump_dir/$name")"
      export INTEL_IBIS_DUMP=$dump_dir/$name
   fi
   if [ -n "${times_file:-}" ]; then
      export INTEL_IBIS_TIMES=$out.times
   fi
   set +e
   "$vdir/ibis-shader-runner" --name "$name" "$file" >"$out" 2>"$out.err"
   status=$?
   set -e
   # The file's name before each line, one write a line: runs share FILE.
   if [ -n "${times_file:-}" ] && [ -f "$out.times" ]; then
      local line
      while IFS= read -r line; do
         printf '%s %s\n' "$name" "$line" >>"$times_file"
      done <"$out.times"
      rm -f "$out.times"
   fi
   grep -v ' - drawn$' "$out" || true
   if [ "$status" -ge 128 ]; then
      echo "$name - CRASH: signal $((status - 128))"
      echo "$name crashed signal $((status - 128))" >&3
   elif grep -q ' - drawn$' "$out"; then
      echo "$name drawn" >&3
   else
      echo "$name failed $(grep -v '^Unknown' "$out.err" | head -c 300 | tr '\n' ' ')" >&3
   fi
   rm -f "$out" "$out.err"
}

cmd_run() {
   local ibis=0 n=$jobs logf="" paths=()
   dump_dir="" times_file=""
   while [ $# -gt 0 ]; do
      case $1 in
      --ibis) ibis=1 ;;
      --dump) dump_dir=$(mkdir -p "$2" && cd "$2" && pwd); shift ;;
      --times) times_file=$(mkdir -p "$(dirname "$2")" && cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
      -j) n=$2; shift ;;
      -j*) n=${1#-j} ;;
      -o) logf=$2; shift ;;
      *) paths+=("$1") ;;
      esac
      shift
   done
   [ -n "$logf" ] && [ ${#paths[@]} -gt 0 ] ||
      { echo "usage: $0 run [--ibis [--dump DIR]] [--times FILE] [-j N] -o LOG PATH..." >&2; exit 2; }
   [ -x "$vdir/ibis-shader-runner" ] && [ -f "$bld/src/egl/50_mesa.json" ] ||
      { log "the driver is not built: run '$0 build' first"; exit 1; }

   set -a
   eval "$(run_env)"
   set +a
   if [ "$ibis" = 1 ]; then export INTEL_IBIS=all; else unset INTEL_IBIS; fi
   export -f run_one
   export vdir dump_dir times_file
   [ -z "$times_file" ] || : > "$times_file"

   local list
   list=$(mktemp)
   for p in "${paths[@]}"; do
      p=${p%/}
      if [ -f "$p" ]; then
         printf '%s\t%s\n' "$p" "$(basename "${p%.shader_test}")"
      else
         find "$p" -name '*.shader_test' | LC_ALL=C sort | while read -r f; do
            local rel=${f#"$p"/}
            printf '%s\t%s\n' "$f" "${rel%.shader_test}"
         done
      fi
   done > "$list"
   : > "$logf.status"
   local t0=$SECONDS
   # shellcheck disable=SC2016
   tr '\t\n' '\0\0' < "$list" | xargs -0 -n 2 -P "$n" bash -c 'run_one "$1" "$2" 3>>"'"$logf"'.status"' _ \
      > "$logf.unsorted"
   LC_ALL=C sort -s -k1,1 "$logf.unsorted" > "$logf"
   rm -f "$logf.unsorted" "$list"
   local total drawn failed crashed fallbacks
   total=$(wc -l < "$logf.status")
   drawn=$(grep -c ' drawn$' "$logf.status" || true)
   failed=$(grep -c ' failed ' "$logf.status" || true)
   crashed=$(grep -c ' crashed ' "$logf.status" || true)
   fallbacks=$(grep -c 'fallback' "$logf" || true)
   log "$total shader_tests in $((SECONDS - t0)) s: $drawn drawn, $failed failed, $crashed crashed; $(grep -c ' shader: ' "$logf" || true) variants, $fallbacks fallbacks ($([ "$ibis" = 1 ] && echo ibis || echo brw))"
}

# ibis-report from the tree's release tools build.
ibis_report() {
   local b=${IBIS_TOOLS_BUILD:-$top/build-mesa-ibis}
   ninja -C "$b" -j"$jobs" bin/ibis-report >/dev/null
   "$b/bin/ibis-report" "$@"
}

cmd_times() {
   local rounds=2 dir="" paths=() r
   while [ $# -gt 0 ]; do
      case $1 in
      -r) rounds=$2; shift ;;
      -o) dir=$2; shift ;;
      *) paths+=("$1") ;;
      esac
      shift
   done
   [ -n "$dir" ] && [ ${#paths[@]} -gt 0 ] ||
      { echo "usage: $0 times [-r ROUNDS] -o DIR PATH..." >&2; exit 2; }
   mkdir -p "$dir"
   # Alternated, as the machine's speed drifts: each pair is compared.
   for r in $(seq 1 "$rounds"); do
      cmd_run -j 1 --times "$dir/brw-$r.times" -o "$dir/brw-$r.txt" "${paths[@]}"
      cmd_run --ibis -j 1 --times "$dir/ibis-$r.times" -o "$dir/ibis-$r.txt" "${paths[@]}"
   done
   for r in $(seq 1 "$rounds"); do
      cmd_check_times "$dir/brw-$r.txt" "$dir/brw-$r.times" brw
      cmd_check_times "$dir/ibis-$r.txt" "$dir/ibis-$r.times" ibis
      ibis_report --times "$dir/brw-$r.times" "$dir/ibis-$r.times" > "$dir/report-$r.txt"
      echo "== round $r =="
      cat "$dir/report-$r.txt"
   done
}

cmd_check_times() {
   local logf=${1:?usage} times=${2:?usage} side=${3:?usage: $0 check-times LOG TIMES brw|ibis}
   /usr/bin/python3 - "$logf" "$times" "$side" <<'PY'
import collections, re, sys
logf, times, side = sys.argv[1:]
line_re = re.compile(r'^(.+) (VS|FS|CS) (brw|ibis|ibis-fallback) ([0-9]+) ([0-9]+) '
                     r'([0-9a-f]{8}) ([0-9a-f]{16}) (-|(?:8|16|32)(?:,(?:16|32))*) (\S+)$')
backends = {'brw': {'brw'}, 'ibis': {'ibis', 'ibis-fallback'}}[side]
bad = []
widths = collections.Counter()
lines = 0
for n, line in enumerate(open(times), 1):
    lines += 1
    m = line_re.match(line.rstrip('\n'))
    if not m:
        bad.append('%s:%d: malformed: %s' % (times, n, line.rstrip()))
        continue
    name, stage, backend, us, lib_us, _, _, w, nir_name = m.groups()
    if backend not in backends:
        bad.append('%s:%d: backend %s in a %s run' % (times, n, backend, side))
    # A backend compile takes some CPU, and less than a minute.
    if not 0 < int(us) < 60000000:
        bad.append('%s:%d: %s us' % (times, n, us))
    # libibis's part: none in brw's compile, some of ibis's (a fallback
    # may have declined before calling libibis).
    if ((backend == 'brw' and int(lib_us) != 0) or
            (backend == 'ibis' and int(lib_us) == 0) or int(lib_us) > int(us)):
        bad.append('%s:%d: %s us in libibis of %s us (%s)' % (times, n, lib_us, us, backend))
    # The driver's own shaders (blorp's) log nowhere.
    if w != '-' and not nir_name.startswith('BLORP-'):
        widths[(name, stage)] += len(w.split(','))
programs = collections.Counter()
prog_re = re.compile(r'^(.+) - (VS|FS|CS) SIMD[0-9]+ shader: ')
for line in open(logf, errors='replace'):
    m = prog_re.match(line)
    if m:
        programs[(m.group(1), m.group(2))] += 1
for k in sorted(set(widths) | set(programs)):
    if widths[k] != programs[k]:
        bad.append('%s %s: %d widths timed, %d programs logged'
                   % (k[0], k[1], widths[k], programs[k]))
for b in bad[:10]:
    print('check-times: ' + b)
print('check-times: %s: %d lines, %d widths, %d programs logged, %d problems'
      % (times, lines, sum(widths.values()), sum(programs.values()), len(bad)))
sys.exit(1 if bad or not lines else 0)
PY
}

cmd_consistency() {
   local dir=${1:?usage: $0 consistency DIR} b=${IBIS_TOOLS_BUILD:-$top/build-mesa-ibis}
   ninja -C "$b" -j"$jobs" bin/ibis-shaderdb >/dev/null
   "$b/bin/ibis-shaderdb" "$dir" -j "$jobs" -o "$dir/ibis-shaderdb.txt" >/dev/null 2>&1 || true
   /usr/bin/python3 - "$dir" <<'PY'
import os, sys
d = sys.argv[1]
tool = {}
for line in open(os.path.join(d, 'ibis-shaderdb.txt'), errors='replace'):
    name, _, msg = line.rstrip('\n').partition(' - ')
    tool.setdefault(name, []).append(msg)
compared = equal = 0
for root, _, files in os.walk(d):
    for f in sorted(files):
        if not f.endswith('.stats'):
            continue
        rel = os.path.relpath(os.path.join(root, f), d)[:-len('.stats')] + '.nir'
        driver = [l.rstrip('\n') for l in open(os.path.join(root, f)) if l.strip()]
        mine = tool.get(rel, [])
        for i, line in enumerate(driver):
            compared += 1
            if i < len(mine) and mine[i] == line:
                equal += 1
            else:
                print('differs: %s\n  driver:       %s\n  ibis-shaderdb: %s'
                      % (rel, line, mine[i] if i < len(mine) else '(none)'))
print('consistency: %d lines compared, %d equal' % (compared, equal))
sys.exit(0 if compared == equal else 1)
PY
}

case ${1:-} in
build) shift; cmd_build "$@" ;;
run) shift; cmd_run "$@" ;;
times) shift; cmd_times "$@" ;;
check-times) shift; cmd_check_times "$@" ;;
consistency) shift; cmd_consistency "$@" ;;
env) run_env ;;
*) echo "usage: $0 build | run [--ibis [--dump DIR]] [--times FILE] [-j N] -o LOG PATH... | times [-r ROUNDS] -o DIR PATH... | check-times LOG TIMES brw|ibis | consistency DIR | env" >&2; exit 2 ;;
esac
