"""The evidence files (resources/evidence/*.toml, docs/evidence.md): validated like the other data files, every
row's role locked before the model is compared with it, every fitted factor named with its calibration rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpucheck.catalog import find_gpu, read_toml
from gpucheck.errors import BadInput
from gpucheck.evidence import evidence_dir, load_evidence, parse_evidence
from gpucheck.resources import resource_path

GOOD = {
    "source": {"id": "x", "title": "T", "publisher": "P", "date": "2024", "independent_group": "g",
               "url": "https://example.org/x"},
    "models": {"m": {"arch": "transformer", "params": 1.1e8, "layers": 12, "hidden": 768, "heads": 12, "ffn": 3072}},
    "row": [{"id": "x-1", "what": "w", "quote": "q", "how": "h", "role": "validation", "model": "m", "family": "nlp",
             "gpu": "rtx 4090", "batch": 8, "seq_len": 128, "accumulation": 4,
             "measured": {"kind": "samples_per_s", "value": 10.0}}],
}


def _with(path: tuple, value) -> dict:
    import copy
    d = copy.deepcopy(GOOD)
    t = d
    for k in path[:-1]:
        t = t[k]
    if value is None:
        del t[path[-1]]
    else:
        t[path[-1]] = value
    return d


def test_a_good_file_loads_with_its_settings() -> None:
    src, rows = parse_evidence(GOOD, "x.toml", "x")
    assert src.independent_group == "g"
    r = rows[0]
    assert (r.train.batch, r.train.seq_len, r.train.grad_accum, r.family, r.gpus) == (8, 128, 4, "nlp", 1)


@pytest.mark.parametrize("path, value, says", [
    (("row", 0, "batchsize"), 8, "unknown key 'row 'x-1'.batchsize'"),
    (("row", 0, "batch"), "8", "key 'row 'x-1'.batch': expected an integer"),
    (("row", 0, "role"), "test", "expected one of calibration, validation"),
    (("row", 0, "measured", "kind"), "fps", "measured.kind"),
    (("row", 0, "measured", "unit"), "GiB", "only memory figures take it"),
    (("row", 0, "model"), "nope", "expected one of this file's [models]"),
    (("source", "independent_group"), None, "missing key 'source.independent_group'"),
    (("source", "id"), "y", "expected the file's name 'x'"),
    (("row", 0, "measured"), {"kind": "allocated_gib", "value": 3.0}, "cuda_context_included"),
    (("row", 0, "measured"), {"kind": "allocated_gib", "value": 3.0, "cuda_context_included": True},
     "expected false for allocated_gib"),
    (("row", 0, "measured"), {"kind": "hours", "value": 3.0}, "missing key 'row 'x-1'.measured.samples'"),
])
def test_mistakes_name_the_file_the_key_and_what_was_expected(path, value, says) -> None:
    with pytest.raises(BadInput) as e:
        parse_evidence(_with(path, value), "x.toml", "x")
    assert "x.toml" in str(e.value) and says in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_every_shipped_row_loads_and_names_a_known_gpu() -> None:
    rows = load_evidence()
    assert len({r.id for r in rows}) == len(rows)
    for r in rows:
        find_gpu(r.gpu)
        assert r.quote and r.how and r.source.where


# -- the role lock ----------------------------------------------------------------------------------------

def lock() -> dict[str, dict]:
    return read_toml(evidence_dir() / "roles.lock")["rows"]


def lock_problems(rows, locked: dict[str, dict]) -> list[str]:
    """Why the rows' roles break the lock (resources/evidence/roles.lock): a row without an entry, a role that
    differs from its entry, calibration → validation, or validation → calibration without a reason."""
    out = []
    for r in rows:
        e = locked.get(r.id)
        if e is None:
            out.append(f"{r.id}: not in roles.lock (run `python -m tests.core.accuracy` to lock it before comparing)")
            continue
        if e.get("role") != r.role:
            out.append(f"{r.id}: role {r.role!r} in the data, {e.get('role')!r} locked on {e.get('fixed')}")
        was = e.get("was")
        if was is not None:
            if (was, e.get("role")) != ("validation", "calibration"):
                out.append(f"{r.id}: {was} → {e.get('role')} is not allowed (only validation → calibration)")
            elif not str(e.get("reason", "")).strip():
                out.append(f"{r.id}: validation → calibration without a recorded reason")
    return out


def test_every_row_keeps_the_role_it_was_locked_with() -> None:
    assert lock_problems(load_evidence(), lock()) == []


def test_the_lock_catches_a_role_changed_after_the_fact() -> None:
    rows = load_evidence()
    val = next(r for r in rows if r.role == "validation")
    locked = dict(lock())
    flipped = [r if r.id != val.id else type(r)(**{**r.__dict__, "role": "calibration"}) for r in rows]
    assert any(val.id in p for p in lock_problems(flipped, locked))
    locked[val.id] = {"role": "validation", "fixed": "2026-12-01", "was": "calibration", "reason": "x"}
    assert any("not allowed" in p for p in lock_problems(rows, locked))
    locked[val.id] = {"role": "calibration", "fixed": "2026-12-01", "was": "validation"}
    assert any("without a recorded reason" in p for p in lock_problems(flipped, locked))


def test_evidence_files_are_toml_with_one_source_each() -> None:
    files = sorted(Path(resource_path("evidence")).glob("*.toml"))
    assert len(files) >= 10
    assert len({read_toml(p)["source"]["id"] for p in files}) == len(files)


def test_a_power_limit_the_source_set_slows_its_rows_as_a_scanned_limit_would() -> None:
    # answer.ai's FSDP+QLoRA benchmarks: 'The 3090s are power limited to 280W each' (the RTX 3090's board power is
    # 350 W). A scan reads such a cap from NVML and prices the clock that a cap leaves (target._power_budget); a row
    # that states one gets the same. Its 4090 rows, uncapped, carry none.
    from tests.core import accuracy as A

    rows = {r.id: r for r in load_evidence() if r.source.id == "answerai-fsdp-qlora-benchmarks"}
    assert {r.power_limit_w for r in rows.values() if r.gpu == "rtx 3090"} == {280.0}
    assert {r.power_limit_w for r in rows.values() if r.gpu == "rtx 4090"} == {None}
    r = rows["aa-llama2-7b-qlora-b10-2x3090"]
    capped = A._target(r.gpu, r.gpus, power_limit_w=r.power_limit_w)
    assert capped.power_budget_fraction == pytest.approx(0.8)
    free = A._target(r.gpu, r.gpus)
    assert free.power_budget_fraction is None
    w = A._workload(r)
    assert A.estimate(w, capped).step_seconds > 1.04 * A.estimate(w, free).step_seconds
