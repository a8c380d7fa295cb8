"""Speed estimates against PUBLISHED training runs (tests/core/speed_cases.py: each row's source and the line read).

Rows are `calibration` (a factor in resources/factors.toml was fitted on them) or `validation` (never used to set
anything). The aims of issue 14 are reported for validation rows only; leave-one-source-out shows how much each
source depends on the others. Run `python -m tests.core.test_speed_accuracy` to print the speed section of
docs/accuracy.md.
"""

from __future__ import annotations

import copy
import math
import statistics
import sys
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, load_factors  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.records import DataSpec, Workload  # noqa: E402
from tests.core.speed_cases import CASES, SOURCES, SpeedCase  # noqa: E402

# Regression bounds: no row may be off by more than this (the aims are stricter and reported, not all met yet)
ROW_BOUND = 5.0


def ratio(c: SpeedCase) -> float:
    """estimate / measured speed."""
    w = Workload(id=c.id, title=c.what, family="llm", level=1, model=c.model, train=c.train,
                 data=DataSpec(samples=1000))
    e = estimate(w, Target.from_gpu(find_gpu(c.gpu), gpus=c.gpus))
    value = e.samples_per_second if c.quantity == "samples_per_s" else e.tokens_per_second
    return value / c.measured


def _stats(rs: list[float]) -> dict[str, float]:
    logs = sorted(abs(math.log(r)) for r in rs)
    return {"n": len(rs), "median": math.exp(statistics.median(logs)), "worst": math.exp(max(logs)),
            "within_135": sum(v <= math.log(1.35) for v in logs) / len(logs)}


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    pos = q * (len(xs) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def ratios() -> dict[str, float]:
    return {c.id: ratio(c) for c in CASES}


def family_bands(rs: dict[str, float]) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for fam in sorted({c.family for c in CASES}):
        xs = [rs[c.id] for c in CASES if c.family == fam and c.role == "validation"]
        if len(xs) < 5:  # too few validation rows: the family's calibration rows join (said in docs/accuracy.md)
            xs = [rs[c.id] for c in CASES if c.family == fam]
        if len(xs) >= 5:
            out[fam] = (_quantile(xs, 0.10), _quantile(xs, 0.90))
    return out


# The factors fitted on calibration rows (resources/factors.toml says which) and the physical prior each fit starts
# from (the hand counts and library figures in the same file's sources)
FITTED = {("speed", "gemm_efficiency", "transformer", "tensor"): 0.75,
          ("speed", "gemm_efficiency", "transformer", "tf32"): 0.60,
          ("speed", "gemm_efficiency", "transformer", "fp32"): 0.75,
          ("speed", "gemm_efficiency", "cnn", "tensor"): 0.45, ("speed", "gemm_efficiency", "cnn", "tf32"): 0.45,
          ("speed", "gemm_efficiency", "cnn", "fp32"): 0.70, ("speed", "gemm_efficiency", "unet", "tensor"): 0.60,
          ("speed", "elementwise", "hidden_elements"): 20.0, ("speed", "elementwise", "ffn_elements"): 3.0,
          ("speed", "elementwise", "alu_ops_per_byte"): 8.0, ("speed", "elementwise", "feature_map_factor", "cnn"): 15.0,
          ("speed", "elementwise", "feature_map_factor", "unet"): 20.0}


def _set(f: dict, path: tuple, value: float) -> None:
    for k in path[:-1]:
        f = f[k]
    f[path[-1]] = value


def _refit(rows: list[SpeedCase], f: dict) -> dict:
    """Coordinate descent in log error over FITTED, from the priors, on `rows` (what was done for the file's values)."""
    f = copy.deepcopy(f)
    for path, prior in FITTED.items():
        _set(f, path, prior)
    if not rows:
        return f
    with mock.patch("gpucheck.estimate.load_factors", lambda: f):
        def loss() -> float:
            return sum(math.log(ratio(c)) ** 2 for c in rows)
        best = loss()
        for _ in range(3):
            for path in FITTED:
                d = f
                for k in path[:-1]:
                    d = d[k]
                v0 = d[path[-1]]
                for m in (0.7, 0.85, 1.15, 1.4):
                    v = v0 * m
                    if path[1] == "gemm_efficiency" and v > 0.95:
                        continue
                    d[path[-1]] = v
                    now = loss()
                    if now < best - 1e-9:
                        best, v0 = now, v
                d[path[-1]] = v0
    return f


def leave_one_source_out(rs: dict[str, float]) -> dict[str, dict[str, float]]:
    """For each source: its rows' errors with the fitted factors refitted WITHOUT that source's rows (from the
    physical priors, on the remaining calibration rows). Sources with no calibration row keep their errors."""
    out = {}
    calib = [c for c in CASES if c.role == "calibration"]
    for src in SOURCES:
        mine = [c for c in CASES if c.source == src]
        if not mine:
            continue
        if any(c.role == "calibration" for c in mine):
            f = _refit([c for c in calib if c.source != src], load_factors())
            with mock.patch("gpucheck.estimate.load_factors", lambda f=f: f):
                out[src] = _stats([ratio(c) for c in mine])
        else:
            out[src] = _stats([rs[c.id] for c in mine])
    return out


def coverage(rs: dict[str, float]) -> float:
    band = load_factors()["speed_band"]
    inside = [band.get(c.family, band["default"])["p10"] <= rs[c.id] <= band.get(c.family, band["default"])["p90"]
              for c in CASES if c.role == "validation"]
    return sum(inside) / len(inside)


def test_every_row_within_the_regression_bound() -> None:
    bad = [(c.id, round(r, 2)) for c in CASES for r in [ratio(c)] if not 1 / ROW_BOUND <= r <= ROW_BOUND]
    assert not bad, bad


def test_the_data_set_spans_sources_and_gpus() -> None:
    """Issue 14: ≥ 120 published rows from ≥ 10 sources over ≥ 15 GPU models, each with its quoted line."""
    assert len(CASES) >= 120
    assert len({c.source for c in CASES}) >= 10
    assert len({find_gpu(c.gpu).id for c in CASES}) >= 12  # + the Apple/4060 Ti ratio rows of test_estimate_accuracy
    assert all(c.quote and c.how and c.source in SOURCES for c in CASES)
    assert len({c.id for c in CASES}) == len(CASES)


def test_validation_errors_do_not_regress() -> None:
    """Measured today (docs/accuracy.md): validation median 1.15×, 80% within 1.35×. Regression guards."""
    s = _stats([r for c, r in zip(CASES, [ratio(c) for c in CASES], strict=True) if c.role == "validation"])
    assert s["median"] <= 1.20
    assert s["within_135"] >= 0.75


def test_calibration_rows_fit() -> None:
    s = _stats([ratio(c) for c in CASES if c.role == "calibration"])
    assert s["median"] <= 1.25 and s["worst"] <= 1.5


def test_time_ranges_come_from_the_validation_errors() -> None:
    """resources/factors.toml [speed_band] is the P10–P90 of the validation rows of each family (± 0.05)."""
    band = load_factors()["speed_band"]
    for fam, (p10, p90) in family_bands(ratios()).items():
        assert band[fam]["p10"] == pytest.approx(p10, abs=0.05), (fam, p10)
        assert band[fam]["p90"] == pytest.approx(p90, abs=0.05), (fam, p90)


def test_ranges_cover_about_80_percent_of_validation_rows() -> None:
    assert 0.7 <= coverage(ratios()) <= 0.9


def markdown() -> str:
    rs = ratios()
    val = _stats([rs[c.id] for c in CASES if c.role == "validation"])
    cal = _stats([rs[c.id] for c in CASES if c.role == "calibration"])
    bands = family_bands(rs)
    lines = ["## Speed", "",
             "Ratio = estimated / measured speed. **Calibration** rows set a factor in resources/factors.toml "
             "(fitted jointly, least squares in log error); **validation** rows were never used to set anything. "
             "Generated by `python -m tests.core.test_speed_accuracy`.", "",
             f"- Validation ({val['n']} rows): median error {val['median']:.2f}×, worst {val['worst']:.2f}×, "
             f"{val['within_135'] * 100:.1f}% within 1.35× (issue 14 aims: median ≤ 1.15× "
             f"{'met' if val['median'] <= 1.15 else 'not met'}, ≥ 80% within 1.35× "
             f"{'met' if val['within_135'] >= 0.80 else 'not met'}, worst ≤ 2× "
             f"{'met' if val['worst'] <= 2.0 else 'not met: see the misses below'}).",
             f"- Calibration ({cal['n']} rows): median {cal['median']:.2f}×, worst {cal['worst']:.2f}×, "
             f"{cal['within_135'] * 100:.0f}% within 1.35×.",
             "- Time ranges: every estimate shows the whole run as P10–P90 of its family's validation ratios "
             "(resources/factors.toml [speed_band]): " + "; ".join(
                 f"{fam} {lo:.2f}–{hi:.2f}×" for fam, (lo, hi) in bands.items())
             + ". By construction about 80% of validation rows fall inside.", "",
             f"- Range coverage: {coverage(rs) * 100:.0f}% of validation rows lie inside their family's P10–P90 band.",
             "- Honesty note: the factor values were fitted on the calibration rows only; two structural changes made "
             "after that fit (softmax and loss in fp32 under autocast; tensor clocks limited by board power, from "
             "published clock measurements) were kept because they lowered the validation error, so the validation "
             "rows did steer the model's form, though never a number.",
             f"- GPUs covered: {len({find_gpu(c.gpu).id for c in CASES})} models from Pascal (GTX 1080 Ti) to "
             "Hopper, plus Apple M1/M3 Pro as ratios (the table above). Not covered by published rows here: "
             "Blackwell, AMD and Intel GPUs (no like-for-like training throughput found); estimates there rest on "
             "the physics and the same factors, untested.", "",
             "### Audit of the speed rows (issue 14)", "",
             "- Dropped: EveryDream2trainer A100/A6000 (the source states neither batch 10 nor U-Net-only training); "
             "the kohya RTX 4090 figure (not in the cited thread).",
             "- Replaced: llm.c 1558M uses the script's measured line (8× H100 SXM, 2.80 s/iter), not the first "
             "version's '8X A100 … ~7s/iter'.",
             "- litgpt's 'Time 1k iterations' (A100, 'minibatch size of 128', micro-batch 1–4) no longer sets the "
             "dispatch cost: they imply ≈ 4.4 ms of host time per layer and iteration for every model width and "
             "micro-batch (phi-1.5: 1.62 → 1.70 min from micro-batch 1 to 4), several times any count of eager "
             "kernels; they stay as validation rows and are the worst misses (2.6–4.5× too fast).",
             "", "### Largest validation misses and what they mean", "",
             "- litgpt 2023 (above): host-bound far beyond its kernel count.",
             "- H100 (ResNet-50, BERT; 1.4–1.7×) and RTX 6000 Ada (1.4–1.6×) in Lambda's runs: even with the power-"
             "limited tensor clock these cards reach less of their peak than the A100/3090-fitted efficiencies say; "
             "Ada's energy per FLOP is assumed equal to Hopper's (same process), with no measurement.",
             "- 8-GPU BERT-large (1.4–2.4×): Lambda's runs scale 4.9–6× on 8 GPUs; the all-reduce over NVLink does "
             "not explain it (the model hides it behind backward).",
             "- DeepLearningExamples' own ResNet-50 AMP on one A100 (0.70×): the README's DALI + channels-last run "
             "is 1.56× Lambda's run of the same code; one 'fused' profile cannot be both.",
             "- B200 ResNet-50 FP16 (2.45×): Lambda's newest runs stop near 3,000 images/s on a B200 (3,076), an "
             "H200 (3,079) and a GH200 (2,846) alike, FP16 barely above FP32 (2,967): a host ceiling (the input "
             "pipeline) that the GPU model does not see; gpucheck's advice checks CPU decoding separately.", "",
             "### Leave one source out", "",
             "Each source's rows with the fitted factors refitted without that source (from the physical priors, on "
             "the other sources' calibration rows); sources that set no factor keep their plain errors:", "",
             "| source | rows | median | worst | within 1.35× |", "|---|---|---|---|---|"]
    for src, s in leave_one_source_out(rs).items():
        lines.append(f"| {src} | {s['n']:.0f} | {s['median']:.2f}× | {s['worst']:.2f}× | {s['within_135'] * 100:.0f}% |")
    for role in ("calibration", "validation"):
        lines += ["", f"### {role.capitalize()} rows", "",
                  "| case | hardware | stack | measured | ratio | source: quoted line | how read |",
                  "|---|---|---|---|---|---|---|"]
        for c in CASES:
            if c.role != role:
                continue
            hw = f"{c.gpus}× {find_gpu(c.gpu).name}" if c.gpus > 1 else find_gpu(c.gpu).name
            unit = "samples/s" if c.quantity == "samples_per_s" else "tokens/s"
            quote = f"{c.source}: {c.quote}".replace("|", "\\|")
            lines.append(f"| {c.what} | {hw} | {c.train.stack} | {c.measured:,.1f} {unit} | {rs[c.id]:.2f}× | "
                         f"{quote} | {c.how} |")
    lines += ["", "### Speed sources", ""] + [f"- **{k}**: {v}" for k, v in SOURCES.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
