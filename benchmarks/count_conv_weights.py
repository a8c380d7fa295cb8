"""Count the convolution weights of the built-in jobs' conv nets and U-Nets (ModelSpec.conv_params): the weights a
CPU's convolutions reorder on every call (factors.toml [cpu.conv_reorder], gpucheck/estimate/cpu_conv.py); and the
values Adafactor's factored second moment keeps for them (ModelSpec.factored_state_params, gpucheck/estimate/adafactor.py).

    /path/to/python-with-torch-diffusers-torchvision benchmarks/count_conv_weights.py [--out FILE]

Runs with a Python that has torch, torchvision and diffusers (the trial's), not gpucheck's. Builds each model on the
meta device (no weights, no memory) the way the trial builds it (gpucheck/trial/runner.py): diffusers'
UNet2DConditionModel from the catalog's unet/config.json, torchvision's resnets (the CIFAR ResNet-18 with its 3×3
stem), the pytorch/examples MNIST net; and sums the elements of every nn.Conv2d weight (biases apart), with every
nn.Linear weight beside it for comparison. Adafactor's state, as transformers.optimization.Adafactor allocates it:
for a tensor of 2+ dimensions exp_avg_sq_row (shape[:-1]) and exp_avg_sq_col (shape[:-2] + shape[-1:]), for a 1-D
tensor exp_avg_sq (its own size).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "resources" / "models"


def _factored(p: torch.Tensor) -> int:
    """Values transformers' Adafactor keeps for `p` (module docstring)."""
    if p.dim() < 2:
        return p.numel()
    return p.numel() // p.shape[-1] + p.numel() // p.shape[-2]


def _counts(model: torch.nn.Module) -> dict[str, int]:
    conv = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Conv2d))
    linear = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Linear))
    return {"conv_weights": conv, "linear_weights": linear, "params": sum(p.numel() for p in model.parameters()),
            "adafactor_state": sum(_factored(p) for p in model.parameters())}


def _unet(config: str) -> torch.nn.Module:
    import diffusers

    cfg = json.loads((MODELS / config).read_text(encoding="utf-8"))
    with torch.device("meta"):
        return diffusers.UNet2DConditionModel.from_config(cfg)


def _resnet(name: str, classes: int, cifar_stem: bool = False) -> torch.nn.Module:
    import torchvision

    with torch.device("meta"):
        model = getattr(torchvision.models, name)(weights=None, num_classes=classes)
        if cifar_stem:
            model.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
    return model


def _mnist() -> torch.nn.Module:
    nn = torch.nn
    with torch.device("meta"):
        return nn.Sequential(nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1), nn.Linear(64 * 12 * 12, 128),
                             nn.Linear(128, 10))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "conv-weights.json"))
    a = ap.parse_args()
    import diffusers
    import torchvision

    models = {
        "sd15 U-Net (resources/models/sd15/unet.json)": _unet("sd15/unet.json"),
        "sdxl U-Net (resources/models/sdxl/unet.json)": _unet("sdxl/unet.json"),
        "calibrate U-Net probe (resources/models/calibration/unet-block.json)": _unet("calibration/unet-block.json"),
        "torchvision resnet50, 1000 classes": _resnet("resnet50", 1000),
        "torchvision resnet18, 10 classes, CIFAR 3x3 stem": _resnet("resnet18", 10, cifar_stem=True),
        "pytorch/examples mnist Net": _mnist(),
    }
    out = {"about": __doc__.split("\n\n")[0], "python": platform.python_version(), "torch": torch.__version__,
           "torchvision": torchvision.__version__, "diffusers": diffusers.__version__,
           "models": {k: _counts(v) for k, v in models.items()}}
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
