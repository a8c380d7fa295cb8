"""The CPU target against real trials on a third CPU, one the model's CPU choices were not made on: the ten built-in
jobs `benchmarks/bench_trials.py` ran on the 2-vCPU AMD EPYC Zen 4 (2026-12-04, PyTorch 2.14.1, two threads, the
optimizer fused; raw results in benchmarks/data/trials-cpu-amd-zen4.json, the machine's scan in
tests/fixtures/recorded/calibration). Each job is estimated now, uncalibrated, as the trial estimates it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpucheck.estimate import Target
from gpucheck.estimate.factors import load_factors
from gpucheck.machine import Machine
from gpucheck.trial.calibrate import idle_step_seconds
from tests.helpers import bench_module

ROOT = Path(__file__).resolve().parents[2]
TRIALS = json.loads((ROOT / "benchmarks" / "data" / "trials-cpu-amd-zen4.json").read_text(encoding="utf-8"))
MACHINE = Machine.load(str(ROOT / "tests" / "fixtures" / "recorded" / "calibration" / "amd-zen4-2vcpu.scan.json"))
# what is left on this core: the VM hides its clock, so the bf16 matrix math is priced at the default 3.0 GHz, and the
# conv nets' element-wise work runs slower per byte than one core's streaming rate (docs/accuracy.md)
TOO_SLOW = 1 / 1.6
TOO_FAST = 1.1


def _compared(row: dict) -> tuple[float, float, float, float]:
    """(estimated samples/s, measured as on an idle PC, estimated RAM GiB, measured peak RSS GiB)."""
    measured = row["measured"]
    est = bench_module("bench_trials").reestimated(row, MACHINE)["estimated"]
    idle = measured["batch"] / idle_step_seconds(measured)
    return est["samples_per_second"], idle, est["peak_memory_gib"], measured["peak_rss_gib"]


def test_the_machine_is_a_zen_4_whose_clock_the_scan_cannot_read():
    core = Target.from_machine(MACHINE).cpu_core(load_factors())
    assert core.kind == "amd-zen4" and core.native_bf16 and not core.amx
    assert MACHINE.cpu.base_clock_mhz is None and MACHINE.cpu.max_clock_mhz is None


@pytest.mark.parametrize("row", [r for r in TRIALS if r["outcome"] == "ran"], ids=lambda r: r["workload"])
def test_on_a_zen_4_no_job_is_priced_much_faster_than_it_runs_and_none_over_1_6x_slower(row):
    """A user is never told a CPU job is more than 10 % faster than it runs (yolov8s-finetune 1.09x), and no job is
    priced more than 1.6x too slow: qwen2.5-1.5b-lora at 64 rows per core was 0.31x with the Intel AMX kernels' rows
    term, 0.65x with this core's own ([cpu.gemm_half_rows_by_core]); RAM never under the trial's peak."""
    est, idle, ram, rss = _compared(row)
    assert TOO_SLOW <= est / idle <= TOO_FAST, (row["workload"], est, idle)
    assert ram >= rss, (row["workload"], ram, rss)


def test_all_ten_jobs_ran_with_the_fused_optimizer_step():
    assert len(TRIALS) == 10 and all(r["outcome"] == "ran" for r in TRIALS)
    assert {r["measured"]["optimizer_impl"] for r in TRIALS} == {"fused"}
