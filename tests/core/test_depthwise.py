"""Convolutions that are not GEMMs at the GEMM rate. Depthwise convolutions (MobileNet, MnasNet, EfficientNet) in PyTorch's own direct kernels: each multiply-add loads
its operands (resources/factors.toml [speed.elementwise] depthwise_loads_per_mac, a count from
aten/src/ATen/native/cuda/DepthwiseConv2d.cu), so a mobile net is not estimated as fast as its tiny FLOP count says.

Checked against artyom-beilis/pytorch_dlprim benchmark.md (fp32 training steps under each vendor's own PyTorch
backend: CUDA on a GTX 960, ROCm on an RX 6600 XT, XPU on an Arc A380) and against timm's fp16 runs on an RTX 3090,
where PyTorch hands fp16 depthwise layers to cuDNN and nothing is added. The count was set from the kernels' code;
these rows are calibration rows of the element-wise model (resources/evidence/roles.lock). And cuDNN's Winograd /
FFT algorithms, which shorten only the 3×3 stride-1 layers (model key winograd_share), checked on FP32 Pascal rows,
calibration rows of conv_fp32_speedup.
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.catalog import read_toml
from gpucheck.estimate.compute import depthwise_loads_per_sample
from gpucheck.estimate.factors import load_factors, parse_factors
from gpucheck.resources import resource_path
from tests.core import accuracy as A
from tests.helpers import evidence_row

MOBILE_FP32 = [  # (row, the published cell: ms per training step)
    ("dlprim-mobilenet-v2-b16-gtx-960", "gtx960 | mobilenet_v2 | 16 | 173.7 ms (CUDA)"),
    ("dlprim-mobilenet-v3-large-b32-gtx-960", "gtx960 | mobilenet_v3_large | 32 | 264.1 ms (CUDA)"),
    ("dlprim-mnasnet1-0-b16-gtx-960", "gtx960 | mnasnet1_0 | 16 | 167.9 ms (CUDA)"),
    ("dlprim-efficientnet-b0-b16-gtx-960", "gtx960 | efficientnet_b0 | 16 | 241.3 ms (CUDA)"),
    ("dlprim-mobilenet-v3-large-b64-rx-6600-xt", "rx6600xt | mobilenet_v3_large | 64 | 287.3 ms (ROCm)"),
    ("dlprim-mnasnet1-0-b32-rx-6600-xt", "rx6600xt | mnasnet1_0 | 32 | 160.3 ms (ROCm)"),
    ("dlprim-mobilenet-v3-small-b32-arc-a380", "A380 | mobilenet_v3_small | 32 | 92.1 ms (XPU)"),
]


@pytest.mark.parametrize("row_id,quote", MOBILE_FP32, ids=[r for r, _ in MOBILE_FP32])
def test_mobile_nets_fp32_step_time_within_35_percent_of_published(row_id, quote):
    row = evidence_row(row_id)
    ratio = A.speed_ratio(row)
    assert 1 / 1.35 <= ratio <= 1.35, f"{row_id}: estimate / measured speed {ratio:.2f} ({quote})"


def test_depthwise_layers_make_a_mobile_net_slower_than_its_flops_say():
    """Without the depthwise loads, MobileNetV3-Large fp32 on a GTX 960 would be estimated ≥ 1.5× too fast."""
    row = evidence_row("dlprim-mobilenet-v3-large-b32-gtx-960")
    bare = dataclasses.replace(row, model=dataclasses.replace(row.model, depthwise_gflops=0.0))
    assert A.speed_ratio(bare) >= 1.5 * A.speed_ratio(row) / 1.35 > 1.0


def test_fp16_depthwise_on_cuda_goes_to_cudnn_and_adds_nothing():
    """timm mobilenetv2_100, AMP on an RTX 3090 (cuDNN's depthwise kernels): nothing is added, and the estimate stays
    within 35 % of the published 1,832 samples/s."""
    row = evidence_row("timm-train-3090-mobilenetv2-100")
    assert depthwise_loads_per_sample(row.model, row.train, load_factors(), "cuda") == 0.0
    assert depthwise_loads_per_sample(row.model, row.train, load_factors(), "rocm") > 0.0
    assert 1 / 1.35 <= A.speed_ratio(row) <= 1.35


# -- Winograd / FFT on 3×3 stride-1 layers only (factors.toml [speed.conv_fp32], model key winograd_share) ----------
WINOGRAD_ROWS = [  # FP32 on a GTX 1080 Ti (Pascal: no TF32, no tensor cores): all-3×3 VGG-16 beside ResNet-50 (0.37)
    ("jcj-vgg16-b16-1080ti", "jcjohnson/cnn-benchmarks: VGG-16, GTX 1080 Ti, cuDNN 5.1, batch 16"),
    ("jcj-resnet50-b16-1080ti", "jcjohnson/cnn-benchmarks: ResNet-50, GTX 1080 Ti, cuDNN 5.1, batch 16"),
    ("ryujaehun-vgg16-fp32-gtx-1080-ti", "ryujaehun/pytorch-gpu-benchmark: vgg16 training, fp32, GTX 1080 Ti"),
    ("ryujaehun-resnet50-fp32-gtx-1080-ti", "ryujaehun/pytorch-gpu-benchmark: resnet50 training, fp32, GTX 1080 Ti"),
]


@pytest.mark.parametrize("row_id,quote", WINOGRAD_ROWS, ids=[r for r, _ in WINOGRAD_ROWS])
def test_winograd_gain_at_its_ceiling_shortens_only_the_3x3_layers(row_id, quote):
    """At Lavin & Gray's F(2×2, 3×3) ceiling (2.25× fewer multiplies), an all-3×3 VGG-16 and a ResNet-50 whose 3×3
    stride-1 layers hold 37 % of its FLOPs both stay within 35 % of their published FP32 step times; a gain applied to
    the whole net would make ResNet-50 far too fast whenever VGG-16 is right."""
    doc = read_toml(resource_path("factors.toml"))
    doc["speed"]["conv_fp32"]["conv_fp32_speedup"] = 2.25
    with A.with_factors(parse_factors(doc, "test")):
        ratio = A.speed_ratio(evidence_row(row_id))
    assert 1 / 1.35 <= ratio <= 1.35, f"{row_id}: estimate / measured speed {ratio:.2f} ({quote})"
