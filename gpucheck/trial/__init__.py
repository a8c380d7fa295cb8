"""Trial runs: real training steps of a job in the user's own PyTorch, measured beside the estimate.

    run_trial(workload, python=None, steps=None, max_seconds=30, machine=None, on_event=None, cancel=None)
        -> TrialResult
    TrialResult.to_json() -> dict        the JSON contract of `gpucheck trial --json` (DESIGN.md)
    TrialResult.exit_code                0 measured (an out-of-memory included), 3 cannot run here, 1 failed

The packaged app cannot import PyTorch, so the job runs in a child process of a Python that has it
(gpucheck/trial/child.py), executing gpucheck/trial/runner.py (standalone: it imports nothing from
gpucheck). The model comes from resources/models/ with random weights; data are synthetic; nothing is
downloaded.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpucheck.advise.mirrors import pip_mirror_arg
from gpucheck.advise.software import torch_pip_command
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.core import samples_per_row
from gpucheck.i18n import N_, tr
from gpucheck.records import Workload
from gpucheck.trial.calibrate import as_fed, as_run, record_trial, trial_workload
from gpucheck.trial.child import find_pythons, resolve_python, run_child
from gpucheck.trial.models import TrialUnsupported, job_spec, load_recipes
from gpucheck.trial.text import clean_text, tame

GIB = 1024**3
DEFAULT_MAX_SECONDS = 30.0
SETUP_ALLOWANCE_S = 150.0  # imports, building the model and the warm-up step, on top of --max-seconds
OUTCOMES = ("ran", "out_of_memory", "missing_library", "timed_out", "failed")
# What the runner is doing, by the phase its progress events name.
PHASES = {"starting": N_("starting PyTorch"), "building": N_("building the model"), "warmup": N_("the warm-up step"),
          "timing": N_("the timed steps"), "searching": N_("looking for a micro-batch that fits")}

__all__ = ["TrialResult", "TrialUnsupported", "run_trial", "find_pythons", "pip_command", "hard_cap_seconds", "clean_text",
           "DEFAULT_MAX_SECONDS", "phase_text"]


@dataclass(frozen=True)
class TrialResult:
    workload: str
    outcome: str  # one of OUTCOMES
    message: str  # one line, in the reader's language
    python: str | None = None
    libraries: dict[str, str | None] = field(default_factory=dict)
    measured: dict[str, Any] | None = None  # step_seconds, samples_per_second, peak_memory_gib, device, steps, …
    estimated: dict[str, Any] | None = None  # step_seconds, samples_per_second, peak_memory_gib, …
    install: str | None = None  # the pip command that adds what is missing
    cannot_run: bool = False  # exit 3: this PC / this Python cannot run the trial
    details: dict[str, Any] = field(default_factory=dict)  # largest_batch_that_fits, oom_error, traceback, …

    @property
    def exit_code(self) -> int:
        if self.outcome in ("ran", "out_of_memory"):
            return 0
        return 3 if self.cannot_run or self.outcome in ("missing_library", "timed_out") else 1

    @property
    def ratios(self) -> dict[str, float | None]:
        """measured ÷ estimated for step time, samples/s and peak memory (None where either is unknown)."""
        out: dict[str, float | None] = {}
        for key in ("step_seconds", "samples_per_second", "peak_memory_gib"):
            m = (self.measured or {}).get(key)
            e = (self.estimated or {}).get(key)
            out[key] = round(m / e, 3) if m and e else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrialResult:
        """A result `to_json()` wrote (`gpucheck trial --json`), read back; `ratios` is recomputed.
        ValueError when it is not one (not an object, no workload, an unknown outcome, figures that are not
        objects); every text is cleaned and cut as a child's text is."""
        if not isinstance(data, dict) or not isinstance(data.get("workload"), str) or data.get("outcome") not in OUTCOMES:
            raise ValueError("not a trial result")
        data = tame(data)
        for key in ("measured", "estimated", "libraries", "details"):
            if data.get(key) is not None and not isinstance(data[key], dict):
                raise ValueError(f"'{key}' is not an object")
        text = (lambda v: v if isinstance(v, str) else None)  # noqa: E731
        return cls(workload=data["workload"], outcome=data["outcome"], message=text(data.get("message")) or "",
                   python=text(data.get("python")), libraries=dict(data.get("libraries") or {}),
                   measured=_measured(data.get("measured")), estimated=_measured(data.get("estimated")),
                   install=text(data.get("install")), details=dict(data.get("details") or {}))

    def to_json(self) -> dict[str, Any]:
        return {"workload": self.workload, "outcome": self.outcome, "message": self.message,
                "python": self.python, "libraries": dict(self.libraries), "measured": self.measured,
                "estimated": self.estimated, "ratios": self.ratios if self.measured else None,
                "install": self.install, "details": dict(self.details)}


def phase_text(phase: str | None) -> str:
    return tr(PHASES.get(phase or "starting", PHASES["starting"]))


def hard_cap_seconds(max_seconds: float) -> float:
    return float(max_seconds) + SETUP_ALLOWANCE_S


# -- pip lines -------------------------------------------------------------------------------------


def pip_command(module: str, machine: Any = None) -> str:
    """The exact pip command that adds `module`; for PyTorch and its libraries, the advice's own choice of
    build for this PC's GPU and driver (gpucheck.advise.software.torch_pip_command)."""
    pip = load_recipes()["pip"]
    name = pip.get("names", {}).get(module, module)
    if name in pip.get("torch_family", ()):
        return torch_pip_command(machine)
    return f"pip install {name}{pip_mirror_arg()}"


# -- the estimate beside it ------------------------------------------------------------------------


def _estimated(workload: Workload, machine: Any, device_kind: str) -> dict[str, Any] | None:
    if machine is None:
        return None
    target_machine = machine if device_kind != "cpu" else dataclasses.replace(machine, gpus=())
    target = Target.from_machine(target_machine)
    est = estimate(as_fed(workload), target)  # the rows the runner feeds: full rows of one sequence, one shape
    on_cpu = est.on_cpu
    # on a GPU the trial measures what PyTorch reserved (max_memory_reserved, no CUDA context) over a few steps of
    # one shape: beside it, the estimate's reserved bytes for steps of that shape; the whole need with the context is
    # peak_vram_gib
    need = est.ram_bytes if on_cpu else est.reserved_bytes - est.cached_bytes
    per_row = samples_per_row(workload, workload.train)  # the job's samples in one row, as the measured side counts
    sps = est.samples_per_second * per_row if est.samples_per_second else est.samples_per_second
    hours = _total_hours(workload, sps) if per_row > 1 else est.total_hours
    out: dict[str, Any] = {"step_seconds": est.step_seconds, "samples_per_second": sps,
           "peak_memory_gib": None if need is None else round(need / GIB, 3),
           "memory_kind": "ram" if on_cpu else "vram", "total_hours": hours, "target": est.gpu_name,
           "batch": est.train.batch, "calibrated": est.calibrated is not None}
    if not on_cpu and est.peak_vram_bytes:
        out["peak_vram_gib"] = round(est.peak_vram_bytes / GIB, 3)
    for k in ("step_seconds", "samples_per_second", "total_hours"):
        if out[k] is not None:
            out[k] = round(float(out[k]), 5)
    return out


def _in_job_samples(workload: Workload, measured: dict[str, Any]) -> dict[str, Any]:
    """The runner counts micro-batch rows; where the job packs short samples into full rows each row carries
    several of the job's samples, as the estimate counts them: samples per second and the whole run in those."""
    per_row = samples_per_row(workload, workload.train)
    sps = measured.get("samples_per_second")
    if per_row > 1 and isinstance(sps, (int, float)):
        measured = dict(measured, samples_per_second=round(sps * per_row, 4), samples_per_row=round(per_row, 2))
    return dict(measured, total_hours=_total_hours(workload, measured.get("samples_per_second")))


def memory_label(estimated: dict[str, Any]) -> str:
    """The memory row's label beside a trial's figures: RAM on a CPU, what PyTorch holds on a GPU."""
    return tr("Peak RAM (GiB)") if estimated.get("memory_kind") == "ram" else tr("Peak memory PyTorch holds (GiB)")


def _total_hours(workload: Workload, samples_per_second: float | None) -> float | None:
    if not samples_per_second:
        return None
    return round(workload.data.samples * workload.data.epochs / samples_per_second / 3600.0, 3)


# -- the trial -------------------------------------------------------------------------------------


def _no_python(workload: Workload, machine: Any) -> TrialResult:
    cmd = pip_command("torch", machine)
    return TrialResult(workload=workload.id, outcome="missing_library", cannot_run=True, install=cmd,
                       message=tr("No Python with PyTorch was found on this PC; install it with: {cmd} "
                                  "(or give one with --python PATH)", cmd=cmd))


def run_trial(workload: Workload, *, python: str | None = None, steps: int | None = None,
              max_seconds: float = DEFAULT_MAX_SECONDS, machine: Any = None, device: str = "auto",
              search_batch: bool = True, on_event: Callable[[dict[str, Any]], None] | None = None,
              cancel: threading.Event | None = None) -> TrialResult:
    """Run the job for real in a child Python and put the measured figures beside the estimate.
    TrialUnsupported (the trial has no model for the job) and BadInput propagate to the caller."""
    workload = trial_workload(workload, machine, device)  # the estimate's precision (fp32 on a CPU without bf16)
    spec = job_spec(workload, steps=steps, max_seconds=max_seconds, device=device, search_batch=search_batch)
    if python is None:
        found = find_pythons(machine)
        if not found:
            return _no_python(workload, machine)
        python = found[0]
    python = resolve_python(python)
    raw = run_child(python, spec, hard_cap_s=hard_cap_seconds(max_seconds), on_event=on_event, cancel=cancel)
    result = _result(workload, python, tame(raw), machine, max_seconds)
    record_trial(workload, result.outcome, result.measured, machine)  # this PC's calibration learns from it
    return result


def _result(workload: Workload, python: str, raw: dict[str, Any], machine: Any, max_seconds: float) -> TrialResult:
    outcome = raw.get("outcome") if raw.get("outcome") in OUTCOMES else "failed"
    libs = {k: v if isinstance(v, str) else None for k, v in _mapping(raw.get("libraries")).items()}
    shown_python = raw.get("python") if isinstance(raw.get("python"), str) and raw.get("python") else python
    common: dict[str, Any] = {"workload": workload.id, "python": shown_python, "libraries": libs}
    details = {k: raw[k] for k in ("largest_batch_that_fits", "batch_tried", "oom_error", "traceback", "reason",
                                   "stderr_tail", "exit_code", "python_version", "cuda_build", "network_block")
               if raw.get(k) is not None}
    measured = _measured(raw.get("measured"))
    if outcome in ("ran", "out_of_memory"):
        kind = (measured or {}).get("device_kind") or ("cuda" if raw.get("cuda_build") and outcome ==
                                                       "out_of_memory" else "cpu")
        if measured:
            measured = _in_job_samples(workload, measured)
        estimated = _estimated(as_run(workload, measured or {}, keep_batch=True), machine, kind)
        return TrialResult(outcome=outcome, message=_ran_message(outcome, raw), measured=measured,
                           estimated=estimated, details=details, **common)
    if outcome == "missing_library":
        missing = raw.get("missing")
        module = missing if isinstance(missing, str) and _MODULE.fullmatch(missing) else "torch"
        cmd = pip_command(module, machine)
        msg = tr("{module} is not installed in {python}; add it with: {cmd}", module=module,
                 python=common["python"], cmd=cmd)
        return TrialResult(outcome=outcome, message=msg, install=cmd, cannot_run=True, details=details, **common)
    return _failure(workload, python, raw, details, common, max_seconds)


_MODULE = re.compile(r"[A-Za-z0-9_.-]{1,60}")
_NUMBERS = ("step_seconds", "samples_per_second", "peak_memory_gib", "batch", "steps", "mean_step_seconds")


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _measured(value: Any) -> dict[str, Any] | None:
    """The runner's measured figures, with what is not a positive number where one belongs left out."""
    if not isinstance(value, dict) or not value:
        return None
    return {k: v for k, v in value.items()
            if k not in _NUMBERS or (isinstance(v, int | float) and not isinstance(v, bool) and v > 0)}


def _ran_message(outcome: str, raw: dict[str, Any]) -> str:
    if outcome == "ran":
        return tr("Measured on this PC")
    fits = raw.get("largest_batch_that_fits")
    if fits:
        return tr("Does not fit here — measured: out of memory at micro-batch {b}; micro-batch {fits} fits",
                  b=raw.get("batch_tried"), fits=fits)
    if fits == 0:
        return tr("Does not fit here — measured: out of memory even at micro-batch 1")
    return tr("Does not fit here — measured: out of memory at micro-batch {b}", b=raw.get("batch_tried"))


def _failure(workload: Workload, python: str, raw: dict[str, Any], details: dict[str, Any],
             common: dict[str, Any], max_seconds: float) -> TrialResult:
    reason = raw.get("reason")
    if raw.get("outcome") == "timed_out":
        msg = tr("The trial did not finish within {s} s (stopped while {phase}); nothing was measured",
                 s=f"{hard_cap_seconds(max_seconds):.0f}", phase=phase_text(raw.get("last_phase")))
        return TrialResult(outcome="timed_out", message=msg, cannot_run=True, details=details, **common)
    if reason == "cancelled":
        return TrialResult(outcome="failed", message=tr("Cancelled; the trial's processes were stopped"),
                           cannot_run=True, details=details, **common)
    if reason == "cannot_start":
        msg = tr("{python} cannot be started: {error}", python=python, error=raw.get("message", ""))
        return TrialResult(outcome="failed", message=msg, cannot_run=True, details=details, **common)
    if reason == "no_result":
        sig = raw.get("signal")
        if sig:
            msg = tr("The trial's process was killed (signal {n}) before it finished", n=sig)
        elif not raw.get("started"):
            msg = tr("{python} did not run the trial: it is not a working Python 3 (exit code {code})",
                     python=python, code=raw.get("exit_code"))
        else:
            msg = tr("The trial's process stopped before it finished (exit code {code})", code=raw.get("exit_code"))
        return TrialResult(outcome="failed", message=msg, cannot_run=True, details=details, **common)
    unsupported = bool(raw.get("unsupported"))
    text = " ".join(clean_text(str(raw.get("message") or "")).split())  # one line, whatever the library raised
    msg = tr("Cannot run this job here: {why}", why=text) if unsupported else tr("The trial failed: {error}",
                                                                                  error=text)
    return TrialResult(outcome="failed", message=msg, cannot_run=unsupported, details=details, **common)
