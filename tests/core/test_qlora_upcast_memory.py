"""QLoRA's unquantized layers (embeddings, lm_head, norms): fp32 where PEFT's prepare_model_for_kbit_training upcasts them
(the usual bitsandbytes recipe), 16-bit where the stack skips that step — PEFT itself on GPTQ models ('if not
is_gptq_quantized: # cast all non INT8 parameters to fp32', src/peft/utils/other.py since peft 0.5.0) and ms-swift 1.x,
which never calls it (train.qlora_upcast = false).

Checked against the Qwen README's Q-LoRA profile of Qwen-72B-Chat-Int4 (GPTQ) on one A100 80GB (nvidia-smi, GiB), whose
2.49 B unquantized parameters (wte and lm_head, 152,064 × 8,192 each) are 4.6 GiB in fp16 and 9.3 GiB in fp32.

Role of the rows here: VALIDATION (the reading was taken from PEFT's and swift's code, nothing fitted).
"""

from __future__ import annotations

import dataclasses

import pytest

from gpucheck.evidence import load_evidence
from tests.core import accuracy as A

GIB = 1024**3
QWEN_72B_QLORA = {"qwen-72b-qlora-s256-mem": 61.4, "qwen-72b-qlora-s1024-mem": 62.9, "qwen-72b-qlora-s4096-mem": 68.0}


@pytest.fixture(scope="module")
def rows():
    return {r.id: r for r in load_evidence() if r.id in QWEN_72B_QLORA}


@pytest.mark.parametrize("row_id", sorted(QWEN_72B_QLORA))
def test_gptq_qlora_keeps_its_unquantized_layers_in_fp16(rows, row_id):
    r = rows[row_id]
    assert r.measured.value == QWEN_72B_QLORA[row_id] and not r.train.qlora_upcast
    assert abs(A.memory_error(r)) <= 0.11, A.memory_error(r)
    upcast = dataclasses.replace(r, train=dataclasses.replace(r.train, qlora_upcast=True))
    extra = A.run(upcast).breakdown.weights_bytes - A.run(r).breakdown.weights_bytes
    assert extra == pytest.approx(2 * 152064 * 8192 * 2, rel=0.02)  # wte + lm_head: 2 B more per parameter in fp32
