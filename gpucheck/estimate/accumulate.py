"""Tensor math on cards that run FP32 accumulation at half rate (GeForce and GeForce laptop GPUs).

NVIDIA's GeForce parts run FP16/BF16 tensor math with FP32 accumulation (what PyTorch's autocast, cuBLAS
CUBLAS_COMPUTE_32F and cuDNN's FP16 convolutions use) at half their FP16-accumulate rate, and TF32 at half the rate
of the workstation card on the same chip: the GA102 whitepaper's appendix lists the RTX 3090 at 71 TFLOPS FP16 with
FP32 accumulate (142 with FP16 accumulate) and TF32 35.6, while the RTX A6000, the same GA102 SM, runs FP32
accumulation at full rate (154.8 TFLOPS, TF32 77.4). The catalog's tensor figures are already the FP32-accumulate
rates. Two consequences follow, both from the per-tile work of a GEMM on the same SM:

- power: such a card does the physical work of its FP16-accumulate rate per FLOP counted at the halved rate
  (compute.tensor_power_fraction doubles the figure it divides the power budget by);
- efficiency: a GEMM tile's time is its tensor-core (MMA) time plus the work around it that does not run on the
  tensor cores (loading the operand tiles, the epilogue, the tail of the last wave). On a half-rate card the MMA
  time doubles and the rest stays as on the full-rate SM, so a kernel that reaches a share e of a full-rate peak
  reaches 2e / (1 + e) of the halved one. No constant is chosen: e is the model's own GEMM efficiency.
  A measured check (XHMY/torch_benchmark README, matmul_tflops_bench.py, torch.float16 `a @ b`, n = 8192-16384):
  an RTX 4090 multiplies at 165-171 TFLOPS, 100-104 % of its 165.2 FP32-accumulate figure, while an H100 SXM reaches
  626-659 of 989 (63-67 %) and a TITAN RTX 92-96 of 130.5 (71-73 %).

The TITAN RTX is sold as a GeForce-family card but runs FP32 accumulation at its full 130.5 TFLOPS (NVIDIA Turing
whitepaper, appendix: 130.5 TFLOPS FP16 with either accumulator): gpus.toml marks it `fp32_accumulate_full_rate`.
"""

from __future__ import annotations

from typing import Any


def half_rate_fp32_accumulate(spec: Any) -> bool:
    """This NVIDIA card runs FP32-accumulate tensor math at half its FP16-accumulate rate (GeForce, GeForce laptop)."""
    if spec is None or spec.vendor != "nvidia" or not spec.tensor_cores:
        return False
    return spec.segment in ("consumer", "laptop") and not spec.fp32_accumulate_full_rate


def half_rate_efficiency(efficiency: float) -> float:
    """The share of a half-rate tensor peak reached by kernels that reach `efficiency` of the full-rate one:
    MMA time doubles, the time around it does not (module docstring)."""
    e = max(0.0, min(1.0, efficiency))
    return 2.0 * e / (1.0 + e) if e > 0 else 0.0
