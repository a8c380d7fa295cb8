"""scan(): concurrency, isolation of failing/hanging probes, progressive results, platform contract."""

from __future__ import annotations

import dataclasses
import sys
import threading
import time

import pytest

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import (  # noqa: E402
    RECORDED,
    FakePsutil,
    no_nvml,
    nvml_from_xml,
    recorded_runner,
    registry_reader,
)

import gpucheck.probe as probe_pkg  # noqa: E402
from gpucheck.machine import Cpu, Disk, Gpu, Machine, Memory, Power, Software  # noqa: E402
from gpucheck.probe import amd, apple, linux, nvidia, scan, scan_iter, windows  # noqa: E402
from gpucheck.probe.base import Part, Sources  # noqa: E402

GIB = 1024**3


def linux_sources(tmp_path, nv=no_nvml) -> Sources:
    ps = FakePsutil(logical=8, physical=4, ram=16 * GIB, partitions=[("/dev/sda1", "/", "ext4", 500 * GIB, 200 * GIB)])
    (tmp_path / "sys/block/sda/queue").mkdir(parents=True)
    (tmp_path / "sys/block/sda/queue/rotational").write_text("0\n")
    return Sources(system="linux", root=tmp_path, nvml=nv, ps=ps, run=recorded_runner({}), site_paths=())


def test_scan_with_injected_sources_is_complete(tmp_path):
    nv = nvml_from_xml(RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml", {"cc": (8, 6)})
    seen = []
    m = scan(on_progress=lambda area, done, total: seen.append((area, done, total)),
             sources=linux_sources(tmp_path, lambda: nv))
    assert [g.name for g in m.gpus] == ["NVIDIA GeForce RTX 3080"] and m.gpus[0].is_primary_compute
    assert m.cpu.logical_cores == 8 and m.memory.total_bytes == 16 * GIB
    assert [(d.mount, d.kind) for d in m.disks] == [("/", "ssd")]
    total = len(probe_pkg.probes_for(linux_sources(tmp_path / "x")))
    assert [d for _, d, _ in seen] == list(range(1, total + 1)) and all(t == total for *_, t in seen)
    assert m.software.nvidia_driver_version == "595.58.03"


def test_scan_iter_gives_partial_machines(tmp_path):
    items = list(scan_iter(linux_sources(tmp_path)))
    assert len(items) == items[-1][2]
    assert all(isinstance(mm, Machine) for *_, mm in items)
    areas_done = [name for name, *_ in items]
    assert len(set(areas_done)) == len(areas_done)
    assert items[-1][3].memory.total_bytes == 16 * GIB


def test_failing_and_hanging_probes_become_findings(tmp_path, monkeypatch):
    release = threading.Event()

    def broken(src):
        raise RuntimeError("sensor exploded")

    def hangs(src):
        release.wait(5)
        return Part(area="power")

    real = probe_pkg.probes_for

    def probes(src):
        out = [(n, f) for n, f in real(src) if n not in ("cpu", "power")]
        return out + [("cpu", broken), ("power", hangs)]

    monkeypatch.setattr(probe_pkg, "probes_for", probes)
    t0 = time.monotonic()
    m = list(scan_iter(linux_sources(tmp_path), timeouts={"power": 0.3}))[-1][3]
    release.set()
    assert time.monotonic() - t0 < 4
    cpu_f = [f for f in m.findings if f.code == "scan.cpu.failed"]
    assert cpu_f and "unknown because" in cpu_f[0].message and "sensor exploded" in cpu_f[0].message
    assert any(f.code == "scan.power.timeout" and "did not answer" in f.message for f in m.findings)
    assert m.memory.total_bytes == 16 * GIB  # the others still ran


def test_deep_scan_failure_is_a_finding(tmp_path, monkeypatch):
    import gpucheck.bench as bench

    def boom(*a, **k):
        raise OSError("disk gone")

    monkeypatch.setattr(bench, "run_deep", boom)
    m = bench.measure(scan(sources=linux_sources(tmp_path)))
    assert m.measured is None and any(f.code == "deep.failed" and "disk gone" in f.message for f in m.findings)


def test_deep_scan_result_is_stored(tmp_path, monkeypatch):
    import gpucheck.bench as bench
    from gpucheck.machine import Measured

    calls = {}

    def fake_run_deep(machine, disk_path=None, on_progress=None, cancel=None, install_hint=None):
        calls["disk"] = disk_path
        on_progress("ram", 0.5)
        return Measured(ram_copy_gbps=12.5)

    monkeypatch.setattr(bench, "run_deep", fake_run_deep)
    progress = []
    m = bench.measure(scan(sources=linux_sources(tmp_path)), disk_path="/tmp",
                      on_progress=lambda a, d, t: progress.append((a, d, t)))
    assert m.measured.ram_copy_gbps == 12.5 and calls["disk"] == "/tmp"
    assert ("ram", 50, 100) in progress


# -- contract: every platform backend returns the same record types --------------------------------

def _backends(tmp_path):
    shutil_tree = RECORDED / "amd-sysfs/phoenix-apu-radeon780m"
    import shutil

    shutil.copytree(shutil_tree / "card1", tmp_path / "sys/class/drm/card1")
    nv = nvml_from_xml(RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml", {"cc": (8, 6)})
    text = (RECORDED / "apple/m1-macbookair.system_profiler-text.txt").read_text()
    reg = registry_reader(RECORDED / "windows/rtx2060super.reg-export-display-class.reg")
    lspci = (RECORDED / "hybrid/asus-laptop-irisxe+gtx1650maxq.lspci-v-nn.txt").read_text()
    return {
        "nvidia": nvidia.probe(Sources(system="linux", root=tmp_path, nvml=lambda: nv)),
        "amd": amd.probe(Sources(system="linux", root=tmp_path, run=recorded_runner({})), use_module=False),
        "apple": apple.probe(Sources(system="darwin", root=tmp_path,
                                     run=recorded_runner({("system_profiler",): text}),
                                     ps=FakePsutil(logical=8, physical=8, ram=16 * GIB))),
        "windows": windows.probe(Sources(system="windows", root=tmp_path, registry=reg)),
        "linux": linux.part_from_pci(Sources(system="linux", root=tmp_path), linux.pci_from_lspci(lspci)),
    }


def test_every_gpu_backend_returns_the_same_record_types(tmp_path):
    parts = _backends(tmp_path)
    for name, part in parts.items():
        assert isinstance(part, Part), name
        gpus = list(part.gpus) + list(part.facts.get("listed_gpus", ()))
        assert gpus, f"{name} found no GPU in its recording"
        for g in gpus:
            assert type(g) is Gpu, name
            assert g.vendor in ("nvidia", "amd", "apple", "intel", "other")
            assert g.backend in ("cuda", "rocm", "metal", "xpu", "directml", "none", "unknown")
            for f in dataclasses.fields(Gpu):
                v = getattr(g, f.name)
                assert v is None or not isinstance(v, bytes), (name, f.name)
        for f in part.findings:
            assert f.severity in ("info", "ok", "unknown", "warning", "error") and f.message
        # every backend's GPUs survive the JSON round trip
        m = Machine(gpus=tuple(gpus))
        assert Machine.from_dict(m.to_dict()) == m


def test_assemble_is_pure_and_types_are_right(tmp_path):
    parts = list(_backends(tmp_path).values())
    a = probe_pkg.assemble(parts)
    b = probe_pkg.assemble(parts)
    assert dataclasses.replace(a, created_at="") == dataclasses.replace(b, created_at="")
    assert isinstance(a.cpu, Cpu) and isinstance(a.memory, Memory) and isinstance(a.power, Power)
    assert isinstance(a.software, Software) and all(isinstance(d, Disk) for d in a.disks)


@pytest.mark.parametrize("system", ["linux", "windows", "darwin"])
def test_each_platform_runs_its_probes(system):
    names = [n for n, _ in probe_pkg.probes_for(Sources(system=system))]
    assert {"cpu", "memory", "disks", "power", "software"} <= set(names)
    gpu_probe = {"linux": "nvidia", "windows": "windows", "darwin": "apple"}[system]
    assert gpu_probe in names


def test_partial_record_draws_no_gpu_verdict_while_gpu_probes_run(tmp_path):
    src = linux_sources(tmp_path)
    cpu_part = probe_pkg.probes_for(src)
    parts = [fn(src) for name, fn in cpu_part if name in ("cpu", "platform")]
    partial = probe_pkg.assemble(parts, src, pending=frozenset({"nvidia", "amd"}))
    assert not any(f.code == "gpu.none" for f in partial.findings)
    final = probe_pkg.assemble(parts, src)
    assert any(f.code == "gpu.none" for f in final.findings)


def test_little_free_disk_is_a_warning():
    small = Part(area="disks", disks=(Disk(device="/dev/nvme0n1p2", mount="/", kind="nvme", total_bytes=256 * GIB,
                                           free_bytes=20 * GIB),))
    m = probe_pkg.assemble([small])
    (f,) = [f for f in m.findings if f.code == "disk.low_free"]
    assert f.severity == "warning" and "20.0 GiB" in f.message
    roomy = Part(area="disks", disks=small.disks + (Disk(device="/dev/sdb1", mount="/data", kind="hdd",
                                                         total_bytes=2000 * GIB, free_bytes=900 * GIB),))
    m = probe_pkg.assemble([roomy])
    assert not any(f.code in ("disk.low_free", "disk.hdd_only") for f in m.findings)
