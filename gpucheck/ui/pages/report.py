"""Page 5 — Report: the document itself as a preview, where it will be saved (Documents, a default name),
save it as PDF / HTML / JSON, open it, or start over."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QRectF, QStandardPaths, Qt, QUrl

from gpucheck.errors import BadInput
from gpucheck.i18n import get_language, tr, use_language
from gpucheck.report import check_writable
from gpucheck.report.html import OPTIONS_PLACEHOLDER, render_html
from gpucheck.report.pdf import options_height, paint_options
from gpucheck.ui.dialogs import show_bad_input
from gpucheck.ui.languages import LANGUAGE_NAMES
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.widgets.part_card import wrap_label

FORMATS = ("pdf", "html", "json")


def documents_folder() -> Path:
    """The user's Documents folder (created by the OS; the home folder when there is none)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = Path(loc) if loc else Path.home()
    return folder if folder.is_dir() else Path.home()


class ReportPage(BasePage):
    def _build(self) -> None:
        self.saved_path: str | None = None
        self._saved_machine = None  # the machine the saved file is about: another machine forgets it
        self.intro = wrap_label()
        self.body.addWidget(self.intro)
        self.scope = wrap_label(selectable=True)
        self.scope.setObjectName("reportScope")
        self.body.addWidget(self.scope)
        self._build_options()
        self.preview = QtWidgets.QTextBrowser(self)
        self.preview.setObjectName("reportPreview")
        self.preview.setOpenLinks(False)
        self.preview.setMinimumHeight(self.fontMetrics().height() * 16)
        self.body.addWidget(self.preview, 1)
        self.where = wrap_label(selectable=True)
        self.where.setObjectName("reportWhere")
        self.body.addWidget(self.where)
        row = QtWidgets.QHBoxLayout()
        self.save_buttons: dict[str, QtWidgets.QPushButton] = {}
        for fmt in FORMATS:
            b = QtWidgets.QPushButton(self)
            b.setObjectName(f"save_{fmt}")
            b.clicked.connect(lambda _c=False, f=fmt: self.choose_and_save(f))
            row.addWidget(b)
            self.save_buttons[fmt] = b
        self.open_button = QtWidgets.QPushButton(self)
        self.open_button.setObjectName("openReport")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_saved)
        row.addWidget(self.open_button)
        row.addStretch(1)
        self.start_over = QtWidgets.QPushButton(self)
        self.start_over.setObjectName("startOver")
        self.start_over.clicked.connect(self.wiz.start_over)
        row.addWidget(self.start_over)
        self.body.addLayout(row)
        self.status = wrap_label(selectable=True)
        self.status.setObjectName("reportStatus")
        self.body.addWidget(self.status)

    def _build_options(self) -> None:
        row = QtWidgets.QHBoxLayout()
        self.only_selected = QtWidgets.QCheckBox(self)
        self.only_selected.setObjectName("onlySelected")
        self.only_selected.toggled.connect(self.update_preview)
        row.addWidget(self.only_selected)
        self.include_ids = QtWidgets.QCheckBox(self)
        self.include_ids.setObjectName("includeIds")
        self.include_ids.toggled.connect(self.update_preview)
        row.addWidget(self.include_ids)
        row.addStretch(1)
        self.lang_label = QtWidgets.QLabel(self)
        self.report_lang = QtWidgets.QComboBox(self)
        self.report_lang.setObjectName("reportLanguage")
        for code, name in LANGUAGE_NAMES.items():
            self.report_lang.addItem(name, code)
        self.lang_label.setBuddy(self.report_lang)
        self.report_lang.currentIndexChanged.connect(self.update_preview)
        row.addWidget(self.lang_label)
        row.addWidget(self.report_lang)
        self.body.addLayout(row)

    def retranslate(self) -> None:
        if not self.built:
            return
        self.setTitle(tr("Your report"))
        self.setSubTitle(tr("Here is the document: save it to keep it, or to show a shop or a friend."))
        self.intro.setText(tr("It has your machine, the verdict for every job, and for each job the memory "
                              "chart, the settings to change, your options, upgrades and cloud prices."))
        self.only_selected.setText(tr("Details only for the chosen job (the list of all jobs stays)"))
        self.include_ids.setText(tr("Include the computer's name and GPU serial numbers (off keeps them private)"))
        self.lang_label.setText(tr("Report language:"))
        self.report_lang.blockSignals(True)
        self.report_lang.setCurrentIndex(max(0, self.report_lang.findData(get_language())))
        self.report_lang.blockSignals(False)
        self.save_buttons["pdf"].setText(tr("Save PDF…"))
        self.save_buttons["html"].setText(tr("Save HTML…"))
        self.save_buttons["json"].setText(tr("Save JSON…"))
        self.open_button.setText(tr("Open"))
        self.open_button.setToolTip(tr("Open the saved file") if self.saved_path
                                    else tr("Save the report first; then Open shows it in your PDF viewer or browser."))
        self.start_over.setText(tr("Start over"))
        self.refresh()
        if self.saved_path:
            self.status.setText(tr("Saved to {path}", path=self.saved_path))

    def forget_saved(self) -> None:
        """No file saved (yet) for what is shown: no "Saved to …" line, Open greyed out."""
        self.saved_path = None
        self._saved_machine = None
        self.status.setText("")
        self.open_button.setEnabled(False)
        self.open_button.setDefault(False)
        self.open_button.setToolTip(tr("Save the report first; then Open shows it in your PDF viewer or browser."))

    def refresh(self) -> None:
        if not self.has_session_data():
            return
        s = self.session
        if self.saved_path is not None and self._saved_machine is not s.machine:
            self.forget_saved()  # saved for the machine before: Open would show another PC's report
        self.only_selected.setEnabled(s.selected_id is not None)
        if s.selected_id:
            job = s.workload_title(s.workload(s.selected_id))
            self.scope.setText(tr("Chosen job: {job} · this PC as scanned ({target})", job=job,
                                  target=s.machine_target_name()))
        else:
            self.scope.setText(tr("This PC as scanned ({target})", target=s.machine_target_name()))
        if s.what_if_id is not None:
            self.scope.setText(tr("{scope}\nThe report is for this PC as scanned, not for the what-if GPU.",
                                  scope=self.scope.text()))
        self.where.setText(tr("Saves to {folder} as {name} unless you choose another place.",
                              folder=str(documents_folder()), name=self.default_file_name("pdf")))
        self.update_preview()

    # -- the preview -----------------------------------------------------------------------------------
    def _model(self):
        lang = self.report_lang.currentData() or get_language()
        with use_language(lang):
            return self.session.report_model(only_selected=self.only_selected.isChecked(),
                                             include_ids=self.include_ids.isChecked(), lang=lang)

    def update_preview(self, *_args) -> None:
        """The document as it will be saved (the PDF's own HTML; its charts drawn by the PDF's code)."""
        if not self.has_session_data():
            return
        model = self._model()
        html = render_html(model, for_qt=True)
        doc = self.preview.document()
        width = max(400, self.preview.viewport().width() - 40)
        for i, job in enumerate(model.jobs):
            if not job.options:
                continue
            url = f"gpucheck-options:{i}"
            doc.addResource(QtGui.QTextDocument.ResourceType.ImageResource, QUrl(url),
                            self._options_image(job, width))
            html = html.replace(OPTIONS_PLACEHOLDER.format(i=i), f'<img src="{url}"/>')
        bar = self.preview.verticalScrollBar().value()
        self.preview.setHtml(html)
        self.preview.verticalScrollBar().setValue(bar)

    def _options_image(self, job, width: int) -> QtGui.QImage:
        font = self.preview.font()
        height = int(options_height(len(job.options), font)) + 2
        ratio = self.devicePixelRatioF()
        img = QtGui.QImage(int(width * ratio), int(height * ratio), QtGui.QImage.Format.Format_ARGB32)
        img.setDevicePixelRatio(ratio)
        img.fill(Qt.GlobalColor.white)
        p = QtGui.QPainter(img)
        p.setFont(font)
        paint_options(p, QRectF(0, 0, width, height), job.options, job.options_headings)
        p.end()
        return img

    # -- saving ----------------------------------------------------------------------------------------
    def default_file_name(self, fmt: str) -> str:
        m = self.session.machine
        label = (m.label if m is not None and m.label else _dt.date.today().isoformat())
        safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in label)
        return f"gpucheck-report-{safe}.{fmt}"

    def default_name(self, fmt: str) -> str:
        return str(documents_folder() / self.default_file_name(fmt))

    def choose_and_save(self, fmt: str) -> None:
        filters = {"pdf": tr("PDF document (*.pdf)"), "html": tr("Web page (*.html)"),
                   "json": tr("JSON data (*.json)")}
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, tr("Save the report"), self.default_name(fmt),
                                                        filters[fmt])
        if path:
            if not Path(path).suffix:
                path = f"{path}.{fmt}"
            self.save(path)

    def save(self, path: str) -> bool:
        lang = self.report_lang.currentData() or get_language()
        QtWidgets.QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            check_writable(path)  # its message in the app's language, before any work
            with use_language(lang):
                out = self.session.save_report(path, only_selected=self.only_selected.isChecked(),
                                               include_ids=self.include_ids.isChecked())
        except BadInput as e:
            self._not_saved(str(e))
            return False
        except OSError as e:
            self._not_saved(e.strerror or str(e))
            return False
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        self.saved_path = str(out or path)
        self._saved_machine = self.session.machine
        self.status.setText(tr("Saved to {path}", path=self.saved_path))
        self.open_button.setEnabled(True)
        self.open_button.setToolTip(tr("Open the saved file"))
        self.open_button.setDefault(True)
        return True

    def _not_saved(self, reason: str) -> None:
        self.status.setText(tr("Not saved: {reason}", reason=reason))
        show_bad_input(self, tr("The report was not saved: {reason}", reason=reason), tr("Cannot save the report"))

    def open_saved(self) -> bool:
        """Open the saved file in the program the system has for it; say so when there is none."""
        if not self.saved_path:
            return False
        if not Path(self.saved_path).is_file():
            show_bad_input(self, tr("The saved report is no longer at {path}: save it again.", path=self.saved_path),
                           tr("Cannot open the report"))
            return False
        if open_url(QUrl.fromLocalFile(self.saved_path)):
            return True
        show_bad_input(self, tr("No program on this computer is set to open {kind} files. The report is saved at "
                                "{path}: open it from there, or install a PDF viewer or a web browser.",
                                kind=Path(self.saved_path).suffix.lstrip(".").upper(), path=self.saved_path),
                       tr("Cannot open the report"))
        return False


def open_url(url: QUrl) -> bool:
    """QDesktopServices.openUrl (a function of its own, so a test can stand in for the system's viewer)."""
    return QtGui.QDesktopServices.openUrl(url)
