"""Parameter counts and the bytes of the training state: weights, gradients, optimizer state (for the whole model,
before any sharding: gpucheck/estimate/memory.py places them on the GPUs).

Pure arithmetic over a `Workload`'s `ModelSpec` and a `TrainSpec`; every constant comes from
resources/factors.toml (`gpucheck.estimate.factors.load_factors()`), with its source there. Bytes, not GiB, everywhere.

Conventions (say which, as the sources differ):
- Mixed precision (fp16/bf16) is PyTorch autocast as used by the Hugging Face Trainer: fp32 master
  weights plus a 16-bit copy (6 B/param), fp32 gradients (4 B), optimizer state in fp32.
- Pure 16-bit (bf16-pure, fp16-pure = `model.half()`): weights, gradients and optimizer state in 16 bits, no fp32
  master copy ([pure_bf16], which prices both: the widths are the same).
- LoRA: the frozen base in 16-bit (fp32 if precision is fp32); adapters train in fp32.
- QLoRA: linear layers inside the transformer blocks in NF4 (+ quantization constants); the rest
  (embeddings, lm_head, norms) upcast to fp32, as PEFT's `prepare_model_for_kbit_training` does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.estimate import linear_attention as la
from gpucheck.estimate import moe
from gpucheck.estimate.vae_encode import vae_runs_fp32
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec


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


def _attention_linear_params(m: ModelSpec) -> float:
    """The token mixers' linear layers in all blocks: q, k, v and o in the softmax layers (q twice as wide with an
    output gate), a Gated DeltaNet's projections in the others (gpucheck/estimate/linear_attention.py)."""
    h, kv = m.hidden or 0, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    softmax = float(h * la.q_proj_width(m, q_out) + 2 * h * kv + q_out * h)
    return la.softmax_layers(m) * softmax + m.linear_attn_layers * la.mixer_linear_params(m)


def block_linear_params(m: ModelSpec) -> float:
    """Parameters of the linear layers inside the transformer blocks as stored (what QLoRA quantizes; every expert of
    a mixture-of-experts layer, gpucheck/estimate/moe.py)."""
    if m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    return _attention_linear_params(m) + moe.mlp_params_stored(m)


def active_block_linear_params(m: ModelSpec) -> float:
    """Parameters of the blocks' linear layers a token multiplies with: all of them in a dense model; the experts the
    token is routed to (and the router) in a mixture-of-experts layer. The blocks' matrix FLOPs per token are twice
    this."""
    if m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    return _attention_linear_params(m) + moe.mlp_params_active(m)


def lora_params(m: ModelSpec, t: TrainSpec) -> float:
    """Trainable adapter parameters for LoRA/QLoRA at rank r on the chosen target modules."""
    r = t.lora_rank
    if m.arch != "transformer" or not m.layers or not m.hidden:
        per_rank = m.lora_params_per_rank or 0.0
        return per_rank * r
    h, kv = m.hidden, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    q = r * (h + la.q_proj_width(m, q_out))
    k = r * (h + kv)
    v = r * (h + kv)
    o = r * (q_out + h)
    # q / k / v / o name no module of a Gated DeltaNet layer; an encoder-decoder's decoder blocks hold two attentions
    # (self- and cross-attention), whose projections the same names target (T5's q / v, BART's and Whisper's q_proj /
    # v_proj in self_attn and encoder_attn)
    softmax = la.softmax_layers(m) + 2 * m.decoder_layers
    if t.lora_targets == "qv":
        return float(softmax * (q + v))
    if t.lora_targets == "attention":
        return float(softmax * (q + k + v + o))
    mlp = moe.lora_mlp_params(m, r, all_linear=t.lora_targets == "all-linear")  # every expert's, in a MoE layer
    if m.decoder_layers and m.layers:  # the decoder blocks' MLPs beside the encoder's
        mlp *= (m.layers + m.decoder_layers) / m.layers
    if t.lora_targets == "mlp":
        return mlp
    return float(softmax * (q + k + v + o)) + m.linear_attn_layers * la.mixer_lora_params(m, r) + mlp  # all-linear


def param_counts(m: ModelSpec, t: TrainSpec) -> ParamCounts:
    # cached latents / text embeddings: the VAE and text encoders are not on the GPU during training
    aux = 0.0 if getattr(t, "cache_embeddings", False) else m.aux_params
    if t.method == "full":
        return ParamCounts(m.params, m.params, 0.0, aux)
    adapters = lora_params(m, t)
    quantized = block_linear_params(m) if t.method == "qlora" else 0.0
    quantized = min(quantized, m.params)
    return ParamCounts(m.params + adapters, adapters, quantized, aux)


@dataclass(frozen=True)
class WeightParts:
    """The weights on a GPU, by role (bytes for the whole model, before any sharding)."""

    working: float  # the copy forward/backward read: 16-bit (mixed, pure bf16) or fp32
    master: float  # fp32 master weights kept beside a 16-bit working copy (mixed precision); 0 otherwise
    frozen: float  # LoRA/QLoRA: the frozen base (16-bit, fp32, or NF4 + fp32 rest)
    adapters: float  # LoRA/QLoRA adapters (fp32)
    aux: float  # frozen helper networks (VAE, text encoders) in the dtype they run in (aux_weight_bytes)

    @property
    def total(self) -> float:
        return self.working + self.master + self.frozen + self.adapters + self.aux


def aux_weight_bytes(m: ModelSpec, t: TrainSpec, b: Mapping[str, Any], aux_params: float) -> float:
    """The frozen helper networks on the GPU (bytes): diffusers' and kohya's training scripts move the VAE and text
    encoders to the training's weight_dtype ('weight_dtype = torch.float32' unless mixed precision is fp16 or bf16;
    vae.to(accelerator.device, dtype=weight_dtype), text_encoder.to(..., dtype=weight_dtype)), so an fp32 job keeps
    them in fp32; a 16-bit job whose VAE stays in fp32 (train.vae_fp32: diffusers' SDXL scripts, kohya --no_half_vae)
    keeps the VAE's share (model.aux_vae_params) in fp32 and the rest in 16 bits."""
    if aux_params <= 0:
        return 0.0
    if t.precision == "fp32":
        return aux_params * b["weights_frozen_fp32"]
    vae_fp32 = min(m.aux_vae_params, aux_params) if vae_runs_fp32(t) else 0.0
    return (aux_params - vae_fp32) * b["weights_frozen_16bit"] + vae_fp32 * b["weights_frozen_fp32"]


def weight_parts(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> WeightParts:
    b = f["bytes_per_param"]
    aux = aux_weight_bytes(m, t, b, pc.aux)
    if t.method == "full":
        if t.precision == "fp32":
            return WeightParts(m.params * b["weights_fp32"], 0.0, 0.0, 0.0, aux)
        if t.precision in PURE_16BIT:
            return WeightParts(m.params * f["pure_bf16"]["weights"], 0.0, 0.0, 0.0, aux)
        working = m.params * b["weights_frozen_16bit"]
        return WeightParts(working, m.params * b["weights_mixed"] - working, 0.0, 0.0, aux)
    adapters = pc.trainable * (f["pure_bf16"]["weights"] if t.adapters_16bit else b["adapter_weights"])
    if t.method == "lora":
        base = b["weights_frozen_fp32"] if t.precision == "fp32" else b["weights_frozen_16bit"]
        return WeightParts(0.0, 0.0, m.params * base, adapters, aux)
    q = f["qlora"]
    rest = m.params - pc.quantized
    # the layers bitsandbytes / NF4 leave unquantized (embeddings, lm_head, norms): PEFT's prepare_model_for_kbit_training
    # upcasts them to fp32 for mixed precision; a pure-bf16 recipe (torchtune), or a stack that skips that preparation
    # (train.qlora_upcast = false), keeps them in 16 bits
    upcast = t.precision == "fp32" or (t.upcasts_frozen and t.precision not in PURE_16BIT)
    rest_bytes = q["unquantized_bytes_per_param"] if upcast else q["unquantized_bytes_per_param_pure_bf16"]
    bits = q["bits_per_quantized_param"] if t.qlora_double_quant else q["bits_per_quantized_param_single_quant"]
    frozen = pc.quantized * bits / 8 + rest * rest_bytes
    return WeightParts(0.0, 0.0, frozen, adapters, aux)


def weights_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    return weight_parts(m, t, f, pc).total


def qlora_upcast_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """The weight bytes PEFT's prepare_model_for_kbit_training adds to this QLoRA job: the layers it leaves unquantized
    (embeddings, output layer, norms) in fp32 instead of 16 bits (train.qlora_upcast); 0 where it changes nothing."""
    if t.method != "qlora":
        return 0.0
    up, kept = (dataclasses.replace(t, qlora_upcast=v) for v in (True, False))
    return weights_bytes(m, up, f, param_counts(m, up)) - weights_bytes(m, kept, f, param_counts(m, kept))


def gradients_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    if t.trains_16bit:
        return pc.trainable * f["pure_bf16"]["grads"]
    return pc.trainable * f["bytes_per_param"]["grads"]


def optimizer_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    if t.trains_16bit:
        return pc.trainable * f["pure_bf16"]["optimizer"][t.optimizer]
    return pc.trainable * f["bytes_per_param"]["optimizer"][t.optimizer]


def cpu_adam_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    """DeepSpeedCPUAdam's state under ZeRO-Offload: fp32 momentum and variance (AdamW's bytes per parameter)."""
    return optimizer_bytes(dataclasses.replace(t, optimizer="adamw"), f, pc)
