#!/usr/bin/env bash
# Build gpucheck for Linux: the one-folder app (PyInstaller), a .deb and a .tar.gz.
#
#   packaging/linux/build-deb.sh            # uses .venv/bin/python if present, else python3
#   PYTHON=/path/to/python packaging/linux/build-deb.sh
#
# Needs: the build environment (pip install -e ".[build]"), dpkg-deb, ldd, objdump (binutils).
# Output (in dist/):
#   gpucheck/                               the one-folder app (run dist/gpucheck/gpucheck)
#   gpucheck_<version>_<arch>.deb           /usr/lib/gpucheck, /usr/bin/gpucheck, menu entry, icons
#   gpucheck-<version>-linux-<arch>.tar.gz  the same app as a folder to unpack anywhere
# Work files go to build/. Set GPUCHECK_SKIP_PYINSTALLER=1 to package an existing dist/gpucheck,
# DEB_COMPRESSION=zstd for a faster (bigger) .deb.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
if [ -z "${PYTHON:-}" ]; then
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
for tool in dpkg-deb dpkg ldd objdump; do
  command -v "$tool" >/dev/null || { echo "build-deb: '$tool' is missing (apt-get install dpkg-dev binutils)" >&2; exit 2; }
done

VERSION=$("$PYTHON" -c '
try:
    import tomllib
except ModuleNotFoundError:
    import tomli as tomllib
print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ARCH=$(dpkg --print-architecture)
# Debian versions may not contain '-' in the upstream part without a revision; PEP 440 has none.
DEB="dist/gpucheck_${VERSION}_${ARCH}.deb"
TGZ="dist/gpucheck-${VERSION}-linux-${ARCH}.tar.gz"
START=$(date +%s)

# 1. The one-folder app.
if [ "${GPUCHECK_SKIP_PYINSTALLER:-}" != 1 ]; then
  echo "build-deb: freezing gpucheck $VERSION with PyInstaller"
  "$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/gpucheck.spec
fi
APP=dist/gpucheck
[ -x "$APP/gpucheck" ] || { echo "build-deb: $APP/gpucheck was not built" >&2; exit 1; }
"$APP/gpucheck" --version >/dev/null  # the frozen app starts and finds its code

# 2. The package tree.
STAGE=build/deb/gpucheck_${VERSION}_${ARCH}
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/usr/lib" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
         "$STAGE/usr/share/icons/hicolor" "$STAGE/usr/share/doc/gpucheck"
cp -a "$APP" "$STAGE/usr/lib/gpucheck"
# The bootloader finds its folder through /proc/self/exe, so a symlink is enough.
ln -s ../lib/gpucheck/gpucheck "$STAGE/usr/bin/gpucheck"
install -m 644 packaging/linux/gpucheck.desktop "$STAGE/usr/share/applications/gpucheck.desktop"
"$PYTHON" packaging/make_icons.py hicolor "$STAGE/usr/share/icons/hicolor"
install -m 644 packaging/linux/copyright "$STAGE/usr/share/doc/gpucheck/copyright"
printf 'gpucheck (%s) stable; urgency=medium\n\n  * Release %s.\n\n -- gpucheck developers <gpucheck@users.noreply.github.com>  %s\n' \
  "$VERSION" "$VERSION" "$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")" \
  | gzip -9n > "$STAGE/usr/share/doc/gpucheck/changelog.gz"
find "$STAGE" -type d -exec chmod 755 {} +
find "$STAGE/usr/share" -type f -exec chmod 644 {} +
find "$STAGE/usr/lib/gpucheck" -type f -name '*.so*' -exec chmod 644 {} +  # libraries need no x bit

# 3. Depends: the libraries the bundle links to but does not carry, found with ldd on every ELF
#    file and mapped to their Debian packages. Each package must be in DECLARED (with its
#    alternatives for the 64-bit time_t renames in Ubuntu 24.04 / Debian 13).
DECLARED=(
  "libc6" "libstdc++6" "libgcc-s1" "zlib1g" "libbz2-1.0" "liblzma5" "libffi8" "libexpat1"
  "libssl3 | libssl3t64" "libglib2.0-0 | libglib2.0-0t64" "libdbus-1-3"
  "libfontconfig1" "libfreetype6" "libharfbuzz0b" "libpng16-16 | libpng16-16t64" "libzstd1"
  "libegl1" "libgl1" "libopengl0" "libx11-6" "libx11-xcb1" "libxext6" "libxrender1"
  "libxkbcommon0" "libxkbcommon-x11-0" "libxcb1" "libxcb-cursor0" "libxcb-glx0" "libxcb-icccm4"
  "libxcb-image0" "libxcb-keysyms1" "libxcb-randr0" "libxcb-render-util0" "libxcb-render0"
  "libxcb-shape0" "libxcb-shm0" "libxcb-sync1" "libxcb-xfixes0" "libxcb-xkb1" "libxcb-util1"
  "libwayland-client0" "libwayland-cursor0" "libwayland-egl1"
  # what some Python builds link their standard-library modules to (only those linked are declared)
  "libuuid1" "libmpdec3" "libsqlite3-0" "libreadline8 | libreadline8t64" "libncursesw6" "libtinfo6"
  "libcrypt1" "libnsl2" "libtirpc3 | libtirpc3t64" "libgdbm6 | libgdbm6t64"
)
declared_names=" $(printf '%s\n' "${DECLARED[@]}" | tr '|' '\n' | tr -d ' ' | tr '\n' ' ') "
missing_libs=()
undeclared=()
used=()
declare -A owner=()
# Only direct dependencies (DT_NEEDED) count: what those libraries need in turn is their packages' business.
while IFS= read -r -d '' f; do
  [ "$(head -c 4 "$f" | tr -d '\0')" = $'\x7fELF' ] || continue
  needed=" $(objdump -p "$f" 2>/dev/null | awk '$1 == "NEEDED" {print $2}' | tr '\n' ' ') "
  while read -r name arrow lib _; do
    [ "$arrow" = "=>" ] || continue
    [[ "$needed" == *" $name "* ]] || continue
    if [ "$lib" = not ]; then missing_libs+=("$name (needed by ${f#"$STAGE"/})"); continue; fi
    case "$(readlink -f "$lib")" in "$ROOT/$STAGE"/*) continue ;; esac
    if [ -z "${owner[$lib]+x}" ]; then
      # ldd may name /lib/… where the package lists /usr/lib/… (merged /usr), or a symlink
      pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "/usr${lib#/usr}" 2>/dev/null \
            || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true)
      owner[$lib]=${pkg%%:*}
    fi
    pkg=${owner[$lib]}
    if [ -z "$pkg" ]; then undeclared+=("$lib (no Debian package owns it)"); continue; fi
    used+=("$pkg")
    [[ "$declared_names" == *" $pkg "* ]] || undeclared+=("$pkg (for $lib)")
  done < <(ldd "$f" 2>/dev/null)
done < <(find "$STAGE/usr/lib/gpucheck" -type f \( -name '*.so*' -o -perm -u+x \) -print0)
if [ ${#missing_libs[@]} -gt 0 ]; then
  echo "build-deb: libraries the bundle needs are not installed on this build machine, so Depends cannot be checked:" >&2
  printf '  %s\n' "${missing_libs[@]}" | sort -u >&2
  echo "  (scripts/system-deps.sh test installs them)" >&2
  exit 1
fi
if [ ${#undeclared[@]} -gt 0 ]; then
  echo "build-deb: the bundle links to libraries whose packages are not in DECLARED (packaging/linux/build-deb.sh):" >&2
  printf '  %s\n' "${undeclared[@]}" | sort -u >&2
  exit 1
fi
# Only declare what is used (a package that is declared but not linked is dropped), keeping alternatives.
used_names=" $(printf '%s\n' "${used[@]}" | sort -u | tr '\n' ' ') "
depends=()
for d in "${DECLARED[@]}"; do
  first=${d%% |*}
  [[ "$used_names" == *" $first "* ]] || { alt=${d#*| }; [[ "$d" == *"|"* && "$used_names" == *" $alt "* ]] || continue; }
  depends+=("$d")
done
# glibc: the newest symbol version any binary needs.
GLIBC=$(find "$STAGE/usr/lib/gpucheck" -type f \( -name '*.so*' -o -perm -u+x \) -exec objdump -T {} + 2>/dev/null \
        | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
for i in "${!depends[@]}"; do
  [ "${depends[$i]}" = libc6 ] && depends[$i]="libc6 (>= $GLIBC)"
done
DEPENDS=$(printf '%s, ' "${depends[@]}"); DEPENDS=${DEPENDS%, }

INSTALLED_KB=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
cat > "$STAGE/DEBIAN/control" <<EOF
Package: gpucheck
Version: $VERSION
Architecture: $ARCH
Maintainer: gpucheck developers <gpucheck@users.noreply.github.com>
Installed-Size: $INSTALLED_KB
Depends: $DEPENDS
Section: utils
Priority: optional
Homepage: https://github.com/gpucheck/gpucheck
Description: can my PC train this AI model?
 gpucheck scans your hardware (GPU, CPU, memory, disks, power, software) and
 tells you which AI training jobs fit, how long they take, which settings make
 a job fit, and the cheapest upgrade or cloud option when it does not.
 .
 Start it from the menu, or run 'gpucheck scan' in a terminal.
EOF

# 4. Build the .deb (files owned by root whoever builds it) and the tarball.
mkdir -p dist
rm -f "$DEB" "$TGZ"
# xz: the smallest download, readable by every dpkg. DEB_COMPRESSION=zstd (dpkg >= 1.21.18, i.e. Debian 12,
# Ubuntu 22.04) is ~20x faster to build and ~25 % bigger; the test suite uses it to stay quick.
case "${DEB_COMPRESSION:-xz}" in
  xz) dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null ;;
  zstd) dpkg-deb --root-owner-group -Zzstd -z9 --build "$STAGE" "$DEB" >/dev/null ;;
  *) echo "build-deb: DEB_COMPRESSION must be xz or zstd" >&2; exit 2 ;;
esac
TARDIR=build/tar/gpucheck-$VERSION
rm -rf build/tar && mkdir -p "$TARDIR"
cp -a "$APP/." "$TARDIR/"
install -m 644 packaging/linux/gpucheck.desktop "$TARDIR/gpucheck.desktop"
cp "$STAGE/usr/share/icons/hicolor/256x256/apps/gpucheck.png" "$TARDIR/gpucheck.png"
printf 'gpucheck %s for Linux (%s)\n\nRun ./gpucheck (the desktop app) or ./gpucheck scan (in a terminal).\nThe system libraries it needs (Debian/Ubuntu package names):\n  %s\n' \
  "$VERSION" "$ARCH" "$DEPENDS" > "$TARDIR/README.txt"
tar -C build/tar -czf "$TGZ" "gpucheck-$VERSION"

END=$(date +%s)
echo "build-deb: $DEB  $(du -h "$DEB" | cut -f1)B, installed $((INSTALLED_KB / 1024)) MiB"
echo "build-deb: $TGZ  $(du -h "$TGZ" | cut -f1)B"
echo "build-deb: Depends: $DEPENDS"
echo "build-deb: done in $((END - START)) s"
