"""What the NVIDIA driver reserves for itself (NVML's v2 memory figures) is neither "in use by other programs" nor
usable by a job. Replayed on the `nvidia-smi -q -x` of an idle NVIDIA H200 (tests/fixtures/SOURCES.md): 143771 MiB
total, 616 MiB reserved, 0 MiB used, 143156 MiB free. Before the v2 figures were read, `gpucheck check` on that
GPU said "0.6 GiB of NVIDIA H200's memory is in use by other programs right now" and "140.4 GiB usable"."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pynvml

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import RECORDED, FakeNvml, device_from_xml, nvml_from_xml, recorded_runner  # noqa: E402

from gpucheck.cli import main  # noqa: E402
from gpucheck.estimate import Target  # noqa: E402
from gpucheck.i18n import use_language  # noqa: E402
from gpucheck.machine import Machine  # noqa: E402
from gpucheck.machine_text import format_machine  # noqa: E402
from gpucheck.probe import assemble, nvidia  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402
from gpucheck.ui.machine_view import JobContext, part_view  # noqa: E402

MIB = 1024**2
H200 = RECORDED / "nvidia/h200-linux-drv580.nvidia-smi-q-x.xml"
RTX3080 = RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml"
BUSY = "in use by other programs"
# cc 9.0 for the H200 and 8.6 for the RTX 3080: developer.nvidia.com/cuda-gpus
H200_SPEC = {"cc": (9, 0)}


def _v1_only(path, spec) -> FakeNvml:
    """The same GPU behind a driver without nvmlDeviceGetMemoryInfo_v2 (before R510): v1 figures only."""
    root = ET.parse(path).getroot()
    return FakeNvml([device_from_xml(g, spec) for g in root.findall("gpu")], driver=root.findtext("driver_version"),
                    cuda=root.findtext("cuda_version"), memory_v2=False)


def _machine(nv) -> Machine:
    return assemble([nvidia.probe(Sources(system="linux", nvml=lambda: nv, run=recorded_runner({})))])


def _check_text(machine: Machine, tmp_path, capsys) -> str:
    path = tmp_path / "scan.json"
    path.write_text(machine.to_json(), encoding="utf-8")
    assert main(["check", "mnist-cnn", "--machine", str(path)]) == 0
    return capsys.readouterr().out


def test_idle_h200_has_no_memory_in_use_and_the_driver_reserve_is_not_usable(tmp_path, capsys):
    m = _machine(nvml_from_xml(H200, H200_SPEC))
    (g,) = m.gpus
    assert (g.vram_total_bytes, g.vram_reserved_bytes, g.vram_free_bytes) == (143771 * MIB, 616 * MIB, 143156 * MIB)
    t = Target.from_machine(m)
    assert t.vram_available_bytes == (143771 - 616) * MIB  # 139.8 GiB: what cudaMalloc can ever get
    assert not any(BUSY in n for n in t.notes)
    out = _check_text(m, tmp_path, capsys)
    assert "Target: NVIDIA H200, 139.8 GiB usable" in out
    assert BUSY not in out and "140.4 GiB" not in out
    # the scan says where the 0.6 GiB went, in English and Chinese
    assert "Video memory: 140.4 GiB total, 139.8 GiB free, 0.6 GiB kept by the driver" in format_machine(m)
    with use_language("zh_CN"):
        assert "共 140.4 GiB，可用 139.8 GiB，驱动保留 0.6 GiB" in format_machine(m)
    # the app's GPU card: the same figures, and the usable memory the jobs page uses
    card = part_view(m, "gpu", JobContext(trains=1, total=1, usable_vram_bytes=t.vram_available_bytes))
    assert "  Video memory (VRAM): 140.4 GiB total, 139.8 GiB free, 0.6 GiB kept by the driver" in card.details
    assert card.summary == "NVIDIA H200 · 139.8 GiB usable of 140.4 GiB VRAM"


def test_the_reserve_survives_the_scan_file_and_older_files_still_load(tmp_path):
    m = _machine(nvml_from_xml(H200, H200_SPEC))
    assert m.to_dict()["gpus"][0]["vram_reserved_bytes"] == 616 * MIB
    assert Machine.from_dict(m.to_dict()) == m
    old = m.to_dict()
    del old["gpus"][0]["vram_reserved_bytes"]  # a scan saved before the field existed
    back = Machine.from_dict(old)
    assert back.gpus[0].vram_reserved_bytes is None
    assert Target.from_machine(back).vram_available_bytes == 143771 * MIB  # as before: the total


def test_a_driver_without_the_v2_figures_behaves_as_before(tmp_path, capsys):
    nv = _v1_only(H200, H200_SPEC)
    m = _machine(nv)
    (g,) = m.gpus
    assert g.vram_reserved_bytes is None
    assert (g.vram_total_bytes, g.vram_free_bytes) == (143771 * MIB, 143156 * MIB)
    t = Target.from_machine(m)
    assert t.vram_available_bytes == 143771 * MIB
    # v1 counts the reserve as used: the note it always gave (the reserve cannot be told apart)
    assert any("0.6 GiB of NVIDIA H200's memory is " + BUSY in n for n in t.notes)
    out = _check_text(m, tmp_path, capsys)
    assert "Target: NVIDIA H200, 140.4 GiB usable" in out and BUSY in out
    assert "kept by the driver" not in format_machine(m)
    assert "Video memory: 140.4 GiB total, 139.8 GiB free" in format_machine(m)


def test_a_binding_without_the_v2_call_falls_back_to_v1():
    # nvidia-ml-py releases without the nvmlMemory_v2 constant, or whose call takes no `version`
    no_const = nvml_from_xml(H200, H200_SPEC)
    del no_const.nvmlMemory_v2
    old_call = nvml_from_xml(H200, H200_SPEC)
    v1_call = old_call.nvmlDeviceGetMemoryInfo
    old_call.nvmlDeviceGetMemoryInfo = lambda h: v1_call(h)  # TypeError when given a version
    for nv in (no_const, old_call):
        (g,) = _machine(nv).gpus
        assert g.vram_total_bytes == 143771 * MIB and g.vram_free_bytes == 143156 * MIB
        assert g.vram_reserved_bytes is None


def test_a_driver_refusing_v2_leaves_memory_known():
    # what pynvml raises where nvmlDeviceGetMemoryInfo_v2 is missing or refused: the v1 figures stand
    for code in (pynvml.NVML_ERROR_FUNCTION_NOT_FOUND, pynvml.NVML_ERROR_NOT_SUPPORTED,
                 pynvml.NVML_ERROR_ARGUMENT_VERSION_MISMATCH):
        nv = nvml_from_xml(H200, H200_SPEC)
        v1_call = nv.nvmlDeviceGetMemoryInfo

        def refuse(h, version=None, code=code, v1_call=v1_call):
            if version is not None:
                raise pynvml.NVMLError(code)
            return v1_call(h)

        nv.nvmlDeviceGetMemoryInfo = refuse
        part = nvidia.probe(Sources(system="linux", nvml=lambda nv=nv: nv, run=recorded_runner({})))
        (g,) = part.gpus
        assert g.vram_total_bytes == 143771 * MIB and g.vram_reserved_bytes is None
        assert not any(f.code == "nvidia.memory" for f in part.findings)


def test_memory_really_in_use_is_still_noted_without_the_reserve():
    # the recorded RTX 3080: 10240 MiB total, 397 reserved, 9184 used by programs, 660 free
    spec = {"cc": (8, 6)}
    v2 = Target.from_machine(_machine(nvml_from_xml(RTX3080, spec)))
    assert v2.vram_available_bytes == (10240 - 397) * MIB
    assert [n for n in v2.notes if BUSY in n] == [
        "9.0 GiB of NVIDIA GeForce RTX 3080's memory is in use by other programs right now; the estimate assumes "
        "you close them"]
    v1 = Target.from_machine(_machine(_v1_only(RTX3080, spec)))  # v1: used counts the reserve, as before
    assert v1.vram_available_bytes == 10240 * MIB
    assert any(n.startswith("9.4 GiB of NVIDIA GeForce RTX 3080's memory is " + BUSY) for n in v1.notes)
