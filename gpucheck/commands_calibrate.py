"""`gpucheck calibrate [--python PATH] [--max-seconds S] [--device D] [--json]`: real steps of a conv net, two
transformer layers and a U-Net block in this PC's PyTorch; what they measure is saved for this PC and every
later estimate on it uses it (gpucheck/trial/calibrate.py, gpucheck/estimate/calibration.py).

Exit codes: 0 measured and saved, 2 bad input, 3 cannot run here (one line on stderr saying why).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.estimate.calibration import calibrated_text
from gpucheck.i18n import N_, tr
from gpucheck.machine import Machine
from gpucheck.probe import scan
from gpucheck.trial import phase_text, pip_command
from gpucheck.trial.calibrate import (
    BUSY_SHARE,
    DEFAULT_MAX_SECONDS,
    MAX_SECONDS,
    CalibrationRun,
    run_calibration,
)

PROBE_LABELS = {"conv": N_("convolutional network"), "transformer": N_("transformer layers"),
                "unet": N_("U-Net block")}
FAMILY_LABELS = {"cnn": N_("convolutional networks"), "transformer": N_("transformers"),
                 "unet": N_("U-Nets (diffusion)"), "mlp": N_("MLPs")}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--python", metavar="PATH", help=tr("the Python (with PyTorch) to run it in (default: found)"))
    p.add_argument("--max-seconds", type=float, metavar="S", default=DEFAULT_MAX_SECONDS,
                   help=tr("time for the timed steps of all three parts together, at most 90 (default: 45)"))
    p.add_argument("--device", choices=["auto", "cuda", "mps", "cpu"], default="auto",
                   help=tr("where to run it (default: the GPU PyTorch can use, else the CPU)"))
    p.add_argument("--machine", metavar="FILE", help=tr("a saved scan of this PC (default: scan it now)"))


def _progress(ev: dict[str, Any]) -> None:
    what = tr(PROBE_LABELS.get(str(ev.get("probe")), str(ev.get("probe"))))
    if ev.get("phase") == "timing":
        text = tr("step {n} ({s} s of {max} s)", n=ev.get("step"), s=ev.get("elapsed_s"), max=ev.get("max_seconds"))
    else:
        text = phase_text(ev.get("phase"))
    sys.stderr.write(f"\r{tr('Calibrating')}: {what}: {text:<50}")
    sys.stderr.flush()


def _num(x: float | None, digits: int = 3) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def format_run(r: CalibrationRun) -> str:
    lines = [calibrated_text(r.calibration.to_json()) if r.calibration is not None else r.message]
    if r.python:
        lines.append(tr("Python: {path}", path=r.python))
    for p in r.probes:
        what = tr(PROBE_LABELS.get(p.probe, p.probe))
        if p.outcome == "ran":
            lines.append(tr("{what} on {device}: {measured} s per step measured, {estimated} s estimated "
                            "(×{ratio})", what=what, device=p.device or "?", measured=_num(p.measured_step_seconds, 4),
                            estimated=_num(p.estimated_step_seconds, 4), ratio=_num(p.ratio, 2)))
        else:
            lines.append(tr("{what}: not measured ({why})", what=what, why=p.message or p.outcome))
    cal = r.calibration
    if cal is not None:
        lines.append(tr("From now on, estimates on this PC ({device}) use these measured speeds:", device=cal.device))
        for fam, factor in cal.work_factors.items():
            lines.append("  " + tr("{family}: steps take ×{factor} the model's time",
                                   family=tr(FAMILY_LABELS[fam]), factor=f"{factor:.2f}"))
        if cal.two_rates:
            lines.append("  " + tr("other kinds of jobs, from how much of their step is each:"))
            lines.append("    " + tr("matrix math (convolutions, matrix multiplies): ×{factor} the model's time",
                                     factor=f"{cal.matrix_factor:.2f}"))
            lines.append("    " + tr("memory-bound work (element-wise, normalization, optimizer): ×{factor} the "
                                     "model's time", factor=f"{cal.memory_factor:.2f}"))
        elif cal.work_factors:
            lines.append("  " + tr("other jobs: ×{factor} (the kinds measured, together)",
                                   factor=f"{cal.other_work_factor:.2f}"))
        else:
            lines.append("  " + tr("the {device}'s own speed: not measured (the processor set every step: small steps "
                                   "on a fast GPU); the device's work keeps the model's time", device=cal.device))
        lines.append("  " + tr("the processor's part of each step (launching the work): ×{factor} the model's time",
                               factor=f"{cal.host_factor:.2f}"))
    busy = [p.cpu_share for p in r.probes if p.outcome == "ran" and p.cpu_share is not None and p.cpu_share < BUSY_SHARE]
    if busy and r.calibration is not None:
        lines.append(tr("This PC was busy while it was measured (the steps had about {n} % of the processor): the "
                        "parts ran on one core and the calibration uses the processor time their steps took, not the "
                        "clock time; for the best figures close other programs and run gpucheck calibrate again",
                        n=f"{min(busy) * 100:.0f}"))
    if r.saved_to:
        lines.append(tr("Saved to {path}", path=r.saved_to))
    if r.save_error:
        lines.append(r.save_error)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.max_seconds <= MAX_SECONDS:
        raise BadInput(tr("--max-seconds must be above 0 and at most {n}", n=f"{MAX_SECONDS:.0f}"))
    machine = Machine.load(args.machine) if getattr(args, "machine", None) else scan()
    show = not args.json and sys.stderr.isatty()
    result = run_calibration(machine, python=args.python, max_seconds=args.max_seconds, device=args.device,
                             on_event=_progress if show else None)
    if show:
        sys.stderr.write("\r" + " " * 78 + "\r")
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    elif result.outcome == "ran":
        sys.stdout.write(format_run(result) + "\n")
    if result.exit_code != 0:
        sys.stderr.write(f"gpucheck: {_why(result, machine)}\n")
    return result.exit_code


def _why(r: CalibrationRun, machine: Any) -> str:
    """One line: what is missing, with the exact pip command that adds it (as `gpucheck trial` says it)."""
    missing = next((p.missing for p in r.probes if p.outcome == "missing_library" and p.missing), None)
    if r.outcome == "missing_library" and missing and r.python:
        return tr("{module} is not installed in {python}; add it with: {cmd}", module=missing, python=r.python,
                  cmd=pip_command(missing, machine))
    return r.message
