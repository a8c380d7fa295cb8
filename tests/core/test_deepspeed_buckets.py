"""DeepSpeed ZeRO-1/2's contiguous gradient buckets, against the Qwen README's published Q-LoRA memory profile.

DeepSpeedZeroOptimizer.backward (deepspeed/runtime/zero/stage_1_and_2.py) allocates `reduce_bucket_size` elements in the
training dtype before every backward when contiguous_gradients is on, and a second such buffer with overlap_comm — on one
GPU too, and whatever few parameters train. Qwen's finetune_qlora_single_gpu.sh runs DeepSpeed with ds_config_zero2.json
(reduce_bucket_size 2e8, overlap_comm and contiguous_gradients true): 0.75 GiB of fp16 buckets on the one A100.

Role of the rows here: CALIBRATION (roles.lock: the rule was added while these rows were compared); the bytes come from
DeepSpeed's code and the published config, nothing is fitted to the rows.
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.estimate.params import param_counts
from tests.core import accuracy as A
from tests.helpers import evidence_rows

# '| 7B | Q-LoRA | 1 | 1 | 11.5G / … |': memory as published (GB, read as GiB like the other rows of the file), 256 tokens
QWEN_QLORA_256 = {"qwen-1.8b-qlora-s256-mem": 5.8, "qwen-7b-qlora-s256-mem": 11.5, "qwen-14b-qlora-s256-mem": 18.7,
                  "qwen-72b-qlora-s256-mem": 61.4}


@pytest.fixture(scope="module")
def rows():
    return evidence_rows(QWEN_QLORA_256)


@pytest.mark.parametrize("row_id", sorted(QWEN_QLORA_256))
def test_a_deepspeed_zero2_qlora_run_on_one_gpu_counts_its_gradient_buckets(rows, row_id):
    """The short-sequence rows, where the buckets weigh most: with them the estimate is nearer the published figure by
    the buckets' 0.75 GiB, and never above it; without them (the same job read as a plain PEFT run) it is further under."""
    r = rows[row_id]
    assert r.measured.value == QWEN_QLORA_256[row_id]
    assert (r.train.zero_stage, r.train.zero_bucket_elements) == (2, 4e8)
    with_buckets = A.memory_parts(r)[0]
    plain = dataclasses.replace(r, train=dataclasses.replace(r.train, zero_stage=0))
    without = A.memory_parts(plain)[0]
    grads = A.run(r).breakdown.gradients_bytes - A.run(plain).breakdown.gradients_bytes
    # beside the buckets, the engine's 16-bit adapter gradients (2 B) and their fp32 partition (4 B) replace PEFT's
    # fp32 gradients (4 B): 2 B per trained parameter more (tests/core/test_deepspeed_lora_memory.py)
    adapters = param_counts(r.model, r.train).trainable
    assert grads == pytest.approx(4e8 * 2 + 2 * adapters, rel=0.001)
    assert with_buckets > without
    assert with_buckets <= r.measured.bytes
    assert abs(A.memory_error(r)) < abs(A.memory_error(plain))

