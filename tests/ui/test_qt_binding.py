"""The Qt binding must not leak references to None: on CPython < 3.12 None is a normal object, and
PySide6 6.12.0 dropped one reference per void call, aborting long sessions with "none_dealloc"."""

import sys


def test_void_qt_calls_keep_none_alive(qapp):
    from PySide6.QtWidgets import QLabel

    label = QLabel()
    label.setText("warm-up")
    before = sys.getrefcount(None)
    for i in range(2000):
        label.setText(str(i % 7))
    assert sys.getrefcount(None) >= before - 20, "the Qt binding drops references to None (PySide6 6.12.0?)"
