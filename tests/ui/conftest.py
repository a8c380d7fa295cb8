"""Wizard tests: off-screen Qt, recorded machines from tests/fixtures/machines, a private log folder."""

from __future__ import annotations

import json
import sys

import pytest

from gpucheck.trial import TrialResult
from tests.conftest import FIXTURES

MACHINES = sorted((FIXTURES / "machines").glob("*.json"))
TRIAL_RESULTS = FIXTURES / "trial" / "results"


def recorded_trial(name: str) -> TrialResult:
    """A trial result recorded on a real machine (tests/fixtures/trial/results)."""
    return TrialResult.from_json(json.loads((TRIAL_RESULTS / name).read_text(encoding="utf-8")))


def run_recorded_trial(qtbot, panel, result: TrialResult) -> None:
    """Press "Try it for real" on the details page's trial panel, `result` standing in for the child process, and
    wait until the panel is done."""
    panel.run_fn = lambda workload, **_kw: result
    with qtbot.waitSignal(panel.measured, timeout=5000):
        panel.run_button.click()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=5000)


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
