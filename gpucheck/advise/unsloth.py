"""The ladder's Unsloth rung: the same LoRA / QLoRA run through Unsloth (resources/advice.toml [unsloth]).

Unsloth's own LoRA autograd functions keep fewer tensors per layer than the Hugging Face layers, its gradient
checkpointing keeps each layer's checkpoint in CPU RAM, it leaves the frozen layers 16-bit, and its loss keeps no
logits (gpucheck/estimate/activations.py, resources/factors.toml [unsloth]): on an 8 GB card an 8B model's QLoRA fits.
It trains the same adapters on the same data; its fast kernels need LoRA dropout 0, which the rung sets. Offered for
the model types Unsloth's fast decoder path patches, on the GPUs its Triton kernels run on, to LoRA / QLoRA jobs on
the Hugging Face stack whose GPUs each hold a replica (one GPU, or several with DDP): sharding the model over several
GPUs (DeepSpeed ZeRO, FSDP) takes the job back to the Hugging Face stack (advise/ladder.py _cand_sharding).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gpucheck.advise.data import factor
from gpucheck.choices import UNSLOTH
from gpucheck.estimate.activations import offloaded_checkpoint_bytes
from gpucheck.estimate.factors import load_factors
from gpucheck.i18n import fmt_gib, tr
from gpucheck.records import TrainSpec, Workload


def offered(workload: Workload, train: TrainSpec, backend: str, compute_capability: float | None) -> bool:
    """Unsloth patches this model, its kernels run on this GPU, and the job is a LoRA / QLoRA on the Hugging Face stack."""
    m = workload.model
    if m.arch != "transformer" or m.encoder_decoder or not m.gated or train.stack != "eager":
        return False
    if train.method not in ("lora", "qlora") or train.zero_stage or train.shard or train.cpu_offload:
        return False  # Unsloth trains a replica per GPU (DDP), not a model sharded by DeepSpeed ZeRO or FSDP
    if m.model_type not in factor("unsloth", "model_types") or backend not in factor("unsloth", "backends"):
        return False
    cc = compute_capability
    return not (backend == "cuda" and cc is not None and cc < float(factor("unsloth", "min_compute_capability")))


def with_unsloth(train: TrainSpec) -> TrainSpec:
    """Unsloth's stack, with its own fused cross-entropy in place of the job's loss (factors.toml [logits] stack_default)."""
    return dataclasses.replace(train, stack=UNSLOTH, lora_dropout=0.0, cross_entropy="")


def describe(workload: Workload, train: TrainSpec) -> tuple[str, str, dict[str, Any]]:
    """The rung's title, what it costs, and the setting the recipe reads."""
    ram = offloaded_checkpoint_bytes(workload.model, train, load_factors())
    if train.upcasts_frozen:  # the job's stack casts the unquantized layers to fp32 (PEFT's preparation); Unsloth does not
        cost = tr("loses nothing: the same adapters trained on the same data through Unsloth's own kernels, with LoRA "
                  "dropout 0 (which they need); the loss keeps no logits and the frozen layers stay 16-bit; "
                  "needs pip install unsloth")
    else:
        cost = tr("loses nothing: the same adapters trained on the same data through Unsloth's own kernels, with LoRA "
                  "dropout 0 (which they need); the loss keeps no logits; needs pip install unsloth")
    if ram:
        cost += tr("; each layer's checkpoint waits in CPU RAM (about {ram} more)", ram=fmt_gib(ram))
    return tr("Train with Unsloth"), cost, {"unsloth": True}

