#!/usr/bin/env bash
# Debian/Ubuntu packages gpucheck needs to run (Qt's runtime libraries) and to test (Xvfb, poppler,
# Wine and Inno Setup for the Windows installer check).
# Usage: scripts/system-deps.sh [run|test]
# `test` includes what the slow installer tests need (Wine, Inno Setup, ~1.5 min on a fresh machine);
# GPUCHECK_NO_WINE=1 leaves those out (jobs that run only the fast tests).
set -euo pipefail
what=${1:-run}
wine_pkgs=()
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
  # (with their recommended packages: Wine's X11 libraries and fonts, as the check was proven with)
  if [ "${GPUCHECK_NO_WINE:-}" != 1 ]; then
    wine_pkgs=(wine wine64 wine32:i386)
    command -v npm >/dev/null || pkgs+=(npm)  # a runner's own Node.js (not from apt) is kept
  fi
fi
missing_of() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(missing_of "${pkgs[@]}")
mapfile -t missing_wine < <(missing_of "${wine_pkgs[@]}")
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing_wine[@]} -gt 0 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
  $SUDO dpkg --add-architecture i386
fi
# a mirror caught mid-sync fails one index ("File has unexpected size"): try again, then go on with the lists apt
# has; the install below still fails, saying which package, if one cannot be found
apt_update() {
  local try
  for try in 1 2 3; do
    $SUDO apt-get update -qq && return 0
    echo "system-deps: apt-get update failed (try $try of 3; a mirror may be syncing)" >&2
    [ "$try" -lt 3 ] && sleep $((try * 15))
  done
  echo "system-deps: going on with the package lists apt has" >&2
}
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_wine[@]} -gt 0 ]; then
  apt_update
fi
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ${#missing_wine[@]} -gt 0 ]; then
  $SUDO apt-get install -y -qq "${missing_wine[@]}"
fi
if [ "$what" = test ] && [ "${GPUCHECK_NO_WINE:-}" != 1 ]; then
  # Inno Setup's compiler, where check-installer.sh looks for it (as the user who runs the tests)
  cache=${GPUCHECK_ISCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucheck/innosetup-6.4.1}
  if [ ! -f "$cache/node_modules/innosetup/bin/ISCC.exe" ]; then
    mkdir -p "$cache"
    npm install --silent --no-audit --no-fund --prefix "$cache" innosetup@6.4.1 >/dev/null
  fi
fi
