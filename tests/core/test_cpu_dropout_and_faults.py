"""Costs a CPU step pays that a GPU's does not, checked against what they measured on the Intel Xeon with AMX:
dropout's random masks, drawn one element at a time by one thread (gpucheck/estimate/cpu_dropout.py), the page
faults of the tensors glibc maps afresh every step (gpucheck/estimate/cpu_pages.py), and fused attention's fixed time
per score (gpucheck/estimate/cpu_attention.py). The kernels' figures are in benchmarks/data/cpu-only-costs-intel-amx.json,
the jobs' in cpu-step-profile-dropout-intel-amx.json, cpu-step-profile-probes-intel-amx.json and
cpu-step-faults-intel-amx.json."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.estimate.cpu_attention import fused_score_seconds
from gpucheck.estimate.cpu_dropout import cpu_model, mask_elements_per_sample, mask_seconds
from gpucheck.estimate.cpu_pages import fault_seconds, mapped_bytes
from gpucheck.estimate.factors import load_factors
from gpucheck.machine import Machine
from gpucheck.trial.calibrate import probe_workloads, trial_workload
from tests.helpers import BENCH

ROOT = Path(__file__).resolve().parents[2]
KERNELS = json.loads((BENCH / "data" / "cpu-only-costs-intel-amx.json").read_text(encoding="utf-8"))
PROFILE = json.loads((BENCH / "data" / "cpu-step-profile-dropout-intel-amx.json").read_text(encoding="utf-8"))["jobs"]
PROBES = json.loads((BENCH / "data" / "cpu-step-profile-probes-intel-amx.json").read_text(encoding="utf-8"))["jobs"]
FAULTS = json.loads((BENCH / "data" / "cpu-step-faults-intel-amx.json").read_text(encoding="utf-8"))
MACHINE = Machine.load(str(ROOT / "tests" / "fixtures" / "recorded" / "calibration" / "intel-amx-2vcpu.scan.json"))


def _one_core(platform: str = "linux") -> Target:
    """One core of the Xeon at the clock the kernels measured (the scan reads none on this VM)."""
    t = Target.from_machine(MACHINE)
    return dataclasses.replace(t, cpu_cores=1, cpu_max_clock_mhz=KERNELS["core_clock_mhz"], calibration=None,
                               platform=platform)


def _job(name: str, **settings):
    """The job as the trial runner ran it (eager PyTorch, the library's own loss)."""
    w = trial_workload(apply_overrides(get_workload(name), **settings), None)
    return cpu_model(w.model, load_factors()), w.train


def test_the_mask_cost_is_the_kernels_own_figure():
    """[cpu.dropout] is bernoulli_'s measured time per element on one core, at the clock measured beside it; more
    threads do not shorten it (the mask is drawn under the generator's lock)."""
    c = load_factors()["cpu"]["dropout"]
    assert c["mask_ns_per_element"] == pytest.approx(KERNELS["bernoulli_ns_one_thread"]["median"], rel=0.02)
    assert c["reference_clock_mhz"] == pytest.approx(KERNELS["core_clock_mhz"], rel=0.01)
    rows = KERNELS["rows"]
    for r in (r for r in rows if r["threads"] > 1):
        one = next(x for x in rows if x["threads"] == 1 and x["dtype"] == r["dtype"] and x["shape"] == r["shape"])
        assert r["bernoulli_ns"] > 0.9 * one["bernoulli_ns"]
        assert r["bernoulli_ns"] > 10 * r["relu_ns"]


@pytest.mark.parametrize("job, settings", [
    ("qwen2.5-1.5b-lora", {"batch": 1, "seq_len": 128}),
    ("bert-base-finetune", {"batch": 8, "seq_len": 128}),
])
def test_dropout_masks_cost_what_the_profiled_steps_spent_on_them(job, settings):
    """The estimate's mask time for a job against torch.profiler's bernoulli_ time in that job's one-thread step:
    LoRA dropout on q_proj and v_proj drawn twice (gradient checkpointing recomputes it), BERT's hidden and
    attention-probability dropouts once."""
    m, t = _job(job, **settings)
    measured = sum(PROFILE[job]["bernoulli_s_per_step"].values())
    assert mask_seconds(m, t, _one_core(), load_factors()) == pytest.approx(measured, rel=0.25)


def test_a_cpu_bert_step_pays_for_its_dropout_and_more_cores_do_not_help():
    """What a user sees: BERT fine-tuned on a CPU costs more per step with its dropout on than off, and that part is
    the same on one core or eight; on a GPU the masks are drawn in parallel inside the memory-bound work."""
    f = load_factors()
    w = apply_overrides(get_workload("bert-base-finetune"), batch=8, seq_len=128)
    off = dataclasses.replace(w, model=dataclasses.replace(w.model, dropout=0.0, attention_dropout=0.0))
    one, eight = _one_core(), dataclasses.replace(_one_core(), cpu_cores=8)
    masks = mask_seconds(cpu_model(w.model, f), w.train, one, f)
    assert masks > 0.1
    assert estimate(w, one).step_seconds - estimate(off, one).step_seconds > masks
    assert mask_seconds(cpu_model(w.model, f), w.train, eight, f) == pytest.approx(masks)
    gpu = Target.from_gpu(find_gpu("rtx 4090"))
    assert mask_seconds(w.model, w.train, gpu, f) == 0.0 and fault_seconds(w.model, w.train, gpu, f) == 0.0


def test_attention_dropout_keeps_a_cpu_step_off_the_fused_attention_kernel():
    """On the CPU, scaled_dot_product_attention with dropout falls back to the math path, which keeps the heads ×
    s² probabilities: BERT at 512 tokens needs more RAM with its attention dropout on than off; on a GPU the fused
    kernel drops out inside and the two need the same memory."""
    w = apply_overrides(get_workload("bert-base-finetune"), batch=8, seq_len=512)
    off = dataclasses.replace(w, model=dataclasses.replace(w.model, attention_dropout=0.0))
    scores_gb = 8 * 12 * 512 * 512 * 12 * 2 / 1e9  # the probabilities of every layer in bf16, one copy
    cpu = _one_core()
    assert estimate(w, cpu).ram_bytes - estimate(off, cpu).ram_bytes > scores_gb * 1e9
    gpu = Target.from_gpu(find_gpu("rtx 4090"))
    assert estimate(w, gpu).peak_vram_bytes == estimate(off, gpu).peak_vram_bytes
    assert cpu_model(w.model, load_factors()).eager_attention and not w.model.eager_attention


def test_the_mapped_tensors_are_the_ones_strace_saw():
    """GPT-2 pre-training maps seven blocks of 32 MiB or more a step (its loss's fp32 logits, its tied embedding's
    16-bit cast and fp32 gradients); the count is within 15 % of their 592 MB; the conv nets at the batches traced
    (64, 128, 8: benchmarks/bench_calibration.py JOBS) map none."""
    f = load_factors()
    traced = FAULTS["traced_mmaps_over_32mib"]
    m, t = _job("gpt2-124m-pretrain", batch=1, seq_len=256)
    assert mapped_bytes(m, t, f) == pytest.approx(sum(traced["gpt2-124m-pretrain"][0]), rel=0.15)
    for job, batch in (("mnist-cnn", 64), ("cifar10-resnet18", 128), ("resnet50-finetune", 8)):
        assert traced[job] == [[], [], []]
        assert mapped_bytes(*_job(job, batch=batch), f) == 0.0


def test_the_faults_cost_what_pinning_glibc_saved():
    """gpt2-124m-pretrain's one-thread step with glibc's thresholds pinned (nothing unmapped, nothing trimmed) took
    0.2 s less: the estimate's fault time covers at least half of it (the rest is the heap's trimming, which
    depends on the order of the frees and is not priced) and not more than all of it; off Linux it is not priced."""
    f = load_factors()
    m, t = _job("gpt2-124m-pretrain", batch=1, seq_len=256)
    saved = FAULTS["default"]["gpt2-124m-pretrain"]["cpu_s_per_step_unprofiled"] \
        - FAULTS["glibc_pinned"]["gpt2-124m-pretrain"]["cpu_s_per_step_unprofiled"]
    assert 0.5 * saved <= fault_seconds(m, t, _one_core(), f) <= saved
    assert fault_seconds(m, t, _one_core("windows"), f) == 0.0


def test_mnist_declares_the_dropout_its_code_runs():
    """pytorch/examples' MNIST Net drops out its pooled 64 × 12 × 12 maps and fc1's 128 outputs."""
    m = get_workload("mnist-cnn").model
    assert m.dropout_elements == 64 * 12 * 12 + 128
    assert mask_elements_per_sample(m, get_workload("mnist-cnn").train, load_factors()) == m.dropout_elements


def test_the_attention_cost_per_score_is_the_kernels_own_fit():
    """[cpu.attention] is the per-score intercept of the fused CPU kernel's time over head dims 8 to 128, forward and
    backward; the kernel's slope is its multiplies, which the model prices at the matrix rate."""
    a = load_factors()["cpu"]["attention"]
    att = KERNELS["attention"]
    assert a["fused_forward_ns_per_score"] == pytest.approx(att["forward_fit"]["ns_per_score"], rel=0.02)
    assert a["fused_backward_ns_per_score"] == pytest.approx(att["backward_fit"]["ns_per_score"], rel=0.02)
    assert a["reference_clock_mhz"] == pytest.approx(KERNELS["core_clock_mhz"], rel=0.01)
    narrow = next(r for r in att["rows"] if r["head_dim"] == 8)
    # at head dim 8 the fixed part is most of the kernel's time
    assert a["fused_backward_ns_per_score"] > 0.8 * narrow["backward_ns_per_score"]


def test_the_u_net_probe_spends_in_attention_what_the_profile_saw():
    """The calibration's U-Net probe (SD 1.5's blocks at 64/128 channels, 8 heads of 8 dims) at one thread: the model's
    fused-attention time — its per-score part and its multiplies at the matrix rate — against torch.profiler's time in
    the CPU flash kernel, forward and backward; a GPU pays none of the per-score part."""
    f = load_factors()
    w = trial_workload(dict(probe_workloads())["unet"], None)
    cpu = _one_core()
    measured = sum(PROBES["unet"]["attention_s_per_step"].values())
    per_score = fused_score_seconds(cpu_model(w.model, f), w.train, cpu, f)
    assert per_score == pytest.approx(measured, rel=0.30)
    gpu = Target.from_gpu(find_gpu("rtx 4090"))
    assert fused_score_seconds(w.model, w.train, gpu, f) == 0.0


def test_a_u_net_on_a_cpu_is_not_slowed_by_a_gpus_small_batch_occupancy():
    """The U-Net's small-batch factor (factors.toml [utilization.small_batch_half_positions]) is a GPU's occupancy: one
    256-px image costs a GPU 4× its share of a four-image step; on a CPU only the step's fixed costs (its weights read,
    its adapters stepped) are shared by fewer images (with the GPU's factor it would be about 4×)."""
    w = apply_overrides(get_workload("sd15-lora"), batch=1, image_size=256)
    four = apply_overrides(w, batch=4)

    def per_image_ratio(target: Target) -> float:
        return estimate(w, target).step_seconds / (estimate(four, target).step_seconds / 4)

    assert per_image_ratio(dataclasses.replace(_one_core(), cpu_cores=8)) < 2.2
    assert per_image_ratio(Target.from_gpu(find_gpu("rtx 4090"))) > 3
