"""VRAM a job needs vs VRAM you have: a bar with a marker at your VRAM and the figures as text (placed
beside the marker, with a halo, so the marker never makes them unreadable)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPalette, QPen
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

    # -- layout: the bar, the "you have" marker, and where the caption goes --------------------------
    def bar_rect(self) -> QRectF:
        bar_h = QFontMetrics(self.font()).height() + 6
        return QRectF(1, (self.height() - bar_h) / 2, self.width() - 2, bar_h)

    def _scale(self) -> int:
        return max(self.need_bytes or 0, self.have_bytes or 0) or 1

    def marker_x(self) -> float | None:
        """Where the "you have" line is drawn (None: nothing to mark)."""
        if not self.have_bytes:
            return None
        r = self.bar_rect()
        return r.left() + r.width() * min(self.have_bytes / self._scale(), 1.0) - 1

    def text_rect(self) -> QRectF:
        """Where the caption goes: beside the marker (left of it if it fits there, else right of it), so
        the line never cuts through the figures; only when neither side has room does it cross the
        caption, which then has a halo."""
        r = self.bar_rect().adjusted(6, 0, -6, 0)
        tw = QFontMetrics(self.font()).horizontalAdvance(self.caption()) + 2
        x = self.marker_x()
        gap = 6
        if x is not None:
            if x - gap - r.left() >= tw:
                return QRectF(r.left(), r.top(), tw, r.height())
            if r.right() - (x + gap) >= tw:
                return QRectF(x + gap, r.top(), tw, r.height())
        return r

    def text_band(self) -> tuple[float, float]:
        """Top and bottom of the caption's glyphs (y)."""
        fm = QFontMetrics(self.font())
        t = self.text_rect()
        baseline = t.top() + (t.height() + fm.ascent() - fm.descent()) / 2
        return baseline - fm.ascent(), baseline + fm.descent()

    def marker_spans(self) -> list[tuple[float, float]]:
        """The vertical pieces of the marker line: the whole height beside the caption; above and below
        the caption's glyphs (notches at the bar's edges) when it has to cross it."""
        x = self.marker_x()
        if x is None:
            return []
        r, t = self.bar_rect(), self.text_rect()
        top, bottom = r.top() - 3, r.bottom() + 3
        if not (t.left() - 2 <= x <= t.right() + 2):
            return [(top, bottom)]
        band_top, band_bottom = self.text_band()
        return [(top, band_top - 1), (band_bottom + 1, bottom)]

    def paintEvent(self, _event):
        pal = self.palette()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(self.font())
        r = self.bar_rect()
        p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRoundedRect(r, 4, 4)
        need = self.need_bytes or 0
        colour = theme.verdict_colour("runs" if self.fits() else "does_not_fit", pal)
        fill = QColor(colour)
        fill.setAlpha(170)
        w = r.width() * min(need / self._scale(), 1.0)
        if w > 0:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawRoundedRect(QRectF(r.left(), r.top(), w, r.height()), 4, 4)
        x = self.marker_x()
        p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        for y0, y1 in self.marker_spans():  # drawn first: the caption goes over it
            p.drawLine(QPointF(x, y0), QPointF(x, y1))
        tr_ = self.text_rect()
        text = fm.elidedText(self.caption(), Qt.TextElideMode.ElideRight, int(tr_.width()))
        path = QPainterPath()
        path.addText(tr_.left(), self.text_band()[0] + fm.ascent(), self.font(), text)
        halo = QColor(pal.color(QPalette.ColorRole.Base))
        halo.setAlpha(220)
        p.strokePath(path, QPen(halo, 3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.fillPath(path, pal.color(QPalette.ColorRole.Text))
        p.end()
