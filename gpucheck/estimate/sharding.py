"""Which engine's sharding rules a job falls under, by what it sets (train.shard, zero_stage, cpu_offload, precision,
method) and the number of GPUs: the ZeRO stage in effect, and the cases where DeepSpeed or PyTorch FSDP hold gradients or
weights in another dtype or unsharded. Predicates only; the bytes are counted in gpucheck/estimate/memory.py."""

from __future__ import annotations

from gpucheck.records import PURE_16BIT, TrainSpec


def frozen_weight_grads(t: TrainSpec, gpus: int) -> bool:
    """LoRA under FSDP with use_orig_params=True (train.fsdp_frozen_grads): each unit's frozen and trained weights
    share one FlatParameter that requires grad, and the layers run on views of it, so autograd computes the weight
    gradients of the frozen layers too ("the gradient memory usage will be higher than expected, namely equivalent
    to not freezing those parameters": PyTorch FSDP API docs, use_orig_params) — the backward of a full fine-tune."""
    return t.method == "lora" and t.fsdp_frozen_grads and t.shard and gpus > 1


def unsharded_accumulation_grads(t: TrainSpec, gpus: int) -> bool:
    """A full fine-tune under FSDP (`shard`) that accumulates micro-batches under no_sync(), the default of the usual
    stacks (train.fsdp_no_sync, True unless the job says otherwise: litgpt's `fabric.no_backward_sync(model,
    enabled=is_accumulating)`; accelerate's `accumulate()` and the Hugging Face Trainer call the model's no_sync unless
    sync_each_batch): the whole model's gradients stay unsharded on every GPU. DeepSpeed ZeRO-3 (zero_stage 3 without
    `shard`, the advice's recipes) is not FSDP and is not counted here."""
    return t.method == "full" and t.fsdp_no_sync and t.shard and gpus > 1 and t.grad_accum > 1


def zero_stage(t: TrainSpec, gpus: int) -> int:
    """The sharding stage in effect: `shard` means stage 3; one GPU has nothing to shard."""
    if gpus <= 1:
        return 0
    if t.cpu_offload and not t.shard and t.zero_stage == 0:
        return 2  # DeepSpeed offloads only under ZeRO (offload_optimizer needs stage 1-3); its recipes use stage 2
    return 3 if t.shard else max(0, min(3, t.zero_stage))


def fsdp_16bit_master(t: TrainSpec, stage: int) -> bool:
    """FSDP (`shard`) over a model already cast to 16-bit, the optimizer holding the fp32 master weights
    (`train.fsdp_16bit_params`): only for full fine-tuning in mixed precision."""
    return stage >= 3 and t.shard and t.fsdp_16bit_params and t.method == "full" and t.precision in ("fp16", "bf16")


def deepspeed_16bit_grads(t: TrainSpec, stage: int) -> bool:
    """DeepSpeed ZeRO stage 1 or 2 with fp16/bf16 (not FSDP, not DDP's autocast over fp32 weights): the engine
    holds the model in 16-bit, so its gradients are 16-bit (Rajbhandari et al. 2020 §5: 2Ψ + 2Ψ + KΨ/N)."""
    return stage in (1, 2) and not t.shard and t.method == "full" and t.precision in ("fp16", "bf16")


def deepspeed_16bit_adapters(t: TrainSpec) -> bool:
    """LoRA / QLoRA under DeepSpeed ZeRO stage 1 or 2 in 16-bit (with or without autocast): the engine casts the whole
    module, adapters included, to the training dtype, and DeepSpeedZeroOptimizer keeps an fp32 master copy of the
    trainable partition and converts its gradients to fp32 for the step — 2 + 2 B per adapter parameter plus (4 + 4 +
    the optimizer's) B over N, as for a full fine-tune (resources/factors.toml [zero]); on one GPU too, where the ZeRO
    optimizer runs at world size 1 (train.zero_stage as the job sets it, like its gradient buckets)."""
    return t.method in ("lora", "qlora") and t.zero_stage in (1, 2) and not t.shard \
        and t.precision in ("fp16", "bf16", *PURE_16BIT)


def deepspeed_zero12(t: TrainSpec, stage: int) -> bool:
    """DeepSpeed's ZeRO stage 1 or 2 optimizer (DeepSpeedZeroOptimizer, deepspeed/runtime/zero/stage_1_and_2.py), not
    another engine's ZeRO (train.zero_engine): its gradient buckets all-reduced in backward and its updated 16-bit
    partitions all-gathered after the step (gpucheck/estimate/zero_comm.py)."""
    return stage in (1, 2) and not t.shard and t.zero_engine == "deepspeed"


def reduces_every_micro_batch(t: TrainSpec, stage: int) -> bool:
    """The gradient exchange runs in every micro-batch's backward, not only in the one that ends the optimizer step:
    DeepSpeed ZeRO-2 (stage_1_and_2.py reduce_ready_partitions_and_remove_grads: 'if self.partition_gradients or
    self.is_gradient_accumulation_boundary' — stage 1 reduces only at the boundary), DeepSpeed ZeRO-3 (stage3.py
    reduce_ready_partitions_and_remove_grads reduces on every call), and FSDP without no_sync (train.fsdp_no_sync
    false: each backward reduce-scatters)."""
    if t.shard:
        return stage >= 3 and not t.fsdp_no_sync
    return t.zero_engine == "deepspeed" and stage in (2, 3)
