"""Memory estimates against the PUBLISHED memory rows of resources/evidence/*.toml (docs/evidence.md), as shipped:
the estimator's own CUDA context, never the source's. docs/accuracy.md is written by `python -m tests.core.accuracy`
(leave-one-source-out, per family and vendor); this file holds the memory tests, the Apple ratio rows and the
sections of docs/accuracy.md other tests own.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu, get_workload  # noqa: E402
from gpucheck.estimate import Target, estimate  # noqa: E402
from gpucheck.estimate.bands import memory_band  # noqa: E402
from gpucheck.evidence import EvidenceRow, load_evidence  # noqa: E402
from tests.core import accuracy as A  # noqa: E402

GIB = 1024**3
MEMORY_ROWS = [r for r in load_evidence() if r.measured.is_memory]
# Regression bound for one row: |estimate / measured − 1| (the aims are stricter and reported in docs/accuracy.md);
# sharded rows miss by more (litgpt's FSDP LoRA peaks hold a full-model gradient: FSDP with use_orig_params=True
# keeps gradients for whole Block units that mix frozen weights and LoRA, unsharded under no_sync; gpucheck counts
# LoRA-only gradients — resources/evidence/litgpt-resource-tables.toml): their own bound
# (measured 2026-12-01 with 103 memory rows: the worst single-GPU rows are Qwen and Llama 3.1 LoRA/QLoRA runs of SWIFT,
# Qwen's README and torchtune, -49 % to +60 %: large vocabularies and stacks the rows only partly describe)
ROW_BOUND, SHARDED_ROW_BOUND = 0.65, 0.80
# Rows whose miss the data cannot yet explain, each with its bound and why (never a reason to drop the row)
KNOWN_MISSES = {
    "ultralytics-ddp-yolov5l-1xa100-mem": (0.75, "YOLOv5 of 2021 turns cudnn.benchmark on, whose algorithm search "
                                          "allocates its workspaces through the caching allocator, which keeps them "
                                          "reserved (26 GB at every GPU count): a reserve that depends on the free "
                                          "memory, given back under pressure, not tensors the run needs"),
    "ultralytics-ddp-yolov5l-2xa100-mem": (0.75, "YOLOv5 of 2021 turns cudnn.benchmark on, whose algorithm search "
                                          "allocates its workspaces through the caching allocator, which keeps them "
                                          "reserved (26 GB at every GPU count): a reserve that depends on the free "
                                          "memory, given back under pressure, not tensors the run needs"),
    "ultralytics-ddp-yolov5l-4xa100-mem": (0.75, "YOLOv5 of 2021 turns cudnn.benchmark on, whose algorithm search "
                                          "allocates its workspaces through the caching allocator, which keeps them "
                                          "reserved (26 GB at every GPU count): a reserve that depends on the free "
                                          "memory, given back under pressure, not tensors the run needs"),
    "ultralytics-ddp-yolov5l-8xa100-mem": (0.75, "YOLOv5 of 2021 turns cudnn.benchmark on, whose algorithm search "
                                          "allocates its workspaces through the caching allocator, which keeps them "
                                          "reserved (26 GB at every GPU count): a reserve that depends on the free "
                                          "memory, given back under pressure, not tensors the run needs"),
    "unsloth-whisper-large-v3-lora-t4-memory": (0.70, "the notebook's peak reserve spans the whole train() call, "
                                                "twelve evaluations at batch 8 included, whose predictions the Trainer "
                                                "concatenates on the GPU (eval_accumulation_steps unset); the estimate "
                                                "prices the batch-1 training step, whose 2.9 GiB of weights match the "
                                                "3.0 GiB the notebook prints before training"),
    "swift-qwen-1_8b-lora-s8192-mem": (0.80, "the reserve is priced as the cached loss blocks a shuffled run of its "
                                       "950 steps leaves on average (factors.toml [overhead.cached_reserve]); replaying "
                                       "this benchmark's length model through the allocator, the published reserves at "
                                       "8,192 tokens rank at the 7th-10th percentile of 40 shuffled orders "
                                       "(benchmarks/data/caching-allocator-ms-swift.json): this run left fewer than most "
                                       "orders would"),
    "gpucheck-h200-mnist-cnn-memory": (0.75, "a 4.8 MB model at batch 64: the reserve is the caching allocator's "
                                       "segments (20 MiB for each block of 1-10 MiB) and the cuBLAS workspace, not "
                                       "tensors; 0.65 held until the MNIST Net's saved activations were corrected to "
                                       "their count (0.17 MiB a sample, was 0.35 without a source)"),
    # the MI300X QLoRA row left this list: its notebook shows torch.utils.checkpoint warnings (checkpointing on)
    # the MI250 QLoRA row left this list: its pinned trl 0.4.7 turns gradient checkpointing on (read from the source)
}


@pytest.mark.parametrize("row", MEMORY_ROWS, ids=[r.id for r in MEMORY_ROWS])
def test_every_memory_row_within_the_regression_bound(row: EvidenceRow) -> None:
    err = A.memory_error(row)
    bound = KNOWN_MISSES[row.id][0] if row.id in KNOWN_MISSES else SHARDED_ROW_BOUND if A.sharded(row) else ROW_BOUND
    assert abs(err) <= bound, (row.id, err, row.source.where)


def test_memory_errors_do_not_regress() -> None:
    """As shipped (issue 22: the estimator's own CUDA context, the duplicated 14,949 MiB row counted once):
    median 10.6% over 103 rows measured on 2026-12-01 (7.7% over the first 19). Regression guard; the aim (≤ 8%) is
    reported in docs/accuracy.md."""
    errs = [abs(A.memory_error(r)) for r in MEMORY_ROWS]
    assert statistics.median(errs) <= 0.11


def test_the_memory_band_multiplies_only_the_uncertain_bytes() -> None:
    """Weights, gradients and optimizer state are exact given the settings: the band's multiplier moves the
    activations and allocator slack only, so a full fine-tune's band is narrower than its activations'."""
    r = next(x for x in MEMORY_ROWS if x.measured.kind == "allocated_gib")
    total, exact, uncertain = A.memory_parts(r)
    lo, hi = memory_band(r.family, "nvidia")
    assert exact > 0 and uncertain > 0 and lo <= 1.0 <= hi
    assert (exact + uncertain * hi) / total < hi or hi == 1.0


APXML = ("apxml.com, 'NVIDIA GPU vs macOS Metal GPU benchmark' (PyTorch, a 5-convolution CNN, batch 512 of 64×64 "
         "RGB images, fp32, 50 epochs): RTX 4060 Ti 16GB 6.48 s, MacBook Pro M3 Pro (18-core GPU) 13.35 s, MacBook Air "
         "M1 (7-core GPU) 37.38 s, Colab T4 8.45 s, Colab A100 1.36 s. The network is not published, so only the "
         "ratios between devices are compared (on gpucheck's ResNet-18 at 64×64, batch 512, fp32)")

# (faster GPU, slower GPU, measured speed ratio, scale on the slower GPU's estimate)
RELATIVE = [
    ("rtx 4060 ti 16gb", "m3 pro 18gb", 13.35 / 6.48, 1.0),  # the source's MacBook Pro: 18-core GPU, 18 GB
    ("rtx 4060 ti 16gb", "apple m1 8gb", 37.38 / 6.48, 7 / 8),  # the Air's 7-core GPU vs the catalog's 8-core M1
    ("a100 40gb", "rtx 4060 ti 16gb", 6.48 / 1.36, 1.0),
]
# Apple's MPS factor is fitted on the Apple training rows of five source groups (factors.toml
# utilization.backend_factor.metal); against it these two ratios of one small unpublished CNN are over-stated
_APPLE_RATIO = pytest.mark.xfail(strict=True, reason=(
    "utilization.backend_factor.metal is fitted on five groups' Apple training rows (about 0.48); this small CNN's "
    "published ratios imply about 1.0, their NVIDIA side possibly bound by its host"))


def relative_ratio(fast: str, slow: str, scale: float) -> float:
    w = get_workload("cifar10-resnet18")
    est = [estimate(w, Target.from_gpu(find_gpu(g)), dataclasses.replace(w.train, precision="fp32", batch=512,
                                                                          image_size=64)).samples_per_second
           for g in (fast, slow)]
    return est[0] / (est[1] * scale)


@pytest.mark.parametrize("fast, slow, measured, scale", [
    pytest.param(*r, id=f"{r[0]}-vs-{r[1]}", marks=_APPLE_RATIO if find_gpu(r[1]).vendor == "apple" else ())
    for r in RELATIVE])
def test_relative_speed_across_devices_including_apple(fast, slow, measured, scale) -> None:
    """Apple's MPS factor (resources/factors.toml utilization.backend_factor.metal) against a published
    side-by-side run."""
    ratio = relative_ratio(fast, slow, scale)
    assert 1 / 1.5 <= ratio / measured <= 1.5, (fast, slow, ratio, measured, APXML)


def test_multi_gpu_scaling_is_sublinear_and_nvlink_beats_pcie() -> None:
    """DeepLearningExamples: 8× A100 ran ResNet-50 at 6.7–7.7× one GPU, never 8×."""
    w = get_workload("imagenet-resnet50")
    one = estimate(w, Target.from_gpu(find_gpu("a100 80gb"), gpus=1)).samples_per_second
    eight = estimate(w, Target.from_gpu(find_gpu("a100 80gb"), gpus=8)).samples_per_second
    assert 6.0 * one < eight < 8.0 * one
    big = get_workload("gpt2-124m-pretrain")
    nvlink = estimate(big, Target.from_gpu(find_gpu("a100 80gb"), gpus=8))
    pcie = estimate(big, Target.from_gpu(find_gpu("a100 80gb pcie"), gpus=8))
    assert nvlink.scaling_efficiency >= pcie.scaling_efficiency


# Sections other tests write into docs/accuracy.md (fit verdicts: tests/core/test_fit_verdicts.py; trials): kept
# as they are when this file regenerates the rest
KEPT_SECTIONS = ("## Fit verdicts", "## Trial")


def kept_tail(path: Path = ROOT / "docs" / "accuracy.md") -> str:
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    starts = [i for i in (text.find("\n" + h) for h in KEPT_SECTIONS) if i >= 0]
    return text[min(starts) + 1:] if starts else ""

