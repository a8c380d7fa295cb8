"""The details page's advice: the changes that make the job work (with their settings to copy), the optional
changes that finish a running job sooner, and what fits instead when it does not (another method or a smaller
model). The base class of DetailsPage (gpucheck.ui.pages.details), which calls `_build_tweaks()` and
`_build_alternative()` once and `_show_tweaks/_show_speed_tweaks/_show_alternative` on every refresh; it builds
on HelpSections (gpucheck.ui.pages.details_help)."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt

from gpucheck.advise.present import alternative_text, settings_text
from gpucheck.i18n import fmt_duration, fmt_gib, fmt_list, tr
from gpucheck.report.figures import alternative_lines, changes_sentence, speed_intro, worth_speeding_up
from gpucheck.ui.pages.details_help import HelpSections, _clear
from gpucheck.ui.widgets.part_card import wrap_label


class AdviceSections(HelpSections):
    """Settings that make it work, optional speed-ups, what fits instead: a base of DetailsPage."""

    def _build_tweaks(self) -> None:
        """The changes that make it work (with their settings to copy), and the optional speed-ups."""
        self.tweak_box = QtWidgets.QGroupBox(self)
        self.tweak_layout = QtWidgets.QVBoxLayout(self.tweak_box)
        self.changes_line = wrap_label(selectable=True)
        self.changes_line.setObjectName("changesNeed")
        self.tweak_layout.addWidget(self.changes_line)
        self.tweak_list = QtWidgets.QVBoxLayout()
        self.tweak_layout.addLayout(self.tweak_list)
        self.snippet = QtWidgets.QPlainTextEdit(self)
        self.snippet.setObjectName("snippet")
        self.snippet.setReadOnly(True)
        self.snippet.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.snippet.setMaximumHeight(self.fontMetrics().height() * 9)
        self.tweak_layout.addWidget(self.snippet)
        self.copy_snippet = QtWidgets.QPushButton(self)
        self.copy_snippet.setObjectName("copySnippet")
        self.copy_snippet.clicked.connect(self._copy_snippet)
        self.tweak_layout.addWidget(self.copy_snippet, 0, Qt.AlignmentFlag.AlignLeft)
        self.body.addWidget(self.tweak_box)

        # optional: finish a job that runs sooner (each change on its own)
        self.speed_box = QtWidgets.QGroupBox(self)
        self.speed_box.setObjectName("speedTweaks")
        self.speed_layout = QtWidgets.QVBoxLayout(self.speed_box)
        self.body.addWidget(self.speed_box)

    def _build_alternative(self) -> None:
        """What fits instead when this job does not: LoRA, QLoRA or the smaller model, the first that fits
        with its changes and settings, then the others tried."""
        self.alt_box = QtWidgets.QGroupBox(self)
        self.alt_box.setObjectName("alternative")
        alt = QtWidgets.QVBoxLayout(self.alt_box)
        self.alt_summary = wrap_label(selectable=True)
        self.alt_summary.setObjectName("alternativeSummary")
        f = self.alt_summary.font()
        f.setBold(True)
        self.alt_summary.setFont(f)
        alt.addWidget(self.alt_summary)
        self.alt_list = QtWidgets.QVBoxLayout()
        alt.addLayout(self.alt_list)
        self.alt_snippet = QtWidgets.QPlainTextEdit(self)
        self.alt_snippet.setObjectName("alternativeSnippet")
        self.alt_snippet.setReadOnly(True)
        self.alt_snippet.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.alt_snippet.setMaximumHeight(self.fontMetrics().height() * 9)
        alt.addWidget(self.alt_snippet)
        self.copy_alt_snippet = QtWidgets.QPushButton(self)
        self.copy_alt_snippet.setObjectName("copyAlternativeSnippet")
        self.copy_alt_snippet.clicked.connect(self._copy_alt_snippet)
        alt.addWidget(self.copy_alt_snippet, 0, Qt.AlignmentFlag.AlignLeft)
        self.alt_others = QtWidgets.QVBoxLayout()
        alt.addLayout(self.alt_others)
        self.body.addWidget(self.alt_box)

    def _show_tweaks(self, adv, fig) -> None:
        _clear(self.tweak_list)
        changes = changes_sentence(fig) if fig is not None and adv.tweaks else ""
        self.changes_line.setText(changes)  # "With these changes: 19.3 GB → 11.4 GB of 11.7 GB; …"
        self.changes_line.setVisible(bool(changes))
        self.tweak_box.setTitle(tr("Settings tried: not enough on this GPU") if adv.verdict == "does_not_fit"
                                else tr("Settings that make it work"))
        if not adv.tweaks and adv.verdict == "runs":
            self.tweak_list.addWidget(wrap_label(tr("Nothing to change: it runs with the job's own settings.")))
        elif not adv.tweaks:
            self.tweak_list.addWidget(wrap_label(tr("No change of settings is enough here; see the upgrades "
                                                    "and cloud GPUs below.")))
        for i, t in enumerate(adv.tweaks, 1):
            line = tr("{n}. {title} — cost: {cost}", n=i, title=t.title, cost=t.cost)
            after = []
            if t.peak_vram_bytes is not None:
                after.append(tr("needs {need}", need=fmt_gib(t.peak_vram_bytes)))
            if t.total_hours is not None:
                after.append(tr("takes {time}", time=fmt_duration(t.total_hours)))
            if after:
                line = tr("{line} (then {after})", line=line, after=fmt_list(after))
            lab = wrap_label(line, selectable=True)
            lab.setObjectName(f"tweak_{t.id}")
            self.tweak_list.addWidget(lab)
        self.snippet.setPlainText(adv.snippet or "")
        self.snippet.setVisible(bool(adv.snippet))
        self.copy_snippet.setVisible(bool(adv.snippet))

    def _copy_snippet(self) -> None:
        QtWidgets.QApplication.clipboard().setText(self.snippet.toPlainText())
        self.copy_snippet.setText(tr("Copied"))

    def _show_speed_tweaks(self, adv) -> None:
        """Changes that only make a job that runs finish sooner: each on its own, with its time and trade-off."""
        _clear(self.speed_layout)
        tweaks = worth_speeding_up(adv)
        if not tweaks:
            return
        self.speed_layout.addWidget(wrap_label(speed_intro(tweaks)))
        for t in tweaks:
            self.speed_layout.addSpacing(6)
            after = []
            if t.total_hours is not None:
                after.append(tr("takes {time}", time=fmt_duration(t.total_hours)))
            if t.peak_vram_bytes is not None:
                after.append(tr("needs {need}", need=fmt_gib(t.peak_vram_bytes)))
            head = tr("{title} (then {after})", title=t.title, after=fmt_list(after)) if after else t.title
            lab = wrap_label(head, selectable=True)
            lab.setObjectName(f"speed_{t.id}")
            f = lab.font()
            f.setBold(True)
            lab.setFont(f)
            self.speed_layout.addWidget(lab)
            cost = wrap_label(tr("Trade-off: {cost}", cost=t.cost), selectable=True)
            cost.setIndent(16)
            self.speed_layout.addWidget(cost)
            if t.settings:
                self.speed_layout.addWidget(self._copy_row(settings_text(t.settings), f"speed_settings_{t.id}"))

    def _show_alternative(self, adv) -> None:
        """The smaller model that fits when this job does not, with the changes and settings it needs."""
        _clear(self.alt_list)
        _clear(self.alt_others)
        for i, line in enumerate(alternative_lines(adv)):  # the other methods / models tried, one line each
            lab = wrap_label(line, selectable=True)
            lab.setObjectName(f"alternativeOther{i}")
            self.alt_others.addWidget(lab)
        alt = adv.alternative
        for w in (self.alt_summary, self.alt_snippet, self.copy_alt_snippet):
            w.setVisible(alt is not None)
        if alt is None:
            return
        self.alt_summary.setText(alternative_text(alt))
        for i, t in enumerate(alt.tweaks, 1):
            lab = wrap_label(tr("{n}. {title} — cost: {cost}", n=i, title=t.title, cost=t.cost), selectable=True)
            lab.setObjectName(f"alternative_{t.id}")
            self.alt_list.addWidget(lab)
        self.alt_snippet.setPlainText(alt.snippet or "")
        self.alt_snippet.setVisible(bool(alt.snippet))
        self.copy_alt_snippet.setVisible(bool(alt.snippet))
        self.copy_alt_snippet.setText(tr("Copy settings"))

    def _copy_alt_snippet(self) -> None:
        QtWidgets.QApplication.clipboard().setText(self.alt_snippet.toPlainText())
        self.copy_alt_snippet.setText(tr("Copied"))
