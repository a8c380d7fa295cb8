"""A fast start: the first window appears before the heavy parts of gpucheck are loaded.

The desktop app's first window must appear within 1.5× the time of a bare Qt wizard (issue 17;
measured by benchmarks/bench_startup.py, figures in docs/performance.md). Timing is not asserted here
(it depends on the machine); what decides it is: the scan, the estimator, the advice, the report, the
catalogs and importlib.metadata load after the window is shown, when the user starts a scan or opens a
file (gpucheck/lazy.py). This test starts the app the way a double-click does — a fresh process through
the `gpucheck` entry point, in its smoke-test mode — and lists what was loaded when the window appeared.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_startup", ROOT / "benchmarks" / "bench_startup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _first_window(tmp_path) -> dict:
    bench = _bench()
    env = bench.child_env(str(tmp_path / "pyc"))
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"))
    return bench.measure(bench.APP, env)


def test_first_window_appears_before_any_heavy_module_is_loaded(tmp_path):
    got = _first_window(tmp_path)
    assert got["heavy"] == [], (
        f"loaded before the first window: {got['heavy']}; defer them with gpucheck.lazy.lazy_import "
        f"(gpucheck modules loaded: {got['gpucheck']})")
    # the window is the wizard's first page only: pages 2-5 and the session come when first needed
    assert "gpucheck.ui.wizard" in got["gpucheck"] and "gpucheck.ui.pages.welcome" in got["gpucheck"]
    for later in ("gpucheck.ui.session", "gpucheck.ui.pages.jobs", "gpucheck.ui.pages.details",
                  "gpucheck.ui.pages.report", "gpucheck.ui.pages.machine", "gpucheck.machine"):
        assert later not in got["gpucheck"], f"{later} was loaded before the first window"


def test_the_command_line_does_not_load_qt():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from gpucheck.__main__ import main; rc = main(['gpus', '--json']); "
            "print('QT', sorted(m for m in sys.modules if m.startswith('PySide6')), file=sys.stderr); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "QT []" in done.stderr, f"the CLI loaded Qt: {done.stderr[-500:]}"
