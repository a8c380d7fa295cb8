"""FP32 conv nets and QLoRA on AMD Instinct MI300X, checked against AMD's own published runs (ROCm blogs).

PyTorch on ROCm does not use TF32 by default (PyTorch docs 'HIP (ROCm) semantics': 'TF32 is not supported on ROCm';
MIOpen convolutions ignore torch.backends.cudnn.allow_tf32), so an fp32 ResNet on an MI300X runs at the FP32 matrix
rate (163.4 TFLOPS), not AMD's TF32 figure (653.7). MIOpen's Winograd kernels run on the vector ALUs at half that
rate (its own shader model: 64 FP32 multiply-adds per CU and clock), so they do not beat the implicit-GEMM
convolutions on the matrix cores. The DDP rows are calibration for these two choices (resources/evidence/roles.lock);
the QLoRA memory row is validation, its configuration read from the notebook that printed the run.
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import find_gpu
from gpucheck.estimate.conv_fp32 import winograd_vector_share
from gpucheck.estimate.factors import load_factors
from tests.core import accuracy as A
from tests.helpers import evidence_row

RESNET101_MI300X = "rocmblog-ddp-resnet101-cifar100-fp32-mi300x-1x1"


def test_fp32_resnet_on_mi300x_is_not_priced_as_tf32():
    row = evidence_row(RESNET101_MI300X)
    assert "Epoch - 95/100: time - 64.4887s" in row.quote
    e = A.run(row)
    assert e.math == "fp32" and e.peak_tflops == pytest.approx(163.4)
    # priced as TF32 the estimate was 2.54x too fast (about 1,960 images/s against 774 measured)
    assert A.speed_ratio(row, e) < 1.6


def test_tf32_stays_the_default_for_convolutions_on_nvidia():
    row = dataclasses.replace(evidence_row(RESNET101_MI300X), gpu="A100 80GB")  # the same job on CUDA
    assert A.run(row).math == "tf32-tensor"


def test_winograd_weighs_against_the_matrix_rate_only_where_there_is_one():
    f = load_factors()
    assert winograd_vector_share(find_gpu("MI300X"), f) == pytest.approx(0.5, rel=0.01)  # 81.7 / 163.4
    assert winograd_vector_share(find_gpu("MI250"), f) == pytest.approx(0.5, rel=0.01)  # 22.6 / 45.3
    assert winograd_vector_share(find_gpu("RTX 4090"), f) == 1.0  # cuDNN's Winograd and GEMMs share the FP32 cores


def test_mi300x_qlora_memory_with_the_checkpointing_the_run_had():
    row = evidence_row("rocmblog-llama2-7b-qlora-mi300x-memory")
    assert "VRAM% = 6" in row.quote and row.train.grad_checkpointing
    # read as without checkpointing the estimate was +222 % (37.1 GiB against 11.5 GiB)
    assert abs(A.memory_error(row)) < 0.25
