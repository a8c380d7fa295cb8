"""gpucheck on a real NVIDIA H200 (tests/fixtures/recorded/h200, benchmarks/device_check.sh): the scan, and the
trials' figures as a user reads them, replayed from what the runner measured there."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck import cli
from gpucheck.catalog import get_workload
from gpucheck.estimate import Target, estimate
from gpucheck.evidence import load_evidence
from gpucheck.machine import Machine
from gpucheck.trial import _result
from gpucheck.trial.calibrate import trial_workload
from gpucheck.trial.command import format_result
from tests.core import accuracy

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "recorded"
H200 = RECORDED / "h200"
SCAN = H200 / "scan.json"
TRIALS = [json.loads(line) for line in (H200 / "trials.jsonl").read_text(encoding="utf-8").splitlines()]
# two later runs on fresh H200 machines of the same kind (benchmarks/device_check.sh's header): the trials that ran
LATER = [row for run in ("h200-b", "h200-c")
         for row in map(json.loads, (RECORDED / run / "trials.jsonl").read_text(encoding="utf-8").splitlines())
         if row["result"]["outcome"] == "ran"]
RAN = TRIALS + LATER


def _machine() -> Machine:
    return Machine.load(str(SCAN))


def _replayed(row: dict):
    """The recorded trial as gpucheck reads the runner's answer now (the runner's measured figures unchanged)."""
    r = row["result"]
    measured = dict(r["measured"])
    per_row = measured.pop("samples_per_row", None)  # a later gpucheck's answer: the runner's rows, as it counted them
    if per_row:
        measured["samples_per_second"] = measured["samples_per_second"] / per_row
    raw = {"outcome": r["outcome"], "measured": measured, "libraries": r["libraries"], "python": r["python"]}
    workload = trial_workload(get_workload(row["job"]), _machine(), "cuda")
    # these runs' runner kept PEFT's fp32 adapters on every LoRA and QLoRA job; it casts a QLoRA job's adapters to bf16,
    # as TRL's SFTTrainer does, only since the job asks for it (train.qlora_bf16_adapters, after these runs)
    workload = dataclasses.replace(workload, train=dataclasses.replace(workload.train, qlora_bf16_adapters=False))
    return workload, _result(workload, r["python"], raw, _machine(), 5)


def test_the_h200_scan_reads_as_the_catalog_h200_with_its_hopper_features():
    m = _machine()
    (g,) = m.gpus
    assert g.catalog_id == "h200" and g.architecture == "Hopper" and g.sm_count == 132
    assert g.supports_bf16 and g.supports_fp8 and g.pcie_gen_max == 5 and g.power_limit_w == 700.0
    assert g.vram_total_bytes == 143771 * 2**20  # nvidia-smi's "Total : 143771 MiB" (env.txt)
    assert m.cpu.physical_cores == 16 and "amx_bf16" in m.cpu.flags
    assert m.disks[0].kind == "virtual"  # virtio_blk: not judged as a spinning disk


def test_every_recorded_h200_trial_ran_on_the_gpu():
    assert [row["job"] for row in TRIALS] == ["mnist-cnn", "cifar10-resnet18", "bert-base-finetune",
                                               "qwen2.5-1.5b-lora", "gpt2-124m-pretrain", "resnet50-finetune",
                                               "whisper-small-finetune", "sd15-lora"]
    for row in TRIALS:
        m = row["result"]["measured"]
        assert row["rc"] == 0 and m["device"] == "NVIDIA H200" and m["memory_kind"] == "cuda_reserved", row["job"]


@pytest.mark.parametrize("row", RAN, ids=[r["job"] for r in RAN])
def test_a_trial_s_speed_says_the_same_in_step_time_and_in_samples(row):
    """A faster step is more samples a second. Recorded: qwen2.5-1.5b-lora's step ran 0.75× its estimate while
    the trial printed 0.17× the estimate's samples a second and a whole run of 4.1 h against 0.68 h — the runner
    counts rows of 1,024 tokens, the job (and its estimate) samples of about 128 tokens packed into them."""
    _w, res = _replayed(row)
    ratios = res.ratios
    assert ratios["samples_per_second"] * ratios["step_seconds"] == pytest.approx(1.0, abs=0.02)
    step_ratio = res.measured["step_seconds"] / res.estimated["step_seconds"]
    assert res.measured["total_hours"] == pytest.approx(res.estimated["total_hours"] * step_ratio, rel=0.03)


def test_a_packed_job_s_trial_counts_the_samples_in_each_row():
    row = next(r for r in TRIALS if r["job"] == "qwen2.5-1.5b-lora")
    workload, res = _replayed(row)
    per_row = workload.train.seq_len / workload.data.avg_seq_len
    assert per_row == 8.0 and res.measured["samples_per_row"] == pytest.approx(per_row, rel=0.01)
    assert res.measured["samples_per_second"] == pytest.approx(row["result"]["measured"]["samples_per_second"]
                                                               * per_row, rel=0.001)


def test_a_trial_of_short_unpacked_samples_is_estimated_on_the_full_rows_it_runs():
    # The runner feeds every row one sequence of seq_len tokens (trial/runner.py). A job of 128-token samples left
    # unpacked (`trial llama3-8b-lora --no-packing`) is estimated on 128-token steps; beside its trial the estimate
    # prices the 2,048-token rows the trial runs, as it does a packed job's. Before, only packed jobs were. (On an
    # RTX 3060, where the step is the GPU's arithmetic; the H200's is set by the host's launches at either length.)
    m = Machine.load(str(Path(__file__).parents[1] / "fixtures" / "machines" / "rtx3060-12gb-hdd-desktop.json"))
    w = trial_workload(dataclasses.replace(get_workload("llama3-8b-lora"), train=dataclasses.replace(
        get_workload("llama3-8b-lora").train, packing=False)), m, "cuda")
    assert w.data.avg_seq_len == 128 and w.train.seq_len == 2048
    full = dataclasses.replace(w, data=dataclasses.replace(w.data, avg_seq_len=2048))
    target = Target.from_machine(m, gpus=1)
    res = _result(w, "python", {"outcome": "ran", "measured": {"step_seconds": 1.0, "samples_per_second": 1.0,
                                                                 "batch": 1, "device_kind": "cuda"}, "libraries": {}, "python": "3.11"}, m, 5)
    assert res.estimated["step_seconds"] == pytest.approx(estimate(full, target).step_seconds, rel=0.001)
    assert res.estimated["step_seconds"] > 4 * estimate(w, target).step_seconds


@pytest.mark.parametrize("row", RAN, ids=[r["job"] for r in RAN])
def test_on_a_gpu_the_trial_compares_what_pytorch_reserved_with_the_estimate_s_reserve(row):
    """The runner measures torch.cuda.max_memory_reserved (no CUDA context); the estimate beside it is what the
    estimate puts in PyTorch's reserve, and the whole need with the context is shown apart. Recorded: MNIST's
    0.145 GiB measured was set against 0.815 GiB with the context (ratio 0.18)."""
    workload, res = _replayed(row)
    est = estimate(workload, Target.from_machine(_machine(), gpus=1))
    e = res.estimated
    assert e["peak_vram_gib"] - e["peak_memory_gib"] >= est.context_bytes / 2**30 - 0.002
    assert "Peak memory PyTorch holds (GiB)" in format_result(res)


@pytest.mark.parametrize("row", RAN, ids=[r["job"] for r in RAN])
def test_the_trial_and_its_evidence_rows_estimate_the_same_run(row):
    """resources/evidence/gpucheck-h200-trials.toml describes each trial as it ran (eager stack, no host input path,
    one shape of full rows): the estimate the trial printed beside its figures is the one the evidence compares."""
    _w, res = _replayed(row)
    rows = {r.id: r for r in load_evidence() if r.id.startswith(f"gpucheck-h200-{row['job']}-")}
    speed, memory = rows[f"gpucheck-h200-{row['job']}-speed"], rows[f"gpucheck-h200-{row['job']}-memory"]
    # the trial's estimate is rounded to 5 decimals (trial/__init__.py _estimated): half that digit is the tolerance
    assert accuracy.run(speed).step_seconds == pytest.approx(res.estimated["step_seconds"], rel=0.001, abs=5e-6)
    assert speed.measured.value == row["result"]["measured"]["step_seconds"]
    assert accuracy.memory_parts(memory)[0] / 2**30 == pytest.approx(res.estimated["peak_memory_gib"], abs=0.002)
    assert memory.measured.value == row["result"]["measured"]["reserved_gib"]


def test_check_on_the_recorded_h200_gives_every_built_in_job_a_verdict(capsys):
    """`gpucheck check --machine` on the recorded scan: all jobs run on 141 GB except the full 8B fine-tune,
    which needs the advised 8-bit optimizer (recorded in check.txt as the run printed it)."""
    assert cli.main(["check", "--machine", str(SCAN), "--lang", "en", "--json"]) == 0
    rows = {r["workload"]: r for r in json.loads(capsys.readouterr().out)["estimates"]}
    assert rows["llama3-70b-qlora"]["verdict"] == "runs"
    assert rows["llama3-8b-full"]["verdict"] == "runs_with_tweaks"
    assert "llama3-8b-full          Runs with tweaks" in (H200 / "check.txt").read_text(encoding="utf-8")
