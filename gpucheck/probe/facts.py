"""The scan's reference tables (resources/probe.toml) as validated frozen records, loaded once.

`probe_facts() -> ProbeFacts`. Unknown keys, missing keys and wrong types are a `BadInput` naming the
file and the key: the file ships with the app, so a mistake in it is a bug a test catches, never a
silent fallback to numbers written in the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.resources import resource_path
from gpucheck.tomldata import read_toml, validate_table

_SRC = {"source": ("str", True, None, None, None), "as_of": ("str", True, None, None, None)}
_SRC_ONLY = {"source": ("str", True, None, None, None)}


def _num(lo: float | None = 0, hi: float | None = None) -> tuple:
    return ("float", True, lo, hi, None)


def _int(lo: float | None = 0, hi: float | None = None) -> tuple:
    return ("int", True, lo, hi, None)


_STR = ("str", True, None, None, None)


@dataclass(frozen=True)
class NvidiaArch:
    """One compute capability: architecture, tensor-core generation, CUDA cores per SM, first CUDA."""

    cc: str
    architecture: str
    tensor_core_generation: int
    cores_per_sm: int
    min_cuda: str


@dataclass(frozen=True)
class NvidiaFacts:
    bf16_min_cc: str  # "8.0": compared as a version, like the compute capability itself
    fp8_min_cc: str
    old_driver_below_cuda: str
    archs: tuple[NvidiaArch, ...]
    nvml_arch: Mapping[int, str]  # nvmlDeviceGetArchitecture() → name


@dataclass(frozen=True)
class AmdFacts:
    apu_names: Mapping[str, str]  # PCI device id (lower case, "0x15bf") → name
    gfx_arch: Mapping[str, str]  # "gfx1100" → "RDNA 3"


@dataclass(frozen=True)
class AppleFacts:
    small_ram_below_gib: float
    small_ram_fraction: float
    large_ram_fraction: float


@dataclass(frozen=True)
class PowerFacts:
    load_fraction: float
    round_to_w: int
    base_system_w: float
    cpu_tdp_desktop_w: float
    cpu_tdp_laptop_w: float
    cpu_tdp_server_socket_w: float
    cpu_tdp_apple_w: float


@dataclass(frozen=True)
class ChassisFacts:
    laptop_types: frozenset[int]
    desktop_types: frozenset[int]
    server_types: frozenset[int]


@dataclass(frozen=True)
class ProbeFacts:
    nvidia: NvidiaFacts
    amd: AmdFacts
    apple: AppleFacts
    power: PowerFacts
    chassis: ChassisFacts
    low_free_disk_gib: float  # [warnings]


def _table(where: str, data: dict[str, Any], name: str) -> dict[str, Any]:
    t = data.get(name)
    if not isinstance(t, dict):
        raise BadInput(f"{where}: missing table [{name}]")
    return t


def _ints(where: str, key: str, value: Any) -> frozenset[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise BadInput(f"{where}: key '{key}': expected a list of whole numbers, got {value!r:.60}")
    return frozenset(value)


def _names(where: str, key: str, table: Any, skip: tuple[str, ...] = ("source", "as_of")) -> dict[str, str]:
    if not isinstance(table, dict):
        raise BadInput(f"{where}: key '{key}': expected a table, got {table!r:.60}")
    out = {}
    for k, v in table.items():
        if k in skip:
            continue
        if not isinstance(v, str):
            raise BadInput(f"{where}: key '{key}.{k}': expected a string, got {v!r:.60}")
        out[k] = v
    return out


def _nvidia(where: str, t: dict[str, Any]) -> NvidiaFacts:
    rows, arch = t.get("cc"), t.get("nvml_arch")
    top = {k: v for k, v in t.items() if k not in ("cc", "nvml_arch")}
    v = validate_table(where, top, {**_SRC, "bf16_min_cc": _num(1, 20), "fp8_min_cc": _num(1, 20),
                                    "old_driver_below_cuda": _STR, "old_driver_source": _STR}, "nvidia.")
    if not isinstance(rows, list) or not rows:
        raise BadInput(f"{where}: expected one or more [[nvidia.cc]] tables")
    spec = {"cc": _STR, "architecture": _STR, "tensor_core_generation": _int(0, 10), "cores_per_sm": _int(1, 1024),
            "min_cuda": _STR}
    archs = tuple(NvidiaArch(**validate_table(where, r, spec, f"nvidia.cc[{i}].")) for i, r in enumerate(rows))
    names = _names(where, "nvidia.nvml_arch", arch)
    try:
        nvml = {int(k): n for k, n in names.items()}
    except ValueError:
        raise BadInput(f"{where}: key 'nvidia.nvml_arch': expected whole-number keys") from None
    return NvidiaFacts(bf16_min_cc=str(v['bf16_min_cc']), fp8_min_cc=str(v['fp8_min_cc']),
                       old_driver_below_cuda=v["old_driver_below_cuda"], archs=archs, nvml_arch=nvml)


def _amd(where: str, t: dict[str, Any]) -> AmdFacts:
    validate_table(where, {k: v for k, v in t.items() if k not in ("apu", "gfx")}, _SRC, "amd.")
    apu = t.get("apu")
    if not isinstance(apu, list):
        raise BadInput(f"{where}: key 'amd.apu': expected a list of {{ id, name }} tables")
    rows = [validate_table(where, r, {"id": _STR, "name": _STR}, f"amd.apu[{i}].") for i, r in enumerate(apu)]
    return AmdFacts(apu_names={r["id"].lower(): r["name"] for r in rows},
                    gfx_arch={k.lower(): n for k, n in _names(where, "amd.gfx", t.get("gfx"), ("source",)).items()})


def parse_probe_facts(data: dict[str, Any], where: str) -> ProbeFacts:
    """resources/probe.toml's tables → ProbeFacts; unknown keys and tables are errors."""
    known = ("nvidia", "amd", "apple", "power", "chassis", "warnings")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise BadInput(f"{where}: unknown table [{unknown[0]}] (expected one of: {', '.join(known)})")
    apple = validate_table(where, _table(where, data, "apple"), {
        **_SRC, "small_ram_below_gib": _num(1), "small_ram_fraction": _num(0.1, 1), "large_ram_fraction": _num(0.1, 1)},
        "apple.")
    power = validate_table(where, _table(where, data, "power"), {
        **_SRC, "load_fraction": _num(0.1, 1), "round_to_w": _int(1), "base_system_w": _num(),
        "cpu_tdp_desktop_w": _num(1), "cpu_tdp_laptop_w": _num(1), "cpu_tdp_server_socket_w": _num(1),
        "cpu_tdp_apple_w": _num(1), "cpu_tdp_source": _STR}, "power.")
    chassis = _table(where, data, "chassis")
    validate_table(where, {k: v for k, v in chassis.items() if not k.endswith("_types")}, _SRC_ONLY, "chassis.")
    warnings = validate_table(where, _table(where, data, "warnings"),
                              {**_SRC_ONLY, "low_free_disk_gib": _num()}, "warnings.")
    for k in ("source", "as_of", "cpu_tdp_source"):
        power.pop(k, None)
        apple.pop(k, None)
    return ProbeFacts(
        nvidia=_nvidia(where, _table(where, data, "nvidia")),
        amd=_amd(where, _table(where, data, "amd")),
        apple=AppleFacts(**apple),
        power=PowerFacts(**power),
        chassis=ChassisFacts(**{k: _ints(where, f"chassis.{k}", chassis.get(k))
                                for k in ("laptop_types", "desktop_types", "server_types")}),
        low_free_disk_gib=warnings["low_free_disk_gib"],
    )


@lru_cache(maxsize=1)
def probe_facts() -> ProbeFacts:
    path = resource_path("probe.toml")
    return parse_probe_facts(read_toml(path), str(path))


def version_key(v: str | None) -> tuple[int, ...]:
    """'12.4' → (12, 4); parts that are not numbers count as 0; None or '' → ()."""
    if not v:
        return ()
    out = []
    for p in str(v).split("."):
        try:
            out.append(int(p))
        except ValueError:
            out.append(0)
    return tuple(out)


def nvidia_cc(cc: str | None) -> NvidiaArch | None:
    """The row for a compute capability; an unknown newer minor falls back to the same major's row."""
    if not cc:
        return None
    rows = probe_facts().nvidia.archs
    for r in rows:
        if r.cc == cc:
            return r
    major = cc.split(".")[0]
    same = [r for r in rows if r.cc.split(".")[0] == major and version_key(r.cc) <= version_key(cc)]
    return same[-1] if same else None
