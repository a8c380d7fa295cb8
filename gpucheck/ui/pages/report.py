"""Page 5 — Report: save PDF / HTML / JSON, open the saved file, or start over."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import Qt, QUrl

from gpucheck.i18n import get_language, tr, use_language
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.part_card import wrap_label

FORMATS = ("pdf", "html", "json")


class ReportPage(BasePage):
    def _build(self) -> None:
        self.saved_path: str | None = None
        self.intro = wrap_label()
        self.body.addWidget(self.intro)
        self.scope = wrap_label(selectable=True)
        self.scope.setObjectName("reportScope")
        self.body.addWidget(self.scope)
        self.only_selected = QtWidgets.QCheckBox(self)
        self.only_selected.setObjectName("onlySelected")
        self.body.addWidget(self.only_selected)
        self.include_ids = QtWidgets.QCheckBox(self)
        self.include_ids.setObjectName("includeIds")
        self.body.addWidget(self.include_ids)
        lang_row = QtWidgets.QHBoxLayout()
        self.lang_label = QtWidgets.QLabel(self)
        self.report_lang = QtWidgets.QComboBox(self)
        self.report_lang.setObjectName("reportLanguage")
        from gpucheck.ui.wizard import LANGUAGE_NAMES

        for code, name in LANGUAGE_NAMES.items():
            self.report_lang.addItem(name, code)
        self.lang_label.setBuddy(self.report_lang)
        lang_row.addWidget(self.lang_label)
        lang_row.addWidget(self.report_lang)
        lang_row.addStretch(1)
        self.body.addLayout(lang_row)
        row = QtWidgets.QHBoxLayout()
        self.save_buttons: dict[str, QtWidgets.QPushButton] = {}
        for fmt in FORMATS:
            b = QtWidgets.QPushButton(self)
            b.setObjectName(f"save_{fmt}")
            b.clicked.connect(lambda _c=False, f=fmt: self.choose_and_save(f))
            row.addWidget(b)
            self.save_buttons[fmt] = b
        row.addStretch(1)
        self.body.addLayout(row)
        self.status = wrap_label(selectable=True)
        self.status.setObjectName("reportStatus")
        self.body.addWidget(self.status)
        row2 = QtWidgets.QHBoxLayout()
        self.open_button = QtWidgets.QPushButton(self)
        self.open_button.setObjectName("openReport")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_saved)
        row2.addWidget(self.open_button)
        self.start_over = QtWidgets.QPushButton(self)
        self.start_over.setObjectName("startOver")
        self.start_over.clicked.connect(self.wiz.start_over)
        row2.addWidget(self.start_over)
        row2.addStretch(1)
        self.body.addLayout(row2)
        self.body.addStretch(1)

    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("Your report"))
        self.setSubTitle(tr("Save everything to keep it, to ask a shop or a friend, or to compare two PCs."))
        self.intro.setText(tr("The report has your machine, the verdict for every job, and for the jobs you "
                              "picked the memory chart, the settings to change, upgrades and cloud prices."))
        self.only_selected.setText(tr("Details only for the job I chose (the ladder is always included)"))
        self.include_ids.setText(tr("Include the computer's name and GPU serial numbers (off keeps them private)"))
        self.lang_label.setText(tr("Report language:"))
        self.report_lang.setCurrentIndex(max(0, self.report_lang.findData(get_language())))
        self.save_buttons["pdf"].setText(tr("Save PDF…"))
        self.save_buttons["html"].setText(tr("Save HTML…"))
        self.save_buttons["json"].setText(tr("Save JSON…"))
        self.open_button.setText(tr("Open the saved file"))
        self.start_over.setText(tr("Start over"))
        self.refresh()
        if self.saved_path:
            self.status.setText(tr("Saved to {path}", path=self.saved_path))

    def refresh(self) -> None:
        if not self.has_session_data():
            return
        s = self.session
        if s.selected_id:
            job = s.workload_title(s.workload(s.selected_id))
            self.scope.setText(tr("Chosen job: {job} · compared on {target}", job=job, target=s.target_name()))
        else:
            self.scope.setText(tr("Compared on {target}", target=s.target_name()))
        if s.what_if_id is not None:
            self.scope.setText(tr("{scope}\nThe report is for this PC as scanned, not for the what-if GPU.",
                                  scope=self.scope.text()))

    def default_name(self, fmt: str) -> str:
        return str(Path.home() / f"gpucheck-report.{fmt}")

    def choose_and_save(self, fmt: str) -> None:
        filters = {"pdf": tr("PDF document (*.pdf)"), "html": tr("Web page (*.html)"),
                   "json": tr("JSON data (*.json)")}
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, tr("Save the report"), self.default_name(fmt), filters[fmt])
        if path:
            if not Path(path).suffix:
                path = f"{path}.{fmt}"
            self.save(path)

    def save(self, path: str) -> bool:
        from gpucheck.errors import BadInput
        from gpucheck.ui.app import show_bad_input

        lang = self.report_lang.currentData() or get_language()
        QtWidgets.QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            from gpucheck.report import check_writable

            check_writable(path)  # its message in the app's language, before any work
            with use_language(lang):
                out = self.session.save_report(path, only_selected=self.only_selected.isChecked(),
                                               include_ids=self.include_ids.isChecked())
        except BadInput as e:
            self.status.setText(tr("Not saved: {reason}", reason=str(e)))
            show_bad_input(self, tr("The report was not saved: {reason}", reason=str(e)),
                           tr("Cannot save the report"))
            return False
        except OSError as e:
            reason = e.strerror or str(e)
            self.status.setText(tr("Not saved: {reason}", reason=reason))
            show_bad_input(self, tr("The report was not saved: {reason}", reason=reason),
                           tr("Cannot save the report"))
            return False
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        self.saved_path = str(out or path)
        self.status.setText(tr("Saved to {path}", path=self.saved_path))
        self.open_button.setEnabled(True)
        return True

    def open_saved(self) -> None:
        if self.saved_path:
            QtGui.QDesktopServices.openUrl(QUrl.fromLocalFile(self.saved_path))
