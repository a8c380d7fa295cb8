"""VRAM a job needs vs VRAM you have: a bar with a marker at your VRAM and the figures as text."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpucheck.i18n import fmt_gib, tr
from gpucheck.ui.widgets import theme


class VramBar(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.need_bytes: int | None = None
        self.have_bytes: int | None = None
        self.ram = False  # True: the job runs on the CPU, the bar is system RAM
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_values(self, need_bytes: int | None, have_bytes: int | None, ram: bool = False) -> None:
        self.need_bytes, self.have_bytes, self.ram = need_bytes, have_bytes, ram
        self.setToolTip(self.caption())
        self.setAccessibleName(self.caption())
        self.update()

    def caption(self) -> str:
        if self.ram:
            return tr("needs {need} of {have} RAM (on the CPU)", need=fmt_gib(self.need_bytes),
                      have=fmt_gib(self.have_bytes))
        if self.have_bytes is None:
            return tr("needs {need} · no GPU memory found", need=fmt_gib(self.need_bytes))
        return tr("needs {need} of {have}", need=fmt_gib(self.need_bytes), have=fmt_gib(self.have_bytes))

    def fits(self) -> bool:
        return (self.need_bytes is not None and self.have_bytes is not None
                and self.need_bytes <= self.have_bytes)

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(self.caption()) + 16, fm.height() + 14)

    def minimumSizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance("0" * 12), fm.height() + 14)

    def paintEvent(self, _event):
        pal = self.palette()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(self.font())
        bar_h = fm.height() + 6
        r = QRectF(1, (self.height() - bar_h) / 2, self.width() - 2, bar_h)
        p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRoundedRect(r, 4, 4)
        need, have = self.need_bytes or 0, self.have_bytes
        scale = max(need, have or 0) or 1
        colour = theme.verdict_colour("runs" if self.fits() else "does_not_fit", pal)
        fill = QColor(colour)
        fill.setAlpha(170)
        w = r.width() * min(need / scale, 1.0)
        if w > 0:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawRoundedRect(QRectF(r.left(), r.top(), w, r.height()), 4, 4)
        if have:
            x = r.left() + r.width() * min(have / scale, 1.0)
            p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 2))
            p.drawLine(int(x) - 1, int(r.top()) - 2, int(x) - 1, int(r.bottom()) + 2)
        p.setPen(pal.color(QPalette.ColorRole.Text))
        text = fm.elidedText(self.caption(), Qt.TextElideMode.ElideRight, int(r.width()) - 8)
        p.drawText(r.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        p.end()
