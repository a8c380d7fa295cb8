"""Memory breakdown (weights / gradients / optimizer / activations / overhead) against your VRAM.

A stacked horizontal bar with a line where your VRAM ends, and a legend with each part's size.
The figures come from the estimate (gpucheck.records.VramBreakdown); this widget only draws them.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpucheck.i18n import fmt_gib, tr
from gpucheck.report.figures import BREAKDOWN_PARTS, RAM_OTHER_PART
from gpucheck.ui.widgets import theme


class MemoryChart(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.breakdown = None
        self.have_bytes: int | None = None
        self.ram = False  # the job runs on the CPU: "your RAM" instead of "your VRAM"
        self.other_bytes = 0  # on the CPU: RAM besides the training tensors (from the estimate)
        self.have_label = ""
        # The height follows the width (the legend wraps): sizeHint uses the current width and
        # resizeEvent asks the layout again.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_breakdown(self, breakdown, have_bytes: int | None, ram: bool = False, other_bytes: int = 0,
                      have_label: str = "") -> None:
        """`have_label`: what the marker is ("On the RTX 4090: 24.0 GB"); default "Your VRAM …"."""
        self.breakdown, self.have_bytes, self.ram = breakdown, have_bytes, ram
        self.have_label = have_label
        self.other_bytes = int(other_bytes or 0) if ram else 0
        self.setAccessibleName(self.summary())
        self.updateGeometry()
        self.update()

    def parts(self) -> list[tuple[str, int, tuple[str, str]]]:
        if self.breakdown is None:
            return []
        parts = [(tr(label), int(getattr(self.breakdown, attr)), colour)
                 for _key, attr, label, colour in BREAKDOWN_PARTS]
        if self.other_bytes > 0:
            _key, _attr, label, colour = RAM_OTHER_PART
            parts.append((tr(label), self.other_bytes, colour))
        return parts

    def total_bytes(self) -> int:
        return sum(v for _l, v, _c in self.parts())

    def summary(self) -> str:
        if self.breakdown is None:
            return ""
        lines = [f"{label}: {fmt_gib(v)}" for label, v, _ in self.parts()]
        lines.append(tr("Total: {total}", total=fmt_gib(self.total_bytes())))
        lines.append(self._have_text())
        return "\n".join(lines)

    def _have_text(self) -> str:
        if self.have_label:
            return self.have_label
        if self.ram:
            return tr("Your RAM {have}", have=fmt_gib(self.have_bytes))
        return tr("Your VRAM {have}", have=fmt_gib(self.have_bytes))

    def _legend_rows(self, width: int) -> list[list[str]]:
        fm = QFontMetrics(self.font())
        rows: list[list[str]] = [[]]
        x = 0
        items = [f"{label} {fmt_gib(v)}" for label, v, _ in self.parts()]
        items.append(self._have_text())
        for text in items:
            w = fm.height() + fm.horizontalAdvance(text) + 18
            if x + w > width and rows[-1]:
                rows.append([])
                x = 0
            rows[-1].append(text)
            x += w
        return rows

    def heightForWidth(self, width: int) -> int:
        fm = QFontMetrics(self.font())
        return int(fm.height() * 2.2) + 12 + len(self._legend_rows(width)) * (fm.height() + 6) + 4

    def sizeHint(self) -> QSize:
        w = self.width() if self.width() > 200 else 900
        return QSize(480, self.heightForWidth(w))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()

    def paintEvent(self, _event):
        if self.breakdown is None:
            return
        pal = self.palette()
        fm = QFontMetrics(self.font())
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        total = self.total_bytes()
        scale = max(total, self.have_bytes or 0) or 1
        bar = QRectF(1, 4, self.width() - 2, fm.height() * 2.2)
        p.setPen(QPen(pal.color(QPalette.ColorRole.Mid), 1))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRect(bar)
        x = bar.left()
        p.setPen(Qt.PenStyle.NoPen)
        for _label, v, colours in self.parts():
            w = bar.width() * v / scale
            if w <= 0:
                continue
            p.setBrush(theme.part_colour(colours, pal))
            p.drawRect(QRectF(x, bar.top(), w, bar.height()))
            x += w
        if self.have_bytes:
            hx = bar.left() + bar.width() * min(self.have_bytes / scale, 1.0)
            pen = QPen(pal.color(QPalette.ColorRole.Text), 3)
            pen.setStyle(Qt.PenStyle.DashLine if self.have_bytes < total else Qt.PenStyle.SolidLine)
            p.setPen(pen)
            p.drawLine(int(hx) - 1, int(bar.top()) - 3, int(hx) - 1, int(bar.bottom()) + 3)
        # legend
        y = bar.bottom() + 10
        sw = fm.height() - 4
        colours = [c for _l, _v, c in self.parts()] + [None]
        idx = 0
        for row in self._legend_rows(self.width()):
            lx = 2
            for text in row:
                c = colours[idx]
                idx += 1
                if c is None:
                    p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 3))
                    p.drawLine(int(lx + sw / 2), int(y), int(lx + sw / 2), int(y + fm.height()))
                else:
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(theme.part_colour(c, pal))
                    p.drawRect(QRectF(lx, y + 2, sw, sw))
                p.setPen(pal.color(QPalette.ColorRole.Text))
                p.drawText(QRectF(lx + sw + 6, y, fm.horizontalAdvance(text) + 4, fm.height() + 2),
                           Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                lx += fm.height() + fm.horizontalAdvance(text) + 18
            y += fm.height() + 6
        p.end()
