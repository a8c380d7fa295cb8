"""fp32 linear layers on AMD CPUs run through oneMKL's AVX2 code path, convolutions through oneDNN's AVX-512
(factors.toml [cpu.blas_gemm]): checked against the one-thread trials recorded on the build machine (AMD EPYC,
Zen 5), benchmarks/data/calibration-fp32-vs-bf16.json."""

from __future__ import annotations

import dataclasses
import json
import math
import statistics
from pathlib import Path

import pytest

from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.machine import Machine

ROOT = Path(__file__).resolve().parents[2]
TRIALS = ROOT / "benchmarks" / "data" / "calibration-fp32-vs-bf16.json"
SCAN = ROOT / "tests" / "fixtures" / "recorded" / "calibration" / "build-machine.scan.json"
WITHIN = 1.35  # the accuracy goal for a speed estimate (docs/accuracy.md)


def _one_core() -> Target:
    """The build machine as the trials ran it: one PyTorch thread, so one core."""
    m = Machine.load(str(SCAN))
    return dataclasses.replace(Target.from_machine(dataclasses.replace(m, gpus=())), cpu_cores=1, calibration=None)


def _measured(job: str, precision: str) -> float:
    rows = json.loads(TRIALS.read_text())["rows"]
    return statistics.median(r["measured"]["cpu_seconds_per_step_per_thread"] for r in rows
                             if r["job"] == job and r["precision"] == precision and r["outcome"] == "ran")


def _step(target: Target, precision: str, job: str = "bert-base-finetune", **opts) -> float:
    w = apply_overrides(get_workload(job), precision=precision, **opts)
    return estimate(w, target).step_seconds


def test_fp32_bert_step_on_zen5_matches_the_recorded_trial():
    """A user who turns bf16 off on this AMD CPU is told a BERT step that the one-thread trial confirms
    (7.9 CPU s measured; the AVX-512 fp32 rate said 5.3 s, 0.68x)."""
    target = _one_core()
    est = _step(target, "fp32", batch=8, seq_len=128)
    assert abs(math.log(est / _measured("bert-base-finetune", "fp32"))) <= math.log(WITHIN)


def test_what_bf16_saves_on_zen5_is_what_the_trial_measured():
    """The fp32 ÷ bf16 step the user compares (2.85x measured) is within the accuracy goal: MKL's fp32 GEMM
    at AVX2's rate against oneDNN's AVX512_BF16 (the AVX-512 fp32 figure said 1.87x)."""
    target = _one_core()
    est = _step(target, "fp32", batch=8, seq_len=128) / _step(target, "bf16", batch=8, seq_len=128)
    measured = _measured("bert-base-finetune", "fp32") / _measured("bert-base-finetune", "bf16")
    assert abs(math.log(est / measured)) <= math.log(WITHIN)


@pytest.mark.xfail(strict=True, reason=(
    "1.44x too fast since conv nets' element-wise traffic is counted per saved element (7.5, not 15): on one core "
    "PyTorch's fp32 NCHW BatchNorm + ReLU + add take 7.5 ns per element forward and backward (2.0 ns in bf16), "
    "measured on this machine, though one Zen 5 core streams 28-38 GB/s in plain element-wise kernels "
    "([cpu.core_mem_bandwidth_gbps] amd-zen5): the CPU's cost per element-wise operation is not modelled"))
def test_fp32_convolutions_on_zen5_keep_the_avx512_rate():
    """oneDNN convolutions use AVX-512 on AMD: the fp32 ResNet-50 step stays within the goal of the trial."""
    est = _step(_one_core(), "fp32", job="resnet50-finetune", batch=8)
    assert abs(math.log(est / _measured("resnet50-finetune", "fp32"))) <= math.log(WITHIN)


def test_intel_avx512_keeps_mkls_avx512_path():
    """Same cores, flags and clock: oneMKL runs AVX-512 on an Intel Xeon, so its fp32 BERT step is shorter
    than an AMD EPYC's; fp32 convolutions (oneDNN on both) take the same time."""
    amd = _one_core()
    intel = dataclasses.replace(amd, cpu_vendor="intel", cpu_brand="Intel(R) Xeon(R) Platinum 8380")
    assert _step(intel, "fp32", batch=8, seq_len=128) < 0.8 * _step(amd, "fp32", batch=8, seq_len=128)
    # four cores fill the memory on both (one core alone streams less on the Xeon: [cpu.core_mem_bandwidth_gbps])
    resnet = [_step(dataclasses.replace(t, cpu_cores=4), "fp32", job="resnet50-finetune", batch=8) for t in (amd, intel)]
    assert resnet[0] == resnet[1]
