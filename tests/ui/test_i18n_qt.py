"""The desktop app's Qt translator reads the same catalog as the core: the compiled .qm gives the same
Chinese for a string as the core's tr()."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QCoreApplication, QTranslator  # noqa: E402

from gpucheck import i18n  # noqa: E402
from tools.i18n_tools import read_ts  # noqa: E402


def test_qm_gives_the_same_chinese_as_the_core(qapp):
    qm = i18n.qm_path("zh_CN")
    assert qm.is_file(), "run: python tools/i18n_tools.py compile"
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    try:
        entries = [e for e in read_ts(i18n.translations_path("zh_CN")).entries if e.finished]
        assert entries
        for e in entries:
            with i18n.use_language("zh_CN"):
                core = i18n.tr(e.source)
            assert QCoreApplication.translate("gpucheck", e.source) == core == e.translation
    finally:
        QCoreApplication.removeTranslator(translator)
    assert QCoreApplication.translate("gpucheck", "unknown") == "unknown"
