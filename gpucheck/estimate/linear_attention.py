"""Decoders whose layers mix tokens in two ways: softmax attention in some, a gated linear attention in the rest.

Qwen3.5 and Qwen3-Next (Hugging Face transformers 5, models/qwen3_5/modeling_qwen3_5.py; qwen3_next is the same
layer) run a Gated DeltaNet (Yang, Kautz, Hatamizadeh 2024, 'Gated Delta Networks', arXiv 2412.06464) in three of
every four layers (`layer_types`). Its token mixer, Qwen3_5GatedDeltaNet:
- projections in_proj_qkv (hidden → 2 × key width + value width), in_proj_z (hidden → value width), in_proj_b and
  in_proj_a (hidden → one scalar per value head), out_proj (value width → hidden), all without bias;
- a depthwise causal convolution over the q / k / v stream, the recurrence (flash-linear-attention's
  chunk_gated_delta_rule) and a gated RMSNorm: a fixed-size state per head instead of a cache growing with the
  sequence, so no term in the sequence length squared.
The softmax layers (Qwen3_5Attention) gate each head's output: q_proj is twice as wide and half of it goes through a
sigmoid (`attn_output_gate`).

Pure arithmetic over a `ModelSpec`; the constants are in resources/factors.toml [linear_attention], with their source.
A model without such layers gets the softmax layers' counts unchanged (every function returns the plain decoder's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.records import ModelSpec, gated_deltanet_projection_params


def softmax_layers(m: ModelSpec) -> int:
    """The layers that run softmax attention (every layer of a plain transformer)."""
    return max(0, (m.layers or 1) - m.linear_attn_layers)


def q_proj_width(m: ModelSpec, q_out: int) -> int:
    """The softmax layers' q projection's output width: the queries, and as much again for the output gate."""
    return 2 * q_out if m.attn_output_gate else q_out


def mixer_linear_params(m: ModelSpec) -> float:
    """The linear layers' parameters of one Gated DeltaNet token mixer (what QLoRA quantizes and a token multiplies
    with): in_proj_qkv, in_proj_z, in_proj_b, in_proj_a and out_proj."""
    if not m.linear_attn_layers:
        return 0.0
    return float(gated_deltanet_projection_params(m.hidden or 0, m.linear_key_dim, m.linear_value_dim,
                                                  m.linear_value_heads))


def mixer_lora_params(m: ModelSpec, rank: int) -> float:
    """LoRA adapters (A: rank × input, B: output × rank) on every linear of one Gated DeltaNet mixer, as PEFT's
    'all-linear' targets them; q / k / v / o targets name no module of this layer."""
    if not m.linear_attn_layers:
        return 0.0
    h, k, v, heads = m.hidden or 0, m.linear_key_dim, m.linear_value_dim, m.linear_value_heads
    return float(rank * ((h + 2 * k + v) + (h + v) + 2 * (h + heads) + (v + h)))


def recurrence_flops_per_token(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Forward FLOPs per token of the linear layers' chunked recurrence, beside their projections (all layers).

    flash-linear-attention's chunk_gated_delta_rule_fwd, per value head and token with chunks of C tokens, key width
    dk and value width dv (multiply-adds): the WY form inside a chunk (k·kᵀ, the triangular solve, w = A·k, u = A·v:
    C·(dk + dk + dv) + C²/3), the state pass (v_new = u − w·S and S += kᵀ·v_new: 2·dk·dv) and the output
    (q·S: dk·dv; the masked q·kᵀ inside the chunk times v_new: C·(dk + dv)); two FLOPs each."""
    if not m.linear_attn_layers or not m.linear_value_heads:
        return 0.0
    c = float(f["linear_attention"]["chunk_tokens"])
    heads = m.linear_value_heads
    dk = m.linear_key_dim / max(1, m.linear_key_heads)
    dv = m.linear_value_dim / heads
    macs = 3.0 * dk * dv + c * (3.0 * dk + 2.0 * dv) + c * c / 3.0
    return 2.0 * macs * heads * m.linear_attn_layers


def mixer_bytes_per_token(m: ModelSpec, f: Mapping[str, Any], q_out: int, kv: int) -> tuple[float, float]:
    """(mean, largest) bytes per token and layer that the token mixers keep for backward beyond what
    [activations] counts for a softmax layer (its q, output, k and v): a Gated DeltaNet layer keeps its own tensors
    instead of those; a softmax layer with an output gate keeps the gate's two tensors as well."""
    if not m.linear_attn_layers and not m.attn_output_gate:
        return 0.0, 0.0
    la = f["linear_attention"]
    h = m.hidden or 0
    gate = la["output_gate_bytes"] * q_out if m.attn_output_gate else 0.0
    linear = 0.0
    if m.linear_attn_layers:
        stream = 2 * m.linear_key_dim + m.linear_value_dim
        linear = (la["qkv_stream_bytes"] * stream + la["value_bytes"] * m.linear_value_dim
                  + la["per_head_bytes"] * m.linear_value_heads - la["softmax_hidden_bytes"] * h
                  - f["activations"]["swiglu"]["kv_bytes"] * kv)
    soft = softmax_layers(m)
    kinds = ([gate] if soft else []) + ([linear] if m.linear_attn_layers else [])
    return (soft * gate + m.linear_attn_layers * linear) / (m.layers or 1), max(kinds)
