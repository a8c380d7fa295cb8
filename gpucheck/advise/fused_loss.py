"""The ladder's fused-loss rung: Liger Kernel's fused linear cross-entropy in place of the model's output layer and
loss (resources/advice.toml [fused_loss]), or, where Liger does not run, TRL's chunked loss.

A causal language model's loss over a large vocabulary keeps b·s × vocabulary logits and their fp32 copies
(gpucheck/estimate/logits.py): with Llama 3's 128,256 entries, 2,048 tokens hold about 3.4 GiB. The fused linear
cross-entropy computes the same loss and gradients chunk by chunk and never keeps them, so the rung loses nothing.
It is offered where Liger has a patch for the model's `model_type`, on the backends its Triton kernels run on, to
jobs on the Hugging Face stack (the Trainer / TRL argument `use_liger_kernel` switches it on) whose loss keeps the
logits today. Where it is not offered (a GPU its Triton kernels do not run on, such as Pascal cards or Apple's, or a
model type it does not patch), a job whose recipe is TRL's SFTConfig (packed rows) gets TRL's chunked loss instead
(`loss_type="chunked_nll"`, TRL 1.4 and newer, the default since 1.7): the same loss, 256 tokens at a time in plain
PyTorch, whose peak is two copies of the output layer rather than the logits (resources/factors.toml
[logits.trl_chunked], measured by benchmarks/measure_sft_loss_memory.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.advise.recipes import packs_rows
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.logits import loss_kind, trl_chunk_parts
from gpucheck.i18n import fmt_gib, fmt_number, tr
from gpucheck.records import TrainSpec, Workload

KIND = "fused_linear"
TRL_KIND = "trl_chunked"
KEEPS_LOGITS = ("full", "full_fp32_output")  # the losses TRL's chunked loss replaces (chunked and fused keep little)
# Liger's fused linear cross-entropy also replaces TRL's chunked loss, whose chunks copy the whole output layer
LIGER_REPLACES = (*KEEPS_LOGITS, TRL_KIND)


def _keeps_logits(workload: Workload, train: TrainSpec, kinds: tuple[str, ...] = KEEPS_LOGITS) -> bool:
    """A causal LM on the Hugging Face stack whose loss is one of `kinds`: what the rung's loss replaces."""
    m = workload.model
    if m.arch != "transformer" or not m.vocab or m.encoder_decoder or train.stack != "eager":
        return False
    return loss_kind(train, load_factors()) in kinds


def offered(workload: Workload, train: TrainSpec, backend: str, compute_capability: float | None) -> bool:
    """Liger patches this model, its kernels run on this GPU, and the job's loss keeps the whole logits or copies the
    whole output layer (TRL's chunked loss)."""
    m = workload.model
    if not _keeps_logits(workload, train, LIGER_REPLACES):
        return False
    if m.model_type not in factor("fused_loss", "model_types") or backend not in factor("fused_loss", "backends"):
        return False
    cc = compute_capability
    return not (backend == "cuda" and cc is not None and cc < float(factor("fused_loss", "min_compute_capability")))


def trl_offered(workload: Workload, train: TrainSpec) -> bool:
    """TRL's chunked loss: a causal LM on the Hugging Face stack whose loss keeps the whole logits and whose recipe is
    TRL's SFTConfig (packed rows); it runs on any device."""
    return _keeps_logits(workload, train) and packs_rows(train, workload)


def with_fused_loss(train: TrainSpec) -> TrainSpec:
    return dataclasses.replace(train, cross_entropy=KIND)


def with_trl_chunked_loss(train: TrainSpec) -> TrainSpec:
    return dataclasses.replace(train, cross_entropy=TRL_KIND)


def describe(workload: Workload, train: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    """The rung's title, what it costs, and the setting that switches it on (Trainer / TRL argument)."""
    vocab = fmt_number(float(workload.model.vocab or 0))
    if train.cross_entropy == TRL_KIND:
        copies = fmt_gib(sum(trl_chunk_parts(workload.model, train, load_factors())))
        return (tr("Use TRL's chunked cross-entropy loss"),
                tr("loses nothing: the same loss and gradients, computed 256 tokens at a time, so the scores over all "
                   "{vocab} tokens of the vocabulary are never kept for the whole batch; each chunk copies the output "
                   "layer (about {gib} at the peak) and the step is a little slower; needs TRL 1.4 or newer (its "
                   "default since TRL 1.7)", vocab=vocab, gib=copies),
                {"loss_type": "chunked_nll"})
    return (tr("Use Liger Kernel's fused cross-entropy loss"),
            tr("loses nothing: the same loss and gradients, computed in chunks, so the scores over all {vocab} "
               "tokens of the vocabulary are never kept for the whole batch; needs pip install liger-kernel, "
               "whose Triton kernels run on Linux, in WSL2, or on Windows with the triton-windows package",
               vocab=vocab),
            {"use_liger_kernel": True})
