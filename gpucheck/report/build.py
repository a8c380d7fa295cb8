"""The report built: everything a report shows, once, from the Machine, the estimates and the advice.

Pure: no Qt, no file I/O. Every string is translated with `tr()` while `use_language(lang)` is in force,
so the same model renders to HTML, PDF and JSON without translating again. Numbers are never computed
here; they are formatted from what `gpucheck.estimate` and `gpucheck.advise` return.
"""

from __future__ import annotations

import datetime as _dt

from gpucheck import __version__
from gpucheck import estimate as est_mod
from gpucheck.advise import advise
from gpucheck.advise.present import unlisted_clouds
from gpucheck.catalog import get_workload, gpu_for, load_workloads
from gpucheck.errors import BadInput
from gpucheck.i18n import (
    fmt_gib,
    fmt_list,
    fmt_time_of_day,
    get_language,
    localized,
    normalize_lang,
    tr,
    use_language,
)
from gpucheck.machine import Machine
from gpucheck.report.job_section import (
    _as_of,
    _job_section,
    evaluation_measured,
    final_verdict,
    ladder_table,
    software_lines,
)
from gpucheck.report.machine_section import finding_lines, gpu_table, machine_table
from gpucheck.report.model import Evaluation, ReportModel, default_paper, workload_title
from gpucheck.report.privacy import redact_machine

# -- estimates and advice ------------------------------------------------------------------------------


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


__all__ = ["build_report", "evaluate", "glossary"]
