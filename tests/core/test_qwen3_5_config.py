"""Qwen3.5 and Qwen3-Next given as their published config.json: hybrid decoders whose layers are three Gated DeltaNet
(linear attention) layers for each softmax-attention layer.

What a user notices: the job is accepted (it was refused as an unknown model_type), its parameters are the reference
implementation's to the parameter, the long-context cost follows the softmax layers alone, LoRA adapts every linear
layer (q / k / v / o exist in a quarter of the layers), the 248k-token vocabulary shows in the advice, and the
estimate says which kernels its speed assumes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpucheck.advise import advise
from gpucheck.catalog import find_gpu
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.compute import forward_flops_per_sample
from gpucheck.estimate.settings import apply_overrides
from gpucheck.hf_config import workload_from_config, workload_from_config_file
from gpucheck.i18n import use_language

HF = Path(__file__).resolve().parents[1] / "fixtures" / "hf"
Q35_08B = HF / "qwen3.5-0.8b" / "config.json"
Q35_27B = HF / "qwen3.5-27b" / "config.json"
Q36_35B = HF / "qwen3.6-35b-a3b" / "config.json"
QNEXT = HF / "qwen3-next-80b-a3b" / "config.json"


# Counted by Hugging Face transformers 5.24 itself: Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration
# and Qwen3NextForCausalLM built from these files on the meta device, parameters summed (total, of it the image side);
# the model cards name them 0.8B, 27B, 35B-A3B and 80B-A3B (tests/fixtures/hf/SOURCES.md)
@pytest.mark.parametrize(("path", "total", "vision", "linear_layers", "layers"), [
    (Q35_08B, 852_985_920, 100_592_896, 18, 24), (Q35_27B, 27_356_728_560, 460_730_096, 48, 64),
    (Q36_35B, 35_107_181_936, 446_571_248, 30, 40), (QNEXT, 79_674_391_296, 0, 36, 48)])
def test_the_reference_implementations_parameter_counts(path: Path, total: int, vision: int, linear_layers: int,
                                                         layers: int) -> None:
    m = workload_from_config_file(path).model
    assert int(m.params + m.aux_params) == total
    assert int(m.aux_params) == vision
    assert (m.linear_attn_layers, m.layers) == (linear_layers, layers)


def test_the_titles_read_qwen3_5_and_name_the_active_parameters() -> None:
    assert workload_from_config_file(Q35_08B).title == "Fine-tune Qwen3.5 (853M parameters)"
    assert workload_from_config_file(Q36_35B).title == "Fine-tune Qwen3.5Moe (35.1B parameters, 3.5B active)"
    with use_language("zh_CN"):
        assert workload_from_config_file(Q35_27B).title_zh == "微调 Qwen3.5（27.4B 参数）"


def test_long_context_costs_follow_the_softmax_layers_alone() -> None:
    """At 32k tokens the attention math grows with the length only in Qwen3.5-27B's 16 softmax layers: the same file
    with every layer softmax attention costs over three times as much attention math per token."""
    w = apply_overrides(workload_from_config_file(Q35_27B), seq_len=32_768)
    cfg = json.loads(Q35_27B.read_text())
    cfg["text_config"]["layer_types"] = ["full_attention"] * 64
    every = apply_overrides(workload_from_config(cfg, "config.json"), seq_len=32_768)
    hybrid_attn = forward_flops_per_sample(w.model, w.train)[1]
    softmax_attn = forward_flops_per_sample(every.model, every.train)[1]
    assert every.model.linear_attn_layers == 0
    assert 3.0 * hybrid_attn < softmax_attn < 4.0 * hybrid_attn


def test_lora_adapts_every_linear_layer_by_default() -> None:
    """q / k / v / o name modules in a quarter of the layers only; the hybrid starts from all-linear targets, on the
    16-bit model (Unsloth's Qwen3.5 guide advises against 4-bit QLoRA; Qwen3-Next keeps the usual QLoRA start)."""
    w = workload_from_config_file(Q35_27B)
    assert (w.train.method, w.train.lora_targets) == ("lora", "all-linear")
    assert workload_from_config_file(QNEXT).train.method == "qlora"
    qv = apply_overrides(w, lora_targets="qv")
    gpu = Target.from_gpu(find_gpu("rtx 4090"), 1, None)
    assert estimate(w, gpu).trainable_params > 10 * estimate(qv, gpu).trainable_params


def test_the_large_vocabulary_makes_the_fused_loss_the_first_change() -> None:
    """Qwen3.5 0.8B, a full fine-tune at 4 × 2,048 tokens on an RTX 4090: the logits over 248,320 tokens are the
    largest part; Liger Kernel patches qwen3_5, so its fused cross-entropy is the first change advised."""
    w = workload_from_config_file(Q35_08B)
    gpu = Target.from_gpu(find_gpu("rtx 4090"), 1, None)
    e = estimate(w, gpu)
    assert e.breakdown.activations_bytes > 4 * 2048 * 248_320 * 4
    assert [t.id for t in advise(None, w, gpu).tweaks][:1] == ["fused_loss"]


def test_the_estimate_says_which_kernels_its_speed_assumes() -> None:
    w = workload_from_config_file(Q35_08B)
    on_gpu = estimate(w, Target.from_gpu(find_gpu("rtx 4090"), 1, None)).notes
    assert any("flash-linear-attention" in n for n in on_gpu)
    plain = estimate(workload_from_config_file(HF / "qwen2.5-7b" / "config.json"),
                     Target.from_gpu(find_gpu("rtx 4090"), 1, None)).notes
    assert not any("Linear-attention" in n for n in plain)


def test_a_wrong_layer_list_is_one_clear_message() -> None:
    cfg = json.loads(Q35_08B.read_text())
    cfg["text_config"]["layer_types"] = ["linear_attention", "sliding_attention"]
    with pytest.raises(BadInput, match="layer_types.*24 layer kinds"):
        workload_from_config(cfg, "config.json")


def test_the_trial_builds_the_decoder_from_text_config() -> None:
    from gpucheck.trial.calibrate import trial_workload
    from gpucheck.trial.models import model_for

    w = workload_from_config_file(Q35_27B)
    builder, model = model_for(w)
    assert (builder, model["task"], model["config"]["model_type"]) == ("transformers", "causal-lm", "qwen3_5_text")
    assert trial_workload(w, None).model.aux_params == 0.0 < w.model.aux_params


def _qlora_costs(a) -> list[str]:
    return [t.cost for t in (*a.tweaks, *(t for alt in a.alternatives for t in alt.tweaks)) if t.id == "qlora"]


def test_the_qlora_option_carries_the_trainers_caution() -> None:
    """Qwen3.5 27B with LoRA does not fit a 24 GB card; QLoRA is still tried, with the caution Unsloth's guide gives,
    which another model's QLoRA option (Qwen2.5 7B, full fine-tune on a 16 GB card) does not carry."""
    gpu = Target.from_gpu(find_gpu("rtx 4090"), 1, None)
    costs = _qlora_costs(advise(None, workload_from_config_file(Q35_27B), gpu))
    assert costs and all("advise against 4-bit" in c for c in costs)
    other = apply_overrides(workload_from_config_file(HF / "qwen2.5-7b" / "config.json"), method="full")
    costs = _qlora_costs(advise(None, other, Target.from_gpu(find_gpu("rtx 4080"), 1, None)))
    assert costs and not any("advise against 4-bit" in c for c in costs)


@pytest.mark.parametrize(("model_type", "total"), [("qwen3_5_text", 8_953_803_264),
                                                   ("qwen3_5_moe_text", 34_660_610_688)])
def test_a_sparse_file_takes_the_config_class_defaults(model_type: str, total: int) -> None:
    """A file naming only its model_type: Qwen3_5TextConfig's and Qwen3_5MoeTextConfig's defaults (vocab 248,320,
    head_dim 256, 16 / 32 linear key / value heads, every fourth layer softmax), the totals transformers 5.24 builds."""
    assert int(workload_from_config({"model_type": model_type}, "config.json").model.params) == total
