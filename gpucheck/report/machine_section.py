"""The report's machine sections: what this computer has, its graphics cards and what the scan found.

Pure: no Qt, no file I/O; every string is translated with `tr()` in the report's language.
"""

from __future__ import annotations

from gpucheck.bench.present import measured_only
from gpucheck.i18n import finding_text, fmt_gib, fmt_list, fmt_timestamp, tr
from gpucheck.machine import Machine
from gpucheck.report.model import FindingLine, Table

# -- labels ------------------------------------------------------------------------------------------


def severity_text(severity: str) -> str:
    texts = {
        "info": tr("Note"),
        "ok": tr("Good"),
        "unknown": tr("Unknown"),
        "warning": tr("Warning"),
        "error": tr("Problem"),
    }
    return texts.get(severity, severity)


def area_text(area: str) -> str:
    texts = {
        "gpu": tr("GPU"),
        "cpu": tr("CPU"),
        "memory": tr("Memory (RAM)"),
        "disk": tr("Disk"),
        "power": tr("Power"),
        "software": tr("Software"),
        "scan": tr("Scan"),
    }
    return texts.get(area, area)


def backend_text(backend: str) -> str:
    texts = {
        "cuda": "CUDA",
        "rocm": "ROCm",
        "metal": "Metal (MPS)",
        "xpu": "Intel XPU",
        "directml": "DirectML",
        "none": tr("none"),
        "unknown": tr("unknown"),
    }
    return texts.get(backend, backend)


def _disk_kind_text(kind: str) -> str:
    texts = {
        "nvme": tr("NVMe SSD"),
        "ssd": tr("SSD"),
        "hdd": tr("hard disk"),
        "virtual": tr("virtual disk"),
        "network": tr("network drive"),
        "removable": tr("removable drive"),
        "unknown": tr("unknown kind"),
    }
    return texts.get(kind, kind)


# -- machine -----------------------------------------------------------------------------------------


def machine_table(machine: Machine, include_ids: bool) -> Table:
    rows: list[tuple[str, str]] = []
    sw = machine.software
    if include_ids and machine.hostname:
        rows.append((tr("Computer name"), machine.hostname))
    os_text = " ".join(x for x in (sw.os_name, sw.os_version) if x) or tr("unknown")
    if sw.platform == "wsl":
        os_text = tr("{os} (WSL)", os=os_text)
    rows.append((tr("Operating system"), os_text))
    cpu = machine.cpu
    cores = tr("{physical} cores / {logical} threads",
               physical=cpu.physical_cores if cpu.physical_cores is not None else "?",
               logical=cpu.logical_cores if cpu.logical_cores is not None else "?")
    rows.append((tr("Processor (CPU)"), f"{cpu.brand or tr('unknown')} — {cores}"))
    mem = machine.memory
    ram = tr("{total} total, {available} free when scanned",
             total=fmt_gib(mem.total_bytes), available=fmt_gib(mem.available_bytes))
    if mem.shared_with_gpu:
        ram = tr("{ram} (shared with the GPU)", ram=ram)
    rows.append((tr("Memory (RAM)"), ram))
    compute = machine.compute_gpus()
    if not machine.gpus:
        rows.append((tr("Graphics (GPU)"), tr("none found")))
    else:
        for g in machine.gpus:
            mark = tr(" (used for training)") if g in compute and len(machine.gpus) > 1 else ""
            rows.append((tr("Graphics (GPU)"), tr("{name}, {vram} video memory, {backend}{mark}", name=g.name,
                                                  vram=fmt_gib(g.vram_total_bytes), backend=backend_text(g.backend),
                                                  mark=mark)))
    drivers = []
    if sw.nvidia_driver_version:
        drivers.append(tr("NVIDIA driver {v}", v=sw.nvidia_driver_version))
    if sw.cuda_driver_version:
        drivers.append(tr("CUDA {v} supported by the driver", v=sw.cuda_driver_version))
    if sw.rocm_version:
        drivers.append(tr("ROCm {v}", v=sw.rocm_version))
    if drivers:
        rows.append((tr("GPU software"), fmt_list(drivers, strong=True)))
    for fw in sw.frameworks:
        variant = f" ({fw.variant})" if fw.variant else ""
        gpu_ok = {True: tr("can use the GPU"), False: tr("cannot use the GPU"), None: ""}[fw.can_use_gpu]
        text = f"{fw.name} {fw.version}{variant}" + (f" — {gpu_ok}" if gpu_ok else "")
        rows.append((tr("AI framework"), text))
    for d in machine.disks:
        rows.append((tr("Disk"), tr("{mount}: {kind}, {free} free of {total}", mount=d.mount,
                                    kind=_disk_kind_text(d.kind), free=fmt_gib(d.free_bytes, 0),
                                    total=fmt_gib(d.total_bytes, 0))))
    pw = machine.power
    if pw.is_laptop is not None:
        kind = tr("server") if pw.is_server else tr("laptop") if pw.is_laptop else tr("desktop")
        if pw.on_battery:
            kind = tr("{kind}, running on battery", kind=kind)
        rows.append((tr("Computer type"), kind))
    if pw.is_server and pw.estimated_peak_system_w:
        rows.append((tr("Power supply"), tr("redundant supplies sized by the server's vendor (estimated peak {peak})",
                                            peak=f"{pw.estimated_peak_system_w:,.0f} W")))
    elif pw.recommended_psu_w:
        rows.append((tr("Power supply"), tr("at least {w} W recommended (estimated peak {peak})",
                                            w=pw.recommended_psu_w,
                                            peak=f"{pw.estimated_peak_system_w:,.0f} W"
                                            if pw.estimated_peak_system_w else tr("unknown"))))
    if machine.measured is not None:  # what a deep scan measured, as the scan summary and the app word it
        heading = tr("Measured (deep scan)")
        rows.extend((heading if i == 0 else "", f.line) for i, f in enumerate(measured_only(machine)))
    when = fmt_timestamp(machine.created_at)  # Beijing time in Chinese, UTC in English
    rows.append((tr("Scanned"), tr("{when} by gpucheck {version}", when=when,
                                   version=machine.app_version or tr("unknown"))))
    return Table(headers=(tr("Part"), tr("What this computer has")), rows=tuple(rows))


def gpu_table(machine: Machine, include_ids: bool) -> Table | None:
    if not machine.gpus:
        return None
    headers = [tr("GPU"), tr("Video memory"), tr("Free memory"), tr("Compute API"), tr("Driver")]
    if include_ids:
        headers.append(tr("UUID"))
    rows = []
    for g in machine.gpus:
        row = [g.name, fmt_gib(g.vram_total_bytes), fmt_gib(g.vram_free_bytes), backend_text(g.backend),
               g.driver_version or tr("unknown")]
        if include_ids:
            row.append(g.uuid or tr("unknown"))
        rows.append(tuple(row))
    return Table(headers=tuple(headers), rows=tuple(rows))


def finding_lines(machine: Machine) -> tuple[FindingLine, ...]:
    order = {"error": 0, "warning": 1, "unknown": 2, "info": 3, "ok": 4}
    items = sorted(machine.findings, key=lambda f: order.get(f.severity, 5))
    # in the report's language, whatever language the scan ran in (older scans: as rendered then)
    return tuple(FindingLine(f.severity, severity_text(f.severity), area_text(f.area), finding_text(f))
                 for f in items)


__all__ = ["machine_table", "backend_text"]
