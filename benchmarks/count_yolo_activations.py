"""Count YOLOv5 / YOLOv8 parameters, forward FLOPs and saved activations for the evidence models (resources/evidence/
ultralytics-yolov5-readme.toml, mmyolo-yolov5-model-zoo.toml, mmyolo-yolov8-model-zoo.toml).

Usage: python benchmarks/count_yolo_activations.py   (any Python with PyTorch; no network, no ultralytics package)

The networks are written out here from Ultralytics' models/yolov5{n,s,m,l}.yaml (v6.x: Conv 6x6 stem, C3, SPPF) and
ultralytics/cfg/models/v8/yolov8.yaml (C2f, SPPF, the decoupled Detect head with reg_max 16), 80 classes. The parameter
counts equal Ultralytics' published ones (yolov8n 3,157,200 ... yolov8x 68,229,648; yolov5s 7,235,389), which checks the
transcription. Activations: train mode, batch 2 at 320 px, the tensors autograd saves (saved_tensors_hooks), one count per
storage, at 2 B per element, x 4 for 640 px, per image (MiB) — the procedure of the YOLOv5 evidence models, which this
script reproduces within 0.4 % for YOLOv5 n/s/m/l. FLOPs: torch.utils.flop_counter at 640 px, batch 1, eval mode.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
from torch.utils.flop_counter import FlopCounterMode


def divisible(x: float, d: int = 8) -> int:
    return math.ceil(x / d) * d


class Conv(nn.Module):
    def __init__(self, c1: int, c2: int, k: int = 1, s: int = 1, p: int | None = None):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2 if p is None else p, bias=False)
        self.bn = nn.BatchNorm2d(c2, eps=1e-3, momentum=0.03)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c1: int, c2: int, shortcut: bool, k1: int):
        super().__init__()
        self.cv1, self.cv2, self.add = Conv(c1, c2, k1), Conv(c2, c2, 3), shortcut and c1 == c2

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C3(nn.Module):  # YOLOv5
    def __init__(self, c1: int, c2: int, n: int, shortcut: bool = True):
        super().__init__()
        c = c2 // 2
        self.cv1, self.cv2, self.cv3 = Conv(c1, c, 1), Conv(c1, c, 1), Conv(2 * c, c2, 1)
        self.m = nn.Sequential(*(Bottleneck(c, c, shortcut, 1) for _ in range(n)))

    def forward(self, x):
        return self.cv3(torch.cat((self.m(self.cv1(x)), self.cv2(x)), 1))


class C2f(nn.Module):  # YOLOv8
    def __init__(self, c1: int, c2: int, n: int, shortcut: bool = False):
        super().__init__()
        self.c = c2 // 2
        self.cv1, self.cv2 = Conv(c1, 2 * self.c, 1), Conv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, self.c, shortcut, 3) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).chunk(2, 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1: int, c2: int):
        super().__init__()
        self.cv1, self.cv2, self.m = Conv(c1, c1 // 2, 1), Conv(c1 // 2 * 4, c2, 1), nn.MaxPool2d(5, 1, 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class Detect8(nn.Module):
    def __init__(self, ch: tuple[int, int, int], nc: int = 80, reg: int = 16):
        super().__init__()
        c2, c3 = max(16, ch[0] // 4, reg * 4), max(ch[0], min(nc, 100))
        self.cv2 = nn.ModuleList(nn.Sequential(Conv(x, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg, 1)) for x in ch)
        self.cv3 = nn.ModuleList(nn.Sequential(Conv(x, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for x in ch)
        self.dfl = nn.Conv2d(reg, 1, 1, bias=False).requires_grad_(False)

    def forward(self, xs):
        return [torch.cat((self.cv2[i](x), self.cv3[i](x)), 1) for i, x in enumerate(xs)]


class Yolo(nn.Module):
    """Backbone + PAN neck + head of YOLOv5 (v6.x) or YOLOv8, as the two yaml files lay them out."""

    def __init__(self, v8: bool, depth: float, width: float, max_ch: int = 1024):
        super().__init__()
        c = lambda ch: divisible(min(ch, max_ch) * width)  # noqa: E731
        r = lambda n: max(round(n * depth), 1)  # noqa: E731
        block = C2f if v8 else C3
        stem = Conv(3, c(64), 3, 2) if v8 else Conv(3, c(64), 6, 2, 2)
        self.v8, self.up = v8, nn.Upsample(None, 2, "nearest")
        self.b = nn.ModuleList([stem, Conv(c(64), c(128), 3, 2), block(c(128), c(128), r(3), True),
                                Conv(c(128), c(256), 3, 2), block(c(256), c(256), r(6), True),
                                Conv(c(256), c(512), 3, 2), block(c(512), c(512), r(6 if v8 else 9), True),
                                Conv(c(512), c(1024), 3, 2), block(c(1024), c(1024), r(3), True), SPPF(c(1024), c(1024))])
        lat4, lat3 = (c(1024), c(512)) if v8 else (c(512), c(256))  # channels coming up from P5 / P4 into the FPN
        self.red5 = nn.Identity() if v8 else Conv(c(1024), c(512), 1)
        self.p4 = block(lat4 + c(512), c(512), r(3), False)
        self.red4 = nn.Identity() if v8 else Conv(c(512), c(256), 1)
        self.p3 = block(lat3 + c(256), c(256), r(3), False)
        self.down3, self.n4 = Conv(c(256), c(256), 3, 2), block(c(256) + lat3, c(512), r(3), False)
        self.down4, self.n5 = Conv(c(512), c(512), 3, 2), block(c(512) + lat4, c(1024), r(3), False)
        ch = (c(256), c(512), c(1024))
        self.head = Detect8(ch) if v8 else nn.ModuleList(nn.Conv2d(x, 255, 1) for x in ch)

    def forward(self, x):
        out = []
        for m in self.b:
            x = m(x)
            out.append(x)
        t5 = self.red5(out[9])
        t4 = self.red4(self.p4(torch.cat([self.up(t5), out[6]], 1)))
        p3 = self.p3(torch.cat([self.up(t4), out[4]], 1))
        n4 = self.n4(torch.cat([self.down3(p3), t4], 1))
        n5 = self.n5(torch.cat([self.down4(n4), t5], 1))
        return self.head([p3, n4, n5]) if self.v8 else [h(x) for h, x in zip(self.head, (p3, n4, n5), strict=True)]


def activation_mib(model: nn.Module) -> float:
    saved: dict[int, int] = {}

    def pack(t):
        if not (t.requires_grad and t.is_leaf):
            key = t.untyped_storage().data_ptr()
            saved[key] = max(saved.get(key, 0), t.untyped_storage().nbytes() // t.element_size())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model.train()(torch.randn(2, 3, 320, 320))
    return sum(saved.values()) * 2 / 2 * 4 / 2**20


SCALES = {"yolov5n": (False, 0.33, 0.25, 1024), "yolov5s": (False, 0.33, 0.50, 1024),
          "yolov5m": (False, 0.67, 0.75, 1024), "yolov5l": (False, 1.0, 1.0, 1024),
          "yolov8n": (True, 0.33, 0.25, 1024), "yolov8s": (True, 0.33, 0.50, 1024), "yolov8m": (True, 0.67, 0.75, 768),
          "yolov8l": (True, 1.0, 1.0, 512), "yolov8x": (True, 1.0, 1.25, 512)}


def main() -> None:
    torch.manual_seed(0)
    for name, (v8, depth, width, max_ch) in SCALES.items():
        model = Yolo(v8, depth, width, max_ch)
        with torch.no_grad(), FlopCounterMode(display=False) as fc:
            model.eval()(torch.zeros(1, 3, 640, 640))
        convs = sum(isinstance(m, nn.Conv2d) for m in model.modules())
        print(f"{name}: params {sum(p.numel() for p in model.parameters())}, conv layers {convs}, "
              f"GFLOPs@640 {fc.get_total_flops() / 1e9:.1f}, activation_mib@640 {activation_mib(model):.1f}")


if __name__ == "__main__":
    main()
