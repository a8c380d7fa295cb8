"""Windows: every display adapter from the registry, with its real memory size.

`HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\NNNN` holds one
subkey per adapter; `HardwareInformation.qwMemorySize` (a 64-bit value) is its dedicated memory.
WMI's `Win32_VideoController.AdapterRAM` is 32-bit and caps near 4 GB, and `wmic` is gone from
Windows 11 24H2, so neither is used. The registry is read through an injected reader
(`base.read_registry_subkeys` with winreg on Windows, a parsed `.reg` export in tests).
Disks: `MSFT_PhysicalDisk` (MediaType / BusType) through PowerShell's Get-CimInstance.
"""

from __future__ import annotations

import re
from typing import Any

from gpucheck.machine import Gpu
from gpucheck.probe.base import Part, Sources, finding, to_int

DISPLAY_CLASS = r"SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
VENDORS = {"10de": "nvidia", "1002": "amd", "8086": "intel", "1414": "microsoft"}
# MSFT_PhysicalDisk codes (Microsoft docs, "MSFT_PhysicalDisk class"): MediaType 3 HDD, 4 SSD, 5 SCM;
# BusType 7 USB, 11 SATA, 17 NVMe, 8 RAID, 10 SAS, 12 SD, 13 MMC, 14 Virtual, 15 File Backed Virtual.
MEDIA_TYPES = {3: "hdd", 4: "ssd", 5: "ssd"}
BUS_TYPES = {17: "nvme", 7: "removable", 12: "removable", 13: "removable", 14: "virtual", 15: "virtual"}


def _as_int(v: Any) -> int | None:
    if isinstance(v, (bytes, bytearray)):
        return int.from_bytes(bytes(v[:8]), "little") if v else None
    return to_int(v)


def nvidia_driver_from_windows(version: str | None) -> str | None:
    """Windows driver version 31.0.15.1694 → NVIDIA's 516.94 (the last five digits)."""
    if not version:
        return None
    digits = re.sub(r"\D", "", "".join(version.split(".")[-2:]))
    if len(digits) < 5:
        return None
    d = digits[-5:]
    return f"{int(d[:3])}.{d[3:]}"


def gpus_from_registry(subkeys: dict[str, dict[str, Any]]) -> list[Gpu]:
    gpus: list[Gpu] = []
    for name in sorted(subkeys):
        if not re.fullmatch(r"\d{4}", name):
            continue
        v = subkeys[name]
        desc = v.get("DriverDesc") or v.get("HardwareInformation.AdapterString")
        if isinstance(desc, bytes):
            desc = desc.decode("utf-16-le", errors="replace").rstrip("\x00")
        match = str(v.get("MatchingDeviceId", "")).lower()
        m = re.search(r"ven_([0-9a-f]{4})", match)
        vendor = VENDORS.get(m.group(1)) if m else None
        if not desc or vendor in (None, "microsoft"):
            continue  # Basic Render / Remote Display adapters, empty slots
        qw = _as_int(v.get("HardwareInformation.qwMemorySize"))
        legacy = _as_int(v.get("HardwareInformation.MemorySize"))
        vram = qw if qw else (legacy if legacy and legacy < 0xFFF00000 else None)
        if vendor == "nvidia":
            backend, discrete = "cuda", True
        elif vendor == "amd":
            backend, discrete = "directml", None
        else:
            discrete = "arc" in str(desc).lower() and "graphics" not in str(desc).lower()
            backend = "xpu" if discrete else "none"
        drv = v.get("DriverVersion")
        gpus.append(Gpu(
            name=str(desc), vendor=vendor, backend=backend, vram_total_bytes=vram, index=len(gpus),
            source="registry", memory_kind="dedicated" if discrete or vram and vram > 1024**3 else "shared",
            is_discrete=discrete,
            driver_version=nvidia_driver_from_windows(drv) if vendor == "nvidia" else (str(drv) if drv else None),
        ))
    return gpus


def parse_physical_disks(text: str) -> list[dict[str, Any]]:
    """`Key=Value` or `Key : Value` records separated by blank lines (Get-CimInstance | Format-List)."""
    disks: list[dict[str, Any]] = []
    cur: dict[str, Any] = {}
    for line in text.replace("\r", "").splitlines():
        line = line.strip().lstrip("\ufeff")
        if not line:
            if cur.get("FriendlyName") or cur.get("MediaType") is not None:
                disks.append(cur)
            cur = {}
            continue
        m = re.match(r"([A-Za-z]+)\s*(?:=|:)\s*(.*)$", line)
        if m:
            cur[m.group(1)] = m.group(2).strip()
    if cur.get("FriendlyName") or cur.get("MediaType") is not None:
        disks.append(cur)
    return disks


def disk_kind(d: dict[str, Any]) -> tuple[str, str]:
    bus = to_int(d.get("BusType"))
    media = to_int(d.get("MediaType"))
    name = str(d.get("FriendlyName") or d.get("Model") or "")
    if bus in BUS_TYPES:
        return BUS_TYPES[bus], f"MSFT_PhysicalDisk BusType={bus}"
    if re.search(r"vbox|vmware|virtual|qemu|msft virtual", name, re.I):
        return "virtual", f"model '{name}'"
    if media in MEDIA_TYPES:
        return MEDIA_TYPES[media], f"MSFT_PhysicalDisk MediaType={media}"
    return "unknown", f"MSFT_PhysicalDisk MediaType={media} BusType={bus}"


PHYSICAL_DISK_PS = (
    "Get-CimInstance -Namespace root/Microsoft/Windows/Storage -ClassName MSFT_PhysicalDisk | "
    "Format-List DeviceId,FriendlyName,Model,MediaType,BusType,Size; "
    "Get-Partition | Where-Object DriveLetter | ForEach-Object { '' ; 'DriveLetter=' + $_.DriveLetter; "
    "'DiskNumber=' + $_.DiskNumber; 'FriendlyName=partition' }"
)


def physical_disks(src: Sources) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Physical disks and {drive letter: disk number}."""
    text = src.run(["powershell", "-NoProfile", "-NonInteractive", "-Command", PHYSICAL_DISK_PS], timeout=8)
    if not text:
        return [], {}
    recs = parse_physical_disks(text)
    letters = {r["DriveLetter"].upper(): str(r.get("DiskNumber")) for r in recs if r.get("DriveLetter")}
    return [r for r in recs if not r.get("DriveLetter")], letters


def probe(src: Sources) -> Part:
    if src.system != "windows" or src.registry is None:
        return Part(area="windows")
    try:
        subkeys = src.registry(DISPLAY_CLASS)
    except OSError as e:
        return Part(area="windows", findings=(finding("gpu", "unknown",
            "Windows: the list of display adapters is unknown because the registry could not be read "
            "({detail})", "windows.registry", detail=str(e)),))
    return Part(area="windows", facts={"listed_gpus": tuple(gpus_from_registry(subkeys))})
