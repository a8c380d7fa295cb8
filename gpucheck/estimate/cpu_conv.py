"""A CPU convolution's fixed cost per call: the reorder of its weights.

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
from gpucheck.estimate.dispatch import at_host_clock
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
    cores = target.cpu_cores or f["cpu"]["default_cores"]
    return float(m.conv_params) * at_host_clock(per_weight * 1e-9, c["reference_clock_mhz"], target, f) / max(1, cores)
