"""What a conv net's layers cost on a CPU beyond the model's matrix rate: the weights' reorder on every call, the
multiplies on the zero padding that the convolutions skip, and NCHW max pooling.

PyTorch's eager CPU convolutions (aten::mkldnn_convolution, oneDNN) reorder the weight into oneDNN's blocked layout
on every call, in the forward pass and again for the input's gradient, whatever the batch and the image: a cost per
weight element (resources/factors.toml [cpu.conv_reorder], measured on one core) that the cores share. It is small
beside a conv net's multiplies at training sizes, and most of a U-Net's convolutions at its deepest levels, where
1,280-channel weights meet 8x8 or 4x4 latents (Stable Diffusion 1.5's 589 M convolution weights). Priced where the
model states its convolution weights (ModelSpec.conv_params); the weight gradient's own cost is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.cpu_core import sixteen_bit
from gpucheck.estimate.dispatch import shared_by_cores
from gpucheck.estimate.factors import image_scale
from gpucheck.records import ModelSpec, TrainSpec


def conv_reorder_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """One micro-batch's weight reorders on a CPU: the forward (twice under gradient checkpointing) and the input's
    gradient, spread over the cores (0 on GPUs and where the model does not state its convolution weights)."""
    if not target.on_cpu or not m.conv_params:
        return 0.0
    c = f["cpu"]["conv_reorder"]
    kind = "bf16" if sixteen_bit(t.precision) else "fp32"
    per_weight = c[f"forward_ns_per_weight_{kind}"] * (2.0 if t.grad_checkpointing else 1.0) \
        + c[f"backward_ns_per_weight_{kind}"]
    return shared_by_cores(float(m.conv_params), per_weight * 1e-9, c["reference_clock_mhz"], target, f)


def padding_skipped_share(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """The share of the model's forward linear and convolution multiply-adds a CPU does not run: those on the zero
    padding, counted at ref_image_size and scaled as 1 / image side (factors.toml [cpu.conv_padding]); 0 on GPUs."""
    if not target.on_cpu or not m.conv_padding_share:
        return 0.0
    ref, side = m.ref_image_size or 0, t.image_size or m.ref_image_size or 0
    scale = ref / side if ref and side else 1.0
    return min(m.conv_padding_share * scale, f["cpu"]["conv_padding"]["max_share"])


def max_pool_seconds(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """One micro-batch's max-pool forward on a CPU in PyTorch's default NCHW layout, which walks every output's window
    one element at a time (factors.toml [cpu.max_pool], measured on one core), spread over the cores: 0 on GPUs, in
    channels_last (vectorized over the channels: its bytes are the element-wise traffic) and where not counted."""
    if not target.on_cpu or t.channels_last or not m.max_pool_outputs:
        return 0.0
    c = f["cpu"]["max_pool"]
    per_output = (c["nchw_ns_per_output"] + c["nchw_ns_per_tap"] * m.max_pool_window) * 1e-9
    outputs = m.max_pool_outputs * image_scale(m, t) * t.batch * (2.0 if t.grad_checkpointing else 1.0)
    return shared_by_cores(outputs, per_output, c["reference_clock_mhz"], target, f)
