"""Advice → JSON-able dict (for --json and reports) and → plain text (for the CLI). No arithmetic."""

from __future__ import annotations

from typing import Any

from gpucheck.advise.data import UnlistedCloud, load_unlisted_clouds, usd_to_cny
from gpucheck.advise.model import OVERHEAD_SPEED_TWEAK_IDS, Advice, Alternative, CloudOption, Upgrade
from gpucheck.estimate.json_out import json_hours
from gpucheck.i18n import (
    N_,
    fmt_duration,
    fmt_gib,
    fmt_list,
    fmt_money,
    fmt_rate,
    get_language,
    localized,
    tr,
)
from gpucheck.machine import to_jsonable
from gpucheck.region import get_region, in_mainland

GIB = 1024**3


def _gib(n: float | None) -> float | None:
    return None if n is None else round(n / GIB, 2)


def _r(x: float | None, digits: int = 2) -> float | None:
    return None if x is None else round(x, digits)


def _h(x: float | None) -> float | None:
    """Hours as estimate --json writes them (a run under an hour keeps four significant digits)."""
    return None if x is None else json_hours(x)


def advice_to_dict(a: Advice) -> dict[str, Any]:
    """The advice as plain JSON values; keys: verdict, summary, tweaks, bottlenecks, software, upgrades,
    cloud, buy_vs_rent (+ settings, snippet, needs_vram_gib, final figures, notes)."""
    return {
        "workload": a.workload_id,
        "target": a.target,
        "verdict": str(a.verdict),
        "summary": a.summary,
        "needs_vram_gib": _gib(a.needs_vram_bytes),
        "final_peak_vram_gib": _gib(a.final_peak_vram_bytes),
        "final_total_hours": _h(a.final_total_hours),
        "expected_hours": _h(a.expected_hours),
        "final_ram_gib": _gib(a.final_ram_bytes),
        "final_limit": a.final_limit,
        "ram_unchecked": a.ram_unchecked,
        "tweaks": [
            {"id": t.id, "title": t.title, "cost": t.cost, "loses": t.loses, "settings": to_jsonable(t.settings),
             "peak_vram_gib": _gib(t.peak_vram_bytes), "total_hours": _h(t.total_hours), "fits": t.fits}
            for t in a.tweaks
        ],
        "alternatives": [_alternative_dict(x) for x in a.alternatives],
        "settings": to_jsonable(a.settings),
        "snippet": a.snippet,
        "speed_tweaks": [
            {"id": t.id, "kind": t.kind, "title": t.title, "cost": t.cost, "settings": to_jsonable(t.settings),
             "peak_vram_gib": _gib(t.peak_vram_bytes), "total_hours": _h(t.total_hours), "fits": t.fits}
            for t in a.speed_tweaks
        ],
        "bottlenecks": [
            {"id": b.id, "severity": b.severity, "message": b.message, "fix": b.fix,
             "figures": to_jsonable(b.figures)}
            for b in a.bottlenecks
        ],
        "software": [{"id": s.id, "severity": s.severity, "message": s.message, "command": s.command}
                     for s in a.software],
        "upgrades": [_upgrade_dict(u) for u in a.upgrades],
        "cloud": [_cloud_dict(c) for c in a.cloud],
        "cloud_unlisted": [{"provider": localized(u, "provider"), "known_for": localized(u, "known_for"),
                            "url": u.url, "source": u.source, "as_of": u.as_of, "price": None}
                           for u in unlisted_clouds(a)],
        "region": get_region(),  # whose clouds, shop prices and mirrors the advice names: cn | global
        "buy_vs_rent": None if a.buy_vs_rent is None else {
            "part": a.buy_vs_rent.part_name,
            "upgrade_price_usd": a.buy_vs_rent.upgrade_price_usd,
            "upgrade_price_cny": a.buy_vs_rent.upgrade_price_cny,
            "cloud_offer": a.buy_vs_rent.cloud_offer,
            "cloud_cost_usd": _r(a.buy_vs_rent.cloud_cost_usd),
            "cloud_usd_per_hour": _r(a.buy_vs_rent.cloud_usd_per_hour, 3),
            "break_even_hours": _r(a.buy_vs_rent.break_even_hours, 1),
            "runs_to_break_even": _r(a.buy_vs_rent.runs_to_break_even, 1),
            "message": a.buy_vs_rent.message,
        },
        "notes": list(a.notes),
        "host_limited_hours": _h(a.host_limited_hours),
        "smaller_model": None if a.alternative is None else {
            "workload": a.alternative.workload_id,
            "title": a.alternative.title,
            "tweaks": [{"id": t.id, "title": t.title, "cost": t.cost, "settings": to_jsonable(t.settings)}
                       for t in a.alternative.tweaks],
            "settings": to_jsonable(a.alternative.settings),
            "snippet": a.alternative.snippet,
            "peak_vram_gib": _gib(a.alternative.peak_vram_bytes),
            "total_hours": _h(a.alternative.total_hours),
            "too_slow": a.alternative.too_slow,
        },
    }


def _alternative_dict(x: Alternative) -> dict[str, Any]:
    """What fits instead (another method or a smaller model): never a tweak, it changes what is trained."""
    return {"kind": x.kind, "workload": x.workload_id, "title": x.title, "fits": x.fits,
            "tweaks": [{"id": t.id, "title": t.title, "cost": t.cost, "loses": t.loses,
                        "settings": to_jsonable(t.settings)} for t in x.tweaks],
            "settings": to_jsonable(x.settings), "snippet": x.snippet, "peak_vram_gib": _gib(x.peak_vram_bytes),
            "total_hours": _h(x.total_hours), "too_slow": x.too_slow}


def _upgrade_dict(u: Upgrade) -> dict[str, Any]:
    return {"kind": u.kind, "part_id": u.part_id, "name": u.name, "price_usd": u.price_usd,
            "price_cny": u.price_cny, "price_kind": u.price_kind, "reason": u.reason, "notes": list(u.notes),
            "total_hours": _h(u.total_hours), "tweaks": list(u.tweaks), "verified": u.verified,
            "source": u.source, "as_of": u.as_of, "gpu_id": u.gpu_id, "fit": u.fit, "gpus": u.gpus}


def _cloud_dict(c: CloudOption) -> dict[str, Any]:
    return {"label": c.label, "offer": c.offer_id, "provider": c.provider, "region_group": c.region_group,
            "gpu": c.gpu_name, "gpus": c.gpus, "kind": c.kind,
            "price_usd_per_gpu_hour": _r(c.price_usd_per_gpu_hour, 3),
            "price_cny_per_gpu_hour": _r(c.price_cny_per_gpu_hour, 3),
            "total_hours": _h(c.total_hours), "cost_usd": _r(c.cost_usd), "cost_cny": _r(c.cost_cny),
            "train_hours": _h(c.train_hours), "billed_hours": _r(c.billed_hours, 4), "sessions": c.sessions,
            "sharding": c.sharding, "per_gpu_vram_gib": _gib(c.per_gpu_vram_bytes), "tweaks": list(c.tweaks),
            "note": c.note, "tips": list(c.tips), "url": c.url, "as_of": c.as_of, "verified": c.verified,
            "currency": c.currency}


# -- text ------------------------------------------------------------------------------------------

CLOUD_LABELS = {
    "free": N_("Free"),
    "cheapest": N_("Cheapest"),
    "fastest": N_("Fastest"),
    "cheapest_china": N_("Cheapest in China"),
    "fastest_china": N_("Fastest in China"),
    "cheapest_abroad": N_("Cheapest outside China"),
    "fastest_abroad": N_("Fastest outside China"),
    "multi_gpu": N_("Several GPUs"),
}


def cloud_label(label: str) -> str:
    """A cloud option's label ('cheapest_china') for the reader ('Cheapest in China' / '国内最便宜')."""
    return tr(CLOUD_LABELS[label]) if label in CLOUD_LABELS else label


def cloud_cost_text(c: CloudOption) -> str:
    """The whole run's cost in the currency the provider bills in ('$2.27（约 ¥16）', '¥20'), or 'free'."""
    return tr("free") if c.kind == "free" else fmt_money(c.cost_usd, c.cost_cny, c.currency)


def cloud_rate_text(c: CloudOption) -> str:
    """Per GPU-hour, in the currency billed: '$0.18/GPU-hour' / '¥1.58/卡·时'; 'free' for a free tier."""
    return tr("free") if c.kind == "free" else fmt_rate(c.price_usd_per_gpu_hour, c.price_cny_per_gpu_hour,
                                                        c.currency)


def _gpus_text(c: CloudOption) -> str:
    gpus = c.gpu_name if c.gpus == 1 else tr("{n}× {gpu}", n=c.gpus, gpu=c.gpu_name)
    return gpus if c.sharding is None else tr("{gpus}, {how}", gpus=gpus, how=sharding_text(c.sharding))


def _cloud_line(c: CloudOption, with_note: bool = True) -> str:
    """'Cheapest: Vast.ai, RTX 3090, about 12.6 h, $2.27 ($0.18/GPU-hour)' — then the note, if any."""
    cost = cloud_cost_text(c)
    if c.kind != "free":
        cost = tr("{rate}, {cost} in all", cost=cost, rate=cloud_rate_text(c))
    line = tr("{label}: {provider}, {gpus}, about {h}, {cost}", label=cloud_label(c.label), provider=c.provider,
              gpus=_gpus_text(c), h=fmt_duration(c.total_hours), cost=cost)
    if c.note and with_note:
        line = tr("{line} — {note}", line=line, note=c.note)
    if with_note:
        line += "".join(f"\n      · {t}" for t in c.tips)
    return line


def _rent_text(c: CloudOption) -> str:
    """For a table cell: 'rent an RTX 3090 on Vast.ai, about 12.6 h, $2.27' (no label, no colon chain)."""
    if c.kind == "free":  # a free tier is used, not rented
        return tr("use {gpus} free on {provider}, about {h}", gpus=_gpus_text(c), provider=c.provider,
                  h=fmt_duration(c.total_hours))
    return tr("rent {gpus} on {provider}, about {h}, {cost}", gpus=_gpus_text(c), provider=c.provider,
              h=fmt_duration(c.total_hours), cost=cloud_cost_text(c))


def unlisted_clouds(a: Advice) -> tuple[UnlistedCloud, ...]:
    """In mainland China, beside the cloud options: the domestic rental sites with no sourced price (cloud.toml
    [[unlisted]]), so a reader learns they exist; nothing elsewhere or when no cloud option is shown."""
    return load_unlisted_clouds() if in_mainland() and a.cloud else ()


def unlisted_clouds_text(sites: tuple[UnlistedCloud, ...]) -> str:
    """'Also much used in mainland China, prices not listed …: 恒源云 (gpushare.com) — … ; 矩池云 … — …'."""
    names = fmt_list([tr("{provider} — {what}", provider=localized(u, "provider"), what=localized(u, "known_for"))
                      for u in sites], strong=True)
    return tr("Also much used in mainland China (prices not listed: check on each site; not verified): {sites}",
              sites=names)


def sharding_text(stage: str) -> str:
    """How several GPUs (or the CPU) share the job: one table for the CLI, the app and the reports."""
    return {"zero1": tr("DeepSpeed ZeRO-1"), "zero2": tr("DeepSpeed ZeRO-2"),
            "zero3": tr("DeepSpeed ZeRO-3 / FSDP"),
            "zero3_offload": tr("DeepSpeed ZeRO-3 + CPU offload"),
            "zero2_offload": tr("DeepSpeed ZeRO-Offload (CPU)")}.get(stage, stage)


def settings_text(settings: dict[str, Any]) -> str:
    """Settings as one copyable line of Hugging Face keyword arguments: `packing=True, max_length=2048`."""
    return ", ".join(f"{k}={v!r}" for k, v in settings.items())


def alternative_text(alt: Alternative) -> str:
    """One sentence on the smaller model that fits: its name, what it needs per GPU and how long it takes."""
    need = fmt_gib(alt.peak_vram_bytes)
    if alt.total_hours is None:
        return tr("{title}: fits this GPU with {need} per GPU.", title=alt.title, need=need)
    if alt.too_slow:
        return tr("{title}: fits this GPU with {need} per GPU, but takes about {time} here — too slow; "
                  "see the cloud GPUs.", title=alt.title, need=need, time=fmt_duration(alt.total_hours))
    return tr("{title}: fits this GPU with {need} per GPU and takes about {time}.",
              title=alt.title, need=need, time=fmt_duration(alt.total_hours))


def shop_price_text(usd: float | None, cny: float | None) -> str:
    """A shop price: the domestic yuan price in mainland China when parts.toml has one; else dollars, which a
    Chinese reader is also given as 约 ¥ ('$750（约 ¥5,325）'), an English one not."""
    if cny is None and usd is not None:
        if in_mainland():  # no mainland price known: the dollar price, said to be an overseas one
            if get_language() == "zh_CN":
                return tr("{amount} (overseas price, about {other})", amount=fmt_money(usd, None, "usd"),
                          other=fmt_money(None, usd_to_cny(usd), "cny"))
            return tr("{amount} (overseas price)", amount=fmt_money(usd, None, "usd"))
        return fmt_money(usd, usd_to_cny(usd), "usd")
    return fmt_money(usd, cny)


def upgrade_text(u: Upgrade) -> str:
    """One upgrade in one sentence: the part, its price, why, and (a GPU) how long the job takes with it —
    each said once (the notes come on their own lines)."""
    price = shop_price_text(u.price_usd, u.price_cny)  # yuan in mainland China, else $ (约 ¥ in Chinese)
    if u.total_hours is None:
        return tr("{name}: {price} — {reason}", name=u.name, price=price, reason=u.reason)
    return tr("{name}: {price} — {reason}; with it this job takes about {h}", name=u.name, price=price,
              reason=u.reason, h=fmt_duration(u.total_hours))


def _upgrade_line(u: Upgrade) -> str:
    line = upgrade_text(u)
    for n in u.notes:
        line += f"\n      · {n}"
    return line


def tried_instead_text(alt: Alternative) -> str:
    """One line for a change tried instead that does not fit with room: it may still fit (its range spans the
    usable memory) or it does not fit either."""
    if alt.tight:
        return tr("Also tried instead, may fit but without room to spare: {title} (needs about {need} per GPU).",
                  title=alt.title, need=fmt_gib(alt.peak_vram_bytes))
    return tr("Also tried instead, does not fit either: {title} (needs {need} per GPU).",
              title=alt.title, need=fmt_gib(alt.peak_vram_bytes))


def format_advice(a: Advice, indent: str = "") -> str:
    """The full advice for one job, as readable text."""
    lines = [a.summary]
    if a.tweaks and a.verdict == "does_not_fit":
        lines.append(tr("Tried, not enough:"))
        lines += [tr("  - {title}", title=t.title) for t in a.tweaks]
    elif a.tweaks:
        lines.append(tr("Make these changes and try it (each keeps what is trained; it may still run out of memory):")
                     if a.verdict == "tight" else
                     tr("What to change (in order, the cheapest first; each keeps what is trained and says what it costs):"))
        for i, t in enumerate(a.tweaks, 1):
            lines.append(tr("  {i}. {title} — cost: {cost}", i=i, title=t.title, cost=t.cost))
    if a.snippet:
        lines.append(tr("Settings to copy:"))
        lines += ["    " + ln for ln in a.snippet.splitlines()]
    if a.speed_tweaks:
        overhead = any(t.id in OVERHEAD_SPEED_TWEAK_IDS for t in a.speed_tweaks)
        lines.append(tr("Optional, to finish sooner (each on its own; the steps are too small to keep the GPU busy):")
                     if overhead else tr("Optional, to finish sooner (each on its own):"))
        for t in a.speed_tweaks:
            lines.append(tr("  - {title}: about {h} — trade-off: {cost}", title=t.title,
                            h=fmt_duration(t.total_hours), cost=t.cost))
            lines.append("    " + settings_text(t.settings))
    lines += [tried_instead_text(alt) for alt in a.alternatives if not alt.fits]
    if a.alternative is not None:
        alt = a.alternative
        lines.append(tr("What fits instead: {title}.", title=alt.title) if alt.total_hours is None else
                     tr("What fits instead: {title}, about {h}.", title=alt.title, h=fmt_duration(alt.total_hours))
                     if not alt.too_slow else
                     tr("What fits instead: {title}, but it takes about {h} here (too slow; see the cloud "
                        "options).", title=alt.title, h=fmt_duration(alt.total_hours)))
        for i, t in enumerate(alt.tweaks, 1):
            lines.append(tr("  {i}. {title} — cost: {cost}", i=i, title=t.title, cost=t.cost))
        if alt.snippet:
            lines += ["    " + ln for ln in alt.snippet.splitlines()]
    for s in a.software:
        lines.append(tr("Software: {msg}", msg=s.message))
        if s.command:  # a command per line, each indented
            lines += [f"    {c}" for c in s.command.splitlines()]
    for b in a.bottlenecks:
        lines.append(tr("Bottleneck: {msg}", msg=b.message))
        lines.append(tr("  Fix: {fix}", fix=b.fix))
    if a.upgrades:
        lines.append(tr("Upgrades:"))
        lines += ["  " + _upgrade_line(u) for u in a.upgrades]
    if a.cloud:
        lines.append(tr("Rent a cloud GPU:"))
        lines += ["  " + _cloud_line(c) for c in a.cloud]
        if unlisted_clouds(a):
            lines.append("  " + unlisted_clouds_text(unlisted_clouds(a)))
    if a.buy_vs_rent is not None:
        lines.append(tr("Buy or rent: {msg}", msg=a.buy_vs_rent.message))
    lines += list(a.notes)
    return "\n".join(indent + ln for ln in lines)


def format_advice_brief(a: Advice) -> str:
    """One line for a table of many jobs (gpucheck check): what to change, what slows it, or where to rent."""
    if a.verdict in ("runs_with_tweaks", "tight") and a.tweaks:
        brief = fmt_list((t.title for t in a.tweaks), strong=True)
        if a.ram_unchecked and a.final_ram_bytes:
            brief += " " + tr("(needs about {ram} of system RAM, not checked)", ram=fmt_gib(a.final_ram_bytes))
        return brief
    if a.verdict == "tight" and a.alternative is not None:
        return tr("try it; if it runs out of memory: {title}", title=a.alternative.title)
    if a.verdict == "tight":
        return tr("try it; close other programs first")
    ram = next((b for b in a.bottlenecks if b.id == "ram"), None)
    if a.verdict == "does_not_fit" and a.final_limit == "ram" and ram is not None:
        # RAM is what stops it: the RAM fix (.wslconfig, close programs), not a cloud GPU for a GPU that fits
        return tr("short of system RAM ({need} needed, {have} here): {fix}",
                  need=fmt_gib(ram.figures.get("ram_needed_bytes")), have=fmt_gib(ram.figures.get("ram_total_bytes")),
                  fix=ram.fix)
    slow = [b for b in a.bottlenecks if b.severity == "warning" and b.id in ("data_loading", "disk_speed")]
    if a.verdict == "too_slow" and slow and a.host_limited_hours is not None:
        return tr("slowed down by the {what}: {fix}", what=tr(_BOTTLENECK_WORDS[slow[0].id]), fix=slow[0].fix)
    if a.verdict in ("does_not_fit", "too_slow", "not_supported") and a.cloud:
        paid = [c for c in a.cloud if c.kind != "free"]
        best = paid[0] if paid else a.cloud[0]  # the first paid option: the reader's region comes first
        if a.verdict == "does_not_fit" and "offload" in (best.sharding or "") \
                and any("ZeRO-Offload" in n for n in a.notes):
            # renting a GPU to run CPU offload (the same GPU, or a cheaper one where the CPU's optimizer step sets the
            # pace): what this PC lacks is the RAM CPU offload needs (advise's note says how much)
            return tr("this GPU runs it with CPU offload, but this PC has too little RAM for that (see 'estimate'); "
                      "or {rent}", rent=_rent_text(best))
        return _rent_text(best)
    return ""


def verdict_tooltip(a: Advice) -> str:
    """The jobs table's verdict tooltip for a job that does not run here: the reason (the advice's summary:
    "QLoRA needs bitsandbytes 4-bit kernels, …") and the way out — what fits instead, then where to rent.
    '' for a job that runs."""
    if a.verdict not in ("does_not_fit", "too_slow", "not_supported"):
        return ""
    lines = [a.summary]
    if a.alternative is not None:
        lines.append(tr("What fits instead: {title}", title=a.alternative.title))
    brief = format_advice_brief(a)
    if brief:
        lines.append(tr("Way out: {brief}", brief=brief))
    return "\n".join(line for line in lines if line)


_BOTTLENECK_WORDS = {"data_loading": N_("CPU's image decoding"), "disk_speed": N_("disk")}


def format_machine_advice(advices: list[Advice]) -> str:
    """Software fixes and bottlenecks shared by several jobs, each said once."""
    seen: set[str] = set()
    lines = []
    for a in advices:
        for s in a.software:
            key = "sw:" + s.id
            if key not in seen:
                seen.add(key)
                lines.append(tr("Software: {msg}", msg=s.message))
                if s.command:
                    lines += [f"    {c}" for c in s.command.splitlines()]
        for b in a.bottlenecks:
            if b.id in ("battery", "thermal", "psu", "pcie", "cpu_only"):
                key = "bn:" + b.id
                if key not in seen:
                    seen.add(key)
                    lines.append(tr("Bottleneck: {msg}", msg=b.message))
                    lines.append(tr("  Fix: {fix}", fix=b.fix))
    return "\n".join(lines)


__all__ = ["CLOUD_LABELS", "cloud_label", "cloud_cost_text", "cloud_rate_text", "advice_to_dict", "format_advice",
           "format_advice_brief", "verdict_tooltip", "format_machine_advice", "fmt_gib", "alternative_text",
           "settings_text", "upgrade_text", "unlisted_clouds", "unlisted_clouds_text"]
