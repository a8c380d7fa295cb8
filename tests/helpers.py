"""What several test modules compute the same way (core only: no Qt here)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from gpucheck.evidence import load_evidence

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def bench_module(name: str) -> ModuleType:
    """A script of benchmarks/ imported as a module (the folder is not a package; its scripts import each other)."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


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


def image_side_cost(path: str | Path, gpu: str = "rtx 4090"):
    """A vision-language config.json's LoRA (rank 16) estimated with and without its image side, on one catalog GPU:
    (extra weight bytes, extra trainable parameters, extra FLOPs per sample, the side's parameters) — what holding the
    tower frozen costs a text fine-tune."""
    import dataclasses

    from gpucheck.catalog import find_gpu
    from gpucheck.estimate import Target, estimate
    from gpucheck.estimate.settings import apply_overrides
    from gpucheck.hf_config import workload_from_config_file

    w = apply_overrides(workload_from_config_file(path), method="lora", lora_rank=16)
    text_only = dataclasses.replace(w, model=dataclasses.replace(w.model, aux_params=0.0))
    target = Target.from_gpu(find_gpu(gpu), 1, None)
    e, e_text = estimate(w, target), estimate(text_only, target)
    return (e.breakdown.weights_bytes - e_text.breakdown.weights_bytes, e.trainable_params - e_text.trainable_params,
            e.flops_per_sample - e_text.flops_per_sample, w.model.aux_params)
