"""The catalogs in resources/ (GPUs, workloads), loaded into validated records (factors.toml: estimate/factors.py).

Files are found through `gpucheck.resources.resource_path()` (the one resource locator).

Public API (pure, cached, no Qt):
- `load_gpus() -> tuple[GpuSpec, ...]`            resources/gpus.toml, validated
- `find_gpu(name) -> GpuSpec`                     loose match ("4090", "RTX 4090", "NVIDIA GeForce RTX 4090",
                                                   "a100 80gb"); unknown → `UnknownName` with near matches
- `gpu_for(machine_gpu) -> GpuSpec | None`        the catalog entry for a scanned `machine.Gpu`
- `load_workloads() -> tuple[Workload, ...]`      resources/workloads/*.toml, sorted by level
- `get_workload(id_or_path) -> Workload`          a built-in id, a workload .toml, or a Hugging Face config.json
- `load_workload_file(path) -> Workload`          one workload TOML (users' own jobs)

Every validation error is a `BadInput` whose message names the file, the key and what was expected
(reading and validating TOML: gpucheck/tomldata.py, whose `read_toml` and `validate_table` are re-exported).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from gpucheck.errors import AmbiguousName, BadInput, UnknownName
from gpucheck.fileio import shorten
from gpucheck.hf_config import workload_from_config_file
from gpucheck.hf_types import settings_from
from gpucheck.i18n import tr
from gpucheck.records import DataSpec, GpuSpec, ModelSpec, TrainSpec, Workload
from gpucheck.resources import resource_path
from gpucheck.tomldata import _B, MAX_NAME_CHARS, _f, _i, _s, read_toml, shown_key, validate_table
from gpucheck.workload_schema import DATA_SPEC, MODEL_SPEC, TOP_SPEC, TRAIN_SPEC, check_experts

# -- GPUs ------------------------------------------------------------------------------------------

_GPU_SPEC: dict[str, tuple] = {
    "id": _s(True),
    "name": _s(True),
    "vendor": _s(True, ("nvidia", "amd", "apple", "intel")),
    "segment": _s(True, ("consumer", "laptop", "workstation", "datacenter", "apple", "integrated")),
    "backend": _s(True, ("cuda", "rocm", "metal", "xpu")),
    "vram_gib": _f(True, 0.5, 1024),
    "mem_bandwidth_gbps": _f(True, 10, 20000),
    "tflops_fp32": _f(True, 0.1, 500),
    "tflops_fp16_tensor": _f(False, 0.1, 10000),
    "tflops_bf16_tensor": _f(False, 0.1, 10000),
    "tflops_tf32_tensor": _f(False, 0.1, 5000),
    "tflops_fp8_tensor": _f(False, 0.1, 20000),
    "tdp_w": _f(False, 5, 3000),
    "architecture": _s(),
    "compute_capability": _s(),
    "tensor_cores": _B,
    "interconnect": _s(False, ("pcie", "nvlink", "infinity-fabric", "unified")),
    "nvlink_gbps": _f(False, 1, 10000),
    "pcie_gen": _i(False, 1, 7),
    "price_usd": _f(False, 1, 1e6),
    "price_cny": _f(False, 1, 1e7),
    "price_kind": _s(False, ("street", "msrp", "list")),
    "price_source": _s(),
    "price_as_of": _s(),
    "release_year": _i(False, 2000, 2100),
    "aliases": ("strlist", False, None, None, None),
    "memory_options_gib": ("floatlist", False, None, None, None),
    "memory_type": _s(),
    "sustained_clock_fraction": _f(False, 0.1, 1.0),
    "tflops_fp16_vector": _f(False, 0.1, 1000),
    "tflops_fp32_matrix": _f(False, 0.1, 1000),
    "vram_usable_mib": _f(False, 256, 1_100_000),
    "vram_usable_source": _s(),
    "modified": _B,
    "fp32_accumulate_full_rate": _B,
    "notes": _s(),
    "notes_zh": _s(),
    "source": _s(True),
    "as_of": _s(),
}

_SOURCE_SPEC = {"source": _s(True), "as_of": _s(True)}

_KEBAB = re.compile(r"^[a-z0-9][a-z0-9.]*(-[a-z0-9.]+)*$")
GIB = 1024**3


def _resolve_source(where: str, key: str, value: str, sources: dict[str, dict]) -> tuple[str, str]:
    """A source is either a key of the [sources] table or free text."""
    if value in sources:
        return sources[value]["source"], sources[value]["as_of"]
    return value, ""


def parse_gpus(data: dict[str, Any], where: str) -> tuple[GpuSpec, ...]:
    allowed = {"schema", "sources", "gpu"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BadInput(f"{where}: unknown key '{shown_key(unknown[0])}' (expected one of: gpu, schema, sources)")
    raw_sources = data.get("sources", {})
    if not isinstance(raw_sources, dict):
        raise BadInput(f"{where}: key 'sources': expected a table")
    sources = {k: validate_table(where, v, _SOURCE_SPEC, f"sources.{k}.") for k, v in raw_sources.items()}
    entries = data.get("gpu")
    if not isinstance(entries, list) or not entries:
        raise BadInput(f"{where}: key 'gpu': expected a list of [[gpu]] tables")
    out: list[GpuSpec] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        v = validate_table(where, entry, _GPU_SPEC, f"gpu[{i}].")
        if not _KEBAB.match(v["id"]):
            raise BadInput(f"{where}: key 'gpu[{i}].id': expected kebab-case, got {v['id']!r}")
        if v["id"] in seen:
            raise BadInput(f"{where}: key 'gpu[{i}].id': duplicate id {v['id']!r}")
        seen.add(v["id"])
        source, as_of = _resolve_source(where, f"gpu[{i}].source", v.pop("source"), sources)
        price_source = v.pop("price_source", "")
        price_as_of = v.pop("price_as_of", "")
        if price_source:
            price_source, p_as_of = _resolve_source(where, f"gpu[{i}].price_source", price_source, sources)
            price_as_of = price_as_of or p_as_of
        vram = v.pop("vram_gib")
        if v.get("vram_usable_mib") is not None:
            usable_src = v.get("vram_usable_source", "")
            if not usable_src:
                raise BadInput(f"{where}: key 'gpu[{i}].vram_usable_source': needed beside vram_usable_mib "
                               "(where the nvidia-smi figure was read)")
            text, when = _resolve_source(where, f"gpu[{i}].vram_usable_source", usable_src, sources)
            v["vram_usable_source"] = f"{text} ({when})" if when else text
            if v["vram_usable_mib"] * 2**20 > vram * GIB * 1.001:
                raise BadInput(f"{where}: key 'gpu[{i}].vram_usable_mib': more than vram_gib ({vram:g} GiB)")
        out.append(
            GpuSpec(
                vram_bytes=int(round(vram * GIB)),
                tflops_fp16_tensor=v.pop("tflops_fp16_tensor", None),
                tflops_bf16_tensor=v.pop("tflops_bf16_tensor", None),
                source=source,
                as_of=v.pop("as_of", "") or as_of,
                price_source=price_source,
                price_as_of=price_as_of,
                **v,
            )
        )
    return tuple(out)


@lru_cache(maxsize=1)
def load_gpus() -> tuple[GpuSpec, ...]:
    """Every GPU in resources/gpus.toml, in file order (the most common variant of a name first)."""
    path = resource_path("gpus.toml")
    return parse_gpus(read_toml(path), str(path))


_VENDOR_WORDS = {"nvidia", "geforce", "amd", "radeon", "apple", "intel", "tesla", "graphics", "gpu",
                 "the", "with", "generation", "ati", "corporation", "inc", "chip", "r", "tm"}  # "Intel(R) Arc(TM)"


def _norm_tokens(text: str) -> tuple[str, ...]:
    t = text.lower().replace("™", " ").replace("®", " ")
    t = re.sub(r"(\d+)\s*(gb|g)\b", r"\1gb", t)  # "80 GB" → "80gb"
    t = re.sub(r"[^a-z0-9]+", " ", t)
    # split letter-digit joints used inconsistently: "rtx4090" → "rtx 4090", but keep "a100", "m2", "h100"
    t = re.sub(r"\b(rtx|gtx|rx|arc)(\d)", r"\1 \2", t)
    t = re.sub(r"\b(\d{3,4})(ti|d|super|xtx|xt)\b", r"\1 \2", t)  # "4090D", "3060ti", "7900xtx"
    t = t.replace("super", " super ")
    toks = [w for w in t.split() if w and w not in _VENDOR_WORDS]
    return tuple(toks)


@lru_cache(maxsize=1)
def _gpu_index() -> tuple[tuple[GpuSpec, tuple[frozenset[str], ...]], ...]:
    out = []
    for g in load_gpus():
        keys = {frozenset(_norm_tokens(g.name)), frozenset(_norm_tokens(g.id.replace("-", " ")))}
        for a in g.aliases:
            keys.add(frozenset(_norm_tokens(a)))
        out.append((g, tuple(k for k in keys if k)))
    return tuple(out)


def _match_gpus(name: str) -> list[tuple[int, int, GpuSpec]]:
    """Candidates whose name holds every word of `name`, with the number of extra words."""
    q = frozenset(_norm_tokens(name))
    if not q:
        return []
    found = []
    for order, (g, keys) in enumerate(_gpu_index()):
        best = None
        for k in keys:
            if q <= k:
                extra = len(k - q)
                best = extra if best is None else min(best, extra)
        if best is not None:
            found.append((best, order, g))
    found.sort(key=lambda t: (t[0], t[1]))
    return found


_MEM_TOKEN = re.compile(r"^(\d+(?:\.\d+)?)gb$")


def _split_memory(tokens: tuple[str, ...]) -> tuple[frozenset[str], float | None]:
    """(the words of a name without its memory size, the memory size in GB it names, if any)."""
    mem = None
    words = []
    for w in tokens:
        m = _MEM_TOKEN.match(w)
        if m:
            mem = float(m.group(1))
        else:
            words.append(w)
    return frozenset(words), mem


def _memory_choices(g: GpuSpec) -> tuple[float, ...]:
    """The memory sizes a card (or an Apple chip) is sold with, in GB."""
    return g.memory_options_gib or (round(g.vram_bytes / GIB, 1),)


def _with_memory(g: GpuSpec, gib: float) -> GpuSpec:
    """An Apple chip with one of its memory configurations (the GPU uses the unified memory)."""
    if not g.memory_options_gib:
        return g
    label = f"{gib:g}GB"
    return dataclasses.replace(g, id=f"{g.id}-{label.lower()}", name=f"{g.name} {label}",
                               vram_bytes=int(round(gib * GIB)), memory_options_gib=())


def gpu_choice_label(g: GpuSpec) -> str:
    """A name that tells memory variants apart: "NVIDIA GeForce RTX 3060 (12 GB)"."""
    sizes = "/".join(f"{x:g}" for x in _memory_choices(g))
    if re.search(r"\d\s*GB\b", g.name):
        return g.name
    return f"{g.name} ({sizes} GB)"


# Words that tell a card's form factor or memory kind apart, not the card: "a100" means all four A100s
# (SXM4/PCIe, 40/80 GB), so these words do not make one variant a worse match than another.
_FORM_WORDS = frozenset({"sxm", "sxm2", "sxm4", "sxm5", "pcie", "hbm2", "hbm2e", "hbm3", "hbm3e", "nvl"})
# Words a laptop GPU's name carries: without one of them a name means the desktop card ("RTX 3060 6GB" is
# not silently the 6 GB laptop part)
_LAPTOP_WORDS = frozenset({"laptop", "mobile", "max", "q", "notebook"})


def _laptop_named(q: frozenset[str]) -> bool:
    return bool(q & _LAPTOP_WORDS)


def gpu_candidates(name: str) -> list[GpuSpec]:
    """Every catalog GPU (with its memory size, for chips sold with several) that `name` could mean,
    best first; one entry when the name is unambiguous. A laptop part only when the name says so."""
    return _candidates(name)[0]


def _candidates(name: str) -> tuple[list[GpuSpec], list[GpuSpec]]:
    """(the candidates, laptop parts left out because the name did not say "laptop")."""
    q, mem = _split_memory(_norm_tokens(name))
    if not q:
        return [], []
    scored: list[tuple[int, int, GpuSpec]] = []
    laptops: list[GpuSpec] = []
    for order, (g, keys) in enumerate(_gpu_index()):
        extras = [len((k - q) - _FORM_WORDS) for k in (_split_memory(tuple(k))[0] for k in keys) if q <= k]
        if not extras:
            continue
        if g.modified and mem is None and "modified" not in q:
            continue  # a rebuilt card only when its memory size is named ("RTX 4090 48GB"), never for "4090"
        if g.segment == "laptop" and not _laptop_named(q):
            if mem is None or any(abs(x - mem) < 0.6 for x in _memory_choices(g)):
                laptops.append(g)
            continue
        sizes = _memory_choices(g)
        if mem is not None:
            if not any(abs(x - mem) < 0.6 for x in sizes):
                continue
            scored.append((min(extras), order, _with_memory(g, mem)))
        elif g.memory_options_gib:
            scored += [(min(extras), order, _with_memory(g, x)) for x in sizes]
        else:
            scored.append((min(extras), order, g))
    scored.sort(key=lambda t: (t[0], t[1]))
    if not scored:
        return [], laptops
    best = scored[0][0]
    return [g for (e, _o, g) in scored if e == best], laptops


def find_gpu(name: str) -> GpuSpec:
    """The catalog GPU named loosely by `name` ("4090", "RTX 3060 12GB", "a100 80gb", "Apple M1 8GB").
    A name that fits several cards (or memory sizes) raises `AmbiguousName` listing them: never a guess."""
    if not isinstance(name, str) or not name.strip():
        raise BadInput(tr("--gpu: expected a GPU name such as '4090' or 'a100 80gb'"))
    if len(name) > MAX_NAME_CHARS:  # no GPU name is that long: not looked up, not echoed whole
        raise UnknownName(tr("unknown GPU '{name}' (see 'gpucheck gpus' for the list)", name=shorten(name, 80)))
    return _find_gpu(name)


@lru_cache(maxsize=1024)
def _find_gpu(name: str) -> GpuSpec:
    """find_gpu's lookup, kept per name: the catalog does not change while the program runs, and the advice looks
    the same cloud and upgrade GPUs up for every job (a name that matches no card, or several, raises each time)."""
    s = name.strip().lower()
    for g in load_gpus():
        if (s == g.id or s == g.name.lower() or s in (a.lower() for a in g.aliases)) and not g.memory_options_gib:
            return g
    found, laptops = _candidates(name)
    if len(found) == 1:
        return found[0]
    if not found and laptops:  # "RTX 3060 6GB": only the laptop part has that size; say so, pick nothing
        raise UnknownName(tr("unknown GPU '{name}': no desktop card has that name, a laptop GPU does",
                             name=name), tuple(g.name for g in laptops[:4]))
    if found:
        raise AmbiguousName(tr("--gpu '{name}' fits several GPUs; name one (with its memory size, e.g. "
                               "'RTX 3060 12GB'):", name=name), tuple(gpu_choice_label(g) if not
                                                                      g.memory_options_gib else g.name
                                                                      for g in found))
    names = [g.name for g in load_gpus()]
    near = difflib.get_close_matches(name, names, n=4, cutoff=0.4)
    if not near:
        low = {g.id: g.name for g in load_gpus()}
        near = [low[i] for i in difflib.get_close_matches(s.replace(" ", "-"), list(low), n=4, cutoff=0.4)]
    raise UnknownName(tr("unknown GPU '{name}' (see 'gpucheck gpus' for the list)", name=shorten(name, 80)),
                      tuple(near))


def gpu_for(machine_gpu: Any) -> GpuSpec | None:
    """The catalog entry for a scanned `machine.Gpu` (by catalog_id, else by name and VRAM size)."""
    cid = getattr(machine_gpu, "catalog_id", None)
    if cid:
        for g in load_gpus():
            if g.id == cid:
                return g
    name = getattr(machine_gpu, "name", "") or ""
    found = _match_gpus(name)
    if not found:
        # scanned names carry extra words ("NVIDIA A100-SXM4-80GB"): try each catalog key ⊆ name
        q = frozenset(_norm_tokens(name))
        cands = []
        for order, (g, keys) in enumerate(_gpu_index()):
            for k in keys:
                if k and k <= q:
                    cands.append((-len(k), order, g))
                    break
        cands.sort(key=lambda t: (t[0], t[1]))
        found = [(0, o, g) for (_n, o, g) in cands]
        if cands:
            top = cands[0][0]
            found = [(0, o, g) for (n, o, g) in cands if n == top]
    if not found:
        return None
    vram = getattr(machine_gpu, "vram_total_bytes", None)
    if vram and getattr(machine_gpu, "vendor", "") == "apple":
        # one Apple chip name, several GPUs: the memory size tells them apart (a 36 GB M3 Max has the 30-core GPU)
        sized = [g for (_e, _o, g) in found if any(abs(x - vram / GIB) < 0.6 for x in _memory_choices(g))]
        if sized:
            return sized[0]
    best_extra = found[0][0]
    same = [g for (e, _o, g) in found if e == best_extra]
    if vram and getattr(machine_gpu, "vendor", "") != "apple":
        # cards sold with several memory sizes (RTX 3060 8/12 GB, 3080 10/12 GB): the scanned size decides
        variants = [g for g in gpu_candidates(name) if not g.memory_options_gib]
        same = list(dict.fromkeys(same + [g for g in variants if g.vendor == same[0].vendor]))
        same.sort(key=lambda g: abs(g.vram_bytes - vram))
    return same[0]


# -- workloads -------------------------------------------------------------------------------------

# the keys of a workload file: gpucheck/workload_schema.py


def parse_workload(data: dict[str, Any], where: str, path: str | None = None) -> Workload:
    spec = dict(TOP_SPEC, model=None, train=None, data=None)
    unknown = sorted(set(data) - set(spec))
    if unknown:
        raise BadInput(tr("{where}: unknown key '{key}' (expected one of: {names})", where=where,
                          key=shorten(shown_key(unknown[0]), 60), names=shorten(", ".join(sorted(spec)), 200)))
    top = validate_table(where, {k: v for k, v in data.items() if k in TOP_SPEC}, TOP_SPEC)
    if not _KEBAB.match(top["id"]):
        raise BadInput(f"{where}: key 'id': expected kebab-case like 'my-job', got {top['id']!r}")
    for section in ("model", "data"):
        if section not in data:
            raise BadInput(f"{where}: missing table [{section}]")
    m = validate_table(where, data["model"], MODEL_SPEC, "model.")
    t = validate_table(where, data.get("train", {}), TRAIN_SPEC, "train.")
    d = validate_table(where, data["data"], DATA_SPEC, "data.")
    model = ModelSpec(**m)
    if len(model.step_tensor_elements) != len(model.step_tensor_counts):
        raise BadInput(tr("{where}: keys 'model.step_tensor_elements' and 'model.step_tensor_counts': expected lists "
                          "of the same length", where=where))
    if model.arch == "transformer":
        for key in ("layers", "hidden", "heads"):
            if getattr(model, key) is None:
                raise BadInput(f"{where}: missing key 'model.{key}' (an integer; needed for a transformer)")
        if model.kv_heads and model.heads and model.heads % model.kv_heads:
            raise BadInput(f"{where}: key 'model.kv_heads': expected a divisor of model.heads ({model.heads})")
        check_experts(where, "model.", model)
    else:
        if model.forward_gflops is None:
            raise BadInput(f"{where}: missing key 'model.forward_gflops' (a number; needed for arch "
                           f"'{model.arch}')")
        if model.activation_mib is None:
            raise BadInput(f"{where}: missing key 'model.activation_mib' (a number; needed for arch "
                           f"'{model.arch}')")
    train = TrainSpec(**t)
    if model.arch != "transformer" and train.method == "qlora":
        raise BadInput(f"{where}: key 'train.method': 'qlora' needs a transformer model (model.arch)")
    data_spec = DataSpec(**d)
    top.setdefault("level", 0)  # 0: not on the built-in ladder (shown as "—")
    return Workload(model=model, train=train, data=data_spec, path=path, **top)


def load_workload_file(path: str | Path) -> Workload:
    p = Path(path)
    return parse_workload(read_toml(p), str(p), path=str(p))


@lru_cache(maxsize=1)
def load_workloads() -> tuple[Workload, ...]:
    """The built-in ladder, sorted by level (then id)."""
    folder = resource_path("workloads")
    items: list[Workload] = []
    ids: dict[str, str] = {}
    for p in sorted(folder.glob("*.toml")):
        w = parse_workload(read_toml(p), str(p))
        if w.id in ids:
            raise BadInput(f"{p}: key 'id': duplicate workload id {w.id!r} (also in {ids[w.id]})")
        ids[w.id] = str(p)
        items.append(w)
    return tuple(sorted(items, key=lambda w: (w.level, w.id)))


def _with_builtin_settings(w: Workload) -> Workload:
    """A config.json whose type starts from a built-in job's settings (resources/hf_types.toml settings_from: a
    Whisper checkpoint trains as the built-in Whisper job does) gets that job's training settings and data."""
    ref = settings_from(w.model.model_type)
    if not ref:
        return w
    b = get_workload(ref)
    model = dataclasses.replace(w.model, decoder_seq_len=b.model.decoder_seq_len)
    return dataclasses.replace(w, model=model, train=b.train, data=b.data, family=b.family)


def get_workload(id_or_path: str | Path) -> Workload:
    """A built-in workload by id, a workload .toml file, or a Hugging Face config.json."""
    s = str(id_or_path).strip()
    for w in load_workloads():
        if w.id == s:
            return w
    p = Path(s)
    if p.suffix.lower() == ".json" or p.name == "config.json" or (p.is_dir() and (p / "config.json").is_file()):
        return _with_builtin_settings(workload_from_config_file(p / "config.json" if p.is_dir() else p))
    if p.is_dir() and (p / "model_index.json").is_file():  # a downloaded diffusers pipeline: says what it is
        return workload_from_config_file(p / "model_index.json")
    if p.suffix.lower() == ".toml" or p.exists():
        return load_workload_file(p)
    ids = [w.id for w in load_workloads()]
    near = difflib.get_close_matches(s, ids, n=4, cutoff=0.4)
    if not near:
        near = [i for i in ids if any(part and part in i for part in s.lower().split("-"))][:4]
    raise UnknownName(
        tr("unknown workload '{name}' (a built-in id, a workload .toml or a config.json; "
           "see 'gpucheck workloads')", name=shorten(s, 120)),
        tuple(near),
    )
