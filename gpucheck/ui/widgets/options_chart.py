"""The chosen job's options as one picture: this PC as it is and with the changes, each GPU upgrade with its
price, each cloud offer with the cost of the whole run — time (a bar, log scale) against money, coloured
fits / tight / does not fit. Drawn by the same code as the PDF's chart (gpucheck.report.pdf.paint_options)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpucheck.report.figures import status_text
from gpucheck.report.option_points import OptionPoint, options_headings
from gpucheck.report.pdf import options_height, paint_options
from gpucheck.ui.widgets import theme


class OptionsChart(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.points: tuple[OptionPoint, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_points(self, points) -> None:
        self.points = tuple(points)
        self.setAccessibleName(self.summary())
        self.setToolTip(self.summary())
        self.updateGeometry()
        self.update()

    def headings(self) -> tuple[str, str, str, str]:
        return options_headings()

    def summary(self) -> str:
        return "\n".join(f"{p.label}: {status_text(p.status)}, {p.cost_text}" for p in self.points)

    def sizeHint(self) -> QSize:
        return QSize(600, int(options_height(len(self.points), self.font())) + 2)

    def minimumSizeHint(self) -> QSize:
        return QSize(300, self.sizeHint().height())

    def paintEvent(self, _event):
        pal = self.palette()
        p = QPainter(self)
        p.setFont(self.font())
        paint_options(p, QRectF(self.rect()).adjusted(1, 1, -1, -1), self.points, self.headings(),
                      dark=theme.is_dark(pal), text_colour=pal.color(QPalette.ColorRole.Text),
                      grid_colour=pal.color(QPalette.ColorRole.Mid))
        p.end()
