"""Wrapped text labels. A module of its own, without the badges and colours of part_card.py, so that the
first page (Welcome) loads only what it shows (start-up speed, docs/performance.md)."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import Qt


def wrap_label(text: str = "", parent=None, selectable: bool = False) -> QtWidgets.QLabel:
    lab = QtWidgets.QLabel(text, parent)
    lab.setWordWrap(True)
    lab.setTextFormat(Qt.TextFormat.PlainText)
    sp = QtWidgets.QSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Minimum)
    sp.setHeightForWidth(True)  # the height follows the width it is given (wrapped lines)
    lab.setSizePolicy(sp)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab
