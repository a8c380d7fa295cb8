"""Start-up time: the gpucheck window vs a bare PySide6 QWizard, from process start to first window shown.

Each measurement is a fresh Python process, started the way a double-click starts the app: gpucheck
through its entry point (`gpucheck.__main__.main()` with no arguments, which opens the desktop app).
Both programs are timed from the first line of the child process (before any import of Qt or gpucheck)
to the first event-loop turn after the window's show() (wall clock and CPU time); the whole process's
time (interpreter start included) is printed beside it. Python bytecode is cached for the children in a private folder (as an
installed or frozen app has it compiled), and one unmeasured run of each warms the disk cache.
The goal (issue 17) is that gpucheck's first window appears within 1.5× the bare QWizard's time.

    .venv/bin/python benchmarks/bench_startup.py [--runs N]     (uses QT_QPA_PLATFORM, offscreen if unset)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_RATIO = 1.5

# Modules that must not be loaded before the first window: what the app only needs once the user acts.
HEAVY = ("importlib.metadata", "tomllib", "psutil", "cpuinfo", "pynvml", "gpucheck.cli", "gpucheck.commands",
         "gpucheck.probe", "gpucheck.catalog", "gpucheck.estimate", "gpucheck.advise", "gpucheck.report",
         "gpucheck.bench", "gpucheck.trial", "gpucheck.logs", "logging.handlers", "platformdirs")

BARE = r"""
import time, sys
t0, c0 = time.perf_counter(), time.process_time()
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage
app = QApplication([sys.argv[0]])
w = QWizard()
w.addPage(QWizardPage())
w.resize(1100, 760)
w.show()
def done():
    print(f"SHOWN {time.perf_counter() - t0:.6f}\nCPU {time.process_time() - c0:.6f}\nMODULES {len(sys.modules)}",
          flush=True)
    app.quit()
QTimer.singleShot(0, done)
app.exec()
"""

# The app is started by its entry point exactly as a double-click starts it (no smoke-test mode: its
# event filter sees every event and would add ~30 ms). The time is taken at the first event-loop turn
# after the window's show(), as BARE does; QWizard.show is wrapped for that (the app's window is one).
APP = r"""
import time, sys, os
t0, c0 = time.perf_counter(), time.process_time()
HEAVY = __HEAVY__
from gpucheck.__main__ import main  # what the `gpucheck` launcher imports first
from PySide6.QtCore import QTimer  # what main() imports next; needed here to see the window appear
from PySide6.QtWidgets import QWizard

def done():
    shown, cpu = time.perf_counter() - t0, time.process_time() - c0
    heavy = [m for m in HEAVY if m in sys.modules]
    gp = sorted(m for m in sys.modules if m == "gpucheck" or m.startswith("gpucheck."))
    sys.stdout.write(f"SHOWN {shown:.6f}\nCPU {cpu:.6f}\nHEAVY {','.join(heavy)}\nMODULES {len(sys.modules)}\n"
                     f"GPUCHECK {','.join(gp)}\n")
    sys.stdout.flush()
    os._exit(0)

_show = QWizard.show
def show(self):
    _show(self)
    QTimer.singleShot(0, done)
QWizard.show = show

main([])
""".replace("__HEAVY__", repr(HEAVY))


def child_env(pycache: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("GPUCHECK_SMOKE_TEST", None)
    env["PYTHONPYCACHEPREFIX"] = pycache  # compiled once, like an installed app; the tree stays clean
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(code: str, env: dict[str, str]) -> dict:
    """One fresh process: {'shown': s, 'cpu': s, 'wall': s, 'heavy': [...], 'gpucheck': [...], 'modules': n}."""
    t_start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    wall = time.perf_counter() - t_start
    got: dict = {"wall": wall, "heavy": [], "gpucheck": [], "modules": None, "shown": None, "cpu": None}
    for line in out.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key in ("SHOWN", "CPU"):
            got[key.lower()] = float(value)
        elif key in ("HEAVY", "GPUCHECK"):
            got[key.lower() if key == "HEAVY" else "gpucheck"] = [m for m in value.split(",") if m]
        elif key == "MODULES":
            got["modules"] = int(value)
    if got["shown"] is None:
        raise SystemExit(f"measurement failed:\n{out.stdout}\n{out.stderr}")
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gpucheck-bench-pyc-") as pycache:
        env = child_env(pycache)
        measure(BARE, env)  # compile and warm the disk cache once
        measure(APP, env)
        bare, app, walls_b, walls_a, cpu_b, cpu_a, last = [], [], [], [], [], [], {}
        for _ in range(args.runs):
            b = measure(BARE, env)
            last = measure(APP, env)
            bare.append(b["shown"])
            cpu_b.append(b["cpu"])
            cpu_a.append(last["cpu"])
            walls_b.append(b["wall"])
            app.append(last["shown"])
            walls_a.append(last["wall"])
    mb, ma = statistics.median(bare), statistics.median(app)
    print(f"platform: {env['QT_QPA_PLATFORM']}, runs: {args.runs} (each a fresh process, alternating)")
    print(f"bare QWizard   first window: median {mb * 1000:7.1f} ms  (min {min(bare) * 1000:.1f}, "
          f"max {max(bare) * 1000:.1f}); process wall median {statistics.median(walls_b) * 1000:.0f} ms")
    print(f"gpucheck       first window: median {ma * 1000:7.1f} ms  (min {min(app) * 1000:.1f}, "
          f"max {max(app) * 1000:.1f}); process wall median {statistics.median(walls_a) * 1000:.0f} ms")
    print(f"ratio gpucheck / bare: median {ma / mb:.2f}, best-of-{args.runs} {min(app) / min(bare):.2f}  "
          f"(goal: at most {GOAL_RATIO:.2f})")
    cb, ca = statistics.median(cpu_b), statistics.median(cpu_a)
    print(f"CPU time to the first window (the steadier figure when other programs compete for the CPU): bare "
          f"{cb * 1000:.1f} ms, gpucheck {ca * 1000:.1f} ms (medians), ratio {ca / cb:.2f}")
    print(f"heavy modules loaded before the window: {','.join(last['heavy']) or 'none'}")
    print(f"modules loaded before the window: bare {b['modules']}, gpucheck {last['modules']} "
          f"({len(last['gpucheck'])} of gpucheck: "
          f"{', '.join(m.removeprefix('gpucheck.') for m in last['gpucheck'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
