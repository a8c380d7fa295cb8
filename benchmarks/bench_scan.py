"""How long `gpucheck scan --json` takes, beside `python -m torch.utils.collect_env` and `inxi -Fxz`.

    .venv/bin/python benchmarks/bench_scan.py [--runs N] [--torch-python PATH]

Each command runs N times as a fresh process (what a user waits for); the median and the fastest are
printed. `--torch-python` names a Python that has torch installed (default: this one if it has torch,
else .venv-trial's, else /tmp/torchvenv/bin/python if present); inxi is used when it is on PATH. The goals:
the scan takes at most 0.10x collect_env's time and 0.25x inxi's. Each command starts as a user starts it:
a fresh process, the interpreter's start included, gpucheck through its `gpucheck` launcher when one is
installed beside this Python. Python's bytecode is cached for both Pythons (in a private folder, as an
installer compiles it; PYTHONDONTWRITEBYTECODE is ignored) and one unmeasured run of each command warms
the cache first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_startup import app_launcher  # how an installed gpucheck starts: its launcher beside this Python

ROOT = Path(__file__).resolve().parent.parent
GOAL_VS_COLLECT_ENV = 0.10
GOAL_VS_INXI = 0.25


def time_command(argv: list[str], runs: int, env: dict | None = None) -> list[float] | None:
    """Wall seconds of each of `runs` fresh processes of `argv` (after one unmeasured run). The wait blocks until
    the process ends: `subprocess.run(timeout=...)` would poll with sleeps of up to 50 ms, which adds up to 50 ms
    to a 0.1 s command; a timer kills a run that hangs instead."""
    times = []
    for i in range(runs + 1):  # the first run compiles and warms the caches: not counted
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        except OSError:
            return None
        watchdog = threading.Timer(300, proc.kill)
        watchdog.start()
        rc = proc.wait()
        elapsed = time.perf_counter() - t0
        watchdog.cancel()
        if rc != 0:
            return None
        if i:
            times.append(elapsed)
    return times


def torch_python(explicit: str | None) -> str | None:
    candidates = [explicit] if explicit else [sys.executable, str(ROOT / ".venv-trial" / "bin" / "python"),
                                              "/tmp/torchvenv/bin/python"]
    for py in candidates:
        if py and Path(py).exists():
            ok = subprocess.run([py, "-c", "import importlib.util,sys; sys.exit(importlib.util.find_spec('torch') is None)"],
                                capture_output=True)
            if ok.returncode == 0:
                return py
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--torch-python", default=None)
    args = ap.parse_args()
    pycache = tempfile.TemporaryDirectory(prefix="gpucheck-bench-pyc-")
    env = {**os.environ, "GPUCHECK_LANG": "en", "PYTHONPYCACHEPREFIX": pycache.name}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    rows: list[tuple[str, list[float] | None, str]] = []
    rows.append(("gpucheck scan --json", time_command([*app_launcher(), "scan", "--json"], args.runs, env), ""))
    py = torch_python(args.torch_python)
    if py:
        rows.append(("python -m torch.utils.collect_env",
                     time_command([py, "-m", "torch.utils.collect_env"], args.runs, env), py))
    else:
        rows.append(("python -m torch.utils.collect_env", None, "torch not installed"))
    inxi = shutil.which("inxi")
    rows.append(("inxi -Fxz", time_command([inxi, "-Fxz"], args.runs, env) if inxi else None,
                 "" if inxi else "inxi not installed"))
    print(f"{'command':<36} {'median s':>9} {'min s':>7}  runs  note")
    med = {}
    for name, times, note in rows:
        if times:
            med[name] = statistics.median(times)
            print(f"{name:<36} {med[name]:>9.3f} {min(times):>7.3f}  {len(times):>4}  {note}")
        else:
            print(f"{name:<36} {'-':>9} {'-':>7}  {'-':>4}  {note or 'failed'}")
    scan = med.get("gpucheck scan --json")
    ce = med.get("python -m torch.utils.collect_env")
    ix = med.get("inxi -Fxz")
    if scan and ce:
        print(f"scan / collect_env = {scan / ce:.2f} (goal <= {GOAL_VS_COLLECT_ENV:.2f})")
    if scan and ix:
        print(f"scan / inxi        = {scan / ix:.2f} (goal <= {GOAL_VS_INXI:.2f})")
    pycache.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
