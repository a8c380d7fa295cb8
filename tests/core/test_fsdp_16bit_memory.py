"""FSDP over a model already cast to 16-bit, with the fp32 master weights kept by the optimizer, against InternEvo's
published GPU memory table (doc/en/train_performance.md, 'GPU Memory Usage Test', tag v0.2.1dev20231121).

InternEvo wraps its bf16 model in FSDP without MixedPrecision (internlm/train/training_internlm.py wrap_FSDP_model),
so the flat parameters and gradients are bf16 shards; FSDPadaptOptimizer (internlm/solver/optimizer/fsdp_optimizer.py)
holds 'param.data.float()' copies as its master weights and makes fp32 copies of every gradient of the shard before
torch.optim.AdamW (foreach, torch 2.0.1: two temporaries) steps: 2 + 4 + 2 + 8 B per parameter of the shard, + 4 + 4 + 4
at the step (train.fsdp_16bit_params, optimizer_impl = foreach_torch20). PyTorch FSDP's MixedPrecision instead shards the fp32 parameters (4 + 4 + 8).

Role of the rows here: CALIBRATION (roles.lock: the layout was added while these rows were compared); the byte
counts are read from InternEvo's code, nothing is fitted to the rows.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.core import accuracy as A
from tests.helpers import evidence_rows

# '| 7B | 3 | -1 | 1 | 1 |True | 72 |' …: model, GPUs, zero1, tp, pp, fsdp, GPU Memory (GB) as published
INTERNEVO_FSDP = {"internevo-7b-fsdp-3gpu-a800-mem": 72, "internevo-7b-fsdp-4gpu-a800-mem": 56,
                  "internevo-7b-fsdp-5gpu-a800-mem": 49, "internevo-7b-fsdp-6gpu-a800-mem": 39,
                  "internevo-20b-fsdp-8gpu-a800-mem": 78, "internevo-20b-fsdp-16gpu-a800-mem": 40}


@pytest.fixture(scope="module")
def rows():
    return evidence_rows(INTERNEVO_FSDP)


@pytest.mark.parametrize("row_id", sorted(INTERNEVO_FSDP))
def test_fsdp_over_a_bf16_model_counts_the_optimizers_fp32_copies(rows, row_id):
    """Every row of the table within 10 % under and 5 % over the published figure, with the torch 2.0.1 the test ran
    (its foreach AdamW keeps two state-sized temporaries at the step: optimizer_impl = foreach_torch20); read as PyTorch
    FSDP's own mixed precision (fp32 shards), or as torch 2.1's in-place foreach step, the same jobs would be estimated
    at least 10 points further under it."""
    r = rows[row_id]
    assert r.measured.value == INTERNEVO_FSDP[row_id] and r.train.fsdp_16bit_params
    assert r.train.optimizer_impl == "foreach_torch20"
    err = A.memory_error(r)
    assert -0.10 <= err <= 0.05, err
    plain = dataclasses.replace(r, train=dataclasses.replace(r.train, fsdp_16bit_params=False))
    torch21 = dataclasses.replace(r, train=dataclasses.replace(r.train, optimizer_impl="foreach"))
    assert A.memory_error(plain) < err - 0.10
    assert A.memory_error(torch21) < err - 0.10


def test_more_gpus_need_less_memory_each(rows):
    per_gpu = [A.run(rows[i]).peak_vram_bytes for i in ("internevo-7b-fsdp-3gpu-a800-mem",
                                                         "internevo-7b-fsdp-4gpu-a800-mem",
                                                         "internevo-7b-fsdp-5gpu-a800-mem",
                                                         "internevo-7b-fsdp-6gpu-a800-mem")]
    assert per_gpu == sorted(per_gpu, reverse=True)
