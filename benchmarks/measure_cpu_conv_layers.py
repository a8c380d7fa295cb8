"""Each convolution of the CPU trial's conv nets, at its own shape, on one core: what the whole net's convolutions
cost when every layer runs at the rate its shape gets, beside the speed model's one rate for all of them.

    python benchmarks/measure_cpu_conv_layers.py [--out FILE]     # with the Python that has torch (.venv-trial)

One PyTorch thread. The nets as the trial builds them (gpucheck/trial/runner.py: torchvision's ResNet-18 with the
CIFAR stem at 32 px and batch 128, ResNet-50 at 224 px and batch 8, channels-last) under bf16 autocast, as the
trial jobs cifar10-resnet18 and resnet50-finetune run. A forward hook records every Conv2d's input shape; each
distinct shape is then timed alone, forward + backward (the input's gradient too, except at the stem), as the
process's CPU seconds, best of 3 after a warm-up, and the net's sum weighs each shape by how often it occurs. The
layers alone are a lower bound on their time inside a step (warm caches, no first-touch page faults of fresh
outputs). Writes benchmarks/data/cpu-conv-layers-<core>.json (--out to choose).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

NETS = {"cifar10-resnet18": ("resnet18", 128, 32, 10, True), "resnet50-finetune": ("resnet50", 8, 224, 1000, False)}


def _net(name: str):
    import torch
    import torchvision

    arch, batch, size, classes, cifar = NETS[name]
    model = getattr(torchvision.models, arch)(weights=None, num_classes=classes)
    if cifar:  # the trial's CIFAR stem: 3×3, no max-pool
        model.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        model.maxpool = torch.nn.Identity()
    return model.to(memory_format=torch.channels_last), batch, size


def _shapes(model, batch: int, size: int) -> dict[tuple[int, ...], int]:
    import torch

    seen: dict[tuple[int, ...], int] = {}

    def hook(mod, inp, _out):
        key = (mod.in_channels, mod.out_channels, mod.kernel_size[0], mod.stride[0], mod.padding[0],
               inp[0].shape[2], inp[0].shape[3])
        seen[key] = seen.get(key, 0) + 1

    hooks = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        model(torch.randn(batch, 3, size, size).to(memory_format=torch.channels_last))
    for h in hooks:
        h.remove()
    return seen


def _layer_seconds(batch: int, shape: tuple[int, ...]) -> tuple[float, float]:
    """(best CPU seconds of forward + backward, its FLOPs) for one convolution shape under bf16 autocast."""
    import torch

    c_in, c_out, k, stride, pad, h, w = shape
    conv = torch.nn.Conv2d(c_in, c_out, k, stride, pad, bias=False).to(memory_format=torch.channels_last)
    x = torch.randn(batch, c_in, h, w).to(memory_format=torch.channels_last).requires_grad_(c_in != 3)
    best = float("inf")
    for rep in range(4):
        t0 = time.process_time()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = conv(x)
        y.backward(torch.ones_like(y))
        if rep:
            best = min(best, time.process_time() - t0)
        conv.weight.grad, x.grad = None, None
    h_out, w_out = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    passes = 3 if c_in != 3 else 2  # forward, weight gradient, input gradient (none at the stem)
    return best, 2.0 * batch * h_out * w_out * c_out * c_in * k * k * passes


def measure() -> dict:
    import torch

    torch.set_num_threads(1)
    out: dict = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__, "machine": platform.machine(),
                 "cpu_capability": torch.backends.cpu.get_cpu_capability(), "nets": {}}
    for name in NETS:
        model, batch, size = _net(name)
        layers, total_s, total_flop = [], 0.0, 0.0
        for shape, count in sorted(_shapes(model, batch, size).items()):
            sec, flop = _layer_seconds(batch, shape)
            total_s, total_flop = total_s + sec * count, total_flop + flop * count
            layers.append({"in": shape[0], "out": shape[1], "kernel": shape[2], "stride": shape[3], "map": shape[5],
                           "count": count, "gflops": round(flop / sec / 1e9, 1)})
        out["nets"][name] = {"batch": batch, "image_size": size, "conv_seconds": round(total_s, 3),
                             "conv_gflop": round(total_flop / 1e9, 1),
                             "gflops": round(total_flop / total_s / 1e9, 1), "layers": layers}
        print(f"{name}: {total_s:.3f} s of convolutions, {total_flop / 1e9:.1f} GFLOP, "
              f"{total_flop / total_s / 1e9:.1f} GFLOP/s")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, help="JSON file to write")
    a = ap.parse_args()
    data = measure()
    if a.out:
        a.out.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
