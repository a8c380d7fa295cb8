"""Runs the hardware scan on a worker thread and reports each finished area to the GUI thread.

The worker is a daemon Python thread (not a QThread): closing the window in the middle of a scan never
waits for slow probes, and the process can exit while a probe still hangs on a driver call.
Its signals are delivered to the GUI thread through Qt's queued connections.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal


class ScanWorker(QObject):
    """`progress(object)` for each step the scan reports, `partial(Machine)` as areas finish, then
    `done(Machine)` or `failed(exc)`, then `finished()`.

    Cancel stops listening at once (the window never waits); the probes end on their own time-outs.
    """

    progress = Signal(object)
    partial = Signal(object)  # the Machine assembled from the probes finished so far
    done = Signal(object)
    failed = Signal(object)
    finished = Signal()

    def __init__(self, scan_fn: Callable[..., Any], deep: bool = False, parent=None):
        super().__init__(parent)
        self.deep = deep
        self.scan_fn = scan_fn
        self.cancel_event = threading.Event()
        self._finished = threading.Event()
        self._thread = threading.Thread(target=self.run, name="gpucheck-scan", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def isFinished(self) -> bool:  # noqa: N802 — the QThread spelling the page already uses
        return self._finished.is_set()

    def wait(self, seconds: float) -> bool:
        return self._finished.wait(seconds)

    def _on_progress(self, *args, **kwargs) -> None:
        if not self.cancelled:
            self.progress.emit(args[0] if len(args) == 1 and not kwargs else (args, kwargs))

    def _on_partial(self, machine) -> None:
        if not self.cancelled:
            self.partial.emit(machine)

    def run(self) -> None:
        try:
            self._scan()
        finally:
            self._finished.set()
            self.finished.emit()

    def _scan(self) -> None:
        """`scan_fn(on_progress=, on_partial=, cancel=, deep=)` → Machine: gpucheck.scan_command.scan_machine's keywords,
        injected by the wizard (a recorded scan in tests)."""
        try:
            machine = self.scan_fn(on_progress=self._on_progress, on_partial=self._on_partial,
                                   cancel=self.cancel_event, deep=self.deep)
        except BaseException as exc:  # reported to the GUI thread, never raised in a worker
            if not self.cancelled:
                self.failed.emit(exc)
            return
        if not self.cancelled:
            self.done.emit(machine)
