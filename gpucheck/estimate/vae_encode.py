"""The VAE encode a diffusion job runs on every step when its latents are not cached.

diffusers' training scripts (examples/text_to_image/train_text_to_image_lora.py, train_text_to_image_lora_sdxl.py,
examples/dreambooth/train_dreambooth.py) and kohya sd-scripts without --cache_latents call
`vae.encode(pixel_values).latent_dist.sample()` with the frozen VAE before the U-Net's forward: its full-resolution
feature maps (128 channels × the pixels) are alive for a moment and freed before the U-Net keeps anything for
backward, so the step's peak holds the larger of the two, not their sum. The live bytes of one encode are counted per
image at the model's ref_image_size in 16 bits (`aux_encode_peak_mib`, benchmarks/count_vae_encode_peak.py): they
grow with the pixels (fused attention in the VAE's mid-block keeps no tokens² matrix) and with the batch, and double
in fp32 (the count: exactly 2.0× at every size), the dtype the VAE runs in when the job trains in fp32 or keeps the
VAE in fp32 beside a 16-bit U-Net (`train.vae_fp32`).
"""

from __future__ import annotations

from gpucheck.estimate.factors import image_scale
from gpucheck.records import ModelSpec, TrainSpec

MIB = 1024**2
FP32_OVER_16BIT = 2.0  # 4-byte over 2-byte elements: the counted fp32 / 16-bit ratio (benchmarks/data/vae-encode-peak.json)


def vae_runs_fp32(t: TrainSpec) -> bool:
    """The VAE holds fp32 weights and encodes in fp32: the whole job trains in fp32 (the scripts' weight_dtype), or
    the job keeps the VAE in fp32 beside a 16-bit U-Net (train.vae_fp32)."""
    return t.precision == "fp32" or t.vae_fp32


def vae_encode_bytes(m: ModelSpec, t: TrainSpec, aux_on_gpu: float) -> float:
    """The live tensors of the step's VAE encode on one GPU (bytes; parameters excluded), or 0 where the VAE does not
    run in the step: latents cached (`train.cache_embeddings`, or no helper networks on the GPU: `aux_on_gpu` 0) or no
    count for the model."""
    if m.arch != "unet" or t.cache_embeddings or aux_on_gpu <= 0 or not m.aux_encode_peak_mib:
        return 0.0
    per_image = m.aux_encode_peak_mib * MIB * image_scale(m, t)
    if vae_runs_fp32(t):
        per_image *= FP32_OVER_16BIT
    return per_image * t.batch
