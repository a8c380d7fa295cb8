"""The command line's glue: scan | check | estimate | report | gpus | workloads, and the headless
summary (`gpucheck` with no display). cli.py parses the arguments; each `run_*` here gathers the target
(a saved Machine, a catalog GPU or a scan of this PC), calls the core (probe, estimate, advise, report)
and prints. Core arithmetic lives in gpucheck.estimate; the core takes plain values, never an argparse
Namespace.

Advice (gpucheck.advise) is computed once per job and printed under the estimate; the `check`
table shows the final verdict after advice (gpucheck.verdict: labels and colours of every verdict).
`scan_machine` and `gpucheck scan` live in gpucheck/scan_command.py, which loads only what a scan needs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from gpucheck.advise import advise, cli_check_lines, format_advice
from gpucheck.advise.job_json import job_to_json
from gpucheck.advise.present import shop_price_text
from gpucheck.advise.upgrades import shop_part_for
from gpucheck.catalog import find_gpu, get_workload, load_gpus, load_workloads
from gpucheck.console import format_table, print_json, print_line
from gpucheck.errors import BadInput
from gpucheck.estimate import Target, apply_overrides, estimate
from gpucheck.estimate.calibration import calibrated_text, target_calibrated_text
from gpucheck.fileio import read_text_limited, shorten
from gpucheck.i18n import (
    N_,
    fmt_duration,
    fmt_gib,
    fmt_list,
    get_language,
    localized,
    precision_label,
    set_language,
    tr,
    use_language,
)
from gpucheck.lazy import lazy_import
from gpucheck.machine import Machine
from gpucheck.machine_text import format_machine
from gpucheck.report import build_report, check_writable, write_report
from gpucheck.report.figures import advised_stack, duration_range, job_figures, need_have_text, stack_text
from gpucheck.report.privacy import redact_machine
from gpucheck.scan_command import load_target_machine
from gpucheck.verdict import Verdict, verdict_label

# What one command alone uses loads when it runs (gpucheck gpus needs neither the trial nor the report model).
report_model = lazy_import("gpucheck.report.build")
trial = lazy_import("gpucheck.trial")

GIB = 1024**3

CPU_COMPUTE_LABEL = N_("CPU arithmetic")
BOTTLENECK_LABELS = {
    "compute": N_("GPU arithmetic"),
    "memory": N_("element-wise layers (memory traffic)"),
    "overhead": N_("per-step overhead (small steps)"),
    "communication": N_("GPU-to-GPU communication"),
    "offload": N_("CPU offload (PCIe copies and the CPU's optimizer step)"),
    "input": N_("the CPU preparing each batch (audio features)"),
}


# -- advice hooks ----------------------------------------------------------------------------------


def _advices(workloads: list, target: Any, estimates: list, machine: Any = None) -> list:
    return [advise(machine, w, target, e) for w, e in zip(workloads, estimates, strict=True)]


# -- targets ---------------------------------------------------------------------------------------


CPU_NAMES = ("cpu", "cpu only", "cpu-only", "none", "no gpu")


def is_cpu_name(name: str) -> bool:
    """`--gpu cpu` (also "cpu-only", "none", "no gpu"): train on the processor, without a GPU."""
    return " ".join(name.strip().lower().replace("_", " ").split()) in CPU_NAMES


def target_from_args(args: argparse.Namespace):
    """--gpu NAME [--gpus N] (with --machine for RAM/CPU if given), --machine FILE, or a scan of this PC."""
    gpu_name = getattr(args, "gpu", None)
    gpus = getattr(args, "gpus", None)
    machines = getattr(args, "machines", None)
    if machines is not None and (not gpu_name or is_cpu_name(gpu_name)):
        raise BadInput(tr("--machines applies only with --gpu NAME (a catalog GPU in several machines)"))
    if gpu_name is not None and not gpu_name.strip():
        raise BadInput(tr("--gpu: expected a GPU name such as '4090' or 'a100 80gb'"))
    machine = None
    if getattr(args, "machine", None):
        machine = Machine.load(args.machine)
    if gpu_name and is_cpu_name(gpu_name):
        # "what if I train on the processor?": this PC's (or the saved machine's) CPU and RAM, no GPU
        if gpus is not None:
            raise BadInput(tr("--gpus does not apply to --gpu cpu (training on the processor uses no GPU)"))
        if machine is None:
            machine = load_target_machine(None)
        args.loaded_machine = machine
        return Target.from_machine(dataclasses.replace(machine, gpus=()))
    if gpu_name:
        args.loaded_machine = machine  # the advice reads RAM, disks and power from it
        return _one_apple_gpu(Target.from_gpu(find_gpu(gpu_name), gpus=gpus if gpus is not None else 1,
                                              machine=machine, machines=machines))
    if machine is None:
        machine = load_target_machine(None)
    args.loaded_machine = machine
    return _one_apple_gpu(Target.from_machine(machine, gpus=gpus))


def _one_apple_gpu(target: Any) -> Any:
    """An Apple chip's GPU is part of the chip: a Mac has exactly one (there is no multi-GPU Mac to estimate)."""
    if target.backend == "metal" and target.gpus > 1:
        raise BadInput(tr("--gpus: {gpu} is a GPU built into the chip, and a Mac has only one; leave out --gpus",
                          gpu=target.device_name))
    return target


def _target_line(target: Any) -> str:
    if target.gpu is None and target.backend == "cpu":
        return tr("Target: {label} — CPU only", label=target.label)
    vram = fmt_gib(target.vram_available_bytes)
    if target.gpus > 1 and target.nodes > 1:
        return tr("Target: {n}× {gpu} in {m} machines joined by a network, {vram} usable per GPU", n=target.gpus,
                  gpu=target.device_name, m=target.nodes, vram=vram)
    if target.gpus > 1:
        return tr("Target: {n}× {gpu}, {vram} usable per GPU", n=target.gpus, gpu=target.device_name, vram=vram)
    return tr("Target: {gpu}, {vram} usable", gpu=target.device_name, vram=vram)


# -- check -----------------------------------------------------------------------------------------


def _need_have(est: Any, advice: Any = None) -> str:
    """The job's own need against what there is, the memory that decides the verdict (RAM when RAM does), the
    same figures as the app's bar (gpucheck.report.figures). When the advice changes the settings, both
    figures are shown, labelled by the arrow: "as configured → with the advised changes" (see `NEED_LEGEND`)."""
    return need_have_text(job_figures(est, advice))


NEED_LEGEND = N_("Memory \"A → B\": as configured → with the advised changes (which keep what is trained). "
                 "Time: with the advised changes.")


def need_heading(target: Any) -> str:
    """The heading of the need/have column: system RAM when the jobs run on the CPU, else VRAM."""
    if target.gpu is None and target.backend == "cpu":
        return tr("RAM need / total")
    return tr("VRAM need / usable")


def check_rows(estimates: list, workloads: list, advices: list) -> list[list[str]]:
    """One row per job; need and time are those of the verdict shown (after the advised changes, with
    CPU/disk bottlenecks counted), the same figures the advice's summary gives."""
    rows = []
    for est, w, a in zip(estimates, workloads, advices, strict=True):
        hours = a.expected_hours
        rows.append([
            w.id,
            verdict_label(a.verdict),
            _need_have(est, a),
            fmt_duration(hours) if hours is not None else "—",
        ])
    return rows


def run_check(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    names = list(getattr(args, "workloads", None) or [])
    workloads = [get_workload(n) for n in names] if names else list(load_workloads())
    estimates = [estimate(w, target) for w in workloads]
    machine = getattr(args, "loaded_machine", None)
    advices = _advices(workloads, target, estimates, machine)
    if getattr(args, "json", False):
        items = []
        for w, e, a in zip(workloads, estimates, advices, strict=True):
            d = job_to_json(e, w, a)
            items.append(d)
        print_json({"target": _target_json(target), "estimates": items})
        return 0
    print_line(_target_line(target))
    for note in target.notes:
        print_line("  " + note)
    if target.calibration is not None:
        print_line("  " + tr("{label}: times use the speeds measured here", label=target_calibrated_text(target)))
    print_line("")
    headers = [tr("Workload"), tr("Verdict"), need_heading(target), tr("Time")]
    print_line(format_table(headers, check_rows(estimates, workloads, advices), right={3}))
    print_line(tr(NEED_LEGEND))
    print_line(stack_legend(workloads))
    print_line("")
    advice = cli_check_lines(workloads, advices)
    if advice:
        print_line("\n".join(advice))
        print_line("")
    print_line(tr("Details: gpucheck estimate WORKLOAD (add --gpu NAME to try another GPU)"))
    return 0


def _target_json(target: Any) -> dict[str, Any]:
    return {
        "label": target.label,
        "gpu": target.device_name,
        "gpus": target.gpus if target.gpu is not None or target.backend != "cpu" else 0,
        "backend": target.backend,
        "vram_available_gib": None if target.vram_available_bytes is None else round(
            target.vram_available_bytes / GIB, 2),
        "ram_gib": None if target.ram_bytes is None else round(target.ram_bytes / GIB, 2),
        "notes": list(target.notes),
    }


# -- estimate --------------------------------------------------------------------------------------


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    keys = ("method", "precision", "optimizer", "batch", "grad_accum", "seq_len", "image_size", "grad_checkpointing",
            "lora_rank", "samples", "epochs", "tokens", "stack", "packing", "lora_targets", "zero_stage",
            "cpu_offload", "lora_dropout", "avg_seq_len")
    return {k: getattr(args, k, None) for k in keys}




def stack_legend(workloads: list) -> str:
    """Which software stack the times assume (issue 14: named in every output)."""
    zh = get_language() == "zh_CN"  # Chinese: full-width colon and semicolon, no space after '。'
    others = [f"{w.id}{'：' if zh else ': '}{stack_text(w.train.stack)}" for w in workloads
              if w.train.stack != "eager"]
    line = tr("Times assume {stack} unless noted; each is gpucheck's estimate, and 'estimate' gives its likely "
              "range (--stack changes it).", stack=stack_text("eager"))
    return line + (("" if zh else " ") + fmt_list(others, strong=True) if others else "")


def _peak_label(backend: str) -> str:
    """The peak's row, named for what holds the runtime's own memory: CUDA's context (nvidia-smi counts it), ROCm's
    HIP context, Intel's Level Zero driver; on Apple silicon PyTorch's MPS allocator has no such context."""
    if backend == "rocm":
        return tr("Peak VRAM per GPU (needed, with the HIP context)")
    if backend == "xpu":
        return tr("Peak VRAM per GPU (needed, with the GPU driver's context)")
    if backend == "metal":
        return tr("Peak GPU memory (needed)")
    return tr("Peak VRAM per GPU (needed, with the CUDA context)")


def format_estimate(w: Any, target: Any, est: Any, advice: Any = None) -> str:
    """The readable detail of one estimate (also used by the headless summary). The verdict is the
    advice's when there is advice (the same one the table, the report and the JSON give); the figures
    below are for the settings as configured, and say so."""
    bd = est.breakdown
    verdict = advice.verdict if advice is not None else est.verdict
    lines = [
        f"{localized(w, 'title')}  [{w.id}]",
        _target_line(target),
        tr("Verdict: {verdict}", verdict=verdict_label(verdict)),
    ]
    if advice is not None and str(advice.verdict) != str(est.verdict) and est.precision_used \
            and est.precision_used != est.train.precision:
        # the device cannot train the precision asked for (bf16-pure on a V100, bf16 on a CPU without native bf16):
        # say what the figures are for
        text = (N_("As configured: {verdict} (the figures below are for {p}, which this CPU trains instead of {asked})")
                if est.on_cpu else
                N_("As configured: {verdict} (the figures below are for {p}, which this GPU trains instead of {asked})"))
        lines.append(tr(text, verdict=verdict_label(est.verdict), p=precision_label(est.precision_used),
                        asked=precision_label(est.train.precision)))
    elif advice is not None and str(advice.verdict) != str(est.verdict):
        lines.append(tr("As configured: {verdict} (the figures below are for the settings as configured)",
                        verdict=verdict_label(est.verdict)))
    lines.append("")
    if not est.on_cpu:
        unified = est.backend == "metal"  # Apple silicon: the GPU's share of the Mac's unified memory, no CUDA names
        rows = [
            [tr("Weights"), fmt_gib(bd.weights_bytes, 2)],
            [tr("Gradients"), fmt_gib(bd.gradients_bytes, 2)],
            [tr("Optimizer state"), fmt_gib(bd.optimizer_bytes, 2)],
            [tr("Activations"), fmt_gib(bd.activations_bytes, 2)],
            [tr("Framework overhead"), fmt_gib(bd.overhead_bytes, 2)],
            [_peak_label(est.backend), fmt_gib(est.peak_vram_bytes, 2)],
            [tr("  of which PyTorch allocates") if unified else
             tr("  of which PyTorch allocates (max_memory_allocated)"), fmt_gib(est.allocated_bytes, 2)],
        ]
        if est.cached_worth_a_line:  # the estimate's notes say why (estimate/core.py)
            rows.append([tr("nvidia-smi may show, with cached blocks"), fmt_gib(est.nvidia_smi_bytes, 2)])
        rows.append([tr("Usable by the GPU (of the unified memory)") if unified else tr("Usable VRAM per GPU"),
                     fmt_gib(est.vram_available_bytes, 2)])
        lines.append(format_table([tr("GPU memory use") if unified else tr("VRAM use"), tr("Size")], rows, right={1}))
        lines.append("")
    sp = est.samples_per_second
    ram = fmt_gib(est.ram_bytes)
    after = advice.final_ram_bytes if advice is not None and advice.tweaks and (
        advice.expected_hours is not None or advice.final_limit == "ram") else None
    if after is not None and fmt_gib(after) != ram:  # one figure per setting, labelled (as in `check`)
        ram = tr("{before} → {after} with the advised changes", before=ram, after=fmt_gib(after))
    rows2 = [
        [tr("System RAM (incl. the GPU's share of unified memory)") if target.unified_memory else tr("System RAM"),
         ram],
        [tr("Disk space"), fmt_gib(est.disk_bytes)],
        [tr("Speed"), tr("{n} samples/s", n=f"{sp:,.2f}") if sp is not None else tr("unknown")],
    ]
    if est.tokens_per_second:
        rows2.append([tr("Tokens per second"), f"{est.tokens_per_second:,.0f}"])
    rows2 += _time_rows(est, advice)
    if est.total_hours is not None:
        final = advised_stack(est, advice)
        rows2.append([tr("Software stack"), stack_text(est.stack) if final == est.stack else
                      tr("{before} → {after} with the advised changes", before=stack_text(est.stack),
                         after=stack_text(final))])
    limit = BOTTLENECK_LABELS.get(est.bottleneck or "")
    if limit and est.bottleneck == "compute" and est.backend == "cpu":
        limit = CPU_COMPUTE_LABEL
    if limit:
        rows2.append([tr("Speed limited by"), tr(limit)])
    lines.append(format_table([tr("Need"), tr("Estimate")], rows2, right={1}))
    if est.measured_inputs:
        lines.append(tr("Speed uses figures measured on this machine by the deep scan."))
    if est.calibrated:
        lines.append(tr("{label}: the speed uses what real steps measured here (the model alone: {s} s per step).",
                        label=calibrated_text(est.calibrated), s=f"{est.uncalibrated_step_seconds or 0:,.4g}"))
    lines.append("")
    lines.append(tr("Assumptions: {items}", items=fmt_list(est.assumptions, strong=True)))
    if est.notes and advice is not None and advice.tweaks:
        lines.append(tr("As configured (before the advised changes):"))
    for n in est.notes:
        lines.append("• " + n)
    return "\n".join(lines)


def _time_rows(est: Any, advice: Any) -> list[list[str]]:
    """The run's time said once: the answer first (the time the table, the advice and the JSON's
    `expected_hours` give: with the advised changes and this PC's CPU and disk limits), then the GPU-alone
    time of the settings as configured, labelled, with its range. A configuration that does not fit gets
    its time only as "if it fitted"."""
    runs_here = Verdict.parse(est.verdict).can_train
    advised = advice.expected_hours if advice is not None else None
    rng = None if est.hours_range is None else duration_range(*est.hours_range)  # as the app and report say it
    if advised is None or fmt_duration(advised) == fmt_duration(est.total_hours):
        rows = [[tr("Whole run") if runs_here or advised is not None else tr("Whole run (if it fitted)"),
                 fmt_duration(est.total_hours)]]
        return rows + ([[tr("Likely range (P10–P90)"), rng]] if rng else [])
    limited = advice.host_limited_hours is not None
    rows = [[tr("Whole run (with this PC's CPU and disk limits)") if limited and not advice.tweaks else
             tr("Whole run with the advised changes and this PC's CPU and disk limits") if limited else
             tr("Whole run with the advised changes"), fmt_duration(advised)]]
    if runs_here:
        rows.append([tr("  GPU alone, as configured, if data loading kept up") if limited else
                     tr("  as configured"), fmt_duration(est.total_hours)])
    else:
        rows.append([tr("  as configured (if it fitted)"), fmt_duration(est.total_hours)])
    return rows + ([[tr("  likely range of that time (P10–P90)"), rng]] if rng else [])


def run_estimate(args: argparse.Namespace) -> int:
    workload = apply_overrides(get_workload(args.workload), **_overrides(args))
    target = target_from_args(args)
    est = estimate(workload, target)
    (advice,) = _advices([workload], target, [est], getattr(args, "loaded_machine", None))
    if getattr(args, "json", False):
        d = job_to_json(est, workload, advice)
        d["target"] = _target_json(target)
        print_json(d)
        return 0
    print_line(format_estimate(workload, target, est, advice))
    print_line("")
    print_line(tr("Advice:"))
    print_line(format_advice(advice, indent="  "))
    return 0


# -- catalogs --------------------------------------------------------------------------------------


def _tf(x: float | None) -> str:
    return "—" if x is None else f"{x:,.1f}"


def _vram_choices(g: Any) -> str:
    """"8/16 GB" for a chip sold with several memory sizes (each is its own --gpu choice), else its size."""
    if g.memory_options_gib:
        return "/".join(f"{x:g}" for x in g.memory_options_gib) + " GB"
    return fmt_gib(g.vram_bytes, 0)


def _gpu_price_text(g: Any) -> str:
    """The card's one shop price where the reader is (parts.toml), else its launch price in dollars."""
    part = shop_part_for(g, find_gpu)
    if part is not None:
        return shop_price_text(part.price_usd, part.price_cny)
    return shop_price_text(g.price_usd, None) if g.price_usd else "—"


def run_gpus(args: argparse.Namespace) -> int:
    gpus = load_gpus()
    if getattr(args, "json", False):
        items = []
        for g in gpus:
            d = dataclasses.asdict(g)
            d["vram_gib"] = round(g.vram_bytes / GIB, 2)
            d["aliases"] = list(g.aliases)
            items.append(d)
        print_json(items)
        return 0
    headers = [tr("GPU"), tr("VRAM"), tr("GB/s"), tr("FP32 TFLOPS"), tr("FP16/BF16 tensor"), tr("Price")]
    rows = [[g.name, _vram_choices(g), f"{g.mem_bandwidth_gbps:,.0f}", _tf(g.tflops_fp32),
             _tf(g.tflops_bf16_tensor or g.tflops_fp16_tensor), _gpu_price_text(g)] for g in gpus]
    print_line(format_table(headers, rows, right={1, 2, 3, 4, 5}))
    print_line("")
    print_line(tr("Tensor figures are dense, with FP32 accumulate (what mixed-precision training uses). "
            "Sources: resources/gpus.toml."))
    return 0


def run_workloads(args: argparse.Namespace) -> int:
    items = load_workloads()
    if getattr(args, "json", False):
        out = []
        for w in items:
            out.append({
                "id": w.id, "level": w.level, "family": w.family, "title": w.title, "title_zh": w.title_zh,
                "description": w.description, "description_zh": w.description_zh,
                "params": w.model.params, "arch": w.model.arch, "method": w.train.method,
                "precision": w.train.precision, "batch": w.train.batch, "seq_len": w.train.seq_len,
                "image_size": w.train.image_size, "samples": w.data.samples, "epochs": w.data.epochs,
                "smaller_model": w.smaller_model, "source": w.source,
            })
        print_json(out)
        return 0
    headers = [tr("Level"), tr("Workload"), tr("What it is")]
    rows = [[str(w.level), w.id, localized(w, "title")] for w in items]
    print_line(format_table(headers, rows, right={0}))
    return 0


# -- headless summary ------------------------------------------------------------------------------


def run_headless_summary(machine_file: str | None = None, lang: str | None = None) -> int:
    """`gpucheck` without a display: the scan summary and the verdict table."""
    if lang:
        set_language(lang)
    machine = load_target_machine(machine_file)
    print_line(format_machine(redact_machine(machine)))
    print_line("")
    target = Target.from_machine(machine)
    workloads = list(load_workloads())
    estimates = [estimate(w, target) for w in workloads]
    advices = _advices(workloads, target, estimates, machine)
    print_line(_target_line(target))
    headers = [tr("Workload"), tr("Verdict"), need_heading(target), tr("Time")]
    print_line(format_table(headers, check_rows(estimates, workloads, advices), right={3}))
    print_line("")
    print_line(tr("No display found, so the desktop app did not open. Run 'gpucheck --help' for the commands."))
    return 0


# -- report -------------------------------------------------------------------------------------


def load_trials(paths: list[str] | None) -> dict[str, Any]:
    """`gpucheck trial … --json` results saved to files, by job id (the last one of a job wins)."""
    out: dict[str, Any] = {}
    for path in paths or ():
        text = read_text_limited(Path(path), folder_error=N_("is a folder, not a trial result"),
                                 binary_error=N_("not a text file (expected JSON from 'gpucheck trial --json')"))
        try:
            result = trial.TrialResult.from_json(json.loads(text))
        except (ValueError, KeyError, TypeError, RecursionError):
            raise BadInput(tr("{path}: not a trial result (save one with: gpucheck trial WORKLOAD --json > FILE)",
                              path=shorten(path))) from None
        out[result.workload] = result
    return out


def run_report(args: argparse.Namespace) -> int:
    """`gpucheck report OUT.pdf|OUT.html|OUT.json [--machine FILE] [--lang …] [--workloads …]
    [--include-ids] [--paper a4|letter] [--trial FILE …]`: the file is checked first, so a bad path fails
    before a scan. A trial of a job with its own settings on this PC makes its figures "measured"."""
    out = check_writable(args.output)
    trials = load_trials(getattr(args, "trial", None))
    machine = load_target_machine(getattr(args, "machine", None))
    lang = getattr(args, "lang", None) or get_language()
    evaluations = None
    if trials:
        with use_language(lang):  # the advice's words in the report's language, as build_report does
            evaluations = tuple(dataclasses.replace(ev, trial=trials.get(ev.workload.id))
                                for ev in report_model.evaluate(machine, getattr(args, "workloads", None)))
    model = build_report(machine, workload_ids=getattr(args, "workloads", None), lang=lang,
                         include_ids=bool(getattr(args, "include_ids", False)), paper=getattr(args, "paper", None),
                         evaluations=evaluations)
    path = write_report(model, out)
    sys.stdout.write(tr("Wrote the report to {path}", path=path) + "\n")
    return 0
