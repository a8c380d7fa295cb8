"""Several GPUs (and one GPU asked to shard): the plan on fewer of them when that is as fast, the headline's
description of the GPUs and sharding a plan uses, and the notes on the link and the effective batch."""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck import estimate as est_mod
from gpucheck.advise import ladder
from gpucheck.advise.facts import facts_for_target
from gpucheck.i18n import fmt_duration, fmt_list, tr
from gpucheck.machine import Machine
from gpucheck.records import Estimate, Workload


def target_label(target: Any) -> str:
    if target.backend == "cpu":
        return tr("this PC's CPU (no usable GPU)")
    name = target.gpu_name or (target.gpu.name if target.gpu is not None else tr("this GPU"))
    return name if target.gpus <= 1 else f"{target.gpus}× {name}"

def fewer_gpus_if_faster(workload: Workload, base: Estimate, target: Any, machine: Machine | None,
                          result: ladder.LadderResult
                          ) -> tuple[ladder.LadderResult, int, tuple[int, ladder.LadderResult] | None]:
    """Several GPUs: the ladder's plan on 1/2, 1/4 … of them when that is at least as fast, so more GPUs are
    never slower than fewer (one can always leave some idle). Returns (plan, GPUs it uses, quicker): `quicker`
    is (GPUs, plan) of a faster plan on fewer GPUs that was not taken because it gives up more (pure BF16
    where all the GPUs keep FP32 master weights): the advice says why the plan is slower than that."""
    best, best_n = result, target.gpus
    quicker: tuple[int, ladder.LadderResult] | None = None
    n = target.gpus // 2
    while n >= 1 and target.backend != "cpu" and target.gpus > 1:
        sub = dataclasses.replace(target, gpus=n)
        facts = facts_for_target(sub, machine)
        res = ladder.run_ladder(workload, base.train, facts,
                                lambda w, t, _sub=sub: est_mod.estimate(w, _sub, t))
        better_fit = res.fits and not best.fits
        faster = res.fits == best.fits and res.estimate.total_hours is not None and (
            best.estimate.total_hours is None or res.estimate.total_hours <= best.estimate.total_hours)
        if better_fit or (faster and res.fits):
            if ladder.worst_loss(res.tweaks) <= ladder.worst_loss(best.tweaks):
                best, best_n = res, n
            elif res.fits and (quicker is None or _hours(res) < _hours(quicker[1])):
                quicker = (n, res)
        n //= 2
    if quicker is not None and _hours(quicker[1]) >= _hours(best):
        quicker = None
    return best, best_n, quicker


def _hours(res: ladder.LadderResult) -> float:
    """A plan's time; unknown counts as endless."""
    h = res.estimate.total_hours
    return float("inf") if h is None else h


def quicker_note(quicker: tuple[int, ladder.LadderResult] | None, final: Estimate) -> list[str]:
    """Why the plan on all the GPUs is slower than one on fewer: that one gives up more (issue 26 §2)."""
    if quicker is None:
        return []
    n, res = quicker
    steps = fmt_list((t.title for t in res.tweaks if t.loses not in ("nothing", "time")), strong=True)
    return [tr("On {k} GPU(s) it would take about {h} instead of {h0}, but only with a change that gives up more: "
               "{steps}. This plan keeps what is trained without it.", k=n,
               h=fmt_duration(res.estimate.total_hours), h0=fmt_duration(final.total_hours), steps=steps)]


def plan_label(target: Any, used_gpus: int, result: ladder.LadderResult) -> str:
    """The headline's target: the GPUs the plan uses (not all of them when fewer are as fast) and, when
    it shards or offloads, how (issue 26 §8: "4× RTX 4090" above what was a one-GPU ZeRO-2 plan)."""
    label = target_label(target)
    if used_gpus < target.gpus:
        name = target.gpu_name or (target.gpu.name if target.gpu is not None else tr("this GPU"))
        label = tr("{k} of the {n}× {name}", k=used_gpus, n=target.gpus, name=name)
    stage = int(result.settings.get("zero_stage", 0) or 0)
    if result.settings.get("deepspeed") and (stage or result.settings.get("offload")):
        how = ladder.stage_label(f"zero{max(stage, 2)}") if not result.settings.get("offload") else (
            tr("DeepSpeed ZeRO-{s} with CPU offload", s=max(stage, 2)))
        label = tr("{target} ({how})", target=label, how=how)
    return label


def zero_on_one_gpu(target: Any, base: Estimate) -> list[str]:
    """`--zero-stage N` (or FSDP) on one GPU shards over nothing: say so rather than ignore it."""
    t = base.train
    if target.gpus > 1 or target.backend == "cpu" or not (t.zero_stage or t.shard):
        return []
    return [tr("ZeRO stage {s} shards the model's state over several GPUs; on one GPU there is nothing to share it "
               "with, so the figures are those of one GPU holding everything. On one GPU only CPU offload "
               "(ZeRO-Offload) saves GPU memory: the plan below uses it when the job needs it.",
               s=t.zero_stage or 3)]


def multi_gpu_notes(target: Any, final: Estimate, result: ladder.LadderResult) -> list[str]:
    """Several GPUs: the link the traffic crosses, and the effective batch data parallelism trains with."""
    if target.gpus <= 1 or target.backend == "cpu":
        return []
    eff = final.scaling_efficiency
    pct = "" if eff is None else tr(" (about {p}% of linear speed-up)", p=f"{eff * 100:.0f}")
    nodes = getattr(target, "nodes", 1)
    if nodes > 1:
        out = [tr("{n} GPUs are {m} machines joined by a network: traffic between machines is much slower than "
                  "inside one{pct}.", n=target.gpus, m=nodes, pct=pct)]
    elif target.fabric_linked and getattr(target.gpu, "interconnect", "") == "infinity-fabric":
        out = [tr("The {n} GPUs are linked by AMD Infinity Fabric: the traffic of sharded training is fast and "
                  "scaling is good{pct}.", n=target.gpus, pct=pct)]
    elif target.fabric_linked:
        out = [tr("The {n} GPUs are linked by NVLink: the traffic of sharded training is fast and scaling is "
                  "good{pct}.", n=target.gpus, pct=pct)]
    else:
        out = [tr("The {n} GPUs talk over PCIe (no NVLink): sharded training spends more time exchanging "
                  "data{pct}.", n=target.gpus, pct=pct)]
    t = result.train
    per_step = t.batch * t.grad_accum * target.gpus
    wanted = result.workload.train.batch * result.workload.train.grad_accum
    if per_step != wanted and wanted < t.batch * target.gpus:
        out.append(tr("Data parallel on {n} GPUs at micro-batch {b} trains with an effective batch of {eff} samples "
                      "per step, larger than the job's {want}: raise the learning rate to match, or use fewer GPUs.",
                      n=target.gpus, b=t.batch, eff=per_step, want=wanted))
    elif per_step != wanted:
        k = max(1, round(wanted / (t.batch * target.gpus)))
        out.append(tr("Data parallel on {n} GPUs at micro-batch {b} trains with an effective batch of {eff} "
                      "samples per step (the job as configured: {want}); set gradient_accumulation_steps={k} "
                      "to keep it close, or raise the learning rate for the larger batch.",
                      n=target.gpus, b=t.batch, eff=per_step, want=wanted, k=k))
    return out
