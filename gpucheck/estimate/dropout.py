"""Dropout and stochastic depth in a transformer layer: the traffic and the operators they add, only where on.

PyTorch's dropout with p = 0 is the identity: `_dropout_impl` returns its input when `p == 0 || !train ||
input.sym_numel() == 0`, and the fused CUDA kernel is taken only when `is_fused_kernel_acceptable` (input on the GPU
and 0 < p < 1) (pytorch/pytorch aten/src/ATen/native/Dropout.cpp). So a model whose configuration sets its
dropouts to 0 (Llama, Mistral, Qwen2, Gemma, Whisper, timm and torchvision ViTs) moves no bytes and launches no
kernel for them, while BERT (hidden_dropout_prob 0.1) or GPT-2 (resid_pdrop 0.1) pays two masked copies of the hidden
stream per layer and, with eager attention, one of the heads × s² scores (attention_probs_dropout_prob, attn_pdrop).
SDPA's flash and memory-efficient kernels apply attention dropout inside the attention kernel: nothing extra there.

timm's drop_path (stochastic depth, `drop_path_rate`) is the identity at 0 as well; above 0 it multiplies each
residual branch by a per-sample scale (`x * random_tensor`, timm layers/drop.py `drop_path`): read and write the
hidden stream, no mask of its width. Every count is in resources/factors.toml [speed.elementwise] and
[dispatch.kernels] with its source.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.records import ModelSpec


def hidden_p(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """The hidden-stream dropout probability: the model's, else its architecture's usual one (factors.toml
    [speed.elementwise.usual_dropout]: gated-MLP Llama-lineage models none, GELU BERT/GPT-2-lineage ones 0.1)."""
    if m.dropout is not None:
        return float(m.dropout)
    usual = f["speed"]["elementwise"]["usual_dropout"]
    return float(usual["gated" if m.gated else "plain"])


def attention_p(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """The attention-probability dropout: the model's, else as the hidden stream's."""
    return float(m.attention_dropout) if m.attention_dropout is not None else hidden_p(m, f)


def hidden_elements(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Elements per hidden unit one token's layer forward moves for dropout and drop_path (× hidden)."""
    e = f["speed"]["elementwise"]
    on = e["dropout_elements"] if hidden_p(m, f) > 0 else 0.0
    return on + (e["drop_path_elements"] if m.drop_path > 0 else 0.0)


def score_elements(m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Elements per attention score eager attention moves for the dropout over the probabilities."""
    return f["speed"]["elementwise"]["score_dropout_elements"] if attention_p(m, f) > 0 else 0.0


def layer_operators(m: ModelSpec, f: Mapping[str, Any]) -> tuple[float, float]:
    """(forward, backward) operators one layer dispatches for its dropouts and drop_path, where they are on."""
    k = f["dispatch"]["kernels"]
    branches = k["residual_branches_per_layer"]  # attention and MLP: each has one dropout and one drop_path
    drops = (branches if hidden_p(m, f) > 0 else 0) + (1 if m.eager_attention and attention_p(m, f) > 0 else 0)
    fwd = drops * k["dropout_forward"]
    bwd = drops * k["dropout_backward"]
    if m.drop_path > 0:
        fwd += branches * k["drop_path_forward"]
        bwd += branches * k["drop_path_backward"]
    return float(fwd), float(bwd)
