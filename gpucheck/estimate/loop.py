"""The training loop's own per-step cost beside the operators the dispatch model prices: a framework's loop (the
Hugging Face Trainer, Lightning) by backend, factors.toml [step_overhead_s]; a hand-written loop over ready batches
(train.loop "plain": gpucheck's trial runner and calibrate probes), [loop_overhead_s]. Paid once per optimizer step,
so spread over the micro-batches it accumulates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def step_overhead_seconds(t: Any, backend: str, f: Mapping[str, Any]) -> float:
    """Seconds per micro-batch the loop around the step costs beside its operators."""
    loop = getattr(t, "loop", "")
    per_step = float(f["loop_overhead_s"][loop]) if loop else float(f["step_overhead_s"][backend])
    return per_step / max(1, int(getattr(t, "grad_accum", 1) or 1))
