"""Page 1: the scan runs on a worker thread, results appear area by area, failures read as words."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from gpucheck.machine import Machine
from tests.ui.conftest import MACHINES


def _recorded():
    return Machine.load(MACHINES[0])


def test_window_opens_without_probing(qtbot):
    """Start-up never touches the hardware: the scan runs only when the user presses the button."""

    def boom(*a, **k):
        raise AssertionError("scan() ran before the user asked")

    from gpucheck.ui.app import create_window

    w = create_window(None, scan_fn=boom)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert w.welcome.scan_button.isEnabled()
    assert not w.button(QWizard.WizardButton.NextButton).isEnabled()  # nothing to show yet


def test_results_appear_progressively_and_window_stays_live(wizard, qtbot, monkeypatch):
    """A scan that reports area by area: each area's line fills in while the others still say
    'checking…', and the window keeps handling events while the worker thread waits."""
    machine = _recorded()
    step = threading.Event()
    areas = ["gpu", "cpu", "memory", "disk", "power", "software"]

    def slow_scan(on_progress=None, deep=False, on_partial=None, cancel=None):
        for i, area in enumerate(areas, 1):
            on_partial(machine)
            on_progress(area, i, len(areas))
            if i == 2:
                assert step.wait(10)  # the GUI thread must go on running meanwhile
        return machine
    wizard.scan_fn = slow_scan
    qtbot.mouseClick(wizard.welcome.scan_button, Qt.MouseButton.LeftButton)
    page = wizard.welcome
    qtbot.waitUntil(lambda: page.progress.value() == 2, timeout=5000)
    from gpucheck.ui.machine_view import part_view

    assert page.area_lines["gpu"].text() == part_view(machine, "gpu").summary
    assert page.area_lines["software"].text() == "checking…"
    assert not page.scan_button.isEnabled() and page.cancel_button.isEnabled()
    # the window still answers: switching language mid-scan works and keeps the partial results
    wizard.switch_language("en")
    assert page.area_lines["cpu"].text() == part_view(machine, "cpu").summary
    step.set()
    qtbot.waitUntil(lambda: wizard.session.machine is machine, timeout=5000)
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    assert page.area_lines["software"].text() == part_view(machine, "software").summary


def test_cancel_returns_at_once(wizard, qtbot, monkeypatch):
    release = threading.Event()

    def stuck_scan(on_progress=None, deep=False, on_partial=None, cancel=None):
        release.wait(10)
        return _recorded()
    wizard.scan_fn = stuck_scan
    wizard.welcome.start_scan()
    assert wizard.welcome.is_scanning()
    wizard.welcome.cancel_button.click()
    assert not wizard.welcome.is_scanning()
    assert wizard.welcome.scan_button.isEnabled()
    assert "cancelled" in wizard.welcome.status.text()
    # Escape cancels too
    wizard.welcome.start_scan()
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    assert not wizard.welcome.is_scanning() and wizard.isVisible()
    release.set()
    qtbot.wait(50)
    assert wizard.session.machine is None  # a cancelled scan's late result is ignored


def test_deep_checkbox_asks_for_a_deep_scan(wizard, qtbot, monkeypatch):
    seen = {}

    def fake(on_progress=None, deep=False, on_partial=None, cancel=None):
        seen["deep"] = deep
        return _recorded()
    wizard.scan_fn = fake
    wizard.welcome.deep.setChecked(True)
    wizard.welcome.start_scan()
    qtbot.waitUntil(lambda: wizard.session.machine is not None, timeout=5000)
    assert seen["deep"] is True


def test_failing_probe_shows_unknown_because(wizard, qtbot, monkeypatch):
    """The real scan on this computer, with the power probe broken: the power card says the power is
    unknown and why, and everything else is still there."""
    from gpucheck.probe import power

    def broken(src):
        raise OSError("battery interface not readable")

    monkeypatch.setattr(power, "probe", broken)
    wizard.welcome.start_scan()
    qtbot.waitUntil(lambda: wizard.session.machine is not None, timeout=30000)
    wizard.next()
    card = wizard.machine_page.cards["power"]
    assert "unknown because" in card.findings.text()
    assert "battery interface not readable" in card.findings.text()
    assert wizard.machine_page.cards["cpu"].summary.text()  # the other areas were still scanned


def test_scan_crash_is_reported_not_raised(wizard, qtbot, monkeypatch, tmp_path):
    def crash(**kwargs):
        raise RuntimeError("probe thread exploded")
    wizard.scan_fn = crash
    wizard.welcome.start_scan()
    qtbot.waitUntil(lambda: not wizard.welcome.is_scanning(), timeout=5000)
    text = wizard.welcome.status.text()
    assert "could not finish" in text and "probe thread exploded" in text
    from gpucheck.logs import log_file

    assert "probe thread exploded" in log_file().read_text(encoding="utf-8")
    assert wizard.welcome.scan_button.isEnabled()  # the user can try again


@pytest.mark.parametrize("path", MACHINES, ids=[p.stem for p in MACHINES])
def test_machine_file_skips_the_scan(wizard, path):
    assert wizard.open_machine_file(str(path))
    m = wizard.session.machine
    assert m.label == path.stem
    assert path.stem in wizard.welcome.status.text()
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_bad_machine_file_is_one_clear_message(wizard, dialogs, tmp_path):
    bad = tmp_path / "not-a-scan.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    assert not wizard.open_machine_file(str(bad))
    assert len(dialogs) == 1
    assert "schema_version" in dialogs[0].text() and "not-a-scan.json" in dialogs[0].text()
    assert wizard.session.machine is None


def test_quitting_during_a_hung_scan_exits_cleanly(tmp_path):
    """A probe stuck in a driver call must not keep the app from closing, nor crash it on the way out."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = r"""
import sys, threading, time
hang = threading.Event()
def stuck_scan(on_progress=None, deep=False, on_partial=None, cancel=None):
    hang.wait()  # never returns
from PySide6.QtCore import QTimer
from gpucheck.ui import app as ui_app
qapp = ui_app.make_application([sys.argv[0]])
w = ui_app.create_window(None, scan_fn=stuck_scan)
w.show()
w.welcome.start_scan()
QTimer.singleShot(200, w.close)
QTimer.singleShot(300, qapp.quit)
qapp.exec()
print("closed", w.welcome.is_scanning())
"""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_STATE_HOME=str(tmp_path))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "closed False" in out.stdout


DEEP_SCAN = Path(__file__).resolve().parents[1] / "fixtures" / "recorded" / "calibration" / "intel-amx-2vcpu.deep-scan.json"


def test_a_deep_scans_figures_are_on_the_machine_page(wizard):
    """The app's deep scan takes half a minute: what it measured is shown on the parts it measured (recorded on
    gpucheck's build machine), in the reader's language, and a line says where to find it."""
    assert wizard.open_machine_file(str(DEEP_SCAN))
    wizard.next()
    page = wizard.machine_page
    memory = page.cards["memory"]
    memory.toggle.click()
    assert memory.details.isVisible()
    assert "RAM copy, one thread: 9.77 GB/s (measured)" in memory.details.text()
    assert "RAM copy, all threads: 17.9 GB/s (measured)" in memory.details.text()
    assert "Image decoding, all cores" in page.cards["cpu"].details.text()
    assert "Disk sequential read" in page.cards["disk"].details.text()
    assert "RAM copy" not in page.cards["cpu"].details.text()  # each figure on its own part
    assert "its figures are in the parts' details" in page.other.text()
    wizard.switch_language("zh_CN")
    assert "内存复制，全部线程: 17.9 GB/s" in page.cards["memory"].details.text()
