"""The hardware scan: `scan() -> Machine`.

Probes (one module per source: nvidia, amd, apple, windows, linux, cpu, memory, storage, power,
software) run at the same time, each in its own daemon thread with its own time limit. A probe that
fails or does not answer in time becomes a Finding ("… unknown because …"); the scan never raises for
a source.

Getting results as they come (the desktop app shows them progressively):
- `scan(on_progress=f)` calls `f(area, done, total)` as each probe finishes; `area` is one of
  gpu | cpu | memory | disk | power | software (several probes report "gpu": nvidia, amd, apple, …);
- `scan(on_partial=g)` calls `g(machine_so_far)` with a Machine assembled from the probes done so far;
- `scan_iter()` is a generator yielding `(probe, done, total, machine_so_far)` for each finished probe
  (`probe` is the probe's own name: nvidia, amd, apple, windows, platform, cpu, memory, disks, power,
  software); the last item's machine is the complete scan.
`scan(deep=True)` then runs the measured benchmarks of `gpucheck.bench.run_deep` and stores them in
`Machine.measured`; meanwhile `on_progress(step, percent, 100)` reports the benchmark's own steps.

Every source is injected through `Sources` (see probe/base.py): tests pass recorded outputs, and
`assemble(parts)` — pure — turns the probes' `Part`s into a Machine.

Privacy: the Machine holds GPU UUIDs and the host name; `probe.summary.redact()` removes them, and
`gpucheck scan` prints the redacted record unless `--show-ids` is given.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from gpucheck.i18n import fmt_gib, tr, tr_text
from gpucheck.machine import Cpu, Finding, Gpu, Machine, Memory, Power, Software, with_notes
from gpucheck.probe.base import Part, Sources, finding

__all__ = ["scan", "scan_iter", "assemble", "Sources", "Part", "probes_for"]

# Seconds each probe may take before it is reported as not answering.
TIMEOUTS = {"nvidia": 12.0, "amd": 10.0, "apple": 15.0, "windows": 8.0, "platform": 5.0, "cpu": 5.0,
            "memory": 3.0, "disks": 10.0, "power": 4.0, "software": 8.0}
AREA_OF = {"nvidia": "gpu", "amd": "gpu", "apple": "gpu", "windows": "gpu", "platform": "gpu", "cpu": "cpu",
           "memory": "memory", "disks": "disk", "power": "power", "software": "software"}


def probes_for(src: Sources) -> list[tuple[str, Callable[[Sources], Part]]]:
    """The probes that apply to this platform, as (name, function)."""
    from gpucheck.probe import amd, apple, cpu, linux, memory, nvidia, power, software, storage, windows

    common = [("cpu", cpu.probe), ("memory", memory.probe), ("disks", storage.probe), ("power", power.probe),
              ("software", software.probe)]
    if src.system == "linux":
        gpu = [("nvidia", nvidia.probe), ("amd", amd.probe), ("platform", linux.probe)]
    elif src.system == "windows":
        gpu = [("nvidia", nvidia.probe), ("windows", windows.probe)]
    elif src.system == "darwin":
        gpu = [("apple", apple.probe)]
    else:
        gpu = []
    return gpu + common


def _run_probe(name: str, fn: Callable[[Sources], Part], src: Sources, out: queue.Queue) -> None:
    try:
        part = fn(src)
    except Exception as e:  # noqa: BLE001 — one probe failing must never stop the others
        try:
            from gpucheck.logs import log_exception

            log_exception(e)
        except Exception:  # noqa: BLE001
            pass
        part = Part(area=name, findings=(finding(AREA_OF.get(name, "scan"), "unknown",
            "{area}: unknown because the check failed ({error})", f"scan.{name}.failed", area=name,
            error=f"{type(e).__name__}: {e}"),))
    out.put((name, part))


def scan_iter(sources: Sources | None = None, timeouts: dict[str, float] | None = None
              ) -> Iterator[tuple[str, int, int, Machine]]:
    """Run every probe concurrently; yield (probe name, done, total, machine so far) as each finishes."""
    src = sources or Sources.local()
    limits = {**TIMEOUTS, **(timeouts or {})}
    probes = probes_for(src)
    total = len(probes)
    started = time.monotonic()
    results: queue.Queue = queue.Queue()
    for name, fn in probes:
        threading.Thread(target=_run_probe, args=(name, fn, src, results), name=f"gpucheck-probe-{name}",
                         daemon=True).start()
    parts: list[Part] = []
    pending = {name for name, _ in probes}
    while pending:
        elapsed = time.monotonic() - started
        wait = max(0.01, min(limits.get(n, 10.0) for n in pending) - elapsed)
        try:
            name, part = results.get(timeout=wait)
        except queue.Empty:
            now = time.monotonic() - started
            for n in sorted(pending):
                if now >= limits.get(n, 10.0):
                    pending.discard(n)
                    part = Part(area=n, findings=(finding(AREA_OF.get(n, "scan"), "unknown",
                        "{area}: unknown because the check did not answer within {seconds} s",
                        f"scan.{n}.timeout", area=n, seconds=round(limits.get(n, 10.0))),))
                    parts.append(part)
                    yield n, total - len(pending), total, assemble(parts, src, time.monotonic() - started,
                                                                   frozenset(pending))
            continue
        if name not in pending:
            continue
        pending.discard(name)
        parts.append(part)
        yield name, total - len(pending), total, assemble(parts, src, time.monotonic() - started, frozenset(pending))


def scan(on_progress: Callable[[str, int, int], Any] | None = None, deep: bool = False,
         deep_disk: str | None = None, *, sources: Sources | None = None,
         on_partial: Callable[[Machine], Any] | None = None, cancel: Any = None) -> Machine:
    """Scan this computer (or the injected `sources`). Never raises for a missing or failing source."""
    machine = Machine()
    for name, done, total, m in scan_iter(sources):
        machine = m
        if on_progress:
            on_progress(AREA_OF.get(name, name), done, total)
        if on_partial:
            on_partial(m)
    if deep:
        machine = _deep(machine, deep_disk, on_progress, cancel)
    return machine


def _deep(machine: Machine, deep_disk: str | None, on_progress: Any, cancel: Any) -> Machine:
    try:
        from gpucheck.bench import run_deep
    except ImportError as e:
        return dataclasses.replace(machine, findings=machine.findings + (finding("scan", "unknown",
            "Measured benchmarks unknown because the benchmark module is not available ({detail})",
            "deep.missing", detail=str(e)),))
    deep_progress = None
    if on_progress is not None:
        def deep_progress(step: str, fraction: float) -> None:  # run_deep reports (step, 0..1)
            on_progress(step, int(fraction * 100), 100)
    try:
        measured = run_deep(machine, disk_path=deep_disk, on_progress=deep_progress, cancel=cancel)
    except Exception as e:  # noqa: BLE001 — a failing benchmark must not lose the scan
        return dataclasses.replace(machine, findings=machine.findings + (finding("scan", "unknown",
            "Measured benchmarks unknown because they failed ({error})", "deep.failed",
            error=f"{type(e).__name__}: {e}"),))
    return dataclasses.replace(machine, measured=measured)


# -- assembling ---------------------------------------------------------------------------------

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
    usable = [g for g in gpus if g.backend in ("cuda", "rocm", "metal", "xpu", "directml")]
    discrete = [g for g in usable if g.is_discrete]
    chosen = discrete or usable
    ids = {id(g) for g in chosen}
    return [dataclasses.replace(g, index=i, is_primary_compute=id(g) in ids) for i, g in enumerate(gpus)]


def _with_catalog_ids(gpus: list[Gpu]) -> list[Gpu]:
    """Link each GPU a job could run on to its resources/gpus.toml entry (for specs the driver cannot tell)."""
    if not any(g.is_primary_compute for g in gpus):
        return gpus
    try:
        from gpucheck.catalog import gpu_for
    except ImportError:
        return gpus
    out = []
    for g in gpus:
        if g.is_primary_compute and g.catalog_id is None:
            try:
                spec = gpu_for(g)
            except Exception:  # noqa: BLE001 — a broken catalog must not break the scan
                spec = None
            if spec is not None:
                g = dataclasses.replace(g, catalog_id=spec.id)
        out.append(g)
    return out


def _setting(key: str, default: Any) -> Any:
    from gpucheck.probe.facts import facts

    return facts().get("warnings", {}).get(key, default)


def assemble(parts: list[Part], src: Sources | None = None, seconds: float | None = None,
             pending: frozenset[str] = frozenset()) -> Machine:
    """Pure: the probes' Parts → one Machine, with the cross-source findings (power, software, warnings).
    `pending` names probes still running (a partial record): no "no GPU" verdict is drawn while a GPU
    probe is among them."""
    from gpucheck import __version__
    from gpucheck.probe import power as power_mod
    from gpucheck.probe import software as sw_mod

    by = {p.area: p for p in parts}
    findings: list[Finding] = []
    for p in parts:
        findings.extend(p.findings)
    facts: dict[str, Any] = {}
    for p in parts:
        for k, v in p.facts.items():
            if v is not None and (k not in facts or not facts[k]):
                facts[k] = v
    authoritative: list[Gpu] = []
    for name in ("nvidia", "amd", "apple"):
        if name in by:
            authoritative.extend(by[name].gpus)
    listed = list(by["platform"].facts.get("listed_gpus", ())) if "platform" in by else []
    if "windows" in by:
        listed += list(by["windows"].facts.get("listed_gpus", ()))
    # Listed NVIDIA/AMD hardware the vendor library did not see: keep it (it exists), say why it is vague.
    gpus = _with_catalog_ids(_mark_primary(merge_gpus(authoritative, listed)))

    nvml_state = facts.get("nvml")
    has_nvidia_hw = bool(facts.get("nvidia_hw_present")) or any(g.vendor == "nvidia" for g in gpus)
    if "nvidia" in by and nvml_state and nvml_state != "ok":
        reason = {"library_not_found": tr("NVML library not found"),
                  "driver_not_loaded": tr("the NVIDIA kernel driver is not loaded"),
                  "no_permission": tr("no permission to talk to the driver"),
                  "binding_missing": tr("the nvidia-ml-py package is missing")}.get(
            nvml_state, facts.get("nvml_error") or nvml_state)
        registry_nvidia = [g for g in gpus if g.vendor == "nvidia" and g.source == "registry" and g.driver_version]
        if registry_nvidia:
            findings.append(finding("gpu", "unknown",
                "NVIDIA: compute capability, power limit and free memory unknown because NVML could not be "
                "used ({reason}); the video memory size is from the Windows registry", "nvidia.no_nvml",
                reason=reason))
        elif has_nvidia_hw:
            findings.append(finding("gpu", "warning",
                "NVIDIA: a GPU is installed but no working driver was found ({reason}); install the NVIDIA "
                "driver to train on it", "nvidia.no_driver", reason=reason))
        else:
            findings.append(finding("gpu", "info", "NVIDIA: no driver found ({reason})",
                "nvidia.no_driver", reason=reason))
    for g in gpus:
        if g.source in ("lspci",) and g.vendor in ("nvidia", "amd") and g.vram_total_bytes is None:
            findings.append(finding("gpu", "unknown",
                "{gpu}: video memory unknown because its driver did not report it", "gpu.vram_unknown",
                gpu=g.name))
        slow = [r for r in g.throttle_reasons if r in ("hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown",
                                                       "hw_power_brake_slowdown")]
        if slow:
            findings.append(finding("gpu", "warning",
                "{gpu} is slowing itself down right now ({reasons}): check cooling and power before training",
                "gpu.throttling", gpu=g.name, reasons=", ".join(slow)))
        if g.display_active and g.is_primary_compute and g.is_discrete:
            # Worth knowing (it costs a few hundred MB of VRAM), not a limit on what the card can train.
            findings.append(finding("gpu", "info",
                "{gpu} also drives a display: the desktop takes part of its memory and time", "gpu.display",
                gpu=g.name))
        if g.mig_enabled and g.mig_slices:
            sizes = sorted({s.memory_total_bytes for s in g.mig_slices if s.memory_total_bytes})
            findings.append(finding("gpu", "info",
                "{gpu} is split into {n} MIG slices: a job gets one slice's memory ({size}), not the whole "
                "GPU's", "gpu.mig", gpu=g.name, n=len(g.mig_slices),
                size=", ".join(fmt_gib(s) for s in sizes) or tr("unknown")))
    compute = [g for g in gpus if g.is_primary_compute]
    others = [g.name for g in gpus if not g.is_primary_compute]
    if compute and others:
        findings.append(finding("gpu", "info",
            "Training would run on {gpu}; {others} is not used for training", "gpu.hybrid",
            gpu=compute[0].name, others=", ".join(others)))
    gpu_probes = ("nvidia", "amd", "apple", "windows", "platform")
    if not compute and any(k in by for k in gpu_probes) and not pending.intersection(gpu_probes):
        findings.append(finding("gpu", "info", "No GPU for training was found: jobs would run on the CPU",
            "gpu.none"))

    cpu = by["cpu"].cpu if "cpu" in by and by["cpu"].cpu else Cpu()
    mem = by["memory"].memory if "memory" in by and by["memory"].memory else Memory()
    if any(g.memory_kind in ("unified", "carve-out") for g in gpus):
        mem = dataclasses.replace(mem, shared_with_gpu=True)
    disks = by["disks"].disks if "disks" in by and by["disks"].disks is not None else ()

    software = by["software"].software if "software" in by and by["software"].software else Software()
    driver = facts.get("driver_version") or next((g.driver_version for g in gpus if g.vendor == "nvidia"
                                                  and g.driver_version), None)
    cuda_driver = facts.get("cuda_driver_version")
    software = dataclasses.replace(
        software, nvidia_driver_version=software.nvidia_driver_version or driver,
        cuda_driver_version=software.cuda_driver_version or cuda_driver,
        rocm_version=software.rocm_version or facts.get("rocm_version"),
        frameworks=tuple(sw_mod.judge(f, tuple(gpus), software.platform, cuda_driver) for f in software.frameworks))
    for f in software.frameworks:
        if f.can_use_gpu is False and compute:
            findings.append(finding("software", "warning", "{name} {version} cannot use the GPU: {reason}",
                "software.framework_gpu", name=f.name, version=f.version,
                reason=f.reason_text or f.reason))
    from gpucheck.probe.facts import nvidia_setting, version_key

    old_below = nvidia_setting("old_driver_below_cuda", "12.0")
    if cuda_driver and any(g.vendor == "nvidia" for g in gpus) and version_key(cuda_driver) < version_key(old_below):
        findings.append(finding("software", "warning",
            "The NVIDIA driver {driver} supports CUDA only up to {cuda}; current PyTorch builds need CUDA "
            "{need}: update the driver", "nvidia.old_driver", driver=driver or "?", cuda=cuda_driver,
            need=old_below))

    power = by["power"].power if "power" in by and by["power"].power else Power()
    vm = facts.get("virtual_machine")
    if "power" in by:
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

    if vm and vm != "wsl":
        findings.append(finding("scan", "info",
            "Running in a virtual machine ({name}): it sees only the CPU, memory and disks the host gives it",
            "scan.virtual_machine", name=vm))
    fixed = [d for d in disks if d.kind not in ("network", "removable")]
    if fixed and all(d.kind == "hdd" for d in fixed):
        findings.append(finding("disk", "warning",
            "Only spinning hard disks were found: loading training data from them can be the bottleneck",
            "disk.hdd_only"))
    frees = [d.free_bytes for d in fixed if d.free_bytes is not None]
    low = float(_setting("low_free_disk_gib", 50)) * 1024**3
    if frees and max(frees) < low:
        findings.append(finding("disk", "warning",
            "Little free disk space: at most {free} free; datasets and checkpoints need room",
            "disk.low_free", free=fmt_gib(max(frees))))
    return Machine(
        app_version=__version__,
        created_at=datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
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
    changes = {}
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
