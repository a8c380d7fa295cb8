"""The fused linear cross-entropy (Liger Kernel): its memory as Liger's code sizes it, and the ladder's rung that
offers it where Liger runs (gpucheck/advise/fused_loss.py, resources/advice.toml [fused_loss])."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gpucheck import estimate as E
from gpucheck.advise import advise
from gpucheck.catalog import find_gpu, get_workload
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import fused_linear_chunk_tokens, logits_bytes
from gpucheck.hf_config import workload_from_config
from gpucheck.records import ModelSpec, TrainSpec
from tests.conftest import FIXTURES
from tests.core.test_advise import advice_for

GIB = 1024**3


def test_the_chunk_is_the_one_liger_computes_in_its_own_example():
    # liger_kernel/ops/fused_linear_cross_entropy.py: "for ex: BT = 4096*4, V = 32000, H = 4096 ==> inc_factor = 8,
    # chunk_size = 2048"
    m = ModelSpec(arch="transformer", params=7e9, layers=32, hidden=4096, heads=32, vocab=32000)
    t = TrainSpec(method="lora", precision="bf16", batch=4, seq_len=4096)
    assert fused_linear_chunk_tokens(m, t, load_factors()) == 2048


def test_the_fused_loss_keeps_no_vocabulary_wide_tensor():
    # Llama 3 8B at 2,048 tokens: the Hugging Face loss holds the bf16 logits and three fp32 copies of 2,048 × 128,256
    # entries (3.4 GiB); Liger's holds one chunk of 64 tokens and the hidden states' gradient
    w = get_workload("llama3-8b-lora")
    f = load_factors()
    full = logits_bytes(w.model, w.train, f)
    fused = logits_bytes(w.model, dataclasses.replace(w.train, cross_entropy="fused_linear"), f)
    assert full == pytest.approx(2048 * 128256 * (2 + 3 * 4))
    assert fused == pytest.approx(64 * 128256 * 2 + 2048 * 4096 * 2)
    assert fused < full / 50


def test_a_24gb_card_runs_an_8b_lora_with_the_fused_loss_alone():
    # 21 GiB of 24 with the Hugging Face loss is inside the error band; the fused loss frees its 3.4 GiB of logits,
    # loses nothing, and the settings to copy switch it on
    m, w, a = advice_for("rtx4090-650w-desktop", "llama3-8b-lora")
    assert a.verdict == "runs_with_tweaks"
    assert [t.id for t in a.tweaks] == ["fused_loss"]
    tweak = a.tweaks[0]
    assert tweak.loses == "nothing" and tweak.settings == {"use_liger_kernel": True}
    assert "use_liger_kernel=True," in a.snippet and "pip install liger-kernel" in a.snippet
    before = E.estimate(w, E.Target.from_machine(m))
    assert before.peak_vram_bytes - tweak.peak_vram_bytes > 2.5 * GIB


def test_a_free_t4_fits_an_8b_qlora_with_the_fused_loss():
    # a T4 (16 GB, Turing: Triton runs there) was "may fit"; with the fused loss it fits with room
    w = get_workload("llama3-8b-qlora")
    a = advise(None, w, E.Target.from_gpu(find_gpu("t4")))
    assert a.verdict == "runs_with_tweaks"
    assert "fused_loss" in [t.id for t in a.tweaks]


def test_no_fused_loss_where_liger_does_not_run():
    # each job needs a change here, so the ladder runs: Apple GPUs (no Triton), a Pascal card (Triton needs compute
    # capability 7.0), GPT-2 (no Liger patch for its model type)
    _, _, a = advice_for("m1-macbookair", "qwen2.5-1.5b-lora")
    assert a.tweaks and "fused_loss" not in [t.id for t in a.tweaks]
    a = advise(None, get_workload("qwen2.5-1.5b-lora"), E.Target.from_gpu(find_gpu("gtx 1070")))
    assert a.tweaks and "fused_loss" not in [t.id for t in a.tweaks]
    gpt2 = workload_from_config(json.loads((FIXTURES / "hf" / "gpt2" / "config.json").read_text()), "config.json")
    a = advise(None, gpt2, E.Target.from_gpu(find_gpu("rtx 4060")))
    assert a.tweaks and "fused_loss" not in [t.id for t in a.tweaks]


@pytest.mark.parametrize("config, model_type, offered", [("meta-llama-3-8b", "llama", True),
                                                         ("qwen2.5-7b", "qwen2", True), ("gpt2", "gpt2", False)])
def test_an_imported_config_keeps_its_model_type(config, model_type, offered):
    from gpucheck.advise.fused_loss import offered as is_offered

    cfg = json.loads((FIXTURES / "hf" / config / "config.json").read_text())
    w = workload_from_config(cfg, "config.json")
    assert w.model.model_type == model_type
    assert is_offered(w, w.train, "cuda", 8.9) is offered
