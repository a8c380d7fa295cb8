"""Memory a job needs vs memory there is: a thin bar with a marker where the memory ends, and the figures
as text on their own line below it (so the marker never crosses them).

Fed with a gpucheck.report.figures.JobFigures, the bar and its caption describe the same settings as the
time beside it: filled up to the need the verdict refers to (with the changes), a pale outline up to the
need as configured, and "19.3 → 11.4 GB of 11.7 GB" below. RAM when RAM is the memory that counts.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpucheck.i18n import fmt_gib, tr
from gpucheck.report.figures import JobFigures, need_caption, status_verdict
from gpucheck.ui.widgets import theme


class VramBar(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.figures: JobFigures | None = None
        self.need_bytes: int | None = None  # what the bar is filled to (the need the verdict refers to)
        self.before_bytes: int | None = None  # the need as configured, when the changes lower it
        self.have_bytes: int | None = None
        self.ram = False  # True: the bar is system RAM
        self.selected = False  # on a selected table row: the caption in the highlight's text colour
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_figures(self, fig: JobFigures | None) -> None:
        self.figures = fig
        if fig is None:
            self.set_values(None, None)
            return
        self.need_bytes, self.have_bytes, self.ram = fig.shown_need_bytes, fig.have_bytes, fig.memory == "ram"
        self.before_bytes = fig.need_bytes if fig.need_bytes != fig.shown_need_bytes else None
        self._changed()

    def set_selected(self, on: bool) -> None:
        if on != self.selected:
            self.selected = on
            self.update()

    def set_values(self, need_bytes: int | None, have_bytes: int | None, ram: bool = False) -> None:
        self.figures = None
        self.need_bytes, self.have_bytes, self.ram, self.before_bytes = need_bytes, have_bytes, ram, None
        self._changed()

    def _changed(self) -> None:
        self.setToolTip(self.caption())
        self.setAccessibleName(self.caption())
        self.updateGeometry()
        self.update()

    def caption(self) -> str:
        if self.figures is not None:
            return need_caption(self.figures)
        if self.need_bytes is None and self.have_bytes is None:
            return "—"
        if self.ram:
            return tr("RAM: {text}", text=tr("needs {need} of {have}", need=fmt_gib(self.need_bytes),
                                             have=fmt_gib(self.have_bytes)))
        if self.have_bytes is None:
            return tr("needs {need} · no GPU memory found", need=fmt_gib(self.need_bytes))
        return tr("needs {need} of {have}", need=fmt_gib(self.need_bytes), have=fmt_gib(self.have_bytes))

    def fits(self) -> bool:
        if self.figures is not None:
            return self.figures.fits
        return (self.need_bytes is not None and self.have_bytes is not None
                and self.need_bytes <= self.have_bytes)

    def status_verdict(self) -> str:
        """The verdict whose colour the bar is drawn in: fits, tight (may fit) or does not fit, of the memory
        that decides the verdict (RAM when RAM does)."""
        if self.figures is not None:
            return status_verdict(self.figures.bar_status)
        return "runs" if self.fits() else "does_not_fit"

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(self.caption()) + 8, self._strip_height() + fm.height() + 10)

    def minimumSizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance("0" * 10), self._strip_height() + fm.height() + 10)

    # -- layout: the strip, the "there is" marker, and the caption below ------------------------------
    def _strip_height(self) -> int:
        return max(6, QFontMetrics(self.font()).height() // 2)

    def bar_rect(self) -> QRectF:
        fm = QFontMetrics(self.font())
        total = self._strip_height() + 4 + fm.height()
        top = max(3.0, (self.height() - total) / 2)
        return QRectF(1, top, self.width() - 2, self._strip_height())

    def _scale(self) -> int:
        return max(self.need_bytes or 0, self.before_bytes or 0, self.have_bytes or 0) or 1

    def marker_x(self) -> float | None:
        """Where the "there is" line is drawn (None: nothing to mark)."""
        if not self.have_bytes:
            return None
        r = self.bar_rect()
        return r.left() + r.width() * min(self.have_bytes / self._scale(), 1.0) - 1

    def text_rect(self) -> QRectF:
        """The caption's line, below the strip."""
        r = self.bar_rect()
        fm = QFontMetrics(self.font())
        return QRectF(r.left(), r.bottom() + 4, r.width(), fm.height())

    def text_band(self) -> tuple[float, float]:
        """Top and bottom of the caption's glyphs (y)."""
        fm = QFontMetrics(self.font())
        t = self.text_rect()
        return t.top(), t.top() + fm.ascent() + fm.descent()

    def marker_spans(self) -> list[tuple[float, float]]:
        """The marker line's vertical extent: the strip (and a little above and below it), never the text."""
        if self.marker_x() is None:
            return []
        r = self.bar_rect()
        return [(r.top() - 2, r.bottom() + 2)]

    def paintEvent(self, _event):
        pal = self.palette()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(self.font())
        r = self.bar_rect()
        p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRoundedRect(r, 3, 3)
        colour = theme.verdict_colour(self.status_verdict(), pal)
        scale = self._scale()
        if self.before_bytes:  # as configured: a pale outline behind the need with the changes
            w = r.width() * min(self.before_bytes / scale, 1.0)
            pale = QColor(colour)
            pale.setAlpha(70)
            p.setPen(QPen(colour, 1, Qt.PenStyle.DotLine))
            p.setBrush(pale)
            p.drawRoundedRect(QRectF(r.left(), r.top(), w, r.height()), 3, 3)
        w = r.width() * min((self.need_bytes or 0) / scale, 1.0)
        if w > 0:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour)
            p.drawRoundedRect(QRectF(r.left(), r.top(), w, r.height()), 3, 3)
        x = self.marker_x()
        p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        for y0, y1 in self.marker_spans():
            p.drawLine(QPointF(x, y0), QPointF(x, y1))
        t = self.text_rect()
        p.setPen(pal.color(QPalette.ColorRole.HighlightedText if self.selected else QPalette.ColorRole.Text))
        p.drawText(t, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                   fm.elidedText(self.caption(), Qt.TextElideMode.ElideRight, int(t.width())))
        p.end()
