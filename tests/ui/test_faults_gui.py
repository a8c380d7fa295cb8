"""The desktop app when everything goes wrong: every probe fails, hangs or meets garbage, and a damaged
file is opened. The window stays usable: the scan ends at its time budget, each unknown is shown with
its reason, the jobs ladder still works, and a bad file is one dialog naming it."""

from __future__ import annotations

import json
import sys
import threading
import time

import pynvml
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from replay import FakeNvml, FakePsutil  # noqa: E402

GIB = 1024**3


def _faulty_scan(release: threading.Event):
    """`gpucheck.probe.scan` over sources that all misbehave, with a 1-second budget per probe."""
    import gpucheck.probe as probe_pkg
    from gpucheck.probe.base import Sources, run_command

    class Hanging(FakeNvml):
        def nvmlInit(self):
            release.wait(30)

    class Refusing(FakePsutil):
        def virtual_memory(self):
            raise PermissionError(13, "Permission denied")

        def disk_usage(self, path):
            release.wait(30)

    def hanging_tool(argv, timeout=5.0, any_exit=False):
        return run_command([sys.executable, "-c", "import time; time.sleep(30)"], timeout=min(timeout, 0.3))

    def scan(on_progress=None, deep=False, on_partial=None, cancel=None, **_):
        src = Sources(system="linux", root=FIXTURES / "does-not-exist", nvml=lambda: Hanging([], None, None),
                      ps=Refusing(logical=4, physical=2, ram=8 * GIB,
                                  partitions=[("/dev/sda1", "/", "ext4", 100 * GIB, 10 * GIB)]),
                      run=hanging_tool, site_paths=())
        machine = None
        for name, done, total, m in probe_pkg.scan_iter(src, timeouts={n: 1.0 for n in probe_pkg.TIMEOUTS}):
            machine = m
            if on_progress:
                on_progress(probe_pkg.AREA_OF.get(name, name), done, total)
            if on_partial:
                on_partial(m)
        return machine

    return scan


def test_scan_where_every_source_fails_still_leads_to_the_jobs(wizard, qtbot, monkeypatch):
    release = threading.Event()
    wizard.scan_fn = _faulty_scan(release)
    t0 = time.monotonic()
    try:
        qtbot.mouseClick(wizard.welcome.scan_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: wizard.session.machine is not None, timeout=15000)
    finally:
        release.set()
    assert time.monotonic() - t0 < 12  # the budget, not the 30 s the sources would hang
    machine = wizard.session.machine
    unknown = [f.message for f in machine.findings if f.severity == "unknown"]
    assert any("RAM size unknown because" in m for m in unknown)
    assert any("did not answer within 1 s" in m for m in unknown)
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    wizard.next()
    cards = wizard.machine_page.cards
    shown = "\n".join(c.findings.text() for c in cards.values()) + wizard.machine_page.other.text()
    for m in unknown:
        assert m in shown, m
    wizard.next()
    assert wizard.currentPage() is wizard.jobs
    from gpucheck.catalog import load_workloads

    assert wizard.jobs.table.rowCount() == len(load_workloads())
    assert all(wizard.jobs.verdict_of(w.id) for w in load_workloads())


def test_nvml_lost_gpu_mid_scan_is_shown_as_unknown(wizard, qtbot, monkeypatch):
    """The driver loses the GPU while it is being read: the app shows the GPU with what was read and
    says the rest is unknown because the GPU is lost."""
    from replay import RECORDED, nvml_from_xml

    import gpucheck.probe as probe_pkg
    from gpucheck.probe.base import Sources

    base = nvml_from_xml(RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml", {"cc": (8, 6)})

    class Lost(FakeNvml):
        def nvmlDeviceGetCudaComputeCapability(self, h):
            raise pynvml.NVMLError(pynvml.NVML_ERROR_GPU_IS_LOST)

    nv = Lost(base._devices, base._driver, base._cuda)
    src = Sources(system="linux", root=FIXTURES / "does-not-exist", nvml=lambda: nv,
                  ps=FakePsutil(logical=8, physical=4, ram=32 * GIB), run=lambda *a, **k: None, site_paths=())
    real_iter = probe_pkg.scan_iter
    monkeypatch.setattr(probe_pkg, "scan_iter", lambda sources=None, timeouts=None: real_iter(src, timeouts))
    qtbot.mouseClick(wizard.welcome.scan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: wizard.session.machine is not None, timeout=15000)
    machine = wizard.session.machine
    assert machine.gpus and machine.gpus[0].name == "NVIDIA GeForce RTX 3080"
    wizard.next()
    shown = "\n".join(c.findings.text() for c in wizard.machine_page.cards.values())
    assert "compute capability unknown because NVML did not report it (GPU is lost)" in shown


def test_opening_a_damaged_scan_is_one_dialog_naming_the_file(wizard, tmp_path, dialogs):
    data = json.loads((FIXTURES / "machines/rtx3060-12gb-hdd-desktop.json").read_text(encoding="utf-8"))
    data["gpus"][0]["vram_total_bytes"] = -12
    bad = tmp_path / "edited-scan.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert not wizard.open_machine_file(str(bad))
    text = dialogs[-1].text()
    assert "edited-scan.json" in text and "vram_total_bytes" in text
    assert wizard.welcome.scan_button.isEnabled()  # the app is still usable
    deep = tmp_path / "nested.json"
    deep.write_text("[" * 50_000 + "]" * 50_000, encoding="utf-8")
    assert not wizard.open_machine_file(str(deep))
    assert "nested.json" in dialogs[-1].text()
