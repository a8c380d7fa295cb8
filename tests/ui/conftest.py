"""Wizard tests: off-screen Qt, recorded machines from tests/fixtures/machines, a private log folder."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import FIXTURES

MACHINES = sorted((FIXTURES / "machines").glob("*.json"))


def machine_path(*words: str):
    """The recorded machine whose file name holds all `words` (e.g. 'rtx', '3060')."""
    for p in MACHINES:
        if all(w in p.stem for w in words):
            return p
    raise LookupError(f"no recorded machine matching {words} in {[p.name for p in MACHINES]}")


@pytest.fixture(autouse=True)
def _private_state(tmp_path, monkeypatch):
    """Logs go to a temporary folder; English unless a test switches; the excepthook is restored."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    from gpucheck.ui.app import set_app_language

    set_app_language("en")
    old_hook = sys.excepthook
    yield
    sys.excepthook = old_hook
    set_app_language("en")


@pytest.fixture
def wizard(qtbot):
    from gpucheck.ui.app import create_window, error_hook, make_application

    make_application()
    w = create_window(None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    error_hook.window = None
    if w.welcome.is_scanning():
        w.welcome.cancel_scan()


@pytest.fixture
def dialogs(monkeypatch):
    """Every message box the app opens, recorded instead of shown (they are opened non-modally)."""
    from PySide6.QtWidgets import QMessageBox

    opened: list[QMessageBox] = []
    real_open = QMessageBox.open

    def record(self, *a, **k):
        opened.append(self)
        return real_open(self, *a, **k)

    monkeypatch.setattr(QMessageBox, "open", record)
    yield opened
    for box in opened:
        box.close()
