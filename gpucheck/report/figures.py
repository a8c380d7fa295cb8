"""One story for one job: the figures every view shows, and the words they are shown with.

The app's jobs table and details page, and the PDF / HTML report all take a job's memory and time from
`job_figures()` and say them with the texts below, so the same job reads the same everywhere:

    as configured → with the changes        "19.3 GB → 11.4 GB with the changes, 11.7 GB usable of 12 GB"

- Memory is the video memory per GPU, or the system RAM when the job runs on the processor or when RAM
  is what stops it (a job that fits the GPU but not the RAM says RAM, not VRAM).
- A time is given only for settings that run: none "as configured" when those do not fit, none at all
  when the job does not fit even with every tweak.

Pure: no Qt, no arithmetic beyond picking fields of the estimate and the advice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gpucheck.advise.model import OVERHEAD_SPEED_TWEAK_IDS
from gpucheck.advise.present import alternative_text, tried_instead_text
from gpucheck.choices import UNSLOTH
from gpucheck.i18n import N_, fmt_duration, fmt_gib, fmt_number, tr
from gpucheck.report.measured import (
    measured_caption,
    measured_time_text,
    measured_time_tooltip,
    measured_time_value,
)
from gpucheck.verdict import Verdict

GIB = 1024**3


@dataclass(frozen=True)
class JobFigures:
    verdict: str  # the advice's verdict (after the changes), else the estimate's
    memory: str  # "vram" (per GPU) | "ram" (system RAM: on the CPU, or RAM is what stops the job)
    need_bytes: int | None  # as configured
    need_after_bytes: int | None  # with the suggested changes; does_not_fit: the smallest configuration tried
    have_bytes: int | None  # what a job may use (VRAM per GPU, or RAM)
    installed_bytes: int | None  # what the part has (the card's VRAM, the RAM installed or the WSL limit)
    hours: float | None  # as configured; None when the settings as configured do not fit
    hours_after: float | None  # the verdict's time: with the changes and bottlenecks; None when it does not run
    changed: bool  # the advice changes settings (or tried to)
    ram_short: bool = False  # system RAM is what stops it (said beside the memory figures)
    # the estimate's P10–P90 band as factors of its own time (Estimate.hours_range / Estimate.total_hours):
    # the same band holds for the time with the changes (same model, same family)
    hours_band: tuple[float, float] | None = None
    stack: str = ""  # the software stack the time assumes (Estimate.stack)
    # a trial measured the job on this PC (gpucheck.report.measured.Measured, set by apply_measured)
    measured: Any = None
    on_cpu: bool = False  # the job trains on the processor (every memory figure is then system RAM)
    hours_range: tuple[float, float] | None = None  # Estimate.hours_range: P10–P90 of the settings as configured
    range_checked: bool = True  # Estimate.hours_range_checked: False, the wide default range no published run checks
    range_calibrated: bool = False  # Estimate.hours_range_calibrated: a calibrated CPU's range

    @property
    def range_is_advised(self) -> bool:
        """The shown range is the time with the advised changes (not the settings as configured, the range
        `gpucheck estimate` prints): every view says which."""
        return self.shown_hours is not None and self.shown_hours != self.hours

    @property
    def shown_range(self) -> tuple[float, float] | None:
        """P10–P90 of the shown time (None: no time, or no range): the estimate's own range for the settings
        as configured (the very numbers the command line rounds), the same band around the time with the
        changes."""
        h = self.shown_hours
        if h is None or self.hours_band is None:
            return None
        if self.hours_range is not None and not self.range_is_advised and h == self.hours:
            return self.hours_range
        return (h * self.hours_band[0], h * self.hours_band[1])

    @property
    def shown_need_bytes(self) -> int | None:
        """The need the verdict refers to: after the changes when there are any."""
        return self.need_after_bytes if self.changed and self.need_after_bytes is not None else self.need_bytes

    @property
    def shown_hours(self) -> float | None:
        """The time the verdict refers to (never one for settings that do not fit)."""
        return self.hours_after if self.hours_after is not None or self.changed else self.hours

    @property
    def bar_status(self) -> str:
        """The memory bar's colour: "fits", "tight" (the verdict is tight: may fit), "does_not_fit", or
        "not_supported" (grey: no memory would make it run on this hardware's software)."""
        if Verdict.parse(self.verdict) == Verdict.NOT_SUPPORTED:
            return "not_supported"
        if not self.fits:
            return "does_not_fit"
        return "tight" if Verdict.parse(self.verdict) == Verdict.TIGHT else "fits"

    @property
    def fits(self) -> bool:
        need = self.shown_need_bytes
        return need is not None and self.have_bytes is not None and need <= self.have_bytes and \
            Verdict.parse(self.verdict) not in (Verdict.DOES_NOT_FIT, Verdict.NOT_SUPPORTED)


def _ram_limited(est: Any, adv: Any) -> bool:
    """The job does not fit, and system RAM (not video memory) is what stops it."""
    verdict = adv.verdict if adv is not None else est.verdict
    if Verdict.parse(verdict) != Verdict.DOES_NOT_FIT:
        return False
    if est.limit == "ram":
        return True
    return (adv is not None and adv.needs_vram_bytes is not None and est.vram_available_bytes is not None
            and adv.needs_vram_bytes <= est.vram_available_bytes)


def advised_stack(est: Any, adv: Any) -> str:
    """The software stack of the advised plan: Unsloth where a change switches to it, else the estimate's."""
    if adv is not None and (adv.settings or {}).get("unsloth"):
        return UNSLOTH
    return getattr(est, "stack", "") or ""


def job_figures(est: Any, adv: Any = None, installed_vram_bytes: int | None = None) -> JobFigures:
    """The figures of one job (an estimate and, when there is one, its advice) on one target.

    `installed_vram_bytes`: the card's own memory, for "11.7 GB usable of 12 GB" (None: not said).
    """
    verdict = adv.verdict if adv is not None else est.verdict
    v = Verdict.parse(verdict)
    fits_as_configured = est.fits or Verdict.parse(est.verdict) == Verdict.TIGHT
    changed = adv is not None and bool(adv.tweaks)
    ram_short = _ram_limited(est, adv)
    # RAM is the memory shown when the job runs on the CPU or when RAM is what decides the verdict (tight or
    # short on RAM as configured): the bar, its colour and its figures, as `gpucheck check` says them
    ram = est.on_cpu or est.limit == "ram" or ram_short  # the advice's smallest plan fits the GPU, not the RAM
    if ram:
        need, have, installed = est.ram_bytes, est.ram_total_bytes, est.ram_total_bytes
        final_ram = getattr(adv, "final_ram_bytes", None) if adv is not None else None
        after = final_ram if changed and final_ram is not None else None
        if after is not None and ram_short and after >= need:  # a plan that does not fit RAM is no lower figure
            after = None
    else:
        need, have, installed = est.peak_vram_bytes, est.vram_available_bytes, installed_vram_bytes
        after = adv.shown_need_bytes if adv is not None and (changed or v == Verdict.DOES_NOT_FIT) else None
    if adv is not None and v == Verdict.DOES_NOT_FIT and not ram:
        changed = adv.needs_vram_bytes is not None or changed
    hours_after = adv.expected_hours if adv is not None else None
    if adv is not None and not changed and hours_after is None and v.can_train:
        hours_after = adv.final_total_hours
    band = None
    if est.hours_range is not None and est.total_hours:
        band = (est.hours_range[0] / est.total_hours, est.hours_range[1] / est.total_hours)
    if v == Verdict.NOT_SUPPORTED:  # this hardware's software cannot train it: no time, as the command line says
        fits_as_configured, hours_after = False, None
    return JobFigures(
        verdict=str(verdict), memory="ram" if ram else "vram", need_bytes=need,
        need_after_bytes=after, have_bytes=have, installed_bytes=installed,
        hours=est.total_hours if fits_as_configured else None,
        hours_after=hours_after if v.can_train else None, changed=changed, ram_short=ram_short,
        hours_band=band, stack=advised_stack(est, adv) if changed else getattr(est, "stack", "") or "",
        on_cpu=bool(est.on_cpu),
        hours_range=tuple(est.hours_range) if est.hours_range is not None else None,
        range_checked=bool(getattr(est, "hours_range_checked", True)),
        range_calibrated=bool(getattr(est, "hours_range_calibrated", False)))


# -- the words ------------------------------------------------------------------------------------------


def have_text(f: JobFigures) -> str:
    """'11.7 GB usable of 12 GB' (VRAM) / '16.0 GB of RAM' / 'unknown'."""
    if f.memory == "ram":
        return tr("{have} of RAM", have=fmt_gib(f.have_bytes))
    if f.installed_bytes and f.have_bytes is not None and abs(f.installed_bytes - f.have_bytes) >= 0.05 * GIB:
        return tr("{have} usable of {installed}", have=fmt_gib(f.have_bytes),
                  installed=fmt_gib(f.installed_bytes, 0 if f.installed_bytes % GIB == 0 else 1))
    return fmt_gib(f.have_bytes)


def need_caption(f: JobFigures) -> str:
    """Short, for a bar: '19.3 → 11.4 GB of 11.7 GB' / 'RAM: needs 9.1 GB of 7.5 GB'."""
    if f.shown_need_bytes != f.need_bytes and f.need_bytes is not None:
        text = tr("{need} → {after} of {have}", need=fmt_gib(f.need_bytes), after=fmt_gib(f.shown_need_bytes),
                  have=fmt_gib(f.have_bytes))
    else:
        text = tr("needs {need} of {have}", need=fmt_gib(f.need_bytes), have=fmt_gib(f.have_bytes))
    if f.memory == "ram":
        text = tr("RAM: {text}", text=text)
    elif f.ram_short:
        text = tr("{text} · too little RAM", text=text)
    return measured_caption(text, f.measured) if f.measured is not None else text


def need_have_text(f: JobFigures) -> str:
    """`gpucheck check`'s memory cell, the same figures as the app's bar: '19.3 GB → 11.4 GB / 11.7 GB',
    'RAM 20.8 GB → 15.3 GB / 16.0 GB' when RAM decides, the bare figures when every job runs on the CPU
    (the column's heading then says RAM)."""
    need = fmt_gib(f.need_bytes)
    if f.shown_need_bytes is not None and f.need_bytes is not None and fmt_gib(f.shown_need_bytes) != need:
        need = f"{need} → {fmt_gib(f.shown_need_bytes)}"
    if f.memory == "ram" and not f.on_cpu:
        return tr("RAM {need} / {have}", need=need, have=fmt_gib(f.have_bytes))
    return f"{need} / {fmt_gib(f.have_bytes)}"


def disk_need_text(est: Any) -> str:
    """'6.1 GB of disk space (6.0 GB of it for Python, PyTorch and its libraries)': the disk a job needs and,
    when it is most of it, the software install (Estimate.disk_parts['environment'])."""
    env = (getattr(est, "disk_parts", None) or {}).get("environment")
    if env and est.disk_bytes and env * 2 >= est.disk_bytes:
        return tr("{disk} of disk space ({env} of it for Python, PyTorch and its libraries)",
                  disk=fmt_gib(est.disk_bytes), env=fmt_gib(env))
    return tr("{disk} of disk space", disk=fmt_gib(est.disk_bytes))


def job_notes(est: Any, adv: Any) -> list[str]:
    """The estimate's notes, then the advice's. The estimate's are on the settings as configured: when changes
    are advised they say so ('As configured (before the advised changes): needs about 19.3 GB …'), so they
    do not contradict a job that runs with the changes (the CLI says the same)."""
    notes = list(est.notes)
    if notes and adv is not None and adv.tweaks:
        label = tr("As configured (before the advised changes):")
        notes = [label + ("" if label.endswith("：") else " ") + n for n in notes]
    if adv is not None:
        notes += [n for n in adv.notes if n not in notes]
    return notes


def memory_label(f: JobFigures) -> str:
    """The row name for `memory_value`: the video memory per GPU, or the system RAM when that is what limits
    the job (in Chinese 内存 is only ever system RAM, 显存 the GPU's memory)."""
    return tr("System RAM needed") if f.memory == "ram" else tr("Video memory needed per GPU")


def memory_value(f: JobFigures) -> str:
    """A report row's value under `memory_label` (the label is not repeated): as configured → with the
    changes, and what there is."""
    if f.shown_need_bytes != f.need_bytes and f.need_bytes is not None:
        key = (tr("{need} as configured → at least {after} with every change tried")
               if Verdict.parse(f.verdict) == Verdict.DOES_NOT_FIT
               else tr("{need} as configured → {after} with the changes"))
        needs = key.format(need=fmt_gib(f.need_bytes), after=fmt_gib(f.shown_need_bytes))
    elif f.measured is not None and not f.measured.out_of_memory and f.measured.peak_bytes is not None and \
            f.measured.memory == f.memory:  # a trial measured the peak: it comes first, the estimate beside it
        needs = tr("{peak} measured peak (estimated {need})", peak=fmt_gib(f.measured.peak_bytes),
                   need=fmt_gib(f.need_bytes))
    else:
        needs = tr("{need} as configured", need=fmt_gib(f.need_bytes))
    text = tr("{needs}; there is {have}.", needs=needs, have=have_text(f))
    if f.ram_short and f.memory != "ram":
        text = tr("{text} The system RAM is what it runs short of.", text=text)
    return text


def memory_sentence(f: JobFigures) -> str:
    """Long, for the details page: 'Video memory needed per GPU: 19.3 GB as configured → …; there is …'."""
    return tr("{what}: {value}", what=memory_label(f), value=memory_value(f))


def time_text(f: JobFigures) -> str:
    """The table's time: the verdict's own, '—' when it does not run; '2.3 h measured' after a trial."""
    if f.measured is not None:
        return measured_time_text(f.measured)
    h = f.shown_hours
    return fmt_duration(h) if h is not None else "—"


def time_value(f: JobFigures) -> str:
    """A report row's value under 'Training time' (the label is not repeated): '2.7 days as configured →
    5.1 h with the changes' / 'none: it does not fit here.'"""
    if f.measured is not None:
        return measured_time_value(f.measured)
    if f.hours is None and f.hours_after is None and Verdict.parse(f.verdict) == Verdict.NOT_SUPPORTED:
        return tr("none: this hardware's software cannot train it.")  # not a question of memory
    if f.hours is None and f.hours_after is None:
        return tr("none: it does not fit here, not even with the changes.") if f.changed \
            else tr("none: it does not fit here.")
    before = (tr("{time} as configured", time=fmt_duration(f.hours)) if f.hours is not None
              else tr("none as configured (it does not fit)"))
    if not f.changed:
        return before
    after = tr("{time} with the changes", time=fmt_duration(f.hours_after))
    return tr("{before} → {after}", before=before, after=after)


def time_sentence(f: JobFigures) -> str:
    """For the details page: 'Training time: 2.7 days as configured → 5.1 h with the changes'."""
    return tr("Training time: {time}", time=time_value(f))


_NUMBER = re.compile(r"^([0-9][0-9.,]*)\s?(.*)$")


def duration_range(low: float, high: float) -> str:
    """'2.3–5.2 h' (one unit when both ends have it), else '45 min–1.2 h'."""
    a, b = fmt_duration(low), fmt_duration(high)
    ma, mb = _NUMBER.match(a), _NUMBER.match(b)
    if ma and mb and ma.group(2) == mb.group(2):
        if ma.group(1) == mb.group(1):
            return b
        return f"{ma.group(1)}–{b}"
    return f"{a}–{b}"


def time_range_text(f: JobFigures) -> str:
    """'2.3–5.2 h, estimate 2.7 h' for the shown time; the time alone without a range; '—' with none. Not "most
    likely": the range is where published runs lay against the estimate, and where they all took longer (speech
    jobs) the estimate is its lower end."""
    h, r = f.shown_hours, f.shown_range
    if h is None:
        return "—"
    if r is None:
        return fmt_duration(h)
    return tr("{range}, estimate {time}", range=duration_range(*r), time=fmt_duration(h))


# the software stack a time assumes (issue 14: named in every output); the command line's words too. One label
# per stack for every family of job: eager is a plain training loop (an ImageNet ResNet-50) as much as the
# Hugging Face Trainer (a fine-tuned LLM)
STACK_LABELS = {
    "eager": N_("eager PyTorch (a plain training loop or the Hugging Face Trainer)"),
    "fused": N_("fused / compiled kernels"),
    "handtuned": N_("hand-tuned CUDA (llm.c)"),
    "unsloth": N_("Unsloth (its Triton kernels, checkpoints kept in CPU RAM)"),
}


def data_set_text(data: Any, train: Any) -> str:
    """How much the job trains on: samples × epochs, or a pre-training run's token budget (which the
    samples × epochs of its data set then only describe)."""
    if data.tokens:
        rows = float(data.tokens) / float(train.seq_len) if train.seq_len else None
        return tr("Data set: a budget of {tokens} tokens, about {rows} rows of {seq} tokens seen in training "
                  "(changing the samples or epochs replaces the budget).", tokens=fmt_number(data.tokens, 0),
                  rows=fmt_number(rows, 0), seq=train.seq_len)
    total = float(data.samples) * float(data.epochs)
    return tr("Data set: {samples} samples × {epochs} epochs = {total} samples seen in training.",
              samples=fmt_number(data.samples, 0), epochs=f"{float(data.epochs):g}", total=fmt_number(total, 0))


def stack_text(stack: str) -> str:
    return tr(STACK_LABELS[stack]) if stack in STACK_LABELS else stack


# range_sentence's words, by (what the range rests on: this PC's calibration, published runs, or nothing yet; which
# time the range is around): the command line's range is the settings' as configured, so a range around another time
# says which
_RANGE_SENTENCES = {
    # a CPU this PC's calibration measured: the range is how far such calibrations missed jobs they did not measure
    ("calibrated", "changes"): N_("Likely with the changes: {range} (calibrated on this PC: about 8 in 10 jobs such a "
                                  "calibration did not measure ran inside such a range), assuming {stack}."),
    ("calibrated", "limits"): N_("Likely with this PC's CPU and disk limits: {range} (calibrated on this PC: about 8 in "
                                 "10 jobs such a calibration did not measure ran inside such a range), assuming "
                                 "{stack}."),
    ("calibrated", "as configured"): N_("Likely {range} (calibrated on this PC: about 8 in 10 jobs such a calibration "
                                        "did not measure ran inside such a range), assuming {stack}."),
    ("published", "changes"): N_("Likely with the changes: {range} (about 8 in 10 published runs fell inside such a "
                                 "range), assuming {stack}."),
    ("published", "limits"): N_("Likely with this PC's CPU and disk limits: {range} (about 8 in 10 published runs "
                                "fell inside such a range), assuming {stack}."),
    ("published", "as configured"): N_("Likely {range} (about 8 in 10 published runs fell inside such a range), "
                                       "assuming {stack}."),
    # the wide default: no published run of this kind checks it (the estimate's note says so)
    ("unchecked", "changes"): N_("Likely with the changes: {range}, a wide range no published run of this kind has "
                                 "checked yet, assuming {stack}."),
    ("unchecked", "limits"): N_("Likely with this PC's CPU and disk limits: {range}, a wide range no published run of "
                                "this kind has checked yet, assuming {stack}."),
    ("unchecked", "as configured"): N_("Likely {range}, a wide range no published run of this kind has checked "
                                       "yet, assuming {stack}."),
}


def range_sentence(f: JobFigures) -> str:
    """'Likely 2.3–5.2 h, estimate 2.7 h, assuming eager PyTorch (…).' ('' with no time)."""
    if f.shown_hours is None:
        return ""
    if f.shown_range is None:
        return tr("Assumes {stack}.", stack=stack_text(f.stack)) if f.stack else ""
    around = ("changes" if f.changed else "limits") if f.range_is_advised else "as configured"
    basis = "calibrated" if f.range_calibrated else "published" if f.range_checked else "unchecked"
    return tr(_RANGE_SENTENCES[basis, around], range=time_range_text(f), stack=stack_text(f.stack or "eager"))


def time_tooltip(f: JobFigures) -> str:
    """The jobs table's time tooltip: the range and the stack."""
    if f.measured is not None:
        return measured_time_tooltip(f.measured)
    if f.shown_hours is None:
        return ""
    return tr("{range}; assumes {stack}", range=time_range_text(f), stack=stack_text(f.stack or "eager"))


def tight_advice(adv: Any, train: Any = None) -> str:
    """For a tight verdict: 'try it; if it runs out of memory, <what to do>' ('' otherwise). With the job's
    settings (`train`), only what can be lowered is named: no micro-batch below 1, no sequence length for an
    image job."""
    if adv is None or Verdict.parse(adv.verdict) != Verdict.TIGHT:
        return ""
    alt = adv.alternative
    if alt is not None:
        fix = tr("switch to: {title}", title=alt.title)
    elif train is None:
        fix = tr("close other programs, or lower the micro-batch or the sequence length")
    else:
        batch, seq = getattr(train, "batch", 1) > 1, bool(getattr(train, "seq_len", None))
        fix = (tr("close other programs, or lower the micro-batch or the sequence length") if batch and seq else
               tr("close other programs, or lower the micro-batch") if batch else
               tr("close other programs, or lower the sequence length") if seq else
               tr("close other programs first"))
    return tr("try it; if it runs out of memory, {fix}", fix=fix)


def tight_text(adv: Any, train: Any = None) -> str:
    """'May fit — try it; if it runs out of memory, <what to do>.' ('' unless the verdict is tight)."""
    advice = tight_advice(adv, train)
    return tr("May fit — {advice}.", advice=advice) if advice else ""


def alternative_lines(adv: Any) -> tuple[str, ...]:
    """What fits instead, beyond the first that fits: the other methods and models tried, each in one line."""
    if adv is None:
        return ()
    out = []
    for alt in adv.alternatives:
        if alt is adv.alternative or alt == adv.alternative:
            continue
        out.append(alternative_text(alt) if alt.fits else tried_instead_text(alt))
    return tuple(out)


def changes_sentence(f: JobFigures) -> str:
    """Over the list of changes: what they do to the need and the time ('' when nothing changes)."""
    if not f.changed or f.shown_need_bytes == f.need_bytes or f.need_bytes is None:
        return ""
    if Verdict.parse(f.verdict) == Verdict.DOES_NOT_FIT:
        return tr("Even with every change tried it needs at least {after}; there is {have}.",
                  after=fmt_gib(f.shown_need_bytes), have=have_text(f))
    return tr("With these changes: {caption}; {time}.", caption=need_caption(f), time=time_range_text(f))


# -- the memory breakdown's parts: one name and one colour each, in the app and in the report ---------------

BREAKDOWN_PARTS = (  # (key, Estimate.breakdown field, label, colour: Tableau 10, readable on light and dark)
    ("weights", "weights_bytes", N_("Model weights"), "#4e79a7"),
    ("gradients", "gradients_bytes", N_("Gradients"), "#f28e2b"),
    ("optimizer", "optimizer_bytes", N_("Optimizer state"), "#e15759"),
    ("activations", "activations_bytes", N_("Activations"), "#76b7b2"),
    ("overhead", "overhead_bytes", N_("Framework overhead"), "#9c755f"),
)
RAM_OTHER_PART = ("other", "", N_("Python, libraries and data loading"), "#bab0ac")


def status_text(status: str) -> str:
    return {"fits": tr("fits"), "tight": tr("tight: may fit"), "does_not_fit": tr("does not fit")}.get(status,
                                                                                                    status)


def status_verdict(status: str) -> str:
    """The verdict whose colour a status is drawn in."""
    return {"fits": "runs", "tight": "tight", "does_not_fit": "does_not_fit"}.get(status, "not_supported")



# "Finish sooner" is offered only when it saves at least this much of the user's time: a one-minute run needs
# no speed-up (a presentation choice, not a fact about hardware).
MIN_SPEEDUP_SAVED_HOURS = 0.25


def worth_speeding_up(adv: Any) -> tuple:
    """The advice's optional speed-ups that save a noticeable amount of time (none for a short run)."""
    now = adv.expected_hours if adv is not None else None
    if now is None:
        return ()
    return tuple(t for t in adv.speed_tweaks
                 if t.total_hours is not None and now - t.total_hours >= MIN_SPEEDUP_SAVED_HOURS)

def speed_intro(tweaks: tuple) -> str:
    """The sentence above the optional speed-ups: why they help (steps too small to keep the GPU busy, for packing and
    a larger micro-batch; other software, for Unsloth)."""
    if any(t.id in OVERHEAD_SPEED_TWEAK_IDS for t in tweaks):
        return tr("It runs as it is, but its steps are too small to keep the GPU busy. Each of these changes, on its own, "
                  "finishes it sooner.")
    return tr("It runs as it is. Each of these changes, on its own, finishes it sooner.")


__all__ = ["JobFigures", "advised_stack", "speed_intro", "job_figures", "have_text", "need_caption", "need_have_text", "disk_need_text", "memory_sentence", "memory_value",
           "memory_label", "time_text", "time_sentence", "time_value", "BREAKDOWN_PARTS", "RAM_OTHER_PART",
           "status_text", "status_verdict", "worth_speeding_up",
           "MIN_SPEEDUP_SAVED_HOURS", "STACK_LABELS", "stack_text", "duration_range", "time_range_text",
           "range_sentence", "time_tooltip", "tight_advice", "tight_text", "alternative_lines", "changes_sentence"]
