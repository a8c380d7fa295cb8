"""A job's options as one picture, time against money: this PC as it is and with the changes, each GPU
upgrade with its price, each cloud offer with the cost of the whole run (`option_points`), and the chart's
columns and log time axis, which the app's and the PDF's QPainter chart and the HTML report's SVG share.

Pure: no Qt, the figures of gpucheck.report.figures and the advice's price texts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gpucheck.advise.present import cloud_cost_text, shop_price_text
from gpucheck.i18n import tr
from gpucheck.report.figures import JobFigures, job_figures
from gpucheck.verdict import Verdict

# -- the choices for one job, as one picture: time against money ----------------------------------------------


@dataclass(frozen=True)
class OptionPoint:
    """One way to run the job: this PC as it is, with the changes, with an upgrade, or in the cloud."""

    kind: str  # this_pc | this_pc_changed | upgrade | cloud
    label: str
    hours: float | None  # None: it does not run this way
    cost_usd: float | None  # what it costs: 0 on this PC, the part's price, the whole cloud run
    cost_cny: float | None
    status: str  # fits | tight | does_not_fit
    cost_text: str = ""


def _status_of(verdict: str) -> str:
    v = Verdict.parse(verdict)
    if v == Verdict.TIGHT:
        return "tight"
    return "fits" if v.can_train else "does_not_fit"


def option_points(est: Any, adv: Any, target_label: str, fig: JobFigures | None = None,
                  price: tuple[float | None, float | None] | None = None) -> tuple[OptionPoint, ...]:
    """This PC as is and with the changes, each GPU upgrade with its price, each cloud offer with the cost of
    the whole run — the options the details page, the PDF and the HTML report draw.

    `fig`: the job's figures as shown (measured once a trial measured it: the PC's own point is then the
    measured time, with no "with the changes" point); `price`: (USD, CNY) of the GPU compared on when it is
    a what-if GPU the user does not own (None: this PC, nothing to buy)."""
    shown = fig if fig is not None and fig.measured is not None else job_figures(est, adv)
    free = tr("nothing to buy")
    usd: float | None = 0.0
    cny: float | None = 0.0
    cost = free
    if price is not None:
        usd, cny = price
        cost = shop_price_text(usd, cny) if usd is not None or cny is not None else tr("price unknown")
    if shown.measured is not None:
        out = [OptionPoint("this_pc", tr("{target}, measured", target=target_label), shown.hours, usd, cny,
                           _status_of(shown.verdict), cost)]
        return tuple(out) + _other_points(adv)
    out = [OptionPoint("this_pc", tr("{target}, as configured", target=target_label), shown.hours, usd, cny,
                       _status_of(est.verdict), cost)]
    if adv is None:
        return tuple(out)
    if adv.tweaks:
        out.append(OptionPoint("this_pc_changed", tr("{target}, with the changes", target=target_label),
                               shown.hours_after, usd, cny, _status_of(adv.verdict), cost))
    return tuple(out) + _other_points(adv)


def purchase_price(gpu: Any, count: int = 1) -> tuple[float | None, float | None]:
    """(USD, CNY) of `count` × a catalog GPU (None where the catalog has no price): a what-if GPU's cost on the
    options chart."""
    return (None if gpu.price_usd is None else gpu.price_usd * count,
            None if gpu.price_cny is None else gpu.price_cny * count)


def _other_points(adv: Any) -> tuple[OptionPoint, ...]:
    """The upgrades and the cloud offers of `option_points`."""
    out: list[OptionPoint] = []
    if adv is None:
        return ()
    for u in adv.upgrades:
        if u.kind != "gpu":
            continue
        out.append(OptionPoint("upgrade", tr("Buy {part}", part=u.name), u.total_hours, u.price_usd, u.price_cny,
                               u.fit if u.total_hours is not None else "does_not_fit",
                               shop_price_text(u.price_usd, u.price_cny)))
    for c in adv.cloud:
        gpus = tr("{n} × {gpu}", n=c.gpus, gpu=c.gpu_name) if c.gpus > 1 else c.gpu_name
        cost = cloud_cost_text(c)  # in the currency the provider bills in
        label = (tr("Use {gpus} free on {provider}", gpus=gpus, provider=c.provider) if c.kind == "free" else
                 tr("Rent {gpus} on {provider}", gpus=gpus, provider=c.provider))
        out.append(OptionPoint("cloud", label,
                               c.total_hours, 0.0 if c.kind == "free" else c.cost_usd,
                               0.0 if c.kind == "free" else c.cost_cny,
                               "fits" if c.total_hours is not None else "does_not_fit",
                               tr("{cost} for the whole run", cost=cost)))
    return tuple(out)


# the chart's columns, as fractions of its width: label | time bar (log scale) | time | cost (the PDF's and
# the app's QPainter chart, gpucheck.report.pdf.paint_options, and the HTML report's SVG)
OPTIONS_COLUMNS = (0.44, 0.20, 0.10, 0.26)


def options_headings() -> tuple[str, str, str, str]:
    """The chart's column headings, in the language in force."""
    return (tr("Option"), tr("Time (log scale)"), tr("Time"), tr("Cost"))


def hours_axis(points: tuple[OptionPoint, ...]) -> tuple[float, float]:
    """(shortest, longest) hours of the time axis (log scale) over the options that run."""
    hours = [p.hours for p in points if p.hours is not None and p.hours > 0]
    if not hours:
        return (0.1, 10.0)
    lo, hi = min(hours) / 2, max(hours) * 1.5
    return (lo, hi if hi > lo * 4 else lo * 4)


def time_fraction(hours: float | None, axis: tuple[float, float]) -> float:
    """Where `hours` sits on the log time axis, 0…1 (0 for no time)."""
    if hours is None or hours <= 0:
        return 0.0
    lo, hi = axis
    return max(0.02, min(1.0, math.log(hours / lo) / math.log(hi / lo)))


__all__ = ["OptionPoint", "option_points", "purchase_price", "OPTIONS_COLUMNS", "options_headings", "hours_axis",
           "time_fraction"]
