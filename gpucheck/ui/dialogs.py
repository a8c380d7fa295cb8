"""Message boxes every page may open: an unexpected error, and a problem the user can fix.

A leaf of the ui package (Qt and gpucheck.i18n only), so pages and the application both use it
without importing each other.
"""

from __future__ import annotations

import traceback

from PySide6 import QtWidgets

from gpucheck.i18n import tr


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
