"""Adafactor's memory (Shazeer & Stern 2018, 'Adafactor: Adaptive Learning Rates with Sublinear Memory Cost', arXiv
1804.04235), as the Hugging Face Trainer (optim="adafactor") and kohya's sd-scripts (--optimizer_type Adafactor) run it:
transformers.optimization.Adafactor with beta1 None, its default (no first moment).

Its state, read in transformers' Adafactor.step: a gradient of two or more dimensions keeps the running mean of its
square over the last dimension and over the second-to-last (`exp_avg_sq_row = zeros(grad_shape[:-1])`,
`exp_avg_sq_col = zeros(grad_shape[:-2] + grad_shape[-1:])`); a one-dimensional one keeps the whole second moment
(`exp_avg_sq = zeros_like(grad)`); always fp32 (16-bit gradients are upcast first, `grad = grad.float()`, and the state
follows it, `.to(grad)`). So a linear layer's r x c weight keeps r + c values, a convolution's o x i x k x k weight
2 o i k (2/k of its size), a bias or a norm its own size. Per parameter that is the share `state_share` returns, times
factors.toml [bytes_per_param.optimizer] adafactor (4: one fp32 value).

The step walks the parameters one tensor at a time (no foreach or fused path): its element-wise passes make two
temporaries of the tensor's size alive at once (`(grad**2) + eps` while grad**2 is alive; the approximated
second moment while the update is computed), in fp32.
"""

from __future__ import annotations

from gpucheck.estimate.params import ParamCounts, kv_dim
from gpucheck.records import ModelSpec, TrainSpec

FP32_BYTES = 4
TEMPORARIES = 2  # tensors of the stepped tensor's size alive at once in Adafactor.step (module docstring)


def _transformer_state(m: ModelSpec) -> float:
    """Values Adafactor keeps for a full transformer: rows + columns of every weight matrix (attention q, k, v, o; the
    MLP's two or three), the norms' whole size, the embedding's and an untied head's rows + columns. Biases are left
    out (at most a few hidden-sized vectors per layer)."""
    h, kv, ffn = float(m.hidden or 0), float(kv_dim(m)), float(m.ffn or 4 * (m.hidden or 0))
    mlp = 3 if m.gated_mlp else 2
    per_layer = 2 * (h + h) + 2 * (h + kv) + mlp * (h + ffn) + 2 * h
    layers = (m.layers or 0) + (m.decoder_layers or 0)
    vocab = float(m.vocab or 0)
    heads = 1 if m.tied_embeddings else 2
    return layers * per_layer + (heads * (vocab + h) if vocab else 0.0)


def state_share(m: ModelSpec, t: TrainSpec, pc: ParamCounts) -> float:
    """The values of Adafactor's state per trainable parameter (1 for the other optimizers, whose tables are per
    parameter). LoRA's adapters are matrices of rank r: A (r x in) keeps r + in values, B (out x r) out + r, so
    1/r + 1/hidden of their parameters where in = out = hidden. A full fine-tune of a transformer is counted from its
    shape; of another model from its counted state (ModelSpec.factored_state_params), else its whole size (what an
    unfactored second moment holds: the upper bound)."""
    if t.optimizer != "adafactor" or pc.trainable <= 0:
        return 1.0
    if t.method in ("lora", "qlora"):
        return 1.0 / max(1, t.lora_rank) + (1.0 / m.hidden if m.hidden else 0.0)
    if m.arch == "transformer" and m.hidden and m.params:
        return _transformer_state(m) / float(m.params)
    if m.factored_state_params and m.params:  # more than 1 where 1 x 1 convolutions keep twice their size
        return float(m.factored_state_params) / float(m.params)
    return 1.0


def largest_tensor(m: ModelSpec, t: TrainSpec) -> float:
    """Elements of the largest tensor a full fine-tune of a transformer steps (the embedding, or an MLP matrix); 0
    where it is small against the rest (LoRA's adapters) or not counted (conv nets, U-Nets: their largest weights
    hold a few million values)."""
    if t.method != "full" or m.arch != "transformer" or not m.hidden:
        return 0.0
    return float(m.hidden) * max(float(m.vocab or 0), float(m.ffn or 0))


def temporary_bytes(m: ModelSpec, t: TrainSpec) -> float:
    """Adafactor's step temporaries on top of weights, gradients and state: two fp32 tensors of the largest stepped
    tensor's size."""
    if t.optimizer != "adafactor":
        return 0.0
    return TEMPORARIES * FP32_BYTES * largest_tensor(m, t)
