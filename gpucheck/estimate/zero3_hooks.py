"""The host work DeepSpeed ZeRO-3 adds to every micro-batch step, in dispatched-operator equivalents.

ZeRO-3 (deepspeed/runtime/zero/parameter_offload.py, partitioned_param_coordinator.py, partition_parameters.py,
stage3.py) hooks every module: before a module runs, its partitioned weights are gathered (one all-gather per weight
above stage3_param_persistence_threshold, each with its own buffer, views, stream switches and events) and released
after it; two autograd Functions per module call carry the same fetch and release into backward; and every trainable
tensor's gradient hook copies it into the reduce bucket and reduce-scatters it in slices. Checkpointing's recompute runs
the forward hooks again. The counts per module call, per gathered weight and per gradient are read from the code in
resources/factors.toml [zero3_hooks]; each is priced like any dispatched operator (dispatch.launch_us), so it runs beside
the GPU's work like the rest of the host's dispatch (gpucheck/estimate/compute.py: the step is the slower of the two).
A step whose GPU work outlasts its host work pays nothing for it; one micro-batch of a few hundred tokens through a
model of hundreds of weights is paced by it. Transformers only (the module and weight counts are per block).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gpucheck.estimate import seq2seq as s2s
from gpucheck.estimate.dispatch import adapted_linears, linears
from gpucheck.estimate.params import ParamCounts
from gpucheck.estimate.sharding import zero_stage
from gpucheck.records import ModelSpec, TrainSpec


def deepspeed_zero3(t: TrainSpec, gpus: int) -> bool:
    """DeepSpeed's own ZeRO stage 3 (module hooks), not FSDP's full shard (`shard`) or another engine."""
    return zero_stage(t, gpus) == 3 and not t.shard and t.zero_engine == "deepspeed"


def hook_ops(m: ModelSpec, t: TrainSpec, pc: ParamCounts, f: Mapping[str, Any], gpus: int) -> float:
    """Operator equivalents ZeRO-3's hooks dispatch in one micro-batch step (forward, recompute, backward, the
    gradients' reduce-scatter); 0 where DeepSpeed ZeRO-3 does not run or the model is not a transformer."""
    if not deepspeed_zero3(t, gpus) or m.arch != "transformer":
        return 0.0
    z = f["zero3_hooks"]
    layers = m.layers or 1
    decoder = m.decoder_layers if s2s.is_seq2seq(m) else 0
    lin = linears(m)
    cross = int(z["cross_attention_linears"])
    adapted = adapted_linears(m, t) if t.method in ("lora", "qlora") else 0
    lora_calls = float(z["lora_module_calls_per_adapted_linear"]) * adapted
    # module calls: each block's linears and the rest of its modules; a decoder block's cross-attention besides
    calls = layers * (lin + z["block_module_calls_besides_linears"] + lora_calls) \
        + decoder * (lin + cross + z["block_module_calls_besides_linears"] + z["cross_attention_module_calls_besides_linears"]
                     + lora_calls) + z["model_module_calls"]
    # gathered weights: every linear weight (the norms, biases and adapters are below the persistence threshold)
    head = 1 if m.tied_embeddings else 2  # the embedding and, when untied, the output projection
    gathered = layers * lin + decoder * (lin + cross) + head
    passes = 2.0 if t.grad_checkpointing else 1.0  # the recompute gathers and hooks again
    ops = calls * (z["ops_per_module_call_forward"] * passes + z["ops_per_module_call_backward"])
    ops += gathered * z["ops_per_gathered_weight"] * (passes + 1.0)
    # gradients: the trained tensors' hooks and their slices in the reduce-scatter, one flush per bucket
    if adapted:
        trained = 2.0 * adapted * (layers + decoder)
    else:
        trained = layers * (lin + z["norms_per_block"]) + decoder * (lin + cross + z["norms_per_block"] + 1) + head + 1
    per_grad = z["ops_per_gradient"] + z["ops_per_gradient_slice"] * gpus
    bucket = t.zero_bucket_elements or float(f["zero"]["default_bucket_elements"])
    buckets = math.ceil(max(pc.trainable, 1.0) / max(1.0, bucket))
    return ops + trained * per_grad + buckets * z["ops_per_bucket"]
