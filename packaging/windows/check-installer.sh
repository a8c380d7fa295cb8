#!/usr/bin/env bash
# The Windows installer, proven as far as Linux allows: compile packaging/windows/gpucheck.iss with Inno
# Setup's own compiler (ISCC.exe 6.4.1, from the npm package "innosetup") under Wine, run the setup
# silently, check what it installed (files, Start-menu shortcut, "Apps & features" uninstall entry,
# the Chinese messages), run the uninstaller, check that nothing is left. Prints one summary line.
#
#   packaging/windows/check-installer.sh [--keep]      exit 0: every check passed; 1: one failed; 2: cannot run here
#
# The payload is the frozen Windows app when dist/gpucheck holds one (build.ps1 makes it), else a
# stand-in of the same layout: gpucheck.exe, gpucheck-gui.exe, _internal/resources (with the font's
# licence), the dist-info; the setup adds LICENSE.txt itself.
# Needs (Debian: scripts/system-deps.sh test): wine with wine64 and wine32 (the setup is 32-bit, the app
# 64-bit), xvfb-run, and npm the first time (the compiler is cached in $GPUCHECK_ISCC_CACHE, default
# ~/.cache/gpucheck/innosetup-6.4.1). $ISCC may name another ISCC.exe; $PYTHON (default .venv/bin/python)
# draws the setup's icon with packaging/make_icons.py.
# Wine 8 lacks the per-user Program Files known folder, so the setup is compiled with
# /DInstallRoot={localappdata}\Programs /DProgramsFolder={userprograms}: the folders a per-user install
# gets on Windows, spelt out (gpucheck.iss keeps {autopf} and {autoprograms} for real Windows).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ISS="$ROOT/packaging/windows/gpucheck.iss"
INNO_VERSION=6.4.1
ISCC_SHA256=3a34c0beaf8c9c66774c1c1286a504db403e97e1b2fba691b3ba865dbce7edb2  # ISCC.exe in innosetup@6.4.1
KEEP=0
[ "${1:-}" = "--keep" ] && KEEP=1

say() { echo "check-installer: $*"; }
cannot() { say "CANNOT RUN: $*"; exit 2; }
T0=${GPUCHECK_CHECK_INSTALLER_T0:-$(date +%s)}

# -- tools ------------------------------------------------------------------------------------------------
for tool in wine wineserver winepath xvfb-run; do
  command -v "$tool" >/dev/null || cannot "$tool is not installed (scripts/system-deps.sh test)"
done
command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ] || cannot "wine64 is not installed (the setup installs a 64-bit app)"

if [ -z "${ISCC:-}" ]; then
  CACHE=${GPUCHECK_ISCC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucheck/innosetup-$INNO_VERSION}
  ISCC="$CACHE/node_modules/innosetup/bin/ISCC.exe"
  if [ ! -f "$ISCC" ]; then
    command -v npm >/dev/null || cannot "npm is needed once to fetch Inno Setup (npm install innosetup@$INNO_VERSION)"
    mkdir -p "$CACHE"
    npm install --silent --no-audit --no-fund --prefix "$CACHE" "innosetup@$INNO_VERSION" >/dev/null \
      || cannot "npm install innosetup@$INNO_VERSION failed"
  fi
  echo "$ISCC_SHA256  $ISCC" | sha256sum --check --status || cannot "$ISCC is not the ISCC.exe of Inno Setup $INNO_VERSION"
fi
[ -f "$ISCC" ] || cannot "no ISCC.exe at $ISCC"

PYTHON=${PYTHON:-}
if [ -z "$PYTHON" ]; then
  if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
VERSION=$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$ROOT/pyproject.toml" | head -1)
[ -n "$VERSION" ] || cannot "no version in pyproject.toml"
APP_ID=$(sed -n 's/^AppId={\({[^}]*}\)}*$/\1/p' "$ISS" | head -1)  # AppId={{GUID} → {GUID}
[ -n "$APP_ID" ] || cannot "no AppId in $ISS"
UNINSTALL_KEY="HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\${APP_ID}_is1"

# -- a private X server, Wine prefix and home (nothing outside $WORK is touched) ---------------------------
if [ -z "${GPUCHECK_CHECK_INSTALLER_XVFB:-}" ]; then
  export GPUCHECK_CHECK_INSTALLER_XVFB=1 GPUCHECK_CHECK_INSTALLER_T0=$T0 ISCC PYTHON
  exec xvfb-run -a -s "-screen 0 1024x768x24" "$0" "$@"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpucheck-check-installer.XXXXXX")
export WINEPREFIX="$WORK/prefix" WINEARCH=win64 WINEDEBUG=-all HOME="$WORK/home"
# no Mono/Gecko download prompts, no menu entries or file associations written into the Linux desktop
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
mkdir -p "$HOME" "$WORK/out"
finish() {
  wineserver -k >/dev/null 2>&1 || true
  if [ "$KEEP" = 1 ]; then echo "check-installer: kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap finish EXIT
LOGS=()
fail() {
  say "FAILED: $*"
  for f in "${LOGS[@]}"; do [ -f "$f" ] && { echo "--- $f" >&2; tail -n 25 "$f" >&2; }; done
  exit 1
}
w() { wine "$@" 2>>"$WORK/wine.log"; }  # a Windows program; its exit status, Wine's noise in wine.log
LOGS+=("$WORK/wine.log")

# -- the payload ------------------------------------------------------------------------------------------
if [ -f "$ROOT/dist/gpucheck/gpucheck.exe" ] && [ -f "$ROOT/dist/gpucheck/gpucheck-gui.exe" ]; then
  PAYLOAD="$ROOT/dist/gpucheck"
  KIND="frozen app"
else
  PAYLOAD="$WORK/payload"
  KIND="stand-in payload"
  mkdir -p "$PAYLOAD/_internal/gpucheck-$VERSION.dist-info"
  printf 'MZ gpucheck stand-in (not a program)\r\n' > "$PAYLOAD/gpucheck.exe"
  printf 'MZ gpucheck-gui stand-in (not a program)\r\n' > "$PAYLOAD/gpucheck-gui.exe"
  cp -R "$ROOT/resources" "$PAYLOAD/_internal/resources"
  find "$PAYLOAD/_internal/resources" -name __pycache__ -prune -exec rm -rf {} +
  printf 'Metadata-Version: 2.1\nName: gpucheck\nVersion: %s\n' "$VERSION" \
    > "$PAYLOAD/_internal/gpucheck-$VERSION.dist-info/METADATA"
fi
ICON="$WORK/gpucheck.ico"
QT_QPA_PLATFORM=offscreen "$PYTHON" "$ROOT/packaging/make_icons.py" ico "$ICON" >"$WORK/icon.log" 2>&1 \
  || { LOGS+=("$WORK/icon.log"); fail "could not draw the icon with $PYTHON packaging/make_icons.py"; }

# -- a Windows 10 prefix ----------------------------------------------------------------------------------
wineboot --init >>"$WORK/wine.log" 2>&1 || fail "wineboot could not create a Wine prefix"
w winecfg -v win10 || fail "winecfg -v win10 failed"  # a new prefix says Windows 7; the setup needs 10
wineserver -w
winpath() { winepath -w "$1" 2>>"$WORK/wine.log"; }

# -- compile ----------------------------------------------------------------------------------------------
T_COMPILE=$(date +%s)
wine "$ISCC" /Q "/DAppVersion=$VERSION" "/DAppDir=$(winpath "$PAYLOAD")" "/DSetupIcon=$(winpath "$ICON")" \
  '/DInstallRoot={localappdata}\Programs' '/DProgramsFolder={userprograms}' \
  "/O$(winpath "$WORK/out")" "$(winpath "$ISS")" >"$WORK/iscc.log" 2>&1 \
  || { LOGS+=("$WORK/iscc.log"); fail "ISCC could not compile gpucheck.iss"; }
COMPILE_S=$(( $(date +%s) - T_COMPILE ))
SETUP="$WORK/out/gpucheck-setup-$VERSION.exe"
[ -f "$SETUP" ] || fail "ISCC made no $(basename "$SETUP")"
SETUP_MIB=$(awk -v b="$(stat -c %s "$SETUP")" 'BEGIN { printf "%.1f", b / 1048576 }')

# -- install silently, in Chinese (which proves the Chinese messages are in the setup) --------------------
T_INSTALL=$(date +%s)
w "$SETUP" /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /LANG=zh_CN "/LOG=$(winpath "$WORK/install.log")" \
  || { LOGS+=("$WORK/install.log"); fail "the setup exited with an error"; }
wineserver -w
LOGS+=("$WORK/install.log")
LOCALAPPDATA=$(winepath -u "$(w cmd /c echo %LOCALAPPDATA% | tr -d '\r')")
APPDATA=$(winepath -u "$(w cmd /c echo %APPDATA% | tr -d '\r')")
APP="${LOCALAPPDATA%/}/Programs/gpucheck"
LNK="${APPDATA%/}/Microsoft/Windows/Start Menu/Programs/gpucheck.lnk"

[ -d "$APP" ] || fail "nothing was installed in %LOCALAPPDATA%\\Programs\\gpucheck"
# every file of the payload, byte for byte, and nothing else but the uninstaller and the licence
DIFF=$(diff -r -q "$PAYLOAD" "$APP" | grep -v -E "^Only in $APP: (unins000\.exe|unins000\.dat|LICENSE\.txt)$" || true)
[ -z "$DIFF" ] || fail "the installed files differ from the payload: $(echo "$DIFF" | head -5)"
for f in unins000.exe unins000.dat LICENSE.txt; do [ -f "$APP/$f" ] || fail "$f was not installed"; done
cmp -s "$ROOT/LICENSE" "$APP/LICENSE.txt" || fail "LICENSE.txt is not the project's licence"
FILES=$(find "$APP" -type f | wc -l)

[ -f "$LNK" ] || fail "no Start-menu shortcut (gpucheck.lnk in the user's Start menu)"
"$PYTHON" - "$LNK" <<'EOF' || fail "the Start-menu shortcut does not open gpucheck-gui.exe"
import sys
data = open(sys.argv[1], "rb").read()
sys.exit(0 if b"gpucheck-gui.exe" in data or "gpucheck-gui.exe".encode("utf-16-le") in data else 1)
EOF

reg_value() {  # reg_value NAME → the value's data in the uninstall entry, empty if absent
  w reg query "$UNINSTALL_KEY" /v "$1" | tr -d '\r' | sed -n "s/^ *$1 *REG_[A-Z_]* *//p"
}
[ "$(reg_value DisplayName)" = "gpucheck $VERSION" ] || fail "no uninstall entry 'gpucheck $VERSION' under $UNINSTALL_KEY"
case "$(reg_value UninstallString)" in
  *'\gpucheck\unins000.exe"') ;;
  *) fail "the uninstall entry does not run gpucheck\\unins000.exe" ;;
esac
[ "$(reg_value 'Inno Setup: Language')" = zh_CN ] || fail "the setup has no Simplified Chinese messages (/LANG=zh_CN was not used)"
INSTALL_S=$(( $(date +%s) - T_INSTALL ))

# -- uninstall --------------------------------------------------------------------------------------------
w "$(winpath "$APP/unins000.exe")" /VERYSILENT /SUPPRESSMSGBOXES "/LOG=$(winpath "$WORK/uninstall.log")" \
  || { LOGS+=("$WORK/uninstall.log"); fail "the uninstaller exited with an error"; }
wineserver -w  # the uninstaller runs a copy of itself from %TEMP% and returns at once
LOGS+=("$WORK/uninstall.log")
[ ! -e "$APP" ] || fail "files are left after uninstalling: $(find "$APP" | head -5 | tr '\n' ' ')"
[ ! -e "$LNK" ] || fail "the Start-menu shortcut is left after uninstalling"
if w reg query "$UNINSTALL_KEY" >/dev/null; then fail "the uninstall entry is left after uninstalling"; fi

say "OK: gpucheck-setup-$VERSION.exe ($KIND, $SETUP_MIB MiB) compiled by ISCC $INNO_VERSION under $(wine --version) in ${COMPILE_S} s;" \
  "silent install (zh_CN): $FILES files, Start-menu shortcut, uninstall entry 'gpucheck $VERSION' in ${INSTALL_S} s;" \
  "uninstalled, nothing left; $(( $(date +%s) - T0 )) s in all"
