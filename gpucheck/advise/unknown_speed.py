"""A GPU whose speed is not in the catalog: bound its time by its class instead of saying nothing.

A GPU built into the processor (an APU's or a laptop's integrated GPU: it shares the system's memory) is
slower than a laptop's discrete graphics card and reads the system memory it shares, so the fastest laptop GPU
in the catalog, at no more than the widest shared memory of such processors (resources/factors.toml
[unknown_gpu] shared_memory_max_gbps), gives a lower bound on its time: a job that would take longer than the
practical limit even there is too slow here (issue 26 §9: "runs with tweaks" was given to 10B-token
pre-training on an iGPU of unknown speed).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck import estimate as est_mod
from gpucheck.advise.rungs import LadderResult
from gpucheck.catalog import load_gpus
from gpucheck.estimate.factors import load_factors
from gpucheck.i18n import tr
from gpucheck.machine import Machine


def _built_in(machine: Machine | None) -> bool:
    gpus = machine.compute_gpus() if machine is not None else []
    return bool(gpus) and (gpus[0].is_discrete is False or gpus[0].memory_kind in ("carve-out", "shared"))


def time_floor(machine: Machine | None, target: Any, result: LadderResult) -> tuple[str, float] | None:
    """(the faster GPU, its hours for the plan) bounding an unknown built-in GPU's time from below; None when
    the GPU's speed is known, it is not built in, or no catalog GPU of the class has a time."""
    if target.gpu is not None or target.backend == "cpu" or not _built_in(machine):
        return None
    shared_gbps = float(load_factors()["unknown_gpu"]["shared_memory_max_gbps"])
    best: tuple[str, float] | None = None
    for spec in load_gpus():
        if spec.segment != "laptop":
            continue
        fed = dataclasses.replace(spec, mem_bandwidth_gbps=min(spec.mem_bandwidth_gbps or shared_gbps, shared_gbps))
        e = est_mod.estimate(result.workload, est_mod.Target.from_gpu(fed, 1, None), result.train)
        if e.total_hours is not None and (best is None or e.total_hours < best[1]):
            best = (tr("{gpu} reading the shared system memory", gpu=spec.name), e.total_hours)
    return best
