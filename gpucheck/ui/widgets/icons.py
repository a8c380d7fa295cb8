"""The app's SVG icons (resources/icons), found through the one resource locator."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtGui

from gpucheck.resources import resource_path


def icon_path(name: str) -> Path:
    return resource_path("icons", f"{name}.svg")


def icon(name: str) -> QtGui.QIcon:
    p = icon_path(name)
    return QtGui.QIcon(str(p)) if p.is_file() else QtGui.QIcon()
