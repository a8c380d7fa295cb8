"""Mixture-of-experts decoders (Mixtral, Qwen2-MoE / Qwen1.5-MoE, Qwen3-MoE) given as their published config.json.

What a user notices: the job is accepted (it used to be refused as an unknown model_type), its parameters are the
publisher's (every expert stored, a few run per token), the memory holds every expert while the time follows the
experts a token runs, and a dense model's estimate is what it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpucheck.catalog import find_gpu, get_workload
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.params import active_block_linear_params, block_linear_params
from gpucheck.estimate.settings import apply_overrides
from gpucheck.hf_config import workload_from_config, workload_from_config_file
from gpucheck.i18n import use_language
from gpucheck.trial.models import _config_from_sizes

HF = Path(__file__).resolve().parents[1] / "fixtures" / "hf"
MIXTRAL = HF / "mixtral-8x7b-v0.1" / "config.json"
QWEN3_MOE = HF / "qwen3-30b-a3b" / "config.json"
QWEN15_MOE = HF / "qwen1.5-moe-a2.7b" / "config.json"
QWEN25_7B = HF / "qwen2.5-7b" / "config.json"


def _active_params(w) -> float:
    m = w.model
    return active_block_linear_params(m) + m.hidden * m.vocab * (1 if m.tied_embeddings else 2)


# the publishers' own figures: Mistral AI, "Mixtral of experts" (2023-12-11): "46.7B total parameters but only uses
# 12.9B parameters per token"; Qwen, "Qwen1.5-MoE: Matching 7B Model Performance with 1/3 Activated Parameters"
# (2024-03-28): "14.3B parameters in total and 2.7B activated parameters during runtime"; the Qwen3-30B-A3B model card:
# "Number of Parameters: 30.5B" and "Number of Paramaters (Non-Embedding): 29.9B", "3.3B activated"
@pytest.mark.parametrize(("path", "total_b", "active_b"), [
    (MIXTRAL, 46.7, 12.9), (QWEN15_MOE, 14.3, 2.7), (QWEN3_MOE, 30.5, 3.3)])
def test_the_publishers_parameter_counts(path: Path, total_b: float, active_b: float) -> None:
    w = workload_from_config_file(path)
    assert w.model.params / 1e9 == pytest.approx(total_b, abs=0.05)
    assert _active_params(w) / 1e9 == pytest.approx(active_b, rel=0.03)
    assert "active" in w.title
    with use_language("zh_CN"):
        assert "激活" in workload_from_config_file(path).title_zh


def test_qwen3_moe_without_its_embeddings_is_the_model_cards_29_9b() -> None:
    m = workload_from_config_file(QWEN3_MOE).model
    assert (m.params - 2 * m.hidden * m.vocab) / 1e9 == pytest.approx(29.9, abs=0.05)


def test_4bit_quantization_stores_every_expert_and_the_time_follows_the_experts_a_token_runs() -> None:
    """Qwen3-30B-A3B QLoRA against the dense Qwen2.5-7B, one RTX 4090 each: the MoE's weights hold every one of its
    29.9B non-embedding parameters in at least 4 bits (more than twice the 7B's weights), while its matrix FLOPs per
    token are about half the 7B's (3.3B active against 7.6B): FLOPs follow the active parameters, not the stored."""
    gpu = Target.from_gpu(find_gpu("rtx 4090"), 1, None)
    moe, dense = workload_from_config_file(QWEN3_MOE), workload_from_config_file(QWEN25_7B)
    e_moe, e_dense = estimate(moe, gpu), estimate(dense, gpu)
    assert e_moe.train.method == e_dense.train.method == "qlora"
    assert e_moe.breakdown.weights_bytes > 29.9e9 * 4 / 8
    assert e_moe.breakdown.weights_bytes > 2 * e_dense.breakdown.weights_bytes
    assert block_linear_params(moe.model) > 8 * active_block_linear_params(moe.model)
    assert e_moe.flops_per_sample < 0.6 * e_dense.flops_per_sample


def test_lora_on_the_mlp_adapts_every_expert() -> None:
    """Mixtral LoRA at rank 16: on the attention only, the adapters are the dense Mistral 7B's (the same attention);
    on all linear layers, each of the 8 experts of each layer carries its own (8× Mistral's MLP adapters)."""
    mixtral = workload_from_config_file(MIXTRAL)
    mistral = workload_from_config_file(HF / "mistral-7b-v0.1" / "config.json")
    gpu = Target.from_gpu(find_gpu("a100 80gb"), 1, None)

    def trainable(w, targets: str) -> float:
        return estimate(apply_overrides(w, method="lora", lora_rank=16, lora_targets=targets), gpu).trainable_params

    assert trainable(mixtral, "attention") == pytest.approx(trainable(mistral, "attention"), rel=1e-9)
    mlp_mixtral = trainable(mixtral, "all-linear") - trainable(mixtral, "attention")
    mlp_mistral = trainable(mistral, "all-linear") - trainable(mistral, "attention")
    router = 32 * 16 * (4096 + 8)  # all-linear adapts each layer's router too (hidden → 8 logits)
    assert mlp_mixtral == pytest.approx(8 * mlp_mistral + router, rel=1e-9)


def test_a_dense_model_is_unchanged_by_the_expert_code() -> None:
    """The MoE functions leave a dense model's counts where they were: the stored and the run parameters agree."""
    for job in ("llama3-8b-qlora", "qwen2.5-1.5b-lora", "gpt2-124m-pretrain", "bert-base-finetune"):
        m = get_workload(job).model
        assert block_linear_params(m) == active_block_linear_params(m)


def test_dense_layers_between_the_experts_are_counted_as_dense() -> None:
    """Qwen2-MoE / Qwen3-MoE keep a dense MLP (intermediate_size wide) in the layers mlp_only_layers names and where
    (i + 1) % decoder_sparse_step != 0 (transformers Qwen2MoeDecoderLayer / Qwen3MoeDecoderLayer)."""
    cfg = json.loads(QWEN3_MOE.read_text(encoding="utf-8"))
    every = workload_from_config(cfg, "qwen3-moe")
    half = workload_from_config(dict(cfg, decoder_sparse_step=2), "qwen3-moe")
    listed = workload_from_config(dict(cfg, mlp_only_layers=[0, 1, 2]), "qwen3-moe")
    assert (every.model.moe_layers, half.model.moe_layers, listed.model.moe_layers) == (48, 24, 45)
    per_moe = 3 * 2048 * 128 * 768 + 2048 * 128
    dense = 3 * 2048 * 6144
    assert every.model.params - half.model.params == 24 * (per_moe - dense)
    assert every.model.params - listed.model.params == 3 * (per_moe - dense)


@pytest.mark.parametrize(("change", "message"), [
    ({"num_experts_per_tok": 200}, "num_experts_per_tok"),
    ({"mlp_only_layers": "all"}, "mlp_only_layers"),
    ({"moe_intermediate_size": 0}, "moe_intermediate_size")])
def test_a_broken_expert_key_is_one_clear_message(change: dict, message: str) -> None:
    cfg = dict(json.loads(QWEN3_MOE.read_text(encoding="utf-8")), **change)
    with pytest.raises(BadInput, match=message):
        workload_from_config(cfg, "config.json")


def test_the_trial_builds_the_same_experts_from_a_job_file() -> None:
    """A job given by its sizes (TOML) with experts: the trial's model is Qwen3-MoE's layer at those sizes."""
    w = workload_from_config_file(QWEN3_MOE)
    cfg = _config_from_sizes(w)
    assert cfg["model_type"] == "qwen3_moe"
    assert (cfg["num_experts"], cfg["num_experts_per_tok"], cfg["moe_intermediate_size"]) == (128, 8, 768)
    assert cfg["mlp_only_layers"] == []


def test_gpt_oss_and_deepseek_moe_configs_are_read_whole() -> None:
    """gpt-oss-20b (biases on every expert and the router, one attention sink per head) and DeepSeekMoE 16B (model_type
    'deepseek' with n_routed_experts: two shared experts as one MLP, a dense first layer) come out at their publishers'
    totals: OpenAI's model card '21B parameters with 3.6B active' (active there without the 0.58 B input embedding, a
    lookup); DeepSeek's 'DeepSeekMoE 16B … 16.4B parameters', about 2.8 B activated."""
    oss = workload_from_config_file(HF / "gpt-oss-20b" / "config.json")
    assert oss.model.params / 1e9 == pytest.approx(20.9, abs=0.05)
    assert (_active_params(oss) - oss.model.hidden * oss.model.vocab) / 1e9 == pytest.approx(3.6, rel=0.03)
    assert oss.model.eager_attention and oss.model.attention_sinks and oss.model.qkv_bias
    deepseek = workload_from_config_file(HF / "deepseek-moe-16b" / "config.json")
    assert deepseek.model.params / 1e9 == pytest.approx(16.4, abs=0.05)
    assert (deepseek.model.moe_layers, deepseek.model.shared_expert_ffn) == (27, 2 * 1408)
    assert _active_params(deepseek) / 1e9 == pytest.approx(2.8, rel=0.03)


def test_the_published_moe_memory_is_met() -> None:
    """The MoE rows of resources/evidence/ (LoRA over every expert of Qwen1.5-MoE; DeepSeekMoE with its experts frozen;
    gpt-oss-20b under Transformers v5 at 1,024 and 8,192 tokens) within the LLM memory band's reach: no
    under-estimate beyond −10 %, no over-estimate beyond +25 %."""
    from tests.core import accuracy as A
    from tests.helpers import evidence_rows

    ids = ("swift1-qwen15-moe-a27b-lora-all-1024-mem", "swift1-deepseek-moe-16b-chat-lora-qkv-4096-mem",
           "unsloth-moe-gpt-oss-20b-tfv5-1024-mem", "unsloth-moe-gpt-oss-20b-tfv5-8192-mem")
    for rid, row in evidence_rows(ids).items():
        assert -0.10 <= A.memory_error(row) <= 0.25, rid


def test_the_recipe_reaches_the_experts_by_parameter_name() -> None:
    """transformers 5 keeps a MoE layer's experts as 3-D weights, which PEFT's target_modules do not reach: with LoRA
    on the MLP the printed LoraConfig names them through target_parameters, with the dropout PEFT requires there (0);
    on the attention alone, and on a dense model, the LoraConfig is the usual one."""
    import dataclasses

    from gpucheck.advise.gpu_support import GpuFacts
    from gpucheck.advise.recipes import snippet

    moe = workload_from_config_file(QWEN3_MOE)
    facts = GpuFacts("cuda", 9.0, True)
    for targets, expected in (("all-linear", True), ("mlp", True), ("qv", False)):
        train = dataclasses.replace(moe.train, method="lora", lora_targets=targets)
        s = snippet({"per_device_train_batch_size": 1}, train, moe, facts)
        assert ('target_parameters=["mlp.experts.gate_up_proj", "mlp.experts.down_proj"]' in s) is expected
        assert ("lora_dropout=0," in s) is expected
    dense = get_workload("llama3-8b-lora")
    s = snippet({"per_device_train_batch_size": 1}, dataclasses.replace(dense.train, lora_targets="all-linear"),
                dense, facts)
    assert "target_parameters" not in s


def test_below_compute_capability_8_the_experts_run_as_a_loop() -> None:
    """On a T4 (compute capability 7.5) transformers runs a MoE layer's grouped GEMMs as a Python loop over the hit
    experts, after a host sync in every layer ([dispatch.moe_fallback]): Qwen3-30B-A3B's 128 experts × 48 layers make
    the T4's step far slower than its tensor rate alone says. Against an A10 (compute capability 8.6, grouped GEMMs),
    the T4 falls further behind on the MoE than on a dense job of the same shape, Qwen2.5-7B."""
    from gpucheck.estimate.factors import load_factors
    from gpucheck.estimate.moe import experts_hit, grouped_gemm_falls_back

    t4, a10 = (Target.from_gpu(find_gpu(name), 1, None) for name in ("t4", "a10"))
    moe, dense = workload_from_config_file(QWEN3_MOE), workload_from_config_file(QWEN25_7B)
    f = load_factors()
    assert grouped_gemm_falls_back(moe.model, t4, f) and not grouped_gemm_falls_back(moe.model, a10, f)
    assert not grouped_gemm_falls_back(dense.model, t4, f)
    assert experts_hit(moe.model, moe.train) == pytest.approx(128, abs=0.5)  # 2,048 tokens × 8 reach every expert
    slow_moe = estimate(moe, t4).step_seconds / estimate(moe, a10).step_seconds
    slow_dense = estimate(dense, t4).step_seconds / estimate(dense, a10).step_seconds
    assert slow_moe > 1.5 * slow_dense


@pytest.mark.parametrize(("change", "key"), [
    ({}, "model.experts_per_token"),
    ({"experts_per_token": 9}, "model.experts_per_token"),
    ({"experts_per_token": 2}, "model.expert_ffn"),
    ({"experts_per_token": 2, "expert_ffn": 128, "moe_layers": 5}, "model.moe_layers")])
def test_a_job_file_with_experts_says_which_key_is_missing(tmp_path: Path, change: dict, key: str) -> None:
    """A user's job file that sets experts but not how many a token runs, or each expert's width, is one clear
    message naming the key, not a model quietly read as dense."""
    extra = "".join(f"{k} = {v}\n" for k, v in change.items())
    job = tmp_path / "moe.toml"
    job.write_text('id = "my-moe"\ntitle = "My MoE"\nfamily = "llm"\n[model]\narch = "transformer"\n'
                   "params = 8301824\nlayers = 4\nhidden = 256\nheads = 4\nffn = 512\nvocab = 8000\n"
                   f"experts = 8\n{extra}[data]\nsamples = 10\n", encoding="utf-8")
    with pytest.raises(BadInput, match=f"key '{key}'"):
        get_workload(str(job))
