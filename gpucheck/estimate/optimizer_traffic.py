"""The optimizer step's memory traffic: the bytes one step reads and writes per trainable parameter, by optimizer and
by how the step runs (factors.toml [bandwidth.optimizer_bytes_per_trainable_param]).

A fused kernel (torch.optim.AdamW(fused=True), apex / DeepSpeed FusedAdam) reads every parameter, gradient and moment
once and writes parameter and moments once; torch's per-tensor loop and its foreach kernels run the update as a chain
of element-wise passes, each reading and writing whole tensors: about 2.9× the bytes for AdamW."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.sharding import zero_stage
from gpucheck.records import TrainSpec


def step_impl(t: TrainSpec, f: Mapping[str, Any]) -> str:
    """How the job's optimizer step runs: the job's own optimizer_impl, else its stack's usual one
    (factors.toml [optimizer_step.stack_default]). Adafactor (transformers.optimization.Adafactor, the Trainer's and
    kohya's) has only its per-tensor loop."""
    if t.optimizer == "adafactor":
        return "single"
    return t.optimizer_impl or str(f["optimizer_step"]["stack_default"][t.stack])


def step_bytes_per_param(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes the optimizer step reads and writes per trainable parameter: the fp32 count where it updates fp32
    weights (fp32, mixed precision, LoRA's fp32 adapters), the 16-bit one for a pure 16-bit full fine-tune and for
    QLoRA adapters cast to bf16 (train.qlora_bf16_adapters)."""
    table = "optimizer_bytes_per_trainable_param_16bit" if t.trains_16bit else "optimizer_bytes_per_trainable_param"
    return float(f["bandwidth"][table][t.optimizer][step_impl(t, f)])


def cpu_adam_bytes_per_param(f: Mapping[str, Any]) -> float:
    """DeepSpeedCPUAdam (ZeRO-Offload) updates fp32 weights and moments in one vectorized pass, as a fused kernel does."""
    return float(f["bandwidth"]["optimizer_bytes_per_trainable_param"]["adamw"]["fused"])


def stepped_params(trainable: float, t: TrainSpec, gpus: int) -> float:
    """The trainable parameters one GPU's optimizer steps: every one when each GPU holds a replica (one GPU, DDP), its
    1/N partition when the optimizer state is partitioned (ZeRO stages 1-3 and FSDP: Rajbhandari et al. 2020, 'ZeRO',
    arXiv 1910.02054 §5, each data-parallel process updates only its partition), none when ZeRO-Offload steps on
    the CPU (priced by the host's bandwidth, estimate/links.py)."""
    if t.cpu_offload:
        return 0.0
    return trainable / gpus if zero_stage(t, gpus) >= 1 else trainable
