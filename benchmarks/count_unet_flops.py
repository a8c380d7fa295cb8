"""Count the forward FLOPs of the Stable Diffusion U-Nets, split into linear/convolution and attention-score math.

    /path/to/python-with-torch-and-diffusers benchmarks/count_unet_flops.py [--out FILE]

Runs with a Python that has torch and diffusers (the trial's), not gpucheck's. Builds diffusers'
UNet2DConditionModel on the meta device (no weights, no memory) from the published unet/config.json of each model
the catalog keys as arch = "unet", and runs one forward (batch 1, 77 text tokens, as the CLIP tokenizers pad to)
under torch.utils.flop_counter.FlopCounterMode, at the model's ref_image_size (latent = pixels / 8) and at half of it.

Each aten op's FLOPs are put in one of three groups:

- linear / conv: aten.convolution (the ResNet blocks, proj_in / proj_out as 1×1 convolutions, down/upsampling,
  conv_in / conv_out), aten.mm / aten.addmm (q, k, v, out projections, GEGLU feed-forward, linear proj_in / proj_out,
  time and text-time embeddings). These grow with the pixels, except the cross-attention K/V projections of the 77
  text tokens and the embeddings, which do not (a small constant: see `constant_gflops`).
- self-attention scores: aten.bmm / baddbmm / _scaled_dot_product_* inside the transformer blocks' attn1 (QKᵀ and
  the probabilities × V over latent tokens × latent tokens): they grow with the pixels SQUARED.
- cross-attention scores: the same ops inside attn2 (latent tokens × 77 text tokens): they grow with the pixels.

The estimator keys (a) as the model's forward_gflops (× image_scale), the self-attention scores as attn_gflops
(× image_scale²) and the cross-attention scores as cross_attn_gflops (× image_scale), the last two priced as
attention math (gpucheck/estimate/compute.py forward_flops_per_sample). FLOPs are 2 per multiply-add.
The half-size run checks those scalings on the real graph.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

import torch
from count_io import write_counts
from count_unet_elementwise import _COMMON as SD_CONFIG_COMMON
from torch.utils.flop_counter import FlopCounterMode

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "resources" / "models"
TEXT_TOKENS = 77  # CLIP tokenizers pad every caption to 77 tokens (model_max_length)

_SD_COMMON = SD_CONFIG_COMMON  # the SD 1.x / 2.x config keys both U-Nets share (count_unet_elementwise.py)


def _load(name: str) -> dict:
    return json.loads((MODELS / name).read_text(encoding="utf-8"))


# name → (config, ref image size in pixels, source); SD 1.4's unet/config.json (CompVis/stable-diffusion-v1-4) has the
# same architecture keys as SD 1.5's, so the SD 1.4 evidence models share the sd15 count
MODELS_COUNTED = {
    "sd15": (_load("sd15/unet.json"), 512,
             "huggingface.co/stable-diffusion-v1-5/stable-diffusion-v1-5 unet/config.json (resources/models/sd15/unet.json)"),
    "sd2-base": (dict(_SD_COMMON, attention_head_dim=[5, 10, 20, 20], cross_attention_dim=1024,
                      use_linear_projection=True), 512,
                 "huggingface.co/stabilityai/stable-diffusion-2-base unet/config.json: heads of 64 channels "
                 "(attention_head_dim [5, 10, 20, 20]), linear proj_in/proj_out, 1,024-wide OpenCLIP context"),
    "sdxl": (_load("sdxl/unet.json"), 1024,
             "huggingface.co/stabilityai/stable-diffusion-xl-base-1.0 unet/config.json (resources/models/sdxl/unet.json); "
             "text_embeds 1,280 + time_ids 6 (the text-time addition embedding)"),
    "calibration-unet-block": (_load("calibration/unet-block.json"), 128,
                               "resources/models/calibration/unet-block.json (gpucheck calibrate's U-Net probe)"),
}

_LINEAR = {"mm", "addmm", "convolution"}
_ATTN = {"bmm", "baddbmm", "_scaled_dot_product_efficient_attention", "_scaled_dot_product_flash_attention",
         "_scaled_dot_product_cudnn_attention", "_scaled_dot_product_flash_attention_for_cpu"}


def _op(op) -> str:
    return str(op).split(".")[1] if str(op).startswith("aten.") else str(op)


def meta_unet(cfg: dict, pixels: int):
    """diffusers' UNet2DConditionModel from a unet/config.json on the meta device, and one batch-1 input at `pixels`
    (latents = pixels / 8, 77 text tokens, SDXL's text-time embedding): (unet, latents, text context, extra kwargs)."""
    from diffusers import UNet2DConditionModel

    kw = {k: v for k, v in cfg.items() if not k.startswith("_")}
    with torch.device("meta"):
        unet = UNet2DConditionModel(**kw)
    side = pixels // 8  # the VAE downsamples by 8
    x = torch.randn(1, kw["in_channels"], side, side, device="meta")
    ctx = torch.randn(1, TEXT_TOKENS, kw["cross_attention_dim"], device="meta")
    extra = {}
    if kw.get("addition_embed_type") == "text_time":
        text = kw["projection_class_embeddings_input_dim"] - 6 * kw["addition_time_embed_dim"]
        extra["added_cond_kwargs"] = {"text_embeds": torch.randn(1, text, device="meta"),
                                      "time_ids": torch.randn(1, 6, device="meta")}
    return unet, x, ctx, extra


def count(cfg: dict, pixels: int) -> dict:
    unet, x, ctx, extra = meta_unet(cfg, pixels)
    with FlopCounterMode(display=False) as fc:
        unet(x, torch.tensor([10], device="meta"), encoder_hidden_states=ctx, **extra)
    by_op: dict[str, float] = {}
    self_attn = cross_attn = 0.0
    for module, ops in fc.get_flop_counts().items():
        if module == "Global":
            for op, n in ops.items():
                by_op[_op(op)] = by_op.get(_op(op), 0.0) + n / 1e9
        leaf = module.rsplit(".", 1)[-1]
        if leaf in ("attn1", "attn2"):
            attn = sum(n for op, n in ops.items() if _op(op) in _ATTN) / 1e9
            self_attn += attn if leaf == "attn1" else 0.0
            cross_attn += attn if leaf == "attn2" else 0.0
    unknown = sorted(set(by_op) - _LINEAR - _ATTN)
    if unknown:
        raise SystemExit(f"ops not grouped: {unknown}")
    linear = sum(v for k, v in by_op.items() if k in _LINEAR)
    attn = sum(v for k, v in by_op.items() if k in _ATTN)
    assert abs(attn - self_attn - cross_attn) < 1e-6 * max(attn, 1.0), (attn, self_attn, cross_attn)
    return {"image_size": pixels, "latent": pixels // 8, "text_tokens": TEXT_TOKENS,
            "params": sum(p.numel() for p in unet.parameters()),
            "total_gflops": round(linear + attn, 4), "linear_conv_gflops": round(linear, 4),
            "self_attn_gflops": round(self_attn, 4), "cross_attn_gflops": round(cross_attn, 4),
            "by_op_gflops": {k: round(v, 4) for k, v in sorted(by_op.items())}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "unet-flops.json"))
    args = ap.parse_args()
    runs = {}
    for name, (cfg, ref, source) in MODELS_COUNTED.items():
        full, half = count(cfg, ref), count(cfg, ref // 2)
        # linear/conv ≈ a·pixels + constant (text K/V projections, embeddings): the constant from the two sizes
        const = (4.0 * half["linear_conv_gflops"] - full["linear_conv_gflops"]) / 3.0
        runs[name] = {"source": source, "ref_image_size": ref, "at_ref": full, "at_half": half,
                      "constant_gflops": round(const, 4),
                      "self_attn_ratio_half_to_ref": round(half["self_attn_gflops"] / full["self_attn_gflops"], 4),
                      "cross_attn_ratio_half_to_ref": round(half["cross_attn_gflops"] / full["cross_attn_gflops"], 4)}
        print(name, json.dumps(runs[name]["at_ref"]), "constant", runs[name]["constant_gflops"], flush=True)
    write_counts(args.out, __doc__, runs, diffusers=__import__("diffusers").__version__, platform=platform.platform())
    return 0


if __name__ == "__main__":
    sys.exit(main())
