"""The data files the app ships (resources/*.toml) load into validated records: an unknown or misspelt
key is an error naming the file and the key, never silently ignored, and each fact is stored once."""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest

from gpucheck.advise.data import ADVICE_SCHEMA, load_advice_factors, validate_advice
from gpucheck.catalog import find_gpu, get_workload, read_toml
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.factors import FACTORS_SCHEMA, load_factors, parse_factors
from gpucheck.probe.facts import parse_probe_facts, probe_facts
from gpucheck.resources import resource_path

PROBE = read_toml(resource_path("probe.toml"))
ADVICE = read_toml(resource_path("advice.toml"))
FACTORS = read_toml(resource_path("factors.toml"))


def test_the_shipped_files_load():
    facts = probe_facts()
    assert facts.nvidia.archs and facts.power.load_fraction > 0 and facts.chassis.laptop_types
    assert set(ADVICE_SCHEMA) <= set(load_advice_factors())


@pytest.mark.parametrize("table, key", [("nvidia", "bf16_min_ccc"), ("power", "load_fractoin"),
                                        ("warnings", "low_free_disk"), ("apple", "typo")])
def test_a_misspelt_key_in_probe_toml_is_named(table, key):
    doc = copy.deepcopy(PROBE)
    doc[table][key] = 1
    with pytest.raises(BadInput) as e:
        parse_probe_facts(doc, "probe.toml")
    assert f"{table}.{key}" in str(e.value) and "\n" not in str(e.value)


def test_a_missing_key_in_probe_toml_is_named_not_defaulted():
    doc = copy.deepcopy(PROBE)
    del doc["power"]["round_to_w"]
    with pytest.raises(BadInput, match=r"missing key 'power.round_to_w'"):
        parse_probe_facts(doc, "probe.toml")


@pytest.mark.parametrize("table, key", [("tweaks", "lora_rnk"), ("general", "usd_to_cnyy"), ("disk", "x")])
def test_a_misspelt_key_in_advice_toml_is_named(table, key):
    doc = copy.deepcopy(ADVICE)
    doc[table][key] = 1.0
    with pytest.raises(BadInput) as e:
        validate_advice(doc, "advice.toml")
    assert f"'{table}.{key}'" in str(e.value) and "\n" not in str(e.value)


def test_a_wrong_type_in_advice_toml_is_named():
    doc = copy.deepcopy(ADVICE)
    doc["tweaks"]["grad_checkpointing_time_factor"] = "1.33"
    with pytest.raises(BadInput, match="tweaks.grad_checkpointing_time_factor"):
        validate_advice(doc, "advice.toml")


def test_the_bf16_threshold_is_stored_once():
    text = "".join(p.read_text(encoding="utf-8") for p in resource_path().glob("*.toml"))
    assert len(re.findall(r"(?m)^\s*bf16_min\w*\s*=", text)) == 1


# -- factors.toml -----------------------------------------------------------------------------------------


def test_factors_toml_loads_read_only_with_a_source_on_every_table():
    f = load_factors()
    assert set(f) == set(FACTORS_SCHEMA)
    for name in FACTORS_SCHEMA:
        assert f[name].source and f[name].as_of, name
    assert f["speed"]["gemm_efficiency"]["cnn"].source == f["speed"].source  # inherit_source
    with pytest.raises(TypeError):
        f["verdict"]["too_slow_days"] = 1  # type: ignore[index]


@pytest.mark.parametrize("path", [("speed", "elementwise", "hidden_elemnts"), ("host", "worker_gb"),
                                  ("stack", "eager", "tf32_matmull"), ("dispatch", "backend_factor", "cdua"),
                                  ("clocks", "tensor_tflops_per_watt", "ada")])
def test_a_misspelt_key_in_factors_toml_is_named(path):
    doc = copy.deepcopy(FACTORS)
    table = doc
    for k in path[:-1]:
        table = table[k]
    table[path[-1]] = 1.0
    with pytest.raises(BadInput) as e:
        parse_factors(doc, "factors.toml")
    msg = str(e.value)
    assert msg.startswith("factors.toml: unknown key") and f"'{'.'.join(path)}'" in msg and "\n" not in msg


def test_an_unknown_table_in_factors_toml_is_named():
    doc = copy.deepcopy(FACTORS)
    doc["speeed"] = {"source": "x", "as_of": "2026", "x": 1}
    with pytest.raises(BadInput, match=r"unknown table \[speeed\]"):
        parse_factors(doc, "factors.toml")


@pytest.mark.parametrize("path, value, expected", [
    (("bandwidth", "efficiency"), "0.75", "a number above 0, at most 1"),  # a number typed as text
    (("stack", "fused", "tf32_matmul"), 1, "true or false"),
    (("multi_gpu", "links", "gpus_per_node"), 8.5, "a whole number ≥ 1"),
    (("fit_band", "headroom_fraction"), 5, "a number from 0 to 1"),
    (("support", "training_backends"), "cuda", "a list of strings"),
])
def test_a_wrong_type_in_factors_toml_is_named_with_what_was_expected(path, value, expected):
    doc = copy.deepcopy(FACTORS)
    table = doc
    for k in path[:-1]:
        table = table[k]
    table[path[-1]] = value
    with pytest.raises(BadInput) as e:
        parse_factors(doc, "factors.toml")
    assert str(e.value) == f"factors.toml: key '{'.'.join(path)}': expected {expected}, got {value!r}"


def test_a_backend_missing_from_a_factors_table_is_an_error_not_a_code_default():
    # tables looked up by backend / architecture / GPU segment must list every one: no `.get(key, default)`
    doc = copy.deepcopy(FACTORS)
    del doc["step_overhead_s"]["rocm"]
    with pytest.raises(BadInput, match=r"missing key 'step_overhead_s.rocm' \(a number ≥ 0\)"):
        parse_factors(doc, "factors.toml")
    doc = copy.deepcopy(FACTORS)
    del doc["clocks"]["fallback_fraction"]["laptop"]
    with pytest.raises(BadInput, match=r"missing key 'clocks.fallback_fraction.laptop'"):
        parse_factors(doc, "factors.toml")


def test_a_sub_table_of_numbers_needs_its_own_source_or_says_it_inherits():
    doc = copy.deepcopy(FACTORS)
    del doc["multi_gpu"]["pcie_gbps"]["inherit_source"]
    with pytest.raises(BadInput, match=r"table \[multi_gpu.pcie_gbps\] needs 'source' and 'as_of'"):
        parse_factors(doc, "factors.toml")


def test_the_apple_working_set_is_stored_once():
    # Metal's recommendedMaxWorkingSetSize rule lives in probe.toml [apple]; the estimate uses the scan's rule
    assert "apple" not in FACTORS
    text = "".join(p.read_text(encoding="utf-8") for p in resource_path().glob("*.toml"))
    assert len(re.findall(r"(?m)^\s*\w*ram_fraction\w*\s*=|^\s*working_set_fraction\w*\s*=", text)) == 2


def test_the_default_sequence_length_is_data():
    # factors.toml [sequence]: the length a transformer job without seq_len runs at (BERT's 512 positions)
    w = get_workload("bert-base-finetune")
    w = dataclasses.replace(w, train=dataclasses.replace(w.train, seq_len=None))
    e = estimate(w, Target.from_gpu(find_gpu("RTX 4090")))
    assert e.train.seq_len == FACTORS["sequence"]["default_seq_len"] == 512


def test_the_bitsandbytes_backends_are_stored_once():
    # the estimate's not_supported and the advice's QLoRA / 8-bit AdamW offers read the same list
    assert "backends" not in ADVICE["bitsandbytes"]
    assert load_factors()["support"]["bitsandbytes_backends"] == ("cuda", "rocm", "xpu")
