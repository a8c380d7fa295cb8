"""Fuzzing the saved-scan loader: any JSON either loads as a valid Machine or raises BadInput
with a message — never another exception, never a Machine holding a NaN or a wrong type."""

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from gpucheck.errors import BadInput
from gpucheck.machine import SCHEMA_VERSION, Machine

json_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats() | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)

GOOD = Machine().to_dict()


def _walk(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _walk(v)
    else:
        yield obj


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_is_a_machine_or_one_clear_error(value):
    try:
        m = Machine.from_dict(value)
    except BadInput as e:
        assert str(e)
        return
    assert isinstance(m, Machine)


field_names = st.sampled_from(sorted(GOOD))


@settings(max_examples=300, deadline=None)
@given(field_names, json_values)
def test_one_field_replaced_by_anything(name, value):
    data = json.loads(json.dumps(GOOD))
    data[name] = value
    try:
        m = Machine.from_dict(data)
    except BadInput as e:
        assert name in str(e) or "schema_version" in str(e)
        return
    for leaf in _walk(m.to_dict()):
        assert not (isinstance(leaf, float) and (math.isnan(leaf) or math.isinf(leaf)))


def test_wrong_schema_version_names_the_versions():
    data = dict(GOOD, schema_version=SCHEMA_VERSION + 1)
    try:
        Machine.from_dict(data)
    except BadInput as e:
        assert str(SCHEMA_VERSION + 1) in str(e) and str(SCHEMA_VERSION) in str(e)
    else:
        raise AssertionError("a newer schema must be refused")


# -- recorded machines, mutated deep inside, then used for a verdict --------------------------------

from pathlib import Path  # noqa: E402

from hypothesis import HealthCheck  # noqa: E402

from tests.conftest import FIXTURES  # noqa: E402

RECORDED_MACHINES = sorted((FIXTURES / "machines").glob("*.json"))


def _leaf_paths(obj, prefix=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield prefix + (k,)
            yield from _leaf_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield prefix + (i,)
            yield from _leaf_paths(v, prefix + (i,))


def _numbers(o):
    if isinstance(o, dict):
        for v in o.values():
            yield from _numbers(v)
    elif isinstance(o, (list, tuple)):
        for v in o:
            yield from _numbers(v)
    elif isinstance(o, (int, float)) and not isinstance(o, bool):
        yield o


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), st.integers(0, len(RECORDED_MACHINES) - 1),
       json_values | st.sampled_from([-1, 0, -(2**40), 2**80, 1e308, -0.5]))
def test_mutated_recorded_scan_loads_and_gives_a_sane_verdict_or_one_clear_error(tmp_path, data, index, value):
    """A saved scan edited by hand (or damaged): BadInput naming the file, or a Machine whose verdicts
    hold no negative, NaN or infinite number."""
    import dataclasses as _dc

    from gpucheck.catalog import load_workloads
    from gpucheck.estimate import Target, estimate, estimate_to_json

    doc = json.loads(RECORDED_MACHINES[index].read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(sorted(_leaf_paths(doc), key=str)))
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    f = Path(tmp_path) / "scan.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    try:
        m = Machine.load(f)
    except BadInput as e:
        assert str(f) in str(e) and "\n" not in str(e)
        return
    target = Target.from_machine(m)
    for w in load_workloads()[:4]:
        est = estimate(w, target)
        for n in list(_numbers(estimate_to_json(est, w))) + list(_numbers(_dc.asdict(est))):
            assert math.isfinite(n) and n >= 0, (path, value, w.id)
