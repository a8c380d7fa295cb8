"""Saved activations for one micro-batch on one GPU: transformers (with logits), CNNs and U-Nets.

Pure arithmetic over a `Workload`'s `ModelSpec` and a `TrainSpec`; every constant comes from
resources/factors.toml (`gpucheck.estimate.factors.load_factors()`), with its source there. Bytes, not GiB, everywhere.

Conventions (say which, as the sources differ):
- Transformer activations per layer and token are derived from the tensors each layer saves for
  backward (Korthikanti et al. 2022, adapted for LLaMA's RMSNorm + SwiGLU and for SDPA/flash
  attention); logits add b·s·vocab × the bytes the loss keeps, by how the stack writes the loss
  (gpucheck/estimate/logits.py, which also gives the caching allocator's reserve above what is allocated).
- QLoRA: bitsandbytes' 4-bit layers keep their inputs for backward, which frozen 16-bit layers do not
  (train.qlora_kernel).
- CNN/UNet activations come from the workload's `activation_mib` per sample at `ref_image_size`,
  scaled by (image_size / ref_image_size)²; with gradient checkpointing, from `activation_mib_checkpointed` where
  it was counted (the U-Nets: benchmarks/count_unet_activations.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gpucheck.choices import UNSLOTH
from gpucheck.estimate import linear_attention as la
from gpucheck.estimate import moe
from gpucheck.estimate.dispatch import layer_code_name
from gpucheck.estimate.dropout import attention_p
from gpucheck.estimate.factors import image_scale, seq_len_of
from gpucheck.estimate.logits import logits_bytes
from gpucheck.estimate.lora_dropout import lora_dropout_layer_bytes
from gpucheck.estimate.params import block_linear_params, head_dim, kv_dim
from gpucheck.estimate.seq2seq import decoder_activation_bytes
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec

MIB = 1024**2


def transformer_activation_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Saved activations for one micro-batch through all layers, plus logits, per GPU."""
    a = f["activations"]
    s = seq_len_of(t)
    b = t.batch
    h = m.hidden or 0
    kv = kv_dim(m)
    ffn = moe.token_ffn(m)  # a mixture-of-experts layer: the k experts a token runs (gpucheck/estimate/moe.py)
    gated = m.gated
    # Unsloth's LoRA kernels patch gated-MLP decoders when the adapters have no dropout ([activations.unsloth]);
    # with dropout its layers are PEFT's, counted as Hugging Face's
    unsloth = t.stack == UNSLOTH and gated and t.method in ("lora", "qlora") and t.lora_dropout <= 0
    fam = a["unsloth"] if unsloth else a["swiglu"] if gated else a["gelu"]
    kept_4bit = 0.0 if unsloth else qlora_kept_input_bytes(m, t, f)  # no bitsandbytes MatMul4Bit under Unsloth
    per_token = fam["hidden_bytes"] * h + fam["kv_bytes"] * kv + fam["ffn_bytes"] * ffn + kept_4bit \
        + moe.routing_activation_bytes(m, f)
    scale = a["fp32_scale"] if t.precision == "fp32" else 1.0
    per_token += gelu_chain_ffn_bytes(m, t, f) * ffn  # GPT-2's gelu_new in eager PyTorch
    per_layer = per_token * s * b * scale
    # eager attention (GPT-2/BERT in HF without SDPA) keeps the a·s² score matrices
    if m.eager_attention:
        per_layer += eager_score_bytes(m, t, f) * (m.heads or 1) * s * s * b
    per_layer += lora_dropout_layer_bytes(m, t, f) * s * b  # each adapted linear's dropped-out input and mask
    if unsloth:  # the MLP's backward peak beside what the layer keeps (resources/factors.toml [unsloth])
        u = f["unsloth"]
        per_layer += (u["backward_hidden_bytes"] * h + u["backward_ffn_bytes"] * ffn) * s * b
    layers = m.layers or 1
    # Gated DeltaNet layers and gated softmax attention keep other tensors than [activations] counts (on average over
    # the layers, and in the layer that keeps most: the one a checkpointed backward recomputes at its peak)
    mixer_mean, mixer_max = (x * s * b * scale for x in la.mixer_bytes_per_token(m, f, (m.heads or 1) * head_dim(m), kv))
    body = decoder_activation_bytes(m, t, f, per_token)  # encoder-decoder: the decoder over its target tokens
    if t.grad_checkpointing:
        # every layer keeps its input (2 B or 4 B per element); one layer is recomputed at a time
        keep = (4.0 if t.precision == "fp32" else 2.0) * s * b * h
        if not t.checkpoint_reentrant:
            # non-reentrant checkpointing drops only what goes through save_for_backward (saved-tensor hooks); a kernel
            # that keeps its input as a ctx attribute (bitsandbytes' MatMul4Bit: 'ctx.tensors = (A, B)') keeps it in every
            # block (PyTorch docs, FunctionCtx.save_for_backward: tensors saved 'directly on ctx' escape the hooks)
            keep += kept_4bit * s * b
        # Unsloth's checkpoints wait in CPU RAM; the GPU holds the buffers they are copied through ([unsloth])
        held = min(layers, f["unsloth"]["checkpoint_gpu_buffers"]) if t.offloads_checkpoints else layers
        body += held * keep + per_layer + mixer_max
    else:
        body += layers * (per_layer + mixer_mean)
    body += qlora_dequantized_weight_bytes(m, t, f)
    return body + logits_bytes(m, t, f)  # the loss, by how the stack writes it (gpucheck/estimate/logits.py)


def gelu_chain_ffn_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes per token and MLP element that a GELU written as a chain of element-wise operators (GPT-2's gelu_new) keeps
    beyond the fused GELU's, before fp32_scale (resources/factors.toml [activations.gelu_chain]): under autocast its pow
    runs in fp32 and so does the rest of the chain. 0 for other layer codes and stacks other than eager."""
    a = f["activations"]
    chain = a["gelu_chain"]
    if m.gated or t.stack != "eager" or layer_code_name(m, f) not in chain["layer_codes"]:
        return 0.0
    kept = chain["ffn_bytes_autocast"] if t.precision in ("fp16", "bf16") else chain["ffn_bytes"]
    return float(kept - a["gelu"]["ffn_bytes"])


def offloaded_checkpoint_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Host RAM Unsloth's gradient checkpointing fills: one pinned buffer per decoder layer, each a micro-batch of
    hidden states in 16 bits (resources/factors.toml [unsloth])."""
    if not t.offloads_checkpoints:
        return 0.0
    return (m.layers or 1) * seq_len_of(t) * t.batch * (m.hidden or 0) * f["unsloth"]["checkpoint_bytes_per_element"]


def eager_score_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes eager (materialized) attention keeps per attention score for backward (resources/factors.toml
    [activations]): by the dtype the softmax runs in — fp32 under autocast (plus a 16-bit copy for the matmul with V),
    the scores' own 16-bit dtype in pure 16-bit training (no autocast: softmax and dropout keep their input's dtype),
    fp32 in fp32 training — less the dropout mask and dropped-out copy where attention dropout is 0."""
    a = f["activations"]
    # gpt-oss's sinks: softmax(dtype=the scores' dtype), which autocast leaves as asked (its fp32_set_opt_dtype policy
    # sets fp32 only where no dtype is given): kept in 16 bits as in pure 16-bit training
    pure = t.precision in PURE_16BIT or (m.attention_sinks and t.precision != "fp32")
    if pure:
        score_bytes, dropout_bytes = a["score_bytes_pure_16bit"], a["score_dropout_bytes_pure_16bit"]
    else:
        score_bytes = a["score_bytes_fp32"] if t.precision == "fp32" else a["score_bytes_16bit"]
        dropout_bytes = a["score_dropout_bytes"]
    if attention_p(m, f) <= 0:  # dropout at p = 0 is the identity: no mask, no dropped-out copy
        score_bytes -= dropout_bytes
    if m.attention_softcap:  # tanh keeps its output for backward, in the scores' dtype
        score_bytes += a["score_softcap_bytes"] * (a["fp32_scale"] if t.precision == "fp32" else 1.0)
    return float(score_bytes)


def qlora_dequantized_weight_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """QLoRA kernels that rebuild each 4-bit weight in 16 bits and keep it for backward (auto-gptq's QuantLinear;
    resources/factors.toml [qlora.kept_weight_bytes]): the blocks whose activations are alive keep their layers'
    dequantized weights — the one block recomputed under checkpointing, every block without — plus, while the largest
    layer is dequantized, its intermediates beyond that copy ([qlora.dequant_transient_bytes])."""
    if t.method != "qlora" or m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    q = f["qlora"]
    kept = float(q["kept_weight_bytes"][t.qlora_kernel])
    transient = float(q["dequant_transient_bytes"][t.qlora_kernel])
    if not kept and not transient:
        return 0.0
    h, q_out = m.hidden, (m.heads or 1) * head_dim(m)
    largest = h * max(moe.largest_mlp_width(m), float(q_out + 2 * kv_dim(m)))
    blocks = 1 if t.grad_checkpointing else m.layers
    return blocks * block_linear_params(m) / m.layers * kept + largest * max(0.0, transient - kept)


def qlora_kept_input_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """QLoRA: bytes per token and block (16-bit) of the 4-bit layers' inputs that the kernel keeps for backward and a frozen
    16-bit layer would not (resources/factors.toml [qlora.kept_input_copies]): bitsandbytes before 0.43.2 keeps the
    attention input, the output projection's input, the MLP input and the down projection's input; newer bitsandbytes
    and torchao (torchtune) keep none."""
    if t.method != "qlora" or (t.qlora_kernel == "bitsandbytes" and not t.qlora_keeps_input):
        return 0.0  # bitsandbytes 0.43.2 and newer keep only the 4-bit weight (train.qlora_keeps_input)
    copies = float(f["qlora"]["kept_input_copies"][t.qlora_kernel])
    h = m.hidden or 0
    q_out = (m.heads or 1) * head_dim(m)
    # the MLP's input once per MLP the token runs (each routed expert's gathered copy in a MoE layer)
    return copies * 2.0 * (h + h * moe.mlp_calls_per_token(m) + q_out + moe.token_ffn(m))


def image_activation_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    a = f["activations"]
    if t.grad_checkpointing and m.activation_mib_checkpointed is not None:
        per_sample = m.activation_mib_checkpointed * MIB * image_scale(m, t)  # counted for this model
    else:
        per_sample = (m.activation_mib or 0.0) * MIB * image_scale(m, t)
        if t.grad_checkpointing:
            per_sample *= a["image_checkpointing_fraction"]
    if t.precision == "fp32":
        per_sample *= a["fp32_scale"]
    return (per_sample + unet_eager_score_bytes(m, t, f)) * t.batch


def unet_eager_score_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Per sample: the attention scores a U-Net keeps when its attention is eager (diffusers' AttnProcessor /
    CrossAttnProcessor before SDPA, no xformers: get_attention_scores → softmax → bmm with V), every self-attention's
    without checkpointing, the largest one's while a checkpointed block is recomputed. diffusers' U-Net attention has
    no dropout on the probabilities (the processor applies none; to_out's Dropout is p = 0.0), so the bytes per score
    are eager_score_bytes' at p = 0: the fp32 softmax output and its 16-bit copy under autocast, 4 B in fp32. The
    largest layer's backward holds two more score matrices (factors.toml [activations] score_backward_bytes). The
    cross-attention scores (× 77 text tokens, under 2 % of these) are left out."""
    if not (m.eager_attention and m.arch == "unet"):
        return 0.0
    a = f["activations"]
    kept = m.attn_score_elements_max if t.grad_checkpointing else m.attn_score_elements
    p0 = dataclasses.replace(m, attention_dropout=0.0)
    grads = a["score_backward_bytes_pure_16bit" if t.precision in PURE_16BIT else "score_backward_bytes"]
    return image_scale(m, t) ** 2 * (float(kept) * eager_score_bytes(p0, t, f) + m.attn_score_elements_max * grads)


def activation_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    if m.arch == "transformer":
        return transformer_activation_bytes(m, t, f)
    return image_activation_bytes(m, t, f)
