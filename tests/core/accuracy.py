"""The estimates against the published measurements of resources/evidence/*.toml (docs/evidence.md).

`python -m tests.core.accuracy [--refit] [--lock-only]` (PYTHONPATH = the repository root):
1. locks the role of every row not yet in resources/evidence/roles.lock (today's date), before any comparison;
2. with --refit: fits the factors of FITTED on the calibration rows (coordinate descent in log error from the
   physical priors; a speed factor on the speed rows, a memory factor on the memory rows) and writes the values
   and their `fitted_on` rows into resources/factors.toml [fitted];
3. predicts every row with the model refitted WITHOUT the row's independent source group (leave-one-source-out);
4. writes the time ranges ([speed_band]) and memory bands ([memory_band]) from those errors into
   resources/factors.toml, regenerates docs/accuracy.md and prints the headline.
This module holds one row against the model, the statistics and the bands; tests/core/refit.py the refit and the
leave-one-source-out predictions; tests/core/accuracy_doc.py the document.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import json
import math
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from unittest import mock

from gpucheck.catalog import find_gpu, read_toml
from gpucheck.estimate import Target, estimate
from gpucheck.estimate.evaluation import eval_passes
from gpucheck.estimate.factors import FactorTable
from gpucheck.evidence import EvidenceRow, evidence_dir
from gpucheck.records import DataSpec, Estimate, Workload
from tests.core.fitted_factors import FIT, FITTED, MIN_GROUPS, Fitted  # noqa: F401 (FITTED, MIN_GROUPS, Fitted: re-exported)

# fewer LOSO rows than this: the default (wide) range, "not yet checked". A P10 and a P90 lie between rows only from
# 10 rows on; below that each is the cell's smallest or largest row, i.e. one source's outlier. At 5 (until December
# 2026) the speech memory cell, reaching 5 rows from three groups, took one LoRA row's ×18.5 on the activations as its
# top (unsloth-whisper-large-v3-lora-t4-memory, tiny activations) and put a full Whisper-small fine-tune at "Runs with
# tweaks" on a 24 GB card, where published runs of it fit on 16 GB
MIN_ROWS_FOR_BAND = 10
# time ranges from rows of fewer independent source groups than this: the default range too. A speed ratio carries
# what every row of one source shares (its host CPU, clocks, container, training loop), so one publication's rows
# cannot check a range out of sample (left out, its cell would be empty) and its own bias would become the range.
# Memory bands keep one group's rows: an allocated figure does not depend on the host or the clock, and the spread of
# one publication's many models is the activation estimate's own uncertainty
MIN_GROUPS_FOR_BAND = 2
SPEED_DEFAULT_BAND = (0.5, 2.5)  # a family or vendor with too few rows: gpucheck judgement, wider than any measured
MEMORY_DEFAULT_BAND = (0.6, 1.8)  # multiplier on the uncertain bytes (activations, allocator slack)
# memory rows below this do not set a band: there the caching allocator's fixed blocks (2 MiB small and 20 MiB large
# segments, cuBLAS's and cuDNN's workspaces of a few to tens of MiB: PyTorch's CUDACachingAllocator.cpp kSmallBuffer,
# kLargeBuffer) are a large share of the figure, an absolute error that a multiplier on the activations turns into a
# band for jobs a hundred times larger (recorded: MNIST's 0.145 GiB reserved on an H200, 0.08 GiB above its estimate,
# a ×2.7 multiplier that would have widened every vision job's band from ×1.22 to ×2.49)
MEMORY_BAND_MIN_GIB = 0.5
SHARE_CAP = 0.15  # no independent source group above this share of the rows (issue 22)


# -- one row against the model ------------------------------------------------------------------------------

DEFAULT_RUN_SAMPLES = 1000  # a row that does not say how many samples its run trained on (memory rows: run_samples)


def _workload(r: EvidenceRow) -> Workload:
    return Workload(id=r.id, title=r.what, family=r.family, level=1, model=r.model, train=r.train,
                    data=DataSpec(samples=r.run_samples or DEFAULT_RUN_SAMPLES, avg_seq_len=r.avg_len))


@cache
def _target(gpu: str, gpus: int, nodes: int = 1, network_gbit_per_node: float | None = None,
            power_limit_w: float | None = None) -> Target:
    """The row's GPUs in the row's machines (each with its published network, where the row gives it), held to the
    source's power limit where it set one: the share of the card's rated board power a scan would read (NVML's
    enforced limit over the default, which is the catalog's TDP for a card as sold)."""
    machines = min(nodes, gpus) if gpus > 1 else None
    spec = find_gpu(gpu)
    t = Target.from_gpu(spec, gpus=gpus, machines=machines, network_gbit_per_node=network_gbit_per_node)
    if power_limit_w and spec.tdp_w:
        t = dataclasses.replace(t, power_budget_fraction=power_limit_w / float(spec.tdp_w))
    return t


def run(r: EvidenceRow) -> Estimate:
    return estimate(_workload(r), _target(r.gpu, r.gpus, r.nodes, r.network_gbit_per_node, r.power_limit_w))


def measured_samples_per_s(r: EvidenceRow) -> float:
    m, t = r.measured, r.train
    if m.kind == "samples_per_s":
        return m.value
    if m.kind == "tokens_per_s":
        return m.value / float(r.avg_len or t.seq_len or 1)
    if m.kind == "step_seconds":
        return t.batch * r.gpus * max(1, t.grad_accum) / m.value
    if m.kind == "hours":
        return float(m.samples or 0) / (m.value * 3600.0)
    raise ValueError(m.kind)


def speed_ratio(r: EvidenceRow, e: Estimate | None = None) -> float:
    """estimate / measured speed."""
    e = e or run(r)
    est = e.tokens_per_second / float(r.avg_len or r.train.seq_len or 1) if r.measured.kind == "tokens_per_s" \
        and e.tokens_per_second else e.samples_per_second
    if r.measured.kind == "hours" and est and e.eval_seconds_per_pass:
        est = _with_evaluations(r, e, est)
    return (est or 0.0) / measured_samples_per_s(r)


def _with_evaluations(r: EvidenceRow, e: Estimate, train_samples_per_s: float) -> float:
    """A whole run's speed with the evaluations its time holds: the row's training samples over the training time
    plus the passes the row's settings make over that many samples (estimate/evaluation.py)."""
    samples = float(r.measured.samples or 0)
    passes = eval_passes(r.train, samples, float(r.train.epoch_samples), r.gpus)
    return samples / (samples / train_samples_per_s + passes * e.eval_seconds_per_pass)


def memory_parts(r: EvidenceRow, e: Estimate | None = None) -> tuple[float, float, float]:
    """(estimated bytes as the row's kind counts them, the exact part, the uncertain part). Exact: weights,
    gradients, optimizer state (and the CUDA context where the figure holds it) — given the settings; uncertain:
    activations (and the caching allocator's slack where the figure holds it)."""
    e = e or run(r)
    bd = e.breakdown
    exact = float(bd.weights_bytes + bd.gradients_bytes + bd.optimizer_bytes)
    kind = r.measured.kind
    if kind == "allocated_gib":
        return float(e.allocated_bytes), exact, float(e.allocated_bytes) - exact
    if kind == "reserved_gib":
        return float(e.reserved_bytes), exact, float(e.reserved_bytes) - exact
    with_ctx = r.measured.cuda_context_included
    shown = e.nvidia_smi_bytes if kind == "nvidia_smi_gib" else e.peak_vram_bytes  # capacity: what the job needs
    total = float(shown) - (0.0 if with_ctx else float(e.context_bytes))
    exact += float(e.context_bytes) if with_ctx else 0.0
    return total, exact, total - exact


def memory_error(r: EvidenceRow, e: Estimate | None = None) -> float:
    """estimate / measured − 1."""
    return memory_parts(r, e)[0] / r.measured.bytes - 1.0


def need_error(r: EvidenceRow, e: Estimate | None = None) -> float:
    """What the job needs against a reserved or nvidia-smi figure: the estimate of the figure without the loss blocks
    of earlier, shorter steps it expects a shuffled run to leave cached (Estimate.cached_bytes), − 1. The counts of
    what a step holds are checked with it; the figure itself with memory_error."""
    e = e or run(r)
    cached = float(e.cached_bytes) if r.measured.kind in ("reserved_gib", "nvidia_smi_gib") else 0.0
    return (memory_parts(r, e)[0] - cached) / r.measured.bytes - 1.0


def uncertain_multiplier(r: EvidenceRow, e: Estimate | None = None) -> float:
    """What the uncertain bytes of what the job NEEDS would have to be multiplied by for the estimate to equal the
    measurement. The fit band multiplies the need's uncertain bytes, so a reserve's cached blocks of earlier, shorter
    steps (Estimate.cached_bytes) are not counted in them: whether the allocator can free all of them under pressure
    (a segment with one live tensor cannot be) is part of what the band has to cover."""
    e = e or run(r)
    total, exact, unc = memory_parts(r, e)
    if r.measured.kind in ("reserved_gib", "nvidia_smi_gib"):
        unc -= float(e.cached_bytes)
    return (r.measured.bytes - exact) / unc if unc > 0 else 1.0


@cache
def _vendor(gpu: str) -> str:
    """The vendor a row's GPU is banded under, as the estimator looks its bands up (gpucheck.estimate.bands.vendor_of):
    laptop GPUs are their own "vendor" (their sustained clock is a judgement the desktop cards' rows do not check)."""
    spec = find_gpu(gpu)
    return "laptop" if spec.segment == "laptop" else spec.vendor


def vendor(r: EvidenceRow) -> str:
    return _vendor(r.gpu)


# -- the refit --------------------------------------------------------------------------------------------

def _get(doc: dict, path: tuple[str, ...]) -> float:
    for k in path[:-1]:
        doc = doc[k]
    return float(doc[path[-1]])


def _set(doc: dict, path: tuple[str, ...], value: float) -> None:
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


@contextlib.contextmanager
def with_factors(f: FactorTable) -> Iterator[None]:
    """Every estimator module that reads the factors reads `f` instead."""
    with contextlib.ExitStack() as stack:
        for module in ("core", "target", "fit"):
            stack.enter_context(mock.patch(f"gpucheck.estimate.{module}.load_factors", lambda: f))
        yield


def set_fitted(doc: dict, p: Fitted, value: float) -> None:
    """Set a fitted factor and the paths tied to it (ROCm's allocator count is CUDA's: the same HIPified code)."""
    for path in p.paths:
        _set(doc, path, value)


def _kind_of(p: Fitted, r: EvidenceRow) -> bool:
    """Whether the row is of the kind the factor is fitted on: memory rows for a memory factor, speed rows else."""
    return p.memory == r.measured.is_memory


def log_sq(r: EvidenceRow) -> float:
    """(log error)² of one row with the factors in force: estimate / measured speed, or estimate / measured memory
    (bytes as the row's kind counts them)."""
    x = memory_error(r) + 1.0 if r.measured.is_memory else speed_ratio(r)
    return math.log(max(1e-9, x)) ** 2


# -- leave one source out ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    row: EvidenceRow
    shipped: float  # speed: estimate / measured; memory: estimate / measured − 1 (with the shipped factors)
    loso: float  # the same with the fitted factors refitted without the row's source group
    multiplier: float | None = None  # memory: uncertain-bytes multiplier that would match (LOSO)


# -- statistics and bands -----------------------------------------------------------------------------------

def speed_stats(ratios: list[float]) -> dict[str, float]:
    if not ratios:
        return {"n": 0, "median": float("nan"), "worst": float("nan"), "within_135": float("nan")}
    logs = sorted(abs(math.log(x)) for x in ratios)
    return {"n": len(ratios), "median": math.exp(statistics.median(logs)), "worst": math.exp(max(logs)),
            "within_135": sum(v <= math.log(1.35) + 1e-12 for v in logs) / len(logs)}


def memory_stats(errors: list[float]) -> dict[str, float]:
    if not errors:
        return {"n": 0, "median": float("nan"), "worst_under": float("nan"), "worst_over": float("nan")}
    return {"n": len(errors), "median": statistics.median(abs(x) for x in errors),
            "worst_under": min(errors), "worst_over": max(errors)}


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    pos = q * (len(xs) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def group_weighted_quantile(xs: list[tuple[float, str]], q: float) -> float:
    """The q-quantile of values tagged with their source group, each GROUP weighing the same (each of its n rows
    1/n): a band says how far a source the model has not seen may be off, so a suite with many rows (Lambda's
    135) counts once, like a blog post with two. Interpolated between the weighted midpoints of the rows."""
    n: dict[str, int] = {}
    for _, g in xs:
        n[g] = n.get(g, 0) + 1
    pts = sorted((v, 1 / n[g]) for v, g in xs)
    total = sum(w for _, w in pts)
    mids, acc = [], 0.0
    for v, w in pts:
        mids.append(((acc + w / 2) / total, v))
        acc += w
    if q <= mids[0][0]:
        return mids[0][1]
    for (p0, v0), (p1, v1) in zip(mids, mids[1:], strict=False):
        if q <= p1:
            return v0 + (v1 - v0) * (q - p0) / (p1 - p0)
    return mids[-1][1]


def _out(lo: float, hi: float) -> tuple[float, float]:
    return math.floor(lo * 100) / 100, math.ceil(hi * 100) / 100


def _cells(results: list[Result], value, min_rows: int, by=None, min_groups: int = 1) -> dict[tuple[str, str], list[float]]:
    out: dict[tuple[str, str], list[float]] = {}
    for x in results:
        v = value(x)
        if v is not None:
            out.setdefault((x.row.family, (by or vendor)(x.row)), []).append(v)
    return {k: xs for k, xs in out.items()
            if len(xs) >= min_rows and len({g for _, g in xs}) >= min_groups}


def speed_bands(results: list[Result]) -> dict[tuple[str, str], tuple[float, float]]:
    """(family, vendor) → P10–P90 of the LOSO speed ratios of the published rows of that family on that vendor's
    GPUs (≥ MIN_ROWS_FOR_BAND rows from ≥ MIN_GROUPS_FOR_BAND source groups), each source group weighing the same (group_weighted_quantile),
    widened to include 1 as the memory bands are: the estimate's own time always lies inside its likely range (a range
    wholly above "Whole run 1.9 h" reads as a contradiction; where published runs were all slower, the range still
    reaches their P90). A pair without a band gets the default, wide one ("not yet checked")."""
    cells = _cells(results, lambda x: None if x.row.measured.is_memory else (x.loso, x.row.group), MIN_ROWS_FOR_BAND,
                   min_groups=MIN_GROUPS_FOR_BAND)
    return {k: _out(min(1.0, group_weighted_quantile(xs, 0.10)), max(1.0, group_weighted_quantile(xs, 0.90)))
            for k, xs in sorted(cells.items())}


def sharded(r: EvidenceRow) -> bool:
    return r.gpus > 1 and (r.train.shard or r.train.zero_stage > 0)


def memory_bands(results: list[Result]) -> dict[tuple[str, str], tuple[float, float]]:
    """(family, vendor) → P10–P90 of the LOSO uncertain-bytes multipliers (≥ MIN_ROWS_FOR_BAND rows, as the speed
    bands), widened to include 1. A row whose exact bytes alone exceed its measurement needs a negative multiplier,
    which no real activation size has: its error is in the exact part (reported with the memory rows), so it is
    left out, as a band on activations cannot describe it. Sharded rows are left out too: their error is in where the weights and optimizer state sit (the
    exact part, e.g. litgpt's FSDP LoRA runs keep a full-model gradient for units that mix frozen and trained
    weights), which a multiplier on activations cannot describe. Each source group weighs the same, as in the speed
    bands (group_weighted_quantile): one suite's 24 rows of one allocator setting count once. Rows whose reserve holds
    cached blocks the allocator frees before it fails (measured.releasable_reserve: cuDNN's benchmark workspaces) are
    left out too: the band decides whether a job may run out of memory, and those blocks never make it. A reserve the
    estimate expects to hold cached loss blocks of earlier, shorter steps stays in, its multiplier taken on what the job
    needs (uncertain_multiplier): those blocks may not all be freed under pressure. Rows under MEMORY_BAND_MIN_GIB are
    left out: their error is the allocator's fixed blocks, not the activations."""
    cells = _cells(results, lambda x: (x.multiplier, x.row.group) if x.row.measured.is_memory and not sharded(x.row)
                   and not x.row.measured.releasable_reserve and x.multiplier >= 0
                   and x.row.measured.bytes >= MEMORY_BAND_MIN_GIB * 2**30 else None, MIN_ROWS_FOR_BAND,
                   by=lambda r: find_gpu(r.gpu).vendor)  # laptops by their GPU's vendor (bands.memory_vendor_of)
    return {k: _out(max(0.0, min(1.0, group_weighted_quantile(xs, 0.10))), max(1.0, group_weighted_quantile(xs, 0.90)))
            for k, xs in sorted(cells.items())}


def band_coverage_out_of_sample(results: list[Result]) -> float:
    """Share of speed rows inside the family band computed WITHOUT their own source group's rows."""
    speed = [x for x in results if not x.row.measured.is_memory]
    inside = []
    for g in sorted({x.row.group for x in speed}):
        others = [x for x in results if x.row.group != g]
        cells = speed_bands(others)
        for x in speed:
            if x.row.group == g:
                lo, hi = cells.get((x.row.family, vendor(x.row)), SPEED_DEFAULT_BAND)
                inside.append(lo <= x.loso <= hi)
    return sum(inside) / len(inside) if inside else float("nan")


def group_shares(rows: list[EvidenceRow]) -> dict[str, float]:
    n = len(rows)
    out: dict[str, float] = {}
    for r in rows:
        out[r.group] = out.get(r.group, 0) + 1 / n
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


# -- writing factors.toml and the lock ------------------------------------------------------------------------

def _tv(v: object) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return json.dumps(v, ensure_ascii=False)


def _block(name: str, tables: list[tuple[str, dict]], source: str, top: dict | None = None) -> str:
    lines = [f"[{name}]", f"source = {json.dumps(source, ensure_ascii=False)}", f'as_of = "{_dt.date.today():%Y-%m}"']
    lines += [f"{k} = {_tv(v)}" for k, v in (top or {}).items()]
    for sub, values in tables:  # a sub-table with its own "source" states it (and today's as_of), else inherits
        own = values.get("source")
        lines += ["", f"[{name}.{sub}]"]
        lines += [f"source = {json.dumps(own, ensure_ascii=False)}", f'as_of = "{_dt.date.today():%Y-%m}"'] if own \
            else ["inherit_source = true"]
        lines += [f"{k} = {_tv(v)}" for k, v in values.items() if k != "source"]
    return "\n".join(lines) + "\n"


def replace_section(text: str, name: str, block: str) -> str:
    """Replace [name] and its sub-tables (up to the next other table) with `block`; append when absent."""
    pat = re.compile(rf"^\[{re.escape(name)}[\].].*?(?=^\[(?!{re.escape(name)}[\].])|\Z)", re.S | re.M)
    if pat.search(text):
        return pat.sub(lambda _m: block + "\n", text, count=1)
    return text.rstrip("\n") + "\n\n" + block


def set_value(text: str, path: tuple[str, ...], value: float) -> str:
    """Set `key = value` inside the table path[:-1] of factors.toml, keeping the comments and layout."""
    header = "[" + ".".join(path[:-1]) + "]"
    key = path[-1]
    start = text.index("\n" + header + "\n") + 1
    nxt = text.find("\n[", start + len(header))
    end = nxt if nxt >= 0 else len(text)
    keypat = re.escape(f'"{key}"') if "." in key else re.escape(key)
    shown = f"{value:.4g}" if value < 1000 else str(round(value))
    body = re.sub(rf"^({keypat}\s*=\s*)[-+0-9.eE]+", lambda m: m.group(1) + shown, text[start:end],
                  count=1, flags=re.M)
    return text[:start] + body + text[end:]


def lock_new_rows(rows: list[EvidenceRow]) -> list[str]:
    """Add rows missing from roles.lock with their role as written and today's date; returns their ids."""
    path = evidence_dir() / "roles.lock"
    locked = read_toml(path)["rows"]
    new = [r for r in rows if r.id not in locked]
    if new:
        with path.open("a", encoding="utf-8") as fh:
            for r in new:
                fh.write(f'{json.dumps(r.id)} = {{ role = "{r.role}", fixed = "{_dt.date.today():%Y-%m-%d}" }}\n')
    return [r.id for r in new]


if __name__ == "__main__":
    from tests.core.accuracy_doc import main  # the report imports this module: imported here, not at the top

    main()
