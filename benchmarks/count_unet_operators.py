"""Count the ATen operators a whole diffusers U-Net dispatches in one training step, per Stable Diffusion model.

Run with the user's Python (torch + diffusers + peft), on the meta device (no memory, no arithmetic; the operators
dispatched are the same as on a GPU):

    /work/main/.venv-trial/bin/python benchmarks/count_unet_operators.py > benchmarks/data/unet-operators.json

Each model is diffusers' UNet2DConditionModel built from its published config (the unet/config.json of the
Hugging Face repository, the keys that change the module tree), batch 1 at the model's own resolution, a text
context of 77 tokens. One step's forward (with the MSE loss against a target, as the training scripts compute it) and
backward run under a TorchDispatchMode that counts every ATen operator that reaches a kernel (views, reshapes, casts,
allocations included: each costs host time even without a GPU kernel), in the unit of
benchmarks/count_layer_operators.py. Counted:

- forward: the U-Net's forward and the loss
- backward: every weight trained (full fine-tuning, DreamBooth): weight gradients, their accumulation
- backward_frozen_weights: no weight trained, the input's gradient only (as under LoRA without its adapters: the
  gradient must reach the first adapted layer, which sits in the first down block)
- per LoRA target set, PEFT (LoraConfig r=4, dropout 0, as diffusers' train_text_to_image_lora.py and
  train_dreambooth_lora.py add_adapter) on the U-Net with frozen base weights: the adapted modules and what the
  adapters add per adapted module in forward and backward (lora_forward − forward, lora_backward −
  backward_frozen_weights, divided by the count):
  * attention: diffusers' scripts, target_modules = ["to_k", "to_q", "to_v", "to_out.0"] of every Attention
  * transformer: kohya sd-scripts networks/lora.py, every nn.Linear and 1×1 nn.Conv2d inside each
    Transformer2DModel (UNET_TARGET_REPLACE_MODULE = ["Transformer2DModel"]: attention q/k/v/out, the feed-forward's
    GEGLU proj and output linear, proj_in and proj_out), without --conv_dim (no 3×3 convolutions)

What the count leaves out: Python's own time between operators (module calls, hooks), which dispatch.launch_us prices
per operator alike for every code; kohya's own U-Net reimplementations (library/original_unet.py,
sdxl_original_unet.py) mirror diffusers' modules one for one and are counted as diffusers'.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import diffusers
import peft
import torch
import torch.nn as nn
import torch.nn.functional as F
from count_layer_operators import CountOps  # the same counter as the transformer layers'
from diffusers import UNet2DConditionModel
from diffusers.models.transformers.transformer_2d import Transformer2DModel

DEVICE = "meta"

# the keys of each repository's unet/config.json that shape the module tree (the rest are diffusers' defaults)
CONFIGS: dict[str, dict[str, Any]] = {
    # CompVis/stable-diffusion-v1-4 and stable-diffusion-v1-5/stable-diffusion-v1-5 unet/config.json
    "diffusers-sd1": dict(sample_size=64, cross_attention_dim=768, attention_head_dim=8, block_out_channels=(320, 640, 1280, 1280)),
    # stabilityai/stable-diffusion-2-base unet/config.json
    "diffusers-sd2": dict(sample_size=64, cross_attention_dim=1024, attention_head_dim=(5, 10, 20, 20),
                          use_linear_projection=True, block_out_channels=(320, 640, 1280, 1280)),
    # stabilityai/stable-diffusion-xl-base-1.0 unet/config.json
    "diffusers-sdxl": dict(sample_size=128, down_block_types=("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
                           up_block_types=("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"),
                           block_out_channels=(320, 640, 1280), layers_per_block=2, transformer_layers_per_block=(1, 2, 10),
                           attention_head_dim=(5, 10, 20), cross_attention_dim=2048, use_linear_projection=True,
                           addition_embed_type="text_time", addition_time_embed_dim=256,
                           projection_class_embeddings_input_dim=2816),
}
# `gpucheck calibrate`'s U-Net probe: SD 1.5's block types at channels 64/128, one layer per block (resources/calibration/unet.toml)
PROBE = Path(__file__).resolve().parents[1] / "resources" / "models" / "calibration" / "unet-block.json"
CONFIGS["calibration-unet-block"] = {k: v for k, v in json.loads(PROBE.read_text(encoding="utf-8")).items()
                                     if not k.startswith("_")}
TEXT_TOKENS = 77


def build(name: str) -> UNet2DConditionModel:
    with torch.device(DEVICE):
        return UNet2DConditionModel(**CONFIGS[name])


def inputs(u: UNet2DConditionModel) -> tuple[tuple, dict]:
    c = u.config
    lat = int(c.sample_size)
    x = torch.randn(1, int(c.in_channels), lat, lat, device=DEVICE)
    t = torch.tensor([10], device=DEVICE)
    kw: dict[str, Any] = {"encoder_hidden_states": torch.randn(1, TEXT_TOKENS, int(c.cross_attention_dim), device=DEVICE)}
    if c.addition_embed_type == "text_time":
        pooled = int(c.projection_class_embeddings_input_dim) - 6 * int(c.addition_time_embed_dim)
        kw["added_cond_kwargs"] = {"text_embeds": torch.randn(1, pooled, device=DEVICE),
                                   "time_ids": torch.randn(1, 6, device=DEVICE)}
    return (x, t), kw


def step(u: UNet2DConditionModel, input_grad: bool = False) -> tuple[Counter, Counter]:
    (x, t), kw = inputs(u)
    x.requires_grad_(input_grad)
    target = torch.randn_like(x)
    with CountOps() as fwd:
        loss = F.mse_loss(u(x, t, **kw).sample.float(), target.float())
    with CountOps() as bwd:
        loss.backward()
    return fwd.ops, bwd.ops


def kohya_targets(u: nn.Module) -> list[str]:
    """sd-scripts networks/lora.py create_modules: inside every Transformer2DModel, each nn.Linear and 1×1 Conv2d."""
    names = []
    for name, mod in u.named_modules():
        if isinstance(mod, Transformer2DModel):
            for child, sub in mod.named_modules():
                conv1x1 = isinstance(sub, nn.Conv2d) and sub.kernel_size == (1, 1)
                if isinstance(sub, nn.Linear) or conv1x1:
                    names.append(f"{name}.{child}")
    return names


def attention_targets(u: nn.Module) -> list[str]:
    ends = (".to_q", ".to_k", ".to_v", ".to_out.0")
    return [n for n, m in u.named_modules() if n.endswith(ends) and isinstance(m, nn.Linear)]


def count(name: str) -> dict[str, Any]:
    u = build(name)
    modules = Counter(type(m).__name__ for m in u.modules())
    out: dict[str, Any] = {"config": {k: list(v) if isinstance(v, tuple) else v for k, v in CONFIGS[name].items()},
                           "modules": {k: modules[k] for k in ("Linear", "Conv2d", "GroupNorm", "LayerNorm",
                                                                "Attention", "BasicTransformerBlock",
                                                                "Transformer2DModel", "ResnetBlock2D")}}
    fwd, bwd = step(u)  # every weight trained
    u.requires_grad_(False)
    _, frozen = step(u, input_grad=True)
    out.update(forward=sum(fwd.values()), backward=sum(bwd.values()), backward_frozen_weights=sum(frozen.values()),
               forward_ops=dict(sorted(fwd.items())), backward_frozen_ops=dict(sorted(frozen.items())))
    fwd_n, frozen_n = out["forward"], out["backward_frozen_weights"]
    lora: dict[str, Any] = {}
    for targets, pick in (("attention", attention_targets), ("transformer", kohya_targets)):
        u = build(name)
        u.requires_grad_(False)
        modules = pick(u)
        u.add_adapter(peft.LoraConfig(r=4, lora_alpha=4, lora_dropout=0.0, init_lora_weights="gaussian",
                                      target_modules=modules))
        lf, lb = step(u)  # only the adapters' A and B require grad
        n = len(modules)
        lora[targets] = {"adapted_modules": n, "forward": sum(lf.values()), "backward": sum(lb.values()),
                         "adapter_forward_per_module": round((sum(lf.values()) - fwd_n) / n, 2),
                         "adapter_backward_per_module": round((sum(lb.values()) - frozen_n) / n, 2)}
    out["lora"] = lora
    return out


def main() -> None:
    which = sys.argv[1:] or list(CONFIGS)
    result = {"torch": torch.__version__, "diffusers": diffusers.__version__, "peft": peft.__version__,
              "device": DEVICE, "batch": 1, "text_tokens": TEXT_TOKENS, "method": __doc__.split("\n\n")[2],
              "models": {name: count(name) for name in which}}
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
