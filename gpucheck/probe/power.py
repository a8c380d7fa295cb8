"""Power: battery or mains, laptop or desktop, and a power-supply estimate.

The app cannot read a power supply. It estimates the peak system draw as the GPUs' power limits plus a
CPU TDP class default plus a base for the rest of the system, and recommends a PSU so that the peak is at
most 80% of its rating, rounded up to 50 W (numbers and sources in resources/probe.toml). Both figures are
estimates and are labelled as such.
"""

from __future__ import annotations

import dataclasses
import math

from gpucheck.i18n import tr_text
from gpucheck.lazy import lazy_import
from gpucheck.machine import Cpu, Gpu, Power, with_notes
from gpucheck.probe.base import Part, Sources, finding
from gpucheck.probe.facts import probe_facts
from gpucheck.probe.linux import is_wsl

# the GPU catalog is read only when a GPU was found (a scan without one does not load it)
catalog = lazy_import("gpucheck.catalog")


def chassis_kind(chassis_type: int | None) -> str | None:
    if chassis_type is None:
        return None
    t = probe_facts().chassis
    if chassis_type in t.laptop_types:
        return "laptop"
    if chassis_type in t.server_types:
        return "server"
    if chassis_type in t.desktop_types:
        return "desktop"
    return None


def probe(src: Sources) -> Part:
    """Battery state (psutil) and, on Linux, the DMI chassis type."""
    on_battery = percent = None
    has_battery = False
    sensors_ok = True
    try:
        b = src.ps.sensors_battery()
    except Exception:  # noqa: BLE001 — not every platform has battery sensors
        b, sensors_ok = None, False
    if b is not None:
        has_battery = True
        on_battery = None if b.power_plugged is None else not b.power_plugged
        percent = float(b.percent) if b.percent is not None else None
    chassis = src.read_int("/sys/class/dmi/id/chassis_type") if src.system == "linux" else None
    kind = chassis_kind(chassis)
    is_laptop = True if kind == "laptop" else (False if kind in ("desktop", "server") else
                                               (True if has_battery else (False if sensors_ok else None)))
    if not has_battery and sensors_ok:
        on_battery = False  # no battery: it runs on mains
    if src.system == "linux" and kind is None and not has_battery:
        if is_wsl(src):  # WSL2 sees neither the battery nor the chassis of the Windows host
            is_laptop = on_battery = None
    return Part(area="power", power=Power(on_battery=on_battery,
                                          battery_percent=percent, is_laptop=is_laptop),
                facts={"chassis_kind": kind, "has_battery": has_battery})


def cpu_tdp_default(cpu: Cpu | None, is_laptop: bool | None, server: bool) -> tuple[float | None, str]:
    if cpu is None:
        return None, ""
    if cpu.vendor == "apple":
        return probe_facts().power.cpu_tdp_apple_w, tr_text("Apple silicon class default")
    if server or (cpu.sockets or 1) > 1:
        per = probe_facts().power.cpu_tdp_server_socket_w
        return per * (cpu.sockets or 1), tr_text("server CPU class default, {w} W per socket", w=round(per))
    if is_laptop:
        return probe_facts().power.cpu_tdp_laptop_w, tr_text("laptop CPU class default")
    return probe_facts().power.cpu_tdp_desktop_w, tr_text("desktop CPU class default")


def datacenter_gpus(gpus: tuple[Gpu, ...]) -> bool:
    """Any GPU the catalog lists as a datacenter board (A100, H100, MI300X …): such boards live in servers."""
    ids = {g.catalog_id for g in gpus if g.catalog_id}
    if not ids:
        return False
    try:
        return any(s.segment == "datacenter" for s in catalog.load_gpus() if s.id in ids)
    except Exception:  # noqa: BLE001 — a broken catalog must not break the scan
        return False


def estimate(power: Power, gpus: tuple[Gpu, ...], cpu: Cpu | None, server: bool = False) -> tuple[Power, list]:
    """Fill the GPU power total, CPU TDP, estimated peak and recommended PSU; return findings to add.
    A server (`server`, or datacenter GPUs) gets the peak draw but no PSU size: its vendor sizes its
    redundant power supplies for the GPUs it ships with."""
    findings = []
    limits = [g.power_limit_w for g in gpus if g.power_limit_w]
    gpu_total = float(sum(limits)) if limits else None
    server = bool(server or datacenter_gpus(gpus)) and not power.is_laptop
    tdp, tdp_note = cpu_tdp_default(cpu, power.is_laptop, server)
    notes = []
    peak = psu = None
    if power.is_laptop or (cpu is not None and cpu.vendor == "apple"):
        notes.append(tr_text("A laptop or Mac runs from its own power adapter: no PSU to choose."))
    elif server and (gpu_total is not None or tdp is not None):
        base = probe_facts().power.base_system_w
        peak = (gpu_total or 0.0) + (tdp or 0.0) + base
        notes.append(tr_text(
            "Estimated, not measured: peak draw ≈ GPU power limits {gpu} W + CPU {cpu} W ({cpu_note}) + {base} W for "
            "the rest = {peak} W. A server's power supplies are redundant units sized by its vendor for the GPUs "
            "it ships with, so no PSU size is suggested.",
            gpu=round(gpu_total or 0), cpu=round(tdp or 0), cpu_note=tdp_note, base=round(base), peak=round(peak)))
        findings.append(finding("power", "info",
            "Power: this is a server, so its vendor sizes its redundant power supplies. At full load it draws "
            "about {peak} W (estimated): check that its power feeds (rack PDU or circuits) can supply that.",
            "power.server", peak=round(peak)))
    elif power.is_laptop is None:
        notes.append(tr_text("Whether this is a laptop is unknown, so no power supply size is suggested."))
    elif gpu_total is not None or tdp is not None:
        base = probe_facts().power.base_system_w
        peak = (gpu_total or 0.0) + (tdp or 0.0) + base
        frac = probe_facts().power.load_fraction
        step = probe_facts().power.round_to_w
        psu = int(math.ceil(peak / frac / step) * step)
        notes.append(tr_text(
            "Estimated, not measured: peak draw ≈ GPU power limits {gpu} W + CPU {cpu} W ({cpu_note}) + {base} W for the "
            "rest = {peak} W; a PSU of at least {psu} W keeps that at or below {pct}% of its rating.",
            gpu=round(gpu_total or 0), cpu=round(tdp or 0), cpu_note=tdp_note, base=round(base), peak=round(peak),
            psu=psu, pct=round(frac * 100)))
        findings.append(finding("power", "info",
            "Power supply: this PC should have at least {psu} W (estimated from the parts; the app cannot "
            "read the PSU).", "power.psu_estimate", psu=psu))
    if gpu_total is None and any(g.vendor in ("nvidia", "amd") and g.is_discrete for g in gpus):
        findings.append(finding("power", "unknown",
            "GPU power limit unknown because the driver did not report it; the PSU estimate leaves it out.",
            "power.gpu_limit"))
    power = dataclasses.replace(power, gpu_power_limit_w_total=gpu_total, cpu_tdp_w=tdp,
                                estimated_peak_system_w=peak, recommended_psu_w=psu,
                                is_server=server if power.is_laptop is not None or server else None)
    return with_notes(power, notes), findings
