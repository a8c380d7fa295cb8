"""Page 1 — Welcome: one big "Scan my PC" button; results appear area by area while the scan runs."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QSize, Qt, QTimer, Signal

from gpucheck.errors import BadInput
from gpucheck.i18n import tr
from gpucheck.lazy import lazy_import
from gpucheck.ui.machine_view import AREA_ICONS, AREA_TITLES, AREAS, area_key, part_view
from gpucheck.ui.pages.base import BasePage
from gpucheck.ui.scan_worker import ScanWorker
from gpucheck.ui.widgets.icons import icon
from gpucheck.ui.widgets.labels import wrap_label

logs = lazy_import("gpucheck.logs")  # loaded when a scan fails (start-up speed, gpucheck/lazy.py)


class WelcomePage(BasePage):
    scan_finished = Signal(object)

    def __init__(self, wizard, parent=None):
        super().__init__(wizard, parent)
        self.worker = None
        self._old_workers: list = []
        self.done_areas: set[str] = set()
        self.partial_machine = None
        self.error_text = ""

        self.intro = wrap_label()
        self.body.addWidget(self.intro)

        row = QtWidgets.QHBoxLayout()
        self.scan_button = QtWidgets.QPushButton(self)
        self.scan_button.setObjectName("scanButton")
        f = self.scan_button.font()
        f.setPointSizeF(f.pointSizeF() * 1.5)
        f.setBold(True)
        self.scan_button.setFont(f)
        h = self.scan_button.fontMetrics().height()
        self.scan_button.setIconSize(QSize(h * 2, h * 2))
        self.scan_button.setMinimumHeight(h * 3)
        self.scan_button.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed)
        self.scan_button.setDefault(True)
        self.scan_button.clicked.connect(self.start_scan)
        row.addWidget(self.scan_button)
        self.cancel_button = QtWidgets.QPushButton(self)
        self.cancel_button.setObjectName("cancelScanButton")
        self.cancel_button.clicked.connect(self.cancel_scan)
        self.cancel_button.setEnabled(False)
        row.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addStretch(1)
        self.body.addLayout(row)

        self.deep = QtWidgets.QCheckBox(self)
        self.deep.setObjectName("deepScan")
        self.body.addWidget(self.deep)
        self.deep_hint = wrap_label()
        self.deep_hint.setIndent(24)
        self.body.addWidget(self.deep_hint)

        self.progress = QtWidgets.QProgressBar(self)
        self.progress.setRange(0, len(AREAS))
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.body.addWidget(self.progress)

        grid = QtWidgets.QGridLayout()
        grid.setColumnStretch(2, 1)
        grid.setHorizontalSpacing(12)
        self.area_icons: dict[str, QtWidgets.QLabel] = {}
        self.area_names: dict[str, QtWidgets.QLabel] = {}
        self.area_lines: dict[str, QtWidgets.QLabel] = {}
        for i, area in enumerate(AREAS):
            ic = QtWidgets.QLabel(self)
            s = self.fontMetrics().height() + 6
            ic.setFixedSize(s, s)
            name = QtWidgets.QLabel(self)
            f = name.font()
            f.setBold(True)
            name.setFont(f)
            line = wrap_label(selectable=True)
            line.setObjectName(f"scanLine_{area}")
            grid.addWidget(ic, i, 0, Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(name, i, 1, Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(line, i, 2, Qt.AlignmentFlag.AlignVCenter)
            self.area_icons[area], self.area_names[area], self.area_lines[area] = ic, name, line
        self.body.addLayout(grid)

        self.status = wrap_label(selectable=True)
        self.status.setObjectName("scanStatus")
        self.body.addWidget(self.status)

        self.open_button = QtWidgets.QPushButton(self)
        self.open_button.setObjectName("openScanButton")
        self.open_button.clicked.connect(self.choose_machine_file)
        self.open_button.setAutoDefault(False)  # Enter after opening a scan goes Next, not to the file dialog
        self.body.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.body.addStretch(1)
        self.built = True
        self.retranslate()

    def load_icons(self) -> None:
        """Icons are SVG files found through the one resource locator (gpucheck.resources): loaded once the window is
        on screen (gpucheck.ui.app.after_show), so start-up does not wait for them."""
        self.scan_button.setIcon(icon("scan"))
        for area, ic in self.area_icons.items():
            s = ic.width()
            ic.setPixmap(icon(AREA_ICONS[area]).pixmap(QSize(s, s), self.devicePixelRatioF()))

    # -- texts ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setTitle(tr("Can my PC train this?"))
        self.setSubTitle(tr("Find out which AI training jobs your computer can run, how long they take, "
                            "and the cheapest way to get there."))
        self.intro.setText(tr("First, gpucheck looks at your graphics card, processor, memory, disks, power "
                              "and installed software. Nothing is sent anywhere."))
        self.scan_button.setText(tr("Scan my PC"))
        self.cancel_button.setText(tr("Cancel"))
        self.deep.setText(tr("Deep scan (also measures speed; takes about half a minute)"))
        self.deep_hint.setText(tr("Runs short benchmarks on your GPU, CPU and disk so the time estimates "
                                  "use measured figures."))
        self.open_button.setText(tr("Open a saved scan…"))
        for area in AREAS:
            self.area_names[area].setText(tr(AREA_TITLES[area]))
        self.progress.setFormat(tr("{done} of {total} checked", done="%v", total="%m"))
        self.show_machine_lines()
        self._set_status_text()

    def _set_status_text(self) -> None:
        m = self.wiz.machine
        if self.worker is not None:
            self.status.setText(tr("Scanning… you can keep using the window."))
        elif self.error_text:
            self.status.setText(self.error_text)
        elif m is not None and m.label:
            self.status.setText(tr("Showing a saved scan: {label}. Press Next to see it.", label=m.label))
        elif m is not None:
            self.status.setText(tr("Scan finished. Press Next to see your machine."))
        else:
            self.status.setText(tr("Press the button to start. A quick scan takes a few seconds."))

    def show_machine_lines(self) -> None:
        m = self.wiz.machine if self.worker is None else self.partial_machine
        for area in AREAS:
            line = self.area_lines[area]
            if self.worker is None and m is not None:
                line.setText(part_view(m, area).summary)
            elif self.worker is not None and area in self.done_areas:
                line.setText(part_view(m, area).summary if m is not None else tr("done"))
            elif self.worker is not None:
                line.setText(tr("checking…"))
            else:
                line.setText("—")

    # -- scanning ---------------------------------------------------------------------------------
    def isComplete(self) -> bool:
        return self.wiz.machine is not None and self.worker is None

    def is_scanning(self) -> bool:
        return self.worker is not None

    def start_scan(self) -> None:
        if self.worker is not None:
            return
        self.error_text = ""
        self.done_areas = set()
        self.partial_machine = None
        self.wiz.set_machine(None)
        self.progress.setRange(0, len(AREAS))
        self.progress.setValue(0)
        self.worker = ScanWorker(self.wiz.scan_fn, deep=self.deep.isChecked())
        self.worker.progress.connect(self._on_progress)
        self.worker.partial.connect(self._on_partial)
        self.worker.done.connect(self._on_done)
        self.worker.failed.connect(self._on_failed)
        self.worker.finished.connect(self._reap)
        self.scan_button.setEnabled(False)
        self.open_button.setEnabled(False)
        self.deep.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.show_machine_lines()
        self._set_status_text()
        self.completeChanged.emit()
        self.worker.start()

    def _reap(self) -> None:
        w = self.sender()
        if w in self._old_workers:
            self._old_workers.remove(w)
            w.deleteLater()

    def _finish_worker(self) -> None:
        if self.worker is not None:
            self._old_workers.append(self.worker)
            if self.worker.isFinished():
                self._old_workers.remove(self.worker)
                self.worker.deleteLater()
        self.worker = None
        self.scan_button.setEnabled(True)
        self.open_button.setEnabled(True)
        self.deep.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def cancel_scan(self) -> None:
        if self.worker is None:
            return
        self.worker.cancel()
        self._finish_worker()
        self.error_text = tr("Scan cancelled. Press the button to start again.")
        self.progress.setValue(0)
        self.show_machine_lines()
        self._set_status_text()
        self.completeChanged.emit()

    def _on_progress(self, info) -> None:
        """(area, done, total) from the scan; during a deep scan, the benchmark's own steps."""
        if self.sender() is not self.worker:
            return
        args = info[0] if (isinstance(info, tuple) and len(info) == 2 and isinstance(info[1], dict)) else info
        if not isinstance(args, tuple):
            args = (args,)
        area = next((a for a in args if isinstance(a, str)), None)
        nums = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
        if len(nums) >= 2 and nums[1] > 0:
            self.progress.setRange(0, nums[1])
            self.progress.setValue(min(nums[0], nums[1]))
        if area is not None and area_key(area) in AREAS:
            area = area_key(area)
            self.done_areas.add(area)
            if self.partial_machine is not None:
                self.area_lines[area].setText(part_view(self.partial_machine, area).summary)
            else:
                self.area_lines[area].setText(tr("done"))
        elif area is not None:  # deep scan: (step, fraction done)
            fracs = [a for a in args if isinstance(a, float)]
            if fracs:
                self.progress.setRange(0, 100)
                self.progress.setFormat("%p%")
                self.progress.setValue(int(max(0.0, min(1.0, fracs[0])) * 100))
            self.status.setText(tr("Measuring: {step}", step=area))

    def _on_partial(self, machine) -> None:
        if self.sender() is not self.worker:
            return
        self.partial_machine = machine
        for area in self.done_areas:
            self.area_lines[area].setText(part_view(machine, area).summary)

    def _on_done(self, machine) -> None:
        if self.sender() is not self.worker:
            return
        self.done_areas = set(AREAS)
        self._finish_worker()
        self.progress.setFormat(tr("{done} of {total} checked", done="%v", total="%m"))
        self.progress.setRange(0, len(AREAS))
        self.progress.setValue(len(AREAS))
        self.wiz.set_machine(machine)
        self.show_machine_lines()
        self._set_status_text()
        self.completeChanged.emit()
        self.wiz.focus_next()
        self.scan_finished.emit(machine)

    def _on_failed(self, exc) -> None:
        if self.sender() is not self.worker:
            return
        self._finish_worker()
        if isinstance(exc, BadInput):
            self.error_text = tr("The scan could not finish: {reason}", reason=str(exc))
        else:
            path = logs.log_exception(exc)
            self.error_text = tr("The scan could not finish: {reason}. Details are in {path}.",
                                 reason=str(exc) or type(exc).__name__, path=path)
        self.show_machine_lines()
        self._set_status_text()
        self.completeChanged.emit()

    # -- a saved scan -------------------------------------------------------------------------------
    def choose_machine_file(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, tr("Open a saved scan"), "", tr("gpucheck scans (*.json);;All files (*)"))
        if path and self.wiz.open_machine_file(path):
            QTimer.singleShot(0, self.wiz.focus_next)  # once the file dialog has given the focus back

    def machine_loaded(self) -> None:
        self.error_text = ""
        self.done_areas = set(AREAS)
        self.progress.setRange(0, len(AREAS))
        self.progress.setValue(len(AREAS))
        self.show_machine_lines()
        self._set_status_text()
        self.completeChanged.emit()
