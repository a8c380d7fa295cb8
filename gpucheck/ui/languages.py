"""The app's languages: their names, and switching the whole app (core catalog + Qt translators).

A leaf of the ui package: the application, the wizard and the report page all use it.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gpucheck import i18n
from gpucheck.resources import resource_path

LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}  # each in its own language, never translated

_translators: list[QtCore.QTranslator] = []


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
    folder = resource_path("fonts")
    if not folder.is_dir():
        return
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in (".ttf", ".otf", ".ttc"):
            QtGui.QFontDatabase.addApplicationFont(str(f))
