"""How much of the collectives' time the GPU's own work hides, as each engine schedules them (the rates are
gpucheck/estimate/links.py's; `overlap_fraction` in resources/factors.toml [multi_gpu] is the share of a compute window
that can hide traffic, since NCCL's kernels take SMs from the compute they overlap).

- DDP and the other engines' ZeRO (train.zero_engine other / fsdp at stage 1-2): buckets all-reduced during backward
  (Li et al. 2020, 'PyTorch Distributed'), hidden behind backward, 2/3 of the work.
- DeepSpeed's engine without ZeRO (stage 0, train.allreduce_after_backward; deepspeed/runtime/engine.py
  allreduce_gradients): at the accumulation boundary, after optimizer.backward returns, buffered_allreduce_fallback
  all-reduces the gradients (the bf16 optimizer's fp32 ones, get_grads_for_reduction) in flat buffers on the compute
  stream: nothing hides it.
- DeepSpeed ZeRO-1/2 (deepspeed/runtime/zero/stage_1_and_2.py, read at 38327e07): the gradients fill buckets of
  reduce_bucket_size elements in backward's hooks; a full bucket is all-reduced (average_tensor) on the compute stream
  without overlap_comm (DeepSpeed's default at stages 1-2), so its time adds to the step, or with overlap_comm on
  reduction_stream, which the compute stream then waits for before the next bucket's reduction is issued
  ('get_accelerator().current_stream().wait_stream(stream)'): one bucket in flight while backward fills the next, the
  last reduced after backward (the epilogue synchronizes). Stage 1 reduces only in the micro-batch that ends the step,
  stage 2 in every one. DeepSpeed before 0.13.0 ignored overlap_comm at stage 1 (engine.py _configure_zero_optimizer,
  removed by PR #4887): there the step's reduction follows its backward (train.zero_overlap_comm false). After
  optimizer.step() every GPU's updated 16-bit partition is all-gathered (all_gather_dp_groups) before the next
  forward, with no compute to hide it.
- Sharded weights (FSDP full shard, DeepSpeed ZeRO-3): each pass gathers the layers it runs, prefetched at most a
  layer or a bucket ahead (FSDP's BackwardPrefetch / forward_prefetch; ZeRO-3's stage3_prefetch_bucket_size), so the
  forward's gathers hide behind the forward's compute and backward's gathers (with checkpointing's recompute) and the
  gradient reduce-scatter behind backward's; a forward that waits for the GPU in every layer (train.host_sync) never
  runs ahead, so its gathers stand alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.links import Traffic, link_seconds, offload_seconds
from gpucheck.records import TrainSpec


def bucket_pipeline_exposed(comm_s: float, bucket_fraction: float, window_s: float) -> float:
    """Seconds a bucketed reduction adds beyond a backward whose overlappable compute lasts `window_s`: the buckets
    fill in turn (each bucket's share of the parameters, of the backward), each reduces on the side stream after it
    fills and after the previous reduction, and the compute waits for the previous reduction when it issues the next;
    the step goes on when the last reduction ends (stage_1_and_2.py average_tensor, independent_gradient_partition_epilogue)."""
    if comm_s <= 0:
        return 0.0
    q = max(1e-6, min(1.0, bucket_fraction))
    full = int(1.0 / q + 1e-9)
    shares = [q] * full + ([1.0 - full * q] if 1.0 - full * q > 1e-9 else [])
    compute = reduced = 0.0
    for share in shares:
        compute += window_s * share  # this bucket's gradients are computed
        start = max(compute, reduced)  # the side stream waits for them; the compute stream for the last reduction
        compute, reduced = start, start + comm_s * share
    return max(0.0, max(compute, reduced) - window_s)


def _zero12_seconds(tr: Traffic, target: Any, f: Mapping[str, Any], backward_s: float, k: int) -> float:
    """DeepSpeed ZeRO-1/2's collectives per micro-batch beyond a backward whose overlappable compute lasts
    `backward_s`: each reduction (every micro-batch at stage 2, the step's last at stage 1) in turn with the compute, or
    bucket by bucket beside it with overlap_comm; the gather after the step alone."""
    reduce_s = link_seconds(tr.reduce_bytes, target, f)
    if tr.overlap_comm:
        reduce_s = bucket_pipeline_exposed(reduce_s, tr.bucket_fraction, backward_s)
    reductions = k if tr.reduce_every_micro_step else 1
    return (reduce_s * reductions + link_seconds(tr.after_step_bytes, target, f)) / k


def _sharded_seconds(tr: Traffic, t: TrainSpec, target: Any, f: Mapping[str, Any], forward_s: float,
                     backward_s: float, k: int) -> float:
    """Sharded weights' collectives per micro-batch beyond a forward and a backward whose overlappable compute lasts
    `forward_s` and `backward_s`: each pass's gathers behind that pass, the reduce-scatter behind backward."""
    fwd_s = link_seconds(tr.forward_gather_bytes, target, f)
    bwd_s = link_seconds(max(0.0, tr.gather_bytes - tr.forward_gather_bytes), target, f)
    reduce_s = link_seconds(tr.reduce_bytes, target, f)
    forward = fwd_s if t.host_sync else max(0.0, fwd_s - forward_s)
    if tr.reduce_every_micro_step:
        return forward + max(0.0, bwd_s + reduce_s - backward_s)
    # the reduce-scatter only in the micro-batch that ends the step
    return forward + ((k - 1) * max(0.0, bwd_s - backward_s) + max(0.0, bwd_s + reduce_s - backward_s)) / k


def exposed_seconds(tr: Traffic, t: TrainSpec, target: Any, f: Mapping[str, Any], gpu_s: float,
                    processes: int) -> tuple[float, float, float]:
    """(collective seconds per micro-batch the GPU's work does not hide, offload copy seconds it does not hide,
    offload seconds between two steps per micro-batch) for one GPU's step whose GPU work takes `gpu_s`. Under ZeRO-1/2
    and sharding, the offload copies run on the copy engines beside NCCL's kernels and each hides behind the same
    compute (that both may cross the GPU's PCIe link is not counted); DDP's all-reduce and the copies share backward."""
    k = max(1, t.grad_accum)
    off_hidden, off_serial = offload_seconds(tr, target, f, k)
    overlap = float(f["multi_gpu"]["overlap_fraction"])
    if processes > 1 and tr.deepspeed_zero12:
        backward = overlap * gpu_s * 2.0 / 3.0
        return _zero12_seconds(tr, target, f, backward, k), max(0.0, off_hidden - backward), off_serial
    if processes > 1 and tr.sharded:
        fwd_share = 1.0 / (4.0 if t.grad_checkpointing else 3.0)  # forward, (recompute,) backward twice the forward
        wf, wb = overlap * gpu_s * fwd_share, overlap * gpu_s * (1.0 - fwd_share)
        return _sharded_seconds(tr, t, target, f, wf, wb, k), max(0.0, off_hidden - wb - wf), off_serial
    comm = link_seconds(tr.comm_bytes, target, f) / k if processes > 1 else 0.0
    window = overlap * gpu_s * 2.0 / 3.0  # DDP's buckets overlap the all-reduce with backward
    off_exposed = max(0.0, off_hidden - window)
    if t.allreduce_after_backward:  # DeepSpeed's engine without ZeRO: the whole exchange follows backward
        return comm, off_exposed, off_serial
    return max(0.0, comm + off_hidden - window) - off_exposed, off_exposed, off_serial
