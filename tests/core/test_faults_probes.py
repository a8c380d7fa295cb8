"""Fault injection for every probe: a missing library, a driver error in the middle of a query, a command
that hangs, garbage output, permission denied, a GPU that disappears between calls.

What a user must see in every case: the scan finishes, within its time budget, and says what is unknown
and why ("… unknown because …") — never a traceback, never a hang.
"""

from __future__ import annotations

import builtins
import os
import shutil
import sys
from pathlib import Path

import psutil
import pynvml
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import (  # noqa: E402
    RECORDED,
    FakeNvml,
    FakePsutil,
    no_nvml,
    nvml_from_xml,
    recorded_runner,
)

import gpucheck.probe as probe_pkg  # noqa: E402
from gpucheck.logs import log_file  # noqa: E402
from gpucheck.machine import Machine  # noqa: E402
from gpucheck.probe import (  # noqa: E402
    amd,
    apple,
    cpu,
    linux,
    memory,
    nvidia,
    power,
    scan_iter,
    software,
    storage,
    windows,
)
from gpucheck.probe.base import Part, Sources, run_command  # noqa: E402

GIB = 1024**3
RTX3080_XML = RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml"
A100_MIG_XML = next((RECORDED / "nvidia").glob("*a100*mig*.xml"), None) or RTX3080_XML
SLEEPER = [sys.executable, "-c", "import time; time.sleep(30)"]
ALL_PROBES = {"nvidia": nvidia.probe, "amd": lambda s: amd.probe(s, use_module=False), "apple": apple.probe,
              "windows": windows.probe, "platform": linux.probe, "cpu": cpu.probe, "memory": memory.probe,
              "disks": storage.probe, "power": power.probe, "software": software.probe}


@pytest.fixture(autouse=True)
def _private_log(tmp_path, monkeypatch):
    """Anything logged goes to a temporary folder, not the user's real log."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def _ps(**kw) -> FakePsutil:
    base = dict(logical=8, physical=4, ram=16 * GIB, partitions=[("/dev/sda1", "/", "ext4", 500 * GIB, 200 * GIB)])
    base.update(kw)
    return FakePsutil(**base)


def _sources(tmp_path: Path, system: str = "linux", **kw) -> Sources:
    defaults = dict(system=system, root=tmp_path, nvml=no_nvml, ps=_ps(), run=recorded_runner({}), site_paths=(),
                    registry=(lambda path: {}) if system == "windows" else None)
    defaults.update(kw)
    return Sources(**defaults)


def _unknowns(findings) -> list[str]:
    return [f.message for f in findings if f.severity == "unknown"]


# -- NVIDIA: the NVML wrapper ---------------------------------------------------------------------

class FailingNvml(FakeNvml):
    """A recorded GPU whose driver starts failing with `code` after `ok_calls` device queries."""

    def __init__(self, base: FakeNvml, ok_calls: int, code: int):
        super().__init__(base._devices, base._driver, base._cuda)
        self._left = ok_calls
        self._code = code

    def __getattribute__(self, name):
        attr = object.__getattribute__(self, name)
        if name.startswith("nvmlDevice") and callable(attr):
            def wrapped(*a, **k):
                left = object.__getattribute__(self, "_left")
                if left <= 0:
                    raise pynvml.NVMLError(object.__getattribute__(self, "_code"))
                object.__setattr__(self, "_left", left - 1)
                return attr(*a, **k)
            return wrapped
        return attr


def test_nvml_binding_missing_is_a_reason_not_a_crash(tmp_path):
    def missing():
        raise ImportError("No module named 'pynvml'")

    part = nvidia.probe(_sources(tmp_path, nvml=missing))
    assert part.gpus == () and part.facts["nvml"] == "binding_missing"
    m = probe_pkg.assemble([part])
    assert any("nvidia-ml-py package is missing" in f.message for f in m.findings)


@pytest.mark.parametrize("code,kind", [(pynvml.NVML_ERROR_LIBRARY_NOT_FOUND, "library_not_found"),
                                       (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, "driver_not_loaded"),
                                       (pynvml.NVML_ERROR_NO_PERMISSION, "no_permission"),
                                       (pynvml.NVML_ERROR_UNKNOWN, "other")])
def test_nvml_init_failure_names_the_cause(tmp_path, code, kind):
    part = nvidia.probe(_sources(tmp_path, nvml=lambda: FakeNvml([], None, None, init_error=code)))
    assert part.gpus == () and part.facts["nvml"] == kind
    (tmp_path / "sys/bus/pci/devices/0000:01:00.0").mkdir(parents=True)
    for name, value in (("class", "0x030000"), ("vendor", "0x10de"), ("device", "0x2206")):
        (tmp_path / f"sys/bus/pci/devices/0000:01:00.0/{name}").write_text(value + "\n")
    m = probe_pkg.assemble([part, linux.probe(_sources(tmp_path))], _sources(tmp_path))
    # an NVIDIA card is on the PCI bus but the driver cannot be used: a warning that says why
    warn = [f for f in m.findings if f.code == "nvidia.no_driver"]
    assert warn and warn[0].severity == "warning"
    if kind == "no_permission":
        assert "no permission" in warn[0].message
    if kind == "other":
        assert "Unknown Error" in warn[0].message


def test_nvml_library_that_fails_to_load_is_library_not_found(tmp_path):
    class Broken(FakeNvml):
        def nvmlInit(self):
            raise OSError("libnvidia-ml.so.1: cannot open shared object file")

    part = nvidia.probe(_sources(tmp_path, nvml=lambda: Broken([], None, None)))
    assert part.facts["nvml"] == "library_not_found" and "cannot open" in part.facts["nvml_error"]


@pytest.mark.parametrize("code", [pynvml.NVML_ERROR_UNKNOWN, pynvml.NVML_ERROR_GPU_IS_LOST])
@pytest.mark.parametrize("ok_calls", [0, 1, 3, 10])
def test_driver_error_in_the_middle_of_a_query(tmp_path, code, ok_calls):
    base = nvml_from_xml(RTX3080_XML, {"cc": (8, 6)})
    nv = FailingNvml(base, ok_calls=ok_calls, code=code)
    part = nvidia.probe(_sources(tmp_path, nvml=lambda: nv))
    assert nv.initialised == 0, "nvmlShutdown must run even when queries fail"
    reason = str(pynvml.NVMLError(code))
    if ok_calls == 0:  # the driver failed while counting the GPUs
        assert part.gpus == ()
        assert any("number of GPUs is unknown because" in m and reason in m for m in _unknowns(part.findings))
        return
    if ok_calls == 1:  # counted, then the handle could not be had
        assert part.gpus == ()
        assert any("unknown because NVML could not open it" in m and reason in m for m in _unknowns(part.findings))
        return
    assert len(part.gpus) == 1
    g = part.gpus[0]
    assert g.vram_total_bytes is None or g.vram_total_bytes == 10240 * 1024**2
    if g.vram_total_bytes is None:
        assert any("memory size unknown because" in m and reason in m for m in _unknowns(part.findings))
    # the half-read GPU still makes a valid Machine that survives a save/load
    m = probe_pkg.assemble([part])
    assert Machine.from_dict(m.to_dict()) == m


def test_gpu_that_disappears_between_count_and_handle(tmp_path):
    base = nvml_from_xml(RTX3080_XML, {"cc": (8, 6)})

    class Vanishing(FakeNvml):
        def nvmlDeviceGetCount(self):
            return 2  # two GPUs when counted …

        def nvmlDeviceGetHandleByIndex(self, i):
            if i == 1:  # … the second one fell off the bus before it could be opened
                raise pynvml.NVMLError(pynvml.NVML_ERROR_GPU_IS_LOST)
            return super().nvmlDeviceGetHandleByIndex(i)

    nv = Vanishing(base._devices, base._driver, base._cuda)
    part = nvidia.probe(_sources(tmp_path, nvml=lambda: nv))
    assert [g.name for g in part.gpus] == ["NVIDIA GeForce RTX 3080"]
    assert any("NVIDIA GPU 1: unknown because NVML could not open it (GPU is lost)" in m
               for m in _unknowns(part.findings))


def test_gpu_lost_after_its_memory_was_read(tmp_path):
    base = nvml_from_xml(RTX3080_XML, {"cc": (8, 6)})

    class LostAfterMemory(FakeNvml):
        lost = False

        def nvmlDeviceGetMemoryInfo(self, h, version=None):
            out = super().nvmlDeviceGetMemoryInfo(h, version)
            self.lost = True
            return out

        def __getattribute__(self, name):
            attr = object.__getattribute__(self, name)
            if name.startswith("nvmlDevice") and name not in ("nvmlDeviceGetMemoryInfo", "nvmlDeviceGetCount",
                                                             "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetName"):
                if object.__getattribute__(self, "lost"):
                    def gone(*a, **k):
                        raise pynvml.NVMLError(pynvml.NVML_ERROR_GPU_IS_LOST)
                    return gone
            return attr

    nv = LostAfterMemory(base._devices, base._driver, base._cuda)
    part = nvidia.probe(_sources(tmp_path, nvml=lambda: nv))
    g = part.gpus[0]
    assert g.vram_total_bytes == 10240 * 1024**2 and g.compute_capability is None and g.power_limit_w is None
    assert any("compute capability unknown because NVML did not report it (GPU is lost)" in m
               for m in _unknowns(part.findings))


def test_nvml_returning_garbage_bytes_is_decoded(tmp_path):
    base = nvml_from_xml(RTX3080_XML, {"cc": (8, 6)})

    class Garbled(FakeNvml):
        def nvmlDeviceGetName(self, h):
            return b"NVIDIA \xff\xfe GeForce\x00\x00"

        def nvmlSystemGetDriverVersion(self):
            return b"\x80\x81"

    nv = Garbled(base._devices, base._driver, base._cuda)
    part = nvidia.probe(_sources(tmp_path, nvml=lambda: nv))
    g = part.gpus[0]
    assert isinstance(g.name, str) and "GeForce" in g.name and "\x00" not in g.name
    m = probe_pkg.assemble([part])
    assert Machine.from_dict(m.to_dict()) == m


def test_nvml_function_raising_an_unexpected_python_error_becomes_a_finding(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    base = nvml_from_xml(RTX3080_XML, {"cc": (8, 6)})

    class Buggy(FakeNvml):
        def nvmlDeviceGetCount(self):
            raise RuntimeError("binding bug")

    nv = Buggy(base._devices, base._driver, base._cuda)
    src = _sources(tmp_path, nvml=lambda: nv)
    m = list(scan_iter(src, timeouts={n: 5.0 for n in probe_pkg.TIMEOUTS}))[-1][3]
    f = [f for f in m.findings if f.code == "scan.nvidia.failed"]
    assert f and "unknown because" in f[0].message and "binding bug" in f[0].message
    assert m.memory.total_bytes == 16 * GIB
    if sys.platform.startswith("linux"):  # the traceback went to the log, for a bug report
        log = log_file().read_text(encoding="utf-8")
        assert log_file().is_relative_to(tmp_path / "state")
        assert "RuntimeError: binding bug" in log and "nvmlDeviceGetCount" in log


# -- commands that hang ---------------------------------------------------------------------------

def test_run_command_times_out_on_a_real_sleeping_process():
    # None, not the sleeper's empty output: the 0.3 s limit stopped it (it would sleep 30 s and exit 0)
    assert run_command(SLEEPER, timeout=0.3) is None


def test_run_command_missing_tool_and_failing_tool_are_none():
    assert run_command(["gpucheck-no-such-tool-xyz"]) is None
    assert run_command([sys.executable, "-c", "import sys; sys.exit(3)"]) is None
    out = run_command([sys.executable, "-c", "import sys; print('partial'); sys.exit(1)"], any_exit=True)
    assert out is not None and "partial" in out


def _hanging_runner(calls: list):
    """Every tool a probe starts is a real process that sleeps; the probe's timeout, shortened, applies."""
    def run(argv, timeout=5.0, any_exit=False):
        calls.append(tuple(argv))
        return run_command(SLEEPER, timeout=min(float(timeout), 0.3), any_exit=any_exit)

    return run


@pytest.mark.parametrize("system,name", [("linux", "amd"), ("linux", "platform"), ("darwin", "apple"),
                                         ("darwin", "cpu"), ("darwin", "disks"), ("windows", "disks")])
def test_probe_whose_tool_hangs_still_returns(tmp_path, system, name):
    calls: list = []
    src = _sources(tmp_path, system, run=_hanging_runner(calls),
                   ps=_ps(partitions=[("C:\\" if system == "windows" else "/dev/disk3s1",
                                       "C:\\" if system == "windows" else "/", "NTFS" if system == "windows"
                                       else "apfs", 500 * GIB, 200 * GIB)]))
    part = ALL_PROBES[name](src)  # each command is stopped by its limit: the probe returns a Part
    assert isinstance(part, Part)
    assert calls, f"{name} on {system} ran no command: the test would prove nothing"
    if name == "disks":
        assert part.disks[0].kind == "unknown" and any("disk type unknown because" in m for m in _unknowns(part.findings))
    if name == "cpu":
        assert any("CPU model unknown because" in m for m in _unknowns(part.findings))


def test_whole_scan_with_every_source_hanging_finishes_in_its_budget(tmp_path):
    """Every command sleeps, NVML's init blocks, psutil blocks: the scan ends at its time budget."""
    import threading

    release = threading.Event()

    class BlockingNvml(FakeNvml):
        def nvmlInit(self):
            release.wait(30)

    class BlockingPs(FakePsutil):
        def virtual_memory(self):
            release.wait(30)

        def disk_usage(self, path):
            release.wait(30)

    ps = BlockingPs(logical=8, physical=4, ram=16 * GIB, partitions=[("/dev/sda1", "/", "ext4", 1, 1)])
    src = _sources(tmp_path, nvml=lambda: BlockingNvml([], None, None), ps=ps, run=_hanging_runner([]))
    budget = {n: 1.0 for n in probe_pkg.TIMEOUTS}
    try:
        items = list(scan_iter(src, timeouts=budget))
    finally:
        release.set()
    m = items[-1][3]
    # The scan ended at its budget, not when the sources gave up (30 s): the blocked probes are reported
    # as not answering, which they could not be had the scan waited for them.
    assert len(items) == len(probe_pkg.probes_for(src))
    timed_out = {f.code for f in m.findings if f.code.endswith(".timeout")}
    assert {"scan.nvidia.timeout", "scan.memory.timeout", "scan.disks.timeout"} <= timed_out
    assert all("unknown because the check did not answer within 1 s" in f.message
               for f in m.findings if f.code.endswith(".timeout"))
    assert m.cpu.logical_cores == 8  # the probes that could answer did
    assert Machine.from_dict(m.to_dict()) == m


# -- garbage output -------------------------------------------------------------------------------

def _json_like():
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.sampled_from(["gpu_data", "asic", "vram", "bus", "card0", "card1",
                                                           "system", "SPHardwareDataType", "SPDisplaysDataType",
                                                           "market_name", "size", "value", "unit", "limit",
                                                           "max_power", "VRAM Total Memory (B)", "Card series",
                                                           "PCIe clock level", "chip_type", "sppci_cores",
                                                           "physical_memory", "driver", "version"]) | st.text(max_size=8),
                                          inner, max_size=4), max_leaves=15)


garbage_text = (st.text(max_size=300)
                | _json_like().map(lambda v: __import__("json").dumps(v))
                | st.lists(st.sampled_from(["Protocol: USB", "Solid State: Yes", "Chip: Apple M9", "Memory: 12 GB",
                                            "Hardware:", "Graphics/Displays:", "hw.memsize: x", "hw.memsize=12",
                                            "machdep.cpu.brand_string: Apple ", "01:00.0 VGA compatible "
                                            "controller [0300]: NVIDIA [10de:2206]", "\tKernel driver in use: nvidia",
                                            "MediaType : 4", "BusType=17", "DriveLetter=C", "DiskNumber=0",
                                            "FriendlyName=partition", "", "{", "["]), max_size=20).map("\n".join))


def _garbage_runner(text: str):
    def run(argv, timeout=5.0, any_exit=False):
        return text

    return run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=garbage_text, system=st.sampled_from(["linux", "darwin", "windows"]))
@example(text='{"card0": {"Temperature (Sensor edge) (C)": "nan", "Max Graphics Package Power (W)": "inf"}}',
         system="linux")
@example(text='{"SPDisplaysDataType": [{"spdisplays_ndrvs": 5, "sppci_model": "Apple M2"}]}', system="darwin")
@example(text='[{"asic": [], "bus": "x"}]', system="linux")
@example(text='{"SPDisplaysDataType": true, "SPHardwareDataType": 5}', system="darwin")
@example(text='{"card0": {"Max Graphics Package Power (W)": "-5", "VRAM Total Memory (B)": "-1", '
              '"Temperature (Sensor edge) (C)": "-10"}}', system="linux")
@example(text='[{"asic": {"num_compute_units": "-3"}, "bus": {"max_pcie_width": -16}, '
              '"limit": {"max_power": {"value": -300}}, "vram": {"size": {"value": -8, "unit": "GB"}}}]',
         system="linux")
def test_garbage_tool_output_never_breaks_a_probe(tmp_path, text, system):
    mount = ("C:\\", "C:\\", "NTFS") if system == "windows" else ("/dev/disk3s1", "/", "apfs")
    src = _sources(tmp_path, system, run=_garbage_runner(text),
                   ps=_ps(partitions=[(mount[0], mount[1], mount[2], 500 * GIB, 200 * GIB)]))
    parts = []
    for name, fn in probe_pkg.probes_for(src):
        fn = ALL_PROBES.get(name, fn)
        parts.append(fn(src))  # must not raise
    m = probe_pkg.assemble(parts, src, 0.1)
    assert Machine.from_dict(m.to_dict()) == m


@settings(max_examples=80, deadline=None)
@given(text=garbage_text)
def test_garbage_to_each_parser_is_handled(text):
    """The parsers' own contract: values or an error the probe catches, nothing else."""
    for parse, caught in ((amd.from_amd_smi_static, (ValueError, AttributeError, TypeError)),
                          (amd.from_rocm_smi, (ValueError, AttributeError, TypeError)),
                          (apple.parse_system_profiler_json, (ValueError, AttributeError, TypeError)),
                          (apple.parse_system_profiler_text, (ValueError, AttributeError, TypeError))):
        try:
            parse(text)
        except caught:
            pass
    linux.pci_from_lspci(text)
    windows.parse_physical_disks(text)
    apple.parse_sysctl(text)
    cpu.parse_cpuinfo(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(
    st.sampled_from(["proc/cpuinfo", "sys/class/dmi/id/chassis_type", "sys/class/dmi/id/sys_vendor",
                     "sys/class/drm/card0/device/vendor", "sys/class/drm/card0/device/mem_info_vram_total",
                     "sys/class/drm/card0/device/device", "sys/class/drm/card0/device/uevent",
                     "sys/class/drm/card0/device/mem_info_vram_used", "sys/block/sda/queue/rotational",
                     "sys/bus/pci/devices/0000:01:00.0/class", "sys/bus/pci/devices/0000:01:00.0/vendor",
                     "sys/devices/system/cpu/cpu0/cache/index2/size",
                     "sys/devices/system/cpu/cpu0/cache/index2/shared_cpu_list",
                     "sys/devices/system/cpu/cpu0/cache/index2/level", "opt/rocm/.info/version",
                     "sys/class/kfd/kfd/topology/nodes/1/properties", "etc/os-release", "proc/version"]),
    st.text(max_size=60) | st.sampled_from(["0x1002", "0x10de", "0x030000", "1", "0", "-1", "0-", "x-y",
                                            "999999999999999999999", "simd_count 4\nsimd_per_cu 0",
                                            "simd_count x\nlocal_mem_size 0"]),
    max_size=8))
@example(files={"sys/devices/system/cpu/cpu0/cache/index2/level": "2",
                "sys/devices/system/cpu/cpu0/cache/index2/size": "512K",
                "sys/devices/system/cpu/cpu0/cache/index2/shared_cpu_list": "0-"})
@example(files={"sys/devices/system/cpu/cpu0/cache/index2/level": "2",
                "sys/devices/system/cpu/cpu0/cache/index2/size": "512K",
                "sys/devices/system/cpu/cpu0/cache/index2/shared_cpu_list": "x-y"})
@example(files={"proc/cpuinfo": "processor : 0\nmodel name : Odd CPU @ . GHz\ncpu MHz : inf\n"})
@example(files={"sys/class/drm/card0/device/vendor": "0x1002", "sys/class/drm/card0/device/mem_info_vram_total": "-1",
                "sys/class/kfd/kfd/topology/nodes/1/properties": "simd_count 4\nsimd_per_cu 0"})
def test_garbage_system_files_never_break_the_linux_probes(tmp_path_factory, files):
    root = tmp_path_factory.mktemp("root")
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", errors="replace")
    src = _sources(root, "linux")
    parts = [ALL_PROBES.get(n, fn)(src) for n, fn in probe_pkg.probes_for(src)]
    m = probe_pkg.assemble(parts, src, 0.1)
    assert Machine.from_dict(m.to_dict()) == m


# -- permission denied ----------------------------------------------------------------------------

def test_permission_denied_everywhere_gives_unknown_findings(tmp_path, monkeypatch):
    """/proc and /sys unreadable, psutil refused, NVML refused, tools refused: a Machine full of reasons."""
    shutil.copytree(RECORDED / "amd-sysfs/phoenix-apu-radeon780m/card1", tmp_path / "sys/class/drm/card1")
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text("processor : 0\nmodel name : Test CPU\n")
    root = str(tmp_path)
    real_open, real_listdir = builtins.open, os.listdir

    def guarded_open(file, *a, **k):
        if str(file).startswith(root):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *a, **k)

    def guarded_listdir(path="."):
        if str(path).startswith(root):
            raise PermissionError(13, "Permission denied", str(path))
        return real_listdir(path)

    class DeniedPs:
        def __getattr__(self, name):
            def denied(*a, **k):
                raise psutil.AccessDenied()
            return denied

    def denied_registry(path):
        raise PermissionError(13, "Access is denied")

    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(os, "listdir", guarded_listdir)
    nv = lambda: FakeNvml([], None, None, init_error=pynvml.NVML_ERROR_NO_PERMISSION)  # noqa: E731
    for system in ("linux", "windows"):
        src = _sources(tmp_path, system, nvml=nv, ps=DeniedPs(), registry=denied_registry,
                       run=lambda argv, timeout=5.0, any_exit=False: None)
        parts = [ALL_PROBES.get(n, fn)(src) for n, fn in probe_pkg.probes_for(src)]
        m = probe_pkg.assemble(parts, src, 0.1)
        unknown = " | ".join(_unknowns(m.findings))
        assert "RAM size unknown because" in unknown, system
        assert "Disks unknown because" in unknown, system
        assert "CPU core count unknown because" in unknown, system
        assert m.gpus == () or all(g.vram_total_bytes is None for g in m.gpus)
        if system == "windows":
            assert "registry could not be read" in unknown
        assert Machine.from_dict(m.to_dict()) == m


def test_unreadable_mount_is_reported_and_others_kept(tmp_path):
    class OneDenied(FakePsutil):
        def disk_usage(self, path):
            if path == "/data":
                raise PermissionError(13, "Permission denied", path)
            return super().disk_usage(path)

    ps = OneDenied(logical=8, physical=4, ram=16 * GIB,
                   partitions=[("/dev/sda1", "/", "ext4", 500 * GIB, 200 * GIB),
                               ("/dev/sdb1", "/data", "ext4", 900 * GIB, 800 * GIB)])
    part = storage.probe(_sources(tmp_path, ps=ps))
    by = {d.mount: d for d in part.disks}
    assert by["/"].free_bytes == 200 * GIB and by["/data"].free_bytes is None
    assert any("/data: free space unknown because it could not be read" in m for m in _unknowns(part.findings))


# -- disappearing devices (non-NVIDIA) --------------------------------------------------------------

def test_disk_unmounted_between_listing_and_reading(tmp_path):
    class Unmounted(FakePsutil):
        def disk_usage(self, path):
            raise FileNotFoundError(2, "No such file or directory", path)

    part = storage.probe(_sources(tmp_path, ps=Unmounted(logical=1, physical=1, ram=GIB,
                                                         partitions=[("/dev/sdb1", "/mnt/usb", "vfat", 1, 1)])))
    assert part.disks[0].total_bytes is None
    assert any("free space unknown because" in m for m in _unknowns(part.findings))


def test_amd_card_removed_between_listing_and_reading(tmp_path):
    card = tmp_path / "sys/class/drm/card0/device"
    card.mkdir(parents=True)
    (card / "vendor").write_text("0x1002\n")  # listed, but its memory files are already gone
    part = amd.probe(_sources(tmp_path), use_module=False)
    assert part.gpus == ()


def test_battery_removed_while_reading(tmp_path):
    class Flaky(FakePsutil):
        def sensors_battery(self):
            raise FileNotFoundError("/sys/class/power_supply/BAT0/capacity")

    part = power.probe(_sources(tmp_path, ps=Flaky(logical=1, physical=1, ram=GIB)))
    assert part.power.on_battery is None and part.power.battery_percent is None


def test_scan_of_this_computer_without_gpu_lists_its_unknowns():
    """The real scan on this (GPU-less) machine: it completes and every gap has a reason."""
    m = list(scan_iter())[-1][3]
    assert m.cpu.logical_cores and m.memory.total_bytes
    for f in m.findings:
        assert f.message and f.severity in ("info", "ok", "unknown", "warning", "error")
        if f.severity == "unknown":
            assert "because" in f.message


# -- installed frameworks: broken or half-removed installs ------------------------------------------

@pytest.mark.parametrize("damage", ["garbage_version_py", "unreadable_version_py", "no_package_folder",
                                    "empty_metadata", "binary_metadata"])
def test_broken_torch_install_never_breaks_the_software_probe(tmp_path, damage):
    site = tmp_path / "site-packages"
    info = site / "torch-2.13.0+cu128.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 2.13.0+cu128\n")
    pkg = site / "torch"
    pkg.mkdir()
    (pkg / "version.py").write_text((RECORDED / "torch/torch-2.13.0+cpu.version.py").read_text())
    if damage == "garbage_version_py":
        (pkg / "version.py").write_bytes(b"\xff\xfe cuda = \x00\x01 '12.8\n__version__ = ")
    elif damage == "unreadable_version_py":
        (pkg / "version.py").unlink()
        (pkg / "version.py").mkdir()  # reading it fails with IsADirectoryError, as an unreadable file does
    elif damage == "no_package_folder":
        shutil.rmtree(pkg)
    elif damage == "empty_metadata":
        (info / "METADATA").write_text("")
    else:
        (info / "METADATA").write_bytes(b"\x00\xff\xfe\x80" * 50)
    part = software.probe(_sources(tmp_path, site_paths=(str(site),)))
    torch = [f for f in part.software.frameworks if f.name == "torch"]
    assert len(torch) == 1 and torch[0].version.startswith("2.13.0")
    m = probe_pkg.assemble([part], _sources(tmp_path), 0.1)
    assert Machine.from_dict(m.to_dict()) == m
