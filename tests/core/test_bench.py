"""Deep scan: the CPU, RAM and disk benchmarks run for real here (short settings; marked slow).

What a user would notice: figures in a range any working PC reaches, the time cap holds, cancel stops
the run, and no test file is ever left in the folder they picked. The ranges are sanity bounds (the
slowest USB stick reads faster than 1 MB/s, any RAM copies faster than 0.5 GB/s), not speed targets.
Time caps are checked on a fake clock (tests/helpers.FakeClock), never on the wall clock.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

import gpucheck.bench.cpu as cpu
import gpucheck.bench.disk as disk
import gpucheck.bench.ram as ram
from gpucheck.advise.software import torch_install_hint
from gpucheck.bench import run_deep, torch_available
from gpucheck.bench.common import Cancelled, Phase
from gpucheck.machine import Gpu, Machine, Measured
from tests.helpers import FakeClock

MIB = 1024 * 1024
NO_GPU = Machine()  # a PC with no GPU: the deep scan measures CPU, RAM and disk only
SLACK_S = 1.5  # fake seconds: a step in flight when the cap passes


def _phase(seconds: float, cancel: threading.Event | None = None) -> Phase:
    return Phase("test", time.monotonic() + seconds, cancel)


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(disk.TEMP_PREFIX)]


# -- RAM ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_ram_copy_bandwidth_is_plausible():
    r = ram.measure_ram(_phase(1.0), buffer_bytes=32 * MIB)
    assert r.copy_gbps is not None and r.copy_gbps > 0.5
    assert r.repeats >= 3
    assert "RAM copy" in r.notes[0]


# -- CPU ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_image_decoding_one_core_and_all_cores():
    method = "pillow-jpeg" if cpu.pillow_available() else "zlib"
    samples = cpu.make_jpegs(2) if method == "pillow-jpeg" else cpu.make_zlib_images(2)
    one = cpu.measure_images(_phase(1.0), 1, samples, method)
    alln = cpu.measure_images(_phase(1.0), cpu.usable_cpus(), samples, method)
    assert one.method == method and one.threads == 1
    assert one.images_per_s is not None and one.images_per_s > 5  # even a netbook decodes 5 images/s
    assert alln.images_per_s is not None and alln.images_per_s > 5
    assert alln.threads == cpu.usable_cpus()


@pytest.mark.slow
def test_zlib_fallback_decodes_whole_images_and_says_so():
    samples = cpu.make_zlib_images(2)
    assert cpu.decode_zlib(samples[0]) == cpu.IMAGE_W * cpu.IMAGE_H * 3
    assert len(samples[0]) < cpu.IMAGE_W * cpu.IMAGE_H * 3 * 0.8  # compresses like a PNG photo, not noise
    note = cpu.image_note("zlib", 100.0, 4)
    assert "Pillow is not installed" in note and "pip install pillow" in note


@pytest.mark.slow
@pytest.mark.skipif(not cpu.pillow_available(), reason="Pillow not installed")
def test_jpeg_path_decodes_and_resizes_to_224():
    jpegs = cpu.make_jpegs(1)
    assert jpegs[0][:2] == b"\xff\xd8"  # a real JPEG
    assert 30_000 < len(jpegs[0]) < 300_000  # photo-like size for 500x375
    assert cpu.decode_jpeg(jpegs[0]) == 224


@pytest.mark.slow
def test_text_tokenizing_throughput_and_vocabulary():
    text, vocab = cpu.make_text(20_000)
    ids = cpu.tokenize(text, vocab)
    assert len(ids) > 2000
    assert max(ids) < len(vocab)  # every generated word is in the vocabulary
    assert cpu.tokenize("zzzzqqq !", {"!": 0}) == [1, 0]  # unknown word -> the unknown id
    r = cpu.measure_text(_phase(0.5))
    assert r.mb_per_s is not None and r.mb_per_s > 0.5


# -- disk --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_disk_read_speed_and_no_file_left(tmp_path: Path):
    r = disk.measure_disk(_phase(2.0), tmp_path, file_bytes=32 * MIB)
    assert r.seq_read_mb_per_s is not None and r.seq_read_mb_per_s > 1
    assert r.rand_read_mb_per_s is not None and r.rand_read_mb_per_s > 0.1
    assert r.rand_4k_qd1_mb_per_s is not None and r.rand_4k_qd1_mb_per_s > 0.1
    assert (r.rand_block_bytes, r.rand_threads) == (128 * 1024, 8)
    # 8 readers of 128 KiB pieces always move more data than one reader of 4 KiB pieces.
    assert r.rand_read_mb_per_s > r.rand_4k_qd1_mb_per_s
    assert r.seq_write_mb_per_s is not None and r.seq_write_mb_per_s > 1
    assert r.file_bytes >= disk.MIN_FILE_BYTES
    if sys.platform.startswith("linux"):
        assert r.cache_mode in ("direct", "dropped")  # Linux always gets past the file cache
    assert _leftovers(tmp_path) == []
    assert str(tmp_path) in r.notes[0]


def test_disk_missing_folder_is_a_note_not_a_crash(tmp_path: Path):
    r = disk.measure_disk(_phase(1.0), tmp_path / "nope")
    assert r.seq_read_mb_per_s is None and r.rand_read_mb_per_s is None
    assert "does not exist" in r.notes[0]
    f = tmp_path / "a-file"
    f.write_text("x")
    r = disk.measure_disk(_phase(1.0), f)
    assert r.seq_read_mb_per_s is None and "not a folder" in r.notes[0]


def test_disk_io_error_cleans_up_and_reports(tmp_path: Path, monkeypatch):
    def broken(*a, **k):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(disk, "_random", broken)
    r = disk.measure_disk(_phase(2.0), tmp_path, file_bytes=16 * MIB)
    assert r.seq_read_mb_per_s is None
    assert any("Input/output error" in n for n in r.notes)
    assert _leftovers(tmp_path) == []


@pytest.mark.slow
def test_disk_cancel_during_write_removes_the_file(tmp_path: Path):
    cancel = threading.Event()
    seen = []

    def progress(step: str, frac: float) -> None:
        seen.append(step)
        if "writing" in step:
            cancel.set()

    p = Phase("disk", time.monotonic() + 5, cancel, progress)
    with pytest.raises(Cancelled):
        disk.measure_disk(p, tmp_path, file_bytes=64 * MIB)
    assert any("writing" in s for s in seen)
    assert _leftovers(tmp_path) == []


# -- the whole deep scan -----------------------------------------------------------------------


@pytest.mark.slow
def test_run_deep_measures_host_within_the_cap(tmp_path: Path):
    fractions: list[float] = []
    m = run_deep(NO_GPU, disk_path=tmp_path, on_progress=lambda s, f: fractions.append(f), budget_s=4.0,
                 disk_file_bytes=16 * MIB, ram_buffer_bytes=32 * MIB, clock=FakeClock(0.002))
    assert m.duration_s is not None and m.duration_s <= 4.0 + SLACK_S
    assert m.ram_copy_gbps and m.ram_copy_gbps > 0.5
    if cpu.usable_cpus() > 1:  # every thread copying at once: the memory's rate, at least what one thread got
        assert m.ram_threads == cpu.usable_cpus() and m.ram_copy_all_gbps and m.ram_copy_all_gbps > 0.5
    assert m.cpu_images_per_s_one_core and m.cpu_images_per_s_all_cores
    assert m.cpu_images_method in ("pillow-jpeg", "zlib") and m.cpu_threads == cpu.usable_cpus()
    assert m.cpu_text_mb_per_s and m.cpu_text_mb_per_s > 0.5
    assert m.disk_seq_read_mb_per_s and m.disk_seq_read_mb_per_s > 1
    assert m.disk_path == str(tmp_path) and m.disk_mount
    assert m.gpu_tflops_fp32 is None and not m.cancelled  # no GPU on this machine record
    assert fractions and fractions[-1] == 1.0
    assert all(a <= b + 1e-9 for a, b in zip(fractions, fractions[1:], strict=False))  # the bar never goes back
    assert _leftovers(tmp_path) == []
    # The figures travel with the Machine through JSON.
    again = Machine.from_dict(Machine(measured=m).to_dict())
    assert again.measured == m


@pytest.mark.slow
@pytest.mark.parametrize("stop_at", ["image decoding", "disk (writing", "disk (random", "disk (parallel"])
def test_cancel_stops_promptly_and_cleans_up(tmp_path: Path, stop_at: str):
    cancel = threading.Event()
    hit = threading.Event()
    out: dict[str, Measured] = {}

    def progress(step: str, frac: float) -> None:
        if stop_at in step:
            hit.set()

    th = threading.Thread(target=lambda: out.setdefault("m", run_deep(
        NO_GPU, disk_path=tmp_path, on_progress=progress, cancel=cancel, budget_s=8.0,
        disk_file_bytes=32 * MIB, ram_buffer_bytes=32 * MIB)))
    th.start()
    assert hit.wait(25), f"never reached {stop_at}"
    cancel.set()
    th.join(5)  # a guard against a hang, not a measurement: the cancel is seen between steps
    assert not th.is_alive()
    m = out["m"]
    assert m.cancelled and any("cancelled" in n for n in m.notes)
    assert m.ram_copy_gbps  # measured before the cancel
    assert m.disk_rand_read_mb_per_s is None  # not reached
    assert _leftovers(tmp_path) == []
    assert not [t.name for t in threading.enumerate() if t.name.startswith("gpucheck-")]  # workers joined


def test_cancel_before_start_returns_at_once(tmp_path: Path):
    cancel = threading.Event()
    cancel.set()
    m = run_deep(NO_GPU, disk_path=tmp_path, cancel=cancel, budget_s=10, clock=FakeClock())
    assert m.duration_s is not None and m.duration_s < 0.5  # fake seconds: no benchmark step ran
    assert m.cancelled and m.ram_copy_gbps is None
    assert _leftovers(tmp_path) == []


def test_the_ram_copy_outgrows_a_large_l3_cache(monkeypatch, tmp_path: Path):
    """On a CPU whose scan read a large L3 (a server Xeon's 300 MiB, a cache-stacked EPYC's 1.1 GiB) the deep scan
    copies at least twice the cache, so the copy measures the memory, not the cache: 128 MiB stayed largely in a
    300 MiB L3 (one thread: 8.3 GB/s against 7.1 with 1 GiB on that Xeon). A desktop's cache keeps the 128 MiB."""
    import dataclasses

    from gpucheck.machine import Cpu

    seen = []

    def fake(phase, buffer_bytes=ram.DEFAULT_BUFFER_BYTES, **_kw):
        seen.append(buffer_bytes)
        raise MemoryError  # stops the deep scan here: only the buffer asked for is looked at

    monkeypatch.setattr(ram, "measure_ram", fake)
    xeon = dataclasses.replace(NO_GPU, cpu=Cpu(brand="Intel(R) Xeon(R) Processor", l3_cache_bytes=300 * MIB))
    desktop = dataclasses.replace(NO_GPU, cpu=Cpu(brand="AMD Ryzen 7 7700X", l3_cache_bytes=32 * MIB))
    for machine in (xeon, desktop):
        run_deep(machine, disk_path=tmp_path, budget_s=2.0, clock=FakeClock())
    assert seen == [600 * MIB, 128 * MIB]


@pytest.mark.slow
def test_unwritable_disk_choice_still_measures_the_rest(tmp_path: Path):
    m = run_deep(NO_GPU, disk_path=tmp_path / "missing", budget_s=3.0, ram_buffer_bytes=32 * MIB)
    assert m.disk_seq_read_mb_per_s is None
    assert any("does not exist" in n for n in m.notes)
    assert m.ram_copy_gbps and m.cpu_text_mb_per_s


# -- what to install for the GPU part ----------------------------------------------------------

# Recorded: tests' GPU facts from nvidia-smi -q -x of an RTX 3080 (driver 595.58.03, see
# /work/shared/recorded/SOURCES.md, influxdata/telegraf testdata rtx-3080-v13.xml) and the
# GTX 1650 Max-Q laptop (driver 515.76, glpi-agent linux-asus-portable).
RTX3080 = Gpu(name="NVIDIA GeForce RTX 3080", vendor="nvidia", backend="cuda", compute_capability="8.6",
              driver_version="595.58.03", vram_total_bytes=10240 * MIB)
GTX1650 = Gpu(name="NVIDIA GeForce GTX 1650 with Max-Q Design", vendor="nvidia", backend="cuda",
              compute_capability="7.5", driver_version="515.76", vram_total_bytes=4096 * MIB)


@pytest.mark.skipif(sys.platform == "win32", reason="driver thresholds differ on Windows")
def test_install_hint_names_the_cuda_build_this_driver_runs():
    hint = torch_install_hint(Machine(gpus=(RTX3080,)))
    assert "pip install" in hint and "torch" in hint
    assert "--index-url https://download.pytorch.org/whl/cu130" in hint  # driver 595 runs the newest build
    old = torch_install_hint(Machine(gpus=(GTX1650,)))  # 515.76 is older than any current build needs
    assert "Update the NVIDIA driver" in old and "download.pytorch.org/whl/cu12" in old


def test_install_hint_for_apple_and_amd():
    apple = Gpu(name="Apple M1", vendor="apple", backend="metal")
    assert "pip install torch" in torch_install_hint(Machine(gpus=(apple,)))
    amd = Gpu(name="AMD Radeon RX 7900 XTX", vendor="amd", backend="rocm")
    hint = torch_install_hint(Machine(gpus=(amd,)))
    if sys.platform == "linux":
        assert "whl/rocm" in hint
    else:
        assert "Linux only" in hint


def test_frozen_app_says_to_use_a_python_environment(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert "gpucheck scan --deep" in torch_install_hint(Machine(gpus=(RTX3080,)))


@pytest.mark.slow
@pytest.mark.skipif(torch_available(), reason="torch is installed here")
def test_gpu_without_torch_says_what_to_install(tmp_path: Path):
    m = run_deep(Machine(gpus=(RTX3080,)), disk_path=tmp_path, budget_s=2.0, ram_buffer_bytes=32 * MIB,
                 disk_file_bytes=8 * MIB, install_hint=torch_install_hint)
    assert m.gpu_tflops_fp32 is None and m.gpu_mem_bandwidth_gbps is None
    assert any("pip install" in n and "--index-url" in n for n in m.notes)


# -- the torch path, on the CPU device (a real GPU is measured by benchmarks/deep_scan.py) --------

needs_torch = pytest.mark.skipif(not torch_available(), reason="PyTorch not installed")


@pytest.mark.slow
@needs_torch
def test_torch_matmul_and_bandwidth_on_cpu_device():
    import gpucheck.bench.gpu as gpu

    res = gpu.measure_gpu(_phase(15.0), device="cpu", dtypes=("fp32", "bf16"), max_n=512,
                          bandwidth_bytes=16 * MIB)
    assert res is not None and res.backend == "cpu"
    assert res.tflops["fp32"] is not None and res.tflops["fp32"] > 0.001  # > 1 GFLOPS
    assert res.matmul_n["fp32"] <= 512
    assert res.mem_bandwidth_gbps is not None and res.mem_bandwidth_gbps > 0.5
    assert res.h2d_pinned_gbps is None  # no host<->device copy on the CPU


@pytest.mark.slow
@needs_torch
def test_run_deep_torch_path_within_cap(tmp_path: Path):
    m = run_deep(NO_GPU, disk_path=tmp_path, gpu_device="cpu", budget_s=6.0, disk_file_bytes=16 * MIB,
                 ram_buffer_bytes=32 * MIB, clock=FakeClock(0.002))
    assert m.duration_s is not None and m.duration_s < 6.0 + SLACK_S
    assert m.gpu_backend == "cpu" and m.torch_version
    assert m.gpu_tflops_fp32 and m.gpu_mem_bandwidth_gbps
    assert any("measured on the CPU" in n for n in m.notes)
    assert _leftovers(tmp_path) == []


@pytest.mark.slow
@needs_torch
def test_cancel_while_torch_loads_or_runs(tmp_path: Path):
    cancel = threading.Event()
    hit = threading.Event()
    out: dict[str, Measured] = {}

    def progress(step: str, frac: float) -> None:
        if "PyTorch" in step or "GPU" in step:
            hit.set()

    th = threading.Thread(target=lambda: out.setdefault("m", run_deep(
        NO_GPU, disk_path=tmp_path, on_progress=progress, cancel=cancel, gpu_device="cpu", budget_s=30.0,
        disk_file_bytes=8 * MIB, ram_buffer_bytes=32 * MIB)))
    th.start()
    assert hit.wait(30)
    cancel.set()
    th.join(5)  # a guard against a hang, not a measurement
    assert not th.is_alive() and out["m"].cancelled


# -- NVIDIA temperature and throttle, read through the probe's NVML wrapper on recorded output ------


def _replay():
    from tests.conftest import FIXTURES

    if str(FIXTURES) not in sys.path:
        sys.path.insert(0, str(FIXTURES))
    import replay

    return replay


def test_gpu_temperature_from_recorded_nvml():
    import gpucheck.bench.gpu as gpu

    replay = _replay()
    # RTX 3080 recording: <gpu_temp>27 C</gpu_temp>, every clock-event reason "Not Active".
    nv = replay.nvml_from_xml(replay.RECORDED / "nvidia/rtx3080-linux-drv595.nvidia-smi-q-x.xml")
    assert gpu.nvidia_thermal("GPU-00000000-0000-0000-0000-000000000000", 0, nv) == (27.0, (), None)
    # RTX A6000 on Windows: 55 C while "Idle : Active" — idling is not a slow-down worth reporting.
    nv = replay.nvml_from_text(replay.RECORDED / "nvidia/rtx-a6000-windows-drv537.nvidia-smi-q.txt")
    temp, reasons, why = gpu.nvidia_thermal(None, 0, nv)
    assert temp == 55.0 and "gpu_idle" not in reasons and why is None


def test_gpu_temperature_without_driver_is_unknown_with_reason():
    import gpucheck.bench.gpu as gpu

    temp, reasons, why = gpu.nvidia_thermal(None, 0, _replay().no_nvml())
    assert temp is None and reasons == () and why
