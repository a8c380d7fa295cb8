"""Fuzzing every loader a user (or a broken install) can feed: workload TOML, Hugging Face config.json,
JSON reports given as --machine, and the shipped catalogs (gpus.toml, cloud.toml, parts.toml).

The invariant, for every input: either a valid record, or `BadInput` whose one-line message names the
file (and, for a bad value, the key) — never another exception, never a hang. Every workload that
loads is estimated: no number in the estimate may be negative, NaN or infinite.
(Saved scans have their own fuzz tests in test_fuzz_machine.py.)
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
import sys
import time
from pathlib import Path

import pytest
import tomllib
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gpucheck import catalog, workload_schema
from gpucheck.advise import data as advise_data
from gpucheck.catalog import find_gpu, get_workload, load_workloads
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, estimate, estimate_to_json
from gpucheck.estimate import factors as factors_mod
from gpucheck.hf_config import workload_from_config_file
from gpucheck.machine import Machine
from gpucheck.resources import resource_path
from tests.conftest import FIXTURES

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
MACHINES = FIXTURES / "machines"
HF = sorted((FIXTURES / "hf").glob("*/config.json"))
WORKLOAD_FILES = sorted(resource_path("workloads").glob("*.toml"))

# -- shared strategies ------------------------------------------------------------------------------

safe_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=16)
numbers = (st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True)
           | st.sampled_from([0, -1, 1, 0.5, 1e-300, 1e300, 2**63, 1e13, 1e16, 65537, 10**20]))
scalars = st.none() | st.booleans() | numbers | safe_text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(safe_text, inner, max_size=3), max_leaves=8)


def _paths(obj, prefix=()):
    """Every key path into nested dicts (and list items) of a parsed document."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


def _mutate(doc, path, op, value):
    out = copy.deepcopy(doc)
    parent = out
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if op == "replace":
        parent[last] = value
    elif op == "delete":
        if isinstance(parent, dict):
            del parent[last]
        else:
            parent.pop(last)
    elif op == "add" and isinstance(parent, dict):
        parent["zz_" + str(last) + "_extra"] = value
    elif op == "add":
        parent.append(value)
    return out


mutations = st.tuples(st.sampled_from(["replace", "replace", "replace", "delete", "add"]), values)


def _walk_numbers(o, path=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _walk_numbers(v, f"{path}.{k}")
    elif isinstance(o, (list, tuple)):
        for i, v in enumerate(o):
            yield from _walk_numbers(v, f"{path}[{i}]")
    elif isinstance(o, (int, float)) and not isinstance(o, bool):
        yield path, o


_TARGETS: list[Target] = []


def _targets() -> list[Target]:
    if not _TARGETS:
        _TARGETS.extend([
            Target.from_gpu(find_gpu("4090")),
            Target.from_gpu(find_gpu("a100 80gb"), gpus=8),
            Target.from_machine(Machine.load(MACHINES / "office-pc-cpu-only.json")),
            Target.from_machine(Machine.load(MACHINES / "m2max-macbookpro.json")),
        ])
    return _TARGETS


def assert_sane_estimates(workload) -> None:
    """Every number in the estimate (record and JSON) is finite and ≥ 0."""
    for t in _targets():
        est = estimate(workload, t)
        bad = [(p, v) for p, v in list(_walk_numbers(estimate_to_json(est, workload)))
               + list(_walk_numbers(dataclasses.asdict(est))) if not math.isfinite(v) or v < 0]
        assert not bad, f"{workload.id} on {t.label}: absurd numbers {bad[:5]}"
        assert est.verdict in ("runs", "tight", "too_slow", "does_not_fit", "not_supported")


def assert_clear(err: BadInput, path: Path, key_hint: str | None = None) -> None:
    msg = str(err)
    assert msg and "\n" not in msg and "Traceback" not in msg
    assert str(path) in msg, msg
    if key_hint is not None:
        assert key_hint in msg, msg


# -- a tiny TOML writer (tests only: enough for the shapes the loaders read) --------------------------

def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if v is None:
        return '""'  # TOML has no null: the nearest thing a user could write
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_str(str(k))} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def to_toml(doc: dict) -> str:
    lines = []
    tables = lambda v: isinstance(v, list) and v and all(isinstance(x, dict) for x in v)  # noqa: E731
    for k, v in sorted(doc.items(), key=lambda kv: bool(tables(kv[1]))):  # keys before [[arrays]] (they'd join them)
        if tables(v):
            for item in v:
                lines.append(f"[[{_toml_str(str(k))}]]")
                lines += [f"{_toml_str(str(a))} = {_toml_value(b)}" for a, b in item.items()]
        else:
            lines.append(f"{_toml_str(str(k))} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def load_sane_or_refused(f: Path, text: str, load=lambda f: get_workload(str(f))):
    """Write `text` to `f` and `load` it as a job (a workload TOML by default): (workload, None) when its
    estimates are sane, or (None, error) when the file is refused with one clear error naming it."""
    f.write_text(text, encoding="utf-8")
    try:
        w = load(f)
    except BadInput as e:
        assert_clear(e, f)
        return None, e
    assert_sane_estimates(w)
    return w, None


def test_toml_writer_round_trips_the_real_files():
    for p in WORKLOAD_FILES + [resource_path("gpus.toml"), resource_path("cloud.toml"), resource_path("parts.toml")]:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
        assert tomllib.loads(to_toml(doc)) == doc, p


# -- workload TOML ----------------------------------------------------------------------------------

def test_every_built_in_workload_gives_sane_estimates():
    for w in load_workloads():
        assert_sane_estimates(w)


@FUZZ
@given(data=st.data(), index=st.integers(0, len(WORKLOAD_FILES) - 1), mutation=mutations)
@example(data=None, index=0, mutation=("replace", float("inf")))
def test_mutated_workload_toml_loads_or_names_the_key(tmp_path, data, index, mutation):
    src = WORKLOAD_FILES[index]
    doc = tomllib.loads(src.read_text(encoding="utf-8"))
    paths = sorted(_paths(doc), key=str)
    path = paths[0] if data is None else data.draw(st.sampled_from(paths))
    op, value = mutation
    doc = _mutate(doc, path, op, value)
    _, e = load_sane_or_refused(tmp_path / "my-job.toml", to_toml(doc))
    if e is not None:
        # a bad key is named by its dotted path (or, for a missing table, by the table's name)
        assert str(path[0]) in str(e) or "unknown key" in str(e) or "missing" in str(e), str(e)


@FUZZ
@given(index=st.integers(0, len(WORKLOAD_FILES) - 1), cut=st.integers(0, 10_000),
       junk=st.text(max_size=30))
def test_workload_toml_with_damaged_text_is_one_clear_error(tmp_path, index, cut, junk):
    text = WORKLOAD_FILES[index].read_text(encoding="utf-8")
    cut = cut % (len(text) + 1)
    f = tmp_path / "damaged.toml"
    f.write_text(text[:cut] + junk + text[cut + len(junk):], encoding="utf-8", errors="replace")
    try:
        w = get_workload(str(f))
    except BadInput as e:
        assert_clear(e, f)
        return
    assert_sane_estimates(w)


def test_workload_file_that_is_binary_or_missing_or_a_folder(tmp_path):
    b = tmp_path / "bin.toml"
    b.write_bytes(b"\xff\xfe\x00garbage\x80")
    for p in (b, tmp_path / "missing.toml"):
        with pytest.raises(BadInput) as e:
            get_workload(str(p))
        assert_clear(e.value, p)
    d = tmp_path / "folder.toml"
    d.mkdir()
    with pytest.raises(BadInput) as e:
        get_workload(str(d))
    assert_clear(e.value, d)


# -- Hugging Face config.json ----------------------------------------------------------------------

@FUZZ
@given(data=st.data(), index=st.integers(0, len(HF) - 1), mutation=mutations)
@example(data=None, index=0, mutation=("replace", 0))
def test_mutated_hf_config_loads_or_names_the_key(tmp_path, data, index, mutation):
    doc = json.loads(HF[index].read_text(encoding="utf-8"))
    paths = sorted(_paths(doc), key=str)
    path = paths[0] if data is None else data.draw(st.sampled_from(paths))
    op, value = mutation
    doc = _mutate(doc, path, op, value)
    load_sane_or_refused(tmp_path / "config.json", json.dumps(doc), workload_from_config_file)


int_keys = st.sampled_from(["hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                            "intermediate_size", "vocab_size", "head_dim", "max_position_embeddings", "n_embd",
                            "n_layer", "n_head", "n_positions", "n_inner", "type_vocab_size"])


@FUZZ
@given(index=st.integers(0, len(HF) - 1),
       changes=st.dictionaries(int_keys, st.integers(-5, 10_000_001) | st.sampled_from([1, 2, 3, 10_000_000]),
                               min_size=1, max_size=4))
def test_hf_config_with_extreme_sizes_never_gives_an_absurd_estimate(tmp_path, index, changes):
    doc = json.loads(HF[index].read_text(encoding="utf-8"))
    doc.update(changes)
    w, e = load_sane_or_refused(tmp_path / "config.json", json.dumps(doc), workload_from_config_file)
    if e is not None:
        assert any(k in str(e) for k in changes), str(e)
    else:
        assert w.model.params > 0


@FUZZ
@given(text=st.text(max_size=200) | values.map(json.dumps))
@example(text="[" * 100_000 + "]" * 100_000)
@example(text='{"model_type": "llama", "hidden_size": NaN}')
def test_any_text_as_config_json_is_a_workload_or_one_clear_error(tmp_path, text):
    f = tmp_path / "config.json"
    f.write_text(text, encoding="utf-8")
    try:
        workload_from_config_file(f)
    except BadInput as e:
        assert_clear(e, f)


# -- JSON reports given back as --machine -----------------------------------------------------------

_REPORT: dict = {}


def _report_doc() -> dict:
    if not _REPORT:
        from gpucheck.report import build_report
        from gpucheck.report.json import report_dict

        m = Machine.load(MACHINES / "rtx3060-12gb-hdd-desktop.json")
        _REPORT.update(json.loads(json.dumps(report_dict(build_report(m, workload_ids=["mnist-cnn"], lang="en")))))
    return _REPORT


def test_a_real_report_loads_back_as_its_machine(tmp_path):
    f = tmp_path / "report.json"
    f.write_text(json.dumps(_report_doc()), encoding="utf-8")
    m = Machine.load(f)
    assert m.gpus and m.gpus[0].name == Machine.load(MACHINES / "rtx3060-12gb-hdd-desktop.json").gpus[0].name


@FUZZ
@given(data=st.data(), mutation=mutations)
def test_mutated_report_json_is_a_machine_or_one_clear_error(tmp_path, data, mutation):
    doc = _report_doc()
    paths = [p for p in _paths(doc) if p[0] == "machine"] + [("machine",), ("kind",), ("schema_version",)]
    path = data.draw(st.sampled_from(sorted(paths, key=str)))
    op, value = mutation
    doc = _mutate(doc, path, op, value)
    f = tmp_path / "report.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    try:
        m = Machine.load(f)
    except BadInput as e:
        assert_clear(e, f)
        return
    for _p, v in _walk_numbers(m.to_dict()):
        assert math.isfinite(v)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"schema_version": 1, "gpus": ' + "[" * 5000
                                  + "]" * 5000 + "}", '{"machine": ' * 3000 + "1" + "}" * 3000])
def test_deeply_nested_json_is_one_clear_error(tmp_path, text):
    f = tmp_path / "scan.json"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as e:
        Machine.load(f)
    assert_clear(e.value, f)


# -- catalogs: gpus.toml, cloud.toml, parts.toml -------------------------------------------------------

def _load_catalog(kind: str, folder: Path):
    """Load a catalog file from `folder` the way the app does, bypassing the caches."""
    if kind == "gpus.toml":
        path = folder / "gpus.toml"
        return catalog.parse_gpus(catalog.read_toml(path), str(path))
    loader = {"cloud.toml": advise_data.load_cloud, "parts.toml": advise_data.load_parts}[kind]
    return loader.__wrapped__()


@FUZZ
@given(data=st.data(), kind=st.sampled_from(["gpus.toml", "cloud.toml", "parts.toml"]), mutation=mutations)
def test_mutated_catalog_loads_or_names_the_file_and_key(tmp_path, monkeypatch, data, kind, mutation):
    doc = tomllib.loads(resource_path(kind).read_text(encoding="utf-8"))
    paths = sorted(_paths(doc), key=str)
    path = data.draw(st.sampled_from(paths))
    op, value = mutation
    doc = _mutate(doc, path, op, value)
    folder = tmp_path / "res"
    folder.mkdir(exist_ok=True)
    (folder / kind).write_text(to_toml(doc), encoding="utf-8")
    monkeypatch.setattr(advise_data, "resource_path", lambda *parts: folder.joinpath(*parts))
    try:
        records = _load_catalog(kind, folder)
    except BadInput as e:
        assert_clear(e, folder / kind)
        return
    for r in records:
        for _p, v in _walk_numbers(dataclasses.asdict(r)):
            assert math.isfinite(v) and v >= 0, (kind, path, r)


@pytest.mark.parametrize("kind", ["gpus.toml", "cloud.toml", "parts.toml"])
@pytest.mark.parametrize("text", ["", "not toml at all [[[", "gpu = 5\noffer = 5\nram = 5\n",
                                  "[gpu]\n[offer]\n[ram]\n", "ram = 5\n", "psu = 'x'\n"])
def test_broken_catalog_file_is_one_clear_error(tmp_path, monkeypatch, kind, text):
    folder = tmp_path / "res"
    folder.mkdir()
    (folder / kind).write_text(text, encoding="utf-8")
    monkeypatch.setattr(advise_data, "resource_path", lambda *parts: folder.joinpath(*parts))
    try:
        _load_catalog(kind, folder)
    except BadInput as e:
        assert_clear(e, folder / kind)
    else:
        assert kind == "parts.toml" and text == "", "an empty or broken catalog must not load silently"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


# -- the same files through the command line: exit 0 with sane JSON, or exit 2 with one line ----------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), kind=st.sampled_from(["toml", "hf"]), mutation=mutations)
def test_cli_estimate_on_a_damaged_file_is_exit_2_with_one_line(tmp_path, capsys, data, kind, mutation):
    from gpucheck.cli import main

    src = data.draw(st.sampled_from(WORKLOAD_FILES if kind == "toml" else HF))
    text = src.read_text(encoding="utf-8")
    doc = tomllib.loads(text) if kind == "toml" else json.loads(text)
    path = data.draw(st.sampled_from(sorted(_paths(doc), key=str)))
    doc = _mutate(doc, path, *mutation)
    f = tmp_path / ("job.toml" if kind == "toml" else "config.json")
    f.write_text(to_toml(doc) if kind == "toml" else json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    rc = main(["estimate", str(f), "--gpu", "3060 12gb", "--json"])
    out, err = capsys.readouterr()
    assert rc in (0, 2), err
    if rc == 2:
        assert err.startswith("gpucheck: ") and err.count("\n") == 1 and "Traceback" not in err
        assert str(f) in err
        return
    bad = [(p, v) for p, v in _walk_numbers(json.loads(out)) if not math.isfinite(v) or v < 0]
    assert not bad, bad[:5]


# -- every number at the edge of what the loader accepts --------------------------------------------

def _bounded_keys():
    out = []
    for section, spec in (("model", workload_schema.MODEL_SPEC), ("train", workload_schema.TRAIN_SPEC),
                          ("data", workload_schema.DATA_SPEC)):
        for key, (kind, _req, lo, hi, _choices) in spec.items():
            if kind in ("int", "float"):
                out.append((section, key, kind, lo, hi))
    return out


BOUNDED = _bounded_keys()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, len(WORKLOAD_FILES) - 1),
       picks=st.lists(st.tuples(st.sampled_from(BOUNDED), st.sampled_from(["lo", "hi", "mid"])),
                      min_size=1, max_size=6))
def test_values_at_the_loaders_limits_give_finite_estimates(tmp_path, index, picks):
    """Numbers the loader accepts (its own lower and upper limits) never make an estimate absurd."""
    doc = tomllib.loads(WORKLOAD_FILES[index].read_text(encoding="utf-8"))
    for (section, key, kind, lo, hi), where in picks:
        lo = 0 if lo is None else lo
        hi = 1e6 if hi is None else hi
        v = {"lo": lo, "hi": hi, "mid": (lo + hi) / 2}[where]
        doc.setdefault(section, {})[key] = int(v) if kind == "int" else float(v)
    load_sane_or_refused(tmp_path / "edge.toml", to_toml(doc))


# -- factors.toml: the estimator's own numbers ---------------------------------------------------------

_FACTORS_DOC = tomllib.loads(resource_path("factors.toml").read_text(encoding="utf-8"))


def _numeric_paths(doc):
    def get(path):
        d = doc
        for k in path:
            d = d[k]
        return d
    return [p for p in _paths(doc) if isinstance(get(p), (int, float)) and not isinstance(get(p), bool)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(sorted(_numeric_paths(_FACTORS_DOC), key=str)),
       value=st.sampled_from([0, 0.0, 1e-12, 1e12, -1, float("inf"), float("nan"), "fast", True]))
@example(path=("speed", "gemm_efficiency", "transformer", "tensor"), value=0)
@example(path=("bandwidth", "efficiency"), value=0.0)
def test_mutated_factors_file_is_refused_or_gives_finite_estimates(tmp_path, monkeypatch, path, value):
    doc = _mutate(_FACTORS_DOC, path, "replace", value)
    folder = tmp_path / "res"
    folder.mkdir(exist_ok=True)
    (folder / "factors.toml").write_text(to_toml(doc), encoding="utf-8")
    real = factors_mod.resource_path
    monkeypatch.setattr(factors_mod, "resource_path",
                        lambda *parts: folder.joinpath(*parts) if parts == ("factors.toml",) else real(*parts))
    factors_mod.load_factors.cache_clear()
    _TARGETS.clear()
    try:
        try:
            factors_mod.load_factors()
        except BadInput as e:
            assert_clear(e, folder / "factors.toml", ".".join(map(str, path)))
            return
        for w in load_workloads():
            assert_sane_estimates(w)
    finally:
        monkeypatch.undo()
        factors_mod.load_factors.cache_clear()
        _TARGETS.clear()


# -- endless or huge inputs: one clear error, never a hang that fills memory ---------------------------

@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("load", [lambda p: get_workload(p), lambda p: workload_from_config_file(p),
                                  lambda p: Machine.load(p)], ids=["workload", "config.json", "scan"])
def test_endless_device_as_input_is_one_clear_error(load):
    with pytest.raises(BadInput) as e:
        load("/dev/zero")
    assert_clear(e.value, Path("/dev/zero"), "not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
@pytest.mark.parametrize("name", ["job.toml", "config.json", "scan.json", "trial.json"])
def test_a_fifo_as_input_is_refused_at_once(tmp_path, name):
    """Before: opening it waited forever for a writer."""
    from gpucheck.commands import load_trials

    fifo = tmp_path / name
    os.mkfifo(fifo)
    load = {"job.toml": get_workload, "config.json": workload_from_config_file, "scan.json": Machine.load,
            "trial.json": lambda p: load_trials([p])}[name]
    t0 = time.monotonic()
    with pytest.raises(BadInput) as e:
        load(str(fifo))
    assert time.monotonic() - t0 < 5
    assert_clear(e.value, fifo, "not a regular file")


def test_huge_file_as_input_is_one_clear_error(tmp_path):
    from gpucheck.fileio import MAX_INPUT_BYTES

    big = tmp_path / "scan.json"
    with open(big, "wb") as f:
        f.write(b'{"schema_version": 1, "pad": "')
        f.write(b"x" * MAX_INPUT_BYTES)
        f.write(b'"}')
    with pytest.raises(BadInput) as e:
        Machine.load(big)
    assert_clear(e.value, big, "too large")
