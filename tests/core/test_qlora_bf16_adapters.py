"""QLoRA's adapters in bf16, as TRL's SFTTrainer leaves them since 0.26 (huggingface/trl #4577, sft_trainer.py: 'When
using QLoRA, the PEFT adapter weights are converted to bf16 to follow the recommendations from the original paper'):
the adapters, their gradients and AdamW's two moments are 16-bit, 8 bytes a trained weight where PEFT's fp32 adapters
take 16 (4 + 4 + 8). Published runs before that stack keep fp32 adapters (gpucheck/evidence.py)."""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.estimate.params import param_counts
from gpucheck.evidence import load_evidence
from gpucheck.trial.models import job_spec

GIB = 2**30


def _job(rank: int = 64, targets: str = "all-linear", **train):
    w = apply_overrides(get_workload("llama3-8b-qlora"), lora_rank=rank, lora_targets=targets)
    return dataclasses.replace(w, train=dataclasses.replace(w.train, **train))


def _on_3060(w):
    return estimate(w, Target.from_gpu(find_gpu("rtx 3060 12gb")))


def test_a_qlora_job_today_trains_bf16_adapters_and_saves_8_bytes_a_trained_weight():
    """Llama 3 8B, r = 64 on every linear layer: 167.8 M trained weights, 1.25 GiB less for their copies, gradients
    and AdamW state than with fp32 adapters; the 4-bit base, the activations and the step's speed do not change."""
    today, before = _job(), _job(qlora_bf16_adapters=False)
    assert today.train.adapters_16bit and not before.train.adapters_16bit
    trained = param_counts(today.model, today.train).trainable
    assert trained == pytest.approx(32 * 64 * (2 * 8192 + 2 * 5120 + 3 * 18432), rel=1e-6)
    a, b = _on_3060(today).breakdown, _on_3060(before).breakdown
    exact = lambda x: x.weights_bytes + x.gradients_bytes + x.optimizer_bytes  # noqa: E731
    assert exact(b) - exact(a) == pytest.approx(trained * (2 + 2 + 4), rel=1e-6)
    assert (exact(b) - exact(a)) / GIB == pytest.approx(1.25, abs=0.01)
    assert a.activations_bytes == b.activations_bytes


def test_the_saving_is_small_at_the_job_s_own_rank_and_none_for_unsloth_fp32_or_plain_lora():
    """r = 16 on q and v: 6.8 M trained weights, 55 MB. Unsloth's stack, an fp32 run and a LoRA job keep fp32
    adapters."""
    small = _on_3060(_job(16, "qv")).breakdown.optimizer_bytes
    assert _on_3060(_job(16, "qv", qlora_bf16_adapters=False)).breakdown.optimizer_bytes - small \
        == pytest.approx(6_815_744 * 4, rel=1e-6)
    assert not _job(stack="unsloth").train.adapters_16bit
    assert not _job(precision="fp32").train.adapters_16bit
    lora = get_workload("llama3-8b-lora")
    assert lora.train.method == "lora" and not lora.train.adapters_16bit


def test_published_qlora_rows_keep_fp32_adapters_and_the_trial_runner_is_told_which():
    rows = [r for r in load_evidence() if r.train.method == "qlora"]
    assert rows and not any(r.train.qlora_bf16_adapters for r in rows)
    spec = job_spec(get_workload("llama3-8b-qlora"), steps=3, max_seconds=10, device="cuda", search_batch=False)
    assert spec["train"]["qlora_bf16_adapters"] is True
    spec = job_spec(_job(qlora_bf16_adapters=False), steps=3, max_seconds=10, device="cuda", search_batch=False)
    assert spec["train"]["qlora_bf16_adapters"] is False
