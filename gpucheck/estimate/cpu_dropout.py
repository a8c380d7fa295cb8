"""Dropout on the CPU: random masks drawn one element at a time by one thread, and attention that dropout
keeps off the fused kernel.

PyTorch's CPU dropout (`at::dropout` → `empty_like(input).bernoulli_(1 - p)`, aten/src/ATen/native/Dropout.cpp)
fills its mask with `bernoulli_scalar_kernel`, which in PyTorch's released builds runs the generic template
(aten/src/ATen/native/cpu/DistributionKernels.cpp: the MKL path is disabled, "Disable MKL rng until
https://github.com/pytorch/pytorch/issues/132395 is addressed"): aten/src/ATen/native/cpu/DistributionTemplates.h
`bernoulli_kernel` takes the generator's mutex and runs `cpu_serial_kernel` over the tensor, one
`at::bernoulli_distribution<double>` draw from the Mersenne Twister per element. So the masks cost a fixed time per
element on ONE core, whatever the thread count: about 5 ns an element, twenty times a ReLU on the same core
(benchmarks/measure_cpu_only_costs.py, resources/factors.toml [cpu.dropout]). Single-thread work, it is priced at the
host's clock like the operators' dispatch and counted in the step's host part.

Where it is drawn, per sample: a transformer's hidden-stream dropouts (the attention and MLP outputs of every layer
and the embeddings'), its attention-probability dropout over heads × the attended length (see below), PEFT's LoRA
dropout on every adapted linear's input (one module, one mask, per adapted linear: peft/tuners/lora/layer.py), and a
conv net's or MLP's own dropout layers (ModelSpec.dropout_elements); a seq2seq decoder's are not counted (Whisper's
configs set them to 0). Activation checkpointing runs each layer's
forward again with the saved generator state (torch.utils.checkpoint, preserve_rng_state=True): the masks are drawn
twice.

On the CPU, `scaled_dot_product_attention` with dropout_p > 0 does not take the fused flash kernel: it falls back to
the math path, which materializes the scores, their softmax and the dropout mask like eager attention (checked with
torch.profiler on PyTorch 2.14: dropout_p = 0 runs `_scaled_dot_product_flash_attention_for_cpu`, dropout_p = 0.1
`_scaled_dot_product_attention_math`, `softmax`, `dropout`, `bernoulli_`). So a CPU estimate of a model whose
attention dropout is on prices its attention as eager (memory and traffic).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gpucheck.estimate import dropout as dr
from gpucheck.estimate.dispatch import at_host_clock
from gpucheck.estimate.factors import image_scale, seq_len_of
from gpucheck.estimate.lora_dropout import adapted_inputs
from gpucheck.records import ModelSpec, TrainSpec


def cpu_model(m: ModelSpec, f: Mapping[str, Any]) -> ModelSpec:
    """The model as the CPU runs it: a transformer whose attention dropout is on materializes its scores (SDPA's math
    path), as eager attention does."""
    if m.arch != "transformer" or m.eager_attention or dr.attention_p(m, f) <= 0:
        return m
    return dataclasses.replace(m, eager_attention=True)


def mask_elements_per_sample(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], attn_len: int | None = None) -> float:
    """Elements one sample's forward pass draws dropout masks for (twice with activation checkpointing)."""
    passes = 2.0 if t.grad_checkpointing else 1.0
    if m.arch != "transformer":
        return float(m.dropout_elements) * image_scale(m, t) * passes
    h, layers, tokens = float(m.hidden or 0), float(m.layers or 0), float(seq_len_of(t))
    per_token = 0.0
    if dr.hidden_p(m, f) > 0:  # the residual branches' dropouts in every layer, the embeddings' once
        per_token += h * (f["dispatch"]["kernels"]["residual_branches_per_layer"] * layers + 1)
    if dr.attention_p(m, f) > 0:  # over the probabilities: heads × the attended length, per token and layer
        per_token += float(m.heads or 1) * float(attn_len or tokens) * layers
    if t.method in ("lora", "qlora") and t.lora_dropout > 0:
        per_token += sum(n * width for n, width, _kept in adapted_inputs(m, t.lora_targets, f)) * layers
    return per_token * tokens * passes


def mask_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any], attn_len: int | None = None) -> float:
    """Seconds one step spends drawing dropout masks on a CPU target (0 on GPUs: their dropout kernels draw the masks
    in parallel, inside the memory-bound work already priced)."""
    if not target.on_cpu:
        return 0.0
    c = f["cpu"]["dropout"]
    per_element = at_host_clock(c["mask_ns_per_element"] * 1e-9, c["reference_clock_mhz"], target, f)
    return mask_elements_per_sample(m, t, f, attn_len) * t.batch * per_element
