"""Every speed figure in one run: prints the machine it ran on, then each benchmark's own table.

    .venv/bin/python benchmarks/run_all.py [--runs N] [--only scan,startup,verdicts,advise,report]

Sections (each is its own script in benchmarks/, run as a fresh process; see its docstring):
- scan       bench_scan.py      `gpucheck scan --json` vs `python -m torch.utils.collect_env` vs `inxi -Fxz`
- startup    bench_startup.py   first gpucheck window vs a bare PySide6 QWizard (offscreen unless a display is set)
- verdicts   bench_verdicts.py  every built-in workload's verdict on a catalog GPU and on recorded machines
- advise     bench_advise.py    advice for every workload on every recorded machine
- report     bench_report.py    report model, JSON, HTML and PDF for recorded machines
No thresholds and no pass/fail: figures to copy into docs/performance.md with the command above.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

SECTIONS = {  # name -> (script, takes --runs)
    "scan": ("bench_scan.py", True),
    "startup": ("bench_startup.py", True),
    "verdicts": ("bench_verdicts.py", False),
    "advise": ("bench_advise.py", True),
    "report": ("bench_report.py", False),
}


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def describe_machine() -> list[str]:
    """What the figures were measured on (no host name, no serial numbers)."""
    lines = [f"OS: {platform.system()} {platform.release()} ({platform.machine()}); Python {platform.python_version()}"]
    cpuinfo = _read("/proc/cpuinfo")
    model = next((ln.split(":", 1)[1].strip() for ln in cpuinfo.splitlines() if ln.startswith("model name")), None)
    lines.append(f"CPU: {model or platform.processor() or 'unknown'}; {os.cpu_count()} logical cores")
    try:
        import psutil

        lines.append(f"RAM: {psutil.virtual_memory().total / 1024**3:.1f} GiB")
    except ImportError:
        pass
    vm = None
    for p in ("/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name", "/sys/hypervisor/type"):
        v = _read(p).strip()
        if v:
            vm = (vm + " / " if vm else "") + v
    if " hypervisor" in cpuinfo:
        lines.append(f"Virtual machine: yes ({vm or 'hypervisor flag set'})")
    smi = shutil.which("nvidia-smi")
    lines.append("GPU: " + ("nvidia-smi present" if smi else "none found (no nvidia-smi, no GPU driver)"))
    lines.append(f"Display: {os.environ.get('DISPLAY') or 'none'}; QT_QPA_PLATFORM="
                 f"{os.environ.get('QT_QPA_PLATFORM', '(unset: offscreen is used)')}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="repetitions for the benchmarks that take --runs")
    ap.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections to run")
    ap.add_argument("--timeout", type=int, default=900, help="seconds allowed per section")
    args = ap.parse_args()
    env = {**os.environ, "GPUCHECK_LANG": "en"}
    if sys.platform.startswith("linux") and not env.get("DISPLAY"):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    print("gpucheck benchmarks —", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    print("command: " + " ".join([Path(sys.executable).name, "benchmarks/run_all.py", *sys.argv[1:]]))
    for line in describe_machine():
        print("  " + line)
    status = 0
    for name in [s.strip() for s in args.only.split(",") if s.strip()]:
        if name not in SECTIONS:
            print(f"\n## {name}: unknown section (choose from {', '.join(SECTIONS)})")
            status = 2
            continue
        script, takes_runs = SECTIONS[name]
        argv = [sys.executable, str(HERE / script)] + (["--runs", str(args.runs)] if takes_runs else [])
        shown = " ".join(["python", f"benchmarks/{script}", *argv[2:]])
        print(f"\n## {name} — {shown}", flush=True)
        t0 = time.perf_counter()
        try:
            r = subprocess.run(argv, cwd=ROOT, env=env, timeout=args.timeout)
            rc = r.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        print(f"(section took {time.perf_counter() - t0:.1f} s, exit {rc})", flush=True)
        if rc != 0:
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
