"""Published measurements as data: resources/evidence/<source-id>.toml, loaded into validated records.

One file per publication (docs/evidence.md says how to add one). A file holds:

- `[source]`: `id` (= the file name), `title`, `publisher`, `date`, `url` and/or `repository` (+ `path`), and
  `independent_group`: files from one suite or organisation share a group and count as ONE source for the
  15 % cap and for leave-one-source-out;
- `[models.<name>]` (optional): inline model specs (the keys of a workload's `[model]`), or `from_workload =
  "<built-in id>"` plus the keys that differ;
- `[defaults]` (optional): row keys shared by every row of the file (a row's own keys win);
- `[[row]]`: `id`, `what`, `quote` (as published), `how` (how it was read), `role` (calibration | validation),
  `family` (vision | nlp | diffusion | llm | speech; taken from the workload when there is one), the model
  (`workload = "<built-in id>"` or `model = "<name in [models]>"`), the hardware (`gpu`, `gpus`, `nodes`,
  `interconnect`), the training settings (a workload's `[train]` keys, `accumulation` for grad_accum,
  `avg_len` for packed or short samples) and `[row.measured]` {`kind`, `value`, `unit`,
  `cuda_context_included`, and `samples` for `hours`}.

Public API (pure, cached, no Qt): `load_evidence() -> tuple[EvidenceRow, ...]`, `load_sources()`,
`parse_evidence_file(path)`, `SPEED_KINDS`, `MEMORY_KINDS`. Every problem is a `BadInput` naming the file,
the key and what was expected.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gpucheck.catalog import get_workload
from gpucheck.errors import BadInput, UnknownName
from gpucheck.records import ModelSpec, TrainSpec
from gpucheck.resources import resource_path
from gpucheck.tomldata import _B, _f, _i, _s, read_toml, validate_table
from gpucheck.workload_schema import MODEL_SPEC, TRAIN_SPEC, check_experts

ROLES = ("calibration", "validation")
FAMILIES = ("vision", "nlp", "diffusion", "llm", "speech")
SPEED_KINDS = ("samples_per_s", "tokens_per_s", "step_seconds", "hours")
MEMORY_KINDS = ("allocated_gib", "reserved_gib", "nvidia_smi_gib", "capacity_gib")
# bytes per unit of a memory figure as published
MEMORY_UNITS = {"GiB": 1024**3, "GB": 1e9, "MiB": 1024**2, "MB": 1e6}

_SOURCE_SPEC = {
    "id": _s(True), "title": _s(True), "publisher": _s(True), "date": _s(True), "independent_group": _s(True),
    "url": _s(), "repository": _s(), "path": _s(), "note": _s(),
}
_MEASURED_SPEC = {
    "kind": _s(True, SPEED_KINDS + MEMORY_KINDS),
    "value": _f(True, 1e-9, 1e15),
    "unit": _s(False, tuple(MEMORY_UNITS)),
    "cuda_context_included": _B,
    "releasable_reserve": _B,
    "samples": _f(False, 1, 1e15),
}
_TRAIN_KEYS = {k: v for k, v in TRAIN_SPEC.items() if k != "grad_accum"}
# What a published run's stack did where its row is silent, unlike today's default (records.TrainSpec): the QLoRA runs
# published before TRL 0.26 (Dec 2025) prepared the 4-bit model with PEFT's prepare_model_for_kbit_training, directly or
# through TRL's SFTTrainer, which casts every layer it leaves unquantized to fp32, and they ran a bitsandbytes that kept
# each 4-bit layer's input for backward (before 0.43.2, July 2024), and kept PEFT's fp32 adapters (TRL 0.26 casts them to
# bf16); a row whose stack did not says qlora_upcast = false, qlora_keeps_input = false or qlora_bf16_adapters = true.
# A row's loss is its stack's usual one unless it names another (cross_entropy): a built-in job's TRL chunked loss (TRL
# 1.7's default, December 2026's recipes) is not what a row that names the job as its base ran
_PUBLISHED_TRAIN = {"qlora_upcast": True, "qlora_keeps_input": True, "qlora_bf16_adapters": False, "cross_entropy": ""}
_ROW_SPEC: dict[str, tuple] = {
    "id": _s(True), "what": _s(True), "quote": _s(True), "how": _s(True), "role": _s(True, ROLES),
    "family": _s(False, FAMILIES), "workload": _s(), "model": _s(), "note": _s(),
    "gpu": _s(True), "gpus": _i(False, 1, 100_000), "nodes": _i(False, 1, 10_000), "interconnect": _s(),
    "network_gbit_per_node": _f(False, 1, 1e6), "power_limit_w": _f(False, 1, 5000),
    "accumulation": _i(False, 1, 1_000_000), "avg_len": _i(False, 1, 10_000_000),
    "run_samples": _i(False, 1, 10**12),
    **_TRAIN_KEYS,
}
_MODEL_KEYS = {**{k: (kind, False, lo, hi, ch) for k, (kind, _req, lo, hi, ch) in MODEL_SPEC.items()},
               "from_workload": _s()}
_FILE_KEYS = ("source", "models", "defaults", "row")


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    publisher: str
    date: str
    independent_group: str
    url: str = ""
    repository: str = ""
    path: str = ""
    note: str = ""

    @property
    def where(self) -> str:
        """The publication's address: the URL, else repository + path."""
        if self.url:
            return self.url
        return f"{self.repository} {self.path}".strip()


@dataclass(frozen=True)
class Measured:
    kind: str  # SPEED_KINDS | MEMORY_KINDS
    value: float  # as published, in `unit` (memory) or the kind's unit (samples/s, tokens/s, s, h)
    unit: str = ""  # memory: GiB | GB | MiB | MB
    cuda_context_included: bool | None = None  # memory: does the figure hold the CUDA context?
    samples: float | None = None  # hours: the samples the whole run trained on
    # reserved / nvidia-smi: the figure holds cached blocks the run never needed at once, which PyTorch's allocator
    # frees and retries with before it reports out of memory (cuDNN's benchmark workspaces): compared as published,
    # but left out of the fit band, which is about running out of memory
    releasable_reserve: bool = False

    @property
    def is_memory(self) -> bool:
        return self.kind in MEMORY_KINDS

    @property
    def bytes(self) -> float:
        """A memory figure in bytes."""
        return self.value * MEMORY_UNITS[self.unit or "GiB"]


@dataclass(frozen=True)
class EvidenceRow:
    id: str
    what: str
    quote: str
    how: str
    role: str  # calibration | validation
    family: str  # vision | nlp | diffusion | llm | speech
    source: Source
    model: ModelSpec
    train: TrainSpec
    gpu: str  # a catalog name (find_gpu)
    gpus: int
    nodes: int
    interconnect: str
    measured: Measured
    avg_len: int | None = None
    # the samples the whole run trained on, all GPUs together (memory rows whose steps change shape: how many steps
    # the caching allocator saw decides what it keeps cached; None: the harness's default data set)
    run_samples: int | None = None
    network_gbit_per_node: float | None = None  # each machine's NICs together, as the source's platform gives it
    power_limit_w: float | None = None  # each GPU's power limit where the source set one below the card's rating
    workload: str = ""  # the built-in job it starts from ("" = inline model)
    model_name: str = ""  # the file's [models] key
    note: str = ""
    file: str = ""

    @property
    def group(self) -> str:
        """The independent source group (leave-one-source-out, the 15 % cap)."""
        return self.source.independent_group

    @property
    def arch(self) -> str:
        return self.model.arch


def _model_from(where: str, name: str, raw: Any) -> tuple[ModelSpec, str]:
    """A [models.<name>] table → (ModelSpec, family of its base workload or "")."""
    vals = validate_table(where, raw, _MODEL_KEYS, f"models.{name}.")
    base = vals.pop("from_workload", None)
    if base is not None:
        try:
            w = get_workload(base)
        except UnknownName:
            raise BadInput(f"{where}: key 'models.{name}.from_workload': expected a built-in workload id, "
                           f"got {base!r:.60}") from None
        return dataclasses.replace(w.model, **vals), w.family
    for key in ("arch", "params"):
        if key not in vals:
            raise BadInput(f"{where}: missing key 'models.{name}.{key}' (or 'from_workload')")
    model = ModelSpec(**vals)
    check_experts(where, f"models.{name}.", model)
    return model, ""


def _measured(where: str, prefix: str, raw: Any) -> Measured:
    m = validate_table(where, raw, _MEASURED_SPEC, prefix)
    kind = m["kind"]
    if kind in MEMORY_KINDS:
        if "cuda_context_included" not in m:
            raise BadInput(f"{where}: missing key '{prefix}cuda_context_included' (true or false: a memory "
                           "figure says whether the CUDA context is in it)")
        ctx = m["cuda_context_included"]
        if kind in ("allocated_gib", "reserved_gib") and ctx:
            raise BadInput(f"{where}: key '{prefix}cuda_context_included': expected false for {kind} "
                           "(PyTorch's allocator never counts the CUDA context)")
        if m.get("releasable_reserve") and kind not in ("reserved_gib", "nvidia_smi_gib"):
            raise BadInput(f"{where}: key '{prefix}releasable_reserve': only reserved_gib / nvidia_smi_gib figures "
                           "hold cached blocks")
        if kind == "capacity_gib" and not ctx:
            raise BadInput(f"{where}: key '{prefix}cuda_context_included': expected true for capacity_gib "
                           "(the whole GPU's memory)")
    else:
        for key in ("unit", "cuda_context_included", "releasable_reserve"):
            if key in m:
                raise BadInput(f"{where}: key '{prefix}{key}': only memory figures take it ({kind} is a speed)")
    if kind == "hours" and "samples" not in m:
        raise BadInput(f"{where}: missing key '{prefix}samples' (a number: the samples the whole run trained on)")
    if kind != "hours" and "samples" in m:
        raise BadInput(f"{where}: key '{prefix}samples': only kind = \"hours\" takes it")
    return Measured(kind=kind, value=m["value"], unit=m.get("unit", "GiB" if kind in MEMORY_KINDS else ""),
                    cuda_context_included=m.get("cuda_context_included"), samples=m.get("samples"),
                    releasable_reserve=bool(m.get("releasable_reserve", False)))


def _row(where: str, i: int, raw: Any, defaults: dict[str, Any], models: dict[str, tuple[ModelSpec, str]],
         source: Source) -> EvidenceRow:
    if not isinstance(raw, dict):
        raise BadInput(f"{where}: key 'row[{i}]': expected a table, got {raw!r:.60}")
    merged = {**defaults, **{k: v for k, v in raw.items() if k != "measured"}}
    rid = raw.get("id", f"row[{i}]")
    prefix = f"row '{rid}'." if isinstance(rid, str) else f"row[{i}]."
    r = validate_table(where, merged, _ROW_SPEC, prefix)
    if "measured" not in raw:
        raise BadInput(f"{where}: missing key '{prefix}measured' (a table: kind, value, …)")
    measured = _measured(where, prefix + "measured.", raw["measured"])
    if ("workload" in r) == ("model" in r):
        raise BadInput(f"{where}: {prefix.rstrip('.')}: give exactly one of 'workload' (a built-in job id) and "
                       "'model' (a name in this file's [models])")
    base_train = TrainSpec()
    family = ""
    if "workload" in r:
        try:
            w = get_workload(r["workload"])
        except UnknownName:
            raise BadInput(f"{where}: key '{prefix}workload': expected a built-in workload id, "
                           f"got {r['workload']!r:.60}") from None
        model, base_train, family = w.model, w.train, w.family
    else:
        if r["model"] not in models:
            raise BadInput(f"{where}: key '{prefix}model': expected one of this file's [models] "
                           f"({', '.join(models) or 'none defined'}), got {r['model']!r:.60}")
        model, family = models[r["model"]]
    family = r.get("family", family)
    if r.get("gpus", 1) > 8 and "nodes" not in r:  # the harness places the GPUs in the machines the row names
        raise BadInput(f"{where}: missing key '{prefix}nodes' (a row of more than 8 GPUs says in how many machines)")
    if r.get("nodes", 1) > r.get("gpus", 1):
        raise BadInput(f"{where}: key '{prefix}nodes': expected at most the row's gpus ({r.get('gpus', 1)}), "
                       f"got {r['nodes']}")
    if not family:
        raise BadInput(f"{where}: missing key '{prefix}family' (one of {', '.join(FAMILIES)})")
    changes = {**_PUBLISHED_TRAIN, **{k: r[k] for k in _TRAIN_KEYS if k in r}}
    if "accumulation" in r:
        changes["grad_accum"] = r["accumulation"]
    train = dataclasses.replace(base_train, **changes)
    return EvidenceRow(
        id=r["id"], what=r["what"], quote=r["quote"], how=r["how"], role=r["role"], family=family, source=source,
        model=model, train=train, gpu=r["gpu"], gpus=r.get("gpus", 1), nodes=r.get("nodes", 1),
        interconnect=r.get("interconnect", ""), measured=measured, avg_len=r.get("avg_len"), run_samples=r.get("run_samples"),
        network_gbit_per_node=r.get("network_gbit_per_node"), power_limit_w=r.get("power_limit_w"),
        workload=r.get("workload", ""), model_name=r.get("model", ""), note=r.get("note", ""), file=where)


def parse_evidence(data: dict[str, Any], where: str, stem: str | None = None) -> tuple[Source, tuple[EvidenceRow, ...]]:
    """One evidence file's tables → (Source, rows); `stem` (the file name) must equal [source] id."""
    unknown = sorted(set(data) - set(_FILE_KEYS))
    if unknown:
        raise BadInput(f"{where}: unknown key '{unknown[0]}' (expected one of: {', '.join(_FILE_KEYS)})")
    if "source" not in data:
        raise BadInput(f"{where}: missing table [source]")
    src = validate_table(where, data["source"], _SOURCE_SPEC, "source.")
    if not (src.get("url") or src.get("repository")):
        raise BadInput(f"{where}: missing key 'source.url' (or 'source.repository' + 'source.path')")
    if stem is not None and src["id"] != stem:
        raise BadInput(f"{where}: key 'source.id': expected the file's name {stem!r}, got {src['id']!r:.60}")
    source = Source(**src)
    raw_models = data.get("models", {})
    if not isinstance(raw_models, dict):
        raise BadInput(f"{where}: key 'models': expected a table of model tables")
    models = {name: _model_from(where, name, raw) for name, raw in raw_models.items()}
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict) or "id" in defaults or "measured" in defaults:
        raise BadInput(f"{where}: key 'defaults': expected a table of row keys (not 'id' or 'measured')")
    rows_raw = data.get("row", [])
    if not isinstance(rows_raw, list) or not rows_raw:
        raise BadInput(f"{where}: key 'row': expected one or more [[row]] tables")
    rows = tuple(_row(where, i, raw, defaults, models, source) for i, raw in enumerate(rows_raw))
    return source, rows


def evidence_dir() -> Path:
    return resource_path("evidence")


def parse_evidence_file(path: Path) -> tuple[Source, tuple[EvidenceRow, ...]]:
    return parse_evidence(read_toml(path), str(path), path.stem)


@lru_cache(maxsize=1)
def load_evidence() -> tuple[EvidenceRow, ...]:
    """Every row of resources/evidence/*.toml, validated; row ids are unique across files."""
    rows: list[EvidenceRow] = []
    seen: dict[str, str] = {}
    for path in sorted(evidence_dir().glob("*.toml")):
        _, file_rows = parse_evidence_file(path)
        for r in file_rows:
            if r.id in seen:
                raise BadInput(f"{path}: row id '{r.id}' is also in {seen[r.id]}")
            seen[r.id] = path.name
        rows.extend(file_rows)
    return tuple(rows)


def load_sources() -> dict[str, Source]:
    """source id → Source, for every file that has rows."""
    return {r.source.id: r.source for r in load_evidence()}
