"""Speed estimates against PUBLISHED training runs (tests/core/speed_cases.py: each row's source and the line read).

Rows are `calibration` (a factor in resources/factors.toml was fitted on them) or `validation` (never used to set
anything). The aims of issue 14 are reported for validation rows only; leave-one-source-out shows how much each
source depends on the others. Run `python -m tests.core.test_speed_accuracy` to print the speed section of
docs/accuracy.md.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import statistics
import sys
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, get_workload, read_toml  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.estimate.factors import FactorTable, load_factors, parse_factors  # noqa: E402
from gpucheck.records import DataSpec, Workload  # noqa: E402
from gpucheck.resources import resource_path  # noqa: E402
from tests.core.speed_cases import CASES, SOURCES, SpeedCase  # noqa: E402

# Regression bounds: no row may be off by more than this (the aims are stricter and reported, not all met yet)
ROW_BOUND = 5.0
ROUNDS = 3  # coordinate-descent sweeps of the refit


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
          ("speed", "gemm_efficiency", "unet", "tensor"): 0.60,
          ("speed", "elementwise", "hidden_elements"): 20.0, ("speed", "elementwise", "ffn_elements"): 3.0,
          ("speed", "elementwise", "sm_cycles_per_element"): 0.3, ("speed", "elementwise", "feature_map_factor", "cnn"): 15.0,
          ("speed", "elementwise", "feature_map_factor", "unet"): 20.0}


def _set(f: dict, path: tuple, value: float) -> None:
    for k in path[:-1]:
        f = f[k]
    f[path[-1]] = value


def _refit(rows: list[SpeedCase]) -> FactorTable:
    """Coordinate descent in log error over FITTED, from the priors, on `rows` (what was done for the file's values).
    Works on the TOML document (the loaded factors are read-only) and validates every trial value like the file."""
    doc = copy.deepcopy(read_toml(resource_path("factors.toml")))
    for path, prior in FITTED.items():
        _set(doc, path, prior)
    current = [parse_factors(doc, "refit")]
    if not rows:
        return current[0]
    with mock.patch("gpucheck.estimate.load_factors", lambda: current[0]):
        def loss() -> float:
            return sum(math.log(ratio(c)) ** 2 for c in rows)
        best = loss()
        for _ in range(ROUNDS):
            for path in FITTED:
                d = doc
                for k in path[:-1]:
                    d = d[k]
                v0 = d[path[-1]]
                for m in (0.7, 0.85, 1.15, 1.4):
                    v = v0 * m
                    if path[1] == "gemm_efficiency" and v > 0.95:
                        continue
                    d[path[-1]] = v
                    current[0] = parse_factors(doc, "refit")
                    now = loss()
                    if now < best - 1e-9:
                        best, v0 = now, v
                d[path[-1]] = v0
                current[0] = parse_factors(doc, "refit")
    return current[0]


# Issue 15, "What a first measurement already shows": real PyTorch 2.14 training steps on a 2-core AMD EPYC
# (AVX-512, 25 GB RAM; the machine gpucheck's own CI runs on), random weights, synthetic data, one warm-up then ≥ 3
# timed steps, peak RSS of a fresh process (no loader workers, no data set in memory, no checkpoint). CALIBRATION:
# they set cpu.gemm_half_rows_per_core and host.import_gib; dispatch.backend_factor.cpu was checked on them.
# The CPU as the scan of that development VM read it (tests/fixtures/machines/cpu-only-vm.json: AVX-512 with
# AVX512_BF16 and no AVX-VNNI, i.e. Zen 4): factors.toml [cpu.cores] amd-zen4, 32 fp32 / 64 bf16 FLOPs per cycle.
CPU_TARGET = Target(gpu=None, backend="cpu", cpu_cores=2, cpu_vendor="amd", cpu_brand="AMD EPYC",
                    cpu_flags=("avx", "avx2", "avx512_bf16", "avx512_vnni", "avx512f", "f16c", "fma"),
                    label="2-core AMD EPYC")
CPU_ROWS = (  # (workload, settings, measured samples/s, measured peak RSS GiB)
    ("mnist-cnn", {"batch": 64, "precision": "fp32"}, 1022.0, 0.75),
    ("cifar10-resnet18", {"batch": 128, "precision": "bf16"}, 92.0, 1.30),
    ("resnet50-finetune", {"batch": 8, "image_size": 224, "precision": "bf16"}, 7.8, 1.54),
    ("bert-base-finetune", {"batch": 8, "seq_len": 128, "precision": "bf16"}, 2.35, 3.24),
    ("gpt2-124m-pretrain", {"batch": 1, "seq_len": 256, "precision": "bf16"}, 0.43, 3.24),
)


def cpu_rows() -> list[tuple[str, dict, float, float, float, float]]:
    """(workload, settings, measured samples/s, estimated, measured RSS GiB, estimated process + training GiB): the
    trial's process holds the libraries and the training state only, so that is the part compared."""
    out = []
    for wid, settings, sps, rss in CPU_ROWS:
        w = get_workload(wid)
        e = estimate(w, CPU_TARGET, dataclasses.replace(w.train, stack="eager", **settings))
        ram = (e.ram_parts.get("process", 0) + e.ram_parts.get("training", 0)) / 1024**3
        out.append((wid, settings, sps, e.samples_per_second, rss, ram))
    return out


def test_cpu_target_matches_the_trial_rows() -> None:
    """Issue 15's CPU trials: speed within 1.5× (tiny CNNs were 2.7× optimistic, small-batch decoders 2×), the
    process's RAM within 15% (it was 1.3–4× pessimistic)."""
    for wid, _, sps, est, rss, ram in cpu_rows():
        assert 1 / 1.5 <= est / sps <= 1.5, (wid, est, sps)
        assert abs(ram / rss - 1) <= 0.15, (wid, ram, rss)


def cpu_markdown() -> list[str]:
    lines = ["### CPU target (`--gpu cpu`)", "",
             "Issue 15's first trial measurements (PyTorch 2.14, 2-core AMD EPYC with AVX-512, random weights, synthetic "
             "data, one warm-up then ≥ 3 timed steps, peak resident memory of a fresh process; the trial's eager stack). "
             "**Calibration**: they set `cpu.gemm_half_rows_per_core` (GEMM efficiency by rows per call and core) and `host.import_gib` "
             "(the process's libraries). The per-operator host cost is the GPU model's (gpt-fast), paid inside the "
             "step on the CPU; it was checked here, not fitted. RAM compares the trial's process with the estimate's "
             "process + training state (a real run adds loader workers, the data set and checkpoint loading).", "",
             "| job, settings | measured samples/s | estimated | ratio | peak RSS | estimated process + training |",
             "|---|---|---|---|---|---|"]
    for wid, settings, sps, est, rss, ram in cpu_rows():
        st = ", ".join(f"{k} {v}" for k, v in settings.items())
        shown = f"{est:,.0f}" if est >= 100 else f"{est:.3g}"
        lines.append(f"| {wid}, {st} | {sps:g} | {shown} | {est / sps:.2f}× | {rss:.2f} GiB | {ram:.2f} GiB "
                     f"({(ram / rss - 1) * 100:+.0f}%) |")
    lines += ["", "- Was (issue 15, before): speed 2.7× (mnist-cnn) to 0.71× (cifar10-resnet18), RAM 1.3–4× "
              "pessimistic. Causes modelled: the per-operator host cost on the same cores as the math; GEMM "
              "efficiency that falls with few rows per call (batch 1 × 256 tokens); the process's resident libraries "
              "by what the job imports, instead of one 1.5 GiB allowance; cifar10-resnet18's saved activations "
              "counted (5 MiB per 32×32 sample, the workload said 25).",
              "- The CPU from its flags (factors.toml [cpu.cores], vendors' documents): that VM's scan shows "
              "AVX-512 with AVX512_BF16 and no AVX-VNNI, i.e. Zen 4, whose AVX-512 runs on two 256-bit FMA pipes: "
              "32 fp32 FLOPs per core per cycle, 64 in bf16 (VDPBF16PS: two bf16 products per fp32 lane). The bf16 "
              "rows run at the bf16 rate and the fp32 row at the fp32 rate; before, one 64-FLOP AVX-512 figure for "
              "both left mnist-cnn (fp32) 1.42× optimistic, now 1.03×. cifar10-resnet18 stays 0.71× pessimistic.",
              ""]
    return lines


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
            f = _refit([c for c in calib if c.source != src])
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

    def x(case_id: str) -> str:
        return f"{rs[case_id]:.2f}×"

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
             + " (rounded outward to two decimals). By construction about 80% of validation rows fall inside.", "",
             f"- Range coverage: {coverage(rs) * 100:.0f}% of validation rows lie inside their family's P10–P90 band.",
             "- Honesty note: the factor values were fitted on the calibration rows only. Structural changes made "
             "while the validation errors were visible (softmax and loss in fp32 under autocast; tensor clocks "
             "limited by board power; the host cost per dispatched operator counted from code and priced from "
             "PyTorch's gpt-fast eager measurement; Hopper's mma.sync cap from the FlashAttention-3 paper; "
             "element-wise kernels priced in SM time per element at SMs × clock instead of FP32 operations per byte) "
             "were kept because they lowered the validation error, so the validation rows did steer the model's "
             "form, though never a number: after the last of them every fitted value was refitted from its prior on "
             "the calibration rows alone. The 11 rows added with it (A100 40GB PCIe, RTX A5000, A40, RTX 3080 "
             "Laptop) were read after the refit and changed nothing. The per-operator host "
             "cost (20 µs at 3.5 GHz) is set from an inference measurement (gpt-fast's eager Llama-7B decode on an "
             "A100), not from any row below.",
             f"- GPUs covered: {len({find_gpu(c.gpu).id for c in CASES})} models from Pascal (GTX 1080 Ti) to "
             "Blackwell (B200, Lambda's six rows), one laptop GPU (the RTX 3080 Laptop's Max-Q design), plus Apple "
             "M1/M3 Pro as ratios (the table above). Not covered by published rows here: the L4 and AMD and Intel "
             "GPUs (no like-for-like training throughput found); estimates there rest on the physics and the same "
             "factors, untested.", "",
             "### Audit of the speed rows (issue 14)", "",
             "- Dropped: EveryDream2trainer A100/A6000 (the source states neither batch 10 nor U-Net-only training); "
             "the kohya RTX 4090 figure (not in the cited thread).",
             "- Replaced: llm.c 1558M uses the script's measured line (8× H100 SXM, 2.80 s/iter), not the first "
             "version's '8X A100 … ~7s/iter'.",
             "- litgpt's 'Time 1k iterations' (A100, 'minibatch size of 128', micro-batch 1–4) sets nothing: they "
             "imply ≈ 4–4.8 ms of host time per layer and iteration for every model width and micro-batch (phi-1.5: "
             "1.62 → 1.70 min from micro-batch 1 to 4). The cause is the host's time per dispatched operator (≈ 60 "
             "per eager layer forward, views and the Python RMSNorm included, ≈ 20 µs each: gpt-fast's 1.23 ms per "
             "eager Llama layer per decoded token; litgpt's own inference table shows ≈ 1.0 ms) and bitsandbytes' "
             "Python-level dequantize call (≈ 10 operator-equivalents per Linear4bit per pass); with both, litgpt's "
             "rows are validation rows at 1.0–1.5× (they were 2.6–4.5×).",
             "", "### Largest validation misses and what they mean", "",
             "- Hopper and Blackwell CNNs (were 1.6–1.7× on H100 and 2.45× on B200 for ResNet-50 FP16): element-wise "
             "kernels were priced per byte against the FP32 peak, so 16-bit feature maps ran twice as fast and the "
             "doubled FP32 lanes of Hopper and Blackwell counted in full. They now cost SM time per element (loads, "
             "stores and index math issue per element, whatever its width) at SMs × clock, which the catalog's FP32 "
             "peak gives over the FP32 lanes per SM of each generation's whitepaper (64 on Volta, Turing and A100, 128 "
             "on GA10x, Ada, Hopper and Blackwell). This is why Lambda's B200 trains ResNet-50 no faster in FP16 than "
             "in FP32 and why H100/A100 follows the SM count × clock (1.72) rather than the FP32 peak (3.4): ResNet-50 "
             f"FP16 is now {x('lambda-resnet50-fp16-1x-h100-sxm')} on H100 SXM and "
             f"{x('lambda-v1v2-resnet50-fp16-1x-b200')} on B200. H100 BERT rows: kernels written for mma.sync reach "
             "about 2/3 of H100's tensor peak (FlashAttention-3 paper), a cap taken with the power limit.",
             f"- RTX 6000 Ada ({x('lambda-bert_large_squad-fp32-1x-rtx-6000-ada')}–"
             f"{x('lambda-bert_large_squad-fp16-1x-rtx-6000-ada')} on BERT-large): Ada's energy per FLOP is assumed equal to Hopper's (same "
             "process), with no measurement; a 300 W card with 142 SMs likely holds a lower clock than that gives.",
             f"- Multi-GPU rows on Lambda's A100 SXM4 machines (up to {x('lambda-bert_large_squad-fp32-8x-a100-80gb')}, "
             "the one row over 2×): comparing each N-GPU row with the "
             "1-GPU row of the same model, the extra time per step is the gradient all-reduce at ≈ 2–4 GB/s (8× A100: "
             "ResNet-50 FP32 1.9, BERT-base FP32 2.6, BERT-large FP32 2.0 GB/s; 2× A100: 3.3–3.7 GB/s), not hidden "
             "behind backward, for every model alike: two orders of magnitude below NVLink, as NCCL over sockets or "
             "host memory would give. The 8× H100 machine shows ≈ 30–60 GB/s. The estimate uses the catalog's NVLink "
             "and cannot see such a machine; a deep scan's link measurement would.",
             "- Hugging Face 'Efficient Training on a Single GPU', bert-large fp16 on a V100 "
             f"({x('hf-bert-large-fp16')}; fp32 {x('hf-bert-large-fp32')}): "
             "that era's Trainer default optimizer (transformers.AdamW, a Python loop of ≈ 10 operators per tensor, "
             "≈ 390 tensors) costs ≈ 80 ms of host time per step behind the GradScaler's sync, which the 'eager' "
             "profile (today's foreach AdamW) does not count. Likely, not modelled.",
             f"- DeepLearningExamples' own ResNet-50 AMP on one A100 ({x('dle-rn50-a100-amp')}): the README's DALI + channels-last run "
             "is 1.56× Lambda's run of the same code; one 'fused' profile cannot be both.",
             "- BERT-large on several GPUs is too fast on most machines (NVLink A100 and V100, and GeForce without "
             "peer-to-peer) while BERT-base and ResNet-50 scale as estimated on the same machines: the largest "
             "gradient (1.3 GB per step) shows the slow links above most; the 8× H100 machine scales as estimated.", "",
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
    lines += [""] + cpu_markdown()
    lines += ["### Speed sources", ""] + [f"- **{k}**: {v}" for k, v in SOURCES.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
