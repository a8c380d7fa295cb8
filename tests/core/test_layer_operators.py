"""Operators per transformer layer, counted per implementation of the layer (model.layer_code): the count the estimate
prices is the one benchmarks/count_layer_operators.py measured, and on a host-bound step the code a model runs shows
in its speed.

Role of the published row here: VALIDATION. The counts come from running each lineage's layer code under a
TorchDispatchMode (benchmarks/data/layer-operators.json); they were not chosen while looking at the row.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from pathlib import Path

import pytest

from gpucheck.catalog import parse_workload
from gpucheck.choices import LAYER_CODES
from gpucheck.errors import BadInput
from gpucheck.estimate.dispatch import layer_operators
from gpucheck.estimate.factors import load_factors
from gpucheck.resources import resource_path
from tests.core import accuracy as A
from tests.helpers import evidence_row

COUNTS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "layer-operators.json"


def test_the_priced_counts_are_the_measured_ones() -> None:
    measured = json.loads(COUNTS.read_text(encoding="utf-8"))["per_layer"]
    priced = load_factors()["dispatch"]["kernels"]["layer_code"]
    assert set(priced) == set(LAYER_CODES) == set(measured)
    for code in LAYER_CODES:
        for key in ("forward", "backward", "backward_frozen_weights"):
            assert priced[code][key] == measured[code][key], (code, key)


def test_a_model_that_does_not_name_its_code_keeps_the_generic_count() -> None:
    f = load_factors()
    row = evidence_row("qwen-7b-lora-s256")
    generic = dataclasses.replace(row.model, layer_code=None)
    k = f["dispatch"]["kernels"]
    assert layer_operators(generic, f) == (k["transformer_layer_forward"], k["backward_per_forward"])


def test_qwen1_with_flash_attn_kernels_dispatches_fewer_operators_than_hugging_face_llama() -> None:
    """Qwen-1's fused c_attn and flash-attn's attention, rotary and RMSNorm kernels: about 3/5 of the operators of
    transformers' Llama layer in a training step (forward + backward)."""
    f = load_factors()
    layer = f["dispatch"]["kernels"]["layer_code"]
    qwen = layer["qwen1-flash"]["forward"] + layer["qwen1-flash"]["backward"]
    llama = layer["hf-llama-sdpa"]["forward"] + layer["hf-llama-sdpa"]["backward"]
    assert 0.5 < qwen / llama < 0.7


def test_qwens_short_sequence_lora_speed_is_nearer_the_published_one_with_its_own_code() -> None:
    """Qwen README 'Profiling of Memory and Speed': Qwen-7B LoRA at 256 tokens on one A100-80G, 1.2 s/iter (batch 1,
    accumulation 8) — a step the CPU's launches set. Priced with Qwen-1's counted operators instead of the generic
    count, the estimate comes nearer that measurement (it was about 2× too slow)."""
    row = evidence_row("qwen-7b-lora-s256")
    assert row.model.layer_code == "qwen1-flash"
    generic = dataclasses.replace(row, model=dataclasses.replace(row.model, layer_code=None))
    counted_error, generic_error = abs(math.log(A.speed_ratio(row))), abs(math.log(A.speed_ratio(generic)))
    assert counted_error < generic_error - math.log(1.1)


def test_a_job_file_names_its_layer_code_and_an_unknown_one_is_one_clear_error() -> None:
    path = resource_path("workloads", "llama3-8b-lora.toml")
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    doc["model"]["layer_code"] = "hf-llama-sdpa"
    assert parse_workload(doc, str(path)).model.layer_code == "hf-llama-sdpa"
    doc["model"]["layer_code"] = "hf-llama-flash9"
    with pytest.raises(BadInput, match="layer_code"):
        parse_workload(doc, str(path))
