"""VRAM per GPU for one training step: weights, gradients, optimizer state, activations, overhead.

Pure arithmetic over a `Workload`'s `ModelSpec` and a `TrainSpec`; every constant comes from
resources/factors.toml (`load_factors()`), with its source there. Bytes, not GiB, everywhere.

Conventions (say which, as the sources differ):
- Mixed precision (fp16/bf16) is PyTorch autocast as used by the Hugging Face Trainer: fp32 master
  weights plus a 16-bit copy (6 B/param), fp32 gradients (4 B), optimizer state in fp32.
- LoRA: the frozen base in 16-bit (fp32 if precision is fp32); adapters train in fp32.
- QLoRA: linear layers inside the transformer blocks in NF4 (+ quantization constants); the rest
  (embeddings, lm_head, norms) upcast to fp32, as PEFT's `prepare_model_for_kbit_training` does.
- Transformer activations per layer and token are derived from the tensors each layer saves for
  backward (Korthikanti et al. 2022, adapted for LLaMA's RMSNorm + SwiGLU and for SDPA/flash
  attention); logits add b·s·vocab × the bytes the loss keeps.
- CNN/UNet activations come from the workload's `activation_mib` per sample at `ref_image_size`,
  scaled by (image_size / ref_image_size)².
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpucheck.records import ModelSpec, TrainSpec, VramBreakdown

GIB = 1024**3
MIB = 1024**2


@dataclass(frozen=True)
class ParamCounts:
    total: float  # every parameter of the trained network
    trainable: float  # parameters that get gradients and optimizer state
    quantized: float  # parameters stored in 4-bit (QLoRA); 0 otherwise
    aux: float  # frozen helper networks (VAE, text encoder) at 16-bit


def head_dim(m: ModelSpec) -> int:
    if m.head_dim:
        return m.head_dim
    return max(1, (m.hidden or 0) // max(1, m.heads or 1))


def kv_dim(m: ModelSpec) -> int:
    return (m.kv_heads or m.heads or 1) * head_dim(m)


def block_linear_params(m: ModelSpec) -> float:
    """Parameters of the linear layers inside the transformer blocks (what QLoRA quantizes)."""
    if m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    h, kv = m.hidden, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    attn = h * q_out + 2 * h * kv + q_out * h
    f = m.ffn or 4 * h
    mlp = (3 if _gated(m) else 2) * h * f
    return float(m.layers * (attn + mlp))


def _gated(m: ModelSpec) -> bool:
    """SwiGLU-style MLP (three matrices): LLaMA/Mistral/Qwen. GPT-2/BERT have two."""
    # A gated MLP is signalled by ffn not being 4×hidden and by GQA-era configs; the HF config
    # reader sets ffn from intermediate_size. GPT-2/BERT always use ffn = 4·hidden.
    if m.gated_mlp is not None:
        return m.gated_mlp
    return bool(m.ffn) and m.hidden is not None and m.ffn != 4 * m.hidden


def lora_params(m: ModelSpec, t: TrainSpec) -> float:
    """Trainable adapter parameters for LoRA/QLoRA at rank r on the chosen target modules."""
    r = t.lora_rank
    if m.arch != "transformer" or not m.layers or not m.hidden:
        per_rank = m.lora_params_per_rank or 0.0
        return per_rank * r
    h, kv = m.hidden, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    f = m.ffn or 4 * h
    q = r * (h + q_out)
    k = r * (h + kv)
    v = r * (h + kv)
    o = r * (q_out + h)
    if t.lora_targets == "qv":
        per_layer = q + v
    elif t.lora_targets == "attention":
        per_layer = q + k + v + o
    else:  # all-linear
        per_layer = q + k + v + o + (3 if _gated(m) else 2) * r * (h + f)
    return float(m.layers * per_layer)


def param_counts(m: ModelSpec, t: TrainSpec) -> ParamCounts:
    # cached latents / text embeddings: the VAE and text encoders are not on the GPU during training
    aux = 0.0 if getattr(t, "cache_embeddings", False) else m.aux_params
    if t.method == "full":
        return ParamCounts(m.params, m.params, 0.0, aux)
    adapters = lora_params(m, t)
    quantized = block_linear_params(m) if t.method == "qlora" else 0.0
    quantized = min(quantized, m.params)
    return ParamCounts(m.params + adapters, adapters, quantized, aux)


def weights_bytes(m: ModelSpec, t: TrainSpec, f: dict[str, Any], pc: ParamCounts) -> float:
    b = f["bytes_per_param"]
    aux = pc.aux * b["weights_frozen_16bit"]
    if t.method == "full":
        per = b["weights_fp32"] if t.precision == "fp32" else b["weights_mixed"]
        return m.params * per + aux
    adapters = pc.trainable * b["adapter_weights"]
    if t.method == "lora":
        base = b["weights_frozen_fp32"] if t.precision == "fp32" else b["weights_frozen_16bit"]
        return m.params * base + adapters + aux
    # qlora
    q = f["qlora"]
    rest = m.params - pc.quantized
    return pc.quantized * q["bits_per_quantized_param"] / 8 + rest * q["unquantized_bytes_per_param"] \
        + adapters + aux


def gradients_bytes(t: TrainSpec, f: dict[str, Any], pc: ParamCounts) -> float:
    return pc.trainable * f["bytes_per_param"]["grads"]


def optimizer_bytes(t: TrainSpec, f: dict[str, Any], pc: ParamCounts) -> float:
    return pc.trainable * f["bytes_per_param"]["optimizer"][t.optimizer]


def transformer_activation_bytes(m: ModelSpec, t: TrainSpec, f: dict[str, Any]) -> float:
    """Saved activations for one micro-batch through all layers, plus logits, per GPU."""
    a = f["activations"]
    s = t.seq_len or 512
    b = t.batch
    h = m.hidden or 0
    kv = kv_dim(m)
    ffn = m.ffn or 4 * h
    gated = _gated(m)
    fam = a["swiglu"] if gated else a["gelu"]
    per_token = fam["hidden_bytes"] * h + fam["kv_bytes"] * kv + fam["ffn_bytes"] * ffn
    scale = a["fp32_scale"] if t.precision == "fp32" else 1.0
    per_layer = per_token * s * b * scale
    # eager attention (GPT-2/BERT in HF without SDPA) keeps the a·s² score matrices
    if m.eager_attention:
        score_bytes = a["score_bytes_fp32"] if t.precision == "fp32" else a["score_bytes_16bit"]
        per_layer += score_bytes * (m.heads or 1) * s * s * b
    layers = m.layers or 1
    if m.encoder_decoder:
        layers = layers  # layers counts encoder + decoder blocks in the workload file
    if t.grad_checkpointing:
        # every layer keeps its input (2 B or 4 B per element); one layer is recomputed at a time
        keep = (4 if t.precision == "fp32" else 2) * s * b * h
        body = layers * keep + per_layer
    else:
        body = layers * per_layer
    logits = 0.0
    if m.vocab:
        logits = b * s * m.vocab * a["logits_bytes_per_element"]
    return body + logits


def image_activation_bytes(m: ModelSpec, t: TrainSpec, f: dict[str, Any]) -> float:
    a = f["activations"]
    per_sample = (m.activation_mib or 0.0) * MIB
    if m.ref_image_size and t.image_size:
        per_sample *= (t.image_size / m.ref_image_size) ** 2
    if t.precision == "fp32":
        per_sample *= a["fp32_scale"]
    if t.grad_checkpointing:
        per_sample *= a["image_checkpointing_fraction"]
    return per_sample * t.batch


def activation_bytes(m: ModelSpec, t: TrainSpec, f: dict[str, Any]) -> float:
    if m.arch == "transformer":
        return transformer_activation_bytes(m, t, f)
    return image_activation_bytes(m, t, f)


def breakdown(m: ModelSpec, t: TrainSpec, f: dict[str, Any], backend: str,
              gpus: int = 1) -> tuple[VramBreakdown, ParamCounts]:
    """The VRAM a single GPU needs for this job under data parallelism: each GPU holds a full
    replica, unless `t.shard` (FSDP / ZeRO-3) splits weights, gradients and optimizer state over
    `gpus` GPUs (plus one layer's gathered weights in flight).

    `backend` is cuda | rocm | metal | xpu | cpu: it decides the framework overhead.
    """
    pc = param_counts(m, t)
    w = weights_bytes(m, t, f, pc)
    g = gradients_bytes(t, f, pc)
    o = optimizer_bytes(t, f, pc)
    if t.shard and gpus > 1:
        in_flight = w / max(1, m.layers or 1) * 2  # the gathered layer, forward and prefetch
        w, g, o = w / gpus + in_flight, g / gpus, o / gpus
    if t.cpu_offload:
        o = 0.0  # optimizer state lives in host RAM (DeepSpeed ZeRO-Offload style)
    act = activation_bytes(m, t, f)
    ov = f["overhead"]
    allocated = w + g + o + act
    context = ov["context_bytes"].get(backend, 0.0)
    frag = allocated * ov["allocator_fraction"].get(backend, 0.0)
    overhead = context + frag
    return (
        VramBreakdown(
            weights_bytes=int(w),
            gradients_bytes=int(g),
            optimizer_bytes=int(o),
            activations_bytes=int(act),
            overhead_bytes=int(overhead),
        ),
        pc,
    )
