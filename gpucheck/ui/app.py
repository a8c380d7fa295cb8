"""The desktop app's start: QApplication, translators, the error dialog, the wizard window.

Start-up is kept short: nothing here probes hardware or reads catalogs before the window is shown;
pages load what they need when they are first entered.
"""

from __future__ import annotations

import sys

from PySide6 import QtWidgets
from PySide6.QtCore import QTimer

from gpucheck import i18n
from gpucheck.errors import BadInput
from gpucheck.lazy import lazy_import
from gpucheck.ui.dialogs import show_bad_input, show_error
from gpucheck.ui.languages import add_bundled_fonts, install_translators, set_app_language
from gpucheck.ui.widgets.icons import icon, icon_path
from gpucheck.ui.wizard import Wizard

APP_NAME = "gpucheck"

# The scan and everything it loads (probes, estimator, catalogs) is needed only once the user starts
# one: a deferred import, so that the window appears first (gpucheck/lazy.py, docs/performance.md).
scan_command = lazy_import("gpucheck.scan_command")
# The log (logging.handlers, platformdirs) is needed only when something goes wrong.
logs = lazy_import("gpucheck.logs")

__all__ = ["APP_NAME", "ErrorHook", "error_hook", "create_window", "make_application", "run_app",
           "set_app_language", "install_translators", "add_bundled_fonts", "icon", "icon_path",
           "show_bad_input", "show_error"]


class ErrorHook:
    """sys.excepthook for the GUI: log the traceback, show a dialog, keep the event loop running."""

    def __init__(self):
        self.window = None
        self.last: BaseException | None = None

    def __call__(self, exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            QtWidgets.QApplication.quit()
            return
        if exc is None:
            exc = exc_type()
        if exc.__traceback__ is None:
            exc = exc.with_traceback(tb)
        self.last = exc
        if isinstance(exc, BadInput):
            show_bad_input(self.window, str(exc))
            return
        path = logs.log_exception(exc)
        try:
            show_error(self.window, exc, path)
        except Exception:  # the dialog itself failed: the log still has it
            sys.__excepthook__(exc_type, exc, tb)


error_hook = ErrorHook()


def scan_this_pc(*args, **kwargs):
    """The app's scan: gpucheck.scan_command.scan_machine (the scan and, when asked, the deep scan's
    benchmarks), loaded when the first scan starts."""
    return scan_command.scan_machine(*args, **kwargs)


def after_show(app: QtWidgets.QApplication, window=None) -> None:
    """Work that can wait until the window is on screen."""
    app.setWindowIcon(icon("gpucheck"))
    hints = app.styleHints()
    if hasattr(hints, "colorSchemeChanged"):  # Qt 6.5+: the desktop switched between light and dark
        hints.colorSchemeChanged.connect(lambda *_a: _repaint_all(app))
    if window is not None:
        window.welcome.load_icons()
    if i18n.get_language() != "zh_CN":
        add_bundled_fonts()  # so that switching to Chinese later finds the font


def _repaint_all(app: QtWidgets.QApplication) -> None:
    """Badges, bars and charts pick their colours from the palette when they paint: repaint them all."""
    for w in app.allWidgets():
        w.update()


def create_window(machine_file: str | None = None, scan_fn=None):
    """The wizard; `scan_fn` scans the PC (default: scan_this_pc, the scan and, when
    asked, the deep scan's benchmarks; tests pass a recorded one)."""
    w = Wizard(scan_fn=scan_fn or scan_this_pc)
    error_hook.window = w
    if machine_file:
        # After the window is up: reading and validating a file is not start-up work.
        QTimer.singleShot(0, lambda: w.open_machine_file(machine_file))
    return w


def make_application(argv: list[str] | None = None) -> QtWidgets.QApplication:
    app = QtWidgets.QApplication.instance()
    if app is None:
        app = QtWidgets.QApplication(argv if argv is not None else [sys.argv[0]])
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName("gpucheck")
    app.setOrganizationName(APP_NAME)
    app.setDesktopFileName("gpucheck")
    return app


def run_app(machine_file: str | None = None, lang: str | None = None, on_window=None) -> int:
    """Open the desktop app. `machine_file`: a saved scan to open instead of scanning; `lang`: en | zh_CN;
    `on_window(window)`: called with the window just before it is shown (the smoke test watches it)."""
    app = make_application()
    set_app_language(lang)
    sys.excepthook = error_hook
    if i18n.get_language() == "zh_CN":
        add_bundled_fonts()  # Chinese text needs a CJK font before the first paint
    w = create_window(machine_file)
    if on_window is not None:
        on_window(w)
    w.show()
    QTimer.singleShot(0, lambda: after_show(app, w))
    try:
        return app.exec()
    finally:
        sys.excepthook = sys.__excepthook__
