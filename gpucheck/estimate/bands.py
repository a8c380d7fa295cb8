"""How far the real run may lie from the estimate, from the leave-one-source-out errors of the published rows
(resources/factors.toml [speed_band] and [memory_band], written by `python -m tests.core.accuracy`).

- `speed_band(family, vendor) -> (p10, p90)`: the true time lies in time × (p10, p90) for about 80 % of published
  runs of the family, each predicted by the model refitted without its own source.
- `memory_band(family, vendor) -> (lo, hi)`: a multiplier on the UNCERTAIN bytes only (activations and the
  caching allocator's slack); weights, gradients, optimizer state and the CUDA context are exact given the
  settings and are not widened.
- `unchecked(family, vendor, kind)`: what the band was not checked on ("amd", "speech" …): such a family or
  vendor gets the wide default band.
- `time_band(family, target)`: the band an estimate shows, the published one or, on a CPU a calibration measured,
  how far such calibrations missed the jobs they did not measure ([speed_band.calibrated_cpu]).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.factors import load_factors
from gpucheck.i18n import fmt_list, tr


def _cell(table: Mapping[str, Any], family: str, vendor: str) -> Mapping[str, Any] | None:
    fam = table["cell"].get(family)
    return fam.get(vendor) if fam is not None else None


def speed_band(family: str, vendor: str, f: Mapping[str, Any] | None = None) -> tuple[float, float]:
    """(P10, P90) of estimate / measured speed for this workload family on this vendor's GPUs (the default,
    wide band where no published rows of that family on that vendor were checked)."""
    t = (f or load_factors())["speed_band"]
    b = _cell(t, family, vendor) or t["default"]
    return float(b["p10"]), float(b["p90"])


def calibrated_cpu(target: Any) -> bool:
    """The estimate is for this PC's CPU and a calibration measured it (gpucheck calibrate, or a trial): its time
    range is then how far such a calibration missed jobs it did not measure ([speed_band.calibrated_cpu])."""
    return bool(target.on_cpu) and target.calibration is not None


def time_band(family: str, target: Any, f: Mapping[str, Any] | None = None) -> tuple[tuple[float, float], bool]:
    """((P10, P90) of the time, checked) for a job of `family` on `target`: a calibrated CPU's band, else the
    published runs' band of the family on the target's vendor (checked: False for the wide default)."""
    f = f or load_factors()
    if calibrated_cpu(target):
        b = f["speed_band"]["calibrated_cpu"]
        return (float(b["p10"]), float(b["p90"])), True
    vendor = vendor_of(target)
    return speed_band(family, vendor, f), not unchecked(family, vendor, "speed", f)


def memory_band(family: str, vendor: str, f: Mapping[str, Any] | None = None) -> tuple[float, float]:
    """(lo, hi): the real activations + allocator slack lie within estimated uncertain bytes × (lo, hi)."""
    t = (f or load_factors())["memory_band"]
    b = _cell(t, family, vendor) or t["default"]
    return float(b["lo"]), float(b["hi"])


def unchecked(family: str, vendor: str, kind: str = "speed", f: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """What this band has no published rows for: () when the family was checked on this vendor; else the family
    and/or the vendor that no row covers (both when each was checked only without the other)."""
    t = (f or load_factors())["speed_band" if kind == "speed" else "memory_band"]
    if _cell(t, family, vendor) is not None:
        return ()
    cells = t["cell"]
    family_seen = family in cells
    vendor_seen = any(vendor in cells[fam] for fam in cells)
    if family_seen and not vendor_seen:
        return (vendor,)
    if vendor_seen and not family_seen:
        return (family,)
    return (family, vendor)


def vendor_of(target: Any) -> str:
    """The vendor a Target's bands are looked up by: the GPU's vendor; "laptop" for any laptop GPU (its sustained
    clock, factors.toml clocks.fallback_fraction.laptop, is a judgement no measurement checks, so laptops get their
    own band once enough published laptop runs exist); "cpu" without a GPU."""
    gpu = getattr(target, "gpu", None)
    if gpu is None:
        return "cpu"
    return "laptop" if gpu.segment == "laptop" else gpu.vendor


def memory_vendor_of(target: Any) -> str:
    """The vendor a Target's MEMORY band is looked up by: the GPU's vendor, laptops included. What a job keeps in
    memory does not depend on the clock a laptop sustains (the reason laptops have their own speed band): the same
    kernels and the same caching allocator run; "cpu" without a GPU."""
    gpu = getattr(target, "gpu", None)
    return "cpu" if gpu is None else gpu.vendor


def _label(what: str) -> str:
    labels = {"amd": tr("AMD GPUs"), "apple": tr("Apple GPUs"), "intel": tr("Intel GPUs"), "cpu": tr("CPUs"),
              "laptop": tr("laptop GPUs"),
              "nvidia": tr("NVIDIA GPUs"), "vision": tr("image jobs"), "nlp": tr("text-encoder jobs"),
              "diffusion": tr("diffusion jobs"), "llm": tr("language-model jobs"), "speech": tr("speech jobs")}
    return labels.get(what, what)


def unchecked_note(family: str, vendor: str, f: Mapping[str, Any] | None = None) -> str | None:
    """One line for the estimate's notes when its time range rests on no published run of this kind."""
    missing = unchecked(family, vendor, "speed", f)
    if not missing:
        return None
    return tr("Time range not yet checked against published training runs on {what}: it is shown wide",
              what=fmt_list([_label(m) for m in missing]))
