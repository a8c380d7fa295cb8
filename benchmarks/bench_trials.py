"""Trials of the built-in jobs at small settings on this machine, beside the estimate for the same PC:
the rows of "Trials on this machine's CPU" in docs/accuracy.md.

Run: .venv/bin/python benchmarks/bench_trials.py [--python .venv-trial/bin/python] [--max-seconds 20]
         [--only JOB ...] [--out trials.json]
Each job runs through `gpucheck trial --json` (a fresh child process each, so the peak resident memory
is that job's own). Prints a Markdown table; --out keeps the raw JSON.

     .venv/bin/python benchmarks/bench_trials.py --reestimate trials.json --machine SCAN.json
prints the same table for trials measured earlier, each estimated again with the current model for the machine
whose scan is SCAN.json, uncalibrated, as the trial estimates it (tests/core/test_cpu_trials_intel.py checks the
rows with it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gpucheck.catalog import get_workload
from gpucheck.estimate import apply_overrides, estimate
from gpucheck.estimate.calibration import ENV_DIR
from gpucheck.machine import Machine
from gpucheck.trial.calibrate import as_run, cpu_share, idle_step_seconds, raw_target, trial_workload

ROOT = Path(__file__).resolve().parents[1]

# job, settings small enough for a 2-core CPU with 24 GiB shared with other work
JOBS = [
    ("mnist-cnn", ["--batch", "64"]),
    ("cifar10-resnet18", ["--batch", "128"]),
    ("resnet50-finetune", ["--batch", "8"]),
    ("imagenet-resnet50", ["--batch", "8"]),
    ("bert-base-finetune", ["--batch", "8", "--seq-len", "128"]),
    ("gpt2-124m-pretrain", ["--batch", "1", "--seq-len", "256"]),
    ("qwen2.5-1.5b-lora", ["--batch", "1", "--seq-len", "128"]),
    ("whisper-small-finetune", ["--batch", "1"]),
    ("sd15-lora", ["--batch", "1", "--image-size", "256"]),
    ("yolov8s-finetune", ["--batch", "2", "--image-size", "320"]),
]


def _run(python: str, job: str, args: list[str], max_seconds: float) -> dict:
    cmd = [sys.executable, "-m", "gpucheck", "trial", job, *args, "--python", python, "--max-seconds",
           str(max_seconds), "--json"]
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as store:  # each trial's estimate uncalibrated: no earlier trial's calibration
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=max_seconds + 900, check=False,
                              env=dict(os.environ, **{ENV_DIR: store}))
    try:
        data = json.loads(done.stdout)
    except ValueError:
        data = {"workload": job, "outcome": "failed", "message": done.stderr.strip()[-300:]}
    data["settings"] = " ".join(args)
    data["wall_seconds"] = round(time.monotonic() - t0, 1)
    data["load_average"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return data


def _idle_samples_per_s(m: dict) -> float | None:
    """Samples/s as an idle PC would run the same steps: batch ÷ the step's CPU seconds per thread where the
    runner's threads had the cores less than the trial's busy share (gpucheck/trial/calibrate.idle_step_seconds)."""
    step = idle_step_seconds(m) if m else None
    batch = m.get("batch") if m else None
    return float(batch) / step if step and batch else None


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _row(d: dict) -> str:
    m, e = d.get("measured") or {}, d.get("estimated") or {}
    if d.get("outcome") != "ran":
        return f"| {d['workload']}, {d['settings']} | {d.get('outcome')}: {d.get('message', '')[:120]} | | | | | |"
    sps, est, idle = m.get("samples_per_second"), e.get("samples_per_second"), _idle_samples_per_s(m)
    ratio = f" ({est / idle:.2f}×)" if idle and est else ""
    share = cpu_share(m)
    return (f"| {d['workload']}, {d['settings']} | {_num(sps)} | {_num(idle) if idle else '–'} ({share or 1:.0%}) | {_num(est)}{ratio} "
            f"| {m.get('peak_memory_gib'):.2f} GiB | {e.get('peak_memory_gib'):.2f} GiB | {d.get('load_average') or 0:.1f} |")


def reestimated(d: dict, machine: Machine) -> dict:
    """A trial's result with its "estimated" figures from the current model (uncalibrated, as the trial estimates)."""
    if d.get("outcome") != "ran":
        return d
    m = d["measured"]
    words = d["settings"].split()
    opts = {words[i].lstrip("-").replace("-", "_"): int(words[i + 1]) for i in range(0, len(words), 2)}
    w = trial_workload(apply_overrides(get_workload(d["workload"]), **opts), machine, "cpu")
    est = estimate(as_run(w, m, keep_batch=True), raw_target(machine, "cpu"))
    return dict(d, estimated=dict(d.get("estimated") or {}, samples_per_second=est.samples_per_second,
                                  peak_memory_gib=est.ram_bytes / 1024**3))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reestimate", help="a --out file of earlier trials: print them with today's estimates")
    ap.add_argument("--machine", help="with --reestimate: the scan of the machine the trials ran on")
    ap.add_argument("--python", default=str(ROOT / ".venv-trial" / "bin" / "python"))
    ap.add_argument("--max-seconds", type=float, default=20)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.reestimate:
        machine = Machine.load(a.machine)
        for d in json.loads(Path(a.reestimate).read_text(encoding="utf-8")):
            print(_row(reestimated(d, machine)))
        return 0
    results = []
    for job, args in JOBS:
        if a.only and job not in a.only:
            continue
        d = _run(a.python, job, args, a.max_seconds)
        results.append(d)
        print(_row(d), flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(results, indent=1) + "\n")
    print("| job, settings | measured samples/s | as on an idle PC (threads' share of the step) "
          "| estimated (÷ idle) | peak RSS | estimated RAM | load |")
    for d in results:
        print(_row(d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
