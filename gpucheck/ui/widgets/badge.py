"""A rounded, coloured label: a job's verdict or a part's status. Sizes itself to its text."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRectF, QSize, Qt

from gpucheck.ui.widgets import theme


class Badge(QtWidgets.QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._text = ""
        self._kind = "verdict"
        self._key = ""
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Fixed, QtWidgets.QSizePolicy.Policy.Fixed)
        f = self.font()
        f.setBold(True)
        self.setFont(f)

    def set_verdict(self, verdict: str, text: str | None = None) -> None:
        """The verdict's colour, with its label (or `text`: "Does not fit here — measured")."""
        self._kind, self._key = "verdict", verdict
        self._text = text or theme.verdict_label(verdict)
        self.setAccessibleName(self._text)
        self.setToolTip(self._text)
        self.updateGeometry()
        self.update()

    def set_status(self, status: str) -> None:
        self._kind, self._key = "status", status
        self._text = theme.status_label(status)
        self.setAccessibleName(self._text)
        self.updateGeometry()
        self.update()

    def key(self) -> str:
        return self._key

    def text(self) -> str:
        return self._text

    def sizeHint(self) -> QSize:
        fm = QtGui.QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(self._text) + fm.height(), int(fm.height() * 1.5))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, _event):
        pal = self.palette()
        colour = (theme.verdict_colour(self._key, pal) if self._kind == "verdict"
                  else theme.status_colour(self._key, pal))
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        radius = r.height() / 2
        p.drawRoundedRect(r, radius, radius)
        p.setPen(theme.badge_text_colour(self.palette()))
        p.setFont(self.font())
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, self._text)
        p.end()
