"""The Machine record: what a scan found, as frozen dataclasses with units in field names.

`None` means unknown; the reason for every unknown is a `Finding` in `Machine.findings`.
Texts (findings, reasons, notes) are stored as rendered when scanned and as their English template and values
(`gpucheck.i18n.Text`), so readers show them in their own language (`reason_shown`, `notes_shown`, …).
`Machine.to_dict()` / `Machine.from_dict()` round-trip through JSON; `from_dict` validates types and
raises `BadInput` naming the key and what was expected.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from gpucheck.errors import BadInput
from gpucheck.fileio import read_bytes_limited, shorten
from gpucheck.i18n import N_, Text, show_text, show_texts, text_of, tr

SCHEMA_VERSION = 1

SEVERITIES = ("info", "ok", "unknown", "warning", "error")
GPU_VENDORS = ("nvidia", "amd", "apple", "intel", "other")
GPU_BACKENDS = ("cuda", "rocm", "metal", "xpu", "directml", "none", "unknown")
DISK_KINDS = ("nvme", "ssd", "hdd", "virtual", "network", "removable", "unknown")


@dataclass(frozen=True)
class Finding:
    """One thing the user should know: an unknown with its reason, a warning, or a good sign."""

    area: str  # gpu | cpu | memory | disk | power | software | scan
    severity: str  # one of SEVERITIES
    message: str  # rendered in the language that was active when it was made (what older readers show)
    code: str = ""  # stable id, e.g. "nvidia.no_driver"; lets a UI re-render or filter
    # The English source text with {placeholders}, exactly as in the translation catalog, and the values
    # that fill them (English where the value is itself a catalog string; a quoted reason is a Text of its
    # own). With these, a finding is shown in any language: gpucheck.i18n.finding_text(f). Empty in scans
    # saved by older versions.
    template: str = ""
    params: tuple[tuple[str, str | Text], ...] = ()  # (placeholder name, value) pairs


@dataclass(frozen=True)
class MigSlice:
    name: str
    memory_total_bytes: int | None = None
    gpu_instance_id: int | None = None
    sm_count: int | None = None  # streaming multiprocessors of the slice: its share of the GPU's compute


@dataclass(frozen=True)
class Gpu:
    name: str
    vendor: str  # one of GPU_VENDORS
    backend: str  # one of GPU_BACKENDS: the training API this GPU is reached through
    vram_total_bytes: int | None = None
    vram_free_bytes: int | None = None
    # what the driver keeps for itself (firmware, ECC and the like; NVML's v2 memory figures): no program can
    # allocate it, and it is neither free nor in use by programs. None: unknown (older drivers, other vendors)
    vram_reserved_bytes: int | None = None
    index: int = 0
    source: str = ""  # nvml | amdsmi | rocm-smi | sysfs | registry | system_profiler | nvidia-smi | lspci
    uuid: str | None = None  # kept out of reports unless the user opts in
    pci_bus_id: str | None = None
    memory_kind: str = "dedicated"  # dedicated | carve-out (APU) | shared | unified (Apple)
    shared_memory_bytes: int | None = None  # system RAM the GPU may borrow (APU GTT, Windows shared)
    usable_memory_bytes: int | None = None  # Apple: recommendedMaxWorkingSetSize; else None
    is_discrete: bool | None = None
    is_primary_compute: bool = False  # the GPU a training job would run on (hybrid laptops: the discrete one)
    compute_capability: str | None = None  # NVIDIA "8.6"; AMD "gfx1100"
    architecture: str | None = None  # Ampere, Ada Lovelace, RDNA 3, Apple M2 …
    tensor_core_generation: int | None = None  # 0 = none
    supports_bf16: bool | None = None
    supports_fp8: bool | None = None
    sm_count: int | None = None  # NVIDIA SMs / AMD compute units / Apple GPU cores
    clock_graphics_mhz: int | None = None
    clock_graphics_max_mhz: int | None = None
    clock_memory_max_mhz: int | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    nvlink_links: int | None = None  # active links
    nvlink_peers: tuple[str, ...] = ()  # PCI bus ids of peers reached over NVLink
    power_draw_w: float | None = None
    power_limit_w: float | None = None
    power_default_limit_w: float | None = None
    power_max_limit_w: float | None = None
    temperature_c: float | None = None
    throttle_reasons: tuple[str, ...] = ()  # active now: thermal, power_cap, hw_slowdown, …
    driver_version: str | None = None
    cuda_driver_version: str | None = None  # "12.4": newest CUDA the driver supports
    mig_enabled: bool | None = None
    mig_slices: tuple[MigSlice, ...] = ()
    display_active: bool | None = None  # also drives a display (its VRAM is partly taken)
    catalog_id: str | None = None  # the matching resources/gpus.toml entry, when one matched


@dataclass(frozen=True)
class Cpu:
    brand: str | None = None
    vendor: str | None = None  # intel | amd | apple | arm | other
    arch: str | None = None  # x86_64 | arm64 | …
    physical_cores: int | None = None
    logical_cores: int | None = None
    performance_cores: int | None = None  # hybrid CPUs / Apple P-cores
    base_clock_mhz: float | None = None
    max_clock_mhz: float | None = None
    # one busy core's clock, measured by the scan where the system reports none (gpucheck/probe/clock.py)
    measured_clock_mhz: float | None = None
    l2_cache_bytes: int | None = None
    l3_cache_bytes: int | None = None
    flags: tuple[str, ...] = ()  # the ones that matter for ML: avx2, avx512f, amx_tile, neon, …
    sockets: int | None = None
    tdp_w: float | None = None  # estimated (catalog or class default); see Power.notes


@dataclass(frozen=True)
class Memory:
    total_bytes: int | None = None
    available_bytes: int | None = None
    swap_total_bytes: int | None = None
    swap_free_bytes: int | None = None
    shared_with_gpu: bool = False  # Apple / APU: the GPU draws from this RAM


@dataclass(frozen=True)
class Disk:
    device: str
    mount: str
    kind: str = "unknown"  # one of DISK_KINDS
    filesystem: str | None = None
    total_bytes: int | None = None
    free_bytes: int | None = None
    model: str | None = None
    kind_reason: str = ""  # how the kind was decided (rendered in the scan's language)
    kind_reason_text: Text | None = None  # the same, kept to show in any language (None in older scans)


@dataclass(frozen=True)
class Power:
    on_battery: bool | None = None
    battery_percent: float | None = None
    is_laptop: bool | None = None
    gpu_power_limit_w_total: float | None = None
    cpu_tdp_w: float | None = None
    estimated_peak_system_w: float | None = None  # an estimate: the app cannot read the PSU
    recommended_psu_w: int | None = None
    notes: tuple[str, ...] = ()  # rendered in the scan's language; show them with notes_shown(power)
    psu_rated_w: int | None = None  # stated by the user (label on the PSU); a scan cannot read it
    notes_text: tuple[Text | None, ...] = ()  # notes kept to show in any language, one per note (None: plain)
    # a server (server chassis, several CPU sockets or datacenter GPUs): its vendor sizes its (redundant)
    # power supplies, so no PSU size is suggested; None = unknown (or a scan made before this was recorded)
    is_server: bool | None = None


@dataclass(frozen=True)
class Framework:
    name: str  # torch | tensorflow | jax
    version: str
    cuda_version: str | None = None  # the CUDA the build was made for, None if CPU-only or unknown
    rocm_version: str | None = None
    variant: str | None = None  # "cu121", "rocm6.0", "cpu", "metal"
    location: str | None = None
    can_use_gpu: bool | None = None
    reason: str = ""  # rendered in the scan's language; show it with reason_shown(framework)
    reason_text: Text | None = None  # the same, kept to show in any language (None in older scans)


@dataclass(frozen=True)
class Software:
    os_name: str | None = None  # Linux | Windows | macOS
    os_version: str | None = None
    platform: str | None = None  # linux | windows | darwin | wsl
    kernel: str | None = None
    python_version: str | None = None
    nvidia_driver_version: str | None = None
    cuda_driver_version: str | None = None
    rocm_version: str | None = None
    frameworks: tuple[Framework, ...] = ()


@dataclass(frozen=True)
class Measured:
    """Figures measured by the deep scan (gpucheck scan --deep). None = not measured."""

    gpu_name: str | None = None
    gpu_tflops_fp32: float | None = None
    gpu_tflops_tf32: float | None = None
    gpu_tflops_fp16: float | None = None
    gpu_tflops_bf16: float | None = None
    gpu_mem_bandwidth_gbps: float | None = None
    h2d_pinned_gbps: float | None = None
    h2d_pageable_gbps: float | None = None
    d2h_pinned_gbps: float | None = None
    gpu_allocatable_bytes: int | None = None
    gpu_temperature_before_c: float | None = None
    gpu_temperature_after_c: float | None = None
    gpu_throttle_after: tuple[str, ...] = ()
    cpu_images_per_s_one_core: float | None = None
    cpu_images_per_s_all_cores: float | None = None
    cpu_text_mb_per_s: float | None = None
    disk_path: str | None = None
    disk_seq_read_mb_per_s: float | None = None
    disk_rand_read_mb_per_s: float | None = None
    ram_copy_gbps: float | None = None  # one thread: one core's rate (gpucheck/bench/ram.py)
    duration_s: float | None = None
    gpu_backend: str | None = None  # cuda | rocm | mps | cpu (torch device the GPU figures came from)
    torch_version: str | None = None
    gpu_free_reported_bytes: int | None = None  # what the driver said was free before the allocation test
    cpu_threads: int | None = None  # threads behind cpu_images_per_s_all_cores
    cpu_images_method: str | None = None  # pillow-jpeg (500x375 JPEG decode + resize to 224) | zlib (decode only)
    disk_seq_write_mb_per_s: float | None = None
    disk_mount: str | None = None  # mount point (Linux/macOS) or drive (Windows) holding disk_path
    disk_cache_mode: str | None = None  # direct | dropped | nocache | cached (see gpucheck/bench/disk.py)
    disk_rand_block_bytes: int | None = None  # block size behind disk_rand_read_mb_per_s (128 KiB)
    disk_rand_threads: int | None = None  # parallel readers behind disk_rand_read_mb_per_s (8, like loader workers)
    disk_rand_4k_qd1_mb_per_s: float | None = None  # classic 4 KiB random reads, one at a time
    ram_copy_all_gbps: float | None = None  # every thread at once: the memory's rate (scans before 2026-12 lack it)
    ram_threads: int | None = None  # threads behind ram_copy_all_gbps
    budget_s: float | None = None  # the time cap the deep scan ran under
    cancelled: bool = False  # stopped by the user; figures not reached stay None
    notes: tuple[str, ...] = ()  # rendered in the scan's language; show them with notes_shown(measured)
    notes_text: tuple[Text | None, ...] = ()  # notes kept to show in any language, one per note (None: plain)


@dataclass(frozen=True)
class Machine:
    schema_version: int = SCHEMA_VERSION
    app_version: str = ""
    created_at: str = ""  # ISO 8601, UTC
    hostname: str | None = None  # kept out of reports unless the user opts in
    gpus: tuple[Gpu, ...] = ()
    cpu: Cpu = field(default_factory=Cpu)
    memory: Memory = field(default_factory=Memory)
    disks: tuple[Disk, ...] = ()
    power: Power = field(default_factory=Power)
    software: Software = field(default_factory=Software)
    findings: tuple[Finding, ...] = ()
    measured: Measured | None = None
    scan_seconds: float | None = None
    label: str | None = None  # where it came from when loaded: a file name, a fixture name

    # -- derived views (no state) --------------------------------------------------------------
    def compute_gpus(self) -> tuple[Gpu, ...]:
        """GPUs a training job would run on: primary-compute ones if marked, else all with a backend."""
        marked = tuple(g for g in self.gpus if g.is_primary_compute)
        if marked:
            return marked
        return tuple(g for g in self.gpus if g.backend not in ("none", "unknown"))

    def to_dict(self) -> dict[str, Any]:
        return _to_jsonable(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, where: str = "machine") -> Machine:
        if not isinstance(data, dict):
            raise BadInput(tr("{where}: expected a JSON object with a gpucheck scan", where=where))
        # A JSON report carries the machine under "machine" (a Machine itself has no "machine" key;
        # the report's own "schema_version" versions the report, not the machine).
        if isinstance(data.get("machine"), dict):
            data = data["machine"]
            where = f"{where}: machine"
        if "schema_version" not in data:
            raise BadInput(tr("{where}: missing 'schema_version' — is this a gpucheck scan?", where=where))
        version = data["schema_version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadInput(tr("{where}: key '{key}': expected an integer, got {got}", where=where, key="schema_version",
                              got=shorten(repr(version), 60)))
        if version != SCHEMA_VERSION:
            raise BadInput(tr("{where}: schema_version {version} is not supported (this gpucheck reads {supported})",
                              where=where, version=version, supported=SCHEMA_VERSION))
        try:
            return _from_jsonable(cls, data, where)
        except RecursionError:  # texts quoted inside texts, nested hundreds deep: no scan looks like that
            raise BadInput(tr("{where}: nested too deeply", where=where)) from None

    @classmethod
    def load(cls, path: str | Path) -> Machine:
        p = Path(path)
        shown = shorten(str(p))
        try:
            text = read_bytes_limited(p).decode("utf-8")
        except FileNotFoundError:
            raise BadInput(tr("{path}: file not found", path=shown)) from None
        except IsADirectoryError:
            raise BadInput(tr("{path}: is a folder, not a scan file", path=shown)) from None
        except PermissionError:
            raise BadInput(tr("{path}: permission denied", path=shown)) from None
        except UnicodeDecodeError:
            raise BadInput(tr("{path}: not a text file (expected JSON from 'gpucheck scan --json')", path=shown)) from None
        except OSError as e:
            raise BadInput(tr("{path}: cannot read ({reason})", path=shown, reason=e.strerror or e)) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise BadInput(tr("{path}: not valid JSON (line {line}, column {column}: {reason})", path=shown, line=e.lineno,
                              column=e.colno, reason=e.msg)) from None
        except RecursionError:
            raise BadInput(tr("{path}: not valid JSON (nested too deeply)", path=shown)) from None
        except ValueError:  # Python refuses integers of more than 4300 digits
            raise BadInput(tr("{path}: not valid JSON (a number with more than 4300 digits)", path=shown)) from None
        m = cls.from_dict(data, where=shown)
        if m.label is None:
            m = dataclasses.replace(m, label=p.stem)
        return m


# -- texts a scan keeps: stored rendered (for older readers) and as a Text (for any language) -------------

def kept(value: str, field_name: str) -> dict[str, Any]:
    """{field: the text as rendered now, field_text: its Text}: for a record's text field and its `_text`
    twin, from a tr_text() result (a plain str keeps no Text: None). `Framework(..., **kept(why, "reason"))`."""
    return {field_name: str(value), f"{field_name}_text": text_of(value)}


def with_notes(record: Any, notes: Any) -> Any:
    """`record` (a Power or a Measured) with `notes` added after its own: each as rendered now, and its
    Text where it was made with tr_text() (None for a plain note)."""
    notes = tuple(notes)
    old = record.notes_text if len(record.notes_text) == len(record.notes) else (None,) * len(record.notes)
    return dataclasses.replace(record, notes=record.notes + tuple(str(n) for n in notes),
                               notes_text=old + tuple(text_of(n) for n in notes))


def driver_reserved_bytes(g: Gpu) -> int:
    """The memory a GPU's driver keeps for itself (firmware, ECC and the like: NVML's v2 `reserved`), which no
    program can allocate and which is neither free nor in use by programs; 0 where unknown (older drivers,
    other vendors) or not a sensible figure."""
    reserved, total = getattr(g, "vram_reserved_bytes", None), getattr(g, "vram_total_bytes", None)
    if isinstance(reserved, int) and isinstance(total, int) and 0 < reserved < total:
        return reserved
    return 0


def reason_shown(framework: Framework, lang: str | None = None) -> str:
    """Why a framework can or cannot use the GPU, in the reader's language."""
    return show_text(framework.reason_text, framework.reason, lang)


def kind_reason_shown(disk: Disk, lang: str | None = None) -> str:
    """How a disk's kind was decided, in the reader's language."""
    return show_text(disk.kind_reason_text, disk.kind_reason, lang)


def notes_shown(record: Any, lang: str | None = None) -> list[str]:
    """The notes of a Power or a Measured, in the reader's language."""
    return show_texts(record.notes, record.notes_text, lang)


# -- generic (de)serialisation -------------------------------------------------------------------

def _to_jsonable(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [_to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): _to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, float) and (obj != obj or obj in (float("inf"), float("-inf"))):
        return None
    return obj


_TYPE_NAMES = {int: N_("an integer"), float: N_("a number"), str: N_("a string"), bool: N_("true or false")}
# Sense checks at load: what a field may hold beyond its type (a saved scan is a file anyone can edit).
_CHOICES = {("Gpu", "vendor"): GPU_VENDORS, ("Gpu", "backend"): GPU_BACKENDS, ("Disk", "kind"): DISK_KINDS,
            ("Finding", "severity"): SEVERITIES}
MAX_BYTES = 2**60  # 1 EiB: more than any disk, memory or GPU a scan can describe
MAX_NUMBER = 1e15  # any other count, clock, wattage, speed or temperature
MIN_SPEED = 1e-3  # a measured speed (per second, GB/s, TFLOPS) above 0 but below this is no measurement


def _expected(where: str, what: str, value: Any) -> BadInput:
    return BadInput(tr("{where}: expected {what}, got {got}", where=where, what=what, got=shorten(repr(value), 60)))


def _sense_check(cls_name: str, name: str, value: Any, where: str) -> None:
    """Values a real scan cannot hold: a vendor not in the list, 10^40 bytes, a speed of 1e-300."""
    choices = _CHOICES.get((cls_name, name))
    if choices and value not in choices:
        raise _expected(where, tr("one of {names}", names=", ".join(choices)), value)
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    if name.endswith("_bytes") and value > MAX_BYTES:
        raise _expected(where, tr("at most {n} bytes (1 EiB)", n=f"{MAX_BYTES:,}"), value)
    if not name.endswith("_bytes") and abs(value) > MAX_NUMBER:
        raise _expected(where, tr("a number up to {n}", n=f"{MAX_NUMBER:g}"), value)
    speed = name.endswith(("_per_s", "_gbps")) or "tflops" in name
    if speed and 0 < value < MIN_SPEED:
        raise _expected(where, tr("0 or a speed of at least {n}", n=f"{MIN_SPEED:g}"), value)


def _describe(tp: Any) -> str:
    if tp in _TYPE_NAMES:
        return tr(_TYPE_NAMES[tp])
    if dataclasses.is_dataclass(tp):
        return tr("an object")
    origin = typing.get_origin(tp)
    if origin is tuple:
        return tr("a list")
    if origin in (Union, types.UnionType):
        return tr(" or ").join("null" if a is type(None) else _describe(a) for a in typing.get_args(tp))
    return str(tp)


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        alts = [a for a in args if a is not type(None)]
        if len(alts) == 1 and dataclasses.is_dataclass(alts[0]) and isinstance(value, dict):
            return _convert(alts[0], value, where)  # an object: name the key inside it that is wrong
        for a in args:
            if a is type(None):
                continue
            try:
                return _convert(a, value, where)
            except BadInput:
                continue
        raise _expected(where, _describe(tp), value)
    if origin is tuple:
        if not isinstance(value, list):
            raise _expected(where, tr("a list"), value)
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:  # tuple[X, ...]: any length
            return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):  # tuple[X, Y]: exactly that many items
            raise _expected(where, tr("a list of {n} items", n=len(args)), value)
        return tuple(_convert(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _from_jsonable(tp, value, where)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _expected(where, tr("a number"), value)
        if value != value or value in (float("inf"), float("-inf")):
            raise _expected(where, tr("a finite number"), value)
        return float(value)
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _expected(where, tr("an integer"), value)
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise _expected(where, tr("true or false"), value)
        return value
    if tp is str:
        if not isinstance(value, str):
            raise _expected(where, tr("a string"), value)
        return value
    if tp is Any:
        return value
    raise BadInput(f"{where}: unsupported field type {tp}")


def _from_jsonable(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise _expected(where, tr("an object"), data)
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise BadInput(tr("{where}: unknown key '{key}' (expected one of: {names})", where=where,
                          key=shorten(unknown[0], 60), names=shorten(", ".join(sorted(names)), 200)))
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadInput(tr("{where}: missing key '{key}'", where=where, key=f.name))
            continue
        value = _convert(hints[f.name], data[f.name], f"{where}.{f.name}")
        # sizes, counts, clocks, watts, speeds are never negative (only temperatures, *_c, may be)
        if (isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0
                and not f.name.endswith("_c")):
            raise _expected(f"{where}.{f.name}", tr("a number ≥ 0"), value)
        _sense_check(cls.__name__, f.name, value, f"{where}.{f.name}")
        kwargs[f.name] = value
    return cls(**kwargs)


def to_jsonable(obj: Any) -> Any:
    return _to_jsonable(obj)
