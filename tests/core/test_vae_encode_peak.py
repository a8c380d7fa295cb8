"""The VAE encode a diffusion job runs on every step when its latents are not cached, as counted on diffusers' code.

benchmarks/count_vae_encode_peak.py ran diffusers' AutoencoderKL (SD 1.5's and SDXL's vae/config.json: the same
architecture) through `vae.encode(x).latent_dist.sample()` under no_grad and counted the live tensor storages after
every operator, parameters excluded (benchmarks/data/vae-encode-peak.json), with the CPU profiler's allocator events as
a second count. diffusers' SDXL LoRA script keeps that VAE in fp32, so at 1024 px the encode holds more than the
checkpointed U-Net keeps for backward: the step's peak is the encode's, and caching the latents lowers it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from gpucheck.catalog import get_workload
from gpucheck.estimate.factors import load_factors
from gpucheck.estimate.memory import breakdown
from gpucheck.estimate.vae_encode import FP32_OVER_16BIT

ROOT = Path(__file__).resolve().parents[2]
COUNT = json.loads((ROOT / "benchmarks" / "data" / "vae-encode-peak.json").read_text())["runs"]
UNETS = json.loads((ROOT / "benchmarks" / "data" / "unet-activations.json").read_text())["runs"]
MIB = 2**20
JOBS = {"sd15-lora": "sd15", "sd15-dreambooth": "sd15", "sdxl-lora": "sdxl"}


@pytest.mark.parametrize("job", sorted(JOBS))
def test_the_catalog_takes_the_counted_encode(job: str) -> None:
    """The job's figure is the 16-bit count at its reference size; the count grows with the pixels (fused attention:
    the same MiB per megapixel at 256, 512 and 1024 px) and doubles in fp32, as the estimate scales it."""
    m = get_workload(job).model
    vae = JOBS[job]
    assert m.aux_encode_peak_mib == pytest.approx(COUNT[f"{vae}/16bit/{m.ref_image_size}"]["peak_mib"], abs=0.5)
    for dtype in ("16bit", "fp32"):
        per_mp = {COUNT[f"{vae}/{dtype}/{px}"]["mib_per_megapixel"] for px in (256, 512, 1024)}
        assert max(per_mp) == pytest.approx(min(per_mp), rel=0.01)
    for px in (256, 512, 1024):
        ratio = COUNT[f"{vae}/fp32/{px}"]["peak_mib"] / COUNT[f"{vae}/16bit/{px}"]["peak_mib"]
        assert ratio == pytest.approx(FP32_OVER_16BIT, rel=0.01)
    # the allocator's own events agree with the operator count in fp32 (in 16 bits the CPU's oneDNN convolution adds
    # a contiguous copy of its input, which CUDA's does not make)
    assert COUNT[f"{vae}/fp32/512"]["profiler"]["peak_mib"] == pytest.approx(COUNT[f"{vae}/fp32/512"]["peak_mib"],
                                                                              rel=0.01)


def _activations_mib(job: str, **train) -> float:
    w = get_workload(job)
    bd, _ = breakdown(w.model, dataclasses.replace(w.train, **train), load_factors(), "cuda")
    return bd.activations_bytes / MIB


def test_sdxl_lora_as_configured_peaks_in_its_fp32_vae_encode() -> None:
    """diffusers' train_text_to_image_lora_sdxl.py (the sdxl-lora job: 1024 px, gradient checkpointing, VAE in fp32)
    holds the fp32 encode's 2,572 MiB before the U-Net runs, more than the 708 MiB the checkpointed U-Net keeps; with
    the latents cached (kohya's --cache_latents, the job's own tweak) the U-Net's count is the peak again."""
    encode = COUNT["sdxl/fp32/1024"]["peak_mib"]
    unet = UNETS["sdxl/lora"]["at_1024"]["checkpointed"]["total_mib"]
    assert encode > unet
    assert _activations_mib("sdxl-lora") == pytest.approx(encode, rel=0.005)
    assert _activations_mib("sdxl-lora", cache_embeddings=True) == pytest.approx(unet, rel=0.005)
    # a 16-bit VAE (an fp16-safe VAE given with --pretrained_vae_model_name_or_path) halves the encode
    assert _activations_mib("sdxl-lora", vae_fp32=False) == pytest.approx(COUNT["sdxl/16bit/1024"]["peak_mib"],
                                                                          rel=0.005)


def test_sd15_without_checkpointing_still_peaks_in_the_unet() -> None:
    """SD 1.5 at 512 px in fp16: the U-Net keeps 1,087 MiB for backward, three times the 16-bit encode, so the peak is
    the U-Net's as before; with every block checkpointed (242 MiB) the encode's 321.5 MiB sets it."""
    unet = UNETS["sd15/lora"]["at_512"]
    assert _activations_mib("sd15-lora") == pytest.approx(unet["saved_mib"], rel=0.005)
    assert _activations_mib("sd15-lora", grad_checkpointing=True) == pytest.approx(COUNT["sd15/16bit/512"]["peak_mib"],
                                                                                   rel=0.005)
