"""Pure fp16 (`fp16-pure`: `model.half()`, weights, activations, gradients and optimizer state in fp16, no autocast, no
fp32 master weights, no GradScaler), as the older PyTorch benchmarks train: XHMY/torch_benchmark (nn_bench.py),
u39kun/deep-learning-benchmark, ryujaehun/pytorch-gpu-benchmark. Priced as autocast fp16 before, these rows paid for
autocast's fp32 residual stream, casts and master-weight traffic they do not run."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.cli import main  # noqa: E402
from gpucheck.evidence import EvidenceRow, load_evidence  # noqa: E402
from tests.core import accuracy as A  # noqa: E402

# Regression guard, measured 2026-12-02 on the published pairs below (the same job, GPU and source in fp32 and in pure
# fp16): the estimated speed-up over the published one, geometric mean. Priced as autocast fp16 the ViT-B/16 pairs
# were 0.56×, as pure fp16 0.67× (on the H100 / H200 the estimate is bound by the host's launches in both);
# all pairs together 1.03× → 1.06×
ALL_PAIRS_BOUND = 1.25
VIT_PAIRS_FLOOR = 0.62


def _pairs() -> list[tuple[EvidenceRow, EvidenceRow]]:
    """(fp32 row, pure fp16 row) of one job: the same file, GPU and settings, the ids differing only in fp16/fp32."""
    speed = {r.id: r for r in load_evidence() if not r.measured.is_memory}
    pairs = []
    for r in speed.values():
        twin = speed.get(r.id.replace("fp16", "fp32")) if r.train.precision == "fp16-pure" else None
        if twin is not None and twin is not r and twin.file == r.file and twin.gpu == r.gpu \
                and dataclasses.replace(twin.train, precision=r.train.precision) == r.train:
            pairs.append((twin, r))
    return pairs


def _speedup_error(a: EvidenceRow, b: EvidenceRow) -> float:
    estimated = A.run(b).samples_per_second / A.run(a).samples_per_second
    published = A.measured_samples_per_s(b) / A.measured_samples_per_s(a)
    return math.log(estimated / published)


def test_pure_fp16_speedup_over_fp32_is_near_the_published_one() -> None:
    pairs = _pairs()
    assert len(pairs) >= 50  # XHMY (6 models × 5 machines), u39kun (12), ryujaehun (15)
    logs = [_speedup_error(a, b) for a, b in pairs]
    mean = math.exp(sum(logs) / len(logs))
    assert 1 / ALL_PAIRS_BOUND <= mean <= ALL_PAIRS_BOUND, round(mean, 2)
    vit = [_speedup_error(a, b) for a, b in pairs if b.arch == "transformer"]
    assert len(vit) == 5
    assert math.exp(sum(vit) / len(vit)) >= VIT_PAIRS_FLOOR, round(math.exp(sum(vit) / len(vit)), 2)


def test_pure_fp16_needs_the_memory_of_pure_bf16_not_of_mixed_precision(capsys) -> None:
    """2 B weights, 2 B gradients, 16-bit optimizer state: a full fine-tune in pure fp16 needs what pure bf16 needs
    (the same widths), well below fp16 mixed precision with its fp32 master weights, gradients and AdamW state."""
    gib = {}
    for p in ("fp16", "fp16-pure", "bf16-pure"):
        rc = main(["estimate", "bert-base-finetune", "--gpu", "4090", "--precision", p, "--json"])
        out = capsys.readouterr()
        assert rc == 0, out.err
        parts = json.loads(out.out)["vram_breakdown_gib"]
        gib[p] = parts["weights"] + parts["gradients"] + parts["optimizer"]
    assert gib["fp16-pure"] == gib["bf16-pure"]
    assert gib["fp16-pure"] < 0.6 * gib["fp16"]


def test_pure_fp16_is_named_in_the_report(capsys) -> None:
    rc = main(["estimate", "imagenet-resnet50", "--gpu", "2080 ti", "--precision", "fp16-pure"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "pure FP16" in out.out and "model.half()" in out.out
