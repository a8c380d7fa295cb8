"""The same job on another GPU: the fewest GPUs of a catalog card, bought or rented, that run the job without
changing what is trained.

Pure. The estimator is injected as `estimate_for(spec, gpus) -> EstimateFn`, so a GPU from the catalog
(bought or rented) is estimated exactly like the user's own.

A GPU to buy or rent must run the same job: only "same-job" tweaks are allowed there (precision,
micro-batch, checkpointing, 8-bit optimizer, sharding, offload — never LoRA/QLoRA or a smaller model).
Several GPUs: the ladder sizes memory per GPU for the sharding a user would actually turn on —
DeepSpeed ZeRO-1 (optimizer state sharded), ZeRO-2 (+ gradients), ZeRO-3 / FSDP full shard
(+ weights) — choosing the fewest GPUs, then the lowest stage (least communication), that fits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from gpucheck.advise.gpu_support import GpuFacts
from gpucheck.advise.ladder import run_ladder
from gpucheck.advise.model import TWEAK_IDS
from gpucheck.advise.rungs import EstimateFn
from gpucheck.records import Estimate, GpuSpec, TrainSpec, Workload

# Tweaks that keep the job the same job (a cloud GPU or a bigger card should not change the method).
SAME_JOB_TWEAKS = TWEAK_IDS  # every ladder rung keeps the method (advise.ladder); LoRA/QLoRA are alternatives

EstimateFor = Callable[[GpuSpec, int], EstimateFn]
FindGpu = Callable[[str], GpuSpec]
FactsFor = Callable[[GpuSpec, int], GpuFacts]


@dataclasses.dataclass(frozen=True)
class Fit:
    spec: GpuSpec
    gpus: int
    stage: str | None
    estimate: Estimate
    tweaks: tuple[str, ...]
    train: TrainSpec


def _stage_of(settings: dict) -> str | None:
    zs = settings.get("zero_stage")
    if zs is None:
        return None
    if settings.get("offload"):
        return "zero3_offload" if zs == 3 else "zero2_offload"
    return f"zero{zs}"


def fit_on(workload: Workload, train: TrainSpec, spec: GpuSpec, counts: tuple[int, ...], facts_for: FactsFor,
           estimate_for: EstimateFor, practical_hours: float | None = None) -> Fit | None:
    """The fewest GPUs of `spec` (from `counts`) that run this job without changing what is trained —
    and, when some count finishes within `practical_hours`, the fewest that does."""
    first: Fit | None = None
    for n in sorted(counts):
        res = run_ladder(workload, train, facts_for(spec, n), estimate_for(spec, n))
        if not (res.fits and all(t.id in SAME_JOB_TWEAKS for t in res.tweaks)):
            continue
        fit = Fit(spec, n, _stage_of(res.settings), res.estimate, tuple(t.id for t in res.tweaks), res.train)
        first = first or fit
        hours = res.estimate.total_hours
        if practical_hours is None or (hours is not None and hours <= practical_hours):
            return fit
    return first
