"""PyTorch DDP's gradient buckets, against MMYOLO's published 8× A100 peaks (mmengine wraps the model in
MMDistributedDataParallel, a torch DistributedDataParallel with the default gradient_as_bucket_view=False).

The reducer allocates one flat tensor per bucket holding every trainable parameter's gradient when the model is wrapped
(torch/csrc/distributed/c10d/reducer.cpp, Reducer::initialize_buckets: 'bucket.gradients = at::empty(...)'), alive for the
run: a second copy of the gradients on every GPU, which the DDP docs say gradient_as_bucket_view=True saves ('the saved
memory size will be equal to the total gradients size'). resources/factors.toml [ddp]. Nothing is fitted to the rows: the
bytes are the gradients' own.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.core import accuracy as A
from tests.helpers import evidence_rows

# '| YOLOv5-x | P5 | 640 | No | Yes | Yes | 12.2 | …': mmengine's max_memory_allocated per GPU, batch 16 on each of 8 A100s
MMYOLO_DDP = {"mmyolo-yolov5x-coco-8xa100-mem": 12.2, "mmyolo-yolov5l-coco-8xa100-mem": 8.1,
              "mmyolo-yolov8x-coco-8xa100-mem": 12.2}
# Answer.AI's train.py 'ddp' is FSDP with ShardingStrategy.NO_SHARD: flat gradients all-reduced in place, no reducer
FSDP_NO_SHARD = ("aa-llama2-7b-lora-ddp-b4-2x3090-mem", "aa-llama2-7b-qlora-ddp-b8-2x3090-mem")


@pytest.fixture(scope="module")
def rows():
    return evidence_rows((*MMYOLO_DDP, *FSDP_NO_SHARD))


def _without_buckets(r):
    return dataclasses.replace(r, train=dataclasses.replace(r.train, ddp_bucket_copy=False))


@pytest.mark.parametrize("row_id", sorted(MMYOLO_DDP))
def test_a_ddp_run_holds_a_second_copy_of_its_gradients(rows, row_id):
    """The largest MMYOLO detectors, where the copy weighs most: with it the estimate of the published allocated peak is
    nearer, and the difference is exactly the replicated gradients (fp32 under AMP)."""
    r = rows[row_id]
    assert r.measured.value == pytest.approx(MMYOLO_DDP[row_id])
    assert r.gpus == 8 and r.train.ddp_bucket_copy and not r.train.shard and r.train.zero_stage == 0
    plain = _without_buckets(r)
    est, est_plain = A.run(r), A.run(plain)
    assert est.breakdown.gradients_bytes == pytest.approx(2 * est_plain.breakdown.gradients_bytes, rel=0.001)
    assert abs(A.memory_error(r)) < abs(A.memory_error(plain))


def test_one_gpu_has_no_reducer(rows):
    r = rows["mmyolo-yolov5x-coco-8xa100-mem"]
    one = dataclasses.replace(r, gpus=1)
    assert A.run(one).breakdown.gradients_bytes == A.run(_without_buckets(one)).breakdown.gradients_bytes


@pytest.mark.parametrize("row_id", FSDP_NO_SHARD)
def test_fsdp_no_shard_keeps_no_bucket_copy(rows, row_id):
    r = rows[row_id]
    assert not r.train.shard and not r.train.ddp_bucket_copy
    with_copy = dataclasses.replace(r, train=dataclasses.replace(r.train, ddp_bucket_copy=True))
    assert A.run(with_copy).breakdown.gradients_bytes > A.run(r).breakdown.gradients_bytes
