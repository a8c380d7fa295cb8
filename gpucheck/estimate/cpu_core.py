"""The CPU as a training device: what its cores' vector and matrix units do, from the scanned flags.

Peak FLOPs per core per cycle by vendor, flags and brand (resources/factors.toml [cpu.cores]); fp32 linear layers through
the BLAS (oneMKL: AVX2 at most on AMD, [cpu.blas_gemm]); bf16 natively or emulated ([cpu.bf16]); GEMM efficiency by the
rows each core gets. The roofline that uses them is gpucheck/estimate/compute.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate.factors import seq_len_of
from gpucheck.records import ModelSpec, TrainSpec


def sixteen_bit(precision: str) -> bool:
    return precision != "fp32"


def element_bytes(precision: str) -> float:
    """Bytes of one activation element in the training precision: 2 in 16 bits (pure or autocast), 4 in fp32."""
    return 2.0 if sixteen_bit(precision) else 4.0


@dataclass(frozen=True)
class CpuCore:
    """What a CPU core's vector (and matrix) units can do, from the scanned flags (factors.toml [cpu.cores])."""

    kind: str  # the [cpu.cores] row: amd-zen5, x86-avx2-fma, arm, …
    fp32_flops_per_cycle: float
    bf16_flops_per_cycle: float
    fp32_blas_flops_per_cycle: float  # fp32 linear layers / matmuls through the BLAS (oneMKL: AVX2 at most on AMD)
    native_bf16: bool  # AVX512_BF16, AMX-BF16 or Arm FEAT_BF16: bf16 runs natively, not emulated
    amx: bool


def _row_matches(row: Mapping[str, Any], vendor: str, brand: str, flags: set[str]) -> bool:
    if row["vendor"] != "any" and row["vendor"] != vendor:
        return False
    if not set(row["requires"]) <= flags:
        return False
    return not row["brand"] or any(re.search(p, brand) for p in row["brand"])


def cpu_core(vendor: str | None, brand: str | None, flags: tuple[str, ...] | set[str],
             f: Mapping[str, Any]) -> CpuCore:
    """The first [cpu.cores] row (in file order) this CPU's vendor, brand and flags match; `default` otherwise."""
    c = f["cpu"]
    fl = {x.lower() for x in flags}
    if "asimd" in fl:
        fl.add("neon")
    cores = c["cores"]
    kind = next((k for k in cores if k != "default" and _row_matches(cores[k], (vendor or "").lower(), brand or "", fl)),
                "default")
    row = cores[kind]
    fp32 = float(row["fp32_flops_per_cycle"])
    blas = c["blas_gemm"]
    capped = (vendor or "").lower() in blas["vendors"]
    return CpuCore(kind=kind, fp32_flops_per_cycle=fp32, bf16_flops_per_cycle=float(row["bf16_flops_per_cycle"]),
                   fp32_blas_flops_per_cycle=min(fp32, float(blas["fp32_flops_per_cycle_cap"])) if capped else fp32,
                   native_bf16=bool(fl & set(c["native_bf16_flags"])), amx="amx_bf16" in fl)


def cpu_math(t: TrainSpec, core: CpuCore, f: Mapping[str, Any], arch: str = "") -> tuple[float, str]:
    """(FLOPs per core per cycle the job's matrix math runs at, math kind). fp32 linear layers and matmuls
    (families in factors.toml [cpu.blas_gemm] archs) run at the BLAS rate, convolutions at the cores' own.
    16-bit math runs at the native bf16 rate only where PyTorch's CPU kernels were measured to reach it
    (factors.toml [cpu.bf16]: the gain over fp32 measured with bf16 autocast, capped at the units' bf16 peak);
    emulated bf16 gains nothing."""
    if not sixteen_bit(t.precision):
        blas = arch in f["cpu"]["blas_gemm"]["archs"]
        return (core.fp32_blas_flops_per_cycle if blas else core.fp32_flops_per_cycle), "cpu-fp32"
    if not core.native_bf16:
        return core.fp32_flops_per_cycle, "cpu-bf16-emulated"
    b = f["cpu"]["bf16"]
    if core.amx:  # AMX tiles gain less on the small-channel convolutions of conv nets than on linear layers
        gain = b["amx_conv_gain"] if arch in b["amx_conv_archs"] else b["amx_gemm_gain"]
    else:
        gain = b["native_gemm_gain"]
    rate = min(core.bf16_flops_per_cycle, core.fp32_flops_per_cycle * float(gain))
    return rate, "cpu-amx-bf16" if core.amx else "cpu-bf16"


# -- rates -----------------------------------------------------------------------------------------


def cpu_rows_efficiency(m: ModelSpec, t: TrainSpec, target: Any, f: Mapping[str, Any]) -> float:
    """On the CPU a GEMM's efficiency grows with its rows (the tokens of the micro-batch): oneDNN/MKL pack and
    block the weight matrix per call and split the rows over the cores, so few rows per core leave the FMA units
    waiting: r / (r + h), r = rows ÷ cores, h by the kind of core where its kernels were measured
    (cpu.gemm_half_rows_by_core), else cpu.gemm_half_rows_per_core. Transformers only (a convolution's rows
    are batch × pixels, thousands even for one image). 1.0 on GPUs, where `small_hidden_half` covers narrow
    layers."""
    if target.gpu is not None or m.arch != "transformer":
        return 1.0
    half = f["cpu"]["gemm_half_rows_by_core"].get(target.cpu_core(f).kind, f["cpu"]["gemm_half_rows_per_core"])
    if not half:
        return 1.0
    cores = target.cpu_cores or f["cpu"]["default_cores"]
    rows = seq_len_of(t) * t.batch / max(1, cores)
    return rows / (rows + float(half))
