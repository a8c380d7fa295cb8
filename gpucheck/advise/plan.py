"""The advice for one job on one target: the ladder's plan, its verdict and summary, what fits instead,
notes, bottlenecks, upgrades and cloud options (see gpucheck.advise for the overview)."""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck import estimate as est_mod
from gpucheck.advise import host, ladder, multi, unknown_speed, unsloth
from gpucheck.advise.cloud_offers import cloud_options
from gpucheck.advise.data import factor
from gpucheck.advise.facts import facts_for_spec, facts_for_target
from gpucheck.advise.gpu_support import GpuFacts
from gpucheck.advise.loss_speed import loss_speed_tweak
from gpucheck.advise.mirrors import shell_for
from gpucheck.advise.model import (
    Advice,
    Alternative,
    Bottleneck,
    CloudOption,
    Tweak,
    Upgrade,
)
from gpucheck.advise.present import format_advice_brief, format_machine_advice
from gpucheck.advise.recipes import snippet
from gpucheck.advise.software import software_fixes
from gpucheck.advise.upgrades import buy_vs_rent, gpu_upgrades, multi_gpu_upgrade, part_upgrade
from gpucheck.catalog import find_gpu, get_workload, gpu_for
from gpucheck.errors import BadInput
from gpucheck.i18n import fmt_duration, fmt_gib, fmt_list, localized, tr
from gpucheck.machine import Machine
from gpucheck.records import Estimate, GpuSpec, TrainSpec, Workload
from gpucheck.verdict import Verdict, verdict_label

GIB = 1024**3


def _smaller(workload_id: str) -> Workload | None:
    try:
        return get_workload(workload_id)
    except BadInput:
        return None


def advise(machine: Machine | None, workload: Workload, target: Any, estimate: Estimate | None = None) -> Advice:
    """Everything to do next for `workload` on `target` (an estimator Target), given this `machine`."""
    base = estimate if estimate is not None else est_mod.estimate(workload, target)
    facts = facts_for_target(target, machine)

    def estimate_fn(w: Workload, t):
        return est_mod.estimate(w, target, t)

    limit = float(base.too_slow_hours or est_mod.too_slow_hours())
    result, used_gpus, quicker = plan_for(machine, workload, target, base)
    final = result.estimate
    alternatives = _what_fits_instead(workload, base.train, result, facts, estimate_fn)
    target_label = multi.target_label(target)
    verdict = fit_verdict(base, result, facts.backend, limit)
    needs = result.smallest_peak_vram_bytes if verdict == Verdict.DOES_NOT_FIT else None
    notes = (multi.zero_on_one_gpu(target, base)
             + _plan_notes(target, used_gpus, final, result, verdict, facts, estimate_fn)
             + multi.quicker_note(quicker, final))
    other = _other_gpu_vendor(machine, target)
    bn = host.bottlenecks(machine, result.workload, final if result.fits or facts.backend == "cpu" else base,
                          other_gpu_vendor=other, as_configured=base)
    sw = software_fixes(machine, workload)
    if facts.backend == "cpu" and verdict not in (Verdict.RUNS, Verdict.TIGHT):
        # on a CPU the answer is a GPU (cloud or card), not more RAM for a job that would take weeks; a job that
        # may fit keeps the RAM fix its summary points to (close programs first)
        bn = tuple(b for b in bn if b.id != "ram")
    host_hours = host.limited_hours(final, bn) if result.fits else None
    if host_hours is not None and verdict in (Verdict.RUNS, Verdict.TIGHT, Verdict.RUNS_WITH_TWEAKS) \
            and host_hours > limit:
        verdict = Verdict.TOO_SLOW
    floor = unknown_speed.time_floor(machine, target, result) if final.total_hours is None and result.fits else None
    if floor is not None:
        notes.append(tr("How long it takes is unknown: this GPU's speed is not in the catalog. It is built into the "
                        "processor, so it is slower than a laptop's graphics card: even {gpu}, the fastest in the "
                        "catalog, would take about {h}.", gpu=floor[0], h=fmt_duration(floor[1])))
        if floor[1] > limit and verdict in (Verdict.RUNS, Verdict.TIGHT, Verdict.RUNS_WITH_TWEAKS):
            verdict = Verdict.TOO_SLOW

    upgrades, cloud, bvr = _money(machine, workload, target, result, verdict, final, facts, limit, host_hours,
                                  bn, notes)

    shell = shell_for(machine.software.platform if machine is not None else None)  # where it is pasted
    alts = tuple(_alternative(a, facts, limit, shell) for a in alternatives)
    alternative = next((a for a in alts if a.fits), None)
    summary = _summary(verdict, multi.plan_label(target, used_gpus, result), final, base, needs, result, limit,
                       host_hours, alternative.title if alternative is not None else None)
    if verdict == Verdict.TOO_SLOW and final.total_hours is None and floor is not None:
        summary = tr("Fits on {target}, but even {gpu}, faster than this built-in GPU, would take about {h} (more "
                     "than {limit}): too slow to be practical here.", target=target_label, gpu=floor[0],
                     h=fmt_duration(floor[1]), limit=fmt_duration(limit))
    unchecked_ram = _unchecked_ram_bytes(verdict, final, base)
    if unchecked_ram is not None:
        ram_text = tr("The changes move work into system RAM: the job then needs about {ram} of it, which was not "
                      "checked (this computer's RAM is not known here).", ram=fmt_gib(unchecked_ram))
        summary += ("" if summary.endswith("。") else " ") + ram_text
    if verdict == Verdict.RUNS and used_gpus < target.gpus and base.total_hours is not None \
            and final.total_hours is not None and host_hours is None:
        # "as it is" is all the GPUs; the faster plan on fewer of them is a change, said as one
        summary = tr("Runs on {target} as it is: about {h0}; about {h} on {k} of the {n} GPUs (see below).",
                     target=target_label, h0=fmt_duration(base.total_hours), h=fmt_duration(final.total_hours),
                     k=used_gpus, n=target.gpus)
    return Advice(
        workload_id=workload.id,
        target=target_label,
        verdict=verdict,
        summary=summary,
        needs_vram_bytes=needs,
        tweaks=result.tweaks,
        settings=dict(result.settings),
        snippet=snippet(result.settings, result.train, result.workload, facts, shell)
        if result.fits or result.tight else "",
        final_peak_vram_bytes=final.peak_vram_bytes if facts.backend != "cpu" else None,
        final_total_hours=final.total_hours,
        bottlenecks=bn,
        software=sw,
        upgrades=tuple(upgrades),
        cloud=cloud,
        buy_vs_rent=bvr,
        notes=tuple(notes),
        alternative=alternative,
        host_limited_hours=host_hours,
        speed_tweaks=_speed_tweaks(result, facts, estimate_fn) if verdict in (Verdict.RUNS, Verdict.RUNS_WITH_TWEAKS)
        else (),
        alternatives=alts,
        final_ram_bytes=final.ram_bytes,
        final_limit=final.limit,
        ram_unchecked=unchecked_ram is not None,
    )


def _unchecked_ram_bytes(verdict: str, final: Estimate, base: Estimate) -> int | None:
    """The system RAM a plan that offloads to it needs, where no computer's RAM is known to check it against
    (`--gpu NAME` without `--machine`): CPU offload of an 8B full fine-tune needs about 190 GiB, more than most
    desktops can hold, so the verdict says so instead of leaving it to the details. None where RAM was checked or
    the changes do not raise the RAM need."""
    if verdict not in (Verdict.RUNS_WITH_TWEAKS, Verdict.TIGHT) or final.ram_total_bytes is not None:
        return None
    if not final.train.cpu_offload or not final.ram_bytes or final.ram_bytes <= (base.ram_bytes or 0):
        return None
    return final.ram_bytes


def _speed_tweaks(result: ladder.LadderResult, facts: ladder.GpuFacts, estimate_fn: ladder.EstimateFn
                  ) -> tuple[Tweak, ...]:
    """The optional speed-ups: the ladder's (packing, a larger micro-batch), a loss that does not copy the output layer
    where the plan keeps TRL's chunked loss (advise/loss_speed.py) and, for a LoRA / QLoRA that runs on the Hugging
    Face stack, Unsloth (advise/unsloth.py)."""
    out = ladder.speed_tweaks(result, facts, estimate_fn)
    u = _unsloth_speed_tweak(result, facts, estimate_fn) if result.fits else None
    loss = loss_speed_tweak(result.workload, result.train, result.estimate, facts, estimate_fn) if result.fits else None
    return out + tuple(t for t in (loss, u) if t is not None)


def _unsloth_speed_tweak(result: ladder.LadderResult, facts: ladder.GpuFacts, estimate_fn: ladder.EstimateFn
                         ) -> Tweak | None:
    """Unsloth for a job that runs as planned on the Hugging Face stack, where it is offered, still runs and takes at
    least a fifth less time ([speed_tweaks] time_factor_required): a smaller card whose plan needs Unsloth to fit is
    then not the only one told how fast it runs."""
    w, t, est = result.workload, result.train, result.estimate
    if est.total_hours is None or not unsloth.offered(w, t, facts.backend, facts.compute_capability):
        return None
    t = unsloth.with_unsloth(t)
    e = estimate_fn(w, t)
    if not ladder.runs(e) or e.total_hours is None \
            or e.total_hours > est.total_hours * float(factor("speed_tweaks", "time_factor_required")):
        return None
    title, cost, _recipe = unsloth.describe(w, t)
    # the line printed under it: Unsloth's own get_peft_model arguments (the recipe is its FastLanguageModel code)
    return Tweak(id="unsloth", kind="speed", title=title, cost=cost,
                 settings={"use_gradient_checkpointing": "unsloth", "lora_dropout": 0},
                 peak_vram_bytes=e.peak_vram_bytes, total_hours=e.total_hours, fits=True)


def plan_for(machine: Machine | None, workload: Workload, target: Any, base: Estimate | None = None
             ) -> tuple[ladder.LadderResult, int, tuple[int, ladder.LadderResult] | None]:
    """The plan the advice prints, without its money and host parts: the ladder's plan on the target (or on
    fewer of its GPUs when that is as fast), sped up with mixed precision when too slow. Returns (plan, GPUs
    it uses, a quicker plan on fewer GPUs that gives up more — see `_fewer_gpus_if_faster`). Cheap enough to run over the whole catalog (tests/core/test_verdict_invariants.py)."""
    base = base if base is not None else est_mod.estimate(workload, target)
    facts = facts_for_target(target, machine)

    def estimate_fn(w: Workload, t):
        return est_mod.estimate(w, target, t)

    limit = float(base.too_slow_hours or est_mod.too_slow_hours())
    result = ladder.run_ladder(workload, base.train, facts, estimate_fn)
    result, used_gpus, quicker = multi.fewer_gpus_if_faster(workload, base, target, machine, result)
    return ladder.speed_up(result, facts, estimate_fn, limit), used_gpus, quicker


def _plan_notes(target: Any, used_gpus: int, final: Estimate, result: Any, verdict: Verdict, facts: GpuFacts,
                estimate_fn: Any) -> list[str]:
    """Notes on the plan advised: the link and the effective batch on the GPUs it uses, fewer GPUs when
    that is as fast, and CPU offload that this PC's RAM cannot hold."""
    notes = multi.multi_gpu_notes(dataclasses.replace(target, gpus=used_gpus) if used_gpus < target.gpus else target,
                             final, result)
    if used_gpus < target.gpus:
        if getattr(target, "nodes", 1) > 1:
            notes.insert(0, tr("{n} GPUs are {m} machines joined by a network: traffic between machines is much "
                               "slower than inside one{pct}.", n=target.gpus, m=target.nodes, pct=""))
        notes.append(tr("Using {k} of the {n} GPUs is as fast or faster here: beyond that, the traffic between GPUs "
                        "costs more time than the extra GPUs save.", k=used_gpus, n=target.gpus))
    if verdict == Verdict.DOES_NOT_FIT:
        notes += _offload_short_of_ram(result, facts, estimate_fn)
    return list(notes)


def _money(machine: Machine | None, workload: Workload, target: Any, result: Any, verdict: Verdict,
           final: Estimate, facts: GpuFacts, limit: float, host_hours: float | None, bn: Any, notes: list[str]
           ) -> tuple[list[Upgrade], tuple[CloudOption, ...], Any]:
    """Upgrades, cloud offers and buy-vs-rent for the plan advised (appends to `notes`)."""
    # -- money: upgrades, cloud, buy vs rent ---------------------------------------------------
    # the cloud offers, the upgrades and the several-GPU options try the same GPUs at the same settings: each
    # (job, target, settings) is estimated once in this advice (an estimate is a pure function of the three)
    memo: dict[tuple[Workload, Any, Any], Estimate] = {}

    def once(w: Workload, t: Any, tr_: Any) -> Estimate:
        key = (w, t, tr_)
        if key not in memo:
            memo[key] = est_mod.estimate(w, t, tr_)
        return memo[key]

    def estimate_for(spec: GpuSpec, n: int):
        t = est_mod.Target.from_gpu(spec, n, None)

        def fn(w: Workload, tr_):
            return once(w, t, tr_)
        return fn

    def facts_for(spec: GpuSpec, n: int) -> GpuFacts:
        return facts_for_spec(spec, n)

    # a GPU bought for this PC offloads to this PC's RAM: a plan with CPU offload must fit it (the RAM the job
    # needs anyway is the RAM bottleneck's own advice, and a cloud machine's RAM is unknown)
    def upgrade_estimate_for(spec: GpuSpec, n: int):
        plain = est_mod.Target.from_gpu(spec, n, None)
        here = dataclasses.replace(plain, ram_bytes=target.ram_bytes, ram_available_bytes=target.ram_available_bytes)

        def fn(w: Workload, tr_):
            return once(w, here if tr_ is not None and tr_.cpu_offload else plain, tr_)
        return fn

    def upgrade_facts_for(spec: GpuSpec, n: int) -> GpuFacts:
        return facts_for_spec(spec, n, ram_bytes=target.ram_bytes)

    upgrades: list[Upgrade] = []
    cloud: tuple[CloudOption, ...] = ()
    cpu_only_long = facts.backend == "cpu" and (final.total_hours is None
                                                or final.total_hours > float(factor("general", "cloud_for_cpu_hours")))
    if verdict != "runs" or cpu_only_long:
        # like with like: a cloud machine's CPU and disks are unknown, so its times are GPU-alone times and
        # are compared with this PC's GPU-alone time (never with the time this PC's CPU or disk stretches)
        local = final.total_hours if result.fits and verdict == "too_slow" else None
        cloud, _ = cloud_options(workload, workload.train, find_gpu, facts_for, estimate_for,
                                 local_hours=local, practical_hours=limit)
        cloud = _gpu_time_only(cloud, final, host_hours)
        upgrades += _gpu_upgrades(machine, workload, target, result, verdict, limit, find_gpu, upgrade_facts_for,
                                  upgrade_estimate_for, notes)
    upgrades += _part_upgrades(machine, workload, bn)
    main_up = next((u for u in upgrades if u.kind == "gpu"), None)
    if main_up is None and verdict != "runs":
        main_up = next((u for u in upgrades if u.kind in ("ssd", "ram")), None)
    bvr = buy_vs_rent(main_up, cloud) if main_up is not None else None
    return upgrades, cloud, bvr


def _gpu_time_only(cloud: tuple[CloudOption, ...], final: Estimate, host_hours: float | None
                   ) -> tuple[CloudOption, ...]:
    """When this PC's CPU or disk stretches the run, say on each cloud option that its time is the GPU's
    alone: whether the provider's CPUs and disks keep up is not known."""
    if host_hours is None or final.total_hours is None:
        return cloud
    why = tr("GPU time only: whether the provider's CPUs and disks keep up is not known (on this PC they stretch "
             "{gpu} of GPU time to {host})", gpu=fmt_duration(final.total_hours), host=fmt_duration(host_hours))
    return tuple(dataclasses.replace(c, note=fmt_list([c.note, why], strong=True) if c.note else why) for c in cloud)


def _what_fits_instead(workload: Workload, start: TrainSpec, result: ladder.LadderResult, facts: GpuFacts,
                       estimate_fn: Any) -> list[ladder.LadderResult]:
    """When the job does not fit with room: another method for the same model (LoRA, then QLoRA), each climbing
    its own ladder from `start`, the job as configured that the main plan started from (not the main plan's
    changes); else the same plan on changed data (a sequence limit that cuts long samples, a lower resolution); a
    smaller model only when neither fits."""
    if result.fits or facts.backend == "cpu":
        return []
    out = ladder.method_alternatives(workload, start, facts, estimate_fn)
    if not any(a.fits for a in out):
        out += ladder.data_alternatives(result.workload, result, facts, estimate_fn)
    if not any(a.fits for a in out):
        small = ladder.smaller_alternative(workload, facts, estimate_fn, _smaller)
        out += [small] if small is not None else []
    return out


def _offload_short_of_ram(result: ladder.LadderResult, facts: GpuFacts, estimate_fn) -> list[str]:
    """A full fine-tune the ladder could not offload because this PC's RAM is too small: say so, with both
    figures, since more RAM (not another GPU) is what would make it run (ZeRO-Offload keeps the FP32 master
    weights, gradients and optimizer state in CPU RAM)."""
    t = result.train
    if facts.backend not in ("cuda", "rocm") or t.method != "full" or t.cpu_offload or facts.gpus > 1:
        return []
    e = estimate_fn(result.workload, ladder.full_offload(t, facts.gpus))
    if e.vram_fit == "does_not_fit" or e.ram_fit != "does_not_fit" or not e.ram_total_bytes:
        return []
    return [tr("With CPU offload (DeepSpeed ZeRO-Offload) it would need only about {v} of GPU memory, but about {r} "
               "of system RAM, more than this PC's {have}: RAM, not the GPU, is what stops it.",
               v=fmt_gib(e.peak_vram_bytes), r=fmt_gib(e.ram_bytes), have=fmt_gib(e.ram_total_bytes))]


def fit_verdict(base: Estimate, result: ladder.LadderResult, backend: str, limit: float) -> Verdict:
    """The verdict after the ladder: only changes that keep what is trained count; a job that fits only
    as LoRA/QLoRA or as a smaller model does not fit (those are alternatives)."""
    final = result.estimate
    if backend == "cpu" and not result.tweaks:  # no change was needed, or none frees the RAM the job is short of
        return Verdict.parse(base.verdict)
    if final.verdict == Verdict.NOT_SUPPORTED:
        return Verdict.NOT_SUPPORTED
    if not result.fits and not result.tight:
        return Verdict.DOES_NOT_FIT
    if final.total_hours is not None and final.total_hours > limit:
        return Verdict.TOO_SLOW
    if result.tight:
        return Verdict.TIGHT
    return Verdict.RUNS_WITH_TWEAKS if result.tweaks else Verdict.RUNS


def _alternative(res: ladder.LadderResult, facts: GpuFacts, limit: float, shell: str = "bash") -> Alternative:
    first = res.tweaks[0]
    title = localized(res.workload, "title") if first.id == "smaller_model" else first.title
    hours = res.estimate.total_hours
    return Alternative(
        workload_id=res.workload.id, title=title, tweaks=res.tweaks, settings=dict(res.settings),
        snippet=snippet(res.settings, res.train, res.workload, facts, shell) if res.fits or res.tight else "",
        peak_vram_bytes=res.estimate.peak_vram_bytes, total_hours=hours,
        too_slow=hours is not None and hours > limit, kind=first.id, fits=res.fits, tight=res.tight)


def _other_gpu_vendor(machine: Machine | None, target: Any) -> str | None:
    """The vendor of the target's GPU when it is not this machine's own GPU ("what if I had…")."""
    if machine is None or target.backend == "cpu":
        return None
    gpus = machine.compute_gpus()
    if gpus and (target.gpu_name == gpus[0].name or (target.gpu is not None and gpus[0].catalog_id == target.gpu.id)):
        return None
    if gpus and target.gpu is not None:
        if gpu_for(gpus[0]) == target.gpu:
            return None
    return target.gpu.vendor if target.gpu is not None else "other"


def _summary(verdict: str, label: str, final: Estimate, base: Estimate, needs: int | None,
             result: ladder.LadderResult, limit: float, host_hours: float | None, alt: str | None = None) -> str:
    hours = fmt_duration(final.total_hours if host_hours is None else host_hours)
    if verdict == Verdict.RUNS and final.total_hours is None:
        return tr("Runs on {target} as it is (how long is unknown: this GPU's speed is not in the catalog).",
                  target=label)
    if verdict == Verdict.RUNS:
        return tr("Runs on {target} as it is: about {h}.", target=label, h=hours)
    if verdict == Verdict.RUNS_WITH_TWEAKS and final.total_hours is None:
        return tr("Runs on {target} with the changes listed below (how long is unknown: this GPU's speed is "
                  "not in the catalog).", target=label)
    if verdict == Verdict.RUNS_WITH_TWEAKS:
        return tr("Runs on {target} with the changes listed below: about {h}.", target=label, h=hours)
    if verdict == Verdict.TIGHT:
        return _tight_summary(label, final, base, hours, alt)
    if verdict == Verdict.TOO_SLOW and host_hours is not None and (final.total_hours or 0) <= limit:
        return tr("Fits on {target}, but the bottlenecks below stretch it to about {h} (more than {limit}): too "
                  "slow until they are fixed.", target=label, h=hours, limit=fmt_duration(limit))
    if verdict == Verdict.TOO_SLOW:
        return tr("Fits on {target}, but takes about {h} (more than {limit}): too slow to be practical here.",
                  target=label, h=hours, limit=fmt_duration(limit))
    if verdict == Verdict.DOES_NOT_FIT and _ram_limited(final, base):
        lim = final if final.limit == "ram" else base
        return tr("Does not fit in the memory (RAM) of this computer: the job needs about {need} of system RAM, "
                  "and it has {have}.", need=fmt_gib(lim.ram_bytes), have=fmt_gib(lim.ram_total_bytes))
    if verdict == Verdict.DOES_NOT_FIT:
        return tr("Does not fit on {target}: even with every change that keeps the same training it needs about "
                  "{need} per GPU, and {have} is available.", target=label, need=fmt_gib(needs),
                  have=fmt_gib(base.vram_available_bytes))
    why = next((n for n in final.notes if n), "")
    return tr("Cannot train on {target}. {why}", target=label, why=why).strip()


def _tight_summary(label: str, final: Estimate, base: Estimate, hours: str, alt: str | None = None) -> str:
    """Tight: may fit. Say what to try, and what to do if it runs out of memory: the alternative by its name
    (a pointer to a section would point nowhere on a surface that does not print it)."""
    if final.limit == "ram":
        return tr("Tight on system RAM: the job needs about {need}, {free} of {have} was free at the scan. It may "
                  "run: close other programs first; if it runs out of memory, see the RAM fix below.",
                  need=fmt_gib(final.ram_bytes), free=fmt_gib(final.ram_available_bytes),
                  have=fmt_gib(final.ram_total_bytes))
    lo, hi = final.vram_band_bytes
    then = (tr("if it runs out of memory, switch to {alt}", alt=alt) if alt else
            tr("if it runs out of memory, close other programs and lower the micro-batch or sequence length"))
    speed = tr("About {h}.", h=hours) if final.total_hours is not None else \
        tr("How long it takes is unknown: this GPU's speed is not in the catalog.")
    return tr("Tight on {target}: it needs about {need} per GPU (between {lo} and {hi}, the estimate's error on "
              "published runs) and {have} is usable. It may fit — try it; {then}. {speed}", target=label,
              need=fmt_gib(final.peak_vram_bytes), lo=fmt_gib(lo), hi=fmt_gib(hi),
              have=fmt_gib(final.vram_available_bytes), then=then, speed=speed)


def _ram_limited(final: Estimate, base: Estimate) -> bool:
    """The job fits the GPU (or runs on the CPU) and only system RAM is short."""
    return final.limit == "ram" or (base.limit == "ram" and final.limit in ("", "ram"))


def _gpu_upgrades(machine: Machine | None, workload: Workload, target: Any, result: ladder.LadderResult,
                  verdict: str, limit: float, find_gpu, facts_for, estimate_for, notes: list[str]) -> list[Upgrade]:
    if verdict in (Verdict.RUNS_WITH_TWEAKS, Verdict.TIGHT) and target.backend != "cpu":
        return []
    if verdict == Verdict.TOO_SLOW and (result.estimate.total_hours or 0) <= limit:
        return []  # the GPU is fast enough: the bottlenecks (disk, CPU) are what to fix
    if machine is not None:
        gpus = machine.compute_gpus()
        if any(g.vendor == "apple" for g in gpus):
            notes.append(tr("A Mac's GPU cannot be upgraded: rent a cloud GPU for jobs that do not fit."))
            return []
        if machine.power.is_laptop:
            notes.append(tr("A laptop's GPU cannot be replaced: rent a cloud GPU, or use a desktop."))
            return []
        if not gpus:
            notes.append(tr("Office and small desktop PCs often have a 200-300 W power supply without PCIe power "
                            "cables and little room inside: check both before buying a graphics card."))
    seg = target.gpu.segment if target.gpu is not None else None
    if machine is None and seg in ("apple", "laptop", "integrated"):
        # `--gpu` with a Mac's chip or a laptop's GPU: a graphics card and a power supply do not go in it
        notes.append(tr("A Mac's GPU cannot be upgraded: rent a cloud GPU for jobs that do not fit, or train on a "
                        "desktop PC with a graphics card that runs it (see the cloud GPUs for which one).")
                     if seg == "apple" else
                     tr("A laptop's GPU cannot be replaced: rent a cloud GPU, or train on a desktop PC with a "
                        "graphics card that runs it (see the cloud GPUs for which one)."))
        return []
    if target.gpus > 1:
        return []  # a multi-GPU server: adding one consumer card is not the answer
    cur_vram = target.vram_available_bytes if target.backend != "cpu" else None
    cur_fits = verdict not in ("does_not_fit", "not_supported") and target.backend != "cpu"
    singles = gpu_upgrades(workload, workload.train, machine, cur_vram, cur_fits,
                           result.estimate.total_hours if cur_fits else None, find_gpu, facts_for,
                           estimate_for, max_hours=limit)
    if cur_fits:
        return singles
    # several used cards (two RTX 3090s with FSDP + QLoRA for a 70B model) when they cost less than one card
    cheapest = min((u.price_usd for u in singles if u.price_usd and (u.total_hours or 0) <= limit), default=None)
    pair = multi_gpu_upgrade(workload, workload.train, machine, cheapest, find_gpu, facts_for, estimate_for,
                             max_hours=limit)
    return [pair] + singles if pair is not None else singles


def _part_upgrades(machine: Machine | None, workload: Workload, bn: tuple[Bottleneck, ...]) -> list[Upgrade]:
    out: list[Upgrade] = []
    if machine is None:
        return out
    by_id = {b.id: b for b in bn}
    if "ram" in by_id and by_id["ram"].severity == "error":  # RAM that is only busy: close programs
        need_gb = by_id["ram"].figures["ram_needed_bytes"] / 1e9
        up = part_upgrade("ram", need_gb,
                          tr("this job needs about {need} of RAM", need=fmt_gib(by_id["ram"].figures[
                              "ram_needed_bytes"])),
                          (tr("buy the type your motherboard takes (DDR4 or DDR5) and check its free "
                              "slots"),))
        if up and not machine.power.is_laptop and not machine.memory.shared_with_gpu:
            out.append(up)
    disk_need = None
    if "disk_speed" in by_id and by_id["disk_speed"].severity == "warning":
        disk_need = by_id["disk_speed"].figures["dataset_bytes"]
    if "disk_space" in by_id:
        disk_need = max(disk_need or 0, by_id["disk_space"].figures["disk_needed_bytes"])
    if disk_need:
        margin = float(factor("disk", "free_space_margin_gib")) * GIB
        up = part_upgrade("ssd", (disk_need + margin) / 1e9,
                          tr("a fast drive big enough for the data set and checkpoints ({size})",
                             size=fmt_gib(disk_need + margin)))
        if up:
            out.append(up)
    if "psu" in by_id and by_id["psu"].severity == "warning":
        need = by_id["psu"].figures["psu_needed_w"]
        up = part_upgrade("psu", need, tr("the GPU needs a {w} W power supply", w=f"{need:.0f}"))
        if up:
            out.append(up)
    return out


# -- hooks for the command line (gpucheck.commands) ------------------------------------------------


def cli_check_lines(workloads: list[Workload], advices: list[Advice]) -> list[str]:
    """`gpucheck check`: one line of advice per job that needs some, then machine-wide fixes once."""
    lines = []
    for w, a in zip(workloads, advices, strict=True):
        brief = format_advice_brief(a)
        if brief:
            lines.append(tr("{id} — {verdict}: {brief}", id=w.id, verdict=verdict_label(a.verdict), brief=brief))
        elif a.verdict != Verdict.RUNS:
            lines.append(tr("{id} — {verdict}", id=w.id, verdict=verdict_label(a.verdict)))
    shared = format_machine_advice(advices)
    if shared:
        lines += ["", shared]
    return ([tr("Advice:")] + lines) if lines else []
