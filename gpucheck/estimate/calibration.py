"""Calibration on this PC: what real steps measured here corrects in every later estimate on it.

A calibration is a set of *samples*: one measured training step (from `gpucheck calibrate` or a
`gpucheck trial`) beside the uncalibrated estimate of the same step on the same device, split into the
estimate's two parts:

- `work_s`: the arithmetic and memory traffic of the step (matrix math, element-wise passes, optimizer) —
  what the family's kernels make of this device's peak;
- `host_s`: the per-step host cost (operator dispatch on the CPU's single thread, the fixed per-step cost).

From the samples of one device the calibration keeps
- one **host factor**: the machine-wide ratio measured ÷ estimated over all samples (geometric mean): how much
  slower or faster this PC runs than the model of it, applied to the host part of every step;
- one **work factor per family** (cnn | transformer | unet | mlp): the geometric mean over that family's samples of
  (measured − host factor × host_s) ÷ work_s. A job of a measured family is priced with its family's factor: the
  most specific measurement of how this PC runs that family's kernels (conv nets' convolutions by their shapes,
  transformers' GEMMs at their rows, a U-Net's attention);
- for the families not measured, with three or more samples whose steps split differently between matrix math and
  memory-bound work (the estimate's `memory_s` share of `work_s`), the PC's two **rates**: one factor on the matrix
  part (convolutions, matrix multiplies: what the cores' or tensor cores' arithmetic reaches) and one on the
  memory-bound part (element-wise, normalization, the optimizer: what the memory and the element-wise kernels reach),
  fitted by least squares on the relative error; a job of another family is priced from how much of its step is
  each. Without them, the machine-wide ratio: one measurement says at least "this PC measured slower (or faster)
  than estimated" for every job.

Which of the two comes first was measured (docs/accuracy.md "Calibration on this PC"): until December 2026 the two
rates priced every job, and on the CPU jobs they predicted a left-out job better than the family factors; once the
CPU model priced dropout's masks, page faults and fused attention's softmax (which the memory-bound rate had been
absorbing), the family factors did better — left out, 6 of 10 jobs within 10 % against 4, and `gpucheck calibrate`'s
three probes, applied to ten trials on an Intel Xeon, 1.26× mean error against 1.34× (uncalibrated 1.30×) — while the
two rates, fitted on three probes, can trade a U-Net's slow attention for a fast memory rate.

The store is one small JSON file in the user's data folder (platformdirs; `GPUCHECK_CALIBRATION_DIR`
overrides the folder, which tests use), keyed by a fingerprint of the machine made from its CPU model,
core counts and installed RAM — nothing that identifies the person or the PC (no host name, no serial,
no UUID). Reading it never raises: a missing or damaged file means "not calibrated".
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gpucheck.estimate.loop import step_overhead_seconds
from gpucheck.fileio import write_text_atomic
from gpucheck.i18n import tr
from gpucheck.lazy import lazy_import
from gpucheck.resources import resource_path

APP = "gpucheck"
ENV_DIR = "GPUCHECK_CALIBRATION_DIR"
platformdirs = lazy_import("platformdirs")  # read only when the store is first looked for
FILE_NAME = "calibration.json"
SCHEMA = 1
MAX_SAMPLES_PER_DEVICE = 40  # the newest are kept
FAMILIES = ("cnn", "transformer", "unet", "mlp")


@dataclass(frozen=True)
class Sample:
    """One measured step on this machine beside the uncalibrated estimate of the same step."""

    key: str  # what was measured: "calibrate:conv" or "trial:mnist-cnn batch=64 precision=fp32"
    family: str  # cnn | transformer | unet | mlp (the workload's model.arch)
    device: str  # the estimate's device name: "CPU" or the catalog GPU name
    measured_step_s: float
    work_s: float  # the estimate's arithmetic and memory part of the step (uncalibrated)
    host_s: float  # the estimate's per-step host part (uncalibrated)
    flops_per_step: float = 0.0
    memory_s: float = 0.0  # of work_s, the memory-bound part (element-wise, normalization, optimizer); 0: not known
    on: str = ""  # ISO date (UTC) of the measurement
    source: str = "trial"  # calibrate | trial
    model: str = ""  # the speed model the estimate came from (model_version()); another model's samples are not used

    @property
    def estimated_step_s(self) -> float:
        return self.work_s + self.host_s

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Sample | None:
        try:
            s = cls(key=str(d["key"]), family=str(d["family"]), device=str(d["device"]),
                    measured_step_s=float(d["measured_step_s"]), work_s=float(d["work_s"]),
                    host_s=float(d["host_s"]), flops_per_step=float(d.get("flops_per_step") or 0.0),
                    memory_s=float(d.get("memory_s") or 0.0),
                    on=str(d.get("on") or ""), source=str(d.get("source") or "trial"), model=str(d.get("model") or ""))
        except (KeyError, TypeError, ValueError):
            return None
        ok = s.measured_step_s > 0 and s.work_s >= 0 and s.host_s >= 0 and s.estimated_step_s > 0 \
            and 0 <= s.memory_s <= s.work_s
        return s if ok and all(math.isfinite(x) for x in (s.measured_step_s, s.work_s, s.host_s, s.memory_s)) \
            else None


@dataclass(frozen=True)
class Calibration:
    """The factors measured on one device of this machine (see the module's docstring)."""

    device: str
    on: str  # the newest sample's date
    host_factor: float
    work_factors: Mapping[str, float]  # by family, measured families only
    samples: tuple[Sample, ...]
    machine_factor: float  # measured ÷ estimated over all samples (geometric mean)
    matrix_factor: float | None = None  # the two rates (see the module's docstring); None: not measurable from
    memory_factor: float | None = None  # these samples, the family factors apply
    other_work_factor: float = 1.0  # the device's work of a family not measured: the measured families' work, or
    # 1 where every sample was the host's (a small step on a fast GPU tells nothing about the GPU's arithmetic)

    def work_factor(self, family: str) -> float:
        return float(self.work_factors.get(family, self.other_work_factor))

    def measured(self, family: str) -> bool:
        return family in self.work_factors

    @property
    def two_rates(self) -> bool:
        return self.matrix_factor is not None and self.memory_factor is not None

    def step_seconds(self, step_s: float, host_s: float, family: str, memory_s: float | None = None) -> float:
        """A step the estimate puts at `step_s`, of which `host_s` is host cost and `memory_s` (when known)
        memory-bound work, as this PC runs it: with its family's factor where the family was measured, else from
        the two rates, else with the machine-wide factor."""
        host_s = min(max(0.0, host_s), step_s)
        if not self.measured(family):
            split = self.split_seconds(step_s, host_s, memory_s)
            if split is not None:
                return split
        return self.work_factor(family) * (step_s - host_s) + self.host_factor * host_s

    def split_seconds(self, step_s: float, host_s: float, memory_s: float | None) -> float | None:
        """The step priced from its split alone, with the two rates (None without them or without the split)."""
        if self.matrix_factor is None or self.memory_factor is None or memory_s is None:
            return None
        host_s = min(max(0.0, host_s), step_s)
        work = step_s - host_s
        mem = min(max(0.0, memory_s), work)
        return self.matrix_factor * (work - mem) + self.memory_factor * mem + self.host_factor * host_s

    def rates(self) -> dict[str, Any]:
        """The JSON form: per family the step-time factor (measured ÷ estimated), the FLOP rate the
        measured steps reached, and how many samples set it; the host factor."""
        out: dict[str, Any] = {}
        for fam in FAMILIES:
            rows = [s for s in self.samples if s.family == fam and informs_work(s)]
            if not rows:
                continue
            work_s = sum(s.measured_step_s - self.host_factor * s.host_s for s in rows)
            flops = sum(s.flops_per_step for s in rows)
            out[fam] = {"step_time_factor": round(self.work_factor(fam), 4), "samples": len(rows),
                        "achieved_tflops": round(flops / work_s / 1e12, 4) if flops and work_s > 0 else None}
        if self.matrix_factor is not None and self.memory_factor is not None:
            out["matrix_time_factor"] = round(self.matrix_factor, 4)
            out["memory_bound_time_factor"] = round(self.memory_factor, 4)
        out["other_families_step_time_factor"] = round(self.other_work_factor, 4)
        out["whole_pc_step_time_factor"] = round(self.machine_factor, 4)
        out["host_overhead_factor"] = round(self.host_factor, 4)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "device": self.device, "rates": self.rates()}


def _geomean(xs: Iterable[float]) -> float | None:
    vals = [math.log(x) for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(vals) / len(vals)) if vals else None


# gpucheck judgement: a sample tells the device's speed only where the estimate puts at least half of its step on the
# device's work. Below that the host's part (launches, Python) sets the step, and a work factor read from it would
# take the host estimate's error, times host ÷ work: on an NVIDIA H200 the three calibrate probes were 90-99 % host
# (tests/fixtures/recorded/h200/calibrate.json), and a conv-net factor read from one came out ×2.95 where the probe ran
# ×0.78 of its estimate.
WORK_SHARE_MIN = 0.5


def informs_work(s: Sample) -> bool:
    return s.work_s > 0 and s.work_s >= WORK_SHARE_MIN * s.estimated_step_s


def fit(samples: Iterable[Sample], device: str) -> Calibration | None:
    """The calibration of `device` from its samples (the newest per key); None without any."""
    newest: dict[str, Sample] = {}
    current = model_version()
    for s in samples:
        if s.model and s.model != current:
            continue  # estimated by another version of the speed model: its ratio says nothing about this one
        if s.device == device and (s.key not in newest or s.on >= newest[s.key].on):
            newest[s.key] = s
    rows = tuple(newest.values())
    machine = _geomean(s.measured_step_s / s.estimated_step_s for s in rows)
    if machine is None:
        return None
    # the host's factor: from the steps the host sets where there are some, else from all (where the device's work
    # sets every step, the host's part is small and the whole-PC ratio is as good as any)
    host_bound = [s for s in rows if not informs_work(s)]
    host = _geomean(s.measured_step_s / s.estimated_step_s for s in host_bound) or machine
    work: dict[str, float] = {}
    every: list[float] = []
    for fam in FAMILIES:
        ratios = [r for r in ((s.measured_step_s - host * s.host_s) / s.work_s for s in rows
                              if s.family == fam and informs_work(s)) if r > 0]
        g = _geomean(ratios)
        if g is not None:
            work[fam] = g
            every += ratios
    on = max((s.on for s in rows), default="")
    rates = two_rates(tuple(s for s in rows if informs_work(s)), host)
    return Calibration(device=device, on=on, host_factor=host, work_factors=work, samples=rows,
                       machine_factor=machine, matrix_factor=rates[0] if rates else None,
                       memory_factor=rates[1] if rates else None,
                       other_work_factor=_geomean(every) or 1.0)


MIN_SAMPLES_FOR_RATES = 3  # two unknowns: a third sample is the least that says whether they describe the steps
MIN_SHARE_SPREAD = 0.05  # the samples' memory-bound shares must differ by this much to tell the two rates apart
RATE_LIMITS = (0.05, 20.0)  # a fitted rate outside these is noise, not a PC (the family factors apply instead)


def two_rates(rows: tuple[Sample, ...], host_factor: float) -> tuple[float, float] | None:
    """(matrix factor, memory-bound factor): least squares on the samples' relative errors of
    matrix_factor × (work_s − memory_s) + memory_factor × memory_s + host_factor × host_s against the measured step;
    None when the samples cannot tell the two apart (too few, shares too alike, or a rate outside RATE_LIMITS)."""
    use = [s for s in rows if s.work_s > 0 and s.memory_s > 0]
    if len(use) < MIN_SAMPLES_FOR_RATES:
        return None
    shares = [s.memory_s / s.work_s for s in use]
    if max(shares) - min(shares) < MIN_SHARE_SPREAD:
        return None
    xs = [((s.work_s - s.memory_s) / s.measured_step_s, s.memory_s / s.measured_step_s,
           1.0 - host_factor * s.host_s / s.measured_step_s) for s in use]
    s11 = sum(p * p for p, _q, _y in xs)
    s12 = sum(p * q for p, q, _y in xs)
    s22 = sum(q * q for _p, q, _y in xs)
    t1 = sum(p * y for p, _q, y in xs)
    t2 = sum(q * y for _p, q, y in xs)
    det = s11 * s22 - s12 * s12
    if det <= 1e-12 * s11 * s22:
        return None
    a, b = (t1 * s22 - t2 * s12) / det, (s11 * t2 - s12 * t1) / det
    lo, hi = RATE_LIMITS
    return (a, b) if lo <= a <= hi and lo <= b <= hi else None


@lru_cache(maxsize=1)
def model_version() -> str:
    """A short hash of the speed model's numbers (resources/factors.toml): a sample is compared with the
    estimate of the model that made it; after an update that changes them, the PC needs a new calibration."""
    try:
        return hashlib.sha256(resource_path("factors.toml").read_bytes()).hexdigest()[:12]
    except OSError:
        return ""


# -- where it is kept ------------------------------------------------------------------------------


def store_path() -> Path:
    folder = os.environ.get(ENV_DIR) or platformdirs.user_data_dir(APP, appauthor=False)
    return Path(folder) / FILE_NAME


def machine_fingerprint(machine: Any) -> str | None:
    """A short hash of what makes this PC's speed: CPU model, core counts, sockets, installed RAM (GiB).
    No host name, serial or UUID goes in; the GPUs are not in it (each device has its own factors)."""
    cpu = getattr(machine, "cpu", None)
    if cpu is None or not getattr(cpu, "brand", None):
        return None
    mem = getattr(getattr(machine, "memory", None), "total_bytes", None)
    parts = [cpu.brand, getattr(cpu, "arch", None), getattr(cpu, "physical_cores", None),
             getattr(cpu, "logical_cores", None), getattr(cpu, "sockets", None),
             round(mem / 1024**3) if mem else None]
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()[:16]


_CACHE: dict[str, Any] = {}


def _read_store(path: Path) -> dict[str, Any]:
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    if _CACHE.get("path") == str(path) and _CACHE.get("stamp") == stamp:
        return _CACHE["data"]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        data = {}
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("machines"), dict):
        data = {}
    _CACHE.update(path=str(path), stamp=stamp, data=data)
    return data


def load_samples(machine: Any) -> tuple[Sample, ...]:
    fp = machine_fingerprint(machine)
    if fp is None:
        return ()
    entry = _read_store(store_path()).get("machines", {}).get(fp) or {}
    raw = entry.get("samples") if isinstance(entry, dict) else None
    out = (Sample.from_json(d) for d in (raw if isinstance(raw, list) else []) if isinstance(d, dict))
    return tuple(s for s in out if s is not None)


def calibration_for(machine: Any, device: str) -> Calibration | None:
    """The calibration saved for `device` on this machine, or None (never raises)."""
    if machine is None:
        return None
    try:
        return fit(load_samples(machine), device)
    except Exception:  # noqa: BLE001 — a damaged store means "not calibrated", never a failed estimate
        return None


def save_samples(machine: Any, new: Iterable[Sample], replace_source: str | None = None) -> Path | None:
    """Add `new` to this machine's samples (replacing the same keys; with `replace_source`, every older
    sample of that source on the same devices). Returns the file, or None when the machine has no fingerprint.
    OSError propagates: the caller says why it could not be saved."""
    fp = machine_fingerprint(machine)
    if fp is None:
        return None
    new = list(new)
    path = store_path()
    data = _read_store(path) or {"schema": SCHEMA, "machines": {}}
    data = json.loads(json.dumps(data))  # a copy: the cache stays as read
    old = [s for s in load_samples(machine)]
    keys = {s.key for s in new}
    devices = {s.device for s in new}
    kept = [s for s in old if s.key not in keys and not (replace_source and s.source == replace_source
                                                          and s.device in devices)]
    merged = kept + new
    by_device: dict[str, list[Sample]] = {}
    for s in merged:
        by_device.setdefault(s.device, []).append(s)
    final: list[Sample] = []
    for rows in by_device.values():
        final += sorted(rows, key=lambda s: s.on)[-MAX_SAMPLES_PER_DEVICE:]
    data["machines"][fp] = {"samples": [s.to_json() for s in final]}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return path


def today() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")


# -- applying it -----------------------------------------------------------------------------------


def host_seconds(sp: Any, backend: str, t: Any, f: Mapping[str, Any]) -> float:
    """The host's part of the estimate's step: the fixed per-step cost, and the operators' dispatch where it
    is not hidden behind the device's work (on the CPU backend the same cores do both, so it never is)."""
    overhead = step_overhead_seconds(t, backend, f)
    if backend == "cpu":  # and the single-thread work beside it (dropout's masks, page faults), at one core's pace
        exposed = sp.dispatch_seconds + float(getattr(sp, "serial_seconds", 0.0) or 0.0)
    else:
        exposed = max(0.0, sp.dispatch_seconds - (sp.matmul_seconds + sp.memory_seconds))
    return min(sp.step_seconds, overhead + exposed)


def memory_share(sp: Any) -> float | None:
    """Of the step's device work (matrix math + memory-bound work), the memory-bound share; None if unknown."""
    work = float(getattr(sp, "matmul_seconds", 0.0) or 0.0) + float(getattr(sp, "memory_seconds", 0.0) or 0.0)
    return float(sp.memory_seconds) / work if work > 0 else None


def calibrated_speed(sp: Any, cal: Calibration, family: str, host_s: float) -> Any:
    """The Speed with this PC's measured factors applied (step time, samples and tokens per second)."""
    share = memory_share(sp)
    memory_s = None if share is None else share * max(0.0, sp.step_seconds - host_s)
    step = cal.step_seconds(sp.step_seconds, host_s, family, memory_s)
    if not step > 0:
        return sp
    return sp.with_step(step)


def calibrated_text(calibrated: Mapping[str, Any] | None) -> str:
    """The label every surface shows for a calibrated estimate: "Calibrated on this PC, 2026-12-01"."""
    if not calibrated:
        return ""
    return tr("Calibrated on this PC, {date}", date=calibrated.get("on") or "?")


def target_calibrated_text(target: Any) -> str:
    cal = getattr(target, "calibration", None)
    return "" if cal is None else calibrated_text(cal.to_json())
