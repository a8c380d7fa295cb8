"""Mixture-of-experts MLPs (Mixtral, Qwen2-MoE, Qwen3-MoE, OLMoE): what a layer stores and what a token runs.

A MoE layer stores `experts` gated MLPs and a router (a linear from the hidden state to one logit per expert); each
token runs `experts_per_token` of them, and a shared expert where the model has one (Qwen2-MoE). Weights, gradients,
optimizer state, LoRA adapters and 4-bit quantization follow what is stored (every expert); FLOPs, activations and
element-wise traffic follow what a token runs. A dense model (experts = 0) is unchanged by every function here.

How the layer runs, read from Hugging Face transformers 5 (models/qwen3_moe/modeling_qwen3_moe.py; Mixtral's and
OLMoE's layers are the same shape): the router's linear, a softmax in fp32 and top-k; then integrations/moe.py
grouped_mm_experts_forward, the default experts_implementation: the token-expert pairs sorted by expert, the hidden
state gathered once per pair (`hidden_states[perm // num_top_k]`, kept for the grouped GEMM's backward), one grouped
GEMM for gate and up over all experts, SwiGLU, one grouped GEMM down (its output kept for the routing weight's
product), the pairs put back in token order and summed over k. Its operators do not grow with the experts (counted:
factors.toml [dispatch.kernels.layer_code] hf-moe-grouped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.factors import seq_len_of
from gpucheck.records import ModelSpec, TrainSpec

MOE_LAYER_CODE = "hf-moe-grouped"


def is_moe(m: ModelSpec) -> bool:
    return m.arch == "transformer" and m.experts > 0 and m.experts_per_token > 0 and m.expert_ffn > 0


def moe_layer_count(m: ModelSpec) -> int:
    """Layers with experts (the rest keep a dense MLP)."""
    if not is_moe(m):
        return 0
    layers = m.layers or 1
    return min(layers, m.moe_layers or layers)


def _over_layers(m: ModelSpec, dense: float, per_moe: float) -> float:
    """A per-layer quantity summed over the layers: `per_moe` in each layer with experts, `dense` in the others."""
    layers = m.layers or 1
    moe = moe_layer_count(m)
    return (layers - moe) * dense + moe * per_moe


def _mats(m: ModelSpec) -> int:
    return 3 if m.gated else 2


def _dense_ffn(m: ModelSpec) -> float:
    return float(m.ffn or 4 * (m.hidden or 0))


def pair_share(m: ModelSpec) -> float:
    """Token-expert pairs the routing makes per token and layer (k in a MoE layer, 0 in a dense one), averaged over
    the layers: what the gathers and the routing weights' products are counted on (the shared expert reads the
    hidden state in place)."""
    return _over_layers(m, 0.0, m.experts_per_token) / (m.layers or 1)


def mlp_calls_per_token(m: ModelSpec) -> float:
    """MLPs a token's hidden state goes into per layer, averaged over the layers: 1 in a dense layer; k routed
    experts plus the shared expert in a MoE layer."""
    per_moe = m.experts_per_token + (1 if m.shared_expert_ffn else 0)
    return _over_layers(m, 1.0, per_moe) / (m.layers or 1)


def token_ffn(m: ModelSpec) -> float:
    """The MLP width a token runs through, averaged over the layers: the dense width, or in a MoE layer k experts'
    widths plus the shared expert's. Activations, element-wise traffic and FLOPs per token follow it."""
    active = m.experts_per_token * m.expert_ffn + m.shared_expert_ffn
    return _over_layers(m, _dense_ffn(m), active) / (m.layers or 1)


def largest_mlp_width(m: ModelSpec) -> float:
    """The widest single MLP matrix's inner size (what a kernel that dequantizes one weight at a time holds)."""
    if not is_moe(m):
        return _dense_ffn(m)
    dense = _dense_ffn(m) if moe_layer_count(m) < (m.layers or 1) else 0.0
    return float(max(dense, m.expert_ffn, m.shared_expert_ffn))


def _router_params(m: ModelSpec) -> float:
    """A MoE layer's router (hidden → one logit per expert) and, with a shared expert, its gate (Qwen2-MoE's
    shared_expert_gate: hidden → 1)."""
    h = m.hidden or 0
    return float(h * m.experts + (h if m.shared_expert_ffn else 0))


def mlp_params_stored(m: ModelSpec) -> float:
    """Parameters of every layer's MLP as stored: all experts, the shared expert and the router in MoE layers."""
    h = float(m.hidden or 0)
    per_moe = _mats(m) * h * (m.experts * m.expert_ffn + m.shared_expert_ffn) + _router_params(m)
    return _over_layers(m, _mats(m) * h * _dense_ffn(m), per_moe)


def mlp_params_active(m: ModelSpec) -> float:
    """Parameters a token's MLPs multiply with, over all layers: the dense MLP, or k experts, the shared expert and
    the router in a MoE layer (the matrix FLOPs per token are twice this)."""
    h = float(m.hidden or 0)
    layers = m.layers or 1
    return layers * _mats(m) * h * token_ffn(m) + moe_layer_count(m) * _router_params(m)


def lora_mlp_params(m: ModelSpec, r: int, all_linear: bool) -> float:
    """LoRA adapters on the MLPs of all layers at rank r: every matrix of the dense MLP; in a MoE layer every expert's
    matrices (PEFT on per-expert linears, or target_parameters on the experts' 3D weights: rank r per expert either
    way), the shared expert's and, with all-linear, the router (an nn.Linear in transformers 4's MoE layers)."""
    h = float(m.hidden or 0)
    shared = (h + m.shared_expert_ffn) if m.shared_expert_ffn else 0.0
    per_moe = _mats(m) * r * (m.experts * (h + m.expert_ffn) + shared) + (r * (h + m.experts) if all_linear else 0.0)
    return _over_layers(m, _mats(m) * r * (h + _dense_ffn(m)), per_moe)


def mlp_weight_tensors(m: ModelSpec) -> int:
    """Weight tensors of one layer's MLP as the code holds them (per MoE layer: the experts' gate-up and down 3D
    weights, the router, the shared expert's matrices and gate); the dense MLP's matrices otherwise."""
    if not is_moe(m):
        return _mats(m)
    return 2 + 1 + ((_mats(m) + 1) if m.shared_expert_ffn else 0)


def routing_activation_bytes(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Bytes per token and layer (averaged over the layers) the routing keeps for backward beside what the MLPs keep
    ([activations.moe]): the hidden state gathered once per token-expert pair and each pair's down-projection output
    (kept for the product with its routing weight), 16-bit; the router's softmax output in fp32."""
    if not is_moe(m):
        return 0.0
    a = f["activations"]["moe"]
    router = _over_layers(m, 0.0, a["router_bytes_per_expert"] * m.experts) / (m.layers or 1)
    return pair_share(m) * a["pair_hidden_bytes"] * float(m.hidden or 0) + router


def routing_hidden_elements(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Element-wise hidden-state elements the routing moves per token and layer in one forward pass, in units of the
    hidden size ([speed.elementwise] moe_pair_hidden_elements per token-expert pair)."""
    if not is_moe(m):
        return 0.0
    return pair_share(m) * f["speed"]["elementwise"]["moe_pair_hidden_elements"]


def grouped_gemm_falls_back(m: ModelSpec, target: Any, f: Mapping[str, Any]) -> bool:
    """transformers runs a MoE layer's grouped GEMMs as a loop over the experts on NVIDIA GPUs below compute
    capability 8.0 ([dispatch.moe_fallback])."""
    spec = getattr(target, "gpu", None)
    if not is_moe(m) or spec is None or getattr(target, "backend", "") != "cuda":
        return False
    try:
        cc = float(spec.compute_capability or "")
    except ValueError:
        return False
    return cc < f["dispatch"]["moe_fallback"]["min_compute_capability"]


def experts_hit(m: ModelSpec, t: TrainSpec) -> float:
    """Experts of one MoE layer that receive tokens in a micro-batch, routing taken as uniform: each token picks
    experts_per_token of the experts."""
    tokens = seq_len_of(t) * t.batch
    return m.experts * (1.0 - (1.0 - m.experts_per_token / m.experts) ** tokens)


def fallback_loop_ops(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Operators per micro-batch step of the grouped-GEMM fallback's per-expert loops (forward, its recomputation
    under checkpointing, backward), over the MoE layers ([dispatch.moe_fallback], counted from the code)."""
    k = f["dispatch"]["moe_fallback"]
    passes = 2.0 if t.grad_checkpointing else 1.0
    per_layer = (k["forward_ops_per_expert"] * passes + k["backward_ops_per_expert"]) * experts_hit(m, t)
    return per_layer * moe_layer_count(m)
