#!/usr/bin/env bash
# Installs what ibis needs from Debian 12 packages.  Idempotent and
# non-interactive: it only calls apt-get when something is missing.
set -euo pipefail

# valgrind: callgrind counts for `ninja -C build bench`.
packages=(meson ninja-build g++ pkg-config python3 python3-mako libgtest-dev libdrm-dev valgrind)

missing=()
for p in "${packages[@]}"; do
   if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
   fi
done

if [ ${#missing[@]} -eq 0 ]; then
   exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
   sudo="sudo"
fi
echo "ibis: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
