"""The speed-up for a job that runs on TRL's chunked loss: a loss that does not copy the output layer.

TRL's SFTTrainer computes its default loss since TRL 1.7 (`loss_type="chunked_nll"`) 256 tokens at a time, and every
chunk copies the output layer to fp32 and back to 16 bits, once in forward and once more when backward reruns the chunk
(gpucheck/estimate/logits.py trl_chunk_traffic): on a small model with a large vocabulary that is a good share of the
step. Where the job fits either way and the run is at least a fifth shorter ([speed_tweaks] time_factor_required), the
advice offers Liger Kernel's fused loss where it runs (less memory and no copies), else TRL's plain loss
(`loss_type="nll"`, more memory: the logits of the whole batch).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gpucheck.advise import fused_loss
from gpucheck.advise.data import factor
from gpucheck.advise.gpu_support import GpuFacts
from gpucheck.advise.model import Tweak
from gpucheck.advise.rungs import runs
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import runs_trl_chunked
from gpucheck.i18n import fmt_gib, fmt_number, tr
from gpucheck.records import Estimate, TrainSpec, Workload


def loss_speed_tweak(workload: Workload, train: TrainSpec, est: Estimate, facts: GpuFacts,
                     estimate_fn: Callable[[Workload, TrainSpec], Estimate]) -> Tweak | None:
    """Liger's fused loss, or TRL's plain one, for a job whose plan keeps TRL's chunked loss, where it still runs and
    takes at least a fifth less time; None otherwise."""
    if est.total_hours is None or not runs_trl_chunked(train, load_factors()):
        return None
    settings: dict[str, Any]
    if fused_loss.offered(workload, train, facts.backend, facts.compute_capability):
        t = fused_loss.with_fused_loss(train)
        title, cost, settings = fused_loss.describe(workload, t)
    else:
        t = dataclasses.replace(train, cross_entropy="full")
        title, cost, settings = tr("Use TRL's plain cross-entropy loss"), "", {"loss_type": "nll"}
    e = estimate_fn(workload, t)
    if not runs(e) or e.total_hours is None \
            or e.total_hours > est.total_hours * float(factor("speed_tweaks", "time_factor_required")):
        return None
    if not cost:
        cost = tr("uses more GPU memory ({gib} in all): the scores over all {vocab} tokens of the vocabulary are kept "
                  "for the whole batch, where TRL's default chunked loss copies the output layer for every 256 tokens, "
                  "which takes longer", gib=fmt_gib(e.peak_vram_bytes), vocab=fmt_number(float(workload.model.vocab or 0)))
    return Tweak(id="fast_loss", kind="speed", title=title, cost=cost, settings=settings,
                 peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours, fits=True)
