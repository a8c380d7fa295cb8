"""LoRA dropout: the copy of each adapted linear's input that dropout above 0 makes and keeps for backward.

PEFT's LoRA layer computes `lora_B(lora_A(dropout(x)))` with one dropout module per adapted linear
(peft/tuners/lora/layer.py LoraLayer.update_layer: `nn.Dropout(p=lora_dropout) if lora_dropout > 0.0 else
nn.Identity()`; Linear.forward: `result = result + lora_B(lora_A(dropout(x))) * scaling`); litgpt's LoRALinear
and LoRAQKVLinear do the same (`self.lora_dropout(x) @ self.lora_A.transpose(0, 1) …`). Above 0 the dropout's
output is a new tensor the size of the linear's input, which lora_A keeps for its weight gradient, and CUDA's
native_dropout keeps a 1-byte mask beside it; at 0 the identity hands lora_A the input itself (kept anyway, counted
in [activations]). q, k and v adapted separately on the same normed input make three copies; a fused qkv linear
(GPT-2's c_attn, litgpt's attn) one. With gradient checkpointing only the recomputed layer's copies are alive.
Bytes: resources/factors.toml [lora_dropout].
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.choices import FUSED_QKV_LAYER_CODES
from gpucheck.estimate import moe
from gpucheck.estimate.dispatch import layer_code_name
from gpucheck.records import ModelSpec, TrainSpec


def adapted_inputs(m: ModelSpec, targets: str, f: Mapping[str, Any]) -> list[tuple[int, float, bool]]:
    """Per layer, each distinct input LoRA adapts on `targets`: (adapted linears reading it, its width per token, whether
    another operator keeps it for backward anyway). q, k, v read the normed hidden stream (one linear when the layer fuses
    them); o reads the attention output (heads × head_dim), which SDPA / flash attention keep for their backward and eager
    attention does not; gate and up (fc1) read the normed hidden stream, down (fc2) the ffn-wide product."""
    h = float(m.hidden or 0)
    q_out = float(m.heads or 1) * (m.head_dim or h / (m.heads or 1))
    fused = layer_code_name(m, f) in FUSED_QKV_LAYER_CODES  # the code it names, or its model_type's (GPT-2's c_attn)
    qkv = (1 if fused else (2 if targets == "qv" else 3), h, False)
    o = (1, q_out, not m.eager_attention)
    # a mixture-of-experts layer: every MLP the token runs reads its own (gathered) copy (gpucheck/estimate/moe.py)
    mlp = [(2 if m.gated else 1, h * moe.mlp_calls_per_token(m), False), (1, moe.token_ffn(m), False)]
    return {"qv": [qkv], "attention": [qkv, o], "mlp": mlp, "all-linear": [qkv, o, *mlp]}[targets]


def lora_dropout_layer_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes per token of one transformer layer that LoRA dropout adds to the counted activations: every adapted linear
    keeps its dropped-out input in the activations' dtype (4 B in fp32; 2 B in 16 bits, or under autocast, where lora_A
    keeps its 16-bit cast) and the 1-byte mask, while the input itself, counted in [activations] and kept at dropout 0
    only by lora_A, is freed unless another operator keeps it (attention kernels, a 4-bit base layer). 0 for a full
    fine-tune, dropout 0, or no transformer."""
    if t.method not in ("lora", "qlora") or t.lora_dropout <= 0 or m.arch != "transformer" or not m.hidden:
        return 0.0
    d = f["lora_dropout"]
    copy = d["copy_bytes_fp32"] if t.precision == "fp32" else d["copy_bytes_16bit"]
    # a 4-bit base layer that keeps its input for backward (bitsandbytes' MatMul4Bit, [qlora.kept_input_copies]) keeps it
    base_keeps = t.method == "qlora" and float(f["qlora"]["kept_input_copies"][t.qlora_kernel]) > 0
    return sum(n * (copy + d["mask_bytes"]) * width - (0.0 if kept or base_keeps else copy * width)
               for n, width, kept in adapted_inputs(m, t.lora_targets, f))
