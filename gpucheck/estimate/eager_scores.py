"""Eager attention's element-wise operators over its score matrices: the bytes and elements they move, counted per layer
code (resources/factors.toml [speed.elementwise.score_traffic], benchmarks/count_score_traffic.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.dispatch import layer_code_name
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec


def score_traffic(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> tuple[float, float]:
    """(bytes, elements) eager attention's element-wise operators move per score element of one layer over a whole step
    (forward, twice with checkpointing, and backward), counted for the layer's code in the step's precision
    (resources/factors.toml [speed.elementwise.score_traffic]); a code not counted there is priced as the eager Llama
    layer's."""
    counted = f["speed"]["elementwise"]["score_traffic"]
    c = counted.get(layer_code_name(m, f)) or counted[f["dispatch"]["kernels"]["usual_layer_code"]["eager"]]
    mode = "fp32" if t.precision == "fp32" else "pure16" if t.precision in PURE_16BIT else "autocast"
    forwards = 2.0 if t.grad_checkpointing else 1.0
    return (c[f"{mode}_forward_bytes"] * forwards + c[f"{mode}_backward_bytes"],
            c[f"{mode}_forward_elements"] * forwards + c[f"{mode}_backward_elements"])
