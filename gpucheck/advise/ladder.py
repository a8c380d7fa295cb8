"""The tweak ladder: what to change, in order, until a job fits the GPU (and what each change costs).

Pure. The estimator is injected as `estimate_fn(workload, train) -> Estimate`, so the same ladder runs
for this machine's GPU, for a GPU the user might buy, and for a cloud GPU.

Order (each step keeps the ones before it; stop at the first that fits):
mixed precision → (several GPUs: ZeRO-1/2/3 sharding) → smaller micro-batch + gradient accumulation →
gradient checkpointing → (diffusion) cached latents and text embeddings → 8-bit optimizer (one GPU) → (several GPUs: ZeRO-3 with CPU offload) → LoRA →
QLoRA → (text models with adapters) a shorter maximum sequence length → CPU offload of the optimizer
(one GPU). `smaller_alternative` is the last rung: a smaller model
of the same family, offered beside a job that still does not fit.
Two steps are not optional: BF16 on a CUDA GPU without BF16 becomes FP16, and bitsandbytes features on
a backend without bitsandbytes (Apple MPS) become their 16-bit equivalents. `speed_up` adds mixed
precision to a job that fits but is too slow in FP32.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.advise.model import Tweak
from gpucheck.i18n import fmt_gib, localized, tr
from gpucheck.records import Estimate, TrainSpec, Workload

EstimateFn = Callable[[Workload, TrainSpec], Estimate]
LORA_ARCHS = ("transformer", "unet")


@dataclass(frozen=True)
class GpuFacts:
    """What the ladder needs to know about the GPU it targets."""

    backend: str  # cuda | rocm | metal | xpu | cpu
    compute_capability: float | None
    supports_bf16: bool
    ram_bytes: int | None = None  # host RAM (CPU offload), None = unknown
    gpus: int = 1  # GPUs working on one model (several: ZeRO / FSDP sharding is tried)


@dataclass(frozen=True)
class LadderResult:
    workload: Workload  # the workload finally used (a smaller model after "smaller_model")
    train: TrainSpec
    estimate: Estimate  # for `train` (with CPU offload applied when used)
    tweaks: tuple[Tweak, ...]
    fits: bool
    smallest_peak_vram_bytes: int  # the least VRAM any step reached (what "needs X GB" reports)
    settings: dict[str, Any]


def bitsandbytes_ok(facts: GpuFacts) -> bool:
    if facts.backend not in tuple(factor("bitsandbytes", "backends")):
        return False
    if facts.backend == "cuda" and facts.compute_capability is not None:
        return facts.compute_capability >= float(factor("bitsandbytes", "min_compute_capability"))
    return True


def bf16_ok(facts: GpuFacts) -> bool:
    if facts.backend == "cuda" and facts.compute_capability is not None:
        return facts.compute_capability >= float(factor("precision", "bf16_min_compute_capability"))
    return facts.supports_bf16


def _precision_settings(precision: str) -> dict[str, Any]:
    if precision == "bf16":
        return {"bf16": True}
    if precision == "fp16":
        return {"fp16": True}
    return {}


def _scale_hours(est: Estimate, factor_: float) -> Estimate:
    return dataclasses.replace(
        est,
        total_hours=None if est.total_hours is None else est.total_hours * factor_,
        step_seconds=None if est.step_seconds is None else est.step_seconds * factor_,
        samples_per_second=None if est.samples_per_second is None else est.samples_per_second / factor_,
        tokens_per_second=None if est.tokens_per_second is None else est.tokens_per_second / factor_,
    )


def runs(est: Estimate) -> bool:
    """Fits (VRAM, and RAM where the estimator checks it) and is supported on this backend."""
    return est.fits and est.verdict != "not_supported"


SHARD_STAGES = ("zero1", "zero2", "zero3")


def per_gpu_bytes(est: Estimate, gpus: int, stage: str | None) -> int:
    """Memory on each GPU when `gpus` GPUs share one model with DeepSpeed ZeRO `stage`.

    zero1 shards optimizer state, zero2 adds gradients, zero3 (= FSDP full shard) adds weights;
    zero3_offload also keeps the FP32 master weights and optimizer state in CPU RAM, so a GPU holds
    only its shard of the 16-bit weights and of the gradients."""
    b = est.breakdown
    n = max(1, gpus)
    w, g, o = float(b.weights_bytes), float(b.gradients_bytes), float(b.optimizer_bytes)
    if stage == "zero3_offload":
        w, g, o = _weights16(est) / n, g / n, 0.0
    else:
        if stage in ("zero1", "zero2", "zero3"):
            o /= n
        if stage in ("zero2", "zero3"):
            g /= n
        if stage == "zero3":
            w /= n
    allocated = w + g + o + b.activations_bytes
    return int(allocated + _overhead(est, allocated))


def _overhead(est: Estimate, allocated: float) -> float:
    """CUDA context plus allocator slack, the slack scaled to what each GPU now holds."""
    b = est.breakdown
    ctx = float(est.extra.get("context_bytes", 0.0)) if est.extra else 0.0
    whole = float(b.weights_bytes + b.gradients_bytes + b.optimizer_bytes + b.activations_bytes)
    frac = max(0.0, (b.overhead_bytes - ctx) / whole) if whole else 0.0
    return min(float(b.overhead_bytes), ctx + frac * allocated)


def _weights16(est: Estimate) -> float:
    """The 16-bit working copy of the weights (mixed precision); all weights otherwise."""
    params = est.extra.get("total_params") if est.extra else None
    if est.train.precision in ("fp16", "bf16") and est.train.method == "full" and params:
        return min(float(est.breakdown.weights_bytes), 2.0 * float(params))
    return float(est.breakdown.weights_bytes)


def offload_ram_bytes(est: Estimate) -> int:
    """Extra CPU RAM for zero3_offload: FP32 master weights + optimizer state of the whole model."""
    b = est.breakdown
    return int(b.weights_bytes - _weights16(est) + b.optimizer_bytes)


def with_stage(est: Estimate, gpus: int, stage: str | None, ram_total: int | None) -> Estimate:
    """The estimate with per-GPU memory (and, for offload, RAM and time) for a sharding stage."""
    if gpus <= 1 or stage is None:
        return est
    need = per_gpu_bytes(est, gpus, stage)
    ram = est.ram_bytes
    fits = est.vram_available_bytes is None or need <= est.vram_available_bytes
    out = dataclasses.replace(est, peak_vram_bytes=need)
    if stage == "zero3_offload":
        ram = est.ram_bytes + offload_ram_bytes(est)
        fits = fits and (ram_total is None or ram <= ram_total)
        out = _scale_hours(dataclasses.replace(out, ram_bytes=ram),
                           float(factor("tweaks", "cpu_offload_time_factor")))
    return dataclasses.replace(out, fits=fits)


def stage_label(stage: str | None) -> str:
    return {None: tr("plain data parallel (DDP)"), "zero1": tr("DeepSpeed ZeRO-1"),
            "zero2": tr("DeepSpeed ZeRO-2"), "zero3": tr("DeepSpeed ZeRO-3 / FSDP full shard"),
            "zero3_offload": tr("DeepSpeed ZeRO-3 with the optimizer offloaded to CPU RAM")}[stage]


def _stage_settings(stage: str) -> dict[str, Any]:
    if stage == "zero3_offload":
        return {"deepspeed": {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu",
                                                                                      "pin_memory": True}}},
                "zero_stage": 3, "offload": True}
    return {"deepspeed": {"zero_optimization": {"stage": int(stage[-1])}}, "zero_stage": int(stage[-1])}


def required_fixes(train: TrainSpec, facts: GpuFacts) -> tuple[TrainSpec, list[tuple[str, str, str, dict]]]:
    """Changes the GPU forces whether or not the job fits (BF16 without BF16, bitsandbytes without it)."""
    steps: list[tuple[str, str, str, dict]] = []
    if facts.backend == "cpu":
        return train, steps
    if train.precision == "bf16" and facts.backend == "cuda" and not bf16_ok(facts):
        train = dataclasses.replace(train, precision="fp16")
        steps.append(("mixed_precision", tr("Use FP16 mixed precision instead of BF16"),
                      tr("this GPU has no BF16 support (it needs compute capability 8.0, Ampere or newer); FP16 "
                         "with automatic loss scaling trains the same way"),
                      {"fp16": True, "bf16": False}))
    if not bitsandbytes_ok(facts):
        if train.method == "qlora":
            train = dataclasses.replace(train, method="lora")
            steps.append(("lora", tr("Use LoRA on a 16-bit model instead of QLoRA"),
                          tr("4-bit loading (bitsandbytes) is not available on this GPU; the frozen model takes "
                             "4× more memory"),
                          {"lora_r": train.lora_rank, "load_in_4bit": False}))
        if train.optimizer == "adamw-8bit":
            train = dataclasses.replace(train, optimizer="adamw")
            steps.append(("optimizer_8bit", tr("Use the standard AdamW optimizer"),
                          tr("8-bit optimizers (bitsandbytes) are not available on this GPU"),
                          {"optim": "adamw_torch"}))
    return train, steps


def run_ladder(workload: Workload, train: TrainSpec, facts: GpuFacts, estimate_fn: EstimateFn,
               same_job_only: bool = False) -> LadderResult:
    """Climb the ladder until the job fits. `same_job_only` stops before steps that change what is
    trained (LoRA, QLoRA, a smaller model): used for GPUs one could buy or rent."""
    tweaks: list[Tweak] = []
    settings: dict[str, Any] = {}
    gpus = max(1, facts.gpus)
    stage: str | None = None

    def record(tid: str, title: str, cost: str, new_settings: dict, est: Estimate) -> None:
        settings.update(new_settings)
        tweaks.append(Tweak(id=tid, title=title, cost=cost, settings=dict(new_settings),
                            peak_vram_bytes=est.peak_vram_bytes, total_hours=est.total_hours, fits=runs(est)))

    train, forced = required_fixes(train, facts)
    est = estimate_fn(workload, train)
    for tid, title, cost, s in forced:
        record(tid, title, cost, s, est)
    smallest = est.peak_vram_bytes
    if runs(est) or facts.backend == "cpu":
        return LadderResult(workload, train, est, tuple(tweaks), runs(est), smallest, settings)
    if (est.extra or {}).get("reason") == "ram" and facts.backend != "metal":
        # the GPU holds the job; only system RAM is short, and no VRAM tweak changes that (on a Mac,
        # where the GPU's memory is the RAM, the ladder does help)
        return LadderResult(workload, train, est, tuple(tweaks), False, smallest, settings)

    def attempt(new_train: TrainSpec, wl: Workload | None = None) -> Estimate:
        nonlocal smallest
        e = with_stage(estimate_fn(wl or workload, new_train), gpus, stage, facts.ram_bytes)
        smallest = min(smallest, e.peak_vram_bytes)
        return e

    def done(e: Estimate) -> LadderResult:
        return LadderResult(workload, train, e, tuple(tweaks), True, smallest, settings)

    # 1. mixed precision
    if train.precision == "fp32":
        precision = "bf16" if bf16_ok(facts) else "fp16"
        train = dataclasses.replace(train, precision=precision)
        est = attempt(train)
        record("mixed_precision",
               tr("Use {p} mixed precision", p=precision.upper()),
               tr("none: tensor cores make it faster, and the model keeps FP32 master weights"),
               _precision_settings(precision), est)
        if runs(est):
            return done(est)

    # 1b. several GPUs: shard the model (lowest ZeRO stage that fits; else ZeRO-3 and keep climbing)
    if gpus > 1 and facts.backend in ("cuda", "rocm"):
        raw = estimate_fn(workload, train)
        chosen = None
        for s_ in SHARD_STAGES:
            e = with_stage(raw, gpus, s_, facts.ram_bytes)
            smallest = min(smallest, e.peak_vram_bytes)
            if runs(e):
                chosen, est = s_, e
                break
        stage = chosen or "zero3"
        est = with_stage(raw, gpus, stage, facts.ram_bytes)
        record("sharding", tr("Shard the model across the {n} GPUs: {how}", n=gpus, how=stage_label(stage)),
               tr("more communication between GPUs each step; fine over NVLink, slower over PCIe"),
               _stage_settings(stage), est)
        if runs(est):
            return done(est)

    # 2. smaller micro-batch, same effective batch through gradient accumulation
    if train.batch > 1:
        effective = train.batch * train.grad_accum
        b = train.batch
        while b > 1:
            b = max(1, b // 2)
            t = dataclasses.replace(train, batch=b, grad_accum=max(1, effective // b))
            e = attempt(t)
            if runs(e) or b == 1:
                train, est = t, e
                record("micro_batch",
                       tr("Micro-batch {b} with gradient accumulation {k} (same effective batch {n})",
                          b=b, k=train.grad_accum, n=effective),
                       tr("the same training result; a little slower per sample because the GPU does less "
                          "work at a time"),
                       {"per_device_train_batch_size": b, "gradient_accumulation_steps": train.grad_accum}, est)
                break
        if runs(est):
            return done(est)

    # 3. gradient checkpointing
    if not train.grad_checkpointing:
        train = dataclasses.replace(train, grad_checkpointing=True)
        est = attempt(train)
        pct = (float(factor("tweaks", "grad_checkpointing_time_factor")) - 1) * 100
        record("grad_checkpointing", tr("Turn on gradient checkpointing"),
               tr("about {p}% more time: activations are recomputed in the backward pass", p=f"{pct:.0f}"),
               {"gradient_checkpointing": True}, est)
        if runs(est):
            return done(est)

    # 3b. diffusion: encode the images (VAE) and captions (text encoders) once, before training; those
    # frozen networks then leave the GPU (kohya sd-scripts --cache_latents/--cache_text_encoder_outputs)
    if workload.model.arch == "unet" and workload.model.aux_params and not train.cache_embeddings:
        train = dataclasses.replace(train, cache_embeddings=True)
        est = attempt(train)
        record("cache_embeddings", tr("Cache the latents and text embeddings before training"),
               tr("the VAE and text encoders run once and leave the GPU, which also saves time; random crops "
                  "and flips are then fixed per image, and the text encoder is not trained"),
               {"cache_latents": True, "cache_text_encoder_outputs": True}, est)
        if runs(est):
            return done(est)

    # 4. 8-bit optimizer (full fine-tuning: the optimizer state is big)
    if train.optimizer == "adamw" and train.method == "full" and bitsandbytes_ok(facts) and stage is None:
        train = dataclasses.replace(train, optimizer="adamw-8bit")
        est = attempt(train)
        record("optimizer_8bit", tr("Use the 8-bit AdamW optimizer (bitsandbytes)"),
               tr("optimizer memory falls from 8 to 2 bytes per parameter; results stay very close"),
               {"optim": "adamw_bnb_8bit"}, est)
        if runs(est):
            return done(est)

    # 4b. several GPUs, full fine-tuning: ZeRO-3 with the optimizer in CPU RAM before changing the method
    if stage is not None and train.method == "full":
        stage = "zero3_offload"
        e = attempt(train)
        if runs(e):
            est = e
            record("cpu_offload", tr("Offload the optimizer state and FP32 master weights to CPU RAM (ZeRO-3 "
                                     "offload)"),
                   tr("needs {ram} of RAM in all; steps are about {f}× slower",
                      ram=fmt_gib(e.ram_bytes), f=f"{float(factor('tweaks', 'cpu_offload_time_factor')):.1f}"),
                   _stage_settings(stage), e)
            return done(e)
        stage = "zero3"

    if same_job_only:
        return LadderResult(workload, train, est, tuple(tweaks), False, smallest, settings)

    # 5. LoRA (adapters need pretrained weights: never for a model trained from scratch)
    transformer_like = workload.model.arch in LORA_ARCHS
    if train.method == "full" and transformer_like and not train.from_scratch:
        rank = int(factor("tweaks", "lora_rank"))
        if any(t.id == "optimizer_8bit" for t in tweaks):  # LoRA's optimizer state is tiny: back to AdamW
            tweaks[:] = [t for t in tweaks if t.id != "optimizer_8bit"]
            settings.pop("optim", None)
        train = dataclasses.replace(train, method="lora", lora_rank=rank,
                                    optimizer="adamw" if train.optimizer == "adamw-8bit" else train.optimizer)
        est = attempt(train)
        record("lora", tr("Fine-tune with LoRA (rank {r}) instead of all weights", r=rank),
               tr("trains small adapter matrices only: far less memory; quality is close to full fine-tuning "
                  "for most tasks"),
               {"lora_r": rank}, est)
        if runs(est):
            return done(est)

    # 6. QLoRA
    if train.method == "lora" and workload.model.arch == "transformer" and bitsandbytes_ok(facts):
        train = dataclasses.replace(train, method="qlora", optimizer="adamw-8bit")
        est = attempt(train)
        record("qlora", tr("Use QLoRA: load the frozen model in 4-bit (NF4)"),
               tr("about 4× less memory for the model; roughly 20-40% slower steps, slightly lower quality"),
               {"load_in_4bit": True, "optim": "paged_adamw_8bit", "lora_r": train.lora_rank}, est)
        if runs(est):
            return done(est)

    # 6b. text models with adapters: a shorter maximum sequence length (activations shrink, weights do not)
    if (train.method in ("lora", "qlora") and workload.model.arch == "transformer"
            and workload.family in ("llm", "nlp") and train.seq_len):
        # offered only when it makes the job fit: cutting samples is a real trade-off, not worth it alone
        for n in sorted((int(x) for x in factor("tweaks", "max_seq_len_steps")), reverse=True):
            if n >= train.seq_len:
                continue
            t = dataclasses.replace(train, seq_len=n)
            e = with_stage(estimate_fn(workload, t), gpus, stage, facts.ram_bytes)
            if runs(e):
                smallest = min(smallest, e.peak_vram_bytes)
                train, est = t, e
                avg = workload.data.avg_seq_len
                cost = (tr("samples longer than {n} tokens are cut off (or split); little is lost when most of "
                           "the data is shorter: this data set averages about {avg} tokens", n=n, avg=avg)
                        if avg else
                        tr("samples longer than {n} tokens are cut off (or split); check how long your samples "
                           "are: little is lost when most of them are shorter", n=n))
                record("shorter_sequences", tr("Limit the sequence length to {n} tokens", n=n), cost,
                       {"max_seq_length": n}, est)
                break
        if runs(est):
            return done(est)

    # 7. CPU offload of the optimizer state (DeepSpeed ZeRO-2 offload), where DeepSpeed runs
    if facts.backend == "cuda" and train.method == "full" and stage is None:
        t = dataclasses.replace(train, cpu_offload=True)
        factor_ = float(factor("tweaks", "cpu_offload_time_factor"))
        off = _scale_hours(attempt(t), factor_)
        if runs(off):
            train = t
            record("cpu_offload", tr("Offload the optimizer state to CPU RAM (DeepSpeed ZeRO-2 offload)"),
                   tr("needs {ram} of RAM in all; steps are about {f}× slower", ram=fmt_gib(off.ram_bytes),
                      f=f"{factor_:.1f}"),
                   {"deepspeed": {"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu",
                                                                                          "pin_memory": True}}}},
                   off)
            return done(off)

    return LadderResult(workload, train, est, tuple(tweaks), False, smallest, settings)


def speed_up(res: LadderResult, facts: GpuFacts, estimate_fn: EstimateFn, limit_hours: float) -> LadderResult:
    """A job that fits but is too slow in FP32: mixed precision is the one free speed-up worth trying."""
    est = res.estimate
    if (not res.fits or est.total_hours is None or est.total_hours <= limit_hours
            or res.train.precision != "fp32" or facts.backend not in ("cuda", "rocm", "metal")):
        return res
    precision = "bf16" if bf16_ok(facts) else "fp16"
    train = dataclasses.replace(res.train, precision=precision)
    e = estimate_fn(res.workload, train)
    if not runs(e) or e.total_hours is None or e.total_hours >= est.total_hours * 0.9:
        return res
    tweak = Tweak(id="mixed_precision", title=tr("Use {p} mixed precision", p=precision.upper()),
                  cost=tr("none: tensor cores make it faster, and the model keeps FP32 master weights"),
                  settings=_precision_settings(precision), peak_vram_bytes=e.peak_vram_bytes,
                  total_hours=e.total_hours, fits=True)
    return dataclasses.replace(res, train=train, estimate=e, tweaks=res.tweaks + (tweak,),
                               settings={**res.settings, **tweak.settings})


def speed_tweaks(res: LadderResult, facts: GpuFacts, estimate_fn: EstimateFn) -> tuple[Tweak, ...]:
    """Optional speed-ups for a job that runs but whose steps are bound by per-step overhead (CPU kernel
    dispatch, fixed costs): the GPU idles, so a faster GPU would not help either. Each tweak is applied
    alone on top of the advised configuration and re-estimated (so it is offered only when it still fits
    and is at least 20% faster). Kinds: sequence packing (text models whose samples are shorter than the
    maximum length) and a larger micro-batch with less gradient accumulation."""
    est = res.estimate
    if (not res.fits or est.total_hours is None or est.extra.get("bottleneck") != "overhead"
            or facts.backend == "cpu"):
        return ()
    gain = float(factor("speed_tweaks", "time_factor_required"))
    w, t = res.workload, res.train
    out: list[Tweak] = []
    avg = w.data.avg_seq_len
    flash_ok = facts.backend in tuple(factor("speed_tweaks", "packing_backends")) and (
        facts.compute_capability is None
        or facts.compute_capability >= float(factor("speed_tweaks", "packing_min_compute_capability")))
    if w.model.arch == "transformer" and flash_ok and avg and t.seq_len and avg * 2 <= t.seq_len:
        # packing concatenates samples into full-length rows: each row holds seq_len / avg samples
        rows = max(1, round(w.data.samples * avg / t.seq_len))
        packed = dataclasses.replace(w, data=dataclasses.replace(w.data, samples=rows, avg_seq_len=None))
        e = estimate_fn(packed, t)
        if runs(e) and e.total_hours is not None and e.total_hours <= est.total_hours * gain:
            out.append(Tweak(
                id="packing", kind="speed",
                title=tr("Pack several short samples into each {n}-token row (sequence packing)", n=t.seq_len),
                cost=tr("needs FlashAttention 2 (load the model with attn_implementation=\"flash_attention_2\"), "
                        "which keeps packed samples from attending to each other; there are fewer optimizer "
                        "steps per epoch, so check the learning-rate schedule"),
                settings={"packing": True, "max_length": t.seq_len},
                peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours, fits=True))
    best: tuple[Estimate, TrainSpec] | None = None
    k = 2
    while k <= int(factor("speed_tweaks", "max_batch_multiple")):
        bigger = dataclasses.replace(t, batch=t.batch * k, grad_accum=max(1, t.grad_accum // k))
        e = estimate_fn(w, bigger)
        if not runs(e) or e.total_hours is None:
            break
        if e.total_hours <= est.total_hours * gain:
            best = (e, bigger)
        k *= 2
    if best is not None:
        e, bigger = best
        same = bigger.batch * bigger.grad_accum == t.batch * t.grad_accum
        cost = (tr("uses more GPU memory ({gib}); the effective batch stays the same because gradient "
                   "accumulation drops to {a}", gib=fmt_gib(e.peak_vram_bytes), a=bigger.grad_accum) if same else
                tr("uses more GPU memory ({gib}) and makes the effective batch {b} samples: fewer optimizer "
                   "steps, so raise the learning rate or train for more epochs if the loss stalls",
                   gib=fmt_gib(e.peak_vram_bytes), b=bigger.batch * bigger.grad_accum))
        out.append(Tweak(
            id="larger_batch", kind="speed",
            title=tr("Raise the micro-batch from {a} to {b}", a=t.batch, b=bigger.batch),
            cost=cost,
            settings={"per_device_train_batch_size": bigger.batch,
                      "gradient_accumulation_steps": bigger.grad_accum},
            peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours, fits=True))
    return tuple(out)


def smaller_alternative(workload: Workload, facts: GpuFacts, estimate_fn: EstimateFn,
                        smaller: Callable[[str], Workload | None]) -> LadderResult | None:
    """The last rung: the first smaller, easier job (the workload's `smaller_model` chain) that fits, with its own recipe and
    ladder. The result's first tweak is "smaller_model"; the job asked for still does not fit."""
    name = workload.smaller_model
    seen = {workload.id}
    while name and name not in seen:
        seen.add(name)
        small = smaller(name)
        if small is None:
            return None
        sub = run_ladder(small, small.train, facts, estimate_fn)
        if sub.fits:
            first = Tweak(id="smaller_model",
                          title=tr("Train a smaller model instead: {title}", title=localized(small, "title")),
                          cost=tr("a smaller model is less capable, but it fits this GPU"),
                          settings={"workload": small.id, "model": small.model.name or small.id},
                          peak_vram_bytes=sub.estimate.peak_vram_bytes, total_hours=sub.estimate.total_hours,
                          fits=True)
            return dataclasses.replace(sub, tweaks=(first,) + sub.tweaks,
                                       settings={**first.settings, **sub.settings})
        name = small.smaller_model
    return None


# -- copyable settings -----------------------------------------------------------------------------


def snippet(settings: dict[str, Any], train: TrainSpec, workload: Workload, facts: GpuFacts) -> str:
    """Python a user can paste: TrainingArguments, plus LoraConfig / BitsAndBytesConfig when used.
    Diffusion models are trained with the diffusers example scripts, not the Transformers Trainer: for
    them it is the script's command line."""
    if not settings:
        return ""
    if workload.model.arch == "unet":
        return _diffusers_command(settings, train, workload)
    args = [f'    output_dir="{workload.id}-out",']
    b = settings.get("per_device_train_batch_size", train.batch)
    args.append(f"    per_device_train_batch_size={b},")
    k = settings.get("gradient_accumulation_steps", train.grad_accum)
    if k and k > 1:
        args.append(f"    gradient_accumulation_steps={k},")
    if train.precision == "bf16":
        args.append("    bf16=True,")
    elif train.precision == "fp16":
        args.append("    fp16=True,")
    if train.grad_checkpointing:
        args.append("    gradient_checkpointing=True,")
    optim = settings.get("optim")
    if train.method == "qlora":
        optim = "paged_adamw_8bit"
    elif train.optimizer == "adamw-8bit":
        optim = "adamw_bnb_8bit"
    if optim and optim != "adamw_torch":
        args.append(f'    optim="{optim}",')
    if "deepspeed" in settings:
        args.append("    deepspeed=ds_config,")
    lines = []
    if train.method == "qlora":
        lines.append("import torch")
    if "deepspeed" in settings:
        lines.append(f"ds_config = {json.dumps(settings['deepspeed'])}  # plus the Trainer's 'auto' fields")
    lines.append("from transformers import TrainingArguments")
    lines.append("args = TrainingArguments(")
    lines += args
    lines.append(")")
    if train.method in ("lora", "qlora"):
        task = "CAUSAL_LM" if workload.family == "llm" else None
        lines.append("from peft import LoraConfig")
        targets = {"qv": '["q_proj", "v_proj"]', "attention": '["q_proj", "k_proj", "v_proj", "o_proj"]'}.get(
            getattr(train, "lora_targets", "all-linear"), '"all-linear"')
        if workload.model.arch == "unet":
            targets = '["to_q", "to_k", "to_v", "to_out.0"]'
        lines.append(f"lora = LoraConfig(r={train.lora_rank}, lora_alpha={2 * train.lora_rank}, lora_dropout=0.05, "
                     f"target_modules={targets}" + (f', task_type="{task}")' if task else ")"))
    if train.method == "qlora":
        dtype = "torch.bfloat16" if bf16_ok(facts) else "torch.float16"
        lines.append("from transformers import BitsAndBytesConfig")
        lines.append('bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", '
                     f"bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype={dtype})")
    if workload.model.arch in ("cnn", "mlp") and (train.precision != "fp32" or (k and k > 1)):
        amp = {"bf16": "torch.bfloat16", "fp16": "torch.float16"}.get(train.precision)
        hint = [f"torch.autocast('cuda', dtype={amp})"] if amp else []
        if train.precision == "fp16":
            hint.append("torch.amp.GradScaler()")
        if k and k > 1:
            hint.append(f"optimizer.step() every {k} batches")
        lines.append("# plain PyTorch loop: " + "; ".join(hint))
    if settings.get("max_seq_length"):
        n = settings["max_seq_length"]
        lines.append(f"# tokenize with truncation=True, max_length={n} (TRL SFTConfig: max_length={n})")
    if settings.get("workload") == workload.id and settings.get("model"):
        lines.append(f'# model: "{settings["model"]}"')
    return "\n".join(lines)



def _diffusers_command(settings: dict[str, Any], train: TrainSpec, workload: Workload) -> str:
    """`accelerate launch` of the diffusers example script that trains this kind of job (examples/
    dreambooth and examples/text_to_image in the diffusers repository; flag names as those scripts
    define them)."""
    dreambooth = workload.train.method == "full"  # full-UNet jobs are DreamBooth-style fine-tunes
    sdxl = (workload.model.ref_image_size or 512) >= 1024
    if dreambooth:
        script = "train_dreambooth_lora_sdxl.py" if sdxl else (
            "train_dreambooth_lora.py" if train.method == "lora" else "train_dreambooth.py")
    else:
        script = "train_text_to_image_lora_sdxl.py" if sdxl else "train_text_to_image_lora.py"
    b = settings.get("per_device_train_batch_size", train.batch)
    k = settings.get("gradient_accumulation_steps", train.grad_accum)
    args = [f"accelerate launch {script}"]
    if workload.model.name:
        args.append(f'  --pretrained_model_name_or_path="{workload.model.name}"')
    if train.image_size:
        args.append(f"  --resolution={train.image_size}")
    args.append(f"  --train_batch_size={b}")
    if k and k > 1:
        args.append(f"  --gradient_accumulation_steps={k}")
    args.append(f'  --mixed_precision="{ {"fp16": "fp16", "bf16": "bf16"}.get(train.precision, "no")}"')
    if train.grad_checkpointing:
        args.append("  --gradient_checkpointing")
    if train.optimizer == "adamw-8bit" or settings.get("optim") == "adamw_bnb_8bit":
        args.append("  --use_8bit_adam")
    if train.method == "lora":
        args.append(f"  --rank={train.lora_rank}")
    args.append(f'  --output_dir="{workload.id}-out"')
    cmd = " \\\n".join(args)
    if train.cache_embeddings:
        cmd += ("\n# cache the VAE latents and text-encoder outputs before training (kohya sd-scripts: "
                "--cache_latents --cache_text_encoder_outputs --network_train_unet_only)")
    return cmd
