#!/usr/bin/env bash
# Debian/Ubuntu packages gpucheck needs to run (Qt's runtime libraries) and to test (Xvfb, poppler).
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
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
