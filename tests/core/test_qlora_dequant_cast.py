"""bitsandbytes casts a dequantized 4-bit weight to the compute dtype in every pass where it was quantized from another.

- autograd/_functions.py MatMul4Bit (0.41.0-0.45): forward 'F.dequantize_4bit(B, quant_state).to(A.dtype).t()', backward
  'F.dequantize_4bit(B, ctx.state).to(grad_output.dtype).t()'; functional.dequantize_4bit writes
  'torch.empty(quant_state.shape, dtype=quant_state.dtype, ...)', the dtype the weight was quantized from.
- nn/modules.py Params4bit.cuda, 0.41.0-0.42.0: 'w = self.data.contiguous().half().cuda(device)': always fp16, so a bf16
  run reads the fp16 copy and writes a bf16 one (4 B more per weight per pass, 8.5 B against 4.5).

Published run: ms-swift's benchmark (A100 80GB, torch 2.1.1, bitsandbytes 0.41.3, bf16, Qwen-7B-Chat / 14B-Chat int4
(bnb) LoRA, max_length 2048, batch 1, gradient checkpointing), 'Training Speed (samples/s)': 2.41 and 1.36. Role of the
rows: VALIDATION (the cast was read from bitsandbytes' code, not fitted to them).
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.evidence import load_evidence
from tests.core import accuracy as A

SWIFT_BNB4_SAMPLES_PER_S = {"swift-qwen-7b-qlora-bnb4-s2048": 2.41, "swift-qwen-14b-qlora-bnb4-s2048": 1.36}


@pytest.fixture(scope="module")
def rows():
    return {r.id: r for r in load_evidence() if r.id in SWIFT_BNB4_SAMPLES_PER_S}


@pytest.mark.parametrize("row_id", sorted(SWIFT_BNB4_SAMPLES_PER_S))
def test_bitsandbytes_041_fp16_dequant_is_cast_to_bf16(rows, row_id):
    """Within 1.25x of the published speed with the cast; read as dequantizing straight to bf16 the estimate is faster
    still (the user is promised more than the run gives)."""
    r = rows[row_id]
    assert r.measured.value == SWIFT_BNB4_SAMPLES_PER_S[row_id]
    assert r.train.precision == "bf16" and r.train.qlora_dequant_dtype == "fp16"
    ratio = A.speed_ratio(r)
    assert 0.8 <= ratio <= 1.25, ratio
    no_cast = dataclasses.replace(r, train=dataclasses.replace(r.train, qlora_dequant_dtype="compute"))
    assert A.speed_ratio(no_cast) > ratio * 1.1
