#!/usr/bin/env bash
# Configures (once) and builds ibis in BUILD_DIR (default: build).
# IBIS_SANITIZE=1 builds with AddressSanitizer and UBSan instead, in
# build-sanitize.  Extra arguments go to meson setup.  IBIS_TARGETS names
# the ninja targets to build (default: all of them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ "${IBIS_SANITIZE:-0}" = 1 ]; then
   build=${BUILD_DIR:-build-sanitize}
   set -- -Db_sanitize=address,undefined -Db_lundef=false "$@"
else
   build=${BUILD_DIR:-build}
fi

# Debian's meson runs under /usr/bin/python3, which is where python3-mako is.
meson=/usr/bin/meson
[ -x "$meson" ] || meson=meson

if [ ! -f "$build/build.ninja" ]; then
   "$meson" setup "$build" "$@" >&2
fi
# shellcheck disable=SC2086
ninja -C "$build" -j"${IBIS_JOBS:-2}" ${IBIS_TARGETS:-} >&2
echo "$build"
