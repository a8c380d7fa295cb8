"""Each command loads what it uses: `gpucheck scan` — what a user runs most and waits for — loads the
probes, the Machine and its text, never the estimator, the advice, the report writers or the trial
(benchmarks/bench_scan.py times it against collect_env and inxi; docs/performance.md has the figures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gpucheck.probe.nvidia import LINUX_DRIVER_MARKERS

ROOT = Path(__file__).resolve().parents[2]
NEVER_FOR_A_SCAN = ("gpucheck.commands", "gpucheck.estimate", "gpucheck.advise", "gpucheck.report.model",
                    "gpucheck.report.html", "gpucheck.trial", "gpucheck.bench.cpu", "gpucheck.bench.disk",
                    "logging.handlers")


def _modules_after(argv: list[str]) -> tuple[list[str], str]:
    code = ("import sys, io, contextlib, json; from gpucheck.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out: rc = main(" + repr(argv) + ")\n"
            "print(json.dumps({'rc': rc, 'modules': sorted(sys.modules), 'out': out.getvalue()}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "GPUCHECK_LANG": "en"})
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["rc"] == 0
    return got["modules"], got["out"]


def test_scan_loads_only_what_a_scan_needs():
    modules, out = _modules_after(["scan", "--json"])
    assert json.loads(out)["schema_version"] >= 1  # the scan itself is complete
    loaded = [m for m in NEVER_FOR_A_SCAN if m in modules]
    assert loaded == [], f"`gpucheck scan` loaded {loaded}"
    if sys.platform.startswith("linux") and not any(Path(p).exists() for p in LINUX_DRIVER_MARKERS):
        assert "pynvml" not in modules, "no NVIDIA driver here, yet the scan loaded the NVML binding"


def test_the_catalog_commands_do_not_load_the_trial_or_the_report_model():
    modules, out = _modules_after(["gpus", "--json"])
    assert len(json.loads(out)) > 50
    assert [m for m in ("gpucheck.trial", "gpucheck.report.model", "PySide6") if m in modules] == []
