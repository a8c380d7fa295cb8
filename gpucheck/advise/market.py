"""Money: GPUs and parts to buy, cloud GPUs to rent, and which of the two pays off.

Pure. The estimator is injected as `estimate_for(spec, gpus) -> EstimateFn`, so a GPU from the catalog
(bought or rented) is estimated exactly like the user's own.

A GPU to buy or rent must run the same job: only "same-job" tweaks are allowed there (precision,
micro-batch, checkpointing, 8-bit optimizer, sharding, offload — never LoRA/QLoRA or a smaller model).
Several GPUs: the ladder sizes memory per GPU for the sharding a user would actually turn on —
DeepSpeed ZeRO-1 (optimizer state sharded), ZeRO-2 (+ gradients), ZeRO-3 / FSDP full shard
(+ weights) — choosing the fewest GPUs, then the lowest stage (least communication), that fits.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from gpucheck.advise.data import (
    Billing,
    CloudOffer,
    Part,
    billing_of,
    cny_to_usd,
    factor,
    load_cloud,
    load_startup,
    parts_of,
    usd_to_cny,
)
from gpucheck.advise.gpu_support import GpuFacts, bf16_ok
from gpucheck.advise.ladder import run_ladder
from gpucheck.advise.model import TWEAK_IDS, BuyVsRent, CloudOption, Upgrade
from gpucheck.advise.present import sharding_text, shop_price_text
from gpucheck.advise.rungs import EstimateFn, LadderResult
from gpucheck.errors import BadInput
from gpucheck.i18n import N_, fmt_duration, fmt_gib, fmt_list, fmt_money, get_language, localized, tr
from gpucheck.machine import Machine
from gpucheck.records import Estimate, GpuSpec, TrainSpec, Workload
from gpucheck.region import in_mainland

GIB = 1024**3
# Tweaks that keep the job the same job (a cloud GPU or a bigger card should not change the method).
SAME_JOB_TWEAKS = TWEAK_IDS  # every ladder rung keeps the method (advise.ladder); LoRA/QLoRA are alternatives

EstimateFor = Callable[[GpuSpec, int], EstimateFn]
# Every snippet the advice prints is PyTorch: a cloud whose GPU environment cannot run it is no option
SNIPPET_FRAMEWORK = "pytorch"
FindGpu = Callable[[str], GpuSpec]
FactsFor = Callable[[GpuSpec, int], GpuFacts]


@dataclasses.dataclass(frozen=True)
class Fit:
    spec: GpuSpec
    gpus: int
    stage: str | None
    estimate: Estimate
    tweaks: tuple[str, ...]
    train: TrainSpec


def _stage_of(settings: dict) -> str | None:
    zs = settings.get("zero_stage")
    if zs is None:
        return None
    if settings.get("offload"):
        return "zero3_offload" if zs == 3 else "zero2_offload"
    return f"zero{zs}"


def fit_on(workload: Workload, train: TrainSpec, spec: GpuSpec, counts: tuple[int, ...], facts_for: FactsFor,
           estimate_for: EstimateFor, practical_hours: float | None = None) -> Fit | None:
    """The fewest GPUs of `spec` (from `counts`) that run this job without changing what is trained —
    and, when some count finishes within `practical_hours`, the fewest that does."""
    first: Fit | None = None
    for n in sorted(counts):
        res = run_ladder(workload, train, facts_for(spec, n), estimate_for(spec, n))
        if not (res.fits and all(t.id in SAME_JOB_TWEAKS for t in res.tweaks)):
            continue
        fit = Fit(spec, n, _stage_of(res.settings), res.estimate, tuple(t.id for t in res.tweaks), res.train)
        first = first or fit
        hours = res.estimate.total_hours
        if practical_hours is None or (hours is not None and hours <= practical_hours):
            return fit
    return first


# -- cloud -----------------------------------------------------------------------------------------


def billed_in(offer: CloudOffer) -> str:
    """The currency the provider bills in: 'usd' or 'cny' (the price the offer gives)."""
    return "usd" if offer.price_usd_per_gpu_hour is not None else "cny"


def _prices(offer: CloudOffer) -> tuple[float | None, float | None]:
    usd = offer.price_usd_per_gpu_hour
    cny = offer.price_cny_per_gpu_hour
    if usd is None:
        usd = cny_to_usd(cny)
    if cny is None:
        cny = usd_to_cny(usd)
    return usd, cny


def cloud_options(workload: Workload, train: TrainSpec, find_gpu: FindGpu, facts_for: FactsFor,
                  estimate_for: EstimateFor, offers: tuple[CloudOffer, ...] | None = None,
                  local_hours: float | None = None, practical_hours: float | None = None,
                  ) -> tuple[tuple[CloudOption, ...], list[CloudOption]]:
    """(picked options: free / cheapest / fastest / cheapest in China, every option that fits).

    `local_hours`: the job already runs here, too slowly — only clearly faster options count.
    `practical_hours`: "cheapest" is chosen among options that finish within this when there are any."""
    offers = load_cloud() if offers is None else offers
    startup_h = startup_hours(workload)
    fits_cache: dict[tuple[str, tuple[int, ...]], Fit | None] = {}
    every: list[CloudOption] = []
    for offer in offers:
        if SNIPPET_FRAMEWORK not in offer.frameworks:
            continue  # e.g. Baidu AI Studio's GPU environments run PaddlePaddle only
        try:
            spec = find_gpu(offer.gpu)
        except BadInput:
            continue
        key = (spec.id, offer.gpu_counts)
        if key not in fits_cache:
            fits_cache[key] = fit_on(workload, train, spec, offer.gpu_counts, facts_for, estimate_for,
                                     practical_hours)
        fit = fits_cache[key]
        if fit is None or fit.estimate.total_hours is None:
            continue
        if offer.ram_gib is not None and fit.estimate.ram_bytes > offer.ram_gib * GIB:
            continue  # a notebook with fixed RAM (Kaggle, Colab): the plan (CPU offload above all) would not fit it
        usd, cny = _prices(offer)
        run = rented_run(offer, fit.estimate.total_hours, startup_h)
        hours = run.wall_hours
        if offer.kind == "free" and not _free_tier_practical(offer, hours):
            continue
        if local_hours is not None and hours > local_hours * 0.8:
            continue  # not worth renting: hardly faster than this PC
        note = fmt_list([n for n in (_card_note(offer, spec), _offer_note(offer, run),
                                     _overhead_note(run, offer.verified), _effective_batch_note(train, fit),
                                     _offload_ram_note(fit), _disk_note(offer, fit),
                                     _bf16_note(train, facts_for(spec, fit.gpus))) if n], strong=True)
        every.append(CloudOption(currency=billed_in(offer), tips=_tips(offer),
            label="", offer_id=offer.id, provider=localized(offer, "provider"), region_group=offer.region_group,
            gpu_name=offer.gpu_label or spec.name, gpus=fit.gpus, kind=offer.kind, price_usd_per_gpu_hour=usd,
            price_cny_per_gpu_hour=cny, total_hours=hours, train_hours=run.train_hours,
            billed_hours=run.billed_hours, sessions=run.sessions,
            cost_usd=None if usd is None else usd * fit.gpus * run.billed_hours,
            cost_cny=None if cny is None else cny * fit.gpus * run.billed_hours,
            sharding=fit.stage, per_gpu_vram_bytes=fit.estimate.peak_vram_bytes, tweaks=fit.tweaks, note=note,
            url=offer.url, as_of=offer.as_of, verified=offer.verified,
        ))
    every = region_order(every)
    return pick_options(every, practical_hours), every


@dataclasses.dataclass(frozen=True)
class RentedRun:
    """A job on a rented machine as the renter lives and pays it."""
    train_hours: float  # the training alone (the estimate)
    startup_hours: float  # per start: machine, environment, model download (cloud.toml [startup])
    sessions: int  # starts needed: a free tier's session limit splits a long run
    wall_hours: float  # start-ups + training
    billed_hours: float  # what the provider charges per GPU: rounded up to its step, at least its minimum
    billing: Billing | None  # None: a free tier


def startup_hours(workload: Workload) -> float:
    """Hours from renting to the first step: the policy allowance plus the model's 16-bit weights' download."""
    st = load_startup()
    weights_mb = (workload.model.params + workload.model.aux_params) * 2 / 1e6
    return st.minutes / 60 + weights_mb / st.download_mb_per_s / 3600


def rented_run(offer: CloudOffer, train_hours: float, startup_h: float) -> RentedRun:
    """What a run on `offer` takes and is billed: every start pays the start-up; a free tier with a session
    limit needs one start per session; a paid run is one start, billed by the provider's terms."""
    limit = offer.session_hours_limit
    sessions = max(1, math.ceil(train_hours / limit - 1e-9)) if offer.kind == "free" and limit else 1
    wall = train_hours + sessions * startup_h
    billing = billing_of(offer)
    if billing is None:
        return RentedRun(train_hours, startup_h, sessions, wall, 0.0, None)
    step = max(1, billing.increment_s)
    billed_s = max(billing.minimum_s, math.ceil(wall * 3600 / step - 1e-9) * step)
    return RentedRun(train_hours, startup_h, sessions, wall, billed_s / 3600, billing)


def _overhead_note(run: RentedRun, offer_verified: bool = True) -> str:
    """Why a short job costs more than its training time: say it when start-up and billing add over 10%."""
    if run.billing is None or run.billed_hours <= run.train_hours * 1.1:
        return ""
    b = run.billing
    if b.increment_s >= 3600:
        rule = tr("billed per started hour")
    elif b.increment_s >= 60:
        rule = tr("billed per started minute")
    elif b.minimum_s >= 60:
        rule = tr("billed per second, at least {m} min", m=f"{b.minimum_s / 60:.0f}")
    else:
        rule = tr("billed per second")
    text = tr("training itself takes {t}; starting the machine, setting up and downloading the model add about "
              "{s} ({rule})", t=fmt_duration(run.train_hours), s=fmt_duration(run.startup_hours), rule=rule)
    if offer_verified and not b.verified:  # an unverified offer already says to check its page
        text = fmt_list([text, tr("billing terms not re-checked")], strong=True)
    return text


def _card_note(offer: CloudOffer, spec: GpuSpec) -> str:
    """What a card the provider names its own way is ("A800 80GB": the A100 sold in China), from gpus.toml."""
    return localized(spec, "notes").rstrip("。.") if offer.gpu_label and spec.notes else ""


def _tips(offer: CloudOffer) -> tuple[str, ...]:
    """The provider's working notes in the reader's language (cloud.toml tips / tips_zh)."""
    return offer.tips_zh if get_language() == "zh_CN" and offer.tips_zh else offer.tips


def _disk_note(offer: CloudOffer, fit: Fit) -> str:
    """A job whose files outgrow the data disk an instance comes with (AutoDL: 50 GB) needs paid expansion."""
    if offer.disk_gib is None or fit.estimate.disk_bytes is None or fit.estimate.disk_bytes <= offer.disk_gib * GIB:
        return ""
    return tr("needs about {need} of disk, more than the {have} data disk included: expand it (paid) before "
              "downloading", need=fmt_gib(fit.estimate.disk_bytes, 0), have=f"{offer.disk_gib:.0f} GB")


def _bf16_note(train: TrainSpec, facts: GpuFacts) -> str:
    """A GPU without bf16 (V100, T4) beside a snippet written for one with it: say what to change."""
    if train.precision not in ("bf16", "bf16-pure") or bf16_ok(facts):
        return ""
    return tr("this GPU has no bf16: in the snippet use fp16=True instead of bf16=True")


def _offload_ram_note(fit: Fit) -> str:
    """A plan with CPU offload keeps the training state in the rented machine's RAM (ZeRO-Offload: 16 B/param
    for a full fine-tune, estimate.memory.placement): cloud offers list the GPU, so say the RAM it needs."""
    if not fit.train.cpu_offload:
        return ""
    return tr("needs about {ram} of RAM on the rented machine", ram=fmt_gib(fit.estimate.ram_bytes, 0))


def _effective_batch_note(train: TrainSpec, fit: Fit) -> str:
    """Several GPUs train with an effective batch of GPUs × micro-batch × accumulation: say how to keep the
    job's own (PyTorch DDP docs: each process takes its own micro-batch)."""
    if fit.gpus <= 1:
        return ""
    wanted = train.batch * train.grad_accum
    per_step = fit.train.batch * fit.train.grad_accum * fit.gpus
    if per_step == wanted:
        return ""
    k = max(1, round(wanted / (fit.train.batch * fit.gpus)))
    if wanted < fit.train.batch * fit.gpus:
        return tr("effective batch {eff} on {n} GPUs, larger than the job's {want}: adjust the learning rate",
                  eff=per_step, n=fit.gpus, want=wanted)
    return tr("effective batch {eff} on {n} GPUs (the job's: {want}): set gradient_accumulation_steps={k}",
              eff=per_step, n=fit.gpus, want=wanted, k=k)


def region_order(options: list[CloudOption]) -> list[CloudOption]:
    """Options the reader can use first: in mainland China, domestic clouds before foreign ones (a stable
    sort: the order within each group is kept)."""
    if not in_mainland():
        return list(options)
    return sorted(options, key=lambda o: o.region_group != "china")


def _free_tier_practical(offer: CloudOffer, hours: float) -> bool:
    if offer.total_hours_limit:
        return hours <= offer.total_hours_limit
    if offer.weekly_hours_limit:
        return hours <= offer.weekly_hours_limit * float(factor("general", "free_tier_max_weeks"))
    if offer.session_hours_limit:
        return hours <= offer.session_hours_limit * float(factor("general", "free_tier_max_sessions"))
    return True


def _offer_note(offer: CloudOffer, run: RentedRun) -> str:
    hours = run.wall_hours
    parts = []
    if in_mainland() and offer.mainland_access != "domestic":
        parts.append(tr(_MAINLAND_ACCESS_TEXT[offer.mainland_access]))
    if offer.kind == "free" and offer.total_hours_limit:
        parts.append(tr("uses {h} of the {q} h free GPU allowance", h=fmt_duration(hours),
                        q=f"{offer.total_hours_limit:.0f}"))
    if offer.kind == "free" and offer.weekly_hours_limit:
        weeks = hours / offer.weekly_hours_limit
        parts.append(tr("uses about {w} weeks of the free ~{q} h/week GPU quota", w=f"{weeks:.1f}",
                        q=f"{offer.weekly_hours_limit:.0f}") if weeks > 1 else
                     tr("fits in one week's free GPU quota (~{q} h)", q=f"{offer.weekly_hours_limit:.0f}"))
    if run.sessions > 1:
        parts.append(tr("needs {n} sessions of at most {s} h (each starts again): save checkpoints and resume",
                        n=run.sessions, s=f"{offer.session_hours_limit:.0f}"))
    elif offer.session_hours_limit and hours > offer.session_hours_limit:
        parts.append(tr("longer than one {s} h session: save checkpoints and resume",
                        s=f"{offer.session_hours_limit:.0f}"))
    if offer.kind == "spot":
        parts.append(tr("spot/interruptible: can be stopped any time, save checkpoints often"))
    if offer.kind == "free" and offer.notes:  # a free tier's terms: quota, session caveats (Colab)
        parts.append(localized(offer, "notes").rstrip("。."))  # joined with '；' / '; ' below
    if not offer.verified:
        parts.append(tr("quota not re-checked, confirm on the provider's page") if offer.kind == "free" else
                     tr("price not re-checked, confirm on the provider's page"))
    return fmt_list(parts, strong=True)


# What a reader in mainland China must know before choosing a foreign offer (cloud.toml mainland_access).
_MAINLAND_ACCESS_TEXT = {
    "overseas_card": N_("needs a foreign credit card; access from mainland China may be unstable"),
    "overseas_card_aws": N_("needs a foreign credit card; access from mainland China may be unstable; AWS China "
                            "regions (Beijing, Ningxia) need a company account"),
    "google": N_("needs access to Google, which is blocked in mainland China"),
    "unstable": N_("access from mainland China is unreliable"),
}


def pick_options(every: list[CloudOption], practical_hours: float | None = None) -> tuple[CloudOption, ...]:
    """The options worth showing, labelled: free, cheapest, fastest, cheapest in China. In mainland China
    (region "cn") domestic ones come first: a free domestic notebook, the cheapest and fastest domestic
    clouds, then the cheapest and fastest foreign ones (each noting what it needs from there)."""
    picked: list[CloudOption] = []

    def add(label: str, opt: CloudOption | None) -> None:
        if opt is None:
            return
        for p in picked:
            if p.offer_id == opt.offer_id and p.gpus == opt.gpus:
                return
        if any(p.provider == opt.provider and p.tips for p in picked):
            opt = dataclasses.replace(opt, tips=())  # a provider's working notes once, on its first row
        picked.append(dataclasses.replace(opt, label=label))

    def fastest(opts: list[CloudOption]) -> CloudOption | None:
        return min(opts, key=lambda o: (o.total_hours, o.cost_usd)) if opts else None

    def cheapest(opts: list[CloudOption]) -> CloudOption | None:
        return min(opts, key=lambda o: (o.cost_usd, o.total_hours)) if opts else None

    def one_gpu_first(opts: list[CloudOption]) -> list[CloudOption]:
        """A one-GPU snippet runs as printed on one GPU: an 8-GPU instance is "fastest" only when no single
        GPU runs the job."""
        return [o for o in opts if o.gpus == 1] or opts

    def free_rows(region: str) -> None:
        """Up to FREE_ROWS free tiers, the reader's region first (each carries its own quota and caveats)."""
        own = sorted((o for o in free if o.region_group == region), key=lambda o: o.total_hours or 0.0)
        rest = sorted((o for o in free if o.region_group != region), key=lambda o: o.total_hours or 0.0)
        for o in (own or rest)[:FREE_ROWS]:
            add("free", o)

    free = [o for o in every if o.kind == "free"]
    paid = [o for o in every if o.kind != "free" and o.cost_usd is not None]
    if practical_hours is not None:  # a cheap option that takes months is not the cheapest way there
        paid = [o for o in paid if o.total_hours <= practical_hours] or paid
    glob = [o for o in paid if o.region_group == "global"]
    china = [o for o in paid if o.region_group == "china"]
    if in_mainland():
        free_rows("china")
        add("cheapest_china", cheapest(china))
        add("fastest_china", fastest(one_gpu_first(china)))
        add("cheapest_abroad", cheapest(glob))
        add("fastest_abroad", fastest(one_gpu_first(glob)))
        return tuple(picked)
    free_rows("global")
    add("cheapest", cheapest(glob))
    add("fastest", fastest(one_gpu_first(paid)))
    add("cheapest_china", cheapest(china))
    return tuple(picked)


FREE_ROWS = 2  # free tiers shown at most: enough to compare quotas, few enough to read


# -- upgrades --------------------------------------------------------------------------------------


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
