"""Start-up time: the gpucheck window vs a bare PySide6 QWizard, from process start to first window shown.

Two figures, each for both programs and each a fresh Python process (bytecode cached in a private folder,
as an installed or frozen app has it compiled; one unmeasured run of each warms the disk cache):

1. **From process start** (the headline, what a user waits for, measured as the installers' smoke test
   runs the app): the parent starts the process and notes when the line "smoke-test: window shown" arrives
   on the child's stdout. gpucheck runs through its `gpucheck` launcher when one is installed beside this
   Python (else `python -m gpucheck`) with GPUCHECK_SMOKE_TEST=1 (gpucheck/ui/smoke.py); the bare
   QWizard prints the same line from the same kind of Show-event watcher. The interpreter's start is in
   both.
2. **From the child's first line** (before any import of Qt or gpucheck) to the first event-loop turn
   after the window's show(), wall clock and CPU time: the part gpucheck's own code decides.

The goal (issue 17, again in issue 25) is that gpucheck's first window appears within 1.5× the bare
QWizard's time by both figures (target 1.2×).

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


# The bare wizard, watched as gpucheck/ui/smoke.py watches the app: an event filter on the window, installed
# before show(), prints one line when the window is shown.
BARE_SMOKE = r"""
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage
app = QApplication([sys.argv[0]])
class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Show and obj.windowTitle():
            print("smoke-test: window shown: bare", flush=True)
            QTimer.singleShot(0, app.quit)
        return False
watch = Watch(app)
w = QWizard()
w.setWindowTitle("bare")
w.addPage(QWizardPage())
w.resize(1100, 760)
w.installEventFilter(watch)
w.show()
app.exec()
"""


def app_launcher() -> list[str]:
    """How an installed gpucheck starts: its launcher beside this Python, else `python -m gpucheck`."""
    launcher = Path(sys.executable).with_name("gpucheck.exe" if os.name == "nt" else "gpucheck")
    return [str(launcher)] if launcher.exists() else [sys.executable, "-m", "gpucheck"]


def from_process_start(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from starting `argv` to the arrival of its "smoke-test: window shown" line; the process
    is then stopped (the app's smoke test would quit a second later)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    try:
        for line in proc.stdout:  # type: ignore[union-attr]
            if line.startswith("smoke-test: window shown"):
                return time.perf_counter() - t0
        raise SystemExit(f"no window was shown by {argv}")
    finally:
        proc.kill()
        proc.wait()


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
        smoke_env = {**env, "GPUCHECK_SMOKE_TEST": "1"}
        bare_argv, app_argv = [sys.executable, "-c", BARE_SMOKE], app_launcher()
        measure(BARE, env)  # compile and warm the disk cache once
        measure(APP, env)
        from_process_start(bare_argv, env)
        from_process_start(app_argv, smoke_env)
        bare, app, walls_b, walls_a, cpu_b, cpu_a, last = [], [], [], [], [], [], {}
        start_b, start_a = [], []
        for _ in range(args.runs):
            start_b.append(from_process_start(bare_argv, env))
            start_a.append(from_process_start(app_argv, smoke_env))
            b = measure(BARE, env)
            last = measure(APP, env)
            bare.append(b["shown"])
            cpu_b.append(b["cpu"])
            cpu_a.append(last["cpu"])
            walls_b.append(b["wall"])
            app.append(last["shown"])
            walls_a.append(last["wall"])
    print(f"platform: {env['QT_QPA_PLATFORM']}, runs: {args.runs} (each a fresh process, alternating)")
    sb, sa = statistics.median(start_b), statistics.median(start_a)
    print(f"1. from process start (as the installers' smoke test runs it: {' '.join(Path(a).name for a in app_argv)}, "
          f"GPUCHECK_SMOKE_TEST=1):")
    print(f"   bare QWizard {sb * 1000:7.1f} ms (min {min(start_b) * 1000:.1f}), gpucheck {sa * 1000:7.1f} ms "
          f"(min {min(start_a) * 1000:.1f}); ratio: median {sa / sb:.2f}, best-of-{args.runs} "
          f"{min(start_a) / min(start_b):.2f}  (goal: at most {GOAL_RATIO:.2f})")
    mb, ma = statistics.median(bare), statistics.median(app)
    print("2. from the child's first line to the first event-loop turn after show():")
    print(f"   bare QWizard first window: median {mb * 1000:7.1f} ms  (min {min(bare) * 1000:.1f}, "
          f"max {max(bare) * 1000:.1f}); process wall median {statistics.median(walls_b) * 1000:.0f} ms")
    print(f"   gpucheck     first window: median {ma * 1000:7.1f} ms  (min {min(app) * 1000:.1f}, "
          f"max {max(app) * 1000:.1f}); process wall median {statistics.median(walls_a) * 1000:.0f} ms")
    print(f"   ratio gpucheck / bare: median {ma / mb:.2f}, best-of-{args.runs} {min(app) / min(bare):.2f}  "
          f"(goal: at most {GOAL_RATIO:.2f})")
    cb, ca = statistics.median(cpu_b), statistics.median(cpu_a)
    print(f"   CPU time to the first window (the steadier figure when other programs compete for the CPU): bare "
          f"{cb * 1000:.1f} ms, gpucheck {ca * 1000:.1f} ms (medians), ratio {ca / cb:.2f}")
    print(f"heavy modules loaded before the window: {','.join(last['heavy']) or 'none'}")
    print(f"modules loaded before the window: bare {b['modules']}, gpucheck {last['modules']} "
          f"({len(last['gpucheck'])} of gpucheck: "
          f"{', '.join(m.removeprefix('gpucheck.') for m in last['gpucheck'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
