"""The report's job sections: one job's verdict, figures, memory chart, changes, upgrades and cloud GPUs,
and the ladder of every job.

Pure: no Qt, no file I/O. Numbers are never computed here; they are formatted from what
`gpucheck.estimate` and `gpucheck.advise` return (through gpucheck.report.figures, as in the app).
"""

from __future__ import annotations

from typing import Any

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
from gpucheck.estimate.calibration import calibrated_text
from gpucheck.i18n import (
    fmt_duration,
    fmt_gib,
    fmt_list,
    fmt_number,
    get_language,
    localized,
    lora_targets_label,
    method_label,
    optimizer_label,
    precision_label,
    tr,
)
from gpucheck.report.figures import (
    BREAKDOWN_PARTS,
    alternative_lines,
    changes_sentence,
    job_figures,
    job_notes,
    memory_label,
    memory_value,
    need_caption,
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
from gpucheck.report.model import (
    AlternativeSection,
    ChartPart,
    Evaluation,
    JobSection,
    MemoryChart,
    Table,
    verdict_text,
    workload_title,
)
from gpucheck.report.option_points import option_points, options_headings
from gpucheck.verdict import verdict_colour

# Colours of the memory chart: one per part of the breakdown (gpucheck.report.figures, as in the app).
CHART_COLORS = {key: colour for key, _attr, _label, colour in BREAKDOWN_PARTS}
CHART_COLORS.update({"available": verdict_colour("runs"), "missing": verdict_colour("does_not_fit")})


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
        provider = c.provider  # a spot offer's "can be stopped" is said once, in its notes (advise/cloud_offers.py)
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


__all__ = ["final_verdict"]
