"""Fused attention on a CPU: a fixed cost per score besides the multiplies.

PyTorch's flash-attention kernel for CPUs (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp), which
scaled_dot_product_attention runs on a CPU without dropout, computes the scores of a block of queries and keys with
one GEMM and then, row by row, their running max, their exponentials and sum, and the output's rescaling; backward
recomputes the probabilities from the saved log-sum-exp. The GEMMs' FLOPs are priced at the matrix rate
(compute.py); what each score costs whatever the head dim — its exponential, the max and sum, the block's
bookkeeping — is priced here (resources/factors.toml [cpu.attention], measured on one core). With few dims per head
(a U-Net's 8 to 40, a small transformer's 64) it is most of the kernel's time. Attention that materializes its scores
(eager attention, or SDPA with dropout on a CPU: cpu_dropout.cpu_model) is priced as element-wise traffic instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate import linear_attention as la
from gpucheck.estimate import seq2seq as s2s
from gpucheck.estimate.dispatch import shared_by_cores
from gpucheck.estimate.factors import image_scale, seq_len_of
from gpucheck.estimate.params import head_dim
from gpucheck.records import ModelSpec, TrainSpec


def fused_scores_per_sample(m: ModelSpec, t: TrainSpec, attn_len: int | None = None) -> float:
    """Attention scores one sample's forward computes in a fused kernel (0 where they are materialized)."""
    if m.eager_attention:
        return 0.0
    if m.arch == "transformer":
        s = seq_len_of(t)
        scores = float(la.softmax_layers(m)) * (m.heads or 1) * s * (attn_len or s)
        hd = head_dim(m)
        return scores + (s2s.decoder_forward_flops(m, t)[1] / (4.0 * hd) if hd else 0.0)  # decoder: self + cross
    if m.arch == "unet":  # self-attention over the latent tokens, counted per image at ref_image_size (pixels²)
        return float(m.attn_score_elements) * image_scale(m, t) ** 2
    return 0.0


def fused_score_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any],
                        attn_len: int | None = None) -> float:
    """A CPU step's fixed per-score time in fused attention: forward (twice with checkpointing) and backward,
    spread over the cores (0 on GPUs)."""
    if not target.on_cpu:
        return 0.0
    a = f["cpu"]["attention"]
    per_score = a["fused_forward_ns_per_score"] * (2.0 if t.grad_checkpointing else 1.0) \
        + a["fused_backward_ns_per_score"]
    return shared_by_cores(fused_scores_per_sample(m, t, attn_len) * t.batch, per_score * 1e-9, a["reference_clock_mhz"],
                           target, f)
