"""What a CPU convolution pays per call for its weights, whatever its input: PyTorch's eager CPU convolutions
(aten::mkldnn_convolution, oneDNN) reorder the weight into oneDNN's blocked layout on every call, which a linear
layer of the same weight does not (it streams the weight once). Not yet priced by the estimate: the catalog has no
count of a model's convolution weights (docs/accuracy.md, "Trials on this machine's CPU"); kept as the measurement a
model of it would start from.

    python benchmarks/measure_cpu_conv_reorder.py OUT.json [--steps-only]

Runs with a Python that has torch (the trial's). 3×3 convolutions of 320-1,280 channels on 4×4 and 2×2 maps (batch 1:
the multiplies take well under a tenth of the call), forward alone (no_grad) and forward + the input's gradient, the
weight frozen (a LoRA base's), bf16 and fp32, one and two threads; beside them a linear layer with the same weight
bytes at 16 rows. Wall-clock medians; the time per weight element is the figure.

Also the layout (not priced yet either): a bf16 convolution given NCHW maps (PyTorch's default layout) copies its
input to channels_last first (aten::contiguous inside aten::mkldnn_convolution), which for maps beyond the caches
costs more than the convolution; measured for 3×3 convolutions at 320-128 channels on 32×32-256×256 maps, NCHW
against channels_last, bf16 and fp32, one thread, with the copies' own time from torch.profiler; and whole training
steps of torchvision's ResNet-18 (CIFAR stem, batch 128 at 32 px) and ResNet-50 (batch 8 at 224 px), bf16 autocast,
fused AdamW, NCHW against channels_last, one thread, CPU seconds (`--steps-only` adds them to OUT.json alone).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
from pathlib import Path

from measure_cpu_threads import (
    timed,  # the same wall-clock median (run from benchmarks/, or with it on the path)
)


def _conv(torch, cin: int, hw: int, dtype) -> dict[str, float]:
    conv = torch.nn.Conv2d(cin, cin, 3, padding=1).to(dtype).requires_grad_(False)
    x = torch.randn(1, cin, hw, hw, dtype=dtype, requires_grad=True)
    weights = conv.weight.numel()

    def forward():
        with torch.no_grad():
            conv(x)

    def with_input_grad():
        x.grad = None
        conv(x).sum().backward()

    fwd = timed(forward)
    both = timed(with_input_grad)
    return {"weights": weights, "forward ms": round(fwd * 1e3, 3), "backward (input) ms": round((both - fwd) * 1e3, 3),
            "forward ns per weight": round(fwd / weights * 1e9, 3),
            "backward (input) ns per weight": round((both - fwd) / weights * 1e9, 3)}


def _linear(torch, width: int, dtype) -> dict[str, float]:
    lin = torch.nn.Linear(width, width).to(dtype).requires_grad_(False)
    x = torch.randn(16, width, dtype=dtype)

    def forward():
        with torch.no_grad():
            lin(x)

    fwd = timed(forward)
    return {"weights": lin.weight.numel(), "forward ms": round(fwd * 1e3, 3),
            "forward ns per weight": round(fwd / lin.weight.numel() * 1e9, 3)}


def _layout(torch, ch: int, hw: int, dtype, channels_last: bool) -> dict[str, float]:
    conv = torch.nn.Conv2d(ch, ch, 3, padding=1).to(dtype).requires_grad_(False)
    x = torch.randn(1, ch, hw, hw, dtype=dtype)
    if channels_last:
        conv = conv.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)

    def forward():
        with torch.no_grad():
            conv(x)

    total = timed(forward, 5)
    with torch.profiler.profile() as prof:
        for _ in range(3):
            forward()
    copies = sum(e.self_cpu_time_total for e in prof.key_averages() if e.key == "aten::copy_") / 3 / 1e6
    return {"elements": x.numel(), "forward ms": round(total * 1e3, 2), "of it copies ms": round(copies * 1e3, 2),
            "copies ns per element": round(copies / x.numel() * 1e9, 2)}


def _step(torch, name: str, channels_last: bool, batch: int, size: int, classes: int, cifar: bool) -> float:
    import time as _t

    import torchvision

    model = getattr(torchvision.models, name)(weights=None, num_classes=classes)
    if cifar:
        model.conv1 = torch.nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        model.maxpool = torch.nn.Identity()
    x, y = torch.randn(batch, 3, size, size), torch.randint(0, classes, (batch,))
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), fused=True)

    def step() -> None:
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    step()
    step()
    xs = []
    for _ in range(4):
        c = _t.process_time()
        step()
        xs.append(_t.process_time() - c)
    return statistics.median(xs)


def steps(torch) -> dict[str, float]:
    torch.set_num_threads(1)
    out = {}
    for name, batch, size, classes, cifar in (("resnet18", 128, 32, 10, True), ("resnet50", 8, 224, 1000, False)):
        for cl in (False, True):
            key = f"{name}{' (CIFAR stem)' if cifar else ''}, batch {batch}, {size} px, {'channels_last' if cl else 'NCHW'}"
            out[key + ", CPU s per step"] = round(_step(torch, name, cl, batch, size, classes, cifar), 3)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--steps-only", action="store_true")
    a = ap.parse_args()
    import torch

    if a.steps_only:
        data = json.loads(Path(a.out).read_text(encoding="utf-8"))
        data["steps"] = steps(torch)
        Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
        print(json.dumps(data["steps"], indent=1))
        return 0

    load = [os.getloadavg()[0]]
    res: dict[str, dict] = {}
    for threads in sorted({1, 2}):
        torch.set_num_threads(threads)
        for name, dtype in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
            for cin in (1280, 640, 320):
                res[f"{threads} threads, {name}, conv 3x3 {cin}->{cin}, 4x4"] = _conv(torch, cin, 4, dtype)
            res[f"{threads} threads, {name}, conv 3x3 1280->1280, 2x2"] = _conv(torch, 1280, 2, dtype)
            res[f"{threads} threads, {name}, linear 3840x3840, 16 rows"] = _linear(torch, 3840, dtype)
        load.append(os.getloadavg()[0])
    torch.set_num_threads(1)
    layout = {}
    for name, dtype in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        for ch, hw in ((128, 256), (256, 128), (512, 64), (320, 32)):
            for cl in (False, True):
                key = f"1 thread, {name}, conv 3x3 {ch}->{ch}, {hw}x{hw}, {'channels_last' if cl else 'NCHW'}"
                layout[key] = _layout(torch, ch, hw, dtype, cl)
    load.append(os.getloadavg()[0])
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next(x.split(":", 1)[1].strip() for x in fh if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    out = {"about": __doc__.split("\n\n")[0], "at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
           "cpu": cpu, "torch": torch.__version__, "load_average": [round(min(load), 2), round(max(load), 2)],
           "calls": res, "layout": layout}
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
