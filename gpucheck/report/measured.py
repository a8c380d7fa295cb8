"""A job measured on this PC by a trial run ("Try it for real", `gpucheck trial`), said the same way in the
app and in the report.

    measured_of(trial, workload, est) -> Measured | None    the trial's figures, when they are for this job
                                                             on the device the estimate is for
    apply_measured(fig, measured) -> JobFigures              the job's figures with the measurement in charge

Once a trial has measured a job, its figures replace the estimate's where they say the same thing, and are
labelled "measured" (as the deep scan's speeds are), with the estimate beside them:

- a trial that ran: the settings as configured ran here, so the verdict is "runs" (or "too slow"), and the
  time is the whole run at the measured speed (data-set size ÷ measured samples per second);
- a measured out-of-memory: "Does not fit here — measured", with the largest micro-batch that did fit when
  the trial searched for one.

`trial` is a gpucheck.trial.TrialResult (read through its fields: this module does not import the trial
package, which sits on the same layer). Pure: no Qt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gpucheck.i18n import N_, fmt_duration, fmt_gib, fmt_number, tr
from gpucheck.verdict import Verdict, verdict_label

GIB = 1024**3
MEASURED_OUTCOMES = ("ran", "out_of_memory")


@dataclass(frozen=True)
class Measured:
    """What a trial measured for one job on this PC, and the estimate it stands beside."""

    outcome: str  # ran | out_of_memory
    device: str | None  # "NVIDIA GeForce RTX 3060", "CPU", … as PyTorch names it
    memory: str  # "vram" (the GPU's memory) | "ram" (the process's peak resident memory on the CPU)
    batch: int | None  # the micro-batch measured (out of memory: the largest that fit, when searched)
    steps: int | None  # timed steps after the warm-up
    step_seconds: float | None
    samples_per_second: float | None
    peak_bytes: int | None
    hours: float | None  # the whole run (samples × epochs) at the measured speed; None: out of memory
    estimated_step_seconds: float | None
    estimated_samples_per_second: float | None
    estimated_peak_bytes: int | None
    estimated_hours: float | None
    batch_tried: int | None = None  # out of memory at this micro-batch (the job's own)
    largest_batch_that_fits: int | None = None  # out of memory: None not searched, 0 not even 1 fits

    @property
    def out_of_memory(self) -> bool:
        return self.outcome == "out_of_memory"


def _bytes(gib: Any) -> int | None:
    return None if gib is None else int(round(float(gib) * GIB))


def _trial_on_cpu(trial: Any) -> bool | None:
    """The trial ran on the processor (True), a GPU (False), or it does not say (None)."""
    m, e = trial.measured or {}, trial.estimated or {}
    if m.get("device_kind"):
        return m["device_kind"] == "cpu"
    if e.get("memory_kind"):
        return e["memory_kind"] == "ram"
    return None


def _model_only(est: Any) -> float | None:
    """uncalibrated ÷ calibrated step time when this PC's calibration changed the estimate (the trial itself feeds
    it, so beside its own measurement the calibrated figure would only repeat it); None otherwise."""
    raw, step = getattr(est, "uncalibrated_step_seconds", None), est.step_seconds
    if not getattr(est, "calibrated", None) or not raw or not step:
        return None
    return raw / step


def _scaled(value: float | None, factor: float | None) -> float | None:
    return value if value is None or factor is None else value * factor


def measured_of(trial: Any, workload: Any, est: Any) -> Measured | None:
    """The trial's figures for `workload` beside the estimate `est`, or None when the trial measured nothing,
    measured another job or another micro-batch, or ran on another kind of device than the estimate is for (a
    CPU-only PyTorch on a PC with a GPU), or the estimate spreads the job over several GPUs (a trial uses one)."""
    if trial is None or est is None or trial.outcome not in MEASURED_OUTCOMES or trial.workload != workload.id:
        return None
    on_cpu = _trial_on_cpu(trial)
    if (on_cpu is not None and on_cpu != bool(est.on_cpu)) or (not est.on_cpu and (est.gpus or 1) > 1):
        return None
    tried = (trial.estimated or {}).get("batch") or (trial.details or {}).get("batch_tried")
    if tried is not None and tried != est.train.batch:  # measured at another micro-batch than these settings
        return None
    m, details = trial.measured or {}, trial.details or {}
    oom = trial.outcome == "out_of_memory"
    sps = m.get("samples_per_second")
    hours = None
    if not oom and sps:
        hours = workload.data.samples * workload.data.epochs / float(sps) / 3600.0
    need = est.ram_bytes if est.on_cpu else est.peak_vram_bytes
    model = _model_only(est)  # the estimate beside a measurement is the model's own, before this PC's calibration
    return Measured(
        outcome=trial.outcome, device=m.get("device"), memory="ram" if est.on_cpu else "vram",
        batch=m.get("batch"), steps=m.get("steps"), step_seconds=m.get("step_seconds"), samples_per_second=sps,
        peak_bytes=_bytes(m.get("peak_memory_gib")), hours=hours,
        estimated_step_seconds=_scaled(est.step_seconds, model),
        estimated_samples_per_second=_scaled(est.samples_per_second, 1 / model if model else None),
        estimated_peak_bytes=need, estimated_hours=_scaled(est.total_hours, model),
        batch_tried=details.get("batch_tried"), largest_batch_that_fits=details.get("largest_batch_that_fits"))


def apply_measured(fig: Any, m: Measured | None) -> Any:
    """`fig` (a gpucheck.report.figures.JobFigures) with the measurement in charge of the verdict and the time.
    The memory stays the estimate's (its breakdown has no measured counterpart); the measured peak is said
    beside it."""
    if m is None:
        return fig
    if m.out_of_memory:
        return dataclasses.replace(fig, verdict=str(Verdict.DOES_NOT_FIT), hours=None, hours_after=None,
                                   changed=False, need_after_bytes=None, hours_band=None, stack="", measured=m)
    verdict = Verdict.TOO_SLOW if Verdict.parse(fig.verdict) == Verdict.TOO_SLOW else Verdict.RUNS
    return dataclasses.replace(fig, verdict=str(verdict), hours=m.hours, hours_after=None, changed=False,
                               need_after_bytes=None, hours_band=None, stack="", measured=m)


# -- the words ---------------------------------------------------------------------------------------------


def fmt_seconds(s: float | None) -> str:
    """A step time: '0.412 s', '3.20 s', longer ones as durations."""
    if s is None:
        return "—"
    if s < 60:
        return tr("{n} s", n=f"{s:,.3f}" if s < 1 else f"{s:,.2f}")
    return fmt_duration(s / 3600.0)


def _sps(x: float | None) -> str:
    return "—" if x is None else fmt_number(x, 2 if x < 10 else 1)


def measured_verdict_label(verdict: str, m: Measured | None) -> str:
    """The verdict's label, marked when a trial settled it: 'Does not fit here — measured', 'Runs — measured'."""
    if m is None:
        return verdict_label(verdict)
    if m.out_of_memory:
        return tr("Does not fit here — measured")
    return tr("{verdict} — measured", verdict=verdict_label(verdict))


def measured_summary(m: Measured) -> str:
    """One line: where and how it was measured, or the out-of-memory and the micro-batch that fit."""
    if not m.out_of_memory:
        return tr("Measured on this PC ({device}): micro-batch {batch}, {steps} timed steps after one warm-up.",
                  device=m.device or tr("unknown device"), batch=m.batch, steps=m.steps)
    if m.largest_batch_that_fits:
        return tr("Does not fit here — measured: out of memory at micro-batch {b}; the largest micro-batch "
                  "that fit is {fits}.", b=m.batch_tried, fits=m.largest_batch_that_fits)
    if m.largest_batch_that_fits == 0:
        return tr("Does not fit here — measured: out of memory even at micro-batch 1.")
    return tr("Does not fit here — measured: out of memory at micro-batch {b}.", b=m.batch_tried)


def measured_headline(m: Measured, verdict: str) -> str:
    """The headline under the verdict once a trial measured the job (it replaces the estimate's "about 13
    min"): the whole run at the measured speed with the estimate beside it, or the measured out-of-memory."""
    if m.out_of_memory or m.hours is None:
        return measured_summary(m)
    if Verdict.parse(verdict) == Verdict.TOO_SLOW:
        return tr("Measured on this PC: the whole run takes about {time} at the measured speed (estimated "
                  "{estimate}), too slow to be practical here.", time=fmt_duration(m.hours),
                  estimate=fmt_duration(m.estimated_hours))
    return tr("Runs on this PC — measured: the whole run takes about {time} at the measured speed (estimated "
              "{estimate}).", time=fmt_duration(m.hours), estimate=fmt_duration(m.estimated_hours))


def speed_value(est: Any, m: Measured | None) -> str:
    """'Speed as configured' (the value only): '970 samples per second measured (estimated 1,389)' once a
    trial measured it, else the estimate's '1,389 samples per second' ('' when there is none)."""
    if m is not None and not m.out_of_memory and m.samples_per_second is not None:
        return tr("{n} samples per second measured (estimated {estimate})", n=_sps(m.samples_per_second),
                  estimate=_sps(m.estimated_samples_per_second or est.samples_per_second))
    sps = est.samples_per_second
    if sps is None:
        return ""
    return tr("{n} samples per second", n=fmt_number(sps, 2 if sps < 1 else 1))


def speed_ratio(m: Measured | None) -> float | None:
    """How many times slower than estimated the trial ran (estimated ÷ measured speed; below 1: faster)."""
    if m is None or m.out_of_memory or not m.samples_per_second or not m.estimated_samples_per_second:
        return None
    return float(m.estimated_samples_per_second) / float(m.samples_per_second)


def measured_speed_note(m: Measured | None, job_title: str) -> str:
    """For the other jobs on the same PC: 'A trial of "<job>" measured this PC 18× slower than estimated: the
    other estimates here are not corrected for it.' ('' without a measured speed)."""
    ratio = speed_ratio(m)
    if ratio is None:
        return ""
    slower = ratio >= 1
    n = ratio if slower else 1 / ratio
    times = f"{n:.1f}" if n < 10 else f"{n:.0f}"
    key = N_("A trial of \"{job}\" measured this PC {n}× slower than estimated: the other estimates here are not "
             "corrected for it.") if slower else \
        N_("A trial of \"{job}\" measured this PC {n}× faster than estimated: the other estimates here are not "
           "corrected for it.")
    return tr(key, job=job_title, n=times)


def _beside(measured: str, estimated: str) -> str:
    return tr("{measured} measured · {estimated} estimated", measured=measured, estimated=estimated)


def measured_rows(m: Measured) -> tuple[tuple[str, str], ...]:
    """(what, 'measured · estimated') rows: step time, samples/s, peak memory and the whole run (a trial that
    ran), or the figures at the micro-batch that fit (out of memory)."""
    peak = tr("Peak RAM") if m.memory == "ram" else tr("Peak video memory")
    if m.out_of_memory:
        if not m.largest_batch_that_fits or m.step_seconds is None:
            return ()
        return ((tr("At micro-batch {b}", b=m.largest_batch_that_fits),
                 tr("{step} per step, {sps} samples/s, peak {peak} — measured", step=fmt_seconds(m.step_seconds),
                    sps=_sps(m.samples_per_second), peak=fmt_gib(m.peak_bytes))),)
    return (
        (tr("Step time"), _beside(fmt_seconds(m.step_seconds), fmt_seconds(m.estimated_step_seconds))),
        (tr("Samples per second"), _beside(_sps(m.samples_per_second), _sps(m.estimated_samples_per_second))),
        (peak, _beside(fmt_gib(m.peak_bytes), fmt_gib(m.estimated_peak_bytes))),
        (tr("Whole run at the measured speed"), _beside(fmt_duration(m.hours), fmt_duration(m.estimated_hours))),
    )


def measured_lines(m: Measured | None) -> tuple[str, ...]:
    """The summary and each row as 'what: value' (the details page's lines; the report shows the same rows)."""
    if m is None:
        return ()
    return (measured_summary(m),) + tuple(tr("{what}: {value}", what=k, value=v) for k, v in measured_rows(m))


def measured_caption(text: str, m: Measured) -> str:
    """The memory bar's caption with the measurement beside the estimate."""
    if m.out_of_memory:
        return tr("{text} · out of memory (measured)", text=text)
    return tr("{text} · measured peak {peak}", text=text, peak=fmt_gib(m.peak_bytes))


def measured_time_text(m: Measured) -> str:
    """The jobs table's time: '2.3 h measured', '—' for an out-of-memory."""
    if m.out_of_memory or m.hours is None:
        return "—"
    return tr("{time} measured", time=fmt_duration(m.hours))


def measured_time_value(m: Measured) -> str:
    """A report row's value under 'Training time': '2.3 h measured (estimated 2.7 h)'."""
    if m.out_of_memory or m.hours is None:
        return tr("none as configured: it ran out of memory here (measured).")
    return tr("{time} measured (estimated {estimate})", time=fmt_duration(m.hours),
              estimate=fmt_duration(m.estimated_hours))


def measured_time_tooltip(m: Measured) -> str:
    if m.out_of_memory:
        return measured_summary(m)
    return tr("At the speed measured on this PC; estimated {time}", time=fmt_duration(m.estimated_hours))


def measured_to_json(m: Measured | None, verdict: str) -> dict[str, Any] | None:
    """The measured figures a report's JSON carries beside the estimate (with the trial's own JSON)."""
    if m is None:
        return None
    return {"source": "measured", "verdict": verdict, "outcome": m.outcome, "device": m.device,
            "memory": m.memory, "batch": m.batch, "steps": m.steps, "step_seconds": m.step_seconds,
            "samples_per_second": m.samples_per_second,
            "peak_memory_gib": None if m.peak_bytes is None else round(m.peak_bytes / GIB, 3),
            "total_hours": None if m.hours is None else round(m.hours, 4),
            "batch_tried": m.batch_tried, "largest_batch_that_fits": m.largest_batch_that_fits}


__all__ = ["Measured", "measured_of", "apply_measured", "measured_verdict_label", "measured_summary",
           "measured_headline", "speed_value", "speed_ratio", "measured_speed_note",
           "measured_rows", "measured_lines", "measured_caption", "measured_time_text", "measured_time_value",
           "measured_time_tooltip", "measured_to_json", "fmt_seconds", "MEASURED_OUTCOMES"]
