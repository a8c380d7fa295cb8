"""QLoRA's 4-bit weights in a step: the bytes each pass moves to dequantize them, and whether bitsandbytes casts the
dequantized copy to the compute dtype (resources/factors.toml [bandwidth], [dispatch.kernels])."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.records import TrainSpec


def dequant_bytes(quantized: float, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """QLoRA: every pass over a 4-bit weight dequantizes it (read 0.5 B, write 2 B, read 2 B back), and casts the
    copy to the compute dtype where bitsandbytes dequantized it to another (dequant_cast)."""
    passes = 3.0 if t.grad_checkpointing else 2.0
    bw = f["bandwidth"]
    cast = bw["dequant_cast_bytes_per_param"][t.qlora_dequant_dtype] if dequant_cast(t) else 0.0
    return quantized * (bw["dequant_bytes_per_param"] + cast) * passes


def dequant_cast(t: TrainSpec) -> bool:
    """bitsandbytes' MatMul4Bit casts each dequantized weight, 'F.dequantize_4bit(B, quant_state).to(A.dtype)', which
    costs a copy where the weight was quantized from another dtype than the one the matmuls run in
    (train.qlora_dequant_dtype; factors.toml [bandwidth.dequant_cast_bytes_per_param])."""
    if t.method != "qlora" or t.qlora_kernel != "bitsandbytes" or t.qlora_dequant_dtype == "compute":
        return False
    compute = "fp16" if t.precision.startswith("fp16") else "bf16" if t.precision.startswith("bf16") else "fp32"
    return t.qlora_dequant_dtype != compute
