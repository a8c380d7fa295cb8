"""The parts of the tweak ladder (advise/ladder.py): what a climb returns (`LadderResult`), the state it
carries from rung to rung (`Climb`), a rung (`Rung`) and the trial of one against the estimate (`_try_rung`),
and the rungs other than DeepSpeed's — for each, the configurations it tries in order (`_cand_*`) and how the
chosen one is shown: title, cost and settings (`_desc_*`). The table of rungs (`RUNGS`) and the DeepSpeed
rungs (sharding over several GPUs, CPU offload) are in advise/ladder.py.

Pure. The estimator is injected as `estimate_fn(workload, train) -> Estimate` (`EstimateFn`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpucheck.advise import fused_loss, unsloth
from gpucheck.advise.data import factor
from gpucheck.advise.gpu_support import GpuFacts, bf16_ok, bitsandbytes_ok
from gpucheck.advise.model import Tweak
from gpucheck.i18n import tr
from gpucheck.records import Estimate, TrainSpec, Workload

EstimateFn = Callable[[Workload, TrainSpec], Estimate]


@dataclass(frozen=True)
class LadderResult:
    workload: Workload  # the workload finally used (a smaller model after "smaller_model")
    train: TrainSpec
    estimate: Estimate  # for `train`
    tweaks: tuple[Tweak, ...]
    fits: bool  # fits with room (memory_fit "fits") and is supported
    smallest_peak_vram_bytes: int  # the least VRAM any step reached (what "needs X GB" reports)
    settings: dict[str, Any]

    @property
    def tight(self) -> bool:
        """Does not fit with room, but inside the estimate's error band: may fit."""
        e = self.estimate
        return e.verdict != "not_supported" and e.memory_fit == "tight" and (not self.fits or e.ram_fit == "tight")


def _precision_settings(precision: str) -> dict[str, Any]:
    if precision in ("bf16", "bf16-pure"):
        return {"bf16": True}
    if precision == "fp16":
        return {"fp16": True}
    return {}


def runs(est: Estimate) -> bool:
    """GPU memory fits with room, system RAM is not short of what is installed (RAM that is merely busy
    at scan time is not a GPU-memory problem: no rung frees it), and the backend supports it. On a CPU the RAM
    holds the whole job, as a GPU's memory does: it must fit in what is installed (more than is free now is tight:
    closing programs frees it, at no cost to the training)."""
    if est.backend == "cpu":
        return est.ram_fit != "does_not_fit" and est.verdict != "not_supported"
    return est.vram_fit == "fits" and est.ram_fit != "does_not_fit" and est.verdict != "not_supported"


@dataclass
class Climb:
    """The state the loop carries from rung to rung."""

    workload: Workload
    facts: GpuFacts
    train: TrainSpec
    est: Estimate
    effective_batch: int
    prev_hours: float | None = None  # the run's time before the rung being described


@dataclass(frozen=True)
class Rung:
    id: str
    loses: str  # one of LOSSES
    candidates: Callable[[Climb], list[TrainSpec]]  # tried in order; the first that fits wins
    describe: Callable[[Climb, TrainSpec], tuple[str, str, dict[str, Any]]]  # title, cost, settings
    only_if_it_fits: bool | Callable[[Climb], bool] = False  # worth it only when it changes the answer
    loses_for: Callable[[Climb, TrainSpec], str] | None = None  # what the chosen candidate loses, when it
    #                                                             can lose less than the rung's `loses`
    replaces: Callable[[TrainSpec], tuple[str, ...]] = lambda t: ()  # earlier tweaks the chosen candidate undoes


def _text_model(c: Climb) -> bool:
    return c.workload.model.arch == "transformer" and c.workload.family in ("llm", "nlp") and bool(c.train.seq_len)


def _seq_steps(c: Climb) -> list[int]:
    return [n for n in sorted((int(x) for x in factor("tweaks", "max_seq_len_steps")), reverse=True)
            if n < (c.train.seq_len or 0)]


def _cand_precision(c: Climb) -> list[TrainSpec]:
    if c.train.precision != "fp32" or c.facts.backend == "cpu" or c.facts.fp16_nan:
        return []
    return [dataclasses.replace(c.train, precision="bf16" if bf16_ok(c.facts) else "fp16")]


def _desc_precision(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return _mixed_precision_text(t.precision)


def _mixed_precision_text(precision: str) -> tuple[str, str, dict[str, Any]]:
    """Title, cost and settings of switching to `precision` mixed precision (the rung and `speed_up`)."""
    return (tr("Use {p} mixed precision", p=precision.upper()),
            tr("loses nothing: tensor cores make it faster, and the model keeps FP32 master weights"),
            _precision_settings(precision))


def _cand_fused_loss(c: Climb) -> list[TrainSpec]:
    """Liger's fused loss where it runs, else TRL's chunked loss where the recipe is TRL's (advise/fused_loss.py)."""
    f = c.facts
    if fused_loss.offered(c.workload, c.train, f.backend, f.compute_capability):
        return [fused_loss.with_fused_loss(c.train)]
    return [fused_loss.with_trl_chunked_loss(c.train)] if fused_loss.trl_offered(c.workload, c.train) else []


def _desc_fused_loss(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return fused_loss.describe(c.workload, t)


def _cand_unsloth(c: Climb) -> list[TrainSpec]:
    f = c.facts
    return [unsloth.with_unsloth(c.train)] if unsloth.offered(c.workload, c.train, f.backend,
                                                               f.compute_capability) else []


def _desc_unsloth(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return unsloth.describe(c.workload, t)


def _replaced_by_unsloth(t: TrainSpec) -> tuple[str, ...]:
    """Unsloth computes its loss without the logits itself: Liger's fused loss is not needed beside it."""
    return ("fused_loss",)


def _cand_bucket_view(c: Climb) -> list[TrainSpec]:
    """Several GPUs with a full replica each (DDP): DDP's own flag gradient_as_bucket_view=True makes the gradients
    views into its communication buckets instead of a second copy (resources/factors.toml [ddp])."""
    t = c.train
    if c.facts.gpus <= 1 or c.facts.backend not in ("cuda", "rocm") or not t.ddp_bucket_copy or t.zero_stage \
            or t.shard or t.cpu_offload:
        return []
    return [dataclasses.replace(t, ddp_bucket_copy=False)]


def _desc_bucket_view(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return (tr("Let DDP keep the gradients in its communication buckets (gradient_as_bucket_view=True)"),
            tr("loses nothing: PyTorch DDP otherwise keeps a second copy of every gradient on each GPU "
               "(with Accelerate: DistributedDataParallelKwargs(gradient_as_bucket_view=True))"),
            {"gradient_as_bucket_view": True})


def _cand_short_free(c: Climb) -> list[TrainSpec]:
    avg = c.workload.data.avg_seq_len
    if not _text_model(c) or not avg:
        return []
    return [dataclasses.replace(c.train, seq_len=n) for n in _seq_steps(c) if n >= 2 * avg]


def _desc_short(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    avg = c.workload.data.avg_seq_len
    n = t.seq_len
    now, before = c.est.total_hours, c.prev_hours
    if avg and n and n >= 2 * avg and t.packing and now and before and now >= 1.2 * before:
        # packed rows: a shorter row holds fewer samples, so there are more steps, each with its fixed costs
        return (tr("Limit the sequence length to {n} tokens", n=n),
                tr("cuts almost no data (this data set averages about {avg} tokens), but packed rows of {n} tokens "
                   "hold fewer samples: more steps, about {x}× the time here", n=n, avg=avg, x=f"{now / before:.1f}"),
                {"max_seq_length": n})
    if avg and n and n >= 2 * avg:  # the rung that loses (almost) nothing: say so, as its place in the order does
        return (tr("Limit the sequence length to {n} tokens", n=n),
                tr("loses almost nothing: this data set averages about {avg} tokens, so only the rare sample "
                   "longer than {n} tokens is cut off (or split)", n=n, avg=avg), {"max_seq_length": n})
    cost = (tr("loses data: samples longer than {n} tokens are cut off (or split); little is lost when most of "
               "the data is shorter: this data set averages about {avg} tokens", n=n, avg=avg) if avg else
            tr("loses data: samples longer than {n} tokens are cut off (or split); check how long your samples "
               "are: little is lost when most of them are shorter", n=n))
    return tr("Limit the sequence length to {n} tokens", n=n), cost, {"max_seq_length": n}


def _loses_short(c: Climb, t: TrainSpec) -> str:
    """A limit at twice the data's mean length or more cuts only the rare long sample: it loses nothing."""
    avg = c.workload.data.avg_seq_len
    if not (avg and t.seq_len and t.seq_len >= 2 * avg):
        return "data"
    now, before = c.est.total_hours, c.prev_hours
    return "time" if t.packing and now and before and now >= 1.2 * before else "nothing"  # packed: more steps


def _cand_micro_batch(c: Climb) -> list[TrainSpec]:
    out, b = [], c.train.batch
    while b > 1:
        b = max(1, b // 2)
        out.append(dataclasses.replace(c.train, batch=b, grad_accum=max(1, c.effective_batch // b)))
    return out


def _desc_micro_batch(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    if "yolo" in (c.workload.model.name or c.workload.id).lower():
        # Ultralytics accumulates gradients up to its nominal batch (nbs=64) by itself (docs.ultralytics.com,
        # "Train → Train settings: nbs"): only `batch` changes; the effective batch stays 64
        return (tr("Batch {b} (Ultralytics accumulates gradients to its nominal batch of 64 by itself)", b=t.batch),
                tr("costs a little time, and BatchNorm layers now see {b} images at a time: their statistics are "
                   "noisier, so results can differ", b=t.batch),
                {"batch": t.batch})
    if c.workload.model.arch == "cnn":
        cost = tr("costs a little time, and BatchNorm layers now see {b} samples at a time: their statistics "
                  "are noisier, so results can differ (GroupNorm or SyncBatchNorm avoid it)", b=t.batch)
    elif c.facts.backend == "cpu":
        cost = tr("the same training result; costs a little time because the processor does less work at a time")
    else:
        cost = tr("the same training result; costs a little time because the GPU does less work at a time")
    return (tr("Micro-batch {b} with gradient accumulation {k} (same effective batch {n})",
               b=t.batch, k=t.grad_accum, n=c.effective_batch), cost,
            {"per_device_train_batch_size": t.batch, "gradient_accumulation_steps": t.grad_accum})


def _cand_cache(c: Climb) -> list[TrainSpec]:
    m = c.workload.model
    if m.arch != "unet" or not m.aux_params or c.train.cache_embeddings or c.train.method == "full":
        return []  # DreamBooth (all U-Net weights): diffusers' train_dreambooth.py has no latent cache
    return [dataclasses.replace(c.train, cache_embeddings=True)]


def _desc_cache(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return (tr("Cache the latents and text embeddings before training (train the U-Net only)"),
            tr("the VAE and text encoders run once and leave the GPU, which also saves time; random crops "
               "and flips are then fixed per image, and the text encoder is not trained"),
            {"cache_latents": True, "cache_text_encoder_outputs": True, "network_train_unet_only": True})


def _cand_checkpointing(c: Climb) -> list[TrainSpec]:
    return [] if c.train.grad_checkpointing else [dataclasses.replace(c.train, grad_checkpointing=True)]


def _desc_checkpointing(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    pct = (float(factor("tweaks", "grad_checkpointing_time_factor")) - 1) * 100
    return (tr("Turn on gradient checkpointing"),
            tr("costs about {p}% more time: activations are recomputed in the backward pass", p=f"{pct:.0f}"),
            {"gradient_checkpointing": True})


def _cand_8bit(c: Climb) -> list[TrainSpec]:
    t = c.train
    if t.optimizer != "adamw" or not bitsandbytes_ok(c.facts) or c.facts.backend == "cpu" or t.cpu_offload:
        return []  # offloaded: DeepSpeed's CPU Adam steps the optimizer, not bitsandbytes
    return [dataclasses.replace(t, optimizer="adamw-8bit")]


def _8bit_only_if_it_fits(c: Climb) -> bool:
    """Adapters' optimizer state is usually tiny: 8-bit AdamW is offered for them only when it changes the
    answer (a 65B model's rank-64 adapters on every linear layer hold 6 GiB of AdamW state; QLoRA's paper
    trains them with a paged optimizer, Dettmers et al. 2023, arXiv 2305.14314 §2); kohya's SDXL LoRA
    recipes use AdamW8bit anyway."""
    return c.train.method != "full" and c.workload.model.arch != "unet"


def _desc_8bit(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return (tr("Use the paged 8-bit AdamW optimizer (bitsandbytes)"),
            tr("loses a little quality at most: optimizer memory falls from 8 to 2 bytes per parameter and "
               "results stay very close; paging moves memory spikes to the CPU"),
            {"optim": "paged_adamw_8bit"})


def _cand_pure_bf16(c: Climb) -> list[TrainSpec]:
    """A full fine-tune with bf16 weights and gradients and 8-bit AdamW: 2 + 2 + 2 bytes per parameter
    (no FP32 master copy), the common way to fully tune a 7-8B model on one 80 GB card."""
    t = c.train
    if (t.method != "full" or t.cpu_offload or t.precision not in ("bf16", "fp32") or not bf16_ok(c.facts)
            or t.optimizer not in ("adamw", "adamw-8bit")
            or c.facts.backend not in ("cuda", "rocm") or not bitsandbytes_ok(c.facts) or t.from_scratch):
        return []
    return [dataclasses.replace(t, precision="bf16-pure", optimizer="adamw-8bit")]


def _desc_pure_bf16(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return (tr("Keep the weights and gradients in BF16 (no FP32 master copy) with 8-bit AdamW: 2 + 2 + 2 bytes "
               "per parameter"),
            tr("loses a little quality unless the updates are summed carefully: pure BF16 training drops small "
               "weight updates to rounding; use stochastic rounding or Kahan summation (Zamirai et al. 2020, "
               "\"Revisiting BFloat16 Training\", arXiv 2010.06192; torchao's AdamW8bit with bf16_stochastic_round, "
               "or optimi's Kahan-summed AdamW)"),
            {"bf16": True, "optim": "adamw_bnb_8bit", "torch_dtype": "bfloat16"})


def _replaced_by_pure_bf16(t: TrainSpec) -> tuple[str, ...]:
    """The pure-BF16 step carries its own 8-bit AdamW."""
    return ("optimizer_8bit",)


def _cand_short_cut(c: Climb) -> list[TrainSpec]:
    return [dataclasses.replace(c.train, seq_len=n) for n in _seq_steps(c)] if _text_model(c) else []


def _cand_resolution(c: Climb) -> list[TrainSpec]:
    m, t = c.workload.model, c.train
    if m.arch != "unet" or not t.image_size:
        return []
    return [dataclasses.replace(t, image_size=n) for n in (768, 512) if n < t.image_size and n >= t.image_size // 2]


def _desc_resolution(c: Climb, t: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    return (tr("Train at {n}×{n} pixels", n=t.image_size),
            tr("loses detail: the model learns from smaller images, so fine detail at full resolution suffers"),
            {"resolution": t.image_size})


def _try_rung(rung: Rung, c: Climb, fn: EstimateFn) -> tuple[TrainSpec, Estimate] | None:
    """The rung's first candidate that fits; else its last, if that still lowers the memory."""
    last = None
    for t in rung.candidates(c):
        e = fn(c.workload, t)
        if runs(e) and not _negligible(rung, c, e):
            return t, e
        last = (t, e)
    if last is None or last[1].verdict == "not_supported" or _negligible(rung, c, last[1]):
        return None
    only = rung.only_if_it_fits(c) if callable(rung.only_if_it_fits) else rung.only_if_it_fits
    if only:
        # worth it only when it changes the answer (does not fit → may fit); a rung that loses nothing is
        # worth it whenever it lowers the memory (a tight job is then nearer to fitting)
        order = ("fits", "tight", "does_not_fit")
        improves = order.index(last[1].vram_fit) < order.index(c.est.vram_fit) or (
            rung.loses == "nothing" and c.est.vram_fit == "tight" and last[1].peak_vram_bytes < c.est.peak_vram_bytes)
        return last if improves else None
    if last[1].limit == "ram" and c.est.limit != "ram" and last[1].ram_bytes > c.est.ram_bytes:
        return None  # it would trade GPU memory for RAM this PC does not have (CPU offload); on a Mac, where
        #              the GPU's memory is the RAM, a step that lowers both is kept
    lower_vram = last[1].peak_vram_bytes < c.est.peak_vram_bytes
    lower_ram = c.est.limit == "ram" and last[1].ram_bytes < c.est.ram_bytes
    return last if lower_vram or lower_ram else None


def _negligible(rung: Rung, c: Climb, e: Estimate) -> bool:
    """A step that costs something (time, quality) but saves less memory than the estimate can resolve: it would
    turn 'may fit' into 'runs' on a difference smaller than the estimate's own error (advice.toml
    [tweaks] min_saving_fraction), so it is not offered (8-bit AdamW over a LoRA adapter's few million weights)."""
    if rung.loses == "nothing" or not c.est.vram_available_bytes:
        return False
    saved = c.est.peak_vram_bytes - e.peak_vram_bytes
    return saved < float(factor("tweaks", "min_saving_fraction")) * c.est.vram_available_bytes
