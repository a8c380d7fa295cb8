"""Smoke-test a frozen or installed gpucheck: the CLI scans, the catalogs load, the window opens and closes.

    python packaging/smoke_test.py dist/gpucheck/gpucheck                 # Linux one-folder app
    python packaging/smoke_test.py /usr/bin/gpucheck --xvfb               # installed .deb, real X server
    python packaging/smoke_test.py dist\\gpucheck\\gpucheck.exe            # Windows
    python packaging/smoke_test.py dist/gpucheck.app/Contents/MacOS/gpucheck

Without --xvfb the window opens on Qt's offscreen platform. Exits 0 when everything passed, else 1
with one line per failure. Uses only the standard library (runs with any Python 3.10+).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

SCAN_KEYS = ("schema_version", "gpus", "cpu", "memory", "disks", "power", "software", "findings")


def _run(cmd: list[str], env: dict, timeout: int = 180) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env=env, timeout=timeout)


def smoke(exe: str, xvfb: bool) -> list[str]:
    failures: list[str] = []
    home = tempfile.mkdtemp(prefix="gpucheck-smoke-")
    env = {**os.environ, "GPUCHECK_LANG": "en", "XDG_STATE_HOME": os.path.join(home, "state"),
           "XDG_CONFIG_HOME": os.path.join(home, "config")}
    env.pop("QT_QPA_PLATFORM", None)

    r = _run([exe, "--version"], env)
    print(f"--version: {(r.stdout + r.stderr).strip()}")
    if r.returncode != 0:
        failures.append(f"--version exited {r.returncode}: {r.stderr.strip()[-500:]}")

    r = _run([exe, "scan", "--json"], env)
    if r.returncode != 0:
        failures.append(f"scan --json exited {r.returncode}: {r.stderr.strip()[-500:]}")
    else:
        try:
            machine = json.loads(r.stdout)
            missing = [k for k in SCAN_KEYS if k not in machine]
            if missing:
                failures.append(f"scan --json lacks {missing}")
            else:
                gpus = ", ".join(g.get("name", "?") for g in machine["gpus"]) or "no GPU"
                print(f"scan: {machine['cpu'].get('brand')}; {gpus}; {len(machine['findings'])} findings")
        except json.JSONDecodeError as e:
            failures.append(f"scan --json printed no JSON: {e}")

    r = _run([exe, "workloads", "--json"], env)
    if r.returncode != 0:
        failures.append(f"workloads --json exited {r.returncode}: {r.stderr.strip()[-500:]}")
    else:
        try:
            n = len(json.loads(r.stdout))
            print(f"workloads: {n}")
            if n == 0:
                failures.append("workloads --json lists no built-in workloads (resources not found?)")
        except json.JSONDecodeError as e:
            failures.append(f"workloads --json printed no JSON: {e}")

    gui_env = {**env, "GPUCHECK_SMOKE_TEST": "1"}
    if xvfb:
        if not shutil.which("xvfb-run"):
            return failures + ["--xvfb given but xvfb-run is not installed"]
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", exe]
    else:
        gui_env["QT_QPA_PLATFORM"] = "offscreen"
        cmd = [exe]
    r = _run(cmd, gui_env)
    shown = [ln for ln in r.stdout.splitlines() if ln.startswith("smoke-test: window shown")]
    print(f"gui: {shown[0] if shown else 'no window'} (exit {r.returncode})")
    if r.returncode != 0 or not shown:
        failures.append(f"the desktop app did not open and close cleanly (exit {r.returncode}): "
                        f"{(r.stdout + r.stderr).strip()[-800:]}")
    shutil.rmtree(home, ignore_errors=True)
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exe", help="the gpucheck program to test")
    ap.add_argument("--xvfb", action="store_true", help="open the window on a virtual X server (Linux)")
    args = ap.parse_args()
    failures = smoke(args.exe, args.xvfb)
    for f in failures:
        print(f"FAILED: {f}", file=sys.stderr)
    print("smoke test passed" if not failures else f"smoke test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
