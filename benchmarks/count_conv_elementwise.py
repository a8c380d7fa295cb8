"""Count the element-wise (memory-bound) traffic of a conv net's training step, per sample, on the model's own code.

    /path/to/python-with-torch-and-torchvision benchmarks/count_conv_elementwise.py [--out FILE]

Runs with a Python that has torch and torchvision (the trial's), not gpucheck's. Builds each model (torchvision's
VGG-11/13/16/19 and AlexNet without BatchNorm, pytorch/examples' MNIST Net, and for comparison ResNet-18/50 and
VGG-16 with BatchNorm), random weights, train mode, fp32, and runs one forward + backward at its reference image size
(batch 2; the MNIST Net batch 8), the output's gradient given directly (no loss op). Two counts, as
benchmarks/count_unet_elementwise.py makes them for the U-Nets (its Counter is reused):

(a) saved: torch.autograd.graph.saved_tensors_hooks around forward, one count per storage, parameters excluded:
    elements, at 2 B each the way the catalog's activation_mib is given (MiB of 16-bit saved activations);
(b) moved: a TorchDispatchMode that sums, for every aten op that is not a matmul or a convolution (mm, addmm,
    convolution and its backward), the elements it reads and writes (inputs + outputs; views nothing; in-place ops
    their input and output). Ops on parameters and their gradients are left out: the estimator prices the weights'
    traffic apart (compute.weight_stream_bytes, optimizer_bytes).

Each op is read once per call, as the dispatcher sees it. That is the traffic of the nets without BatchNorm: ReLU
(in place in torchvision's VGG and AlexNet, out of place in the MNIST Net), max pooling with its indices, dropout
(bernoulli_, the mask's multiply and scale), adaptive average pooling, and their backward. BatchNorm's kernels pass
over their input more than once (statistics, then normalize; in backward two reductions, then the input gradient),
which one dispatcher call hides: for the nets with BatchNorm the model keeps its per-operation count
(factors.toml [speed.elementwise] feature_map_factor.cnn), and the ResNets' and VGG-16-BN's figures here are for
comparison only. elementwise_mib = moved elements per sample x 2 B / MiB: the model key of the same name (the
element-wise traffic per sample at ref_image_size in forward + backward, in MiB of 16-bit elements).
"""

from __future__ import annotations

import argparse
import platform

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.models as tvm
from count_io import write_counts
from count_unet_elementwise import Counter, _storage_key


class MnistNet(nn.Module):
    """pytorch/examples mnist/main.py Net, as gpucheck's trial runner builds it (gpucheck/trial/runner.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(self.dropout1(x), 1)
        x = self.dropout2(F.relu(self.fc1(x)))
        return F.log_softmax(self.fc2(x), dim=1)


MODELS = {  # name → (builder, image size, batch, has BatchNorm)
    "mnist-net": (MnistNet, 28, 8, False),
    "alexnet": (tvm.alexnet, 224, 2, False),
    "vgg11": (tvm.vgg11, 224, 2, False),
    "vgg13": (tvm.vgg13, 224, 2, False),
    "vgg16": (tvm.vgg16, 224, 2, False),
    "vgg19": (tvm.vgg19, 224, 2, False),
    "vgg16_bn": (tvm.vgg16_bn, 224, 2, True),
    "resnet18": (tvm.resnet18, 224, 2, True),
    "resnet50": (tvm.resnet50, 224, 2, True),
}


# the U-Net counter's group names for the ops a conv net has (its only mul and div are dropout's)
LABELS = {"geglu (gate product, chunk gradients)": "mul (dropout's mask; its backward)",
          "div (residual scale)": "div (dropout's scale)", "linear/conv bias grad": "bias gradients"}


def count(name: str) -> dict:
    build, size, batch, has_bn = MODELS[name]
    torch.manual_seed(0)
    model = build().train()
    channels = 1 if name == "mnist-net" else 3
    x = torch.randn(batch, channels, size, size)
    params = {_storage_key(p) for p in model.parameters()} | {_storage_key(b) for b in model.buffers()}
    saved: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        k = _storage_key(t)
        if k not in params and k not in saved:
            saved[k] = t.untyped_storage().nbytes() // t.element_size()
        return t

    counter = Counter(set(params), [0])
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), counter:
        y = model(x)
    counter.phase = "backward"
    with counter:
        y.backward(torch.ones_like(y))
    by_phase = {ph: {LABELS.get(k, k): n / batch for k, n in v.most_common() if k != "parameter-side"}
                for ph, v in counter.elements.items()}
    moved = sum(sum(v.values()) for v in by_phase.values())
    saved_el = sum(saved.values()) / batch
    return {"image_size": size, "batch": batch, "batchnorm": has_bn,
            "saved_elements_per_sample": round(saved_el), "activation_mib_2b": round(saved_el * 2 / 2**20, 3),
            "moved_elements_per_sample": round(moved), "elementwise_mib": round(moved * 2 / 2**20, 2),
            "moved_per_saved": round(moved / saved_el, 3),
            "by_phase_elements_per_sample": {ph: {k: round(n) for k, n in v.items()} for ph, v in by_phase.items()}}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="benchmarks/data/conv-elementwise-count.json")
    a = ap.parse_args()
    runs = {}
    for name in MODELS:
        runs[name] = count(name)
        r = runs[name]
        print(f"{name:10s} saved {r['activation_mib_2b']:8.3f} MiB  moved {r['elementwise_mib']:8.2f} MiB  "
              f"moved/saved {r['moved_per_saved']:.2f}", flush=True)
    write_counts(a.out, __doc__, runs, torchvision=torchvision.__version__, machine=platform.machine())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
