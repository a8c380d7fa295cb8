#!/usr/bin/env bash
# Build gpucheck for macOS: gpucheck.app (PyInstaller BUNDLE) and a drag-to-Applications .dmg.
#
#   packaging/macos/build-dmg.sh            # uses .venv/bin/python if present, else python3
#
# Needs: macOS with Xcode command line tools (iconutil, hdiutil, codesign), the build environment
# (pip install -e ".[build]"). Build on the architecture you ship (macos-14 runners: arm64).
# Output: dist/gpucheck.app and dist/gpucheck-<version>-macos-<arch>.dmg. Work files go to build/.
#
# Signing and notarization run only when their settings are present:
#   GPUCHECK_CODESIGN_IDENTITY  "Developer ID Application: Name (TEAMID)"  (PyInstaller signs every
#                               binary with it through the spec; the .app and .dmg are signed below)
#   GPUCHECK_NOTARY_PROFILE     a keychain profile made once with
#                               `xcrun notarytool store-credentials <profile> --apple-id … --team-id …`
# Without them the .app is ad-hoc signed (runs on the building Mac; on others users right-click → Open).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
if [ -z "${PYTHON:-}" ]; then
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
VERSION=$("$PYTHON" -c '
try:
    import tomllib
except ModuleNotFoundError:
    import tomli as tomllib
print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ARCH=$(uname -m)
DMG="dist/gpucheck-${VERSION}-macos-${ARCH}.dmg"
START=$(date +%s)

# 1. The icon: resources/icons/gpucheck.svg → .iconset (Qt) → .icns (iconutil). The spec picks up build/gpucheck.icns.
mkdir -p build dist
rm -rf build/gpucheck.iconset build/gpucheck.icns
"$PYTHON" packaging/make_icons.py iconset build/gpucheck.iconset
iconutil -c icns build/gpucheck.iconset -o build/gpucheck.icns

# 2. The .app (Info.plist with version, LSMinimumSystemVersion and icon is written by the spec's BUNDLE).
"$PYTHON" -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
  packaging/gpucheck.spec
APP=dist/gpucheck.app
"$APP/Contents/MacOS/gpucheck" --version >/dev/null  # the frozen app starts and finds its code
/usr/libexec/PlistBuddy -c "Print :LSMinimumSystemVersion" "$APP/Contents/Info.plist"

# 3. Code signing. Hardened runtime + secure timestamp are what notarization requires.
if [ -n "${GPUCHECK_CODESIGN_IDENTITY:-}" ]; then
  codesign --force --options runtime --timestamp \
    --entitlements packaging/macos/entitlements.plist \
    --sign "$GPUCHECK_CODESIGN_IDENTITY" "$APP"
  codesign --verify --deep --strict --verbose=2 "$APP"
else
  codesign --force --deep --sign - "$APP"  # ad-hoc: required on Apple silicon to run at all
fi

# 4. The disk image: the app and a link to /Applications to drag it onto.
STAGE=build/dmg
rm -rf "$STAGE" "$DMG"
mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
hdiutil create -volname "gpucheck $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"

# 5. Sign and notarize the .dmg, then staple the ticket so Gatekeeper accepts it offline.
if [ -n "${GPUCHECK_CODESIGN_IDENTITY:-}" ]; then
  codesign --force --timestamp --sign "$GPUCHECK_CODESIGN_IDENTITY" "$DMG"
  if [ -n "${GPUCHECK_NOTARY_PROFILE:-}" ]; then
    xcrun notarytool submit "$DMG" --keychain-profile "$GPUCHECK_NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
    spctl --assess --type open --context context:primary-signature --verbose "$DMG"
  fi
fi

END=$(date +%s)
echo "build-dmg: $DMG  $(du -h "$DMG" | cut -f1)B, app $(du -sh "$APP" | cut -f1)B"
echo "build-dmg: done in $((END - START)) s"
