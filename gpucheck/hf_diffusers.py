"""A diffusers config (a pipeline's model_index.json or a model's config.json) given where a Hugging Face
transformers config.json is read: what it is, and which built-in job to use instead.

diffusers writes the class it builds as `_class_name` (and no `model_type`), so without this check a user who points
gpucheck at a downloaded Stable Diffusion or FLUX folder was told only that 'model_type' is missing. The three
built-in diffusion jobs price the diffusers U-Net models (resources/workloads/sd15-lora.toml, sd15-dreambooth.toml,
sdxl-lora.toml); diffusion transformers (FLUX.1, Stable Diffusion 3, PixArt, Sana …) are not modelled yet.
"""

from __future__ import annotations

from typing import Any

from gpucheck.errors import BadInput
from gpucheck.fileio import shorten
from gpucheck.i18n import tr

# diffusers class names of diffusion transformers (and the pipelines built on them); a substring match
DIT_MARKS = ("flux", "sd3", "stablediffusion3", "transformer2d", "ditpipeline", "pixart", "sana", "lumina", "hunyuan",
             "cogview", "cogvideo", "wan", "ltx", "mochi", "allegro", "auraflow", "chroma", "hidream", "qwenimage")
# UNet2DConditionModel's cross_attention_dim: 2048 in SDXL's U-Net (CLIP ViT-L 768 + OpenCLIP bigG 1280),
# 768 in SD 1.x's, 1024 in SD 2.x's (the checkpoints' unet/config.json)
SDXL_CROSS_ATTENTION_DIM = 2048


def diffusers_kind(cfg: dict[str, Any]) -> str | None:
    """'dit', 'sdxl', 'sd' or 'other' for a diffusers config; None when `cfg` is not one."""
    cls = cfg.get("_class_name")
    if not isinstance(cls, str):
        return None
    name = cls.lower()
    if name.startswith("stablediffusionxl"):
        return "sdxl"
    if name in ("unet2dconditionmodel", "autoencoderkl"):
        return "sdxl" if cfg.get("cross_attention_dim") == SDXL_CROSS_ATTENTION_DIM else "sd"
    if any(mark in name for mark in DIT_MARKS):
        return "dit"
    if name.startswith("stablediffusion"):
        return "sd"
    return "other"


def diffusers_error(cfg: dict[str, Any], where: str) -> BadInput | None:
    """The message for a diffusers config, naming the built-in job that prices it; None when `cfg` is not one."""
    kind = diffusers_kind(cfg)
    if kind is None:
        return None
    cls = shorten(str(cfg.get("_class_name")), 40)
    if kind == "sd":
        return BadInput(tr("{where}: a Stable Diffusion model (diffusers {cls}); estimate it with the built-in job "
                           "sd15-lora or sd15-dreambooth, e.g. 'gpucheck estimate sd15-lora --image-size 512'",
                           where=where, cls=cls))
    if kind == "sdxl":
        return BadInput(tr("{where}: a Stable Diffusion XL model (diffusers {cls}); estimate it with the built-in "
                           "job sdxl-lora, e.g. 'gpucheck estimate sdxl-lora --batch 1'", where=where, cls=cls))
    if kind == "dit":
        # FLUX.1 [dev]: 'a 12 billion parameter rectified flow transformer' (black-forest-labs/FLUX.1-dev model card);
        # SDXL's U-Net: 2,567,463,684 parameters (resources/workloads/sdxl-lora.toml)
        return BadInput(tr("{where}: a diffusion transformer (diffusers {cls}, as in FLUX.1 or Stable Diffusion 3) "
                           "is not modelled yet. FLUX.1's transformer has 12 B parameters, SDXL's U-Net 2.6 B: for FLUX.1 "
                           "the built-in job sdxl-lora gives only a lower bound of the memory and time",
                           where=where, cls=cls))
    return BadInput(tr("{where}: a diffusers config ({cls}), not a language or speech model's config.json; the "
                       "built-in diffusion jobs are sd15-lora, sd15-dreambooth and sdxl-lora", where=where, cls=cls))
