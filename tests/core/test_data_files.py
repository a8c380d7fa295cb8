"""The data files the app ships (resources/*.toml) load into validated records: an unknown or misspelt
key is an error naming the file and the key, never silently ignored, and each fact is stored once."""

from __future__ import annotations

import copy
import re

import pytest

from gpucheck.advise.data import ADVICE_SCHEMA, load_advice_factors, validate_advice
from gpucheck.catalog import read_toml
from gpucheck.errors import BadInput
from gpucheck.probe.facts import parse_probe_facts, probe_facts
from gpucheck.resources import resource_path

PROBE = read_toml(resource_path("probe.toml"))
ADVICE = read_toml(resource_path("advice.toml"))


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
