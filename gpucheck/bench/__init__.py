"""Deep scan: short, bounded micro-benchmarks that replace catalog peaks with measured figures.

    measure(machine, on_progress=None, disk_path=None, cancel=None, install_hint=None) -> Machine
    run_deep(machine, disk_path=None, on_progress=None, cancel=None, budget_s=30.0) -> Measured

Callers write `bench.measure(probe.scan())`: the scan never runs benchmarks itself.

Runs RAM copy, CPU image decode (one core, all cores), tokenizer-like text, disk read on the chosen
folder, then — when PyTorch with CUDA, ROCm or MPS is importable — GPU matmul TFLOPS, memory
bandwidth, host↔device copies and an allocation test (≈20 s of the budget), with NVIDIA temperature
and throttle reasons read before and after. `on_progress(step, fraction)` is called often (fraction
0..1, rising); setting `cancel` (a threading.Event) stops within a fraction of a second, removes the
disk test file and returns what was measured so far with `cancelled=True`. Never raises for a
hardware or permission problem: those become notes. No Qt here.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from gpucheck.bench.common import Cancelled, Phase, ProgressFn, throttled
from gpucheck.i18n import tr, tr_text
from gpucheck.lazy import lazy_import
from gpucheck.machine import Machine, Measured, with_notes
from gpucheck.probe.base import finding

# The benchmarks load when a deep scan runs: a plain scan shows measured figures (bench.present) without them.
cpu = lazy_import("gpucheck.bench.cpu")
disk = lazy_import("gpucheck.bench.disk")
gpu = lazy_import("gpucheck.bench.gpu")
ram = lazy_import("gpucheck.bench.ram")

# What to tell the user when PyTorch is missing; the advice layer knows the build that fits
# (gpucheck.advise.software.torch_install_hint) and the caller passes it in.
InstallHint = Callable[[Machine | None], str]

DEFAULT_BUDGET_S = 30.0
GPU_BUDGET_S = 20.0  # the GPU part's cap within the budget
HOST_BUDGET_S = 10.0  # CPU + RAM + disk together, at most
# Shares of the host part: RAM, images one core, images all cores, text, disk.
HOST_SHARES = (("ram", 0.10), ("img1", 0.20), ("imgN", 0.20), ("text", 0.10), ("disk", 0.40))

__all__ = ["measure", "run_deep", "torch_available", "default_disk_path", "Cancelled"]


def torch_available() -> bool:
    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):
        return False


def default_disk_path() -> str:
    """Where data sets usually go when the user picks nothing: the home folder."""
    return str(Path.home())


def _mount_of(path: str) -> str | None:
    """The mount point (or Windows drive) holding `path`: the longest matching partition mount."""
    try:
        real = os.path.realpath(path)
        best = None
        for part in psutil.disk_partitions(all=True):
            m = part.mountpoint
            if not m:
                continue
            prefix = m if m.endswith(os.sep) else m + os.sep
            if (real == m or real.startswith(prefix) or
                    (sys.platform == "win32" and real.lower().startswith(m.lower()))):
                if best is None or len(m) > len(best):
                    best = m
        return best
    except Exception:
        return None


def _fs_in_ram(path: str) -> bool:
    """Linux: is this folder on tmpfs/ramfs (so a 'disk' figure would be RAM speed)?"""
    try:
        real = os.path.realpath(path)
        best, fstype = "", ""
        for part in psutil.disk_partitions(all=True):
            m = part.mountpoint
            prefix = m if m.endswith(os.sep) else m + os.sep
            if (real == m or real.startswith(prefix)) and len(m) > len(best):
                best, fstype = m, part.fstype
        return fstype in ("tmpfs", "ramfs")
    except Exception:
        return False


def _no_torch(machine: Machine | None) -> str:
    return tr_text("PyTorch is not installed, so the GPU was not measured.")


def _wants_gpu(machine: Machine | None) -> bool:
    if machine is None:
        return True
    return bool(machine.compute_gpus())


class _Run:
    """Mutable collector while benchmarks run; frozen into a Measured at the end."""

    def __init__(self) -> None:
        self.fields: dict[str, object] = {}
        self.notes: list[str] = []


def run_deep(
    machine: Machine | None = None,
    disk_path: str | os.PathLike[str] | None = None,
    on_progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
    *,
    gpu_device: str | None = None,
    disk_file_bytes: int | None = None,
    ram_buffer_bytes: int | None = None,
    install_hint: InstallHint | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Measured:
    """Run the deep-scan benchmarks within `budget_s` seconds; see the module docstring.

    gpu_device: a torch device string to force ("cuda:1", "mps", or "cpu" to exercise the torch path on
    a machine without a GPU); default: the first GPU torch sees.
    install_hint: what to say when PyTorch is missing (default: that it is missing, without a command).
    clock: the time budget's clock in seconds (tests pass a fake one; the figures are timed for real).
    """
    t_start = clock()
    on_progress = throttled(on_progress)
    run = _Run()
    budget_s = max(float(budget_s), 1.0)
    folder = str(Path(disk_path).expanduser()) if disk_path else default_disk_path()
    try_gpu = gpu_device is not None or _wants_gpu(machine)
    have_torch = torch_available()
    gpu_s = min(GPU_BUDGET_S, budget_s * 2 / 3) if (try_gpu and have_torch) else 0.0
    host_s = min(HOST_BUDGET_S, budget_s - gpu_s)
    total_planned = host_s + gpu_s
    threads = cpu.usable_cpus()

    def phase(name: str, seconds: float, frac0: float) -> Phase:
        hard_end = t_start + budget_s
        return Phase(name, min(clock() + seconds, hard_end), cancel, on_progress,
                     frac0, min(frac0 + seconds / total_planned, 1.0), clock=clock)

    def report(step: str, frac: float) -> None:
        if on_progress is not None:
            try:
                on_progress(step, frac)
            except Exception:
                pass

    frac = 0.0
    try:
        report(tr("Measuring RAM speed"), 0.0)
        ram_buffer_bytes = ram_buffer_bytes or ram.buffer_beyond_caches(
            getattr(getattr(machine, "cpu", None), "l3_cache_bytes", None))
        frac = _host_part(run, phase, host_s, folder, threads, ram_buffer_bytes, disk_file_bytes)
        if try_gpu and not have_torch:
            run.notes.append((install_hint or _no_torch)(machine))
        elif try_gpu:
            p = phase(tr("Measuring the GPU"), gpu_s, frac)
            p.report(tr("Loading PyTorch"))
            _gpu_part(run, p, gpu_device, machine, install_hint or _no_torch)
            frac = p.end_fraction
    except Cancelled:
        run.fields["cancelled"] = True
        run.notes.append(tr_text("Deep scan cancelled; figures not measured are left empty."))
    except MemoryError:
        run.notes.append(tr_text("Deep scan stopped: not enough free memory for the benchmarks."))
    duration = clock() - t_start
    report(tr("Deep scan finished"), 1.0)
    measured = Measured(duration_s=round(duration, 2), budget_s=budget_s,
                        **run.fields)  # type: ignore[arg-type]
    return with_notes(measured, run.notes)  # each note also kept to show in the reader's language


def _host_part(run: _Run, phase: Callable[[str, float, float], Phase], host_s: float, folder: str, threads: int,
               ram_buffer_bytes: int | None, disk_file_bytes: int | None) -> float:
    """RAM, image decoding (one core, all cores), text and disk, each in its share of `host_s`; the
    progress fraction reached."""
    frac = 0.0
    shares = dict(HOST_SHARES)
    image_method = "pillow-jpeg" if cpu.pillow_available() else "zlib"
    p = phase(tr("Measuring RAM speed"), host_s * shares["ram"], frac)
    r = ram.measure_ram(p, threads=threads, **({"buffer_bytes": ram_buffer_bytes} if ram_buffer_bytes else {}))
    run.fields["ram_copy_gbps"] = r.copy_gbps
    run.fields["ram_copy_all_gbps"] = r.copy_all_gbps
    run.fields["ram_threads"] = r.threads if r.copy_all_gbps else None
    run.notes.extend(r.notes)
    frac = p.end_fraction

    p = phase(tr("Measuring image decoding (one core)"), host_s * shares["img1"], frac)
    p.report()
    samples = (cpu.make_jpegs if image_method == "pillow-jpeg" else cpu.make_zlib_images)(check=p.check)
    one = cpu.measure_images(p, 1, samples, image_method)
    run.fields["cpu_images_per_s_one_core"] = one.images_per_s
    run.fields["cpu_images_method"] = image_method
    frac = p.end_fraction

    p = phase(tr("Measuring image decoding (all cores)"), host_s * shares["imgN"], frac)
    p.report()
    alln = cpu.measure_images(p, threads, samples, image_method)
    run.fields["cpu_images_per_s_all_cores"] = alln.images_per_s
    run.fields["cpu_threads"] = threads
    run.notes.append(cpu.image_note(image_method, one.images_per_s, threads))
    frac = p.end_fraction

    p = phase(tr("Measuring text processing"), host_s * shares["text"], frac)
    p.report()
    run.fields["cpu_text_mb_per_s"] = cpu.measure_text(p).mb_per_s
    frac = p.end_fraction

    p = phase(tr("Measuring disk speed"), host_s * shares["disk"], frac)
    p.report()
    d = disk.measure_disk(p, folder, **({"file_bytes": disk_file_bytes} if disk_file_bytes else {}))
    run.fields.update(disk_path=d.path, disk_seq_read_mb_per_s=d.seq_read_mb_per_s,
                      disk_rand_read_mb_per_s=d.rand_read_mb_per_s,
                      disk_seq_write_mb_per_s=d.seq_write_mb_per_s, disk_cache_mode=d.cache_mode,
                      disk_rand_block_bytes=d.rand_block_bytes if d.cache_mode else None,
                      disk_rand_threads=d.rand_threads if d.cache_mode else None,
                      disk_rand_4k_qd1_mb_per_s=d.rand_4k_qd1_mb_per_s,
                      disk_mount=_mount_of(d.path))
    run.notes.extend(d.notes)
    if d.cache_mode and _fs_in_ram(d.path):
        run.notes.append(tr_text("The folder {path} is kept in RAM (tmpfs), so the disk figures are RAM speed.",
                            path=d.path))
    return p.end_fraction


def _gpu_part(run: _Run, p: Phase, gpu_device: str | None, machine: Machine | None,
              install_hint: InstallHint) -> None:
    loaded = _load_torch(p, gpu_device)  # seconds: counted in the GPU budget, cancellable
    if isinstance(loaded, BaseException):  # a broken install must not break the scan
        e = loaded
        run.notes.append(tr_text("PyTorch is installed but failed to load ({err}); the GPU was not measured.",
                            err=str(e).splitlines()[0] if str(e) else type(e).__name__))
        return
    torch, picked = loaded
    if picked is None:
        run.fields["torch_version"] = str(torch.__version__)
        run.notes.append(tr_text("PyTorch {version} is installed but cannot use the GPU (a CPU-only build, or the "
                            "driver is missing). {hint}", version=str(torch.__version__),
                            hint=install_hint(machine).split(". ", 1)[-1]))
        return
    dev, backend = picked
    uuid = None
    index = dev.index or 0
    if backend == "cuda":
        try:
            uuid = str(torch.cuda.get_device_properties(dev).uuid)
        except Exception:
            uuid = None
        t_before, _r, why = gpu.nvidia_thermal(uuid, index)
        run.fields["gpu_temperature_before_c"] = t_before
        if t_before is None and why:
            run.notes.append(tr_text("GPU temperature could not be read ({why}).", why=why))
    try:
        res = gpu.measure_gpu(p, gpu_device)
    except Cancelled:
        raise
    except Exception as e:  # a driver or library fault: keep the host figures
        run.notes.append(tr_text("The GPU benchmark failed: {err}", err=str(e).splitlines()[0] if str(e) else type(e).__name__))
        return
    finally:
        if backend == "cuda":
            t_after, reasons, _why = gpu.nvidia_thermal(uuid, index)
            run.fields["gpu_temperature_after_c"] = t_after
            run.fields["gpu_throttle_after"] = reasons
    if res is None:
        return
    name = res.device_name
    if res.backend == "mps" and machine is not None:  # torch has no name for it: the scan's ("Apple M2 Max")
        apple = [g for g in machine.compute_gpus() if g.vendor == "apple"]
        if apple:
            name = apple[0].name
    run.fields.update(
        gpu_name=name, gpu_backend=res.backend, torch_version=res.torch_version,
        gpu_tflops_fp32=res.tflops.get("fp32"), gpu_tflops_tf32=res.tflops.get("tf32"),
        gpu_tflops_fp16=res.tflops.get("fp16"), gpu_tflops_bf16=res.tflops.get("bf16"),
        gpu_mem_bandwidth_gbps=res.mem_bandwidth_gbps, h2d_pinned_gbps=res.h2d_pinned_gbps,
        h2d_pageable_gbps=res.h2d_pageable_gbps, d2h_pinned_gbps=res.d2h_pinned_gbps,
        gpu_allocatable_bytes=res.allocatable_bytes, gpu_free_reported_bytes=res.free_reported_bytes,
    )
    run.notes.extend(res.notes)
    if res.backend == "cpu":
        run.notes.append(tr_text("The 'GPU' figures were measured on the CPU through PyTorch (no GPU used)."))


def _load_torch(p: Phase, gpu_device: str | None):
    """Import torch and start the GPU's context in a helper thread, so that cancel answers at once even
    while those take seconds. Returns (torch, pick_device result) or the exception that failed them."""
    box: dict[str, object] = {}

    def load() -> None:
        try:
            import torch  # optional and slow to import: only when the deep scan measures the GPU

            picked = gpu.pick_device(torch, gpu_device)
            if picked is not None and picked[0].type in ("cuda", "mps"):
                torch.empty(1, device=picked[0])  # creates the CUDA/Metal context
            box["ok"] = (torch, picked)
        except BaseException as e:  # noqa: BLE001 — reported as a note
            box["err"] = e

    t = threading.Thread(target=load, daemon=True, name="gpucheck-torch-load")
    t.start()
    while t.is_alive():
        p.check()
        if p.expired():  # the time cap holds even while PyTorch starts (the thread finishes on its own)
            return TimeoutError(tr("PyTorch did not start the GPU within the deep scan's time cap"))
        t.join(0.05)
    if "err" in box:
        return box["err"]  # type: ignore[return-value]
    return box["ok"]


def measure(machine: Machine, on_progress: Callable[[str, int, int], Any] | None = None,
            disk_path: str | None = None, cancel: threading.Event | None = None,
            install_hint: InstallHint | None = None) -> Machine:
    """`machine` with `measured` filled in by the deep scan (`bench.measure(probe.scan())`).
    `on_progress(step, percent, 100)` reports the benchmark's steps. Never raises: a failing benchmark
    becomes a finding and the scan is kept."""
    deep_progress = None
    if on_progress is not None:
        def deep_progress(step: str, fraction: float) -> None:  # run_deep reports (step, 0..1)
            on_progress(step, int(fraction * 100), 100)
    try:
        measured = run_deep(machine, disk_path=disk_path, on_progress=deep_progress, cancel=cancel,
                            install_hint=install_hint)
    except Exception as e:  # noqa: BLE001 — a failing benchmark must not lose the scan
        return dataclasses.replace(machine, findings=machine.findings + (finding("scan", "unknown",
            "Measured benchmarks unknown because they failed ({error})", "deep.failed",
            error=f"{type(e).__name__}: {e}"),))
    return dataclasses.replace(machine, measured=measured)
