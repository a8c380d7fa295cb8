"""AMD GPUs: amdsmi (Python) when importable, else `amd-smi static --json`, else `rocm-smi --json`,
else sysfs (`/sys/class/drm/card*/device/mem_info_vram_total`).

APU or discrete: the KFD topology node of an APU reports `local_mem_size 0` (its "VRAM" is a carve-out
of system RAM set in the BIOS); without KFD the PCI device id is checked against the APU list in
resources/probe.toml. An APU's carve-out is reported as `memory_kind="carve-out"` and the GTT size
(system RAM the GPU may borrow) as `shared_memory_bytes`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from gpucheck.i18n import fmt_gib, tr
from gpucheck.machine import Gpu
from gpucheck.probe.base import Part, Sources, finding, to_float, to_int
from gpucheck.probe.facts import probe_facts
from gpucheck.probe.linux import pci_from_sysfs

LINK_GEN = {"2.5": 1, "5.0": 2, "8.0": 3, "16.0": 4, "32.0": 5, "64.0": 6}


def _gfx_name(target: int | None) -> str | None:
    """KFD gfx_target_version 110003 → 'gfx1103'."""
    if not target:
        return None
    major, minor, step = target // 10000, (target // 100) % 100, target % 100
    return f"gfx{major}{minor}{step:x}"


def _arch(gfx: str | None) -> str | None:
    if not gfx:
        return None
    return probe_facts().amd.gfx_arch.get(gfx.lower())


def _apu_table() -> dict[str, str]:
    return dict(probe_facts().amd.apu_names)


def _link_gen(speed: str | None) -> int | None:
    if not speed:
        return None
    m = re.match(r"([\d.]+)\s*GT/s", speed)
    return LINK_GEN.get(m.group(1)) if m else None


def _kfd_nodes(src: Sources) -> list[dict[str, int]]:
    nodes = []
    base = "/sys/class/kfd/kfd/topology/nodes"
    for n in src.listdir(base):
        props = src.read(f"{base}/{n}/properties") or ""
        d: dict[str, int] = {}
        for line in props.splitlines():
            parts = line.split()
            if len(parts) == 2:
                v = to_int(parts[1])
                if v is not None:
                    d[parts[0]] = v
        if d.get("simd_count", 0) > 0:  # a GPU node (CPU nodes have no SIMDs)
            nodes.append(d)
    return nodes


def _pci_name(src: Sources, vid: str, did: str) -> str | None:
    """Device name from the system's pci.ids (hwdata), if present."""
    for p in ("/usr/share/hwdata/pci.ids", "/usr/share/misc/pci.ids", "/usr/share/pci.ids"):
        text = src.read(p, 3_000_000)
        if not text:
            continue
        v, d = vid[2:].lower(), did[2:].lower()
        in_vendor = False
        for line in text.splitlines():
            if line.startswith(v + " "):
                in_vendor = True
                continue
            if in_vendor:
                if line and not line.startswith("\t"):
                    break
                if line.startswith("\t" + d + " "):
                    name = line.strip()[len(d):].strip()
                    br = re.findall(r"\[([^\]]+)\]", name)
                    return br[-1] if br else name
        break
    return None


def from_sysfs(src: Sources) -> list[Gpu]:
    """AMD GPUs from /sys/class/drm/cardN/device (amdgpu driver)."""
    gpus: list[Gpu] = []
    kfd = _kfd_nodes(src)
    apu_ids = _apu_table()
    for card in src.listdir("/sys/class/drm"):
        if not re.fullmatch(r"card\d+", card):
            continue
        d = f"/sys/class/drm/{card}/device"
        if (src.read_strip(f"{d}/vendor") or "").lower() != "0x1002":
            continue
        vram = _size_or_none(src.read_int(f"{d}/mem_info_vram_total"))
        if vram is None:
            continue
        did = (src.read_strip(f"{d}/device") or "").lower()
        used = _size_or_none(src.read_int(f"{d}/mem_info_vram_used"))
        gtt = _size_or_none(src.read_int(f"{d}/mem_info_gtt_total"))
        uevent = src.read(f"{d}/uevent") or ""
        m = re.search(r"PCI_SLOT_NAME=(\S+)", uevent)
        bus = m.group(1).lower() if m else None
        did_int = to_int(did) if did else None
        node = next((n for n in kfd if n.get("device_id") == did_int), kfd[0] if len(kfd) == 1 else None)
        if node is not None and "local_mem_size" in node:
            apu = node["local_mem_size"] == 0
        else:
            apu = did in apu_ids
        gfx = _gfx_name(node.get("gfx_target_version")) if node else None
        cus = None
        if node and node.get("simd_per_cu"):
            cus = node["simd_count"] // node["simd_per_cu"]
        name = apu_ids.get(did) or _pci_name(src, "0x1002", did) or tr("AMD Radeon GPU (device {did})", did=did)
        gpus.append(Gpu(
            name=name, vendor="amd", backend="rocm", vram_total_bytes=vram,
            vram_free_bytes=_size_or_none(vram - used) if used is not None else None, index=len(gpus), source="sysfs",
            pci_bus_id=bus, memory_kind="carve-out" if apu else "dedicated",
            shared_memory_bytes=gtt if apu else None, is_discrete=not apu, compute_capability=gfx,
            architecture=_arch(gfx), sm_count=cus,
            clock_graphics_max_mhz=node.get("max_engine_clk_fcompute") if node else None,
            pcie_gen_current=_link_gen(src.read_strip(f"{d}/current_link_speed")) if not apu else None,
            pcie_gen_max=_link_gen(src.read_strip(f"{d}/max_link_speed")) if not apu else None,
            pcie_width_current=src.read_int(f"{d}/current_link_width") if not apu else None,
            pcie_width_max=src.read_int(f"{d}/max_link_width") if not apu else None,
            display_active=(src.read_strip(f"{d}/boot_vga") == "1") if src.exists(f"{d}/boot_vga") else None,
        ))
    return gpus


def _num(s: Any) -> int | None:
    if isinstance(s, dict):
        v, unit = s.get("value"), str(s.get("unit", "")).upper()
        n = to_int(v)
        if n is None:
            return None
        return n * {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}.get(unit, 1)
    return to_int(s)


def from_amd_smi_static(text: str) -> list[Gpu]:
    """`amd-smi static --json`: a list of GPUs (older amd-smi) or {"gpu_data": [...]} (newer)."""
    data = json.loads(text)
    if isinstance(data, dict):
        data = data.get("gpu_data", [])
    gpus = []
    for i, g in enumerate(data if isinstance(data, list) else []):
        asic = g.get("asic", {}) or {}
        bus = g.get("bus", {}) or {}
        vram = g.get("vram", {}) or {}
        limit = g.get("limit", {}) or {}
        name = asic.get("market_name") or tr("AMD GPU {index}", index=i)
        name = name.replace("[", "").replace("]", "") if name.count("[") != name.count("]") else name
        br = re.findall(r"\[([^\]]+)\]?", name)
        gen = re.search(r"(\d+)", str(bus.get("pcie_interface_version", "")))
        power = limit.get("max_power") or limit.get("socket_power")
        gpus.append(Gpu(
            name=str(br[-1] if br else name).strip(), vendor="amd", backend="rocm",
            vram_total_bytes=_size_or_none(_num(vram.get("size"))), index=i, source="amd-smi",
            pci_bus_id=_text(bus.get("bdf")), compute_capability=_text(asic.get("target_graphics_version")),
            architecture=_arch(asic.get("target_graphics_version")), is_discrete=True,
            pcie_gen_max=int(gen.group(1)) if gen else None,
            pcie_width_max=_size_or_none(to_int(bus.get("max_pcie_width"))),
            power_limit_w=_size_or_none(to_float(power.get("value"))) if isinstance(power, dict) else None,
            sm_count=_size_or_none(to_int(asic.get("num_compute_units"))),
            driver_version=_text((g.get("driver", {}) or {}).get("version")),
        ))
    return gpus


def _size_or_none(n: Any) -> Any:
    """A size, count or wattage from a tool: a negative one is garbage, not a value."""
    return n if n is not None and n >= 0 else None


def _text(v: Any) -> str | None:
    """A string field from a tool's JSON; anything else (a number, a list) is no value."""
    return v if isinstance(v, str) and v else None


def from_rocm_smi(text: str) -> tuple[list[Gpu], str | None]:
    """`rocm-smi … --json`: {"card0": {...}, "system": {"Driver version": ...}}."""
    data = json.loads(text)
    driver = (data.get("system", {}) or {}).get("Driver version")
    gpus: list[Gpu] = []
    for key in sorted((k for k in data if k.startswith("card")), key=lambda k: int(re.sub(r"\D", "", k) or 0)):
        c = {k.lower(): v for k, v in data[key].items()}
        name = c.get("card series") or c.get("device name") or tr("AMD GPU {index}", index=len(gpus))
        br = re.findall(r"\[([^\]]+)\]", name)
        vram = _size_or_none(to_int(c.get("vram total memory (b)")))
        used = _size_or_none(to_int(c.get("vram total used memory (b)")))
        temp = c.get("temperature (sensor edge) (c)")
        power = c.get("max graphics package power (w)")
        gfx = c.get("gfx version")
        pcie = re.search(r"([\d.]+)GT/s x(\d+)", str(c.get("pcie clock level", "")))
        gpus.append(Gpu(
            name=(br[-1] if br else name).strip(), vendor="amd", backend="rocm", vram_total_bytes=vram,
            vram_free_bytes=_size_or_none(vram - used) if vram is not None and used is not None else None,
            index=len(gpus), source="rocm-smi", pci_bus_id=_text(c.get("pci bus")),
            compute_capability=_text(gfx), architecture=_arch(gfx), is_discrete=True,
            temperature_c=to_float(temp),
            power_limit_w=_size_or_none(to_float(power)),
            pcie_gen_current=LINK_GEN.get(pcie.group(1)) if pcie else None,
            pcie_width_current=int(pcie.group(2)) if pcie else None,
            driver_version=_text(driver),
        ))
    return gpus, driver


def _from_amdsmi_module() -> list[Gpu] | None:
    try:
        import amdsmi  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        amdsmi.amdsmi_init()
    except Exception:  # noqa: BLE001 — amdsmi raises its own AmdSmiException; treat as "not available"
        return None
    gpus: list[Gpu] = []
    try:
        for i, h in enumerate(amdsmi.amdsmi_get_processor_handles()):
            try:
                asic = amdsmi.amdsmi_get_gpu_asic_info(h)
            except Exception:  # noqa: BLE001
                asic = {}
            try:
                vram = int(amdsmi.amdsmi_get_gpu_memory_total(h, amdsmi.AmdSmiMemoryType.VRAM))
            except Exception:  # noqa: BLE001
                vram = None
            try:
                used = int(amdsmi.amdsmi_get_gpu_memory_usage(h, amdsmi.AmdSmiMemoryType.VRAM))
            except Exception:  # noqa: BLE001
                used = None
            try:
                bdf = amdsmi.amdsmi_get_gpu_device_bdf(h)
            except Exception:  # noqa: BLE001
                bdf = None
            gfx = asic.get("target_graphics_version") if isinstance(asic, dict) else None
            gpus.append(Gpu(
                name=str(asic.get("market_name") or tr("AMD GPU {index}", index=i)), vendor="amd", backend="rocm",
                vram_total_bytes=vram, vram_free_bytes=_size_or_none(vram - used) if vram is not None and used is not None else None,
                index=i, source="amdsmi", pci_bus_id=bdf, compute_capability=gfx, architecture=_arch(gfx),
                sm_count=to_int(asic.get("num_compute_units")) if isinstance(asic, dict) else None,
            ))
    finally:
        try:
            amdsmi.amdsmi_shut_down()
        except Exception:  # noqa: BLE001
            pass
    return gpus


def _merge_sysfs(gpus: list[Gpu], sysfs: list[Gpu]) -> list[Gpu]:
    """Tool output lacks the APU/carve-out view; take it from sysfs where the same card is there."""
    out = []
    for g in gpus:
        twin = next((s for s in sysfs if s.pci_bus_id and g.pci_bus_id and s.pci_bus_id[-7:] == g.pci_bus_id.lower()[-7:]),
                    sysfs[g.index] if len(sysfs) == len(gpus) else None)
        if twin is not None:
            g = dataclasses.replace(g, memory_kind=twin.memory_kind, is_discrete=twin.is_discrete,
                                    shared_memory_bytes=twin.shared_memory_bytes,
                                    compute_capability=g.compute_capability or twin.compute_capability,
                                    architecture=g.architecture or twin.architecture,
                                    sm_count=g.sm_count or twin.sm_count)
        out.append(g)
    return out


def _no_amd_hardware(src: Sources) -> bool:
    """True when Linux lists its PCI devices and none is an AMD display device: skip the slow tools."""
    if src.system != "linux" or not src.exists("/sys/bus/pci/devices"):
        return False
    return not any(p.vendor_id == "0x1002" for p in pci_from_sysfs(src))


def probe(src: Sources, use_module: bool = True) -> Part:
    notes = []
    if _no_amd_hardware(src):
        return Part(area="amd")
    gpus: list[Gpu] | None = _from_amdsmi_module() if use_module and src.system == "linux" else None
    if not gpus:
        text = src.run(["amd-smi", "static", "--json"], timeout=8)
        if text:
            try:
                gpus = from_amd_smi_static(text)
            except (ValueError, AttributeError, TypeError) as e:
                notes.append(f"amd-smi: {e}")
    if not gpus:
        text = src.run(["rocm-smi", "--showproductname", "--showmeminfo", "vram", "gtt", "--showbus",
                        "--showdriverversion", "--json"], timeout=8)
        if text:
            try:
                gpus, _ = from_rocm_smi(text)
            except (ValueError, AttributeError, TypeError) as e:
                notes.append(f"rocm-smi: {e}")
    sysfs = from_sysfs(src) if src.system == "linux" else []
    gpus = _merge_sysfs(gpus, sysfs) if gpus else sysfs
    rocm = src.read_strip("/opt/rocm/.info/version")
    findings = []
    for g in gpus:
        if g.memory_kind == "carve-out":
            findings.append(finding("gpu", "info",
                "{gpu} is built into the processor: its {vram} of video memory is a part of system RAM set "
                "aside in the BIOS; it can also borrow up to {shared} more.", "amd.apu", gpu=g.name,
                vram=fmt_gib(g.vram_total_bytes), shared=fmt_gib(g.shared_memory_bytes)))
    for n in notes:
        findings.append(finding("gpu", "unknown", "AMD: a tool's output could not be read ({detail})",
            "amd.parse", detail=n))
    return Part(area="amd", gpus=tuple(gpus), findings=tuple(findings), facts={"rocm_version": rocm})
