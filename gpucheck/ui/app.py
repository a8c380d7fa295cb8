"""The desktop app's start: QApplication, translators, the error dialog, the wizard window.

Start-up is kept short: nothing here probes hardware or reads catalogs before the window is shown;
pages load what they need when they are first entered.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QTimer

from gpucheck import i18n
from gpucheck.i18n import tr

APP_NAME = "gpucheck"

_translators: list[QtCore.QTranslator] = []


def icon_path(name: str) -> Path:
    from gpucheck.catalog import resource_path

    return resource_path("icons", f"{name}.svg")


def icon(name: str) -> QtGui.QIcon:
    p = icon_path(name)
    return QtGui.QIcon(str(p)) if p.is_file() else QtGui.QIcon()


def install_translators(app: QtWidgets.QApplication, lang: str) -> None:
    """Load Qt's own strings (buttons of dialogs) and the app's compiled catalog for `lang`."""
    for t in _translators:
        app.removeTranslator(t)
    _translators.clear()
    if lang == "en":
        return
    from gpucheck.catalog import resource_path

    qt_dir = QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.TranslationsPath)
    candidates = [
        (f"qtbase_{lang}", qt_dir),
        (f"gpucheck_{lang}", str(resource_path("translations"))),
    ]
    for name, folder in candidates:
        t = QtCore.QTranslator(app)
        if t.load(name, folder):
            app.installTranslator(t)
            _translators.append(t)


def set_app_language(lang: str | None) -> str:
    """Switch the whole app's language (core catalog + Qt translators). Returns the language in force."""
    chosen = i18n.set_language(lang)
    app = QtWidgets.QApplication.instance()
    if app is not None:
        install_translators(app, chosen)
        QtCore.QLocale.setDefault(QtCore.QLocale(QtCore.QLocale.Language.Chinese, QtCore.QLocale.Country.China)
                           if chosen == "zh_CN" else QtCore.QLocale(QtCore.QLocale.Language.English))
    return chosen


def add_bundled_fonts() -> None:
    """Fonts shipped in resources/fonts (a CJK font, so Chinese renders on any machine)."""
    from gpucheck.catalog import resource_path

    folder = resource_path("fonts")
    if not folder.is_dir():
        return
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in (".ttf", ".otf", ".ttc"):
            QtGui.QFontDatabase.addApplicationFont(str(f))


def show_error(parent, exc: BaseException, log_path: str) -> None:
    """An unexpected error: say what happened in plain words and where the details are; keep running."""
    box = QtWidgets.QMessageBox(parent)
    box.setIcon(QtWidgets.QMessageBox.Icon.Critical)
    box.setWindowTitle(tr("Something went wrong"))
    box.setText(tr("gpucheck hit an unexpected problem, but it is still running. "
                   "You can carry on or start over."))
    box.setInformativeText(tr("Details were saved to the log file: {path}", path=log_path))
    box.setDetailedText("".join(traceback.format_exception_only(type(exc), exc)).strip())
    box.setStandardButtons(QtWidgets.QMessageBox.StandardButton.Ok)
    box.setObjectName("errorDialog")
    box.open()  # not exec(): never nest event loops inside an exception handler


def show_bad_input(parent, message: str, title: str | None = None) -> None:
    """A problem the user can fix (a bad file, an unwritable folder): one clear message."""
    box = QtWidgets.QMessageBox(parent)
    box.setIcon(QtWidgets.QMessageBox.Icon.Warning)
    box.setWindowTitle(title or tr("Cannot do that"))
    box.setText(message)
    box.setObjectName("badInputDialog")
    box.open()


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
        from gpucheck.errors import BadInput
        from gpucheck.logs import log_exception

        if isinstance(exc, BadInput):
            show_bad_input(self.window, str(exc))
            return
        path = log_exception(exc)
        try:
            show_error(self.window, exc, path)
        except Exception:  # the dialog itself failed: the log still has it
            sys.__excepthook__(exc_type, exc, tb)


error_hook = ErrorHook()


def after_show(app: QtWidgets.QApplication, window=None) -> None:
    """Work that can wait until the window is on screen."""
    app.setWindowIcon(icon("gpucheck"))
    if window is not None:
        window.welcome.load_icons()
    if i18n.get_language() != "zh_CN":
        add_bundled_fonts()  # so that switching to Chinese later finds the font


def create_window(machine_file: str | None = None):
    from gpucheck.ui.wizard import Wizard

    w = Wizard()
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


def run_app(machine_file: str | None = None, lang: str | None = None) -> int:
    """Open the desktop app. `machine_file`: a saved scan to open instead of scanning; `lang`: en | zh_CN."""
    app = make_application()
    set_app_language(lang)
    sys.excepthook = error_hook
    if i18n.get_language() == "zh_CN":
        add_bundled_fonts()  # Chinese text needs a CJK font before the first paint
    w = create_window(machine_file)
    w.show()
    QTimer.singleShot(0, lambda: after_show(app, w))
    try:
        return app.exec()
    finally:
        sys.excepthook = sys.__excepthook__
