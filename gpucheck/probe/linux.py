"""Linux (and WSL2) platform facts: display-class PCI devices, virtual machine, chassis, WSL.

PCI devices come from /sys/bus/pci/devices (no root, no lspci needed); `lspci -nn` text is parsed when
sysfs is not there. They tell the assembler which GPUs exist even without a driver (an NVIDIA card with
no driver is a warning, not silence), and they add GPUs no vendor library reports (Intel iGPUs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpucheck.i18n import tr
from gpucheck.machine import Gpu
from gpucheck.probe.base import Part, Sources

VENDOR_IDS = {"0x10de": "nvidia", "0x1002": "amd", "0x1022": "amd", "0x8086": "intel", "0x106b": "apple"}
VM_MARKERS = ("qemu", "kvm", "virtualbox", "vmware", "xen", "bochs", "hyper-v", "virtual machine",
              "google compute engine", "amazon ec2", "openstack", "parallels", "bhyve", "cloud hypervisor")


@dataclass(frozen=True)
class PciGpu:
    bus: str  # 0000:01:00.0
    vendor: str  # nvidia | amd | intel | other
    vendor_id: str
    device_id: str
    class_code: str  # 0x030000 VGA, 0x030200 3D controller, 0x038000 display
    name: str | None = None
    driver: str | None = None
    boot_vga: bool | None = None


def is_wsl(src: Sources) -> bool:
    v = (src.read_strip("/proc/version") or "").lower()
    return "microsoft" in v or "wsl" in v or src.exists("/usr/lib/wsl/lib")


def virtual_machine(src: Sources) -> str | None:
    """The hypervisor's name if this Linux runs in a VM (DMI strings, /sys/hypervisor, cpu flag)."""
    for p in ("/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name", "/sys/class/dmi/id/board_vendor",
              "/sys/hypervisor/type"):
        v = (src.read_strip(p) or "").lower()
        for marker in VM_MARKERS:
            if marker in v:
                return v
    if is_wsl(src):
        return "wsl"
    cpuinfo = src.read("/proc/cpuinfo", 200_000) or ""
    m = re.search(r"^flags\s*:(.*)$", cpuinfo, re.M)
    if m and " hypervisor" in m.group(1):
        return "hypervisor"
    return None


def chassis_type(src: Sources) -> int | None:
    return src.read_int("/sys/class/dmi/id/chassis_type")


def pci_from_sysfs(src: Sources) -> list[PciGpu]:
    out = []
    base = "/sys/bus/pci/devices"
    for dev in src.listdir(base):
        cls = src.read_strip(f"{base}/{dev}/class") or ""
        if not cls.startswith("0x03"):
            continue
        vid = (src.read_strip(f"{base}/{dev}/vendor") or "").lower()
        did = (src.read_strip(f"{base}/{dev}/device") or "").lower()
        driver = None
        try:
            drv = src.path(f"{base}/{dev}/driver")
            if drv.is_symlink() or drv.exists():
                driver = drv.resolve().name
        except OSError:
            driver = None
        boot = src.read_strip(f"{base}/{dev}/boot_vga")
        out.append(PciGpu(bus=dev.lower(), vendor=VENDOR_IDS.get(vid, "other"), vendor_id=vid, device_id=did,
                          class_code=cls, driver=driver, boot_vga=None if boot is None else boot == "1"))
    return out


_LSPCI_LINE = re.compile(
    r"^(?P<bus>[0-9a-fA-F:.]+)\s+(?P<cls>[^[]+)\[(?P<clsid>03[0-9a-fA-F]{2})\]:\s+(?P<desc>.*?)\s*"
    r"\[(?P<vid>[0-9a-fA-F]{4}):(?P<did>[0-9a-fA-F]{4})\]")


def pci_from_lspci(text: str) -> list[PciGpu]:
    """Parse `lspci -nn` or `lspci -v -nn` output: display-class devices with their driver."""
    out: list[PciGpu] = []
    current: dict | None = None
    for line in text.splitlines():
        m = _LSPCI_LINE.match(line)
        if m:
            if current:
                out.append(PciGpu(**current))
            bus = m.group("bus").lower()
            if bus.count(":") == 1:
                bus = "0000:" + bus
            desc = m.group("desc")
            bracket = re.findall(r"\[([^\]]+)\]", desc)
            name = bracket[-1] if bracket else desc
            vid = "0x" + m.group("vid").lower()
            current = {"bus": bus, "vendor": VENDOR_IDS.get(vid, "other"), "vendor_id": vid,
                       "device_id": "0x" + m.group("did").lower(), "class_code": "0x" + m.group("clsid") + "00",
                       "name": name, "driver": None, "boot_vga": None}
            continue
        if current is not None:
            if line and not line[0].isspace():
                out.append(PciGpu(**current))
                current = None
                continue
            d = re.match(r"\s+Kernel driver in use:\s*(\S+)", line)
            if d:
                current["driver"] = d.group(1)
    if current:
        out.append(PciGpu(**current))
    return out


def _pci_gpu_record(p: PciGpu, index: int) -> Gpu:
    vendor = p.vendor if p.vendor in ("nvidia", "amd", "intel", "apple") else "other"
    name = p.name or tr("{vendor} GPU {vid}:{did}", vendor=vendor.upper() if vendor != "other" else tr("Unknown"),
                        vid=p.vendor_id[2:], did=p.device_id[2:])
    if vendor == "intel":
        discrete = "arc" in name.lower() and "graphics" not in name.lower()
        backend = "xpu" if discrete else "none"
    elif vendor == "nvidia":
        discrete, backend = True, "cuda"
    elif vendor == "amd":
        discrete, backend = None, "rocm"
    else:
        discrete, backend = None, "unknown"
    return Gpu(name=name, vendor=vendor, backend=backend, index=index, source="lspci", pci_bus_id=p.bus,
               is_discrete=discrete, memory_kind="dedicated" if discrete else "shared")


def probe(src: Sources) -> Part:
    pci = pci_from_sysfs(src)
    if not pci:
        text = src.run(["lspci", "-nn"], timeout=3)
        if text:
            pci = pci_from_lspci(text)
    return part_from_pci(src, pci)


def part_from_pci(src: Sources, pci: list[PciGpu]) -> Part:
    wsl = is_wsl(src)
    listed = tuple(_pci_gpu_record(p, i) for i, p in enumerate(pci))
    facts = {
        "wsl": wsl,
        "virtual_machine": virtual_machine(src),
        "chassis_type": chassis_type(src),
        "nvidia_hw_present": any(p.vendor == "nvidia" for p in pci),
        "amd_hw_present": any(p.vendor == "amd" for p in pci),
        "nvidia_driver_loaded": any(p.vendor == "nvidia" and p.driver == "nvidia" for p in pci),
        "listed_gpus": listed,
    }
    return Part(area="platform", facts=facts)
