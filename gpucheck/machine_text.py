"""The ONE Machine → text renderer (`gpucheck scan`, the headless summary). Presentation, so it lives
outside probe/ (which only gathers the facts).

What is shown is redacted first by the one privacy policy, `gpucheck.report.privacy.redact_machine` (no
host name, GPU UUIDs, serial numbers or user names in paths), unless `--show-ids` is given.
"""

from __future__ import annotations

from gpucheck.bench.present import measured_lines
from gpucheck.i18n import finding_text, fmt_gib, tr
from gpucheck.machine import Gpu, Machine, driver_reserved_bytes, reason_shown


def _yes_no(v: bool | None) -> str:
    return tr("unknown") if v is None else (tr("yes") if v else tr("no"))


def _gpu_lines(g: Gpu) -> list[str]:
    lines = []
    role = tr("used for training") if g.is_primary_compute else tr("not used for training")
    lines.append(tr("GPU {index}: {name} ({role})", index=g.index, name=g.name, role=role))
    if g.memory_kind == "unified":
        mem = tr("{usable} usable of unified memory (shared with the CPU)", usable=fmt_gib(g.usable_memory_bytes))
    elif g.memory_kind == "carve-out":
        mem = tr("{vram} carved out of system RAM, can borrow {shared} more", vram=fmt_gib(g.vram_total_bytes),
                 shared=fmt_gib(g.shared_memory_bytes))
    elif g.vram_total_bytes is None and g.memory_kind == "shared":
        mem = tr("shares system RAM")
    elif g.vram_total_bytes is None:
        mem = tr("unknown")
    elif g.vram_free_bytes is not None and (reserved := driver_reserved_bytes(g)):
        mem = tr("{total} total, {free} free, {reserved} kept by the driver", total=fmt_gib(g.vram_total_bytes),
                 free=fmt_gib(g.vram_free_bytes), reserved=fmt_gib(reserved))
    else:
        mem = tr("{total} total, {free} free", total=fmt_gib(g.vram_total_bytes),
                 free=fmt_gib(g.vram_free_bytes)) if g.vram_free_bytes is not None else fmt_gib(g.vram_total_bytes)
    lines.append("    " + tr("Video memory: {mem}", mem=mem))
    arch = [x for x in (g.architecture, g.compute_capability and tr("compute capability {cc}", cc=g.compute_capability)
                        if g.vendor == "nvidia" else g.compute_capability) if x]
    if arch:
        lines.append("    " + tr("Architecture: {arch}", arch=", ".join(arch)))
    if g.vendor == "nvidia" and g.compute_capability:
        lines.append("    " + tr("Tensor cores: generation {gen}; BF16: {bf16}; FP8: {fp8}",
                                 gen=g.tensor_core_generation if g.tensor_core_generation is not None else "?",
                                 bf16=_yes_no(g.supports_bf16), fp8=_yes_no(g.supports_fp8)))
    if g.sm_count:
        unit = {"nvidia": tr("SMs"), "amd": tr("compute units"), "apple": tr("GPU cores")}.get(g.vendor, tr("units"))
        lines.append("    " + tr("Compute: {n} {unit}", n=g.sm_count, unit=unit))
    if g.pcie_gen_current or g.pcie_width_current:
        lines.append("    " + tr("PCIe: gen {gen} x{width} now (max gen {gmax} x{wmax})",
                                 gen=g.pcie_gen_current or "?", width=g.pcie_width_current or "?",
                                 gmax=g.pcie_gen_max or "?", wmax=g.pcie_width_max or "?"))
    if g.nvlink_links:
        lines.append("    " + tr("NVLink: {n} active links to {peers} other GPU(s)", n=g.nvlink_links,
                                 peers=len(g.nvlink_peers)))
    if g.power_limit_w:
        lines.append("    " + tr("Power limit: {w} W (default {d} W)", w=round(g.power_limit_w),
                                 d=round(g.power_default_limit_w) if g.power_default_limit_w else "?"))
    if g.temperature_c is not None:
        lines.append("    " + tr("Temperature: {t} °C", t=round(g.temperature_c)))
    if g.mig_enabled:
        lines.append("    " + tr("MIG: on, {n} slices", n=len(g.mig_slices)))
        for s in g.mig_slices:
            lines.append("      " + tr("{name}: {mem}", name=s.name, mem=fmt_gib(s.memory_total_bytes)))
    if g.display_active:
        lines.append("    " + tr("Also drives a display"))
    if g.uuid:
        lines.append("    " + tr("UUID: {uuid}", uuid=g.uuid))
    return lines


SEVERITY_MARK = {"warning": "!", "error": "!!", "unknown": "?", "info": "-", "ok": "+"}


def format_machine(m: Machine) -> str:
    """A readable multi-line summary of a Machine."""
    out: list[str] = []
    if m.hostname:
        out.append(tr("Computer: {name}", name=m.hostname))
    if not m.gpus:
        out.append(tr("GPU: none found"))
    for g in m.gpus:
        out.extend(_gpu_lines(g))
    c = m.cpu
    cores = tr("{p} cores / {l} threads", p=c.physical_cores or "?", l=c.logical_cores or "?")
    out.append(tr("CPU: {brand}, {cores}", brand=c.brand or tr("unknown"), cores=cores))
    clock = c.max_clock_mhz or c.measured_clock_mhz
    if clock:
        how = tr("measured on one busy core") if not c.max_clock_mhz else tr("top clock, as the system reports it")
        out.append("    " + tr("Clock: {mhz} MHz ({how})", mhz=f"{clock:,.0f}", how=how))
    if c.flags:
        out.append("    " + tr("Instruction sets: {flags}", flags=", ".join(c.flags)))
    mem = m.memory
    ram = tr("RAM: {total} total, {avail} available", total=fmt_gib(mem.total_bytes), avail=fmt_gib(mem.available_bytes))
    if mem.shared_with_gpu:
        ram += " " + tr("(shared with the GPU)")
    out.append(ram)
    for d in m.disks:
        out.append(tr("Disk {mount}: {kind}, {free} free of {total}", mount=d.mount, kind=_kind_name(d.kind),
                      free=fmt_gib(d.free_bytes), total=fmt_gib(d.total_bytes)))
    p = m.power
    kind = tr("laptop") if p.is_laptop else (tr("not a laptop") if p.is_laptop is False else tr("laptop or not unknown"))
    src = tr("battery") if p.on_battery else (tr("mains") if p.on_battery is False else tr("unknown"))
    out.append(tr("Power: {kind}, running on {source}", kind=kind, source=src))
    if p.is_server and p.estimated_peak_system_w:
        out.append("    " + tr("Estimated peak draw {peak} W; a server's power supplies are sized by its vendor",
                               peak=round(p.estimated_peak_system_w)))
    elif p.recommended_psu_w:
        out.append("    " + tr("Estimated peak draw {peak} W; recommended PSU {psu} W (estimate)",
                               peak=round(p.estimated_peak_system_w or 0), psu=p.recommended_psu_w))
    s = m.software
    out.append(tr("System: {os} {version}, Python {py}", os=s.os_name or tr("unknown"), version=s.os_version or "",
                  py=s.python_version or "?"))
    if s.nvidia_driver_version:
        out.append("    " + tr("NVIDIA driver {driver} (CUDA {cuda})", driver=s.nvidia_driver_version,
                               cuda=s.cuda_driver_version or "?"))
    for f in s.frameworks:
        gpu = _yes_no(f.can_use_gpu)
        out.append("    " + tr("{name} {version}: can use the GPU: {gpu} — {reason}", name=f.name, version=f.version,
                               gpu=gpu, reason=reason_shown(f)))
    if not s.frameworks:
        out.append("    " + tr("No PyTorch, TensorFlow or JAX installed"))
    if m.measured is not None:
        out.append("")
        out.extend(measured_lines(m))
    if m.findings:
        out.append("")
        out.append(tr("Findings:"))
        order = {"error": 0, "warning": 1, "unknown": 2, "info": 3, "ok": 4}
        for found in sorted(m.findings, key=lambda x: order.get(x.severity, 5)):
            out.append(f"  {SEVERITY_MARK.get(found.severity, '-')} {finding_text(found)}")
    if m.scan_seconds is not None:
        out.append("")
        out.append(tr("Scanned in {s} s", s=f"{m.scan_seconds:.2f}"))
    return "\n".join(out)


def _kind_name(kind: str) -> str:
    return {"nvme": tr("NVMe SSD"), "ssd": tr("SSD"), "hdd": tr("hard disk"), "virtual": tr("virtual disk"),
            "network": tr("network drive"), "removable": tr("removable drive")}.get(kind, tr("unknown type"))
