"""Count the activations a Stable Diffusion U-Net keeps for backward, with and without gradient checkpointing.

    /path/to/python-with-torch-and-diffusers benchmarks/count_unet_activations.py [--models sd15,sdxl] [--out FILE]

Runs with a Python that has torch, diffusers and peft (the trial's), not gpucheck's. Builds diffusers'
UNet2DConditionModel from each catalog U-Net's published unet/config.json (count_unet_flops.MODELS_COUNTED), with
SDPA attention (AttnProcessor2_0: the sources ran xformers / PyTorch's fused attention, which keep no score matrix),
in train mode, and runs ONE forward (batch 1, 77 text tokens) at the model's reference size (latent = pixels / 8)
and at half of it, in the CUDA fp16 autocast data flow emulated on the CPU with bf16 (same 2-byte elements; CPU
autocast casts convolutions, linears and SDPA to 16 bits as CUDA's does, and a TorchFunctionMode gives group_norm
and layer_norm fp32 inputs, as CUDA autocast's fp32 list does: count_unet_elementwise.AutocastNorms). Two ways of
training:

- full: every weight trained (DreamBooth, fine-tuning);
- lora: the 16-bit base frozen, LoRA rank 4 on to_q, to_k, to_v, to_out.0 in fp32 (diffusers
  train_text_to_image_lora*.py: unet.add_adapter(LoraConfig(... target_modules=["to_k", "to_q", "to_v",
  "to_out.0"])), cast_training_params(unet, dtype=torch.float32)). A frozen layer keeps what its input gradient
  needs, not what its weight gradient would.

What is counted: torch.autograd.graph.saved_tensors_hooks around the forward, one count per storage, weights and
autocast's casts of weights excluded. Every saved tensor is put in the checkpointed unit it was saved inside, if
any: diffusers' enable_gradient_checkpointing() wraps each ResnetBlock2D call of the down, mid and up blocks
(`self._gradient_checkpointing_func(resnet, hidden_states, temb)`, models/unets/unet_2d_blocks.py) and each
BasicTransformerBlock call of a Transformer2DModel (models/transformers/transformer_2d.py), and keeps only those
calls' inputs. So:

- saved_mib: what the forward keeps without checkpointing (the model's activation_mib);
- checkpointed kept_mib: the storages saved outside any unit, together with every unit call's tensor inputs
  (hidden states, the time embedding, the text context: one count per storage);
- checkpointed recompute_mib: the largest single unit call's own saved storages (not already kept): what backward
  holds again while it recomputes that unit;
- checkpointed total_mib = kept + recompute: the activations at the backward's peak with checkpointing on
  (the model's activation_mib_checkpointed).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from count_io import write_counts
from count_unet_flops import MODELS_COUNTED, TEXT_TOKENS, meta_unet
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten

ROOT = Path(__file__).resolve().parent.parent
UNITS = ("ResnetBlock2D", "BasicTransformerBlock")  # the calls diffusers' gradient checkpointing wraps
MIB = 2.0**20


def _key(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


def _is_weight_cast(t: torch.Tensor) -> bool:
    """autocast's 16-bit copy of a weight: a cast whose only input is a leaf parameter."""
    fn = t.grad_fn
    if fn is None or "ToCopy" not in type(fn).__name__:
        return False
    return all(n is None or type(n).__name__ == "AccumulateGrad" for n, _ in fn.next_functions)


class AutocastNorms(TorchFunctionMode):
    """CUDA autocast's fp32 list on the CPU: group_norm and layer_norm run on fp32 copies of their input, weight and
    bias (the 16-bit weights of a frozen base too); the weights' copies are remembered so they are not counted."""

    def __init__(self, weight_copies: set[int]) -> None:
        super().__init__()
        self.weight_copies = weight_copies

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (F.group_norm, F.layer_norm, torch.group_norm, torch.layer_norm) and args:
            def up(t, weight):
                if not isinstance(t, torch.Tensor) or t.dtype == torch.float32:
                    return t
                c = t.float()
                if weight:
                    self.weight_copies.add(_key(c))
                return c
            args = (up(args[0], False),) + tuple(up(a, True) for a in args[1:])
            kwargs = {k: up(v, True) for k, v in kwargs.items()}
        return func(*args, **kwargs)


def build(cfg: dict, mode: str):
    from diffusers import UNet2DConditionModel
    from diffusers.models.attention_processor import AttnProcessor2_0

    kw = {k: v for k, v in cfg.items() if not k.startswith("_")}
    with torch.device("meta"):
        unet = UNet2DConditionModel(**kw).to(torch.bfloat16)
    unet = unet.to_empty(device="cpu")
    torch.manual_seed(0)
    with torch.no_grad():
        for p in unet.parameters():
            p.normal_(0.0, 0.02)
    unet.set_attn_processor(AttnProcessor2_0())
    unet.train()
    if mode == "lora":
        from peft import LoraConfig
        unet.requires_grad_(False)
        unet.add_adapter(LoraConfig(r=4, lora_alpha=4, init_lora_weights="gaussian",
                                    target_modules=["to_k", "to_q", "to_v", "to_out.0"]))
        for p in unet.parameters():
            if p.requires_grad:
                p.data = p.data.float()
    return unet, kw


def count(unet, kw: dict, pixels: int) -> dict:
    side = pixels // 8
    x = torch.randn(1, kw["in_channels"], side, side, dtype=torch.bfloat16)
    ctx = torch.randn(1, TEXT_TOKENS, kw["cross_attention_dim"], dtype=torch.bfloat16)
    extra = {}
    if kw.get("addition_embed_type") == "text_time":
        text = kw["projection_class_embeddings_input_dim"] - 6 * kw["addition_time_embed_dim"]
        extra["added_cond_kwargs"] = {"text_embeds": torch.randn(1, text), "time_ids": torch.randn(1, 6)}
    params = {_key(p) for p in unet.parameters()}
    copies: set[int] = set()
    saved: dict[int, tuple[int, str, int]] = {}  # storage → (bytes, dtype, unit call index or -1)
    unit_inputs: dict[int, int] = {}  # storage → bytes
    calls: list[str] = []
    stack: list[int] = []
    alive: list[torch.Tensor] = []

    def pack(t: torch.Tensor):
        k = _key(t)
        if k not in params and k not in copies and not _is_weight_cast(t) and k not in saved:
            saved[k] = (t.untyped_storage().nbytes(), str(t.dtype), stack[-1] if stack else -1)
        return t

    def pre(mod, args, kwargs):
        if not stack:  # a unit inside a unit is part of the outer call
            for t in tree_flatten((args, kwargs))[0]:
                if isinstance(t, torch.Tensor) and _key(t) not in params:
                    unit_inputs.setdefault(_key(t), t.untyped_storage().nbytes())
                    alive.append(t)  # a checkpointed call keeps its inputs: no later tensor reuses their memory
        calls.append(type(mod).__name__)
        stack.append(len(calls) - 1 if not stack else stack[-1])

    def post(mod, args, kwargs, out):
        stack.pop()

    hooks = []
    for m in unet.modules():
        if type(m).__name__ in UNITS:
            hooks.append(m.register_forward_pre_hook(pre, with_kwargs=True))
            hooks.append(m.register_forward_hook(post, with_kwargs=True))
    t0 = time.perf_counter()
    with torch.autocast("cpu", dtype=torch.bfloat16), AutocastNorms(copies), \
            torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = unet(x, torch.tensor([10]), encoder_hidden_states=ctx, **extra).sample
    seconds = time.perf_counter() - t0
    for h in hooks:
        h.remove()
    assert out.requires_grad
    total = sum(b for b, _, _ in saved.values())
    by_dtype: dict[str, float] = {}
    for b, d, _ in saved.values():
        by_dtype[d] = by_dtype.get(d, 0.0) + b / MIB
    kept_keys = {k for k, (_, _, u) in saved.items() if u < 0} | set(unit_inputs)
    kept = sum(saved[k][0] if k in saved else unit_inputs[k] for k in kept_keys)
    per_call: dict[int, int] = {}
    for k, (b, _, u) in saved.items():
        if u >= 0 and k not in kept_keys:
            per_call[u] = per_call.get(u, 0) + b
    top = max(per_call, key=per_call.get)
    return {"image_size": pixels, "latent": side, "seconds": round(seconds, 1),
            "saved_mib": round(total / MIB, 3), "saved_mib_by_dtype": {d: round(v, 3) for d, v in by_dtype.items()},
            "checkpointed": {"kept_mib": round(kept / MIB, 3), "recompute_mib": round(per_call[top] / MIB, 3),
                             "recompute_unit": calls[top], "units_called": sum(1 for c in calls if c),
                             "total_mib": round((kept + per_call[top]) / MIB, 3)}}


def eager_scores(cfg: dict, pixels: int) -> dict:
    """Attention scores eager attention would materialize (heads × query tokens × key tokens), per sample, counted on
    the meta device from each Attention call's shapes: over the self-attentions (attn1, latent tokens²) in all and in
    the largest single transformer block (what a checkpointed backward recomputes at once), and over the
    cross-attentions (attn2, latent tokens × 77 text tokens)."""
    from diffusers.models.attention_processor import Attention

    unet, x, ctx, extra = meta_unet(cfg, pixels)
    self_el: list[int] = []
    cross_el = 0

    def hook(mod, args, kwargs, out):
        nonlocal cross_el
        q = args[0] if args else kwargs["hidden_states"]
        ctx_in = kwargs.get("encoder_hidden_states")
        q_len = q.shape[1] if q.dim() == 3 else q.shape[2] * q.shape[3]
        kv_len = q_len if ctx_in is None else ctx_in.shape[1]
        n = mod.heads * q_len * kv_len
        if ctx_in is None:
            self_el.append(n)
        else:
            cross_el += n

    for m in unet.modules():
        if isinstance(m, Attention):
            m.register_forward_hook(hook, with_kwargs=True)
    with torch.no_grad():
        unet(x, torch.tensor([10], device="meta"), encoder_hidden_states=ctx, **extra)
    return {"image_size": pixels, "self_attention_layers": len(self_el), "self_score_elements": sum(self_el),
            "self_score_elements_largest_layer": max(self_el), "cross_score_elements": cross_el}


def one(name: str, mode: str) -> dict:
    cfg, ref, source = MODELS_COUNTED[name]
    unet, kw = build(cfg, mode)
    r = {"source": source, "ref_image_size": ref, "mode": mode}
    for px in (ref // 2, ref):
        r[f"at_{px}"] = count(unet, kw, px)
        r[f"at_{px}"]["eager_attention"] = eager_scores(cfg, px)
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="sd15,sd2-base,sdxl")
    ap.add_argument("--modes", default="full,lora")
    ap.add_argument("--one", nargs=2, metavar=("MODEL", "MODE"), help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "unet-activations.json"))
    args = ap.parse_args()
    if args.one:  # one model and mode in this process (an SDXL count holds ~15 GB; each runs in its own process)
        Path(args.out).write_text(json.dumps(one(*args.one)), encoding="utf-8")
        return 0
    runs: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            for mode in args.modes.split(","):
                part = Path(tmp) / f"{name}-{mode}.json"
                subprocess.run([sys.executable, __file__, "--one", name, mode, "--out", str(part)], check=True)
                runs[f"{name}/{mode}"] = json.loads(part.read_text(encoding="utf-8"))
                print(name, mode, json.dumps(runs[f"{name}/{mode}"]), flush=True)
    write_counts(args.out, __doc__, runs, diffusers=__import__("diffusers").__version__, peft=__import__("peft").__version__, platform=platform.platform())
    return 0


if __name__ == "__main__":
    sys.exit(main())
