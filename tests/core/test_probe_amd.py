"""AMD probe replayed on recorded rocm-smi / amd-smi JSON and recorded sysfs + KFD trees."""

from __future__ import annotations

import shutil
import sys

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import RECORDED, recorded_runner  # noqa: E402

from gpucheck.probe import amd, assemble  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402

GIB = 1024**3


def sysfs_root(tmp_path, name: str):
    base = RECORDED / "amd-sysfs" / name
    for card in base.glob("card*"):
        shutil.copytree(card, tmp_path / "sys/class/drm" / card.name)
    if (base / "kfd").exists():
        shutil.copytree(base / "kfd", tmp_path / "sys/class/kfd/kfd")
    return tmp_path


def test_rocm_smi_rx7900xt():
    text = (RECORDED / "amd/rx7900xt.rocm-smi-showproductname-showuse-showmeminfo-vram.json").read_text()
    gpus, _ = amd.from_rocm_smi(text)
    (g,) = gpus
    assert g.name == "Radeon RX 7900 XT" and g.vram_total_bytes == 21458059264
    assert g.vram_free_bytes == 21458059264 - 27856896
    assert g.compute_capability == "gfx1100" and g.architecture == "RDNA 3" and g.backend == "rocm"


def test_rocm_smi_rx6700xt_and_mi100():
    g6700, driver = amd.from_rocm_smi((RECORDED / "amd/rx6700xt-rocm612.rocm-smi-telegraf-flags.json").read_text())
    assert driver == "6.3.6"
    assert g6700[0].name == "Radeon RX 6700/6700 XT / 6800M" and g6700[0].compute_capability == "gfx1031"
    assert g6700[0].pcie_gen_current == 4 and g6700[0].pcie_width_current == 16
    assert g6700[0].power_limit_w == 211.0
    mi100, _ = amd.from_rocm_smi((RECORDED / "amd/mi100-rocm602.rocm-smi-telegraf-flags.json").read_text())
    assert len(mi100) == 4
    assert all(g.vram_total_bytes == 34342961152 for g in mi100)  # 32 GB HBM2 each
    assert mi100[0].name == "Instinct MI100" and mi100[0].pci_bus_id == "0000:83:00.0"


def test_amd_smi_static_rx6600xt():
    (g,) = amd.from_amd_smi_static((RECORDED / "amd/rx6600xt-proxmox.amd-smi-static.json").read_text())
    assert g.vram_total_bytes == 8176 * 1024**2
    assert "RX 6600" in g.name
    assert g.pcie_gen_max == 4 and g.pcie_width_max == 16 and g.power_limit_w == 100.0
    assert g.pci_bus_id == "0000:0b:00.0"


def test_probe_prefers_tool_then_sysfs(tmp_path):
    text = (RECORDED / "amd/rx7900xt.rocm-smi-showproductname-showuse-showmeminfo-vram.json").read_text()
    src = Sources(system="linux", root=tmp_path, run=recorded_runner({("rocm-smi",): text}))
    part = amd.probe(src, use_module=False)
    assert [g.source for g in part.gpus] == ["rocm-smi"]
    src = Sources(system="linux", root=tmp_path, run=recorded_runner({}))
    assert amd.probe(src, use_module=False).gpus == ()  # nothing there: no GPU claimed


def test_phoenix_apu_is_carve_out_not_dedicated(tmp_path):
    src = Sources(system="linux", root=sysfs_root(tmp_path, "phoenix-apu-radeon780m"), run=recorded_runner({}))
    part = amd.probe(src, use_module=False)
    (g,) = part.gpus
    assert g.memory_kind == "carve-out" and g.is_discrete is False
    assert g.vram_total_bytes == 4 * GIB and g.shared_memory_bytes == 31433977856
    assert g.compute_capability == "gfx1103" and g.architecture == "RDNA 3" and g.sm_count == 12
    assert "780M" in g.name
    m = assemble([part])
    assert m.memory.shared_with_gpu is True
    assert any(f.code == "amd.apu" for f in m.findings)


def test_strix_point_apu_small_carve_out(tmp_path):
    src = Sources(system="linux", root=sysfs_root(tmp_path, "strixpoint-apu-radeon880m-890m"), run=recorded_runner({}))
    (g,) = amd.probe(src, use_module=False).gpus
    assert g.memory_kind == "carve-out" and g.vram_total_bytes == 512 * 1024**2
    assert g.compute_capability == "gfx1150" and g.architecture == "RDNA 3.5"


def test_vega56_discrete_without_kfd(tmp_path):
    # No KFD files: decided by the PCI id (687f is not an APU); visible VRAM 256 MiB < 8 GiB total.
    src = Sources(system="linux", root=sysfs_root(tmp_path, "vega56-discrete"), run=recorded_runner({}))
    (g,) = amd.probe(src, use_module=False).gpus
    assert g.memory_kind == "dedicated" and g.is_discrete is True
    assert g.vram_total_bytes == 8573157376
    assert g.pcie_gen_current == 3 and g.pcie_width_max == 16


def test_gfx_name():
    assert amd._gfx_name(110003) == "gfx1103"
    assert amd._gfx_name(90010) == "gfx90a"
    assert amd._gfx_name(None) is None
