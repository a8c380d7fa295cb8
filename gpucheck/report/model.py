"""The report model: everything a report shows, built once from the Machine, the estimates and the advice.

Pure: no Qt, no file I/O. Every string is translated with `tr()` while `use_language(lang)` is in force,
so the same model renders to HTML, PDF and JSON without translating again. Numbers are never computed
here; they are formatted from what `gpucheck.estimate` and `gpucheck.advise` return.
"""

from __future__ import annotations

import ctypes
import datetime as _dt
import locale
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from gpucheck import __version__
from gpucheck import estimate as est_mod
from gpucheck.advise import advise
from gpucheck.advise.present import (
    alternative_text,
    cloud_cost_text,
    cloud_label,
    cloud_rate_text,
    settings_text,
    sharding_text,
    shop_price_text,
    unlisted_clouds,
)
from gpucheck.catalog import get_workload, gpu_for, load_workloads
from gpucheck.errors import BadInput
from gpucheck.estimate.calibration import calibrated_text
from gpucheck.i18n import (
    finding_text,
    fmt_duration,
    fmt_gib,
    fmt_list,
    fmt_number,
    fmt_time_of_day,
    fmt_timestamp,
    get_language,
    localized,
    lora_targets_label,
    method_label,
    normalize_lang,
    optimizer_label,
    precision_label,
    tr,
    use_language,
)
from gpucheck.machine import Machine
from gpucheck.report.figures import (
    BREAKDOWN_PARTS,
    OptionPoint,
    alternative_lines,
    changes_sentence,
    job_figures,
    job_notes,
    memory_label,
    memory_value,
    need_caption,
    option_points,
    options_headings,
    speed_intro,
    stack_text,
    tight_advice,
    time_range_text,
    time_text,
    time_value,
    worth_speeding_up,
)
from gpucheck.report.measured import (
    apply_measured,
    measured_headline,
    measured_of,
    measured_rows,
    measured_summary,
    measured_verdict_label,
    speed_value,
)
from gpucheck.report.privacy import redact_machine
from gpucheck.verdict import verdict_colour, verdict_label

# Countries whose paper is US Letter (CLDR supplemental data, <paperSize type="US-Letter" territories=…>).
LETTER_TERRITORIES = frozenset("BZ CA CL CO CR GT MX NI PA PH PR SV US VE".split())

# Colours of the memory chart: one per part of the breakdown (gpucheck.report.figures, as in the app).
CHART_COLORS = {key: colour for key, _attr, _label, colour in BREAKDOWN_PARTS}
CHART_COLORS.update({"available": verdict_colour("runs"), "missing": verdict_colour("does_not_fit")})


# -- the model ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # per row: a verdict id (colours the verdict cell) or ""; same length as rows when given
    row_verdicts: tuple[str, ...] = ()
    verdict_column: int = -1


@dataclass(frozen=True)
class FindingLine:
    severity: str  # info | ok | unknown | warning | error
    severity_text: str
    area_text: str
    message: str


@dataclass(frozen=True)
class ChartPart:
    key: str  # weights | gradients | optimizer | activations | overhead
    label: str
    bytes: int
    text: str  # "12.3 GB"
    color: str


@dataclass(frozen=True)
class MemoryChart:
    """Stacked bar of what a job needs next to a bar of what the GPU has (per GPU)."""

    title: str
    parts: tuple[ChartPart, ...]
    need_bytes: int
    need_label: str
    have_bytes: int | None
    have_label: str
    scale_bytes: int  # the longer of the two bars: both are drawn against it
    caption: str


@dataclass(frozen=True)
class AlternativeSection:
    """The smaller model that fits when the job asked for does not, with the changes it needs."""

    workload_id: str
    headline: str  # its name, what it needs per GPU, how long it takes ("" when nothing tried fits)
    tweaks: Table  # change / what it costs
    snippet: str  # its settings as code
    others: tuple[str, ...] = ()  # the other methods / models tried (LoRA, QLoRA, smaller model), one line each


@dataclass(frozen=True)
class JobSection:
    workload_id: str
    title: str
    verdict: str
    verdict_text: str
    headline: str
    figures: Table  # label / value
    chart: MemoryChart | None
    tweaks: Table | None
    snippet: str  # settings to copy (Python), "" when nothing changes
    bottlenecks: tuple[str, ...]
    software: tuple[str, ...]
    upgrades: Table | None
    cloud: Table | None
    buy_vs_rent: tuple[str, ...]
    notes: tuple[str, ...]
    tweaks_title: str = ""  # heading of `tweaks` when it differs from the report's ("tried, not enough")
    speed_intro: str = ""
    speed_tweaks: Table | None = None  # optional changes that finish a job that runs sooner, each on its own
    speed_settings: str = ""  # their settings to copy: "# title" then "key=value, …", one pair of lines each
    alternative: AlternativeSection | None = None
    options: tuple[OptionPoint, ...] = ()  # this PC, with the changes, upgrades, cloud: time against money
    options_headings: tuple[str, str, str, str] = ("", "", "", "")
    options_title: str = ""
    changes: str = ""  # over the changes: "With these changes: 19.3 GB → 11.4 GB of 11.7 GB; 2.3–5.2 h, …"


@dataclass(frozen=True)
class Evaluation:
    """One workload with its estimate and advice, as returned by the estimator and the advice."""

    workload: Any  # records.Workload
    estimate: Any  # records.Estimate
    advice: Any | None = None  # advise.Advice
    detailed: bool = True
    trial: Any | None = None  # gpucheck.trial.TrialResult of these settings on this PC: its figures say "measured"


@dataclass(frozen=True)
class ReportModel:
    lang: str
    paper: str  # a4 | letter
    include_ids: bool
    title: str
    subtitle: str
    generated_at: str  # ISO 8601 UTC
    generated_text: str
    app_version: str
    header_text: str  # printed at the top of every PDF page
    footer_text: str
    intro: str
    machine: Machine  # redacted unless include_ids
    machine_table: Table
    gpu_table: Table | None
    findings: tuple[FindingLine, ...]
    ladder: Table | None
    ladder_note: str
    jobs: tuple[JobSection, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]
    glossary: tuple[tuple[str, str], ...]
    disclaimer: str
    evaluations: tuple[Evaluation, ...] = ()
    software: tuple[str, ...] = ()  # software to fix, once for the whole report
    section_titles: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)


# -- helpers ---------------------------------------------------------------------------------------


def default_paper(env: dict[str, str] | None = None) -> str:
    """'letter' where the locale's territory uses US Letter (en_US, en_CA, es_MX …), else 'a4'.

    LC_PAPER, LC_ALL, LANG in that order; a C/POSIX locale says nothing about paper (A4, the world's
    default). Without those variables (Windows, apps started from a macOS Dock) the OS locale decides.
    """
    env = os.environ if env is None else env
    for var in ("LC_PAPER", "LC_ALL", "LANG"):
        raw = env.get(var)
        if raw:
            territory = _territory(raw)
            if territory:
                return "letter" if territory in LETTER_TERRITORIES else "a4"
            return "a4"
    territory = _territory(_os_locale_name() or "")
    return "letter" if territory in LETTER_TERRITORIES else "a4"


def _os_locale_name() -> str | None:
    """'en-US' / 'en_US' from the operating system, or None."""
    if sys.platform == "win32":
        try:
            buf = ctypes.create_unicode_buffer(85)
            if ctypes.windll.kernel32.GetUserDefaultLocaleName(buf, 85):  # type: ignore[attr-defined]
                return buf.value
        except (OSError, AttributeError):
            return None
        return None
    try:
        return locale.getlocale()[0]
    except (ValueError, TypeError):
        return None


def _territory(value: str) -> str | None:
    v = value.split(".")[0].split("@")[0].replace("-", "_")
    parts = v.split("_")
    if len(parts) >= 2 and len(parts[-1]) == 2 and parts[-1].isalpha():
        return parts[-1].upper()
    return None


def workload_title(workload: Any, lang: str) -> str:
    if lang == "zh_CN" and getattr(workload, "title_zh", ""):
        return workload.title_zh
    return workload.title


def verdict_text(verdict: str) -> str:
    """The one label of a verdict (gpucheck.verdict), as the app and the CLI show it."""
    return verdict_label(verdict)


def severity_text(severity: str) -> str:
    texts = {
        "info": tr("Note"),
        "ok": tr("Good"),
        "unknown": tr("Unknown"),
        "warning": tr("Warning"),
        "error": tr("Problem"),
    }
    return texts.get(severity, severity)


def area_text(area: str) -> str:
    texts = {
        "gpu": tr("GPU"),
        "cpu": tr("CPU"),
        "memory": tr("Memory (RAM)"),
        "disk": tr("Disk"),
        "power": tr("Power"),
        "software": tr("Software"),
        "scan": tr("Scan"),
    }
    return texts.get(area, area)


def backend_text(backend: str) -> str:
    texts = {
        "cuda": "CUDA",
        "rocm": "ROCm",
        "metal": "Metal (MPS)",
        "xpu": "Intel XPU",
        "directml": "DirectML",
        "none": tr("none"),
        "unknown": tr("unknown"),
    }
    return texts.get(backend, backend)


def _disk_kind_text(kind: str) -> str:
    texts = {
        "nvme": tr("NVMe SSD"),
        "ssd": tr("SSD"),
        "hdd": tr("hard disk"),
        "virtual": tr("virtual disk"),
        "network": tr("network drive"),
        "removable": tr("removable drive"),
        "unknown": tr("unknown kind"),
    }
    return texts.get(kind, kind)


# -- machine -----------------------------------------------------------------------------------------


def machine_table(machine: Machine, include_ids: bool) -> Table:
    rows: list[tuple[str, str]] = []
    sw = machine.software
    if include_ids and machine.hostname:
        rows.append((tr("Computer name"), machine.hostname))
    os_text = " ".join(x for x in (sw.os_name, sw.os_version) if x) or tr("unknown")
    if sw.platform == "wsl":
        os_text = tr("{os} (WSL)", os=os_text)
    rows.append((tr("Operating system"), os_text))
    cpu = machine.cpu
    cores = tr("{physical} cores / {logical} threads",
               physical=cpu.physical_cores if cpu.physical_cores is not None else "?",
               logical=cpu.logical_cores if cpu.logical_cores is not None else "?")
    rows.append((tr("Processor (CPU)"), f"{cpu.brand or tr('unknown')} — {cores}"))
    mem = machine.memory
    ram = tr("{total} total, {available} free when scanned",
             total=fmt_gib(mem.total_bytes), available=fmt_gib(mem.available_bytes))
    if mem.shared_with_gpu:
        ram = tr("{ram} (shared with the GPU)", ram=ram)
    rows.append((tr("Memory (RAM)"), ram))
    compute = machine.compute_gpus()
    if not machine.gpus:
        rows.append((tr("Graphics (GPU)"), tr("none found")))
    else:
        for g in machine.gpus:
            mark = tr(" (used for training)") if g in compute and len(machine.gpus) > 1 else ""
            rows.append((tr("Graphics (GPU)"), tr("{name}, {vram} video memory, {backend}{mark}", name=g.name,
                                                  vram=fmt_gib(g.vram_total_bytes), backend=backend_text(g.backend),
                                                  mark=mark)))
    drivers = []
    if sw.nvidia_driver_version:
        drivers.append(tr("NVIDIA driver {v}", v=sw.nvidia_driver_version))
    if sw.cuda_driver_version:
        drivers.append(tr("CUDA {v} supported by the driver", v=sw.cuda_driver_version))
    if sw.rocm_version:
        drivers.append(tr("ROCm {v}", v=sw.rocm_version))
    if drivers:
        rows.append((tr("GPU software"), fmt_list(drivers, strong=True)))
    for fw in sw.frameworks:
        variant = f" ({fw.variant})" if fw.variant else ""
        gpu_ok = {True: tr("can use the GPU"), False: tr("cannot use the GPU"), None: ""}[fw.can_use_gpu]
        text = f"{fw.name} {fw.version}{variant}" + (f" — {gpu_ok}" if gpu_ok else "")
        rows.append((tr("AI framework"), text))
    for d in machine.disks:
        rows.append((tr("Disk"), tr("{mount}: {kind}, {free} free of {total}", mount=d.mount,
                                    kind=_disk_kind_text(d.kind), free=fmt_gib(d.free_bytes, 0),
                                    total=fmt_gib(d.total_bytes, 0))))
    pw = machine.power
    if pw.is_laptop is not None:
        kind = tr("server") if pw.is_server else tr("laptop") if pw.is_laptop else tr("desktop")
        if pw.on_battery:
            kind = tr("{kind}, running on battery", kind=kind)
        rows.append((tr("Computer type"), kind))
    if pw.is_server and pw.estimated_peak_system_w:
        rows.append((tr("Power supply"), tr("redundant supplies sized by the server's vendor (estimated peak {peak})",
                                            peak=f"{pw.estimated_peak_system_w:,.0f} W")))
    elif pw.recommended_psu_w:
        rows.append((tr("Power supply"), tr("at least {w} W recommended (estimated peak {peak})",
                                            w=pw.recommended_psu_w,
                                            peak=f"{pw.estimated_peak_system_w:,.0f} W"
                                            if pw.estimated_peak_system_w else tr("unknown"))))
    when = fmt_timestamp(machine.created_at)  # Beijing time in Chinese, UTC in English
    rows.append((tr("Scanned"), tr("{when} by gpucheck {version}", when=when,
                                   version=machine.app_version or tr("unknown"))))
    return Table(headers=(tr("Part"), tr("What this computer has")), rows=tuple(rows))


def gpu_table(machine: Machine, include_ids: bool) -> Table | None:
    if not machine.gpus:
        return None
    headers = [tr("GPU"), tr("Video memory"), tr("Free memory"), tr("Compute API"), tr("Driver")]
    if include_ids:
        headers.append(tr("UUID"))
    rows = []
    for g in machine.gpus:
        row = [g.name, fmt_gib(g.vram_total_bytes), fmt_gib(g.vram_free_bytes), backend_text(g.backend),
               g.driver_version or tr("unknown")]
        if include_ids:
            row.append(g.uuid or tr("unknown"))
        rows.append(tuple(row))
    return Table(headers=tuple(headers), rows=tuple(rows))


def finding_lines(machine: Machine) -> tuple[FindingLine, ...]:
    order = {"error": 0, "warning": 1, "unknown": 2, "info": 3, "ok": 4}
    items = sorted(machine.findings, key=lambda f: order.get(f.severity, 5))
    # in the report's language, whatever language the scan ran in (older scans: as rendered then)
    return tuple(FindingLine(f.severity, severity_text(f.severity), area_text(f.area), finding_text(f))
                 for f in items)


# -- estimates and advice ------------------------------------------------------------------------------


def precision_text(train: Any, precision_used: str = "") -> str:
    """The precision the estimate uses, and the job's own when the hardware changes it ('BF16 (the job sets
    FP16)' on a CPU): the app's Precision box and the report's settings row say the same."""
    used = precision_used or train.precision
    if used == train.precision:
        return precision_label(used)
    return tr("{used} (the job sets {set})", used=precision_label(used), set=precision_label(train.precision))


def _settings_text(train: Any, precision_used: str = "", arch: str = "transformer") -> str:
    if train is None:
        return tr("unknown")
    method = method_label(train.method, getattr(train, "from_scratch", False))
    parts = [method, precision_text(train, precision_used),
             tr("batch {n}", n=train.batch)]
    if train.seq_len:
        parts.append(tr("sequence length {n}", n=train.seq_len))
    if train.image_size:
        parts.append(tr("image size {n}", n=train.image_size))
    parts.append(optimizer_label(train.optimizer))
    if train.grad_checkpointing:
        parts.append(tr("gradient checkpointing"))
    if getattr(train, "grad_accum", 1) and train.grad_accum > 1:
        parts.append(tr("gradient accumulation ×{n}", n=train.grad_accum))
    parts += _advanced_settings(train, arch)
    return fmt_list(parts, strong=False) if get_language() != "zh_CN" else "，".join(parts)


def _advanced_settings(train: Any, arch: str = "transformer") -> list[str]:
    """LoRA targets, ZeRO stage, CPU offload and packing, when set (the app's and the CLI's settings)."""
    parts = []
    if train.method in ("lora", "qlora"):
        parts.append(tr("LoRA on {targets}", targets=lora_targets_label(train.lora_targets, arch)))
    stage = 3 if train.shard else train.zero_stage
    if stage:
        parts.append(tr("DeepSpeed ZeRO-{n}", n=stage))
    if train.cpu_offload:
        parts.append(tr("CPU offload"))
    if train.packing:
        parts.append(tr("sequence packing"))
    return parts


def final_verdict(ev: Evaluation) -> str:
    if ev.trial is not None:  # a trial's measurement settles the verdict (gpucheck.report.measured)
        return str(evaluation_figures(ev).verdict)
    return str(ev.advice.verdict if ev.advice is not None else ev.estimate.verdict)


def evaluation_measured(ev: Evaluation):
    """What a trial measured of this job on this PC (None: no trial, or not for these settings / device)."""
    return measured_of(ev.trial, ev.workload, ev.estimate)


def evaluation_figures(ev: Evaluation, installed_vram_bytes: int | None = None):
    """The job's memory and time as every view shows them (gpucheck.report.figures), measured where a trial
    measured them."""
    return apply_measured(job_figures(ev.estimate, ev.advice, installed_vram_bytes), evaluation_measured(ev))


def ladder_table(evaluations: tuple[Evaluation, ...], lang: str, installed_vram_bytes: int | None = None
                 ) -> Table | None:
    """Every job: verdict, memory as configured → with the changes, and the time of those same settings."""
    if not evaluations:
        return None
    rows, verdicts = [], []
    for ev in evaluations:
        fig = evaluation_figures(ev, installed_vram_bytes)
        rows.append((str(ev.workload.level or "—"), workload_title(ev.workload, lang),
                     measured_verdict_label(fig.verdict, fig.measured), need_caption(fig), time_text(fig)))
        verdicts.append(fig.verdict)
    all_cpu = all(ev.estimate.on_cpu for ev in evaluations)
    heading = (tr("RAM: as configured → with the changes") if all_cpu
               else tr("VRAM: as configured → with the changes"))
    return Table(headers=(tr("Level"), tr("Training job"), tr("Verdict"), heading, tr("Time (with the changes)")),
                 rows=tuple(rows), row_verdicts=tuple(verdicts), verdict_column=2)


def memory_chart(est: Any) -> MemoryChart:
    b = est.breakdown
    parts = tuple(ChartPart(key, tr(label), int(getattr(b, attr)), fmt_gib(getattr(b, attr)), colour)
                  for key, attr, label, colour in BREAKDOWN_PARTS)
    need = int(est.peak_vram_bytes)
    have = est.vram_available_bytes
    scale = max(need, have or 0, sum(p.bytes for p in parts), 1)
    if have is None:
        caption = tr("As configured it needs {need} per GPU; the video memory available is unknown.",
                     need=fmt_gib(need))
    elif need <= have:
        caption = tr("As configured it needs {need} of the {have} available per GPU.",
                     need=fmt_gib(need), have=fmt_gib(have))
    else:
        caption = tr("As configured it needs {need} but only {have} is available per GPU: "
                     "{missing} short.", need=fmt_gib(need), have=fmt_gib(have), missing=fmt_gib(need - have))
    return MemoryChart(title=tr("Video memory (VRAM) per GPU, as configured"), parts=parts, need_bytes=need,
                       need_label=tr("Needed"), have_bytes=have, have_label=tr("Available"), scale_bytes=scale,
                       caption=caption)


def _money(usd: float | None, cny: float | None, free: bool = False) -> str:
    if free:
        return tr("free")
    return shop_price_text(usd, cny)


def _as_of(as_of: str, verified: bool = True, inline: bool = False) -> str:
    """'2025-06-01 (unverified)'; inline=True inside brackets of its own: '2025-06-01, unverified'."""
    text = as_of or tr("unknown")
    if verified:
        return text
    return tr("{date}, unverified", date=text) if inline else tr("{date} (unverified)", date=text)


def _tweaks_table(adv: Any) -> Table | None:
    if adv is None or not adv.tweaks:
        return None
    rows = []
    for i, t in enumerate(adv.tweaks, 1):
        rows.append((f"{i}. {t.title}", t.cost, fmt_gib(t.peak_vram_bytes),
                     fmt_duration(t.total_hours) if t.total_hours is not None else "—"))
    return Table(headers=(tr("Change"), tr("What it costs"), tr("VRAM after"), tr("Time after")), rows=tuple(rows))


def _speed_table(adv: Any) -> Table | None:
    if adv is None or not worth_speeding_up(adv):
        return None
    rows = tuple((t.title, t.cost, fmt_gib(t.peak_vram_bytes),
                  fmt_duration(t.total_hours) if t.total_hours is not None else "—") for t in worth_speeding_up(adv))
    return Table(headers=(tr("Change"), tr("Trade-off"), tr("VRAM with it"), tr("Time with it")), rows=rows)


def _speed_settings(adv: Any) -> str:
    if adv is None or not worth_speeding_up(adv):
        return ""
    return "\n".join(f"# {t.title}\n{settings_text(t.settings)}" for t in worth_speeding_up(adv) if t.settings)


def _alternative_section(adv: Any) -> AlternativeSection | None:
    """What fits instead: the first that fits with its changes and settings, then the others tried."""
    if adv is None or (adv.alternative is None and not adv.alternatives):
        return None
    alt = adv.alternative
    rows = tuple((f"{i}. {t.title}", t.cost) for i, t in enumerate(alt.tweaks, 1)) if alt is not None else ()
    return AlternativeSection(workload_id=alt.workload_id if alt is not None else "",
                              headline=alternative_text(alt) if alt is not None else "",
                              tweaks=Table(headers=(tr("Change"), tr("What it costs")), rows=rows),
                              snippet=alt.snippet if alt is not None else "", others=alternative_lines(adv))


def _upgrades_table(adv: Any) -> Table | None:
    if adv is None or not adv.upgrades:
        return None
    rows = []
    for u in adv.upgrades:
        why = fmt_list((u.reason, *u.notes), strong=True)  # '；' between notes in Chinese
        rows.append((u.name, why, _money(u.price_usd, u.price_cny),
                     fmt_duration(u.total_hours) if u.total_hours is not None else "—", _as_of(u.as_of, u.verified)))
    return Table(headers=(tr("Part"), tr("Why"), tr("Price"), tr("Job time with it"), tr("Price date")),
                 rows=tuple(rows))


def _cloud_table(adv: Any) -> Table | None:
    if adv is None or not adv.cloud:
        return None
    rows = []
    for c in adv.cloud:
        provider = c.provider  # a spot offer's "can be stopped" is said once, in its notes (market.py)
        gpus = tr("{n} × {gpu}", n=c.gpus, gpu=c.gpu_name)
        if c.sharding:
            gpus = tr("{gpus}, {how}", gpus=gpus, how=sharding_text(c.sharding))
        rows.append((cloud_label(c.label), provider, gpus, cloud_rate_text(c),
                     fmt_duration(c.total_hours) if c.total_hours is not None else "—",
                     cloud_cost_text(c), _as_of(c.as_of, c.verified), c.note or "—"))
    sites = unlisted_clouds(adv)  # mainland China: the domestic sites with no sourced price, named, never priced
    if sites:
        rows.append((tr("Also used there"), fmt_list([localized(u, "provider") for u in sites]), "—", "—", "—", "—",
                     "—", tr("{sites}. Prices not listed: check on the site (not verified)", sites=fmt_list(
                         [tr("{provider} — {what}", provider=localized(u, "provider"), what=localized(u, "known_for"))
                          for u in sites], strong=True))))
    return Table(headers=(tr("Option"), tr("Provider"), tr("GPUs"), tr("Per GPU-hour"), tr("Time"),
                          tr("Whole run"), tr("Price date"), tr("Good to know")), rows=tuple(rows))


def _job_section(ev: Evaluation, lang: str, installed_vram_bytes: int | None = None) -> JobSection:
    est, w, adv = ev.estimate, ev.workload, ev.advice
    verdict = final_verdict(ev)
    on_gpu = not est.on_cpu
    fig = evaluation_figures(ev, installed_vram_bytes)
    measured = fig.measured  # a trial measured it on this PC: its figures say "measured"
    tight = tight_advice(adv, est.train) if measured is None else ""  # "Tight: may fit — try it; if it runs out of memory, …"
    figures = [
        (tr("Verdict"), tr("{verdict} — {advice}.", verdict=verdict_text(verdict), advice=tight) if tight
         else measured_verdict_label(verdict, measured)),
        (tr("Settings as configured"), _settings_text(est.train, getattr(est, "precision_used", ""), w.model.arch)),
        (tr("Hardware"), tr("{n} × {gpu}", n=est.gpus, gpu=est.gpu_name) if on_gpu
         else tr("the CPU (no usable GPU)")),
        (memory_label(fig), memory_value(fig)),
        (tr("RAM needed"), fmt_gib(est.ram_bytes)),
        (tr("Disk space needed"), fmt_gib(est.disk_bytes)),
        (tr("Speed as configured"), (speed_value(est, measured) or "—") if fig.hours is not None else "—"),
        (tr("Training time"), time_value(fig)),
        (tr("Data"), tr("{samples} samples × {epochs} epochs", samples=fmt_number(w.data.samples, 0),
                        epochs=f"{w.data.epochs:g}")),
    ]
    if fig.shown_range is not None:  # the likely range and the software stack the time assumes
        figures.insert(8, ((tr("Likely time with the changes (P10–P90)") if fig.changed else
                            tr("Likely time with this PC's CPU and disk limits (P10–P90)")) if fig.range_is_advised
                           else tr("Likely time (P10–P90)"), time_range_text(fig)))
    if fig.shown_hours is not None and fig.stack:
        figures.insert(9 if fig.shown_range is not None else 8, (tr("Software stack"), stack_text(fig.stack)))
    if est.tokens_per_second and fig.hours is not None:
        figures.insert(7, (tr("Tokens per second"), fmt_number(est.tokens_per_second, 0)))
    if est.measured_inputs:
        figures.append((tr("Based on"), tr("speeds measured on this computer")))
    if est.calibrated:
        figures.append((tr("Speed"), calibrated_text(est.calibrated)))
    if measured is not None:  # the trial's figures beside the estimate, after the training time
        at = [k for k, _v in figures].index(tr("Training time")) + 1
        figures[at:at] = [(tr("Measured on this PC"), measured_summary(measured)), *measured_rows(measured)]
    bottlenecks: list[str] = []
    software: list[str] = []
    notes = job_notes(est, adv)  # the estimate's (as configured), then the advice's: as on the details page
    if adv is not None:
        for b in adv.bottlenecks:
            bottlenecks.append(tr("{problem} What to do: {fix}", problem=b.message, fix=b.fix) if b.fix
                               else b.message)
    return JobSection(
        workload_id=w.id, title=workload_title(w, lang), verdict=verdict,
        verdict_text=measured_verdict_label(verdict, measured),
        headline=measured_headline(measured, verdict) if measured is not None
        else (adv.summary if adv is not None else ""),
        figures=Table(headers=(tr("Item"), tr("Estimate") if measured is None else tr("Estimate and measurement")),
                      rows=tuple(figures)),
        chart=memory_chart(est) if on_gpu else None,
        tweaks=_tweaks_table(adv),
        snippet=adv.snippet if adv is not None and adv.tweaks else "",
        bottlenecks=tuple(bottlenecks),
        software=tuple(software),
        upgrades=_upgrades_table(adv),
        cloud=_cloud_table(adv),
        buy_vs_rent=(adv.buy_vs_rent.message,) if adv is not None and adv.buy_vs_rent is not None else (),
        notes=tuple(notes),
        tweaks_title=tr("Settings tried: not enough on this GPU")
        if adv is not None and adv.verdict == "does_not_fit" and adv.tweaks else "",
        speed_intro=speed_intro(worth_speeding_up(adv)) if worth_speeding_up(adv) else "",
        speed_tweaks=_speed_table(adv),
        speed_settings=_speed_settings(adv),
        alternative=_alternative_section(adv),
        options=option_points(est, adv, tr("{n} × {gpu}", n=est.gpus, gpu=est.gpu_name) if est.gpus > 1
                              else (est.gpu_name if on_gpu else tr("this PC's CPU")), fig),
        options_headings=options_headings(),
        options_title=tr("Your options for this job: time against money"),
        changes=changes_sentence(fig) if adv is not None and adv.tweaks else "",
    )


def software_lines(evaluations: tuple[Evaluation, ...]) -> tuple[str, ...]:
    """Software to fix, said once for the whole report (the same PyTorch command is not repeated per job)."""
    out: list[str] = []
    for ev in evaluations:
        if ev.advice is None or not ev.detailed:
            continue
        for f in ev.advice.software:
            # the command on a line of its own: the reports print it as code to copy, never inside prose
            line = f.message.rstrip() + ("\n" + f.command if f.command else "")
            if line not in out:
                out.append(line)
    return tuple(out)


def evaluate(machine: Machine, workload_ids: list[str] | tuple[str, ...] | None = None) -> tuple[Evaluation, ...]:
    """Estimate and advice for every built-in job (and any extra job named in `workload_ids`).

    The ladder in the report shows every job; `workload_ids` (None = all) picks the ones detailed.
    """
    ladder = list(load_workloads())
    chosen: set[str] | None = None
    if workload_ids:
        chosen = set()
        for wid in workload_ids:
            w = get_workload(wid)  # raises UnknownName with suggestions
            chosen.add(w.id)
            if all(x.id != w.id for x in ladder):
                ladder.append(w)
    target = est_mod.Target.from_machine(machine)
    out = []
    for w in ladder:
        est = est_mod.estimate(w, target)
        adv = advise(machine, w, target, est)
        out.append(Evaluation(workload=w, estimate=est, advice=adv, detailed=chosen is None or w.id in chosen))
    return tuple(out)


# -- assumptions, sources, glossary -----------------------------------------------------------------------


def _assumptions(evaluations: tuple[Evaluation, ...]) -> tuple[str, ...]:
    out = [
        tr("Every figure is an estimate from published specifications and formulas, not a measurement of "
           "your job; real runs differ with the software version, data and settings."),
        tr("VRAM is the memory on the graphics card. A job whose peak need is above what is available stops "
           "with an \"out of memory\" error."),
        tr("Training time assumes the GPU runs at the typical efficiency given in the sources below, "
           "with the data loading keeping up."),
    ]
    by_text: dict[str, list[str]] = {}  # each job's own assumptions, labelled with the jobs they are for
    for ev in evaluations:
        for a in ev.estimate.assumptions:
            by_text.setdefault(a, []).append(workload_title(ev.workload, get_language()))
    for a, jobs in by_text.items():
        label = fmt_list(jobs)  # the jobs by name: "8 jobs" leaves the reader to guess which
        out.append(tr("{jobs}: {assumption}", jobs=label, assumption=a))
    return tuple(out)


def _sources(evaluations: tuple[Evaluation, ...], machine: Machine) -> tuple[str, ...]:
    out: list[str] = []

    def add(text: str) -> None:
        if text and text not in out:
            out.append(text)

    for g in machine.compute_gpus():
        spec = gpu_for(g)
        if spec is not None and spec.source:
            add(tr("{name}: {source} (as of {date})", name=spec.name, source=spec.source,
                   date=spec.as_of or tr("unknown")))
    for ev in evaluations:
        if not ev.detailed:
            continue
        if ev.workload.source:
            add(tr("{name}: {source}", name=workload_title(ev.workload, get_language()), source=ev.workload.source))
        adv = ev.advice
        if adv is None:
            continue
        for u in adv.upgrades:
            if u.source:
                add(tr("{name}: {source} (as of {date})", name=u.name, source=u.source,
                       date=_as_of(u.as_of, u.verified, inline=True)))
        for c in adv.cloud:
            if c.url:
                add(tr("{name}: {source} (as of {date})", name=f"{c.provider} {c.gpu_name}", source=c.url,
                       date=_as_of(c.as_of, c.verified, inline=True)))
        for u in unlisted_clouds(adv):
            add(tr("{name}: {source} (as of {date})", name=localized(u, "provider"), source=f"{u.url}; {u.source}",
                   date=_as_of(u.as_of, False, inline=True)))
    return tuple(out)


def glossary() -> tuple[tuple[str, str], ...]:
    return (
        (tr("VRAM (video memory)"),
         tr("The memory on the graphics card. The model, its gradients, the optimizer state and the "
            "activations of a batch must all fit in it at the same time.")),
        (tr("GPU"), tr("The graphics card's processor. Training runs on it many times faster than on the CPU.")),
        (tr("CUDA / ROCm / Metal"),
         tr("The software layers through which training frameworks use NVIDIA (CUDA), AMD (ROCm) and "
            "Apple (Metal) GPUs.")),
        (tr("Mixed precision (FP16 / BF16)"),
         tr("Computing in 16-bit numbers instead of 32-bit: about half the memory for activations and much "
            "faster on GPUs with tensor cores. BF16 needs an RTX 30-series, A100 or newer.")),
        (tr("Batch size"), tr("How many samples the GPU processes in one step. Larger batches need more VRAM.")),
        (tr("Gradient accumulation"),
         tr("Adding up the gradients of several small batches before each update: the effect of a large "
            "batch with the memory of a small one, at the same speed per sample.")),
        (tr("Gradient checkpointing"),
         tr("Keeping only some activations and recomputing the rest when needed: much less VRAM for "
            "about 20–30% more training time.")),
        (tr("LoRA"),
         tr("Fine-tuning only small added matrices instead of the whole model: far fewer gradients and "
            "optimizer state, so far less VRAM.")),
        (tr("QLoRA"),
         tr("LoRA on a model whose weights are stored in 4 bits: a large model fits on a consumer GPU.")),
        (tr("Optimizer state"),
         tr("What the optimizer remembers per parameter. AdamW keeps two numbers per parameter; 8-bit AdamW "
            "stores them in a quarter of the space.")),
        (tr("Epoch"), tr("One pass over the whole training data set.")),
        (tr("Out of memory (OOM)"),
         tr("The error a job stops with when it needs more VRAM than the GPU has.")),
    )


# -- the builder ----------------------------------------------------------------------------------------


def _subtitle(shown: Machine) -> str:
    gpus = shown.compute_gpus()
    if gpus:
        gpu_names = ", ".join(dict.fromkeys(g.name for g in gpus))
        return tr("{count} × {gpu} — {ram} RAM", count=len(gpus), gpu=gpu_names,
                  ram=fmt_gib(shown.memory.total_bytes, 0))
    return tr("No GPU for training found — {ram} RAM", ram=fmt_gib(shown.memory.total_bytes, 0))


def _intro(evaluations: tuple[Evaluation, ...]) -> str:
    """How many jobs run, may fit, run with changes, and do not."""
    if not evaluations:
        return tr("No training jobs were checked.")
    counts: dict[str, int] = {}
    for ev in evaluations:
        verdict = final_verdict(ev)
        counts[verdict] = counts.get(verdict, 0) + 1
    trains = counts.get("runs", 0) + counts.get("tight", 0) + counts.get("runs_with_tweaks", 0)
    return tr("Of {total} training jobs checked, {runs} run as they are, {tight} may just fit (tight), "
              "{tweaks} run after changing settings, and {no} do not fit or are too slow on this computer.",
              total=len(evaluations), runs=counts.get("runs", 0), tight=counts.get("tight", 0),
              tweaks=counts.get("runs_with_tweaks", 0), no=len(evaluations) - trains)


def _section_titles() -> dict[str, str]:
    return {
        "machine": tr("This computer"),
        "gpus": tr("Graphics cards"),
        "findings": tr("What the scan found"),
        "ladder": tr("The training ladder"),
        "jobs": tr("Training jobs in detail"),
        "tweaks": tr("Settings to change"),
        "snippet": tr("The same changes as code (Hugging Face Transformers)"),
        "speed": tr("Optional: finish sooner"),
        "speed_settings": tr("Their settings, to copy (Hugging Face names)"),
        "alternative": tr("What fits instead: another method or a smaller model"),
        "alternative_snippet": tr("Its settings as code (Hugging Face Transformers)"),
        "software": tr("Software to fix (for every job)"),
        "bottlenecks": tr("What slows it down"),
        "upgrades": tr("Upgrades"),
        "cloud": tr("Rent a cloud GPU"),
        "buy_vs_rent": tr("Buy or rent?"),
        "notes": tr("Notes"),
        "assumptions": tr("Assumptions"),
        "sources": tr("Sources of the numbers"),
        "glossary": tr("Glossary"),
    }


def _labels(generated_text: str) -> dict[str, str]:
    return {
        "no_findings": tr("Nothing to report."),
        "no_changes": tr("Nothing to change: it runs with the settings above."),
        "no_change_enough": tr("No change of settings is enough here; see the upgrades and cloud GPUs "
                               "below."),
        "kind": tr("Kind"),
        "area": tr("Area"),
        "finding": tr("Finding"),
        "none": tr("None."),
        "page": tr("Page {page} of {pages}"),
        "generated": generated_text,
    }


def build_report(
    machine: Machine,
    workload_ids: list[str] | tuple[str, ...] | None = None,
    lang: str | None = None,
    include_ids: bool = False,
    paper: str | None = None,
    evaluations: tuple[Evaluation, ...] | None = None,
    now: _dt.datetime | None = None,
) -> ReportModel:
    """The report for `machine`: the whole ladder, with details for `workload_ids` (all by default).

    `evaluations` lets a caller that already has estimates and advice (the wizard) pass them in;
    otherwise they are computed with gpucheck.estimate / gpucheck.advise. Nothing here writes files.
    """
    lang = normalize_lang(lang) or get_language()
    paper = (paper or default_paper()).lower()
    if paper not in ("a4", "letter"):
        raise BadInput(tr("unknown paper size '{paper}' (expected a4 or letter)", paper=paper))
    shown = machine if include_ids else redact_machine(machine)
    if evaluations is None:
        with use_language(lang):  # the estimate's notes and the advice are rendered in the report's language
            evaluations = evaluate(machine, workload_ids)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    generated_at = now.astimezone(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    with use_language(lang):
        title = tr("Can this computer train AI models?")
        subtitle = _subtitle(shown)
        generated_text = tr("Report made on {date} with gpucheck {version}",
                            date=fmt_time_of_day(now),
                            version=__version__)
        detailed = tuple(ev for ev in evaluations if ev.detailed)
        compute = machine.compute_gpus()
        installed = compute[0].vram_total_bytes if compute else None
        model = ReportModel(
            lang=lang,
            paper=paper,
            include_ids=include_ids,
            title=title,
            subtitle=subtitle,
            generated_at=generated_at,
            generated_text=generated_text,
            app_version=__version__,
            header_text=tr("gpucheck report — {subtitle}", subtitle=subtitle),
            footer_text=tr("Estimates, not measurements.") if not any(evaluation_measured(ev) for ev in evaluations)
            else tr("Estimates, except figures marked \"measured\" (trial runs on this computer)."),
            intro=_intro(tuple(evaluations)),
            machine=shown,
            machine_table=machine_table(shown, include_ids),
            gpu_table=gpu_table(shown, include_ids),
            findings=finding_lines(shown),
            ladder=ladder_table(tuple(evaluations), lang, installed),
            ladder_note=tr("The ladder goes from the easiest job (level 1) to the hardest. Memory reads \"as "
                           "configured → with the changes\"; the time is that of the settings with the changes "
                           "(the ones the verdict is for), on this computer."),
            jobs=tuple(_job_section(ev, lang, installed) for ev in detailed),
            software=software_lines(tuple(evaluations)),
            assumptions=_assumptions(tuple(evaluations)),
            sources=_sources(tuple(evaluations), machine),
            glossary=glossary(),
            disclaimer=tr("gpucheck estimates from published figures. Check the prices on the provider's "
                          "page before you rent or buy: they change every month."),
            evaluations=tuple(evaluations),
            section_titles=_section_titles(),
            labels=_labels(generated_text),
        )
    return model


__all__ = [
    "ReportModel", "Table", "FindingLine", "MemoryChart", "ChartPart", "JobSection", "AlternativeSection",
    "Evaluation",
    "build_report", "evaluate", "default_paper", "glossary", "machine_table", "final_verdict",
    "verdict_text", "backend_text", "workload_title",
]
