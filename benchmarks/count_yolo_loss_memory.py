"""Count the bytes YOLOv8's task-aligned assigner and loss, and YOLOv5-seg's mask loss, add at their peak beyond the
network's activations (resources/factors.toml [loss_memory]).

Usage: python benchmarks/count_yolo_loss_memory.py PATH/TO/open-mmlab-mmyolo-git > benchmarks/data/yolo-loss-memory.json
(any Python with PyTorch; MMYOLO's code is read with `git show` at v0.6.0, 8c4d9dc5, the release its YOLOv8 table
was read at: BatchTaskAlignedAssigner, its utils and bbox_overlaps, run as published on CPU tensors).

Inputs are the head's outputs for a batch at 640 px (8,400 anchors, 80 classes): predicted boxes in fp32 (the head
decodes them against fp32 priors), class scores in fp16 (autocast), and a padded target tensor (batch, n_max, ...)
with n_max boxes in one image and fewer in the others (the padded rows flagged off). The assigner runs in no_grad;
then the classification BCE over (batch, anchors, classes) in fp32 (autocast runs binary_cross_entropy_with_logits
in fp32; MMYOLO's through mmdet, with its valid-mask weight) with its backward down to the head's outputs. Peak =
the most bytes live at once among the tensors these operators allocate (TorchDispatchMode: every output storage
counted once, released when its storage is freed; inputs that exist before are not counted), as
torch.cuda.max_memory_allocated would see them over the activations.
Ultralytics' own TaskAlignedAssigner (ultralytics/utils/tal.py, 8.1+: int8 top-k count by scatter_add, CIoU only on
the anchors inside a box) is counted by `ultralytics_assigner` below, written from that file's tensor shapes/dtypes.
"""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys
import types

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

MMYOLO_V060 = "8c4d9dc5"  # v0.6.0
ANCHORS_640 = 8400  # 80² + 40² + 20² at strides 8 / 16 / 32
CLASSES = 80


class PeakBytes(TorchDispatchMode):
    """Live bytes of the storages the dispatched operators allocate; `peak` the most at once."""

    def __init__(self) -> None:
        super().__init__()
        self.live: dict[int, tuple[StorageWeakRef, int]] = {}
        self.outside: dict[int, StorageWeakRef] = {}
        self.now = 0
        self.peak = 0

    def _sweep(self) -> None:
        for key in [k for k, (ref, _) in self.live.items() if ref.expired()]:
            self.now -= self.live.pop(key)[1]
        for key in [k for k, ref in self.outside.items() if ref.expired()]:
            del self.outside[key]

    def __torch_dispatch__(self, func, types_, args=(), kwargs=None):
        self._sweep()
        for t in tree_flatten((args, kwargs))[0]:
            if isinstance(t, torch.Tensor):
                s = t.untyped_storage()
                if s.data_ptr() not in self.live:
                    self.outside.setdefault(s.data_ptr(), StorageWeakRef(s))
        out = func(*args, **(kwargs or {}))
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                s = t.untyped_storage()
                key = s.data_ptr()
                if key and key not in self.live and key not in self.outside:
                    self.live[key] = (StorageWeakRef(s), s.nbytes())
                    self.now += s.nbytes()
        self.peak = max(self.peak, self.now)
        return out


def mmyolo_namespace(repo: str) -> dict:
    """MMYOLO v0.6.0's assigner, its helpers and bbox_overlaps, executed from the repository as published."""
    def defs(path: str, names: list[str]) -> str:
        src = subprocess.run(["git", "-C", repo, "show", f"{MMYOLO_V060}:{path}"], capture_output=True, text=True,
                             check=True).stdout
        nodes = [n for n in ast.parse(src).body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
        return "\n\n".join(ast.get_source_segment(src, n) for n in nodes)
    ns: dict = {"torch": torch, "nn": nn, "F": F, "Tensor": torch.Tensor, "math": math,
                "HorizontalBoxes": types.SimpleNamespace()}
    exec("from typing import Optional, Tuple, Union", ns)
    exec(defs("mmyolo/models/losses/iou_loss.py", ["bbox_overlaps"]), ns)
    exec(defs("mmyolo/models/task_modules/assigners/utils.py",
              ["select_candidates_in_gts", "select_highest_overlaps", "yolov6_iou_calculator"]), ns)
    exec(defs("mmyolo/models/task_modules/assigners/batch_task_aligned_assigner.py",
              ["BatchTaskAlignedAssigner"]), ns)
    return ns


def head_outputs(batch: int, anchors: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Priors (x, y, stride, stride) of the three levels, decoded boxes (fp32), class logits (fp16, requires grad)."""
    side = int(round(math.sqrt(anchors / 21)))  # cells (4s)² + (2s)² + s² = 21 s²: s = 20 at 640 px
    priors = []
    for stride, n in ((8, 4 * side), (16, 2 * side), (32, side)):
        ys, xs = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
        p = torch.stack([xs.flatten() * stride, ys.flatten() * stride], -1).float()
        priors.append(torch.cat([p, torch.full_like(p, float(stride))], -1))
    priors_t = torch.cat(priors)
    g = torch.Generator().manual_seed(seed)
    centers = priors_t[:, :2].expand(batch, -1, -1)
    wh = priors_t[:, 2:].expand(batch, -1, -1) * (1 + 4 * torch.rand(batch, len(priors_t), 2, generator=g))
    boxes = torch.cat([centers - wh / 2, centers + wh / 2], -1)
    logits = (torch.randn(batch, len(priors_t), CLASSES, generator=g) - 4).half().requires_grad_()
    return priors_t, boxes, logits


def coco_targets(batch: int, n_max: int, image_px: int, seed: int = 1) -> torch.Tensor:
    """(batch, n_max, 5) label + xyxy, padded with zeros: image 0 holds n_max boxes, the others n_max // 3."""
    g = torch.Generator().manual_seed(seed)
    out = torch.zeros(batch, n_max, 5)
    for i in range(batch):
        n = n_max if i == 0 else max(1, n_max // 3)
        side = image_px * (0.03 + 0.4 * torch.rand(n, 2, generator=g) ** 2)
        xy = (image_px - side) * torch.rand(n, 2, generator=g)
        out[i, :n, 0] = torch.randint(0, CLASSES, (n,), generator=g).float()
        out[i, :n, 1:3] = xy
        out[i, :n, 3:5] = xy + side
    return out


def mmyolo_loss_peak(ns: dict, batch: int, n_max: int, image_px: int = 640) -> int:
    """Peak bytes of MMYOLO's YOLOv8 assigner (as its configs build it) plus the classification BCE and backward."""
    anchors = ANCHORS_640 * image_px ** 2 // 640 ** 2
    priors, boxes, logits = head_outputs(batch, anchors)
    gt = coco_targets(batch, n_max, image_px)
    assigner = ns["BatchTaskAlignedAssigner"](num_classes=CLASSES, use_ciou=True, topk=10, alpha=0.5, beta=6.0,
                                               eps=1e-9)
    labels, bboxes = gt[:, :, :1], gt[:, :, 1:]
    flag = (bboxes.sum(-1, keepdim=True) > 0).float()
    with PeakBytes() as counter:
        result = assigner(boxes, logits.detach().float().sigmoid().half(), priors, labels, bboxes, flag)
        target = result["assigned_scores"]
        loss = mmdet_sigmoid_bce(logits, target).sum() / target.sum()
        del result, target
        loss.backward()
    return counter.peak


def ultralytics_assigner(scores: torch.Tensor, boxes: torch.Tensor, anchor_xy: torch.Tensor, labels: torch.Tensor,
                         gt: torch.Tensor, flag: torch.Tensor, topk: int = 10) -> torch.Tensor:
    """Ultralytics 8.1+ TaskAlignedAssigner's allocations (utils/tal.py), in the order the file makes them."""
    b, n, a = gt.shape[0], gt.shape[1], boxes.shape[1]
    lt, rb = gt.view(-1, 1, 4).chunk(2, 2)
    inside = torch.cat((anchor_xy[None] - lt, rb - anchor_xy[None]), 2).view(b, n, a, 4).amin(3).gt_(1e-9)
    mask = (inside * flag).bool()
    overlaps = torch.zeros(b, n, a, dtype=boxes.dtype)
    box_scores = torch.zeros(b, n, a, dtype=scores.dtype)
    ind0 = torch.arange(b).view(-1, 1).expand(-1, n)
    box_scores[mask] = scores[ind0, :, labels.squeeze(-1).long()][mask]
    pd = boxes.unsqueeze(1).expand(-1, n, -1, -1)[mask]
    gb = gt.unsqueeze(2).expand(-1, -1, a, -1)[mask]
    (x1, y1, x2, y2), (u1, v1, u2, v2) = gb.chunk(4, -1), pd.chunk(4, -1)
    w1, h1, w2, h2 = x2 - x1, y2 - y1 + 1e-7, u2 - u1, v2 - v1 + 1e-7
    inter = (x2.minimum(u2) - x1.maximum(u1)).clamp_(0) * (y2.minimum(v2) - y1.maximum(v1)).clamp_(0)
    iou = inter / (w1 * h1 + w2 * h2 - inter + 1e-7)
    cw, ch = x2.maximum(u2) - x1.minimum(u1), y2.maximum(v2) - y1.minimum(v1)
    c2, rho2 = cw ** 2 + ch ** 2 + 1e-7, ((u1 + u2 - x1 - x2) ** 2 + (v1 + v2 - y1 - y2) ** 2) / 4
    v = (4 / math.pi ** 2) * ((w2 / h2).atan() - (w1 / h1).atan()).pow(2)
    ciou = iou - (rho2 / c2 + v * (v / (v - iou + 1 + 1e-7)))
    overlaps[mask] = ciou.squeeze(-1).clamp_(0)
    align = box_scores.pow(0.5) * overlaps.pow(6.0)
    top_idx = torch.topk(align, topk, dim=-1).indices
    top_idx.masked_fill_(~flag.expand(-1, -1, topk).bool(), 0)
    count = torch.zeros(align.shape, dtype=torch.int8)
    ones = torch.ones_like(top_idx[:, :, :1], dtype=torch.int8)
    for k in range(topk):
        count.scatter_add_(-1, top_idx[:, :, k:k + 1], ones)
    count.masked_fill_(count > 1, 0)
    pos = count.to(align.dtype) * inside * flag
    fg = pos.sum(-2)
    if fg.max() > 1:
        multi = (fg.unsqueeze(1) > 1).expand(-1, n, -1)
        is_max = torch.zeros(pos.shape, dtype=pos.dtype)
        is_max.scatter_(1, overlaps.argmax(1).unsqueeze(1), 1)
        pos = torch.where(multi, is_max, pos).float()
        fg = pos.sum(-2)
    gt_idx = pos.argmax(-2) + torch.arange(b)[:, None] * n
    tl = labels.long().flatten()[gt_idx].clamp_(0)
    ts = torch.zeros(b, a, CLASSES, dtype=torch.int64).scatter_(2, tl.unsqueeze(-1), 1)
    ts = torch.where(fg[:, :, None].repeat(1, 1, CLASSES) > 0, ts, 0)
    align *= pos
    norm = (align * (overlaps * pos).amax(-1, keepdim=True) / (align.amax(-1, keepdim=True) + 1e-9)).amax(-2)
    return ts * norm.unsqueeze(-1)


def ultralytics_loss_peak(batch: int, n_max: int, image_px: int = 640) -> int:
    anchors = ANCHORS_640 * image_px ** 2 // 640 ** 2
    priors, boxes, logits = head_outputs(batch, anchors)
    gt = coco_targets(batch, n_max, image_px)
    labels, bboxes = gt[:, :, :1], gt[:, :, 1:]
    flag = (bboxes.sum(-1, keepdim=True) > 0).float()
    anchor_xy = priors[:, :2] + priors[:, 2:3] / 2
    with PeakBytes() as counter:
        with torch.no_grad():
            target = ultralytics_assigner(logits.detach().float().sigmoid().half(), boxes, anchor_xy, labels,
                                          bboxes, flag)
        loss = F.binary_cross_entropy_with_logits(logits.float(), target.to(logits.dtype).float(),
                                                  reduction="none").sum() / target.sum().clamp(1)
        del target
        loss.backward()
    return counter.peak


def mmdet_sigmoid_bce(pred: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
    """mmdet.CrossEntropyLoss(use_sigmoid=True, reduction='none') as mmdet 3.x runs it (losses/cross_entropy_loss.py
    binary_cross_entropy): a float valid mask of the labels as the weight, the BCE in fp32 (autocast), loss × weight.
    """
    weight = ((label >= 0) & (label != -100)).float()
    loss = F.binary_cross_entropy_with_logits(pred.float(), label.float(), reduction="none")
    return loss * weight


def yolov5_seg_mask_peak(batch: int, positives_per_image: int, mmdet_bce: bool = True, side: int = 160) -> int:
    """Peak bytes of YOLOv5-seg's mask branch (MMYOLO v0.6.0 YOLOv5InsHead.loss_by_feat, lines 371-408; Ultralytics
    utils/segment/loss.py single_mask_loss the same without mmdet's weight): per image, the positives' coefficients
    @ the image's 32 prototypes -> (n, 160, 160) fp16 masks, the overlap-format target compared to each positive's
    instance index -> fp32, sigmoid BCE, cropped to the box, mean; the graph of every image kept until backward."""
    g = torch.Generator().manual_seed(2)
    proto = torch.randn(batch, 32, side, side, generator=g).half().requires_grad_()
    coeff = torch.randn(batch * positives_per_image, 32, generator=g).half().requires_grad_()
    gt_masks = torch.randint(0, 20, (batch, side, side), generator=g).float()
    inst = torch.randint(1, 20, (batch * positives_per_image,), generator=g).float()
    boxes = torch.rand(batch * positives_per_image, 4, generator=g) * side
    boxes[:, 2:] += boxes[:, :2]
    with PeakBytes() as counter:
        total = torch.zeros(())
        for b in range(batch):
            sel = slice(b * positives_per_image, (b + 1) * positives_per_image)
            target = torch.where(gt_masks[b][None] == inst[sel].view(-1, 1, 1), 1.0, 0.0)
            pred = (coeff[sel] @ proto[b].view(32, -1)).view(-1, side, side)
            full = mmdet_sigmoid_bce(pred, target) if mmdet_bce else \
                F.binary_cross_entropy_with_logits(pred.float(), target, reduction="none")
            x1, y1, x2, y2 = torch.chunk(boxes[sel][:, :, None], 4, 1)
            r = torch.arange(side, dtype=x1.dtype)[None, None, None, :]
            c = torch.arange(side, dtype=x1.dtype)[None, None, :, None]
            crop = full[None] * ((r >= x1) * (r < x2) * (c >= y1) * (c < y2))
            total = total + crop.mean(dim=(2, 3)).mean()
        total.backward()
    return counter.peak


YOLOV5_PRIORS = (((10, 13), (16, 30), (33, 23)), ((30, 61), (62, 45), (59, 119)), ((116, 90), (156, 198), (373, 326)))
COCO_AREA_BINS = ((0.41, 4, 32), (0.34, 32, 96), (0.24, 96, 400))  # share, side range (px): COCO's small/medium/large


def yolov5_positives_per_box(samples: int = 200_000, seed: int = 3) -> float:
    """Positive samples per target box of YOLOv5's assignment (MMYOLO YOLOv5Head.loss_by_feat; Ultralytics
    build_targets): on each of the 3 levels, every prior whose width and height ratios to the box are within
    prior_match_thr 4, times 3 cells (the box's own and the 2 nearer neighbours, near_neighbor_thr 0.5). Box sizes
    from COCO's published area mix (41 % small < 32², 34 % medium, 24 % large; cocodataset.org detection eval),
    log-uniform in each bin, aspect ratio log-uniform in 1/2-2."""
    g = torch.Generator().manual_seed(seed)
    sides = []
    for share, lo, hi in COCO_AREA_BINS:
        n = int(samples * share)
        sides.append(torch.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * torch.rand(n, generator=g)))
    side = torch.cat(sides)
    aspect = torch.exp((torch.rand(len(side), generator=g) - 0.5) * 2 * math.log(2))
    wh = torch.stack([side * aspect.sqrt(), side / aspect.sqrt()], -1)
    matched = torch.zeros(len(side))
    for level in YOLOV5_PRIORS:
        for prior in level:
            r = wh / torch.tensor(prior, dtype=torch.float32)
            matched += (torch.maximum(r, 1 / r).amax(-1) < 4.0).float()
    return 3 * float(matched.mean())


def main() -> None:
    ns = mmyolo_namespace(sys.argv[1])
    batch = 16
    rows = {}
    for n_max in (1, 20, 40, 60, 80):
        mm, ul = mmyolo_loss_peak(ns, batch, n_max), ultralytics_loss_peak(batch, n_max)
        rows[n_max] = {"mmyolo_bytes": mm, "ultralytics_bytes": ul}
        print(f"n_max {n_max:3d}: mmyolo {mm / 2**20:8.1f} MiB  ultralytics {ul / 2**20:8.1f} MiB", file=sys.stderr)
    cells = batch * ANCHORS_640
    fit = {}
    for key in ("mmyolo_bytes", "ultralytics_bytes"):
        per_cell = (rows[80][key] - rows[40][key]) / (40 * cells)
        fit[key] = {"bytes_per_image_anchor_box": round(per_cell, 1),
                    "bytes_per_image_anchor": round((rows[40][key] - 40 * per_cell * cells) / cells, 1)}
    seg = {}
    for impl, mmdet in (("mmyolo", True), ("ultralytics", False)):
        lo, hi = yolov5_seg_mask_peak(batch, 20, mmdet), yolov5_seg_mask_peak(batch, 60, mmdet)
        seg[impl] = {"bytes_per_positive_mask_pixel": round((hi - lo) / (batch * 40 * 160 ** 2), 2)}
        print(f"yolov5-seg mask loss ({impl}): {seg[impl]}", file=sys.stderr)
    seg["positives_per_box"] = round(yolov5_positives_per_box(), 1)
    print(f"yolov5 positives per box (COCO area mix): {seg['positives_per_box']}", file=sys.stderr)
    json.dump({"yolov5_seg": seg, "batch": batch, "anchors": ANCHORS_640, "classes": CLASSES, "peaks": rows,
               "per_cell": fit},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
