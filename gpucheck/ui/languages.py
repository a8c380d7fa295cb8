"""The app's languages: their names, and switching the whole app (core catalog + Qt translators).

A leaf of the ui package: the application, the wizard and the report page all use it.
"""

from __future__ import annotations

import os

import PySide6
from PySide6 import QtCore, QtGui, QtWidgets

from gpucheck import i18n
from gpucheck.resources import resource_path

LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}  # each in its own language, never translated

_translators: list[QtCore.QTranslator] = []

# Qt 6's file dialog labels that qtbase_zh_CN.qm (PySide6's translations folder) has only in their Qt 5 form
# ("Look in:", "Files of type:"); Qt's own zh_CN wording of those, with the shortcut as Qt's zh_CN writes it.
_QT_GAPS = {"zh_CN": {("QFileDialog", "&Look in:"): "查找范围(&L)：",
                      ("QFileDialog", "Files of &type:"): "文件类型(&T)："}}


class _QtGaps(QtCore.QTranslator):
    """A translator for the few Qt strings its shipped catalog lacks (empty: the next translator answers)."""

    def __init__(self, parent, lang: str):
        super().__init__(parent)
        self._table = _QT_GAPS.get(lang, {})

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: ARG002 — Qt's signature
        return self._table.get((context, source_text), "")

    def isEmpty(self) -> bool:  # noqa: N802 — Qt's name
        return not self._table


def _qt_translations_dirs() -> list[str]:
    """Where Qt's own catalogs are: PySide6's translations folder (pip wheels, frozen apps), then Qt's path."""
    dirs = [str(QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.TranslationsPath))]
    pkg = os.path.join(os.path.dirname(PySide6.__file__), "Qt", "translations")
    return [pkg, *[d for d in dirs if d != pkg]]


def next_language(lang: str) -> str:
    """The language after `lang` (Ctrl+L switches to it)."""
    codes = list(LANGUAGE_NAMES)
    return codes[(codes.index(lang) + 1) % len(codes)] if lang in codes else codes[0]


def install_translators(app: QtWidgets.QApplication, lang: str) -> None:
    """Load Qt's own strings (buttons of dialogs) and the app's compiled catalog for `lang`."""
    for t in _translators:
        app.removeTranslator(t)
    _translators.clear()
    if lang == "en":
        return
    gaps = _QtGaps(app, lang)
    app.installTranslator(gaps)
    _translators.append(gaps)
    for name, folders in ((f"qtbase_{lang}", _qt_translations_dirs()),
                          (f"gpucheck_{lang}", [str(resource_path("translations"))])):
        for folder in folders:
            t = QtCore.QTranslator(app)
            if t.load(name, folder):
                app.installTranslator(t)  # installed last: asked first (Qt asks the newest translator first)
                _translators.append(t)
                break


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
    folder = resource_path("fonts")
    if not folder.is_dir():
        return
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in (".ttf", ".otf", ".ttc"):
            QtGui.QFontDatabase.addApplicationFont(str(f))
