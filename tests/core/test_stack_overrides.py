"""A job's own stack settings over its stack's: NVIDIA DeepLearningExamples runs plain PyTorch layers (each element-wise
operation its own kernel: the eager stack) inside NGC containers that turn TF32 on for fp32 matmuls, and some of them
cast the model itself to 16 bits. A row states those settings (train.tf32_matmul, train.autocast_fp32_stream)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import find_gpu  # noqa: E402
from gpucheck.errors import BadInput  # noqa: E402
from gpucheck.evidence import load_evidence  # noqa: E402
from gpucheck.tomldata import validate_table  # noqa: E402
from gpucheck.workload_schema import TRAIN_SPEC  # noqa: E402
from tests.core import accuracy as A  # noqa: E402


def _row(row_id: str):
    return next(r for r in load_evidence() if r.id == row_id)


def test_published_tf32_rate_above_the_fp32_peak_is_estimated_on_tf32():
    """DeepLearningExamples' Transformer-big TF32 column on one A100 40GB, 51,057 target tokens/s, is more model
    arithmetic per second than the A100's FP32 peak allows: the container's TF32 was on under plain PyTorch layers,
    and the estimate runs those matmuls on the TF32 tensor cores."""
    r = _row("dle-transformer-big-wmt14-fp32-1xa100-40gb")
    assert r.train.stack == "eager" and r.train.tf32_matmul
    e = A.run(r)
    published_tflops = A.measured_samples_per_s(r) * e.flops_per_sample / 1e12
    assert published_tflops > find_gpu("a100 40gb").tflops_fp32
    assert e.math == "tf32-tensor"


def test_tf32_matmul_must_be_a_bool():
    with pytest.raises(BadInput, match="tf32_matmul"):
        validate_table("job.toml [train]", {"tf32_matmul": "yes"}, TRAIN_SPEC)
