"""`gpucheck scan` and the scan the other commands and the app start from.

A scan is what a user waits for most often, so this module loads only what a scan needs: the probes,
the Machine and its text, and the reports' privacy policy. The deep scan's benchmarks and the advice
layer's PyTorch install hint load only when `--deep` is asked for (gpucheck/lazy.py); the estimator,
the advice and the report writers are never loaded by `gpucheck scan`
(benchmarks/bench_scan.py measures it).
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpucheck import probe
from gpucheck.fileio import write_text_atomic
from gpucheck.i18n import tr
from gpucheck.lazy import lazy_import
from gpucheck.machine import Machine
from gpucheck.machine_text import format_machine
from gpucheck.report.privacy import redact_machine

bench = lazy_import("gpucheck.bench")  # --deep only
software = lazy_import("gpucheck.advise.software")  # --deep only: the PyTorch install hint of a benchmark


def scan_machine(on_progress: Callable[[str, int, int], Any] | None = None, deep: bool = False,
                 deep_disk: str | None = None, *, on_partial: Callable[[Machine], Any] | None = None,
                 cancel: threading.Event | None = None) -> Machine:
    """Scan this PC; with `deep`, then measure it (`bench.measure(scan())`, with the advice layer's
    PyTorch install hint). The app's scan page and `gpucheck scan` both use it."""
    machine = probe.scan(on_progress=on_progress, on_partial=on_partial)
    if deep:
        machine = bench.measure(machine, on_progress=on_progress, disk_path=deep_disk, cancel=cancel,
                                install_hint=software.torch_install_hint)
    return machine


def load_target_machine(machine_file: str | None) -> Machine:
    """The Machine saved in `machine_file` (--machine), or a fresh scan of this PC."""
    if machine_file:
        return Machine.load(machine_file)
    return probe.scan()


def run_scan(args: argparse.Namespace) -> int:
    """`gpucheck scan [--json] [-o FILE] [--deep [--deep-disk PATH]] [--show-ids]`."""
    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(area: str, done: int, total: int) -> None:
            sys.stderr.write(f"\r{tr('Scanning')} {done}/{total} {area:<50}")
            sys.stderr.flush()

    machine = scan_machine(on_progress=progress, deep=args.deep, deep_disk=args.deep_disk)
    if progress is not None:
        sys.stderr.write("\r" + " " * 80 + "\r")
    shown = machine if args.show_ids else redact_machine(machine)  # the reports' one policy
    if args.output:
        write_text_atomic(Path(args.output), shown.to_json() + "\n")
    if args.json:
        sys.stdout.write(shown.to_json() + "\n")
    else:
        sys.stdout.write(format_machine(shown) + "\n")
        if args.output:
            sys.stdout.write(tr("Saved the scan to {path}", path=args.output) + "\n")
    return 0
