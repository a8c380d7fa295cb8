"""VRAM per GPU for one training step: weights, gradients, optimizer state, activations, overhead.

Pure arithmetic over a `Workload`'s `ModelSpec` and a `TrainSpec`; every constant comes from
resources/factors.toml (`gpucheck.estimate.factors.load_factors()`), with its source there. Bytes, not GiB, everywhere.

Parameter counts and the bytes of weights, gradients and optimizer state: gpucheck/estimate/params.py; saved
activations: gpucheck/estimate/activations.py. Here: where the training state lives under ZeRO / FSDP sharding and
CPU offload (`placement`), the engines' own buffers and step temporaries, and the per-GPU breakdown (`breakdown`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate import adafactor
from gpucheck.estimate.activations import activation_bytes
from gpucheck.estimate.logits import allocator_slack_bytes
from gpucheck.estimate.loss_memory import loss_side_bytes
from gpucheck.estimate.optimizer_traffic import step_impl
from gpucheck.estimate.params import (
    ParamCounts,
    cpu_adam_bytes,
    gradients_bytes,
    optimizer_bytes,
    param_counts,
    weight_parts,
)
from gpucheck.estimate.sharding import (
    deepspeed_16bit_adapters,
    deepspeed_16bit_grads,
    deepspeed_zero12,
    frozen_weight_grads,
    fsdp_16bit_master,
    reduces_every_micro_batch,
    unsharded_accumulation_grads,
    zero_stage,
)
from gpucheck.estimate.vae_encode import vae_encode_bytes
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec, VramBreakdown

GIB = 1024**3


@dataclass(frozen=True)
class Placement:
    """Where the training state lives for one GPU of `gpus` (bytes per GPU), and what leaves the GPU."""

    weights: float
    gradients: float
    optimizer: float
    offloaded: float  # bytes moved to CPU RAM (whole model: ZeRO-Offload keeps one copy per node)
    gathered: float  # 16-bit weights gathered for the layers in flight (sharded weights)
    comm_bytes_per_micro_step: float  # per GPU, weights gathered over the link per micro-batch
    comm_bytes_per_step: float  # per GPU, gradient all-reduce / reduce-scatter per optimizer step
    stage: int = 0  # the ZeRO stage in effect (3: FSDP full shard / ZeRO-3)
    step_grad_copies: float = 0.0  # fp32 copies of the gradients the optimizer makes for its step (fsdp_16bit_params)
    comm_bytes_after_step: float = 0.0  # per GPU, DeepSpeed ZeRO-1/2's all-gather of the updated 16-bit partitions
    reduce_every_micro_step: bool = False  # the gradient exchange runs in every micro-batch (sharding.reduces_every_micro_batch)

    def comm_bytes_per_optimizer_step(self, grad_accum: int) -> float:
        """Per GPU over the link per optimizer step: every micro-batch's gathers, the gradient exchange (in every
        micro-batch or in the last), and the parameters gathered after the step."""
        k = max(1, grad_accum)
        return self.comm_bytes_per_step * (k if self.reduce_every_micro_step else 1) + self.comm_bytes_after_step \
            + self.comm_bytes_per_micro_step * k


def placement(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts, gpus: int) -> Placement:
    """Per-GPU memory of the training state under ZeRO / FSDP sharding and CPU offload, as the engines do
    it (Rajbhandari et al. 2020, ZeRO, arXiv 1910.02054 §5: stage 1 partitions the optimizer state
    together with the fp32 master weights, 12Ψ/N with AdamW; stage 2 adds the gradients; stage 3 the
    parameters. PyTorch FSDP keeps the fp32 shard (4 B/param) and all-gathers a 16-bit copy of the
    layers in flight; Ren et al. 2021, ZeRO-Offload, arXiv 2101.06840: fp32 master weights, gradients
    and optimizer state move to CPU RAM, the GPU keeps the 16-bit weights)."""
    wp = weight_parts(m, t, f, pc)
    g = gradients_bytes(t, f, pc)
    o = optimizer_bytes(t, f, pc) * adafactor.state_share(m, t, pc)
    n = max(1, gpus)
    stage = zero_stage(t, n)
    grad_bytes = comm_gradient_bytes(t, f, pc, stage)
    fp32_partition = 0.0
    if deepspeed_16bit_grads(t, stage):
        # DeepSpeed ZeRO-1/2 casts the module to 16-bit: backward writes 16-bit gradients (2 B/param), and the
        # optimizer step converts this GPU's partition to fp32 (single_partition_of_fp32_groups' .grad: 4 B/param
        # over N) — estimate_zero2_model_states_mem_needs: 4Ψ + 16Ψ/N on the GPU
        z = f["zero"]
        g = pc.trainable * z["grads_bytes_16bit"]
        fp32_partition = pc.trainable * z["fp32_grad_partition_bytes"]
    if deepspeed_16bit_adapters(t):
        # the same engine over LoRA: 16-bit adapters and gradients, the fp32 master and gradient partition beside them
        z, b = f["zero"], f["bytes_per_param"]
        wp = dataclasses.replace(wp, adapters=pc.trainable * b["weights_frozen_16bit"],
                                 master=pc.trainable * b["weights_fp32"])
        g = pc.trainable * z["grads_bytes_16bit"]
        fp32_partition = pc.trainable * z["fp32_grad_partition_bytes"]
    step_copies = 0.0
    if fsdp_16bit_master(t, stage):
        # FSDP over a 16-bit model (InternEvo's FSDPadaptOptimizer, internlm/solver/optimizer/fsdp_optimizer.py): the
        # flat parameters and their gradients are 16-bit shards; the optimizer keeps 'fp32_tensor_param = [param.data.float()
        # ...]' as its master weights and at the step makes 'grad_fp32 = [p.grad.to(dtype) ...]' for the whole shard
        g = pc.trainable * f["zero"]["grads_bytes_16bit"]
        step_copies = pc.trainable * f["zero"]["fp32_grad_partition_bytes"] / n
    layers = max(1, m.layers or 1)
    master, working, frozen = wp.master, wp.working, wp.frozen
    offloaded = 0.0
    if t.cpu_offload and t.method == "full":
        # ZeRO-Offload steps with DeepSpeed's own CPU Adam (DeepSpeedCPUAdam, fp32 momentum + variance):
        # an 8-bit GPU optimizer (nor transformers' Adafactor) does not run there, so CPU RAM holds 4 (master) +
        # 4 (fp32 gradients) + 8 (Adam) = 16 B/param — DeepSpeed's estimate_zero2_model_states_mem_needs (cpu_offload: 16 B/param)
        cpu_grads = pc.trainable * f["bytes_per_param"]["grads"]  # the fp32 gradient buffer in pinned host memory
        offloaded = master + cpu_grads + (cpu_adam_bytes(t, f, pc) if t.optimizer in ("adamw-8bit", "adafactor") else o)
        master, g, o = 0.0, 0.0, 0.0
    elif t.cpu_offload:
        offloaded = o
        o = 0.0
    gathered = 0.0
    comm_micro = 0.0
    if stage >= 1:
        master, o = master / n, o / n
    if stage >= 2:
        g = g / n
    if fp32_partition and not t.cpu_offload:
        g += fp32_partition / n
    if frozen_weight_grads(t, n):
        # FSDP's FlatParameter with use_orig_params=True: a unit mixing frozen and trained weights keeps a gradient
        # for all of them ("the gradient memory usage will be higher than expected, namely equivalent to not freezing
        # those parameters": PyTorch FSDP API docs), unsharded while micro-batches accumulate under no_sync() ("FSDP
        # will accumulate the full model gradients (instead of gradient shards)": FSDP.no_sync docs)
        every = m.params * training_dtype_grad_bytes(t, f)
        g += every if t.grad_accum > 1 else every / n  # one micro-batch per step: reduce-scattered to a shard
    elif unsharded_accumulation_grads(t, n):
        # full fine-tuning accumulated under FSDP.no_sync(): "FSDP will accumulate the full model gradients (instead of
        # gradient shards) until the eventual sync", in the parameters' (training) dtype, on every GPU; the sharded
        # gradient is reduce-scattered from them at the synchronizing micro-batch (PyTorch FSDP docs,
        # FullyShardedDataParallel.no_sync)
        g = max(g, pc.trainable * training_dtype_grad_bytes(t, f))
    if stage >= 3:
        # forward/backward read a 16-bit copy (as stored for NF4, bnb_4bit_quant_storage), gathered per layer
        gathered_model = working + frozen
        # FSDP mixed precision: the sharded parameter is the fp32 copy (already split with the master
        # weights above); no separate 16-bit shard is kept
        working = 0.0 if master and not step_copies else working / n
        frozen = frozen / n
        if t.cpu_offload and t.method != "full":
            # FSDP CPU offload (offload_params): the frozen shards live in CPU RAM between uses, as
            # Answer.AI's FSDP + QLoRA trains a 70B model on two 24 GB GPUs
            offloaded += frozen * n
            frozen = 0.0
        gathered = gathered_model / layers * 2  # the layer in flight and the one prefetched
        passes = 3.0 if t.grad_checkpointing else 2.0  # forward, (recompute,) backward
        comm_micro = passes * (n - 1) / n * gathered_model
    weights = working + master + frozen + wp.adapters / (n if stage >= 3 else 1) + wp.aux + gathered
    # stages 0-2 move 2Ψ per GPU and step (all-reduce, or reduce-scatter of the gradients + all-gather of the updated
    # parameters: ZeRO paper §7.2.1); stage 3 reduce-scatters the gradients and gathers the weights per micro-batch
    comm_step = (1.0 if stage >= 3 else 2.0) * (n - 1) / n * grad_bytes if n > 1 else 0.0
    # DeepSpeed ZeRO-1/2 all-reduces its gradient buckets (stage_1_and_2.py average_tensor with the default
    # use_multi_rank_bucket_allreduce: allreduce_and_scatter -> dist.all_reduce, 2(n-1)/n) and, after the step, gathers
    # every GPU's updated partition of the 16-bit (training-dtype) weights: all_gather_dp_groups, (n-1)/n
    after = (n - 1) / n * grad_bytes if n > 1 and deepspeed_zero12(t, stage) else 0.0
    return Placement(weights, g, o, offloaded, gathered, comm_micro, comm_step, stage, step_copies, after,
                     reduces_every_micro_batch(t, stage))


def training_dtype_grad_bytes(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes of one gradient element held in the training dtype (an engine's buckets, FSDP's unsharded gradients):
    fp32 in fp32 training, 16-bit otherwise."""
    return float(f["bytes_per_param"]["grads"] if t.precision == "fp32" else f["zero"]["grads_bytes_16bit"])


def deepspeed_bucket_bytes(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """DeepSpeed ZeRO-1/2's contiguous gradient buckets (`reduce_bucket_size` elements, two with overlap_comm) in the
    training dtype, allocated at every backward on every GPU, one GPU and LoRA included (resources/factors.toml [zero])."""
    if t.zero_stage not in (1, 2) or t.shard:
        return 0.0
    elements = t.zero_bucket_elements or float(f["zero"]["default_bucket_elements"])
    return elements * training_dtype_grad_bytes(t, f)


def ema_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """An exponential-moving-average copy of a fully trained model (train.ema), in the model's own parameter dtype
    (resources/factors.toml [ema])."""
    if not t.ema or t.method != "full":
        return 0.0
    per_param = f["pure_bf16"]["weights"] if t.precision in PURE_16BIT else f["bytes_per_param"]["weights_fp32"]
    return float(f["ema"]["weight_copies"]) * m.params * per_param


def ddp_bucket_bytes(t: TrainSpec, f: Mapping[str, Any], pl: Placement, gpus: int) -> float:
    """PyTorch DDP's gradient buckets: with a replica on each of several GPUs (no ZeRO, no FSDP, no offload), the
    reducer's flat bucket tensors hold a second copy of the replicated gradients for the whole run, unless the job makes
    the gradients views of them (train.ddp_bucket_copy; resources/factors.toml [ddp])."""
    if gpus <= 1 or pl.stage != 0 or t.shard or t.cpu_offload or not t.ddp_bucket_copy:
        return 0.0
    return float(f["ddp"]["bucket_gradient_copies"]) * pl.gradients


def comm_gradient_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts, stage: int) -> float:
    """Gradient bytes the GPUs exchange per optimizer step: 16-bit where the engine reduces in the training dtype
    (DeepSpeed ZeRO with fp16/bf16; FSDP's MixedPrecision reduces in param_dtype unless reduce_dtype says
    otherwise), the gradients' own dtype otherwise (DDP under autocast: fp32 parameters, fp32 gradients)."""
    if t.method == "full" and t.precision in ("fp16", "bf16") and stage >= 1:
        return pc.trainable * f["zero"]["grads_bytes_16bit"]
    return gradients_bytes(t, f, pc)


def optimizer_step_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], pl: Placement) -> float:
    """The optimizer step's own temporary on this GPU (resources/factors.toml [optimizer_step]): torch's foreach AdamW
    allocates the square root of every exp_avg_sq at once (half of AdamW's state, in its dtype) while the weights,
    gradients and state are all alive; a per-tensor loop or a fused kernel (the Hugging Face Trainer's default on
    PyTorch >= 2.8) needs no such list. Only where torch's own optimizer steps the state on this GPU: one GPU or data
    parallel, and FSDP (`shard`), whose optimizer steps the local shard — not DeepSpeed's fused or CPU Adam under ZeRO or
    offload. Plus the fp32 gradient copies an optimizer over 16-bit FSDP shards makes for its step (`step_grad_copies`),
    and Adafactor's per-tensor temporaries (estimate/adafactor.py)."""
    o = f["optimizer_step"]
    impl = step_impl(t, f)
    torch_steps = (pl.stage == 0 or (pl.stage >= 3 and t.shard)) and not t.cpu_offload
    buffers = float(o["temporary_buffers"][impl])
    if torch_steps and t.optimizer == "adafactor":
        return pl.step_grad_copies + adafactor.temporary_bytes(m, t)
    if not buffers or not torch_steps:
        return pl.step_grad_copies
    return pl.step_grad_copies + buffers * pl.optimizer * float(o["temporary_state_fraction"][t.optimizer])


def breakdown(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], backend: str,
              gpus: int = 1, varying_shapes: bool = True) -> tuple[VramBreakdown, ParamCounts]:
    """The VRAM a single GPU needs for this job under data parallelism: each GPU holds a full
    replica, unless `t.zero_stage` / `t.shard` split state over `gpus` GPUs (see `placement`).

    `backend` is cuda | rocm | metal | xpu | cpu: it decides the framework overhead. `varying_shapes`: the
    micro-batches change shape from step to step (samples padded to the longest in the batch), so the caching
    allocator's cached blocks stop fitting (gpucheck/estimate/logits.py).
    """
    pc = param_counts(m, t)
    pl = placement(m, t, f, pc, gpus)
    # a detector's assigner and loss (YOLOv8's task-aligned assigner, YOLOv5-seg's masks) peak while the activations
    # are kept
    act = activation_bytes(m, t, f) + loss_side_bytes(m, t, f)
    # the VAE encode of a job without cached latents runs before the U-Net keeps anything: the larger of the two
    act = max(act, vae_encode_bytes(m, t, pc.aux))
    # the step runs after backward has freed the activations: the peak is the larger of the two, the step's excess
    # counted with the optimizer
    optimizer = pl.optimizer + max(0.0, optimizer_step_bytes(m, t, f, pl) - act)
    gradients = pl.gradients + deepspeed_bucket_bytes(t, f) + ddp_bucket_bytes(t, f, pl, gpus)
    weights = pl.weights + ema_bytes(m, t, f)
    allocated = weights + gradients + optimizer + act
    overhead = context_bytes(f, backend) + allocator_slack_bytes(m, t, f, backend, allocated, varying_shapes)
    return (
        VramBreakdown(
            weights_bytes=int(weights),
            gradients_bytes=int(gradients),
            optimizer_bytes=int(optimizer),
            activations_bytes=int(act),
            overhead_bytes=int(overhead),
        ),
        pc,
    )


def context_bytes(f: Mapping[str, Any], backend: str) -> float:
    """The CUDA/ROCm context and libraries: nvidia-smi counts them, torch.cuda.memory_* does not."""
    return float(f["overhead"]["context_bytes"][backend])

