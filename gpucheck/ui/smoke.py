"""Start-up smoke test for installed and frozen builds: open the real app, wait until its main
window is on screen, then quit.

    GPUCHECK_SMOKE_TEST=1 gpucheck            # exits 0 about one second after the window is shown

Installers' tests and CI use it to prove that an installed package finds Qt, its plugins and its
resources. It prints one line, `smoke-test: window shown: <title>`, and exits with the app's status
(an error dialog exits 4; a window that never appears exits 3 after `GPUCHECK_SMOKE_TIMEOUT_S`,
default 60 s).
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from gpucheck.ui.app import make_application, run_app

ENV = "GPUCHECK_SMOKE_TEST"


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def _say(line: str, stream=None) -> None:
    """One line for the caller; safe on a console that cannot encode the title, or with no console."""
    stream = stream or sys.stdout
    if stream is None:  # a windowed Windows program has no stdout
        return
    try:
        print(line, file=stream, flush=True)
    except UnicodeEncodeError:
        print(line.encode("ascii", "backslashreplace").decode("ascii"), file=stream, flush=True)


class _QuitAfterFirstShow(QObject):
    """Watches the app's window only (an event filter on the whole application would see every event of
    every object and slow the very start-up it measures); error dialogs are found by a light poll."""

    def __init__(self, app: QApplication, delay_ms: int):
        super().__init__(app)
        self.app = app
        self.delay_ms = delay_ms
        self.shown = False
        self.poll = QTimer(self)
        self.poll.setInterval(100)
        self.poll.timeout.connect(self.look_for_error_dialog)
        self.poll.start()  # its first turn comes with the event loop, after the window is shown

    def watch(self, window: QWidget) -> None:
        window.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
        if not self.shown and event.type() == QEvent.Type.Show and obj.windowTitle():
            self.shown = True
            # the title as the desktop shows it: the window's, then the app's name (Qt adds it on Linux/Windows)
            name = self.app.applicationDisplayName()
            title = obj.windowTitle() if name in obj.windowTitle() else f"{obj.windowTitle()} — {name}"
            _say(f"smoke-test: window shown: {title}")
            QTimer.singleShot(self.delay_ms, self.app.quit)
        return False

    def look_for_error_dialog(self) -> None:
        """The app's error dialog: start-up failed even though something is on screen."""
        for w in QApplication.topLevelWidgets():
            if isinstance(w, QMessageBox) and w.isVisible() and w.icon() == QMessageBox.Icon.Critical:
                self.poll.stop()
                _say(f"smoke-test: error dialog: {w.text()} {w.detailedText()}", sys.stderr)
                QTimer.singleShot(0, lambda: self.app.exit(4))
                return


def run_smoke_test(machine_file: str | None = None, lang: str | None = None) -> int:
    """Run the real desktop app (gpucheck.ui.app.run_app) and quit it after its window is shown."""
    app = make_application()  # run_app reuses this instance
    watcher = _QuitAfterFirstShow(app, delay_ms=1000)

    def give_up():
        if not watcher.shown:
            _say("smoke-test: no window was shown", sys.stderr)
            app.exit(3)

    timeout_s = float(os.environ.get("GPUCHECK_SMOKE_TIMEOUT_S", "60"))
    QTimer.singleShot(int(timeout_s * 1000), give_up)
    return run_app(machine_file=machine_file, lang=lang, on_window=watcher.watch)
