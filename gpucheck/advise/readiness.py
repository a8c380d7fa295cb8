"""How ready a machine's GPU is for training, judged by what it can train.

The built-in job ladder is estimated on the machine's own GPU and each job gets the advice's tweak
ladder (mixed precision, smaller micro-batches, checkpointing, LoRA/QLoRA …); a job counts when it then
fits and finishes in practical time. The GPU is "good" when it runs at least `[readiness] good_min_share`
of the ladder (resources/advice.toml), else "limited". Host limits (disk, CPU, battery) are left out:
they have cards of their own. Pure; no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gpucheck import estimate as est_mod
from gpucheck.advise import facts_for_target, ladder
from gpucheck.advise.data import factor
from gpucheck.catalog import load_workloads
from gpucheck.i18n import get_language, localized, tr
from gpucheck.machine import Machine
from gpucheck.records import Workload


@dataclass(frozen=True)
class Readiness:
    status: str  # good | limited
    runs: int  # built-in jobs the GPU trains (as they are or with the advised changes)
    total: int
    first_not_running: Workload | None  # the easiest built-in job it cannot train (lowest level)
    message: str  # one sentence for the GPU card


def _gpu_runs(workload: Workload, target, facts: ladder.GpuFacts) -> bool:
    base = est_mod.estimate(workload, target)

    def estimate_fn(w: Workload, t):
        return est_mod.estimate(w, target, t)

    limit = float(base.too_slow_hours or est_mod.too_slow_hours())
    result = ladder.speed_up(ladder.run_ladder(workload, base.train, facts, estimate_fn), facts, estimate_fn,
                             limit)
    hours = result.estimate.total_hours
    return result.fits and result.estimate.verdict != "not_supported" and (hours is None or hours <= limit)


def gpu_readiness(machine: Machine) -> Readiness | None:
    """The GPU card's status from what the GPU can train; None when the machine has no GPU for training."""
    return _cached(machine, get_language())


@lru_cache(maxsize=8)
def _cached(machine: Machine, _lang: str) -> Readiness | None:
    if not machine.compute_gpus():
        return None
    target = est_mod.Target.from_machine(machine)
    if target.backend == "cpu":
        return None
    workloads = sorted(load_workloads(), key=lambda w: w.level)
    facts = facts_for_target(target, machine)  # the same GPU for every job
    ran = [_gpu_runs(w, target, facts) for w in workloads]
    runs, total = sum(ran), len(workloads)
    first = next((w for w, ok in zip(workloads, ran, strict=True) if not ok), None)
    good = total > 0 and runs / total >= float(factor("readiness", "good_min_share"))
    if first is None:
        msg = tr("Can train all {total} built-in jobs (some with the advised settings).", total=total)
    else:
        msg = tr("Can train {runs} of the {total} built-in jobs (some with the advised settings); the easiest "
                 "it cannot is “{job}”.", runs=runs, total=total, job=localized(first, "title"))
    return Readiness("good" if good else "limited", runs, total, first, msg)


__all__ = ["Readiness", "gpu_readiness"]
