"""NVIDIA probe replayed on recorded nvidia-smi outputs (tests/fixtures/SOURCES.md) through a fake NVML
that raises pynvml's real exception classes for what the recording does not have."""

from __future__ import annotations

import sys

import pynvml
import pytest

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import (  # noqa: E402
    RECORDED,
    FakeNvml,
    device_from_xml,
    no_nvml,
    nvml_from_text,
    nvml_from_xml,
    parse_topo_nvlinks,
    recorded_runner,
)

from gpucheck.probe import assemble, linux, nvidia  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402

MIB = 1024**2
RTX3080 = RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml"
A100 = RECORDED / "nvidia/a100-sxm4-80gb-mig-drv535.nvidia-smi-q-x.xml"
A6000 = RECORDED / "nvidia/rtx-a6000-windows-drv537.nvidia-smi-q.txt"
TOPO = RECORDED / "nvidia/a100-sxm4-x4-nvlink-della.nvidia-smi-topo-m.txt"


def src_with(nv, system="linux", **kw) -> Sources:
    return Sources(system=system, nvml=lambda: nv, run=recorded_runner({}), **kw)


def test_single_consumer_gpu_rtx3080():
    # cc 8.6 and 8704 CUDA cores: developer.nvidia.com/cuda-gpus and nvidia.com RTX 3080 specs
    nv = nvml_from_xml(RTX3080, {"cc": (8, 6), "cores": 8704})
    part = nvidia.probe(src_with(nv))
    (g,) = part.gpus
    assert g.name == "NVIDIA GeForce RTX 3080"
    assert g.vram_total_bytes == 10240 * MIB and g.vram_free_bytes == 660 * MIB
    assert (g.compute_capability, g.architecture, g.tensor_core_generation) == ("8.6", "Ampere", 3)
    assert g.supports_bf16 is True and g.supports_fp8 is False
    assert g.sm_count == 68  # 8704 cores / 128 per SM on cc 8.6 — NVIDIA lists 68 SMs for the RTX 3080
    assert (g.pcie_gen_current, g.pcie_width_current, g.pcie_gen_max, g.pcie_width_max) == (4, 16, 4, 16)
    assert (g.power_limit_w, g.power_default_limit_w, g.power_max_limit_w) == (320.0, 320.0, 336.0)
    assert g.clock_graphics_max_mhz == 2100 and g.temperature_c == 27.0
    assert g.driver_version == "595.58.03" and g.cuda_driver_version == "13.2"  # bytes decoded, int → "13.2"
    assert g.display_active is False and g.throttle_reasons == ()
    assert g.mig_enabled is None  # GeForce: NVML says NotSupported → unknown, not False
    assert g.nvlink_links is None  # no NVLink on this card
    assert nv.initialised == 0  # init and shutdown paired


def test_unsupported_queries_become_none_with_reason():
    nv = nvml_from_xml(RTX3080)  # no compute capability / core count in the recording
    session = nvidia.NvmlSession(nv)
    assert session.start()
    h = session.q("nvmlDeviceGetHandleByIndex", 0)
    assert session.q("nvmlDeviceGetCudaComputeCapability", h) is None
    assert "Not Supported" in session.reasons["nvmlDeviceGetCudaComputeCapability"]
    assert session.q("nvmlDeviceGetNoSuchFunction", h) is None
    session.stop()
    part = nvidia.probe(src_with(nvml_from_xml(RTX3080)))
    g = part.gpus[0]
    assert g.compute_capability is None and g.supports_bf16 is None
    assert g.architecture == "Ampere"  # falls back to nvmlDeviceGetArchitecture
    assert any(f.code == "nvidia.cc" and "unknown because" in f.message for f in part.findings)


def test_mig_a100_reports_per_slice_memory():
    nv = nvml_from_xml(A100, {"cc": (8, 0)})
    part = nvidia.probe(src_with(nv))
    (g,) = part.gpus
    assert g.name == "NVIDIA A100-SXM4-80GB" and g.vram_total_bytes == 81920 * MIB
    assert g.mig_enabled is True
    assert [s.memory_total_bytes for s in g.mig_slices] == [19968 * MIB] * 4
    assert [s.gpu_instance_id for s in g.mig_slices] == [3, 4, 5, 6]
    assert all("14 SMs" in s.name for s in g.mig_slices)
    m = assemble([part])
    assert any(f.code == "gpu.mig" and "19.5 GiB" in f.message for f in m.findings)
    assert g.supports_bf16 is True and g.supports_fp8 is False


def test_multi_gpu_nvlink_from_topology():
    # Four A100 SXM boards as in the recorded `topo -m` (NV4 between every pair). The device readings
    # are the recorded A100's; bus ids of the four boards are placeholders (topo -m does not print them).
    import xml.etree.ElementTree as ET

    gpu_el = ET.parse(A100).getroot().find("gpu")
    devices = []
    for i in range(4):
        d = device_from_xml(gpu_el, {"cc": (8, 0), "mig": "Disabled", "bus": f"00000000:{0x07 + i * 0x40:02X}:00.0"})
        devices.append(d)
    links = parse_topo_nvlinks(TOPO.read_text())
    assert links[0] == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    nv = FakeNvml(devices, "535.54.03", "12.2", nvlinks=links)
    part = nvidia.probe(src_with(nv))
    assert len(part.gpus) == 4
    for i, g in enumerate(part.gpus):
        assert g.nvlink_links == 12
        assert set(g.nvlink_peers) == {d.f["bus"] for j, d in enumerate(devices) if j != i}
        assert g.mig_enabled is False


def test_windows_text_rtx_a6000():
    nv = nvml_from_text(A6000, {"cc": (8, 6)})
    (g,) = nvidia.probe(src_with(nv, system="windows")).gpus
    assert g.name == "NVIDIA RTX A6000" and g.vram_total_bytes == 49140 * MIB
    assert g.driver_version == "537.99" and g.cuda_driver_version == "12.2"
    assert g.throttle_reasons == ("gpu_idle",)
    assert g.power_limit_w == 300.0


def test_throttle_decoding_and_warning():
    assert nvidia.decode_throttle(0x4 | 0x40) == ("sw_power_cap", "hw_thermal_slowdown")
    nv = nvml_from_xml(RTX3080, {"cc": (8, 6), "throttle": 0x40})
    m = assemble([nvidia.probe(src_with(nv))])
    assert any(f.code == "gpu.throttling" and f.severity == "warning" for f in m.findings)


def test_no_driver_and_no_nvidia_hardware_is_info():
    part = nvidia.probe(src_with(no_nvml()))
    assert part.gpus == () and part.facts["nvml"] == "library_not_found"
    m = assemble([part, linux.part_from_pci(Sources(system="linux", root=FIXTURES / "nonexistent"), [])])
    (f,) = [f for f in m.findings if f.code == "nvidia.no_driver"]
    assert f.severity == "info"
    assert f.message == "NVIDIA: no driver found (NVML library not found)"


def test_no_driver_with_nvidia_hardware_is_warning(tmp_path):
    lspci = (RECORDED / "hybrid/asus-laptop-irisxe+gtx1650maxq.lspci-v-nn.txt").read_text()
    src = Sources(system="linux", root=tmp_path, nvml=no_nvml)
    m = assemble([nvidia.probe(src), linux.part_from_pci(src, linux.pci_from_lspci(lspci))])
    (f,) = [f for f in m.findings if f.code == "nvidia.no_driver"]
    assert f.severity == "warning" and "NVML library not found" in f.message
    nv_gpu = [g for g in m.gpus if g.vendor == "nvidia"]
    assert nv_gpu and nv_gpu[0].vram_total_bytes is None
    assert any(x.code == "gpu.vram_unknown" for x in m.findings)


def test_driver_not_loaded_reason():
    nv = FakeNvml([], None, None, init_error=pynvml.NVML_ERROR_DRIVER_NOT_LOADED)
    m = assemble([nvidia.probe(src_with(nv))])
    assert any("kernel driver is not loaded" in f.message for f in m.findings)


def test_missing_binding_is_a_finding_not_a_crash():
    def missing():
        raise ImportError("No module named 'pynvml'")

    part = nvidia.probe(Sources(system="linux", nvml=missing))
    assert part.gpus == () and part.findings[0].code == "nvidia.no_binding"


@pytest.mark.parametrize("raw,expected", [(12020, "12.2"), (13020, "13.2"), (11070, "11.7"), (None, None)])
def test_cuda_driver_version(raw, expected):
    assert nvidia._cuda_version(raw) == expected
