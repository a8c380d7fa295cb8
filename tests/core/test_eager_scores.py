"""Eager attention's element-wise operators over its scores: the traffic the estimate prices is the one
benchmarks/count_score_traffic.py counted from transformers' code, per layer code and precision."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck.estimate.eager_scores import score_traffic
from gpucheck.estimate.factors import load_factors
from gpucheck.hf_config import workload_from_config_file
from gpucheck.resources import resource_path

COUNTS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "score-traffic.json"


def test_the_priced_score_traffic_is_the_counted_one() -> None:
    counted = json.loads(COUNTS.read_text(encoding="utf-8"))["per_score_element"]
    priced = load_factors()["speed"]["elementwise"]["score_traffic"]
    assert set(priced) == set(counted)
    for code, modes in counted.items():
        for mode, figures in modes.items():
            for key, value in figures.items():
                assert priced[code][f"{mode}_{key}"] == pytest.approx(value), (code, mode, key)


def test_an_eager_bert_step_moves_the_counted_bytes_per_score_and_more_with_checkpointing() -> None:
    """bert-base as transformers runs it without SDPA, under autocast: forward (scale, fp32 mask, fp32 softmax, cast
    back) 24 B per score element, backward 28 B: 52 B a step, and the forward's 24 B once more when checkpointing
    recomputes it. Backward is counted, not taken as two forwards (the 72 B priced before)."""
    f = load_factors()
    w = workload_from_config_file(resource_path("models", "bert-base-uncased", "config.json"))
    m = dataclasses.replace(w.model, eager_attention=True)
    t = dataclasses.replace(w.train, precision="bf16", grad_checkpointing=False)
    assert score_traffic(m, t, f)[0] == pytest.approx(52.0)
    assert score_traffic(m, dataclasses.replace(t, grad_checkpointing=True), f)[0] == pytest.approx(76.0)
    # a code the count does not list (Qwen-1's remote code, run eager) is priced as the eager Llama layer
    qwen = dataclasses.replace(m, layer_code="qwen1-torch")
    llama = f["speed"]["elementwise"]["score_traffic"]["hf-llama-eager"]
    assert score_traffic(qwen, t, f)[0] == pytest.approx(llama["autocast_forward_bytes"] + llama["autocast_backward_bytes"])
