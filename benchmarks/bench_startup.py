"""Start-up time: the gpucheck window vs a bare PySide6 QWizard, from process start to first window shown.

Each measurement is a fresh Python process (imports included, as a user's double-click would pay),
timed from just before `import PySide6` to the first event-loop turn after `show()`.
The goal is that gpucheck's first window appears within 2× the bare QWizard's time.

    .venv/bin/python benchmarks/bench_startup.py [--runs N]     (uses QT_QPA_PLATFORM, offscreen if unset)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BARE = r"""
import time, sys
t0 = time.perf_counter()
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWizard, QWizardPage
app = QApplication([sys.argv[0]])
w = QWizard()
w.addPage(QWizardPage())
w.resize(1100, 760)
w.show()
def done():
    print(f"SHOWN {time.perf_counter() - t0:.6f}")
    app.quit()
QTimer.singleShot(0, done)
app.exec()
"""

APP = r"""
import time, sys
t0 = time.perf_counter()
from PySide6.QtCore import QTimer
from gpucheck.ui import app as ui_app
qapp = ui_app.make_application([sys.argv[0]])
ui_app.set_app_language(None)
sys.excepthook = ui_app.error_hook
w = ui_app.create_window(None)
w.show()
def done():
    print(f"SHOWN {time.perf_counter() - t0:.6f}")
    heavy = [m for m in ("gpucheck.probe", "cpuinfo", "pynvml", "psutil", "gpucheck.estimate",
                         "gpucheck.advise", "gpucheck.report") if m in sys.modules]
    print("HEAVY " + ",".join(heavy))
    qapp.quit()
QTimer.singleShot(0, done)
QTimer.singleShot(0, lambda: ui_app.after_show(qapp, w))  # what the app does next (icons), after the mark
qapp.exec()
"""


def measure(code: str) -> tuple[float, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    t_start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    wall = time.perf_counter() - t_start
    shown = None
    heavy = ""
    for line in out.stdout.splitlines():
        if line.startswith("SHOWN "):
            shown = float(line.split()[1])
        if line.startswith("HEAVY "):
            heavy = line[6:]
    if shown is None:
        raise SystemExit(f"measurement failed:\n{out.stdout}\n{out.stderr}")
    return shown, f"{wall:.3f}", heavy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    measure(BARE)  # warm the disk cache once
    bare, app, walls_b, walls_a, heavy = [], [], [], [], ""
    for _ in range(args.runs):
        s, w, _h = measure(BARE)
        bare.append(s)
        walls_b.append(float(w))
        s, w, heavy = measure(APP)
        app.append(s)
        walls_a.append(float(w))
    mb, ma = statistics.median(bare), statistics.median(app)
    print(f"platform: {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}, runs: {args.runs}")
    print(f"bare QWizard   first window: median {mb * 1000:7.1f} ms  (min {min(bare) * 1000:.1f}, "
          f"max {max(bare) * 1000:.1f}); process wall median {statistics.median(walls_b) * 1000:.0f} ms")
    print(f"gpucheck       first window: median {ma * 1000:7.1f} ms  (min {min(app) * 1000:.1f}, "
          f"max {max(app) * 1000:.1f}); process wall median {statistics.median(walls_a) * 1000:.0f} ms")
    print(f"ratio gpucheck / bare: median {ma / mb:.2f}, best-of-{args.runs} {min(app) / min(bare):.2f}  "
          f"(goal: at most 2.00; on a busy machine the best-of figure is the steadier one)")
    print(f"heavy modules loaded before the window: {heavy or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
