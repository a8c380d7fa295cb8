"""Cloud GPUs to rent: the offers that run the job unchanged (gpucheck.advise.same_job), what a run on each
takes and is billed, the notes each needs, and the ones worth showing — free, cheapest, fastest, cheapest in China.

Pure. The estimator is injected as `estimate_for(spec, gpus) -> EstimateFn`, so a rented GPU is estimated
exactly like the user's own.
"""

from __future__ import annotations

import dataclasses
import math

from gpucheck.advise.data import (
    Billing,
    CloudOffer,
    billing_of,
    cny_to_usd,
    factor,
    load_cloud,
    load_startup,
    usd_to_cny,
)
from gpucheck.advise.gpu_support import GpuFacts, bf16_ok
from gpucheck.advise.model import CloudOption
from gpucheck.advise.same_job import EstimateFor, FactsFor, FindGpu, Fit, fit_on
from gpucheck.errors import BadInput
from gpucheck.i18n import N_, fmt_duration, fmt_gib, fmt_list, get_language, localized, tr
from gpucheck.records import GpuSpec, TrainSpec, Workload
from gpucheck.region import in_mainland

GIB = 1024**3
# Every snippet the advice prints is PyTorch: a cloud whose GPU environment cannot run it is no option
SNIPPET_FRAMEWORK = "pytorch"


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
