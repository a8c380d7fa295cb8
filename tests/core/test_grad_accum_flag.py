"""`--grad-accum K`: the micro-batches whose gradients are added up before each optimizer step (the Hugging Face
Trainer's gradient_accumulation_steps). What a user notices: the optimizer step and, on several GPUs, the gradient
exchange come once every K micro-batches, so a run trains faster per sample; the memory a micro-batch needs is the
same; the settings line says it; a value the Trainer would refuse ends in one clear line; a trial, which times
micro-batches each with its own optimizer step, refuses it rather than dropping it.

Machines are the recorded scans of tests/fixtures/machines; the figures are compared with each other (the same job
with and without accumulation), not with numbers of our own.
"""

from __future__ import annotations

import json

import pytest

from gpucheck.cli import main
from tests.conftest import FIXTURES

H100X8 = str(FIXTURES / "machines" / "h100x8-server.json")


def _estimate(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["estimate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_several_gpus_exchange_gradients_once_per_optimizer_step(capsys):
    """Data parallel (DDP, the Trainer's default on several GPUs) all-reduces the gradients at the optimizer step
    only: accumulating 8 micro-batches makes each sample cheaper; each micro-batch needs the same memory."""
    one = _estimate(capsys, "bert-base-finetune", "--machine", H100X8)
    eight = _estimate(capsys, "bert-base-finetune", "--machine", H100X8, "--grad-accum", "8")
    assert one["train"]["grad_accum"] == 1 and eight["train"]["grad_accum"] == 8
    assert eight["samples_per_second"] > one["samples_per_second"] * 1.05
    assert eight["total_hours"] < one["total_hours"]
    assert eight["peak_vram_gib"] == one["peak_vram_gib"]
    assert any("gradient accumulation 8" in a for a in eight["assumptions"])
    assert not any("accumulation" in a for a in one["assumptions"])


def test_one_gpu_steps_the_optimizer_less_often(capsys):
    """On one GPU a full training run's AdamW step (every parameter read and written) comes once per K micro-batches:
    a little faster per sample, never slower."""
    one = _estimate(capsys, "gpt2-124m-pretrain", "--gpu", "RTX 3060 12GB")
    four = _estimate(capsys, "gpt2-124m-pretrain", "--gpu", "RTX 3060 12GB", "--grad-accum", "4")
    assert four["samples_per_second"] > one["samples_per_second"]
    assert four["peak_vram_gib"] == one["peak_vram_gib"]


@pytest.mark.parametrize("lang, word", [("en", "--grad-accum"), ("zh_CN", "--grad-accum")])
@pytest.mark.parametrize("value", ["0", "70000"])
def test_a_bad_value_is_one_line_naming_the_flag(capsys, lang, word, value):
    assert main(["estimate", "mnist-cnn", "--gpu", "RTX 3060 12GB", "--grad-accum", value, "--lang", lang]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and word in err[0] and value in err[0]


def test_the_settings_line_says_it_in_chinese(capsys):
    capsys.readouterr()
    assert main(["estimate", "qwen2.5-1.5b-lora", "--gpu", "RTX 4090", "--batch", "2", "--grad-accum", "8",
                 "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "梯度累积 8" in out and "16" in out


def test_a_trial_refuses_accumulation_instead_of_dropping_it(capsys):
    assert main(["trial", "mnist-cnn", "--grad-accum", "4", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--grad-accum" in err[0] and "gpucheck estimate" in err[0]
