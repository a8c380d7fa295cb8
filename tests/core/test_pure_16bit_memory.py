"""Memory of pure 16-bit training (the model cast to bf16, no autocast), against published measurements.

Eager attention: Sebastian Raschka's LLMs-from-scratch, ch05/10_llm-training-speed/README.md (GPT-2 124M, pure bf16,
batch 8 × 1,024, one A100, 'Reserved memory' = torch.cuda.memory_reserved()): step 6 runs the book's own attention
(q·kᵀ scores, softmax, dropout 0.1 on the weights) at 11.5645 GiB, step 7 the same model with FlashAttention (SDPA) at
5.9004 GiB. Without autocast the softmax runs in bf16 and keeps a 2-byte output; dropout keeps its 1-byte mask and the
2-byte dropped-out weights: 5 B per score, not autocast's 11 B (fp32 softmax, its 16-bit copy, the mask, fp32
dropped-out scores). The byte counts are read from PyTorch's code (resources/factors.toml [activations]).

Role of the rows here: VALIDATION (the counts were set from PyTorch, not from the rows).
"""

from __future__ import annotations

from tests.core import accuracy as A
from tests.helpers import evidence_rows

GIB = 1024**3
EAGER, FLASH = "rasbt-gpt2-124m-step6-native-ln-gelu-mem", "rasbt-gpt2-124m-step7-flash-mem"


def _estimated_reserved_bytes(r) -> float:
    return float(A.run(r).reserved_bytes)


def test_pure_bf16_eager_attention_costs_what_the_published_run_shows_over_flash_attention():
    rows = evidence_rows((EAGER, FLASH))
    eager, flash = rows[EAGER], rows[FLASH]
    assert (eager.measured.value, flash.measured.value) == (11.5645, 5.9004)
    measured_gap = (eager.measured.value - flash.measured.value) * GIB  # the score matrices, all else equal
    estimated_gap = _estimated_reserved_bytes(eager) - _estimated_reserved_bytes(flash)
    assert abs(estimated_gap / measured_gap - 1.0) <= 0.15, estimated_gap / measured_gap
    assert abs(A.memory_error(eager)) <= 0.25, A.memory_error(eager)

