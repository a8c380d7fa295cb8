"""`gpucheck trial WORKLOAD [overrides] [--python PATH] [--steps N] [--max-seconds S] [--json]`.

Exit codes: 0 measured (a measured out-of-memory included), 2 bad input, 3 cannot run here (one line on
stderr saying why), 1 the trial failed.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from typing import Any

from gpucheck.catalog import get_workload
from gpucheck.errors import BadInput
from gpucheck.estimate import apply_overrides
from gpucheck.i18n import N_, fmt_duration, tr
from gpucheck.machine import Machine
from gpucheck.probe import scan
from gpucheck.trial import (
    DEFAULT_MAX_SECONDS,
    TrialResult,
    TrialUnsupported,
    clean_text,
    memory_label,
    phase_text,
    run_trial,
)
from gpucheck.trial.calibrate import busy_note, optimizer_note

OVERRIDE_KEYS = ("method", "precision", "optimizer", "batch", "seq_len", "image_size", "grad_checkpointing",
                 "lora_rank", "lora_targets", "lora_dropout", "samples", "epochs", "tokens", "packing")
# the estimate's settings a trial cannot run, each with the value it runs (None: none) and why: it steps one process of
# eager PyTorch (its synthetic batches are full rows, as packed ones are), with neither another stack's kernels nor
# DeepSpeed's sharding and offload, and times micro-batches, each with its own optimizer step
_PLAIN = N_("{flag}: a trial runs plain PyTorch on one device; give this option to 'gpucheck estimate' instead")
NOT_IN_TRIAL = {
    "stack": ("--stack", "eager", _PLAIN), "zero_stage": ("--zero-stage", 0, _PLAIN),
    "cpu_offload": ("--cpu-offload", False, _PLAIN),
    "avg_seq_len": ("--avg-seq-len", None, N_("{flag}: a trial runs full rows of --seq-len tokens; give this option to "
                                              "'gpucheck estimate' instead")),
    "grad_accum": ("--grad-accum", 1, N_("{flag}: a trial times micro-batches, each with its own optimizer step "
                                         "(accumulation only steps the optimizer less often); give this option to "
                                         "'gpucheck estimate' instead")),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The trial's own options (the caller adds --json/--lang and the estimate's overrides)."""
    p.add_argument("workload", metavar="WORKLOAD", help=tr("built-in id, workload .toml or Hugging Face config.json"))
    p.add_argument("--python", metavar="PATH", help=tr("the Python (with PyTorch) to run it in (default: found)"))
    p.add_argument("--steps", type=int, metavar="N", help=tr("timed steps after the warm-up (default: as many as "
                                                             "fit in --max-seconds)"))
    p.add_argument("--max-seconds", type=float, metavar="S", default=DEFAULT_MAX_SECONDS,
                   help=tr("time for the timed steps (default: 30)"))
    p.add_argument("--device", choices=["auto", "cuda", "mps", "cpu"], default="auto",
                   help=tr("where to run it (default: the GPU PyTorch can use, else the CPU)"))
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan of this PC for the estimate beside it"))
    p.add_argument("--no-search", action="store_true",
                   help=tr("on out-of-memory, do not look for the largest micro-batch that fits"))


def _progress(ev: dict[str, Any]) -> None:
    phase = ev.get("phase")
    if phase == "timing":
        text = tr("step {n} ({s} s of {max} s)", n=ev.get("step"), s=ev.get("elapsed_s"), max=ev.get("max_seconds"))
    elif phase == "searching":
        text = tr("out of memory; trying micro-batch {b}", b=ev.get("batch"))
    else:
        text = phase_text(phase)
    sys.stderr.write(f"\r{tr('Trial')}: {text:<60}")
    sys.stderr.flush()


def _fmt(x: Any, digits: int = 3) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def format_result(r: TrialResult) -> str:
    lines = [f"{r.workload}: {r.message}"]
    if r.python:
        lines.append(tr("Python: {path}", path=r.python))
    m, e = r.measured or {}, r.estimated or {}
    if m:
        lines.append(tr("Device: {device}, micro-batch {batch}, {steps} timed steps after one warm-up",
                        device=m.get("device"), batch=m.get("batch"), steps=m.get("steps")))
        ratio = r.ratios
        mem = memory_label(e)
        keys = [(tr("Step time (s)"), "step_seconds", 4), (tr("Samples per second"), "samples_per_second", 2),
                (mem, "peak_memory_gib", 2)]
        for label, k, d in keys:
            lines.append(tr("{what}: {measured} measured, {estimated} estimated (ratio {ratio})", what=label,
                            measured=_fmt(m.get(k), d), estimated=_fmt(e.get(k), d), ratio=_fmt(ratio.get(k), 2)))
        if m.get("total_hours") is not None:
            lines.append(tr("Whole run at the measured speed: {t}", t=fmt_duration(m["total_hours"])))
        if m.get("note"):
            lines.append(m["note"])
        lines += [text for text in (optimizer_note(m), busy_note(m)) if text]
    if r.install:
        lines.append(tr("Install: {cmd}", cmd=r.install))
    return "\n".join(lines)


def _exit_on_signals() -> None:
    """TERM and HUP (a closed terminal) end the trial like Ctrl+C: its processes are killed and its temporary
    folder removed before gpucheck exits (128 + the signal's number)."""
    def stop(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def run(args: argparse.Namespace) -> int:
    if args.max_seconds is not None and not 0 < args.max_seconds <= 3600:
        raise BadInput(tr("--max-seconds must be between 0 and 3600"))
    if args.steps is not None and not 1 <= args.steps <= 100_000:
        raise BadInput(tr("--steps must be between 1 and 100000"))
    if args.python is not None and not args.python.strip():
        raise BadInput(tr("--python: expected the path of a Python with PyTorch"))
    for key, (flag, runs, why) in NOT_IN_TRIAL.items():
        if getattr(args, key, None) not in (None, runs):
            raise BadInput(tr(why, flag=flag))
    workload = apply_overrides(get_workload(args.workload), **{k: getattr(args, k, None) for k in OVERRIDE_KEYS})
    machine = Machine.load(args.machine) if getattr(args, "machine", None) else scan()
    show = not args.json and sys.stderr.isatty()
    try:
        _exit_on_signals()
        result = run_trial(workload, python=args.python, steps=args.steps, max_seconds=args.max_seconds,
                           machine=machine, device=args.device, search_batch=not args.no_search,
                           on_event=_progress if show else None)
    except TrialUnsupported as e:
        sys.stderr.write(f"gpucheck: {e}\n")
        return 3
    if show:
        sys.stderr.write("\r" + " " * 72 + "\r")
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    elif result.outcome in ("ran", "out_of_memory"):
        sys.stdout.write(format_result(result) + "\n")
    if result.exit_code != 0:
        sys.stderr.write(f"gpucheck: {clean_text(result.message, 1000)}\n")
    return result.exit_code
