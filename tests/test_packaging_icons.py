"""The app icon the installers ship, rendered from resources/icons/gpucheck.svg: every size a menu,
taskbar or Finder asks for exists, is sharp at its size and has a transparent background."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "packaging" / "make_icons.py"

QtGui = pytest.importorskip("PySide6.QtGui")


def _make(kind: str, out: Path) -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), kind, str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def _image(data: bytes):
    img = QtGui.QImage()
    assert img.loadFromData(data, "PNG")
    return img


def test_linux_menu_icons_in_every_hicolor_size(tmp_path):
    _make("hicolor", tmp_path)
    for n in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        img = _image((tmp_path / f"{n}x{n}" / "apps" / "gpucheck.png").read_bytes())
        assert (img.width(), img.height()) == (n, n)
        assert img.hasAlphaChannel() and img.pixelColor(0, 0).alpha() == 0  # corner is see-through
        assert any(img.pixelColor(x, n // 2).alpha() == 255 for x in range(n))  # and the icon is drawn
    assert (tmp_path / "scalable" / "apps" / "gpucheck.svg").read_bytes() == \
        (ROOT / "resources" / "icons" / "gpucheck.svg").read_bytes()


def test_windows_ico_holds_each_size_windows_asks_for(tmp_path):
    ico = tmp_path / "gpucheck.ico"
    _make("ico", ico)
    data = ico.read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind) == (0, 1) and count == 7
    sizes = []
    for i in range(count):
        w, h, _, _, planes, bpp, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        img = _image(data[offset:offset + length])
        side = w or 256  # 0 means 256
        assert w == h and (img.width(), img.height()) == (side, side)
        assert (planes, bpp) == (1, 32)
        sizes.append(side)
    assert sizes == [16, 24, 32, 48, 64, 128, 256]


def test_macos_iconset_has_the_names_iconutil_needs(tmp_path):
    out = tmp_path / "gpucheck.iconset"
    _make("iconset", out)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"icon_{n}x{n}{s}.png" for n in (16, 32, 128, 256, 512) for s in ("", "@2x"))
    assert _image((out / "icon_512x512@2x.png").read_bytes()).width() == 1024
