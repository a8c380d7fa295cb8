""""Try it for real (about 30 s)": runs the chosen job's real training steps in the user's own PyTorch
(gpucheck.trial, a child process) with progress and Cancel, and shows the measured figures beside the
estimate. The trial runs on a daemon thread; Cancel kills the child's whole process tree at once."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal

from gpucheck.i18n import fmt_duration, tr
from gpucheck.trial import (
    DEFAULT_MAX_SECONDS,
    TrialResult,
    TrialUnsupported,
    find_pythons,
    memory_label,
    run_trial,
)
from gpucheck.trial.calibrate import busy_note, optimizer_note
from gpucheck.ui.widgets.part_card import wrap_label

# where the bar stands as each phase starts: setup to 20 %, the timed steps 20–90 % by the time they have
# had, then "finishing" (the peak memory read, PyTorch closed) as a busy bar: never a bar stuck at 100 %
PHASE_PERCENT = {"starting": 5, "building": 12, "warmup": 18, "searching": 12}
TIMING_FROM, TIMING_TO = 20, 90
# the phases a user sees, in order: (phase events that belong to it, its words)
STAGES = (("starting", "building", "searching"), ("warmup",), ("timing",), ("finishing",))


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

    python: str | None = None  # the Python the user chose (None: the first found with PyTorch)

    def run(self) -> None:
        try:
            extra = {"python": self.python} if self.python else {}
            result = self.run_fn(self.workload, machine=self.machine, on_event=self.progress.emit,
                                 cancel=self.cancel_event, max_seconds=self.max_seconds, **extra)
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
    mem = memory_label(e)
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
        self.python: str | None = None  # chosen with "Choose Python…" (None: the first found with PyTorch)
        self.worker: TrialWorker | None = None
        self.results: dict[Any, TrialResult] = {}  # (job id, settings) → last result
        self.phase = ""  # the stage shown: starting | warmup | timing | finishing
        self._started = 0.0
        self._timing_left: float | None = None
        self.clock = QTimer(self)  # the elapsed time, once a second, whatever the child says
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._show_phase)
        lay = QtWidgets.QVBoxLayout(self)
        self.intro = wrap_label()
        lay.addWidget(self.intro)
        lay.addLayout(self._python_row())
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
        self.phase_line = wrap_label()
        self.phase_line.setObjectName("trialPhase")
        self.phase_line.setVisible(False)
        lay.addWidget(self.phase_line)
        self.status = wrap_label(selectable=True)
        self.status.setObjectName("trialStatus")
        lay.addWidget(self.status)
        self.note = wrap_label(selectable=True)  # what the page makes of the result (the page sets it)
        self.note.setObjectName("trialNote")
        self.note.setVisible(False)
        lay.addWidget(self.note)
        self.install_row = QtWidgets.QWidget(self)  # the pip command that adds what is missing, with Copy
        il = QtWidgets.QHBoxLayout(self.install_row)
        il.setContentsMargins(0, 0, 0, 0)
        self.install_line = QtWidgets.QLabel(self.install_row)
        self.install_line.setObjectName("trialInstall")
        self.install_line.setFont(QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont))
        self.install_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.install_line.setWordWrap(True)
        il.addWidget(self.install_line, 1)
        self.copy_install = QtWidgets.QPushButton(self.install_row)
        self.copy_install.setObjectName("trialCopyInstall")
        self.copy_install.clicked.connect(
            lambda: QtWidgets.QApplication.clipboard().setText(self.install_line.text()))
        il.addWidget(self.copy_install, 0, Qt.AlignmentFlag.AlignTop)
        self.install_row.setVisible(False)
        lay.addWidget(self.install_row)
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

    def _python_row(self) -> QtWidgets.QHBoxLayout:
        """Which Python the trial uses, and "Choose Python…" to pick another (a venv, conda, …)."""
        row = QtWidgets.QHBoxLayout()
        self.python_line = wrap_label(selectable=True)
        self.python_line.setObjectName("trialPython")
        row.addWidget(self.python_line, 1)
        self.choose_python = QtWidgets.QPushButton(self)
        self.choose_python.setObjectName("trialChoosePython")
        self.choose_python.clicked.connect(self.pick_python)
        row.addWidget(self.choose_python, 0, Qt.AlignmentFlag.AlignTop)
        return row

    def shutdown(self) -> None:
        """The app is closing: stop the trial and its processes now."""
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(5.0)

    # -- texts -------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setTitle(tr("Try it for real"))
        self._set_intro()
        self.run_button.setText(tr("Try it for real ({s} s of training steps)", s=f"{self.max_seconds:.0f}"))
        self.cancel_button.setText(tr("Cancel"))
        self.copy_install.setText(tr("Copy"))
        self.choose_python.setText(tr("Choose Python…"))
        self.choose_python.setToolTip(tr("The Python (a virtual environment, conda, …) whose PyTorch the trial uses"))
        self.table.setHorizontalHeaderLabels([tr("What"), tr("Measured"), tr("Estimated"), tr("Ratio")])
        self._show_python()
        if self.workload is not None and self.worker is None:
            self._show_last()
        if self.worker is not None:
            self._show_phase()

    def _set_intro(self) -> None:
        self.intro.setText(tr("Runs about {s} s of real training steps of this job in your own PyTorch, with "
                              "random weights and made-up data: nothing is downloaded. Starting Python and PyTorch, "
                              "building the model and one warm-up step come first (a few seconds, or a minute or "
                              "more on a slow PC). The measured speed and memory appear beside the estimate.",
                              s=f"{self.max_seconds:.0f}"))
        if self.last_total_s is not None:  # a time that holds: what it took here, start to result
            self.intro.setText(tr("{intro} The last trial on this PC took {s} s in all.", intro=self.intro.text(),
                                  s=f"{self.last_total_s:.0f}"))

    # -- the Python ----------------------------------------------------------------------------------
    last_total_s: float | None = None  # how long the last trial on this PC took in all (start to result)
    shown_above = False  # the page shows the measured figures itself (the table would repeat them)

    def set_shown_above(self, on: bool) -> None:
        if on != self.shown_above:
            self.shown_above = on
            if self.worker is None:
                self._show_last()

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _show_python(self) -> None:
        if self.python:
            self.python_line.setText(tr("Python: {path} (chosen)", path=self.python))
            return
        found: list[str] = find_pythons(self.machine) if self.machine is not None else []
        self.python_line.setText(tr("Python: {path} (found with PyTorch)", path=found[0]) if found else
                                 tr("No Python with PyTorch found yet: install PyTorch (the command is under "
                                    "\"Bottlenecks and software\"), or choose the Python that has it."))

    def pick_python(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, tr("Choose the Python that has PyTorch"),
                                                        "", tr("Python (python* python*.exe);;All files (*)"))
        if path:
            self.set_python(path)

    def set_python(self, path: str | None) -> None:
        self.python = path or None
        self._show_python()

    # -- the job -----------------------------------------------------------------------------------
    def _key(self) -> Any:
        w = self.workload
        return None if w is None else (w.id, w.train, w.data)

    def set_job(self, workload: Any, machine: Any, train: Any = None, data: Any = None) -> None:
        """The job to try, with the settings and data-set size the user chose (None: the job's own)."""
        workload = dataclasses.replace(workload, train=train or workload.train, data=data or workload.data)
        if self.worker is not None and self._key() != (workload.id, workload.train, workload.data):
            self.cancel()
        new_machine = machine is not self.machine
        self.workload, self.machine = workload, machine
        if new_machine:
            self.last_total_s = None  # another PC: its own time
            self._set_intro()
            self._show_python()
        if self.worker is None:
            self._show_last()

    def last_result(self) -> TrialResult | None:
        """The last result of the job with its settings now (None: not tried)."""
        return self.results.get(self._key())

    def _show_last(self) -> None:
        r = self.results.get(self._key())
        if r is None:
            self.status.setText("")
            self.table.setVisible(False)
            self.install_row.setVisible(False)
            return
        self._show_result(r)

    def start(self) -> None:
        if self.workload is None or self.worker is not None:
            return
        self.worker = TrialWorker(self.run_fn, self.workload, self.machine, self.max_seconds)
        self.worker.python = self.python
        self.worker.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self.worker.done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)
        self.worker.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self.worker.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        # the keyboard stays here: Cancel takes the focus before Run is greyed out (Qt would otherwise hand
        # it to the next widget down the page and scroll the page to it)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        if self.focusWidget() in (None, self.run_button):
            self.cancel_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.run_button.setEnabled(False)
        self.choose_python.setEnabled(False)
        self.bar.setRange(0, 100)
        self.bar.setValue(0)
        self.bar.setVisible(True)
        self.table.setVisible(False)
        self.install_row.setVisible(False)
        self.set_note("")
        self.status.setText("")
        self.phase, self._timing_left = "starting", None
        self._started = time.monotonic()
        self.clock.start()
        self._show_phase()
        self.worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.clock.stop()
            self.phase_line.setVisible(False)
            self.status.setText(tr("Stopping the trial…"))

    def is_running(self) -> bool:
        return self.worker is not None

    # -- progress and results ----------------------------------------------------------------------
    def _show_phase(self) -> None:
        """'Step 3 of 4 — timing training steps: step 12, about 18 s left · 41 s so far'."""
        if self.worker is None or not self.phase:
            return
        n = next(i for i, names in enumerate(STAGES, 1) if self.phase in names)
        words = {"starting": tr("starting Python and PyTorch, building the model"),
                 "building": tr("building the model"),
                 "searching": tr("out of memory: trying a smaller micro-batch"),
                 "warmup": tr("one warm-up step (not timed)"),
                 "finishing": tr("finishing: reading the peak memory and closing PyTorch")}
        if self.phase == "timing":
            left = max(0, int(round(self._timing_left or 0)))
            what = tr("timing training steps: step {n}, about {s} s left", n=self._step, s=left)
        else:
            what = words[self.phase]
        so_far = int(time.monotonic() - self._started)
        self.phase_line.setText(tr("Step {n} of {total} — {what} · {s} s so far", n=n, total=len(STAGES),
                                   what=what, s=so_far))
        self.phase_line.setVisible(True)

    _step = 0

    def _on_progress(self, ev: dict) -> None:
        if self.worker is None:
            return
        phase = str(ev.get("phase"))
        if phase == "timing":
            budget = max(1e-6, float(ev.get("max_seconds") or self.max_seconds))
            elapsed = float(ev.get("elapsed_s") or 0)
            self._step = ev.get("step") or 0
            self._timing_left = budget - elapsed
            last = elapsed >= budget or (ev.get("steps") and self._step >= int(ev["steps"]))
            if last:  # the timed steps are done: the child reads its memory and closes (a busy bar)
                self.phase = "finishing"
                self.bar.setRange(0, 0)
            else:
                self.phase = "timing"
                self.bar.setValue(int(TIMING_FROM + (TIMING_TO - TIMING_FROM) * min(1.0, elapsed / budget)))
        elif phase in PHASE_PERCENT or phase == "warmup":
            self.phase = phase
            if phase == "searching":
                self.status.setText(tr("Out of memory; trying micro-batch {b}…", b=ev.get("batch")))
            self.bar.setRange(0, 100)
            self.bar.setValue(PHASE_PERCENT.get(phase, self.bar.value()))
        self._show_phase()

    def _on_done(self, r: TrialResult) -> None:
        if r.measured is not None or r.outcome == "out_of_memory":
            self.results[self._key()] = r
            self.measured.emit(r)
        self._show_result(r)

    def _on_failed(self, message: str) -> None:
        self.status.setText(tr("The trial could not run: {why}", why=message))

    def _on_finished(self) -> None:
        if self.phase in ("finishing", "timing"):  # it got through the timed steps: how long it took in all
            self.last_total_s = time.monotonic() - self._started
        self.worker = None
        self.clock.stop()
        self.phase = ""
        self.phase_line.setVisible(False)
        had_focus = self.focusWidget() is self.cancel_button
        self.run_button.setEnabled(True)
        self.choose_python.setEnabled(True)
        if had_focus:  # the keyboard goes back to the button it started on, not down the page
            self.run_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.cancel_button.setVisible(False)
        self.bar.setRange(0, 100)
        self.bar.setVisible(False)
        self._set_intro()  # it says how long the trial took in all

    def _show_result(self, r: TrialResult) -> None:
        message = r.message
        if r.outcome == "ran":  # in the language shown now (the result may have been made in another)
            message = tr("Measured on this PC")
        elif r.outcome == "missing_library" and r.install and not r.python:  # no Python with PyTorch found
            message = tr("No Python with PyTorch was found on this PC. Install PyTorch with the command below "
                         "(it is also under \"Bottlenecks and software\"), or press \"Choose Python…\" to pick "
                         "the Python that has it.")
        elif r.install and r.install in message:
            message = message.replace(r.install, "").rstrip(" :：;") + "."
        lines = [message]
        m = r.measured or {}
        if m:
            lines.append(tr("On {device}, micro-batch {batch}, {steps} timed steps, in {python}",
                            device=m.get("device"), batch=m.get("batch"), steps=m.get("steps"), python=r.python))
            if m.get("total_hours") is not None and not self.shown_above:
                lines.append(tr("The whole run at the measured speed: {t}", t=fmt_duration(m["total_hours"])))
            if self.shown_above:  # the page shows each figure, beside the estimate it shows: said once
                lines.append(tr("Every figure of the page above is now the measured one, beside the estimate."))
            lines += [text for text in (optimizer_note(m), busy_note(m)) if text]
        self.status.setText("\n".join(lines))
        self.install_line.setText(r.install or "")
        self.install_row.setVisible(bool(r.install))
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
        self.table.setVisible(bool(rows) and not self.shown_above)
