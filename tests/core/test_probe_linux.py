"""Linux sources: lspci (hybrid laptop), WSL2, /proc/cpuinfo, block devices (recorded lsblk) — and the
real scan of the machine the tests run on."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import psutil
import pytest

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import (  # noqa: E402, E501
    RECORDED,
    FakeNvml,
    FakePsutil,
    device_from_nvidia_settings,
    device_from_smi_table,
    recorded_runner,
)

from gpucheck.probe import assemble, cpu, linux, nvidia, scan, storage  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402

LSPCI = RECORDED / "hybrid/asus-laptop-irisxe+gtx1650maxq.lspci-v-nn.txt"


def test_lspci_hybrid_laptop_lists_both_gpus():
    pci = linux.pci_from_lspci(LSPCI.read_text())
    assert [(p.bus, p.vendor, p.driver) for p in pci] == [("0000:00:02.0", "intel", "i915"),
                                                          ("0000:01:00.0", "nvidia", "nvidia")]
    assert pci[1].name == "GeForce GTX 1650 Mobile / Max-Q" and pci[1].class_code == "0x030200"


def test_hybrid_laptop_discrete_gpu_is_primary(tmp_path):
    # NVML answers from the same laptop's recorded nvidia-settings output; cc 7.5 from developer.nvidia.com/cuda-gpus
    dev = device_from_nvidia_settings(
        (RECORDED / "hybrid/asus-laptop-irisxe+gtx1650maxq.nvidia-settings-t-c0-q-all.txt").read_text(),
        (RECORDED / "hybrid/asus-laptop-irisxe+gtx1650maxq.nvidia-settings-t-c-all-q-gpus.txt").read_text(),
        {"cc": (7, 5)})
    nv = FakeNvml([dev], driver="515.76", cuda="11.7")
    src = Sources(system="linux", root=tmp_path, nvml=lambda: nv)
    m = assemble([nvidia.probe(src), linux.part_from_pci(src, linux.pci_from_lspci(LSPCI.read_text()))])
    assert len(m.gpus) == 2  # the NVML GPU and lspci's 01:00.0 are one device
    nv_gpu, intel = m.gpus
    assert nv_gpu.name == "NVIDIA GeForce GTX 1650 with Max-Q Design" and nv_gpu.is_primary_compute
    assert nv_gpu.vram_total_bytes == 4096 * 1024**2 and nv_gpu.pcie_width_current == 4
    assert intel.vendor == "intel" and not intel.is_primary_compute
    assert m.compute_gpus() == (nv_gpu,)
    assert any(f.code == "gpu.hybrid" for f in m.findings)
    assert any(f.code == "nvidia.old_driver" for f in m.findings)  # 515 → CUDA 11.7 only


def test_wsl2_detection(tmp_path):
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/version").write_text("Linux version 5.15.167.4-microsoft-standard-WSL2 (root@x) #1 SMP\n")
    src = Sources(system="linux", root=tmp_path)
    assert linux.is_wsl(src) and linux.virtual_machine(src) == "wsl"
    other = tmp_path / "other"
    (other / "proc").mkdir(parents=True)
    (other / "proc/version").write_text("Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)\n")
    assert not linux.is_wsl(Sources(system="linux", root=other))


def test_wsl2_loads_nvml_from_usr_lib_wsl(tmp_path):
    """In WSL2 libnvidia-ml.so.1 lives in /usr/lib/wsl/lib: after LibraryNotFound the probe loads it by path."""
    import pynvml

    lib = tmp_path / "usr/lib/wsl/lib"
    lib.mkdir(parents=True)
    shutil.copy(next(p for p in map(Path, ["/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
                                            "/lib64/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6"]) if p.exists()),
                lib / "libnvidia-ml.so.1")

    class WslNvml(FakeNvml):
        nvmlLib = None

        def nvmlInit(self):
            if self.nvmlLib is None:
                raise pynvml.NVMLError(pynvml.NVML_ERROR_LIBRARY_NOT_FOUND)

    nv = WslNvml([], "572.16", "12.8")
    part = nvidia.probe(Sources(system="linux", root=tmp_path, nvml=lambda: nv))
    assert part.facts["nvml"] == "ok" and nv.nvmlLib is not None


CPUINFO = RECORDED / "cpuinfo"


def test_cpuinfo_epyc_two_sockets():
    info = cpu.parse_cpuinfo((CPUINFO / "amd-epyc-7451-2socket-96threads.proc-cpuinfo.txt").read_text())
    assert info["logical"] == 96 and info["physical"] == 48 and info["sockets"] == 2
    assert info["brand"] == "AMD EPYC 7451 24-Core Processor"
    assert "avx2" in info["flags"] and "avx512f" not in info["flags"]


def test_cpuinfo_tiger_lake_laptop():
    info = cpu.parse_cpuinfo((CPUINFO / "intel-core-i7-1165g7-laptop.proc-cpuinfo.txt").read_text())
    assert info["brand"].startswith("11th Gen Intel(R) Core(TM) i7-1165G7")
    assert info["logical"] == 8 and info["physical"] == 4
    assert {"avx2", "avx512f", "avx512_vnni"} <= set(info["flags"])
    assert info["brand_ghz"] == 2800.0


def test_cpuinfo_arm_big_little_and_thunderx():
    info = cpu.parse_cpuinfo((CPUINFO / "arm64-cortex-x3-a715-a710-a510.proc-cpuinfo.txt").read_text())
    assert info["logical"] == 8
    for core in ("Cortex-X3", "Cortex-A715", "Cortex-A710", "Cortex-A510"):
        assert core in info["brand"]
    assert "neon" in info["flags"]
    tx = cpu.parse_cpuinfo((CPUINFO / "arm64-cavium-thunderx-server.proc-cpuinfo.txt").read_text())
    assert tx["brand"] == "Cavium ThunderX" and tx["logical"] == 2 and "neon" in tx["flags"]


# -- disks -----------------------------------------------------------------------------------------

def test_lsblk_recorded_ssd_hdd_nvme():
    blocks = storage.blocks_from_lsblk(
        (RECORDED / "linux/sata-ssd+sata-hdd+nvme.lsblk-o-state-rota.txt").read_text(),
        (RECORDED / "linux/sata-ssd+sata-hdd+nvme.lsblk-o-model-vendor.txt").read_text())
    assert sorted(blocks) == ["nvme0n1", "sda", "sdb"]
    assert blocks["sdb"].model == "WDC WD800JD-00MS"
    kinds = {n: storage.classify(b)[0] for n, b in blocks.items()}
    assert kinds == {"sda": "ssd", "sdb": "hdd", "nvme0n1": "nvme"}
    # the same spinning disk inside a VM is not trusted as a HDD
    assert storage.classify(blocks["sdb"], vm="kvm")[0] == "virtual"


def test_virtio_disk_is_virtual_even_if_rotational():
    b = storage.BlockInfo(name="vda", rotational=True, driver="virtio_blk", pci_vendor="0x1af4")
    kind, reason = storage.classify(b)
    assert kind == "virtual" and "virtio" in reason
    assert storage.classify(storage.BlockInfo(name="sdb", rotational=True, transport="usb"))[0] == "removable"
    assert storage.classify(None, "nfs4")[0] == "network"


def test_pseudo_and_duplicate_mounts_are_skipped(tmp_path):


    (tmp_path / "sys/block/sda/queue").mkdir(parents=True)
    (tmp_path / "sys/block/sda/queue/rotational").write_text("0\n")
    ps = FakePsutil(logical=2, physical=2, ram=1, partitions=[
        ("/dev/sda1", "/", "ext4", 100, 50), ("/dev/sda1", "/home/user/bind", "ext4", 100, 50),
        ("tmpfs", "/run/user/1000", "tmpfs", 10, 10), ("/dev/loop3", "/snap/core/1", "squashfs", 10, 0),
        ("server:/export", "/mnt/nas", "nfs4", 1000, 900)])
    disks = storage.probe(Sources(system="linux", root=tmp_path, ps=ps), vm=None).disks
    assert [(d.mount, d.kind) for d in disks] == [("/", "ssd"), ("/mnt/nas", "network")]


# -- the machine the tests run on ------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks Linux /proc and /sys")
def test_real_scan_matches_the_os():
    m = scan()
    assert m.cpu.logical_cores == os.cpu_count() == psutil.cpu_count()
    assert m.cpu.physical_cores == psutil.cpu_count(logical=False)
    meminfo = Path("/proc/meminfo").read_text()
    total_kib = int(next(ln.split()[1] for ln in meminfo.splitlines() if ln.startswith("MemTotal:")))
    assert m.memory.total_bytes == total_kib * 1024
    root = next(d for d in m.disks if d.mount == "/")
    free = shutil.disk_usage("/").free
    assert abs(root.free_bytes - free) <= 0.01 * free
    assert root.kind != "hdd"
    has_nvidia = Path("/proc/driver/nvidia/gpus").exists()
    if not has_nvidia:
        assert not [g for g in m.gpus if g.vendor == "nvidia" and g.vram_total_bytes]
    if not any(Path("/sys/class/drm").glob("card*")) and not has_nvidia:
        assert m.gpus == () and m.compute_gpus() == ()
    if Path("/sys/block/vda").exists():
        vda = [d for d in m.disks if d.device.startswith("/dev/vda")]
        assert vda and all(d.kind == "virtual" for d in vda)
    assert m.scan_seconds is not None and all(f.message for f in m.findings)


def test_wsl2_full_scan_replay(tmp_path):
    """The recorded WSL2 `nvidia-smi` (RTX 4060 Laptop) through a whole scan of a WSL2 file tree."""


    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/version").write_text("Linux version 5.15.167.4-microsoft-standard-WSL2 (root@x) #1 SMP\n")
    (tmp_path / "usr/lib/wsl/lib").mkdir(parents=True)
    (tmp_path / "sys/block/sdc/queue").mkdir(parents=True)
    (tmp_path / "sys/block/sdc/queue/rotational").write_text("1\n")  # WSL's ext4.vhdx says it spins
    dev, driver, cuda = device_from_smi_table((RECORDED / "wsl2/rtx4060-laptop-wsl2.nvidia-smi.EXCERPT.txt").read_text(),
                                              {"cc": (8, 9)})
    nv = FakeNvml([dev], driver=driver, cuda=cuda)
    ps = FakePsutil(logical=16, physical=8, ram=8 * 1024**3, partitions=[("/dev/sdc", "/", "ext4", 10**12, 9 * 10**11)])
    m = scan(sources=Sources(system="linux", root=tmp_path, nvml=lambda: nv, ps=ps, run=recorded_runner({}),
                             site_paths=()))
    assert m.software.platform == "wsl"
    (g,) = m.gpus
    assert g.name.startswith("NVIDIA GeForce RTX 4060") and g.vram_total_bytes == 8188 * 1024**2
    assert g.driver_version == "572.16" and g.cuda_driver_version == "12.8" and g.power_limit_w == 30.0
    assert g.is_primary_compute and g.architecture == "Ada Lovelace" and g.supports_fp8 is True
    assert [d.kind for d in m.disks] == ["virtual"]
    assert m.power.is_laptop is None and m.power.recommended_psu_w is None


def test_lvm_and_raid_resolve_to_the_disks_underneath(tmp_path):
    for p in ("sys/block/dm-0/slaves/nvme0n1p3", "sys/block/nvme0n1/queue", "sys/block/md0/slaves/sdb1",
              "sys/block/md0/slaves/sdc1", "sys/block/sdb/queue"):
        (tmp_path / p).mkdir(parents=True)
    (tmp_path / "sys/block/sdb/queue/rotational").write_text("1\n")
    src = Sources(system="linux", root=tmp_path)
    assert storage.parent_disk(src, "/dev/dm-0") == "nvme0n1"
    assert storage.parent_disk(src, "/dev/md0") == "sdb"
    assert storage.parent_disk(src, "/dev/sdb1") == "sdb"
    assert storage.classify(storage.block_from_sysfs(src, "sdb"))[0] == "hdd"
