"""The tweak ladder: changes that keep WHAT is trained (model, method, data, effective batch), tried in
order of what they cost, until a job fits the GPU — and, beside it, what fits instead.

Pure. The estimator is injected as `estimate_fn(workload, train) -> Estimate`, so the same ladder runs
for this machine's GPU, for a GPU the user might buy, and for a cloud GPU.

The ladder is the table `RUNGS`, driven by one loop (`run_ladder`). Each rung says what it loses:
- nothing: mixed precision; a sequence limit the data hardly reaches (it averages far shorter); a fused
  linear cross-entropy (Liger Kernel) that never keeps a language model's logits (advise/fused_loss.py)
- time: sharding over several GPUs (communication), micro-batch + accumulation (BatchNorm networks:
  also the statistics), gradient checkpointing, CPU offload (ZeRO-Offload)
- a little quality: cached latents/embeddings (faster; it gives up per-epoch augmentation, the crops and
  flips fixed per image, and text-encoder training); paged 8-bit AdamW — tried before CPU offload, whose
  2-3× longer steps cost more than
  8-bit AdamW's negligible change in results (Dettmers et al. 2022, "8-bit Optimizers via Block-wise
  Quantization": same accuracy as 32-bit Adam on the tasks tested)
- data: a sequence limit that cuts samples, a lower image resolution (diffusion)
Each rung keeps the ones before it; the loop stops at the first configuration that fits with room.
A different method (LoRA, QLoRA) or a smaller model changes what is trained: those are alternatives
("what fits instead", `method_alternatives`, `smaller_alternative`), never rungs.
Two changes are forced by the GPU whether or not the job fits (`required_fixes`): BF16 on a GPU without
fast BF16 (NVIDIA before Ampere, AMD RDNA 2, Apple M1/M2) becomes FP16, and 8-bit AdamW on a backend
without bitsandbytes becomes AdamW. `speed_up` adds mixed precision to a job that fits but is too slow.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.advise.gpu_support import (
    GpuFacts,
    _stage_settings,
    advised_zero_fields,
    bf16_ok,
    bitsandbytes_ok,
    offload_settings,
    required_fixes,
)
from gpucheck.advise.model import Tweak
from gpucheck.advise.rungs import (
    Climb,
    EstimateFn,
    LadderResult,
    Rung,
    _8bit_only_if_it_fits,
    _cand_8bit,
    _cand_bucket_view,
    _cand_cache,
    _cand_checkpointing,
    _cand_fused_loss,
    _cand_micro_batch,
    _cand_precision,
    _cand_pure_bf16,
    _cand_resolution,
    _cand_short_cut,
    _cand_short_free,
    _cand_unsloth,
    _desc_8bit,
    _desc_bucket_view,
    _desc_cache,
    _desc_checkpointing,
    _desc_fused_loss,
    _desc_micro_batch,
    _desc_precision,
    _desc_pure_bf16,
    _desc_resolution,
    _desc_short,
    _desc_unsloth,
    _loses_short,
    _mixed_precision_text,
    _replaced_by_pure_bf16,
    _replaced_by_unsloth,
    _try_rung,
    runs,
)
from gpucheck.choices import UNSLOTH
from gpucheck.estimate.factors import load_factors
from gpucheck.i18n import fmt_gib, localized, tr
from gpucheck.records import Estimate, TrainSpec, Workload

LORA_ARCHS = ("transformer", "unet")
LOSSES = ("nothing", "time", "quality", "data")  # what a rung gives up, in the order rungs are tried


SHARD_STAGES = ("zero1", "zero2", "zero3")


def stage_label(stage: str | None) -> str:
    return {None: tr("plain data parallel (DDP)"), "zero1": tr("DeepSpeed ZeRO-1"),
            "zero2": tr("DeepSpeed ZeRO-2"), "zero3": tr("DeepSpeed ZeRO-3 / FSDP full shard"),
            "zero3_offload": tr("DeepSpeed ZeRO-3 with the optimizer offloaded to CPU RAM")}[stage]


# -- the rungs -------------------------------------------------------------------------------------
# the DeepSpeed rungs here; the others, and what a rung is, in advise/rungs.py


def _cand_sharding(c: Climb) -> list[TrainSpec]:
    if c.facts.gpus <= 1 or c.facts.backend not in ("cuda", "rocm") or c.train.zero_stage or c.train.shard:
        return []
    # DeepSpeed ZeRO runs the Hugging Face stack: a plan that took Unsloth goes back to the job's own stack
    t = c.train if c.train.stack != UNSLOTH else dataclasses.replace(
        c.train, stack=c.workload.train.stack, lora_dropout=c.workload.train.lora_dropout)
    return [dataclasses.replace(t, zero_stage=s, **advised_zero_fields()) for s in (1, 2, 3)]


def _replaced_by_sharding(t: TrainSpec) -> tuple[str, ...]:
    return ("unsloth",)


def _desc_sharding(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    stage = f"zero{t.zero_stage}"
    return (tr("Shard the model across the {n} GPUs: {how}", n=c.facts.gpus, how=stage_label(stage)),
            tr("costs time: more communication between GPUs each step; fine over NVLink, slower over PCIe"),
            _stage_settings(t.zero_stage))


def full_offload(t: TrainSpec, gpus: int) -> TrainSpec:
    """A full fine-tune with ZeRO-Offload. DeepSpeed's CPU AdamW (fp32 states in RAM) replaces an 8-bit
    optimizer (see DS_CPU_ADAMW); it keeps FP32 master weights in RAM, so the ladder's pure BF16 goes back to
    mixed precision."""
    stage = max(2, t.zero_stage) if gpus > 1 else 0
    optimizer = "adamw" if t.optimizer == "adamw-8bit" else t.optimizer
    precision = "bf16" if t.precision == "bf16-pure" and not t.precision_chosen else t.precision
    return dataclasses.replace(t, cpu_offload=True, zero_stage=stage, optimizer=optimizer, precision=precision,
                               **advised_zero_fields())


def _cand_offload(c: Climb) -> list[TrainSpec]:
    t = c.train
    if c.facts.backend not in ("cuda", "rocm") or t.cpu_offload:
        return []
    if t.method == "full":
        return [full_offload(t, c.facts.gpus)]
    if c.facts.gpus > 1 and (t.zero_stage >= 3 or t.shard):  # FSDP + QLoRA: the frozen shards to CPU RAM
        return [dataclasses.replace(t, cpu_offload=True)]
    return []


def _desc_offload(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    now, before = c.est.total_hours, c.prev_hours  # the estimate prices offload by its PCIe and CPU traffic
    f = now / before if now and before else 1.0
    return (tr("Offload the FP32 master weights, gradients and optimizer state to CPU RAM (DeepSpeed "
               "ZeRO-Offload)") if t.method == "full" else
            tr("Offload the sharded model weights to CPU RAM (FSDP CPU offload)"),
            tr("costs time: steps are about {f}× slower; DeepSpeed's CPU AdamW keeps 32-bit optimizer states in "
               "RAM (no 8-bit optimizer); needs {ram} of RAM in all", f=f"{f:.1f}", ram=fmt_gib(c.est.ram_bytes))
            if t.method == "full" else
            tr("costs time: steps are about {f}× slower; needs {ram} of RAM in all",
               f=f"{f:.1f}", ram=fmt_gib(c.est.ram_bytes)),
            offload_settings(t))


def _replaced_by_offload(t: TrainSpec) -> tuple[str, ...]:
    """ZeRO-Offload's CPU AdamW takes the place of the 8-bit optimizer and of pure BF16 (a full fine-tune's
    offload keeps FP32 master weights and 32-bit states in RAM)."""
    return ("optimizer_8bit", "pure_bf16") if t.method == "full" else ()


RUNGS: tuple[Rung, ...] = (
    Rung("mixed_precision", "nothing", _cand_precision, _desc_precision),
    Rung("fused_loss", "nothing", _cand_fused_loss, _desc_fused_loss),  # Liger: the logits never kept
    Rung("shorter_sequences", "nothing", _cand_short_free, _desc_short, only_if_it_fits=True, loses_for=_loses_short),
    Rung("ddp_bucket_view", "nothing", _cand_bucket_view, _desc_bucket_view),
    # other software, after the free settings of the job's own stack: Unsloth's kernels, checkpoints in CPU RAM
    Rung("unsloth", "nothing", _cand_unsloth, _desc_unsloth, replaces=_replaced_by_unsloth),
    Rung("sharding", "time", _cand_sharding, _desc_sharding, replaces=_replaced_by_sharding),
    Rung("micro_batch", "time", _cand_micro_batch, _desc_micro_batch),
    Rung("cache_embeddings", "quality", _cand_cache, _desc_cache),  # faster; loses augmentation/TE training
    Rung("grad_checkpointing", "time", _cand_checkpointing, _desc_checkpointing),
    Rung("optimizer_8bit", "quality", _cand_8bit, _desc_8bit, only_if_it_fits=_8bit_only_if_it_fits),
    Rung("pure_bf16", "quality", _cand_pure_bf16, _desc_pure_bf16, replaces=_replaced_by_pure_bf16),
    Rung("cpu_offload", "time", _cand_offload, _desc_offload, replaces=_replaced_by_offload),
)
# On a CPU the system RAM holds the whole job, weights to activations: the rungs that shrink what a step keeps there
# (a smaller micro-batch with accumulation, the frozen encoders' outputs cached, recomputed activations)
CPU_RUNGS: tuple[Rung, ...] = tuple(r for r in RUNGS if r.id in ("micro_batch", "cache_embeddings", "grad_checkpointing"))
# Changes to the data (a sequence limit that cuts the user's long samples, a lower resolution) change what is
# learned: they are what fits instead (`data_alternatives`), never rungs.
DATA_CHANGES: tuple[Rung, ...] = (
    Rung("shorter_sequences", "data", _cand_short_cut, _desc_short, only_if_it_fits=True, loses_for=_loses_short),
    Rung("smaller_images", "data", _cand_resolution, _desc_resolution, only_if_it_fits=True),
)


def run_ladder(workload: Workload, train: TrainSpec, facts: GpuFacts, estimate_fn: EstimateFn) -> LadderResult:
    """Climb `RUNGS` until the job fits with room. Every rung keeps what is trained, so the result is
    the same job."""
    tweaks: list[Tweak] = []
    settings: dict[str, Any] = {}
    train, forced = required_fixes(train, facts)
    est = estimate_fn(workload, train)
    for tid, title, cost, s in forced:
        settings.update(s)
        tweaks.append(Tweak(id=tid, title=title, cost=cost, settings=dict(s), peak_vram_bytes=est.peak_vram_bytes,
                            total_hours=est.total_hours, fits=runs(est)))
    smallest = est.peak_vram_bytes
    if runs(est) or est.verdict == "not_supported":
        return LadderResult(workload, train, est, tuple(tweaks), runs(est), smallest, settings)
    if facts.backend == "cpu":  # short of RAM: the same tricks a small GPU uses, on what a step keeps in RAM
        if est.limit != "ram":
            return LadderResult(workload, train, est, tuple(tweaks), False, smallest, settings)
        return _climb(workload, facts, train, est, estimate_fn, tweaks, settings, smallest, skip=(), rungs=CPU_RUNGS)
    if est.limit == "ram" and facts.backend != "metal":
        # the GPU holds the job; only system RAM is short, and no GPU-memory tweak frees RAM (on a Mac,
        # where the GPU's memory is the RAM, the ladder does help). RAM has its own fix (advise.host).
        return LadderResult(workload, train, est, tuple(tweaks), False, smallest, settings)
    res = _climb(workload, facts, train, est, estimate_fn, tweaks, settings, smallest, skip=())
    sharding = next(i for i, r in enumerate(RUNGS) if r.id == "sharding")
    if not res.fits and any(t.id == "sharding" for t in res.tweaks):
        # sharding lowers the memory at once but can leave the later steps (CPU offload) with more to hold than
        # they would have without it: the GPUs can also each hold a replica, so the plan is never worse than
        # the one on fewer GPUs
        alt = _climb(workload, facts, train, est, estimate_fn, tweaks, settings, smallest, skip=(sharding,))
        if alt.fits or (alt.tight and not res.tight):
            res = alt
    free_cut = [i for i, r in enumerate(RUNGS) if r.only_if_it_fits and r.loses == "nothing"]
    if res.fits and res.estimate.total_hours is not None and any(
            t.id == RUNGS[i].id and t.loses != "data" for i in free_cut for t in res.tweaks):
        # a sequence limit "loses nothing" in quality, but with packed rows it means more steps, each paying
        # the step's fixed costs (sharded weights crossing the link, offload): keep it only when it is faster
        alt = _climb(workload, facts, train, est, estimate_fn, tweaks, settings, smallest, skip=tuple(free_cut))
        if (alt.fits and alt.estimate.total_hours is not None and alt.estimate.total_hours < res.estimate.total_hours
                and worst_loss(alt.tweaks) <= worst_loss(res.tweaks)):
            return alt
    return res


def worst_loss(tweaks: tuple[Tweak, ...]) -> int:
    """How much a plan gives up: the worst `loses` of its tweaks, in LOSSES order."""
    return max((LOSSES.index(t.loses) for t in tweaks if t.loses in LOSSES), default=0)


def _changes(before: TrainSpec, after: TrainSpec) -> dict[str, Any]:
    """The TrainSpec fields a step changed."""
    return {f.name: getattr(after, f.name) for f in dataclasses.fields(TrainSpec)
            if getattr(after, f.name) != getattr(before, f.name)}


def _climb(workload: Workload, facts: GpuFacts, train: TrainSpec, est: Estimate, estimate_fn: EstimateFn,
           tweaks: list[Tweak], settings: dict[str, Any], smallest: int, skip: tuple[int, ...],
           rungs: tuple[Rung, ...] | None = None) -> LadderResult:
    """Climb `RUNGS` (but those at the indexes in `skip`) from `train` until the job fits with room, then
    drop every step the plan does not need (`_minimal`)."""
    forced, start = len(tweaks), train
    tweaks, settings = list(tweaks), dict(settings)
    deltas: list[dict[str, Any]] = [{} for _ in tweaks]  # per tweak: the TrainSpec fields it changed
    c = Climb(workload, facts, train, est, train.batch * train.grad_accum)
    for i, rung in enumerate(RUNGS if rungs is None else rungs):
        tried = None if i in skip else _try_rung(rung, c, estimate_fn)
        if tried is None:
            continue
        c.prev_hours = c.est.total_hours
        before = c.train
        c.train, c.est = tried
        smallest = min(smallest, c.est.peak_vram_bytes)
        title, cost, s = rung.describe(c, c.train)
        undone = rung.replaces(c.train)
        delta: dict[str, Any] = {}
        if any(t.id in undone for t in tweaks):  # the plan drops them: their settings no longer apply
            for t, d in zip(tweaks, deltas, strict=True):
                delta.update(d if t.id in undone else {})  # … but their changes to the job are this step's now
            deltas = [d for t, d in zip(tweaks, deltas, strict=True) if t.id not in undone]
            tweaks = [t for t in tweaks if t.id not in undone]
            settings = {k: v for t in tweaks for k, v in t.settings.items()}
        settings.update(s)
        tweaks.append(Tweak(id=rung.id, title=title, cost=cost, settings=dict(s),
                            peak_vram_bytes=c.est.peak_vram_bytes, total_hours=c.est.total_hours,
                            fits=runs(c.est), loses=rung.loses_for(c, c.train) if rung.loses_for else rung.loses))
        deltas.append({**delta, **_changes(before, c.train)})
        if runs(c.est):
            break
    res = LadderResult(workload, c.train, c.est, tuple(tweaks), runs(c.est), smallest, settings)
    return _minimal(res, start, deltas, forced, estimate_fn) if res.fits else res


def _minimal(res: LadderResult, start: TrainSpec, deltas: list[dict[str, Any]], forced: int,
             estimate_fn: EstimateFn) -> LadderResult:
    """The plan without each step it does not need: a step goes when the others alone still fit with room
    and are no slower (Whisper on a 6 GB card: 8-bit AdamW alone fits; micro-batch 1 × 16 on top only
    costs time). The first `forced` tweaks are the GPU's required fixes and stay."""
    tweaks, est, train = list(res.tweaks), res.estimate, res.train
    i = forced
    while i < len(tweaks) and len(tweaks) > forced + 1:
        rest = [d for j, d in enumerate(deltas) if j != i]
        t = start
        for d in rest:
            t = dataclasses.replace(t, **d)
        e = estimate_fn(res.workload, t)
        slower = est.total_hours is not None and (e.total_hours is None or e.total_hours > est.total_hours)
        if t != train and runs(e) and not slower:
            del tweaks[i], deltas[i]
            est, train = e, t
            continue
        i += 1
    if len(tweaks) == len(res.tweaks):
        return res
    # the figures after each remaining step, cumulatively
    out, t = [], start
    for k, (tw, d) in enumerate(zip(tweaks, deltas, strict=True)):
        t = dataclasses.replace(t, **d)
        e = est if k == len(tweaks) - 1 else estimate_fn(res.workload, t)
        out.append(dataclasses.replace(tw, peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours,
                                       fits=runs(e)))
    settings = {k: v for tw in out for k, v in tw.settings.items()}
    return dataclasses.replace(res, train=train, estimate=est, tweaks=tuple(out), settings=settings)


def data_alternatives(workload: Workload, res: LadderResult, facts: GpuFacts,
                      estimate_fn: EstimateFn) -> list[LadderResult]:
    """What fits instead by changing the data: the ladder's plan at a sequence limit that cuts the user's
    long samples, or at a lower resolution. Each changes what is learned, so it is an alternative, never a
    tweak; the first that fits (or at least may fit) is returned, its first tweak naming the change."""
    c = Climb(workload, facts, res.train, res.estimate, res.train.batch * res.train.grad_accum)
    for rung in DATA_CHANGES:
        tried = _try_rung(rung, c, estimate_fn)
        if tried is None:
            continue
        t, e = tried
        c2 = Climb(workload, facts, t, e, c.effective_batch, prev_hours=res.estimate.total_hours)
        title, cost, s = rung.describe(c2, t)
        first = Tweak(id=rung.id, title=title, cost=cost, settings=dict(s), peak_vram_bytes=e.peak_vram_bytes,
                      total_hours=e.total_hours, fits=runs(e), kind="method",
                      loses=rung.loses_for(c2, t) if rung.loses_for else rung.loses)
        return [LadderResult(workload, t, e, (first,) + res.tweaks, runs(e), e.peak_vram_bytes,
                             {**res.settings, **s})]
    return []


# -- what fits instead -----------------------------------------------------------------------------


def _qlora_figures() -> dict[str, str]:
    """QLoRA's trade-off as quoted to the user, from resources/factors.toml [qlora] (measurements in its source):
    16-bit weights over NF4's bits per parameter; litgpt's measured time of QLoRA over plain LoRA."""
    q = load_factors()["qlora"]
    return {"m": f"{16.0 / q['bits_per_quantized_param']:.0f}", "lo": f"{q['time_factor_low']:.2f}",
            "hi": f"{q['time_factor_high']:.2f}"}


def method_alternatives(workload: Workload, train: TrainSpec, facts: GpuFacts,
                        estimate_fn: EstimateFn) -> list[LadderResult]:
    """Other training methods for the same model, each with its own ladder: LoRA and QLoRA for a full
    fine-tune, QLoRA for LoRA (and LoRA in 16-bit for QLoRA where 4-bit kernels are missing). Only
    pretrained models (adapters need pretrained weights). Each result's first tweak names the method."""
    m = workload.model
    if train.from_scratch or m.arch not in LORA_ARCHS or facts.backend == "cpu":
        return []
    rank = int(factor("tweaks", "lora_rank"))
    options: list[tuple[str, TrainSpec, str, str, dict[str, Any]]] = []
    lora = dataclasses.replace(train, method="lora", lora_rank=train.lora_rank if train.method != "full" else rank,
                               optimizer="adamw" if train.optimizer == "adamw-8bit" else train.optimizer)
    qlora = dataclasses.replace(lora, method="qlora")
    dreambooth = m.arch == "unet" and train.method == "full"
    if train.method == "full":
        options.append(("lora", lora,
                        tr("DreamBooth with LoRA (rank {r}) instead of all U-Net weights", r=rank) if dreambooth else
                        tr("Fine-tune with LoRA (rank {r}) instead of all weights", r=rank),
                        tr("a different method: trains small adapter matrices only; far less memory, quality is "
                           "close to a full fine-tune for most tasks"), {"lora_r": rank}))
    if train.method == "qlora" and not bitsandbytes_ok(facts):
        options.append(("lora", lora, tr("Use LoRA on a 16-bit model instead of QLoRA"),
                        tr("a different method: 4-bit loading is not available on this GPU; the frozen model "
                           "takes about {m}× more memory", **_qlora_figures()),
                        {"lora_r": lora.lora_rank, "load_in_4bit": False}))
    if train.method in ("full", "lora") and m.arch == "transformer" and bitsandbytes_ok(facts):
        # the step-time ratio the estimate itself gives (not a quoted range the figures shown may not match)
        e_l, e_q = estimate_fn(workload, lora), estimate_fn(workload, qlora)
        ratio = (e_q.step_seconds / e_l.step_seconds) if e_q.step_seconds and e_l.step_seconds else None
        cost = tr("a different method: about {m}× less memory for the model; steps take about {r}× as long as with "
                  "LoRA here (dequantizing the weights), slightly lower quality", m=_qlora_figures()["m"],
                  r=f"{ratio:.2f}") if ratio else \
            tr("a different method: about {m}× less memory for the model; steps take longer than with LoRA "
               "(dequantizing the weights), slightly lower quality", m=_qlora_figures()["m"])
        if m.model_type in factor("qlora_caution", "model_types"):  # its trainers advise against 4-bit
            cost += tr("; this model's trainers advise against 4-bit: its quantization error is larger than usual")
        options.append(("qlora", qlora, tr("Use QLoRA: load the frozen model in 4-bit (NF4)"), cost,
                        {"load_in_4bit": True, "lora_r": qlora.lora_rank}))
    out = []
    for tid, t, title, cost, s in options:
        sub = run_ladder(workload, t, facts, estimate_fn)
        first = Tweak(id=tid, title=title, cost=cost, settings=s, peak_vram_bytes=sub.estimate.peak_vram_bytes,
                      total_hours=sub.estimate.total_hours, fits=sub.fits, kind="method", loses="method")
        out.append(dataclasses.replace(sub, tweaks=(first,) + sub.tweaks, settings={**s, **sub.settings}))
        if sub.fits:
            break  # the least change that fits; QLoRA only when LoRA does not
    return out


def speed_up(res: LadderResult, facts: GpuFacts, estimate_fn: EstimateFn, limit_hours: float) -> LadderResult:
    """A job that fits but is too slow in FP32: mixed precision is the one free speed-up worth trying."""
    est = res.estimate
    if (not res.fits or est.total_hours is None or est.total_hours <= limit_hours
            or res.train.precision != "fp32" or facts.backend not in ("cuda", "rocm", "metal") or facts.fp16_nan):
        return res
    precision = "bf16" if bf16_ok(facts) else "fp16"
    train = dataclasses.replace(res.train, precision=precision)
    e = estimate_fn(res.workload, train)
    if (not runs(e) or e.total_hours is None
            or e.total_hours >= est.total_hours * float(factor("speed_tweaks", "mixed_precision_time_factor_required"))):
        return res
    title, cost, settings = _mixed_precision_text(precision)
    tweak = Tweak(id="mixed_precision", title=title, cost=cost, settings=settings, peak_vram_bytes=e.peak_vram_bytes,
                  total_hours=e.total_hours, fits=True)
    return dataclasses.replace(res, train=train, estimate=e, tweaks=res.tweaks + (tweak,),
                               settings={**res.settings, **tweak.settings})


def speed_tweaks(res: LadderResult, facts: GpuFacts, estimate_fn: EstimateFn) -> tuple[Tweak, ...]:
    """Optional speed-ups for a job that runs but whose steps are bound by per-step overhead (CPU kernel
    dispatch, fixed costs): the GPU idles, so a faster GPU would not help either. Each tweak is applied
    alone on top of the advised configuration and re-estimated (so it is offered only when it still fits
    and is at least 20% faster). Kinds: sequence packing (text models whose samples are shorter than the
    maximum length), a larger micro-batch with less gradient accumulation, and fused AdamW in place of Adafactor's
    per-tensor loop."""
    est = res.estimate
    if (not res.fits or est.total_hours is None or est.bottleneck != "overhead"
            or facts.backend == "cpu"):
        return ()
    gain = float(factor("speed_tweaks", "time_factor_required"))
    w, t = res.workload, res.train
    out: list[Tweak] = []
    avg = w.data.avg_seq_len
    flash_ok = facts.backend in tuple(factor("speed_tweaks", "packing_backends")) and (
        facts.compute_capability is None
        or facts.compute_capability >= float(factor("speed_tweaks", "packing_min_compute_capability")))
    if w.model.arch == "transformer" and flash_ok and avg and t.seq_len and avg * 2 <= t.seq_len \
            and not t.packing:  # a packed job (the default for short samples) is already full
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
    return tuple(out) + _fused_adamw_tweak(res, facts, estimate_fn, gain)


def _fused_adamw_tweak(res: LadderResult, facts: GpuFacts, estimate_fn: EstimateFn, gain: float) -> tuple[Tweak, ...]:
    """Adafactor's step launches 24 operators for every trained tensor, one tensor at a time (estimate/adafactor.py);
    on LoRA's hundreds of small adapters the CPU's launches set the pace. A fused AdamW step (the Trainer's
    adamw_torch_fused; CUDA and ROCm builds of PyTorch) is one kernel, at the price of AdamW's state."""
    t, est = res.train, res.estimate
    if t.optimizer != "adafactor" or facts.backend not in ("cuda", "rocm") or est.total_hours is None:
        return ()
    e = estimate_fn(res.workload, dataclasses.replace(t, optimizer="adamw"))
    if not runs(e) or e.total_hours is None or e.total_hours > est.total_hours * gain:
        return ()
    kohya = res.workload.model.arch == "unet"  # the U-Net jobs' recipes are kohya's and diffusers' scripts
    return (Tweak(
        id="fused_adamw", kind="speed", title=tr("Step with fused AdamW instead of Adafactor"),
        cost=tr("uses more GPU memory ({gib} in all): AdamW keeps two values for every trained parameter, Adafactor "
                "almost none; the time it saves is Adafactor's step, 24 GPU operations per tensor launched one tensor "
                "at a time, which the CPU cannot issue as fast as the GPU runs them", gib=fmt_gib(e.peak_vram_bytes)),
        settings={"optimizer_type": "AdamW"} if kohya else {"optim": "adamw_torch_fused"},
        peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours, fits=True),)


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
                          cost=tr("a different model: a smaller model is less capable, but it fits this GPU"),
                          settings={"workload": small.id, "model": small.model.name or small.id},
                          peak_vram_bytes=sub.estimate.peak_vram_bytes, total_hours=sub.estimate.total_hours,
                          fits=True, kind="method", loses="model")
            return dataclasses.replace(sub, tweaks=(first,) + sub.tweaks,
                                       settings={**first.settings, **sub.settings})
        name = small.smaller_model
    return None
