"""Where the five CPU trial jobs' steps go, beside the speed model's parts of the same steps.

    python benchmarks/bench_cpu_profile.py measure [--python PY] [--steps 3]   # profiles (user's Python), writes DATA
    python benchmarks/bench_cpu_profile.py show                                 # prints the table

`measure` writes each job's trial spec (one PyTorch thread, the settings of bench_calibration.py) and runs
benchmarks/profile_cpu_step.py with the Python that has torch; then adds, per job, the uncalibrated model's parts
of the same step for one core of this CPU (gpucheck/estimate/compute.py speed(): matmul, memory, dispatch; the
host part). docs/accuracy.md "Calibration on this PC" shows the table (bench_calibration.py doc).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_calibration as bc  # noqa: E402

from gpucheck.catalog import get_workload  # noqa: E402
from gpucheck.estimate import apply_overrides, core, estimate  # noqa: E402
from gpucheck.probe import scan  # noqa: E402
from gpucheck.trial.models import job_spec  # noqa: E402

DATA = bc.PROFILE_DATA


def model_parts(job: str, opts: dict, precision: str, target) -> dict[str, float]:
    """The uncalibrated model's parts of the job's step on one core (seconds)."""
    seen = {}
    real = core.speed

    def spy(*a, **k):
        seen["sp"] = real(*a, **k)
        return seen["sp"]

    core.speed = spy
    try:
        est = estimate(apply_overrides(get_workload(job), precision=precision, **opts), target)
    finally:
        core.speed = real
    sp = seen["sp"]
    return {"matmul_s": round(sp.matmul_seconds, 4), "memory_s": round(sp.memory_seconds, 4),
            "dispatch_s": round(sp.dispatch_seconds, 4), "host_s": round(float(est.host_step_seconds or 0.0), 4),
            "step_s": round(float(est.step_seconds), 4),
            "train_gflop_per_step": round(sp.flops_per_sample * float(opts.get("batch", 1)) / 1e9, 2)}


def measure(a: argparse.Namespace) -> int:
    machine = scan()
    specs = {j: dict(job_spec(bc._workload(j, o, machine), steps=None, max_seconds=10, device="cpu",
                              search_batch=False), threads=1) for j, o in bc.JOBS}
    with tempfile.TemporaryDirectory() as tmp:
        sp = Path(tmp) / "specs.json"
        sp.write_text(json.dumps(specs))
        subprocess.run([a.python, str(ROOT / "benchmarks" / "profile_cpu_step.py"), str(sp), str(DATA),
                        "--steps", str(a.steps), "--variants", "cifar10-resnet18:adamw,resnet50-finetune:sgd",
                        "--elementwise"], check=True)
    add_model(json.loads(bc.DATA.read_text()))
    return 0


def with_model_parts(data: dict, loo_data: dict) -> dict:
    """`data` (a profile) with each job's model parts for one core of the CPU that `loo_data` was measured on."""
    target = bc._one_core_target(loo_data)
    for job, opts in bc.JOBS:
        if job in data["jobs"]:
            data["jobs"][job]["model_one_core"] = model_parts(job, opts, data["jobs"][job]["precision"], target)
    return data


def add_model(loo_data: dict) -> None:
    data = with_model_parts(json.loads(DATA.read_text()), loo_data)
    data["machine"] = {"cpu": dataclasses.asdict(scan().cpu)}
    DATA.write_text(json.dumps(data, indent=1) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--python", default=str(ROOT / ".venv-trial" / "bin" / "python"))
    m.add_argument("--steps", type=int, default=3)
    sub.add_parser("show")
    a = ap.parse_args()
    if a.cmd == "measure":
        return measure(a)
    if bc.PROFILE_DATA.exists():
        print("\n".join(bc.profile_table(bc.profile_data(bc.PROFILE_DATA, bc.DATA))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
