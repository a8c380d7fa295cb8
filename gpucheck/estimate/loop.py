"""The training loop's own per-step cost beside the operators the dispatch model prices: a framework's loop (the
Hugging Face Trainer, Lightning) by backend, factors.toml [step_overhead_s]; a hand-written loop over ready batches
(train.loop "plain": gpucheck's trial runner and calibrate probes), [loop_overhead_s]. Paid once per optimizer step,
so spread over the micro-batches it accumulates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.records import TrainSpec


def step_overhead_seconds(t: TrainSpec, backend: str, f: Mapping[str, Any]) -> float:
    """Seconds per micro-batch the loop around the step costs beside its operators."""
    per_step = f["loop_overhead_s"][t.loop] if t.loop else f["step_overhead_s"][backend]
    return float(per_step) / max(1, t.grad_accum)
