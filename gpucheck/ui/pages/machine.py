"""Page 2 — Your machine: one card per part with a status, findings in plain words, details."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

from gpucheck.i18n import fmt_timestamp, tr
from gpucheck.ui.machine_view import AREA_ICONS, AREAS, as_text, other_findings, part_view
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.part_card import PartCard, wrap_label


def _when(iso: str) -> str:
    """'2026-11-29T17:01:55+00:00' → '2026-11-29 17:01 UTC' (Beijing time in Chinese; unchanged if it is not
    ISO 8601)."""
    return fmt_timestamp(iso) if iso else iso


class MachinePage(BasePage):
    scroll_top_on_entry = True

    def _build(self) -> None:
        self.source = wrap_label(selectable=True)
        self.source.setObjectName("machineSource")
        self.body.addWidget(self.source)
        self.cards: dict[str, PartCard] = {}
        for area in AREAS:
            card = PartCard(area, AREA_ICONS[area], self.inner)
            self.cards[area] = card
            self.body.addWidget(card)
        self.other = wrap_label(selectable=True)
        self.body.addWidget(self.other)
        row = QtWidgets.QHBoxLayout()
        self.copy_button = QtWidgets.QPushButton(self)
        self.copy_button.setObjectName("copyMachine")
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        row.addWidget(self.copy_button)
        self.copied = wrap_label()
        row.addWidget(self.copied, 1)
        self.body.addLayout(row)
        self.body.addStretch(1)

    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("Your machine"))
        self.setSubTitle(tr("What gpucheck found. Green is good, orange means it limits what you can train, "
                            "red means it is missing."))
        self.copy_button.setText(tr("Copy to clipboard"))
        self.copied.setText("")
        for card in self.cards.values():
            card.retranslate()
        self.refresh()

    def refresh(self) -> None:
        if not self.built:
            return
        m = self.session.machine
        if m is None:
            return
        if m.label:
            self.source.setText(tr("Saved scan: {label}", label=m.label))
        elif m.created_at:
            self.source.setText(tr("This PC, scanned {when}", when=_when(m.created_at)))
        else:
            self.source.setText(tr("This PC"))
        ctx = self.session.job_context()  # the GPU and RAM cards count and name what the jobs page shows
        for area in AREAS:
            v = part_view(m, area, ctx)
            self.cards[area].set_content(v.title, v.status, v.summary, list(v.findings), list(v.details))
        other = other_findings(m)
        self.other.setText("\n".join(f"• {f}" for f in other))
        self.other.setVisible(bool(other))

    def copy_to_clipboard(self) -> None:
        m = self.session.machine
        if m is None:
            return
        QtWidgets.QApplication.clipboard().setText(as_text(m))
        self.copied.setText(tr("Copied."))
        self.copied.setAlignment(Qt.AlignmentFlag.AlignVCenter)
