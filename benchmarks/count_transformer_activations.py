"""Count the bytes one transformer layer keeps for backward, per token, as Hugging Face's code runs it.

    /path/to/python-with-torch-and-transformers benchmarks/count_transformer_activations.py [--seq 512] [--out FILE]

Runs with a Python that has torch and transformers (the trial's), not gpucheck's. For each model family below it
builds the model from its published config.json shape (random weights; no download) with 1 and with 2 layers, in
train mode with every dropout at 0 (CUDA's fused dropout keeps a 1-byte mask per element, the CPU's a mask in the
input's dtype: the masks are added by count, not measured), and runs ONE forward of batch 2 × `--seq` tokens with
the loss, three ways: fp16 autocast (the CUDA data flow emulated on the CPU with bf16 — same 2-byte elements; CPU
autocast casts linears and matmuls to 16 bits as CUDA's does, and a TorchFunctionMode gives layer_norm fp32 inputs,
as CUDA autocast's fp32 list does: count_unet_activations.AutocastNorms), fp32, and pure bf16 (the model cast to
bf16, no autocast). torch.autograd.graph.saved_tensors_hooks count every storage saved for backward once; weights,
autocast's casts of weights and their transposes (one per weight, not per token) are left out. The 2-layer count
minus the 1-layer count is one layer's saved bytes. Each family is counted at its own MLP width and at half of it,
so the bytes per token split exactly into B·hidden + B·ffn, the form resources/factors.toml [activations] prices
(Korthikanti et al. 2022: 18 B·h + 4 B·ffn for a GELU layer in 16 bits, dropout masks included, scores apart).

Attention: SDPA, whose CPU kernel at dropout 0 is the flash one (q, k, v, the output and a log-sum-exp per row, as
CUDA's flash and memory-efficient kernels keep); a tokens² tensor saved anyway is reported (`score_matrix_saved`).

CUDA autocast also runs pow in fp32 (PyTorch 'Automatic Mixed Precision' op reference, 'CUDA Ops that can autocast to
float32': pow), which CPU autocast does not: under the emulated autocast a TorchFunctionMode (AutocastPow) gives
torch.pow an fp32 input as CUDA's would. It matters for GPT-2's MLP, whose gelu_new (transformers activations.py
NewGELUActivation: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * pow(x, 3))))) is a chain of element-wise
operators, each keeping its inputs for backward: with pow in fp32 the chain after it is fp32 too (type promotion).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import sys

import torch
from count_io import write_counts
from count_unet_activations import AutocastNorms, _is_weight_cast, _key
from torch.overrides import TorchFunctionMode


class AutocastPow(TorchFunctionMode):
    """CUDA autocast's fp32 list on the CPU, for pow: its tensor input is cast to fp32 (the cast is what pow keeps)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (torch.pow, torch.Tensor.pow, torch.Tensor.__pow__) and args and isinstance(args[0], torch.Tensor) \
                and args[0].dtype in (torch.bfloat16, torch.float16):
            args = (args[0].float(),) + tuple(args[1:])
        return func(*args, **kwargs)


MODELS = {
    # bert-base-uncased config.json: hidden 768, 12 heads, intermediate 3072, GELU
    "bert-base": ("BertConfig", "BertForSequenceClassification", "intermediate_size",
                  dict(hidden_size=768, num_attention_heads=12, intermediate_size=3072, vocab_size=30522,
                       max_position_embeddings=512, num_labels=2, hidden_dropout_prob=0.0,
                       attention_probs_dropout_prob=0.0)),
    # gpt2 config.json: n_embd 768, 12 heads, 4 × 768 inner, gelu_new
    "gpt2": ("GPT2Config", "GPT2LMHeadModel", "n_inner",
             dict(n_embd=768, n_head=12, n_inner=3072, vocab_size=50257, n_positions=1024, attn_pdrop=0.0,
                  resid_pdrop=0.0, embd_pdrop=0.0)),
}
LAYER_KEYS = {"BertConfig": "num_hidden_layers", "GPT2Config": "n_layer"}
MODES = {"fp16-autocast": (True, torch.float32), "fp32": (False, torch.float32), "bf16-pure": (False, torch.bfloat16)}
HIDDEN = 768


def build(name: str, layers: int, ffn: int, dtype: torch.dtype):
    import transformers

    cfg_cls, model_cls, ffn_key, kw = MODELS[name]
    cfg = getattr(transformers, cfg_cls)(**{**kw, ffn_key: ffn}, **{LAYER_KEYS[cfg_cls]: layers})
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    return getattr(transformers, model_cls)(cfg).to(dtype).train()


def _weight_like(t: torch.Tensor, shapes: set[tuple[int, ...]]) -> bool:
    """A weight's copy or transpose (autocast's cast, a pure-16-bit matmul's weight view): shaped like a parameter."""
    return tuple(t.shape) in shapes or tuple(reversed(t.shape)) in shapes


def count(name: str, layers: int, ffn: int, mode: str, seq: int) -> tuple[int, bool]:
    autocast, dtype = MODES[mode]
    model = build(name, layers, ffn, dtype)
    batch = 2
    ids = torch.randint(0, 1000, (batch, seq))
    labels = torch.zeros(batch, dtype=torch.long) if "Bert" in type(model).__name__ else ids
    params = {_key(p) for p in model.parameters()}
    shapes = {tuple(p.shape) for p in model.parameters() if p.dim() == 2}
    copies: set[int] = set()
    saved: dict[int, tuple[int, tuple]] = {}

    def pack(t: torch.Tensor):
        k = _key(t)
        if k not in params and k not in copies and not _is_weight_cast(t) and not _weight_like(t, shapes) \
                and k not in saved:
            saved[k] = (t.untyped_storage().nbytes(), tuple(t.shape))
        return t

    norms = AutocastNorms(copies) if autocast else contextlib.nullcontext()  # CUDA autocast's fp32 norms
    power = AutocastPow() if autocast else contextlib.nullcontext()  # and its fp32 pow
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast), norms, power, \
            torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(input_ids=ids, labels=labels).loss
    assert loss.requires_grad
    squares = any(len(sh) >= 2 and sh[-1] == seq and sh[-2] == seq for _, sh in saved.values())
    return sum(b for b, _ in saved.values()), squares


def per_layer(name: str, ffn: int, mode: str, seq: int) -> tuple[float, bool]:
    """One layer's saved bytes per token (2 layers minus 1) and whether a tokens² tensor was saved."""
    one, sq1 = count(name, 1, ffn, mode, seq)
    two, sq2 = count(name, 2, ffn, mode, seq)
    return (two - one) / (2 * seq), sq1 or sq2


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--out")
    a = ap.parse_args()
    torch.set_num_threads(2)
    runs = {}
    for name in MODELS:
        ffn = MODELS[name][3].get("intermediate_size") or MODELS[name][3]["n_inner"]
        for mode in MODES:
            full, sq_full = per_layer(name, ffn, mode, a.seq)
            half, sq_half = per_layer(name, ffn // 2, mode, a.seq)
            ffn_bytes = (full - half) / (ffn - ffn // 2)
            runs[f"{name}/{mode}"] = {
                "hidden": HIDDEN, "ffn": ffn, "bytes_per_token_per_layer": round(full, 2),
                "bytes_per_token_per_layer_half_ffn": round(half, 2), "ffn_bytes": round(ffn_bytes, 3),
                "hidden_bytes": round((full - ffn_bytes * ffn) / HIDDEN, 3),
                "score_matrix_saved": sq_full or sq_half}
            print(name, mode, json.dumps(runs[f"{name}/{mode}"]), flush=True)
    if a.out:
        write_counts(a.out, __doc__, runs, transformers=__import__("transformers").__version__,
                     platform=platform.platform(), seq=a.seq, batch=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
