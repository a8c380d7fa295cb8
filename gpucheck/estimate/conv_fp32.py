"""FP32 convolutions outside the GEMM path: the Winograd (and FFT) algorithms cuDNN and MIOpen pick for 3×3 stride-1
layers do fewer multiplies than the direct convolution the FLOP count assumes (factors.toml [speed.conv_fp32]).

They run on the FP32 vector units. Where a GPU also runs FP32 GEMMs on matrix units faster than its vector rate (AMD
CDNA: gpus.toml tflops_fp32_matrix), the implicit-GEMM convolution on the matrix cores is the path to beat: MIOpen's
find step times both and keeps the faster, so Winograd shortens those layers only by what its gain leaves over the
matrix rate (never below the matrix path itself)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.factors import fp32_lanes_per_sm
from gpucheck.records import ModelSpec


def winograd_vector_share(spec: Any, f: Mapping[str, Any]) -> float:
    """The vector rate Winograd kernels issue at, over the FP32 GEMM rate (1.0 where both are the same units)."""
    matrix_tflops = getattr(spec, "tflops_fp32_matrix", None) if spec is not None else None
    if not matrix_tflops or not spec.tflops_fp32:
        return 1.0
    flops_per_cu_clock = 2.0 * fp32_lanes_per_sm(spec, f)  # the catalog's FP32 figure's FLOPs per CU and clock
    vector_tflops = spec.tflops_fp32 * f["speed"]["conv_fp32"]["winograd_flops_per_cu_clock"] / flops_per_cu_clock
    return vector_tflops / matrix_tflops


def conv_fp32_multiplier(m: ModelSpec, spec: Any, f: Mapping[str, Any]) -> float:
    """Effective-rate multiplier of an FP32 conv net's matrix work from its 3×3 stride-1 layers' fast algorithms."""
    s = f["speed"]["conv_fp32"]
    share = m.winograd_share if m.winograd_share is not None else s["usual_winograd_share"]
    speedup = max(1.0, s["conv_fp32_speedup"] * winograd_vector_share(spec, f))
    return 1.0 / ((1.0 - share) + share / speedup)
