"""The verdict rules for one exact configuration: fits / tight / does not fit in video memory (exact bytes plus
the uncertain part widened by the family's memory band) and in RAM, too slow, not supported."""

from __future__ import annotations

from gpucheck.estimate import bands
from gpucheck.estimate.factors import load_factors
from gpucheck.verdict import Verdict


def too_slow_hours() -> float:
    return float(load_factors()["verdict"]["too_slow_days"]) * 24.0


def verdict_for(*, supported: bool, fits: bool, total_hours: float | None,
                too_slow_after_hours: float | None = None, tight: bool = False) -> Verdict:
    """The verdict for one exact configuration: not_supported > does_not_fit > too_slow > tight > runs.
    `fits` is False only when even the estimate's error band says it does not fit; `tight` when it may."""
    if not supported:
        return Verdict.NOT_SUPPORTED
    if not fits:
        return Verdict.DOES_NOT_FIT
    limit = too_slow_hours() if too_slow_after_hours is None else too_slow_after_hours
    if total_hours is not None and total_hours > limit:
        return Verdict.TOO_SLOW
    return Verdict.TIGHT if tight else Verdict.RUNS


def uncertain_band(uncertain_bytes: float, family: str, vendor: str = "nvidia") -> tuple[float, float]:
    """(low, high) of the UNCERTAIN part of a GPU's memory need (activations and caching-allocator slack): that
    part × the family's memory band on this vendor's GPUs (estimate.bands.memory_band: the multipliers the
    published memory rows needed, leave-one-source-out; the wide default where none were checked). Weights,
    gradients, optimizer state and the CUDA context are exact bytes for given settings and are not widened."""
    lo, hi = bands.memory_band(family, vendor)
    return uncertain_bytes * lo, uncertain_bytes * hi


def fit_band(exact_bytes: float, uncertain_bytes: float, available_bytes: float | None,
             family: str, vendor: str = "nvidia") -> tuple[str, int, int]:
    """("fits" | "tight" | "does_not_fit", low, high): where the real peak may lie. Only the uncertain part
    (`uncertain_band`) is widened; the exact part is bytes. Usable memory is what is available less the
    last few percent (factors.toml [fit_band] headroom_fraction). Does not fit: the exact bytes alone exceed
    usable memory, or even the low end exceeds what is available. Tight: the exact bytes fit and the
    uncertain part spans the limit. Fits: even the high end leaves the headroom free."""
    fb = load_factors()["fit_band"]
    u_lo, u_hi = uncertain_band(uncertain_bytes, family, vendor)
    lo, hi = exact_bytes + u_lo, exact_bytes + u_hi
    if available_bytes is None:
        return "fits", int(lo), int(hi)
    usable = available_bytes * (1.0 - float(fb["headroom_fraction"]))
    if exact_bytes > usable or lo > available_bytes:
        return "does_not_fit", int(lo), int(hi)
    if hi > usable:
        return "tight", int(lo), int(hi)
    return "fits", int(lo), int(hi)


def ram_fit(need_bytes: int, total_bytes: int | None, available_bytes: int | None) -> str:
    """System RAM: "does_not_fit" over the installed (or WSL 2) total; "tight" when the high end of the
    estimate's error band (factors.toml [fit_band] ram_short) leaves less than the last few percent of what
    was free at the scan (close programs first); otherwise "fits"."""
    if total_bytes is None:
        return "fits"
    if need_bytes > total_bytes:
        return "does_not_fit"
    fb = load_factors()["fit_band"]
    high = need_bytes / (1.0 - float(fb["ram_short"]))
    # what is free unknown (a Mac given by name): the installed total less the same headroom, so the system
    # keeps its share as it does of GPU memory
    free = available_bytes if available_bytes is not None else total_bytes
    if high > free * (1.0 - float(fb["headroom_fraction"])):
        return "tight"
    return "fits"


