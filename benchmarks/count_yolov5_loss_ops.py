"""Count the operators YOLOv5's training losses dispatch per step and per image (resources/factors.toml
[dispatch.host_loss]).

Usage: python benchmarks/count_yolov5_loss_ops.py PATH/TO/ultralytics-yolov5-git > benchmarks/data/yolov5-loss-ops.json
(any Python with PyTorch; the loss code is read with `git show` at the commits the README's tables were published).

The losses run on CPU tensors of yolov5n-seg's output shapes at 640 px (levels 80/40/20, 3 anchors, 80 classes,
32 mask coefficients, prototypes 32 x 160 x 160) with 20 targets an image. Forward: Python-level torch calls
(torch.overrides.TorchFunctionMode; attribute reads such as .shape, .device and .dim() left out: they cost no
dispatch). Backward: ATen operators (TorchDispatchMode) of loss.backward(). Per image = (batch 16 - batch 8) / 8;
per step = batch 16 - 16 x per image. The counts do not depend on the values, only on the code's structure.
"""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

V70 = "915bbf294bb74c859f0b41f1c23bc395014ea679"  # v7.0: the segmentation table (2022-11-22)
V20 = "c14368d768749734e1a017ed8e750b33597e8746"  # 'new CSP model release': 2/4/6/8 days on a V100 (2020-06-09)
FREE = ("__get__", "dim")  # attribute reads


def source(repo: str, commit: str, path: str, names: list[str]) -> str:
    src = subprocess.run(["git", "-C", repo, "show", f"{commit}:{path}"], capture_output=True, text=True,
                         check=True).stdout
    nodes = [n for n in ast.parse(src).body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    return "\n\n".join(ast.get_source_segment(src, n) for n in nodes)


class Calls(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") not in FREE:
            self.n += 1
        return func(*args, **(kwargs or {}))


class Aten(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


class Head(nn.Module):  # the Detect/Segment module's attributes the losses read
    def __init__(self) -> None:
        super().__init__()
        self.na, self.nc, self.nl, self.nm = 3, 80, 3, 32
        self.stride = torch.tensor([8.0, 16.0, 32.0])
        a = torch.tensor([[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]])
        self.anchors = a.float().view(3, 3, 2) / self.stride.view(-1, 1, 1)


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.model = nn.ModuleList([Head()])
        self.w = nn.Parameter(torch.zeros(1))
        self.gr, self.nc = 1.0, 80
        self.hyp = dict(cls_pw=1.0, obj_pw=1.0, fl_gamma=0.0, anchor_t=4.0, box=0.05, giou=0.05, obj=1.0, cls=0.5,
                        label_smoothing=0.0)


def inputs(bs: int, per_image: int = 20):
    g = torch.Generator().manual_seed(0)
    p = [torch.randn(bs, 3, s, s, 5 + 80 + 32, generator=g) for s in (80, 40, 20)]
    proto = torch.randn(bs, 32, 160, 160, generator=g, requires_grad=True)
    rows = []
    for i in range(bs):
        xy = torch.rand(per_image, 2, generator=g) * 0.8 + 0.1
        wh = torch.exp(torch.rand(per_image, 2, generator=g) * math.log(50.0)) * 0.01  # 1 % .. 50 % of the image
        cls = torch.randint(0, 80, (per_image, 1), generator=g).float()
        rows.append(torch.cat([torch.full((per_image, 1), float(i)), cls, xy, wh], 1))
    masks = torch.zeros(bs, 160, 160)  # overlap masks: one index map per image
    masks[:, :80, :80] = 1 + (torch.arange(6400).view(80, 80) % per_image).float()
    return p, proto, torch.cat(rows), masks


def count(call, bs: int) -> tuple[int, int]:
    calls, aten = Calls(), Aten()
    run = call(bs)  # the inputs are made outside the count
    with calls:
        loss = run()
    with aten:
        loss.sum().backward()
    return calls.n, aten.n


def per_step_and_image(call) -> dict[str, float]:
    (f8, b8), (f16, b16) = count(call, 8), count(call, 16)
    fi, bi = (f16 - f8) / 8, (b16 - b8) / 8
    return {"forward_per_step": f16 - 16 * fi, "backward_per_step": b16 - 16 * bi,
            "forward_per_image": fi, "backward_per_image": bi,
            "ops_per_step": f16 - 16 * fi + b16 - 16 * bi, "ops_per_image": fi + bi}


def main(repo: str) -> dict:
    ns = {"torch": torch, "nn": nn, "F": F, "math": math, "de_parallel": lambda m: m}
    exec(source(repo, V70, "utils/general.py", ["xywh2xyxy"]), ns)
    exec(source(repo, V70, "utils/metrics.py", ["bbox_iou"]), ns)
    exec(source(repo, V70, "utils/loss.py", ["smooth_BCE", "FocalLoss"]), ns)
    exec(source(repo, V70, "utils/segment/general.py", ["crop_mask"]), ns)
    seg_ns, det_ns = dict(ns), dict(ns)
    exec(source(repo, V70, "utils/segment/loss.py", ["ComputeLoss"]), seg_ns)
    exec(source(repo, V70, "utils/loss.py", ["ComputeLoss"]), det_ns)
    old = {"torch": torch, "nn": nn, "F": F, "math": math}
    exec(source(repo, V20, "utils/utils.py", ["bbox_iou", "FocalLoss", "smooth_BCE", "compute_loss", "build_targets"]),
         old)

    def seg(bs):
        p, proto, targets, masks = inputs(bs)
        p, loss = [x.requires_grad_() for x in p], seg_ns["ComputeLoss"](Model(), overlap=True)
        return lambda: loss((p, proto), targets, masks)[0]

    def det(bs):
        p, _, targets, _ = inputs(bs)
        p, loss = [x[..., :85].clone().requires_grad_() for x in p], det_ns["ComputeLoss"](Model())
        return lambda: loss(p, targets)[0]

    def det2020(bs):
        p, _, targets, _ = inputs(bs)
        p, model = [x[..., :85].clone().requires_grad_() for x in p], Model()
        return lambda: old["compute_loss"](p, targets, model)[0]

    return {"about": " ".join(__doc__.split("\n\n")[0].split()) + f" torch {torch.__version__}; yolov5 commits {V70} (v7.0), "
            f"{V20} (June 2020).",
            "yolov5-seg v7.0 utils/segment/loss.py": per_step_and_image(seg),
            "yolov5-det v7.0 utils/loss.py": per_step_and_image(det),
            "yolov5-det 2020 utils/utils.py compute_loss": per_step_and_image(det2020)}


if __name__ == "__main__":
    json.dump(main(sys.argv[1]), sys.stdout, indent=1)
    print()
