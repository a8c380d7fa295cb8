"""The experts of a mixture-of-experts config.json (gpucheck/hf_config.py reads the rest of the decoder): each
family's keys for how many experts a layer holds, how many a token runs, their width, the shared expert and which
layers have experts, read in transformers' modeling code for the type; each key missing at its config class's
default. gpucheck/estimate/moe.py prices what these fields describe.
"""

from __future__ import annotations

from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import shorten
from gpucheck.hf_parts import read_int
from gpucheck.i18n import tr

# DeepSeekMoE's expert keys (n_routed_experts, n_shared_experts, first_k_dense_replace): DeepSeekMoE, DeepSeek-V2 /
# V3 (and Kimi K2, Moonlight: model_type deepseek_v3), GLM-4.5 (glm4_moe)
DEEPSEEK_MOE = ("deepseek", "deepseek_v2", "deepseek_v3", "glm4_moe")
# Qwen MoE layers: experts moe_intermediate_size wide; a shared expert with its sigmoid gate where the type has one
QWEN_MOE = ("qwen2_moe", "qwen3_moe", "qwen3_5_moe", "qwen3_next")
SHARED_EXPERT = ("qwen2_moe", "qwen3_5_moe", "qwen3_next")


def moe_fields(where: str, cfg: dict[str, Any], mt: str, layers: int) -> dict[str, Any]:
    """A mixture-of-experts config's expert keys as ModelSpec fields, each missing one at its Hugging Face config
    class's default. Mixtral, OLMoE, gpt-oss and Granite MoE: every layer has experts, each intermediate_size wide. Qwen2-MoE and
    Qwen3-MoE: experts moe_intermediate_size wide in layer i when (i + 1) % decoder_sparse_step == 0 and i is not in
    mlp_only_layers (the others keep a dense MLP intermediate_size wide); Qwen2-MoE adds a shared expert
    shared_expert_intermediate_size wide (transformers Qwen2MoeConfig / Qwen3MoeConfig / MixtralConfig / OlmoeConfig /
    GptOssConfig)."""
    if mt in DEEPSEEK_MOE:  # shared experts run as one MLP, dense first layers
        return _deepseek_moe_fields(where, cfg, layers)
    if mt == "llama4":
        return _llama4_moe_fields(where, cfg, layers)
    qwen = mt in QWEN_MOE
    local = mt in ("mixtral", "gpt_oss", "granitemoe")  # their key for the experts a layer holds
    experts = read_int(where, cfg, "num_local_experts" if local else "num_experts",
                       default={"mixtral": 8, "granitemoe": 8, "qwen2_moe": 60, "qwen3_moe": 128, "qwen3_5_moe": 256, "qwen3_next": 512,
                                "olmoe": 64, "gpt_oss": 128}[mt], hi=100_000)
    k = read_int(where, cfg, "num_experts_per_tok",
                 default={"mixtral": 2, "granitemoe": 2, "qwen2_moe": 4, "qwen3_moe": 8, "qwen3_5_moe": 8, "qwen3_next": 10, "olmoe": 8,
                          "gpt_oss": 4}[mt], hi=experts)
    expert_ffn = read_int(where, cfg, "moe_intermediate_size" if qwen else "intermediate_size",
                          default={"qwen2_moe": 1408, "qwen3_moe": 768, "qwen3_5_moe": 512, "qwen3_next": 512,
                                   "mixtral": 14336, "olmoe": 2048, "gpt_oss": 2880, "granitemoe": 11008}[mt])
    shared = read_int(where, cfg, "shared_expert_intermediate_size", default={"qwen2_moe": 5632}.get(mt, 512),
                      lo=0) if mt in SHARED_EXPERT else 0
    moe_layers = layers
    if qwen:
        step = read_int(where, cfg, "decoder_sparse_step", default=1, hi=1000)
        dense_only = cfg.get("mlp_only_layers") or []
        if not isinstance(dense_only, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                       for i in dense_only):
            raise BadInput(tr("{where}: key '{key}': expected a list of layer numbers, got {got}", where=where,
                              key="mlp_only_layers", got=shorten(repr(dense_only), 60)))
        moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
    return {"experts": experts, "experts_per_token": k, "expert_ffn": expert_ffn, "shared_expert_ffn": shared,
            "moe_layers": moe_layers}


def _llama4_moe_fields(where: str, cfg: dict[str, Any], layers: int) -> dict[str, Any]:
    """Llama 4 (Llama4TextConfig; transformers models/llama4/modeling_llama4.py Llama4TextMoe): num_local_experts
    experts intermediate_size wide and a shared expert as wide in the layers moe_layers lists (else every
    interleave_moe_layer_step-th layer); the others a dense MLP intermediate_size_mlp wide. Defaults: Llama 4
    Scout's (16 experts, one a token, every layer)."""
    experts = read_int(where, cfg, "num_local_experts", default=16, hi=100_000)
    k = read_int(where, cfg, "num_experts_per_tok", default=1, hi=experts)
    expert_ffn = read_int(where, cfg, "intermediate_size", default=8192)
    listed = cfg.get("moe_layers")
    if isinstance(listed, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in listed):
        moe_layers = sum(1 for i in set(listed) if 0 <= i < layers)
    else:
        step = read_int(where, cfg, "interleave_moe_layer_step", default=1, hi=1000)
        moe_layers = sum(1 for i in range(layers) if (i + 1) % step == 0)
    return {"experts": experts, "experts_per_token": k, "expert_ffn": expert_ffn, "shared_expert_ffn": expert_ffn,
            "moe_layers": moe_layers}


def _deepseek_moe_fields(where: str, cfg: dict[str, Any], layers: int) -> dict[str, Any]:
    """DeepSeekMoE (deepseek-moe-16b: model_type 'deepseek' with n_routed_experts): layer i has experts when
    i >= first_k_dense_replace and i % moe_layer_freq == 0; n_shared_experts shared experts run as one MLP
    n_shared_experts × moe_intermediate_size wide (its modeling_deepseek.py DeepseekMoE)."""
    experts = read_int(where, cfg, "n_routed_experts", hi=100_000)
    k = read_int(where, cfg, "num_experts_per_tok", hi=experts)
    expert_ffn = read_int(where, cfg, "moe_intermediate_size")
    shared = read_int(where, cfg, "n_shared_experts", default=0, lo=0, hi=1000) * expert_ffn
    first = read_int(where, cfg, "first_k_dense_replace", default=0, lo=0, hi=1000)
    freq = read_int(where, cfg, "moe_layer_freq", default=1, hi=1000)
    moe_layers = sum(1 for i in range(layers) if i >= first and i % freq == 0)
    return {"experts": experts, "experts_per_token": k, "expert_ffn": expert_ffn, "shared_expert_ffn": shared,
            "moe_layers": moe_layers}


def moe_mlp_params(h: int, layers: int, ffn: int, moe: dict[str, Any], active: bool = False,
                   shared_gate: bool = False) -> int:
    """Every layer's MLP parameters in a mixture-of-experts decoder: the experts' gated MLPs, the shared expert and
    the router (hidden → one logit per expert; `shared_gate`: Qwen2-MoE's shared_expert_gate, hidden → 1) in MoE
    layers, a dense gated MLP in the others. `active`: only the experts_per_token experts a token runs."""
    shared = moe["shared_expert_ffn"]
    experts = moe["experts_per_token"] if active else moe["experts"]
    per_moe = 3 * h * (experts * moe["expert_ffn"] + shared) + h * moe["experts"] + (h if shared_gate else 0)
    return moe["moe_layers"] * per_moe + (layers - moe["moe_layers"]) * 3 * h * ffn
