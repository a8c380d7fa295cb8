"""Speed estimates against the PUBLISHED speed rows of resources/evidence/*.toml (docs/evidence.md).

Rows are `calibration` (a fitted factor, a constant or a structural choice was set while looking at them) or
`validation`; roles are locked in resources/evidence/roles.lock. The headline of docs/accuracy.md is
leave-one-source-out (tests/core/accuracy.py; `python -m tests.core.accuracy` writes it). This file holds the
regression guards, the checks on resources/factors.toml's fitted values and bands, and the CPU trial rows.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, get_workload, read_toml  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.estimate.bands import speed_band, unchecked  # noqa: E402
from gpucheck.estimate.factors import load_factors  # noqa: E402
from gpucheck.evidence import load_evidence  # noqa: E402
from gpucheck.resources import resource_path  # noqa: E402
from tests.core import accuracy as A  # noqa: E402
from tests.core import refit as R  # noqa: E402

SPEED_ROWS = [r for r in load_evidence() if not r.measured.is_memory]
ROW_BOUND = 14.5  # no row may be off by more than this, as shipped (the aims are stricter and reported in
#                  docs/accuracy.md; today's worst are MPT-13B on 64 H100s, too slow, and ResNet-50 at 32 px on
#                  Apple GPUs and a YOLOv5 segmentation run, too fast: issue 22's gaps, named there)
# Regression guards at what was measured on 2026-12-02 with 909 speed rows from 60 publications in 33 source groups
# (docs/accuracy.md), a little beyond it: shipped validation median 1.24×, 62 % within 1.35×; leave-one-source-out
# median 1.25×, 63 % within 1.35×; calibration median 1.14×, worst 3.5× (the calibration rows now include every FP32
# conv-net row on a pre-Ampere GPU, some of them small-image runs whose step the model does not explain yet)
VALIDATION_MEDIAN_BOUND, VALIDATION_WITHIN_BOUND = 1.28, 0.59
LOSO_MEDIAN_BOUND, LOSO_WITHIN_BOUND = 1.29, 0.60
# calibration's worst: the Llama 2 70B FSDP blog row (hfblog-llama2-70b-fsdp-2x8xa100, 6.4× too fast: a whole-job
# time with model loading and ~1.7 TB of checkpoint writes; calibration since the network bound across machines was
# chosen while it was compared)
CALIBRATION_MEDIAN_BOUND, CALIBRATION_WORST_BOUND = 1.20, 7.0


@pytest.fixture(scope="module")
def results() -> list[A.Result]:
    return R.evaluate()


def test_every_row_within_the_regression_bound() -> None:
    bad = [(r.id, round(x, 2)) for r in SPEED_ROWS for x in [A.speed_ratio(r)] if not 1 / ROW_BOUND <= x <= ROW_BOUND]
    assert not bad, bad


def test_the_data_set_spans_sources_and_gpus() -> None:
    """≥ 240 published speed rows from ≥ 10 publications over ≥ 12 GPU models, each with its quoted line."""
    assert len(SPEED_ROWS) >= 240
    assert len({r.source.id for r in SPEED_ROWS}) >= 10
    assert len({find_gpu(r.gpu).id for r in SPEED_ROWS}) >= 12


def test_shipped_errors_do_not_regress() -> None:
    """Regression guards on the shipped factors (measured 2026-12-02, docs/accuracy.md)."""
    val = A.speed_stats([A.speed_ratio(r) for r in SPEED_ROWS if r.role == "validation"])
    cal = A.speed_stats([A.speed_ratio(r) for r in SPEED_ROWS if r.role == "calibration"])
    assert val["median"] <= VALIDATION_MEDIAN_BOUND and val["within_135"] >= VALIDATION_WITHIN_BOUND
    assert cal["median"] <= CALIBRATION_MEDIAN_BOUND and cal["worst"] <= CALIBRATION_WORST_BOUND


def test_leave_one_source_out_does_not_regress(results) -> None:
    """The headline (docs/accuracy.md): regression guards at what was measured; the aims are reported there."""
    s = A.speed_stats([x.loso for x in results if not x.row.measured.is_memory])
    assert s["median"] <= LOSO_MEDIAN_BOUND and s["within_135"] >= LOSO_WITHIN_BOUND


def test_every_fitted_factor_names_its_calibration_rows() -> None:
    """factors.toml [fitted]: every factor the refit sets lists the calibration rows it was fitted on; none names a
    validation row or an unknown row, and the file's value is not left at a number no calibration row moves."""
    fitted = load_factors()["fitted"]
    roles = {r.id: r.role for r in load_evidence()}
    for p in A.FITTED:
        assert p.name in fitted, f"{p.name}: not in factors.toml [fitted] (run python -m tests.core.accuracy --refit)"
        ids = fitted[p.name]["fitted_on"]
        value = A._get(read_toml(resource_path("factors.toml")), p.path)
        assert ids or value == pytest.approx(p.prior), f"{p.name} = {value} names no calibration row"
        bad = [i for i in ids if roles.get(i) != "calibration"]
        assert not bad, (p.name, bad)


def test_time_ranges_are_the_leave_one_source_out_errors(results) -> None:
    """resources/factors.toml [speed_band] is what `python -m tests.core.accuracy` computes from the rows."""
    band = load_factors()["speed_band"]
    cells = A.speed_bands(results)
    assert {(f, v) for f in band["cell"] for v in band["cell"][f]} == set(cells)
    for (fam, v), (lo, hi) in cells.items():
        assert band["cell"][fam][v]["p10"] == pytest.approx(lo, abs=0.03), (fam, v)
        assert band["cell"][fam][v]["p90"] == pytest.approx(hi, abs=0.03), (fam, v)


def test_time_ranges_hold_for_sources_the_model_has_not_seen(results) -> None:
    """Issue 22's aim: a time range is honest when 75–85 % of the published rows of a source fall inside the range
    computed without that source (each row's family on its vendor's GPUs, or the wide default)."""
    assert 0.75 <= A.band_coverage_out_of_sample(results) <= 0.85


def test_one_publication_does_not_set_a_time_range() -> None:
    """Intel's ITEX page gives 8 BERT-Large rows on a Max 1550, one source group, whose host, clocks and software every
    row shares: even counted twice (as many rows as a band needs) they set no range. nlp jobs on Intel GPUs keep the wide range and say they were not checked there; a
    second group's rows in the same cell would give it its own range (Intel's PyTorch BERT-Large rows,
    intel-ai-reference-models-pytorch-bert-large-max.toml, are the same group: still one)."""
    rows = [r for r in load_evidence() if r.source.id == "itex-max1550-bert-large" and not r.measured.is_memory]
    assert len(rows) == 8 and {r.family for r in rows} <= {"nlp", "llm"}
    one = [A.Result(row=r, shipped=1.2, loso=1.2) for r in rows * 2]  # as many rows as a band needs, one group
    assert len(one) >= A.MIN_ROWS_FOR_BAND
    assert ("nlp", "intel") not in A.speed_bands(one)
    other = dataclasses.replace(rows[0], source=dataclasses.replace(rows[0].source, independent_group="elsewhere"))
    assert ("nlp", "intel") in A.speed_bands(one + [A.Result(row=other, shipped=1.2, loso=1.2)])
    band = load_factors()["speed_band"]
    assert speed_band("nlp", "intel") == (band["default"]["p10"], band["default"]["p90"])
    assert unchecked("nlp", "intel")


def test_unchecked_pairs_get_the_wide_range_and_say_so() -> None:
    """A vendor without published rows (AMD, Intel until rows are added) or a family without them (speech) is not
    given NVIDIA's range, and the estimate's note names what was not checked."""
    band = load_factors()["speed_band"]
    default = (band["default"]["p10"], band["default"]["p90"])
    for fam, v in (("llm", "amd"), ("vision", "intel"), ("speech", "nvidia"), ("llm", "cpu")):
        if v not in band["cell"].get(fam, {}):
            assert speed_band(fam, v) == default
            assert unchecked(fam, v)
    assert unchecked("vision", "nvidia") == ()


def test_no_source_group_holds_more_than_15_percent_of_the_rows() -> None:
    shares = A.group_shares(list(load_evidence()))
    assert max(shares.values()) <= A.SHARE_CAP, shares


# Issue 15, "What a first measurement already shows": real PyTorch 2.14 training steps on a 2-core AMD EPYC
# (AVX-512, 25 GB RAM; the machine gpucheck's own CI runs on), random weights, synthetic data, one warm-up then ≥ 3
# timed steps, peak RSS of a fresh process (no loader workers, no data set in memory, no checkpoint). CALIBRATION:
# they set host.import_gib (and, until December 2026, cpu.gemm_half_rows_per_core, now measured on the kernels);
# dispatch.backend_factor.cpu was checked on them. The runner then stepped torch.optim's default on a CPU, the
# per-tensor loop (gpucheck/trial/runner.py _optimizer): they are estimated with that step.
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
        e = estimate(w, CPU_TARGET, dataclasses.replace(w.train, stack="eager", optimizer_impl="single", **settings))
        ram = (e.ram_parts.get("process", 0) + e.ram_parts.get("training", 0)) / 1024**3
        out.append((wid, settings, sps, e.samples_per_second, rss, ram))
    return out


# gpt2-124m-pretrain at 1 x 256 tokens: 1.77x since Zen 4's rows term is its own kernels' ([cpu.gemm_half_rows_by_core]:
# 128 rows per core now run at 92 % of the matrix rate, 56 % with the Intel AMX figure); the same job on the same kind of
# CPU ran 1.10 samples/s on 2026-12-04 with the fused step (benchmarks/data/trials-cpu-amd-zen4.json, estimated 0.75x
# there), 2.6x this row's 0.43, more than its per-tensor optimizer loop explains by the model; 1.81x since the refit of
# 2026-12-05 (the transformer fp32 GEMM efficiency, which the CPU target then shared, 0.727 -> 0.753 on the calibration
# rows); 2.00x since a CPU's linear layers run at their kernels' measured share of the peak ([cpu] linear_efficiency,
# 0.815 against the GPUs' 0.705), which prices the same job on the fused step within 10 % on every set of one-thread
# rounds (docs/accuracy.md, "Calibration on this PC"): what is left here is this row's per-tensor optimizer loop
CPU_ROW_BOUND = {"gpt2-124m-pretrain": 2.05}


def test_cpu_target_matches_the_trial_rows() -> None:
    """Issue 15's CPU trials: speed within 1.5× (tiny CNNs were 2.7× optimistic, small-batch decoders 2×; GPT-2 at one
    sample 2.0×, see CPU_ROW_BOUND), the process's RAM within 15% (it was 1.3–4× pessimistic)."""
    for wid, _, sps, est, rss, ram in cpu_rows():
        bound = CPU_ROW_BOUND.get(wid, 1.5)
        assert 1 / bound <= est / sps <= bound, (wid, est, sps)
        assert abs(ram / rss - 1) <= 0.15, (wid, ram, rss)


def cpu_markdown() -> list[str]:
    lines = ["### CPU target (`--gpu cpu`)", "",
             "Issue 15's first trial measurements (PyTorch 2.14, 2-core AMD EPYC with AVX-512, random weights, synthetic "
             "data, one warm-up then ≥ 3 timed steps, peak resident memory of a fresh process; the trial's eager stack, its "
             "optimizer then torch's per-tensor loop, and estimated so). **Calibration**: they set `host.import_gib` "
             "(the process's libraries) and, until December 2026, `cpu.gemm_half_rows_per_core` (GEMM efficiency by "
             "rows per call and core; now measured on the kernels, factors.toml). The per-operator host cost is the GPU model's (gpt-fast), paid inside the "
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
              "- Since December 2026 the rows term of a Zen 4 core is its own kernels' (`[cpu.gemm_half_rows_by_core]` "
              "amd-zen4, 11.5 rows, against the Intel AMX kernels' 100): gpt2-124m-pretrain 1.26× → 1.77× and "
              "bert-base-finetune 1.07× → 1.20× optimistic here. The same two jobs on the same kind of CPU on 2026-12-04, "
              "the optimizer fused (`benchmarks/data/trials-cpu-amd-zen4.json`, the trials section below), ran 1.10 and "
              "3.34 samples/s, 2.6× and 1.4× these rows, and are estimated 0.79× and 1.06× there: these rows' runner "
              "stepped the per-tensor loop, whose cost on a CPU the model prices short.",
              "- Since 2026-12-05 a CPU's linear layers run at the share of the peak their kernels measured (`[cpu] "
              "linear_efficiency`, 0.815, against the GPUs' transformer efficiency, 0.705 for BERT's width): "
              "gpt2-124m-pretrain 1.83× → 2.00× and bert-base-finetune 1.25× → 1.38× optimistic here, while the same "
              "jobs on the fused step are priced within 10 % on every set of one-thread rounds.",
              ""]
    return lines


