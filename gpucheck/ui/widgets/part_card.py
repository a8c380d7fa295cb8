"""A card for one part of the PC: icon, title, status badge, a summary, findings, expandable details."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QSize, Qt

from gpucheck.i18n import tr
from gpucheck.ui.widgets.badge import Badge
from gpucheck.ui.widgets.icons import icon
from gpucheck.ui.widgets.labels import wrap_label  # here too, for the pages that import it from here


class PartCard(QtWidgets.QFrame):
    def __init__(self, area: str, icon_name: str, parent=None):
        super().__init__(parent)
        self.area = area
        self.setObjectName(f"card_{area}")
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Maximum)
        outer = QtWidgets.QHBoxLayout(self)
        outer.setContentsMargins(12, 10, 12, 10)
        outer.setSpacing(12)
        self.icon = QtWidgets.QLabel(self)
        self._icon_name = icon_name
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self._set_icon()
        outer.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)

        col = QtWidgets.QVBoxLayout()
        col.setSpacing(4)
        head = QtWidgets.QHBoxLayout()
        self.title = QtWidgets.QLabel(self)
        f = self.title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.title.setFont(f)
        self.title.setWordWrap(True)
        head.addWidget(self.title, 1)
        self.badge = Badge(self)
        head.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        col.addLayout(head)
        self.summary = wrap_label("", self, selectable=True)
        col.addWidget(self.summary)
        self.findings = wrap_label("", self, selectable=True)
        col.addWidget(self.findings)
        self.toggle = QtWidgets.QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self._on_toggle)
        col.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.details = wrap_label("", self, selectable=True)
        self.details.setVisible(False)
        self.details.setIndent(8)
        col.addWidget(self.details)
        outer.addLayout(col, 1)
        self.retranslate()

    def _set_icon(self) -> None:
        size = self.fontMetrics().height() * 3
        self.icon.setPixmap(icon(self._icon_name).pixmap(QSize(size, size), self.devicePixelRatioF()))
        self.icon.setFixedWidth(size + 4)

    def retranslate(self) -> None:
        self.toggle.setText(tr("Hide details") if self.toggle.isChecked() else tr("Show details"))

    def _on_toggle(self, on: bool) -> None:
        self.details.setVisible(on)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.retranslate()

    def set_content(self, title: str, status: str, summary: str, findings: list[str], details: list[str]):
        self.title.setText(title)
        self.badge.set_status(status)
        self.summary.setText(summary)
        self.summary.setVisible(bool(summary))
        self.findings.setText("\n".join(f"• {f}" for f in findings))
        self.findings.setVisible(bool(findings))
        self.details.setText("\n".join(details))
        self.toggle.setVisible(bool(details))
        if not details:
            self.details.setVisible(False)
