#!/usr/bin/env bash
# Debian/Ubuntu packages gpucheck needs to run (Qt's runtime libraries) and to test (Xvfb, poppler,
# Wine and Inno Setup for the Windows installer check).
# Usage: scripts/system-deps.sh [run|test]
set -euo pipefail
what=${1:-run}
pkgs=(python3 python3-venv python3-pip libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1
      libdbus-1-3 libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
      libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xinerama0 libxcb-xkb1 fonts-dejavu-core)
if [ "$what" = test ]; then
  pkgs+=(xvfb poppler-utils dpkg-dev binutils)
  # installer test (tests/test_packaging.py): xvfb-run needs xauth; the .deb's Wayland libraries
  # must be present for packaging/linux/build-deb.sh to check its Depends with ldd
  pkgs+=(xauth libwayland-client0 libwayland-cursor0)
  # Windows installer check (packaging/windows/check-installer.sh): Wine runs Inno Setup's compiler and
  # the 32-bit setup (wine32, i386) that installs the 64-bit app (wine64); npm fetches Inno Setup
  pkgs+=(wine wine64 wine32:i386)
  command -v npm >/dev/null || pkgs+=(npm)  # a runner's own Node.js (not from apt) is kept
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${missing[*]} " == *":i386 "* ]] && ! dpkg --print-foreign-architectures | grep -qx i386; then
    $SUDO dpkg --add-architecture i386
  fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ "$what" = test ]; then
  # Inno Setup's compiler, where check-installer.sh looks for it (as the user who runs the tests)
  cache=${GPUCHECK_ISCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucheck/innosetup-6.4.1}
  if [ ! -f "$cache/node_modules/innosetup/bin/ISCC.exe" ]; then
    mkdir -p "$cache"
    npm install --silent --no-audit --no-fund --prefix "$cache" innosetup@6.4.1 >/dev/null
  fi
fi
