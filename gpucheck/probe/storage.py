"""Disks: every mounted file system a user could keep data on, with its kind and free space.

Mounts come from psutil (pseudo file systems, snap loop mounts and duplicate mounts of one device are
left out). The kind is decided from the block device, in this order:
network file system → `network`; `nvme*` → `nvme`; virtio (`vd*`, driver virtio_blk, PCI vendor
0x1af4), Xen (`xvd*`) or any disk inside a virtual machine → `virtual` (VMs report rotational=1 for
disks that are not spinning, so this comes before the rotational flag); USB or removable → `removable`;
then `queue/rotational` → `hdd` (1) or `ssd` (0). `Disk.kind_reason` says which rule decided.
Linux reads /sys/block; recorded `lsblk` output gives the same facts in tests. Windows uses
MSFT_PhysicalDisk (MediaType, BusType); macOS `diskutil info`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from gpucheck.i18n import tr_text
from gpucheck.machine import Disk, kept
from gpucheck.probe.base import Part, Sources, finding
from gpucheck.probe.linux import virtual_machine
from gpucheck.probe.windows import disk_kind, physical_disks

PSEUDO_FS = {"tmpfs", "devtmpfs", "squashfs", "overlay", "proc", "sysfs", "cgroup", "cgroup2", "autofs", "ramfs",
             "efivarfs", "fuse.snapfuse", "devfs", "nullfs", "debugfs", "tracefs", "securityfs", "pstore", "bpf",
             "mqueue", "hugetlbfs", "configfs", "fusectl", "binfmt_misc", "rpc_pipefs", "nsfs", "fuse.lxcfs",
             "fuse.portal", "fuse.gvfsd-fuse", "iso9660", "udf", "zram", "swap"}
NETWORK_FS = {"nfs", "nfs4", "cifs", "smbfs", "smb3", "fuse.sshfs", "9p", "afpfs", "webdav", "davfs", "ceph",
              "glusterfs", "fuse.rclone", "lustre"}
SKIP_MOUNT_PREFIXES = ("/snap/", "/boot", "/var/lib/docker/", "/var/snap/", "/run/", "/proc", "/sys", "/dev",
                       "/System/Volumes/", "/private/var/vm", "/Library/Developer/CoreSimulator")


@dataclass(frozen=True)
class BlockInfo:
    name: str
    rotational: bool | None = None
    removable: bool | None = None
    model: str | None = None
    vendor: str | None = None
    transport: str | None = None  # usb | sata | nvme | virtio | …
    driver: str | None = None
    pci_vendor: str | None = None


def classify(b: BlockInfo | None, fstype: str | None = None, vm: str | None = None) -> tuple[str, str]:
    """(kind, reason) for one block device; see the module docstring for the order of the rules."""
    if fstype and (fstype.lower() in NETWORK_FS or fstype.lower().startswith("nfs")):
        return "network", tr_text("network file system ({fs})", fs=fstype)
    if b is None:
        return "unknown", tr_text("the block device could not be identified")
    name = b.name
    if name.startswith("nvme") or b.transport == "nvme":
        return "nvme", tr_text("NVMe device")
    if (re.match(r"(x?vd)[a-z]", name) or b.driver in ("virtio_blk", "virtio_scsi", "xen_blkfront")
            or b.pci_vendor == "0x1af4" or b.transport == "virtio"):
        return "virtual", tr_text("virtual disk of a virtual machine ({detail})", detail=b.driver or b.pci_vendor or name)
    if b.transport == "usb" or b.removable:
        return "removable", tr_text("USB or removable drive")
    model = f"{b.vendor or ''} {b.model or ''}"
    if re.search(r"qemu|vbox|virtual|vmware|msft", model, re.I):
        return "virtual", tr_text("virtual disk of a virtual machine ({detail})", detail=model.strip())
    if vm:
        return "virtual", tr_text("disk of a virtual machine ({detail})", detail=vm)
    if b.rotational is True:
        return "hdd", tr_text("spinning disk (rotational)")
    if b.rotational is False:
        return "ssd", tr_text("solid-state disk (not rotational)")
    return "unknown", tr_text("the disk did not say whether it spins")


def block_from_sysfs(src: Sources, name: str) -> BlockInfo | None:
    base = f"/sys/block/{name}"
    if not src.exists(base):
        return None
    rota = src.read_int(f"{base}/queue/rotational")
    rem = src.read_int(f"{base}/removable")
    driver = None
    transport = None
    try:
        dev = src.path(f"{base}/device")
        real = str(dev.resolve())
        if "/usb" in real:
            transport = "usb"
        drv = src.path(f"{base}/device/driver")
        if drv.exists():
            driver = drv.resolve().name
        if driver is None and "/virtio" in real:
            driver = "virtio_blk"
    except OSError:
        pass
    vendor = src.read_strip(f"{base}/device/vendor") or None
    pci_vendor = vendor.lower() if vendor and vendor.lower().startswith("0x") else None
    return BlockInfo(name=name, rotational=None if rota is None else rota == 1,
                     removable=None if rem is None else rem == 1,
                     model=src.read_strip(f"{base}/device/model") or None,
                     vendor=None if pci_vendor else vendor, transport=transport, driver=driver,
                     pci_vendor=pci_vendor)


def parent_disk(src: Sources, dev: str) -> str | None:
    """/dev/nvme0n1p2 → nvme0n1; /dev/vda → vda; LVM/crypt (dm-N) and software RAID (mdN) → the first
    disk underneath them (their kind is the kind of the disks they are made of)."""
    name = os.path.basename(dev)
    if dev.startswith("/dev/mapper/"):
        try:
            name = os.path.basename(os.path.realpath(src.path(dev)))
        except OSError:
            return None
    slaves = src.listdir(f"/sys/block/{name}/slaves")
    if slaves:
        return parent_disk(src, "/dev/" + slaves[0])
    if src.exists(f"/sys/block/{name}"):
        return name
    cls = src.path(f"/sys/class/block/{name}")
    try:
        if cls.exists() and (cls / "partition").exists():
            return cls.resolve().parent.name
    except OSError:
        return None
    m = re.match(r"(nvme\d+n\d+|mmcblk\d+)p\d+$", name) or re.match(r"([a-z]+)\d+$", name)
    return m.group(1) if m else None


def blocks_from_lsblk(state_text: str, vendor_text: str | None = None) -> dict[str, BlockInfo]:
    """Disks from `lsblk -o NAME,RO,RM,…,ROTA,TYPE,…` and `lsblk -o NAME,MODEL,VENDOR,REV` text."""
    def rows(text: str) -> tuple[list[str], list[str]]:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        return lines[0].split(), lines[1:]

    models: dict[str, tuple[str, str]] = {}
    if vendor_text:
        head, body = rows(vendor_text)
        hdr = vendor_text.splitlines()[0]
        cm, cv, cr = hdr.index("MODEL"), hdr.index("VENDOR"), hdr.index("REV")
        for ln in body:
            name = re.sub(r"^[|`\-\s]+", "", ln[:cm]).strip()
            models[name] = (ln[cm:cv].strip(), ln[cv:cr].strip())
    head, body = rows(state_text)
    out: dict[str, BlockInfo] = {}
    for ln in body:
        cols = re.sub(r"^[|`\-\s]+", "", ln).split()
        rec = dict(zip(head, cols, strict=False))
        if rec.get("TYPE") not in ("disk", None):
            continue
        name = rec["NAME"]
        model, vendor = models.get(name, (None, None))
        out[name] = BlockInfo(name=name, rotational=rec.get("ROTA") == "1", removable=rec.get("RM") == "1",
                              model=model or None, vendor=vendor or None,
                              transport=(rec.get("TRAN") or None))
    return out


def _keep(p: Any) -> bool:
    fs = (p.fstype or "").lower()
    if p.mountpoint == "/" and fs == "overlay":
        return True  # a container's root: keep it (its kind will be unknown), it is where data goes
    if fs in PSEUDO_FS or not fs:
        return False
    mount = p.mountpoint
    if mount != "/" and any(mount.startswith(x) for x in SKIP_MOUNT_PREFIXES):
        return False
    if p.device.startswith("/dev/loop"):
        return False
    opts = (getattr(p, "opts", "") or "").lower()
    return "cdrom" not in opts


def _mac_kind(src: Sources, device: str) -> tuple[str, str]:
    text = src.run(["diskutil", "info", device], timeout=4) or ""
    info = {}
    for line in text.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            info[k.strip()] = v.strip()
    if info.get("Protocol", "").lower() in ("usb", "thunderbolt") or info.get("Removable Media") == "Removable":
        return "removable", tr_text("USB or removable drive")
    if info.get("Protocol", "").lower() == "disk image":
        return "virtual", tr_text("disk image")
    if info.get("Solid State") == "Yes":
        return "ssd", tr_text("solid-state disk (diskutil)")
    if info.get("Solid State") == "No":
        return "hdd", tr_text("spinning disk (diskutil)")
    return "unknown", tr_text("diskutil did not say")


def _windows_kinds(src: Sources) -> dict[str, tuple[str, str, str | None]]:
    disks, letters = physical_disks(src)
    by_number = {str(d.get("DeviceId")): d for d in disks}
    out = {}
    for letter, number in letters.items():
        d = by_number.get(number)
        if d is not None:
            kind, reason = disk_kind(d)
            out[letter] = (kind, reason, d.get("FriendlyName"))
    if not out and len(disks) == 1:  # one physical disk: every drive letter is on it
        kind, reason = disk_kind(disks[0])
        out["*"] = (kind, reason, disks[0].get("FriendlyName"))
    return out


def probe(src: Sources, vm: str | None = None) -> Part:
    findings = []
    try:
        parts = src.ps.disk_partitions(all=False)
    except Exception as e:  # noqa: BLE001
        return Part(area="disks", disks=(), findings=(finding("disk", "unknown",
            "Disks unknown because the system did not list them ({detail})", "disk.unknown", detail=str(e)),))
    if src.system == "linux" and vm is None:
        vm = virtual_machine(src)
    win_kinds = _windows_kinds(src) if src.system == "windows" else {}
    seen: dict[str, Disk] = {}
    for p in sorted(parts, key=lambda p: len(p.mountpoint)):
        if not _keep(p):
            continue
        key = p.device if src.system != "darwin" else p.mountpoint
        if key in seen:
            continue
        try:
            usage = src.ps.disk_usage(p.mountpoint)
            total: int | None = int(usage.total)
            free: int | None = int(usage.free)
        except (OSError, Exception):  # noqa: BLE001 — an unreadable mount is reported, not fatal
            total = free = None
            findings.append(finding("disk", "unknown",
                "{mount}: free space unknown because it could not be read", "disk.usage", mount=p.mountpoint))
        model = None
        if src.system == "linux":
            if (p.fstype or "").lower() in NETWORK_FS:
                kind, reason = classify(None, p.fstype, vm)
            else:
                disk = parent_disk(src, p.device)
                info = block_from_sysfs(src, disk) if disk else None
                kind, reason = classify(info, p.fstype, vm)
                model = info.model if info else None
        elif src.system == "windows":
            letter = p.mountpoint[:1].upper()
            if "removable" in (p.opts or ""):
                kind, reason = "removable", tr_text("USB or removable drive")
            elif (p.fstype or "").lower() in NETWORK_FS or p.device.startswith("\\\\"):
                kind, reason = "network", tr_text("network drive")
            else:
                kind, reason, model = win_kinds.get(letter) or win_kinds.get("*") or (
                    "unknown", tr_text("Windows did not say which physical disk this drive is on"), None)
        else:
            kind, reason = _mac_kind(src, p.device) if (p.fstype or "").lower() not in NETWORK_FS \
                else classify(None, p.fstype)
        seen[key] = Disk(device=p.device, mount=p.mountpoint, kind=kind, filesystem=p.fstype or None,
                         total_bytes=total, free_bytes=free, model=model, **kept(reason, "kind_reason"))
    disks = tuple(seen.values())
    for d in disks:
        if d.kind == "unknown":
            findings.append(finding("disk", "unknown", "{mount}: disk type unknown because {reason}",
                "disk.kind", mount=d.mount, reason=d.kind_reason_text or d.kind_reason))
    return Part(area="disks", disks=disks, findings=tuple(findings), facts={"virtual_machine": vm})

