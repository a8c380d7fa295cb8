"""Encoder-decoder transformers (Whisper, T5, BART): the decoder runs over the target tokens, not the source.

The workload's `layers` and `seq_len` describe the encoder (Whisper: 12 blocks over the 1,500 frames its conv
front-end makes of 30 s of audio); `decoder_layers` blocks run over `decoder_seq_len` target tokens per sample
(Whisper: the label tokens, padded to the longest in the batch, at most 448). Each decoder block is a self-attention
block and an MLP over the target tokens plus a cross-attention whose queries and output projection run over the
target tokens and whose keys and values project every encoder frame (Radford et al. 2022, 'Robust Speech
Recognition via Large-Scale Weak Supervision', §2.2 and Fig. 1; transformers models/whisper/modeling_whisper.py
WhisperDecoderLayer: self_attn, encoder_attn with k_proj/v_proj over encoder_hidden_states, fc1/fc2). The loss
and the vocabulary projection run over the target tokens only. Counted here: FLOPs, saved activations,
element-wise traffic and dispatched operators; resources/factors.toml [seq2seq] gives the per-token bytes of the
cross-attention and its operator count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpucheck.estimate.factors import seq_len_of
from gpucheck.records import ModelSpec, TrainSpec


def is_seq2seq(m: ModelSpec) -> bool:
    return m.arch == "transformer" and bool(getattr(m, "decoder_layers", 0))


def target_tokens(m: ModelSpec, t: TrainSpec) -> int:
    """Tokens per sample the decoder, the vocabulary projection and the loss run over."""
    if is_seq2seq(m):
        return int(m.decoder_seq_len or seq_len_of(t))
    return seq_len_of(t)


def ctc_forward_flops(m: ModelSpec, t: TrainSpec) -> float:
    """Forward FLOPs per sample of a CTC head (model.ctc_vocab): one linear layer from the encoder's width to the CTC
    vocabulary on every encoder frame (WeNet wenet/transformer/ctc.py: 'self.ctc_lo = torch.nn.Linear(eprojs, odim)',
    'ys_hat = self.ctc_lo(F.dropout(hs_pad, ...))' over the padded encoder output). It runs after the encoder's
    checkpointed blocks, so activation checkpointing does not recompute it."""
    return 2.0 * (m.hidden or 0) * m.ctc_vocab * seq_len_of(t) if m.arch == "transformer" else 0.0


def frontend_flops(m: ModelSpec, t: TrainSpec, trained: bool = True) -> tuple[float, float]:
    """(forward, training) FLOPs per sample of Whisper's convolutional front end (model.mel_bins): transformers
    models/whisper/modeling_whisper.py WhisperEncoder 'self.conv1 = nn.Conv1d(self.num_mel_bins, embed_dim,
    kernel_size=3, padding=1)' over the log-Mel frames (two per encoder frame) and 'self.conv2 = nn.Conv1d(embed_dim,
    embed_dim, kernel_size=3, stride=2, padding=1)', each followed by a GELU (WeNet's conv1d2 input layer is the same
    pair). Training: conv2 forward, input and weight gradients (3x); conv1 forward and weight gradient only, as its input,
    the features, needs no gradient (2x); with the front end frozen (LoRA) forward only. Not recomputed: activation
    checkpointing wraps the encoder layers, not the front end."""
    if m.arch != "transformer" or not m.mel_bins:
        return 0.0, 0.0
    h, s = m.hidden or 0, seq_len_of(t)
    conv1 = 2.0 * 3 * m.mel_bins * h * 2 * s
    conv2 = 2.0 * 3 * h * h * s
    return conv1 + conv2, (2.0 * conv1 + 3.0 * conv2) if trained else conv1 + conv2


def extra_forward_flops(m: ModelSpec, t: TrainSpec) -> float:
    """Forward FLOPs per sample outside the encoder and decoder blocks: the CTC head and the conv front end."""
    return ctc_forward_flops(m, t) + frontend_flops(m, t)[0]


def extra_train_flops(m: ModelSpec, t: TrainSpec, bwd_linear: float) -> float:
    """Their training FLOPs per sample (backward `bwd_linear` x a trained linear layer's forward), not recomputed."""
    return ctc_forward_flops(m, t) * (1.0 + bwd_linear) + frontend_flops(m, t, trained=bwd_linear > 1.0)[1]


def _widths(m: ModelSpec) -> tuple[int, int, int]:
    h = m.hidden or 0
    heads = m.heads or 1
    hd = m.head_dim or max(1, h // heads)
    return h, heads * hd, (m.kv_heads or heads) * hd


def decoder_forward_flops(m: ModelSpec, t: TrainSpec) -> tuple[float, float]:
    """(linear FLOPs, attention-score FLOPs) of the decoder blocks for one sample, forward."""
    if not is_seq2seq(m):
        return 0.0, 0.0
    h, q, kv = _widths(m)
    ffn = m.ffn or 4 * h
    mlp = (3 if m.gated_mlp else 2) * h * ffn
    tgt, src = target_tokens(m, t), seq_len_of(t)
    per_target = (h * q + 2 * h * kv + q * h) + (h * q + q * h) + mlp  # self-attention, cross q and o, MLP
    per_source = 2 * h * kv  # cross-attention keys and values over every encoder frame
    layers = m.decoder_layers
    linear = 2.0 * layers * (per_target * tgt + per_source * src)
    attn = 4.0 * layers * q * tgt * (tgt + src)  # QK^T and PV: causal self-attention (counted full) and cross
    return linear, attn


def decoder_activation_bytes(m: ModelSpec, t: TrainSpec, f: Mapping[str, Any], per_token_layer: float) -> float:
    """Saved activations of the decoder for one micro-batch (checkpointing: each block's input and one block in
    flight). `per_token_layer` is the encoder family's bytes per token and block (16-bit); the cross-attention adds
    its own per target token and its keys and values per encoder frame."""
    if not is_seq2seq(m):
        return 0.0
    s2s = f["seq2seq"]
    h, _q, kv = _widths(m)
    scale = f["activations"]["fp32_scale"] if t.precision == "fp32" else 1.0
    tgt, src = target_tokens(m, t), seq_len_of(t)
    per_layer = ((per_token_layer + s2s["cross_hidden_bytes"] * h) * tgt + s2s["cross_kv_bytes"] * kv * src) \
        * t.batch * scale
    if t.grad_checkpointing:
        keep = (4 if t.precision == "fp32" else 2) * tgt * t.batch * h
        return m.decoder_layers * keep + per_layer
    return m.decoder_layers * per_layer


def decoder_elementwise_elements(m: ModelSpec, t: TrainSpec, per_token_layer_elements: float) -> float:
    """Element-wise work of the decoder blocks for one sample and pass (elements), as the encoder's per token."""
    if not is_seq2seq(m):
        return 0.0
    return per_token_layer_elements * m.decoder_layers * target_tokens(m, t)


def decoder_kernels(m: ModelSpec, f: Mapping[str, Any], per_layer_forward: float) -> float:
    """Operators dispatched by the decoder blocks in one forward: an encoder block's plus the cross-attention's."""
    if not is_seq2seq(m):
        return 0.0
    return m.decoder_layers * (per_layer_forward + f["seq2seq"]["cross_attention_operators"])


def decoder_linear_params(m: ModelSpec) -> float:
    """Weights of the decoder blocks' linear layers (read once per pass)."""
    if not is_seq2seq(m):
        return 0.0
    h, q, kv = _widths(m)
    ffn = m.ffn or 4 * h
    return float(m.decoder_layers * ((h * q + 2 * h * kv + q * h) * 2 + (3 if m.gated_mlp else 2) * h * ffn))
