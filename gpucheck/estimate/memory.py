"""VRAM per GPU for one training step: weights, gradients, optimizer state, activations, overhead.

Pure arithmetic over a `Workload`'s `ModelSpec` and a `TrainSpec`; every constant comes from
resources/factors.toml (`gpucheck.estimate.factors.load_factors()`), with its source there. Bytes, not GiB, everywhere.

Conventions (say which, as the sources differ):
- Mixed precision (fp16/bf16) is PyTorch autocast as used by the Hugging Face Trainer: fp32 master
  weights plus a 16-bit copy (6 B/param), fp32 gradients (4 B), optimizer state in fp32.
- Pure 16-bit (bf16-pure, fp16-pure = `model.half()`): weights, gradients and optimizer state in 16 bits, no fp32
  master copy ([pure_bf16], which prices both: the widths are the same).
- LoRA: the frozen base in 16-bit (fp32 if precision is fp32); adapters train in fp32.
- QLoRA: linear layers inside the transformer blocks in NF4 (+ quantization constants); the rest
  (embeddings, lm_head, norms) upcast to fp32, as PEFT's `prepare_model_for_kbit_training` does; bitsandbytes' 4-bit
  layers keep their inputs for backward, which frozen 16-bit layers do not (train.qlora_kernel).
- Transformer activations per layer and token are derived from the tensors each layer saves for
  backward (Korthikanti et al. 2022, adapted for LLaMA's RMSNorm + SwiGLU and for SDPA/flash
  attention); logits add b·s·vocab × the bytes the loss keeps, by how the stack writes the loss
  (gpucheck/estimate/logits.py, which also gives the caching allocator's reserve above what is allocated).
- CNN/UNet activations come from the workload's `activation_mib` per sample at `ref_image_size`,
  scaled by (image_size / ref_image_size)²; with gradient checkpointing, from `activation_mib_checkpointed` where
  it was counted (the U-Nets: benchmarks/count_unet_activations.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpucheck.choices import UNSLOTH
from gpucheck.estimate import moe
from gpucheck.estimate.dropout import attention_p
from gpucheck.estimate.factors import image_scale, seq_len_of
from gpucheck.estimate.logits import allocator_slack_bytes, logits_bytes
from gpucheck.estimate.lora_dropout import lora_dropout_layer_bytes
from gpucheck.estimate.loss_memory import loss_side_bytes
from gpucheck.estimate.optimizer_traffic import step_impl
from gpucheck.estimate.seq2seq import decoder_activation_bytes
from gpucheck.estimate.sharding import (
    deepspeed_16bit_adapters,
    deepspeed_16bit_grads,
    deepspeed_zero12,
    frozen_weight_grads,
    fsdp_16bit_master,
    reduces_every_micro_batch,
    unsharded_accumulation_grads,
    zero_stage,
)
from gpucheck.estimate.vae_encode import vae_encode_bytes, vae_runs_fp32
from gpucheck.records import PURE_16BIT, ModelSpec, TrainSpec, VramBreakdown

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


def _attention_linear_params(m: ModelSpec) -> float:
    h, kv = m.hidden or 0, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    return float(h * q_out + 2 * h * kv + q_out * h)


def block_linear_params(m: ModelSpec) -> float:
    """Parameters of the linear layers inside the transformer blocks as stored (what QLoRA quantizes; every expert of
    a mixture-of-experts layer, gpucheck/estimate/moe.py)."""
    if m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    return m.layers * _attention_linear_params(m) + moe.mlp_params_stored(m)


def active_block_linear_params(m: ModelSpec) -> float:
    """Parameters of the blocks' linear layers a token multiplies with: all of them in a dense model; the experts the
    token is routed to (and the router) in a mixture-of-experts layer. The blocks' matrix FLOPs per token are twice
    this."""
    if m.arch != "transformer" or not m.layers or not m.hidden:
        return 0.0
    return m.layers * _attention_linear_params(m) + moe.mlp_params_active(m)


def lora_params(m: ModelSpec, t: TrainSpec) -> float:
    """Trainable adapter parameters for LoRA/QLoRA at rank r on the chosen target modules."""
    r = t.lora_rank
    if m.arch != "transformer" or not m.layers or not m.hidden:
        per_rank = m.lora_params_per_rank or 0.0
        return per_rank * r
    h, kv = m.hidden, kv_dim(m)
    q_out = (m.heads or 1) * head_dim(m)
    q = r * (h + q_out)
    k = r * (h + kv)
    v = r * (h + kv)
    o = r * (q_out + h)
    if t.lora_targets == "qv":
        return float(m.layers * (q + v))
    if t.lora_targets == "attention":
        return float(m.layers * (q + k + v + o))
    mlp = moe.lora_mlp_params(m, r, all_linear=t.lora_targets == "all-linear")  # every expert's, in a MoE layer
    if t.lora_targets == "mlp":
        return mlp
    return float(m.layers * (q + k + v + o)) + mlp  # all-linear


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
    adapters = pc.trainable * b["adapter_weights"]
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


def gradients_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    if t.precision in PURE_16BIT and t.method == "full":
        return pc.trainable * f["pure_bf16"]["grads"]
    return pc.trainable * f["bytes_per_param"]["grads"]


def optimizer_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    if t.precision in PURE_16BIT and t.method == "full":
        return pc.trainable * f["pure_bf16"]["optimizer"][t.optimizer]
    return pc.trainable * f["bytes_per_param"]["optimizer"][t.optimizer]


def cpu_adam_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts) -> float:
    """DeepSpeedCPUAdam's state under ZeRO-Offload: fp32 momentum and variance (AdamW's bytes per parameter)."""
    return optimizer_bytes(dataclasses.replace(t, optimizer="adamw"), f, pc)


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
    per_layer = per_token * s * b * scale
    # eager attention (GPT-2/BERT in HF without SDPA) keeps the a·s² score matrices
    if m.eager_attention:
        per_layer += eager_score_bytes(m, t, f) * (m.heads or 1) * s * s * b
    per_layer += lora_dropout_layer_bytes(m, t, f) * s * b  # each adapted linear's dropped-out input and mask
    if unsloth:  # the MLP's backward peak beside what the layer keeps (resources/factors.toml [unsloth])
        u = f["unsloth"]
        per_layer += (u["backward_hidden_bytes"] * h + u["backward_ffn_bytes"] * ffn) * s * b
    layers = m.layers or 1
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
        body += held * keep + per_layer
    else:
        body += layers * per_layer
    body += qlora_dequantized_weight_bytes(m, t, f)
    return body + logits_bytes(m, t, f)  # the loss, by how the stack writes it (gpucheck/estimate/logits.py)


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
    16-bit layer would not (resources/factors.toml [qlora.kept_input_copies]): bitsandbytes keeps the attention input, the
    output projection's input, the MLP input and the down projection's input; torchao (torchtune) keeps none."""
    if t.method != "qlora":
        return 0.0
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


@dataclass(frozen=True)
class Placement:
    """Where the training state lives for one GPU of `gpus` (bytes per GPU), and what leaves the GPU."""

    weights: float
    gradients: float
    optimizer: float
    offloaded: float  # bytes moved to CPU RAM (whole model: ZeRO-Offload keeps one copy per node)
    gathered: float  # 16-bit weights gathered for the layers in flight (sharded weights)
    comm_bytes_per_micro_step: float  # per GPU, weights gathered over the link per micro-batch
    comm_bytes_per_step: float  # per GPU, gradient all-reduce / reduce-scatter per optimizer step
    stage: int = 0  # the ZeRO stage in effect (3: FSDP full shard / ZeRO-3)
    step_grad_copies: float = 0.0  # fp32 copies of the gradients the optimizer makes for its step (fsdp_16bit_params)
    comm_bytes_after_step: float = 0.0  # per GPU, DeepSpeed ZeRO-1/2's all-gather of the updated 16-bit partitions
    reduce_every_micro_step: bool = False  # the gradient exchange runs in every micro-batch (sharding.reduces_every_micro_batch)

    def comm_bytes_per_optimizer_step(self, grad_accum: int) -> float:
        """Per GPU over the link per optimizer step: every micro-batch's gathers, the gradient exchange (in every
        micro-batch or in the last), and the parameters gathered after the step."""
        k = max(1, grad_accum)
        return self.comm_bytes_per_step * (k if self.reduce_every_micro_step else 1) + self.comm_bytes_after_step \
            + self.comm_bytes_per_micro_step * k


def placement(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts, gpus: int) -> Placement:
    """Per-GPU memory of the training state under ZeRO / FSDP sharding and CPU offload, as the engines do
    it (Rajbhandari et al. 2020, ZeRO, arXiv 1910.02054 §5: stage 1 partitions the optimizer state
    together with the fp32 master weights, 12Ψ/N with AdamW; stage 2 adds the gradients; stage 3 the
    parameters. PyTorch FSDP keeps the fp32 shard (4 B/param) and all-gathers a 16-bit copy of the
    layers in flight; Ren et al. 2021, ZeRO-Offload, arXiv 2101.06840: fp32 master weights, gradients
    and optimizer state move to CPU RAM, the GPU keeps the 16-bit weights)."""
    wp = weight_parts(m, t, f, pc)
    g = gradients_bytes(t, f, pc)
    o = optimizer_bytes(t, f, pc)
    n = max(1, gpus)
    stage = zero_stage(t, n)
    grad_bytes = comm_gradient_bytes(t, f, pc, stage)
    fp32_partition = 0.0
    if deepspeed_16bit_grads(t, stage):
        # DeepSpeed ZeRO-1/2 casts the module to 16-bit: backward writes 16-bit gradients (2 B/param), and the
        # optimizer step converts this GPU's partition to fp32 (single_partition_of_fp32_groups' .grad: 4 B/param
        # over N) — estimate_zero2_model_states_mem_needs: 4Ψ + 16Ψ/N on the GPU
        z = f["zero"]
        g = pc.trainable * z["grads_bytes_16bit"]
        fp32_partition = pc.trainable * z["fp32_grad_partition_bytes"]
    if deepspeed_16bit_adapters(t):
        # the same engine over LoRA: 16-bit adapters and gradients, the fp32 master and gradient partition beside them
        z, b = f["zero"], f["bytes_per_param"]
        wp = dataclasses.replace(wp, adapters=pc.trainable * b["weights_frozen_16bit"],
                                 master=pc.trainable * b["weights_fp32"])
        g = pc.trainable * z["grads_bytes_16bit"]
        fp32_partition = pc.trainable * z["fp32_grad_partition_bytes"]
    step_copies = 0.0
    if fsdp_16bit_master(t, stage):
        # FSDP over a 16-bit model (InternEvo's FSDPadaptOptimizer, internlm/solver/optimizer/fsdp_optimizer.py): the
        # flat parameters and their gradients are 16-bit shards; the optimizer keeps 'fp32_tensor_param = [param.data.float()
        # ...]' as its master weights and at the step makes 'grad_fp32 = [p.grad.to(dtype) ...]' for the whole shard
        g = pc.trainable * f["zero"]["grads_bytes_16bit"]
        step_copies = pc.trainable * f["zero"]["fp32_grad_partition_bytes"] / n
    layers = max(1, m.layers or 1)
    master, working, frozen = wp.master, wp.working, wp.frozen
    offloaded = 0.0
    if t.cpu_offload and t.method == "full":
        # ZeRO-Offload steps with DeepSpeed's own CPU Adam (DeepSpeedCPUAdam, fp32 momentum + variance):
        # an 8-bit GPU optimizer does not run there, so CPU RAM holds 4 (master) + 4 (fp32 gradients) +
        # 8 (Adam) = 16 B/param — DeepSpeed's estimate_zero2_model_states_mem_needs (cpu_offload: 16 B/param)
        cpu_grads = pc.trainable * f["bytes_per_param"]["grads"]  # the fp32 gradient buffer in pinned host memory
        offloaded = master + cpu_grads + (cpu_adam_bytes(t, f, pc) if t.optimizer == "adamw-8bit" else o)
        master, g, o = 0.0, 0.0, 0.0
    elif t.cpu_offload:
        offloaded = o
        o = 0.0
    gathered = 0.0
    comm_micro = 0.0
    if stage >= 1:
        master, o = master / n, o / n
    if stage >= 2:
        g = g / n
    if fp32_partition and not t.cpu_offload:
        g += fp32_partition / n
    if frozen_weight_grads(t, n):
        # FSDP's FlatParameter with use_orig_params=True: a unit mixing frozen and trained weights keeps a gradient
        # for all of them ("the gradient memory usage will be higher than expected, namely equivalent to not freezing
        # those parameters": PyTorch FSDP API docs), unsharded while micro-batches accumulate under no_sync() ("FSDP
        # will accumulate the full model gradients (instead of gradient shards)": FSDP.no_sync docs)
        every = m.params * training_dtype_grad_bytes(t, f)
        g += every if t.grad_accum > 1 else every / n  # one micro-batch per step: reduce-scattered to a shard
    elif unsharded_accumulation_grads(t, n):
        # full fine-tuning accumulated under FSDP.no_sync(): "FSDP will accumulate the full model gradients (instead of
        # gradient shards) until the eventual sync", in the parameters' (training) dtype, on every GPU; the sharded
        # gradient is reduce-scattered from them at the synchronizing micro-batch (PyTorch FSDP docs,
        # FullyShardedDataParallel.no_sync)
        g = max(g, pc.trainable * training_dtype_grad_bytes(t, f))
    if stage >= 3:
        # forward/backward read a 16-bit copy (as stored for NF4, bnb_4bit_quant_storage), gathered per layer
        gathered_model = working + frozen
        # FSDP mixed precision: the sharded parameter is the fp32 copy (already split with the master
        # weights above); no separate 16-bit shard is kept
        working = 0.0 if master and not step_copies else working / n
        frozen = frozen / n
        if t.cpu_offload and t.method != "full":
            # FSDP CPU offload (offload_params): the frozen shards live in CPU RAM between uses, as
            # Answer.AI's FSDP + QLoRA trains a 70B model on two 24 GB GPUs
            offloaded += frozen * n
            frozen = 0.0
        gathered = gathered_model / layers * 2  # the layer in flight and the one prefetched
        passes = 3.0 if t.grad_checkpointing else 2.0  # forward, (recompute,) backward
        comm_micro = passes * (n - 1) / n * gathered_model
    weights = working + master + frozen + wp.adapters / (n if stage >= 3 else 1) + wp.aux + gathered
    # stages 0-2 move 2Ψ per GPU and step (all-reduce, or reduce-scatter of the gradients + all-gather of the updated
    # parameters: ZeRO paper §7.2.1); stage 3 reduce-scatters the gradients and gathers the weights per micro-batch
    comm_step = (1.0 if stage >= 3 else 2.0) * (n - 1) / n * grad_bytes if n > 1 else 0.0
    # DeepSpeed ZeRO-1/2 all-reduces its gradient buckets (stage_1_and_2.py average_tensor with the default
    # use_multi_rank_bucket_allreduce: allreduce_and_scatter -> dist.all_reduce, 2(n-1)/n) and, after the step, gathers
    # every GPU's updated partition of the 16-bit (training-dtype) weights: all_gather_dp_groups, (n-1)/n
    after = (n - 1) / n * grad_bytes if n > 1 and deepspeed_zero12(t, stage) else 0.0
    return Placement(weights, g, o, offloaded, gathered, comm_micro, comm_step, stage, step_copies, after,
                     reduces_every_micro_batch(t, stage))


def training_dtype_grad_bytes(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """Bytes of one gradient element held in the training dtype (an engine's buckets, FSDP's unsharded gradients):
    fp32 in fp32 training, 16-bit otherwise."""
    return float(f["bytes_per_param"]["grads"] if t.precision == "fp32" else f["zero"]["grads_bytes_16bit"])


def deepspeed_bucket_bytes(t: TrainSpec, f: Mapping[str, Any]) -> float:
    """DeepSpeed ZeRO-1/2's contiguous gradient buckets (`reduce_bucket_size` elements, two with overlap_comm) in the
    training dtype, allocated at every backward on every GPU, one GPU and LoRA included (resources/factors.toml [zero])."""
    if t.zero_stage not in (1, 2) or t.shard:
        return 0.0
    elements = t.zero_bucket_elements or float(f["zero"]["default_bucket_elements"])
    return elements * training_dtype_grad_bytes(t, f)


def ema_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any]) -> float:
    """An exponential-moving-average copy of a fully trained model (train.ema), in the model's own parameter dtype
    (resources/factors.toml [ema])."""
    if not t.ema or t.method != "full":
        return 0.0
    per_param = f["pure_bf16"]["weights"] if t.precision in PURE_16BIT else f["bytes_per_param"]["weights_fp32"]
    return float(f["ema"]["weight_copies"]) * m.params * per_param


def ddp_bucket_bytes(t: TrainSpec, f: Mapping[str, Any], pl: Placement, gpus: int) -> float:
    """PyTorch DDP's gradient buckets: with a replica on each of several GPUs (no ZeRO, no FSDP, no offload), the
    reducer's flat bucket tensors hold a second copy of the replicated gradients for the whole run, unless the job makes
    the gradients views of them (train.ddp_bucket_copy; resources/factors.toml [ddp])."""
    if gpus <= 1 or pl.stage != 0 or t.shard or t.cpu_offload or not t.ddp_bucket_copy:
        return 0.0
    return float(f["ddp"]["bucket_gradient_copies"]) * pl.gradients


def comm_gradient_bytes(t: TrainSpec, f: Mapping[str, Any], pc: ParamCounts, stage: int) -> float:
    """Gradient bytes the GPUs exchange per optimizer step: 16-bit where the engine reduces in the training dtype
    (DeepSpeed ZeRO with fp16/bf16; FSDP's MixedPrecision reduces in param_dtype unless reduce_dtype says
    otherwise), the gradients' own dtype otherwise (DDP under autocast: fp32 parameters, fp32 gradients)."""
    if t.method == "full" and t.precision in ("fp16", "bf16") and stage >= 1:
        return pc.trainable * f["zero"]["grads_bytes_16bit"]
    return gradients_bytes(t, f, pc)


def optimizer_step_bytes(t: TrainSpec, f: Mapping[str, Any], pl: Placement) -> float:
    """The optimizer step's own temporary on this GPU (resources/factors.toml [optimizer_step]): torch's foreach AdamW
    allocates the square root of every exp_avg_sq at once (half of AdamW's state, in its dtype) while the weights,
    gradients and state are all alive; a per-tensor loop or a fused kernel (the Hugging Face Trainer's default on
    PyTorch >= 2.8) needs no such list. Only where torch's own optimizer steps the state on this GPU: one GPU or data
    parallel, and FSDP (`shard`), whose optimizer steps the local shard — not DeepSpeed's fused or CPU Adam under ZeRO or
    offload. Plus the fp32 gradient copies an optimizer over 16-bit FSDP shards makes for its step (`step_grad_copies`)."""
    o = f["optimizer_step"]
    impl = step_impl(t, f)
    torch_steps = (pl.stage == 0 or (pl.stage >= 3 and t.shard)) and not t.cpu_offload
    buffers = float(o["temporary_buffers"][impl])
    if not buffers or not torch_steps:
        return pl.step_grad_copies
    return pl.step_grad_copies + buffers * pl.optimizer * float(o["temporary_state_fraction"][t.optimizer])


def breakdown(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], backend: str,
              gpus: int = 1, varying_shapes: bool = True) -> tuple[VramBreakdown, ParamCounts]:
    """The VRAM a single GPU needs for this job under data parallelism: each GPU holds a full
    replica, unless `t.zero_stage` / `t.shard` split state over `gpus` GPUs (see `placement`).

    `backend` is cuda | rocm | metal | xpu | cpu: it decides the framework overhead. `varying_shapes`: the
    micro-batches change shape from step to step (samples padded to the longest in the batch), so the caching
    allocator's cached blocks stop fitting (gpucheck/estimate/logits.py).
    """
    pc = param_counts(m, t)
    pl = placement(m, t, f, pc, gpus)
    # a detector's assigner and loss (YOLOv8's task-aligned assigner, YOLOv5-seg's masks) peak while the activations
    # are kept
    act = activation_bytes(m, t, f) + loss_side_bytes(m, t, f)
    # the VAE encode of a job without cached latents runs before the U-Net keeps anything: the larger of the two
    act = max(act, vae_encode_bytes(m, t, pc.aux))
    # the step runs after backward has freed the activations: the peak is the larger of the two, the step's excess
    # counted with the optimizer
    optimizer = pl.optimizer + max(0.0, optimizer_step_bytes(t, f, pl) - act)
    gradients = pl.gradients + deepspeed_bucket_bytes(t, f) + ddp_bucket_bytes(t, f, pl, gpus)
    weights = pl.weights + ema_bytes(m, t, f)
    allocated = weights + gradients + optimizer + act
    overhead = context_bytes(f, backend) + allocator_slack_bytes(m, t, f, backend, allocated, varying_shapes)
    return (
        VramBreakdown(
            weights_bytes=int(weights),
            gradients_bytes=int(gradients),
            optimizer_bytes=int(optimizer),
            activations_bytes=int(act),
            overhead_bytes=int(overhead),
        ),
        pc,
    )


def context_bytes(f: Mapping[str, Any], backend: str) -> float:
    """The CUDA/ROCm context and libraries: nvidia-smi counts them, torch.cuda.memory_* does not."""
    return float(f["overhead"]["context_bytes"][backend])

