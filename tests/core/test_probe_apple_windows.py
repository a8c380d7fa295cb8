"""Apple (system_profiler, sysctl) and Windows (registry export, MSFT_PhysicalDisk) probes on recorded outputs."""

from __future__ import annotations

import sys

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import RECORDED, FakePsutil, no_nvml, read_reg_export, recorded_runner, registry_reader  # noqa: E402

from gpucheck.probe import apple, assemble, cpu, memory, nvidia, storage, windows  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402

GIB = 1024**3


# -- Apple -----------------------------------------------------------------------------------------

def test_m1_macbookair_text_unified_memory_not_counted_twice(tmp_path):
    text = (RECORDED / "apple/m1-macbookair.system_profiler-text.txt").read_text()
    ps = FakePsutil(logical=8, physical=8, ram=16 * GIB)
    src = Sources(system="darwin", root=tmp_path, run=recorded_runner({("system_profiler",): text}), ps=ps)
    part = apple.probe(src)
    (g,) = part.gpus
    assert g.name == "Apple M1" and g.backend == "metal" and g.sm_count == 8
    assert g.memory_kind == "unified"
    # llama.cpp's Metal backend logs recommendedMaxWorkingSetSize = 10922.67 MB on 16 GB M1 Macs (2/3 of RAM)
    assert abs(g.usable_memory_bytes / 1024**2 - 10922.67) < 1
    assert g.vram_total_bytes == g.usable_memory_bytes < 16 * GIB
    assert any(f.code == "apple.working_set" and "estimated" in f.message for f in part.findings)
    m = assemble([part, memory.probe(src)])
    assert m.memory.shared_with_gpu is True and m.memory.total_bytes == 16 * GIB
    assert m.gpus[0].is_primary_compute


def test_m1pro_json_gpu_cores_and_displays():
    info = apple.parse_system_profiler_json(
        (RECORDED / "apple/m1pro-3displays.system_profiler-json-SPDisplaysDataType.json").read_text())
    assert info["gpu_name"] == "Apple M1 Pro" and info["gpu_cores"] == 14 and info["displays"] == 3


def test_m5max_hardware_json_and_perflevels():
    info = apple.parse_system_profiler_json(
        (RECORDED / "apple/m5max-macbookpro.system_profiler-json-SPHardwareDataType.json").read_text())
    assert info["chip"] == "Apple M5 Max" and info["memory_bytes"] == 128 * GIB
    assert info["cpu_cores"] == 18 and info["performance_cores"] == 6
    gpu, findings = apple.gpu_from_info(info, info["memory_bytes"])
    assert gpu.usable_memory_bytes == 96 * GIB  # 3/4 of 128 GB, as Metal reports on ≥36 GB Macs
    sysctl = apple.parse_sysctl((RECORDED / "apple/m5max-macbookpro.sysctl-hw-perflevel.txt").read_text())
    c = cpu.cpu_from_sysctl({**sysctl, "machdep.cpu.brand_string": "Apple M5 Max", "hw.physicalcpu": "18",
                             "hw.logicalcpu": "18"})
    assert c.performance_cores == 6 and c.l2_cache_bytes == 16 * 1024**2 and c.vendor == "apple"


def test_github_runner_virtual_m1_sysctl():
    vals = apple.parse_sysctl((RECORDED / "apple/github-runner-macos26-m1-virtual.sysctl.txt").read_text())
    c = cpu.cpu_from_sysctl(vals)
    assert c.brand == "Apple M1 (Virtual)" and c.vendor == "apple" and c.performance_cores is None
    gpu, _ = apple.gpu_from_info({"chip": vals["machdep.cpu.brand_string"]}, int(vals["hw.memsize"]))
    assert gpu.architecture == "Apple M1" and gpu.usable_memory_bytes == int(7516192768 * 0.6667)


def test_not_apple_silicon_gives_no_gpu():
    gpu, _ = apple.gpu_from_info({"chip": "Intel Core i7"}, 16 * GIB)
    assert gpu is None


# -- Windows ---------------------------------------------------------------------------------------

def test_registry_rtx2060super_reports_8_gib_not_the_4_gb_cap():
    reg = registry_reader(RECORDED / "windows/rtx2060super.reg-export-display-class.reg")
    (g,) = windows.gpus_from_registry(reg(windows.DISPLAY_CLASS))
    assert g.name == "NVIDIA GeForce RTX 2060 SUPER" and g.vendor == "nvidia"
    assert g.vram_total_bytes == 8 * GIB  # qwMemorySize; the 32-bit MemorySize says 0xfff00000
    assert g.driver_version == "516.94"  # Windows 31.0.15.1694 → NVIDIA 516.94


def test_registry_gtx950_and_intel_hd4600():
    keys = read_reg_export(RECORDED / "windows/gtx950+hd4600.reg-export-display-class.reg")
    assert any(k.endswith("\\0000") for k in keys)
    reg = registry_reader(RECORDED / "windows/gtx950+hd4600.reg-export-display-class.reg")
    gpus = windows.gpus_from_registry(reg(windows.DISPLAY_CLASS))
    names = [g.name for g in gpus]
    assert names == ["NVIDIA GeForce GTX 950", "Intel(R) HD Graphics 4600"]  # remote display adapters skipped
    assert gpus[0].vram_total_bytes == 2 * GIB
    assert gpus[1].vendor == "intel" and gpus[1].backend == "none"


def test_windows_scan_merges_registry_and_marks_primary(tmp_path):
    reg = registry_reader(RECORDED / "windows/gtx950+hd4600.reg-export-display-class.reg")
    src = Sources(system="windows", root=tmp_path, registry=reg, nvml=no_nvml, run=recorded_runner({}))
    m = assemble([nvidia.probe(src), windows.probe(src)])
    primary = [g for g in m.gpus if g.is_primary_compute]
    assert [g.name for g in primary] == ["NVIDIA GeForce GTX 950"]
    assert any(f.code == "nvidia.no_nvml" for f in m.findings)
    assert any(f.code == "gpu.hybrid" for f in m.findings)


def test_unreadable_registry_is_a_finding(tmp_path):
    def broken(path):
        raise PermissionError("access denied")

    part = windows.probe(Sources(system="windows", root=tmp_path, registry=broken))
    assert part.findings[0].severity == "unknown" and "access denied" in part.findings[0].message


def test_physical_disks_nvme_and_virtualbox():
    nvme = windows.parse_physical_disks(
        (RECORDED / "windows/latitude7480-nvme.wmic-MSFT_PhysicalDisk.wmi").read_bytes().decode("utf-16"))
    assert windows.disk_kind(nvme[0])[0] == "nvme"
    vbox = windows.parse_physical_disks(
        (RECORDED / "windows/virtualbox-vm.wmic-MSFT_PhysicalDisk.wmi").read_bytes().decode("utf-16"))
    kind, reason = windows.disk_kind(vbox[0])
    assert kind == "virtual" and "VBOX" in reason  # BusType 11 (SATA) + MediaType 0: the model name decides


def test_windows_storage_probe_uses_physical_disk_kind(tmp_path):
    wmi = (RECORDED / "windows/latitude7480-nvme.wmic-MSFT_PhysicalDisk.wmi").read_bytes().decode("utf-16")
    ps = FakePsutil(logical=4, physical=2, ram=8 * GIB, partitions=[("C:\\", "C:\\", "NTFS", 512110190592, 100 * GIB)])
    src = Sources(system="windows", root=tmp_path, ps=ps, run=recorded_runner({("powershell",): wmi}))
    (d,) = storage.probe(src).disks
    assert d.kind == "nvme" and d.free_bytes == 100 * GIB and d.model == "PC300 NVMe SK hynix 512GB"


def test_mac_cpu_probe_reads_sysctl_even_with_unknown_keys(tmp_path):
    """sysctl exits non-zero when one asked key does not exist (Intel-only keys on Apple silicon): the
    known keys must still be read. Values from the recorded M5 Max sysctl."""
    text = (RECORDED / "apple/m5max-macbookpro.sysctl-hw-perflevel.txt").read_text()
    text += "machdep.cpu.brand_string: Apple M5 Max\nhw.physicalcpu: 18\nhw.logicalcpu: 18\nhw.optional.AdvSIMD: 1\n"
    calls = []

    def run(argv, timeout=5.0, any_exit=False):
        calls.append(any_exit)
        return text if any_exit else None  # as run_command does for a non-zero exit

    c = cpu.probe(Sources(system="darwin", root=tmp_path, run=run, ps=FakePsutil(logical=18, physical=18, ram=1))).cpu
    assert calls == [True]
    assert c.brand == "Apple M5 Max" and c.physical_cores == 18 and c.performance_cores == 6 and "neon" in c.flags


def test_apple_silicon_json_is_not_listed_as_an_intel_mac_gpu():
    info = apple.parse_system_profiler_json(
        (RECORDED / "apple/m1pro-3displays.system_profiler-json-SPDisplaysDataType.json").read_text())
    assert apple.intel_mac_gpus(info) == []
