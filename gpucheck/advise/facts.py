"""What the ladder needs to know about a GPU (`GpuFacts`), from a catalog spec or an estimator Target."""

from __future__ import annotations

from typing import Any

from gpucheck.advise.gpu_support import GpuFacts
from gpucheck.estimate.core import fp16_gives_nan
from gpucheck.machine import Machine
from gpucheck.records import GpuSpec


def _cc(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:  # AMD "gfx1100"
        return None


def facts_for_spec(spec: GpuSpec, gpus: int = 1, ram_bytes: int | None = None) -> GpuFacts:
    return GpuFacts(backend=spec.backend, compute_capability=_cc(spec.compute_capability),
                    supports_bf16=spec.tflops_bf16_tensor is not None, ram_bytes=ram_bytes, gpus=gpus,
                    fp16_nan=fp16_gives_nan(spec.name))


def facts_for_target(target: Any, machine: Machine | None) -> GpuFacts:
    """What the ladder needs to know about an estimator `Target` (catalog spec, else the scanned GPU)."""
    spec = target.gpu
    cc = _cc(spec.compute_capability) if spec is not None else None
    bf16 = spec.tflops_bf16_tensor is not None if spec is not None else False
    if machine is not None and machine.compute_gpus() and target.backend != "cpu":
        g = machine.compute_gpus()[0]
        cc = cc if cc is not None else _cc(g.compute_capability)
        if spec is None and g.supports_bf16 is not None:
            bf16 = g.supports_bf16
    backend = target.backend if target.backend in ("cuda", "rocm", "metal", "xpu", "cpu") else "other"
    if backend == "cpu":
        bf16 = target.native_bf16
    name = target.gpu_name or (spec.name if spec is not None else None)
    return GpuFacts(backend=backend, compute_capability=cc, supports_bf16=bf16, ram_bytes=target.ram_bytes,
                    gpus=max(1, target.gpus), fp16_nan=backend == "cuda" and fp16_gives_nan(name))
