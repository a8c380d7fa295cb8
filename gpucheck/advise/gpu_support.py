"""What the target GPU supports and what follows from it for a training job: BF16 and bitsandbytes (8-bit
optimizer, 4-bit loading) support; the changes the GPU forces whether or not the job fits (`required_fixes`:
FP32 where FP16 gives NaN losses, FP16 where BF16 is not fast, standard AdamW where 8-bit AdamW cannot run);
and the DeepSpeed ZeRO / CPU-offload settings the tweak ladder (advise/ladder.py) writes.

Pure.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.estimate.factors import load_factors
from gpucheck.i18n import tr
from gpucheck.probe.facts import probe_facts
from gpucheck.records import TrainSpec


@dataclass(frozen=True)
class GpuFacts:
    """What the ladder needs to know about the GPU it targets."""

    backend: str  # cuda | rocm | metal | xpu | cpu
    compute_capability: float | None
    supports_bf16: bool
    ram_bytes: int | None = None  # host RAM (CPU offload), None = unknown
    gpus: int = 1  # GPUs working on one model (several: ZeRO / FSDP sharding is tried)
    fp16_nan: bool = False  # FP16 training gives NaN losses on this GPU (GTX 16xx: factors.toml [fp16_nan])


def bitsandbytes_ok(facts: GpuFacts) -> bool:
    if facts.backend not in load_factors()["support"]["bitsandbytes_backends"]:  # the one list, factors.toml
        return False
    if facts.backend == "cuda" and facts.compute_capability is not None:
        return facts.compute_capability >= float(factor("bitsandbytes", "min_compute_capability"))
    return True


def bf16_ok(facts: GpuFacts) -> bool:
    if facts.backend == "cuda" and facts.compute_capability is not None:
        # the one bf16 threshold: resources/probe.toml [nvidia] bf16_min_cc (the scan reads it too)
        return facts.compute_capability >= float(probe_facts().nvidia.bf16_min_cc)
    if facts.backend == "cpu":  # the cores multiply bf16 natively (AVX512_BF16, AMX, Arm BF16)
        return bool(facts.supports_bf16)
    return facts.supports_bf16


# ZeRO-Offload steps with DeepSpeed's own CPU Adam: the config names the optimizer, so the Trainer hands
# DeepSpeed no optimizer of its own. A client optimizer (torch AdamW, bitsandbytes 8-bit) beside
# offload_optimizer is refused unless "zero_force_ds_cpu_optimizer": false (DeepSpeed >= 0.8.3; Hugging Face
# Transformers docs, "DeepSpeed → Optimizer and scheduler"; DeepSpeed tutorial "ZeRO-Offload": DeepSpeedCPUAdam).
DS_CPU_ADAMW = {"type": "AdamW", "params": {"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}}


def advised_bucket_elements() -> float:
    """The gradient bucket gpucheck's DeepSpeed settings ask for at ZeRO stages 1-2 (factors.toml [zero])."""
    return float(load_factors()["zero"]["advised_bucket_elements"])


def advised_zero_fields() -> dict[str, Any]:
    """The TrainSpec fields of the DeepSpeed settings gpucheck advises (`_stage_settings`): overlap_comm at stages 1-2,
    whose two bucket buffers of the advised size are counted in the memory."""
    return {"zero_bucket_elements": 2.0 * advised_bucket_elements(), "zero_overlap_comm": True}


def _stage_settings(stage: int, offload: bool = False) -> dict[str, Any]:
    zero: dict[str, Any] = {"stage": stage}
    if stage in (1, 2):  # DeepSpeed's 5e8-element default bucket would take 1 GB of a small card (factors.toml [zero])
        zero["reduce_bucket_size"] = zero["allgather_bucket_size"] = int(advised_bucket_elements())
        # the buckets reduce on a side stream while backward fills the next (a second bucket buffer), instead of in
        # turn with backward, DeepSpeed's default at stages 1-2 (gpucheck/estimate/zero_comm.py)
        zero["overlap_comm"] = True
    if offload:
        zero["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
        if stage == 3:
            zero["offload_param"] = {"device": "cpu", "pin_memory": True}
    ds: dict[str, Any] = {"zero_optimization": zero}
    if offload:
        ds["optimizer"] = DS_CPU_ADAMW
    out: dict[str, Any] = {"deepspeed": ds, "zero_stage": stage}
    if offload:
        out["offload"] = True
    return out


def required_fixes(train: TrainSpec, facts: GpuFacts) -> tuple[TrainSpec, list[tuple[str, str, str, dict]]]:
    """Changes the GPU forces whether or not the job fits; none changes what is trained."""
    steps: list[tuple[str, str, str, dict]] = []
    if facts.backend == "cpu":  # the estimate's CPU default: bf16 where native, else fp32 (unless asked for)
        if train.precision == "fp16-pure":  # CPUs have no fp16 training: pure bf16 where native, as the estimate
            return dataclasses.replace(train, precision="bf16-pure" if bf16_ok(facts) else "fp32"), steps
        if train.precision == "fp16" or (train.precision != "fp32" and not bf16_ok(facts)
                                         and not train.precision_chosen):
            train = dataclasses.replace(train, precision="bf16" if bf16_ok(facts) else "fp32")
        return train, steps
    if facts.fp16_nan and train.precision != "fp32":
        chosen = train.precision_chosen
        train = dataclasses.replace(train, precision="fp32")
        if not chosen:  # the job's default: FP32 is this card's default (advise says why), not a change to make
            return _required_optimizer(train, facts, steps)
        steps.append(("full_precision", tr("Train in FP32, not FP16"),
                      tr("costs time and memory, but FP16 gives NaN losses (and black images) on GTX 16xx cards "
                         "(pytorch/pytorch#58123, bmaltais/kohya_ss#436)"),
                      {"fp16": False, "bf16": False}))
        return _required_optimizer(train, facts, steps)
    if train.precision in ("bf16", "bf16-pure") and not bf16_ok(facts):
        chosen, pure = train.precision_chosen, train.precision == "bf16-pure"
        train = dataclasses.replace(train, precision="fp16")
        if not chosen:  # the job's default precision: FP16 is this card's default, not a tweak
            return _required_optimizer(train, facts, steps)
        if pure:  # what is planned: FP16 mixed precision keeps FP32 master weights, so it needs more memory
            steps.append(("mixed_precision", tr("Use FP16 mixed precision (FP32 master weights) instead of pure BF16"),
                          tr("this GPU has no BF16 (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2), and pure FP16 "
                             "training is not stable; the figures shown are for FP16 mixed precision, which keeps "
                             "FP32 master weights and needs more memory than pure BF16"),
                          {"fp16": True, "bf16": False}))
            return _required_optimizer(train, facts, steps)
        steps.append(("mixed_precision", tr("Use FP16 mixed precision instead of BF16"),
                      tr("this GPU has no fast BF16 (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2); FP16 "
                         "with automatic loss scaling trains the same way"),
                      {"fp16": True, "bf16": False}))
    return _required_optimizer(train, facts, steps)


def offload_settings(train: TrainSpec) -> dict[str, Any]:
    """The DeepSpeed settings of a job configured with CPU offload (ZeRO-Offload; ZeRO-3 when sharded)."""
    full = train.method == "full"
    return _stage_settings(max(2, train.zero_stage) if full else 3, offload=True)


def _required_optimizer(train: TrainSpec, facts: GpuFacts, steps: list[tuple[str, str, str, dict]]
                        ) -> tuple[TrainSpec, list[tuple[str, str, str, dict]]]:
    if train.cpu_offload and train.method == "full" and train.optimizer == "adamw-8bit":
        # ZeRO-Offload runs the optimizer step on the CPU with DeepSpeedCPUAdam (fp32 states); bitsandbytes'
        # 8-bit AdamW runs on the GPU only and DeepSpeed refuses it beside offload (see DS_CPU_ADAMW)
        train = dataclasses.replace(train, optimizer="adamw")
        steps.append(("optimizer_8bit", tr("Use DeepSpeed's CPU AdamW instead of 8-bit AdamW"),
                      tr("ZeRO-Offload runs the optimizer step on the CPU with 32-bit states; the 8-bit optimizer "
                         "(bitsandbytes) runs on the GPU only"), offload_settings(train)))
        return train, steps
    if not bitsandbytes_ok(facts) and train.optimizer == "adamw-8bit":
        train = dataclasses.replace(train, optimizer="adamw")
        steps.append(("optimizer_8bit", tr("Use the standard AdamW optimizer"),
                      tr("8-bit optimizers (bitsandbytes) are not available on this GPU"),
                      {"optim": "adamw_torch"}))
    return train, steps
