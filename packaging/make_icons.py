"""Render the app icon (resources/icons/gpucheck.svg) into the formats each installer needs, with Qt.

    python packaging/make_icons.py hicolor OUT_DIR   # OUT_DIR/<N>x<N>/apps/gpucheck.png + scalable/apps/gpucheck.svg
    python packaging/make_icons.py ico OUT.ico        # Windows: 16…256 px in one .ico (PNG entries)
    python packaging/make_icons.py iconset OUT.iconset  # macOS: input for `iconutil -c icns`

Runs with the build environment's PySide6 on the offscreen platform (no display needed).
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "gpucheck.svg"
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICONSET = {  # file name in a macOS .iconset → pixel size
    "icon_16x16.png": 16, "icon_16x16@2x.png": 32, "icon_32x32.png": 32, "icon_32x32@2x.png": 64,
    "icon_128x128.png": 128, "icon_128x128@2x.png": 256, "icon_256x256.png": 256,
    "icon_256x256@2x.png": 512, "icon_512x512.png": 512, "icon_512x512@2x.png": 1024,
}


def _app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication([sys.argv[0]])


def render_png(size: int) -> bytes:
    """The icon at size×size pixels, transparent background, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app()
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {SVG} is not a valid SVG")
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(p)
    p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    return bytes(data)


def write_hicolor(out: Path) -> None:
    for n in HICOLOR_SIZES:
        d = out / f"{n}x{n}" / "apps"
        d.mkdir(parents=True, exist_ok=True)
        (d / "gpucheck.png").write_bytes(render_png(n))
    d = out / "scalable" / "apps"
    d.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, d / "gpucheck.svg")


def write_ico(out: Path) -> None:
    """An .ico whose entries are PNG images (supported since Windows Vista)."""
    pngs = [(n, render_png(n)) for n in ICO_SIZES]
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for n, png in pngs:
        dim = 0 if n >= 256 else n  # 0 means 256 in the ICO directory
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(header + entries + blobs)


def write_iconset(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, n in ICONSET.items():
        (out / name).write_bytes(render_png(n))


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("hicolor", "ico", "iconset"):
        print(__doc__, file=sys.stderr)
        return 2
    if not SVG.is_file():
        print(f"make_icons: the app icon {SVG} is missing", file=sys.stderr)
        return 2
    out = Path(argv[1])
    {"hicolor": write_hicolor, "ico": write_ico, "iconset": write_iconset}[argv[0]](out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
