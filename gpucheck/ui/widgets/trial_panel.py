""""Try it for real (about 30 s)": runs the chosen job's real training steps in the user's own PyTorch
(gpucheck.trial, a child process) with progress and Cancel, and shows the measured figures beside the
estimate. The trial runs on a daemon thread; Cancel kills the child's whole process tree at once."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

from PySide6 import QtWidgets
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from gpucheck.i18n import fmt_duration, tr
from gpucheck.trial import DEFAULT_MAX_SECONDS, TrialResult, TrialUnsupported, run_trial
from gpucheck.ui.widgets.part_card import wrap_label

PHASE_PERCENT = {"starting": 5, "building": 12, "warmup": 22, "searching": 50}


class TrialWorker(QObject):
    """Runs `run_fn(workload, machine=, on_event=, cancel=, max_seconds=)` on a daemon thread:
    `progress(dict)` per event, then `done(TrialResult)` or `failed(str)`, then `finished()`."""

    progress = Signal(object)
    done = Signal(object)
    failed = Signal(str)
    finished = Signal()

    def __init__(self, run_fn: Callable[..., Any], workload: Any, machine: Any, max_seconds: float, parent=None):
        super().__init__(parent)
        self.run_fn, self.workload, self.machine, self.max_seconds = run_fn, workload, machine, max_seconds
        self.cancel_event = threading.Event()
        self._thread = threading.Thread(target=self.run, name="gpucheck-trial", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self.cancel_event.set()

    def wait(self, seconds: float) -> bool:
        self._thread.join(seconds)
        return not self._thread.is_alive()

    def run(self) -> None:
        try:
            result = self.run_fn(self.workload, machine=self.machine, on_event=self.progress.emit,
                                 cancel=self.cancel_event, max_seconds=self.max_seconds)
            self.done.emit(result)
        except TrialUnsupported as e:
            self.failed.emit(str(e))
        except Exception as e:  # noqa: BLE001 — shown in the panel, never raised on a worker thread
            self.failed.emit(f"{type(e).__name__}: {e}")
        finally:
            self.finished.emit()


def _num(x: Any, digits: int) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def result_rows(r: TrialResult) -> list[tuple[str, str, str, str]]:
    """(what, measured, estimated, ratio) rows for a measured result."""
    m, e, q = r.measured or {}, r.estimated or {}, r.ratios
    mem = tr("Peak memory (GiB)") if e.get("memory_kind") != "ram" else tr("Peak RAM (GiB)")
    rows = [(tr("Step time (s)"), "step_seconds", 3), (tr("Samples per second"), "samples_per_second", 2),
            (mem, "peak_memory_gib", 2)]
    return [(label, _num(m.get(k), d), _num(e.get(k), d), "×" + _num(q.get(k), 2) if q.get(k) else "—")
            for label, k, d in rows]


class TrialPanel(QtWidgets.QGroupBox):
    """Set the job with `set_job(workload, machine)`; `measured(TrialResult)` is emitted once measured."""

    measured = Signal(object)

    def __init__(self, parent=None, run_fn: Callable[..., Any] = run_trial):
        super().__init__(parent)
        self.setObjectName("trialPanel")
        self.run_fn = run_fn
        self.max_seconds = DEFAULT_MAX_SECONDS
        self.workload = None
        self.machine = None
        self.worker: TrialWorker | None = None
        self.results: dict[Any, TrialResult] = {}  # (job id, settings) → last result
        lay = QtWidgets.QVBoxLayout(self)
        self.intro = wrap_label()
        lay.addWidget(self.intro)
        row = QtWidgets.QHBoxLayout()
        self.run_button = QtWidgets.QPushButton(self)
        self.run_button.setObjectName("trialRun")
        self.run_button.clicked.connect(self.start)
        fixed = QtWidgets.QSizePolicy.Policy.Fixed
        self.run_button.setSizePolicy(QtWidgets.QSizePolicy.Policy.Maximum, fixed)
        row.addWidget(self.run_button)
        self.cancel_button = QtWidgets.QPushButton(self)
        self.cancel_button.setObjectName("trialCancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setVisible(False)
        self.cancel_button.setSizePolicy(QtWidgets.QSizePolicy.Policy.Maximum, fixed)
        row.addWidget(self.cancel_button)
        self.bar = QtWidgets.QProgressBar(self)
        self.bar.setObjectName("trialProgress")
        self.bar.setRange(0, 100)
        self.bar.setVisible(False)
        row.addWidget(self.bar, 1)
        row.addStretch(0)
        lay.addLayout(row)
        self.status = wrap_label(selectable=True)
        self.status.setObjectName("trialStatus")
        lay.addWidget(self.status)
        self.table = QtWidgets.QTableWidget(0, 4, self)
        self.table.setObjectName("trialTable")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.setVisible(False)
        lay.addWidget(self.table)
        self.retranslate()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    def shutdown(self) -> None:
        """The app is closing: stop the trial and its processes now."""
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(5.0)

    # -- texts -------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setTitle(tr("Try it for real"))
        self.intro.setText(tr("Runs one warm-up step and then about {s} s of real training steps of this job in "
                              "your own PyTorch, with random weights and made-up data: nothing is downloaded. "
                              "The measured speed and memory appear beside the estimate.",
                              s=f"{self.max_seconds:.0f}"))
        self.run_button.setText(tr("Try it for real (about {s} s)", s=f"{self.max_seconds:.0f}"))
        self.cancel_button.setText(tr("Cancel"))
        self.table.setHorizontalHeaderLabels([tr("What"), tr("Measured"), tr("Estimated"), tr("Ratio")])
        if self.workload is not None and self.worker is None:
            self._show_last()

    # -- the job -----------------------------------------------------------------------------------
    def _key(self) -> Any:
        w = self.workload
        return None if w is None else (w.id, w.train, w.data)

    def set_job(self, workload: Any, machine: Any, train: Any = None, data: Any = None) -> None:
        """The job to try, with the settings and data-set size the user chose (None: the job's own)."""
        workload = dataclasses.replace(workload, train=train or workload.train, data=data or workload.data)
        if self.worker is not None and self._key() != (workload.id, workload.train, workload.data):
            self.cancel()
        self.workload, self.machine = workload, machine
        if self.worker is None:
            self._show_last()

    def _show_last(self) -> None:
        r = self.results.get(self._key())
        if r is None:
            self.status.setText("")
            self.table.setVisible(False)
            return
        self._show_result(r)

    def start(self) -> None:
        if self.workload is None or self.worker is not None:
            return
        self.worker = TrialWorker(self.run_fn, self.workload, self.machine, self.max_seconds)
        self.worker.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)
        self.worker.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self.worker.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        self.run_button.setEnabled(False)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.bar.setValue(0)
        self.bar.setVisible(True)
        self.table.setVisible(False)
        self.status.setText(tr("Starting your Python…"))
        self.worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(tr("Stopping the trial…"))

    def is_running(self) -> bool:
        return self.worker is not None

    # -- progress and results ----------------------------------------------------------------------
    def _on_progress(self, ev: dict) -> None:
        phase = ev.get("phase")
        if phase == "timing":
            share = float(ev.get("elapsed_s") or 0) / max(1e-6, float(ev.get("max_seconds") or self.max_seconds))
            self.bar.setValue(int(22 + 78 * min(1.0, share)))
            self.status.setText(tr("Training step {n}…", n=ev.get("step")))
            return
        self.bar.setValue(PHASE_PERCENT.get(str(phase), self.bar.value()))
        texts = {"starting": tr("Starting PyTorch…"), "building": tr("Building the model…"),
                 "warmup": tr("Warm-up step…"),
                 "searching": tr("Out of memory; trying micro-batch {b}…", b=ev.get("batch"))}
        self.status.setText(texts.get(str(phase), self.status.text()))

    def _on_done(self, r: TrialResult) -> None:
        if r.measured is not None or r.outcome == "out_of_memory":
            self.results[self._key()] = r
            self.measured.emit(r)
        self._show_result(r)

    def _on_failed(self, message: str) -> None:
        self.status.setText(tr("The trial could not run: {why}", why=message))

    def _on_finished(self) -> None:
        self.worker = None
        self.run_button.setEnabled(True)
        self.cancel_button.setVisible(False)
        self.bar.setVisible(False)

    def _show_result(self, r: TrialResult) -> None:
        lines = [r.message]
        m = r.measured or {}
        if m:
            lines.append(tr("On {device}, micro-batch {batch}, {steps} timed steps, in {python}",
                            device=m.get("device"), batch=m.get("batch"), steps=m.get("steps"), python=r.python))
            if m.get("total_hours") is not None:
                lines.append(tr("The whole run at the measured speed: {t}", t=fmt_duration(m["total_hours"])))
        if r.install:
            lines.append(tr("Install: {cmd}", cmd=r.install))
        self.status.setText("\n".join(lines))
        rows = result_rows(r) if m else []
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = QtWidgets.QTableWidgetItem(text)
                if j:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)
        self.table.resizeRowsToContents()
        frame = 2 * self.table.frameWidth()
        self.table.setFixedHeight(self.table.horizontalHeader().height() + frame
                                  + sum(self.table.rowHeight(i) for i in range(len(rows))))
        self.table.setVisible(bool(rows))
