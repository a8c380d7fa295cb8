"""Bytes a detector's loss adds to the peak beside the network's activations (model key det_assigner,
resources/factors.toml [loss_memory]): YOLOv8's task-aligned assigner builds matrices of batch × box slots × anchors,
the box slots padded to the most boxes one image of the batch holds, and target tensors of batch × anchors × classes.
An instance-segmentation loss (model key mask_loss: YOLOv5-seg's) builds one mask per positive sample at the
prototypes' resolution (160 × 160 at 640 px) and keeps its BCE inputs for backward, for every image of the batch.
Counted on the CPU from the training code by benchmarks/count_yolo_loss_memory.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.records import ModelSpec, TrainSpec

COUNTED_SIDE_PX = 640  # the image side the [loss_memory] counts are stated at (anchors_at_640, mask_side_at_640)


def image_side_px(t: TrainSpec, m: ModelSpec) -> int:
    """The side of the job's square training image: its image size, else the model's reference size, else 640."""
    return t.image_size or m.ref_image_size or COUNTED_SIDE_PX


def assigner_anchors(t: TrainSpec, m: ModelSpec, f: Mapping[str, Any]) -> float:
    """Anchor points per image: one per cell of the stride-8, 16 and 32 feature maps (8,400 at 640 px), so in
    proportion to the image's pixels (the job's image size, else the model's reference size, else 640)."""
    return float(f["loss_memory"]["anchors_at_640"]) * image_side_px(t, m) ** 2 / COUNTED_SIDE_PX ** 2


def det_assigner_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The assigner's and loss's peak over the activations for one micro-batch: batch × anchors × the larger of the
    part that does not depend on the boxes (targets over the classes) and the per-anchor part plus one per box slot
    (the (batch, boxes, anchors) matrices)."""
    if not m.det_assigner:
        return 0.0
    lm = f["loss_memory"]
    a = lm["assigner"][m.det_assigner]
    per_anchor = max(float(a["floor_bytes_per_anchor"]),
                     float(a["bytes_per_anchor"]) + float(a["bytes_per_anchor_box"]) * float(lm["batch_max_boxes"]))
    return t.batch * assigner_anchors(t, m, f) * per_anchor


def mask_loss_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The masks a YOLOv5-seg loss keeps for backward: batch × boxes per image × positive samples per box × mask
    pixels × the bytes each pixel keeps (fp32 logits and target, mmdet's fp32 weight, the crop's bool)."""
    if not m.mask_loss:
        return 0.0
    lm = f["loss_memory"]
    pixels = (float(lm["mask_side_at_640"]) * image_side_px(t, m) / COUNTED_SIDE_PX) ** 2
    positives = float(lm["boxes_per_image"]) * float(lm["positives_per_box"])
    return t.batch * positives * pixels * float(lm["mask_loss"][m.mask_loss]["bytes_per_mask_pixel"])


def loss_side_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """What the loss adds to the peak beside the activations: the assigner's matrices and the kept masks."""
    return det_assigner_bytes(m, t, f) + mask_loss_bytes(m, t, f)
