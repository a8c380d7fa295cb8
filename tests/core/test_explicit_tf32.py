"""A job that turns TF32 on itself gets it on any GPU with TF32 units, not only where PyTorch's CUDA defaults reach.

Intel's ITEX performance page (intel-extension-for-tensorflow docs/guide/performance.md, 2024-03) trains BERT-Large
phase 2 on one stack of a Data Center GPU Max 1550 at 36.22 sequences/s with ITEX_FP32_MATH_MODE=TF32 and 93.22 in
bf16: TF32 runs on the XMX matrix engines at 0.39 of the bf16 speed, not at the FP32 vector rate (26.2 of 419 TFLOPS,
a sixteenth). The estimate's TF32 / bf16 speed ratio follows the published one within 25 %.
"""

from __future__ import annotations

import dataclasses

from gpucheck.evidence import load_evidence
from tests.core.accuracy import run


def _rows():
    rows = {r.id: r for r in load_evidence()}
    return rows["itex-bert-large-p2-tf32-max1550-1stack"], rows["itex-bert-large-p2-bf16-max1550-1stack"]


def test_tf32_set_by_the_job_runs_on_intel_matrix_engines() -> None:
    tf32, bf16 = _rows()
    assert tf32.train.precision == "fp32" and tf32.train.tf32_matmul
    published = tf32.measured.value / bf16.measured.value  # 0.39
    estimated = run(tf32).samples_per_second / run(bf16).samples_per_second
    assert abs(estimated / published - 1) < 0.25, (estimated, published)


def test_plain_fp32_on_the_same_gpu_stays_on_the_vector_units() -> None:
    tf32, _ = _rows()
    plain = dataclasses.replace(tf32, train=dataclasses.replace(tf32.train, tf32_matmul=None))
    assert run(plain).samples_per_second < run(tf32).samples_per_second / 3
