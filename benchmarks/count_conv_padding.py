"""Count the share of the built-in conv nets' and U-Nets' forward multiplies that fall on zero padding
(ModelSpec.conv_padding_share): the work a CPU's convolutions skip (factors.toml [cpu.conv_padding]); and the outputs of
their max pools and the window (ModelSpec.max_pool_outputs, max_pool_window: factors.toml [cpu.max_pool]).

    /path/to/python-with-torch-diffusers-torchvision benchmarks/count_conv_padding.py [--out FILE]

Runs with a Python that has torch, torchvision and diffusers (the trial's), not gpucheck's. Builds each model on the
meta device the way the trial builds it (benchmarks/count_conv_weights.py, benchmarks/count_unet_flops.py) and runs
one forward at batch 1 with a forward hook on every nn.Conv2d, nn.Linear and nn.MaxPool2d. Per convolution, the nominal
multiply-adds are what FLOP counters count (fvcore, torch.utils.flop_counter: every output position times the whole
kernel window, C_in / groups x k_h x k_w x C_out), and the valid ones only those whose input tap lies inside the
image (rows and columns counted apart: sum over output rows of the kernel rows inside the input, the same for
columns, their product). The share is (nominal - valid) / (every convolution's and linear layer's nominal
multiply-adds): the fraction of the model's forward_gflops (its linear and convolution part) that a kernel which
skips the padding does not run. Each model is counted at its ref_image_size and at half and twice that, to check
the estimator's first-order scaling (the padded border is a fixed number of pixels, so its share goes as 1 / side).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

import torch
from count_conv_weights import _resnet
from count_io import write_counts
from count_unet_flops import MODELS_COUNTED, meta_unet


def _valid_taps(size: int, k: int, stride: int, pad: int, dil: int) -> tuple[int, int]:
    """(kernel taps inside the input, all taps) summed over the output positions of one dimension."""
    out = (size + 2 * pad - dil * (k - 1) - 1) // stride + 1
    valid = sum(sum(1 for j in range(k) if 0 <= o * stride - pad + j * dil < size) for o in range(out))
    return valid, out * k


def _hooks(model: torch.nn.Module, tally: dict[str, float]) -> list:
    def conv(mod, inp, _out):
        h, w = inp[0].shape[-2:]
        ph, pw = (mod.padding if isinstance(mod.padding, tuple) else (0, 0))
        vh, nh = _valid_taps(h, mod.kernel_size[0], mod.stride[0], ph, mod.dilation[0])
        vw, nw = _valid_taps(w, mod.kernel_size[1], mod.stride[1], pw, mod.dilation[1])
        per = mod.in_channels // mod.groups * mod.out_channels * inp[0].shape[0]
        tally["conv_nominal"] += per * nh * nw
        tally["conv_valid"] += per * vh * vw

    def linear(mod, inp, _out):
        tally["linear"] += inp[0].numel() // inp[0].shape[-1] * mod.in_features * mod.out_features

    def pool(mod, _inp, out):
        k = mod.kernel_size if isinstance(mod.kernel_size, tuple) else (mod.kernel_size,) * 2
        tally["max_pool_outputs"] += out.numel()
        tally["max_pool_taps"] += out.numel() * k[0] * k[1]

    out = []
    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            if isinstance(m.padding, str):
                raise SystemExit(f"string padding {m.padding!r} is not counted")
            out.append(m.register_forward_hook(conv))
        elif isinstance(m, torch.nn.Linear):
            out.append(m.register_forward_hook(linear))
        elif isinstance(m, torch.nn.MaxPool2d):
            out.append(m.register_forward_hook(pool))
    return out


def count(build, pixels: int) -> dict:
    tally = dict.fromkeys(("conv_nominal", "conv_valid", "linear", "max_pool_outputs", "max_pool_taps"), 0.0)
    model, run = build(pixels)
    model.eval()  # BatchNorm on one sample at a 1x1 map
    hooks = _hooks(model, tally)
    with torch.no_grad():
        run(model)
    for h in hooks:
        h.remove()
    total = tally["conv_nominal"] + tally["linear"]
    padded = tally["conv_nominal"] - tally["conv_valid"]
    return {"image_size": pixels, "forward_gmacs_nominal": round(total / 1e9, 4),
            "conv_gmacs_nominal": round(tally["conv_nominal"] / 1e9, 4),
            "conv_gmacs_valid": round(tally["conv_valid"] / 1e9, 4),
            "conv_padding_share": round(padded / total, 4), "max_pool_outputs": int(tally["max_pool_outputs"]),
            "max_pool_window": round(tally["max_pool_taps"] / tally["max_pool_outputs"]) if tally["max_pool_outputs"] else 0}


def _mnist_net() -> torch.nn.Module:
    """pytorch/examples mnist/main.py's Net as a forward-able stack (dropout left out: it multiplies nothing)."""
    nn = torch.nn
    with torch.device("meta"):
        return nn.Sequential(nn.Conv2d(1, 32, 3, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 1), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Flatten(), nn.Linear(64 * 12 * 12, 128), nn.ReLU(), nn.Linear(128, 10))


def _cifar_resnet18() -> torch.nn.Module:
    """kuangliu/pytorch-cifar's ResNet-18: torchvision's with a 3x3 stem and no max-pool (gpucheck/trial/runner.py)."""
    model = _resnet("resnet18", 10, cifar_stem=True)
    model.maxpool = torch.nn.Identity()
    return model


def _vision(model_fn, channels: int):
    def build(pixels):
        model = model_fn()
        return model, lambda m: m(torch.randn(1, channels, pixels, pixels, device="meta"))
    return build


def _unet(cfg):
    def build(pixels):
        unet, x, ctx, extra = meta_unet(cfg, pixels)
        return unet, lambda m: m(x, torch.tensor([10], device="meta"), encoder_hidden_states=ctx, **extra)
    return build


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "data" / "conv-padding.json"))
    args = ap.parse_args()
    models = {
        "pytorch/examples mnist Net (mnist-cnn)": (_vision(_mnist_net, 1), 28),
        "torchvision resnet18, CIFAR 3x3 stem (cifar10-resnet18, calibrate-conv)":
            (_vision(_cifar_resnet18, 3), 32),
        "torchvision resnet50 (resnet50-finetune, imagenet-resnet50)":
            (_vision(lambda: _resnet("resnet50", 1000), 3), 224),
        **{f"diffusers U-Net {k}": (_unet(cfg), ref) for k, (cfg, ref, _src) in MODELS_COUNTED.items()},
    }
    runs = {}
    for name, (build, ref) in models.items():
        sizes = (ref,) if "mnist" in name else (ref // 2, ref, ref * 2)  # its fc1 fixes the 28 px input
        at = {s: count(build, s) for s in sizes}
        share = at[ref]["conv_padding_share"]
        runs[name] = {"ref_image_size": ref, "at_ref": at[ref]}
        if len(at) > 1:
            runs[name].update(at_half=at[ref // 2], at_double=at[ref * 2], first_order_half=round(min(1.0, share * 2), 4),
                              first_order_double=round(share / 2, 4))
        print(name, json.dumps(runs[name]), flush=True)
    write_counts(args.out, __doc__, runs, torchvision=__import__("torchvision").__version__,
                 diffusers=__import__("diffusers").__version__, platform=platform.platform())
    return 0


if __name__ == "__main__":
    sys.exit(main())
