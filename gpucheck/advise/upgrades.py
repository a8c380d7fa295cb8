"""Parts to buy: the GPU that runs the job (one card, or two sharing it), RAM / SSD / PSU when they are the
gap, and whether buying pays off against renting a cloud GPU.

Pure. The estimator is injected as `estimate_for(spec, gpus) -> EstimateFn`, so a GPU from the catalog is
estimated exactly like the user's own; a GPU to buy must run the same job (gpucheck.advise.same_job).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck.advise.data import Part, cny_to_usd, factor, parts_of
from gpucheck.advise.ladder import run_ladder
from gpucheck.advise.model import BuyVsRent, CloudOption, Upgrade
from gpucheck.advise.present import sharding_text, shop_price_text
from gpucheck.advise.rungs import LadderResult
from gpucheck.advise.same_job import SAME_JOB_TWEAKS, EstimateFor, FactsFor, FindGpu, _stage_of
from gpucheck.errors import BadInput
from gpucheck.i18n import N_, fmt_duration, fmt_gib, fmt_list, fmt_money, localized, tr
from gpucheck.machine import Machine
from gpucheck.records import GpuSpec, TrainSpec, Workload
from gpucheck.region import in_mainland


def gpu_upgrades(workload: Workload, train: TrainSpec, machine: Machine | None, current_vram: int | None,
                 current_fits: bool, current_hours: float | None, find_gpu: FindGpu, facts_for: FactsFor,
                 estimate_for: EstimateFor, max_hours: float | None = None) -> list[Upgrade]:
    """The cheapest GPU that runs the job in practical time (`max_hours`; if no card does and the job
    does not fit here at all, the cheapest that runs it), and the cheapest that runs it without changing
    the training method when that is a different card; a cheaper card that may hold it (tight) and, in region cn,
    a cheaper second-hand or modified one beside them (_upgrade_picks)."""
    candidates = []  # (price, part, spec, ladder result, same job?)
    market = "cn" if in_mainland() else "global"
    for part in parts_of("gpu"):
        if market not in part.markets:
            continue  # a China-market or modified card is not sold elsewhere
        try:
            spec = find_gpu(part.gpu)
        except BadInput:
            continue
        if current_vram is not None and spec.vram_bytes <= current_vram and current_fits:
            continue  # no more memory than today: not the upgrade for this job
        res = run_ladder(workload, train, facts_for(spec, 1), estimate_for(spec, 1))
        hours = res.estimate.total_hours
        if not (res.fits or res.tight) or hours is None:
            continue  # tight: may fit (the QLoRA paper trained 65B on one 48 GB GPU); the card's line says so
        if current_fits and current_hours is not None and hours >= current_hours * 0.8:
            continue  # hardly faster than what is here
        price = part.price_usd or cny_to_usd(part.price_cny) or 0.0
        candidates.append((price, part, spec, res, all(t.id in SAME_JOB_TWEAKS for t in res.tweaks)))
    candidates.sort(key=lambda c: c[0])
    out = []
    for role, (_, part, spec, res, _same) in _upgrade_picks(candidates, max_hours, current_fits, market):
        hours = res.estimate.total_hours
        # the job's time with the card is `total_hours`: presenters show it once, beside the reason
        reason = _upgrade_reason(role, res, spec)
        notes = _gpu_part_notes(part, machine)
        # what lets it hold the job (a shorter sequence for 70B QLoRA on a 48 GB card that may hold it; other software,
        # Unsloth, for one that holds it)
        if res.tweaks and (role == "tight" or any(t.id == "unsloth" for t in res.tweaks)):
            notes.insert(0, tr("with these changes: {changes}", changes=fmt_list([t.title for t in res.tweaks])))
        if max_hours is not None and hours > max_hours:
            notes.insert(0, tr("even with this card the job is slow: renting a faster GPU is quicker"))
        source, as_of = _price_source(part)
        out.append(Upgrade(
            kind="gpu", part_id=part.id, name=localized(part, "name"), price_usd=part.price_usd,
            price_cny=part.price_cny, price_kind=part.price_kind, reason=reason, notes=tuple(notes),
            total_hours=hours, tweaks=tuple(t.id for t in res.tweaks), verified=part.verified, source=source,
            as_of=as_of, gpu_id=spec.id, fit="fits" if res.fits else "tight",
        ))
    return out


def _upgrade_picks(candidates: list, max_hours: float | None, current_fits: bool, market: str) -> list[tuple[str, Any]]:
    """(role, candidate) for each card to show, from candidates sorted by price: "cheapest" (what can be bought new
    first in region cn), "same_method" (the cheapest that keeps the method), "no_warranty" (region cn: a cheaper
    second-hand or modified card that runs it, the quickest of them, e.g. a 2080 Ti 22G), "tight" (a card that may hold it for less than
    the cheapest with room, e.g. a used 48 GB card for 70B QLoRA at a shorter sequence)."""
    def in_time(c: Any) -> bool:
        return max_hours is None or c[3].estimate.total_hours <= max_hours

    roomy = [c for c in candidates if c[3].fits] or candidates  # a tight card first only when none fits with room
    every = [c for c in roomy if in_time(c)] or ([] if current_fits else roomy)
    pool = ([c for c in every if c[1].cn_channel == "retail"] if market == "cn" else []) or every
    if not pool:
        return []
    picks = [("cheapest", pool[0])]
    same = next((c for c in pool if c[4]), None) if not pool[0][4] else None
    if same is not None:
        picks.append(("same_method", same))
    price = pool[0][0]
    cheaper = [c for c in every if c[0] < price and c[1].cn_channel != "retail"]
    if cheaper:  # the quickest of them (a 2080 Ti 22G over a slower, cheaper P40), then the cheapest
        picks.append(("no_warranty", min(cheaper, key=lambda c: (c[3].estimate.total_hours, c[0]))))
    share = float(factor("general", "tight_upgrade_max_price_share"))  # "much cheaper": worth the gamble
    tight = next((c for c in candidates if not c[3].fits and c[0] <= price * share and in_time(c)), None)
    if tight is not None and pool[0][3].fits:
        picks.append(("tight", tight))
    return picks


def _upgrade_reason(role: str, res: LadderResult, spec: GpuSpec) -> str:
    """Why a card is shown: one sentence per role (_upgrade_picks), a tight card's with its figures."""
    need, vram = fmt_gib(res.estimate.peak_vram_bytes), fmt_gib(spec.vram_bytes, 0)
    if not res.fits and role == "cheapest":  # tight: inside the estimate's error band (gpucheck.verdict.Verdict.TIGHT)
        return tr("no card on the list has room for this job; this one may hold it: it needs about {need} against "
                  "its {vram}, inside the estimate's error band (tight: try it; it may run out of memory)",
                  need=need, vram=vram)
    if not res.fits:
        return tr("much cheaper than a card with room for this job, and it may hold it: it needs about {need} against "
                  "its {vram}, inside the estimate's error band (tight: try it; it may run out of memory)",
                  need=need, vram=vram)
    if role == "no_warranty":
        return tr("cheaper, without the maker's warranty (second-hand or modified): it runs this job ({vram} of VRAM)",
                  vram=vram)
    if role == "same_method":
        return tr("the cheapest card that runs it without changing the training method")
    return tr("the cheapest card here that runs this job ({vram} of VRAM)", vram=vram)


def _gpu_part_notes(part: Part, machine: Machine | None) -> list[str]:
    notes = []
    rated = machine.power.psu_rated_w if machine is not None else None
    sized_for_now = machine.power.recommended_psu_w if machine is not None else None
    server = machine is not None and bool(machine.power.is_server)
    if server:
        notes.append(tr("a server: check that its vendor supports this card (power cables, airflow, slot)"))
    elif part.required_psu_w:
        if rated is not None and rated < part.required_psu_w:
            notes.append(tr("needs a {w} W power supply; yours is {r} W, so budget for a new PSU too",
                            w=f"{part.required_psu_w:.0f}", r=f"{rated:.0f}"))
        elif rated is None and sized_for_now and part.required_psu_w > sized_for_now:
            notes.append(tr("needs a {w} W power supply, more than this PC needs today (about {r} W): the "
                            "power supply probably has to be replaced too", w=f"{part.required_psu_w:.0f}",
                            r=f"{sized_for_now:.0f}"))
        elif rated is None:
            notes.append(tr("needs a {w} W power supply (check yours)", w=f"{part.required_psu_w:.0f}"))
    if part.slots and part.slots >= 2.5:
        notes.append(tr("a {s}-slot card: check the case's length and slot clearance", s=f"{part.slots:g}"))
    if machine is not None and part.pcie_lanes and part.pcie_lanes <= 8:
        gens = [g.pcie_gen_max for g in machine.gpus if g.pcie_gen_max]
        if gens and max(gens) <= 3:
            notes.append(tr("an x8 card: in this PCIe 3.0 system it gets half the bandwidth of x16"))
    if in_mainland() and part.cn_channel in _CN_CHANNEL_TEXT:
        notes.append(tr(_CN_CHANNEL_TEXT[part.cn_channel]))
    if part.notes:
        notes.append(localized(part, "notes"))
    if not part.verified:
        when = part.price_cny_as_of if in_mainland() and part.price_cny is not None else part.as_of
        notes.append(tr("price not re-checked ({d}), confirm before buying", d=when or part.as_of))
    return notes


# How a card is had in mainland China when not new through official channels (parts.toml cn_channel)
_CN_CHANNEL_TEXT = {
    "grey": N_("not sold new through official channels in mainland China: second-hand or grey market only, "
               "no warranty; the price shown is the overseas one"),
    "used": N_("second-hand, no warranty; the price shown is an overseas used price, not the mainland market"),
}


def shop_part_for(spec: GpuSpec, find_gpu: FindGpu) -> Part | None:
    """The parts.toml entry that sells this card new where the reader is (its one shop price), if any."""
    market = "cn" if in_mainland() else "global"
    for part in parts_of("gpu"):
        if market not in part.markets or part.cn_channel == "used" or not part.gpu:
            continue
        try:
            if find_gpu(part.gpu).id == spec.id:
                return part
        except BadInput:
            continue
    return None


def part_upgrade(kind: str, need: float, reason: str, extra_notes: tuple[str, ...] = ()) -> Upgrade | None:
    """The cheapest RAM kit / SSD / PSU with at least `need` (GB for RAM/SSD, W for PSU)."""
    def size(p: Part) -> float:
        return (p.watts if kind == "psu" else p.capacity_gb) or 0.0

    options = [p for p in parts_of(kind) if size(p) >= need]
    if not options:
        return None
    p = min(options, key=lambda p: p.price_usd or cny_to_usd(p.price_cny) or 0)
    notes = list(extra_notes)
    if p.notes:
        notes.append(localized(p, "notes"))
    if not p.verified:
        notes.append(tr("price not re-checked ({d}), confirm before buying", d=p.as_of))
    source, as_of = _price_source(p)
    return Upgrade(kind=kind, part_id=p.id, name=localized(p, "name"), price_usd=p.price_usd,
                   price_cny=p.price_cny, price_kind=p.price_kind, reason=reason, notes=tuple(notes),
                   verified=p.verified, source=source, as_of=as_of)


def _price_source(part: Part) -> tuple[str, str]:
    """Where and when the price shown was read: the domestic yuan price in mainland China (fmt_money shows
    it there), else the dollar one."""
    if in_mainland() and part.price_cny is not None and part.price_cny_source:
        return part.price_cny_source, part.price_cny_as_of
    return part.source, part.as_of


# -- buy vs rent ---------------------------------------------------------------------------------


def buy_vs_rent(upgrade: Upgrade | None, cloud: tuple[CloudOption, ...]) -> BuyVsRent | None:
    if upgrade is None:
        return None
    paid = [c for c in cloud if c.kind != "free" and c.cost_usd]
    if not paid:
        return None
    # compare with a provider the reader can use: domestic clouds in mainland China, global ones elsewhere
    region = "china" if in_mainland() else "global"
    paid = [c for c in paid if c.region_group == region] or paid
    best = min(paid, key=lambda c: c.cost_usd)
    per_hour = (best.price_usd_per_gpu_hour or 0) * best.gpus
    price = upgrade.price_usd or cny_to_usd(upgrade.price_cny)
    if not price or not per_hour:
        return None
    hours = price / per_hour
    runs = price / best.cost_usd
    msg = tr("{part} costs {price}; renting {gpu} on {provider} costs {run} for this job. Buying pays off after "
             "about {h} of rented time, that is about {n} runs like this one.",
             part=upgrade.name, price=shop_price_text(upgrade.price_usd, upgrade.price_cny),
             gpu=best.gpu_name if best.gpus == 1 else f"{best.gpus}× {best.gpu_name}", provider=best.provider,
             run=fmt_money(best.cost_usd, best.cost_cny, best.currency), h=fmt_duration(hours), n=f"{runs:,.0f}")
    return BuyVsRent(part_name=upgrade.name, upgrade_price_usd=upgrade.price_usd,
                     upgrade_price_cny=upgrade.price_cny, cloud_offer=best.offer_id, cloud_cost_usd=best.cost_usd,
                     cloud_usd_per_hour=per_hour, break_even_hours=hours, runs_to_break_even=runs, message=msg)


def multi_gpu_upgrade(workload: Workload, train: TrainSpec, machine: Machine | None, cheapest_single_usd: float | None,
                      find_gpu: FindGpu, facts_for: FactsFor, estimate_for: EstimateFor,
                      max_hours: float | None = None) -> Upgrade | None:
    """Two of the same card (used RTX 3090s, say) sharing the job (FSDP / ZeRO-3; FSDP + QLoRA for a 70B model,
    Answer.AI 2024, "You can now train a 70b language model at home": two 24 GB gaming GPUs), when they run it in
    practical time and cost less than the cheapest single card that does (`cheapest_single_usd`, None: none does)."""
    best: tuple[float, Part, GpuSpec, LadderResult] | None = None
    market = "cn" if in_mainland() else "global"
    for part in parts_of("gpu"):
        if part.gpu is None or market not in part.markets:
            continue  # as for one card: a China-market or modified card is not sold elsewhere
        try:
            spec = find_gpu(part.gpu)
        except BadInput:
            continue
        price = part.price_usd or cny_to_usd(part.price_cny)
        if not price or (cheapest_single_usd is not None and 2 * price >= cheapest_single_usd):
            continue
        one = run_ladder(workload, train, facts_for(spec, 1), estimate_for(spec, 1))
        if one.fits and one.estimate.total_hours is not None and (max_hours is None
                                                                  or one.estimate.total_hours <= max_hours):
            continue  # one such card holds it in time: a pair is never the cheaper way (a 24 GB P40 for 8B QLoRA)
        res = run_ladder(workload, train, facts_for(spec, 2), estimate_for(spec, 2))
        hours = res.estimate.total_hours
        if not res.fits or hours is None or (max_hours is not None and hours > max_hours):
            continue
        if not all(t.id in SAME_JOB_TWEAKS for t in res.tweaks):
            continue
        if best is None or 2 * price < best[0]:
            best = (2 * price, part, spec, res)
    if best is None:
        return None
    total, part, spec, res = best
    stage = _stage_of(res.settings) or ""
    notes = [tr("two cards need a motherboard with two PCIe x16 slots (x8 each is fine) spaced for them, and a power "
                "supply for both: about {w} W", w=f"{(part.required_psu_w or 0) + (part.tdp_w or 0):.0f}")]
    if res.train.cpu_offload:
        notes.append(tr("the plan offloads to CPU RAM: the PC needs about {ram} of RAM",
                        ram=fmt_gib(res.estimate.ram_bytes)))
    notes += _gpu_part_notes(dataclasses.replace(part, required_psu_w=None), machine)
    source, as_of = _price_source(part)
    return Upgrade(
        kind="gpu", part_id=part.id, name=tr("2× {name}", name=localized(part, "name")),
        price_usd=total if part.price_usd else None, price_cny=2 * part.price_cny if part.price_cny else None,
        price_kind=part.price_kind,
        reason=tr("two cards sharing the job ({how}) cost less than one card that holds it alone",
                  how=sharding_text(stage) if stage else tr("data parallel")),
        notes=tuple(notes), total_hours=res.estimate.total_hours, tweaks=tuple(t.id for t in res.tweaks),
        verified=part.verified, source=source, as_of=as_of, gpu_id=spec.id, fit="fits", gpus=2)
