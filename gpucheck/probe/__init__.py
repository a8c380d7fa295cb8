"""The hardware scan: `scan() -> Machine`.

Probes (one module per source: nvidia, amd, apple, windows, linux, cpu, memory, storage, power,
software) run at the same time, each in its own daemon thread with its own time limit. A probe that
fails or does not answer in time becomes a Finding ("… unknown because …"); the scan never raises for
a source.

Getting results as they come (the desktop app shows them progressively):
- `scan(on_progress=f)` calls `f(area, done, total)` as each probe finishes; `area` is one of
  gpu | cpu | memory | disk | power | software (several probes report "gpu": nvidia, amd, apple, …);
- `scan(on_partial=g)` calls `g(machine_so_far)` with a Machine assembled from the probes done so far;
- `scan_iter()` is a generator yielding `(probe, done, total, machine_so_far)` for each finished probe
  (`probe` is the probe's own name: nvidia, amd, apple, windows, platform, cpu, memory, disks, power,
  software); the last item's machine is the complete scan.
The measured benchmarks are not part of the scan: callers write `gpucheck.bench.measure(scan())`.

Every source is injected through `Sources` (see probe/base.py): tests pass recorded outputs, and
`assemble(parts)` — pure, in probe/assemble.py — turns the probes' `Part`s into a Machine; the scan
reads the clock and passes the time in.

Privacy: the Machine holds GPU UUIDs and the host name; `report.privacy.redact_machine()` removes them, and
`gpucheck scan` prints the redacted record unless `--show-ids` is given.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

import gpucheck
from gpucheck.lazy import lazy_import
from gpucheck.machine import Machine
from gpucheck.probe import amd, apple, cpu, linux, memory, nvidia, power, software, storage, windows
from gpucheck.probe.assemble import assemble, merge_gpus
from gpucheck.probe.base import Part, Sources, finding

logs = lazy_import("gpucheck.logs")  # only when a probe fails unexpectedly

__all__ = ["scan", "scan_iter", "assemble", "merge_gpus", "Sources", "Part", "probes_for"]

# Seconds each probe may take before it is reported as not answering.
TIMEOUTS = {"nvidia": 12.0, "amd": 10.0, "apple": 15.0, "windows": 8.0, "platform": 5.0, "cpu": 5.0,
            "memory": 3.0, "disks": 10.0, "power": 4.0, "software": 8.0}
AREA_OF = {"nvidia": "gpu", "amd": "gpu", "apple": "gpu", "windows": "gpu", "platform": "gpu", "cpu": "cpu",
           "memory": "memory", "disks": "disk", "power": "power", "software": "software"}


def probes_for(src: Sources) -> list[tuple[str, Callable[[Sources], Part]]]:
    """The probes that apply to this platform, as (name, function)."""
    common: list[tuple[str, Callable[[Sources], Part]]] = [("cpu", cpu.probe), ("memory", memory.probe), ("disks", storage.probe), ("power", power.probe),
              ("software", software.probe)]
    gpu: list[tuple[str, Callable[[Sources], Part]]]
    if src.system == "linux":
        gpu = [("nvidia", nvidia.probe), ("amd", amd.probe), ("platform", linux.probe)]
    elif src.system == "windows":
        gpu = [("nvidia", nvidia.probe), ("windows", windows.probe)]
    elif src.system == "darwin":
        gpu = [("apple", apple.probe)]
    else:
        gpu = []
    return gpu + common


def _run_probe(name: str, fn: Callable[[Sources], Part], src: Sources, out: queue.Queue) -> None:
    try:
        part = fn(src)
    except Exception as e:  # noqa: BLE001 — one probe failing must never stop the others
        try:
            logs.log_exception(e)
        except Exception:  # noqa: BLE001
            pass
        part = Part(area=name, findings=(finding(AREA_OF.get(name, "scan"), "unknown",
            "{area}: unknown because the check failed ({error})", f"scan.{name}.failed", area=name,
            error=f"{type(e).__name__}: {e}"),))
    out.put((name, part))


def scan_iter(sources: Sources | None = None, timeouts: dict[str, float] | None = None
              ) -> Iterator[tuple[str, int, int, Machine]]:
    """Run every probe concurrently; yield (probe name, done, total, machine so far) as each finishes."""
    src = sources or Sources.local()
    limits = {**TIMEOUTS, **(timeouts or {})}
    probes = probes_for(src)
    total = len(probes)
    started = time.monotonic()
    stamp = {"created_at": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
             "app_version": gpucheck.__version__}
    results: queue.Queue = queue.Queue()
    for name, fn in probes:
        threading.Thread(target=_run_probe, args=(name, fn, src, results), name=f"gpucheck-probe-{name}",
                         daemon=True).start()
    parts: list[Part] = []
    pending = {name for name, _ in probes}
    while pending:
        elapsed = time.monotonic() - started
        wait = max(0.01, min(limits.get(n, 10.0) for n in pending) - elapsed)
        try:
            name, part = results.get(timeout=wait)
        except queue.Empty:
            now = time.monotonic() - started
            for n in sorted(pending):
                if now >= limits.get(n, 10.0):
                    pending.discard(n)
                    part = Part(area=n, findings=(finding(AREA_OF.get(n, "scan"), "unknown",
                        "{area}: unknown because the check did not answer within {seconds} s",
                        f"scan.{n}.timeout", area=n, seconds=round(limits.get(n, 10.0))),))
                    parts.append(part)
                    yield n, total - len(pending), total, assemble(parts, src, time.monotonic() - started,
                                                                   frozenset(pending), **stamp)
            continue
        if name not in pending:
            continue
        pending.discard(name)
        parts.append(part)
        yield name, total - len(pending), total, assemble(parts, src, time.monotonic() - started, frozenset(pending),
                                                               **stamp)


def scan(on_progress: Callable[[str, int, int], Any] | None = None, *, sources: Sources | None = None,
         on_partial: Callable[[Machine], Any] | None = None) -> Machine:
    """Scan this computer (or the injected `sources`). Never raises for a missing or failing source."""
    machine = Machine()
    for name, done, total, m in scan_iter(sources):
        machine = m
        if on_progress:
            on_progress(AREA_OF.get(name, name), done, total)
        if on_partial:
            on_partial(m)
    return machine
