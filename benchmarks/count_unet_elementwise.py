"""Count the element-wise (memory-bound) traffic of a Stable Diffusion U-Net training step per saved element.

    /path/to/python-with-torch-and-diffusers benchmarks/count_unet_elementwise.py [--latents 16,32] [--out FILE]

Runs with a Python that has torch and diffusers (the trial's), not gpucheck's. Builds diffusers'
UNet2DConditionModel from the published SD 1.5 and SD 2.0-base unet/config.json values (random weights, train
mode, SDPA attention: diffusers' AttnProcessor2_0, as the sources ran xformers / flash attention), and runs one
forward + backward (batch 1, 77 text tokens, the output's gradient given directly: no loss op) at each latent size,
in two precisions:

- fp32: every tensor fp32 (element counts only);
- autocast: the CUDA fp16 autocast data flow, emulated on the CPU with bf16 (same 2-byte elements): CPU autocast
  casts convolutions, linears and SDPA to 16 bits as CUDA's does, and a TorchFunctionMode gives group_norm and
  layer_norm fp32 inputs, as CUDA autocast's fp32 list does (PyTorch 'Automatic Mixed Precision' op reference:
  group_norm, layer_norm autocast to float32 on CUDA; not on CPU).

Two counts per run:

(a) saved: torch.autograd.graph.saved_tensors_hooks around forward, one count per storage (its bytes), parameters
    excluded, and 16-bit copies of parameters (autocast's weight casts) excluded too — the way activation_mib is
    measured (benchmarks/data/calibration-cpu-kernels.json 'saved_activations_mib_per_sample').
(b) moved: a TorchDispatchMode that sums, for every aten op that is not a matmul / convolution / attention kernel
    (mm, addmm, bmm, baddbmm, convolution and its backward, _scaled_dot_product_*), the elements (and bytes) it reads
    and writes: inputs + outputs numel. Ops whose outputs only alias their inputs (views, reshapes, detach) count
    zero; copy_ counts source + destination; fill_/zero_ and *_like / new_* factories count their output; empty*
    nothing. Ops touching a parameter (autocast weight casts, parameter-sized work) are kept apart: the estimator
    prices the weights' traffic separately (compute.weight_stream_bytes).

Each op is put in a group by its name in forward, or by the autograd node running it in backward
(torch._C._current_autograd_node), so GroupNorm, SiLU, residual adds, LayerNorm, GEGLU, casts and the rest can be
read apart. The factor the estimator uses (factors.toml speed.elementwise.feature_map_factor.unet) is moved
elements ÷ saved elements, with saved elements = saved bytes ÷ 2 (activation_mib is 16-bit bytes).
"""

from __future__ import annotations

import argparse
import collections
import json
import platform
import sys
import time

import torch
import torch.nn.functional as F
from count_io import write_counts
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

_COMMON = {
    "_class_name": "UNet2DConditionModel", "act_fn": "silu", "block_out_channels": [320, 640, 1280, 1280],
    "center_input_sample": False, "down_block_types": ["CrossAttnDownBlock2D"] * 3 + ["DownBlock2D"],
    "downsample_padding": 1, "flip_sin_to_cos": True, "freq_shift": 0, "in_channels": 4, "layers_per_block": 2,
    "mid_block_scale_factor": 1, "norm_eps": 1e-05, "norm_num_groups": 32, "out_channels": 4, "sample_size": 64,
    "up_block_types": ["UpBlock2D"] + ["CrossAttnUpBlock2D"] * 3,
}
CONFIGS = {
    # huggingface.co/stable-diffusion-v1-5/stable-diffusion-v1-5 unet/config.json (resources/models/sd15/unet.json)
    "sd15": dict(_COMMON, attention_head_dim=8, cross_attention_dim=768),
    # huggingface.co/stabilityai/stable-diffusion-2-base unet/config.json: heads of 64 channels, linear proj_in/out,
    # 1,024-wide OpenCLIP context
    "sd2-base": dict(_COMMON, attention_head_dim=[5, 10, 20, 20], cross_attention_dim=1024,
                     use_linear_projection=True),
}

_GEMM = {"mm", "addmm", "bmm", "baddbmm", "convolution", "convolution_backward", "_convolution",
         "mkldnn_convolution", "addbmm", "_mkldnn_convolution"}
_OUTPUT_ONLY = ("fill_", "zero_", "zeros_like", "ones_like", "full_like", "new_zeros", "new_ones", "new_full",
                "zeros", "ones", "full", "scalar_tensor", "arange", "lift_fresh")
# op or autograd-node name (lower case, without Backward0 / the overload) → group; first match wins
GROUPS = [
    ("groupnorm", ("group_norm", "groupnorm")), ("layernorm", ("layer_norm", "layernorm")), ("silu", ("silu",)),
    ("geglu (gelu)", ("gelu",)), ("cast", ("_to_copy", "tocopy", "to_copy")),
    ("skip concat", ("cat",)), ("upsample", ("upsample",)),
    ("attention", ("scaled_dot_product", "flash_attention", "efficient_attention")),
    ("linear/conv bias grad", ("convolution", "addmm", "mmbackward", "bmm")),
]


def group_of(name: str, in_geglu: bool) -> str:
    n = name.lower()
    for g, keys in GROUPS:
        if any(k in n for k in keys):
            return g
    if n.startswith(("mulbackward", "splitbackward")):
        return "geglu (gate product, chunk gradients)"  # the only large mul / chunk in the U-Net is GEGLU's
    if n.startswith("mul"):
        return "geglu (gate product, chunk gradients)" if in_geglu else "mul"
    if n.startswith(("add", "sub")):
        return "add (residual, bias, grad sum)"
    if n.startswith("div"):
        return "div (residual scale)"
    if n.startswith(("clone", "copy", "contiguous", "unsafeview", "view", "reshape", "transpose", "permute",
                     "t_", "expand", "slice", "select", "split", "chunk", "unsqueeze", "squeeze")):
        return "layout copy"
    if n.startswith("sum"):
        return "sum (bias grad)"
    return "other:" + n


def _storage_key(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


def _weight_grad_node(node) -> bool:
    """A backward node that only feeds parameters (the gradient of a weight cast or transpose): parameter-sized."""
    if node is None or not node.next_functions:
        return False
    return all(fn is None or type(fn).__name__ == "AccumulateGrad" for fn, _ in node.next_functions)


class Counter(TorchDispatchMode):
    """Elements / bytes the non-GEMM aten ops read and write, by group and by phase."""

    def __init__(self, param_keys: set[int], geglu_depth: list[int]) -> None:
        super().__init__()
        self.param_keys = param_keys  # storages of parameters and of their casts
        self.geglu_depth = geglu_depth
        self.elements: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.bytes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.phase = "forward"
        self.keep: list[torch.Tensor] = []
        self.detail: collections.Counter = collections.Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = func._schema.name.split("::")[-1]
        ins = [t for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)]
        outs = [t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        if name in _GEMM or "scaled_dot_product" in name or "attention" in name:
            return out
        node = torch._C._current_autograd_node()
        in_keys = {_storage_key(t) for t in ins}
        view = not func._schema.is_mutable and outs and all(_storage_key(t) in in_keys for t in outs)
        if (ins and all(k in self.param_keys for k in in_keys)) or _weight_grad_node(node):
            for t in outs:  # weight casts and views of them stay with the parameters (kept alive: no reuse)
                self.param_keys.add(_storage_key(t))
                self.keep.append(t)
            if not view:
                self._add("parameter-side", name, ins + outs)
            return out
        if view:
            return out  # a view: nothing moved
        if node is not None and name in ("add", "add_") and type(node).__name__ != "AddBackward0":
            label = "grad sum at fan-outs (residual, skip)"  # the engine's InputBuffer accumulation
        else:
            label = group_of(type(node).__name__ if node is not None else name, self.geglu_depth[0] > 0)
        if name.startswith(("empty", "new_empty")):
            return out
        if name in _OUTPUT_ONLY or name.endswith("_like"):
            moved = outs
        elif name == "copy_":
            moved = [args[1], outs[0]] if isinstance(args[1], torch.Tensor) else outs
        else:
            moved = ins + outs
        self._add(label, name, moved)
        return out

    def _add(self, label: str, name: str, tensors: list[torch.Tensor]) -> None:
        el = sum(t.numel() for t in tensors)
        by = sum(t.numel() * t.element_size() for t in tensors)
        self.elements[self.phase][label] += el
        self.bytes[self.phase][label] += by
        node = torch._C._current_autograd_node()
        self.detail[f"{self.phase} {label} | {type(node).__name__ if node is not None else '-'} | {name}"] += el


class AutocastNorms(TorchFunctionMode):
    """CUDA autocast's fp32 list on the CPU: group_norm and layer_norm get fp32 inputs."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (F.group_norm, F.layer_norm, torch.group_norm, torch.layer_norm) and args:
            x = args[0]
            if isinstance(x, torch.Tensor) and x.dtype != torch.float32:
                args = (x.float(),) + tuple(args[1:])
        return func(*args, **kwargs)


def _build(name: str):
    from diffusers import UNet2DConditionModel
    from diffusers.models.attention_processor import AttnProcessor2_0
    torch.manual_seed(0)
    unet = UNet2DConditionModel.from_config(CONFIGS[name])
    unet.set_attn_processor(AttnProcessor2_0())
    return unet.train()


def count(unet, latent: int, mode: str) -> dict:
    ctx = CONFIGS_CTX[id(unet)]
    sample = torch.randn(1, 4, latent, latent)
    text = torch.randn(1, 77, ctx)
    t = torch.tensor([500])
    param_keys = {_storage_key(p) for p in unet.parameters()} | {_storage_key(b) for b in unet.buffers()}
    saved: dict[int, tuple[int, int, str]] = {}

    def pack(x: torch.Tensor):
        k = _storage_key(x)
        if k not in counter.param_keys and k not in saved:
            st = x.untyped_storage()
            saved[k] = (st.nbytes(), st.nbytes() // x.element_size(), str(x.dtype))
        return x

    geglu = [0]
    from diffusers.models.activations import GEGLU
    hooks = []
    for m in unet.modules():
        if isinstance(m, GEGLU):
            hooks.append(m.register_forward_pre_hook(lambda *_: geglu.__setitem__(0, geglu[0] + 1)))
            hooks.append(m.register_forward_hook(lambda *_: geglu.__setitem__(0, geglu[0] - 1)))
    counter = Counter(param_keys, geglu)
    unet.zero_grad(set_to_none=True)
    autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=(mode == "autocast"))
    norms = AutocastNorms() if mode == "autocast" else None
    t0 = time.time()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x), counter:
        with autocast:
            if norms is not None:
                with norms:
                    out = unet(sample, t, encoder_hidden_states=text).sample
            else:
                out = unet(sample, t, encoder_hidden_states=text).sample
        counter.phase = "backward"
        out.backward(torch.randn_like(out))
    for h in hooks:
        h.remove()
    saved_bytes = sum(b for b, _, _ in saved.values())
    saved_el = sum(e for _, e, _ in saved.values())
    by_dtype = collections.Counter()
    for b, _, d in saved.values():
        by_dtype[d] += b
    moved = {ph: dict(c) for ph, c in counter.elements.items()}
    feature = {ph: {k: v for k, v in c.items() if k != "parameter-side"} for ph, c in moved.items()}
    moved_el = sum(sum(c.values()) for c in feature.values())
    moved_b = sum(v for ph, c in counter.bytes.items() for k, v in c.items() if k != "parameter-side")
    return {
        "latent": latent, "image_px": latent * 8, "mode": mode, "seconds": round(time.time() - t0, 1),
        "saved_mib": round(saved_bytes / 2**20, 3), "saved_elements": saved_el,
        "saved_mib_by_dtype": {d: round(b / 2**20, 3) for d, b in by_dtype.items()},
        "saved_16bit_elements": saved_bytes // 2,
        "moved_elements": moved_el, "moved_bytes": moved_b,
        "moved_elements_by_phase_and_group": moved,
        "moved_bytes_by_phase_and_group": {ph: dict(c) for ph, c in counter.bytes.items()},
        "moved_elements_by_group_node_op": dict(counter.detail.most_common()),
        "factor_elements_per_saved_element": round(moved_el / saved_el, 3),
        "factor_elements_per_saved_16bit_element": round(moved_el / (saved_bytes / 2), 3),
        "factor_2byte_equivalents_per_saved_16bit_element": round(moved_b / 2 / (saved_bytes / 2), 3),
    }


CONFIGS_CTX: dict[int, int] = {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--latents", default="16,32")
    ap.add_argument("--models", default="sd15,sd2-base")
    ap.add_argument("--modes", default="fp32,autocast")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    torch.set_num_threads(1)
    runs = []
    for name in a.models.split(","):
        unet = _build(name)
        CONFIGS_CTX[id(unet)] = CONFIGS[name]["cross_attention_dim"]
        for mode in a.modes.split(","):
            for lat in (int(x) for x in a.latents.split(",")):
                r = dict(model=name, **count(unet, lat, mode))
                print(json.dumps({k: v for k, v in r.items() if not k.startswith("moved_") or k in
                                  ("moved_elements", "moved_bytes")}), flush=True)
                runs.append(r)
    if a.out:
        write_counts(a.out, __doc__, runs, diffusers=__import__("diffusers").__version__,
                     platform=platform.platform())
    return 0


if __name__ == "__main__":
    sys.exit(main())
