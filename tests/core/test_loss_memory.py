"""A detector's assigner and loss on the memory side (model key det_assigner, resources/factors.toml [loss_memory]):
YOLOv8's task-aligned assigner builds batch × box slots × anchor matrices (8,400 anchors at 640 px) and batch ×
anchors × classes targets beside the network's activations; their bytes were counted from MMYOLO's and Ultralytics'
code (benchmarks/count_yolo_loss_memory.py), not fitted.

Checked against MMYOLO's YOLOv8 model zoo (configs/yolov8/README.md at v0.6.0: peak allocated memory per GPU, 16 images
of 640 px, 8 A100s): YOLOv8-s 4.0 GB, YOLOv8-n 2.8 GB. Without the assigner the estimate was 24 % and 44 % below (an
OOM the user would meet on a card sized by the estimate). These rows are calibration rows (roles.lock): the structure
was added while they were compared.
"""

from __future__ import annotations

import dataclasses

from tests.core import accuracy as A
from tests.helpers import evidence_row

YOLOV8_ROWS = ("mmyolo-yolov8n-coco-8xa100-mem", "mmyolo-yolov8s-coco-8xa100-mem", "mmyolo-yolov8m-coco-8xa100-mem",
               "mmyolo-yolov8l-coco-8xa100-mem", "mmyolo-yolov8x-coco-8xa100-mem")


def test_yolov8_training_memory_is_not_underestimated_by_more_than_15_percent():
    # published 2.8 / 4.0 / 7.2 / 9.8 / 12.2 GB; without the assigner -44 / -24 / -23 / -12 / -10 %
    for rid in YOLOV8_ROWS:
        err = A.memory_error(evidence_row(rid))
        assert -0.15 <= err <= 0.10, (rid, err)


def test_the_assigner_is_what_brings_yolov8s_to_its_published_peak():
    row = evidence_row("mmyolo-yolov8s-coco-8xa100-mem")  # 4.0 GB published
    without = dataclasses.replace(row, model=dataclasses.replace(row.model, det_assigner=None))
    assert A.memory_error(without) < -0.20
    assert abs(A.memory_error(row)) < 0.10


SEG_ROWS = ("mmyolo-yolov5n-seg-coco-8xa100-mem", "mmyolo-yolov5s-seg-coco-8xa100-mem",
            "mmyolo-yolov5m-seg-coco-8xa100-mem", "mmyolo-yolov5l-seg-coco-8xa100-mem")


def test_yolov5_seg_masks_narrow_the_published_shortfall():
    # MMYOLO's YOLOv5 instance-segmentation table (v0.6.0): the n/s/m/l-seg peaks were 53 / 37 / 23 / 16 % above the
    # estimate; the kept per-positive masks (counted, not fitted) explain about half: each row now within -30 %, and
    # the segmentation loss is never priced above the published peak
    for rid in SEG_ROWS:
        row = evidence_row(rid)
        without = dataclasses.replace(row, model=dataclasses.replace(row.model, mask_loss=None))
        assert A.memory_error(without) + 0.05 < A.memory_error(row) <= 0.0, rid
        assert A.memory_error(row) >= -0.30, rid
