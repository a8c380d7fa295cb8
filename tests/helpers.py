"""What several test modules compute the same way (core only: no Qt here)."""

from __future__ import annotations

from pathlib import Path

from gpucheck.evidence import load_evidence


def estimate_and_advise(machine_path: str | Path, workload_id: str, lang: str = "en", **overrides):
    """(Estimate, Advice) that gpucheck gives for a recorded machine file and a job, in `lang` — what a
    report or a page is compared with. `overrides` are the job's settings as the CLI takes them."""
    from gpucheck.advise import advise
    from gpucheck.catalog import get_workload
    from gpucheck.estimate import Target, estimate
    from gpucheck.estimate.settings import apply_overrides
    from gpucheck.i18n import use_language
    from gpucheck.machine import Machine

    machine = Machine.load(machine_path)
    w = get_workload(workload_id)
    if overrides:
        w = apply_overrides(w, **overrides)
    target = Target.from_machine(machine)
    with use_language(lang):
        est = estimate(w, target)
        return est, advise(machine, w, target, est)


def advise_on_gpu(workload_id: str, gpu: str, n: int = 1, **overrides):
    """(Workload, Estimate, Advice) for a job on `n` catalog GPUs with no scanned machine: what `gpucheck check
    --gpu` computes. `overrides` are the job's settings as the CLI takes them."""
    from gpucheck.advise import advise
    from gpucheck.catalog import find_gpu, get_workload
    from gpucheck.estimate import Target, estimate
    from gpucheck.estimate.settings import apply_overrides

    w = apply_overrides(get_workload(workload_id), **overrides)
    t = Target.from_gpu(find_gpu(gpu), n, None)
    e = estimate(w, t)
    return w, e, advise(None, w, t, e)


class FakeClock:
    """A clock for time budgets that advances `step` seconds each time it is read: a test of a time cap
    asserts on these seconds, never on the wall clock, so a busy CI machine cannot fail it."""

    def __init__(self, step: float = 0.01) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def evidence_rows(ids) -> dict:
    """The published rows of resources/evidence/ with these ids, by id (every id must exist)."""
    wanted = set(ids)
    rows = {r.id: r for r in load_evidence() if r.id in wanted}
    assert wanted <= rows.keys(), f"no evidence row {sorted(wanted - rows.keys())}"
    return rows


def evidence_row(row_id: str):
    """The published row of resources/evidence/ with this id."""
    return evidence_rows((row_id,))[row_id]
