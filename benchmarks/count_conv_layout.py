"""Count what NCHW feature maps cost a 16-bit conv net on NVIDIA tensor cores: the layout transposes around each
convolution, per element the net saves for backward. Tried as a speed term on 2026-12-04 and not priced (docs/evidence.md,
"Tried, not priced"): kept so the count can be compared with a GPU's own profile.

    /path/to/python-with-torch-torchvision-diffusers benchmarks/count_conv_layout.py [--out FILE]

cuDNN's tensor-core convolution kernels read and write NHWC. Given PyTorch's default NCHW tensors, every convolution
call transposes its activation operands into NHWC and its result back (NVIDIA's diagram of NCHW against NHWC, as
MosaicML's 'Channels Last' method card reproduces it: 'the NCHW tensor must be transposed to NHWC before the convolution
and transposed back to NCHW after'; PyTorch's 'Channels Last Memory Format' tutorial). In a training step each
convolution makes three calls: the forward (input X in, output Y out), the input's gradient (dY in, dX out; none
where the input needs no gradient, as the image into the first layer) and the weight's gradient (X and dY in). Each
transpose reads and writes its tensor once: 2 |X| + 2 |Y| per call, 6 (|X| + |Y|) per convolution in all, 4 (|X| +
|Y|) for one whose input needs no gradient. Weights are small beside the feature maps at training batch sizes and are
left out.

Runs with a Python that has torch and torchvision (and diffusers for the U-Net), not gpucheck's. For each net, one
forward at batch 2 on the CPU in fp32 (the counts are elements, whatever their width) records every nn.Conv2d's input
and output elements (forward hooks) and the distinct storages autograd saves for backward (saved_tensors_hooks,
parameters excluded, one count per storage: how the catalog's activation_mib is measured). The factor is the
transposes' elements over one step (forward + backward) per saved element, per sample.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "resources" / "models"


def _count(model: torch.nn.Module, *inputs: torch.Tensor, batch: int) -> dict[str, float]:
    convs: list[tuple[int, int, bool]] = []  # (input elements, output elements, input needs a gradient)

    def hook(_m: torch.nn.Module, args: tuple, out: torch.Tensor) -> None:
        x = args[0]
        convs.append((x.numel(), out.numel(), bool(x.requires_grad)))

    handles = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    saved: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params and ptr:
            saved[ptr] = max(saved.get(ptr, 0), t.untyped_storage().nbytes() // t.element_size())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(*inputs)
    for h in handles:
        h.remove()
    moved = sum((6 if grad else 4) * (x + y) for x, y, grad in convs)
    io = sum(x + y for x, y, _ in convs)
    s = sum(saved.values())
    return {"convolutions": len(convs), "conv_io_elements_per_sample": io / batch,
            "saved_elements_per_sample": s / batch, "transposed_per_saved": moved / s}


def _tv(name: str, size: int, cifar_stem: bool = False, **kw) -> dict[str, float]:
    import torchvision

    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None, **kw)
    if cifar_stem:
        model.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        model.maxpool = torch.nn.Identity()
    model.train()
    return _count(model, torch.randn(2, 3, size, size), batch=2)


def _mnist() -> dict[str, float]:
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 32, 3, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Dropout(0.25), nn.Flatten(), nn.Linear(64 * 12 * 12, 128), nn.ReLU(), nn.Dropout(0.5),
                          nn.Linear(128, 10))
    return _count(model, torch.randn(2, 1, 28, 28), batch=2)


def _unet(config: str, latent: int) -> dict[str, float]:
    import diffusers

    torch.manual_seed(0)
    cfg = json.loads((MODELS / config).read_text(encoding="utf-8"))
    model = diffusers.UNet2DConditionModel.from_config(cfg).train()
    channels, ctx = cfg.get("in_channels", 4), cfg.get("cross_attention_dim", 768)
    x = torch.randn(2, channels, latent, latent)
    return _count(model, x, torch.tensor([10, 10]), torch.randn(2, 77, ctx), batch=2)


CNNS = {
    "resnet18-cifar-32px": lambda: _tv("resnet18", 32, cifar_stem=True, num_classes=10),
    "resnet18-224px": lambda: _tv("resnet18", 224),
    "resnet50-224px": lambda: _tv("resnet50", 224),
    "resnet101-224px": lambda: _tv("resnet101", 224),
    "resnet50-cifar-32px": lambda: _tv("resnet50", 32, num_classes=100),
    "vgg16-224px": lambda: _tv("vgg16", 224),
    "densenet121-224px": lambda: _tv("densenet121", 224),
    "mobilenet_v2-224px": lambda: _tv("mobilenet_v2", 224),
    "efficientnet_b0-224px": lambda: _tv("efficientnet_b0", 224),
    "mnist-cnn-28px": _mnist,
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "conv-layout-transposes.json"))
    ap.add_argument("--no-unet", action="store_true", help="skip the Stable Diffusion 1.5 U-Net (about 4 GB of RAM)")
    a = ap.parse_args()
    out: dict = {"about": __doc__.split("\n\n")[0], "torch": torch.__version__, "python": platform.python_version(),
                 "cnn": {}, "unet": {}}
    for name, fn in CNNS.items():
        out["cnn"][name] = fn()
        print(name, json.dumps(out["cnn"][name]), flush=True)
    if not a.no_unet:
        out["unet"]["sd15-unet-32x32-latent"] = _unet("sd15/unet.json", 32)
        print("sd15", json.dumps(out["unet"]["sd15-unet-32x32-latent"]), flush=True)
    for arch in ("cnn", "unet"):
        vals = [v["transposed_per_saved"] for v in out[arch].values()]
        if vals:
            out[f"{arch}_median_transposed_per_saved"] = statistics.median(vals)
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print({k: v for k, v in out.items() if k.endswith("per_saved")})
    return 0


if __name__ == "__main__":
    sys.exit(main())
