"""The probes' Parts → one Machine, in named steps. Pure: no clock, no hardware, no files except the
cached reference tables (resources/probe.toml, resources/gpus.toml).

    assemble(parts, src=None, seconds=None, pending=frozenset(), *, created_at=None, app_version=None)

Steps, in order: merge the GPUs every probe saw (`gpus_of`), explain a missing NVIDIA driver
(`nvml_findings`), judge each GPU (`gpu_findings`), the software and its driver (`software_of`), the
power supply (`power_of`), then the disks and the virtual machine (`host_findings`). The caller (the
scan) reads the clock and the version and passes them in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gpucheck.i18n import N_, fmt_gib, tr, tr_text
from gpucheck.lazy import lazy_import
from gpucheck.machine import Cpu, Disk, Finding, Gpu, Machine, Memory, Power, Software, with_notes
from gpucheck.probe import power as power_mod
from gpucheck.probe import software as sw_mod
from gpucheck.probe.base import Part, Sources, finding
from gpucheck.probe.facts import probe_facts, version_key
from gpucheck.probe.nvidia import SLOWDOWN_REASONS

# the GPU catalog is read only when a GPU was found (a scan without one does not load it)
catalog = lazy_import("gpucheck.catalog")

GPU_PROBES = ("nvidia", "amd", "apple", "windows", "platform")
TRAINING_BACKENDS = ("cuda", "rocm", "metal", "xpu", "directml")


def _bus_key(bus: str | None) -> str | None:
    """'00000000:01:00.0' / '0000:01:00.0' / '01:00.0' → '01:00.0'."""
    if not bus:
        return None
    return bus.lower()[-7:]


def merge_gpus(authoritative: list[Gpu], listed: list[Gpu]) -> list[Gpu]:
    """Vendor-library GPUs first; add listed ones (lspci, registry) that are not the same device."""
    out = list(authoritative)
    for g in listed:
        twin = None
        if g.pci_bus_id:
            twin = next((i for i, a in enumerate(out) if _bus_key(a.pci_bus_id) == _bus_key(g.pci_bus_id)), None)
        if twin is None and not g.pci_bus_id:
            same_vendor = [i for i, a in enumerate(out) if a.vendor == g.vendor and a.source != g.source]
            named = [i for i in same_vendor if out[i].name.lower().replace("nvidia ", "") in g.name.lower()
                     or g.name.lower().replace("nvidia ", "") in out[i].name.lower()]
            twin = named[0] if named else (same_vendor[0] if len(same_vendor) == 1 else None)
        if twin is not None:
            a = out[twin]
            out[twin] = dataclasses.replace(
                a, vram_total_bytes=a.vram_total_bytes if a.vram_total_bytes is not None else g.vram_total_bytes,
                is_discrete=a.is_discrete if a.is_discrete is not None else g.is_discrete,
                driver_version=a.driver_version or g.driver_version)
            continue
        out.append(g)
    return out


def _mark_primary(gpus: list[Gpu]) -> list[Gpu]:
    usable = [g for g in gpus if g.backend in TRAINING_BACKENDS]
    discrete = [g for g in usable if g.is_discrete]
    chosen = discrete or usable
    ids = {id(g) for g in chosen}
    return [dataclasses.replace(g, index=i, is_primary_compute=id(g) in ids) for i, g in enumerate(gpus)]


def _with_catalog_ids(gpus: list[Gpu]) -> list[Gpu]:
    """Link each GPU a job could run on to its resources/gpus.toml entry (for specs the driver cannot tell)."""
    out = []
    for g in gpus:
        if g.is_primary_compute and g.catalog_id is None:
            try:
                spec = catalog.gpu_for(g)
            except Exception:  # noqa: BLE001 — a broken catalog must not break the scan
                spec = None
            if spec is not None:
                g = dataclasses.replace(g, catalog_id=spec.id)
        out.append(g)
    return out


def merged_facts(parts: list[Part]) -> dict[str, Any]:
    """Every probe's hints; the first non-empty value of a key wins."""
    facts: dict[str, Any] = {}
    for p in parts:
        for k, v in p.facts.items():
            if v is not None and (k not in facts or not facts[k]):
                facts[k] = v
    return facts


def gpus_of(by: Mapping[str, Part]) -> list[Gpu]:
    """Vendor-library GPUs, plus listed hardware (lspci, registry) the library did not see (it exists;
    the findings say why it is vague); indexed, the training GPUs marked and linked to the catalog."""
    authoritative: list[Gpu] = []
    for name in ("nvidia", "amd", "apple"):
        if name in by:
            authoritative.extend(by[name].gpus)
    listed = list(by["platform"].facts.get("listed_gpus", ())) if "platform" in by else []
    if "windows" in by:
        listed += list(by["windows"].facts.get("listed_gpus", ()))
    return _with_catalog_ids(_mark_primary(merge_gpus(authoritative, listed)))


def nvml_findings(by: Mapping[str, Part], facts: Mapping[str, Any], gpus: list[Gpu]) -> list[Finding]:
    """Why NVIDIA details are missing when NVML could not be used."""
    nvml_state = facts.get("nvml")
    if "nvidia" not in by or not nvml_state or nvml_state == "ok":
        return []
    reason = {"library_not_found": tr("NVML library not found"),
              "driver_not_loaded": tr("the NVIDIA kernel driver is not loaded"),
              "no_permission": tr("no permission to talk to the driver"),
              "binding_missing": tr("the nvidia-ml-py package is missing")}.get(
        nvml_state, facts.get("nvml_error") or nvml_state)
    if any(g.vendor == "nvidia" and g.source == "registry" and g.driver_version for g in gpus):
        return [finding("gpu", "unknown",
            "NVIDIA: compute capability, power limit and free memory unknown because NVML could not be "
            "used ({reason}); the video memory size is from the Windows registry", "nvidia.no_nvml",
            reason=reason)]
    if bool(facts.get("nvidia_hw_present")) or any(g.vendor == "nvidia" for g in gpus):
        return [finding("gpu", "warning",
            "NVIDIA: a GPU is installed but no working driver was found ({reason}); install the NVIDIA "
            "driver to train on it", "nvidia.no_driver", reason=reason)]
    return [finding("gpu", "info", "NVIDIA: no driver found ({reason})", "nvidia.no_driver", reason=reason)]


def _one_gpu_findings(g: Gpu) -> list[Finding]:
    out = []
    if g.source in ("lspci",) and g.vendor in ("nvidia", "amd") and g.vram_total_bytes is None:
        out.append(finding("gpu", "unknown",
            "{gpu}: video memory unknown because its driver did not report it", "gpu.vram_unknown", gpu=g.name))
    slow = [r for r in g.throttle_reasons if r in SLOWDOWN_REASONS]
    if slow:
        out.append(finding("gpu", "warning",
            "{gpu} is slowing itself down right now ({reasons}): check cooling and power before training",
            "gpu.throttling", gpu=g.name, reasons=", ".join(slow)))
    if g.display_active and g.is_primary_compute and g.is_discrete:
        # Worth knowing (it costs a few hundred MB of VRAM), not a limit on what the card can train.
        out.append(finding("gpu", "info",
            "{gpu} also drives a display: the desktop takes part of its memory and time", "gpu.display",
            gpu=g.name))
    if g.mig_enabled and g.mig_slices:
        sizes = sorted({s.memory_total_bytes for s in g.mig_slices if s.memory_total_bytes})
        out.append(finding("gpu", "info",
            "{gpu} is split into {n} MIG slices: a job gets one slice's memory ({size}), not the whole "
            "GPU's", "gpu.mig", gpu=g.name, n=len(g.mig_slices),
            size=", ".join(fmt_gib(s) for s in sizes) or tr("unknown")))
    return out


def gpu_findings(by: Mapping[str, Part], gpus: list[Gpu], pending: frozenset[str]) -> list[Finding]:
    """Each GPU's state, which one trains, and "no GPU" once no GPU probe is still running."""
    out = [f for g in gpus for f in _one_gpu_findings(g)]
    compute = [g for g in gpus if g.is_primary_compute]
    others = [g.name for g in gpus if not g.is_primary_compute]
    if compute and others:
        out.append(finding("gpu", "info",
            "Training would run on {gpu}; {others} is not used for training", "gpu.hybrid",
            gpu=compute[0].name, others=", ".join(others)))
    if not compute and any(k in by for k in GPU_PROBES) and not pending.intersection(GPU_PROBES):
        out.append(finding("gpu", "info", "No GPU for training was found: jobs would run on the CPU", "gpu.none"))
    return out


def software_of(by: Mapping[str, Part], facts: Mapping[str, Any], gpus: list[Gpu]
                ) -> tuple[Software, list[Finding]]:
    """The software record with the driver filled in and each framework judged against the GPUs."""
    software = by["software"].software if "software" in by and by["software"].software else Software()
    driver = facts.get("driver_version") or next((g.driver_version for g in gpus if g.vendor == "nvidia"
                                                  and g.driver_version), None)
    cuda_driver = facts.get("cuda_driver_version")
    software = dataclasses.replace(
        software, nvidia_driver_version=software.nvidia_driver_version or driver,
        cuda_driver_version=software.cuda_driver_version or cuda_driver,
        rocm_version=software.rocm_version or facts.get("rocm_version"),
        frameworks=tuple(sw_mod.judge(f, tuple(gpus), software.platform, cuda_driver) for f in software.frameworks))
    findings = []
    if any(g.is_primary_compute for g in gpus):
        for f in software.frameworks:
            if f.can_use_gpu is False:
                findings.append(finding("software", "warning", "{name} {version} cannot use the GPU: {reason}",
                    "software.framework_gpu", name=f.name, version=f.version, reason=f.reason_text or f.reason))
    old_below = probe_facts().nvidia.old_driver_below_cuda
    if cuda_driver and any(g.vendor == "nvidia" for g in gpus) and version_key(cuda_driver) < version_key(old_below):
        findings.append(finding("software", "warning",
            "The NVIDIA driver {driver} supports CUDA only up to {cuda}; current PyTorch builds need CUDA "
            "{need}: update the driver", "nvidia.old_driver", driver=driver or "?", cuda=cuda_driver,
            need=old_below))
    return software, findings


def power_of(by: Mapping[str, Part], facts: Mapping[str, Any], cpu: Cpu, gpus: list[Gpu]
             ) -> tuple[Power, Cpu, list[Finding]]:
    """The power record with the estimated peak draw and PSU (not inside a VM); the CPU's TDP if it was
    estimated there."""
    power = by["power"].power if "power" in by and by["power"].power else Power()
    findings: list[Finding] = []
    if "power" not in by:
        return power, cpu, findings
    vm = facts.get("virtual_machine")
    server = by["power"].facts.get("chassis_kind") == "server" or (cpu.sockets or 1) > 1
    if vm and vm != "wsl":
        power = with_notes(power, (tr_text(
            "This is a virtual machine: its host's power supply cannot be judged from inside it."),))
    else:
        power, more = power_mod.estimate(power, tuple(gpus), cpu, server=server)
        findings.extend(more)
        if power.cpu_tdp_w is not None and cpu.tdp_w is None:
            cpu = dataclasses.replace(cpu, tdp_w=power.cpu_tdp_w)
    if power.on_battery:
        findings.append(finding("power", "warning",
            "Running on battery: laptops slow the GPU down on battery — plug in before training",
            "power.on_battery"))
    return power, cpu, findings


# the virtual-machine finding as scans saved before December 2026 worded it: kept in the catalog so that their saved
# template still reads in every language
N_("Running in a virtual machine ({name}): it sees only the CPU, memory and disks the host gives it")


def host_findings(facts: Mapping[str, Any], disks: tuple[Disk, ...]) -> list[Finding]:
    """A virtual machine, spinning disks only, little free space."""
    out = []
    vm = facts.get("virtual_machine")
    if vm and vm != "wsl":
        out.append(finding("scan", "info",
            "Running in a virtual machine ({name}): it sees only the CPU, memory and disks the host gives it, and "
            "the host's other guests can slow them down; a job's \"Try it for real\" (or gpucheck calibrate) "
            "measures what this machine really does, and later estimates use it",
            "scan.virtual_machine", name=vm))
    fixed = [d for d in disks if d.kind not in ("network", "removable")]
    if fixed and all(d.kind == "hdd" for d in fixed):
        out.append(finding("disk", "warning",
            "Only spinning hard disks were found: loading training data from them can be the bottleneck",
            "disk.hdd_only"))
    frees = [d.free_bytes for d in fixed if d.free_bytes is not None]
    if frees and max(frees) < probe_facts().low_free_disk_gib * 1024**3:
        out.append(finding("disk", "warning",
            "Little free disk space: at most {free} free; datasets and checkpoints need room",
            "disk.low_free", free=fmt_gib(max(frees))))
    return out


def assemble(parts: list[Part], src: Sources | None = None, seconds: float | None = None,
             pending: frozenset[str] = frozenset(), *, created_at: str = "", app_version: str = "") -> Machine:
    """Pure: the probes' Parts → one Machine, with the cross-source findings (power, software, warnings).
    `pending` names probes still running (a partial record): no "no GPU" verdict is drawn while a GPU
    probe is among them. `created_at` (ISO 8601) and `app_version` come from the caller."""
    by = {p.area: p for p in parts}
    facts = merged_facts(parts)
    findings: list[Finding] = [f for p in parts for f in p.findings]
    gpus = gpus_of(by)
    findings += nvml_findings(by, facts, gpus)
    findings += gpu_findings(by, gpus, pending)
    cpu = by["cpu"].cpu if "cpu" in by and by["cpu"].cpu else Cpu()
    mem = by["memory"].memory if "memory" in by and by["memory"].memory else Memory()
    if any(g.memory_kind in ("unified", "carve-out") for g in gpus):
        mem = dataclasses.replace(mem, shared_with_gpu=True)
    disks = by["disks"].disks if "disks" in by and by["disks"].disks is not None else ()
    software, more = software_of(by, facts, gpus)
    findings += more
    power, cpu, more = power_of(by, facts, cpu, gpus)
    findings += more
    findings += host_findings(facts, disks)
    return Machine(
        app_version=app_version,
        created_at=created_at,
        hostname=src.hostname if src else None,
        gpus=_drop_negatives(tuple(gpus)), cpu=_drop_negatives(cpu), memory=_drop_negatives(mem),
        disks=_drop_negatives(tuple(disks)), power=_drop_negatives(power), software=software,
        findings=tuple(_dedupe(findings)), scan_seconds=round(seconds, 3) if seconds is not None else None,
    )


def _drop_negatives(obj: Any) -> Any:
    """A negative size, count, clock or wattage from any source is garbage: it becomes None (unknown).
    Temperatures (fields ending in _c) may be below zero and are kept."""
    if isinstance(obj, tuple):
        return tuple(_drop_negatives(x) for x in obj)
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return obj
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0 and not f.name.endswith("_c"):
            changes[f.name] = None
        elif isinstance(v, tuple) or dataclasses.is_dataclass(v):
            nv = _drop_negatives(v)
            if nv is not v:
                changes[f.name] = nv
    return dataclasses.replace(obj, **changes) if changes else obj


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen = set()
    out = []
    for f in findings:
        key = (f.area, f.severity, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
