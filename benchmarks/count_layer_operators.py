"""Count the ATen operators one transformer layer dispatches in forward and backward, per model lineage.

Run with the user's Python (torch + transformers), on CPU:

    /work/main/.venv-trial/bin/python benchmarks/count_layer_operators.py > benchmarks/data/layer-operators.json

Each lineage is built twice, with 1 and with 2 layers (tiny widths: the count does not depend on them), and one
training step's forward (with the loss) and backward are run under a TorchDispatchMode that counts every ATen
operator that reaches a kernel (views, reshapes, dtype casts, allocations included: each costs host time even without a
GPU kernel). The 2-layer count minus the 1-layer count is one layer: embedding, final norm, head and loss cancel.
Full fine-tuning (every weight trainable), bf16 weights, dropout 0 (dropout is priced apart in gpucheck), no autocast.
`backward_frozen_weights`: the same backward with every weight of the layers frozen (only activation gradients, as
under LoRA without its adapters).

Also counted with torch.profiler (record_shapes off): `profiler_top` = the outermost aten:: calls (the operators
Python code calls, before a composite operator such as aten::linear splits into t + addmm), `profiler_all` = every
aten:: event, nested ones included.

Also `peft_lora_adapter`: the operators one PEFT LoRA adapter adds per adapted linear (forward, backward), in the same
unit, for comparison with factors.toml [dispatch.kernels] adapter_forward / adapter_backward (counted there at the
Python level).

Lineages:
- hf-llama-sdpa / hf-llama-eager: transformers LlamaForCausalLM, attn_implementation sdpa / eager
- hf-gpt2 / hf-gpt2-eager: transformers GPT2LMHeadModel, attn_implementation sdpa / eager (eager: the attention the
  GPT-2 code ran before transformers added SDPA to it, the scores q·kᵀ materialized, masked and soft-maxed)
- hf-bert / hf-bert-eager: transformers BertForMaskedLM, attn_implementation sdpa / eager (likewise, BERT before its
  SDPA path)
- hf-gemma3 / hf-gemma3-eager: transformers Gemma3ForCausalLM from a Gemma3TextConfig (the text decoder of Gemma 3,
  4B and up: Gemma3DecoderLayer's input, post-attention, pre- and post-feedforward RMSNorms, q_norm and k_norm, the
  gated tanh-GELU MLP), sdpa / eager
- hf-gemma2-eager: transformers Gemma2ForCausalLM (Gemma2DecoderLayer: four RMSNorms, the gated tanh-GELU MLP, soft-capped
  attention logits); eager only, as transformers runs it ('_supports_sdpa = False')
- hf-qwen3 / hf-qwen3-eager: transformers Qwen3ForCausalLM (Qwen3DecoderLayer: the Llama layer with q_norm and k_norm,
  an RMSNorm over each head of q and k), sdpa / eager
- hf-distilbert / hf-distilbert-eager: transformers DistilBertForMaskedLM (its TransformerBlock: q_lin, k_lin,
  v_lin, out_lin, sa_layer_norm, lin1, GELU, lin2, output_layer_norm), sdpa / eager
- hf-vit / hf-vit-eager: transformers ViTForImageClassification (ViTLayer: pre-LayerNorm, query / key / value /
  output.dense, LayerNorm, intermediate GELU, output), sdpa / eager
- hf-whisper / hf-whisper-eager: transformers WhisperForConditionalGeneration, one ENCODER layer (the model built with
  1 and 2 encoder layers, one decoder layer each); its decoder layer is counted apart (`whisper_decoder_layer`: the
  same with 1 and 2 decoder layers), so that decoder − encoder checks factors.toml [seq2seq] cross_attention_operators
- qwen1-torch: Qwen-1's remote code (Qwen/Qwen-7B modeling_qwen.py, QWenBlock) as it runs without flash-attn's
  kernels: its Python RMSNorm and rotary (t.float(), einops rearrange, unbind, cat, type_as) and, on torch 2, SDPA with
  the causal mask it builds in every layer (torch.tril(torch.ones(...)).view(...)); reimplemented here line for line
  (the remote code is not importable offline)
- qwen1-flash: the same block where flash-attn is installed and the tensors are on CUDA (the Qwen README's and
  ms-swift's setup): RMSNorm → flash_attn.ops.rms_norm, rotary → flash_attn's apply_rotary_emb_func, attention →
  flash_attn_func (batch 1); each fused call is stood in for by the allocations, views and launches read from
  flash-attn's sources (FLASH_ATTENTION, FLASH_ROTARY, FLASH_RMSNORM below). Qwen's own Dockerfiles
  build all three (flash-attention v1.0.8 `pip install . && pip install csrc/layer_norm && pip install csrc/rotary`)
- qwen1-flash-pynorm: flash attention and flash-attn's rotary (in the pip package from 2.1.1 on: the Qwen README's
  '# If the version of flash-attn is higher than 2.1.1, the following is not needed. # pip install csrc/rotary'),
  without the optional csrc/layer_norm build: Qwen's Python RMSNorm (ms-swift's runs: pip flash_attn 2.3.4)
- litgpt-llama: Lightning-AI/lit-gpt model.py of October 2023 (commit 8641822, the resource tables' version):
  Block with RMSNorm, CausalSelfAttention with one fused qkv Linear (view, permute, split, reshape), apply_rope
  (slice, cat, neg, mul, add, type_as), SDPA is_causal, LLaMAMLP; reimplemented line for line
- litgpt-neox: the same file's parallel-residual block (phi-1.5, StableLM-Alpha): shared LayerNorm, partial rotary,
  GptNeoxMLP (fc, gelu, proj)
- hf-moe-grouped: transformers Qwen3MoeForCausalLM (sdpa; 8 experts, 2 a token), experts_implementation grouped_mm,
  the default (integrations/moe.py grouped_mm_experts_forward: router, sort, one gather, two grouped GEMMs, weighting,
  un-permute, sum over k); its operators do not grow with the experts (on CUDA below compute capability 8.0 the
  grouped GEMM falls back to a loop of torch.mm calls, one per hit expert: not counted here)
- torchvision-vit: torchvision.models.vision_transformer's EncoderBlock (vit_b_16 and its kin): LayerNorm,
  nn.MultiheadAttention(batch_first=True) called with need_weights=False (in training: F.multi_head_attention_forward,
  one packed in_proj, SDPA, out_proj), LayerNorm, MLPBlock (Linear, GELU, Dropout, Linear, Dropout); the frame
  (patch convolution, class token, position embedding, head) cancels in the difference as the LM frames do
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

HIDDEN, HEADS, FFN, VOCAB, SEQ, BATCH = 64, 4, 172, 128, 16, 2
MOE_EXPERTS = 8  # hf-moe-grouped: experts of the tiny MoE layer (2 a token); its operators do not depend on them
# bf16 weights, as the published runs train (bf16-true, --bf16 without autocast casts of the weights): the Python
# RMSNorms' and rotaries' fp32 upcasts and casts back are operators only when the model is 16-bit
DTYPE = torch.bfloat16


class CountOps(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.ops: Counter[str] = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[str(func.overloadpacket.__name__)] += 1
        return func(*args, **(kwargs or {}))


# -- Qwen-1 (Qwen/Qwen-7B modeling_qwen.py), reimplemented ------------------------------------------------------------


# operator-equivalents of one fused extension call (allocations, views and kernel launches; a launch counts as one),
# (forward, backward), read from the sources the Qwen-1 runs installed:
# flash attention — csrc/flash_attn/flash_api.cpp mha_fwd: out, softmax_lse, rng_state = 3 torch::empty + 1 launch;
#   flash_attn_interface.py backward: dq, dk, dv = 3 torch.empty_like, mha_bwd's softmax_d and dq_accum (2), its three
#   launches (dot(dO, O), the backward kernel, dq's conversion) and the three `dq[..., :dout.shape[-1]]` slices
FLASH_ATTENTION = (4, 11)
# flash-attn's rotary (flash_attn/layers/rotary.py ApplyRotaryEmb over ops/triton/rotary.py apply_rotary): the output's
#   torch.empty_like and the Triton launch; backward the same plus `do = do.clone()` (non-interleaved, not in place)
FLASH_ROTARY = (2, 3)
# csrc/layer_norm RMSNorm (flash_attn/ops/layer_norm.py DropoutAddLayerNormFn, is_rms_norm): x0.view(-1, hidden),
#   dropout_add_ln_fwd's z, mu and rsigma allocations and its launch, zmat.view and the saved xmat.view = 7; backward
#   dz.view, dropout_add_ln_bwd's dx0, dgamma and dgamma_part, its two launches (backward, dgamma's finalize), dx0's view
FLASH_RMSNORM = (7, 8)


class FusedStandIn(torch.autograd.Function):
    """One fused extension call dispatching `ops` = (forward, backward) operator-equivalents: forward allocates the
    output and writes it (2) plus placeholder allocations; backward allocates each input's gradient, writes the
    first (1) plus placeholders."""

    @staticmethod
    def forward(ctx, ops, *inputs):
        ctx.likes, ctx.backward_ops = [(t.shape, t.dtype) for t in inputs], ops[1]
        for _ in range(ops[0] - 2):
            torch.empty(0)
        return torch.empty_like(inputs[0]).copy_(inputs[0])

    @staticmethod
    def backward(ctx, g):
        grads = [torch.empty(shape, dtype=dtype) for shape, dtype in ctx.likes]
        grads[0].copy_(g)
        for _ in range(ctx.backward_ops - len(grads) - 1):
            torch.empty(0)
        return (None, *grads)


class QwenRMSNorm(nn.Module):
    def __init__(self, dim: int, fused: bool, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps, self.fused = eps, fused
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        if self.fused:  # rms_norm(x, self.weight, self.eps)
            return FusedStandIn.apply(FLASH_RMSNORM, x, self.weight)
        output = self._norm(x.float()).type_as(x)
        return output * self.weight

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


def _qwen_rotate_half(x):
    x = x.reshape(*x.shape[:-1], 2, x.shape[-1] // 2)  # einops rearrange "... (j d) -> ... j d", j=2
    x1, x2 = x.unbind(dim=-2)
    return torch.cat((-x2, x1), dim=-1)


def _qwen_apply_rotary(t, freqs, fused: bool):
    rot_dim = freqs[0].shape[-1]
    cos, sin = freqs
    t_float = t.float()
    if fused:  # apply_rotary_emb_func(t_float, cos, sin).type_as(t), cos/sin squeezed and sliced first
        cos = cos.squeeze(0).squeeze(1)[:, : rot_dim // 2]
        sin = sin.squeeze(0).squeeze(1)[:, : rot_dim // 2]
        return FusedStandIn.apply(FLASH_ROTARY, t_float).type_as(t)
    t_rot, t_pass = t_float[..., :rot_dim], t_float[..., rot_dim:]
    t_rot = (t_rot * cos) + (_qwen_rotate_half(t_rot) * sin)
    return torch.cat((t_rot, t_pass), dim=-1).type_as(t)


class QwenBlock(nn.Module):
    def __init__(self, fused: bool, fused_norm: bool) -> None:
        super().__init__()
        self.fused, self.heads, self.head_dim = fused, HEADS, HIDDEN // HEADS
        self.ln_1, self.ln_2 = QwenRMSNorm(HIDDEN, fused_norm), QwenRMSNorm(HIDDEN, fused_norm)
        self.c_attn = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.c_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.w1 = nn.Linear(HIDDEN, FFN // 2, bias=False)
        self.w2 = nn.Linear(HIDDEN, FFN // 2, bias=False)
        self.mlp_c_proj = nn.Linear(FFN // 2, HIDDEN, bias=False)

    def attn(self, hidden_states, rotary):
        mixed_x_layer = self.c_attn(hidden_states)
        query, key, value = mixed_x_layer.split(HIDDEN, dim=2)
        query = query.view(query.size()[:-1] + (self.heads, self.head_dim))
        key = key.view(key.size()[:-1] + (self.heads, self.head_dim))
        value = value.view(value.size()[:-1] + (self.heads, self.head_dim))
        cur_len = query.shape[1]
        pos = [i[:, -cur_len:, :, :] for i in rotary]
        query = _qwen_apply_rotary(query, pos, self.fused)
        key = _qwen_apply_rotary(key, pos, self.fused)
        if self.fused:  # core_attention_flash: flash_attn_func(q, k, v, 0, causal=True) at batch 1
            attn_output = FusedStandIn.apply(FLASH_ATTENTION, query, key, value)
        else:
            key_size = key.size(1)
            causal_mask = torch.tril(torch.ones((key_size, key_size), dtype=torch.bool)).view(1, 1, key_size, key_size)
            query, key, value = query.permute(0, 2, 1, 3), key.permute(0, 2, 1, 3), value.permute(0, 2, 1, 3)
            attn_output = F.scaled_dot_product_attention(query, key, value, attn_mask=causal_mask).transpose(1, 2)
        context_layer = attn_output.contiguous()
        context_layer = context_layer.view(context_layer.size()[:-2] + (HIDDEN,))
        return self.c_proj(context_layer)

    def forward(self, hidden_states, rotary):
        layernorm_output = self.ln_1(hidden_states)
        attn_output = self.attn(layernorm_output, rotary)
        layernorm_input = attn_output + hidden_states
        layernorm_output = self.ln_2(layernorm_input)
        a1 = self.w1(layernorm_output)
        a2 = self.w2(layernorm_output)
        mlp_output = self.mlp_c_proj(a1 * F.silu(a2))
        return layernorm_input + mlp_output


# -- lit-gpt (Lightning-AI/lit-gpt lit_gpt/model.py, October 2023), reimplemented -------------------------------------


def _litgpt_apply_rope(x, cos, sin):
    head_size = x.size(-1)
    x1 = x[..., : head_size // 2]
    x2 = x[..., head_size // 2:]
    rotated = torch.cat((-x2, x1), dim=-1)
    roped = (x * cos) + (rotated * sin)
    return roped.type_as(x)


class LitRMSNorm(nn.Module):
    def __init__(self, size: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(size)), eps

    def forward(self, x):
        dtype = x.dtype
        x = x.float()
        norm_x = torch.mean(x * x, dim=-1, keepdim=True)
        x_normed = x * torch.rsqrt(norm_x + self.eps)
        return (self.weight * x_normed).to(dtype=dtype)


class LitBlock(nn.Module):
    def __init__(self, neox: bool) -> None:
        super().__init__()
        self.neox, self.head_size = neox, HIDDEN // HEADS
        self.rope_n_elem = self.head_size // 4 if neox else self.head_size  # StableLM-Alpha rotary_percentage 0.25
        self.norm_1 = nn.LayerNorm(HIDDEN) if neox else LitRMSNorm(HIDDEN)
        self.norm_2 = None if neox else LitRMSNorm(HIDDEN)  # shared_attention_norm (phi-1.5) in the NeoX block
        self.attn = nn.Linear(HIDDEN, 3 * HIDDEN, bias=neox)
        self.proj = nn.Linear(HIDDEN, HIDDEN, bias=neox)
        if neox:
            self.fc, self.mlp_proj = nn.Linear(HIDDEN, 4 * HIDDEN), nn.Linear(4 * HIDDEN, HIDDEN)
        else:
            self.fc_1, self.fc_2 = nn.Linear(HIDDEN, FFN, bias=False), nn.Linear(HIDDEN, FFN, bias=False)
            self.mlp_proj = nn.Linear(FFN, HIDDEN, bias=False)

    def self_attention(self, x, cos, sin):
        B, T, C = x.size()
        qkv = self.attn(x)
        q_per_kv, groups = 1, HEADS
        qkv = qkv.view(B, T, groups, q_per_kv + 2, self.head_size)
        qkv = qkv.permute(0, 2, 3, 1, 4)
        q, k, v = qkv.split((q_per_kv, 1, 1), dim=2)
        q = q.reshape(B, -1, T, self.head_size)
        k = k.reshape(B, -1, T, self.head_size)
        v = v.reshape(B, -1, T, self.head_size)
        q_roped = _litgpt_apply_rope(q[..., : self.rope_n_elem], cos, sin)
        k_roped = _litgpt_apply_rope(k[..., : self.rope_n_elem], cos, sin)
        q = torch.cat((q_roped, q[..., self.rope_n_elem:]), dim=-1)
        k = torch.cat((k_roped, k[..., self.rope_n_elem:]), dim=-1)
        scale = 1.0 / math.sqrt(self.head_size)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, scale=scale, is_causal=True)
        y = y.transpose(1, 2).reshape(B, T, C)
        return self.proj(y)

    def mlp(self, x):
        if self.neox:
            return self.mlp_proj(F.gelu(self.fc(x)))
        return self.mlp_proj(F.silu(self.fc_1(x)) * self.fc_2(x))

    def forward(self, x, cos, sin):
        n_1 = self.norm_1(x)
        h = self.self_attention(n_1, cos, sin)
        if self.neox:
            return self.mlp(n_1) + h + x
        x = h + x
        return self.mlp(self.norm_2(x)) + x


class TinyLM(nn.Module):
    """Embedding, the blocks, a final norm, the head and the causal-LM loss: the frame around a reimplemented block."""

    def __init__(self, make_block, layers: int, kind: str) -> None:
        super().__init__()
        self.kind = kind
        self.wte = nn.Embedding(VOCAB, HIDDEN)
        self.h = nn.ModuleList(make_block() for _ in range(layers))
        self.ln_f = nn.LayerNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)
        head = HIDDEN // HEADS
        inv_freq = 1.0 / (10000 ** (torch.arange(0, head, 2).float() / head))
        freqs = torch.outer(torch.arange(SEQ).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos(), persistent=False)
        self.register_buffer("sin", emb.sin(), persistent=False)

    def forward(self, input_ids, labels):
        x = self.wte(input_ids)
        for block in self.h:
            if self.kind == "qwen":
                x = block(x, [self.cos[None, :, None, :], self.sin[None, :, None, :]])
            else:
                n = block.rope_n_elem
                x = block(x, self.cos[:, :n], self.sin[:, :n])
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, VOCAB), labels.view(-1))


# -- the lineages ------------------------------------------------------------------------------------------------------


def _decoder_shape(layers: int) -> dict[str, int]:
    """The tiny shape every Llama-style decoder lineage is built at (the count does not depend on the widths)."""
    return dict(hidden_size=HIDDEN, num_attention_heads=HEADS, num_key_value_heads=HEADS, head_dim=HIDDEN // HEADS,
                intermediate_size=FFN, num_hidden_layers=layers, vocab_size=VOCAB, max_position_embeddings=SEQ * 4)


# Llama-style decoders: (lineage prefix, config class, model class, config keys beyond the shape)
DECODERS = (
    ("hf-llama", "LlamaConfig", "LlamaForCausalLM", {}),
    # Gemma 3's text decoder (Gemma3DecoderLayer: four RMSNorms around attention and MLP, q and k RMSNorms, a
    # tanh-GELU gated MLP); its sliding window longer than the sequence, so every layer is one shape
    ("hf-gemma3", "Gemma3TextConfig", "Gemma3ForCausalLM", {"sliding_window": SEQ * 2}),
    # Gemma 2 (Gemma2DecoderLayer: four RMSNorms, a gated tanh-GELU MLP, attention logits soft-capped): transformers
    # runs it with eager attention only (no SDPA path), so only that lineage is counted
    ("hf-gemma2", "Gemma2Config", "Gemma2ForCausalLM", {"sliding_window": SEQ * 2}),
    # Qwen3's decoder (Qwen3DecoderLayer: Llama's layer with q_norm and k_norm, RMSNorms over each head)
    ("hf-qwen3", "Qwen3Config", "Qwen3ForCausalLM", {}),
)


def _hf(kind: str, layers: int, impl: str) -> nn.Module:
    import transformers as tf

    for prefix, config, model, extra in DECODERS:
        if kind.startswith(prefix):
            cfg = getattr(tf, config)(**_decoder_shape(layers), **extra)
            return getattr(tf, model)._from_config(cfg, attn_implementation=impl)
    if kind.startswith("hf-moe"):
        # Qwen3-MoE (transformers' MoE layers share its shape: router, experts as 3D weights, grouped GEMMs):
        # 8 experts, 2 a token; experts_implementation grouped_mm, the default
        cfg = tf.Qwen3MoeConfig(**_decoder_shape(layers), moe_intermediate_size=176,  # grouped_mm: strides of 16 B
                                num_experts=MOE_EXPERTS, num_experts_per_tok=2)
        return tf.Qwen3MoeForCausalLM._from_config(cfg, attn_implementation="sdpa", experts_implementation="grouped_mm")
    if kind.startswith("hf-distilbert"):
        cfg = tf.DistilBertConfig(dim=HIDDEN, n_heads=HEADS, hidden_dim=4 * HIDDEN, n_layers=layers, vocab_size=VOCAB,
                                  dropout=0.0, attention_dropout=0.0, qa_dropout=0.0, seq_classif_dropout=0.0)
        return tf.DistilBertForMaskedLM._from_config(cfg, attn_implementation=impl)
    if kind.startswith("hf-gpt2"):
        cfg = tf.GPT2Config(n_embd=HIDDEN, n_head=HEADS, n_layer=layers, vocab_size=VOCAB, n_positions=SEQ * 4,
                            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
        return tf.GPT2LMHeadModel._from_config(cfg, attn_implementation=impl)
    cfg = tf.BertConfig(hidden_size=HIDDEN, num_attention_heads=HEADS, intermediate_size=4 * HIDDEN,
                        num_hidden_layers=layers, vocab_size=VOCAB, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0)
    return tf.BertForMaskedLM._from_config(cfg, attn_implementation=impl)


class TorchvisionViT(nn.Module):
    """torchvision's VisionTransformer at tiny widths with a classification loss: the frame around its EncoderBlocks.
    `wte` is the patch convolution, the input layer left trainable in the frozen-weights count."""

    def __init__(self, layers: int) -> None:
        super().__init__()
        from torchvision.models.vision_transformer import VisionTransformer

        self.vit = VisionTransformer(image_size=32, patch_size=8, num_layers=layers, num_heads=HEADS, hidden_dim=HIDDEN,
                                     mlp_dim=4 * HIDDEN, num_classes=VOCAB, dropout=0.0, attention_dropout=0.0)
        self.wte = self.vit.conv_proj
        self.register_buffer("images", torch.randn(BATCH, 3, 32, 32), persistent=False)

    def forward(self, input_ids, labels):
        return F.cross_entropy(self.vit(self.images), labels[:, 0])


class HFViT(nn.Module):
    """transformers' ViTForImageClassification at tiny widths, its pixels a buffer: the frame around its ViTLayers."""

    def __init__(self, layers: int, impl: str) -> None:
        super().__init__()
        import transformers as tf

        cfg = tf.ViTConfig(hidden_size=HIDDEN, num_hidden_layers=layers, num_attention_heads=HEADS,
                           intermediate_size=4 * HIDDEN, image_size=32, patch_size=8, num_labels=VOCAB,
                           hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
        self.vit = tf.ViTForImageClassification._from_config(cfg, attn_implementation=impl)
        self.wte = self.vit.vit.embeddings.patch_embeddings.projection
        self.register_buffer("images", torch.randn(BATCH, 3, 32, 32), persistent=False)

    def forward(self, input_ids, labels):
        return F.cross_entropy(self.vit(pixel_values=self.images.to(self.wte.weight.dtype)).logits.float(), labels[:, 0])


class HFWhisper(nn.Module):
    """transformers' WhisperForConditionalGeneration at tiny widths with `encoder` and `decoder` layers, its log-Mel
    input a buffer; `wte` is the encoder's first convolution (left trainable in the frozen-weights count)."""

    def __init__(self, encoder: int, decoder: int, impl: str) -> None:
        super().__init__()
        import transformers as tf

        cfg = tf.WhisperConfig(d_model=HIDDEN, encoder_layers=encoder, decoder_layers=decoder,
                               encoder_attention_heads=HEADS, decoder_attention_heads=HEADS,
                               encoder_ffn_dim=4 * HIDDEN, decoder_ffn_dim=4 * HIDDEN, num_mel_bins=8,
                               max_source_positions=SEQ, max_target_positions=SEQ * 4, vocab_size=VOCAB,
                               dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, pad_token_id=0,
                               bos_token_id=1, eos_token_id=2, decoder_start_token_id=3)
        self.model = tf.WhisperForConditionalGeneration._from_config(cfg, attn_implementation=impl)
        self.wte = self.model.model.encoder.conv1
        self.register_buffer("features", torch.randn(BATCH, 8, 2 * SEQ), persistent=False)

    def forward(self, input_ids, labels):
        feats = self.features.to(self.wte.weight.dtype)
        return self.model(input_features=feats, labels=labels).loss


def build(kind: str, layers: int) -> nn.Module:
    if kind == "torchvision-vit":
        return TorchvisionViT(layers)
    impl = "eager" if kind.endswith("eager") else "sdpa"
    if kind.startswith("hf-vit"):
        return HFViT(layers, impl)
    if kind.startswith("hf-whisper"):
        return HFWhisper(layers, 1, impl) if "decoder" not in kind else HFWhisper(1, layers, impl)
    if kind.startswith("hf-"):
        return _hf(kind, layers, impl)
    if kind.startswith("qwen1"):
        fused = kind != "qwen1-torch"
        return TinyLM(lambda: QwenBlock(fused=fused, fused_norm=kind == "qwen1-flash"), layers, "qwen")
    return TinyLM(lambda: LitBlock(neox=kind.endswith("neox")), layers, "litgpt")


def _loss(model: nn.Module, ids, labels):
    if isinstance(model, (TinyLM, TorchvisionViT, HFViT, HFWhisper)):
        return model(ids, labels)
    return model(input_ids=ids, labels=labels).loss


def _count_step(model: Any, ids: Any, labels: Any) -> tuple[CountOps, CountOps]:
    """One warm-up step (caches such as rotary tables and masks built once), then the operators of one forward and
    of its backward, counted apart."""
    _loss(model, ids, labels).backward()
    model.zero_grad(set_to_none=True)
    fwd_mode, bwd_mode = CountOps(), CountOps()
    with fwd_mode:
        loss = _loss(model, ids, labels)
    with bwd_mode:
        loss.backward()
    return fwd_mode, bwd_mode


def count(kind: str, layers: int) -> dict[str, int]:
    torch.manual_seed(0)
    model = build(kind, layers).to(DTYPE).train()
    ids = torch.randint(0, VOCAB, (BATCH, SEQ))
    labels = ids.clone()
    fwd_mode, bwd_mode = _count_step(model, ids, labels)
    model.zero_grad(set_to_none=True)
    frozen_mode = CountOps()  # every weight frozen but the input embedding's: backward computes activation gradients
    embedding = model.get_input_embeddings() if hasattr(model, "get_input_embeddings") else model.wte
    for p in model.parameters():
        p.requires_grad_(False)
    embedding.weight.requires_grad_(True)
    loss = _loss(model, ids, labels)
    with frozen_mode:
        loss.backward()
    for p in model.parameters():
        p.requires_grad_(True)
    model.zero_grad(set_to_none=True)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=False) as prof:
        loss = _loss(model, ids, labels)
    top, every = _profiler_counts(prof)
    return {"forward": sum(fwd_mode.ops.values()), "backward": sum(bwd_mode.ops.values()),
            "backward_frozen_weights": sum(frozen_mode.ops.values()),
            "profiler_top_forward": top, "profiler_all_forward": every,
            "forward_ops": dict(fwd_mode.ops), "backward_ops": dict(bwd_mode.ops)}


def _profiler_counts(prof) -> tuple[int, int]:
    top = every = 0
    for ev in prof.events():
        if not ev.name.startswith("aten::"):
            continue
        every += 1
        parent = ev.cpu_parent
        while parent is not None and not parent.name.startswith("aten::"):
            parent = parent.cpu_parent
        top += parent is None
    return top, every


LINEAGES = ("hf-llama-sdpa", "hf-llama-eager", "hf-gpt2", "hf-gpt2-eager", "hf-bert", "hf-bert-eager", "hf-distilbert",
            "hf-distilbert-eager", "hf-gemma3", "hf-gemma3-eager", "hf-gemma2-eager", "hf-qwen3", "hf-qwen3-eager",
            "hf-vit", "hf-vit-eager", "hf-whisper", "hf-whisper-eager", "qwen1-torch", "qwen1-flash", "qwen1-flash-pynorm",
            "litgpt-llama", "litgpt-neox", "torchvision-vit", "hf-moe-grouped")
# counted beside the lineages, not priced as a layer code: Whisper's decoder layer (encoder layer + cross-attention)
CHECKS = ("hf-whisper-decoder", "hf-whisper-decoder-eager")


def peft_lora_adapter() -> dict[str, float]:
    """Operators one PEFT LoRA adapter adds (peft's LoraLayer on q_proj and v_proj of the Hugging Face Llama layer,
    r 8, adapters kept in fp32 as get_peft_model's autocast_adapter_dtype does, lora_dropout 0): per adapted linear, in
    forward, and in backward over the frozen layer's."""
    from peft import LoraConfig, get_peft_model

    def run(layers: int) -> tuple[int, int]:
        torch.manual_seed(0)
        model = get_peft_model(build("hf-llama-sdpa", layers).to(DTYPE),
                               LoraConfig(r=8, target_modules=["q_proj", "v_proj"], lora_dropout=0.0)).train()
        ids = torch.randint(0, VOCAB, (BATCH, SEQ))
        fwd_mode, bwd_mode = _count_step(model, ids, ids)
        return sum(fwd_mode.ops.values()), sum(bwd_mode.ops.values())

    (f1, b1), (f2, b2) = run(1), run(2)
    base = count("hf-llama-sdpa", 2), count("hf-llama-sdpa", 1)
    layer_fwd = base[0]["forward"] - base[1]["forward"]
    layer_frozen = base[0]["backward_frozen_weights"] - base[1]["backward_frozen_weights"]
    return {"forward_per_adapter": (f2 - f1 - layer_fwd) / 2, "backward_per_adapter": (b2 - b1 - layer_frozen) / 2}


def one_layer(kind: str) -> dict[str, Any]:
    """One layer's operators: the 2-layer model's count minus the 1-layer model's."""
    one, two = count(kind, 1), count(kind, 2)
    keys = ("forward", "backward", "backward_frozen_weights", "profiler_top_forward", "profiler_all_forward")
    per: dict[str, Any] = {key: two[key] - one[key] for key in keys}
    per["backward_per_forward"] = round(per["backward"] / per["forward"], 3)
    per["forward_ops"] = dict(sorted((Counter(two["forward_ops"]) - Counter(one["forward_ops"])).items()))
    per["backward_ops"] = dict(sorted((Counter(two["backward_ops"]) - Counter(one["backward_ops"])).items()))
    return per


def main() -> None:
    out = {"torch": torch.__version__, "method": " ".join(__doc__.split("\n\n")[3:5]).replace("\n", " "),
           "per_layer": {}}
    import transformers

    out["transformers"] = transformers.__version__
    out["checks"] = {}
    for kind in LINEAGES + CHECKS:
        per = one_layer(kind)
        out["per_layer" if kind in LINEAGES else "checks"][kind] = per
        print(kind, {k: v for k, v in per.items() if not k.endswith("_ops")}, file=sys.stderr)
    out["peft_lora_adapter"] = peft_lora_adapter()
    print("peft-lora-adapter", out["peft_lora_adapter"], file=sys.stderr)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
