"""The optimizer step's memory traffic by how the step runs (factors.toml [bandwidth.optimizer_bytes_per_trainable_param]),
checked against a published run a user would notice: a full fine-tune whose step is mostly the optimizer's.

Role of the published row: VALIDATION. The bytes per parameter are counted operator by operator from torch/optim
(adamw.py, sgd.py) and the fused kernels, not fitted to it; the row was compared after they were set.
"""

from __future__ import annotations

import dataclasses

from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.optimizer_traffic import step_bytes_per_param, stepped_params
from gpucheck.records import TrainSpec
from tests.core import accuracy as A
from tests.helpers import evidence_row


def test_qwen3_4b_full_fine_tune_on_m3_max_matches_palin_bench() -> None:
    """Qwen3-4B-Base, fp32, batch 1 × 30 tokens on an M3 Max: 0.63 it/s (1.59 s a step) for 4.0 B parameters, where
    the forward and backward are 0.72 TFLOP. torch.optim.AdamW runs its per-tensor loop on MPS (no foreach kernels
    there), about 80 B of traffic per parameter, not the 28 B of a fused update."""
    row = evidence_row("palin-qwen3-4b-full-fp32-m3-max")
    assert "0.63" in row.quote
    assert 1 / 1.35 <= A.speed_ratio(row) <= 1.35, row.quote


def test_pure_16bit_moves_half_the_bytes_of_every_parameter_wide_tensor() -> None:
    """Units: pure bf16 keeps weights, gradients and moments in 2 bytes (torch/optim/adam.py: zeros_like(p)), so every
    pass over a parameter-wide tensor moves half the bytes; bitsandbytes' 8-bit states stay 1 byte."""
    f = load_factors()
    mixed = TrainSpec(method="full", precision="bf16")
    pure = dataclasses.replace(mixed, precision="bf16-pure")
    for impl in ("foreach", "foreach_torch20", "single", "fused"):
        for opt in ("adamw", "sgd"):
            a, b = (dataclasses.replace(t, optimizer=opt, optimizer_impl=impl) for t in (mixed, pure))
            assert step_bytes_per_param(b, f) == step_bytes_per_param(a, f) / 2
        a, b = (dataclasses.replace(t, optimizer="adamw-8bit", optimizer_impl=impl) for t in (mixed, pure))
        assert step_bytes_per_param(a, f) - step_bytes_per_param(b, f) == 3 * 2  # grad read, param read + write
    foreach = dataclasses.replace(mixed, optimizer_impl="foreach")
    fused = dataclasses.replace(mixed, optimizer_impl="fused")
    assert step_bytes_per_param(foreach, f) > 2.5 * step_bytes_per_param(fused, f)


def test_each_gpu_steps_only_its_partition_under_zero_and_fsdp() -> None:
    """ZeRO stages 1-3 and FSDP partition the optimizer state: each process updates its 1/N (arXiv 1910.02054 §5);
    ZeRO-Offload steps on the CPU."""
    t = TrainSpec(method="full", precision="bf16")
    assert stepped_params(8e9, t, 8) == 8e9
    assert stepped_params(8e9, dataclasses.replace(t, zero_stage=1), 8) == 1e9
    assert stepped_params(8e9, dataclasses.replace(t, shard=True), 8) == 1e9
    assert stepped_params(8e9, dataclasses.replace(t, shard=True), 1) == 8e9
    assert stepped_params(8e9, dataclasses.replace(t, zero_stage=2, cpu_offload=True), 8) == 0.0
