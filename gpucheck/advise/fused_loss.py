"""The ladder's fused-loss rung: Liger Kernel's fused linear cross-entropy in place of the model's output layer and
loss (resources/advice.toml [fused_loss]).

A causal language model's loss over a large vocabulary keeps b·s × vocabulary logits and their fp32 copies
(gpucheck/estimate/logits.py): with Llama 3's 128,256 entries, 2,048 tokens hold about 3.4 GiB. The fused linear
cross-entropy computes the same loss and gradients chunk by chunk and never keeps them, so the rung loses nothing.
It is offered where Liger has a patch for the model's `model_type`, on the backends its Triton kernels run on, to
jobs on the Hugging Face stack (the Trainer / TRL argument `use_liger_kernel` switches it on) whose loss keeps the
logits today.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import loss_kind
from gpucheck.i18n import fmt_number, tr
from gpucheck.records import TrainSpec, Workload

KIND = "fused_linear"
KEEPS_LOGITS = ("full", "full_fp32_output")  # the losses the rung replaces (chunked and fused keep little already)


def offered(workload: Workload, train: TrainSpec, backend: str, compute_capability: float | None) -> bool:
    """Liger patches this model, its kernels run on this GPU, and the job's loss keeps the whole logits."""
    m = workload.model
    if m.arch != "transformer" or not m.vocab or m.encoder_decoder or train.stack != "eager":
        return False
    if m.model_type not in factor("fused_loss", "model_types") or backend not in factor("fused_loss", "backends"):
        return False
    cc = compute_capability
    if backend == "cuda" and cc is not None and cc < float(factor("fused_loss", "min_compute_capability")):
        return False
    return loss_kind(train, load_factors()) in KEEPS_LOGITS


def with_fused_loss(train: TrainSpec) -> TrainSpec:
    return dataclasses.replace(train, cross_entropy=KIND)


def describe(workload: Workload) -> tuple[str, str, dict[str, Any]]:
    """The rung's title, what it costs, and the setting that switches it on (Trainer / TRL argument)."""
    vocab = fmt_number(float(workload.model.vocab or 0))
    return (tr("Use Liger Kernel's fused cross-entropy loss"),
            tr("loses nothing: the same loss and gradients, computed in chunks, so the scores over all {vocab} "
               "tokens of the vocabulary are never kept for the whole batch; needs pip install liger-kernel, "
               "whose Triton kernels run on Linux, in WSL2, or on Windows with the triton-windows package",
               vocab=vocab),
            {"use_liger_kernel": True})
