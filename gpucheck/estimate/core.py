"""The estimator: (Workload, Target) → Estimate. The public API is described in gpucheck/estimate/__init__.py,
which re-exports it; Target is in target.py, the verdict rules in fit.py, the JSON keys in json_out.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.catalog import load_workloads
from gpucheck.estimate import bands, moe
from gpucheck.estimate.calibration import calibrated_speed, host_seconds, memory_share
from gpucheck.estimate.compute import Speed, effective_precision, run_samples, speed
from gpucheck.estimate.cpu_dropout import cpu_model
from gpucheck.estimate.evaluation import evaluation
from gpucheck.estimate.factors import default_seq_len, load_factors
from gpucheck.estimate.fit import fit_band, ram_fit, too_slow_hours, verdict_for
from gpucheck.estimate.host import host_needs
from gpucheck.estimate.input_path import with_input_path, with_worker_starts
from gpucheck.estimate.links import Traffic, network_gbps, nodes_of
from gpucheck.estimate.logits import cached_reserve_bytes, runs_trl_chunked
from gpucheck.estimate.memory import (
    Placement,
    breakdown,
    context_bytes,
    placement,
)
from gpucheck.estimate.optimizer_traffic import cpu_adam_bytes_per_param
from gpucheck.estimate.params import weight_parts
from gpucheck.estimate.settings import pretrained_positions
from gpucheck.estimate.sharding import deepspeed_zero12
from gpucheck.estimate.target import Target
from gpucheck.i18n import (
    N_,
    fmt_duration,
    fmt_gib,
    lora_targets_label,
    method_label,
    optimizer_label,
    precision_label,
    tr,
)
from gpucheck.records import Estimate, ModelSpec, TrainSpec, VramBreakdown, Workload, cached_worth_a_line
from gpucheck.verdict import Verdict


def _support(t: TrainSpec, target: Target, f: Mapping[str, Any]) -> tuple[bool, str, str]:
    """(supported?, reason code, message) from the [support] table of factors.toml."""
    s = f["support"]
    backend = target.backend
    if backend not in s["training_backends"]:
        return False, "training_backend", tr(
            "Training with PyTorch is not supported on this GPU's driver stack ({backend}); "
            "it needs CUDA, ROCm, Apple MPS or Intel XPU", backend=backend)
    if t.method == "qlora" and backend not in s["bitsandbytes_backends"]:
        return False, "qlora_backend", tr(
            "QLoRA needs bitsandbytes 4-bit kernels, which are released for NVIDIA CUDA, AMD ROCm and Intel "
            "XPU; on this backend they are not available for training")
    if t.optimizer == "adamw-8bit" and backend not in s["bitsandbytes_backends"]:
        return False, "optimizer_backend", tr(
            "8-bit AdamW needs bitsandbytes, which is released for NVIDIA CUDA, AMD ROCm and Intel XPU; on "
            "this backend it is not available")
    return True, "", ""


# -- the estimate ----------------------------------------------------------------------------------


def _normalize(w: Workload, t: TrainSpec) -> TrainSpec:
    m = w.model
    changes: dict[str, Any] = {}
    if m.arch == "transformer" and not t.seq_len:
        changes["seq_len"] = default_seq_len()
    if m.arch != "transformer" and not t.image_size and m.ref_image_size:
        changes["image_size"] = m.ref_image_size
    return dataclasses.replace(t, **changes) if changes else t


def lacks_bf16(target: Target) -> bool:
    """The target GPU has no BF16 units (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2 in the catalog)."""
    return target.backend != "cpu" and target.gpu is not None and target.gpu.tflops_bf16_tensor is None


def fp16_gives_nan(gpu_name: str | None) -> bool:
    """A GTX 16xx (Turing TU116/TU117): FP16 training gives NaN losses there (factors.toml [fp16_nan])."""
    name = (gpu_name or "").upper()
    return any(n.upper() in name for n in load_factors()["fp16_nan"]["gpu_names"])


def _forced_precision(t: TrainSpec, target: Target, notes: list[str], assumed: list[str]) -> TrainSpec:
    """The precision the GPU really trains in (bf16 without bf16 units → fp16; fp16 on a CPU → bf16).
    A job's default BF16 (not chosen by the user) starts at FP16 on a GPU without BF16, and a job's default 16-bit
    precision at FP32 on a GTX 16xx: a default for the card, said in the assumptions, not a change the advice has
    to make."""
    if t.precision != "fp32" and not t.precision_chosen and target.backend == "cuda" and target.gpu is not None \
            and (fp16_gives_nan(target.gpu.name) or fp16_gives_nan(target.device_name)):
        assumed.append(tr("FP32: the default on {gpu}, where FP16 gives NaN losses and black images "
                          "(pytorch/pytorch#58123)", gpu=target.device_name))
        return dataclasses.replace(t, precision="fp32")
    if t.precision in ("bf16", "bf16-pure") and not t.precision_chosen and lacks_bf16(target):
        assumed.append(tr("FP16 mixed precision: the default on {gpu}, which has no BF16",
                          gpu=target.device_name))
        return dataclasses.replace(t, precision="fp16")
    if target.gpu is not None:
        p = effective_precision(dataclasses.replace(t, precision="bf16") if t.precision == "bf16-pure" else t,
                                target.gpu, target.backend)
        if t.precision == "bf16-pure" and p == "bf16":
            return t
        if p != t.precision:
            notes.append(tr("{gpu} has no bf16 support: the estimate uses fp16 mixed precision",
                            gpu=target.gpu.name))
            return dataclasses.replace(t, precision=p)
    elif target.backend == "cpu":
        return _cpu_precision(t, target, notes, assumed)
    return t


def _cpu_precision(t: TrainSpec, target: Target, notes: list[str], assumed: list[str]) -> TrainSpec:
    """On a CPU: bf16 where the cores multiply it natively (fp16 becomes bf16: CPU autocast is bf16), fp32
    where they do not — PyTorch would emulate bf16, slower than fp32 — unless the user asked for bf16."""
    if t.precision == "fp32":
        return t
    if target.native_bf16:
        if t.precision in ("fp16", "fp16-pure"):  # pure fp16 (model.half()) becomes pure bf16
            notes.append(tr("CPUs train in bf16 or fp32, not fp16: the estimate uses bf16"))
            return dataclasses.replace(t, precision="bf16" if t.precision == "fp16" else "bf16-pure")
        return t
    if t.precision_chosen and t.precision not in ("fp16", "fp16-pure"):
        notes.append(tr("This CPU has no native BF16: PyTorch emulates it, slower than FP32"))
        return t
    assumed.append(tr("FP32: the default on this CPU, which has no native BF16 (AVX512_BF16, AMX or Arm BF16)"))
    return dataclasses.replace(t, precision="fp32")


@dataclass(frozen=True)
class _Memory:
    fit: str  # fits | tight | does_not_fit (VRAM and RAM together)
    vram_fit: str
    ram_fit: str
    limit: str  # "" | vram | ram
    band: tuple[int, int]
    ram_needed: int


def _check_memory(w: Workload, target: Target, bd: VramBreakdown, host_ram: int, notes: list[str]) -> _Memory:
    avail = target.vram_available_bytes
    peak = bd.total_bytes
    ram_total, ram_free = target.ram_bytes, target.ram_available_bytes
    if target.backend == "cpu":
        vfit, band = "fits", (peak, peak)
        ram_needed = host_ram
    else:
        exact = bd.weights_bytes + bd.gradients_bytes + bd.optimizer_bytes + context_bytes(load_factors(),
                                                                                          target.backend)
        vfit, lo, hi = fit_band(exact, peak - exact, avail, w.family, bands.memory_vendor_of(target))
        band = (lo, hi)
        ram_needed = host_ram + peak if target.unified_memory else host_ram
    rfit = ram_fit(ram_needed, ram_total, ram_free)
    order = ("fits", "tight", "does_not_fit")
    fit = max(vfit, rfit, key=order.index)
    limit = "vram" if vfit != "fits" and order.index(vfit) >= order.index(rfit) else ("ram" if rfit != "fits" else "")
    if vfit != "fits" and avail is not None:
        notes.append(tr("Needs about {need} of GPU memory per GPU; {have} is usable",
                        need=fmt_gib(peak), have=fmt_gib(avail)))
    if avail is None and target.backend != "cpu":
        notes.append(tr("The GPU's memory size is unknown, so whether the job fits is not checked"))
    if rfit == "does_not_fit" and ram_total is not None:
        notes.append(tr("Needs about {need} of system RAM; this PC has {have}",
                        need=fmt_gib(ram_needed), have=fmt_gib(ram_total)))
    elif rfit == "tight" and ram_free is not None:
        notes.append(tr("Needs about {need} of system RAM; {free} of {have} was free at the scan: close other "
                        "programs first", need=fmt_gib(ram_needed), free=fmt_gib(ram_free),
                        have=fmt_gib(ram_total)))
    return _Memory(fit, vfit, rfit, limit, band, ram_needed)


def _collectives(t: TrainSpec, f: Mapping[str, Any], pc: Any, pl: Placement) -> dict[str, Any]:
    """How the placement's collectives run, for gpucheck/estimate/zero_comm.py: the gradient exchange (in every
    micro-batch or in the step's last), the sharded passes' gathers, DeepSpeed ZeRO-1/2's gather after the step, its
    overlap_comm and its gradient bucket (reduce_bucket_size: train.zero_bucket_elements counts both of overlap_comm's
    double buffers; DeepSpeed's default otherwise, factors.toml [zero])."""
    bucket = t.zero_bucket_elements / (2.0 if t.zero_overlap_comm else 1.0) if t.zero_bucket_elements \
        else float(f["zero"]["default_bucket_elements"])
    return dict(reduce_bytes=pl.comm_bytes_per_step, reduce_every_micro_step=pl.reduce_every_micro_step,
                gather_bytes=pl.comm_bytes_per_micro_step, after_step_bytes=pl.comm_bytes_after_step,
                deepspeed_zero12=deepspeed_zero12(t, pl.stage), overlap_comm=t.zero_overlap_comm,
                bucket_fraction=min(1.0, bucket / max(1.0, float(pc.trainable))))


def _traffic(w: Workload, t: TrainSpec, f: Mapping[str, Any], pc: Any, pl: Placement, target: Target) -> Traffic:
    """What each GPU moves per step besides its own memory: the placement's collectives (gradients exchanged per
    optimizer step, weights gathered per micro-batch when sharded) and, with CPU offload, ZeRO-Offload's copies of
    this GPU's partition (fp32 gradients out every micro-batch, 16-bit parameters back every optimizer step), the
    CPU optimizer's pass over the partitions of the GPUs in this GPU's machine (the machines the target names,
    links.nodes_of), and FSDP's offloaded frozen shards streamed in per pass."""
    n = target.processes
    comm = pl.comm_bytes_per_optimizer_step(t.grad_accum) if n > 1 else 0.0
    forward = pl.comm_bytes_per_micro_step / (3.0 if t.grad_checkpointing else 2.0) if n > 1 else 0.0
    links = Traffic(comm_bytes=comm, sharded=pl.stage >= 3, forward_gather_bytes=forward,
                    **(_collectives(t, f, pc, pl) if n > 1 else {}))
    if not t.cpu_offload:
        return links
    co = f["cpu_offload"]
    per_node, nodes = nodes_of(target, f) if n > 1 else (1, 1)
    partitioned = pl.stage >= 1 or n == 1
    share = pc.trainable / n if partitioned else pc.trainable
    on_node = pc.trainable * per_node / n if partitioned else pc.trainable * per_node
    stream = 0.0
    if pl.stage >= 3 and t.method != "full":
        passes = 3.0 if t.grad_checkpointing else 2.0
        stream = weight_parts(w.model, t, f, pc).frozen / n * passes
    return dataclasses.replace(links, offload_out_bytes=share * co["grad_out_bytes_per_param"],
                   offload_in_bytes=share * co["param_in_bytes_per_param"], offload_stream_bytes=stream,
                   host_update_bytes=on_node * cpu_adam_bytes_per_param(f),
                   gpus_on_node=per_node)


def _speed(w: Workload, t: TrainSpec, target: Target, f: Mapping[str, Any], pc: Any,
           pl: Placement) -> Speed | None:
    if target.gpu is None and target.backend != "cpu":
        return None
    traffic = _traffic(w, t, f, pc, pl, target)
    avg = w.data.avg_seq_len
    per_row = samples_per_row(w, t)
    if per_row > 1:
        # short samples packed into full rows: the GPU works on full rows, attention spans one sample
        # (variable-length attention), and each row carries seq_len / avg samples
        sp = speed(w.model, t, target, f, pc, traffic, attn_len=avg)
        return dataclasses.replace(sp, samples_per_second=sp.samples_per_second * per_row)
    if w.model.arch == "transformer" and avg and t.seq_len and avg < t.seq_len:
        # samples shorter than the maximum length: compute (and activation traffic) follow the mean
        t = dataclasses.replace(t, seq_len=avg)
    return speed(w.model, t, target, f, pc, traffic)  # pure 16-bit: the 16-bit rates (compute.pick_peak)


def samples_per_row(w: Workload, t: TrainSpec) -> float:
    """The job's samples one micro-batch row carries: seq_len ÷ the mean sample where short samples are packed into
    full rows (`packing`), else 1."""
    avg = w.data.avg_seq_len
    if w.model.arch == "transformer" and avg and t.seq_len and avg < t.seq_len and t.packing:
        return t.seq_len / avg
    return 1.0


def varying_shapes(w: Workload, t: TrainSpec) -> bool:
    """Transformer micro-batches change shape from step to step unless rows are packed to a fixed length
    (pre-training on a token stream, `packing`) or every sample is as long as the row. A run whose longest step comes
    first (`longest_first`) changes shape too, but no later step outgrows the blocks the allocator cached for it
    (gpucheck/estimate/logits.py), so for the reserve it counts as one shape."""
    if w.model.arch != "transformer" or t.packing or w.data.tokens or t.longest_first:
        return False
    avg = w.data.avg_seq_len
    return avg is None or avg < (t.seq_len or avg)


def _cached_reserve(w: Workload, t: TrainSpec, target: Target, f: Mapping[str, Any], n_gpus: int,
                    total_samples: float, reserved: int, ctx: int) -> int:
    """What the reserve shows beyond the need on this card (estimate/logits.py cached_reserve_bytes): the blocks a
    shuffled run of this many steps per GPU leaves cached, up to what the card has left (a failed cudaMalloc frees
    them and retries)."""
    if target.gpu is None:
        return 0
    steps = total_samples / max(1, n_gpus) / max(1, t.batch)
    extra = cached_reserve_bytes(w.model, t, f, target.backend, steps, varying_shapes(w, t))
    room = max(0, int(target.gpu.vram_bytes) - ctx - reserved)
    return int(min(extra, room))


def _cached_notes(cached: int, peak: int, target: Target) -> list[str]:
    """What nvidia-smi may show beyond the need, when it is worth a line, and on Linux CUDA builds the allocator
    setting that avoids it."""
    if not cached_worth_a_line(cached, peak):
        return []
    out = [tr("The samples differ in length, so PyTorch keeps the memory of earlier, shorter steps cached: "
              "nvidia-smi may show up to {shown} per GPU while this runs. PyTorch frees that cache before "
              "it would run out of memory, so the verdict counts what the job needs ({need}).",
              shown=fmt_gib(peak + cached), need=fmt_gib(peak))]
    if target.backend == "cuda" and target.platform != "windows":  # Linux builds only (c10/cuda/CUDAAllocatorConfig.h:
        # PYTORCH_C10_DRIVER_API_SUPPORTED; elsewhere it warns "not supported on this platform" and ignores it);
        # one growing segment whose freed blocks merge, so a longer step reuses the shorter ones' memory
        # (PyTorch devlog 2026-06-01, "When does fragmentation occur in the CUDA caching allocator?")
        out.append(tr("On Linux, starting the training with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                      "lets PyTorch reuse that cached memory for the longer steps instead."))
    return out


def _linear_attention_note(backend: str) -> str:
    """Gated DeltaNet layers (Qwen3.5, Qwen3-Next) are priced as flash-linear-attention's Triton kernels run them
    (its README: 'verified on NVIDIA, AMD, and Intel hardware'); without those (not installed, or no Triton: a CPU, an
    Apple GPU) transformers runs its reference PyTorch code (models/qwen3_5/modeling_qwen3_5.py
    torch_chunk_gated_delta_rule, a loop over 64-token chunks in fp32)."""
    if backend in ("cuda", "rocm", "xpu"):
        return tr("Linear-attention layers: the speed assumes their fast kernels (pip install flash-linear-attention "
                  "causal-conv1d); without them transformers falls back to much slower reference code")
    return tr("Linear-attention layers: on this device transformers runs them in its reference PyTorch code, "
              "slower than this estimate; a trial (gpucheck trial) measures it and calibrates the estimate")


def _positions_note(m: ModelSpec, t: TrainSpec) -> str | None:
    """A sequence longer than the model's positions (ModelSpec.max_positions): with a learned table it does not run
    at all; with rotary positions it runs, past the context the model was trained on."""
    most = pretrained_positions(m, t)
    if not most or not t.seq_len or t.seq_len <= most:
        return None
    if m.learned_positions:
        return tr("The sequence length {seq} is longer than the model's {most} position embeddings: training stops "
                  "with an index error; use at most {most} tokens", seq=f"{t.seq_len:,}", most=f"{most:,}")
    return tr("The sequence length {seq} is longer than the {most} tokens this model was trained on: it runs, but "
              "its answers past {most} tokens degrade unless the positions are rescaled (rope_scaling)",
              seq=f"{t.seq_len:,}", most=f"{most:,}")


def estimate(workload: Workload, target: Target, train: TrainSpec | None = None) -> Estimate:
    f = load_factors()
    t = _normalize(workload, train or workload.train)
    w = workload if train is None else dataclasses.replace(workload, train=t)
    if target.on_cpu:  # attention dropout keeps SDPA off its fused CPU kernel
        w = dataclasses.replace(w, model=cpu_model(w.model, f))
    notes: list[str] = list(target.notes)
    backend = target.backend
    assumed: list[str] = []
    t_used = _forced_precision(t, target, notes, assumed)
    supported, reason, msg = _support(t_used, target, f)
    if msg:
        notes.append(msg)
    n_gpus = target.gpus if target.gpu is not None or backend != "cpu" else 1
    bd, pc = breakdown(w.model, t_used, f, backend, n_gpus, varying_shapes=varying_shapes(w, t_used))
    host = host_needs(w, pc, bd, backend, target.cpu_cores, f, n_gpus)
    peak = bd.total_bytes
    mem = _check_memory(w, target, bd, host.ram_bytes, notes)
    reason = reason or mem.limit
    pl = placement(w.model, t_used, f, pc, n_gpus)
    sp = _speed(w, t_used, target, f, pc, pl)
    host_s = host_seconds(sp, backend, t_used, f) if sp is not None else None
    if sp is not None:  # the CPU's input path (audio features): serial in the training process, overlapped in workers
        sp = with_worker_starts(with_input_path(sp, t_used, target, f), t_used, target, f, w.data.samples)
        host_s = (host_s or 0.0) + sp.input_seconds
    raw_step = sp.step_seconds if sp is not None else None
    share = memory_share(sp) if sp is not None else None
    calibrated = None
    if sp is not None and target.calibration is not None:
        sp = calibrated_speed(sp, target.calibration, w.model.arch, host_s or 0.0)
        calibrated = target.calibration.to_json()
    if sp is None and supported:
        reason = reason or "unknown_gpu_speed"
    total_samples = run_samples(w, t_used)
    ev = evaluation(w.model, t_used, target, f, sp, total_samples, t_used.epoch_samples or w.data.samples)
    total_hours = total_samples / sp.samples_per_second / 3600.0 + ev.hours if sp and sp.samples_per_second \
        else None
    vendor = target.gpu.vendor if target.gpu is not None else ""
    band, band_checked = bands.time_band(w.family, target, f)
    band_note = bands.unchecked_note(w.family, bands.vendor_of(target), f) if sp and not band_checked else None
    notes += [n for n in (_positions_note(w.model, t_used), band_note) if n]
    if sp is not None and sp.host_bound:
        notes.append(_host_bound_note(target, sp))
    verdict = verdict_for(supported=supported, fits=mem.fit != "does_not_fit", total_hours=total_hours,
                          tight=mem.fit == "tight")
    if verdict == Verdict.TOO_SLOW and not reason:
        reason = "slow"
    if t_used.method == "qlora" and moe.is_moe(w.model):
        notes.append(tr("QLoRA of a mixture of experts: bitsandbytes quantizes linear layers only, so these 4-bit "
                        "figures hold where each expert is its own linear layer (transformers 4.x: pip install "
                        "\"transformers<5\"); transformers 5 keeps the experts as 3-D weights, which stay 16-bit"))
    if w.model.linear_attn_layers and supported:
        notes.append(_linear_attention_note(backend))
    if backend == "cpu" and supported:
        notes.append(tr("No usable GPU: the estimate is for training on the CPU"))
    if target.unified_memory:
        notes.append(tr("Apple GPUs share memory with the system: the job and everything else "
                        "running share the same RAM"))
    ctx = int(context_bytes(f, backend))
    allocated = int(bd.total_bytes - bd.overhead_bytes)
    cached = _cached_reserve(w, t_used, target, f, n_gpus, total_samples, int(bd.total_bytes - ctx), ctx)
    notes += _cached_notes(cached, peak, target)
    return Estimate(
        workload_id=w.id, gpu_name=target.device_name, gpus=n_gpus if target.gpu is not None or backend != "cpu"
        else 0, train=t, fits=mem.fit == "fits", verdict=verdict,
        peak_vram_bytes=peak if backend != "cpu" else 0, vram_available_bytes=target.vram_available_bytes,
        breakdown=bd, ram_bytes=mem.ram_needed, disk_bytes=host.disk_bytes,
        samples_per_second=sp.samples_per_second if sp else None,
        tokens_per_second=sp.tokens_per_second if sp else None,
        step_seconds=sp.step_seconds if sp else None, total_hours=total_hours,
        measured_inputs=bool(sp and sp.measured), notes=tuple(dict.fromkeys(notes)),
        assumptions=_assumptions(w, t_used, ev.passes, ev.hours) + tuple(assumed),
        memory_fit=mem.fit, vram_fit=mem.vram_fit, ram_fit=mem.ram_fit, limit=reason, backend=backend, precision_used=t_used.precision,
        allocated_bytes=allocated, reserved_bytes=int(bd.total_bytes - ctx) + cached, cached_bytes=cached,
        context_bytes=ctx, vram_band_bytes=mem.band if backend != "cpu" else (0, 0),
        ram_total_bytes=target.ram_bytes, ram_available_bytes=target.ram_available_bytes,
        ram_besides_training_bytes=int(host.ram_bytes - host.ram_parts.get("training", 0)),
        ram_parts=host.ram_parts, disk_parts=host.disk_parts, dataset_in_memory=host.dataset_in_memory,
        total_params=pc.total, trainable_params=pc.trainable, total_samples=total_samples,
        too_slow_hours=too_slow_hours(),
        flops_per_sample=sp.flops_per_sample if sp else None, peak_tflops=sp.peak_tflops if sp else None,
        math=sp.math if sp else None, utilization=sp.utilization if sp else None,
        bottleneck=sp.bottleneck if sp else None, scaling_efficiency=sp.scaling_efficiency if sp else None,
        stack=t_used.stack, speed_family=w.family,
        hours_range=(total_hours * band[0], total_hours * band[1]) if total_hours is not None else None,
        hours_range_checked=band_checked, hours_range_calibrated=bands.calibrated_cpu(target),
        step_seconds_range=(sp.step_seconds * band[0], sp.step_seconds * band[1]) if sp else None,
        comm_bytes_per_step=pl.comm_bytes_per_optimizer_step(t_used.grad_accum) if n_gpus > 1 else 0.0,
        link_gbps=target.link_gbps(f) if n_gpus > 1 and target.gpu is not None else None,
        network_gbps=network_gbps(target, f) if target.gpu is not None and target.nodes > 1 else None,
        offload_seconds=sp.offload_seconds if sp else 0.0, vendor=vendor,
        speed_checked=bands.vendor_of(target) not in bands.unchecked(w.family, bands.vendor_of(target), "speed", f), host_bound=bool(sp and sp.host_bound),
        host_clock_mhz=sp.host_clock_mhz if sp and sp.host_clock_mhz else None,
        host_clock_assumed=target.gpu is not None and not target.cpu_max_clock_mhz,
        calibrated=calibrated, uncalibrated_step_seconds=raw_step, host_step_seconds=host_s,
        work_memory_share=share,
        input_seconds=sp.input_seconds if sp else 0.0, input_bound=bool(sp and sp.input_bound),
        eval_hours=ev.hours, eval_passes=ev.passes, eval_seconds_per_pass=ev.seconds_per_pass,
    )


_HOST_KIND = {"datacenter": N_("server"), "workstation": N_("workstation"), "consumer": N_("desktop"),
              "laptop": N_("laptop"), "apple": N_("Apple Mac"), "integrated": N_("desktop")}


def _host_bound_note(target: Target, sp: Speed) -> str:
    """Why a step is bound by the CPU: the operators it launches, at the host's clock (assumed or scanned)."""
    ghz = f"{sp.host_clock_mhz / 1000:.1f}"
    if target.cpu_max_clock_mhz:
        return tr("The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each "
                  "sooner than this PC's {ghz} GHz CPU can launch the next. A larger micro-batch or a compiled model "
                  "(torch.compile) helps more than a faster GPU", k=f"{sp.kernels_per_step:,.0f}", ghz=ghz)
    kind = tr(_HOST_KIND.get(target.gpu.segment if target.gpu else "consumer", N_("desktop")))
    return tr("The CPU sets the pace: it launches about {k} GPU operations per step, and the GPU finishes each sooner "
              "than the CPU can launch the next. The estimate assumes the typical {kind} CPU of this GPU at {ghz} GHz "
              "(a scan of the real machine uses its own clock); a larger micro-batch or a compiled model "
              "(torch.compile) helps more than a faster GPU", k=f"{sp.kernels_per_step:,.0f}", kind=kind, ghz=ghz)


def _assumptions(w: Workload, t: TrainSpec, eval_passes: int = 0, eval_hours: float = 0.0) -> tuple[str, ...]:
    out = [tr("{method}, {precision}, {optimizer}, micro-batch {batch}", method=method_label(t.method, t.from_scratch),
              precision=precision_label(t.precision), optimizer=optimizer_label(t.optimizer), batch=t.batch)]
    if t.grad_accum > 1:
        out.append(tr("gradient accumulation {k} (the optimizer steps every {n} samples per GPU)", k=t.grad_accum,
                      n=t.batch * t.grad_accum))
    if w.model.arch == "transformer" and t.image_size:  # a ViT: a token per patch and the class token
        out.append(tr("image size {n}×{n} pixels: {tokens} tokens a picture (a patch each and the class token)",
                      n=t.image_size, tokens=t.seq_len))
    elif w.model.arch == "transformer":
        avg = w.data.avg_seq_len
        if avg and t.seq_len and avg < t.seq_len and t.packing:
            out.append(tr("samples of about {avg} tokens packed into rows of {n} tokens", n=t.seq_len, avg=avg))
        elif avg and t.seq_len and avg < t.seq_len:
            out.append(tr("sequences up to {n} tokens, {avg} on average", n=t.seq_len, avg=avg))
        else:
            out.append(tr("sequence length {n} tokens", n=t.seq_len))
    elif t.image_size:
        out.append(tr("image size {n}×{n} pixels", n=t.image_size))
    if t.grad_checkpointing:
        out.append(tr("gradient checkpointing on"))
    if runs_trl_chunked(t, load_factors()):
        out.append(tr("TRL's chunked cross-entropy loss (its SFTTrainer's default since TRL 1.7)"))
    if t.method in ("lora", "qlora"):
        if w.model.arch == "unet":  # SD trainers' words: diffusers --rank, kohya --network_dim
            out.append(tr("LoRA rank {r} (kohya network_dim) on {targets}", r=t.lora_rank,
                          targets=lora_targets_label(t.lora_targets, "unet")))
        else:
            out.append(tr("LoRA rank {r} on {targets}", r=t.lora_rank, targets=lora_targets_label(t.lora_targets)))
            out.append(tr("LoRA dropout {p:.2f}", p=t.lora_dropout))
    if eval_passes:
        out.append(tr("the time includes {n} evaluation passes ({time})", n=eval_passes, time=fmt_duration(eval_hours)))
    return tuple(out)


def estimate_variant(workload: Workload, target: Target, **train_changes: Any) -> Estimate:
    """estimate() with some TrainSpec fields changed (for the advice's tweak search)."""
    return estimate(workload, target, dataclasses.replace(workload.train, **train_changes))


def check(target: Target, workloads: list[Workload] | tuple[Workload, ...] | None = None) -> list[Estimate]:
    items = load_workloads() if workloads is None else workloads
    return [estimate(w, target) for w in items]


