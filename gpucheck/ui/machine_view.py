"""Machine → what each part card shows (title, status, summary, findings, details), as plain text.

No Qt and no arithmetic: it picks fields of the Machine and formats them with gpucheck.i18n.
A part's status comes from the scan's own findings: an error → missing, a warning → limited,
nothing found → missing/unknown, otherwise good. The GPU's "good" is further judged by what it can train
(gpucheck.advise.readiness: the share of the built-in job ladder it runs).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gpucheck.i18n import N_, finding_text, fmt_bytes, fmt_gib, fmt_list, tr
from gpucheck.lazy import lazy_import

# The welcome page shows this module's area names before any scan: what judges a scanned part is
# loaded on first use, after the window is up (start-up speed, see gpucheck/lazy.py).
readiness = lazy_import("gpucheck.advise.readiness")
machine_mod = lazy_import("gpucheck.machine")
report_model = lazy_import("gpucheck.report.machine_section")
advice_data = lazy_import("gpucheck.advise.data")
software_advice = lazy_import("gpucheck.advise.software")
bench_present = lazy_import("gpucheck.bench.present")

AREAS = ("gpu", "cpu", "memory", "disk", "power", "software")
AREA_TITLES = {
    "gpu": N_("Graphics card (GPU)"),
    "cpu": N_("Processor (CPU)"),
    "memory": N_("Memory (RAM)"),
    "disk": N_("Disks"),
    "power": N_("Power"),
    "software": N_("Software"),
}
STATUS_LABELS = {"good": N_("Good"), "limited": N_("Limited"), "missing": N_("Missing"), "unknown": N_("Unknown")}
DISK_KINDS = {"nvme": N_("NVMe SSD"), "ssd": N_("SSD"), "hdd": N_("hard disk"), "virtual": N_("virtual disk"),
              "network": N_("network drive"), "removable": N_("removable drive"), "unknown": N_("unknown kind")}
VENDOR_NAMES = {"nvidia": "NVIDIA", "amd": "AMD", "apple": "Apple", "intel": "Intel"}  # brand names
AREA_ICONS = {"gpu": "gpu", "cpu": "cpu", "memory": "memory", "disk": "disk", "power": "power",
              "software": "software"}
# Words the scan may use for an area in its findings / progress reports.
AREA_ALIASES = {"disks": "disk", "storage": "disk", "ram": "memory", "gpus": "gpu", "os": "software"}


def area_key(name: str) -> str:
    n = (name or "").lower()
    return AREA_ALIASES.get(n, n)


@dataclass(frozen=True)
class JobContext:
    """What the jobs page shows about this PC, so the cards tell the same story: how many built-in jobs
    train here, the jobs system RAM stops, and the video memory a job may use."""

    trains: int
    total: int
    ram_limited: tuple[str, ...] = ()  # titles of the jobs that do not fit because of system RAM
    usable_vram_bytes: int | None = None


@dataclass(frozen=True)
class PartView:
    area: str
    title: str
    status: str  # good | limited | missing | unknown
    summary: str
    findings: tuple[str, ...]
    details: tuple[str, ...]


def _v(value, unit: str = "") -> str:
    if value is None:
        return tr("unknown")
    return f"{value}{unit}"


def findings_for(machine, area: str) -> list:
    return [f for f in machine.findings if area_key(f.area) == area]


def _status(machine, area: str, present: bool) -> str:
    sev = {f.severity for f in findings_for(machine, area)}
    if not present:
        return "missing" if area in ("gpu", "disk") else "unknown"
    if "error" in sev:
        return "missing"
    if "warning" in sev:
        return "limited"
    return "good"


def _gpu_lines(g) -> list[str]:
    out: list[str] = []
    reserved = machine_mod.driver_reserved_bytes(g)
    if reserved and g.vram_free_bytes is not None:
        out.append("  " + tr("Video memory (VRAM): {total} total, {free} free, {reserved} kept by the driver",
                             total=fmt_gib(g.vram_total_bytes), free=fmt_gib(g.vram_free_bytes),
                             reserved=fmt_gib(reserved)))
    else:
        out.append("  " + tr("Video memory (VRAM): {total} total, {free} free",
                             total=fmt_gib(g.vram_total_bytes), free=fmt_gib(g.vram_free_bytes)))
    if g.shared_memory_bytes is not None or g.usable_memory_bytes is not None:
        out.append("  " + tr("Shared memory: {shared}; usable by the GPU: {usable}",
                                 shared=fmt_gib(g.shared_memory_bytes),
                                 usable=fmt_gib(g.usable_memory_bytes)))
    out.append("  " + tr("Vendor: {vendor} · training through: {backend}",
                         vendor=VENDOR_NAMES.get(g.vendor, g.vendor), backend=report_model.backend_text(g.backend)))
    if g.architecture or g.compute_capability:
        out.append("  " + tr("Architecture: {arch} · compute capability {cc}",
                                 arch=_v(g.architecture), cc=_v(g.compute_capability)))
    if g.sm_count is not None:
        out.append("  " + tr("Compute units: {n}", n=g.sm_count))
    if g.clock_graphics_mhz is not None or g.clock_graphics_max_mhz is not None:
        out.append("  " + tr("Clocks: graphics {cur} (max {max}), memory max {mem}",
                                 cur=_v(g.clock_graphics_mhz, " MHz"), max=_v(g.clock_graphics_max_mhz, " MHz"),
                                 mem=_v(g.clock_memory_max_mhz, " MHz")))
    if g.pcie_gen_current is not None or g.pcie_gen_max is not None:
        out.append("  " + tr("PCIe: Gen {gen} ×{width} now (max Gen {gen_max} ×{width_max})",
                                 gen=_v(g.pcie_gen_current), width=_v(g.pcie_width_current),
                                 gen_max=_v(g.pcie_gen_max), width_max=_v(g.pcie_width_max)))
    if g.nvlink_links is not None:
        out.append("  " + tr("NVLink: {n} active links", n=g.nvlink_links))
    if g.power_limit_w is not None or g.power_draw_w is not None:
        out.append("  " + tr("Power: {draw} now, limit {limit}",
                                 draw=_v(g.power_draw_w, " W"), limit=_v(g.power_limit_w, " W")))
    if g.temperature_c is not None:
        out.append("  " + tr("Temperature: {t} °C", t=g.temperature_c))
    if g.throttle_reasons:
        out.append("  " + tr("Slowed down now by: {reasons}", reasons=", ".join(g.throttle_reasons)))
    if g.driver_version or g.cuda_driver_version:
        out.append("  " + tr("Driver {driver} (supports CUDA up to {cuda})",
                                 driver=_v(g.driver_version), cuda=_v(g.cuda_driver_version)))
    if g.mig_enabled:
        out.append("  " + tr("MIG is on: {n} slices", n=len(g.mig_slices)))
    if g.display_active:
        out.append("  " + tr("Also drives a display (some VRAM is in use)"))
    return out


def _gpu(machine, ctx: JobContext | None = None) -> PartView:
    gpus = machine.gpus
    groups: list[tuple[list, list[str]]] = []  # identical GPUs (same name and details) shown once
    for g in gpus:
        lines = _gpu_lines(g)
        if groups and groups[-1][0][0].name == g.name and groups[-1][1] == lines:
            groups[-1][0].append(g)
        else:
            groups.append(([g], lines))
    details: list[str] = []
    for same, lines in groups:
        if len(same) == 1:
            details.append(tr("GPU {index}: {name}", index=same[0].index, name=same[0].name))
        else:
            details.append(tr("GPUs {first}–{last} ({n} identical): {name}", first=same[0].index,
                              last=same[-1].index, n=len(same), name=same[0].name))
        details.extend(lines)
    compute = machine.compute_gpus()
    if compute:
        main = compute[0]
        vram = fmt_gib(main.vram_total_bytes)
        if ctx is not None and ctx.usable_vram_bytes is not None and main.vram_total_bytes is not None \
                and abs(ctx.usable_vram_bytes - main.vram_total_bytes) >= 0.05 * 1024**3:
            vram = tr("{usable} usable of {total}", usable=fmt_gib(ctx.usable_vram_bytes),
                      total=fmt_gib(main.vram_total_bytes, 0 if main.vram_total_bytes % 1024**3 == 0 else 1))
        if len(compute) > 1:
            summary = tr("{n} × {name} · {vram} VRAM each", n=len(compute), name=main.name, vram=vram)
        elif machine.memory.shared_with_gpu:  # unified memory: the GPU's share of the one memory
            summary = tr("{name} · {vram} of the {ram} memory it shares with the processor (unified memory)",
                         name=main.name, vram=fmt_gib(ctx.usable_vram_bytes if ctx is not None and
                                                      ctx.usable_vram_bytes is not None else main.vram_total_bytes),
                         ram=fmt_gib(machine.memory.total_bytes, 0))
        else:
            summary = tr("{name} · {vram} VRAM", name=main.name, vram=vram)
    elif gpus:
        summary = tr("{name} (not usable for training)", name=gpus[0].name)
    else:  # the scan's finding says what that means (jobs run on the CPU): said once
        summary = tr("No graphics card for training")
    status = _status(machine, "gpu", bool(compute))
    findings = tuple(finding_text(f) for f in findings_for(machine, "gpu"))
    if compute and ctx is not None:  # the same count as the jobs table
        message = tr("Trains {runs} of the {total} built-in jobs here (as the jobs page lists them, some with "
                     "the advised settings).", runs=ctx.trains, total=ctx.total)
        findings = (message, *findings)
        good = ctx.total > 0 and ctx.trains / ctx.total >= float(advice_data.factor("readiness", "good_min_share"))
        if status == "good" and not good:
            status = "limited"
    elif compute:
        ready = readiness.gpu_readiness(machine)  # what the GPU can train decides good / limited
        if ready is not None:
            findings = (ready.message, *findings)
            if status == "good":
                status = ready.status
    return PartView("gpu", tr(AREA_TITLES["gpu"]), status, summary, findings, tuple(details))


def _cpu(machine) -> PartView:
    c = machine.cpu
    present = c.brand is not None or c.logical_cores is not None
    summary = tr("{brand} · {phys} cores / {logical} threads", brand=c.brand or tr("unknown processor"),
                 phys=_v(c.physical_cores), logical=_v(c.logical_cores))
    details = [tr("Architecture: {arch}", arch=_v(c.arch))]
    if c.max_clock_mhz is not None or c.base_clock_mhz is not None:
        details.append(tr("Clock: {base} MHz base, {max} MHz max", base=_v(c.base_clock_mhz),
                          max=_v(c.max_clock_mhz)))
    if c.measured_clock_mhz is not None:
        details.append(tr("Clock of one busy core, measured: {mhz} MHz", mhz=f"{c.measured_clock_mhz:,.0f}"))
    if c.l3_cache_bytes is not None:
        details.append(tr("L3 cache: {size}", size=fmt_bytes(c.l3_cache_bytes)))
    if c.sockets is not None:
        details.append(tr("Sockets: {n}", n=c.sockets))
    if c.flags:
        details.append(tr("Instruction sets: {flags}", flags=", ".join(c.flags)))
    status = _status(machine, "cpu", present)
    findings = tuple(finding_text(f) for f in findings_for(machine, "cpu"))
    if present and not machine.compute_gpus():  # no GPU for training: the processor is what trains every job
        findings = (tr("No GPU for training: every job trains on this processor ({n} threads), many times "
                       "slower than on a GPU.", n=_v(c.logical_cores)), *findings)
        status = "limited" if status == "good" else status
    return PartView("cpu", tr(AREA_TITLES["cpu"]), status, summary, findings, tuple(details))


def _memory(machine, ctx: JobContext | None = None) -> PartView:
    m = machine.memory
    wsl = machine.software.platform == "wsl"
    summary = tr("{total} RAM · {available} available", total=fmt_gib(m.total_bytes),
                 available=fmt_gib(m.available_bytes))
    if wsl:
        summary = tr("{total} RAM for Linux (the WSL 2 limit) · {available} available",
                     total=fmt_gib(m.total_bytes), available=fmt_gib(m.available_bytes))
    details = [tr("Swap: {total} total, {free} free", total=fmt_gib(m.swap_total_bytes),
                  free=fmt_gib(m.swap_free_bytes))]
    if m.shared_with_gpu:
        details.append(tr("Shared with the GPU (unified memory)"))
    status = _status(machine, "memory", m.total_bytes is not None)
    findings = tuple(finding_text(f) for f in findings_for(machine, "memory"))
    if ctx is not None and ctx.ram_limited:  # the jobs page says RAM stops these: the card says so too
        limit = (tr("WSL 2 gives Linux only {total}: raise memory= in .wslconfig.", total=fmt_gib(m.total_bytes))
                 if wsl else "")
        names = list(ctx.ram_limited[:3])
        if len(ctx.ram_limited) > 3:
            names.append(tr("{n} more", n=len(ctx.ram_limited) - 3))
        findings = (tr("Too little RAM for: {jobs}. {limit}", jobs=fmt_list(names), limit=limit).strip(),
                    *findings)
        status = "limited" if status == "good" else status
    return PartView("memory", tr(AREA_TITLES["memory"]), status, summary, findings, tuple(details))


def _kind(kind: str) -> str:
    return tr(DISK_KINDS[kind]) if kind in DISK_KINDS else kind


def _disks(machine) -> PartView:
    disks = machine.disks
    details = []
    for d in disks:
        details.append(tr("{mount} ({device}): {kind}, {free} free of {total}", mount=d.mount, device=d.device,
                          kind=_kind(d.kind), free=fmt_gib(d.free_bytes), total=fmt_gib(d.total_bytes)))
        if d.model:
            details.append("  " + tr("Model: {model}", model=d.model))
        if d.kind_reason:
            details.append("  " + tr("Type found from: {reason}", reason=machine_mod.kind_reason_shown(d)))
    if disks:
        kinds = fmt_list(dict.fromkeys(_kind(d.kind) for d in disks))
        summary = (tr("1 disk · {kinds}", kinds=kinds) if len(disks) == 1
                   else tr("{n} disks · {kinds}", n=len(disks), kinds=kinds))
    else:
        summary = tr("No disks were found.")
    return PartView("disk", tr(AREA_TITLES["disk"]), _status(machine, "disk", bool(disks)), summary,
                    tuple(finding_text(f) for f in findings_for(machine, "disk")), tuple(details))


def _power(machine) -> PartView:
    p = machine.power
    bits = []
    virtual = any(getattr(f, "code", "") == "scan.virtual_machine" for f in machine.findings)
    if p.is_server:
        bits.append(tr("Server"))
    elif virtual:  # a cloud or local VM: neither a desktop nor a laptop as far as its power goes
        bits.append(tr("Virtual machine"))
    elif p.is_laptop is not None:
        bits.append(tr("Laptop") if p.is_laptop else tr("Desktop"))
    if p.on_battery:
        bits.append(tr("on battery"))
    if p.estimated_peak_system_w is not None:
        bits.append(tr("about {w} W at full load (estimate)", w=f"{p.estimated_peak_system_w:.0f}"))
    # a desktop's or a virtual machine's power supply cannot be read by software: the card cannot judge it
    psu_unknown = not p.is_laptop and p.psu_rated_w is None
    if psu_unknown and bits:
        bits.append(tr("power supply not readable"))
    summary = " · ".join(bits) if bits else tr("Power details are unknown.")
    details = []
    if p.recommended_psu_w is not None:
        details.append(tr("Recommended power supply: {w} W", w=p.recommended_psu_w))
    if p.gpu_power_limit_w_total is not None:
        details.append(tr("GPU power limit (all GPUs): {w} W", w=f"{p.gpu_power_limit_w_total:.0f}"))
    if p.battery_percent is not None:
        details.append(tr("Battery: {pct} %", pct=f"{p.battery_percent:.0f}"))
    details.extend(machine_mod.notes_shown(p))
    status = _status(machine, "power", bool(bits))
    if psu_unknown and status == "good":
        status = "unknown"
    return PartView("power", tr(AREA_TITLES["power"]), status, summary,
                    tuple(finding_text(f) for f in findings_for(machine, "power")), tuple(details))


def _software(machine) -> PartView:
    s = machine.software
    fw = fmt_list(f"{f.name} {f.version}" for f in s.frameworks)
    summary = tr("{os} {version}", os=s.os_name or tr("unknown system"), version=s.os_version or "")
    if fw:
        summary = tr("{system} · {frameworks}", system=summary, frameworks=fw)
    details = [tr("Python {v}", v=_v(s.python_version))]
    if s.nvidia_driver_version:
        details.append(tr("NVIDIA driver {v} (CUDA {cuda})", v=s.nvidia_driver_version,
                          cuda=_v(s.cuda_driver_version)))
    if s.rocm_version:
        details.append(tr("ROCm {v}", v=s.rocm_version))
    if s.kernel:
        details.append(tr("Kernel {v}", v=s.kernel))
    for f in s.frameworks:
        gpu = {True: tr("can use the GPU"), False: tr("cannot use the GPU"), None: tr("GPU use unknown")}
        line = tr("{name} {version}: {gpu}", name=f.name, version=f.version, gpu=gpu[f.can_use_gpu])
        if f.reason:
            line = tr("{line} ({reason})", line=line, reason=machine_mod.reason_shown(f))
        details.append(line)
    status = _status(machine, "software", s.os_name is not None)
    findings = tuple(finding_text(f) for f in findings_for(machine, "software"))
    has_torch = any(f.name.lower() in ("torch", "pytorch") for f in s.frameworks)
    apple = any(g.vendor == "apple" for g in machine.gpus)
    mps_need = software_advice.macos_too_old_for_mps(machine) if apple else None
    if mps_need is not None:
        findings = (tr("macOS {have} is too old for training on the Mac's GPU: update macOS to {need} or later "
                       "first, then install PyTorch.", have=s.os_version, need=mps_need), *findings)
        status = "limited" if status == "good" else status
    elif not has_torch and s.os_name is not None:
        findings = (tr("Needs PyTorch: it is not installed. The details page gives the command for this PC."),
                    *findings)
        status = "limited" if status == "good" else status
    return PartView("software", tr(AREA_TITLES["software"]), status, summary, findings, tuple(details))


_BUILDERS = {"gpu": _gpu, "cpu": _cpu, "memory": _memory, "disk": _disks, "power": _power,
             "software": _software}


# which card shows which deep-scan figure (gpucheck.bench.present: the Measured field names)
_MEASURED_AREAS = (("gpu_", "gpu"), ("h2d_", "gpu"), ("d2h_", "gpu"), ("cpu_", "cpu"), ("ram_", "memory"),
                   ("disk_", "disk"))


def _measured_details(machine, area: str) -> list[str]:
    """The deep scan's measured figures for this part, as the scan summary words them."""
    if machine.measured is None:
        return []
    rows = [f for f in bench_present.measured_only(machine)
            if any(f.key.startswith(prefix) and a == area for prefix, a in _MEASURED_AREAS)]
    if not rows:
        return []
    return [tr("Measured by the deep scan:")] + [f"  {f.line}" for f in rows]


def part_view(machine, area: str, ctx: JobContext | None = None) -> PartView:
    """What a part's card shows; `ctx` (from the jobs the app estimated) makes the GPU and RAM cards count
    and name what the jobs page shows. A deep scan's figures for the part end its details."""
    v = _BUILDERS[area](machine, ctx) if area in ("gpu", "memory") else _BUILDERS[area](machine)
    measured = _measured_details(machine, area)
    return dataclasses.replace(v, details=(*v.details, *measured)) if measured else v


def part_views(machine) -> list[PartView]:
    return [part_view(machine, a) for a in AREAS]


def other_findings(machine) -> list[str]:
    """Findings about the scan itself (areas without a card), and where a deep scan's figures are."""
    out = [finding_text(f) for f in machine.findings if area_key(f.area) not in AREAS]
    m = machine.measured
    if m is not None:
        out.append(tr("The deep scan stopped after {s} s; what it measured is in the parts' details.",
                      s=f"{m.duration_s or 0:.0f}") if m.cancelled else
                   tr("The deep scan measured this PC in {s} s: its figures are in the parts' details.",
                      s=f"{m.duration_s or 0:.0f}"))
    return out


def as_text(machine) -> str:
    """The whole machine as plain text, for the clipboard."""
    lines = []
    if machine.label:
        lines.append(tr("Saved scan: {label}", label=machine.label))
    for v in part_views(machine):
        lines.append(f"{v.title} — {tr(STATUS_LABELS[v.status])}")
        lines.append(f"  {v.summary}")
        lines.extend(f"  • {f}" for f in v.findings)
        lines.extend(f"    {d}" for d in v.details)
    for f in other_findings(machine):
        lines.append(f"• {f}")
    return "\n".join(lines)
